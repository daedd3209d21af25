"""The buttons and menus built from a system's menus (its presenter's ``menu``), as the
generic components show them: every legal move offered, within Discord's limits.

Team games included: with eight elements a side at one altitude, a leader has a
hundred or more card-and-target moves, so the menus go through a menu of targets:
a branch of the tree, walked level by level (``open_at``).
"""

from __future__ import annotations

import random
import re
from typing import Any

import discord
import pytest

from bot.games import LoadedGame
from bot.storage import GameRecord, GameStatus
from cogs.components import MAX_ROWS, ActionButton, MenuSelect, menu_view
from cogs.hand import SeatDecision, seating, side_view
from engine.core.present import Menu
from engine.dif.actions import Action
from engine.dif.ai import RandomPlayer
from engine.dif.game import DifEngine, default_engine
from engine.dif.setup import DifSetup
from engine.dif.state import GameState

MATCHUPS = [
    ("zero", "buffalo-i", "ki-43"),
    ("zero", "f4f", "a6m2"),
    ("rotl", "spitfire-i", "bf-109e"),
]
ALLIED = ["buffalo-i", "f4f", "p-40b", "spitfire-i"]
AXIS = ["ki-43", "a6m2", "bf-109e", "ki-43"]


def offered(
    context: SeatDecision, menu: Menu, view: discord.ui.View, path: tuple[int, ...] = ()
) -> set[str]:
    """The action texts a player can reach from the components of ``view``, opening
    each branch of a menu to the level it shows (the view at that path)."""
    out: set[str] = set()
    for item in view.children:
        if path and not (
            isinstance(item, MenuSelect) and item.custom_id.endswith(":" + ".".join(map(str, path)))
        ):
            continue  # the view of an opened branch: only that menu is new
        if isinstance(item, ActionButton):
            out.add(item.action)
        elif isinstance(item, MenuSelect):
            here = tuple(int(p) for p in item.custom_id.rsplit(":", 1)[1].split(".") if p)
            for option in item.item.options:
                value = option.value
                if value == "<":
                    continue
                if value.startswith(">"):
                    deeper = (*here, int(value[1:]))
                    sub = menu_view(context, menu, open_at=deeper)
                    assert sub is not None, f"branch {deeper} offers nothing"
                    check_limits(sub)
                    out |= offered(context, menu, sub, deeper)
                    sub.stop()
                elif ":" in value and value.split(":", 1)[0].isdigit():
                    out.add("cards <menu>")
                else:
                    out.add(value)
    return out


def rows_used(view: discord.ui.View) -> int:
    """Rows Discord needs: one per menu, five buttons to a row."""
    buttons = sum(1 for i in view.children if isinstance(i, ActionButton))
    menus = sum(1 for i in view.children if not isinstance(i, ActionButton))
    return menus + -(-buttons // 5)


NOTATION = re.compile(
    r"=|\bFTC\b|\b(?:IMS|OOS)-|\b[AX]\d+[LW]\b|\b(?:MAN|HAL|SCI|VER|FUT|TIT|BAR|ACE)\b"
)
"""Action notation leaking into a label: labels are plain words."""


def check_limits(view: discord.ui.View) -> None:
    assert len(view.children) <= 25 and rows_used(view) <= MAX_ROWS
    for item in view.children:
        labels = [getattr(getattr(item, "item", None), "label", None) or ""]
        if isinstance(item, MenuSelect):
            labels += [o.label for o in item.item.options]
        for label in labels:
            assert not NOTATION.search(label), f"notation in a label: {label!r}"
        assert len(getattr(item, "custom_id", "") or "") <= 100
        select = getattr(item, "item", None)
        if isinstance(select, discord.ui.Select):
            assert 1 <= len(select.options) <= 25
            for o in select.options:
                assert len(o.label) <= 100 and len(o.value) <= 100
                assert o.description is None or len(o.description) <= 100
        if isinstance(item, ActionButton):
            assert len(item.item.label or "") <= 80


def team_setup(ruleset: str, per_side: int, seed: int, *, same_altitude: bool) -> DifSetup:
    """``per_side`` elements a side. Eight a side (32 aircraft) is more than the setup
    model allows (15): built without validation, to test the menus' worst case."""
    elements = []
    for n in range(per_side):
        elements.append(
            {
                "seat": f"A{n + 1}",
                "side": "allied",
                "aircraft": ALLIED[(n + seed) % 4],
                "pilot": "CV" if n == 0 and seed % 2 else "",
            }
        )
        elements.append({"seat": f"X{n + 1}", "side": "axis", "aircraft": AXIS[(n + seed) % 4]})
    data: dict[str, Any] = {"ruleset": ruleset, "year": 1942, "elements": elements}
    if same_altitude:
        data["altitudes"] = {e["seat"]: "M" for e in elements}
    if per_side * 4 > 15:
        valid = DifSetup.model_validate({**data, "elements": elements[:2]})
        from engine.dif.setup import ElementSetup

        return valid.model_copy(
            update={"elements": tuple(ElementSetup.model_validate(e) for e in elements)}
        )
    return DifSetup.model_validate(data)


def play_checking_menus(
    engine: DifEngine,
    setup: DifSetup,
    seed: int,
    max_steps: int = 100_000,
) -> tuple[int, set[str], int]:
    """Play a random game, checking every seat's menus at every step.

    Returns the number of checks, the verbs seen and how many views went through a
    menu of targets.
    """
    record: Any = GameRecord.model_construct(
        id=1, version=3, status=GameStatus.ACTIVE, system="dif", ruleset=setup.ruleset.value,
        options={},
    )  # fmt: skip
    state: GameState
    state, _ = engine.new_game(setup, seed)
    player = RandomPlayer(seed)
    rng = random.Random(seed)
    checked, verbs, by_target = 0, set(), 0
    for _ in range(max_steps):
        if state.step == "over":
            break
        pending = engine.pending(state)
        game = LoadedGame(record, [], setup, state)
        for seat in dict.fromkeys(p.seat for p in pending):
            legal = {str(a) for a in engine.legal_actions(state, seat)}
            verbs |= {t.split()[0] for t in legal}
            verbs |= {k for t in legal for k in ("=SCI", "=FUT", "=ACE", "FTC") if k in t}
            context = SeatDecision(game.id, seat, record.version)
            menu = game.presenter.menu(state, seat, seating(game, "en"), "en")
            view = menu_view(context, menu)
            assert view is not None
            check_limits(view)
            reachable = offered(context, menu, view)
            by_target += any(
                isinstance(i, MenuSelect) and any(o.value.startswith(">") for o in i.item.options)
                for i in view.children
            )
            if "cards <menu>" in reachable:
                bare = next(t for t in legal if " " not in t)
                assert {a for a in legal if a != bare} and bare in reachable
            else:
                assert reachable == legal, f"{seat} at {state.step}: {legal ^ reachable}"
            view.stop()
            checked += 1
        if any(p.kind == "order" for p in pending):
            side = side_view(game)
            assert side is not None
            check_limits(side)
            (select,) = [i for i in side.children if isinstance(i, MenuSelect)]
            assert {o.value for o in select.item.options} == {
                f"next {s}" for s in engine.order_choice(state)[1]
            }
            side.stop()
        seat = pending[0].seat
        legal_actions = engine.legal_actions(state, seat)
        action = (
            player.choose(engine, state, seat) if rng.random() < 0.9 else rng.choice(legal_actions)
        )
        state, _ = engine.apply(state, seat, Action.from_text(str(action)))
    return checked, verbs, by_target


async def test_every_legal_move_is_offered_and_fits_in_one_message() -> None:
    engine = default_engine()
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
        checked += play_checking_menus(engine, setup, seed)[0]
    assert checked > 1000


@pytest.mark.parametrize("per_side", [2, 3])
async def test_team_games_offer_every_move_including_order_and_redraw(per_side: int) -> None:
    engine = default_engine()
    verbs: set[str] = set()
    checked = 0
    for seed in range(12):
        setup = team_setup(
            "zero" if seed % 3 else "rotl", per_side, seed, same_altitude=seed % 2 == 0
        )
        n, seen, _ = play_checking_menus(engine, setup, seed)
        checked += n
        verbs |= seen
    assert {"next", "redraw", "wm", "play", "respond", "discard"} <= verbs
    assert checked > 500


async def test_special_aircraft_and_pilot_moves_are_offered_in_plain_words() -> None:
    """Jets' and the Bf-109G's Full Throttle counters, the Ta-152H-1's Very High Full
    Throttle, Ace pilots and Combat Vision: every such move offered, labelled in words."""
    engine = default_engine()
    verbs: set[str] = set()
    for seed in range(6):
        elements = [
            {"seat": "A1", "side": "allied", "aircraft": "p-51d", "pilot": "A,CV"},
            {"seat": "A2", "side": "allied", "aircraft": "p-47d"},
            {"seat": "X1", "side": "axis", "aircraft": "me-262a"},
            {"seat": "X2", "side": "axis", "aircraft": "ta-152h-1", "pilot": "A"},
            {"seat": "X3", "side": "axis", "aircraft": "bf-109g"},
            {"seat": "X4", "side": "axis", "aircraft": "me-163", "wingman": False},
        ]
        data: dict[str, Any] = {"ruleset": "rotl", "year": 1945, "elements": elements}
        if seed % 2:
            data["altitudes"] = {e["seat"]: "VH" for e in elements}
        verbs |= play_checking_menus(engine, DifSetup.model_validate(data), seed)[1]
    assert {"redraw", "next", "play", "respond", "climb", "=FUT", "=ACE", "FTC"} <= verbs


async def test_eight_elements_a_side_at_one_altitude_fit_through_a_target_menu() -> None:
    engine = default_engine()
    by_target = 0
    for seed in (1, 2, 3):
        setup = team_setup("zero", 8, seed, same_altitude=True)
        by_target += play_checking_menus(engine, setup, seed, max_steps=600)[2]
    assert by_target >= 3, "the worst case was reached: moves offered through a target menu"
