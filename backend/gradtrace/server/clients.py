"""Who a client is, for fair turns at the workers: a token the server issues to each
browser in a cookie, signed so that a client cannot pass a made-up one off as issued.

The key lives only in the server process (the workers are exec'd from a separate zygote
and never see it) and changes when the server restarts: a browser then gets a new token.
Replicas sharing a Redis share one key, kept there.
Tokens are free to get, so they give fairness among well-behaved clients; what bounds a
client that collects many is its address's limits (WorkerPool)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

COOKIE = "gradtrace_client"
_COOKIE_PREFIX = COOKIE.encode() + b"="
_MAX_AGE_S = 30 * 24 * 3600


class ClientTokens:
    def __init__(self, key: bytes | None = None) -> None:
        self._key = key or secrets.token_bytes(32)

    def use_key(self, key: bytes) -> None:
        """Sign and verify with `key` from now on (replicas share one)."""
        self._key = key

    def _mac(self, ident: bytes) -> bytes:
        digest = hashlib.blake2b(ident, key=self._key, digest_size=16).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=")

    def issue(self) -> bytes:
        ident = base64.urlsafe_b64encode(secrets.token_bytes(16)).rstrip(b"=")
        return ident + b"." + self._mac(ident)

    def set_cookie(self, token: bytes) -> tuple[bytes, bytes]:
        """The Set-Cookie header for `token` (same site only, out of scripts' reach)."""
        value = _COOKIE_PREFIX + token + b"; Path=/; HttpOnly; SameSite=Strict; Max-Age=%d"
        return b"set-cookie", value % _MAX_AGE_S

    def verified(self, headers: list[tuple[bytes, bytes]]) -> str | None:
        """The token in the request's cookie if this server issued it, else None."""
        for name, value in headers:
            if name != b"cookie":
                continue
            start = value.find(_COOKIE_PREFIX)
            if start < 0 or (start and value[start - 1 : start] not in b"; "):
                continue
            start += len(_COOKIE_PREFIX)
            end = value.find(b";", start)
            token = value[start : None if end < 0 else end].strip()
            ident, _, mac = token.partition(b".")
            if ident and hmac.compare_digest(mac, self._mac(ident)):
                return token.decode("ascii")
        return None


_SHARED_KEY = "gradtrace:client-key"


async def shared_client_key(redis_url: str) -> bytes:
    """The key every replica on this Redis signs client tokens with: the first to ask
    makes it. (Without one key a browser's token would change from replica to replica.)"""
    import redis.asyncio as redis

    client = redis.Redis.from_url(redis_url)
    try:
        await client.set(_SHARED_KEY, secrets.token_bytes(32), nx=True)
        key = await client.get(_SHARED_KEY)
    finally:
        await client.aclose()
    assert isinstance(key, bytes) and len(key) == 32
    return key
