"""The Eagles in the Sky campaign's pilot logbook (``EaglesCampaigns.logbook``): a
whole shipped campaign played by computer players, its games ended by outcomes with
kills, wounds and losses, the logbook checked against the Squadron Logs (§2.3) and the
Campaign Log's reports; nothing of a mission being assigned or flown shows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.campaign import CampaignEntry, EntryKind, PilotFate, outcome_text, replay
from engine.core.contract import AircraftFate, Fate, Outcome
from engine.eagles.campaign import EaglesCampaigns, EaglesCampaignSetup, campaign_system
from strings import Term

SETUP = EaglesCampaignSetup(campaign="normal-activity", month="1917-10", days=3)
SEED = 17


def _outcome(plan: Any, n: int) -> Outcome:
    """Every squadron aircraft of the Engagement: every third German shot down by the
    first Allied aircraft (its kill), every fourth Allied one damaged by the first
    German (a Safe Return draw, §5.6), every fifth Allied pilot wounded (§10.21)."""
    refs: dict[str, list[tuple[str, str]]] = {}
    for side in ("allied", "german"):
        refs[side] = [
            (f"{side[0].upper()}{i}", p.pilot)
            for i, p in enumerate(plan.setup.side(side).planes)
            if p.pilot
        ]
    first = {side: rows[0][0] if rows else None for side, rows in refs.items()}
    fates: list[AircraftFate] = []
    kills: dict[str, list[str]] = {}
    for i, (ref, pid) in enumerate(refs["german"]):
        down = (n + i) % 3 == 0 and first["allied"] is not None
        if down:
            kills.setdefault(str(first["allied"]), []).append(ref)
        fates.append(
            AircraftFate(
                ref,
                "G1",
                "german",
                "x",
                Fate.SHOT_DOWN if down else Fate.UNHARMED,
                by=first["allied"] if down else None,
                record={"pilot_id": pid, "damage": {}, "crew": {}, "kills": []},
            )
        )
    for i, (ref, pid) in enumerate(refs["allied"]):
        damaged = (n + i) % 4 == 0 and first["german"] is not None
        crew = {"pilot": "wounded"} if (n + i) % 5 == 0 else {}
        fates.append(
            AircraftFate(
                ref,
                "A1",
                "allied",
                "x",
                Fate.DAMAGED if damaged else Fate.UNHARMED,
                by=first["german"] if damaged else None,
                damaged=damaged,
                record={
                    "pilot_id": pid,
                    "damage": {"wing": 1, "engine": 1} if damaged else {},
                    "crew": crew,
                    "kills": kills.get(ref, []),
                },
            )
        )
    vp = {"allied": 3 * sum(len(k) for k in kills.values()), "german": n % 3}
    return Outcome(True, None, "", vp, tuple(fates), 8)


def _play(
    sys_: EaglesCampaigns, seats: dict[int, Mapping[str, str]] | None = None
) -> tuple[Any, list[CampaignEntry]]:
    """The campaign to its end; at each step, nothing of the mission under way is in
    the logbook (a secret assignment changes nothing in it; a game being flown has no
    entry). ``seats``, if given, gets each game's seats and the side flying each."""
    state = sys_.new_campaign(SETUP, SEED)
    log: list[CampaignEntry] = []
    n = 0
    while not sys_.is_over(state):
        n += 1
        assert n < 500
        before = sys_.logbook(state)
        pending = sys_.pending(state)
        if pending:
            d = pending[0]
            action = sys_.computer_action(state, d.side, SEED + n)
            log.append(CampaignEntry(EntryKind.DECISION, d.side, str(action)))
            after = sys_.apply(state, d.side, action)
            if any(p.mission == d.mission for p in sys_.pending(after)):  # still secret
                assert sys_.logbook(after) == before
            state = after
            continue
        current = sys_.current(state)
        assert current is not None and sys_.mission_ready(state)
        assert all(m.mission != current.number for p in before for m in p.missions)
        plan = sys_.mission_setup(state)
        if seats is not None:
            seats[current.number] = plan.seat_sides
        outcome = _outcome(plan, n)
        log.append(CampaignEntry(EntryKind.OUTCOME, None, outcome_text(outcome)))
        state = sys_.absorb(state, outcome)
    return state, log


def test_the_logbook_agrees_with_the_squadron_logs_and_replays() -> None:
    sys_ = campaign_system()
    state, log = _play(sys_)
    book = sys_.logbook(state)
    assert len({p.id for p in book}) == len(book)
    pilots = {f"{side}-{p.id}": p for side, sq in state.squadrons.items() for p in sq.pilots}
    assert set(pilots) == {p.id for p in book}, "every pilot ever on a Squadron Log (§2.3)"
    done = [s for s in state.sorties if s.status == "done"]
    for entry in book:
        p = pilots[entry.id]
        assert entry.kills == p.kills, entry.id  # §9.3: every kill credited on a mission
        flown = [s.number for s in done for pid, _ in s.flights.get(entry.side, []) if pid == p.id]
        assert [m.mission for m in entry.missions] == flown
        wounded = [
            s.number for s in done if ["wounded", {"side": entry.side, "pilot": p.id}] in s.report
        ]
        assert [m.mission for m in entry.missions if m.wounded] == wounded  # §10.21
        if p.status == "lost":
            assert entry.fate.gone
            lost = [m for m in entry.missions if m.lost]
            if p.fate != "invalided":
                assert lost and lost[-1] is entry.missions[-1], "flies no later mission"
        else:
            assert not any(m.lost for m in entry.missions)
            ready = p.status == "ready"
            assert entry.fate is (PilotFate.ACTIVE if ready else PilotFate.RECOVERING)
        assert entry.ace == (p.ace or p.quality == "ace")  # §9.31
    assert sum(p.kills for p in book) > 0
    assert any(p.fate.gone for p in book) and any(p.wounds for p in book)
    assert sys_.logbook(replay(sys_, SETUP, SEED, log)) == book

    shot_down = [
        p
        for p in book
        if p.missions and p.missions[-1].result == Term("logbook.eagles.result.shot_down")
    ]
    assert shot_down, "the outcomes shoot Germans down"
    for entry in shot_down:  # killed or captured with his aircraft (G-E7)
        assert entry.fate is PilotFate.KILLED
        assert entry.status == Term("logbook.eagles.fate.killed_in_action")


def test_each_mission_names_the_seat_that_flew_the_pilot() -> None:
    """A mission flown as a game names its game's seat of the pilot's squadron (the
    seat the bot maps to the member who held it); an Encounter, settled without a game
    (§7), names none."""
    sys_ = campaign_system()
    seats: dict[int, Mapping[str, str]] = {}
    state, _ = _play(sys_, seats)
    missions = [(p.side, m) for p in sys_.logbook(state) for m in p.missions]
    played = [(side, m) for side, m in missions if m.mission in seats]
    assert played and len(played) < len(missions), "games and Encounters both"
    for side, m in played:
        assert m.seat is not None and seats[m.mission][m.seat] == side, (side, m)
    assert all(m.seat is None for _, m in missions if m.mission not in seats)
