"""The shipped Down in Flames data: it loads, matches the rulebooks, and bad packs fail well.

Printed values are cited as (rulebook, section, line); see data/dif/SOURCES.md.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

from data import DATA_DIR
from engine.dif.components import (
    Aircraft,
    BombResult,
    CardKind,
    CardType,
    Deck,
    Ruleset,
)
from engine.dif.loader import AIRCRAFT_FILE, DECK_FILE, DataError, load_aircraft, load_deck

K = CardKind


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck()


@pytest.fixture(scope="module")
def planes() -> dict[str, Aircraft]:
    return load_aircraft()


def types_of(deck: Deck) -> dict[str, CardType]:
    return {card.type.code: card.type for card in deck.cards}


def count(deck: Deck, **want: object) -> int:
    return sum(all(getattr(c.type, k) == v for k, v in want.items()) for c in deck.cards)


# --- every shipped file loads ----------------------------------------------------------


def test_every_shipped_dif_file_has_a_loader_and_loads() -> None:
    loaders = {DECK_FILE: load_deck, AIRCRAFT_FILE: load_aircraft}
    shipped = {p.name for p in (DATA_DIR / "dif").glob("*.yaml")}
    assert shipped == set(loaders), "a new data file needs a loader and a test"
    for name, loader in loaders.items():
        assert loader(), name
        assert loader(DATA_DIR / "dif" / name) == loader(), "file path and default agree"
        assert loader(DATA_DIR / "dif") == loader(), "directory and default agree"


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


# --- aircraft: every value the rulebooks print or imply --------------------------------


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
    for plane in planes.values():
        # RotL L393: Zero!/C&H fighters fly in RotL games with their printed values.
        assert plane.rulesets == {Ruleset.ROTL, Ruleset.ZERO}, plane.id
        assert not plane.turbocharged, "Zero! 5.23 bis L215, 5.33 L263: no turbochargers"
        assert plane.leader.undamaged.gunner == 0 or plane.id == "bf-110c"


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
    with pytest.raises(DataError, match=r"aircraft\.yaml: \[10\]\.id: duplicate id 'ki-43'"):
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
