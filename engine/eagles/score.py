"""Victory Points and Glory Points (§16.2-16.4), and who won (§3.12, §17.0).

Engagement VP scored during play (spotting, strafing, bombs) are added to
``GameState.vp`` as they happen; photographs wait in ``photo_vp`` until the
photographer is known to survive (§16.43). :meth:`Scoring.tally` adds the standard
VP, the Glory Points and their conversion, and the Patrol and Bombing end-of-game
points, for the engagement in play.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.eagles import mat
from engine.eagles.base import Run
from engine.eagles.combat import Combat
from engine.eagles.components import DefenceClass, EngagementSpec, EngagementType, ScenarioRule
from engine.eagles.state import SHOT_DOWN, GameState, Plane

__all__ = ["Scoring", "Tally", "glory_vp"]

SIDES = ("allied", "german")
DAMAGE_POINTS = ("structure", "wing", "engine", "control")
"""The damage that counts toward "2 or more points of damage" (§16.21)."""


def glory_vp(mine: int, theirs: int) -> int:
    """The VP ``mine`` Glory Points earn against ``theirs`` (§16.32): all of them if
    the other side has none, none when equal, else the ratio rounded half up, to the
    side with more."""
    if mine <= theirs:
        return 0
    if theirs == 0:
        return mine
    return (2 * mine + theirs) // (2 * theirs)


@dataclass
class Tally:
    """One engagement's score, side by side."""

    vp: dict[str, int] = field(default_factory=dict)
    """Total VP by side (Glory converted)."""
    standard: dict[str, int] = field(default_factory=dict)
    engagement: dict[str, int] = field(default_factory=dict)
    glory: dict[str, int] = field(default_factory=dict)
    glory_vp: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    on_mat: dict[str, bool] = field(default_factory=dict)


class Scoring(Combat):
    """The score."""

    # -- the engagement in play ---------------------------------------------------------
    @staticmethod
    def etype(state: GameState) -> EngagementType:
        return EngagementType(state.setup["engagement"])

    def spec(self, state: GameState) -> EngagementSpec:
        return self.tables.engagement(self.etype(state))

    @staticmethod
    def attacker(state: GameState) -> str | None:
        return state.setup.get("attacker")

    @staticmethod
    def rules(state: GameState) -> frozenset[str]:
        return frozenset(state.setup.get("rules", ()))

    def mission_scores(self, state: GameState, a: Plane) -> bool:
        """Whether ``a``'s side scores mission VP at all (Scenario 7 takes them away;
        a gunner flying cannot earn them, §13.22)."""
        return (
            a.side == self.attacker(state)
            and ScenarioRule.NO_MISSION_VP.value not in self.rules(state)
            and not self.flown_by_gunner(a)
        )

    def add_vp(self, run: Run, side: str, n: int, why: str) -> None:
        s = run.state
        s.vp[side] = s.vp.get(side, 0) + n
        run.say("scores", kind="vp", side=side, n=n, why=why)

    def score_idle(self, run: Run, a: Plane) -> None:
        """Spotting (§16.42), photographs (§16.43), a Contact Patrol (§16.44)."""
        s = run.state
        kind = self.etype(s)
        if not self.mission_scores(s, a) or mat.engaged(s, a):
            return
        if (
            kind is EngagementType.ARTILLERY_SPOTTING
            and a.mission
            and a.altitude == a.start_altitude
        ):
            self.add_vp(run, a.side, self.spec(s).vp, "spotting")
        elif kind is EngagementType.PHOTO_RECON and a.mission and a.altitude == a.start_altitude:
            s.photo_vp[a.ref] = s.photo_vp.get(a.ref, 0) + self.spec(s).vp
            run.say("photographs", plane=self.name(a), n=self.spec(s).vp)
        elif kind is EngagementType.CONTACT_PATROL and a.altitude == 0:
            self.add_vp(run, a.side, self.spec(s).vp, "contact_patrol")

    def score_strafe(self, run: Run, a: Plane) -> None:
        """A damage result other than Superficial on the trenches (§16.45) or the
        airfield (§16.47)."""
        s = run.state
        if self.mission_scores(s, a):
            self.add_vp(run, a.side, self.spec(s).vp, "strafing")

    def score_bombs(self, run: Run, a: Plane) -> None:
        """Bombs dropped: the engagement's VP per point; a red (light) load scores 1
        for the aircraft (§16.45)."""
        s = run.state
        points = a.bombs
        a.bombs = 0
        if not points or not self.mission_scores(s, a):
            run.say("bombs_dropped", plane=self.name(a))
            return
        light = self.aircraft[a.aircraft].light_bombs if not a.balloon else False
        n = 1 if light else points * self.spec(s).bomb_vp
        self.add_vp(run, a.side, n, "bombs")

    def ground_defence(self, state: GameState) -> DefenceClass:
        """The trenches (Fragile) or the airfield (Sturdy) (§16.45, §16.47)."""
        return self.spec(state).target_defence or DefenceClass.FRAGILE

    # -- the end ----------------------------------------------------------------------
    def on_mat(self, state: GameState, side: str) -> bool:
        """``side`` still has an aircraft (or its balloon) on the play mat (§3.11)."""
        return any(p.flying and p.side == side for p in state.planes)

    def damage_points(self, p: Plane) -> int:
        return sum(p.damage.get(k, 0) for k in DAMAGE_POINTS)

    def tally(self, state: GameState) -> Tally:
        """The score of the engagement in play, as it stands."""
        t = Tally()
        t.on_mat = {side: self.on_mat(state, side) for side in SIDES}
        for side in SIDES:
            t.engagement[side] = state.vp.get(side, 0)
            t.standard[side] = 0
            t.glory[side] = state.glory.get(side, 0)
        for p in state.planes:
            other = "german" if p.side == "allied" else "allied"
            if p.status == SHOT_DOWN and p.lost_engagement != state.engagement:
                continue  # lost in an earlier engagement of the series
            if p.balloon:
                if (
                    p.status == SHOT_DOWN
                    and self.etype(state) is EngagementType.BALLOON_BUSTING
                    and other == self.attacker(state)
                ):
                    t.engagement[other] += self.spec(state).vp  # §16.48
                continue
            scout = self.aircraft[p.aircraft].scout
            if p.status == SHOT_DOWN:
                t.standard[other] += 3 if scout else 5
            elif self.damage_points(p) >= 2:
                t.standard[other] += 2 if scout else 3
        for ref, n in state.photo_vp.items():
            p = state.plane(ref)
            if p.status != SHOT_DOWN:
                t.engagement[p.side] += n
        if self.etype(state) is EngagementType.PATROL and state.turn <= 3:
            alone = [side for side in SIDES if t.on_mat[side]]
            # Not when the other side withdrew (Campaign §12.10 note).
            if len(alone) == 1 and state.withdrew is None:
                t.engagement[alone[0]] += self.spec(state).vp  # §16.41 (C-E3)
        for side in SIDES:
            t.glory[side] += self.earned_glory(state, side)
        for side in SIDES:
            other = "german" if side == "allied" else "allied"
            t.glory_vp[side] = glory_vp(t.glory[side], t.glory[other])
            t.vp[side] = t.standard[side] + t.engagement[side] + t.glory_vp[side]
        a, g = t.vp["allied"], t.vp["german"]
        if a != g:
            t.winner = "allied" if a > g else "german"
        elif t.on_mat["allied"] != t.on_mat["german"]:
            t.winner = "allied" if t.on_mat["allied"] else "german"
        return t

    def earned_glory(self, state: GameState, side: str) -> int:
        """Glory Points for being outnumbered and for shoot-downs (§16.31); those for
        shooting down Aces are counted as they happen (``GameState.glory``)."""
        other = "german" if side == "allied" else "allied"
        gp = 0
        mine = self.initial_flight(state, side)
        theirs = self.initial_flight(state, other)
        if mine:
            leader_left_early = any(
                p.side == side
                and p.quality in ("leader", "ace")
                and p.escaped_turn is not None
                and p.escaped_turn < 4
                for p in state.planes
            )
            if theirs >= 4 * mine and not leader_left_early:
                gp += 4
            elif theirs >= 3 * mine:
                gp += 2
            elif theirs >= 2 * mine:
                gp += 1
        for p in state.planes:
            if (
                p.side != side
                or p.balloon
                or p.status == SHOT_DOWN
                or p.crew.get("pilot") == "killed"
            ):
                continue
            kills = [
                state.plane(k)
                for k in p.kills
                if state.plane(k).lost_engagement == state.engagement
            ]
            aircraft_kills = [k for k in kills if not k.balloon]
            if len(aircraft_kills) >= 3:
                gp += 6
            elif len(aircraft_kills) == 2:
                gp += 3
            if any(k.balloon for k in kills):
                gp += 4  # §16.31, §16.48 (counted once)
        return gp

    def pilot_glory(self, state: GameState, p: Plane) -> int:
        """The Glory Points ``p``'s pilot earned himself (§16.31): shooting down two or
        three aircraft or a balloon and surviving, and every Ace he shot down (§14.63);
        a side's Glory for being outnumbered is the side's, not a pilot's."""
        if p.balloon:
            return 0
        gp = 0
        for ref in p.kills:
            down = state.plane(ref)
            if down.quality == "ace" and down.leader:
                gp += self.ace_glory(down.leader)
        if p.status == SHOT_DOWN or p.crew.get("pilot") == "killed":
            return gp
        kills = [state.plane(k) for k in p.kills]
        planes = [k for k in kills if not k.balloon]
        gp += 6 if len(planes) >= 3 else 3 if len(planes) == 2 else 0
        if any(k.balloon for k in kills):
            gp += 4
        return gp

    @staticmethod
    def initial_flight(state: GameState, side: str) -> int:
        """The Scouts of ``side``'s original Flight (§16.31, §7.11)."""
        return sum(
            1
            for p in state.planes
            if p.side == side and p.original and not p.mission and p.kind == "scout"
        )
