"""An Eagles in the Sky seat's own message, above its decision: its side's hand (one
hand per side, §7, shared by the side's seats) with each card's symbols, Maneuver
Rating and Fire Value, and every aircraft of its side: where it is, whom it tails or
who tails it, its damage and guns, and on the side's activation the maneuvers it may
make now with the targets named as on the picture. Only the seat's own view and its
legal actions are read. Texts: ``eagles.ui.hand.*``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.eagles.actions import Action
from engine.eagles.prompts import Prompting
from engine.eagles.state import GameState, Plane
from strings import Term, t, tr

__all__ = ["SeatLines"]

MANEUVERS = (
    "tail",
    "headon",
    "leaf",
    "escape",
    "balloon",
    "strafe",
    "bomb",
    "dive",
    "climb",
    "clear",
    "reload",
    "takeoff",
    "idle",
    "lower",
)
"""The order a flight's maneuvers are listed and offered in."""


class SeatLines(Prompting):
    """A seat's private summary."""

    def maneuvers(self, state: GameState, p: Plane, legal: Sequence[Action], language: str) -> str:
        """``tail G2, G3 · head-on G2 · climb · idle``: what ``p`` may do now."""
        mine = [a for a in legal if a.plane == p.ref]
        parts = []
        for verb in MANEUVERS:
            acts = [a for a in mine if a.verb == verb]
            if not acts:
                continue
            word = t(f"eagles.ui.verb.{verb}", language)
            targets = list(dict.fromkeys(a.target for a in acts if a.target))
            if targets:
                names = ", ".join(
                    tr(self.plane(state, x), language) if x == "ground" else x for x in targets
                )
                parts.append(f"{word} {names}")
            else:
                parts.append(word)
        return " · ".join(parts)

    def plane_line(self, state: GameState, p: Plane, legal: Sequence[Action], language: str) -> str:
        """One aircraft of the seat's side."""
        e = self.engine

        def say(key: str, **fields: Any) -> str:
            return t(f"eagles.ui.hand.{key}", language, **fields)

        name = e.name(p)
        if p.leader:
            name = say("flown_by", plane=name, pilot=e.leaders[p.leader].name)
        if p.mission:
            name = say("mission", plane=name)
        if not p.flying:
            return say(f"gone.{p.status}", plane=name)
        bits = [self.where(state, p, language)]
        hits = {k: v for k, v in p.damage.items() if v}
        if hits:
            bits.append(
                say(
                    "damage",
                    hits=", ".join(
                        f"{tr(self._kind(k), language)} {v}" for k, v in sorted(hits.items())
                    ),
                )
            )
        bad = [g for g, st in p.guns.items() if st != "ok"]
        if bad:
            bits.append(
                say(
                    "guns",
                    guns=", ".join(
                        t(
                            f"eagles.ui.hand.gun_{p.guns[g]}",
                            language,
                            group=tr(Term(f"eagles.guns.{g}"), language),
                        )
                        for g in bad
                    ),
                )
            )
        hurt = [c for c, st in p.crew.items() if st != "ok"]
        if hurt:
            bits.append(
                ", ".join(
                    t(f"eagles.ui.hand.crew_{p.crew[c]}", language, who=tr(self._who(c), language))
                    for c in hurt
                )
            )
        if p.bombs:
            bits.append(say("bombs", n=p.bombs))
        if p.rockets:
            bits.append(say("rockets"))
        line = f"• **{name}**: " + "; ".join(bits)
        if p.activated:
            return line + say("activated")
        moves = self.maneuvers(state, p, legal, language)
        if moves:
            line += "\n  " + say("may", moves=moves)
        return line

    @staticmethod
    def _kind(kind: str) -> Term:
        return Term(f"eagles.ui.hand.hit.{kind}")

    @staticmethod
    def _who(crewman: str) -> Term:
        return Term(f"eagles.crewman.{crewman}")

    def seat_lines(
        self, state: GameState, seat: str, language: str, *, live: bool = True
    ) -> list[str]:
        """The side's hand and aircraft, in bold the seat's name (a player holding seats
        of several games gets one message each)."""
        e = self.engine
        side = e.side_of(state, seat)

        def say(key: str, **fields: Any) -> str:
            return t(f"eagles.ui.hand.{key}", language, **fields)

        view = self.shown_view(state, seat)
        mine = next(sd for sd in view.sides if sd.id == side)
        lines = [
            say(
                "head",
                side=tr(self.seat_label(state, seat), language),
                turn=state.turn,
                turns=state.turns,
                engagement=self._engagement(state, language),
            )
        ]
        legal = self.shown_legal(state, seat) if live else []
        playable = {a.card for a in legal if a.card is not None}
        cards = []
        for c in view.hand:
            label = self.card(c.number)
            note = self.card_note(c.number, language)
            cards.append(f"**{label}** ▶ [{note}]" if c.number in playable else f"{label} [{note}]")
        lines.append(
            say(
                "hand",
                n=len(view.hand),
                size=mine.hand_size,
                limit=mine.discard_limit,
                cards="; ".join(cards) or say("empty"),
            )
        )
        for p in state.planes:
            if p.side == side:
                lines.append(self.plane_line(state, p, legal, language))
        return lines

    def _engagement(self, state: GameState, language: str) -> str:
        n = int(state.setup.get("engagements", 1))
        if n <= 1:
            return ""
        return t("eagles.ui.hand.series", language, n=state.engagement, of=n)

    def hand_line(self, state: GameState, side: str) -> str:
        """``[allied hand] Wingover (37), …`` (English: the exported log is the
        canonical record)."""
        cards = sorted(state.hands.get(side, []))
        return f"[{side} hand] " + (", ".join(self.card(c) for c in cards) or "(empty)")
