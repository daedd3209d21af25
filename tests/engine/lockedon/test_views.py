"""Views: what each seat and the spectators may see (hidden information absent)."""

from __future__ import annotations

from engine.lockedon.components import Altitude, Position, Range
from engine.lockedon.game import LockedOnEngine
from engine.lockedon.setup import LockedOnSetup

from .conftest import Act, Game, seats_of


def test_secret_altitudes_are_seen_only_by_their_owner(lo: LockedOnEngine, act: Act) -> None:
    setup = LockedOnSetup.model_validate({"seats": seats_of("A1 A f-15a", "B1 B mig-29")})
    state, _ = lo.new_game(setup, 2)
    state = act(state, "A1", "alt H")
    mine = {a.seat: a for a in lo.view(state, "A1").aircraft}
    theirs = {a.seat: a for a in lo.view(state, "B1").aircraft}
    public = {a.seat: a for a in lo.view(state, None).aircraft}
    assert mine["A1"].pick is Altitude.HIGH and mine["A1"].altitude is None
    assert theirs["A1"].pick is None and theirs["A1"].altitude_chosen
    assert public["A1"].pick is None and not public["B1"].altitude_chosen


def test_hands_side_cards_and_missile_cards_stay_with_their_owner(
    lo: LockedOnEngine, game: Game, act: Act
) -> None:
    state = game(
        seats=seats_of("A1 A f-4e", "B1 B mig-21mf", B1={"skills": ["aircraft-expertise"]}),
        ab_left={"A1": 0, "B1": 0},
        ranges={"A1": "RH", "B1": "RH"},
        hands={"A1": ["TONE", "TT", "TT", "TT", "TT"]},
    )
    state = act(state, "A1", "discard", "stay", "play TONE B1 aim-7e-2", "B1:pass", "launch")
    attacker, target, public = lo.view(state, "A1"), lo.view(state, "B1"), lo.view(state, None)
    assert attacker.exchange is not None and attacker.exchange.mini is not None
    assert len(attacker.exchange.mini) == attacker.exchange.mini_count == 2
    for view in (target, public):
        assert view.exchange is not None and view.exchange.mini is None
        assert view.exchange.mini_count == 2 and view.exchange.missile == "AIM-7E-2 Sparrow"
    b1 = {a.seat: a for a in target.aircraft}["B1"]
    assert b1.hand is not None and b1.side_hand is not None and b1.side_count == 6
    for a in public.aircraft:
        assert a.hand is None and a.side_hand is None
    for a in attacker.aircraft:
        assert (a.hand is None) == (a.seat != "A1")
    assert '"TONE"' not in public.model_dump_json()


def test_a_view_shows_positions_ranges_ratings_and_skills(
    lo: LockedOnEngine, game: Game, act: Act
) -> None:
    state = game(
        seats=seats_of("A1 A f-15a", "B1 B mig-29", A1={"skills": ["gun-fighter"]}),
        altitudes={"A1": "H", "B1": "M"},
        ranges={"A1": "HS", "B1": "G"},
        positions=[{"seat": "B1", "on": "A1", "position": "Advantaged"}],
        used={"A1": ["gun-fighter"]},
    )
    view = lo.view(state, None)
    assert [(e.seat, e.on, e.position) for e in view.engagements] == [
        ("B1", "A1", Position.ADVANTAGED)
    ]
    assert [(r.a, r.b, r.range) for r in view.ranges] == [("A1", "B1", Range.RADAR)]
    a1 = {a.seat: a for a in view.aircraft}["A1"]
    assert a1.ratings.performance == 9 and a1.ratings.ew == 1 and a1.ratings.thrust_pre == 2
    assert a1.ratings.ab_pre == 3 and a1.afterburner_counters == 2
    assert [(s.id, s.once_per_game, s.used) for s in a1.skills] == [("gun-fighter", True, True)]
    assert {m.id: m.count for m in a1.missiles} == {"aim-7f": 4, "aim-9j": 4}
    assert a1.value == 93 and a1.countermeasures == 2
    assert [p.kind for p in view.pending] == ["afterburner"]
    assert str(view.pending[0].prompt) == "turn your Afterburners on, or not"
