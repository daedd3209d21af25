"""The shipped Eagles in the Sky data: it loads, keeps every value the rulebook prints,
is self-consistent and plausibly distributed, and bad content packs fail with a
DataError naming the file and the field.

"L323" is a line of the rulebook transcription (eagles-in-the-sky.txt), "§8.14" a
section of its Engagement rules; data/eagles/SOURCES.md says which values are printed
and which authored.
"""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from data import DATA_DIR
from engine.eagles.components import (
    BOOK_CARDS,
    DECK_SIZE,
    AceAbility,
    Aircraft,
    AircraftType,
    Altitude,
    CardSpecial,
    Characteristic,
    DamageKind,
    Deck,
    DefenceClass,
    EngagementType,
    FlightLeader,
    PilotQuality,
    RandomEvent,
    ScenarioRule,
    Side,
    Symbol,
    Tables,
    VictoryKind,
    Weather,
    YearMonth,
    Zone,
    ZoneChoice,
)
from engine.eagles.loader import (
    AIRCRAFT_FILE,
    DECK_FILE,
    LEADERS_FILE,
    SCENARIOS_FILE,
    TABLES_FILE,
    Components,
    DataError,
    load_aircraft,
    load_components,
    load_deck,
    load_leaders,
    load_scenarios,
    load_tables,
)

EAGLES_DIR = DATA_DIR / "eagles"
LOADERS: dict[str, Any] = {
    DECK_FILE: load_deck,
    AIRCRAFT_FILE: load_aircraft,
    LEADERS_FILE: load_leaders,
    TABLES_FILE: load_tables,
    SCENARIOS_FILE: load_scenarios,
}
C, D, S, A = Symbol.CLIMB, Symbol.DIVE, Symbol.SPEED, Symbol.AGILITY


@pytest.fixture(scope="module")
def eagles() -> Components:
    return load_components()


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck()


@pytest.fixture(scope="module")
def planes() -> dict[str, Aircraft]:
    return load_aircraft()


@pytest.fixture(scope="module")
def leaders() -> dict[str, FlightLeader]:
    return load_leaders()


@pytest.fixture(scope="module")
def tables() -> Tables:
    return load_tables()


def ym(text: str) -> YearMonth:
    return YearMonth.from_text(text)


# --- every shipped file loads ------------------------------------------------------------


def test_every_shipped_file_has_a_loader_and_loads() -> None:
    shipped = {p.name for p in EAGLES_DIR.glob("*.yaml")}
    assert shipped == set(LOADERS), "a new data file needs a loader and a test"
    for name, loader in LOADERS.items():
        assert loader(), name
        assert loader(EAGLES_DIR / name) == loader(), f"{name}: file path and default agree"
        assert loader(EAGLES_DIR) == loader(), f"{name}: directory and default agree"
    assert (EAGLES_DIR / "SOURCES.md").is_file()


def test_components_bundle_is_cached_read_only_and_hashable(eagles: Components) -> None:
    assert load_components() is eagles
    assert load_deck() is eagles.deck and load_tables() is eagles.tables
    with pytest.raises(TypeError):
        eagles.aircraft["x"] = eagles.aircraft["spad-xiii"]  # type: ignore[index]
    mine = load_aircraft()
    mine.pop("spad-xiii")
    assert "spad-xiii" in load_aircraft() and "spad-xiii" in eagles.aircraft
    assert load_components(EAGLES_DIR) == eagles, "the shipped files as a pack, same bundle"
    for value in (eagles.deck, eagles.tables, *eagles.scenarios.values(), *eagles.leaders.values()):
        hash(value)


def test_sources_cite_the_rulebook_by_line_not_by_path() -> None:
    text = (EAGLES_DIR / "SOURCES.md").read_text(encoding="utf-8")
    assert "/work/" not in text and "shared/" not in text
    assert "L350" in text and "§8.14" in text


# --- enums -------------------------------------------------------------------------------


def test_codes_and_names_parse() -> None:
    assert Zone.from_code("NML") is Zone.NO_MANS_LAND
    assert Zone.from_code("No Man's Land") is Zone.NO_MANS_LAND
    assert Zone.from_code("German Rear Area") is Zone.GERMAN_REAR
    assert Side.from_code("G") is Side.GERMAN and Side.ALLIED.opponent is Side.GERMAN
    assert Symbol.from_code("d") is Symbol.DIVE
    assert DefenceClass.from_code("S") is DefenceClass.STURDY
    assert Altitude.from_code("treetop") is Altitude.TREETOP
    assert Characteristic.from_code("W") is Characteristic.WEAK_WINGS
    assert DamageKind.from_code("On Fire") is DamageKind.ON_FIRE
    assert DamageKind.from_code("ST") is DamageKind.STRUCTURE
    assert RandomEvent.from_code("add_aircraft*") is RandomEvent.ADD_AIRCRAFT_STAR
    assert EngagementType.from_code("Photo-Recon") is EngagementType.PHOTO_RECON
    with pytest.raises(ValueError, match="unknown zone 'Verdun'"):
        Zone.from_code("Verdun")


def test_orders_follow_the_rules() -> None:
    # §10.83: a second Structure hit lowers the class one step; below Fragile is down.
    assert DefenceClass.FRAGILE < DefenceClass.NORMAL < DefenceClass.STURDY
    assert DefenceClass.STURDY < DefenceClass.ARMORED
    assert DefenceClass.ARMORED.weaker is DefenceClass.STURDY
    assert DefenceClass.FRAGILE.weaker is None
    assert [a.code for a in sorted(Altitude)] == ["T", "L", "M", "H"]  # §11.11
    assert [z.owner for z in Zone] == [Side.ALLIED, Side.ALLIED, None, Side.GERMAN, Side.GERMAN]
    # "the defender's Front Lines / Rear Area" (§16.42-16.48)
    assert Zone.front_lines(Side.GERMAN) is Zone.GERMAN_FRONT
    assert Zone.rear_area(Side.ALLIED) is Zone.ALLIED_REAR
    assert ZoneChoice.DEFENDER_FRONT.resolve(Side.ALLIED) is Zone.ALLIED_FRONT
    assert ZoneChoice.DRAW.resolve(Side.ALLIED) is None
    assert {k for k in DamageKind if k.counts_as_damage} == {
        DamageKind.STRUCTURE,
        DamageKind.WING,
        DamageKind.ENGINE,
        DamageKind.CONTROL,
    }  # §16.21


def test_year_month() -> None:
    assert ym("1917-07") == YearMonth(1917, 7) and str(YearMonth(1918, 1)) == "1918-01"
    assert ym("1917-12") < ym("1918-01")
    for bad in ("1917-13", "1913-05", "July 1917"):
        with pytest.raises(ValueError):
            ym(bad)


# --- the deck ----------------------------------------------------------------------------


def test_110_cards_numbered_1_to_110(deck: Deck) -> None:
    assert len(deck.cards) == DECK_SIZE == 110  # L13
    assert sorted(deck.by_number) == list(range(1, 111))  # "101-110", L1767
    assert deck.card(57) is deck.by_number[57]


@pytest.mark.parametrize(
    ("name", "symbols", "rating", "exact", "where"),
    [
        ("Zoom Climb", {C}, 3, True, "L323, L690, L694"),
        ("Half Loop", {C, D}, 3, True, "L350"),
        ("Steep Dive", {D}, 2, True, "L350"),
        ("Medal Maneuver", {D, S}, 4, False, "L321, L350, L429"),
        ("Shallow Dive", {S}, 2, True, "L383, L429"),
        ("Snap Turn", {A}, 3, True, "L380, L383"),
        ("Barrel Roll", {S}, None, True, "L381"),
        ("Full Throttle", {S}, 1, True, "L429"),
        ("Tight Turn", {A}, 2, True, "L431"),
        ("Vertical Roll", {C}, 2, False, "L692"),
        ("Falling Leaf", {D}, None, False, "§8.3, §11.31"),
    ],
)
def test_every_card_value_the_book_states(
    deck: Deck, name: str, symbols: set[Symbol], rating: int | None, exact: bool, where: str
) -> None:
    cards = [card for card in deck.cards if card.name == name]
    assert cards, f"{name} ({where})"
    for card in cards:
        shown = set(card.symbols)
        assert shown == symbols if exact else symbols <= shown, f"{name} ({where})"
        if rating is not None:
            assert card.rating == rating, f"{name} ({where})"
    assert name in BOOK_CARDS


def test_card_rules(deck: Deck) -> None:
    by_name = {card.name: card for card in deck.cards}
    assert by_name["Medal Maneuver"].special is CardSpecial.MEDAL  # §8.14
    assert by_name["Falling Leaf"].special is CardSpecial.FALLING_LEAF  # §8.3
    # §8.43: Snap Turn answers Speed, Barrel Roll answers Agility; others their symbol
    assert by_name["Snap Turn"].responds_to(S) and by_name["Snap Turn"].responds_to(A)
    assert by_name["Barrel Roll"].responds_to(A) and by_name["Barrel Roll"].responds_to(S)
    assert not by_name["Tight Turn"].responds_to(S)
    assert by_name["Half Loop"].responds_to(C) and by_name["Half Loop"].responds_to(D)
    assert not by_name["Falling Leaf"].responds_to(D)  # §8.31: a Targeted Activation only
    # L842: Speed maneuvers with a Maneuver Rating of 3 or 4 exist
    assert any(card.has(S) and card.rating >= 3 for card in deck.cards)
    specials = Counter(card.special for card in deck.cards if card.special)
    assert set(specials) == set(CardSpecial)


def test_fire_section(deck: Deck) -> None:
    for card in deck.cards:
        assert card.jammed == (card.fire is None) == (card.damage is None)  # §2.2, §10.71
        if card.jammed:
            with pytest.raises(ValueError, match="Guns Jammed"):
                card.damage_for(1, DefenceClass.NORMAL)
            assert not card.hits(6)
        else:
            assert card.fire is not None and 1 <= card.fire <= 6
            assert card.hits(card.fire) and not card.hits(card.fire - 1)  # §10.21
            assert card.damage_for(2, DefenceClass.FRAGILE) is card.damage_for(
                3, DefenceClass.FRAGILE
            )


def test_worked_examples_add_up(deck: Deck, planes: dict[str, Aircraft]) -> None:
    """EITS-01..07: the totals of the book's examples, from the data."""
    mr = {card.name: card.rating for card in deck.cards}
    assert min(mr["Zoom Climb"], planes["aeg-civ"].climb) + 2 == 4  # §8.14, L323
    pfalz, dolphin = planes["pfalz-diiia"], planes["sopwith-dolphin"]
    assert pfalz.dive + mr["Half Loop"] == 11  # L350
    assert pfalz.dive + mr["Half Loop"] - dolphin.dive == 4
    assert pfalz.dive + mr["Half Loop"] - (dolphin.dive + mr["Steep Dive"]) == 2
    assert dolphin.dive + mr["Medal Maneuver"] == 11
    spad, dri, dva = planes["spad-xiii"], planes["fokker-dri"], planes["albatros-dva"]
    assert spad.speed + mr["Shallow Dive"] == 9 and dri.agility + mr["Snap Turn"] == 11  # L383
    assert spad.speed + mr["Full Throttle"] - dva.speed == 2  # L429
    assert dva.agility + mr["Tight Turn"] - spad.agility == 4  # L431
    tables = load_tables()
    assert tables.climb_rate(dri.climb) + mr["Vertical Roll"] + 2 == 6  # L692
    diii = planes["albatros-diii"]
    assert tables.climb_rate(diii.climb) + mr["Zoom Climb"] == 4  # L694
    assert planes["albatros-dv"].dive + 3 == spad.dive  # L718


# --- the deck's authored distribution ---------------------------------------------------


def test_fire_values_are_even_and_jams_occasional(deck: Deck, tables: Tables) -> None:
    jams = len(deck.jams)
    assert 8 <= jams <= 10, "gun jams are occasional"
    fires = Counter(card.fire for card in deck.cards if not card.jammed)
    assert set(fires) == set(range(1, 7))
    assert max(fires.values()) - min(fires.values()) <= 2
    # §3.53: the flight-size draw gives 2, 4 or 6 Scouts about a third of the time each
    scouts = Counter(tables.scouts_for(fire) for card in deck.cards if (fire := card.fire))
    for size in (2, 4, 6):
        assert abs(scouts[size] / (DECK_SIZE - jams) - 1 / 3) < 0.03, size


def test_symbols_are_balanced_and_low_ratings_commonest(deck: Deck) -> None:
    symbols = Counter(symbol for card in deck.cards for symbol in card.symbols)
    assert max(symbols.values()) - min(symbols.values()) <= 6, symbols
    ratings = Counter(card.rating for card in deck.cards)
    assert set(ratings) == {1, 2, 3, 4}
    assert ratings[1] > ratings[3] > ratings[4] and ratings[2] > ratings[3]
    assert ratings[1] + ratings[2] >= 0.6 * DECK_SIZE
    assert 15 <= sum(1 for card in deck.cards if len(card.symbols) > 1) <= 35


def test_damage_tables_grow_with_guns_and_weaker_targets(deck: Deck) -> None:
    for card in deck.cards:
        if card.damage is None:
            continue
        for defence in DefenceClass:
            one, two = card.damage.row(defence)
            assert two.severity >= one.severity, (card.number, defence)
            if defence.weaker is not None:
                for guns in (1, 2):
                    weaker = card.damage_for(guns, defence.weaker)
                    assert weaker.severity >= card.damage_for(guns, defence).severity


def test_damage_frequencies(deck: Deck) -> None:
    tables = [card.damage for card in deck.cards if card.damage is not None]
    cells = Counter(kind for t in tables for d in DefenceClass for kind in t.row(d))
    hits = {k: n for k, n in cells.items() if k is not DamageKind.SUPERFICIAL}
    assert max(hits, key=lambda k: hits[k]) is DamageKind.STRUCTURE, "Structure commonest"
    total = sum(cells.values())
    assert cells[DamageKind.CREW] / total < 0.05 and cells[DamageKind.ON_FIRE] / total < 0.05
    assert cells[DamageKind.CREW] and cells[DamageKind.ON_FIRE]
    superficial = {
        (d, g): sum(1 for t in tables if t.row(d)[g] is DamageKind.SUPERFICIAL)
        for d in DefenceClass
        for g in (0, 1)
    }
    assert superficial[DefenceClass.STURDY, 0] > len(tables) / 2
    assert superficial[DefenceClass.ARMORED, 0] > len(tables) / 2
    assert superficial[DefenceClass.FRAGILE, 1] < len(tables) / 10
    for g in (0, 1):
        column = [superficial[d, g] for d in DefenceClass]
        assert column == sorted(column) and len(set(column)) == 4


# --- aircraft ----------------------------------------------------------------------------

NAMED = {
    # aircraft the rulebook names: examples, §13, §15, §16.4, §17.0, §18.0
    "aeg-civ": "AEG CIV",
    "aeg-giv": "AEG GIV",
    "albatros-cxii": "Albatros CXII",
    "albatros-diii": "Albatros DIII",
    "albatros-dv": "Albatros DV",
    "albatros-dva": "Albatros DVa",
    "be2e": "B.E. 2e",
    "breguet-14": "Breguet 14",
    "bristol-fighter": "Bristol Fighter",
    "dfw-cv": "DFW CV",
    "dh4": "D.H. 4",
    "fk8": "F.K. 8",
    "fokker-dri": "Fokker DrI",
    "fokker-dvii": "Fokker DVII",
    "fokker-dviif": "Fokker DVIIf",
    "halberstadt-clii": "Halberstadt CLII",
    "hannover-cliiia": "Hannover CLIIIa",
    "junkers-ji": "Junkers JI",
    "lvg-cv": "LVG CV",
    "nieuport-17": "Nieuport 17",
    "nieuport-28": "Nieuport 28",
    "pfalz-diii": "Pfalz DIII",
    "pfalz-diiia": "Pfalz DIIIa",
    "re8": "R.E. 8",
    "rumpler-civ": "Rumpler CIV",
    "rumpler-cvi": "Rumpler CVI",
    "salmson-2a2": "Salmson 2A.2",
    "se5a": "SE5a",
    "sopwith-camel": "Sopwith Camel",
    "sopwith-dolphin": "Sopwith Dolphin",
    "sopwith-pup": "Sopwith Pup",
    "sopwith-strutter": "Sopwith 1½ Strutter",
    "sopwith-triplane": "Sopwith Triplane",
    "spad-vii": "SPAD VII",
    "spad-xiii": "SPAD XIII",
}

PRINTED: dict[str, dict[str, Any]] = {
    "aeg-civ": {"climb": 2},  # L323
    "pfalz-diiia": {"dive": 8},  # L350
    "sopwith-dolphin": {"dive": 7},  # L350
    "spad-xiii": {"speed": 7, "agility": 4, "dive": 9, "le_prieur": True},  # L383 L431 L718 L973
    "fokker-dri": {"speed": 5, "agility": 8, "climb": 7},  # L383, L692
    "albatros-dva": {"speed": 6, "agility": 6},  # L429-431
    "albatros-diii": {"climb": 4},  # L694
    "albatros-dv": {"dive": 6},  # L718
    "nieuport-28": {
        "characteristics": {Characteristic.UNRELIABLE_ENGINE, Characteristic.WEAK_WINGS}
    },
    "aeg-giv": {
        "type": AircraftType.TWO_SEATER,  # L1065, L1089
        "characteristics": {Characteristic.FRONT_GUNNER},  # §13.33
        "guns_rear": 1,  # L616, L782: a rear gunner too
        "crew": 3,  # pilot, front and rear gunner (L616)
        "structure_hits_to_destroy": 4,  # §13.74
    },
    "se5a": {"guns_forward": 1, "lewis": True},  # §15.4, L955
    "bristol-fighter": {"type": AircraftType.SCOUT, "crew": 2},  # L40
    "be2e": {"characteristics": {Characteristic.FRONT_GUNNER}},  # L774
    "sopwith-pup": {"le_prieur": True},  # L973
    "sopwith-camel": {"le_prieur": True},
    "nieuport-17": {"le_prieur": True},
    "spad-vii": {"le_prieur": True},
    "halberstadt-clii": {"type": AircraftType.SCOUT, "cup": False},  # §2.1, §3.52
    "hannover-cliiia": {"type": AircraftType.SCOUT, "cup": False},
    "junkers-ji": {"type": AircraftType.TWO_SEATER},  # §2.1
    **{
        plane: {"type": AircraftType.TWO_SEATER}  # mission aircraft of §16.42-16.46
        for plane in (
            "fk8",
            "sopwith-strutter",
            "salmson-2a2",
            "breguet-14",
            "albatros-cxii",
            "dfw-cv",
            "lvg-cv",
            "dh4",
            "rumpler-civ",
            "rumpler-cvi",
            "re8",
        )
    },
}


def test_every_aircraft_the_book_names_exists(planes: dict[str, Aircraft]) -> None:
    for plane, name in NAMED.items():
        assert planes[plane].name == name


def test_every_printed_aircraft_value(planes: dict[str, Aircraft]) -> None:
    for plane, values in PRINTED.items():
        for field, value in values.items():
            assert getattr(planes[plane], field) == value, f"{plane}.{field}"


def test_only_the_rulebook_values_are_marked_printed(planes: dict[str, Aircraft]) -> None:
    marked = {plane: set(a.printed) for plane, a in planes.items() if a.printed}
    assert marked == {plane: set(values) for plane, values in PRINTED.items()}


def test_at_least_40_aircraft_of_both_sides_and_types(planes: dict[str, Aircraft]) -> None:
    assert len(planes) >= 40
    kinds = Counter((a.side, a.type) for a in planes.values())
    assert all(kinds[side, kind] >= 8 for side in Side for kind in AircraftType), kinds


def test_characteristics_the_book_implies(planes: dict[str, Aircraft]) -> None:
    # §15.51: exactly these may carry Le Prieur rockets
    assert {p for p, a in planes.items() if a.le_prieur} == {
        "sopwith-pup",
        "sopwith-camel",
        "nieuport-17",
        "spad-vii",
        "spad-xiii",
    }
    # §13.33: in the game's period the AEG GIV is the only aircraft with a Front Gunner
    game_period = [a for a in planes.values() if a.in_service_to >= ym("1917-07")]
    assert [a.id for a in game_period if a.front_gunner] == ["aeg-giv"]
    giv = planes["aeg-giv"]
    assert giv.front_gunner and giv.rear_gunner and giv.structure_hits_to_destroy == 4
    assert all(a.structure_hits_to_destroy == 3 for a in planes.values() if a is not giv)
    # §15.4: the SE5a checks the 2-gun column while its Lewis gun has ammunition
    assert planes["se5a"].fixed_guns == 2 and planes["se5a"].guns_text == "1L"
    assert planes["bristol-fighter"].rear_gunner and planes["bristol-fighter"].cup
    assert giv.guns_text == "1-1"


def test_the_cup_holds_every_scout_but_the_german_cl(planes: dict[str, Aircraft]) -> None:
    # §3.52, §2.1 design note
    for plane in planes.values():
        cl = plane.side is Side.GERMAN and " CL" in plane.name
        assert plane.cup == (plane.scout and not cl), plane.id
    assert {p for p, a in planes.items() if a.scout and not a.cup} == {
        "halberstadt-clii",
        "hannover-cliiia",
    }


def months(first: str, last: str) -> list[YearMonth]:
    out, (year, month) = [], ym(first)
    while YearMonth(year, month) <= ym(last):
        out.append(YearMonth(year, month))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def test_every_month_1915_to_1918_has_aircraft_of_both_sides(planes: dict[str, Aircraft]) -> None:
    for when in months("1915-08", "1918-11"):
        for side in Side:
            flying = [a for a in planes.values() if a.side is side and a.available(when)]
            assert any(a.cup for a in flying), (when, side, "a Scout for the cup")
            assert any(not a.scout for a in flying), (when, side, "a 2-Seater")
            if when >= ym("1917-07"):  # the game's own period
                assert sum(a.cup for a in flying) >= 3, (when, side)
    assert min(a.in_service_from for a in planes.values()) <= ym("1915-03")
    assert max(a.in_service_to for a in planes.values()) == ym("1918-11")


def test_mission_aircraft_serve_in_the_game_period(eagles: Components) -> None:
    for spec in eagles.tables.engagements:
        for side in Side:
            mission = spec.mission(side)
            for plane in mission.choices if mission else ():
                a = eagles.aircraft[plane]
                assert a.available(ym("1918-05")) or a.available(ym("1917-10")), plane


def points_formula(a: Aircraft) -> int:
    """data/eagles/SOURCES.md §2.3."""
    total = a.climb + a.dive + a.speed + a.agility
    defence = {"FRAGILE": -1, "NORMAL": 0, "STURDY": 1, "ARMORED": 2}[a.defence.name]
    extra = a.has(Characteristic.HIGH_ALTITUDE_ENGINE)
    extra -= a.has(Characteristic.UNRELIABLE_ENGINE) + a.has(Characteristic.WEAK_WINGS)
    return (total + 1) // 2 + 2 * a.fixed_guns + 2 * a.guns_rear + defence + extra


def test_points_follow_the_authoring_formula(planes: dict[str, Aircraft]) -> None:
    assert {p: a.points for p, a in planes.items()} == {
        p: points_formula(a) for p, a in planes.items()
    }


def ratings(a: Aircraft) -> tuple[int, int, int, int]:
    return (a.climb, a.dive, a.speed, a.agility)


def counter_values(a: Aircraft) -> tuple[int, ...]:
    """Everything the counter rates and the point formula prices, higher is better: the
    four Performance Ratings, forward and rear guns, the Defensive Class, and soundness
    (a High Altitude Engine +1, an Unreliable Engine or Weak Wings -1 each)."""
    soundness = (
        a.has(Characteristic.HIGH_ALTITUDE_ENGINE)
        - a.has(Characteristic.UNRELIABLE_ENGINE)
        - a.has(Characteristic.WEAK_WINGS)
    )
    return (*ratings(a), a.fixed_guns, a.guns_rear, int(a.defence), soundness)


def test_no_dearer_aircraft_is_worse_on_every_rating(planes: dict[str, Aircraft]) -> None:
    """SOURCES.md §2.3: of two aircraft of one side and type, the dearer is better on at
    least one of its counter's values."""
    problems = [
        f"{a.id} ({a.points} pts) is no better than {b.id} ({b.points} pts) on any rating"
        for a, b in itertools.permutations(planes.values(), 2)
        if a.side is b.side
        and a.type is b.type
        and a.points > b.points
        and all(x <= y for x, y in zip(counter_values(a), counter_values(b), strict=True))
    ]
    assert problems == []


def test_dearer_scouts_fly_better_or_are_sounder(planes: dict[str, Aircraft]) -> None:
    """Between Scouts, a dearer one is better on a Performance Rating unless it is only
    dearer for being sounder (Albatros DIII over the weak-winged DV)."""
    scouts = [a for a in planes.values() if a.scout]
    for a, b in itertools.permutations(scouts, 2):
        no_better = all(x <= y for x, y in zip(ratings(a), ratings(b), strict=True))
        if a.side is b.side and a.points > b.points and no_better:
            assert counter_values(a)[-1] > counter_values(b)[-1], (a.id, b.id)


def test_later_versions_are_not_worse(planes: dict[str, Aircraft]) -> None:
    for lines in (
        ["albatros-dii", "albatros-diii", "albatros-dva"],
        ["pfalz-diii", "pfalz-diiia"],
        ["fokker-dvii", "fokker-dviif"],
        ["spad-vii", "spad-xiii"],
        ["be2c", "be2e"],
    ):
        for old, new in itertools.pairwise(lines):
            assert all(
                x >= y for x, y in zip(ratings(planes[new]), ratings(planes[old]), strict=True)
            )
            assert planes[new].points >= planes[old].points, (old, new)


# --- Flight Leaders and Aces ---------------------------------------------------------------

ACES = {
    # §18.0 as printed: name | side | Leadership | Flying | Glory | aircraft by date |
    # abilities, "*" = lost if wounded (L1271)
    "richthofen": "Manfred von Richthofen | german | 4 | 2 | 10 | "
    "1917-07 1917-07 albatros-dv, 1917-08 1918-04 fokker-dri | "
    "*tailing_fire_plus_2 *no_response_unengaged",
    "voss": "Werner Voss | german | 2 | 5 | 6 | "
    "1917-07 1917-07 albatros-diii, 1917-08 1917-09 fokker-dri | *snap_turn_any",
    "udet": "Ernst Udet | german | 3 | 4 | 7 | "
    "1917-07 1917-08 albatros-dv, 1917-09 1918-04 albatros-dva, "
    "1918-05 1918-06 fokker-dri, 1918-07 1918-11 fokker-dviif | *crew_to_engine *medal_any",
    "loerzer": "Bruno Loerzer | german | 2 | 4 | 6 | "
    "1917-07 1917-07 albatros-dv, 1917-08 1918-04 fokker-dri, 1918-05 1918-11 fokker-dvii | "
    "*no_weak_wings_dive *no_falling_leaf_check *ignores_performance_cap",
    "fonck": "Rene Fonck | allied | 2 | 4 | 8 | "
    "1917-07 1917-12 spad-vii, 1918-01 1918-11 spad-xiii | "
    "*tailing_fire_plus_2 *convert_hit gun_jam_redraw",
    "guynemer": "Georges Guynemer | allied | 2 | 4 | 9 | "
    "1917-07 1917-08 spad-vii, 1917-09 1917-09 spad-xiii | *agility_plus_2",
    "collishaw": "Raymond Collishaw | allied | 3 | 3 | 5 | "
    "1917-07 1917-12 sopwith-triplane, 1918-01 1918-11 sopwith-camel | "
    "*tailing_fire_plus_2 *response_mr_plus_1",
    "mccudden": "James McCudden | allied | 4 | 3 | 7 | 1917-07 1918-07 se5a | "
    "speed_plus_1 high_altitude_engine gun_jam_redraw",
    "rickenbacker": "Eddie Rickenbacker | allied | 3 | 3 | 4 | "
    "1918-04 1918-05 nieuport-28, 1918-06 1918-11 spad-xiii | *mr_plus_1",
    "luke": "Frank Luke | allied | 0 | 4 | 3 | 1918-07 1918-09 spad-xiii | *balloon_fire_plus_2",
}


def test_the_aces_exactly_as_printed(eagles: Components) -> None:
    """§18.0, L1269-1360."""
    assert set(eagles.aces) == set(ACES)
    for key, line in ACES.items():
        name, side, lead, fly, glory, mounts, abilities = (x.strip() for x in line.split("|"))
        ace = eagles.aces[key]
        assert (ace.name, ace.side.value, ace.leadership, ace.flying, ace.glory) == (
            name,
            side,
            int(lead),
            int(fly),
            int(glory),
        ), key
        printed_mounts = [tuple(m.split()) for m in mounts.split(",")]
        assert [(str(m.first), str(m.last), m.aircraft) for m in ace.aircraft_by_date] == (
            printed_mounts
        ), key
        assert [a.value for a in ace.abilities] == [a.lstrip("*") for a in abilities.split()]
        assert {a.value for a in ace.asterisked} == {
            a[1:] for a in abilities.split() if a.startswith("*")
        }, key
        assert ace.quality is PilotQuality.ACE
    assert len({a for ace in eagles.aces.values() for a in ace.abilities}) == len(AceAbility)


def test_aces_fly_by_date(leaders: dict[str, FlightLeader]) -> None:
    udet = leaders["udet"]
    assert udet.aircraft_on(ym("1917-08")) == "albatros-dv"
    assert udet.aircraft_on(ym("1918-05")) == "fokker-dri"
    assert udet.aircraft_on(ym("1918-09")) == "fokker-dviif"
    assert udet.aircraft_on(ym("1917-06")) is None and not udet.available(ym("1917-06"))
    assert not leaders["guynemer"].available(ym("1917-10"))
    assert leaders["taylor"].available(ym("1915-01"))
    assert leaders["mccudden"].loses_when_wounded(AceAbility.SPEED_PLUS_1) is False
    assert leaders["voss"].loses_when_wounded(AceAbility.SNAP_TURN_ANY)


def test_flight_leaders(leaders: dict[str, FlightLeader]) -> None:
    assert leaders["taylor"].represents == 'Arthur "Roy" Brown'  # L1183
    for key, side in (("taylor", Side.ALLIED), ("mcnamee", Side.ALLIED)):
        assert leaders[key].side is side and not leaders[key].ace
    for key in ("schneberk", "moritz"):
        assert leaders[key].side is Side.GERMAN and not leaders[key].ace
    pools = Counter(leader.side for leader in leaders.values() if not leader.ace)
    assert pools[Side.ALLIED] >= 6 and pools[Side.GERMAN] >= 6  # Campaign §3.5 draws 3
    generic = [leader for leader in leaders.values() if not leader.ace]
    for side in Side:
        ratings_of = [(x.leadership, x.flying) for x in generic if x.side is side]
        assert sum(map(sum, ratings_of)) == sum(
            sum((x.leadership, x.flying)) for x in generic if x.side is side.opponent
        ), "the two pools are equally strong"
        assert all(1 <= lead <= 3 and 1 <= fly <= 3 for lead, fly in ratings_of)
    assert all(x.glory is not None for x in generic) and all(
        not x.printed - {"name", "side", "represents"} for x in generic
    )


# --- tables ------------------------------------------------------------------------------


def test_every_card_number_is_in_every_table(tables: Tables) -> None:
    for number in range(1, DECK_SIZE + 1):
        for zone in Zone:
            tables.random_event(number, zone)
        tables.engagement_type(number)
        tables.zone(number)
        tables.altitude(number)
        for month in range(1, 13):
            tables.weather_for(number, month)
    for number in range(101, 111):  # L1767: "a Random Events draw of 101-110"
        assert {tables.random_event(number, zone) for zone in Zone} == {RandomEvent.SPECIAL}
    assert {tables.random_event(n, z) for n in range(1, 101) for z in Zone} == set(RandomEvent) - {
        RandomEvent.SPECIAL
    }


def test_random_events_frequency(tables: Tables) -> None:
    for zone in Zone:
        events = sum(tables.random_event(n, zone) is not RandomEvent.NONE for n in range(1, 101))
        assert 20 <= events <= 40, zone
    resolution = tables.event_resolution
    assert {resolution.add_side(f) for f in range(1, 7)} == set(Side)
    assert resolution.cloud_altitude(1) is Altitude.TREETOP  # Heavy Fog (§5.1)


def test_set_up_tables(tables: Tables) -> None:
    types = Counter(tables.engagement_type(n).type for n in range(1, 111))
    assert set(types) == set(EngagementType) and types.most_common(1)[0][0] is EngagementType.PATROL
    for n in range(1, 111):
        row = tables.engagement_type(n)
        assert (row.attacker is None) == (row.type is EngagementType.PATROL)
    zones = Counter(tables.zone(n) for n in range(1, 111))
    assert set(zones) == set(Zone) and zones[Zone.ALLIED_REAR] == zones[Zone.GERMAN_REAR]
    assert zones[Zone.ALLIED_FRONT] == zones[Zone.GERMAN_FRONT]
    assert set(tables.altitude(n) for n in range(1, 111)) == set(Altitude)


def test_printed_tables(tables: Tables) -> None:
    assert [tables.scouts_for(f) for f in range(1, 7)] == [2, 2, 4, 4, 6, 6]  # §3.53, L185
    assert [tables.rear_gunner(level) for level in range(1, 7)] == [2, 2, 4, 4, 2, 2]  # §10.53
    assert [tables.climb_rate(c) for c in range(10)] == [0, 0, 1, 1, 1, 2, 2, 2, 3, 3]  # §11.42
    # "one-third the Climb Rating, rounded to the nearest whole number" (L675)
    assert all(tables.climb_rate(c) == int(c / 3 + 0.5) for c in range(10))
    assert tables.climb_rate(-2) == 0 and tables.climb_rate(11) == 3


def test_weather(tables: Tables) -> None:
    assert [tables.weather_column(m) for m in range(1, 13)] == [0, 0, 1, 1, 2, 2, 2, 2, 1, 1, 0, 0]
    rain = tables.weather_effect(Weather.RAIN)
    assert rain.on_fire_bonus == 2 and rain.clouds is Altitude.LOW  # §10.88, L1791
    assert tables.weather_effect(Weather.ICE_STORM).grounded  # L1934
    assert tables.weather_effect(Weather.FOG).patrol_only  # Campaign §5.33
    assert tables.weather_effect(Weather.EXTREME_COLD).fatigue == 1  # L1640
    assert tables.weather_effect(Weather.SNOW).fatigue_low_only  # L1642
    clear = tables.weather_effect(Weather.CLEAR)
    assert clear == type(clear)(weather=Weather.CLEAR)
    summer = {tables.weather_for(n, 7) for n in range(1, 111)}
    assert Weather.SNOW not in summer and Weather.ICE_STORM not in summer


def test_engagement_types_as_printed(tables: Tables) -> None:
    """§16.41-16.48, L1045-1107."""
    spec = tables.engagement
    assert spec(EngagementType.PATROL).zones == (ZoneChoice.DRAW,)
    assert spec(EngagementType.PATROL).altitudes == ()
    spotting = spec(EngagementType.ARTILLERY_SPOTTING)
    assert spotting.altitudes == (Altitude.LOW,) and spotting.vp == 2
    assert spotting.allied is not None and set(spotting.allied.choices) == {
        "fk8",
        "sopwith-strutter",
        "salmson-2a2",
        "breguet-14",
    }
    photo = spec(EngagementType.PHOTO_RECON)
    assert photo.german is not None and "aeg-giv" in photo.german.choices and photo.vp == 3
    contact = spec(EngagementType.CONTACT_PATROL)
    assert contact.german is not None and contact.german.count == 2 and contact.german.optional
    strafing = spec(EngagementType.TRENCH_STRAFING)
    assert strafing.target_defence is DefenceClass.FRAGILE and strafing.bomb_vp == 2
    bombing = spec(EngagementType.BOMBING)
    assert bombing.allied is not None and bombing.allied.count == 3 and bombing.allied.same_type
    assert bombing.german is not None and bombing.german.choices == ("aeg-giv",)
    assert bombing.german.count == 2 and bombing.bomb_vp == 3
    airfield = spec(EngagementType.AIRFIELD_ATTACK)
    assert (
        airfield.zones == (ZoneChoice.DEFENDER_REAR,)
        and airfield.target_defence is DefenceClass.STURDY
    )
    balloon = spec(EngagementType.BALLOON_BUSTING)
    assert balloon.defender_balloon and balloon.vp == 8 and balloon.altitudes == (Altitude.LOW,)


# --- scenarios ---------------------------------------------------------------------------

SCENARIOS: dict[int, tuple[str, EngagementType, Altitude, Zone, Side | None]] = {
    1: (
        "September 16th, 1918",
        EngagementType.BALLOON_BUSTING,
        Altitude.LOW,
        Zone.GERMAN_FRONT,
        Side.ALLIED,
    ),
    2: (
        "September 23rd, 1917",
        EngagementType.PATROL,
        Altitude.LOW,
        Zone.NO_MANS_LAND,
        Side.GERMAN,
    ),
    3: ("June, 1917", EngagementType.PATROL, Altitude.MEDIUM, Zone.NO_MANS_LAND, Side.GERMAN),
    4: ("April 21st, 1918", EngagementType.PATROL, Altitude.LOW, Zone.NO_MANS_LAND, Side.GERMAN),
    5: (
        "October 3rd, 1918",
        EngagementType.BALLOON_BUSTING,
        Altitude.LOW,
        Zone.GERMAN_FRONT,
        Side.ALLIED,
    ),
    6: ("June 1st, 1917", EngagementType.PATROL, Altitude.MEDIUM, Zone.NO_MANS_LAND, Side.ALLIED),
    7: (
        "May 9th, 1918",
        EngagementType.ARTILLERY_SPOTTING,
        Altitude.LOW,
        Zone.ALLIED_FRONT,
        Side.ALLIED,
    ),
    8: (
        "Late June, 1918",
        EngagementType.TRENCH_STRAFING,
        Altitude.TREETOP,
        Zone.ALLIED_FRONT,
        Side.ALLIED,
    ),
}

FORCES: dict[int, dict[Side, tuple[dict[str, int], dict[str, int], str | None]]] = {
    # side: (aircraft -> count, pilot counters, leader)
    1: {Side.ALLIED: ({"spad-xiii": 2}, {"experienced": 1}, "luke"), Side.GERMAN: ({}, {}, None)},
    2: {
        Side.ALLIED: ({"se5a": 6}, {"experienced": 5}, "mccudden"),
        Side.GERMAN: ({"fokker-dri": 1}, {}, "voss"),
    },
    3: {
        Side.ALLIED: ({"spad-vii": 1}, {}, "guynemer"),
        Side.GERMAN: ({"albatros-dv": 1}, {}, "udet"),
    },
    4: {
        Side.ALLIED: ({"sopwith-camel": 6}, {"green": 1, "experienced": 4}, "taylor"),
        Side.GERMAN: ({"fokker-dri": 6}, {"inexperienced": 1, "experienced": 4}, "richthofen"),
    },
    5: {
        Side.ALLIED: ({"spad-xiii": 6}, {"experienced": 5}, "rickenbacker"),
        Side.GERMAN: ({"fokker-dviif": 4}, {"experienced": 3}, "schneberk"),
    },
    6: {
        Side.ALLIED: ({"sopwith-triplane": 5}, {"experienced": 4}, "collishaw"),
        Side.GERMAN: ({"albatros-diii": 5}, {"experienced": 4}, "moritz"),
    },
    7: {Side.ALLIED: ({"spad-xiii": 1}, {}, "fonck"), Side.GERMAN: ({}, {}, None)},
    8: {
        Side.ALLIED: ({"nieuport-28": 6}, {"experienced": 5}, "mcnamee"),
        Side.GERMAN: (
            {"fokker-dvii": 3, "fokker-dri": 1, "halberstadt-clii": 2},
            {"experienced": 5},
            "loerzer",
        ),
    },
}


def test_scenarios_as_printed(eagles: Components) -> None:
    """§17.0, L1109-1267."""
    assert sorted(eagles.scenarios) == list(range(1, 9))
    for number, (date, type_, altitude, zone, initiative) in SCENARIOS.items():
        scenario = eagles.scenarios[number]
        assert (scenario.date, scenario.type, scenario.altitude, scenario.zone) == (
            date,
            type_,
            altitude,
            zone,
        ), number
        assert scenario.initiative is initiative, number
        for side, (aircraft, pilots, leader) in FORCES[number].items():
            force = scenario.force(side)
            assert {e.aircraft: e.count for e in force.aircraft} == aircraft, (number, side)
            counts = force.pilots.model_dump()
            assert {q: n for q, n in counts.items() if n} == pilots, (number, side)
            assert force.leader == leader, (number, side)


def test_scenario_special_rules(eagles: Components) -> None:
    s = eagles.scenarios
    luke = s[1]
    assert luke.engagements == 3 and luke.turns_per_engagement == 4  # L1127-1131
    assert {
        ScenarioRule.SOLITAIRE,
        ScenarioRule.NO_RANDOM_EVENTS,
        ScenarioRule.NO_INITIATIVE_PHASE,
        ScenarioRule.DAMAGE_CARRIES_OVER,
    } <= luke.rules
    assert luke.german.balloons == 1 and luke.allied.aircraft[0].incendiary  # L1137
    assert (luke.victory, luke.victory_side, luke.victory_ace) == (
        VictoryKind.SWEEP,
        Side.ALLIED,
        "luke",
    )
    assert (s[2].victory, s[2].victory_side, s[2].victory_ace) == (
        VictoryKind.SHOOT_DOWN_ACE,
        Side.ALLIED,
        "voss",
    )
    assert s[3].rules == {ScenarioRule.NO_RANDOM_EVENTS}
    assert s[4].allied.leader_ace_side  # Taylor "on his +1 'Ace' side"
    assert s[5].german.balloons == 1 and all(e.incendiary for e in s[5].allied.aircraft)
    fonck = s[7]
    assert fonck.german.drawn_from_cup == ("albatros-cxii", "dfw-cv", "lvg-cv")
    assert fonck.engagements == 3 and fonck.turns_per_engagement == 8
    assert {ScenarioRule.NO_RANDOM_EVENTS, ScenarioRule.NO_MISSION_VP} <= fonck.rules
    assert ScenarioRule.NO_INITIATIVE_PHASE not in fonck.rules
    assert [e.aircraft for e in s[8].german.aircraft if e.bombs] == ["halberstadt-clii"]
    for number in (4, 5, 6, 8):
        assert s[number].victory is VictoryKind.STANDARD and not s[number].rules


# --- content packs -----------------------------------------------------------------------


def shipped(name: str) -> Any:
    return yaml.safe_load((EAGLES_DIR / name).read_text(encoding="utf-8"))


def write(tmp_path: Path, name: str, content: object) -> Path:
    (tmp_path / name).write_text(yaml.safe_dump(content, allow_unicode=True), encoding="utf-8")
    return tmp_path


def test_a_valid_pack_loads_and_keeps_shipped_files_for_the_rest(tmp_path: Path) -> None:
    raw = shipped(AIRCRAFT_FILE)
    extra = dict(raw[0], id="morane-house", name="Morane (house rules)", points=10)
    eagles = load_components(write(tmp_path, AIRCRAFT_FILE, [*raw, extra]))
    assert eagles.aircraft["morane-house"].points == 10
    assert eagles.deck == load_deck() and eagles.scenarios == load_scenarios()


def test_duplicate_yaml_key_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "twice.yaml"
    bad.write_text("- id: taylor\n  id: moritz\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"twice\.yaml: line 2.*duplicate key 'id'"):
        load_leaders(bad)


def test_wrong_values_name_file_and_field(tmp_path: Path) -> None:
    raw = shipped(AIRCRAFT_FILE)
    raw[3]["speed"] = 10
    raw[5]["defence"] = "paper"
    raw[7]["in_service_to"] = "1914-01"
    with pytest.raises(DataError) as info:
        load_aircraft(write(tmp_path, AIRCRAFT_FILE, raw))
    assert info.value.file.endswith(AIRCRAFT_FILE)
    text = str(info.value)
    assert f"{AIRCRAFT_FILE}: [3].speed: Input should be less than or equal to 9" in text
    assert f"{AIRCRAFT_FILE}: [5].defence: unknown defence class 'paper'" in text
    assert f"{AIRCRAFT_FILE}: [7]: in service to 1914-01 is before" in text


def test_a_malformed_deck_is_refused(tmp_path: Path) -> None:
    raw = shipped(DECK_FILE)
    raw["cards"].pop()
    with pytest.raises(
        DataError, match=r"deck\.yaml: cards: the deck is cards 1-110; missing \[110\]"
    ):
        load_deck(write(tmp_path, DECK_FILE, raw))
    raw = shipped(DECK_FILE)
    zoom = next(c for c in raw["cards"] if c["name"] == "Zoom Climb")
    zoom["rating"] = 2
    with pytest.raises(DataError, match=r"Zoom Climb: Maneuver Rating 2, the book gives 3"):
        load_deck(write(tmp_path, DECK_FILE, raw))
    raw = shipped(DECK_FILE)
    jam = next(i for i, c in enumerate(raw["cards"]) if c["fire"] is None)
    raw["cards"][jam]["fire"] = 3
    with pytest.raises(
        DataError,
        match=rf"deck\.yaml: cards\[{jam}\]: a card has both a Fire Value and a damage table",
    ):
        load_deck(write(tmp_path, DECK_FILE, raw))
    raw = shipped(DECK_FILE)
    raw["cards"][0]["damage"]["normal"] = ["structure", "flak"]
    with pytest.raises(
        DataError, match=r"deck\.yaml: cards\[0\]\.damage\.normal: unknown damage kind 'flak'"
    ):
        load_deck(write(tmp_path, DECK_FILE, raw))


def test_a_table_with_a_gap_is_refused(tmp_path: Path) -> None:
    raw = shipped(TABLES_FILE)
    raw["zones"][1]["cards"] = [12, 35]
    with pytest.raises(DataError, match=r"tables\.yaml: .*zones\[1\]: starts at 12: leaves 11-11"):
        load_tables(write(tmp_path, TABLES_FILE, raw))
    raw = shipped(TABLES_FILE)
    raw["random_events"][-1]["cards"] = [101, 111]
    with pytest.raises(
        DataError, match=r"tables\.yaml: random_events\[10\]\.cards: \[101, 111\] is not a range"
    ):
        load_tables(write(tmp_path, TABLES_FILE, raw))


def test_unknown_references_are_refused(tmp_path: Path) -> None:
    scenarios = shipped(SCENARIOS_FILE)
    scenarios[1]["german"]["aircraft"][0]["aircraft"] = "fokker-dr2"
    scenarios[2]["allied"]["leader"] = "ball"
    with pytest.raises(DataError) as info:
        load_components(write(tmp_path, SCENARIOS_FILE, scenarios))
    text = str(info.value)
    assert "scenarios.yaml: [1].german.aircraft[0].aircraft: unknown aircraft 'fokker-dr2'" in text
    assert "[2].allied.leader: unknown leader 'ball'" in text
    (tmp_path / SCENARIOS_FILE).unlink()
    leaders = shipped(LEADERS_FILE)
    leaders[0]["aircraft_by_date"][0]["aircraft"] = "spad-xiii"
    with pytest.raises(DataError, match=r"leaders\.yaml: .*'spad-xiii' is a allied aircraft"):
        load_components(write(tmp_path, LEADERS_FILE, leaders))
    (tmp_path / LEADERS_FILE).unlink()
    tables = shipped(TABLES_FILE)
    tables["engagements"][1]["german"]["choices"].append("fokker-dri")
    with pytest.raises(DataError, match=r"tables\.yaml: .*'fokker-dri' is a cup Scout"):
        load_components(write(tmp_path, TABLES_FILE, tables))


def test_a_scenario_aircraft_must_be_in_service(tmp_path: Path) -> None:
    scenarios = shipped(SCENARIOS_FILE)
    scenarios[5]["allied"]["aircraft"][0]["aircraft"] = "sopwith-snipe"  # June 1917
    with pytest.raises(DataError, match=r"'sopwith-snipe' is not in service in 1917-06"):
        load_components(write(tmp_path, SCENARIOS_FILE, scenarios))


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    for name, loader in ((AIRCRAFT_FILE, load_aircraft), (LEADERS_FILE, load_leaders)):
        raw = shipped(name)
        with pytest.raises(DataError, match=r"duplicate id"):
            loader(write(tmp_path, name, [*raw, raw[0]]))
    raw = shipped(SCENARIOS_FILE)
    with pytest.raises(DataError, match=r"duplicate number 1"):
        load_scenarios(write(tmp_path, SCENARIOS_FILE, [*raw, raw[0]]))


def test_a_pack_must_be_a_directory(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="is a directory"):
        load_components(tmp_path / "nothing.yaml")
