"""Zero!'s Pilot and Crew counters and the cup they are drawn from (§19).

A counter has a pilot (or crew) on each side (§19.24c); a side with skills is a
Skilled Pilot (§19.22), one without is an Unskilled Pilot, discarded when drawn. A
counter flies only aircraft of its nationality and, for U.S. and Japanese counters,
its service (§19.21); a counter with an aircraft type flies only that type, any of
its models (§19.23). Crews go on Heavy Bombers, one drawn for every three (§19.34).

The counters are ``data/dif/campaign/pilots.yaml`` (:class:`PilotBook`); almost all
are AUTHORED (``data/dif/SOURCES.md``, "Zero! pilot and crew counters"). The draws
take a :data:`Picker` (the campaign's seeded RNG, or fixed draws for the §19.24
example), so a campaign replays exactly.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field, model_validator

from engine.core.dataload import DataError, pack_picker, parse_model, read_shipped
from engine.core.rng import Rng
from engine.dif.campaign_cards import Role, Service
from engine.dif.campaign_targets import ID, Frozen, check_printed
from engine.dif.components import Aircraft
from engine.dif.mission import CrewSkill, PilotSetup

__all__ = [
    "PILOTS_FILE",
    "PILOT_SKILLS",
    "CounterSide",
    "CrewCounter",
    "Drawn",
    "Picker",
    "PilotBook",
    "PilotCounter",
    "choose_crews",
    "choose_pilots",
    "load_pilots",
    "pilot_cup",
    "rng_picker",
    "shipped_pilots",
]

PILOTS_FILE = "campaign/pilots.yaml"
PILOT_SKILLS = frozenset({"A", "BM", "BV", "CV", "D", "G", "H", "P", "S"})
"""A Skilled Pilot's letters (§19.25)."""


class CounterSide(Frozen):
    """One side of a counter: the man's name and his skill letters (none: unskilled)."""

    name: str = Field(min_length=1, max_length=40)
    skills: tuple[str, ...] = ()

    @property
    def skilled(self) -> bool:
        return bool(self.skills)


def _two_sides(sides: tuple[CounterSide, ...]) -> None:
    if len(sides) != 2:
        raise ValueError("sides: a counter has two (§19.24c)")


class PilotCounter(Frozen):
    """A Pilot counter (§19.2)."""

    id: str = Field(pattern=ID)
    nation: str = Field(min_length=1, description="as the aircraft cards name it: 'Japan'")
    service: Service | None = Field(default=None, description="U.S. and Japanese only (§19.21)")
    aircraft: str | None = Field(
        default=None, pattern=ID, description="the aircraft type it flies, any model (§19.23)"
    )
    sides: tuple[CounterSide, ...]
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _counter(self) -> PilotCounter:
        _two_sides(self.sides)
        for side in self.sides:
            unknown = set(side.skills) - PILOT_SKILLS
            if unknown:
                raise ValueError(f"sides: {sorted(unknown)} are no pilot skills (§19.25)")
        check_printed(self, self.printed)
        return self


class CrewCounter(Frozen):
    """A Crew counter for Heavy Bombers (§19.3)."""

    id: str = Field(pattern=ID)
    nation: str = Field(min_length=1)
    aircraft: str | None = Field(default=None, pattern=ID, description="its type (§19.33)")
    cup: bool = Field(
        default=True, description="False: only given by a Mission Target, never drawn (§19.24)"
    )
    sides: tuple[CounterSide, ...]
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _counter(self) -> CrewCounter:
        _two_sides(self.sides)
        for side in self.sides:
            unknown = set(side.skills) - {s.value for s in CrewSkill}
            if unknown:
                raise ValueError(f"sides: {sorted(unknown)} are no crew skills (§19.35)")
        check_printed(self, self.printed)
        return self


class PilotBook(Frozen):
    """Every Pilot and Crew counter, and the service of each fighter type."""

    fighter_services: dict[str, Service] = Field(
        description="fighter id -> its air arm: fighter cards name none (§19.21)"
    )
    pilots: tuple[PilotCounter, ...] = Field(min_length=1)
    crews: tuple[CrewCounter, ...] = ()

    @model_validator(mode="after")
    def _ids(self) -> PilotBook:
        ids = [c.id for c in self.pilots] + [c.id for c in self.crews]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"ids {twice} used twice")
        return self

    def service(self, aircraft: Aircraft) -> Service | None:
        """The aircraft's air arm: its card's, or the fighter table's."""
        return aircraft.service or self.fighter_services.get(aircraft.id)

    def crew(self, id_: str) -> CrewCounter:
        return next(c for c in self.crews if c.id == id_)

    @property
    def counters(self) -> frozenset[str]:
        """Every Pilot and Crew counter's id."""
        return frozenset([c.id for c in self.pilots] + [c.id for c in self.crews])


def _same_type(limit: str | None, aircraft: Aircraft, catalogue: Mapping[str, Aircraft]) -> bool:
    return limit is None or catalogue[limit].type_name == aircraft.type_name


def pilot_cup(
    book: PilotBook,
    aircraft: Aircraft,
    catalogue: Mapping[str, Aircraft],
    out: frozenset[str] = frozenset(),
) -> list[str]:
    """The counters eligible to fly ``aircraft`` (§19.21, §19.23, §19.24a), ``out``
    (lost, on another aircraft, discarded) left out, in the file's order."""
    service = book.service(aircraft)
    return [
        c.id
        for c in book.pilots
        if c.id not in out
        and c.nation == aircraft.nation
        and (c.service is None or c.service is service)
        and _same_type(c.aircraft, aircraft, catalogue)
    ]


Picker = Callable[[Sequence[str]], tuple[str, int]]
"""Draws a counter from a cup (a list of counter ids) and flips it: (id, side 0/1)."""


def rng_picker(rng: Rng) -> Picker:
    """Draws with the campaign's RNG (§19.24b-c): a counter, then a coin for its side."""

    def pick(cup: Sequence[str]) -> tuple[str, int]:
        counter = cup[rng.below(len(cup))]
        return counter, 0 if rng.coin() else 1

    return pick


@dataclass(frozen=True, slots=True)
class Drawn:
    """A counter drawn for a Leader (or a Heavy Bomber), the side that landed face up."""

    seat: str
    counter: str
    side: int
    name: str
    skills: tuple[str, ...]
    kept: bool
    """A Skilled Pilot placed on the aircraft; False: discarded (§19.24d)."""

    def setup(self) -> PilotSetup:
        return PilotSetup(name=self.name, skills=self.skills)


def _drawn(seat: str, counter: str, face: int, sides: tuple[CounterSide, ...]) -> Drawn:
    side = sides[face]
    return Drawn(seat, counter, face, side.name, side.skills, kept=False)


def choose_pilots(
    book: PilotBook,
    catalogue: Mapping[str, Aircraft],
    leaders: Sequence[tuple[str, str]],
    pick: Picker,
    *,
    out: frozenset[str] = frozenset(),
    draws: Mapping[str, int] | None = None,
    keep: Mapping[str, str] | None = None,
) -> list[Drawn]:
    """§19.24 for one side: ``leaders`` (seat, aircraft id) of Leader aircraft, drawn
    for one aircraft type after another in the order they first appear. Each Leader
    draws one counter (``draws[seat]`` for the Veteran Pilot Option) from the cup of
    the counters eligible for its type; the Skilled one drawn its player keeps
    (``keep[seat]``, the Veteran Pilot Option's "keeps the one he prefers"), else the
    best (the most skills, the first on a tie) goes on it, the others are discarded until the next type's
    draws (the example: Paek, discarded for the second Kate, is back in the cup for
    the Zero). A counter on an aircraft stays out of the cup for the mission."""
    by_id = {c.id: c for c in book.pilots}
    placed: set[str] = set()
    found: list[Drawn] = []
    types = list(dict.fromkeys(catalogue[a].type_name for _, a in leaders))
    for type_name in types:
        discarded: set[str] = set()
        for seat, aircraft_id in leaders:
            aircraft = catalogue[aircraft_id]
            if aircraft.type_name != type_name:
                continue
            drawn: list[Drawn] = []
            for _ in range((draws or {}).get(seat, 1)):
                cup = pilot_cup(book, aircraft, catalogue, out | placed | discarded)
                if not cup:
                    break
                counter, face = pick(cup)
                drawn.append(_drawn(seat, counter, face, by_id[counter].sides))
                discarded.add(counter)
            skilled = [d for d in drawn if d.skills]
            best = max(skilled, key=lambda d: len(d.skills)) if skilled else None
            best = next((d for d in skilled if d.counter == (keep or {}).get(seat)), best)
            for d in drawn:
                if d is best:
                    placed.add(d.counter)
                    discarded.discard(d.counter)
                    found.append(Drawn(d.seat, d.counter, d.side, d.name, d.skills, kept=True))
                else:
                    found.append(d)
    return found


def choose_crews(
    book: PilotBook,
    catalogue: Mapping[str, Aircraft],
    bombers: Sequence[tuple[str, str]],
    pick: Picker,
    *,
    given: Sequence[str] = (),
    out: frozenset[str] = frozenset(),
) -> list[Drawn]:
    """§19.34 for one side: ``bombers`` (key, aircraft id) its Heavy Bombers. The
    crews a Mission Target gives (``given``: face 0, never from the cup, §19.24 last
    paragraph) go on the first bombers; then one counter is drawn for every three
    Heavy Bombers (whole threes), from the counters of their nation and type plus the
    nation's untyped ones; a Skilled Crew goes on the next bomber without one (§19.34d),
    an Unskilled Crew is discarded."""
    heavy = [(k, a) for k, a in bombers if catalogue[a].role is Role.HEAVY_BOMBER]
    found: list[Drawn] = []
    free = list(heavy)
    for crew_id in given:
        if not free:
            break
        key, _ = free.pop(0)
        crew = book.crew(crew_id)
        found.append(Drawn(key, crew.id, 0, crew.sides[0].name, crew.sides[0].skills, kept=True))
    taken: set[str] = set(given) | set(out)
    for n in range(len(heavy) // 3):
        aircraft = catalogue[heavy[3 * n][1]]
        cup = [
            c.id
            for c in book.crews
            if c.cup
            and c.id not in taken
            and c.nation == aircraft.nation
            and _same_type(c.aircraft, aircraft, catalogue)
        ]
        if not cup:
            break
        counter, face = pick(cup)
        taken.add(counter)
        side = book.crew(counter).sides[face]
        if side.skilled and free:
            key, _ = free.pop(0)
            found.append(Drawn(key, counter, face, side.name, side.skills, kept=True))
        else:
            found.append(Drawn("", counter, face, side.name, side.skills, kept=False))
    return found


def load_pilots(pack: Path | str | None = None) -> PilotBook:
    """The counters: the shipped file, or a content pack's ``campaign/pilots.yaml``."""
    if pack is not None:
        path = pack_picker(pack)(PILOTS_FILE)
        if path is not None:
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise DataError(str(path), [f"cannot read the file: {exc}"]) from exc
            return parse_model(str(path), text, PilotBook, "the pilot and crew counters")
    text = read_shipped("dif", PILOTS_FILE)
    return parse_model("pilots.yaml", text, PilotBook, "the pilot and crew counters")


@functools.cache
def shipped_pilots() -> PilotBook:
    """The shipped counters, loaded once."""
    return load_pilots()
