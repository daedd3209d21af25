"""Playing: applying a seat's action, the moves made without asking (standing orders,
``fast`` passes, computer players), a deadline's default move, handing a seat over and
taking an action back.

Every action is checked by the game's system and appended to the log **before**
anyone is answered; generic code reads a decision's timing and scope, never its
kind, and asks the system (:class:`~engine.core.contract.HostedSystem`) what its flow
means: whose turn it is, a forced pass, a computer player's move, standing orders.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Generic, TypeVar

from bot.actionlog import effective, handover_text, undo_text
from bot.errors import InternalError, Refusal, UserError
from bot.games import GameStore, LoadedGame, engine_refusal, result_record
from bot.history import replay_history
from bot.outcome import Outcome, outcome_of
from bot.storage import GameNotFound, GameStatus, StaleGameVersion, StalePlan
from bot.storage.base import DeadlineClosed
from bot.storage.memo import remember_settings
from bot.storage.models import LogEntry
from bot.words import and_list
from engine.core.contract import DEFAULT_COMPUTER_LEVEL, Decision, Scope, Timing
from engine.core.errors import EngineError
from engine.core.events import Event
from strings import Term

__all__ = [
    "AUTO_MOVES",
    "COMPUTER",
    "Answer",
    "Play",
    "computer_level",
    "computer_seats",
    "computer_seed",
]

log = logging.getLogger(__name__)

R = TypeVar("R")

Answer = Callable[[Outcome], R]
"""What the mover is told, made of a move's outcome (:meth:`Play.act_and_answer`): plain
computation, no I/O, so it may be made while the move's write is at the database."""

AUTO_MOVES = 5000
"""The most moves made without asking after one change: enough for a whole game
between two computer players (a random game takes a few hundred actions)."""
COMPUTER = "computer"
"""Why a move was made without asking: a computer player's (``narration.computer``
marks its first public line, ``Ki-43 Oscar (X1) stays at Medium. (computer)``; the
log's narration, which verification compares with a replay, stays the system's)."""
PLAN_ATTEMPTS = 3
"""How often a click's move is planned when what it was planned on keeps changing
under it (``StalePlan``: another process wrote the game's settings or deadlines
meanwhile) before the click is refused as a race."""
AUTO_WHY = {"orders": "narration.orders", "fast": "narration.fast"}
"""The other moves made without asking, and the catalogue key that says why."""


def computer_seats(game: LoadedGame, settings: dict[str, Any]) -> set[str]:
    """The seats a computer player flies: listed in the game settings'
    ``computer_seats`` and held by nobody (``user_id`` NULL in the seats table)."""
    listed = set(settings.get("computer_seats", []))
    return {s.seat for s in game.seats if s.seat in listed and s.user_id is None}


def computer_level(settings: dict[str, Any], seat: str) -> str:
    """The level of the computer player flying ``seat``: the game settings'
    ``computer_levels`` (a practice game's choice, the server's when the seat was
    handed over), else the default (a campaign mission's computer seats)."""
    level: str = settings.get("computer_levels", {}).get(seat, DEFAULT_COMPUTER_LEVEL)
    return level


def computer_seed(game: LoadedGame) -> int:
    """The seed of a game's computer player at its current version, hashed from the
    game (its choices say nothing of the secret seed). Its moves are logged like any
    other, so replays never need it."""
    key = f"tally-ho/{game.record.system}/computer/v1:{game.id}:{game.record.seed}:{game.record.version}"
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


def _own_turn(d: Decision) -> bool:
    """A step of the seat's own turn: a missed deadline passes the rest of the turn."""
    return d.timing is Timing.TURN and d.scope is Scope.SEAT


def _checked(game: LoadedGame, seat: str | None, what: str, call: Any, *args: Any) -> Any:
    """``call(*args)``, one of the system's rules (parse or apply an action), before
    anything is committed. The rules' refusal (an :class:`EngineError`) becomes the
    player's refusal; anything else the system raises is a bug: logged here with its
    traceback (the game, the seat and the step, not the move: it may be a secret
    pick), and the player is told only that nothing changed (:class:`InternalError`),
    so a faulty system can never leave a game half-changed or stuck on a failure."""
    try:
        return call(*args)
    except EngineError as exc:
        raise engine_refusal(exc) from exc
    except Exception as exc:
        log.exception(
            "game %s (%s): the system failed to %s a move of seat %s; nothing was changed",
            game.id,
            game.record.system,
            what,
            seat,
        )
        raise InternalError from exc


def _no_answer(outcome: Outcome) -> None:
    """Nothing to tell the mover (:meth:`Play.act`)."""


def _pending(game: LoadedGame, state: Any) -> set[tuple[str, str]]:
    return {(p.seat, p.kind) for p in game.system.pending(state)}


def _auto_move(
    game: LoadedGame,
    state: Any,
    orders: dict[str, list[str]],
    *,
    fast: bool,
    computers: dict[str, str],
) -> tuple[str, Any, str] | None:
    """The next move made without asking, as ``(seat, action, why)``, or None.
    ``computers``: the level of each seat a computer player flies."""
    system = game.system
    pending = system.pending(state)
    for p in pending:
        if p.seat in computers:
            if p.scope is Scope.SIDE and any(
                q.scope is Scope.SIDE and q.seat not in computers for q in pending
            ):
                continue  # a human player of the side decides for it
            player = system.computer_player(computer_seed(game), computers[p.seat])
            decided = player.choose(state, p.seat)
            return (p.seat, decided, COMPUTER)
        chosen = system.order_action(state, p.seat, orders.get(p.seat, []))
        if chosen is not None:
            return (p.seat, chosen, "orders")
        if fast:
            forced = system.forced_action(state, p.seat)
            if forced is not None:
                return (p.seat, forced, "fast")
    return None


class _Move:
    """Actions applied in memory and not yet written: the player's action, the moves
    made without asking after it, a missed turn's defaults. :meth:`Play._commit`
    writes them in one transaction with the deadlines of the state they lead to."""

    def __init__(self, game: LoadedGame, seat: str | None = None) -> None:
        self.start = game
        self.game = game
        """The game after the actions so far (its version and last seq counted on)."""
        self.seat = seat
        """The seat whose action it is (None: nobody's, e.g. moves after a start)."""
        self.entries: list[LogEntry] = []
        self.orders: dict[str, list[str]] | None = None
        """The standing orders left once some ran out (None: none ran out)."""
        self.events: list[Event] = []
        """What the actions did, for the outcome."""
        self.before_turn: str | None = None
        self.before: set[tuple[str, str]] = set()
        """Whose turn it was and what was pending before the seat's action."""
        self.snapshots: list[tuple[int, Any]] = []
        """The states to keep as snapshots, by the seq of the action that reached each
        (every ``SNAPSHOT_EVERY``-th): stored after the answer (:meth:`Play._commit`)."""

    def add(self, seat: str, action: Any, state: Any) -> None:
        game = self.game
        seq = game.record.last_seq + 1
        self.entries.append(LogEntry(seat, str(action)))
        if GameStore.snapshot_due(seq):
            self.snapshots.append((seq, state))
        record = game.record.model_copy(
            update={"version": game.record.version + 1, "last_seq": seq}
        )
        self.game = LoadedGame(record, game.seats, game.setup, state)


class _EarlyAnswer(Generic[R]):
    """The mover's answer, made while the move's write is at the database (issue 14).

    A move's reply waited for its commit's round trip (about half a millisecond on
    PostgreSQL: the server's time, during which the event loop had nothing to do) and
    was made after it. Its outcome does not depend on what the write returns: the
    game's state and seats are the move's own, and its version is the one the commit
    is guarded by. So :meth:`Play._commit` runs this (``loop.call_soon``) as it sends
    the write: the loop runs it while it waits for the answer, and the reply is sent
    as soon as the write is confirmed. Nothing is sent before then: an answer made
    for a move whose write failed is dropped (``discard``). A store whose write does
    not wait (SQLite in memory) confirms the move before this ran: it is then made
    after the write, as before. A move that ends the game is answered after its write
    (its record is the one the write finished).

    Only when no other interaction is in flight (:attr:`GameStore.crowded`): with other
    work ready (a burst of clicks), the loop is not idle while the write waits, and
    making every answer before any reply would delay the replies on average by the
    answers' making, for no gain (measured: a burst of 95 clicks' p50 8-21 ms later)."""

    def __init__(
        self,
        play: Play,
        move: _Move,
        answer: Answer[R],
        discard: Callable[[R], None] | None,
    ) -> None:
        self.play = play
        self.move = move
        self.answer = answer
        self.discard = discard
        self.outcome: Outcome | None = None
        self.answered: R | None = None

    def __call__(self) -> None:
        move = self.move
        game = move.game
        if game.system.is_over(game.state) or self.play.crowded():
            return
        try:
            outcome = self.play._after(game, move.events, move.before_turn, move.before)
            self.answered = self.answer(outcome)
        except Exception:  # made again after the write, where it fails as usual
            log.debug("game %s: no answer made during the write", game.id, exc_info=True)
            return
        self.outcome = outcome

    def taken(self, after: LoadedGame) -> tuple[Outcome, R] | None:
        """The outcome and answer made early, for the game ``after`` the write (None:
        none was made, or it does not hold for that game: made again)."""
        outcome, answered = self.outcome, self.answered
        record = after.record
        if outcome is None or record.status is not GameStatus.ACTIVE:
            self.drop()
            return None
        assert record.version == self.move.game.record.version  # the write's guard
        self.outcome = self.answered = None
        return replace(outcome, game=after), answered  # type: ignore[return-value]

    def drop(self) -> None:
        """The move was not written as made (or is answered again): the answer made
        early is dropped."""
        if self.outcome is not None and self.discard is not None:
            self.discard(self.answered)  # type: ignore[arg-type]
        self.outcome = self.answered = None


class Play(GameStore):
    """Playing verbs of the service."""

    # ------------------------------------------------------------ reading
    def view(self, game: LoadedGame, seat: str | None) -> Any:
        assert game.state is not None
        return game.system.view(game.state, seat)

    def legal(self, game: LoadedGame, seat: str) -> list[Any]:
        if game.state is None or game.record.status is not GameStatus.ACTIVE:
            return []
        return game.system.legal_actions(game.state, seat)

    def prompt_text(self, game: LoadedGame, p: Decision) -> str:
        """What ``p.seat`` must decide, naming its aircraft (a :class:`Term`)."""
        return game.presenter.prompt(game.state, p)

    # ------------------------------------------------------------ acting
    async def act(
        self, game_id: int, user_id: int, seat: str | None, text: str, *, version: int | None = None
    ) -> Outcome:
        """Apply one action for the user. Raises UserError and changes nothing on refusal
        (:meth:`act_and_answer`, with nothing to answer)."""
        outcome, _ = await self.act_and_answer(
            game_id, user_id, seat, text, _no_answer, version=version
        )
        return outcome

    async def act_and_answer(
        self,
        game_id: int,
        user_id: int,
        seat: str | None,
        text: str,
        answer: Answer[R],
        *,
        version: int | None = None,
        discard: Callable[[R], None] | None = None,
    ) -> tuple[Outcome, R]:
        """Apply one action for the user, and make what the mover is told of it
        (``answer``, pure computation, given the outcome): both, once the move is
        written. Raises UserError and changes nothing on refusal.

        The answer is made while the move's write is at the database when it can be
        (:class:`_EarlyAnswer`), else after it; one made for a write that failed is
        handed to ``discard``, if given, and never returned.

        The game held in the cache is played without first asking the database whether
        it is still the latest (a round trip on PostgreSQL): the move's commit is
        guarded by the version (``StaleGameVersion``), so a game another process moved
        meanwhile writes nothing. A refusal, or a lost commit, on a game held that way
        is checked: if the game had moved on, the action is tried again on the game as
        it is now, which decides (a refusal on a stale copy is never the answer)."""
        async with self.locks(game_id):
            held = self.held(game_id)
            if held is None or (version is not None and version > held.record.version):
                game, verified = await self.load(game_id), True
            else:
                game, verified = held, False
            try:
                move, after, early = await self._played(
                    game, user_id, seat, text, version, answer, discard
                )
            except InternalError:
                raise
            except (UserError, GameNotFound):
                if verified or await self.storage.game_version(game_id) == game.record.version:
                    raise
                self._forget(game_id)  # the copy held was out of date: try on the game now
                now = await self.load(game_id)
                move, after, early = await self._played(
                    now, user_id, seat, text, version, answer, discard
                )
            try:
                await self._changed(after, move.seat)
            except BaseException:  # cancelled: the answer made early is never sent
                early.drop()
                raise
            taken = early.taken(after)
            if taken is not None:
                return taken
            outcome = self._after(after, move.events, move.before_turn, move.before)
            return outcome, answer(outcome)

    async def _played(
        self,
        game: LoadedGame,
        user_id: int,
        seat: str | None,
        text: str,
        version: int | None,
        answer: Answer[R],
        discard: Callable[[R], None] | None,
    ) -> tuple[_Move, LoadedGame, _EarlyAnswer[R]]:
        """The user's action on this copy of the game (:meth:`_move`), written
        (:meth:`_commit`, its ``answer`` made meanwhile): the move, the game after it
        and the answer made early. A commit that lost a race (the game moved on
        meanwhile: nothing was written) is refused as such, the copy held forgotten. A
        move planned on rows that changed meanwhile (the settings, deadlines or seat
        clocks a store kept from the game's last click: ``StalePlan``, nothing written)
        is planned again on the rows read anew."""
        for attempt in range(1, PLAN_ATTEMPTS + 1):
            move = await self._move(game, user_id, seat, text, version)
            early = _EarlyAnswer(self, move, answer, discard)
            try:
                return (
                    move,
                    await self._commit(move, move.seat, replan=True, meanwhile=early),
                    early,
                )
            except StaleGameVersion as exc:
                early.drop()
                self._forget(game.id)
                raise Refusal("refusal.race") from exc
            except StalePlan as exc:  # what it was planned on changed: plan it again
                early.drop()
                if attempt == PLAN_ATTEMPTS:
                    raise Refusal("refusal.race") from exc
                remember_settings()  # this click reads them again, from the database
            except BaseException:
                early.drop()
                raise
        raise AssertionError("unreachable")

    async def _move(
        self, game: LoadedGame, user_id: int, seat: str | None, text: str, version: int | None
    ) -> _Move:
        """The user's action on this copy of the game, and the moves made without asking
        after it, applied in memory: nothing is written (refused: UserError)."""
        system = game.system
        action = _checked(game, None, "parse", system.parse_action, text)
        state = self.require_active(game)
        seat = self._seat_for(game, user_id, seat, state, action)
        stale = version is not None and version != game.record.version
        if stale and not await self._still_valid(game, seat, version or 0, state):
            if await self._went_through(game, seat, version or 0, str(action)):
                raise Refusal("refusal.already_played", action=str(action))
            raise Refusal("refusal.stale_buttons")
        new_state, events = _checked(game, seat, "apply", system.apply, state, seat, action)
        move = _Move(game, seat)
        move.before_turn = system.turn_of(state)
        # A response the seat still owes after its own move (a skill used while
        # answering) is asked again: the buttons it pressed are out of date.
        move.before = _pending(game, state) - {
            (d.seat, d.kind) for d in system.pending(state) if d.seat == seat and d.urgent
        }
        move.add(seat, action, new_state)
        move.events = await self._decide_without_asking(move, events)
        return move

    def _after(
        self,
        game: LoadedGame,
        events: list[Event],
        before_turn: str | None,
        before: set[tuple[str, str]],
    ) -> Outcome:
        """The outcome of a change: a new picture once the turn passed or the game ended."""
        system = game.system
        assert game.state is not None
        turn_over = system.is_over(game.state) or system.turn_of(game.state) != before_turn
        return outcome_of(game, events, image=turn_over, before=before)

    async def _commit(
        self,
        move: _Move,
        actor: str | None,
        *,
        deadline_id: int | None = None,
        replan: bool = False,
        meanwhile: Callable[[], None] | None = None,
    ) -> LoadedGame:
        """Write a move (under the game's lock) and return the game after it: its
        actions, the deadlines of the state they lead to (planned by :attr:`planner`:
        the old ones settled, the new ones opened, all cancelled at the game's end), a
        deadline's default closing its deadline (``deadline_id``), the result if the
        game ended: one transaction (``Storage.commit_move``), before anyone is
        answered. Standing orders that ran out meanwhile are dropped after it. Raises
        StaleGameVersion (or DeadlineClosed) and writes nothing if the game moved on;
        with ``replan`` (the caller plans the move again), StalePlan if what it was
        planned on changed meanwhile (``Storage.commit_move``). ``meanwhile`` runs
        while the write is at the database (or not at all, if the write never waited:
        the caller then does that work itself)."""
        game = move.game
        if move.entries:
            state = game.state
            system = game.system
            result = result_record(system.outcome(state)) if system.is_over(state) else None
            planner = self.planner
            changes = await planner.plan(game, actor) if planner is not None else None
            # Scheduled now, run by the loop at the write's first wait for the database.
            handle = None if meanwhile is None else asyncio.get_running_loop().call_soon(meanwhile)
            try:
                done = await self.storage.commit_move(
                    game.id,
                    move.start.record.version,
                    move.entries,
                    deadline_id=deadline_id,
                    deadlines=changes,
                    result=result,
                    replan=replan,
                )
            finally:
                if handle is not None:
                    handle.cancel()  # it did not run: the write never waited
            game = LoadedGame(done.game, game.seats, game.setup, state)
            if planner is not None:
                planner.committed(game, done)
            self._remember(game)
            if move.snapshots:
                kept = functools.partial(self._keep_snapshots, game, move.snapshots)
                await self.later(game.id, kept)
        if move.orders is not None:
            settings = await self.game_settings(game.id)
            await self.storage.put_game_settings(game.id, {**settings, "orders": move.orders})
        return game

    async def _keep_snapshots(self, game: LoadedGame, states: list[tuple[int, Any]]) -> None:
        """Store the snapshots a written move reached (:meth:`GameStore.snapshot`), once
        the player was answered (issue 16: the state's dump and its write, about
        0.3 ms, were in the reply of every move that reached one). A snapshot is a
        cache: if it is lost (a crash before it, a failure, logged), loading the game
        replays more of its log, nothing else."""
        for seq, state in states:
            snapshot = GameStore.snapshot(game, seq, state)
            assert snapshot is not None  # only the states due one are kept (_Move.add)
            try:
                await self.storage.put_snapshot(game.id, seq, snapshot)
            except Exception:
                log.warning("game %s: no snapshot at action %s", game.id, seq, exc_info=True)

    async def _auto_moves(
        self, game: LoadedGame, events: list[Event]
    ) -> tuple[LoadedGame, list[Event]]:
        """The moves made without asking after a change that is already written (a
        start, a seat handed over, an undo), written together; the game after them."""
        move = _Move(game)
        events = await self._decide_without_asking(move, events)
        return await self._commit(move, None), events

    async def _decide_without_asking(self, move: _Move, events: list[Event]) -> list[Event]:
        """Moves made for a seat without asking, added to ``move`` (each logged like any
        other action); the events with theirs:

        * a game in ``fast`` response mode passes at once for a seat that must answer
          and holds nothing to answer with (``forced_action``), and says so (this mode
          reveals it, everyone was told);
        * a seat's standing orders (``/game orders``) choose among its legal actions;
        * a seat handed to a computer player (``bot.seats``) decides at once
          (``computer_player``), its first public line marked "(computer)".
        """
        events = list(events)
        game = move.game
        system = game.system
        settings = await self.game_settings(game.id)
        orders: dict[str, list[str]] = settings.get("orders", {})
        fast = settings.get("responses") == "fast"
        computers = {s: computer_level(settings, s) for s in computer_seats(game, settings)}
        for _ in range(AUTO_MOVES):  # every auto move is a real decision: a game cannot loop
            game = move.game
            state = game.state
            if state is None or system.is_over(state):
                break
            left = {  # orders that ran out (e.g. until the seat's next turn) go
                seat: [o for o in mine if not system.order_expired(o, state, seat)]
                for seat, mine in orders.items()
            }
            if left != orders:
                orders = move.orders = left
            try:
                if computers and any(p.seat in computers for p in system.pending(state)):
                    # a computer player's search may take a while: off the event loop
                    chosen = await asyncio.to_thread(
                        _auto_move, game, state, orders, fast=fast, computers=computers
                    )
                elif orders or fast:  # orders and forced passes are quick: no thread hop
                    chosen = _auto_move(game, state, orders, fast=fast, computers=computers)
                else:
                    chosen = None  # nothing decides for anyone (most moves)
            except Exception:  # a bug of the system: what was decided stands
                log.exception("game %s: choosing a move without asking failed", game.id)
                break
            if chosen is None:
                break
            seat, action, why = chosen
            try:
                new_state, more = _checked(game, seat, "apply", system.apply, state, seat, action)
            except InternalError:
                break  # logged: what was decided stands, and the seat is asked instead
            except UserError:
                log.error("game %s: the system refused its own %s move for %s", game.id, why, seat)
                if why != COMPUTER:
                    break  # the seat's player is asked instead
                # Nobody would ever decide for a computer seat: its passive default.
                action = system.default_action(state, seat)
                try:
                    new_state, more = _checked(
                        game, seat, "apply", system.apply, state, seat, action
                    )
                except (InternalError, UserError):
                    break
            move.add(seat, action, new_state)
            if why == COMPUTER:  # marked on its first public line, if it has one
                first = next((i for i, e in enumerate(more) if e.public), None)
                if first is not None:
                    e = more[first]
                    more[first] = replace(e, text=Term("narration.computer", line=e.text))
                events.extend(more)
                continue
            label = game.presenter.seat_label(state, seat)
            note = Term("narration.auto", element=label, why=Term(AUTO_WHY[why]))
            events.append(Event("auto", note))
            events.extend(more)
        return events

    async def update_orders(
        self, game_id: int, seat: str, order: str | None, *, cancel: bool = False
    ) -> list[str]:
        """Add (or with ``cancel`` remove) one of ``seat``'s standing orders; returns
        the seat's orders. Under the game's lock, like every other write of the game's
        settings (offers, abandoned seats, expired orders), so none is lost."""
        async with self.locks(game_id):
            game = await self.load(game_id)
            if order is not None and order not in game.system.standing_orders:
                raise Refusal("people.no_such_order", seat=seat)
            settings = await self.game_settings(game_id)
            all_orders: dict[str, list[str]] = dict(settings.get("orders", {}))
            current = list(all_orders.get(seat, []))
            if order is None:
                return current
            if cancel:
                if order not in current:
                    raise Refusal("people.no_such_order", seat=seat)
                current.remove(order)
            elif order not in current:
                current.append(order)
            all_orders[seat] = current
            await self.storage.put_game_settings(game_id, {**settings, "orders": all_orders})
            return current

    async def default_move(
        self,
        deadline_id: int,
        game_id: int,
        seat: str,
        kind: str,
        *,
        computer: str | None = None,
    ) -> Outcome | None:
        """A deadline passed: the seat takes its passive default (``default_action``)
        or, where the server allows it, a computer player of level ``computer`` takes
        that one decision.

        None if there is nothing to do (the game ended, the decision was taken or is
        gone). The action and the closing of the deadline are one transaction, so a
        retry after a crash never applies it twice (``DeadlineClosed``)."""
        async with self.locks(game_id):
            game = await self.load(game_id)
            state = game.state
            if game.record.status is not GameStatus.ACTIVE or state is None:
                return None
            system = game.system
            decision = next(
                (p for p in system.pending(state) if p.seat == seat and p.kind == kind), None
            )
            if decision is None:
                return None
            if computer is not None:
                player = system.computer_player(computer_seed(game), computer)
                action = await asyncio.to_thread(player.choose, state, seat)
            else:
                action = system.default_action(state, seat)
            before_turn = system.turn_of(state)
            before = _pending(game, state)
            new_state, events = system.apply(state, seat, action)
            move = _Move(game)
            move.add(seat, action, new_state)
            label = game.presenter.seat_label(state, seat)
            who = (
                Term("deadline.by_computer")
                if computer
                else Term("deadline.by_default", action=str(action))
            )
            note = Event("deadline", Term("deadline.passed", element=label, who=who))
            events = [note, *events]
            if not computer and _own_turn(decision):
                # A missed turn passes as a whole: the seat's later steps of the same
                # turn take their defaults too, instead of waiting a full deadline each.
                while (after := move.game.state) is not None and system.turn_of(after) == seat:
                    now = system.pending(after)
                    if [(p.seat, _own_turn(p)) for p in now] != [(seat, True)]:
                        break
                    step = system.default_action(after, seat)
                    later, more = system.apply(after, seat, step)
                    move.add(seat, step, later)
                    events.extend(more)
            events = await self._decide_without_asking(move, events)
            try:
                game = await self._commit(move, None, deadline_id=deadline_id)
            except (StaleGameVersion, DeadlineClosed):
                self._forget(game_id)
                return None
            await self._changed(game, None)
            return self._after(game, events, before_turn, before)

    async def resume(self, game_id: int) -> Outcome | None:
        """Make the moves nobody is asked for that are owed now (a computer player's,
        after a restart that interrupted them); None if there were none."""
        async with self.locks(game_id):
            game = await self.load(game_id)
            state = game.state
            if game.record.status is not GameStatus.ACTIVE or state is None:
                return None
            before = _pending(game, state)
            before_turn = game.system.turn_of(state)
            version = game.record.version
            game, events = await self._auto_moves(game, [])
            if game.record.version == version:
                return None
            await self._changed(game, None)
            return self._after(game, events, before_turn, before)

    def _seat_for(
        self,
        game: LoadedGame,
        user_id: int,
        seat: str | None,
        state: Any,
        action: Any = None,
    ) -> str:
        """The seat a user acts for: the one named (if theirs), else their seat that
        must decide now. A player holding several seats that decide at once (secret
        picks) names the seat unless only one of them may take this action."""
        mine = game.seats_of(user_id)
        if not mine:
            raise Refusal("refusal.not_playing")
        if seat is not None:
            seat = seat.strip().upper()
            if seat not in mine:
                game.require_seat(seat)  # a seat of no one: say which seats there are
                raise Refusal("refusal.seat_of_other", seat=seat, mine=and_list(mine))
            return seat
        system = game.system
        pending = [p for p in system.pending(state) if p.seat in mine]
        waiting = list(dict.fromkeys(p.seat for p in pending))
        if len(waiting) > 1 and action is not None:
            if all(p.scope is Scope.SIDE for p in pending):
                return waiting[0]  # one choice for the whole side
            fits = [s for s in waiting if self._may(game, state, s, action)]
            if len(fits) == 1:
                return fits[0]
            if fits:
                raise Refusal("refusal.which_seat", seats=and_list(waiting))
        return waiting[0] if waiting else mine[0]

    @staticmethod
    def _may(game: LoadedGame, state: Any, seat: str, action: Any) -> bool:
        """Whether the rules let ``seat`` take ``action`` now (``apply``: one truth)."""
        try:
            _checked(game, seat, "apply", game.system.apply, state, seat, action)
        except UserError:
            return False
        return True

    async def _still_valid(self, game: LoadedGame, seat: str, version: int, state: Any) -> bool:
        """Whether an outdated button may still be used.

        Normally not (a double click must never apply twice). The exception is a
        decision every seat takes at once (secret picks): while only other seats moved
        since the button was sent, this seat's choices are the same, and in a team game
        four players picking at once would otherwise keep spoiling each other's menus.
        Every version bump of an active game is one action.
        """
        mine = [p for p in game.system.pending(state) if p.seat == seat]
        behind = game.record.version - version
        simultaneous = bool(mine) and all(p.timing is Timing.SIMULTANEOUS for p in mine)
        if not simultaneous or not 0 < behind <= game.record.last_seq:
            return False
        rows = await self.storage.load_actions(game.id, after_seq=game.record.last_seq - behind)
        return all(r.seat != seat for r in rows)

    async def _went_through(self, game: LoadedGame, seat: str, version: int, action: str) -> bool:
        """Whether this very action of ``seat`` was logged since the button's
        ``version``: a click retried after a crash or a post that never came (the
        player is told their move went through rather than that the buttons are old).
        Every version bump of an active game is one action, as for
        :meth:`_still_valid`."""
        behind = game.record.version - version
        if behind <= 0:
            return False
        since = max(0, game.record.last_seq - behind)
        rows = await self.storage.load_actions(game.id, after_seq=since)
        return any(r.seat == seat and r.action == action for r in rows)

    async def state_at(self, game: LoadedGame, version: int) -> Any | None:
        """The state of the active game at an earlier ``version``: what a button or
        menu of that version was made from, so a pick on an old menu is read as the
        player meant it (and told it went through, :meth:`act`). None when ``version``
        is not an earlier version of the game's log. Every version bump of an active
        game is one action, as for :meth:`_still_valid`."""
        behind = game.record.version - version
        if game.setup is None or not 0 < behind <= game.record.last_seq:
            return None
        seq = game.record.last_seq - behind
        rows = [(r.seq, r.seat or "", r.action) for r in await self.storage.load_actions(game.id)]
        history = await asyncio.to_thread(
            replay_history, game.system, game.setup, game.record.seed, rows
        )
        state = history.start
        for entry in history.log_rows:
            if entry.seq > seq:
                break
            state = entry.after
        return state

    # ------------------------------------------------------------ seats and undo
    async def hand_over(
        self,
        game: LoadedGame,
        seat: str,
        user_id: int | None,
        name: str,
        note: Term,
        *,
        level: str = DEFAULT_COMPUTER_LEVEL,
    ) -> Outcome:
        """Give ``seat`` to ``user_id`` for the rest of the game; None: a computer
        player of ``level`` flies it. Under the game's lock, the game just loaded.

        The seats table holds the new holder (NULL for a computer, listed in the game
        settings' ``computer_seats``, its level in ``computer_levels``); the seat's
        offers, abandonment, standing orders and any undo request are dropped; the log
        gets the handover's marker, with ``note``, the line the thread is told: all in
        one transaction, so the outbox tells a handover a crash kept untold. The
        seat listeners (the scheduler) drop its deadlines, which named the old holder.
        A computer seat decides at once."""
        state = self.require_active(game)
        record = game.require_seat(seat)
        before = _pending(game, state)
        before_turn = game.system.turn_of(state)
        settings = await self.game_settings(game.id)
        listed = [s for s in settings.get("computer_seats", []) if s != seat]
        settings["computer_seats"] = sorted([*listed, seat] if user_id is None else listed)
        for key in ("offers", "abandoned", "orders", "computer_levels"):
            if key in settings:
                settings[key] = {k: v for k, v in settings[key].items() if k != seat}
        if user_id is None:
            settings["computer_levels"] = {**settings.get("computer_levels", {}), seat: level}
        settings.pop("undo", None)
        holder = record.model_copy(update={"user_id": user_id, "display_name": name})
        try:
            await self.storage.hand_over_seat(
                game.id, game.record.version, holder, settings, handover_text(seat, note)
            )
        except StaleGameVersion as exc:
            self._forget(game.id)
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
        return self._after(game, events, before_turn, before)

    async def take_back(self, game: LoadedGame, seq: int, line: str) -> Outcome:
        """Take back action ``seq``, the latest in effect: append the marker ``undo
        seq`` (the log stays append-only) and return to the game without it. Under the
        game's lock; the caller checked that the undo is allowed (``bot.seats``)."""
        self.require_active(game)
        assert game.setup is not None and game.state is not None
        system = game.system
        before = _pending(game, game.state)
        rows = effective(
            (r.seq, r.seat or "", r.action) for r in await self.storage.load_actions(game.id)
        )
        if not rows or rows[-1][0] != seq:
            raise Refusal("refusal.undo_latest")
        state = await asyncio.to_thread(
            system.replay, game.setup, game.record.seed, [(s, t) for _, s, t in rows[:-1]]
        )
        try:
            version = await self.storage.append_action(
                game.id, game.record.version, None, undo_text(seq)
            )
        except StaleGameVersion as exc:
            self._forget(game.id)
            raise Refusal("refusal.undo_moved_on") from exc
        record = game.record.model_copy(
            update={"version": version, "last_seq": game.record.last_seq + 1}
        )
        old_turn = system.turn_of(game.state)
        game = LoadedGame(record, game.seats, game.setup, state)
        self._remember(game)
        game, events = await self._auto_moves(game, [Event("undo", line)])
        await self._changed(game, None)
        assert game.state is not None
        return outcome_of(game, events, image=system.turn_of(game.state) != old_turn, before=before)
