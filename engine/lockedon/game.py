"""The Locked-On dogfight: the engine contract of DESIGN.md.

:class:`LockedOnEngine` holds the components and implements ``new_game``, ``pending``,
``legal_actions``, ``apply``, ``default_action``, ``view`` and ``replay`` over
:class:`~engine.lockedon.state.GameState`. Legality has one truth,
:meth:`~engine.lockedon.legality.Legality.refusal`: ``legal_actions`` filters
generated candidates through it and ``apply`` refuses with its message, which cites
the rulebook line.

The class is built in layers, one concern per module: :mod:`~engine.lockedon.base`
(lookups, piles, who decides), :mod:`~engine.lockedon.legality`,
:mod:`~engine.lockedon.candidates`, :mod:`~engine.lockedon.flow` (rounds, steps,
altitude, the end), :mod:`~engine.lockedon.exchange` (cards, reactions) and
:mod:`~engine.lockedon.missiles` (launches).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from engine.core.errors import RuleViolation, SetupError
from engine.core.events import Event
from engine.core.rng import Rng
from engine.lockedon import balance, geometry, ratings
from engine.lockedon.actions import Action
from engine.lockedon.components import SkillKind
from engine.lockedon.loader import load_components
from engine.lockedon.mission import Missions
from engine.lockedon.present import build_view
from engine.lockedon.setup import LockedOnOptions, LockedOnPick, LockedOnSetup, SeatSetup
from engine.lockedon.state import GameState, Mission, Plane
from engine.lockedon.texts import join
from engine.lockedon.view import LockedOnView
from strings import Term

__all__ = ["LockedOnEngine", "default_engine"]

# In order of preference: the first legal one is the passive default (default_action).
_PASSIVE = ("alt M", "first", "ab off", "discard", "stay", "end", "pass", "nofollow", "nolaunch")


class LockedOnEngine(Missions):
    """The rules of a Locked-On dogfight (or campaign mission) for one set of
    components."""

    def seat_problem(
        self, options: LockedOnOptions, seat: LockedOnPick, *, campaign: bool = False
    ) -> Term | None:
        """Why this pick may not fly in a game with these options (L70, L327,
        L375-379); campaign-only skills only in a mission (``campaign``, L343, L356,
        L364)."""
        ac = self.aircraft.get(seat.aircraft)
        if ac is None:
            return Term("lockedon.pick.unknown_aircraft", aircraft=repr(seat.aircraft))
        why = balance.pick_problem(
            ac,
            seat.skills,
            seat.ratings,
            seat.missiles,
            self.skills,
            self.missiles,
            year=options.year,
            custom_allowed=options.missile_loads,
            campaign=campaign,
        )
        if why is None:
            return None
        key, fields = why
        return Term(f"lockedon.pick.{key}", **fields)

    def team_problem(self, seats: Sequence[SeatSetup], seat: SeatSetup) -> Term | None:
        """Drift Factor needs 2 or more aircraft on its team at the start (L335)."""
        for sid in seat.skills:
            if self.skills[sid].kind is SkillKind.NO_TEAMWORK:
                team = sum(1 for x in seats if x.side == seat.side)
                if team < 2:
                    return Term("lockedon.setup.drift_factor", seat=seat.seat)
        return None

    def new_game(self, setup: LockedOnSetup, seed: int) -> tuple[GameState, list[Event]]:
        """Create a game (Set-Up, L59-86). Raises SetupError for an impossible setup."""
        o = setup.options
        seats = [x.seat for x in setup.seats]
        if len(set(seats)) != len(seats):
            raise SetupError(Term("lockedon.setup.shared_seat"))
        sides = sorted({x.side for x in setup.seats})
        if o.free_for_all:
            if len(sides) != len(seats):
                raise SetupError(Term("lockedon.setup.ffa_sides"))
        elif sides != ["A", "B"]:
            raise SetupError(Term("lockedon.setup.two_sides"))
        mission = setup.mission
        if mission is not None:
            why = self._mission_problem(setup, sides)
            if why is not None:
                raise SetupError(why)
        for x in setup.seats:
            why = self.seat_problem(o, x, campaign=mission is not None) or self.team_problem(
                setup.seats, x
            )
            if why is not None:
                raise SetupError(why)
        loads = {
            x.seat: balance.load_of(self.aircraft[x.aircraft], x.missiles) for x in setup.seats
        }
        rng = Rng(seed)
        decks = 2 if o.second_deck else 1
        deck = list(range(len(self.one_deck) * decks))
        rng.shuffle(deck)
        planes: dict[str, Plane] = {}
        for x in setup.seats:
            ac = self.aircraft[x.aircraft]
            enemy_missiles = any(loads[y.seat] for y in setup.seats if y.side != x.side)
            # In a campaign the skills' cost is already in the mission (L325).
            value = balance.aircraft_value(
                ac,
                x.missiles,
                self.missiles,
                enemy_missiles=enemy_missiles,
                skills=x.skills if mission is None else (),
                catalogue=self.skills,
            )
            mods: dict[str, int] = {}
            for sid in x.skills:
                for rating, delta in [
                    *self.skills[sid].deltas.items(),
                    *x.ratings.get(sid, {}).items(),
                ]:
                    mods[rating.value] = mods.get(rating.value, 0) + delta
            p = Plane(x.seat, x.side, ac.id, value, skills=list(x.skills), mods=mods)
            p.ab_left = 2 if ac.has_afterburners else 0  # L72, G-L7
            p.missiles = {load.missile: load.count for load in loads[x.seat]}
            p.cm = ac.countermeasures + mods.get("countermeasures", 0)
            planes[x.seat] = p
        state = GameState(
            seed=seed,
            rng=rng.state,
            rounds=o.rounds,
            planes=planes,
            deck=deck,
            sides=sorted(sides),
            teamwork=o.teamwork,
            ffa=o.free_for_all,
            first_side=setup.first_side,
        )
        events: list[Event] = [Event("setup", self._setup_text(state))]
        if mission is not None:
            state.mission = Mission(
                mission.number,
                mission.title,
                dict(mission.vp),
                {side: list(ids) for side, ids in mission.sites.items()},
                names=dict(mission.names),
            )
            self._nfod(state, events)
        fixed_hands = setup.hands or {}
        for seat, codes in fixed_hands.items():
            if seat not in planes:
                raise SetupError(f"no seat {seat}")
            planes[seat].hand = [self._take_code(state, c) for c in codes]
        if setup.deck_top:
            top = [self._take_code(state, c) for c in setup.deck_top]
            state.deck.extend(reversed(top))
        for x in setup.seats:
            if x.seat not in fixed_hands:
                self._deal(state, x.seat, events)
        self._fix(state, setup)
        if setup.altitudes is not None:
            if set(setup.altitudes) != set(planes):
                raise SetupError("altitudes: give every seat's altitude")
            for seat, alt in setup.altitudes.items():
                planes[seat].altitude = int(alt)
            self._begin(state, events, setup.first_side)
            self._settle(state, events)
        return state, events

    def _mission_problem(self, setup: LockedOnSetup, sides: list[str]) -> Term | None:
        """A mission is flown by two sides (L280), each with its stated VP; its sites
        are known ones of those sides (L290-294)."""
        mission = setup.mission
        assert mission is not None
        if setup.options.free_for_all or sorted(mission.vp) != sides:
            return Term("lockedon.setup.mission_sides", sides=", ".join(sides))
        for side, ids in sorted(mission.sites.items()):
            if side not in sides:
                return Term("lockedon.setup.mission_sides", sides=", ".join(sides))
            for sid in ids:
                if sid not in self.sites:
                    return Term("lockedon.setup.unknown_site", site=repr(sid))
        return None

    def _nfod(self, state: GameState, events: list[Event]) -> None:
        """NFOD (L364): "At the start of the Dogfight, gain Campaign points equal to the
        difference in point totals between sides": each side with an NFOD aircraft
        gains, once, the difference between the sides' totals of aircraft VP in this
        mission (skills not counted, L325), credited to its first NFOD aircraft."""
        assert state.mission is not None
        totals = dict.fromkeys(state.sides, 0)
        for p in state.planes.values():
            totals[p.side] += p.value
        points = max(totals.values()) - min(totals.values())
        credited: set[str] = set()
        for seat, p in state.planes.items():
            if p.side in credited or self.has_skill(p, SkillKind.CAMPAIGN_POINTS) is None:
                continue
            credited.add(p.side)
            state.mission.points[seat] = points
            events.append(
                Event(
                    "nfod",
                    Term("lockedon.event.nfod", plane=self.name(state, seat), n=points),
                )
            )

    def _take_code(self, state: GameState, code: str) -> int:
        card = self.find(state, state.deck, code)
        if card is None:
            raise SetupError(f"no card {code} left in the deck")
        state.deck.remove(card)
        return card

    def _deal(self, state: GameState, seat: str, events: list[Event]) -> None:
        """The first hand: Performance cards (L71), then the skills' extra cards
        (Guided Intercept, Edge, Locked, Up the Sleeve, Tiger: L337-368) and Aircraft
        Expertise's side cards (L373)."""
        p = state.planes[seat]
        ac = self.ac(p)
        self.draw(state, seat, ratings.performance(ac, p), events, why="lockedon.why.start")
        for sid in p.skills:
            skill = self.skills[sid]
            if skill.kind is SkillKind.START_EXTRA_DRAW:
                self.draw(state, seat, skill.amount or 0, events, why="lockedon.why.skill")
            elif skill.kind is SkillKind.START_CARDS:
                for code in skill.cards:
                    card = self.find(state, state.deck, code)
                    if card is not None:
                        state.deck.remove(card)
                        p.hand.append(card)
                events.append(
                    Event(
                        "skill_cards",
                        Term(
                            "lockedon.event.skill_cards",
                            plane=self.name(state, seat),
                            skill=skill.name,
                        ),
                    )
                )
            elif skill.kind is SkillKind.SIDE_HAND:
                for _ in range(ratings.performance(ac, p)):
                    card = self.take_top(state, events)
                    if card is not None:
                        p.side_hand.append(card)

    def _fix(self, state: GameState, setup: LockedOnSetup) -> None:
        """The position a test or vector starts from."""
        planes = state.planes

        def plane(seat: str) -> Plane:
            if seat not in planes:
                raise SetupError(f"no seat {seat}")
            return planes[seat]

        for seat, r in setup.ranges.items():
            plane(seat).range = int(r)
        for pos in setup.positions:
            plane(pos.seat), plane(pos.on)
            geometry.set_pos(state, pos.seat, pos.on, int(pos.position))
        for seat, on in setup.afterburners.items():
            p = plane(seat)
            if on and p.ab_left:
                p.ab_on = True
                p.ab_left -= 1
        for seat, n in setup.ab_left.items():
            plane(seat).ab_left = n
        for seat, loads in setup.missiles.items():
            plane(seat).missiles = dict(loads)
        for seat, n in setup.countermeasures.items():
            plane(seat).cm = n
        for seat, used in setup.used.items():
            plane(seat).used = list(used)

    def _setup_text(self, state: GameState) -> Term:
        groups = []
        for side in state.sides:
            names = ", ".join(
                self.name(state, s) for s, p in state.planes.items() if p.side == side
            )
            groups.append(Term("lockedon.event.side", side=side, planes=names))
        return Term("lockedon.event.setup", sides=join(groups), rounds=state.rounds)

    def apply(self, state: GameState, seat: str, action: Action) -> tuple[GameState, list[Event]]:
        """Apply one action; returns the new state and what happened.

        Raises :class:`RuleViolation` (citing the rule) and leaves ``state`` as it was.
        """
        why = self.refusal(state, seat, action)
        if why is not None:
            raise RuleViolation(why)
        s = state.clone()
        events: list[Event] = []
        if action.verb == "timely":
            self._do_timely(s, seat, action, events)
        else:
            kind = next(d.kind for d in self.pending(state) if d.seat == seat)
            getattr(self, f"_do_{kind}")(s, seat, action, events)
        self._settle(s, events)
        return s, events

    def default_action(self, state: GameState, seat: str) -> Action:
        """The passive choice a seat makes when it lets a decision go: Medium for the
        secret altitude, go first, Afterburners off, discard nothing, stay, no Speed
        Maneuvering, end the Play Cards step, no reaction, do not follow, do not launch;
        otherwise the first legal choice (a stall's single discard, the first aircraft
        of a team). Raises RuleViolation if ``seat`` has nothing to decide."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise RuleViolation(
                self.refusal(state, seat, Action("pass")) or Term("lockedon.refuse.nothing_to_do")
            )
        texts = {str(a): a for a in legal}
        for text in _PASSIVE:
            if text in texts:
                return texts[text]
        no_timely = [a for a in legal if a.verb != "timely"]
        return min(no_timely or legal, key=lambda a: (len(a.cards), str(a)))

    def view(self, state: GameState, seat: str | None) -> LockedOnView:
        """What ``seat`` may see (None: spectators). See :mod:`engine.lockedon.present`."""
        return build_view(self, state, seat)

    def is_over(self, state: GameState) -> bool:
        return state.step == "over"

    def replay(self, setup: LockedOnSetup, seed: int, log: Iterable[tuple[str, str]]) -> GameState:
        """Rebuild a game from its setup, seed and ``(seat, action text)`` log."""
        state, _ = self.new_game(setup, seed)
        for seat, text in log:
            state, _ = self.apply(state, seat, Action.from_text(text))
        return state


@functools.cache
def default_engine() -> LockedOnEngine:
    """The engine over the shipped components (loaded once)."""
    return LockedOnEngine(load_components())
