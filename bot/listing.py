"""``/game list``: the open games of a server (or of one player), with whose move it
is and until when.

No Discord here (the cog formats nothing but calls :func:`list_text`), no rules:
who is awaited comes from the game's system (``pending``), in its presenter's words.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from bot.games import LoadedGame
from bot.prompts import decision_words
from bot.storage import OPEN_STATUSES, GameStatus
from bot.systems import format_seats
from engine.core.contract import Scope
from strings import Term, t, tr

if TYPE_CHECKING:
    from bot.service import GameService

__all__ = ["MAX_LISTED", "Awaited", "GameLine", "deadline_of", "list_text", "open_games"]

MAX_LISTED = 20
"""Games shown at most (newest first); the text says how many more there are."""


async def deadline_of(game: LoadedGame, service: GameService) -> datetime | None:
    """When the default action applies to the earliest decision ``game`` waits on
    (its live deadlines in the database, see :mod:`bot.scheduler`); None when there is
    no deadline (deadlines off, a seat without a player)."""
    live = await service.storage.live_deadlines(game.id)
    return min((d.expires_at for d in live), default=None)


@dataclass(frozen=True, slots=True)
class Awaited:
    """One decision a game waits on."""

    seat: str | None
    """None for a decision of a whole side (``Scope.SIDE``)."""
    label: str
    """``Buffalo I (A1)``, or ``the Allied side``."""
    user_ids: tuple[int, ...]
    what: str
    """The decision in words."""


@dataclass(frozen=True, slots=True)
class GameLine:
    game: LoadedGame
    awaited: tuple[Awaited, ...]
    deadline: datetime | None


def awaited(game: LoadedGame) -> tuple[Awaited, ...]:
    """Who the game waits on now, one entry per seat (or side), from its system."""
    state = game.state
    if state is None or game.record.status is not GameStatus.ACTIVE:
        return ()
    out: dict[str, Awaited] = {}
    pending = game.system.pending(state)
    for p in pending:
        if p.scope is Scope.SIDE and p.side is not None:
            users = tuple(
                dict.fromkeys(
                    uid
                    for q in pending
                    if q.scope is Scope.SIDE
                    and q.side == p.side
                    and (uid := game.holder(q.seat)) is not None
                )
            )
            label = Term("listing.side", side=game.side_phrase(p.side))
            out.setdefault(
                f"side:{p.side}", Awaited(None, label, users, decision_words(game, p.kind))
            )
            continue
        holder = game.holder(p.seat)
        out.setdefault(
            p.seat,
            Awaited(
                p.seat,
                game.seat_label(p.seat),
                (holder,) if holder is not None else (),
                decision_words(game, p.kind),
            ),
        )
    return tuple(out.values())


async def open_games(
    service: GameService, guild_id: int, user_id: int | None = None
) -> tuple[list[GameLine], int]:
    """The open games of a server (of one player if ``user_id``), newest first, at most
    :data:`MAX_LISTED`; and how many there are in all."""
    if user_id is None:
        records = await service.storage.list_games(guild_id, statuses=OPEN_STATUSES)
        ids = [r.id for r in records]
    else:
        seats = await service.storage.seats_of_user(user_id, statuses=OPEN_STATUSES)
        ids = []
        for game_id in sorted({s.game_id for s in seats}):
            record = await service.storage.get_game(game_id)
            if record is not None and record.guild_id == guild_id:
                ids.append(game_id)  # another server's game is not this server's business
    newest = sorted(ids, reverse=True)[:MAX_LISTED]
    games = [await service.load(game_id) for game_id in newest]
    lines = [GameLine(g, awaited(g), await deadline_of(g, service)) for g in games]
    return lines, len(ids)


def _when(deadline: datetime) -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(deadline.timestamp())}:R>"


def list_text(
    lines: list[GameLine],
    total: int,
    *,
    user_id: int | None = None,
    language: str = "en",
) -> str:
    """The ``/game list`` answer (Discord markdown, under 2000 characters)."""
    if user_id is not None:
        whose = t("listing.of_user", language, user=f"<@{user_id}>")
    else:
        whose = t("listing.in_server", language)
    if not lines:
        hint = "" if user_id is not None else t("listing.start_one", language)
        return t("listing.none", language, whose=whose) + hint
    out = [t("listing.head", language, whose=whose, total=total)]
    for line in lines:
        g = line.game
        rec = g.record
        where = f"<#{rec.thread_id}>" if rec.thread_id else t("listing.no_thread", language)
        title = g.presenter.game_title(g.options, language)
        head = f"**#{g.id}** {where} · {title} · {g.format}"
        level = g.practice_level
        if level is not None:
            head += t("listing.practice", language, level=t(f"level.{level}", language))
        if rec.status is GameStatus.LOBBY:
            fixed = format_seats(g.system, g.options, g.format)
            seats = (
                t("listing.seats_of", language, n=len(g.seats), total=len(fixed))
                if fixed
                else t("listing.seats", language, n=len(g.seats))
            )
            host = f"<@{rec.host_id}>"
            head += t("listing.lobby", language, seats=seats, host=host)
        else:
            turn = g.presenter.phase(g.state).turn if g.state is not None else 0
            head += t("listing.turn", language, turn=turn)
            waits = [
                f"{tr(a.label, language)} "
                # a started game's seat held by nobody is flown by a computer player
                + (" ".join(f"<@{u}>" for u in a.user_ids) or t("listing.computer_seat", language))
                + f": {tr(a.what, language)}"
                for a in line.awaited
            ]
            if waits:
                head += " · ➡ " + "; ".join(waits)
            if line.deadline is not None:
                head += t("listing.due", language, when=_when(line.deadline))
        out.append(f"• {head}")
    text = "\n".join(out)
    if len(text) > 1900:
        text = text[:1880].rsplit("\n", 1)[0] + "\n…"
    elif total > len(lines):
        text += "\n" + t("listing.more", language, n=total - len(lines))
    return text
