"""What each Locked-On decision asks, in words (a :class:`strings.Term`), naming the
aircraft that decides, and for a reaction the attacker, the Action, the cards played so
far and the missile with how many cards its mini-hand holds: never a card of a hand or
of a mini-hand. Texts: ``lockedon.ui.decision.*``, ``lockedon.ui.prompt.*``,
``lockedon.ui.what.*``.
"""

from __future__ import annotations

from typing import Any

from engine.core.contract import Decision
from engine.core.present import Phase
from engine.lockedon import geometry, ratings
from engine.lockedon.components import SkillKind
from engine.lockedon.describe import Describing
from engine.lockedon.exchange import title_label
from engine.lockedon.present import pending_prompt, step_label
from engine.lockedon.setup import LockedOnOptions
from engine.lockedon.state import GameState
from engine.lockedon.texts import fixed
from engine.lockedon.words import altitude_word, position_word, then
from strings import Term, has

__all__ = ["Prompting"]


class Prompting(Describing):
    """The decisions of a game in words."""

    def decision_words(self, kind: str) -> str:
        """A kind of decision in words (``lockedon.ui.decision.<kind>``, else the
        engine's prompt)."""
        key = f"lockedon.ui.decision.{kind}"
        return Term(key) if has(key) else pending_prompt(kind)

    def chain(self, state: GameState) -> list[str]:
        """The cards of the exchange being resolved, the Action first; every one of
        them was played face up (a Missile's cards are shown as they react)."""
        x = state.exchange
        if x is None:
            return []
        e = self.engine
        if x.speed:
            out: list[str] = [fixed("lockedon.speed_point")]
        elif x.card is not None:
            out = [e.label(state, x.card)]
        else:
            out = [fixed("lockedon.title.missile")]
        for _, card, title in x.chain:
            if int(card) < 0:
                name: str = fixed("lockedon.countermeasures")
            else:
                name = e.label(state, int(card))
            if title == e.ace_type.name and (int(card) < 0 or e.code(state, int(card)) != "ACE"):
                name = Term("lockedon.ui.prompt.as_ace", card=name)
            out.append(name)
        return out

    def what(self, state: GameState) -> str:
        """The Action being resolved in words: ``Maneuvering for Position +2``."""
        x = state.exchange
        assert x is not None
        if x.kind == "pos":
            return Term("lockedon.ui.what.pos", n=x.n)
        if x.kind == "range":
            if x.own and x.enemy:
                return Term("lockedon.ui.what.range", own=f"{x.own:+d}", enemy=f"{x.enemy:+d}")
            if x.own:
                return Term("lockedon.ui.what.range_own", own=f"{x.own:+d}")
            return Term("lockedon.ui.what.range_enemy", enemy=f"{x.enemy:+d}")
        if x.kind in ("tone", "missile"):
            assert x.missile is not None
            missile = self.engine.missiles[x.missile].name
            if x.kind == "tone":
                return Term("lockedon.ui.what.tone", missile=missile)
            return Term("lockedon.ui.what.missile", n=x.n, missile=missile, k=len(x.mini))
        if x.kind == "vr":
            return Term("lockedon.ui.what.vr_up" if x.n > 0 else "lockedon.ui.what.vr_down")
        return Term(f"lockedon.ui.what.{x.kind}")

    def prompt(self, state: GameState, decision: Decision) -> str:
        """What ``decision.seat`` must decide, naming its aircraft (a player may fly
        several). Public: no card of a hand or of a Missile's mini-hand is named, only
        the cards played and how many the Missile holds."""
        d = decision
        e = self.engine
        me = self.seat_label(state, d.seat)
        p = state.planes.get(d.seat)
        x = state.exchange
        if d.kind in ("react", "teamwork") and x is not None:
            cards = self.chain(state)
            last = title_label(x.last_title)
            extra: list[str] = []
            if d.kind == "react" and d.seat == x.actor and x.kind == "missile":
                extra.append(Term("lockedon.ui.prompt.from_missile", k=len(x.mini)))
            elif d.kind == "react" and p is not None and d.seat == x.target:
                if p.cm > 0 and x.last_title in ("Missile", "Tone"):
                    extra.append(Term("lockedon.ui.prompt.cm", n=p.cm))
                if (
                    x.alert
                    and not x.chain
                    and x.kind == "missile"
                    and e.can_use(p, SkillKind.ZERO_MISSILE_HAND)
                ):
                    extra.append(Term("lockedon.ui.prompt.alert"))
            fields: dict[str, Any] = {
                "me": me,
                "actor": self.seat_label(state, x.actor),
                "target": self.seat_label(state, x.target or ""),
                "what": self.what(state),
                "cards": then(cards),
                "last": last,
                "extra": "".join(extra),
            }
            if d.kind == "teamwork":
                return Term("lockedon.ui.prompt.teamwork", **fields)
            if d.seat == x.actor:
                return Term("lockedon.ui.prompt.react_actor", **fields)
            return Term("lockedon.ui.prompt.react", **fields)
        if d.kind == "site" and state.site is not None and p is not None:
            attack = state.site
            title = " / ".join(attack.titles)
            cm: str = ""
            if p.cm > 0 and "Tone" in attack.titles:
                cm = Term("lockedon.ui.prompt.cm", n=p.cm)
            return Term(
                "lockedon.ui.prompt.site",
                me=me,
                site=e.sites[attack.site].name,
                side=attack.side,
                title=title,
                extra=cm,
            )
        if d.kind == "angle" and state.angles:
            skill = e.skills[state.angles[0][1]]
            assert skill.position is not None
            return Term(
                "lockedon.ui.prompt.angle",
                me=me,
                skill=skill.name,
                position=position_word(int(skill.position)),
            )
        if d.kind == "follow" and state.follows:
            offer = state.follows[0]
            mover = state.planes[offer.mover]
            cost = e._follow_cost(state, offer)
            assert mover.altitude is not None
            return Term(
                "lockedon.ui.prompt.follow",
                me=me,
                mover=self.seat_label(state, offer.mover),
                position=position_word(geometry.pos(state, d.seat, offer.mover)),
                way=Term(
                    "lockedon.ui.prompt.climbed"
                    if offer.direction > 0
                    else "lockedon.ui.prompt.dived"
                ),
                altitude=altitude_word(mover.altitude),
                cost=Term("lockedon.ui.prompt.follow_cost", n=cost)
                if cost
                else Term("lockedon.ui.prompt.follow_free"),
            )
        if d.kind == "launch" and state.launch is not None and p is not None:
            la = state.launch
            missile = e.missiles[la.missile]
            one = e.missile_cards(state, d.seat, la, 1)
            two: str = ""
            if p.missiles.get(la.missile, 0) >= 2:
                two = Term("lockedon.ui.prompt.launch_two", k=e.missile_cards(state, d.seat, la, 2))
            return Term(
                "lockedon.ui.prompt.launch",
                me=me,
                missile=missile.name,
                target=self.seat_label(state, la.target),
                k=one,
                two=two,
            )
        if d.kind == "next":
            seats = [s for s, q in state.planes.items() if q.flying and q.side == d.side]
            names = ", ".join(self.seat_label(state, s) for s in seats if s not in state.acted)
            return Term(
                "lockedon.ui.prompt.next",
                side=Term("lockedon.side_name", side=d.side or ""),
                names=names,
            )
        if p is None:
            return Term("lockedon.ui.prompt.decide", me=me, decision=self.decision_words(d.kind))
        ac = e.ac(p)
        if d.kind == "afterburner":
            return Term("lockedon.ui.prompt.afterburner", me=me, n=p.ab_left)
        if d.kind in ("predraw", "postdraw"):
            post = d.kind == "postdraw"
            if e.stalls(state, d.seat, post_turn=post):
                return Term("lockedon.ui.prompt.stall", me=me)
            key = "lockedon.ui.prompt.postdraw" if post else "lockedon.ui.prompt.predraw"
            return Term(
                key,
                me=me,
                n=max(0, ratings.thrust(ac, p, post_turn=post)),
                limit=ratings.performance(ac, p),
            )
        if d.kind == "trim":
            limit = ratings.performance(ac, p)
            return Term("lockedon.ui.prompt.trim", me=me, n=len(p.hand) - limit, limit=limit)
        if d.kind == "altitude_step" and p.altitude is not None:
            return Term(
                "lockedon.ui.prompt.altitude_step", me=me, altitude=altitude_word(p.altitude)
            )
        if d.kind == "speed":
            left = max(0, state.t.speed_points - sum(state.t.speed_used.values()))
            return Term("lockedon.ui.prompt.speed", me=me, n=left)
        if d.kind == "play":
            bonus: str = Term("lockedon.ui.prompt.bonus", n=state.t.bonus) if state.t.bonus else ""
            return Term("lockedon.ui.prompt.play", me=me, bonus=bonus)
        if d.kind == "batturn":
            planes = ", ".join(
                self.seat_label(state, o) for o, _ in sorted(geometry.engaged(state, d.seat))
            )
            return Term("lockedon.ui.prompt.batturn", me=me, planes=planes)
        if d.kind in ("altitude", "first"):
            return Term(f"lockedon.ui.prompt.{d.kind}", me=me)
        return Term("lockedon.ui.prompt.decide", me=me, decision=self.decision_words(d.kind))

    def phase(self, state: GameState) -> Phase:
        return Phase(state.round, step_label(state.step))

    def begins(self, options: LockedOnOptions) -> str:
        return Term("lockedon.ui.dogfight.begins")
