"""Property tests of every engine (hypothesis): legal and illegal actions interleaved.

Hypothesis draws a game's seed and, step by step, either a legal action of a pending
seat (by index) or an illegal one: a legal action offered to a seat that has no
decision to take, an action text seen earlier in the game that is not legal now, or
random text. An illegal action raises the rules' error (:class:`EngineError`) and
leaves the state unchanged (``dump_state``); at the end the live state equals the
replay of the legal actions from (setup, seed).

The run is small and derandomized (the same examples every time, so CI is
reproducible); ``TALLYHO_HYPOTHESIS_EXAMPLES=500`` runs that many examples per system,
from random draws (a soak; CONTRIBUTING says how).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import registry
from engine.core.errors import EngineError
from tests.engine.ai.conftest import SYSTEMS, duel

SOAK = int(os.environ.get("TALLYHO_HYPOTHESIS_EXAMPLES", "0"))
"""Examples per system of a soak run (0: the small reproducible run)."""
SEATS = {"dif": ("A1", "X1"), "lockedon": ("A1", "B1"), "eagles": ("A1", "G1")}
"""The seats of each system's ``duel``."""
STEPS = 40
"""Steps drawn per game (a step may be refused: the game is often unfinished)."""


def _refused(system: Any, state: Any, seat: str, attempt: Any) -> None:
    """``attempt`` (an action, or a text to parse first) raises EngineError for
    ``seat`` and changes nothing."""
    before = system.dump_state(state)
    with pytest.raises(EngineError):
        action = system.parse_action(attempt) if isinstance(attempt, str) else attempt
        system.apply(state, seat, action)
    assert system.dump_state(state) == before


@pytest.mark.parametrize("system_id", SYSTEMS)
@settings(
    max_examples=SOAK or 6,
    derandomize=not SOAK,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_illegal_actions_change_nothing_and_replay_is_live(
    system_id: str, seed: int, data: st.DataObject
) -> None:
    system = registry.get(system_id)
    setup = duel(system_id)
    state, _ = system.new_game(setup, seed)
    log: list[tuple[str, str]] = []
    seen: set[str] = set()
    for _ in range(STEPS):
        if system.is_over(state):
            break
        pending = system.pending(state)
        seat = data.draw(st.sampled_from(sorted(d.seat for d in pending)), "seat")
        legal = system.legal_actions(state, seat)
        texts = {str(a) for a in legal}
        seen |= texts
        kind = data.draw(st.sampled_from(("legal", "legal", "other_seat", "stale", "text")))
        idle = [s for s in SEATS[system_id] if s not in {d.seat for d in pending}]
        stale = sorted(seen - texts)
        if kind == "other_seat" and idle:
            _refused(system, state, data.draw(st.sampled_from(idle)), legal[0])
        elif kind == "stale" and stale:
            _refused(system, state, seat, data.draw(st.sampled_from(stale)))
        elif kind == "text":
            text = data.draw(st.text(max_size=12), "text")
            if text.strip() not in texts:
                _refused(system, state, seat, text)
        else:
            action = legal[data.draw(st.integers(0, len(legal) - 1), "index")]
            state, _ = system.apply(state, seat, action)
            log.append((seat, str(action)))
    assert system.dump_state(system.replay(setup, seed, log)) == system.dump_state(state)
