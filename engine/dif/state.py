"""The state of a Down in Flames game: plain data, cheap to copy, JSON round-trip.

A state is never changed once ``apply`` has returned it: :meth:`GameState.clone`
copies it before an action is applied, so a refused action changes nothing and old
states stay valid (replay, undo, tests). Parts a rule changes seldom are shared by a
state and its clone, and copied only when a rule changes them (copy on write):

- the parts of ``fates`` (a bookkeeping only :func:`engine.dif.fates.record` writes,
  which replaces a part with a copy before it changes it);
- the elements, of a dogfight and of a campaign mission alike: a rule changes an
  element only through :meth:`GameState.own_element`, which first puts a copy of it
  in the state's ``elements``, once per clone (``apply`` owns the acting seat's; a
  rule owns another before it draws into its hand or mini-hands, changes its
  altitude or counters, or one of its planes; the mission rules change only the
  acting element's, or planes through :meth:`GameState.own`);
- the planes: a rule changes a plane only through :meth:`GameState.own`, which
  first puts a copy of the plane in the element's place, once per clone (damage,
  a shoot-down, an evasion, the Ace's counter spent);
- a plane's ``pilot`` list: the one rule that changes it in play (the Ace's counter
  spent, :mod:`engine.dif.resolution`) gives the plane a new list;
- the turn's record ``t`` (:class:`TurnState`): a rule changes it only through
  :meth:`GameState.own_turn`, which first puts a copy of it in place, once per clone
  (most actions change none of it: an altitude picked, a discard, a response).

Each ``clone`` makes its copy with ``object.__new__`` and sets every field itself:
the dataclasses' ``__init__``, with its checks for defaults, costs about twice as
much, and ``apply`` pays for a clone with every action (issue 16). A field a clone
forgot is an AttributeError when read (tests/engine/test_state.py compares every
field), never a silent default.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Element", "Exchange", "FollowOffer", "GameState", "Plane", "TurnState"]


@dataclass(slots=True)
class Plane:
    """One aircraft card in play."""

    ref: str
    """``A1L`` (leader of element A1) or ``A1W`` (its wingman)."""
    aircraft: str
    """Aircraft id in the catalogue."""
    role: str
    """``leader`` or ``wingman``."""
    hits: int = 0
    damaged: bool = False
    status: str = "flying"
    """``flying``, ``destroyed`` or ``evaded``."""
    promoted: bool = False
    """A wingman that became the leader (Zero! 11.2)."""
    pilot: list[str] = field(default_factory=list)
    """The leader's pilot skills (PilotSkill values); ``A`` is removed once used.
    Shared by a plane's clones: once the game has started, a new list replaces it,
    it is never changed in place."""

    # A plane is shared by a state and its clones until a rule changes it: change a
    # plane of a cloned state only through GameState.own (the module's docstring).

    @property
    def flying(self) -> bool:
        return self.status == "flying"

    def clone(self) -> Plane:
        c = object.__new__(Plane)
        c.ref, c.aircraft, c.role = self.ref, self.aircraft, self.role
        c.hits, c.damaged, c.status = self.hits, self.damaged, self.status
        c.promoted, c.pilot = self.promoted, self.pilot
        return c


@dataclass(slots=True)
class Element:
    """A leader, its wingman, and the hand of the seat that flies them.

    Shared by a dogfight's state and its clones until a rule changes it: change an
    element of a cloned state only through :meth:`GameState.own_element`, and read
    it again from the state after calling a rule that may have owned it (the module's
    docstring)."""

    seat: str
    side: str
    aircraft: str
    leader: Plane | None
    wingman: Plane | None
    altitude: int | None = None
    pick: int | None = None
    """The secret starting altitude, until every seat has picked (4.5)."""
    hand: list[int] = field(default_factory=list)
    minihand: list[int] = field(default_factory=list)
    """The attacking wingman's mini-hand (10.11)."""
    defence: list[int] = field(default_factory=list)
    """This element's wingman's defensive mini-hand (10.12, 10.63)."""
    lost: list[Plane] = field(default_factory=list)
    """Leaders shot down and replaced by their wingman, kept for victory points."""
    counters: int = 0
    """Full Throttle counters held: a jet's (Speed, Thrust) or a Bf-109G's methanol."""
    cv: bool = False
    """The leader's pilot may still use Combat Vision's one redraw (before play)."""

    @property
    def in_fight(self) -> bool:
        return self.leader is not None and self.leader.flying

    def planes(self) -> list[Plane]:
        """Every aircraft this element started with, in any state."""
        out = list(self.lost)
        if self.leader is not None:
            out.append(self.leader)
        if self.wingman is not None:
            out.append(self.wingman)
        return out

    def clone(self) -> Element:
        """A copy whose lists are its own; its planes are still this element's
        (copied on write: :meth:`GameState.own`)."""
        c = object.__new__(Element)
        c.seat, c.side, c.aircraft = self.seat, self.side, self.aircraft
        c.leader, c.wingman = self.leader, self.wingman
        c.altitude, c.pick = self.altitude, self.pick
        c.hand, c.minihand, c.defence = self.hand[:], self.minihand[:], self.defence[:]
        c.lost = self.lost[:] if self.lost else []
        c.counters, c.cv = self.counters, self.cv
        return c


@dataclass(slots=True)
class Exchange:
    """An attack card and the chain of responses to it (8.3, 8.4)."""

    attacker: str
    """Plane ref of the attacking leader or wingman."""
    target: str
    """Plane ref attacked; for a Vertical Roll, the enemy leader that may stop it."""
    card: int
    kind: str
    """The kind the attack card was played as (``SCI`` for an agile card)."""
    source: str
    """``hand`` (a leader), ``minihand`` (an attacking wingman), ``gunner`` or
    ``bomber`` (a bomber's counter-attack on the fighter that attacked it, §20.52)."""
    chain: list[list[Any]] = field(default_factory=list)
    """Responses so far, alternating defender/attacker: ``[card id, kind as played]``."""
    direction: int = 0
    """For a Vertical Roll: +1 climbing, -1 diving."""
    climb_discard: int | None = None

    @property
    def last_kind(self) -> str:
        return str(self.chain[-1][1]) if self.chain else self.kind

    @property
    def defender_to_move(self) -> bool:
        return len(self.chain) % 2 == 0

    def clone(self) -> Exchange:
        c = object.__new__(Exchange)
        c.attacker, c.target, c.card = self.attacker, self.target, self.card
        c.kind, c.source, c.chain = self.kind, self.source, [r[:] for r in self.chain]
        c.direction, c.climb_discard = self.direction, self.climb_discard
        return c


@dataclass(slots=True)
class FollowOffer:
    """An enemy element may follow an altitude change (7.21d, 7.22)."""

    mover: str
    follower: str
    direction: int
    vertical: bool

    def clone(self) -> FollowOffer:
        return FollowOffer(self.mover, self.follower, self.direction, self.vertical)


@dataclass(slots=True)
class TurnState:
    """What the active element has done so far in its player-turn."""

    bursts_used: int = 0
    wm_bonus: int = 0
    """Extra bursts earned against a wingman by MAN (+1) and HAL (+2) (10.61)."""
    target: str | None = None
    """The one aircraft the leader attacks this turn (8.21, 8.5b)."""
    wm_target: str | None = None
    agile_used: bool = False
    played: bool = False
    """A card was played in the Play Cards step (giving up position must come first)."""
    gun_used: int = 0
    """Gunner / machine-gun bursts fired this turn (9.23)."""
    fut_used: bool = False
    """A Ta-152H-1 has played a card as Full Throttle this turn (RotL L330-332)."""
    start_alt: int | None = None
    """The active element's altitude when its turn began."""
    moved: bool = False
    """The active element changed altitude this turn."""
    level: list[str] | None = None
    """Enemy elements at the leader's altitude when it played its first card of the
    Play Cards step (RotL "Altitude Attack Restrictions", L212-214); None before it.
    A state stored before this field existed loads with None: no restriction."""
    roll_first: bool = False
    """That first card was a Vertical Roll played while not Engaged, so the leader may
    attack aircraft at the altitude it rolled to (RotL L214)."""
    held: list[str] | None = None
    """Enemy leaders the active leader was Advantaged on or Tailing when its
    player-turn began: the only positions it may give up (6.36, RotL L170). A state
    stored before this field existed loads with None: any position may be given up."""

    def clone(self) -> TurnState:
        c = object.__new__(TurnState)
        c.bursts_used, c.wm_bonus = self.bursts_used, self.wm_bonus
        c.target, c.wm_target = self.target, self.wm_target
        c.agile_used, c.played, c.gun_used = self.agile_used, self.played, self.gun_used
        c.fut_used, c.start_alt, c.moved = self.fut_used, self.start_alt, self.moved
        c.level = self.level[:] if self.level is not None else None
        c.roll_first = self.roll_first
        c.held = self.held[:] if self.held is not None else None
        return c


class _Owned:
    """The planes and elements a cloned state owns, and the turn's record it shares,
    kept outside the dataclass' fields (so never dumped, compared or shown): see
    :meth:`GameState.own`, :meth:`GameState.own_element` and
    :meth:`GameState.own_turn`."""

    __slots__ = ("_owned", "_owned_elements", "_shared_turn")
    _owned: list[Plane] | None
    _owned_elements: set[str] | None
    _shared_turn: TurnState | None

    def _owning(
        self,
        planes: list[Plane] | None,
        elements: set[str] | None,
        turn: TurnState | None = None,
    ) -> None:
        """Set the planes and the elements' seats owned (None: all) and the turn's
        record shared with another state (None: none). Here, where the slots are
        declared: mypy does not see them in a dataclass' own ``__slots__``."""
        self._owned = planes
        self._owned_elements = elements
        self._shared_turn = turn

    def _unshare_turn(self) -> None:
        """Share no turn record any more (:meth:`GameState.own_turn` copied it)."""
        self._shared_turn = None


@dataclass(slots=True)
class GameState(_Owned):
    """A whole game. ``step`` is one of the constants in :mod:`engine.dif.game`."""

    ruleset: str
    seed: int
    rng: int
    year: int
    max_turns: int | None
    elements: dict[str, Element]
    deck: list[int]
    """Draw pile; the top card is the last item."""
    discard: list[int] = field(default_factory=list)
    in_play: list[int] = field(default_factory=list)
    """Cards played this turn (Zero! 8.45) or this exchange (RotL), not yet discarded."""
    positions: dict[str, int] = field(default_factory=dict)
    """``"A1|X1"`` (seats sorted) -> position of the first leader on the second."""
    order: list[str] = field(default_factory=list)
    turn: int = 0
    index: int = 0
    step: str = "setup"
    t: TurnState = field(default_factory=TurnState)
    exchange: Exchange | None = None
    follow: FollowOffer | None = None
    first_side: str | None = None
    aircraft_at_start: int = 0
    result: dict[str, Any] | None = None
    bonus: dict[str, int] = field(default_factory=dict)
    """VP given at the start to a side by the balancing rule 13.1 (side -> VP)."""
    pending_order: list[str] | None = None
    """A player order fixed by the setup (tests), kept while Combat Vision redraws."""
    fates: dict[str, Any] = field(default_factory=dict)
    """Who did what to whom so far (:mod:`engine.dif.fates`): bookkeeping for the
    outcome and the report, never read by a rule."""
    mission: dict[str, Any] | None = None
    """A Zero! campaign mission's own state (:mod:`engine.dif.bombing`); None in a
    dogfight, whose dump stays as it was (not written)."""

    def __post_init__(self) -> None:
        self._owning(None, None)  # a state made whole (new game, loaded) owns every part

    @property
    def active(self) -> str | None:
        if self.step in ("setup", "over", "order", "redraw") or self.index >= len(self.order):
            return None
        return self.order[self.index]

    def clone(self) -> GameState:
        c = object.__new__(GameState)
        c.ruleset, c.seed, c.rng, c.year = self.ruleset, self.seed, self.rng, self.year
        c.max_turns = self.max_turns
        c.elements = dict(self.elements)  # shared, copied on write (own_element)
        c.deck, c.discard, c.in_play = self.deck[:], self.discard[:], self.in_play[:]
        c.positions, c.order = dict(self.positions), self.order[:]
        c.turn, c.index, c.step = self.turn, self.index, self.step
        c.t = self.t  # shared, copied on write (own_turn)
        c.exchange = self.exchange.clone() if self.exchange else None
        c.follow = self.follow.clone() if self.follow else None
        c.first_side, c.aircraft_at_start = self.first_side, self.aircraft_at_start
        c.result = dict(self.result) if self.result is not None else None
        c.bonus = dict(self.bonus)
        c.pending_order = self.pending_order[:] if self.pending_order is not None else None
        c.fates = dict(self.fates)  # its parts are copied on write (engine.dif.fates.record)
        c.mission = copy.deepcopy(self.mission) if self.mission is not None else None
        c._owning([], set(), self.t)
        return c

    def own_turn(self) -> TurnState:
        """The turn's record (:attr:`t`), to change: a rule changes it only through
        this (reading ``t`` is free). A clone shares it with the state it was cloned
        from; the first time it is asked for, a copy takes its place and is returned,
        then and every later time. A record a rule put in place itself (a new
        player-turn's) and a state made whole (a new game, a loaded one) own theirs."""
        t = self.t
        if t is getattr(self, "_shared_turn", None):
            t = self.t = t.clone()
            self._unshare_turn()
        return t

    def own_element(self, seat: str) -> Element:
        """The element of ``seat``, to change: a rule changes an element of a cloned
        state only through this. The clone shares its elements with the state it was
        cloned from; the first time an element is asked for, a copy takes its place
        (its lists its own, its planes still shared: :meth:`own`), and that copy is
        returned, then and every later time. A reference to the element taken before
        is the shared one: read the element again after owning it.

        A state made whole (a new game, a loaded one) owns every element: the
        element itself."""
        e = self.elements[seat]
        owned = getattr(self, "_owned_elements", None)
        if owned is None or seat in owned:
            return e
        mine = e.clone()
        self.elements[seat] = mine
        owned.add(seat)
        return mine

    def own(self, plane: Plane) -> Plane:
        """``plane``, to change: a rule changes a plane of a cloned state only through
        this. The clone shares its planes with the state it was cloned from; the first
        time a plane is asked for, a copy takes its place in its element (leader,
        wingman or lost; the element owned first: :meth:`own_element`), and that copy
        is returned, then and every later time.

        A plane no element holds any more (a wingman promoted while a loop still
        holds it) is copied too, and the copy put nowhere: the rule may change it,
        the state it was cloned from keeps its own. A state made whole (a new game,
        a loaded one) owns every plane: ``plane`` itself."""
        owned = getattr(self, "_owned", None)
        if owned is None or any(q is plane for q in owned):
            return plane
        mine = plane.clone()
        owned.append(mine)
        for seat, e in self.elements.items():
            if e.leader is plane:
                self.own_element(seat).leader = mine
            elif e.wingman is plane:
                self.own_element(seat).wingman = mine
            else:
                for i, q in enumerate(e.lost):
                    if q is plane:
                        self.own_element(seat).lost[i] = mine
        return mine

    def adopt(self, plane: Plane) -> Plane:
        """A plane a rule has just made for this state (a promoted wingman, 11.2): its
        own, so :meth:`own` returns it as it is."""
        owned = getattr(self, "_owned", None)
        if owned is not None:
            owned.append(plane)
        return plane

    # -- JSON -------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if self.mission is None:
            del data["mission"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        d = dict(data)

        def plane(p: dict[str, Any] | None) -> Plane | None:
            return Plane(**p) if p is not None else None

        d["elements"] = {
            seat: Element(
                **{
                    **e,
                    "leader": plane(e["leader"]),
                    "wingman": plane(e["wingman"]),
                    "lost": [Plane(**p) for p in e["lost"]],
                }
            )
            for seat, e in data["elements"].items()
        }
        d["t"] = TurnState(**data["t"])
        d["exchange"] = Exchange(**data["exchange"]) if data["exchange"] else None
        d["follow"] = FollowOffer(**data["follow"]) if data["follow"] else None
        return cls(**d)
