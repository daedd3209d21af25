"""Computer players' benchmark: seeded matches between levels (not part of the suite).

    python bench/ai.py [--games N] [--systems dif,lockedon,eagles]
                       [--pairings heuristic-random,search-heuristic]
                       [--seconds S] [--iterations N] [--depth N] [--width N]
                       [--jobs N]

For each system and each pairing ``one-two`` of :data:`engine.ai.LEVELS`, plays N
seeded games (default 500) of one-against-one dogfights (the setups of
``bench/engine.py``, rotating), ``one`` on the first side in even games and on the
second in odd ones (the same setup and seed both ways round). Prints ``one``'s win rate
among the decided games with its 95% Wilson interval, the draws, and each level's
decision time (median, p99, max; a decision is ``choose(state, seat)``: the view, the
legal actions and the choice). Goals (issue 13), in every system: heuristic beats random
in at least 90% of decided games, search beats heuristic in at least 60%; a decision
under 2 ms for the heuristic, under 200 ms median and 1 s worst for the search at its
default budget, on one core.

Decision times are the deciding thread's CPU time (``time.thread_time``): what one core
spends, which other work on the machine does not inflate. ``--seconds 0`` lifts the
search's time limit, so its strength follows from its iterations alone, whatever the
load (its default limit only cuts a decision the iterations make too long).
``--jobs N`` shares the games among N processes; every game follows from its number,
so the results are the same.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engine import duel, eagles_patrol, lo_duel
from engine import ai
from engine.core import registry
from engine.core.errors import RuleViolation

SETUPS: dict[str, Callable[[int], Any]] = {
    "dif": duel,
    "lockedon": lo_duel,
    "eagles": eagles_patrol,
}
"""Each system's one-against-one game for a seed (a new system adds its own here)."""

GOALS = {("heuristic", "random"): 0.90, ("search", "heuristic"): 0.60}
"""The least share of decided games the first level must win (issue 13)."""

TIME_GOALS = {"heuristic": (2.0, None), "search": (200.0, 1000.0)}
"""Median and worst decision time goals in ms, per level."""

MAX_DECISIONS = 5000
"""A game still running after this many decisions counts as a draw (none should)."""


@dataclass
class Tally:
    wins: int = 0
    losses: int = 0
    draws: int = 0
    refused: int = 0
    """Games stopped because the rules refused one of their own legal actions."""
    times: dict[str, list[float]] = field(default_factory=dict)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def match(
    system_id: str, one: str, two: str, game: int, tally: Tally, budget: dict[str, Any]
) -> None:
    """Game ``game``: ``one`` on the first side when ``game`` is even, else the second."""
    system = registry.get(system_id)
    seed = game // 2
    state, _ = system.new_game(SETUPS[system_id](seed), seed)
    sides = [sd.id for sd in system.sides(state)]
    levels = (one, two) if game % 2 == 0 else (two, one)
    level_of = dict(zip(sides, levels, strict=True))
    side_of = {s: sd.id for sd in system.sides(state) for s in sd.seats}
    players = {
        sd: ai.player(system_id, lv, 1000 * game + i, **(budget if lv == "search" else {}))
        for i, (sd, lv) in enumerate(level_of.items())
    }
    for _ in range(MAX_DECISIONS):
        if system.is_over(state):
            break
        seat = system.pending(state)[0].seat
        side = side_of[seat]
        t0 = time.thread_time()
        action = players[side].choose(state, seat)
        tally.times.setdefault(level_of[side], []).append(time.thread_time() - t0)
        try:
            state, _ = system.apply(state, seat, action)
        except RuleViolation as why:
            print(f"  game {game}: {seat} {action} is legal but refused: {why}")
            tally.refused += 1
            return
    winner = system.outcome(state).winner if system.is_over(state) else None
    if winner is None:
        tally.draws += 1
    elif level_of[winner] == one:
        tally.wins += 1
    else:
        tally.losses += 1


def report(system_id: str, one: str, two: str, t: Tally) -> None:
    decided = t.wins + t.losses
    low, high = wilson(t.wins, decided)
    rate = t.wins / decided if decided else 0.0
    goal = GOALS.get((one, two))
    verdict = (
        ""
        if goal is None
        else f"   goal >= {goal:.0%}: {'met' if low >= goal else 'met on the estimate only' if rate >= goal else 'NOT met'}"
    )
    print(f"{system_id}: {one} against {two}, {t.wins + t.losses + t.draws + t.refused} games")
    print(
        f"  {one} wins {t.wins} of {decided} decided: {rate:.1%} (95% {low:.1%}-{high:.1%}){verdict}"
    )
    print(
        f"  draws: {t.draws}"
        + (f", stopped on a legal action refused: {t.refused}" if t.refused else "")
    )
    for level, times in sorted(t.times.items()):
        ms = sorted(x * 1000 for x in times)
        median, p99, worst = (
            statistics.median(ms),
            ms[min(len(ms) - 1, int(len(ms) * 0.99))],
            ms[-1],
        )
        goals = TIME_GOALS.get(level)
        note = ""
        if goals is not None:
            ok = median < goals[0] and (goals[1] is None or worst < goals[1])
            note = (
                f"   goal median < {goals[0]:.0f} ms"
                + (f", max < {goals[1]:.0f} ms" if goals[1] else "")
                + f": {'met' if ok else 'NOT met'}"
            )
        print(
            f"  {level:9} decisions {len(ms):6}: median {median:7.2f} ms, p99 {p99:7.2f} ms, max {worst:7.1f} ms{note}"
        )


def share(system_id: str, one: str, two: str, games: range, *, budget: dict[str, Any]) -> Tally:
    """The games of ``games``, in one process."""
    tally = Tally()
    for game in games:
        match(system_id, one, two, game, tally, budget)
    return tally


def play(
    system_id: str, one: str, two: str, args: argparse.Namespace, budget: dict[str, Any]
) -> Tally:
    """Every game of a pairing, dealt round-robin to ``args.jobs`` processes (each game
    follows from its number alone, so the split changes no result; the decision times
    are each process's own)."""
    shares = [range(j, args.games, args.jobs) for j in range(args.jobs)]
    if args.jobs == 1:
        return share(system_id, one, two, shares[0], budget=budget)
    total = Tally()
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(partial(share, system_id, one, two, budget=budget), shares):
            total.wins += part.wins
            total.losses += part.losses
            total.draws += part.draws
            total.refused += part.refused
            for level, times in part.times.items():
                total.times.setdefault(level, []).extend(times)
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per pairing")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games")
    parser.add_argument("--systems", default=",".join(SETUPS), help="comma-separated ids")
    parser.add_argument(
        "--pairings", default="heuristic-random,search-heuristic", help="one-two,..."
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="search time budget (default: its own; 0: none, iterations only)",
    )
    parser.add_argument(
        "--iterations", type=int, default=None, help="search iterations (default: its own)"
    )
    parser.add_argument(
        "--depth", type=int, default=None, help="search playout depth (default: its own)"
    )
    parser.add_argument(
        "--width", type=int, default=None, help="search candidates (default: its own)"
    )
    args = parser.parse_args()
    budget = {
        k: v
        for k, v in (
            ("seconds", args.seconds or None),
            ("iterations", args.iterations),
            ("depth", args.depth),
            ("width", args.width),
        )
        if v is not None or (k == "seconds" and args.seconds == 0)
    }
    for system_id in args.systems.split(","):
        if system_id not in SETUPS:
            print(f"{system_id}: no benchmark setup: add one to SETUPS")
            continue
        for pairing in args.pairings.split(","):
            one, two = pairing.split("-")
            if one == two or one not in ai.LEVELS or two not in ai.LEVELS:
                print(f"{pairing}: two different levels of {', '.join(ai.LEVELS)}")
                return 2
            report(system_id, one, two, play(system_id, one, two, args, budget))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
