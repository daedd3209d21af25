"""Every Eagles in the Sky historical scenario played to its end through the bot
(not part of the test suite: the long ones take a while).

    python bench/eagles_scenarios.py [--seeds N]

For each of the eight scenarios of §17.0 and each seed, ``python -m bot demo --system
eagles --scenario N`` runs: the lobby, the joins (Scenario 7's Germans with the cup),
the start, and computer players clicking the bot's real buttons on the in-memory
Discord to the end. Prints each game's time, its number of thread messages and its
result; a failure stops it with the error.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.__main__ import main as bot_main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1, help="seeds per scenario (default 1)")
    args = parser.parse_args()
    total = 0.0
    for number in range(1, 9):
        for seed in range(1, args.seeds + 1):
            out = io.StringIO()
            start = time.perf_counter()
            with contextlib.redirect_stdout(out):
                code = bot_main(
                    ["demo", "--system", "eagles", "--scenario", str(number), "--seed", str(seed)]
                )
            took = time.perf_counter() - start
            total += took
            lines = out.getvalue().splitlines()
            result = lines[-1] if lines else "(no output)"
            print(f"scenario {number} seed {seed}: {took:6.1f} s, {len(lines):4d} lines, {result}")
            if code != 0:
                return code
    print(f"all: {total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
