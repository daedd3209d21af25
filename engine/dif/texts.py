"""The engine's texts: small helpers over the strings catalogue.

Every user-facing text of the engine is a :class:`strings.Term` whose key is under
``dif.`` in ``strings/<language>/dif.yaml``: a ``str`` holding the English text (what
logs, conformance vectors and ``/game verify`` compare) that remembers its key and
fields, so the bot can show it in the reader's language with :func:`strings.tr`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from strings import Term

__all__ = ["STEPS", "fixed", "join", "step_label"]


@cache
def fixed(key: str) -> Term:
    """The text of a key without fields (a label, a prompt, a step name), made once:
    a Term formats its English text when it is made, and labels are asked for often."""
    return Term(key)


def join(items: Sequence[str]) -> str:
    """``", ".join(items)``, keeping the Terms among them translatable.

    Plain names (aircraft, cards) are joined as they are; when one item is a Term the
    result is a Term too (``dif.list``, one item at a time), so a sentence that takes
    the list as a field still shows every item in the reader's language.
    """
    if not any(isinstance(item, Term) for item in items):
        return ", ".join(items)
    out = items[0]
    for item in items[1:]:
        out = Term("dif.list", head=out, item=item)
    return out


STEPS = {
    step: f"dif.step.{step}"
    for step in (
        "setup",
        "redraw",
        "order",
        "wingman",
        "wingman_attack",
        "altitude",
        "play",
        "discard",
        "over",
        "abandon",
        "jettison",
        "bomb",
        "strafe",
        "aa",
    )
}
"""Each value of ``GameState.step``, and the catalogue key of its name for views
(``Play cards``): see :func:`step_label`."""


def step_label(step: str) -> Term:
    """The human-readable name of a step, e.g. ``Play cards``."""
    return fixed(STEPS[step])
