"""What every layer of the engine reads: the components, the draw pile, narration.

:class:`Base` holds the loaded components. A layer of the engine (combat, the mat,
the turn) is a mixin over it; :class:`~engine.eagles.game.EaglesEngine` joins them.
An action runs on a clone of the state with one :class:`~engine.core.rng.Rng`
(:class:`Run`), whose state is written back when the action is done.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.events import Event
from engine.core.rng import Rng
from engine.eagles.components import Aircraft, Card, FlightLeader
from engine.eagles.loader import Components
from engine.eagles.state import GameState, Plane
from strings import Term

__all__ = ["Base", "Run"]


@dataclass(slots=True)
class Run:
    """One action being applied: the new state, its generator and what happened."""

    state: GameState
    rng: Rng
    events: list[Event] = field(default_factory=list)

    def say(self, key: str, kind: str = "info", **fields: Any) -> None:
        """A public line of narration (``eagles.<key>``)."""
        self.events.append(Event(kind, Term(f"eagles.{key}", **words(fields))))

    def tell(self, side: str, key: str, kind: str = "private", **fields: Any) -> None:
        """A line for ``side``'s seats only (the cards it drew)."""
        for seat in self.state.seats.get(side, []):
            self.events.append(Event(kind, Term(f"eagles.{key}", **words(fields)), seat=seat))


_CODED = {
    "altitude": "altitude",
    "side": "side",
    "winner": "side",
    "result": "damage",
    "rating": "rating",
    "why": "cause",
    "cause": "cause",
    "event": "event",
    "engagement": "engagement",
    "zone": "zone",
    "group": "guns",
    "who": "crewman",
    "weather": "weather",
    "attacker": "side",
    "special": "special_event",
    "instead": "special_event",
}
"""Narration fields that hold a code (``"M"``, ``"allied"``, ``"wing"``): each is
shown as the catalogue's word for it (``eagles.altitude.M``), in the reader's
language."""
_ALTITUDE_CODES = "TLMH"


def words(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` with every coded value turned into its word (a Term)."""
    out = dict(fields)
    for name, group in _CODED.items():
        value = out.get(name)
        if value is None or value == "-":
            continue
        if group == "altitude" and isinstance(value, int):
            value = _ALTITUDE_CODES[value]
        out[name] = Term(f"eagles.{group}.{value}")
    return out


class Base:
    """The rules' access to the components."""

    def __init__(self, components: Components) -> None:
        self.components = components
        self.cards: Mapping[int, Card] = components.deck.by_number
        self.aircraft: Mapping[str, Aircraft] = components.aircraft
        self.leaders: Mapping[str, FlightLeader] = components.leaders
        self.tables = components.tables

    # -- lookups ----------------------------------------------------------------------
    def ac(self, p: Plane) -> Aircraft:
        return self.aircraft[p.aircraft]

    def name(self, p: Plane) -> str:
        """How narration names an aircraft: ``SPAD XIII (A1)``."""
        if p.balloon:
            return f"Balloon ({p.ref})"
        return f"{self.aircraft[p.aircraft].name} ({p.ref})"

    def card_name(self, number: int) -> str:
        card = self.cards[number]
        return f"{card.name} ({number})"

    def leader_rating(self, p: Plane, which: str) -> int:
        """A Flight Leader's or Ace's Leadership or Flying Rating (``which``), one lower
        while he is wounded (§10.87) and one lower when Exhausted (Campaign §8.22),
        never below 0; 0 for any other pilot."""
        if p.leader is None or p.quality not in ("leader", "ace"):
            return 0
        value: int = getattr(self.leaders[p.leader], which)
        if p.crew.get("pilot") == "wounded":
            value -= 1
        if p.exhausted:
            value -= 1
        return max(value, 0)

    def flying_rating(self, p: Plane) -> int:
        return self.leader_rating(p, "flying")

    def ace_glory(self, leader: str) -> int:
        """The Glory Points for shooting him down (§14.63)."""
        return self.leaders[leader].glory or 0

    @staticmethod
    def weather(state: GameState) -> str:
        """The weather in play (§3.8): ``clear`` unless the option drew another, or a
        campaign's Special Event changed it (§12.2, §12.9)."""
        return str(state.weather or state.setup.get("weather") or "clear")

    def weather_for(self, state: GameState, p: Plane) -> str:
        """The weather when ``p`` left the mat, or now: a Special Event may have
        changed it on a later turn (its Safe Return reads it, Campaign §12.9)."""
        left = p.escaped_turn or p.lost_turn
        if state.weather_turn is not None and left is not None and left < state.weather_turn:
            return str(state.setup.get("weather") or "clear")
        return self.weather(state)

    @staticmethod
    def in_campaign(state: GameState) -> bool:
        """A Campaign Game's Engagement (``EaglesSetup.campaign``)."""
        return bool(state.setup.get("campaign"))

    # -- the deck ---------------------------------------------------------------------
    def draw(self, run: Run) -> Card:
        """The top card of the draw pile, to the discards; the discards are shuffled
        into a new pile when it runs out (§3.91)."""
        s = run.state
        if not s.deck:
            s.deck, s.discards = s.discards, []
            run.rng.shuffle(s.deck)
            run.say("reshuffle")
        number = s.deck.pop()
        s.discards.append(number)
        return self.cards[number]

    def draw_to_hand(self, run: Run, side: str, n: int) -> list[int]:
        """Deal ``n`` cards to ``side``'s hand (told to that side only)."""
        s = run.state
        got: list[int] = []
        for _ in range(n):
            if not s.deck:
                if not s.discards:
                    break
                s.deck, s.discards = s.discards, []
                run.rng.shuffle(s.deck)
                run.say("reshuffle")
            got.append(s.deck.pop())
        s.hands.setdefault(side, []).extend(got)
        if got:
            run.tell(side, "drew", cards=", ".join(self.card_name(c) for c in got))
        return got

    def play_card(self, s: GameState, side: str, number: int) -> None:
        """A card leaves ``side``'s hand for the discards."""
        s.hands[side].remove(number)
        s.discards.append(number)
