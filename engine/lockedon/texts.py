"""The engine's texts: small helpers over the strings catalogue.

Every user-facing text of the Locked-On engine is a :class:`strings.Term` whose key is
under ``lockedon.`` in ``strings/<language>/lockedon.yaml``: a ``str`` holding the
English text (the canonical record) that remembers its key and fields, so the bot can
show it in the reader's language with :func:`strings.tr`. Card, aircraft, missile and
skill names stay as printed (English).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from strings import Term

__all__ = ["COUNTED", "counted", "fixed", "join"]


@cache
def fixed(key: str) -> Term:
    """The text of a key without fields (a label, a prompt, a step name), made once."""
    return Term(key)


def join(items: Sequence[str]) -> str:
    """``"; ".join(items)``, keeping the Terms among them translatable (a Term of
    ``lockedon.list``, one item at a time)."""
    if not items or not any(isinstance(item, Term) for item in items):
        return "; ".join(items)
    out = items[0]
    for item in items[1:]:
        out = Term("lockedon.list", head=out, item=item)
    return out


COUNTED = {
    "draw": ("lockedon.event.draw.one", "lockedon.event.draw.other"),
    "discards": ("lockedon.event.discards.one", "lockedon.event.discards.other"),
    "trims": ("lockedon.event.trims.one", "lockedon.event.trims.other"),
}
"""Texts that count cards: their key for one card and for any other number."""


def counted(name: str, n: int) -> str:
    """The key of the ``name`` text (:data:`COUNTED`) counting ``n`` cards: "draws 1
    card", "draws 3 cards"."""
    one, other = COUNTED[name]
    return one if n == 1 else other
