"""The turn (§4): Random Events, Initiative, Card Draw, Activations, End Phase; the
end of an engagement and of a scenario's series.

After every activation :meth:`Flow.end_activation` checks Heavy Fog (§5.1), whether
the Activation Phase is over (§4.4: all activated, no cards left, only one player
able to act and ending it, three passes in a row) and who activates next (players
alternate; a player who cannot act is skipped).
"""

from __future__ import annotations

from engine.eagles import mat
from engine.eagles.activation import Activations
from engine.eagles.base import Run
from engine.eagles.components import Altitude, RandomEvent, ScenarioRule, Zone
from engine.eagles.ratings import rating
from engine.eagles.state import REMOVED, GameState, Pending, Plane

__all__ = ["SIDES", "Flow", "other"]

SIDES = ("allied", "german")


def other(side: str) -> str:
    return "german" if side == "allied" else "allied"


class Flow(Activations):
    """The turn and the engagement."""

    # -- who may act ------------------------------------------------------------------
    @staticmethod
    def automatic(state: GameState, side: str) -> bool:
        """A side played by the rules (no seat: the solitaire scenario, §17.0)."""
        return not state.seats.get(side)

    def may_activate(self, state: GameState, p: Plane) -> bool:
        """``p`` could still be activated this turn (a balloon once attacked, §15.24)."""
        if not p.flying or p.activated:
            return False
        if p.balloon:
            return p.balloon_attacked
        return True

    def can_act(self, state: GameState, side: str) -> bool:
        """``side`` can activate an aircraft: one not yet activated and a card to play
        (§8.11; a balloon needs no card, §15.25)."""
        planes = [p for p in state.planes if p.side == side and self.may_activate(state, p)]
        if any(p.balloon for p in planes):
            return True
        return bool(planes) and bool(state.hands.get(side))

    # -- after an activation ----------------------------------------------------------
    def end_activation(self, run: Run, a: Plane) -> None:
        s = run.state
        if s.pending is not None:
            return
        self.heavy_fog(run, a)
        self.in_the_storm(run)
        mat.settle(s)
        if self.engagement_decided(s):
            self.end_engagement(run)
            return
        self.next_to_act(run, s.to_act)

    def heavy_fog(self, run: Run, a: Plane) -> None:
        """Clouds at Treetop are Heavy Fog: an aircraft ending an activation there
        draws; a Fire Value of 6 crashes it (§5.1). Read as the activated aircraft."""
        s = run.state
        if s.clouds != 0 or not a.flying or a.balloon or a.altitude != 0:
            return
        card = self.draw(run)
        if card.fire == 6:
            run.say("fog_crash", plane=self.name(a), card=card.number)
            self.shoot_down(run, a, by=None, cause="fog", reason="crash")
        else:
            run.say("fog_ok", plane=self.name(a), card=card.number)

    def in_the_storm(self, run: Run) -> None:
        """After a thunderstorm, an aircraft that dives to its altitude or below takes a
        Fire Value 4, 2-Guns attack, then Escapes (Campaign §12.8)."""
        s = run.state
        if s.storm is None:
            return
        for p in s.planes:
            if not p.flying or p.balloon or p.on_ground or p.altitude > s.storm:
                continue
            kind = self.attack(run, p, 4, 2, "thunderstorm")
            if kind is not None:
                self.hit(run, p, kind, by=None, cause="thunderstorm")
            if p.flying:
                self.escape_now(run, p, key="storm_escapes")

    def next_to_act(self, run: Run, last: str) -> None:
        """The other player activates next if they can, else the same one; no one:
        the Activation Phase ends (§4.4)."""
        s = run.state
        if s.passes >= 3:
            run.say("three_passes")
            self.end_phase(run)
            return
        for side in (other(last), last):
            if self.can_act(s, side):
                s.to_act = side
                if self.automatic(s, side):
                    self.auto_act(run, side)
                return
        self.end_phase(run)

    def auto_act(self, run: Run, side: str) -> None:
        """A side run by the rules: its balloon tries to descend once attacked (the
        solitaire scenario, §17.0, §15.24-15.25); otherwise it passes."""
        s = run.state
        balloon = next(
            (p for p in s.planes if p.side == side and p.balloon and self.may_activate(s, p)), None
        )
        if balloon is not None:
            self.lower(run, balloon)
            return
        self.pass_turn(run, side)

    def pass_turn(self, run: Run, side: str) -> None:
        s = run.state
        s.passes += 1
        run.say("passes", side=side)
        self.next_to_act(run, side)

    def end_phase(self, run: Run) -> None:
        """The End Phase (§4.5): the engagement ends after its last turn or when only
        one side has aircraft on the mat; else the next turn begins."""
        s = run.state
        alive = [side for side in SIDES if self.on_mat(s, side)]
        if s.turn >= s.turns or len(alive) < 2:
            self.end_engagement(run)
            return
        for p in s.planes:
            p.activated = False
            for ability in ("snap_turn_any", "mr_plus_1"):
                while ability in p.used:
                    p.used.remove(ability)  # once per turn (§18.0)
        s.lucky_shot, s.sun = False, None  # for "the turn" only (Campaign §12.6, §12.7)
        s.turn += 1
        s.passes = 0
        s.offered = []
        self.start_turn(run)

    # -- a new turn -------------------------------------------------------------------
    def start_turn(self, run: Run) -> None:
        s = run.state
        run.say("turn", kind="turn", turn=s.turn, of=s.turns)
        s.event = None
        if s.turn > 1 and ScenarioRule.NO_RANDOM_EVENTS.value not in self.rules(s):
            self.random_event(run)
            if s.pending is not None or s.phase == "over":
                return
        self.after_event(run)

    def after_event(self, run: Run) -> None:
        s = run.state
        self.initiative(run)
        if s.turn > 1:
            self.card_draw(run)
        else:
            self.begin_activations(run)

    def initiative(self, run: Run) -> None:
        """The fewest Scouts has the Initiative, then the higher Leadership, then the
        Germans (§6.0); a player with only Mission aircraft always has it. A scenario
        may fix it (§17.0)."""
        s = run.state
        fixed = s.setup.get("initiative")
        if fixed and (s.turn == 1 or ScenarioRule.NO_INITIATIVE_PHASE.value in self.rules(s)):
            s.initiative = fixed
        else:
            scouts = {side: self.scouts(s, side) for side in SIDES}
            only_mission = [
                side
                for side in SIDES
                if scouts[side] == 0 and any(p.flying and p.side == side for p in s.planes)
            ]
            if len(only_mission) == 1:
                s.initiative = only_mission[0]
            elif scouts["allied"] != scouts["german"]:
                s.initiative = min(SIDES, key=lambda side: scouts[side])
            else:
                lead = {side: self.leadership(s, side) for side in SIDES}
                s.initiative = "allied" if lead["allied"] > lead["german"] else "german"
        s.to_act = s.initiative
        run.say("initiative", side=s.initiative)

    def scouts(self, state: GameState, side: str) -> int:
        """Friendly Scouts on the mat (balloons and 2-Seaters do not count, §7.12)."""
        return sum(1 for p in state.planes if p.flying and p.side == side and p.kind == "scout")

    def leader_of(self, state: GameState, side: str) -> Plane | None:
        """``side``'s Flight Leader on the mat (§7.13: none once he is gone)."""
        return self.hand_leader(state, side)[0]

    def hand_leader(self, state: GameState, side: str) -> tuple[Plane | None, str]:
        """The Flight Leader whose rating sets ``side``'s hand size, and which rating
        (§7.11). In a campaign (``GameState.leads``): the designated leader, an Ace
        who joined (§12.1, §12.4-12.5), and once they are off the mat another Flight
        Leader of the Flight with the larger of his ratings (Campaign §5.41)."""
        if side in state.leads:
            for ref, which in state.leads[side]:
                p = state.plane(ref)
                if p.flying:
                    if which == "best":
                        which = max(
                            ("leadership", "flying"), key=lambda w: self.leader_rating(p, w)
                        )
                    return p, which
            return None, "leadership"
        for p in state.planes:
            if p.side == side and p.quality in ("leader", "ace") and p.flying and not p.mission:
                return p, state.hand_rating.get(side, "leadership")
        return None, "leadership"

    def leadership(self, state: GameState, side: str) -> int:
        p = self.leader_of(state, side)
        return self.leader_rating(p, "leadership") if p else -1

    def hand_limit(self, state: GameState, side: str) -> tuple[int, int]:
        """``side``'s hand size and discard limit (§7.11-7.22)."""
        leader, which = self.hand_leader(state, side)
        bonus = self.leader_rating(leader, which) if leader else 0
        size = max(self.scouts(state, side) + bonus, 2)
        return size, max(bonus, 1)

    def card_draw(self, run: Run) -> None:
        """The Card Draw Phase (§7): each player discards (secretly, both at once),
        then draws to the hand size fixed now (§7.13)."""
        s = run.state
        s.phase = "discard"
        s.discard_picks = {}
        for side in SIDES:
            if self.automatic(s, side):
                continue
            s.hand_size[side] = self.hand_limit(s, side)[0]
            s.discard_picks[side] = None
        if not s.discard_picks:
            self.begin_activations(run)
            return
        run.say("card_draw")

    def discard_bounds(self, state: GameState, side: str) -> tuple[int, int]:
        """The fewest and the most cards ``side`` may discard now (§7.21-7.23)."""
        size, limit = self.hand_limit(state, side)
        held = len(state.hands.get(side, []))
        excess = max(held - size, 0)
        return excess, min(held, max(limit, excess))

    def discarded(self, run: Run, side: str, cards: list[int]) -> None:
        s = run.state
        s.discard_picks[side] = cards
        if any(v is None for v in s.discard_picks.values()):
            return
        for sd, picked in sorted(s.discard_picks.items()):
            for c in picked or []:
                self.play_card(s, sd, c)
            run.say("discards", side=sd, n=len(picked or []))
        for sd in sorted(s.discard_picks):
            need = s.hand_size[sd] - len(s.hands.get(sd, []))
            if need > 0:
                self.draw_to_hand(run, sd, need)
            run.say("hand", side=sd, n=len(s.hands.get(sd, [])))
        s.discard_picks = {}
        self.begin_activations(run)

    def begin_activations(self, run: Run) -> None:
        s = run.state
        s.phase = "activation"
        s.passes = 0
        if self.can_act(s, s.initiative):
            s.to_act = s.initiative
            if self.automatic(s, s.to_act):
                self.auto_act(run, s.to_act)
            return
        self.next_to_act(run, s.initiative)

    # -- Random Events (§5) -----------------------------------------------------------
    def random_event(self, run: Run) -> None:
        s = run.state
        card = self.draw(run)
        zone = Zone(s.setup["zone"])
        event = self.tables.random_event(card.number, zone)
        if event is RandomEvent.SPECIAL and not self.in_campaign(s):
            event = RandomEvent.NONE  # only in campaigns (§5.0, Campaign §11.11)
        if event is RandomEvent.ADD_AIRCRAFT_STAR:
            total = sum(1 for p in s.planes if p.flying and not p.balloon)
            event = RandomEvent.ADD_AIRCRAFT if total >= 7 else RandomEvent.NONE
        if event is RandomEvent.CLOUDS and s.clouds is not None:
            event = RandomEvent.NONE  # only once an engagement
        s.event = event.value
        run.say("random_event", kind="event", card=card.number, event=event.value)
        if event is RandomEvent.NONE:
            return
        if event is RandomEvent.SPECIAL:
            self.special_event(run)
            return
        fire = self.event_fire(run)
        res = self.tables.event_resolution
        if event is RandomEvent.ADD_AIRCRAFT:
            self.add_aircraft(run, res.add_side(fire).value)
        elif event is RandomEvent.REMOVE_AIRCRAFT:
            self.remove_aircraft(run, res.remove_side(fire).value)
        elif event is RandomEvent.CLOUDS:
            s.clouds = int(res.cloud_altitude(fire))
            run.say("clouds", altitude=s.clouds)
        elif event is RandomEvent.LIGHT_FLAK:
            self.flak(run, 1, 3, 1, heavy=False)
        elif event is RandomEvent.HEAVY_FLAK:
            self.flak(run, 2, 1, 2, heavy=True)

    def event_fire(self, run: Run) -> int:
        """The second card's Fire Value; a Guns Jammed is drawn again."""
        while True:
            card = self.draw(run)
            if card.fire is not None:
                run.say("event_draw", card=card.number, fv=card.fire)
                return card.fire

    def add_aircraft(self, run: Run, side: str) -> None:
        """A random available Scout joins ``side`` (§5.1)."""
        s = run.state
        if self.automatic(s, side):
            run.say("no_add", side=side)
            return
        kind = self.cup_draw(run, side)
        if kind is None:
            run.say("no_add", side=side)
            return
        self.join(run, side, [self.new_plane(s, side, kind, original=False)])

    def join(self, run: Run, side: str, planes: list[Plane]) -> None:
        """The Add Aircraft procedure (§5.1), for one aircraft or a flight of them
        (Campaign §12.1, §12.4-12.5): they begin at the altitude holding the most
        aircraft already on the mat; their owner chooses between tied altitudes."""
        s = run.state
        # Revision 1 (games stored before the correction) counted the newcomer too.
        joining = {p.ref for p in planes} if s.setup.get("revision", 1) >= 2 else set()
        counts = {alt: 0 for alt in range(4)}
        for q in s.planes:
            if q.flying and not q.balloon and not q.on_ground and q.ref not in joining:
                counts[q.altitude] += 1
        best = max(counts.values())
        tied = [alt for alt, n in counts.items() if n == best]
        for p in planes:
            p.altitude = p.start_altitude = tied[0]
            run.say("added", plane=self.name(p), altitude=p.altitude)
        if len(tied) > 1:
            s.pending = Pending(
                "place",
                side,
                actor=planes[0].ref,
                chain=[Altitude(a).code for a in tied],
                moved=[p.ref for p in planes[1:]],
            )

    def place(self, run: Run, code: str) -> None:
        """The owner's choice of altitude for the aircraft joining (``Pending.actor``
        and the rest of its flight, ``Pending.moved``)."""
        s = run.state
        pend = s.pending
        assert pend is not None and pend.actor
        for ref in (pend.actor, *pend.moved):
            p = s.plane(ref)
            p.altitude = p.start_altitude = int(Altitude.from_code(code))
            run.say("placed", plane=self.name(p), altitude=p.altitude)
        s.pending = None
        self.after_event(run)

    def remove_aircraft(self, run: Run, side: str) -> None:
        """Remove an Unengaged aircraft of ``side``: one alone at its altitude, else one
        at the Clouds' altitude, else any; a Green pilot's first; the opposing player
        chooses among several (§5.1, G-E3)."""
        s = run.state
        free = [
            p
            for p in s.planes
            if p.flying
            and p.side == side
            and not p.balloon
            and not p.on_ground
            and mat.unengaged(s, p)
        ]
        if not free:
            run.say("no_remove", side=side)
            return

        def alone(p: Plane) -> bool:
            return (
                sum(
                    1
                    for q in s.planes
                    if q.flying and not q.balloon and q.altitude == p.altitude and not q.on_ground
                )
                == 1
            )

        for tier in (
            [p for p in free if alone(p)],
            [p for p in free if s.clouds is not None and p.altitude == s.clouds],
            free,
        ):
            if tier:
                green = [p for p in tier if p.quality == "green"]
                pool = green or tier
                break
        if len(pool) == 1 or self.automatic(s, other(side)):
            self.take_off_mat(run, pool[0])
            return
        s.pending = Pending("remove", other(side), chain=[p.ref for p in pool])

    def remove(self, run: Run, ref: str) -> None:
        s = run.state
        s.pending = None
        self.take_off_mat(run, s.plane(ref))
        self.after_event(run)

    def take_off_mat(self, run: Run, p: Plane) -> None:
        p.status = REMOVED
        run.say("removed", plane=self.name(p))
        mat.settle(run.state)

    def flak(self, run: Run, altitude: int, fv: int, guns: int, *, heavy: bool) -> None:
        """Light Flak: Fire Value 3, 1-Gun, every Unengaged aircraft at Low; Heavy Flak:
        1, 2-Guns, at Medium, a second damaging draw destroying it (§5.1)."""
        s = run.state
        for p in list(s.planes):
            if (
                not p.flying
                or p.balloon
                or p.altitude != altitude
                or mat.engaged(s, p)
                or p.on_ground
            ):
                continue
            kind = self.attack(run, p, fv, guns, "flak")
            if kind is None or kind.value == "superficial":
                continue
            if heavy:
                second = self.attack(run, p, fv, guns, "flak")
                if second is not None and second.value != "superficial":
                    run.say("direct_hit", plane=self.name(p))
                    self.shoot_down(run, p, by=None, cause="flak", reason="flak")
                    continue
            self.hit(run, p, kind, by=None, cause="flak")

    # -- aircraft -----------------------------------------------------------------------
    def cup_draw(self, run: Run, side: str) -> str | None:
        """One Scout from ``side``'s cup (§3.52); the cup is refilled when empty."""
        s = run.state
        mine = [a for a in s.cup if self.aircraft[a].side.value == side]
        if not mine:
            mine = self.cup_types(s, side)
            s.cup.extend(mine)
        if not mine:
            return None
        pick = mine[run.rng.below(len(mine))]
        s.cup.remove(pick)
        return pick

    def cup_types(self, state: GameState, side: str) -> list[str]:
        from engine.eagles.components import YearMonth

        when = YearMonth.from_text(state.setup["month"])
        return [
            ac.id
            for ac in self.aircraft.values()
            if ac.cup and ac.side.value == side and ac.available(when)
        ]

    def new_plane(
        self, state: GameState, side: str, aircraft: str, *, original: bool = True
    ) -> Plane:
        n = state.next_ref.get(side, 1)
        state.next_ref[side] = n + 1
        ref = f"{'A' if side == 'allied' else 'G'}{n}"
        if aircraft == "balloon":
            p = Plane(
                ref, side, "balloon", "balloon", altitude=1, start_altitude=1, original=original
            )
            state.planes.append(p)
            return p
        ac = self.aircraft[aircraft]
        p = Plane(ref, side, aircraft, ac.type.value, original=original)
        p.crew = {c: "ok" for c in self.crewmen(p)}
        p.guns = {"fixed": "ok"} if ac.guns_forward or ac.lewis else {}
        if ac.guns_rear:
            p.guns["rear"] = "ok"
        if "front" in p.crew:
            p.guns["front"] = "ok"
            p.guns.pop("fixed", None)
        p.lewis = "full" if ac.lewis else ""
        state.planes.append(p)
        if state.setup.get("aircraft_rules", True):
            if aircraft in ("fokker-dvii", "fokker-dviif"):
                p.traits.append("easy_handling")  # §13.72
            if aircraft == "spad-xiii":
                p.traits.append("spad_engine")  # §13.73
        return p

    def make_leader(self, p: Plane, leader: str, *, ace_side: bool = False) -> None:
        """Put a Flight Leader or Ace in ``p`` (§14.5-14.6): his abilities become the
        aircraft's traits, asterisked ones marked (§18.0)."""
        lead = self.leaders[leader]
        p.leader = leader
        p.quality = "ace" if (lead.ace or ace_side) else "leader"
        for ability in lead.abilities:
            p.traits.append(ability.value + ("*" if lead.loses_when_wounded(ability) else ""))

    # -- the end ------------------------------------------------------------------------
    def engagement_decided(self, s: GameState) -> bool:
        """A scenario's engagement that ends early (§17.0 scenarios 1 and 7): its
        target shot down, its balloon on the ground, or the attackers all down."""
        rules = self.rules(s)
        if ScenarioRule.ENDS_WHEN_TARGET_DOWN.value in rules:
            side = s.setup.get("victory_side") or "allied"
            enemy = [p for p in s.planes if p.side == other(side)]
            if enemy and not any(p.flying for p in enemy):
                return True
            if not self.on_mat(s, side):
                return True
        return ScenarioRule.ENDS_WHEN_BALLOON_GROUNDED.value in rules and any(
            p.balloon and p.status == "landed" for p in s.planes
        )

    def end_engagement(self, run: Run) -> None:
        """Score the engagement; start the next of a series, or end the game."""
        raise NotImplementedError  # pragma: no cover - defined by the engine

    def special_event(self, run: Run) -> None:
        """A campaign's Engagement Special Event (Campaign §11.11)."""
        raise NotImplementedError  # pragma: no cover - defined by SpecialEvents

    def rating_now(self, p: Plane, name: str) -> int:
        return rating(self.ac(p), p, name)
