"""Down in Flames hidden information, re-dealt for a computer player's search.

:func:`sample_state` is the system's information-set sampler (the contract's
:class:`engine.core.contract.Sampling`): a full state that one seat cannot tell from
the real one. What a seat cannot see (:mod:`engine.dif.view`): the other elements'
hands and wingmen's mini-hands (10.11, 10.12), the deck's order, the other seats'
secret starting altitudes before the reveal (4.5), and the game's seeded generator
(every future draw).
"""

from __future__ import annotations

import random

from engine.dif.game import DifEngine
from engine.dif.state import GameState

__all__ = ["sample_state"]


def sample_state(engine: DifEngine, state: GameState, seat: str, rng: random.Random) -> GameState:
    """``state`` as ``seat`` sees it, every hidden card re-dealt at random from the pool
    it cannot see (the deck and the other seats' hands and mini-hands, each keeping its
    size), every other secret altitude picked again among the legal ones, and a new
    generator. The result depends on ``state`` only through what ``seat`` sees."""
    s = state.clone()
    others = [s.own_element(k) for k in sorted(s.elements) if k != seat]
    pool = sorted(s.deck + [c for e in others for c in e.hand + e.minihand + e.defence])
    rng.shuffle(pool)
    for e in others:
        e.hand, pool = pool[: len(e.hand)], pool[len(e.hand) :]
        e.minihand, pool = pool[: len(e.minihand)], pool[len(e.minihand) :]
        e.defence, pool = pool[: len(e.defence)], pool[len(e.defence) :]
    s.deck = pool
    for other in [e.seat for e in others if s.step == "setup" and e.pick is not None]:
        s.own_element(other).pick = None
        picks = [a for a in engine.legal_actions(s, other) if a.verb == "alt"]
        s, _ = engine.apply(s, other, rng.choice(picks))
    s.rng = rng.getrandbits(64)
    return s
