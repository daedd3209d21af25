"""The picture of a campaign's sheet: golden images, laid out as data, legible, and
blind to the secrets of a side when the sheet is a spectator's.

Golden images are ``tests/rendering/golden/campaign_*.png``. After an intended change
to the picture, regenerate them and look at every one before committing::

    TALLYHO_UPDATE_GOLDEN=1 python -m pytest tests/rendering/test_campaign_picture.py

They are compared as in ``test_table.py``: same size, and a mean absolute pixel
difference under ``GOLDEN_TOLERANCE`` (``golden_images.py``); the tests below check the words and the
regions exactly, as data.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from engine.core.campaign import (
    CampaignResult,
    CampaignSheet,
    MissionRow,
    MissionState,
    SheetTable,
)
from engine.core.contract import SideInfo
from rendering.campaign import WIDTH, layout_sheet, mission_window, render_sheet, sheet_alt_text
from rendering.fonts import font
from rendering.shapes import MIN_TEXT_SIZE, Layout, Text
from strings import Term
from tests.rendering.golden_images import check_golden

MAX_PNG_BYTES = 300_000
"""Discord uploads stay small and quick on a phone connection."""

ISRAEL = SideInfo("israel", "Israel")
EGYPT = SideInfo("egypt", "Egypt")
SECRETS = ("Mission 4: Ace of the Base, then Night Fighter", "Second pick: Missile Expert")

TITLES = (
    "Operation Opening Blow",
    "The Mitla Pass",
    "A very long mission title that cannot possibly fit on one line of the sheet, not even on two lines of it, so it is cut",
    "Ras Sudar",
    "Bir Gifgafa",
    "The Last Stand over the Canal",
)


def sheet_midway(**changes: object) -> CampaignSheet:
    """Six missions, three flown, the fourth next; Israel's own sheet (secrets)."""
    missions = []
    scores = ({"israel": 6, "egypt": 2}, {"israel": 3, "egypt": 5}, {"israel": 4, "egypt": 4})
    notes = ("all destroyed", None, "Egypt resigned; the VP apportioned by aircraft destroyed")
    for n, title in enumerate(TITLES, 1):
        state = (
            MissionState.FLOWN if n <= 3 else MissionState.NEXT if n == 4 else MissionState.AHEAD
        )
        missions.append(
            MissionRow(
                n,
                title,
                state,
                vp=scores[n - 1] if n <= 3 else {},
                note=notes[n - 1] if n <= 3 else None,
            )
        )
    sheet = CampaignSheet(
        campaign="sinai-1973",
        title="Yom Kippur: the Sinai front, October 1973",
        sides=(ISRAEL, EGYPT),
        missions=tuple(missions),
        totals={"israel": 13, "egypt": 11},
        total_label=Term("picture.sky.vp"),
        next=(
            "Mission 4, Ras Sudar: Israel flies 2 × F-4E Phantom II, Egypt 2 × MiG-21MF",
            "Awaiting the secret picks of Egypt",
        ),
        secrets=SECRETS,
        tables=(
            SheetTable(
                "Pilots",
                ("Pilot", "Side", "Kills", "Missions"),
                (
                    ("Giora Epstein", "Israel", "4", "3"),
                    ("Ahmed Atef", "Egypt", "1", "3"),
                    ("Amir Nahumi", "Israel", "2", "2"),
                ),
            ),
        ),
        options=("Scale ×1", "Historical aircraft"),
    )
    return replace(sheet, **changes) if changes else sheet  # type: ignore[arg-type]


def sheet_finished() -> CampaignSheet:
    """Every mission flown and the result."""
    sheet = sheet_midway()
    missions = tuple(
        replace(m, state=MissionState.FLOWN, vp=m.vp or {"israel": 5, "egypt": 1})
        for m in sheet.missions
    )
    return replace(
        sheet,
        missions=missions,
        totals={"israel": 28, "egypt": 15},
        next=(),
        secrets=(),
        result=CampaignResult(
            winner="israel",
            verdict="Israel wins: Decisive Victory against Egypt's Marginal Defeat",
            totals={"israel": 28, "egypt": 15},
            levels={"israel": "Decisive Victory", "egypt": "Marginal Defeat"},
        ),
    )


def sheet_with_sides(n: int) -> CampaignSheet:
    """``n`` sides with names too long for their columns, three missions flown."""
    sides = tuple(SideInfo(f"s{i}", f"Side number {i} with a long name") for i in range(n))
    missions = tuple(
        MissionRow(
            m, f"Mission {m}", MissionState.FLOWN, vp={s.id: m + i for i, s in enumerate(sides)}
        )
        for m in range(1, 4)
    )
    return sheet_midway(sides=sides, missions=missions, totals={s.id: 10 for s in sides})


def sheet_fifteen() -> CampaignSheet:
    """Fifteen missions, seven flown."""
    missions = tuple(
        MissionRow(
            n,
            f"Mission {n}: {TITLES[n % len(TITLES)]}",
            MissionState.FLOWN if n < 8 else MissionState.NEXT if n == 8 else MissionState.AHEAD,
            vp={"israel": n, "egypt": 1} if n < 8 else {},
            note="all destroyed" if n % 3 == 0 and n < 8 else None,
        )
        for n in range(1, 16)
    )
    return sheet_midway(missions=missions)


WIDE = SheetTable(
    "Front line",
    tuple(f"Hex {i}" for i in range(20)),
    tuple(tuple(f"cell {r}.{c} with words" for c in range(20)) for r in range(40)),
)


def texts(layout: Layout) -> list[Text]:
    return [item for item in layout.items if isinstance(item, Text)]


def words(layout: Layout) -> list[str]:
    return [item.text for item in texts(layout)]


def bbox(item: Text) -> tuple[float, float, float, float]:
    """The text's ink box on the picture."""
    left, top, right, bottom = font(item.face, item.size).getbbox(item.text, anchor=item.anchor)
    return item.x + left, item.y + top, item.x + right, item.y + bottom


CARDS = {"header", "result", "missions", "next", "secrets", "table"}
"""The regions texts are written in (each must hold its texts whole)."""


SHEETS: dict[str, Callable[[], CampaignSheet]] = {
    "midway": sheet_midway,
    "finished": sheet_finished,
    "spectator": lambda: sheet_midway(secrets=()),
    "three_sides": lambda: sheet_with_sides(3),
    "eight_sides": lambda: sheet_with_sides(8),
    "fifteen_missions": sheet_fifteen,
    "wide_table": lambda: sheet_midway(tables=(WIDE,)),
}


GOLDEN: dict[str, tuple[Callable[[], CampaignSheet], str]] = {
    "campaign_midway": (sheet_midway, "en"),
    "campaign_finished_fr": (sheet_finished, "fr"),
}


# --- golden images ------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_picture_matches_golden_image(name: str, tmp_path: Path) -> None:
    make, language = GOLDEN[name]
    png = render_sheet(make(), language=language)
    check_golden(name, png, tmp_path)


# --- legibility, as data ----------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("name", sorted(SHEETS))
def test_no_text_is_too_small_leaves_its_card_or_overlaps_another(name: str, language: str) -> None:
    layout = layout_sheet(SHEETS[name](), language=language)
    assert layout.width == WIDTH
    cards = [r for key, r in layout.regions.items() if key.split(":")[0] in CARDS]
    boxes = []
    for item in texts(layout):
        assert item.size >= MIN_TEXT_SIZE, item
        left, top, right, bottom = bbox(item)
        assert left >= 18 and right <= WIDTH - 20, item  # in the margins (glyph bearings)
        assert top >= 0 and bottom <= layout.height, item
        for card in cards:
            if card.x0 <= item.x < card.x1 and card.y0 <= item.y < card.y1:
                assert card.x0 < left and right < card.x1 and card.y0 < top, (item, card)
                assert bottom < card.y1, (item, card)
        boxes.append((item, (left, top, right, bottom)))
    for i, (a, (ax0, ay0, ax1, ay1)) in enumerate(boxes):
        for b, (bx0, by0, bx1, by1) in boxes[i + 1 :]:
            # Side by side texts may touch: glyph side bearings overlap by a pixel.
            assert min(ax1, bx1) - max(ax0, bx0) <= 2 or min(ay1, by1) - max(ay0, by0) <= 0, (a, b)


def test_every_mission_has_its_row_in_order_with_its_number() -> None:
    sheet = sheet_midway()
    layout = layout_sheet(sheet)
    rows = [layout.regions[f"mission:{m.number}"] for m in sheet.missions]
    assert all(a.y1 <= b.y0 for a, b in itertools.pairwise(rows))
    shown = words(layout)
    for m in sheet.missions:
        assert str(m.number) in shown
    assert "Operation Opening Blow" in shown and "The Last Stand over the Canal" in shown
    assert rows[-1].y1 <= layout.regions["totals"].y0


def test_a_long_title_wraps_to_two_lines_then_is_cut() -> None:
    layout = layout_sheet(sheet_midway())
    row = layout.regions["mission:3"]
    inside = [i.text for i in texts(layout) if row.y0 <= i.y < row.y1 and i.size == 24]
    title = [w for w in inside if w not in ("3",)]
    assert len(title) == 2 and title[0].startswith("A very long") and title[1].endswith("…")


def test_the_header_names_each_side_in_its_colour_and_the_totals_show() -> None:
    layout = layout_sheet(sheet_midway())
    items = texts(layout)
    israel = next(i for i in items if i.text == "● Israel")
    egypt = next(i for i in items if i.text == "◆ Egypt")
    assert israel.fill != egypt.fill
    totals = layout.regions["totals"]
    in_totals = [i.text for i in items if totals.y0 <= i.y < totals.y1]
    assert in_totals == ["Total VP", "13", "11"]


def test_flown_missions_show_each_sides_score_and_their_note() -> None:
    layout = layout_sheet(sheet_midway())
    items = texts(layout)

    def in_row(n: int) -> list[str]:
        row = layout.regions[f"mission:{n}"]
        return [i.text for i in items if row.y0 <= i.y < row.y1]

    assert in_row(1) == ["1", "Operation Opening Blow", "✓ Flown", "6", "2", "all destroyed"]
    assert in_row(4) == ["4", "Ras Sudar", "▶ Next"]
    assert in_row(6) == ["6", "The Last Stand over the Canal", "Ahead"]


def test_the_next_lines_are_drawn() -> None:
    layout = layout_sheet(sheet_midway())
    assert "next" in layout.regions
    assert "Awaiting the secret picks of Egypt" in words(layout)
    assert "next" not in layout_sheet(sheet_finished()).regions


# --- secrets ------------------------------------------------------------------------


def test_a_sides_own_sheet_boxes_its_secrets_apart() -> None:
    layout = layout_sheet(sheet_midway())
    box = layout.regions["secrets"]
    shown = [i.text for i in texts(layout) if box.y0 <= i.y < box.y1]
    assert shown[0] == "Your secret picks"
    for secret in SECRETS:
        assert any(secret in text for text in shown), secret


def test_a_spectators_sheet_has_no_secrets_box_and_no_secret_text() -> None:
    layout = layout_sheet(sheet_midway(secrets=()))
    assert "secrets" not in layout.regions
    shown = " ".join(words(layout))
    assert "Your secret picks" not in shown
    for secret in SECRETS:
        assert secret not in shown
        assert not any(part in shown for part in ("Ace of the Base", "Missile Expert"))


def test_the_alt_text_never_tells_the_secrets() -> None:
    said = sheet_alt_text(sheet_midway(), "en")
    assert "Ace of the Base" not in said and "Missile Expert" not in said


# --- the result and the system's tables --------------------------------------------


def test_a_finished_campaign_shows_its_result_first() -> None:
    layout = layout_sheet(sheet_finished())
    result = layout.regions["result"]
    assert result.y1 <= layout.regions["missions"].y0
    shown = [i.text for i in texts(layout) if result.y0 <= i.y < result.y1]
    assert shown[0] == "CAMPAIGN OVER"
    assert "● Israel: Decisive Victory · 28 VP" in shown
    assert "◆ Egypt: Marginal Defeat · 15 VP" in shown
    assert any("Decisive Victory against" in text for text in shown)
    assert "result" not in layout_sheet(sheet_midway()).regions


def test_a_sheet_table_is_a_grid_with_its_title_columns_and_rows() -> None:
    layout = layout_sheet(sheet_midway())
    area = layout.regions["table:0"]
    shown = [i.text for i in texts(layout) if area.y0 <= i.y < area.y1]
    assert shown[:4] == ["Pilot", "Side", "Kills", "Missions"]
    assert "Giora Epstein" in shown and "Amir Nahumi" in shown
    assert "Pilots" in words(layout)


def test_a_table_too_wide_or_too_long_is_cut_and_says_so() -> None:
    layout = layout_sheet(sheet_midway(tables=(WIDE,)))
    shown = words(layout)
    assert "…and 10 more rows" in shown
    assert "12 more columns not shown" in shown
    assert "Hex 7" in shown and "Hex 8" not in shown


# --- more sides, more missions ------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 8])
def test_more_sides_shrink_the_columns_and_still_fit(n: int) -> None:
    sheet = sheet_with_sides(n)
    sides = sheet.sides
    layout = layout_sheet(sheet)
    columns = [layout.regions[f"side:{s.id}"] for s in sides]
    assert all(a.x1 <= b.x0 for a, b in itertools.pairwise(columns))
    assert columns[-1].x1 <= WIDTH - 20
    # Names too long for their columns: a legend above the header names every side.
    legend = layout.regions["legend"]
    named = [i.text for i in texts(layout) if legend.y0 <= i.y < legend.y1]
    assert len(named) == n and all(text.endswith("with a long name") for text in named)


def test_short_names_need_no_legend() -> None:
    sides = (ISRAEL, EGYPT, SideInfo("jordan", "Jordan"))
    layout = layout_sheet(sheet_midway(sides=sides))
    assert "legend" not in layout.regions
    assert "▲ Jordan" in words(layout)


def test_fifteen_missions_grow_the_picture_up_to_a_window() -> None:
    """Up to twelve missions are drawn; past that, the ones around the next (the flown
    ones just before it, a few ahead), with a note for each end left out."""
    six = layout_sheet(sheet_midway())
    fifteen = layout_sheet(sheet_fifteen())
    assert fifteen.height > six.height
    drawn = [n for n in range(1, 16) if f"mission:{n}" in fifteen.regions]
    assert drawn == list(range(1, 13))  # mission 8 is next: the window starts at 1
    for n in drawn:
        assert fifteen.regions[f"mission:{n}"].y1 <= fifteen.height
    shown = words(fifteen)
    assert "…and 3 more missions ahead" in shown
    later = sheet_fifteen()
    rows = tuple(
        replace(m, state=MissionState.FLOWN if m.number < 14 else m.state)
        if m.number != 14
        else replace(m, state=MissionState.NEXT)
        for m in later.missions
    )
    window, before, after = mission_window(rows)
    assert [m.number for m in window] == list(range(4, 16)) and (before, after) == (3, 0)
    assert "…3 earlier missions (in /campaign log)" in words(
        layout_sheet(replace(later, missions=rows))
    )


# --- languages, PNG, alt text -------------------------------------------------------


def test_the_pictures_words_are_french_in_french() -> None:
    shown = words(layout_sheet(sheet_finished(), language="fr"))
    assert "CAMPAGNE TERMINÉE" in shown and "Total PV" in shown and "✓ Jouée" in shown
    assert "Missions jouées : 6 sur 6" in shown
    midway = words(layout_sheet(sheet_midway(), language="fr"))
    assert "Vos choix secrets" in midway and "▶ Suivante" in midway and "À venir" in midway
    assert not [w for w in midway if "picture." in w]


def test_render_sheet_is_a_deterministic_png_960_wide() -> None:
    png = render_sheet(sheet_midway())
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == WIDTH
    assert image.height == layout_sheet(sheet_midway()).height
    assert render_sheet(sheet_midway()) == png
    assert len(png) < MAX_PNG_BYTES


def test_the_alt_text_gives_title_totals_next_mission_and_result() -> None:
    said = sheet_alt_text(sheet_midway(), "en")
    assert said.startswith("Campaign sheet: Yom Kippur")
    assert "Totals: Israel 13 VP, Egypt 11 VP." in said
    assert "Next: mission 4, Ras Sudar." in said
    assert "Result" not in said
    done = sheet_alt_text(sheet_finished(), "fr")
    assert "Totaux : Israel 28 PV, Egypt 15 PV." in done and "Résultat : Israel wins" in done
    assert len(sheet_alt_text(sheet_midway(title="x" * 5000), "en")) <= 1024
