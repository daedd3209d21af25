"""Eagles in the Sky on the game-system contract (:mod:`engine.core.contract`).

:class:`EaglesSystem` is what the registry hands the generic layers: the rules of
:class:`~engine.eagles.game.EaglesEngine` plus what the contract adds around them
(the lobby's options and picks: :mod:`engine.eagles.lobby`; notation, the public form
of an action, what cannot be undone, the state's JSON), what hosting games for people
needs (:class:`~engine.core.contract.HostedSystem`: the aircraft catalogue, the
largest engagement, the turn, forced passes, computer players, standing orders) and
its presenter (:mod:`engine.eagles.ui`).

Sides are ``allied`` and ``german``; seats ``A1``, ``A2``... and ``G1``...: several
seats of a side share its Flight and its one hand (§7), and each of its decisions is
pending for all of them (``Scope.SIDE``). A solitaire scenario's German side has no
seat: the rules play it (§17.0).
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
    Decision,
    HostedSystem,
    Outcome,
    RulesetInfo,
    SeatPick,
    SideInfo,
    Timing,
)
from engine.core.errors import EngineError
from engine.core.events import Event
from engine.core.hosting import UndoReason, undo_reason
from engine.core.packs import Pack
from engine.core.present import Presenter
from engine.eagles.actions import Action
from engine.eagles.components import EngagementType, ScenarioRule, Side
from engine.eagles.game import EaglesEngine, default_engine
from engine.eagles.loader import CONTENT_KINDS, components_with
from engine.eagles.lobby import (
    CUP,
    MAX_SCOUTS,
    SIDES,
    EaglesOptions,
    EaglesPick,
    build_setup,
    make_pick,
    options_model,
)
from engine.eagles.orders import Order, expired, order_action
from engine.eagles.sampler import sample_state
from engine.eagles.setup import EaglesSetup
from engine.eagles.state import GameState
from engine.eagles.ui import EaglesPresenter
from engine.eagles.view import EaglesView
from strings import Term

__all__ = ["CONTENT_KINDS", "MAX_SEATS", "EaglesSystem", "system", "system_with"]

MAX_SEATS = 8
"""The most seats a lobby takes: the Flights are six Scouts a side at most (§3.53), and
more than four players a side would mostly watch."""
_UNDO: dict[UndoReason, str] = {
    "revealed": "eagles.undo.revealed",
    "random": "eagles.undo.random",
    "drawn": "eagles.undo.drawn",
    "hidden": "eagles.undo.hidden",
}
_PASSIVE = frozenset({"pass", "stay"})


def side_name(side: str) -> Term:
    return Term(f"eagles.ui.side.{side}")


def side_phrase(side: str) -> Term:
    """The side inside a sentence: "the Allies" (:attr:`SideInfo.phrase`)."""
    return Term(f"eagles.ui.side_phrase.{side}")


class EaglesSystem:
    """The ``eagles`` system: Eagles in the Sky."""

    id: str = "eagles"
    name: str = "Eagles in the Sky"
    rulesets: tuple[RulesetInfo, ...] = (RulesetInfo("eagles", "Eagles in the Sky"),)
    setup_model: type[BaseModel] = EaglesSetup
    options_model: type[BaseModel] = EaglesOptions
    pick_model: type[BaseModel] = EaglesPick
    standing_orders: tuple[str, ...] = tuple(o.value for o in Order)

    def __init__(self, engine: EaglesEngine) -> None:
        self.engine = engine
        self.components = engine.components
        self.options_model = options_model(engine.components.scenarios)
        self._presenter = EaglesPresenter(engine)

    # --- the lobby ----------------------------------------------------------------
    def solitaire(self, options: EaglesOptions) -> bool:
        """A scenario whose German side the rules play (§17.0, Scenario 1)."""
        if options.scenario is None:
            return False
        return ScenarioRule.SOLITAIRE in self.components.scenarios[options.scenario].rules

    def lobby_sides(self, options: EaglesOptions) -> tuple[SideInfo, ...]:
        """The Allies and the Germans; only the Allies in a solitaire scenario."""
        sides = ("allied",) if self.solitaire(options) else SIDES
        return tuple(SideInfo(s, side_name(s), phrase=side_phrase(s)) for s in sides)

    def seat_name(self, side: str, number: int) -> str:
        return f"{'A' if side == 'allied' else 'G'}{number}"

    def _scenario_types(self, options: EaglesOptions, side: str) -> list[str]:
        assert options.scenario is not None
        force = self.components.scenarios[options.scenario].force(Side(side))
        return list(dict.fromkeys(a.aircraft for a in force.aircraft))

    def aircraft_choices(self, options: EaglesOptions, side: str | None) -> list[AircraftChoice]:
        """A scenario's aircraft of the side; with the cup, the cup; else every Scout
        of the side in service that month (within the points total), by name."""
        if options.scenario is not None:
            sides = [side] if side else list(SIDES)
            out = [self._choice(a) for sd in sides for a in self._scenario_types(options, sd)]
            sc = self.components.scenarios[options.scenario]
            if any(sc.force(Side(sd)).drawn_from_cup for sd in sides):
                out.append(self._cup_choice())  # Scenario 7: the aircraft is drawn
            return out
        if options.method == "cup":
            return [self._cup_choice()]
        out = []
        for ac in sorted(self.engine.aircraft.values(), key=lambda a: (a.side.value, a.name)):
            if self.aircraft_refusal(options, side, ac.id) is None:
                out.append(self._choice(ac.id))
        return out

    def _choice(self, aircraft: str) -> AircraftChoice:
        ac = self.engine.aircraft[aircraft]
        return AircraftChoice(
            ac.id,
            f"{ac.name} ({ac.points} pts)",
            ac.side.value,
            f"{ac.in_service_from} – {ac.in_service_to}",
        )

    def _cup_choice(self) -> AircraftChoice:
        return AircraftChoice(CUP, Term("eagles.ui.lobby.cup_choice"), None, None)

    def pick_refusal(self, options: EaglesOptions, side: str, pick: EaglesPick) -> str | None:
        """Why a seat of ``side`` may not take ``pick``: a solitaire scenario's
        Germans, an aircraft of the other side or out of service, not a Scout (§3.51),
        more than six Scouts (§3.53), over the points total; a leader of the other side,
        out of service, or named in a scenario (it names its own)."""
        if side not in {s.id for s in self.lobby_sides(options)}:
            return Term("eagles.ui.pick.solitaire")
        if options.scenario is not None:
            allowed = self._scenario_types(options, side)
            if any(a not in allowed for a in pick.aircraft):
                return Term("eagles.ui.pick.not_in_scenario", n=options.scenario)
            if pick.leader is not None:
                return Term("eagles.ui.pick.scenario_leader", n=options.scenario)
            return None
        if options.method == "cup" and pick.aircraft:
            return Term("eagles.ui.pick.cup_only")
        if options.method != "cup" and not pick.aircraft:
            return Term("eagles.ui.pick.choose")
        for a in pick.aircraft:
            why = self.aircraft_refusal(options, side, a)
            if why is not None:
                return why
        if len(pick.aircraft) > MAX_SCOUTS:
            return Term("eagles.ui.pick.too_many", n=len(pick.aircraft), max=MAX_SCOUTS)
        if options.points is not None and options.method == "points":
            total = sum(self.engine.aircraft[a].points for a in pick.aircraft)
            if total > options.points:
                return Term("eagles.ui.pick.over_points", points=total, limit=options.points)
        if pick.leader is not None:
            lead = self.engine.leaders.get(pick.leader)
            if lead is None:
                return Term("eagles.ui.pick.unknown_leader", leader=repr(pick.leader))
            if lead.side.value != side:
                return Term("eagles.ui.pick.leader_side", leader=lead.name)
            if not lead.available(options.when):
                return Term("eagles.ui.pick.leader_month", leader=lead.name, month=options.month)
        if pick.mission is not None:
            return self._mission_refusal(options, side, pick.mission)
        if len(pick.pilots) > max(len(pick.aircraft) - (1 if pick.leader else 0), 0) and (
            pick.aircraft
        ):
            return Term("eagles.ui.pick.too_many_pilots", n=len(pick.pilots))
        return None

    def _mission_refusal(self, options: EaglesOptions, side: str, mission: str) -> str | None:
        """Only the attacker flies mission aircraft, of a type its Engagement lists, in
        service that month (§16.4)."""
        name = self.engine.aircraft[mission].name
        if options.drawn or options.engagement == "patrol":
            return Term("eagles.ui.pick.no_mission")
        attacker = options.attacker or "allied"
        spec = self.engine.tables.engagement(EngagementType(options.engagement))
        listed = spec.mission(Side(side)) if side == attacker else None
        if listed is None:
            return Term("eagles.ui.pick.not_attacker")
        if mission not in listed.choices:
            choices = ", ".join(self.engine.aircraft[a].name for a in listed.choices)
            return Term("eagles.ui.pick.mission_type", aircraft=name, choices=choices)
        if not self.engine.aircraft[mission].available(options.when):
            return Term("eagles.ui.pick.out_of_service", aircraft=name, month=options.month)
        return None

    def start_problems(self, options: EaglesOptions, seats: Sequence[SeatPick]) -> list[str]:
        """A side without a seat (a solitaire scenario needs only the Allies), more than
        six Scouts a side (§3.53), a side over the points total (§3.51), two leaders on
        one side (§3.6), too many seats."""
        problems: list[str] = []
        if len(seats) > MAX_SEATS:
            problems.append(Term("eagles.ui.lobby.too_many", n=len(seats), max=MAX_SEATS))
        for info in self.lobby_sides(options):
            mine = [_pick(s.pick) for s in seats if s.side == info.id]
            if not mine:
                problems.append(Term("eagles.ui.lobby.empty_side", side=info.name))
                continue
            if options.scenario is not None:
                continue
            n = sum(len(p.aircraft) for p in mine)
            if n > MAX_SCOUTS:
                problems.append(
                    Term("eagles.ui.lobby.side_scouts", side=info.name, n=n, max=MAX_SCOUTS)
                )
            if options.method == "points" and options.points is not None:
                total = sum(self.engine.aircraft[a].points for p in mine for a in p.aircraft)
                if total > options.points:
                    problems.append(
                        Term(
                            "eagles.ui.lobby.side_over_points",
                            side=info.name,
                            points=total,
                            limit=options.points,
                        )
                    )
            if sum(1 for p in mine if p.leader) > 1:
                problems.append(Term("eagles.ui.lobby.two_leaders", side=info.name))
        for s in seats:
            if s.side not in {i.id for i in self.lobby_sides(options)}:
                problems.append(Term("eagles.ui.pick.solitaire"))
        return problems

    def setup_from_lobby(self, options: EaglesOptions, seats: Sequence[SeatPick]) -> EaglesSetup:
        return build_setup(
            self.components, options, [(s.seat, s.side, _pick(s.pick)) for s in seats]
        )

    # --- a game -------------------------------------------------------------------
    def new_game(self, setup: EaglesSetup, seed: int) -> tuple[GameState, list[Event]]:
        return self.engine.new_game(setup, seed)

    def sides(self, state: GameState) -> tuple[SideInfo, ...]:
        return tuple(
            SideInfo(
                side, side_name(side), tuple(state.seats.get(side, ())), phrase=side_phrase(side)
            )
            for side in SIDES
        )

    def pending(self, state: GameState) -> list[Decision]:
        return self.engine.pending(state)

    def legal_actions(self, state: GameState, seat: str) -> list[Action]:
        return self.engine.legal_actions(state, seat)

    def apply(self, state: GameState, seat: str, action: Action) -> tuple[GameState, list[Event]]:
        return self.engine.apply(state, seat, action)

    def default_action(self, state: GameState, seat: str) -> Action:
        return self.engine.default_action(state, seat)

    def view(self, state: GameState, seat: str | None) -> EaglesView:
        return self.engine.view(state, seat)

    def sample_state(self, state: GameState, seat: str, rng: random.Random) -> GameState:
        """The contract's :class:`~engine.core.contract.Sampling`
        (:mod:`engine.eagles.sampler`)."""
        return sample_state(self.engine, state, seat, rng)

    def is_over(self, state: GameState) -> bool:
        return self.engine.is_over(state)

    def outcome(self, state: GameState) -> Outcome:
        return self.engine.outcome(state)

    # --- hosting games: the lobby ---------------------------------------------------
    def aircraft_catalogue(self) -> list[AircraftChoice]:
        """Every aircraft counter, and the cup (§3.52)."""
        out = [
            self._choice(ac.id)
            for ac in sorted(self.engine.aircraft.values(), key=lambda a: (a.side.value, a.name))
        ]
        return [*out, self._cup_choice()]

    def aircraft_refusal(
        self, options: EaglesOptions, side: str | None, aircraft: str
    ) -> str | None:
        """Unknown; the cup where the Flights are chosen (or an aircraft where they are
        drawn); not in a scenario's forces; of the other side; not a Scout (§3.51); not
        in service that month (the Availability Chart); dearer than the points total."""
        if aircraft == CUP:
            if options.scenario is None and options.method == "cup":
                return None
            if options.scenario is not None:
                sc = self.components.scenarios[options.scenario]
                sides = [side] if side else list(SIDES)
                if any(sc.force(Side(sd)).drawn_from_cup for sd in sides):
                    return None  # Scenario 7: the side's aircraft is drawn
            return Term("eagles.ui.pick.choose")
        ac = self.engine.aircraft.get(aircraft)
        if ac is None:
            return Term("eagles.ui.pick.unknown_aircraft", aircraft=repr(aircraft))
        if options.scenario is not None:
            sides = [side] if side else list(SIDES)
            if not any(aircraft in self._scenario_types(options, sd) for sd in sides):
                return Term("eagles.ui.pick.not_in_scenario", n=options.scenario)
            return None
        if options.method == "cup":
            return Term("eagles.ui.pick.cup_only")
        if side is not None and ac.side.value != side:
            return Term("eagles.ui.pick.other_side", aircraft=ac.name, side=side_name(side))
        if not ac.scout:
            return Term("eagles.ui.pick.not_scout", aircraft=ac.name)
        if not ac.available(options.when):
            return Term(
                "eagles.ui.pick.month",
                aircraft=ac.name,
                first=str(ac.in_service_from),
                last=str(ac.in_service_to),
                month=options.month,
            )
        if options.method == "points" and options.points is not None and ac.points > options.points:
            return Term("eagles.ui.pick.over_points", points=ac.points, limit=options.points)
        return None

    def make_pick(self, aircraft: str, fields: Mapping[str, Any]) -> EaglesPick:
        """The aircraft (``cup``: none), the ``more`` aircraft typed (``camel x2,
        se5a``) and the ``leader`` named, as a pick. Raises pydantic's ValidationError."""
        return make_pick(self.engine.aircraft, self.engine.leaders, aircraft, fields)

    def room_refusal(self, options: EaglesOptions, seats: Sequence[SeatPick]) -> str | None:
        if len(seats) >= MAX_SEATS:
            return Term("eagles.ui.lobby.no_room", max=MAX_SEATS)
        return None

    # --- hosting games: the flow ----------------------------------------------------
    def turn_of(self, state: GameState) -> str | None:
        """The first seat of the side whose turn it is: a picture after each change
        of the turn (§4.3: the sides alternate activations); None in the Card Draw
        Phase and once the game is over."""
        if state.phase != "activation":
            return None
        seats = state.seats.get(state.to_act) or []
        return seats[0] if seats else None

    def picks_hidden(self, state: GameState) -> bool:
        """The Card Draw Phase's discards are being chosen, secretly (§7.2)."""
        return state.phase == "discard"

    def forced_action(self, state: GameState, seat: str) -> Action | None:
        """A seat answering with nothing but the passive answer: no Response card
        shows the symbol (only ``pass``, ``pass hold``), or only ``stay``."""
        mine = [d for d in self.engine.pending(state) if d.seat == seat]
        if not mine or mine[0].timing is not Timing.RESPONSE:
            return None
        legal = self.engine.legal_actions(state, seat)
        if any(a.verb not in _PASSIVE for a in legal):
            return None
        return next((a for a in legal if str(a) in _PASSIVE), None)

    def computer_player(self, seed: int, level: str = DEFAULT_COMPUTER_LEVEL) -> SeatPlayer:
        """A computer player of ``level`` (:mod:`engine.ai`)."""
        return ai.seat_player(self, level, seed)

    def order_label(self, order: str) -> str:
        return Order(order).label

    def order_action(self, state: GameState, seat: str, orders: Sequence[str]) -> Action | None:
        return order_action(self.engine, state, seat, orders)

    def order_expired(self, order: str, state: GameState, seat: str) -> bool:
        return expired(order, state, seat)

    def presenter(self) -> EaglesPresenter:
        return self._presenter

    # --- notation -----------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return Action.from_text(text)

    def public_text(self, text: str, *, secret_picks: bool) -> str:
        """The Card Draw Phase's discards show only how many (§7.2: the narration
        counts them, never names them)."""
        try:
            a = Action.from_text(text)
        except EngineError:
            return text
        if a.verb == "discard" and a.cards:
            return f"discard ?×{len(a.cards)}"
        return text

    def undo_refusal(
        self, before: GameState, after: GameState, events: Sequence[Event]
    ) -> str | None:
        """Never let anyone see a card again or draw again: refused if the action
        revealed the discards (the Card Draw Phase ended), used the game's randomness,
        drew a card (a fire, an Escape, a Random Event, the hands) or showed anyone a
        private line. A card played that resolves without a draw may be taken back."""
        reason = undo_reason(
            revealed=before.phase == "discard" and after.phase != "discard",
            randomness=after.rng != before.rng,
            drew=after.deck != before.deck,
            events=events,
        )
        return Term(_UNDO[reason]) if reason is not None else None

    # --- storage ------------------------------------------------------------------
    def dump_state(self, state: GameState) -> dict[str, Any]:
        return state.dump()

    def load_state(self, data: Mapping[str, Any]) -> GameState:
        return GameState.load(dict(data))

    def replay(self, setup: EaglesSetup, seed: int, log: Iterable[tuple[str, str]]) -> GameState:
        return self.engine.replay(setup, seed, log)


def _pick(pick: Any) -> EaglesPick:
    return pick if isinstance(pick, EaglesPick) else EaglesPick.model_validate(pick)


def _conforms(s: EaglesSystem) -> tuple[HostedSystem[GameState, Action, EaglesView], Presenter]:
    """For the type checker: the system is a hosted system, its presenter a presenter."""
    hosted: HostedSystem[GameState, Action, EaglesView] = s
    presenter: Presenter = s.presenter()
    return hosted, presenter


@functools.cache
def system() -> EaglesSystem:
    """The system over the shipped components (the registry's factory)."""
    return EaglesSystem(default_engine())


def system_with(packs: Sequence[Pack]) -> EaglesSystem:
    """The system over the shipped components and these content packs, in order
    (:func:`engine.core.registry.with_content`). Raises ``DataError``."""
    return EaglesSystem(EaglesEngine(components_with(packs)))
