"""A seat's message (its hand, then its menu) computes the seat's legal actions once:
each presenter remembers the latest ones it showed, by the state's identity
(``engine.core.present.ShownState``); a new state is computed afresh."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core import registry
from engine.core.present import Seating, ShownState
from tests.engine.ai.conftest import SYSTEMS, duel


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_seats_message_computes_its_legal_actions_once(
    system_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    system: Any = registry.get(system_id)
    presenter: Any = system.presenter()
    state, _ = system.new_game(duel(system_id), 5)
    rng = random.Random(5)
    engine = presenter.engine
    calls: list[int] = []
    real = type(engine).legal_actions

    def counted(self: Any, state: Any, seat: str) -> Any:
        calls.append(id(state))
        return real(self, state, seat)

    monkeypatch.setattr(type(engine), "legal_actions", counted)
    monkeypatch.setattr(presenter.shown_legal, "_compute", engine.legal_actions)  # counted
    seating = Seating(names={}, players={})
    shown = 0
    for _ in range(40):
        pending = system.pending(state)
        if not pending:
            break
        seat = pending[0].seat
        before = len(calls)
        menu = presenter.menu(state, seat, seating, "en")
        lines = presenter.seat_lines(state, seat, "en", live=True)
        assert menu and lines
        assert calls[before:] == [id(state)]  # the menu's, and the hand reuses them
        shown += 1
        legal = system.legal_actions(state, seat)
        state, _ = system.apply(state, seat, rng.choice(legal))
    assert shown >= 10


def test_the_memo_keeps_every_seat_of_the_latest_state() -> None:
    """A move's reply, post and prompts ask for several seats of one state in turn (a
    seat's menu, then the spectators' view for its notes, then the seat again): each
    is computed once while the state is the latest; a new state starts afresh."""
    computed: list[tuple[int, str | None]] = []

    def compute(state: object, seat: str | None) -> str:
        computed.append((id(state), seat))
        return f"{id(state)}:{seat}"

    memo: ShownState[str | None, str] = ShownState(compute)
    first, second = object(), object()
    for seat in ("A1", None, "A1", None, "X1", "A1"):
        assert memo(first, seat) == f"{id(first)}:{seat}"
    assert computed == [(id(first), "A1"), (id(first), None), (id(first), "X1")]
    memo(second, "A1")
    memo(first, "A1")  # no longer the latest: computed again
    assert computed[3:] == [(id(second), "A1"), (id(first), "A1")]
