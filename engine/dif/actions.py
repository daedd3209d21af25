"""Down in Flames actions and their canonical text, like chess notation.

Every action a seat can take has one short text form that round-trips:
``Action.from_text(str(a)) == a``. The text is what the action log stores, what
exports and conformance vectors use, and what players may type (``/play``).

============================  ==============================================
text                          meaning
============================  ==============================================
``alt M``                     secret starting altitude: VL, L, M, H, VH (4.5)
``wm X1L``                    the wingman attacks this aircraft (3.1, 10.1)
``skip``                      skip the wingman attack step
``stay`` / ``dive``           adjust altitude: none, or down one level (7.21)
``climb MAN``                 up one level, discarding the named card (7.21b)
``follow [CARD ...]``         follow the enemy's altitude change, paying these
                              discards (7.21d, 7.22)
``nofollow``                  do not follow; become Neutral (7.24)
``play MAN X1L``              play a card at an aircraft (8.2)
``play MAN=SCI X1L``          an agile aircraft plays a card as Scissors (6.35)
``play TIT=FUT X1L``          a Ta-152H-1 at Very High plays a card as Full
                              Throttle (RotL L330-332)
``play FTC X1L``              play a Full Throttle counter like a FUT card
                              (jets, Bf-109G methanol; RotL L165, L326)
``play VER up [CARD]``        Vertical Roll altitude change; climbing names the
                              card discarded for it (7.22)
``respond TIT``               respond to the last card played (8.3, 8.4)
``respond OOS=ACE``           a pilot with skill A declares "this is an Ace
                              Pilot" (RotL "Pilots", Zero! 19.25)
``pass``                      do not respond
``giveup``                    give up Advantaged/Tailing, become Neutral (6.36)
``evade``                     voluntary evasion instead of playing a card (12.1)
``done``                      end this step (wingman attack or playing cards)
``discard [CARD ...]``        the discard step; nothing named keeps every card
``next A2``                   turn 1: the side choosing names its element that
                              plays next (4.7)
``redraw [CARD ...]``         Combat Vision: discard these and draw as many,
                              once, before play starts (RotL "Pilots")
``abandon`` / ``continue``    a campaign mission: the element Abandons, or flies
                              Over the Target (Zero! 23.51)
``jettison`` / ``keep``       jettison the element's bombs, or keep them (15.2)
``bomb`` / ``strafe``         drop the bombs, strafe the target (21.1, 21.7)
``hold``                      neither bomb nor strafe (22.21: AA all the same)
============================  ==============================================

Aircraft are named by their element's seat plus ``L`` (leader) or ``W`` (wingman);
cards by their type code (``MAN``, ``IMS-2B3D``, ``IMS-2BFT``, and ``FTC`` for a Full
Throttle counter); when a hand holds two copies of a code, the lowest-numbered copy is
played.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from engine.core.errors import MalformedAction
from strings import Term

__all__ = [
    "AS_KINDS",
    "BOMBER_REF",
    "CARD_CODE",
    "COUNTER",
    "PLANE_REF",
    "QUOTE_LIMIT",
    "SEAT_REF",
    "Action",
    "clipped",
    "quoted",
]

CARD_CODE = re.compile(r"^(?:(?:IMS|OOS)-[1-3]B(?:[0-9]D|FT)|MAN|HAL|SCI|VER|FUT|TIT|BAR|ACE|FTC)$")
PLANE_REF = re.compile(r"^[A-Z][0-9]{1,2}[LW]$")
BOMBER_REF = re.compile(r"^[A-Z][0-9]{1,2}B[1-3]$")
"""A bomber of a mission's formation: its seat and its number (``X3B1``, §17.22)."""
SEAT_REF = re.compile(r"^[A-Z][0-9]{1,2}$")
COUNTER = "FTC"
"""The code of a Full Throttle counter, played and paid like a card."""
AS_KINDS = ("SCI", "FUT", "ACE")
"""What a card may be declared as: agile (SCI), Ta-152H-1 (FUT), Ace pilot (ACE)."""
ANGLES = ("frontal", "beam", "rear")
"""The Angles of Attack against a formation (Zero! §20.31), as ``angle <name>`` writes them."""
QUOTE_LIMIT = 40
"""The most characters of a player's input a message quotes (a 3 MB ``/play`` text
must not come back as a 6 MB refusal)."""
_ALTITUDES = ("VL", "L", "M", "H", "VH")
_BARE = frozenset(
    {
        "skip",
        "stay",
        "dive",
        "nofollow",
        "pass",
        "giveup",
        "evade",
        "done",
        "abandon",
        "continue",
        "jettison",
        "keep",
        "bomb",
        "strafe",
        "hold",
    }
)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat. Build with the classmethods or :meth:`from_text`."""

    verb: str
    card: str | None = None
    """Card code played, responded with, or discarded to climb."""
    as_kind: str | None = None
    """The card is played as another: ``SCI`` (agile, 6.35), ``FUT`` (Ta-152H-1 at
    Very High) or ``ACE`` (a pilot's Ace ability)."""
    target: str | None = None
    """Plane reference (``X1L``) for ``wm`` and ``play``."""
    arg: str | None = None
    """Altitude code for ``alt``; ``up``/``down`` for a Vertical Roll."""
    cards: tuple[str, ...] = ()
    """Extra cards: discards for ``follow``, ``discard`` and a climbing VER (sorted for
    ``follow``, ``discard`` and ``redraw``: one text per move)."""

    @property
    def as_sci(self) -> bool:
        return self.as_kind == "SCI"

    # -- constructors -------------------------------------------------------------
    @classmethod
    def simple(cls, verb: str) -> Action:
        return _action(verb)

    @classmethod
    def altitude(cls, code: str) -> Action:
        return _action("alt", None, None, None, code)

    @classmethod
    def wingman(cls, target: str) -> Action:
        return _action("wm", None, None, target)

    @classmethod
    def climb(cls, card: str) -> Action:
        return _action("climb", card)

    @classmethod
    def follow(cls, cards: tuple[str, ...] = ()) -> Action:
        return _action("follow", None, None, None, None, tuple(sorted(cards)))

    @classmethod
    def play(
        cls, card: str, target: str, *, as_sci: bool = False, as_kind: str | None = None
    ) -> Action:
        return _action("play", card, "SCI" if as_sci else as_kind, target)

    @classmethod
    def vertical(cls, direction: str, discard: str | None = None) -> Action:
        return _action("play", "VER", None, None, direction, (discard,) if discard else ())

    @classmethod
    def angle(cls, name: str) -> Action:
        """Zero! §20.31: the Angle of Attack declared before attacking a formation."""
        return cls("angle", arg=name)

    @classmethod
    def respond(cls, card: str, *, as_sci: bool = False, as_kind: str | None = None) -> Action:
        return _action("respond", card, "SCI" if as_sci else as_kind)

    @classmethod
    def next(cls, seat: str) -> Action:
        return _action("next", None, None, seat)

    @classmethod
    def redraw(cls, cards: tuple[str, ...] = ()) -> Action:
        return _action("redraw", None, None, None, None, tuple(sorted(cards)))

    @classmethod
    def discard(cls, cards: tuple[str, ...] = ()) -> Action:
        return _action("discard", None, None, None, None, tuple(sorted(cards)))

    # -- text -----------------------------------------------------------------------
    def __str__(self) -> str:
        v = self.verb
        if v in _BARE:
            return v
        if v == "alt":
            return f"alt {self.arg}"
        if v == "wm":
            return f"wm {self.target}"
        if v == "climb":
            return f"climb {self.card}"
        if v in ("follow", "discard", "redraw"):
            return " ".join((v, *self.cards))
        if v == "next":
            return f"next {self.target}"
        if v == "angle":
            return f"angle {self.arg}"
        card = f"{self.card}={self.as_kind}" if self.as_kind else str(self.card)
        if v == "respond":
            return f"respond {card}"
        if self.arg is not None:  # play VER up|down [discard]
            return " ".join(("play", card, self.arg, *self.cards))
        return f"play {card} {self.target}"

    def __repr__(self) -> str:
        return f"Action.from_text({str(self)!r})"

    @classmethod
    def from_text(cls, text: str) -> Action:
        """Parse canonical text (case of verbs and codes is forgiven)."""
        words = text.strip().split()
        if not words:
            raise MalformedAction(Term("dif.action.empty"))
        verb, args = words[0].lower(), [w.upper() for w in words[1:]]
        if verb in _BARE:
            if args:
                raise MalformedAction(Term("dif.action.bare", text=quoted(text), verb=verb))
            return cls(verb)
        if verb == "alt":
            if len(args) != 1 or args[0] not in _ALTITUDES:
                raise MalformedAction(Term("dif.action.alt", text=quoted(text)))
            return cls.altitude(args[0])
        if verb == "wm":
            if len(args) != 1:
                raise MalformedAction(Term("dif.action.wm", text=quoted(text)))
            return cls.wingman(_ref(args[0], text))
        if verb == "climb":
            if len(args) != 1:
                raise MalformedAction(Term("dif.action.climb", text=quoted(text)))
            return cls.climb(_code(args[0], text))
        if verb in ("follow", "discard", "redraw"):
            codes = tuple(_code(a, text) for a in args)
            if verb == "follow":
                return cls.follow(codes)
            return cls.discard(codes) if verb == "discard" else cls.redraw(codes)
        if verb == "angle":
            if len(args) != 1 or args[0].lower() not in ANGLES:
                raise MalformedAction(Term("dif.action.angle", text=quoted(text)))
            return cls.angle(args[0].lower())
        if verb == "next":
            if len(args) != 1 or not SEAT_REF.match(args[0]):
                raise MalformedAction(Term("dif.action.next", text=quoted(text)))
            return cls.next(args[0])
        if verb in ("play", "respond"):
            if not args:
                raise MalformedAction(Term("dif.action.no_card", text=quoted(text)))
            card, _, as_kind = args[0].partition("=")
            if as_kind and as_kind not in AS_KINDS:
                raise MalformedAction(
                    Term("dif.action.as_kind", text=quoted(text), kinds=", ".join(AS_KINDS))
                )
            card = _code(card, text)
            if as_kind and card == COUNTER:
                raise MalformedAction(Term("dif.action.counter_as", text=quoted(text)))
            if verb == "respond":
                if len(args) != 1:
                    raise MalformedAction(Term("dif.action.respond", text=quoted(text)))
                return cls.respond(card, as_kind=as_kind or None)
            if len(args) >= 2 and args[1] in ("UP", "DOWN"):
                if card != "VER" or as_kind or len(args) > 3:
                    raise MalformedAction(Term("dif.action.vertical", text=quoted(text)))
                discard = _code(args[2], text) if len(args) == 3 else None
                return cls.vertical(args[1].lower(), discard)
            if len(args) != 2:
                raise MalformedAction(Term("dif.action.play", text=quoted(text)))
            return cls.play(card, _ref(args[1], text), as_kind=as_kind or None)
        raise MalformedAction(Term("dif.action.unknown", text=quoted(text), verb=clipped(verb)))


@functools.lru_cache(maxsize=8192)
def _action(
    verb: str,
    card: str | None = None,
    as_kind: str | None = None,
    target: str | None = None,
    arg: str | None = None,
    cards: tuple[str, ...] = (),
) -> Action:
    """The one :class:`Action` of these fields, made once and kept (the last 8192).

    An action is an immutable value (a frozen dataclass), so one object may stand for
    a move wherever it appears; ``legal_actions`` offers the same few moves at every
    decision, and a kept one costs a dictionary lookup instead of a construction.
    The constructors pass every field by position, in :class:`Action`'s order: the
    cache's key of keyword arguments costs about twice as much to build."""
    return Action(verb, card, as_kind, target, arg, cards)


def clipped(text: str) -> str:
    """``text`` for a message: whole if short, else its first :data:`QUOTE_LIMIT`
    characters and an ellipsis."""
    return text[:QUOTE_LIMIT] + "…" if len(text) > QUOTE_LIMIT else text


def quoted(text: str) -> str:
    """:func:`clipped`, in quotes (``repr``)."""
    return repr(clipped(text))


def _code(word: str, text: str) -> str:
    if not CARD_CODE.match(word):
        raise MalformedAction(Term("dif.action.not_card", text=quoted(text), word=quoted(word)))
    return word


def _ref(word: str, text: str) -> str:
    """A leader's or wingman's ref, or a bomber's (Zero! §20.11: fighters attack bombers)."""
    if not (PLANE_REF.match(word) or BOMBER_REF.match(word)):
        raise MalformedAction(Term("dif.action.not_aircraft", text=quoted(text), word=quoted(word)))
    return word
