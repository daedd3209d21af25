"""Engine benchmark: random full dogfights, 1-v-1 and 4-v-4 (not part of the test suite).

    python bench/engine.py [--games N] [--system dif|lockedon|eagles|all]

Prints, for each format, full random dogfights per second, the median time of one
full game and the median and mean time of one ``apply`` call, with the goals beside
them: a full random 1-v-1 dogfight under 2 ms median and a 4-v-4 dogfight of mixed
aircraft (jets, gunners, heavy cannons, pilots) under 15 ms median (issue 16; the
foundation and team-dogfight issues asked for 20 ms and 100 ms), on one core.

Every figure is CPU time of the benchmark's thread (``time.thread_time``), not wall
time: on a shared, loaded machine the wall clock counts the other processes' turns,
the CPU time only this one's work.

A speed change must change nothing else: ``python bench/fingerprint.py`` hashes what
the same random Down in Flames games show at every step, to compare on ``main`` and
on the branch (CONTRIBUTING.md).

Locked-On: a random 1-v-1 dogfight under 20 ms median and a 2-v-2 under 60 ms, with
the uniform random player (``engine.lockedon.ai.RandomPlayer``), six rounds, secret
altitudes picked at random.

Eagles in the Sky: a random six-against-six engagement (a Patrol, six Scouts a side
drawn from the cup, months of 1917-1918) under 100 ms median (the Eagles issue), and
Scenario 4 (six Camels against six Fokker DrI with their leaders and Aces) beside it,
with the uniform random player (``engine.eagles.ai.RandomPlayer``), eight turns.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import registry
from engine.dif.ai import RandomPlayer
from engine.dif.game import DifEngine, default_engine
from engine.dif.setup import DifSetup
from engine.eagles.ai import RandomPlayer as EaglesPlayer
from engine.eagles.game import EaglesEngine
from engine.eagles.game import default_engine as eagles_engine
from engine.eagles.historical import scenario_setup
from engine.eagles.setup import EaglesSetup, SideSetup
from engine.lockedon.ai import RandomPlayer as LockedOnPlayer
from engine.lockedon.game import LockedOnEngine
from engine.lockedon.game import default_engine as lockedon_engine
from engine.lockedon.setup import LockedOnSetup

DUELS = [
    ("zero", "buffalo-i", "ki-43", 1942),
    ("zero", "f4f", "a6m2", 1942),
    ("rotl", "spitfire-i", "bf-109e", 1940),
    ("rotl", "hurricane-iib", "bf-110c", 1941),
]

# Four elements a side, 15 aircraft or fewer (RotL's victory table ends at 15):
# mixed types with jets, a rocket, gunners, heavy cannons, small targets and pilots.
TEAMS: list[tuple[str, int, list[tuple[str, bool, str]], list[tuple[str, bool, str]]]] = [
    (
        "rotl",
        1945,
        [
            ("p-51d", True, "A"),
            ("p-47d", True, ""),
            ("spitfire-xiv", True, "BU"),
            ("yak-3", False, ""),
        ],
        [
            ("me-262a", True, ""),
            ("fw-190d", True, "D"),
            ("bf-109k", True, ""),
            ("me-410", False, "G"),
        ],
    ),
    (
        "rotl",
        1944,
        [
            ("p-38f", True, ""),
            ("spitfire-ix", True, "CV"),
            ("p-47c", True, ""),
            ("i-16", False, ""),
        ],
        [
            ("bf-109g", True, "A,H"),
            ("fw-190a", True, ""),
            ("bf-110c", True, ""),
            ("me-163", False, ""),
        ],
    ),
    (
        "zero",
        1942,
        [
            ("f4f", True, ""),
            ("p-40e", True, "P"),
            ("buffalo-i", True, ""),
            ("hurricane-iib", False, ""),
        ],
        [("a6m2", True, "A"), ("ki-43", True, ""), ("a6m2", True, ""), ("ki-27", False, "")],
    ),
]


# Locked-On: duels and two-a-side teams of one era each (aircraft ids of data/lockedon).
LO_DUELS = [
    ("f-15a", "mig-29"),
    ("f-4e", "mig-21mf"),
    ("sea-harrier-frs1", "dagger-a"),
    ("f-14a", "mig-23mf"),
    ("kfir-c2", "mig-21bis"),
]
LO_TEAMS = [
    (("f-15a", "f-16a"), ("mig-29", "su-27")),
    (("f-4e", "f-5e"), ("mig-21bis", "mig-23mf")),
    (("kfir-c2", "mirage-iiicj"), ("mig-21mf", "mig-17f")),
    (("sea-harrier-frs1", "harrier-gr3"), ("dagger-a", "mirage-iiiea")),
]


@dataclass
class Figures:
    games: int = 0
    actions: int = 0
    total: float = 0.0
    game_times: list[float] | None = None
    apply_times: list[float] | None = None


def duel(seed: int) -> DifSetup:
    ruleset, allied, axis, year = DUELS[seed % len(DUELS)]
    return DifSetup.model_validate(
        {
            "ruleset": ruleset,
            "year": year,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": allied},
                {"seat": "X1", "side": "axis", "aircraft": axis},
            ],
        }
    )


def team(seed: int) -> DifSetup:
    ruleset, year, allied, axis = TEAMS[seed % len(TEAMS)]
    elements: list[dict[str, Any]] = []
    for letter, side, rows in (("A", "allied", allied), ("X", "axis", axis)):
        for i, (ac, wingman, pilot) in enumerate(rows, start=1):
            elements.append(
                {
                    "seat": f"{letter}{i}",
                    "side": side,
                    "aircraft": ac,
                    "wingman": wingman,
                    "pilot": pilot,
                }
            )
    return DifSetup.model_validate({"ruleset": ruleset, "year": year, "elements": elements})


def run_games(engine: Any, games: int, make: Any, player: Any, over: Any) -> Figures:
    """``games`` random games: ``make(seed)`` sets each up, ``player(seed)`` chooses every
    move, ``over(engine, state)`` says when one is done.

    A game is timed whole; each ``apply`` is timed afterwards, replaying the games'
    moves, so that reading the clock around every action (a system call each) does
    not weigh on the games' times."""
    f = Figures(game_times=[], apply_times=[])
    assert f.game_times is not None and f.apply_times is not None
    played: list[tuple[Any, int, list[tuple[str, Any]]]] = []
    start = time.thread_time()
    for seed in range(games):
        setup = make(seed)
        chooser = player(seed)
        moves: list[tuple[str, Any]] = []
        t0 = time.thread_time()
        state, _ = engine.new_game(setup, seed)
        while not over(engine, state):
            seat = engine.pending(state)[0].seat
            action = chooser.choose(engine, state, seat)
            state, _ = engine.apply(state, seat, action)
            moves.append((seat, action))
        f.game_times.append(time.thread_time() - t0)
        played.append((setup, seed, moves))
    f.total = time.thread_time() - start
    f.games = games
    for setup, seed, moves in played:
        state, _ = engine.new_game(setup, seed)
        for seat, action in moves:
            a0 = time.thread_time()
            state, _ = engine.apply(state, seat, action)
            f.apply_times.append(time.thread_time() - a0)
        f.actions += len(moves)
    return f


def _stepped_over(engine: Any, state: Any) -> bool:
    return bool(state.step == "over")


def run(engine: DifEngine, games: int, make: Any) -> Figures:
    return run_games(engine, games, make, RandomPlayer, _stepped_over)


def lo_duel(seed: int) -> LockedOnSetup:
    a, b = LO_DUELS[seed % len(LO_DUELS)]
    return LockedOnSetup.model_validate(
        {
            "seats": [
                {"seat": "A1", "side": "A", "aircraft": a},
                {"seat": "B1", "side": "B", "aircraft": b},
            ]
        }
    )


def lo_team(seed: int) -> LockedOnSetup:
    a, b = LO_TEAMS[seed % len(LO_TEAMS)]
    seats = [{"seat": f"A{i}", "side": "A", "aircraft": x} for i, x in enumerate(a, 1)]
    seats += [{"seat": f"B{i}", "side": "B", "aircraft": x} for i, x in enumerate(b, 1)]
    return LockedOnSetup.model_validate({"seats": seats})


def run_lockedon(engine: LockedOnEngine, games: int, make: Any) -> Figures:
    return run_games(engine, games, make, LockedOnPlayer, _stepped_over)


def eagles_patrol(seed: int) -> EaglesSetup:
    month = f"{1917 + seed % 2}-{1 + seed % 11:02d}"
    return EaglesSetup(
        engagement="patrol",
        month=month,
        allied=SideSetup(seats=("A1",), cup=6),
        german=SideSetup(seats=("G1",), cup=6),
    )


def eagles_scenario_4(seed: int) -> EaglesSetup:
    return scenario_setup(eagles_engine().components, 4, {"allied": ("A1",), "german": ("G1",)})


def run_eagles(engine: EaglesEngine, games: int, make: Any) -> Figures:
    return run_games(engine, games, make, EaglesPlayer, lambda e, state: e.is_over(state))


def report(title: str, f: Figures, goal_ms: float) -> None:
    assert f.game_times and f.apply_times
    median = statistics.median(f.game_times) * 1000
    print(f"{title}")
    print(
        f"  games:                 {f.games} ({f.actions} actions, {f.actions / f.games:.0f} per game)"
    )
    print(f"  full dogfights/second: {f.games / f.total:.1f}")
    verdict = "met" if median < goal_ms else "NOT met"
    print(
        f"  median full game:      {median:.2f} ms   (goal < {goal_ms:.0f} ms: {verdict}; "
        f"ratio {median / goal_ms:.2f})"
    )
    print(
        f"  apply() per action:    {statistics.median(f.apply_times) * 1e6:.0f} us median, "
        f"{statistics.fmean(f.apply_times) * 1e6:.0f} us mean"
    )


def bench_dif(games: int) -> None:
    engine = default_engine()
    report("1-v-1 duels", run(engine, games, duel), 2)
    report("4-v-4 team dogfights", run(engine, max(games // 3, 1), team), 15)


def bench_lockedon(games: int) -> None:
    lo = lockedon_engine()
    report("Locked-On 1-v-1 duels", run_lockedon(lo, games, lo_duel), 20)
    report("Locked-On 2-v-2 team dogfights", run_lockedon(lo, games, lo_team), 60)


def bench_eagles(games: int) -> None:
    e = eagles_engine()
    n = max(games // 3, 1)
    report("Eagles in the Sky 6-v-6 Patrols", run_eagles(e, n, eagles_patrol), 100)
    report("Eagles in the Sky Scenario 4 (6-v-6, Aces)", run_eagles(e, n, eagles_scenario_4), 100)


BENCHES = {"dif": bench_dif, "lockedon": bench_lockedon, "eagles": bench_eagles}
"""Each registered system's games and goals (a new system adds its own here)."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per format")
    parser.add_argument("--system", choices=(*registry.system_ids(), "all"), default="all")
    args = parser.parse_args()
    for system_id in registry.system_ids():
        if args.system not in (system_id, "all"):
            continue
        bench = BENCHES.get(system_id)
        if bench is None:
            print(f"{system_id}: registered, but no benchmark yet: add one to BENCHES")
            continue
        bench(args.games)
    print("(a full game includes choosing each move: legal_actions plus the random pick;")
    print(" every time is CPU time of this thread, time.thread_time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
