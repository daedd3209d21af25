"""Random legal games with the invariants checked after every action.

Random players (``engine.lockedon.ai.RandomPlayer``, uniform or steered) play whole
games: duels, 2v2 with Teamwork, 2v1 with Teamwork, three-player free-for-alls;
random aircraft and skills, secret or fixed altitudes, some starting at close range.
After every action:

* every card is somewhere exactly once: draw pile, discard pile, cards in play,
  hands, Aircraft Expertise cards, a missile's mini-hand, a Vertical Roll's set-aside
  climb discard (L137, L250);
* positions are symmetric by construction and only between flying enemies; an
  aircraft is Advantaged on or Tailing at most one enemy (L201), is Advantaged on by
  at most 2 and Tailed by at most 1 (L202), and once nothing is waiting to resolve,
  every holder is within range of its longest weapon (L197);
* Range counters stay between Gun and Active Homing, altitudes between Low and High;
  missiles, Countermeasures and Afterburner counters never go negative nor up;
* a shot-down aircraft stays down, names its shooter (an enemy aircraft, or a site of
  an enemy side in a campaign mission), and VP never go down;
* no hidden card leaks: the spectators' view holds no hand, no Aircraft Expertise
  card, no secret pick and no missile card; a seat's view holds only its own cards;
* until the game is over someone is pending and has a legal action; the game ends
  within its rounds;
* the JSON round trip gives the same state, and the log replays to the final state.

``TALLYHO_LO_PROPERTY_GAMES`` sets the number of games (default 240).
"""

from __future__ import annotations

import json
import os

import pytest

from engine.lockedon import geometry
from engine.lockedon.components import Position
from engine.lockedon.game import LockedOnEngine
from engine.lockedon.setup import LockedOnSetup
from engine.lockedon.state import GameState

from .conftest import KINDS, random_game, random_setup

GAMES = int(os.environ.get("TALLYHO_LO_PROPERTY_GAMES", "240"))
CHUNKS = 6


def cards_everywhere(state: GameState) -> list[int]:
    out = state.deck + state.discard + state.in_play
    for p in state.planes.values():
        out = out + p.hand + p.side_hand
    if state.exchange is not None:
        out = out + state.exchange.mini + state.exchange.aside
    return out


def check_cards(lo: LockedOnEngine, state: GameState, size: int) -> None:
    every = cards_everywhere(state)
    assert len(every) == size, f"{len(every)} cards, expected {size}"
    assert len(set(every)) == size, "a card is in two places"


def check_positions(lo: LockedOnEngine, state: GameState) -> None:
    for key, value in state.positions.items():
        a, _, b = key.partition("|")
        assert a < b and value in (-2, -1, 1, 2)
        pa, pb = state.planes[a], state.planes[b]
        assert pa.flying and pb.flying and pa.side != pb.side
    for seat, p in state.planes.items():
        held = [o for o, pos in geometry.engaged(state, seat) if pos > 0]
        assert len(held) <= 1, f"{seat} holds {held}"
        assert geometry.advantaged_on(state, seat) <= 2
        assert geometry.tailing_on(state, seat) <= 1
        if held and state.exchange is None and not state.follows:
            longest = lo.longest(p)
            assert longest is not None
            assert geometry.range_between(state, seat, held[0]) <= longest
        assert 0 <= p.range <= 3
        assert p.altitude is None or 0 <= p.altitude <= 2
        assert p.cm >= 0 and p.ab_left >= 0 and all(n >= 0 for n in p.missiles.values())
        assert geometry.pos(state, seat, seat) is Position.NEUTRAL


def check_views(lo: LockedOnEngine, state: GameState) -> None:
    spectator = lo.view(state, None)
    for a in spectator.aircraft:
        assert a.hand is None and a.side_hand is None and a.pick is None
    assert spectator.exchange is None or spectator.exchange.mini is None
    for seat in state.planes:
        view = lo.view(state, seat)
        for a in view.aircraft:
            if a.seat != seat:
                assert a.hand is None and a.side_hand is None and a.pick is None
            else:
                assert a.hand is not None and len(a.hand) == a.hand_count
        if view.exchange is not None and view.exchange.actor != seat:
            assert view.exchange.mini is None
    dumped = spectator.model_dump_json()
    assert '"hand":[' not in dumped.replace(" ", "")


def play_and_check(lo: LockedOnEngine, seed: int) -> tuple[GameState, list[tuple[str, str]]]:
    steps = random_game(lo, seed)
    first = next(steps)
    size = len(cards_everywhere(first.before))
    assert size in (len(lo.one_deck), 2 * len(lo.one_deck))
    log: list[tuple[str, str]] = []
    vp_before: dict[str, int] = {}
    down: dict[str, str | None] = {}
    state = first.before
    for count, step in enumerate([first, *steps], start=1):
        state = step.after
        assert count < 4000, "the game never ends"
        log.append((step.seat, str(step.action)))
        check_cards(lo, state, size)
        check_positions(lo, state)
        before, after = step.before, step.after
        for seat, p in after.planes.items():
            q = before.planes[seat]
            assert p.cm <= q.cm and p.ab_left <= q.ab_left
            assert all(p.missiles.get(m, 0) <= n for m, n in q.missiles.items())
            if seat in down:
                assert not p.flying and p.by == down[seat]
            elif not p.flying:
                down[seat] = p.by
                assert p.by is not None
                if p.by in after.planes:
                    assert after.planes[p.by].side != p.side
                else:  # a SAM/AAA site of an enemy side (L298)
                    assert after.mission is not None
                    owners = [s for s, ids in after.mission.sites.items() if p.by in ids]
                    assert any(side != p.side for side in owners)
        vp = lo.victory_points(after)
        assert all(vp.get(k, 0) >= v for k, v in vp_before.items())
        vp_before = vp
        if count % 7 == 0 or after.step == "over":
            check_views(lo, after)
            assert GameState.from_json(json.loads(json.dumps(after.to_json()))) == after
        if after.step != "over":
            pending = lo.pending(after)
            assert pending
            assert any(lo.legal_actions(after, d.seat) for d in pending)
            assert after.round <= after.rounds
    assert state.step == "over" and state.result is not None
    return state, log


def _setup_of(lo: LockedOnEngine, seed: int) -> LockedOnSetup:
    import random

    return random_setup(lo, random.Random(seed), KINDS[seed % len(KINDS)])


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(lo: LockedOnEngine, chunk: int) -> None:
    for seed in range(chunk, GAMES, CHUNKS):
        try:
            final, log = play_and_check(lo, seed)
            if seed % 3 == 0:  # the log replays to the same state
                assert lo.replay(_setup_of(lo, seed), seed, log) == final
        except AssertionError as exc:
            raise AssertionError(f"seed {seed}: {exc}") from exc


@pytest.mark.parametrize("kind", KINDS)
def test_a_logged_game_replays_to_the_same_state(lo: LockedOnEngine, kind: str) -> None:
    import random

    for seed in range(4):
        steps = list(random_game(lo, seed * 10 + 1, kind))
        setup: LockedOnSetup = random_setup(lo, random.Random(seed * 10 + 1), kind)
        final = steps[-1].after
        log = [(s.seat, str(s.action)) for s in steps]
        assert lo.replay(setup, seed * 10 + 1, log) == final


def test_games_reach_every_kind_of_end(lo: LockedOnEngine) -> None:
    winners = draws = 0
    for seed in range(60):
        final = [s.after for s in random_game(lo, seed, "1v1", steer=True)][-1]
        assert final.result is not None
        if final.result["winner"]:
            winners += 1
        else:
            draws += 1
    assert winners and draws
