"""The history of the games of one service: each game's log replayed once per version
and kept (a finished game never changes), and what is built from it: the exported
logs (:mod:`bot.logfile`), the verification (:mod:`bot.verify`), the after-action
report (:mod:`bot.report`) and the replay's GIF (its system's pictures)."""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import replace

from bot.errors import Refusal
from bot.games import GameStore, LoadedGame
from bot.history import History, is_over, replay_frames, replay_history
from bot.logfile import LogInfo, export_log
from bot.packs import pack_documents
from bot.recent import Recent
from bot.report import after_action_report
from bot.results import verdict_term
from bot.storage import GameStatus
from bot.verify import Verification, verify_game
from bot.words import player_name
from rendering.registry import replay_gif
from rendering.report import ReportView
from strings import Term

__all__ = ["Archive", "archive"]


class Archive:
    """History of the games of one store: loads and replays a game's log, keeps the
    last few replays and GIFs."""

    def __init__(self, store: GameStore, cache_size: int = 8) -> None:
        self._store = weakref.ref(store)
        self._cache: Recent[tuple[int, int], History] = Recent(cache_size)
        self._gifs: Recent[tuple[int, int, str], bytes] = Recent(2)  # up to 8 MB each

    @property
    def store(self) -> GameStore:
        store = self._store()
        assert store is not None
        return store

    async def history(self, game: LoadedGame) -> History:
        if game.setup is None:
            raise Refusal("history.no_log")
        key = (game.id, game.record.version)
        found = self._cache.get(key)
        if found is not None:
            return found
        rows = await self.store.storage.load_actions(game.id)
        log = [(r.seq, r.seat or "", r.action) for r in rows]
        history = await asyncio.to_thread(
            replay_history, game.system, game.setup, game.record.seed, log
        )
        self._cache.put(key, history)
        return history

    @staticmethod
    def info(game: LoadedGame) -> LogInfo:
        over = is_over(game)
        commitment = game.record.options.get("commitment")
        return LogInfo(
            game_id=game.id,
            status=game.record.status.value,
            commitment=str(commitment) if commitment else None,
            seed=game.record.seed if over else None,
            result=game.record.result if over else None,
            players={s.seat: s.display_name for s in game.seats},
        )

    async def _log_info(self, game: LoadedGame) -> LogInfo:
        """:meth:`info` with the content packs' documents, which a log carries."""
        documents = await pack_documents(self.store.storage, game.record.options)
        return replace(self.info(game), packs=documents)

    async def public_log(self, game: LoadedGame) -> str:
        """The public log (with the seed and unmasked actions once the game is over)."""
        return export_log(await self.history(game), await self._log_info(game))

    async def log_files(self, game: LoadedGame) -> list[tuple[str, str]]:
        """``(file name, text)``: the public log; once over, the full log too."""
        history = await self.history(game)
        info = await self._log_info(game)
        files = [(f"dogfight-{game.id}.txt", export_log(history, info))]
        if info.over:
            files.append((f"dogfight-{game.id}-full.txt", export_log(history, info, full=True)))
        return files

    @staticmethod
    def _require_over(game: LoadedGame, what: str) -> None:
        """Refused before the end; ``what`` names the deed (``history.what.<what>``)."""
        deed = Term(f"history.what.{what}")
        if game.setup is None or game.state is None:
            raise Refusal("history.not_started", what=deed)
        if not is_over(game):
            raise Refusal("history.still_fought", what=deed)

    async def verify(self, game: LoadedGame) -> Verification:
        self._require_over(game, "verify")
        rows = await self.store.storage.load_actions(game.id)
        commitment = game.record.options.get("commitment")
        return await asyncio.to_thread(
            verify_game,
            game.system,
            game_id=game.id,
            setup=game.setup,
            seed=game.record.seed,
            commitment=str(commitment) if commitment else None,
            log=[(r.seq, r.seat or "", r.action) for r in rows],
            recorded_result=game.record.result,
            aborted=game.record.status is GameStatus.ABORTED,
        )

    async def report(self, game: LoadedGame) -> ReportView:
        self._require_over(game, "report")
        history = await self.history(game)
        return after_action_report(
            history,
            title=Term("report.title", id=game.id),
            result=game.record.result,
            players={s.seat: player_name(s) for s in game.seats},
            verdict=verdict_term(game) if game.record.result else None,
        )

    async def replay_gif(self, game: LoadedGame, language: str = "en") -> bytes:
        """The replay as a GIF, its captions (the narration) in ``language``."""
        self._require_over(game, "replay")
        key = (game.id, game.record.version, language)
        found = self._gifs.get(key)
        if found is not None:
            return found
        history = await self.history(game)

        def work() -> bytes:
            frames = replay_frames(history, language)
            return replay_gif(game.record.system, frames, language, game.players(language))

        gif = await asyncio.to_thread(work)
        self._gifs.put(key, gif)
        return gif


_ARCHIVES: weakref.WeakKeyDictionary[GameStore, Archive] = weakref.WeakKeyDictionary()


def archive(store: GameStore) -> Archive:
    """The :class:`Archive` of a store (one per store, created on first use)."""
    found = _ARCHIVES.get(store)
    if found is None:
        found = _ARCHIVES[store] = Archive(store)
    return found
