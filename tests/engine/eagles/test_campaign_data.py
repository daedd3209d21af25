"""The shipped Campaign Game data (data/eagles/campaign/): every value the rulebook
prints, and the structure the authored values keep (each table covers the deck, the
Missions suit their Engagement types, the aircraft exist on the right side and in
service, the Encounter and Safe Return tables run the right way).

"L1913" is a line of the rulebook transcription (eagles-in-the-sky.txt), "§7.12" a
section of its Campaign rules; data/eagles/SOURCES.md, section "Campaign Game", says
which values are printed and which authored.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from data import DATA_DIR
from engine.eagles.campaign_data import (
    CampaignCard,
    CampaignEvent,
    CampaignTables,
    EncounterResult,
    MissionEntry,
    SpecialEvent,
    load_campaign_cards,
    load_campaign_tables,
)
from engine.eagles.components import (
    DECK_SIZE,
    Altitude,
    DamageKind,
    EngagementType,
    Side,
    YearMonth,
    Zone,
    ZoneChoice,
)
from engine.eagles.loader import Components, load_components

A, G = Side.ALLIED, Side.GERMAN
IDS = ["normal-activity", "quiet-sector", "operation-michael", "cambrai"]
GENERIC = ["normal-activity", "quiet-sector"]
HISTORICAL = ["operation-michael", "cambrai"]


@pytest.fixture(scope="module")
def cards() -> dict[str, CampaignCard]:
    return load_campaign_cards()


@pytest.fixture(scope="module")
def tables() -> CampaignTables:
    return load_campaign_tables()


@pytest.fixture(scope="module")
def eagles() -> Components:
    return load_components()


def months() -> list[YearMonth]:
    return [YearMonth(y, m) for y in range(1915, 1919) for m in range(1, 13)]


def result(text: str) -> EncounterResult:
    return EncounterResult.parse(text)


# --- the four cards ---------------------------------------------------------------------


def test_the_four_campaign_cards(cards: dict[str, CampaignCard]) -> None:
    assert list(cards) == IDS
    assert {c.title for c in cards.values()} == {
        "Normal Activity",
        "Quiet Sector",
        "Operation Michael",
        "Battle of Cambrai",
    }  # L1376
    assert all(c.days == 5 for c in cards.values())  # Campaign §4.0, L1461


def test_normal_activity_as_printed(cards: dict[str, CampaignCard]) -> None:
    na = cards["normal-activity"]
    assert na.missions_per_day == 4  # L1911
    assert na.month is None and na.aircraft == {}  # players choose (§2.1, §3.3, §3.4)
    assert na.mission_aircraft and not na.all_green_replacements  # §5.42, §10.32
    m12, m2, m14, m21, m22 = (na.mission(n) for n in (12, 2, 14, 21, 22))
    # L1913: an Allied Photo-recon mission at Medium altitude over the German Front Lines,
    # with a Mission aircraft drawn from a cup (L1922, §5.42).
    assert (m12.type, m12.attacker, m12.altitude, m12.zone) == (
        EngagementType.PHOTO_RECON,
        A,
        Altitude.MEDIUM,
        Zone.GERMAN_FRONT,
    )
    assert m12.draw_mission_aircraft and m12.mission_aircraft == ()
    # L1914: an Allied Patrol mission at Medium altitude over No Man's Land.
    assert (m2.type, m2.attacker, m2.altitude, m2.zone) == (
        EngagementType.PATROL,
        A,
        Altitude.MEDIUM,
        Zone.NO_MANS_LAND,
    )
    # L1915: an Allied Bombing mission at Medium altitude over the German Rear Area.
    assert (m14.type, m14.attacker, m14.altitude, m14.zone) == (
        EngagementType.BOMBING,
        A,
        Altitude.MEDIUM,
        Zone.GERMAN_REAR,
    )
    assert m14.draw_mission_aircraft
    # L1916: a German Photo-recon mission at High altitude over the Allied Rear Area, once
    # per campaign, the German may not allocate any of his squadron aircraft.
    assert (m21.type, m21.attacker, m21.altitude, m21.zone) == (
        EngagementType.PHOTO_RECON,
        G,
        Altitude.HIGH,
        Zone.ALLIED_REAR,
    )
    assert m21.no_squadron is G and m21.draw_mission_aircraft
    # §5.11 note (L1493): Missions 21 and 22 once each; later draws become Mission 20.
    for m in (m21, m22):
        assert m.once and m.instead == 20
    na.mission(20)
    assert [m.number for m in na.missions if m.once] == [21, 22]


def test_normal_activity_squadrons_fit_the_example(cards: dict[str, CampaignCard]) -> None:
    """The German flies a Flight Leader and five Experienced pilots (L1930); the Allied
    flight has a Green pilot and Experienced pilots (L1926)."""
    pilots = cards["normal-activity"].pilots
    # Mission 2's five (one of whom flew Mission 1) and Mission 1's Wing-hit pilot.
    assert pilots[G].experienced >= 6
    assert pilots[A].green >= 1 and pilots[A].experienced >= 2


def test_the_example_aircraft_and_month_are_allowed(
    cards: dict[str, CampaignCard], eagles: Components
) -> None:
    """October 1917, SPAD VIIs against Albatros DVs, a D.H. 4 drawn for Mission 12."""
    na, october = cards["normal-activity"], YearMonth(1917, 10)
    assert na.first_month is not None and na.first_month <= october
    for plane in ("spad-vii", "albatros-dv", "dh4"):
        assert eagles.aircraft[plane].available(october)
    spec = eagles.tables.engagement(EngagementType.PHOTO_RECON).mission(A)
    assert spec is not None and "dh4" in spec.choices


def test_quiet_sector_as_printed(cards: dict[str, CampaignCard]) -> None:
    qs = cards["quiet-sector"]
    assert not qs.mission_aircraft  # §5.42, L1527
    assert qs.all_green_replacements  # §10.32, L1755
    assert qs.month is None and qs.aircraft == {}
    assert qs.missions_per_day == 2
    assert all(not m.mission_aircraft and not m.draw_mission_aircraft for m in qs.missions)
    others = [cards[i] for i in IDS if i != "quiet-sector"]
    for side in Side:
        assert all(qs.pilots[side].green > c.pilots[side].green for c in others)
        assert all(not c.all_green_replacements for c in others)


def test_quiet_sector_flies_only_types_that_need_no_mission_aircraft(
    cards: dict[str, CampaignCard], eagles: Components
) -> None:
    for m in cards["quiet-sector"].missions:
        spec = eagles.tables.engagement(m.type).mission(m.attacker)
        assert spec is None or spec.optional, m.number


def test_historical_cards(cards: dict[str, CampaignCard]) -> None:
    michael, cambrai = cards["operation-michael"], cards["cambrai"]
    assert michael.month == YearMonth(1918, 3) and michael.offensive is G
    assert cambrai.month == YearMonth(1917, 11) and cambrai.offensive is A
    assert michael.missions_per_day > cards["normal-activity"].missions_per_day
    for card in (michael, cambrai):
        assert card.first_month is None and card.mission_aircraft
        assert all(not m.draw_mission_aircraft for m in card.missions)
        assert set(card.aircraft) == {A, G} and all(card.aircraft.values())
    # German pilots well trained for the Spring Offensive.
    assert michael.pilots[G].experienced > michael.pilots[A].experienced
    assert michael.pilots[G].green <= michael.pilots[A].green


def test_ground_attack_weighs_heavily_in_the_historical_campaigns(
    cards: dict[str, CampaignCard],
) -> None:
    ground = {EngagementType.TRENCH_STRAFING, EngagementType.CONTACT_PATROL}

    def share(card: CampaignCard, side: Side | None = None) -> float:
        hits = sum(
            m.cards[1] - m.cards[0] + 1
            for m in card.missions
            if m.type in ground and (side is None or m.attacker is side)
        )
        return hits / DECK_SIZE

    assert share(cards["operation-michael"], G) >= 0.25  # the Schlachtstaffeln
    assert share(cards["cambrai"]) >= 0.35  # low cloud, tanks, strafing
    assert share(cards["normal-activity"]) < share(cards["cambrai"])


# --- every card's tables ----------------------------------------------------------------


@pytest.mark.parametrize("card_id", IDS)
def test_tables_cover_the_deck(cards: dict[str, CampaignCard], card_id: str) -> None:
    card = cards[card_id]
    for n in range(1, DECK_SIZE + 1):
        assert sum(m.covers(n) for m in card.missions) == 1, n
        assert sum(r.covers(n) for r in card.campaign_events) == 1, n
    numbers = [m.number for m in card.missions]
    assert numbers == list(range(1, len(numbers) + 1))  # unique, 1..N
    assert 20 <= len(numbers) <= 24
    fires = sorted(f for r in card.special_events for f in range(r.fire[0], r.fire[1] + 1))
    assert fires == list(range(7))  # 0 = Guns Jammed
    assert {m.attacker for m in card.missions} == {A, G}
    attacking = sum(
        m.cards[1] - m.cards[0] + 1 for m in card.missions if m.attacker is card.offensive
    )
    assert attacking > DECK_SIZE / 2  # the side on the offensive attacks more


@pytest.mark.parametrize("card_id", IDS)
def test_missions_suit_their_engagement_type(
    cards: dict[str, CampaignCard], eagles: Components, card_id: str
) -> None:
    """Zone and altitude as §16.4 allows (data/eagles/tables.yaml `engagements`)."""
    for m in cards[card_id].missions:
        spec = eagles.tables.engagement(m.type)
        defender = m.attacker.opponent
        allowed = {z.resolve(defender) for z in spec.zones if z is not ZoneChoice.DRAW}
        if ZoneChoice.DRAW not in spec.zones:
            assert m.zone in allowed, (card_id, m.number)
        if spec.altitudes:
            assert m.altitude in spec.altitudes, (card_id, m.number)
        if m.no_squadron is not None:  # someone must fly it: the Mission aircraft
            assert m.no_squadron is m.attacker and m.draw_mission_aircraft


@pytest.mark.parametrize("card_id", IDS)
def test_mission_aircraft(cards: dict[str, CampaignCard], eagles: Components, card_id: str) -> None:
    card = cards[card_id]
    for m in card.missions:
        spec = eagles.tables.engagement(m.type).mission(m.attacker)
        where = (card_id, m.number)
        if card_id == "normal-activity":  # §5.42: drawn from the Engagement's list
            assert m.mission_aircraft == ()
            assert m.draw_mission_aircraft == (spec is not None), where
        elif card_id == "quiet-sector":
            assert m.mission_aircraft == () and not m.draw_mission_aircraft
        else:  # pre-assigned (§5.42)
            assert card.month is not None
            if spec is None:
                assert m.mission_aircraft == (), where
                continue
            if not spec.optional:
                assert len(m.mission_aircraft) == spec.count, where
            assert len(m.mission_aircraft) in (0, spec.count), where
            if spec.same_type:
                assert len(set(m.mission_aircraft)) <= 1, where
            for plane in m.mission_aircraft:
                assert plane in spec.choices, where
                aircraft = eagles.aircraft[plane]
                assert aircraft.side is m.attacker and aircraft.available(card.month), where


@pytest.mark.parametrize("card_id", HISTORICAL)
def test_historical_aircraft_lists(
    cards: dict[str, CampaignCard], eagles: Components, card_id: str
) -> None:
    card = cards[card_id]
    assert card.month is not None
    for side, planes in card.aircraft.items():
        assert len(set(planes)) == len(planes) >= 3
        for plane in planes:
            aircraft = eagles.aircraft[plane]
            assert aircraft.side is side and aircraft.scout and aircraft.cup, plane
            assert aircraft.available(card.month), plane
    assert {"sopwith-camel", "se5a", "spad-xiii"} <= set(cards["operation-michael"].aircraft[A])
    assert {"fokker-dri", "albatros-dva", "pfalz-diiia"} <= set(
        cards["operation-michael"].aircraft[G]
    )
    assert {"sopwith-camel", "se5a"} <= set(cards["cambrai"].aircraft[A])
    assert {"albatros-dv", "albatros-dva", "pfalz-diii"} <= set(cards["cambrai"].aircraft[G])


def _first_month(ok: Any) -> YearMonth:
    return next(when for when in months() if ok(when))


def test_generic_cards_first_months(cards: dict[str, CampaignCard], eagles: Components) -> None:
    """Quiet Sector: the first month both sides have a Scout in service. Normal
    Activity: also every Mission aircraft cup it needs (a type the Engagement rules do
    not make optional) holds an aircraft in service for its attacker."""
    planes = eagles.aircraft.values()

    def scouts(when: YearMonth) -> bool:
        return all(any(p.cup and p.side is s and p.available(when) for p in planes) for s in Side)

    na = cards["normal-activity"]
    needed = []
    for m in na.missions:
        spec = eagles.tables.engagement(m.type).mission(m.attacker)
        if spec is not None and not spec.optional:
            needed.append(spec.choices)

    def cups(when: YearMonth) -> bool:
        return scouts(when) and all(
            any(eagles.aircraft[p].available(when) for p in choices) for choices in needed
        )

    assert cards["quiet-sector"].first_month == _first_month(scouts)
    assert na.first_month == _first_month(cups)
    assert na.first_month is not None and na.first_month <= YearMonth(1917, 7)


@pytest.mark.parametrize("card_id", IDS)
def test_campaign_events(cards: dict[str, CampaignCard], eagles: Components, card_id: str) -> None:
    card = cards[card_id]
    count = {e: 0 for e in CampaignEvent}
    for row in card.campaign_events:
        count[row.event] += row.cards[1] - row.cards[0] + 1
    assert count[CampaignEvent.NONE] >= 0.25 * DECK_SIZE
    for event in CampaignEvent:
        if event not in (CampaignEvent.DOLPHINS, CampaignEvent.SCHLACHTSTAS):
            assert count[event] > 0, event  # every other event on every card
    # Date-bound events only where their aircraft fly (§13.3, §13.10).
    if count[CampaignEvent.DOLPHINS]:
        assert card.month is not None
        assert eagles.aircraft["sopwith-dolphin"].available(card.month)
    if count[CampaignEvent.SCHLACHTSTAS]:
        assert card.month is not None
        cl = eagles.tables.engagement(EngagementType.TRENCH_STRAFING).mission(G)
        assert cl is not None
        assert any(eagles.aircraft[p].available(card.month) for p in cl.choices)
    if card_id == "operation-michael":
        assert count[CampaignEvent.BIG_PUSH] > count[CampaignEvent.LULL]
    if card_id == "quiet-sector":
        assert count[CampaignEvent.LULL] > count[CampaignEvent.BIG_PUSH]


def test_special_events(cards: dict[str, CampaignCard], eagles: Components) -> None:
    used = {r.event for c in cards.values() for r in c.special_events}
    assert used >= set(SpecialEvent) - {SpecialEvent.NONE}  # every event of §12
    # 56 Squadron and Jasta 11 bring McCudden's SE5a and Richthofen's Fokker DrI
    # (§12.4, §12.5): only on cards dated when they flew them.
    bound = {
        SpecialEvent.SQUADRON_56: ("mccudden", "se5a"),
        SpecialEvent.JASTA_11: ("richthofen", "fokker-dri"),
    }
    for card in cards.values():
        for row in card.special_events:
            if row.event in bound:
                ace, plane = bound[row.event]
                assert card.month is not None, card.id
                assert eagles.leaders[ace].aircraft_on(card.month) == plane, card.id


# --- the shared tables ------------------------------------------------------------------


def test_chits_as_printed(tables: CampaignTables) -> None:
    """§7.12, L1597-1602: 2 Missions 2 + 1, 4 Missions 3 + 3, 6 or 8 Missions 4 + 5."""
    printed = {2: (2, 1), 4: (3, 3), 6: (4, 5), 8: (4, 5)}
    for missions, (engagement, encounter) in printed.items():
        chits = tables.chits_for(missions)
        assert (chits.engagement, chits.encounter) == (engagement, encounter)


def test_chits_cover_every_day(tables: CampaignTables, cards: dict[str, CampaignCard]) -> None:
    """Every day size from 0 (a Lull on a two-Mission card) to 10, once, with a chit
    for every Mission (chits drawn stay out, L1477)."""
    for missions in range(11):
        rows = [c for c in tables.chits if c.missions[0] <= missions <= c.missions[1]]
        assert len(rows) == 1, missions
        assert rows[0].engagement + rows[0].encounter >= missions
    reachable = {
        max(0, c.missions_per_day + d) for c in cards.values() for d in (-2, 0, 2)
    }  # Lull, none, Big Push (§13.2, §13.7)
    for missions in reachable:
        tables.chits_for(missions)
    totals = [tables.chits_for(n).engagement for n in range(11)]
    assert totals == sorted(totals)  # more Missions, never fewer Engagement chits


def test_encounter_table_as_printed(tables: CampaignTables) -> None:
    assert tables.encounter_mission_modifier == 5  # L1926
    assert tables.encounter_result(28, 3) == result("0/0/4")  # L1926, "3-4 Scouts"
    assert tables.encounter_result(28, 4) == result("0/0/4")
    assert tables.encounter_result(28 + 5, 4) == result("0/0/2")  # 28 + 5 = 33
    for scouts in (3, 4, 5, 6):  # L1928, column not stated
        got = tables.encounter_result(95, scouts)
        assert got == result("1/1/4*")
        assert (got.campaign, got.glory, got.draws, got.leader_kill) == (1, 1, 4, True)


def test_encounter_table_shape(tables: CampaignTables) -> None:
    rows = tables.encounter
    spans = [n for r in rows for n in range(r.cards[0], r.cards[1] + 1)]
    assert spans == list(range(1, DECK_SIZE + tables.encounter_mission_modifier + 1))
    for column in range(3):
        results = [EncounterResult.parse(r.results[column]) for r in rows]
        assert all(x.campaign <= 1 for x in results)  # §14.15
        for before, after in itertools.pairwise(results):
            # higher numbers are better: no less CP, GP or kill, and if no better on
            # those, no more damage draws
            assert after.campaign >= before.campaign
            assert after.glory >= before.glory
            assert after.leader_kill >= before.leader_kill
            if (after.campaign, after.glory, after.leader_kill) == (
                before.campaign,
                before.glory,
                before.leader_kill,
            ):
                assert after.draws <= before.draws
        assert results[0].draws > results[-1].draws
        assert results[-1].campaign == 1 and results[0].campaign == 0
    for r in rows:  # bigger flights take more draws and score at least as often
        small, mid, big = (EncounterResult.parse(t) for t in r.results)
        assert small.draws <= mid.draws <= big.draws
        assert small.campaign <= mid.campaign <= big.campaign
        assert small.draws <= 4  # two draws an aircraft at most (§7.24)


def test_encounter_points_stay_low(tables: CampaignTables) -> None:
    """The Design Note under §14.15: few Campaign Points from Encounters."""
    for scouts in (2, 4, 6):
        cp = sum(tables.encounter_result(n, scouts).campaign for n in range(1, DECK_SIZE + 1))
        assert cp <= 0.25 * DECK_SIZE
    small = sum(tables.encounter_result(n, 2).campaign for n in range(1, DECK_SIZE + 1))
    big = sum(tables.encounter_result(n, 6).campaign for n in range(1, DECK_SIZE + 1))
    assert small < big


def test_safe_return_as_printed(tables: CampaignTables) -> None:
    sr = tables.safe_return
    assert sr.hit["wing"] == 5  # L1928
    assert sr.parachute == -20 and sr.parachutes_from == YearMonth(1918, 7)  # L1571
    assert set(sr.hit) == {
        DamageKind.STRUCTURE.value,
        DamageKind.WING.value,
        DamageKind.CONTROL.value,
        DamageKind.ENGINE.value,
    }
    assert all(v > 0 for v in sr.hit.values()) and sr.wounded_pilot > 0
    assert sr.engine_out > max(sr.hit.values())  # a second Engine hit: much worse
    assert sr.exhausted_green <= 0


def test_safe_return_columns(tables: CampaignTables) -> None:
    sr = tables.safe_return

    def safe(zone: Zone, side: Side) -> int:
        return sr.column(zone, side).safe

    # The prevailing west wind (design note, L1567): the German returns more easily over
    # No Man's Land and the enemy's lines; both easily over their own rear area.
    assert safe(Zone.NO_MANS_LAND, G) > safe(Zone.NO_MANS_LAND, A)
    assert safe(Zone.ALLIED_FRONT, G) > safe(Zone.GERMAN_FRONT, A)
    assert safe(Zone.ALLIED_REAR, G) > safe(Zone.GERMAN_REAR, A)
    assert safe(Zone.ALLIED_REAR, A) == safe(Zone.GERMAN_REAR, G) >= DECK_SIZE - 10
    assert safe(Zone.ALLIED_FRONT, A) == safe(Zone.GERMAN_FRONT, G)
    for side in Side:  # the deeper over enemy country, the harder
        west_to_east = [safe(z, side) for z in Zone]
        home_first = west_to_east if side is A else west_to_east[::-1]
        assert home_first == sorted(home_first, reverse=True)
    # The example (L1928): a Wing hit over the German Front Lines can come home.
    assert 1 + sr.hit["wing"] <= safe(Zone.GERMAN_FRONT, G)


def test_aircrew_survival(tables: CampaignTables) -> None:
    for column in tables.safe_return.columns:
        low, high = column.survive
        assert low == 1 and high <= DECK_SIZE
        for draw in range(1, DECK_SIZE + 1):
            # parachutes (-20) only ever help
            if column.survives(draw):
                assert column.survives(draw + tables.safe_return.parachute)
        assert column.survives(1 + tables.safe_return.parachute)
    sr = tables.safe_return
    for side in Side:  # better over one's own lines than over the enemy's
        own, enemy = Zone.front_lines(side), Zone.front_lines(side.opponent)
        assert sr.column(own, side).survive[1] > sr.column(enemy, side).survive[1]


def test_replacement_table(tables: CampaignTables) -> None:
    rt = tables.replacement
    assert (rt.allied_aircraft, rt.german_aircraft_late, rt.per_glory) == (-5, 5, -2)  # L1747-1751
    assert rt.german_late_from == YearMonth(1918, 6) == rt.german_green_from  # L1750, L1753

    def chance(threshold: int, modifier: int) -> float:
        return sum(n + modifier <= threshold for n in range(1, DECK_SIZE + 1)) / DECK_SIZE

    # The example (L1940-1942): Allied aircraft at -9 failed "surprisingly", the pilot at
    # -4 succeeded, the German at -2 succeeded twice: success likely, failure possible.
    for threshold, modifier in (
        (rt.aircraft, -9),
        (rt.pilot, -4),
        (rt.aircraft, -2),
        (rt.pilot, -2),
    ):
        assert 2 / 3 <= chance(threshold, modifier) < 1
    assert rt.pilot >= rt.aircraft


def test_names(tables: CampaignTables, eagles: Components) -> None:
    leaders = set()
    for leader in eagles.leaders.values():
        leaders.add(leader.name.split()[-1].lower())
        if leader.represents:
            leaders |= {w.strip("\"'()").lower() for w in leader.represents.split()}
    for side in Side:
        pool = tables.names[side]
        assert len(pool) >= 40 and len(set(pool)) == len(pool)
        assert not {n.lower() for n in pool} & leaders, side
        assert all(n[0].isupper() and n.isalpha() for n in pool)
    assert not set(tables.names[A]) & set(tables.names[G])


# --- provenance -------------------------------------------------------------------------


def _resolve(obj: Any, path: str) -> Any:
    for part in path.split("."):
        obj = obj[part] if isinstance(obj, dict) else getattr(obj, part)
    return obj


def test_printed_marks_name_real_fields(
    cards: dict[str, CampaignCard], tables: CampaignTables
) -> None:
    for card in cards.values():
        assert card.printed <= set(CampaignCard.model_fields) - {"printed"}, card.id
        for m in card.missions:
            assert m.printed <= set(MissionEntry.model_fields) - {"printed"}, m.number
    for path in tables.printed:
        _resolve(tables, path)  # raises if the path is not in the tables
    na = cards["normal-activity"]
    assert {m.number for m in na.missions if m.printed} == {2, 12, 14, 21, 22}
    assert {"type", "attacker", "zone", "altitude"} <= na.mission(21).printed
    assert "cards" not in {f for m in na.missions for f in m.printed}  # never printed
    assert "missions_per_day" in na.printed
    assert "missions_per_day" not in cards["operation-michael"].printed


def test_sources_section() -> None:
    text = (DATA_DIR / "eagles" / "SOURCES.md").read_text(encoding="utf-8")
    assert "Campaign Game" in text
    section = text[text.index("Campaign Game") :]
    for needle in (*IDS, "L1911", "L1913", "L1916", "L1926", "L1928", "L1571", "L1940"):
        assert needle in section, needle
