"""A game's history: the exported log, the seed commitment and its verification,
the after-action report and the replay's frames.

A game is ``(setup, seed, action log)`` (``docs/architecture.md``), so everything
here is derived by replaying that with the engine; the only thing stored is the
seed commitment, in the game's options at the start. No Discord here: the cogs
reach it through :mod:`cogs.history`, and it holds no rules (effects, fates and
narration all come from the engine's events, states and views).

**Hidden information.** Until a game is over, only public things leave this
module: the public narration, and the actions in canonical notation with their
secret parts masked (an altitude pick before the reveal, the cards of a Combat
Vision redraw, the card a climbing Vertical Roll names). The seed, the private
events (cards drawn, mini-hands) and each element's hand appear only once the game
is over (finished, or aborted).

**Seed commitment.** At the start the thread shows
``sha256("tally-ho/dif/seed/v1:<game id>:<seed>")`` (decimal numbers, ASCII,
lowercase hex digest); the seed itself is revealed when the game ends. Anyone can
then recompute the hash, and replay the log from that seed (``/game verify``, or
offline ``python -m bot verify LOGFILE``) to check that the shuffles were the ones
fixed before the first card was dealt. The seed is 62 random bits (``secrets``):
trying every seed against the hash is out of reach for the length of a game.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import weakref
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import TYPE_CHECKING, Any

from bot.actionlog import undo_narration, undone_seq
from bot.errors import Refusal
from bot.storage import GameStatus
from engine.core.errors import EngineError
from engine.core.events import Event
from engine.dif.actions import Action
from engine.dif.components import Ruleset, Side
from engine.dif.game import DifEngine
from engine.dif.setup import DifSetup
from engine.dif.state import GameState
from engine.dif.view import DifView, ElementView, PlaneStatus, PlaneView
from rendering.report import AircraftLine, ExchangeLine, ReportView
from strings import Term, tr

if TYPE_CHECKING:
    from bot.service import GameService, LoadedGame

__all__ = [
    "COMMITMENT_PREFIX",
    "LOG_FORMAT",
    "Archive",
    "Check",
    "History",
    "LogInfo",
    "Move",
    "ParsedLog",
    "ReplayError",
    "Verification",
    "after_action_report",
    "archive",
    "export_log",
    "is_over",
    "parse_log",
    "replay_frames",
    "replay_history",
    "report_text",
    "seed_commitment",
    "verify_game",
    "verify_log",
]

COMMITMENT_PREFIX = "tally-ho/dif/seed/v1"
"""Bump the version if the scheme ever changes; old logs keep theirs."""
LOG_FORMAT = "tally-ho-log/1"
ENDED = (GameStatus.FINISHED, GameStatus.ABORTED)


def seed_commitment(game_id: int, seed: int) -> str:
    """``sha256("tally-ho/dif/seed/v1:<game id>:<seed>")``, as 64 lowercase hex digits.

    The game id ties a commitment to one game, so the hash of one game's seed says
    nothing about another's.
    """
    return hashlib.sha256(f"{COMMITMENT_PREFIX}:{game_id}:{seed}".encode()).hexdigest()


def commitment_text(commitment: str) -> str:
    """The line the thread shows at the start (a :class:`Term`)."""
    return Term("history.commitment", commitment=commitment)


def is_over(game: LoadedGame) -> bool:
    """Finished or aborted: hidden information may now be shown."""
    return game.record.status in ENDED


# ---------------------------------------------------------------- replay
class ReplayError(Exception):
    """An action of a log is refused by the engine (the log was not played from it)."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(message)
        self.seq = seq


@dataclass(frozen=True, slots=True)
class Move:
    """One action of the log, replayed: what it caused, and the states around it."""

    seq: int
    seat: str
    """The seat that acted; empty for a system action."""
    text: str
    """The action in canonical notation, as stored."""
    events: tuple[Event, ...]
    before: GameState
    after: GameState


@dataclass(frozen=True, slots=True)
class History:
    """A whole game, replayed from its setup, seed and log."""

    setup: DifSetup
    seed: int
    start: GameState
    start_events: tuple[Event, ...]
    moves: tuple[Move, ...]
    """The actions in effect: what the report, the replay and the result see."""
    entries: tuple[Move, ...] = ()
    """Every row of the log in order, taken-back actions and undo markers included
    (``bot.actionlog``): what the log file shows. Empty: the same as ``moves``."""

    @property
    def final(self) -> GameState:
        return self.moves[-1].after if self.moves else self.start

    @property
    def log_rows(self) -> tuple[Move, ...]:
        return self.entries or self.moves


def replay_history(
    engine: DifEngine, setup: DifSetup, seed: int, log: Iterable[tuple[int, str, str]]
) -> History:
    """Replay ``(seq, seat, action text)`` rows, keeping every event and state.

    An undo marker (``undo N``, a system row) returns to the state before action
    ``N``, which must be the latest action in effect; both stay in ``entries``, out of
    ``moves``. Raises :class:`ReplayError` naming the first action the engine refuses.
    """
    state, events = engine.new_game(setup, seed)
    start, start_events = state, tuple(events)
    moves: list[Move] = []  # in effect: an undo marker pops the latest (bot.actionlog)
    entries: list[Move] = []
    for seq, seat, text in log:
        target = undone_seq(text)
        if target is not None:
            if seat or not moves or moves[-1].seq != target:
                raise ReplayError(
                    seq, f"action {seq} ({seat or '-'}: {text}) takes back no latest action"
                )
            undone = moves.pop()
            line = Event("undo", undo_narration(target, undone.seat))
            entries.append(Move(seq, seat, text, (line,), state, undone.before))
            state = undone.before
            continue
        try:
            after, caused = engine.apply(state, seat, Action.from_text(text))
        except EngineError as exc:
            raise ReplayError(
                seq, f"action {seq} ({seat or '-'}: {text}) is refused: {exc}"
            ) from exc
        move = Move(seq, seat, text, tuple(caused), state, after)
        moves.append(move)
        entries.append(move)
        state = after
    return History(setup, seed, start, start_events, tuple(moves), tuple(entries))


# ---------------------------------------------------------------- the log file
@dataclass(frozen=True, slots=True)
class LogInfo:
    """What a log file says about its game besides the moves."""

    game_id: int
    status: str
    commitment: str | None
    seed: int | None
    """Only once the game is over."""
    result: Mapping[str, Any] | None
    players: Mapping[str, str] = field(default_factory=dict)
    """Seat -> display name."""

    @property
    def over(self) -> bool:
        return self.seed is not None


def public_notation(text: str, *, picks_secret: bool) -> str:
    """An action as the public log shows it while the game runs.

    Masks what the narration does not tell: a secret altitude pick before every seat
    has picked (4.5), the cards a Combat Vision redraw throws away, the card a
    climbing Vertical Roll names (it is discarded only if the roll succeeds).
    """
    try:
        a = Action.from_text(text)
    except EngineError:
        return text
    if a.verb == "alt" and picks_secret:
        return "alt ?"
    if a.verb == "redraw" and a.cards:
        return f"redraw ?×{len(a.cards)}"
    if a.verb == "play" and a.arg == "up" and a.cards:
        return "play VER up ?"
    return text


def _hand_line(engine: DifEngine, state: GameState, seat: str) -> str:
    """``[A1 hand] Maneuvering, Tight Turn; wingman's mini-hand: …`` from the owner's view."""
    view = engine.view(state, seat)
    el = next(e for e in view.elements if e.seat == seat)
    cards = ", ".join(engine.card_label(c) for c in el.hand or ()) or "(empty)"
    text = f"[{seat} hand] {cards}"
    if el.minihand:
        text += "; wingman's mini-hand: " + ", ".join(engine.card_label(c) for c in el.minihand)
    if el.counters:
        text += f"; {el.counters} Full Throttle counter(s)"
    return text


def _event_lines(
    engine: DifEngine, events: Sequence[Event], after: GameState, *, full: bool
) -> list[str]:
    """The narration lines of one action: public ones, and with ``full`` the private
    ones (``(A1 only) …``) and the hand of each element whose player-turn begins."""
    lines = []
    for e in events:
        if e.public:
            lines.append(e.text)
        elif full:
            lines.append(f"({e.seat} only) {e.text}")
        if full and e.kind == "player_turn" and e.data.get("seat") in after.elements:
            lines.append(_hand_line(engine, after, str(e.data["seat"])))
    return lines


def export_log(engine: DifEngine, history: History, info: LogInfo, *, full: bool = False) -> str:
    """The log as a text file: a header of ``# key: value`` fields, then one line per
    action (``[seq] SEAT: action``) with the narration it produced indented below.

    ``full`` (only once the game is over) adds the private lines and the hands. A
    log of a finished game carries everything ``python -m bot verify`` needs: the
    setup, the seed, the commitment and the canonical actions.
    """
    if full and not info.over:
        raise ValueError("the full log exists only once the game is over")
    setup = history.setup
    picks_secret = history.final.step == "setup"
    header = {
        "game": str(info.game_id),
        "status": info.status,
        "ruleset": setup.ruleset.value,
        "players": json.dumps(dict(info.players), ensure_ascii=False),
        "setup": json.dumps(setup.model_dump(mode="json"), separators=(",", ":")),
        "commitment": info.commitment or "none",
        "scheme": f'sha256("{COMMITMENT_PREFIX}:<game>:<seed>"), hex',
        "seed": str(info.seed) if info.seed is not None else "hidden until the game is over",
        "result": json.dumps(dict(info.result), ensure_ascii=False) if info.result else "none",
        "hands": "shown" if full else "hidden",
    }
    rs = setup.ruleset
    names = {Ruleset.ZERO: "Zero!", Ruleset.ROTL: "Rise of the Luftwaffe"}
    lines = [f"# Tally-Ho dogfight #{info.game_id} ({names[rs]}, {setup.year}): {LOG_FORMAT}"]
    lines += [f"# {k}: {v}" for k, v in header.items()]
    lines += [
        "#",
        "# Each [seq] line is one action in canonical notation; the indented lines are",
        "# what it caused. Check a finished game with: python -m bot verify THIS_FILE",
    ]
    if full:
        lines.append(
            "# (A1 only) lines were private to that seat; [A1 hand] is the element's hand "
            "as its player-turn began."
        )
    lines += ["", "[0] start"]
    lines += [
        f"    {t}" for t in _event_lines(engine, history.start_events, history.start, full=full)
    ]
    for m in history.log_rows:
        shown = m.text if info.over else public_notation(m.text, picks_secret=picks_secret)
        lines.append(f"[{m.seq}] {m.seat or '-'}: {shown}")
        lines += [f"    {t}" for t in _event_lines(engine, m.events, m.after, full=full)]
    return "\n".join(lines) + "\n"


_FIELD = re.compile(r"^# ([a-z]+): (.*)$")
_ACTION = re.compile(r"^\[(\d+)\] (?:([A-Z][0-9]{1,2}|-): )?(.+)$")


@dataclass
class ParsedLog:
    """A log file read back: its header fields, actions and narration lines."""

    fields: dict[str, str]
    log: list[tuple[int, str, str]]
    lines: dict[int, list[str]]
    """The indented lines under each ``[seq]`` (0: the start)."""

    @property
    def full(self) -> bool:
        return self.fields.get("hands") == "shown"


def parse_log(text: str) -> ParsedLog:
    """Read a file written by :func:`export_log`. Raises ValueError on a malformed one."""
    fields: dict[str, str] = {}
    log: list[tuple[int, str, str]] = []
    lines: dict[int, list[str]] = {}
    current: int | None = None
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        if line.startswith("#"):
            m = _FIELD.match(line)
            if m and current is None:
                fields.setdefault(m[1], m[2])
            continue
        if line.startswith("    "):
            if current is None:
                raise ValueError(f"line {n}: narration before any action")
            lines[current].append(line[4:])
            continue
        m = _ACTION.match(line)
        if m is None:
            raise ValueError(f"line {n}: not an action line: {line!r}")
        current = int(m[1])
        if current in lines:
            raise ValueError(f"line {n}: action {current} appears twice")
        lines[current] = []
        if current:
            seat = m[2] or "-"
            log.append((current, "" if seat == "-" else seat, m[3]))
    return ParsedLog(fields, log, lines)


# ---------------------------------------------------------------- verification
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
        return self.history.final.result if self.history is not None else None

    def text(self, language: str = "en") -> str:
        head = Term("verify.ok" if self.ok else "verify.failed")
        lines = [f"{'✔' if c.ok else '✘'} {tr(c.text, language)}" for c in self.checks]
        return "\n".join([tr(head, language), *lines])


def _vp_words(vp: Mapping[Any, Any], rs: Ruleset) -> str:
    """``Allied 5, Japanese 3`` (a :class:`Term`); ``vp`` keyed by side or its value."""

    def of(side: Side) -> int:
        return int(vp.get(side, vp.get(side.value, 0)))

    from bot.service import side_term  # (bot.service imports this module lazily)

    return Term(
        "report.vp",
        allied=side_term(Side.ALLIED, rs),
        axis=side_term(Side.AXIS, rs),
        n_allied=of(Side.ALLIED),
        n_axis=of(Side.AXIS),
    )


def _failure(key: str, exc: Exception) -> Term:
    """A failed check naming an error: its message, without its final period; an
    engine's :class:`Term` stays whole (``<key>_whole``: the Term ends the sentence)."""
    why = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
    if isinstance(why, Term):
        return Term(f"{key}_whole" if why.endswith(".") else key, why=why)
    return Term(key, why=why.rstrip("."))


def verify_game(
    engine: DifEngine,
    *,
    game_id: int,
    setup: DifSetup,
    seed: int,
    commitment: str | None,
    log: Sequence[tuple[int, str, str]],
    recorded_result: Mapping[str, Any] | None,
    narration: Mapping[int, Sequence[str]] | None = None,
    full: bool = False,
    aborted: bool = False,
) -> Verification:
    """Check a revealed seed against its commitment, replay the log from it, and
    compare with the recorded result (and, for a log file, every narration line)."""
    checks: list[Check] = []
    rs = setup.ruleset
    if commitment is None:
        checks.append(Check(False, Term("verify.no_commitment")))
    elif seed_commitment(game_id, seed) == commitment.removeprefix("sha256:").lower():
        checks.append(Check(True, Term("verify.seed_ok", seed=seed, commitment=commitment[:16])))
    else:
        checks.append(Check(False, Term("verify.seed_bad", seed=seed, commitment=commitment[:23])))
    seqs = [seq for seq, _, _ in log]
    if seqs != list(range(1, len(seqs) + 1)):
        checks.append(Check(False, Term("verify.gaps")))
    try:
        history = replay_history(engine, setup, seed, log)
    except ReplayError as exc:
        checks.append(Check(False, _failure("verify.no_replay", exc)))
        return Verification(tuple(checks))
    except EngineError as exc:
        checks.append(Check(False, _failure("verify.setup_refused", exc)))
        return Verification(tuple(checks))
    checks.append(Check(True, Term("verify.legal", n=len(log))))
    if narration is not None:
        checks.append(_narration_check(engine, history, narration, full=full))
    final = history.final
    if final.step == "over":
        replayed = final.result or {}
        verdict = Term(
            "verify.verdict",
            verdict=str(replayed.get("verdict")),
            vp=_vp_words(replayed.get("vp", {}), rs),
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
        vp = {k.value: v for k, v in engine.victory_points(final).items()}
        same = dict(recorded_result.get("vp") or {}) == vp
        said = str(recorded_result.get("verdict"))
        checks.append(
            Check(
                same,
                Term("verify.ended_same", n=len(log), verdict=said, vp=_vp_words(vp, rs))
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
    engine: DifEngine, history: History, narration: Mapping[int, Sequence[str]], *, full: bool
) -> Check:
    """Every action's narration in the file is what the replay narrates."""
    expected = {0: _event_lines(engine, history.start_events, history.start, full=full)}
    for m in history.log_rows:
        expected[m.seq] = _event_lines(engine, m.events, m.after, full=full)
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
    return Check(True, Term("verify.narration_ok"))


def verify_log(engine: DifEngine, text: str) -> Verification:
    """Verify an exported log file (``python -m bot verify``)."""
    try:
        parsed = parse_log(text)
        f = parsed.fields
        game_id = int(f["game"])
        setup = DifSetup.model_validate(json.loads(f["setup"]))
    except (ValueError, KeyError) as exc:
        return Verification((Check(False, Term("verify.not_a_log", why=str(exc))),))
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
        engine,
        game_id=game_id,
        setup=setup,
        seed=int(seed_text),
        commitment=None if commitment in (None, "none") else commitment,
        log=parsed.log,
        recorded_result=result,
        narration=parsed.lines,
        full=parsed.full,
        aborted=f.get("status") == GameStatus.ABORTED.value,
    )


# ---------------------------------------------------------------- after-action report
def _original_label(aircraft: str, seat: str, ref: str, *, promoted: bool = False) -> str:
    """``Buffalo I (A1 leader)``, ``Buffalo I (wingman of A1, then leader)`` (a :class:`Term`)."""
    if ref.endswith("W"):
        return Term(
            "plane.wingman_promoted" if promoted else "plane.wingman", name=aircraft, seat=seat
        )
    return Term("plane.leader", name=aircraft, seat=seat)


def _planes_by_origin(el: ElementView) -> dict[str, PlaneView]:
    """An element's aircraft in a view, keyed by the ref each started with: a leader
    shot down and replaced is ``A1L-lost1`` in the view but ``A1L`` here (11.2)."""
    out: dict[str, PlaneView] = {}
    for p in el.lost:
        out[f"{el.seat}L"] = p
    if el.leader is not None:
        out[f"{el.seat}W" if el.leader.promoted else f"{el.seat}L"] = el.leader
    if el.wingman is not None:
        out[f"{el.seat}W"] = el.wingman
    return out


@dataclass
class _Tally:
    """What the events of a game say about each aircraft (by original ref)."""

    labels: dict[str, str]
    taken: Counter[str] = field(default_factory=Counter)
    given: Counter[str] = field(default_factory=Counter)
    killer: dict[str, tuple[str, int, bool]] = field(default_factory=dict)
    """Shot down -> (by, turn, fuel tank)."""
    damager: dict[str, tuple[str, int]] = field(default_factory=dict)
    evading: set[str] = field(default_factory=set)
    exchanges: list[tuple[int, str, str, str, str]] = field(default_factory=list)
    """(turn, by, target, card, outcome)."""


def _tally(engine: DifEngine, history: History, labels: dict[str, str]) -> _Tally:
    t = _Tally(labels)
    # Refs change when a leader is shot down and its wingman takes over (11.2): the
    # engine then calls the old leader A1L-lost1 and the wingman A1L. ``ident`` maps
    # the refs of the moment to the refs each aircraft started with.
    ident: dict[str, str] = {}
    lost: Counter[str] = Counter()
    for el in history.start.elements.values():
        for plane in (el.leader, el.wingman):
            if plane is not None:
                ident[plane.ref] = plane.ref
    attack: tuple[str, str, str] | None = None  # (by, target, card code), original refs
    for m in history.moves:
        turn = max(m.before.turn, 1)
        last_hit: str | None = None
        last_destroyed: str | None = None
        flipped: int | None = None  # index of this move's "damaged" exchange
        fuel = False
        for ev in m.events:
            d = ev.data
            if ev.kind == "play":
                target = d.get("target")
                attack = (
                    (ident.get(d["by"], d["by"]), ident.get(target, target), str(d.get("card")))
                    if target and "by" in d
                    else None
                )
            elif ev.kind == "damage" and "ref" in d:
                o = ident.get(d["ref"], d["ref"])
                hits = int(d.get("hits", 0))
                t.taken[o] += hits
                if attack is not None and attack[1] == o:
                    t.given[attack[0]] += hits
                last_hit = o
            elif ev.kind == "damage":
                fuel = True  # "Fuel tank hit!": the destroyed event follows
            elif ev.kind == "damaged" and last_hit is not None:
                if attack is not None and attack[1] == last_hit:
                    t.damager.setdefault(last_hit, (attack[0], turn))
                    damaged = Term("report.fate.damaged")
                    t.exchanges.append((turn, attack[0], last_hit, attack[2], damaged))
                    flipped = len(t.exchanges) - 1
            elif ev.kind == "destroyed" and "ref" in d:
                o = ident.get(d["ref"], d["ref"])
                last_destroyed = d["ref"]
                if attack is not None and attack[1] == o:
                    t.killer[o] = (attack[0], turn, fuel)
                    if flipped is not None and t.exchanges[flipped][2] == o:
                        del t.exchanges[flipped]  # damaged and shot down by one hit (G-R9)
                    outcome = Term(
                        "report.fate.shot_down_fuel" if fuel else "report.fate.shot_down"
                    )
                    t.exchanges.append((turn, attack[0], o, attack[2], outcome))
                fuel = False
                flipped = None
            elif ev.kind == "promoted" and last_destroyed is not None:
                seat = last_destroyed[:-1]
                lost[seat] += 1
                ident[f"{seat}L-lost{lost[seat]}"] = ident.get(f"{seat}L", f"{seat}L")
                ident[f"{seat}L"] = ident.pop(f"{seat}W", f"{seat}W")
        if m.text.strip() == "evade":  # shot down while evading: the event names no ref
            after = engine.view(m.after, None)
            mine = next((x for x in after.elements if x.seat == m.seat), None)
            for pv in (mine.leader, mine.wingman) if mine is not None else ():
                if pv is not None and pv.status is PlaneStatus.DESTROYED:
                    t.evading.add(ident.get(pv.ref, pv.ref))
    return t


def after_action_report(
    engine: DifEngine,
    history: History,
    *,
    title: str,
    result: Mapping[str, Any] | None,
    players: Mapping[str, str],
    verdict: str | None = None,
) -> ReportView:
    """The report of a game: result, VP, every aircraft's fate, decisive exchanges.

    Its words are :class:`Term` texts (English as ``str``: the picture draws them so;
    :func:`report_text` puts them in a language); the verdict is the stored result's,
    or ``verdict`` (the same, as a Term: ``GameService.verdict_term``)."""
    final = history.final
    view = engine.view(final, None)
    rs = view.ruleset
    labels: dict[str, str] = {}
    planes: list[tuple[ElementView, str, PlaneView]] = []
    for el in sorted(view.elements, key=lambda e: (e.side is not Side.ALLIED, e.seat)):
        for ref, p in sorted(_planes_by_origin(el).items()):
            labels[ref] = _original_label(p.aircraft, el.seat, ref, promoted=p.promoted)
            planes.append((el, ref, p))
    t = _tally(engine, history, labels)
    lines = []
    for el, ref, p in planes:
        detail: str = ""
        if p.status is PlaneStatus.DESTROYED:
            fate = Term("report.fate.shot_down")
            if ref in t.killer:
                by, turn, fuel = t.killer[ref]
                key = "report.by_fuel" if fuel else "report.by"
                detail = Term(key, plane=labels.get(by, by), turn=turn)
            elif ref in t.evading:
                detail = Term("report.lost_evading")
        elif p.status is PlaneStatus.EVADED:
            fate = Term("report.fate.evaded")
            detail = Term("report.left_damaged" if p.damaged else "report.left")
        elif p.damaged:
            fate = Term("report.fate.damaged")
            by_turn = t.damager.get(ref)
            if by_turn:
                detail = Term(
                    "report.by", plane=labels.get(by_turn[0], by_turn[0]), turn=by_turn[1]
                )
        else:
            fate = Term("report.fate.unharmed")
        if p.promoted:
            detail = (
                Term("report.promoted_then", detail=detail) if detail else Term("report.promoted")
            )
        lines.append(
            AircraftLine(
                ref=ref,
                side=el.side,
                label=labels[ref],
                player=players.get(el.seat, "?"),
                fate=fate,
                detail=detail,
                hits_taken=t.taken[ref],
                hits_given=t.given[ref],
            )
        )
    exchanges = tuple(
        ExchangeLine(
            turn,
            Term(
                "report.exchange",
                by=labels.get(by, by),
                target=labels.get(target, target),
                card=engine.card_label(card),
                outcome=outcome,
            ),
        )
        for turn, by, target, card, outcome in t.exchanges
    )
    res = dict(result) if result else dict(final.result or {})
    vp_raw = res.get("vp") or {k.value: v for k, v in engine.victory_points(final).items()}
    winner = res.get("winner")
    return ReportView(
        title=title,
        ruleset=rs,
        verdict=verdict or str(res.get("verdict") or "") or Term("report.no_result"),
        winner=Side(winner) if winner else None,
        vp={s: int(vp_raw.get(s.value, 0)) for s in Side},
        turns=final.turn,
        aircraft=tuple(lines),
        exchanges=exchanges,
    )


def report_text(report: ReportView, *, limit: int = 1900, language: str = "en") -> str:
    """The report in words, for the thread message that carries its picture."""

    def say(key: str, **fields: Any) -> str:
        return Term(key, **fields).text(language)

    vp = tr(_vp_words(report.vp, report.ruleset), language)
    lines = [
        say("report.head", title=report.title),
        say("report.verdict", verdict=report.verdict, vp=vp),
    ]
    for a in report.aircraft:
        lines.append(
            say(
                "report.aircraft",
                label=a.label,
                player=a.player,
                fate=a.fate,
                detail=", " + tr(a.detail, language) if a.detail else "",
                taken=a.hits_taken,
                given=a.hits_given,
            )
        )
    if report.exchanges:
        lines.append(say("report.exchanges"))
        lines += [say("report.exchange_line", turn=x.turn, text=x.text) for x in report.exchanges]
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 1 > limit - 40:
            out.append(say("report.more", n=len(lines) - i))
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


# ---------------------------------------------------------------- replay frames
NOTABLE = frozenset({"destroyed", "damaged", "evade", "promoted", "eliminated", "result", "reveal"})
"""Events worth a caption under a replay frame."""


def replay_frames(
    engine: DifEngine, history: History, language: str = "en"
) -> list[tuple[DifView, str]]:
    """Spectator views of the game: when play begins, after every player-turn, and
    at the end; each with a caption of what notable happened since the last frame
    (the narration, in ``language``)."""
    frames: list[tuple[DifView, str]] = []

    def notable(events: Iterable[Event]) -> list[str]:
        return [tr(e.text, language) for e in events if e.public and e.kind in NOTABLE]

    notes = notable(history.start_events)
    last: GameState | None = None
    for m in history.moves:
        notes += notable(m.events)
        over = m.after.step == "over"
        turned = m.after.active is not None and m.after.active != m.before.active
        if over or turned:
            frames.append((engine.view(m.after, None), " ".join(notes)))
            notes, last = [], m.after
    if history.final is not last:  # a resignation: the sky as it was left
        frames.append((engine.view(history.final, None), " ".join(notes)))
    return frames


# ---------------------------------------------------------------- the service side
class Archive:
    """History of the games of one :class:`GameService`: loads and replays a game's
    log, keeps the last few replays (a finished game never changes)."""

    def __init__(self, service: GameService, cache_size: int = 8) -> None:
        self._service = weakref.ref(service)
        self._cache: OrderedDict[tuple[int, int], History] = OrderedDict()
        self._gifs: OrderedDict[tuple[int, int, str], bytes] = OrderedDict()
        self._size = cache_size

    @property
    def service(self) -> GameService:
        service = self._service()
        assert service is not None
        return service

    async def history(self, game: LoadedGame) -> History:
        if game.setup is None:
            raise Refusal("history.no_log")
        key = (game.id, game.record.version)
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
            return found
        rows = await self.service.storage.load_actions(game.id)
        log = [(r.seq, r.seat or "", r.action) for r in rows]
        history = await asyncio.to_thread(
            replay_history, self.service.engine, game.setup, game.record.seed, log
        )
        self._cache[key] = history
        while len(self._cache) > self._size:
            self._cache.popitem(last=False)
        return history

    def info(self, game: LoadedGame) -> LogInfo:
        over = is_over(game)
        commitment = game.record.options.get("commitment")
        return LogInfo(
            game_id=game.id,
            status=game.record.status.value,
            commitment=str(commitment) if commitment else None,
            seed=game.record.seed if over else None,
            result=game.record.result if over else None,
            players={s.seat: s.display_name for s in game.seats},
        )

    async def public_log(self, game: LoadedGame) -> str:
        """The public log (with the seed and unmasked actions once the game is over)."""
        history = await self.history(game)
        return export_log(self.service.engine, history, self.info(game))

    async def log_files(self, game: LoadedGame) -> list[tuple[str, str]]:
        """``(file name, text)``: the public log; once over, the full log too."""
        history = await self.history(game)
        info = self.info(game)
        engine = self.service.engine
        files = [(f"dogfight-{game.id}.txt", export_log(engine, history, info))]
        if info.over:
            full = export_log(engine, history, info, full=True)
            files.append((f"dogfight-{game.id}-full.txt", full))
        return files

    def _require_over(self, game: LoadedGame, what: str) -> None:
        """Refused before the end; ``what`` names the deed (``history.what.<what>``)."""
        deed = Term(f"history.what.{what}")
        if game.setup is None or game.state is None:
            raise Refusal("history.not_started", what=deed)
        if not is_over(game):
            raise Refusal("history.still_fought", what=deed)

    async def verify(self, game: LoadedGame) -> Verification:
        self._require_over(game, "verify")
        assert game.setup is not None
        rows = await self.service.storage.load_actions(game.id)
        commitment = game.record.options.get("commitment")
        return await asyncio.to_thread(
            verify_game,
            self.service.engine,
            game_id=game.id,
            setup=game.setup,
            seed=game.record.seed,
            commitment=str(commitment) if commitment else None,
            log=[(r.seq, r.seat or "", r.action) for r in rows],
            recorded_result=game.record.result,
            aborted=game.record.status is GameStatus.ABORTED,
        )

    async def report(self, game: LoadedGame) -> ReportView:
        self._require_over(game, "report")
        history = await self.history(game)
        from bot.service import player_name  # (bot.service imports this module lazily)

        return after_action_report(
            self.service.engine,
            history,
            title=Term("report.title", id=game.id),
            result=game.record.result,
            players={s.seat: player_name(s) for s in game.seats},
            verdict=self.service.verdict_term(game) if game.record.result else None,
        )

    async def replay_gif(self, game: LoadedGame, language: str = "en") -> bytes:
        """The replay as a GIF, its captions (the narration) in ``language``."""
        self._require_over(game, "replay")
        key = (game.id, game.record.version, language)
        found = self._gifs.get(key)
        if found is not None:
            return found
        history = await self.history(game)
        from rendering.replay import render_replay

        def work() -> bytes:
            frames = replay_frames(self.service.engine, history, language)
            return render_replay(frames, language=language)

        gif = await asyncio.to_thread(work)
        self._gifs[key] = gif
        while len(self._gifs) > 2:  # a GIF is up to 8 MB: keep few
            self._gifs.popitem(last=False)
        return gif


_ARCHIVES: weakref.WeakKeyDictionary[GameService, Archive] = weakref.WeakKeyDictionary()


def archive(service: GameService) -> Archive:
    """The :class:`Archive` of a service (one per service, created on first use)."""
    found = _ARCHIVES.get(service)
    if found is None:
        found = _ARCHIVES[service] = Archive(service)
    return found


# ---------------------------------------------------------------- command line
def verify_main(argv: Sequence[str]) -> int:
    """``python -m bot verify LOGFILE``: replay an exported log offline.

    Prints the checks and the final result; exit status 0 when everything checks
    out, 1 when something does not, 2 when the file cannot be read.
    """
    import sys

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
    from engine.dif.game import default_engine

    engine = default_engine()
    result = verify_log(engine, text)
    sys.stdout.write(result.text() + "\n")
    if result.history is not None:
        final = result.history.final
        view = engine.view(final, None)
        sys.stdout.write(f"Final state after {len(result.history.moves)} actions:\n")
        for el in view.elements:
            for p in (*el.lost, el.leader, el.wingman):
                if p is not None:
                    state = "damaged, " if p.damaged else ""
                    sys.stdout.write(
                        f"  {p.ref:<10} {p.aircraft:<20} {state}{p.status.value}, {p.hits} hits\n"
                    )
        if final.result is not None:
            sys.stdout.write(
                f"RESULT: {final.result.get('verdict')}. VP {final.result.get('vp')}\n"
            )
    return 0 if result.ok else 1
