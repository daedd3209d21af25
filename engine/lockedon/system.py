"""Locked-On on the game-system contract (:mod:`engine.core.contract`).

:class:`LockedOnSystem` is what the registry hands the generic layers: the rules of
:class:`~engine.lockedon.game.LockedOnEngine` plus what the contract adds around them
(the lobby's options and picks, point balancing, typed decisions and outcome,
notation, the public form of an action, what cannot be undone, the state's JSON).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.core.contract import (
    AircraftChoice,
    AircraftFate,
    Decision,
    Fate,
    Outcome,
    RulesetInfo,
    SeatPick,
    SideInfo,
)
from engine.core.errors import EngineError
from engine.core.events import Event
from engine.lockedon import balance
from engine.lockedon.actions import Action
from engine.lockedon.game import LockedOnEngine, default_engine
from engine.lockedon.setup import LockedOnOptions, LockedOnPick, LockedOnSetup, SeatSetup, side_ids
from engine.lockedon.state import GameState
from engine.lockedon.texts import fixed
from engine.lockedon.view import LockedOnView
from strings import Term

__all__ = ["LockedOnSystem", "side_values", "system"]

_MASKED = ("discard", "trim", "follow", "timely", "climb")
"""Verbs whose cards are thrown away unseen: their public text shows only how many."""


def side_values(
    engine: LockedOnEngine, seats: Sequence[tuple[str, LockedOnPick]]
) -> dict[str, int]:
    """Each side's VP total (L24 "Aircraft's VPs are added up", L321, L327), with the
    modifier rule: an aircraft loses its modifier if no opposing aircraft carries
    missiles (L23-24)."""
    loads = {
        i: balance.carries_missiles(engine.aircraft[pick.aircraft], pick.missiles)
        for i, (_, pick) in enumerate(seats)
    }
    out: dict[str, int] = {}
    for side, pick in seats:
        enemy_missiles = any(loads[j] for j, (other, _) in enumerate(seats) if other != side)
        ac = engine.aircraft[pick.aircraft]
        value = balance.aircraft_value(
            ac,
            pick.missiles,
            engine.missiles,
            enemy_missiles=enemy_missiles,
            skills=pick.skills,
            catalogue=engine.skills,
        )
        out[side] = out.get(side, 0) + value
    return out


class LockedOnSystem:
    """The ``lockedon`` system: Down in Flames: Locked-On."""

    id = "lockedon"
    name = "Down in Flames: Locked-On"
    rulesets = (RulesetInfo("lockedon", "Locked-On"),)
    setup_model = LockedOnSetup
    options_model = LockedOnOptions
    pick_model = LockedOnPick

    def __init__(self, engine: LockedOnEngine) -> None:
        self.engine = engine

    # --- the lobby ----------------------------------------------------------------
    def lobby_sides(self, options: LockedOnOptions) -> tuple[SideInfo, ...]:
        """Two teams, or one side per player in a free-for-all (L389, L405-406)."""
        n = options.sides if options.free_for_all else 2
        return tuple(SideInfo(s, Term("lockedon.side_name", side=s)) for s in side_ids(n))

    def seat_name(self, side: str, number: int) -> str:
        return f"{side}{number}"

    def aircraft_choices(self, options: LockedOnOptions, side: str | None) -> list[AircraftChoice]:
        """Every aircraft in service by the battle's year (C-L3), labelled with nation,
        year and VP without / with its Standard Missile Load (L23)."""
        out = []
        for ac in sorted(self.engine.aircraft.values(), key=lambda a: (a.nation, a.name)):
            if options.year is not None and ac.year > options.year:
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
        return tuple(
            SideInfo(
                side,
                Term("lockedon.side_name", side=side),
                tuple(seat for seat, p in state.planes.items() if p.side == side),
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

    def is_over(self, state: GameState) -> bool:
        return self.engine.is_over(state)

    def outcome(self, state: GameState) -> Outcome:
        """L89-90: a shoot-down of the last enemy wins, else a draw. Each side scores
        the VP of the enemy aircraft it shot down; each aircraft's fate names its
        shooter, so a campaign can apportion by aircraft destroyed (L307)."""
        fates = tuple(
            AircraftFate(
                ref=seat,
                seat=seat,
                side=p.side,
                aircraft=p.aircraft,
                fate=Fate.SHOT_DOWN if p.status == "destroyed" else Fate.UNHARMED,
                by=p.by,
                turn=p.lost_round,
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
        if before.step == "setup" and after.step != "setup":
            return fixed("lockedon.undo.revealed")
        if after.rng != before.rng:
            return fixed("lockedon.undo.random")
        if after.deck != before.deck:
            return fixed("lockedon.undo.drawn")
        if any(not e.public for e in events):
            return fixed("lockedon.undo.hidden")
        return None

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


@functools.cache
def system() -> LockedOnSystem:
    """The system over the shipped components (the registry's factory)."""
    return LockedOnSystem(default_engine())
