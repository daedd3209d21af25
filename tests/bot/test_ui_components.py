"""The buttons and menus built from legal_actions: every move offered, within Discord's limits."""

from __future__ import annotations

import random
from typing import Any

import discord

from bot.service import GameService, LoadedGame
from bot.storage import GameRecord, GameStatus
from cogs.ui import MAX_ROWS, ActionButton, ActionSelect, DiscardSelect, action_view
from engine.dif.actions import Action
from engine.dif.ai import RandomPlayer
from engine.dif.game import default_engine
from engine.dif.setup import DifSetup

MATCHUPS = [
    ("zero", "buffalo-i", "ki-43"),
    ("zero", "f4f", "a6m2"),
    ("rotl", "spitfire-i", "bf-109e"),
]


def offered(view: discord.ui.View) -> set[str]:
    """The action texts a player can reach from the components of ``view``."""
    out: set[str] = set()
    for item in view.children:
        if isinstance(item, ActionButton):
            out.add(item.action)
        elif isinstance(item, ActionSelect):
            out.update(o.value for o in item.item.options)
        elif isinstance(item, DiscardSelect):
            out.add("discard <menu>")
    return out


def rows_used(view: discord.ui.View) -> int:
    """Rows Discord needs: one per menu, five buttons to a row."""
    buttons = sum(1 for i in view.children if isinstance(i, ActionButton))
    menus = sum(1 for i in view.children if not isinstance(i, ActionButton))
    return menus + -(-buttons // 5)


async def test_every_legal_move_is_offered_and_fits_in_one_message() -> None:
    engine = default_engine()
    service = GameService(storage=None, engine=engine)  # type: ignore[arg-type]
    record: Any = GameRecord.model_construct(id=1, version=3, status=GameStatus.ACTIVE)
    checked = 0
    for seed in range(40):
        ruleset, allied, axis = MATCHUPS[seed % len(MATCHUPS)]
        setup = DifSetup.model_validate(
            {
                "ruleset": ruleset,
                "year": 1942,
                "elements": [
                    {"seat": "A1", "side": "allied", "aircraft": allied},
                    {"seat": "X1", "side": "axis", "aircraft": axis},
                ],
            }
        )
        state, _ = engine.new_game(setup, seed)
        player = RandomPlayer(seed)
        rng = random.Random(seed)
        while state.step != "over":
            seat = engine.pending(state)[0].seat
            legal = {str(a) for a in engine.legal_actions(state, seat)}
            view = action_view(service, LoadedGame(record, [], setup, state), seat)
            assert view is not None
            assert len(view.children) <= 25 and rows_used(view) <= MAX_ROWS
            reachable = offered(view)
            if "discard <menu>" in reachable:
                assert {a for a in legal if a != "discard"} and "discard" in reachable
            else:
                assert reachable == legal, f"{seat} at {state.step}: {legal ^ reachable}"
            for item in view.children:
                assert len(getattr(item, "custom_id", "") or "") <= 100
            checked += 1
            action = (
                player.choose(engine, state, seat)
                if rng.random() < 0.9
                else Action.from_text(rng.choice(sorted(legal)))
            )
            state, _ = engine.apply(state, seat, action)
            view.stop()
    assert checked > 1000
