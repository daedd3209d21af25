"""What one seat (or a spectator) may see of a Locked-On game.

:func:`engine.lockedon.present.build_view` builds these frozen models from the state.
They are the only way information leaves the engine: the bot's messages and the
pictures read views, never the state. A spectator's view (``viewer is None``) holds no
card of anyone, no deck order and no unrevealed altitude; a seat's view adds that
seat's own hand, its Aircraft Expertise cards, its secret pick and, while it attacks
with a missile, that missile's cards.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, InstanceOf

from engine.lockedon.components import Altitude, MissileType, Position, Range

__all__ = [
    "AircraftView",
    "EngagementView",
    "ExchangeView",
    "LaunchView",
    "LockedOnView",
    "MissileView",
    "MissionView",
    "PairRangeView",
    "PendingView",
    "RatingsView",
    "ResultView",
    "SiteView",
    "SkillView",
    "Text",
]

Text = InstanceOf[str]
"""A display text: a :class:`strings.Term` (kept as it is, so the bot can show it in
the reader's language) or a plain ``str`` (printed names)."""


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)


class MissileView(_View):
    id: str
    name: str
    type: MissileType
    count: int


class SkillView(_View):
    id: str
    name: str
    cost: int
    once_per_game: bool
    used: bool
    """A once-per-game skill already used (Gun Fighter, Alert, Lucky, Jink, Agile,
    Timely)."""


class RatingsView(_View):
    """Ratings now: the card, changed by skills and by the current altitude (L206-216)."""

    speed: int
    performance: int
    thrust_pre: int
    thrust_post: int
    ab_pre: int | None
    ab_post: int | None
    gun: int | None
    ew: int


class AircraftView(_View):
    seat: str
    side: str
    aircraft: str
    """Aircraft id in the data."""
    name: str
    """Designation as printed, e.g. ``F-15A Eagle``."""
    nation: str
    year: int
    value: int
    """Its VP in this dogfight."""
    altitude: Altitude | None
    """None while the secret starting altitude is hidden."""
    altitude_chosen: bool
    range: Range
    """Its own Range counter."""
    ratings: RatingsView
    afterburner_on: bool
    afterburner_counters: int
    """Afterburner counters not used yet."""
    missiles: tuple[MissileView, ...]
    countermeasures: int
    hand_count: int
    side_count: int
    """Aircraft Expertise cards left (L373)."""
    skills: tuple[SkillView, ...]
    destroyed: bool
    destroyed_by: str | None
    acted: bool
    """Has taken its turn this round."""
    hand: tuple[str, ...] | None = None
    """Card codes of the hand, only in the owner's view."""
    side_hand: tuple[str, ...] | None = None
    """Aircraft Expertise cards, only in the owner's view."""
    pick: Altitude | None = None
    """The owner's own secret altitude pick before the reveal."""


class EngagementView(_View):
    """``seat`` holds ``position`` (Advantaged or Tailing) on ``on``."""

    seat: str
    on: str
    position: Position


class PairRangeView(_View):
    """The range between two enemy aircraft (L189-193)."""

    a: str
    b: str
    range: Range


class ExchangeView(_View):
    """The Action being resolved and the reactions so far."""

    kind: str
    actor: str
    target: str | None
    speed: bool
    cards: tuple[Text, ...]
    """The Action's card (or "Speed Maneuvering", "Missile") and each reaction, in order."""
    waiting_on: str | None
    missile: str | None = None
    """The missile's name (a Tone or a missile attack)."""
    missiles: int = 0
    """Missiles launched (1, or 2 with a second missile, L387)."""
    mini_count: int = 0
    """Cards left in the missile's mini-hand."""
    mini: tuple[str, ...] | None = None
    """Those cards, only in the attacker's view."""


class LaunchView(_View):
    """A successful Tone: its attacker may launch (L248)."""

    seat: str
    target: str
    missile: str


class PendingView(_View):
    seat: str
    kind: str
    prompt: Text


class ResultView(_View):
    winner: str | None
    verdict: Text
    vp: dict[str, int]


class SiteView(_View):
    """A SAM/AAA site of a mission (L290-300): public, like its envelope."""

    id: str
    name: str
    """Its designation, e.g. ``SA-7``."""
    side: str
    """The side owning it."""
    ranges: tuple[Range, ...]
    """The aircraft Range counters it attacks at, closest first."""
    altitudes: tuple[Altitude, ...]
    """The Altitudes it attacks at, lowest first."""
    cards: int
    """Cards it draws at each check."""
    looks_for: tuple[str, ...]
    """``Tone`` and / or ``Guns``."""


class MissionView(_View):
    """The campaign mission the game is (L277-308)."""

    number: int
    title: str
    vp: dict[str, int]
    """The VP stated for each side (gained in full for destroying every enemy)."""
    names: dict[str, str] = {}
    """The nation each side flies for, when the campaign names them ('Israel')."""


class LockedOnView(_View):
    viewer: str | None
    """The seat this view is for; None for spectators."""
    round: int
    rounds: int
    step: Text
    """Human-readable step, e.g. ``Play cards``."""
    active: str | None
    sides: tuple[str, ...]
    """Sides in turn order."""
    aircraft: tuple[AircraftView, ...]
    engagements: tuple[EngagementView, ...]
    ranges: tuple[PairRangeView, ...]
    exchange: ExchangeView | None
    launch: LaunchView | None
    pending: tuple[PendingView, ...]
    deck_count: int
    discard_count: int
    missile_bonus: int
    """Extra cards for the active aircraft's next missile this turn (Break, Yo-Yo)."""
    speed_left: int
    """Speed Maneuvering points the active aircraft has left this turn."""
    vp: dict[str, int]
    result: ResultView | None
    mission: MissionView | None = None
    """The campaign mission; None for a dogfight."""
    sites: tuple[SiteView, ...] = ()
    """The mission's SAM/AAA sites, side by side."""
