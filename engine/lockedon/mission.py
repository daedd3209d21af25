"""Campaign missions in play (Playing a Campaign, L269-314): the 90° / 0° Angle start
(L343, L356) and the answer to a SAM/AAA site's attack (L296-299).

When the sites check and draw, and how a mission is scored, is the flow's
(:mod:`engine.lockedon.flow`); NFOD's points are counted when the game is created
(:mod:`engine.lockedon.game`). A site's attack is answered like an Action named Tone
(a SAM) or Guns (AAA): once, by the targeted aircraft alone, with a card (or a
Countermeasures counter against a Tone) the reaction rules allow
(:meth:`~engine.lockedon.legality.Legality._site_refusal`); the site never answers
back. Passing is being Destroyed, the site named as the shooter.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.lockedon import geometry
from engine.lockedon.actions import COUNTER, Action
from engine.lockedon.components import TONE_TITLE, Position, Range, SkillEvent, SkillKind
from engine.lockedon.exchange import POSITION_KEYS
from engine.lockedon.missiles import Missiles
from engine.lockedon.state import GameState
from engine.lockedon.texts import fixed
from strings import Term

__all__ = ["Missions"]

_RANGE_KEYS = {r.code: f"lockedon.range.{r.code}" for r in Range}


class Missions(Missiles):
    """The start of a mission and the answers to its sites."""

    def _do_angle(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        """90° / 0° Angle (L343, L356): begin at the Range chosen, one enemy's Range
        counter matched; then, if within range of any of its weapons, the holder takes
        Advantaged (90°) or Tailing (0°) on that enemy, as any Position is taken
        (L197, L201-202); else it stays Neutral. The next holder then chooses; the
        last one hands over to the player order (L85)."""
        assert a.mode is not None and a.target is not None
        _, sid = s.angles.pop(0)
        skill = self.skills[sid]
        r = Range.from_code(a.mode)
        s.planes[seat].range = int(r)
        s.planes[a.target].range = int(r)
        events.append(
            Event(
                "angle",
                Term(
                    "lockedon.event.angle",
                    plane=self.name(s, seat),
                    skill=skill.name,
                    range=fixed(_RANGE_KEYS[r.code]),
                    target=self.name(s, a.target),
                ),
            )
        )
        assert skill.position is not None
        new = int(skill.position)
        why = self._position_refusal(s, seat, a.target, new)
        if why is None:
            geometry.set_pos(s, seat, a.target, new)
            events.append(
                Event(
                    "position",
                    Term(
                        "lockedon.event.position",
                        plane=self.name(s, seat),
                        position=fixed(POSITION_KEYS[Position(new)]),
                        target=self.name(s, a.target),
                    ),
                )
            )
        else:
            events.append(
                Event(
                    "angle_neutral",
                    Term("lockedon.event.angle_neutral", plane=self.name(s, seat), why=why.term()),
                )
            )
        if not s.angles:
            self._order(s, events, s.first_side)

    def _do_site(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        """The answer to a site's attack (L297-298): one card (or counter) defeats it;
        passing, the aircraft is Destroyed by the site."""
        attack = s.site
        assert attack is not None
        site = self.sites[attack.site]
        if a.verb == "pass":
            s.site = None
            events.append(Event("pass", Term("lockedon.event.pass", plane=self.name(s, seat))))
            self._destroy(s, seat, attack.site, events)
            return
        p = s.planes[seat]
        assert a.card is not None
        if a.card == COUNTER:
            p.cm -= 1
            if a.ace:
                skill = self.can_use(p, SkillKind.COUNTERMEASURE_AS_ACE)
                assert skill is not None
                p.used.append(skill)
            label: str = fixed("lockedon.countermeasures")
        else:
            card = self._take(s, seat, a)  # while the attack is open: Jink sees the Guns
            s.discard.append(card)
            label = self.ace_type.label if a.ace else self.label(s, card)
            if a.ace:
                label = f"{self.by_code[a.card].label} = {label}"
        s.site = None
        events.append(
            Event(
                "site_defeated",
                Term(
                    "lockedon.event.site_defeated",
                    plane=self.name(s, seat),
                    card=label,
                    site=site.name,
                ),
            )
        )
        if a.card != COUNTER:
            self._diligent(s, seat, a, events)
        if TONE_TITLE in attack.titles:  # Relief (L351): an enemy Tone stopped
            self._skill_draw(s, seat, SkillEvent.ENEMY_TONE_CANCELLED, 1, events)
