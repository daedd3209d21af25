"""Down in Flames: the ``heuristic`` level's policy, read from the seat's view.

The rules' tactics, as plain preferences over the legal actions (higher first):

* position before firing: a Maneuvering or Half Loop card on an enemy the leader is
  not yet Tailing (6.1); once Advantaged or Tailing, spend the bursts (8.2), the most
  damage first;
* answer every attack the rules let you answer (8.3, 8.4), with the least precious card
  (the Ace Pilot, which answers anything, last), and keep the response cards for that:
  never throw them away or play them as an attack while another card will do;
* climb or dive when outmatched: with an enemy Advantaged or Tailing on your leader,
  change altitude (7.21) and do not follow its climbs or dives (7.24) to break its
  position; follow an enemy you hold a position on;
* a wingman attacks the leader (10.1); a mission drops its bombs (21.1);
* start at Medium altitude (4.5), end a step when nothing above is left.
"""

from __future__ import annotations

from engine.ai.base import signed_position
from engine.dif.actions import Action
from engine.dif.view import DifView

__all__ = ["score"]

_RESPONSES = frozenset({"ACE", "TIT", "BAR", "VER", "SCI"})
"""Cards with a response box (the shipped decks): kept to answer attacks."""
_KEEP = {"ACE": 3.0, "IMS": 3.0, "OOS": 3.0, "TIT": 2.5, "BAR": 2.5, "VER": 2.5, "SCI": 2.5}
"""How much a card is worth keeping in hand (anything else: 2, Full Throttle 1.5)."""
_ALTITUDE = {"VL": 0.0, "L": 1.0, "M": 2.0, "H": 1.5, "VH": 1.0}
_MISSION = {"bomb": 5.0, "strafe": 4.0, "continue": 3.0, "keep": 3.0}
"""A mission flies Over the Target with its bombs and drops them (21.1, 23.51, 15.2)."""


def kind(code: str) -> str:
    """A card code's kind: ``IMS-2B3D`` -> ``IMS``."""
    return code.split("-")[0]


def keep(code: str) -> float:
    return _KEEP.get(kind(code), 1.5 if kind(code) == "FUT" else 2.0)


def position(view: DifView, plane: str, on: str) -> int:
    """``plane``'s position on ``on`` (2 Tailing, 1 Advantaged, negative: ``on`` holds
    one on ``plane``, 0 Neutral)."""
    rows = ((g.leader, g.on, int(g.position)) for g in view.engagements)
    return signed_position(rows, plane, on)


def my_leader(view: DifView) -> str | None:
    mine = next((e for e in view.elements if e.seat == view.viewer), None)
    return mine.leader.ref if mine is not None and mine.leader is not None else None


def outmatched(view: DifView) -> bool:
    """An enemy leader holds Advantaged or Tailing on this seat's leader."""
    me = my_leader(view)
    return any(g.on == me for g in view.engagements)


def holding(view: DifView) -> bool:
    """This seat's leader holds Advantaged or Tailing on an enemy."""
    me = my_leader(view)
    return any(g.leader == me for g in view.engagements)


def score(view: DifView, a: Action) -> float:
    """How good ``a`` looks to the seat of ``view``."""
    v = a.verb
    if v == "play":
        return _play(view, a)
    if v == "respond":
        return 9.0 - keep(a.card or "")
    if v == "wm":
        return 5.0 + (a.target or "").endswith("L")
    if v == "alt":
        return _ALTITUDE.get(a.arg or "", 0.0)
    if v in ("dive", "climb"):
        cost = keep(a.card) * 0.2 if a.card else 0.0
        return (3.0 if outmatched(view) else 0.0) - cost
    if v == "stay":
        return 2.0
    if v == "follow":
        return (3.0 if holding(view) else 1.0) - 0.5 * len(a.cards)
    if v == "nofollow":
        return 3.5 if outmatched(view) else 1.5
    if v in ("discard", "redraw"):
        return sum(1.8 - keep(c) for c in a.cards)
    if v in _MISSION:
        return _MISSION[v]
    if v in ("pass", "skip", "giveup", "evade", "jettison", "abandon", "hold"):
        return 0.0
    if v == "done":
        return 2.0
    return 1.0


def _play(view: DifView, a: Action) -> float:
    """A card played on the seat's turn: bursts when in position, else position."""
    code, target = a.card or "", a.target or ""
    leader_bonus = 0.5 if target.endswith("L") else 0.0
    k = kind(code)
    if k in ("IMS", "OOS"):
        tail = code.split("B")[-1]
        damage = 6 if tail == "FT" else int(tail.rstrip("D") or 0)
        return 10.0 + damage + leader_bonus
    if k in ("MAN", "HAL", "FTC", "FUT") and a.as_kind is None:
        me = my_leader(view)
        now = position(view, me, target) if me else 0
        return (7.0 - 2.0 * max(now, 0) + (k == "HAL") + leader_bonus) if now < 2 else 1.0
    if a.arg is not None:  # a Vertical Roll to change altitude: only when outmatched
        return 3.0 if outmatched(view) else 0.5
    return 1.5 + leader_bonus if k not in _RESPONSES else 1.5
