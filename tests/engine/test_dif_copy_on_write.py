"""Down in Flames planes, elements and turn records are copied on write (issue 16): a
state's clone shares its planes, its elements (of a dogfight or a campaign mission)
and its turn record with the state it was cloned from; a rule changes a plane only
through ``GameState.own``, an element only through ``GameState.own_element`` and the
turn record only through ``GameState.own_turn``, which put a copy in its place first
(engine/dif/state.py).

Random team dogfights and campaign missions are played with every kind of plane
change (damage, a shoot-down and its promoted wingman, an evasion, the Ace's counter
spent, Anti-Aircraft and Discretionary Fire) and of element change (hands drawn and
played, mini-hands, altitudes, counters, a promoted wingman); after every action,
each plane and each element of the state it was applied to, and its turn record, is
checked against a snapshot taken before: these tests fail the moment a rule changes
a shared plane, element or turn record in place. They also check that the sharing
happens: a plane no rule changed is the very object of the state before, and so are
most elements and many turn records.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import astuple

from engine.dif.actions import Action
from engine.dif.game import DifEngine, default_engine
from engine.dif.setup import DifSetup
from engine.dif.state import Element, GameState, Plane, TurnState
from tests.engine.conftest import random_setup
from tests.engine.dif.test_mission_properties import random_mission

MAX_STEPS = 800


def _planes(state: GameState) -> dict[tuple[str, str, int], Plane]:
    """Every plane of the state by where it sits: element, slot (leader, wingman or
    lost) and place among the lost."""
    out: dict[tuple[str, str, int], Plane] = {}
    for e in state.elements.values():
        if e.leader is not None:
            out[(e.seat, "leader", 0)] = e.leader
        if e.wingman is not None:
            out[(e.seat, "wingman", 0)] = e.wingman
        for i, p in enumerate(e.lost):
            out[(e.seat, "lost", i)] = p
    return out


def _snapshot(state: GameState) -> dict[tuple[str, str, int], tuple[object, ...]]:
    return {where: astuple(p) for where, p in _planes(state).items()}


def _elements(state: GameState) -> dict[str, tuple[object, ...]]:
    """Every element's values, its lists and planes included (``astuple`` recurses)."""
    return {seat: astuple(e) for seat, e in state.elements.items()}


def _choose(engine: DifEngine, state: GameState, seat: str, rng: random.Random) -> Action:
    """At random, but evading (12.1) and spending the Ace's counter (a card declared
    ``ACE``) often, so that every kind of plane change happens."""
    legal = engine.legal_actions(state, seat)
    aces = [a for a in legal if a.as_kind == "ACE"]
    if aces and rng.random() < 0.3:
        return rng.choice(aces)
    evade = [a for a in legal if a.verb == "evade"]
    if evade and rng.random() < 0.03:
        return evade[0]
    attacks = [a for a in legal if a.verb in ("play", "respond", "wm", "bomb", "strafe")]
    if attacks and rng.random() < 0.7:
        return rng.choice(attacks)
    return rng.choice(legal)


def _setups() -> Iterator[tuple[DifSetup, int]]:
    """Three-a-side dogfights whose leaders are Aces (RotL "Pilots") and worn, and
    missions."""
    engine = default_engine()
    for seed in range(10):
        rng = random.Random(seed)
        if seed % 2:
            yield random_mission(engine, rng), seed
            continue
        data = random_setup(engine, rng, (3, 3)).model_dump(mode="json")
        for e in data["elements"]:
            e["pilot"] = sorted({*e["pilot"], "A"})
        # Leaders start two hits short of going down: more are shot down, and their
        # wingmen promoted (11.2).
        data["hits"] = {
            f"{e['seat']}L": engine.aircraft[e["aircraft"]].leader_card.damaged.damage_capacity - 2
            for e in data["elements"]
        }
        yield DifSetup.model_validate(data), seed


def _play(setup: DifSetup, seed: int, seen: set[str], shared: list[int]) -> None:
    """One game, checking every action: the planes and the elements of the state
    before are unchanged, and a plane of the state after is the very object before
    unless a rule changed it. ``shared``: planes, elements, then turn records, shared
    so far."""
    engine = default_engine()
    rng = random.Random(seed)
    state, _ = engine.new_game(setup, seed)
    for _ in range(MAX_STEPS):
        if state.step == "over":
            return
        seat = engine.pending(state)[0].seat
        action = _choose(engine, state, seat, rng)
        before = _snapshot(state)
        planes = _planes(state)
        elements = _elements(state)
        objects: dict[str, Element] = dict(state.elements)
        turn = astuple(state.t)
        after, events = engine.apply(state, seat, action)
        assert _snapshot(state) == before, f"seed {seed}: {seat} {action} changed a shared plane"
        changed = [k for k, e in _elements(state).items() if e != elements[k]]
        assert not changed, f"seed {seed}: {seat} {action} changed the shared elements {changed}"
        assert astuple(state.t) == turn, f"seed {seed}: {seat} {action} changed the shared turn"
        shared[1] += sum(1 for k, e in after.elements.items() if e is objects[k])
        shared[2] += after.t is state.t
        seen.update(ev.kind for ev in events)
        if action.as_kind == "ACE":
            seen.add("ace")
        for where, p in _planes(after).items():
            old = planes.get(where)
            if old is not None and astuple(old) == astuple(p):
                assert old is p, f"seed {seed}: {seat} {action} copied an unchanged plane"
                shared[0] += 1
        state = after


def test_no_action_changes_a_plane_of_the_state_it_was_applied_to() -> None:
    """Every game checked action by action; the games reach every rule that changes a
    plane (else they would prove little), and their states share planes."""
    seen: set[str] = set()
    shared = [0, 0, 0]
    for setup, seed in _setups():
        _play(setup, seed, seen, shared)
    wanted = {"damage", "damaged", "destroyed", "promoted", "evasion", "ace", "fire"}
    wanted |= {"draw", "altitude", "reveal"}
    assert wanted <= seen, sorted(wanted - seen)
    assert shared[0] > 1000
    assert shared[1] > 1000
    assert shared[2] > 200  # of about 470 actions, most of them attacks, which change it


def test_own_copies_a_plane_once_and_leaves_the_original_alone() -> None:
    engine = default_engine()
    state, _ = engine.new_game(random_setup(engine, random.Random(1), (2, 2)), 1)
    assert state.own(state.elements["A1"].leader) is state.elements["A1"].leader  # type: ignore[arg-type]
    clone = state.clone()
    leader = state.elements["A1"].leader
    assert leader is not None and clone.elements["A1"].leader is leader
    mine = clone.own(leader)
    assert mine is not leader and mine == leader
    assert clone.elements["A1"].leader is mine and state.elements["A1"].leader is leader
    assert clone.own(mine) is mine
    # The original is no plane of the clone's any more: a copy of it, placed nowhere.
    assert clone.own(leader) is not mine and clone.elements["A1"].leader is mine
    mine.hits += 3
    assert leader.hits == 0


def test_own_element_copies_an_element_once_and_leaves_the_original_alone() -> None:
    engine = default_engine()
    state, _ = engine.new_game(random_setup(engine, random.Random(1), (2, 2)), 1)
    assert state.own_element("A1") is state.elements["A1"]  # a new game owns every part
    clone = state.clone()
    original = state.elements["A1"]
    assert clone.elements["A1"] is original
    mine = clone.own_element("A1")
    assert mine is not original and mine == original
    assert clone.elements["A1"] is mine and state.elements["A1"] is original
    assert clone.own_element("A1") is mine
    assert mine.hand is not original.hand and mine.leader is original.leader  # planes: own
    mine.hand.append(999)
    mine.altitude = 4
    assert 999 not in original.hand and original.altitude != 4
    # Owning a plane owns its element first: the original keeps its plane.
    other = clone.elements["X1"]
    assert other is state.elements["X1"] and other.leader is not None
    leader = clone.own(other.leader)
    assert clone.elements["X1"] is not other and clone.elements["X1"].leader is leader
    assert state.elements["X1"] is other and other.leader is not leader


def test_own_turn_copies_the_turn_once_and_leaves_the_original_alone() -> None:
    engine = default_engine()
    state, _ = engine.new_game(random_setup(engine, random.Random(1), (2, 2)), 1)
    assert state.own_turn() is state.t  # a new game owns every part
    clone = state.clone()
    original = state.t
    assert clone.t is original
    mine = clone.own_turn()
    assert mine is not original and mine == original and clone.t is mine
    assert clone.own_turn() is mine
    mine.bursts_used += 2
    mine.target = "X1L"
    assert original.bursts_used == 0 and original.target is None
    # A record a rule puts in place is the clone's own: owning it copies nothing.
    again = state.clone()
    fresh = again.t = TurnState(start_alt=3)
    assert again.own_turn() is fresh


def test_a_mission_clone_shares_its_elements_until_they_change() -> None:
    """A campaign mission's clone shares its elements like a dogfight's (its own
    state, ``mission``, is copied whole)."""
    engine = default_engine()
    state, _ = engine.new_game(random_mission(engine, random.Random(2)), 2)
    assert state.mission is not None
    clone = state.clone()
    assert clone.mission == state.mission and clone.mission is not state.mission
    seat = next(iter(state.elements))
    original = state.elements[seat]
    for k, e in clone.elements.items():
        assert e is state.elements[k]
    mine = clone.own_element(seat)
    assert mine is not original and mine == original and clone.own_element(seat) is mine
    mine.hand.append(999)
    assert 999 not in original.hand


def test_mission_actions_change_no_element_of_the_state_they_were_applied_to() -> None:
    """More campaign missions than the test above plays (bombing, strafing, Anti-
    Aircraft Fire, formations and their counter-attacks, a light bomber's help,
    Abandons), checked action by action: a mission's clone shares its elements."""
    engine = default_engine()
    seen: set[str] = set()
    shared = [0, 0, 0]
    for seed in range(100, 130):
        _play(random_mission(engine, random.Random(seed)), seed, seen, shared)
    wanted = {"bombs", "fire", "help", "angle", "damage", "destroyed", "promoted"}
    assert wanted <= seen, sorted(wanted - seen)
    assert shared[1] > 1000
