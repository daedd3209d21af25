"""The picture of the sky in words: the alt text of every picture of a Locked-On game.

From the spectators' view (:class:`~engine.lockedon.view.LockedOnView`: no card of
anyone, no secret altitude), what the range chart and the aircraft cards show: the
round and step, whose move it is or the result, the Action being resolved and a
missile's launch, then each aircraft with its player and team, its altitude and
Range counter, afterburners, missiles and Countermeasures left, its positions, or who
shot it down; then the ranges between enemies. One line per aircraft, so a long list
is cut between aircraft. Words are ``lockedon.ui.alt.*`` and the picture's names of
altitudes and range bands (``lockedon.picture.*``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.lockedon.components import Position
from engine.lockedon.view import AircraftView, LockedOnView
from strings import t, tr

__all__ = ["picture_text"]


def picture_text(view: LockedOnView, players: Mapping[str, str], language: str) -> str:
    """What the picture of ``view`` shows, in ``language``; ``players``: who flies each
    seat."""
    planes = {a.seat: a for a in view.aircraft}

    def name(seat: str) -> str:
        a = planes.get(seat)
        return f"{seat} {a.name}" if a is not None else seat

    def who(seat: str) -> str:
        player = players.get(seat)
        if not player:
            return name(seat)
        return t("lockedon.ui.alt.who", language, aircraft=name(seat), player=player)

    lines = []
    step = tr(view.step, language)
    if view.result is not None:
        vp = ", ".join(f"{side} {n}" for side, n in view.result.vp.items())
        verdict = tr(view.result.verdict, language)
        lines.append(t("lockedon.ui.alt.over", language, verdict=verdict, vp=vp))
    else:
        round_ = max(view.round, 1)
        lines.append(
            t("lockedon.ui.alt.round", language, round=round_, rounds=view.rounds, step=step)
        )
        if view.active is not None:
            lines.append(t("lockedon.ui.alt.to_move", language, who=who(view.active)))
        waiting = [p.seat for p in view.pending if p.seat != view.active]
        if waiting:
            names = ", ".join(who(s) for s in dict.fromkeys(waiting))
            lines.append(t("lockedon.ui.alt.waiting", language, who=names))
        x = view.exchange
        if x is not None:
            cards = " → ".join(tr(c, language) for c in x.cards)
            if x.target is not None:
                line = t(
                    "lockedon.ui.alt.action_on",
                    language,
                    actor=name(x.actor),
                    target=name(x.target),
                    cards=cards,
                )
            else:
                line = t("lockedon.ui.alt.action", language, actor=name(x.actor), cards=cards)
            if x.missile is not None:
                line += " " + t(
                    "lockedon.ui.alt.missile",
                    language,
                    missile=x.missile,
                    n=x.missiles,
                    cards=x.mini_count,
                )
            if x.waiting_on is not None:
                line += " " + t("lockedon.ui.alt.to_react", language, who=name(x.waiting_on))
            lines.append(line)
        if view.launch is not None:
            lines.append(
                t(
                    "lockedon.ui.alt.launch",
                    language,
                    who=name(view.launch.seat),
                    missile=view.launch.missile,
                    target=name(view.launch.target),
                )
            )
    for a in view.aircraft:
        state = _state(view, a, name, language)
        lines.append(
            t("lockedon.ui.alt.aircraft", language, who=who(a.seat), side=a.side, state=state)
        )
    if view.ranges:
        ranges = ", ".join(
            f"{r.a}–{r.b} {t(f'lockedon.picture.band.{r.range.code}', language)}"
            for r in view.ranges
        )
        lines.append(t("lockedon.ui.alt.ranges", language, ranges=ranges))
    return "\n".join(lines)


def _state(view: LockedOnView, a: AircraftView, name: Callable[[str], str], language: str) -> str:
    """One aircraft's state: where it flies and what it has left, or its fate."""
    if a.destroyed:
        if a.destroyed_by:
            return t("lockedon.ui.alt.destroyed_by", language, who=name(a.destroyed_by))
        return t("lockedon.ui.alt.destroyed", language)
    if a.altitude is not None:
        where = t(f"lockedon.picture.altitude.{a.altitude.code}", language)
    elif a.altitude_chosen:
        where = t("lockedon.ui.alt.picked", language)
    else:
        where = t("lockedon.ui.alt.picking", language)
    parts = [where, t(f"lockedon.picture.band.{a.range.code}", language)]
    if a.afterburner_on:
        parts.append(t("lockedon.ui.alt.afterburners", language))
    missiles = ", ".join(f"{m.name} ×{m.count}" for m in a.missiles if m.count)
    parts.append(missiles or t("lockedon.ui.alt.no_missiles", language))
    parts.append(t("lockedon.ui.alt.countermeasures", language, n=a.countermeasures))
    for e in view.engagements:
        if e.seat == a.seat:
            key = (
                "lockedon.ui.alt.position.tailing"
                if e.position is Position.TAILING
                else "lockedon.ui.alt.position.advantaged"
            )
            parts.append(t(key, language, who=name(e.on)))
        elif e.on == a.seat:
            key = (
                "lockedon.ui.alt.position.tailed"
                if e.position is Position.TAILING
                else "lockedon.ui.alt.position.disadvantaged"
            )
            parts.append(t(key, language, who=name(e.seat)))
    state = parts[0]
    for part in parts[1:]:
        state = t("lockedon.ui.alt.then", language, head=state, part=part)
    return state
