"""The shipped Locked-On data: it loads, matches the rulebook, is self-consistent, and
bad content packs fail with a DataError naming the file and the field.

"L24" is a line of the Locked-On rulebook transcription; data/lockedon/SOURCES.md says
which values are printed and which authored.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from data import DATA_DIR
from engine.lockedon.components import (
    ANY,
    MISSILE_PAIR_VP,
    PSEUDO_TITLES,
    Aircraft,
    Altitude,
    CardEffect,
    Deck,
    Missile,
    MissileLoad,
    MissileType,
    Position,
    Range,
    Rating,
    Site,
    SkillKind,
    load_cost,
    pair_cost,
)
from engine.lockedon.loader import (
    AIRCRAFT_FILE,
    DECK_FILE,
    MISSILES_FILE,
    SITES_FILE,
    SKILLS_FILE,
    Components,
    DataError,
    load_aircraft,
    load_components,
    load_deck,
    load_missiles,
    load_sites,
    load_skills,
)

LO_DIR = DATA_DIR / "lockedon"
LOADERS: dict[str, Any] = {
    DECK_FILE: load_deck,
    AIRCRAFT_FILE: load_aircraft,
    MISSILES_FILE: load_missiles,
    SKILLS_FILE: load_skills,
    SITES_FILE: load_sites,
}


@pytest.fixture(scope="module")
def lo() -> Components:
    return load_components()


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck()


@pytest.fixture(scope="module")
def planes() -> dict[str, Aircraft]:
    return load_aircraft()


@pytest.fixture(scope="module")
def missiles() -> dict[str, Missile]:
    return load_missiles()


# --- every shipped file loads ------------------------------------------------------------


def test_every_shipped_file_has_a_loader_and_loads() -> None:
    shipped = {p.name for p in LO_DIR.glob("*.yaml")}
    assert shipped == set(LOADERS), "a new data file needs a loader and a test"
    for name, loader in LOADERS.items():
        assert loader(), name
        assert loader(LO_DIR / name) == loader(), f"{name}: file path and default agree"
        assert loader(LO_DIR) == loader(), f"{name}: directory and default agree"
    assert (LO_DIR / "SOURCES.md").is_file()


def test_components_bundle_is_cached_and_read_only(lo: Components) -> None:
    assert load_components() is lo
    assert load_deck() is lo.deck
    with pytest.raises(TypeError):
        lo.aircraft["x"] = lo.aircraft["f-15a"]  # type: ignore[index]
    mine = load_aircraft()
    mine.pop("f-15a")
    assert "f-15a" in load_aircraft() and "f-15a" in lo.aircraft
    assert load_components(LO_DIR) == lo, "the shipped files as a pack give the same bundle"


def test_loader_imports_no_bot_libraries() -> None:
    code = (
        "import sys, engine.lockedon.loader as l; l.load_components(); "
        "print(sorted(m for m in ('discord', 'asyncio', 'aiosqlite', 'PIL') if m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[3]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


# --- enums -------------------------------------------------------------------------------


def test_altitude_and_range_codes() -> None:
    assert [a.code for a in Altitude] == ["L", "M", "H"]  # L76, L204-216
    assert [r.code for r in Range] == ["G", "HS", "RH", "AH"]  # L79, L50
    assert Altitude.from_code("m") is Altitude.MEDIUM
    assert Range.from_code("hs") is Range.HEAT
    assert Range.from_code("Radar Homing") is Range.RADAR
    with pytest.raises(ValueError, match="unknown range"):
        Range.from_code("XX")


def test_missile_types_launch_at_their_range() -> None:
    # L187-188: each type at its own range; Active Homing also at Radar Homing.
    assert {r for r in Range if MissileType.HEAT.launches_at(r)} == {Range.HEAT}
    assert {r for r in Range if MissileType.RADAR.launches_at(r)} == {Range.RADAR}
    assert {r for r in Range if MissileType.ACTIVE.launches_at(r)} == {Range.RADAR, Range.ACTIVE}
    assert MissileType.ACTIVE.range is Range.ACTIVE


def test_positions_are_symmetric() -> None:
    assert [int(p) for p in Position] == [-2, -1, 0, 1, 2]
    assert Position(-Position.ADVANTAGED) is Position.DISADVANTAGED
    assert Position(-Position.TAILING) is Position.TAILED


# --- the deck ----------------------------------------------------------------------------


def test_deck_size_and_codes(deck: Deck) -> None:
    assert deck.size == 72 == len(deck.card_codes())
    assert len(deck.by_code) == len(deck.types)
    assert Counter(deck.card_codes()) == {t.code: t.count for t in deck.types}


def test_printed_maneuvering_values(deck: Deck) -> None:
    c = deck.by_code
    assert c["ACE"].positioning == 4  # L140, L152
    assert c["GUN"].positioning == 1  # L152
    assert c["RED"].range == 3  # L159
    assert c["BR"].range == 1  # L159


def test_printed_card_rules(deck: Deck) -> None:
    c = deck.by_code
    assert c["ACE"].react_to == {ANY} and not c["ACE"].missile_usable  # L168
    assert c["BR"].effect is CardEffect.BARREL_ROLL  # L169
    assert c["SCI"].effect is CardEffect.SCISSORS  # L174
    assert c["VR"].effect is CardEffect.VERTICAL_ROLL  # L179
    assert c["SPS"].effect is CardEffect.SPLIT_S and c["SPS"].opponent_turn_only  # L175
    assert c["TG"].effect is CardEffect.TONE_GUNS and c["TG"].missile_cards == -1  # L178
    # Tactic cards: Break and Yo-Yo, +1 card to the next missile attack (L163-164, L170, L181)
    assert {t.code for t in deck.types if t.tactic} == {"BRK", "YOYO"}
    for code in ("BRK", "YOYO"):
        assert c[code].effect is CardEffect.MISSILE_BONUS
    # Subtitled variants (L166, L331): Guns, Guns (Good Angle), Guns (Great Angle); Tone (Strong)
    assert {t.label for t in deck.types if t.name == "Guns"} == {
        "Guns",
        "Guns (Good Angle)",
        "Guns (Great Angle)",
    }
    assert "Tone (Strong)" in {t.label for t in deck.types}
    assert c["TONES"].missile_cards == 1 and c["TONE"].missile_cards == 0
    # Guns may cost discards (L172), the Gun Rating reduces them (L19): authored 2/1/0.
    assert [c[k].guns_discard for k in ("GUN", "GUNG", "GUNGR", "TG")] == [2, 1, 0, 2]


def reacts(deck: Deck, card_name: str, title: str) -> bool:
    """Some card named ``card_name`` may be played in reaction to ``title``."""
    return any(t.can_react_to(title) for t in deck.types if t.name == card_name)


@pytest.mark.parametrize(
    ("answer", "title", "possible", "where"),
    [
        ("Barrel Roll", "Guns", True, "L134"),
        ("Scissors", "Guns", False, "L134"),
        ("Yo-Yo", "Barrel Roll", True, "L139, L265"),
        ("Barrel Roll", "Maneuvering", True, "L140"),
        ("Scissors", "Barrel Roll", True, "L140"),
        ("Scissors", "Scissors", True, "L140"),
        ("Barrel Roll", "Scissors", True, "L140"),
        ("Ace Pilot", "Ace Pilot", True, "L168"),
        ("Ace Pilot", "Maneuvering", True, "L168"),
        ("Tight Turn", "Maneuvering", True, "L154, L161"),
        ("Redline", "Guns", True, "L173"),
        ("Redline", "Tone", True, "L173"),
        ("Redline", "Missile", True, "L173"),
        ("Redline", "Redline", True, "L173"),
        ("Break", "Tone", True, "L246"),
        ("Scissors", "Break", True, "L246"),
        ("Break", "Missile", True, "L265"),
        ("Break", "Break", True, "L265"),
        ("Barrel Roll", "Break", True, "L265"),
    ],
)
def test_react_to_evidence(deck: Deck, answer: str, title: str, possible: bool, where: str) -> None:
    assert reacts(deck, answer, title) is possible, where


def test_react_to_names_are_known_and_every_attack_can_be_answered(deck: Deck) -> None:
    known = deck.names | PSEUDO_TITLES
    for t in deck.types:
        assert t.react_to <= known, t.code
    # Every card name, Missile, Countermeasures, Maneuvering and Altitude can be answered
    # by some card other than Ace Pilot.
    # (a Tone / Guns is answered as "Tone" or "Guns", a Vertical Roll action as "Altitude")
    for title in (deck.names | PSEUDO_TITLES) - {ANY, "Ace Pilot", "Vertical Roll", "Tone / Guns"}:
        answers = [t.code for t in deck.types if title in t.react_to]
        assert answers, f"nothing but Ace Pilot answers {title}"
    # Countermeasures counters react to Missile and Tone (L182); a Missile answers one
    # with a card from its mini-hand (L263), so some missile-usable card must list them.
    assert any(t.missile_usable and "Countermeasures" in t.react_to for t in deck.types)


def test_tone_guns_counts_as_both() -> None:
    tg = load_deck().by_code["TG"]
    assert {"Tone", "Guns"} <= tg.titles
    assert tg.is_tone and tg.is_guns


# --- aircraft: printed values ------------------------------------------------------------


RULEBOOK_AIRCRAFT = {
    # the rulebook's name -> our card
    "F-15": "f-15a",  # L24, L51
    "Kfir": "kfir-c2",  # L71, L107
    "Sea Harrier": "sea-harrier-frs1",  # L69
    "Dagger-A": "dagger-a",  # L69
    "A-7D Corsair II": "a-7d",  # L323
    "Mirage IIICJ": "mirage-iiicj",  # L300
    "MiG-17": "mig-17f",  # L309
    "F-14": "f-14a",  # L50
    "F-4": "f-4e",  # L52
    "F-8": "f-8e",  # L53
    "A-4": "a-4e",  # L50
    "MiG-21": "mig-21pf",  # L50
    "Gnat": "gnat-f1",  # L50
    "MiG-25": "mig-25pd",  # L50
    "Harrier": "harrier-gr3",  # L203
}


def test_every_aircraft_the_rulebook_names_exists(planes: dict[str, Aircraft]) -> None:
    for book_name, plane_id in RULEBOOK_AIRCRAFT.items():
        assert plane_id in planes, book_name
    assert planes["mirage-iiicj"].nation == "Israel"  # Yom Kippur Mission #1, L300
    assert planes["mig-17f"].nation == "Egypt"  # L309
    assert planes["dagger-a"].nation == "Argentina"  # "an Argentinian Dagger-A", L69
    assert planes["sea-harrier-frs1"].nation == "United Kingdom"  # L69
    assert planes["a-7d"].nation == "United States"  # "a US A-7D Corsair II", L323


def test_f15_victory_points_l24(planes: dict[str, Aircraft]) -> None:
    f15 = planes["f-15a"]
    assert (f15.vp, f15.vp_missiles, f15.modifier) == (62, 92, 14)
    assert f15.value(with_missiles=False, enemy_missiles=False) == 48  # LO-01
    assert f15.value(with_missiles=True, enemy_missiles=False) == 78
    assert {"vp", "vp_missiles", "modifier"} <= f15.printed


def test_kfir_l107_and_the_45_point_battle_l71(planes: dict[str, Aircraft]) -> None:
    kfir = planes["kfir-c2"]
    assert (kfir.performance, kfir.thrust_pre, kfir.ab_pre) == (7, 2, 3)
    assert {"performance", "thrust_pre", "ab_pre"} <= kfir.printed
    # "a 45-point battle, taking place during or after 1970": the Kfir fits, with or
    # without its missiles.
    assert kfir.year >= 1970
    assert kfir.vp <= 45 and kfir.vp_missiles is not None and kfir.vp_missiles <= 45


def test_kfir_draw_is_capped_by_performance_l107(planes: dict[str, Aircraft]) -> None:
    kfir = planes["kfir-c2"]
    held = 6
    for afterburner in (False, True):
        draw = kfir.draw(post_turn=False, afterburner=afterburner)
        assert min(draw, kfir.performance - held) == 1  # LO-03


def test_a7d_l323(planes: dict[str, Aircraft]) -> None:
    assert planes["a-7d"].vp == 26 and "vp" in planes["a-7d"].printed


def test_introductory_battle_performance_l69_l88(planes: dict[str, Aircraft]) -> None:
    # "each player begins with 6 Action cards" and the first hand is Performance (L71).
    for plane_id in ("sea-harrier-frs1", "dagger-a"):
        assert planes[plane_id].performance == 6, plane_id
        assert "performance" in planes[plane_id].from_example
    # "The Sea Harrier has an advantage in the battle" (L69): it costs more, as flown.
    harrier, dagger = planes["sea-harrier-frs1"], planes["dagger-a"]
    assert harrier.value(with_missiles=True) > dagger.value(with_missiles=True)


def test_only_the_rulebook_values_are_marked_printed(planes: dict[str, Aircraft]) -> None:
    marked = {p.id: p.printed for p in planes.values() if p.printed}
    assert marked == {
        "f-15a": {"vp", "vp_missiles", "modifier"},
        "kfir-c2": {"performance", "thrust_pre", "ab_pre"},
        "a-7d": {"vp"},
    }
    examples = {p.id: p.from_example for p in planes.values() if p.from_example}
    assert examples == {"sea-harrier-frs1": {"performance"}, "dagger-a": {"performance"}}


# --- aircraft: coverage ------------------------------------------------------------------


def test_coverage_of_eras_and_air_forces(planes: dict[str, Aircraft]) -> None:
    assert len(planes) >= 40
    assert len({p.air_force for p in planes.values()}) >= 8
    assert len({p.nation for p in planes.values()}) >= 8
    years = [p.year for p in planes.values()]
    assert 1950 <= min(years) < 1960 and 1990 <= max(years) < 2000
    decades = {y // 10 * 10 for y in years}
    assert decades == {1950, 1960, 1970, 1980, 1990}


def test_every_standard_load_missile_exists(lo: Components) -> None:
    for plane in lo.aircraft.values():
        for load in plane.missiles:
            assert load.missile in lo.missiles, (plane.id, load.missile)
            # bought in pairs: 1 or 2 pairs of each type (L379)
            assert load.count in (2, 4), (plane.id, load.missile)


def test_every_rating_is_on_every_card(planes: dict[str, Aircraft]) -> None:
    for p in planes.values():
        assert p.has_afterburners == (p.ab_post is not None), p.id
        if p.missiles:
            assert p.vp_missiles is not None and p.vp_missiles > p.vp, p.id
        else:
            assert p.vp_missiles is None, p.id


# --- aircraft: consistency ---------------------------------------------------------------


def vp_formula(p: Aircraft) -> int:
    """The authoring formula of SOURCES.md section 2.2."""
    ab = 0
    if p.ab_pre is not None and p.ab_post is not None:
        ab = (p.ab_pre - p.thrust_pre) + (p.ab_post - p.thrust_post)
    gun = 0 if p.gun is None else 2 + 2 * p.gun
    return (
        2 * p.performance
        + 3 * p.speed
        + 4 * (p.thrust_pre + p.thrust_post)
        + ab
        + gun
        + 5 * (p.ew or 0)
        + 2 * p.countermeasures
        - 5
    )


def test_vp_follow_the_authoring_formula(lo: Components) -> None:
    # The formula reproduces the printed F-15 (62/92/14) and A-7D (26) exactly, so it
    # holds for every card: consistency by construction.
    for p in lo.aircraft.values():
        assert p.vp == vp_formula(p), p.id
        assert p.modifier == 5 * (p.ew or 0) + 2 * p.countermeasures, p.id
        if p.missiles:
            assert p.vp_missiles == p.vp + load_cost(p.missiles, lo.missiles), p.id


def rating_vector(p: Aircraft) -> tuple[int, ...]:
    """Every rating, higher is better; "-" (no gun, no A/B, no EW) is the worst."""
    return (
        p.speed,
        p.performance,
        p.thrust_pre,
        p.thrust_post,
        -1 if p.ab_pre is None else p.ab_pre,
        -1 if p.ab_post is None else p.ab_post,
        -1 if p.gun is None else p.gun,
        -1 if p.ew is None else p.ew,
        p.countermeasures,
    )


def missile_strength(p: Aircraft, missiles: dict[str, Missile]) -> int:
    """Sum of the missile cards of the standard load ("-" = 0), per missile carried."""
    total = 0
    for load in p.missiles:
        m = missiles[load.missile]
        total += load.count * sum(c or 0 for c in (m.neutral, m.advantaged, m.tailing))
    return total


def dominated(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """``a`` is worse than or equal to ``b`` on every rating."""
    return all(x <= y for x, y in zip(a, b, strict=True))


def test_no_aircraft_is_dominated_by_a_cheaper_or_equal_one(
    planes: dict[str, Aircraft], missiles: dict[str, Missile]
) -> None:
    problems = []
    for a, b in itertools.permutations(planes.values(), 2):
        if a.vp >= b.vp and dominated(rating_vector(a), rating_vector(b)):
            problems.append(f"vp: {a.id} ({a.vp}) is no better than {b.id} ({b.vp})")
        va, vb = a.value(with_missiles=True), b.value(with_missiles=True)
        full_a = (*rating_vector(a), missile_strength(a, missiles))
        full_b = (*rating_vector(b), missile_strength(b, missiles))
        if va >= vb and dominated(full_a, full_b):
            problems.append(f"vp_missiles: {a.id} ({va}) is no better than {b.id} ({vb})")
    assert problems == []


def test_later_versions_are_not_worse(planes: dict[str, Aircraft]) -> None:
    lines = [
        ["f-15a", "f-15c"],
        ["f-16a", "f-16c"],
        ["f-14a", "f-14d"],
        ["kfir-c2", "kfir-c7"],
        ["mig-21pf", "mig-21mf", "mig-21bis"],
        ["mig-29", "mig-29s"],
        ["f-4b", "f-4j"],
        ["mirage-iiicj", "kfir-c2"],
    ]
    for line in lines:
        for older, newer in itertools.pairwise(line):
            o, n = planes[older], planes[newer]
            assert o.year <= n.year and o.vp <= n.vp, (older, newer)


# --- missiles ----------------------------------------------------------------------------


def test_printed_missiles_l241_l244_l252(missiles: dict[str, Missile]) -> None:
    aim7 = missiles["aim-7e-2"]
    assert aim7.type is MissileType.RADAR
    assert aim7.neutral == 2  # L252
    assert aim7.advantaged is None  # "Neutral or Tailing", L241
    assert aim7.tailing is not None
    assert aim7.can_launch(Position.TAILING, Range.RADAR)
    assert not aim7.can_launch(Position.ADVANTAGED, Range.RADAR)
    assert not aim7.can_launch(Position.NEUTRAL, Range.HEAT)
    aim9 = missiles["aim-9e"]
    assert aim9.type is MissileType.HEAT and aim9.tailing  # L244
    assert aim9.can_launch(Position.TAILING, Range.HEAT)
    assert aim9.cards(Position.DISADVANTAGED) is None


def test_missile_values_follow_the_authoring_formula(missiles: dict[str, Missile]) -> None:
    for m in missiles.values():
        cards = sum(c or 0 for c in (m.neutral, m.advantaged, m.tailing))
        assert m.value == 2 + cards + (m.type is MissileType.ACTIVE), m.id
        assert m.value in MISSILE_PAIR_VP, m.id


def test_missile_families(missiles: dict[str, Missile]) -> None:
    want = {
        **dict.fromkeys(
            [f"aim-9{v}" for v in "bdeghjlmp"] + ["k-13", "r-13m", "r-60", "r-73"], "heat"
        ),
        **dict.fromkeys(["r-23t", "r-24t", "r-27t", "r-40t", "shafrir-2", "python-3"], "heat"),
        **dict.fromkeys(["python-4", "firestreak", "red-top", "magic-1", "magic-2"], "heat"),
        **dict.fromkeys(["aim-7d", "aim-7e", "aim-7e-2", "aim-7f", "aim-7m"], "radar"),
        **dict.fromkeys(["r-23r", "r-24r", "r-27r", "r-40r", "r530", "super-530f"], "radar"),
        **dict.fromkeys(["skyflash"], "radar"),
        **dict.fromkeys(["aim-54a", "aim-54c", "aim-120a", "r-77"], "active"),
    }
    for mid, kind in want.items():
        assert missiles[mid].type.value == kind, mid
    assert {m.id for m in missiles.values() if m.type is MissileType.ACTIVE} == {
        "aim-54a",
        "aim-54c",
        "aim-120a",
        "r-77",
    }


def test_missile_pair_vp_table_l380_l385() -> None:
    assert pair_cost(6, 1) == 11 and pair_cost(6, 2) == 16  # L385
    assert [MISSILE_PAIR_VP[v][0] for v in range(4, 12)] == [7, 9, 11, 13, 14, 16, 18, 20]
    assert [MISSILE_PAIR_VP[v][1] for v in range(4, 12)] == [10, 12, 16, 18, 19, 22, 24, 28]
    with pytest.raises(ValueError):
        pair_cost(3, 1)
    with pytest.raises(ValueError):
        pair_cost(6, 3)
    loads = (MissileLoad(missile="aim-7f", count=4), MissileLoad(missile="aim-9j", count=4))
    assert load_cost(loads, load_missiles()) == 92 - 62  # the F-15's standard load, L24


# --- skills ------------------------------------------------------------------------------

SKILL_COSTS = {
    # List of Skills, L328-373
    -10: ["Newbie", "Nugget"],
    -5: ["Green", "Plumber", "Drift Factor"],
    1: ["Guided Intercept 2", "Edge", "Gun Fighter"],
    2: [
        "Guided Intercept 3",
        "Locked",
        "90° Angle",
        "Alert",
        "Cocky",
        "Eagle Eyes",
        "Fighter Pilot",
        "Focused",
        "Grit",
        "Lucky",
        "Relief",
        "Jink",
    ],
    5: [
        "Skilled",
        "Up the Sleeve",
        "0° Angle",
        "Agile",
        "Brave",
        "Diligent",
        "Quick Hands",
        "Test Pilot",
        "Timely",
        "Better Envelope",
        "NFOD",
    ],
    10: ["Veteran", "In my Sights!", "Tiger", "Bat-Turn"],
    15: ["Ace", "Edge of Envelope", "Aircraft Expertise"],
}


def test_all_38_skills_with_their_listed_costs() -> None:
    skills = load_skills()
    assert len(skills) == 38
    listed = {name: cost for cost, names in SKILL_COSTS.items() for name in names}
    assert {s.name: s.cost for s in skills.values()} == listed
    assert [s.name for s in skills.values()] == [n for ns in SKILL_COSTS.values() for n in ns]
    assert all(-10 <= s.cost <= 15 for s in skills.values())  # L321


def test_skill_cost_examples_l322_l323() -> None:
    by_name = {s.name: s for s in load_skills().values()}
    assert by_name["Guided Intercept 2"].cost == 1  # L322
    assert by_name["Edge of Envelope"].cost == 15  # L322
    assert by_name["Eagle Eyes"].cost == 2  # L323
    # C-L1: the list prices Nugget at -10 (L329-331); L323's example uses -5
    # (26 - 5 + 2 = 23). The list wins, so the A-7D with both skills is worth 18.
    assert by_name["Nugget"].cost == -10
    assert load_aircraft()["a-7d"].vp + by_name["Nugget"].cost + by_name["Eagle Eyes"].cost == 18


def test_skill_texts_are_verbatim() -> None:
    skills = load_skills()
    assert skills["green"].text == "Reduce 1 Aircraft Rating by 1."  # L333
    assert skills["nugget"].text == (  # L331
        "Discard all Vertical Roll, Tone (Strong), and Ace Pilot Action cards when drawn. "
        "Do not Re-Draw."
    )
    assert skills["fighter-pilot"].text == (  # L347
        'Increase your Gun Rating by 1. (Cannot be used if plane has Gun rating "-".)'
    )
    assert skills["in-my-sights"].text == "Discard 0 cards when performing a Gun Attack."
    for s in skills.values():
        assert s.text == s.text.strip() and "  " not in s.text, s.id


def test_skill_mechanisms(lo: Components) -> None:
    s = lo.skills
    ratings = {k: v.ratings for k, v in s.items() if v.kind is SkillKind.RATINGS}
    assert {k: (r.max_ratings, r.total) for k, r in ratings.items() if r} == {
        "newbie": (2, -2),
        "green": (1, -1),
        "skilled": (1, 1),
        "veteran": (2, 2),
        "ace": (3, 3),
    }
    assert s["grit"].deltas == {Rating.PERFORMANCE: -1, Rating.THRUST: 1, Rating.AFTERBURNER: 1}
    assert s["fighter-pilot"].deltas == {Rating.GUN: 1} and s["fighter-pilot"].requires_gun
    assert s["nugget"].cards == ("VR", "TONES", "ACE")  # L331
    assert s["tiger"].cards == ("ACE", "TONES")  # L368
    assert s["angle-0"].position is Position.TAILING and s["angle-0"].initiative
    assert s["angle-90"].position is Position.ADVANTAGED
    campaign = {k for k, v in s.items() if v.campaign_only}
    assert campaign == {"angle-90", "angle-0", "nfod"}  # L343, L356, L364
    once = {k for k, v in s.items() if v.once_per_game}
    assert once == {"gun-fighter", "alert", "lucky", "jink", "agile", "timely"}
    assert s["jink"].against == {"Guns"}  # L318, L352
    for skill in s.values():  # every card a skill names is in the deck
        assert set(skill.cards) <= set(lo.deck.by_code), skill.id
        if skill.once_per_game:
            assert "once" in skill.text.lower(), skill.id


# --- sites -------------------------------------------------------------------------------


def test_sa7_site_l300() -> None:
    sa7 = load_sites()["sa-7"]
    assert sa7.cards == 5 and sa7.looks_for == {"Tone"}
    assert sa7.ranges == {Range.GUN, Range.HEAT}
    assert sa7.altitudes == {Altitude.LOW, Altitude.MEDIUM}
    # LO-20: the Mirage at Gun or HS range and Low or Medium altitude is attacked.
    assert sa7.attacks(Range.HEAT, Altitude.MEDIUM)
    assert not sa7.attacks(Range.RADAR, Altitude.LOW)
    assert not sa7.attacks(Range.GUN, Altitude.HIGH)


def test_site_types(lo: Components) -> None:
    assert {"sa-2", "sa-3", "sa-6", "sa-7", "sa-9", "zsu-23-4", "hawk", "rapier"} <= set(lo.sites)
    titles = {title for t in lo.deck.types for title in t.titles}
    for site in lo.sites.values():
        assert site.looks_for <= titles, site.id
        assert (site.kind.value == "aaa") == (site.looks_for == {"Guns"}), site.id


# --- content packs -----------------------------------------------------------------------


def shipped(name: str) -> Any:
    return yaml.safe_load((LO_DIR / name).read_text(encoding="utf-8"))


def write(tmp_path: Path, name: str, content: object) -> Path:
    (tmp_path / name).write_text(yaml.safe_dump(content, allow_unicode=True), encoding="utf-8")
    return tmp_path


def test_a_valid_pack_loads_and_keeps_shipped_files_for_the_rest(tmp_path: Path) -> None:
    raw = shipped(AIRCRAFT_FILE)
    extra = dict(raw[0], id="f-86f-house", name="F-86F Sabre (house rules)", vp=21)
    lo = load_components(write(tmp_path, AIRCRAFT_FILE, [*raw, extra]))
    assert lo.aircraft["f-86f-house"].vp == 21
    assert lo.deck == load_deck() and lo.skills == load_skills()


def test_duplicate_yaml_key_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "twice.yaml"
    bad.write_text("- id: sa-2\n  id: sa-3\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"twice\.yaml: line 2.*duplicate key 'id'"):
        load_sites(bad)


def test_wrong_types_name_file_and_field(tmp_path: Path) -> None:
    raw = shipped(AIRCRAFT_FILE)
    raw[3]["speed"] = "fast"
    raw[5]["ab_post"] = None  # ab_pre set, ab_post "-"
    with pytest.raises(DataError) as info:
        load_aircraft(write(tmp_path, AIRCRAFT_FILE, raw))
    assert info.value.file.endswith(AIRCRAFT_FILE)
    text = str(info.value)
    assert f"{AIRCRAFT_FILE}: [3].speed: Input should be a valid integer" in text
    assert f"{AIRCRAFT_FILE}: [5]: ab_pre and ab_post are both set" in text
    missiles = shipped(MISSILES_FILE)
    missiles[0]["value"] = 12
    missiles[1]["type"] = "laser"
    with pytest.raises(DataError) as info:
        load_missiles(write(tmp_path, MISSILES_FILE, missiles))
    assert f"{MISSILES_FILE}: [0].value: Input should be less than or equal to 11" in str(
        info.value
    )
    assert f"{MISSILES_FILE}: [1].type: Input should be 'heat', 'radar' or 'active'" in str(
        info.value
    )


def test_bad_deck_names_file_and_field(tmp_path: Path) -> None:
    raw = shipped(DECK_FILE)
    raw["types"][0]["count"] = 0
    with pytest.raises(DataError, match=r"deck\.yaml: types\[0\]\.count: Input should be greater"):
        load_deck(write(tmp_path, DECK_FILE, raw))
    raw = shipped(DECK_FILE)
    raw["types"][1]["react_to"].append("Immelmann")
    with pytest.raises(DataError, match=r"deck\.yaml: .*BR reacts to 'Immelmann'"):
        load_deck(write(tmp_path, DECK_FILE, raw))
    raw = shipped(DECK_FILE)
    raw["types"].append(raw["types"][0])
    with pytest.raises(DataError, match=r"deck\.yaml: .*duplicate card type code ACE"):
        load_deck(write(tmp_path, DECK_FILE, raw))


def test_unknown_missile_is_refused(tmp_path: Path) -> None:
    raw = shipped(AIRCRAFT_FILE)
    raw[1]["missiles"] = [{"missile": "aim-999", "count": 2}]
    with pytest.raises(DataError) as info:
        load_components(write(tmp_path, AIRCRAFT_FILE, raw))
    assert info.value.file.endswith(AIRCRAFT_FILE)
    assert info.value.problems == (
        "[1].missiles[0].missile: unknown missile 'aim-999' (not in missiles.yaml)",
    )


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    for name, loader in LOADERS.items():
        if name == DECK_FILE:
            continue
        raw = shipped(name)
        with pytest.raises(DataError, match=rf"\[{len(raw)}\]\.id: duplicate id '{raw[0]['id']}'"):
            loader(write(tmp_path, name, [*raw, raw[0]]))


def test_cross_file_card_and_site_references(tmp_path: Path) -> None:
    skills = shipped(SKILLS_FILE)
    skills[1]["cards"] = ["VR", "IMMELMANN"]
    with pytest.raises(DataError, match=r"skills\.yaml: \[1\]\.cards\[1\]: unknown card"):
        load_components(write(tmp_path, SKILLS_FILE, skills))
    (tmp_path / SKILLS_FILE).unlink()
    deck = shipped(DECK_FILE)
    deck["types"] = [t for t in deck["types"] if t["effect"] not in ("guns", "tone_guns")]
    for t in deck["types"]:
        t["react_to"] = [n for n in t.get("react_to", []) if n != "Guns"]
    write(tmp_path, DECK_FILE, deck)
    with pytest.raises(DataError, match=r"sites\.yaml: \[\d+\]\.looks_for: no card"):
        load_components(tmp_path)


def test_model_rules_hold_for_packs() -> None:
    base = load_aircraft()["f-15a"].model_dump()
    with pytest.raises(ValueError, match="vp_missiles 50 is below vp 62"):
        Aircraft.model_validate({**base, "vp_missiles": 50})
    with pytest.raises(ValueError, match="not Aircraft fields: colour"):
        Aircraft.model_validate({**base, "printed": ["vp", "colour"]})
    with pytest.raises(ValueError, match="without missiles"):
        Aircraft.model_validate({**base, "missiles": [], "vp_missiles": 70})
    site = load_sites()["sa-7"].model_dump()
    with pytest.raises(ValueError, match="unknown range"):
        Site.model_validate({**site, "ranges": ["G", "XX"]})
    with pytest.raises(ValueError, match="'Tone' and/or 'Guns'"):
        Site.model_validate({**site, "looks_for": ["Scissors"]})
    with pytest.raises(ValueError, match="launch from at least one position"):
        Missile.model_validate(
            {"id": "x", "name": "X", "type": "heat", "value": 4}
            | dict.fromkeys(("neutral", "advantaged", "tailing"))
        )


def test_missing_pack_file_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"missiles\.yaml: cannot read the file"):
        load_missiles(tmp_path)
