"""Work a committed change leaves for after the player's answer (issue 16).

A move's reply waits only for what must be atomic with the move (its transaction)
and for what the player is told. Some of what a change sets off can wait: closing the
game's posted prompts that no longer hold, for instance, reads the game's messages
and may edit them on Discord. The chat layer opens a list of follow-ups for the task
handling an interaction (:func:`answer_first`; ``cogs.boundary.Gate.admit`` does);
:func:`after_answer` then adds work to it instead of running it, and the gate runs the
list once that task ended, in order, in a task of its own that it counts as in flight
(so a shutdown waits for it). Outside an interaction (a deadline's default, start-up)
no list is open and the work runs at once, as it always did.

Follow-ups must be safe to run late and to run twice: something else may have changed
the game meanwhile, and a crash may lose them (each is done again by the game's next
change). They take the locks they need themselves (:meth:`bot.games.GameStore.later`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

__all__ = ["FollowUp", "after_answer", "answer_first", "run_follow_ups"]

log = logging.getLogger(__name__)

FollowUp = Callable[[], Awaitable[None]]

_open: ContextVar[tuple[weakref.ref[asyncio.Task[Any]], list[FollowUp]] | None] = ContextVar(
    "tallyho_follow_ups", default=None
)
"""The list and the task it belongs to, held weakly (the task's context holds the
list: a strong reference would be a cycle, as for ``bot.storage.memo``). A task the
interaction's task starts inherits the context but not the list: it runs its work."""


def answer_first() -> list[FollowUp]:
    """Open the current task's list of follow-ups (a fresh one) and return it: the
    caller runs it (:func:`run_follow_ups`) once the task ended."""
    follow_ups: list[FollowUp] = []
    task = asyncio.current_task()
    if task is not None:
        _open.set((weakref.ref(task), follow_ups))
    return follow_ups


def _follow_ups() -> list[FollowUp] | None:
    opened = _open.get()
    if opened is None or opened[0]() is not asyncio.current_task():
        return None
    return opened[1]


async def after_answer(work: FollowUp, *, deferred: FollowUp | None = None) -> None:
    """Run ``work`` after the current interaction's answer, or now outside one.
    ``deferred``: what runs when it waits instead (e.g. ``work`` under a lock the
    caller holds now and will have let go of by then)."""
    follow_ups = _follow_ups()
    if follow_ups is None:
        await work()
    else:
        follow_ups.append(deferred or work)


async def run_follow_ups(follow_ups: list[FollowUp]) -> None:
    """Run the follow-ups, in order; one that fails is logged and the rest still run."""
    while follow_ups:
        work = follow_ups.pop(0)
        try:
            await work()
        except Exception:
            log.exception("a follow-up of a change failed")
