"""Engine benchmark: random full 1-v-1 dogfights (not part of the test suite).

    python bench/engine.py [--games N]

Prints full random dogfights per second, the median time of one full game and the
median time of one ``apply`` call, with the goals of the foundation issue beside
them (a full random 1-v-1 dogfight under 20 ms median on one core).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.dif.ai import RandomPlayer
from engine.dif.game import default_engine
from engine.dif.setup import DifSetup

MATCHUPS = [
    ("zero", "buffalo-i", "ki-43", 1942),
    ("zero", "f4f", "a6m2", 1942),
    ("rotl", "spitfire-i", "bf-109e", 1940),
    ("rotl", "hurricane-iib", "bf-110c", 1941),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    engine = default_engine()
    game_times: list[float] = []
    apply_times: list[float] = []
    actions = 0
    start = time.perf_counter()
    for seed in range(args.games):
        ruleset, allied, axis, year = MATCHUPS[seed % len(MATCHUPS)]
        setup = DifSetup.model_validate(
            {
                "ruleset": ruleset,
                "year": year,
                "elements": [
                    {"seat": "A1", "side": "allied", "aircraft": allied},
                    {"seat": "X1", "side": "axis", "aircraft": axis},
                ],
            }
        )
        player = RandomPlayer(seed)
        t0 = time.perf_counter()
        state, _ = engine.new_game(setup, seed)
        while state.step != "over":
            seat = engine.pending(state)[0].seat
            action = player.choose(engine, state, seat)
            a0 = time.perf_counter()
            state, _ = engine.apply(state, seat, action)
            apply_times.append(time.perf_counter() - a0)
            actions += 1
        game_times.append(time.perf_counter() - t0)
    total = time.perf_counter() - start
    median_game = statistics.median(game_times) * 1000
    print(
        f"games:                 {args.games} ({actions} actions, {actions / args.games:.0f} per game)"
    )
    print(f"full dogfights/second: {args.games / total:.1f}")
    print(
        f"median full game:      {median_game:.2f} ms   (goal < 20 ms: {'met' if median_game < 20 else 'NOT met'}; "
        f"ratio {median_game / 20:.2f})"
    )
    print(f"median apply():        {statistics.median(apply_times) * 1e6:.0f} us")
    print("(a full game includes choosing each move: legal_actions plus the random pick)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
