"""The campaign contract: a series of linked missions, each its own game.

A campaign is ``(campaign system, setup, seed, campaign log)``, pure and seeded like
a game. Its log holds two kinds of entries, appended in order and never changed:

* a **decision** of one side between missions (the secret skill picks of a
  Locked-On mission; the pilots assigned to a mission of an Eagles in the Sky day;
  the Zero! bombers and escorts), in the campaign system's canonical notation;
* the **outcome** of a finished mission game (:class:`~engine.core.contract.Outcome`,
  as its JSON), or the note that a mission's game was aborted and will be flown again.

Its state is rebuilt by replaying that log (:func:`replay`), exactly, like a game's.

The contract was drawn from the three campaign games the project hosts, so that no
generic layer names one of their terms:

* **Locked-On** (``lockedon``): missions flown in numbered order, each with its
  aircraft, its stated VP and two skill options of which each side picks secretly;
  the mission VP apportioned by the enemy aircraft destroyed; a victory chart.
* **Eagles in the Sky** (``eagles``): days of four phases, missions drawn from a
  table, a squadron of pilots and aircraft that carry over (fatigue, wounds,
  replacements), Campaign Points from each engagement's VP.
* **Zero!** (``dif`` ruleset ``zero``): target, bombers and escorts chosen by each side,
  bombing and flak, pilots' experience carried over, a land campaign's front.

What they share is here: decisions between missions (secret ones revealed when the
mission starts), a next mission's set-up for the game system (the sides, the aircraft
of each side, which campaign side flies each game side, and the game's seed), the typed
outcome of a finished game absorbed into the campaign, a sheet every reader may see
(missions with their scores, the running totals, what comes next, and the system's own
tables: a squadron roster, a front line), the result at the end, and the **logbook** of
the pilots who carry over from mission to mission (:class:`PilotLog`: an Eagles in the
Sky squadron's pilots, the Zero! Skilled Pilots drawn from the cup), each with the
missions flown, the kills, the wounds and the fate, in neutral words
(:class:`PilotFate`) beside the system's own.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from engine.core.contract import AircraftFate, Fate, Outcome, SeatPick, SideInfo
from engine.core.present import Choice

__all__ = [
    "CampaignDecision",
    "CampaignEntry",
    "CampaignInfo",
    "CampaignResult",
    "CampaignSheet",
    "CampaignSystem",
    "EntryKind",
    "Happenings",
    "LogbookEntry",
    "MissionPlan",
    "MissionRow",
    "MissionState",
    "NextMission",
    "PilotFate",
    "PilotLog",
    "SheetTable",
    "mission_seed",
    "outcome_from_json",
    "outcome_text",
    "outcome_to_json",
    "replay",
    "replay_step",
]


class EntryKind(StrEnum):
    """The kinds of entry of a campaign log."""

    DECISION = "decision"
    """A side's decision between missions: ``side`` and the action's canonical text."""
    OUTCOME = "outcome"
    """A mission game ended: its :class:`Outcome` as JSON (``outcome_to_json``)."""
    ABORTED = "aborted"
    """A mission game was aborted: the mission is flown again, in a new game."""


@dataclass(frozen=True, slots=True)
class CampaignEntry:
    """One entry of a campaign's log."""

    kind: EntryKind
    side: str | None = None
    """The deciding side (``DECISION``), else None."""
    text: str = ""
    """The decision's canonical text (``DECISION``); the outcome's JSON text
    (``OUTCOME``); the aborted game's reason (``ABORTED``)."""


@dataclass(frozen=True, slots=True)
class CampaignDecision:
    """A decision one side of a campaign must take before the next mission.

    Every player of the side may take it (the first answer settles it). ``secret``
    decisions are hidden from the other sides (and the spectators) until the mission
    they prepare starts; the bot asks for them by ephemeral menu."""

    side: str
    kind: str
    """The system's own name for it (``skills``, ``assign``): keys its words."""
    secret: bool = True
    mission: int | None = None
    """The number of the mission it prepares, if one."""


@dataclass(frozen=True, slots=True)
class CampaignInfo:
    """One campaign a system offers (``/campaign new`` lists them)."""

    id: str
    title: str
    """Its printed or authored title (not translated: a title)."""
    missions: int
    sides: tuple[SideInfo, ...]
    """Its sides, nation #1 first (their names: the nations, not translated)."""
    summary: str = ""
    """One line about it: years, theatre, whether the book prints it."""


@dataclass(frozen=True, slots=True)
class NextMission:
    """Which game comes next, known before its decisions are taken (the bot opens
    the mission's game row then, so the decisions' deadlines have a home)."""

    number: int
    title: str
    attempt: int
    """1, or more when earlier games of this mission were aborted."""
    seed: int
    """The game's seed (:func:`mission_seed`): the whole campaign replays from its own."""
    system: str
    """The game system's id (``lockedon``)."""
    ruleset: str
    """The ruleset the game is played in (``lockedon``; Zero!'s would be ``zero``)."""


@dataclass(frozen=True, slots=True)
class MissionPlan:
    """What the next mission's game is: everything the bot needs to open it.

    ``setup`` is an instance of the game system's ``setup_model``, ``options`` of its
    ``options_model`` (the lobby's record of the game), ``seats`` its seats as the
    lobby would hold them (seat, game side, the system's pick). ``seat_sides`` names
    the campaign side flying each seat, from which the bot seats the campaign's
    members (and computer players where a side has none)."""

    next: NextMission
    setup: BaseModel
    options: BaseModel
    seats: tuple[SeatPick, ...]
    seat_sides: Mapping[str, str]
    """Each seat of ``setup`` and the campaign side that flies it."""
    briefing: tuple[str, ...] = ()
    """Lines of the mission's briefing, revealed when the mission starts (the picks
    made in secret included): :class:`strings.Term` texts."""

    @property
    def number(self) -> int:
        return self.next.number

    @property
    def title(self) -> str:
        return self.next.title


class MissionState(StrEnum):
    """Where a mission of the sheet stands."""

    FLOWN = "flown"
    NEXT = "next"
    """The next mission (being prepared or being flown)."""
    AHEAD = "ahead"


@dataclass(frozen=True, slots=True)
class MissionRow:
    """One mission on the sheet."""

    number: int
    title: str
    state: MissionState
    vp: Mapping[str, int] = field(default_factory=dict)
    """The VP (or Campaign Points) each side scored, once flown."""
    note: str | None = None
    """What the scores came from (a :class:`strings.Term`): 'all destroyed', 'resigned'."""


@dataclass(frozen=True, slots=True)
class SheetTable:
    """A table of the system's own on the sheet (a squadron roster, the front line)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class CampaignResult:
    """How a campaign ended."""

    winner: str | None
    """The side with the better result; None for a draw or an abandoned campaign."""
    verdict: str
    """The result in words (a :class:`strings.Term`): each side's level of victory."""
    totals: Mapping[str, int]
    levels: Mapping[str, str] = field(default_factory=dict)
    """Each side's level on its victory chart (a :class:`strings.Term`)."""


@dataclass(frozen=True, slots=True)
class CampaignSheet:
    """The campaign as one side (or a spectator) may see it: what ``/campaign status``
    draws. Texts are :class:`strings.Term` texts (or printed titles)."""

    campaign: str
    title: str
    sides: tuple[SideInfo, ...]
    missions: tuple[MissionRow, ...]
    totals: Mapping[str, int]
    """The running totals by side."""
    total_label: str
    """What the totals count (a Term): 'VP', 'Campaign Points'."""
    next: tuple[str, ...] = ()
    """What comes next, in lines: the next mission's aircraft, the decisions awaited."""
    secrets: tuple[str, ...] = ()
    """The reader's own side's secret decisions not yet revealed (empty for others and
    for the spectators)."""
    tables: tuple[SheetTable, ...] = ()
    result: CampaignResult | None = None
    options: tuple[str, ...] = ()
    """The campaign's options in words (the scale)."""


@dataclass(frozen=True, slots=True)
class Happenings:
    """What a campaign resolved by itself between two of its states, for the
    campaign's thread: missions settled without a game (Eagles in the Sky's
    Encounters, a mission grounded by the weather), the Safe Return draws after a
    game, the end of a day. Texts are :class:`strings.Term` texts."""

    lines: tuple[str, ...] = ()
    sheet: bool = False
    """Worth the sheet's picture (a day ended)."""


class PilotFate(StrEnum):
    """Where a campaign pilot stands, in neutral words: each system maps its own
    (``PilotLog.status`` keeps the system's word)."""

    ACTIVE = "active"
    """Flies, or may fly, the next missions."""
    RECOVERING = "recovering"
    """Wounded: out of the missions until he recovers."""
    KILLED = "killed"
    MISSING = "missing"
    """Lost with his aircraft: killed or captured, the rules do not say which."""
    RETIRED = "retired"
    """Left the campaign alive (invalided home; his counter out of the draw)."""

    @property
    def gone(self) -> bool:
        """He flies no more mission of the campaign."""
        return self in (PilotFate.KILLED, PilotFate.MISSING, PilotFate.RETIRED)


@dataclass(frozen=True, slots=True)
class LogbookEntry:
    """One mission a pilot flew, once it is settled (never the one being prepared or
    flown: its outcome is not public yet)."""

    mission: int
    """The mission's number (the sheet's row)."""
    title: str
    aircraft: str
    """The aircraft he flew: its id in the game system's catalogue."""
    airframe: str = ""
    """The aircraft's own number in his unit, where the system numbers them."""
    seat: str | None = None
    """The seat of the mission's game that flew him: its label in that game (a key of
    the mission's ``MissionPlan.seat_sides``), by which the bot names the member who
    held it. None: the mission was settled without a game."""
    kills: int = 0
    """Enemy aircraft credited to him on this mission."""
    wounded: bool = False
    lost: bool = False
    """He did not come back from it (shot down, killed, missing)."""
    result: str = ""
    """What befell him, in the system's words (a :class:`strings.Term`)."""


@dataclass(frozen=True, slots=True)
class PilotLog:
    """A campaign pilot's logbook: who he is, the settled missions he flew, his fate.
    Texts are :class:`strings.Term` texts (names are names)."""

    id: str
    """Unique within the campaign, stable as it goes on (what ``/campaign logbook``
    names him by)."""
    name: str
    side: str
    """The campaign side he flies for."""
    missions: tuple[LogbookEntry, ...] = ()
    fate: PilotFate = PilotFate.ACTIVE
    status: str = ""
    """His state in the system's own words: 'Wounded, back on day 4', 'Shot down'."""
    rank: str = ""
    """His quality or skills in the system's words: 'Experienced', 'Skills A, CV'."""
    ace: bool = False
    """An ace in the system's own terms."""

    @property
    def kills(self) -> int:
        return sum(m.kills for m in self.missions)

    @property
    def wounds(self) -> int:
        return sum(1 for m in self.missions if m.wounded)


C = TypeVar("C")
"""A campaign system's state: plain data, JSON round-tripping (``dump_state``)."""
CA = TypeVar("CA")
"""A campaign system's action (its ``str`` is the canonical notation)."""


class CampaignSystem(Protocol[C, CA]):
    """What a game system's campaign game implements. Pure and deterministic given the
    state; nothing mutates its arguments. ``apply`` and ``absorb`` raise
    :class:`engine.core.errors.RuleViolation` (naming the rule) and change nothing."""

    system_id: str
    """The game system its missions are games of."""
    setup_model: type[BaseModel]
    """The pydantic model of a campaign's set-up: which campaign, and its options."""

    def campaigns(self) -> list[CampaignInfo]:
        """Every campaign this system offers."""
        ...

    def new_campaign(self, setup: Any, seed: int) -> C:
        """A new campaign. Raises :class:`engine.core.errors.SetupError`."""
        ...

    def sides(self, state: C) -> tuple[SideInfo, ...]: ...

    # --- between missions -------------------------------------------------------
    def pending(self, state: C) -> list[CampaignDecision]:
        """The decisions awaited before the next mission (empty while a mission is
        flown, once the next mission may start, and at the end)."""
        ...

    def legal_actions(self, state: C, side: str) -> list[CA]:
        """Every action ``side`` may take now."""
        ...

    def apply(self, state: C, side: str, action: CA) -> C: ...

    def default_action(self, state: C, side: str) -> CA:
        """What ``side`` decides when its deadline passes."""
        ...

    def computer_action(self, state: C, side: str, seed: int) -> CA:
        """What a computer player of ``side`` decides, following from ``seed`` (its own
        random stream, never the campaign's)."""
        ...

    def menu(self, state: C, side: str) -> Choice | None:
        """``side``'s decision as a menu: a tree of choices whose leaves are its legal
        actions' texts (a branch per step of a many-part decision, so no level holds
        more than a menu's 25 options), the top's label and placeholder saying what is
        decided (:class:`strings.Term` texts). None when it has nothing to decide."""
        ...

    def ask(self, decision: CampaignDecision) -> str:
        """What ``decision`` asks of its side, in words (a :class:`strings.Term`), for
        the ping in the campaign's thread."""
        ...

    def action_label(self, state: C, side: str, action: CA) -> str:
        """An action of ``side`` in words: what the player is told was chosen."""
        ...

    def parse_action(self, text: str) -> CA:
        """The action a canonical text names. Raises MalformedAction."""
        ...

    def opening(self, state: C) -> Happenings:
        """What the campaign's set-up resolved before any decision (Eagles in the
        Sky: the first day's missions and weather), told when the campaign starts."""
        ...

    def happenings(self, before: C, after: C) -> Happenings:
        """What the campaign resolved by itself from ``before`` to ``after`` (one
        decision applied or one outcome absorbed), as anyone may read it."""
        ...

    def public_text(self, state: C, entry: CampaignEntry) -> str:
        """An entry of the log as anyone may read it in ``state``: a secret decision
        masked until every side has decided (the mission it prepares then starts, its
        briefing naming them)."""
        ...

    # --- the missions -----------------------------------------------------------
    def next_mission(self, state: C) -> NextMission | None:
        """The next mission's number, title, attempt and game seed (None once over)."""
        ...

    def mission_ready(self, state: C) -> bool:
        """Every decision before the next mission is taken: it may be flown."""
        ...

    def mission_setup(self, state: C) -> MissionPlan:
        """The next mission's game. Raises RuleViolation unless ``mission_ready``."""
        ...

    def absorb(self, state: C, outcome: Outcome) -> C:
        """The campaign after the next mission's game ended with ``outcome``."""
        ...

    def abort_mission(self, state: C) -> C:
        """The campaign after the next mission's game was aborted (flown again)."""
        ...

    # --- reading ----------------------------------------------------------------
    def sheet(self, state: C, side: str | None) -> CampaignSheet:
        """The campaign as ``side`` (None: a spectator) may see it."""
        ...

    def result(self, state: C) -> CampaignResult | None:
        """The result, once the last mission is flown (None before)."""
        ...

    def is_over(self, state: C) -> bool: ...

    def logbook(self, state: C) -> tuple[PilotLog, ...]:
        """The pilots who carry over from mission to mission, as anyone may read them:
        only settled missions count (a mission being prepared or flown shows nothing
        of itself), nothing a sheet keeps secret. Empty for a campaign whose missions
        have no such pilots."""
        ...

    # --- storage ----------------------------------------------------------------
    def dump_state(self, state: C) -> dict[str, Any]: ...

    def load_state(self, data: Mapping[str, Any]) -> C: ...


def replay(
    system: CampaignSystem[C, Any], setup: Any, seed: int, log: Iterable[CampaignEntry]
) -> C:
    """The campaign's state after its log, from its set-up and seed: every decision
    applied, every outcome absorbed, every aborted game noted, in order."""
    state = system.new_campaign(setup, seed)
    for entry in log:
        state = replay_step(system, state, entry)
    return state


def replay_step(system: CampaignSystem[C, Any], state: C, entry: CampaignEntry) -> C:
    """The campaign's state after one more entry of its log."""
    if entry.kind is EntryKind.DECISION:
        if entry.side is None:
            raise ValueError("a decision entry needs its side")
        return system.apply(state, entry.side, system.parse_action(entry.text))
    if entry.kind is EntryKind.OUTCOME:
        return system.absorb(state, outcome_from_json(entry.text))
    return system.abort_mission(state)


def mission_seed(campaign_seed: int, mission: int, attempt: int) -> int:
    """A mission game's seed: 62 bits of ``sha256`` of the campaign's seed, the mission
    and the attempt. One-way, so the seed a finished game reveals (``/game verify``)
    tells nothing of the campaign's, which stays secret until the campaign ends."""
    text = f"tally-ho/campaign/mission-seed/v1:{campaign_seed}:{mission}:{attempt}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 2


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    """A game's typed outcome as plain JSON values (the verdict in English)."""
    return {
        "over": outcome.over,
        "winner": outcome.winner,
        "verdict": str(outcome.verdict),
        "vp": dict(outcome.vp),
        "rounds": outcome.rounds,
        "conceded": outcome.conceded,
        "fates": [
            {
                "ref": f.ref,
                "seat": f.seat,
                "side": f.side,
                "aircraft": f.aircraft,
                "fate": f.fate.value,
                "by": f.by,
                "damaged": f.damaged,
                "hits_taken": f.hits_taken,
                "hits_given": f.hits_given,
                "turn": f.turn,
                "record": dict(f.record),
            }
            for f in outcome.fates
        ],
    }


def outcome_text(outcome: Outcome) -> str:
    """The outcome as a campaign log stores it: canonical JSON text (keys sorted, no
    spaces), which :func:`outcome_from_json` reads back."""
    return json.dumps(outcome_to_json(outcome), sort_keys=True, separators=(",", ":"))


def outcome_from_json(data: Mapping[str, Any] | str) -> Outcome:
    """The outcome ``outcome_to_json`` wrote (or its JSON text)."""
    if isinstance(data, str):
        data = json.loads(data)
    assert isinstance(data, Mapping)
    fates: Sequence[Mapping[str, Any]] = data.get("fates", ())
    return Outcome(
        over=bool(data["over"]),
        winner=data.get("winner"),
        verdict=str(data.get("verdict", "")),
        vp={str(k): int(v) for k, v in dict(data.get("vp", {})).items()},
        rounds=int(data.get("rounds", 0)),
        conceded=data.get("conceded"),
        fates=tuple(
            AircraftFate(
                ref=f["ref"],
                seat=f["seat"],
                side=f["side"],
                aircraft=f["aircraft"],
                fate=Fate(f["fate"]),
                by=f.get("by"),
                damaged=bool(f.get("damaged", False)),
                hits_taken=int(f.get("hits_taken", 0)),
                hits_given=int(f.get("hits_given", 0)),
                turn=f.get("turn"),
                record=dict(f.get("record", {})),
            )
            for f in fates
        ),
    )
