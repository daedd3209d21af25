"""Legality: one predicate, :meth:`Legality.refusal`, says whether and why not.

``legal_actions`` generates candidate actions and keeps those the predicate allows;
``apply`` refuses with the predicate's message, which cites the rulebook line. The
candidates come from :mod:`engine.lockedon.candidates`; a
:class:`~engine.lockedon.candidates.Ctx` holds what the predicate needs to know about
the deciding seat, computed once per call and shared by every candidate.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.lockedon import geometry, ratings
from engine.lockedon.actions import COUNTER, Action
from engine.lockedon.base import EngineBase, Why
from engine.lockedon.candidates import Candidates, Ctx
from engine.lockedon.components import (
    GUNS_TITLE,
    Altitude,
    CardEffect,
    CardType,
    MissileType,
    Position,
    Range,
    SkillKind,
)
from engine.lockedon.state import Exchange, GameState, Plane
from engine.lockedon.texts import fixed
from strings import Term

__all__ = ["VERBS", "Legality"]

VERBS = {
    "altitude": ("alt",),
    "angle": ("angle",),
    "first": ("first", "second"),
    "next": ("next",),
    "afterburner": ("ab",),
    "predraw": ("discard",),
    "postdraw": ("discard",),
    "trim": ("trim",),
    "altitude_step": ("stay", "dive", "climb"),
    "speed": ("speed", "end"),
    "play": ("play", "giveup", "end"),
    "react": ("react", "pass", "alert"),
    "teamwork": ("react", "pass"),
    "follow": ("follow", "nofollow"),
    "launch": ("launch", "nolaunch"),
    "batturn": ("batturn", "pass"),
    "site": ("react", "pass"),
}
"""The verbs each kind of decision takes (``timely`` goes with any but a secret pick)."""

_DECISION = {kind: f"lockedon.decision.{kind}" for kind in VERBS}
"""The catalogue key naming each kind of decision in refusals (``the play cards step``)."""

_TITLES_CM = ("Missile", "Tone")
"""What a Countermeasures counter reacts to (L182, L263)."""


class Legality(Candidates):
    """Which actions a seat may take now."""

    # --- the two entry points ----------------------------------------------------
    def legal_actions(self, state: GameState, seat: str) -> list[Action]:
        """Every legal action of ``seat`` now, concretely."""
        out: list[Action] = []
        for d in self.pending(state):
            if d.seat != seat:
                continue
            c = Ctx(self, state, d)
            for a in self._candidates(c):
                if self._refusal(c, a) is None:
                    out.append(a)
        return out

    def refusal(self, state: GameState, seat: str, action: Action) -> Term | None:
        """Why ``seat`` may not take ``action`` now, or None if it may."""
        if state.step == "over":
            return Term("lockedon.refuse.game_over")
        mine = [d for d in self.pending(state) if d.seat == seat]
        if not mine:
            if seat not in state.planes:
                return Term("lockedon.refuse.no_seat", seat=seat)
            waiting = ", ".join(sorted({d.seat for d in self.pending(state)}))
            return Term("lockedon.refuse.not_your_move", waiting=waiting)
        reasons = [self._refusal(Ctx(self, state, d), action) for d in mine]
        if any(r is None for r in reasons):
            return None
        first = reasons[0]
        assert first is not None
        return first.term()

    # --- the predicate --------------------------------------------------------------
    def _refusal(self, c: Ctx, a: Action) -> Why | None:
        kind = c.kind
        if a.verb == "timely" and kind != "altitude":
            return self._timely_refusal(c, a)
        verbs = VERBS[kind]
        if a.verb not in verbs:
            return Why(
                "lockedon.refuse.wrong_verb",
                verb=a.verb,
                decision=fixed(_DECISION[kind]),
                verbs=" / ".join(verbs),
            )
        state, p = c.state, c.p
        if kind in ("altitude", "first"):
            return None
        if kind == "angle":
            return self._angle_refusal(c, a)
        if kind == "next":
            seats = self._next_choices(state)
            if a.target not in seats:
                return Why("lockedon.refuse.next", seats=", ".join(seats))
            return None
        if kind == "afterburner":
            if a.mode == "on" and p.ab_left <= 0:
                return Why("lockedon.refuse.ab_spent")
            return None
        if kind in ("predraw", "postdraw"):
            if not self.has_codes(state, p.hand, a.cards):
                return Why("lockedon.refuse.not_held", cards=" ".join(a.cards))
            if p.hand and not a.cards and self.stalls(state, c.seat, post_turn=kind == "postdraw"):
                return Why("lockedon.refuse.stall")
            return None
        if kind == "trim":
            k = len(p.hand) - ratings.performance(c.ac, p)
            if len(a.cards) != k:
                return Why("lockedon.refuse.trim", n=k)
            if not self.has_codes(state, p.hand, a.cards):
                return Why("lockedon.refuse.not_held", cards=" ".join(a.cards))
            return None
        if kind == "altitude_step":
            return self._altitude_refusal(c, a)
        if kind == "speed":
            return None if a.verb == "end" else self._speed_refusal(c, a)
        if kind == "play":
            if a.verb == "end":
                return None
            if a.verb == "giveup":
                held = c.holding()
                if held is None or held[0] != a.target:
                    return Why("lockedon.refuse.giveup", target=str(a.target))
                return None
            return self._play_refusal(c, a)
        if kind in ("react", "teamwork"):
            if a.verb == "pass":
                return None
            x = state.exchange
            assert x is not None
            if a.verb == "alert":
                return self._alert_refusal(c, x)
            return self._react_refusal(c, x, a)
        if kind == "follow":
            if a.verb == "nofollow":
                return None
            n = self._follow_cost(state, state.follows[0])
            if len(a.cards) != n:
                return Why("lockedon.refuse.follow_cost", n=n)
            if not self.has_codes(state, p.hand, a.cards):
                return Why("lockedon.refuse.not_held", cards=" ".join(a.cards))
            return None
        if kind == "launch":
            if a.verb == "nolaunch":
                return None
            return self._launch_refusal(c, a)
        if kind == "batturn":
            if a.verb == "batturn" and not any(True for _ in geometry.engaged(state, c.seat)):
                return Why("lockedon.refuse.batturn")
            return None
        if kind == "site":
            return None if a.verb == "pass" else self._site_refusal(c, a)
        return Why("lockedon.refuse.nothing_to_do")

    # --- campaign missions -------------------------------------------------------
    def _angle_refusal(self, c: Ctx, a: Action) -> Why | None:
        """90° / 0° Angle (L343, L356): any Range for yourself, one enemy's matched."""
        if a.mode not in _RANGE_CODES:
            return Why("lockedon.refuse.angle_range", range=str(a.mode))
        if a.target not in c.enemies(self):
            return Why("lockedon.refuse.angle_enemy", target=str(a.target))
        return None

    def _site_refusal(self, c: Ctx, a: Action) -> Why | None:
        """A site's attack (L297-298) is answered once, as an Action named Tone (a SAM)
        or Guns (AAA) would be: a card that reacts to it, an Ace Pilot, a
        Countermeasures counter against a Tone (L165, L168, L182)."""
        site = c.state.site
        assert site is not None
        return self._answer_refusal(
            c, a, tuple(site.titles), cm=True, vs_guns=GUNS_TITLE in site.titles
        )

    # --- draws, altitude -------------------------------------------------------------
    def stalls(self, state: GameState, seat: str, *, post_turn: bool) -> bool:
        """Thrust 0 made -1 by High Altitude (L226); not for Edge of Envelope, which
        draws Performance instead of Thrust (L372)."""
        p = state.planes[seat]
        if self.has_skill(p, SkillKind.DRAW_TO_PERFORMANCE):
            return False
        return ratings.thrust(self.ac(p), p, post_turn=post_turn) < 0

    def _altitude_refusal(self, c: Ctx, a: Action) -> Why | None:
        alt = c.p.altitude
        assert alt is not None
        if a.verb == "dive" and alt == Altitude.LOW:
            return Why("lockedon.refuse.dive_low")
        if a.verb == "climb":
            if alt == Altitude.HIGH:
                return Why("lockedon.refuse.climb_high")
            if not self.has_codes(c.state, c.p.hand, a.cards):
                return Why("lockedon.refuse.climb_card", card=a.cards[0])
        return None

    # --- speed ---------------------------------------------------------------------
    def speed_advantage(self, state: GameState, seat: str, enemy: str) -> int:
        """Free Speed Maneuvering points against ``enemy``: one per point of Speed
        above its Speed (L111)."""
        p, e = state.planes[seat], state.planes[enemy]
        return max(0, ratings.speed(self.ac(p), p) - ratings.speed(self.ac(e), e))

    def _speed_refusal(self, c: Ctx, a: Action) -> Why | None:
        state = c.state
        t = state.t
        if sum(t.speed_used.values()) >= t.speed_points:
            return Why("lockedon.refuse.speed_spent")
        if a.target is not None:
            why = self._target_refusal(c, a.target)
            if why is not None:
                return why
            left = self.speed_advantage(state, c.seat, a.target) - t.speed_used.get(a.target, 0)
            if left <= 0:
                return Why("lockedon.refuse.speed_slower", target=self.name(state, a.target))
        if a.mode == "pos":
            assert a.target is not None
            return self._pos_refusal(c, a.target, 1)
        if abs(a.own) + abs(a.enemy) != 1:
            return Why("lockedon.refuse.speed_one")
        return self._range_refusal(c, a)

    # --- playing cards ---------------------------------------------------------------
    def _card(self, c: Ctx, a: Action) -> tuple[CardType, Why | None]:
        """The type the played card counts as, or why it cannot be played."""
        state, p = c.state, c.p
        assert a.card is not None
        if a.card == COUNTER or a.card not in self.by_code:
            return self.ace_type, Why("lockedon.refuse.unknown_card", card=a.card)
        if a.side:
            if self.find(state, p.side_hand, a.card) is None:
                return self.ace_type, Why("lockedon.refuse.not_side", card=a.card)
            if p.expertise_turn == state.turns:
                return self.ace_type, Why("lockedon.refuse.side_used")
        elif self.find(state, p.hand, a.card) is None:
            return self.ace_type, Why("lockedon.refuse.not_held", cards=a.card)
        if a.ace:
            if self.ace_skill(p, vs_guns=False) is None:
                return self.ace_type, Why("lockedon.refuse.no_ace_skill")
            return self.ace_type, None
        return self.by_code[a.card], None

    def _target_refusal(self, c: Ctx, target: str | None) -> Why | None:
        """The target is a flying enemy; an aircraft Advantaged on or Tailing an enemy
        must give that up before it targets another (L204)."""
        if target is None:
            return None
        if target not in c.enemies(self):
            if target in c.state.planes and c.state.planes[target].flying:
                return Why("lockedon.refuse.friendly", target=self.name(c.state, target))
            return Why("lockedon.refuse.not_enemy", target=target)
        held = c.holding()
        if held is not None and held[0] != target:
            return Why(
                "lockedon.refuse.give_up_first",
                held=self.name(c.state, held[0]),
                target=self.name(c.state, target),
            )
        return None

    def _play_refusal(self, c: Ctx, a: Action) -> Why | None:
        t, why = self._card(c, a)
        if why is not None:
            return why
        why = self._target_refusal(c, a.target)
        if why is not None:
            return why
        state = c.state
        if a.mode == "pos":
            if a.n < 1 or a.n > t.positioning:
                return Why("lockedon.refuse.positioning", card=t.label, n=t.positioning)
            assert a.target is not None
            return self._pos_refusal(c, a.target, a.n)
        if a.mode == "range":
            if abs(a.own) + abs(a.enemy) > t.range:
                return Why("lockedon.refuse.range_value", card=t.label, n=t.range)
            return self._range_refusal(c, a)
        if a.mode in ("up", "down"):
            if t.effect is not CardEffect.VERTICAL_ROLL or a.ace:
                return Why("lockedon.refuse.no_action", card=t.label)
            return self._vertical_refusal(c, a)
        if a.target is None:
            if t.effect is not CardEffect.MISSILE_BONUS or a.ace or a.cards:
                return Why("lockedon.refuse.needs_target", card=t.label)
            return None
        if a.ace:
            return Why("lockedon.refuse.no_action", card=t.label)
        if a.missile is not None:
            if not t.is_tone:
                return Why("lockedon.refuse.not_tone", card=t.label)
            return self._tone_refusal(c, a.target, a.missile)
        if t.is_guns:
            return self._guns_refusal(c, t, a)
        pos = geometry.pos(state, c.seat, a.target)
        if a.cards or a.gf:
            return Why("lockedon.refuse.no_cost", card=t.label)
        if t.effect is CardEffect.BARREL_ROLL:
            if pos >= 0:
                return Why("lockedon.refuse.barrel", target=self.name(state, a.target))
            return None
        if t.effect is CardEffect.SCISSORS:
            if pos != Position.DISADVANTAGED:
                return Why("lockedon.refuse.scissors", target=self.name(state, a.target))
            return self._position_refusal(state, c.seat, a.target, Position.ADVANTAGED)
        if t.is_tone:
            return Why("lockedon.refuse.tone_missile", card=t.label)
        return Why("lockedon.refuse.no_action", card=t.label)

    def _pos_refusal(self, c: Ctx, target: str, n: int) -> Why | None:
        """Maneuvering for Position (L151, L238): up to Tailing, only on an aircraft
        directly Engaged with yours if yours is Engaged."""
        state = c.state
        now = geometry.pos(state, c.seat, target)
        if now + n > Position.TAILING:
            return Why("lockedon.refuse.past_tailing", n=Position.TAILING - now)
        if now == 0:
            for other, _ in geometry.engaged(state, c.seat):
                if other != target:
                    return Why(
                        "lockedon.refuse.chain",
                        other=self.name(state, other),
                        target=self.name(state, target),
                    )
        return self._position_refusal(state, c.seat, target, now + n)

    def _position_refusal(self, state: GameState, a: str, b: str, new: int) -> Why | None:
        """Whether ``a`` may come to hold ``new`` relative to ``b``: a Position on an
        enemy only within range of your longest weapon (L197), only one enemy at a time
        (L201), at most 2 Advantaged on and 1 Tailing an aircraft (L202)."""
        if new == 0:
            return None
        holder, on, p = (a, b, new) if new > 0 else (b, a, -new)
        other = geometry.holding(state, holder)
        if other is not None and other[0] != on:
            return Why("lockedon.refuse.one_target", plane=self.name(state, holder))
        if p == Position.ADVANTAGED and geometry.advantaged_on(state, on, but=(holder,)) >= 2:
            return Why("lockedon.refuse.advantaged_full", target=self.name(state, on))
        if p == Position.TAILING and geometry.tailing_on(state, on, but=(holder,)) >= 1:
            return Why("lockedon.refuse.tailing_full", target=self.name(state, on))
        longest = self.longest(state.planes[holder])
        if longest is None or geometry.range_between(state, holder, on) > longest:
            return Why(
                "lockedon.refuse.out_of_range",
                plane=self.name(state, holder),
                target=self.name(state, on),
            )
        return None

    def range_target_ok(self, state: GameState, seat: str, enemy: str) -> bool:
        """An enemy's Range counter may be adjusted (and an enemy may react to your own
        Range adjustment) only if it is Neutral to every other aircraft or Engaged with
        yours alone (L411, L413)."""
        return all(other == seat for other, _ in geometry.engaged(state, enemy))

    def _range_refusal(self, c: Ctx, a: Action) -> Why | None:
        """Maneuvering for Range (L155-159, L407-413): your counter and / or one
        enemy's, each staying between Gun and Active Homing."""
        state, p = c.state, c.p
        if a.own == 0 and a.enemy == 0:
            return Why("lockedon.refuse.range_zero")
        if not Range.GUN <= p.range + a.own <= Range.ACTIVE:
            return Why("lockedon.refuse.range_bounds", plane=self.name(state, c.seat))
        if a.target is None:
            if a.enemy:
                return Why("lockedon.refuse.needs_target", card="Maneuvering")
            if any(self.range_target_ok(state, c.seat, e) for e in c.enemies(self)):
                return Why("lockedon.refuse.name_reactor")
            return None
        if not self.range_target_ok(state, c.seat, a.target):
            return Why("lockedon.refuse.range_engaged", target=self.name(state, a.target))
        if not Range.GUN <= state.planes[a.target].range + a.enemy <= Range.ACTIVE:
            return Why("lockedon.refuse.range_bounds", plane=self.name(state, a.target))
        return None

    def _vertical_refusal(self, c: Ctx, a: Action) -> Why | None:
        """Vertical Roll (L179-180): one level up (discarding a card) or down. The enemy
        named may react: one Advantaged on or Tailing you, if any (L229)."""
        state, p = c.state, c.p
        alt = p.altitude
        assert alt is not None
        if a.mode == "up":
            if alt == Altitude.HIGH:
                return Why("lockedon.refuse.climb_high")
            rest = p.hand[:] if a.side else _without(self, state, p.hand, a.card)
            if len(a.cards) != 1 or not self.has_codes(state, rest, a.cards):
                return Why("lockedon.refuse.climb_pay")
        else:
            if alt == Altitude.LOW:
                return Why("lockedon.refuse.dive_low")
            if a.cards:
                return Why("lockedon.refuse.no_cost", card="Vertical Roll")
        if a.target is None:
            return Why("lockedon.refuse.name_reactor")
        on_me = [o for o, pos in geometry.engaged(state, c.seat) if pos < 0]
        if c.holding() is None and on_me and a.target not in on_me:
            return Why(
                "lockedon.refuse.vertical_reactor",
                planes=", ".join(self.name(state, o) for o in on_me),
            )
        return None

    def _guns_refusal(self, c: Ctx, t: CardType, a: Action) -> Why | None:
        """A gun attack (L171-172): a gun, Gun Range, the discard paid."""
        state, p = c.state, c.p
        assert a.target is not None
        if ratings.gun(c.ac, p) is None:
            return Why("lockedon.refuse.no_gun", plane=self.name(state, c.seat))
        rng = geometry.range_between(state, c.seat, a.target)
        if rng != Range.GUN:
            return Why("lockedon.refuse.not_gun_range", range=fixed(_RANGE_KEYS[rng]))
        if a.gf:
            if self.can_use(p, SkillKind.GUN_DISCARD) is None:
                return Why("lockedon.refuse.no_gun_fighter")
            if self._gun_cost(p, t, gf=False) == 0:
                return Why("lockedon.refuse.gun_fighter_free")
        cost = self._gun_cost(p, t, gf=a.gf)
        if len(a.cards) != cost:
            return Why("lockedon.refuse.gun_cost", n=cost)
        rest = p.hand[:] if a.side else _without(self, state, p.hand, a.card)
        if not self.has_codes(state, rest, a.cards):
            return Why("lockedon.refuse.not_held", cards=" ".join(a.cards))
        return None

    def _tone_refusal(self, c: Ctx, target: str, missile: str) -> Why | None:
        """A Tone declares a missile the aircraft carries; the Position and Range must
        suit it (L177, L187-188, L240-241)."""
        state, p = c.state, c.p
        if p.missiles.get(missile, 0) <= 0:
            return Why("lockedon.refuse.no_missile", missile=missile)
        return self.launch_refusal(state, c.seat, target, missile)

    def launch_refusal(self, state: GameState, seat: str, target: str, missile: str) -> Why | None:
        m = self.missiles[missile]
        pos = geometry.pos(state, seat, target)
        if m.cards(pos) is None:
            return Why(
                "lockedon.refuse.missile_position",
                missile=m.name,
                position=fixed(_POSITION_KEYS[pos]),
            )
        rng = geometry.range_between(state, seat, target)
        if not m.type.launches_at(rng):
            return Why(
                "lockedon.refuse.missile_range",
                missile=m.name,
                range=fixed(_RANGE_KEYS[rng]),
                wanted=fixed(_TYPE_KEYS[m.type]),
            )
        return None

    def _launch_refusal(self, c: Ctx, a: Action) -> Why | None:
        launch = c.state.launch
        assert launch is not None
        if a.n not in (1, 2):
            return Why("lockedon.refuse.launch_count")
        if c.p.missiles.get(launch.missile, 0) < a.n:
            return Why("lockedon.refuse.second_missile", missile=self.missiles[launch.missile].name)
        return self.launch_refusal(c.state, c.seat, launch.target, launch.missile)

    # --- reactions -----------------------------------------------------------------
    def _alert_refusal(self, c: Ctx, x: Exchange) -> Why | None:
        if x.kind != "missile" or c.seat != x.target or not x.alert or x.chain:
            return Why("lockedon.refuse.alert_now")
        if self.can_use(c.p, SkillKind.ZERO_MISSILE_HAND) is None:
            return Why("lockedon.refuse.no_alert")
        return None

    def _react_refusal(self, c: Ctx, x: Exchange, a: Action) -> Why | None:
        """A card reacts to the last card if its React To names it (L133, L165); an
        Ace Pilot reacts to anything (L168) but not from a Missile's cards; Split-S only
        on an opposing player's turn (L175); Countermeasures only to a Missile or a Tone
        (L182)."""
        state = c.state
        title = x.last_title
        assert a.card is not None
        if c.seat == x.actor and x.kind == "missile":
            if a.side or a.ace or a.card == COUNTER:
                return Why("lockedon.refuse.missile_hand")
            if self.find(state, x.mini, a.card) is None:
                return Why("lockedon.refuse.not_in_mini", card=a.card)
            t = self.by_code[a.card]
            if not t.missile_usable:
                return Why("lockedon.refuse.missile_ace")
            return self._reacts(c, t, (title,))
        return self._answer_refusal(
            c,
            a,
            (title,),
            cm=c.kind == "react" and c.seat == x.target,
            vs_guns=x.kind == "guns" and c.seat != x.actor,
        )

    def _answer_refusal(
        self, c: Ctx, a: Action, titles: tuple[str, ...], *, cm: bool, vs_guns: bool
    ) -> Why | None:
        """Whether a card of the hand or the side cards, or a Countermeasures counter
        (``cm``: only the target's own), may answer an Action named one of ``titles``;
        ``vs_guns``: the Action is a gun attack (Jink, L352)."""
        state, p = c.state, c.p
        assert a.card is not None
        if a.card == COUNTER:
            if not cm:
                return Why("lockedon.refuse.cm_own")
            if p.cm <= 0:
                return Why("lockedon.refuse.no_cm")
            if a.ace:
                if self.can_use(p, SkillKind.COUNTERMEASURE_AS_ACE) is None:
                    return Why("lockedon.refuse.no_lucky")
                return None
            if not any(title in _TITLES_CM for title in titles):
                return Why("lockedon.refuse.cm_title", title=" / ".join(titles))
            return None
        if a.side:
            if self.find(state, p.side_hand, a.card) is None:
                return Why("lockedon.refuse.not_side", card=a.card)
            if p.expertise_turn == state.turns:
                return Why("lockedon.refuse.side_used")
        elif self.find(state, p.hand, a.card) is None:
            return Why("lockedon.refuse.not_held", cards=a.card)
        if a.card not in self.by_code:
            return Why("lockedon.refuse.unknown_card", card=a.card)
        if a.ace:
            if self.ace_skill(p, vs_guns=vs_guns) is None:
                return Why("lockedon.refuse.no_ace_skill")
            return None
        return self._reacts(c, self.by_code[a.card], titles)

    def _reacts(self, c: Ctx, t: CardType, titles: tuple[str, ...]) -> Why | None:
        if t.opponent_turn_only and c.seat == c.state.active:
            return Why("lockedon.refuse.split_s")
        if not any(t.can_react_to(title) for title in titles):
            return Why("lockedon.refuse.react_to", card=t.label, title=" / ".join(titles))
        return None

    def vs_guns(self, state: GameState, seat: str) -> bool:
        """Whether ``seat`` is answering a gun attack now: an enemy's (L171) or a site's
        looking for Guns (AAA, L297)."""
        x = state.exchange
        if x is not None:
            return x.kind == "guns" and seat != x.actor
        site = state.site
        return site is not None and site.target == seat and GUNS_TITLE in site.titles

    def ace_skill(self, p: Plane, *, vs_guns: bool) -> str | None:
        """The skill letting ``p`` play a card as an Ace Pilot now: Jink when reacting
        to a gun attack (``vs_guns``; the narrower, used first), else Agile (L352,
        L357)."""
        found: str | None = None
        for s in p.skills:
            skill = self.skills[s]
            if skill.kind is not SkillKind.ANY_AS_ACE or (skill.once_per_game and s in p.used):
                continue
            if skill.against:
                if vs_guns:
                    return s
            elif found is None:
                found = s
        return found

    def _timely_refusal(self, c: Ctx, a: Action) -> Why | None:
        """Timely: once per game, at any time, discard any cards and draw as many (L362)."""
        if self.can_use(c.p, SkillKind.REDRAW) is None:
            return Why("lockedon.refuse.no_timely")
        x = c.state.exchange
        if x is not None and x.kind == "missile" and c.seat == x.actor:
            return Why("lockedon.refuse.missile_hand")  # the hand is put down (L250)
        if not a.cards:
            return Why("lockedon.refuse.timely_empty")
        if not self.has_codes(c.state, c.p.hand, a.cards):
            return Why("lockedon.refuse.not_held", cards=" ".join(a.cards))
        return None


_RANGE_KEYS = {r: f"lockedon.range.{r.code}" for r in Range}
_RANGE_CODES = frozenset(r.code for r in Range)
_POSITION_KEYS = {p: f"lockedon.position.{p.name.lower()}" for p in Position}
_TYPE_KEYS = {t: f"lockedon.missile_type.{t.value}" for t in MissileType}


def _without(
    engine: EngineBase, state: GameState, hand: Sequence[int], code: str | None
) -> list[int]:
    rest = list(hand)
    if code is not None:
        card = engine.find(state, rest, code)
        if card is not None:
            rest.remove(card)
    return rest
