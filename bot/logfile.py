"""The exported log of a game (``/game log``): a text file, and reading it back.

A header of ``# key: value`` fields (game, status, the system's own fields such as
its ruleset, players, the setup as JSON, commitment, seed, result, whether hands are
shown), then ``[seq] SEAT: action`` lines in canonical notation, each followed by the
narration it produced, indented. While the game runs the public log masks what the
narration does not tell (the system's ``public_text``: a secret pick before the
reveal...) and the seed reads "hidden". Once the game is over the actions are exact,
the seed is given, and the **full log** adds the private lines (``(A1 only) You drew
…``) and what the system adds (each seat's hand as its turn begins).

The file is the canonical record, in English in every language: ``python -m bot
verify`` reads it back (:mod:`bot.verify`). A log of the original system (the
registry's first) carries no ``system`` field, as every log written before systems
were many; any other system's log names it. Its ``narration`` field gives the
version of the narration's wording it was written in (:data:`strings.NARRATION`; no
field: version 1, every log written before the wording was versioned), so that
verification compares its lines with the replay narrated in that same wording.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.actionlog import handover_note
from bot.history import History
from bot.systems import Hosted, commitment_prefix
from engine.core import registry
from engine.core.events import Event
from strings import NARRATION, english, narration_wording

__all__ = [
    "LOG_FORMAT",
    "LogInfo",
    "ParsedLog",
    "event_lines",
    "export_log",
    "log_narration",
    "log_system",
    "parse_log",
    "public_notation",
]

LOG_FORMAT = "tally-ho-log/1"


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
    packs: Sequence[tuple[str, str]] = ()
    """The content packs the game was created with, as ``(file name, document)``
    (:mod:`bot.packs`): written whole, so the log verifies wherever it is read."""

    @property
    def over(self) -> bool:
        return self.seed is not None


def log_system(fields: Mapping[str, str]) -> str:
    """The system of a log file: its ``system`` field, else the original system's."""
    return fields.get("system") or registry.system_ids()[0]


def log_narration(fields: Mapping[str, str]) -> int:
    """The narration version a log file was written in (no ``narration`` field: 1).
    Raises ValueError on a version this release does not know."""
    text = fields.get("narration", "1")
    if not text.isdigit() or not 1 <= int(text) <= NARRATION:
        raise ValueError(f"narration version {text!r} (this release knows 1 to {NARRATION})")
    return int(text)


def public_notation(system: Hosted, text: str, *, picks_secret: bool) -> str:
    """An action as the public log shows it while the game runs (the system masks
    what the narration does not tell)."""
    return system.public_text(text, secret_picks=picks_secret)


def event_lines(
    system: Hosted, events: Sequence[Event], after: Any, *, full: bool, narration: int = NARRATION
) -> list[str]:
    """The narration lines of one action: public ones, and with ``full`` the private
    ones (``(A1 only) …``) and what the system adds after an event (a seat's hand as
    its turn begins); worded as narration version ``narration`` wrote them."""
    presenter = system.presenter()
    wording = narration_wording(narration)
    lines = []
    for e in events:
        text = english(e.text, wording)
        if e.public:
            lines.append(text)
        elif full:
            lines.append(f"({e.seat} only) {text}")
        if full:
            lines += presenter.full_log_lines(e, after)
    return lines


def export_log(
    history: History, info: LogInfo, *, full: bool = False, narration: int = NARRATION
) -> str:
    """The log as a text file: a header of ``# key: value`` fields, then one line per
    action (``[seq] SEAT: action``) with the narration it produced indented below.

    ``full`` (only once the game is over) adds the private lines and the hands. A
    log of a finished game carries everything ``python -m bot verify`` needs: the
    setup, the seed, the commitment and the canonical actions. ``narration``: the
    version of the narration's wording (an older one writes the file as the release
    that had it did, which is how the tests check old logs still verify).
    """
    if full and not info.over:
        raise ValueError("the full log exists only once the game is over")
    system, setup = history.system, history.setup
    presenter = system.presenter()
    picks_secret = system.picks_hidden(history.final)
    header = {"game": str(info.game_id), "status": info.status}
    if system.id != registry.system_ids()[0]:
        header["system"] = system.id
    header |= presenter.log_fields(setup)
    header |= {
        "players": json.dumps(dict(info.players), ensure_ascii=False),
        "setup": json.dumps(setup.model_dump(mode="json"), separators=(",", ":")),
        "commitment": info.commitment or "none",
        "scheme": f'sha256("{commitment_prefix(system.id)}:<game>:<seed>"), hex',
        "seed": str(info.seed) if info.seed is not None else "hidden until the game is over",
        "result": json.dumps(dict(info.result), ensure_ascii=False) if info.result else "none",
        "hands": "shown" if full else "hidden",
    }
    if info.packs:
        header["packs"] = json.dumps([list(p) for p in info.packs], separators=(",", ":"))
    if narration != 1:  # version 1's logs have no such field
        header["narration"] = str(narration)
    title = presenter.log_title(setup)
    lines = [f"# Tally-Ho dogfight #{info.game_id} ({title}): {LOG_FORMAT}"]
    lines += [f"# {k}: {v}" for k, v in header.items()]
    lines += [
        "#",
        "# Each [seq] line is one action in canonical notation; the indented lines are",
        "# what it caused. Check a finished game with: python -m bot verify THIS_FILE",
    ]
    if full:
        lines.append(f"# {presenter.full_log_legend()}")
    lines += ["", "[0] start"]
    start = event_lines(system, history.start_events, history.start, full=full, narration=narration)
    lines += [f"    {t}" for t in start]
    for m in history.log_rows:
        handover = not m.seat and handover_note(m.text) is not None  # a system's line
        shown = (
            m.text
            if info.over or handover
            else public_notation(system, m.text, picks_secret=picks_secret)
        )
        lines.append(f"[{m.seq}] {m.seat or '-'}: {shown}")
        said = event_lines(system, m.events, m.after, full=full, narration=narration)
        lines += [f"    {t}" for t in said]
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
