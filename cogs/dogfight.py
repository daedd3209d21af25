"""``/dogfight``: open a lobby in a thread, join a side, start the fight.

Generic over systems: the ruleset is any registered system's (the registry), the
other options of ``new``, ``join`` and ``aircraft`` and the host's switches (DiF's
``bonus``) are what the systems declare (:mod:`cogs.fields`), the sides and aircraft
offered come from the game's system. Each callback resolves its inputs, calls the
service and answers; refusals go through the one error boundary (:mod:`cogs.boundary`).
"""

from __future__ import annotations

import inspect
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import Refusal
from bot.lobby import OPPONENTS, RESPONSE_MODES
from bot.packs import ContentPacks
from bot.settings import server_language
from bot.systems import FORMATS, hosted, hosted_ids, options_of, rulesets
from cogs import fields
from cogs.admin import lobby_channel
from cogs.components import hand_view
from cogs.context import app_of, forget_view, language_of, new_view, reply, service_of
from cogs.help import cmd_text
from cogs.lobby import lobby_view, refresh_lobby
from engine.core.contract import COMPUTER_LEVELS
from engine.core.present import Field, FieldKind, Switch
from strings import t, tr

if TYPE_CHECKING:
    from bot.games import LoadedGame
    from cogs.app import TallyHoBot

__all__ = ["DogfightCog"]

log = logging.getLogger(__name__)

RULESETS = tuple(rulesets())
"""Every registered system's rulesets (their ids are unique across systems)."""
OPTIONS = tuple(
    f
    for f in fields.fields_of(lambda p: p.option_fields())
    if f.name not in {s.option for s in fields.switches()}
)
"""The systems' game options ``/dogfight new`` asks. Those the host switches in the
lobby (``/dogfight bonus``, ``/dogfight teams``...) are set there only: Discord allows
a command 25 options, and every system adds its own."""
PICKS = fields.fields_of(lambda p: p.pick_fields())
CATALOGUE = fields.fields_of(lambda p: p.catalogue_fields())
HOURS = app_commands.Range[float, 0.05, 1440.0] | None

_NEW = [
    fields.parameter(Field("format", FieldKind.CHOICE, "", "1v1", choices=FORMATS)),
    fields.parameter(Field("ruleset", FieldKind.CHOICE, "", RULESETS[0], choices=RULESETS)),
    *(fields.parameter(f) for f in OPTIONS),
    fields.parameter(Field("responses", FieldKind.CHOICE, "", "normal", choices=RESPONSE_MODES)),
    fields.parameter(Field("opponent", FieldKind.CHOICE, "", "human", choices=OPPONENTS)),
    fields.parameter(Field("level", FieldKind.CHOICE, "", None, choices=COMPUTER_LEVELS)),
    fields.parameter(Field("rated", FieldKind.BOOL, "", True)),
    fields.parameter(Field("turn_hours", FieldKind.TEXT, ""), HOURS, None),
    fields.parameter(Field("response_hours", FieldKind.TEXT, ""), HOURS, None),
]
_JOIN = [
    fields.parameter(Field("side", FieldKind.TEXT, ""), str),
    fields.parameter(Field("aircraft", FieldKind.TEXT, ""), str),
    fields.parameter(Field("seat", FieldKind.TEXT, "")),
    fields.parameter(Field("computer", FieldKind.BOOL, "", False)),
    *(fields.parameter(f) for f in PICKS),
]
_AIRCRAFT = [
    fields.parameter(Field("ruleset", FieldKind.CHOICE, "", RULESETS[0], choices=RULESETS)),
    *(fields.parameter(f) for f in CATALOGUE),
]


def _own(options: dict[str, Any], declared: tuple[Field, ...]) -> dict[str, Any]:
    """The options a system declared, as given (None: not given)."""
    names = {f.name for f in declared}
    return {k: v for k, v in options.items() if k in names and v is not None}


async def _game_here(interaction: discord.Interaction, command: str) -> LoadedGame:
    game = await service_of(interaction).game_in_channel(interaction.channel_id)
    if game is None:
        raise Refusal("dogfight.in_thread", command=command)
    return game


def _switch_command(switch: Switch) -> Any:
    """The callback of one host switch (``/dogfight bonus apply:True``)."""

    async def callback(self: DogfightCog, interaction: discord.Interaction, **given: Any) -> None:
        game = await _game_here(interaction, f"/dogfight {switch.command}")
        value = given[switch.param.name]
        service = service_of(interaction)
        game = await service.set_option(game, interaction.user.id, switch.option, value)
        public = await server_language(service.storage, interaction.guild_id)
        line = game.presenter.switch_line(switch.option, value)
        await interaction.response.send_message(tr(line, public))
        await refresh_lobby(interaction, game)

    callback.__qualname__ = f"DogfightCog.{switch.command}"
    param = fields.parameter(switch.param, bool, inspect.Parameter.empty)
    callback.__signature__ = fields.signature([param])  # type: ignore[attr-defined]
    return callback


def _suggest(field: Field) -> Any:
    """The autocomplete of a ``/dogfight new`` option the systems suggest
    (:attr:`FieldKind.SUGGEST`, an Eagles in the Sky scenario): the choices of the
    system a new game on this server would run on (with its content packs), of the
    ruleset chosen so far or of every system declaring the option."""

    async def callback(
        self: DogfightCog, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        ruleset = getattr(interaction.namespace, "ruleset", None)
        systems = [rulesets()[ruleset]] if ruleset in rulesets() else list(hosted_ids())
        packs = ContentPacks(service_of(interaction).storage)
        key = current.strip().lower()
        found: list[str] = []
        for system_id in systems:
            try:
                system = await packs.system_for(interaction.guild_id, system_id)
            except Refusal:  # a stored pack fails now: /dogfight new says why
                system = hosted(system_id)
            declared = [f for f in system.presenter().option_fields() if f.name == field.name]
            found += [c for f in declared for c in f.choices if key in c.lower()]
        return [app_commands.Choice(name=c[:100], value=c[:100]) for c in dict.fromkeys(found)][:25]

    callback.__qualname__ = f"DogfightCog.suggest_{field.name}"
    return callback


class DogfightCog(commands.Cog):
    """Lobby commands. Each callback: resolve inputs, call the service, answer."""

    dogfight = app_commands.Group(name="dogfight", description=cmd_text("cmd.dogfight.description"))

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot

    async def _new(self, interaction: discord.Interaction, **given: Any) -> None:
        ruleset = str(given["ruleset"])
        system = rulesets()[ruleset]
        # The server's settings: allowed systems and rulesets, the games channel.
        channel = await lobby_channel(interaction, system, ruleset)
        service = service_of(interaction)
        own = _own(given, hosted(system).presenter().option_fields())
        game = await service.new_lobby(
            guild_id=channel.guild.id,
            channel_id=channel.id,
            host_id=interaction.user.id,
            system=system,
            ruleset=ruleset,
            format=given["format"],
            responses=given["responses"],
            turn_hours=given["turn_hours"],
            response_hours=given["response_hours"],
            opponent=given["opponent"],
            level=given["level"],
            rated=given["rated"],
            **own,
        )
        public = await server_language(service.storage, channel.guild.id)
        await interaction.response.send_message(t("dogfight.opening", public, id=game.id))
        thread = await channel.create_thread(
            name=t("dogfight.thread_name", public, id=game.id),
            type=discord.ChannelType.public_thread,
        )
        view = lobby_view(service, game, public) or new_view()
        lobby = await thread.send(
            service.lobby_text(game, public),
            allowed_mentions=discord.AllowedMentions.none(),
            view=view,
        )
        forget_view({"view": view})
        await service.attach_thread(game, thread.id, lobby.id)
        await interaction.edit_original_response(
            content=t("dogfight.opened", public, id=game.id, thread=thread.mention)
        )

    _new.__signature__ = fields.signature(_NEW)  # type: ignore[attr-defined]
    _new = app_commands.describe(
        format=cmd_text("cmd.dogfight.new.param.format"),
        ruleset=cmd_text("cmd.dogfight.new.param.ruleset"),
        responses=cmd_text("cmd.dogfight.new.param.responses"),
        opponent=cmd_text("cmd.dogfight.new.param.opponent"),
        level=cmd_text("cmd.dogfight.new.param.level"),
        rated=cmd_text("cmd.dogfight.new.param.rated"),
        turn_hours=cmd_text("cmd.dogfight.new.param.turn_hours"),
        response_hours=cmd_text("cmd.dogfight.new.param.response_hours"),
        **fields.describe(OPTIONS),
    )(_new)
    new = dogfight.command(name="new", description=cmd_text("cmd.dogfight.new.description"))(_new)
    for _field in (f for f in OPTIONS if f.kind is FieldKind.SUGGEST):
        new.autocomplete(_field.name)(_suggest(_field))
    del _field

    async def _join(self, interaction: discord.Interaction, **given: Any) -> None:
        game = await _game_here(interaction, "/dogfight join")
        service = service_of(interaction)
        game, taken = await service.join(
            game,
            interaction.user.id,
            interaction.user.display_name,
            given["aircraft"],
            given["side"],
            seat=given["seat"],
            computer=given["computer"],
            **_own(given, game.presenter.pick_fields()),
        )
        public = await server_language(service.storage, interaction.guild_id)
        await interaction.response.send_message(
            service.joined_text(game, interaction.user.id, taken, public)
        )
        await refresh_lobby(interaction, game)

    _join.__signature__ = fields.signature(_JOIN)  # type: ignore[attr-defined]
    _join = app_commands.describe(
        side=cmd_text("cmd.dogfight.join.param.side"),
        aircraft=cmd_text("cmd.dogfight.join.param.aircraft"),
        seat=cmd_text("cmd.dogfight.join.param.seat"),
        computer=cmd_text("cmd.dogfight.join.param.computer"),
        **fields.describe(PICKS),
    )(_join)
    join = dogfight.command(name="join", description=cmd_text("cmd.dogfight.join.description"))(
        _join
    )

    @join.autocomplete("side")
    async def side_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = await service_of(interaction).game_in_channel(interaction.channel_id)
        if game is None:
            return []
        language = await language_of(interaction)
        key = current.strip().lower()
        return [
            app_commands.Choice(name=tr(s.name, language)[:100], value=s.id)
            for s in game.sides()
            if s.id.startswith(key) or tr(s.name, language).lower().startswith(key)
        ][:25]

    @join.autocomplete("aircraft")
    async def aircraft_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        service = service_of(interaction)
        game = await service.game_in_channel(interaction.channel_id)
        if game is None:
            return []
        side = getattr(interaction.namespace, "side", None) or None
        if side is not None and side not in {s.id for s in game.sides()}:
            side = None
        return [
            app_commands.Choice(
                name=(f"{c.label} ({c.description})" if c.description else c.label)[:100],
                value=c.id,
            )
            for c in service.aircraft_choices(game, side, current)
        ][:25]

    @join.autocomplete("seat")
    async def seat_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        service = service_of(interaction)
        game = await service.game_in_channel(interaction.channel_id)
        if game is None:
            return []
        side = getattr(interaction.namespace, "side", None)
        wanted = side if side in {s.id for s in game.sides()} else None
        mine = [
            s
            for s in game.seats_of(interaction.user.id)
            if wanted is None or game.side_of(s) == wanted
        ]
        language = await language_of(interaction)
        choices = [
            app_commands.Choice(name=t("dogfight.seat_open", language, seat=s), value=s)
            for s in service.open_seats(game, wanted)
        ]
        choices += [
            app_commands.Choice(name=t("dogfight.seat_yours", language, seat=s), value=s)
            for s in mine
        ]
        key = current.strip().upper()
        return [c for c in choices if c.value.startswith(key)][:25]

    @dogfight.command(name="leave", description=cmd_text("cmd.dogfight.leave.description"))
    @app_commands.describe(seat=cmd_text("cmd.dogfight.leave.param.seat"))
    async def leave(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        game = await _game_here(interaction, "/dogfight leave")
        service = service_of(interaction)
        game, left = await service.leave(game, interaction.user.id, seat)
        public = await server_language(service.storage, interaction.guild_id)
        await interaction.response.send_message(
            t("dogfight.left", public, user=f"<@{interaction.user.id}>", seat=left),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await refresh_lobby(interaction, game)

    for _switch in fields.switches():
        dogfight.command(name=_switch.command, description=cmd_text(_switch.description))(
            app_commands.describe(**fields.describe([_switch.param]))(_switch_command(_switch))
        )
    del _switch

    @dogfight.command(name="start", description=cmd_text("cmd.dogfight.start.description"))
    async def start(self, interaction: discord.Interaction) -> None:
        game = await _game_here(interaction, "/dogfight start")
        service = service_of(interaction)
        outcome = await service.start(game, interaction.user.id)
        view = hand_view(game.id)
        public = await server_language(service.storage, interaction.guild_id)
        begins = tr(game.presenter.begins(game.options), public)
        await interaction.response.send_message(begins, view=view)
        forget_view({"view": view})
        await refresh_lobby(interaction, outcome.game)
        await app_of(interaction).publisher.publish(outcome)

    async def _aircraft(self, interaction: discord.Interaction, **given: Any) -> None:
        ruleset = str(given["ruleset"])
        storage = service_of(interaction).storage
        system = await ContentPacks(storage).system_for(interaction.guild_id, rulesets()[ruleset])
        presenter = system.presenter()
        language = await language_of(interaction)
        chosen = {f.name: given[f.name] for f in presenter.catalogue_fields()}
        options = options_of(system, ruleset, chosen)
        await reply(interaction, "\n".join(presenter.aircraft_lines(options, language)))

    _aircraft.__signature__ = fields.signature(_AIRCRAFT)  # type: ignore[attr-defined]
    _aircraft = app_commands.describe(
        ruleset=cmd_text("cmd.dogfight.aircraft.param.ruleset"), **fields.describe(CATALOGUE)
    )(_aircraft)
    aircraft = dogfight.command(
        name="aircraft", description=cmd_text("cmd.dogfight.aircraft.description")
    )(_aircraft)


async def setup(bot: TallyHoBot) -> None:
    await bot.add_cog(DogfightCog(bot))
