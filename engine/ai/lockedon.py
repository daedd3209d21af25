"""Locked-On: the ``heuristic`` level's policy, read from the seat's view.

The rules' tactics, as plain preferences over the legal actions (higher first):

* launch after a successful Tone (L248), and attack whenever the rules allow it: a
  gun attack (L171) or a Tone (L243), the strongest card first;
* position before firing: Maneuvering for Position on an enemy the aircraft is not
  yet Tailing (L151), with a card or a Speed point (L112); close the Range rather
  than open it (L158);
* react to every enemy Action the rules let you answer (L133-137, L182), a card before
  a Countermeasures counter; Alert a missile (L344); keep the reaction cards: never
  discard them while another card will do;
* when outmatched (an enemy Advantaged or Tailing on you), change altitude and do not
  follow (L218-231) or Bat-Turn back to Neutral (L369); follow an enemy you hold;
* start at Medium altitude (L76), end a step when nothing above is left.
"""

from __future__ import annotations

from engine.ai.base import signed_position
from engine.lockedon.actions import Action
from engine.lockedon.view import LockedOnView

__all__ = ["score"]

SEARCH_BUDGET = {"iterations": 10}
"""A Locked-On decision costs a little more than one of Down in Flames: a few rounds
fewer, for the same time (``bench/ai.py``)."""
_ATTACK = {"GUNGR": 3.0, "GUNG": 2.0, "TONES": 2.0, "GUN": 1.0, "TONE": 1.0, "TG": 1.0}
"""Attack cards, the stronger first (Good and Great Angle L166, Strong Tone L342)."""
_KEEP = {"ACE": 3.0, "BR": 2.5, "BRK": 2.5, "RED": 2.5, "SCI": 2.5, "SPS": 2.5, "TT": 2.5}
"""Reaction cards, kept to answer attacks (anything else but attacks: 2)."""


def keep(code: str) -> float:
    return 3.0 if code in _ATTACK else _KEEP.get(code, 2.0)


def position(view: LockedOnView, seat: str, on: str) -> int:
    """``seat``'s position on ``on`` (2 Tailing, 1 Advantaged, negative: held by it)."""
    return signed_position(((g.seat, g.on, int(g.position)) for g in view.engagements), seat, on)


def outmatched(view: LockedOnView) -> bool:
    """An enemy holds Advantaged or Tailing on the viewer."""
    return any(g.on == view.viewer for g in view.engagements)


def holding(view: LockedOnView) -> bool:
    return any(g.seat == view.viewer for g in view.engagements)


def score(view: LockedOnView, a: Action) -> float:
    """How good ``a`` looks to the seat of ``view``."""
    v = a.verb
    if v == "launch":
        return 12.0 + a.n
    if v == "play":
        return _play(view, a)
    if v == "speed":
        return _position_gain(view, a.target) - 2.0 if a.mode == "pos" else 1.0 - (a.enemy > 0)
    if v == "react":
        return 8.0 - (0.5 if a.card == "CM" else keep(a.card or "") * 0.2)
    if v == "alert":
        return 8.0
    if v == "batturn":
        return 6.0 if outmatched(view) else 0.0
    if v in ("dive", "climb"):
        return (3.0 if outmatched(view) else 0.0) - 0.2 * len(a.cards)
    if v == "stay":
        return 2.0
    if v == "follow":
        return (3.0 if holding(view) else 1.0) - 0.5 * len(a.cards)
    if v == "nofollow":
        return 3.5 if outmatched(view) else 1.5
    if v in ("discard", "trim", "timely"):
        return sum(1.8 - keep(c) for c in a.cards) - (v == "timely")
    if v == "alt":
        return 2.0 if a.mode == "M" else 1.0
    if v in ("pass", "nolaunch", "giveup"):
        return 0.0
    if v == "end":
        return 1.5
    return 1.0


def _position_gain(view: LockedOnView, target: str | None) -> float:
    """Worth of a position step on ``target``: high until Tailing it."""
    if target is None or view.viewer is None:
        return 0.0
    now = position(view, view.viewer, target)
    return 7.0 - 2.0 * max(now, 0) if now < 2 else 0.5


def _play(view: LockedOnView, a: Action) -> float:
    code = a.card or ""
    if a.mode is None and code in _ATTACK and a.target is not None:
        return 10.0 + _ATTACK[code] - 0.3 * len(a.cards)
    if a.mode == "pos":
        return _position_gain(view, a.target) + 0.3 * a.n - 0.2 * keep(code)
    if a.mode == "range":
        return 1.0 + (a.own < 0 or a.enemy < 0) - 0.2 * keep(code)
    if a.mode in ("up", "down"):
        return 3.0 if outmatched(view) else 0.5
    return 2.5 if code in ("BRK", "YOYO") and a.target is None else 1.2
