"""Refusals: every rule-based refusal names its rule, and a refused action changes nothing."""

from __future__ import annotations

import json
import re

import pytest

from engine.core.errors import RuleViolation
from engine.dif.actions import Action
from engine.dif.game import DifEngine
from engine.dif.state import GameState

from .conftest import GameFactory, Play, Step

CODES = [
    "IMS-1B1D", "IMS-2B3D", "IMS-2BFT", "IMS-3B3D", "OOS-1B2D", "MAN", "HAL", "SCI", "VER",
    "TIT", "BAR", "ACE",
]  # fmt: skip
REFS = ["A1L", "A1W", "X1L", "X1W"]

# Refusals that are about the input or the turn, not a rule of the game: possession
# ("you have no TIT"), whose move it is, which kind of decision is pending.
NOT_A_RULE = re.compile(
    r"^(It is not your move|The game is over|There is no seat|You cannot '|You have no |"
    r"Your (hand|mini-hand|wingman's mini-hand) holds no |Your element has no wingman|"
    r"Your wingman's target is no longer|\w+ is not an aircraft still in the fight)"
)
CITES_A_RULE = re.compile(r"\((?:[^()]*\b\d{1,2}\.\d{1,2}[a-d]?\b|[^()]*RotL L\d+)[^()]*\)")


def probes() -> list[Action]:
    """Many actions, legal or not, of every verb."""
    texts = ["skip", "stay", "dive", "nofollow", "pass", "giveup", "evade", "done", "discard"]
    texts += [f"alt {a}" for a in ("VL", "M", "VH")]
    texts += [f"wm {r}" for r in REFS]
    texts += ["follow", "follow MAN", "follow MAN TIT", "follow MAN TIT BAR", "discard ACE ACE"]
    texts += ["play VER down", "play VER up MAN", "play VER up", "play VER down MAN"]
    for code in CODES:
        texts += [f"climb {code}", f"respond {code}", f"respond {code}=SCI", f"discard {code}"]
        for ref in REFS:
            texts += [f"play {code} {ref}", f"play {code}=SCI {ref}"]
    return [Action.from_text(t) for t in texts]


PROBES = probes()


def dump(state: GameState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def test_every_refusal_for_a_rule_names_the_rule(
    engine: DifEngine, sample_steps: list[Step]
) -> None:
    seen: dict[str, str] = {}
    for step in sample_steps[::9]:
        for seat in ("A1", "X1", "Z9"):
            for action in PROBES:
                why = engine.refusal(step.before, seat, action)
                if why is not None:
                    seen.setdefault(why, f"{seat} {action}")
    rule_based = {m: a for m, a in seen.items() if not NOT_A_RULE.match(m)}
    missing = {m: a for m, a in rule_based.items() if not CITES_A_RULE.search(m)}
    assert not missing, "refusals without a rule section:\n" + "\n".join(
        f"  {a!r}: {m}" for m, a in sorted(missing.items())
    )
    assert len(rule_based) > 40, "the probes reach most of the rules"


def test_a_refused_action_raises_rule_violation_and_changes_nothing(
    engine: DifEngine, sample_steps: list[Step]
) -> None:
    refused = 0
    for step in sample_steps[::23]:
        state = step.before
        before = dump(state)
        for action in PROBES[::3]:
            for seat in ("A1", "X1"):
                why = engine.refusal(state, seat, action)
                if why is None:
                    continue
                with pytest.raises(RuleViolation) as caught:
                    engine.apply(state, seat, action)
                assert str(caught.value) == why
                refused += 1
        assert dump(state) == before
    assert refused > 1000


def test_applying_a_legal_action_leaves_the_old_state_untouched(sample_steps: list[Step]) -> None:
    from engine.dif.game import default_engine

    engine = default_engine()
    for step in sample_steps[::11]:
        before = dump(step.before)
        engine.apply(step.before, step.seat, step.action)
        assert dump(step.before) == before


def test_legal_actions_are_exactly_the_probes_that_are_not_refused(
    engine: DifEngine, sample_steps: list[Step]
) -> None:
    for step in sample_steps[::41]:
        seat = step.seat
        legal = set(engine.legal_actions(step.before, seat))
        for action in PROBES:
            if action in legal:
                assert engine.refusal(step.before, seat, action) is None, str(action)
            else:  # one truth: nothing is accepted that is not listed (test_legality)
                assert engine.refusal(step.before, seat, action) is not None, str(action)


@pytest.mark.parametrize(
    ("setup", "steps", "seat", "text", "rule"),
    [
        ({}, [], "X1", "stay", "not your move"),
        ({}, [], "A1", "play MAN X1L", "adjust altitude step"),
        ({}, ["stay"], "A1", "play TIT X1L", "2.2"),
        ({}, ["stay"], "A1", "play SCI X1L", "6.34"),
        (
            {"positions": [{"leader": "A1", "on": "X1", "position": "Tailing"}]},
            ["stay"],
            "A1",
            "play MAN X1L",
            "6.31",
        ),
        (
            {"positions": [{"leader": "A1", "on": "X1", "position": "Advantaged"}]},
            ["stay"],
            "A1",
            "play HAL X1L",
            "6.32",
        ),
        (
            {"positions": [{"leader": "X1", "on": "A1", "position": "Advantaged"}]},
            ["stay"],
            "A1",
            "play IMS-1B1D X1L",
            "6.4",
        ),
        ({}, ["stay"], "A1", "play IMS-3B3D X1L", "5.24"),
        ({}, ["stay"], "A1", "play SCI X1W", "10.61"),
        ({}, ["stay"], "A1", "play MAN=SCI X1L", "5.26"),
        ({"altitudes": {"A1": "M", "X1": "H"}}, ["stay"], "A1", "play MAN X1L", "7.3"),
        ({"altitudes": {"A1": "VL", "X1": "M"}}, [], "A1", "dive", "7.2"),
        ({}, ["stay", "play MAN X1L"], "X1", "respond BAR", "8.31"),
        ({}, ["stay", "play MAN X1L", "pass"], "A1", "evade", "12.11"),
        ({}, ["stay", "play MAN X1L", "pass"], "A1", "play IMS-1B1D X1W", "8.5b"),
        (
            {"positions": [{"leader": "A1", "on": "X1", "position": "Advantaged"}]},
            ["stay"],
            "A1",
            "play IMS-1B1D X1W",
            "6.5",
        ),
    ],
)
def test_refusals_cite_the_section(
    engine: DifEngine,
    new_game: GameFactory,
    play: Play,
    setup: dict[str, object],
    steps: list[str],
    seat: str,
    text: str,
    rule: str,
) -> None:
    hands = {
        "A1": ["MAN", "MAN", "TIT", "SCI", "IMS-3B3D"],
        "X1": ["MAN", "TIT", "BAR", "HAL", "IMS-1B1D", "IMS-2B2D"],
    }
    if "IMS-1B1D X1" in text or "HAL X1" in text:
        hands["A1"] = ["MAN", "HAL", "TIT", "SCI", "IMS-1B1D"]
    state = new_game(hands=hands, **setup)
    for s in steps:
        state = play(state, "X1" if s.startswith("pass") else "A1", s)
    with pytest.raises(RuleViolation) as caught:
        engine.apply(state, seat, Action.from_text(text))
    assert rule.lower() in str(caught.value).lower()
