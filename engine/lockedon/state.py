"""The state of a Locked-On game: plain data, cheap to copy, JSON round-trip.

A state is never shared between two versions of a game: :meth:`GameState.clone`
copies it before an action is applied, so a refused action changes nothing and old
states stay valid (replay, undo, tests). Cards are ints (indices into the engine's
card list); enums are stored as their int or str values.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "Exchange",
    "FollowOffer",
    "GameState",
    "Launch",
    "Mission",
    "Plane",
    "Prompt",
    "SiteAttack",
    "TurnState",
]


@dataclass(slots=True)
class Plane:
    """One aircraft in the fight, flown by one seat (seats are per aircraft, L396)."""

    seat: str
    side: str
    aircraft: str
    """Aircraft id in the data."""
    value: int
    """Its VP in this dogfight (missiles, the modifier rule and skills counted, L23-24,
    L327): what the side that shoots it down scores."""
    range: int = 3
    """Its own Range counter (a :class:`Range` value): every aircraft starts at Active
    Homing (L80)."""
    altitude: int | None = None
    """An :class:`Altitude` value; None until the secret picks are revealed (L76)."""
    pick: int | None = None
    """The secret starting altitude, until every seat has picked."""
    hand: list[int] = field(default_factory=list)
    side_hand: list[int] = field(default_factory=list)
    """Aircraft Expertise: the cards set aside at the start (L373)."""
    ab_left: int = 0
    """Afterburner counters not used yet: 2 with afterburners (L72), each used once."""
    ab_on: bool = False
    missiles: dict[str, int] = field(default_factory=dict)
    """Missiles carried, by id (L26-27)."""
    cm: int = 0
    """Countermeasures counters left (L266-268)."""
    skills: list[str] = field(default_factory=list)
    mods: dict[str, int] = field(default_factory=dict)
    """Rating changes from skills (:class:`Rating` value -> change), fixed at the start."""
    used: list[str] = field(default_factory=list)
    """Once-per-game skills already used (Gun Fighter, Alert, Lucky, Jink, Agile,
    Timely)."""
    expertise_turn: int = -1
    """The aircraft turn (``GameState.turns``) in which it last played an Aircraft
    Expertise card: one per aircraft turn (L373)."""
    status: str = "flying"
    """``flying`` or ``destroyed``."""
    by: str | None = None
    """The seat that shot it down."""
    lost_round: int | None = None

    @property
    def flying(self) -> bool:
        return self.status == "flying"

    def clone(self) -> Plane:
        return Plane(
            self.seat,
            self.side,
            self.aircraft,
            self.value,
            self.range,
            self.altitude,
            self.pick,
            self.hand[:],
            self.side_hand[:],
            self.ab_left,
            self.ab_on,
            dict(self.missiles),
            self.cm,
            self.skills[:],
            dict(self.mods),
            self.used[:],
            self.expertise_turn,
            self.status,
            self.by,
            self.lost_round,
        )


@dataclass(slots=True)
class Exchange:
    """An Action and the cycle of reactions to it (L133-137), or a Missile attack
    (L259-265).

    ``kind``: ``pos`` / ``range`` (Maneuvering with a card or a Speed point), ``guns``,
    ``tone``, ``missile``, ``barrel`` (Barrel Roll), ``scissors``, ``vr`` (Vertical
    Roll).
    """

    kind: str
    actor: str
    """The acting aircraft (seat)."""
    target: str | None
    """The enemy aimed at, or the one that may react; None: nobody may react."""
    title: str
    """What the Action is called for reactions: ``Maneuvering``, ``Guns``, ``Tone``,
    ``Missile``, ``Altitude``, ``Barrel Roll``, ``Scissors`` (L133, L140, L183)."""
    card: int | None = None
    """The Action's card (None for a Speed point and a launch)."""
    speed: bool = False
    """A Speed Maneuvering point (L112)."""
    chain: list[list[Any]] = field(default_factory=list)
    """Reactions so far: ``[seat, card id (-1: a Countermeasures counter), title]``."""
    n: int = 0
    """Positions (``pos``), missiles launched (``missile``), +1/-1 (``vr``)."""
    own: int = 0
    enemy: int = 0
    missile: str | None = None
    aside: list[int] = field(default_factory=list)
    """A Vertical Roll's climb discard, set aside until it succeeds (L180)."""
    mini: list[int] = field(default_factory=list)
    """The Missile's mini-hand, private to the attacker (L250-251)."""
    teamwork: bool = True
    """Teamwork may still add a reaction to this Action (L402)."""
    asking: list[str] = field(default_factory=list)
    """Friendly aircraft of the target still to be asked for a Teamwork card."""
    alert: bool = False
    """The target may still use Alert (right after a launch, L344)."""
    cm_played: int = 0

    @property
    def last_seat(self) -> str:
        return str(self.chain[-1][0]) if self.chain else self.actor

    @property
    def last_title(self) -> str:
        return str(self.chain[-1][2]) if self.chain else self.title

    def clone(self) -> Exchange:
        return Exchange(
            self.kind,
            self.actor,
            self.target,
            self.title,
            self.card,
            self.speed,
            [c[:] for c in self.chain],
            self.n,
            self.own,
            self.enemy,
            self.missile,
            self.aside[:],
            self.mini[:],
            self.teamwork,
            self.asking[:],
            self.alert,
            self.cm_played,
        )


@dataclass(slots=True)
class Launch:
    """A Tone was successful: its attacker may launch the declared missile (L248)."""

    seat: str
    target: str
    missile: str
    cards: int
    """The Tone card's change to the mini-hand (Strong +1, Tone / Guns -1, L178)."""

    def clone(self) -> Launch:
        return Launch(self.seat, self.target, self.missile, self.cards)


@dataclass(slots=True)
class FollowOffer:
    """An aircraft Advantaged on or Tailing ``mover`` may follow its altitude change
    (L229-236)."""

    seat: str
    mover: str
    direction: int
    """+1 climbing, -1 diving."""

    def clone(self) -> FollowOffer:
        return FollowOffer(self.seat, self.mover, self.direction)


@dataclass(slots=True)
class Prompt:
    """A one-off decision outside the turn's steps: ``batturn`` (L369) or ``trim``
    (Edge of Envelope, L372)."""

    kind: str
    seat: str

    def clone(self) -> Prompt:
        return Prompt(self.kind, self.seat)


@dataclass(slots=True)
class Mission:
    """A campaign mission's rules in play (:class:`~engine.lockedon.setup.MissionRules`,
    L269-314)."""

    number: int
    title: str
    vp: dict[str, int]
    """The VP stated for each side (L281, L305-308)."""
    sites: dict[str, list[str]]
    """The SAM/AAA site ids each side owns (L290-300)."""
    points: dict[str, int] = field(default_factory=dict)
    """NFOD's Campaign points (L364), by the seat credited with them."""
    names: dict[str, str] = field(default_factory=dict)
    """The nation each side flies for ('Israel'), when the campaign names them."""

    def clone(self) -> Mission:
        return Mission(
            self.number,
            self.title,
            dict(self.vp),
            {k: v[:] for k, v in self.sites.items()},
            dict(self.points),
            dict(self.names),
        )


@dataclass(slots=True)
class SiteAttack:
    """A SAM/AAA site drew a card it looks for: ``target`` must react once to one of
    ``titles`` (``Tone``, ``Guns``) or be Destroyed (L296-298)."""

    site: str
    """The site's id."""
    side: str
    """The side owning it."""
    target: str
    titles: list[str]

    def clone(self) -> SiteAttack:
        return SiteAttack(self.site, self.side, self.target, self.titles[:])


@dataclass(slots=True)
class TurnState:
    """What the active aircraft has done so far in its turn."""

    bonus: int = 0
    """Extra cards for the next Missile attack this turn (Break, Yo-Yo, L170, L181)."""
    speed_points: int = 0
    """Free Speed Maneuvering points this turn (L111)."""
    speed_used: dict[str, int] = field(default_factory=dict)
    """Points used against each enemy."""

    def clone(self) -> TurnState:
        return TurnState(self.bonus, self.speed_points, dict(self.speed_used))


@dataclass(slots=True)
class GameState:
    """A whole game. ``step`` is ``setup``, ``first``, ``next``, a turn step
    (``afterburner``, ``predraw``, ``altitude``, ``speed``, ``play``, ``postdraw``) or
    ``over``."""

    seed: int
    rng: int
    rounds: int
    planes: dict[str, Plane]
    deck: list[int]
    """Draw pile; the top card is the last item."""
    sides: list[str]
    """Sides in turn order (cyclic, L390)."""
    teamwork: bool = False
    ffa: bool = False
    discard: list[int] = field(default_factory=list)
    in_play: list[int] = field(default_factory=list)
    """Cards of the exchange being resolved (L137)."""
    positions: dict[str, int] = field(default_factory=dict)
    """``"A1|B1"`` (seats sorted) -> the first aircraft's position on the second."""
    step: str = "setup"
    round: int = 1
    turns: int = 0
    """Aircraft turns begun so far (Aircraft Expertise counts one card per turn)."""
    active: str | None = None
    acted: list[str] = field(default_factory=list)
    """Aircraft that have taken their turn this round."""
    last_side: str | None = None
    next_side: str | None = None
    """The side naming its next aircraft (step ``next``)."""
    chooser: str | None = None
    """The seat choosing to go first or second (step ``first``)."""
    first_side: str | None = None
    """A side fixed by the setup to go first (tests), used at the reveal."""
    t: TurnState = field(default_factory=TurnState)
    exchange: Exchange | None = None
    launch: Launch | None = None
    follows: list[FollowOffer] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    result: dict[str, Any] | None = None
    mission: Mission | None = None
    """A campaign mission's rules; None: a dogfight."""
    angles: list[list[str]] = field(default_factory=list)
    """``[seat, skill]`` of each 90° / 0° Angle still to be used at the start (L343,
    L356), step ``angle``."""
    site_checks: list[str] = field(default_factory=list)
    """``"side:site"`` of the enemy sites still to check the active aircraft at the
    start of its Play Cards step (L296)."""
    site: SiteAttack | None = None
    """A site attack the active aircraft must react to (L297-298)."""

    def clone(self) -> GameState:
        return GameState(
            self.seed,
            self.rng,
            self.rounds,
            {k: p.clone() for k, p in self.planes.items()},
            self.deck[:],
            self.sides[:],
            self.teamwork,
            self.ffa,
            self.discard[:],
            self.in_play[:],
            dict(self.positions),
            self.step,
            self.round,
            self.turns,
            self.active,
            self.acted[:],
            self.last_side,
            self.next_side,
            self.chooser,
            self.first_side,
            self.t.clone(),
            self.exchange.clone() if self.exchange else None,
            self.launch.clone() if self.launch else None,
            [f.clone() for f in self.follows],
            [p.clone() for p in self.prompts],
            dict(self.result) if self.result is not None else None,
            self.mission.clone() if self.mission else None,
            [a[:] for a in self.angles],
            self.site_checks[:],
            self.site.clone() if self.site else None,
        )

    # -- JSON -------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The state as JSON values; a dogfight's leaves out the mission's fields, so
        its stored form is what it always was."""
        data = asdict(self)
        for key in _MISSION_FIELDS:
            if not data[key]:
                del data[key]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        d = dict(data)
        d["planes"] = {seat: Plane(**p) for seat, p in data["planes"].items()}
        d["t"] = TurnState(**data["t"])
        d["exchange"] = Exchange(**data["exchange"]) if data["exchange"] else None
        d["launch"] = Launch(**data["launch"]) if data["launch"] else None
        d["follows"] = [FollowOffer(**f) for f in data["follows"]]
        d["prompts"] = [Prompt(**p) for p in data["prompts"]]
        if d.get("mission"):
            d["mission"] = Mission(**d["mission"])
        if d.get("site"):
            d["site"] = SiteAttack(**d["site"])
        return cls(**d)


_MISSION_FIELDS = ("mission", "angles", "site_checks", "site")
"""State fields only a campaign mission uses (omitted from the JSON when empty)."""
