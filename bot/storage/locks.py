"""Per-game locks: serialise the writes of one process to one game.

Two clicks on the same game arrive as two coroutines; the service takes the game's
lock around "load, apply, append" so the second one sees the first one's result
instead of failing on a stale version. Games do not block each other. The lock is
in-process only: across processes the version check in the database
(:class:`bot.storage.base.StaleGameVersion`) is what keeps the log consistent.

Usage::

    locks = GameLocks()
    async with locks(game_id):
        ...

An entry exists only while some coroutine holds or awaits the game's lock, so the
registry does not grow with the number of games ever played.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field

__all__ = ["GameLocks"]


@dataclass(slots=True)
class _Entry:
    """A game's lock and how many coroutines hold or wait for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class GameLocks:
    """A registry of :class:`asyncio.Lock`, one per game id, created on demand."""

    def __init__(self) -> None:
        self._entries: dict[int, _Entry] = {}

    def __call__(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """An async context manager holding the lock of ``game_id``."""
        return self._hold(game_id)

    @asynccontextmanager
    async def _hold(self, game_id: int) -> AsyncIterator[None]:
        entry = self._entries.get(game_id)
        if entry is None:
            entry = self._entries[game_id] = _Entry()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            # Also reached when cancelled while waiting: the entry never leaks.
            entry.users -= 1
            if entry.users == 0:
                del self._entries[game_id]

    def locked(self, game_id: int) -> bool:
        """True if some coroutine holds the lock of ``game_id`` now."""
        entry = self._entries.get(game_id)
        return entry is not None and entry.lock.locked()

    def __len__(self) -> int:
        """The number of games whose lock is held or awaited."""
        return len(self._entries)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._entries

    def __repr__(self) -> str:
        return f"<GameLocks games={sorted(self._entries)!r}>"
