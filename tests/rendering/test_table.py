"""The spectators' picture of the sky: golden images, layout facts, determinism, limits.

Golden images live in ``tests/rendering/golden/``. After an intended change to the
picture, regenerate them and look at every one before committing::

    TALLYHO_UPDATE_GOLDEN=1 python -m pytest tests/rendering

A golden comparison (``golden_images.py``) decodes both PNGs, requires the same size,
and measures the mean absolute pixel difference with ``PIL.ImageChops`` (see its
``GOLDEN_TOLERANCE`` for why that much); on failure the actual and difference images
are written to the test's tmp_path. Small text changes fall under the tolerance, so the layout tests
check the texts, bands and arrows exactly, as data.

The view builders (:func:`view_1v1`, :func:`view_8v8`, ...) are also used by
``bench/render.py``.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from engine.dif.components import Altitude, Position, Ruleset, Side
from engine.dif.view import (
    BomberView,
    DifView,
    ElementView,
    EngagementView,
    ExchangeView,
    FormationView,
    MissionView,
    PendingView,
    PlaneStatus,
    PlaneView,
    ResultView,
)
from rendering import fonts
from rendering.dif import layout_table, render_table
from rendering.dif.sky import MIN_TEXT_SIZE, WIDTH, Box, Layout, Polygon, Text
from rendering.table import draw_layout
from tests.rendering.golden_images import check_golden, decode

MAX_PNG_BYTES = 300_000
"""Discord uploads stay small and quick on a phone connection."""


# --- hand-built views ---------------------------------------------------------------


def plane(
    ref: str,
    aircraft: str,
    *,
    hits: int = 0,
    capacity: int | None = None,
    damaged: bool = False,
    status: PlaneStatus = PlaneStatus.FLYING,
    promoted: bool = False,
) -> PlaneView:
    """A wingman (``ref`` ending in W) or a leader, with plausible capacities."""
    role = "wingman" if ref.endswith("W") else "leader"
    if capacity is None:
        capacity = (5 if damaged else 3) if role == "leader" else 2
    return PlaneView(
        ref=ref,
        role=role,
        aircraft=aircraft,
        hits=hits,
        damaged=damaged,
        capacity=capacity,
        status=status,
        promoted=promoted,
    )


def element(
    seat: str,
    side: Side,
    aircraft: str,
    altitude: Altitude | None,
    *,
    leader: dict[str, Any] | None = None,
    wingman: dict[str, Any] | None = None,
    solo: bool = False,
    lost: dict[str, Any] | None = None,
    hand_count: int = 5,
    in_fight: bool = True,
) -> ElementView:
    """An element of two ``aircraft``; plane fields as dicts.

    ``solo``: no wingman. ``lost``: a leader shot down and replaced by its wingman
    (11.2); as the engine shows it, the promoted wingman is then the leader.
    """
    return ElementView(
        seat=seat,
        side=side,
        label=f"{aircraft} ({seat})",
        altitude=altitude,
        altitude_chosen=altitude is not None,
        leader=plane(f"{seat}L", aircraft, **(leader or {})),
        wingman=None if solo else plane(f"{seat}W", aircraft, **(wingman or {})),
        lost=() if lost is None else (plane(f"{seat}L-lost1", aircraft, **lost),),
        hand_count=hand_count,
        in_fight=in_fight,
        agile=aircraft == "Ki-43",
    )


def engagement(leader: str, on: str, position: Position) -> EngagementView:
    return EngagementView(leader=leader, on=on, position=position)


def view_1v1(**changes: Any) -> DifView:
    """Turn 2 of 6 (Zero!): a Ki-43 tails a Buffalo I at Medium; the Buffalo is to move."""
    view = DifView(
        ruleset=Ruleset.ZERO,
        viewer=None,
        turn=2,
        max_turns=6,
        step="Play cards",
        active="A1",
        order=("A1", "J1"),
        elements=(
            element("A1", Side.ALLIED, "Buffalo I", Altitude.MEDIUM, leader={"hits": 1}),
            element("J1", Side.AXIS, "Ki-43", Altitude.MEDIUM, hand_count=4),
        ),
        engagements=(engagement("J1", "A1", Position.TAILING),),
        exchange=None,
        pending=(PendingView(seat="A1", kind="play", prompt="Play cards"),),
        deck_count=38,
        discard_count=7,
        vp={Side.ALLIED: 0, Side.AXIS: 0},
        result=None,
    )
    return view.model_copy(update=changes)


def view_destroyed_wingman() -> DifView:
    """The Buffalo's wingman is shot down; the Ki-43 attacks and the Buffalo must answer."""
    return view_1v1(
        turn=4,
        step="Respond",
        active="J1",
        elements=(
            element(
                "A1",
                Side.ALLIED,
                "Buffalo I",
                Altitude.LOW,
                leader={"hits": 2},
                wingman={"hits": 2, "status": PlaneStatus.DESTROYED},
                hand_count=3,
            ),
            element("J1", Side.AXIS, "Ki-43", Altitude.LOW, hand_count=2),
        ),
        engagements=(engagement("J1", "A1", Position.ADVANTAGED),),
        exchange=ExchangeView(
            attacker="J1L",
            target="A1L",
            cards=("In My Sights (1B/2D)",),
            waiting_on="A1",
        ),
        pending=(PendingView(seat="A1", kind="respond", prompt="Respond to In My Sights or pass"),),
        deck_count=21,
        discard_count=19,
        vp={Side.ALLIED: 0, Side.AXIS: 1},
    )


def view_damaged_leader() -> DifView:
    """To the death: a damaged Buffalo tails a Ki-43 whose wingman took over the lead."""
    return view_1v1(
        turn=8,
        max_turns=None,
        step="Play cards",
        active="A1",
        elements=(
            element(
                "A1",
                Side.ALLIED,
                "Buffalo I",
                Altitude.HIGH,
                leader={"hits": 4, "damaged": True},
                wingman={"hits": 1},
            ),
            element(
                "J1",
                Side.AXIS,
                "Ki-43",
                Altitude.HIGH,
                leader={"hits": 1, "capacity": 2, "promoted": True},
                solo=True,
                lost={"hits": 3, "status": PlaneStatus.DESTROYED},
                hand_count=3,
            ),
        ),
        engagements=(engagement("A1", "J1", Position.TAILING),),
        deck_count=9,
        discard_count=33,
        vp={Side.ALLIED: 3, Side.AXIS: 1},
    )


def view_finished() -> DifView:
    """Game over after turn 6: the Buffalo element left the fight, the Japanese won."""
    vp = {Side.ALLIED: 0, Side.AXIS: 4}
    return view_1v1(
        turn=6,
        step="Game over",
        active=None,
        elements=(
            element(
                "A1",
                Side.ALLIED,
                "Buffalo I",
                Altitude.VERY_LOW,
                leader={"hits": 5, "damaged": True, "status": PlaneStatus.DESTROYED},
                wingman={"status": PlaneStatus.EVADED},
                in_fight=False,
            ),
            element("J1", Side.AXIS, "Ki-43", Altitude.LOW, leader={"hits": 2}),
        ),
        engagements=(),
        pending=(),
        deck_count=2,
        discard_count=44,
        vp=vp,
        result=ResultView(vp=vp, winner=Side.AXIS, verdict="Japanese victory"),
    )


_ALLIED = ["Buffalo I", "Hurricane IIB", "P-40B Tomahawk", "F4F-3 Wildcat"]
_AXIS = ["Ki-43", "A6M2 Zero", "Ki-27", "Ki-61 Hien"]


def view_8v8() -> DifView:
    """Eight elements a side over every band, four engagements, a pending response."""
    elements: list[ElementView] = []
    engagements: list[EngagementView] = []
    altitudes = list(Altitude)
    for i in range(8):
        allied, axis = f"A{i + 1}", f"J{i + 1}"
        altitude = altitudes[i % 5]
        elements.append(
            element(
                allied,
                Side.ALLIED,
                _ALLIED[i % 4],
                altitude,
                leader={"hits": i % 3, "damaged": i % 4 == 1},
                wingman={"status": PlaneStatus.DESTROYED} if i % 3 == 2 else None,
            )
        )
        elements.append(
            element(
                axis,
                Side.AXIS,
                _AXIS[i % 4],
                altitude if i % 2 == 0 else altitudes[(i + 2) % 5],
                leader={"capacity": 2, "promoted": True} if i == 5 else None,
                solo=i == 5,
                lost={"status": PlaneStatus.DESTROYED} if i == 5 else None,
            )
        )
        if i % 2 == 0:
            holder, target = (allied, axis) if i % 4 == 0 else (axis, allied)
            position = Position.TAILING if i % 3 else Position.ADVANTAGED
            engagements.append(engagement(holder, target, position))
    return view_1v1(
        turn=3,
        active="A3",
        order=tuple(e.seat for e in elements),
        elements=tuple(elements),
        engagements=tuple(engagements),
        pending=(PendingView(seat="J3", kind="respond", prompt="Respond to Scissors or pass"),),
        deck_count=12,
        discard_count=40,
        vp={Side.ALLIED: 4, Side.AXIS: 6},
    )


def view_2v2() -> DifView:
    """A team game (Rise of the Luftwaffe): two elements a side at Medium, one engagement,
    an Axis leader shot down and its wingman promoted, and an attack on a wingman."""
    spit, hurri, bf109, bf110 = "Spitfire I", "Hurricane IIB", "Bf-109E", "Bf-110C"
    return view_1v1(
        ruleset=Ruleset.ROTL,
        turn=2,
        step="Play cards",
        active="A2",
        order=("A1", "X1", "A2", "X2"),
        elements=(
            element("A1", Side.ALLIED, spit, Altitude.MEDIUM, leader={"hits": 1}),
            element("A2", Side.ALLIED, hurri, Altitude.MEDIUM, wingman={"hits": 1}),
            element("X1", Side.AXIS, bf109, Altitude.MEDIUM, hand_count=4),
            element(
                "X2",
                Side.AXIS,
                bf110,
                Altitude.MEDIUM,
                leader={"hits": 1, "capacity": 2, "promoted": True},
                solo=True,
                lost={"hits": 4, "status": PlaneStatus.DESTROYED},
                hand_count=3,
            ),
        ),
        engagements=(engagement("A1", "X1", Position.ADVANTAGED),),
        exchange=ExchangeView(
            attacker="A2L", target="X1W", cards=("In My Sights (2B/3D)",), waiting_on="X1"
        ),
        pending=(PendingView(seat="X1", kind="respond", prompt="respond, or pass"),),
        deck_count=30,
        discard_count=14,
        vp={Side.ALLIED: 5, Side.AXIS: 0},
    )


TRACK = ("arrival", "arrival", "ingress", "bomb", "egress", "home", "home")
"""Two Turns of Arrival, the three Turns Over the Target, two Turns of Return Home."""


def view_mission(**changes: Any) -> DifView:
    """A Zero! campaign mission's Bomb Turn (turn 4 of 7 on its track): the Ki-43's
    promoted wingman still carries its bombs, the Buffalo's element abandoned the
    target, clouds came."""
    mission = MissionView(
        phase="Bomb Turn",
        attacker=Side.AXIS,
        target="Railway",
        target_damage=4,
        target_level="Damaged",
        away=("A1",),
        loaded=("J1W",),
        clouds=True,
        track=TRACK,
    )
    update = {"mission": mission, "turn": 4, "max_turns": 7} | changes
    return view_damaged_leader().model_copy(update=update)


GOLDEN_VIEWS = {
    "1v1_engagement": view_1v1,
    "2v2_wingman_attack": view_2v2,
    "8v8": view_8v8,
    "destroyed_wingman": view_destroyed_wingman,
    "damaged_leader": view_damaged_leader,
    "finished": view_finished,
    "mission": view_mission,
}

GOLDEN_PLAYERS: dict[str, dict[str, str]] = {
    "1v1_engagement": {"A1": "alice", "J1": "bob"},
    "2v2_wingman_attack": {"A1": "alice", "A2": "bob", "X1": "carol", "X2": "Hélène"},
    # The largest game, with a name too long for its card's strip.
    "8v8": {
        **{f"A{i}": name for i, name in enumerate(("amy", "bo", "cy", "di", "ed", "flo"), 1)},
        **{f"J{i}": name for i, name in enumerate(("kai", "lu", "mo", "ned", "oz", "pi"), 1)},
        "A7": "Maximilian_von_Richthofen",
        "A8": "hal",
        "J7": "qi",
        "J8": "a computer player",
    },
}
"""Who flies the seats of the golden pictures that name their players (the others
draw without names, as a picture of a view alone does)."""


# --- helpers ------------------------------------------------------------------------


def texts(view: DifView) -> list[str]:
    return [item.text for item in layout_table(view).items if isinstance(item, Text)]


def png_chunks(png: bytes) -> list[bytes]:
    """The chunk types of a PNG file, in order."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    kinds, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kinds.append(png[at + 4 : at + 8])
        at += 12 + length
    return kinds


# --- golden images ------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GOLDEN_VIEWS))
def test_picture_matches_golden_image(name: str, tmp_path: Path) -> None:
    png = render_table(GOLDEN_VIEWS[name](), players=GOLDEN_PLAYERS.get(name))
    check_golden(name, png, tmp_path)


# --- what the picture says ------------------------------------------------------------


def test_header_shows_turn_step_mover_counts_and_vp() -> None:
    shown = texts(view_1v1())
    assert "Turn 2 of 6" in shown
    assert "Play cards" in shown
    assert "Buffalo I (A1)" in shown  # after "To move: "
    assert "Deck 38 · Discard 7" in shown
    assert "Allied 0" in shown and "Japanese 0" in shown


def test_to_the_death_replaces_the_turn_limit() -> None:
    assert "Turn 8 · to the death" in texts(view_damaged_leader())


def test_turn_reads_setup_before_turn_one_and_never_passes_the_limit() -> None:
    assert "Setup · 6 turns" in texts(view_1v1(turn=0))
    assert "Turn 6 of 6" in texts(view_finished().model_copy(update={"turn": 7}))


def test_engagement_is_an_arrow_from_the_advantaged_leader_with_its_position() -> None:
    layout = layout_table(view_1v1())
    assert "arrow:J1>A1" in layout.regions
    assert "arrow:A1>J1" not in layout.regions
    shown = texts(view_1v1())
    assert "Tailing" in shown
    assert "▶ Tailing Buffalo I (A1)" in shown
    assert "◀ Tailed by Ki-43 (J1)" in shown
    # Ki-43 (right column) holds the advantage: the arrow's tip is its leftmost point.
    arrow = layout.regions["arrow:J1>A1"]
    tips = [
        min(item.points)
        for item in layout.items
        if isinstance(item, Polygon) and len(item.points) == 7
    ]
    assert tips and tips[0][0] == arrow.x0 < layout.regions["card:J1"].x0


def test_advantaged_engagement_is_labelled_advantaged() -> None:
    layout = layout_table(view_destroyed_wingman())
    assert "arrow:J1>A1" in layout.regions
    assert "Advantaged" in texts(view_destroyed_wingman())


def test_engaged_leaders_share_a_row_across_the_gutter() -> None:
    layout = layout_table(view_8v8())
    for key in layout.regions:
        if key.startswith("arrow:"):
            holder, target = key.removeprefix("arrow:").split(">")
            a, b = layout.regions[f"card:{holder}"], layout.regions[f"card:{target}"]
            assert a.y0 == b.y0, key


def test_team_game_shows_every_element_and_whose_wingman_is_attacked() -> None:
    view = view_2v2()
    layout = layout_table(view)
    shown = texts(view)
    for seat in ("A1", "A2", "X1", "X2"):
        assert f"card:{seat}" in layout.regions
    assert "arrow:A1>X1" in layout.regions
    assert "Hurricane IIB (A2) → Bf-109E wingman (X1)" in shown
    # Each wingman sits inside its own leader's card.
    for seat in ("A1", "A2", "X1"):
        card, wing = layout.regions[f"card:{seat}"], layout.regions[f"plane:{seat}W"]
        assert card.x0 < wing.x0 and wing.x1 <= card.x1 and card.y0 < wing.y0 < wing.y1 <= card.y1
    assert "★ PROMOTED" in shown and "● ALLIES · A2" in shown and "◆ AXIS · X2" in shown


def test_each_card_names_its_player_next_to_its_seat() -> None:
    view = view_2v2()
    players = GOLDEN_PLAYERS["2v2_wingman_attack"]
    layout = layout_table(view, players=players)
    strips = {
        item.text
        for item in layout.items
        if isinstance(item, Text) and any(f" {seat} · " in item.text for seat in players)
    }
    assert strips == {"● A1 · alice", "● A2 · bob", "◆ X1 · carol", "◆ X2 · Hélène"}
    # A name too long for the strip is cut, never the seat, and stays legible.
    layout = layout_table(view_8v8(), players=GOLDEN_PLAYERS["8v8"])
    (long,) = [i for i in layout.items if isinstance(i, Text) and i.text.startswith("● A7 · ")]
    assert long.text.endswith("…") and long.size >= MIN_TEXT_SIZE
    assert layout.regions == layout_table(view_8v8()).regions, "names move nothing"


def test_destroyed_wingman_is_marked_and_stays_attached_to_its_card() -> None:
    layout = layout_table(view_destroyed_wingman())
    assert "DESTROYED" in texts(view_destroyed_wingman())
    card, wing = layout.regions["card:A1"], layout.regions["plane:A1W"]
    assert card.x0 < wing.x0 < wing.x1 <= card.x1
    assert card.y0 < wing.y0 < wing.y1 <= card.y1


def test_damaged_leader_shows_badge_and_hits_on_the_damaged_side() -> None:
    shown = texts(view_damaged_leader())
    assert "DAMAGED" in shown
    assert "4/5 hits" in shown


def test_promoted_wingman_is_marked_and_the_lost_leader_shown() -> None:
    layout = layout_table(view_damaged_leader())
    shown = texts(view_damaged_leader())
    assert "★ PROMOTED" in shown
    assert "Lost leader" in shown
    card, lost = layout.regions["card:J1"], layout.regions["plane:J1L-lost1"]
    assert card.y0 < lost.y0 < lost.y1 <= card.y1


def test_full_throttle_counters_and_pilot_skills_are_shown() -> None:
    from engine.dif.game import default_engine
    from engine.dif.setup import DifSetup

    engine = default_engine()
    setup = DifSetup.model_validate(
        {
            "ruleset": "rotl",
            "year": 1945,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": "p-51d", "pilot": "A,BU"},
                {"seat": "X1", "side": "axis", "aircraft": "me-262a"},
            ],
            "altitudes": {"A1": "M", "X1": "M"},
            "first_side": "allied",
        }
    )
    state, _ = engine.new_game(setup, 1)
    shown = texts(engine.view(state, None))
    assert "Full Throttle counters: 3" in shown  # the Me-262A's Speed (RotL L134)
    assert "Pilot: A, BU" in shown


def test_attack_names_planes_as_the_narration_does() -> None:
    view = view_destroyed_wingman().model_copy(
        update={
            "exchange": ExchangeView(
                attacker="J1W", target="A1L", cards=("Maneuvering",), waiting_on="A1"
            )
        }
    )
    assert "Ki-43 wingman (J1) → Buffalo I (A1)" in texts(view)


def test_pending_attack_shows_cards_and_who_must_answer() -> None:
    shown = texts(view_destroyed_wingman())
    assert "Ki-43 (J1) → Buffalo I (A1)" in shown
    assert "In My Sights (1B/2D)" in shown
    assert "Waiting on Buffalo I (A1) to respond or pass" in shown
    assert "WAITING ON PLAYER" in shown


def test_finished_game_shows_result_and_no_one_to_move() -> None:
    layout = layout_table(view_finished())
    shown = texts(view_finished())
    assert "GAME OVER" in shown
    assert "Japanese victory" in shown
    assert "▶ TO MOVE" not in shown
    assert "EVADED" in shown
    assert layout.regions["card:A1"].y0 >= layout.regions["band:out"].y0


def test_bands_run_from_very_high_down_to_very_low() -> None:
    regions = layout_table(view_1v1()).regions
    tops = [regions[f"band:{a.code}"].y0 for a in sorted(Altitude, reverse=True)]
    assert tops == sorted(tops)
    medium = regions["band:M"]
    assert medium.y0 < regions["card:A1"].y0 < regions["card:A1"].y1 <= medium.y1


def test_hidden_altitude_gets_its_own_section() -> None:
    view = view_1v1(
        elements=(
            element("A1", Side.ALLIED, "Buffalo I", None),
            element("J1", Side.AXIS, "Ki-43", None).model_copy(update={"altitude_chosen": True}),
        ),
        engagements=(),
    )
    regions = layout_table(view).regions
    assert regions["band:hidden"].y0 <= regions["card:A1"].y0
    shown = texts(view)
    assert "Picking an altitude" in shown  # A1
    assert "✓ Altitude picked, secret" in shown  # J1, still without saying which


def test_sides_are_told_apart_by_words_and_markers_not_only_colour() -> None:
    shown = texts(view_1v1())
    assert "● ALLIED · A1" in shown
    assert "◆ JAPANESE · J1" in shown


def test_no_text_is_smaller_than_the_phone_minimum_or_leaves_the_canvas() -> None:
    for view in (*[make() for make in GOLDEN_VIEWS.values()], view_8v8()):
        layout = layout_table(view)
        for item in layout.items:
            if isinstance(item, Text):
                assert item.size >= MIN_TEXT_SIZE, item
                left, _, right, _ = fonts.font(item.face, item.size).getbbox(
                    item.text, anchor=item.anchor
                )
                assert item.x + left >= 0 and item.x + right <= WIDTH, item


def test_seat_views_draw_the_same_picture_as_the_spectator_view() -> None:
    # The renderer never shows a hand, even if handed a player's view.
    spectator = view_1v1()
    owner = spectator.model_copy(
        update={
            "viewer": "A1",
            "elements": (
                spectator.elements[0].model_copy(
                    update={"hand": ("IMS-1B2D", "MAN"), "minihand": ("TIT",)}
                ),
                spectator.elements[1],
            ),
        }
    )
    assert render_table(owner) == render_table(spectator)


def test_text_is_painted_up_to_its_last_glyph() -> None:
    # Bug: the palette canvas measured the monochrome glyphs, and the narrower box cut
    # the right edge of the last glyph, e.g. the ")" of "(A1)".
    def ink(image: Image.Image) -> tuple[int, int, int, int] | None:
        return image.convert("L").point(lambda v: 255 if v < 160 else 0).getbbox()

    ink_colour, paper = (17, 24, 39), (255, 255, 255)
    for text in ("◀ Tailed by Buffalo I (A1)", "Deck 9 · Discard 33"):
        item = Text(16, 40, text, fonts.Face.REGULAR, 24, ink_colour)
        drawn = draw_layout(Layout(600, 80, paper, (item,)))
        reference = Image.new("RGB", (600, 80), paper)
        face = fonts.font(fonts.Face.REGULAR, 24)
        ImageDraw.Draw(reference).text((16, 40), text, fill=ink_colour, font=face, anchor="lm")
        assert ink(drawn) == ink(reference), text


# --- determinism, fonts, limits -----------------------------------------------------


def test_same_view_gives_byte_identical_png() -> None:
    assert render_table(view_8v8()) == render_table(view_8v8())


def test_png_is_identical_across_processes_and_hash_seeds() -> None:
    script = (
        "import sys, importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('t', {str(Path(__file__))!r})\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "from rendering.dif import render_table\n"
        "sys.stdout.buffer.write(render_table(m.view_8v8()))\n"
    )
    outputs = [
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    ]
    assert outputs[0] == outputs[1] == render_table(view_8v8())


def test_png_carries_no_metadata() -> None:
    chunks = png_chunks(render_table(view_1v1()))
    assert set(chunks) <= {b"IHDR", b"PLTE", b"IDAT", b"IEND"}, chunks


def test_render_never_needs_host_fonts(monkeypatch: pytest.MonkeyPatch) -> None:
    real_truetype = ImageFont.truetype

    def truetype_from_bytes_only(font: Any = None, *args: Any, **kwargs: Any) -> Any:
        if isinstance(font, (str, bytes, os.PathLike)):
            raise AssertionError(f"font loaded from a host path: {font!r}")
        return real_truetype(font, *args, **kwargs)

    def no_default(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("fell back to Pillow's default font")

    monkeypatch.setattr(ImageFont, "truetype", truetype_from_bytes_only)
    monkeypatch.setattr(ImageFont, "load_default", no_default)
    fonts.clear_caches()  # fonts, widths and glyph masks: all made under the patch
    try:
        png = render_table(view_destroyed_wingman())
    finally:
        fonts.clear_caches()  # drop what was made under the patch
    assert decode(png).width == WIDTH


def test_shipped_fonts_are_read_from_the_package() -> None:
    shipped = Path(fonts.__file__).parent / "fonts"
    for face in fonts.Face:
        assert fonts.font_bytes(face) == (shipped / face.value).read_bytes()


def test_eight_a_side_renders_within_size_limits() -> None:
    png = render_table(view_8v8())
    image = decode(png)
    assert image.width == WIDTH
    assert len(png) < MAX_PNG_BYTES
    shown = texts(view_8v8())
    assert sum(text.endswith(" · A8") or text.endswith(" · J8") for text in shown) == 2


@pytest.mark.parametrize("name", sorted(GOLDEN_VIEWS))
def test_typical_pictures_stay_small(name: str) -> None:
    assert len(render_table(GOLDEN_VIEWS[name]())) < MAX_PNG_BYTES


def test_a_mission_shows_its_phase_target_bombs_and_abandons() -> None:
    layout = layout_table(view_mission())
    shown = texts(view_mission())
    assert "Bomb Turn" in shown
    assert "Railway: 4 Damage · Damaged · clouds over the target" in shown
    assert "BOMBS" in shown, "the promoted wingman still carries the bombs it started with"
    assert "Abandoned the target (23.5)" in shown
    header, panel = layout.regions["header"], layout.regions["mission"]
    assert header.y1 == panel.y0, "the mission strip sits under the header"
    dogfight = view_mission(
        mission=MissionView(
            phase="Dogfight",
            attacker=Side.AXIS,
            target=None,
            target_damage=0,
            target_level=None,
            away=(),
            loaded=(),
        )
    )
    assert "A Dogfight mission: no target" in texts(dogfight)
    assert "BOMBS" not in texts(dogfight)


def test_formations_fly_in_their_band_with_each_bombers_state() -> None:
    ki21 = FormationView(
        seat="X3",
        side=Side.AXIS,
        altitude=Altitude.MEDIUM,
        mode="saturation",
        bombers=(
            BomberView(
                ref="X3B1", aircraft="Ki-21", hits=6, damaged=True, status="flying", group="X3B1"
            ),
            BomberView(
                ref="X3B2",
                aircraft="Ki-21",
                hits=10,
                damaged=True,
                status="destroyed",
                group="X3B2",
            ),
        ),
    )
    mission = view_mission().mission
    assert mission is not None
    view = view_mission(mission=mission.model_copy(update={"formations": (ki21,)}))
    layout = layout_table(view)
    shown = texts(view)
    assert "◆ JAPANESE · X3 · Ki-21" in shown, "one type a formation, named on its strip"
    assert "X3B1" in shown and "6 hits" in shown and "saturation bombs" in shown
    assert "DESTROYED" in shown and shown.count("DAMAGED") >= 1
    band, card = layout.regions["band:M"], layout.regions["formation:X3"]
    assert band.y0 < card.y0 < card.y1 <= band.y1, "in the Medium band"
    assert card.x0 > WIDTH // 2, "the Japanese column"
    first, second = layout.regions["plane:X3B1"], layout.regions["plane:X3B2"]
    assert card.y0 < first.y0 < second.y0 < card.y1


def track_boxes(layout: Layout) -> dict[int, Box]:
    """The box drawn for each game turn on the mission's turn track, by turn."""
    turns = {int(name[5:]): rect for name, rect in layout.regions.items() if name[:5] == "turn:"}
    drawn = {item.rect: item for item in layout.items if isinstance(item, Box)}
    return {turn: drawn[rect] for turn, rect in sorted(turns.items())}


def test_a_mission_shows_its_turn_track_by_phase_with_the_current_turn() -> None:
    """Zero! 23.1: Arrival, Ingress, Bomb and Egress Over the Target, Return Home; one
    numbered box a game turn, the current one (4, the Bomb Turn) filled and taller,
    those played filled dark, those to come outlined only."""
    layout = layout_table(view_mission())
    shown = texts(view_mission())
    labels = ["Arrival", "Ingress", "Bomb", "Egress", "Return"]
    assert [text for text in shown if text in labels] == labels, "one label a phase, in order"
    assert [text for text in shown if text.isdigit()] == [str(n) for n in range(1, 8)]
    boxes = track_boxes(layout)
    assert list(boxes) == list(range(1, 8))
    xs = [box.rect.x0 for box in boxes.values()]
    assert xs == sorted(xs) and len(set(xs)) == 7, "left to right on one row"
    now = boxes[4]
    assert now.rect.height > boxes[3].rect.height == boxes[5].rect.height
    assert now.fill is not None and boxes[1].fill is not None and now.fill != boxes[1].fill
    assert boxes[3].fill == boxes[1].fill, "turns played look alike"
    assert boxes[5].fill is None and boxes[7].fill is None, "turns to come: outlined"
    panel, track = layout.regions["mission"], layout.regions["track"]
    assert panel.y0 < track.y0 and track.y1 < panel.y1, "the track is in the mission strip"
    assert panel.y1 <= layout.regions["band:VH"].y0


def test_before_turn_one_the_track_has_no_current_turn() -> None:
    boxes = track_boxes(layout_table(view_mission(turn=0)))
    assert all(box.fill is None for box in boxes.values())
    assert len({box.rect.height for box in boxes.values()}) == 1


def test_a_long_track_wraps_between_phases_and_stays_on_the_canvas() -> None:
    """The longest track a setup allows (12 Turns of Arrival and 12 of Return Home,
    engine/dif/mission.py): the Return Home turns go on a second row."""
    track = ("arrival",) * 12 + ("ingress", "bomb", "egress") + ("home",) * 12
    mission = view_mission().mission
    assert mission is not None
    view = view_mission(mission=mission.model_copy(update={"track": track}), max_turns=27)
    layout = layout_table(view)
    boxes = track_boxes(layout)
    assert list(boxes) == list(range(1, 28))
    assert all(box.rect.x0 > 0 and box.rect.x1 < WIDTH for box in boxes.values())
    assert boxes[1].rect.y0 == boxes[15].rect.y0 < boxes[16].rect.y0 == boxes[27].rect.y0
    for item in layout.items:
        if isinstance(item, Text) and item.text.isdigit():
            left, _, right, _ = fonts.font(item.face, item.size).getbbox(item.text, anchor="mm")
            box = boxes[int(item.text)].rect
            assert box.x0 <= item.x + left and item.x + right <= box.x1, item
    assert layout.regions["track"].y1 < layout.regions["mission"].y1


def test_an_element_card_shows_its_aircrafts_ceiling() -> None:
    """Zero! 16.22 L1024: the maximum Altitude printed on the card."""
    view = view_1v1()
    capped = view.elements[1].model_copy(update={"ceiling": Altitude.MEDIUM})
    view = view.model_copy(update={"elements": (view.elements[0], capped)})
    layout = layout_table(view)
    notes = [
        item for item in layout.items if isinstance(item, Text) and item.text == "Ceiling: Medium"
    ]
    assert len(notes) == 1, "on the capped element's card only"
    card = layout.regions[f"card:{capped.seat}"]
    assert card.x0 <= notes[0].x < card.x1 and card.y0 <= notes[0].y < card.y1
