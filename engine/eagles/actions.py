"""Eagles in the Sky actions and their canonical text, like chess notation.

Every decision a seat takes has one short text form that round-trips:
``Action.from_text(str(a)) == a``. It is what the action log stores, what
conformance vectors use and what a player may type (``/play``). Aircraft are named
by reference (``A1``: the first Allied aircraft, ``G3``), cards by their number
(1-110), a card's Performance symbol by its letter (``C`` Climb, ``D`` Dive, ``S``
Speed, ``A`` Agility) after the number: ``37D`` plays card 37 as a Dive Maneuver.

==========================================  ==========================================
text                                        meaning (rule)
==========================================  ==========================================
``tail A1 37D G2``                          Targeted Activation of A1 against G2
                                            (§8.2): begin, join or fight a dogfight
``headon A1 37S G2``                        Head-on Attack (§10.4)
``leaf A1 37 G2``                           Falling Leaf against G2, which tails A1
                                            (§8.3)
``escape A1 37D [G2]``                      Escape (§12): Untargeted, or Targeted at the
                                            aircraft tailing A1
``strafe A1 37S ground``                    Strafe the trenches or the airfield (§15.1,
                                            §16.45, §16.47); ``strafe A1 37D G4``: an
                                            aircraft on the ground (§16.47)
``bomb A1 37``                              drop bombs from Treetop (§16.45)
``balloon A1 37S G9 4 [rockets]``           attack balloon G9 with a chosen Fire Value
                                            (§15.27), with Le Prieur rockets (§15.5)
``dive A1 37D`` / ``climb A1 37C``          change altitude (§11.3, §11.4)
``clear A1 37``                             try to clear every jammed gun (§10.73,
                                            §10.75)
``reload A1 37``                            reload a Lewis gun (§15.44)
``idle A1 37``                              an Untargeted Activation doing nothing
                                            (§8.51); it spots, photographs or patrols
                                            where the Engagement scores that (§16.4)
``takeoff A1 37``                           take off from the airfield (§16.47)
``pass``                                    pass the Activation (§4.4), or answer a
                                            Targeted Activation with no Response
                                            (§8.42); ``pass hold``: and hold fire
``allow``                                   let the aircraft escaping you escape
                                            (§12.16)
``end``                                     end the Activation Phase: only you can
                                            still activate (§4.4)
``offer`` / ``accept`` / ``refuse``         propose to end the Activation Phase by
                                            mutual consent (§4.4), and the answer;
                                            ``accept`` / ``refuse`` a campaign's
                                            Withdrawal (Campaign §12.10)
``respond 37A``                             a Response card (§8.4)
``follow`` / ``stay``                       follow an altitude change or not (§11.51,
                                            §15.26)
``discard [CARD ...]``                      the Card Draw Phase's discards (§7.2)
``place M``                                 where an added aircraft appears (§5.1)
``remove A3``                               which aircraft a Remove Aircraft takes
                                            (§5.1), or has a campaign's "Engine
                                            Trouble" (Campaign §12.3)
``convert wing``                            Fonck turns his hit into another (§18.0)
==========================================  ==========================================

Flags after an activation or a response: ``hold`` (hold fire: firing is voluntary,
§10.14: fire is declared with the card, see docs/rules-decisions.md), ``giveup``
(give up the position held before activating, §8.25 note), ``jettison`` (jettison
bombs first, §15.32), ``+1`` (Rickenbacker's or Collishaw's +1, §18.0), ``change``
(an Escape with a Climb or Dive card that also changes altitude, §12.14), ``gunner``
(the gunner tries to clear his jammed guns during a Targeted Activation, §10.75),
``sun`` (a campaign's Out of the Sun: the target may not Respond, Campaign §12.7). A card
played as another (Voss's Snap Turn, Udet's Medal Maneuver, §18.0) is written
``37=snap`` / ``37=medal``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.errors import MalformedAction
from strings import Term

__all__ = ["ACTIVATIONS", "SYMBOL_CODES", "Action"]

REF = re.compile(r"^[AG][0-9]{1,2}$")
_CARD = re.compile(r"^([0-9]{1,3})([CDSA])?(?:=(snap|medal))?$")
SYMBOL_CODES = {"C": "climb", "D": "dive", "S": "speed", "A": "agility"}
_CODE_OF = {v: k for k, v in SYMBOL_CODES.items()}

TARGETED = frozenset({"tail", "headon", "leaf", "strafe", "bomb", "balloon"})
UNTARGETED = frozenset({"dive", "climb", "clear", "reload", "idle", "takeoff"})
ACTIVATIONS = TARGETED | UNTARGETED | {"escape", "lower"}
"""Verbs that activate an aircraft (it plays a card and is flipped, §8.12)."""
_BARE = frozenset({"pass", "end", "follow", "stay", "allow", "offer", "accept", "refuse"})
_FLAGS = ("hold", "giveup", "jettison", "+1", "rockets", "change", "gunner", "sun")
_KINDS = ("wing", "control", "engine", "crew")
_ALTITUDES = ("T", "L", "M", "H")


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat. Build with :meth:`from_text` or the fields."""

    verb: str
    plane: str | None = None
    """The activated aircraft."""
    card: int | None = None
    """The card played (its number)."""
    symbol: str | None = None
    """The Performance Rating the card is used with (``climb``...), when it matters."""
    as_card: str | None = None
    """``snap`` / ``medal``: the card is played as a Snap Turn or a Medal Maneuver."""
    target: str | None = None
    """The aircraft aimed at, or ``ground`` (trenches, airfield)."""
    fv: int = 0
    """The Fire Value chosen against a balloon (§15.27)."""
    flags: tuple[str, ...] = ()
    cards: tuple[int, ...] = ()
    """Cards discarded (``discard``)."""
    word: str | None = None
    """``place``: an altitude code; ``remove``: a ref; ``convert``: a damage kind."""

    def has(self, flag: str) -> bool:
        return flag in self.flags

    # -- text -----------------------------------------------------------------------
    def card_token(self) -> str:
        out = str(self.card)
        if self.symbol:
            out += _CODE_OF[self.symbol]
        if self.as_card:
            out += f"={self.as_card}"
        return out

    def __str__(self) -> str:
        v = self.verb
        if v in _BARE:
            return " ".join([v, *self.flags])
        if v == "discard":
            return " ".join(["discard", *(str(c) for c in self.cards)])
        if v == "lower":
            return f"lower {self.plane}"
        if v in ("place", "remove", "convert"):
            return f"{v} {self.word}"
        if v == "respond":
            return " ".join(["respond", self.card_token(), *self.flags])
        parts = [v, self.plane or "", self.card_token()]
        if self.target:
            parts.append(self.target)
        if v == "balloon":
            parts.append(str(self.fv))
        parts.extend(self.flags)
        return " ".join(parts)

    @classmethod
    def from_text(cls, text: str) -> Action:
        words = text.split()
        if not words:
            raise MalformedAction(Term("eagles.malformed.empty"))
        verb, rest = words[0].lower(), words[1:]
        if verb in _BARE:
            if verb == "pass" and rest:
                return cls(verb, flags=_flags(rest, ("hold",)))
            if rest:
                raise MalformedAction(Term("eagles.malformed.bare", verb=verb))
            return cls(verb)
        if verb == "lower":
            if len(rest) != 1 or not REF.match(rest[0].upper()):
                raise MalformedAction(Term("eagles.malformed.lower"))
            return cls("lower", plane=rest[0].upper())
        if verb == "discard":
            try:
                cards = tuple(int(w) for w in rest)
            except ValueError:
                raise MalformedAction(Term("eagles.malformed.discard")) from None
            return cls("discard", cards=cards)
        if verb == "place":
            if len(rest) != 1 or rest[0].upper() not in _ALTITUDES:
                raise MalformedAction(Term("eagles.malformed.place"))
            return cls("place", word=rest[0].upper())
        if verb == "remove":
            if len(rest) != 1 or not REF.match(rest[0].upper()):
                raise MalformedAction(Term("eagles.malformed.remove"))
            return cls("remove", word=rest[0].upper())
        if verb == "convert":
            if len(rest) != 1 or rest[0].lower() not in _KINDS:
                raise MalformedAction(Term("eagles.malformed.convert"))
            return cls("convert", word=rest[0].lower())
        if verb == "respond":
            if not rest:
                raise MalformedAction(Term("eagles.malformed.respond"))
            card, symbol, as_card = _card(rest[0])
            flags = _flags(rest[1:], ("hold", "+1"))
            return cls("respond", card=card, symbol=symbol, as_card=as_card, flags=flags)
        if verb not in ACTIVATIONS:
            raise MalformedAction(Term("eagles.malformed.verb", verb=words[0][:20]))
        if len(rest) < 2 or not REF.match(rest[0].upper()):
            raise MalformedAction(Term("eagles.malformed.activation", verb=verb))
        plane = rest[0].upper()
        card, symbol, as_card = _card(rest[1])
        tail = rest[2:]
        target: str | None = None
        fv = 0
        if tail and (REF.match(tail[0].upper()) or tail[0].lower() == "ground"):
            target = tail[0].upper() if tail[0].lower() != "ground" else "ground"
            tail = tail[1:]
        if verb == "balloon":
            if not tail or not tail[0].isdigit():
                raise MalformedAction(Term("eagles.malformed.balloon"))
            fv, tail = int(tail[0]), tail[1:]
        if verb in TARGETED and target is None:
            raise MalformedAction(Term("eagles.malformed.target", verb=verb))
        if verb in UNTARGETED and target is not None:
            raise MalformedAction(Term("eagles.malformed.untargeted", verb=verb))
        flags = _flags(tail, _FLAGS)
        return cls(
            verb,
            plane=plane,
            card=card,
            symbol=symbol,
            as_card=as_card,
            target=target,
            fv=fv,
            flags=flags,
        )


def _card(token: str) -> tuple[int, str | None, str | None]:
    m = _CARD.match(token.upper().replace("=SNAP", "=snap").replace("=MEDAL", "=medal"))
    if not m:
        raise MalformedAction(Term("eagles.malformed.card", card=token[:12]))
    symbol = SYMBOL_CODES[m.group(2)] if m.group(2) else None
    return int(m.group(1)), symbol, m.group(3)


def _flags(words: list[str], allowed: tuple[str, ...]) -> tuple[str, ...]:
    flags = tuple(w.lower() for w in words)
    for f in flags:
        if f not in allowed:
            raise MalformedAction(Term("eagles.malformed.flag", flag=f[:12]))
    if len(set(flags)) != len(flags):
        raise MalformedAction(Term("eagles.malformed.flag", flag=flags[0]))
    # Canonical order: the order of ``_FLAGS``.
    return tuple(f for f in _FLAGS if f in flags)
