"""Run rules conformance vectors: ``python -m engine.conformance PATH...``.

A vector is a YAML file (see ``tests/conformance/README.md``): a setup, a list of
steps (an action in canonical text, or an action that must be refused) and the state
expected after any step. Every worked example in the rulebooks is a vector, and so
is every rules bug ever fixed. Exit status 0 when every vector passes.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.core.errors import EngineError, RuleViolation
from engine.core.events import Event
from engine.dif.actions import Action
from engine.dif.components import Aircraft, Altitude, Position
from engine.dif.game import DifEngine, default_engine
from engine.dif.setup import DifSetup
from engine.dif.state import GameState

__all__ = ["VectorResult", "check", "load_vector", "main", "run_file", "run_vector"]


@dataclass
class VectorResult:
    path: str
    name: str
    failures: list[str] = field(default_factory=list)
    steps: int = 0

    @property
    def ok(self) -> bool:
        return not self.failures


class _Loader(yaml.SafeLoader):
    """YAML with YAML 1.2 booleans: only true/false, so ``{leader: A1, on: X1}`` keeps
    its ``on`` key (YAML 1.1 reads on/off/yes/no as booleans)."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"),
)


def load_vector(path: Path) -> dict[str, Any]:
    """Read one vector file."""
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a vector is a YAML mapping")
    return data


def run_file(path: Path, engine: DifEngine | None = None) -> VectorResult:
    return run_vector(load_vector(path), str(path), engine)


def run_vector(
    data: dict[str, Any], where: str = "<vector>", engine: DifEngine | None = None
) -> VectorResult:
    engine = engine or default_engine()
    result = VectorResult(where, str(data.get("name", where)))
    if data.get("system", "dif") != "dif":
        result.failures.append(f"unknown system {data.get('system')!r}")
        return result
    events: list[Event] = []
    try:
        if data.get("aircraft"):
            # Aircraft a printed example needs that the shipped data lacks, authored in
            # the vector itself with the data schema (like a content pack).
            extra = [Aircraft.model_validate(a) for a in data["aircraft"]]
            engine = DifEngine(engine.decks, {**engine.aircraft, **{a.id: a for a in extra}})
        setup = DifSetup.model_validate(data["setup"])
        state, events = engine.new_game(setup, int(data.get("seed", 0)))
    except (EngineError, ValueError) as exc:
        result.failures.append(f"setup: {exc}")
        return result
    for i, step in enumerate(data.get("steps", []), start=1):
        label = f"step {i} ({step.get('note', step.get('do', step.get('refuse', '')))})"
        if "do" in step or "refuse" in step:
            seat = str(step["seat"])
            text = str(step.get("do", step.get("refuse")))
            try:
                action = Action.from_text(text)
            except EngineError as exc:
                result.failures.append(f"{label}: cannot parse: {exc}")
                return result
            if "refuse" in step:
                try:
                    engine.apply(state, seat, action)
                except RuleViolation as exc:
                    want = str(step.get("because", ""))
                    if want and want.lower() not in str(exc).lower():
                        result.failures.append(
                            f"{label}: refused with {exc!r}, expected to mention {want!r}"
                        )
                else:
                    result.failures.append(
                        f"{label}: {seat} '{text}' was accepted but must be refused"
                    )
            else:
                try:
                    state, events = engine.apply(state, seat, action)
                except EngineError as exc:
                    legal = ", ".join(str(a) for a in engine.legal_actions(state, seat)) or "none"
                    result.failures.append(
                        f"{label}: {seat} '{text}' refused: {exc} (legal: {legal})"
                    )
                    return result
            result.steps += 1
        if "expect" in step:
            result.failures.extend(
                f"{label}: {f}" for f in check(engine, state, step["expect"], events)
            )
    if "expect" in data:
        result.failures.extend(f"end: {f}" for f in check(engine, state, data["expect"], events))
    return result


def _multiset(codes: Iterable[str]) -> list[str]:
    return sorted(Counter(codes).elements())


def check(
    engine: DifEngine,
    state: GameState,
    expect: dict[str, Any],
    events: Iterable[Event] = (),
) -> list[str]:
    """Compare the state with the expectations; returns what differs.

    ``events`` are those of the last action, for the ``events`` expectation (each
    listed text must appear in one of its public narration lines).
    """
    events = list(events)
    out: list[str] = []
    view = engine.view(state, None)

    def differ(what: str, got: object, want: object) -> None:
        if got != want:
            out.append(f"{what}: expected {want!r}, got {got!r}")

    for key, want in expect.items():
        if key == "positions":
            for pair, pos in want.items():
                a, b = pair.split(" on ")
                differ(
                    f"position {pair}",
                    Position(engine.pos(state, a, b)).label,
                    str(pos).capitalize(),
                )
        elif key in ("hits", "damaged", "status"):
            for ref, v in want.items():
                plane = engine._plane(state, ref) if not ref.endswith("-lost") else None
                planes = {p.ref: p for e in state.elements.values() for p in e.planes()}
                plane = planes.get(ref, plane)
                if plane is None:
                    out.append(f"{key} {ref}: no such aircraft")
                    continue
                differ(f"{key} {ref}", getattr(plane, key), v)
        elif key == "altitude":
            for seat, code in want.items():
                alt = state.elements[seat].altitude
                differ(f"altitude {seat}", Altitude(alt).code if alt is not None else None, code)
        elif key == "hand":
            for seat, codes in want.items():
                got = _multiset(engine.code[c] for c in state.elements[seat].hand)
                differ(f"hand {seat}", got, _multiset(codes))
        elif key == "hand_count":
            for seat, n in want.items():
                differ(f"hand size {seat}", len(state.elements[seat].hand), n)
        elif key == "counters":
            for seat, n in want.items():
                differ(f"Full Throttle counters {seat}", state.elements[seat].counters, n)
        elif key == "pilot":
            for ref, skills in want.items():
                pilot_of = engine._plane(state, ref)
                skills_got = sorted(pilot_of.pilot) if pilot_of is not None else None
                differ(f"pilot skills {ref}", skills_got, sorted(skills))
        elif key == "order":
            differ("player order", list(state.order), list(want))
        elif key == "no_events":
            public = [e.text for e in events if e.public]
            for text in want:
                if any(str(text).lower() in line.lower() for line in public):
                    out.append(f"a public event mentions {text!r}: {public!r}")
        elif key == "minihand":
            for seat, codes in want.items():
                e = state.elements[seat]
                differ(
                    f"mini-hand {seat}",
                    _multiset(engine.code[c] for c in e.minihand + e.defence),
                    _multiset(codes),
                )
        elif key == "bursts_left":
            differ("bursts left", view.bursts_left, want)
        elif key == "turn":
            differ("turn", state.turn, want)
        elif key == "active":
            differ("active seat", state.active, want)
        elif key == "step":
            differ("step", state.step, want)
        elif key == "pending":
            differ(
                "pending",
                [f"{p.seat} {p.kind}" for p in engine.pending(state)],
                list(want) if isinstance(want, list) else [want],
            )
        elif key == "vp":
            differ("VP", {k.value: v for k, v in engine.victory_points(state).items()}, want)
        elif key == "winner":
            differ("winner", state.result["winner"] if state.result else None, want)
        elif key == "in_play":
            differ(
                "cards in play", _multiset(engine.code[c] for c in state.in_play), _multiset(want)
            )
        elif key == "discard_count":
            differ("discard pile size", len(state.discard), want)
        elif key == "events":
            public = [e.text for e in events if e.public]
            for text in want:
                if not any(str(text).lower() in line.lower() for line in public):
                    out.append(f"no public event mentions {text!r}: {public!r}")
        elif key == "verdict":
            differ("verdict", state.result["verdict"] if state.result else None, want)
        elif key == "deck_top":
            got = [engine.code[c] for c in reversed(state.deck[-len(want) :])] if want else []
            differ("next cards", got, list(want))
        elif key == "legal":
            seat = want["seat"]
            legal = {str(a) for a in engine.legal_actions(state, seat)}
            for a in want.get("includes", []):
                if a not in legal:
                    out.append(f"legal {seat}: {a!r} should be legal")
            for a in want.get("excludes", []):
                if a in legal:
                    out.append(f"legal {seat}: {a!r} should not be legal")
            if "exactly" in want:
                differ(f"legal {seat}", sorted(legal), sorted(want["exactly"]))
        elif key == "engaged":
            for seat, other in want.items():
                differ(f"engaged {seat}", engine.engaged_with(state, seat), other)
        else:
            out.append(f"unknown expectation {key!r}")
    return out


def _paths(args: Iterable[str]) -> list[Path]:
    out: list[Path] = []
    for a in args:
        p = Path(a)
        out.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.conformance", description=__doc__.splitlines()[0]
    )
    parser.add_argument("paths", nargs="+", help="vector files or directories of them")
    args = parser.parse_args(argv)
    failed = passed = 0
    for path in _paths(args.paths):
        r = run_file(path)
        if r.ok:
            passed += 1
            print(f"ok    {path}  {r.name} ({r.steps} steps)")
        else:
            failed += 1
            print(f"FAIL  {path}  {r.name}")
            for f in r.failures:
                print(f"      - {f}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
