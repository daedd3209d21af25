"""The Zero! campaign's light bombers, bombers and patrol aircraft: the shipped data holds
every value the rulebook prints, the schema refuses what the rules exclude (naming file,
entry and field), the fighters load as before, and no dogfight is offered a bomber.

Printed values are cited as (section, line) of the Zero! rulebook; data/dif/SOURCES.md
section 2.5 gives the reasoning for every authored value.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from data import DATA_DIR
from engine.core.errors import SetupError
from engine.dif.campaign_cards import SERVICE_NATION, BombingMode, Role, Service
from engine.dif.components import Aircraft, Ruleset, Side
from engine.dif.game import DifEngine
from engine.dif.loader import AIRCRAFT_FILE, DataError, load_aircraft
from engine.dif.lobbytext import aircraft_lines
from engine.dif.picks import DifOptions
from engine.dif.setup import DifSetup
from engine.dif.system import DifSystem
from strings import Term

NAMED_IN_THE_TEXT = {
    # Zero!'s own text names these campaign aircraft (SOURCES.md 2.5).
    "ki-21": Role.MEDIUM_BOMBER,  # L1649, L1687, L1849
    "ki-30": Role.LIGHT_BOMBER,  # L1649
    "g4m": Role.MEDIUM_BOMBER,  # L1894
    "b5n2": Role.TORPEDO_BOMBER,  # L1239, L2007
    "d3a1": Role.LIGHT_BOMBER,  # L1547, L2007
    "b-17d": Role.HEAVY_BOMBER,  # L1109
    "b-17e": Role.HEAVY_BOMBER,  # L1393, L1521
    "hudson": Role.MEDIUM_BOMBER,  # L1111
    "sbd": Role.LIGHT_BOMBER,  # "Dauntless dive bombers", L2019
}
FROM_HISTORY = {
    # Not named in the text: the campaigns' other types, added from history.
    "ki-48": Role.MEDIUM_BOMBER,
    "h6k": Role.PATROL,
    "tbd": Role.TORPEDO_BOMBER,
    "vildebeest": Role.TORPEDO_BOMBER,
    "b-26": Role.MEDIUM_BOMBER,
    "blenheim-iv": Role.MEDIUM_BOMBER,
    "pby": Role.PATROL,
}

PRINTED: dict[str, dict[str, object]] = {
    # Every value each entry marks `printed`, as the rulebook gives it.
    "ki-21": {
        "role": Role.MEDIUM_BOMBER,  # Bombers (L1849), not the only Heavy, the B-17 (L1105)
        "formation_size": 2,  # Medium Bombers fly in Formations of TWO, 17.22a L1105
        "formation_speed": 5,  # "four Ki-21s (Speed 5)", L1687
        "bombing.undamaged.saturation": 1,  # "Ki-21 #2 draws one Bombing AC", L1671
        "bombing.damaged.saturation": 0,  # "its Damaged Bomb Factor is '0'", L1671
    },
    "ki-30": {
        "role": Role.LIGHT_BOMBER,  # an L/W bombing on its own player turn, L1649, L1665
        "bombing.undamaged.level": 1,  # "draws one Bombing AC (his Bombing Capacity)", L1665
        "wingman.undamaged.defensive": 2,  # two-card mini-hand at Low, L1665, L1669
    },
    "d3a1": {
        "role": Role.LIGHT_BOMBER,  # "against the Light Bomber", L1549
        "leader.undamaged.bursts": 0,  # "the Val has a Number of Bursts of 0", L1549
    },
    "g4m": {
        "role": Role.MEDIUM_BOMBER,  # bombers (L1894), not the B-17 (L1105)
        "formation_size": 2,  # 17.22a L1105
        "land_vp.destroyed": 10,  # "One G4M was destroyed (10 Allied VP)", L1894
        "land_vp.damaged": 5,  # "and one damaged (5 Allied VP)", L1894
        "land_vp.returned": 5,  # "two G4Ms earn 10 additional Japanese VP", L1894
    },
    "sbd": {"role": Role.LIGHT_BOMBER},  # "an L/W of Dauntless dive bombers", L2019
    "b-17d": {
        "role": Role.HEAVY_BOMBER,  # "the B-17 (the only Heavy Bomber in the game)", L1105
        "aircraft_type": "B-17",  # "different MODELS ... such as the B-17D and B-17E", L1109
        "formation_size": 2,  # "in ZERO!, the B-17 ... flies in Formations of two", L1105
    },
    "b-17e": {
        "role": Role.HEAVY_BOMBER,  # L1105
        "aircraft_type": "B-17",  # L1109
        "formation_size": 2,  # L1105
        "formation.undamaged.turret_defensive": 2,  # "its Turret Defensive Rating of '2'", L1402
        "formation.undamaged.turret_support": 1,  # "the Turret Support Rating of the other", L1402
        "bombing.undamaged.saturation": 6,  # "An Undamaged B-17E (Saturation 6)", L1521
        "bombing.norden": True,  # "increased to eight due to its Norden Bombsight", L1521
    },
    "hudson": {
        "role": Role.MEDIUM_BOMBER,  # a Bomber, not a B-17 (L1111, L1105)
        "formation_size": 2,  # 17.22a L1105
    },
}


@pytest.fixture(scope="module")
def planes() -> dict[str, Aircraft]:
    return load_aircraft()


@pytest.fixture(scope="module")
def campaign(planes: dict[str, Aircraft]) -> dict[str, Aircraft]:
    return {k: a for k, a in planes.items() if a.role is not Role.FIGHTER}


def resolve(plane: Aircraft, path: str) -> object:
    value: object = plane
    for part in path.split("."):
        value = getattr(value, part)
    return value


# --- what is shipped ---------------------------------------------------------------


def test_every_campaign_aircraft_is_shipped_with_its_role(campaign: dict[str, Aircraft]) -> None:
    want = {**NAMED_IN_THE_TEXT, **FROM_HISTORY}
    assert {k: a.role for k, a in campaign.items()} == want


def test_every_printed_value(campaign: dict[str, Aircraft]) -> None:
    for ident, plane in campaign.items():
        values = PRINTED.get(ident, {})
        # Nothing is marked printed that this test does not check against the book.
        assert plane.printed == set(values), ident
        for path, value in values.items():
            assert resolve(plane, path) == value, (ident, path)


def test_example_values_within_the_bounds_the_examples_set(planes: dict[str, Aircraft]) -> None:
    b17e = planes["b-17e"].formation
    assert b17e is not None
    # Not Damaged with 7 Damage; Damaged by 3 more, "10 Damage total" (L1393, L1406).
    assert 7 < b17e.undamaged.damage_capacity <= 10
    ki21 = planes["ki-21"].formation
    assert ki21 is not None
    # 4 Damage leaves Ki-21 #2 undamaged, 6 flips #1 and then #2 (L1653, L1657, L1675);
    # #1, Damaged at 6, survives until 10 destroys it (L1675).
    assert 4 < ki21.undamaged.damage_capacity <= 6
    assert 6 < ki21.damaged.damage_capacity <= 10


def test_the_worked_examples_add_up(planes: dict[str, Aircraft]) -> None:
    b17e = planes["b-17e"]
    assert b17e.formation is not None and b17e.bombing is not None
    # The attacked B-17 draws its Turret Defensive plus the other's Turret Support (L1402).
    both = b17e.formation.undamaged
    assert both.turret_defensive + both.turret_support == 3
    norden = 2 if b17e.bombing.norden else 0  # 18.32 L1191
    assert b17e.bombing.undamaged.saturation + norden == 8  # L1521
    # Malaya Target #11, 9 / 8 base turns, four Ki-21s: 4 and 3 turns (L1687).
    assert (9 - planes["ki-21"].mission_speed, 8 - planes["ki-21"].mission_speed) == (4, 3)
    # Every fighter and light bomber counts 6 (23.24 L1717).
    for plane in planes.values():
        if plane.role.element:
            assert plane.mission_speed == 6, plane.id
    # Four G4Ms: one destroyed and one damaged give the Allies 15, two back give 10 (L1894).
    g4m = planes["g4m"].land_vp
    assert g4m is not None
    assert (g4m.destroyed + g4m.damaged, 2 * g4m.returned) == (15, 10)


def test_light_bombers_fly_as_elements_with_machine_guns(campaign: dict[str, Aircraft]) -> None:
    for plane in campaign.values():
        if not plane.role.light_bomber:
            continue
        assert plane.leader is not None and plane.wingman is not None, plane.id  # 16.11
        assert plane.formation is None and plane.formation_speed is None, plane.id
        for side in (plane.leader.undamaged, plane.leader.damaged):
            assert side.gunner >= 1, plane.id  # "all Light Bombers do", 9.0 L560
        assert plane.bombing is not None
        if plane.role is Role.TORPEDO_BOMBER:
            assert plane.bombing.torpedo, plane.id  # 17.14 L1072
        else:
            assert plane.bombing.modes <= {BombingMode.LEVEL, BombingMode.DIVE}, plane.id
    assert campaign["d3a1"].bombing is not None and campaign["sbd"].bombing is not None
    assert campaign["d3a1"].bombing.modes == {BombingMode.DIVE}  # "Dive Bombed", L1547
    assert campaign["sbd"].bombing.modes == {BombingMode.DIVE}  # "dive bombers", L2019


def test_aircraft_in_formation(campaign: dict[str, Aircraft]) -> None:
    for plane in campaign.values():
        if not plane.role.in_formation:
            continue
        assert plane.leader is None and plane.wingman is None, plane.id  # 16.11
        assert plane.formation is not None and plane.formation_speed is not None, plane.id
        # Slower than the fighters and light bombers (6, L1717).
        assert plane.formation_speed < 6, plane.id
        if plane.role is Role.PATROL:
            assert plane.formation_size == 1, plane.id  # 17.31 L1147
        elif plane.role is Role.MEDIUM_BOMBER:
            assert plane.formation_size == 2, plane.id  # 17.22a L1105
        # A Damaged bomber leaves its Formation (17.28 L1139): its support is never drawn.
        assert plane.formation.damaged.turret_support == 0, plane.id
    for plane in campaign.values():
        if plane.role is Role.HEAVY_BOMBER:
            assert plane.bombing is not None and plane.bombing.norden, plane.id  # 18.31 L1187
            assert plane.type_name == "B-17"  # the only Heavy Bomber in the game, L1105


def test_damaged_sides_are_never_better(campaign: dict[str, Aircraft]) -> None:
    for plane in campaign.values():
        if plane.formation is not None:
            und, dam = plane.formation.undamaged, plane.formation.damaged
            assert dam.turret_defensive <= und.turret_defensive, plane.id
            assert dam.turret_support <= und.turret_support, plane.id
        if plane.leader is not None and plane.wingman is not None:
            lu, ld = plane.leader.undamaged, plane.leader.damaged
            assert (ld.hand_size, ld.draw, ld.bursts) <= (lu.hand_size, lu.draw, lu.bursts)
            assert ld.hand_size < lu.hand_size, plane.id
            wu, wd = plane.wingman.undamaged, plane.wingman.damaged
            assert wd.offensive <= wu.offensive and wd.defensive <= wu.defensive, plane.id
        if plane.bombing is not None and plane.role.in_formation:
            for mode in plane.bombing.undamaged.modes:
                und_f = getattr(plane.bombing.undamaged, mode.value)
                dam_f = getattr(plane.bombing.damaged, mode.value)
                # 17.27 L1135: fewer bombs on the Damaged side (the Ki-21's 1 -> 0, L1671).
                assert dam_f == und_f // 2, (plane.id, mode)


def test_light_bombers_manoeuvre_less_well_than_the_fighters(
    planes: dict[str, Aircraft],
) -> None:
    # "Light Bombers can attempt to turn, climb, and dive ... (though not as well as
    # Fighters)" (17.21 L1099): every Zero! fighter holds a bigger hand and draws as much.
    zero_fighters = ["a6m2", "ki-43", "ki-27", "buffalo-i", "f4f", "p-40b", "p-40e"]
    fighter_hand = min(planes[f].leader_card.undamaged.hand_size for f in zero_fighters)
    fighter_draw = min(planes[f].leader_card.undamaged.draw for f in zero_fighters)
    for plane in planes.values():
        if plane.role.light_bomber:
            assert plane.leader_card.undamaged.hand_size < fighter_hand, plane.id
            assert plane.leader_card.undamaged.draw <= fighter_draw, plane.id
            assert not plane.agile, plane.id


def test_history_nation_service_year(campaign: dict[str, Aircraft]) -> None:
    for plane in campaign.values():
        assert plane.service is not None and SERVICE_NATION[plane.service] == plane.nation
        assert (plane.side is Side.AXIS) == (plane.nation == "Japan"), plane.id
        # In service by the campaigns (December 1941 - June 1942).
        assert 1933 <= plane.year <= 1941, plane.id
        assert plane.rulesets == {Ruleset.ZERO}, plane.id
        assert plane.crew is not None and plane.crew >= 2, plane.id
    services = {k: a.service for k, a in campaign.items()}
    assert services["ki-21"] is services["ki-30"] is services["ki-48"] is Service.IJA
    assert services["g4m"] is services["b5n2"] is services["d3a1"] is Service.IJN
    assert services["b-17d"] is services["b-17e"] is services["b-26"] is Service.USAAF
    assert services["sbd"] is services["tbd"] is services["pby"] is Service.USN
    assert planes_older_first(campaign, "b-17d", "b-17e")


def planes_older_first(campaign: dict[str, Aircraft], older: str, newer: str) -> bool:
    """The later model is not worse: the B-17E's turrets and capacities hold the D's."""
    a, b = campaign[older].formation, campaign[newer].formation
    assert a is not None and b is not None
    return campaign[older].year <= campaign[newer].year and all(
        getattr(b.undamaged, f) >= getattr(a.undamaged, f)
        for f in ("damage_capacity", "turret_defensive", "turret_support")
    )


def test_each_role_scores_the_same_land_vp(campaign: dict[str, Aircraft]) -> None:
    # One Awards table by kind of aircraft (24.32 L1819); light bombers score more than
    # fighters' 5 destroyed (17.13c L1066, L1894); patrol aircraft as medium bombers (17.32).
    by_role: dict[Role, set[tuple[int, int, int]]] = {}
    for plane in campaign.values():
        assert plane.land_vp is not None
        vp = plane.land_vp
        by_role.setdefault(plane.role, set()).add((vp.destroyed, vp.damaged, vp.returned))
    assert all(len(awards) == 1 for awards in by_role.values()), by_role
    table = {role: awards.pop() for role, awards in by_role.items()}
    assert table[Role.MEDIUM_BOMBER] == (10, 5, 5)
    assert table[Role.PATROL] == table[Role.MEDIUM_BOMBER]
    assert table[Role.LIGHT_BOMBER] == table[Role.TORPEDO_BOMBER]
    assert table[Role.LIGHT_BOMBER][0] > 5
    assert table[Role.HEAVY_BOMBER][0] > table[Role.MEDIUM_BOMBER][0]


# --- the fighters load as before ----------------------------------------------------

NEW_FIELDS = {
    "role",
    "service",
    "aircraft_type",
    "formation",
    "formation_size",
    "formation_speed",
    "bombing",
    "crew",
    "land_vp",
    "printed",
}


def shipped_yaml() -> list[dict[str, Any]]:
    raw = yaml.safe_load((DATA_DIR / "dif" / AIRCRAFT_FILE).read_text(encoding="utf-8"))
    assert isinstance(raw, list)
    return raw


def test_the_fighters_need_none_of_the_campaign_fields(planes: dict[str, Aircraft]) -> None:
    fighters = [e for e in shipped_yaml() if e.get("role", "fighter") == "fighter"]
    assert len(fighters) == 47
    for entry in fighters:
        assert not set(entry) & NEW_FIELDS, entry["id"]
        plane = planes[entry["id"]]
        assert plane.role is Role.FIGHTER and plane.leader is not None, plane.id
        assert (plane.service, plane.formation, plane.bombing, plane.land_vp) == (None,) * 4
        assert (plane.crew, plane.formation_size, plane.formation_speed) == (None,) * 3
        assert plane.printed == frozenset() and plane.type_name == plane.name
    # The campaign entries follow the fighters, so every index a test uses is unmoved.
    roles = [e.get("role", "fighter") for e in shipped_yaml()]
    assert roles[:47] == ["fighter"] * 47 and "fighter" not in roles[47:]


@pytest.mark.parametrize(
    ("ident", "leader", "wingman", "extra"),
    [
        (
            "a6m2",
            ((3, 6, 2, 1, 0), (5, 5, 1, 1, 0)),
            ((3, 2, 2), (5, 1, 1)),
            {"value": 6, "leader_only_value": 4, "agile": True, "year": 1940},
        ),
        (
            "buffalo-i",
            ((3, 5, 1, 1, 0), (5, 4, 1, 1, 0)),
            ((3, 1, 2), (5, 1, 1)),
            {"value": 4, "leader_only_value": 3, "agile": False, "year": 1941},
        ),
        (
            "hurricane-iib",
            ((3, 6, 2, 1, 0), (6, 5, 1, 1, 0)),
            ((3, 2, 2), (6, 1, 1)),
            {"value": 6, "leader_only_value": 4, "nation": "United Kingdom"},
        ),
        (
            "bf-110c",
            ((4, 4, 2, 2, 1), (7, 3, 1, 1, 1)),
            ((4, 2, 1), (7, 1, 1)),
            {"value": 5, "leader_only_value": 4, "rulesets": {Ruleset.ROTL, Ruleset.ZERO}},
        ),
        (
            "me-262a",
            ((4, 6, 3, 2, 0), (7, 5, 2, 1, 0)),
            ((4, 3, 3), (7, 2, 2)),
            {"value": 21, "speed": 3, "thrust": 1, "turbocharged": True},
        ),
    ],
)
def test_known_fighters_are_unchanged(
    planes: dict[str, Aircraft],
    ident: str,
    leader: tuple[tuple[int, ...], ...],
    wingman: tuple[tuple[int, ...], ...],
    extra: dict[str, object],
) -> None:
    plane = planes[ident]
    card = plane.leader_card
    assert (
        tuple(
            (s.damage_capacity, s.hand_size, s.draw, s.bursts, s.gunner)
            for s in (card.undamaged, card.damaged)
        )
        == leader
    )
    assert plane.wingman is not None
    assert (
        tuple(
            (s.damage_capacity, s.offensive, s.defensive)
            for s in (plane.wingman.undamaged, plane.wingman.damaged)
        )
        == wingman
    )
    for name, value in extra.items():
        assert getattr(plane, name) == value, name


# --- a pack with an inconsistent campaign aircraft is refused ------------------------


def entry(raw: list[dict[str, Any]], ident: str) -> tuple[int, dict[str, Any]]:
    index = next(i for i, e in enumerate(raw) if e["id"] == ident)
    return index, raw[index]


Edit = Callable[[dict[str, Any]], None]


def _drop(key: str) -> Edit:
    return lambda e: e.pop(key)


def _set(**values: object) -> Edit:
    return lambda e: e.update(values)


def _nested(path: str, value: object) -> Edit:
    def edit(e: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target = e
        for part in parents:
            target = target[part]
        if value is None:
            target.pop(last)
        else:
            target[last] = value

    return edit


REFUSALS: list[tuple[str, Edit, str, str]] = [
    # (aircraft, the edit, the field named, what the message says)
    ("b-17e", _drop("formation"), "formation", "a heavy bomber needs its formation ratings"),
    (
        "b-17e",
        _nested("formation.undamaged.turret_defensive", None),
        "formation.undamaged.turret_defensive",
        "Field required",
    ),
    ("b-17e", _set(rulesets=["rotl", "zero"]), "formation_size", "Formations of 3"),
    ("b-17e", _nested("bombing.undamaged", {"level": 2}), "bombing", "same modes"),
    ("b-17e", _nested("bombing.damaged.saturation", 7), "bombing", "exceeds undamaged 6"),
    ("b-17e", _set(agile=True), "", "agile: a heavy bomber is never positioned"),
    ("b-17e", _set(printed=["formation.undamaged.turrets"]), "", "printed: 'formation."),
    ("ki-21", _set(formation_size=3), "formation_size", "Formations of 2, not 3"),
    ("ki-21", _drop("formation_speed"), "formation_speed", "Formation Speed Factor"),
    ("ki-21", _set(service="RAF"), "service", "RAF is a service of United Kingdom"),
    ("ki-21", _drop("service"), "service", "names its service"),
    ("ki-21", _drop("land_vp"), "land_vp", "Land Campaign VP"),
    (
        "ki-21",
        _set(
            leader={
                "undamaged": {"damage_capacity": 6, "hand_size": 1, "draw": 1, "bursts": 0},
                "damaged": {"damage_capacity": 10, "hand_size": 1, "draw": 1, "bursts": 0},
            }
        ),
        "leader",
        "a medium bomber has no leader card",
    ),
    ("ki-21", _nested("bombing.undamaged", {"dive": 1}), "bombing", "same modes"),
    ("h6k", _nested("formation.undamaged.turret_support", 1), "formation", "flies alone"),
    ("h6k", _set(formation_size=2), "formation_size", "Formations of 1"),
    ("d3a1", _nested("leader.undamaged.gunner", 0), "leader", "machine guns"),
    ("d3a1", _drop("wingman"), "wingman", "a light bomber has a wingman card"),
    ("d3a1", _set(formation_speed=5), "formation_speed", "no Formation Speed"),
    ("d3a1", _set(crew=1), "crew", "crew 2 or more"),
    (
        "d3a1",
        _set(bombing={"undamaged": {"saturation": 2}, "damaged": {"saturation": 1}}),
        "bombing",
        "a light bomber bombs by dive, level only, not saturation",
    ),
    ("b5n2", _nested("bombing.torpedo", False), "bombing", "'Torpedo' on its card"),
    (
        "sbd",
        _set(bombing={"norden": True, "undamaged": {"dive": 1}, "damaged": {"dive": 1}}),
        "bombing",
        "Norden",
    ),
    (
        "a6m2",
        _set(land_vp={"destroyed": 5, "damaged": 2, "returned": 5}),
        "land_vp",
        "only bombers",
    ),
    ("a6m2", _set(role="heavy_bomber"), "leader", "a heavy bomber has no leader card"),
]


@pytest.mark.parametrize(("ident", "edit", "field", "says"), REFUSALS)
def test_an_inconsistent_aircraft_is_refused_naming_file_entry_and_field(
    tmp_path: Path, ident: str, edit: Edit, field: str, says: str
) -> None:
    raw = shipped_yaml()
    index, target = entry(raw, ident)
    edit(target)
    (tmp_path / AIRCRAFT_FILE).write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_aircraft(tmp_path)
    where = f"[{index}].{field}: " if field else f"[{index}]: "
    lines = [p for p in info.value.problems if p.startswith(where)]
    assert lines, info.value.problems
    assert any(says in line for line in lines), lines
    assert f"{AIRCRAFT_FILE}: {lines[0]}" in str(info.value)  # "<dir>/aircraft.yaml: [50]..."
    assert info.value.file.endswith(AIRCRAFT_FILE)


def test_a_consistent_campaign_pack_loads(tmp_path: Path) -> None:
    raw = shipped_yaml()
    _, b17 = entry(raw, "b-17e")
    # A heavy bomber of both games flies in threes (17.22a L1105).
    raw.append(dict(b17, id="b-17e-rotl", rulesets=["rotl", "zero"], formation_size=3))
    (tmp_path / AIRCRAFT_FILE).write_text(yaml.safe_dump(raw), encoding="utf-8")
    assert load_aircraft(tmp_path)["b-17e-rotl"].formation_size == 3


# --- no dogfight is offered a bomber ------------------------------------------------


def test_no_dogfight_offers_a_campaign_aircraft(engine: DifEngine) -> None:
    system = DifSystem(engine)
    campaign = {a.id for a in engine.aircraft.values() if a.role is not Role.FIGHTER}
    assert len(campaign) == 16
    for ruleset in Ruleset:
        for year in (1939, 1941, 1942, 1945):
            options = DifOptions(ruleset=ruleset, year=year)
            for side in (None, "allied", "axis"):
                offered = {c.id for c in system.aircraft_choices(options, side)}
                assert offered and not offered & campaign, (ruleset, year, side)
            listed = "\n".join(aircraft_lines(engine, options, "en"))
            assert all(f"`{ident}`" not in listed for ident in campaign), listed
            for ident in campaign:
                why = system.aircraft_refusal(options, None, ident)
                assert why == Term("dif.refuse.not_a_fighter", aircraft=engine.aircraft[ident].name)
    # The catalogue still knows them, so a player who names one is told why.
    assert campaign <= {c.id for c in system.aircraft_catalogue()}


def test_a_dogfight_with_a_bomber_does_not_start(engine: DifEngine) -> None:
    setup = DifSetup.model_validate(
        {
            "ruleset": "zero",
            "year": 1942,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": "sbd"},
                {"seat": "X1", "side": "axis", "aircraft": "a6m2"},
            ],
        }
    )
    why = engine.element_refusal(setup.ruleset, setup.year, setup.elements[0])
    assert why == Term("dif.refuse.not_a_fighter", aircraft="SBD Dauntless")
    with pytest.raises(SetupError, match="SBD Dauntless is not a fighter"):
        engine.new_game(setup, seed=1)
