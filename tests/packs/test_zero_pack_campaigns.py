"""Zero! campaigns from content packs (``dif.campaigns``, ``dif.targets``): validated by
the shipped sheets' models, keyed by id, cross-checked against the Target Sheets, the
Options Sheet and the aircraft built with the same packs, and refused, naming the file,
the entry and the field, when they do not fit; a campaign created from one through
Discord flies the pack's aircraft in its mission game and verifies after the pack
changed and was removed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot import packs as packs_module
from bot.testing import FakeDiscord
from bot.testing.campaigns import CampaignDriver
from cogs.app import TallyHoBot
from data import DATA_DIR
from engine.core import registry
from engine.core.dataload import DataError
from engine.core.packs import Pack, read_pack
from engine.dif.campaign_checks import aircraft_problems, sheet_problems
from engine.dif.campaign_data import LandCampaign, shipped_book
from engine.dif.carrier import card_counts
from engine.dif.loader import load_aircraft

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "docs" / "example-pack.yaml").read_bytes()
CAMPAIGN = "kai-trials"
SEED = 1
"""A campaign seed whose one Mission draws Target 1 (the Dogfight, an IMS-1B)."""
SHIPPED = ["malaya", "philippines", "burma", "coral-sea", "midway", "pearl-harbor"]


def read(data: bytes, file: str = "pack.yaml") -> Pack:
    return read_pack(file, data, registry.content_kinds())


def built(*packs: Pack) -> Any:
    return registry.campaign_with_content("dif", list(packs))


def refused(*packs: Pack) -> str:
    with pytest.raises(DataError) as caught:
        built(*packs)
    return str(caught.value)


def pack_of(section: str, entry: dict[str, Any], name: str = "house") -> bytes:
    """A pack of one ``dif`` entry (dumped from a parsed shipped file)."""
    doc = {"pack": name, "provenance": "x", "dif": {section: [entry]}}
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False).encode()


def shipped_sheet(file: str) -> dict[str, Any]:
    """A shipped Campaign Sheet as a pack entry replacing it: its long texts (longer
    than a pack's strings may be) cut short."""
    raw: dict[str, Any] = yaml.safe_load((DATA_DIR / "dif" / "campaign" / file).read_text())
    raw.update(override=True, summary="A house copy.", sources="The shipped sheet.")
    raw.pop("rules", None)
    return raw


def test_the_shipped_sheets_pass_the_checks_a_packs_sheet_gets() -> None:
    book, planes = shipped_book(), load_aircraft()
    for sheet in book.campaigns.values():
        assert aircraft_problems(sheet, planes, card_counts()) == [], sheet.id
        assert sheet_problems(sheet) == [], sheet.id
    assert built() is not None and [c.id for c in built().campaigns()] == SHIPPED


def test_a_pack_campaign_is_offered_and_its_mission_flies_the_packs_aircraft() -> None:
    system = built(read(EXAMPLE))
    assert [c.id for c in system.campaigns()] == [*SHIPPED[:-1], CAMPAIGN, "pearl-harbor"]
    assert CAMPAIGN not in {c.id for c in registry.campaign_system("dif").campaigns()}
    assert system.book.targets["supply-dump"].name == "Supply Dump"
    state = system.new_campaign(system.setup_model(campaign=CAMPAIGN), SEED)
    for side in ("japanese", "allied"):
        state = system.apply(state, side, system.computer_action(state, side, SEED))
    plan = system.mission_setup(state)
    assert {e.aircraft for e in plan.setup.elements} == {"ki-43-kai", "p-40e"}
    assert plan.setup.year == 1942
    assert system.land.engine.aircraft["ki-43-kai"].name == "Ki-43 Kai"


def test_a_packs_aircraft_flies_in_a_shipped_campaign_too() -> None:
    """Every campaign of the server flies its packs' aircraft: Pearl Harbor's Zeros are
    a pack's Zeros when a pack replaces the A6M2."""
    zero = EXAMPLE.split(b"  aircraft:\n", 1)[1].split(b"\n  targets:", 1)[0]
    faster = (
        zero.replace(b"- id: ki-43-kai\n", b"- id: a6m2\n      override: true\n")
        .replace(b"name: Ki-43 Kai", b"name: A6M2 Kai")
        .replace(b"year: 1942", b"year: 1940")
    )
    system = built(read(b"pack: zeros\nprovenance: x\ndif:\n  aircraft:\n" + faster))
    assert system.pearl.aircraft["a6m2"].name == "A6M2 Kai"
    assert system.land.catalogue["a6m2"].name == "A6M2 Kai"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            b"opponents: [L/W p-40e]",
            b"opponents: [L/W p-99]",
            "pack.yaml: dif.campaigns[0].targets[0].opponents[0]: unknown aircraft 'p-99' "
            "(not in aircraft.yaml or a pack)",
        ),
        (
            b"opponents: [L/W p-40e]",
            b"opponents: [L/W a6m2]",
            "dif.campaigns[0].targets[0].opponents[0]: 'a6m2' is not on the Allied side",
        ),
        (
            b"target: supply-dump,",
            b"target: supply-dumb,",
            "pack.yaml: dif.campaigns[0].targets[1].target: 'supply-dumb' is no Target Sheet",
        ),
        (
            b"start: 1942-03",
            b"start: 1943-03",
            "pack.yaml: dif.campaigns[0].periods[0].start: String should match pattern",
        ),
        (b"end: 1942-04", b"end: 1942-02", "dif.campaigns[0].periods[0]: end: before start"),
        (
            b"end: 1942-04",
            b"end: 1942-08",
            "dif.campaigns[0].periods[0]: 1942-03 to 1942-08 is not within 1941-12 to 1942-06",
        ),
        (
            b"turns: 8/7}",
            b"turns: 6/7}",
            "dif.campaigns[0].targets[1].turns: 6/7 leaves no Turn of Arrival at Speed 6",
        ),
        (
            b"IMS-3B: 2, OOS: 1, MAN: 1, HAL: 1, TIT: 2, BAR: 2,\n                     ACE: 1, VER: 1, SCI: 2}",
            b"IMS-3B: 1, OOS: 1, MAN: 1, HAL: 1, TIT: 1, BAR: 1,\n                     ACE: 1, VER: 1, SCI: 1}",
            "dif.campaigns[0].targets[1].number: no card of any Period draws Target 2",
        ),
        (
            b"IMS-1B: 1, IMS-2B: 1,",
            b"IMS-1B: 1,",
            "dif.campaigns[0].periods[0]: missions: no Mission for ['IMS-2B']",
        ),
        (
            b"{number: 2, option: aircraft, aircraft: [L/W p-40e]}",
            b"{number: 2, option: loaded-flight-deck, aircraft: [L/W p-40e]}",
            "dif.campaigns[0].options.allied[1].option: 'loaded-flight-deck' is not a land "
            "campaign Option",
        ),
        (
            b"attacker: japanese, aircraft: [L/W ki-43-kai], opponents",
            b"attacker: japanese, aircraft: [2 ki-43-kai], opponents",
            "dif.campaigns[0].targets[0].aircraft[0]: 'ki-43-kai' is a fighter: "
            "'L/W ki-43-kai' or 'L ki-43-kai' (§24.46)",
        ),
        (
            b"altitude: L, turns: 8/7}",
            b"altitude: VL, turns: 8/7, mode: torpedo}",
            "dif.campaigns[0].targets[1].aircraft[0]: 'ki-43-kai' cannot bomb in torpedo mode",
        ),
        (
            b"      year: 1942\n",
            b"      year: 1943\n",
            "pack.yaml: dif.campaigns[0].targets[0].aircraft[0]: 'ki-43-kai' is not in "
            "service in 1942 (from 1943, 4.3)",
        ),
        (
            b"      kind: land\n",
            b"      kind: solitaire\n",
            "pack.yaml: dif.campaigns[0].kind: 'land' or 'carrier'",
        ),
        (
            b"- id: kai-trials\n",
            b"- id: burma\n",
            "pack.yaml: dif.campaigns[0].id: 'burma' is already in the built-in data; add "
            "'override: true' to the entry to replace it",
        ),
        (
            b"- id: supply-dump\n",
            b"- id: airfield\n",
            "pack.yaml: dif.targets[0].id: 'airfield' is already in the built-in data",
        ),
        (
            b"- id: kai-trials\n",
            b"- id: pearl-harbor\n      override: true\n",
            "pack.yaml: dif.campaigns[0].id: 'pearl-harbor' is the Pearl Harbor Solitaire "
            "Campaign (§26.0), which a pack does not replace",
        ),
        (
            b"- id: kai-trials\n",
            b"- id: kai-trials\n      override: true\n",
            "dif.campaigns[0].id: 'kai-trials' overrides nothing",
        ),
        (b"duration: 1", b"duration: 0", "dif.campaigns[0].duration: Input should be"),
    ],
    ids=["unknown-aircraft", "wrong-side", "unknown-target-sheet", "period-year",
         "period-order", "period-months", "no-arrival", "never-drawn", "period-cards", "carrier-option", "form", "torpedo",
         "not-in-service", "solitaire", "collision", "target-collision", "pearl-harbor",
         "overrides-nothing", "schema"],
)  # fmt: skip
def test_a_campaign_that_does_not_fit_is_refused_naming_file_entry_and_field(
    old: bytes, new: bytes, message: str
) -> None:
    assert EXAMPLE.count(old) == 1, old
    assert message in refused(read(EXAMPLE.replace(old, new)))


def test_a_shipped_sheet_is_replaced_with_override_and_checked_like_a_packs() -> None:
    burma = shipped_sheet("burma.yaml")
    system = built(read(pack_of("campaigns", burma)))
    sheet = system.book.campaign("burma")
    assert isinstance(sheet, LandCampaign) and sheet.summary == "A house copy."
    assert sheet.targets == shipped_book().campaign("burma").targets

    midway = shipped_sheet("midway.yaml")
    assert built(read(pack_of("campaigns", midway))).book.campaign("midway").summary == (
        "A house copy."
    )
    airfield = shipped_book().targets["airfield"].model_dump(mode="json")
    airfield.update(override=True, aa=4)
    assert built(read(pack_of("targets", airfield))).book.targets["airfield"].aa == 4
    midway["sides"]["japanese"]["flight_ops"][0]["strike"][0] = "L/W ki-43"
    assert (
        "house.yaml: dif.campaigns[0].sides.japanese.flight_ops[0].strike[0]: 'ki-43' has no "
        "cards in card-counts.yaml: a Carrier Campaign's Air Strikes and CAP fly the box's "
        "cards only (§25.65)" in refused(read(pack_of("campaigns", midway), "house.yaml"))
    )
    midway = shipped_sheet("midway.yaml")
    midway["dates"] = "June, in some year"
    assert "dif.campaigns[0].dates: 'June, in some year' names no year" in refused(
        read(pack_of("campaigns", midway))
    )


def test_an_override_that_breaks_a_shipped_campaign_names_it() -> None:
    zero = EXAMPLE.split(b"  aircraft:\n", 1)[1].split(b"\n  targets:", 1)[0]
    later = zero.replace(b"- id: ki-43-kai\n", b"- id: ki-27\n      override: true\n")
    text = refused(read(b"pack: k\nprovenance: x\ndif:\n  aircraft:\n" + later, "k.yaml"))
    assert (
        "k.yaml: built-in campaign malaya.targets[16].aircraft[0]: 'ki-27' is not in service "
        "in 1941 (from 1942, 4.3)" in text
    )
    battleship = dict(shipped_book().targets["battleship"].model_dump(mode="json"))
    battleship.update(override=True, naval=False)
    text = refused(read(pack_of("targets", battleship)))
    assert (
        "pack.yaml: built-in campaign malaya.targets[5].mode: torpedoes need a Naval Target "
        "(§21.52)" in text
    )


def test_a_later_pack_that_breaks_an_earlier_packs_campaign_names_it() -> None:
    zero = EXAMPLE.split(b"  aircraft:\n", 1)[1].split(b"\n  targets:", 1)[0]
    later = zero.replace(b"- id: ki-43-kai\n", b"- id: ki-43-kai\n      override: true\n")
    later = later.replace(b"side: axis", b"side: allied").replace(b"nation: Japan", b"nation: USA")
    text = refused(
        read(EXAMPLE, "example-pack.yaml"),
        read(b"pack: later\nprovenance: x\ndif:\n  aircraft:\n" + later, "later.yaml"),
    )
    assert (
        "later.yaml: pack 'what-if-fighters' dif.campaigns[0].targets[0].aircraft[0]: "
        "'ki-43-kai' is not on the Japanese side" in text
    )


async def test_a_pack_campaign_flies_the_packs_aircraft_and_verifies_after_the_pack_goes(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    admin, alice = fake.add_member("admin", admin=True), fake.add_member("alice")
    bot = TallyHoBot(database=str(tmp_path / "z.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    token = await fake.slash(admin, "config pack add", file=("example-pack.yaml", EXAMPLE))
    assert "version 1 added" in fake.original(token)["content"]

    offered = await fake.autocomplete(
        alice, "campaign new", "name", "kai", channel_id=fake.channel_id, system="dif"
    )
    assert [c["value"] for c in offered] == [CAMPAIGN]
    await fake.slash(alice, "campaign new", channel_id=fake.channel_id, system="dif", name=CAMPAIGN)
    (record,) = await bot.service.storage.list_campaigns()
    (ref,) = record.setup["packs"]
    assert (ref["name"], ref["version"]) == ("what-if-fighters", 1)
    assert record.thread_id is not None
    await fake.slash(alice, "campaign join", channel_id=record.thread_id, side="japanese")
    await fake.slash(alice, "campaign start", channel_id=record.thread_id)
    driver = CampaignDriver(fake, bot, record.id, {alice.id: alice}, SEED)
    for _ in range(3000):
        if await driver.step() == "done":
            break
    (game,) = await bot.service.storage.games_of_campaign(record.id)
    assert game.options["packs"] == record.setup["packs"], "the mission flies the pack"
    loaded = await bot.service.load(game.id)
    assert "ki-43-kai" in json.dumps(loaded.system.dump_state(loaded.state))
    campaign = await bot.campaigns.load(record.id)
    assert campaign.system.is_over(campaign.state)
    token = await fake.slash(alice, "campaign status", channel_id=record.thread_id)
    status = fake.original(token)
    assert "The Kai Trials" in status["content"] and fake.files(status), "its sheet, drawn"
    # A shipped campaign opened on this server records the server's packs too.
    await fake.slash(alice, "campaign new", channel_id=fake.channel_id, system="dif", name="burma")
    (burma,) = [c for c in await bot.service.storage.list_campaigns() if c.id != record.id]
    assert burma.setup["packs"] == record.setup["packs"]

    # The pack changes, then goes; the campaign, loaded afresh, still verifies.
    changed = EXAMPLE.replace(b"name: The Kai Trials", b"name: The Kai Sweep")
    token = await fake.slash(admin, "config pack add", file=("example-pack.yaml", changed))
    assert "version 2 added" in fake.original(token)["content"]
    await fake.slash(admin, "config pack remove", name="what-if-fighters")
    packs_module._BUILT.clear()
    packs_module._CAMPAIGNS.clear()
    bot.campaigns._states.clear()
    token = await fake.slash(alice, "campaign verify", channel_id=record.thread_id)
    checked = fake.original(token)["content"]
    assert checked.startswith("✅ Verified.") and "1 ended mission games" in checked, checked
    assert (await bot.campaigns.load(burma.id)).system.book.campaign(CAMPAIGN)
    offered = await fake.autocomplete(
        alice, "campaign new", "name", "kai", channel_id=fake.channel_id, system="dif"
    )
    assert offered == [], "a new campaign no longer has it"
    packs_module._CAMPAIGNS.clear()  # a fresh process: /campaign list titles it still
    token = await fake.slash(alice, "campaign list", channel_id=fake.channel_id)
    assert f"#{record.id} The Kai Trials" in fake.original(token)["content"]
    assert not fake.problems()


HOSTILE = [
    (
        EXAMPLE.replace(b"opponents: [L/W p-40e]", b"opponents: [L/W p-99]"),
        "example-pack.yaml: dif.campaigns[0].targets[0].opponents[0]: unknown aircraft 'p-99'",
    ),
    (
        EXAMPLE.replace(b"target: supply-dump,", b"target: supply-dumb,"),
        "dif.campaigns[0].targets[1].target: 'supply-dumb' is no Target Sheet",
    ),
    (
        EXAMPLE.replace(b"- id: kai-trials\n", b"- id: midway\n"),
        "dif.campaigns[0].id: 'midway' is already in the built-in data",
    ),
    (
        EXAMPLE.replace(b"- id: ki-43-kai\n", b"- id: ki-43-kai\n      override: true\n"),
        "dif.aircraft[0].id: 'ki-43-kai' overrides nothing",
    ),
]
"""Zero! campaign packs the server refuses, and what the refusal says."""


async def test_a_hostile_zero_campaign_pack_is_refused_through_discord_and_changes_nothing(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    admin = fake.add_member("admin", admin=True)
    bot = TallyHoBot(database=str(tmp_path / "h.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    ages = EXAMPLE.split(b"  aircraft:\n", 1)[1].split(b"\n  targets:", 1)[0]
    older = b"pack: older\nprovenance: x\ndif:\n  aircraft:\n" + ages.replace(
        b"- id: ki-43-kai\n", b"- id: ki-43\n      override: true\n"
    ).replace(b"year: 1942", b"year: 1940")
    token = await fake.slash(admin, "config pack add", file=("older.yaml", older))
    assert "version 1 added" in fake.original(token)["content"]
    breaking = older.replace(b"year: 1940", b"year: 1942")
    cases = [
        *HOSTILE,
        (breaking, "built-in campaign malaya.options.japanese[1].aircraft[0]: 'ki-43' is not in"),
    ]
    for data, message in cases:
        name = "older.yaml" if data is breaking else "example-pack.yaml"
        token = await fake.slash(admin, "config pack add", file=(name, data))
        refused = fake.original(token)["content"]
        assert refused.startswith("⛔") and message in refused, (message, refused)
    (kept,) = await bot.service.storage.content_packs(fake.guild_id)
    assert (kept.name, kept.version) == ("older", 1), "the server's packs are untouched"
    assert not fake.problems()
