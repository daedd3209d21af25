"""The Locked-On picture: laid out as data (regions), legible, and blind to hidden cards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.core.contract import SeatPick
from engine.lockedon.ai import RandomPlayer
from engine.lockedon.components import Altitude, Range
from engine.lockedon.system import LockedOnSystem, system
from engine.lockedon.view import LockedOnView
from rendering.lockedon import WIDTH, layout_lockedon, render_lockedon
from rendering.shapes import MIN_TEXT_SIZE, Text

FOUR_A = ("f-15a", "f-14a", "f-16a", "f-4e")
FOUR_B = ("mig-29", "su-27", "mig-23mf", "mig-21bis")


def _states(seed: int, steps: int) -> Iterator[tuple[LockedOnSystem, object]]:
    """A 4-v-4 dogfight played at random, every ``steps`` actions (and its end)."""
    lo = system()
    picks = [SeatPick(f"A{i}", "A", lo.pick_model(aircraft=a)) for i, a in enumerate(FOUR_A, 1)]
    picks += [SeatPick(f"B{i}", "B", lo.pick_model(aircraft=a)) for i, a in enumerate(FOUR_B, 1)]
    state, _ = lo.new_game(lo.setup_from_lobby(lo.options_model(), picks), seed)
    player = RandomPlayer(seed)
    n = 0
    while not lo.is_over(state):
        if n % steps == 0:
            yield lo, state
        d = lo.pending(state)[0]
        state, _ = lo.apply(state, d.seat, player.choose(lo.engine, state, d.seat))
        n += 1
    yield lo, state


@pytest.fixture(scope="module")
def views() -> list[tuple[LockedOnView, dict[str, LockedOnView]]]:
    out = []
    for lo, state in _states(seed=3, steps=40):
        spectators = lo.view(state, None)
        seats = {a.seat: lo.view(state, a.seat) for a in spectators.aircraft}
        out.append((spectators, seats))
    return out


def test_every_flying_aircraft_is_a_chip_in_its_altitude_band_and_range_column(views) -> None:
    for view, _ in views:
        layout = layout_lockedon(view)
        chart = layout.regions["chart"]
        for a in view.aircraft:
            card = layout.regions[f"card:{a.seat}"]
            assert card.x1 <= WIDTH
            if a.destroyed or a.altitude is None:
                assert f"chip:{a.seat}" not in layout.regions
                continue
            chip = layout.regions[f"chip:{a.seat}"]
            band = layout.regions[f"band:{a.altitude.code}"]
            assert band.y0 <= chip.y0 and chip.y1 <= band.y1
            # Gun Range at the middle of the chart, Active Homing at its edges.
            middle = (chart.x0 + chart.x1) // 2
            distance = abs(chip.center[0] - middle)
            assert distance < (chart.x1 - chart.x0) // 2
            if a.range is Range.GUN:
                assert distance < 140
            if a.range is Range.ACTIVE:
                assert distance > 280


def test_every_word_comes_from_the_catalogue(views) -> None:
    """A missing key would be drawn as the key itself."""
    for language in ("en", "fr"):
        for view, _ in views:
            texts = [
                i.text
                for i in layout_lockedon(view, language=language).items
                if isinstance(i, Text)
            ]
            assert not [t for t in texts if "lockedon." in t or "picture." in t]
            assert any("fterburner" in t or "ostcombustion" in t for t in texts)


def test_the_bands_run_high_to_low(views) -> None:
    layout = layout_lockedon(views[0][0])
    high, medium, low = (
        layout.regions[f"band:{a.code}"] for a in (Altitude.HIGH, Altitude.MEDIUM, Altitude.LOW)
    )
    assert high.y1 <= medium.y0 and medium.y1 <= low.y0


def test_no_text_is_too_small_for_a_phone_with_eight_aircraft(views) -> None:
    for view, _ in views:
        assert len(view.aircraft) == 8
        layout = layout_lockedon(view)
        sizes = [item.size for item in layout.items if isinstance(item, Text)]
        assert sizes and min(sizes) >= MIN_TEXT_SIZE


def test_the_picture_reads_no_hand_a_seats_view_draws_the_spectators_picture(views) -> None:
    """Hidden cards never reach a picture: a seat's view (its hand, its missile's
    mini-hand) lays out exactly as the spectators' view does."""
    for spectators, seats in views:
        public = layout_lockedon(spectators)
        for seat, view in seats.items():
            assert view.viewer == seat
            assert layout_lockedon(view.model_copy(update={"viewer": None})).items == public.items


def test_a_shot_down_aircraft_says_so_and_by_whom(views) -> None:
    final, _ = views[-1]
    lost = [a for a in final.aircraft if a.destroyed]
    assert lost, "seed 3 shoots someone down"
    texts = [i.text for i in layout_lockedon(final).items if isinstance(i, Text)]
    assert any(t == "SHOT DOWN" for t in texts)
    for a in lost:
        if a.destroyed_by:
            assert any(f"Shot down by {a.destroyed_by}" in t for t in texts)


def test_french_words_and_a_png(views) -> None:
    view, _ = views[1]
    texts = [i.text for i in layout_lockedon(view, language="fr").items if isinstance(i, Text)]
    assert any(t.startswith("Tour ") for t in texts) and any(t == "Haute" for t in texts)
    png = render_lockedon(view)
    assert png.startswith(b"\x89PNG") and render_lockedon(view) == png, "deterministic"


def test_each_card_names_its_player_next_to_its_seat(views) -> None:
    spectators, _ = views[1]
    players = {a.seat: f"pilot{a.seat}" for a in spectators.aircraft}
    named = layout_lockedon(spectators, players=players)
    shown = [i.text for i in named.items if isinstance(i, Text)]
    for a in spectators.aircraft:
        assert any(f" {a.seat} · pilot{a.seat} · " in text for text in shown), a.seat
    assert named.regions == layout_lockedon(spectators).regions, "names move nothing"


def test_a_missions_sites_are_a_header_line_and_a_dogfight_has_none() -> None:
    lo = system()
    setup = lo.setup_model.model_validate(
        {
            "options": {"team_games": True},
            "mission": {
                "number": 1,
                "title": "SA-7 Site",
                "vp": {"A": 47, "B": 46},
                "sites": {"B": ["sa-7"]},
                "names": {"A": "Israel", "B": "Egypt"},
            },
            "seats": [
                {"seat": "A1", "side": "A", "aircraft": "mirage-iiicj"},
                {"seat": "B1", "side": "B", "aircraft": "mig-17f"},
                {"seat": "B2", "side": "B", "aircraft": "mig-17f"},
            ],
            "altitudes": {"A1": "L", "B1": "L", "B2": "L"},
        }
    )
    state, _ = lo.new_game(setup, 0)
    for language, words in (("en", "Sites: ◆ B SA-7 (G, HS · "), ("fr", "Sites : ")):
        texts = [
            i.text
            for i in layout_lockedon(lo.view(state, None), language=language).items
            if isinstance(i, Text)
        ]
        line = next(t for t in texts if t.startswith(words.split(" ◆")[0]))
        assert "SA-7" in line and "5" in line and "Tone" in line
        assert "lockedon." not in line
        assert any("SA-7 Site" in t and "47" in t and "46" in t for t in texts), "the mission"
        assert any("Israel (A)" in t for t in texts), "the sides by their nations"
    dogfight = next(_states(seed=3, steps=40))[1]
    texts = [i.text for i in layout_lockedon(lo.view(dogfight, None)).items if isinstance(i, Text)]
    assert not [t for t in texts if t.startswith("Sites") or t.startswith("Mission")]
