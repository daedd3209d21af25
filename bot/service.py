"""The game service: everything the bot does with a game, without Discord.

Cogs call one verb of :class:`GameService` per command or click; the service loads
the game, checks that the user holds the seat, asks the engine, commits the action
to storage (before anyone is answered) and returns an :class:`Outcome` saying what
happened and who must be told what. It holds no rules: legality, effects and views
all come from the engine.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.errors import UserError
from bot.storage import GameRecord, GameStatus, SeatRecord, StaleGameVersion, Storage
from bot.storage.locks import GameLocks
from engine.core.errors import EngineError
from engine.core.events import Event
from engine.dif.actions import Action
from engine.dif.components import Aircraft, Altitude, Ruleset, Side
from engine.dif.game import DifEngine, Pending
from engine.dif.setup import DifSetup, ElementSetup
from engine.dif.state import GameState
from engine.dif.view import DifView

__all__ = ["GameService", "LoadedGame", "Outcome", "Prompt", "describe_action"]

log = logging.getLogger(__name__)

SYSTEM = "dif"
SEAT_OF_SIDE = {Side.ALLIED: "A1", Side.AXIS: "X1"}


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


@dataclass
class Prompt:
    """Someone must decide something now."""

    seat: str
    user_id: int | None
    kind: str
    text: str
    urgent: bool
    """A decision during someone else's turn (respond, follow): sent by DM."""


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


def describe_action(engine: DifEngine, state: GameState, a: Action) -> str:
    """A short button label for an action, e.g. 'Maneuvering → Ki-43 (X1)'."""

    def card(code: str | None) -> str:
        return engine.card_label(code) if code is not None else ""

    def plane(ref: str | None) -> str:
        if ref is None:
            return ""
        return engine._plane_label(state, ref)

    def to(step: int) -> str:
        """The band the active element would move to."""
        active = state.elements[state.active] if state.active else None
        if active is None or active.altitude is None:
            return "up" if step > 0 else "down"
        return "to " + Altitude(active.altitude + step).label

    v = a.verb
    if v == "alt":
        return Altitude.from_code(a.arg or "M").label
    if v == "wm":
        return f"Wingman attacks {plane(a.target)}"
    if v == "play" and a.arg is not None:
        up = a.arg == "up"
        extra = f" (discard {card(a.cards[0])})" if a.cards else ""
        return f"Vertical Roll: {'climb' if up else 'dive'} {to(1 if up else -1)}{extra}"
    if v == "play":
        as_sci = " as Scissors" if a.as_sci else ""
        return f"{card(a.card)}{as_sci} → {plane(a.target)}"
    if v == "respond":
        return f"{card(a.card)}{' as Scissors' if a.as_sci else ''}"
    if v == "climb":
        return f"Climb {to(1)} (discard {card(a.card)})"
    if v == "dive":
        return f"Dive {to(-1)} (draw a card)"
    if v == "done":
        return (
            "End the wingman's attack" if state.step == "wingman_attack" else "Done playing cards"
        )
    if v == "follow":
        return "Follow" + (f" (discard {', '.join(card(c) for c in a.cards)})" if a.cards else "")
    if v == "discard":
        return "Discard " + ", ".join(card(c) for c in a.cards) if a.cards else "Keep all cards"
    return {
        "skip": "No wingman attack",
        "stay": "Stay at this altitude",
        "nofollow": "Don't follow",
        "pass": "No response",
        "giveup": "Give up position",
        "evade": "Evade (leave the fight)",
    }.get(v, str(a))


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
    ) -> None:
        self.storage = storage
        self.engine = engine
        self.locks = GameLocks()
        self._seed = seed_source or (lambda: secrets.randbits(62))
        self._cache: OrderedDict[int, LoadedGame] = OrderedDict()
        self._cache_size = cache_size

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
        raise UserError(
            f"Unknown aircraft {text!r}. Start typing a name and pick one from the list."
        )

    # ------------------------------------------------------------ loading
    async def load(self, game_id: int) -> LoadedGame:
        cached = self._cache.get(game_id)
        record = await self.storage.get_game(game_id)
        if record is None:
            raise UserError("That game does not exist (any more).")
        if cached is not None and cached.record.version == record.version:
            self._cache.move_to_end(game_id)
            return cached
        game = LoadedGame(record, await self.storage.get_seats(game_id))
        if "setup" in record.options:
            game.setup = DifSetup.model_validate(record.options["setup"])
            log_rows = await self.storage.load_actions(game_id)
            game.state = await asyncio.to_thread(
                self.engine.replay,
                game.setup,
                record.seed,
                [(r.seat or "", r.action) for r in log_rows],
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
            raise UserError(
                "You are not in any open game. Use this in a game thread, or start one with /dogfight new."
            )
        raise UserError("You are in several games: use this command inside the game's thread.")

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
    ) -> LoadedGame:
        if not 1930 <= year <= 1950:
            raise UserError("Pick a year between 1930 and 1950.")
        record = await self.storage.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            system=SYSTEM,
            ruleset=Ruleset(ruleset).value,
            seed=self._seed(),
            options={"year": year, "to_the_death": to_the_death},
        )
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

    async def join(
        self, game: LoadedGame, user_id: int, name: str, aircraft: str, side: str | None
    ) -> LoadedGame:
        async with self.locks(game.id):
            game = await self.load(game.id)
            if game.record.status is not GameStatus.LOBBY:
                raise UserError("This game has already started.")
            ac = self.find_aircraft(aircraft)
            rs = Ruleset(game.record.ruleset)
            year = int(game.record.options["year"])
            why = self.engine.aircraft_refusal(rs, year, ac.id, Side(side) if side else None)
            if why is not None:
                raise UserError(why)
            seat = SEAT_OF_SIDE[ac.side]
            holder = game.holder(seat)
            if holder is not None and holder != user_id:
                raise UserError(f"The {ac.side.label(rs)} seat is taken.")
            for other in game.seats_of(user_id):
                if other != seat:
                    raise UserError("You already fly for the other side in this game.")
            await self.storage.put_seat(
                game.id,
                seat,
                ac.side.value,
                user_id,
                name,
                {"aircraft": ac.id},
                expected_version=game.record.version,
            )
            return await self.load(game.id)

    def lobby_text(self, game: LoadedGame) -> str:
        rs = Ruleset(game.record.ruleset)
        o = game.record.options
        lines = [
            f"**Dogfight #{game.id}**: {'Zero!' if rs is Ruleset.ZERO else 'Rise of the Luftwaffe'}, "
            f"{o['year']}{', to the death' if o.get('to_the_death') else ', six turns'}."
        ]
        for side in (Side.ALLIED, Side.AXIS):
            seat = next((s for s in game.seats if s.side == side.value), None)
            if seat is None:
                lines.append(f"{side.label(rs)}: *open*, join with `/dogfight join`")
            else:
                ac = self.engine.aircraft[seat.payload["aircraft"]]
                lines.append(
                    f"{side.label(rs)}: <@{seat.user_id}> flying {ac.name} (leader and wingman)"
                )
        if game.record.status is GameStatus.LOBBY:
            ready = len(game.seats) == 2
            lines.append(
                "The host can now `/dogfight start`." if ready else "Waiting for both sides."
            )
        elif game.record.status is GameStatus.ACTIVE:
            lines.append("Under way: press **My hand** below the latest message to play.")
        elif game.record.result:
            lines.append(f"Finished: {game.record.result['verdict']}.")
        return "\n".join(lines)

    def joined_text(self, game: LoadedGame, user_id: int) -> str:
        """The public line announcing a pilot's seat."""
        rs = Ruleset(game.record.ruleset)
        seat = next(s for s in game.seats if s.user_id == user_id)
        ac = self.engine.aircraft[str(seat.payload["aircraft"])]
        ready = " The host can now `/dogfight start`." if len(game.seats) == 2 else ""
        return (
            f"<@{user_id}> flies for the {Side(seat.side).label(rs)} side: "
            f"{ac.name}, leader and wingman ({seat.seat}).{ready}"
        )

    async def start(self, game: LoadedGame, user_id: int) -> Outcome:
        async with self.locks(game.id):
            game = await self.load(game.id)
            if game.record.status is not GameStatus.LOBBY:
                raise UserError("This game has already started.")
            if user_id != game.record.host_id:
                raise UserError("Only the host who opened the lobby can start it.")
            if {s.side for s in game.seats} != {Side.ALLIED.value, Side.AXIS.value}:
                raise UserError("Both sides need a pilot before the dogfight can start (4.2).")
            o = game.record.options
            setup = DifSetup(
                ruleset=Ruleset(game.record.ruleset),
                year=int(o["year"]),
                to_the_death=bool(o.get("to_the_death")),
                elements=tuple(
                    ElementSetup(
                        seat=s.seat, side=Side(s.side), aircraft=str(s.payload["aircraft"])
                    )
                    for s in sorted(game.seats, key=lambda s: s.seat)
                ),
            )
            try:
                state, events = self.engine.new_game(setup, game.record.seed)
            except EngineError as exc:
                raise UserError(str(exc)) from exc
            record = await self.storage.update_game(
                game.id,
                game.record.version,
                status=GameStatus.ACTIVE,
                options={**o, "setup": setup.model_dump(mode="json")},
            )
            game = LoadedGame(record, game.seats, setup, state)
            self._remember(game)
            return self._outcome(game, None, events, image=True)

    # ------------------------------------------------------------ play
    async def act(
        self, game_id: int, user_id: int, seat: str | None, text: str, *, version: int | None = None
    ) -> Outcome:
        """Apply one action for the user. Raises UserError and changes nothing on refusal."""
        try:
            action = Action.from_text(text)
        except EngineError as exc:
            raise UserError(str(exc)) from exc
        async with self.locks(game_id):
            game = await self.load(game_id)
            state = self._require_active(game)
            seat = self._seat_for(game, user_id, seat, state)
            if version is not None and version != game.record.version:
                raise UserError(
                    "These buttons are out of date: the game has moved on. Press **My hand** for fresh ones."
                )
            try:
                new_state, events = self.engine.apply(state, seat, action)
            except EngineError as exc:
                raise UserError(str(exc)) from exc
            before_active = state.active
            try:
                new_version = await self.storage.append_action(
                    game.id, game.record.version, seat, str(action)
                )
            except StaleGameVersion as exc:
                self._cache.pop(game.id, None)
                raise UserError(
                    "Someone else moved at the same moment; nothing was changed. Please try again."
                ) from exc
            finished = new_state.step == "over"
            record = game.record.model_copy(
                update={"version": new_version, "last_seq": game.record.last_seq + 1}
            )
            if finished:
                record = await self.storage.update_game(
                    game.id, new_version, status=GameStatus.FINISHED, result=new_state.result
                )
            game = LoadedGame(record, game.seats, game.setup, new_state)
            self._remember(game)
            turn_over = finished or new_state.active != before_active
            return self._outcome(game, seat, events, image=turn_over)

    def _require_active(self, game: LoadedGame) -> GameState:
        if game.record.status is GameStatus.LOBBY or game.state is None:
            raise UserError("This game has not started yet.")
        if game.record.status is not GameStatus.ACTIVE:
            raise UserError("This game is over.")
        return game.state

    def _seat_for(self, game: LoadedGame, user_id: int, seat: str | None, state: GameState) -> str:
        mine = game.seats_of(user_id)
        if not mine:
            raise UserError("You are not playing in this game.")
        if seat is not None:
            if seat not in mine:
                raise UserError(
                    "That seat belongs to another player: you can only act for your own aircraft."
                )
            return seat
        waiting = [p.seat for p in self.engine.pending(state) if p.seat in mine]
        return waiting[0] if waiting else mine[0]

    def _outcome(
        self, game: LoadedGame, actor: str | None, events: list[Event], *, image: bool
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
            out.prompts.append(
                Prompt(p.seat, game.holder(p.seat), p.kind, self.prompt_text(game, p), urgent)
            )
        return out

    def prompt_text(self, game: LoadedGame, p: Pending) -> str:
        state = game.state
        assert state is not None
        view = self.engine.view(state, p.seat)
        if p.kind == "respond" and view.exchange is not None:
            x = view.exchange
            return (
                f"{self.engine._plane_label(state, x.attacker)} played {' → '.join(x.cards)} "
                f"at {self.engine._plane_label(state, x.target)}. Respond?"
            )
        if p.kind == "follow":
            return "The enemy you hold a position on changed altitude. Follow them?"
        from engine.dif.present import pending_prompt

        return pending_prompt(p.kind).capitalize() + "."

    # ------------------------------------------------------------ reading
    def view(self, game: LoadedGame, seat: str | None) -> DifView:
        assert game.state is not None
        return self.engine.view(game.state, seat)

    def status_text(self, game: LoadedGame, view: DifView) -> str:
        """One line for /game status: turn, step and who is awaited, or the result."""
        text = f"Dogfight #{game.id}, turn {view.turn}: {view.step}."
        result = game.record.result
        if game.record.status is not GameStatus.ACTIVE:
            if result:
                text += f" Result: {result['verdict']}."
            return text
        waiting = ", ".join(f"<@{game.holder(p.seat)}> ({p.prompt})" for p in view.pending)
        return text + (f" Waiting for {waiting}." if waiting else "")

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
                raise UserError("You are not playing in this game.")
            side = Side(state.elements[mine[0]].side)
            rs = Ruleset(state.ruleset)
            winner = side.other
            vp = {k.value: v for k, v in self.engine.victory_points(state).items()}
            result = {
                "vp": vp,
                "winner": winner.value,
                "verdict": f"{winner.label(rs)} victory: the {side.label(rs)} side resigned",
            }
            record = await self.storage.update_game(
                game.id, game.record.version, status=GameStatus.FINISHED, result=result
            )
            game = LoadedGame(record, game.seats, game.setup, state)
            self._remember(game)
            out = Outcome(
                game,
                public=[f"<@{user_id}> resigns. {result['verdict']}."],
                finished=True,
                image=False,
            )
            return out

    async def public_log(self, game: LoadedGame) -> str:
        """The public log: each action in canonical notation with its public narration."""
        if game.setup is None:
            return self.lobby_text(game)
        rows = await self.storage.load_actions(game.id)
        state, events = self.engine.new_game(game.setup, game.record.seed)
        lines = [f"# Tally-Ho dogfight #{game.id} ({game.record.ruleset}, {game.setup.year})", ""]
        lines += [e.text for e in events if e.public]
        secret = game.state is not None and game.state.step == "setup"
        for r in rows:
            state, events = self.engine.apply(state, r.seat or "", Action.from_text(r.action))
            # Altitude picks stay secret until every seat has picked (4.5).
            shown = "alt ?" if secret and r.action.startswith("alt ") else r.action
            lines.append(f"[{r.seq}] {r.seat}: {shown}")
            lines += [f"    {e.text}" for e in events if e.public]
        return "\n".join(lines) + "\n"
