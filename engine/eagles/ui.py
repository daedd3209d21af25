"""Eagles in the Sky as people read it: the system's
:class:`~engine.core.present.Presenter`.

What the generic bot shows of an engagement comes from here, one concern a module: how
aircraft, cards and moves are named (:mod:`engine.eagles.describe`), what each decision
asks, naming the activating aircraft, its card and total, never a card of a hand
(:mod:`engine.eagles.prompts`), a seat's own message: its side's hand and aircraft with
the maneuvers each may make (:mod:`engine.eagles.hand`), its menus
(:mod:`engine.eagles.menus`), the lobby's lines (:mod:`engine.eagles.lobbytext`), the
after-action report (:mod:`engine.eagles.report`); here the exported log's lines, the
notable events and the demo. Texts are keys of ``strings/<lang>/eagles-ui.yaml``
(``eagles.ui.*``) and of the engine's ``eagles.yaml``; card, aircraft and pilot names
stay as printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import registry
from engine.core.contract import Decision, Outcome, SeatPick, SideInfo
from engine.core.events import Event
from engine.core.present import (
    DemoGame,
    Field,
    HelpPage,
    Menu,
    Played,
    Seating,
    Switch,
    WrittenReport,
)
from engine.eagles import alttext, lobbytext, menus, report
from engine.eagles.hand import SeatLines
from engine.eagles.lobby import CUP, EaglesOptions, scenario_choice
from engine.eagles.setup import EaglesSetup
from engine.eagles.state import GameState
from engine.eagles.view import EaglesView

__all__ = ["DEMOS", "NOTABLE", "TITLE", "EaglesPresenter"]

TITLE = registry.entry("eagles").title
"""The game's title in lists and logs (not translated: a title): the registry's."""
NOTABLE = frozenset({"over", "event"})
"""Events worth a caption under a replay frame; also every shoot-down (by key)."""
NOTABLE_KEYS = frozenset({"eagles.shot_down", "eagles.escapes", "eagles.initiative"})
DEMOS: dict[str, tuple[dict[str, Any], tuple[tuple[str, str, str], ...]]] = {
    "1v1": (
        {"engagement": "patrol", "month": "1918-04", "flight": "choice"},
        (("A1", "allied", "se5a"), ("G1", "german", "fokker-dri")),
    ),
    "2v2": (
        {"engagement": "patrol", "month": "1918-04", "flight": "choice"},
        (
            ("A1", "allied", "se5a"),
            ("A2", "allied", "sopwith-camel"),
            ("G1", "german", "fokker-dri"),
            ("G2", "german", "albatros-dva"),
        ),
    ),
}
"""``python -m bot demo``'s engagements: the options and each seat's aircraft."""


class EaglesPresenter(SeatLines):
    """The presenter of one :class:`EaglesEngine` (its aircraft, cards, leaders)."""

    def menu(self, state: GameState, seat: str, seating: Seating, language: str) -> Menu:
        return menus.seat_menu(self, state, seat, seating, language)

    def side_menu(
        self, state: GameState, decision: Decision, seating: Seating, language: str
    ) -> Menu:
        return menus.side_menu(self, state, decision, seating, language)

    def picture_text(self, view: EaglesView, players: Mapping[str, str], language: str) -> str:
        return alttext.picture_text(view, players, language)

    # --- the lobby ----------------------------------------------------------------
    def option_fields(self) -> tuple[Field, ...]:
        return lobbytext.option_fields(self.engine)

    def pick_fields(self) -> tuple[Field, ...]:
        return lobbytext.PICK_FIELDS

    def switches(self) -> tuple[Switch, ...]:
        return lobbytext.SWITCHES

    def switch_line(self, option: str, value: Any) -> str:
        return lobbytext.switch_line(option, value)

    def catalogue_fields(self) -> tuple[Field, ...]:
        return lobbytext.CATALOGUE_FIELDS

    def aircraft_lines(self, options: EaglesOptions, language: str) -> list[str]:
        return lobbytext.aircraft_lines(self.engine, options, language)

    def lobby_title(self, options: EaglesOptions, game_id: int, format: str, language: str) -> str:
        return lobbytext.title(self.engine, options, game_id, format, language)

    def side_heading(
        self, options: EaglesOptions, side: SideInfo, seats: Sequence[SeatPick], language: str
    ) -> str:
        return lobbytext.side_heading(self.engine, options, side, seats, language)

    def pick_text(self, options: EaglesOptions, pick: Any, language: str) -> str:
        return lobbytext.pick_text(self.engine, options, pick, language)

    def lobby_notes(
        self,
        options: EaglesOptions,
        seats: Sequence[SeatPick],
        *,
        open_lobby: bool,
        language: str,
    ) -> list[str]:
        return lobbytext.notes(
            self.engine, options, seats, open_lobby=open_lobby, language=language
        )

    def lobby_menu_hint(self, more: bool, language: str) -> str:
        return lobbytext.menu_hint(more, language)

    def game_title(self, options: EaglesOptions, language: str) -> str:
        if options.scenario is not None:
            return f"{TITLE} #{options.scenario}"
        return f"{TITLE} {options.month}"

    def help_pages(self) -> tuple[HelpPage, ...]:
        return lobbytext.HELP_PAGES

    def demo(self, ruleset: str, format: str, scenario: int | None = None) -> DemoGame | None:
        """A Patrol in April 1918 (an SE5a against a Fokker Dr.I, or two a side); with
        ``scenario``, that historical scenario, one player a side (only the Allies in
        a solitaire one: then the lobby's format is ``custom``)."""
        if scenario is not None:
            sc = self.engine.components.scenarios.get(scenario)
            if sc is None:
                return None
            seats = [("A1", "allied", sc.allied.aircraft[0].aircraft)]
            options: dict[str, Any] = {"scenario": scenario_choice(scenario)}
            if sc.german.aircraft:
                seats.append(("G1", "german", sc.german.aircraft[0].aircraft))
            elif sc.german.drawn_from_cup:
                seats.append(("G1", "german", CUP))  # drawn from a cup each engagement
            else:
                options["format"] = "custom"
            return DemoGame(options, tuple(seats))
        found = DEMOS.get(format)
        return DemoGame(found[0], found[1]) if found is not None else None

    # --- history ------------------------------------------------------------------
    def log_title(self, setup: EaglesSetup) -> str:
        if setup.scenario is not None:
            return f"{TITLE}, scenario {setup.scenario}"
        return f"{TITLE}, {setup.month}"

    def log_fields(self, setup: EaglesSetup) -> dict[str, str]:
        """The options as agreed (English, canonical)."""
        return {
            "engagement": setup.engagement or "drawn",
            "month": setup.month,
            "zone": setup.zone or "by the engagement",
            "altitude": setup.altitude or "by the engagement",
            "attacker": setup.attacker or "none",
            "scenario": str(setup.scenario) if setup.scenario is not None else "none",
            "weather": setup.weather or "clear",
        }

    def full_log_legend(self) -> str:
        """The full log's header line on its extra lines (English, the canonical record)."""
        return (
            "(A1 only) lines were private to that seat's side; [allied hand] is the side's "
            "hand as each turn began."
        )

    def full_log_lines(self, event: Event, after: GameState) -> list[str]:
        """Each side's hand as a turn begins."""
        if event.kind != "turn":
            return []
        return [
            self.hand_line(after, side) for side in ("allied", "german") if after.seats.get(side)
        ]

    def final_lines(self, state: GameState) -> list[str]:
        """``  G2  Albatros D.V  shot down by A1, turn 3`` per aircraft."""
        lines = []
        for p in state.planes:
            name = "Balloon" if p.balloon else self.engine.aircraft[p.aircraft].name
            if p.status == "shot_down":
                fate = f"shot down by {p.by}, turn {p.lost_turn}"
            else:
                fate = p.status
            lines.append(f"  {p.ref:<4} {name:<24} {fate}")
        return lines

    def notable(self, event: Event) -> bool:
        return event.kind in NOTABLE or getattr(event.text, "key", None) in NOTABLE_KEYS

    def report(
        self,
        start: GameState,
        moves: Sequence[Played],
        outcome: Outcome,
        players: Mapping[str, str],
    ) -> WrittenReport:
        return report.written(self, start, moves, outcome, players)
