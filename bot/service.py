"""The game service: everything the bot does with a game, without Discord.

Cogs call one verb of :class:`GameService` per command or click; the service loads
the game, checks that the user holds the seat, asks the game's system, commits the
action to storage (before anyone is answered) and returns an
:class:`~bot.outcome.Outcome` saying what happened and who must be told what. It
holds no rules and names no system: legality, effects and views come from the game's
system (``registry.get(game.record.system)``), words and menus from its presenter.

The verbs live in one module per concept, put together here:

* :mod:`bot.games`: loading and caching games, :class:`~bot.games.LoadedGame`;
* :mod:`bot.lobby`: opening a lobby, seats, the host's options, the lobby message, the start;
* :mod:`bot.play`: acting, moves made without asking, deadlines' default moves,
  handing a seat over, taking an action back;
* :mod:`bot.results`: resigning, forfeiting, aborting, the recorded verdict;
* :mod:`bot.prompts`: a seat's message and ``/game status``;
* :mod:`bot.archive`: logs, verification, the after-action report, the replay.
"""

from __future__ import annotations

from bot.archive import archive
from bot.games import LoadedGame
from bot.lobby import FOG_MINUTES, RESPONSE_MODES, Lobbies
from bot.outcome import Outcome, Prompt
from bot.prompts import decision_words, hand_text, status_text
from bot.results import Results
from bot.systems import FORMATS
from bot.words import player_name

__all__ = [
    "FOG_MINUTES",
    "FORMATS",
    "RESPONSE_MODES",
    "GameService",
    "LoadedGame",
    "Outcome",
    "Prompt",
    "decision_words",
    "hand_text",
    "player_name",
    "status_text",
]


class GameService(Lobbies, Results):
    """Lobbies and games of one bot process, backed by a :class:`~bot.storage.Storage`."""

    def status_text(self, game: LoadedGame, language: str = "en") -> str:
        return status_text(game, language)

    async def public_log(self, game: LoadedGame) -> str:
        """The public log: each action in canonical notation with its public narration
        (secret parts masked until the game is over: see :mod:`bot.history`)."""
        if game.setup is None:
            return self.lobby_text(game)
        return await archive(self).public_log(game)
