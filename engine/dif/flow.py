"""The flow of a game: the reveal and deal (4.5-4.7), player-turns in a fixed order,
six game turns or to the death (4.8), and the end of the game (4.9).
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.rng import Rng
from engine.dif import tables
from engine.dif.actions import Action
from engine.dif.base import Pending
from engine.dif.components import (
    Altitude,
    Ruleset,
    Side,
)
from engine.dif.legality import Legality
from engine.dif.state import GameState, TurnState

__all__ = ["Flow"]


class Flow(Legality):
    """Starting, ending and advancing player-turns."""

    def _maybe_reveal(
        self, state: GameState, events: list[Event], *, order: list[str] | None = None
    ) -> None:
        """Once every seat has picked, reveal altitudes, deal, flip the coin (4.5-4.7)."""
        if any(e.pick is None for e in state.elements.values()):
            return
        rs = Ruleset(state.ruleset)
        for e in state.elements.values():
            e.altitude, e.pick = e.pick, None
        events.append(
            Event(
                "reveal",
                "Altitudes revealed: "
                + ", ".join(
                    f"{self._el_label(state, e)} {Altitude(e.altitude or 0).label}"
                    for e in state.elements.values()
                )
                + ".",
            )
        )
        for e in state.elements.values():
            # 4.6: deal each hand; a hand fixed by the setup (examples, tests) is kept.
            if not e.hand:
                self._draw(state, e, self._leader_ratings(e).hand_size, e.hand, events)
        rng = Rng(state.rng)
        if state.first_side is None:
            state.first_side = Side.AXIS.value if rng.coin() else Side.ALLIED.value
        state.rng = rng.state
        first = Side(state.first_side)
        events.append(
            Event("initiative", f"Coin flip: the {first.label(rs)} side goes first (4.7).")
        )
        if order is None:
            by_side = {
                s: sorted(e.seat for e in state.elements.values() if e.side == s.value)
                for s in Side
            }
            order = []
            turn = first
            while by_side[Side.AXIS] or by_side[Side.ALLIED]:
                if by_side[turn]:
                    order.append(by_side[turn].pop(0))
                turn = turn.other
        state.order = order
        events.append(
            Event(
                "order",
                "Player order: "
                + ", ".join(self._el_label(state, state.elements[s]) for s in order)
                + ".",
            )
        )
        state.turn, state.index = 1, 0
        self._start_turn(state, events)

    def _end_turn(self, s: GameState, ev: list[Event]) -> None:
        self._discard(s, s.in_play)
        s.in_play = []
        self._discard_defences(s, s.elements[s.order[s.index]], ev)
        self._next_player(s, ev)

    def _next_player(self, s: GameState, ev: list[Event]) -> None:
        """Pass to the next element still in the fight, in the turn-1 order (3.0, 4.7).

        The game ends after the sixth game turn (4.8) unless fought to the death, or as
        soon as one side has no aircraft left in the fight (4.91). ``turn`` stays on
        the last game turn played.
        """
        while True:
            if self._side_out(s):
                s.step = "over"
                return
            s.index += 1
            if s.index >= len(s.order):
                if s.max_turns is not None and s.turn >= s.max_turns:
                    s.step = "over"
                    return
                s.index = 0
                s.turn += 1
                ev.append(Event("turn", f"Game turn {s.turn} begins."))
            if s.elements[s.order[s.index]].in_fight:
                break
        self._start_turn(s, ev)

    def _start_turn(self, s: GameState, ev: list[Event]) -> None:
        if self._side_out(s):
            s.step = "over"
            return
        if not s.elements[s.order[s.index]].in_fight:
            self._next_player(s, ev)
            return
        s.t = TurnState()
        e = s.elements[s.order[s.index]]
        ev.append(
            Event(
                "player_turn",
                f"Turn {s.turn}: {self._el_label(s, e)} to play.",
                data={"seat": e.seat},
            )
        )
        s.step = "wingman"
        first = s.turn == 1 and s.index == 0  # 3.1: the first player skips it on turn 1
        p = Pending(e.seat, "wingman")
        if (
            first
            or e.wingman is None
            or not e.wingman.flying
            or not any(
                self._refusal(s, p, Action.wingman(r)) is None for r in self._enemy_refs(s, e)
            )
        ):
            s.step = "altitude"

    def _check_end(self, s: GameState, ev: list[Event]) -> None:
        if (
            s.step != "over"
            and s.step != "setup"
            and s.exchange is None
            and s.follow is None
            and self._side_out(s)
        ):
            s.step = "over"
        if s.step == "over" and s.result is None:
            self._discard(s, s.in_play)
            s.in_play = []
            vp = self.victory_points(s)
            winner, verdict = tables.victory_verdict(
                Ruleset(s.ruleset), vp[Side.AXIS], vp[Side.ALLIED], s.aircraft_at_start
            )
            s.result = {
                "vp": {k.value: v for k, v in vp.items()},
                "winner": winner,
                "verdict": verdict,
            }
            rs = Ruleset(s.ruleset)
            ev.append(
                Event(
                    "result",
                    f"Game over: {verdict}. VP {Side.AXIS.label(rs)} {vp[Side.AXIS]}, "
                    f"{Side.ALLIED.label(rs)} {vp[Side.ALLIED]}.",
                    data=dict(s.result),
                )
            )
