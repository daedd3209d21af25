"""Tests of the offline Discord harness, driven through a toy bot that uses what it fakes."""

from __future__ import annotations

import asyncio
import io
import time
from dataclasses import dataclass

import aiohttp
import aiosqlite
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.http import HTTPClient

from bot.testing import FakeDiscord, FakeUser, NetworkDisabledError, discord_log_errors, notified
from bot.testing.fakediscord import FIRST_SNOWFLAKE

PNG = b"\x89PNG\r\n\x1a\n toy board"
AIRCRAFT = ["Bf 109E", "Bf 110C", "Hurricane I", "Spitfire I"]
CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"
FOLLOWUP = "POST /webhooks/{webhook_id}/{webhook_token}"


# -- the toy bot ----------------------------------------------------------------------------------


class LobbyView(discord.ui.View):
    """A persistent view: fixed custom_ids, no timeout, registered with ``bot.add_view``."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="toy:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction[ToyBot], _: discord.ui.Button) -> None:
        interaction.client.clicks.append("toy:join")
        await interaction.response.edit_message(content=f"{interaction.user.name} joined")

    @discord.ui.button(label="Ping", custom_id="toy:ping")
    async def ping(self, interaction: discord.Interaction[ToyBot], _: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="pong")


class AckView(discord.ui.View):
    """A persistent view sent in DMs."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Got it", custom_id="toy:ack")
    async def ack(self, interaction: discord.Interaction[ToyBot], _: discord.ui.Button) -> None:
        where = type(interaction.channel).__name__
        await interaction.response.send_message(f"acknowledged in {where}")


class HandView(discord.ui.View):
    """An ephemeral hand of cards to choose from."""

    @discord.ui.select(
        custom_id="toy:card",
        placeholder="Play a card",
        options=[
            discord.SelectOption(label="Tailing", value="tailing"),
            discord.SelectOption(label="Roll", value="roll"),
        ],
    )
    async def card(
        self, interaction: discord.Interaction[ToyBot], select: discord.ui.Select
    ) -> None:
        await interaction.response.edit_message(content=f"played {select.values[0]}", view=None)


class DuelView(discord.ui.View):
    """A short-lived view whose command waits for it (random custom_ids)."""

    @discord.ui.button(label="Accept")
    async def accept(self, interaction: discord.Interaction[ToyBot], _: discord.ui.Button) -> None:
        await interaction.response.edit_message(content="accepted", view=None)
        self.stop()


class SquadronModal(discord.ui.Modal, title="Name your squadron"):
    squadron = discord.ui.TextInput(label="Squadron", custom_id="toy:squadron")

    async def on_submit(self, interaction: discord.Interaction[ToyBot]) -> None:
        await interaction.response.send_message(f"Squadron {self.squadron.value}", ephemeral=True)


class ToyCog(commands.Cog):
    """Every interaction shape the harness fakes, in a few lines each."""

    game = app_commands.Group(name="game", description="A toy game.")
    admin = app_commands.Group(name="admin", description="Admin tools.", parent=game)

    @game.command(description="Open a lobby.")
    async def start(
        self,
        interaction: discord.Interaction[ToyBot],
        rounds: app_commands.Range[int, 1, 10],
        opponent: discord.Member,
    ) -> None:
        text = f"{interaction.user.name} vs {opponent.display_name}, {rounds} rounds"
        await interaction.response.send_message(text, view=LobbyView())

    @game.command(description="Pick an aircraft.")
    async def pick(self, interaction: discord.Interaction[ToyBot], aircraft: str) -> None:
        await interaction.response.send_message(f"You fly the {aircraft}", ephemeral=True)

    @pick.autocomplete("aircraft")
    async def pick_aircraft(
        self, interaction: discord.Interaction[ToyBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=a, value=a) for a in AIRCRAFT if current.lower() in a.lower()
        ]

    @game.command(description="Show your hand.")
    async def hand(self, interaction: discord.Interaction[ToyBot]) -> None:
        await interaction.response.send_message("Your hand", view=HandView(), ephemeral=True)

    @game.command(description="Render the board slowly.")
    async def think(self, interaction: discord.Interaction[ToyBot]) -> None:
        await interaction.response.defer(thinking=True)
        board = discord.File(io.BytesIO(PNG), filename="board.png", description="A toy board")
        await interaction.followup.send("Board ready", file=board)

    @game.command(description="DM your secret hand.")
    async def whisper(self, interaction: discord.Interaction[ToyBot]) -> None:
        try:
            await interaction.user.send("your secret hand", view=AckView())
        except discord.Forbidden as error:
            if error.code != 50007:
                raise
            await interaction.response.send_message("Open your DMs", ephemeral=True)
        else:
            await interaction.response.send_message("Check your DMs", ephemeral=True)

    @game.command(description="Open a table thread.")
    async def table(self, interaction: discord.Interaction[ToyBot]) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        thread = await interaction.channel.create_thread(
            name="table", type=discord.ChannelType.public_thread
        )
        board = discord.File(io.BytesIO(PNG), filename="board.png", description="The table")
        posted = await thread.send("the board", file=board)
        data = await posted.attachments[0].read()
        alt = posted.attachments[0].description
        await interaction.response.send_message(f"table {thread.id}: {len(data)} bytes, {alt}")

    @game.command(description="Start a discussion thread on the reply.")
    async def discuss(self, interaction: discord.Interaction[ToyBot]) -> None:
        await interaction.response.send_message("Discuss here")
        message = await interaction.original_response()
        await message.create_thread(name="discussion")

    @game.command(description="Name your squadron.")
    async def name(self, interaction: discord.Interaction[ToyBot]) -> None:
        await interaction.response.send_modal(SquadronModal())

    @game.command(description="Challenge and wait for an answer.")
    async def duel(self, interaction: discord.Interaction[ToyBot]) -> None:
        view = DuelView(timeout=30)
        await interaction.response.send_message("Duel?", view=view)
        await view.wait()
        await interaction.followup.send("duel over")

    @game.command(description="Work in a thread.")
    async def crunch(self, interaction: discord.Interaction[ToyBot]) -> None:
        await asyncio.to_thread(time.sleep, 0.05)
        await interaction.response.send_message("crunched")

    @game.command(description="Count rows in SQLite.")
    async def count(self, interaction: discord.Interaction[ToyBot]) -> None:
        async with aiosqlite.connect(":memory:") as db:
            await db.execute("CREATE TABLE t (x)")
            await db.executemany("INSERT INTO t VALUES (?)", [(1,), (2,)])
            async with db.execute("SELECT count(*) FROM t") as cursor:
                row = await cursor.fetchone()
        await interaction.response.send_message(f"{row[0] if row else 0} rows")

    @game.command(description="Use a route the fake does not know.")
    async def roles(self, interaction: discord.Interaction[ToyBot]) -> None:
        assert interaction.guild is not None
        try:
            await interaction.guild.fetch_roles()
        except discord.HTTPException as error:
            await interaction.response.send_message(f"failed {error.status}")

    @game.command(description="Never answers.")
    async def silent(self, interaction: discord.Interaction[ToyBot]) -> None:
        pass

    @game.command(description="Raises.")
    async def boom(self, interaction: discord.Interaction[ToyBot]) -> None:
        raise RuntimeError("boom")

    @admin.command(description="Write a note.")
    async def note(
        self,
        interaction: discord.Interaction[ToyBot],
        channel: discord.TextChannel,
        weight: float,
        loud: bool = False,
    ) -> None:
        await interaction.response.send_message(f"{channel.name} {weight:.1f} {loud}")


class ToyBot(commands.Bot):
    """A bot with global commands, one guild command and two persistent views."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.guild = discord.Object(guild_id)
        self.clicks: list[str] = []

    async def setup_hook(self) -> None:
        await self.add_cog(ToyCog())

        @app_commands.command(description="Guild only.")
        async def here(interaction: discord.Interaction[ToyBot]) -> None:
            await interaction.response.send_message(f"guild {interaction.guild_id}")

        self.tree.add_command(here, guild=self.guild)
        self.add_view(LobbyView())
        self.add_view(AckView())

    async def on_ready(self) -> None:
        await self.tree.sync()
        await self.tree.sync(guild=self.guild)


@dataclass
class Table:
    """A started toy bot and two players."""

    fake: FakeDiscord
    bot: ToyBot
    alice: FakeUser
    bob: FakeUser


@pytest.fixture
async def table(fake: FakeDiscord) -> Table:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = ToyBot(fake.guild_id)
    await fake.start(bot)
    return Table(fake, bot, alice, bob)


def keys(fake: FakeDiscord) -> list[str]:
    return [call.key for call in fake.calls]


# -- start-up -------------------------------------------------------------------------------------


async def test_start_logs_in_runs_setup_hook_and_syncs(table: Table) -> None:
    fake, bot = table.fake, table.bot
    assert keys(fake)[:4] == [
        "GET /users/@me",
        "GET /oauth2/applications/@me",
        "PUT /applications/{application_id}/commands",
        "PUT /applications/{application_id}/guilds/{guild_id}/commands",
    ]
    assert bot.application_id == fake.application_id
    assert [c["name"] for c in fake.commands[None]] == ["game"]
    assert [c["name"] for c in fake.commands[fake.guild_id]] == ["here"]
    general = bot.get_channel(fake.channel_id)
    assert isinstance(general, discord.TextChannel)
    assert general.name == "general"


async def test_ids_and_timestamps_are_fixed(fake: FakeDiscord) -> None:
    assert fake.guild_id == FIRST_SNOWFLAKE
    assert discord.utils.snowflake_time(fake.guild_id).year == 2025


# -- slash commands -------------------------------------------------------------------------------


async def test_slash_types_options_from_the_command_tree(table: Table) -> None:
    fake = table.fake
    token = await fake.slash(table.alice, "game start", rounds="3", opponent=table.bob)
    lobby = fake.original(token)
    assert lobby["content"] == "alice vs bob, 3 rounds"
    assert lobby["type"] == 20
    assert lobby["interaction_metadata"]["user"]["id"] == str(table.alice.id)
    callback = fake.calls[-1]
    assert callback.key == CALLBACK
    assert callback.json["type"] == 4
    assert callback.params == {"with_response": "1"}


async def test_slash_builds_nested_groups_with_channel_number_and_bool(table: Table) -> None:
    fake = table.fake
    token = await fake.slash(
        table.bob, "game admin note", channel=fake.channel_id, weight=2, loud=True
    )
    assert fake.original(token)["content"] == "general 2.0 True"


async def test_member_added_after_start_can_be_an_option(table: Table) -> None:
    carol = table.fake.add_member("carol")
    token = await table.fake.slash(table.alice, "game start", rounds=1, opponent=carol)
    assert table.fake.original(token)["content"] == "alice vs carol, 1 rounds"


async def test_guild_commands_carry_the_guild_id(table: Table) -> None:
    token = await table.fake.slash(table.alice, "here")
    assert table.fake.original(token)["content"] == f"guild {table.fake.guild_id}"


async def test_a_second_guild_has_its_own_channels_and_interactions(table: Table) -> None:
    fake, bot = table.fake, table.bot
    other = fake.add_guild(shard=1, shard_count=2)
    assert (other >> 22) % 2 == 1 and (fake.guild_id >> 22) % 2 == 0
    channel = fake.add_channel("hangar", guild_id=other)
    await fake.settle()
    guild = bot.get_guild(other)
    assert guild is not None and [c.name for c in guild.text_channels] == ["hangar"]
    token = await fake.slash(
        table.alice, "game start", channel_id=channel, rounds=2, opponent=table.bob
    )
    assert fake.original(token)["guild_id"] == str(other)
    assert fake.guild_of(channel) == other and fake.guild_of(fake.channel_id) == fake.guild_id


async def test_a_sync_discord_would_refuse_fails_as_there(table: Table) -> None:
    """Discord's limits (``COMMAND_LIMITS``): a command of 26 options, a choice list of
    26, a name of 33 characters: the whole sync is refused with a 400."""
    fake, bot = table.fake, table.bot
    option = {"type": 3, "description": "x"}
    wide = {
        "name": "wide",
        "description": "d",
        "options": [{**option, "name": f"o{i}"} for i in range(26)],
    }
    choices = {
        "name": "menu",
        "description": "d",
        "options": [
            {
                **option,
                "name": "pick",
                "choices": [{"name": str(i), "value": str(i)} for i in range(26)],
            }
        ],
    }
    long_name = {"name": "x" * 33, "description": "d"}
    before = fake.commands[None]
    for command in (wide, choices, long_name):
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.bulk_upsert_global_commands(fake.application_id, [command])
        assert refused.value.status == 400 and refused.value.code == 50035
    assert fake.commands[None] == before, "nothing synced"


async def test_slash_rejects_what_discord_would_not_send(table: Table) -> None:
    fake, alice = table.fake, table.alice
    with pytest.raises(LookupError, match="no slash command"):
        await fake.slash(alice, "nope")
    with pytest.raises(LookupError, match="is a group"):
        await fake.slash(alice, "game admin")
    with pytest.raises(TypeError, match="no option"):
        await fake.slash(alice, "game pick", aircraft="Spitfire I", wings=2)
    with pytest.raises(TypeError, match="needs option 'opponent'"):
        await fake.slash(alice, "game start", rounds=1)
    assert fake.interactions == {}


async def test_autocomplete_returns_the_bots_choices(table: Table) -> None:
    choices = await table.fake.autocomplete(table.alice, "game pick", "aircraft", "bf")
    assert choices == [
        {"name": "Bf 109E", "value": "Bf 109E"},
        {"name": "Bf 110C", "value": "Bf 110C"},
    ]
    assert table.fake.calls[-1].json["type"] == 8


# -- components and modals ------------------------------------------------------------------------


async def test_button_click_updates_the_clicked_message(table: Table) -> None:
    fake = table.fake
    lobby = fake.original(await fake.slash(table.alice, "game start", rounds=2, opponent=table.bob))
    assert fake.custom_id(lobby, "Join") == "toy:join"
    await fake.click(table.bob, lobby, "toy:join")
    assert fake.calls[-1].json["type"] == 7
    assert lobby["content"] == "bob joined"
    assert list(fake.messages) == [int(lobby["id"])]


async def test_requests_are_counted_but_not_kept_when_told(table: Table) -> None:
    """A benchmark's thousands of requests need not be logged (``keep_calls``): the
    clicks still work, and :meth:`settle` still sees requests arrive."""
    fake = table.fake
    fake.keep_calls = False
    before, logged = fake.requested, len(fake.calls)
    lobby = fake.original(await fake.slash(table.alice, "game start", rounds=2, opponent=table.bob))
    await fake.click(table.bob, lobby, "toy:join")
    await fake.settle()
    assert lobby["content"] == "bob joined"
    assert len(fake.calls) == logged
    assert fake.requested == before + 2  # the command's answer and the click's


async def test_deferred_click_then_edit_original_edits_the_clicked_message(table: Table) -> None:
    fake = table.fake
    lobby = fake.original(await fake.slash(table.alice, "game start", rounds=2, opponent=table.bob))
    token = await fake.click(table.bob, lobby, fake.custom_id(lobby, "Ping"))
    assert keys(fake)[-2:] == [
        CALLBACK,
        "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
    ]
    assert fake.calls[-2].json["type"] == 6
    assert fake.original(token) is lobby
    assert lobby["content"] == "pong"


async def test_ephemeral_select_is_seen_only_by_its_owner(table: Table) -> None:
    fake = table.fake
    hand = fake.original(await fake.slash(table.alice, "game hand"))
    assert fake.ephemeral_for(table.alice) == [hand]
    assert fake.ephemeral_for(table.bob) == []
    assert fake.public_messages() == []
    assert fake.custom_id(hand, "Play a card") == fake.custom_id(hand, "Roll") == "toy:card"
    await fake.click(table.alice, hand, "toy:card", values=["roll"])
    assert hand["content"] == "played roll"
    assert hand["components"] == []


async def test_click_checks_the_component_is_on_the_message(table: Table) -> None:
    fake = table.fake
    lobby = fake.original(await fake.slash(table.alice, "game start", rounds=2, opponent=table.bob))
    with pytest.raises(LookupError, match="no component"):
        await fake.click(table.bob, lobby, "toy:nope")
    with pytest.raises(LookupError, match="no component labelled"):
        fake.custom_id(lobby, "Leave")


async def test_modal_opens_and_submits(table: Table) -> None:
    fake = table.fake
    token = await fake.slash(table.alice, "game name")
    assert fake.interactions[token].callback_type == 9
    submitted = await fake.submit_modal(table.alice, token, {"Squadron": "JG 26"})
    assert fake.original(submitted)["content"] == "Squadron JG 26"
    assert fake.ephemeral_for(table.alice) == [fake.original(submitted)]


async def test_settle_returns_handlers_parked_on_a_view(table: Table) -> None:
    fake = table.fake
    token = await fake.slash(table.alice, "game duel")
    parked = await fake.settle()
    assert [task.get_name() for task in parked] == ["CommandTree-invoker"]
    duel = fake.original(token)
    await fake.click(table.bob, duel, fake.custom_id(duel, "Accept"))
    assert [m["content"] for m in fake.sent_to(fake.channel_id)] == ["accepted", "duel over"]


async def test_settle_waits_for_handlers_working_in_other_threads(table: Table) -> None:
    fake = table.fake
    assert fake.original(await fake.slash(table.alice, "game crunch"))["content"] == "crunched"
    assert fake.original(await fake.slash(table.alice, "game count"))["content"] == "2 rows"


async def test_concurrent_players_settle_together(table: Table) -> None:
    """Two players' coroutines each settle; neither may wait for the other's settle()."""
    fake = table.fake
    lobby = fake.original(await fake.slash(table.alice, "game start", rounds=2, opponent=table.bob))

    async def press(user: FakeUser) -> str:
        return await fake.click(user, lobby, "toy:ping")

    tokens = await asyncio.gather(press(table.alice), press(table.bob))
    assert [fake.interactions[token].callback_type for token in tokens] == [6, 6]
    assert keys(fake).count("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original") == 2
    assert lobby["content"] == "pong"


# -- deferral and files ---------------------------------------------------------------------------


async def test_first_followup_fills_the_thinking_placeholder(table: Table) -> None:
    fake = table.fake
    token = await fake.slash(table.alice, "game think")
    assert keys(fake)[-2:] == [CALLBACK, FOLLOWUP]
    assert fake.calls[-2].json["type"] == 5
    assert fake.calls[-2].result["interaction"]["response_message_loading"] is True
    followup = fake.calls[-1]
    assert followup.files == [("board.png", PNG)]
    assert followup.json["attachments"][0]["filename"] == "board.png"
    # The alt text (an attachment's description) is sent and kept, as Discord does.
    assert followup.json["attachments"][0]["description"] == "A toy board"
    board = fake.original(token)
    assert board["attachments"][0]["description"] == "A toy board"
    assert list(fake.messages) == [int(board["id"])]
    assert board["content"] == "Board ready"
    assert board["flags"] == 0
    assert fake.files(board) == [("board.png", PNG)]


# -- DMs ------------------------------------------------------------------------------------------


async def test_dm_channel_is_created_once_per_user(table: Table) -> None:
    fake = table.fake
    await fake.slash(table.alice, "game whisper")
    await fake.slash(table.alice, "game whisper")
    assert keys(fake).count("POST /users/@me/channels") == 1
    assert [m["content"] for m in fake.dms(table.alice)] == ["your secret hand"] * 2
    assert [m["content"] for m in fake.ephemeral_for(table.alice)] == ["Check your DMs"] * 2
    assert fake.dms(table.bob) == []


async def test_blocked_dms_fail_with_50007(table: Table) -> None:
    fake = table.fake
    fake.block_dms(table.bob)
    await fake.slash(table.bob, "game whisper")
    failed = fake.calls[-2]
    assert failed.key == "POST /channels/{channel_id}/messages"
    assert isinstance(failed.error, discord.Forbidden)
    assert (failed.error.status, failed.error.code) == (403, 50007)
    assert fake.dms(table.bob) == []
    assert [m["content"] for m in fake.ephemeral_for(table.bob)] == ["Open your DMs"]


async def test_click_in_a_dm_comes_from_the_dm_channel(table: Table) -> None:
    fake = table.fake
    await fake.slash(table.alice, "game whisper")
    (secret,) = fake.dms(table.alice)
    token = await fake.click(table.alice, secret, fake.custom_id(secret, "Got it"))
    assert fake.interactions[token].channel_id == fake.dm_channel_id(table.alice)
    assert fake.original(token)["content"] == "acknowledged in DMChannel"
    assert "guild_id" not in fake.original(token)
    assert fake.dms(table.alice)[-1] is fake.original(token)


# -- threads --------------------------------------------------------------------------------------


async def test_thread_creation_and_attachment_round_trip(table: Table) -> None:
    fake, bot = table.fake, table.bot
    reply = fake.original(await fake.slash(table.alice, "game table"))
    thread_id = next(i for i, c in fake.channels.items() if c["name"] == "table")
    assert reply["content"] == f"table {thread_id}: {len(PNG)} bytes, The table"
    assert "POST /channels/{channel_id}/threads" in keys(fake)
    (board,) = fake.sent_to(thread_id)
    assert fake.files(board) == [("board.png", PNG)]
    assert board["attachments"][0]["content_type"] == "image/png"
    thread = bot.get_channel(thread_id)
    assert isinstance(thread, discord.Thread)
    assert thread.parent_id == fake.channel_id


async def test_channel_history_reads_the_latest_messages_newest_first(table: Table) -> None:
    fake, bot = table.fake, table.bot
    general = bot.get_channel(fake.channel_id)
    assert isinstance(general, discord.TextChannel)
    sent = [await general.send(f"line {n}") for n in range(4)]
    latest = [m async for m in general.history(limit=3)]
    assert [m.content for m in latest] == ["line 3", "line 2", "line 1"]
    assert all(m.author.id == fake.bot_user.id for m in latest)
    older = [m async for m in general.history(limit=10, before=sent[2])]
    assert [m.content for m in older] == ["line 1", "line 0"]


async def test_thread_from_a_message_shares_its_id(table: Table) -> None:
    fake = table.fake
    reply = fake.original(await fake.slash(table.alice, "game discuss"))
    assert keys(fake)[-2:] == [
        "GET /webhooks/{webhook_id}/{webhook_token}/messages/@original",
        "POST /channels/{channel_id}/messages/{message_id}/threads",
    ]
    assert fake.channels[int(reply["id"])]["name"] == "discussion"
    assert isinstance(table.bot.get_channel(int(reply["id"])), discord.Thread)


# -- restarts -------------------------------------------------------------------------------------


async def test_restarted_bot_handles_clicks_on_the_old_bots_messages(fake: FakeDiscord) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot1 = ToyBot(fake.guild_id)
    await fake.start(bot1)
    lobby = fake.original(await fake.slash(alice, "game start", rounds=2, opponent=bob))
    await fake.slash(alice, "game table")
    thread_id = next(i for i, c in fake.channels.items() if c["name"] == "table")
    await bot1.close()

    bot2 = ToyBot(fake.guild_id)
    await fake.start(bot2)
    assert isinstance(bot2.get_channel(thread_id), discord.Thread)
    await fake.click(bob, lobby, fake.custom_id(lobby, "Join"))
    assert (bot1.clicks, bot2.clicks) == ([], ["toy:join"])
    assert lobby["content"] == "bob joined"


# -- problems the fixture reports -----------------------------------------------------------------


async def test_unknown_routes_are_recorded_and_fail_with_404(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = FakeDiscord(monkeypatch)
    alice = fake.add_member("alice")
    await fake.start(ToyBot(fake.guild_id))
    token = await fake.slash(alice, "game roles")
    await fake.shutdown()
    assert fake.original(token)["content"] == "failed 404"
    (unhandled,) = fake.unhandled
    assert unhandled.key == "GET /guilds/{guild_id}/roles"
    assert unhandled.args == {"guild_id": str(fake.guild_id)}
    assert fake.problems() == [f"unhandled route GET /guilds/{{guild_id}}/roles {unhandled.args}"]


async def test_unanswered_interactions_are_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeDiscord(monkeypatch)
    alice = fake.add_member("alice")
    await fake.start(ToyBot(fake.guild_id))
    token = await fake.slash(alice, "game silent")
    await fake.shutdown()
    assert fake.problems() == [
        f"interaction '/game silent' by alice was never answered (token {token})"
    ]


async def test_errors_in_callbacks_are_found_in_the_log(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fake = FakeDiscord(monkeypatch)
    alice = fake.add_member("alice")
    await fake.start(ToyBot(fake.guild_id))
    await fake.slash(alice, "game boom")
    await fake.shutdown()
    (error,) = discord_log_errors(caplog.records)
    assert error.startswith("discord.app_commands.tree: Ignoring exception in command 'boom'")
    assert "RuntimeError: boom" in error
    assert len(fake.problems()) == 1


async def test_real_network_access_is_blocked(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        with pytest.raises(NetworkDisabledError):
            await session.get("https://discord.com/api/v10/gateway")


# -- determinism ----------------------------------------------------------------------------------


async def play_script() -> str:
    """A short game outside pytest's monkeypatch; returns the transcript."""
    original_request = HTTPClient.request
    async with FakeDiscord() as fake:
        assert HTTPClient.request is not original_request
        alice, bob = fake.add_member("alice"), fake.add_member("bob")
        await fake.start(ToyBot(fake.guild_id))
        lobby = fake.original(await fake.slash(alice, "game start", rounds=3, opponent=bob))
        await fake.click(bob, lobby, fake.custom_id(lobby, "Join"))
        await fake.slash(alice, "game think")
        await fake.slash(bob, "game whisper")
        await fake.slash(alice, "game table")
        await fake.slash(bob, "game hand")
        transcript = fake.transcript()
    assert HTTPClient.request is original_request
    return transcript


async def test_same_script_gives_a_byte_identical_transcript() -> None:
    first, second = await play_script(), await play_script()
    assert first == second
    assert "bob joined" in first
    assert "board.png" in first


def test_notified_follows_discords_allowed_mentions_rules() -> None:
    text = "@everyone <@&5> <@1> <@!2> hi"
    assert notified(text, None) == (True, frozenset({5}), frozenset({1, 2}))
    assert notified(text, {"parse": []}) == (False, frozenset(), frozenset())
    assert notified(text, {"parse": [], "users": ["2", "3"]}) == (
        False,
        frozenset(),
        frozenset({2}),
    )
    assert notified(text, {"parse": ["users", "roles"]}) == (
        False,
        frozenset({5}),
        frozenset({1, 2}),
    )
    assert notified("@here", {"parse": ["everyone"]})[0]
