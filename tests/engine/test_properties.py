"""Random legal games with the invariants checked after every action.

Random players (``engine.dif.ai.RandomPlayer``) play whole games: duels and team
dogfights from 2v2 to 6v6 (some uneven), random aircraft of a random year (jets,
rockets, gunners, heavy cannons, small targets), leaders with and without wingmen,
random pilot skills, both rulesets, a random shared starting altitude or secretly
picked ones, the turn-1 player order chosen in play. After every action:

* every card is somewhere exactly once: draw pile, discard pile, cards in play,
  hands, attacking and defending mini-hands (Full Throttle counters are not cards);
* positions are symmetric, only between enemy leaders in the fight at the same
  altitude, and a leader is engaged with at most one enemy leader (6.6a);
* in one player-turn each aircraft attacks at most one aircraft, and only the
  active element's aircraft attack (8.5b, 6.6d);
* damage never goes down, a damaged aircraft never flips back, a destroyed or
  evaded one never comes back, victory points never go down;
* no hidden card leaks: the spectator view holds no hand, mini-hand, secret pick,
  deck order or seed, a seat's view holds no other seat's cards, and every public
  narration line names only cards that this action made public (played, discarded,
  paid, drawn face up for an evasion), cards already in play, or cards that lay face
  up in a discard pile this action reshuffled (even if drawn straight back);
* until the game is over someone is pending, and every pending seat has a legal
  action; the game ends within six game turns.

The default run plays 600 games, a third of them duels (about a minute and a half
on one core; team games run several hundred actions each). Set
``TALLYHO_PROPERTY_GAMES`` to play more, e.g.
``TALLYHO_PROPERTY_GAMES=20000 pytest tests/engine/test_properties.py``.
A failure names the seed; ``play_and_check(engine, seed)`` replays it.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections import Counter

import pytest

from engine.core.events import Event
from engine.dif.actions import CARD_CODE, Action
from engine.dif.components import Ruleset, Side
from engine.dif.game import DifEngine
from engine.dif.state import GameState, Plane

from .conftest import GameFactory, Play, Step, random_game, random_setup

GAMES = int(os.environ.get("TALLYHO_PROPERTY_GAMES", "240"))
CHUNKS = 8
MAX_ACTIONS = 3000


def _identity(seat: str, p: Plane) -> str:
    # A promoted leader is the element's former wingman (11.2): same aircraft, same hits.
    return seat + ("W" if p.promoted or p.role == "wingman" else "L")


def _planes(state: GameState) -> dict[str, Plane]:
    return {_identity(e.seat, p): p for e in state.elements.values() for p in e.planes()}


def _zones(state: GameState) -> dict[str, list[int]]:
    zones = {"deck": state.deck, "discard": state.discard, "in_play": state.in_play}
    for e in state.elements.values():
        zones[f"{e.seat} hand"] = e.hand
        zones[f"{e.seat} minihand"] = e.minihand
        zones[f"{e.seat} defence"] = e.defence
    for seat, f in (state.mission or {}).get("formations", {}).items():
        zones[f"{seat} defence"] = f.get("defence", [])  # Zero! §20.41
    return zones


HIDDEN = re.compile(r"^(deck|\w+ hand|\w+ minihand|\w+ defence)$")


def _hidden_cards(state: GameState) -> Counter[int]:
    return Counter(c for zone, cards in _zones(state).items() if HIDDEN.match(zone) for c in cards)


def check_cards(engine: DifEngine, state: GameState) -> None:
    every = [c for cards in _zones(state).values() for c in cards]
    counts = Counter(every)
    deck = list(engine.deck_ids[Ruleset(state.ruleset)])
    assert sorted(counts) == deck, "a card is missing or invented"
    dup = [c for c, n in counts.items() if n > 1]
    assert not dup, f"cards in two places: {dup}"
    if state.exchange is not None:
        played = [state.exchange.card] + [c for c, _ in state.exchange.chain]
        real = {c for c in played if c != engine.counter}  # counters are not cards
        assert real <= set(state.in_play), "cards of the exchange are in play"


def check_positions(engine: DifEngine, state: GameState) -> None:
    seats = list(state.elements)
    engaged: Counter[str] = Counter()
    for key, value in state.positions.items():
        a, b = key.split("|")
        assert a < b and value in (-2, -1, 1, 2), (key, value)
        ea, eb = state.elements[a], state.elements[b]
        assert ea.side != eb.side, "positions only between enemies"
        assert ea.in_fight and eb.in_fight, "positions only between leaders in the fight"
        following = state.follow is not None and {state.follow.mover, state.follow.follower} == {
            a,
            b,
        }
        if not following:  # until the follower decides, it keeps its position (7.21d)
            assert ea.altitude == eb.altitude, "engaged leaders share an altitude"
        engaged.update((a, b))
    assert all(n == 1 for n in engaged.values()), f"engaged twice: {engaged}"
    for a in seats:
        for b in seats:
            assert engine.pos(state, a, b) == -engine.pos(state, b, a)
        other = engine.engaged_with(state, a)
        assert (other is None) == (engaged[a] == 0)


def check_monotonic(engine: DifEngine, before: GameState, after: GameState) -> None:
    old, new = _planes(before), _planes(after)
    assert set(old) <= set(new), "an aircraft vanished"
    for key, p in old.items():
        q = new[key]
        assert q.hits >= p.hits, f"{key} lost damage"
        assert q.damaged or not p.damaged, f"{key} flipped back"
        if p.status != "flying":
            assert q.status == p.status, f"{key} came back"
    vp_old, vp_new = engine.victory_points(before), engine.victory_points(after)
    assert all(vp_new[s] >= vp_old[s] for s in Side)
    for e in after.elements.values():
        assert e.altitude is None or 0 <= e.altitude <= engine.aircraft[e.aircraft].max_altitude


_QUOTED_CODE = re.compile('"(' + CARD_CODE.pattern.strip("^$") + ')"')


def _codes_in(data: object) -> list[str]:
    """Every string of a JSON-like value that is a card code (searched in its JSON)."""
    return _QUOTED_CODE.findall(json.dumps(data))


def check_views(engine: DifEngine, state: GameState, seats: list[str] | None = None) -> None:
    """The spectator's view and the views of ``seats`` (default: every seat) show no
    hidden card but the viewer's own."""
    spectator = json.loads(engine.view(state, None).model_dump_json())
    codes = _codes_in(spectator)
    assert not codes, f"card codes in the spectator view: {codes}"
    assert not {"deck", "seed", "rng", "hand", "discard"} & set(spectator)
    assert spectator["deck_count"] == len(state.deck)
    for e in spectator["elements"]:
        assert e["hand"] is None and e["minihand"] is None and e["pick"] is None
    for seat in seats if seats is not None else list(state.elements):
        own = state.elements[seat]
        view = json.loads(engine.view(state, seat).model_dump_json())
        assert not {"deck", "seed", "rng"} & set(view)
        for e in view["elements"]:
            if e["seat"] == seat:
                assert sorted(e["hand"]) == sorted(engine.code[c] for c in own.hand)
                assert sorted(e["minihand"]) == sorted(
                    engine.code[c] for c in own.minihand + own.defence
                )
            else:
                assert e["hand"] is None and e["minihand"] is None and e["pick"] is None
        others = [e for e in view["elements"] if e["seat"] != seat]
        codes = _codes_in({**view, "elements": others})
        assert not codes, f"card codes in {seat}'s view outside its own hand: {codes}"


# A declared kind names the kind, not a card: "plays Barrel Roll as Full Throttle".
_AS_KIND = re.compile(r"\s*\(?as (?:Scissors|Full Throttle)\)?")


def check_narration(engine: DifEngine, step: Step) -> None:
    """Public lines name only cards this action made public, or cards already in play."""
    hidden_before = _hidden_cards(step.before)
    hidden_after = _hidden_cards(step.after)
    revealed = hidden_before - hidden_after  # left a hand / the deck for a public pile
    public_after = Counter(step.after.discard) + Counter(step.after.in_play)
    shown = {c for c in revealed if public_after[c]} | set(step.before.in_play)
    # Full Throttle counters are public: they lie on the table (RotL L134).
    allowed = {engine.label[c] for c in shown} | {engine.label[engine.counter]}
    if any(e.kind == "reshuffle" for e in step.events):
        # The deck ran out (4.61): every card of the new draw pile lay face up in the
        # discard pile, including cards just paid, discarded or drawn (an evasion) in
        # this action. Some are in the draw pile now; the others were drawn from it,
        # maybe straight back into the hand that paid them: the piles after the action
        # cannot show those, the draws can. The old draw pile was emptied first, so
        # whatever was drawn beyond its cards came from the shuffled pile.
        shown = set(step.after.deck) | set(step.before.discard)
        drawn = Counter(code for e in step.events if e.kind == "drew" for code in e.data["cards"])
        from_shuffle = drawn - Counter(engine.code[c] for c in step.before.deck)
        allowed |= {engine.label[c] for c in shown} | {engine.card_label(c) for c in from_shuffle}
    labels = sorted(set(engine.label), key=len, reverse=True)
    for event in step.events:
        if not event.public:
            continue
        text = _AS_KIND.sub("", event.text)
        for label in labels:
            if label in text:
                assert label in allowed, f"public line names a hidden card: {event.text!r}"
                text = text.replace(label, "")


def check_pending(engine: DifEngine, state: GameState) -> None:
    pending = engine.pending(state)
    if state.step == "over":
        assert pending == [] and state.result is not None
        return
    assert pending, "nobody to move before the game is over"
    for p in pending:
        assert engine.legal_actions(state, p.seat), f"{p.seat} has no legal {p.kind}"
    if state.step not in ("setup", "redraw"):
        assert state.max_turns is None or 1 <= state.turn <= state.max_turns


# Elements per side (Allied, Axis): one in three games is a duel, the rest team
# dogfights from 2v2 to 6v6, some uneven (RotL: "the number of players on each team
# may be unequal").
SIZES = [(1, 1), (2, 2), (3, 3), (1, 1), (4, 4), (5, 5), (1, 1), (6, 6), (2, 3)]


class AttackTracker:
    """Per player-turn: every aircraft attacks at most one aircraft (8.5b, RotL "A LDR
    (or WM) may only attack one enemy aircraft per turn"), and only the active
    element's leader, gunner and wingman attack, so no aircraft is attacked by two
    aircraft of different elements in one player-turn. (A leader and its own wingman
    may both attack the same enemy: 6.6c, 10.3a.)"""

    def __init__(self) -> None:
        self.targets: dict[str, set[str]] = {}

    def check(self, step: Step) -> None:
        for e in step.events:
            if e.kind == "player_turn":
                self.targets = {}
            by, target = e.data.get("by"), e.data.get("target")
            if e.kind == "wm":
                by, target = e.data["by"], e.data["target"]
            if e.kind not in ("play", "wm") or not target:
                continue
            self.targets.setdefault(by, set()).add(target)
            assert len(self.targets[by]) == 1, f"{by} attacked {sorted(self.targets[by])}"
            elements = {b[:-1] for b in self.targets}
            assert len(elements) == 1, f"aircraft of {sorted(elements)} attacked in one turn"
            attacked_by: dict[str, set[str]] = {}
            for b, ts in self.targets.items():
                for t in ts:
                    attacked_by.setdefault(t, set()).add(b[:-1])
            assert all(len(v) == 1 for v in attacked_by.values())


def play_and_check(engine: DifEngine, seed: int) -> None:
    """Play one random game to the end, checking every invariant after every action."""
    log: list[str] = []
    last: GameState | None = None
    rng = random.Random(seed)
    setup = random_setup(engine, rng, SIZES[seed % len(SIZES)])
    attacks = AttackTracker()
    for steps, step in enumerate(random_game(engine, seed, setup), start=1):
        log.append(f"{step.seat} {step.action}")
        try:
            attacks.check(step)
            if steps == 1:
                check_cards(engine, step.before)
                check_pending(engine, step.before)
            check_cards(engine, step.after)
            check_positions(engine, step.after)
            check_monotonic(engine, step.before, step.after)
            # Every seat's view after each action in duels; in team games the mover,
            # whoever must decide next and one more seat in turn (all seats are still
            # covered over the game), to keep thousands of games fast.
            seats = list(step.after.elements)
            if len(seats) > 2:
                pending = [p.seat for p in engine.pending(step.after)]
                seats = sorted({step.seat, *pending[:2], seats[steps % len(seats)]})
            check_views(engine, step.after, seats)
            check_narration(engine, step)
            check_pending(engine, step.after)
        except AssertionError as exc:
            tail = "; ".join(log[-12:])
            raise AssertionError(f"seed {seed}, action {steps} ({tail}): {exc}") from exc
        assert steps < MAX_ACTIONS, f"seed {seed}: the game does not end"
        last = step.after
    assert last is not None and last.step == "over" and last.result is not None


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.slow
def test_random_games_keep_every_invariant(engine: DifEngine, chunk: int) -> None:
    for seed in range(chunk, GAMES, CHUNKS):
        play_and_check(engine, seed)


def test_random_games_reach_the_rules_worth_checking(engine: DifEngine) -> None:
    """The invariants mean something only if random play gets into fights."""
    seen: Counter[str] = Counter()
    for seed in range(200):
        for step in random_game(engine, 10_000 + seed):
            seen.update(e.kind for e in step.events)
            seen[step.action.verb + ("=SCI" if step.action.as_sci else "")] += 1
            seen[step.after.ruleset] += 1
    wanted = ["damage", "damaged", "destroyed", "promoted", "follow", "evasion", "respond"]
    wanted += ["position", "bursts", "negated", "zero", "rotl", "wm", "giveup", "play=SCI"]
    assert not [k for k in wanted if not seen[k]], seen


def test_the_narration_check_catches_a_card_named_from_a_hidden_hand(engine: DifEngine) -> None:
    step = next(s for s in random_game(engine, 3) if s.after.step == "play")
    hand = step.after.elements[step.seat].hand
    leak = Event("draw", f"Somebody drew {engine.label[hand[0]]}.")
    with pytest.raises(AssertionError, match="names a hidden card"):
        check_narration(engine, Step(step.before, step.seat, step.action, step.after, [leak]))
    private = Event("drew", f"You drew {engine.label[hand[0]]}.", seat=step.seat)
    check_narration(engine, Step(step.before, step.seat, step.action, step.after, [private]))


def test_bug_a_payment_reshuffled_and_drawn_back_is_no_leak(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    # The Zero, Advantaged, follows the F4F's dive paying a Maneuvering (named in public:
    # it is discarded face up), the deck is empty, so the discard pile (that card) is
    # shuffled and the Zero draws it straight back (7.21d, 4.61). The narration named a
    # card that was public when named; the check read it as a hidden card of a hand.
    state = new_game(
        positions=[{"leader": "X1", "on": "A1", "position": "Advantaged"}],
        hands={"A1": ["TIT", "BAR", "HAL"], "X1": ["MAN", "TIT", "BAR"]},
    )
    state.deck = state.deck[-1:]  # one card left: the F4F's dive draws it
    state.discard = []
    state = play(state, "A1", "dive")
    before = state
    after, events = engine.apply(before, "X1", Action.from_text("follow MAN"))
    assert [e.kind for e in events][:2] == ["follow", "reshuffle"]
    assert sorted(engine.code[c] for c in after.elements["X1"].hand) == ["BAR", "MAN", "TIT"]
    assert any("Maneuvering" in e.text for e in events if e.public)
    check_narration(engine, Step(before, "X1", Action.from_text("follow MAN"), after, events))
    # ... and the check still catches a hidden card named in the same situation.
    leak = Event("follow", "Zero (X1) keeps a Barrel Roll.")
    with pytest.raises(AssertionError, match="names a hidden card"):
        check_narration(engine, Step(before, "X1", Action.from_text("follow MAN"), after, [leak]))


def test_a_discard_reshuffled_and_drawn_back_is_no_leak(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    # The Draw step after discarding: the discarded card comes straight back (4.61).
    state = new_game(hands={"A1": ["MAN", "TIT", "BAR", "BAR"]})
    for text in ("stay", "done"):
        state = play(state, "A1", text)
    state.deck, state.discard = [], []
    after, events = engine.apply(state, "A1", Action.from_text("discard MAN"))
    assert "reshuffle" in [e.kind for e in events]
    assert "MAN" in [engine.code[c] for c in after.elements["A1"].hand]
    check_narration(engine, Step(state, "A1", Action.from_text("discard MAN"), after, events))


def test_a_card_played_as_full_throttle_is_no_leak_of_a_full_throttle_card(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    # "plays Barrel Roll as Full Throttle" names the kind the Ta-152H-1 declares (RotL
    # L330-332), not a Full Throttle card from a hand; the check read it as one.
    state = new_game(
        ruleset="rotl",
        allied="p-51d",
        axis="ta-152h-1",
        year=1945,
        altitudes={"A1": "VH", "X1": "VH"},
        first_side="axis",
        positions=[{"leader": "A1", "on": "X1", "position": "Advantaged"}],
        hands={"X1": ["BAR", "TIT", "MAN"], "A1": ["TIT", "BAR"]},
    )
    state = play(state, "X1", "stay")
    action = Action.from_text("play BAR=FUT A1L")
    after, events = engine.apply(state, "X1", action)
    assert any("as Full Throttle" in e.text for e in events if e.public)
    check_narration(engine, Step(state, "X1", action, after, events))
