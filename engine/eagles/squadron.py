"""A campaign squadron (Campaign §2.3, §3.6): its pilots and aircraft, and what
happens to them between engagements: fatigue and exhaustion (§8), advancement,
promotion and aces (§9), repair and cannibalisation (§10.1), wounds (§10.2) and
replacements (§10.3).

Plain mutable pydantic models: the campaign (:mod:`engine.eagles.campaign`) copies its
state before changing it, so nothing here touches a state another caller holds.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "HITS",
    "Pilot",
    "Plane",
    "Squadron",
    "letter",
]

Quality = Literal["green", "inexperienced", "experienced", "leader", "ace"]
HITS = ("wing", "control", "engine")
"""The hits an aircraft keeps after a mission (Structure is repaired at once, §10.11)."""
SQUADRON_SIZE = 12
"""Twelve aircraft and twelve pilots (Campaign §3.6, §10.34)."""
MAX_FATIGUE = 15
"""No pilot holds more (Campaign §8.24)."""


def letter(n: int) -> str:
    """The pilot letter of the ``n``-th pilot (from 0): A..Z, then AA, AB... (§5.43)."""
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(ord("A") + r) + out
    return out


class Pilot(BaseModel):
    """A pilot on the Squadron Log (Campaign §2.3)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=False)

    id: str
    """His capital letter (§5.43)."""
    name: str
    quality: Quality
    leader: str | None = None
    """The Flight Leader counter he carries (quality ``leader`` or ``ace``)."""
    fatigue: int = 0
    exhausted: bool = False
    worn: bool = False
    """Ended a mission with 15 Fatigue Points: no more flying until he recovers from
    Exhaustion (§8.24, §8.25), whatever his Fatigue in between."""
    missions: int = 0
    """Missions flown at his present quality (Green and Inexperienced advance, §9.1)."""
    flown: int = 0
    """Missions flown in the campaign."""
    kills: int = 0
    ace: bool = False
    """Five kills for a pilot without a Flight Leader counter (§9.31)."""
    status: Literal["ready", "wounded", "out", "lost"] = "ready"
    """``wounded``: out for the rest of the day (§10.21), his days out drawn in the
    Evening; ``out``: recovering until ``back`` (§10.22); ``lost``: killed or captured."""
    back: int = 0
    """The day a wounded pilot flies again."""
    fate: str | None = None
    """How he left the squadron, or his wound: a :class:`strings.Term` key's tail."""
    today: bool = False
    """Assigned to a mission today (§8.13)."""
    held: bool = False
    """Held out of today's missions on Leave (§13.6)."""

    @property
    def is_leader(self) -> bool:
        return self.quality in ("leader", "ace") and self.leader is not None

    @property
    def grounded(self) -> bool:
        """15 Fatigue Points at a mission's end: no flying until he recovers from
        Exhaustion (§8.24)."""
        return self.worn

    def available(self) -> bool:
        return self.status == "ready" and not self.grounded and not self.held

    def effective_quality(self) -> Quality:
        """His quality in an engagement: an Exhausted pilot flies one step worse
        (§8.22); Flight Leaders and Aces keep theirs (their ratings drop instead)."""
        if not self.exhausted:
            return self.quality
        return {
            "inexperienced": "green",
            "experienced": "inexperienced",
        }.get(self.quality, self.quality)  # type: ignore[return-value]


class Plane(BaseModel):
    """A squadron aircraft (Campaign §2.3): its number and its hits."""

    model_config = ConfigDict(extra="forbid")

    id: int
    hits: dict[str, int] = Field(default_factory=dict)
    lost: bool = False

    @property
    def damage(self) -> int:
        hits = self.hits
        return hits.get("wing", 0) + hits.get("control", 0) + hits.get("engine", 0)

    def flyable(self) -> bool:
        """No unrepaired damage (§10.16)."""
        return not self.lost and self.damage == 0


class Squadron(BaseModel):
    """One player's squadron (Campaign §3.6)."""

    model_config = ConfigDict(extra="forbid")

    side: str
    aircraft: str
    """The aircraft type of every squadron aircraft (§3.4)."""
    pilots: list[Pilot]
    planes: list[Plane]
    glory: int = 0
    """Glory Points accumulated (§16.33: replacements, Fuel Shortage)."""
    points: int = 0
    """Campaign Points (§14.1)."""
    issued: int = 0
    """Pilots ever on the roster (the next pilot's letter)."""
    built: int = 0
    """Aircraft ever on the roster (the next aircraft's number)."""
    event: str = "none"
    """The Campaign Event drawn last Evening, in effect today (§11.21)."""
    lost_pilots: int = 0
    """Pilots lost since the last Evening: one replacement draw each (§10.31)."""
    lost_planes: int = 0
    """Aircraft destroyed since the last Evening."""

    def pilot(self, pid: str) -> Pilot:
        return next(p for p in self.pilots if p.id == pid)

    def plane(self, number: int) -> Plane:
        return next(p for p in self.planes if p.id == number)

    def active_pilots(self) -> list[Pilot]:
        return [p for p in self.pilots if p.status != "lost"]

    def active_planes(self) -> list[Plane]:
        return [p for p in self.planes if not p.lost]

    def ready_pilots(self) -> list[Pilot]:
        return [p for p in self.pilots if p.available()]

    def ready_planes(self) -> list[Plane]:
        return [p for p in self.planes if p.flyable()]

    def leaders(self) -> list[Pilot]:
        return [p for p in self.pilots if p.is_leader and p.status != "lost"]

    def add_pilot(self, name: str, quality: Quality, leader: str | None = None) -> Pilot:
        pilot = Pilot(id=letter(self.issued), name=name, quality=quality, leader=leader)
        self.issued += 1
        self.pilots.append(pilot)
        return pilot

    def add_plane(self) -> Plane:
        self.built += 1
        plane = Plane(id=self.built)
        self.planes.append(plane)
        return plane

    # --- repair (Campaign §10.1) ------------------------------------------------------
    def cannibalise(self) -> int:
        """Move hits between damaged aircraft so that as few as possible stay damaged
        (§10.12): each kind of hit an aircraft has (its Wing hit, its Control hit, its
        one or two Engine hits) may go to another damaged aircraft with none of that
        kind. Hits are only moved, never lost, so the Repair Points needed stay the
        same and concentrating them is always the better choice: the campaign makes it
        for the player. An aircraft gives its hits only if all of them find a taker
        (it then flies again). Returns the aircraft freed."""
        freed = 0
        while True:
            damaged = [p for p in self.planes if not p.lost and p.damage]
            if len(damaged) < 2:
                break
            moved = False
            for donor in sorted(damaged, key=lambda p: (p.damage, -p.id)):
                takers = sorted(
                    (p for p in damaged if p is not donor and p.damage),
                    key=lambda p: (-p.damage, p.id),
                )
                plan: dict[str, Plane] = {}
                for kind in HITS:
                    if not donor.hits.get(kind):
                        continue
                    taker = next((t for t in takers if not t.hits.get(kind)), None)
                    if taker is None:
                        break
                    plan[kind] = taker
                else:
                    for kind, taker in plan.items():
                        taker.hits[kind] = donor.hits.pop(kind)
                    freed += 1
                    moved = True
                    break
            if not moved:
                break
        for p in self.planes:
            p.hits = {k: v for k, v in p.hits.items() if v}
        return freed

    def repair(self, points: int) -> int:
        """Spend Repair Points (§10.13), one a hit, on the least damaged aircraft first
        (the most aircraft back in the air). Returns the points spent."""
        spent = 0
        for plane in sorted(
            (p for p in self.planes if not p.lost and p.damage), key=lambda p: (p.damage, p.id)
        ):
            for k in HITS:
                while plane.hits.get(k, 0) and spent < points:
                    plane.hits[k] -= 1
                    spent += 1
            plane.hits = {k: v for k, v in plane.hits.items() if v}
        return spent
