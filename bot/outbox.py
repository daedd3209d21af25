"""The outbox: what a game's thread has not been told yet, derived from its log.

Nothing is copied aside to be posted later: the committed actions are the outbox. A
game's ``posted_seq`` (``Storage.mark_posted``) says up to which action its thread
was told (Discord accepted the post); the actions after it are what a crash, a
timeout or an outage of Discord kept from the players. :func:`untold` rebuilds the
:class:`~bot.outcome.Outcome` of those actions, as the move that made them would have
told it (their narration, a picture when the turn passed or the game ended, a prompt
for every decision pending now), for the chat layer to post (``cogs.outbox``).
:func:`untold_end` adds the end of a game that came without an action (a
resignation, a forfeit, an abort: ``end_told`` false). A start adds no action either:
``start=True`` tells it (``start_told`` false), as the start would have, before the
steps after it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.commitment import commitment_text
from bot.games import GameStore
from bot.history import replay_history
from bot.outcome import Outcome, outcome_of
from bot.results import verdict_term
from bot.storage import GameStatus
from engine.core.events import Event
from strings import Term

__all__ = ["untold", "untold_end"]


async def untold(
    store: GameStore, game_id: int, after: int | None = None, *, start: bool = False
) -> Outcome | None:
    """The outcome of the game's actions after ``after`` (default: its ``posted_seq``),
    or None when there are none (or the game has no setup: nothing was played).
    ``start``: the thread was not told the start either: the outcome begins with what
    the start told (its narration, its seed commitment), everything pending is new,
    and the picture is shown.

    The log is replayed (undo markers included, :func:`bot.history.replay_history`);
    the state after action ``after`` gives what was pending then (a prompt pending
    then is not new: its player was pinged) and whose turn it was (a picture when the
    turn changed since, or the game is over). Narration is each action's events, as
    the system tells them."""
    game = await store.load(game_id)
    record = game.record
    if after is None:  # from the store: marking bumps no version, a cached game is older
        stored = await store.storage.get_game(game_id)
        after = record.posted_seq if stored is None else stored.posted_seq
    if (after >= record.last_seq and not start) or game.setup is None or game.state is None:
        return None
    rows = [(r.seq, r.seat or "", r.action) for r in await store.storage.load_actions(game_id)]
    system = game.system
    history = await asyncio.to_thread(replay_history, system, game.setup, record.seed, rows)
    then: Any = history.start
    events: list[Event] = list(history.start_events) if start else []
    for entry in history.log_rows:
        if entry.seq <= after:
            then = entry.after
        else:
            events.extend(entry.events)
    if start:
        outcome = outcome_of(game, events, image=True, before=set())
        commitment = record.options.get("commitment")
        if isinstance(commitment, str):  # last, as the start tells it (bot.lobby)
            outcome.public.append(commitment_text(commitment))
        return outcome
    pending = {(p.seat, p.kind) for p in system.pending(then)}
    turned = system.is_over(game.state) or system.turn_of(game.state) != system.turn_of(then)
    return outcome_of(game, events, image=turned, before=pending)


async def untold_end(store: GameStore, game_id: int, after: int, *, start: bool = False) -> Outcome:
    """What the thread of a game that ended without an action (``end_told`` false)
    was not told after action ``after``: the untold steps (:func:`untold`), then the
    end, in words the record keeps (the verdict of a resignation or a forfeit, an
    abort); nobody is asked anything any more."""
    game = await store.load(game_id)
    outcome = await untold(store, game_id, after, start=start) or Outcome(game)
    outcome.prompts.clear()
    if game.record.status is GameStatus.ABORTED:
        outcome.public.append(Term("end.aborted_late", id=game.id))
    else:
        outcome.public.append(Term("end.told_late", verdict=verdict_term(game)))
    outcome.finished = True
    return outcome
