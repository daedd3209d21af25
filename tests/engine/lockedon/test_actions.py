"""The canonical notation: every action kind round-trips through its text."""

from __future__ import annotations

import pytest

from engine.core.errors import MalformedAction
from engine.lockedon.actions import Action

from .conftest import LockedOnEngine, random_game

EVERY_KIND = [
    "alt L",
    "alt M",
    "alt H",
    "angle G B1",
    "angle AH B2",
    "first",
    "second",
    "next A2",
    "ab on",
    "ab off",
    "discard",
    "discard BR GUN TT",
    "trim BR",
    "stay",
    "dive",
    "climb BR",
    "speed pos B1",
    "speed range me-1 B1",
    "speed range me+1",
    "speed range B1+1",
    "speed range B1-1",
    "end",
    "play ACE pos 2 B1",
    "play RED range me-2 B1+1",
    "play RED range me-3",
    "play BR range me-1 B1",
    "play BR range B1-1",
    "play GUN B1",
    "play GUN B1 paying SCI TT",
    "play GUN B1 gf",
    "play GUN B1 gf paying TT",
    "play TONE B1 aim-9e",
    "play TG B1 aim-7e-2",
    "play TG B1 paying BR BR",
    "play BR B1",
    "play SCI B1",
    "play BRK",
    "play YOYO",
    "play VR up B1 paying BR",
    "play VR down B1",
    "play side:GUN B1",
    "play TT=ACE pos 3 B1",
    "play side:TT=ACE range me-2 B1",
    "giveup B1",
    "launch",
    "launch 2",
    "nolaunch",
    "react BR",
    "react CM",
    "react CM=ACE",
    "react TT=ACE",
    "react side:SCI",
    "pass",
    "alert",
    "follow",
    "follow BR TT",
    "nofollow",
    "batturn",
    "timely BR GUN",
]


@pytest.mark.parametrize("text", EVERY_KIND)
def test_every_kind_of_action_round_trips(text: str) -> None:
    a = Action.from_text(text)
    assert str(a) == text
    assert Action.from_text(str(a)) == a
    assert eval(repr(a)) == a  # repr is something you could paste back in


def test_verbs_and_codes_forgive_their_case_and_lists_are_sorted() -> None:
    assert str(Action.from_text("PLAY gun b1 PAYING tt sci")) == "play GUN B1 paying SCI TT"
    assert str(Action.from_text("Discard TT BR")) == "discard BR TT"
    assert Action.from_text("play tone B1 AIM-9E").missile == "aim-9e"
    assert str(Action.from_text("play RED range ME-2 b1+1")) == "play RED range me-2 B1+1"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly",
        "alt VH",
        "angle X B1",
        "angle HS",
        "angle HS B1 B2",
        "stay now",
        "ab maybe",
        "climb",
        "next 12",
        "play",
        "play GUN B1 paying",
        "play ACE pos two B1",
        "play RED range",
        "play RED range B1 me-1",
        "play RED range me+0",
        "play RED range B1",
        "play side:CM B1",
        "react",
        "launch 3",
        "trim",
        "timely",
        "speed pos",
        "play TONE B1 aim-9e gf",
    ],
)
def test_malformed_texts_are_refused_with_the_text_quoted(text: str) -> None:
    with pytest.raises(MalformedAction):
        Action.from_text(text)


def test_every_action_of_random_games_round_trips(lo: LockedOnEngine) -> None:
    seen: set[str] = set()
    for seed in range(12):
        for step in random_game(lo, seed):
            for a in lo.legal_actions(step.before, step.seat):
                assert Action.from_text(str(a)) == a, str(a)
                seen.add(a.verb)
    assert {"alt", "play", "react", "discard", "stay", "end", "pass"} <= seen
