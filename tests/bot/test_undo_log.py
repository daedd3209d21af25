"""Undo markers in the append-only log (bot.actionlog, bot.history, bot.seats).

A game with taken-back actions replays to the very state of the game without them;
its exported log shows both rows and verifies; a marker that names anything but the
latest action in effect is refused; the engine-level refusal catches draws, shuffles
and reveals.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.actionlog import effective, undo_text, undone_seq
from bot.history import replay_history
from bot.logfile import LogInfo, export_log, parse_log
from bot.seats import undo_refusal
from bot.verify import verify_game
from engine.core import registry
from engine.core.events import Event
from engine.dif.ai import RandomPlayer
from engine.dif.game import DifEngine, default_engine
from engine.dif.setup import DifSetup, ElementSetup
from engine.dif.state import GameState

DIF: Any = registry.get("dif")

SEED = 11


def duel() -> DifSetup:
    return DifSetup(
        ruleset="zero",
        year=1942,
        elements=(
            ElementSetup(seat="A1", side="allied", aircraft="buffalo-i"),
            ElementSetup(seat="X1", side="axis", aircraft="ki-43"),
        ),
    )


def random_game(engine: DifEngine, setup: DifSetup, seed: int) -> list[tuple[str, str, GameState]]:
    """``(seat, action, state before)`` of a whole random game."""
    state, _ = engine.new_game(setup, seed)
    brain = RandomPlayer(2)
    out = []
    while state.step != "over":
        seat = engine.pending(state)[0].seat
        action = brain.choose(engine, state, seat)
        out.append((seat, str(action), state))
        state, _ = engine.apply(state, seat, action)
    return out


def test_markers_name_the_latest_action_in_effect() -> None:
    assert undo_text(7) == "undo 7" and undone_seq("undo 7") == 7
    assert undone_seq("play MAN X1L") is None
    rows = [(1, "A1", "stay"), (2, "A1", "pass"), (3, "", "undo 2"), (4, "A1", "done")]
    assert effective(rows) == [(1, "A1", "stay"), (4, "A1", "done")]
    stacked = [(1, "A1", "a"), (2, "A1", "b"), (3, "", "undo 2"), (4, "", "undo 1")]
    assert effective(stacked) == []
    with pytest.raises(ValueError, match="not the latest"):
        effective([(1, "A1", "a"), (2, "X1", "b"), (3, "", "undo 1")])


def test_a_game_with_undos_replays_as_the_game_without_them() -> None:
    engine = default_engine()
    setup = duel()
    game = random_game(engine, setup, SEED)
    undoable = [
        i
        for i, (seat, text, before) in enumerate(game)
        if i + 1 < len(game)
        and undo_refusal(DIF, before, *_applied(engine, before, seat, text)) is None
    ]
    assert len(undoable) >= 3
    # Take back a few actions: each is played, taken back, then the game goes on.
    log: list[tuple[int, str, str]] = []
    for i, (seat, text, _) in enumerate(game):
        log.append((len(log) + 1, seat, text))
        if i in undoable[:3]:
            log.append((len(log) + 1, "", undo_text(len(log))))
            log.append((len(log) + 1, seat, text))  # played again
    with_undos = replay_history(DIF, setup, SEED, log)
    plain = replay_history(DIF, setup, SEED, [(n, s, t) for n, (s, t, _) in enumerate(game, 1)])
    assert with_undos.final.to_json() == plain.final.to_json()
    assert [m.text for m in with_undos.moves] == [m.text for m in plain.moves]
    assert len(with_undos.log_rows) == len(log)
    state = engine.replay(setup, SEED, [(s, t) for _, s, t in effective(log)])
    assert state.to_json() == plain.final.to_json()

    info = LogInfo(3, "finished", None, SEED, plain.final.result)
    text = export_log(with_undos, info, full=True)
    marker = log[undoable[0] + 1]
    assert f"[{marker[0]}] -: undo {marker[0] - 1}" in text
    assert f"↩ Action {marker[0] - 1} of" in text
    parsed = parse_log(text)
    assert parsed.log == log
    checked = verify_game(
        DIF,
        game_id=3,
        setup=setup,
        seed=SEED,
        commitment=None,
        log=parsed.log,
        recorded_result=plain.final.result,
        narration=parsed.lines,
        full=True,
    )
    assert [c.ok for c in checked.checks][1:] == [True] * (len(checked.checks) - 1)


def test_a_marker_that_does_not_name_the_latest_action_fails_the_replay() -> None:
    engine = default_engine()
    setup = duel()
    game = random_game(engine, setup, SEED)[:4]
    log = [(n, s, t) for n, (s, t, _) in enumerate(game, 1)]
    log.append((5, "", "undo 3"))
    checked = verify_game(
        DIF,
        game_id=3,
        setup=setup,
        seed=SEED,
        commitment=None,
        log=log,
        recorded_result=None,
    )
    assert not checked.ok and "takes back no latest action" in checked.text()


def _applied(
    engine: DifEngine, before: GameState, seat: str, text: str
) -> tuple[GameState, list[Event]]:
    from engine.dif.actions import Action

    after, events = engine.apply(before, seat, Action.from_text(text))
    return after, list(events)


def test_undo_is_refused_for_draws_shuffles_and_reveals() -> None:
    engine = default_engine()
    setup = duel()
    game = random_game(engine, setup, SEED)
    reasons = set()
    for seat, text, before in game:
        after, events = _applied(engine, before, seat, text)
        why = undo_refusal(DIF, before, after, events)
        if after.deck != before.deck or after.rng != before.rng:
            assert why is not None, text
        if any(not e.public for e in events):
            assert why is not None, text
        if why:
            reasons.add(why)
    assert "it revealed the secret altitudes" in reasons  # the last pick
    assert "cards were drawn" in reasons
