"""The Pearl Harbor Solitaire Campaign (§26.0, the AUTHORED sheet
``data/dif/campaign/pearl-harbor.yaml``): assignments, the defence draws, bombing,
engagements as Down in Flames games, VP and the victory table."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from engine.core.campaign import (
    CampaignEntry,
    EntryKind,
    MissionState,
    outcome_text,
    replay,
    replay_step,
)
from engine.core.contract import AircraftFate, Fate, Outcome
from engine.core.errors import MalformedAction, RuleViolation
from engine.core.present import Choice
from engine.dif.campaign_cards import BombFactors
from engine.dif.campaign_data import Defense, DefenseRow, DrawCard, shipped_book
from engine.dif.campaign_targets import BombingMode
from engine.dif.components import Ruleset, Side
from engine.dif.loader import load_aircraft, load_decks
from engine.dif.mission import MissionKind
from engine.dif.pearl_harbor import (
    ALLIED,
    JAPANESE,
    AssignAction,
    PearlHarbor,
    PearlHarborSetup,
    PearlState,
    pearl_harbor_system,
)
from engine.dif.setup import DifSetup

FIRST = "assign 1 kates-torpedo:1 kates-level:4 vals:5"
SECOND = "assign 2 kates-level:9 vals:3 vals-reserve:6"
QUIET_FIRST_WAVE = ("MAN",) * 14
"""The First Wave's 14 draws (2 + 2 torpedo, 2 + 2 level, 2 + 4 dive cards): no
defence effect (First Wave's MAN row), every Bombing card the first MAN's Hit."""


@pytest.fixture(scope="module")
def system() -> PearlHarbor:
    return pearl_harbor_system()


def start(system: PearlHarbor, *draws: str, seed: int = 1) -> PearlState:
    return system.new_campaign(PearlHarborSetup(draws=draws), seed)


def decide(system: PearlHarbor, state: PearlState, text: str) -> PearlState:
    return system.apply(state, JAPANESE, system.parse_action(text))


def told(system: PearlHarbor, before: PearlState, after: PearlState) -> list[str]:
    return [str(line) for line in system.happenings(before, after).lines]


def fate(
    ref: str, side: Side, aircraft: str, what: Fate, *, damaged: bool = False, hits_taken: int = 0
) -> AircraftFate:
    return AircraftFate(
        ref=ref,
        seat=ref[:-1],
        side=side.value,
        aircraft=aircraft,
        fate=what,
        damaged=damaged,
        hits_taken=hits_taken,
    )


def ended(*fates: AircraftFate, conceded: str | None = None) -> Outcome:
    return Outcome(over=True, winner=None, verdict="", fates=fates, conceded=conceded)


# --- the decision ------------------------------------------------------------------------------


def test_the_first_wave_waits_for_its_targets(system: PearlHarbor) -> None:
    state = start(system)
    (decision,) = system.pending(state)
    assert (decision.side, decision.kind, decision.secret, decision.mission) == (
        JAPANESE,
        "assign",
        False,
        1,
    )
    assert system.pending(state) and not system.mission_ready(state)
    assert system.legal_actions(state, ALLIED) == [] and system.menu(state, ALLIED) is None
    legal = system.legal_actions(state, JAPANESE)
    # torpedoes: Targets 1, 3 and 9; the others: any of the nine
    assert len(legal) == 3 * 9 * 9
    assert system.parse_action(FIRST) in legal
    for action in legal:
        assert system.parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("assign 1 kates-torpedo:4 kates-level:4 vals:5", "§21.52"),  # an airfield
        ("assign 1 kates-torpedo:2 kates-level:4 vals:5", "inboard"),  # sheltered
        ("assign 1 kates-torpedo:1 kates-level:4", "vals has none"),
        ("assign 1 kates-torpedo:1 kates-level:4 vals:5 vals:6", "twice"),
        ("assign 1 kates-torpedo:1 kates-level:4 vals:5 zeros:6", "not a bombing Element"),
        ("assign 1 kates-torpedo:1 kates-level:4 vals:12", "no Target 12"),
        ("assign 2 kates-torpedo:1 kates-level:4 vals:5", "wave 1"),
    ],
)
def test_assignments_the_sheet_refuses(system: PearlHarbor, text: str, words: str) -> None:
    state = start(system)
    before = system.dump_state(state)
    with pytest.raises(RuleViolation, match=words):
        decide(system, state, text)
    assert system.dump_state(state) == before


def test_the_american_side_decides_nothing_and_bad_notation_is_malformed(
    system: PearlHarbor,
) -> None:
    state = start(system)
    with pytest.raises(RuleViolation, match=r"§26\.0"):
        system.apply(state, ALLIED, system.parse_action(FIRST))
    with pytest.raises(MalformedAction):
        system.parse_action("assign kates:1")


def test_the_menu_reaches_every_assignment_in_nine_targets_a_level(system: PearlHarbor) -> None:
    state = start(system)
    menu = system.menu(state, JAPANESE)
    assert menu is not None
    leaves: list[str] = []

    def walk(choice: Choice) -> None:
        assert 0 < len(choice.children) <= 25
        for c in choice.children:
            assert len(c.label) <= 100
            if c.action is not None:
                leaves.append(c.action)
            else:
                walk(c)

    walk(menu)
    assert sorted(leaves) == sorted(str(a) for a in system.legal_actions(state, JAPANESE))
    assert len(menu.children) == 3  # the torpedoes' three Targets first


def test_the_computer_and_the_deadline_choose_legal_assignments(system: PearlHarbor) -> None:
    state = start(system)
    assert [s.id for s in system.sides(state)] == [JAPANESE, ALLIED]
    assert str(system.ask(system.pending(state)[0])).startswith("assign this wave's")
    legal = system.legal_actions(state, JAPANESE)
    for seed in range(5):
        assert system.computer_action(state, JAPANESE, seed) in legal
    chosen = system.default_action(state, JAPANESE)
    assert chosen in legal
    assert str(system.action_label(state, JAPANESE, system.parse_action(FIRST))).startswith(
        "kates-torpedo: Target 1, Battleship Row, outboard"
    )
    with pytest.raises(RuleViolation):
        system.computer_action(state, ALLIED, 1)
    second = decide(system, state, str(chosen))
    assert system.default_action(second, JAPANESE) in system.legal_actions(second, JAPANESE)


# --- the defence draws and the bombing ---------------------------------------------------------


def test_no_defence_and_torpedoes_score_twice_against_a_battleship(system: PearlHarbor) -> None:
    # L: MAN, W: BAR (the First Wave's "none"); torpedoes: OOS-3B4D (Vital), IMS-2BFT
    # (Direct): (4 + 2) x 2 = 12 Damage on the Battleship: Crippled (8 to 13).
    state = start(system, "MAN", "BAR", "OOS-3B4D", "IMS-2BFT")
    after = decide(system, state, FIRST)
    assert after.damage[1] == 12
    lines = told(system, state, after)
    assert "kates-torpedo Leader (B5N2 Kate) draws MAN: the defences miss it." in lines
    assert (
        "kates-torpedo Leader (B5N2 Kate) bombs: OOS-3B4D (Vital Hit); 8 Damage on Target 1, "
        "now 8: Crippled." in lines
    )
    assert after.scores[0] == {JAPANESE: 8, ALLIED: 0}
    assert all(not p.damaged for p in after.planes.values() if p.aircraft == "b5n2")


def test_a_hit_damages_and_its_rejected_attack_negates_the_best_card(system: PearlHarbor) -> None:
    # The First Wave's OOS row hits: OOS-1B2D (2 Damage, Rejected Attack) on the
    # Leader, IMS-3B3D (3 Damage: Damaged at 3) on the Wingman.
    state = start(system, "OOS-1B2D", "IMS-3B3D", "OOS-3B4D", "MAN")
    after = decide(system, state, FIRST)
    leader, wingman = after.planes["kates-torpedo.L"], after.planes["kates-torpedo.W"]
    assert (leader.hits, leader.damaged, wingman.hits, wingman.damaged) == (2, False, 3, True)
    lines = told(system, state, after)
    assert any("negates the aircraft's best Bombing card" in line for line in lines)
    assert (
        "kates-torpedo Leader (B5N2 Kate)'s best Bombing card, OOS-3B4D (Vital Hit), is "
        "negated." in lines
    )
    # only the Wingman's torpedo (MAN: Hit, 1 x 2) scores
    assert after.damage[1] == 2
    # a Damaged Light Bomber: 4 VP to the Americans (Land Campaign awards)
    assert system.totals(after)[ALLIED] == 4


def test_a_spoiled_aim_negates_the_best_card_in_the_second_wave(system: PearlHarbor) -> None:
    # The Second Wave's TIT row spoils: kates-level's Leader drops its one card for nothing.
    state = decide(system, start(system, *QUIET_FIRST_WAVE, "TIT", "MAN", "OOS-3B4D", "MAN"), FIRST)
    assert state.damage[9] == 0
    after = decide(system, state, SECOND)
    lines = told(system, state, after)
    assert any("flak spoils its aim" in line for line in lines)
    assert (
        "kates-level Leader (B5N2 Kate) bombs: no card; 0 Damage on Target 9, now 0: Untouched."
        in lines
    )
    assert after.damage[9] == 2  # the Wingman's MAN: Hit, 2 against a Destroyer


def test_a_damaged_aircraft_bombs_with_its_damaged_sides_factor() -> None:
    aircraft = load_aircraft()
    kate = aircraft["b5n2"]
    assert kate.bombing is not None
    weaker = kate.bombing.model_copy(update={"damaged": BombFactors(level=0)})
    aircraft["b5n2"] = kate.model_copy(update={"bombing": weaker})
    book = shipped_book()
    system = PearlHarbor(book, aircraft, load_decks()[Ruleset.ZERO], book.scoresheets.land)
    # kates-torpedo quiet; kates-level: the Leader Damaged (IMS-3B3D), the Wingman not
    state = start(system, "MAN", "MAN", "MAN", "MAN", "IMS-3B3D", "MAN", "MAN")
    after = decide(system, state, FIRST)
    lines = told(system, state, after)
    assert (
        "kates-level Leader (B5N2 Kate) bombs: no card; 0 Damage on Target 4, now 0: Operational."
        in lines
    )
    assert after.damage[4] == 1  # the Wingman's one card


def test_a_destroyed_aircraft_misses_the_second_wave() -> None:
    book = shipped_book()
    sheet = book.campaign("pearl-harbor")
    first, second = sheet.waves  # type: ignore[union-attr]
    deadly = {**first.defense, DrawCard.IMS_2B: DefenseRow(effect=Defense.HIT)}
    harsher = sheet.model_copy(
        update={"waves": (first.model_copy(update={"defense": deadly}), second)}
    )
    book = book.model_copy(update={"campaigns": {**book.campaigns, "pearl-harbor": harsher}})
    system = PearlHarbor(book, load_aircraft(), load_decks()[Ruleset.ZERO], book.scoresheets.land)
    # kates-torpedo quiet (2 + 2); kates-level: both Fuel Tank cards' rows now hit
    state = start(system, "MAN", "MAN", "MAN", "MAN", "IMS-2BFT", "IMS-2BFT", *("MAN",) * 6)
    after = decide(system, state, FIRST)
    assert after.planes["kates-level.L"].destroyed and after.planes["kates-level.W"].destroyed
    assert "Mission #2: kates-level attacks Target 4, Ford Island Naval Air Station." in told(
        system, state, after
    )
    assert system.totals(after)[ALLIED] == 16  # two Light Bombers destroyed, 8 each
    # the Second Wave: kates-level cannot fly, nothing to assign it
    assert [s.element for s in system._to_assign(after)] == ["vals", "vals-reserve"]
    with pytest.raises(RuleViolation, match="destroyed aircraft stay home"):
        decide(system, after, SECOND)
    done = decide(system, after, "assign 2 vals:3 vals-reserve:6")
    assert "Mission #4: no aircraft of kates-level is left to attack." in told(system, after, done)


# --- the American fighters ---------------------------------------------------------------------


def engaged(system: PearlHarbor) -> tuple[PearlState, PearlState]:
    """The Second Wave's first attack: kates-level's Leader draws ACE (fighters), the
    Wingman HAL (spoiled)."""
    state = decide(system, start(system, *QUIET_FIRST_WAVE, "ACE", "HAL", "MAN"), FIRST)
    return state, decide(system, state, SECOND)


def test_american_fighters_make_the_next_mission_a_dogfight_game(system: PearlHarbor) -> None:
    before, state = engaged(system)
    assert system.mission_ready(state) and not system.pending(state)
    stored = system.load_state(system.dump_state(state))
    assert system.dump_state(stored) == system.dump_state(state)
    assert system.mission_setup(stored) == system.mission_setup(state)
    upcoming = system.next_mission(state)
    assert upcoming is not None
    assert (upcoming.number, upcoming.system, upcoming.ruleset) == (4, "dif", "zero")
    plan = system.mission_setup(state)
    setup = plan.setup
    assert isinstance(setup, DifSetup) and setup.mission is not None
    assert (setup.ruleset, setup.year) == (Ruleset.ZERO, 1941)
    assert setup.mission.kind is MissionKind.DOGFIGHT and setup.mission.turns == 2
    assert setup.mission.attacker is Side.AXIS
    assert setup.mission.bombs == {"X1": BombingMode.LEVEL}
    assert [(e.seat, e.side, e.aircraft, e.wingman) for e in setup.elements] == [
        ("X1", Side.AXIS, "b5n2", True),
        ("X2", Side.AXIS, "a6m2", True),  # the wave's escort joins
        ("A1", Side.ALLIED, "p-40b", True),
    ]
    assert dict(plan.seat_sides) == {"X1": JAPANESE, "X2": JAPANESE, "A1": ALLIED}
    assert [(p.seat, p.side) for p in plan.seats] == [
        ("X1", "axis"),
        ("X2", "axis"),
        ("A1", "allied"),
    ]
    assert "P-40B Leader and Wingman attack kates-level" in plan.briefing[0]
    assert any(
        "the fight is a Down in Flames game of 2 turns" in x for x in told(system, before, state)
    )
    with pytest.raises(RuleViolation):
        system.apply(state, JAPANESE, AssignAction(wave=2, targets=()))


def test_the_engagement_fates_then_the_survivors_bomb(system: PearlHarbor) -> None:
    _, state = engaged(system)
    with pytest.raises(RuleViolation, match="not over"):
        system.absorb(state, Outcome(over=False, winner=None, verdict=""))
    outcome = ended(
        fate("X1L", Side.AXIS, "b5n2", Fate.SHOT_DOWN, hits_taken=5),
        fate("X1W", Side.AXIS, "b5n2", Fate.DAMAGED, damaged=True, hits_taken=3),
        fate("X2L", Side.AXIS, "a6m2", Fate.LEFT),
        fate("X2W", Side.AXIS, "a6m2", Fate.UNHARMED),
        fate("A1L", Side.ALLIED, "p-40b", Fate.SHOT_DOWN),
    )
    after = system.absorb(state, outcome)
    lines = told(system, state, after)
    assert after.planes["kates-level.L"].destroyed
    assert after.planes["kates-level.W"].damaged and after.planes["kates-level.W"].hits == 3
    assert "An American P-40B is shot down." in lines
    # the Wingman's aim was spoiled (HAL): its one card (MAN) is negated
    assert "kates-level Wingman (B5N2 Kate)'s best Bombing card, MAN (Hit), is negated." in lines
    assert after.damage[9] == 0
    # 8 (a Kate destroyed) + 4 (a Kate damaged)
    assert system.sheet(after, None).missions[3].vp == {JAPANESE: 0, ALLIED: 12}
    assert not system.mission_ready(after)


def test_an_aircraft_that_left_the_fight_drops_no_bombs_and_a_resigned_fight_none(
    system: PearlHarbor,
) -> None:
    _, state = engaged(system)
    left = system.absorb(state, ended(fate("X1L", Side.AXIS, "b5n2", Fate.LEFT)))
    assert "kates-level Leader (B5N2 Kate) left the fight: it drops no bombs." in told(
        system, state, left
    )
    resigned = system.absorb(state, ended(conceded="axis"))
    assert "kates-level broke off the attack: it drops no bombs." in told(system, state, resigned)
    assert resigned.damage[9] == 0


def test_an_aircraft_that_jettisoned_in_the_fight_drops_nothing(system: PearlHarbor) -> None:
    _, state = engaged(system)
    jettisoned = replace(fate("X1L", Side.AXIS, "b5n2", Fate.UNHARMED), record={"loaded": False})
    kept = replace(fate("X1W", Side.AXIS, "b5n2", Fate.UNHARMED), record={"loaded": True})
    after = system.absorb(state, ended(jettisoned, kept))
    words = "\n".join(told(system, state, after))
    assert "kates-level Leader (B5N2 Kate) jettisoned its bombs in the fight (§18.22)" in words
    assert "Wingman (B5N2 Kate) jettisoned" not in words


def test_damage_carries_into_the_engagement_and_an_abort_flies_it_again(
    system: PearlHarbor,
) -> None:
    # The First Wave: kates-level's Leader hit by IMS-3B3D (Damaged, 3 hits)
    draws = ("MAN",) * 4 + ("IMS-3B3D",) + ("MAN",) * 9 + ("ACE", "MAN")
    state = decide(system, start(system, *draws), FIRST)
    assert state.planes["kates-level.L"].damaged
    state = decide(system, state, SECOND)
    setup = system.mission_setup(state).setup
    assert isinstance(setup, DifSetup) and setup.hits == {"X1L": 3}
    first = system.next_mission(state)
    again = system.abort_mission(state)
    second = system.next_mission(again)
    assert first is not None and second is not None
    assert (second.number, second.attempt) == (4, 2) and second.seed != first.seed
    assert system.mission_setup(again).setup == setup


# --- VP, the victory table, the whole campaign ------------------------------------------------


@pytest.mark.parametrize(
    ("japanese", "verdict", "winner"),
    [
        (4, "American Victory", ALLIED),
        (5, "Japanese Marginal Victory", None),
        (11, "Japanese Marginal Victory", None),
        (12, "Japanese Victory", JAPANESE),
        (20, "Japanese Decisive Victory", JAPANESE),
    ],
)
def test_victory_rows(system: PearlHarbor, japanese: int, verdict: str, winner: str | None) -> None:
    state = start(system)
    assert system.result(state) is None
    # Battleship 3/8/15 VP at 4/8/14 Damage, Airfield 2/4/8 at 3/6/10, Destroyer 5 at 6
    damage = {
        4: {4: 6},
        5: {1: 4, 4: 3},
        11: {1: 4, 4: 10},
        12: {1: 8, 4: 6},
        20: {1: 14, 9: 6},
    }[japanese]
    state.damage.update(damage)
    state.wave = 2
    assert system.totals(state) == {JAPANESE: japanese, ALLIED: 0}
    result = system.result(state)
    assert result is not None and result.winner == winner
    assert str(result.verdict).startswith(verdict)


def play(system: PearlHarbor, seed: int) -> tuple[PearlState, list[CampaignEntry]]:
    """The whole campaign: computer decisions, each engagement ending with the
    attacked Leader damaged and the rest unharmed."""
    state = system.new_campaign(PearlHarborSetup(), seed)
    log: list[CampaignEntry] = []
    while not system.is_over(state):
        if system.pending(state):
            action = system.computer_action(state, JAPANESE, seed)
            state = system.apply(state, JAPANESE, action)
            log.append(CampaignEntry(EntryKind.DECISION, JAPANESE, str(action)))
            continue
        plan = system.mission_setup(state)
        outcome = ended(
            *(
                fate(
                    f"{p.seat}L",
                    Side(p.side),
                    p.pick.aircraft,  # type: ignore[attr-defined]
                    Fate.DAMAGED if p.seat == "X1" else Fate.UNHARMED,
                    damaged=p.seat == "X1",
                    hits_taken=3 if p.seat == "X1" else 0,
                )
                for p in plan.seats
            )
        )
        state = system.absorb(state, outcome)
        log.append(CampaignEntry(EntryKind.OUTCOME, None, outcome_text(outcome)))
    return state, log


@pytest.mark.parametrize("seed", range(12))
def test_a_whole_campaign_replays_and_ends_on_the_victory_table(
    system: PearlHarbor, seed: int
) -> None:
    state, log = play(system, seed)
    assert (
        system.is_over(state) and system.pending(state) == [] and system.next_mission(state) is None
    )
    again = replay(system, PearlHarborSetup(), seed, log)
    assert system.dump_state(again) == system.dump_state(state)
    assert system.dump_state(system.load_state(system.dump_state(state))) == system.dump_state(
        state
    )
    assert system.dump_state(play(system, seed)[0]) == system.dump_state(state)
    sheet = system.sheet(state, JAPANESE)
    assert [m.state for m in sheet.missions] == [MissionState.FLOWN] * 6
    totals = system.totals(state)
    assert dict(sheet.totals) == totals
    for side in (JAPANESE, ALLIED):
        assert sum(m.vp[side] for m in sheet.missions) == totals[side]
    targets, waves, planes = sheet.tables
    assert len(targets.rows) == 9 and len(waves.rows) == 8 and len(planes.rows) == 9
    assert all(row[4] for row in waves.rows if row[3] != "escort")  # every Target shown
    result = system.result(state)
    assert result is not None and sheet.result == result
    assert result.totals == totals


def test_seeds_differ_and_each_replays_the_same(system: PearlHarbor) -> None:
    dumps = {str(system.dump_state(play(system, seed)[0])["damage"]) for seed in range(6)}
    assert len(dumps) > 1


def test_nothing_told_depends_on_the_cards_not_yet_drawn(system: PearlHarbor) -> None:
    """The deck's order is the campaign's only secret: the sheet, the happenings and
    the log's public texts read the same whatever order the undrawn cards are in."""
    _, log = play(system, 3)
    states = [system.new_campaign(PearlHarborSetup(), 3)]
    for entry in log:
        states.append(replay_step(system, states[-1], entry))
    for before, after in itertools.pairwise(states):
        shuffled = after.model_copy(deep=True)
        shuffled.deck.reverse()
        assert system.happenings(before, after) == system.happenings(before, shuffled)
        assert system.sheet(after, None) == system.sheet(shuffled, None)
        assert system.sheet(after, JAPANESE) == system.sheet(after, None)
        for entry in log:
            assert system.public_text(after, entry) == entry.text
