"""An Eagles in the Sky lobby in words: what ``/dogfight new`` and ``/dogfight join``
ask, the host's switches, the lobby message's lines (the engagement, each side's
aircraft and points, each seat's share of the Flight), ``/dogfight aircraft``, and the
system's help pages.

``/dogfight new`` holds 25 options for every system together, so the Flights' method
and its number are one text (``flight``: ``choice``, ``cup 4``, ``cup`` for the §3.53
draw, ``points 40``), and the weather and the per-aircraft rules are host switches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.core.contract import SeatPick, SideInfo
from engine.core.present import Field, FieldKind, HelpPage, Switch
from engine.eagles.components import ScenarioRule, Zone
from engine.eagles.describe import altitude_word
from engine.eagles.lobby import (
    ENGAGEMENTS,
    EaglesOptions,
    EaglesPick,
    scenario_choice,
)
from strings import Term, t, tr

if TYPE_CHECKING:
    from engine.eagles.game import EaglesEngine

__all__ = [
    "CATALOGUE_FIELDS",
    "HELP_PAGES",
    "OPTION_FIELDS",
    "PICK_FIELDS",
    "SWITCHES",
    "aircraft_lines",
    "menu_hint",
    "notes",
    "option_fields",
    "pick_text",
    "side_heading",
    "switch_line",
    "title",
]


def option_fields(engine: EaglesEngine) -> tuple[Field, ...]:
    """``/dogfight new``'s Eagles in the Sky options (:class:`EaglesOptions` by name, all
    optional: a Patrol in April 1918, aircraft chosen); the scenarios suggested are the
    engine's (the shipped ones and its content packs')."""
    names = {n: sc.name for n, sc in engine.components.scenarios.items()}
    scenario = Field(
        "scenario",
        FieldKind.SUGGEST,
        "eagles.ui.cmd.scenario",
        choices=tuple(scenario_choice(n, names) for n in sorted(names)),
    )
    return (scenario, *OPTION_FIELDS)


OPTION_FIELDS = (
    Field("engagement", FieldKind.CHOICE, "eagles.ui.cmd.engagement", choices=ENGAGEMENTS),
    Field("month", FieldKind.TEXT, "eagles.ui.cmd.month"),
    Field("zone", FieldKind.CHOICE, "eagles.ui.cmd.zone", choices=tuple(z.value for z in Zone)),
    Field("altitude", FieldKind.CHOICE, "eagles.ui.cmd.altitude", choices=("T", "L", "M", "H")),
    Field("attacker", FieldKind.CHOICE, "eagles.ui.cmd.attacker", choices=("allied", "german")),
    Field("flight", FieldKind.TEXT, "eagles.ui.cmd.flight"),
)
"""The options of :func:`option_fields` but the scenario, the same for every engine."""
PICK_FIELDS = (
    Field("more", FieldKind.TEXT, "eagles.ui.cmd.more"),
    Field("leader", FieldKind.TEXT, "eagles.ui.cmd.leader"),
    Field("mission", FieldKind.TEXT, "eagles.ui.cmd.mission"),
    Field("pilots", FieldKind.TEXT, "eagles.ui.cmd.pilots"),
    Field("rating", FieldKind.TEXT, "eagles.ui.cmd.rating"),
)
"""``/dogfight join``'s extras: more aircraft for the seat's share, its Flight Leader,
the attacker's mission aircraft type, the seat's other pilots, the rating that sets the
hand where §7.11 lets the side choose."""
SWITCHES = (
    Switch(
        "weather",
        "eagles.ui.cmd.switch_weather",
        "weather",
        Field("draw", FieldKind.BOOL, "eagles.ui.cmd.weather_draw"),
    ),
    Switch(
        "aircraftrules",
        "eagles.ui.cmd.switch_rules",
        "aircraft_rules",
        Field("apply", FieldKind.BOOL, "eagles.ui.cmd.rules_apply"),
    ),
)
CATALOGUE_FIELDS = (Field("month", FieldKind.TEXT, "eagles.ui.cmd.catalogue_month"),)
HELP_PAGES = (
    HelpPage("eagles_lobby", "eagles.ui.help.lobby.title", "eagles.ui.help.lobby.body"),
    HelpPage("eagles_play", "eagles.ui.help.play.title", "eagles.ui.help.play.body"),
    HelpPage("rules_eagles", "eagles.help.rules.title", "eagles.help.rules.body", True),
)
LINES_BUDGET = 1850
"""Characters of ``/dogfight aircraft``'s answer (a Discord message holds 2000)."""


def _pick(pick: Any) -> EaglesPick:
    return pick if isinstance(pick, EaglesPick) else EaglesPick.model_validate(pick)


def _flight(options: EaglesOptions, language: str) -> str:
    if options.method == "cup":
        if options.scouts is None:
            return t("eagles.ui.lobby.flight.cup_draw", language)
        return t("eagles.ui.lobby.flight.cup", language, n=options.scouts)
    if options.method == "points":
        return t("eagles.ui.lobby.flight.points", language, n=options.points)
    return t("eagles.ui.lobby.flight.choice", language)


def engagement_words(engine: EaglesEngine, options: EaglesOptions, language: str) -> str:
    """``Balloon Busting over the German Front Lines at Low, April 1918``."""
    if options.scenario is not None:
        sc = engine.components.scenarios[options.scenario]
        return t(
            "eagles.ui.lobby.scenario",
            language,
            n=sc.number,
            name=sc.name,
            date=sc.date,
            engagement=tr(Term(f"eagles.engagement.{sc.type.value}"), language),
        )
    kind = (
        t("eagles.ui.lobby.drawn_type", language)
        if options.drawn
        else tr(Term(f"eagles.engagement.{options.engagement}"), language)
    )
    where = (
        t("eagles.ui.lobby.over", language, zone=tr(Term(f"eagles.zone.{options.zone}"), language))
        if options.zone
        else ""
    )
    height = (
        t("eagles.ui.lobby.at", language, altitude=tr(altitude_word(options.altitude), language))
        if options.altitude
        else ""
    )
    attacker = (
        t(
            "eagles.ui.lobby.attacker",
            language,
            side=tr(Term(f"eagles.ui.side.{options.attacker}"), language),
        )
        if options.attacker
        else ""
    )
    return t(
        "eagles.ui.lobby.engagement",
        language,
        kind=kind,
        where=where,
        height=height,
        month=options.month,
        attacker=attacker,
    )


def title(
    engine: EaglesEngine, options: EaglesOptions, game_id: int, format: str, language: str
) -> str:
    """``**Dogfight #12**: Eagles in the Sky, Patrol, 1918-04, 2 v 2; aircraft chosen.``"""
    rules = []
    if options.weather:
        rules.append(t("eagles.ui.lobby.rule.weather", language))
    if not options.aircraft_rules:
        rules.append(t("eagles.ui.lobby.rule.no_aircraft_rules", language))
    flight = "" if options.scenario is not None else _flight(options, language)
    return t(
        "eagles.ui.lobby.head",
        language,
        id=game_id,
        engagement=engagement_words(engine, options, language),
        format=format,
        flight=t("eagles.ui.lobby.flight_of", language, flight=flight) if flight else "",
        rules=t("eagles.ui.lobby.rules", language, rules=", ".join(rules)) if rules else "",
    )


def _points(engine: EaglesEngine, picks: Sequence[EaglesPick]) -> int:
    return sum(engine.aircraft[a].points for p in picks for a in p.aircraft if a in engine.aircraft)


def side_heading(
    engine: EaglesEngine,
    options: EaglesOptions,
    side: SideInfo,
    seats: Sequence[SeatPick],
    language: str,
) -> str:
    """``**Allies**: 3 aircraft, 33 points (of 40)``."""
    head = t("eagles.ui.lobby.side_head", language, side=tr(side.name, language))
    mine = [_pick(s.pick) for s in seats if s.side == side.id]
    if not mine:
        return head + t("eagles.ui.lobby.nobody", language)
    if options.scenario is not None:
        sc = engine.components.scenarios[options.scenario]
        force = sc.allied if side.id == "allied" else sc.german
        planes = ", ".join(f"{engine.aircraft[a.aircraft].name} ×{a.count}" for a in force.aircraft)
        return head + t("eagles.ui.lobby.force", language, planes=planes or "-")
    if options.method == "cup":
        return head + t("eagles.ui.lobby.side_cup", language, flight=_flight(options, language))
    n = sum(len(p.aircraft) for p in mine)
    limit = (
        t("eagles.ui.lobby.of_points", language, limit=options.points)
        if options.method == "points" and options.points
        else ""
    )
    return head + t(
        "eagles.ui.lobby.side_points", language, n=n, points=_points(engine, mine), limit=limit
    )


def pick_text(engine: EaglesEngine, options: EaglesOptions, pick: Any, language: str) -> str:
    """``SPAD XIII, Camel; Flight Leader Luke: 21 pts``, or ``Scouts from the cup``."""
    p = _pick(pick)
    extras = ""
    if p.pilots:
        words = ", ".join(t(f"eagles.ui.lobby.quality.{q}", language) for q in p.pilots)
        extras += t("eagles.ui.lobby.pilots", language, pilots=words)
    if p.mission and p.mission in engine.aircraft:
        extras += t("eagles.ui.lobby.mission", language, aircraft=engine.aircraft[p.mission].name)
    if p.rating:
        extras += t(f"eagles.ui.lobby.rating.{p.rating}", language)
    if not p.aircraft:
        return t("eagles.ui.lobby.cup_pick", language) + extras
    names = ", ".join(engine.aircraft[a].name if a in engine.aircraft else a for a in p.aircraft)
    if options.scenario is not None:
        return t("eagles.ui.lobby.flies", language, planes=names)
    leader = ""
    if p.leader and p.leader in engine.leaders:
        leader = t("eagles.ui.lobby.leader", language, leader=engine.leaders[p.leader].name)
    leader += extras
    return t(
        "eagles.ui.lobby.pick",
        language,
        planes=names,
        leader=leader,
        points=_points(engine, [p]),
    )


def notes(
    engine: EaglesEngine,
    options: EaglesOptions,
    seats: Sequence[SeatPick],
    *,
    open_lobby: bool,
    language: str,
) -> list[str]:
    """How the Flights are formed, the points left, a scenario's forces and whether
    the rules play the Germans."""
    lines: list[str] = []
    if options.scenario is not None:
        sc = engine.components.scenarios[options.scenario]
        lines.append(
            t(
                "eagles.ui.lobby.scenario_note",
                language,
                engagements=sc.engagements,
                turns=sc.turns_per_engagement,
            )
        )
        if ScenarioRule.SOLITAIRE in sc.rules:
            lines.append(t("eagles.ui.lobby.solitaire", language))
        return lines
    if options.method == "points" and options.points:
        parts = []
        for side in ("allied", "german"):
            total = _points(engine, [_pick(s.pick) for s in seats if s.side == side])
            parts.append(
                t(
                    "eagles.ui.lobby.points_left",
                    language,
                    side=tr(Term(f"eagles.ui.side.{side}"), language),
                    n=options.points - total,
                )
            )
        lines.append(" · ".join(parts))
    if open_lobby:
        lines.append(t(f"eagles.ui.lobby.how.{options.method}", language))
    return lines


def switch_line(option: str, value: Any) -> str:
    return Term(f"eagles.ui.dogfight.{option}_{'on' if value else 'off'}")


def menu_hint(more: bool, language: str) -> str:
    key = "eagles.ui.lobby.menu.more" if more else "eagles.ui.lobby.menu.join_instead"
    return t(key, language)


def aircraft_lines(engine: EaglesEngine, options: EaglesOptions, language: str) -> list[str]:
    """``/dogfight aircraft``: every Scout in service that month, Allied then German,
    with its ratings, defence, guns and points; as many as one message holds."""
    when = options.when
    allowed = [
        ac
        for ac in sorted(engine.aircraft.values(), key=lambda a: (a.side.value, a.name))
        if ac.available(when) and ac.scout
    ]
    if not allowed:
        return [t("eagles.ui.dogfight.no_aircraft", language, month=options.month)]
    lines = [t("eagles.ui.dogfight.aircraft_head", language, month=options.month)]
    size = len(lines[0])
    for i, ac in enumerate(allowed):
        line = t(
            "eagles.ui.dogfight.aircraft_line",
            language,
            id=ac.id,
            name=ac.name,
            side=tr(Term(f"eagles.ui.side.{ac.side.value}"), language),
            climb=ac.climb,
            dive=ac.dive,
            speed=ac.speed,
            agility=ac.agility,
            defence=tr(Term(f"eagles.ui.defence.{ac.defence.name.lower()}"), language),
            guns=ac.guns_text,
            points=ac.points,
        )
        if size + len(line) + 1 > LINES_BUDGET:
            lines.append(t("eagles.ui.dogfight.more", language, n=len(allowed) - i))
            break
        lines.append(line)
        size += len(line) + 1
    return lines
