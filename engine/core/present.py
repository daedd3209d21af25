"""The presentation contract: how a system's game is shown to people, in words.

The rules contract (:mod:`engine.core.contract`) says what may happen; this one says
how it reads. The generic layers (``bot/``, ``cogs/``) know no system's terms: every
label, menu, prompt, lobby line and log line that depends on a system comes from that
system's :class:`Presenter`, found through the registry
(:meth:`engine.core.contract.HostedSystem.presenter`). Pure like the rest of the engine:
no Discord here, only texts (:class:`strings.Term` where a reader's language may be
wanted later) and plain data.

It was drawn from two systems:

* **Down in Flames**: a seat's moves are a few dozen actions (a card at a target, a
  secret altitude, a discard of any cards); with several elements at one altitude the
  card-and-target moves overflow one menu, so the target comes first.
* **Locked-On**: a card is played as an Action, as Maneuvering for Position with an
  amount, or as Maneuvering for Range split between the own counter and one enemy's,
  against one chosen target (``play ACE pos 2 B1``, ``play RED range 2+1 B1``); Guns
  pay discards; a missile launch names how many; reactions are a card, a
  countermeasure or a pass. Hundreds of legal actions for one decision.

So a seat's choices are a **tree** (:class:`Choice`: pick the card, then its use, then
the amount or the target), rendered by one generic menu that walks it, plus buttons
for the quick choices (pass, done), and multi-picks (:class:`Several`: cards to
discard). Every leaf is an action's canonical text: the generic layer applies it as
typed notation, so a menu can never offer what ``legal_actions`` does not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from engine.core.contract import Decision, Outcome, SeatPick, SideInfo
from engine.core.events import Event

__all__ = [
    "Choice",
    "DemoGame",
    "Field",
    "FieldKind",
    "HelpPage",
    "Item",
    "Menu",
    "Phase",
    "Played",
    "Presenter",
    "ReportLine",
    "Seating",
    "Several",
    "ShownState",
    "Switch",
    "Tone",
    "WrittenReport",
]


# ---------------------------------------------------------------- menus
S = TypeVar("S")
R = TypeVar("R")


class ShownState(Generic[S, R]):
    """A presenter's memo of one pure function of ``(state, seat)``: its answers for
    the latest state, by the state's identity, one per seat asked.

    A seat's message shows its hand (the view, the cards it may play: the legal
    actions) and its menu (the legal actions again, labelled), and a menu's notes
    read the spectators' view: one message would compute each several times, and a
    move's reply, post and prompts ask for several seats of the same state in turn.
    A presenter is only shown states the game reached, which no one changes
    afterwards (``apply`` returns a new state), so the same state object and seat
    give the same answer. The memo holds that one state (never a half-built one: the
    rules do not call it), and its answers are shared: callers only read them. Safe
    across threads: a new state's entry is swapped whole, and a seat's answer is
    added to its entry at once (computing one twice at worst).
    """

    def __init__(self, compute: Callable[[Any, S], R]) -> None:
        self._compute = compute
        self._latest: tuple[Any, dict[S, R]] | None = None

    def __call__(self, state: Any, seat: S) -> R:
        latest = self._latest
        if latest is None or latest[0] is not state:
            latest = self._latest = (state, {})
        answers = latest[1]
        if seat in answers:
            return answers[seat]
        answer = answers[seat] = self._compute(state, seat)
        return answer


class Tone(StrEnum):
    """How strongly a button asks to be pressed."""

    MOVE = "move"
    """A move (Discord: primary, blue)."""
    QUIET = "quiet"
    """Passing, ending a step, keeping things as they are (secondary, grey)."""
    CONFIRM = "confirm"
    """The button that completes a multi-pick menu's step without picking (success)."""


@dataclass(frozen=True, slots=True)
class Item:
    """One thing a :class:`Several` offers: its label and its token in the action."""

    label: str
    token: str
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Several:
    """Pick several items at once (the cards to discard): the action is ``prefix``
    followed by the picked items' tokens (``discard MAN TIT``). The system parses it,
    so the order of the tokens does not matter to it."""

    prefix: str
    items: tuple[Item, ...]
    least: int = 1
    most: int | None = None
    """None: as many as there are items."""

    def action(self, tokens: Sequence[str]) -> str:
        return " ".join((self.prefix, *tokens))


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a menu. Exactly one of ``action`` (a leaf: this canonical text is
    applied), ``children`` (pick again among these) or ``several`` (pick any number
    of items) is set.

    Labels and descriptions are what the player reads, in the language the menu was
    built for; Discord cuts labels at 100 characters (80 for buttons) and descriptions
    at 100, so keep them short.
    """

    label: str
    action: str | None = None
    children: tuple[Choice, ...] = ()
    several: Several | None = None
    description: str | None = None
    placeholder: str | None = None
    """What the menu of this choice's children (or items) says before a pick."""
    tone: Tone = Tone.MOVE
    """For a button."""

    @property
    def leaf(self) -> bool:
        return self.action is not None


@dataclass(frozen=True, slots=True)
class Menu:
    """Every component of one seat's decision: menus (each one select, whose options
    are the top choice's ``children`` or ``several`` items) and buttons (leaves)."""

    menus: tuple[Choice, ...] = ()
    buttons: tuple[Choice, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.menus or self.buttons)


@dataclass(frozen=True, slots=True)
class Seating:
    """Who holds the seats of a game, for labels and menu descriptions."""

    names: Mapping[str, str] = field(default_factory=dict)
    """Each seat's holder's display name as stored."""
    players: Mapping[str, str] = field(default_factory=dict)
    """Who flies each seat, in the reader's language: the name, or "a computer player"."""


# ---------------------------------------------------------------- status
@dataclass(frozen=True, slots=True)
class Phase:
    """Where a game stands, for ``/game status`` and ``/game list``."""

    turn: int
    step: str
    """The step in words (a :class:`strings.Term`): 'Play cards'."""


# ---------------------------------------------------------------- lobby
class FieldKind(StrEnum):
    BOOL = "bool"
    INT = "int"
    TEXT = "text"
    CHOICE = "choice"
    """One of :attr:`Field.choices`, the same everywhere (the command lists them)."""
    SUGGEST = "suggest"
    """A text for which :attr:`Field.choices` are suggested as it is typed: those of
    the system a server's new game would run on, which its content packs may extend
    (so the command cannot list them)."""


@dataclass(frozen=True, slots=True)
class Field:
    """One option a command asks (``/dogfight new``'s year, ``/dogfight join``'s extras),
    as the system declares it: the command is built from these, and what the player
    gives goes to the system's model (``options_model``, ``make_pick``) untouched.

    Systems sharing a command must agree on a field they both declare (same name:
    same kind, range, choices and description).
    """

    name: str
    """The option's name (an identifier: the player types it)."""
    kind: FieldKind
    description: str
    """The catalogue key of its description (a command option's text, 100 characters)."""
    default: Any = None
    """None: optional, and left out of what the model gets when not given."""
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Switch:
    """A lobby option the host may change before the start, with its own command
    (``/dogfight bonus apply:True`` sets ``vp_bonus``)."""

    command: str
    """The subcommand's name."""
    description: str
    """The catalogue key of the subcommand's description."""
    option: str
    """The option it sets (a field of the system's ``options_model``)."""
    param: Field
    """The subcommand's one parameter."""


@dataclass(frozen=True, slots=True)
class DemoGame:
    """What ``python -m bot demo`` plays: the options ``/dogfight new`` gets besides
    the ruleset and the format, and each seat's side and aircraft, in joining order."""

    options: Mapping[str, Any]
    """Also ``format`` when the game needs its own (a solitaire game: ``custom``)."""
    seats: tuple[tuple[str, str, str], ...]
    """``(seat, side, aircraft)``."""


@dataclass(frozen=True, slots=True)
class HelpPage:
    """A page of ``/help`` that a system brings (its commands' options, its rules)."""

    id: str
    """The page's id (``/help topic:``); unique across systems."""
    title: str
    body: str
    """Catalogue keys."""
    rules: bool = False
    """A rules summary (after the generic pages), else a command page (before them)."""


# ---------------------------------------------------------------- the report
class Played(Protocol):
    """One action of a game in effect, replayed (``bot.history.Move`` is one)."""

    @property
    def seat(self) -> str: ...
    @property
    def text(self) -> str:
        """The action in canonical notation."""
        ...

    @property
    def events(self) -> Sequence[Event]: ...
    @property
    def before(self) -> Any: ...
    @property
    def after(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class ReportLine:
    """One aircraft in the after-action report."""

    ref: str
    side: str
    label: str
    player: str
    fate: str
    """The fate in words (a Term whose English is one of ``picture.report.fate.*``'s ids)."""
    detail: str
    hits_taken: int
    hits_given: int


@dataclass(frozen=True, slots=True)
class WrittenReport:
    """What the system says in an after-action report besides the result: each
    aircraft's line (from the typed :class:`~engine.core.contract.Outcome`) and the
    decisive exchanges (turn, text)."""

    aircraft: tuple[ReportLine, ...]
    exchanges: tuple[tuple[int, str], ...] = ()
    no_exchanges: str | None = None
    """What to say when no exchange was decisive (a Term), in the system's words (hits
    landed but none counted); None: the report's generic line."""


# ---------------------------------------------------------------- the presenter
class Presenter(Protocol):
    """A system's words and menus. ``state`` is the system's state; a method taking
    ``language`` returns text in it, the others return :class:`strings.Term` texts
    (English as a ``str``) that the caller puts in a reader's language."""

    # --- naming -----------------------------------------------------------------
    def seat_label(self, state: Any, seat: str) -> str:
        """How narration names a seat's aircraft: ``Buffalo I (A1)``."""
        ...

    # --- decisions ----------------------------------------------------------------
    def decision_words(self, kind: str) -> str:
        """A kind of decision in words (a Term): ``respond, or pass``."""
        ...

    def prompt(self, state: Any, decision: Decision) -> str:
        """What the seat of ``decision`` must decide, naming its aircraft (a Term)."""
        ...

    def phase(self, state: Any) -> Phase: ...

    def begins(self, options: Any) -> str:
        """The line that opens a game in the thread (a Term): what to do first."""
        ...

    # --- a seat's private message --------------------------------------------------
    def seat_lines(self, state: Any, seat: str, language: str, *, live: bool = True) -> list[str]:
        """What a seat's own message shows above its decision: its aircraft, position,
        hand and mini-hands (only the seat's own view's contents). ``live``: the game
        runs (else no card is marked playable)."""
        ...

    def menu(self, state: Any, seat: str, seating: Seating, language: str) -> Menu:
        """Components for every legal action of ``seat`` now (empty when it has none).
        Every leaf is one of ``legal_actions``; every legal action is reachable."""
        ...

    def side_menu(self, state: Any, decision: Decision, seating: Seating, language: str) -> Menu:
        """The public menu of a decision any player of a side may take
        (``Scope.SIDE``), posted in the thread for the whole side."""
        ...

    def describe(self, state: Any, action: str, language: str) -> str:
        """An action in words, for a button: ``Maneuvering → Ki-43 Oscar (X1 leader)``."""
        ...

    # --- the picture --------------------------------------------------------------
    def picture_text(self, view: Any, players: Mapping[str, str], language: str) -> str:
        """What the picture of the sky of the spectators' ``view`` shows, in words (its
        alt text): the turn, whose move it is or the result, and each aircraft's
        player, altitude, position and damage; one line per aircraft after the first
        lines, so a reader may cut it between lines. ``players``: who flies each seat."""
        ...

    # --- the lobby ----------------------------------------------------------------
    def option_fields(self) -> tuple[Field, ...]:
        """What ``/dogfight new`` asks besides the ruleset (the lobby's options)."""
        ...

    def pick_fields(self) -> tuple[Field, ...]:
        """What ``/dogfight join`` asks besides the side, the aircraft and the seat."""
        ...

    def switches(self) -> tuple[Switch, ...]:
        """Options the host may change in the lobby, each with its command."""
        ...

    def switch_line(self, option: str, value: Any) -> str:
        """The thread's line once the host set ``option`` to ``value`` (a Term)."""
        ...

    def catalogue_fields(self) -> tuple[Field, ...]:
        """What ``/dogfight aircraft`` asks besides the ruleset (e.g. a year)."""
        ...

    def aircraft_lines(self, options: Any, language: str) -> list[str]:
        """``/dogfight aircraft``: each aircraft such a game allows, with its ratings."""
        ...

    def lobby_title(self, options: Any, game_id: int, format: str, language: str) -> str:
        """The lobby message's first line (``format``: the format in words)."""
        ...

    def side_heading(
        self, options: Any, side: SideInfo, seats: Sequence[SeatPick], language: str
    ) -> str:
        """A side's line in the lobby, with what its seats bring."""
        ...

    def pick_text(self, options: Any, pick: Any, language: str) -> str:
        """What one seat flies, for the lobby: ``P-40B with wingman: 5 pts``."""
        ...

    def lobby_notes(
        self, options: Any, seats: Sequence[SeatPick], *, open_lobby: bool, language: str
    ) -> list[str]:
        """The lobby's lines about balance and the rules' advice."""
        ...

    def lobby_menu_hint(self, more: bool, language: str) -> str:
        """Under the lobby's aircraft menu: what ``/dogfight join`` offers besides
        (``more``: the menu could not list every aircraft)."""
        ...

    def game_title(self, options: Any, language: str) -> str:
        """A game in a list: ``Zero! 1942``."""
        ...

    def help_pages(self) -> tuple[HelpPage, ...]: ...

    def demo(self, ruleset: str, format: str, scenario: int | None = None) -> DemoGame | None:
        """A game for ``python -m bot demo`` (None: no demo in this format).
        ``scenario``: one of the system's numbered historical set-ups (None: its usual
        game; a system without such set-ups has no demo for any number)."""
        ...

    # --- history ------------------------------------------------------------------
    def log_title(self, setup: Any) -> str:
        """The exported log's title words (English): ``Zero!, 1942``."""
        ...

    def log_fields(self, setup: Any) -> dict[str, str]:
        """The system's fields of the exported log's header (English, canonical)."""
        ...

    def full_log_legend(self) -> str:
        """The full log's header line saying what its extra lines are (English)."""
        ...

    def full_log_lines(self, event: Event, after: Any) -> list[str]:
        """Lines the full log adds after ``event`` (English): the hand of a seat whose
        turn begins."""
        ...

    def final_lines(self, state: Any) -> list[str]:
        """The state at the end of a log, for ``python -m bot verify`` (English): each
        aircraft and what became of it."""
        ...

    def notable(self, event: Event) -> bool:
        """Worth a caption under a replay's frame (a loss, a reveal, the result)."""
        ...

    def report(
        self, start: Any, moves: Sequence[Played], outcome: Outcome, players: Mapping[str, str]
    ) -> WrittenReport:
        """The after-action report's aircraft lines (from ``outcome``'s fates) and
        decisive exchanges, from the ``start`` state and every action in effect.
        ``players``: who flew each seat."""
        ...
