"""The words of the Eagles in the Sky picture: the view's codes put in a reader's
language.

The view speaks in codes (``"M"``, ``"no_mans_land"``, ``"jammed"``); each table
here maps a code to its catalogue key (``picture.eagles.*`` in
``strings/<lang>/eagles-picture.yaml``), written out whole so the catalogue test sees
every key used. A code the tables do not know is not drawn rather than shown raw.
Aircraft names and refs stay as printed; a balloon's name is a word
(``picture.eagles.balloon``). No card is ever named: a spectator sees only counts.
"""

from __future__ import annotations

from engine.eagles.view import EaglesView, PlaneView
from rendering.eagles.colours import SIDE_MARKER
from strings import t

__all__ = ["ALTITUDES", "Words"]

ALTITUDES: dict[str, str] = {
    "H": "picture.eagles.altitude.high",
    "M": "picture.eagles.altitude.medium",
    "L": "picture.eagles.altitude.low",
    "T": "picture.eagles.altitude.treetop",
}
"""Altitude codes to words, from the top of the sky down (§11.11)."""

_SIDES = {"allied": "picture.eagles.side.allied", "german": "picture.eagles.side.german"}
_VERDICTS = {
    "allied": "picture.eagles.verdict.allied",
    "german": "picture.eagles.verdict.german",
}
_ZONES = {
    "allied_rear": "picture.eagles.zone.allied_rear",
    "allied_front": "picture.eagles.zone.allied_front",
    "no_mans_land": "picture.eagles.zone.no_mans_land",
    "german_front": "picture.eagles.zone.german_front",
    "german_rear": "picture.eagles.zone.german_rear",
}
"""The zone track, from the Allied rear to the German rear (§2.5, glossary)."""
_TYPES = {
    "patrol": "picture.eagles.type.patrol",
    "artillery_spotting": "picture.eagles.type.artillery_spotting",
    "photo_recon": "picture.eagles.type.photo_recon",
    "contact_patrol": "picture.eagles.type.contact_patrol",
    "trench_strafing": "picture.eagles.type.trench_strafing",
    "bombing": "picture.eagles.type.bombing",
    "airfield_attack": "picture.eagles.type.airfield_attack",
    "balloon_busting": "picture.eagles.type.balloon_busting",
}
_WEATHER = {
    "clear": "picture.eagles.weathers.clear",
    "cloudy": "picture.eagles.weathers.cloudy",
    "fog": "picture.eagles.weathers.fog",
    "rain": "picture.eagles.weathers.rain",
    "snow": "picture.eagles.weathers.snow",
    "extreme_cold": "picture.eagles.weathers.extreme_cold",
    "ice_storm": "picture.eagles.weathers.ice_storm",
    "strong_prevailing_winds": "picture.eagles.weathers.strong_prevailing_winds",
    "contrary_winds": "picture.eagles.weathers.contrary_winds",
    "strong_contrary_winds": "picture.eagles.weathers.strong_contrary_winds",
}
_EVENTS = {
    "none": "picture.eagles.events.none",
    "add_aircraft": "picture.eagles.events.add_aircraft",
    "add_aircraft*": "picture.eagles.events.add_aircraft_star",
    "add_aircraft_star": "picture.eagles.events.add_aircraft_star",
    "remove_aircraft": "picture.eagles.events.remove_aircraft",
    "clouds": "picture.eagles.events.clouds",
    "light_flak": "picture.eagles.events.light_flak",
    "heavy_flak": "picture.eagles.events.heavy_flak",
    "special": "picture.eagles.events.special",
}
_MONTHS = (
    "picture.eagles.month.january",
    "picture.eagles.month.february",
    "picture.eagles.month.march",
    "picture.eagles.month.april",
    "picture.eagles.month.may",
    "picture.eagles.month.june",
    "picture.eagles.month.july",
    "picture.eagles.month.august",
    "picture.eagles.month.september",
    "picture.eagles.month.october",
    "picture.eagles.month.november",
    "picture.eagles.month.december",
)
_RATINGS = {
    "climb": "picture.eagles.rating.climb",
    "dive": "picture.eagles.rating.dive",
    "speed": "picture.eagles.rating.speed",
    "agility": "picture.eagles.rating.agility",
}
_QUALITY = {
    "ace": "picture.eagles.ace",
    "leader": "picture.eagles.leader",
    "green": "picture.eagles.green",
    "inexperienced": "picture.eagles.inexperienced",
}
"""Pilot counters worth a word (§14.1); Experienced is the default, left unsaid."""
_KIND_NAMES = {"balloon": "picture.eagles.balloon"}
"""Kinds whose name is a word, not a printed aircraft name."""
HITS = {
    "structure": "picture.eagles.hit.structure",
    "wing": "picture.eagles.hit.wing",
    "control": "picture.eagles.hit.control",
    "engine": "picture.eagles.hit.engine",
}
"""Damage by kind (§10.83-10.86), in this order."""
_CLASSES = {
    "fragile": "picture.eagles.class.fragile",
    "normal": "picture.eagles.class.normal",
    "sturdy": "picture.eagles.class.sturdy",
    "armored": "picture.eagles.class.armored",
}
CREW = {
    ("pilot", "wounded"): "picture.eagles.crew.pilot_wounded",
    ("pilot", "killed"): "picture.eagles.crew.pilot_killed",
    ("gunner", "wounded"): "picture.eagles.crew.gunner_wounded",
    ("gunner", "killed"): "picture.eagles.crew.gunner_killed",
    ("front", "wounded"): "picture.eagles.crew.front_wounded",
    ("front", "killed"): "picture.eagles.crew.front_killed",
}
"""A crewman's state (§10.87); ``ok`` is left unsaid."""
GUNS = {
    ("fixed", "jammed"): "picture.eagles.guns.fixed_jammed",
    ("fixed", "broken"): "picture.eagles.guns.fixed_broken",
    ("rear", "jammed"): "picture.eagles.guns.rear_jammed",
    ("rear", "broken"): "picture.eagles.guns.rear_broken",
    ("front", "jammed"): "picture.eagles.guns.front_jammed",
    ("front", "broken"): "picture.eagles.guns.front_broken",
}
"""A gun group's state (jammed §10.71, broken §10.75) to words; ``ok`` is left
unsaid."""
_LEWIS = {
    "full": "picture.eagles.lewis_full",
    "low": "picture.eagles.lewis_low",
    "out": "picture.eagles.lewis_out",
}
"""A wing Lewis gun's ammunition (§15.4)."""
FATES = {
    "shot_down": "picture.eagles.fate.shot_down",
    "escaped": "picture.eagles.fate.escaped",
    "removed": "picture.eagles.fate.removed",
    "landed": "picture.eagles.fate.landed",
}
"""Why an aircraft left the mat, as the box of the lost shows it."""
_CAUSES = {
    "flak": "picture.eagles.cause.flak",
    "crash": "picture.eagles.cause.crash",
    "fog": "picture.eagles.cause.fog",
    "collision": "picture.eagles.cause.collision",
    "ground_fire": "picture.eagles.cause.ground_fire",
    "balloon_guns": "picture.eagles.cause.balloon_guns",
    "engine": "picture.eagles.cause.engine",
    "wings": "picture.eagles.cause.wings",
}
"""What downed an aircraft when no enemy did (``PlaneView.by``)."""


_EVERY_CANDIDATE = {"remove": "§5.1"}
"""Decisions whose ``chain`` lists candidates to choose from, not aircraft in turn."""


class Words:
    """The view's codes in ``language``."""

    def __init__(self, view: EaglesView, language: str) -> None:
        self.view = view
        self.language = language
        self.planes = {p.ref: p for p in view.planes}
        pending = view.pending
        focus: set[str | None] = set()
        if pending is not None:
            # The aircraft the decision is about: the attacker and its target, the
            # next to follow a climb or dive, the candidates to leave the mat.
            focus = {pending.actor, pending.target, *pending.chain[:1]}
            if pending.kind in _EVERY_CANDIDATE:
                focus |= set(pending.chain)
        self.focus = frozenset(ref for ref in focus if ref in self.planes)
        """The refs the pending decision is about: their tiles are outlined."""

    @property
    def over(self) -> bool:
        """The game is over: the engine waits on no decision any more."""
        return self.view.pending is None

    def word(self, key: str, **fields: object) -> str:
        return t(key, self.language, **fields)

    def maybe(self, table: dict[str, str], code: str | None, **fields: object) -> str | None:
        """The word of ``code`` in ``table``; None for an unknown code."""
        key = table.get(code or "")
        return None if key is None else self.word(key, **fields)

    # -- sides and aircraft -------------------------------------------------------------
    def side(self, side: str | None) -> str:
        return self.maybe(_SIDES, side) or ""

    def marked(self, side: str | None) -> str:
        """``● Allies``: a side's marker glyph, then its name."""
        return f"{SIDE_MARKER.get(side or '', '')} {self.side(side)}".strip()

    def named(self, p: PlaneView) -> bool:
        """Whether ``p`` is an aircraft with a printed name and a counter's ratings; a
        balloon is not (§15.2: it has no defence class to speak of either)."""
        return p.kind not in _KIND_NAMES

    def name(self, p: PlaneView) -> str:
        """An aircraft's name as printed; a balloon's in words."""
        return self.maybe(_KIND_NAMES, p.kind) or p.name

    def plane(self, ref: str | None) -> str:
        """``A1 Sopwith Camel``: the ref the players type, then the name."""
        p = self.planes.get(ref or "")
        return (ref or "") if p is None else f"{p.ref} {self.name(p)}"

    def pilot(self, p: PlaneView) -> str | None:
        """The pilot counter worth a word: an Ace or Flight Leader by name, a Green or
        Inexperienced pilot (§14.1)."""
        return self.maybe(_QUALITY, p.quality, name=p.leader or "")

    def defence(self, p: PlaneView) -> str:
        """The defence class left after damage (§10.83)."""
        cls = self.maybe(_CLASSES, p.defence)
        if cls is None:
            return self.word("picture.eagles.last_hit")
        return self.word("picture.eagles.defence", defence=cls)

    def lewis(self, p: PlaneView) -> str | None:
        return self.maybe(_LEWIS, p.lewis)

    def fate(self, p: PlaneView) -> tuple[str, str | None]:
        """An aircraft off the mat: its fate in capitals, and by whom or what."""
        fate = self.maybe(FATES, p.status) or ""
        by: str | None = None
        if p.by in self.planes:
            by = self.word("picture.eagles.by", who=self.plane(p.by))
        else:
            by = self.maybe(_CAUSES, p.by)
        return fate, by

    # -- the engagement -----------------------------------------------------------------
    def altitude(self, code: str | None) -> str:
        return self.maybe(ALTITUDES, code) or ""

    def zone(self, code: str) -> str:
        return self.maybe(_ZONES, code) or ""

    def zones(self) -> list[tuple[str, str]]:
        """The zone track: ``(code, name)`` from the Allied rear to the German rear."""
        return [(code, self.word(key)) for code, key in _ZONES.items()]

    def engagement_type(self) -> str | None:
        return self.maybe(_TYPES, self.view.engagement_type)

    def weather(self) -> str | None:
        return self.maybe(_WEATHER, self.view.weather)

    def event(self) -> str | None:
        return self.maybe(_EVENTS, self.view.event)

    def rating(self, code: str | None) -> str:
        return self.maybe(_RATINGS, code) or ""

    def month(self) -> str | None:
        """``April 1918`` from the view's ``1918-04``."""
        year, _, month = self.view.month.partition("-")
        if not month.isdigit() or not 1 <= int(month) <= 12:
            return None
        return self.word(
            "picture.eagles.month_year", month=self.word(_MONTHS[int(month) - 1]), year=year
        )

    def verdict(self) -> str:
        return self.maybe(_VERDICTS, self.view.winner) or self.word("picture.eagles.verdict.draw")
