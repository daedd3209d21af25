"""The 110 Maneuver cards (§2.2): the Maneuver section (name, symbols, Maneuver Rating,
number, special rule) and the Fire section (Fire Value and damage table, or "Guns
Jammed"), and the deck with the values the rulebook states (:data:`BOOK_CARDS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, NamedTuple

from pydantic import Field, field_validator, model_validator

from engine.eagles.enums import (
    DECK_SIZE,
    CardSpecial,
    DamageKind,
    DefenceClass,
    Frozen,
    Symbol,
    coerce,
)

__all__ = [
    "BOOK_CARDS",
    "BookCard",
    "Card",
    "DamageTable",
    "Deck",
]


class DamageTable(Frozen):
    """A card's damage table (§10.22): a row per target Defensive Class, each
    ``(1-Gun result, 2-Guns result)``. YAML: ``normal: [superficial, structure]``."""

    fragile: tuple[DamageKind, DamageKind]
    normal: tuple[DamageKind, DamageKind]
    sturdy: tuple[DamageKind, DamageKind]
    armored: tuple[DamageKind, DamageKind]

    @field_validator("fragile", "normal", "sturdy", "armored", mode="before")
    @classmethod
    def _codes(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return tuple(DamageKind.from_code(v) if isinstance(v, str) else v for v in value)
        return value

    def row(self, defence: DefenceClass) -> tuple[DamageKind, DamageKind]:
        """The (1-Gun, 2-Guns) results against ``defence``."""
        return (self.fragile, self.normal, self.sturdy, self.armored)[defence]

    def result(self, guns: int, defence: DefenceClass) -> DamageKind:
        """The result for ``guns`` (1, or 2 and more: the "2-Guns" column) firing at
        ``defence``."""
        if guns < 1:
            raise ValueError("no gun fired: there is no damage column for 0 guns")
        return self.row(defence)[0 if guns == 1 else 1]


class Card(Frozen):
    """One of the 110 Maneuver cards (§2.2): the Maneuver section (name, symbols,
    Maneuver Rating, number, special rule) and the Fire section (a Fire Value with a
    damage table, or "Guns Jammed")."""

    number: int = Field(ge=1, le=DECK_SIZE, description="card number, 1-110, unique")
    name: str = Field(min_length=1, description="the Maneuver's name, e.g. 'Zoom Climb'")
    symbols: tuple[Annotated[Symbol, coerce(Symbol)], ...] = Field(
        min_length=1, description="Performance symbols; usable with any one of them"
    )
    rating: int = Field(ge=1, le=4, description="the Maneuver Rating (MR)")
    special: Annotated[CardSpecial, coerce(CardSpecial)] | None = Field(
        default=None, description="the card's special rule, if any"
    )
    fire: int | None = Field(ge=1, le=6, description="Fire Value; None = 'Guns Jammed'")
    damage: DamageTable | None = Field(description="damage table; None for Guns Jammed")

    @property
    def jammed(self) -> bool:
        """A "Guns Jammed" card (§10.71): no Fire Value, no damage table."""
        return self.fire is None

    def has(self, symbol: Symbol) -> bool:
        """Whether the card shows ``symbol``."""
        return symbol in self.symbols

    def responds_to(self, symbol: Symbol) -> bool:
        """Whether this card may Respond to an Activation made with ``symbol``: the same
        symbol, or a Snap Turn against Speed, a Barrel Roll against Agility (§8.43). A
        Falling Leaf is only ever a Targeted Activation (§8.31), never a Response. Who
        may respond at all (Green pilots, Head-on attacks, Richthofen) is a rule."""
        if self.special is CardSpecial.FALLING_LEAF:
            return False
        if symbol in self.symbols:
            return True
        if self.special is CardSpecial.SNAP_TURN and symbol is Symbol.SPEED:
            return True
        return self.special is CardSpecial.BARREL_ROLL and symbol is Symbol.AGILITY

    def damage_for(self, guns: int, defence: DefenceClass) -> DamageKind:
        """The damage-table result for ``guns`` firing at ``defence`` (§10.22). Raises
        ValueError on a Guns Jammed card."""
        if self.damage is None:
            raise ValueError(f"card {self.number} ({self.name}) is Guns Jammed: no damage table")
        return self.damage.result(guns, defence)

    def hits(self, fire_value: int) -> bool:
        """Whether fire at ``fire_value`` hits with this card: its printed FV is less
        than or equal to it (§10.21). A Guns Jammed card never hits."""
        return self.fire is not None and self.fire <= fire_value

    @model_validator(mode="after")
    def _consistent(self) -> Card:
        if len(set(self.symbols)) != len(self.symbols):
            raise ValueError("symbols: list each symbol once")
        if (self.fire is None) != (self.damage is None):
            raise ValueError("a card has both a Fire Value and a damage table, or neither")
        needs = {
            CardSpecial.FALLING_LEAF: Symbol.DIVE,
            CardSpecial.SNAP_TURN: Symbol.AGILITY,
            CardSpecial.BARREL_ROLL: Symbol.SPEED,
        }
        if self.special in needs and needs[self.special] not in self.symbols:
            raise ValueError(f"a {self.special.value} card shows the {needs[self.special]} symbol")
        if self.special is CardSpecial.MEDAL and self.rating != 4:
            raise ValueError("a Medal Maneuver always has Maneuver Rating 4 (§8.14)")
        return self


class BookCard(NamedTuple):
    """What the rulebook states about a named card: it shows at least ``symbols``
    (exactly them if ``exact``), has Maneuver Rating ``rating`` (None: not stated)
    and the special rule ``special``."""

    symbols: frozenset[Symbol]
    exact: bool
    rating: int | None
    special: CardSpecial | None
    source: str


BOOK_CARDS: Mapping[str, BookCard] = {
    "Zoom Climb": BookCard(frozenset({Symbol.CLIMB}), True, 3, None, "L323, L694"),
    "Half Loop": BookCard(frozenset({Symbol.CLIMB, Symbol.DIVE}), True, 3, None, "L350"),
    "Steep Dive": BookCard(frozenset({Symbol.DIVE}), True, 2, None, "L350"),
    "Medal Maneuver": BookCard(
        frozenset({Symbol.DIVE, Symbol.SPEED}), False, 4, CardSpecial.MEDAL, "L321, L350, L429"
    ),
    "Shallow Dive": BookCard(frozenset({Symbol.SPEED}), True, 2, None, "L383, L429"),
    "Snap Turn": BookCard(frozenset({Symbol.AGILITY}), True, 3, CardSpecial.SNAP_TURN, "L380"),
    "Barrel Roll": BookCard(frozenset({Symbol.SPEED}), True, None, CardSpecial.BARREL_ROLL, "L381"),
    "Full Throttle": BookCard(frozenset({Symbol.SPEED}), True, 1, None, "L429"),
    "Tight Turn": BookCard(frozenset({Symbol.AGILITY}), True, 2, None, "L431"),
    "Vertical Roll": BookCard(frozenset({Symbol.CLIMB}), False, 2, None, "L692"),
    "Falling Leaf": BookCard(
        frozenset({Symbol.DIVE}), False, None, CardSpecial.FALLING_LEAF, "§8.3, §11.31"
    ),
}
"""Every card value the rulebook states (``data/eagles/SOURCES.md`` section 1.1)."""


class Deck(Frozen):
    """The 110 Maneuver cards (§2.0, §2.2), numbered 1-110."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    cards: tuple[Card, ...]

    @property
    def by_number(self) -> dict[int, Card]:
        """Cards keyed by number."""
        return {card.number: card for card in self.cards}

    def card(self, number: int) -> Card:
        """The card numbered ``number``; KeyError if there is none."""
        for card in self.cards:
            if card.number == number:
                return card
        raise KeyError(number)

    @property
    def names(self) -> frozenset[str]:
        """Every card name in the deck."""
        return frozenset(card.name for card in self.cards)

    @property
    def jams(self) -> tuple[Card, ...]:
        """The Guns Jammed cards."""
        return tuple(card for card in self.cards if card.jammed)

    def numbers(self) -> list[int]:
        """Every card number in file order (shuffle before use)."""
        return [card.number for card in self.cards]

    @field_validator("cards")
    @classmethod
    def _numbered_and_as_printed(cls, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        numbers = [card.number for card in cards]
        duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
        if duplicates:
            raise ValueError(f"card numbers used twice: {duplicates}")
        missing = sorted(set(range(1, DECK_SIZE + 1)) - set(numbers))
        if missing or len(numbers) != DECK_SIZE:
            raise ValueError(f"the deck is cards 1-{DECK_SIZE}; missing {missing}")
        problems: list[str] = []
        for name, book in BOOK_CARDS.items():
            named = [card for card in cards if card.name == name]
            if not named:
                problems.append(f"no {name!r} card (the rulebook names it, {book.source})")
            for card in named:
                symbols = set(card.symbols)
                if (book.exact and symbols != book.symbols) or not book.symbols <= symbols:
                    shown = "/".join(sorted(book.symbols))
                    problems.append(
                        f"card {card.number} {name}: the book gives {shown} ({book.source})"
                    )
                if book.rating is not None and card.rating != book.rating:
                    problems.append(
                        f"card {card.number} {name}: Maneuver Rating {card.rating}, "
                        f"the book gives {book.rating} ({book.source})"
                    )
                if card.special is not book.special:
                    problems.append(
                        f"card {card.number} {name}: special must be {book.special or 'none'}"
                    )
        for card in cards:
            if card.special is not None and card.name not in BOOK_CARDS:
                problems.append(
                    f"card {card.number} {card.name}: only the book's named cards have {card.special}"
                )
        if not any(c.has(Symbol.SPEED) and c.rating >= 3 for c in cards):
            problems.append("no Speed card with Maneuver Rating 3 or 4 (the book has some, L842)")
        if problems:
            raise ValueError("; ".join(problems))
        return cards
