"""The seeded random number generator every game keeps in its state.

A game's randomness (shuffles, the coin flip for initiative) comes only from this
generator, and its whole state is one integer stored in the game state, so a game
replays exactly from ``(setup, seed, action log)`` and the state stays plain JSON.

The generator is SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom
number generators", OOPSLA 2014): tiny, fast in pure Python, and statistically far
better than a card game needs. It is not meant to be unpredictable to someone who
knows the seed; the bot keeps the seed secret until the game ends.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["Rng"]

_SPAN = 1 << 64
_MASK = _SPAN - 1
_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


class Rng:
    """SplitMix64 over a single 64-bit integer state."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + _GAMMA) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _SPAN - (_SPAN % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place: :meth:`below` for each place, from the last,
        its draws made here (a game shuffles a deck of some sixty cards as it starts
        and at each reshuffle: two method calls a card cost more than the draw)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - (_SPAN % n)
            while True:
                state = (state + _GAMMA) & _MASK
                x = _mix(state)
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def coin(self) -> bool:
        return bool(self.next64() >> 63)


def _mix(z: int) -> int:
    """SplitMix64's output of the state ``z``."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)
