"""Views are the only way out of the engine: hidden cards stay hidden."""

from __future__ import annotations

import json

from engine.dif.actions import Action
from engine.dif.game import DifEngine
from engine.dif.setup import DifSetup

from .conftest import GameFactory, Play


def view_json(engine: DifEngine, state: object, seat: str | None) -> dict:
    return json.loads(engine.view(state, seat).model_dump_json())  # type: ignore[arg-type]


def test_secret_altitude_picks_are_hidden_until_everyone_has_picked(engine: DifEngine) -> None:
    setup = DifSetup.model_validate(
        {
            "ruleset": "zero",
            "year": 1942,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": "f4f"},
                {"seat": "X1", "side": "axis", "aircraft": "a6m2"},
            ],
        }
    )
    state, _ = engine.new_game(setup, 1)
    state, events = engine.apply(state, "X1", Action.altitude("H"))
    assert all("High" not in e.text for e in events)
    spectator = {e.seat: e for e in engine.view(state, None).elements}
    assert spectator["X1"].altitude is None and spectator["X1"].altitude_chosen
    assert spectator["X1"].pick is None and not spectator["A1"].altitude_chosen
    assert {e.seat: e.pick for e in engine.view(state, "A1").elements}["X1"] is None
    own = {e.seat: e for e in engine.view(state, "X1").elements}
    assert own["X1"].pick is not None and own["X1"].pick.code == "H"
    state, events = engine.apply(state, "A1", Action.altitude("L"))
    assert any("High" in e.text for e in events if e.public)
    assert {e.seat: e.altitude.code for e in engine.view(state, None).elements} == {  # type: ignore[union-attr]
        "A1": "L",
        "X1": "H",
    }


def test_a_seat_sees_its_own_hand_and_mini_hand_only(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    state = new_game(
        hands={"A1": ["MAN", "TIT", "BAR", "HAL", "IMS-1B1D"], "X1": ["MAN", "TIT"]},
        deck_top=["SCI", "VER"],
    )
    state = play(state, "A1", "stay")
    state = play(state, "A1", "play MAN X1W")  # the Zero wingman draws its defence: SCI, VER
    mine = {e.seat: e for e in engine.view(state, "A1").elements}
    theirs = {e.seat: e for e in engine.view(state, "X1").elements}
    assert sorted(mine["A1"].hand or ()) == ["BAR", "HAL", "IMS-1B1D", "TIT"]
    assert mine["X1"].hand is None and mine["X1"].minihand is None
    assert sorted(theirs["X1"].minihand or ()) == ["SCI", "VER"]
    assert theirs["A1"].hand is None
    assert mine["X1"].hand_count == 2


def test_the_spectator_view_holds_no_hand_mini_hand_pick_or_deck_order(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    state = new_game(hands={"A1": ["MAN"], "X1": ["TIT"]}, deck_top=["SCI", "VER"])
    state = play(state, "A1", "stay")
    data = view_json(engine, state, None)
    for e in data["elements"]:
        assert e["hand"] is None and e["minihand"] is None and e["pick"] is None
    assert "deck" not in data and data["deck_count"] == len(state.deck)
    text = json.dumps(data)
    assert "SCI" not in text and "VER" not in text


def test_the_exchange_shows_the_cards_played_and_who_must_answer(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    state = new_game(
        hands={"A1": ["MAN", "TIT", "BAR"], "X1": ["TIT", "ACE", "BAR", "BAR", "MAN", "HAL"]},
    )
    state = play(state, "A1", "stay")
    state = play(state, "A1", "play MAN X1L")
    state = play(state, "X1", "respond TIT")
    x = engine.view(state, None).exchange
    assert x is not None
    assert x.cards == ("Maneuvering", "Tight Turn") and x.waiting_on == "A1"
