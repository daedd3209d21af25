"""Run rules conformance vectors: ``python -m engine.conformance PATH...``.

A vector is a YAML file (see ``tests/conformance/README.md``): the system it is for,
a setup, a list of steps (an action in canonical text, or an action that must be
refused) and the state expected after any step. Every worked example in the
rulebooks is a vector, and so is every rules bug ever fixed. Exit status 0 when every
vector passes.

The runner is generic: it gets the system named by ``system:`` from the registry and
plays the steps through the game-system contract. The expectation keys every system
shares (``events``, ``no_events``, ``pending``, ``legal``) are checked here; the rest
are the system's own and are checked by its ``vectors`` module
(``engine.<system>.vectors``: ``prepare(system, data)`` and ``check(system, state,
expect, events)``).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from engine.core import registry
from engine.core.campaign import CampaignEntry, EntryKind
from engine.core.contract import AircraftFate, Fate, Outcome
from engine.core.errors import EngineError, RuleViolation
from engine.core.events import Event

__all__ = ["COMMON_KEYS", "VectorResult", "check", "load_vector", "main", "run_file", "run_vector"]

COMMON_KEYS = ("events", "no_events", "pending", "legal")
"""Expectations every system's vectors may use, checked by the runner itself."""


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


def checker(system_id: str) -> ModuleType:
    """The system's expectation checker: ``engine.<system>.vectors`` (next to the
    module the registry names)."""
    package = registry.entry(system_id).module.rpartition(".")[0]
    return importlib.import_module(f"{package}.vectors")


def run_file(path: Path, system: Any | None = None) -> VectorResult:
    return run_vector(load_vector(path), str(path), system)


def run_vector(
    data: dict[str, Any], where: str = "<vector>", system: Any | None = None
) -> VectorResult:
    """Play one vector; ``system`` overrides the registry's (tests)."""
    if "campaign" in data:
        return run_campaign_vector(data, where, system)
    result = VectorResult(where, str(data.get("name", where)))
    system_id = str(data.get("system", "dif"))
    refused = data.get("setup_refused")
    try:
        module = checker(system_id)
        system = module.prepare(system or registry.get(system_id), data)
        setup = system.setup_model.model_validate(data["setup"])
        state, events = system.new_game(setup, int(data.get("seed", 0)))
    except registry.UnknownSystem:
        result.failures.append(f"unknown system {system_id!r}")
        return result
    except (EngineError, ValueError) as exc:
        if refused is None:
            result.failures.append(f"setup: {exc}")
        elif str(refused).lower() not in str(exc).lower():
            result.failures.append(f"setup refused with {exc!r}, expected to mention {refused!r}")
        return result
    if refused is not None:
        result.failures.append(f"setup: accepted but must be refused ({refused!r})")
        return result
    for i, step in enumerate(data.get("steps", []), start=1):
        label = f"step {i} ({step.get('note', step.get('do', step.get('refuse', '')))})"
        if "do" in step or "refuse" in step:
            seat = str(step["seat"])
            text = str(step.get("do", step.get("refuse")))
            try:
                action = system.parse_action(text)
            except EngineError as exc:
                result.failures.append(f"{label}: cannot parse: {exc}")
                return result
            if "refuse" in step:
                try:
                    system.apply(state, seat, action)
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
                    state, events = system.apply(state, seat, action)
                except EngineError as exc:
                    legal = ", ".join(str(a) for a in system.legal_actions(state, seat)) or "none"
                    result.failures.append(
                        f"{label}: {seat} '{text}' refused: {exc} (legal: {legal})"
                    )
                    return result
            result.steps += 1
        if "expect" in step:
            result.failures.extend(
                f"{label}: {f}" for f in check(system, module, state, step["expect"], events)
            )
    if "expect" in data:
        result.failures.extend(
            f"end: {f}" for f in check(system, module, state, data["expect"], events)
        )
    return result


def check(
    system: Any,
    module: ModuleType,
    state: Any,
    expect: Mapping[str, Any],
    events: Iterable[Event] = (),
) -> list[str]:
    """Compare the state with the expectations; returns what differs.

    ``events`` are those of the last action, for the ``events`` expectation (each
    listed text must appear in one of its public narration lines).
    """
    events = list(events)
    out: list[str] = []

    def differ(what: str, got: object, want: object) -> None:
        if got != want:
            out.append(f"{what}: expected {want!r}, got {got!r}")

    own: dict[str, Any] = {}
    for key, want in expect.items():
        if key == "events":
            public = [e.text for e in events if e.public]
            for text in want:
                if not any(str(text).lower() in line.lower() for line in public):
                    out.append(f"no public event mentions {text!r}: {public!r}")
        elif key == "no_events":
            public = [e.text for e in events if e.public]
            for text in want:
                if any(str(text).lower() in line.lower() for line in public):
                    out.append(f"a public event mentions {text!r}: {public!r}")
        elif key == "pending":
            differ(
                "pending",
                [f"{p.seat} {p.kind}" for p in system.pending(state)],
                list(want) if isinstance(want, list) else [want],
            )
        elif key == "legal":
            seat = want["seat"]
            legal = {str(a) for a in system.legal_actions(state, seat)}
            for a in want.get("includes", []):
                if a not in legal:
                    out.append(f"legal {seat}: {a!r} should be legal")
            for a in want.get("excludes", []):
                if a in legal:
                    out.append(f"legal {seat}: {a!r} should not be legal")
            if "exactly" in want:
                differ(f"legal {seat}", sorted(legal), sorted(want["exactly"]))
        else:
            own[key] = want
    if own:
        out.extend(module.check(system, state, own, events))
    return out


CAMPAIGN_KEYS = ("pending", "totals", "levels", "winner", "mission", "over", "public")
"""Expectations of a campaign vector checked by the runner; the rest go to the system's
``vectors.check_campaign(system, state, expect)``."""


def run_campaign_vector(
    data: dict[str, Any], where: str = "<vector>", system: Any | None = None
) -> VectorResult:
    """Play a campaign vector: ``campaign:`` its set-up (which campaign, options), then
    steps: ``decide`` (with ``side``), ``refuse`` (with ``side``, ``because``), a mission
    game's ``outcome`` (``vp`` by game side, ``winner``, ``conceded``: a game side,
    ``fates``: each aircraft's ``ref``, ``side``, ``fate``, ``by``, ``damaged`` (on its
    Damaged side at the end) and the system's ``record``) or ``abort``."""
    result = VectorResult(where, str(data.get("name", where)))
    system_id = str(data.get("system", "dif"))
    try:
        module = checker(system_id)
        system = system or registry.campaign_system(system_id)
        setup = system.setup_model.model_validate(data["campaign"])
        state = system.new_campaign(setup, int(data.get("seed", 0)))
    except registry.UnknownSystem:
        result.failures.append(f"no campaign game for system {system_id!r}")
        return result
    except (EngineError, ValueError) as exc:
        result.failures.append(f"setup: {exc}")
        return result
    for i, step in enumerate(data.get("steps", []), start=1):
        label = f"step {i} ({step.get('note', step.get('decide', step.get('refuse', '')))})"
        try:
            if "decide" in step:
                action = system.parse_action(str(step["decide"]))
                state = system.apply(state, str(step["side"]), action)
            elif "refuse" in step:
                try:
                    system.apply(state, str(step["side"]), system.parse_action(str(step["refuse"])))
                except RuleViolation as exc:
                    want = str(step.get("because", ""))
                    if want and want.lower() not in str(exc).lower():
                        result.failures.append(f"{label}: refused with {exc!r}, not {want!r}")
                else:
                    result.failures.append(f"{label}: accepted but must be refused")
            elif "outcome" in step:
                given = step["outcome"]
                vp = {str(k): int(v) for k, v in dict(given.get("vp", {})).items()}
                fates = tuple(
                    AircraftFate(
                        ref=str(f["ref"]),
                        seat=str(f.get("seat", "")),
                        side=str(f["side"]),
                        aircraft=str(f.get("aircraft", "")),
                        fate=Fate(str(f.get("fate", "unharmed"))),
                        by=f.get("by"),
                        damaged=bool(f.get("damaged", False)),
                        record=dict(f.get("record", {})),
                    )
                    for f in given.get("fates", [])
                )
                state = system.absorb(
                    state,
                    Outcome(
                        over=True,
                        winner=given.get("winner"),
                        verdict=str(given.get("verdict", "")),
                        vp=vp,
                        fates=fates,
                        conceded=given.get("conceded"),
                    ),
                )
            elif step.get("abort"):
                state = system.abort_mission(state)
        except EngineError as exc:
            result.failures.append(f"{label}: refused: {exc}")
            return result
        result.steps += 1
        if "expect" in step:
            result.failures.extend(
                f"{label}: {f}" for f in check_campaign(system, module, state, step["expect"])
            )
    if "expect" in data:
        result.failures.extend(
            f"end: {f}" for f in check_campaign(system, module, state, data["expect"])
        )
    return result


def check_campaign(
    system: Any, module: ModuleType, state: Any, expect: Mapping[str, Any]
) -> list[str]:
    """Compare a campaign's state with the expectations; returns what differs."""
    out: list[str] = []

    def differ(what: str, got: object, want: object) -> None:
        if got != want:
            out.append(f"{what}: expected {want!r}, got {got!r}")

    sheet = system.sheet(state, None)
    campaign_result = system.result(state)
    own: dict[str, Any] = {}
    for key, want in expect.items():
        if key == "pending":
            differ("pending", [f"{d.side} {d.kind}" for d in system.pending(state)], list(want))
        elif key == "totals":
            differ("totals", dict(sheet.totals), dict(want))
        elif key == "levels":
            got = dict(campaign_result.levels) if campaign_result else None
            differ("levels", {k: str(v) for k, v in (got or {}).items()}, dict(want))
        elif key == "winner":
            differ("winner", campaign_result.winner if campaign_result else None, want)
        elif key == "over":
            differ("over", system.is_over(state), bool(want))
        elif key == "mission":
            nxt = next((r.number for r in sheet.missions if r.state.value == "next"), None)
            differ("next mission", nxt, want)
        elif key == "public":  # how a decision entry reads in the public log now
            for text, shown in dict(want).items():
                entry = CampaignEntry(EntryKind.DECISION, None, str(text))
                differ(f"public {text!r}", system.public_text(state, entry), shown)
        else:
            own[key] = want
    if own:
        out.extend(module.check_campaign(system, state, own))
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
