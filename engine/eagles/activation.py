"""Activations (§8): what each kind of activation does, once legality has passed.

Targeted Activations (§8.2) that the target may answer leave a :class:`Pending`
``respond`` for the target's side; :meth:`Activations.resolve_targeted` finishes them
with the Response (or none). Altitude changes a tailing aircraft may follow leave a
``follow`` (§11.51). Everything else resolves at once.
"""

from __future__ import annotations

from engine.eagles import mat
from engine.eagles.actions import Action
from engine.eagles.base import Run
from engine.eagles.combat import clamp_fv, half_up
from engine.eagles.components import Card, Characteristic, DamageKind, DefenceClass, Symbol
from engine.eagles.ratings import card_value, defence, rating, sustained_climb
from engine.eagles.score import Scoring
from engine.eagles.state import LANDED, Fire, GameState, Pending, Plane

__all__ = ["Activations"]

HIGH = 3
TREETOP = 0
CLIMB_DONE = 6
"""Climb progress that completes a climb (§11.44)."""


class Activations(Scoring):
    """What activations do."""

    # -- common -----------------------------------------------------------------------
    def symbol_of(self, card: Card, action_symbol: str | None, as_card: str | None) -> str:
        """The Performance Rating a card is used with: the one named, or the card's
        only symbol; a card played as a Snap Turn is Agility (§18.0 Voss)."""
        if as_card == "snap":
            return "agility"
        if action_symbol:
            return action_symbol
        return card.symbols[0].value

    def value(
        self, p: Plane, a: Action, *, capped: bool, penalty: bool, response: bool = False
    ) -> int:
        """The Maneuver Rating ``p`` gets from the card of ``a``."""
        card = self.cards[a.card or 0]
        symbol = self.symbol_of(card, a.symbol, a.as_card)
        plus = a.has("+1")
        if response and p.has("response_mr_plus_1"):
            plus = True  # Collishaw (§18.0): every Response; 8.14 still applies
        return card_value(
            self.ac(p),
            p,
            card,
            symbol,
            capped=capped,
            as_medal=a.as_card == "medal",
            plus=plus,
            pilot_penalty=penalty,
        )

    def spend(self, run: Run, p: Plane, a: Action) -> Card:
        """Play the card of ``a`` from ``p``'s side's hand; note once-only abilities."""
        s = run.state
        card = self.cards[a.card or 0]
        self.play_card(s, p.side, card.number)
        if a.as_card == "snap":
            p.used.append("snap_turn_any")
        if a.as_card == "medal":
            p.used.append("medal_any")
        if a.has("+1") and p.has("mr_plus_1"):
            p.used.append("mr_plus_1")
        return card

    def begin(self, run: Run, p: Plane, a: Action) -> Card:
        """Flip ``p`` (§8.12), jettison bombs if asked (§15.32), give up a position if
        asked (§8.25 note), and play the card. A climb in progress is broken off by any
        activation but a climb (§11.46 a)."""
        s = run.state
        p.activated = True
        s.passes = 0
        if a.has("jettison") and p.bombs:
            p.bombs = 0
            run.say("jettison", plane=self.name(p))
        if a.has("giveup") and p.tailing is not None:
            run.say("give_up", plane=self.name(p), target=self.name(s.plane(p.tailing)))
            mat.give_up(p)
        card = self.spend(run, p, a)
        return card

    def untargeted(self, run: Run, p: Plane) -> None:
        """An aircraft that is Tailing gives up its position to make an Untargeted
        Activation (§8.53)."""
        if p.tailing is not None:
            run.say("give_up", plane=self.name(p), target=self.name(run.state.plane(p.tailing)))
            mat.give_up(p)
            mat.settle(run.state)

    def engine_wings(self, run: Run, p: Plane, card: Card, symbol: str) -> None:
        """The Unreliable Engine check of a Speed card (§13.5; the SPAD XIII's at MR - 2,
        §13.73) and the Weak Wings check of a Dive card (§13.6; not for Loerzer, §18.0),
        for a Targeted Activation, a Response or an Escape."""
        ac = self.ac(p)
        printed = 4 if card.special == "medal" else card.rating
        if symbol == "speed":
            if Characteristic.UNRELIABLE_ENGINE in ac.characteristics:
                self.check(run, p, printed - 1, DamageKind.ENGINE, "engine")
            elif p.has("spad_engine"):
                self.check(run, p, printed - 2, DamageKind.ENGINE, "engine")
        if symbol == "dive" and self.weak_wings(p):
            self.check(run, p, printed - 1, DamageKind.WING, "wings")

    def weak_wings(self, p: Plane) -> bool:
        return Characteristic.WEAK_WINGS in self.ac(p).characteristics and not p.has(
            "no_weak_wings_dive"
        )

    # -- Targeted Activations (§8.2) --------------------------------------------------
    @staticmethod
    def response_barred(t: Plane, actor: Plane, actor_free: bool, target_free: bool) -> bool:
        """The target may not Respond: a Green pilot targeted by an Unengaged enemy
        (§14.21); Richthofen against an Unengaged non-Ace (§18.0)."""
        if t.quality == "green" and actor_free:
            return True
        return actor.has("no_response_unengaged") and t.quality != "ace" and target_free

    def tail(self, run: Run, a: Plane, act: Action) -> None:
        """A Targeted Activation for position (§8.27): the card's total, then the
        target's Response."""
        s = run.state
        t = s.plane(act.target or "")
        a_free = mat.unengaged(s, a)
        t_free = mat.unengaged(s, t)
        if a.tailing is not None and a.tailing != t.ref and t.tailing == a.ref:
            # §8.26: targeting the aircraft tailing it, it gives up its own position.
            run.say("give_up", plane=self.name(a), target=self.name(s.plane(a.tailing)))
            mat.give_up(a)
        card = self.begin(run, a, act)
        # §10.75: the gunner may clear his guns during a Targeted Activation, and then
        # makes no Gunner Attack in it.
        gunner_cleared = act.has("gunner") and self.clear_jam(run, a, "rear")
        symbol = self.symbol_of(card, act.symbol, act.as_card)
        total = rating(self.ac(a), a, symbol) + self.value(a, act, capped=True, penalty=True)
        if act.verb != "escape" and symbol != "climb":
            a.climb = 0  # any other card breaks off a climb in progress (§11.46 a)
        run.say(
            "targets",
            kind="play",
            plane=self.name(a),
            card=self.card_name(card.number),
            rating=symbol,
            target=self.name(t),
            total=total,
        )
        barred = self.response_barred(t, a, a_free, t_free)
        sun = act.has("sun")
        if sun:
            s.sun = None  # once, this turn (Campaign §12.7)
        pend = Pending(
            "respond",
            t.side,
            action=str(act),
            actor=a.ref,
            target=t.ref,
            total=total,
            symbol=symbol,
            data={
                "before": mat.relation(s, a, t),
                "both_free": a_free and t_free,
                "barred": barred or sun,
                "no_gunner": barred and a.has("no_response_unengaged"),
                "gunner_cleared": gunner_cleared,
            },
        )
        s.pending = pend
        if sun:
            run.say("from_the_sun", plane=self.name(a), target=self.name(t))
        elif barred:
            run.say("no_response", plane=self.name(t))
        if not self.target_has_choice(s):
            # Nothing to decide: no Response card it may play, nothing it could fire.
            self.resolve_targeted(run, Action("pass"))

    def resolve_targeted(self, run: Run, resp: Action) -> None:
        """Finish a Targeted Activation with the target's answer: a Response card, none
        (``pass``, §8.27 c-d), or letting an Escape succeed (``allow``, §12.16); then
        the checks (§10.11), the fire (§10.1), collisions (§9.46) and an Escape's
        result (§12.13)."""
        s = run.state
        pend = s.pending
        assert pend is not None and pend.actor and pend.target
        s.pending = None
        a, t = s.plane(pend.actor), s.plane(pend.target)
        act = Action.from_text(pend.action)
        symbol = pend.symbol or "speed"
        before = int(pend.data["before"])
        hold_a = act.has("hold")
        hold_t = resp.has("hold")
        if resp.verb == "allow":
            run.say("allows", plane=self.name(t), target=self.name(a))
            self.engine_wings(run, a, self.cards[act.card or 0], symbol)
            if a.flying:
                self.escape_now(run, a)
            self.end_activation(run, a)
            return
        r_card: Card | None = None
        r_symbol = symbol
        if resp.verb == "respond":
            r_card = self.spend(run, t, resp)
            r_symbol = self.symbol_of(r_card, resp.symbol, resp.as_card)
            total_t = rating(self.ac(t), t, r_symbol) + self.value(
                t, resp, capped=True, penalty=True, response=True
            )
            run.say(
                "responds",
                kind="play",
                plane=self.name(t),
                card=self.card_name(r_card.number),
                rating=r_symbol,
                total=total_t,
            )
            # §8.44: responding to the aircraft tailing it costs a level on the one it tails.
            if t.tailing is not None and t.tailing != a.ref and a.tailing == t.ref:
                t.level -= 1
                if t.level <= 0:
                    mat.give_up(t)
        else:
            total_t = max(rating(self.ac(t), t, symbol), 0)
            run.say("no_card", plane=self.name(t), total=total_t)
        diff = pend.total - total_t
        after = self._new_relation(run, a, t, before, diff, climb_card=symbol == "climb")
        mat.settle(s)
        if after > 0:
            run.say("position", plane=self.name(a), target=self.name(t), level=after)
        elif after < 0:
            run.say("position", plane=self.name(t), target=self.name(a), level=-after)
        else:
            run.say("position_free", plane=self.name(a), target=self.name(t))
        # Checks "as if fired upon" come before combat (§10.11).
        self.engine_wings(run, a, self.cards[act.card or 0], symbol)
        if r_card is not None:
            self.engine_wings(run, t, r_card, r_symbol)
        if act.verb == "escape":
            if not self._escape_result(run, a, t, act, symbol):
                return  # following the altitude change (§12.14)
        else:
            self._fight(run, a, t, before, bool(pend.data["both_free"]), hold_a, hold_t, pend)
            if run.state.pending is not None:
                return
        self.end_activation(run, a)

    def converted(self, run: Run, kind: str) -> None:
        """Fonck's hit becomes ``kind`` (§18.0); the activation goes on: the damage,
        collisions (§9.46), the next activation."""
        s = run.state
        pend = s.pending
        assert pend is not None and pend.kind == "convert"
        s.pending = None
        rows = [list(r) for r in pend.data["results"]]
        row = rows[int(pend.data["convert"])]
        if row[2] != kind:
            run.say("converts", plane=self.name(s.plane(row[0])), result=kind)
        row[2] = kind
        self.apply_results(run, rows)
        _, actor, target = str(pend.data["then"]).split()
        self._collisions(run, s.plane(target))
        self.end_activation(run, s.plane(actor))

    def _new_relation(
        self, run: Run, a: Plane, t: Plane, before: int, diff: int, *, climb_card: bool
    ) -> int:
        """Move the Position Level by the difference of the totals (§8.27 d, §9.33-9.35),
        with the climbing exceptions of §11.48 and §11.57."""
        s = run.state
        if before == 0 and t.climb and mat.unengaged(s, t) and mat.unengaged(s, a):
            # §11.48: only the activating aircraft can gain position; it follows the
            # target's climb.
            if diff > 0:
                mat.set_relation(s, a, t, diff)
                a.climb = t.climb
            return mat.relation(s, a, t)
        new = before + diff
        if before > 0 and t.climb and new < 0:
            new = 0  # §11.57: a climbing aircraft never ends up tailing its tailer
        if before == 0 and a.climb and new < 0:
            new = 0  # §11.48 play note: the same for an aircraft in a climb
        mat.set_relation(s, a, t, new)
        return mat.relation(s, a, t)

    def _fight(
        self,
        run: Run,
        a: Plane,
        t: Plane,
        before: int,
        both_free: bool,
        hold_a: bool,
        hold_t: bool,
        pend: Pending,
    ) -> None:
        """Who may fire after a Targeted Activation (§10.12-10.13, §10.5), then fire;
        then a collision check if two aircraft tail one at the same level (§9.46)."""
        s = run.state
        shots: list[Fire] = []
        if not a.flying or not t.flying:
            return
        after = mat.relation(s, a, t)
        if after > 0 and not hold_a:
            shot = self.tailing_fire(a, t)
            if shot:
                shots.append(shot)
        if after < 0 and not hold_t and (both_free or before > 0):
            shot = self.tailing_fire(t, a)
            if shot:
                shots.append(shot)
        gunners: list[Plane] = []
        if after > 0 and not hold_t and not pend.data.get("no_gunner"):
            shot = self.gunner_fire(t, a)
            if shot:
                shots.append(shot)
                gunners.append(t)
        if after < 0 and before >= 0 and not hold_a and not pend.data.get("gunner_cleared"):
            shot = self.gunner_fire(a, t)
            if shot:
                shots.append(shot)
                gunners.append(a)
        for g in gunners:
            other = a if g is t else t
            if g.kind == "two_seater":
                shots.extend(self.formation_fire(s, g, other))
        if shots and self.resolve(run, shots, then=f"fight {a.ref} {t.ref}"):
            return  # Fonck chooses his hit first (:meth:`converted`)
        self._collisions(run, t)

    def _collisions(self, run: Run, t: Plane) -> None:
        """Two aircraft tailing one at the same Position Level may collide (§9.46-9.48):
        a draw each, a Fire Value up to the level checks the 2-Guns column."""
        s = run.state
        if not t.flying:
            return
        pair = mat.tailers(s, t.ref)
        if len(pair) != 2 or pair[0].level != pair[1].level:
            return
        run.say("collision_risk", target=self.name(t))
        for q in pair:
            card = self.draw(run)
            if card.jammed or card.fire is None or card.fire > q.level:
                run.say("no_collision", plane=self.name(q), card=card.number)
                continue
            cls = self._defence(q)
            kind = card.damage_for(2, cls)
            run.say(
                "collision", kind="damage", plane=self.name(q), card=card.number, result=kind.value
            )
            if kind is not DamageKind.SUPERFICIAL:
                self.hit(run, q, kind, by=None, cause="collision")
                if q.flying:
                    mat.give_up(q)  # §9.48
        mat.settle(s)

    def _defence(self, p: Plane) -> DefenceClass:
        return defence(self.ac(p), p) or DefenceClass.FRAGILE

    # -- Head-on (§10.4) --------------------------------------------------------------
    def headon(self, run: Run, a: Plane, act: Action) -> None:
        """Both may fire at Fire Value 4, simultaneously; both stay Unengaged. The target
        may not Respond but decides whether to fire."""
        s = run.state
        t = s.plane(act.target or "")
        card = self.begin(run, a, act)
        run.say(
            "headon",
            kind="play",
            plane=self.name(a),
            card=self.card_name(card.number),
            target=self.name(t),
        )
        s.pending = Pending(
            "respond",
            t.side,
            action=str(act),
            actor=a.ref,
            target=t.ref,
            symbol="speed",
            data={"headon": True},
        )
        if not self.gun_count(t, self.forward_group(t)):
            self.resolve_headon(run, Action("pass"))  # it has no gun to fire back

    def resolve_headon(self, run: Run, resp: Action) -> None:
        s = run.state
        pend = s.pending
        assert pend is not None and pend.actor and pend.target
        s.pending = None
        a, t = s.plane(pend.actor), s.plane(pend.target)
        act = Action.from_text(pend.action)
        card = self.cards[act.card or 0]
        self.engine_wings(run, a, card, "speed")
        shots: list[Fire] = []
        if a.flying and not act.has("hold"):
            shot = self.headon_fire(a, t)
            if shot:
                shots.append(shot)
        if t.flying and not resp.has("hold"):
            shot = self.headon_fire(t, a)
            if shot:
                shots.append(shot)
        self.resolve(run, shots)
        self.end_activation(run, a)

    # -- Falling Leaf (§8.3) ----------------------------------------------------------
    def leaf(self, run: Run, a: Plane, act: Action, *, escape: bool = False) -> None:
        """Drop a level, Unengaged from every aircraft tailing it; keep dropping while
        the drawn cards show a Dive symbol; below Treetop it crashes (§8.32-8.35)."""
        s = run.state
        card = self.begin(run, a, act)
        run.say("leaf", kind="play", plane=self.name(a), card=self.card_name(card.number))
        for q in mat.tailers(s, a.ref):
            mat.give_up(q)
        mat.give_up(a)
        a.climb = 0
        mat.settle(s)
        if self._drop(run, a) and not a.has("no_falling_leaf_check"):
            while a.flying:
                drawn = self.draw(run)
                if Symbol.DIVE not in drawn.symbols:
                    run.say("leaf_stops", plane=self.name(a), card=drawn.number)
                    break
                run.say("leaf_falls", plane=self.name(a), card=drawn.number)
                if not self._drop(run, a):
                    break
        if escape and a.flying:
            self.escape_now(run, a)
        self.end_activation(run, a)

    def _drop(self, run: Run, a: Plane) -> bool:
        """One level lower; below Treetop the aircraft crashes (§8.34). Weak Wings
        check at Fire Value 2 (§8.35). False once it is down."""
        if a.altitude == TREETOP:
            run.say("leaf_crash", plane=self.name(a))
            self.shoot_down(run, a, by=None, cause="crash", reason="crash")
            return False
        a.altitude -= 1
        run.say("now_at", plane=self.name(a), altitude=a.altitude)
        if self.weak_wings(a):
            self.check(run, a, 2, DamageKind.WING, "wings")
        return a.flying

    # -- Escape (§12) -----------------------------------------------------------------
    def escape(self, run: Run, a: Plane, act: Action) -> None:
        """Untargeted when Unengaged or only Tailing: it succeeds (§12.12). Tailed: a
        Targeted Activation at the tailing aircraft (§12.13). A Falling Leaf escapes
        when its requirements are met (§8.36)."""
        s = run.state
        card = self.cards[act.card or 0]
        if card.special == "falling_leaf":
            self.leaf(run, a, act, escape=True)
            return
        if not mat.tailers(s, a.ref):
            self.begin(run, a, act)
            self.untargeted(run, a)
            symbol = self.symbol_of(card, act.symbol, act.as_card)
            self.engine_wings(run, a, card, symbol)
            if a.flying:
                self.escape_now(run, a)
            self.end_activation(run, a)
            return
        self.tail(run, a, act)
        pend = s.pending
        assert pend is not None
        # §12.17: +2 with Clouds at the aircraft's altitude.
        if s.clouds is not None and s.clouds == a.altitude:
            pend.total += 2
            run.say("clouds_help", plane=self.name(a))

    def _escape_result(self, run: Run, a: Plane, t: Plane, act: Action, symbol: str) -> bool:
        """After an Escape's Targeted Activation (§12.13): it succeeds Unengaged or
        better. Else, with a Climb or Dive card played to change altitude too, the
        aircraft changes altitude and its pursuer may follow (§12.14): False while that
        is being decided."""
        s = run.state
        if not a.flying:
            return True
        if mat.relation(s, a, t) >= 0:
            self.escape_now(run, a)
            return True
        if act.has("change"):
            if symbol == "dive":
                self._dive_move(run, a)
            else:
                self._climb_move(run, a, act, self.cards[act.card or 0])
            if a.flying:
                self.start_follow(run, a, -1 if symbol == "dive" else +1, escape=True)
                return False
            return True
        run.say("escape_fails", plane=self.name(a))
        return True

    # -- altitude (§11) ---------------------------------------------------------------
    def dive(self, run: Run, a: Plane, act: Action) -> None:
        """Dive a level (§11.3); the aircraft tailing it may follow (§11.51)."""
        self.begin(run, a, act)
        self.untargeted(run, a)
        self._dive_move(run, a)
        self.start_follow(run, a, -1)

    def _dive_move(self, run: Run, a: Plane) -> None:
        """One level down; Weak Wings check at 2 (§11.33)."""
        a.climb = 0
        a.altitude -= 1
        run.say("dives", kind="altitude", plane=self.name(a), altitude=a.altitude)
        if self.weak_wings(a):
            self.check(run, a, 2, DamageKind.WING, "wings")

    def climb(self, run: Run, a: Plane, act: Action) -> None:
        """Climb (§11.4); the aircraft tailing it may follow (§11.51)."""
        card = self.begin(run, a, act)
        self.untargeted(run, a)
        self._climb_move(run, a, act, card)
        self.start_follow(run, a, +1)

    def _climb_move(self, run: Run, a: Plane, act: Action, card: Card) -> None:
        """The card's value (8.14 applies) plus the Sustained Rate of Climb, +2 at
        Treetop, plus progress so far; 6 completes the climb, the excess is lost
        (§11.43-11.49)."""
        ac = self.ac(a)
        value = self.value(a, act, capped=True, penalty=False)
        total = value + sustained_climb(max(rating(ac, a, "climb"), 0)) + a.climb
        if a.altitude == TREETOP:
            total += 2
        run.say(
            "climbs",
            kind="altitude",
            plane=self.name(a),
            card=self.card_name(card.number),
            total=total,
        )
        if total >= CLIMB_DONE:
            a.altitude += 1
            a.climb = 0
            run.say("now_at", plane=self.name(a), altitude=a.altitude)
        else:
            a.climb = total

    def start_follow(self, run: Run, a: Plane, direction: int, *, escape: bool = False) -> None:
        """Ask, one aircraft at a time from the one tailing ``a`` outward, whether it
        follows (§11.51). ``escape``: the altitude change of an Escape (§12.14)."""
        s = run.state
        chain = [q.ref for q in mat.tailers(s, a.ref)]
        if not chain:
            self.after_altitude(run, a, [a.ref], direction)
            self.altitude_done(run, a, escape=escape)
            return
        s.pending = Pending(
            "follow",
            s.plane(chain[0]).side,
            actor=a.ref,
            chain=chain,
            moved=[a.ref],
            direction=direction,
            data={"escape": escape},
        )

    def altitude_done(self, run: Run, a: Plane, *, escape: bool) -> None:
        """An altitude change is over. For an Escape's (§12.14): it succeeds if no enemy
        tails the aircraft any more (none followed, or the ratings left it Unengaged)."""
        if escape and a.flying:
            if mat.tailers(run.state, a.ref):
                run.say("escape_fails", plane=self.name(a))
            else:
                self.escape_now(run, a)
        self.end_activation(run, a)

    def follow(self, run: Run, yes: bool) -> None:
        """The next aircraft in the chain follows the altitude change, or not."""
        s = run.state
        pend = s.pending
        assert pend is not None and pend.chain
        q = s.plane(pend.chain.pop(0))
        if pend.direction == 0:
            self._balloon_follow(run, q, yes)
            return
        leader = s.plane(q.tailing) if q.tailing else None
        if yes:
            pend.moved.append(q.ref)
            if pend.direction < 0:
                q.altitude -= 1
                run.say("follows", plane=self.name(q), altitude=q.altitude)
                if self.weak_wings(q):
                    self.check(run, q, 2, DamageKind.WING, "wings")  # §11.52
            else:
                mover = s.plane(pend.actor or "")
                q.climb = mover.climb
                q.altitude = mover.altitude
                run.say("follows_climb", plane=self.name(q))
            if q.flying:
                pend.chain.extend(r.ref for r in mat.tailers(s, q.ref) if r.ref not in pend.chain)
        else:
            run.say("stays", plane=self.name(q), target=self.name(leader) if leader else "-")
            mat.give_up(q)
        mat.settle(s)
        pend.chain = [
            r for r in pend.chain if s.plane(r).flying and s.plane(r).tailing in pend.moved
        ]
        if pend.chain:
            pend.side = s.plane(pend.chain[0]).side
            return
        s.pending = None
        actor = s.plane(pend.actor or "")
        self.after_altitude(run, actor, pend.moved, pend.direction)
        self.altitude_done(run, actor, escape=bool(pend.data.get("escape")))

    def after_altitude(self, run: Run, a: Plane, moved: list[str], direction: int) -> None:
        """Compare Dive (after a dive) or Climb Ratings (after each climb activation) of
        each Tailing/Tailed pair that moved (§11.53-11.55)."""
        s = run.state
        name = "dive" if direction < 0 else "climb"
        for ref in moved:
            q = s.plane(ref)
            if not q.flying or q.tailing not in moved:
                continue
            t = s.plane(q.tailing or "")
            d = rating(self.ac(q), q, name) - rating(self.ac(t), t, name)
            step = 0 if d == 0 else (1 if abs(d) <= 2 else 2)
            if step == 0:
                continue
            new = q.level + step if d > 0 else q.level - step
            new = min(new, mat.MAX_LEVEL)
            if new <= 0:
                mat.give_up(q)  # §11.55: never better than Unengaged for the Tailed
                run.say("ratings_free", plane=self.name(q), target=self.name(t), rating=name)
            else:
                q.level = new
                run.say(
                    "ratings_shift", plane=self.name(q), target=self.name(t), rating=name, level=new
                )
        mat.settle(s)

    # -- other Untargeted Activations (§8.5) ------------------------------------------
    def clear(self, run: Run, a: Plane, act: Action) -> None:
        """Try to clear every jammed gun (§10.73-10.75)."""
        self.begin(run, a, act)
        self.untargeted(run, a)
        for group, state in sorted(a.guns.items()):
            if state == "jammed":
                self.clear_jam(run, a, group)
        self.end_activation(run, a)

    def clear_jam(self, run: Run, a: Plane, group: str) -> bool:
        """One attempt to clear ``group`` (§10.73): a Fire Value of 1 (1-2 with Covered
        Guns or incendiary ammunition, §13.11, §15.63) stays jammed; a Guns Jammed
        breaks them; anything else clears them (True)."""
        card = self.draw(run)
        stuck = 1
        if group == "fixed" and (
            Characteristic.COVERED_GUNS in self.ac(a).characteristics or a.incendiary
        ):
            stuck = 2
        if card.jammed:
            a.guns[group] = "broken"
            run.say("guns_broken", kind="jam", plane=self.name(a), group=group, card=card.number)
            return False
        if (card.fire or 0) <= stuck:
            run.say("guns_stuck", plane=self.name(a), group=group, card=card.number)
            return False
        a.guns[group] = "ok"
        run.say("guns_cleared", plane=self.name(a), group=group, card=card.number)
        return True

    def reload(self, run: Run, a: Plane, act: Action) -> None:
        """Reload the Lewis gun: automatic (§15.44)."""
        self.begin(run, a, act)
        self.untargeted(run, a)
        a.lewis = "full"
        run.say("reloads", plane=self.name(a))
        self.end_activation(run, a)

    def idle(self, run: Run, a: Plane, act: Action) -> None:
        """An Untargeted Activation doing nothing (§8.51), which is also how a mission
        aircraft spots (§16.42) or photographs (§16.43) and how the attacker scores a
        Contact Patrol (§16.44)."""
        self.begin(run, a, act)
        self.untargeted(run, a)
        run.say("idles", plane=self.name(a))
        self.score_idle(run, a)
        self.end_activation(run, a)

    def takeoff(self, run: Run, a: Plane, act: Action) -> None:
        """Take off from the airfield to Treetop (§16.47)."""
        self.begin(run, a, act)
        a.on_ground = False
        a.altitude = TREETOP
        run.say("takes_off", plane=self.name(a))
        self.end_activation(run, a)

    # -- ground targets and balloons (§15) --------------------------------------------
    def strafe(self, run: Run, a: Plane, act: Action) -> None:
        """Strafe at Fire Value 4 (§15.13), then take ground fire at 4 on the 1-Gun
        column (§15.14)."""
        s = run.state
        self.begin(run, a, act)
        guns = self.gun_count(a, self.forward_group(a))
        if act.target == "ground":
            cls = self.ground_defence(s)
            card, lucky = self.attack_card(run, a)
            self._use_lewis(
                a, Fire(a.ref, "ground", 4, guns, "fixed", "strafe"), jammed=card.jammed
            )
            if card.jammed:
                self._jam(a, self.forward_group(a))
                run.say("fire_jammed", kind="jam", plane=self.name(a), card=card.number)
            elif card.fire is not None and (card.fire <= 4 or lucky):
                kind = card.damage_for(guns, cls)
                run.say(
                    "strafe_hit",
                    kind="fire",
                    plane=self.name(a),
                    card=card.number,
                    result=kind.value,
                )
                if kind is not DamageKind.SUPERFICIAL:
                    self.score_strafe(run, a)
            else:
                run.say("strafe_miss", plane=self.name(a), card=card.number)
        else:
            t = s.plane(act.target or "")
            self.resolve(run, [Fire(a.ref, t.ref, 4, guns, self.forward_group(a), "strafe")])
        if a.flying:
            ground = self.attack(run, a, 4, 1, "ground_fire")
            if ground is not None:
                self.hit(run, a, ground, by=None, cause="ground_fire")
        self.end_activation(run, a)

    def bomb(self, run: Run, a: Plane, act: Action) -> None:
        """Drop bombs from Treetop: no draw (§16.45)."""
        self.begin(run, a, act)
        self.score_bombs(run, a)
        self.end_activation(run, a)

    def balloon(self, run: Run, a: Plane, act: Action) -> None:
        """Attack a balloon with a chosen Fire Value (§15.27), or with Le Prieur rockets
        at half of it (§15.54); then its anti-aircraft guns fire at half, rounded up
        (§15.29). Luke adds 2 after that (§18.0)."""
        s = run.state
        b = s.plane(act.target or "")
        self.begin(run, a, act)
        b.balloon_attacked = True
        chosen = act.fv
        run.say("balloon_attack", kind="play", plane=self.name(a), target=self.name(b), fv=chosen)
        if act.has("rockets"):
            a.rockets = False
            fv = half_up(chosen)
            card, lucky = self.attack_card(run, a, guns=False)
            if not card.jammed and card.fire is not None and (card.fire <= fv or lucky):
                kind = card.damage_for(1, DefenceClass.FRAGILE)
                run.say("rockets_hit", plane=self.name(a), card=card.number, result=kind.value)
                if kind is not DamageKind.SUPERFICIAL:
                    self.shoot_down(run, b, by=a, reason="rockets")
            else:
                run.say("rockets_miss", plane=self.name(a), card=card.number)
        else:
            fv = chosen + (2 if a.has("balloon_fire_plus_2") else 0)
            guns = self.gun_count(a, self.forward_group(a))
            if guns:  # every gun jammed or broken: no fire (combat has no 0-gun column)
                self.resolve(
                    run,
                    [Fire(a.ref, b.ref, clamp_fv(fv), guns, self.forward_group(a), "balloon")],
                )
        if a.flying:
            aa = half_up(chosen)
            aa_hit = self.attack(run, a, aa, 1 if a.altitude >= 1 else 2, "balloon_guns")
            if aa_hit is not None:
                self.hit(run, a, aa_hit, by=None, cause="balloon_guns")
        self.end_activation(run, a)

    def lower(self, run: Run, b: Plane) -> None:
        """A balloon activates without a card: a Fire Value of 1-3 lowers it a level
        (§15.25); at Low -> Treetop, Unengaged aircraft at Low may follow (§15.26);
        below Treetop it is on the ground (§15.23)."""
        s = run.state
        b.activated = True
        s.passes = 0
        card = self.draw(run)
        if card.jammed or card.fire is None or card.fire > 3:
            run.say("balloon_stays", plane=self.name(b), card=card.number)
            self.end_activation(run, b)
            return
        if b.altitude == TREETOP:
            b.status = LANDED
            run.say("balloon_down", plane=self.name(b), card=card.number)
            self.end_activation(run, b)
            return
        b.altitude -= 1
        run.say("balloon_lowers", plane=self.name(b), card=card.number, altitude=b.altitude)
        if b.altitude == TREETOP:
            others = [
                p
                for p in s.planes
                if p.flying and not p.balloon and p.altitude == 1 and mat.unengaged(s, p)
            ]
            if others:
                # Alternate declarations, starting with the other player (§15.26).
                first = "allied" if b.side == "german" else "german"
                mine = [p.ref for p in others if p.side == first]
                theirs = [p.ref for p in others if p.side != first]
                chain: list[str] = []
                while mine or theirs:
                    if mine:
                        chain.append(mine.pop(0))
                    if theirs:
                        chain.append(theirs.pop(0))
                s.pending = Pending(
                    "follow", s.plane(chain[0]).side, actor=b.ref, chain=chain, direction=0
                )
                return
        self.end_activation(run, b)

    def _balloon_follow(self, run: Run, q: Plane, yes: bool) -> None:
        s = run.state
        pend = s.pending
        assert pend is not None
        if yes:
            q.altitude = TREETOP
            q.climb = 0
            run.say("follows", plane=self.name(q), altitude=q.altitude)
        else:
            run.say("stays_put", plane=self.name(q))
        if pend.chain:
            pend.side = s.plane(pend.chain[0]).side
            return
        s.pending = None
        self.end_activation(run, s.plane(pend.actor or ""))

    # -- provided by the layers above -------------------------------------------------
    def target_has_choice(self, state: GameState) -> bool:
        """The target of the pending Targeted Activation has something to decide (a
        Response card it may play, an Escape to allow, fire it may hold)."""
        raise NotImplementedError  # pragma: no cover - defined by Legality

    def end_activation(self, run: Run, a: Plane) -> None:
        """After an activation: Heavy Fog, the phase's end, the next player."""
        raise NotImplementedError  # pragma: no cover - defined by Flow
