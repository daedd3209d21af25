"""Scenarios from content packs (Eagles in the Sky, ``eagles.scenarios``): validated by
the built-in file's model, cross-checked against the aircraft and leaders of the system
built with the packs, offered by the lobby of that system only, and refused, naming the
file, the entry and the field, when they do not fit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from engine.core import registry
from engine.core.dataload import DataError, read_shipped
from engine.core.packs import Pack, read_pack
from engine.eagles.loader import load_scenarios
from engine.eagles.lobby import EaglesOptions

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example-pack.yaml"

SCENARIO = """\
    - number: {number}
      {extra}name: {name}
      date: May, 1918
      month: 1918-05
      type: patrol
      altitude: medium
      zone: no_mans_land
      initiative: allied
      rules: [{rules}]
      allied:
        aircraft: [{{aircraft: {allied}, count: {count}}}]
        leader: {leader}
      german:
        aircraft: [{{aircraft: fokker-dri, count: 2}}]
"""


def scenario(
    number: int = 9,
    name: str = "House Patrol",
    *,
    allied: str = "se5a",
    count: int = 2,
    leader: str = "mccudden",
    rules: str = "",
    override: bool = False,
) -> str:
    """One scenario entry: Allied ``count`` x ``allied`` led by ``leader`` against two
    Fokker Dr.I in May 1918."""
    return SCENARIO.format(
        number=number,
        name=name,
        allied=allied,
        count=count,
        leader=leader,
        rules=rules,
        extra="override: true\n      " if override else "",
    )


def eagles_pack(*scenarios: str, name: str = "house-scenarios", aircraft: str = "") -> bytes:
    head = f"pack: {name}\nprovenance: Authored for a test.\neagles:\n"
    body = f"  aircraft:\n{aircraft}" if aircraft else ""
    return (head + body + "  scenarios:\n" + "".join(scenarios)).encode()


def read(data: bytes, file: str = "pack.yaml") -> Pack:
    return read_pack(file, data, registry.content_kinds())


def built(*packs: Pack) -> Any:
    return registry.with_content("eagles", list(packs))


def refused(*packs: Pack) -> str:
    with pytest.raises(DataError) as caught:
        built(*packs)
    return str(caught.value)


def test_a_pack_scenario_is_added_after_the_books_and_offered_by_its_system_only() -> None:
    system = built(read(eagles_pack(scenario())))
    assert list(system.components.scenarios) == [*load_scenarios(), 9]
    assert system.components.scenarios[9].allied.leader == "mccudden"
    (field,) = [f for f in system.presenter().option_fields() if f.name == "scenario"]
    assert field.choices[-1] == "9 House Patrol"
    assert system.options_model.model_validate({"scenario": "9 House Patrol"}).scenario == 9
    assert system.options_model.model_validate({"scenario": "house"}).scenario == 9
    # The built-in system neither offers nor accepts it.
    plain = registry.get("eagles")
    (field,) = [f for f in plain.presenter().option_fields() if f.name == "scenario"]  # type: ignore[attr-defined]
    assert "9 House Patrol" not in field.choices
    with pytest.raises(ValidationError, match="is not a scenario"):
        plain.options_model.model_validate({"scenario": 9})
    with pytest.raises(ValidationError, match="is not a scenario"):
        EaglesOptions.model_validate({"scenario": "house"})


def test_a_scenario_flies_the_packs_own_aircraft_and_sets_up_a_game() -> None:
    system = built(read(EXAMPLE.read_bytes(), "example-pack.yaml"))
    options = system.options_model.model_validate({"scenario": "9"})
    assert [s.id for s in system.lobby_sides(options)] == ["allied", "german"]
    assert [c.id for c in system.aircraft_choices(options, "allied")] == ["se5b"]
    setup = system.setup_from_lobby(options, [])
    assert setup.scenario == 9
    assert [p.aircraft for p in setup.allied.planes] == ["se5b", "se5b"]
    assert [p.leader for p in setup.allied.planes].count("mccudden") == 1


def test_a_built_in_scenario_is_replaced_only_with_override() -> None:
    text = refused(read(eagles_pack(scenario(3))))
    assert "pack.yaml: eagles.scenarios[0].number: 3 is already in the built-in data; " in text
    assert "add 'override: true' to the entry to replace it" in text
    system = built(read(eagles_pack(scenario(3, "Udet Again", override=True))))
    assert system.components.scenarios[3].name == "Udet Again"
    assert list(system.components.scenarios) == list(load_scenarios())
    assert "overrides nothing" in refused(read(eagles_pack(scenario(12, override=True))))


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            scenario(allied="se5x"),
            "pack.yaml: eagles.scenarios[0].allied.aircraft[0].aircraft: unknown aircraft "
            "'se5x' (not in aircraft.yaml or a pack)",
        ),
        (
            scenario(allied="fokker-dvii"),
            "eagles.scenarios[0].allied.aircraft[0].aircraft: 'fokker-dvii' is a german "
            "aircraft, not allied",
        ),
        (
            scenario(allied="sopwith-camel").replace("1918-05", "1916-05"),
            "eagles.scenarios[0].allied.aircraft[0].aircraft: 'sopwith-camel' is not in "
            "service in 1916-05",
        ),
        (
            scenario(leader="richthofen"),
            "eagles.scenarios[0].allied.leader: 'richthofen' is not allied",
        ),
        (
            scenario(leader="nobody"),
            "eagles.scenarios[0].allied.leader: unknown leader 'nobody'",
        ),
    ],
    ids=["unknown-aircraft", "wrong-side", "out-of-service", "enemy-leader", "unknown-leader"],
)
def test_a_scenario_is_cross_checked_against_the_system_built_with_the_packs(
    entry: str, message: str
) -> None:
    assert message in refused(read(eagles_pack(entry)))


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (scenario(count=7), "eagles.scenarios[0].allied.aircraft[0].count: Input should be less"),
        (
            scenario(count=4).replace("count: 4}", "count: 4}, {aircraft: spad-xiii, count: 3}"),
            "eagles.scenarios[0].allied: 7 aircraft, more than the 6 a side flies (§3.53)",
        ),
        (scenario(number=100), "eagles.scenarios[0].number: Input should be less than or equal"),
        (scenario(rules="solitaire"), "eagles.scenarios[0]: solitaire: the rules play only"),
        (
            scenario(rules="ends_when_balloon_grounded"),
            "eagles.scenarios[0]: ends_when_balloon_grounded needs a balloon",
        ),
        (scenario(rules="dogfight_to_the_death"), "eagles.scenarios[0].rules[0]: "),
        (scenario(name="'@everyone'"), "eagles.scenarios[0].name: '@' is not allowed"),
    ],
    ids=[
        "count",
        "more-than-six",
        "number",
        "solitaire-with-aircraft",
        "grounded-without-balloon",
        "unknown-rule",
        "mention",
    ],
)
def test_a_scenario_is_validated_by_the_built_in_model(entry: str, message: str) -> None:
    with pytest.raises(DataError) as caught:
        built(read(eagles_pack(entry)))
    assert message in str(caught.value)


def test_six_aircraft_a_side_are_allowed() -> None:
    entry = scenario(count=4).replace("count: 4}", "count: 4}, {aircraft: spad-xiii, count: 2}")
    system = built(read(eagles_pack(entry)))
    assert system.components.scenarios[9].allied.aircraft_count == 6


def override(aircraft: str, **changes: Any) -> str:
    """A built-in Eagles aircraft as a pack entry replacing it, with ``changes``."""
    (entry,) = [
        a for a in yaml.safe_load(read_shipped("eagles", "aircraft.yaml")) if a["id"] == aircraft
    ]
    entry = {**entry, **changes, "override": True}
    return "    - " + yaml.safe_dump(entry, default_flow_style=True, width=1000)


def test_an_aircraft_override_that_breaks_a_scenario_names_the_scenario() -> None:
    """A built-in scenario is named by its number, an earlier pack's by the pack and
    its entry, the file being the pack that broke it."""
    no_bombs = eagles_pack(
        aircraft=override("halberstadt-clii", bombs=0, light_bombs=False)
    ).replace(b"  scenarios:\n", b"")
    text = refused(read(no_bombs, "no-bombs.yaml"))
    assert (
        "no-bombs.yaml: built-in scenario 8.german.aircraft[2].bombs: 'halberstadt-clii' "
        "has no bombs"
    ) in text
    first = read(EXAMPLE.read_bytes(), "example-pack.yaml")
    retired = eagles_pack(aircraft=override_pack_plane(first), name="retired").replace(
        b"  scenarios:\n", b""
    )
    text = refused(first, read(retired, "retired.yaml"))
    assert (
        "retired.yaml: pack 'what-if-fighters' eagles.scenarios[0].allied.aircraft[0].aircraft: "
        "'se5b' is not in service in 1918-05"
    ) in text


def override_pack_plane(pack: Pack) -> str:
    """The example pack's SE5b replaced by one in service from June 1918 only."""
    (entry,) = pack.entries("eagles", "aircraft")
    fields = {**entry.fields, "in_service_from": "1918-06", "override": True}
    return "    - " + yaml.safe_dump(fields, default_flow_style=True, width=1000)
