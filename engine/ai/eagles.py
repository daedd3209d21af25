"""Eagles in the Sky: the ``heuristic`` level's policy, read from the seat's view.

The rules' tactics, as plain preferences over the legal actions (higher first):

* attack: a Targeted Activation (§8.2) on an enemy, above all on one the aircraft
  already tails (it fires, §10) and on a damaged one; a Head-on Attack (§10.4), a
  mission's bombs and strafing (§15.1, §16.45), a balloon (§15.27);
* the strongest card for an activation, the weakest thrown away in the Card Draw Phase
  (§7.2), and as few as the rules allow;
* answer a Targeted Activation with a Response card when one fits (§8.4), and fire:
  never hold fire nor give up a position held (§10.14, §8.25 note);
* the Performance Rating that beats the target's by most (§8.27, §8.14);
* an aircraft tailed by an enemy escapes (§12), or Falls Leaf (§8.3: it may crash);
* clear jammed guns and reload (§10.73, §15.44); take off (§16.47);
* end the Activation Phase or agree to end it only when nothing above is left (§4.4).
"""

from __future__ import annotations

from engine.eagles.actions import Action
from engine.eagles.view import EaglesView, PlaneView

__all__ = ["score"]

_VERB = {
    "tail": 6.0,
    "headon": 5.0,
    "bomb": 6.0,
    "strafe": 5.0,
    "balloon": 4.0,
    "leaf": 2.0,
    "clear": 4.0,
    "takeoff": 5.0,
    "reload": 3.0,
    "respond": 5.0,
    "escape": 1.0,
    "follow": 2.0,
    "dive": 1.0,
    "climb": 1.5,
    "idle": 0.5,
    "stay": 1.0,
    "pass": 1.0,
    "refuse": 1.0,
    "allow": 0.3,
    "accept": 0.3,
    "offer": 0.1,
    "end": 0.1,
}
SEARCH_BUDGET = {"iterations": 6, "depth": 12}
"""A decision here costs about seven times one of Down in Flames (a hundred legal
actions to list and rate): the search plays fewer and shorter playouts, for the same
time (``bench/ai.py``)."""
_FLAG_COST = {"hold": 3.0, "giveup": 3.0, "jettison": 1.0}


def rating(view: EaglesView, card: int | None) -> int:
    """A card's printed rating (0 for none or a card not in the viewer's hand)."""
    return next((c.rating for c in view.hand if c.number == card), 0)


def score(view: EaglesView, a: Action) -> float:
    """How good ``a`` looks to the seat of ``view``."""
    if a.verb == "discard":
        return -sum(1.0 + rating(view, c) for c in a.cards)
    base = _VERB.get(a.verb, 1.0) - sum(_FLAG_COST.get(f, 0.0) for f in a.flags)
    return base + 0.1 * rating(view, a.card) + _target(view, a)


def _plane(view: EaglesView, ref: str | None) -> PlaneView | None:
    return None if ref is None else next((p for p in view.planes if p.ref == ref), None)


def _target(view: EaglesView, a: Action) -> float:
    """What the aircraft and its target add: firing from a tail, a damaged enemy, a
    Falling Leaf or an Escape for an aircraft tailed."""
    me = _plane(view, a.plane)
    if me is None:
        return 0.0
    if a.verb == "escape":
        tailed = any(p.tailing == me.ref for p in view.planes if p.side != me.side)
        return 2.0 if tailed and any(me.damage.values()) else 0.0
    target = _plane(view, a.target)
    if target is None:
        return 0.0
    hurt = sum(target.damage.values())
    fire = 2.0 if me.tailing == target.ref else 0.0
    return fire + 0.5 * hurt + (0.3 * _edge(view, me, target, a) if a.verb == "tail" else 0.0)


def _edge(view: EaglesView, me: PlaneView, target: PlaneView, a: Action) -> float:
    """§8.27, §8.14: the activating total (the Performance Rating the card is used with,
    plus the card's Maneuver Rating, at most that Rating) over the target's Rating."""
    if a.symbol is None:
        return 0.0
    mine = me.ratings.get(a.symbol, 0)
    return mine + min(rating(view, a.card), mine) - target.ratings.get(a.symbol, 0)
