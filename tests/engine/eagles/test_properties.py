"""Random legal Eagles in the Sky engagements with the invariants checked after every
action.

Random players play whole engagements: Patrols from the cup (2 to 6 Scouts a side, any
month), every Engagement type with its mission aircraft, and the eight historical
scenarios (the solitaire one included). After every action:

* every card is somewhere exactly once: the draw pile, the discards, the hands (§2.2);
* who tails whom is sound: an aircraft tails at most one enemy, at the same altitude,
  at a level of 1 to 6 (§9.32, §9.35); at most two tail one aircraft (§9.45); a
  dogfight holds at most two aircraft a side (§9.13);
* a shot-down or escaped aircraft stays off the mat and is in no dogfight;
* no hidden card leaks: no public narration line is a hand's draw; the spectators'
  view holds no card; a side's view holds its own hand only;
* one legality truth: every listed action is accepted, and of random variations of
  them (other cards, targets, flags) every one accepted is listed once made
  canonical;
* until the game is over someone is pending with a legal action; the game ends;
* the JSON round trip gives the same state, and the log replays to the final state.

``TALLYHO_EAGLES_PROPERTY_GAMES`` sets the number of games (default 40).
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import replace

import pytest

from engine.core.errors import EngineError
from engine.eagles import mat
from engine.eagles.actions import Action
from engine.eagles.components import EngagementType, Side
from engine.eagles.game import EaglesEngine, default_engine
from engine.eagles.historical import scenario_setup
from engine.eagles.setup import EaglesSetup, PlaneSetup, SideSetup
from engine.eagles.state import GameState

GAMES = int(os.environ.get("TALLYHO_EAGLES_PROPERTY_GAMES", "40"))
MAX_ACTIONS = 2500
TYPES = (
    "patrol",
    "artillery_spotting",
    "photo_recon",
    "contact_patrol",
    "trench_strafing",
    "bombing",
    "airfield_attack",
    "balloon_busting",
)


def random_setup(e: EaglesEngine, rng: random.Random, n: int) -> EaglesSetup:
    """Game ``n``: a scenario every few games, else a random engagement."""
    if n % 5 == 4:
        number = 1 + (n // 5) % 8
        seats = {"allied": ("A1",)} if number == 1 else {"allied": ("A1",), "german": ("G1",)}
        return scenario_setup(e.components, number, seats)
    kind = rng.choice(TYPES)
    attacker = rng.choice(("allied", "german"))
    month = f"19{rng.choice(('17', '18'))}-{rng.randint(1, 11):02d}"
    sides = {}
    for side in ("allied", "german"):
        planes: list[PlaneSetup] = []
        spec = e.tables.engagement(EngagementType(kind))
        mission = spec.mission(Side(side))
        if kind != "patrol" and side == attacker and mission is not None:
            for _ in range(mission.count):
                planes.append(
                    PlaneSetup(
                        aircraft=rng.choice(mission.choices),
                        mission=True,
                        bombs=mission.bombs or mission.may_carry_bombs,
                    )
                )
        if kind == "balloon_busting" and side != attacker:
            planes.append(PlaneSetup(aircraft="balloon"))
        sides[side] = SideSetup(
            seats=(f"{side[0].upper()}1",),
            planes=tuple(planes),
            cup=rng.randint(1, 6),
            draw_size=rng.random() < 0.2,
            pilots={"green": rng.randint(0, 1), "inexperienced": rng.randint(0, 1)},
        )
    return EaglesSetup(
        engagement=kind if rng.random() < 0.9 else None,
        attacker=attacker,
        month=month,
        allied=sides["allied"],
        german=sides["german"],
        weather="draw" if rng.random() < 0.2 else None,
    )


def check_cards(state: GameState) -> None:
    every = state.deck + state.discards + [c for h in state.hands.values() for c in h]
    assert sorted(every) == list(range(1, 111)), "a card is missing or in two places"


def check_mat(state: GameState) -> None:
    flying = {p.ref: p for p in state.planes if p.flying}
    # While an altitude change waits for its followers (§11.51), the chain behind the
    # aircraft that moved is not yet at its altitude.
    waiting = set()
    if state.pending is not None and state.pending.kind == "follow":
        waiting = set(state.pending.chain) | {
            p.ref for p in state.planes if p.tailing in state.pending.chain
        }
    for p in state.planes:
        if not p.flying:
            assert p.tailing is None and p.display is None, f"{p.ref} off the mat but engaged"
            continue
        if p.tailing is not None:
            t = flying[p.tailing]
            assert t.side != p.side, f"{p.ref} tails {t.ref}"
            assert t.altitude == p.altitude or p.ref in waiting, f"{p.ref} tails {t.ref}"
            assert 1 <= p.level <= 6
            assert not t.balloon
        assert len(mat.tailers(state, p.ref)) <= 2, f"{p.ref} tailed by three"
    for fight in mat.dogfights(state):
        for side in ("allied", "german"):
            assert sum(1 for q in fight if q.side == side) <= 2, "three a side in a dogfight"


def check_secrets(e: EaglesEngine, state: GameState, events: list) -> None:
    for ev in events:
        if ev.public:
            assert "You drew" not in str(ev.text)
    spectator = e.view(state, None)
    assert spectator.hand == ()
    for side, seats in state.seats.items():
        for seat in seats:
            view = e.view(state, seat)
            assert sorted(c.number for c in view.hand) == sorted(state.hands[side])


def variations(
    e: EaglesEngine, state: GameState, legal: list[Action], rng: random.Random
) -> list[Action]:
    """Actions near the legal ones: another card, target, symbol or flag."""
    refs = [p.ref for p in state.planes] + ["ground"]
    out: list[Action] = []
    for a in rng.sample(legal, min(len(legal), 6)):
        out.append(replace(a, card=rng.randint(1, 110)) if a.card else a)
        out.append(replace(a, target=rng.choice(refs)) if a.target else a)
        out.append(replace(a, symbol=rng.choice(("climb", "dive", "speed", "agility", None))))
        out.append(
            replace(a, flags=tuple(sorted(set(a.flags) ^ {rng.choice(("hold", "giveup", "+1"))})))
        )
        out.append(replace(a, plane=rng.choice(refs[:-1])) if a.plane else a)
        out.append(replace(a, as_card=rng.choice(("snap", "medal", None))))
    return out


def play(
    e: EaglesEngine, setup: EaglesSetup, seed: int, *, fuzz: bool
) -> tuple[GameState, list[tuple[str, str]]]:
    rng = random.Random(seed)
    state, events = e.new_game(setup, seed)
    log: list[tuple[str, str]] = []
    for _ in range(MAX_ACTIONS):
        check_cards(state)
        check_mat(state)
        check_secrets(e, state, events)
        if e.is_over(state):
            assert not e.pending(state)
            break
        pending = e.pending(state)
        assert pending, "nobody to decide in a running game"
        decision = rng.choice(pending)
        legal = e.legal_actions(state, decision.seat)
        assert legal, f"{decision} has no legal action"
        if fuzz:
            listed = {str(a) for a in legal}
            for a in variations(e, state, legal, rng):
                try:
                    e.apply(state, decision.seat, a)
                except EngineError:
                    continue
                canonical = e.canonical(state, a)
                assert str(canonical) in listed, f"{a} accepted but not listed"
            for a in rng.sample(legal, min(len(legal), 4)):
                e.apply(state, decision.seat, a)  # every listed action is accepted
        action = rng.choice(legal)
        state, events = e.apply(state, decision.seat, action)
        log.append((decision.seat, str(action)))
    else:
        pytest.fail("the engagement did not end")
    return state, log


@pytest.mark.parametrize("chunk", range(4))
def test_random_engagements(chunk: int) -> None:
    e = default_engine()
    rng = random.Random(chunk)
    for n in range(chunk, GAMES, 4):
        setup = random_setup(e, rng, n)
        seed = 1000 + n
        state, log = play(e, setup, seed, fuzz=n % 3 == 0)
        again = e.replay(setup, seed, log)
        assert json.dumps(again.dump(), sort_keys=True) == json.dumps(state.dump(), sort_keys=True)
        loaded = GameState.load(json.loads(json.dumps(state.dump())))
        assert loaded.dump() == state.dump()
        outcome = e.outcome(state)
        assert outcome.over
        assert len(outcome.fates) >= 2
