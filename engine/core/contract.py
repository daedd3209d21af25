"""The game-system contract: what every rule system implements, and what the bot reads.

A game is ``(system, setup, seed, action log)``. A system is pure: no Discord, no
asyncio, no database. The generic layers (``bot/``, ``cogs/``, the conformance
runner, the demo, the benches) reach a system only through this contract and the
registry (:mod:`engine.core.registry`), and never name one system's terms.

The contract was drawn from two systems at once:

* **Down in Flames** (``dif``): elements (a leader and its wingman) on two sides,
  five altitudes, bursts and hits, a wingman's mini-hand, a side choosing which of
  its elements plays next on the first turn, Victory Points by side at the end.
* **Locked-On** (``lockedon``): single jets on two teams (or every player a side in a
  free-for-all), three altitudes and four range bands, missiles with a mini-hand
  drawn for the attacker, a team choosing which aircraft takes its turn, a shoot-down
  ending the game at once or a draw after six rounds.

What they share is what is here: secret simultaneous picks (both pick a starting
altitude), own-turn decisions, responses to an opponent's card (which arrive by DM and
have their own deadlines), decisions any player of a side may take (which element or
aircraft plays next), a passive default for a deadline, canonical notation, a public
form of each action, actions that cannot be taken back (a draw, a shuffle, a reveal),
and a typed outcome (winner, VP by side, each aircraft's fate and who caused it).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from engine.core.events import Event

if TYPE_CHECKING:
    from engine.core.present import Presenter

__all__ = [
    "COMPUTER_LEVELS",
    "DEFAULT_COMPUTER_LEVEL",
    "Action",
    "AircraftChoice",
    "AircraftFate",
    "ComputerPlayer",
    "Decision",
    "Fate",
    "GameSystem",
    "HostedSystem",
    "Outcome",
    "RulesetInfo",
    "Sampling",
    "Scope",
    "SeatPick",
    "SideInfo",
    "Timing",
]


class Timing(StrEnum):
    """When a decision is taken, which sets its deadline and how it is asked."""

    TURN = "turn"
    """On the seat's own turn (play cards, adjust altitude, discard and draw...)."""
    RESPONSE = "response"
    """Answering another seat's action now (respond to a card, follow a climb, react to
    a missile): asked by DM, with the shorter response deadline."""
    SIMULTANEOUS = "simultaneous"
    """A secret choice every seat makes at once, revealed when all have chosen (the
    starting altitude in both systems)."""


class Scope(StrEnum):
    """Who may take a decision."""

    SEAT = "seat"
    """The seat's own player."""
    SIDE = "side"
    """Any player of the decision's side (which element / aircraft of the side plays
    next): the same decision is pending for each of the side's seats, and the first
    answer settles it for all."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision some seat must take now.

    ``kind`` is the system's own name for it (``play``, ``respond``, ``altitude``...):
    it keys the system's words for the decision and its prompt, and it tells two
    pending decisions of one seat apart. Generic code reads ``timing`` and ``scope``,
    never ``kind``'s values.
    """

    seat: str
    kind: str
    timing: Timing = Timing.TURN
    scope: Scope = Scope.SEAT
    side: str | None = None
    """The side of the seat (set for every decision of ``Scope.SIDE``)."""

    @property
    def urgent(self) -> bool:
        """An answer someone is waiting on right now (DM, response deadline)."""
        return self.timing is Timing.RESPONSE


class Fate(StrEnum):
    """What became of one aircraft by the end of a game."""

    UNHARMED = "unharmed"
    DAMAGED = "damaged"
    SHOT_DOWN = "shot_down"
    LEFT = "left"
    """Left the fight alive (DiF evasion off the board, a disengagement)."""


@dataclass(frozen=True, slots=True)
class AircraftFate:
    """One aircraft at the end of a game, for reports, ratings and campaigns."""

    ref: str
    """The aircraft's reference in the game (``A1L``, ``B2``)."""
    seat: str
    side: str
    aircraft: str
    """The aircraft type's id in the system's data."""
    fate: Fate
    by: str | None = None
    """The ref of the aircraft (or the id of the site) that shot it down or damaged
    it, when one did."""
    damaged: bool = False
    """Damaged at the end (also for ``LEFT``)."""
    hits_taken: int = 0
    hits_given: int = 0
    turn: int | None = None
    """The turn (round) its fate was sealed, when it changed."""
    record: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """What else the system knows of this aircraft and its crew that a campaign needs,
    as plain JSON values, in the system's own terms (Eagles in the Sky: each kind of
    damage, the crew's wounds, the pilot, the aircraft it shot down, its Glory Points,
    its starting altitude). Empty where a system records nothing more."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended (or stands, while it runs): read by reports, ratings and
    campaigns. Plain values: it is stored with the game as JSON (``to_json``)."""

    over: bool
    winner: str | None
    """The winning side's id; None for a draw or a game still running."""
    verdict: str
    """The result in words (a :class:`strings.Term`): 'Allied marginal victory',
    'Draw: six rounds flown'."""
    vp: Mapping[str, int] = field(default_factory=dict)
    """Victory Points scored by each side."""
    fates: tuple[AircraftFate, ...] = ()
    rounds: int = 0
    """Turns or rounds completed."""
    conceded: str | None = None
    """The side that resigned or forfeited the game, when one did (the bot sets it:
    the rules know nothing of it). A campaign reads it (its mission's VP)."""

    def shot_down(self, side: str) -> list[AircraftFate]:
        """The aircraft of ``side`` shot down."""
        return [f for f in self.fates if f.side == side and f.fate is Fate.SHOT_DOWN]


@dataclass(frozen=True, slots=True)
class RulesetInfo:
    """One ruleset a system plays (DiF: Zero!, Rise of the Luftwaffe)."""

    id: str
    name: str
    """Its name (a :class:`strings.Term` or the printed title)."""


@dataclass(frozen=True, slots=True)
class SideInfo:
    """One side of a game."""

    id: str
    name: str
    """Its name in this game (a :class:`strings.Term`): 'Japanese', 'Team B'."""
    seats: tuple[str, ...] = ()
    """The seats of the side in a started game."""
    phrase: str | None = None
    """The side inside a sentence, a :class:`strings.Term` that needs no 'side' added:
    'the Allied side', 'side A' (fr 'le camp allié', 'le camp A'). None: the bot says
    'the <name> side' (``side.phrase``)."""


@dataclass(frozen=True, slots=True)
class AircraftChoice:
    """An aircraft a seat may take, as the lobby offers it (autocomplete)."""

    id: str
    label: str
    """What the player reads: its name ('F-15A Eagle'), or name, nation, year and VP."""
    side: str | None = None
    """The only side that may fly it, if the system restricts sides."""
    description: str | None = None
    """More about it, shown beside the label (a menu option's description): its
    nation and year ('USA, 1976')."""


@dataclass(frozen=True, slots=True)
class SeatPick:
    """One seat of a lobby: its side and what its player took (the system's pick model)."""

    seat: str
    side: str
    pick: BaseModel


@runtime_checkable
class Action(Protocol):
    """An action value: frozen, hashable, and its ``str`` is the canonical notation,
    with ``system.parse_action(str(a)) == a``."""

    def __str__(self) -> str: ...


S = TypeVar("S")
"""A system's game state: plain data, JSON round-tripping (``dump_state``)."""
A = TypeVar("A", bound=Action)
V = TypeVar("V", covariant=True)
"""A system's view: what one seat (or a spectator) may see."""


class GameSystem(Protocol[S, A, V]):
    """What a rule system implements. Every method is pure and deterministic given the
    state (which keeps the seeded RNG); none mutates its arguments.

    A system may also implement :class:`Sampling` (``sample_state``), the hidden
    information re-dealt for a computer player's search.

    Legality has one truth per system: ``legal_actions`` lists exactly the actions
    ``apply`` accepts. ``apply`` either returns the new state and what happened, or
    raises :class:`engine.core.errors.RuleViolation` naming the rule (the section
    number where the rulebook has one) and changes nothing.
    """

    id: str
    """The system's id: ``dif``, ``lockedon``, ``eagles``."""
    name: str
    rulesets: tuple[RulesetInfo, ...]
    setup_model: type[BaseModel]
    """The pydantic model of a game's whole setup (options, seats and their picks,
    and for tests the position to start from). The lobby validates through it."""

    options_model: type[BaseModel]
    """The pydantic model of the options the lobby asks (ruleset, year, VP limit,
    optional rules) and validates."""
    pick_model: type[BaseModel]
    """The pydantic model of what one seat takes (aircraft, and the system's extras:
    a wingman and pilot skills, skills and a missile load)."""

    # --- the lobby --------------------------------------------------------------
    def lobby_sides(self, options: Any) -> tuple[SideInfo, ...]:
        """The sides a game with these options has (two, or one per player)."""
        ...

    def seat_name(self, side: str, number: int) -> str:
        """The seat id of the ``number``-th seat (from 1) of ``side``: ``A1``, ``X2``."""
        ...

    def aircraft_choices(self, options: Any, side: str | None) -> list[AircraftChoice]:
        """Every aircraft a seat of ``side`` may take in such a game."""
        ...

    def pick_refusal(self, options: Any, side: str, pick: Any) -> str | None:
        """Why a seat of ``side`` may not take ``pick`` in such a game (a
        :class:`strings.Term` naming the rule), or None."""
        ...

    def start_problems(self, options: Any, seats: Sequence[SeatPick]) -> list[str]:
        """What keeps a lobby from starting (an empty side, unequal sides where the
        rules require equal ones); empty when it may start."""
        ...

    def setup_from_lobby(self, options: Any, seats: Sequence[SeatPick]) -> Any:
        """The setup of a game started from a lobby (an instance of ``setup_model``)."""
        ...

    # --- a game -----------------------------------------------------------------
    def new_game(self, setup: Any, seed: int) -> tuple[S, list[Event]]:
        """A new game. Raises :class:`engine.core.errors.SetupError` for an impossible
        setup, with the reason."""
        ...

    def sides(self, state: S) -> tuple[SideInfo, ...]: ...

    def pending(self, state: S) -> list[Decision]:
        """Who must decide now, and what (empty once the game is over)."""
        ...

    def legal_actions(self, state: S, seat: str) -> list[A]: ...

    def apply(self, state: S, seat: str, action: A) -> tuple[S, list[Event]]: ...

    def default_action(self, state: S, seat: str) -> A:
        """The passive choice ``seat`` makes when its deadline passes: no card spent,
        nothing risked. Raises RuleViolation if the seat has nothing to decide."""
        ...

    def view(self, state: S, seat: str | None) -> V:
        """What ``seat`` may see; ``None``: the spectators' view. No hidden card of
        another seat, no deck order, no unrevealed secret pick is in it."""
        ...

    def outcome(self, state: S) -> Outcome:
        """The result (``over`` False while the game runs)."""
        ...

    def is_over(self, state: S) -> bool: ...

    # --- notation ---------------------------------------------------------------
    def parse_action(self, text: str) -> A:
        """The action a canonical text names. Raises MalformedAction."""
        ...

    def public_text(self, text: str, *, secret_picks: bool) -> str:
        """The canonical text of an action as a spectator may read it while the game
        runs: secret parts masked (a pick before every seat has picked, cards thrown
        away unseen). ``secret_picks``: the simultaneous picks are not yet revealed."""
        ...

    def undo_refusal(self, before: S, after: S, events: Sequence[Event]) -> str | None:
        """Why the action from ``before`` to ``after`` cannot be taken back (it drew
        a card, used the RNG, revealed a secret, showed anyone a private line), or
        None. The reason is a :class:`strings.Term`."""
        ...

    # --- storage ----------------------------------------------------------------
    def dump_state(self, state: S) -> dict[str, Any]: ...

    def load_state(self, data: Mapping[str, Any]) -> S: ...

    def replay(self, setup: Any, seed: int, log: Iterable[tuple[str, str]]) -> S:
        """The state after replaying ``(seat, action text)`` rows from the setup."""
        ...


@runtime_checkable
class Sampling(Protocol[S]):
    """The optional part of :class:`GameSystem` a computer player's search needs (the
    ``search`` level of :mod:`engine.ai`): a system without it is played at the
    ``random`` and ``heuristic`` levels only."""

    def sample_state(self, state: S, seat: str, rng: random.Random) -> S:
        """A full state equal to ``state`` in everything ``seat`` can see (its
        ``view``), with every hidden card (the other seats' hands and mini-hands, the
        deck's order) re-dealt at random from the pool ``seat`` cannot see, each hidden
        pile keeping its size, every unrevealed secret pick of another seat chosen
        again among the legal ones, and the game's generator reseeded (future draws
        are hidden too). Draws only from ``rng``; two states ``seat`` cannot tell apart
        give the same result for the same ``rng`` state. Does not mutate ``state``."""
        ...


COMPUTER_LEVELS = ("random", "heuristic", "search")
"""The levels of computer play (:mod:`engine.ai`): ``random``, uniform among the legal
actions; ``heuristic``, the system's short policy from its rules' tactics; ``search``,
an information-set tree search over it (on a :class:`Sampling` system)."""
DEFAULT_COMPUTER_LEVEL = "heuristic"
"""The level of a computer player nobody chose one for (a server's deadlines and
abandoned seats by default, campaign missions' computer seats, the demo)."""

S_in = TypeVar("S_in", contravariant=True)
A_out = TypeVar("A_out", bound=Action, covariant=True)


class ComputerPlayer(Protocol[S_in, A_out]):
    """A computer player of one system."""

    def choose(self, state: S_in, seat: str) -> A_out:
        """One of ``legal_actions(state, seat)``."""
        ...


@runtime_checkable
class HostedSystem(GameSystem[S, A, V], Protocol[S, A, V]):
    """A system the bot can host: the rules contract, plus what running games for
    people at a distance needs (added after :class:`GameSystem`, which stays the rules).

    Generic code reads a decision's ``timing`` and ``scope``, never its ``kind``; the
    few things it needs to know beyond that about a system's flow are asked here.
    """

    # --- the lobby ----------------------------------------------------------------
    def aircraft_catalogue(self) -> list[AircraftChoice]:
        """Every aircraft the system knows, whatever the game (to name one a player
        typed, then say why it may not fly: :meth:`aircraft_refusal`)."""
        ...

    def aircraft_refusal(self, options: Any, side: str | None, aircraft: str) -> str | None:
        """Why ``aircraft`` may not fly for ``side`` (None: any side) in such a game (a
        :class:`strings.Term` naming the rule), or None."""
        ...

    def make_pick(self, aircraft: str, fields: Mapping[str, Any]) -> BaseModel:
        """A seat's pick (``pick_model``) from the aircraft and the extras the player
        gave (absent ones take the aircraft's defaults). Raises pydantic's
        ValidationError; a validator's message may be a Term."""
        ...

    def room_refusal(self, options: Any, seats: Sequence[SeatPick]) -> str | None:
        """Why no more seat may join these (the largest game the rules allow, a
        :class:`strings.Term`), or None while there is room for one more."""
        ...

    # --- a game's flow ------------------------------------------------------------
    def turn_of(self, state: S) -> str | None:
        """The seat whose turn it is, if any: a new picture is posted when it changes."""
        ...

    def picks_hidden(self, state: S) -> bool:
        """Secret simultaneous picks are made or being made and not yet revealed (the
        public log masks them: ``public_text(..., secret_picks=True)``)."""
        ...

    def forced_action(self, state: S, seat: str) -> A | None:
        """The action of a seat that must answer but holds nothing to answer with (its
        only legal action is the passive one): what a game in ``fast`` response mode
        takes at once, telling everyone. None when the seat has a real choice."""
        ...

    def computer_player(
        self, seed: int, level: str = DEFAULT_COMPUTER_LEVEL
    ) -> ComputerPlayer[S, A]:
        """A computer player of ``level`` (one of :data:`COMPUTER_LEVELS`) whose
        choices follow from ``seed`` (its own random stream: a player's decisions are
        inputs logged like any move, not the game's randomness). Raises ValueError
        for a level the system does not play."""
        ...

    standing_orders: tuple[str, ...]
    """The standing orders a player may leave (``/game orders``), by id."""

    def order_label(self, order: str) -> str:
        """What a standing order does, in words (a Term)."""
        ...

    def order_action(self, state: S, seat: str, orders: Sequence[str]) -> A | None:
        """The move ``seat``'s standing orders make now (one of ``legal_actions``), or
        None: the player decides."""
        ...

    def order_expired(self, order: str, state: S, seat: str) -> bool:
        """A time-limited standing order has run out."""
        ...

    def presenter(self) -> Presenter:
        """The system's words and menus (:mod:`engine.core.present`)."""
        ...
