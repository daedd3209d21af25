"""Locked-On campaigns from content packs (``lockedon.campaigns``): validated by the
shipped sheets' model, keyed by id, cross-checked against the components built with
the same packs, and refused, naming the file, the entry and the field, when they do
not fit; a campaign created from one through Discord is flown to its end and verified
after the pack is gone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot import packs as packs_module
from bot.errors import Refusal
from bot.storage.models import CampaignStatus
from bot.testing import FakeDiscord
from bot.testing.campaigns import CampaignDriver
from cogs.app import TallyHoBot
from engine.core import registry
from engine.core.dataload import DataError
from engine.core.packs import Pack, read_pack
from engine.lockedon.campaigns import shipped_campaigns

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "docs" / "example-pack.yaml").read_bytes()
CAMPAIGN = "red-river"
SEED = 20261203


def read(data: bytes, file: str = "pack.yaml") -> Pack:
    return read_pack(file, data, registry.content_kinds())


def built(*packs: Pack) -> Any:
    return registry.campaign_with_content("lockedon", list(packs))


def refused(*packs: Pack) -> str:
    with pytest.raises(DataError) as caught:
        built(*packs)
    return str(caught.value)


def test_a_pack_campaign_is_added_after_the_shipped_ones_and_flies_the_packs_aircraft() -> None:
    system = built(read(EXAMPLE))
    assert list(system.sheets) == [*shipped_campaigns(), CAMPAIGN]
    assert CAMPAIGN not in {c.id for c in registry.campaign_system("lockedon").campaigns()}
    (info,) = [c for c in system.campaigns() if c.id == CAMPAIGN]
    assert (info.title, info.missions) == ("Red River Valley", 1)
    state = system.new_campaign(system.setup_model(campaign=CAMPAIGN), SEED)
    for side in ("usa", "north-vietnam"):
        state = system.apply(state, side, system.computer_action(state, side, SEED))
    plan = system.mission_setup(state)
    assert [s.aircraft for s in plan.setup.seats] == ["f-4e", "mig-21pf"]
    # its F-4E is the pack's: the campaign's engine carries the pack's missile
    assert "aim-9x-test" in [m.missile for m in system.engine.aircraft["f-4e"].missiles]


def test_a_shipped_campaign_is_replaced_only_with_override() -> None:
    clash = EXAMPLE.replace(b"- id: red-river\n", b"- id: vietnam-1972\n")
    assert (
        "pack.yaml: lockedon.campaigns[0].id: 'vietnam-1972' is already in the built-in "
        "data; add 'override: true' to the entry to replace it" in refused(read(clash))
    )
    replaced = clash.replace(b"- id: vietnam-1972\n", b"- id: vietnam-1972\n      override: true\n")
    system = built(read(replaced))
    assert list(system.sheets) == list(shipped_campaigns())
    assert system.sheets["vietnam-1972"].title == "Red River Valley"
    nothing = EXAMPLE.replace(b"- id: red-river\n", b"- id: red-river\n      override: true\n")
    assert "'red-river' overrides nothing" in refused(read(nothing))


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            b"aircraft: mig-21pf",
            b"aircraft: mig-99",
            "pack.yaml: lockedon.campaigns[0].missions[0].nations.north-vietnam.aircraft[0]"
            ".aircraft: unknown aircraft 'mig-99'",
        ),
        (
            b"options: [gun-fighter, angle-90]",
            b"options: [gun-fighter, angle-90]\n              sites: [sa-99]",
            "lockedon.campaigns[0].missions[0].nations.north-vietnam.sites[0]: unknown site "
            "'sa-99'",
        ),
        (
            b"options: [eagle-eyes, locked]",
            b"options: [eagle-eyes, newbie]",
            "lockedon.campaigns[0].missions[0].nations.usa.options[1]: 'newbie' changes "
            "chosen ratings: not an Option",
        ),
        (
            b"          year: 1972\n",
            b"          year: 1962\n",
            "lockedon.campaigns[0].missions[0].nations.usa.aircraft[0].aircraft: f-4e is not "
            "in service in 1962",
        ),
        (
            b"        - number: 1\n",
            b"        - number: 2\n",
            "lockedon.campaigns[0]: missions must be numbered 1, 2, 3... in order, not [2]",
        ),
        (b"turns: 2", b"turns: 0", "lockedon.campaigns[0].missions[0].turns: Input should be"),
        (
            # an aircraft of the pack that breaks a shipped campaign names it
            b"      year: 1967\n",
            b"      year: 1975\n",
            "pack.yaml: built-in campaign vietnam-1972.missions[0].nations.usa.aircraft[0]"
            ".aircraft: f-4e is not in service in 1972",
        ),
    ],
    ids=["unknown-aircraft", "unknown-site", "rated-option", "not-in-service", "numbering",
         "schema", "breaks-built-in"],
)  # fmt: skip
def test_a_campaign_that_does_not_fit_is_refused_naming_file_entry_and_field(
    old: bytes, new: bytes, message: str
) -> None:
    assert EXAMPLE.count(old) == 1
    assert message in refused(read(EXAMPLE.replace(old, new)))


def test_a_later_pack_that_breaks_an_earlier_packs_campaign_names_it() -> None:
    later = (
        b"pack: later\nprovenance: x\nlockedon:\n  aircraft:\n"
        + EXAMPLE.split(b"  aircraft:\n", 2)[2].split(b"  campaigns:\n", 1)[0]
    ).replace(b"year: 1967", b"year: 1980")
    text = refused(read(EXAMPLE, "example-pack.yaml"), read(later, "later.yaml"))
    assert (
        "later.yaml: pack 'what-if-fighters' lockedon.campaigns[0].missions[0].nations.usa"
        ".aircraft[0].aircraft: f-4e is not in service in 1972" in text
    )


async def test_a_pack_campaign_is_flown_through_discord_and_verifies_after_the_pack_goes(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    admin, alice = fake.add_member("admin", admin=True), fake.add_member("alice")
    bot = TallyHoBot(database=str(tmp_path / "c.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    token = await fake.slash(admin, "config pack add", file=("example-pack.yaml", EXAMPLE))
    assert "version 1 added" in fake.original(token)["content"]

    # Offered, and accepted, on this server only.
    offered = await fake.autocomplete(
        alice, "campaign new", "name", "red", channel_id=fake.channel_id, system="lockedon"
    )
    assert [c["value"] for c in offered] == [CAMPAIGN]
    await fake.slash(
        alice, "campaign new", channel_id=fake.channel_id, system="lockedon", name=CAMPAIGN
    )
    (record,) = await bot.service.storage.list_campaigns()
    (ref,) = record.setup["packs"]
    assert (ref["name"], ref["version"]) == ("what-if-fighters", 1)
    with pytest.raises(Refusal, match="There is no campaign 'red-river'"):
        await bot.campaigns.new(
            guild_id=fake.guild_id + 1, channel_id=1, host_id=alice.id, system="lockedon",
            campaign=CAMPAIGN, options={},
        )  # fmt: skip

    assert record.thread_id is not None
    await fake.slash(alice, "campaign join", channel_id=record.thread_id, side="usa")
    await fake.slash(alice, "campaign start", channel_id=record.thread_id)
    driver = CampaignDriver(fake, bot, record.id, {alice.id: alice}, SEED)
    for _ in range(3000):
        if await driver.step() == "done":
            break
    (game,) = await bot.service.storage.games_of_campaign(record.id)
    assert game.options["packs"] == record.setup["packs"], "the mission flies the pack"
    loaded = await bot.service.load(game.id)
    assert "aim-9x-test" in json.dumps(loaded.system.dump_state(loaded.state))
    assert (await bot.campaigns.load(record.id)).record.status is CampaignStatus.FINISHED
    # A built-in campaign opened on this server flies the server's packs too.
    await fake.slash(
        alice, "campaign new", channel_id=fake.channel_id, system="lockedon", name="vietnam-1972"
    )
    (built_in,) = [c for c in await bot.service.storage.list_campaigns() if c.id != record.id]
    assert built_in.setup["packs"] == record.setup["packs"]

    # The pack changes, then goes; the campaign, loaded afresh, still verifies.
    changed = EXAMPLE.replace(b"title: Red River Patrol", b"title: Red River Sweep")
    token = await fake.slash(admin, "config pack add", file=("example-pack.yaml", changed))
    assert "version 2 added" in fake.original(token)["content"]
    await fake.slash(admin, "config pack remove", name="what-if-fighters")
    packs_module._BUILT.clear()
    packs_module._CAMPAIGNS.clear()
    bot.campaigns._states.clear()
    token = await fake.slash(alice, "campaign verify", channel_id=record.thread_id)
    checked = fake.original(token)["content"]
    assert checked.startswith("✅ Verified.") and "1 ended mission games" in checked, checked
    assert (await bot.campaigns.load(built_in.id)).system.sheets["red-river"].missions
    offered = await fake.autocomplete(
        alice, "campaign new", "name", "red", channel_id=fake.channel_id, system="lockedon"
    )
    assert offered == [], "a new campaign no longer has it"
    packs_module._CAMPAIGNS.clear()  # a fresh process: /campaign list titles it still
    token = await fake.slash(alice, "campaign list", channel_id=fake.channel_id)
    assert f"#{record.id} Red River Valley" in fake.original(token)["content"]
    assert not fake.problems()
