"""A game's history: its log replayed (:class:`History`), and the replay's frames.

What is built from a history: the log export (:mod:`bot.logfile`), verification
(:mod:`bot.verify`) and the after-action report (:mod:`bot.report`); the
:class:`~bot.archive.Archive` keeps recent replays for them.

A game is ``(system, setup, seed, action log)`` (``docs/architecture.md``), so everything
here is derived by replaying that with the game's system; nothing is stored but the
seed commitment (:mod:`bot.commitment`). No Discord here, and no rules: effects, fates
and narration come from the system's events, states and views.

**Hidden information.** Until a game is over, only public things leave here: the
public narration, and the actions in canonical notation with their secret parts
masked by the system (``public_text``). The seed, the private events and each seat's
hand appear only once the game is over (finished, or aborted).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.actionlog import handover_note, undo_narration, undone_seq
from bot.games import LoadedGame
from bot.storage import GameStatus
from bot.systems import Hosted
from engine.core.errors import EngineError
from engine.core.events import Event
from strings import tr

__all__ = [
    "ENDED",
    "History",
    "Move",
    "ReplayError",
    "is_over",
    "replay_frames",
    "replay_history",
]

ENDED = (GameStatus.FINISHED, GameStatus.ABORTED)


def is_over(game: LoadedGame) -> bool:
    """Finished or aborted: hidden information may now be shown."""
    return game.record.status in ENDED


class ReplayError(Exception):
    """An action of a log is refused by the rules (the log was not played from it)."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(message)
        self.seq = seq


@dataclass(frozen=True, slots=True)
class Move:
    """One action of the log, replayed: what it caused, and the states around it."""

    seq: int
    seat: str
    """The seat that acted; empty for a system action."""
    text: str
    """The action in canonical notation, as stored."""
    events: tuple[Event, ...]
    before: Any
    after: Any


@dataclass(frozen=True, slots=True)
class History:
    """A whole game, replayed from its setup, seed and log."""

    system: Hosted
    setup: Any
    seed: int
    start: Any
    start_events: tuple[Event, ...]
    moves: tuple[Move, ...]
    """The actions in effect: what the report, the replay and the result see."""
    entries: tuple[Move, ...] = ()
    """Every row of the log in order, taken-back actions and undo markers included
    (``bot.actionlog``): what the log file shows. Empty: the same as ``moves``."""

    @property
    def final(self) -> Any:
        return self.moves[-1].after if self.moves else self.start

    @property
    def log_rows(self) -> tuple[Move, ...]:
        return self.entries or self.moves


def replay_history(
    system: Hosted, setup: Any, seed: int, log: Iterable[tuple[int, str, str]]
) -> History:
    """Replay ``(seq, seat, action text)`` rows, keeping every event and state.

    An undo marker (``undo N``, a system row) returns to the state before action
    ``N``, which must be the latest action in effect; both stay in ``entries``, out of
    ``moves``. A handover marker (``seat A2 {...}``) changes nothing and tells its
    line; it is in ``entries`` only. Raises :class:`ReplayError` naming the first action the rules refuse.
    """
    state, events = system.new_game(setup, seed)
    start, start_events = state, tuple(events)
    moves: list[Move] = []  # in effect: an undo marker pops the latest (bot.actionlog)
    entries: list[Move] = []
    for seq, seat, text in log:
        handover = handover_note(text)
        if handover is not None and not seat:  # a seat handed over: a line, no change
            entries.append(Move(seq, seat, text, (Event("seat", handover[1]),), state, state))
            continue
        target = undone_seq(text)
        if target is not None:
            if seat or not moves or moves[-1].seq != target:
                raise ReplayError(
                    seq, f"action {seq} ({seat or '-'}: {text}) takes back no latest action"
                )
            undone = moves.pop()
            line = Event("undo", undo_narration(target, undone.seat))
            entries.append(Move(seq, seat, text, (line,), state, undone.before))
            state = undone.before
            continue
        try:
            after, caused = system.apply(state, seat, system.parse_action(text))
        except EngineError as exc:
            raise ReplayError(
                seq, f"action {seq} ({seat or '-'}: {text}) is refused: {exc}"
            ) from exc
        move = Move(seq, seat, text, tuple(caused), state, after)
        moves.append(move)
        entries.append(move)
        state = after
    return History(system, setup, seed, start, start_events, tuple(moves), tuple(entries))


def replay_frames(history: History, language: str = "en") -> list[tuple[Any, str]]:
    """Spectator views of the game: when play begins, after every turn, and at the
    end; each with a caption of what notable happened since the last frame (the
    narration, in ``language``)."""
    system = history.system
    presenter = system.presenter()
    frames: list[tuple[Any, str]] = []

    def notable(events: Iterable[Event]) -> list[str]:
        return [tr(e.text, language) for e in events if e.public and presenter.notable(e)]

    notes = notable(history.start_events)
    last: Any = None
    for m in history.moves:
        notes += notable(m.events)
        over = system.is_over(m.after)
        turn = system.turn_of(m.after)
        if over or (turn is not None and turn != system.turn_of(m.before)):
            frames.append((system.view(m.after, None), " ".join(notes)))
            notes, last = [], m.after
    if history.final is not last:  # a resignation: the sky as it was left
        frames.append((system.view(history.final, None), " ".join(notes)))
    return frames
