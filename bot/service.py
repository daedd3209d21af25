"""The game service: everything the bot does with a game, without Discord.

Cogs call one verb of :class:`GameService` per command or click; the service loads
the game, checks that the user holds the seat, asks the engine, commits the action
to storage (before anyone is answered) and returns an :class:`Outcome` saying what
happened and who must be told what. It holds no rules: legality, effects and views
all come from the engine.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from pydantic import ValidationError

from bot.actionlog import effective, undo_text
from bot.clock import Clock, SystemClock
from bot.errors import Refusal, UserError
from bot.storage import GameRecord, GameStatus, SeatRecord, StaleGameVersion, Storage
from bot.storage.base import DeadlineClosed
from bot.storage.locks import GameLocks
from engine.core.contract import Decision
from engine.core.errors import EngineError
from engine.core.events import Event
from engine.dif import balance
from engine.dif.actions import COUNTER, Action
from engine.dif.ai import RandomPlayer
from engine.dif.components import Aircraft, Altitude, CardKind, Ruleset, Side
from engine.dif.game import DifEngine
from engine.dif.orders import Order, expired, order_action
from engine.dif.setup import MAX_AIRCRAFT, DifSetup, ElementSetup
from engine.dif.state import GameState
from engine.dif.view import DifView
from strings import Term, has, t, tr

__all__ = ["GameService", "LoadedGame", "Outcome", "Prompt", "describe_action", "player_name"]

log = logging.getLogger(__name__)

SYSTEM = "dif"
SEAT_PREFIX = {Side.ALLIED: "A", Side.AXIS: "X"}
"""Seats are named by side and number: Allied A1..An, Axis X1..Xn."""
SEAT_RE = re.compile(r"^[AX][1-9][0-9]?$")
FORMATS: dict[str, tuple[str, ...]] = {
    "1v1": ("A1", "X1"),
    "2v2": ("A1", "A2", "X1", "X2"),
    "custom": (),
}
"""The seats of each lobby format; a custom lobby grows one element at a time."""
SIDE_MARK = {Side.ALLIED: "●", Side.AXIS: "◆"}
"""The side markers of the picture of the sky (rendering.layout)."""
SIMULTANEOUS = frozenset({"altitude", "redraw"})
"""Decisions every seat takes at once, in any order (secret picks, Combat Vision)."""


TURN_DECISIONS = frozenset({"wingman", "wingman_attack", "altitude_step", "play", "discard"})
"""The steps of a seat's own player-turn: a missed deadline passes the rest of the turn."""
RESPONSE_MODES = ("normal", "fast", "fog")
"""How response windows behave (chosen at creation): ``normal``, each waits for the
defender (up to the response deadline); ``fast``, a defender holding no legal response
is passed at once, which tells everyone so; ``fog``, every window lasts the same short
time (``FOG_MINUTES``) unless answered, whatever the hand, so its length says nothing."""
FOG_MINUTES = 15


AUTO_MOVES = 5000
"""The most moves made without asking after one change: enough for a whole game
between two computer players (a random game takes a few hundred actions)."""
COMPUTER = "computer"
"""Why a move was made without asking: a computer player's (``narration.computer``
marks its first public line, ``Ki-43 Oscar (X1) stays at Medium. (computer)``; the
log's narration, which verification compares with a replay, stays the engine's)."""
AUTO_WHY = {"orders": "narration.orders", "fast": "narration.fast"}
"""The other moves made without asking, and the catalogue key that says why."""


def computer_seats(game: LoadedGame, settings: dict[str, Any]) -> set[str]:
    """The seats a computer player flies: listed in the game settings'
    ``computer_seats`` and held by nobody (``user_id`` NULL in the seats table)."""
    listed = set(settings.get("computer_seats", []))
    return {s.seat for s in game.seats if s.seat in listed and s.user_id is None}


def computer_player(game: LoadedGame) -> RandomPlayer:
    """The computer player of a game at its current version, seeded from the game
    (hashed, so its choices say nothing of the secret seed). Its moves are logged like
    any other, so replays never need it."""
    key = f"tally-ho/dif/computer/v1:{game.id}:{game.record.seed}:{game.record.version}"
    return RandomPlayer(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big"))


def seat_side(seat: str) -> Side:
    return Side.ALLIED if seat.startswith(SEAT_PREFIX[Side.ALLIED]) else Side.AXIS


def _next_seat(taken: set[str], side: Side) -> str:
    n = 1
    while f"{SEAT_PREFIX[side]}{n}" in taken:
        n += 1
    return f"{SEAT_PREFIX[side]}{n}"


def player_name(seat: SeatRecord) -> str:
    """Who flies a seat, for texts: the member's name, or "a computer player" (a
    :class:`Term`) for a seat held by nobody once the game has started."""
    return seat.display_name if seat.user_id is not None else Term("seats.a_computer")


def element_of(seat: SeatRecord) -> ElementSetup:
    """A lobby seat as the setup model's element (seats from before team games hold
    only the aircraft: leader and wingman, no pilot skills)."""
    p = seat.payload
    return ElementSetup(
        seat=seat.seat,
        side=Side(seat.side),
        aircraft=str(p["aircraft"]),
        wingman=bool(p.get("wingman", True)),
        pilot=str(p.get("pilot") or ""),
    )


def _chain(cards: Sequence[str]) -> str:
    """An exchange's cards, attack first: ``Maneuvering → Tight Turn``, keeping each
    card's text translatable (a card played as another is a Term)."""
    out = cards[0] if cards else ""
    for card in cards[1:]:
        out = Term("prompt.then", head=out, card=card)
    return out


def _count(key: str, count: int, language: str) -> str:
    """``3 elements``: the catalogue's ``<key>.one`` or ``<key>.other``."""
    one = count == 1 or (count == 0 and language == "fr")
    return t(f"{key}.{'one' if one else 'other'}", language, n=count)


def side_term(side: Side, ruleset: Ruleset) -> Term:
    """A side's name in a ruleset (Zero!'s Axis is Japanese), to translate later."""
    return Term(f"side.{ruleset.value}.{side.value}")


def and_list(items: list[str]) -> str:
    """``A1 and A2``, with the reader's conjunction (a :class:`Term` when there are two or more)."""
    out: str = items[0] if items else ""
    for item in items[1:]:
        out = Term("common.and", a=out, b=item)
    return out


def _validation_refusal(exc: ValidationError) -> UserError:
    """The first message of a setup model's refusal, without pydantic's wording.

    A validator of the engine's setup model that raised a :class:`Term` keeps it (so it
    is translated); pydantic's own messages (a wrong type) exist in English only."""
    err = exc.errors()[0]
    inner = (err.get("ctx") or {}).get("error")
    why = inner.args[0] if isinstance(inner, Exception) and inner.args else None
    if isinstance(why, Term):  # its own last period, if it has one
        return UserError(why) if why.endswith(".") else Refusal("refusal.setup", why=why)
    msg = str(err.get("msg", exc)).removeprefix("Value error, ")
    return Refusal("refusal.setup", why=msg.rstrip("."))


def _engine_refusal(exc: EngineError) -> UserError:
    """An engine error as a refusal, its message untouched (a :class:`Term` stays one)."""
    return UserError(exc.args[0] if exc.args else str(exc))


@dataclass
class LoadedGame:
    """A game as the service holds it: its record, seats, setup and current state."""

    record: GameRecord
    seats: list[SeatRecord]
    setup: DifSetup | None = None
    state: GameState | None = None

    @property
    def id(self) -> int:
        return self.record.id

    def holder(self, seat: str) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    def seats_of(self, user_id: int) -> list[str]:
        return [s.seat for s in self.seats if s.user_id == user_id]

    @property
    def format(self) -> str:
        """``1v1``, ``2v2`` or ``custom`` (games from before team dogfights: 1v1)."""
        return str(self.record.options.get("format", "1v1"))


@dataclass
class Prompt:
    """Someone must decide something now."""

    seat: str
    user_id: int | None
    kind: str
    text: str
    urgent: bool
    """A decision during someone else's turn (respond, follow): sent by DM."""
    new: bool = True
    """Not pending before this outcome's action: worth a ping (a seat still picking its
    secret altitude was pinged when the picks began)."""


@dataclass
class Outcome:
    """What a service call did, for the cog to tell Discord."""

    game: LoadedGame
    public: list[str] = field(default_factory=list)
    """Narration for the game thread (public events only)."""
    private: dict[str, list[str]] = field(default_factory=dict)
    """Lines only a seat may read (e.g. the cards it drew)."""
    prompts: list[Prompt] = field(default_factory=list)
    image: bool = False
    """Post a fresh picture of the sky (a player-turn ended, or the game started/ended)."""
    finished: bool = False


def plane_name(engine: DifEngine, state: GameState, ref: str) -> str:
    """A plane as a menu names it: aircraft, seat, and leader or whose wingman (a
    :class:`Term`: ``tr`` it for the reader).

    ``Ki-43 Oscar (X1 leader)``, ``Ki-43 Oscar (wingman of X1)``, ``Ki-43 Oscar (X1,
    shot down)``: with several elements at one altitude a bare aircraft name is not
    enough to tell two targets apart.
    """
    base, _, lost = ref.partition("-")  # "A1L-lost1": a leader shot down (11.2)
    e = state.elements.get(base[:-1])
    if e is None:
        return ref
    name = engine.aircraft[e.aircraft].name
    if lost:
        return Term("plane.lost", name=name, seat=e.seat)
    if base.endswith("W"):
        return Term("plane.wingman", name=name, seat=e.seat)
    return Term("plane.leader", name=name, seat=e.seat)


SIMPLE_ACTIONS = frozenset({"skip", "stay", "nofollow", "pass", "giveup", "evade"})
"""Actions whose label is a fixed text (``action.<verb>``)."""


def _kind_name(kind: str) -> str:
    """A card kind by its printed name (``SCI``: Scissors), as the engine names it."""
    try:
        return CardKind(kind).label
    except ValueError:
        return kind


def describe_action(engine: DifEngine, state: GameState, a: Action, language: str = "en") -> str:
    """A short button label for an action, e.g. 'Maneuvering → Ki-43 (X1 leader)'."""

    def card(code: str | None) -> str:
        return tr(engine.card_label(code), language) if code is not None else ""

    def cards(codes: tuple[str, ...]) -> str:
        return ", ".join(card(c) for c in codes)

    def plane(ref: str | None) -> str:
        return tr(plane_name(engine, state, ref), language) if ref is not None else ""

    def to(step: int) -> str:
        """The band the active element would move to."""
        active = state.elements[state.active] if state.active else None
        if active is None or active.altitude is None:
            return t("action.up" if step > 0 else "action.down", language)
        band = t(f"altitude.{Altitude(active.altitude + step).code}", language)
        return t("action.to", language, altitude=band)

    def played() -> str:
        if not a.as_kind:
            return card(a.card)
        kind = tr(_kind_name(a.as_kind), language)
        return t("action.as", language, card=card(a.card), kind=kind)

    def paying(codes: tuple[str, ...]) -> str:
        """What a climb or a follow costs: discards, and Full Throttle counters spent."""
        spent = [c for c in codes if c == COUNTER]
        rest = tuple(c for c in codes if c != COUNTER)
        parts = []
        if spent:
            parts.append(_count("action.spend", len(spent), language))
        if rest:
            parts.append(t("action.discard_cards", language, cards=cards(rest)))
        return f" ({', '.join(parts)})" if parts else ""

    def say(key: str, **fields: Any) -> str:
        return t(key, language, **fields)

    v = a.verb
    if v == "alt":
        return t(f"altitude.{Altitude.from_code(a.arg or 'M').code}", language)
    if v == "wm":
        return say("action.wingman", plane=plane(a.target))
    if v == "play" and a.arg is not None:
        up = a.arg == "up"
        return say(
            "action.vertical_roll",
            card=tr(CardKind.VER.label, language),
            way=say("action.climb_word" if up else "action.dive_word"),
            to=to(1 if up else -1),
            paying=paying(a.cards),
        )
    if v == "play":
        return say("action.at", card=played(), plane=plane(a.target))
    if v == "respond":
        return played()
    if v == "climb":
        return say("action.climb", to=to(1), paying=paying((a.card,) if a.card else ()))
    if v == "dive":
        return say("action.dive", to=to(-1))
    if v == "done":
        return say("action.end_wingman" if state.step == "wingman_attack" else "action.done")
    if v == "follow":
        return say("action.follow", paying=paying(a.cards))
    if v == "discard":
        return say("action.discard", cards=cards(a.cards)) if a.cards else say("action.keep_all")
    if v == "redraw":
        return say("action.redraw", cards=cards(a.cards)) if a.cards else say("action.keep_hand")
    if v == "next":
        e = state.elements.get(a.target or "")
        name = engine.aircraft[e.aircraft].name if e is not None else ""
        return say("action.next", name=name, seat=a.target)
    if v in SIMPLE_ACTIONS:
        return say(f"action.{v}")
    return str(a)


def decision_words(kind: str) -> str:
    """A pending decision in words: a :class:`Term` of the catalogue
    (``decision.<kind>``), else the engine's prompt (English)."""
    from engine.dif.present import pending_prompt

    key = f"decision.{kind}"
    return Term(key) if has(key) else pending_prompt(kind)


def _squash(text: str) -> str:
    return text.lower().replace(" ", "").replace("-", "")


def _matches(ac: Aircraft, typed: str) -> bool:
    """Whether what a user typed names this aircraft ("bf109", "Ki 43", "zero"...)."""
    return _squash(typed) in _squash(ac.id + ac.name)


class GameService:
    """Lobbies and games of one bot process, backed by a :class:`Storage`."""

    def __init__(
        self,
        storage: Storage,
        engine: DifEngine,
        *,
        seed_source: Callable[[], int] | None = None,
        cache_size: int = 512,
        clock: Clock | None = None,
    ) -> None:
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        """Times of offers and requests that expire (``bot.seats``)."""
        self.engine = engine
        self.locks = GameLocks()
        self._seed = seed_source or (lambda: secrets.randbits(62))
        self._cache: OrderedDict[int, LoadedGame] = OrderedDict()
        self._cache_size = cache_size
        self.setup_filter: Callable[[DifSetup], DifSetup] | None = None
        """Tests only: rewrites the lobby's setup at the start, e.g. to fix hands,
        the top of the deck or altitudes (the test-only fields of DifSetup)."""
        self.listeners: list[Callable[[LoadedGame, str | None], Awaitable[None]]] = []
        """Called after every committed change of a game, under its lock, with the
        seat that acted (None: the game started, or a deadline's default action):
        the deadline scheduler keeps its deadlines in line with the pending decisions."""
        self.seat_listeners: list[Callable[[LoadedGame, str], Awaitable[None]]] = []
        """Called when a seat changes hands (``bot.seats``), under the game's lock and
        before the change listeners: the scheduler drops the seat's deadlines (they
        named the old holder) and forgets its missed deadlines."""

    # ------------------------------------------------------------ catalogue
    def aircraft_choices(
        self, ruleset: str, year: int, side: str | None, query: str
    ) -> list[Aircraft]:
        """Aircraft the engine allows in this game, matching what the user typed."""
        out = []
        rs, wanted = Ruleset(ruleset), Side(side) if side else None
        for ac in sorted(self.engine.aircraft.values(), key=lambda a: (a.side, a.name)):
            if self.engine.aircraft_refusal(rs, year, ac.id, wanted) is not None:
                continue
            if not _matches(ac, query):
                continue
            out.append(ac)
        return out

    def find_aircraft(self, text: str) -> Aircraft:
        key = text.strip().lower()
        for ac in self.engine.aircraft.values():
            if key in (ac.id, ac.name.lower()):
                return ac
        matches = [ac for ac in self.engine.aircraft.values() if _matches(ac, text)]
        if len(matches) == 1:
            return matches[0]
        raise Refusal("refusal.unknown_aircraft", text=repr(text))

    # ------------------------------------------------------------ loading
    async def load(self, game_id: int) -> LoadedGame:
        cached = self._cache.get(game_id)
        record = await self.storage.get_game(game_id)
        if record is None:
            raise Refusal("refusal.no_game")
        if cached is not None and cached.record.version == record.version:
            self._cache.move_to_end(game_id)
            return cached
        game = LoadedGame(record, await self.storage.get_seats(game_id))
        if "setup" in record.options:
            game.setup = DifSetup.model_validate(record.options["setup"])
            log_rows = await self.storage.load_actions(game_id)
            rows = effective((r.seq, r.seat or "", r.action) for r in log_rows)  # undo markers
            game.state = await asyncio.to_thread(
                self.engine.replay,
                game.setup,
                record.seed,
                [(seat, text) for _, seat, text in rows],
            )
        self._remember(game)
        return game

    def _remember(self, game: LoadedGame) -> None:
        self._cache[game.id] = game
        self._cache.move_to_end(game.id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    async def game_in_channel(self, channel_id: int | None) -> LoadedGame | None:
        if channel_id is None:
            return None
        record = await self.storage.get_game_by_thread(channel_id)
        return await self.load(record.id) if record else None

    async def resolve_game(self, channel_id: int | None, user_id: int) -> LoadedGame:
        """The game of this thread, or the user's only open game."""
        game = await self.game_in_channel(channel_id)
        if game is not None:
            return game
        seats = await self.storage.seats_of_user(
            user_id, statuses=(GameStatus.LOBBY, GameStatus.ACTIVE)
        )
        ids = sorted({s.game_id for s in seats})
        if len(ids) == 1:
            return await self.load(ids[0])
        if not ids:
            raise Refusal("refusal.no_open_game")
        raise Refusal("refusal.several_games")

    # ------------------------------------------------------------ lobby
    async def new_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        ruleset: str,
        year: int,
        to_the_death: bool,
        format: str = "1v1",
        vp_bonus: bool = False,
        responses: str = "normal",
        turn_hours: float | None = None,
        response_hours: float | None = None,
    ) -> LoadedGame:
        if not 1930 <= year <= 1950:
            raise Refusal("refusal.year")
        if format not in FORMATS:
            raise Refusal("refusal.format", format=repr(format), formats=", ".join(FORMATS))
        if responses not in RESPONSE_MODES:
            raise Refusal("refusal.response_mode", mode=repr(responses))
        deadlines: dict[str, float] = {}
        for key, hours in (("turn_hours", turn_hours), ("response_hours", response_hours)):
            if hours is not None:
                if not 0 < hours <= 24 * 60:
                    raise Refusal("refusal.deadline_hours")
                deadlines[key] = hours
        if responses == "fog":  # every response window lasts the same short time
            deadlines["response_hours"] = FOG_MINUTES / 60
        record = await self.storage.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            system=SYSTEM,
            ruleset=Ruleset(ruleset).value,
            seed=self._seed(),
            options={
                "year": year,
                "to_the_death": to_the_death,
                "format": format,
                "vp_bonus": vp_bonus,
                "responses": responses,
            },
        )
        settings: dict[str, Any] = {"responses": responses}
        if deadlines:
            settings["deadlines"] = deadlines
        await self.storage.put_game_settings(record.id, settings)
        game = LoadedGame(record, [])
        self._remember(game)
        return game

    async def attach_thread(
        self, game: LoadedGame, thread_id: int, message_id: int | None
    ) -> LoadedGame:
        record = await self.storage.update_game(
            game.id, game.record.version, thread_id=thread_id, lobby_message_id=message_id
        )
        game.record = record
        return game

    def open_seats(self, game: LoadedGame, side: Side | None = None) -> list[str]:
        """Seats nobody holds yet: the format's fixed seats, or in a custom game the
        next seat of each side while the aircraft limit leaves room for one more."""
        taken = {s.seat for s in game.seats}
        sides = [side] if side is not None else [Side.ALLIED, Side.AXIS]
        fixed = FORMATS[game.format]
        if fixed:
            return [s for s in fixed if s not in taken and seat_side(s) in sides]
        if self.lobby_aircraft(game) >= MAX_AIRCRAFT:
            return []
        return [_next_seat(taken, s) for s in sides]

    def lobby_elements(self, game: LoadedGame) -> list[ElementSetup]:
        """The seats taken so far, as the setup model's elements."""
        return [element_of(s) for s in game.seats]

    def lobby_aircraft(self, game: LoadedGame) -> int:
        return sum(2 if e.wingman else 1 for e in self.lobby_elements(game))

    def start_problems(self, game: LoadedGame) -> list[Term]:
        """Why the host cannot start yet (empty: ready)."""
        rs = Ruleset(game.record.ruleset)
        problems = []
        fixed = FORMATS[game.format]
        if fixed:
            missing = self.open_seats(game)
            if missing:
                problems.append(Term("lobby.problem.seats", seats=", ".join(missing)))
        for side in Side:
            if not any(s.side == side.value for s in game.seats):
                problems.append(Term("lobby.problem.side", side=side_term(side, rs)))
        return problems

    def element_refusal(self, ruleset: Ruleset, year: int, e: ElementSetup) -> str | None:
        """Why this element may not fly in this game: asked of the engine, so a lobby
        refuses at join time what the start would refuse."""
        return self.engine.element_refusal(ruleset, year, e)

    async def join(
        self,
        game: LoadedGame,
        user_id: int,
        name: str,
        aircraft: str,
        side: str | None,
        *,
        seat: str | None = None,
        wingman: bool | None = None,
        pilot: str | None = None,
    ) -> tuple[LoadedGame, str]:
        """Take (or change) a seat. Returns the game and the seat taken."""
        async with self.locks(game.id):
            game = await self.load(game.id)
            if game.record.status is not GameStatus.LOBBY:
                raise Refusal("refusal.started")
            rs = Ruleset(game.record.ruleset)
            year = int(game.record.options["year"])
            ac = self.find_aircraft(aircraft)
            wanted = Side(side) if side else None
            why: str | None = self.engine.aircraft_refusal(rs, year, ac.id, wanted)
            if why is not None:
                raise UserError(why)
            team = wanted or ac.side
            for other in game.seats_of(user_id):
                if seat_side(other) is not team:
                    raise Refusal("refusal.other_side")
            seat = self._pick_seat(game, user_id, team, seat)
            try:
                element = ElementSetup(
                    seat=seat,
                    side=team,
                    aircraft=ac.id,
                    wingman=ac.wingman is not None if wingman is None else wingman,
                    pilot=pilot or "",
                )
            except ValidationError as exc:
                raise _validation_refusal(exc) from exc
            why = self.element_refusal(rs, year, element)
            if why is not None:
                raise UserError(why)
            others = [e for e in self.lobby_elements(game) if e.seat != seat]
            if others:
                try:  # the setup model knows the largest dogfight (MAX_AIRCRAFT)
                    DifSetup(ruleset=rs, year=year, elements=(*others, element))
                except ValidationError as exc:
                    raise _validation_refusal(exc) from exc
            await self.storage.put_seat(
                game.id,
                seat,
                team.value,
                user_id,
                name,
                {
                    "aircraft": ac.id,
                    "wingman": element.wingman,
                    "pilot": ",".join(k.value for k in element.pilot),
                },
                expected_version=game.record.version,
            )
            return await self.load(game.id), seat

    def _pick_seat(self, game: LoadedGame, user_id: int, side: Side, seat: str | None) -> str:
        rs = Ruleset(game.record.ruleset)
        label = side_term(side, rs)
        if seat is None:
            free = self.open_seats(game, side)
            if free:
                return free[0]
            mine = [s for s in game.seats_of(user_id) if seat_side(s) is side]
            if len(mine) == 1:
                return mine[0]  # a new aircraft for the seat the player holds
            raise Refusal("refusal.side_full", side=label)
        seat = seat.strip().upper()
        if not SEAT_RE.match(seat) or seat_side(seat) is not side:
            prefix = SEAT_PREFIX[side]
            raise Refusal("refusal.seat_name", side=label, prefix=prefix, seat=repr(seat))
        holder = game.holder(seat)
        if holder is not None and holder != user_id:
            raise Refusal("refusal.seat_taken", seat=seat, holder=f"<@{holder}>")
        fixed = FORMATS[game.format]
        if fixed and seat not in fixed:
            spare = ", ".join(self.open_seats(game, side)) or Term("refusal.none_left")
            raise Refusal(
                "refusal.no_such_seat", format=game.format, seat=seat, side=label, spare=spare
            )
        if holder is None and not fixed:
            nxt = self.open_seats(game, side)
            if not nxt:
                raise Refusal("refusal.no_room", max=MAX_AIRCRAFT)
            if seat != nxt[0]:
                raise Refusal("refusal.next_seat", side=label, seat=nxt[0])
        return seat

    async def leave(
        self, game: LoadedGame, user_id: int, seat: str | None
    ) -> tuple[LoadedGame, str]:
        """Give up a seat in the lobby (the user's only seat, or the one named)."""
        async with self.locks(game.id):
            game = await self.load(game.id)
            if game.record.status is not GameStatus.LOBBY:
                raise Refusal("refusal.started_resign")
            mine = game.seats_of(user_id)
            if seat is not None:
                seat = seat.strip().upper()
                if seat not in mine:
                    raise Refusal("refusal.not_your_seat", seat=seat)
            elif len(mine) == 1:
                seat = mine[0]
            else:
                raise Refusal("refusal.no_seat" if not mine else "refusal.name_seat")
            await self.storage.remove_seat(game.id, seat, expected_version=game.record.version)
            return await self.load(game.id), seat

    async def set_vp_bonus(self, game: LoadedGame, user_id: int, on: bool) -> LoadedGame:
        """The host turns the 13.1 VP bonus on or off before the start."""
        async with self.locks(game.id):
            game = await self.load(game.id)
            if game.record.status is not GameStatus.LOBBY:
                raise Refusal("refusal.started")
            if user_id != game.record.host_id:
                raise Refusal("refusal.host_options")
            options = {**game.record.options, "vp_bonus": on}
            await self.storage.update_game(game.id, game.record.version, options=options)
            return await self.load(game.id)

    def lobby_text(self, game: LoadedGame, language: str = "en") -> str:
        """The lobby message at the top of the thread: seats, points, balance, status."""
        rs = Ruleset(game.record.ruleset)
        o = game.record.options
        lines = [
            t(
                "lobby.head",
                language,
                id=game.id,
                ruleset=t(f"ruleset.{rs.value}", language),
                year=o["year"],
                format=t(f"lobby.format.{game.format}", language),
                length=t(f"lobby.{'death' if o.get('to_the_death') else 'six_turns'}", language),
            )
        ]
        mode = o.get("responses", "normal")
        if mode != "normal":
            lines.append(t(f"lobby.mode.{mode}", language, minutes=FOG_MINUTES))
        elements = self.lobby_elements(game)
        points = balance.side_points(elements, self.engine.aircraft)
        open_seats = self.open_seats(game) if game.record.status is GameStatus.LOBBY else []
        for side in Side.ALLIED, Side.AXIS:
            p = points[side]
            side_name = side_term(side, rs).text(language)
            head = t("lobby.side_head", language, mark=SIDE_MARK[side], side=side_name)
            if p.elements:
                head += t(
                    "lobby.points",
                    language,
                    elements=_count("lobby.element", p.elements, language),
                    aircraft=_count("lobby.aircraft", p.aircraft, language),
                    points=_count("lobby.point", p.points, language),
                    wingmen=p.with_wingmen,
                    leaders=p.leaders_only,
                    pilots=p.pilot_points,
                )
                if p.unpriced:
                    head += t("lobby.unpriced", language, aircraft=", ".join(p.unpriced))
            else:
                head += t("lobby.nobody", language)
            lines.append(head)
            for s in game.seats:
                if s.side == side.value:
                    who = (
                        f"<@{s.user_id}>"
                        if s.user_id is not None
                        else t("lobby.computer", language)
                    )
                    element = self.element_text(element_of(s), language)
                    lines.append(
                        t("lobby.seat_line", language, seat=s.seat, who=who, element=element)
                    )
            for seat in open_seats:
                if seat_side(seat) is side and FORMATS[game.format]:
                    lines.append(f"• {seat} *{t('lobby.open', language)}*")
        lines += self._balance_lines(game, elements, language)
        if game.record.status is GameStatus.LOBBY:
            if open_seats:
                verb = "take_one" if FORMATS[game.format] else "add_element"
                lines.append(t(f"lobby.open_seats.{verb}", language, seats=", ".join(open_seats)))
            problems = self.start_problems(game)
            lines.append(problems[0].text(language) if problems else t("lobby.ready", language))
        elif game.record.status is GameStatus.ACTIVE:
            lines.append(t("lobby.under_way", language))
        elif game.record.result:
            lines.append(t("lobby.finished", language, verdict=self.verdict_text(game, language)))
        elif game.record.status is GameStatus.ABORTED:
            lines.append(t("lobby.aborted", language))
        return "\n".join(lines)[:2000]

    def _balance_lines(
        self, game: LoadedGame, elements: list[ElementSetup], language: str = "en"
    ) -> list[str]:
        """The 13.1 VP bonus and RotL's equal-numbers advice, for the lobby."""
        rs = Ruleset(game.record.ruleset)
        lines = []
        sides = {s.side for s in elements}
        if len(sides) == 2:
            lower, vp = balance.vp_bonus(elements, self.engine.aircraft)
            on = bool(game.record.options.get("vp_bonus"))
            if lower is None:
                lines.append(t(f"lobby.bonus.even_{'on' if on else 'off'}", language))
            elif on:
                side = side_term(lower, rs).text(language)
                lines.append(t("lobby.bonus.on", language, side=side, vp=vp))
            else:
                side = side_term(lower, rs).text(language)
                tail = (
                    t("lobby.bonus.can_apply", language)
                    if game.record.status is GameStatus.LOBBY
                    else ""
                )
                lines.append(t("lobby.bonus.off", language, side=side, vp=vp) + tail)
            if rs is Ruleset.ROTL:
                count = {
                    s: sum(2 if e.wingman else 1 for e in elements if e.side is s) for s in Side
                }
                if count[Side.ALLIED] != count[Side.AXIS]:
                    lines.append(
                        t(
                            "lobby.rotl_numbers",
                            language,
                            allied=side_term(Side.ALLIED, rs).text(language),
                            axis=side_term(Side.AXIS, rs).text(language),
                            n_allied=count[Side.ALLIED],
                            n_axis=count[Side.AXIS],
                        )
                    )
        return lines

    def element_text(self, e: ElementSetup, language: str = "en") -> str:
        """``P-40B with wingman, pilot A (Ace Pilot) +1: 6 pts``."""
        ac = self.engine.aircraft[e.aircraft]
        text = f"{ac.name} {t('lobby.with_wingman' if e.wingman else 'lobby.without_wingman', language)}"
        if e.pilot:
            skills = ", ".join(f"{k.value} ({tr(k.label, language)}) +1" for k in e.pilot)
            text += t("lobby.pilot", language, skills=skills)
        pts = balance.element_points(ac, wingman=e.wingman, pilot_skills=len(e.pilot))
        if pts is None:
            return text + t("lobby.no_value", language)
        return t(
            "lobby.element_points", language, element=text, points=_count("lobby.pt", pts, language)
        )

    def joined_text(self, game: LoadedGame, user_id: int, seat: str, language: str = "en") -> str:
        """The public line announcing a pilot's seat."""
        rs = Ruleset(game.record.ruleset)
        record = next(s for s in game.seats if s.seat == seat)
        ready = "" if self.start_problems(game) else t("lobby.joined_ready", language)
        return (
            t(
                "lobby.joined",
                language,
                user=f"<@{user_id}>",
                side=side_term(Side(record.side), rs).text(language),
                seat=seat,
                element=self.element_text(element_of(record), language),
            )
            + ready
        )

    def lobby_setup(self, game: LoadedGame) -> DifSetup:
        o = game.record.options
        setup = DifSetup(
            ruleset=Ruleset(game.record.ruleset),
            year=int(o["year"]),
            to_the_death=bool(o.get("to_the_death")),
            vp_bonus=bool(o.get("vp_bonus")),
            elements=tuple(self.lobby_elements(game)),
        )
        return self.setup_filter(setup) if self.setup_filter is not None else setup

    async def start(self, game: LoadedGame, user_id: int) -> Outcome:
        async with self.locks(game.id):
            game = await self.load(game.id)
            if game.record.status is not GameStatus.LOBBY:
                raise Refusal("refusal.started")
            if user_id != game.record.host_id:
                raise Refusal("refusal.host_start")
            problems = self.start_problems(game)
            if problems:
                raise Refusal(problems[0].key, **problems[0].fields)
            try:
                setup = self.lobby_setup(game)
                state, events = self.engine.new_game(setup, game.record.seed)
            except ValidationError as exc:
                raise _validation_refusal(exc) from exc
            except EngineError as exc:
                raise _engine_refusal(exc) from exc
            from bot import history  # the seed commitment (see bot.history)

            commitment = history.seed_commitment(game.id, game.record.seed)
            record = await self.storage.update_game(
                game.id,
                game.record.version,
                status=GameStatus.ACTIVE,
                options={
                    **game.record.options,
                    "setup": setup.model_dump(mode="json"),
                    "commitment": commitment,
                },
            )
            game = LoadedGame(record, game.seats, setup, state)
            self._remember(game)
            await self._changed(game, None)
            out = self._outcome(game, None, events, image=True)
            out.public.append(history.commitment_text(commitment))
            return out

    # ------------------------------------------------------------ play
    async def act(
        self, game_id: int, user_id: int, seat: str | None, text: str, *, version: int | None = None
    ) -> Outcome:
        """Apply one action for the user. Raises UserError and changes nothing on refusal."""
        try:
            action = Action.from_text(text)
        except EngineError as exc:
            raise _engine_refusal(exc) from exc
        async with self.locks(game_id):
            game = await self.load(game_id)
            state = self._require_active(game)
            seat = self._seat_for(game, user_id, seat, state, action)
            stale = version is not None and version != game.record.version
            if stale and not await self._still_valid(game, seat, version or 0, state):
                raise Refusal("refusal.stale_buttons")
            try:
                new_state, events = self.engine.apply(state, seat, action)
            except EngineError as exc:
                raise _engine_refusal(exc) from exc
            before_active = state.active
            before = {(p.seat, p.kind) for p in self.engine.pending(state)}
            try:
                game = await self._commit(game, seat, action, new_state)
            except StaleGameVersion as exc:
                self._cache.pop(game.id, None)
                raise Refusal("refusal.race") from exc
            game, events = await self._auto_moves(game, events)
            await self._changed(game, seat)
            assert game.state is not None
            turn_over = game.state.step == "over" or game.state.active != before_active
            return self._outcome(game, seat, events, image=turn_over, before=before)

    async def _commit(
        self,
        game: LoadedGame,
        seat: str,
        action: Action,
        new_state: GameState,
        *,
        deadline_id: int | None = None,
    ) -> LoadedGame:
        """Append one applied action to the log (under the game's lock) and return the
        game after it. A deadline's default action closes its deadline in the same
        transaction. Raises StaleGameVersion if someone moved meanwhile."""
        if deadline_id is None:
            new_version = await self.storage.append_action(
                game.id, game.record.version, seat, str(action)
            )
        else:
            new_version = await self.storage.append_deadline_action(
                deadline_id, game.record.version, str(action)
            )
        record = game.record.model_copy(
            update={"version": new_version, "last_seq": game.record.last_seq + 1}
        )
        if new_state.step == "over":
            record = await self.storage.update_game(
                game.id, new_version, status=GameStatus.FINISHED, result=new_state.result
            )
        game = LoadedGame(record, game.seats, game.setup, new_state)
        self._remember(game)
        return game

    async def _changed(self, game: LoadedGame, actor: str | None) -> None:
        for listener in self.listeners:
            try:
                await listener(game, actor)
            except Exception:  # a listener must never undo or block a committed move
                log.exception("game %s: a change listener failed", game.id)

    async def game_settings(self, game_id: int) -> dict[str, Any]:
        record = await self.storage.get_game_settings(game_id)
        return dict(record.settings) if record is not None else {}

    async def _auto_moves(
        self, game: LoadedGame, events: list[Event]
    ) -> tuple[LoadedGame, list[Event]]:
        """Moves made for a seat without asking, each logged like any other action:

        * a game in ``fast`` response mode passes at once for a defender who holds no
          legal response, and says so (this mode reveals it, everyone was told);
        * a seat's standing orders (``/game orders``) choose among its legal actions;
        * a seat handed to a computer player (``bot.seats``) decides at once
          (:func:`computer_player`), its first public line marked "(computer)".
        """
        events = list(events)
        for _ in range(AUTO_MOVES):  # every auto move is a real decision: a game cannot loop
            state = game.state
            if state is None or state.step == "over":
                break
            await self._expire_orders(game, state)
            settings = await self.game_settings(game.id)
            orders: dict[str, list[str]] = settings.get("orders", {})
            fast = settings.get("responses") == "fast"
            computers = computer_seats(game, settings)
            move: tuple[str, Action, str] | None = None
            pending = self.engine.pending(state)
            for p in pending:
                if p.seat in computers:
                    if p.kind == "order" and any(
                        q.kind == "order" and q.seat not in computers for q in pending
                    ):
                        continue  # a human player of the side names the next element
                    decided = computer_player(game).choose(self.engine, state, p.seat)
                    move = (p.seat, decided, COMPUTER)
                    break
                seat_orders = [Order(o) for o in orders.get(p.seat, [])]
                chosen = order_action(self.engine, state, p.seat, seat_orders)
                if chosen is not None:
                    move = (p.seat, chosen, "orders")
                    break
                if p.kind != "respond":
                    continue
                legal = self.engine.legal_actions(state, p.seat)
                if [str(a) for a in legal] != ["pass"]:
                    continue
                if fast:
                    move = (p.seat, legal[0], "fast")
                    break
            if move is None:
                break
            seat, action, why = move
            new_state, more = self.engine.apply(state, seat, action)
            game = await self._commit(game, seat, action, new_state)
            if why == COMPUTER:  # marked on its first public line, if it has one
                first = next((i for i, e in enumerate(more) if e.public), None)
                if first is not None:
                    e = more[first]
                    more[first] = replace(e, text=Term("narration.computer", line=e.text))
                events.extend(more)
                continue
            label = self.element_label(state, seat)
            note = Term("narration.auto", element=label, why=Term(AUTO_WHY[why]))
            events.append(Event("auto", note))
            events.extend(more)
        return game, events

    async def update_orders(
        self, game_id: int, seat: str, order: Order | None, *, cancel: bool = False
    ) -> list[str]:
        """Add (or with ``cancel`` remove) one of ``seat``'s standing orders; returns
        the seat's orders. Under the game's lock, like every other write of the game's
        settings (offers, abandoned seats, expired orders), so none is lost."""
        async with self.locks(game_id):
            settings = await self.game_settings(game_id)
            all_orders: dict[str, list[str]] = dict(settings.get("orders", {}))
            current = list(all_orders.get(seat, []))
            if order is None:
                return current
            if cancel:
                if order.value not in current:
                    raise Refusal("people.no_such_order", seat=seat)
                current.remove(order.value)
            elif order.value not in current:
                current.append(order.value)
            all_orders[seat] = current
            await self.storage.put_game_settings(game_id, {**settings, "orders": all_orders})
            return current

    async def _expire_orders(self, game: LoadedGame, state: GameState) -> None:
        """Drop standing orders that ran out (``pass-responses`` at the seat's turn)."""
        settings = await self.game_settings(game.id)
        orders: dict[str, list[str]] = settings.get("orders", {})
        left = {
            seat: [o for o in mine if not expired(Order(o), self.engine, state, seat)]
            for seat, mine in orders.items()
        }
        if left != orders:
            await self.storage.put_game_settings(game.id, {**settings, "orders": left})

    async def default_move(
        self, deadline_id: int, game_id: int, seat: str, kind: str, *, computer: bool = False
    ) -> Outcome | None:
        """A deadline passed: the seat takes its passive default (``engine.default_action``)
        or, where the server allows it, a computer player takes that one decision.

        None if there is nothing to do (the game ended, the decision was taken or is
        gone). The action and the closing of the deadline are one transaction, so a
        retry after a crash never applies it twice (``DeadlineClosed``)."""
        async with self.locks(game_id):
            game = await self.load(game_id)
            state = game.state
            if game.record.status is not GameStatus.ACTIVE or state is None:
                return None
            if not any(p.seat == seat and p.kind == kind for p in self.engine.pending(state)):
                return None
            if computer:
                action = RandomPlayer(game.record.version).choose(self.engine, state, seat)
            else:
                action = self.engine.default_action(state, seat)
            before_active = state.active
            before = {(p.seat, p.kind) for p in self.engine.pending(state)}
            new_state, events = self.engine.apply(state, seat, action)
            try:
                game = await self._commit(game, seat, action, new_state, deadline_id=deadline_id)
            except (StaleGameVersion, DeadlineClosed):
                self._cache.pop(game_id, None)
                return None
            label = self.element_label(state, seat)
            who = (
                Term("deadline.by_computer")
                if computer
                else Term("deadline.by_default", action=str(action))
            )
            note = Event("deadline", Term("deadline.passed", element=label, who=who))
            events = [note, *events]
            if not computer and kind in TURN_DECISIONS:
                # A missed turn passes as a whole: the seat's later steps of the same
                # player-turn (play cards, discard and draw) take their defaults too,
                # instead of waiting a full deadline each.
                while game.state is not None and game.state.active == seat:
                    now = self.engine.pending(game.state)
                    if [(p.seat, p.kind in TURN_DECISIONS) for p in now] != [(seat, True)]:
                        break
                    step = self.engine.default_action(game.state, seat)
                    after, more = self.engine.apply(game.state, seat, step)
                    game = await self._commit(game, seat, step, after)
                    events.extend(more)
            game, events = await self._auto_moves(game, events)
            await self._changed(game, None)
            assert game.state is not None
            turn_over = game.state.step == "over" or game.state.active != before_active
            return self._outcome(game, seat, events, image=turn_over, before=before)

    async def resume(self, game_id: int) -> Outcome | None:
        """Make the moves nobody is asked for that are owed now (a computer player's,
        after a restart that interrupted them); None if there were none."""
        async with self.locks(game_id):
            game = await self.load(game_id)
            state = game.state
            if game.record.status is not GameStatus.ACTIVE or state is None:
                return None
            before = {(p.seat, p.kind) for p in self.engine.pending(state)}
            version = game.record.version
            game, events = await self._auto_moves(game, [])
            if game.record.version == version:
                return None
            await self._changed(game, None)
            assert game.state is not None
            turn_over = game.state.step == "over" or game.state.active != state.active
            return self._outcome(game, None, events, image=turn_over, before=before)

    def _require_active(self, game: LoadedGame) -> GameState:
        if game.record.status is GameStatus.LOBBY or game.state is None:
            raise Refusal("refusal.not_started")
        if game.record.status is not GameStatus.ACTIVE:
            raise Refusal("refusal.over")
        return game.state

    def _seat_for(
        self,
        game: LoadedGame,
        user_id: int,
        seat: str | None,
        state: GameState,
        action: Action | None = None,
    ) -> str:
        """The seat a user acts for: the one named (if theirs), else their seat that
        must decide now. A player holding several seats that decide at once (secret
        altitudes) names the seat unless only one of them may take this action."""
        mine = game.seats_of(user_id)
        if not mine:
            raise Refusal("refusal.not_playing")
        if seat is not None:
            seat = seat.strip().upper()
            if seat not in mine:
                raise Refusal("refusal.others_seat")
            return seat
        pending = [p for p in self.engine.pending(state) if p.seat in mine]
        waiting = list(dict.fromkeys(p.seat for p in pending))
        if len(waiting) > 1 and action is not None:
            if all(p.kind == "order" for p in pending):
                return waiting[0]  # one choice for the whole side (4.7)
            fits = [s for s in waiting if self.engine.refusal(state, s, action) is None]
            if len(fits) == 1:
                return fits[0]
            if fits:
                raise Refusal("refusal.which_seat", seats=and_list(waiting))
        return waiting[0] if waiting else mine[0]

    async def _still_valid(
        self, game: LoadedGame, seat: str, version: int, state: GameState
    ) -> bool:
        """Whether an outdated button may still be used.

        Normally not (a double click must never apply twice). The exception is a
        decision every seat takes at once (secret altitudes, Combat Vision): while only
        other seats moved since the button was sent, this seat's choices are the same,
        and in a team game four players picking at once would otherwise keep spoiling
        each other's menus. Every version bump of an active game is one action.
        """
        kinds = {p.kind for p in self.engine.pending(state) if p.seat == seat}
        behind = game.record.version - version
        if not kinds or not kinds <= SIMULTANEOUS or not 0 < behind <= game.record.last_seq:
            return False
        rows = await self.storage.load_actions(game.id, after_seq=game.record.last_seq - behind)
        return all(r.seat != seat for r in rows)

    def _outcome(
        self,
        game: LoadedGame,
        actor: str | None,
        events: list[Event],
        *,
        image: bool,
        before: set[tuple[str, str]] | None = None,
    ) -> Outcome:
        out = Outcome(game, image=image)
        for e in events:
            if e.seat is None:
                out.public.append(e.text)
            else:
                out.private.setdefault(e.seat, []).append(e.text)
        state = game.state
        assert state is not None
        out.finished = state.step == "over"
        for p in self.engine.pending(state):
            urgent = p.kind in ("respond", "follow")
            text = self.prompt_text(game, p)
            new = before is None or (p.seat, p.kind) not in before
            out.prompts.append(Prompt(p.seat, game.holder(p.seat), p.kind, text, urgent, new))
        return out

    def element_label(self, state: GameState, seat: str) -> str:
        """``Buffalo I (A1)``, as the narration names an element."""
        e = state.elements.get(seat)
        return f"{self.engine.aircraft[e.aircraft].name} ({seat})" if e is not None else seat

    def prompt_text(self, game: LoadedGame, p: Decision) -> str:
        """What ``p.seat`` must decide, naming the element (a player may hold several)."""
        state = game.state
        assert state is not None
        me = self.element_label(state, p.seat)
        if p.kind == "respond" and state.exchange is not None:
            x = self.engine.view(state, p.seat).exchange
            assert x is not None
            name = partial(plane_name, self.engine, state)
            where: str = ""
            if x.target == f"{p.seat}W" and len(x.cards) % 2 == 1:
                where = Term("prompt.with_wingman_defence")
            elif x.attacker == f"{p.seat}W":
                where = Term("prompt.with_wingman")
            return Term(  # the attacker or the target is this seat's: no need to name it
                "prompt.respond",
                attacker=name(x.attacker),
                cards=_chain(x.cards),
                target=name(x.target),
                where=where,
            )
        if p.kind == "follow" and state.follow is not None:
            mover = self.element_label(state, state.follow.mover)
            way = Term("prompt.climbed" if state.follow.direction > 0 else "prompt.dived")
            return Term("prompt.follow", me=me, mover=mover, way=way)
        if p.kind == "order":
            side, seats = self.engine.order_choice(state)
            rs = Ruleset(state.ruleset)
            names = ", ".join(self.element_label(state, s) for s in seats)
            return Term("prompt.order", side=side_term(side, rs), names=names)
        return Term("prompt.decide", me=me, decision=decision_words(p.kind))

    # ------------------------------------------------------------ reading
    def view(self, game: LoadedGame, seat: str | None) -> DifView:
        assert game.state is not None
        return self.engine.view(game.state, seat)

    def status_text(self, game: LoadedGame, view: DifView, language: str = "en") -> str:
        """One line for /game status: turn, step and who is awaited, or the result."""
        step = tr(view.step, language)
        text = t("status.head", language, id=game.id, turn=view.turn, step=step)
        result = game.record.result
        if game.record.status is not GameStatus.ACTIVE:
            if result:
                text += t("status.result", language, verdict=self.verdict_text(game, language))
            elif game.record.status is GameStatus.ABORTED:
                text += t("status.aborted", language)
            return text
        state = game.state
        assert state is not None
        seen: dict[str, None] = {}
        for p in view.pending:
            decision = tr(decision_words(p.kind), language)
            if p.kind == "order":
                side, _ = self.engine.order_choice(state)
                side_name = side_term(side, view.ruleset).text(language)
                seen[t("status.side", language, side=side_name, decision=decision)] = None
            else:
                holder = game.holder(p.seat)
                who = f"<@{holder}>" if holder is not None else t("status.computer", language)
                seen[t("status.seat", language, who=who, seat=p.seat, decision=decision)] = None
        waiting = ", ".join(seen)
        return text + (t("status.waiting", language, waiting=waiting) if waiting else "")

    def target_notes(self, game: LoadedGame, language: str = "en") -> dict[str, str]:
        """A short line per aircraft for menus: whose it is, its damage, its fight.

        ``wingman of Ki-43 Oscar (X1), flown by carol · Medium · 1/2 hits``: with
        several elements a side, the menu's label alone does not say enough.
        """
        if game.state is None:
            return {}
        view = self.engine.view(game.state, None)
        names = {s.seat: s.display_name for s in game.seats}
        engaged: dict[str, str] = {}
        for g in view.engagements:
            engaged[g.leader] = g.on
            engaged[g.on] = g.leader
        labels = {e.seat: e.label for e in view.elements}
        notes = {}
        for e in view.elements:
            where = (
                t(f"altitude.{e.altitude.code}", language)
                if e.altitude is not None
                else t("note.secret", language)
            )
            for p in (e.leader, e.wingman):
                if p is None:
                    continue
                leader = p.role == "leader"
                role = (
                    t("note.leader", language)
                    if leader
                    else t("note.wingman", language, element=e.label)
                )
                fight = ""
                if leader and e.seat in engaged:
                    other = labels.get(engaged[e.seat], engaged[e.seat])
                    fight = t("note.engaged", language, element=other)
                notes[p.ref] = t(
                    "note.line",
                    language,
                    role=role,
                    name=names.get(e.seat, "?"),
                    where=where,
                    hits=p.hits,
                    capacity=p.capacity,
                    damaged=t("note.damaged", language) if p.damaged else "",
                    engaged=fight,
                )
        return notes

    def legal(self, game: LoadedGame, seat: str) -> list[Action]:
        if game.state is None or game.record.status is not GameStatus.ACTIVE:
            return []
        return self.engine.legal_actions(game.state, seat)

    async def resign(self, game_id: int, user_id: int) -> Outcome:
        async with self.locks(game_id):
            game = await self.load(game_id)
            state = self._require_active(game)
            mine = game.seats_of(user_id)
            if not mine:
                raise Refusal("refusal.not_playing")
            side = Side(state.elements[mine[0]].side)
            verdict = self._verdict("end.resigned", side, Ruleset(state.ruleset))
            line = Term("end.resigns", user=f"<@{user_id}>", verdict=verdict)
            return await self.concede(game, side, verdict, line)

    @staticmethod
    def _verdict(key: str, loser: Side, rs: Ruleset) -> Term:
        return Term(key, winner=side_term(loser.other, rs), loser=side_term(loser, rs))

    def verdict_text(self, game: LoadedGame, language: str = "en") -> str:
        """The game's recorded verdict in ``language`` (see :meth:`verdict_term`)."""
        return tr(self.verdict_term(game), language)

    def verdict_term(self, game: LoadedGame) -> str:
        """The game's recorded verdict, as a :class:`Term` where it can be.

        The result stores the verdict's English text (the canonical record, compared by
        ``/game verify``); it is matched here with the verdicts the rules give for the
        final state, or a resignation or forfeit would, so it can be put in another
        language. A verdict matching none of them is returned as stored."""
        stored = str((game.record.result or {}).get("verdict", ""))
        rs = Ruleset(game.record.ruleset)
        candidates: list[str] = [
            self._verdict(key, side, rs)
            for key in ("end.resigned", "end.forfeits")
            for side in (Side.ALLIED, Side.AXIS)
        ]
        state = game.state
        if state is not None and state.result is not None:
            ended = self.engine.view(state, None).result
            if ended is not None:
                candidates.append(ended.verdict)
        return next((c for c in candidates if c == stored), stored)

    async def concede(self, game: LoadedGame, side: Side, verdict: str, line: str) -> Outcome:
        """End the game as a loss of ``side`` (a resignation, a forfeit), with the VP
        at that moment. Call it under the game's lock, the game just loaded. The
        result keeps the verdict in English (stored with the game); ``line`` is the
        public line (a :class:`Term`, put in the thread's language when published)."""
        state = self._require_active(game)
        winner = side.other
        vp = {k.value: v for k, v in self.engine.victory_points(state).items()}
        result = {"vp": vp, "winner": winner.value, "verdict": str(verdict)}
        record = await self.storage.update_game(
            game.id, game.record.version, status=GameStatus.FINISHED, result=result
        )
        game = LoadedGame(record, game.seats, game.setup, state)
        self._remember(game)
        await self._changed(game, None)
        return Outcome(game, public=[line], finished=True, image=False)

    async def forfeit(self, game: LoadedGame, seat: str, why: str) -> Outcome:
        """The side of ``seat`` forfeits (an abandoned seat nobody took over): a result
        like a resignation. Under the game's lock."""
        state = self._require_active(game)
        side = seat_side(seat)
        verdict = self._verdict("end.forfeits", side, Ruleset(state.ruleset))
        return await self.concede(
            game, side, verdict, Term("end.forfeit", why=why, verdict=verdict)
        )

    async def abort(self, game_id: int, user_id: int, *, admin: bool) -> Outcome:
        """The host (or a server admin) ends the game with no result: status aborted,
        deadlines cancelled (the listeners), the seed revealed like at any end."""
        async with self.locks(game_id):
            game = await self.load(game_id)
            if game.record.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
                raise Refusal("refusal.over_already")
            if user_id != game.record.host_id and not admin:
                raise Refusal("refusal.abort_who")
            record = await self.storage.update_game(
                game.id, game.record.version, status=GameStatus.ABORTED
            )
            game = LoadedGame(record, game.seats, game.setup, game.state)
            self._remember(game)
            await self._changed(game, None)
            started = game.state is not None
            line = Term("end.aborted", user=f"<@{user_id}>", id=game.id)
            return Outcome(game, public=[line], finished=started, image=False)

    # ------------------------------------------------------------ seats and undo
    async def hand_over(
        self, game: LoadedGame, seat: str, user_id: int | None, name: str, note: str
    ) -> Outcome:
        """Give ``seat`` to ``user_id`` for the rest of the game; None: a computer
        player flies it. Under the game's lock, the game just loaded.

        The seats table holds the new holder (NULL for a computer, listed in the game
        settings' ``computer_seats``); the seat's offers, abandonment, standing orders
        and any undo request are dropped; the seat listeners (the scheduler) drop its
        deadlines, which named the old holder. A computer seat decides at once."""
        state = self._require_active(game)
        record = next((s for s in game.seats if s.seat == seat), None)
        if record is None:
            raise Refusal("refusal.no_seat_named", seat=seat)
        before = {(p.seat, p.kind) for p in self.engine.pending(state)}
        settings = await self.game_settings(game.id)
        listed = [s for s in settings.get("computer_seats", []) if s != seat]
        settings["computer_seats"] = sorted([*listed, seat] if user_id is None else listed)
        for key in ("offers", "abandoned", "orders"):
            if key in settings:
                settings[key] = {k: v for k, v in settings[key].items() if k != seat}
        settings.pop("undo", None)
        await self.storage.put_game_settings(game.id, settings)
        try:
            await self.storage.put_seat(
                game.id,
                seat,
                record.side,
                user_id,
                name,
                dict(record.payload),
                expected_version=game.record.version,
            )
        except StaleGameVersion as exc:
            self._cache.pop(game.id, None)
            raise Refusal("refusal.race_seat") from exc
        fresh = await self.storage.get_game(game.id)
        assert fresh is not None
        game = LoadedGame(fresh, await self.storage.get_seats(game.id), game.setup, state)
        self._remember(game)  # every later action checks the seat against these seats
        for listener in self.seat_listeners:
            try:
                await listener(game, seat)
            except Exception:
                log.exception("game %s: a seat listener failed", game.id)
        game, events = await self._auto_moves(game, [Event("seat", note)])
        await self._changed(game, None)
        assert game.state is not None
        turn_over = game.state.step == "over" or game.state.active != state.active
        return self._outcome(game, None, events, image=turn_over, before=before)

    async def take_back(self, game: LoadedGame, seq: int, line: str) -> Outcome:
        """Take back action ``seq``, the latest in effect: append the marker ``undo
        seq`` (the log stays append-only) and return to the game without it. Under the
        game's lock; the caller checked that the undo is allowed (``bot.seats``)."""
        self._require_active(game)
        assert game.setup is not None and game.state is not None
        before = {(p.seat, p.kind) for p in self.engine.pending(game.state)}
        rows = effective(
            (r.seq, r.seat or "", r.action) for r in await self.storage.load_actions(game.id)
        )
        if not rows or rows[-1][0] != seq:
            raise Refusal("refusal.undo_latest")
        state = await asyncio.to_thread(
            self.engine.replay, game.setup, game.record.seed, [(s, t) for _, s, t in rows[:-1]]
        )
        try:
            version = await self.storage.append_action(
                game.id, game.record.version, None, undo_text(seq)
            )
        except StaleGameVersion as exc:
            self._cache.pop(game.id, None)
            raise Refusal("refusal.undo_moved_on") from exc
        record = game.record.model_copy(
            update={"version": version, "last_seq": game.record.last_seq + 1}
        )
        old_active = game.state.active
        game = LoadedGame(record, game.seats, game.setup, state)
        self._remember(game)
        game, events = await self._auto_moves(game, [Event("undo", line)])
        await self._changed(game, None)
        assert game.state is not None
        return self._outcome(
            game, None, events, image=game.state.active != old_active, before=before
        )

    async def public_log(self, game: LoadedGame) -> str:
        """The public log: each action in canonical notation with its public narration
        (secret parts masked until the game is over: see :mod:`bot.history`)."""
        if game.setup is None:
            return self.lobby_text(game)
        from bot.history import archive

        return await archive(self).public_log(game)
