"""Locked-On hidden information, re-dealt for a computer player's search.

:func:`sample_state` is the system's information-set sampler (the contract's
:class:`engine.core.contract.Sampling`): a full state that one seat cannot tell from
the real one. What a seat cannot see (:mod:`engine.lockedon.view`): the other
aircraft's hands and Aircraft Expertise cards (L373), a Missile's mini-hand unless it
attacks with it (L250-251), the deck's order, the other seats' secret starting
altitudes before the reveal (L76), and the game's seeded generator (every future draw).
"""

from __future__ import annotations

import random

from engine.lockedon.game import LockedOnEngine
from engine.lockedon.state import GameState

__all__ = ["sample_state"]


def sample_state(
    engine: LockedOnEngine, state: GameState, seat: str, rng: random.Random
) -> GameState:
    """``state`` as ``seat`` sees it, every hidden card re-dealt at random from the pool
    it cannot see (each hand keeping its size), every other secret altitude picked
    again among the legal ones, and a new generator. The result depends on ``state``
    only through what ``seat`` sees."""
    s = state.clone()
    others = [s.planes[k] for k in sorted(s.planes) if k != seat]
    x = s.exchange if s.exchange is not None and s.exchange.actor != seat else None
    mini = x.mini if x is not None else []
    pool = sorted(s.deck + mini + [c for p in others for c in p.hand + p.side_hand])
    rng.shuffle(pool)
    for p in others:
        p.hand, pool = pool[: len(p.hand)], pool[len(p.hand) :]
        p.side_hand, pool = pool[: len(p.side_hand)], pool[len(p.side_hand) :]
    if x is not None:
        x.mini, pool = pool[: len(x.mini)], pool[len(x.mini) :]
    s.deck = pool
    for other in [p.seat for p in others if s.step == "setup" and p.pick is not None]:
        s.planes[other].pick = None
        picks = [a for a in engine.legal_actions(s, other) if a.verb == "alt"]
        s, _ = engine.apply(s, other, rng.choice(picks))
    s.rng = rng.getrandbits(64)
    return s
