"""The seeded generator: its shuffle is Fisher-Yates over its own draws."""

from __future__ import annotations

from engine.core.rng import Rng


def test_a_shuffle_is_fisher_yates_over_below() -> None:
    # Rng.shuffle makes its draws itself (issue 16): the same places, the same state
    # after, as drawing each place with below(), from the last.
    for seed in (0, 1, 7, 2**63 + 5, 2**64 - 1):
        for n in (0, 1, 2, 7, 60, 130):
            shuffled, drawn = Rng(seed), Rng(seed)
            items = list(range(n))
            shuffled.shuffle(items)
            expected = list(range(n))
            for i in range(n - 1, 0, -1):
                j = drawn.below(i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            assert items == expected
            assert shuffled.state == drawn.state
