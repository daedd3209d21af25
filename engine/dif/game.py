"""The Down in Flames basic game: the engine contract of DESIGN.md.

:class:`DifEngine` holds the components (deck, aircraft) and implements
``new_game``, ``pending``, ``legal_actions``, ``apply``, ``view`` and ``replay`` over
:class:`~engine.dif.state.GameState`. Legality has one truth, :meth:`DifEngine.refusal`:
``legal_actions`` filters generated candidates through it (or makes the most frequent
decisions' legal actions directly, tested to agree with it:
:meth:`~engine.dif.legality.Legality._legal_choices`) and ``apply`` refuses with its
message, which names the rule. Section numbers are Zero!'s unless marked
RotL (line numbers of the Rise of the Luftwaffe rulebook).

The class is built in layers, one concern per module: :mod:`~engine.dif.base`
(lookups), :mod:`~engine.dif.legality`, :mod:`~engine.dif.flow` and
:mod:`~engine.dif.resolution`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from engine.core.contract import Decision
from engine.core.errors import RuleViolation, SetupError
from engine.core.events import Event
from engine.core.rng import Rng
from engine.dif import balance, fates
from engine.dif.actions import Action, quoted
from engine.dif.base import DECISIONS, Pending
from engine.dif.bombing import MissionRules
from engine.dif.campaign_cards import Role
from engine.dif.components import Aircraft, Deck, PilotSkill, Ruleset, Side
from engine.dif.present import build_view
from engine.dif.resolution import Resolution
from engine.dif.setup import JAPANESE, DifSetup, ElementSetup
from engine.dif.state import Element, GameState, Plane
from engine.dif.texts import STEPS, step_label
from engine.dif.view import DifView
from strings import Term

__all__ = ["STEPS", "DifEngine", "Pending", "default_engine", "step_label"]


# In order of preference: the first legal one is the passive default (default_action).
_PASSIVE = (
    "alt M",
    "redraw",
    "skip",
    "done",
    "stay",
    "nofollow",
    "pass",
    "discard",
    "keep",
    "hold",
    "continue",
)


_UNCHANGED = frozenset({("play", "done"), ("altitude_step", "stay"), ("wingman", "skip")})
"""The (decision, verb) moves of a dogfight whose rules change no element, only the
step (``done`` ending Play Cards, 3.1; ``stay`` at Adjust Altitude, 7.21; ``skip`` of
the Wingman Attack step): ``apply`` hands them their element without copying it
(a third of a dogfight's moves, issue 16); tests/engine/test_dif_copy_on_write.py fails
if one changes it."""


_DO = {kind: f"_do_{kind}" for kind in DECISIONS}
"""The name of the rule that applies a decision of each kind (``_do_play``...)."""


def _apply(
    engine: Resolution, state: GameState, seat: str, action: Action
) -> tuple[GameState, list[Event]]:
    """:meth:`DifEngine.apply`, by ``engine``: the whole engine, or its dogfight rules
    alone (:class:`_Dogfight`)."""
    pending = engine._listed_pending(state, seat, action)
    if pending is None:  # not just listed by legal_actions: ask the rules
        pending = engine.pending(state)
        why = engine._refusal_among(state, seat, action, pending)
        if why is not None:
            raise RuleViolation(why)
    s = state.clone()
    events: list[Event] = []
    for p in pending:  # the seat's decision (the first, as ``refusal`` allowed it)
        if p.seat == seat:
            kind = p.kind
            break
    if seat in s.elements:  # the acting element: changed by nearly every action
        if s.mission is None and (kind, action.verb) in _UNCHANGED:
            e = s.elements[seat]  # read only: not copied (GameState.own_element)
        else:
            e = s.own_element(seat)
        getattr(engine, _DO[kind])(s, e, action, events)
    else:  # a formation seat's only decision: its bomber's answer (§20.5)
        assert isinstance(engine, MissionRules)
        engine._do_formation_respond(s, seat, action, events)
    engine._check_end(s, events)
    fates.record(state, s, seat, action.verb, events)
    return s, events


class _Dogfight(Resolution):
    """The basic game's rules without the campaign mission's layer over them
    (:class:`~engine.dif.bombing.MissionRules`), which a dogfight (a game with no
    ``mission``) does not need: :class:`DifEngine` hands a dogfight's ``pending``,
    ``legal_actions``, ``refusal``, ``was_listed`` and ``apply`` to one of these, over
    the same components, so that the rules' many calls to one another in a dogfight
    do not each pass through the mission layer's check that there is no mission
    (about fourteen an action, issue 16). Its answers are the whole engine's: the
    mission layer changes nothing where there is no mission."""

    def apply(self, state: GameState, seat: str, action: Action) -> tuple[GameState, list[Event]]:
        return _apply(self, state, seat, action)


class DifEngine(MissionRules):
    """The rules of the basic game for one set of components."""

    def __init__(self, deck: Deck | Mapping[Ruleset, Deck], aircraft: dict[str, Aircraft]) -> None:
        super().__init__(deck, aircraft)
        self._dogfight = _Dogfight(self.decks, aircraft)
        """A dogfight's rules, without the mission layer (:class:`_Dogfight`)."""

    def __setattr__(self, name: str, value: Any) -> None:
        """An attribute set on the engine once it is made (a rule a test replaces) is
        set on its dogfight's rules too, which answer for it (:class:`_Dogfight`).
        They are another object, not a view sharing the engine's ``__dict__``: the
        interpreter's lookups of an object's attributes specialize on its own."""
        object.__setattr__(self, name, value)
        dogfight = self.__dict__.get("_dogfight")
        if dogfight is not None:
            setattr(dogfight, name, value)

    def __delattr__(self, name: str) -> None:
        object.__delattr__(self, name)
        dogfight = self.__dict__.get("_dogfight")
        if dogfight is not None and name in dogfight.__dict__:
            delattr(dogfight, name)

    def pending(self, state: GameState) -> list[Decision]:
        if state.mission is None:
            return self._dogfight.pending(state)
        return super().pending(state)

    def legal_actions(self, state: GameState, seat: str) -> list[Action]:
        if state.mission is None:
            return self._dogfight.legal_actions(state, seat)
        return super().legal_actions(state, seat)

    def refusal(self, state: GameState, seat: str, action: Action) -> Term | None:
        if state.mission is None:
            return self._dogfight.refusal(state, seat, action)
        return super().refusal(state, seat, action)

    def was_listed(self, state: GameState, seat: str, action: Action) -> bool:
        if state.mission is None:
            return self._dogfight.was_listed(state, seat, action)
        return super().was_listed(state, seat, action)

    def aircraft_refusal(
        self,
        ruleset: Ruleset,
        year: int,
        aircraft: str,
        side: Side | None = None,
        *,
        mixed: bool = False,
        mission: bool = False,
    ) -> Term | None:
        """Why this aircraft may not fly in a game of this ruleset and year (4.3, 4.4),
        for ``side`` (its own side when None). Only fighters fly dogfights (17.0); a
        campaign ``mission`` also flies light and torpedo bombers as elements (16.11,
        17.13). In a Zero! game the Japanese side flies Japanese aircraft only (4.2,
        5.0), unless the game is ``mixed``."""
        ac = self.aircraft.get(aircraft)
        if ac is None:
            return Term("dif.refuse.unknown_aircraft", aircraft=quoted(aircraft))
        if ac.role is not Role.FIGHTER and not (mission and ac.role.element):
            # The basic game flies fighters only (17.0 L1046): bombers and patrol
            # aircraft are campaign aircraft, not offered to a dogfight.
            return Term("dif.refuse.not_a_fighter", aircraft=ac.name)
        if side is not None and ac.side is not side:
            return Term(
                "dif.refuse.wrong_side",
                aircraft=ac.name,
                side=ac.side.phrase(ruleset),
                wanted=side.phrase(ruleset),
            )
        if ruleset not in ac.rulesets:
            if ruleset is Ruleset.ZERO:
                return Term("dif.refuse.not_in_ruleset.zero", aircraft=ac.name)
            return Term("dif.refuse.not_in_ruleset.rotl", aircraft=ac.name)
        if ruleset is Ruleset.ZERO and ac.side is Side.AXIS and ac.nation != JAPANESE and not mixed:
            return Term("dif.refuse.not_japanese", aircraft=ac.name)
        if ac.year > year:
            return Term("dif.refuse.too_early", aircraft=ac.name, service=ac.year, year=year)
        return None

    def element_refusal(
        self,
        ruleset: Ruleset,
        year: int,
        e: ElementSetup,
        *,
        mixed: bool = False,
        mission: bool = False,
    ) -> Term | None:
        """Why this element (aircraft, wingman, pilot) may not fly in such a game."""
        why = self.aircraft_refusal(ruleset, year, e.aircraft, e.side, mixed=mixed, mission=mission)
        if why is not None:
            return why
        ac = self.aircraft[e.aircraft]
        if e.wingman and ac.wingman is None:
            return Term("dif.refuse.no_wingman_card", aircraft=ac.name)
        if PilotSkill.G in e.pilot and not ac.leader_card.undamaged.gunner:
            return Term("dif.refuse.no_gunner", aircraft=ac.name)
        return None

    def new_game(self, setup: DifSetup, seed: int) -> tuple[GameState, list[Event]]:
        """Create a game (4.1-4.7). Raises SetupError for an impossible setup."""
        seats = [e.seat for e in setup.elements]
        if len(set(seats)) != len(seats):
            raise SetupError(Term("dif.setup.shared_seat"))
        for side in Side:
            if not any(e.side is side for e in setup.elements) and not self._side_may_be_empty(
                setup, side
            ):
                raise SetupError(Term("dif.setup.empty_side", side=side.phrase(setup.ruleset)))
        if setup.mission is not None:
            why = self.mission_refusal(setup.ruleset, setup.mission, set(seats))
            if why is not None:
                raise SetupError(why)
        elements: dict[str, Element] = {}
        count = 0
        mixed = setup.mixed is not False  # not chosen (an older setup): not checked
        mission = setup.mission is not None
        for e in setup.elements:
            why = self.element_refusal(setup.ruleset, setup.year, e, mixed=mixed, mission=mission)
            if why is not None:
                raise SetupError(why)
            ac = self.aircraft[e.aircraft]
            leader = Plane(f"{e.seat}L", ac.id, "leader", pilot=[k.value for k in e.pilot])
            wingman = Plane(f"{e.seat}W", ac.id, "wingman") if e.wingman else None
            el = Element(e.seat, e.side.value, ac.id, leader, wingman)
            # RotL L134, L326: a jet starts with Speed counters, a Bf-109G with one.
            el.counters = ac.counters_max
            el.cv = PilotSkill.CV in e.pilot
            elements[e.seat] = el
            count += 2 if e.wingman else 1
        rng = Rng(seed)
        deck = list(self.deck_ids[setup.ruleset])
        rng.shuffle(deck)
        state = GameState(
            ruleset=setup.ruleset.value,
            seed=seed,
            rng=rng.state,
            year=setup.year,
            max_turns=None if setup.to_the_death else 6,
            elements=elements,
            deck=deck,
            aircraft_at_start=count,
        )
        state.fates = fates.start(state)
        if setup.mission is not None:
            self._start_mission(state, setup.mission)
        if setup.vp_bonus:
            lower, vp = balance.vp_bonus(setup.elements, self.aircraft)
            if lower is not None:
                state.bonus = {lower.value: vp}
        for ref, hits in setup.hits.items():
            bomber = next((b for b in self._bombers(state) if b["ref"] == ref), None)
            if bomber is not None:
                self._hit_bomber(state, bomber, hits, [])
                continue
            plane = self._plane(state, ref)
            if plane is None:
                raise SetupError(f"no aircraft {ref}")
            self._hit(state, plane, hits, [])
        if setup.hands is not None:
            for seat, codes in setup.hands.items():
                if seat not in elements:
                    raise SetupError(f"no seat {seat}")
                elements[seat].hand = [self._take(state, c) for c in codes]
        if setup.deck_top:
            top = [self._take(state, c) for c in setup.deck_top]
            state.deck.extend(reversed(top))
        events = [Event("setup", self._setup_text(state))]
        if setup.altitudes is not None:
            for seat, alt in setup.altitudes.items():
                elements[seat].pick = int(alt)
        state.first_side = setup.first_side.value if setup.first_side else None
        preset_order = list(setup.order) if setup.order else None
        for p in setup.positions:
            self._set_pos(state, p.leader, p.on, int(p.position))
        self._maybe_reveal(state, events, order=preset_order)
        self._check_end(state, events)  # a raid by bombers alone runs to its end (§23.63)
        return state, events

    def _side_may_be_empty(self, setup: DifSetup, side: Side) -> bool:
        """A mission's side may fly no element: the attacker with a formation, the
        defender always (§24.43: "one team will only control the Anti-Aircraft guns")."""
        mission = setup.mission
        if mission is None:
            return False
        return side is mission.defender or any(f.side is side for f in mission.formations)

    def _take(self, state: GameState, code: str) -> int:
        for i in range(len(state.deck) - 1, -1, -1):
            if self.code[state.deck[i]] == code:
                return state.deck.pop(i)
        raise SetupError(f"no card {code} left in the deck")

    def _setup_text(self, state: GameState) -> Term:
        rs = Ruleset(state.ruleset)

        def names(side: Side) -> str:
            found = [self._el_label(state, e) for e in state.elements.values() if e.side == side]
            return ", ".join(found) or Term("dif.event.no_elements")  # a raid of bombers alone

        return Term(
            "dif.event.setup",
            year=state.year,
            axis=Side.AXIS.label(rs),
            axis_elements=names(Side.AXIS),
            allied=Side.ALLIED.label(rs),
            allied_elements=names(Side.ALLIED),
        )

    def apply(self, state: GameState, seat: str, action: Action) -> tuple[GameState, list[Event]]:
        """Apply one action; returns the new state and what happened.

        Raises :class:`RuleViolation` (naming the rule) and leaves ``state`` as it was.
        """
        if state.mission is None:
            return _apply(self._dogfight, state, seat, action)
        return _apply(self, state, seat, action)

    def default_action(self, state: GameState, seat: str) -> Action:
        """The passive choice a seat makes when it lets a decision go (a deadline, an
        absent player): no card spent, nothing risked.

        Medium for a secret altitude (RotL L57: choosing no marker means Medium), keep
        the first hand, name the first element still to play, no wingman attack, stay,
        do not follow, end the Play Cards step, discard nothing (and draw as the rules
        say), do not respond. Raises RuleViolation if ``seat`` has nothing to decide.
        """
        legal = self.legal_actions(state, seat)
        if not legal:
            raise RuleViolation(
                self.refusal(state, seat, Action.simple("pass")) or Term("dif.refuse.nothing_to_do")
            )
        texts = {str(a): a for a in legal}
        for text in _PASSIVE:
            if text in texts:
                return texts[text]
        nexts = [a for a in legal if a.verb == "next"]
        if nexts:
            return min(nexts, key=lambda a: list(state.elements).index(a.target or ""))
        return legal[0]

    def view(self, state: GameState, seat: str | None) -> DifView:
        """What ``seat`` may see (None: spectators). See :mod:`engine.dif.present`."""
        return build_view(self, state, seat)

    def is_over(self, state: GameState) -> bool:
        return state.step == "over"

    def replay(self, setup: DifSetup, seed: int, log: Iterable[tuple[str, str]]) -> GameState:
        """Rebuild a game from its setup, seed and ``(seat, action text)`` log."""
        state, _ = self.new_game(setup, seed)
        for seat, text in log:
            state, _ = self.apply(state, seat, Action.from_text(text))
        return state


@functools.cache
def default_engine() -> DifEngine:
    """The engine over the shipped components (loaded once)."""
    from engine.dif.loader import load_aircraft, load_decks

    return DifEngine(load_decks(), load_aircraft())
