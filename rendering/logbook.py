"""A campaign's pilot logbook (``/campaign logbook``) in the reader's words: a text
that reads well on a phone, and a card picture (:mod:`rendering.community`).

It reads the campaign system's :class:`~engine.core.campaign.PilotLog` views only,
which show nothing a campaign keeps secret; the caller gives the names the views do
not hold (each side's players, each aircraft's name in its catalogue, and who flew
each seat of the settled missions' games: ``flyers``, by ``(mission, seat)``, the
member's name or the computer's, never a mention).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core.campaign import LogbookEntry, PilotLog
from rendering.community import CardTable, CardView
from strings import t, tr

__all__ = ["logbook_card", "logbook_lines", "pilot_card", "pilot_lines"]


def _fate(pilot: PilotLog, language: str) -> str:
    """His state in the system's own words (the neutral word if it has none), and the
    ace's star."""
    status = tr(pilot.status, language) or t(f"logbook.fate.{pilot.fate.value}", language)
    return status + (t("logbook.ace", language) if pilot.ace else "")


Flyers = Mapping[tuple[int, str], str]
"""Who flew each seat of each settled mission's game, by ``(mission, seat)``."""


def _flyer(m: LogbookEntry, flyers: Flyers) -> str:
    """Who flew him on mission ``m`` ("" when no game's seat says: a mission settled
    without a game)."""
    return flyers.get((m.mission, m.seat), "") if m.seat is not None else ""


def _names(names: Sequence[str]) -> str:
    """``alice, bob``: each name once, in the order they flew."""
    return ", ".join(dict.fromkeys(n for n in names if n))


def _flown(names: Sequence[str], language: str) -> str:
    """`` · flown by alice, bob`` (nothing without a name)."""
    kept = _names(names)
    return t("logbook.flown_by", language, names=kept) if kept else ""


def _by_side(pilots: Sequence[PilotLog]) -> dict[str, list[PilotLog]]:
    out: dict[str, list[PilotLog]] = {}
    for p in pilots:
        out.setdefault(p.side, []).append(p)
    return out


def logbook_lines(
    pilots: Sequence[PilotLog],
    sides: Mapping[str, str],
    players: Mapping[str, str],
    language: str,
    flyers: Flyers | None = None,
) -> list[str]:
    """Every pilot in one line, side by side (its name and players once): missions,
    kills, fate, and the members who flew him. ``sides``: each side's name;
    ``players``: who plays each side."""
    lines: list[str] = []
    for side, group in _by_side(pilots).items():
        lines.append(
            t(
                "logbook.side_line",
                language,
                side=sides.get(side, side),
                players=players.get(side) or t("logbook.computer", language),
            )
        )
        lines += [
            t(
                "logbook.pilot_line",
                language,
                name=p.name,
                missions=len(p.missions),
                kills=p.kills,
                fate=_fate(p, language),
                flown=_flown([_flyer(m, flyers or {}) for m in p.missions], language),
            )
            for p in group
        ]
    return lines


def _aircraft(name: str, airframe: str, language: str) -> str:
    if not airframe:
        return name
    return t("logbook.airframe", language, aircraft=name, number=airframe)


def pilot_lines(
    pilot: PilotLog,
    side: str,
    players: str,
    aircraft: Mapping[str, str],
    language: str,
    flyers: Flyers | None = None,
) -> list[str]:
    """One pilot's logbook: who he is and his fate, then each mission he flew and who
    flew him on it."""
    lines = [
        t(
            "logbook.pilot_head",
            language,
            name=pilot.name,
            side=side,
            players=players or t("logbook.computer", language),
            rank=tr(pilot.rank, language),
        ),
        t(
            "logbook.pilot_totals",
            language,
            missions=len(pilot.missions),
            kills=pilot.kills,
            wounds=pilot.wounds,
            fate=_fate(pilot, language),
        ),
    ]
    for m in pilot.missions:
        notes = []
        if m.kills:
            notes.append(t("logbook.kills", language, n=m.kills))
        if m.wounded:
            notes.append(t("logbook.wounded", language))
        lines.append(
            t(
                "logbook.mission_line",
                language,
                mission=m.mission,
                title=tr(m.title, language),
                aircraft=_aircraft(aircraft.get(m.aircraft, m.aircraft), m.airframe, language),
                result=tr(m.result, language),
                notes="".join(f", {n}" for n in notes),
                flown=_flown([_flyer(m, flyers or {})], language),
            )
        )
    if not pilot.missions:
        lines.append(t("logbook.no_missions", language))
    return lines


def logbook_card(
    title: str,
    pilots: Sequence[PilotLog],
    sides: Mapping[str, str],
    language: str,
    flyers: Flyers | None = None,
) -> CardView:
    """The picture of :func:`logbook_lines`: a table of each side's pilots, with a
    column of who flew them when any mission's game names one."""
    names = {p.id: _names([_flyer(m, flyers or {}) for m in p.missions]) for p in pilots}
    who = any(names.values())
    header = (
        t("logbook.col.pilot", language),
        t("logbook.col.missions", language),
        t("logbook.col.kills", language),
        t("logbook.col.fate", language),
        *((t("logbook.col.flown_by", language),) if who else ()),
    )
    tables = tuple(
        CardTable(
            sides.get(side, side),
            header,
            tuple(
                (
                    p.name + (t("logbook.ace", language) if p.ace else ""),
                    str(len(p.missions)),
                    str(p.kills),
                    t(f"logbook.fate.{p.fate.value}", language),
                    *((names[p.id] or "-",) if who else ()),
                )
                for p in group
            ),
        )
        for side, group in _by_side(pilots).items()
    )
    subtitle = t(
        "logbook.picture_subtitle",
        language,
        pilots=len(pilots),
        kills=sum(p.kills for p in pilots),
    )
    return CardView(t("logbook.picture_title", language, title=title), subtitle, tables)


def pilot_card(
    title: str,
    pilot: PilotLog,
    aircraft: Mapping[str, str],
    language: str,
    flyers: Flyers | None = None,
) -> CardView:
    """The picture of :func:`pilot_lines`: his missions in a table, with a column of
    who flew him when any mission's game names one."""
    names = [_flyer(m, flyers or {}) for m in pilot.missions]
    who = any(names)
    header = (
        t("logbook.col.mission", language),
        t("logbook.col.aircraft", language),
        t("logbook.col.kills", language),
        t("logbook.col.result", language),
        *((t("logbook.col.flown_by", language),) if who else ()),
    )
    rows = tuple(
        (
            str(m.mission),
            _aircraft(aircraft.get(m.aircraft, m.aircraft), m.airframe, language),
            str(m.kills),
            tr(m.result, language) + (f", {t('logbook.wounded', language)}" if m.wounded else ""),
            *((name or "-",) if who else ()),
        )
        for m, name in zip(pilot.missions, names, strict=True)
    )
    subtitle = t(
        "logbook.pilot_subtitle",
        language,
        title=title,
        kills=pilot.kills,
        fate=t(f"logbook.fate.{pilot.fate.value}", language),
    )
    table = CardTable(
        tr(pilot.rank, language), header, rows, empty=t("logbook.no_missions", language)
    )
    return CardView(pilot.name, subtitle, (table,))
