"""Zero! campaign sheets checked against the aircraft they fly (§24.46, §25.63, §26.0).

A Campaign Sheet names its aircraft by id (``2 L/W ki-43``, ``4 ki-21``). Its schema
(:mod:`engine.dif.campaign_data`) checks the sheet alone; this module checks each
flight against the aircraft of the Down in Flames system the campaign's games fly,
the shipped ``aircraft.yaml`` with a server's content packs laid over it
(:func:`engine.dif.loader.aircraft_with`). A mission game would refuse, half-way
through a campaign, what is refused here when the sheet is loaded:

* the aircraft is known, on the side the flight is for, in the Zero! ruleset, and
  Japanese on the Japanese side (4.2, 5.0: the missions are not mixed games);
* in service in the mission's year (4.3): a Land Campaign's mission is flown in the
  year its Period starts (every Period whose column draws its Target, every Period an
  Option is open in), a Carrier Campaign's in the last year of its dates, Pearl
  Harbor's in 1941;
* counted as its role is (§24.46): Fighters and Light Bombers as ``L/W`` or ``L``
  (``L/W`` only with a Wingman card), Medium and Heavy Bombers and Patrol Aircraft by
  number;
* a Mission Target's or Pearl Harbor sortie's Bombing Mode is on the card (§21.21);
* a Carrier Campaign's Air Strikes and CAP fly the box's cards only (§25.65):
  every aircraft they list has cards in ``card-counts.yaml``.

Each problem is ``<field path>: <message>`` in the sheet's schema
(``targets[3].aircraft[0]: unknown aircraft 'ki-99' (not in aircraft.yaml or a pack)``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from engine.dif.campaign_data import (
    Campaign,
    CarrierCampaign,
    Flight,
    FlightForm,
    LandCampaign,
    SolitaireCampaign,
    side_key,
)
from engine.dif.campaign_targets import BombingMode
from engine.dif.carrier import CardCounts
from engine.dif.components import Aircraft, Ruleset, Side
from engine.dif.pearl_harbor import YEAR as PEARL_HARBOR_YEAR
from engine.dif.setup import JAPANESE

__all__ = ["aircraft_problems", "carrier_year", "period_year", "sheet_problems"]

ZERO_MONTHS = ("1941-12", "1942-06")
"""The months Zero! covers: "Dec 1941 - June 1942" (the rulebook's title, L1)."""
ELEMENT_SPEED = 6
"""The Speed Fighters and Light Bombers count for a mission's turns (§23.24)."""

_FIRST_YEAR, _LAST_YEAR = 1930, 1950
"""The years a Down in Flames game may be set in (``engine.dif.setup.DifSetup.year``)."""


@dataclass(frozen=True)
class _Flown:
    """One flight of a sheet, where it is, and what it must fit."""

    where: str
    flight: Flight
    side: Side
    years: tuple[int, ...]
    mode: BombingMode | None = None
    """The Bombing Mode it must be able to drop in (a Mission Target's, a sortie's)."""
    counted: bool = False
    """Limited by the box's cards (a Carrier Campaign's Air Strikes and CAP, §25.65)."""


def period_year(start: str) -> int:
    """The year a Land Campaign mission in a Period starting ``start`` is flown in (the
    campaign's game setting, :meth:`engine.dif.campaign.LandCampaigns.mission_setup`)."""
    return int(start[:4])


def carrier_year(dates: str) -> int | None:
    """The year a Carrier Campaign's games are flown in: the last of its dates (as
    :meth:`engine.dif.carrier.CarrierCampaigns.mission_setup` reads it); None when they
    name no year a game may have."""
    years = [int(y) for y in re.findall(r"19[0-9]{2}", dates)]
    return years[-1] if years and _FIRST_YEAR <= years[-1] <= _LAST_YEAR else None


def aircraft_problems(
    campaign: Campaign, aircraft: Mapping[str, Aircraft], counts: CardCounts
) -> list[str]:
    """What in ``campaign`` its games could not fly with ``aircraft`` (the module's
    list), each problem once, as ``<field path>: <message>``; empty when it may be
    played."""
    if isinstance(campaign, CarrierCampaign) and carrier_year(campaign.dates) is None:
        return [f"dates: {campaign.dates!r} names no year from {_FIRST_YEAR} to {_LAST_YEAR}"]
    found: dict[str, None] = {}
    for flown in _flights(campaign):
        for problem in _flight_problems(flown, aircraft, counts):
            found.setdefault(f"{flown.where}: {problem}")
    return list(found)


def sheet_problems(campaign: Campaign) -> list[str]:
    """What the shipped sheets keep beyond their schema, checked on a pack's too: a
    Land Campaign's Periods within the months Zero! covers, every Mission Target drawn
    by some card, and a strike or patrol leaving its Fighters and Light Bombers a Turn
    of Arrival (§23.24); each as ``<field path>: <message>``."""
    if not isinstance(campaign, LandCampaign):
        return []
    found = []
    first, last = ZERO_MONTHS
    for i, p in enumerate(campaign.periods):
        if p.start < first or p.end > last:
            found.append(f"periods[{i}]: {p.start} to {p.end} is not within {first} to {last}")
    drawn = {n for p in campaign.periods for n in p.missions.values()}
    for i, t in enumerate(campaign.targets):
        if t.number not in drawn:
            found.append(f"targets[{i}].number: no card of any Period draws Target {t.number}")
        if t.turns.fixed is None and t.turns.phases(ELEMENT_SPEED)[0] < 1:
            found.append(
                f"targets[{i}].turns: {t.turns} leaves no Turn of Arrival at Speed "
                f"{ELEMENT_SPEED} (§23.24)"
            )
    return found


def _flight_problems(
    flown: _Flown, aircraft: Mapping[str, Aircraft], counts: CardCounts
) -> Iterator[str]:
    """The problems of one flight (at most one for an unknown aircraft)."""
    id_ = flown.flight.aircraft
    ac = aircraft.get(id_)
    if ac is None:
        yield f"unknown aircraft {id_!r} (not in aircraft.yaml or a pack)"
        return
    if ac.side is not flown.side:
        yield f"{id_!r} is not on the {_side_name(flown.side)} side"
    if Ruleset.ZERO not in ac.rulesets:
        yield f"{id_!r} does not fly in Zero! (its rulesets)"
    elif flown.side is Side.AXIS and ac.nation != JAPANESE:
        yield f"{id_!r} is not Japanese: the Japanese side flies Japanese aircraft (4.2, 5.0)"
    late = [year for year in flown.years if ac.year > year]
    if late:
        yield f"{id_!r} is not in service in {min(late)} (from {ac.year}, 4.3)"
    yield from _form_problems(flown.flight, ac)
    if flown.mode is not None and (ac.bombing is None or flown.mode not in ac.bombing.modes):
        yield f"{id_!r} cannot bomb in {flown.mode.value} mode (its card's bombing section, §21.21)"
    if flown.counted and counts.limit(id_) == 0:
        yield (
            f"{id_!r} has no cards in card-counts.yaml: a Carrier Campaign's Air Strikes "
            "and CAP fly the box's cards only (§25.65)"
        )


def _form_problems(flight: Flight, ac: Aircraft) -> Iterator[str]:
    """§24.46: Fighters and Light Bombers by Elements or Leaders, the others by number."""
    by_number = flight.form is FlightForm.AIRCRAFT
    if ac.role.element and by_number:
        yield f"{ac.id!r} is a {ac.role.value}: 'L/W {ac.id}' or 'L {ac.id}' (§24.46)"
    elif not ac.role.element and not by_number:
        yield f"{ac.id!r} is a {ac.role.value}: counted by number, '2 {ac.id}' (§24.46)"
    elif flight.form is FlightForm.ELEMENT and ac.wingman is None:
        yield f"{ac.id!r} has no Wingman card: 'L {ac.id}' (13.3)"


def _side_name(side: Side) -> str:
    return "Japanese" if side is Side.AXIS else "Allied"


def _flights(campaign: Campaign) -> Iterator[_Flown]:
    if isinstance(campaign, LandCampaign):
        yield from _land(campaign)
    elif isinstance(campaign, CarrierCampaign):
        yield from _carrier(campaign)
    else:
        yield from _solitaire(campaign)


def _listed(
    where: str,
    flights: Iterable[Flight],
    side: Side,
    years: tuple[int, ...],
    *,
    mode: BombingMode | None = None,
    counted: bool = False,
) -> Iterator[_Flown]:
    """A list of flights, each at ``where[k]``."""
    for k, flight in enumerate(flights):
        yield _Flown(f"{where}[{k}]", flight, side, years, mode, counted)


def _land(c: LandCampaign) -> Iterator[_Flown]:
    """A Mission Target's aircraft fly in the years of the Periods that draw it; an
    Option's in those of the Periods it is open in (§24.44, §24.52)."""
    for i, t in enumerate(c.targets):
        years = tuple(
            sorted({period_year(p.start) for p in c.periods if t.number in p.missions.values()})
        )
        where = f"targets[{i}]"
        yield from _listed(f"{where}.aircraft", t.aircraft, t.attacker, years, mode=t.mode)
        yield from _listed(f"{where}.opponents", t.opponents, t.attacker.other, years)
    for side, options in c.options.items():
        for i, o in enumerate(options):
            open_in = [p for p in c.periods if not o.periods or p.id in o.periods]
            years = tuple(sorted({period_year(p.start) for p in open_in}))
            yield from _listed(f"options.{side_key(side)}[{i}].aircraft", o.aircraft, side, years)


def _carrier(c: CarrierCampaign) -> Iterator[_Flown]:
    year = carrier_year(c.dates)
    assert year is not None  # checked first, by aircraft_problems
    years = (year,)
    for side, s in c.sides.items():
        where = f"sides.{side_key(side)}"
        yield from _listed(f"{where}.recon", s.recon, side, years)
        for i, op in enumerate(s.flight_ops):
            for part in ("strike", "cap"):
                flights = getattr(op, part)
                yield from _listed(
                    f"{where}.flight_ops[{i}].{part}", flights, side, years, counted=True
                )
    for i, record in enumerate(c.records):
        where = f"records[{i}]"
        for k, row in enumerate(record.launches):
            for part in ("strike", "cap"):
                flights = getattr(row, part)
                yield from _listed(
                    f"{where}.launches[{k}].{part}", flights, record.owner, years, counted=True
                )
        for card, cap in record.cap_draw.items():
            yield from _listed(
                f"{where}.cap_draw.{card.value}", cap, record.owner, years, counted=True
            )
    # a carrier Option lists no aircraft: the Options Sheet's aircraft Option is a
    # land one (checked with the Options Sheet, campaign_data.check_references)


def _solitaire(c: SolitaireCampaign) -> Iterator[_Flown]:
    years = (PEARL_HARBOR_YEAR,)
    for i, wave in enumerate(c.waves):
        for k, sortie in enumerate(wave.sorties):
            where = f"waves[{i}].sorties[{k}].flight"
            yield _Flown(where, sortie.flight, Side.AXIS, years, mode=sortie.mode)
        for card, row in wave.defense.items():
            where = f"waves[{i}].defense.{card.value}.fighters"
            yield from _listed(where, row.fighters, Side.ALLIED, years)
