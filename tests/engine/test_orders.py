"""Standing orders choose among legal actions only, and do what they say."""

from __future__ import annotations

from engine.dif.actions import Action
from engine.dif.game import DifEngine
from engine.dif.orders import Order, expired, order_action

from .conftest import GameFactory, Play, random_game


def test_cheapest_response_answers_an_attack_on_the_leader(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    s = new_game(hands={"A1": ["MAN", "IMS-1B1D"], "X1": ["ACE", "TIT", "SCI"]})
    s = play(s, "A1", "stay")
    s = play(s, "A1", "play MAN X1L")
    a = order_action(engine, s, "X1", [Order.CHEAPEST_RESPONSE])
    assert a == Action.respond("TIT")  # not the Ace Pilot
    assert order_action(engine, s, "X1", []) is None  # no order: the player decides
    assert order_action(engine, s, "X1", [Order.PASS_RESPONSES]) == Action.simple("pass")


def test_save_ace_keeps_the_ace_against_a_wingman(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    s = new_game(
        hands={"A1": ["MAN"], "X1": ["ACE", "MAN"]},
        deck_top=["MAN"] * 6,
        first_side="allied",
    )
    s = play(s, "A1", "stay")
    s = play(s, "A1", "done")
    s = play(s, "A1", "discard")
    s = play(s, "X1", "skip")
    s = play(s, "X1", "stay")
    s = play(s, "X1", "done")
    s = play(s, "X1", "discard")
    s = play(s, "A1", "wm X1L")  # turn 2: the F4F wingman attacks the Zero leader
    assert s.exchange is None and s.step == "wingman_attack"
    s = play(s, "A1", "play MAN X1L")
    both = [Order.CHEAPEST_RESPONSE, Order.SAVE_ACE]
    assert order_action(engine, s, "X1", [Order.CHEAPEST_RESPONSE]) == Action.respond("ACE")
    assert order_action(engine, s, "X1", both) == Action.simple("pass")


def test_pass_responses_expires_at_the_seats_next_turn(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    s = new_game()
    assert not expired(Order.PASS_RESPONSES, engine, s, "X1")
    assert expired(Order.PASS_RESPONSES, engine, s, "A1")  # A1 is to play
    assert not expired(Order.CHEAPEST_RESPONSE, engine, s, "A1")


def test_orders_only_ever_choose_legal_actions(engine: DifEngine) -> None:
    everything = list(Order)
    for seed in range(80):
        for step in random_game(engine, 900 + seed):
            for p in engine.pending(step.before):
                for orders in ([o] for o in everything):
                    a = order_action(engine, step.before, p.seat, orders)
                    if a is not None:
                        assert a in engine.legal_actions(step.before, p.seat)
                a = order_action(engine, step.before, p.seat, everything)
                if a is not None:
                    assert a in engine.legal_actions(step.before, p.seat)


def test_auto_pass_passes_only_when_nothing_can_respond(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    s = new_game(hands={"A1": ["MAN", "MAN"], "X1": ["IMS-1B1D", "HAL"]})
    s = play(s, "A1", "stay")
    s = play(s, "A1", "play MAN X1L")
    assert order_action(engine, s, "X1", [Order.AUTO_PASS]) == Action.simple("pass")
    t = new_game(hands={"A1": ["MAN"], "X1": ["TIT", "HAL"]})
    t = play(t, "A1", "stay")
    t = play(t, "A1", "play MAN X1L")
    assert order_action(engine, t, "X1", [Order.AUTO_PASS]) is None  # the player decides
