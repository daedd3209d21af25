"""The state of an Eagles in the Sky engagement: plain data, cheap to copy, JSON
round-trip.

A state is never shared between two versions of a game: :meth:`GameState.clone`
copies it before an action is applied, so a refused action changes nothing and old
states stay valid (replay, undo, tests). Cards are their numbers (1-110); enums are
stored as their values.

The play mat is not stored as displays: who tails whom is. Each aircraft records the
enemy it tails and its Position Level (§9.31); a dogfight is a connected group of
that relation (§9.11-9.13), so a dogfight splits (§9.5) and ends (§9.63) by itself
when links go. Each dogfight keeps the display number it was given (``display``), so
a player reading "dogfight 2" in two posts hours apart reads the same fight.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Fire", "GameState", "Pending", "Plane"]

FLYING = "flying"
SHOT_DOWN = "shot_down"
ESCAPED = "escaped"
REMOVED = "removed"
LANDED = "landed"
"""A balloon lowered below Treetop (§15.23)."""


@dataclass(slots=True)
class Plane:
    """One aircraft (or balloon) on the play mat."""

    ref: str
    """``A1``... for the Allies, ``G1``... for the Germans."""
    side: str
    aircraft: str
    """Aircraft id in the data, or ``balloon``."""
    kind: str
    """``scout``, ``two_seater`` or ``balloon``."""
    quality: str = "experienced"
    """Pilot quality (§14.1): green, inexperienced, experienced, leader, ace."""
    leader: str | None = None
    """The flight leader's or ace's id (quality ``leader`` / ``ace``)."""
    mission: bool = False
    """A Mission aircraft, not part of the Flight (§16.13)."""
    original: bool = True
    """Part of the original Flight (§7.11, §16.31), not added by a Random Event."""
    altitude: int = 1
    """An :class:`Altitude` value (0 Treetop ... 3 High)."""
    start_altitude: int = 1
    """Its altitude at the start (spotting and photographing need it, §16.42-16.43)."""
    tailing: str | None = None
    """The enemy it tails (§9.31)."""
    level: int = 0
    """Its Position Level over that enemy (1-6, §9.35)."""
    climb: int = 0
    """Climb progress toward the next altitude (§11.45)."""
    display: int | None = None
    """The dogfight display it is on; None when Unengaged."""
    activated: bool = False
    damage: dict[str, int] = field(default_factory=dict)
    """Hits taken by kind (structure, wing, control, engine, §10.83-10.86)."""
    crew: dict[str, str] = field(default_factory=dict)
    """Each crewman's state (``pilot``, ``gunner``, ``front``): ok, wounded, killed."""
    guns: dict[str, str] = field(default_factory=dict)
    """Each gun group's state (``fixed``, ``rear``, ``front``): ok, jammed, broken."""
    lewis: str = ""
    """A wing Lewis gun's ammunition (§15.4): full, low, out; "" without one."""
    bombs: int = 0
    """Bomb points carried (§15.3)."""
    rockets: bool = False
    """Le Prieur rockets carried (§15.5)."""
    incendiary: bool = False
    """Incendiary ammunition (§15.6)."""
    on_ground: bool = False
    """On its airfield (§16.47)."""
    balloon_attacked: bool = False
    """A balloon attacked at least once (it may then descend, §15.24)."""
    status: str = FLYING
    by: str | None = None
    """The ref of the aircraft that shot it down (or the cause: ``flak``, ``crash``,
    ``collision``, ``ground``)."""
    lost_turn: int | None = None
    lost_engagement: int | None = None
    """Which engagement of a series it was lost in."""
    kills: list[str] = field(default_factory=list)
    """Refs of the enemy aircraft and balloons it shot down."""
    traits: list[str] = field(default_factory=list)
    """What this aircraft and pilot can do beyond the counter, fixed at the start: the
    ace's abilities (§18.0; ``*`` at the end: lost while the ace is wounded) and the
    optional per-aircraft rules in play (§13.7: ``easy_handling``, ``spad_engine``)."""
    used: list[str] = field(default_factory=list)
    """Abilities used (``medal`` once an engagement; ``snap``, ``plus`` once a turn)."""
    escaped_turn: int | None = None
    # -- a Campaign Game's pilot and aircraft -------------------------------------------
    pilot_id: str | None = None
    """The campaign's id of the pilot (Campaign §5.43)."""
    fatigue: int = 0
    """His Fatigue Points (Campaign §8.1)."""
    exhausted: bool = False
    """An Exhausted pilot (Campaign §8.22): ``quality`` is already the one he flies as;
    his ratings and asterisked abilities are lowered where they are read."""
    engine_out: bool = False
    """Left the mat with a second Engine hit (Campaign §5.64, §10.86)."""
    damaged_by: str | None = None
    """The last enemy aircraft that damaged it: credited if the campaign's Safe Return
    loses it (Campaign §9.32)."""

    @property
    def flying(self) -> bool:
        return self.status == FLYING

    @property
    def balloon(self) -> bool:
        return self.kind == "balloon"

    def has(self, trait: str) -> bool:
        """The aircraft has ``trait`` now: an asterisked ace ability is lost while the
        ace is wounded (§18.0)."""
        if trait in self.traits:
            return True
        # An Exhausted Ace loses them too (Campaign §8.22).
        return f"{trait}*" in self.traits and self.crew.get("pilot") == "ok" and not self.exhausted

    def clone(self) -> Plane:
        return Plane(
            self.ref,
            self.side,
            self.aircraft,
            self.kind,
            self.quality,
            self.leader,
            self.mission,
            self.original,
            self.altitude,
            self.start_altitude,
            self.tailing,
            self.level,
            self.climb,
            self.display,
            self.activated,
            dict(self.damage),
            dict(self.crew),
            dict(self.guns),
            self.lewis,
            self.bombs,
            self.rockets,
            self.incendiary,
            self.on_ground,
            self.balloon_attacked,
            self.status,
            self.by,
            self.lost_turn,
            self.lost_engagement,
            list(self.kills),
            list(self.traits),
            list(self.used),
            self.escaped_turn,
            self.pilot_id,
            self.fatigue,
            self.exhausted,
            self.engine_out,
            self.damaged_by,
        )


@dataclass(slots=True)
class Fire:
    """One declared attack of an activation (§10.14: all announced, then resolved)."""

    shooter: str
    target: str
    fv: int
    guns: int
    """How many guns fire: the column of the damage table (1 or 2)."""
    group: str
    """Which guns: ``fixed``, ``rear``, ``front``."""
    kind: str
    """``tailing``, ``headon``, ``gunner``, ``formation``."""


@dataclass(slots=True)
class Pending:
    """A Targeted Activation waiting for the target's Response (§8.27 b), or an
    altitude change waiting for followers (§11.51), or a Random Event's choice."""

    kind: str
    """``respond``, ``follow``, ``place``, ``remove``, ``convert``, ``consent``;
    in a campaign ``withdraw`` (§12.10) and ``trouble`` (§12.3)."""
    side: str
    """The side that decides."""
    action: str = ""
    """The activation's canonical text (``respond``)."""
    actor: str | None = None
    target: str | None = None
    total: int = 0
    """The activating aircraft's total (§8.27 a)."""
    symbol: str | None = None
    """The Maneuver symbol the activating card was used with."""
    chain: list[str] = field(default_factory=list)
    """``follow``: the aircraft still to decide, in order (§11.51); ``place``: the
    altitudes to choose from; ``remove``, ``trouble``: the candidates."""
    moved: list[str] = field(default_factory=list)
    """``follow``: the aircraft that changed altitude so far; ``place``: the rest of
    the flight joining with ``actor``."""
    direction: int = 0
    """``follow``: -1 a dive, +1 a climb; 0 a balloon's descent (§15.26)."""
    data: dict[str, Any] = field(default_factory=dict)

    def clone(self) -> Pending:
        return Pending(
            self.kind,
            self.side,
            self.action,
            self.actor,
            self.target,
            self.total,
            self.symbol,
            self.chain[:],
            self.moved[:],
            self.direction,
            dict(self.data),
        )


@dataclass(slots=True)
class GameState:
    """An engagement (or a scenario's series of engagements) in play."""

    setup: dict[str, Any]
    rng: int
    deck: list[int] = field(default_factory=list)
    """The draw pile, top last."""
    discards: list[int] = field(default_factory=list)
    hands: dict[str, list[int]] = field(default_factory=dict)
    """Each side's hand (one hand per side, shared by its seats)."""
    planes: list[Plane] = field(default_factory=list)
    seats: dict[str, list[str]] = field(default_factory=dict)
    """Each side's seats."""
    turn: int = 1
    turns: int = 8
    engagement: int = 1
    """Which engagement of a scenario's series (§17.0 scenarios 1 and 7)."""
    phase: str = "activation"
    """``discard`` (Card Draw Phase), ``activation``, ``over``."""
    initiative: str = "german"
    to_act: str = "german"
    passes: int = 0
    """Consecutive passes (§4.4: three end the phase)."""
    pending: Pending | None = None
    discard_picks: dict[str, list[int] | None] = field(default_factory=dict)
    """``discard`` phase: each side's secret discards (None: not chosen yet)."""
    hand_rating: dict[str, str] = field(default_factory=dict)
    """``leadership`` or ``flying``: what sets each side's hand size (§7.11)."""
    hand_size: dict[str, int] = field(default_factory=dict)
    """Each side's hand size, fixed at the Card Draw Phase (§7.13)."""
    vp: dict[str, int] = field(default_factory=dict)
    """Engagement Victory Points scored during play (§16.4), by side."""
    photo_vp: dict[str, int] = field(default_factory=dict)
    """Photo-Recon points, scored only if the photographer survives (§16.43), by ref."""
    glory: dict[str, int] = field(default_factory=dict)
    """Glory Points for Aces shot down (§14.63), by side; the rest is counted at the
    end (:meth:`~engine.eagles.score.Scoring.earned_glory`)."""
    clouds: int | None = None
    """The altitude of the Clouds marker (§5.1), once drawn."""
    event: str | None = None
    """This turn's Random Event."""
    results: list[dict[str, Any]] = field(default_factory=list)
    """Finished engagements of a series: their result (§17.0 scenarios 1 and 7)."""
    winner: str | None = None
    next_ref: dict[str, int] = field(default_factory=dict)
    cup: list[str] = field(default_factory=list)
    """Aircraft types still in the cup (§3.52), for Random Events."""
    offered: list[str] = field(default_factory=list)
    """Sides that proposed this turn to end the Activation Phase (§4.4): once a turn."""
    # -- a Campaign Game's Engagement (Campaign §5.41, §12) ---------------------------
    specials: list[str] = field(default_factory=list)
    """The Special Events that happened (§12: several only once an Engagement)."""
    lucky_shot: bool = False
    """This turn's first attack hits (Lucky Shot, §12.6), until it is made."""
    sun: str | None = None
    """The side that may, this turn, make one Targeted Activation out of the sun (§12.7)."""
    weather: str | None = None
    """The weather a Special Event changed (Clearing Skies, Wind Change, §12.2, §12.9);
    None: the setup's."""
    weather_turn: int | None = None
    """The turn it changed."""
    storm: int | None = None
    """A thunderstorm's altitude: an aircraft diving to it or below is attacked and
    escapes (§12.8)."""
    withdrew: str | None = None
    """The side that withdrew (§12.10)."""
    leads: dict[str, list[list[str]]] = field(default_factory=dict)
    """Each side's Flight Leaders who may set its hand size, first the one who does:
    ``[ref, rating]`` (Campaign §5.41, §12.1, §12.4-12.5)."""

    def clone(self) -> GameState:
        return GameState(
            setup=self.setup,
            rng=self.rng,
            deck=self.deck[:],
            discards=self.discards[:],
            hands={k: v[:] for k, v in self.hands.items()},
            planes=[p.clone() for p in self.planes],
            seats={k: v[:] for k, v in self.seats.items()},
            turn=self.turn,
            turns=self.turns,
            engagement=self.engagement,
            phase=self.phase,
            initiative=self.initiative,
            to_act=self.to_act,
            passes=self.passes,
            pending=self.pending.clone() if self.pending else None,
            discard_picks={
                k: (v[:] if v is not None else None) for k, v in self.discard_picks.items()
            },
            hand_rating=dict(self.hand_rating),
            hand_size=dict(self.hand_size),
            vp=dict(self.vp),
            photo_vp=dict(self.photo_vp),
            glory=dict(self.glory),
            clouds=self.clouds,
            event=self.event,
            results=[dict(r) for r in self.results],
            winner=self.winner,
            next_ref=dict(self.next_ref),
            cup=self.cup[:],
            offered=self.offered[:],
            specials=self.specials[:],
            lucky_shot=self.lucky_shot,
            sun=self.sun,
            weather=self.weather,
            weather_turn=self.weather_turn,
            storm=self.storm,
            withdrew=self.withdrew,
            leads={k: [e[:] for e in v] for k, v in self.leads.items()},
        )

    def plane(self, ref: str) -> Plane:
        for p in self.planes:
            if p.ref == ref:
                return p
        raise KeyError(ref)

    def find(self, ref: str) -> Plane | None:
        for p in self.planes:
            if p.ref == ref:
                return p
        return None

    def dump(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def load(cls, data: dict[str, Any]) -> GameState:
        d = dict(data)
        d["planes"] = [Plane(**p) for p in d.get("planes", [])]
        pend = d.get("pending")
        d["pending"] = Pending(**pend) if pend else None
        return cls(**d)
