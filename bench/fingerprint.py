"""Down in Flames behaviour fingerprint: one hash of everything random games show.

    python bench/fingerprint.py [--games N] [--kinds duel,team,mission]

Plays ``N`` seeded random 1-v-1 duels, ``N/4`` 4-v-4 team dogfights (each has about
five times a duel's steps) and ``N`` Zero! campaign missions (light bombers,
formations, escorts, a target) with the engine's random players. At every step it
hashes what the engine says: the state (its repr names every field), the events
(kind, seat, data, English and French text), what is pending, the spectators' view
and each deciding seat's (every seat's every other step), every seat's legal actions,
each pending seat's default action, the refusals (English and French) of a few probe
actions (all of them for a deciding seat, one for the others) and the outcome. Every
seventh step it hashes the state as ``dump_state`` writes it, and the game goes on
from it loaded again (a loaded state owns all its parts, a cloned one shares some);
the end state is compared with a replay of the log. ``apply`` is asked both right
after ``legal_actions`` listed the move (its fast path) and with another seat's list
in between (its full check). Prints one SHA-256 per kind and one of them all.

An engine speed change must change none of it: run this on ``main`` and on the
branch and compare the hashes (CONTRIBUTING.md). The games are the same on every run
and machine; the default 200 take about two minutes on one core.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.snapshots import resume
from engine.dif.actions import Action
from engine.dif.ai import RandomPlayer
from engine.dif.setup import DifSetup
from engine.dif.state import GameState
from engine.dif.system import DifSystem, system
from strings import tr
from tests.engine.conftest import random_setup
from tests.engine.dif.test_mission_properties import random_mission

PROBES = [
    Action.from_text(t)
    for t in (
        "pass",
        "done",
        "stay",
        "dive",
        "skip",
        "alt VH",
        "discard",
        "play MAN X1L",
        "play HAL A1W",
        "respond MAN",
        "climb FUT",
        "play IMS-1B2D X1L",
        "follow MAN",
        "next A1",
        "wm X1L",
    )
]
"""Actions asked about for every seat at every step: most are refused, each with its
reason (a wrong verb, a card not held, a target out of reach...)."""

LOAD_EVERY = 7
"""Every so many steps the game goes on from its state dumped and loaded again (a
loaded state owns all its parts; a cloned one shares some, copied on write)."""

MAX_STEPS = 3000

TEAM_SHARE = 4
"""Team games played: ``--games`` divided by this (a 4-v-4 game has five times a
duel's steps, eight seats to look at in each)."""


def _json(value: Any) -> str:
    return json.dumps(value, default=repr, ensure_ascii=False)


def duel(rng: random.Random, dif: DifSystem) -> DifSetup:
    """Any two fighters of a random ruleset and year, wingmen and pilots at random
    (the engine tests' generator, ``tests/engine/conftest.py``)."""
    return random_setup(dif.engine, rng)


def team(rng: random.Random, dif: DifSystem) -> DifSetup:
    """Four elements a side, mixed types, within the victory table's 15 aircraft."""
    return random_setup(dif.engine, rng, (4, 4))


def mission(rng: random.Random, dif: DifSystem) -> DifSetup:
    """A Zero! campaign mission: light bombers loaded, formations, a target, Arrival
    and Return Home, Clouds, the Angle of Attack, dogfight-kind ones (the mission
    tests' generator, ``tests/engine/dif/test_mission_properties.py``)."""
    return random_mission(dif.engine, rng)


KINDS: dict[str, Callable[[random.Random, DifSystem], DifSetup]] = {
    "duel": duel,
    "team": team,
    "mission": mission,
}


class Fingerprint:
    """A running SHA-256 of labelled parts."""

    def __init__(self) -> None:
        self.h = hashlib.sha256()

    def add(self, label: str, text: str) -> None:
        self.h.update(label.encode())
        self.h.update(b"\x00")
        self.h.update(text.encode())
        self.h.update(b"\x01")


def _seats(state: GameState) -> list[str]:
    """Every seat that may decide: the elements and a mission's formations (§20.5)."""
    return [*state.elements, *sorted((state.mission or {}).get("formations", {}))]


def _said(value: object) -> str:
    return f"{value}\x02{tr(value, 'fr')}"


def observe(dif: DifSystem, state: GameState, fp: Fingerprint, *, every_view: bool) -> None:
    """Hash everything the engine tells of ``state``: the state itself (its repr names
    every field), what is pending, the views (the spectators' and each deciding
    seat's; every seat's if ``every_view``), the legal actions, the default actions,
    the refusals of the probes (every probe for a seat asked to decide, the first for
    any other) and the outcome."""
    engine = dif.engine
    fp.add("state", repr(state))
    pending = dif.pending(state)
    fp.add("pending", repr(pending))
    deciding = {p.seat for p in pending}
    fp.add("view:-", dif.view(state, None).model_dump_json())
    for seat in _seats(state):
        if seat in state.elements and (every_view or seat in deciding):
            fp.add(f"view:{seat}", dif.view(state, seat).model_dump_json())
        fp.add(f"legal:{seat}", " / ".join(map(str, dif.legal_actions(state, seat))))
        for probe in PROBES if seat in deciding else PROBES[:1]:
            fp.add(f"probe:{seat}:{probe}", _said(engine.refusal(state, seat, probe)))
    for p in pending:
        fp.add(f"default:{p.seat}", str(dif.default_action(state, p.seat)))
    fp.add("outcome", repr(dif.outcome(state)))


def play(dif: DifSystem, kind: str, seed: int, fp: Fingerprint) -> int:
    """One seeded random game of ``kind``, hashed at every step; its number of steps."""
    setup = KINDS[kind](random.Random(seed), dif)
    fp.add("setup", setup.model_dump_json())
    state, events = dif.new_game(setup, seed)
    seats = _seats(state)
    players = {seat: RandomPlayer(seed * 31 + i) for i, seat in enumerate(seats)}
    log: list[tuple[str, str]] = []
    for step in range(MAX_STEPS):
        for ev in events:
            fp.add("event", f"{ev.kind}\x02{ev.seat}\x02{_json(ev.data)}\x02{_said(ev.text)}")
        observe(dif, state, fp, every_view=step % 2 == 0 or state.step == "over")
        if state.step == "over":
            break
        seat = dif.pending(state)[0].seat
        action = players[seat].choose(dif.engine, state, seat)
        if step % 2:  # another seat's list in between: apply checks the move itself
            other = next((s for s in seats if s != seat), None)
            if other is not None:
                dif.legal_actions(state, other)
        state, events = dif.apply(state, seat, action)
        log.append((seat, str(action)))
        fp.add("action", f"{seat} {action}")
        if step % LOAD_EVERY == LOAD_EVERY - 1:
            dumped = _json(dif.dump_state(state))
            state = resume(dif, json.loads(dumped), [])
            fp.add("dumped", dumped)
            fp.add("loaded", _json(dif.dump_state(state)))
    else:
        raise AssertionError(f"{kind} {seed}: no end after {MAX_STEPS} steps")
    replayed = dif.replay(setup, seed, log)
    if _json(dif.dump_state(replayed)) != _json(dif.dump_state(state)):
        raise AssertionError(f"{kind} {seed}: the replay of the log ends elsewhere")
    return len(log)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games of each kind")
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds")
    args = parser.parse_args()
    dif = system()
    total = hashlib.sha256()
    for kind in args.kinds.split(","):
        fp = Fingerprint()
        start = time.perf_counter()
        games = max(args.games // TEAM_SHARE, 1) if kind == "team" else args.games
        steps = sum(play(dif, kind, seed, fp) for seed in range(games))
        digest = fp.h.hexdigest()
        total.update(f"{kind}:{digest}\n".encode())
        took = time.perf_counter() - start
        print(f"{kind:8} {digest}  ({games} games, {steps} steps, {took:.1f} s)")
    print(f"{'total':8} {total.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
