"""Small words shared by the presenter's modules: an altitude, a range band, a position
and an exchange's cards as translatable texts (:class:`strings.Term`)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.lockedon.components import Altitude, Position, Range
from engine.lockedon.texts import fixed
from strings import Term

__all__ = ["altitude_word", "position_word", "range_word", "then"]


def position_word(p: int) -> Term:
    """``Advantaged``: a position seen from the aircraft that holds it (or suffers it)."""
    return fixed(f"lockedon.position.{Position(p).name.lower()}")


def altitude_word(a: int) -> Term:
    return fixed(f"lockedon.altitude.{Altitude(a).code}")


def range_word(r: int) -> Term:
    return fixed(f"lockedon.range.{Range(r).code}")


def then(cards: Sequence[str]) -> str:
    """An exchange's cards, the Action first: ``Guns → Barrel Roll``, each card's text
    kept translatable."""
    out = cards[0] if cards else ""
    for card in cards[1:]:
        out = Term("lockedon.ui.prompt.then", head=out, card=card)
    return out
