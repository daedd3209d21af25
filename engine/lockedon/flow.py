"""The flow of a game: starting altitudes, player order, rounds, the steps of a turn
(L92-119), altitude changes and who follows them (L217-236), positions lost out of
range (L197), shoot-downs and the end (L89-90).

Player order (L84-86, L388-394): the side of the aircraft with the higher EW (altitude
counted, its starting altitude being known by then) chooses to go first or second; a
tie is settled at random; Initiative (Eagle Eyes, L346) gives that choice whatever the
EW. Sides then alternate, each naming which of its aircraft that have not flown this
round takes the turn; a side with none left lets the others go on; the next round
begins with the side after the one that took the last turn. In a free-for-all the
sides keep the order of their EW (docs/rules-decisions.md).

A campaign mission (L269-314) adds the 90° / 0° Angle start (L343, L356: a decision
of each holder once the altitudes are known, before the order is chosen; 0° Angle
gives its team Initiative), the SAM/AAA sites' check at the start of each enemy
aircraft's Play Cards step (L296), and the mission's VP (L305-308, NFOD L364). The
answers to a site and the angle choices are resolved in :mod:`engine.lockedon.mission`.
"""

from __future__ import annotations

import math

from engine.core.events import Event
from engine.core.rng import Rng
from engine.lockedon import geometry, ratings
from engine.lockedon.actions import Action
from engine.lockedon.components import Altitude, Range, SkillKind
from engine.lockedon.legality import Legality
from engine.lockedon.state import FollowOffer, GameState, Prompt, SiteAttack, TurnState
from engine.lockedon.texts import counted, fixed
from strings import Term

__all__ = ["ALTITUDE_KEYS", "Flow"]

ALTITUDE_KEYS = {a: f"lockedon.altitude.{a.code}" for a in Altitude}


def altitude_label(alt: int) -> Term:
    return fixed(ALTITUDE_KEYS[Altitude(alt)])


class Flow(Legality):
    """Rounds, turns and their steps, altitude, the end of the game."""

    # --- the start ----------------------------------------------------------------
    def _do_altitude(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        s.planes[seat].pick = int(Altitude.from_code(a.mode or "M"))
        events.append(Event("pick", Term("lockedon.event.picked", plane=self.name(s, seat))))
        if all(p.pick is not None for p in s.planes.values()):
            self._reveal(s, events)

    def _reveal(self, s: GameState, events: list[Event]) -> None:
        """Every starting altitude is revealed at once (L76), then the order (L85)."""
        for seat, p in s.planes.items():
            assert p.pick is not None
            p.altitude = p.pick
            p.pick = None
            events.append(
                Event(
                    "altitude",
                    Term(
                        "lockedon.event.starts_at",
                        plane=self.name(s, seat),
                        altitude=altitude_label(p.altitude),
                    ),
                )
            )
        self._begin(s, events, None)

    def _begin(self, s: GameState, events: list[Event], first_side: str | None) -> None:
        """Once the altitudes are known: each 90° / 0° Angle of a mission is used, in
        seat order (L343, L356), then the player order is settled (L85)."""
        s.angles = [
            [seat, sid]
            for seat, p in s.planes.items()
            for sid in p.skills
            if self.skills[sid].kind is SkillKind.START_POSITION
        ]
        if s.angles:
            s.step = "angle"
            s.first_side = first_side
            return
        self._order(s, events, first_side)

    def _order(self, s: GameState, events: list[Event], first_side: str | None) -> None:
        """Player order (L85): Initiative, else the higher EW, chooses; ties at random."""
        if first_side is not None:
            s.sides = [first_side, *[x for x in s.sides if x != first_side]]
            self._next_turn(s, events)
            return
        # 0° Angle: "Your Team begins with Initiative" (L356).
        teams = {
            p.side for p in s.planes.values() for sid in p.skills if self.skills[sid].initiative
        }
        holders = [
            seat
            for seat, p in s.planes.items()
            if self.has_skill(p, SkillKind.INITIATIVE) is not None or p.side in teams
        ]
        pool = holders or list(s.planes)
        best: dict[str, int] = {}
        chooser: dict[str, str] = {}
        for seat in pool:
            p = s.planes[seat]
            e = ratings.ew(self.ac(p), p)
            if p.side not in best or e > best[p.side]:
                best[p.side], chooser[p.side] = e, seat
        rng = Rng(s.rng)
        ranked = sorted(best, key=lambda side: -best[side])
        # Break ties at random (L85), keeping the EW order otherwise.
        out: list[str] = []
        i = 0
        while i < len(ranked):
            j = i
            while j < len(ranked) and best[ranked[j]] == best[ranked[i]]:
                j += 1
            group = ranked[i:j]
            rng.shuffle(group)
            out += group
            i = j
        s.rng = rng.state
        rest = [x for x in s.sides if x not in out]
        s.sides = out + rest
        tied = len(ranked) > 1 and best[ranked[0]] == best[ranked[1]]
        if tied:
            events.append(Event("order", Term("lockedon.event.order_random", side=s.sides[0])))
            self._next_turn(s, events)
            return
        s.chooser = chooser[s.sides[0]]
        s.step = "first"
        why = "lockedon.why.initiative" if holders else "lockedon.why.ew"
        events.append(
            Event(
                "chooser",
                Term("lockedon.event.chooses", plane=self.name(s, s.chooser), why=fixed(why)),
            )
        )

    def _do_first(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        if a.verb == "second":
            s.sides[0], s.sides[1] = s.sides[1], s.sides[0]
        s.chooser = None
        events.append(
            Event(
                "first",
                Term("lockedon.event.goes_first", plane=self.name(s, seat), side=s.sides[0]),
            )
        )
        self._next_turn(s, events)

    # --- rounds and turns ------------------------------------------------------------
    def _next_turn(self, s: GameState, events: list[Event]) -> None:
        """The next aircraft's turn (L85-86, L390-394), a new round, or the end."""
        if s.step == "over":
            return
        left = [seat for seat, p in s.planes.items() if p.flying and seat not in s.acted]
        if not left:
            if s.round >= s.rounds:
                self._finish(s, None, events)
                return
            s.round += 1
            s.acted = []
            events.append(Event("round", Term("lockedon.event.round", round=s.round)))
            left = [seat for seat, p in s.planes.items() if p.flying]
        sides = s.sides
        start = (sides.index(s.last_side) + 1) % len(sides) if s.last_side in sides else 0
        for k in range(len(sides)):
            side = sides[(start + k) % len(sides)]
            mine = [seat for seat in left if s.planes[seat].side == side]
            if mine:
                break
        if len(mine) == 1:
            self._start_turn(s, mine[0], events)
        else:
            s.step = "next"
            s.next_side = side
            s.active = None

    def _do_next(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        assert a.target is not None
        s.next_side = None
        self._start_turn(s, a.target, events)

    def _start_turn(self, s: GameState, seat: str, events: list[Event]) -> None:
        p = s.planes[seat]
        s.active = seat
        s.turns += 1
        s.t = TurnState()
        events.append(
            Event(
                "turn", Term("lockedon.event.turn", plane=self.name(s, seat)), data={"seat": seat}
            )
        )
        if p.ab_on:  # L102: the counter is discarded at the start of the next turn
            p.ab_on = False
            events.append(Event("ab_off", Term("lockedon.event.ab_off", plane=self.name(s, seat))))
        # Bat-Turn (L369): at the beginning of each aircraft's turn.
        for other, q in s.planes.items():
            if (
                q.flying
                and self.has_skill(q, SkillKind.FREE_NEUTRAL)
                and any(True for _ in geometry.engaged(s, other))
            ):
                s.prompts.append(Prompt("batturn", other))
        s.step = "afterburner" if self.ac(p).has_afterburners and p.ab_left > 0 else "predraw"

    def _end_turn(self, s: GameState, events: list[Event]) -> None:
        seat = s.active
        assert seat is not None
        s.acted.append(seat)
        s.last_side = s.planes[seat].side
        s.active = None
        s.t = TurnState()
        self._next_turn(s, events)

    # --- the steps ------------------------------------------------------------------
    def _do_afterburner(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        """L100-102: flip a counter On; A/B numbers until the start of the next turn."""
        p = s.planes[seat]
        if a.mode == "on":
            p.ab_left -= 1
            p.ab_on = True
            events.append(Event("ab_on", Term("lockedon.event.ab_on", plane=self.name(s, seat))))
        s.step = "predraw"

    def _do_predraw(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        self._discard_draw(s, seat, a, events, post_turn=False)
        s.step = "altitude_step"

    def _do_postdraw(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        self._discard_draw(s, seat, a, events, post_turn=True)
        s.step = "done"

    def _discard_draw(
        self, s: GameState, seat: str, a: Action, events: list[Event], *, post_turn: bool
    ) -> None:
        """Discard any cards, then draw Thrust/A/B up to Performance (L105-106,
        L118-119); Test Pilot may draw past it (L361); Edge of Envelope draws
        Performance and discards down to it (L372); stalling (L226)."""
        p = s.planes[seat]
        ac = self.ac(p)
        had = len(p.hand)
        stall = self.stalls(s, seat, post_turn=post_turn)
        if a.cards:
            self.discard_codes(s, p.hand, a.cards)
            events.append(
                Event(
                    "discard",
                    Term(
                        counted("discards", len(a.cards)),
                        plane=self.name(s, seat),
                        n=len(a.cards),
                    ),
                )
            )
            events.append(
                Event("discarded", Term("lockedon.event.discarded", cards=" ".join(a.cards)), seat)
            )
        why = "lockedon.why.post" if post_turn else "lockedon.why.pre"
        if self.has_skill(p, SkillKind.DRAW_TO_PERFORMANCE):
            self.draw(s, seat, ratings.performance(ac, p), events, why=why)
            if len(p.hand) > ratings.performance(ac, p):
                s.prompts.append(Prompt("trim", seat))
            return
        if stall:
            if had:
                events.append(
                    Event("stall", Term("lockedon.event.stall", plane=self.name(s, seat)))
                )
            else:
                events.append(
                    Event("stall", Term("lockedon.event.stall_dive", plane=self.name(s, seat)))
                )
                self._move(s, seat, -1, events, ())
            return
        n = ratings.thrust(ac, p, post_turn=post_turn)
        if self.has_skill(p, SkillKind.DRAW_PAST_PERFORMANCE) is None:
            n = min(n, ratings.performance(ac, p) - len(p.hand))
        self.draw(s, seat, n, events, why=why)

    def _do_trim(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        s.prompts.pop(0)
        self.discard_codes(s, s.planes[seat].hand, a.cards)
        events.append(
            Event(
                "discard",
                Term(
                    counted("trims", len(a.cards)),
                    plane=self.name(s, seat),
                    n=len(a.cards),
                ),
            )
        )
        events.append(
            Event("discarded", Term("lockedon.event.discarded", cards=" ".join(a.cards)), seat)
        )

    def _do_altitude_step(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        """L218-224: stay, climb (discard 1) or dive (draw 1, even past Performance)."""
        if a.verb == "stay":
            p = s.planes[seat]
            assert p.altitude is not None
            events.append(
                Event(
                    "stay",
                    Term(
                        "lockedon.event.stays",
                        plane=self.name(s, seat),
                        altitude=altitude_label(p.altitude),
                    ),
                )
            )
        else:
            self._move(s, seat, 1 if a.verb == "climb" else -1, events, a.cards)
        self._to_speed(s, seat)

    def _to_speed(self, s: GameState, seat: str) -> None:
        """Speed Maneuvering (L110-112) if the aircraft is faster than an enemy."""
        points = max((self.speed_advantage(s, seat, e) for e in self.enemies(s, seat)), default=0)
        s.t.speed_points = points
        s.t.speed_used = {}
        if points > 0:
            s.step = "speed"
        else:
            self._begin_play(s)

    def _begin_play(self, s: GameState) -> None:
        """The Play Cards step begins: in a mission, every enemy site will check the
        aircraft first (L296), side after side in turn order, each side's in its
        listed order."""
        s.step = "play"
        if s.mission is None or s.active is None:
            return
        side = s.planes[s.active].side
        s.site_checks = [
            f"{owner}:{site}"
            for owner in s.sides
            if owner != side
            for site in s.mission.sites.get(owner, [])
        ]

    def _site_check(self, s: GameState, events: list[Event]) -> None:
        """One site checks the acting aircraft (L296-299): if its own Range counter
        (not the range to any aircraft, L299) and its Altitude are in the site's
        envelope, the site draws its cards; they are shown to all and discarded. Any
        card it looks for (a Tone / Guns card counts as both) makes an attack the
        aircraft must react to once (L297-298)."""
        owner, _, sid = s.site_checks.pop(0).partition(":")
        site = self.sites[sid]
        seat = s.active
        assert seat is not None
        p = s.planes[seat]
        if p.altitude is None or not site.attacks(Range(p.range), Altitude(p.altitude)):
            return
        drawn: list[int] = []
        for _ in range(site.cards):
            card = self.take_top(s, events)
            if card is None:
                break
            drawn.append(card)
        s.discard += drawn
        found = sorted({t for c in drawn for t in self.ctype(s, c).titles & site.looks_for})
        looks = " / ".join(sorted(site.looks_for))
        events.append(
            Event(
                "site_draw",
                Term(
                    "lockedon.event.site_draw",
                    site=site.name,
                    side=owner,
                    plane=self.name(s, seat),
                    n=len(drawn),
                    cards=", ".join(self.label(s, c) for c in drawn) or "-",
                ),
                data={"site": sid, "seat": seat},
            )
        )
        if not found:
            events.append(
                Event("site_miss", Term("lockedon.event.site_miss", site=site.name, title=looks))
            )
            return
        s.site = SiteAttack(sid, owner, seat, found)
        events.append(
            Event(
                "site_attack",
                Term(
                    "lockedon.event.site_attack",
                    site=site.name,
                    plane=self.name(s, seat),
                    title=" / ".join(found),
                ),
            )
        )

    def _move(
        self,
        s: GameState,
        seat: str,
        direction: int,
        events: list[Event],
        paying: tuple[str, ...],
        *,
        key: str = "lockedon.event.moves",
    ) -> None:
        """Change altitude one level: a climb discards ``paying``, a dive draws 1
        (L220-224); every aircraft Advantaged on or Tailing it may follow, front of the
        chain first (L229-236)."""
        p = s.planes[seat]
        assert p.altitude is not None
        if paying:
            self.discard_codes(s, p.hand, paying)
            events.append(
                Event("discarded", Term("lockedon.event.discarded", cards=" ".join(paying)), seat)
            )
        p.altitude += direction
        events.append(
            Event(
                "altitude",
                Term(
                    key,
                    plane=self.name(s, seat),
                    altitude=altitude_label(p.altitude),
                    n=len(paying),
                ),
            )
        )
        if direction < 0:
            self.draw(s, seat, 1, events, why="lockedon.why.dive")
        for other, position in sorted(geometry.engaged(s, seat)):
            if position >= 0:
                continue
            q = s.planes[other]
            assert q.altitude is not None
            if not Altitude.LOW <= q.altitude + direction <= Altitude.HIGH:
                continue
            offer = FollowOffer(other, seat, direction)
            if len(q.hand) >= self._follow_cost(s, offer):
                s.follows.append(offer)

    def _do_follow(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        offer = s.follows.pop(0)
        if a.verb == "nofollow":
            events.append(
                Event(
                    "nofollow",
                    Term(
                        "lockedon.event.nofollow",
                        plane=self.name(s, seat),
                        mover=self.name(s, offer.mover),
                    ),
                )
            )
            return
        self._move(s, seat, offer.direction, events, a.cards, key="lockedon.event.follows")

    def _do_batturn(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        s.prompts.pop(0)
        if a.verb == "batturn":
            for other, _ in list(geometry.engaged(s, seat)):
                geometry.set_pos(s, seat, other, 0)
            events.append(
                Event("batturn", Term("lockedon.event.batturn", plane=self.name(s, seat)))
            )

    def _do_timely(self, s: GameState, seat: str, a: Action, events: list[Event]) -> None:
        """Timely (L362): discard any cards and draw as many, once."""
        p = s.planes[seat]
        skill = self.can_use(p, SkillKind.REDRAW)
        assert skill is not None
        p.used.append(skill)
        self.discard_codes(s, p.hand, a.cards)
        events.append(
            Event("timely", Term("lockedon.event.timely", plane=self.name(s, seat), n=len(a.cards)))
        )
        events.append(
            Event("discarded", Term("lockedon.event.discarded", cards=" ".join(a.cards)), seat)
        )
        self.draw(s, seat, len(a.cards), events, why="lockedon.why.timely")

    # --- keeping the state whole -------------------------------------------------------
    def _settle(self, s: GameState, events: list[Event]) -> None:
        """After every action: positions out of range lapse (L197) once no altitude
        change is waiting for followers; the game may end; a finished turn hands over."""
        while s.step != "over":
            if s.exchange is None and not s.follows:
                self._check_positions(s, events)
            if s.exchange or s.launch or s.follows or s.prompts or s.site:
                return
            if s.step == "done":
                self._end_turn(s, events)
                continue
            if s.step == "speed" and sum(s.t.speed_used.values()) >= s.t.speed_points:
                self._begin_play(s)
                continue
            if s.step == "play" and s.site_checks:
                self._site_check(s, events)
                continue
            return

    def _check_positions(self, s: GameState, events: list[Event]) -> None:
        """An aircraft keeps Advantaged or Tailing only while the enemy is within range
        of its longest weapon, else it is Neutral at once (L197-198)."""
        for key, value in list(s.positions.items()):
            first, _, second = key.partition("|")
            holder, on = (first, second) if value > 0 else (second, first)
            longest = self.longest(s.planes[holder])
            if longest is not None and geometry.range_between(s, holder, on) <= longest:
                continue
            del s.positions[key]
            events.append(
                Event(
                    "neutral",
                    Term(
                        "lockedon.event.out_of_range",
                        plane=self.name(s, holder),
                        target=self.name(s, on),
                    ),
                )
            )

    def _destroy(self, s: GameState, seat: str, by: str, events: list[Event]) -> None:
        """Shot down (L138, L264) by an aircraft or a site (``by``: a seat or a site
        id): its cards go to the discard pile, its positions end; the game ends at once
        when a side has won (L90, L389, L406). An aircraft shot down in its own turn
        (by a site, L298) ends that turn."""
        p = s.planes[seat]
        p.status = "destroyed"
        p.by = by
        p.lost_round = s.round
        s.discard += p.hand + p.side_hand
        p.hand, p.side_hand = [], []
        p.ab_on = False
        for other, _ in list(geometry.engaged(s, seat)):
            geometry.set_pos(s, seat, other, 0)
        s.follows = [f for f in s.follows if seat not in (f.seat, f.mover)]
        s.prompts = [pr for pr in s.prompts if pr.seat != seat]
        if s.active == seat:
            s.site_checks = []
            s.launch = None
            s.step = "done"
        events.append(
            Event(
                "destroyed",
                Term("lockedon.event.destroyed", plane=self.name(s, seat), by=self.name(s, by)),
                data={"seat": seat, "by": by, "round": s.round},
            )
        )
        flying = {q.side for q in s.planes.values() if q.flying}
        if len(flying) <= 1:
            self._finish(s, next(iter(flying), None), events)

    def victory_points(self, s: GameState) -> dict[str, int]:
        """VP by side: the value of each enemy aircraft it shot down (L23, L327); in a
        mission, the mission's VP instead (:meth:`mission_vp`)."""
        if s.mission is not None:
            return self.mission_vp(s)
        vp = dict.fromkeys(s.sides, 0)
        for p in s.planes.values():
            if p.status == "destroyed" and p.by is not None:
                side = s.planes[p.by].side
                vp[side] = vp.get(side, 0) + p.value
        return vp

    def mission_vp(self, s: GameState) -> dict[str, int]:
        """A mission's VP by side (L305-308): its stated VP in full for destroying
        every enemy aircraft, else in proportion to the enemy aircraft destroyed,
        rounding up (Mission #1: 1 of 2 MiG-17s, ceil(47 / 2) = 24); aircraft its
        sites destroyed count. Plus NFOD's Campaign points (L364)."""
        m = s.mission
        assert m is not None
        vp = {}
        for side in s.sides:
            enemies = [p for p in s.planes.values() if p.side != side]
            down = sum(1 for p in enemies if not p.flying)
            stated = m.vp.get(side, 0)
            vp[side] = math.ceil(stated * down / len(enemies)) if enemies else 0
        for seat, points in m.points.items():
            side = s.planes[seat].side
            vp[side] += points
        return vp

    def _finish(self, s: GameState, winner: str | None, events: list[Event]) -> None:
        """A shoot-down of the last enemy wins at once; else a draw after the last round
        (L89-90). A mission is won on its VP (L305-308): the side with more; equal VP
        is a draw."""
        s.step = "over"
        s.active = None
        s.exchange = None
        s.launch = None
        s.follows = []
        s.prompts = []
        s.site = None
        s.site_checks = []
        s.angles = []
        if s.mission is not None:
            vp = self.victory_points(s)
            ranked = sorted(vp.values(), reverse=True)
            best = [side for side, n in vp.items() if n == ranked[0]]
            winner = best[0] if len(best) == 1 else None
            scores = ", ".join(f"{side} {n}" for side, n in sorted(vp.items()))
            fields = {"mission": s.mission.number, "title": s.mission.title, "vp": scores}
            if winner is None:
                verdict = Term("lockedon.verdict.mission_draw", **fields)
            else:
                verdict = Term("lockedon.verdict.mission_win", side=winner, **fields)
            s.result = {"winner": winner, "verdict": verdict, "vp": vp}
            events.append(Event("over", verdict))
            return
        if winner is None:
            verdict = fixed("lockedon.verdict.draw")
        else:
            verdict = Term("lockedon.verdict.win", side=winner)
        s.result = {"winner": winner, "verdict": verdict, "vp": self.victory_points(s)}
        events.append(Event("over", verdict))
