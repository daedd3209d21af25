"""Down in Flames on the game-system contract (:mod:`engine.core.contract`).

:class:`DifSystem` is what the registry hands the generic layers: the rules of
:class:`~engine.dif.game.DifEngine` plus what the contract adds around them (the lobby's
options and picks, typed decisions and outcome, notation, the public form of an
action, what cannot be undone, the state's JSON), what hosting games for people needs
(:class:`~engine.core.contract.HostedSystem`: the aircraft catalogue, the turn, computer
players, standing orders) and its presenter (:mod:`engine.dif.ui`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from engine import ai
from engine.ai.base import SeatPlayer
from engine.core.contract import (
    DEFAULT_COMPUTER_LEVEL,
    AircraftChoice,
    AircraftFate,
    Decision,
    Fate,
    HostedSystem,
    Outcome,
    RulesetInfo,
    SeatPick,
    SideInfo,
)
from engine.core.errors import EngineError
from engine.core.events import Event
from engine.core.hosting import UndoReason, undo_reason
from engine.core.packs import Pack
from engine.core.present import Presenter
from engine.dif.actions import Action
from engine.dif.components import Ruleset, Side
from engine.dif.fates import origin_refs
from engine.dif.game import DifEngine, default_engine
from engine.dif.loader import CONTENT_KINDS, aircraft_with, load_decks
from engine.dif.orders import Order, expired, order_action
from engine.dif.picks import DifOptions, DifPick
from engine.dif.present import _verdict
from engine.dif.sampler import sample_state
from engine.dif.setup import MAX_AIRCRAFT, DifSetup, ElementSetup
from engine.dif.state import GameState
from engine.dif.texts import fixed
from engine.dif.ui import DifPresenter
from engine.dif.view import DifView
from strings import Term

__all__ = [
    "CONTENT_KINDS",
    "SEAT_PREFIX",
    "DifOptions",
    "DifPick",
    "DifSystem",
    "system",
    "system_with",
]

_UNDO: dict[UndoReason, str] = {
    "revealed": "dif.undo.revealed",
    "random": "dif.undo.random",
    "drawn": "dif.undo.drawn",
    "hidden": "dif.undo.hidden",
}
"""The catalogue keys of why an action cannot be taken back (:func:`undo_reason`)."""

SEAT_PREFIX = {Side.ALLIED: "A", Side.AXIS: "X"}
"""Seats are named by side and number: Allied A1..An, Axis X1..Xn."""


class DifSystem:
    """The ``dif`` system: Zero! and Rise of the Luftwaffe."""

    id = "dif"
    name = "Down in Flames"
    rulesets: tuple[RulesetInfo, ...] = (
        RulesetInfo(Ruleset.ZERO.value, "Zero!"),
        RulesetInfo(Ruleset.ROTL.value, "Rise of the Luftwaffe"),
    )
    setup_model: type[BaseModel] = DifSetup
    options_model: type[BaseModel] = DifOptions
    pick_model: type[BaseModel] = DifPick

    standing_orders: tuple[str, ...] = tuple(o.value for o in Order)

    def __init__(self, engine: DifEngine) -> None:
        self.engine = engine
        self._presenter = DifPresenter(engine)

    # --- the lobby ----------------------------------------------------------------
    def lobby_sides(self, options: DifOptions) -> tuple[SideInfo, ...]:
        return tuple(
            SideInfo(
                side.value,
                side.label(options.ruleset),
                phrase=side.phrase(options.ruleset),
            )
            for side in (Side.ALLIED, Side.AXIS)
        )

    def seat_name(self, side: str, number: int) -> str:
        return f"{SEAT_PREFIX[Side(side)]}{number}"

    def aircraft_choices(self, options: DifOptions, side: str | None) -> list[AircraftChoice]:
        wanted = Side(side) if side is not None else None
        out = []
        for ac in sorted(self.engine.aircraft.values(), key=lambda a: (a.side, a.name)):
            why = self.engine.aircraft_refusal(
                options.ruleset, options.year, ac.id, wanted, mixed=options.mixed
            )
            if why is None:
                out.append(self._choice(ac.id))
        return out

    def _choice(self, aircraft: str) -> AircraftChoice:
        ac = self.engine.aircraft[aircraft]
        return AircraftChoice(ac.id, ac.name, ac.side.value, f"{ac.nation}, {ac.year}")

    def aircraft_catalogue(self) -> list[AircraftChoice]:
        return [self._choice(a) for a in self.engine.aircraft]

    def aircraft_refusal(self, options: DifOptions, side: str | None, aircraft: str) -> str | None:
        wanted = Side(side) if side is not None else None
        return self.engine.aircraft_refusal(
            options.ruleset, options.year, aircraft, wanted, mixed=options.mixed
        )

    def make_pick(self, aircraft: str, fields: Mapping[str, Any]) -> DifPick:
        """Leader and wingman unless told otherwise (13.3: an aircraft without a wingman
        card flies alone); the leader's pilot skills as typed (``A,BU``)."""
        wingman = fields.get("wingman")
        if wingman is None:
            wingman = self.engine.aircraft[aircraft].wingman is not None
        return DifPick(aircraft=aircraft, wingman=wingman, pilot=fields.get("pilot") or "")

    def room_refusal(self, options: DifOptions, seats: Sequence[SeatPick]) -> str | None:
        """No room for another element once the largest dogfight RotL's victory table
        reads (MAX_AIRCRAFT) is flown."""
        count = sum(2 if getattr(s.pick, "wingman", True) else 1 for s in seats)
        return Term("dif.ui.lobby.no_room", max=MAX_AIRCRAFT) if count >= MAX_AIRCRAFT else None

    def pick_refusal(self, options: DifOptions, side: str, pick: DifPick) -> str | None:
        e = ElementSetup(seat="A1", side=Side(side), **pick.model_dump())
        return self.engine.element_refusal(options.ruleset, options.year, e, mixed=options.mixed)

    def start_problems(self, options: DifOptions, seats: Sequence[SeatPick]) -> list[str]:
        problems: list[str] = []
        for side in (Side.ALLIED, Side.AXIS):
            if not any(s.side == side.value for s in seats):
                label = side.phrase(options.ruleset)
                problems.append(Term("dif.ui.lobby.problem.side", side=label))
        count = sum(2 if getattr(s.pick, "wingman", True) else 1 for s in seats)
        if count > MAX_AIRCRAFT:
            problems.append(Term("dif.setup.too_many", n=count, max=MAX_AIRCRAFT))
        for s in seats:  # an option changed since the seat was taken (mixed turned off)
            e = ElementSetup(seat=s.seat, side=Side(s.side), **s.pick.model_dump())
            why = self.engine.element_refusal(options.ruleset, options.year, e, mixed=options.mixed)
            if why is not None:
                problems.append(Term("dif.ui.lobby.problem.seat", seat=s.seat, why=why))
        return problems

    def setup_from_lobby(self, options: DifOptions, seats: Sequence[SeatPick]) -> DifSetup:
        return DifSetup(
            ruleset=options.ruleset,
            year=options.year,
            to_the_death=options.to_the_death,
            vp_bonus=options.vp_bonus,
            # Zero!'s choice, checked at the start (4.2, 5.0); RotL's setup dumps as before.
            mixed=options.mixed if options.ruleset is Ruleset.ZERO else None,
            elements=tuple(
                ElementSetup(seat=s.seat, side=Side(s.side), **s.pick.model_dump()) for s in seats
            ),
        )

    # --- a game -------------------------------------------------------------------
    def new_game(self, setup: DifSetup, seed: int) -> tuple[GameState, list[Event]]:
        return self.engine.new_game(setup, seed)

    def sides(self, state: GameState) -> tuple[SideInfo, ...]:
        rs = Ruleset(state.ruleset)
        return tuple(
            SideInfo(
                side.value,
                side.label(rs),
                tuple(e.seat for e in state.elements.values() if e.side == side.value),
                side.phrase(rs),
            )
            for side in (Side.ALLIED, Side.AXIS)
        )

    def pending(self, state: GameState) -> list[Decision]:
        return self.engine.pending(state)

    def legal_actions(self, state: GameState, seat: str) -> list[Action]:
        return self.engine.legal_actions(state, seat)

    def apply(self, state: GameState, seat: str, action: Action) -> tuple[GameState, list[Event]]:
        return self.engine.apply(state, seat, action)

    def default_action(self, state: GameState, seat: str) -> Action:
        return self.engine.default_action(state, seat)

    def view(self, state: GameState, seat: str | None) -> DifView:
        return self.engine.view(state, seat)

    def sample_state(self, state: GameState, seat: str, rng: random.Random) -> GameState:
        """The contract's :class:`~engine.core.contract.Sampling`
        (:mod:`engine.dif.sampler`)."""
        return sample_state(self.engine, state, seat, rng)

    def is_over(self, state: GameState) -> bool:
        return self.engine.is_over(state)

    def outcome(self, state: GameState) -> Outcome:
        """4.9 / RotL "Victory": the stored result once over; VP so far while running.
        Each aircraft (by the ref it started with: a promoted wingman stays ``A1W``)
        with its fate read from its card (destroyed, evaded, damaged) and who caused it,
        on which turn, and its hits taken and given, from the game's bookkeeping
        (:mod:`engine.dif.fates`)."""
        f = state.fates or {}
        killer, damager, left = f.get("killer", {}), f.get("damager", {}), f.get("left", {})
        taken, given = f.get("taken", {}), f.get("given", {})
        out = []
        for e in state.elements.values():
            planes = origin_refs(e.seat, e.leader, e.wingman, e.lost)
            for ref, p in sorted(planes.items()):
                by: str | None = None
                turn: int | None = None
                if p.status == "destroyed":
                    fate = Fate.SHOT_DOWN
                    if ref in killer:
                        by, turn = killer[ref][0], killer[ref][1]
                elif p.status == "evaded":
                    fate = Fate.LEFT
                    turn = left.get(ref)
                elif p.damaged:
                    fate = Fate.DAMAGED
                    if ref in damager:
                        by, turn = damager[ref][0], damager[ref][1]
                else:
                    fate = Fate.UNHARMED
                out.append(
                    AircraftFate(
                        ref=ref,
                        seat=e.seat,
                        side=e.side,
                        aircraft=p.aircraft,
                        fate=fate,
                        by=by,
                        damaged=p.damaged,
                        hits_taken=int(taken.get(ref, 0)),
                        hits_given=int(given.get(ref, 0)),
                        turn=turn,
                        record=self.engine.mission_record(state, e.seat, ref)
                        if state.mission is not None
                        else {},
                    )
                )
        out.extend(self.engine.bomber_fates(state))
        fates = tuple(out)
        if state.result is not None:
            r = state.result
            return Outcome(
                over=True,
                winner=r.get("winner"),
                verdict=_verdict(state),
                vp=dict(r.get("vp", {})),
                fates=fates,
                rounds=state.turn,
            )
        vp = {k.value: v for k, v in self.engine.victory_points(state).items()}
        return Outcome(
            over=False,
            winner=None,
            verdict=fixed("dif.outcome.running"),
            vp=vp,
            fates=fates,
            rounds=state.turn,
        )

    # --- hosting games ----------------------------------------------------------------
    def turn_of(self, state: GameState) -> str | None:
        """The element whose player-turn it is."""
        return state.active

    def picks_hidden(self, state: GameState) -> bool:
        """The secret starting altitudes (4.5) are not revealed yet."""
        return state.step == "setup"

    def forced_action(self, state: GameState, seat: str) -> Action | None:
        """A defender who holds no legal response has only ``pass``."""
        if not any(p.seat == seat and p.kind == "respond" for p in self.engine.pending(state)):
            return None
        legal = self.engine.legal_actions(state, seat)
        return legal[0] if [str(a) for a in legal] == ["pass"] else None

    def computer_player(self, seed: int, level: str = DEFAULT_COMPUTER_LEVEL) -> SeatPlayer:
        """A computer player of ``level`` (:mod:`engine.ai`)."""
        return ai.seat_player(self, level, seed)

    def order_label(self, order: str) -> str:
        return Order(order).label

    def order_action(self, state: GameState, seat: str, orders: Sequence[str]) -> Action | None:
        return order_action(self.engine, state, seat, [Order(o) for o in orders])

    def order_expired(self, order: str, state: GameState, seat: str) -> bool:
        return expired(Order(order), self.engine, state, seat)

    def presenter(self) -> DifPresenter:
        return self._presenter

    # --- notation -----------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return Action.from_text(text)

    def public_text(self, text: str, *, secret_picks: bool) -> str:
        """Masks what the narration does not tell: a secret altitude pick before every
        seat has picked (4.5), the cards a Combat Vision redraw throws away, the card a
        climbing Vertical Roll names (discarded only if the roll succeeds)."""
        try:
            a = Action.from_text(text)
        except EngineError:
            return text
        if a.verb == "alt" and secret_picks:
            return "alt ?"
        if a.verb == "redraw" and a.cards:
            return f"redraw ?×{len(a.cards)}"
        if a.verb == "play" and a.arg == "up" and a.cards:
            return "play VER up ?"
        return text

    def undo_refusal(
        self, before: GameState, after: GameState, events: Sequence[Event]
    ) -> str | None:
        """Taking back must never let anyone see a card again or roll again: refused if
        the action used the game's randomness (a shuffle, an evasion), drew cards,
        revealed the secret altitudes, or showed anyone a private line. A card played
        from the hand is no such secret: everyone saw it."""
        reason = undo_reason(
            revealed=before.step == "setup" and after.step != "setup",
            randomness=after.rng != before.rng,
            drew=after.deck != before.deck,
            events=events,
        )
        return fixed(_UNDO[reason]) if reason is not None else None

    # --- storage ------------------------------------------------------------------
    def dump_state(self, state: GameState) -> dict[str, Any]:
        return state.to_json()

    def load_state(self, data: Mapping[str, Any]) -> GameState:
        return GameState.from_json(dict(data))

    def replay(self, setup: DifSetup, seed: int, log: Iterable[tuple[str, str]]) -> GameState:
        return self.engine.replay(setup, seed, log)


@functools.cache
def system() -> DifSystem:
    """The system over the shipped components (the registry's factory)."""
    return DifSystem(default_engine())


def system_with(packs: Sequence[Pack]) -> DifSystem:
    """The system over the shipped components and these content packs, in order
    (:func:`engine.core.registry.with_content`). Raises ``DataError``."""
    return DifSystem(DifEngine(load_decks(), aircraft_with(packs)))


def _conforms(dif: DifSystem) -> HostedSystem[GameState, Action, DifView]:
    """Checked by mypy: Down in Flames implements the whole contract."""
    return dif


def _presents(presenter: DifPresenter) -> Presenter:
    """Checked by mypy: its presenter implements the presentation contract."""
    return presenter
