"""Locked-On's presenter (engine.lockedon.ui) and hosting members: menus reach exactly the
legal moves, in words, within Discord's limits; no hidden card leaks; the lobby's fields,
picks and lines; standing orders; the after-action report.

The presentation contract (engine.core.present) holds a seat's choices as a tree; these
tests walk it the way the generic menu does (cogs.components).
"""

from __future__ import annotations

import itertools
import logging
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from engine.core import registry
from engine.core.contract import (
    COMPUTER_LEVELS,
    Decision,
    Fate,
    HostedSystem,
    Scope,
    SeatPick,
    Timing,
)
from engine.core.events import Event
from engine.core.present import Choice, FieldKind, Menu, Presenter, Seating, Several
from engine.lockedon.actions import Action
from engine.lockedon.base import DECISIONS
from engine.lockedon.game import LockedOnEngine
from engine.lockedon.setup import LockedOnOptions, LockedOnSetup
from engine.lockedon.state import GameState
from engine.lockedon.system import MAX_AIRCRAFT, LockedOnSystem
from strings import Term, catalogue, placeholders, tr
from tests.textscan import parse, string_constants

from .conftest import KINDS, Act, Game, random_game, seats_of

ROOT = Path(__file__).resolve().parents[3]
UI_MODULES = (
    "ui",
    "alttext",
    "describe",
    "prompts",
    "hand",
    "menus",
    "lobbytext",
    "report",
    "orders",
    "picks",
    "system",
    "words",
)
NOTATION = re.compile(
    r"=ACE|\bside:|\bpaying\b|\bme[+-]\d|\b[A-Z]\d[+-]\d|\b(?:aim|r)-\d"
    r"|\b(?:ACE|BR|BRK|GUN|GUNG|GUNGR|RED|SCI|SPS|TT|TONE|TONES|TG|VR|YOYO|CM)\b"
)
"""Action notation leaking into a label: labels are plain words (seats like ``B1`` name
aircraft in narration too, so they may appear)."""
DIF_FIELDS = {"year", "to_the_death", "vp_bonus", "wingman", "pilot"}
"""Down in Flames' ``/dogfight new`` and ``join`` fields (engine.dif.lobbytext on the
generic branch): a name both systems declare must be the same field, so Locked-On's
differ."""


def _system() -> LockedOnSystem:
    sys = registry.get("lockedon")
    assert isinstance(sys, LockedOnSystem)
    return sys


def _presenter() -> Presenter:
    p: Presenter = _system().presenter()
    return p


def to_play(act: Act, state: GameState, *more: str) -> GameState:
    """A1's turn from its Afterburners step to its Play Cards step (past its Speed
    Maneuvering, if it has any), then ``more``."""
    state = act(state, "A1", "ab off", "discard", "stay")
    if state.step == "speed":
        state = act(state, "A1", "end")
    return act(state, "A1", *more)


# ---------------------------------------------------------------- walking a menu
@dataclass
class Walk:
    """What a menu offers: its leaves, its multi-picks, and any limit it breaks."""

    leaves: set[str] = field(default_factory=set)
    picks: list[Several] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _label(c: Choice, w: Walk, limit: int) -> None:
    if len(c.label) > limit:
        w.problems.append(f"label over {limit}: {c.label!r}")
    if c.description is not None and len(c.description) > 100:
        w.problems.append(f"description over 100: {c.description!r}")
    if c.placeholder is not None and len(c.placeholder) > 150:
        w.problems.append(f"placeholder over 150: {c.placeholder!r}")
    if NOTATION.search(c.label):
        w.problems.append(f"notation in a label: {c.label!r}")
    if "{" in c.label or "}" in c.label:
        w.problems.append(f"an unformatted field: {c.label!r}")


def _node(c: Choice, depth: int, w: Walk) -> None:
    set_ = [c.action is not None, bool(c.children), c.several is not None]
    if sum(set_) != 1:
        w.problems.append(f"not exactly one of action, children, several: {c.label!r}")
    if c.action is not None:
        w.leaves.add(c.action)
    elif c.several is not None:
        w.picks.append(c.several)
        if len(c.several.items) > 25:
            w.problems.append(f"more than 25 items: {c.label!r}")
        for item in c.several.items:
            if len(item.label) > 100 or NOTATION.search(item.label):
                w.problems.append(f"item label: {item.label!r}")
    else:
        room = 25 if depth == 0 else 24
        if len(c.children) > room:
            w.problems.append(f"{len(c.children)} options at depth {depth}: {c.label!r}")
        for child in c.children:
            _label(child, w, 100)
            _node(child, depth + 1, w)


def walk(menu: Menu) -> Walk:
    """Every leaf and multi-pick of ``menu``, and the limits it breaks (Discord: five
    rows, 25 options a menu and 24 below its top, labels 100 and buttons 80 characters)."""
    w = Walk()
    rows = len(menu.menus) + -(-len(menu.buttons) // 5)
    if rows > 5:
        w.problems.append(f"{rows} rows")
    for b in menu.buttons:
        _label(b, w, 80)
        if b.action is None:
            w.problems.append(f"a button without an action: {b.label!r}")
        else:
            w.leaves.add(b.action)
    for top in menu.menus:
        if top.several is not None:
            _node(top, 0, w)
        else:
            _node(top, 0, w)
    return w


def _tokens(several: Several, text: str) -> Counter[str] | None:
    """The items an action text picks from a multi-pick, or None if it is not one."""
    head = several.prefix.split()
    words = text.split()
    if words[: len(head)] != head:
        return None
    return Counter(words[len(head) :])


def _formable(several: Several, text: str) -> bool:
    picked = _tokens(several, text)
    if picked is None:
        return False
    have = Counter(i.token for i in several.items)
    n = sum(picked.values())
    most = several.most if several.most is not None else len(several.items)
    return all(have[k] >= v for k, v in picked.items()) and several.least <= n <= most


def check_menu(menu: Menu, legal: set[str], rng: random.Random) -> list[str]:
    """Every leaf is a legal action; every pick of a multi-pick makes one (sampled);
    every legal action is a leaf or a pick; within the limits."""
    w = walk(menu)
    problems = list(w.problems)
    problems += [f"not legal: {a}" for a in sorted(w.leaves - legal)]
    for sev in w.picks:
        tokens = [i.token for i in sev.items]
        most = sev.most if sev.most is not None else len(tokens)
        sizes = range(sev.least, most + 1)
        combos = [c for k in sizes for c in itertools.combinations(range(len(tokens)), k)]
        for combo in rng.sample(combos, min(len(combos), 60)):
            text = str(Action.from_text(sev.action([tokens[i] for i in combo])))
            if text not in legal:
                problems.append(f"a pick not legal: {text}")
    for text in legal - w.leaves:
        if not any(_formable(sev, text) for sev in w.picks):
            problems.append(f"unreachable: {text}")
    return problems


def _states(seeds: range, kinds: tuple[str, ...] = KINDS) -> Iterator[tuple[int, GameState]]:
    lo = _system().engine
    for seed in seeds:
        for kind in kinds:
            for step in random_game(lo, seed, kind):
                yield seed, step.before


# ---------------------------------------------------------------- the menus
@pytest.mark.parametrize("kind", KINDS)
def test_every_legal_action_is_reachable_from_the_menu_and_nothing_else(
    kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    """1v1, 2v2, a free-for-all of three and a 2v1 with Teamwork, played at random."""
    lo, presenter = _system(), _presenter()
    rng = random.Random(kind)
    checked: Counter[str] = Counter()
    sides = 0
    with caplog.at_level(logging.WARNING, logger="strings"):
        for seed, state in _states(range(20), (kind,)):
            pending = lo.pending(state)
            language = "fr" if seed % 2 else "en"
            seating = Seating(names={s: f"p{s}" for s in state.planes})
            for seat in dict.fromkeys(d.seat for d in pending):
                legal = {str(a) for a in lo.legal_actions(state, seat)}
                menu = presenter.menu(state, seat, seating, language)
                problems = check_menu(menu, legal, rng)
                kinds = [d.kind for d in pending if d.seat == seat]
                assert problems == [], f"{kind} seed {seed}, {seat} {kinds}: {problems[:5]}"
                checked[kinds[0]] += 1
            side = [d for d in pending if d.scope is Scope.SIDE]
            if side:
                menu = presenter.side_menu(state, side[0], seating, language)
                legal = {str(a) for a in lo.legal_actions(state, side[0].seat) if a.verb == "next"}
                w = walk(menu)
                assert w.problems == [] and w.leaves == legal and not w.picks
                assert not menu.buttons, "a public menu has no button"
                sides += 1
    assert not [r for r in caplog.records if r.name == "strings"], caplog.text
    assert sum(checked.values()) > 150 and {"play", "react", "predraw"} <= set(checked)
    if kind in ("2v2", "2v1"):
        assert sides > 0


def test_a_crowded_play_step_stays_within_discords_limits() -> None:
    """Eight aircraft, Aircraft Expertise and Agile, all at Gun Range: hundreds of moves."""
    lo, presenter = _system(), _presenter()
    seats = [
        {
            "seat": f"{side}{n}",
            "side": side,
            "aircraft": ac,
            "skills": ["aircraft-expertise", "agile", "gun-fighter", "timely"]
            if (side, n) == ("A", 1)
            else [],
        }
        for side, planes in (
            ("A", ("f-15a", "f-14a", "f-16a", "f-4e")),
            ("B", ("mig-29", "su-27", "mig-23mf", "mig-21bis")),
        )
        for n, ac in enumerate(planes, 1)
    ]
    setup = LockedOnSetup.model_validate(
        {
            "seats": seats,
            "first_side": "A",
            "altitudes": {s["seat"]: "M" for s in seats},
            "ranges": {s["seat"]: "G" for s in seats},
            "hands": {
                "A1": [
                    "ACE",
                    "RED",
                    "GUN",
                    "GUNG",
                    "TG",
                    "TONE",
                    "VR",
                    "BR",
                    "SCI",
                    "TT",
                    "YOYO",
                    "BRK",
                ]
            },
        }
    )
    state, _ = lo.new_game(setup, 4)
    while lo.pending(state)[0].kind != "play":
        d = lo.pending(state)[0]
        if d.scope is Scope.SIDE:
            action = lo.parse_action(f"next {d.seat}")
        else:
            action = lo.default_action(state, d.seat)
        state, _ = lo.apply(state, d.seat, action)
    legal = {str(a) for a in lo.legal_actions(state, "A1")}
    assert len(legal) > 500
    for language in ("en", "fr"):
        menu = presenter.menu(state, "A1", Seating(), language)
        assert check_menu(menu, legal, random.Random(1)) == []
        assert len(menu.menus) >= 2, "hand, Aircraft Expertise, Timely"


def test_the_menu_of_a_seat_with_nothing_to_decide_is_empty(game: Game) -> None:
    state = game()
    assert not _presenter().menu(state, "B1", Seating(), "en")
    assert not _presenter().side_menu(state, Decision("A1", "play"), Seating(), "en")


# ---------------------------------------------------------------- words
def _every_kind() -> dict[str, tuple[GameState, Decision]]:
    """A state for every kind of decision, from random games (Bat-Turn, Edge of
    Envelope and Teamwork come from the skills and options the games draw)."""
    lo = _system().engine
    found: dict[str, tuple[GameState, Decision]] = {}
    for seed in range(200):
        for step in random_game(lo, seed):
            for d in lo.pending(step.before):
                found.setdefault(d.kind, (step.before, d))
        if set(found) >= set(DECISIONS):
            break
    return found


@pytest.fixture(scope="module")
def every_kind() -> dict[str, tuple[GameState, Decision]]:
    return _every_kind()


def test_every_decision_kind_has_words_and_a_prompt_in_english_and_french(
    every_kind: dict[str, tuple[GameState, Decision]], caplog: pytest.LogCaptureFixture
) -> None:
    presenter = _presenter()
    assert sorted(every_kind) == sorted(DECISIONS)
    with caplog.at_level(logging.WARNING, logger="strings"):
        for kind in DECISIONS:
            words = presenter.decision_words(kind)
            assert isinstance(words, Term) and words.key == f"lockedon.ui.decision.{kind}"
            assert tr(words, "fr") != str(words)
            state, d = every_kind[kind]
            prompt = presenter.prompt(state, d)
            assert isinstance(prompt, Term)
            en, fr = str(prompt), tr(prompt, "fr")
            assert en != fr and "{" not in en + fr, (kind, en, fr)
            if d.scope is Scope.SIDE:
                assert f"Side {d.side}" in en
            else:
                assert presenter.seat_label(state, d.seat) in en
    assert not [r for r in caplog.records if r.name == "strings"], caplog.text


def test_a_reaction_prompt_names_the_attacker_the_cards_and_the_missile(
    game: Game, act: Act
) -> None:
    presenter = _presenter()
    lo = _system()
    state = game(
        hands={"A1": ["GUN", "TT", "BR"], "B1": ["BR", "TT"]},
        ranges={"A1": "G", "B1": "G"},
    )
    state = to_play(act, state, "play GUN B1")
    (d,) = lo.pending(state)
    assert (d.seat, d.kind, d.timing) == ("B1", "react", Timing.RESPONSE)
    text = presenter.prompt(state, d)
    assert text == (
        "MiG-29 (B1): F-15A Eagle (A1) plays a gun attack against you: Guns. "
        "React to Guns, or pass?"
    )
    state = act(state, "B1", "react BR")
    (d,) = lo.pending(state)
    assert presenter.prompt(state, d) == (
        "F-15A Eagle (A1): MiG-29 (B1) answers your Action (a gun attack): Guns → Barrel "
        "Roll. React to Barrel Roll, or pass?"
    )
    assert tr(presenter.prompt(state, d), "fr").startswith("F-15A Eagle (A1) : MiG-29 (B1) répond")
    # A missile: its name, how many, how many cards its mini-hand holds, never which.
    missile = game(
        hands={"A1": ["TONE", "TT"], "B1": ["BR"]},
        ranges={"A1": "RH", "B1": "RH"},
        deck_top=("ACE", "GUNGR", "SCI", "TT", "BR", "BR"),
    )
    missile = to_play(act, missile, "play TONE B1 aim-7f")
    missile = act(missile, "B1", "pass")
    missile = act(missile, "A1", "launch")
    (d,) = lo.pending(missile)
    text = presenter.prompt(missile, d)
    x = missile.exchange
    assert x is not None and x.mini
    assert "AIM-7F Sparrow" in text and f"Missile cards: {len(x.mini)}" in text
    hidden = {
        e.label
        for e in lo.engine.components.deck.types
        if e.code in lo.engine.codes(missile, x.mini)
    }
    assert not any(label in text for label in hidden - {"Tone"})


def test_seat_lines_show_the_seats_own_aircraft_hand_and_mini_hand(game: Game, act: Act) -> None:
    presenter, lo = _presenter(), _system()
    state = game(
        hands={"A1": ["TONE", "TT", "GUN"], "B1": ["BR"]},
        ranges={"A1": "RH", "B1": "RH"},
        deck_top=("ACE", "GUNGR", "SCI", "TT", "BR", "BR"),
        seats=seats_of("A1 A f-15a", "B1 B mig-29", A1={"skills": ["gun-fighter", "eagle-eyes"]}),
    )
    lines = presenter.seat_lines(state, "A1", "en")
    text = "\n".join(lines)
    assert lines[0].startswith("**F-15A Eagle (A1)**, Side A · Medium · Range counter Radar Homing")
    assert "Afterburners off · A/B counters left: 2" in text and "Countermeasures:" in text
    assert "AIM-7F Sparrow ×4" in text and "Gun Fighter (once)" in text and "Eagle Eyes" in text
    assert "Hand (3, limit" in text and "Guns" in text
    assert "▶" not in text, "nothing to play in the Afterburners step"
    state = to_play(act, state)
    assert "**Tight Turn** ▶" in "\n".join(presenter.seat_lines(state, "A1", "en"))
    assert "▶" not in "\n".join(presenter.seat_lines(state, "A1", "en", live=False))
    state = act(state, "A1", "play TONE B1 aim-7f", "B1:pass", "launch")
    mine = "\n".join(presenter.seat_lines(state, "A1", "en"))
    assert "Your Missile's cards (1 × AIM-7F Sparrow)" in mine
    theirs = "\n".join(presenter.seat_lines(state, "B1", "fr"))
    assert lo.engine.view(state, "B1").exchange is not None
    assert "Les cartes de votre Missile" not in theirs and theirs.startswith("**MiG-29 (B1)**")


# ---------------------------------------------------------------- hidden information
def _scrambled(state: GameState, seat: str | None, rng: random.Random) -> GameState:
    """The same game with every card hidden from ``seat`` dealt anew (other hands,
    Aircraft Expertise cards, the draw pile, a Missile's mini-hand it does not own),
    each pile keeping its size."""
    s = state.clone()
    piles: list[list[int]] = [s.deck]
    for other, p in s.planes.items():
        if other != seat:
            piles += [p.hand, p.side_hand]
    if s.exchange is not None and s.exchange.actor != seat:
        piles.append(s.exchange.mini)
    pool = [c for pile in piles for c in pile]
    rng.shuffle(pool)
    for pile in piles:
        n = len(pile)
        pile[:] = pool[:n]
        del pool[:n]
    return s


def test_no_hidden_card_of_another_seat_reaches_a_prompt_a_menu_or_seat_lines() -> None:
    """What a seat reads (its prompt, its own lines, its menu and every move's words)
    and what everyone reads (every prompt) stays the same when every card hidden from
    it is dealt anew."""
    lo, presenter = _system(), _presenter()
    rng = random.Random(7)
    checked = 0
    for n, (_, state) in enumerate(_states(range(4))):
        if n % 3:
            continue
        public = _scrambled(state, None, rng)
        for d in lo.pending(state):
            assert presenter.prompt(state, d) == presenter.prompt(public, d)
            assert tr(presenter.prompt(state, d), "fr") == tr(presenter.prompt(public, d), "fr")
        for seat in state.planes:
            other = _scrambled(state, seat, rng)
            assert presenter.seat_lines(state, seat, "en") == presenter.seat_lines(
                other, seat, "en"
            )
            assert presenter.menu(state, seat, Seating(), "fr") == presenter.menu(
                other, seat, Seating(), "fr"
            )
            for a in lo.legal_actions(state, seat)[:40]:
                assert presenter.describe(state, str(a), "en") == presenter.describe(
                    other, str(a), "en"
                )
            checked += 1
    assert checked > 100


# ---------------------------------------------------------------- describe
DESCRIBED = {
    "alt H": "High",
    "first": "Go first",
    "second": "Go second",
    "next B1": "MiG-29 (B1) takes the next turn",
    "ab on": "Afterburners on (A/B counters left after: 1)",
    "ab off": "Afterburners off",
    "discard": "Keep all cards",
    "discard TT TT": "Discard Tight Turn, Tight Turn",
    "trim BR": "Discard Barrel Roll",
    "stay": "Stay at Medium",
    "dive": "Dive to Low (draw 1)",
    "climb TT": "Climb to High, discarding Tight Turn",
    "speed pos B1": "Speed point: Position +1 on MiG-29 (B1), to Advantaged",
    "speed range me-1 B1": "Speed point: me 1 closer (to Heat Seeking), MiG-29 (B1) may react",
    "speed range B1+1": "Speed point: MiG-29 (B1) 1 farther (to Active Homing)",
    "end": "End the Play Cards step",
    "play TT pos 2 B1": "Tight Turn: Position +2 on MiG-29 (B1), to Tailing",
    "play RED range me-2 B1+1": (
        "Redline: me 2 closer (to Gun), MiG-29 (B1) 1 farther (to Active Homing)"
    ),
    "play GUN B1 paying BR TT": "Guns: gun attack on MiG-29 (B1), discarding Barrel Roll, Tight Turn",
    "play GUN B1 gf": "Guns: gun attack on MiG-29 (B1) with Gun Fighter, no discard",
    "play TONE B1 aim-9l": "Tone: Tone on MiG-29 (B1) for AIM-9L Sidewinder",
    "play BR B1": "Barrel Roll on MiG-29 (B1)",
    "play SCI B1": "Scissors on MiG-29 (B1)",
    "play BRK": "Break (Tactic: +1 card for your next Missile this turn)",
    "play VR up B1 paying TT": "Vertical Roll: climb to High, discarding Tight Turn (MiG-29 (B1) may react)",
    "play VR down B1": "Vertical Roll: dive to Low (MiG-29 (B1) may react)",
    "play side:TT pos 1 B1": "Tight Turn (Aircraft Expertise): Position +1 on MiG-29 (B1), to Advantaged",
    "play BR=ACE pos 4 B1": "Barrel Roll as an Ace Pilot: Position +4 on MiG-29 (B1), to Tailing",
    "giveup B1": "Give up Advantaged on MiG-29 (B1)",
    "launch": "Launch 1",
    "launch 2": "Launch 2",
    "nolaunch": "Don't launch",
    "react BR": "React with Barrel Roll",
    "react side:BR": "React with Barrel Roll (Aircraft Expertise)",
    "react TT=ACE": "React with Tight Turn as an Ace Pilot",
    "react CM": "Countermeasures (0 left)",
    "react CM=ACE": "Countermeasures as an Ace Pilot (Lucky)",
    "pass": "Pass",
    "follow": "Follow (free)",
    "follow BR": "Follow, discarding Barrel Roll",
    "nofollow": "Don't follow (become Neutral)",
    "alert": "Alert: the Missile loses its cards",
    "batturn": "Bat-Turn: return to Neutral",
    "timely ACE BR": "Timely: discard Ace Pilot, Barrel Roll and draw as many",
}
"""Every kind of action in words, as the F-15A (A1) sees them in its Play Cards step
against the MiG-29 (B1), both at Medium and Radar Homing (``speed``: as declared then)."""


def test_describe_says_every_kind_of_action_in_words(game: Game, act: Act) -> None:
    presenter = _presenter()
    state = game(ranges={"A1": "RH", "B1": "RH"})
    state = act(state, "A1", "ab off", "discard", "stay")
    assert state.step in ("speed", "play")
    for text, words in DESCRIBED.items():
        got = presenter.describe(state, text, "en")
        if text == "end" and state.step == "speed":
            assert got == "End Speed Maneuvering"
            continue
        if text == "giveup B1":
            continue  # names the position held, Advantaged when there is none
        assert got == words, text
        fr = presenter.describe(state, text, "fr")
        assert fr and "{" not in fr and not NOTATION.search(fr), (text, fr)
        assert not NOTATION.search(got), (text, got)
    # Where the state does not say the altitude (no turn under way): no altitude named.
    setup = LockedOnSetup.model_validate({"seats": seats_of("A1 A f-15a", "B1 B mig-29")})
    fresh, _ = _system().new_game(setup, 2)
    assert presenter.describe(fresh, "stay", "en") == "Stay at this altitude"
    assert presenter.describe(fresh, "dive", "fr") == "Piquer (piocher 1)"
    assert presenter.describe(fresh, "climb TT", "en") == "Climb, discarding Tight Turn"
    assert presenter.describe(fresh, "play VR down B1", "en") == (
        "Vertical Roll: dive (MiG-29 (B1) may react)"
    )
    assert presenter.describe(fresh, "play VR up B1 paying TT", "fr").startswith("Vertical Roll :")


# ---------------------------------------------------------------- hosting members
def test_lockedon_is_a_hosted_system_with_every_member() -> None:
    lo = _system()
    assert isinstance(lo, HostedSystem)
    members = [m for m in vars(HostedSystem) if not m.startswith("_")]
    assert [m for m in members if not hasattr(lo, m)] == []
    presenter = _presenter()
    needed = [m for m in vars(Presenter) if not m.startswith("_")]
    assert [m for m in needed if not hasattr(presenter, m)] == []


def test_the_turn_hidden_picks_forced_passes_and_computer_players(game: Game, act: Act) -> None:
    lo = _system()
    setup = LockedOnSetup.model_validate({"seats": seats_of("A1 A f-15a", "B1 B mig-29")})
    fresh, _ = lo.new_game(setup, 3)
    assert lo.picks_hidden(fresh) and lo.turn_of(fresh) is None
    state = game(hands={"A1": ["GUN", "TT", "BR"], "B1": ["TONE"]}, ranges={"A1": "G", "B1": "G"})
    assert not lo.picks_hidden(state) and lo.turn_of(state) == "A1"
    assert lo.forced_action(state, "A1") is None, "its own turn"
    state = to_play(act, state, "play GUN B1")
    forced = lo.forced_action(state, "B1")
    assert forced is not None and str(forced) == "pass", "a Tone cannot answer Guns"
    reacting = game(hands={"A1": ["GUN", "TT", "BR"], "B1": ["BR"]}, ranges={"A1": "G", "B1": "G"})
    reacting = to_play(act, reacting, "play GUN B1")
    assert lo.forced_action(reacting, "B1") is None
    for seed in range(5):
        for level in COMPUTER_LEVELS:
            a = lo.computer_player(seed, level).choose(reacting, "B1")
            assert a in lo.legal_actions(reacting, "B1")
            if level != "search":  # the search's time limit depends on the machine
                assert lo.computer_player(seed, level).choose(reacting, "B1") == a, "seeded"
    options = LockedOnOptions()
    picks = [SeatPick(f"A{i}", "A", lo.make_pick("f-15a", {})) for i in range(1, MAX_AIRCRAFT)]
    assert not lo.seats_full(options, picks)
    assert lo.seats_full(options, [*picks, SeatPick("B1", "B", lo.make_pick("mig-29", {}))])
    ffa = LockedOnOptions(free_for_all=True, sides=3)
    three = [SeatPick(s, s[0], lo.make_pick("f-15a", {})) for s in ("A1", "B1", "C1")]
    assert lo.seats_full(ffa, three) and not lo.seats_full(ffa, three[:2])
    assert "at most 8" in str(lo.room_refusal(options, [*picks, *picks]))
    problems = lo.start_problems(
        options, [*picks, *[SeatPick(f"B{i}", "B", lo.make_pick("mig-29", {})) for i in (1, 2)]]
    )
    assert any("at most 8" in p for p in problems)


def test_make_pick_reads_skills_ratings_and_missile_loads() -> None:
    lo = _system()
    pick = lo.make_pick(
        "f-15a",
        {
            "skills": "eagle-eyes, Gun Fighter, skilled, NEWBIE",
            "ratings": "skilled: speed+1; newbie: ew-1, gun",
            "missiles": "aim-9l:4, AIM-7F Sparrow",
        },
    )
    assert pick.skills == ("eagle-eyes", "gun-fighter", "skilled", "newbie")
    assert {k: {r.value: d for r, d in v.items()} for k, v in pick.ratings.items()} == {
        "skilled": {"speed": 1},
        "newbie": {"ew": -1, "gun": -1},
    }
    assert [(m.missile, m.count) for m in pick.missiles or ()] == [("aim-9l", 4), ("aim-7f", 2)]
    assert lo.make_pick("f-15a", {}).missiles is None
    assert lo.make_pick("f-15a", {"missiles": "standard"}).missiles is None
    assert lo.make_pick("f-15a", {"missiles": "none"}).missiles == ()
    one = lo.make_pick("f-15a", {"skills": "Veteran", "ratings": "speed gun"})
    assert {r.value: d for r, d in one.ratings["veteran"].items()} == {"speed": 1, "gun": 1}
    assert lo.make_pick("f-15a", {"skills": None}).skills == ()


@pytest.mark.parametrize(
    ("fields", "key"),
    [
        ({"skills": "top gun"}, "lockedon.ui.pick.unknown_skill"),
        ({"skills": "skilled, veteran", "ratings": "speed+1"}, "lockedon.ui.pick.ratings_which"),
        ({"ratings": "speed+1"}, "lockedon.ui.pick.ratings_no_skill"),
        ({"skills": "skilled", "ratings": "agility+1"}, "lockedon.ui.pick.ratings_text"),
        (
            {"skills": "skilled, timely", "ratings": "timely: speed+1"},
            "lockedon.ui.pick.ratings_skill",
        ),
        ({"missiles": "aim-99:2"}, "lockedon.ui.pick.missiles_text"),
        ({"missiles": "aim-9l:9"}, "lockedon.ui.pick.missiles_text"),
    ],
)
def test_make_pick_refuses_what_it_cannot_read_naming_what_to_write(
    fields: dict[str, str], key: str
) -> None:
    with pytest.raises(ValidationError) as refused:
        _system().make_pick("f-15a", fields)
    inner = refused.value.errors()[0]["ctx"]["error"]
    why = inner.args[0]
    assert isinstance(why, Term) and why.key == key
    assert tr(why, "fr") != str(why)


def test_pick_refusals_name_the_rule() -> None:
    lo = _system()
    plain = LockedOnOptions()
    loads = LockedOnOptions(missile_loads=True, battle_year=1976)
    custom = lo.make_pick("f-15a", {"missiles": "aim-9l:2"})
    assert "Missile Loads" in str(lo.pick_refusal(plain, "A", custom))
    assert "AIM-9L Sidewinder entered service in 1977" in str(lo.pick_refusal(loads, "A", custom))
    assert lo.pick_refusal(LockedOnOptions(missile_loads=True), "A", custom) is None
    pairs = lo.make_pick("f-15a", {"missiles": "aim-9l:3"})
    assert "1 or 2 pairs" in str(lo.pick_refusal(LockedOnOptions(missile_loads=True), "A", pairs))
    green = lo.make_pick("f-15a", {"skills": "green", "ratings": "speed-1 ew-1"})
    assert "Skills" in str(lo.pick_refusal(plain, "A", green))
    nfod = lo.make_pick("f-15a", {"skills": "NFOD"})
    assert "Campaigns" in str(lo.pick_refusal(plain, "A", nfod))
    assert "after this battle's year" in str(
        lo.aircraft_refusal(LockedOnOptions(year=1970), None, "f-15a")
    )
    assert lo.aircraft_refusal(LockedOnOptions(vp_limit=48), "B", "f-15a") is None, "62 - 14"
    assert "over the agreed 47 VP" in str(
        lo.aircraft_refusal(LockedOnOptions(vp_limit=47), "B", "f-15a")
    )
    assert "no aircraft" in str(lo.aircraft_refusal(plain, None, "spitfire")).lower()
    catalogue = {c.id: c for c in lo.aircraft_catalogue()}
    assert (
        catalogue["f-15a"].label == "F-15A Eagle"
        and catalogue["f-15a"].description == "United States, 1976"
    )
    assert len(catalogue) == len(lo.engine.aircraft)


# ---------------------------------------------------------------- standing orders
def _gun_attack(game: Game, act: Act, b1: list[str], **setup: Any) -> GameState:
    state = game(
        hands={"A1": ["GUN", "TT", "BR"], "B1": b1}, ranges={"A1": "G", "B1": "G"}, **setup
    )
    return to_play(act, state, "play GUN B1")


def test_standing_orders(game: Game, act: Act) -> None:
    lo = _system()
    assert lo.standing_orders == ("pass-responses", "defend", "save-ace", "auto-pass")
    for order in lo.standing_orders:
        label = lo.order_label(order)
        assert isinstance(label, Term) and tr(label, "fr") != str(label)
    state = _gun_attack(game, act, ["ACE", "BR", "TT"])
    assert lo.order_action(state, "B1", []) is None
    assert str(lo.order_action(state, "B1", ["pass-responses"])) == "pass"
    assert str(lo.order_action(state, "B1", ["defend"])) == "react BR", "the cheapest answer"
    assert lo.order_action(state, "B1", ["auto-pass"]) is None, "it holds answers"
    only_ace = _gun_attack(game, act, ["ACE", "TONE"])
    assert str(lo.order_action(only_ace, "B1", ["defend"])) == "react ACE"
    assert str(lo.order_action(only_ace, "B1", ["defend", "save-ace"])) == "pass"
    assert str(lo.order_action(only_ace, "B1", ["auto-pass", "save-ace"])) == "pass"
    assert lo.order_action(only_ace, "B1", ["auto-pass"]) is None
    assert lo.order_action(state, "A1", ["pass-responses", "defend"]) is None, "not a response"
    assert lo.order_action(state, "B1", ["no-such-order"]) is None
    # pass-responses lasts until the seat's next turn begins.
    assert not lo.order_expired("pass-responses", state, "B1")
    b1_turn = to_play(act, game(), "end", "discard")
    assert lo.turn_of(b1_turn) == "B1"
    assert lo.order_expired("pass-responses", b1_turn, "B1")
    assert not lo.order_expired("defend", b1_turn, "B1")
    assert not lo.order_expired("pass-responses", b1_turn, "A1")


# ---------------------------------------------------------------- the lobby
def test_the_lobby_fields_match_the_options_model_and_agree_with_down_in_flames() -> None:
    presenter = _presenter()
    model = LockedOnOptions.model_fields
    names = [f.name for f in presenter.option_fields()]
    assert set(names) <= set(model) and not set(names) & DIF_FIELDS
    assert {f.name for f in presenter.catalogue_fields()} <= set(model)
    assert not {f.name for f in presenter.pick_fields()} & DIF_FIELDS
    assert [f.name for f in presenter.pick_fields()] == ["skills", "ratings", "missiles"]
    for s in presenter.switches():
        assert s.option in model and s.param.kind is FieldKind.BOOL
    for f in (*presenter.option_fields(), *presenter.pick_fields(), *presenter.catalogue_fields()):
        assert f.default is None, "optional: the model's default applies"
        for language in ("en", "fr"):
            assert 1 <= len(catalogue(language)[f.description]) <= 100
        if f.kind is FieldKind.INT:
            info = model[f.name].metadata
            low = next(m.ge for m in info if hasattr(m, "ge"))
            high = next(m.le for m in info if hasattr(m, "le"))
            assert (f.low, f.high) == (low, high), f.name
    given = {
        "battle_year": 1985,
        "vp_limit": 150,
        "rounds": 8,
        "team_games": True,
        "teamwork": True,
        "second_deck": True,
    }
    options = LockedOnOptions.model_validate(given)
    assert options.year == 1985 and options.rounds == 8
    assert LockedOnOptions.model_validate(options.model_dump(mode="json")) == options
    assert LockedOnOptions.model_validate({"year": 1985}).battle_year == 1985, "old setups"


def _lobby() -> tuple[LockedOnOptions, list[SeatPick]]:
    lo = _system()
    options = LockedOnOptions(vp_limit=150, battle_year=1985, team_games=True, teamwork=True)
    seats = [
        SeatPick("A1", "A", lo.make_pick("f-15a", {"skills": "eagle-eyes"})),
        SeatPick("A2", "A", lo.make_pick("f-5e", {"missiles": "none"})),
        SeatPick("B1", "B", lo.make_pick("mig-29", {})),
    ]
    return options, seats


def test_the_lobby_shows_each_sides_vp_with_and_without_missiles_and_the_modifier() -> None:
    lo, presenter = _system(), _presenter()
    options, seats = _lobby()
    sides = lo.lobby_sides(options)
    a = presenter.side_heading(options, sides[0], seats, "en")
    vp = lo.engine
    expected = sum(
        v
        for s, v in __import__("engine.lockedon.balance", fromlist=["x"])
        .side_values(vp, [(x.side, x.pick) for x in seats])
        .items()
        if s == "A"
    )
    assert a.startswith("**Side A**: 2 aircraft, **") and f"**{expected} VP** of 150" in a
    assert "without missiles" in a and "with missiles" in a and "modifiers" in a
    lone = presenter.side_heading(options, sides[1], seats[:2], "en")
    assert lone.endswith("nobody yet")
    no_enemy_missiles = [
        seats[0],
        SeatPick("B1", "B", lo.make_pick("mig-29", {"missiles": "none"})),
    ]
    off = presenter.side_heading(options, sides[0], no_enemy_missiles, "en")
    assert "taken off: no enemy carries missiles" in off
    assert presenter.side_heading(options, sides[0], seats, "fr") != a
    text = presenter.pick_text(options, seats[0].pick, "en")
    assert text.startswith("F-15A Eagle, standard missiles (") and "Eagle Eyes +2" in text
    assert "if no enemy carries missiles" in text
    assert "no missiles" in presenter.pick_text(options, seats[1].pick, "en")
    notes = presenter.lobby_notes(options, seats, open_lobby=True, language="en")
    assert notes[0].startswith("Agreed VP: 150 a side") and "Side B" in notes[0]
    assert any("divided equally by Victory Points" in n for n in notes)
    assert any(n.startswith("Teamwork is on") for n in notes)
    title = presenter.lobby_title(options, 12, "2 v 2", "en")
    assert (
        title
        == "**Dogfight #12**: Locked-On, 1985, 2 v 2, 150 VP a side, 6 rounds; team games, Teamwork."
    )
    assert presenter.game_title(options, "en") == "Locked-On 1985"
    assert "join" in presenter.lobby_menu_hint(True, "fr")
    for s in presenter.switches():
        assert tr(presenter.switch_line(s.option, True), "fr") != str(
            presenter.switch_line(s.option, False)
        )


def test_the_aircraft_list_has_every_rating_and_vp_and_fits_a_message() -> None:
    presenter, lo = _presenter(), _system()
    lines = presenter.aircraft_lines(LockedOnOptions(battle_year=1960), "en")
    assert sum(len(x) + 1 for x in lines) <= 2000
    f86 = next(x for x in lines if "`f-86f`" in x)
    assert f86 == (
        "`f-86f` **F-86F Sabre** (United States 1952) Speed 1, Perf. 6, Thrust 1/1, Gun 0, "
        "EW -, CM 0; no missiles; **20** VP, 20 with missiles, modifier 0"
    )
    assert any("A/B" in x and "×" in x for x in lines)
    everything = presenter.aircraft_lines(LockedOnOptions(), "fr")
    assert sum(len(x) + 1 for x in everything) <= 2000
    assert "de plus" in everything[-1] and "`battle_year`" in everything[-1]
    assert presenter.aircraft_lines(LockedOnOptions(vp_limit=1), "en") == [
        "No aircraft fits: none in service by then, or all over the VP limit."
    ]
    del lo


def test_help_pages_exist_in_english_and_french() -> None:
    pages = _presenter().help_pages()
    ids = [p.id for p in pages]
    assert ids == ["lockedon_lobby", "lockedon_play", "rules_lockedon"]
    assert [p.rules for p in pages] == [False, False, True]
    assert pages[-1].title == "lockedon.help.rules.title"
    for p in pages:
        for language in ("en", "fr"):
            assert p.title in catalogue(language) and p.body in catalogue(language)
            assert len(catalogue(language)[p.title]) <= 100
            assert len(catalogue(language)[p.body]) <= 4096


# ---------------------------------------------------------------- history
@dataclass(frozen=True)
class Move:
    """One action in effect (the shape of ``bot.history.Move``)."""

    seat: str
    text: str
    events: tuple[Event, ...]
    before: GameState
    after: GameState


def _finished(lo: LockedOnEngine, *, shoot_down: bool) -> tuple[GameState, list[Move]]:
    for seed in range(400):
        steps = list(random_game(lo, seed, "2v2" if seed % 2 else "1v1"))
        final = steps[-1].after
        if any(not p.flying for p in final.planes.values()) == shoot_down:
            moves = [Move(s.seat, str(s.action), tuple(s.events), s.before, s.after) for s in steps]
            return steps[0].before, moves
    raise AssertionError("no such game")


def test_the_report_names_who_shot_whom_down_and_when() -> None:
    lo, presenter = _system(), _presenter()
    start, moves = _finished(lo.engine, shoot_down=True)
    final = moves[-1].after
    outcome = lo.outcome(final)
    players = {seat: f"pilot {seat}" for seat in final.planes}
    report = presenter.report(start, moves, outcome, players)
    assert [r.ref for r in report.aircraft] == sorted(
        final.planes, key=lambda s: (final.planes[s].side, s)
    )
    down = [f for f in outcome.fates if f.fate is Fate.SHOT_DOWN]
    assert down
    for f in down:
        line = next(r for r in report.aircraft if r.ref == f.ref)
        assert line.fate == "shot down" and line.hits_taken == 1
        assert line.player == f"pilot {f.ref}"
        shooter = presenter.seat_label(final, f.by or "")
        assert f"by {shooter} in round {f.turn}" in line.detail
        assert tr(line.detail, "fr").startswith("par ")
        killer = next(r for r in report.aircraft if r.ref == f.by)
        assert killer.hits_given >= 1 and presenter.seat_label(final, f.ref) in killer.detail
        shots = [text for _, text in report.exchanges if text.endswith(": shot down")]
        assert any(presenter.seat_label(final, f.ref) in text for text in shots)
    for turn, text in report.exchanges:
        assert 1 <= turn <= final.round and " → " in text
        assert tr(text, "fr") != text
    unharmed = [r for r in report.aircraft if r.fate == "unharmed"]
    assert all(r.hits_taken == 0 for r in unharmed)


def test_history_lines_the_hand_at_each_turn_and_notable_events() -> None:
    lo, presenter = _system(), _presenter()
    start, moves = _finished(lo.engine, shoot_down=True)
    turns = [(e, m.after) for m in moves for e in m.events if e.kind == "turn"]
    assert turns
    for e, after in turns:
        (line,) = presenter.full_log_lines(e, after)
        assert line.startswith(f"[{e.data['seat']} hand] ")
    assert "[A1 hand]" in presenter.full_log_legend()  # type: ignore[attr-defined]  # next contract
    kinds = {e.kind for m in moves for e in m.events if presenter.notable(e)}
    assert {"destroyed", "over"} <= kinds
    setup = LockedOnSetup.model_validate(
        {
            "options": {"battle_year": 1985, "team_games": True, "teamwork": True},
            "seats": seats_of("A1 A f-15a", "B1 B mig-29"),
        }
    )
    assert presenter.log_title(setup) == "Locked-On, 1985"
    assert presenter.log_fields(setup)["optional_rules"] == "team games, teamwork"
    assert presenter.phase(start).turn == 1
    assert tr(presenter.begins(setup.options), "fr") != str(presenter.begins(setup.options))


# ---------------------------------------------------------------- the strings
def _flat(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = str(value)
    return out


def _ui(language: str) -> dict[str, str]:
    path = ROOT / "strings" / language / "lockedon-ui.yaml"
    return _flat(yaml.safe_load(path.read_text(encoding="utf-8")))


DYNAMIC = (
    "lockedon.ui.decision.",
    "lockedon.ui.order.",
    "lockedon.ui.what.",
    "lockedon.ui.dogfight.teamwork_",
    "lockedon.ui.dogfight.team_games_",
    "lockedon.ui.dogfight.missile_loads_",
    "lockedon.ui.menu.alt_note.",
    "lockedon.ui.menu.use.",
    "lockedon.ui.report.fate.",
    "lockedon.ui.report.defeated",
    "lockedon.ui.report.missed",
    "lockedon.ui.prompt.altitude",
    "lockedon.ui.prompt.first",
    *(f"lockedon.ui.action.{k}_plain" for k in ("stay", "dive", "climb", "vr_up", "vr_down")),
)
"""Keys built at run time (``f"lockedon.ui.decision.{kind}"``)."""
RELATIVE = ("lockedon.ui.", "lockedon.ui.action.")
"""What the modules' ``say`` helpers put before a key they name (``say("menu.more")``,
``say("stay")``)."""


def test_the_ui_strings_are_complete_in_english_and_french() -> None:
    en, fr = _ui("en"), _ui("fr")
    assert all(k.startswith("lockedon.ui.") for k in en)
    assert sorted(set(en) ^ set(fr)) == []
    for key, text in en.items():
        assert placeholders(fr[key]) == placeholders(text), key
    named: set[str] = set()
    words: set[str] = set()
    for module in UI_MODULES:
        for v in string_constants(parse(ROOT / "engine" / "lockedon" / f"{module}.py")):
            if v.startswith("lockedon.ui.") and not v.endswith("."):
                named.add(v)
            elif re.fullmatch(r"[a-z_]+(\.[a-z_]+)*", v):
                words.add(v)
    missing = [k for k in named if k not in en and not any(x.startswith(f"{k}.") for x in en)]
    assert sorted(missing) == []
    said = {f"{prefix}{w}" for prefix in RELATIVE for w in words}
    unused = [
        k
        for k in en
        if not {k, k.rpartition(".")[0]} & (named | said) and not k.startswith(DYNAMIC)
    ]
    assert unused == []
    for key in DECISIONS:
        assert f"lockedon.ui.decision.{key}" in en
    for texts in (en, fr):
        for key, text in texts.items():
            if ".cmd." in key:
                assert 1 <= len(text) <= 100, key  # a command option's description


def test_the_picture_in_words_names_each_aircraft_with_its_player_and_state() -> None:
    from tests.rendering.test_lockedon_picture import _states

    presenter = _presenter()
    views = [lo.view(state, None) for lo, state in _states(seed=3, steps=40)]
    players = {a.seat: f"pilot-{a.seat}" for a in views[0].aircraft}
    for view in views:
        text = presenter.picture_text(view, players, "en")
        lines = text.splitlines()
        for a in view.aircraft:
            (line,) = [x for x in lines if x.startswith(f"{a.seat} {a.name}, flown by ")]
            if a.destroyed:
                assert "shot down" in line
            elif a.altitude is not None:
                assert tr(Term(f"lockedon.picture.altitude.{a.altitude.code}"), "en") in line
        assert "Hand" not in text, "no card of anyone"
    final = presenter.picture_text(views[-1], players, "fr")
    assert final.startswith("Partie terminée") and "piloté par pilot-A1" in final
