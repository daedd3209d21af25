"""The picture of the sky in words: the alt text of every picture of a DiF game.

A reader who cannot see the picture (a screen reader, a picture that did not load)
gets what it shows, from the same spectators' view (:class:`~engine.dif.view.DifView`:
no hand, no secret pick): the turn and step, a campaign mission's phase, target and
turn track, whose move it is or the result, the attack being resolved, then each
element with its player, side, altitude (and its aircraft's ceiling), each plane's
hits and damage, and its leader's position on an enemy leader. One line per element,
so a long list is cut between elements (the chat layer keeps it within its limit).
Words are ``dif.ui.alt.*``.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.dif.components import Position, Side
from engine.dif.view import DifView, ElementView, MissionView, PlaneStatus, PlaneView
from strings import t, tr

__all__ = ["picture_text"]

_SIDES = (Side.ALLIED, Side.AXIS)
_POSITION = {
    Position.TAILING: "dif.ui.alt.position.tailing",
    Position.ADVANTAGED: "dif.ui.alt.position.advantaged",
    Position.NEUTRAL: "dif.ui.alt.position.neutral",
    Position.DISADVANTAGED: "dif.ui.alt.position.disadvantaged",
    Position.TAILED: "dif.ui.alt.position.tailed",
}
"""A leader's position on an enemy leader, in words (Zero! 6.1)."""
_TRACK = {
    "arrival": "dif.ui.alt.track.arrival",
    "ingress": "dif.ui.alt.track.ingress",
    "bomb": "dif.ui.alt.track.bomb",
    "egress": "dif.ui.alt.track.egress",
    "home": "dif.ui.alt.track.home",
    "dogfight": "dif.ui.alt.track.dogfight",
}
"""A phase's game turns on a mission's turn track (Zero! 23.1)."""


def picture_text(view: DifView, players: Mapping[str, str], language: str) -> str:
    """What the picture of ``view`` shows, in ``language``; ``players``: who flies each
    seat (as the picture names them)."""
    labels = {e.seat: tr(e.label, language) for e in view.elements}

    def who(seat: str) -> str:
        label = labels.get(seat, seat)
        player = players.get(seat)
        return t("dif.ui.alt.who", language, element=label, player=player) if player else label

    def plane(ref: str) -> str:
        """A plane as the narration names it: the element's label, or its wingman."""
        seat = ref[:-1] if ref[-1:] in ("L", "W") else ref
        if ref.endswith("W") and seat in labels:
            return t("dif.ui.alt.wingman_of", language, element=labels[seat])
        return labels.get(seat, ref)

    if view.result is not None:
        vp = ", ".join(
            f"{tr(side.label(view.ruleset), language)} {view.result.vp.get(side, 0)}"
            for side in _SIDES
        )
        verdict = tr(view.result.verdict, language)
        lines = [t("dif.ui.alt.over", language, turn=view.turn, verdict=verdict, vp=vp)]
    else:
        lines = [_turn(view, language)]
        if view.active is not None:
            lines.append(t("dif.ui.alt.to_move", language, who=who(view.active)))
        waiting = [p.seat for p in view.pending if p.seat != view.active]
        if waiting:
            names = ", ".join(who(s) for s in dict.fromkeys(waiting))
            lines.append(t("dif.ui.alt.waiting", language, who=names))
        x = view.exchange
        if x is not None:
            cards = " → ".join(tr(c, language) for c in x.cards)
            lines.append(
                t(
                    "dif.ui.alt.attack",
                    language,
                    attacker=plane(x.attacker),
                    target=plane(x.target),
                    cards=cards,
                    who=labels.get(x.waiting_on, x.waiting_on),
                )
            )
    if view.mission is not None:
        lines[1:1] = _mission(view.mission, language)
    positions = _positions(view)
    for e in view.elements:
        lines.append(_element(view, e, who(e.seat), positions.get(e.seat, []), labels, language))
    return "\n".join(lines)


def _turn(view: DifView, language: str) -> str:
    step = tr(view.step, language)
    if view.turn < 1:
        return t("dif.ui.alt.setup", language, step=step)
    if view.max_turns is None:
        return t("dif.ui.alt.turn_death", language, turn=view.turn, step=step)
    turn = min(view.turn, view.max_turns)
    return t("dif.ui.alt.turn", language, turn=turn, max=view.max_turns, step=step)


def _mission(m: MissionView, language: str) -> list[str]:
    """A campaign mission's strip: its phase and target, then its turn track (23.1)."""
    if m.target is None:
        target = t("dif.ui.alt.no_target", language)
    else:
        level = m.target_level or ""
        target = t(
            "dif.ui.alt.target", language, target=m.target, damage=m.target_damage, level=level
        )
    lines = [t("dif.ui.alt.mission", language, phase=tr(m.phase, language), target=target)]
    if m.track:
        track = ", ".join(
            t(_TRACK[phase], language, turns=_span(turns)) for phase, turns in m.phases
        )
        lines.append(t("dif.ui.alt.track.line", language, track=track))
    return lines


def _span(turns: tuple[int, ...]) -> str:
    """``3`` or ``1-2``: a phase's game turns, first to last."""
    return str(turns[0]) if len(turns) == 1 else f"{turns[0]}-{turns[-1]}"


def _positions(view: DifView) -> dict[str, list[tuple[Position, str]]]:
    """Each seat's positions on enemy leaders, as seen from its own leader."""
    out: dict[str, list[tuple[Position, str]]] = {}
    for g in view.engagements:  # between leaders, named by their seats
        out.setdefault(g.leader, []).append((g.position, g.on))
        out.setdefault(g.on, []).append((Position(-g.position), g.leader))
    return out


def _plane(p: PlaneView, language: str) -> str:
    if p.status is PlaneStatus.DESTROYED:
        return t("dif.ui.alt.destroyed", language)
    if p.status is PlaneStatus.EVADED:
        return t("dif.ui.alt.evaded", language)
    key = "dif.ui.alt.hits_damaged" if p.damaged else "dif.ui.alt.hits"
    return t(key, language, hits=p.hits, capacity=p.capacity)


def _element(
    view: DifView,
    e: ElementView,
    who: str,
    positions: list[tuple[Position, str]],
    labels: Mapping[str, str],
    language: str,
) -> str:
    side = tr(e.side.label(view.ruleset), language)
    if not e.in_fight:
        where = t("dif.ui.alt.out", language)
    elif e.altitude is not None:
        where = tr(e.altitude.label, language)
    elif e.altitude_chosen:
        where = t("dif.ui.alt.picked", language)
    else:
        where = t("dif.ui.alt.picking", language)
    parts = [where]
    if e.ceiling is not None:  # Zero! 16.22: printed on the card
        parts.append(t("dif.ui.alt.ceiling", language, altitude=tr(e.ceiling.label, language)))
    for p in e.lost:
        if e.leader is None or p.ref != e.leader.ref:
            parts.append(t("dif.ui.alt.lost_leader", language, state=_plane(p, language)))
    if e.leader is not None:
        key = "dif.ui.alt.promoted" if e.leader.promoted else "dif.ui.alt.leader"
        parts.append(t(key, language, state=_plane(e.leader, language)))
    if e.wingman is not None:
        parts.append(t("dif.ui.alt.wingman", language, state=_plane(e.wingman, language)))
    for position, other in positions:
        parts.append(t(_POSITION[position], language, who=labels.get(other, other)))
    state = parts[0]
    for part in parts[1:]:
        state = t("dif.ui.alt.then", language, head=state, part=part)
    return t("dif.ui.alt.element", language, who=who, side=side, state=state)
