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

The stores apply it to their settings reads and writes with :func:`memoized_read`
and :func:`memoized_write`; outside a memo they read and write as usual.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import weakref
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, Concatenate, ParamSpec, TypeVar

__all__ = ["memoized_read", "memoized_write", "remember_settings", "settings_written"]

Row = dict[str, Any]
Store = TypeVar("Store")
P = ParamSpec("P")

_memo: ContextVar[
    tuple[weakref.ref[asyncio.Task[Any]], dict[tuple[str, int], Row | None]] | None
] = ContextVar("tallyho_settings_memo", default=None)
"""The memo and the task it belongs to, held weakly: the task's context holds the
memo, so a strong reference would be a cycle (task, context, memo, task) that only
the cyclic collector frees, and never once ``gc.freeze`` moved it out of its reach
(``bot.games.keep_out_of_collections``)."""


def remember_settings() -> None:
    """Open a settings memo for the current task (a fresh one if it had one)."""
    task = asyncio.current_task()
    if task is not None:
        _memo.set((weakref.ref(task), {}))


def _rows() -> dict[tuple[str, int], Row | None] | None:
    held = _memo.get()
    if held is None:
        return None
    owner = held[0]()
    if owner is None or owner is not asyncio.current_task():
        return None
    return held[1]


def settings_written(table: str, value: int, row: Row) -> None:
    """A store wrote settings row ``value`` of ``table`` with other rows, in one
    transaction (not through ``_put_json``): the memo holds what it wrote."""
    rows = _rows()
    if rows is not None:
        rows[(table, value)] = copy.deepcopy(row)


def memoized_read(
    read: Callable[[Store, str, str, int], Awaitable[Row | None]],
) -> Callable[[Store, str, str, int], Awaitable[Row | None]]:
    """A store's ``_get_json(table, key, value)``, read once per memo (each caller gets
    its own copy: what one changes, the next does not see)."""

    @functools.wraps(read)
    async def memoized(self: Store, table: str, key: str, value: int) -> Row | None:
        rows = _rows()
        if rows is None:
            return await read(self, table, key, value)
        if (table, value) not in rows:
            rows[(table, value)] = await read(self, table, key, value)
        return copy.deepcopy(rows[(table, value)])

    return memoized


def memoized_write(
    write: Callable[Concatenate[Store, str, str, int, P], Awaitable[Row]],
) -> Callable[Concatenate[Store, str, str, int, P], Awaitable[Row]]:
    """A store's ``_put_json(table, key, value, ...)``: what it wrote is what the memo
    holds next (a failed write forgets the row)."""

    @functools.wraps(write)
    async def memoized(
        self: Store, table: str, key: str, value: int, *args: P.args, **kwargs: P.kwargs
    ) -> Row:
        rows = _rows()
        if rows is None:
            return await write(self, table, key, value, *args, **kwargs)
        rows.pop((table, value), None)
        written = await write(self, table, key, value, *args, **kwargs)
        rows[(table, value)] = copy.deepcopy(written)
        return written

    return memoized
