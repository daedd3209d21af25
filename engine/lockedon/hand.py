"""A Locked-On seat's own message, above its decision: its aircraft (name, side,
altitude, Range counter), its ratings now, afterburners, missiles and Countermeasures,
its positions and ranges, its secret pick, its hand and Aircraft Expertise cards with
the cards it can play now marked, the Missile's cards while it attacks with one, and its
skills; and the hand line of the exported full log. Only the seat's own view is read.
Texts: ``lockedon.ui.hand.*``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.lockedon.describe import Describing
from engine.lockedon.state import GameState
from engine.lockedon.words import altitude_word, position_word, range_word
from strings import Term, t, tr

__all__ = ["PLAYABLE", "SeatLines"]

PLAYABLE = "▶"
"""Marks a card the seat may play now."""


class SeatLines(Describing):
    """A seat's private summary."""

    def seat_lines(
        self, state: GameState, seat: str, language: str, *, live: bool = True
    ) -> list[str]:
        """The private summary of one aircraft: its name, altitude and Range counter
        (in bold: a player flying several gets one message each), afterburners,
        missiles and Countermeasures, its positions and ranges, its secret pick, its
        ratings now, its hand and Aircraft Expertise cards with the cards it can play
        now marked, the Missile's cards while it attacks with one, its skills."""
        e = self.engine
        view = self.shown_view(state, seat)
        me = next(a for a in view.aircraft if a.seat == seat)

        def say(key: str, **fields: Any) -> str:
            return t(key, language, **fields)

        names = {a.seat: f"{a.name} ({a.seat})" for a in view.aircraft}
        if me.destroyed:
            by = names.get(me.destroyed_by or "", me.destroyed_by or "?")
            return [say("lockedon.ui.hand.shot_down", plane=names[seat], by=by)]
        where = (
            tr(altitude_word(me.altitude), language)
            if me.altitude is not None
            else say("lockedon.ui.hand.secret_altitude")
        )
        lines = [
            say(
                "lockedon.ui.hand.head",
                plane=names[seat],
                side=tr(Term("lockedon.side_name", side=me.side), language),
                altitude=where,
                range=tr(range_word(me.range), language),
            )
        ]
        if me.pick is not None:
            lines.append(
                say("lockedon.ui.hand.secret_pick", altitude=tr(altitude_word(me.pick), language))
            )
        r = me.ratings
        draw = f"{r.thrust_pre}/{r.thrust_post}"
        if r.ab_pre is not None:
            draw += say("lockedon.ui.hand.ab_draw", pre=r.ab_pre, post=r.ab_post)
        lines.append(
            say(
                "lockedon.ui.hand.ratings",
                speed=r.speed,
                performance=r.performance,
                thrust=draw,
                gun=r.gun if r.gun is not None else "-",
                ew=r.ew,
            )
        )
        gear = []
        ac = e.aircraft[me.aircraft]
        if ac.has_afterburners:
            key = "lockedon.ui.hand.ab_on" if me.afterburner_on else "lockedon.ui.hand.ab_off"
            gear.append(say(key, n=me.afterburner_counters))
        missiles = ", ".join(f"{m.name} ×{m.count}" for m in me.missiles if m.count)
        gear.append(
            say("lockedon.ui.hand.missiles", missiles=missiles or say("lockedon.ui.hand.none"))
        )
        gear.append(say("lockedon.ui.hand.cm", n=me.countermeasures))
        lines.append(" · ".join(gear))
        held = []
        for g in view.engagements:
            if seat == g.seat:
                held.append(
                    say(
                        "lockedon.ui.hand.holds",
                        position=tr(position_word(g.position), language),
                        on=names[g.on],
                    )
                )
            elif seat == g.on:
                held.append(
                    say(
                        "lockedon.ui.hand.held",
                        position=tr(position_word(-g.position), language),
                        by=names[g.seat],
                    )
                )
        if held:
            lines.append(say("lockedon.ui.hand.positions", positions="; ".join(held)))
        ranges = []
        for pr in view.ranges:
            if seat in (pr.a, pr.b):
                other = pr.b if pr.a == seat else pr.a
                ranges.append(f"{names[other]} {tr(range_word(pr.range), language)}")
        if ranges:
            lines.append(say("lockedon.ui.hand.ranges", ranges=", ".join(ranges)))
        legal = self.shown_legal(state, seat) if live else []
        x = state.exchange
        from_missile = x is not None and x.kind == "missile" and x.actor == seat
        hand_playable = {a.card for a in legal if a.card and not a.side and not from_missile}
        side_playable = {a.card for a in legal if a.card and a.side}
        mini_playable = {a.card for a in legal if a.card and from_missile}

        def names_of(codes: Sequence[str], playable: set[str]) -> str:
            out = []
            for code in codes:
                label = tr(self.card(code), language)
                out.append(f"**{label}** {PLAYABLE}" if code in playable else label)
            return ", ".join(out) or say("lockedon.ui.hand.empty")

        hand = me.hand or ()
        lines.append(
            say(
                "lockedon.ui.hand.hand",
                n=len(hand),
                limit=r.performance,
                cards=names_of(sorted(hand), hand_playable),
            )
        )
        if me.side_hand:
            lines.append(
                say(
                    "lockedon.ui.hand.expertise",
                    cards=names_of(sorted(me.side_hand), side_playable),
                )
            )
        if view.exchange is not None and view.exchange.mini is not None:
            lines.append(
                say(
                    "lockedon.ui.hand.mini",
                    missile=view.exchange.missile or "",
                    n=view.exchange.missiles,
                    cards=names_of(view.exchange.mini, mini_playable),
                )
            )
        if view.active == seat and view.missile_bonus:
            lines.append(say("lockedon.ui.hand.bonus", n=view.missile_bonus))
        if me.skills:
            skills = []
            for s in me.skills:
                if s.once_per_game:
                    key = "lockedon.ui.hand.skill_used" if s.used else "lockedon.ui.hand.skill_once"
                    skills.append(say(key, skill=s.name))
                else:
                    skills.append(s.name)
            lines.append(say("lockedon.ui.hand.skills", skills=", ".join(skills)))
        return lines

    def hand_line(self, state: GameState, seat: str) -> str:
        """``[A1 hand] Tight Turn, Guns; Aircraft Expertise: …`` (English: the exported
        log is the canonical record)."""
        view = self.engine.view(state, seat)
        me = next(a for a in view.aircraft if a.seat == seat)
        text = f"[{seat} hand] " + (", ".join(self.card(c) for c in me.hand or ()) or "(empty)")
        if me.side_hand:
            text += "; Aircraft Expertise: " + ", ".join(self.card(c) for c in me.side_hand)
        return text
