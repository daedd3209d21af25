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
from engine.dif.texts import fixed, join
from strings import LazyTerm

__all__ = ["Resolution"]


class Resolution(Flow):
    """The effect of every kind of action, applied to a cloned state."""

    def _do_altitude(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        e.pick = int(Altitude.from_code(a.arg or ""))
        ev.append(Event("pick", LazyTerm("dif.event.pick", element=self._el_label(s, e))))
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
                    LazyTerm("dif.event.redraw", element=self._el_label(s, e), n=len(gone)),
                )
            )
            self._draw(s, e, len(gone), e.hand, ev, "redraw")
        else:
            ev.append(
                Event("redraw", LazyTerm("dif.event.keep_hand", element=self._el_label(s, e)))
            )
        if not any(o.cv for o in s.elements.values()):
            self._begin_play(s, ev)

    def _do_wingman(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        if a.verb == "skip":
            ev.append(Event("skip", LazyTerm("dif.event.skip", element=self._el_label(s, e))))
            s.step = "altitude"
            return
        ref = a.target or ""
        assert e.wingman is not None
        s.own_turn().wm_target = ref
        ev.append(
            Event(
                "wm",
                LazyTerm(
                    "dif.event.wingman_attacks",
                    wingman=self._plane_label(s, e.wingman.ref),
                    target=self._plane_label(s, ref),
                ),
                data={"by": e.wingman.ref, "target": ref},
            )
        )
        self._draw(s, e, self._offence(s, e), e.minihand, ev, "minihand")
        if ref[-1] == "W":  # 10.51: the defending wingman draws its mini-hand too
            self._draw_defence(s, s.elements[ref[:-1]], ev)
        s.step = "wingman_attack"
        self._maybe_end_wingman_attack(s, e, ev)

    def _offence(self, s: GameState, e: Element) -> int:
        """The attacking wingman's mini-hand: its Offensive Rating at this altitude (10.11)."""
        assert e.wingman is not None
        return (
            self._wingman_ratings(e.wingman).offensive
            + tables.wingman_modifiers(e.altitude or 0, self._ac(e).turbocharged)[0]
        )

    def _draw_defence(self, s: GameState, o: Element, ev: list[Event]) -> None:
        o = s.own_element(o.seat)
        assert o.wingman is not None
        d = (
            self._wingman_ratings(o.wingman).defensive
            + tables.wingman_modifiers(o.altitude or 0, self._ac(o).turbocharged)[1]
        )
        self._draw(s, o, d, o.defence, ev, "defence")

    def _maybe_end_wingman_attack(self, s: GameState, e: Element, ev: list[Event]) -> None:
        if s.step != "wingman_attack" or s.exchange is not None:
            return
        p = Pending(e.seat, "wingman_attack")
        legal = self._legal_of(s, p)
        if any(a.verb == "play" for a in legal):
            return
        self._end_wingman_attack(s, e, ev)

    def _end_wingman_attack(self, s: GameState, e: Element, ev: list[Event]) -> None:
        e = s.own_element(e.seat)  # the active element: an exchange may end the step
        if e.minihand:
            ev.append(
                Event(
                    "discard",
                    LazyTerm(
                        "dif.event.discard_minihand",
                        element=self._el_label(s, e),
                        cards=join([self.label[c] for c in e.minihand]),
                    ),
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
                Event(
                    "stay",
                    LazyTerm(
                        "dif.event.stay",
                        element=self._el_label(s, e),
                        altitude=Altitude(e.altitude or 0).label,
                    ),
                )
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
        e = s.own_element(e.seat)  # a Vertical Roll resolves on the defender's move
        e.altitude = (e.altitude or 0) + direction
        if e.seat == s.active:
            s.own_turn().moved = True
        el = self._el_label(s, e)
        altitude = Altitude(e.altitude).label
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
            key = "dif.event.climbs_vertical" if vertical else "dif.event.climbs"
            ev.append(
                Event("altitude", LazyTerm(key, element=el, altitude=altitude, card=self.label[c]))
            )
        else:
            key = "dif.event.dives_vertical" if vertical else "dif.event.dives"
            ev.append(Event("altitude", LazyTerm(key, element=el, altitude=altitude)))
            self._draw(s, e, 1, e.hand, ev, "dive")
        follower = None
        for o in self._enemy_seats(s, e):
            p = self.pos(s, e.seat, o)
            if p > 0:  # 7.21c: lose Advantaged / Tailing
                self._set_pos(s, e.seat, o, 0)
                ev.append(
                    Event(
                        "position",
                        LazyTerm(
                            "dif.event.position_lost_moving",
                            element=el,
                            other=self._el_label(s, s.elements[o]),
                        ),
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
                Event("follow", LazyTerm("dif.event.no_follow", element=self._el_label(s, e)))
            )
        else:
            paid = self._pay(e, a.cards)
            self._discard(s, paid)
            e.altitude = mover.altitude
            names = [self.label[c] for c in paid] + [
                self.label[self.counter] for c in a.cards if c == COUNTER
            ]
            el = self._el_label(s, e)
            altitude = Altitude(e.altitude or 0).label
            text = (
                LazyTerm(
                    "dif.event.follows_paying", element=el, altitude=altitude, cards=join(names)
                )
                if names
                else LazyTerm("dif.event.follows", element=el, altitude=altitude)
            )
            ev.append(Event("follow", text))
            if f.direction < 0:
                self._draw(s, e, 1, e.hand, ev, "dive")  # it dives too (7.21d)
        self._after_exchange(s, ev)

    def _do_play(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        if a.verb == "done":
            s.step = "discard"
            return
        if a.verb == "giveup":
            for o in self._given_up(s, e):
                self._set_pos(s, e.seat, o, 0)
                ev.append(
                    Event(
                        "position",
                        LazyTerm(
                            "dif.event.give_up",
                            element=self._el_label(s, e),
                            other=self._el_label(s, s.elements[o]),
                        ),
                    )
                )
            return
        if a.verb == "evade":
            self._evade(s, e, ev)
            return
        assert e.leader is not None
        t = s.own_turn()
        if not t.played:
            # RotL L212-214: what the first card finds at the leader's altitude, and
            # whether a Vertical Roll opens the altitude it rolls to.
            t.level = [o for o in self._enemy_seats(s, e) if self._same_altitude(s, e.seat, o)]
            t.roll_first = a.arg is not None and self.engaged_with(s, e.seat) is None
        t.played = True
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
            el = self._el_label(s, e)
            ev.append(
                Event(
                    "play",
                    LazyTerm("dif.event.vertical_climb", element=el)
                    if direction > 0
                    else LazyTerm("dif.event.vertical_dive", element=el),
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
            s.own_turn().agile_used = True
        elif a.as_kind == "FUT":
            s.own_turn().fut_used = True
        ref = a.target or ""
        if source == "hand" and kind in ("IMS", "OOS") and self._gunner_target(s, e, ref):
            source = "gunner"
        first_at_wingman = ref[-1] == "W" and source != "minihand" and s.t.target != ref
        if source != "minihand":
            s.own_turn().target = ref
        if source == "gunner":
            s.own_turn().gun_used += self.cards[c].type.bursts
        elif kind in ("IMS", "OOS") and source == "hand":
            s.own_turn().bursts_used += self.cards[c].type.bursts
        fields = {
            "plane": self._plane_label(s, attacker),
            "card": self.label[c],
            "target": self._plane_label(s, ref),
        }
        if source == "gunner":
            text = LazyTerm("dif.event.gunner_plays", **fields)
        elif a.as_kind == "SCI":
            text = LazyTerm("dif.event.plays_as_sci", **fields)
        elif a.as_kind == "FUT":
            text = LazyTerm("dif.event.plays_as_fut", **fields)
        else:
            text = LazyTerm("dif.event.plays", **fields)
        ev.append(Event("play", text, data={"card": self.code[c], "target": ref, "by": attacker}))
        if first_at_wingman:  # 10.63: one defensive mini-hand for all the leader's attacks
            self._draw_defence(s, s.elements[ref[:-1]], ev)
        s.exchange = Exchange(attacker, ref, c, kind, source)

    def _do_respond(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        x = s.exchange
        assert x is not None
        if a.verb == "pass":
            el = self._el_label(s, e)
            ev.append(
                Event(
                    "pass",
                    LazyTerm("dif.event.no_response", element=el)
                    if x.defender_to_move
                    else LazyTerm("dif.event.no_answer", element=el),
                )
            )
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
            s.own_turn().agile_used = True
        elif a.as_kind == "FUT":
            s.own_turn().fut_used = True
        elif a.as_kind == "ACE":  # the pilot's ace ability counter is spent
            assert e.leader is not None
            pilot = e.leader.pilot[:]  # a new list: clones share the old (engine.dif.state)
            pilot.remove("A")
            s.own(e.leader).pilot = pilot
        x.chain.append([c, kind])
        responder = self._defending_ref(s, x) if len(x.chain) % 2 == 1 else x.attacker
        plane, card = self._plane_label(s, responder), self.label[c]
        if a.as_kind == "SCI":
            text = LazyTerm("dif.event.responds_as_sci", plane=plane, card=card)
        elif a.as_kind == "FUT":
            text = LazyTerm("dif.event.responds_as_fut", plane=plane, card=card)
        elif a.as_kind == "ACE":
            text = LazyTerm("dif.event.responds_as_ace", plane=plane, card=card)
        else:
            text = LazyTerm("dif.event.responds", plane=plane, card=card)
        ev.append(Event("respond", text, data={"card": self.code[c]}))
        if x.source in ("gunner", "bomber"):
            # RotL "Gunners", 9.26: a gunner never responds to a response; nor does a
            # bomber to the answer to its counter-attack (Zero! §20.52).
            key = (
                "dif.event.gunner_no_answer"
                if x.source == "gunner"
                else "dif.event.bomber_no_answer"
            )
            ev.append(Event("pass", fixed(key)))
            s.exchange = None
            self._resolve(s, x, ev)

    def _defending_ref(self, s: GameState, x: Exchange) -> str:
        """The aircraft that answers for the attacked side: the target itself."""
        return x.target

    def _resolve(self, s: GameState, x: Exchange, ev: list[Event]) -> None:
        """8.44: the last card played decides; the attack takes effect if it was the attacker's."""
        success = len(x.chain) % 2 == 0
        if x.kind == "VER":
            attacker = s.elements[x.attacker[:-1]]
            if success:
                self._change_altitude(s, attacker, x.direction, x.climb_discard, True, ev)
            else:
                ev.append(Event("negated", fixed("dif.event.vertical_stopped")))
        elif not success:
            ev.append(Event("negated", LazyTerm("dif.event.negated", card=self.label[x.card])))
        else:
            self._effect(s, x, ev)
        if s.ruleset == Ruleset.ROTL:  # RotL L238: discarded after each exchange
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
                        "damage",
                        LazyTerm("dif.event.fuel_tank", plane=self._plane_label(s, x.target)),
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
            s.own_turn().wm_bonus += BURST_BUY[kind]
            lr = self._leader_ratings(s.elements[attacker_seat])
            ev.append(
                Event(
                    "bursts",
                    LazyTerm(
                        "dif.event.bursts_bought",
                        element=self._el_label(s, s.elements[attacker_seat]),
                        n=lr.bursts + s.t.wm_bonus - s.t.bursts_used,
                    ),
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
                        LazyTerm(
                            "dif.event.lone_position",
                            element=them,
                            position=Position(left).label,
                            other=ally,
                        ),
                        data={"leader": them_seat, "on": friend, "position": left},
                    )
                )
                return
            ev.append(
                Event(
                    "position",
                    LazyTerm("dif.event.lone_position_lost", element=them, other=ally),
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
                LazyTerm("dif.event.position", element=me, position=Position(p).label, other=them),
                data={"leader": attacker_seat, "on": target.ref[:-1], "position": p},
            )
        )

    def _hit(self, s: GameState, p: Plane, hits: int, ev: list[Event]) -> None:
        """Damage points, flipping and shooting down (5.21; G-R9: one hit may do both)."""
        if hits <= 0:
            return
        p = s.own(p)
        p.hits += hits
        undamaged, damaged = self._capacity(p)
        label = self._plane_label(s, p.ref)
        ev.append(
            Event(
                "damage",
                LazyTerm("dif.event.damage.one", plane=label, total=p.hits)
                if hits == 1
                else LazyTerm("dif.event.damage.other", plane=label, n=hits, total=p.hits),
                data={"ref": p.ref, "hits": hits},
            )
        )
        if not p.damaged and p.hits >= undamaged:
            p.damaged = True
            ev.append(Event("damaged", LazyTerm("dif.event.damaged", plane=label)))
            e = s.elements[p.ref[:-1]]
            if p.role == "leader" and self._ac(p).methanol and e.counters:
                e.counters = 0  # RotL L328: the methanol counter is lost
                ev.append(Event("counters", LazyTerm("dif.event.methanol_lost", plane=label)))
        if p.hits >= damaged:
            self._destroy(s, p, ev)

    def _destroy(self, s: GameState, p: Plane, ev: list[Event]) -> None:
        p = s.own(p)
        e = s.elements[p.ref[:-1]]
        label = self._plane_label(s, p.ref)
        p.status = "destroyed"
        ev.append(
            Event("destroyed", LazyTerm("dif.event.shot_down", plane=label), data={"ref": p.ref})
        )
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
            ev.append(
                Event("eliminated", LazyTerm("dif.event.eliminated", element=self._el_label(s, e)))
            )
            return
        # 11.2: the wingman becomes the leader, keeps its damage, draws capacity - 1.
        e.lost.append(p)
        p.ref = f"{e.seat}L-lost{len(e.lost)}"
        # 8.21: the attacks of this turn were against the aircraft shot down; the
        # promoted wingman is another aircraft, so nobody may go on attacking "L".
        if s.t.target == f"{e.seat}L":
            s.own_turn().target = p.ref
        if s.t.wm_target == f"{e.seat}L":
            s.own_turn().wm_target = p.ref
        self._discard(s, e.defence)
        e.defence = []
        e.leader = s.adopt(
            Plane(f"{e.seat}L", wm.aircraft, "leader", wm.hits, wm.damaged, "flying", True)
        )
        e.wingman = None
        ev.append(Event("promoted", LazyTerm("dif.event.promoted", element=self._el_label(s, e))))
        self._draw(s, e, self._leader_ratings(e).hand_size - 1, e.hand, ev, "promoted")
        ac = self._ac(e)
        if ac.speed is not None:  # RotL L286e: Speed - 1 counters for the new leader
            e.counters = max(ac.speed - 1, 0)
        elif ac.methanol and not e.leader.damaged:  # RotL L329
            e.counters = 1
        if e.counters:
            ev.append(
                Event(
                    "counters",
                    LazyTerm("dif.event.counters_held", element=self._el_label(s, e), n=e.counters),
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
        ev.append(Event("evade", LazyTerm("dif.event.evade", element=self._el_label(s, e))))
        for plane in [q for q in (e.leader, e.wingman) if q is not None and q.flying]:
            c = self._draw_one(s, ev)
            if c is None:
                continue
            plane = s.own(plane)  # it leaves the fight, one way or another
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
                    LazyTerm(
                        "dif.event.evasion",
                        plane=self._plane_label(s, plane.ref),
                        card=self.label[c],
                        level=tables.EVASION_LEVELS[base],
                        final=final,
                        outcome=fixed(_OUTCOMES[outcome]),
                    ),
                )
            )
            if outcome == "destroyed":
                plane.status = "destroyed"
                ev.append(
                    Event(
                        "destroyed",
                        LazyTerm(
                            "dif.event.shot_down_evading", plane=self._plane_label(s, plane.ref)
                        ),
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
                    LazyTerm(
                        "dif.event.discard",
                        element=self._el_label(s, e),
                        cards=join([self.label[c] for c in gone]),
                    ),
                )
            )
        # 3.5 / 5.22 / 5.23: draw up to the altitude-modified draw rating, never past
        # the hand limit; a hand at or over the limit draws nothing.
        lr = self._leader_ratings(e)
        ac = self._ac(e)
        n = lr.draw
        if not ac.rocket:  # RotL L122: a rocket's Horsepower ignores altitude
            n += tables.draw_modifier(e.altitude or 0, ac.turbocharged)
        room = lr.hand_size - len(e.hand)
        self._draw(s, e, max(min(n, room), 0), e.hand, ev, "step")
        if ac.thrust and ac.speed is not None:
            # RotL L135-136: Thrust counters each Draw step, never more than Speed.
            gained = min(ac.speed, e.counters + ac.thrust) - e.counters
            if gained > 0:
                e.counters += gained
                ev.append(
                    Event(
                        "counters",
                        LazyTerm(
                            "dif.event.counters_gained",
                            element=self._el_label(s, e),
                            n=gained,
                            held=e.counters,
                        ),
                    )
                )
        self._end_turn(s, ev)


_OUTCOMES = {
    "destroyed": "dif.evasion.destroyed",
    "damaged": "dif.evasion.damaged",
    "escapes": "dif.evasion.escapes",
}
"""The words of an evasion result (:func:`tables.evasion_result`)."""
