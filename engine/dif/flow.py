"""The flow of a game: the reveal and deal (4.5-4.7), player-turns in a fixed order,
six game turns or to the death (4.8), and the end of the game (4.9).
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.rng import Rng
from engine.dif import tables
from engine.dif.base import Pending
from engine.dif.components import (
    Altitude,
    Ruleset,
    Side,
)
from engine.dif.legality import Legality
from engine.dif.state import Element, GameState, TurnState
from engine.dif.texts import fixed, join
from strings import LazyTerm, Term

__all__ = ["Flow"]


class Flow(Legality):
    """Starting, ending and advancing player-turns."""

    def _maybe_reveal(
        self, state: GameState, events: list[Event], *, order: list[str] | None = None
    ) -> None:
        """Once every seat has picked, reveal altitudes, deal, flip the coin (4.5-4.7)."""
        if any(e.pick is None for e in state.elements.values()):
            return
        for seat in list(state.elements):
            e = state.own_element(seat)
            e.altitude, e.pick = e.pick, None
        altitudes = join(
            [
                Term(
                    "dif.event.revealed_one",
                    element=self._el_label(state, e),
                    altitude=Altitude(e.altitude or 0).label,
                )
                for e in state.elements.values()
            ]
        )
        events.append(Event("reveal", LazyTerm("dif.event.revealed", altitudes=altitudes)))
        for e in state.elements.values():
            # 4.6: deal each hand; a hand fixed by the setup (examples, tests) is kept.
            if not e.hand:
                self._draw(state, e, self._leader_ratings(e).hand_size, e.hand, events, "deal")
        if any(e.cv for e in state.elements.values()):
            # RotL "Pilots" (CV): after the first hand and before play starts.
            state.step = "redraw"
            state.pending_order = order
            return
        self._begin_play(state, events, order=order)

    def _begin_play(
        self, state: GameState, events: list[Event], *, order: list[str] | None = None
    ) -> None:
        """Flip for the first side (4.7) and start game turn 1."""
        if order is None:
            order = state.pending_order
        state.pending_order = None
        rs = Ruleset(state.ruleset)
        rng = Rng(state.rng)
        if state.first_side is None:
            state.first_side = Side.AXIS.value if rng.coin() else Side.ALLIED.value
        state.rng = rng.state
        first = Side(state.first_side)
        events.append(Event("initiative", LazyTerm("dif.event.initiative", side=first.phrase(rs))))
        state.order = list(order) if order is not None else []
        if order is not None:
            names = ", ".join(self._el_label(state, state.elements[s]) for s in order)
            events.append(Event("order", LazyTerm("dif.event.player_order", elements=names)))
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
                if len(s.order) < len(s.elements):
                    break  # turn 1: the next element is still to be chosen (4.7)
                if not self._game_turn_ends(s, ev):
                    return
                if s.max_turns is not None and s.turn >= s.max_turns:
                    s.step = "over"
                    return
                s.index = 0
                s.turn += 1
                ev.append(Event("turn", LazyTerm("dif.event.game_turn", turn=s.turn)))
            if s.index < len(s.order) and s.elements[s.order[s.index]].in_fight:
                break  # no element at all (a raid by bombers alone): the turns pass
        self._start_turn(s, ev)

    def order_choice(self, s: GameState) -> tuple[Side, list[str]]:
        """Turn 1: which side names the element that plays next, and its choices (4.7).

        The coin-flip winner names the first element; then the sides alternate, a
        side with no element left to name letting the other go on. Elements already
        out of the fight are not offered.
        """
        ordered = set(s.order)
        left = {side: self._to_order(s, side.value, ordered) for side in Side}
        assert s.first_side is not None
        side = Side(s.first_side) if not s.order else Side(s.elements[s.order[-1]].side).other
        if not left[side]:
            side = side.other
        return side, left[side]

    def _to_order(self, s: GameState, side: str, ordered: set[str]) -> list[str]:
        """The elements of ``side`` (its value) still in the fight and not yet ordered."""
        return [
            e.seat
            for e in s.elements.values()
            if e.side == side and e.seat not in ordered and e.in_fight
        ]

    def _choose_next(self, s: GameState, ev: list[Event]) -> bool:
        """Fill the next place in the turn-1 order; False while a side must choose."""
        _, seats = self.order_choice(s)
        if len(seats) > 1:
            s.step = "order"
            return False
        if seats:
            self._append_order(s, seats[0], ev, chosen=False)
        else:  # only elements already out of the fight are left: they never play
            s.order.extend(e for e in s.elements if e not in s.order)
        return True

    def _append_order(self, s: GameState, seat: str, ev: list[Event], *, chosen: bool) -> None:
        s.order.append(seat)
        rs = Ruleset(s.ruleset)
        e = s.elements[seat]
        place = len(s.order)
        fields = {
            "side": Side(e.side).phrase(rs),
            "element": self._el_label(s, e),
            "place": _ordinal(place),
        }
        text = (
            LazyTerm("dif.event.order_chosen", **fields)
            if chosen
            else LazyTerm("dif.event.order_given", **fields)
        )
        ev.append(Event("order", text, data={"seat": seat, "place": place}))

    def _start_turn(self, s: GameState, ev: list[Event]) -> None:
        if self._side_out(s):
            s.step = "over"
            return
        if s.index >= len(s.order):
            if not self._choose_next(s, ev):
                return
            if s.index >= len(s.order):
                self._next_player(s, ev)
                return
        if not s.elements[s.order[s.index]].in_fight:
            self._next_player(s, ev)
            return
        e = s.elements[s.order[s.index]]
        held = [o for o in self._enemy_seats(s, e) if self.pos(s, e.seat, o) > 0]
        s.t = TurnState(start_alt=e.altitude, held=held)
        ev.append(
            Event(
                "player_turn",
                LazyTerm("dif.event.player_turn", turn=s.turn, element=self._el_label(s, e)),
                data={"seat": e.seat},
            )
        )
        self._to_wingman_step(s, e)

    def _game_turn_ends(self, s: GameState, ev: list[Event]) -> bool:
        """Every element has played this game turn: what happens before the next one
        (a mission's Discretionary Fire, §22.1). False: the next game turn waits on a
        decision (or the game is over)."""
        return True

    def _to_wingman_step(self, s: GameState, e: Element) -> None:
        """The Wingman Attack step, or straight to Adjust Altitude when the wingman
        cannot attack anyone (3.1)."""
        s.step = "wingman"
        first = s.turn == 1 and s.index == 0  # 3.1: the first player skips it on turn 1
        p = Pending(e.seat, "wingman")
        if first or e.wingman is None or not e.wingman.flying:
            s.step = "altitude"
            return
        legal = self._legal_of(s, p)
        if not any(a.verb == "wm" for a in legal):
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
                    LazyTerm(
                        "dif.event.result",
                        verdict=verdict,
                        axis=Side.AXIS.label(rs),
                        axis_vp=vp[Side.AXIS],
                        allied=Side.ALLIED.label(rs),
                        allied_vp=vp[Side.ALLIED],
                    ),
                    data=dict(s.result),
                )
            )


def _ordinal(n: int) -> Term:
    """A place in the turn-1 order, in words (``first``... ``4th``)."""
    if n == 1:
        return fixed("dif.ordinal.first")
    if n == 2:
        return fixed("dif.ordinal.second")
    if n == 3:
        return fixed("dif.ordinal.third")
    return Term("dif.ordinal.nth", n=n)
