"""The replay GIF and the after-action report picture: legible, deterministic, small
enough for Discord, and drawn from public data only."""

from __future__ import annotations

import io
from functools import cache

import pytest
from PIL import Image

from bot.history import History, replay_frames, replay_history
from bot.report import after_action_report
from engine.core import registry
from engine.core.contract import SideInfo
from engine.dif.ai import RandomPlayer
from engine.dif.components import Ruleset, Side
from engine.dif.game import default_engine
from engine.dif.setup import DifSetup, ElementSetup
from engine.dif.view import DifView
from rendering.dif import layout as sky
from rendering.dif.sky import MIN_TEXT_SIZE
from rendering.replay import (
    LAST_MS,
    MAX_BYTES,
    frame_layout,
    pick_frames,
    render_replay,
)
from rendering.report import AircraftLine, ExchangeLine, ReportView, layout_report, render_report
from rendering.shapes import Text


@cache
def game(elements: int = 2, seed: int = 4) -> History:
    """A whole random dogfight of ``elements`` elements a side, replayed."""
    engine = default_engine()
    allied, axis = ("buffalo-i", "p-40b"), ("ki-43", "a6m2")
    wingmen = elements <= 3
    setup = DifSetup(
        ruleset=Ruleset.ZERO,
        year=1942,
        elements=tuple(
            ElementSetup(
                seat=f"{p}{i + 1}",
                side=side,
                aircraft=names[i % 2],
                wingman=wingmen,
            )
            for p, side, names in (("A", Side.ALLIED, allied), ("X", Side.AXIS, axis))
            for i in range(elements)
        ),
    )
    state, _ = engine.new_game(setup, seed)
    brains: dict[str, RandomPlayer] = {}
    log = []
    while state.step != "over":
        p = engine.pending(state)[0]
        brain = brains.setdefault(p.seat, RandomPlayer(seed + len(brains)))
        action = brain.choose(engine, state, p.seat)
        state, _ = engine.apply(state, p.seat, action)
        log.append((len(log) + 1, p.seat, str(action)))
    return replay_history(registry.get("dif"), setup, seed, log)  # type: ignore[arg-type]


def frames_of(history: History) -> list[tuple[DifView, str]]:
    return replay_frames(history)


def test_one_frame_per_player_turn_and_the_end() -> None:
    history = game()
    frames = frames_of(history)
    turns = sum(1 for m in history.moves for e in m.events if e.kind == "player_turn")
    assert len(frames) == turns + 1, "each player-turn's start, and the final sky"
    assert frames[-1][0].result is not None
    # Spectator views only: no hand, no mini-hand.
    assert all(e.hand is None and e.minihand is None for v, _ in frames for e in v.elements)


def test_the_gif_is_deterministic_and_fits_discord() -> None:
    frames = frames_of(game())
    gif = render_replay(frames, sky)
    assert gif == render_replay(frames, sky)
    assert len(gif) <= MAX_BYTES
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and image.width == 960
    assert image.n_frames == len(frames)
    image.seek(image.n_frames - 1)
    assert image.info["duration"] == LAST_MS


def test_a_tight_budget_keeps_fewer_frames_then_shrinks_them() -> None:
    frames = frames_of(game())
    full = render_replay(frames, sky)
    fewer = render_replay(frames, sky, max_bytes=len(full) // 2)
    image = Image.open(io.BytesIO(fewer))
    assert len(fewer) <= len(full) // 2 and image.n_frames < len(frames)
    tiny = render_replay(frames, sky, max_bytes=len(full) // 3)
    small = Image.open(io.BytesIO(tiny))
    assert len(tiny) <= len(full) // 3 and small.width < 960 and small.n_frames >= 12
    with pytest.raises(ValueError):
        render_replay(frames, sky, max_bytes=10_000)
    with pytest.raises(ValueError):
        render_replay([], sky)


def test_the_largest_dogfight_fits_under_the_limit() -> None:
    """Seven elements without wingmen a side (14 aircraft): the tallest frames."""
    frames = frames_of(game(7, 3))
    gif = render_replay(frames, sky)
    assert len(gif) <= MAX_BYTES
    assert Image.open(io.BytesIO(gif)).n_frames >= 12


def test_dropped_frames_hand_their_captions_on() -> None:
    frames = frames_of(game())
    views = [v for v, _ in frames]
    fake = [(v, f"c{i}") for i, v in enumerate(views)]
    kept = pick_frames(fake, 5)
    assert len(kept) == 5 and kept[0][0] is views[0] and kept[-1][0] is views[-1]
    told = " ".join(c for _, c in kept).split()
    assert told == [f"c{i}" for i in range(len(views))], "every caption is still told once"


def test_frame_caption_text_is_legible() -> None:
    view, _ = frames_of(game())[3]
    layout = frame_layout(sky(view), "Buffalo I (A1) is shot down! " * 8, 3, 20)
    texts = [i for i in layout.items if isinstance(i, Text)]
    assert all(t.size >= MIN_TEXT_SIZE for t in texts)
    assert texts[0].text == "4/20"
    assert texts[2].text.endswith("…"), "a long caption is cut after two lines"


REPORT = ReportView(
    title="Dogfight #12: after-action report",
    verdict="Japanese victory",
    sides=(SideInfo("allied", "Allied"), SideInfo("axis", "Japanese")),
    winner="axis",
    vp={"axis": 7, "allied": 2},
    turns=6,
    aircraft=(
        AircraftLine(
            "A1L",
            Side.ALLIED,
            "Buffalo I (A1 leader)",
            "alice",
            "shot down",
            "by Ki-43 Oscar (wingman of X1) on turn 4",
            5,
            2,
        ),
        AircraftLine(
            "A1W",
            Side.ALLIED,
            "Buffalo I (wingman of A1, then leader)",
            "alice",
            "evaded",
            "took over as leader (11.2); left the fight, damaged",
            3,
            0,
        ),
        AircraftLine("X1L", Side.AXIS, "Ki-43 Oscar (X1 leader)", "bob", "damaged", "", 2, 3),
        AircraftLine("X1W", Side.AXIS, "Ki-43 Oscar (wingman of X1)", "bob", "unharmed", "", 0, 5),
    ),
    exchanges=(
        ExchangeLine(
            4,
            "Ki-43 Oscar (wingman of X1) → Buffalo I (A1 leader), In My Sights (2B/3D): shot down",
        ),
    ),
)


def test_the_report_picture_is_legible_and_deterministic(tmp_path: object) -> None:
    layout = layout_report(REPORT)
    texts = [i for i in layout.items if isinstance(i, Text)]
    assert all(t.size >= MIN_TEXT_SIZE for t in texts)
    words = {t.text for t in texts}
    assert {"SHOT DOWN", "EVADED", "DAMAGED", "UNHARMED"} <= words, "fates in words"
    assert "Japanese victory" in words
    assert any("Allied 2 VP" in w and "Japanese 7 VP" in w for w in words)
    assert any(w.startswith("Turn 4: Ki-43 Oscar (wingman of X1)") for w in words)
    png = render_report(REPORT)
    assert png == render_report(REPORT)
    image = Image.open(io.BytesIO(png))
    assert image.size == (960, layout.height)


def test_a_real_game_report_renders() -> None:
    history = game()
    report = after_action_report(
        history, title="Dogfight #1: after-action report", result=None, players={}
    )
    assert report.verdict == (history.final.result or {})["verdict"]
    assert len(report.aircraft) == 8
    assert render_report(report).startswith(b"\x89PNG")
