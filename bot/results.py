"""How games end besides the rules: resigning, forfeiting (an abandoned seat), aborting;
and a game's result as stored and shown.

A result is stored as ``{"vp": {side: n}, "winner": side or null, "verdict": text}``
(the English verdict: the canonical record, compared by ``/game verify``); the rules'
result is the system's typed :class:`~engine.core.contract.Outcome` in that form.
"""

from __future__ import annotations

from bot.errors import Refusal
from bot.games import LoadedGame, result_record
from bot.outcome import Outcome
from bot.play import Play
from bot.storage import GameStatus
from bot.words import mention
from strings import NARRATION, Term, english, narration_wording, tr

__all__ = ["Results", "result_record", "verdict_term", "verdict_text"]


def _verdict(game: LoadedGame, key: str, loser: str) -> Term:
    """A conceded game's verdict: ``Victory for the Allied side: the Japanese side
    resigned``."""
    others = [s for s in game.sides() if s.id != loser]
    if len(others) == 1:
        return Term(key, winner=game.side_phrase(others[0].id), loser=game.side_phrase(loser))
    return Term(f"{key}_many", loser=game.side_phrase(loser))


def _winner(game: LoadedGame, loser: str) -> str | None:
    others = [s.id for s in game.sides() if s.id != loser]
    return others[0] if len(others) == 1 else None


def verdict_term(game: LoadedGame) -> str:
    """The game's recorded verdict, as a :class:`Term` where it can be.

    The result stores the verdict's English text (the canonical record, compared by
    ``/game verify``); it is matched here with the verdicts the rules give for the
    final state, or a resignation or forfeit would, so it can be put in another
    language; a verdict stored in an older wording of the record (an earlier
    :data:`strings.NARRATION`) is matched in that wording. A verdict matching none of
    them is returned as stored."""
    stored = str((game.record.result or {}).get("verdict", ""))
    candidates: list[str] = [
        _verdict(game, key, side.id)
        for key in ("end.resigned", "end.forfeits")
        for side in game.sides()
    ]
    state = game.state
    if state is not None and game.system.is_over(state):
        candidates.append(game.system.outcome(state).verdict)
    for c in candidates:
        if c == stored or any(
            english(c, narration_wording(v)) == stored for v in range(1, NARRATION)
        ):
            return c
    return stored


def verdict_text(game: LoadedGame, language: str = "en") -> str:
    """The game's recorded verdict in ``language`` (see :func:`verdict_term`)."""
    return tr(verdict_term(game), language)


class Results(Play):
    """Ending a game without the rules: resignation, forfeit, abort."""

    def verdict_term(self, game: LoadedGame) -> str:
        return verdict_term(game)

    def verdict_text(self, game: LoadedGame, language: str = "en") -> str:
        return verdict_text(game, language)

    async def resign(self, game_id: int, user_id: int) -> Outcome:
        async with self.locks(game_id):
            game = await self.load(game_id)
            self.require_active(game)
            mine = game.seats_of(user_id)
            if not mine:
                raise Refusal("refusal.not_playing")
            side = game.side_of(mine[0])
            assert side is not None
            verdict = _verdict(game, "end.resigned", side)
            line = Term("end.resigns", user=mention(user_id), verdict=verdict)
            return await self.concede(game, side, verdict, line)

    async def concede(self, game: LoadedGame, side: str, verdict: str, line: str) -> Outcome:
        """End the game as a loss of ``side`` (a resignation, a forfeit), with the VP
        at that moment. Call it under the game's lock, the game just loaded. The
        result keeps the verdict in English (stored with the game); ``line`` is the
        public line (a :class:`Term`, put in the thread's language when published)."""
        state = self.require_active(game)
        vp = dict(game.system.outcome(state).vp)
        result = {
            "vp": vp,
            "winner": _winner(game, side),
            "verdict": str(verdict),
            "conceded": side,
        }
        record = await self.storage.update_game(
            game.id, game.record.version, status=GameStatus.FINISHED, result=result, end_told=False
        )
        game = LoadedGame(record, game.seats, game.setup, state)
        self._remember(game)
        await self._changed(game, None)
        return Outcome(game, public=[line], finished=True, image=False)

    async def forfeit(self, game: LoadedGame, seat: str, why: str) -> Outcome:
        """The side of ``seat`` forfeits (an abandoned seat nobody took over): a result
        like a resignation. Under the game's lock."""
        self.require_active(game)
        side = game.side_of(seat)
        assert side is not None
        verdict = _verdict(game, "end.forfeits", side)
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
            started = game.state is not None
            record = await self.storage.update_game(
                game.id, game.record.version, status=GameStatus.ABORTED, end_told=not started
            )
            game = LoadedGame(record, game.seats, game.setup, game.state)
            self._remember(game)
            await self._changed(game, None)
            line = Term("end.aborted", user=mention(user_id), id=game.id)
            return Outcome(game, public=[line], finished=started, image=False)
