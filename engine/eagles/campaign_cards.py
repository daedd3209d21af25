"""The Campaign cards a campaign game runs on: the shipped ones and a server's own.

A content pack's ``eagles: campaigns:`` section holds Campaign cards in exactly the
schema of ``data/eagles/campaign/cards.yaml`` (:class:`CampaignCard`), keyed by id: a
new id adds a card, ``override: true`` replaces a shipped card (or an earlier pack's).
:func:`cards_with` lays them over the shipped cards with the one loader of every pack
section (:func:`engine.core.packs.extend`), then checks every card, shipped or not,
against the components built with the same packs (:func:`check_card`): a pack's card
may give a squadron a pack's Scout, and a pack's aircraft may not break a shipped card.

The schema checks what a card is alone (its tables cover card numbers 1-110 once each,
Fire Values 0-6 once each, nine pilots a side besides the Flight Leaders).
:func:`check_card` checks what it asks of the rest of the game: its missions suit their
Engagement types (§16.4), its Mission aircraft (§5.42), its squadrons' aircraft (§3.4),
its date-bound Campaign Events (§13.3, §13.10) and Special Events (§12.4, §12.5). Each
problem is ``<field path>: <message>`` in the card's schema
(``missions[3].zone: ...``), so a pack's refusal names its file, entry and field.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence

from engine.core.dataload import DataError
from engine.core.packs import Pack, extend, placed_problems
from engine.eagles.campaign_data import (
    CARDS_FILE,
    CampaignCard,
    CampaignEvent,
    MissionEntry,
    shipped_cards,
)
from engine.eagles.enums import Side, YearMonth, ZoneChoice
from engine.eagles.loader import AIRCRAFT_FILE, SYSTEM_DIR, Components, load_components
from engine.eagles.special import SQUADRONS
from engine.eagles.tables import MissionAircraft

__all__ = [
    "LAST_MONTH",
    "SECTION",
    "cards_with",
    "check_card",
    "checked_shipped_cards",
    "dolphin_type",
    "schlachtsta_types",
    "squadron_types",
]

SECTION = "campaigns"
"""A content pack's section of Campaign cards (``eagles: campaigns:``)."""
LAST_MONTH = YearMonth(1918, 11)
"""The last month a campaign may be set in (the Armistice)."""
_FIRST_MONTH = YearMonth(1914, 1)


# --- what the campaign draws by name ----------------------------------------------------


def dolphin_type(aircraft: Mapping[str, object]) -> str | None:
    """The Sopwith Dolphin's id: the aircraft a Dolphins event sends (§13.3)."""
    return next((a for a in aircraft if "dolphin" in a), None)


def schlachtsta_types(data: Components) -> list[str]:
    """The German CL types, in data order: what a Schlachtstas event sends (§13.10)."""
    return [
        a.id
        for a in data.aircraft.values()
        if a.side is Side.GERMAN and a.id.split("-")[-1].startswith("cl")
    ]


# --- the checks -------------------------------------------------------------------------


def check_card(card: CampaignCard, data: Components) -> list[str]:
    """What in ``card`` names something ``data`` lacks or asks what the rules forbid;
    empty when it may be played. Each problem is ``<field path>: <message>``."""
    return [
        f"{where}: {what}"
        for check in (_months, _squadrons, _missions, _campaign_events, _special_events)
        for where, what in check(card, data)
    ]


def _card_months(card: CampaignCard) -> tuple[YearMonth, YearMonth]:
    """The first and last month a campaign of ``card`` may be set in (§3.3): a
    historical card's own month, a generic card's first month (or the war's start) to
    the Armistice."""
    if card.month is not None:
        return card.month, card.month
    return card.first_month or _FIRST_MONTH, LAST_MONTH


def _in_months(card: CampaignCard) -> str:
    first, last = _card_months(card)
    return f"in {first}" if first == last else f"in any month from {first} to {last}"


def _months(card: CampaignCard, data: Components) -> Iterator[tuple[str, str]]:
    for field in ("month", "first_month"):
        when = getattr(card, field)
        if when is not None and when > LAST_MONTH:
            yield field, f"{when} is after {LAST_MONTH}, the last month of the war"


def _squadrons(card: CampaignCard, data: Components) -> Iterator[tuple[str, str]]:
    """Each side's squadron types (§3.4): a historical card's list names known Scouts
    of the side in service in the card's months; in the card's first month each side
    has a type to draw (from the list, or among the Scouts in the cup, §3.52)."""
    first, last = _card_months(card)
    for side, listed in card.aircraft.items():
        seen: set[str] = set()
        for k, ref in enumerate(listed):
            where = f"aircraft.{side.value}[{k}]"
            found = data.aircraft.get(ref)
            if ref in seen:
                yield where, f"{ref!r} is listed twice"
            elif found is None:
                yield where, f"unknown aircraft {ref!r} (not in {AIRCRAFT_FILE} or a pack)"
            elif found.side is not side:
                yield where, f"{ref!r} flies for the {found.side.value} side, not {side.value}"
            elif not found.scout:
                yield where, f"{ref!r} is not a Scout: a squadron flies Scouts (§3.4)"
            elif found.in_service_to < first or found.in_service_from > last:
                yield where, f"{ref!r} is not in service {_in_months(card)}"
            seen.add(ref)
    if card.month is None and card.first_month is None:
        return  # the month is the players' (§3.3): a campaign refuses one without a type
    for side in Side:
        if not squadron_types(card, data, side, first):
            field = f"aircraft.{side.value}" if card.aircraft.get(side) else _month_field(card)
            yield field, f"no {side.value} squadron type is in service in {first} (§3.4)"


def _month_field(card: CampaignCard) -> str:
    return "month" if card.month is not None else "first_month"


def squadron_types(card: CampaignCard, data: Components, side: Side, when: YearMonth) -> list[str]:
    """The aircraft a squadron of ``side`` may fly in ``when`` (§3.4): the card's list,
    or every Scout of the side in the cup in service that month (the Availability
    Chart). The campaign draws among them; :func:`check_card` sees there is one."""
    listed = card.aircraft.get(side)
    if listed:
        return [a for a in listed if a in data.aircraft and data.aircraft[a].available(when)]
    return [
        a.id
        for a in data.aircraft.values()
        if a.side is side and a.scout and a.cup and a.available(when)
    ]


def _missions(card: CampaignCard, data: Components) -> Iterator[tuple[str, str]]:
    for i, m in enumerate(card.missions):
        if m.number != i + 1:
            yield (
                f"missions[{i}].number",
                f"{m.number}, not {i + 1}: Missions are numbered 1, 2, 3... in order",
            )
        for field, what in _mission_problems(card, m, data):
            yield f"missions[{i}]{'.' if field else ''}{field}", what


def _mission_problems(
    card: CampaignCard, m: MissionEntry, data: Components
) -> Iterator[tuple[str, str]]:
    """One Mission Table row against its Engagement type (§16.4) and the Mission
    aircraft rules (§5.42)."""
    spec = data.tables.engagement(m.type)
    what = f"a {m.type.value} mission attacked by the {m.attacker.value} player"
    defender = m.attacker.opponent
    zones = [z.resolve(defender) for z in spec.zones if z is not ZoneChoice.DRAW]
    if ZoneChoice.DRAW not in spec.zones and m.zone not in zones:
        allowed = " or ".join(z.value for z in zones if z is not None)
        yield "zone", f"{what} is flown over {allowed} (§16.4), not {m.zone.value}"
    if spec.altitudes and m.altitude not in spec.altitudes:
        allowed = " or ".join(a.name.lower() for a in spec.altitudes)
        yield "altitude", f"{what} starts at {allowed} (§16.4), not {m.altitude.name.lower()}"
    mission = spec.mission(m.attacker)
    flies = card.mission_aircraft and (m.draw_mission_aircraft or bool(m.mission_aircraft))
    if mission is not None and not mission.optional and not flies:
        yield "type", f"{what} needs its Mission aircraft (§16.4), and this mission has none"
    if m.no_squadron is not None and (m.no_squadron is not m.attacker or not flies):
        yield (
            "no_squadron",
            "only the attacker may be kept from assigning squadron aircraft, and only on a "
            "mission its Mission aircraft fly",
        )
    if m.draw_mission_aircraft:
        yield from _drawn(card, m, mission, data, what)
    if m.mission_aircraft:
        yield from _listed(card, m, mission, data, what)


def _drawn(
    card: CampaignCard,
    m: MissionEntry,
    mission: MissionAircraft | None,
    data: Components,
    what: str,
) -> Iterator[tuple[str, str]]:
    """A Mission aircraft drawn from the Engagement type's list (§5.42)."""
    if mission is None:
        yield "draw_mission_aircraft", f"{what} has no Mission aircraft to draw (§16.4)"
        return
    if m.mission_aircraft:
        yield "draw_mission_aircraft", "a Mission aircraft is either drawn or listed, not both"
    first, _ = _card_months(card)
    dated = card.month is not None or card.first_month is not None
    if (
        dated
        and not mission.optional
        and not any(data.aircraft[a].available(first) for a in mission.choices)
    ):
        yield (
            "draw_mission_aircraft",
            f"none of its Mission aircraft ({', '.join(mission.choices)}) is in service in {first}",
        )


def _listed(
    card: CampaignCard,
    m: MissionEntry,
    mission: MissionAircraft | None,
    data: Components,
    what: str,
) -> Iterator[tuple[str, str]]:
    """Pre-assigned Mission aircraft (§5.42: the historical cards'): the Engagement
    type's own, as many as it brings, on the attacker's side, in service that month."""
    if mission is None:
        yield "mission_aircraft", f"{what} has no Mission aircraft (§16.4)"
        return
    if card.month is None:
        yield (
            "mission_aircraft",
            "pre-assigned Mission aircraft need a historical card's month (a generic card "
            "draws them: draw_mission_aircraft, §5.42)",
        )
        return
    choices = mission.choices
    if len(m.mission_aircraft) != mission.count:
        yield (
            "mission_aircraft",
            f"{len(m.mission_aircraft)} aircraft, not the {mission.count} it brings (§16.4)",
        )
    if mission.same_type and len(set(m.mission_aircraft)) > 1:
        yield "mission_aircraft", "its Mission aircraft are all of one type (§16.4)"
    for k, ref in enumerate(m.mission_aircraft):
        where = f"mission_aircraft[{k}]"
        if ref not in choices:
            yield where, f"{ref!r} is not one of its Mission aircraft ({', '.join(choices)})"
        elif data.aircraft[ref].side is not m.attacker:
            yield where, f"{ref!r} is not a {m.attacker.value} aircraft"
        elif not data.aircraft[ref].available(card.month):
            yield where, f"{ref!r} is not in service in {card.month}"


def _campaign_events(card: CampaignCard, data: Components) -> Iterator[tuple[str, str]]:
    """Dolphins (§13.3) and Schlachtstas (§13.10) send aircraft of a time: only on a
    historical card whose month they fly in."""
    for k, row in enumerate(card.campaign_events):
        where = f"campaign_events[{k}].event"
        if row.event is CampaignEvent.DOLPHINS:
            dolphin = dolphin_type(data.aircraft)
            if dolphin is None:
                yield where, "dolphins: no Sopwith Dolphin in the aircraft (§13.3)"
            elif card.month is None or not data.aircraft[dolphin].available(card.month):
                yield where, f"dolphins only on a historical card of a month {dolphin} flies in"
        elif row.event is CampaignEvent.SCHLACHTSTAS:
            types = schlachtsta_types(data)
            flying = card.month is not None and any(
                data.aircraft[a].available(card.month) for a in types
            )
            if not flying:
                yield where, "schlachtstas only on a historical card of a month a CL type flies in"


def _special_events(card: CampaignCard, data: Components) -> Iterator[tuple[str, str]]:
    """56 Squadron and Jasta 11 bring McCudden's SE5a and Richthofen's Fokker DrI
    (§12.4, §12.5): only on a historical card of a month the Ace flew it."""
    for k, row in enumerate(card.special_events):
        if row.event not in SQUADRONS:
            continue
        _, plane, ace = SQUADRONS[row.event]
        leader = data.leaders.get(ace)
        when = card.month
        if leader is None or plane not in data.aircraft:
            yield f"special_events[{k}].event", f"{row.event.value}: no {ace} or {plane}"
        elif when is None or leader.aircraft_on(when) != plane:
            yield (
                f"special_events[{k}].event",
                f"{row.event.value} only on a historical card of a month {ace} flew the {plane}",
            )


# --- the cards of a campaign game -------------------------------------------------------


@functools.cache
def checked_shipped_cards() -> Mapping[str, CampaignCard]:
    """The shipped Campaign cards, each checked against the shipped components."""
    cards = shipped_cards()
    data = load_components()
    problems = [f"{c.id}.{p}" for c in cards.values() for p in check_card(c, data)]
    if problems:
        raise DataError(CARDS_FILE, problems)
    return cards


def cards_with(packs: Sequence[Pack], data: Components) -> dict[str, CampaignCard]:
    """The shipped Campaign cards with each content pack's ``eagles.campaigns`` entries
    laid over them in turn (keyed by id: a new id is added, ``override: true`` replaces
    a shipped or earlier pack's card), each entry validated as a shipped card is (the
    same :class:`CampaignCard`), then every card checked against ``data``: the
    components built over the same packs. Raises :class:`DataError` naming the last
    pack's file and, for each problem, the card's place: its section and entry
    (``eagles.campaigns[0]``, after ``pack 'name'`` for an earlier pack's) or
    ``built-in campaign card <id>``, then the field."""
    if not packs:
        return dict(checked_shipped_cards())
    cards = extend(checked_shipped_cards(), packs, SYSTEM_DIR, SECTION, CampaignCard)
    problems = placed_problems(
        packs, SYSTEM_DIR, SECTION, "built-in campaign card", cards, lambda c: check_card(c, data)
    )
    if problems:
        raise DataError(packs[-1].file, problems)
    return cards
