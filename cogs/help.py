"""``/help``: short paged explanations of the commands and a one-screen rules summary
per ruleset, in the reader's language; the **Help** button under game messages.

Pages are catalogue texts: the generic ones (``help.pages.<id>.title`` and ``.body``
in ``strings/*/bot.yaml``) and each registered system's (its presenter's
``help_pages``, in its own strings: its commands' options before the generic pages
about games, its rules summaries at the end). Navigation buttons and the topic menu
are DynamicItems, so an old help message keeps working after a restart; each click
answers by editing the ephemeral message in place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.systems import hosted_ids, presenter
from cogs.boundary import Guarded
from cogs.context import forget_view, language_of, new_view, reply
from strings import DEFAULT, catalogue, normalize, t

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = [
    "PAGES",
    "PAGE_KEYS",
    "HelpButton",
    "HelpCog",
    "HelpTopicSelect",
    "Translator",
    "choices",
    "cmd_text",
    "help_view",
    "page_text",
]


def _pages() -> dict[str, tuple[str, str]]:
    """Every page's (title, body) keys, in reading order: getting started, each
    system's command pages, the generic pages about games, each system's rules."""

    def generic(*ids: str) -> dict[str, tuple[str, str]]:
        return {i: (f"help.pages.{i}.title", f"help.pages.{i}.body") for i in ids}

    system_pages = [p for s in hosted_ids() for p in presenter(s).help_pages()]
    return {
        **generic("start"),
        **{p.id: (p.title, p.body) for p in system_pages if not p.rules},
        **generic("game", "campaign", "away", "admin"),
        **{p.id: (p.title, p.body) for p in system_pages if p.rules},
    }


PAGE_KEYS: dict[str, tuple[str, str]] = _pages()
PAGES: tuple[str, ...] = tuple(PAGE_KEYS)
"""The help pages in reading order: the commands, then the rules of each ruleset."""
PAGE_LIMIT = 2000
"""A message's content limit: every page fits one screen (a test checks each language)."""


def cmd_text(key: str) -> locale_str:
    """A command's description or option text: English from the catalogue, with its
    key, so :class:`Translator` can localise it."""
    return locale_str(t(key), key=key)


def choices(prefix: str, values: Iterable[str]) -> list[app_commands.Choice[str]]:
    """Options' choices named from the catalogue (``<prefix>.<value>``), so the
    translator localises them; the values stay as they are."""
    return [app_commands.Choice(name=cmd_text(f"{prefix}.{v}"), value=v) for v in values]


def page_text(n: int, language: str) -> str:
    """Page ``n`` (0-based) of the help: title, body and where we are."""
    title_key, body_key = PAGE_KEYS[PAGES[n]]
    title = t(title_key, language)
    body = t(body_key, language)
    footer = t("help.page_of", language, n=n + 1, total=len(PAGES))
    return f"**{title}**\n{body}\n-# {footer}"


def help_view(n: int, language: str) -> discord.ui.View:
    """Back and Next buttons and the topic menu, for page ``n``."""
    view = new_view()
    view.add_item(HelpPageButton(max(n - 1, 0), "p", t("help.prev", language), disabled=n == 0))
    last = len(PAGES) - 1
    view.add_item(
        HelpPageButton(min(n + 1, last), "n", t("help.next", language), disabled=n == last)
    )
    options = [
        discord.SelectOption(
            label=t(PAGE_KEYS[page][0], language)[:100], value=str(i), default=i == n
        )
        for i, page in enumerate(PAGES)
    ]
    view.add_item(HelpTopicSelect(options, t("help.topics", language)))
    return view


async def show_page(interaction: discord.Interaction, n: int, *, edit: bool) -> None:
    """Answer with page ``n``: a new ephemeral message, or the clicked one edited."""
    language = await language_of(interaction)
    n = min(max(n, 0), len(PAGES) - 1)
    view = help_view(n, language)
    text = page_text(n, language)[:PAGE_LIMIT]
    if edit and interaction.message is not None and not interaction.response.is_done():
        await interaction.response.edit_message(content=text, view=view)
        forget_view({"view": view})
    else:
        await reply(interaction, text, view=view)


class HelpPageButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"th:help:(?P<page>\d+):(?P<way>[pn])",
):
    """Back (``p``) or Next (``n``) on a help message: shows page ``page``."""

    def __init__(self, page: int, way: str, label: str = "", *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or None,
                emoji="◀" if way == "p" else "▶",
                style=discord.ButtonStyle.secondary,
                custom_id=f"th:help:{page}:{way}",
                disabled=disabled,
            )
        )
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HelpPageButton:
        return cls(int(match["page"]), match["way"])

    async def run(self, interaction: discord.Interaction) -> None:
        await show_page(interaction, self.page, edit=True)


class HelpTopicSelect(
    Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"th:help:topic"
):
    """The topic menu of a help message."""

    def __init__(
        self, options: list[discord.SelectOption] | None = None, placeholder: str = ""
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="th:help:topic",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder or None,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HelpTopicSelect:
        return cls()

    async def run(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        page = int(values[0]) if values and values[0].isdigit() else 0
        await show_page(interaction, page, edit=True)


class HelpButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th:help"):
    """The **Help** button (an emoji, so it needs no language) under game messages:
    opens the help privately."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Button(emoji="❔", style=discord.ButtonStyle.secondary, custom_id="th:help")
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HelpButton:
        return cls()

    async def run(self, interaction: discord.Interaction) -> None:
        await show_page(interaction, 0, edit=False)


HELP_COMPONENTS = (HelpPageButton, HelpTopicSelect, HelpButton)


class Translator(app_commands.Translator):
    """Localises command descriptions, option descriptions and choice names from the
    catalogue; names stay English (they are typed, and must be unique).

    A string made with :func:`cmd_text` carries its key. Any other command's texts are
    looked up by their place: ``cmd.<command path>.description`` and
    ``cmd.<command path>.param.<option>``; choices by ``choice.<value>``. Nothing is
    sent where the catalogue has no translation, so Discord shows English.
    """

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = normalize(locale)
        if language is None or language == DEFAULT:
            return None
        key = string.extras.get("key") or self._key(context)
        return catalogue(language).get(key) if key else None

    @staticmethod
    def _key(context: app_commands.TranslationContextTypes) -> str | None:
        where = app_commands.TranslationContextLocation
        data: Any = context.data
        if context.location in (where.command_description, where.group_description):
            return f"cmd.{data.qualified_name.replace(' ', '.')}.description"
        if context.location is where.parameter_description:
            path = data.command.qualified_name.replace(" ", ".")
            return f"cmd.{path}.param.{data.name}"
        if context.location is where.choice_name:
            return f"choice.{data.value}"
        return None


TOPICS = [
    app_commands.Choice(name=locale_str(t(PAGE_KEYS[page][0]), key=PAGE_KEYS[page][0]), value=page)
    for page in PAGES
]


class HelpCog(commands.Cog):
    """``/help``."""

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description=cmd_text("cmd.help.description"))
    @app_commands.describe(topic=cmd_text("cmd.help.param.topic"))
    @app_commands.choices(topic=TOPICS)
    async def help(
        self, interaction: discord.Interaction, topic: app_commands.Choice[str] | None = None
    ) -> None:
        page = PAGES.index(topic.value) if topic is not None and topic.value in PAGES else 0
        await show_page(interaction, page, edit=False)


async def setup(bot: TallyHoBot) -> None:
    bot.add_dynamic_items(*HELP_COMPONENTS)
    await bot.add_cog(HelpCog(bot))


async def teardown(bot: TallyHoBot) -> None:
    bot.remove_dynamic_items(*HELP_COMPONENTS)
