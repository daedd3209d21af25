"""Locked-On campaign sheets: the data of "Playing a Campaign" (L269-314).

A campaign sheet (``data/lockedon/campaigns/<id>.yaml``) lists its two nations
(nation #1 first, as on each Mission circle, L279), its missions in numbered order
and each nation's Victory Point chart (L313). Each Mission circle gives, for each
nation, the VP it gains if it destroys every enemy aircraft, its aircraft, two
skill Options of which it secretly selects one, its Special Conditions (skills every
aircraft of the nation has, L311) and nation #2's SAM/AAA sites (L293-300).

Only Yom Kippur's mission #1 and chart results are printed (L300, L309, L314); the
rest is authored, with its sources, in ``data/lockedon/SOURCES.md``. A server's content
pack may add sheets, or replace one, in exactly this schema (its ``lockedon: campaigns:``
section, :func:`campaigns_with`): the shipped sheets are the first layer.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from enum import StrEnum
from importlib import resources
from pathlib import Path
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.dataload import DATA_PACKAGE, DataError, parse_model
from engine.core.packs import Pack, extend, placed_problems
from engine.lockedon.components import Rating, SkillKind
from engine.lockedon.loader import SYSTEM_DIR, Components, load_components

__all__ = [
    "CAMPAIGNS_DIR",
    "Campaign",
    "Level",
    "Mission",
    "MissionAircraft",
    "Nation",
    "NationMission",
    "VictoryStep",
    "campaigns_with",
    "check_campaign",
    "load_campaigns",
    "shipped_campaigns",
]

CAMPAIGNS_DIR = "campaigns"
_SECTION = "campaigns"
"""A content pack's section of campaign sheets (``lockedon: campaigns:``)."""


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Level(StrEnum):
    """A level on a campaign's Victory Point chart, best first. The book names two
    (L314: 'Tactical Victory', 'Operational Victory'); the other two are ours."""

    STRATEGIC = "strategic"
    OPERATIONAL = "operational"
    TACTICAL = "tactical"
    NONE = "none"
    """Below the chart's lowest step: no victory."""

    @property
    def rank(self) -> int:
        return list(Level).index(self)


class VictoryStep(_Data):
    """A step of a nation's chart: ``min`` VP or more is ``level``."""

    min: int = Field(ge=0)
    level: Level


class Nation(_Data):
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    name: str
    """As printed on the sheet ('Israel'): a name, not translated."""


class MissionAircraft(_Data):
    aircraft: str
    """An aircraft id of ``data/lockedon/aircraft.yaml``."""
    count: int = Field(default=1, ge=1, le=4)


class NationMission(_Data):
    """One nation's half of a Mission circle (L283-293)."""

    vp: int = Field(ge=0)
    """Gained for destroying every enemy aircraft; apportioned otherwise (L307)."""
    aircraft: tuple[MissionAircraft, ...] = Field(min_length=1)
    options: tuple[str, str]
    """The two skill Options (skill ids); one is selected secretly (L286)."""
    picks: int = Field(default=1, ge=1, le=4)
    """How many Options the nation selects (1 on every printed circle; x the scale)."""
    special: tuple[str, ...] = ()
    """Special Condition skills: every aircraft of the nation has them (L311)."""
    ratings: dict[str, dict[Rating, int]] = Field(default_factory=dict)
    """For a Special Condition skill that changes chosen ratings (Newbie, Green...,
    L317), the ratings the sheet changes: ``{newbie: {speed: -1, performance: -1}}``."""
    sites: tuple[str, ...] = ()
    """Special Condition sites (SAM/AAA ids of ``data/lockedon/sites.yaml``)."""
    note: str = ""
    """Any other Special Condition, in words (authored: shown on the briefing)."""


class Mission(_Data):
    number: int = Field(ge=1)
    title: str
    """Does not affect play (L282)."""
    turns: int = Field(default=6, ge=1, le=20)
    """Six unless stated (L273)."""
    year: int | None = None
    """The year the mission is flown (its aircraft's and missiles' service)."""
    nations: dict[str, NationMission]
    """Both nations' halves, keyed by nation id."""


class Campaign(_Data):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    years: str
    """'1973'."""
    summary: str
    """One line: theatre and what it covers."""
    nations: tuple[Nation, Nation]
    """Nation #1 first (the top of each Mission circle, L279)."""
    notes: tuple[str, ...] = ()
    """Campaign Notes (L275)."""
    victory: dict[str, tuple[VictoryStep, ...]]
    """Each nation's Victory Point chart (L313), best level first."""
    missions: tuple[Mission, ...] = Field(min_length=1)
    printed: tuple[str, ...] = ()
    """Which values the rulebook prints (for SOURCES.md and the tests), in words."""

    @model_validator(mode="after")
    def _consistent(self) -> Campaign:
        ids = [n.id for n in self.nations]
        if len(set(ids)) != 2:
            raise ValueError("the two nations need different ids")
        numbers = [m.number for m in self.missions]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError(f"missions must be numbered 1, 2, 3... in order, not {numbers}")
        for m in self.missions:
            if set(m.nations) != set(ids):
                raise ValueError(f"mission #{m.number} must give exactly the nations {ids}")
        if set(self.victory) != set(ids):
            raise ValueError(f"a victory chart is needed for each nation {ids}")
        for nation, steps in self.victory.items():
            mins = [s.min for s in steps]
            if not steps or mins != sorted(mins, reverse=True) or len(set(mins)) != len(mins):
                raise ValueError(f"{nation}'s victory chart must run from the highest VP down")
            levels = [s.level.rank for s in steps]
            if levels != sorted(levels) or len(set(levels)) != len(levels):
                raise ValueError(f"{nation}'s victory chart must run from the best level down")
        return self

    def nation(self, nation_id: str) -> Nation:
        for n in self.nations:
            if n.id == nation_id:
                return n
        raise KeyError(nation_id)

    def level(self, nation_id: str, vp: int) -> Level:
        """The level ``vp`` reaches on ``nation_id``'s chart (L313)."""
        for step in self.victory[nation_id]:
            if vp >= step.min:
                return step.level
        return Level.NONE


def check_campaign(campaign: Campaign, data: Components) -> list[str]:
    """What in ``campaign`` names something the game data lacks (an aircraft, a skill,
    a site), or asks what the rules forbid; empty when it may be played. Each problem
    is ``<field path>: <message>`` (``missions[0].nations.israel.aircraft[1].aircraft:
    unknown aircraft 'f-99'``), the path in the sheet's schema."""
    problems: list[str] = []
    for i, m in enumerate(campaign.missions):
        for nation, half in m.nations.items():
            problems += [
                f"missions[{i}].nations.{nation}.{where}: {what}"
                for where, what in _half_problems(half, m.year, data)
            ]
    return problems


def _half_problems(
    half: NationMission, year: int | None, data: Components
) -> list[tuple[str, str]]:
    """One nation's half of a Mission circle checked against ``data``: (field, problem)."""
    problems: list[tuple[str, str]] = []
    for k, a in enumerate(half.aircraft):
        where = f"aircraft[{k}].aircraft"
        if a.aircraft not in data.aircraft:
            problems.append((where, f"unknown aircraft {a.aircraft!r}"))
        elif year is not None and data.aircraft[a.aircraft].year > year:
            problems.append((where, f"{a.aircraft} is not in service in {year}"))
    named = [(f"options[{k}]", s) for k, s in enumerate(half.options)]
    named += [(f"special[{k}]", s) for k, s in enumerate(half.special)]
    for where, skill in named:
        if skill not in data.skills:
            problems.append((where, f"unknown skill {skill!r}"))
    for k, skill in enumerate(half.special):
        rated = skill in data.skills and data.skills[skill].kind is SkillKind.RATINGS
        if rated and skill not in half.ratings:
            problems.append((f"special[{k}]", f"Special Condition {skill!r} needs its ratings"))
    for skill in half.ratings:
        if skill not in half.special:
            problems.append(
                (f"ratings.{skill}", "ratings for a skill that is not a Special Condition")
            )
    for k, skill in enumerate(half.options):
        if skill in data.skills and data.skills[skill].kind is SkillKind.RATINGS:
            # the ratings such a skill changes are the player's choice (L317): a
            # secret selection of Options names skills only
            problems.append((f"options[{k}]", f"{skill!r} changes chosen ratings: not an Option"))
    if set(half.options) & set(half.special):
        problems.append(("options", "an Option is also a Special Condition"))
    if half.options[0] == half.options[1]:
        problems.append(("options", "the two Options are the same skill"))
    for k, site in enumerate(half.sites):
        if site not in data.sites:
            problems.append((f"sites[{k}]", f"unknown site {site!r}"))
    if half.picks > sum(a.count for a in half.aircraft):
        problems.append(("picks", "more Options selected than aircraft"))
    return problems


def load_campaigns(source: Path | str | None = None) -> dict[str, Campaign]:
    """Every campaign of a directory of ``<id>.yaml`` sheets (default: the shipped
    ``data/lockedon/campaigns/``), keyed by id, in file-name order. Raises DataError."""
    if source is None:
        return dict(shipped_campaigns())
    folder = Path(source)
    found: dict[str, Campaign] = {}
    for path in sorted(folder.glob("*.yaml")):
        _add(found, path.name, _parse(path.name, path.read_text("utf-8")))
    return found


def _parse(name: str, text: str) -> Campaign:
    return parse_model(name, text, Campaign, "a campaign sheet (id, title, nations, missions)")


def _add(found: dict[str, Campaign], name: str, campaign: Campaign) -> None:
    if campaign.id in found:
        raise DataError(name, [f"id: a second campaign with the id {campaign.id!r}"])
    if name.removesuffix(".yaml") != campaign.id:
        raise DataError(name, [f"id: campaign {campaign.id!r} must be in {campaign.id}.yaml"])
    found[campaign.id] = campaign


@functools.cache
def shipped_campaigns() -> Mapping[str, Campaign]:
    """The shipped campaigns, checked against the shipped game data."""
    folder = resources.files(DATA_PACKAGE).joinpath(SYSTEM_DIR, CAMPAIGNS_DIR)
    found: dict[str, Campaign] = {}
    entries = sorted(
        (e for e in folder.iterdir() if e.name.endswith(".yaml")), key=lambda e: e.name
    )
    for entry in entries:
        _add(found, entry.name, _parse(entry.name, entry.read_text(encoding="utf-8")))
    data = load_components()
    problems = [f"{c.id}.yaml: {p}" for c in found.values() for p in check_campaign(c, data)]
    if problems:
        raise DataError(CAMPAIGNS_DIR, problems)
    return MappingProxyType(found)


def campaigns_with(packs: Sequence[Pack], data: Components) -> dict[str, Campaign]:
    """The shipped campaigns with each content pack's ``lockedon.campaigns`` entries
    laid over them in turn (keyed by id: a new id is added, ``override: true`` replaces
    a shipped or earlier pack's campaign), each entry validated as a shipped sheet is
    (the same :class:`Campaign`), then every campaign checked against ``data``: the
    components built over the same packs (a pack's campaign may fly a pack's aircraft;
    a pack's aircraft may not break a shipped campaign). Raises :class:`DataError`
    naming the last pack's file and, for each problem, the campaign's place: its
    section and entry (``lockedon.campaigns[0]``, after ``pack 'name'`` for an earlier
    pack's) or ``built-in campaign <id>``, then the field."""
    if not packs:
        return dict(shipped_campaigns())
    sheets = extend(shipped_campaigns(), packs, SYSTEM_DIR, _SECTION, Campaign)
    problems = placed_problems(
        packs, SYSTEM_DIR, _SECTION, "built-in campaign", sheets, lambda c: check_campaign(c, data)
    )
    if problems:
        raise DataError(packs[-1].file, problems)
    return sheets
