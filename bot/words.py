"""Small generic texts the bot builds around a system's words."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage import SeatRecord
from strings import Term

__all__ = ["and_list", "comma_list", "mention", "player_name"]


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def player_name(seat: SeatRecord) -> str:
    """Who flies a seat, for texts: the member's name, or "a computer player" (a
    :class:`Term`) for a seat held by nobody once the game has started."""
    return seat.display_name if seat.user_id is not None else Term("seats.a_computer")


def and_list(items: list[str]) -> str:
    """``A1 and A2``, with the reader's conjunction (a :class:`Term` when there are two or more)."""
    out: str = items[0] if items else ""
    for item in items[1:]:
        out = Term("common.and", a=out, b=item)
    return out


def comma_list(items: Iterable[str]) -> str:
    """``a, b, c``, keeping the Terms among them translatable (``common.list``)."""
    out: str | None = None
    for item in items:
        out = item if out is None else Term("common.list", head=out, item=item)
    return out or ""
