"""What each action does: the steps of a player-turn, the attack / response chain
(8.0), position and altitude changes, damage and shoot-downs, evasion (12.0).
"""

from __future__ import annotations

from engine.core.events import Event
from engine.dif import tables
from engine.dif.actions import COUNTER, Action
from engine.dif.base import BURST_BUY, POSITION_DELTA, Pending
from engine.dif.components import (
    BURST_KINDS,
    Altitude,
    CardKind,
    Position,
    Ruleset,
)
from engine.dif.flow import Flow
from engine.dif.state import Element, Exchange, FollowOffer, GameState, Plane

__all__ = ["Resolution"]


class Resolution(Flow):
    """The effect of every kind of action, applied to a cloned state."""

    def _do_altitude(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        e.pick = int(Altitude.from_code(a.arg or ""))
        ev.append(Event("pick", f"{self._el_label(s, e)} has chosen a starting altitude."))
        self._maybe_reveal(s, ev)

    def _do_order(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        self._append_order(s, a.target or "", ev, chosen=True)
        self._start_turn(s, ev)

    def _do_redraw(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        """Combat Vision: once, after the first hand, swap any cards (RotL "Pilots")."""
        e.cv = False
        gone = self._take_from_hand(e, a.cards)
        self._discard(s, gone)
        if gone:
            ev.append(
                Event(
                    "redraw",
                    f"{self._el_label(s, e)} uses Combat Vision: {len(gone)} card(s) "
                    "discarded and redrawn.",
                )
            )
            self._draw(s, e, len(gone), e.hand, ev)
        else:
            ev.append(Event("redraw", f"{self._el_label(s, e)} keeps its first hand."))
        if not any(o.cv for o in s.elements.values()):
            self._begin_play(s, ev)

    def _do_wingman(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        if a.verb == "skip":
            ev.append(Event("skip", f"{self._el_label(s, e)}: no wingman attack."))
            s.step = "altitude"
            return
        ref = a.target or ""
        assert e.wingman is not None
        s.t.wm_target = ref
        ev.append(
            Event(
                "wm",
                f"{self._plane_label(s, e.wingman.ref)} attacks {self._plane_label(s, ref)} (3.1).",
                data={"by": e.wingman.ref, "target": ref},
            )
        )
        off = (
            self._wingman_ratings(e.wingman).offensive
            + tables.wingman_modifiers(Altitude(e.altitude or 0), self._ac(e).turbocharged)[0]
        )
        self._draw(s, e, off, e.minihand, ev, "wingman's mini-hand")
        if ref[-1] == "W":  # 10.51: the defending wingman draws its mini-hand too
            self._draw_defence(s, s.elements[ref[:-1]], ev)
        s.step = "wingman_attack"
        self._maybe_end_wingman_attack(s, e, ev)

    def _draw_defence(self, s: GameState, o: Element, ev: list[Event]) -> None:
        assert o.wingman is not None
        d = (
            self._wingman_ratings(o.wingman).defensive
            + tables.wingman_modifiers(Altitude(o.altitude or 0), self._ac(o).turbocharged)[1]
        )
        self._draw(s, o, d, o.defence, ev, "wingman's defensive mini-hand")

    def _maybe_end_wingman_attack(self, s: GameState, e: Element, ev: list[Event]) -> None:
        if s.step != "wingman_attack" or s.exchange is not None:
            return
        p = Pending(e.seat, "wingman_attack")
        if any(a.verb == "play" and self._refusal(s, p, a) is None for a in self._candidates(s, p)):
            return
        self._end_wingman_attack(s, e, ev)

    def _end_wingman_attack(self, s: GameState, e: Element, ev: list[Event]) -> None:
        if e.minihand:
            ev.append(
                Event(
                    "discard",
                    f"{self._el_label(s, e)} discards the rest of the wingman's mini-hand: "
                    f"{', '.join(self.label[c] for c in e.minihand)}.",
                )
            )
        self._discard(s, e.minihand)
        e.minihand = []
        self._discard_defences(s, e, ev)
        s.step = "altitude"

    def _do_wingman_attack(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        if a.verb == "done":
            self._end_wingman_attack(s, e, ev)
            return
        assert e.wingman is not None
        self._open_exchange(s, e, e.wingman.ref, a, "minihand", ev)

    def _do_altitude_step(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        s.step = "play"
        if a.verb == "stay":
            ev.append(
                Event("stay", f"{self._el_label(s, e)} stays at {Altitude(e.altitude or 0).label}.")
            )
            return
        self._change_altitude(s, e, 1 if a.verb == "climb" else -1, a.card, False, ev)

    def _change_altitude(
        self,
        s: GameState,
        e: Element,
        direction: int,
        discard: str | int | None,
        vertical: bool,
        ev: list[Event],
    ) -> None:
        """Steps a-d of 7.21 (and 7.22 for a Vertical Roll)."""
        e.altitude = (e.altitude or 0) + direction
        if e.seat == s.active:
            s.t.moved = True
        verb = "climbs" if direction > 0 else "dives"
        how = " with a Vertical Roll" if vertical else ""
        if direction > 0:
            c = discard if isinstance(discard, int) else self._find(e.hand, str(discard))
            if discard == COUNTER:
                c = self.counter
            assert c is not None
            if c == self.counter:  # RotL L203: a Full Throttle counter instead of a card
                e.counters -= 1
            else:
                e.hand.remove(c)
                self._discard(s, [c])
            ev.append(
                Event(
                    "altitude",
                    f"{self._el_label(s, e)} {verb}{how} to {Altitude(e.altitude).label}, "
                    f"discarding {self.label[c]}.",
                )
            )
        else:
            ev.append(
                Event(
                    "altitude",
                    f"{self._el_label(s, e)} {verb}{how} to {Altitude(e.altitude).label}.",
                )
            )
            self._draw(s, e, 1, e.hand, ev)
        follower = None
        for o in self._enemy_seats(s, e):
            p = self.pos(s, e.seat, o)
            if p > 0:  # 7.21c: lose Advantaged / Tailing
                self._set_pos(s, e.seat, o, 0)
                ev.append(
                    Event(
                        "position",
                        f"{self._el_label(s, e)} loses its position on "
                        f"{self._el_label(s, s.elements[o])} (7.21c).",
                    )
                )
            elif p < 0:
                follower = o
        if follower is not None:
            s.follow = FollowOffer(e.seat, follower, direction, vertical)

    def _do_follow(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        f = s.follow
        assert f is not None
        s.follow = None
        mover = s.elements[f.mover]
        if a.verb == "nofollow":
            self._set_pos(s, e.seat, mover.seat, 0)
            ev.append(
                Event(
                    "follow", f"{self._el_label(s, e)} does not follow and becomes Neutral (7.24)."
                )
            )
        else:
            paid = self._pay(e, a.cards)
            self._discard(s, paid)
            e.altitude = mover.altitude
            names = [self.label[c] for c in paid] + [
                self.label[self.counter] for c in a.cards if c == COUNTER
            ]
            cost = f", discarding {', '.join(names)}" if names else ""
            ev.append(
                Event(
                    "follow",
                    f"{self._el_label(s, e)} follows to "
                    f"{Altitude(e.altitude or 0).label}{cost} (7.21d).",
                )
            )
            if f.direction < 0:
                self._draw(s, e, 1, e.hand, ev)
        self._after_exchange(s, ev)

    def _do_play(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        if a.verb == "done":
            s.step = "discard"
            return
        if a.verb == "giveup":
            for o in self._enemy_seats(s, e):
                if self.pos(s, e.seat, o) > 0:
                    self._set_pos(s, e.seat, o, 0)
                    ev.append(
                        Event(
                            "position",
                            f"{self._el_label(s, e)} gives up its position on "
                            f"{self._el_label(s, s.elements[o])} (6.36).",
                        )
                    )
            return
        if a.verb == "evade":
            self._evade(s, e, ev)
            return
        assert e.leader is not None
        s.t.played = True
        self._open_exchange(s, e, e.leader.ref, a, "hand", ev)

    def _open_exchange(
        self, s: GameState, e: Element, attacker: str, a: Action, source: str, ev: list[Event]
    ) -> None:
        pile = e.minihand if source == "minihand" else e.hand
        if a.card == COUNTER:
            c: int | None = self.counter
            e.counters -= 1
        else:
            c = self._find(pile, a.card or "")
            assert c is not None
            pile.remove(c)
            s.in_play.append(c)
        assert c is not None
        if a.arg is not None:  # Vertical Roll
            direction = 1 if a.arg == "up" else -1
            discard = None
            if a.cards:
                discard = self.counter if a.cards[0] == COUNTER else self._find(e.hand, a.cards[0])
            stopper = next((o for o in self._enemy_seats(s, e) if self.pos(s, e.seat, o) < 0), None)
            ev.append(
                Event(
                    "play",
                    f"{self._el_label(s, e)} plays Vertical Roll to "
                    + ("climb." if direction > 0 else "dive."),
                    data={"card": "VER", "by": attacker},
                )
            )
            x = Exchange(
                attacker,
                f"{stopper}L" if stopper else attacker,
                c,
                "VER",
                source,
                direction=direction,
                climb_discard=discard,
            )
            if stopper is None:
                # 7.23, RotL L205: only an Advantaged or Tailing enemy leader may stop a
                # Vertical Roll; a Neutral or Advantaged mover's roll takes effect at once.
                self._resolve(s, x, ev)
            else:
                s.exchange = x
            return
        kind = a.as_kind or self.kind[c].value
        if a.as_kind == "SCI":
            s.t.agile_used = True
        elif a.as_kind == "FUT":
            s.t.fut_used = True
        ref = a.target or ""
        if source == "hand" and kind in ("IMS", "OOS") and self._gunner_target(s, e, ref):
            source = "gunner"
        first_at_wingman = ref[-1] == "W" and source != "minihand" and s.t.target != ref
        if source != "minihand":
            s.t.target = ref
        if source == "gunner":
            s.t.gun_used += self.cards[c].type.bursts
        elif kind in ("IMS", "OOS") and source == "hand":
            s.t.bursts_used += self.cards[c].type.bursts
        as_text = {"SCI": " as Scissors", "FUT": " as Full Throttle"}.get(a.as_kind or "", "")
        who = self._plane_label(s, attacker) + ("'s gunner" if source == "gunner" else "")
        ev.append(
            Event(
                "play",
                f"{who} plays {self.label[c]}{as_text} on {self._plane_label(s, ref)}.",
                data={"card": self.code[c], "target": ref, "by": attacker},
            )
        )
        if first_at_wingman:  # 10.63: one defensive mini-hand for all the leader's attacks
            self._draw_defence(s, s.elements[ref[:-1]], ev)
        s.exchange = Exchange(attacker, ref, c, kind, source)

    def _do_respond(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        x = s.exchange
        assert x is not None
        if a.verb == "pass":
            who = "does not respond" if x.defender_to_move else "does not answer the response"
            ev.append(Event("pass", f"{self._el_label(s, e)} {who}."))
            s.exchange = None
            self._resolve(s, x, ev)
            return
        src = self._response_source(s, x)
        if a.card == COUNTER:
            c: int | None = self.counter
            e.counters -= 1
        else:
            c = self._find(self._response_cards(s, x), a.card or "")
            assert c is not None
            src.remove(c)
            s.in_play.append(c)
        assert c is not None
        kind = a.as_kind or self.kind[c].value
        if a.as_kind == "SCI":
            s.t.agile_used = True
        elif a.as_kind == "FUT":
            s.t.fut_used = True
        elif a.as_kind == "ACE":  # the pilot's ace ability counter is spent
            assert e.leader is not None
            e.leader.pilot.remove("A")
        x.chain.append([c, kind])
        responder = x.target if len(x.chain) % 2 == 1 else x.attacker
        as_text = {
            "SCI": " as Scissors",
            "FUT": " as Full Throttle",
            "ACE": " as an ace (pilot skill A)",
        }.get(a.as_kind or "", "")
        ev.append(
            Event(
                "respond",
                f"{self._plane_label(s, responder)} responds with {self.label[c]}{as_text}.",
                data={"card": self.code[c]},
            )
        )
        if x.source == "gunner":
            # RotL "Gunners", 9.26: a gunner never responds to a response.
            ev.append(Event("pass", "A gunner never responds to a response (9.26)."))
            s.exchange = None
            self._resolve(s, x, ev)

    def _resolve(self, s: GameState, x: Exchange, ev: list[Event]) -> None:
        """8.44: the last card played decides; the attack takes effect if it was the attacker's."""
        success = len(x.chain) % 2 == 0
        if x.kind == "VER":
            attacker = s.elements[x.attacker[:-1]]
            if success:
                self._change_altitude(s, attacker, x.direction, x.climb_discard, True, ev)
            else:
                ev.append(Event("negated", "The Vertical Roll is stopped (7.23)."))
        elif not success:
            ev.append(Event("negated", f"{self.label[x.card]} is negated."))
        else:
            self._effect(s, x, ev)
        if Ruleset(s.ruleset) is Ruleset.ROTL:  # RotL L238: discarded after each exchange
            self._discard(s, s.in_play)
            s.in_play = []
        if s.follow is None:
            self._after_exchange(s, ev)

    def _effect(self, s: GameState, x: Exchange, ev: list[Event]) -> None:
        kind = CardKind(x.kind)
        target = self._plane(s, x.target)
        assert target is not None
        attacker_seat = x.attacker[:-1]
        if kind in BURST_KINDS:
            card = self.cards[x.card].type
            if card.fuel_tank:
                ev.append(
                    Event(
                        "damage", f"Fuel tank hit! {self._plane_label(s, x.target)} is destroyed."
                    )
                )
                self._destroy(s, target, ev)
                return
            hits = card.damage
            # RotL L127, L145: heavy cannons add "+#" to each successful burst card.
            if x.source == "hand":
                hits += self._leader_ratings(s.elements[attacker_seat]).heavy_cannon
            elif x.source == "minihand":
                wm = self._plane(s, x.attacker)
                if wm is not None and wm.role == "wingman":
                    hits += self._wingman_ratings(wm).heavy_cannon
            self._hit(s, target, hits, ev)
            return
        if target.role == "wingman":  # 10.61: buying bursts against a wingman
            s.t.wm_bonus += BURST_BUY[kind]
            lr = self._leader_ratings(s.elements[attacker_seat])
            ev.append(
                Event(
                    "bursts",
                    f"{self._el_label(s, s.elements[attacker_seat])} now has "
                    f"{lr.bursts + s.t.wm_bonus - s.t.bursts_used} burst(s) left against "
                    "the wingman (10.61).",
                )
            )
            return
        them_seat = target.ref[:-1]
        me = self._el_label(s, s.elements[attacker_seat])
        them = self._el_label(s, s.elements[them_seat])
        friend = self._lone_engaged(s, attacker_seat, them_seat)
        if friend is not None:
            # 6.72: push the lone leader back toward Neutral on our friend; any step
            # beyond Neutral becomes our own position on it (6.72c).
            left = self.pos(s, them_seat, friend) - POSITION_DELTA[kind]
            self._set_pos(s, them_seat, friend, max(left, 0))
            ally = self._el_label(s, s.elements[friend])
            if left > 0:
                ev.append(
                    Event(
                        "position",
                        f"{them} is now {Position(left).label} on {ally} (6.72a).",
                        data={"leader": them_seat, "on": friend, "position": left},
                    )
                )
                return
            ev.append(
                Event(
                    "position",
                    f"{them} loses its position on {ally} (6.72b).",
                    data={"leader": them_seat, "on": friend, "position": 0},
                )
            )
            if left == 0:
                return
            p = -left
        else:
            p = self.pos(s, attacker_seat, them_seat) + POSITION_DELTA[kind]
        self._set_pos(s, attacker_seat, them_seat, p)
        ev.append(
            Event(
                "position",
                f"{me} is now {Position(p).label} on {them}.",
                data={"leader": attacker_seat, "on": target.ref[:-1], "position": p},
            )
        )

    def _hit(self, s: GameState, p: Plane, hits: int, ev: list[Event]) -> None:
        """Damage points, flipping and shooting down (5.21; G-R9: one hit may do both)."""
        if hits <= 0:
            return
        p.hits += hits
        undamaged, damaged = self._capacity(p)
        label = self._plane_label(s, p.ref)
        ev.append(
            Event(
                "damage",
                f"{label} takes {hits} damage point{'s' if hits != 1 else ''} ({p.hits} in all).",
                data={"ref": p.ref, "hits": hits},
            )
        )
        if not p.damaged and p.hits >= undamaged:
            p.damaged = True
            ev.append(
                Event("damaged", f"{label} is damaged: its card flips to the damaged side (5.21).")
            )
            e = s.elements[p.ref[:-1]]
            if p.role == "leader" and self._ac(p).methanol and e.counters:
                e.counters = 0  # RotL L328: the methanol counter is lost
                ev.append(Event("counters", f"{label} loses its methanol counter (RotL L328)."))
        if p.hits >= damaged:
            self._destroy(s, p, ev)

    def _destroy(self, s: GameState, p: Plane, ev: list[Event]) -> None:
        e = s.elements[p.ref[:-1]]
        label = self._plane_label(s, p.ref)
        p.status = "destroyed"
        ev.append(Event("destroyed", f"{label} is shot down!", data={"ref": p.ref}))
        if p.role == "wingman":
            self._discard(s, e.defence)
            e.defence = []
            return
        self._drop_positions(s, e.seat)
        self._discard(s, e.hand)
        e.hand = []
        e.counters = 0  # RotL L286a: a jet also discards its Full Throttle counters
        wm = e.wingman
        if wm is None or not wm.flying:
            ev.append(Event("eliminated", f"{self._el_label(s, e)} has no aircraft left (4.91)."))
            return
        # 11.2: the wingman becomes the leader, keeps its damage, draws capacity - 1.
        e.lost.append(p)
        p.ref = f"{e.seat}L-lost{len(e.lost)}"
        # 8.21: the attacks of this turn were against the aircraft shot down; the
        # promoted wingman is another aircraft, so nobody may go on attacking "L".
        if s.t.target == f"{e.seat}L":
            s.t.target = p.ref
        if s.t.wm_target == f"{e.seat}L":
            s.t.wm_target = p.ref
        self._discard(s, e.defence)
        e.defence = []
        e.leader = Plane(f"{e.seat}L", wm.aircraft, "leader", wm.hits, wm.damaged, "flying", True)
        e.wingman = None
        ev.append(
            Event("promoted", f"The wingman of {self._el_label(s, e)} becomes the leader (11.2).")
        )
        self._draw(s, e, self._leader_ratings(e).hand_size - 1, e.hand, ev)
        ac = self._ac(e)
        if ac.speed is not None:  # RotL L286e: Speed - 1 counters for the new leader
            e.counters = max(ac.speed - 1, 0)
        elif ac.methanol and not e.leader.damaged:  # RotL L329
            e.counters = 1
        if e.counters:
            ev.append(
                Event(
                    "counters",
                    f"{self._el_label(s, e)} now holds {e.counters} Full Throttle counter(s).",
                )
            )

    def _after_exchange(self, s: GameState, ev: list[Event]) -> None:
        if s.step == "wingman_attack":
            active = s.active
            assert active is not None
            self._maybe_end_wingman_attack(s, s.elements[active], ev)

    def _evade(self, s: GameState, e: Element, ev: list[Event]) -> None:
        """Voluntary evasion / disengagement (12.1; RotL L288-324)."""
        rs = Ruleset(s.ruleset)
        engaged = self.engaged_with(s, e.seat)
        p = self.pos(s, e.seat, engaged) if engaged else 0
        enemies_here = any(
            o.in_fight and o.altitude == e.altitude for o in s.elements.values() if o.side != e.side
        )
        ev.append(Event("evade", f"{self._el_label(s, e)} attempts to evade (12.1)."))
        for plane in [q for q in (e.leader, e.wingman) if q is not None and q.flying]:
            c = self._draw_one(s, ev)
            if c is None:
                continue
            t = self.cards[c].type
            base = tables.evasion_level(t.kind, t.bursts, t.fuel_tank)
            # 12.12 / RotL L307-318: "down" moves toward I (escapes), "up" toward A.
            level = base + tables.evasion_shift(
                rs, p, plane.damaged, enemies_here, jet=self._ac(plane).jet
            )
            outcome = tables.evasion_result(rs, level, plane.damaged)
            self._discard(s, [c])
            final = tables.EVASION_LEVELS[min(max(level, 0), 8)]
            ev.append(
                Event(
                    "evasion",
                    f"{self._plane_label(s, plane.ref)} draws {self.label[c]}: level "
                    f"{tables.EVASION_LEVELS[base]}, modified to {final}: {outcome}.",
                )
            )
            if outcome == "destroyed":
                plane.status = "destroyed"
                ev.append(
                    Event(
                        "destroyed",
                        f"{self._plane_label(s, plane.ref)} is shot down while evading!",
                    )
                )
            else:
                if outcome == "damaged":
                    plane.damaged = True
                plane.status = "evaded"
        self._drop_positions(s, e.seat)
        self._discard(s, e.hand)
        e.hand = []
        self._end_turn(s, ev)

    def _do_discard(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        gone = self._take_from_hand(e, a.cards)
        self._discard(s, gone)
        if gone:
            ev.append(
                Event(
                    "discard",
                    f"{self._el_label(s, e)} discards {', '.join(self.label[c] for c in gone)}.",
                )
            )
        # 3.5 / 5.22 / 5.23: draw up to the altitude-modified draw rating, never past
        # the hand limit; a hand at or over the limit draws nothing.
        lr = self._leader_ratings(e)
        ac = self._ac(e)
        n = lr.draw
        if not ac.rocket:  # RotL L122: a rocket's Horsepower ignores altitude
            n += tables.draw_modifier(Altitude(e.altitude or 0), ac.turbocharged)
        room = lr.hand_size - len(e.hand)
        self._draw(s, e, max(min(n, room), 0), e.hand, ev)
        if ac.thrust and ac.speed is not None:
            # RotL L135-136: Thrust counters each Draw step, never more than Speed.
            gained = min(ac.speed, e.counters + ac.thrust) - e.counters
            if gained > 0:
                e.counters += gained
                ev.append(
                    Event(
                        "counters",
                        f"{self._el_label(s, e)} gains {gained} Full Throttle counter(s) "
                        f"({e.counters} held).",
                    )
                )
        self._end_turn(s, ev)
