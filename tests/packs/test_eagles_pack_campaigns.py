"""Eagles in the Sky Campaign cards from content packs (``eagles.campaigns``): validated
by the shipped cards' model, keyed by id, cross-checked against the components built
with the same packs, and refused, naming the file, the entry and the field, when they
do not fit; a squadron may fly a pack's Scout (from a card's list, drawn or chosen); a
campaign created from a pack card through Discord flies the pack's Scout in its
mission game and verifies after the pack changed and was removed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bot import packs as packs_module
from bot.errors import Refusal
from bot.storage import GameStatus, SQLiteStorage
from bot.storage.models import CampaignStatus
from bot.testing import FakeDiscord
from bot.testing.campaigns import CampaignDriver
from bot.testing.fakediscord import FakeUser
from cogs.app import TallyHoBot
from engine.core import registry
from engine.core.dataload import DataError, read_shipped
from engine.core.errors import SetupError
from engine.core.packs import Pack, read_pack
from engine.eagles.campaign_cards import check_card, checked_shipped_cards
from engine.eagles.campaign_data import shipped_cards
from engine.eagles.enums import YearMonth
from engine.eagles.loader import load_components

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "docs" / "example-pack.yaml").read_bytes()
CARD = "se5b-trials"
SEED = 20261202


def read(data: bytes, file: str = "pack.yaml") -> Pack:
    return read_pack(file, data, registry.content_kinds())


def built(*packs: Pack) -> Any:
    return registry.campaign_with_content("eagles", list(packs))


def refused(*packs: Pack) -> str:
    with pytest.raises(DataError) as caught:
        built(*packs)
    return str(caught.value)


def aircraft_entry(aircraft_id: str, new_id: str | None = None, **changes: Any) -> str:
    """The shipped entry of ``aircraft_id`` as a pack's entry, with ``changes``: an
    override of it, or a new aircraft ``new_id``."""
    shipped = yaml.safe_load(read_shipped("eagles", "aircraft.yaml"))
    entry = {**next(a for a in shipped if a["id"] == aircraft_id), **changes}
    entry.pop("printed", None)
    if new_id is None:
        entry = {"id": aircraft_id, "override": True, **entry}
    else:
        entry["id"] = new_id
    return "    - " + yaml.safe_dump(entry, sort_keys=False, default_flow_style=True, width=999)


def aircraft_pack(name: str, *entries: str) -> bytes:
    body = "".join(e if e.endswith("\n") else f"{e}\n" for e in entries)
    return f"pack: {name}\nprovenance: Authored for a test.\neagles:\n  aircraft:\n{body}".encode()


# --- the engine ---------------------------------------------------------------------------


def test_the_shipped_cards_pass_the_checks_pack_cards_get() -> None:
    data = load_components()
    assert dict(checked_shipped_cards()) == dict(shipped_cards())
    for card in shipped_cards().values():
        assert check_card(card, data) == [], card.id


def test_a_pack_card_is_added_after_the_shipped_ones_and_flies_the_packs_scout() -> None:
    system = built(read(EXAMPLE))
    assert list(system.cards) == [*shipped_cards(), CARD]
    assert CARD not in {c.id for c in registry.campaign_system("eagles").campaigns()}
    (info,) = [c for c in system.campaigns() if c.id == CARD]
    assert (info.title, info.missions) == ("The SE5b Trials", 2)
    state = system.new_campaign(system.setup_model(campaign=CARD), SEED)
    assert state.squadrons["allied"].aircraft == "se5b"  # the card's only Allied type
    assert state.squadrons["german"].aircraft in ("fokker-dri", "pfalz-diiia")
    assert system.engine.aircraft["se5b"].name == "SE5b"  # the game flies the pack's


def test_a_built_in_card_draws_or_is_given_a_packs_cup_scout() -> None:
    """Normal Activity lists no types: a squadron draws among the cup Scouts in
    service, a pack's among them, or a player chooses one (§3.4)."""
    scout = aircraft_entry("se5a", "se5-special", name="SE5 Special", in_service_from="1918-04")
    system = built(read(aircraft_pack("cup-scouts", scout)))
    card = system.cards["normal-activity"]
    when = system.when(system.new_campaign(system.setup_model(campaign=card.id), 1))
    assert "se5-special" not in system.squadron_types(card, "allied", when)  # 1917-10
    may = system.new_campaign(
        system.setup_model(campaign=card.id, month="1918-05", allied="se5-special"), 1
    )
    assert may.squadrons["allied"].aircraft == "se5-special"
    assert "se5-special" in system.squadron_types(card, "allied", YearMonth(1918, 5))
    drawn = {
        system.new_campaign(system.setup_model(campaign=card.id, month="1918-05"), seed)
        .squadrons["allied"]
        .aircraft
        for seed in range(60)
    }
    assert "se5-special" in drawn
    with pytest.raises(SetupError):  # not on the shipped system
        registry.campaign_system("eagles").new_campaign(
            system.setup_model(campaign=card.id, month="1918-05", allied="se5-special"), 1
        )


def test_a_shipped_card_is_replaced_only_with_override() -> None:
    clash = EXAMPLE.replace(b"- id: se5b-trials\n", b"- id: quiet-sector\n")
    assert (
        "pack.yaml: eagles.campaigns[0].id: 'quiet-sector' is already in the built-in "
        "data; add 'override: true' to the entry to replace it" in refused(read(clash))
    )
    replaced = clash.replace(b"- id: quiet-sector\n", b"- id: quiet-sector\n      override: true\n")
    system = built(read(replaced))
    assert list(system.cards) == list(shipped_cards())
    assert system.cards["quiet-sector"].title == "The SE5b Trials"
    nothing = EXAMPLE.replace(b"- id: se5b-trials\n", b"- id: se5b-trials\n      override: true\n")
    assert "'se5b-trials' overrides nothing" in refused(read(nothing))


M2 = b"{number: 2, cards: [61, 110], type: patrol, attacker: german, zone: german_front, altitude: high}"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            b"allied: [se5b]",
            b"allied: [se5x]",
            "pack.yaml: eagles.campaigns[0].aircraft.allied[0]: unknown aircraft 'se5x' "
            "(not in aircraft.yaml or a pack)",
        ),
        (
            b"german: [fokker-dri, pfalz-diiia]",
            b"german: [fokker-dri, se5a]",
            "eagles.campaigns[0].aircraft.german[1]: 'se5a' flies for the allied side, not "
            "german",
        ),
        (
            b"german: [fokker-dri, pfalz-diiia]",
            b"german: [fokker-dri, rumpler-civ]",
            "eagles.campaigns[0].aircraft.german[1]: 'rumpler-civ' is not a Scout",
        ),
        (
            b"      month: 1918-05\n      aircraft:",
            b"      month: 1917-05\n      aircraft:",
            "eagles.campaigns[0].aircraft.allied[0]: 'se5b' is not in service in 1917-05",
        ),
        (
            M2,
            M2.replace(b"type: patrol", b"type: balloon_busting"),
            "eagles.campaigns[0].missions[1].zone: a balloon_busting mission attacked by the "
            "german player is flown over allied_front (§16.4), not german_front",
        ),
        (
            M2,
            M2.replace(b"type: patrol", b"type: balloon_busting"),
            "eagles.campaigns[0].missions[1].altitude: a balloon_busting mission attacked by "
            "the german player starts at low (§16.4), not high",
        ),
        (
            M2,
            M2.replace(b"type: patrol", b"type: photo_recon").replace(
                b"german_front", b"allied_front"
            ),
            "eagles.campaigns[0].missions[1].type: a photo_recon mission attacked by the "
            "german player needs its Mission aircraft (§16.4), and this mission has none",
        ),
        (
            M2,
            M2.replace(b"number: 2", b"number: 3"),
            "eagles.campaigns[0].missions[1].number: 3, not 2: Missions are numbered 1, 2, 3",
        ),
        (
            M2,
            M2.replace(b"[61, 110]", b"[62, 110]"),
            "eagles.campaigns[0]: missions[1]: starts at 62: leaves 61-61 uncovered",
        ),
        (
            b"german: {green: 2, inexperienced: 3, experienced: 4}",
            b"german: {green: 2, inexperienced: 3, experienced: 5}",
            "eagles.campaigns[0].pilots.german: nine pilots besides the three Flight Leaders",
        ),
        (
            b"{fire: 6, event: out_of_the_sun}",
            b"{fire: 6, event: jasta_11}",
            "eagles.campaigns[0].special_events[2].event: jasta_11 only on a historical card "
            "of a month richthofen flew the fokker-dri",
        ),
        (
            b"mission_aircraft: false",
            b"mission_aircraft: falsy",
            "eagles.campaigns[0].mission_aircraft: Input should be a valid boolean",
        ),
    ],
    ids=["unknown-aircraft", "wrong-side", "not-a-scout", "not-in-service", "zone", "altitude",
         "mission-aircraft-needed", "numbering", "cards-uncovered", "pilots", "special-event",
         "schema"],
)  # fmt: skip
def test_a_card_that_does_not_fit_is_refused_naming_file_entry_and_field(
    old: bytes, new: bytes, message: str
) -> None:
    assert EXAMPLE.count(old) == 1
    assert message in refused(read(EXAMPLE.replace(old, new)))


def test_an_aircraft_override_that_breaks_a_built_in_card_names_it() -> None:
    later = aircraft_pack("late-pfalz", aircraft_entry("pfalz-diii", in_service_from="1918-01"))
    assert (
        "late.yaml: built-in campaign card cambrai.aircraft.german[2]: 'pfalz-diii' is not "
        "in service in 1917-11" in refused(read(later, "late.yaml"))
    )


def test_a_later_pack_that_breaks_an_earlier_packs_card_names_it() -> None:
    later = aircraft_pack(
        "later",
        "    - {id: se5b, override: true, name: SE5b, side: allied, type: two_seater, "
        "climb: 6, dive: 8, speed: 7, agility: 6, defence: sturdy, guns_forward: 1, "
        "in_service_from: 1918-04, in_service_to: 1918-11, points: 18, cup: false}",
    )
    text = refused(read(EXAMPLE, "example-pack.yaml"), read(later, "later.yaml"))
    assert (
        "later.yaml: pack 'what-if-fighters' eagles.campaigns[0].aircraft.allied[0]: 'se5b' "
        "is not a Scout: a squadron flies Scouts (§3.4)" in text
    )


def test_a_date_bound_campaign_event_needs_a_historical_cards_month() -> None:
    """Dolphins send Sopwith Dolphins (§13.3): a card of May 1918 may have them, a
    generic card (the players choose the month) may not."""
    dolphins = EXAMPLE.replace(b"event: party}", b"event: dolphins}")
    assert built(read(dolphins)).cards[CARD].campaign_event(81).value == "dolphins"
    generic = dolphins.replace(
        b"      month: 1918-05\n      aircraft:", b"      first_month: 1918-05\n      aircraft:"
    )
    assert (
        "eagles.campaigns[0].campaign_events[1].event: dolphins only on a historical card of "
        "a month sopwith-dolphin flies in" in refused(read(generic))
    )


async def test_a_pack_whose_scout_another_packs_card_flies_is_not_removed() -> None:
    """A second pack's card gives the Allied squadron the example's SE5b: removing the
    example is refused, naming that card's field, and both packs stay."""
    storage = await SQLiteStorage.open(":memory:")
    try:
        content = packs_module.ContentPacks(storage)
        await content.add(5, 1, "example-pack.yaml", EXAMPLE)
        eagles = EXAMPLE.split(b"\neagles:\n", 1)[1]
        card = eagles.split(b"  campaigns:\n", 1)[1].split(b"  scenarios:\n", 1)[0]
        house = b"pack: house\nprovenance: x\neagles:\n  campaigns:\n" + card.replace(
            b"- id: se5b-trials", b"- id: house-trials"
        )
        await content.add(5, 1, "house.yaml", house)
        kept = await storage.content_packs(5)
        with pytest.raises(Refusal) as caught:
            await content.remove(5, "what-if-fighters")
        assert caught.value.key == "refusal.pack.needed"
        assert "house.yaml: eagles.campaigns[0].aircraft.allied[0]: unknown aircraft 'se5b'" in str(
            caught.value.fields["problems"]
        )
        assert await storage.content_packs(5) == kept
    finally:
        await storage.close()


# --- through Discord ----------------------------------------------------------------------


async def _fly_one_pilot_flights(driver: CampaignDriver, users: dict[str, FakeUser]) -> None:
    """The campaign to its end through the UI: each side assigns one pilot alone to
    every mission (its first ready, a Flight Leader while one is: a one-aircraft
    flight, a short engagement); the driver plays the mission games."""
    for _ in range(3000):
        campaign = await driver.bot.campaigns.load(driver.campaign_id)
        if campaign.record.status is not CampaignStatus.ACTIVE:
            return
        pending = campaign.system.pending(campaign.state)
        if not pending:
            assert await driver.step() == "move"
            continue
        side = pending[0].side
        legal = campaign.system.legal_actions(campaign.state, side)
        alone = next((a for a in legal if len(a.pilots) == 1), legal[0])
        await driver.choose(users[side], str(alone))
    raise AssertionError("the campaign did not end")


async def test_a_pack_card_is_flown_through_discord_and_verifies_after_the_pack_goes(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    admin = fake.add_member("admin", admin=True)
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = TallyHoBot(database=str(tmp_path / "e.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)

    # A card that does not fit is refused, naming file, entry and field; nothing stored.
    bad = EXAMPLE.replace(b"allied: [se5b]", b"allied: [se5x]")
    token = await fake.slash(admin, "config pack add", file=("house pack.yaml", bad))
    said = fake.original(token)["content"]
    assert "house-pack.yaml was not added; nothing changed" in said
    assert "house-pack.yaml: eagles.campaigns[0].aircraft.allied[0]: unknown aircraft" in said
    assert await bot.service.storage.content_packs(fake.guild_id) == []
    token = await fake.slash(admin, "config pack add", file=("example-pack.yaml", EXAMPLE))
    assert "version 1 added" in fake.original(token)["content"]

    # Offered, and accepted, on this server only.
    offered = await fake.autocomplete(
        alice, "campaign new", "name", "se5b", channel_id=fake.channel_id, system="eagles"
    )
    assert [c["value"] for c in offered] == [CARD]
    await fake.slash(alice, "campaign new", channel_id=fake.channel_id, system="eagles", name=CARD)
    (record,) = await bot.service.storage.list_campaigns()
    (ref,) = record.setup["packs"]
    assert (ref["name"], ref["version"]) == ("what-if-fighters", 1)
    with pytest.raises(Refusal, match="There is no campaign 'se5b-trials'"):
        await bot.campaigns.new(
            guild_id=fake.guild_id + 1, channel_id=1, host_id=alice.id, system="eagles",
            campaign=CARD, options={},
        )  # fmt: skip

    assert record.thread_id is not None
    await fake.slash(alice, "campaign join", channel_id=record.thread_id, side="allied")
    await fake.slash(bob, "campaign join", channel_id=record.thread_id, side="german")
    await fake.slash(alice, "campaign start", channel_id=record.thread_id)
    driver = CampaignDriver(fake, bot, record.id, {u.id: u for u in (alice, bob)}, SEED)
    await _fly_one_pilot_flights(driver, {"allied": alice, "german": bob})
    campaign = await bot.campaigns.load(record.id)
    assert campaign.record.status is CampaignStatus.FINISHED
    assert campaign.state.squadrons["allied"].aircraft == "se5b"
    games = await bot.service.storage.games_of_campaign(record.id)
    flown = [g for g in games if g.status is GameStatus.FINISHED]
    assert flown, "one Engagement at least: two chits of three are Engagements (§7.12)"
    for game in flown:
        assert game.options["packs"] == record.setup["packs"], "the mission flies the pack"
        loaded = await bot.service.load(game.id)
        planes = loaded.system.dump_state(loaded.state)["planes"]
        assert "se5b" in [p["aircraft"] for p in planes]
    # A built-in card opened on this server records the server's packs too.
    await fake.slash(
        alice, "campaign new", channel_id=fake.channel_id, system="eagles", name="quiet-sector"
    )
    (built_in,) = [c for c in await bot.service.storage.list_campaigns() if c.id != record.id]
    assert built_in.setup["packs"] == record.setup["packs"]

    # The pack changes, then goes; the campaign, loaded afresh, still verifies.
    changed = EXAMPLE.replace(b"title: The SE5b Trials", b"title: The SE5b Tests")
    token = await fake.slash(admin, "config pack add", file=("example-pack.yaml", changed))
    assert "version 2 added" in fake.original(token)["content"]
    await fake.slash(admin, "config pack remove", name="what-if-fighters")
    packs_module._BUILT.clear()
    packs_module._CAMPAIGNS.clear()
    bot.campaigns._states.clear()
    token = await fake.slash(alice, "campaign verify", channel_id=record.thread_id)
    checked = fake.original(token)["content"]
    assert checked.startswith("✅ Verified.") and f"{len(flown)} ended mission games" in checked
    for game in flown:  # and each mission game, alone
        token = await fake.slash(alice, "game verify", channel_id=game.thread_id)
        assert "\n✅ Verified.\n" in fake.original(token)["content"], game.id
    assert CARD in (await bot.campaigns.load(built_in.id)).system.cards
    offered = await fake.autocomplete(
        alice, "campaign new", "name", "se5b", channel_id=fake.channel_id, system="eagles"
    )
    assert offered == [], "a new campaign no longer has it"
    packs_module._CAMPAIGNS.clear()  # a fresh process: /campaign list titles it still
    token = await fake.slash(alice, "campaign list", channel_id=fake.channel_id)
    assert f"#{record.id} The SE5b Trials" in fake.original(token)["content"]
    assert not fake.problems()
