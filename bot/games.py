"""Games as the service holds them: :class:`LoadedGame` and the store that loads them.

A game is ``(system, setup, seed, action log)``: loading one replays its log from its
setup with its system's rules (an undo marker takes back the latest action in effect,
see :mod:`bot.actionlog`). The state after every :data:`SNAPSHOT_EVERY`-th action is
stored too (a snapshot, written once the move's player was answered): a game is loaded
from its latest snapshot and the actions after it, so loading does not grow with the
log. A snapshot is a cache (one lost to a crash means a longer replay): one written by
other rules or data (:func:`code_fingerprint`), one an undo reaches behind, or one that
cannot be read is ignored and the whole log replayed.
Loaded games are cached by version; writes to one game are serialised by a per-game
lock and the storage's version check.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import hashlib
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

import data
import engine
from bot.actionlog import effective
from bot.clock import Clock, SystemClock
from bot.errors import Refusal, UserError
from bot.later import FollowUp, after_answer
from bot.packs import prepare, system_of
from bot.storage import GameRecord, GameStatus, SeatRecord, Storage
from bot.storage.locks import GameLocks
from bot.storage.models import DeadlineChanges, MoveCommitted
from bot.systems import Hosted, options_of, picks_of
from bot.words import and_list, player_name
from engine.core.contract import Outcome, SeatPick, SideInfo
from engine.core.errors import EngineError
from engine.core.present import Presenter
from engine.core.snapshots import resume
from strings import Term, tr

__all__ = [
    "SNAPSHOT_EVERY",
    "GameStore",
    "LoadedGame",
    "code_fingerprint",
    "engine_refusal",
    "result_record",
    "validation_refusal",
]

log = logging.getLogger(__name__)


def validation_refusal(exc: ValidationError) -> UserError:
    """The first message of a model's refusal, without pydantic's wording.

    A validator of a system's model that raised a :class:`Term` keeps it (so it is
    translated); pydantic's own messages (a wrong type) exist in English only."""
    err = exc.errors()[0]
    inner = (err.get("ctx") or {}).get("error")
    why = inner.args[0] if isinstance(inner, Exception) and inner.args else None
    if isinstance(why, Term):  # its own last period, if it has one
        return UserError(why) if why.endswith(".") else Refusal("refusal.setup", why=why)
    msg = str(err.get("msg", exc)).removeprefix("Value error, ")
    return Refusal("refusal.setup", why=msg.rstrip("."))


def engine_refusal(exc: EngineError) -> UserError:
    """An engine error as a refusal, its message untouched (a :class:`Term` stays one)."""
    return UserError(exc.args[0] if exc.args else str(exc))


def result_record(outcome: Outcome) -> dict[str, Any]:
    """A game's result as stored with it: ``{"vp": {side: n}, "winner": side or None,
    "verdict": text}`` (the verdict's English text: the canonical record, which
    ``/game verify`` compares)."""
    return {"vp": dict(outcome.vp), "winner": outcome.winner, "verdict": str(outcome.verdict)}


SNAPSHOT_EVERY = 50
"""Actions between two snapshots: a load replays at most this many (about 2 ms)."""

GAME_CACHE = 2048
"""Games a process holds in memory by default (``TALLYHO_GAME_CACHE``): about 18 KiB
each (a 1v1 dogfight, measured with ``tracemalloc``), 37 MiB in all. A click on a game
not held loads it again: its latest snapshot and the actions after it. With 1,000
games open and 512 held, half the clicks of ``bench/latency.py`` missed the cache.
What is held costs the collector nothing: it is frozen (:func:`keep_out_of_collections`)."""

FREEZE_EVERY = 64
"""Games put in the cache (loaded or moved: every move makes a new state) between two
freezes of what the process holds (:meth:`GameStore._remember`): what a full collection
walks is at most this many states (with 256, a burst of moves made a 117 ms pause)."""

YOUNG_COLLECTION_AFTER = 10_000
"""Containers allocated (net of those freed) between two young collections while the
bot runs (CPython's default: 700). A young collection walks every object made since
the last one that is still alive, and in a burst of clicks those are the clicks in
flight: at 700 it walked them again every few clicks. ``bench/latency.py``'s bursts (94
clicks, then one on each of 1,000 open games), pauses with clicks in flight: on SQLite
266, 94 ms in all, the longest 8 ms at 700; 16, 60 ms in all, the longest 10 ms at
10,000 (the burst of 94 answered at 93 ms, p99, instead of 100); on PostgreSQL 222,
78 ms, the longest 11 ms; 15, 49 ms, the longest 21 ms. At 20,000: 5-8 pauses, 35-58 ms
in all, but up to 30 ms each. (At 5,000, tried long ago, a middle-generation collection
paused 55-69 ms with a thousand clicks in flight: those held much more then, e.g. the
offline Discord's log of every request.) Dead reference cycles wait longer to be
freed: a few megabytes at most. Set while the bot runs (:func:`tune_collector`)."""

MIDDLE_COLLECTION_AFTER = 2
"""Young collections between two of the middle generation while the bot runs
(CPython's default: 10). A middle-generation collection walks every object the young
collections since the last one let through, and with a young collection every
:data:`YOUNG_COLLECTION_AFTER` allocations, ten of them were up to 100,000 objects: in
``bench/latency.py``'s bursts on PostgreSQL (a slower machine day) such a pause took
49-65 ms at the longest in three runs, 142-167 ms of pauses in all; with 2, 21.7 ms
(82 ms in all), with 1, 27 ms (92 ms). Set while the bot runs (:func:`tune_collector`)."""

FULL_COLLECTION_AFTER = 1000
"""Collections of the middle generation between two full collections the collector
starts by itself (CPython's default: 10): a full collection walks every object not
frozen, and in a burst of clicks those are the clicks in flight. With the default, a
burst of 100 clicks on 1,000 open games answered at 206 ms (p99) and paused up to
131 ms; with 1,000, at 140-154 ms, pausing up to 94-96 ms (``bench/latency.py``). The
game cache's freezes collect in full at idle moments (:meth:`GameStore.idle`), and
a click holds no reference cycle, so what waits longer for a full collection is
little. Set while the bot runs (:func:`tune_collector`)."""

FREEZE_AT_LATEST = 2 * FREEZE_EVERY
"""Games put in the cache after which the freeze waits no longer for a moment with
nothing in flight (:meth:`GameStore.idle`): under load that never pauses, the
collector's walks stay bounded all the same (with 8 times ``FREEZE_EVERY``, a burst
of 1,000 clicks made a 201 ms pause, against 152 ms freezing every 64 games)."""


@functools.cache
def code_fingerprint() -> str:
    """What a stored state depends on besides the log: the engine's code and the
    shipped data, hashed. A snapshot written under other ones is not trusted."""
    digest = hashlib.sha256()
    for package in (engine, data):
        root = Path(str(package.__file__)).parent
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".yaml") and "__pycache__" not in path.parts:
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass
class LoadedGame:
    """A game as the service holds it: its record, seats, setup and current state."""

    record: GameRecord
    seats: list[SeatRecord]
    setup: Any = None
    """The system's setup (``setup_model``), once started."""
    state: Any = None
    """The system's state, once started."""

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def system(self) -> Hosted:
        """The game's system: the built-in one, or the one over the content packs the
        game was created with (:mod:`bot.packs`)."""
        return system_of(self.record.system, self.record.options)

    @property
    def presenter(self) -> Presenter:
        return self.system.presenter()

    @property
    def options(self) -> BaseModel:
        """The lobby's options, as the system's ``options_model``."""
        return options_of(self.system, self.record.ruleset, self.record.options)

    @property
    def picks(self) -> list[SeatPick]:
        """The seats taken, as the contract's seat picks."""
        return picks_of(self.system, self.seats)

    def sides(self) -> tuple[SideInfo, ...]:
        """The game's sides, with their names."""
        if self.state is not None:
            return self.system.sides(self.state)
        return self.system.lobby_sides(self.options)

    def side_name(self, side: str) -> str:
        """A side's name (a Term): ``Allied``."""
        return next((s.name for s in self.sides() if s.id == side), side)

    def side_phrase(self, side: str) -> str:
        """A side inside a sentence (a Term): ``the Allied side``, ``side A``; the
        system's (:attr:`SideInfo.phrase`), else ``the <name> side``."""
        info = next((s for s in self.sides() if s.id == side), None)
        if info is not None and info.phrase is not None:
            return info.phrase
        return Term("side.phrase", name=info.name if info is not None else side)

    @property
    def practice_level(self) -> str | None:
        """The computer players' level of a practice game (``/dogfight new
        opponent:computer``: :mod:`bot.lobby`), or None for any other game."""
        level = self.record.options.get("computer_level")
        return str(level) if level is not None else None

    def holder(self, seat: str) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    def side_of(self, seat: str) -> str | None:
        return next((s.side for s in self.seats if s.seat == seat), None)

    def seats_of(self, user_id: int) -> list[str]:
        return [s.seat for s in self.seats if s.user_id == user_id]

    def require_seat(self, seat: str) -> SeatRecord:
        """The record of ``seat`` (already upper-cased); refused, naming the game's seats,
        when the game has no such seat (a typo, a malformed name: ``ZZ9``)."""
        found = next((s for s in self.seats if s.seat == seat), None)
        if found is None:
            raise Refusal("refusal.no_seat_named", seat=seat, seats=and_list(self.seat_ids()))
        return found

    def seat_ids(self) -> list[str]:
        """Every seat of the game, in the order of its sides."""
        order = {side.id: n for n, side in enumerate(self.sides())}
        return [s.seat for s in sorted(self.seats, key=lambda s: (order.get(s.side, 99), s.seat))]

    def players(self, language: str) -> dict[str, str]:
        """Who flies each seat, in ``language``: the member's name as stored, or "a
        computer player" (for menus, and the pictures that name them)."""
        return {s.seat: tr(player_name(s), language) for s in self.seats}

    def seat_label(self, seat: str) -> str:
        """How narration names the seat's aircraft: ``Buffalo I (A1)``."""
        return self.presenter.seat_label(self.state, seat) if self.state is not None else seat

    @property
    def format(self) -> str:
        """``1v1``, ``2v2`` or ``custom`` (games from before team games: 1v1)."""
        return str(self.record.options.get("format", "1v1"))


def keep_out_of_collections(*, collect: bool = True) -> None:
    """Move what the process holds now out of the garbage collector's sight
    (``gc.freeze``), after a collection of what is not frozen yet (``gc.collect()``:
    what the process made since the last freeze, a few milliseconds when nothing is in
    flight; ``collect=False`` under load, where it would walk every click in flight).

    A full collection walks every object the process holds, and the cached games are
    most of them (thousands of small objects each): with 10,000 games cached it stops
    the event loop for seconds. Frozen objects are never walked, and still freed when
    nothing refers to them any more (a game's state holds no reference cycle:
    ``tests/bot/test_move_transaction.py`` checks it), so a game evicted from the cache
    or replaced by its next state goes as before. The cost: a reference cycle that was
    alive at a freeze and dies later is never collected, so the game cache freezes
    when no move is in flight (:meth:`GameStore.idle`), after collecting what is not
    frozen yet (a young collection only, ``gc.collect(1)``, also froze the dead cycles
    that had reached the oldest generation). The start-up freezes what it loaded
    (modules, the systems' data), and the game cache calls this every
    :data:`FREEZE_EVERY` games it takes in, at the first moment nothing is in flight
    (``bench/latency.py`` prints the pauses, and the dead objects freezes kept).

    Under load that never pauses, the freeze comes all the same after
    :data:`FREEZE_AT_LATEST` games, without the collection: with a thousand clicks in
    flight it walked them all (a 136-177 ms pause in ``bench/latency.py``'s burst), and
    a click holds no reference cycle (``cogs.boundary``, tested), so freezing it
    keeps nothing once it is done."""
    if collect:
        gc.collect()
    gc.freeze()


def tune_collector() -> tuple[int, ...]:
    """Let the collector start a young collection only every
    :data:`YOUNG_COLLECTION_AFTER` allocations, one of the middle generation every
    :data:`MIDDLE_COLLECTION_AFTER` young ones, and a full one only every
    :data:`FULL_COLLECTION_AFTER` middle-generation collections; the thresholds it
    had, to put back when the bot stops (they are the whole process's)."""
    before = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_AFTER, MIDDLE_COLLECTION_AFTER, FULL_COLLECTION_AFTER)
    return before


class DeadlinePlanner(Protocol):
    """Plans a move's deadlines, so the move writes them with its actions
    (``bot.operations.DeadlineOps``: the scheduler's :meth:`plan` and :meth:`committed`)."""

    async def plan(self, game: LoadedGame, actor: str | None) -> DeadlineChanges:
        """The deadlines of ``game`` after a change (its state and version after it),
        ``actor`` the seat that acted, if any."""
        ...

    def committed(self, game: LoadedGame, done: MoveCommitted) -> None:
        """The planned change was written."""
        ...


class GameStore:
    """Loads, caches and watches the games of one bot process."""

    def __init__(
        self,
        storage: Storage,
        *,
        seed_source: Callable[[], int] | None = None,
        cache_size: int = GAME_CACHE,
        clock: Clock | None = None,
    ) -> None:
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        """Times of offers and requests that expire (``bot.seats``)."""
        self.locks = GameLocks()
        self._seed = seed_source or (lambda: secrets.randbits(62))
        self._cache: OrderedDict[int, LoadedGame] = OrderedDict()
        self._cache_size = cache_size
        self._unfrozen = 0
        """Games put in the cache since the last freeze."""
        self.busy: Callable[[], bool] = lambda: False
        """Whether a move is in flight now (the bot's gate: an interaction running),
        when a freeze would keep its dead reference cycles for ever (:meth:`idle`)."""
        self.crowded: Callable[[], bool] = lambda: False
        """Whether other interactions are in flight than the current one (the bot's
        gate): the event loop then has their work to do while a move's write waits,
        and a mover's answer made meanwhile would only come before theirs
        (``bot.play._EarlyAnswer``)."""
        self.setup_filter: Callable[[Any], Any] | None = None
        """Tests only: rewrites the lobby's setup at the start, e.g. to fix hands,
        the top of the deck or altitudes (a system's test-only setup fields)."""
        self.listeners: list[Callable[[LoadedGame, str | None], Awaitable[None]]] = []
        """Called after every committed change of a game, under its lock, with the
        seat that acted (None: the game started, or a deadline's default action):
        the deadline scheduler keeps its deadlines in line with the pending decisions."""
        self.planner: DeadlinePlanner | None = None
        """Plans each move's deadlines, written in the move's transaction (None: the
        game has no deadlines, e.g. a bare service in tests)."""
        self.seat_listeners: list[Callable[[LoadedGame, str], Awaitable[None]]] = []
        """Called when a seat changes hands (``bot.seats``), under the game's lock and
        before the change listeners: the scheduler drops the seat's deadlines (they
        named the old holder) and forgets its missed deadlines."""

    def held(self, game_id: int) -> LoadedGame | None:
        """The copy of the game the cache holds, if any, not checked against the
        database (a move checks it by its commit: ``Play.act``)."""
        return self._cache.get(game_id)

    async def load(self, game_id: int, *, remember: bool = True) -> LoadedGame:
        """The game now: from the cache if it holds this version, else from the
        database (its snapshot and the actions after it). ``remember=False``: a read
        of a finished game for a record or a report, which keeps the games being
        played in the cache rather than evicting them."""
        cached = self._cache.get(game_id)
        if cached is not None:  # still this version? (only the version is read)
            version = await self.storage.game_version(game_id)
            if version is None:
                raise Refusal("refusal.no_game")
            if cached.record.version == version:
                # Other loads may have evicted it while the version was read (a busy
                # cache): put it back rather than fail.
                if game_id in self._cache:
                    self._cache.move_to_end(game_id)
                elif remember:
                    self._remember(cached)
                return cached
        record = await self.storage.get_game(game_id)
        if record is None:
            raise Refusal("refusal.no_game")
        await prepare(self.storage, record.system, record.options)
        game = LoadedGame(record, await self.storage.get_seats(game_id))
        if "setup" in record.options:
            system = game.system
            game.setup = system.setup_model.model_validate(record.options["setup"])
            game.state = await self._from_snapshot(game)
            if game.state is None:
                log_rows = await self.storage.load_actions(game_id)
                rows = effective((r.seq, r.seat or "", r.action) for r in log_rows)  # undo markers
                game.state = await asyncio.to_thread(
                    system.replay, game.setup, record.seed, [(seat, text) for _, seat, text in rows]
                )
        if remember:
            self._remember(game)
        return game

    async def _from_snapshot(self, game: LoadedGame) -> Any:
        """The game's state from its latest snapshot and the actions after it, or None
        (no snapshot, or one that must not be trusted: the whole log is replayed)."""
        snapshot = await self.storage.latest_snapshot(game.id)
        if snapshot is None or snapshot.state.get("code") != code_fingerprint():
            return None
        dump = snapshot.state.get("dump")
        if not isinstance(dump, str):  # written before the dump was kept as text
            return None
        tail = await self.storage.load_actions(game.id, after_seq=snapshot.seq)
        try:  # an undo behind the snapshot leaves a marker the tail cannot match
            rows = effective((r.seq, r.seat or "", r.action) for r in tail)
            return await asyncio.to_thread(
                resume, game.system, json.loads(dump), [(s, t) for _, s, t in rows]
            )
        except Exception:
            log.warning(
                "game %s: its snapshot at action %s cannot be used; replaying the whole log",
                game.id,
                snapshot.seq,
                exc_info=True,
            )
            return None

    @staticmethod
    def snapshot_due(seq: int) -> bool:
        """Whether the state after action ``seq`` is kept as a snapshot (every
        :data:`SNAPSHOT_EVERY`-th)."""
        return seq % SNAPSHOT_EVERY == 0

    @staticmethod
    def snapshot(game: LoadedGame, seq: int, state: Any) -> dict[str, Any] | None:
        """What to store as the snapshot after action ``seq`` (the state after it): a
        snapshot with every :data:`SNAPSHOT_EVERY`-th action, else None.

        The state's dump is kept as JSON text (``dump``), not as a JSON object: the
        stores write their JSON columns with sorted keys, and PostgreSQL's ``jsonb``
        orders them its own way, while a system's rules may go through a dict of its
        state in order (Down in Flames deals and fires element by element): a Zero!
        mission whose Axis seats came first played on differently from a snapshot
        read back sorted, and refused its own log (tests/bot/test_snapshots.py)."""
        if not GameStore.snapshot_due(seq):
            return None
        dump = json.dumps(game.system.dump_state(state), ensure_ascii=False, separators=(",", ":"))
        return {"code": code_fingerprint(), "dump": dump}

    def _remember(self, game: LoadedGame) -> None:
        self._cache[game.id] = game
        self._cache.move_to_end(game.id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        self._unfrozen += 1
        if self._unfrozen >= FREEZE_EVERY and not self.busy():
            self._freeze()
        elif self._unfrozen >= FREEZE_AT_LATEST:
            self._freeze(collect=False)  # under load: walking the clicks would stall them

    def idle(self) -> None:
        """Nothing is in flight now (the bot's gate calls it when its last interaction
        ends): freeze, if one is due. A freeze while a move runs keeps that move's
        reference cycles (its view and buttons, its interaction), which die moments
        later and are then never freed; now they are dead and collected first."""
        if self._unfrozen >= FREEZE_EVERY:
            self._freeze()

    def _freeze(self, *, collect: bool = True) -> None:
        self._unfrozen = 0
        keep_out_of_collections(collect=collect)

    def _forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

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

    async def later(self, game_id: int, work: FollowUp) -> None:
        """``work`` on the game after the current interaction's answer, under the
        game's lock then; outside an interaction at once, under the lock its caller
        holds (``bot.later``)."""

        async def locked() -> None:
            async with self.locks(game_id):
                await work()

        await after_answer(work, deferred=locked)

    async def game_settings(self, game_id: int) -> dict[str, Any]:
        record = await self.storage.get_game_settings(game_id)
        return dict(record.settings) if record is not None else {}

    async def _changed(self, game: LoadedGame, actor: str | None) -> None:
        for listener in self.listeners:
            try:
                await listener(game, actor)
            except Exception:  # a listener must never undo or block a committed move
                log.exception("game %s: a change listener failed", game.id)
        if game.record.status is GameStatus.ACTIVE:
            # What the next click reads, read after the answer if the change dropped it.
            await after_answer(functools.partial(self.prefetch, game.id))

    async def prefetch(self, game_id: int) -> None:
        """Have the storage read what the game's next click reads, if it does not hold
        it (``Storage.prefetch``): after a game's start, a deadline's default or a
        reminder, the next click would wait for that read. A failure only costs the
        click the read: logged, never raised."""
        try:
            await self.storage.prefetch(game_id)
        except Exception:
            log.warning("game %s: could not read ahead for its next click", game_id, exc_info=True)

    @staticmethod
    def require_active(game: LoadedGame) -> Any:
        """The state of a running game (refused in the lobby and once it is over)."""
        if game.record.status is GameStatus.LOBBY or game.state is None:
            raise Refusal("refusal.not_started")
        if game.record.status is not GameStatus.ACTIVE:
            raise Refusal("refusal.over")
        return game.state
