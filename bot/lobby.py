"""Lobbies: opening a game, taking and leaving seats, the host's options, the lobby
message, and the start.

A **practice** lobby (``/dogfight new opponent:computer``) records the computer's level
in its options (``computer_level``): its host may seat computer players (``join``
with ``computer``), and at the start every seat still open is given to a computer
player flying an aircraft of its side's choices (:meth:`Lobbies.computer_picks`).
The game's computer seats and their level go in its settings (``computer_seats``,
``computer_levels``: :mod:`bot.play`), like a seat handed over during a game; they
move at once, from the start on. A practice game is marked as such wherever it is
listed and is never rated; nor is a game opened with ``rated:False``.

Generic over systems: a lobby's options are validated by the system's
``options_model``, a seat's pick by ``make_pick`` and ``pick_refusal``, the game's
setup comes from ``setup_from_lobby``; the lobby message's system lines come from the
system's presenter. Seats are stored with the system's pick as their payload.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from pydantic import ValidationError

from bot.commitment import commitment_text, seed_commitment
from bot.errors import Refusal, UserError
from bot.games import LoadedGame, engine_refusal, result_record, validation_refusal
from bot.outcome import Outcome, outcome_of
from bot.packs import OPTION, ContentPacks, system_of
from bot.play import Play
from bot.results import verdict_text
from bot.storage import GameStatus, SeatRecord
from bot.systems import (
    FORMATS,
    format_seats,
    hosted,
    next_seat,
    picks_of,
    seat_number,
    system_of_ruleset,
)
from bot.words import mention
from engine.core.contract import (
    COMPUTER_LEVELS,
    DEFAULT_COMPUTER_LEVEL,
    AircraftChoice,
    SeatPick,
)
from engine.core.errors import EngineError
from strings import Term, t, tr

__all__ = ["FOG_MINUTES", "OPPONENTS", "RESPONSE_MODES", "Lobbies", "matches"]

RESPONSE_MODES = ("normal", "fast", "fog")
"""How response windows behave (chosen at creation): ``normal``, each waits for the
defender (up to the response deadline); ``fast``, a defender holding no legal response
is passed at once, which tells everyone so; ``fog``, every window lasts the same short
time (``FOG_MINUTES``) unless answered, whatever the hand, so its length says nothing."""
FOG_MINUTES = 15
OPPONENTS = ("human", "computer")
"""Whom a lobby's players fight: other members, or computer players (practice)."""
COMPUTER_NAME = "Computer"
"""The stored display name of a seat a computer player holds (never shown: texts say
"a computer player" in the reader's language)."""


def _held_by(game: LoadedGame, user_id: int | None) -> list[str]:
    """The seats ``user_id`` holds (None: the seats computer players hold)."""
    return [s.seat for s in game.seats if s.user_id == user_id]


def _squash(text: str) -> str:
    return text.lower().replace(" ", "").replace("-", "")


def matches(choice: AircraftChoice, typed: str) -> bool:
    """Whether what a user typed names this aircraft ("bf109", "Ki 43", "zero"...)."""
    return _squash(typed) in _squash(choice.id + choice.label)


class Lobbies(Play):
    """Lobby verbs of the service (its start makes the computer seats' first moves)."""

    # ------------------------------------------------------------ catalogue
    def aircraft_choices(
        self, game: LoadedGame, side: str | None, query: str
    ) -> list[AircraftChoice]:
        """Aircraft the system allows in this game, matching what the user typed."""
        choices = game.system.aircraft_choices(game.options, side)
        return [c for c in choices if matches(c, query)]

    @staticmethod
    def find_aircraft(game: LoadedGame, text: str) -> AircraftChoice:
        """The aircraft a player named, among every aircraft the system knows (so a
        refusal can say why it may not fly here)."""
        catalogue = game.system.aircraft_catalogue()
        key = text.strip().lower()
        for c in catalogue:
            if key in (c.id, c.label.lower()):
                return c
        found = [c for c in catalogue if matches(c, text)]
        if len(found) == 1:
            return found[0]
        raise Refusal("refusal.unknown_aircraft", text=repr(text))

    # ------------------------------------------------------------ opening
    async def new_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        ruleset: str,
        system: str | None = None,
        format: str = "1v1",
        responses: str = "normal",
        turn_hours: float | None = None,
        response_hours: float | None = None,
        opponent: str = "human",
        level: str | None = None,
        rated: bool = True,
        **options: Any,
    ) -> LoadedGame:
        """Open a lobby of ``system`` (found from the ruleset if not given) with the
        system's ``options`` (validated by the ``options_model`` of the system over the
        server's content packs: :meth:`ContentPacks.for_new_game`); ``opponent``
        ``computer`` makes it a practice game against computer players of ``level``
        (the default level if None); ``rated`` False keeps the game out of the
        players' ratings (``"rated": false`` in its options: :mod:`bot.ratings`)."""
        try:
            system_id = system or system_of_ruleset(ruleset)
        except KeyError:
            raise Refusal("refusal.unknown_ruleset", ruleset=repr(ruleset)) from None
        rules = hosted(system_id)
        if ruleset not in {r.id for r in rules.rulesets}:
            raise Refusal("refusal.unknown_ruleset", ruleset=repr(ruleset))
        if format not in FORMATS:
            raise Refusal("refusal.format", format=repr(format), formats=", ".join(FORMATS))
        if responses not in RESPONSE_MODES:
            raise Refusal("refusal.response_mode", mode=repr(responses))
        if opponent not in OPPONENTS:
            raise Refusal("refusal.opponent", opponent=repr(opponent))
        if level is not None and (opponent != "computer" or level not in COMPUTER_LEVELS):
            raise Refusal("refusal.computer_level", levels=", ".join(COMPUTER_LEVELS))
        # The server's packs come first: the options are the system's over them (a
        # pack's scenario is one to choose).
        packs = await ContentPacks(self.storage).for_new_game(guild_id, system_id)
        model = system_of(system_id, {OPTION: packs}).options_model
        chosen = {k: v for k, v in options.items() if v is not None}
        if "ruleset" in model.model_fields:
            chosen["ruleset"] = ruleset
        try:
            validated = model.model_validate(chosen)
        except ValidationError as exc:
            raise validation_refusal(exc) from exc
        deadlines: dict[str, float] = {}
        for key, hours in (("turn_hours", turn_hours), ("response_hours", response_hours)):
            if hours is not None:
                if not 0 < hours <= 24 * 60:
                    raise Refusal("refusal.deadline_hours")
                deadlines[key] = hours
        if responses == "fog":  # every response window lasts the same short time
            deadlines["response_hours"] = FOG_MINUTES / 60
        stored = validated.model_dump(mode="json", exclude={"ruleset"})
        record = await self.storage.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            system=system_id,
            ruleset=ruleset,
            seed=self._seed(),
            options={
                **stored,
                "format": format,
                "responses": responses,
                **(
                    {"computer_level": level or DEFAULT_COMPUTER_LEVEL}
                    if opponent == "computer"
                    else {}
                ),
                **({OPTION: packs} if packs else {}),
                **({} if rated else {"rated": False}),
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

    # ------------------------------------------------------------ seats
    def open_seats(self, game: LoadedGame, side: str | None = None) -> list[str]:
        """Seats nobody holds yet: the format's fixed seats, or in a custom game the
        next seat of each side while the system has room for one more."""
        system, options = game.system, game.options
        taken = {s.seat for s in game.seats}
        sides = [side] if side is not None else [s.id for s in system.lobby_sides(options)]
        fixed = format_seats(system, options, game.format)
        if fixed:
            return [s for s, of in fixed if s not in taken and of in sides]
        if system.room_refusal(options, game.picks) is not None:
            return []
        return [next_seat(system, taken, s) for s in sides]

    def start_problems(self, game: LoadedGame) -> list[Term]:
        """Why the host cannot start yet (empty: ready). In a practice lobby the seats
        still open are no problem: the computer players who will take them at the
        start (:meth:`computer_picks`) are checked with the others."""
        return self._start_check(game)[0]

    def _start_check(self, game: LoadedGame) -> tuple[list[Term], list[SeatPick]]:
        """:meth:`start_problems`, and the computer players the start would seat."""
        if game.practice_level is None:
            fixed = format_seats(game.system, game.options, game.format)
            missing = self.open_seats(game) if fixed else []
            return self._problems(game, game.picks, missing), []
        if not any(s.user_id is not None for s in game.seats):
            return [Term("lobby.problem.practice_human")], []
        try:
            computers = self.computer_picks(game)
        except Refusal as why:
            return [Term(why.key, **why.fields)], []
        return self._problems(game, [*game.picks, *computers], []), computers

    @staticmethod
    def _problems(game: LoadedGame, picks: list[SeatPick], missing: list[str]) -> list[Term]:
        """The seats ``missing`` and what the system says of ``picks``."""
        problems = [Term("lobby.problem.seats", seats=", ".join(missing))] if missing else []
        for why in game.system.start_problems(game.options, picks):
            problems.append(why if isinstance(why, Term) else Term("refusal.setup", why=why))
        return problems

    async def join(
        self,
        game: LoadedGame,
        user_id: int,
        name: str,
        aircraft: str,
        side: str | None,
        *,
        seat: str | None = None,
        computer: bool = False,
        **extras: Any,
    ) -> tuple[LoadedGame, str]:
        """Take (or change) a seat with an aircraft and the system's ``extras``
        (``pick_fields``); with ``computer``, the host of a practice lobby seats a
        computer player instead. Returns the game and the seat taken."""
        async with self.locks(game.id):
            game = await self.load(game.id)
            if game.record.status is not GameStatus.LOBBY:
                raise Refusal("refusal.started")
            if computer:
                if game.practice_level is None:
                    raise Refusal("refusal.computer_seat_practice")
                if user_id != game.record.host_id:
                    raise Refusal("refusal.computer_seat_host")
            holder = None if computer else user_id
            system, options = game.system, game.options
            if side is not None and side not in {s.id for s in game.sides()}:
                names = ", ".join(s.id for s in game.sides())
                raise Refusal("refusal.unknown_side", side=repr(side), sides=names)
            ac = self.find_aircraft(game, aircraft)
            why: str | None = system.aircraft_refusal(options, side, ac.id)
            if why is not None:
                raise UserError(why)
            team = side or ac.side
            if team is None:
                raise Refusal("refusal.name_side")
            for other in game.seats_of(user_id) if holder is not None else ():
                if game.side_of(other) != team:
                    raise Refusal("refusal.other_side")
            seat = self._pick_seat(game, holder, team, seat)
            try:
                pick = system.make_pick(ac.id, {k: v for k, v in extras.items() if v is not None})
            except ValidationError as exc:
                raise validation_refusal(exc) from exc
            why = system.pick_refusal(options, team, pick)
            if why is not None:
                raise UserError(why)
            others = [p for p in game.picks if p.seat != seat]
            if others:
                try:  # the setup model knows the largest game the rules allow
                    system.setup_from_lobby(options, [*others, SeatPick(seat, team, pick)])
                except ValidationError as exc:
                    raise validation_refusal(exc) from exc
            await self.storage.put_seat(
                game.id,
                seat,
                team,
                holder,
                name if holder is not None else COMPUTER_NAME,
                pick.model_dump(mode="json"),
                expected_version=game.record.version,
            )
            return await self.load(game.id), seat

    def _pick_seat(self, game: LoadedGame, user_id: int | None, side: str, seat: str | None) -> str:
        """The seat ``user_id`` (None: a computer player) takes on ``side``: the one
        named, else the side's first open seat, else the one they hold there."""
        system = game.system
        label = game.side_phrase(side)
        if seat is None:
            free = self.open_seats(game, side)
            if free:
                return free[0]
            mine = [s for s in _held_by(game, user_id) if game.side_of(s) == side]
            if len(mine) == 1:
                return mine[0]  # a new aircraft for the seat the player holds
            raise Refusal("refusal.side_full", side=label)
        seat = seat.strip().upper()
        if seat_number(system, side, seat) is None:
            prefix = system.seat_name(side, 1).removesuffix("1")
            raise Refusal("refusal.seat_name", side=label, prefix=prefix, seat=repr(seat))
        holder = game.holder(seat)
        if holder is not None and holder != user_id:
            raise Refusal("refusal.seat_taken", seat=seat, holder=mention(holder))
        fixed = [s for s, _ in format_seats(system, game.options, game.format)]
        if fixed and seat not in fixed:
            spare = ", ".join(self.open_seats(game, side)) or Term("refusal.none_left")
            raise Refusal(
                "refusal.no_such_seat", format=game.format, seat=seat, side=label, spare=spare
            )
        if seat not in {s.seat for s in game.seats} and not fixed:
            nxt = self.open_seats(game, side)
            if not nxt:
                why = system.room_refusal(game.options, game.picks)
                raise (
                    UserError(why) if why is not None else Refusal("refusal.side_full", side=label)
                )
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
                computer = seat in _held_by(game, None) and user_id == game.record.host_id
                if seat not in mine and not computer:  # the host unseats a computer player
                    raise Refusal("refusal.not_your_seat", seat=seat)
            elif len(mine) == 1:
                seat = mine[0]
            else:
                raise Refusal("refusal.no_seat" if not mine else "refusal.name_seat")
            await self.storage.remove_seat(game.id, seat, expected_version=game.record.version)
            return await self.load(game.id), seat

    async def set_option(
        self, game: LoadedGame, user_id: int, option: str, value: Any
    ) -> LoadedGame:
        """The host changes one of the lobby's options before the start (a switch of the
        system's presenter, e.g. DiF's VP bonus)."""
        async with self.locks(game.id):
            game = await self.load(game.id)
            if game.record.status is not GameStatus.LOBBY:
                raise Refusal("refusal.started")
            if user_id != game.record.host_id:
                raise Refusal("refusal.host_options")
            options = {**game.record.options, option: value}
            try:
                game.system.options_model.model_validate(
                    {**game.options.model_dump(), option: value}
                )
            except ValidationError as exc:
                raise validation_refusal(exc) from exc
            await self.storage.update_game(game.id, game.record.version, options=options)
            return await self.load(game.id)

    # ------------------------------------------------------------ texts
    def lobby_text(self, game: LoadedGame, language: str = "en") -> str:
        """The lobby message at the top of the thread: seats, balance, status."""
        presenter, options = game.presenter, game.options
        fmt = t(f"lobby.format.{game.format}", language)
        lines = [presenter.lobby_title(options, game.id, fmt, language)]
        level = game.practice_level
        if level is not None:
            lines.append(t("lobby.practice", language, level=t(f"level.{level}", language)))
        if game.record.options.get("rated", True) is False:
            lines.append(t("lobby.unrated", language))
        mode = game.record.options.get("responses", "normal")
        if mode != "normal":
            lines.append(t(f"lobby.mode.{mode}", language, minutes=FOG_MINUTES))
        picks = game.picks
        lobby = game.record.status is GameStatus.LOBBY
        open_seats = self.open_seats(game) if lobby else []
        fixed = dict(format_seats(game.system, options, game.format))
        for side in game.system.lobby_sides(options):
            lines.append(presenter.side_heading(options, side, picks, language))
            for s, p in zip(game.seats, picks, strict=True):
                if s.side == side.id:
                    who = (
                        mention(s.user_id)
                        if s.user_id is not None
                        else t("lobby.computer", language)
                    )
                    element = presenter.pick_text(options, p.pick, language)
                    lines.append(
                        t("lobby.seat_line", language, seat=s.seat, who=who, element=element)
                    )
            for seat in open_seats:
                if fixed.get(seat) == side.id:
                    lines.append(f"• {seat} *{t('lobby.open', language)}*")
        lines += presenter.lobby_notes(options, picks, open_lobby=lobby, language=language)
        if lobby:
            if open_seats:
                verb = "take_one" if fixed else "add_element"
                lines.append(t(f"lobby.open_seats.{verb}", language, seats=", ".join(open_seats)))
            problems = self.start_problems(game)
            lines.append(problems[0].text(language) if problems else t("lobby.ready", language))
        elif game.record.status is GameStatus.ACTIVE:
            lines.append(t("lobby.under_way", language))
        elif game.record.result:
            lines.append(t("lobby.finished", language, verdict=verdict_text(game, language)))
        elif game.record.status is GameStatus.ABORTED:
            lines.append(t("lobby.aborted", language))
        return "\n".join(lines)[:2000]

    def pick_text(self, game: LoadedGame, seat: SeatRecord, language: str = "en") -> str:
        """What one seat flies, in words."""
        (pick,) = picks_of(game.system, [seat])
        return game.presenter.pick_text(game.options, pick.pick, language)

    def joined_text(self, game: LoadedGame, user_id: int, seat: str, language: str = "en") -> str:
        """The public line announcing a pilot's seat."""
        record = next(s for s in game.seats if s.seat == seat)
        ready = "" if self.start_problems(game) else t("lobby.joined_ready", language)
        who = t("lobby.computer", language) if record.user_id is None else mention(user_id)
        return (
            t(
                "lobby.joined",
                language,
                user=who,
                side=tr(game.side_phrase(record.side), language),
                seat=seat,
                element=self.pick_text(game, record, language),
            )
            + ready
        )

    # ------------------------------------------------------------ the start
    def lobby_setup(self, game: LoadedGame) -> Any:
        setup = game.system.setup_from_lobby(game.options, game.picks)
        return self.setup_filter(setup) if self.setup_filter is not None else setup

    async def start(self, game: LoadedGame, user_id: int) -> Outcome:
        async with self.locks(game.id):
            game = await self.load(game.id)
            if game.record.status is not GameStatus.LOBBY:
                raise Refusal("refusal.started")
            if user_id != game.record.host_id:
                raise Refusal("refusal.host_start")
            problems, computers = self._start_check(game)
            if problems:  # nothing written: a practice lobby's computers are seated next
                raise Refusal(problems[0].key, **problems[0].fields)
            if computers:
                game = await self.seat_computers(game, computers)
            try:
                setup = self.lobby_setup(game)
            except ValidationError as exc:
                raise validation_refusal(exc) from exc
            except EngineError as exc:
                raise engine_refusal(exc) from exc
            level = game.practice_level
            if level is not None:
                held = sorted(_held_by(game, None))
                settings = await self.game_settings(game.id)
                settings["computer_seats"] = held
                settings["computer_levels"] = dict.fromkeys(held, level)
                await self.storage.put_game_settings(game.id, settings)
            return await self.begin(game, setup)

    def computer_picks(self, game: LoadedGame) -> list[SeatPick]:
        """The computer players a practice lobby's start would seat: one in every open
        seat (in a ``custom`` lobby, one for a side without a seat), seat after seat,
        each flying an aircraft of its side's choices that the rules accept with the
        seats before it and that adds none of the system's start problems (a side over
        its points, several aircraft without Team Games...), tried in an order drawn
        from the game and the seat (never the game's secret seed). When every aircraft
        adds one, the first the rules accept: the start then says why it cannot be.
        Refused when no aircraft fits at all."""
        system = game.system
        fixed = format_seats(system, game.options, game.format)
        held = {s.seat for s in game.seats}
        sides = {s.side for s in game.seats}
        candidates = fixed or tuple((next_seat(system, set(), s.id), s.id) for s in game.sides())
        picks = list(game.picks)
        chosen: list[SeatPick] = []
        for seat, side in candidates:
            if seat in held or (not fixed and side in sides):
                continue
            pick = SeatPick(seat, side, self._computer_pick(game, picks, seat, side))
            picks.append(pick)
            chosen.append(pick)
        return chosen

    async def seat_computers(self, game: LoadedGame, picks: list[SeatPick]) -> LoadedGame:
        """Seat computer players (:meth:`computer_picks`). Under the game's lock."""
        for p in picks:
            await self.storage.put_seat(
                game.id,
                p.seat,
                p.side,
                None,
                COMPUTER_NAME,
                p.pick.model_dump(mode="json"),
                expected_version=game.record.version,
            )
            game = await self.load(game.id)
        return game

    @staticmethod
    def _computer_pick(game: LoadedGame, picks: list[SeatPick], seat: str, side: str) -> Any:
        """A computer player's pick for ``seat`` beside ``picks`` (:meth:`computer_picks`)."""
        system, options = game.system, game.options
        key = f"tally-ho/practice/v1:{game.id}:{seat}"
        rng = random.Random(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big"))
        choices = system.aircraft_choices(options, side)
        rng.shuffle(choices)
        before = set(system.start_problems(options, picks))
        accepted = None
        for choice in choices:
            try:
                pick = system.make_pick(choice.id, {})
            except ValidationError:
                continue
            if system.pick_refusal(options, side, pick) is not None:
                continue
            after = [*picks, SeatPick(seat, side, pick)]
            try:
                system.setup_from_lobby(options, after)
            except (ValidationError, EngineError):
                continue
            if set(system.start_problems(options, after)) <= before:
                return pick
            accepted = accepted or pick
        if accepted is not None:
            return accepted
        raise Refusal("refusal.computer_no_aircraft", seat=seat)

    async def begin(self, game: LoadedGame, setup: Any) -> Outcome:
        """Start a game in the lobby from its whole ``setup`` (the system's
        ``setup_model``): the lobby's (:meth:`start`), or a campaign mission's. Under
        the game's lock, the game just loaded. Refused (changing nothing) when the
        system will not start it."""
        system = game.system
        try:
            state, events = system.new_game(setup, game.record.seed)
        except ValidationError as exc:
            raise validation_refusal(exc) from exc
        except EngineError as exc:
            raise engine_refusal(exc) from exc
        commitment = seed_commitment(system.id, game.id, game.record.seed)
        # A campaign mission may be settled by its own start (Zero!: bombers with no
        # element on either side bomb and come home without a decision): it is
        # finished in the same write, so the campaign moves on (cogs.publisher).
        over = system.is_over(state)
        record = await self.storage.update_game(
            game.id,
            game.record.version,
            status=GameStatus.FINISHED if over else GameStatus.ACTIVE,
            options={
                **game.record.options,
                "setup": setup.model_dump(mode="json"),
                "commitment": commitment,
            },
            result=result_record(system.outcome(state)) if over else None,
            # Untold until posted: the outbox tells it after a crash. A campaign's
            # mission is announced by its campaign instead (``announced``, bot.campaigns).
            start_told=game.record.campaign_id is not None,
        )
        game = LoadedGame(record, game.seats, setup, state)
        self._remember(game)
        game, events = await self._auto_moves(game, events)  # computer seats move at once
        await self._changed(game, None)
        out = outcome_of(game, events, image=True)
        out.public.append(commitment_text(commitment))
        return out
