"""The shipped Down in Flames data: it loads, matches the rulebooks, and bad packs fail well.

Printed values are cited as (rulebook, section, line); see data/dif/SOURCES.md.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest
import yaml

from data import DATA_DIR
from engine.dif.campaign_cards import Role
from engine.dif.components import (
    Aircraft,
    BombResult,
    CardKind,
    CardType,
    Deck,
    Ruleset,
    Side,
)
from engine.dif.loader import (
    AIRCRAFT_FILE,
    DECK_FILE,
    ROTL_DECK_FILE,
    DataError,
    load_aircraft,
    load_deck,
    load_decks,
)

K = CardKind


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck()


@pytest.fixture(scope="module")
def rotl_deck() -> Deck:
    return load_rotl_deck()


@pytest.fixture(scope="module")
def planes() -> dict[str, Aircraft]:
    """The fighters: the campaign's bombers have their own tests
    (tests/engine/dif/test_campaign_aircraft.py)."""
    return {k: a for k, a in load_aircraft().items() if a.role is Role.FIGHTER}


def load_rotl_deck(source: Path | str | None = None) -> Deck:
    """The RotL deck file: shipped by default; a directory means its deck-rotl.yaml."""
    path = Path(source) if source is not None else DATA_DIR / "dif"
    return load_deck(path / ROTL_DECK_FILE if path.is_dir() else path)


def types_of(deck: Deck) -> dict[str, CardType]:
    return {card.type.code: card.type for card in deck.cards}


def count(deck: Deck, **want: object) -> int:
    return sum(all(getattr(c.type, k) == v for k, v in want.items()) for c in deck.cards)


# --- every shipped file loads ----------------------------------------------------------


def test_every_shipped_dif_file_has_a_loader_and_loads() -> None:
    loaders = {DECK_FILE: load_deck, ROTL_DECK_FILE: load_rotl_deck, AIRCRAFT_FILE: load_aircraft}
    shipped = {p.name for p in (DATA_DIR / "dif").glob("*.yaml")}
    assert shipped == set(loaders), "a new data file needs a loader and a test"
    for name, loader in loaders.items():
        assert loader(), name
        assert loader(DATA_DIR / "dif" / name) == loader(), "file path and default agree"
        assert loader(DATA_DIR / "dif") == loader(), "directory and default agree"
    decks = load_decks()
    assert decks[Ruleset.ZERO] == load_deck()
    assert decks[Ruleset.ROTL] == load_rotl_deck(), "RotL games use deck-rotl.yaml"


def test_default_loads_are_cached_and_callers_cannot_corrupt_them() -> None:
    assert load_deck() is load_deck()
    mine = load_aircraft()
    mine.pop("a6m2")
    assert "a6m2" in load_aircraft()


def test_loader_imports_no_bot_libraries() -> None:
    code = (
        "import sys, engine.dif.loader; "
        "print(sorted(m for m in ('discord', 'asyncio', 'aiosqlite', 'PIL') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- the deck: Zero! Action Card Distribution Summary, L903-940 ------------------------


def test_deck_has_76_cards_numbered_in_order(deck: Deck) -> None:
    # L11's errata says 74, but the summary (45 + 22 + 9) and both annotation tallies
    # total 76; SOURCES.md records the decision.
    assert len(deck.cards) == 76
    assert [c.id for c in deck.cards] == list(range(76))


def test_attack_cards(deck: Deck) -> None:
    ims = Counter(c.type.code for c in deck.cards if c.type.kind is K.IMS)
    assert ims == {
        "IMS-1B1D": 9,
        "IMS-1B2D": 4,
        "IMS-2B2D": 6,
        "IMS-2B3D": 2,
        "IMS-2BFT": 1,
        "IMS-3B3D": 3,
    }
    assert sum(ims.values()) == 25
    oos = Counter(c.type.code for c in deck.cards if c.type.kind is K.OOS)
    assert oos == {"OOS-1B2D": 1, "OOS-2B3D": 1, "OOS-3B4D": 1}
    assert count(deck, kind=K.MAN) == 15
    assert count(deck, kind=K.HAL) == 2
    red = [c for c in deck.cards if c.type.is_attack and not c.type.is_response]
    assert len(red) == 45


def test_response_and_dual_use_cards(deck: Deck) -> None:
    assert (count(deck, kind=K.ACE), count(deck, kind=K.TIT), count(deck, kind=K.BAR)) == (3, 9, 10)
    blue = [c for c in deck.cards if c.type.is_response and not c.type.is_attack]
    assert len(blue) == 22  # the blue-bordered cards of "Clouds Over the Target" (L1881)
    assert (count(deck, kind=K.VER), count(deck, kind=K.SCI)) == (4, 5)
    white = [c for c in deck.cards if c.type.is_response and c.type.is_attack]
    assert len(white) == 9
    assert count(deck, kind=K.FUT) == 0  # "there is no FULL THROTTLE AC in ZERO!" (L42)


def test_fuel_tank_card_destroys_outright(deck: Deck) -> None:
    (ft,) = [c.type for c in deck.cards if c.type.fuel_tank]
    assert (ft.kind, ft.bursts, ft.damage) == (K.IMS, 2, 0)


RESPONSE_MATRIX = {
    # The lead engineer's reconstruction of the garbled printed matrix (L923-932).
    K.ACE: {K.IMS, K.OOS, K.MAN, K.HAL, K.ACE, K.TIT, K.BAR, K.VER, K.SCI, K.FUT},
    K.TIT: {K.IMS, K.MAN, K.TIT},
    K.BAR: {K.IMS, K.BAR},
    K.VER: {K.IMS, K.OOS, K.VER},
    K.SCI: {K.SCI, K.TIT, K.IMS},
    K.IMS: set(),
    K.OOS: set(),
    K.MAN: set(),
    K.HAL: set(),
}


def test_response_matrix_as_decided(deck: Deck) -> None:
    for card in deck.cards:
        assert card.type.responds_to == RESPONSE_MATRIX[card.type.kind], card.type.code


@pytest.mark.parametrize(
    ("played", "answer", "where"),
    [
        (K.MAN, K.TIT, "Zero! 6.31 L325"),
        (K.TIT, K.TIT, "Zero! 6.31 L325"),
        (K.HAL, K.ACE, "Zero! 6.32 L331"),
        (K.ACE, K.ACE, "Zero! 6.32 L331"),
        (K.SCI, K.SCI, "Zero! 6.35 L345"),
        (K.IMS, K.BAR, "Zero! 8.12 L482"),
        (K.IMS, K.TIT, "Zero! 8.31 L508"),
        (K.TIT, K.SCI, "Zero! 8.43 L534"),
        (K.SCI, K.ACE, "Zero! 8.43 L534"),
        (K.OOS, K.ACE, "Zero! 14.0 L812"),
        (K.IMS, K.SCI, "Zero! 14.0 L798"),
        (K.VER, K.VER, "Zero! 7.23 L435"),
        (K.VER, K.ACE, "Zero! 7.23 L435"),
        (K.OOS, K.VER, "Zero! 19.25 L1247"),
    ],
)
def test_every_response_in_the_examples_is_possible(
    deck: Deck, played: CardKind, answer: CardKind, where: str
) -> None:
    answering = {c.type.kind for c in deck.cards if played in c.type.responds_to}
    assert answer in answering, where


def test_annotation_totals(deck: Deck) -> None:
    assert Counter(c.over_target for c in deck.cards) == {"hit": 43, "miss": 33}
    assert Counter(c.bomb for c in deck.cards) == {
        BombResult.VITAL: 4,
        BombResult.DIRECT: 16,
        BombResult.HIT: 36,
        BombResult.MISS: 20,
    }
    spoiled = [c for c in deck.cards if c.spoiled_attack]
    assert len(spoiled) == 11
    assert sum(c.type.kind is K.IMS for c in spoiled) == 3


def test_annotations_named_in_the_examples_exist(deck: Deck) -> None:
    spoiled = {c.type.code for c in deck.cards if c.spoiled_attack}
    assert "MAN" in spoiled  # Zero! 20.5 example, L1402
    assert "HAL" in spoiled  # Zero! 22 example, L1667
    assert "IMS-2B2D" in spoiled  # Zero! 22 example, L1673
    # The same example draws IMS (1B/2D) cards without the symbol (L1669, L1675).
    assert sum(c.type.code == "IMS-1B2D" and not c.spoiled_attack for c in deck.cards) >= 2


def test_spoiled_attacks_are_on_attack_cards_only(deck: Deck) -> None:
    # Authored reading of "11 Attacks, including 3 IN MY SIGHTS" (L940), see SOURCES.md.
    assert all(c.type.kind in {K.IMS, K.OOS, K.MAN, K.HAL} for c in deck.cards if c.spoiled_attack)


# --- the RotL/8AF deck: authored, the Zero! deck plus Full Throttle cards ---------------


def test_rotl_deck_is_the_zero_deck_plus_four_full_throttle_cards(
    deck: Deck, rotl_deck: Deck
) -> None:
    # RotL prints no deck list (only the names, L10-19); SOURCES.md 1.6 gives the choice.
    assert rotl_deck.id == "rotl"
    assert len(rotl_deck.cards) == 80
    assert [c.id for c in rotl_deck.cards] == list(range(80))
    assert rotl_deck.cards[:76] == deck.cards, "every Zero! card unchanged, same order"
    extra = rotl_deck.cards[76:]
    # "FULL THROTTLE (Expansion Set only, 4 cards)": Zero! Distribution Summary, L934.
    assert [c.type.kind for c in extra] == [K.FUT] * 4
    assert count(rotl_deck, kind=K.FUT) == 4


def test_full_throttle_response_lists(rotl_deck: Deck) -> None:
    (fut,) = {c.type for c in rotl_deck.cards if c.type.kind is K.FUT}
    # L934: "responds to OTS, TT"; RotL L166: a FUT card is answered by a FUT counter,
    # which "has exactly the same effects as a FUT card" (L165).
    assert fut.responds_to == {K.OOS, K.TIT, K.FUT}
    assert fut.is_attack and fut.is_response  # white card, RotL L30
    assert (fut.bursts, fut.damage, fut.fuel_tank) == (0, 0, False)
    answering = {c.type.kind for c in rotl_deck.cards if K.FUT in c.type.responds_to}
    # The printed FT column marks only ACE PILOT (L923-926); ACE "responds to any card
    # or FUT counter" (RotL L166).
    assert answering == {K.ACE, K.FUT}


@pytest.mark.parametrize(
    ("played", "answer", "where"),
    [
        (K.MAN, K.TIT, "RotL L162"),
        (K.TIT, K.TIT, "RotL L162"),
        (K.HAL, K.ACE, "RotL L164"),
        (K.ACE, K.ACE, "RotL L164"),
        (K.FUT, K.FUT, "RotL L166 (FUT counter)"),
        (K.FUT, K.ACE, "RotL L166"),
        (K.SCI, K.SCI, "RotL L168"),
        (K.SCI, K.ACE, "RotL L190, L235"),
        (K.IMS, K.BAR, "RotL L223"),
        (K.IMS, K.TIT, "RotL L228, L252"),
        (K.TIT, K.SCI, "RotL L235, L275"),
        (K.OOS, K.VER, "RotL L409"),
        (K.VER, K.VER, "RotL L409"),
        (K.VER, K.ACE, "RotL L409"),
    ],
)
def test_every_response_in_the_rotl_examples_is_possible(
    rotl_deck: Deck, played: CardKind, answer: CardKind, where: str
) -> None:
    answering = {c.type.kind for c in rotl_deck.cards if played in c.type.responds_to}
    assert answer in answering, where


def test_rotl_deck_annotations(rotl_deck: Deck) -> None:
    extra = rotl_deck.cards[76:]
    # The deck's smooth weighted round-robin restarts after 76 cards (SOURCES.md 1.5).
    assert [(c.bomb.value, c.over_target) for c in extra] == [
        ("hit", "hit"),
        ("miss", "miss"),
        ("direct", "hit"),
        ("hit", "miss"),
    ]
    assert not any(c.spoiled_attack for c in extra)  # white cards carry no symbol
    assert Counter(c.over_target for c in rotl_deck.cards) == {"hit": 45, "miss": 35}
    assert Counter(c.bomb for c in rotl_deck.cards) == {
        BombResult.VITAL: 4,
        BombResult.DIRECT: 17,
        BombResult.HIT: 38,
        BombResult.MISS: 21,
    }
    assert sum(c.spoiled_attack for c in rotl_deck.cards) == 11


# --- aircraft: every value the rulebooks print or imply --------------------------------


ZERO_NATIVE = {"a6m2", "ki-43", "ki-27", "buffalo-i", "f4f", "p-40b", "p-40e", "hurricane-iib"}
"""The fighters of Zero! itself (its text names these types; Ki-27: Burma Target #16, L1855)."""


def test_aircraft_ids_and_rulesets(planes: dict[str, Aircraft]) -> None:
    assert {
        "buffalo-i",
        "ki-43",
        "a6m2",
        "f4f",
        "p-40b",
        "p-40e",
        "hurricane-iib",
        "bf-109e",
        "spitfire-i",
        "bf-110c",
    } <= set(planes)
    assert set(planes) >= ZERO_NATIVE
    for plane in planes.values():
        # RotL L393: Zero!/C&H fighters fly in RotL games. A fighter flies in Zero! games
        # too unless its card uses a rule only RotL has (SOURCES.md 2.1).
        rotl_only = (
            plane.leader.undamaged.heavy_cannon > 0
            or plane.small_target
            or plane.rocket
            or plane.jet
            or plane.methanol
            or plane.very_high_fut
        )
        want = {Ruleset.ROTL} if rotl_only else {Ruleset.ROTL, Ruleset.ZERO}
        assert plane.rulesets == want, plane.id
    for name in ZERO_NATIVE:
        plane = planes[name]
        assert not plane.turbocharged, "Zero! 5.23 bis L215, 5.33 L263: no turbochargers"
        # "None of the Fighters in ZERO! have Machine Guns", Zero! 9.0 L560
        assert plane.leader.undamaged.gunner == 0, name
        assert plane.wingman is not None, name


def test_sides_follow_the_nations(planes: dict[str, Aircraft]) -> None:
    axis = {"Germany", "Italy", "Japan"}
    allied = {"United Kingdom", "United States", "Soviet Union", "France", "Poland"}
    for plane in planes.values():
        assert plane.nation in axis | allied, plane.id
        assert (plane.side is Side.AXIS) == (plane.nation in axis), plane.id
        assert 1934 <= plane.year <= 1945, plane.id


def test_buffalo_i(planes: dict[str, Aircraft]) -> None:
    ldr = planes["buffalo-i"].leader
    assert ldr.undamaged.hand_size == 5  # dealt 5 cards, L762; "hand capacity is five", L786
    assert ldr.undamaged.draw == 1  # "The Buffalo's Performance is 1", L788
    assert ldr.undamaged.bursts == 1  # 1 + 2 MVG = "a total of three", L782
    # 1 hit leaves it undamaged; 1 + 2 = 3 would "flip the Buffalo Leader", L832
    assert ldr.undamaged.damage_capacity == 3
    assert planes["buffalo-i"].wingman is not None
    assert planes["buffalo-i"].wingman.undamaged.offensive == 1  # draws one AC, L812
    assert planes["buffalo-i"].value == 4  # Zero! 13.1 L725


def test_ki_43(planes: dict[str, Aircraft]) -> None:
    ki = planes["ki-43"]
    assert ki.agile  # L798, L832
    assert ki.leader.undamaged.hand_size == 6  # dealt 6 cards, L764
    assert ki.leader.undamaged.draw == 2  # L800, L834
    assert ki.leader.undamaged.bursts == 0  # 6.4 L355, L798
    # "With 4 Damage he would destroy the Ki-43 Leader", L812
    assert ki.leader.undamaged.damage_capacity == 3
    assert ki.leader.damaged.damage_capacity == 4
    assert ki.wingman is not None
    assert ki.wingman.undamaged.defensive == 2  # L780
    assert ki.wingman.damaged.offensive == 1  # drawn while Damaged, L792
    assert ki.wingman.undamaged.damage_capacity == 3  # flipped by 3 damage, L782
    assert ki.wingman.damaged.damage_capacity == 4  # L784
    assert ki.value == 4  # Zero! 13.1 L725


def test_a6m2_zero(planes: dict[str, Aircraft]) -> None:
    zero = planes["a6m2"]
    assert zero.agile  # Zero! 5.26 L229; RotL L128
    assert zero.leader.undamaged.bursts == 1  # Zero! 6.4 L357, 10.62 L680
    assert zero.wingman is not None
    assert zero.wingman.undamaged.offensive == 2  # L656, L668
    wm = zero.wingman.undamaged
    assert wm.offensive + wm.defensive == 4  # vs bombers, 20.13 L1315
    assert wm.defensive == 2
    assert zero.value == 6  # Zero! 13.1 L725


def test_pacific_allies(planes: dict[str, Aircraft]) -> None:
    f4f, p40b = planes["f4f"], planes["p-40b"]
    assert f4f.wingman is not None and f4f.wingman.undamaged.defensive == 2  # L668
    assert f4f.value == 6  # L725
    assert p40b.wingman is not None
    assert p40b.wingman.undamaged.offensive + p40b.wingman.undamaged.defensive == 3  # L1315
    assert planes["p-40e"].value == 6  # L725


def test_hurricane_iib(planes: dict[str, Aircraft]) -> None:
    hurri = planes["hurricane-iib"]
    assert hurri.wingman is not None
    for sides in (hurri.leader, hurri.wingman):  # Zero! 5.21 L186; WM destroyed at 6, L1663
        assert sides.undamaged.damage_capacity == 3
        assert sides.damaged.damage_capacity == 6
    assert hurri.wingman.undamaged.defensive == 2  # two-card mini-hand at Medium, L1663


def test_rotl_fighters(planes: dict[str, Aircraft]) -> None:
    bf109 = planes["bf-109e"].leader
    assert (bf109.undamaged.damage_capacity, bf109.damaged.damage_capacity) == (3, 6)  # RotL L111
    assert planes["bf-110c"].leader.undamaged.gunner == 1  # "his one burst", RotL L252
    values = {i: (planes[i].value, planes[i].leader_only_value) for i in planes}
    assert values["bf-109e"] == (6, 4)  # RotL L348
    assert values["bf-110c"] == (5, 4)  # RotL L352
    assert values["spitfire-i"] == (6, 4)  # RotL L376


def test_damaged_sides_are_never_better(planes: dict[str, Aircraft]) -> None:
    for plane in planes.values():
        und, dam = plane.leader.undamaged, plane.leader.damaged
        assert dam.hand_size <= und.hand_size and dam.draw <= und.draw, plane.id
        assert dam.bursts <= und.bursts, plane.id
        assert (dam.hand_size, dam.draw) != (und.hand_size, und.draw), plane.id
        if plane.wingman is not None:
            wu, wd = plane.wingman.undamaged, plane.wingman.damaged
            assert wd.offensive <= wu.offensive and wd.defensive <= wu.defensive, plane.id


# --- RotL "Point Values for RotL/8AF Fighters", L344-393 --------------------------------

# The table as printed: (Value, LDR Only); None is the table's "–" (no wingman card).
# Two cells print a second number in brackets; the test accepts the reading chosen in
# SOURCES.md 2.4 and names the other.
ROTL_POINT_TABLE: dict[str, tuple[int | None, int]] = {
    # German, L346-360
    "Bf-109E": (6, 4),
    "Bf-109F": (8, 6),
    "Bf-109G": (9, 6),  # printed "9 [8]"
    "Bf-109K": (13, 9),
    "Bf-110C": (5, 4),
    "Bf-110G": (None, 7),
    "Fw-190A": (10, 7),
    "Fw-190D": (10, 7),
    "He-219": (None, 10),
    "Ju-88C": (None, 5),
    "Me-163": (None, 13),
    "Me-262A": (21, 14),
    "Me-410": (9, 6),
    # Soviet, L361-367
    "I-16": (3, 2),
    "MiG-3": (6, 4),
    "P-39D": (6, 4),
    "Yak-3": (8, 6),
    "Yak-9": (6, 4),
    # United Kingdom, L368-379
    "Beaufighter IF": (None, 6),
    "Gladiator": (2, 1),
    "Hurricane I": (5, 4),
    "Hurricane II": (7, 5),
    "Mosquito II": (None, 7),
    "Mosquito VI": (11, 8),
    "Spitfire I": (6, 4),
    "Spitfire V": (8, 5),
    "Spitfire IX": (9, 6),
    "Spitfire XIV": (12, 9),
    # United States, L380-388
    "P-38F": (7, 5),
    "P-38L": (9, 6),
    "P-40": (5, 4),
    "P-47C": (12, 8),
    "P-47D": (13, 9),
    "P-51B": (11, 8),
    "P-51D": (12, 9),
    # Others, L389-392
    "MS-406 (France)": (5, 3),  # printed "3 [4]"
    "P-11c (Poland)": (2, 1),
}
BRACKETED = {"Bf-109G": (8, 6), "MS-406 (France)": (5, 4)}
"""The bracketed alternative of the two cells printed "9 [8]" and "3 [4]" (not used)."""

TABLE_IDS = {
    "Bf-109E": "bf-109e",
    "Bf-109F": "bf-109f",
    "Bf-109G": "bf-109g",
    "Bf-109K": "bf-109k",
    "Bf-110C": "bf-110c",
    "Bf-110G": "bf-110g",
    "Fw-190A": "fw-190a",
    "Fw-190D": "fw-190d",
    "He-219": "he-219",
    "Ju-88C": "ju-88c",
    "Me-163": "me-163",
    "Me-262A": "me-262a",
    "Me-410": "me-410",
    "I-16": "i-16",
    "MiG-3": "mig-3",
    "P-39D": "p-39d",
    "Yak-3": "yak-3",
    "Yak-9": "yak-9",
    "Beaufighter IF": "beaufighter-if",
    "Gladiator": "gladiator",
    "Hurricane I": "hurricane-i",
    "Hurricane II": "hurricane-ii",  # RotL's card, not Zero!'s hurricane-iib (SOURCES.md 2.4)
    "Mosquito II": "mosquito-ii",
    "Mosquito VI": "mosquito-vi",
    "Spitfire I": "spitfire-i",
    "Spitfire V": "spitfire-v",
    "Spitfire IX": "spitfire-ix",
    "Spitfire XIV": "spitfire-xiv",
    "P-38F": "p-38f",
    "P-38L": "p-38l",
    "P-40": "p-40b",  # the same card as Zero!'s P-40B (SOURCES.md 2.4)
    "P-47C": "p-47c",
    "P-47D": "p-47d",
    "P-51B": "p-51b",
    "P-51D": "p-51d",
    "MS-406 (France)": "ms-406",
    "P-11c (Poland)": "p-11c",
}


def test_every_fighter_of_the_rotl_point_table(planes: dict[str, Aircraft]) -> None:
    assert set(TABLE_IDS) == set(ROTL_POINT_TABLE)
    assert len(ROTL_POINT_TABLE) == 37
    for name, (value, leader_only) in ROTL_POINT_TABLE.items():
        plane = planes[TABLE_IDS[name]]
        assert (plane.value, plane.leader_only_value) == (value, leader_only), name
        # "–" in the Value column: the fighter has no wingman card.
        assert (plane.wingman is None) == (value is None), name
        assert Ruleset.ROTL in plane.rulesets, name
        if TABLE_IDS[name] != "p-40b":
            assert plane.name == name.split(" (")[0], name
    for name, (value, leader_only) in BRACKETED.items():
        plane = planes[TABLE_IDS[name]]
        assert (plane.value, plane.leader_only_value) != (value, leader_only), name


def test_zero_printed_values(planes: dict[str, Aircraft]) -> None:
    # Zero! 13.1 L725 (the same figures in RotL's balancing example, L336).
    printed = {"a6m2": 6, "ki-43": 4, "buffalo-i": 4, "p-40e": 6, "f4f": 6}
    for name, value in printed.items():
        assert planes[name].value == value, name
    # Fighters RotL's table does not price carry authored values (SOURCES.md 2.4).
    priced = set(TABLE_IDS.values()) | set(printed)
    authored = {"ki-27", "cr-42", "hurricane-iib", "bf-109g-6-r6", "ta-152h-1"}
    assert set(planes) == priced | authored
    for name in authored:
        assert planes[name].value is not None and planes[name].leader_only_value is not None


# --- special aircraft and attributes ---------------------------------------------------


def test_jets_and_rockets(planes: dict[str, Aircraft]) -> None:
    me262 = planes["me-262a"]
    assert me262.jet and me262.turbocharged  # "Jets always have turbochargers", RotL L133
    assert me262.speed is not None and me262.thrust is not None and me262.thrust >= 1
    assert me262.wingman is not None  # the table prices its element, 21 (L359)
    assert me262.double_vp  # RotL L64-65
    me163 = planes["me-163"]
    assert me163.rocket and me163.wingman is None  # "no WM for rocket fighters", RotL L122
    assert me163.double_vp
    # Rockets hold Full Throttle counters (RotL L203) but have no Thrust: fuel is finite.
    assert me163.speed is not None and not me163.thrust
    assert {p.id for p in planes.values() if p.rocket} == {"me-163"}
    assert {p.id for p in planes.values() if p.jet} == {"me-262a", "me-163"}


def test_methanol_and_the_ta_152(planes: dict[str, Aircraft]) -> None:
    # RotL Special Aircraft, "Bf-109G & Bf-109G-6/R6", L326-329.
    assert {p.id for p in planes.values() if p.methanol} == {"bf-109g", "bf-109g-6-r6"}
    for name in ("bf-109g", "bf-109g-6-r6"):
        assert planes[name].counters_max == 1 and not planes[name].jet
    # RotL Special Aircraft, "Ta-152H-1", L330-332.
    ta = planes["ta-152h-1"]
    assert {p.id for p in planes.values() if p.very_high_fut} == {"ta-152h-1"}
    assert ta.turbocharged  # may begin at Very High (RotL L57), where its rule works
    assert ta.value is not None and ta.wingman is not None


def test_turbochargers(planes: dict[str, Aircraft]) -> None:
    # A "T" for the exhaust-driven turbochargers (P-38, P-47) and jets (RotL L133); the
    # Me-163 because its Speed needs one in the schema; the Ta-152H-1 (see above).
    turbo = {p.id for p in planes.values() if p.turbocharged}
    assert turbo == {"p-38f", "p-38l", "p-47c", "p-47d", "me-262a", "me-163", "ta-152h-1"}


def test_heavy_fighters_without_wingmen(planes: dict[str, Aircraft]) -> None:
    solo = {p.id for p in planes.values() if p.wingman is None}
    assert solo == {"bf-110g", "he-219", "ju-88c", "me-163", "beaufighter-if", "mosquito-ii"}
    for name in solo - {"me-163"}:
        ldr = planes[name].leader.undamaged
        assert ldr.gunner > 0 or ldr.heavy_cannon > 0, name
        assert planes[name].value is None


def test_gunners(planes: dict[str, Aircraft]) -> None:
    # RotL L126: "some aircraft (like the Bf-110) are armed with gunners".
    gunners = {p.id for p in planes.values() if p.leader.undamaged.gunner}
    assert gunners == {"bf-110c", "bf-110g", "ju-88c", "he-219", "me-410"}
    for plane in planes.values():
        assert plane.leader.damaged.gunner == plane.leader.undamaged.gunner, plane.id


def test_heavy_cannon_on_leader_and_wingman(planes: dict[str, Aircraft]) -> None:
    for plane in planes.values():
        und = plane.leader.undamaged.heavy_cannon
        assert plane.leader.damaged.heavy_cannon == und, plane.id
        if plane.wingman is not None:  # the wingman card carries the same "+#" (RotL L145)
            assert plane.wingman.undamaged.heavy_cannon == und, plane.id
            assert plane.wingman.damaged.heavy_cannon == und, plane.id
    assert planes["fw-190a"].leader.undamaged.heavy_cannon >= 1
    assert planes["me-262a"].leader.undamaged.heavy_cannon == 2  # four 30 mm MK 108


def test_ratings_stated_by_rotl_examples(planes: dict[str, Aircraft]) -> None:
    assert planes["p-11c"].leader.undamaged.bursts == 0  # "a Polish P.11c", RotL L172
    assert planes["cr-42"].agile  # "the C.R. 42 is also Agile", RotL L131
    assert planes["gladiator"].agile  # plays an OOS "treated as SCI", RotL L131
    for name in ("hurricane-i", "hurricane-ii", "hurricane-iib"):  # "a Hurricane", L173
        assert planes[name].leader.undamaged.bursts == 1, name
    for name in ("fw-190a", "fw-190d"):  # the Fw-190 WM draws MAN, IMS, SCI: L275
        wingman = planes[name].wingman
        assert wingman is not None and wingman.undamaged.offensive == 3, name
    p38 = planes["p-38f"].wingman  # the P-38F WM draws TIT and IMS to defend: L275
    assert p38 is not None and p38.undamaged.defensive == 2


# --- relative consistency: ratings follow the point values -----------------------------


def rating_sum(plane: Aircraft) -> int:
    """A leader's simple strength: every always-on rating of its undamaged side, one
    point per attribute and per Full Throttle counter (start and per turn). The Ta-152H-1's
    Very High rule is left out: it only works at one altitude."""
    ldr = plane.leader.undamaged
    return (
        ldr.damage_capacity
        + ldr.hand_size
        + ldr.draw
        + ldr.bursts
        + ldr.heavy_cannon
        + ldr.gunner
        + plane.agile
        + plane.turbocharged
        + plane.small_target
        + plane.counters_max
        + (plane.thrust or 0)
    )


def element_sum(plane: Aircraft) -> int:
    assert plane.wingman is not None
    wm = plane.wingman.undamaged
    return rating_sum(plane) + wm.offensive + wm.defensive + wm.heavy_cannon


def test_leaders_rate_in_the_order_of_their_values(planes: dict[str, Aircraft]) -> None:
    # Leader-only values 3 or more apart: the dearer leader rates strictly higher; 2 or
    # more apart: never lower (SOURCES.md 2.2).
    for a in planes.values():
        for b in planes.values():
            gap = (a.leader_only_value or 0) - (b.leader_only_value or 0)
            if gap >= 3:
                assert rating_sum(a) > rating_sum(b), (a.id, b.id)
            if gap >= 2:
                assert rating_sum(a) >= rating_sum(b), (a.id, b.id)


def test_elements_rate_in_the_order_of_their_values(planes: dict[str, Aircraft]) -> None:
    paired = [p for p in planes.values() if p.wingman is not None]
    for a in paired:
        for b in paired:
            if (a.value or 0) - (b.value or 0) >= 3:
                assert element_sum(a) > element_sum(b), (a.id, b.id)


def ratings(plane: Aircraft, *, element: bool = False) -> dict[str, int]:
    """Every rating of the leader card, both sides, and every special ability, weighed
    as SOURCES.md 2.2 weighs them (one point each, Full Throttle counters and Thrust
    by number); for an element, the wingman card's ratings too. Higher is better for
    each. (Double victory points and a rocket's lack of a wingman only ever hurt.)"""
    out: dict[str, int] = {}
    for side, r in (("undamaged", plane.leader.undamaged), ("damaged", plane.leader.damaged)):
        for name in ("damage_capacity", "hand_size", "draw", "bursts", "heavy_cannon", "gunner"):
            out[f"leader {side} {name}"] = getattr(r, name)
    out["agile"] = int(plane.agile)
    out["turbocharged"] = int(plane.turbocharged)
    out["small target"] = int(plane.small_target)
    out["Full Throttle counters"] = plane.counters_max
    out["Thrust"] = plane.thrust or 0
    out["Very High Full Throttle"] = int(plane.very_high_fut)
    out["ceiling"] = int(plane.max_altitude)
    if element:
        assert plane.wingman is not None
        for side, w in (("undamaged", plane.wingman.undamaged), ("damaged", plane.wingman.damaged)):
            for name in ("damage_capacity", "offensive", "defensive", "heavy_cannon"):
                out[f"wingman {side} {name}"] = getattr(w, name)
    return out


def test_no_aircraft_is_worse_on_every_rating_than_a_cheaper_or_equal_one(
    planes: dict[str, Aircraft],
) -> None:
    # Every pair, whatever the gap (SOURCES.md 2.2): a leader (by its leader-only value)
    # or an element (by its value) is never matched or beaten on every rating, and
    # beaten on one, by one that costs as much or less.
    found = []
    for element in (False, True):
        pool = [p for p in planes.values() if p.wingman is not None or not element]
        for a in pool:
            for b in pool:
                va = a.value if element else a.leader_only_value
                vb = b.value if element else b.leader_only_value
                if a is b or va is None or vb is None or va < vb:
                    continue
                ra, rb = ratings(a, element=element), ratings(b, element=element)
                if ra != rb and all(rb[k] >= ra[k] for k in ra):
                    what = "element" if element else "leader"
                    found.append(f"{what} {a.id} ({va}) is outrated by {b.id} ({vb})")
    assert found == [], "\n".join(found)


def test_wingmen_follow_the_value_of_the_wingman(planes: dict[str, Aircraft]) -> None:
    # Offensive + Defensive = (element value - leader-only value) + 2, each at most 3
    # (the largest mini-hand an example draws, RotL L275); SOURCES.md 2.2.
    for plane in planes.values():
        if plane.wingman is None or plane.value is None or plane.leader_only_value is None:
            continue
        wm = plane.wingman.undamaged
        assert max(wm.offensive, wm.defensive) <= 3, plane.id
        worth = plane.value - plane.leader_only_value
        assert wm.offensive + wm.defensive == min(worth + 2, 6), plane.id
        assert plane.wingman.undamaged.damage_capacity == plane.leader.undamaged.damage_capacity
        assert plane.wingman.damaged.damage_capacity == plane.leader.damaged.damage_capacity


def test_later_marks_are_not_worse(planes: dict[str, Aircraft]) -> None:
    lines = [
        ["hurricane-i", "hurricane-ii"],
        ["spitfire-i", "spitfire-v", "spitfire-ix", "spitfire-xiv"],
        ["bf-109e", "bf-109f", "bf-109g", "bf-109k"],
        ["p-38f", "p-38l"],
        ["p-47c", "p-47d"],
        ["p-51b", "p-51d"],
        ["bf-110c", "bf-110g"],
        ["mosquito-ii", "mosquito-vi"],
        ["ki-27", "ki-43"],
        ["p-40b", "p-40e"],
    ]
    for line in lines:
        for older, newer in pairwise(line):
            assert planes[older].year <= planes[newer].year, (older, newer)
            assert rating_sum(planes[older]) <= rating_sum(planes[newer]), (older, newer)


# --- content packs ---------------------------------------------------------------------


def write_pack(tmp_path: Path, aircraft: object = None, deck: object = None) -> Path:
    if aircraft is not None:
        (tmp_path / AIRCRAFT_FILE).write_text(yaml.safe_dump(aircraft), encoding="utf-8")
    if deck is not None:
        (tmp_path / DECK_FILE).write_text(yaml.safe_dump(deck), encoding="utf-8")
    return tmp_path


def shipped_yaml(name: str) -> object:
    return yaml.safe_load((DATA_DIR / "dif" / name).read_text(encoding="utf-8"))


def test_a_valid_content_pack_loads(tmp_path: Path) -> None:
    raw = shipped_yaml(AIRCRAFT_FILE)
    assert isinstance(raw, list)
    extra = dict(raw[0], id="a6m2-custom", name="A6M2 Zero (house rules)", value=7)
    pack = write_pack(tmp_path, aircraft=[*raw, extra], deck=shipped_yaml(DECK_FILE))
    planes = load_aircraft(pack)
    assert planes["a6m2-custom"].value == 7
    assert len(load_deck(pack).cards) == 76


def test_broken_aircraft_names_file_and_field(tmp_path: Path) -> None:
    raw = shipped_yaml(AIRCRAFT_FILE)
    assert isinstance(raw, list)
    raw[3]["leader"]["damaged"]["hand_size"] = 0
    raw[5]["wingman"]["undamaged"]["defensive"] = "two"
    with pytest.raises(DataError) as info:
        load_aircraft(write_pack(tmp_path, aircraft=raw))
    message = str(info.value)
    assert f"{AIRCRAFT_FILE}: [3].leader.damaged.hand_size: " in message
    assert "greater than or equal to 1" in message
    assert f"{AIRCRAFT_FILE}: [5].wingman.undamaged.defensive: " in message
    assert info.value.file.endswith(AIRCRAFT_FILE)
    assert len(info.value.problems) == 2


def test_broken_deck_names_file_and_field(tmp_path: Path) -> None:
    raw = shipped_yaml(DECK_FILE)
    assert isinstance(raw, dict)
    raw["types"][2]["copies"][1]["bomb"] = "splash"
    raw["types"][0]["bursts"] = 0
    with pytest.raises(DataError) as info:
        load_deck(write_pack(tmp_path, deck=raw))
    message = str(info.value)
    assert f"{DECK_FILE}: types[2].copies[1].bomb: Input should be 'vital'" in message
    assert f"{DECK_FILE}: types[0]: IMS cards cost 1 to 3 bursts" in message


def test_duplicate_aircraft_ids_rejected(tmp_path: Path) -> None:
    raw = shipped_yaml(AIRCRAFT_FILE)
    assert isinstance(raw, list)
    where = rf"aircraft\.yaml: \[{len(raw)}\]\.id: duplicate id 'ki-43'"
    with pytest.raises(DataError, match=where):
        load_aircraft(write_pack(tmp_path, aircraft=[*raw, raw[1]]))


def test_duplicate_card_types_rejected(tmp_path: Path) -> None:
    raw = shipped_yaml(DECK_FILE)
    assert isinstance(raw, dict)
    raw["types"].append(raw["types"][0])
    with pytest.raises(DataError, match=r"deck\.yaml: types\[16\]: duplicate card type IMS-1B1D"):
        load_deck(write_pack(tmp_path, deck=raw))


def test_duplicate_yaml_keys_and_bad_yaml_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "twice.yaml"
    bad.write_text("- id: a6m2\n  id: ki-43\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"twice\.yaml: line 2.*duplicate key 'id'"):
        load_aircraft(bad)
    broken = tmp_path / "broken.yaml"
    broken.write_text("id: [zero\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"broken\.yaml: line \d+, column \d+: not valid YAML"):
        load_deck(broken)


def test_missing_pack_file_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"deck\.yaml: cannot read the file"):
        load_deck(tmp_path)


def test_model_rules_hold_for_packs(tmp_path: Path) -> None:
    raw = shipped_yaml(AIRCRAFT_FILE)
    assert isinstance(raw, list)
    raw[0]["rulesets"] = []
    raw[1]["leader_only_value"] = 9
    with pytest.raises(DataError) as info:
        load_aircraft(write_pack(tmp_path, aircraft=raw))
    assert info.value.problems == (
        "[0]: rulesets must name at least one ruleset (rotl, zero)",
        "[1]: leader_only_value 9 exceeds the element value 4",
    )


def test_data_error_survives_pickling() -> None:
    import pickle

    error = pickle.loads(pickle.dumps(DataError("deck.yaml", ["types[0]: bad"])))
    assert (error.file, error.problems, str(error)) == (
        "deck.yaml",
        ("types[0]: bad",),
        "deck.yaml: types[0]: bad",
    )
