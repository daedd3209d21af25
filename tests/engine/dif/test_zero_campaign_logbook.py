"""The Zero! campaigns' pilot logbook (``ZeroCampaigns.logbook``): the Skilled Pilots
drawn for each game (§19.24), their kills, and the cup they leave when shot down. A
whole Land and a whole Carrier Campaign played by computer players, their games ended
by hand-built outcomes whose shoot-downs name their shooter."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pytest

from engine.core.campaign import CampaignEntry, EntryKind, PilotFate, outcome_text, replay
from engine.core.contract import Fate, Outcome
from engine.dif.campaign import ZeroCampaigns, campaign_system
from engine.dif.campaign_mission import FlownPilot, logbook
from engine.dif.setup import DifSetup
from tests.engine.dif.test_zero_campaign import hand_outcome


def _with_shooters(setup: object, k: int) -> Outcome:
    """:func:`hand_outcome`, each aircraft shot down credited to the other side's first
    Leader (the one a Skilled Pilot flies, when one was drawn)."""
    outcome = hand_outcome(setup, k)
    assert isinstance(setup, DifSetup)
    first = {}
    for e in setup.elements:
        first.setdefault(e.side.value, e.seat + "L")
    fates = tuple(
        dataclasses.replace(f, by=next((r for s, r in first.items() if s != f.side), None))
        if f.fate is Fate.SHOT_DOWN
        else f
        for f in outcome.fates
    )
    return dataclasses.replace(outcome, fates=fates)


def _play(
    zc: ZeroCampaigns,
    setup: dict[str, str],
    seed: int,
    seats: dict[int, Mapping[str, str]] | None = None,
) -> tuple[Any, list[CampaignEntry]]:
    """The campaign to its end by computer decisions; the logbook never shows a game
    not yet flown (its pilots are drawn and briefed, but it has no entry). ``seats``,
    if given, gets each game's seats and the side flying each."""
    state = zc.new_campaign(setup, seed)
    log: list[CampaignEntry] = []
    games = 0
    while not zc.is_over(state):
        book = zc.logbook(state)
        if zc.mission_ready(state):
            upcoming = zc.next_mission(state)
            assert upcoming is not None
            assert all(m.mission < upcoming.number for p in book for m in p.missions)
            plan = zc.mission_setup(state)
            if seats is not None:
                seats[upcoming.number] = plan.seat_sides
            outcome = _with_shooters(plan.setup, games)
            games += 1
            log.append(CampaignEntry(EntryKind.OUTCOME, text=outcome_text(outcome)))
            state = zc.absorb(state, outcome)
            continue
        for d in zc.pending(state):
            action = zc.computer_action(state, d.side, seed + len(log))
            log.append(CampaignEntry(EntryKind.DECISION, d.side, str(action)))
            state = zc.apply(state, d.side, action)
            if not zc.mission_ready(state):  # a secret pick changes nothing in it
                assert zc.logbook(state) == book
    return state, log


@pytest.mark.parametrize("campaign", ["burma", "coral-sea"])
def test_the_logbook_follows_every_skilled_pilot_who_flew(campaign: str) -> None:
    zc = campaign_system()
    setup = {"campaign": campaign}
    state, log = _play(zc, setup, 2026)
    book = zc.logbook(state)
    assert book and len({p.id for p in book}) == len(book)
    flown = [p for s in state.scores for p in s.flown]
    assert sum(p.kills for p in book) == sum(p.kills for p in flown) > 0
    assert {p.id for p in book} == {p.key for p in flown}
    down = {p.counter for p in flown if p.fate is Fate.SHOT_DOWN and not p.crew}
    assert down == set(state.lost), "a Skilled Pilot shot down leaves the cup"
    for entry in book:
        numbers = [m.mission for m in entry.missions]
        assert numbers == sorted(set(numbers))
        assert entry.wounds == 0  # no wounds in Zero!'s campaigns
        lost = [m for m in entry.missions if m.lost]
        counter = entry.id.split(":")[0]
        if lost:
            assert entry.fate is PilotFate.MISSING and lost == [entry.missions[-1]]
        elif counter in down:
            assert entry.fate is PilotFate.RETIRED  # the other face of a lost counter
        else:
            assert entry.fate is PilotFate.ACTIVE
        assert entry.ace == ("A" in next(p.skills for p in flown if p.key == entry.id))
    assert any(p.fate is PilotFate.MISSING for p in book)
    assert zc.logbook(replay(zc, setup, 2026, log)) == book


@pytest.mark.parametrize("campaign", ["burma", "coral-sea"])
def test_each_mission_names_the_seat_his_element_flew(campaign: str) -> None:
    """A Skilled Pilot or Crew flies a Leader's aircraft (§19.24): his mission names
    that element's seat of the game, one of his side's (the seat the bot maps to the
    member who held it)."""
    zc = campaign_system()
    seats: dict[int, Mapping[str, str]] = {}
    state, _ = _play(zc, {"campaign": campaign}, 2026, seats)
    flown = {(n, p.key): p.seat for n, s in enumerate(state.scores, start=1) for p in s.flown}
    book = zc.logbook(state)
    assert book
    for pilot in book:
        for m in pilot.missions:
            assert m.seat is not None and seats[m.mission][m.seat] == pilot.side, (pilot.id, m)
            assert flown[(m.mission, pilot.id)] == m.seat
    used = {(m.mission, m.seat) for p in book for m in p.missions}
    assert len({seat for _, seat in used}) > 1, "pilots on several seats"


def test_a_gone_counter_is_never_drawn_again() -> None:
    """Neither man of a counter shot down flies again (its other face: retired)."""
    zc = campaign_system()
    state, _ = _play(zc, {"campaign": "coral-sea"}, 2026)
    book = zc.logbook(state)
    gone = [p for p in book if p.fate.gone]
    assert {p.fate for p in gone} == {PilotFate.MISSING, PilotFate.RETIRED}
    for entry in gone:
        counter = entry.id.split(":")[0]
        face = [m for p in book if p.id.split(":")[0] == counter for m in p.missions]
        assert max(m.mission for m in face) == max(m.mission for m in face if m.lost)


def _flew(counter: str, face: int, name: str, fate: Fate, **more: object) -> FlownPilot:
    return FlownPilot.model_validate(
        {
            "counter": counter,
            "face": face,
            "name": name,
            "side": "japanese",
            "seat": "X1",
            "aircraft": "a6m2",
            "fate": fate,
            **more,
        }
    )


def test_fates_of_pilots_the_other_face_and_a_crew() -> None:
    """Shot down: missing; the other side of his counter: retired; a Crew shot down
    stays in the draw (§19.34); "A" makes an ace (§19.25), kills add up."""
    book = logbook(
        [
            (1, "one", (_flew("ijn-1", 0, "Iwamoto", Fate.UNHARMED, kills=2, skills=("A",)),)),
            (2, "two", (_flew("ijn-1", 1, "Nishizawa", Fate.SHOT_DOWN, skills=("CV",)),)),
            (3, "three", (_flew("crew-1", 0, "Kelly", Fate.SHOT_DOWN, crew=True),)),
        ]
    )
    iwamoto, nishizawa, kelly = book
    assert (iwamoto.fate, iwamoto.kills, iwamoto.ace) == (PilotFate.RETIRED, 2, True)
    assert (nishizawa.fate, nishizawa.ace) == (PilotFate.MISSING, False)
    assert nishizawa.missions[0].lost and not kelly.missions[0].lost
    assert kelly.fate is PilotFate.ACTIVE
    assert [p.id for p in book] == ["ijn-1:0", "ijn-1:1", "crew-1:0"]


def test_pearl_harbor_has_no_pilots_to_log() -> None:
    zc = campaign_system()
    state = zc.new_campaign({"campaign": "pearl-harbor"}, 1)
    assert zc.logbook(state) == ()
