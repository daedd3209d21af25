"""Verification of a finished game (``/game verify``, ``python -m bot verify LOGFILE``):
the seed against the commitment published at the start, every action legal from it,
every narration line of a log file equal to the replay's (which ties a file to what
the thread showed), and the recorded result reproduced (a resigned game: the VP at
the resignation). A changed seed fails the commitment and, almost surely, the replay;
a changed move fails legality or the narration.

The narration is compared in the wording the file was written in (its ``narration``
field, :func:`bot.logfile.log_narration`): the replay is narrated as that version of
the catalogue narrated it (:func:`strings.english`), so a log saved before a rewording
still verifies word for word, and a line edited in it still fails.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import zip_longest
from typing import Any

from bot.commitment import seed_commitment
from bot.games import result_record
from bot.history import History, ReplayError, replay_history
from bot.logfile import event_lines, log_narration, log_system, parse_log
from bot.packs import system_of_documents
from bot.storage import GameStatus
from bot.systems import Hosted
from bot.words import comma_list
from engine.core.contract import SideInfo
from engine.core.dataload import DataError
from engine.core.errors import EngineError
from strings import NARRATION, Term, tr

__all__ = ["Check", "Verification", "verify_game", "verify_log", "verify_main", "vp_words"]


@dataclass(frozen=True, slots=True)
class Check:
    ok: bool
    text: str
    """A :class:`Term` (English as a ``str``: the command line prints it so)."""


@dataclass(frozen=True, slots=True)
class Verification:
    """The outcome of replaying a log from its revealed seed."""

    checks: tuple[Check, ...]
    history: History | None = None

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    @property
    def result(self) -> dict[str, Any] | None:
        """The result the replay ends in (None: it does not end)."""
        if self.history is None:
            return None
        system, final = self.history.system, self.history.final
        return result_record(system.outcome(final)) if system.is_over(final) else None

    def text(self, language: str = "en") -> str:
        head = Term("verify.ok" if self.ok else "verify.failed")
        lines = [f"{'✔' if c.ok else '✘'} {tr(c.text, language)}" for c in self.checks]
        return "\n".join([tr(head, language), *lines])


def vp_words(sides: Sequence[SideInfo], vp: Mapping[str, Any]) -> str:
    """``Allied 5, Japanese 3`` (a :class:`Term`): each side's VP, in the sides' order."""
    return comma_list(Term("report.vp_side", side=s.name, n=int(vp.get(s.id, 0))) for s in sides)


def _failure(key: str, exc: Exception) -> Term:
    """A failed check naming an error: its message, without its final period; a
    system's :class:`Term` stays whole (``<key>_whole``: the Term ends the sentence)."""
    why = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
    if isinstance(why, Term):
        return Term(f"{key}_whole" if why.endswith(".") else key, why=why)
    return Term(key, why=why.rstrip("."))


def verify_game(
    system: Hosted,
    *,
    game_id: int,
    setup: Any,
    seed: int,
    commitment: str | None,
    log: Sequence[tuple[int, str, str]],
    recorded_result: Mapping[str, Any] | None,
    narration: Mapping[int, Sequence[str]] | None = None,
    full: bool = False,
    aborted: bool = False,
    wording: int = NARRATION,
) -> Verification:
    """Check a revealed seed against its commitment, replay the log from it, and
    compare with the recorded result (and, for a log file, every narration line, in
    the narration version ``wording`` it was written in)."""
    checks: list[Check] = []
    if commitment is None:
        checks.append(Check(False, Term("verify.no_commitment")))
    elif seed_commitment(system.id, game_id, seed) == commitment.removeprefix("sha256:").lower():
        checks.append(Check(True, Term("verify.seed_ok", seed=seed, commitment=commitment[:16])))
    else:
        checks.append(Check(False, Term("verify.seed_bad", seed=seed, commitment=commitment[:23])))
    seqs = [seq for seq, _, _ in log]
    if seqs != list(range(1, len(seqs) + 1)):
        checks.append(Check(False, Term("verify.gaps")))
    try:
        history = replay_history(system, setup, seed, log)
    except ReplayError as exc:
        checks.append(Check(False, _failure("verify.no_replay", exc)))
        return Verification(tuple(checks))
    except EngineError as exc:
        checks.append(Check(False, _failure("verify.setup_refused", exc)))
        return Verification(tuple(checks))
    checks.append(Check(True, Term("verify.legal", n=len(log))))
    if narration is not None:
        checks.append(_narration_check(history, narration, full=full, wording=wording))
    final = history.final
    sides = system.sides(final)
    if system.is_over(final):
        replayed = result_record(system.outcome(final))
        verdict = Term(
            "verify.verdict",
            verdict=replayed["verdict"],
            vp=vp_words(sides, replayed["vp"]),
        )
        if recorded_result is None:
            checks.append(Check(False, Term("verify.no_result", verdict=verdict)))
        elif dict(recorded_result) == replayed:
            checks.append(Check(True, Term("verify.result_ok", verdict=verdict)))
        else:
            recorded = str(recorded_result.get("verdict"))
            checks.append(
                Check(False, Term("verify.result_bad", verdict=verdict, recorded=recorded))
            )
    elif recorded_result is not None:  # ended before the rules ended it: a resignation
        vp = dict(system.outcome(final).vp)
        same = dict(recorded_result.get("vp") or {}) == vp
        said = str(recorded_result.get("verdict"))
        checks.append(
            Check(
                same,
                Term("verify.ended_same", n=len(log), verdict=said, vp=vp_words(sides, vp))
                if same
                else Term("verify.ended_differ", n=len(log), verdict=said),
            )
        )
    elif aborted:
        checks.append(Check(True, Term("verify.aborted", n=len(log))))
    else:
        checks.append(Check(False, Term("verify.unfinished")))
    return Verification(tuple(checks), history)


def _narration_check(
    history: History, narration: Mapping[int, Sequence[str]], *, full: bool, wording: int
) -> Check:
    """Every action's narration in the file is what the replay narrates (in the
    narration version the file was written in)."""
    system = history.system
    start = event_lines(system, history.start_events, history.start, full=full, narration=wording)
    expected = {0: start}
    for m in history.log_rows:
        expected[m.seq] = event_lines(system, m.events, m.after, full=full, narration=wording)
    for seq in sorted(expected):
        got = list(narration.get(seq, []))
        if got != expected[seq]:
            diff = next(
                ((a, b) for a, b in zip_longest(expected[seq], got, fillvalue="") if a != b),
                ("", ""),
            )
            return Check(
                False,
                Term(
                    "verify.narration_bad",
                    seq=seq,
                    expected=repr(str(diff[0])),
                    got=repr(str(diff[1])),
                ),
            )
    if wording != NARRATION:
        return Check(True, Term("verify.narration_ok_then", version=wording))
    return Check(True, Term("verify.narration_ok"))


def verify_log(text: str) -> Verification:
    """Verify an exported log file (``python -m bot verify``)."""
    try:
        parsed = parse_log(text)
        f = parsed.fields
        game_id = int(f["game"])
        documents = [(str(file), str(text)) for file, text in json.loads(f.get("packs", "[]"))]
        system = system_of_documents(log_system(f), documents)
        setup = system.setup_model.model_validate(json.loads(f["setup"]))
    except (ValueError, KeyError, DataError) as exc:
        return Verification((Check(False, Term("verify.not_a_log", why=str(exc))),))
    try:
        wording = log_narration(f)
    except ValueError:
        said = Term("verify.narration_unknown", version=f.get("narration"), newest=NARRATION)
        return Verification((Check(False, said),))
    seed_text = f.get("seed", "")
    if not seed_text.lstrip("-").isdigit():
        return Verification((Check(False, Term("verify.seed_hidden")),))
    commitment = f.get("commitment")
    result_text = f.get("result", "none")
    try:
        result = None if result_text == "none" else json.loads(result_text)
    except ValueError:
        return Verification((Check(False, Term("verify.result_json")),))
    return verify_game(
        system,
        game_id=game_id,
        setup=setup,
        seed=int(seed_text),
        commitment=None if commitment in (None, "none") else commitment,
        log=parsed.log,
        recorded_result=result,
        narration=parsed.lines,
        full=parsed.full,
        aborted=f.get("status") == GameStatus.ABORTED.value,
        wording=wording,
    )


def verify_main(argv: Sequence[str]) -> int:
    """``python -m bot verify LOGFILE``: replay an exported log offline.

    Prints the checks, then the final state and the result; exit status 0 when
    everything checks out, 1 when something does not, 2 when the file cannot be read.
    """
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        sys.stdout.write(
            "usage: python -m bot verify LOGFILE\n\n"
            "Replays a log saved with /game log (of a finished game) from its revealed\n"
            "seed: checks the seed against the commitment shown at the start, that every\n"
            "action is legal and narrated as in the log, and that it ends in the result.\n"
        )
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    try:
        with open(argv[0], encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        sys.stderr.write(f"cannot read {argv[0]}: {exc}\n")
        return 2
    result = verify_log(text)
    sys.stdout.write(result.text() + "\n")
    if result.history is not None:
        system, final = result.history.system, result.history.final
        sys.stdout.write(f"Final state after {len(result.history.moves)} actions:\n")
        for line in system.presenter().final_lines(final):
            sys.stdout.write(line + "\n")
        if system.is_over(final):
            outcome = system.outcome(final)
            sys.stdout.write(f"RESULT: {outcome.verdict}. VP {dict(outcome.vp)}\n")
    return 0 if result.ok else 1
