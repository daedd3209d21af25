"""Eagles in the Sky hidden information, re-dealt for a computer player's search.

:func:`sample_state` is the system's information-set sampler (the contract's
:class:`engine.core.contract.Sampling`): a full state that one seat cannot tell from
the real one. What a seat cannot see (:mod:`engine.eagles.view`): the other side's
hand (one hand per side, §7), the other side's secret discards of the Card Draw Phase
(§7.2), the deck's order, and the game's seeded generator (every future draw, the
cup's Scouts).
"""

from __future__ import annotations

import random

from engine.eagles.game import EaglesEngine
from engine.eagles.state import GameState

__all__ = ["sample_state"]


def sample_state(
    engine: EaglesEngine, state: GameState, seat: str, rng: random.Random
) -> GameState:
    """``state`` as ``seat`` sees it: the other sides' hands re-dealt at random from the
    pool it cannot see (each keeping its size), their chosen discards picked again from
    the new hands, and a new generator. The result depends on ``state`` only through
    what ``seat`` sees."""
    s = state.clone()
    mine = engine.side_of(s, seat)
    others = sorted(sd for sd in s.hands if sd != mine)
    pool = sorted(s.deck + [c for sd in others for c in s.hands[sd]])
    rng.shuffle(pool)
    for sd in others:
        s.hands[sd], pool = pool[: len(s.hands[sd])], pool[len(s.hands[sd]) :]
        picked = s.discard_picks.get(sd)
        if picked is not None:
            s.discard_picks[sd] = rng.sample(s.hands[sd], len(picked))
    s.deck = pool
    s.rng = rng.getrandbits(64)
    return s
