"""Zero!'s Carrier Campaigns on the campaign contract (engine/dif/carrier.py, §25).

Rulebook examples (/work/shared/RULEBOOK-EXAMPLES.md section 4) Z-27..Z-31 are the
conformance vectors tests/conformance/dif/zero-c27..c31-*.yaml; the tests here pin
what those do not. Lines ("L2007") are those of /work/shared/rulebooks/zero.txt,
first copy.
"""

from __future__ import annotations

import pytest

from engine.core.campaign import CampaignEntry, EntryKind, replay
from engine.core.contract import AircraftFate, Fate, Outcome
from engine.core.errors import RuleViolation
from engine.dif.campaign import OptionPick, ZeroCampaigns, campaign_system
from engine.dif.campaign_data import CarrierCampaign, FleetTactics, FlightOps
from engine.dif.carrier import CarrierState, FleetOrders, card_counts, recovery_cards
from engine.dif.components import Side
from engine.dif.mission import MissionSetup
from engine.dif.setup import DifSetup
from strings import Term

from .test_zero_campaign import play

S, M, L = FleetTactics.SHORT, FleetTactics.MEDIUM, FleetTactics.LONG


@pytest.fixture(scope="module")
def zc() -> ZeroCampaigns:
    return campaign_system()


def _key(exc: pytest.ExceptionInfo[Exception]) -> str:
    term = exc.value.args[0]
    assert isinstance(term, Term)
    return term.key


def _new(zc: ZeroCampaigns, campaign: str) -> CarrierState:
    state = zc.new_campaign({"campaign": campaign}, 9)
    assert isinstance(state, CarrierState)
    return state


def _orders(
    zc: ZeroCampaigns,
    state: CarrierState,
    japanese: tuple[FleetTactics, FlightOps, str | None],
    allied: tuple[FleetTactics, FlightOps, str | None],
) -> CarrierState:
    for side, (tactics, ops, target) in (("japanese", japanese), ("allied", allied)):
        orders = FleetOrders(turn=state.turn, tactics=tactics, ops=ops, target=target)
        state = zc.apply(state, side, orders)
    return state


def _options(zc: ZeroCampaigns, state: CarrierState, japanese: int, allied: int) -> CarrierState:
    state = zc.apply(state, "japanese", OptionPick(mission=state.turn, number=japanese))
    return zc.apply(state, "allied", OptionPick(mission=state.turn, number=allied))


def _setup(zc: ZeroCampaigns, state: CarrierState) -> tuple[DifSetup, MissionSetup]:
    setup = zc.mission_setup(state).setup
    assert isinstance(setup, DifSetup) and setup.mission is not None
    return setup, setup.mission


def _aircraft(setup: DifSetup, side: Side) -> list[str]:
    """Every aircraft of a side: Leaders, Wingmen ('ki-43/W'), bombers."""
    out = []
    for e in setup.elements:
        if e.side is side:
            out += [e.aircraft] + ([f"{e.aircraft}/W"] if e.wingman else [])
    assert setup.mission is not None
    out += [a for f in setup.mission.formations if f.side is side for a in f.aircraft]
    return out


def _survived(setup: DifSetup, damage: int = 0, down: frozenset[str] = frozenset()) -> Outcome:
    """Every aircraft of the game unharmed but those in ``down``; the attacker's
    first Element's Leader scores ``damage`` on the target."""
    assert setup.mission is not None
    fates = []
    for e in setup.elements:
        for ref in (e.seat + "L", e.seat + "W") if e.wingman else (e.seat + "L",):
            dealt = damage if ref == f"{setup.elements[0].seat}L" else 0
            fate = Fate.SHOT_DOWN if ref in down else Fate.UNHARMED
            fates.append(
                AircraftFate(
                    ref, e.seat, e.side.value, e.aircraft, fate, record={"damage_dealt": dealt}
                )
            )
    for f in setup.mission.formations:
        for i, a in enumerate(f.aircraft):
            fates.append(AircraftFate(f"{f.seat}B{i + 1}", f.seat, f.side.value, a, Fate.UNHARMED))
    return Outcome(over=True, winner=None, verdict="", vp={}, fates=tuple(fates))


# --- Fleet Tactics and Flight Ops (§25.3-25.4) -----------------------------------------------


def test_no_short_range_after_long_nor_large_strikes_two_turns_running(
    zc: ZeroCampaigns,
) -> None:
    state = _orders(
        zc, _new(zc, "coral-sea"), (L, FlightOps.LARGE, "allied-fleet"), (M, FlightOps.NONE, None)
    )
    state = _options(zc, state, 8, 8)
    while zc.mission_ready(state):  # fly turn 1's games
        setup, _ = _setup(zc, state)
        state = zc.absorb(state, _survived(setup))
    assert isinstance(state, CarrierState) and state.turn == 2 and state.phase == "orders"
    with pytest.raises(RuleViolation) as exc:
        zc.apply(
            state,
            "japanese",
            FleetOrders(turn=2, tactics=S, ops=FlightOps.SMALL, target="allied-fleet"),
        )
    assert _key(exc) == "campaign.zero.tactics"
    with pytest.raises(RuleViolation) as exc:
        zc.apply(
            state,
            "japanese",
            FleetOrders(turn=2, tactics=M, ops=FlightOps.LARGE, target="allied-fleet"),
        )
    assert _key(exc) == "campaign.zero.large_twice"
    with pytest.raises(RuleViolation) as exc:
        zc.apply(
            state, "japanese", FleetOrders(turn=2, tactics=M, ops=FlightOps.SMALL, target="midway")
        )
    assert _key(exc) == "campaign.zero.strike_target"
    with pytest.raises(RuleViolation) as exc:
        zc.apply(
            state,
            "japanese",
            FleetOrders(turn=1, tactics=M, ops=FlightOps.SMALL, target="allied-fleet"),
        )
    assert _key(exc) == "campaign.zero.wrong_turn"
    legal = zc.legal_actions(state, "japanese")
    assert all(a.tactics is not S and a.ops is not FlightOps.LARGE for a in legal)
    assert any(a.tactics is L for a in legal), "Long again is allowed"
    # the Allies went Medium with No Air Strike: anything goes
    assert any(
        a.tactics is S and a.ops is FlightOps.LARGE for a in zc.legal_actions(state, "allied")
    )
    menu = zc.menu(state, "allied")
    assert menu is not None and len(menu.children) <= 25


def test_orders_and_options_stay_secret_until_both_are_given(zc: ZeroCampaigns) -> None:
    state = _new(zc, "coral-sea")
    orders = FleetOrders(turn=1, tactics=L, ops=FlightOps.LARGE, target="port-moresby")
    entry = CampaignEntry(EntryKind.DECISION, "japanese", str(orders))
    one = zc.apply(state, "japanese", orders)
    assert zc.public_text(one, entry) == "fleet #1 (secret)"
    assert zc.sheet(one, "allied").secrets == () and zc.sheet(one, None).secrets == ()
    assert zc.sheet(one, "japanese").secrets == (str(orders),)
    both = zc.apply(one, "allied", FleetOrders(turn=1, tactics=M, ops=FlightOps.NONE))
    assert zc.public_text(both, entry) == str(orders)
    assert [d.kind for d in zc.pending(both)] == ["carrier_option", "carrier_option"]
    pick = CampaignEntry(EntryKind.DECISION, "allied", "option #1 3")
    half = zc.apply(both, "allied", zc.parse_action(pick.text))
    assert zc.public_text(half, pick) == "option #1 (secret)"
    assert zc.sheet(half, "japanese").secrets == ()


# --- Options (§25.5) ---------------------------------------------------------------------


def test_an_option_reserved_to_the_other_side_and_one_used_twice_are_refused(
    zc: ZeroCampaigns,
) -> None:
    state = _orders(zc, _new(zc, "coral-sea"), (M, FlightOps.NONE, None), (M, FlightOps.NONE, None))
    with pytest.raises(RuleViolation) as exc:  # Radar: Allied only
        zc.apply(state, "japanese", OptionPick(mission=1, number=3))
    assert _key(exc) == "campaign.zero.reserved"
    assert 3 not in [a.number for a in zc.legal_actions(state, "japanese")]
    state = _options(zc, state, 6, 8)  # nothing flies: the turn ends at once
    assert isinstance(state, CarrierState) and state.turn == 2
    state = _orders(zc, state, (M, FlightOps.NONE, None), (M, FlightOps.NONE, None))
    with pytest.raises(RuleViolation) as exc:
        zc.apply(state, "japanese", OptionPick(mission=2, number=6))
    assert _key(exc) == "campaign.zero.used_carrier"
    again = zc.apply(state, "allied", OptionPick(mission=2, number=8))  # No Option: repeatable
    assert again.picks["allied"] == 8


def test_a_strike_without_a_surviving_reconnaissance_keeps_its_size(zc: ZeroCampaigns) -> None:
    # §25.63 (L2007): the rest of the example is zero-c29-strike-size.yaml
    def japanese_strike(option: int, recon: bool) -> DifSetup:
        state = _orders(
            zc,
            _new(zc, "coral-sea"),
            (M, FlightOps.LARGE, "allied-fleet"),
            (M, FlightOps.NONE, None),
        )
        state = _options(zc, state, option, 8)
        if option == 2:
            setup, _ = _setup(zc, state)
            down = frozenset() if recon else frozenset({setup.elements[0].seat + "L"})
            state = zc.absorb(state, _survived(setup, down=down))
            assert isinstance(state, CarrierState) and state.recon == {"japanese": recon}
        return _setup(zc, state)[0]

    assert _aircraft(japanese_strike(8, False), Side.AXIS) == [
        "a6m2", "a6m2/W", "b5n2", "b5n2/W", "d3a1",
    ]  # fmt: skip
    assert _aircraft(japanese_strike(2, False), Side.AXIS) == _aircraft(
        japanese_strike(8, False), Side.AXIS
    )


def test_every_aircraft_a_carrier_sheet_flies_has_cards(zc: ZeroCampaigns) -> None:
    counts = card_counts()
    for c in zc.book.campaigns.values():
        if not isinstance(c, CarrierCampaign):
            continue
        flights = [
            f for s in c.sides.values() for op in s.flight_ops for f in (*op.strike, *op.cap)
        ]
        flights += [f for s in c.sides.values() for f in s.recon]
        for r in c.records:
            flights += [f for row in r.launches for f in (*row.strike, *row.cap)]
            flights += [f for cap in r.cap_draw.values() for f in cap]
        for f in flights:
            assert counts.limit(f.aircraft) >= 1, (c.id, f.aircraft)


# --- recovery (§25.71) and the Damage Records (§25.82) -----------------------------------------


def test_strikes_against_midway_recover_with_the_japanese_range(zc: ZeroCampaigns) -> None:
    # §25.71 (L2037): from Midway and from the fleets: zero-c31-recovery.yaml; against it:
    c = zc.book.campaign("midway")
    assert isinstance(c, CarrierCampaign)
    rules = zc.book.scoresheets.carrier.recovery
    orders = {
        "allied": FleetOrders(turn=1, tactics=L, ops=FlightOps.LARGE, target="japanese-fleet"),
        "japanese": FleetOrders(turn=1, tactics=M, ops=FlightOps.LARGE, target="midway"),
    }
    assert recovery_cards(c, rules, orders, "japanese-fleet", "midway") == 2


def test_a_strike_crosses_out_its_damage_and_a_box_per_aircraft_destroyed(
    zc: ZeroCampaigns,
) -> None:
    # Short Range both: no recovery cards, every Damaged aircraft lands
    state = _orders(
        zc, _new(zc, "coral-sea"), (S, FlightOps.LARGE, "allied-fleet"), (S, FlightOps.NONE, None)
    )
    state = _options(zc, state, 8, 8)
    setup, _ = _setup(zc, state)
    strike = next(e.seat for e in setup.elements if e.side is Side.AXIS)
    cap = next(e.seat for e in setup.elements if e.side is Side.ALLIED)
    outcome = _survived(setup, damage=3, down=frozenset({strike + "W", cap + "L"}))
    after = zc.absorb(state, outcome)
    assert isinstance(after, CarrierState)
    assert after.damage["allied-fleet"] == 3 + 1, "the bombs' Damage and the lost F4F"
    assert after.damage["japanese-fleet"] == 1, "the Zero lost flying from its fleet"
    assert after.scores[-1].damage == {"allied-fleet": 4, "japanese-fleet": 1}
    assert zc.sheet(after, None).totals == {"japanese": 0, "allied": 0}  # below 5: Undamaged


def test_damaged_strike_aircraft_draw_to_land(zc: ZeroCampaigns) -> None:
    state = _orders(
        zc, _new(zc, "coral-sea"), (L, FlightOps.LARGE, "allied-fleet"), (L, FlightOps.NONE, None)
    )
    state = _options(zc, state, 8, 8)
    setup, _ = _setup(zc, state)
    fates = tuple(
        AircraftFate(f.ref, f.seat, f.side, f.aircraft, Fate.DAMAGED, damaged=True)
        if f.side == "axis"
        else f
        for f in _survived(setup).fates
    )
    after = zc.absorb(state, Outcome(over=True, winner=None, verdict="", vp={}, fates=fates))
    assert isinstance(after, CarrierState)
    recovered = after.scores[-1].recovered
    assert len(recovered) == len(_aircraft(setup, Side.AXIS))  # 4 cards each
    lost = sum(r.endswith(":lost") for r in recovered)
    assert after.damage["japanese-fleet"] == lost


# --- a whole carrier campaign -----------------------------------------------------------------


@pytest.mark.parametrize("campaign", ["coral-sea", "midway"])
def test_a_whole_carrier_campaign_plays_to_its_result_and_replays(
    zc: ZeroCampaigns, campaign: str
) -> None:
    setup = {"campaign": campaign}
    state, log = play(zc, setup, 1942)
    assert isinstance(state, CarrierState) and state.phase == "over"
    c = zc.carrier.sheet_of(state)
    out_of_action = any(
        r.out_of_action and r.level(state.damage[r.id]) == r.levels[-1] for r in c.records
    )
    assert state.turn == c.turns or out_of_action
    result = zc.result(state)
    assert result is not None
    totals = {s: 0 for s in ("japanese", "allied")}
    for r in c.records:
        totals["allied" if r.owner is Side.AXIS else "japanese"] += r.level(state.damage[r.id]).vp
    assert result.totals == totals == zc.sheet(state, None).totals
    assert replay(zc, setup, 1942, log) == state
    assert zc.load_state(zc.dump_state(state)) == state
    assert zc.next_mission(state) is None and zc.pending(state) == []


def test_out_of_sight_hides_the_fleet_from_the_enemy_strike(zc: ZeroCampaigns) -> None:
    # Option #1 at Long Range: three cards, any blue-bordered one hides the fleet; the
    # Allied strike then attacks the Invasion Force, its Flight Ops' other target
    for draws, target in (
        (["MAN", "HAL", "IMS-1B1D"], "japanese-fleet"),
        (["MAN", "HAL", "BAR"], "invasion-force"),
    ):
        state = zc.new_campaign({"campaign": "coral-sea", "draws": draws}, 1)
        assert isinstance(state, CarrierState)
        state = _orders(
            zc, state, (L, FlightOps.NONE, None), (M, FlightOps.LARGE, "japanese-fleet")
        )
        state = _options(zc, state, 1, 8)
        assert ("japanese" in state.hidden) is (target == "invasion-force")
        assert [g.target for g in state.queue] == [target]
        assert state.draws == (), "all three cards drawn"


def test_simultaneous_strikes_are_sized_after_midways_strike(zc: ZeroCampaigns) -> None:
    """§25.53 and §25.61: the fleets' strikes of the same Option are simultaneous with
    each other only; Midway's strike comes first, so the Damage it scores shrinks the
    strike of the fleet it hit (found by review)."""
    state = _new(zc, "midway")
    state = state.model_copy(update={"damage": {**state.damage, "japanese-fleet": 5}})
    medium = FleetTactics.MEDIUM
    state = _orders(
        zc,
        state,
        (medium, FlightOps.LARGE, "allied-fleet"),
        (medium, FlightOps.LARGE, "japanese-fleet"),
    )
    state = _options(zc, state, 8, 8)
    assert state.queue[0].source == "midway"
    assert all(g.simultaneous and g.at is None for g in state.queue[1:])
    setup, _ = _setup(zc, state)  # Midway's strike scores 1 on the Japanese fleet: Damaged at 6
    after = zc.absorb(state, _survived(setup, damage=1))
    assert isinstance(after, CarrierState) and after.damage["japanese-fleet"] == 6
    assert all(g.at == after.damage for g in after.queue)
    japanese = next(g for g in after.queue if g.side == "japanese")
    _, loss = zc.carrier._launched(after, japanese)
    _, fresh = zc.carrier._launched(
        after.model_copy(update={"damage": {**after.damage, "japanese-fleet": 5}}),
        japanese.model_copy(update={"at": None}),
    )
    assert loss == fresh + 1


# --- §25.63: the side chooses the aircraft its damaged fleet's strike loses -----------------


def _heavily_damaged_strike(zc: ZeroCampaigns) -> CarrierState:
    """Coral Sea turn 1, the Japanese Large Air Strike (L/W a6m2, L/W b5n2, L d3a1)
    from a Heavily Damaged fleet: two aircraft fewer (§25.63, L2007)."""
    state = _new(zc, "coral-sea")
    state = state.model_copy(update={"damage": {**state.damage, "japanese-fleet": 10}})
    state = _orders(zc, state, (M, FlightOps.LARGE, "allied-fleet"), (M, FlightOps.NONE, None))
    return _options(zc, state, 8, 8)


def test_the_side_is_asked_each_aircraft_its_damaged_strike_loses(zc: ZeroCampaigns) -> None:
    state = _heavily_damaged_strike(zc)
    assert [(d.side, d.kind) for d in zc.pending(state)] == [("japanese", "strike_loss")]
    assert not zc.mission_ready(state) and state.drawn == ()
    assert [str(a) for a in zc.legal_actions(state, "japanese")] == [
        "lose #1 1",
        "lose #1 2",
        "lose #1 3",
    ]
    assert zc.legal_actions(state, "allied") == []
    menu = zc.menu(state, "japanese")
    assert menu is not None and [c.action for c in menu.children] == [
        "lose #1 1",
        "lose #1 2",
        "lose #1 3",
    ]
    assert zc.ask(zc.pending(state)[0])
    state = zc.apply(state, "japanese", zc.parse_action("lose #1 1"))  # the Zero's Wingman
    assert [str(a) for a in zc.legal_actions(state, "japanese")][-1] == "lose #1 3"
    state = zc.apply(state, "japanese", zc.parse_action("lose #1 2"))  # the Kate's Wingman
    assert zc.pending(state) == [] and zc.mission_ready(state)
    setup, _ = _setup(zc, state)
    assert _aircraft(setup, Side.AXIS) == ["a6m2", "b5n2", "d3a1"]


@pytest.mark.parametrize(
    ("flight", "left"),
    [
        (1, ["a6m2", "b5n2", "b5n2/W"]),  # the Zero's Wingman, then the Val
        (2, ["a6m2", "a6m2/W", "b5n2"]),  # the Kate's Wingman, then the Val
        (3, ["a6m2", "a6m2/W", "b5n2"]),  # the Val, then the Kate's Wingman
    ],
)
def test_each_flight_may_lose_the_aircraft(zc: ZeroCampaigns, flight: int, left: list[str]) -> None:
    state = _heavily_damaged_strike(zc)
    state = zc.apply(state, "japanese", zc.parse_action(f"lose #1 {flight}"))
    # the second loss: the last flight left, whichever it is
    last = zc.legal_actions(state, "japanese")[-1]
    state = zc.apply(state, "japanese", last)
    setup, _ = _setup(zc, state)
    assert sorted(_aircraft(setup, Side.AXIS)) == sorted(left)


def test_an_illegal_strike_loss_is_refused_and_changes_nothing(zc: ZeroCampaigns) -> None:
    state = _heavily_damaged_strike(zc)
    for side, text, key in (
        ("allied", "lose #1 1", "campaign.zero.no_loss"),
        ("japanese", "lose #1 4", "campaign.zero.no_flight"),
        ("japanese", "lose #2 1", "campaign.zero.wrong_game"),
    ):
        with pytest.raises(RuleViolation) as exc:
            zc.apply(state, side, zc.parse_action(text))
        assert _key(exc) == key
    assert zc.pending(state)[0].kind == "strike_loss" and state.cuts == ()


def test_the_computer_loses_the_last_flights_aircraft(zc: ZeroCampaigns) -> None:
    """A computer side (and a deadline) keeps the rule: the last flight listed loses its
    Wingman, then its Leader."""
    state = _heavily_damaged_strike(zc)
    for _ in range(2):
        action = zc.computer_action(state, "japanese", 5)
        assert action == zc.default_action(state, "japanese")
        assert action == zc.legal_actions(state, "japanese")[-1]
        state = zc.apply(state, "japanese", action)
    setup, _ = _setup(zc, state)
    assert _aircraft(setup, Side.AXIS) == ["a6m2", "a6m2/W", "b5n2"]


def test_the_strike_loss_is_hidden_from_the_other_side(zc: ZeroCampaigns) -> None:
    state = _heavily_damaged_strike(zc)
    assert zc.sheet(state, "allied").secrets == ()
    mine = " ".join(zc.sheet(state, "japanese").secrets)
    assert "L/W a6m2" in mine and "L d3a1" in mine
    state = zc.apply(state, "japanese", zc.parse_action("lose #1 3"))
    entry = CampaignEntry(EntryKind.DECISION, "japanese", "lose #1 3")
    assert zc.public_text(state, entry) == "lose #1 (secret)"
    assert zc.sheet(state, "allied").secrets == ()
    state = zc.apply(state, "japanese", zc.parse_action("lose #1 2"))
    assert zc.public_text(state, entry) == "lose #1 3"


# --- Veteran Pilot: the side chooses the Skilled Pilot its Leader keeps ---------------------

_VETERAN_SETUP = {"campaign": "coral-sea", "cup": ["ijn-a6m2-1:0", "ijn-a6m2-2:0"]}


def _veteran(zc: ZeroCampaigns) -> tuple[CarrierState, list[CampaignEntry]]:
    """Coral Sea turn 1: the Japanese Large Air Strike with the Veteran Pilot Option;
    its first Zero Leader draws Honda (A) and Nishizawa (A, CV)."""
    state = zc.new_campaign(_VETERAN_SETUP, 3)
    assert isinstance(state, CarrierState)
    log: list[CampaignEntry] = []
    for side, text in (
        ("japanese", "fleet #1 medium large allied-fleet"),
        ("allied", "fleet #1 medium none"),
        ("japanese", "option #1 6"),
        ("allied", "option #1 8"),
    ):
        state = zc.apply(state, side, zc.parse_action(text))
        log.append(CampaignEntry(EntryKind.DECISION, side, text))
    return state, log


def test_a_veteran_pilots_side_chooses_the_pilot_he_keeps(zc: ZeroCampaigns) -> None:
    state, log = _veteran(zc)
    assert [(d.side, d.kind) for d in zc.pending(state)] == [("japanese", "veteran")]
    assert not zc.mission_ready(state) and state.drawn == ()
    assert [str(a) for a in zc.legal_actions(state, "japanese")] == [
        "keep #1 ijn-a6m2-1",
        "keep #1 ijn-a6m2-2",
    ]
    assert zc.legal_actions(state, "allied") == []
    menu = zc.menu(state, "japanese")
    assert menu is not None
    assert [c.label for c in menu.children] == ["Keep Honda (A)", "Keep Nishizawa (A,CV)"]
    assert zc.ask(zc.pending(state)[0])
    after = zc.apply(state, "japanese", zc.parse_action("keep #1 ijn-a6m2-1"))
    log.append(CampaignEntry(EntryKind.DECISION, "japanese", "keep #1 ijn-a6m2-1"))
    assert zc.pending(after) == [] and zc.mission_ready(after)
    first = [(d.name, d.kept) for d in after.drawn if d.seat == after.drawn[0].seat]
    assert first == [("Honda", True), ("Nishizawa", False)]
    _, mission = _setup(zc, after)
    assert mission.pilots[after.drawn[0].seat].name == "Honda"
    assert replay(zc, _VETERAN_SETUP, 3, log) == after


def test_the_computer_veteran_keeps_the_most_skilled(zc: ZeroCampaigns) -> None:
    state, _ = _veteran(zc)
    action = zc.computer_action(state, "japanese", 11)
    assert str(action) == "keep #1 ijn-a6m2-2" and action == zc.default_action(state, "japanese")
    after = zc.apply(state, "japanese", action)
    assert next(d.name for d in after.drawn if d.kept) == "Nishizawa"


def test_an_illegal_pick_is_refused_and_changes_nothing(zc: ZeroCampaigns) -> None:
    state, _ = _veteran(zc)
    for side, text, key in (
        ("allied", "keep #1 ijn-a6m2-1", "campaign.zero.no_keep"),
        ("japanese", "keep #1 ijn-d3a1-1", "campaign.zero.not_drawn"),
        ("japanese", "keep #2 ijn-a6m2-1", "campaign.zero.wrong_game"),
    ):
        with pytest.raises(RuleViolation) as exc:
            zc.apply(state, side, zc.parse_action(text))
        assert _key(exc) == key
    assert state.offer is not None and state.keep == {} and state.drawn == ()


def test_the_drawn_pilots_are_hidden_from_the_other_side(zc: ZeroCampaigns) -> None:
    state, _ = _veteran(zc)
    assert zc.sheet(state, "japanese").secrets == ("Keep Honda (A)", "Keep Nishizawa (A,CV)")
    other = zc.sheet(state, "allied")
    shown = " ".join((*other.secrets, *other.next))
    assert "Honda" not in shown and "Nishizawa" not in shown
    after = zc.apply(state, "japanese", zc.parse_action("keep #1 ijn-a6m2-2"))
    entry = CampaignEntry(EntryKind.DECISION, "japanese", "keep #1 ijn-a6m2-2")
    assert zc.public_text(state, entry) == "keep #1 (secret)"
    assert zc.public_text(after, entry) == "keep #1 ijn-a6m2-2"
