"""Content packs through the offline Discord: ``/config pack add|list|remove``, a game
flying a pack's aircraft from the lobby's autocomplete to its end, its replay after the
pack changed and was removed, and every hostile pack refused with its message while the
server's earlier packs stay as they were."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot import packs as packs_module
from bot.games import GameStore
from bot.storage import ContentPackRecord, SQLiteStorage
from bot.testing import FakeDiscord, FakeUser
from bot.testing.driver import UiPlayer, wait_for_new_game
from bot.verify import verify_log
from cogs.app import TallyHoBot
from engine.core.contract import Timing
from engine.core.packs import MAX_BYTES, MAX_DEPTH, MAX_ENTRIES

SEED = 20261202
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "docs" / "example-pack.yaml").read_bytes()
PACK = "what-if-fighters"


def content(fake: FakeDiscord, token: str) -> str:
    return str(fake.original(token)["content"])


async def upload(fake: FakeDiscord, admin: FakeUser, name: str, data: bytes) -> str:
    return content(fake, await fake.slash(admin, "config pack add", file=(name, data)))


async def live(bot: TallyHoBot, fake: FakeDiscord) -> list[ContentPackRecord]:
    return await bot.service.storage.content_packs(fake.guild_id)


async def start_bot(fake: FakeDiscord, tmp_path: Path) -> TallyHoBot:
    bot = TallyHoBot(database=str(tmp_path / "packs.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    return bot


GAMES = [
    # ruleset, /dogfight new's options, the person's side, the pack's aircraft, what the
    # game's state holds of the pack, how the thread names the aircraft
    pytest.param("zero", {"year": 1943}, "axis", "ki-43-kai", "ki-43-kai", "Ki-43 Kai", id="dif"),
    pytest.param(
        "lockedon", {"battle_year": 1982}, "A", "f-4e", "aim-9x-test", "F-4E Phantom II",
        id="lockedon",
    ),
    pytest.param(
        "eagles", {"engagement": "patrol", "month": "1918-05", "flight": "points 20"},
        "allied", "se5b", "se5b", "SE5b", id="eagles",
    ),
]  # fmt: skip


async def play_to_the_end(
    fake: FakeDiscord, bot: TallyHoBot, user: FakeUser, game_id: int, thread: int
) -> Any:
    """Play ``user``'s seats of a started practice game through the thread and DMs, a
    random computer player choosing; the final state, dumped."""
    system = (await bot.service.load(game_id)).system
    person = system.computer_player(SEED, "random")
    pilot = UiPlayer(fake, user, game_id, thread)
    for _ in range(3000):
        state = (await bot.service.load(game_id)).state
        if system.is_over(state):
            break
        d = system.pending(state)[0]
        action = str(person.choose(state, d.seat))
        await pilot.act(action, via_dm=d.timing is Timing.RESPONSE, seat=d.seat)
    else:
        pytest.fail("the game did not end")
    return system.dump_state((await bot.service.load(game_id)).state)


CHANGED = (
    EXAMPLE.replace(b"name: Ki-43 Kai\n", b"name: Ki-43 Kai II\n")
    .replace(b"{missile: aim-9x-test, count: 4}", b"{missile: aim-9x-test, count: 2}")
    .replace(b"name: SE5b\n", b"name: SE5b bis\n")
)
"""The example pack's version 2: each system's pack aircraft changed."""


@pytest.mark.parametrize(("ruleset", "options", "side", "aircraft", "marker", "label"), GAMES)
async def test_a_pack_aircraft_flies_a_whole_game_and_the_game_replays_after_the_pack_goes(
    fake: FakeDiscord,
    tmp_path: Path,
    ruleset: str,
    options: dict[str, Any],
    side: str,
    aircraft: str,
    marker: str,
    label: str,
) -> None:
    admin, alice = fake.add_member("admin", admin=True), fake.add_member("alice")
    bot = await start_bot(fake, tmp_path)

    added = await upload(fake, admin, "example-pack.yaml", EXAMPLE)
    assert f"Content pack **{PACK}** version 1 added from example-pack.yaml" in added
    contents = (
        "dif: 1 aircraft, 1 targets, 1 campaigns; lockedon: 1 missiles, 1 aircraft, 1 campaigns; "
        "eagles: 1 aircraft, 1 campaigns, 1 scenarios"
    )
    assert contents in added
    listed = content(fake, await fake.slash(admin, "config pack list"))
    assert f"**{PACK}** version 1" in listed and "> Authored by the Tally-Ho maintainers" in listed

    await fake.slash(
        alice, "dogfight new", channel_id=fake.channel_id, ruleset=ruleset,
        opponent="computer", level="random", **options,
    )  # fmt: skip
    record = await wait_for_new_game(fake, bot.service.storage)
    thread = record.thread_id
    assert thread is not None
    (ref,) = record.options["packs"]
    assert (ref["name"], ref["version"]) == (PACK, 1)
    offered = await fake.autocomplete(
        alice, "dogfight join", "aircraft", aircraft, channel_id=thread, side=side
    )
    assert aircraft in [c["value"] for c in offered]
    await fake.slash(alice, "dogfight join", channel_id=thread, side=side, aircraft=aircraft)
    await fake.slash(alice, "dogfight start", channel_id=thread)

    game = await bot.service.load(record.id)
    assert marker in json.dumps(game.system.dump_state(game.state))
    final = await play_to_the_end(fake, bot, alice, record.id, thread)
    assert any(label in str(m.get("content")) for m in fake.sent_to(thread))

    # The pack changes (a new version), then goes: new games do without it, the game
    # still verifies...
    assert "version 2 added" in await upload(fake, admin, "example-pack.yaml", CHANGED)
    removed = content(fake, await fake.slash(admin, "config pack remove", name=PACK))
    assert f"Content pack **{PACK}** removed" in removed
    assert "no content packs" in content(fake, await fake.slash(admin, "config pack list"))
    assert "✅" in content(fake, await fake.slash(alice, "game verify", channel_id=thread))
    await fake.slash(alice, "dogfight new", channel_id=fake.channel_id, ruleset=ruleset, **options)
    later = await wait_for_new_game(fake, bot.service.storage)
    assert "packs" not in later.options
    assert later.thread_id is not None
    offered = await fake.autocomplete(
        alice, "dogfight join", "aircraft", aircraft, channel_id=later.thread_id, side=side
    )
    assert marker not in json.dumps(offered)

    # ... and the game, loaded afresh in a new process, replays from the version it used,
    # as its exported log does (it carries the packs).
    token = await fake.slash(alice, "game log", channel_id=thread)
    logs = [data.decode() for _, data in fake.files(fake.original(token))]
    packs_module._BUILT.clear()
    assert logs and all(verify_log(text).ok for text in logs)
    packs_module._BUILT.clear()
    storage = await SQLiteStorage.open(str(tmp_path / "packs.sqlite3"))
    try:
        again = await GameStore(storage).load(record.id)
        assert again.system.dump_state(again.state) == final
    finally:
        await storage.close()


HOSTILE = [
    pytest.param(
        b"#" * (MAX_BYTES + 1), "is 65537 bytes; a content pack is at most", id="oversize"
    ),
    pytest.param(
        b"pack: bomb\nprovenance: x\na: &a [lol, lol, lol]\nb: &b [*a, *a, *a]\nc: [*b, *b]\n",
        "anchors and aliases (& and *) are not allowed in a pack",
        id="yaml-bomb",
    ),
    pytest.param(
        b"pack: deep\nprovenance: x\ndif: " + b"[" * MAX_DEPTH + b"]" * MAX_DEPTH + b"\n",
        f"nested deeper than {MAX_DEPTH} levels",
        id="deep-nesting",
    ),
    pytest.param(
        b"pack: many\nprovenance: x\ndif:\n  aircraft:\n"
        + b"".join(b"    - {id: p%d}\n" % n for n in range(MAX_ENTRIES + 1)),
        f"{MAX_ENTRIES + 1} entries, more than the {MAX_ENTRIES} allowed",
        id="too-many-entries",
    ),
    pytest.param(
        EXAMPLE.replace(b"value: 5\n", b"value: five\n"),
        "dif.aircraft[0].value: Input should be a valid integer",
        id="wrong-type",
    ),
    pytest.param(
        EXAMPLE.replace(b"      override: true\n", b""),
        "lockedon.aircraft[0].id: 'f-4e' is already in the built-in data; add 'override: true'",
        id="collides-with-built-in",
    ),
    pytest.param(
        EXAMPLE.replace(b"name: Ki-43 Kai\n", b"name: '@everyone Kai'\n"),
        "dif.aircraft[0].name: '@' is not allowed (mentions, markdown and links are refused)",
        id="mention-in-name",
    ),
    pytest.param(
        EXAMPLE.replace(b"name: Ki-43 Kai\n", b"name: '<@123> Kai'\n"),
        "dif.aircraft[0].name: '<' is not allowed",
        id="user-mention-in-name",
    ),
    pytest.param(
        EXAMPLE.replace(b"name: Ki-43 Kai\n", b"name: '**Kai** [x](https://x.example)'\n"),
        "dif.aircraft[0].name: '*' is not allowed",
        id="markdown-in-name",
    ),
    pytest.param(b"pack: latin\xe9\n", "(file): not UTF-8 text", id="not-utf8"),
    pytest.param(
        EXAMPLE.replace(b"{aircraft: se5b, count: 2}", b"{aircraft: se5z, count: 2}"),
        "eagles.scenarios[0].allied.aircraft[0].aircraft: unknown aircraft 'se5z' (not in "
        "aircraft.yaml or a pack)",
        id="scenario-unknown-aircraft",
    ),
    pytest.param(
        EXAMPLE.replace(b"- number: 9\n", b"- number: 3\n"),
        "eagles.scenarios[0].number: 3 is already in the built-in data; add 'override: true'",
        id="scenario-collides-with-built-in",
    ),
    pytest.param(
        EXAMPLE.replace(b"aircraft: mig-21pf", b"aircraft: mig-99"),
        "lockedon.campaigns[0].missions[0].nations.north-vietnam.aircraft[0].aircraft: "
        "unknown aircraft 'mig-99'",
        id="campaign-unknown-aircraft",
    ),
    pytest.param(
        EXAMPLE.replace(b"      year: 1967\n", b"      year: 1975\n"),
        "built-in campaign vietnam-1972.missions[0].nations.usa.aircraft[0].aircraft: f-4e is "
        "not in service in 1972",
        id="aircraft-breaks-a-built-in-campaign",
    ),
    pytest.param(
        EXAMPLE.replace(b"\ndif:\n", b"\nchess:\n"), "chess: unknown system", id="unknown-system"
    ),
]


@pytest.mark.parametrize(("data", "message"), HOSTILE)
async def test_a_hostile_pack_is_refused_naming_the_problem_and_changes_nothing(
    fake: FakeDiscord, tmp_path: Path, data: bytes, message: str
) -> None:
    admin = fake.add_member("admin", admin=True)
    bot = await start_bot(fake, tmp_path)
    assert "version 1 added" in await upload(fake, admin, "example-pack.yaml", EXAMPLE)
    before = await live(bot, fake)

    refused = await upload(fake, admin, "hostile*pack<@1>.yaml", data)
    assert refused.startswith("⛔") and message in refused
    assert "<@1>" not in refused, "the file's name is shown made harmless"
    assert await live(bot, fake) == before, "the server's packs are untouched"
    assert "version 2 added" in await upload(fake, admin, "example-pack.yaml", EXAMPLE)


async def test_only_admins_manage_packs_and_removal_is_checked(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    admin, bob = fake.add_member("admin", admin=True), fake.add_member("bob")
    bot = await start_bot(fake, tmp_path)
    for command, options in (
        ("config pack add", {"file": ("example-pack.yaml", EXAMPLE)}),
        ("config pack list", {}),
        ("config pack remove", {"name": PACK}),
    ):
        assert "Manage Server" in content(fake, await fake.slash(bob, command, **options))
    assert await live(bot, fake) == []

    assert "version 1 added" in await upload(fake, admin, "example-pack.yaml", EXAMPLE)
    # A second pack overrides the first one's aircraft: the first may not go before it.
    needs = (
        b"pack: needs-it\nprovenance: x\ndif:\n  aircraft:\n"
        + EXAMPLE.split(b"  aircraft:\n", 1)[1].split(b"\n  targets:", 1)[0]
    ).replace(b"- id: ki-43-kai\n", b"- id: ki-43-kai\n      override: true\n")
    assert "version 1 added" in await upload(fake, admin, "needs.yaml", needs)
    kept = await live(bot, fake)
    refused = content(fake, await fake.slash(admin, "config pack remove", name=PACK))
    assert "was not removed: the server's other packs need it" in refused
    assert "needs.yaml: dif.aircraft[0].id: 'ki-43-kai' overrides nothing" in refused
    assert await live(bot, fake) == kept
    unknown = content(fake, await fake.slash(admin, "config pack remove", name="**nope**"))
    assert "This server has no content pack named -nope-." in unknown


async def test_a_server_has_at_most_so_many_packs(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(packs_module, "MAX_PACKS", 1)
    admin = fake.add_member("admin", admin=True)
    bot = await start_bot(fake, tmp_path)
    assert "version 1 added" in await upload(fake, admin, "example-pack.yaml", EXAMPLE)
    other = EXAMPLE.replace(b"pack: what-if-fighters", b"pack: other")
    assert "at most 1 content packs" in await upload(fake, admin, "other.yaml", other)
    assert "version 2 added" in await upload(fake, admin, "example-pack.yaml", EXAMPLE)
    assert [p.version for p in await live(bot, fake)] == [2]


async def test_the_aircraft_list_of_a_server_shows_its_packs(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    admin, alice = fake.add_member("admin", admin=True), fake.add_member("alice")
    await start_bot(fake, tmp_path)

    def listed() -> Any:
        return fake.slash(alice, "dogfight aircraft", ruleset="zero", year=1943)

    assert "Ki-43 Kai" not in content(fake, await listed())
    await upload(fake, admin, "example-pack.yaml", EXAMPLE)
    assert "Ki-43 Kai" in content(fake, await listed())
    await fake.slash(admin, "config pack remove", name=PACK)
    assert "Ki-43 Kai" not in content(fake, await listed())


async def test_a_new_version_is_checked_with_the_packs_that_build_on_the_old_one(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    admin = fake.add_member("admin", admin=True)
    bot = await start_bot(fake, tmp_path)
    assert "version 1 added" in await upload(fake, admin, "example-pack.yaml", EXAMPLE)
    missile = EXAMPLE.split(b"  missiles:\n", 1)[1].split(b"  aircraft:\n", 1)[0]
    builds_on = b"pack: builds-on\nprovenance: x\nlockedon:\n  missiles:\n" + missile.replace(
        b"- {id: aim-9x-test,", b"- {override: true, id: aim-9x-test,"
    )
    assert "version 1 added" in await upload(fake, admin, "builds-on.yaml", builds_on)
    kept = await live(bot, fake)

    dif_only = EXAMPLE.split(b"\nlockedon:\n", 1)[0] + b"\n"
    refused = await upload(fake, admin, "example-pack.yaml", dif_only)
    assert "builds-on.yaml: lockedon.missiles[0].id: 'aim-9x-test' overrides nothing" in refused
    assert await live(bot, fake) == kept


SCENARIO = "9 The SE5b's First Patrol"
"""How /dogfight new offers the example pack's Eagles in the Sky scenario."""


async def test_a_pack_scenario_is_offered_on_its_server_played_and_replayed_after_it_goes(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    admin, alice = fake.add_member("admin", admin=True), fake.add_member("alice")
    elsewhere = fake.add_channel("general", guild_id=fake.add_guild())
    bot = await start_bot(fake, tmp_path)

    async def offered(typed: str, channel: int = fake.channel_id) -> list[str]:
        found = await fake.autocomplete(
            alice, "dogfight new", "scenario", typed, channel_id=channel, ruleset="eagles"
        )
        return [c["value"] for c in found]

    assert "7 Fonck's Wager" in await offered("") and SCENARIO not in await offered("")
    await upload(fake, admin, "example-pack.yaml", EXAMPLE)
    assert await offered("se5b") == [SCENARIO]
    # Another server neither offers nor accepts it.
    assert await offered("se5b", elsewhere) == []
    token = await fake.slash(
        alice, "dogfight new", channel_id=elsewhere, ruleset="eagles", scenario=SCENARIO
    )
    assert "is not a scenario" in content(fake, token)

    await fake.slash(
        alice, "dogfight new", channel_id=fake.channel_id, ruleset="eagles", scenario=SCENARIO,
        opponent="computer", level="random",
    )  # fmt: skip
    record = await wait_for_new_game(fake, bot.service.storage)
    thread = record.thread_id
    assert thread is not None
    assert record.options["scenario"] == 9
    assert [(r["name"], r["version"]) for r in record.options["packs"]] == [(PACK, 1)]
    assert any("SE5b's First Patrol" in str(m.get("content")) for m in fake.sent_to(thread))
    choices = await fake.autocomplete(
        alice, "dogfight join", "aircraft", "", channel_id=thread, side="allied"
    )
    assert [c["value"] for c in choices] == ["se5b"], "the scenario's own aircraft"
    await fake.slash(alice, "dogfight join", channel_id=thread, side="allied", aircraft="se5b")
    await fake.slash(alice, "dogfight start", channel_id=thread)
    game = await bot.service.load(record.id)
    planes = game.system.dump_state(game.state)["planes"]
    assert [p["aircraft"] for p in planes if p["side"] == "allied"] == ["se5b", "se5b"]
    final = await play_to_the_end(fake, bot, alice, record.id, thread)

    # A new version renames the scenario, then the pack goes: the scenario is no longer
    # offered nor accepted on the server, the game still verifies...
    renamed = EXAMPLE.replace(b"name: The SE5b's First Patrol", b"name: The SE5b's Last Patrol")
    assert "version 2 added" in await upload(fake, admin, "example-pack.yaml", renamed)
    assert await offered("se5b") == ["9 The SE5b's Last Patrol"]
    await fake.slash(admin, "config pack remove", name=PACK)
    assert await offered("se5b") == []
    token = await fake.slash(
        alice, "dogfight new", channel_id=fake.channel_id, ruleset="eagles", scenario=SCENARIO
    )
    assert "is not a scenario" in content(fake, token)
    assert "✅" in content(fake, await fake.slash(alice, "game verify", channel_id=thread))

    # ... and replays from the pack version it used, from its log and in a new process.
    token = await fake.slash(alice, "game log", channel_id=thread)
    logs = [data.decode() for _, data in fake.files(fake.original(token))]
    packs_module._BUILT.clear()
    assert logs and all(verify_log(text).ok for text in logs)
    packs_module._BUILT.clear()
    storage = await SQLiteStorage.open(str(tmp_path / "packs.sqlite3"))
    try:
        again = await GameStore(storage).load(record.id)
        assert again.system.dump_state(again.state) == final
        assert again.options.scenario == 9  # type: ignore[attr-defined]
    finally:
        await storage.close()
