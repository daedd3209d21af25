"""Locked-On on the game-system contract (:mod:`engine.core.contract`).

:class:`LockedOnSystem` is what the registry hands the generic layers: the rules of
:class:`~engine.lockedon.game.LockedOnEngine` plus what the contract adds around them
(the lobby's options and picks, point balancing, typed decisions and outcome,
notation, the public form of an action, what cannot be undone, the state's JSON),
what hosting games for people needs (:class:`~engine.core.contract.HostedSystem`: the
aircraft catalogue, typed join extras, the largest dogfight, the turn, forced passes,
computer players, standing orders) and its presenter (:mod:`engine.lockedon.ui`).
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
    Timing,
)
from engine.core.errors import EngineError
from engine.core.events import Event
from engine.core.hosting import UndoReason, undo_reason
from engine.core.packs import Pack
from engine.core.present import Presenter
from engine.lockedon import balance
from engine.lockedon.actions import Action
from engine.lockedon.balance import side_values
from engine.lockedon.game import LockedOnEngine, default_engine
from engine.lockedon.loader import CONTENT_KINDS, components_with
from engine.lockedon.orders import Order, expired, order_action
from engine.lockedon.picks import make_pick
from engine.lockedon.sampler import sample_state
from engine.lockedon.setup import LockedOnOptions, LockedOnPick, LockedOnSetup, SeatSetup, side_ids
from engine.lockedon.state import GameState
from engine.lockedon.texts import fixed
from engine.lockedon.ui import LockedOnPresenter
from engine.lockedon.view import LockedOnView
from strings import Term

__all__ = [
    "CONTENT_KINDS",
    "MAX_AIRCRAFT",
    "LockedOnSystem",
    "side_values",
    "system",
    "system_with",
]

_UNDO: dict[UndoReason, str] = {
    "revealed": "lockedon.undo.revealed",
    "random": "lockedon.undo.random",
    "drawn": "lockedon.undo.drawn",
    "hidden": "lockedon.undo.hidden",
}
"""The catalogue keys of why an action cannot be taken back (:func:`undo_reason`)."""

MAX_AIRCRAFT = 8
"""The largest dogfight a lobby seats: the rules set no limit ("more than two players",
L389), the table picture is drawn and tested for eight aircraft (four a side, or eight
in a free-for-all: ``LockedOnOptions.sides`` is at most 8 too)."""
_PASSIVE = frozenset({"pass", "nofollow"})

_MASKED = ("discard", "trim", "follow", "timely", "climb")
"""Verbs whose cards are thrown away unseen: their public text shows only how many."""


class LockedOnSystem:
    """The ``lockedon`` system: Down in Flames: Locked-On."""

    id: str = "lockedon"
    name: str = "Down in Flames: Locked-On"
    rulesets: tuple[RulesetInfo, ...] = (RulesetInfo("lockedon", "Locked-On"),)
    setup_model: type[BaseModel] = LockedOnSetup
    options_model: type[BaseModel] = LockedOnOptions
    pick_model: type[BaseModel] = LockedOnPick
    standing_orders: tuple[str, ...] = tuple(o.value for o in Order)

    def __init__(self, engine: LockedOnEngine) -> None:
        self.engine = engine
        self._presenter = LockedOnPresenter(engine)

    # --- the lobby ----------------------------------------------------------------
    def lobby_sides(self, options: LockedOnOptions) -> tuple[SideInfo, ...]:
        """Two teams, or one side per player in a free-for-all (L389, L405-406)."""
        n = options.sides if options.free_for_all else 2
        return tuple(
            SideInfo(
                s,
                Term("lockedon.side_name", side=s),
                phrase=Term("lockedon.side_phrase", side=s),
            )
            for s in side_ids(n)
        )

    def seat_name(self, side: str, number: int) -> str:
        return f"{side}{number}"

    def aircraft_choices(self, options: LockedOnOptions, side: str | None) -> list[AircraftChoice]:
        """Every aircraft in service by the battle's year (C-L3) and not over the agreed
        VP even at its least (:meth:`aircraft_refusal`), labelled with nation, year and
        VP without / with its Standard Missile Load (L23)."""
        out = []
        for ac in sorted(self.engine.aircraft.values(), key=lambda a: (a.nation, a.name)):
            if self.aircraft_refusal(options, side, ac.id) is not None:
                continue
            vp = f"{ac.vp}/{ac.vp_missiles}" if ac.vp_missiles is not None else str(ac.vp)
            out.append(AircraftChoice(ac.id, f"{ac.name} ({ac.nation} {ac.year}, {vp} VP)"))
        return out

    def pick_refusal(self, options: LockedOnOptions, side: str, pick: LockedOnPick) -> str | None:
        """Why a seat may not take this pick: unknown aircraft, too late for the year,
        skills (campaign-only, wrong rating changes), a custom load; or worth more than
        the agreed VP even with its modifier taken off (L68-70)."""
        why = self.engine.seat_problem(options, pick)
        if why is not None:
            return why
        if options.vp_limit is not None:
            ac = self.engine.aircraft[pick.aircraft]
            least = balance.aircraft_value(
                ac,
                pick.missiles,
                self.engine.missiles,
                enemy_missiles=False,
                skills=pick.skills,
                catalogue=self.engine.skills,
            )
            if least > options.vp_limit:
                return Term(
                    "lockedon.pick.over_limit", aircraft=ac.name, vp=least, limit=options.vp_limit
                )
        return None

    def start_problems(self, options: LockedOnOptions, seats: Sequence[SeatPick]) -> list[str]:
        """Every side needs an aircraft, a free-for-all one per side, and no side may
        be worth more than the agreed VP total (L68-70, L389)."""
        problems: list[str] = []
        if len(seats) > MAX_AIRCRAFT:
            problems.append(Term("lockedon.ui.lobby.too_many", n=len(seats), max=MAX_AIRCRAFT))
        for info in self.lobby_sides(options):
            mine = [s for s in seats if s.side == info.id]
            if not mine:
                problems.append(Term("lockedon.setup.empty_side", side=info.id))
            elif options.free_for_all and len(mine) > 1:
                problems.append(fixed("lockedon.setup.ffa_sides"))
            elif not options.free_for_all and not options.team_games and len(mine) > 1:
                problems.append(Term("lockedon.setup.no_teams", side=info.id))
        if not problems:
            setups = [
                SeatSetup(seat=s.seat, side=s.side, **_pick(s.pick).model_dump()) for s in seats
            ]
            for x in setups:
                why = self.engine.team_problem(setups, x)
                if why is not None:
                    problems.append(why)
        if options.vp_limit is not None and not problems:
            picks = [(s.side, _pick(s.pick)) for s in seats]
            for side, vp in sorted(side_values(self.engine, picks).items()):
                if vp > options.vp_limit:
                    problems.append(
                        Term(
                            "lockedon.setup.side_over_limit",
                            side=side,
                            vp=vp,
                            limit=options.vp_limit,
                        )
                    )
        return problems

    def setup_from_lobby(
        self, options: LockedOnOptions, seats: Sequence[SeatPick]
    ) -> LockedOnSetup:
        return LockedOnSetup(
            options=options,
            seats=tuple(
                SeatSetup(seat=s.seat, side=s.side, **_pick(s.pick).model_dump()) for s in seats
            ),
        )

    # --- a game -------------------------------------------------------------------
    def new_game(self, setup: LockedOnSetup, seed: int) -> tuple[GameState, list[Event]]:
        return self.engine.new_game(setup, seed)

    def sides(self, state: GameState) -> tuple[SideInfo, ...]:
        """Side A, side B...; a campaign mission's sides by their nations (L280)."""
        names = state.mission.names if state.mission is not None else {}
        return tuple(
            SideInfo(
                side,
                Term("lockedon.nation_name", nation=names[side], side=side)
                if side in names
                else Term("lockedon.side_name", side=side),
                tuple(seat for seat, p in state.planes.items() if p.side == side),
                Term("lockedon.nation_phrase", nation=names[side], side=side)
                if side in names
                else Term("lockedon.side_phrase", side=side),
            )
            for side in sorted(state.sides)
        )

    def pending(self, state: GameState) -> list[Decision]:
        return self.engine.pending(state)

    def legal_actions(self, state: GameState, seat: str) -> list[Action]:
        return self.engine.legal_actions(state, seat)

    def apply(self, state: GameState, seat: str, action: Action) -> tuple[GameState, list[Event]]:
        return self.engine.apply(state, seat, action)

    def default_action(self, state: GameState, seat: str) -> Action:
        return self.engine.default_action(state, seat)

    def view(self, state: GameState, seat: str | None) -> LockedOnView:
        return self.engine.view(state, seat)

    def sample_state(self, state: GameState, seat: str, rng: random.Random) -> GameState:
        """The contract's :class:`~engine.core.contract.Sampling`
        (:mod:`engine.lockedon.sampler`)."""
        return sample_state(self.engine, state, seat, rng)

    def is_over(self, state: GameState) -> bool:
        return self.engine.is_over(state)

    def outcome(self, state: GameState) -> Outcome:
        """L89-90: a shoot-down of the last enemy wins, else a draw. Each side scores
        the VP of the enemy aircraft it shot down; each aircraft's fate names its
        shooter (a seat, or a SAM/AAA site's id).

        A campaign mission (``LockedOnSetup.mission``) scores the mission's VP instead,
        apportioned by the enemy aircraft destroyed, rounding up (L305-308), plus
        NFOD's Campaign points (L364, also in its holder's ``record`` as
        ``campaign_points``); the side with more VP wins, equal VP is a draw."""
        points = state.mission.points if state.mission is not None else {}
        fates = tuple(
            AircraftFate(
                ref=seat,
                seat=seat,
                side=p.side,
                aircraft=p.aircraft,
                fate=Fate.SHOT_DOWN if p.status == "destroyed" else Fate.UNHARMED,
                by=p.by,
                turn=p.lost_round,
                record={"campaign_points": points[seat]} if seat in points else {},
            )
            for seat, p in state.planes.items()
        )
        vp = self.engine.victory_points(state)
        if state.result is not None:
            return Outcome(
                over=True,
                winner=state.result.get("winner"),
                verdict=str(state.result.get("verdict", "")),
                vp=vp,
                fates=fates,
                rounds=state.round,
            )
        return Outcome(
            over=False,
            winner=None,
            verdict=fixed("lockedon.verdict.running"),
            vp=vp,
            fates=fates,
            rounds=state.round - 1,
        )

    # --- hosting games: the lobby ---------------------------------------------------
    def aircraft_catalogue(self) -> list[AircraftChoice]:
        """Every aircraft card, named as printed, with its nation and service year."""
        return [
            AircraftChoice(ac.id, ac.name, None, f"{ac.nation}, {ac.year}")
            for ac in sorted(self.engine.aircraft.values(), key=lambda a: (a.nation, a.name))
        ]

    def aircraft_refusal(
        self, options: LockedOnOptions, side: str | None, aircraft: str
    ) -> str | None:
        """Unknown, not in service by the battle's year (L70, C-L3), or worth more than
        the agreed VP even at its least: without missiles and with its modifier taken
        off (L23-24, L68-70). Any side may fly any aircraft."""
        ac = self.engine.aircraft.get(aircraft)
        if ac is None:
            return Term("lockedon.pick.unknown_aircraft", aircraft=repr(aircraft))
        if options.year is not None and ac.year > options.year:
            return Term(
                "lockedon.pick.too_late", aircraft=ac.name, service=ac.year, year=options.year
            )
        least = ac.vp - ac.modifier
        if options.vp_limit is not None and least > options.vp_limit:
            return Term(
                "lockedon.pick.over_limit", aircraft=ac.name, vp=least, limit=options.vp_limit
            )
        return None

    def make_pick(self, aircraft: str, fields: Mapping[str, Any]) -> LockedOnPick:
        """The aircraft with the join command's typed extras (``skills``, ``ratings``,
        ``missiles``: :mod:`engine.lockedon.picks`); absent ones: no skill, the
        Standard Missile Load."""
        return make_pick(aircraft, fields, self.engine.skills, self.engine.missiles)

    def seats_full(self, options: LockedOnOptions, seats: Sequence[SeatPick]) -> bool:
        """Eight aircraft (:data:`MAX_AIRCRAFT`); a free-for-all also ends at one seat
        per side."""
        return self.room_refusal(options, seats) is not None

    def room_refusal(self, options: LockedOnOptions, seats: Sequence[SeatPick]) -> str | None:
        """Why no seat may join any more (the contract's next form of ``seats_full``)."""
        if len(seats) >= MAX_AIRCRAFT:
            return Term("lockedon.ui.lobby.no_room", max=MAX_AIRCRAFT)
        if options.free_for_all and len(seats) >= options.sides:
            return Term("lockedon.ui.lobby.no_room_ffa", sides=options.sides)
        return None

    # --- hosting games: the flow ----------------------------------------------------
    def turn_of(self, state: GameState) -> str | None:
        """The aircraft whose turn it is (None before the first turn, while a team names
        its next aircraft, and once the game is over)."""
        return state.active

    def picks_hidden(self, state: GameState) -> bool:
        """The secret starting altitudes (L76) are not revealed yet."""
        return state.step == "setup"

    def forced_action(self, state: GameState, seat: str) -> Action | None:
        """A seat that must answer (a reaction, a Teamwork call, an altitude change to
        follow) whose only legal answer is the passive one: no card reacts, no
        Countermeasures counter or Alert applies, no Timely is left, following is
        unaffordable."""
        mine = [d for d in self.engine.pending(state) if d.seat == seat]
        if not mine or mine[0].timing is not Timing.RESPONSE:
            return None
        legal = self.engine.legal_actions(state, seat)
        return legal[0] if len(legal) == 1 and legal[0].verb in _PASSIVE else None

    def computer_player(self, seed: int, level: str = DEFAULT_COMPUTER_LEVEL) -> SeatPlayer:
        """A computer player of ``level`` (:mod:`engine.ai`)."""
        return ai.seat_player(self, level, seed)

    def order_label(self, order: str) -> str:
        return Order(order).label

    def order_action(self, state: GameState, seat: str, orders: Sequence[str]) -> Action | None:
        return order_action(self.engine, state, seat, orders)

    def order_expired(self, order: str, state: GameState, seat: str) -> bool:
        return expired(order, state, seat)

    def presenter(self) -> LockedOnPresenter:
        return self._presenter

    # --- notation -----------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return Action.from_text(text)

    def public_text(self, text: str, *, secret_picks: bool) -> str:
        """Masks the secret altitude before every seat has picked (L76) and the cards
        thrown away unseen: discards, a climb's or a follow's cost, Timely, a gun
        attack's or a Vertical Roll's payment (only their number is public)."""
        try:
            a = Action.from_text(text)
        except EngineError:
            return text
        if a.verb == "alt":
            return "alt ?" if secret_picks else text
        if a.verb in _MASKED and a.cards:
            return f"{a.verb} ?×{len(a.cards)}"
        if a.verb == "play" and a.cards:
            head = str(Action(**{**_fields(a), "cards": ()}))
            return f"{head} paying ?×{len(a.cards)}"
        return text

    def undo_refusal(
        self, before: GameState, after: GameState, events: Sequence[Event]
    ) -> str | None:
        """Taking back must never let anyone see a card again or roll again: refused if
        the action revealed the secret altitudes, used the game's randomness (a
        reshuffle, a coin flip), drew cards, or showed anyone a private line."""
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

    def replay(self, setup: LockedOnSetup, seed: int, log: Iterable[tuple[str, str]]) -> GameState:
        return self.engine.replay(setup, seed, log)


def _pick(pick: Any) -> LockedOnPick:
    return pick if isinstance(pick, LockedOnPick) else LockedOnPick.model_validate(pick)


def _fields(a: Action) -> dict[str, Any]:
    return {f: getattr(a, f) for f in Action.__dataclass_fields__}


def _conforms(s: LockedOnSystem) -> tuple[HostedSystem[GameState, Action, LockedOnView], Presenter]:
    """For the type checker: the system is a hosted system, its presenter a presenter."""
    hosted: HostedSystem[GameState, Action, LockedOnView] = s
    presenter: Presenter = s.presenter()
    return hosted, presenter


@functools.cache
def system() -> LockedOnSystem:
    """The system over the shipped components (the registry's factory)."""
    return LockedOnSystem(default_engine())


def system_with(packs: Sequence[Pack]) -> LockedOnSystem:
    """The system over the shipped components and these content packs, in order
    (:func:`engine.core.registry.with_content`). Raises ``DataError``."""
    return LockedOnSystem(LockedOnEngine(components_with(packs)))
