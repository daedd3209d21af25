"""Playing cards and resolving them: the Action / Reaction cycle (L132-137), the
Speed Maneuvering points (L110-112), Tone (L242-248), Countermeasures (L182,
L266-268), Teamwork (L400-404) and Split-S (L175-176). The Missile launch is in
:mod:`engine.lockedon.missiles`.

An Action opens an :class:`~engine.lockedon.state.Exchange`; its target reacts, the
actor reacts to that, and so on until one of them passes. The side that played the
last card wins the cycle: the Action succeeds if the actor did (L136). Every card
played goes to the discard pile once the Action is resolved (L137).
"""

from __future__ import annotations

from engine.core.events import Event
from engine.lockedon import geometry
from engine.lockedon.actions import COUNTER, Action
from engine.lockedon.components import CardEffect, Position, SkillEvent, SkillKind
from engine.lockedon.flow import Flow
from engine.lockedon.state import Exchange, GameState, Launch
from engine.lockedon.texts import fixed
from strings import Term

__all__ = ["POSITION_KEYS", "Resolution"]

POSITION_KEYS = {p: f"lockedon.position.{p.name.lower()}" for p in Position}
_TITLE_KEYS = {
    "Maneuvering": "lockedon.title.maneuvering",
    "Missile": "lockedon.title.missile",
    "Countermeasures": "lockedon.title.countermeasures",
    "Altitude": "lockedon.title.altitude",
}


def title_label(title: str) -> str:
    """A reaction title in words: pseudo-titles are translated, card names printed."""
    key = _TITLE_KEYS.get(title)
    return fixed(key) if key is not None else title


class Resolution(Flow):
    """Cards played, reactions, missiles."""

    # --- speed ---------------------------------------------------------------------
    def _do_speed(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        if a.verb == "end":
            self._begin_play(s)
            return
        key = a.target or ""
        s.t.speed_used[key] = s.t.speed_used.get(key, 0) + 1
        if a.mode == "pos":
            x = Exchange("pos", seat, a.target, "Maneuvering", speed=True, n=1)
        else:
            x = Exchange(
                "range", seat, a.target, "Maneuvering", speed=True, own=a.own, enemy=a.enemy
            )
        events.append(Event("speed", self._declare(s, x)))
        self._open(s, x, events)

    # --- playing a card ----------------------------------------------------------------
    def _do_play(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        p = s.planes[seat]
        if a.verb == "end":
            s.step = "postdraw"
            return
        if a.verb == "giveup":
            assert a.target is not None
            geometry.set_pos(s, seat, a.target, 0)
            events.append(
                Event(
                    "giveup",
                    Term(
                        "lockedon.event.giveup",
                        plane=self.name(s, seat),
                        target=self.name(s, a.target),
                    ),
                )
            )
            return
        assert a.card is not None
        card = self._take(s, seat, a)
        t = self.ace_type if a.ace else self.by_code[a.card]
        s.in_play.append(card)
        if a.mode == "pos":
            x = Exchange("pos", seat, a.target, "Maneuvering", card, n=a.n)
        elif a.mode == "range":
            x = Exchange("range", seat, a.target, "Maneuvering", card, own=a.own, enemy=a.enemy)
        elif a.mode in ("up", "down"):
            x = Exchange("vr", seat, a.target, "Altitude", card, n=1 if a.mode == "up" else -1)
            for code in a.cards:  # the climb's discard, set aside until it succeeds
                paid = self.find(s, p.hand, code)
                assert paid is not None
                p.hand.remove(paid)
                x.aside.append(paid)
        elif t.effect is CardEffect.MISSILE_BONUS:
            # A Tactic: played on yourself, nobody may react (L163-164, L170, L181).
            s.in_play.remove(card)
            s.discard.append(card)
            s.t.bonus += 1
            events.append(
                Event(
                    "tactic",
                    Term("lockedon.event.tactic", plane=self.name(s, seat), card=t.label),
                )
            )
            self._diligent(s, seat, a, events)
            return
        elif a.missile is not None:
            x = Exchange("tone", seat, a.target, "Tone", card, missile=a.missile)
        elif t.is_guns:
            x = Exchange("guns", seat, a.target, "Guns", card)
            if a.gf:
                skill = self.can_use(p, SkillKind.GUN_DISCARD)
                assert skill is not None
                p.used.append(skill)
            if a.cards:
                self.discard_codes(s, p.hand, a.cards)
                events.append(
                    Event(
                        "discarded",
                        Term("lockedon.event.discarded", cards=" ".join(a.cards)),
                        seat,
                    )
                )
        else:
            x = Exchange(
                "barrel" if t.effect is CardEffect.BARREL_ROLL else "scissors",
                seat,
                a.target,
                t.name,
                card,
            )
        events.append(Event("play", self._declare(s, x, a)))
        self._diligent(s, seat, a, events)
        if x.kind == "tone":
            assert x.target is not None
            self._skill_draw(s, x.target, SkillEvent.ENEMY_TONE_LAUNCH, 1, events)
        self._open(s, x, events)

    def _take(self, s: GameState, seat: str, a: Action) -> int:
        """Take the card named by ``a`` from the hand or the side cards (Aircraft
        Expertise, one per aircraft turn), marking a skill that made it an Ace Pilot."""
        p = s.planes[seat]
        assert a.card is not None
        pile = p.side_hand if a.side else p.hand
        card = self.find(s, pile, a.card)
        assert card is not None
        pile.remove(card)
        if a.side:
            p.expertise_turn = s.turns
        if a.ace:
            skill = self.ace_skill(p, vs_guns=self.vs_guns(s, seat))
            assert skill is not None
            p.used.append(skill)
        return card

    def _diligent(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        """Diligent: playing a Vertical Roll card draws 1 (L359)."""
        card = self.by_code.get(a.card or "")
        if card is not None and card.effect is CardEffect.VERTICAL_ROLL:
            self._skill_draw(s, seat, SkillEvent.OWN_VERTICAL_ROLL, 1, events)

    def _skill_draw(
        self, s: GameState, seat: str, event: SkillEvent, times: int, events: list[Event]
    ) -> None:
        """A ``draw_on_event`` skill of ``seat`` fires (Focused, Relief, Brave, Diligent,
        Quick Hands)."""
        p = s.planes[seat]
        if not p.flying:
            return
        for sid in p.skills:
            skill = self.skills[sid]
            if skill.kind is SkillKind.DRAW_ON_EVENT and skill.event is event:
                self.draw(s, seat, (skill.amount or 1) * times, events, why="lockedon.why.skill")

    def _declare(self, s: GameState, x: Exchange, a: Action | None = None) -> Term:
        """The narration of an Action as it is declared."""
        plane = self.name(s, x.actor)
        target = self.name(s, x.target) if x.target else fixed("lockedon.nobody")
        card = (
            fixed("lockedon.speed_point")
            if x.speed
            else (self.ace_type.label if a is not None and a.ace else self.label(s, x.card or 0))
        )
        if x.kind == "pos":
            return Term("lockedon.event.play_pos", plane=plane, card=card, n=x.n, target=target)
        if x.kind == "range":
            return Term(
                "lockedon.event.play_range",
                plane=plane,
                card=card,
                own=f"{x.own:+d}",
                enemy=f"{x.enemy:+d}",
                target=target,
            )
        if x.kind == "vr":
            key = "lockedon.event.play_up" if x.n > 0 else "lockedon.event.play_down"
            return Term(key, plane=plane, card=card, target=target)
        if x.kind == "tone":
            assert x.missile is not None
            return Term(
                "lockedon.event.play_tone",
                plane=plane,
                card=card,
                target=target,
                missile=self.missiles[x.missile].name,
            )
        return Term("lockedon.event.play_at", plane=plane, card=card, target=target)

    # --- the cycle ---------------------------------------------------------------------
    def _open(self, s: GameState, x: Exchange, events: list[Event]) -> None:
        s.exchange = x
        if x.target is None:  # nobody may react (L413 with no enemy able to)
            self._resolve(s, events)

    def _do_react(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        x = s.exchange
        assert x is not None
        if a.verb == "alert":
            p = s.planes[seat]
            skill = self.can_use(p, SkillKind.ZERO_MISSILE_HAND)
            assert skill is not None
            p.used.append(skill)
            s.discard += x.mini
            x.mini = []
            x.alert = False
            events.append(Event("alert", Term("lockedon.event.alert", plane=self.name(s, seat))))
            return
        if a.verb == "pass":
            events.append(Event("pass", Term("lockedon.event.pass", plane=self.name(s, seat))))
            if seat != x.actor:
                helpers = self._helpers(s, x)
                if helpers:
                    x.asking = helpers
                    return
            self._resolve(s, events)
            return
        self._react(s, x, seat, a, events)

    def _do_teamwork(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        x = s.exchange
        assert x is not None
        if a.verb == "pass":
            x.asking.pop(0)
            if not x.asking:
                self._resolve(s, events)
            return
        x.teamwork = False
        x.asking = []
        events.append(Event("teamwork", Term("lockedon.event.teamwork", plane=self.name(s, seat))))
        self._react(s, x, seat, a, events)

    def _react(self, s: GameState, x: Exchange, seat: str, a: Action, events: list[Event]) -> None:
        p = s.planes[seat]
        assert a.card is not None
        x.alert = False
        if a.card == COUNTER:
            p.cm -= 1
            x.cm_played += 1
            if a.ace:
                skill = self.can_use(p, SkillKind.COUNTERMEASURE_AS_ACE)
                assert skill is not None
                p.used.append(skill)
            title = self.ace_type.name if a.ace else "Countermeasures"
            x.chain.append([seat, -1, title])
            label: str = fixed("lockedon.countermeasures")
        else:
            if seat == x.actor and x.kind == "missile":
                card = self.find(s, x.mini, a.card)
                assert card is not None
                x.mini.remove(card)
            else:
                card = self._take(s, seat, a)
            s.in_play.append(card)
            t = self.ace_type if a.ace else self.by_code[a.card]
            x.chain.append([seat, card, t.name])
            label = t.label if not a.ace else f"{self.by_code[a.card].label} = {t.label}"
        events.append(
            Event(
                "react",
                Term(
                    "lockedon.event.react",
                    plane=self.name(s, seat),
                    card=label,
                    title=title_label(str(x.chain[-2][2]) if len(x.chain) > 1 else x.title),
                ),
            )
        )
        if not (seat == x.actor and x.kind == "missile"):
            self._diligent(s, seat, a, events)

    def _helpers(self, s: GameState, x: Exchange) -> list[str]:
        """Teamwork (L400-404): once during each enemy Action, one other aircraft of the
        target's side may play one card in reaction, if that side has more aircraft
        (counted now); not against a Range adjustment (only the adjusted aircraft, or
        one enemy, reacts: L412-413); never with Drift Factor (L335, G-L4)."""
        if not s.teamwork or s.ffa or not x.teamwork or x.kind == "range" or x.target is None:
            return []
        target = s.planes[x.target]
        if self.has_skill(target, SkillKind.NO_TEAMWORK):
            return []
        mine = sum(1 for p in s.planes.values() if p.flying and p.side == target.side)
        theirs = sum(1 for p in s.planes.values() if p.flying and p.side == s.planes[x.actor].side)
        if mine <= theirs:
            return []
        out = []
        title = x.last_title
        for seat in self.friends(s, x.target):
            p = s.planes[seat]
            if self.has_skill(p, SkillKind.NO_TEAMWORK):
                continue
            cards = p.hand + (p.side_hand if p.expertise_turn != s.turns else [])
            able = any(self.ctype(s, c).can_react_to(title) for c in cards)
            if able or (cards and self.ace_skill(p, vs_guns=x.kind == "guns") is not None):
                out.append(seat)
        return out

    def _resolve(self, s: GameState, events: list[Event]) -> None:
        """The last card decides (L136); every card played is discarded (L137)."""
        x = s.exchange
        assert x is not None
        s.exchange = None
        success = x.last_seat == x.actor
        s.discard += s.in_play
        s.in_play = []
        s.discard += x.mini
        x.mini = []
        actor = s.planes[x.actor]
        if x.aside:
            actor.hand += x.aside  # a Vertical Roll's climb discard, paid below if it works
        if not success:
            events.append(Event("cancelled", self._cancelled(s, x)))
            if x.kind in ("tone", "missile") and x.target is not None:
                self._skill_draw(s, x.target, SkillEvent.ENEMY_TONE_CANCELLED, 1, events)
            last = x.chain[-1]
            card = int(last[1])
            if card >= 0 and self.ctype(s, card).effect is CardEffect.SPLIT_S:
                # L175-176, G-L5: the acting player's turn ends at once (its Post-Turn
                # draw too), and the Split-S player draws 1.
                events.append(
                    Event(
                        "split_s",
                        Term(
                            "lockedon.event.split_s",
                            plane=self.name(s, str(last[0])),
                            actor=self.name(s, x.actor),
                        ),
                    )
                )
                s.step = "done"
                s.launch = None
                self.draw(s, str(last[0]), 1, events, why="lockedon.why.split_s")
            return
        self._effect(s, x, events)

    def _cancelled(self, s: GameState, x: Exchange) -> Term:
        if x.kind == "missile":
            return Term("lockedon.event.missile_defeated", plane=self.name(s, x.target or ""))
        return Term("lockedon.event.cancelled", plane=self.name(s, x.actor))

    def _effect(self, s: GameState, x: Exchange, events: list[Event]) -> None:
        """A successful Action takes effect."""
        actor = x.actor
        if x.kind in ("guns", "missile"):
            assert x.target is not None
            self._destroy(s, x.target, actor, events)
            return
        if x.kind == "tone":
            assert x.target is not None and x.missile is not None and x.card is not None
            s.launch = Launch(actor, x.target, x.missile, self.ctype(s, x.card).missile_cards)
            events.append(
                Event(
                    "tone",
                    Term(
                        "lockedon.event.tone",
                        plane=self.name(s, actor),
                        missile=self.missiles[x.missile].name,
                    ),
                )
            )
            return
        if x.kind == "vr":
            codes = tuple(self.codes(s, x.aside))
            self._move(s, actor, x.n, events, codes)
            return
        if x.kind == "range":
            moved = [(actor, x.own), (x.target, x.enemy)]
            for seat, delta in moved:
                if seat is None or not delta:
                    continue
                s.planes[seat].range += delta
                events.append(
                    Event(
                        "range",
                        Term(
                            "lockedon.event.range",
                            plane=self.name(s, seat),
                            range=fixed(f"lockedon.range.{_code(s.planes[seat].range)}"),
                        ),
                    )
                )
            if x.own:
                for e in self.enemies(s, actor):
                    self._skill_draw(s, e, SkillEvent.ENEMY_ADJUSTS_OWN_RANGE, 1, events)
            return
        assert x.target is not None
        if x.kind == "pos":
            new = geometry.pos(s, actor, x.target) + x.n
        elif x.kind == "barrel":
            new = Position.NEUTRAL
        else:  # scissors
            new = Position.ADVANTAGED
        geometry.set_pos(s, actor, x.target, new)
        events.append(
            Event(
                "position",
                Term(
                    "lockedon.event.position",
                    plane=self.name(s, actor),
                    position=fixed(POSITION_KEYS[Position(new)]),
                    target=self.name(s, x.target),
                ),
            )
        )


def _code(r: int) -> str:
    return ("G", "HS", "RH", "AH")[r]
