"""One legality truth: ``apply`` accepts exactly what ``legal_actions`` lists.

Random games reach many states; at each, many action texts are parsed (every legal
action, and each one twisted: declared as another kind or as itself, played at
every aircraft, cards reordered...). An action the engine lists must be accepted, one
it accepts must be listed. A legal action applies without error, and so does the
passive answer after it (a deadline's default), so no legal move can leave a game
that cannot move again. And ``apply`` works on a copy: whatever it refuses, or
crashes on, the state handed to it is unchanged.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from itertools import combinations

import pytest

from engine.core.errors import EngineError, RuleViolation
from engine.dif.actions import AS_KINDS, Action
from engine.dif.game import DifEngine, default_engine
from engine.dif.legality import _VERBS, _sub_multisets
from engine.dif.state import GameState

from .conftest import GameFactory, Play, Step, random_game, random_setup


def dump(state: GameState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _refs(state: GameState) -> list[str]:
    return [f"{seat}{role}" for seat in state.elements for role in "LW"]


def _codes(engine: DifEngine, state: GameState, seat: str) -> list[str]:
    e = state.elements[seat]
    return sorted({engine.code[c] for c in e.hand + e.minihand + e.defence} | {"FTC", "MAN"})


def _twists(text: str, state: GameState) -> Iterator[str]:
    """The text itself and its variants: every declaration, every target."""
    yield text
    words = text.split()
    if words[0] not in ("play", "respond") or len(words) < 2:
        if words[0] == "follow" and len(words) > 2:
            yield " ".join([words[0], *reversed(words[1:])])
        return
    card = words[1].split("=")[0]
    for kind in (*AS_KINDS, card.split("-")[0]):
        yield " ".join([words[0], f"{card}={kind}", *words[2:]])
    if words[0] == "play" and len(words) == 3:
        for ref in _refs(state):
            yield f"play {words[1]} {ref}"
            for kind in AS_KINDS:
                yield f"play {card}={kind} {ref}"


def probe_texts(engine: DifEngine, state: GameState, seat: str) -> set[str]:
    texts: set[str] = set()
    for a in engine.legal_actions(state, seat):
        texts.update(_twists(str(a), state))
    codes = _codes(engine, state, seat)
    for code in codes:
        texts.update({f"respond {code}", f"climb {code}", f"follow {code}", f"discard {code}"})
        texts.update({f"play VER up {code}", f"redraw {code}"})
        for ref in _refs(state):
            texts.update(_twists(f"play {code} {ref}", state))
    texts.update({"play VER down", "play VER up", "follow", "discard", "redraw"})
    texts.update(["skip", "stay", "dive", "nofollow", "pass", "giveup", "evade", "done"])
    texts.update(f"wm {ref}" for ref in _refs(state))
    texts.update(f"next {seat}" for seat in state.elements)
    texts.update(f"alt {a}" for a in ("VL", "L", "M", "H", "VH"))
    return texts


def _parsed(texts: set[str]) -> Iterator[Action]:
    for text in sorted(texts):
        try:
            yield Action.from_text(text)
        except EngineError:
            continue


def _states(sample_steps: list[Step], every: int) -> Iterator[GameState]:
    """States of the shared duels, then of a few team dogfights (more targets)."""
    for step in sample_steps[::every]:
        yield step.before
    engine = default_engine()
    for seed in range(8):
        setup = random_setup(engine, random.Random(seed), ((2, 2), (3, 2))[seed % 2])
        for step in list(random_game(engine, 500 + seed, setup))[::every]:
            yield step.before


@pytest.mark.slow
def test_apply_accepts_exactly_the_listed_actions(
    engine: DifEngine, sample_steps: list[Step]
) -> None:
    checked = 0
    for state in _states(sample_steps, 3):
        pending = {p.seat for p in engine.pending(state)}
        for seat in [*sorted(pending), "A1", "X1"]:
            legal = set(engine.legal_actions(state, seat))
            for action in _parsed(probe_texts(engine, state, seat)):
                accepted = engine.refusal(state, seat, action) is None
                assert accepted == (action in legal), (
                    f"{seat} {action}: {'accepted' if accepted else 'refused'} but "
                    f"{'listed' if action in legal else 'not listed'} "
                    f"(step {state.step}, turn {state.turn})"
                )
                checked += 1
    assert checked > 50_000


def test_a_discard_lists_exactly_the_choices_its_rule_allows(
    engine: DifEngine, sample_steps: list[Step]
) -> None:
    # legal_actions lists a Discard step's and a redraw's choices of cards without
    # asking the rule of each (Legality._held_choices): they must be the ones it allows.
    seen = 0
    for state in _states(sample_steps, 1):
        for p in engine.pending(state):
            if p.kind not in ("discard", "redraw"):
                continue
            rule = engine._refuser(state, p)
            allowed = [a for a in engine._candidates(state, p) if rule(a) is None]
            assert engine.legal_actions(state, p.seat) == allowed
            seen += 1
    assert seen > 100


def test_the_choices_of_a_hand_are_its_sorted_distinct_sub_multisets() -> None:
    # _sub_multisets makes a Discard step's choices of cards in order, without sorting:
    # the same list as sorting the distinct combinations of every size.
    rng = random.Random(16)
    codes = ["BAR", "HAL", "IMS-1B1D", "IMS-2B3D", "MAN", "OOS-2B3D", "SCI", "VER"]
    for _ in range(2000):
        pool = codes[: rng.randint(1, len(codes))]
        hand = tuple(sorted(rng.choice(pool) for _ in range(rng.randint(0, 9))))
        expected = sorted({c for n in range(len(hand) + 1) for c in combinations(hand, n)})
        assert _sub_multisets(hand) == expected, hand


def test_legal_actions_made_directly_are_the_candidates_the_rule_allows(
    engine: DifEngine, sample_steps: list[Step]
) -> None:
    # legal_actions makes the legal actions of Play Cards, a response, Adjust Altitude,
    # the Wingman Attack step (its target and its cards), the turn-1 order and the
    # starting altitude directly (Legality._legal_choices), without asking the rule of
    # each candidate: they must be the candidates the rule allows, in the same order.
    kinds = ("play", "respond", "altitude_step", "wingman", "wingman_attack", "order", "altitude")
    seen: dict[str, int] = {}
    for state in _states(sample_steps, 1):
        for p in engine.pending(state):
            if p.kind not in kinds:
                continue
            rule = engine._refuser(state, p)
            allowed = [a for a in engine._candidates(state, p) if rule(a) is None]
            assert engine.legal_actions(state, p.seat) == allowed, (p.kind, state.turn)
            seen[p.kind] = seen.get(p.kind, 0) + 1
    assert min(seen.values()) > 10 and len(seen) == len(kinds), seen


def test_a_decision_s_candidates_answer_it_with_its_verbs(
    engine: DifEngine, sample_steps: list[Step]
) -> None:
    # legal_actions does not ask a dogfight's candidates whether their verb answers the
    # decision (Legality._candidate_rule): the candidates must be made with its verbs.
    seen = 0
    for state in _states(sample_steps, 1):
        if state.mission is not None:  # a mission's are asked the whole predicate
            continue
        for p in engine.pending(state):
            for a in engine._candidates(state, p):
                assert a.verb in _VERBS[p.kind], (p.kind, str(a))
                seen += 1
    assert seen > 1000


def test_every_legal_action_applies_and_the_game_moves_on(
    engine: DifEngine, sample_steps: list[Step]
) -> None:
    # After any legal action, whoever must decide next can take the passive default
    # (what a deadline does): a legal move never leaves a game that cannot move.
    for state in _states(sample_steps, 2):
        for p in engine.pending(state):
            for action in engine.legal_actions(state, p.seat):
                after, _ = engine.apply(state, p.seat, action)
                for q in engine.pending(after)[:1]:
                    engine.apply(after, q.seat, engine.default_action(after, q.seat))


@pytest.mark.parametrize(
    "text",
    [
        "play IMS-1B1D=ACE X1L",
        "play IMS-1B1D=FUT X1W",
        "play IMS-1B1D=FUT X1L",
        "play MAN=FUT X1W",
        "play IMS-1B1D=SCI X1L",
    ],
)
def test_bug_a_wingman_card_declared_as_another_froze_the_game(
    engine: DifEngine, new_game: GameFactory, play: Play, text: str
) -> None:
    # A wingman plays its mini-hand as drawn (5.26, RotL L209). ``=ACE`` or ``=FUT`` at
    # a wingman was accepted, and the defender's only answer, pass, raised KeyError
    # resolving it (BURST_BUY / POSITION_DELTA); ``=FUT`` at a leader turned the burst
    # card into a position step.
    state = new_game(
        allied="f4f",
        axis="a6m2",
        hands={
            "A1": ["MAN", "TIT", "BAR", "ACE", "HAL"],
            "X1": ["MAN", "TIT", "BAR", "HAL", "BAR", "TIT"],
        },
        deck_top=["IMS-1B1D", "MAN"],
        first_side="axis",
    )
    for action in ("stay", "done", "discard"):
        state = play(state, "X1", action)
    target = text.split()[-1]
    state = play(state, "A1", f"wm {target}")
    if target.endswith("W"):
        assert engine.pending(state)[0].kind == "wingman_attack"
    assert text not in {str(a) for a in engine.legal_actions(state, "A1")}
    with pytest.raises(RuleViolation, match="as drawn"):
        engine.apply(state, "A1", Action.from_text(text))


def test_a_card_is_not_declared_as_what_it_already_is(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    # An agile Zero, Disadvantaged: ``SCI`` is listed, ``MAN=SCI`` too, ``SCI=SCI`` not.
    state = new_game(
        allied="buffalo-i",
        hands={"X1": ["SCI", "MAN", "TIT", "BAR", "HAL"], "A1": ["MAN", "TIT", "BAR", "HAL"]},
        positions=[{"leader": "A1", "on": "X1", "position": "Advantaged"}],
        first_side="axis",
    )
    state = play(state, "X1", "stay")
    legal = {str(a) for a in engine.legal_actions(state, "X1")}
    assert {"play SCI A1L", "play MAN=SCI A1L"} <= legal
    assert "play SCI=SCI A1L" not in legal
    with pytest.raises(RuleViolation, match="never as its own"):
        engine.apply(state, "X1", Action.from_text("play SCI=SCI A1L"))


def test_respond_ace_declared_as_ace_is_refused(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    state = new_game(
        ruleset="rotl",
        elements=[
            {"seat": "A1", "side": "allied", "aircraft": "f4f", "pilot": "A"},
            {"seat": "X1", "side": "axis", "aircraft": "a6m2"},
        ],
        hands={"A1": ["ACE", "MAN", "TIT", "BAR", "HAL"], "X1": ["MAN", "TIT", "BAR", "HAL"]},
        first_side="axis",
    )
    state = play(state, "X1", "stay")
    state = play(state, "X1", "play MAN A1L")
    legal = {str(a) for a in engine.legal_actions(state, "A1")}
    assert "respond ACE" in legal and "respond TIT=ACE" in legal
    assert "respond ACE=ACE" not in legal
    with pytest.raises(RuleViolation, match="never as its own"):
        engine.apply(state, "A1", Action.from_text("respond ACE=ACE"))


def test_a_refused_or_crashing_action_leaves_the_state_unchanged(
    engine: DifEngine, new_game: GameFactory, play: Play, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = play(new_game(hands={"A1": ["MAN", "TIT", "BAR", "HAL", "SCI"]}), "A1", "stay")
    before = dump(state)
    with pytest.raises(RuleViolation):
        engine.apply(state, "A1", Action.from_text("play SCI X1L"))
    assert dump(state) == before

    # An unexpected error half-way through an action: apply mutated only its copy.
    crashing = DifEngine(engine.decks, engine.aircraft)
    done_half = crashing._do_play

    def crash(s: GameState, e: object, a: Action, ev: list[object]) -> None:
        done_half(s, s.elements["A1"], a, ev)  # type: ignore[arg-type]
        s.elements["A1"].hand.clear()
        s.deck.clear()
        s.positions["A1|X1"] = 2
        raise KeyError("boom")

    monkeypatch.setattr(crashing, "_do_play", crash)
    with pytest.raises(KeyError):
        crashing.apply(state, "A1", Action.from_text("play MAN X1L"))
    assert dump(state) == before
    assert engine.apply(state, "A1", Action.from_text("play MAN X1L"))[0] != state
