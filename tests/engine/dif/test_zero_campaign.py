"""Zero!'s Land Campaigns on the campaign contract (engine/dif/campaign.py, §24) and the
pilot and crew counters (engine/dif/pilots.py, §19).

Rulebook examples (/work/shared/RULEBOOK-EXAMPLES.md section 4): Z-15 (§19.24, pilot
selection: the two Kates and the cups here; the campaign's draw is the conformance
vector tests/conformance/dif/zero-c15-pilot-selection.yaml), Z-24 (§23 duration).
Z-25 and Z-26 are the vectors zero-c25-burma-mission.yaml and zero-c26-mission-vp.yaml.
Lines ("L1239") are those of /work/shared/rulebooks/zero.txt, first copy.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.core.campaign import (
    CampaignEntry,
    EntryKind,
    MissionState,
    outcome_text,
    replay,
)
from engine.core.contract import AircraftFate, Fate, Outcome
from engine.core.errors import MalformedAction, RuleViolation, SetupError
from engine.dif.campaign import LandState, OptionPick, ZeroCampaigns, campaign_system
from engine.dif.campaign_data import DrawCard
from engine.dif.campaign_targets import BombingMode
from engine.dif.components import Altitude
from engine.dif.game import default_engine
from engine.dif.mission import MissionKind, MissionSetup
from engine.dif.pilots import choose_crews, choose_pilots, load_pilots, pilot_cup, shipped_pilots
from engine.dif.setup import DifSetup
from strings import Term


@pytest.fixture(scope="module")
def zc() -> ZeroCampaigns:
    return campaign_system()


def _key(exc: pytest.ExceptionInfo[Exception]) -> str:
    term = exc.value.args[0]
    assert isinstance(term, Term)
    return term.key


def _at(zc: ZeroCampaigns, campaign: str, target: int, period: str | None = None) -> LandState:
    """A campaign whose next Mission is ``target`` (as if its card had been drawn)."""
    state = zc.new_campaign({"campaign": campaign, "period": period}, 5)
    assert isinstance(state, LandState)
    return state.model_copy(update={"target": target})


def _choose(zc: ZeroCampaigns, state: LandState, japanese: int, allied: int) -> LandState:
    state = zc.apply(state, "japanese", OptionPick(mission=state.mission, number=japanese))
    return zc.apply(state, "allied", OptionPick(mission=state.mission, number=allied))


def _mission(plan_setup: object) -> MissionSetup:
    assert isinstance(plan_setup, DifSetup) and plan_setup.mission is not None
    return plan_setup.mission


# --- set-up ------------------------------------------------------------------------------


def test_the_land_and_carrier_campaigns_are_offered(zc: ZeroCampaigns) -> None:
    infos = {c.id: c for c in zc.campaigns()}
    assert list(infos) == ["malaya", "philippines", "burma", "coral-sea", "midway", "pearl-harbor"]
    assert infos["burma"].missions == 8 and infos["coral-sea"].missions == 5
    assert [s.id for s in infos["malaya"].sides] == ["japanese", "allied"]
    assert [str(s.name) for s in infos["malaya"].sides] == ["Japanese", "Allied"]


def test_pearl_harbor_is_played_by_its_own_part(zc: ZeroCampaigns) -> None:
    """The registry's one campaign system hands Pearl Harbor's states to
    :class:`PearlHarbor`: its decisions, notation, storage and sheet."""
    state = zc.new_campaign({"campaign": "pearl-harbor"}, 8)
    (decision,) = zc.pending(state)
    assert zc.ask(decision) == zc.pearl.ask(decision)
    action = zc.computer_action(state, decision.side, 1)
    assert zc.parse_action(str(action)) == action
    after = zc.apply(state, decision.side, action)
    assert zc.dump_state(zc.load_state(zc.dump_state(after))) == zc.dump_state(after)
    assert zc.sheet(after, None).title == zc.pearl.sheet(after, None).title
    assert zc.happenings(state, after).lines
    with pytest.raises(SetupError) as exc:
        zc.new_campaign({"campaign": "pearl-harbor", "period": "dec-1941"}, 1)
    assert _key(exc) == "campaign.zero.no_period_solitaire"
    with pytest.raises(SetupError) as exc:
        zc.new_campaign({"campaign": "pearl-harbor", "cup": ["ijn-1:0"]}, 1)
    assert _key(exc) == "campaign.zero.no_cup"


def test_unknown_campaign_and_period_are_refused_with_the_valid_ones(zc: ZeroCampaigns) -> None:
    with pytest.raises(SetupError) as exc:
        zc.new_campaign({"campaign": "guadalcanal"}, 1)
    assert _key(exc) == "campaign.zero.unknown"
    assert "malaya, philippines, burma, coral-sea, midway, pearl-harbor" in str(exc.value)
    with pytest.raises(SetupError) as exc:
        zc.new_campaign({"campaign": "malaya", "period": "march-1942"}, 1)
    assert _key(exc) == "campaign.zero.unknown_period"
    assert "december-1941, january-1942, february-1942" in str(exc.value)
    with pytest.raises(SetupError) as exc:
        zc.new_campaign({"campaign": "midway", "period": "june"}, 1)
    assert _key(exc) == "campaign.zero.no_period"


def test_the_first_period_is_the_default_and_the_first_mission_is_drawn(
    zc: ZeroCampaigns,
) -> None:
    # §24.41: a Period chosen; §24.44: one card drawn from the campaign's own RNG
    state = zc.new_campaign({"campaign": "burma"}, 42)
    assert isinstance(state, LandState)
    assert state.period == "dec-1941-jan-1942"
    assert state.card is not None
    c = zc.land.sheet_of(state)
    assert state.target == c.period(state.period).missions[state.card]
    again = zc.new_campaign({"campaign": "burma"}, 42)
    assert again == state, "the draw follows the seed"
    assert zc.opening(state).lines[0].startswith("Mission #1: the card drawn is")


# --- the Mission draw and its game (§24.44-24.53; Z-25: zero-c25-burma-mission.yaml) --------


def test_fixed_draws_select_the_missions_then_the_rng_draws(zc: ZeroCampaigns) -> None:
    # tests and vectors: ZeroCampaignSetup.draws first, in order, then the seeded RNG
    state = zc.new_campaign({"campaign": "burma", "draws": ["OOS-1B2D"]}, 93)
    assert isinstance(state, LandState) and (state.card, state.target, state.draws) == (
        DrawCard.OOS,
        15,
        (),
    )
    assert zc.opening(state).lines == (
        "Mission #1: the card drawn is OOS: Target 15, Freighter at Rangoon (§24.44).",
    )
    assert zc.next_mission(state).title == "Target 15: Freighter at Rangoon (Rangoon)"  # type: ignore[union-attr]
    with pytest.raises(SetupError) as exc:
        zc.new_campaign({"campaign": "burma", "draws": ["FUT"]}, 1)
    assert _key(exc) == "campaign.zero.bad_draw"
    with pytest.raises(SetupError) as exc:
        zc.new_campaign({"campaign": "midway", "cup": ["ijn-1:2"]}, 1)
    assert _key(exc) == "campaign.zero.bad_cup"


def test_a_fixed_counter_must_be_in_the_leaders_cup(zc: ZeroCampaigns) -> None:
    # §19.24a: a B5N2 counter is not in an A6M2's cup
    state = zc.new_campaign(
        {"campaign": "philippines", "draws": ["HAL"], "cup": ["ijn-1:0", "ijn-b5n2-1:0"]}, 1
    )
    state = zc.apply(state, "japanese", OptionPick(mission=1, number=1))
    with pytest.raises(RuleViolation) as exc:
        zc.apply(state, "allied", OptionPick(mission=1, number=4))
    assert _key(exc) == "campaign.zero.not_in_cup"


def test_a_strike_missions_bombers_fly_one_formation_at_the_sheets_altitude(
    zc: ZeroCampaigns,
) -> None:
    state = _choose(zc, _at(zc, "burma", 15), japanese=2, allied=4)
    plan = zc.mission_setup(state)
    setup = plan.setup
    assert isinstance(setup, DifSetup)
    mission = _mission(setup)
    # the two Ki-21s: one Formation of two at Medium (§17.22, §24.48), saturation bombing
    assert [(f.seat, f.aircraft, f.altitude, f.mode) for f in mission.formations] == [
        ("X2", ("ki-21", "ki-21"), Altitude.MEDIUM, BombingMode.SATURATION)
    ]
    # the Ki-43s an Option adds may start at any altitude (§24.48)
    assert setup.altitudes is None
    assert mission.awards == zc.book.scoresheets.land
    assert plan.seat_sides == {"X1": "japanese", "X2": "japanese"}
    assert plan.next.system == "dif" and plan.next.ruleset == "zero"


def test_a_dogfight_mission_has_its_turns_and_both_sides_at_its_altitude(
    zc: ZeroCampaigns,
) -> None:
    # §24.47-24.49: Target 16, Ki-27 L/W against Buffalo L/W, 6 turns
    state = _choose(zc, _at(zc, "burma", 16), japanese=3, allied=6)
    setup = zc.mission_setup(state).setup
    assert isinstance(setup, DifSetup)
    mission = _mission(setup)
    assert mission.kind is MissionKind.DOGFIGHT and mission.turns == 6
    assert mission.target is None and mission.bombs == {}
    assert setup.altitudes == {"X1": Altitude.MEDIUM, "A1": Altitude.MEDIUM}


# --- Z-24: the duration (§23.2) -------------------------------------------------------------


def test_z24_malaya_target_11_four_ki21_lasts_4_3_3(zc: ZeroCampaigns) -> None:
    # L1687: 9/8 base turns, Speed 5 -> 4 Turns of Arrival, 3 Over the Target, 3 Home
    state = _choose(zc, _at(zc, "malaya", 11), japanese=5, allied=6)  # two Veteran Pilots
    assert zc.land.duration(state) == (4, 3, 3)
    mission = _mission(zc.mission_setup(state).setup)
    assert (mission.arrival, mission.home, mission.home_base) == (4, 3, 8)
    assert "4 Turns of Arrival, 3 Over the Target, 3 of Return Home (§23.2)." in (
        zc.mission_setup(state).briefing
    )


def test_turns_options_change_the_arrival_only_on_the_side_they_help(zc: ZeroCampaigns) -> None:
    # Surprise Attack (Japanese #4, attacker): -2; Early Warning (Allied #8, defender): +1
    state = _choose(zc, _at(zc, "malaya", 11), japanese=4, allied=8)
    assert zc.land.duration(state) == (3, 3, 3)
    # Radar (Allied #3): the enemy's Mission +2 Turns of Arrival
    assert zc.land.duration(_choose(zc, _at(zc, "malaya", 11), 5, 3)) == (6, 3, 3)
    # the Allied Surprise Attack does nothing when the Japanese attack
    assert zc.land.duration(_choose(zc, _at(zc, "malaya", 11), 5, 9)) == (4, 3, 3)


def test_reinforced_flak_raises_the_defended_targets_fire(zc: ZeroCampaigns) -> None:
    plain = _mission(zc.mission_setup(_choose(zc, _at(zc, "malaya", 11), 5, 6)).setup)
    flak = _mission(zc.mission_setup(_choose(zc, _at(zc, "malaya", 11), 5, 7)).setup)
    assert plain.target is not None and flak.target is not None
    assert (flak.target.discretionary, flak.target.aa) == (
        plain.target.discretionary + 1,
        plain.target.aa + 1,
    )
    # chosen by the attacker, it does nothing (role: defender)
    own = _mission(zc.mission_setup(_choose(zc, _at(zc, "malaya", 11), 6, 6)).setup)
    assert own.target == plain.target


def test_mission_fighters_that_can_bomb_and_light_bombers_are_loaded(zc: ZeroCampaigns) -> None:
    # §24.46, §17.15: Burma Target 3, an Element of Ki-30 Light Bombers (level bombing)
    state = _choose(zc, _at(zc, "burma", 3), japanese=3, allied=6)
    mission = _mission(zc.mission_setup(state).setup)
    assert mission.bombs == {"X1": BombingMode.LEVEL}


# --- the secret Options (§24.52-24.53) ------------------------------------------------------


def test_options_are_refused_when_used_outside_their_period_or_not_listed(
    zc: ZeroCampaigns,
) -> None:
    state = _at(zc, "burma", 15)
    with pytest.raises(RuleViolation) as exc:  # Allied #9 (P-40E): Feb-May 1942 only
        zc.apply(state, "allied", OptionPick(mission=1, number=9))
    assert _key(exc) == "campaign.zero.period"
    assert 9 not in [a.number for a in zc.legal_actions(state, "allied")]
    with pytest.raises(RuleViolation) as exc:
        zc.apply(state, "allied", OptionPick(mission=1, number=11))
    assert _key(exc) == "campaign.zero.no_option"
    with pytest.raises(RuleViolation) as exc:
        zc.apply(state, "allied", OptionPick(mission=2, number=4))
    assert _key(exc) == "campaign.zero.wrong_mission"
    with pytest.raises(RuleViolation) as exc:
        zc.apply(state, "german", OptionPick(mission=1, number=4))
    assert _key(exc) == "campaign.zero.no_side"
    chosen = zc.apply(state, "allied", OptionPick(mission=1, number=4))
    with pytest.raises(RuleViolation) as exc:
        zc.apply(chosen, "allied", OptionPick(mission=1, number=5))
    assert _key(exc) == "campaign.zero.already"


def test_each_option_only_once_per_campaign(zc: ZeroCampaigns) -> None:
    state = _choose(zc, _at(zc, "burma", 15), japanese=2, allied=4)
    state = zc.absorb(state, Outcome(over=True, winner=None, verdict="", vp={}))
    assert isinstance(state, LandState) and state.mission == 2
    with pytest.raises(RuleViolation) as exc:
        zc.apply(state, "japanese", OptionPick(mission=2, number=2))
    assert _key(exc) == "campaign.zero.used"
    assert 2 not in [a.number for a in zc.legal_actions(state, "japanese")]


def test_a_pick_stays_secret_until_both_sides_have_chosen(zc: ZeroCampaigns) -> None:
    state = _at(zc, "burma", 15)
    entry = CampaignEntry(EntryKind.DECISION, "japanese", "option #1 2")
    one = zc.apply(state, "japanese", zc.parse_action(entry.text))
    assert zc.public_text(one, entry) == "option #1 (secret)"
    assert zc.sheet(one, "allied").secrets == ()
    assert zc.sheet(one, None).secrets == ()
    assert zc.sheet(one, "japanese").secrets == (
        "Japanese: Option #2, Additional Aircraft (L/W ki-43).",
    )
    assert not zc.mission_ready(one)
    with pytest.raises(RuleViolation):
        zc.mission_setup(one)
    both = zc.apply(one, "allied", OptionPick(mission=1, number=4))
    assert zc.public_text(both, entry) == "option #1 2"
    lines = zc.happenings(one, both).lines
    assert "Japanese: Option #2, Additional Aircraft (L/W ki-43)." in lines


def test_notation_round_trips_and_bad_text_is_refused(zc: ZeroCampaigns) -> None:
    assert str(zc.parse_action("option #3 7")) == "option #3 7"
    assert str(zc.parse_action("fleet #2 long large allied-fleet")) == (
        "fleet #2 long large allied-fleet"
    )
    with pytest.raises(MalformedAction):
        zc.parse_action("option 3")


def test_the_menu_lists_the_open_options_within_a_menus_limit(zc: ZeroCampaigns) -> None:
    state = _at(zc, "burma", 15)
    menu = zc.menu(state, "allied")
    assert menu is not None and len(menu.children) <= 25
    assert [c.action for c in menu.children] == [str(a) for a in zc.legal_actions(state, "allied")]


# --- Z-15: pilots (§19.24; the campaign's draw: zero-c15-pilot-selection.yaml) and crews (§19.34)


def test_z15_kates_and_a_zero_draw_paek_abe_and_honda() -> None:
    book = shipped_pilots()
    catalogue = default_engine().aircraft
    cups: list[list[str]] = []
    script = iter([("ijn-1", 0), ("ijn-b5n2-1", 0), ("ijn-a6m2-1", 0)])

    def pick(cup: Sequence[str]) -> tuple[str, int]:
        cups.append(list(cup))
        return next(script)

    leaders = [("X1", "b5n2"), ("X2", "b5n2"), ("X3", "a6m2")]
    drawn = choose_pilots(book, catalogue, leaders, pick)
    assert [(d.seat, d.name, d.kept) for d in drawn] == [
        ("X1", "Paek", False),  # Unskilled: discarded, Kate #1 has no pilot
        ("X2", "Abe", True),
        ("X3", "Honda", True),
    ]
    untyped = ["ijn-1", "ijn-2", "ijn-3", "ijn-4"]
    assert cups[0] == [*untyped, "ijn-b5n2-1", "ijn-b5n2-2"]
    assert "ijn-1" not in cups[1], "Paek is discarded for the second Kate"
    assert cups[2] == [*untyped, "ijn-a6m2-1", "ijn-a6m2-2"], "Paek back, the Kates' out"


def test_pilots_fly_only_their_nation_service_and_type() -> None:
    book = shipped_pilots()
    catalogue = default_engine().aircraft
    ki43 = pilot_cup(book, catalogue["ki-43"], catalogue)
    assert ki43 and all(i.startswith("ija-") for i in ki43)  # IJA, not IJN (§19.21)
    assert "ija-ki-27-1" not in ki43  # another type (§19.23)
    assert all(i.startswith("uk-") for i in pilot_cup(book, catalogue["buffalo-i"], catalogue))
    # every Element aircraft the land and carrier sheets fly has a cup
    for aircraft in ("a6m2", "ki-27", "ki-30", "d3a1", "b5n2", "f4f", "p-40b", "p-40e", "sbd"):
        assert pilot_cup(book, catalogue[aircraft], catalogue), aircraft


def test_veteran_pilot_draws_two_and_keeps_the_better() -> None:
    book = shipped_pilots()
    catalogue = default_engine().aircraft
    script = iter([("ijn-a6m2-1", 0), ("ijn-a6m2-2", 0)])
    drawn = choose_pilots(
        book, catalogue, [("X1", "a6m2")], lambda cup: next(script), draws={"X1": 2}
    )
    assert [(d.name, d.kept) for d in drawn] == [("Honda", False), ("Nishizawa", True)]


def test_colin_kelly_flies_the_colin_kelly_mission_and_is_never_drawn(zc: ZeroCampaigns) -> None:
    state = _choose(zc, _at(zc, "philippines", 6), japanese=1, allied=2)
    mission = _mission(zc.mission_setup(state).setup)
    b17 = [f for f in mission.formations if f.aircraft[0] == "b-17d"]
    assert b17 and b17[0].crews[0].name == "Colin Kelly"
    assert b17[0].crews[0].skills == ("NS",)
    catalogue = default_engine().aircraft
    three = [("A1:0", "b-17d"), ("A1:1", "b-17d"), ("A2:0", "b-17d")]
    assert choose_crews(shipped_pilots(), catalogue, three, lambda cup: ("x", 0)) == [], (
        "Zero! ships no crew for the cup (L1259)"
    )


def test_a_crew_is_drawn_for_every_three_heavy_bombers(tmp_path: object) -> None:
    book = load_pilots().model_copy(
        update={
            "crews": (
                *load_pilots().crews,
                load_pilots().crews[0].model_copy(update={"id": "usaaf-crew", "cup": True}),
            )
        }
    )
    catalogue = default_engine().aircraft
    bombers = [(f"A1:{i}", "b-17d") for i in range(5)]
    drawn = choose_crews(book, catalogue, bombers, lambda cup: (cup[0], 0))
    assert [(d.seat, d.counter, d.kept) for d in drawn] == [("A1:0", "usaaf-crew", True)]


# --- the mission's VP, pilots lost (§24.61; Z-26: zero-c26-mission-vp.yaml) -----------------


def test_a_missions_vp_are_announced_and_an_unfinished_game_refused(zc: ZeroCampaigns) -> None:
    # the VP recorded and totalled: zero-c26-mission-vp.yaml (Z-26)
    state = _choose(zc, _at(zc, "malaya", 11), japanese=5, allied=6)
    after = zc.absorb(
        state, Outcome(over=True, winner="axis", verdict="", vp={"axis": 26, "allied": 15})
    )
    assert zc.sheet(after, None).missions[0].state is MissionState.FLOWN
    assert zc.happenings(state, after).lines[0] == (
        "Mission #1: Japanese 26 VP, Allied 15 VP (§24.61)."
    )
    with pytest.raises(RuleViolation) as exc:
        zc.absorb(state, Outcome(over=False, winner=None, verdict="", vp={}))
    assert _key(exc) == "campaign.zero.not_over"


def test_a_skilled_pilot_shot_down_leaves_the_cup(zc: ZeroCampaigns) -> None:
    state = _choose(zc, _at(zc, "burma", 15), japanese=2, allied=4)
    state = state.model_copy(
        update={
            "drawn": (
                state.drawn[0].model_copy(
                    update={"seat": "X1", "counter": "ija-ki-43-1", "name": "Kato", "kept": True}
                ),
            )
        }
    )
    assert zc.mission_setup(state).setup.mission.pilots["X1"].name == "Kato"  # type: ignore[attr-defined]
    fate = AircraftFate("X1L", "X1", "axis", "ki-43", Fate.SHOT_DOWN, record={"pilot": "Kato"})
    after = zc.absorb(state, Outcome(over=True, winner=None, verdict="", vp={}, fates=(fate,)))
    assert isinstance(after, LandState) and after.lost == ("ija-ki-43-1",)
    assert "Kato was shot down: his counter leaves the cup." in zc.happenings(state, after).lines
    catalogue = default_engine().aircraft
    assert "ija-ki-43-1" not in pilot_cup(
        zc.land.pilots, catalogue["ki-43"], catalogue, frozenset(after.lost)
    )


def test_an_aborted_mission_is_flown_again_with_the_same_picks(zc: ZeroCampaigns) -> None:
    state = _choose(zc, _at(zc, "burma", 15), japanese=2, allied=4)
    again = zc.abort_mission(state)
    assert zc.next_mission(again).attempt == 2  # type: ignore[union-attr]
    assert zc.next_mission(again).seed != zc.next_mission(state).seed  # type: ignore[union-attr]
    assert zc.mission_setup(again).setup == zc.mission_setup(state).setup


# --- a whole land campaign ------------------------------------------------------------------


def hand_outcome(setup: object, k: int) -> Outcome:
    """Every aircraft of a mission plan's setup, one in four shot down, one in three
    damaged; VP as a mission game would report them."""
    assert isinstance(setup, DifSetup) and setup.mission is not None
    mission = setup.mission
    fates: list[AircraftFate] = []
    for e in setup.elements:
        for ref in (e.seat + "L", e.seat + "W") if e.wingman else (e.seat + "L",):
            n = k + len(fates)
            fate = Fate.SHOT_DOWN if n % 4 == 0 else Fate.DAMAGED if n % 3 == 0 else Fate.UNHARMED
            pilot = mission.pilots.get(e.seat)
            record = {"pilot": pilot.name} if pilot and ref.endswith("L") else {}
            record["damage_dealt"] = 1 if e.side is mission.attacker else 0
            fates.append(
                AircraftFate(
                    ref,
                    e.seat,
                    e.side.value,
                    e.aircraft,
                    fate,
                    damaged=fate is Fate.DAMAGED,
                    record=record,
                )
            )
    for f in mission.formations:
        for i, aircraft in enumerate(f.aircraft):
            fates.append(
                AircraftFate(
                    f"{f.seat}B{i + 1}",
                    f.seat,
                    f.side.value,
                    aircraft,
                    Fate.UNHARMED,
                    record={"damage_dealt": 2},
                )
            )
    return Outcome(
        over=True,
        winner=None,
        verdict="",
        vp={"axis": 3 + k % 4, "allied": 2 + k % 3},
        fates=tuple(fates),
    )


def play(zc: ZeroCampaigns, setup: dict[str, str], seed: int) -> tuple[object, list[CampaignEntry]]:
    """The whole campaign: computer players decide, hand-built outcomes end the games;
    nothing secret is ever public before both sides have chosen."""
    state = zc.new_campaign(setup, seed)
    log: list[CampaignEntry] = []
    games = 0
    while not zc.is_over(state):
        if zc.mission_ready(state):
            plan = zc.mission_setup(state)
            assert set(plan.seat_sides) == {s.seat for s in plan.seats}
            outcome = hand_outcome(plan.setup, games)
            games += 1
            log.append(CampaignEntry(EntryKind.OUTCOME, text=outcome_text(outcome)))
            state = zc.absorb(state, outcome)
            continue
        decisions = zc.pending(state)
        assert decisions and all(d.secret for d in decisions)
        for d in decisions:
            action = zc.computer_action(state, d.side, seed + len(log))
            entry = CampaignEntry(EntryKind.DECISION, d.side, str(action))
            state = zc.apply(state, d.side, action)
            log.append(entry)
            if any(p.kind == d.kind for p in zc.pending(state)):  # the other side has not chosen
                assert zc.public_text(state, entry).endswith("(secret)")
                other = next(s for s in ("japanese", "allied") if s != d.side)
                assert str(action) not in " ".join(zc.sheet(state, other).secrets)
    return state, log


@pytest.mark.parametrize("campaign", ["malaya", "philippines", "burma"])
def test_a_whole_land_campaign_plays_to_its_result_and_replays(
    zc: ZeroCampaigns, campaign: str
) -> None:
    setup = {"campaign": campaign}
    state, log = play(zc, setup, 2026)
    assert isinstance(state, LandState)
    c = zc.land.sheet_of(state)
    assert len(state.scores) == c.duration
    sheet = zc.sheet(state, None)
    assert [m.state for m in sheet.missions] == [MissionState.FLOWN] * c.duration
    totals = {s: sum(m.vp[s] for m in sheet.missions) for s in ("japanese", "allied")}
    assert sheet.totals == totals
    result = zc.result(state)
    assert result is not None and result.totals == totals
    assert zc.next_mission(state) is None and zc.pending(state) == []
    assert replay(zc, setup, 2026, log) == state
    assert zc.load_state(zc.dump_state(state)) == state
    assert all(sum(1 for n in s.options.values()) == 2 for s in state.scores)
    for side in ("japanese", "allied"):
        used = [s.options[side] for s in state.scores]
        assert len(set(used)) == len(used), "each Option once (§24.53)"


def test_the_victory_table_reads_the_japanese_less_the_allied_vp(zc: ZeroCampaigns) -> None:
    state, _ = play(zc, {"campaign": "burma"}, 7)
    assert isinstance(state, LandState)
    lopsided = state.model_copy(
        update={
            "scores": tuple(
                s.model_copy(update={"vp": {"japanese": 10, "allied": 0}}) for s in state.scores
            )
        }
    )
    result = zc.result(lopsided)
    assert result is not None and result.winner == "japanese"
    assert "Japanese Decisive Victory" in result.verdict  # 80 > 60 (§24.7)
    assert str(result.levels["japanese"]) == "Air Group Action Capacity +2"


@pytest.mark.parametrize("campaign", ["malaya", "philippines", "burma"])
def test_every_mission_target_of_every_period_starts_its_game(
    zc: ZeroCampaigns, campaign: str
) -> None:
    """Whatever card is drawn, the Mission's game starts (a PBY patrolling at Medium
    carries no torpedo, §17.24, §21.53): a plan the engine refused would stall the
    campaign, re-offered at every restart."""
    engine = default_engine()
    sheet = zc.book.campaign(campaign)
    for period in sheet.periods:  # type: ignore[union-attr]
        for number in sorted(set(period.missions.values())):
            state = zc.new_campaign({"campaign": campaign, "period": period.id}, 1)
            state = state.model_copy(update={"target": number})
            for side in ("japanese", "allied"):
                state = zc.apply(state, side, zc.legal_actions(state, side)[0])
            plan = zc.mission_setup(state)
            engine.new_game(plan.setup, plan.next.seed)  # raises SetupError if refused


# --- Veteran Pilot: the side chooses the Skilled Pilot its Leader keeps ---------------------

_VETERAN = {"campaign": "malaya", "cup": ["ija-ki-43-1:0", "ija-ki-43-2:0"]}


def _veteran_mission(zc: ZeroCampaigns) -> LandState:
    """Malaya Mission 1 as Target 18 (Dogfight over Singapore), the Japanese with the
    Veteran Pilot Option: the first Ki-43 Leader draws Kato (A, P) and Hinoki (G)."""
    state = zc.new_campaign(_VETERAN, 4)
    assert isinstance(state, LandState)
    return _choose(zc, state.model_copy(update={"target": 18}), japanese=5, allied=1)


def test_a_land_veteran_pilots_side_chooses_the_pilot_he_keeps(zc: ZeroCampaigns) -> None:
    state = _veteran_mission(zc)
    assert [(d.side, d.kind) for d in zc.pending(state)] == [("japanese", "veteran")]
    assert not zc.mission_ready(state) and state.drawn == ()
    assert [str(a) for a in zc.legal_actions(state, "japanese")] == [
        "keep #1 ija-ki-43-1",
        "keep #1 ija-ki-43-2",
    ]
    assert zc.legal_actions(state, "allied") == []
    menu = zc.menu(state, "japanese")
    assert menu is not None
    assert [c.label for c in menu.children] == ["Keep Kato (A,P)", "Keep Hinoki (G)"]
    # the Options are revealed (§24.53); the pilots drawn are the side's secret
    option = CampaignEntry(EntryKind.DECISION, "japanese", "option #1 5")
    assert zc.public_text(state, option) == "option #1 5"
    assert zc.sheet(state, "japanese").secrets == ("Keep Kato (A,P)", "Keep Hinoki (G)")
    other = zc.sheet(state, "allied")
    assert "Kato" not in " ".join((*other.secrets, *other.next))
    after = zc.apply(state, "japanese", zc.parse_action("keep #1 ija-ki-43-2"))
    keep = CampaignEntry(EntryKind.DECISION, "japanese", "keep #1 ija-ki-43-2")
    assert zc.public_text(state, keep) == "keep #1 (secret)"
    assert zc.public_text(after, keep) == "keep #1 ija-ki-43-2"
    assert zc.mission_ready(after)
    assert [(d.name, d.kept) for d in after.drawn if d.seat == "X1"] == [
        ("Kato", False),
        ("Hinoki", True),
    ]
    assert _mission(zc.mission_setup(after).setup).pilots["X1"].name == "Hinoki"
    # the pick and the draws it leads to replay exactly (the same RNG state)
    assert zc.apply(state, "japanese", zc.parse_action(str(keep.text))) == after
    assert zc.load_state(zc.dump_state(state)) == state


def test_a_land_computer_veteran_keeps_the_most_skilled(zc: ZeroCampaigns) -> None:
    state = _veteran_mission(zc)
    action = zc.computer_action(state, "japanese", 3)
    assert str(action) == "keep #1 ija-ki-43-1" and action == zc.default_action(state, "japanese")
    for side, text, key in (
        ("allied", "keep #1 ija-ki-43-1", "campaign.zero.no_keep"),
        ("japanese", "keep #1 ija-1", "campaign.zero.not_drawn"),
        ("japanese", "keep #2 ija-ki-43-1", "campaign.zero.wrong_game"),
    ):
        with pytest.raises(RuleViolation) as exc:
            zc.apply(state, side, zc.parse_action(text))
        assert _key(exc) == key
    after = zc.apply(state, "japanese", action)
    assert [d.name for d in after.drawn if d.seat == "X1" and d.kept] == ["Kato"]
