"""The Eagles in the Sky picture: golden images, the mat laid out as data (regions),
legible on a phone with the largest games, and blind to the cards in hand.

Golden images are ``tests/rendering/golden/eagles_*.png``. After an intended change to
the picture, regenerate them and look at every one before committing::

    TALLYHO_UPDATE_GOLDEN=1 python -m pytest tests/rendering/test_eagles_picture.py

They are compared as in ``test_table.py``: same size, and a mean absolute pixel
difference under ``GOLDEN_TOLERANCE`` (``golden_images.py``); the layout tests below check the words,
tiles and arrows exactly, as data.

Positions come from the engine: a scenario's start, a setup's test fields (who tails
whom at which Position Level, damage, jammed guns, a wounded pilot, §3.0 test fields of
:class:`~engine.eagles.setup.PlaneSetup`) followed by moves in notation, and seeded
random games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from itertools import pairwise
from pathlib import Path

import pytest

from engine.eagles.actions import Action
from engine.eagles.game import default_engine
from engine.eagles.historical import scenario_setup
from engine.eagles.setup import EaglesSetup, PlaneSetup, SideSetup
from engine.eagles.state import GameState
from engine.eagles.view import EaglesView
from rendering import fonts
from rendering.eagles import WIDTH, layout, layout_eagles, render_eagles
from rendering.eagles.display import fight_tree
from rendering.registry import picture, renderer
from rendering.shapes import MIN_TEXT_SIZE, Box, Layout, Rect, Text
from tests.rendering.golden_images import check_golden

MAX_PNG_BYTES = 300_000
"""Discord uploads stay small and quick on a phone connection."""

ENGINE = default_engine()
SEATS = {"allied": ("A1",), "german": ("G1",)}


# --- positions -------------------------------------------------------------------------


def play(setup: EaglesSetup, seed: int, moves: Sequence[str] = ()) -> GameState:
    """A game from ``setup``, then ``moves`` in notation (``A1:discard`` names the seat
    when several decide at once, as in the Card Draw Phase)."""
    state, _ = ENGINE.new_game(setup, seed)
    for move in moves:
        seat, _, text = move.rpartition(":")
        state, _ = ENGINE.apply(
            state, seat or ENGINE.pending(state)[0].seat, Action.from_text(text)
        )
    return state


def random_states(
    setup: EaglesSetup, seed: int, *, every: int = 1, steps: int = 10_000
) -> Iterator[GameState]:
    """A game played at random (seeded), every ``every`` moves and its last state."""
    state, _ = ENGINE.new_game(setup, seed)
    rng = random.Random(seed)
    for n in range(steps):
        if ENGINE.is_over(state):
            break
        if n % every == 0:
            yield state
        seat = ENGINE.pending(state)[0].seat
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    yield state


def spectators(state: GameState) -> EaglesView:
    return ENGINE.view(state, None)


def six_v_six_start() -> EaglesView:
    """Scenario 4, The Red Baron's Last Patrol: six Camels and six Dr.Is at Low."""
    return spectators(play(scenario_setup(ENGINE.components, 4, SEATS), 1))


def three_dogfights_setup() -> EaglesSetup:
    """Twelve aircraft in three dogfights of four (§9.13): a chain (display 1), an
    aircraft tailed by two whose tailer is tailed (display 2, climbing), and the same
    the other way round (display 3)."""
    allied = SideSetup(
        seats=("A1",),
        leader="harris",
        pilots={"green": 1},
        planes=(
            PlaneSetup(aircraft="sopwith-camel", altitude="L", damage={"structure": 1}),
            PlaneSetup(aircraft="se5a", altitude="L", tailing="G1", level=2),
            PlaneSetup(aircraft="spad-xiii", altitude="M", tailing="G3", level=4, climb=3),
            PlaneSetup(
                aircraft="sopwith-camel",
                altitude="M",
                tailing="G3",
                level=1,
                guns={"fixed": "jammed"},
            ),
            PlaneSetup(aircraft="sopwith-dolphin", altitude="L", damage={"engine": 1, "wing": 1}),
            PlaneSetup(aircraft="se5a", altitude="L", tailing="G6", level=3),
        ),
    )
    german = SideSetup(
        seats=("G1",),
        leader="richthofen",
        pilots={"inexperienced": 1},
        planes=(
            PlaneSetup(aircraft="fokker-dri", altitude="L", tailing="A1", level=3),
            PlaneSetup(aircraft="fokker-dvii", altitude="L", tailing="A2", level=1),
            PlaneSetup(aircraft="albatros-dva", altitude="M", climb=3, damage={"control": 1}),
            PlaneSetup(aircraft="pfalz-diiia", altitude="M", tailing="A3", level=2),
            PlaneSetup(
                aircraft="fokker-dvii",
                altitude="L",
                tailing="A5",
                level=2,
                guns={"fixed": "broken"},
            ),
            PlaneSetup(aircraft="fokker-dviii", altitude="L", tailing="A5", level=5),
        ),
    )
    return EaglesSetup(
        engagement="patrol",
        zone="no_mans_land",
        month="1918-08",
        weather="cloudy",
        initiative="allied",
        allied=allied,
        german=german,
    )


THREE_DOGFIGHTS_MOVES = (
    *("pass", "pass", "pass", "A1:discard", "G1:discard"),  # turn 1 ends (§4.4, §7)
    *("pass", "pass", "pass", "A1:discard", "G1:discard"),  # and turn 2
    "tail G1 78A A1",  # turn 3: Richthofen presses A1 to Position Level 6
    "pass",
    "tail A2 31A G1",  # A2 attacks him: the Germans are to respond
)


def three_dogfights() -> EaglesView:
    """Turn 3: the twelve aircraft still in their three dogfights, two activated, and
    the Germans to respond to A2's attack on G1."""
    return spectators(play(three_dogfights_setup(), 7, THREE_DOGFIGHTS_MOVES))


def damage_setup() -> EaglesSetup:
    """A Bombing over the German Front Lines in the rain: damage of every kind, jammed
    and broken guns, wounded pilots, bombs, rockets, a Lewis gun, a climber."""
    allied = SideSetup(
        seats=("A1",),
        leader="mccudden",
        planes=(
            PlaneSetup(aircraft="se5a", tailing="G1", level=2),
            PlaneSetup(
                aircraft="bristol-fighter", damage={"structure": 2}, guns={"rear": "jammed"}
            ),
            PlaneSetup(aircraft="nieuport-17", rockets=True, climb=2),
            PlaneSetup(
                aircraft="dh4",
                mission=True,
                bombs=True,
                wounded=True,
                guns={"rear": "broken"},
                altitude="T",
            ),
            PlaneSetup(
                aircraft="sopwith-camel",
                tailing="G3",
                level=4,
                damage={"wing": 1, "control": 1},
                guns={"fixed": "jammed"},
            ),
        ),
    )
    german = SideSetup(
        seats=("G1",),
        leader="udet",
        planes=(
            PlaneSetup(aircraft="albatros-dva", damage={"engine": 1}, guns={"fixed": "jammed"}),
            PlaneSetup(aircraft="fokker-dvii", tailing="A2", level=3, incendiary=True),
            PlaneSetup(aircraft="halberstadt-clii", guns={"rear": "jammed"}, wounded=True),
            PlaneSetup(aircraft="pfalz-diiia", altitude="M"),
        ),
    )
    return EaglesSetup(
        engagement="bombing",
        attacker="allied",
        zone="german_front",
        altitude="L",
        month="1918-06",
        weather="rain",
        initiative="german",
        allied=allied,
        german=german,
    )


def damage_and_jams() -> EaglesView:
    return spectators(play(damage_setup(), 5, ("idle G4 48", "idle A3 26")))


def balloon_busting() -> EaglesView:
    """Scenario 5, Rickenbacker's Balloon, played at random: the balloon has just been
    shot down, the fight goes on."""
    setup = scenario_setup(ENGINE.components, 5, SEATS)
    for seed in range(14, 80):
        for state in random_states(setup, seed):
            if any(p.balloon and p.status == "shot_down" for p in state.planes):
                return spectators(state)
    raise AssertionError("no random game of Scenario 5 shot its balloon down")


def largest_setup(engagement: str = "patrol") -> EaglesSetup:
    """The largest game: six Scouts, three mission aircraft and a balloon a side."""

    def side(
        seats: tuple[str, ...], leader: str, scouts: tuple[str, ...], mission: tuple[str, ...]
    ) -> SideSetup:
        return SideSetup(
            seats=seats,
            leader=leader,
            pilots={"green": 2, "inexperienced": 1},
            planes=(
                *(PlaneSetup(aircraft=a) for a in scouts),
                *(PlaneSetup(aircraft=a, mission=True, bombs=True) for a in mission),
                PlaneSetup(aircraft="balloon"),
            ),
        )

    return EaglesSetup(
        engagement=engagement,
        attacker=None if engagement == "patrol" else "allied",
        month="1918-09",
        weather="fog",
        allied=side(
            ("A1", "A2"),
            "rickenbacker",
            (
                "spad-xiii",
                "spad-xiii",
                "sopwith-camel",
                "se5a",
                "sopwith-dolphin",
                "bristol-fighter",
            ),
            ("dh4", "dh9", "breguet-14"),
        ),
        german=side(
            ("G1", "G2"),
            "richthofen",
            (
                "fokker-dvii",
                "fokker-dviif",
                "fokker-dri",
                "pfalz-dxii",
                "albatros-dva",
                "halberstadt-clii",
            ),
            ("rumpler-cvi", "dfw-cv", "aeg-giv"),
        ),
    )


GOLDEN: dict[str, tuple[Callable[[], EaglesView], str]] = {
    "eagles_6v6_start": (six_v_six_start, "en"),
    "eagles_three_dogfights": (three_dogfights, "en"),
    "eagles_three_dogfights_fr": (three_dogfights, "fr"),
    "eagles_damage_jams": (damage_and_jams, "en"),
    "eagles_balloon_busting": (balloon_busting, "en"),
}


# --- helpers -----------------------------------------------------------------------------


def texts(view: EaglesView, language: str = "en") -> list[str]:
    return [i.text for i in layout_eagles(view, language=language).items if isinstance(i, Text)]


def inside(inner: Rect, outer: Rect) -> bool:
    return (
        outer.x0 <= inner.x0
        and inner.x1 <= outer.x1
        and outer.y0 <= inner.y0
        and inner.y1 <= outer.y1
    )


def overlap(a: Rect, b: Rect) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def check_legible(layout: Layout) -> None:
    """No text under the phone minimum or off the canvas; no two tiles overlap."""
    assert layout.width == WIDTH
    for item in layout.items:
        if isinstance(item, Text):
            assert item.size >= MIN_TEXT_SIZE, item
            left, top, right, bottom = fonts.font(item.face, item.size).getbbox(
                item.text, anchor=item.anchor
            )
            assert item.x + left >= 0 and item.x + right <= WIDTH, item
            assert item.y + top >= 0 and item.y + bottom <= layout.height, item
    tiles = [rect for name, rect in layout.regions.items() if name.startswith("plane:")]
    for i, a in enumerate(tiles):
        assert a.x0 >= 0 and a.x1 <= WIDTH and a.y1 <= layout.height
        assert not any(overlap(a, b) for b in tiles[i + 1 :]), a


# --- golden images -----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_picture_matches_golden_image(name: str, tmp_path: Path) -> None:
    make, language = GOLDEN[name]
    png = render_eagles(make(), language=language)
    check_golden(name, png, tmp_path)


# --- the mat, as data ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_every_aircraft_has_one_tile_where_the_mat_puts_it(name: str) -> None:
    """In its dogfight display, in its altitude's band of the Unengaged section (or on
    the airfield), or in the box of the lost (§2.5, §9.11, §11.12)."""
    view = GOLDEN[name][0]()
    regions = layout_eagles(view).regions
    fights = {ref: f.display for f in view.dogfights for ref in f.planes}
    for p in view.planes:
        tile = regions[f"plane:{p.ref}"]
        if not p.flying:
            where = "band:out"
        elif p.ref in fights:
            where = f"dogfight:{fights[p.ref]}"
        else:
            where = "band:G" if p.on_ground else f"band:{p.altitude}"
        assert inside(tile, regions[where]), (p.ref, where)


def test_the_bands_run_from_high_down_to_treetop() -> None:
    regions = layout_eagles(six_v_six_start()).regions
    bands = [regions[f"band:{code}"] for code in "HMLT"]
    assert all(a.y1 <= b.y0 for a, b in pairwise(bands))


def test_each_dogfight_is_a_chain_with_the_position_level_on_every_arrow() -> None:
    view = three_dogfights()
    layout = layout_eagles(view)
    shown = [i.text for i in layout.items if isinstance(i, Text)]
    assert [len(f.planes) for f in view.dogfights] == [4, 4, 4]
    for p in view.planes:
        if p.tailing is None:
            continue
        arrow = layout.regions[f"arrow:{p.ref}>{p.tailing}"]
        tailer, tailed = layout.regions[f"plane:{p.ref}"], layout.regions[f"plane:{p.tailing}"]
        # Behind it, below it on the display, the arrow pointing up between them.
        assert tailed.y1 <= arrow.y0 and arrow.y1 <= tailer.y0
        assert tailed.x0 <= arrow.x0 and arrow.x1 <= tailed.x1
        assert f"Position Level {p.level}" in shown
    # Display 1 is a chain of four; displays 2 and 3 branch into two columns.
    shapes = [fight_tree(f, {p.ref: p for p in view.planes}) for f in view.dogfights]
    assert [(cols, max(n.depth for n in nodes)) for nodes, cols in shapes] == [
        (1, 3),
        (2, 2),
        (2, 2),
    ]


def test_a_loop_of_tails_is_cut_at_the_top_and_written_out() -> None:
    """A1 tails G1 tails A2 tails G2 tails A1: no aircraft tails nobody."""
    loop = {"A1": "G1", "G1": "A2", "A2": "G2", "G2": "A1"}

    def side(refs: tuple[str, str], aircraft: str) -> SideSetup:
        planes = tuple(PlaneSetup(aircraft=aircraft, tailing=loop[r], level=2) for r in refs)
        return SideSetup(
            seats=(refs[0],), leader="taylor" if aircraft == "se5a" else "vogel", planes=planes
        )

    setup = EaglesSetup(
        engagement="patrol",
        zone="no_mans_land",
        allied=side(("A1", "A2"), "se5a"),
        german=side(("G1", "G2"), "fokker-dvii"),
    )
    view = spectators(play(setup, 1))
    layout = layout_eagles(view)
    check_legible(layout)
    (fight,) = view.dogfights
    top = fight.planes[0]
    shown = [i.text for i in layout.items if isinstance(i, Text)]
    assert any(f"Also tailing {loop[top]}" in t for t in shown)
    assert sum(1 for name in layout.regions if name.startswith("arrow:")) == 3


# --- what the picture says --------------------------------------------------------------


def test_header_shows_the_turn_the_engagement_weather_clouds_event_and_who_acts() -> None:
    shown = texts(three_dogfights())
    assert "Turn 3 of 8 · Patrol" in shown
    assert "August 1918 · Weather: Cloudy · ☁ Clouds at Medium" in shown
    assert any(t.startswith("Random event: no event · Deck ") for t in shown)
    said = " ".join(shown)
    assert "Germans to respond: A2 SE5a targets G1 Fokker DrI with Agility, total 7" in said


def test_the_aircraft_the_decision_is_about_are_outlined() -> None:
    """The Germans are to respond to A2's attack on G1: both tiles are outlined."""
    layout = layout_eagles(three_dogfights())
    outlined = {
        name
        for name, rect in layout.regions.items()
        for item in layout.items
        if isinstance(item, Box) and item.rect == rect and item.fill is None and item.width == 4
    }
    assert outlined == {"plane:A2", "plane:G1"}


def test_side_boxes_count_cards_and_score_vp_and_glory() -> None:
    view = three_dogfights()
    shown = texts(view)
    for side in view.sides:
        assert f"Cards in hand: {side.cards} (hand size {side.hand_size})" in shown
        assert f"{side.vp} VP · {side.glory} Glory" in shown
    assert {"INITIATIVE", "TO ACT"} <= set(shown)


def test_pilots_damage_jams_crew_and_loads_are_written_out() -> None:
    shown = texts(damage_and_jams())
    for word in (
        "Structure ×2",
        "Wing ×1",
        "Control ×1",
        "Engine ×1",
        "Defence class Normal",
        "GUNS JAMMED",
        "REAR GUN JAMMED",
        "REAR GUN BROKEN",
        "PILOT WOUNDED",
        "MISSION",
        "ATTACKER",
        "ACTIVATED",
        "☁ CLOUDS",
    ):
        assert word in shown, word
    said = " ".join(shown)
    for words in (
        "Ace James McCudden",
        "Ace Ernst Udet",
        "Bombs 2",
        "Le Prieur rockets",
        "Incendiary ammo",
        "Lewis gun loaded",
        "Climbing 2/6",
    ):
        assert words in said, words


def test_a_busted_balloon_is_shot_down_and_by_whom() -> None:
    view = balloon_busting()
    (balloon,) = [p for p in view.planes if p.kind == "balloon"]
    assert balloon.status == "shot_down" and balloon.by is not None
    shown = texts(view)
    assert f"◆ {balloon.ref} Balloon" in shown and "SHOT DOWN" in shown
    assert f"by {balloon.by} {view.plane(balloon.by).name}" in shown
    assert any(f"Victories: {balloon.ref}" in t for t in shown)


def test_the_airfield_holds_the_defenders_aircraft_on_the_ground() -> None:
    view = spectators(play(largest_setup("airfield_attack"), 3))
    regions = layout_eagles(view).regions
    grounded = [p for p in view.planes if p.on_ground]
    assert grounded and all(inside(regions[f"plane:{p.ref}"], regions["band:G"]) for p in grounded)
    assert "On the airfield" in texts(view)


def test_french_words_and_no_key_shown() -> None:
    view = three_dogfights()
    shown = texts(view, "fr")
    assert "Tour 3 sur 8 · Patrouille" in shown
    assert "Les Allemands doivent répondre" in " ".join(shown)
    assert any(t.startswith("Niveau de position") for t in shown)
    for language in ("en", "fr"):
        for make in (six_v_six_start, damage_and_jams, balloon_busting):
            assert not [t for t in texts(make(), language) if "picture." in t or "eagles." in t]


def test_a_finished_game_says_so_and_flips_no_counter() -> None:
    *_, last = random_states(scenario_setup(ENGINE.components, 3, SEATS), 2)
    view = spectators(last)
    assert view.pending is None
    shown = texts(view)
    assert shown[0].startswith("GAME OVER · ")
    assert "ACTIVATED" not in shown and "TO ACT" not in shown


# --- legible, and blind to the hands ------------------------------------------------------


def test_twelve_aircraft_in_three_dogfights_are_legible_on_a_phone() -> None:
    for language in ("en", "fr"):
        check_legible(layout_eagles(three_dogfights(), language=language))


@pytest.mark.parametrize("engagement", ["patrol", "airfield_attack"])
def test_the_largest_game_fits(engagement: str) -> None:
    """Six Scouts, three mission aircraft and a balloon a side, at the start and as
    the game goes on."""
    for n, state in enumerate(random_states(largest_setup(engagement), 3, every=25, steps=200)):
        view = spectators(state)
        assert len(view.planes) >= 20  # and any a Random Event adds (§5.1)
        for language in ("en", "fr"):
            lay = layout_eagles(view, language=language)
            check_legible(lay)
            assert lay.height < 5000
        if n == 0:
            assert len(render_eagles(view)) < MAX_PNG_BYTES


def test_no_card_in_any_hand_is_named_in_the_spectators_picture() -> None:
    """The picture counts each side's cards and never names one, even drawn from a
    seat's view that holds its hand."""
    names = {card.name for card in ENGINE.cards.values()}
    checked = 0
    for setup, seed in ((scenario_setup(ENGINE.components, 4, SEATS), 3), (damage_setup(), 5)):
        for state in random_states(setup, seed, every=20, steps=200):
            view = spectators(state)
            public = layout_eagles(view)
            shown = [i.text for i in public.items if isinstance(i, Text)]
            for seat in ("A1", "G1"):
                seat_view = ENGINE.view(state, seat)
                held = {card.name for card in seat_view.hand}
                assert held <= names
                assert not [t for t in shown for name in held if name in t], seat
                assert layout_eagles(seat_view).items == public.items
                checked += len(held)
    assert checked > 50


def test_registered_deterministic_and_small() -> None:
    view = three_dogfights()
    assert renderer("eagles").layout is layout
    png = picture("eagles", view)
    assert png == render_eagles(view) and png.startswith(b"\x89PNG")
    assert len(png) < MAX_PNG_BYTES


def test_engine_states_of_random_games_always_lay_out() -> None:
    """Every state of seeded random games of every scenario lays out legibly."""
    for number in range(1, 9):
        seats = SEATS if number != 1 else {"allied": ("A1",)}
        for state in random_states(
            scenario_setup(ENGINE.components, number, seats), number, every=15, steps=300
        ):
            check_legible(layout_eagles(spectators(state)))
