"""Down in Flames' presenter (engine.dif.ui): menus reach exactly the legal moves, in words.

The presentation contract (engine.core.present) holds a seat's choices as a tree; these
tests walk it the way the generic menu does.
"""

from __future__ import annotations

import random
import re
from typing import Any

from engine.core import registry
from engine.core.contract import Scope
from engine.core.present import Choice, Menu, Presenter, Seating
from engine.dif.actions import Action
from engine.dif.ai import RandomPlayer
from engine.dif.game import DifEngine
from engine.dif.setup import DifSetup
from strings import tr

ALLIED = ["buffalo-i", "f4f", "p-40b", "spitfire-i"]
AXIS = ["ki-43", "a6m2", "bf-109e", "ki-43"]
NOTATION = re.compile(
    r"=|\bFTC\b|\b(?:IMS|OOS)-|\b[AX]\d+[LW]\b|\b(?:MAN|HAL|SCI|VER|FUT|TIT|BAR|ACE)\b"
)
"""Action notation leaking into a label: labels are plain words."""


def reachable(choices: tuple[Choice, ...]) -> set[str]:
    """Every action text a walk of these choices can reach (a multi-pick: its bare form
    and each single item, which is what the legal actions list besides)."""
    out: set[str] = set()
    for c in choices:
        assert c.label is not None
        assert not NOTATION.search(c.label), f"notation in a label: {c.label!r}"
        if c.action is not None:
            out.add(c.action)
        elif c.several is not None:
            out.add("cards <menu>")
        else:
            assert c.children, f"a branch without children: {c.label!r}"
            out |= reachable(c.children)
    return out


def offered(menu: Menu) -> set[str]:
    return reachable(menu.buttons) | reachable(tuple(Choice("", children=(m,)) for m in menu.menus))


def team_setup(per_side: int, seed: int) -> DifSetup:
    elements: list[dict[str, Any]] = []
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
    data: dict[str, Any] = {
        "ruleset": "zero" if seed % 3 else "rotl",
        "year": 1942,
        "elements": elements,
    }
    if seed % 2 == 0:
        data["altitudes"] = {e["seat"]: "M" for e in elements}
    return DifSetup.model_validate(data)


def test_every_legal_move_is_reachable_from_the_menu_and_nothing_else(engine: DifEngine) -> None:
    presenter: Presenter = registry.get("dif").presenter()  # type: ignore[attr-defined]
    checked, sides = 0, 0
    for seed in range(8):
        state, _ = engine.new_game(team_setup(1 + seed % 3, seed), seed)
        player, rng = RandomPlayer(seed), random.Random(seed)
        while state.step != "over":
            pending = engine.pending(state)
            for seat in dict.fromkeys(p.seat for p in pending):
                legal = {str(a) for a in engine.legal_actions(state, seat)}
                language = "fr" if seed % 2 else "en"
                got = offered(presenter.menu(state, seat, Seating(), language))
                if "cards <menu>" in got:
                    bare = next(t for t in legal if " " not in t)
                    assert bare in got
                else:
                    assert got == legal, f"{seat} at {state.step}: {legal ^ got}"
                checked += 1
            side = [p for p in pending if p.scope is Scope.SIDE]
            if side:
                menu = presenter.side_menu(state, side[0], Seating(), "en")
                legal = {str(a) for a in engine.legal_actions(state, side[0].seat)}
                assert offered(menu) == legal
                sides += 1
            seat = pending[0].seat
            legal_actions = engine.legal_actions(state, seat)
            action = (
                player.choose(engine, state, seat)
                if rng.random() < 0.9
                else rng.choice(legal_actions)
            )
            state, _ = engine.apply(state, seat, Action.from_text(str(action)))
    assert checked > 300 and sides > 0


def test_words_for_a_decision_and_a_seat(engine: DifEngine) -> None:
    presenter = registry.get("dif").presenter()  # type: ignore[attr-defined]
    state, _ = engine.new_game(team_setup(1, 1), 1)
    (first, _) = engine.pending(state)
    assert presenter.seat_label(state, "A1").endswith("(A1)")
    assert tr(presenter.decision_words(first.kind), "en") == "pick a secret starting altitude"
    prompt = presenter.prompt(state, first)
    assert tr(prompt, "fr") != prompt and "(A1)" in prompt
    assert presenter.describe(state, "alt H", "fr") == "Haute"
    assert presenter.phase(state).turn == state.turn


# ---------------------------------------------------------------- the picture in words
def test_the_picture_in_words_names_each_element_with_its_player_altitude_position_damage() -> None:
    from tests.rendering.test_table import view_2v2, view_damaged_leader, view_finished

    presenter = registry.get("dif").presenter()  # type: ignore[attr-defined]
    players = {"A1": "alice", "A2": "bob", "X1": "carol", "X2": "dave"}
    text = presenter.picture_text(view_2v2(), players, "en")
    lines = text.splitlines()
    assert lines[:2] == [
        "Picture of the sky, turn 2 of 6: Play cards.",
        "To move: Hurricane IIB (A2), flown by bob.",
    ]
    assert (
        "Attack: Hurricane IIB (A2) on the wingman of Bf-109E (X1), In My Sights (2B/3D); "
        "Bf-109E (X1) to respond or pass." in lines
    )
    assert (
        "Spitfire I (A1), flown by alice, Allies: Medium; leader 1/3 hits; wingman 0/2 hits; "
        "advantaged on Bf-109E (X1)." in lines
    )
    assert (
        "Bf-110C (X2), flown by dave, Axis: Medium; first leader shot down; "
        "leader (its promoted wingman) 1/2 hits." in lines
    )
    assert len([line for line in lines if "flown by" in line]) == 4 + 2, "one line an element"
    damaged = presenter.picture_text(view_damaged_leader(), {}, "en")
    assert "leader damaged, 4/5 hits" in damaged and "flown by" not in damaged
    assert damaged.startswith("Picture of the sky, turn 8, to the death: ")
    over = presenter.picture_text(view_finished(), {}, "en").splitlines()
    assert over[0].startswith("Picture of the sky at the end, turn 6: ")
    assert "out of the fight; leader shot down; wingman left the fight" in over[1]
    french = presenter.picture_text(view_2v2(), players, "fr")
    assert "Spitfire I (A1), piloté par alice, Alliés : Moyenne ; chef 1/3 coups" in french
    assert "flown by" not in french and "hits" not in french
