"""Settings read once per click: a memo of the settings rows, scoped to one task.

A click reads the same settings several times (the game's while it plays and makes
the moves nobody is asked for, the server's for the deadlines and its language, the
player's for the quiet hours and DMs). :func:`remember_settings` opens a memo for the
task handling an interaction (``cogs.boundary.Gate.admit`` calls it): within that
task each settings row (guild, game or user) is read from the database once, and a
write by the same task replaces what the memo holds. Nothing outlives the task, and
only the task that opened the memo uses it (a task it starts, such as a timer, reads
the database), so a row another process writes is seen by the next click: the memo
is safe with any number of processes on one database.

A store no other process writes to (SQLite: ``Storage.shared`` is false) also holds
the rows it read or wrote across clicks (:class:`HeldRows`): it knows every write, so
what it holds is what the database holds. A click then reads no settings row from the
database at all once the rows were read (issue 16: the reads were about a tenth of a
click's time on the event loop).

The stores apply it to their settings reads and writes with :func:`memoized_read`
and :func:`memoized_write`; outside a memo they read and write as usual.

A store whose every statement is a round trip to a server (PostgreSQL) also reads
ahead: the first read of a game's settings in a click brings, in the same statement,
the rows the click goes on to read (the server's and the players' settings, the
game's live deadlines and seat clocks). :func:`remember_read` puts a settings row so
read in the memo; :func:`read_ahead` holds the other rows for the task, which
:func:`held_ahead` hands out until the task writes anything (:func:`writing`): a
write may change them, and they are read again from the database after it.
"""

from __future__ import annotations

import asyncio
import functools
import json
import weakref
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

from bot.recent import Recent

__all__ = [
    "Frozen",
    "Held",
    "HeldRows",
    "freeze",
    "held_ahead",
    "in_a_memo",
    "memoized_read",
    "memoized_write",
    "read_ahead",
    "remember_read",
    "remember_settings",
    "settings_written",
    "thaw",
    "writing",
]

Row = dict[str, Any]
Key = tuple[str, int]
Frozen = tuple[dict[str, Any], str]
"""A row as held: its fields but ``settings`` (scalars: the key, the time it was
written), and its ``settings`` as JSON text. Thawed (:func:`thaw`), each reader gets
a copy of its own, deep, for a fraction of ``copy.deepcopy``'s cost."""
Store = TypeVar("Store")
K = TypeVar("K")
V = TypeVar("V")
P = ParamSpec("P")

ROWS_HELD = 16_384
"""Settings rows (guilds, games, players) a store holds at most, the least recently
used going first: a few hundred bytes each."""


class Held(Generic[K, V]):
    """Rows read from a database only this process writes (SQLite: ``Storage.shared``
    is false), held across clicks by key, the least recently used going first: read
    once, then every write of the store that touches them brings them up to date
    once written or forgets them (:meth:`forget`), and a write that failed forgets
    them (it may have been written all the same: a cancellation).

    A read that was under way while a write ended is not kept (:attr:`writes`
    changed): it may have read the rows as they were before. Everything runs on the
    event loop's thread; a value held is shared by every reader, who only reads it."""

    def __init__(self, size: int) -> None:
        self._held: Recent[K, V] = Recent(size)
        self.writes = 0
        """Writes ended so far (a read keeps its rows only if none ended meanwhile)."""

    def __contains__(self, key: K) -> bool:
        return key in self._held

    def __len__(self) -> int:
        return len(self._held)

    def get(self, key: K) -> V | None:
        """What is held for ``key``, if anything."""
        return self._held.get(key)

    def keep(self, key: K, value: V, writes: int) -> None:
        """Hold what a read begun when :attr:`writes` was ``writes`` found."""
        if writes == self.writes:
            self._held.put(key, value)

    def forget(self, key: K) -> None:
        """A write of ``key``'s rows ended, what it left unknown: read them again."""
        self.writes += 1
        self._held.pop(key)


class HeldRows(Held[Key, Frozen | None]):
    """The settings rows a store read or wrote, held across clicks (:class:`Held`).
    Every write of a row replaces what is held once it is written
    (:func:`memoized_write`, :func:`settings_written`); a read kept before a write
    ended is replaced by it. A row the database does not have is held too (None)."""

    def __init__(self, size: int = ROWS_HELD) -> None:
        super().__init__(size)

    def frozen(self, key: Key) -> Frozen | None:
        """The row held for ``key`` (None: the database has none), as held (thaw a
        copy to use it: :func:`thaw`); ``key in`` first."""
        return self._held.get(key)

    def read(self, key: Key, row: Row | None, writes: int) -> None:
        """Hold what a read that began when :attr:`writes` was ``writes`` found."""
        self.keep(key, freeze(row), writes)

    def written(self, key: Key, row: Row | None) -> None:
        """A write of ``key`` ended: it holds ``row`` now (None: unknown, forget it)."""
        if row is None:
            self.forget(key)
        else:
            self.writes += 1
            self._held.put(key, freeze(row))


def freeze(row: Row | None) -> Frozen | None:
    """A settings row as held (:data:`Frozen`), or None."""
    if row is None:
        return None
    return {k: v for k, v in row.items() if k != "settings"}, json.dumps(row["settings"])


def thaw(frozen: Frozen | None) -> Row | None:
    """A copy of its own of a row held (:func:`freeze`), or None."""
    if frozen is None:
        return None
    fields, settings = frozen
    return {**fields, "settings": json.loads(settings)}


def _held(store: object) -> HeldRows | None:
    """The rows ``store`` holds across clicks (None: another process may write)."""
    held = getattr(store, "held_settings", None)
    return held if isinstance(held, HeldRows) else None


class _Memo:
    """One task's memo: the settings rows it read or wrote, and the rows a store read
    ahead for it (:func:`read_ahead`)."""

    __slots__ = ("ahead", "rows", "task")

    def __init__(self, task: asyncio.Task[Any]) -> None:
        self.task = weakref.ref(task)
        self.rows: dict[Key, Frozen | None] = {}
        self.ahead: dict[Key, Any] = {}


_memo: ContextVar[_Memo | None] = ContextVar("tallyho_settings_memo", default=None)
"""The memo and the task it belongs to, held weakly: the task's context holds the
memo, so a strong reference would be a cycle (task, context, memo, task) that only
the cyclic collector frees, and never once ``gc.freeze`` moved it out of its reach
(``bot.games.keep_out_of_collections``)."""


def remember_settings() -> None:
    """Open a settings memo for the current task (a fresh one if it had one)."""
    task = asyncio.current_task()
    if task is not None:
        _memo.set(_Memo(task))


def _current() -> _Memo | None:
    """The current task's memo (None outside one, or in a task the memo's task started)."""
    memo = _memo.get()
    if memo is None:
        return None
    owner = memo.task()
    if owner is None or owner is not asyncio.current_task():
        return None
    return memo


def _rows() -> dict[Key, Frozen | None] | None:
    memo = _current()
    return None if memo is None else memo.rows


def in_a_memo() -> bool:
    """True in a task with a memo of its own (a click): reading ahead serves it."""
    return _current() is not None


def remember_read(table: str, value: int, row: Row | None) -> None:
    """A row of settings ``table`` (None: there is none) read along with another one:
    the memo holds it, unless it holds that row already."""
    rows = _rows()
    if rows is not None and (table, value) not in rows:
        rows[(table, value)] = freeze(row)


def read_ahead(kind: str, value: int, records: Any) -> None:
    """Hold ``records`` (immutable: each reader gets the same ones) of ``kind`` for
    ``value`` (e.g. a game's live deadlines) for the task, until it writes."""
    memo = _current()
    if memo is not None:
        memo.ahead[(kind, value)] = records


def held_ahead(kind: str, value: int, *, take: bool = False) -> Any | None:
    """The records read ahead of ``kind`` for ``value`` (None: none held; read them);
    ``take``: hand them out once (a second reader reads the database)."""
    memo = _current()
    if memo is None:
        return None
    if take:
        return memo.ahead.pop((kind, value), None)
    return memo.ahead.get((kind, value))


def writing() -> None:
    """The task is about to write: what was read ahead for it may change, so it is
    read from the database next (settings rows stay: a write keeps them up to date)."""
    memo = _current()
    if memo is not None and memo.ahead:
        memo.ahead.clear()


def settings_written(store: object, table: str, value: int, row: Row | None) -> None:
    """``store`` wrote settings row ``value`` of ``table``: the memo holds ``row`` next,
    and so does the store if it holds rows (:class:`HeldRows`). ``row`` None: the write
    failed and may have been written all the same (cancelled while it ran), so neither
    holds the row any more and it is read again. A store calls it itself for a row it
    wrote with other rows, in one transaction (not through ``_put_json``)."""
    at = (table, value)
    held = _held(store)
    if held is not None:
        held.written(at, row)
    rows = _rows()
    if rows is not None:
        if row is None:
            rows.pop(at, None)
        else:
            rows[at] = freeze(row)


def memoized_read(
    read: Callable[[Store, str, str, int], Awaitable[Row | None]],
) -> Callable[[Store, str, str, int], Awaitable[Row | None]]:
    """A store's ``_get_json(table, key, value)``, read once per memo, or never again
    once the store holds the row (:class:`HeldRows`). Each caller gets its own copy:
    what one changes, the next does not see."""

    @functools.wraps(read)
    async def memoized(self: Store, table: str, key: str, value: int) -> Row | None:
        rows, held, at = _rows(), _held(self), (table, value)
        if rows is not None and at in rows:
            return thaw(rows[at])
        if held is not None and at in held:
            frozen = held.frozen(at)
            if rows is not None:
                rows[at] = frozen
            return thaw(frozen)
        writes = held.writes if held is not None else 0
        row = await read(self, table, key, value)
        if held is not None:
            held.read(at, row, writes)
        if rows is not None:
            rows[at] = freeze(row)
        return row  # the caller's own: what is held is a copy

    return memoized


def memoized_write(
    write: Callable[Concatenate[Store, str, str, int, P], Awaitable[Row]],
) -> Callable[Concatenate[Store, str, str, int, P], Awaitable[Row]]:
    """A store's ``_put_json(table, key, value, ...)``: what it wrote is what the memo
    (and the store's :class:`HeldRows`) holds next; a failed write forgets the row."""

    @functools.wraps(write)
    async def memoized(
        self: Store, table: str, key: str, value: int, *args: P.args, **kwargs: P.kwargs
    ) -> Row:
        try:
            written = await write(self, table, key, value, *args, **kwargs)
        except BaseException:
            settings_written(self, table, value, None)
            raise
        settings_written(self, table, value, written)
        return written

    return memoized
