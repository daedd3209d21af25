"""Missiles: the launch after a successful Tone (L248-252, L387) and the size of the
Missile's mini-hand (L253-258); the attack itself is an exchange like any other
(:mod:`engine.lockedon.exchange`), the attacker answering from the mini-hand only
(L259-265).
"""

from __future__ import annotations

from engine.core.events import Event
from engine.lockedon import geometry, ratings
from engine.lockedon.actions import Action
from engine.lockedon.components import MissileType, SkillEvent, SkillKind
from engine.lockedon.exchange import Resolution
from engine.lockedon.state import Exchange, GameState, Launch
from strings import Term

__all__ = ["Missiles"]


class Missiles(Resolution):
    """Launching missiles."""

    def missile_cards(self, s: GameState, seat: str, launch: Launch, n: int) -> int:
        """The Missile's mini-hand (L251-258): the counter's cards for the launcher's
        Position; -1 per point of the target's EW; +1 per Altitude level the target is
        below, -1 per level above; +2 for a Heat Seeker at a target with Afterburners
        On; +1 for each Break / Yo-Yo played earlier this turn (L170, L181); the Tone
        card's own change (Strong +1, Tone / Guns -1, L178); +1 for a second missile
        (L387), +1 more with Cocky (L345); +1 with Better Envelope (L363). Zero or
        less: no cards."""
        p, target = s.planes[seat], s.planes[launch.target]
        m = self.missiles[launch.missile]
        base = m.cards(geometry.pos(s, seat, launch.target))
        assert base is not None
        count = base - ratings.ew(self.ac(target), target)
        count += (p.altitude or 0) - (target.altitude or 0)
        if m.type is MissileType.HEAT and target.ab_on:
            count += 2
        count += s.t.bonus + launch.cards
        for sid in p.skills:
            skill = self.skills[sid]
            if skill.kind is SkillKind.MISSILE_CARDS:
                count += skill.amount or 0
            if skill.kind is SkillKind.SECOND_MISSILE_CARDS and n == 2:
                count += skill.amount or 0
        if n == 2:
            count += 1
        return max(0, count)

    def _do_launch(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        """Launch (L249-252): the missiles are spent, the Missile's cards are drawn for
        the attacker apart from its hand, and the target reacts (L259-263)."""
        launch = s.launch
        assert launch is not None
        s.launch = None
        m = self.missiles[launch.missile]
        if a.verb == "nolaunch":
            events.append(
                Event("nolaunch", Term("lockedon.event.nolaunch", plane=self.name(s, seat)))
            )
            return
        p = s.planes[seat]
        count = self.missile_cards(s, seat, launch, a.n)
        p.missiles[launch.missile] -= a.n
        s.t.bonus = 0
        x = Exchange("missile", seat, launch.target, "Missile", n=a.n, missile=launch.missile)
        for _ in range(count):
            card = self.take_top(s, events)
            if card is None:
                break
            x.mini.append(card)
        target = s.planes[launch.target]
        x.alert = self.can_use(target, SkillKind.ZERO_MISSILE_HAND) is not None
        events.append(
            Event(
                "launch",
                Term(
                    "lockedon.event.launch",
                    plane=self.name(s, seat),
                    n=a.n,
                    missile=m.name,
                    target=self.name(s, launch.target),
                    cards=len(x.mini),
                ),
            )
        )
        if x.mini:
            events.append(
                Event(
                    "mini",
                    Term(
                        "lockedon.event.mini",
                        cards=", ".join(self.label(s, c) for c in x.mini),
                    ),
                    seat,
                )
            )
        self._skill_draw(s, launch.target, SkillEvent.MISSILE_FIRED_AT_YOU, a.n, events)
        self._open(s, x, events)
