// An in-memory stand-in for the rooms API (docs/API.md, Rooms), for unit tests of the
// browser's room model: the real server is Python and runs in the browser tests
// (e2e/rooms.mjs). It answers as the server does: codes, bearer tokens, 404 for a
// room that is gone, 409 for a poll not open, state first on every stream, followers
// and answers to the lecturer's stream only, closed at the end.
import type { RoomState, RoomView } from '../api/types';
import type { EventSourceLike, Transport } from '../room/link';
import type { Timers } from '../room/stream';

export class FakeSource implements EventSourceLike {
  readyState = 0;
  onerror: ((event: Event) => void) | null = null;
  private readonly listeners = new Map<string, ((e: { data: string }) => void)[]>();
  constructor(
    readonly url: string,
    private readonly onClose: (source: FakeSource) => void = () => {},
  ) {}
  addEventListener(type: string, listener: (e: { data: string }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    if (this.readyState === 2) return;
    this.readyState = 2;
    this.onClose(this);
  }
  emit(type: string, data: unknown): void {
    if (this.readyState === 2) return;
    this.readyState = 1;
    for (const l of this.listeners.get(type) ?? []) l({ data: JSON.stringify(data) });
  }
  /** The connection fails: the browser retries (`gaveUp` false) or gives up. */
  fail(gaveUp: boolean): void {
    this.readyState = gaveUp ? 2 : 0;
    this.onerror?.(new Event('error'));
  }
}

interface FakeRoom {
  token: string;
  state: RoomState;
  answers: Map<number, Map<string, number>>;
}

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const refuse = (status: number, detail: string) => json({ detail }, status);

export class FakeRooms implements Transport {
  readonly rooms = new Map<string, FakeRoom>();
  readonly sources: FakeSource[] = [];
  /** Requests as "METHOD path". */
  readonly log: string[] = [];
  /** The server is unreachable: fetch rejects, new streams fail. */
  down = false;
  private codes = 0;
  /** Who answers: a client per page, as the server tells them apart by cookie. */
  client = 'page';

  readonly fetch = (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    this.log.push(`${method} ${path}`);
    if (this.down) throw new TypeError('Failed to fetch');
    const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : null;
    const auth = ((init?.headers ?? {}) as Record<string, string>).Authorization ?? '';
    if (method === 'POST' && path === '/api/rooms') {
      const n = this.codes++;
      const code = `ABCD${ALPHABET[Math.floor(n / ALPHABET.length) % ALPHABET.length]}${ALPHABET[n % ALPHABET.length]}`;
      const token = `token-${code}`;
      this.rooms.set(code, { token, state: { code, version: 1, view: body as RoomView }, answers: new Map() });
      return json({ code, token, url: `/?room=${code}`, idle_timeout_s: 900 }, 201);
    }
    const m = /^\/api\/rooms\/([^/]+)(\/view|\/answers)?$/.exec(path);
    const room = m ? this.rooms.get(decodeURIComponent(m[1]!)) : undefined;
    if (!m || !room) return refuse(404, 'no such room: it ended, or never was');
    const lecturer = auth === `Bearer ${room.token}`;
    if (method === 'GET' && !m[2]) return json({ state: room.state, followers: this.followers(room.state.code) });
    if (method === 'PUT' && m[2] === '/view') {
      if (!lecturer) return refuse(403, 'only the room’s lecturer may do this');
      room.state = { code: room.state.code, version: room.state.version + 1, view: body as RoomView };
      this.send(room.state.code, 'state', { type: 'state', state: room.state });
      return json(room.state);
    }
    if (method === 'DELETE' && !m[2]) {
      if (!lecturer) return refuse(403, 'only the room’s lecturer may do this');
      this.end(room.state.code, 'ended');
      return new Response(null, { status: 204 });
    }
    if (method === 'POST' && m[2] === '/answers') {
      const { poll, value } = body as { poll: number; value: number };
      const open = room.state.view.poll;
      if (!open || open.id !== poll || open.revealed) return refuse(409, 'this question is not open');
      const answers = room.answers.get(poll) ?? new Map<string, number>();
      room.answers.set(poll, answers.set(this.client, value));
      const values = [...answers.values()].sort((a, b) => a - b);
      this.send(room.state.code, 'answers', { type: 'answers', answers: { poll, count: values.length, values } }, true);
      return new Response(null, { status: 204 });
    }
    return refuse(405, 'Method Not Allowed');
  }) as typeof fetch;

  events(url: string): FakeSource {
    const source = new FakeSource(url, () => this.countFollowers(code));
    this.sources.push(source);
    const m = /^\/api\/rooms\/([^/?]+)\/events(?:\?token=(.*))?$/.exec(url);
    const code = decodeURIComponent(m?.[1] ?? '');
    const room = this.rooms.get(code);
    const token = m?.[2] ? decodeURIComponent(m[2]) : '';
    // As a browser's: the connection answers after the caller has added its listeners.
    const refused = this.down || !room || (token && token !== room.token);
    queueMicrotask(() => {
      if (source.readyState === 2) return;
      if (refused || !this.rooms.has(code)) return source.fail(true);
      source.emit('state', { type: 'state', state: this.rooms.get(code)!.state });
      if (!token) this.countFollowers(code);
    });
    return source;
  }

  /** Streams open on room `code`: the lecturer's (with its token) or followers'. */
  open(code: string, lecturer = false): FakeSource[] {
    return this.sources.filter(
      (s) => s.readyState !== 2 && s.url.startsWith(`/api/rooms/${code}/events`) && s.url.includes('token=') === lecturer,
    );
  }

  followers(code: string): number {
    return this.open(code).length;
  }

  private countFollowers(code: string): void {
    this.send(code, 'followers', { type: 'followers', count: this.followers(code) }, true);
  }

  private send(code: string, type: string, data: unknown, lecturerOnly = false): void {
    for (const s of [...this.open(code, true), ...(lecturerOnly ? [] : this.open(code))]) s.emit(type, data);
  }

  /** The room ends (its lecturer, or the idle timeout): streams hear `closed`. */
  end(code: string, reason: 'ended' | 'idle'): void {
    const streams = [...this.open(code, true), ...this.open(code)];
    this.rooms.delete(code);
    for (const s of streams) {
      s.emit('closed', { type: 'closed', reason });
      s.close();
    }
  }
}

/** Timers the test fires by hand. */
export class ManualTimers implements Timers {
  private next = 1;
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { fn, ms });
    return id;
  }
  clearTimeout(id: unknown): void {
    this.pending.delete(id as number);
  }
  /** Fire what is due now (not what those schedule); returns the waits fired. */
  fire(): number[] {
    const due = [...this.pending.entries()];
    this.pending.clear();
    for (const [, t] of due) t.fn();
    return due.map(([, t]) => t.ms);
  }
}

export function memoryStore(): {
  items: Map<string, string>;
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
  removeItem(k: string): void;
} {
  const items = new Map<string, string>();
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) };
}
