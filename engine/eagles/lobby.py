"""An Eagles in the Sky lobby: the options ``/dogfight new`` asks, what one seat takes,
and the engagement's setup (:class:`~engine.eagles.setup.EaglesSetup`) made from them.

The options (§3.0): a historical scenario by number (§17.0; everything else then comes
from it; a system built over content packs offers theirs too, :func:`options_model`),
or an Engagement type (or ``draw``: Table E2, §3.31), the month (which
aircraft and Aces fly, §3.51, §18.0), the zone, the starting altitude and the
attacker (each None: the Engagement's, or drawn, §3.41, §3.7, §16.13), how the
Flights are formed (§3.51: ``choice``, ``cup`` with a number of Scouts or the §3.53
draw, ``points`` with a total), the weather (§3.8) and the per-aircraft rules (§13.7).

A seat takes its share of its side's Flight (§3.51 methods 1 and 3: Scouts in service
that month), and may name its Flight Leader or Ace (§3.6; else he is drawn). Several
seats of a side share its Flight and its one hand (§7): the setup joins their picks.
With the cup (method 2) a seat takes nothing (``cup``); in a scenario it names one of
the scenario's aircraft, only to say which it flies.

An attacker's mission aircraft (§16.4: the first type of the Engagement's list in
service that month, as many as it says) and a defender's balloon (§16.48) are added
here for an Engagement chosen by type; a drawn Engagement has none (the engine would
have to add them once it has drawn the type).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from engine.eagles.components import (
    Aircraft,
    EngagementType,
    FlightLeader,
    Scenario,
    Side,
    YearMonth,
    Zone,
)
from engine.eagles.historical import scenario_setup
from engine.eagles.loader import Components, load_scenarios
from engine.eagles.scenarios import MAX_NUMBER
from engine.eagles.setup import REVISION, EaglesSetup, PlaneSetup, SideSetup, month_ok
from strings import Term

__all__ = [
    "CUP",
    "ENGAGEMENTS",
    "MAX_SCOUTS",
    "METHODS",
    "SIDES",
    "EaglesOptions",
    "EaglesPick",
    "build_setup",
    "find_aircraft",
    "find_leader",
    "make_pick",
    "options_model",
    "parse_flight",
    "scenario_choice",
    "scenario_names",
]

SIDES = ("allied", "german")
EXTRAS = ("more", "leader", "mission", "pilots", "rating")
"""``/dogfight join``'s Eagles in the Sky extras."""
CUP = "cup"
"""The pick of a seat whose side's Scouts are drawn from the cup (§3.51 method 2)."""
MAX_SCOUTS = 6
"""Up to six Scouts a side (§3.53)."""
METHODS = ("choice", "cup", "points")
"""§3.51: 1) choose any Scout in service; 2) draw from the cup; 3) choose within a
points total."""
ENGAGEMENTS = (*(e.value for e in EngagementType), "draw")
"""``/dogfight new``'s engagement types, and ``draw`` (Table E2, §3.31)."""
_FLIGHT = re.compile(r"^\s*(choice|cup|points)\s*[:=]?\s*(\d+)?\s*$", re.IGNORECASE)


def scenario_names() -> dict[int, str]:
    """Each historical scenario's number and title (§17.0), from the shipped data."""
    return {n: sc.name for n, sc in load_scenarios().items()}


def scenario_choice(number: int, names: Mapping[int, str] | None = None) -> str:
    """How ``/dogfight new`` offers scenario ``number`` of ``names`` (None: the
    shipped ones): ``7 Fonck's Wager``."""
    return f"{number} {(scenario_names() if names is None else names)[number]}"


def parse_flight(text: str) -> tuple[str, int | None]:
    """``"cup 4"`` -> ``("cup", 4)``; ``"points 30"``; ``"choice"``; a bare number is
    that many Scouts from the cup."""
    words = text.strip().lower()
    if words.isdigit():
        return "cup", int(words)
    m = _FLIGHT.match(words)
    if m is None:
        raise ValueError(Term("eagles.ui.pick.flight_text", text=repr(text.strip()[:30])))
    return m.group(1).lower(), int(m.group(2)) if m.group(2) else None


class EaglesOptions(BaseModel):
    """What an Eagles in the Sky lobby agrees (§3.0, §17.0)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    SCENARIOS: ClassVar[Mapping[int, str] | None] = None
    """The scenarios a lobby may choose, number -> title: None for the shipped ones;
    the model of a system built over content packs (:func:`options_model`) has theirs."""

    scenario: int | None = Field(default=None, ge=1, le=MAX_NUMBER)
    """A historical scenario (§17.0) or a content pack's: it sets everything else."""
    engagement: str = "patrol"
    """An Engagement type (§16.11), or ``draw``: Table E2 (§3.31)."""
    month: str = "1918-04"
    """``1918-04``: which aircraft and Aces are in service (§3.51, §18.0)."""
    zone: str | None = None
    """A :class:`Zone` value; None: the Engagement's (the attacker's choice) or Table E5."""
    altitude: Literal["T", "L", "M", "H"] | None = None
    """None: the Engagement's, or Table E6 (§3.7)."""
    attacker: Literal["allied", "german"] | None = None
    """The mission player (§16.13); None: the Allies (a Patrol has none)."""
    method: Literal["choice", "cup", "points"] = "choice"
    """How the Flights are formed (§3.51)."""
    scouts: int | None = Field(default=None, ge=1, le=MAX_SCOUTS)
    """``cup``: Scouts drawn a side; None: the §3.53 draw."""
    points: int | None = Field(default=None, ge=1, le=200)
    """``points``: each side's total (§3.51 method 3)."""
    weather: bool = False
    """Draw the weather (§3.8, optional)."""
    aircraft_rules: bool = True
    """The optional per-aircraft rules (§13.7)."""

    @field_validator("scenario", mode="before")
    @classmethod
    def _scenario(cls, v: Any) -> Any:
        """A number, or the scenario's name as ``/dogfight new`` offers it ("7 Fonck's
        Wager"), or enough of its name ("fonck"), of one of the model's scenarios."""
        if v is None:
            return v
        names = scenario_names() if cls.SCENARIOS is None else cls.SCENARIOS
        text = str(v).strip()
        head = text.split(" ", 1)[0]
        if isinstance(v, int) or head.isdigit():
            number = v if isinstance(v, int) else int(head)
            found = [number] if number in names else []
        else:
            found = [n for n, name in names.items() if _squash(text) in _squash(name)]
        if len(found) != 1:
            raise ValueError(Term("eagles.ui.pick.scenario_text", text=repr(text[:30])))
        return found[0]

    @model_validator(mode="before")
    @classmethod
    def _flight(cls, data: Any) -> Any:
        """``flight`` (what ``/dogfight new`` asks) into ``method`` and its number."""
        if not isinstance(data, Mapping) or "flight" not in data:
            return data
        out = dict(data)
        text = out.pop("flight")
        if text is None:
            return out
        method, n = parse_flight(str(text))
        out["method"] = method
        if method == "cup":
            out["scouts"] = n
        elif method == "points":
            if n is None:
                raise ValueError(Term("eagles.ui.pick.points_needed"))
            out["points"] = n
        return out

    @field_validator("month")
    @classmethod
    def _month(cls, v: str) -> str:
        v = v.strip()
        m = re.fullmatch(r"(\d{4})-(\d{1,2})", v)
        if m:
            v = f"{m.group(1)}-{int(m.group(2)):02d}"
        if not month_ok(v):
            raise ValueError(Term("eagles.ui.pick.month_text", text=repr(v[:12])))
        return v

    @field_validator("engagement")
    @classmethod
    def _engagement(cls, v: str) -> str:
        if v not in ENGAGEMENTS:
            raise ValueError(Term("eagles.ui.pick.engagement_text", text=repr(v[:30])))
        return v

    @field_validator("zone")
    @classmethod
    def _zone(cls, v: str | None) -> str | None:
        if v is not None and v not in {z.value for z in Zone}:
            raise ValueError(Term("eagles.ui.pick.zone_text", text=repr(v[:30])))
        return v

    @model_validator(mode="after")
    def _consistent(self) -> EaglesOptions:
        if self.method == "points" and self.points is None:
            raise ValueError(Term("eagles.ui.pick.points_needed"))
        return self

    @property
    def when(self) -> YearMonth:
        return YearMonth.from_text(self.month)

    @property
    def drawn(self) -> bool:
        """The Engagement type is drawn at the start (Table E2)."""
        return self.scenario is None and self.engagement == "draw"


def options_model(scenarios: Mapping[int, Scenario]) -> type[EaglesOptions]:
    """The options of a lobby of a system with these scenarios (the shipped ones and
    its content packs'): :class:`EaglesOptions` choosing among them."""
    names = MappingProxyType({n: sc.name for n, sc in scenarios.items()})
    return type("EaglesOptions", (EaglesOptions,), {"SCENARIOS": names, "__module__": __name__})


class EaglesPick(BaseModel):
    """What one seat takes: its share of the side's Flight (aircraft ids, §3.51; empty
    with the cup) and the Flight Leader or Ace it names (§3.6, §18.0; None: drawn)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    aircraft: tuple[str, ...] = ()
    leader: str | None = None
    mission: str | None = None
    """The attacker's mission aircraft type (§16.4: "one of any of the following
    types"); None: drawn among those in service, or left out where the attacker "may
    elect to include" them."""
    pilots: tuple[Literal["green", "inexperienced"], ...] = ()
    """Pilot qualities of the seat's Scouts after its leader, in order (§14.1); the
    rest are Experienced."""
    rating: Literal["leadership", "flying"] | None = None
    """Which of the leader's ratings sets the hand size where either may: a Flight of
    the leader and one Scout (§7.11). None: the larger."""

    @field_validator("aircraft", mode="before")
    @classmethod
    def _one(cls, v: object) -> object:
        if isinstance(v, str):
            return () if v == CUP else (v,)
        return v


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def find_aircraft(aircraft: Mapping[str, Aircraft], word: str) -> str | None:
    """The id of the aircraft a player named by id or printed name (``se5a``, ``SE 5a``)."""
    key = _squash(word)
    if not key:
        return None
    for ac in aircraft.values():
        if key in (_squash(ac.id), _squash(ac.name)):
            return ac.id
    found = [ac.id for ac in aircraft.values() if key in _squash(ac.id + ac.name)]
    return found[0] if len(found) == 1 else None


def find_leader(leaders: Mapping[str, FlightLeader], word: str) -> str | None:
    """The id of the Flight Leader or Ace a player named (``luke``, ``Frank Luke``)."""
    key = _squash(word)
    if not key:
        return None
    for lead in leaders.values():
        if key in (_squash(lead.id), _squash(lead.name)):
            return lead.id
    found = [lead.id for lead in leaders.values() if key in _squash(lead.name)]
    return found[0] if len(found) == 1 else None


def parse_more(aircraft: Mapping[str, Aircraft], text: str) -> tuple[str, ...]:
    """``"camel, camel"`` or ``"camel x2, se5a"`` -> the aircraft ids, in order."""
    out: list[str] = []
    for part in re.split(r"[,;]", text):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(.+?)\s*(?:[x×*]\s*(\d))?", part, re.IGNORECASE)
        name, count = (m.group(1), int(m.group(2) or 1)) if m else (part, 1)
        found = find_aircraft(aircraft, name)
        if found is None or not 1 <= count <= MAX_SCOUTS:
            raise ValueError(Term("eagles.ui.pick.unknown_aircraft", aircraft=repr(part[:30])))
        out.extend([found] * count)
    return tuple(out)


class JoinExtras(BaseModel):
    """``/dogfight join``'s extras, parsed (validate with ``context={"aircraft": ...,
    "leaders": ...}``, the engine's catalogues): a mistake is a ValidationError whose
    message is a :class:`strings.Term`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    more: tuple[str, ...] = ()
    leader: str | None = None
    mission: str | None = None
    pilots: tuple[Literal["green", "inexperienced"], ...] = ()
    rating: Literal["leadership", "flying"] | None = None

    @model_validator(mode="before")
    @classmethod
    def _typed(cls, data: Any, info: ValidationInfo) -> Any:
        if not isinstance(data, Mapping):
            return data
        context = info.context or {}
        out = {k: v for k, v in data.items() if v not in (None, "")}
        if isinstance(out.get("more"), str):
            out["more"] = parse_more(context["aircraft"], out["more"])
        if isinstance(out.get("leader"), str):
            found = find_leader(context["leaders"], out["leader"])
            if found is None:
                raise ValueError(
                    Term("eagles.ui.pick.unknown_leader", leader=repr(out["leader"][:30]))
                )
            out["leader"] = found
        if isinstance(out.get("mission"), str):
            found = find_aircraft(context["aircraft"], out["mission"])
            if found is None:
                raise ValueError(
                    Term("eagles.ui.pick.unknown_aircraft", aircraft=repr(out["mission"][:30]))
                )
            out["mission"] = found
        if isinstance(out.get("pilots"), str):
            out["pilots"] = parse_pilots(out["pilots"])
        if isinstance(out.get("rating"), str):
            word = out["rating"].strip().lower()
            if word not in ("leadership", "flying"):
                raise ValueError(Term("eagles.ui.pick.rating_text", text=repr(word[:20])))
            out["rating"] = word
        return out


_PILOT = re.compile(r"^(green|inexperienced)(?:\s*[x×]\s*(\d))?$")


def parse_pilots(text: str) -> tuple[Literal["green", "inexperienced"], ...]:
    """``"green, inexperienced x2"`` -> the qualities in order (§14.2-14.3)."""
    out: list[Literal["green", "inexperienced"]] = []
    for word in re.split(r"[,;]", text.lower()):
        word = word.strip()
        if not word:
            continue
        m = _PILOT.match(word)
        if m is None:
            raise ValueError(Term("eagles.ui.pick.pilots_text", text=repr(word[:20])))
        quality: Literal["green", "inexperienced"] = (
            "green" if m.group(1) == "green" else "inexperienced"
        )
        out.extend([quality] * int(m.group(2) or 1))
    return tuple(out)


def make_pick(
    aircraft: Mapping[str, Aircraft],
    leaders: Mapping[str, FlightLeader],
    first: str,
    fields: Mapping[str, Any],
) -> EaglesPick:
    """A seat's pick from the aircraft it named (``cup``: none) and the typed extras
    (``more``: ``camel x2, se5a``; ``leader``: ``Luke``). Raises ValidationError."""
    extras = JoinExtras.model_validate(
        {k: v for k, v in fields.items() if k in EXTRAS},
        context={"aircraft": aircraft, "leaders": leaders},
    )
    chosen = () if first == CUP else (first,)
    return EaglesPick(
        aircraft=(*chosen, *extras.more),
        leader=extras.leader,
        mission=extras.mission,
        pilots=extras.pilots,
        rating=extras.rating,
    )


# ---------------------------------------------------------------- the setup
def build_setup(
    components: Components,
    options: EaglesOptions,
    seats: Sequence[tuple[str, str, EaglesPick]],
) -> EaglesSetup:
    """The setup of a game from its options and its ``(seat, side, pick)`` in joining
    order."""
    by_side: dict[str, list[tuple[str, EaglesPick]]] = {s: [] for s in SIDES}
    for seat, side, pick in seats:
        by_side[side].append((seat, pick))
    names = {side: tuple(seat for seat, _ in mine) for side, mine in by_side.items()}
    if options.scenario is not None:
        return scenario_setup(components, options.scenario, names)
    etype = None if options.drawn else EngagementType(options.engagement)
    attacker = options.attacker
    if etype is not None and etype is not EngagementType.PATROL and attacker is None:
        attacker = "allied"
    if etype is EngagementType.PATROL:
        attacker = None
    sides: dict[str, SideSetup] = {}
    for side in SIDES:
        planes: list[PlaneSetup] = []
        for _, pick in by_side[side]:
            qualities = list(pick.pilots)
            for i, ac in enumerate(pick.aircraft):
                lead = pick.leader if i == 0 else None
                quality = "experienced"
                if lead is not None:
                    quality = "ace" if components.leaders[lead].ace else "leader"
                elif qualities:
                    quality = qualities.pop(0)
                planes.append(PlaneSetup(aircraft=ac, leader=lead, quality=quality))
        cup = 0
        draw_size = False
        if options.method == "cup":
            cup = options.scouts or 0
            draw_size = options.scouts is None
            lead = next((p.leader for _, p in by_side[side] if p.leader), None)
        else:
            lead = None
        named = next((p.mission for _, p in by_side[side] if p.mission), None)
        planes.extend(_mission(components, options, etype, attacker, side, named))
        pilots = [q for _, p in by_side[side] if not p.aircraft for q in p.pilots]
        sides[side] = SideSetup(
            seats=names[side],
            planes=tuple(planes),
            cup=cup,
            draw_size=draw_size,
            leader=lead,
            hand_rating=next((p.rating for _, p in by_side[side] if p.rating), None),
            pilots={q: pilots.count(q) for q in dict.fromkeys(pilots)},
        )
    return EaglesSetup(
        engagement=etype.value if etype is not None else None,
        attacker=attacker,
        month=options.month,
        zone=options.zone,
        altitude=options.altitude,
        weather="draw" if options.weather else None,
        allied=sides["allied"],
        german=sides["german"],
        aircraft_rules=options.aircraft_rules,
        revision=REVISION,
    )


def _mission(
    components: Components,
    options: EaglesOptions,
    etype: EngagementType | None,
    attacker: str | None,
    side: str,
    named: str | None,
) -> list[PlaneSetup]:
    """The attacker's mission aircraft of the type a seat named (§16.4: the attacker
    chooses). None named: nothing here; the engine draws the type among those in
    service and leaves out the ones the attacker "may elect to include"."""
    if etype is None or attacker is None or side != attacker or named is None:
        return []
    mission = components.tables.engagement(etype).mission(Side(side))
    if mission is None:
        return []
    return [
        PlaneSetup(aircraft=named, mission=True, bombs=mission.bombs) for _ in range(mission.count)
    ]
