"""Live classroom rooms: a lecturer's view pushed to the students who follow it.

`models.py` has the payloads, `store.py` keeps rooms (in this process, or in Redis so
that any replica serves any room), `hub.py` fans events out to this replica's streams,
`routes.py` is the HTTP side (docs/API.md, "Rooms")."""

from gradtrace.server.rooms.hub import RoomHub
from gradtrace.server.rooms.routes import rooms_router
from gradtrace.server.rooms.store import MemoryStore, RedisStore, RoomStore

__all__ = ["MemoryStore", "RedisStore", "RoomHub", "RoomStore", "rooms_router"]
