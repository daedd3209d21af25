"""Eagles in the Sky on the game-system contract: every pending decision has legal
actions and ``apply`` accepts exactly those (a non-canonical text whose canonical form
is listed too), the state round-trips through JSON, a log replays to the same state,
a spectator's view holds no card, the public log masks the discards, and only a move
that drew nothing may be taken back. Also the lobby: options, picks, refusals, the
setup made from seats."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from pydantic import ValidationError

from engine.core.contract import HostedSystem, Scope, SeatPick, Timing
from engine.core.errors import RuleViolation
from engine.eagles.actions import Action
from engine.eagles.components import EngagementType
from engine.eagles.lobby import EaglesOptions, EaglesPick
from engine.eagles.state import GameState
from engine.eagles.system import EaglesSystem

from .conftest import LOBBIES, Step, lobby_setup, random_game, scenario

KINDS = tuple(LOBBIES)


def _games(seeds: range) -> list[list[Step]]:
    out = []
    for seed in seeds:
        for kind in KINDS:
            out.append(list(random_game(lobby_setup(kind), seed)))
    out.append(list(random_game(scenario(4), 1)))
    return out


GAMES = _games(range(2))


def test_it_is_registered_and_hosted(eagles: EaglesSystem) -> None:
    assert isinstance(eagles, HostedSystem)
    assert eagles.id == "eagles" and [r.id for r in eagles.rulesets] == ["eagles"]


def test_every_game_ends_and_every_decision_has_legal_actions(eagles: EaglesSystem) -> None:
    for steps in GAMES:
        assert eagles.is_over(steps[-1].after), "a random game reaches its end"
        for st in steps[::3]:
            pending = eagles.pending(st.before)
            assert pending
            for d in pending:
                assert eagles.legal_actions(st.before, d.seat), d
                side = {s for ss in st.before.seats.values() for s in ss}
                assert d.seat in side


def test_apply_accepts_exactly_the_legal_actions(eagles: EaglesSystem) -> None:
    rng = random.Random(5)
    checked = 0
    for steps in GAMES:
        for st in steps[::7]:
            for d in eagles.pending(st.before):
                legal = eagles.legal_actions(st.before, d.seat)
                texts = {str(a) for a in legal}
                for a in rng.sample(legal, min(len(legal), 8)):
                    eagles.apply(st.before, d.seat, a)
                    checked += 1
                # a move of another kind, or with a card the side does not hold
                for text in ("end", "respond 110A", "tail A1 110 G1", "discard 1 2 3 4 5 6 7"):
                    a = Action.from_text(text)
                    if str(eagles.engine.canonical(st.before, a)) in texts:
                        continue
                    with pytest.raises(RuleViolation):
                        eagles.apply(st.before, d.seat, a)
    assert checked > 100


def test_a_non_canonical_text_is_accepted_when_its_canonical_form_is_legal(
    eagles: EaglesSystem,
) -> None:
    """``respond 37`` for ``respond 37A`` (a card with one symbol): ``apply``
    canonicalizes, then decides; the logged text is the canonical one."""
    found = 0
    for steps in GAMES:
        for st in steps:
            for d in eagles.pending(st.before):
                for a in eagles.legal_actions(st.before, d.seat):
                    card = eagles.engine.cards.get(a.card or 0)
                    if a.symbol is None or a.as_card or card is None or len(card.symbols) != 1:
                        continue
                    bare = Action.from_text(str(replace(a, symbol=None)))
                    assert eagles.engine.canonical(st.before, bare) == a
                    after, _ = eagles.apply(st.before, d.seat, bare)
                    assert eagles.dump_state(after) == eagles.dump_state(
                        eagles.apply(st.before, d.seat, a)[0]
                    )
                    found += 1
                    break
            if found > 20:
                return
    assert found > 5


def test_the_state_round_trips_through_json(eagles: EaglesSystem) -> None:
    for steps in GAMES:
        for st in steps[::5]:
            data = json.loads(json.dumps(eagles.dump_state(st.after)))
            assert eagles.dump_state(eagles.load_state(data)) == eagles.dump_state(st.after)


def test_a_log_replays_to_the_same_state(eagles: EaglesSystem) -> None:
    for kind in KINDS[:2]:
        setup = lobby_setup(kind)
        steps = list(random_game(setup, 9))
        final = eagles.replay(setup, 9, [(s.seat, s.action) for s in steps])
        assert eagles.dump_state(final) == eagles.dump_state(steps[-1].after)
        again = list(random_game(setup, 9))
        assert [s.action for s in again] == [s.action for s in steps], "deterministic per seed"


def test_a_spectator_sees_no_card_and_a_seat_sees_its_sides_hand(eagles: EaglesSystem) -> None:
    for steps in GAMES:
        st = steps[len(steps) // 2]
        view = eagles.view(st.before, None)
        assert view.hand == () and view.viewer_side is None
        dumped = json.dumps(view.model_dump(mode="json"))
        for side, seats in st.before.seats.items():
            for seat in seats:
                mine = eagles.view(st.before, seat)
                assert [c.number for c in mine.hand] == sorted(st.before.hands[side])
        assert '"hand": []' in dumped


def test_the_public_log_masks_the_discards(eagles: EaglesSystem) -> None:
    assert eagles.public_text("discard 12 45", secret_picks=True) == "discard ?×2"
    assert eagles.public_text("discard 12 45", secret_picks=False) == "discard ?×2"
    assert eagles.public_text("discard", secret_picks=True) == "discard"
    assert eagles.public_text("tail A1 37D G2", secret_picks=False) == "tail A1 37D G2"
    seen = False
    for steps in GAMES:
        for st in steps:
            if st.action.startswith("discard"):
                assert eagles.picks_hidden(st.before)
                seen = True
    assert seen


def test_only_a_move_that_drew_nothing_may_be_taken_back(eagles: EaglesSystem) -> None:
    allowed = refused = 0
    for steps in GAMES:
        for st in steps:
            why = eagles.undo_refusal(st.before, st.after, st.events)
            drew = st.after.deck != st.before.deck or st.after.rng != st.before.rng
            if drew:
                assert why is not None, st.action
                refused += 1
            elif why is None:
                allowed += 1
                assert any(not e.public for e in st.events) is False
    assert allowed > 10 and refused > 10


def test_side_decisions_of_a_team_are_pending_for_each_of_its_seats(
    eagles: EaglesSystem,
) -> None:
    steps = list(random_game(lobby_setup("team"), 3))
    seen = set()
    for st in steps:
        for d in eagles.pending(st.before):
            if d.side == "allied":
                assert d.scope is Scope.SIDE
                seen.add((d.seat, d.kind))
            else:
                assert d.scope is Scope.SEAT
    assert {("A1", "activate"), ("A2", "activate")} <= seen


def test_forced_answers_and_standing_orders(eagles: EaglesSystem) -> None:
    forced = 0
    for steps in GAMES:
        for st in steps:
            for d in eagles.pending(st.before):
                move = eagles.forced_action(st.before, d.seat)
                legal = {str(a) for a in eagles.legal_actions(st.before, d.seat)}
                if move is not None:
                    forced += 1
                    assert d.timing is Timing.RESPONSE and str(move) in ("pass", "stay")
                order = eagles.order_action(st.before, d.seat, ["pass-responses"])
                if order is not None:
                    assert str(order) in legal and d.timing is Timing.RESPONSE
                assert eagles.order_action(st.before, d.seat, ["always-follow"]) in (
                    None,
                    Action("follow"),
                )
    assert forced > 0
    for order in eagles.standing_orders:
        assert eagles.order_label(order)


def test_the_computer_player_chooses_legal_moves(eagles: EaglesSystem) -> None:
    st = GAMES[0][10]
    player = eagles.computer_player(3)
    for d in eagles.pending(st.before):
        assert player.choose(st.before, d.seat) in eagles.legal_actions(st.before, d.seat)


def test_the_default_action_is_legal(eagles: EaglesSystem) -> None:
    for steps in GAMES:
        for st in steps[::4]:
            for d in eagles.pending(st.before):
                a = eagles.default_action(st.before, d.seat)
                assert a in eagles.legal_actions(st.before, d.seat)


# ---------------------------------------------------------------- the lobby
def _pick(*aircraft: str, leader: str | None = None) -> EaglesPick:
    return EaglesPick(aircraft=aircraft, leader=leader)


def test_the_options_read_the_flight_text() -> None:
    o = EaglesOptions.model_validate({"flight": "cup 4"})
    assert (o.method, o.scouts) == ("cup", 4)
    assert EaglesOptions.model_validate({"flight": "cup"}).scouts is None
    assert EaglesOptions.model_validate({"flight": "points 40"}).points == 40
    assert EaglesOptions.model_validate({"month": "1917-7"}).month == "1917-07"
    for bad in ({"flight": "lots"}, {"flight": "points"}, {"month": "1920-01"}, {"zone": "x"}):
        with pytest.raises(ValidationError):
            EaglesOptions.model_validate(bad)


def test_picks_are_refused_with_the_rule(eagles: EaglesSystem) -> None:
    o = EaglesOptions(month="1917-07")
    assert eagles.pick_refusal(o, "allied", _pick("se5a")) is None
    assert "other side" in str(eagles.pick_refusal(o, "german", _pick("se5a")))
    assert "2-Seater" in str(eagles.pick_refusal(o, "allied", _pick("dh4")))
    assert "not in" in str(eagles.pick_refusal(o, "allied", _pick("sopwith-snipe")))
    assert "Luke" in str(eagles.pick_refusal(o, "allied", _pick("se5a", leader="luke")))
    assert eagles.pick_refusal(o, "allied", _pick("se5a", leader="mccudden")) is None
    points = EaglesOptions(month="1918-06", flight="points 20")  # type: ignore[call-arg]
    assert "over the total" in str(
        eagles.pick_refusal(points, "allied", _pick("spad-xiii", "se5a"))
    )
    cup = EaglesOptions.model_validate({"flight": "cup"})
    assert "cup" in str(eagles.pick_refusal(cup, "allied", _pick("se5a")))
    assert eagles.pick_refusal(cup, "allied", _pick()) is None
    solo = EaglesOptions(scenario=1)
    assert [s.id for s in eagles.lobby_sides(solo)] == ["allied"]
    assert "Germans" in str(eagles.pick_refusal(solo, "german", _pick()))
    assert eagles.pick_refusal(solo, "allied", _pick("spad-xiii")) is None


def test_make_pick_reads_more_aircraft_and_a_leader(eagles: EaglesSystem) -> None:
    pick = eagles.make_pick("se5a", {"more": "camel x2, SPAD XIII", "leader": "McCudden"})
    assert pick.aircraft == ("se5a", "sopwith-camel", "sopwith-camel", "spad-xiii")
    assert pick.leader == "mccudden"
    assert eagles.make_pick("cup", {}).aircraft == ()
    with pytest.raises(ValidationError) as err:
        eagles.make_pick("se5a", {"more": "zeppelin"})
    assert "zeppelin" in str(err.value)


def test_start_problems_and_the_setup_from_seats(eagles: EaglesSystem) -> None:
    o = EaglesOptions(engagement="photo_recon", month="1918-04", attacker="german")
    seats = [SeatPick("A1", "allied", _pick("se5a", "sopwith-camel"))]
    assert [str(p) for p in eagles.start_problems(o, seats)] == ["Germans need a player."]
    seats += [
        SeatPick("G1", "german", _pick("fokker-dri", leader="richthofen")),
        SeatPick("G2", "german", _pick("albatros-dva", "pfalz-diii", leader="udet")),
    ]
    assert "two Flight Leaders" in str(eagles.start_problems(o, seats))
    seats[-1] = SeatPick("G2", "german", _pick("albatros-dva", "pfalz-diii"))
    assert eagles.start_problems(o, seats) == []
    setup = eagles.setup_from_lobby(o, seats)
    assert setup.german.seats == ("G1", "G2") and setup.allied.seats == ("A1",)
    german = [(p.aircraft, p.leader, p.mission) for p in setup.german.planes]
    assert german == [
        ("fokker-dri", "richthofen", False),
        ("albatros-dva", None, False),
        ("pfalz-diii", None, False),
    ]
    state, _ = eagles.new_game(setup, 1)
    assert isinstance(state, GameState)
    (recon,) = [p for p in state.planes if p.mission]
    assert recon.side == "german", "the attacker's photo-recon two-seater, drawn (§16.4)"
    assert (
        recon.aircraft in eagles.engine.tables.engagement(EngagementType.PHOTO_RECON).german.choices
    )  # type: ignore[union-attr]
    busting = EaglesOptions(engagement="balloon_busting", month="1918-04")
    state, _ = eagles.new_game(eagles.setup_from_lobby(busting, seats), 1)
    assert [p.aircraft for p in state.planes if p.side == "german"][-1] == "balloon"
    s1 = eagles.setup_from_lobby(EaglesOptions(scenario=1), [SeatPick("A1", "allied", _pick())])
    assert s1.scenario == 1 and s1.german.seats == ()


def test_the_attacker_names_its_mission_aircraft_and_a_seat_its_pilots(
    eagles: EaglesSystem,
) -> None:
    """§16.4: the attacker chooses the mission aircraft's type; §14.1: pilot qualities;
    §7.11: a leader and one Scout may take either rating for the hand."""
    o = EaglesOptions(engagement="photo_recon", month="1918-04", attacker="allied")
    pick = eagles.make_pick(
        "se5a",
        {
            "more": "camel",
            "leader": "Taylor",
            "mission": "DH 4",
            "pilots": "green",
            "rating": "Flying",
        },
    )
    assert (pick.mission, pick.pilots, pick.rating) == ("dh4", ("green",), "flying")
    assert eagles.pick_refusal(o, "allied", pick) is None
    assert "Only the attacker" in str(
        eagles.pick_refusal(
            o, "german", pick.model_copy(update={"aircraft": ("fokker-dri",), "leader": None})
        )
    )
    wrong = pick.model_copy(update={"mission": "fk8"})
    assert "not a mission aircraft" in str(eagles.pick_refusal(o, "allied", wrong))
    with pytest.raises(ValidationError):
        eagles.make_pick("se5a", {"pilots": "ace"})
    seats = [SeatPick("A1", "allied", pick), SeatPick("G1", "german", _pick("fokker-dri"))]
    setup = eagles.setup_from_lobby(o, seats)
    assert [(p.aircraft, p.quality, p.mission) for p in setup.allied.planes] == [
        ("se5a", "leader", False),
        ("sopwith-camel", "green", False),
        ("dh4", "experienced", True),
    ]
    assert setup.allied.hand_rating == "flying"
    state, _ = eagles.new_game(setup, 1)
    assert state.hand_rating["allied"] == "flying"


def test_a_scenario_is_chosen_by_name() -> None:
    """§17.0's scenarios by title, as /dogfight new offers them, or part of it."""
    assert EaglesOptions(scenario="7 Fonck's Wager").scenario == 7
    assert EaglesOptions(scenario="voss").scenario == 2
    assert EaglesOptions(scenario="3").scenario == 3
    with pytest.raises(ValidationError):
        EaglesOptions(scenario="zeppelin")
