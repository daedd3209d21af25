"""Locked-On as people read it: the system's :class:`~engine.core.present.Presenter`.

What the generic bot shows of a Locked-On game comes from here, one concern a module:
how an aircraft, a card and a move are named (:mod:`engine.lockedon.describe`), what
each decision asks, naming the attacker, the cards played so far, the missile and its
mini-hand's size, never a hidden card (:mod:`engine.lockedon.prompts`), a seat's own
message (:mod:`engine.lockedon.hand`), its menus (:mod:`engine.lockedon.menus`), the
lobby's lines (:mod:`engine.lockedon.lobbytext`), the after-action report
(:mod:`engine.lockedon.report`); here the exported log's lines and the notable events. Texts are keys of ``strings/<lang>/lockedon-ui.yaml``
(``lockedon.ui.*``) and of the engine's ``lockedon.yaml``; card, aircraft, missile and
skill names stay as printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
from engine.lockedon import alttext, lobbytext, menus, report
from engine.lockedon.hand import SeatLines
from engine.lockedon.prompts import Prompting
from engine.lockedon.setup import LockedOnOptions, LockedOnSetup
from engine.lockedon.state import GameState
from engine.lockedon.view import LockedOnView

__all__ = ["NOTABLE", "TITLE", "LockedOnPresenter"]

TITLE = "Locked-On"
"""The game's title in lists and logs (not translated: a title)."""
NOTABLE = frozenset({"destroyed", "over", "launch", "split_s", "chooser", "order", "first"})
"""Events worth a caption under a replay frame; also the reveal of the starting
altitudes and a missile defeated (by their texts' keys, :data:`NOTABLE_KEYS`)."""
NOTABLE_KEYS = frozenset({"lockedon.event.starts_at", "lockedon.event.missile_defeated"})
DEMOS: dict[str, tuple[dict[str, Any], tuple[tuple[str, str, str], ...]]] = {
    "1v1": ({"battle_year": 1985}, (("A1", "A", "f-15a"), ("B1", "B", "mig-29"))),
    "2v2": (
        {"battle_year": 1985, "team_games": True, "teamwork": True},
        (
            ("A1", "A", "f-15a"),
            ("A2", "A", "f-16a"),
            ("B1", "B", "mig-29"),
            ("B2", "B", "mig-23mf"),
        ),
    ),
}
"""``python -m bot demo``'s games: the options and each seat's aircraft."""


class LockedOnPresenter(Prompting, SeatLines):
    """The presenter of one :class:`LockedOnEngine` (its aircraft, cards, missiles)."""

    def menu(self, state: GameState, seat: str, seating: Seating, language: str) -> Menu:
        return menus.seat_menu(self, state, seat, seating, language)

    def side_menu(
        self, state: GameState, decision: Decision, seating: Seating, language: str
    ) -> Menu:
        return menus.side_menu(self, state, decision, seating, language)

    # --- the lobby ----------------------------------------------------------------
    def picture_text(self, view: LockedOnView, players: Mapping[str, str], language: str) -> str:
        return alttext.picture_text(view, players, language)

    def option_fields(self) -> tuple[Field, ...]:
        return lobbytext.OPTION_FIELDS

    def pick_fields(self) -> tuple[Field, ...]:
        return lobbytext.PICK_FIELDS

    def switches(self) -> tuple[Switch, ...]:
        return lobbytext.SWITCHES

    def switch_line(self, option: str, value: Any) -> str:
        return lobbytext.switch_line(option, value)

    def catalogue_fields(self) -> tuple[Field, ...]:
        return lobbytext.CATALOGUE_FIELDS

    def aircraft_lines(self, options: LockedOnOptions, language: str) -> list[str]:
        return lobbytext.aircraft_lines(self.engine, options, language)

    def lobby_title(
        self, options: LockedOnOptions, game_id: int, format: str, language: str
    ) -> str:
        return lobbytext.title(options, game_id, format, language)

    def side_heading(
        self, options: LockedOnOptions, side: SideInfo, seats: Sequence[SeatPick], language: str
    ) -> str:
        return lobbytext.side_heading(self.engine, options, side, seats, language)

    def pick_text(self, options: LockedOnOptions, pick: Any, language: str) -> str:
        return lobbytext.pick_text(self.engine, options, pick, language)

    def lobby_notes(
        self,
        options: LockedOnOptions,
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

    def game_title(self, options: LockedOnOptions, language: str) -> str:
        return f"{TITLE} {options.year}" if options.year is not None else TITLE

    def help_pages(self) -> tuple[HelpPage, ...]:
        return lobbytext.HELP_PAGES

    def demo(self, ruleset: str, format: str, scenario: int | None = None) -> DemoGame | None:
        """A game for ``python -m bot demo``: an F-15A against a MiG-29, or a 2v2
        team game with Teamwork; None for another format or a scenario (none here)."""
        found = DEMOS.get(format) if scenario is None else None
        return DemoGame(found[0], found[1]) if found is not None else None

    # --- history ------------------------------------------------------------------
    def log_title(self, setup: LockedOnSetup) -> str:
        o = setup.options
        return f"{TITLE}, {o.year}" if o.year is not None else TITLE

    def log_fields(self, setup: LockedOnSetup) -> dict[str, str]:
        """The options as agreed (English, canonical)."""
        o = setup.options
        out = {
            "year": str(o.year) if o.year is not None else "any",
            "vp_limit": str(o.vp_limit) if o.vp_limit is not None else "none",
            "rounds": str(o.rounds),
        }
        rules = [
            name
            for name, on in (
                ("missile loads", o.missile_loads),
                ("team games", o.team_games),
                ("teamwork", o.teamwork),
                (f"free-for-all of {o.sides}", o.free_for_all),
                ("second deck", o.second_deck),
            )
            if on
        ]
        out["optional_rules"] = ", ".join(rules) or "none"
        return out

    def full_log_legend(self) -> str:
        """The full log's header line on its extra lines (English, the canonical record)."""
        return (
            "(A1 only) lines were private to that seat; [A1 hand] is the aircraft's hand "
            "(and Aircraft Expertise cards) as its turn began."
        )

    def full_log_lines(self, event: Event, after: GameState) -> list[str]:
        """The hand of each aircraft whose turn begins (from its owner's view)."""
        seat = event.data.get("seat") if event.kind == "turn" else None
        if seat is None or seat not in after.planes:
            return []
        return [self.hand_line(after, str(seat))]

    def final_lines(self, state: GameState) -> list[str]:
        """``  B1  MiG-29 Fulcrum  shot down by A1, round 3`` per aircraft (the
        lines ``python -m bot verify`` prints)."""
        lines = []
        for seat, p in state.planes.items():
            name = self.engine.aircraft[p.aircraft].name
            fate = "flying" if p.flying else f"shot down by {p.by}, round {p.lost_round}"
            lines.append(f"  {seat:<4} {name:<24} {fate}")
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
