"""The Discord components of every game: the **My hand** button, one button per quick
action, and one generic menu that walks a tree of choices.

What a menu offers comes from a system's presenter as an
:class:`engine.core.present.Menu` (or, for the lobby, from the generic lobby): each
top menu is a tree of :class:`~engine.core.present.Choice` (pick the card, then its use,
then its target), or a multi-pick (:class:`~engine.core.present.Several`: the cards to
discard). :class:`MenuSelect` shows one level of it; picking a branch shows the next
level in place (a private message is edited, a public one answered privately), with
a **Back** option; picking a leaf does what the menu's :class:`MenuContext` says (play
that action, take that seat...). A level of more than 25 options ends with **More…**.

Every component is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries what
it needs: ``th:a:{game}:{seat}:{version}:{action}`` for an action button,
``th:{kind}:{args}`` for a menu (``kind`` names its context: ``s`` a seat's decision,
``o`` a side's, ``j`` the lobby's seats, ``ac`` a seat's aircraft; a game menu's last
argument is its path in the tree). The tree is rebuilt from the game when clicked, so
buttons and menus keep working after a restart; a game menu carries the game's version,
so an outdated one is refused rather than applied twice.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.errors import Refusal
from cogs.boundary import Guarded
from cogs.context import app_of, forget_view, language_of, new_view
from cogs.help import HelpButton
from engine.core.present import Choice, Menu, Tone
from strings import t

__all__ = [
    "COMPONENTS",
    "MAX_ROWS",
    "ActionButton",
    "HandButton",
    "MenuContext",
    "MenuSelect",
    "hand_view",
    "menu_view",
    "resolve",
]

log = logging.getLogger(__name__)

MAX_ROWS = 5
"""Rows of components a Discord message may carry (a menu fills one, buttons go five
to a row)."""
MAX_OPTIONS = 25
"""Options of a Discord menu."""
BACK = "<"
BRANCH = ">"
LEAF = "#"
"""Option values that are not an action's text: back up, open a branch (its index),
a leaf whose text is too long for a value (its index)."""
SEAT = r"[A-Za-z][A-Za-z0-9]{0,7}"
STYLES = {
    Tone.MOVE: discord.ButtonStyle.primary,
    Tone.QUIET: discord.ButtonStyle.secondary,
    Tone.CONFIRM: discord.ButtonStyle.success,
}


class MenuContext(Protocol):
    """What a menu is about: where its choices come from, and what a pick does."""

    public: bool
    """Posted for everyone (a thread message): a branch opens privately."""

    def custom_id(self, path: Sequence[int]) -> str:
        """The ``custom_id`` of the menu at ``path`` (its top menu's index first)."""
        ...

    async def menu(self, interaction: discord.Interaction) -> Menu:
        """The choices now (rebuilt at each click; refused when out of date)."""
        ...

    async def choose(self, interaction: discord.Interaction, action: str, label: str) -> None:
        """A leaf was picked: ``action`` (a canonical text), shown as ``label``."""
        ...

    def button(self, choice: Choice) -> discord.ui.Item[Any] | None:
        """The button of a quick choice (None: this menu has none)."""
        ...


# ---------------------------------------------------------------- walking a tree
def _room(depth: int) -> int:
    """Options a level has for choices: all 25 at the top, one less below (Back)."""
    return MAX_OPTIONS if depth == 0 else MAX_OPTIONS - 1


def _level(node: Choice, depth: int) -> tuple[Choice, ...]:
    """The choices a level shows: a node's children, the last ones behind **More…**
    when there are too many (a synthetic branch, walked like any other)."""
    children, room = node.children, _room(depth)
    if len(children) <= room:
        return children
    rest = Choice(t("menu.more"), children=children[room - 1 :], placeholder=node.placeholder)
    return (*children[: room - 1], rest)


def resolve(menu: Menu, path: Sequence[int]) -> Choice | None:
    """The node of ``menu`` at ``path`` (a top menu's index, then one index per level),
    or None if the path no longer leads anywhere."""
    if not path or not 0 <= path[0] < len(menu.menus):
        return None
    node = menu.menus[path[0]]
    for depth, j in enumerate(path[1:]):
        kids = _level(node, depth)
        if not 0 <= j < len(kids) or kids[j].leaf:
            return None
        node = kids[j]
    return node


def _value(choice: Choice, j: int) -> str:
    if choice.action is None:
        return f"{BRANCH}{j}"
    if len(choice.action) > 100 or choice.action[:1] in (BACK, BRANCH, LEAF):
        return f"{LEAF}{j}"
    return choice.action


def _select(context: MenuContext, node: Choice, path: Sequence[int]) -> MenuSelect:
    """The select of ``node`` at ``path``: its children (with Back below the top), or
    the items of a multi-pick."""
    depth = len(path) - 1
    if node.several is not None:
        items = node.several.items[:MAX_OPTIONS]
        options = [
            discord.SelectOption(
                label=item.label[:100] or "-",
                value=f"{k}:{item.token}"[:100],
                description=(item.description or "")[:100] or None,
            )
            for k, item in enumerate(items)
        ]
        most = min(node.several.most or len(options), len(options))
        least = min(node.several.least, most)
        return MenuSelect(context.custom_id(path), options, node.placeholder, least, most)
    options = []
    if depth > 0:
        options.append(discord.SelectOption(label=t("menu.back"), value=BACK, emoji="◀"))
    for j, child in enumerate(_level(node, depth)):
        options.append(
            discord.SelectOption(
                label=child.label[:100] or "-",
                value=_value(child, j),
                description=(child.description or "")[:100] or None,
            )
        )
    return MenuSelect(context.custom_id(path), options, node.placeholder)


def menu_view(
    context: MenuContext, menu: Menu, *, open_at: Sequence[int] = (), only: bool = False
) -> discord.ui.View | None:
    """The components of ``menu``: one select per top menu, then the buttons, within
    Discord's five rows. ``open_at``: show the top menu ``open_at[0]`` at that path;
    ``only``: that menu alone (a private answer to a public menu)."""
    if not menu:
        return None
    view = new_view()
    if only:
        node = resolve(menu, open_at)
        if node is None:
            return None
        view.add_item(_select(context, node, open_at))
        return view
    menus = menu.menus[:MAX_ROWS]
    if len(menu.menus) > len(menus):
        log.warning("%d menus do not fit one message; /play still accepts them", len(menu.menus))
    for i, top in enumerate(menus):
        path = tuple(open_at) if open_at and open_at[0] == i else (i,)
        node = resolve(menu, path) or top
        view.add_item(_select(context, node, path if node is not top else (i,)))
    free = (MAX_ROWS - len(menus)) * 5
    for choice in menu.buttons[:free]:
        button = context.button(choice)
        if button is not None:
            view.add_item(button)
    return view


# ---------------------------------------------------------------- the components
class HandButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"th:hand:(?P<game>\d+)(?::(?P<told>\d+))?(?P<end>:end)?",
):
    """The persistent **My hand** button under every thread message. Under a published
    step it also carries the seq of the last action the message tells (``told``), and
    ``:end`` under the message telling an end that came without an action (a
    resignation, a forfeit, an abort): the thread itself then says how far it was told
    (``cogs.outbox``)."""

    def __init__(self, game_id: int, told: int | None = None, *, end: bool = False) -> None:
        suffix = "" if told is None else f":{told}" + (":end" if end else "")
        super().__init__(
            discord.ui.Button(
                label="My hand",
                emoji="🂠",
                style=discord.ButtonStyle.primary,
                custom_id=f"th:hand:{game_id}{suffix}",
            )
        )
        self.game_id = game_id
        self.told = told

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandButton:
        told = match["told"]
        return cls(int(match["game"]), None if told is None else int(told), end=bool(match["end"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await app_of(interaction).show_hand(interaction, self.game_id)


class ActionButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"th:a:(?P<game>\d+):(?P<seat>{SEAT}):(?P<version>\d+):(?P<action>.+)",
):
    """One legal action of one seat at one version of the game."""

    def __init__(
        self,
        game_id: int,
        seat: str,
        version: int,
        action: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or action)[:80],
                style=style,
                custom_id=f"th:a:{game_id}:{seat}:{version}:{action}"[:100],
            )
        )
        self.game_id, self.seat, self.version, self.action = game_id, seat, version, action

    @classmethod
    def of(cls, game_id: int, seat: str, version: int, choice: Choice) -> ActionButton:
        assert choice.action is not None
        style = STYLES[choice.tone]
        return cls(game_id, seat, version, choice.action, choice.label, style)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        return cls(int(match["game"]), match["seat"], int(match["version"]), match["action"])

    async def run(self, interaction: discord.Interaction) -> None:
        await app_of(interaction).act(
            interaction, self.game_id, self.seat, self.action, self.version
        )


class MenuSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"th:(?P<kind>s|o|j|ac|t|d|r|cm):(?P<args>[A-Za-z0-9:.]*)",
):
    """The one menu: a level of a tree of choices, or a multi-pick.

    (Kinds ``t``, ``d`` and ``r`` are the target, discard and redraw menus of the
    release before this one: refused as out of date, so their players press **My
    hand** for fresh menus instead of seeing the interaction fail.)"""

    def __init__(
        self,
        custom_id: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        least: int = 1,
        most: int = 1,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
                min_values=least,
                max_values=most,
            )
        )
        self.kind, _, self.args = custom_id.removeprefix("th:").partition(":")

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MenuSelect:
        return cls(match.string)

    async def run(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        context, path = app_of(interaction).menu_context(self.kind, self.args.split(":"))
        menu = await context.menu(interaction)
        node = resolve(menu, path or (0,))
        if node is None or not values:
            raise Refusal("refusal.stale_buttons")
        if node.several is not None:
            items = node.several.items
            picked = [
                items[int(v.split(":", 1)[0])] for v in values if v.split(":", 1)[0].isdigit()
            ]
            await context.choose(interaction, node.several.action([i.token for i in picked]), "")
            return
        value = values[0]
        depth = len(path) - 1
        if value == BACK:
            await self._show(interaction, context, menu, tuple(path[:-1]) or (path[0],))
            return
        kids = _level(node, depth)
        if value[:1] in (BRANCH, LEAF):
            j = int(value[1:]) if value[1:].isdigit() else -1
            if not 0 <= j < len(kids):
                raise Refusal("refusal.stale_buttons")
            chosen = kids[j]
            if chosen.action is None:
                await self._show(interaction, context, menu, (*path, j))
                return
            await context.choose(interaction, chosen.action, chosen.label)
            return
        chosen_leaf = next((c for c in kids if c.action == value), None)
        if chosen_leaf is None:  # not offered now: an older menu
            raise Refusal("refusal.stale_buttons")
        await context.choose(interaction, value, chosen_leaf.label)

    @staticmethod
    async def _show(
        interaction: discord.Interaction, context: MenuContext, menu: Menu, path: tuple[int, ...]
    ) -> None:
        """Show the tree at ``path``: in place on a private message, else privately."""
        message = interaction.message
        private = message is not None and (
            message.flags.ephemeral or message.guild is None or not context.public
        )
        if private:
            view = menu_view(context, menu, open_at=path)
            await interaction.response.edit_message(view=view)
        else:
            view = menu_view(context, menu, open_at=path, only=True)
            await interaction.response.send_message(
                content=t("menu.private", await language_of(interaction)),
                view=view or discord.utils.MISSING,
                ephemeral=True,
            )
        if view is not None:
            forget_view({"view": view})


COMPONENTS = (HandButton, ActionButton, MenuSelect)


def hand_view(game_id: int, told: int | None = None, *, end: bool = False) -> discord.ui.View:
    """The **My hand** button and the help button, under every game message; ``told``:
    the last action a published step tells, ``end``: it tells an end that came without
    an action (see :class:`HandButton`)."""
    view = new_view()
    view.add_item(HandButton(game_id, told, end=end))
    view.add_item(HelpButton())  # every game message points to /help
    return view
