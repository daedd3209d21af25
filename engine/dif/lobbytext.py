"""A Down in Flames lobby in words: what ``/dogfight new`` and ``/dogfight join`` ask,
the lobby message's DiF lines (the title, each side's points and each element, the
balancing figures of 13.1-13.4 and RotL's advice on equal numbers), ``/dogfight
aircraft``, and the help pages of the system."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.contract import SeatPick, SideInfo
from engine.core.present import Field, FieldKind, HelpPage, Switch
from engine.dif import balance
from engine.dif.components import Ruleset, Side
from engine.dif.game import DifEngine
from engine.dif.picks import DifOptions, DifPick
from engine.dif.setup import ElementSetup
from strings import Term, t, tr

__all__ = [
    "CATALOGUE_FIELDS",
    "HELP_PAGES",
    "OPTION_FIELDS",
    "PICK_FIELDS",
    "SIDE_MARK",
    "SWITCHES",
    "aircraft_lines",
    "menu_hint",
    "notes",
    "pick_text",
    "ruleset_title",
    "side_heading",
    "switch_line",
    "title",
]

SIDE_MARK = {Side.ALLIED: "●", Side.AXIS: "◆"}
"""The side markers of the picture of the sky (rendering.dif)."""

OPTION_FIELDS = (
    Field("year", FieldKind.INT, "dif.ui.cmd.year", default=1942, low=1936, high=1945),
    Field("to_the_death", FieldKind.BOOL, "dif.ui.cmd.to_the_death", default=False),
    Field("vp_bonus", FieldKind.BOOL, "dif.ui.cmd.vp_bonus", default=False),
    Field("mixed", FieldKind.BOOL, "dif.ui.cmd.mixed", default=False),
)
PICK_FIELDS = (
    Field("wingman", FieldKind.BOOL, "dif.ui.cmd.wingman"),
    Field("pilot", FieldKind.TEXT, "dif.ui.cmd.pilot"),
)
SWITCHES = (
    Switch(
        "bonus",
        "dif.ui.cmd.bonus",
        "vp_bonus",
        Field("apply", FieldKind.BOOL, "dif.ui.cmd.bonus_apply"),
    ),
    Switch(
        "mixed",
        "dif.ui.cmd.mixed_switch",
        "mixed",
        Field("allow", FieldKind.BOOL, "dif.ui.cmd.mixed_allow"),
    ),
)
CATALOGUE_FIELDS = (
    Field("year", FieldKind.INT, "dif.ui.cmd.catalogue_year", default=1945, low=1936, high=1945),
)
HELP_PAGES = (
    HelpPage("lobby", "dif.ui.help.lobby.title", "dif.ui.help.lobby.body"),
    HelpPage("play", "dif.ui.help.play.title", "dif.ui.help.play.body"),
    HelpPage("rules_zero", "dif.ui.help.rules_zero.title", "dif.ui.help.rules_zero.body", True),
    HelpPage("rules_rotl", "dif.ui.help.rules_rotl.title", "dif.ui.help.rules_rotl.body", True),
)


def ruleset_title(ruleset: Ruleset, language: str = "en") -> str:
    """A rulebook's title (``dif.ui.ruleset.<id>``: the same in every language so far)."""
    return t(f"dif.ui.ruleset.{ruleset.value}", language)


def _count(key: str, n: int, language: str) -> str:
    one = n == 1 or (n == 0 and language == "fr")
    return t(f"{key}.{'one' if one else 'other'}", language, n=n)


def _elements(seats: Sequence[SeatPick]) -> list[ElementSetup]:
    return [ElementSetup(seat=s.seat, side=Side(s.side), **s.pick.model_dump()) for s in seats]


def title(options: DifOptions, game_id: int, format: str, language: str) -> str:
    """``**Dogfight #12**: Rise of the Luftwaffe, 1941, 2 v 2, six turns.``"""
    length = "dif.ui.lobby.death" if options.to_the_death else "dif.ui.lobby.six_turns"
    return t(
        "dif.ui.lobby.head",
        language,
        id=game_id,
        ruleset=ruleset_title(options.ruleset, language),
        year=options.year,
        format=format,
        length=t(length, language),
    )


def side_heading(
    engine: DifEngine,
    options: DifOptions,
    side: SideInfo,
    seats: Sequence[SeatPick],
    language: str,
) -> str:
    """``● **Allies**: 2 elements, 3 aircraft, **11 points** (with wingmen 13, leaders
    only 9, pilots 1)``; ``seats``: every seat of the lobby."""
    which = Side(side.id)
    p = balance.side_points(_elements(seats), engine.aircraft)[which]
    head = t(
        "dif.ui.lobby.side_head", language, mark=SIDE_MARK[which], side=tr(side.name, language)
    )
    if not p.elements:
        return head + t("dif.ui.lobby.nobody", language)
    head += t(
        "dif.ui.lobby.points",
        language,
        elements=_count("dif.ui.lobby.element", p.elements, language),
        aircraft=_count("dif.ui.lobby.aircraft", p.aircraft, language),
        points=_count("dif.ui.lobby.point", p.points, language),
        wingmen=p.with_wingmen,
        leaders=p.leaders_only,
        pilots=p.pilot_points,
    )
    if p.unpriced:
        head += t("dif.ui.lobby.unpriced", language, aircraft=", ".join(p.unpriced))
    return head


def pick_text(engine: DifEngine, pick: DifPick, language: str) -> str:
    """``P-40B with wingman, pilot A (Ace Pilot) +1: 6 pts``."""
    ac = engine.aircraft[pick.aircraft]
    wingman = "dif.ui.lobby.with_wingman" if pick.wingman else "dif.ui.lobby.without_wingman"
    text = f"{ac.name} {t(wingman, language)}"
    if pick.pilot:
        skills = ", ".join(f"{k.value} ({tr(k.label, language)}) +1" for k in pick.pilot)
        text += t("dif.ui.lobby.pilot", language, skills=skills)
    pts = balance.element_points(ac, wingman=pick.wingman, pilot_skills=len(pick.pilot))
    if pts is None:
        return text + t("dif.ui.lobby.no_value", language)
    points = _count("dif.ui.lobby.pt", pts, language)
    return t("dif.ui.lobby.element_points", language, element=text, points=points)


def notes(
    engine: DifEngine,
    options: DifOptions,
    seats: Sequence[SeatPick],
    *,
    open_lobby: bool,
    language: str,
) -> list[str]:
    """Zero!'s mixed-game choice, the 13.1 VP bonus and the rules' word on equal
    numbers (RotL L51 "should", as that line always read; Zero! 4.2 "must", with the
    ways to even the sides, while the lobby is open), for the lobby."""
    elements = _elements(seats)
    rs = options.ruleset
    lines = []
    if rs is Ruleset.ZERO:
        if options.mixed:
            lines.append(t("dif.ui.lobby.mixed.on", language))
        elif open_lobby:
            lines.append(t("dif.ui.lobby.mixed.off", language))
    if len({e.side for e in elements}) == 2:
        lower, vp = balance.vp_bonus(elements, engine.aircraft)
        on = options.vp_bonus
        if lower is None:
            lines.append(t(f"dif.ui.lobby.bonus.even_{'on' if on else 'off'}", language))
        elif on:
            side = tr(lower.phrase(rs), language)
            lines.append(t("dif.ui.lobby.bonus.on", language, side=side, vp=vp))
        else:
            side = tr(lower.phrase(rs), language)
            tail = t("dif.ui.lobby.bonus.can_apply", language) if open_lobby else ""
            lines.append(t("dif.ui.lobby.bonus.off", language, side=side, vp=vp) + tail)
        count = balance.unequal_sides(elements)
        if count is not None and rs is Ruleset.ROTL:
            lines.append(
                t(
                    "dif.ui.lobby.rotl_numbers",
                    language,
                    allied=tr(Side.ALLIED.label(rs), language),
                    axis=tr(Side.AXIS.label(rs), language),
                    n_allied=count[Side.ALLIED],
                    n_axis=count[Side.AXIS],
                )
            )
        unequal = balance.unequal_sides_warning(rs, elements)
        if unequal is not None and rs is Ruleset.ZERO and open_lobby:
            # Zero! 4.2 "must": the host hears it before the start (it refuses nothing).
            lines.append(t("dif.ui.lobby.warning", language, warning=tr(unequal, language)))
    return lines


def switch_line(option: str, value: Any) -> str:
    """The thread's line once the host turned the 13.1 VP bonus, or Zero!'s mixed
    game, on or off."""
    if option == "mixed":
        return Term("dif.ui.dogfight.mixed_on" if value else "dif.ui.dogfight.mixed_off")
    return Term(f"dif.ui.dogfight.bonus_{'on' if value else 'off'}")


def menu_hint(more: bool, language: str) -> str:
    return t("dif.ui.lobby.menu.more" if more else "dif.ui.lobby.menu.join_instead", language)


def aircraft_lines(engine: DifEngine, options: DifOptions, language: str) -> list[str]:
    """``/dogfight aircraft``: every aircraft of the ruleset in service that year, with
    its leader's ratings."""
    lines = []
    for ac in sorted(engine.aircraft.values(), key=lambda a: (a.side, a.name)):
        if engine.aircraft_refusal(options.ruleset, options.year, ac.id, None) is not None:
            continue
        u = ac.leader_card.undamaged
        tags = ", ".join(
            t(f"dif.ui.dogfight.tag.{tag}", language)
            for tag, on in (("agile", ac.agile), ("turbo", ac.turbocharged))
            if on
        )
        lines.append(
            t(
                "dif.ui.dogfight.aircraft_line",
                language,
                id=ac.id,
                name=ac.name,
                side=ac.side.value,
                year=ac.year,
                hand=u.hand_size,
                draw=u.draw,
                bursts=u.bursts,
                hits=u.damage_capacity,
                damaged=ac.leader_card.damaged.damage_capacity,
                tags=", " + tags if tags else "",
            )
        )
    return lines or [t("dif.ui.dogfight.no_aircraft", language)]
