"""Zero!'s campaign data (data/dif/campaign/): the Target Sheets, the Bombing Chart, the
Options Sheet, the scoresheets and the six Campaign Sheets.

Every value the rulebook prints is checked against its line ("L1849" is a line of the
transcription /work/shared/rulebooks/zero.txt, first copy; "§24.44" a section of its
Campaign rules); then the structure the authored values keep; then a content pack's
bad entry, refused with the file, the entry and the field. data/dif/SOURCES.md, "Zero!
campaign game: targets, bombing, campaign sheets", says which values are printed.

Aircraft are checked against ``AIRCRAFT`` below, kept here on purpose: the bombers are
being added to data/dif/aircraft.yaml separately, and once both are merged a test may
check the campaign files against that file instead.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from data import DATA_DIR
from engine.dif.campaign_data import (
    CAMPAIGN_FILES,
    AircraftClass,
    CampaignBook,
    CarrierCampaign,
    DataError,
    DrawCard,
    Duration,
    FleetTactics,
    Flight,
    FlightForm,
    FlightOps,
    LandCampaign,
    MissionType,
    OptionKind,
    SolitaireCampaign,
    load_campaign,
    load_campaign_book,
    load_targets,
    shipped_book,
    victory_row,
)
from engine.dif.campaign_targets import BombingMode
from engine.dif.components import Altitude, BombResult, Card, CardKind, CardType, Side
from engine.dif.loader import load_aircraft, load_deck

J, A = Side.AXIS, Side.ALLIED
F, LB, MB, HB, PA = (
    AircraftClass.FIGHTER,
    AircraftClass.LIGHT_BOMBER,
    AircraftClass.MEDIUM_BOMBER,
    AircraftClass.HEAVY_BOMBER,
    AircraftClass.PATROL,
)
AIRCRAFT: dict[str, tuple[Side, AircraftClass]] = {
    # fighters already in data/dif/aircraft.yaml (Zero! ones)
    "a6m2": (J, F),
    "ki-43": (J, F),
    "ki-27": (J, F),
    "buffalo-i": (A, F),
    "f4f": (A, F),
    "p-40b": (A, F),
    "p-40e": (A, F),
    "hurricane-iib": (A, F),
    # the bombers, by the ids they will have there
    "ki-30": (J, LB),
    "b5n2": (J, LB),
    "d3a1": (J, LB),
    "sbd": (A, LB),
    "tbd": (A, LB),
    "vildebeest": (A, LB),
    "ki-21": (J, MB),
    "g4m": (J, MB),
    "hudson": (A, MB),
    "blenheim-iv": (A, MB),
    "b-17d": (A, HB),
    "b-17e": (A, HB),
    "pby": (A, PA),
}
"""Every aircraft the campaign files may name, with its side and class (checked against
``data/dif/aircraft.yaml`` by ``test_the_aircraft_named_are_in_the_aircraft_data``)."""
TORPEDO = {"b5n2", "g4m", "tbd", "vildebeest"}
"""Aircraft that can carry torpedoes (§17.14, §21.51; G4M: Force Z)."""
FORMATION = {MB, HB, PA}
LAND = ["malaya", "philippines", "burma"]
CARRIER = ["coral-sea", "midway"]


@pytest.fixture(scope="module")
def book() -> CampaignBook:
    return load_campaign_book()


def land(book: CampaignBook, id_: str) -> LandCampaign:
    sheet = book.campaign(id_)
    assert isinstance(sheet, LandCampaign)
    return sheet


def carrier(book: CampaignBook, id_: str) -> CarrierCampaign:
    sheet = book.campaign(id_)
    assert isinstance(sheet, CarrierCampaign)
    return sheet


def flights(*texts: str) -> tuple[Flight, ...]:
    return tuple(Flight.from_text(t) for t in texts)


def card(kind: CardKind, bursts: int = 0, damage: int = 0, **marks: object) -> Card:
    defaults: dict[str, object] = {"bomb": "miss", "over_target": "miss", "spoiled_attack": False}
    return Card.model_validate(
        {"id": 0, "type": CardType(kind=kind, bursts=bursts, damage=damage), **defaults, **marks}
    )


# --- every shipped file loads -----------------------------------------------------------


def test_every_shipped_campaign_file_has_a_loader_and_loads(book: CampaignBook) -> None:
    shipped = {p.name for p in (DATA_DIR / "dif" / "campaign").glob("*.yaml")}
    loaded = {"targets.yaml", "bombing.yaml", "options.yaml", "scoresheets.yaml"}
    loaded |= {"pilots.yaml", "card-counts.yaml"}  # engine.dif.pilots, engine.dif.carrier
    assert shipped == loaded | {f.removeprefix("campaign/") for f in CAMPAIGN_FILES}
    assert list(book.campaigns) == [*LAND, *CARRIER, "pearl-harbor"]
    assert shipped_book() is shipped_book()
    assert load_campaign_book(DATA_DIR / "dif") == book, "a pack of the shipped files agrees"


# --- Target Sheets: printed -----------------------------------------------------------------


def test_ground_forces_levels_and_vp_are_printed(book: CampaignBook) -> None:
    # §21.81-21.82, L1557-1569
    ground = book.targets["ground-forces"]
    assert ground.sheet == "3A"
    names = {d: ground.level(d).name for d in range(10)}
    assert [names[d] for d in range(8)] == [
        "Untouched", "Untouched", "Reduced", "Reduced",
        "Disorganized", "Disorganized", "Wrecked", "Wrecked",
    ]  # fmt: skip
    assert ground.level(3).vp == 1 and ground.level(6).vp == 5 and ground.level(20).vp == 5


def test_railway_ratings_are_those_of_the_bombing_example(book: CampaignBook) -> None:
    # L1647-1681: Discretionary Fire 1, Anti-Aircraft 3; Hit 1, Direct 3; 4 -> Damaged, 3 VP
    railway = book.targets["railway"]
    assert (railway.sheet, railway.discretionary, railway.aa) == ("3B", 1, 3)
    scored = railway.damage.points(BombResult.HIT) + railway.damage.points(BombResult.DIRECT)
    assert scored == 4
    assert (railway.level(scored).name, railway.level(scored).vp) == ("Damaged", 3)


def test_destroyer_direct_hit_and_its_torpedo_double(book: CampaignBook) -> None:
    # §21.55, L1507-1509: Direct 4, torpedoed 8; a Miss stays a Miss
    damage = book.targets["destroyer"].damage
    assert damage.points(BombResult.DIRECT) == 4
    assert damage.points(BombResult.DIRECT, torpedo=True) == 8
    assert damage.points(BombResult.MISS, torpedo=True) == 0


def test_battleship_fire_and_strafing(book: CampaignBook) -> None:
    # L1547-1549: AA 4, 5 against strafers at Very Low; a strafing Hit scores 1
    battleship = book.targets["battleship"]
    assert battleship.aa == 4 and battleship.naval and battleship.strafe
    assert book.bombing.aa_cards(battleship.aa, BombingMode.STRAFING, Altitude.VERY_LOW) == 5
    assert battleship.damage.points(BombResult.HIT) == 1


def test_docks_heavily_damaged_follows_the_errata(book: CampaignBook) -> None:
    # L1894 (errata): 8 Damage -> Heavily Damaged, 6 VP; the original's 16 is superseded
    docks = book.targets["docks"].level(8)
    assert (docks.name, docks.vp) == ("Heavily Damaged", 6)


def test_freighter_is_sheet_4a(book: CampaignBook) -> None:
    assert book.targets["freighter"].sheet == "4A"  # L1849


# --- the Bombing Chart: printed -------------------------------------------------------------


def test_level_bombing(book: CampaignBook) -> None:
    chart = book.bombing
    # §21.32: Factor cards, +1 bomb and +1 AA at Very Low
    assert chart.bomb_cards(BombingMode.LEVEL, Altitude.VERY_LOW, factor=2) == 3
    assert chart.aa_cards(3, BombingMode.LEVEL, Altitude.VERY_LOW) == 4
    # L1665-1667: the Ki-30s at Low draw 1 card (their factor) and 3 AA against 3
    assert chart.bomb_cards(BombingMode.LEVEL, Altitude.LOW, factor=1) == 1
    assert chart.aa_cards(3, BombingMode.LEVEL, Altitude.LOW) == 3


def test_dive_bombing(book: CampaignBook) -> None:
    rule = book.bombing.rule(BombingMode.DIVE)
    # §21.41-21.44: from Medium to Low, Capacity + 1; from Low to Very Low, Factor + 2
    low, very_low = rule.row(Altitude.LOW), rule.row(Altitude.VERY_LOW)
    assert low is not None and very_low is not None
    assert (low.start, very_low.start) == (Altitude.MEDIUM, Altitude.LOW)
    assert book.bombing.bomb_cards(BombingMode.DIVE, Altitude.LOW, factor=2) == 3
    assert book.bombing.bomb_cards(BombingMode.DIVE, Altitude.VERY_LOW, factor=2) == 4
    assert very_low.aa == 1
    assert rule.row(Altitude.MEDIUM) is None, "the bombs fall after the free drop"


def test_torpedo_bombing(book: CampaignBook) -> None:
    rule = book.bombing.rule(BombingMode.TORPEDO)
    # §21.52-21.55: one card, double Damage, Naval Targets, Very Low
    assert book.bombing.bomb_cards(BombingMode.TORPEDO, Altitude.VERY_LOW, factor=3) == 1
    assert (rule.damage_multiplier, rule.naval_only) == (2, True)
    assert [r.altitude for r in rule.rows] == [Altitude.VERY_LOW]


def test_saturation_bombing_norden_and_naval_shift(book: CampaignBook) -> None:
    chart = book.bombing
    # L1521: an undamaged B-17E (Saturation 6) with its Norden draws 8
    sat, high = BombingMode.SATURATION, Altitude.HIGH
    assert chart.bomb_cards(sat, high, factor=6, norden=True) == 8
    # errata L1193: no Norden cards against a Naval Target
    assert chart.bomb_cards(sat, high, factor=6, norden=True, naval=True) == 6
    # L1527: against a ship every result drops one level
    drawn = ["miss"] * 3 + ["hit"] * 3 + ["direct", "vital"]
    got = [
        chart.result(BombingMode.SATURATION, card(CardKind.MAN, bomb=b), naval=True).value
        for b in drawn
    ]
    assert got == ["miss"] * 6 + ["hit", "direct"]
    assert chart.result(BombingMode.LEVEL, card(CardKind.MAN, bomb="vital"), naval=True) is (
        BombResult.VITAL
    ), "the shift is Saturation's only"
    # L1671-1675: the Ki-21s at Medium draw their factor, the Damaged one (0) none,
    # and 3 AA cards each against the Railway's 3
    assert chart.bomb_cards(BombingMode.SATURATION, Altitude.MEDIUM, factor=1) == 1
    assert chart.bomb_cards(BombingMode.SATURATION, Altitude.MEDIUM, factor=0) == 0
    assert chart.aa_cards(3, BombingMode.SATURATION, Altitude.MEDIUM) == 3


def test_strafing(book: CampaignBook) -> None:
    chart = book.bombing
    # §21.73, L1549: a Number of Bursts of 0 still draws one card; Very Low only
    assert chart.bomb_cards(BombingMode.STRAFING, Altitude.VERY_LOW, bursts=0) == 1
    assert chart.bomb_cards(BombingMode.STRAFING, Altitude.VERY_LOW, bursts=2) == 2
    with pytest.raises(ValueError, match="strafing is not possible at L"):
        chart.bomb_cards(BombingMode.STRAFING, Altitude.LOW, bursts=1)
    # §21.74: the strafing (over-target) annotation, Hit or Miss only
    vital = card(CardKind.MAN, bomb="vital", over_target="hit")
    assert chart.result(BombingMode.STRAFING, vital, naval=False) is BombResult.HIT


def test_fighters_over_the_target_at_medium_draw_one_aa_card_fewer(book: CampaignBook) -> None:
    # L1659: the Railway's 3 less one against the Hurricanes at Medium
    assert book.bombing.aa_cards(3, BombingMode.NONE, Altitude.MEDIUM) == 2
    assert book.bombing.norden.cards == 2 and not book.bombing.norden.naval


# --- Campaign Sheets: printed ---------------------------------------------------------------


def test_burma_out_of_the_sun_draws_the_freighter_at_rangoon(book: CampaignBook) -> None:
    # §24.44-24.46, L1849
    burma = land(book, "burma")
    period = burma.periods[0]
    assert (period.id, period.name) == ("dec-1941-jan-1942", "Dec 1941–Jan 1942")
    oos = next(c for c in load_deck().cards if c.type.kind is CardKind.OOS)
    mission = burma.mission_for(period.id, oos.type)
    assert mission.number == 15 and mission.name == "Freighter at Rangoon"
    assert mission.location == "Rangoon" and mission.type is MissionType.STRIKE
    assert book.targets[mission.target or ""].sheet == "4A"
    assert mission.attacker is J and mission.aircraft == flights("2 ki-21")


def test_burma_target_16_is_a_ki27_element_against_a_buffalo_element(book: CampaignBook) -> None:
    # L1855
    dogfight = land(book, "burma").target(16)
    assert dogfight.type is MissionType.DOGFIGHT
    assert dogfight.aircraft == flights("L/W ki-27") and dogfight.opponents == flights(
        "L/W buffalo-i"
    )
    assert dogfight.aircraft[0].aircraft_count == 2 == dogfight.opponents[0].aircraft_count


def test_burma_options_2_and_4(book: CampaignBook) -> None:
    # L1879-1881
    burma = land(book, "burma")
    ki43 = burma.option(J, 2)
    assert book.options[ki43.option].kind is OptionKind.AIRCRAFT
    assert ki43.aircraft == flights("L/W ki-43")
    clouds = book.options[burma.option(A, 4).option]
    assert clouds.name == "Clouds Over the Target" and clouds.kind is OptionKind.CLOUDS
    assert (clouds.draw, clouds.result_shift, clouds.aa, clouds.torpedo) == (1, 1, -1, False)


def test_malaya_periods_and_target_11(book: CampaignBook) -> None:
    malaya = land(book, "malaya")
    # L1827
    assert [p.name for p in malaya.periods] == ["December 1941", "January 1942", "February 1942"]
    # L1687: four Ki-21s (Speed 5), 9 / 8 base turns -> 4 / 3 / 3
    eleven = malaya.target(11)
    assert eleven.aircraft == flights("4 ki-21") and str(eleven.turns) == "9/8"
    assert eleven.turns.phases(speed=5) == (4, 3, 3)


def test_coral_sea_large_air_strike_its_cap_and_its_losses(book: CampaignBook) -> None:
    # L2007-2013
    coral = carrier(book, "coral-sea")
    large = coral.sides[J].ops(FlightOps.LARGE)
    assert large.strike == flights("L/W a6m2", "L/W b5n2", "L d3a1")
    assert sum(f.aircraft_count for f in large.strike) == 5
    assert large.cap == flights("L a6m2")
    fleet = coral.record(coral.sides[J].fleet)
    assert fleet is not None and fleet.level(5).strike == -1 and fleet.level(4).strike == 0
    recon = book.options[coral.option(2).option]
    assert (recon.kind, recon.turns, recon.bonus_aircraft) == (OptionKind.RECONNAISSANCE, 2, 1)


def test_coral_sea_options_3_and_7_and_who_strikes_first(book: CampaignBook) -> None:
    # §25.53, L1985-1989
    coral = carrier(book, "coral-sea")
    radar = book.options[coral.option(3).option]
    deck = book.options[coral.option(7).option]
    assert (radar.name, radar.category, radar.enemy_arrival) == ("Radar", "condition", 2)
    assert deck.name == "Loaded Flight Deck" and deck.kind is OptionKind.LOADED_FLIGHT_DECK
    assert min(3, 7) == coral.option(3).number, "the Allied strike resolves first"


def test_midway_cap_extra_cap_and_airfield(book: CampaignBook) -> None:
    midway = carrier(book, "midway")
    # L2019: No Air Strike gives two L/W of F4Fs; Extra CAP one more Element
    assert midway.sides[A].ops(FlightOps.NONE).cap == flights("2 L/W f4f")
    assert book.options[midway.option(4).option].elements == 1
    # L1968, L2037: Midway launches by its Damage and takes the Japanese Fleet Tactics
    airfield = midway.record("midway")
    assert airfield is not None and airfield.tactics is J and airfield.launches
    assert airfield.strike_targets == ("japanese-fleet",)


def test_carrier_rules(book: CampaignBook) -> None:
    rules = book.scoresheets.carrier
    # §25.62: two Turns of Arrival, one of Return Home
    assert (rules.strike_arrival, rules.strike_return) == (2, 1)
    # §25.71, L2037: Long and Medium -> 3 cards; Midway (Japanese Medium twice) -> 2
    r = rules.recovery
    assert r[FleetTactics.LONG] + r[FleetTactics.MEDIUM] == 3
    assert r[FleetTactics.MEDIUM] * 2 == 2 and r[FleetTactics.SHORT] == 0
    assert book.options["no-option"].repeatable  # L1979


def test_the_corrected_mission_vp_example(book: CampaignBook) -> None:
    # L1894 (errata): four G4Ms and two A6M2s against Docks defended by two P-40Bs;
    # 8 Damage, both P-40Bs destroyed, one G4M destroyed, one damaged, two home intact
    awards = book.scoresheets.land.awards
    japanese = book.targets["docks"].level(8).vp + 2 * awards[F].destroyed + 2 * awards[MB].returned
    allied = awards[MB].destroyed + awards[MB].damaged
    assert (japanese, allied) == (26, 15)


def test_the_colin_kelly_mission_carries_its_crew(book: CampaignBook) -> None:
    # L1259: the only Skilled Crew in Zero!
    kelly = next(t for t in land(book, "philippines").targets if t.name == "Colin Kelly Mission")
    assert kelly.crews == ("colin-kelly",) and kelly.aircraft == flights("1 b-17d")


# --- structure ---------------------------------------------------------------------------------


def test_each_period_draws_a_mission_for_every_card_of_the_deck(book: CampaignBook) -> None:
    deck = load_deck()
    assert {DrawCard.of(c.type) for c in deck.cards} == set(DrawCard)
    for id_ in LAND:
        sheet = land(book, id_)
        for period in sheet.periods:
            for c in deck.cards:
                assert sheet.mission_for(period.id, c.type).number >= 1, (id_, period.id)


def test_every_mission_target_exists_and_every_one_can_be_drawn(book: CampaignBook) -> None:
    for id_ in LAND:
        sheet = land(book, id_)
        numbers = {t.number for t in sheet.targets}
        drawn = {n for p in sheet.periods for n in p.missions.values()}
        assert drawn <= numbers, id_
        assert drawn == numbers, f"{id_}: Targets no card draws: {sorted(numbers - drawn)}"
        for target in sheet.targets:
            assert target.target is None or target.target in book.targets, target
    solo = book.campaign("pearl-harbor")
    assert isinstance(solo, SolitaireCampaign)
    assert all(t.target in book.targets for t in solo.targets)


def test_option_numbers_are_unique_and_enough_for_every_mission(book: CampaignBook) -> None:
    for id_ in LAND:
        sheet = land(book, id_)
        for side, options in sheet.options.items():
            numbers = [o.number for o in options]
            assert len(numbers) == len(set(numbers)), (id_, side)
            for period in sheet.periods:
                open_ = [o for o in options if not o.periods or period.id in o.periods]
                assert len(open_) >= sheet.duration, (id_, side, period.id)
    for id_ in CARRIER:
        numbers = [o.number for o in carrier(book, id_).options]
        assert len(numbers) == len(set(numbers)), id_
        assert any(book.options[o.option].repeatable for o in carrier(book, id_).options)


def test_vp_tables_are_monotone(book: CampaignBook) -> None:
    records = [r for c in CARRIER for r in carrier(book, c).records]
    for target in [*book.targets.values(), *records]:
        for low, high in itertools.pairwise(target.levels):
            assert low.damage < high.damage and low.vp <= high.vp, target.name
    for sheet in book.campaigns.values():
        rows = sheet.victory
        for below, above in itertools.pairwise(rows):
            assert below.high is not None and above.low == below.high + 1, sheet.id
            assert below.japanese <= above.japanese and below.allied >= above.allied, sheet.id
        worst, best = victory_row(rows, -1000), victory_row(rows, 1000)
        assert worst.japanese < 0 < worst.allied and best.allied < 0 < best.japanese, sheet.id
    awards = book.scoresheets.land.awards
    assert all(a.destroyed >= a.damaged for a in awards.values())
    # §17.13c: a Light Bomber is worth more than a Fighter
    assert awards[LB].destroyed > awards[F].destroyed and awards[LB].damaged > awards[F].damaged


def test_the_target_sheets_fill_the_four_double_sided_sheets(book: CampaignBook) -> None:
    # components L14: four Target Sheets, both sides
    sheets = sorted(t.sheet for t in book.targets.values())
    assert sheets == [f"{n}{s}" for n in "1234" for s in "AB"]
    assert all(len(t.levels) == 4 for t in book.targets.values())  # §21.81


def test_aircraft_fly_for_their_side_in_the_notation_of_their_class(book: CampaignBook) -> None:
    def check(flight: Flight, side: Side, where: str) -> None:
        assert flight.aircraft in AIRCRAFT, f"{where}: unknown aircraft {flight.aircraft}"
        owner, kind = AIRCRAFT[flight.aircraft]
        assert owner is side, f"{where}: {flight} flies for the other side"
        # §24.46: Bombers and Patrol Aircraft by number, the others as L/W or L
        assert (flight.form is FlightForm.AIRCRAFT) == (kind in FORMATION), f"{where}: {flight}"

    for id_ in LAND:
        sheet = land(book, id_)
        for t in sheet.targets:
            for f in t.aircraft:
                check(f, t.attacker, f"{id_} target {t.number}")
            for f in t.opponents:
                check(f, t.attacker.other, f"{id_} target {t.number}")
        for side, options in sheet.options.items():
            for o in options:
                for f in o.aircraft:
                    check(f, side, f"{id_} option {o.number}")
    for id_ in CARRIER:
        fleets = carrier(book, id_)
        for side, s in fleets.sides.items():
            for f in (*s.recon, *(x for op in s.flight_ops for x in (*op.strike, *op.cap))):
                check(f, side, f"{id_} {side.value}")
        for record in fleets.records:
            for f in (*(x for r in record.launches for x in (*r.strike, *r.cap)),
                      *(x for cap in record.cap_draw.values() for x in cap)):  # fmt: skip
                check(f, record.owner, f"{id_} {record.id}")
    solo = book.campaign("pearl-harbor")
    assert isinstance(solo, SolitaireCampaign)
    for wave in solo.waves:
        for sortie in wave.sorties:
            check(sortie.flight, J, wave.name)
        for row in wave.defense.values():
            for f in row.fighters:
                check(f, A, wave.name)


def test_torpedoes_only_from_torpedo_aircraft_against_ships(book: CampaignBook) -> None:
    for id_ in LAND:
        for t in land(book, id_).targets:
            if t.mode is BombingMode.TORPEDO:
                assert t.altitude is Altitude.VERY_LOW  # §21.53
                assert book.targets[t.target or ""].naval
                assert all(f.aircraft in TORPEDO for f in t.aircraft)
    solo = book.campaign("pearl-harbor")
    assert isinstance(solo, SolitaireCampaign)
    for wave in solo.waves:
        for sortie in wave.sorties:
            if sortie.mode is BombingMode.TORPEDO:
                assert sortie.flight.aircraft in TORPEDO


def test_missions_leave_time_to_arrive_and_fit_the_campaign_dates(book: CampaignBook) -> None:
    for id_ in LAND:
        sheet = land(book, id_)
        for t in sheet.targets:
            if t.turns.fixed is None:
                # at least one Turn of Arrival for Fighters and Light Bombers (Speed 6)
                assert t.turns.phases(6)[0] >= 1, (id_, t.number)
            else:
                assert t.type is not MissionType.STRIKE
        for p in sheet.periods:
            # Zero!: "Dec 1941 - June 1942"
            assert "1941-12" <= p.start <= p.end <= "1942-06", (id_, p.id)


def test_a_larger_air_strike_leaves_a_smaller_cap(book: CampaignBook) -> None:
    for id_ in CARRIER:
        for side, s in carrier(book, id_).sides.items():
            size = {op.ops: sum(f.aircraft_count for f in op.strike) for op in s.flight_ops}
            cap = {op.ops: sum(f.aircraft_count for f in op.cap) for op in s.flight_ops}
            assert size[FlightOps.LARGE] > size[FlightOps.SMALL] > size[FlightOps.NONE] == 0
            assert cap[FlightOps.LARGE] < cap[FlightOps.SMALL] < cap[FlightOps.NONE], (id_, side)


def test_text_forms_round_trip(book: CampaignBook) -> None:
    for text in ("L/W ki-43", "2 L/W f4f", "L d3a1", "4 ki-21", "1 pby"):
        assert str(Flight.from_text(text)) == text
    for sheet in book.campaigns.values():
        if isinstance(sheet, LandCampaign):
            for t in sheet.targets:
                assert Duration.from_text(str(t.turns)) == t.turns
                for f in (*t.aircraft, *t.opponents):
                    assert Flight.from_text(str(f)) == f
    with pytest.raises(ValueError, match="give the number of Bombers"):
        Flight.from_text("ki-21")
    with pytest.raises(ValueError, match="no Full Throttle card"):
        DrawCard.of(CardType(kind=CardKind.FUT))


# --- content packs ---------------------------------------------------------------------------


def pack_with(tmp_path: Path, filename: str, edit: Callable[[Any], None]) -> Path:
    """A pack directory holding the shipped ``filename`` changed by ``edit(raw)``."""
    raw = yaml.safe_load((DATA_DIR / "dif" / filename).read_text(encoding="utf-8"))
    edit(raw)
    (tmp_path / "campaign").mkdir(exist_ok=True)
    (tmp_path / filename).write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return tmp_path


def test_a_bad_target_entry_names_file_entry_and_field(tmp_path: Path) -> None:
    def edit(raw: list[dict[str, object]]) -> None:
        raw[5]["aa"] = -1

    pack = pack_with(tmp_path, "campaign/targets.yaml", edit)
    with pytest.raises(DataError) as info:
        load_campaign_book(pack)
    assert info.value.file.endswith("campaign/targets.yaml")
    assert "targets.yaml: [5] (railway).aa: Input should be greater than or equal to 0" in str(
        info.value
    )


def test_a_mission_naming_no_target_sheet_is_refused(tmp_path: Path) -> None:
    def edit(raw: dict[str, list[dict[str, object]]]) -> None:
        raw["targets"][14]["target"] = "frieghter"

    pack = pack_with(tmp_path, "campaign/burma.yaml", edit)
    with pytest.raises(DataError, match=r"burma\.yaml: targets\[14\] \(#15\)\.target: "
                       r"'frieghter' is no Target Sheet"):  # fmt: skip
        load_campaign_book(pack)


def test_a_period_missing_a_card_is_refused(tmp_path: Path) -> None:
    def edit(raw: dict[str, list[dict[str, dict[str, int]]]]) -> None:
        del raw["periods"][0]["missions"]["SCI"]

    pack = pack_with(tmp_path, "campaign/burma.yaml", edit)
    with pytest.raises(DataError, match=r"burma\.yaml: periods\[0\] \(dec-1941-jan-1942\): "
                       r"missions: no Mission for \['SCI'\]"):  # fmt: skip
        load_campaign("campaign/burma.yaml", pack)


def test_a_twice_used_option_number_is_refused(tmp_path: Path) -> None:
    def edit(raw: dict[str, dict[str, list[dict[str, object]]]]) -> None:
        raw["options"]["allied"][1]["number"] = 1

    pack = pack_with(tmp_path, "campaign/burma.yaml", edit)
    with pytest.raises(DataError, match=r"options\.allied: Option numbers \[1\] used twice"):
        load_campaign("campaign/burma.yaml", pack)


def test_a_printed_mark_on_no_field_is_refused(tmp_path: Path) -> None:
    def edit(raw: list[dict[str, object]]) -> None:
        raw[4]["printed"] = ["levels[1].vpp"]

    pack = pack_with(tmp_path, "campaign/targets.yaml", edit)
    with pytest.raises(DataError, match=r"\[4\] \(ground-forces\): printed: 'levels\[1\]\.vpp'"):
        load_targets(pack)


def test_a_pack_keeps_the_shipped_files_it_lacks(tmp_path: Path, book: CampaignBook) -> None:
    def edit(raw: list[dict[str, object]]) -> None:
        raw[0]["aa"] = 4

    pack = pack_with(tmp_path, "campaign/targets.yaml", edit)
    mine = load_campaign_book(pack)
    assert mine.targets["airfield"].aa == 4 and mine.campaigns == book.campaigns


def test_the_aircraft_named_are_in_the_aircraft_data() -> None:
    """Each aircraft the campaign files may name is in ``aircraft.yaml`` on its side,
    with the role its class says (§17: Light Bombers include the torpedo bombers)."""
    roles = {
        F: {"fighter"},
        LB: {"light_bomber", "torpedo_bomber"},
        MB: {"medium_bomber"},
        HB: {"heavy_bomber"},
        PA: {"patrol"},
    }
    planes = load_aircraft()
    for id_, (side, cls) in AIRCRAFT.items():
        assert id_ in planes, id_
        assert planes[id_].side is side, id_
        assert str(planes[id_].role) in roles[cls], (id_, planes[id_].role)
