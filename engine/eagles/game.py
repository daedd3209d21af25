"""The Eagles in the Sky engagement: the engine contract of DESIGN.md.

:class:`EaglesEngine` holds the components and implements ``new_game``, ``pending``,
``legal_actions``, ``apply``, ``default_action``, ``outcome`` and ``replay`` over
:class:`~engine.eagles.state.GameState`. Legality has one truth,
:meth:`~engine.eagles.legality.Legality.legal`: ``apply`` makes an action canonical,
accepts it only if it is listed, and refuses any other with the rule it breaks.

The class is built in layers, one concern per module: :mod:`~engine.eagles.base`
(components, the deck, narration), :mod:`~engine.eagles.combat` (fire and damage),
:mod:`~engine.eagles.score` (VP and Glory), :mod:`~engine.eagles.activation` (what
activations do), :mod:`~engine.eagles.flow` (the turn), :mod:`~engine.eagles.special` (a
campaign's Engagement Special Events), :mod:`~engine.eagles.legality`.

Seats: one hand per side (§7), shared by the side's seats, so every decision of a
side is pending for each of its seats and the first answer settles it
(``Scope.SIDE``); with one seat a side it is the seat's own.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from engine.core.contract import AircraftFate, Decision, Fate, Outcome, Scope, Timing
from engine.core.errors import RuleViolation, SetupError
from engine.core.events import Event
from engine.core.rng import Rng
from engine.eagles import mat
from engine.eagles.actions import Action
from engine.eagles.base import Run
from engine.eagles.components import (
    Altitude,
    EngagementType,
    Side,
    Weather,
    YearMonth,
    Zone,
)
from engine.eagles.legality import Legality
from engine.eagles.loader import Components, load_components
from engine.eagles.score import Tally
from engine.eagles.setup import EaglesSetup, PlaneSetup, SideSetup
from engine.eagles.state import ESCAPED, SHOT_DOWN, GameState, Pending, Plane
from engine.eagles.view import EaglesView, build_view
from strings import Term

__all__ = ["EaglesEngine", "default_engine"]

SIDES = ("allied", "german")
_EXHAUSTED = {"inexperienced": "green", "experienced": "inexperienced"}
"""The quality an Exhausted pilot flies as (Campaign §8.22)."""
_KIND_TIMING = {
    "activate": Timing.TURN,
    "respond": Timing.RESPONSE,
    "follow": Timing.RESPONSE,
    "place": Timing.TURN,
    "remove": Timing.TURN,
    "discard": Timing.SIMULTANEOUS,
    "convert": Timing.RESPONSE,
    "consent": Timing.RESPONSE,
    "withdraw": Timing.TURN,
    "trouble": Timing.TURN,
}


class EaglesEngine(Legality):
    """The rules of an Eagles in the Sky engagement for one set of components."""

    # -- a new game -----------------------------------------------------------------------
    def new_game(self, setup: EaglesSetup, seed: int) -> tuple[GameState, list[Event]]:
        """Set up (§3.0): draws for what the setup leaves open, the Flights, the
        leaders, the first hands; then turn 1's Initiative (no Random Events, no Card
        Draw on turn 1, §3.10)."""
        state = GameState(setup=setup.model_dump(mode="json"), rng=seed)
        run = Run(state, Rng(seed))
        deck = sorted(self.cards)
        run.rng.shuffle(deck)
        top = list(setup.deck_top)
        held = [c for hand in (setup.hands or {}).values() for c in hand]
        for c in top + held:
            if c not in self.cards:
                raise SetupError(Term("eagles.setup_error.no_card", card=c))
        state.deck = [c for c in deck if c not in top and c not in held] + top[::-1]
        state.turns = setup.turns
        try:
            self._resolve(run, setup)
        except KeyError as err:
            raise SetupError(Term("eagles.setup_error.unknown", what=str(err.args[0]))) from None
        if setup.hands is not None:
            for side, cards in setup.hands.items():
                state.hands[side] = list(cards)
        for side in SIDES:
            state.hands.setdefault(side, [])
            if setup.hands is None and not self.automatic(state, side):
                self.draw_to_hand(run, side, self.hand_limit(state, side)[0])
        mat.settle(state)
        run.say("turn", kind="turn", turn=1, of=state.turns)
        self.initiative(run)
        self.begin_activations(run)
        state.rng = run.rng.state
        return state, run.events

    def _resolve(self, run: Run, setup: EaglesSetup) -> None:
        """The engagement's type, attacker, zone, altitude and weather, then the
        Flights (§3.1), drawing what the setup leaves open."""
        s = run.state
        tables = self.tables
        kind = setup.engagement
        attacker = setup.attacker
        if kind is None:
            card = self.draw(run)
            row = tables.engagement_type(card.number)
            kind = row.type.value
            attacker = attacker or (row.attacker.value if row.attacker else None)
            run.say("table_e2", card=card.number, engagement=kind)
        etype = EngagementType(kind)
        spec = self.tables.engagement(etype)
        if etype is not EngagementType.PATROL and attacker is None:
            attacker = "allied"
        defender = "german" if attacker == "allied" else "allied"
        zone = setup.zone
        if zone is None:
            choices = [
                z for c in spec.zones if attacker and (z := c.resolve(Side(defender))) is not None
            ]
            if choices:
                zone = choices[0].value  # the attacker chooses (§16.13): the first listed
            else:
                card = self.draw(run)
                zone = tables.zone(card.number).value
                run.say("table_e5", card=card.number, zone=zone)
        altitude: str | None = setup.altitude
        if altitude is None:
            if spec.altitudes:
                altitude = spec.altitudes[0].code
            else:
                card = self.draw(run)
                altitude = tables.altitude(card.number).code
                run.say("table_e6", card=card.number, altitude=altitude)
        weather = setup.weather
        if weather == "draw":
            card = self.draw(run)
            weather = tables.weather_for(card.number, YearMonth.from_text(setup.month).month).value
            run.say("weather_drawn", card=card.number, weather=weather)
        s.setup.update(
            engagement=etype.value,
            attacker=attacker,
            zone=Zone(zone).value,
            altitude=altitude,
            weather=weather,
        )
        if weather:
            effect = tables.weather_effect(Weather(weather))
            if effect.clouds is not None:
                s.clouds = int(effect.clouds)
        start = int(Altitude.from_code(altitude))
        for side in SIDES:
            self._flight(run, side, setup.side(side), start)
        if not setup.series_cup and not setup.scenario:
            self._mission(run, spec, attacker, defender, setup, start)
        for side in SIDES:
            if not any(p.side == side for p in s.planes) and not setup.series_cup:
                raise SetupError(
                    Term("eagles.setup_error.empty_side", side=Term(f"eagles.side.{side}"))
                )
        if setup.series_cup:
            # Scenario 7: the enemy's aircraft is drawn from a cup, one per engagement.
            enemy = other_side(setup.victory_side or "allied")
            pick = setup.series_cup[run.rng.below(len(setup.series_cup))]
            p = self.new_plane(s, enemy, pick)
            p.altitude = p.start_altitude = start
            p.mission = True
            run.say("cup", side=enemy, plane=self.name(p))
        if etype is EngagementType.AIRFIELD_ATTACK and attacker:
            for p in s.planes:
                if p.side == defender and not p.balloon:
                    p.on_ground = True  # §16.47
        run.say(
            "setup" if attacker else "setup_patrol",
            engagement=etype.value,
            zone=Zone(zone).value,
            altitude=altitude,
            attacker=attacker,
        )

    def _mission(
        self,
        run: Run,
        spec: Any,
        attacker: str | None,
        defender: str,
        setup: EaglesSetup,
        start: int,
    ) -> None:
        """The mission aircraft and balloon the Engagement type brings (§16.4) when the
        setup does not name them (a type drawn on Table E2): drawn among the types in
        service that month, all of one type where the type says so. Optional ones ("may
        elect to include") are left out."""
        s = run.state
        mission = spec.mission(Side(attacker)) if attacker else None
        has_mission = any(p.mission for p in s.planes if p.side == attacker)
        if mission is not None and not mission.optional and not has_mission and attacker:
            when = YearMonth.from_text(setup.month)
            types = [a for a in mission.choices if self.aircraft[a].available(when)]
            types = types or list(mission.choices)
            first = types[run.rng.below(len(types))]
            for i in range(mission.count):
                kind = first if mission.same_type or i == 0 else types[run.rng.below(len(types))]
                p = self.new_plane(s, attacker, kind)
                p.altitude = p.start_altitude = start
                p.mission = True
                if mission.bombs:
                    p.bombs = self.aircraft[kind].bombs
                run.say("mission_drawn", side=attacker, plane=self.name(p))
        if spec.defender_balloon and not any(p.balloon for p in s.planes if p.side == defender):
            b = self.new_plane(s, defender, "balloon")
            run.say("balloon_added", side=defender, plane=self.name(b))

    def _flight(self, run: Run, side: str, ss: SideSetup, start: int) -> None:
        """One side's aircraft: those chosen, then the cup's (§3.51-3.53); its leader
        (§3.6) on the first Scout; pilots (§14); what it carries (§15)."""
        s = run.state
        s.seats[side] = list(ss.seats)
        planes: list[Plane] = []
        for ps in ss.planes:
            p = self.new_plane(s, side, ps.aircraft)
            self._place(s, p, ps, start)
            planes.append(p)
        n = ss.cup
        if ss.draw_size:
            n = self.flight_size_draw(run, side)
        for _ in range(n):
            kind = self.cup_draw(run, side)
            if kind is None:
                break
            p = self.new_plane(s, side, kind)
            p.altitude = p.start_altitude = start
            planes.append(p)
            run.say("cup", side=side, plane=self.name(p))
        scouts = [p for p in planes if p.kind == "scout" and not p.mission]
        has_leader = any(p.quality in ("leader", "ace") for p in planes)
        campaign = self.in_campaign(s)
        # The leader flies the first Scout not given another pilot (§3.6); a campaign's
        # Flight may have none (Campaign §5.41).
        seat_for = next((p for p in scouts if p.quality == "experienced"), None)
        if seat_for is not None and not has_leader:
            leader = ss.leader or (None if campaign else self.draw_leader(run, side))
            if leader is not None:
                self.make_leader(seat_for, leader)
        qualities = [q for q, count in sorted(ss.pilots.items()) for _ in range(count)]
        for p in scouts:
            if p.quality == "experienced" and qualities:
                p.quality = qualities.pop(0)
        flight = [p for p in planes if not p.mission and p.kind == "scout"]
        leaders = [p for p in flight if p.quality in ("leader", "ace")]
        leader_plane = leaders[0] if leaders else None
        if ss.lead is not None:
            # Campaign §5.41: of several Flight Leaders, the one designated leads.
            leader_plane = next((p for p in leaders if p.leader == ss.lead), None)
            if leader_plane is None:
                raise KeyError(ss.lead)
        if leader_plane and len(flight) == 1:
            s.hand_rating[side] = "flying"  # §7.11
        elif leader_plane and len(flight) == 2:
            lead = self.leaders[leader_plane.leader or ""]
            s.hand_rating[side] = ss.hand_rating or (
                "flying" if lead.flying > lead.leadership else "leadership"
            )
        else:
            s.hand_rating[side] = "leadership"
        if campaign:
            # Campaign §5.41: when he is off the mat, another takes over with either
            # rating (the larger: docs/rules-decisions.md).
            s.leads[side] = [[p.ref, "best"] for p in leaders if p is not leader_plane]
            if leader_plane is not None:
                s.leads[side].insert(0, [leader_plane.ref, s.hand_rating[side]])

    def _place(self, s: GameState, p: Plane, ps: PlaneSetup, start: int) -> None:
        ac = self.aircraft.get(ps.aircraft)
        p.mission = ps.mission
        if ps.leader:
            self.make_leader(p, ps.leader, ace_side=ps.quality == "ace")
        else:
            p.quality = ps.quality
        p.pilot_id = ps.pilot
        p.fatigue = ps.fatigue
        if ps.ace and not ps.leader:
            p.traits.append("campaign_ace")  # Campaign §9.31
        if ps.exhausted:
            # Campaign §8.22: he flies one quality lower (a Green stays Green); a leader's
            # ratings and an Ace's asterisked abilities are lowered where they are read.
            p.exhausted = True
            p.quality = _EXHAUSTED.get(p.quality, p.quality)
        p.altitude = p.start_altitude = (
            int(Altitude.from_code(ps.altitude)) if ps.altitude else start
        )
        if ps.bombs and ac is not None:
            p.bombs = ac.bombs
        p.rockets = ps.rockets
        p.incendiary = ps.incendiary
        p.on_ground = ps.on_ground
        p.climb = ps.climb
        p.damage = dict(ps.damage)
        p.guns.update(ps.guns)
        if ps.wounded:
            p.crew["pilot"] = "wounded"
        if ps.tailing:
            p.tailing, p.level = ps.tailing, ps.level

    def flight_size_draw(self, run: Run, side: str) -> int:
        """§3.53: FV 1-2 two Scouts, 3-4 four, 5-6 six; a Guns Jammed is drawn again."""
        while True:
            card = self.draw(run)
            if card.fire is not None:
                n = self.tables.scouts_for(card.fire)
                run.say("flight_size", side=side, card=card.number, n=n)
                return n

    def draw_leader(self, run: Run, side: str) -> str | None:
        """A Flight Leader drawn from the side's cup (§3.6): the leader counters, not
        the Famous Aces, who fly only when named (docs/rules-decisions.md)."""
        pool = sorted(k for k, v in self.leaders.items() if v.side.value == side and not v.ace)
        if not pool:
            return None
        pick = pool[run.rng.below(len(pool))]
        run.say("leader_drawn", side=side, leader=self.leaders[pick].name)
        return pick

    # -- decisions --------------------------------------------------------------------------
    def pending(self, state: GameState) -> list[Decision]:
        d = self.deciding(state)
        if d is None:
            return []
        kind, side = d
        sides = (
            [sd for sd in SIDES if state.discard_picks.get(sd, 0) is None]
            if kind == "discard"
            else [side]
        )
        out: list[Decision] = []
        for sd in sides:
            seats = state.seats.get(sd, [])
            scope = Scope.SIDE if len(seats) > 1 else Scope.SEAT
            for seat in seats:
                out.append(Decision(seat, kind, _KIND_TIMING[kind], scope, sd))
        return out

    def side_of(self, state: GameState, seat: str) -> str:
        for side, seats in state.seats.items():
            if seat in seats:
                return side
        raise RuleViolation(Term("eagles.refuse.no_seat", seat=seat[:8]))

    def legal_actions(self, state: GameState, seat: str) -> list[Action]:
        return self.legal(state, self.side_of(state, seat))

    def apply(self, state: GameState, seat: str, action: Action) -> tuple[GameState, list[Event]]:
        side = self.side_of(state, seat)
        action = self.canonical(state, action)
        why = self.refusal(state, side, action)
        if why is not None:
            raise RuleViolation(why)
        s = state.clone()
        run = Run(s, Rng(s.rng))
        self._do(run, side, action)
        s.rng = run.rng.state
        return s, run.events

    def _do(self, run: Run, side: str, a: Action) -> None:
        s = run.state
        pend = s.pending
        if s.phase == "discard" and pend is None:
            self.discarded(run, side, list(a.cards))
            return
        if pend is not None and pend.kind == "respond":
            if pend.data.get("headon"):
                self.resolve_headon(run, a)
            else:
                self.resolve_targeted(run, a)
            return
        if pend is not None and pend.kind == "follow":
            self.follow(run, a.verb == "follow")
            return
        if pend is not None and pend.kind == "place":
            self.place(run, a.word or "L")
            return
        if pend is not None and pend.kind == "consent":
            s.pending = None
            if a.verb == "accept":
                run.say("phase_agreed", side=side)
                self.end_phase(run)
            else:
                run.say("phase_refused", side=side)
            return
        if pend is not None and pend.kind == "convert":
            self.converted(run, a.word or "")
            return
        if pend is not None and pend.kind == "remove":
            self.remove(run, a.word or "")
            return
        if pend is not None and pend.kind == "withdraw":
            self.withdraw(run, a.verb == "accept")
            return
        if pend is not None and pend.kind == "trouble":
            self.trouble_pick(run, a.word or "")
            return
        if a.verb == "pass":
            self.pass_turn(run, side)
            return
        if a.verb == "end":
            run.say("ends_phase", side=side)
            self.end_phase(run)
            return
        if a.verb == "offer":
            s.offered.append(side)
            s.pending = Pending("consent", "german" if side == "allied" else "allied")
            run.say("offers_end", side=side)
            return
        p = s.plane(a.plane or "")
        if a.verb == "lower":
            self.lower(run, p)
            return
        getattr(self, a.verb)(run, p, a)

    def default_action(self, state: GameState, seat: str) -> Action:
        """The passive choice when a deadline passes: pass, no Response, follow, the
        fewest discards (the highest-numbered cards), the first option offered."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise RuleViolation(Term("eagles.refuse.nothing_to_decide"))
        for text in ("pass", "follow"):
            for a in legal:
                if str(a) == text:
                    return a
        if legal[0].verb == "discard":
            n = len(legal[0].cards)
            side = self.side_of(state, seat)
            return Action(
                "discard", cards=tuple(sorted(state.hands[side])[len(state.hands[side]) - n :])
            )
        return legal[0]

    def view(self, state: GameState, seat: str | None) -> EaglesView:
        return build_view(self, state, seat)

    def is_over(self, state: GameState) -> bool:
        return state.phase == "over"

    def replay(self, setup: EaglesSetup, seed: int, log: Iterable[tuple[str, str]]) -> GameState:
        state, _ = self.new_game(setup, seed)
        for seat, text in log:
            state, _ = self.apply(state, seat, Action.from_text(text))
        return state

    # -- the end of an engagement ---------------------------------------------------------
    def end_engagement(self, run: Run) -> None:
        """Bombers drop at the end of the last turn (§16.46); score; a scenario's series
        goes on to its next engagement (§17.0) or the game is over."""
        s = run.state
        if self.etype(s) is EngagementType.BOMBING and s.turn >= s.turns:
            for p in s.planes:
                if p.flying and p.mission and p.bombs and p.side == self.attacker(s):
                    self.score_bombs(run, p)
        t = self.tally(s)
        result = {
            "engagement": s.engagement,
            "turn": s.turn,
            "vp": t.vp,
            "glory": t.glory,
            "winner": t.winner,
            "target_down": self._target_down(s),
        }
        s.results.append(result)
        run.say(
            "engagement_over",
            kind="over",
            n=s.engagement,
            allied=t.vp["allied"],
            german=t.vp["german"],
        )
        if self._series_goes_on(s):
            self._next_engagement(run)
            return
        s.phase = "over"
        s.pending = None
        s.winner = self._winner(s, t)
        run.say("game_over", kind="over", winner=s.winner or "draw")

    def _target_down(self, s: GameState) -> bool:
        side = s.setup.get("victory_side") or "allied"
        enemy = [p for p in s.planes if p.side != side and p.original]
        return bool(enemy) and all(p.status == SHOT_DOWN for p in enemy)

    def _series_goes_on(self, s: GameState) -> bool:
        if s.engagement >= s.setup.get("engagements", 1):
            return False
        side = s.setup.get("victory_side") or "allied"
        ace = s.setup.get("victory_ace")
        ace_down = any(p.leader == ace and p.status == SHOT_DOWN for p in s.planes if ace)
        return self._target_down(s) and not ace_down and self.on_mat(s, side)

    def _next_engagement(self, run: Run) -> None:
        """The series' next engagement: damage and broken guns carry over, jams are
        cleared (§17.0 scenarios 1 and 7); a new target; new hands."""
        s = run.state
        setup = EaglesSetup.model_validate(s.setup)
        side = setup.victory_side or "allied"
        enemy = other_side(side)
        start = int(Altitude.from_code(s.setup["altitude"]))
        for p in s.planes:
            if p.side == enemy:
                p.original = False
                if p.status == "flying":
                    p.status = "removed"
            elif p.flying:
                p.altitude = p.start_altitude = start
                p.tailing, p.level, p.climb, p.activated = None, 0, 0, False
                for group, st in p.guns.items():
                    if st == "jammed":
                        p.guns[group] = "ok"
                p.used = [u for u in p.used if u != "medal_any"]
        for ps in setup.side(enemy).planes:
            p = self.new_plane(s, enemy, ps.aircraft)
            self._place(s, p, ps, start)
        if setup.series_cup:
            left = [
                a
                for a in setup.series_cup
                if a not in {p.aircraft for p in s.planes if p.side == enemy}
            ]
            pick = left[run.rng.below(len(left))] if left else setup.series_cup[0]
            p = self.new_plane(s, enemy, pick)
            p.altitude = p.start_altitude = start
            p.mission = True
            run.say("cup", side=enemy, plane=self.name(p))
        s.engagement += 1
        s.turn = 1
        s.vp, s.glory, s.photo_vp = {}, {}, {}
        s.clouds = None
        s.deck = s.deck + s.discards + [c for h in s.hands.values() for c in h]
        s.discards = []
        s.hands = {sd: [] for sd in SIDES}
        run.rng.shuffle(s.deck)
        mat.settle(s)
        run.say("next_engagement", n=s.engagement)
        for sd in SIDES:
            if not self.automatic(s, sd):
                self.draw_to_hand(run, sd, self.hand_limit(s, sd)[0])
        run.say("turn", kind="turn", turn=1, of=s.turns)
        self.initiative(run)
        self.begin_activations(run)

    def _winner(self, s: GameState, t: Tally) -> str | None:
        kind = s.setup.get("victory", "standard")
        side = s.setup.get("victory_side")
        ace = s.setup.get("victory_ace")
        if kind == "shoot_down_ace" and side:
            down = any(p.leader == ace and p.status == SHOT_DOWN for p in s.planes)
            return side if down else other_side(side)
        if kind == "sweep" and side:
            wins = len(s.results) == s.setup.get("engagements", 1) and all(
                r["target_down"] for r in s.results
            )
            mine_down = any(p.leader == ace and p.status == SHOT_DOWN for p in s.planes)
            return side if wins and not mine_down else other_side(side)
        return t.winner

    # -- the outcome ----------------------------------------------------------------------
    def outcome(self, state: GameState) -> Outcome:
        """How the game ended (or stands). Each aircraft's ``record`` holds what a
        campaign reads (Campaign §5.6, §8, §9): its damage, crew, pilot (``pilot_id``:
        the campaign's id; ``quality``: the one he flew as, ``exhausted``), kills and
        Glory, starting altitude, ``escaped`` (an Escape, and everything that leaves the
        mat as one: a Safe Return at once, §5.64), ``engine_out`` (a second Engine
        hit: the Engine-out modifier, §10.86) and the ``weather`` its Safe Return reads
        (§12.9). In a campaign, ``by`` names the last aircraft that damaged one not
        shot down (§9.32)."""
        t = self.tally(state)
        campaign = self.in_campaign(state)
        over = state.phase == "over"
        winner = state.winner if over else None
        if over:
            verdict = Term(f"eagles.verdict.{winner}") if winner else Term("eagles.verdict.draw")
        else:
            verdict = Term("eagles.verdict.running")
        fates = []
        for p in state.planes:
            if p.balloon and p.status == "removed":
                continue
            if p.status == SHOT_DOWN:
                fate = Fate.SHOT_DOWN
            elif p.status in (ESCAPED, "removed", "landed"):
                fate = Fate.LEFT
            elif any(p.damage.values()) or any(v != "ok" for v in p.crew.values()):
                fate = Fate.DAMAGED
            else:
                fate = Fate.UNHARMED
            seats = state.seats.get(p.side) or [""]
            by = p.by
            if campaign and p.status != SHOT_DOWN:
                by = p.damaged_by  # Campaign §9.32: credited if its Safe Return fails
            fates.append(
                AircraftFate(
                    ref=p.ref,
                    seat=seats[0],
                    side=p.side,
                    aircraft=p.aircraft,
                    fate=fate,
                    by=by,
                    damaged=bool(any(p.damage.values())),
                    hits_taken=sum(p.damage.values()),
                    hits_given=len(p.kills),
                    turn=p.lost_turn or p.escaped_turn,
                    record={
                        "damage": dict(p.damage),
                        "crew": dict(p.crew),
                        "guns": dict(p.guns),
                        "pilot": p.leader or p.quality,
                        "quality": p.quality,
                        "mission": p.mission,
                        "kills": list(p.kills),
                        "glory": self.pilot_glory(state, p),
                        "start_altitude": "TLMH"[p.start_altitude],
                        "escaped": p.status == ESCAPED,
                        "engagement": p.lost_engagement,
                        "pilot_id": p.pilot_id,
                        "engine_out": p.engine_out,
                        "exhausted": p.exhausted,
                        "weather": self.weather_for(state, p),
                        "side_glory": t.glory.get(p.side, 0),
                    },
                )
            )
        vp = dict(t.vp)
        if len(state.results) > 1:
            vp = {sd: sum(r["vp"][sd] for r in state.results) for sd in SIDES}
        return Outcome(over, winner, verdict, vp, tuple(fates), state.turn)


def other_side(side: str) -> str:
    return "german" if side == "allied" else "allied"


@functools.cache
def default_engine() -> EaglesEngine:
    """The engine over the shipped components."""
    return EaglesEngine(load_components())


def engine_for(components: Components) -> EaglesEngine:
    return EaglesEngine(components)
