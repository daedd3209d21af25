"""Locked-On actions and their canonical text, like chess notation.

Every decision a seat takes has one short text form that round-trips:
``Action.from_text(str(a)) == a``. It is what the action log stores, what
conformance vectors use and what a player may type (``/play``).

=================================  ===================================================
text                               meaning (rulebook line)
=================================  ===================================================
``alt M``                          secret starting altitude: L, M, H (L76)
``angle HS B1``                    90° / 0° Angle (campaigns): begin at Heat Seeking
                                   Range, B1's Range matched (L343, L356)
``first`` / ``second``             the higher EW (or Initiative) goes first or second
                                   (L85)
``next A2``                        a team names its aircraft that takes the next turn
                                   (L390)
``ab on`` / ``ab off``             turn the Afterburners on, or not (L100)
``discard [CARD ...]``             Pre- / Post-Turn Discard, then draw (L105, L118)
``trim CARD ...``                  Edge of Envelope: discard down to Performance (L372)
``stay`` / ``dive``                Adjust Altitude (L218, L222)
``climb CARD``                     climb, discarding that card (L220)
``speed pos B1``                   a Speed Maneuvering point for Position (L112)
``speed range me-1 B1``            ... for your own Range (B1 may react)
``speed range B1+1``               ... for B1's Range (+ farther, - closer)
``end``                            end Speed Maneuvering or the Play Cards step
``play ACE pos 2 B1``              Maneuvering for Position 2 on B1 (L151)
``play RED range me-2 B1+1``       Maneuvering for Range, split between your counter
                                   and B1's (L158)
``play GUN B1 [gf] [paying ...]``  gun attack, discarding its cost; ``gf``: use Gun
                                   Fighter (L171-172, L339)
``play BR B1`` / ``play SCI B1``   Barrel Roll / Scissors as an Action (L169, L174)
``play TONE B1 aim-9e``            Tone for that missile (L243); a Tone / Guns card
                                   is a Tone with a missile, a gun attack without
``play BRK`` / ``play YOYO``       a Tactic on yourself (L163, L170, L181)
``play VR up B1 paying CARD``      Vertical Roll up (its climb discard named), B1 may
                                   react; ``play VR down B1`` dives (L179-180)
``giveup B1``                      give up Advantaged / Tailing on B1 (L115)
``launch`` / ``launch 2``          launch one (or a second, L387) missile after a
                                   successful Tone; ``nolaunch`` declines (L248)
``react BR`` / ``react CM``        react with a card / a Countermeasures counter (L182),
                                   also to a SAM/AAA site's attack (L297)
``pass``                           no reaction (also: decline Teamwork, Bat-Turn)
``follow [CARD ...]``              follow an altitude change, paying these (L229-231)
``nofollow``                       do not follow
``alert``                          Alert: the missile just fired loses its cards (L344)
``batturn``                        Bat-Turn: return to Neutral now (L369)
``timely CARD ...``                Timely: discard these and draw as many (L362)
=================================  ===================================================

A card is named by its code (``GUN``, ``TONES``); ``CM`` is a Countermeasures counter.
``=ACE`` plays it as an Ace Pilot (Agile, Jink; Lucky with ``CM=ACE``); a ``side:``
prefix plays it from the Aircraft Expertise cards (L373). Aircraft are named by seat
(``A1``, ``B2``); missiles by id (``aim-9e``). Range changes are signed: ``+`` farther,
``-`` closer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.core.errors import MalformedAction
from strings import Term

__all__ = ["CARD_CODE", "COUNTER", "MISSILE_ID", "SEAT_REF", "Action"]

CARD_CODE = re.compile(r"^[A-Z][A-Z0-9]*$")
SEAT_REF = re.compile(r"^[A-Z][0-9]{1,2}$")
MISSILE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
COUNTER = "CM"
"""The code of a Countermeasures counter, played like a card (L182, L267)."""

_ALTITUDES = ("L", "M", "H")
_RANGES = ("G", "HS", "RH", "AH")
_BARE = frozenset(
    {
        "first",
        "second",
        "stay",
        "dive",
        "end",
        "nolaunch",
        "pass",
        "nofollow",
        "alert",
        "batturn",
    }
)
_LISTS = frozenset({"discard", "trim", "follow", "timely"})
_RANGE_TOKEN = re.compile(r"^(ME|[A-Z][0-9]{1,2})(?:([+-])([0-9]))?$")


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat. Build with :meth:`from_text` or the fields."""

    verb: str
    card: str | None = None
    """The card code played or reacted with (``CM``: a Countermeasures counter)."""
    side: bool = False
    """The card comes from the Aircraft Expertise side cards (L373)."""
    ace: bool = False
    """The card is played as an Ace Pilot (Agile L357, Jink L352, Lucky L350)."""
    target: str | None = None
    """The aircraft (seat) aimed at, or the enemy that may react."""
    mode: str | None = None
    """``play``: ``pos``, ``range``, ``up``, ``down``; ``speed``: ``pos``, ``range``;
    ``ab``: ``on``/``off``; ``alt``: ``L``/``M``/``H``; ``angle``: a Range code."""
    n: int = 0
    """Positions adjusted (``pos``); missiles launched (``launch``)."""
    own: int = 0
    """Change to your own Range counter (``range``): + farther, - closer."""
    enemy: int = 0
    """Change to the target's Range counter (``range``)."""
    missile: str | None = None
    """The missile a Tone is for."""
    gf: bool = False
    """Use Gun Fighter for this gun attack (L339)."""
    cards: tuple[str, ...] = ()
    """Cards discarded (``discard``, ``trim``, ``timely``, ``follow``, ``climb``) or
    paid (``paying``: a gun attack's cost, a Vertical Roll's climb)."""

    # -- text -----------------------------------------------------------------------
    def _card_token(self) -> str:
        token = f"side:{self.card}" if self.side else str(self.card)
        return f"{token}=ACE" if self.ace else token

    def _range_text(self) -> list[str]:
        words = ["range"]
        if self.own:
            words.append(f"me{self.own:+d}")
        if self.target is not None:
            words.append(f"{self.target}{self.enemy:+d}" if self.enemy else self.target)
        return words

    def __str__(self) -> str:
        v = self.verb
        if v in _BARE:
            return v
        if v == "alt":
            return f"alt {self.mode}"
        if v == "ab":
            return f"ab {self.mode}"
        if v == "angle":
            return f"angle {self.mode} {self.target}"
        if v in ("next", "giveup"):
            return f"{v} {self.target}"
        if v == "climb":
            return f"climb {self.cards[0]}"
        if v in _LISTS:
            return " ".join((v, *self.cards))
        if v == "launch":
            return "launch 2" if self.n == 2 else "launch"
        if v == "react":
            return f"react {self._card_token()}"
        if v == "speed":
            if self.mode == "pos":
                return f"speed pos {self.target}"
            return " ".join(["speed", *self._range_text()])
        # play
        words = ["play", self._card_token()]
        if self.mode == "pos":
            words += ["pos", str(self.n), str(self.target)]
        elif self.mode == "range":
            words += self._range_text()
        elif self.mode in ("up", "down"):
            words.append(self.mode)
            if self.target is not None:
                words.append(self.target)
        elif self.target is not None:
            words.append(self.target)
            if self.missile is not None:
                words.append(self.missile)
            if self.gf:
                words.append("gf")
        if self.cards:
            words += ["paying", *self.cards]
        return " ".join(words)

    def __repr__(self) -> str:
        return f"Action.from_text({str(self)!r})"

    # -- parsing --------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str) -> Action:
        """Parse canonical text (the case of verbs and codes is forgiven)."""
        raw = text.strip().split()
        if not raw:
            raise MalformedAction(Term("lockedon.action.empty"))
        verb, args = raw[0].lower(), raw[1:]
        up = [w.upper() for w in args]
        bad = Term("lockedon.action.bad", text=repr(text), verb=verb)
        if verb in _BARE:
            if args:
                raise MalformedAction(Term("lockedon.action.bare", text=repr(text), verb=verb))
            return cls(verb)
        if verb == "alt":
            if len(up) != 1 or up[0] not in _ALTITUDES:
                raise MalformedAction(Term("lockedon.action.alt", text=repr(text)))
            return cls("alt", mode=up[0])
        if verb == "ab":
            if len(up) != 1 or up[0] not in ("ON", "OFF"):
                raise MalformedAction(bad)
            return cls("ab", mode=up[0].lower())
        if verb == "angle":
            if len(up) != 2 or up[0] not in _RANGES:
                raise MalformedAction(Term("lockedon.action.angle", text=repr(text)))
            return cls("angle", mode=up[0], target=_seat(up[1], text))
        if verb in ("next", "giveup"):
            if len(up) != 1:
                raise MalformedAction(bad)
            return cls(verb, target=_seat(up[0], text))
        if verb == "climb":
            if len(up) != 1:
                raise MalformedAction(bad)
            return cls("climb", cards=(_code(up[0], text),))
        if verb in _LISTS:
            codes = tuple(sorted(_code(w, text) for w in up))
            if verb in ("trim", "timely") and not codes:
                raise MalformedAction(bad)
            return cls(verb, cards=codes)
        if verb == "launch":
            if not up:
                return cls("launch", n=1)
            if up == ["2"]:
                return cls("launch", n=2)
            raise MalformedAction(bad)
        if verb == "react":
            if len(up) != 1:
                raise MalformedAction(bad)
            card, side, ace = _card_token(up[0], text)
            return cls("react", card=card, side=side, ace=ace)
        if verb == "speed":
            if len(up) == 2 and up[0] == "POS":
                return cls("speed", mode="pos", target=_seat(up[1], text))
            if up and up[0] == "RANGE":
                own, target, enemy = _range_spec(up[1:], text)
                return cls("speed", mode="range", own=own, target=target, enemy=enemy)
            raise MalformedAction(bad)
        if verb == "play":
            return cls._play(args, text)
        raise MalformedAction(Term("lockedon.action.unknown", text=repr(text), verb=verb))

    @classmethod
    def _play(cls, args: list[str], text: str) -> Action:
        if not args:
            raise MalformedAction(Term("lockedon.action.no_card", text=repr(text)))
        card, side, ace = _card_token(args[0].upper(), text)
        rest = args[1:]
        paying: tuple[str, ...] = ()
        low = [w.lower() for w in rest]
        if "paying" in low:
            i = low.index("paying")
            paying = tuple(sorted(_code(w.upper(), text) for w in rest[i + 1 :]))
            if not paying:
                raise MalformedAction(Term("lockedon.action.play", text=repr(text)))
            rest = rest[:i]
        up = [w.upper() for w in rest]
        base = cls("play", card=card, side=side, ace=ace, cards=paying)
        if up and up[0] == "POS":
            if len(up) != 3 or not up[1].isdigit() or paying:
                raise MalformedAction(Term("lockedon.action.play", text=repr(text)))
            return replace(base, mode="pos", n=int(up[1]), target=_seat(up[2], text))
        if up and up[0] == "RANGE":
            if paying:
                raise MalformedAction(Term("lockedon.action.play", text=repr(text)))
            own, target, enemy = _range_spec(up[1:], text)
            return replace(base, mode="range", own=own, target=target, enemy=enemy)
        if up and up[0] in ("UP", "DOWN"):
            if len(up) > 2:
                raise MalformedAction(Term("lockedon.action.play", text=repr(text)))
            target = _seat(up[1], text) if len(up) == 2 else None
            return replace(base, mode=up[0].lower(), target=target)
        if not up:
            if paying:
                raise MalformedAction(Term("lockedon.action.play", text=repr(text)))
            return base
        target = _seat(up[0], text)
        missile: str | None = None
        gf = False
        for word in rest[1:]:
            if word.lower() == "gf" and not gf:
                gf = True
            elif missile is None and not gf and MISSILE_ID.match(word.lower()):
                missile = word.lower()
            else:
                raise MalformedAction(Term("lockedon.action.play", text=repr(text)))
        if missile is not None and (gf or paying):
            raise MalformedAction(Term("lockedon.action.play", text=repr(text)))
        return replace(base, target=target, missile=missile, gf=gf)


def _code(word: str, text: str) -> str:
    if not CARD_CODE.match(word) or word == COUNTER:
        raise MalformedAction(Term("lockedon.action.not_card", text=repr(text), word=repr(word)))
    return word


def _seat(word: str, text: str) -> str:
    if not SEAT_REF.match(word):
        raise MalformedAction(Term("lockedon.action.not_seat", text=repr(text), word=repr(word)))
    return word


def _card_token(word: str, text: str) -> tuple[str, bool, bool]:
    """``[SIDE:]CODE[=ACE]`` or ``CM[=ACE]`` -> (code, from the side cards, as Ace)."""
    side = word.startswith("SIDE:")
    if side:
        word = word[5:]
    ace = word.endswith("=ACE")
    if ace:
        word = word[:-4]
    if word == COUNTER:
        if side:
            raise MalformedAction(
                Term("lockedon.action.not_card", text=repr(text), word=repr(word))
            )
        return word, False, ace
    return _code(word, text), side, ace


def _range_spec(words: list[str], text: str) -> tuple[int, str | None, int]:
    """``[ME±N] [SEAT[±N]]`` -> (own change, target, target's change)."""
    own, target, enemy = 0, None, 0
    if not words or len(words) > 2:
        raise MalformedAction(Term("lockedon.action.range", text=repr(text)))
    for i, word in enumerate(words):
        m = _RANGE_TOKEN.match(word)
        if m is None:
            raise MalformedAction(Term("lockedon.action.range", text=repr(text)))
        who, sign, digits = m.groups()
        delta = 0 if sign is None else int(digits) * (1 if sign == "+" else -1)
        if who == "ME":
            if i != 0 or not delta:
                raise MalformedAction(Term("lockedon.action.range", text=repr(text)))
            own = delta
        else:
            if i != len(words) - 1:
                raise MalformedAction(Term("lockedon.action.range", text=repr(text)))
            target, enemy = who, delta
    if not own and not enemy:
        raise MalformedAction(Term("lockedon.action.range", text=repr(text)))
    return own, target, enemy
