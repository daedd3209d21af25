"""The community's pictures (``rendering/community.py``): a leaderboard's page, a
player's ratings and a pilot's record, each a card of tables.

Golden images (``tests/rendering/golden/community-*.png``) catch a change of look;
regenerate them after an intended change, and look at them before committing::

    TALLYHO_UPDATE_GOLDEN=1 python -m pytest tests/rendering/test_community_picture.py

They are compared as in ``test_table.py`` (same size, a mean absolute pixel difference
under ``GOLDEN_TOLERANCE`` (``golden_images.py``)); the tests below check the words and their sizes as
data: every cell is there, cut to its column rather than overflowing it.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from rendering.community import WIDTH, CardTable, CardView, layout_card, render_card
from rendering.shapes import MIN_TEXT_SIZE, Text, text_width
from tests.rendering.golden_images import check_golden

MAX_PNG_BYTES = 300_000
"""Discord uploads stay small and quick on a phone connection."""

LONG_NAME = "Squadron Leader Reginald Fortescue-Smythe of the Royal Air Force"


def board() -> CardView:
    """A full page of a board, the reader's own row highlighted, one name too long."""
    names = ["alice", "bob", LONG_NAME, "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
    rows = tuple(
        (f"{n}. {name}", f"{30 - 2 * n:.1f}", f"{12 - n} games, {9 - n // 2} won")
        for n, name in enumerate(names, start=1)
    )
    table = CardTable("Down in Flames", ("Player", "Rating", "Games"), rows, highlight=2)
    return CardView("Leaderboard: Down in Flames", "this server · page 1 of 3", (table,))


def rank_in_french() -> CardView:
    rows = (
        ("Down in Flames : ce serveur", "24.3", "2e sur 14", "12 parties, 8 gagnées, 4 perdues"),
        ("Down in Flames : tous les serveurs", "21.0", "masqué", "20 parties, 11 gagnées"),
        ("Eagles in the Sky : ce serveur", "3.1", "9e sur 9", "1 parties, 0 gagnées, 1 perdues"),
    )
    header = ("Où", "Classement", "Rang", "Parties")
    table = CardTable("Classements", header, rows)
    subtitle = "Classement OpenSkill (μ − 3σ), sur ce serveur et sur tous les serveurs"
    return CardView("Classements de Amélie", subtitle, (table,))


def profile_of_a_newcomer() -> CardView:
    """A record with one game and no aircraft yet: an empty table says so."""
    header = ("System", "Played", "Won", "Kills", "Losses")
    systems = CardTable("Games", header, (("Down in Flames", "1", "0", "0", "1"),))
    flown = CardTable("Aircraft flown", ("Aircraft", "Games"), (), empty="Nothing yet.")
    return CardView("Pilot record of bob", "Finished games, practice excluded", (systems, flown))


GOLDEN: dict[str, Callable[[], CardView]] = {
    "community-board": board,
    "community-rank-fr": rank_in_french,
    "community-profile-empty": profile_of_a_newcomer,
}


def texts(card: CardView) -> list[Text]:
    return [item for item in layout_card(card).items if isinstance(item, Text)]


@pytest.mark.parametrize("make", GOLDEN.values(), ids=list(GOLDEN))
def test_every_word_is_readable_and_inside_the_card(make: Callable[[], CardView]) -> None:
    card = make()
    layout = layout_card(card)
    assert layout.width == WIDTH == 960
    for item in texts(card):
        assert item.size >= MIN_TEXT_SIZE, item
        width = text_width(item.text, item.face, item.size)
        left = item.x - width if item.anchor.startswith("r") else item.x
        assert left >= 0 and left + width <= WIDTH, item
    png = render_card(card)
    assert len(png) < MAX_PNG_BYTES and png == render_card(card), "small and deterministic"
    assert Image.open(io.BytesIO(png)).size == (layout.width, layout.height)


def test_every_cell_is_drawn_and_a_long_one_wraps_then_is_cut() -> None:
    card = board()
    items = texts(card)
    shown = [item.text for item in items]
    for row in card.tables[0].rows:
        for cell in row[1:]:
            assert cell in shown, cell
    start = shown.index("3. Squadron Leader Reginald")
    second = items[start + 1]
    assert second.text.startswith("Fortescue-Smythe") and second.text.endswith("…"), second
    assert second.y > items[start].y, "a second line, under the first"
    row = [i for i in items if abs(i.y - items[start].y) < 20 or i is second]
    assert {i.face.name for i in row} == {"BOLD"}, "the reader's own row stands out"


def test_cells_that_fit_stay_on_one_line() -> None:
    items = texts(board())
    alice = next(i for i in items if i.text == "1. alice")
    assert [i.text for i in items if i.y == alice.y] == ["1. alice", "28.0", "11 games, 9 won"]


def test_an_empty_table_says_so() -> None:
    shown = [item.text for item in texts(profile_of_a_newcomer())]
    assert "Nothing yet." in shown and "Aircraft flown" in shown


def test_more_rows_make_a_taller_card() -> None:
    short = layout_card(profile_of_a_newcomer())
    long = layout_card(board())
    assert long.height > short.height


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_picture_matches_golden_image(name: str, tmp_path: Path) -> None:
    png = render_card(GOLDEN[name]())
    check_golden(name, png, tmp_path)
