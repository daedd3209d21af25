"""The logbook's text and picture (rendering/logbook.py) over a Zero! carrier campaign's
logbook: each side once, a line a pilot, one pilot's missions with the aircraft's name;
the same view always paints the same bytes; French reads French."""

from __future__ import annotations

from engine.core.campaign import PilotFate
from engine.dif.campaign import campaign_system
from rendering.community import render_card
from rendering.logbook import logbook_card, logbook_lines, pilot_card, pilot_lines
from strings import t, tr
from tests.engine.dif.test_zero_campaign_logbook import _play

SIDES = {"japanese": "Japanese", "allied": "Allied"}


def test_the_logbook_as_text_and_picture() -> None:
    zc = campaign_system()
    state, _ = _play(zc, {"campaign": "coral-sea"}, 2026)
    book = zc.logbook(state)
    lines = logbook_lines(book, SIDES, {"japanese": "alice"}, "en")
    assert lines[0] == "__Japanese__ · alice"
    assert f"__Allied__ · {t('logbook.computer')}" in lines
    assert len(lines) == len(book) + 2
    missing = next(p for p in book if p.fate is PilotFate.MISSING)
    assert f"**{missing.name}** · missions {len(missing.missions)}" in "\n".join(lines)
    assert tr(missing.status, "en") in "\n".join(lines)

    ace = max(book, key=lambda p: p.kills)
    names = {m.aircraft: f"<{m.aircraft}>" for m in ace.missions}
    mine = pilot_lines(ace, "Japanese", "alice", names, "en")
    assert mine[0].startswith(f"**{ace.name}** · ") and tr(ace.rank, "en") in mine[0]
    assert f"kills {ace.kills}" in mine[1]
    assert len(mine) == 2 + len(ace.missions)
    assert all(f"<{m.aircraft}>" in line for m, line in zip(ace.missions, mine[2:], strict=True))
    french = pilot_lines(ace, "Japonais", "alice", names, "fr")
    assert f"victoires {ace.kills}" in french[1]

    card = logbook_card("Coral Sea", book, SIDES, "en")
    assert [tb.title for tb in card.tables] == ["Japanese", "Allied"]
    png = render_card(card)
    assert png.startswith(b"\x89PNG") and render_card(card) == png
    assert render_card(pilot_card("Coral Sea", ace, names, "en")).startswith(b"\x89PNG")
    assert not any("flown by" in line for line in [*lines, *mine]), "no flyer known: none named"


def test_who_flew_each_mission_by_its_game_seat() -> None:
    """``flyers`` names who held each settled mission's seat: the pilot's line lists
    them once each, a mission's line its own, the picture a column (``-`` where no
    game's seat says); French reads French."""
    zc = campaign_system()
    state, _ = _play(zc, {"campaign": "coral-sea"}, 2026)
    book = zc.logbook(state)
    pilot = max(book, key=lambda p: len(p.missions))
    assert len(pilot.missions) > 1
    first, *rest = pilot.missions
    flyers = {(first.mission, str(first.seat)): "alice"}
    flyers |= {(m.mission, str(m.seat)): "bob" for m in rest}
    lines = logbook_lines([pilot], SIDES, {}, "en", flyers)
    assert lines[1].endswith(" · flown by alice, bob")
    mine = pilot_lines(pilot, "Japanese", "alice, bob", {}, "en", flyers)
    assert mine[2].endswith(" · flown by alice")
    assert all(line.endswith(" · flown by bob") for line in mine[3:])
    french = pilot_lines(pilot, "Japonais", "alice, bob", {}, "fr", flyers)
    assert french[2].endswith(" · piloté par alice")

    card = pilot_card("Coral Sea", pilot, {}, "en", {(first.mission, str(first.seat)): "alice"})
    (table,) = card.tables
    assert table.header[-1] == "Flown by"
    assert [row[-1] for row in table.rows] == ["alice"] + ["-"] * len(rest)
    assert len(pilot_card("Coral Sea", pilot, {}, "en").tables[0].header) == 4
    (side,) = logbook_card("Coral Sea", [pilot], SIDES, "en", flyers).tables
    assert side.header[-1] == "Flown by" and side.rows[0][-1] == "alice, bob"
    assert len(logbook_card("Coral Sea", [pilot], SIDES, "en").tables[0].header) == 4
