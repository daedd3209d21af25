"""The Eagles in the Sky Campaign Game (engine/eagles/campaign.py) on a test card.

The card and tables here are the test's own (so each rule is checked on numbers the
test controls, whatever the shipped data says); every Maneuver card the campaign draws
is fixed with the set-up's ``draws`` and every cup draw with ``cup``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.core.campaign import CampaignEntry, EntryKind, outcome_text, replay
from engine.core.contract import AircraftFate, Fate, Outcome
from engine.core.errors import MalformedAction, RuleViolation, SetupError
from engine.eagles.campaign import AssignAction, EaglesCampaigns, EaglesCampaignSetup
from engine.eagles.campaign_data import CampaignCard, CampaignTables
from engine.eagles.enums import DamageKind, DefenceClass
from engine.eagles.game import default_engine
from engine.eagles.squadron import Plane, Squadron

ENGINE = default_engine()
DECK = ENGINE.components.deck

CARD: dict[str, Any] = {
    "id": "test",
    "title": "Test Sector",
    "summary": "a card for the tests",
    "offensive": "allied",
    "missions_per_day": 4,
    "pilots": {
        "allied": {"experienced": 5, "inexperienced": 2, "green": 2},
        "german": {"experienced": 5, "inexperienced": 2, "green": 2},
    },
    "missions": [
        {
            "number": 1,
            "cards": [1, 30],
            "type": "patrol",
            "attacker": "allied",
            "zone": "no_mans_land",
            "altitude": "M",
        },
        {
            "number": 2,
            "cards": [31, 50],
            "type": "photo_recon",
            "attacker": "allied",
            "zone": "german_front",
            "altitude": "M",
            "draw_mission_aircraft": True,
        },
        {
            "number": 3,
            "cards": [51, 70],
            "type": "patrol",
            "attacker": "german",
            "zone": "allied_front",
            "altitude": "H",
        },
        {
            "number": 4,
            "cards": [71, 90],
            "type": "photo_recon",
            "attacker": "german",
            "zone": "allied_rear",
            "altitude": "H",
            "draw_mission_aircraft": True,
            "once": True,
            "instead": 5,
            "no_squadron": "german",
        },
        {
            "number": 5,
            "cards": [91, 110],
            "type": "patrol",
            "attacker": "german",
            "zone": "no_mans_land",
            "altitude": "L",
        },
    ],
    "campaign_events": [
        {"cards": [1, 50], "event": "none"},
        {"cards": [51, 60], "event": "ground_support"},
        {"cards": [61, 70], "event": "fuel_shortage"},
        {"cards": [71, 80], "event": "party"},
        {"cards": [81, 90], "event": "leave"},
        {"cards": [91, 100], "event": "big_push"},
        {"cards": [101, 110], "event": "lull"},
    ],
    "special_events": [{"fire": [0, 6], "event": "none"}],
    "sources": "the tests",
}

TABLES: dict[str, Any] = {
    "chits": [
        {"missions": [0, 2], "engagement": 2, "encounter": 1},
        {"missions": [3, 4], "engagement": 3, "encounter": 3},
        {"missions": [5, 10], "engagement": 4, "encounter": 5},
    ],
    # 1-30: 0/0/4; 31-60: 0/0/2; 61-90: 0/1/1; 91-115: 1*/1/0 (every column).
    "encounter": [
        {"cards": [1, 30], "results": ["0/0/3", "0/0/4", "0/0/5"]},
        {"cards": [31, 60], "results": ["0/0/1", "0/0/2", "0/0/3"]},
        {"cards": [61, 90], "results": ["0/1/1", "0/1/1", "0/1/1"]},
        {"cards": [91, 115], "results": ["1*/1/0", "1*/1/0", "1*/2/0"]},
    ],
    "safe_return": {
        "hit": {"structure": 1, "wing": 5, "control": 5, "engine": 5},
        "wounded_pilot": 10,
        "engine_out": 30,
        "exhausted_green": 0,
        "columns": [
            {"zone": z, "side": s, "safe": 60, "survive": [1, 50]}
            for z in ("allied_rear", "allied_front", "no_mans_land", "german_front", "german_rear")
            for s in ("allied", "german")
        ],
    },
    "replacement": {"pilot": 60, "aircraft": 50},
    "names": {
        "allied": [f"Smith{i}" for i in range(30)],
        "german": [f"Schmidt{i}" for i in range(30)],
    },
}

MORNING_CLEAR = 1
"""Weather card 1: Clear in every column (data/eagles/tables.yaml)."""


def system(**card: Any) -> EaglesCampaigns:
    return EaglesCampaigns(
        ENGINE,
        {"test": CampaignCard.model_validate({**CARD, **card})},
        CampaignTables.model_validate(TABLES),
    )


def start(draws: list[int], cup: list[str] = (), **extra: Any) -> tuple[EaglesCampaigns, Any]:
    sys_ = system()
    setup = EaglesCampaignSetup(
        campaign="test",
        month=extra.pop("month", "1917-10"),
        allied="spad-vii",
        german="albatros-dv",
        draws=tuple(draws),
        cup=tuple(cup),
        **extra,
    )
    return sys_, sys_.new_campaign(setup, seed=7)


def card_where(fire_at_most: int | None, result: DamageKind | None, cls: DefenceClass) -> int:
    """A card hitting at Fire Value 3 with ``result`` on the 1-Gun column of ``cls``
    (``result`` None: a card that misses a Fire Value 3 attack)."""
    for c in DECK.cards:
        if result is None:
            if not c.jammed and c.fire is not None and c.fire > 3:
                return c.number
        elif (
            not c.jammed
            and c.fire is not None
            and c.fire <= (fire_at_most or 3)
            and c.damage_for(1, cls) is result
        ):
            return c.number
    raise LookupError(result)


SPAD = DefenceClass.STURDY  # the SPAD VII is Sturdy (data/eagles/aircraft.yaml)


def test_setup_squadrons_and_first_day() -> None:
    """Campaign §3.6: twelve pilots with three Flight Leaders, twelve aircraft; §4.1:
    the day's four missions in draw order, two a phase; §7.12: 3 and 3 chits."""
    sys_, state = start([10, 40, 60, 80, MORNING_CLEAR])
    for side in ("allied", "german"):
        sq = state.squadrons[side]
        assert len(sq.pilots) == 12 and len(sq.planes) == 12
        assert sum(p.is_leader for p in sq.pilots) == 3
        assert [p.id for p in sq.pilots][:3] == ["A", "B", "C"]
    assert state.squadrons["allied"].aircraft == "spad-vii"
    assert [s.mission for s in state.sorties] == [1, 2, 3, 4]
    assert [s.phase for s in state.sorties] == ["morning", "morning", "afternoon", "afternoon"]
    assert state.chits == {"engagement": 3, "encounter": 3}
    assert state.weather == "clear"
    assert [f"{d.side} {d.kind}" for d in sys_.pending(state)] == ["allied assign", "german assign"]
    assert sys_.sheet(state, None).missions[0].state.value == "next"


def test_setup_refusals() -> None:
    sys_ = system()
    with pytest.raises(SetupError, match="no Eagles"):
        sys_.new_campaign(EaglesCampaignSetup(campaign="nope"), 1)
    with pytest.raises(SetupError, match="cannot be the squadron"):
        sys_.new_campaign(
            EaglesCampaignSetup(campaign="test", month="1917-10", allied="spad-xiii-x"), 1
        )
    with pytest.raises(SetupError, match="before"):
        fixed = system(first_month="1916-01")
        fixed.new_campaign(EaglesCampaignSetup(campaign="test", month="1915-08"), 1)


def test_assignments_are_secret_then_an_encounter_resolves() -> None:
    """§5.41: secret assignments, revealed once both are made; §7.2: an Encounter
    each (the Allied flight 4 Scouts: the 3-4 column; card 20 -> 0/0/4); §7.24: the
    Green pilots take the first draws; §8.12: a Fatigue Point each."""
    miss = card_where(None, None, SPAD)
    structure = card_where(3, DamageKind.STRUCTURE, SPAD)
    sys_, state = start(
        [10, 95, 96, 97, MORNING_CLEAR, 20, miss, miss, miss, structure, 95],
        cup=["encounter"],
    )
    sq = state.squadrons["allied"]
    greens = [p.id for p in sq.pilots if p.quality == "green"]
    flight = ("A", "D", *greens)
    state = sys_.apply(state, "allied", AssignAction(mission=1, pilots=flight, lead="A"))
    entry = CampaignEntry(EntryKind.DECISION, "allied", "assign #1 A* D " + " ".join(greens))
    assert sys_.public_text(state, entry) == "assign #1 (secret)"
    assert sys_.sheet(state, "allied").secrets and not sys_.sheet(state, "german").secrets
    before = state
    state = sys_.apply(state, "german", sys_.parse_action("assign #1 none"))
    assert sys_.public_text(state, entry) == entry.text
    s = state.sorties[0]
    assert s.status == "done" and s.chit == "encounter"
    reports = [k for k, _ in s.report]
    assert reports.count("miss") == 3 and reports.count("hit") == 1
    hit_on = next(p for k, p in s.report if k == "hit")["pilot"]
    assert hit_on not in greens  # the Greens drew first (§7.24), and missed
    assert s.points == {"allied": 1}  # §14.16: the Germans sent nobody
    allied = state.squadrons["allied"]
    assert all(allied.pilot(pid).fatigue == 1 for pid in flight)
    assert all(allied.pilot(g).missions == 1 for g in greens)
    assert all(p.flyable() for p in allied.planes)  # the Structure hit repaired (§10.11)
    happened = sys_.happenings(before, state)
    assert any("Encounter" in line for line in happened.lines)
    assert [d.mission for d in sys_.pending(state)] == [2, 2]


def test_refusals_change_nothing() -> None:
    sys_, state = start([10, 40, 60, 80, MORNING_CLEAR])
    with pytest.raises(MalformedAction):
        sys_.parse_action("assign 1 A")
    cases = [
        (AssignAction(mission=2, pilots=("A",)), "now is #1"),
        (AssignAction(mission=1, pilots=("Z",)), "no pilot Z"),
        (AssignAction(mission=1, pilots=("A", "A")), "once"),
        (AssignAction(mission=1, pilots=tuple("ABCDEFG")), "too many"),
        (AssignAction(mission=1, pilots=("A",), lead="D"), "leads only"),
    ]
    sq = state.squadrons["allied"]
    green = [p.id for p in sq.pilots if p.quality == "green"]
    cases.append((AssignAction(mission=1, pilots=tuple(green)), "Experienced pilot"))
    for action, why in cases:
        with pytest.raises(RuleViolation, match=why):
            sys_.apply(state, "allied", action)
    state2 = sys_.apply(state, "allied", AssignAction(mission=1, pilots=("A",)))
    assert state2.sorties[0].assigned["allied"].lead == "A"  # one leader: he leads
    with pytest.raises(RuleViolation, match="already"):
        sys_.apply(state2, "allied", AssignAction(mission=1, pilots=("B",)))
    assert state.sorties[0].assigned == {}


def test_menu_is_the_legal_actions() -> None:
    sys_, state = start([10, 40, 60, 80, MORNING_CLEAR])
    legal = {str(a) for a in sys_.legal_actions(state, "allied")}
    menu = sys_.menu(state, "allied")
    assert menu is not None
    leaves: set[str] = set()

    def walk(c: Any) -> None:
        assert len(c.children) <= 25
        for child in c.children:
            if child.action is not None:
                leaves.add(child.action)
            else:
                walk(child)

    walk(menu)
    assert leaves == legal
    assert "assign #1 none" in legal and len(legal) > 2000


def engagement_outcome(
    state: Any,
    allied: list[tuple[str, Fate, dict[str, int]]],
    german: list[Any],
    vp: dict[str, int],
) -> Outcome:
    fates = []
    for side, rows in (("allied", allied), ("german", german)):
        for i, (pid, fate, damage) in enumerate(rows):
            fates.append(
                AircraftFate(
                    ref=f"{side[0].upper()}{i}",
                    seat="",
                    side=side,
                    aircraft="x",
                    fate=fate,
                    by=None,
                    record={"pilot_id": pid, "damage": damage, "crew": {}, "kills": [], "glory": 0},
                )
            )
    return Outcome(True, None, "", vp, tuple(fates), 8)


def test_engagement_game_and_campaign_points() -> None:
    """§5.44: an Engagement chit makes a game of the mission's type, zone and altitude
    with both flights; §14.12-14.14: the winner's Campaign Points by the VP ratio; a
    squadron aircraft shot down loses its pilot; §8.12: High altitude +1 Fatigue."""
    sys_, state = start([60, 10, 40, 80, MORNING_CLEAR], cup=["engagement"])
    state = sys_.apply(state, "allied", AssignAction(mission=1, pilots=("A", "D", "E"), lead="A"))
    state = sys_.apply(state, "german", AssignAction(mission=1, pilots=("A", "D"), lead="A"))
    assert sys_.mission_ready(state)
    plan = sys_.mission_setup(state)
    setup = plan.setup
    assert setup.engagement == "patrol" and setup.zone == "allied_front" and setup.altitude == "H"
    assert [p.pilot for p in setup.allied.planes] == ["A", "D", "E"]
    assert setup.allied.planes[0].quality == "leader" and setup.allied.planes[0].leader
    assert plan.seat_sides == {"A1": "allied", "G1": "german"}
    assert sys_.pending(state) == []
    outcome = engagement_outcome(
        state,
        [("A", Fate.UNHARMED, {}), ("D", Fate.UNHARMED, {}), ("E", Fate.UNHARMED, {})],
        [("A", Fate.UNHARMED, {}), ("D", Fate.SHOT_DOWN, {})],
        {"allied": 7, "german": 3},
    )
    after = sys_.absorb(state, outcome)
    s = after.sorties[0]
    assert s.points == {"allied": 2}  # 7 >= 2 x 3, < 3 x 3
    assert after.squadrons["allied"].points == 2
    german = after.squadrons["german"]
    assert german.pilot("D").status == "lost" and german.lost_pilots == 1
    assert sum(p.lost for p in german.planes) == 1
    assert after.squadrons["allied"].pilot("A").fatigue == 2  # High start (§8.12)
    with pytest.raises(RuleViolation):
        sys_.absorb(after, outcome)


@pytest.mark.parametrize(
    ("vp", "points"),
    [
        ({"allied": 5, "german": 3}, 1),
        ({"allied": 6, "german": 3}, 2),
        ({"allied": 9, "german": 3}, 3),
        ({"allied": 1, "german": 0}, 3),
        ({"allied": 3, "german": 3}, 0),
    ],
)
def test_campaign_points_by_ratio(vp: dict[str, int], points: int) -> None:
    sys_, state = start([10, 10, 40, 80, MORNING_CLEAR], cup=["engagement"])
    state = sys_.apply(state, "allied", AssignAction(mission=1, pilots=("A",), lead="A"))
    state = sys_.apply(state, "german", AssignAction(mission=1, pilots=("A",), lead="A"))
    after = sys_.absorb(
        state, engagement_outcome(state, [("A", Fate.UNHARMED, {})], [("A", Fate.UNHARMED, {})], vp)
    )
    assert after.squadrons["allied"].points == points


def test_walkover_and_bonus() -> None:
    """§5.45: an Engagement with one side sending nothing and having no Mission
    aircraft is not played: the other gains 3 Campaign Points (+1 bonus, §14.16)."""
    sys_, state = start([10, 40, 60, 80, MORNING_CLEAR], cup=["engagement"])
    state = sys_.apply(state, "allied", AssignAction(mission=1, pilots=("A",), lead="A"))
    state = sys_.apply(state, "german", AssignAction(mission=1))
    s = state.sorties[0]
    assert s.status == "done" and s.points == {"allied": 4}
    assert not sys_.mission_ready(state)


def test_no_squadron_mission_and_once() -> None:
    """L1923: the Germans may not assign to their Photo-recon (Mission 4), no bonus
    for the Allies; it is played with its Mission aircraft; §5.11: flown once, a
    second draw becomes Mission 5."""
    sys_, state = start([80, 10, 40, 60, MORNING_CLEAR], cup=["engagement"])
    assert [f"{d.side} {d.kind}" for d in sys_.pending(state)] == ["allied assign"]
    s = state.sorties[0]
    assert s.mission_aircraft.get("german")
    with pytest.raises(RuleViolation, match="may not fly"):
        sys_.apply(state, "german", AssignAction(mission=1, pilots=("A",), lead="A"))
    state = sys_.apply(state, "allied", AssignAction(mission=1, pilots=("A",), lead="A"))
    assert sys_.mission_ready(state)
    plan = sys_.mission_setup(state)
    assert plan.setup.german.planes and all(p.mission for p in plan.setup.german.planes)
    after = sys_.absorb(
        state, engagement_outcome(state, [("A", Fate.UNHARMED, {})], [], {"allied": 0, "german": 3})
    )
    assert after.sorties[0].points == {"german": 3}
    assert after.once == [4]


def test_fatigue_example_and_safe_return() -> None:
    """Campaign §8.12's example: a High mission in Extreme Cold, a Control hit, a Safe
    Return survived: four Fatigue Points."""
    cold = next(
        n
        for n in range(1, 111)
        if ENGINE.components.tables.weather_for(n, 1).value == "extreme_cold"
    )
    sys_, state = start([60, 10, 40, 80, cold, 30], cup=["engagement"], month="1918-01")
    assert state.weather == "extreme_cold"
    state = sys_.apply(state, "allied", AssignAction(mission=1, pilots=("A",), lead="A"))
    state = sys_.apply(state, "german", AssignAction(mission=1, pilots=("A",), lead="A"))
    after = sys_.absorb(
        state,
        engagement_outcome(
            state,
            [("A", Fate.DAMAGED, {"control": 1})],
            [("A", Fate.UNHARMED, {})],
            {"allied": 0, "german": 0},
        ),
    )
    pilot = after.squadrons["allied"].pilot("A")
    assert pilot.fatigue == 4
    assert any(k == "safe" for k, _ in after.sorties[0].report)
    plane = after.squadrons["allied"].plane(1)
    assert plane.hits == {"control": 1} and not plane.flyable()  # §10.16


def test_safe_return_loss_counts_as_a_kill() -> None:
    """§5.65: a lost aircraft gives the enemy VP; §9.32: the kill goes to the last
    pilot who damaged it; §5.66: the crew draws for survival."""
    sys_, state = start([60, 10, 40, 80, MORNING_CLEAR, 100, 99], cup=["engagement"])
    state = sys_.apply(state, "allied", AssignAction(mission=1, pilots=("A",), lead="A"))
    state = sys_.apply(state, "german", AssignAction(mission=1, pilots=("A",), lead="A"))
    outcome = engagement_outcome(
        state,
        [("A", Fate.DAMAGED, {"wing": 1, "structure": 1})],
        [("A", Fate.UNHARMED, {})],
        {"allied": 0, "german": 2},
    )
    fates = list(outcome.fates)
    fates[0] = replace(outcome.fates[0], by="G0")
    after = sys_.absorb(state, replace(outcome, fates=tuple(fates)))
    s = after.sorties[0]
    assert after.squadrons["allied"].plane(1).lost
    assert after.squadrons["allied"].pilot("A").status == "lost"  # 99 > 50: not survived
    assert after.squadrons["german"].pilot("A").kills == 1
    assert s.vp["german"] == 2 + 1  # 3 for the shoot-down less the 2 counted
    assert s.points == {"german": 3}


def test_exhaustion_and_recovery() -> None:
    """§8.21: four or more Fatigue Points: a card's Fire Value added, 10 or more is
    Exhausted; §8.25: Pre-dawn, 8 or less recovers."""
    sys_, state = start([10, 40, 60, 80, MORNING_CLEAR, 100, 8], cup=["encounter"])
    state.squadrons["allied"].pilot("D").fatigue = 3
    state = sys_.apply(state, "allied", AssignAction(mission=1, pilots=("A", "D"), lead="A"))
    state = sys_.apply(state, "german", AssignAction(mission=1))
    d = state.squadrons["allied"].pilot("D")
    assert d.fatigue == 4 and d.exhausted  # card 8: Fire Value 6; 4 + 6 = 10
    assert d.effective_quality() == "inexperienced"  # §8.22


def test_ice_storm_and_fog() -> None:
    """L1934: an Ice Storm grounds the phase (a once-a-campaign mission stays
    drawable); §5.33: Fog makes every mission a Patrol."""
    tables = ENGINE.components.tables
    ice = next(n for n in range(1, 111) if tables.weather_for(n, 1).value == "ice_storm")
    fog = next(n for n in range(1, 111) if tables.weather_for(n, 1).value == "fog")
    _, state = start([80, 40, 60, 10, ice, fog], month="1918-01")
    assert [s.status for s in state.sorties[:2]] == ["cancelled", "cancelled"]
    assert state.once == []
    assert state.phase == "afternoon"
    # Ice Storm's next phase is Extreme Cold in the data (no draw): the fog card waits.
    assert state.weather == "extreme_cold"


def test_evening_repair_replacements_and_rest() -> None:
    """§10.13: six Repair Points; §10.31: one draw per loss, Allied aircraft -5 and -2
    a Glory Point; §8.13: two Fatigue Points back, four for the unassigned."""
    sys_ = system(missions_per_day=2)
    setup = EaglesCampaignSetup(
        campaign="test",
        month="1917-10",
        allied="spad-vii",
        german="albatros-dv",
        # two missions, the two phases' weather, the Evening's events, then the
        # Allied replacement draws
        draws=(10, 20, MORNING_CLEAR, MORNING_CLEAR, 30, 56, 55, 54, 60, 40),
        cup=("encounter", "encounter"),
    )
    state = sys_.new_campaign(setup, 3)
    sq = state.squadrons["allied"]
    sq.glory = 2
    sq.lost_pilots, sq.lost_planes = 1, 1
    sq.pilots.pop()
    sq.planes[-1].lost = True
    sq.planes[0].hits = {"wing": 1}
    for p in sq.pilots:
        p.fatigue = 5
    state = sys_.apply(state, "allied", AssignAction(mission=1))
    state = sys_.apply(state, "german", AssignAction(mission=1))
    state = sys_.apply(state, "allied", AssignAction(mission=2))
    state = sys_.apply(state, "german", AssignAction(mission=2))
    assert state.day == 2
    sq = state.squadrons["allied"]
    assert sq.plane(1).flyable()
    lines = {k: p for k, p in state.days[0]["evening"] if p.get("side") == "allied"}
    # Allied pilot draw 55 - 4 = 51 <= 60: a pilot; aircraft 54 - 5 - 4 = 45 <= 50: one.
    assert lines["new_pilot"]["total"] == 51
    assert lines["new_plane"]["total"] == 45
    assert state.squadrons["german"].event == "ground_support"
    assert all(s.type != "patrol" for s in state.sorties if s.day == 2)  # §13.5
    assert len(sq.active_pilots()) == 12 and len(sq.active_planes()) == 12
    assert sq.pilot("A").fatigue == 1  # 5 - 2 - 2: not assigned that day


def test_cannibalisation_example() -> None:
    """Campaign §10.12's example: a Wing hit moved to the aircraft with a Control hit."""
    sq = Squadron(
        side="allied",
        aircraft="spad-vii",
        pilots=[],
        planes=[Plane(id=1, hits={"wing": 1}), Plane(id=2, hits={"control": 1}), Plane(id=3)],
    )
    assert sq.cannibalise() == 1
    damaged = [p for p in sq.planes if p.damage]
    assert len(damaged) == 1 and damaged[0].hits == {"wing": 1, "control": 1}
    assert sq.repair(1) == 1


def play_out(sys_: EaglesCampaigns, state: Any, seed: int) -> tuple[Any, list[CampaignEntry]]:
    """Computer players for both sides, games settled by a synthetic outcome."""
    log: list[CampaignEntry] = []
    n = 0
    while not sys_.is_over(state):
        n += 1
        assert n < 500
        pending = sys_.pending(state)
        if pending:
            d = pending[0]
            action = sys_.computer_action(state, d.side, seed + n)
            log.append(CampaignEntry(EntryKind.DECISION, d.side, str(action)))
            state = sys_.apply(state, d.side, action)
            continue
        assert sys_.mission_ready(state)
        plan = sys_.mission_setup(state)
        rows = {
            side: [
                (
                    p.pilot,
                    Fate.DAMAGED if (n + i) % 5 == 0 else Fate.UNHARMED,
                    {"wing": 1} if (n + i) % 5 == 0 else {},
                )
                for i, p in enumerate(plan.setup.side(side).planes)
                if p.pilot
            ]
            for side in ("allied", "german")
        }
        if rows["german"] and n % 3 == 0:
            pid, _, _ = rows["german"][0]
            rows["german"][0] = (pid, Fate.SHOT_DOWN, {})
        outcome = engagement_outcome(
            state, rows["allied"], rows["german"], {"allied": n % 4, "german": n % 3}
        )
        log.append(CampaignEntry(EntryKind.OUTCOME, None, outcome_text(outcome)))
        state = sys_.absorb(state, outcome)
    return state, log


def test_whole_campaign_replays_exactly() -> None:
    """Five days to the victory check (§14.2); the log replays to the same state."""
    sys_ = system()
    setup = EaglesCampaignSetup(campaign="test", month="1918-07")
    state, log = play_out(sys_, sys_.new_campaign(setup, 11), 100)
    assert state.day == 5 and sys_.is_over(state)
    result = sys_.result(state)
    assert result is not None
    totals = sys_.totals(state)
    assert result.winner == (
        None if totals["allied"] == totals["german"] else max(totals, key=totals.get)
    )
    again = replay(sys_, setup, 11, log)
    assert sys_.dump_state(again) == sys_.dump_state(state)
    assert sys_.load_state(sys_.dump_state(state)) == state
    sheet = sys_.sheet(state, None)
    assert len(sheet.tables) == 4 and sheet.result is not None


def test_legal_actions_are_exactly_the_accepted_ones() -> None:
    """Every flight of up to seven pilots (in any order, with any lead) is accepted by
    ``apply`` exactly when ``legal_actions`` lists it (in its canonical order)."""
    import itertools
    import random

    sys_, state = start([10, 40, 60, 80, MORNING_CLEAR])
    sq = state.squadrons["allied"]
    sq.pilot("F").status = "wounded"
    legal = {str(a) for a in sys_.legal_actions(state, "allied")}
    ids = [p.id for p in sq.pilots]
    rng = random.Random(5)
    tried = 0
    for size in range(8):
        combos = list(itertools.combinations(ids, size))
        for combo in rng.sample(combos, min(len(combos), 60)):
            order = list(combo)
            rng.shuffle(order)
            for lead in (None, *[c for c in combo[:3]]):
                action = AssignAction(mission=1, pilots=tuple(order), lead=lead)
                canonical = str(sys_.normal(state, "allied", action))
                try:
                    sys_.apply(state, "allied", action)
                except RuleViolation:
                    assert canonical not in legal, canonical
                else:
                    assert canonical in legal, canonical
                tried += 1
    assert tried > 500


def test_campaign_log_codes() -> None:
    """Campaign §5.43's example (EITS-14): pilot D in aircraft 7 is written ``D7e``; the
    counter's letter names a cardboard piece, so the log here writes ``D7``."""
    sys_, state = start([10, 40, 60, 80, MORNING_CLEAR, 100, 100], cup=["encounter"])
    for plane in state.squadrons["allied"].planes[:6]:
        plane.hits = {"engine": 1}  # aircraft 1-6 wait for repairs (§10.16)
    state = sys_.apply(state, "allied", AssignAction(mission=1, pilots=("A", "D"), lead="A"))
    state = sys_.apply(state, "german", AssignAction(mission=1))
    s = state.sorties[0]
    assert s.flights["allied"] == [["A", 7], ["D", 8]]
    assert sys_.log_codes(s, "allied") == "A7 D8" and sys_.log_codes(s, "german") == "-"
    note = sys_.sheet(state, None).missions[0].note
    assert note is not None and "A7 D8" in note and "Clear" in note


def test_fifteen_fatigue_grounds_until_recovered() -> None:
    """§8.24: a pilot who ends a mission with 15 Fatigue Points may not fly again until
    he recovers from Exhaustion (§8.25: Fatigue plus a card's Fire Value 8 or less),
    however much he rests in between."""
    sys_, state = start([10, 40, 60, 80, MORNING_CLEAR, 100], cup=["encounter"])
    d = state.squadrons["allied"].pilot("D")
    d.fatigue, d.exhausted = 14, True
    state = sys_.apply(state, "allied", AssignAction(mission=1, pilots=("A", "D"), lead="A"))
    state = sys_.apply(state, "german", AssignAction(mission=1))
    d = state.squadrons["allied"].pilot("D")
    assert d.fatigue == 15 and d.grounded and not d.available()
    d.fatigue = 11  # rested, but not recovered
    assert d.grounded and not d.available()
    with pytest.raises(RuleViolation, match="15 Fatigue"):
        sys_.apply(state, "allied", AssignAction(mission=2, pilots=("A", "D"), lead="A"))


def test_an_engagement_not_flown_still_tires_its_pilots() -> None:
    """§8.12: "each time a pilot is assigned to a Mission, he gains one Fatigue
    Point", played or not (§5.45); he counts the mission too."""
    sys_, state = start([10, 40, 60, 80, MORNING_CLEAR], cup=["engagement"])
    state = sys_.apply(state, "allied", AssignAction(mission=1, pilots=("A", "L"), lead="A"))
    state = sys_.apply(state, "german", AssignAction(mission=1))
    allied = state.squadrons["allied"]
    assert state.sorties[0].points == {"allied": 4}
    assert allied.pilot("A").fatigue == 1 and allied.pilot("L").missions == 1


def test_mission_aircraft_alone_against_nobody_score_nothing() -> None:
    """§5.45: an Engagement neither side sends squadron aircraft to is not played and
    scores nothing, even with one side's Mission aircraft (Mission 4 here: the
    Germans may not assign)."""
    sys_, state = start([80, 10, 40, 60, MORNING_CLEAR], cup=["engagement"])
    state = sys_.apply(state, "allied", AssignAction(mission=1))
    s = state.sorties[0]
    assert s.status == "done" and s.points == {} and not sys_.mission_ready(state)


def test_a_safe_return_kill_advances_a_green_pilot() -> None:
    """§9.32: an aircraft lost on the Safe Return counts as shot down by the last
    pilot who damaged it; §9.11: a Green pilot's kill on his first mission advances
    him, that mission counting towards Experienced."""
    sys_, state = start([60, 10, 40, 80, MORNING_CLEAR, 100, 99], cup=["engagement"])
    green = next(p.id for p in state.squadrons["german"].pilots if p.quality == "green")
    state = sys_.apply(state, "allied", AssignAction(mission=1, pilots=("A",), lead="A"))
    state = sys_.apply(state, "german", AssignAction(mission=1, pilots=("A", green), lead="A"))
    outcome = engagement_outcome(
        state,
        [("A", Fate.DAMAGED, {"wing": 1, "structure": 1})],
        [("A", Fate.UNHARMED, {}), (green, Fate.UNHARMED, {})],
        {"allied": 0, "german": 2},
    )
    fates = list(outcome.fates)
    fates[0] = replace(fates[0], by="G1")  # the green pilot's aircraft
    after = sys_.absorb(state, replace(outcome, fates=tuple(fates)))
    pilot = after.squadrons["german"].pilot(green)
    assert pilot.kills == 1 and pilot.quality == "inexperienced" and pilot.missions == 1


def test_a_green_pilots_kill_on_his_second_mission() -> None:
    """§9.11: two missions make him Inexperienced; the carried mission is only for a
    kill on his first."""
    sys_, state = start([10, 40, 60, 80, MORNING_CLEAR])
    sq = state.squadrons["allied"]
    green = next(p for p in sq.pilots if p.quality == "green")
    green.missions = 1
    s = state.sorties[0]
    s.report.append(["kill", {"side": "allied", "pilot": green.id}])
    green.missions = 2
    sys_._advance(sq, green, s)
    assert green.quality == "inexperienced" and green.missions == 0


def test_cannibalisation_moves_each_kind_of_hit() -> None:
    """§10.12: each kind of hit moves on its own: three aircraft hit twice each (Wing
    and Engine, Wing and Control, Control and Engine) leave two damaged, not three."""
    sq = Squadron(
        side="allied",
        aircraft="spad-vii",
        pilots=[],
        planes=[
            Plane(id=1, hits={"wing": 1, "engine": 1}),
            Plane(id=2, hits={"wing": 1, "control": 1}),
            Plane(id=3, hits={"control": 1, "engine": 1}),
        ],
    )
    assert sq.cannibalise() == 1
    assert sum(1 for p in sq.planes if p.damage) == 2
    assert sum(p.damage for p in sq.planes) == 6


def test_an_exhausted_pilot_counts_one_quality_lower_for_the_campaign() -> None:
    """§8.22: an Exhausted Inexperienced pilot is treated as Green: he takes an
    Encounter's first damage draws (§7.24)."""
    sys_, state = start([10, 40, 60, 80, MORNING_CLEAR])
    sq = state.squadrons["allied"]
    tired = next(p for p in sq.pilots if p.quality == "inexperienced")
    tired.exhausted = True
    assert tired.effective_quality() == "green"
    order = sys_._damage_order(sq, [["A", 1], ["D", 2], [tired.id, 3]], 3)
    assert order[0] == tired.id


def test_a_crew_hit_on_a_two_seater_may_hit_the_gunner() -> None:
    """§10.87: with a gunner aboard, a first card says who is hit (Fire Value 4-6: the
    gunner); the gunner killed, the Bristol flies home (he is replaced, §10.33)."""
    sys_ = system()
    setup = EaglesCampaignSetup(
        campaign="test", month="1917-10", allied="bristol-fighter", german="albatros-dv"
    )
    state = sys_.new_campaign(setup, 1)
    gunner = next(c.number for c in DECK.cards if not c.jammed and (c.fire or 0) >= 5)
    state.forced = [gunner, gunner]  # who: the gunner; then killed
    hits: dict[str, int] = {}
    sys_._crew_hit(state, "bristol-fighter", hits)
    assert hits == {"gunner": 2}
    assert not sys_._destroyed("bristol-fighter", hits)
    pilot_card = next(c.number for c in DECK.cards if not c.jammed and (c.fire or 0) <= 3)
    state.forced = [pilot_card, gunner]
    hits = {}
    sys_._crew_hit(state, "bristol-fighter", hits)
    assert hits == {"pilot": 2}
