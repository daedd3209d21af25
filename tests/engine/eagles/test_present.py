"""Eagles in the Sky's presenter (engine.eagles.ui): every seat's menu reaches exactly
its legal moves, in words, within Discord's limits; no hand card reaches a prompt; the
seat lines name each unactivated aircraft's maneuvers; the lobby's lines, the help
pages and the report read in English and French."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from dataclasses import dataclass, field

import pytest

from engine.core.contract import SeatPick
from engine.core.present import Choice, Menu, Seating, Several
from engine.eagles.actions import Action
from engine.eagles.lobby import EaglesOptions, EaglesPick
from engine.eagles.system import EaglesSystem
from strings import has, tr

from .conftest import LOBBIES, lobby_setup, random_game, scenario

NOTATION = re.compile(r"\b\d{1,3}[CDSA]\b|\bgiveup\b|\b(?:tail|headon|respond) [AG]?\d")
"""Action notation leaking into a label."""


@dataclass
class Walk:
    leaves: set[str] = field(default_factory=set)
    picks: list[Several] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _label(c: Choice, w: Walk, limit: int) -> None:
    if len(c.label) > limit:
        w.problems.append(f"label over {limit}: {c.label!r}")
    if c.description is not None and len(c.description) > 100:
        w.problems.append(f"description over 100: {c.description!r}")
    if NOTATION.search(c.label) or "{" in c.label:
        w.problems.append(f"notation or a field in a label: {c.label!r}")
    if "eagles." in c.label or "eagles." in (c.description or ""):
        w.problems.append(f"a catalogue key instead of words: {c.label!r}")


def _node(c: Choice, depth: int, w: Walk) -> None:
    if c.action is not None:
        w.leaves.add(c.action)
    elif c.several is not None:
        w.picks.append(c.several)
        if len(c.several.items) > 25:
            w.problems.append(f"more than 25 items: {c.label!r}")
    else:
        room = 25 if depth == 0 else 24
        if len(c.children) > room:
            w.problems.append(f"{len(c.children)} options at depth {depth}")
        for child in c.children:
            _label(child, w, 100)
            _node(child, depth + 1, w)


def walk(menu: Menu) -> Walk:
    w = Walk()
    rows = len(menu.menus) + -(-len(menu.buttons) // 5)
    if rows > 5:
        w.problems.append(f"{rows} rows")
    for b in menu.buttons:
        _label(b, w, 80)
        assert b.action is not None
        w.leaves.add(b.action)
    for top in menu.menus:
        _node(top, 0, w)
    return w


def check_menu(menu: Menu, legal: set[str], rng: random.Random) -> list[str]:
    w = walk(menu)
    problems = list(w.problems)
    problems += [f"not legal: {a}" for a in sorted(w.leaves - legal)]
    formable = set()
    for sev in w.picks:
        tokens = [i.token for i in sev.items]
        most = sev.most if sev.most is not None else len(tokens)
        combos = [c for k in range(sev.least, most + 1) for c in itertools.combinations(tokens, k)]
        for combo in combos:
            text = str(Action.from_text(sev.action(list(combo))))
            formable.add(text)
        for combo in rng.sample(combos, min(len(combos), 30)):
            text = str(Action.from_text(sev.action(list(combo))))
            if text not in legal:
                problems.append(f"a pick not legal: {text}")
    for text in legal - w.leaves - formable:
        problems.append(f"unreachable: {text}")
    return problems


def _states() -> list[tuple[str, object]]:
    out = []
    for kind in LOBBIES:
        for st in list(random_game(lobby_setup(kind), 4))[::2]:
            out.append((kind, st.before))
    for n in (1, 5, 8):
        for st in list(random_game(scenario(n), 2))[::3]:
            out.append((f"scenario {n}", st.before))
    return out


STATES = _states()


def test_every_legal_move_is_reachable_within_discords_limits(eagles: EaglesSystem) -> None:
    presenter = eagles.presenter()
    rng = random.Random(1)
    problems = []
    for where, state in STATES:
        for d in eagles.pending(state):
            legal = {str(a) for a in eagles.legal_actions(state, d.seat)}
            menu = presenter.menu(state, d.seat, Seating(), "en")
            for p in check_menu(menu, legal, rng):
                problems.append(f"{where} {d.kind}: {p}")
    assert not problems, "\n".join(sorted(set(problems))[:30])


def test_menus_and_lines_in_french(eagles: EaglesSystem) -> None:
    presenter = eagles.presenter()
    for _, state in STATES[::10]:
        for d in eagles.pending(state):
            menu = presenter.menu(state, d.seat, Seating(), "fr")
            assert not walk(menu).problems
            lines = presenter.seat_lines(state, d.seat, "fr")
            assert lines and all("{" not in line for line in lines)
            assert "{" not in tr(presenter.prompt(state, d), "fr")


def test_prompts_name_no_card_of_a_hand(eagles: EaglesSystem) -> None:
    presenter = eagles.presenter()
    for _, state in STATES:
        names = {
            eagles.engine.card_name(c)
            for hand in state.hands.values()
            for c in hand  # type: ignore[attr-defined]
        }
        for d in eagles.pending(state):
            text = str(presenter.prompt(state, d))
            pend = state.pending  # type: ignore[attr-defined]
            played = (
                Action.from_text(pend.action).card if pend is not None and pend.action else None
            )
            leaked = [n for n in names if n in text and not n.endswith(f"({played})")]
            assert not leaked, (text, leaked)


def test_seat_lines_list_each_unactivated_aircraft_and_its_maneuvers(
    eagles: EaglesSystem,
) -> None:
    presenter = eagles.presenter()
    seen = 0
    for _, state in STATES:
        for d in eagles.pending(state):
            if d.kind != "activate":
                continue
            text = "\n".join(presenter.seat_lines(state, d.seat, "en"))
            assert text.startswith("**") and "Hand (" in text
            side = d.side
            for p in state.planes:  # type: ignore[attr-defined]
                if p.side == side and p.flying:
                    assert f"({p.ref})" in text
            if "▶ may:" in text:
                seen += 1
    assert seen > 10


def test_the_lobby_lines(eagles: EaglesSystem) -> None:
    presenter = eagles.presenter()
    options = EaglesOptions.model_validate({"engagement": "bombing", "flight": "points 40"})
    seats = [
        SeatPick("A1", "allied", EaglesPick(aircraft=("se5a",), leader="mccudden")),
        SeatPick("G1", "german", EaglesPick(aircraft=("fokker-dri", "albatros-dva"))),
    ]
    for language in ("en", "fr"):
        title = presenter.lobby_title(options, 7, "1 v 1", language)
        assert "7" in title and "{" not in title
        for side in eagles.lobby_sides(options):
            line = presenter.side_heading(options, side, seats, language)
            assert "{" not in line
        for s in seats:
            assert "{" not in presenter.pick_text(options, s.pick, language)
        for line in presenter.lobby_notes(options, seats, open_lobby=True, language=language):
            assert "{" not in line
        lines = presenter.aircraft_lines(EaglesOptions(month="1917-07"), language)
        assert len("\n".join(lines)) < 2000 and "SPAD" in "\n".join(lines)
    sc = EaglesOptions(scenario=4)
    assert "Red Baron" in presenter.lobby_title(sc, 1, "1 v 1", "en")


def test_the_report_reads_the_outcome(eagles: EaglesSystem) -> None:
    presenter = eagles.presenter()
    steps = list(random_game(lobby_setup("patrol"), 2))
    outcome = eagles.outcome(steps[-1].after)
    written = presenter.report(steps[0].before, steps, outcome, {"A1": "alice", "G1": "bob"})
    assert len(written.aircraft) == len(outcome.fates)
    fates = Counter(str(line.fate) for line in written.aircraft)
    assert set(fates) <= {"shot down", "damaged", "evaded", "unharmed"}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_option_of_a_move_has_words(language: str) -> None:
    """Each flag a move may carry is put in words, in the action's label and in the
    menu's option level (a missing text would show its key)."""
    from engine.eagles.describe import FLAGS

    for flag in FLAGS:
        key = "plus" if flag == "+1" else flag
        assert has(f"eagles.ui.action.flag.{key}", language), flag
        if flag != "hold":
            assert has(f"eagles.ui.menu.{key}", language), flag
    for key in ("fire", "hold", "keep", "fv"):
        assert has(f"eagles.ui.menu.{key}", language), key
