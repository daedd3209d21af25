"""A Locked-On lobby in words: what ``/dogfight new`` and ``/dogfight join`` ask, the
host's switches, the lobby message's Locked-On lines (the title, each side's VP with
and without missiles and the modifier, each seat's pick, the balance against the agreed
VP), ``/dogfight aircraft``, and the system's help pages.

Balancing (Preparing the Cards, L68-70; Victory Points, L23-24; Skills, L321-327;
Missile Loads, L375-385; Team Games, L389): an aircraft is worth its top VP without
missiles, the value under its Standard Missile Load with them (a custom load: the top
value plus the Missile VPs table's price of each pair), less its modifier if no enemy
carries missiles, plus its skills' costs; a side is worth the sum of its aircraft, and
must not exceed the agreed total; team games are divided equally by VP.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.core.contract import SeatPick, SideInfo
from engine.core.present import Field, FieldKind, HelpPage, Switch
from engine.lockedon import balance
from engine.lockedon.setup import LockedOnOptions, LockedOnPick, side_ids
from strings import Term, t, tr

if TYPE_CHECKING:
    from engine.lockedon.game import LockedOnEngine

__all__ = [
    "CATALOGUE_FIELDS",
    "HELP_PAGES",
    "LINES_BUDGET",
    "OPTION_FIELDS",
    "PICK_FIELDS",
    "SWITCHES",
    "aircraft_lines",
    "menu_hint",
    "notes",
    "pick_text",
    "side_heading",
    "side_totals",
    "switch_line",
    "title",
]

OPTION_FIELDS = (
    Field("battle_year", FieldKind.INT, "lockedon.ui.cmd.battle_year", low=1945, high=2000),
    Field("vp_limit", FieldKind.INT, "lockedon.ui.cmd.vp_limit", low=1, high=2000),
    Field("rounds", FieldKind.INT, "lockedon.ui.cmd.rounds", low=1, high=20),
    Field("missile_loads", FieldKind.BOOL, "lockedon.ui.cmd.missile_loads"),
    Field("team_games", FieldKind.BOOL, "lockedon.ui.cmd.team_games"),
    Field("teamwork", FieldKind.BOOL, "lockedon.ui.cmd.teamwork"),
    Field("free_for_all", FieldKind.BOOL, "lockedon.ui.cmd.free_for_all"),
    Field("sides", FieldKind.INT, "lockedon.ui.cmd.sides", low=2, high=8),
    Field("second_deck", FieldKind.BOOL, "lockedon.ui.cmd.second_deck"),
)
"""``/dogfight new``'s Locked-On options: :class:`LockedOnOptions` fields by name, all
optional (the model's defaults: any year, no VP limit, six rounds, no optional rule).
The year is ``battle_year``: Down in Flames declares a ``year`` of another range, and
two systems may not declare one name differently."""
PICK_FIELDS = (
    Field("skills", FieldKind.TEXT, "lockedon.ui.cmd.skills"),
    Field("ratings", FieldKind.TEXT, "lockedon.ui.cmd.ratings"),
    Field("missiles", FieldKind.TEXT, "lockedon.ui.cmd.missiles"),
)
"""``/dogfight join``'s extras, parsed by :mod:`engine.lockedon.picks`."""
SWITCHES = (
    Switch(
        "teams",
        "lockedon.ui.cmd.switch_teams",
        "team_games",
        Field("apply", FieldKind.BOOL, "lockedon.ui.cmd.teams_apply"),
    ),
    Switch(
        "teamwork",
        "lockedon.ui.cmd.switch_teamwork",
        "teamwork",
        Field("apply", FieldKind.BOOL, "lockedon.ui.cmd.teamwork_apply"),
    ),
    Switch(
        "loads",
        "lockedon.ui.cmd.switch_loads",
        "missile_loads",
        Field("allow", FieldKind.BOOL, "lockedon.ui.cmd.loads_allow"),
    ),
)
"""Optional rules the host may turn on or off before the start."""
CATALOGUE_FIELDS = (
    Field("battle_year", FieldKind.INT, "lockedon.ui.cmd.catalogue_year", low=1945, high=2000),
    Field("vp_limit", FieldKind.INT, "lockedon.ui.cmd.catalogue_vp", low=1, high=2000),
)
HELP_PAGES = (
    HelpPage("lockedon_lobby", "lockedon.ui.help.lobby.title", "lockedon.ui.help.lobby.body"),
    HelpPage("lockedon_play", "lockedon.ui.help.play.title", "lockedon.ui.help.play.body"),
    HelpPage("rules_lockedon", "lockedon.help.rules.title", "lockedon.help.rules.body", True),
)
LINES_BUDGET = 1850
"""Characters of ``/dogfight aircraft``'s answer (a Discord message holds 2000)."""
_RULES = (
    ("missile_loads", "lockedon.ui.lobby.rule.missile_loads"),
    ("team_games", "lockedon.ui.lobby.rule.team_games"),
    ("teamwork", "lockedon.ui.lobby.rule.teamwork"),
    ("second_deck", "lockedon.ui.lobby.rule.second_deck"),
)


def _pick(pick: Any) -> LockedOnPick:
    return pick if isinstance(pick, LockedOnPick) else LockedOnPick.model_validate(pick)


def title(options: LockedOnOptions, game_id: int, format: str, language: str) -> str:
    """``**Dogfight #12**: Locked-On, 1985, 2 v 2, 150 VP a side, 6 rounds; teamwork.``"""
    year = t("lockedon.ui.lobby.year", language, year=options.year) if options.year else ""
    limit = t("lockedon.ui.lobby.limit", language, vp=options.vp_limit) if options.vp_limit else ""
    rules = [t(key, language) for name, key in _RULES if getattr(options, name)]
    if options.free_for_all:
        rules.insert(0, t("lockedon.ui.lobby.rule.free_for_all", language, n=options.sides))
    return t(
        "lockedon.ui.lobby.head",
        language,
        id=game_id,
        year=year,
        format=format,
        limit=limit,
        rounds=options.rounds,
        rules=t("lockedon.ui.lobby.rules", language, rules=", ".join(rules)) if rules else "",
    )


def side_totals(
    engine: LockedOnEngine, seats: Sequence[SeatPick]
) -> dict[str, tuple[int, int, int, int, bool]]:
    """Per side: (VP as picked, VP without missiles, VP with missiles, the modifiers,
    whether the modifiers are taken off: no enemy carries missiles) (L23-24, L327)."""
    picks = [(s.side, _pick(s.pick)) for s in seats if _pick(s.pick).aircraft in engine.aircraft]
    as_picked = balance.side_values(engine, picks)
    out: dict[str, tuple[int, int, int, int, bool]] = {}
    for side in dict.fromkeys(s for s, _ in picks):
        mine = [p for s, p in picks if s == side]
        bare = full = modifier = 0
        for p in mine:
            ac = engine.aircraft[p.aircraft]
            bare += balance.aircraft_value(
                ac,
                (),
                engine.missiles,
                enemy_missiles=True,
                skills=p.skills,
                catalogue=engine.skills,
            )
            full += balance.aircraft_value(
                ac,
                p.missiles or None,
                engine.missiles,
                enemy_missiles=True,
                skills=p.skills,
                catalogue=engine.skills,
            )
            modifier += ac.modifier
        enemy = any(
            balance.carries_missiles(engine.aircraft[p.aircraft], p.missiles)
            for s, p in picks
            if s != side
        )
        out[side] = (as_picked.get(side, 0), bare, full, modifier, not enemy)
    return out


def side_heading(
    engine: LockedOnEngine,
    options: LockedOnOptions,
    side: SideInfo,
    seats: Sequence[SeatPick],
    language: str,
) -> str:
    """``**Side A**: 2 aircraft, **150 VP** of 150 (without missiles 104, with missiles
    150; modifiers −28, kept: enemies carry missiles)``; ``seats``: every seat."""
    head = t("lockedon.ui.lobby.side_head", language, side=tr(side.name, language))
    mine = [s for s in seats if s.side == side.id]
    if not mine:
        return head + t("lockedon.ui.lobby.nobody", language)
    vp, bare, full, modifier, off = side_totals(engine, seats).get(side.id, (0, 0, 0, 0, False))
    limit = (
        t("lockedon.ui.lobby.of_limit", language, limit=options.vp_limit)
        if options.vp_limit
        else ""
    )
    if modifier:
        key = "lockedon.ui.lobby.modifier_off" if off else "lockedon.ui.lobby.modifier_kept"
        mod = t(key, language, n=modifier)
    else:
        mod = ""
    return head + t(
        "lockedon.ui.lobby.points",
        language,
        aircraft=_count("lockedon.ui.lobby.aircraft", len(mine), language),
        vp=vp,
        limit=limit,
        bare=bare,
        full=full,
        modifier=mod,
    )


def _count(key: str, n: int, language: str) -> str:
    one = n == 1 or (n == 0 and language == "fr")
    return t(f"{key}.{'one' if one else 'other'}", language, n=n)


def pick_text(engine: LockedOnEngine, options: LockedOnOptions, pick: Any, language: str) -> str:
    """``F-15A Eagle, standard missiles (AIM-7F Sparrow ×4, AIM-9L Sidewinder ×4), Eagle
    Eyes +2: 94 VP (80 if no enemy carries missiles)``."""
    p = _pick(pick)
    ac = engine.aircraft.get(p.aircraft)
    if ac is None:
        return p.aircraft
    loads = balance.load_of(ac, p.missiles)
    listed = ", ".join(f"{engine.missiles[m.missile].name} ×{m.count}" for m in loads)
    if not loads:
        missiles = t("lockedon.ui.lobby.no_missiles", language)
    elif p.missiles is None:
        missiles = t("lockedon.ui.lobby.standard", language, missiles=listed)
    else:
        missiles = t("lockedon.ui.lobby.custom", language, missiles=listed)
    skills = []
    for sid in p.skills:
        skill = engine.skills.get(sid)
        if skill is None:
            skills.append(sid)
            continue
        changes = " ".join(f"{r.value} {d:+d}" for r, d in p.ratings.get(sid, {}).items())
        name = f"{skill.name} ({changes})" if changes else skill.name
        skills.append(f"{name} {skill.cost:+d}")
    value = balance.aircraft_value(
        ac,
        p.missiles,
        engine.missiles,
        enemy_missiles=True,
        skills=p.skills,
        catalogue=engine.skills,
    )
    text = f"{ac.name}, {missiles}"
    if skills:
        text += ", " + ", ".join(skills)
    if ac.modifier:
        vp = t("lockedon.ui.lobby.vp_modifier", language, vp=value, least=value - ac.modifier)
    else:
        vp = t("lockedon.ui.lobby.vp", language, vp=value)
    return t("lockedon.ui.lobby.pick", language, pick=text, vp=vp)


def notes(
    engine: LockedOnEngine,
    options: LockedOnOptions,
    seats: Sequence[SeatPick],
    *,
    open_lobby: bool,
    language: str,
) -> list[str]:
    """The balance against the agreed VP (L68-70), how far team games are from equal
    (L389), and what the optional rules mean here."""
    lines: list[str] = []
    totals = side_totals(engine, seats)
    sides = list(side_ids(options.sides if options.free_for_all else 2))
    if options.vp_limit is not None and totals:
        parts = []
        for side in sides:
            vp = totals.get(side, (0,))[0]
            key = "lockedon.ui.lobby.over" if vp > options.vp_limit else "lockedon.ui.lobby.left"
            parts.append(t(key, language, side=side, vp=vp, n=abs(options.vp_limit - vp)))
        lines.append(
            t(
                "lockedon.ui.lobby.balance",
                language,
                limit=options.vp_limit,
                sides=" · ".join(parts),
            )
        )
    if not options.free_for_all and len(totals) == 2:
        a, b = (totals.get(s, (0,))[0] for s in sides)
        if a == b:
            lines.append(t("lockedon.ui.lobby.even", language, vp=a))
        else:
            ahead, behind = ("A", "B") if a > b else ("B", "A")
            lines.append(
                t("lockedon.ui.lobby.uneven", language, ahead=ahead, behind=behind, n=abs(a - b))
            )
    if options.free_for_all:
        crowded = sorted({s.side for s in seats if sum(1 for x in seats if x.side == s.side) > 1})
        if crowded:
            lines.append(t("lockedon.ui.lobby.ffa_one", language, sides=", ".join(crowded)))
    if options.teamwork:
        lines.append(t("lockedon.ui.lobby.teamwork", language))
    if options.missile_loads and open_lobby:
        lines.append(t("lockedon.ui.lobby.loads", language))
    return lines


def switch_line(option: str, value: Any) -> str:
    """The thread's line once the host turned an optional rule on or off."""
    return Term(f"lockedon.ui.dogfight.{option}_{'on' if value else 'off'}")


def menu_hint(more: bool, language: str) -> str:
    key = "lockedon.ui.lobby.menu.more" if more else "lockedon.ui.lobby.menu.join_instead"
    return t(key, language)


def aircraft_lines(engine: LockedOnEngine, options: LockedOnOptions, language: str) -> list[str]:
    """``/dogfight aircraft``: each aircraft such a game allows (in service by the year,
    within the VP limit at its least), oldest first, with every rating of its card, its
    Standard Missile Load and its VP without and with missiles and its modifier; as
    many as one message holds, then how many more."""
    allowed = []
    for ac in sorted(engine.aircraft.values(), key=lambda a: (a.year, a.name)):
        if options.year is not None and ac.year > options.year:
            continue
        if options.vp_limit is not None and ac.vp - ac.modifier > options.vp_limit:
            continue
        allowed.append(ac)
    if not allowed:
        return [t("lockedon.ui.dogfight.no_aircraft", language)]
    lines: list[str] = []
    size = 0
    for i, ac in enumerate(allowed):
        ab = (
            t("lockedon.ui.dogfight.ab", language, pre=ac.ab_pre, post=ac.ab_post)
            if ac.has_afterburners
            else ""
        )
        loads = ", ".join(f"{engine.missiles[m.missile].name} ×{m.count}" for m in ac.missiles)
        line = t(
            "lockedon.ui.dogfight.aircraft_line",
            language,
            id=ac.id,
            name=ac.name,
            nation=ac.nation,
            year=ac.year,
            speed=ac.speed,
            performance=ac.performance,
            thrust=f"{ac.thrust_pre}/{ac.thrust_post}",
            ab=ab,
            gun=ac.gun if ac.gun is not None else "-",
            ew=ac.ew if ac.ew is not None else "-",
            cm=ac.countermeasures,
            missiles=loads or t("lockedon.ui.lobby.no_missiles", language),
            vp=ac.vp,
            vp_missiles=ac.vp_missiles if ac.vp_missiles is not None else ac.vp,
            modifier=ac.modifier,
        )
        if size + len(line) + 1 > LINES_BUDGET:
            lines.append(t("lockedon.ui.dogfight.more", language, n=len(allowed) - i))
            break
        lines.append(line)
        size += len(line) + 1
    return lines
