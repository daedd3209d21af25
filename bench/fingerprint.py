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
import functools
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
from engine.dif.campaign_data import load_scoresheets, load_targets
from engine.dif.components import Ruleset, Side
from engine.dif.setup import MAX_AIRCRAFT, DifSetup
from engine.dif.state import GameState
from engine.dif.system import DifSystem, system
from strings import tr

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


def duel(engine_rng: random.Random, dif: DifSystem) -> DifSetup:
    """Any two fighters of a random ruleset and year, wingmen and pilots at random."""
    return _dogfight(engine_rng, dif, 1)


def team(engine_rng: random.Random, dif: DifSystem) -> DifSetup:
    """Four elements a side, mixed types, within the victory table's 15 aircraft."""
    return _dogfight(engine_rng, dif, 4)


def _dogfight(rng: random.Random, dif: DifSystem, per_side: int) -> DifSetup:
    engine = dif.engine
    year = rng.choice([1940, 1942, 1944, 1945])
    ruleset = rng.choice([Ruleset.ZERO, Ruleset.ROTL])
    skills = ["A", "BU", "CV", "D", "H", "P"]
    elements: list[dict[str, Any]] = []
    for side, letter in ((Side.ALLIED, "A"), (Side.AXIS, "X")):
        pool = sorted(
            a.id
            for a in engine.aircraft.values()
            if engine.aircraft_refusal(ruleset, year, a.id, side) is None
        )
        for i in range(1, per_side + 1):
            ac = engine.aircraft[rng.choice(pool)]
            pilot = rng.sample(skills, rng.choice([0, 0, 1, 2]))
            if ac.leader_card.undamaged.gunner and rng.random() < 0.3:
                pilot.append("G")
            elements.append(
                {
                    "seat": f"{letter}{i}",
                    "side": side.value,
                    "aircraft": ac.id,
                    "wingman": ac.wingman is not None and rng.random() > 0.1,
                    "pilot": pilot,
                }
            )
    flying = sum(2 if e["wingman"] else 1 for e in elements)
    for e in elements[::-1]:
        if flying > MAX_AIRCRAFT and e["wingman"]:
            e["wingman"] = False
            flying -= 1
    data: dict[str, Any] = {
        "ruleset": ruleset.value,
        "year": year,
        "elements": elements,
        "to_the_death": rng.random() < 0.1,
        "vp_bonus": rng.random() < 0.3,
    }
    if rng.random() < 0.5:  # one shared starting altitude: more combat
        alt = rng.choice(["VL", "L", "M", "H"])
        data["altitudes"] = {e["seat"]: alt for e in elements}
    return DifSetup.model_validate(data)


_FIGHTERS = {Side.AXIS: ["ki-43", "a6m2"], Side.ALLIED: ["buffalo-i", "hurricane-iib", "f4f"]}
_BOMBERS = {Side.AXIS: ["ki-30", "d3a1", "b5n2"], Side.ALLIED: ["sbd", "tbd", "vildebeest"]}
_FORMATIONS = {Side.AXIS: ["ki-21", "g4m", "h6k"], Side.ALLIED: ["b-17e", "b-26", "hudson"]}


@functools.cache
def _targets() -> dict[str, Any]:
    return dict(load_targets())


@functools.cache
def _awards() -> dict[str, Any]:
    return load_scoresheets().land.model_dump(mode="json")


def mission(rng: random.Random, dif: DifSystem) -> DifSetup:
    """A Zero! campaign mission: one to three elements a side, the attacker's light
    bombers loaded, up to two formations of its bombers, a random target, Arrival and
    Return Home turns, sometimes Clouds or the Angle of Attack option; one in six a
    dogfight-kind mission (the shape of tests/engine/dif/test_mission_properties.py)."""
    engine = dif.engine
    targets = _targets()
    attacker = rng.choice(list(Side))
    target = targets[rng.choice(sorted(targets))]
    elements: list[dict[str, Any]] = []
    bombs: dict[str, str] = {}
    for side in Side:
        letter = "A" if side is Side.ALLIED else "X"
        for i in range(1, rng.randint(1, 3) + 1):
            pool = _FIGHTERS[side] + (_BOMBERS[side] if side is attacker else [])
            ac = engine.aircraft[rng.choice(pool)]
            seat = f"{letter}{i}"
            elements.append({"seat": seat, "side": side.value, "aircraft": ac.id})
            if ac.bombing is not None and side is attacker:
                modes = sorted(m.value for m in ac.bombing.modes)
                modes = [m for m in modes if m != "saturation" and (target.naval or m != "torpedo")]
                if modes:
                    bombs[seat] = rng.choice(modes)
    plan: dict[str, Any] = {
        "attacker": attacker.value,
        "arrival": rng.randint(0, 2),
        "home": rng.randint(0, 2),
        "awards": _awards() if rng.random() < 0.5 else None,
    }
    dogfight = rng.random() < 1 / 6
    if dogfight:
        plan.update(kind="dogfight", turns=rng.randint(2, 4), arrival=0, home=0)
    else:
        letter = "A" if attacker is Side.ALLIED else "X"
        formations = []
        for i in range(rng.randint(0, 2)):
            ac = engine.aircraft[rng.choice(_FORMATIONS[attacker])]
            assert ac.bombing is not None and ac.formation_size is not None
            modes = [m.value for m in ac.bombing.modes if target.naval or m.value != "torpedo"]
            mode = rng.choice([*sorted(modes), None])
            formations.append(
                {
                    "seat": f"{letter}{7 + i}",
                    "side": attacker.value,
                    "aircraft": [ac.id] * rng.randint(1, ac.formation_size),
                    "altitude": "VL" if mode == "torpedo" else rng.choice(["L", "M", "H"]),
                    "mode": mode,
                }
            )
        plan["formations"] = formations
        if formations and rng.random() < 1 / 4:
            elements = [e for e in elements if e["side"] != attacker.value]
        if rng.random() < 1 / 6:
            elements = [e for e in elements if e["side"] == attacker.value]
        seats = {e["seat"] for e in elements}
        plan.update(
            target=target.model_dump(mode="json", exclude={"id", "sheet", "printed"}),
            bombs={seat: m for seat, m in bombs.items() if seat in seats},
        )
        if rng.random() < 1 / 3:
            plan["clouds"] = {
                "draw": rng.randint(1, 3),
                "result_shift": rng.randint(0, 2),
                "aa": rng.randint(-2, 1),
                "torpedo": rng.random() < 0.5,
            }
    plan["angle_of_attack"] = not dogfight and rng.random() < 0.5
    altitudes = {e["seat"]: rng.choice(["VL", "L", "M"]) for e in elements}
    return DifSetup.model_validate(
        {
            "ruleset": "zero",
            "year": 1942,
            "elements": elements,
            "mixed": True,
            "altitudes": altitudes if rng.random() < 0.7 else None,
            "mission": plan,
        }
    )


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
