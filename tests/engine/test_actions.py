"""Canonical action text: every action round-trips, bad text fails with a useful message."""

from __future__ import annotations

import re

import pytest

from engine.core.errors import EngineError, MalformedAction
from engine.dif.actions import Action
from engine.dif.components import Altitude, PilotSkill

from .conftest import Step

EVERY_KIND = [
    Action.altitude("VL"),
    Action.altitude("M"),
    Action.altitude("VH"),
    Action.wingman("X1L"),
    Action.wingman("A12W"),
    Action.simple("skip"),
    Action.simple("stay"),
    Action.simple("dive"),
    Action.climb("MAN"),
    Action.follow(),
    Action.follow(("BAR",)),
    Action.follow(("MAN", "BAR", "IMS-1B1D")),
    Action.simple("nofollow"),
    Action.play("MAN", "X1L"),
    Action.play("IMS-2B3D", "A1W"),
    Action.play("IMS-2BFT", "X1L"),
    Action.play("OOS-3B4D", "X1L"),
    Action.play("MAN", "X1L", as_sci=True),
    Action.vertical("down"),
    Action.vertical("up", "BAR"),
    Action.respond("TIT"),
    Action.respond("IMS-1B1D", as_sci=True),
    Action.simple("pass"),
    Action.simple("giveup"),
    Action.simple("evade"),
    Action.simple("done"),
    Action.discard(),
    Action.discard(("MAN", "BAR", "ACE")),
]


@pytest.mark.parametrize("action", EVERY_KIND, ids=str)
def test_every_action_kind_round_trips_through_its_text(action: Action) -> None:
    assert Action.from_text(str(action)) == action


@pytest.mark.parametrize("action", EVERY_KIND, ids=str)
def test_repr_can_be_pasted_back(action: Action) -> None:
    assert eval(repr(action)) == action  # pasting repr back is the point


def test_actions_are_frozen_and_hashable() -> None:
    a = Action.play("MAN", "X1L")
    assert hash(a) == hash(Action.from_text("play MAN X1L"))
    with pytest.raises(AttributeError):
        a.card = "HAL"  # type: ignore[misc]


def test_verbs_and_codes_are_case_insensitive_and_spacing_is_forgiven() -> None:
    assert Action.from_text("  PLAY  man=sci   x1l ") == Action.play("MAN", "X1L", as_sci=True)
    assert Action.from_text("Play ver UP bar") == Action.vertical("up", "BAR")


def test_discard_text_is_canonical_whatever_the_order_typed() -> None:
    assert str(Action.from_text("discard MAN BAR ACE")) == "discard ACE BAR MAN"


def test_every_legal_action_of_random_games_round_trips(sample_steps: list[Step]) -> None:
    from engine.dif.game import default_engine

    engine = default_engine()
    seen = 0
    for step in sample_steps[::7]:
        for seat in {p.seat for p in engine.pending(step.before)}:
            for action in engine.legal_actions(step.before, seat):
                assert Action.from_text(str(action)) == action, str(action)
                seen += 1
    assert seen > 1000


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("fly away", "unknown action 'fly'"),
        ("alt", "'alt VL'"),
        ("alt XL", "'alt VL'"),
        ("alt M H", "'alt VL'"),
        ("wm", "e.g. 'wm X1L'"),
        ("wm banana", "not an aircraft"),
        ("wm X1", "not an aircraft"),
        ("skip now", "takes nothing after it"),
        ("pass TIT", "takes nothing after it"),
        ("climb", "name the one card"),
        ("climb MAN BAR", "name the one card"),
        ("climb FOO", "not a card"),
        ("follow MAN FOO", "not a card"),
        ("discard IMS-9B9D", "not a card"),
        ("play", "name a card"),
        ("play MAN", "'play CARD TARGET'"),
        ("play MAN X1L X1W", "'play CARD TARGET'"),
        ("play MANX X1L", "not a card"),
        ("play MAN sideways", "not an aircraft"),
        ("play VER up BAR MAN", "'play VER up|down [discard]'"),
        ("play MAN up", "'play VER up|down [discard]'"),
        ("play VER=SCI down", "'play VER up|down [discard]'"),
        ("respond", "name a card"),
        ("respond TIT BAR", "one card"),
        ("respond XYZ", "not a card"),
    ],
)
def test_malformed_text_raises_with_the_input_quoted_and_a_hint(text: str, hint: str) -> None:
    with pytest.raises(MalformedAction) as caught:
        Action.from_text(text)
    message = str(caught.value)
    assert hint.lower() in message.lower()
    if text.strip():
        assert repr(text) in message, "the message quotes what the player typed"


def test_malformed_action_is_an_engine_error_and_a_value_error() -> None:
    with pytest.raises(EngineError):
        Action.from_text("nonsense")
    with pytest.raises(ValueError):
        Action.from_text("nonsense")


@pytest.mark.parametrize(
    "text",
    [
        "x" * 3_000_000,  # one unknown verb
        "play " + "M" * 3_000_000 + " X1L",  # one huge word that is no card
        "play MAN " + "X1L " * 750_000,  # too many words
        "discard MAN " + "Z" * 3_000_000,
        "wm " + "X" * 3_000_000,
        "pass " + "TIT " * 750_000,
        "alt " + "M " * 1_500_000,
        "play MAN=" + "SCI" * 1_000_000 + " X1L",
    ],
    ids=["verb", "card", "words", "discard", "wm", "bare", "alt", "as_kind"],
)
def test_bug_a_3_mb_action_was_quoted_whole_in_its_refusal(text: str) -> None:
    # A 3 MB /play text gave a 6 MB refusal: the message quotes a short prefix only.
    with pytest.raises(MalformedAction) as caught:
        Action.from_text(text)
    message = str(caught.value)
    assert len(message) < 300, message[:300]
    assert repr(text[:40] + "…") in message


def test_a_short_input_is_quoted_whole() -> None:
    text = "play MAN " + "X" * 31  # 40 characters
    with pytest.raises(MalformedAction, match=re.escape(repr(text))):
        Action.from_text(text)


def test_lobby_input_is_quoted_short_too() -> None:
    huge = "Z" * 3_000_000
    with pytest.raises(ValueError) as caught:
        PilotSkill.parse(huge)
    assert len(str(caught.value)) < 300
    with pytest.raises(ValueError) as caught:
        Altitude.from_code(huge)
    assert len(str(caught.value)) < 300
