"""Locked-On as people read it: the system's :class:`~engine.core.present.Presenter`.

What the generic bot shows of a Locked-On game comes from here: how an aircraft is
named, what each decision asks (naming the attacker, the cards played so far, the
missile and its mini-hand's size: never a hidden card), a move in words, a seat's own
message (its aircraft, altitude and range counter, positions, afterburners, missiles,
countermeasures, hand with the playable cards marked, the missile's mini-hand while it
attacks, skills), the exported log's lines. The menus are :mod:`engine.lockedon.menus`,
the lobby's lines :mod:`engine.lockedon.lobbytext`, the after-action report
:mod:`engine.lockedon.report`. Texts are keys of ``strings/<lang>/lockedon-ui.yaml``
(``lockedon.ui.*``) and of the engine's ``lockedon.yaml``; card, aircraft, missile and
skill names stay as printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.core.contract import Decision, Outcome, SeatPick, SideInfo
from engine.core.events import Event
from engine.core.present import (
    Field,
    HelpPage,
    Menu,
    Phase,
    Played,
    Seating,
    Switch,
    WrittenReport,
)
from engine.lockedon import geometry, lobbytext, menus, ratings, report
from engine.lockedon.actions import COUNTER, Action
from engine.lockedon.components import SkillKind
from engine.lockedon.exchange import title_label
from engine.lockedon.present import pending_prompt, step_label
from engine.lockedon.setup import LockedOnOptions, LockedOnSetup
from engine.lockedon.state import GameState
from engine.lockedon.texts import fixed
from engine.lockedon.words import altitude_word, position_word, range_word, then
from strings import Term, has, t, tr

if TYPE_CHECKING:
    from engine.lockedon.game import LockedOnEngine

__all__ = ["NOTABLE", "TITLE", "LockedOnPresenter"]

TITLE = "Locked-On"
"""The game's title in lists and logs (not translated: a title)."""
NOTABLE = frozenset({"destroyed", "over", "launch", "split_s", "chooser", "order", "first"})
"""Events worth a caption under a replay frame; also the reveal of the starting
altitudes and a missile defeated (by their texts' keys, :data:`NOTABLE_KEYS`)."""
NOTABLE_KEYS = frozenset({"lockedon.event.starts_at", "lockedon.event.missile_defeated"})
PLAYABLE = "▶"
"""Marks a card the seat may play now."""
DEMOS: dict[str, tuple[dict[str, Any], tuple[tuple[str, str, str], ...]]] = {
    "1v1": ({"battle_year": 1985}, (("A1", "A", "f-15a"), ("B1", "B", "mig-29"))),
    "2v2": (
        {"battle_year": 1985, "teamwork": True},
        (
            ("A1", "A", "f-15a"),
            ("A2", "A", "f-16a"),
            ("B1", "B", "mig-29"),
            ("B2", "B", "mig-23mf"),
        ),
    ),
}
"""``python -m bot demo``'s games: the options and each seat's aircraft."""


class LockedOnPresenter:
    """The presenter of one :class:`LockedOnEngine` (its aircraft, cards, missiles)."""

    def __init__(self, engine: LockedOnEngine) -> None:
        self.engine = engine

    # --- naming -------------------------------------------------------------------
    def seat_label(self, state: GameState, seat: str) -> str:
        """``F-15A Eagle (A1)``, as the narration names an aircraft."""
        return self.engine.name(state, seat) if seat in state.planes else seat

    def card(self, code: str | None) -> str:
        """A card by its printed title (``Guns (Good Angle)``); ``CM``: Countermeasures."""
        if code == COUNTER:
            return fixed("lockedon.countermeasures")
        t_ = self.engine.by_code.get(code or "")
        return t_.label if t_ is not None else str(code)

    def played(self, a: Action, language: str) -> str:
        """The card of a play or reaction: ``Tight Turn``, ``Tight Turn (Aircraft
        Expertise)``, ``Tight Turn as an Ace Pilot``."""
        card = tr(self.card(a.card), language)
        if a.side:
            card = t("lockedon.ui.action.expertise", language, card=card)
        if a.ace:
            card = t("lockedon.ui.action.as_ace", language, card=card)
        return card

    def cards(self, codes: Sequence[str], language: str) -> str:
        return ", ".join(tr(self.card(c), language) for c in codes)

    # --- decisions ----------------------------------------------------------------
    def decision_words(self, kind: str) -> str:
        """A kind of decision in words (``lockedon.ui.decision.<kind>``, else the
        engine's prompt)."""
        key = f"lockedon.ui.decision.{kind}"
        return Term(key) if has(key) else pending_prompt(kind)

    def chain(self, state: GameState) -> list[str]:
        """The cards of the exchange being resolved, the Action first; every one of
        them was played face up (a Missile's cards are shown as they react)."""
        x = state.exchange
        if x is None:
            return []
        e = self.engine
        if x.speed:
            out: list[str] = [fixed("lockedon.speed_point")]
        elif x.card is not None:
            out = [e.label(state, x.card)]
        else:
            out = [fixed("lockedon.title.missile")]
        for _, card, title in x.chain:
            if int(card) < 0:
                name: str = fixed("lockedon.countermeasures")
            else:
                name = e.label(state, int(card))
            if title == e.ace_type.name and (int(card) < 0 or e.code(state, int(card)) != "ACE"):
                name = Term("lockedon.ui.prompt.as_ace", card=name)
            out.append(name)
        return out

    def what(self, state: GameState) -> str:
        """The Action being resolved in words: ``Maneuvering for Position +2``."""
        x = state.exchange
        assert x is not None
        if x.kind == "pos":
            return Term("lockedon.ui.what.pos", n=x.n)
        if x.kind == "range":
            if x.own and x.enemy:
                return Term("lockedon.ui.what.range", own=f"{x.own:+d}", enemy=f"{x.enemy:+d}")
            if x.own:
                return Term("lockedon.ui.what.range_own", own=f"{x.own:+d}")
            return Term("lockedon.ui.what.range_enemy", enemy=f"{x.enemy:+d}")
        if x.kind in ("tone", "missile"):
            assert x.missile is not None
            missile = self.engine.missiles[x.missile].name
            if x.kind == "tone":
                return Term("lockedon.ui.what.tone", missile=missile)
            return Term("lockedon.ui.what.missile", n=x.n, missile=missile, k=len(x.mini))
        if x.kind == "vr":
            return Term("lockedon.ui.what.vr_up" if x.n > 0 else "lockedon.ui.what.vr_down")
        return Term(f"lockedon.ui.what.{x.kind}")

    def prompt(self, state: GameState, decision: Decision) -> str:
        """What ``decision.seat`` must decide, naming its aircraft (a player may fly
        several). Public: no card of a hand or of a Missile's mini-hand is named, only
        the cards played and how many the Missile holds."""
        d = decision
        e = self.engine
        me = self.seat_label(state, d.seat)
        p = state.planes.get(d.seat)
        x = state.exchange
        if d.kind in ("react", "teamwork") and x is not None:
            cards = self.chain(state)
            last = title_label(x.last_title)
            extra: list[str] = []
            if d.kind == "react" and d.seat == x.actor and x.kind == "missile":
                extra.append(Term("lockedon.ui.prompt.from_missile", k=len(x.mini)))
            elif d.kind == "react" and p is not None and d.seat == x.target:
                if p.cm > 0 and x.last_title in ("Missile", "Tone"):
                    extra.append(Term("lockedon.ui.prompt.cm", n=p.cm))
                if (
                    x.alert
                    and not x.chain
                    and x.kind == "missile"
                    and e.can_use(p, SkillKind.ZERO_MISSILE_HAND)
                ):
                    extra.append(Term("lockedon.ui.prompt.alert"))
            fields: dict[str, Any] = {
                "me": me,
                "actor": self.seat_label(state, x.actor),
                "target": self.seat_label(state, x.target or ""),
                "what": self.what(state),
                "cards": then(cards),
                "last": last,
                "extra": "".join(extra),
            }
            if d.kind == "teamwork":
                return Term("lockedon.ui.prompt.teamwork", **fields)
            if d.seat == x.actor:
                return Term("lockedon.ui.prompt.react_actor", **fields)
            return Term("lockedon.ui.prompt.react", **fields)
        if d.kind == "follow" and state.follows:
            offer = state.follows[0]
            mover = state.planes[offer.mover]
            cost = e._follow_cost(state, offer)
            assert mover.altitude is not None
            return Term(
                "lockedon.ui.prompt.follow",
                me=me,
                mover=self.seat_label(state, offer.mover),
                position=position_word(geometry.pos(state, d.seat, offer.mover)),
                way=Term(
                    "lockedon.ui.prompt.climbed"
                    if offer.direction > 0
                    else "lockedon.ui.prompt.dived"
                ),
                altitude=altitude_word(mover.altitude),
                cost=Term("lockedon.ui.prompt.follow_cost", n=cost)
                if cost
                else Term("lockedon.ui.prompt.follow_free"),
            )
        if d.kind == "launch" and state.launch is not None and p is not None:
            la = state.launch
            missile = e.missiles[la.missile]
            one = e.missile_cards(state, d.seat, la, 1)
            two: str = ""
            if p.missiles.get(la.missile, 0) >= 2:
                two = Term("lockedon.ui.prompt.launch_two", k=e.missile_cards(state, d.seat, la, 2))
            return Term(
                "lockedon.ui.prompt.launch",
                me=me,
                missile=missile.name,
                target=self.seat_label(state, la.target),
                k=one,
                two=two,
            )
        if d.kind == "next":
            seats = [s for s, q in state.planes.items() if q.flying and q.side == d.side]
            names = ", ".join(self.seat_label(state, s) for s in seats if s not in state.acted)
            return Term(
                "lockedon.ui.prompt.next",
                side=Term("lockedon.side_name", side=d.side or ""),
                names=names,
            )
        if p is None:
            return Term("lockedon.ui.prompt.decide", me=me, decision=self.decision_words(d.kind))
        ac = e.ac(p)
        if d.kind == "afterburner":
            return Term("lockedon.ui.prompt.afterburner", me=me, n=p.ab_left)
        if d.kind in ("predraw", "postdraw"):
            post = d.kind == "postdraw"
            if e.stalls(state, d.seat, post_turn=post):
                return Term("lockedon.ui.prompt.stall", me=me)
            key = "lockedon.ui.prompt.postdraw" if post else "lockedon.ui.prompt.predraw"
            return Term(
                key,
                me=me,
                n=max(0, ratings.thrust(ac, p, post_turn=post)),
                limit=ratings.performance(ac, p),
            )
        if d.kind == "trim":
            limit = ratings.performance(ac, p)
            return Term("lockedon.ui.prompt.trim", me=me, n=len(p.hand) - limit, limit=limit)
        if d.kind == "altitude_step" and p.altitude is not None:
            return Term(
                "lockedon.ui.prompt.altitude_step", me=me, altitude=altitude_word(p.altitude)
            )
        if d.kind == "speed":
            left = max(0, state.t.speed_points - sum(state.t.speed_used.values()))
            return Term("lockedon.ui.prompt.speed", me=me, n=left)
        if d.kind == "play":
            bonus: str = Term("lockedon.ui.prompt.bonus", n=state.t.bonus) if state.t.bonus else ""
            return Term("lockedon.ui.prompt.play", me=me, bonus=bonus)
        if d.kind == "batturn":
            planes = ", ".join(
                self.seat_label(state, o) for o, _ in sorted(geometry.engaged(state, d.seat))
            )
            return Term("lockedon.ui.prompt.batturn", me=me, planes=planes)
        if d.kind in ("altitude", "first"):
            return Term(f"lockedon.ui.prompt.{d.kind}", me=me)
        return Term("lockedon.ui.prompt.decide", me=me, decision=self.decision_words(d.kind))

    def phase(self, state: GameState) -> Phase:
        return Phase(state.round, step_label(state.step))

    def begins(self, options: LockedOnOptions) -> str:
        return Term("lockedon.ui.dogfight.begins")

    # --- a seat's own message -------------------------------------------------------
    def seat_lines(
        self, state: GameState, seat: str, language: str, *, live: bool = True
    ) -> list[str]:
        """The private summary of one aircraft: its name, altitude and Range counter
        (in bold: a player flying several gets one message each), afterburners,
        missiles and Countermeasures, its positions and ranges, its secret pick, its
        ratings now, its hand and Aircraft Expertise cards with the cards it can play
        now marked, the Missile's cards while it attacks with one, its skills."""
        e = self.engine
        view = e.view(state, seat)
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
        legal = e.legal_actions(state, seat) if live else []
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

    def menu(self, state: GameState, seat: str, seating: Seating, language: str) -> Menu:
        return menus.seat_menu(self, state, seat, seating, language)

    def side_menu(
        self, state: GameState, decision: Decision, seating: Seating, language: str
    ) -> Menu:
        return menus.side_menu(self, state, decision, seating, language)

    def describe(self, state: GameState, action: str, language: str) -> str:
        return self.describe_action(state, Action.from_text(action), language)

    def describe_action(self, state: GameState, a: Action, language: str = "en") -> str:
        """An action in words, self-contained (a button's label): ``Tight Turn:
        Position +2 on MiG-29 (B1), to Tailing``."""
        e = self.engine

        def say(key: str, **fields: Any) -> str:
            return t(f"lockedon.ui.action.{key}", language, **fields)

        def plane(seat: str | None) -> str:
            return self.seat_label(state, seat) if seat else ""

        def alt(step: int, seat: str | None = None) -> str:
            p = state.planes.get(seat or state.active or "")
            if p is None or p.altitude is None or not 0 <= p.altitude + step <= 2:
                return say("up" if step > 0 else "down") if step else ""
            return tr(altitude_word(p.altitude + step), language)

        v = a.verb
        active = state.active
        if v == "alt":
            return tr(fixed(f"lockedon.altitude.{a.mode}"), language)
        if v in ("first", "second", "nolaunch", "nofollow", "pass", "alert", "batturn"):
            return say(v)
        if v == "next":
            return say("next", plane=plane(a.target))
        if v == "ab":
            p = state.planes.get(active or "")
            if a.mode == "on":
                return say("ab_on", n=max(0, (p.ab_left if p else 1) - 1))
            return say("ab_off")
        if v == "discard":
            return say("discard", cards=self.cards(a.cards, language)) if a.cards else say("keep")
        if v == "trim":
            return say("trim", cards=self.cards(a.cards, language))
        if v == "timely":
            return say("timely", cards=self.cards(a.cards, language))
        if v == "stay":
            return say("stay", altitude=alt(0) or tr(altitude_word(1), language))
        if v == "dive":
            return say("dive", altitude=alt(-1))
        if v == "climb":
            return say("climb", altitude=alt(1), card=self.cards(a.cards, language))
        if v == "end":
            return say("end_speed" if state.step == "speed" else "end_play")
        if v == "giveup":
            pos = geometry.pos(state, active, a.target) if active and a.target else 1
            return say(
                "giveup", position=tr(position_word(max(pos, 1)), language), plane=plane(a.target)
            )
        if v == "launch":
            la = state.launch
            missile = e.missiles[la.missile].name if la is not None else ""
            if la is not None and la.seat in state.planes:
                k = e.missile_cards(state, la.seat, la, a.n)
                return say("launch", n=a.n, missile=missile, k=k)
            return say("launch_bare", n=a.n)
        if v == "follow":
            paying = self.cards(a.cards, language)
            if not state.follows:
                return say("follow_plain", cards=paying) if a.cards else say("follow_plain_free")
            offer = state.follows[0]
            to = alt(offer.direction, offer.seat)
            if a.cards:
                return say("follow", altitude=to, cards=paying)
            return say("follow_free", altitude=to)
        if v == "react":
            if a.card == COUNTER:
                p = state.planes.get(self._reactor(state) or "")
                n = p.cm if p is not None else 0
                return say("cm_ace") if a.ace else say("cm", n=n)
            return say("react", card=self.played(a, language))
        if v == "speed":
            if a.mode == "pos":
                return say(
                    "speed_pos", plane=plane(a.target), position=self._pos_after(state, a, language)
                )
            return say("speed_range", range=self.range_words(state, a, language))
        # play
        card = self.played(a, language)
        t_ = e.ace_type if a.ace else e.by_code.get(a.card or "")
        if a.mode == "pos":
            return say(
                "pos",
                card=card,
                n=a.n,
                plane=plane(a.target),
                position=self._pos_after(state, a, language),
            )
        if a.mode == "range":
            return say("range", card=card, range=self.range_words(state, a, language))
        if a.mode == "up":
            return say(
                "vr_up",
                card=card,
                altitude=alt(1),
                pay=self.cards(a.cards, language),
                plane=plane(a.target),
            )
        if a.mode == "down":
            return say("vr_down", card=card, altitude=alt(-1), plane=plane(a.target))
        if a.missile is not None:
            return say("tone", card=card, plane=plane(a.target), missile=e.missiles[a.missile].name)
        if t_ is not None and t_.is_guns and a.target is not None:
            paying = (
                say("paying", cards=self.cards(a.cards, language)) if a.cards else say("no_discard")
            )
            gf = say("gun_fighter") if a.gf else ""
            return say("guns", card=card, plane=plane(a.target), paying=paying, gf=gf)
        if a.target is None:
            return say("tactic", card=card)
        return say("at", card=card, plane=plane(a.target))

    def _reactor(self, state: GameState) -> str | None:
        x = state.exchange
        if x is None:
            return None
        return x.asking[0] if x.asking else self.engine.to_react(x)

    def _pos_after(self, state: GameState, a: Action, language: str) -> str:
        """The position the actor would hold on the target: ``to Tailing``."""
        active = state.active
        if active is None or a.target is None or a.target not in state.planes:
            return ""
        n = a.n if a.mode == "pos" and a.verb == "play" else 1
        new = max(-2, min(2, geometry.pos(state, active, a.target) + n))
        return t("lockedon.ui.action.to", language, position=tr(position_word(new), language))

    def range_words(self, state: GameState, a: Action, language: str) -> str:
        """``me 1 closer (to Heat Seeking), MiG-29 (B1) 1 farther (to Active Homing)``."""

        def say(key: str, **fields: Any) -> str:
            return t(f"lockedon.ui.action.{key}", language, **fields)

        def change(delta: int, now: int) -> str:
            word = say("closer" if delta < 0 else "farther", n=abs(delta))
            band = tr(range_word(max(0, min(3, now + delta))), language)
            return say("change", change=word, band=band)

        parts = []
        active = state.planes.get(state.active or "")
        if a.own:
            parts.append(say("me", change=change(a.own, active.range if active else 3)))
        if a.target is not None:
            name = self.seat_label(state, a.target)
            target = state.planes.get(a.target)
            if a.enemy:
                parts.append(
                    say("them", plane=name, change=change(a.enemy, target.range if target else 3))
                )
            else:
                parts.append(say("may_react", plane=name))
        return ", ".join(parts)

    def target_note(
        self, state: GameState, viewer: str, target: str, seating: Seating, language: str
    ) -> str:
        """A short line about an enemy for a menu: who flies it, where it is, and the
        viewer's position and range to it."""
        p = state.planes.get(target)
        if p is None:
            return ""
        where = (
            tr(altitude_word(p.altitude), language)
            if p.altitude is not None
            else t("lockedon.ui.note.secret", language)
        )
        rng = geometry.range_between(state, viewer, target) if p.altitude is not None else None
        pos = geometry.pos(state, viewer, target) if viewer in state.planes else 0
        return t(
            "lockedon.ui.note.line",
            language,
            name=seating.players.get(target) or seating.names.get(target, "?"),
            where=where,
            range=tr(range_word(rng), language) if rng is not None else "?",
            position=tr(position_word(pos), language),
        )[:100]

    # --- the lobby ----------------------------------------------------------------
    def option_fields(self) -> tuple[Field, ...]:
        return lobbytext.OPTION_FIELDS

    def pick_fields(self) -> tuple[Field, ...]:
        return lobbytext.PICK_FIELDS

    def switches(self) -> tuple[Switch, ...]:
        return lobbytext.SWITCHES

    def switch_line(self, option: str, value: Any) -> str:
        return lobbytext.switch_line(option, value)

    def catalogue_fields(self) -> tuple[Field, ...]:
        return lobbytext.CATALOGUE_FIELDS

    def aircraft_lines(self, options: LockedOnOptions, language: str) -> list[str]:
        return lobbytext.aircraft_lines(self.engine, options, language)

    def lobby_title(
        self, options: LockedOnOptions, game_id: int, format: str, language: str
    ) -> str:
        return lobbytext.title(options, game_id, format, language)

    def side_heading(
        self, options: LockedOnOptions, side: SideInfo, seats: Sequence[SeatPick], language: str
    ) -> str:
        return lobbytext.side_heading(self.engine, options, side, seats, language)

    def pick_text(self, options: LockedOnOptions, pick: Any, language: str) -> str:
        return lobbytext.pick_text(self.engine, options, pick, language)

    def lobby_notes(
        self,
        options: LockedOnOptions,
        seats: Sequence[SeatPick],
        *,
        open_lobby: bool,
        language: str,
    ) -> list[str]:
        return lobbytext.notes(
            self.engine, options, seats, open_lobby=open_lobby, language=language
        )

    def lobby_menu_hint(self, more: bool, language: str) -> str:
        return lobbytext.menu_hint(more, language)

    def game_title(self, options: LockedOnOptions, language: str) -> str:
        return f"{TITLE} {options.year}" if options.year is not None else TITLE

    def help_pages(self) -> tuple[HelpPage, ...]:
        return lobbytext.HELP_PAGES

    def demo(self, ruleset: str, format: str) -> Any:
        """A game for ``python -m bot demo`` (the presentation contract's next member,
        ``DemoGame``; None where this contract has no such class yet)."""
        from engine.core import present

        found = DEMOS.get(format)
        demo_game = getattr(present, "DemoGame", None)
        if found is None or demo_game is None:
            return None
        return demo_game(found[0], found[1])

    # --- history ------------------------------------------------------------------
    def log_title(self, setup: LockedOnSetup) -> str:
        o = setup.options
        return f"{TITLE}, {o.year}" if o.year is not None else TITLE

    def log_fields(self, setup: LockedOnSetup) -> dict[str, str]:
        """The options as agreed (English, canonical)."""
        o = setup.options
        out = {
            "year": str(o.year) if o.year is not None else "any",
            "vp_limit": str(o.vp_limit) if o.vp_limit is not None else "none",
            "rounds": str(o.rounds),
        }
        rules = [
            name
            for name, on in (
                ("missile loads", o.missile_loads),
                ("teamwork", o.teamwork),
                (f"free-for-all of {o.sides}", o.free_for_all),
                ("second deck", o.second_deck),
            )
            if on
        ]
        out["optional_rules"] = ", ".join(rules) or "none"
        return out

    def full_log_lines(self, event: Event, after: GameState) -> list[str]:
        """The hand of each aircraft whose turn begins (from its owner's view)."""
        seat = event.data.get("seat") if event.kind == "turn" else None
        if seat is None or seat not in after.planes:
            return []
        return [self.hand_line(after, str(seat))]

    def hand_line(self, state: GameState, seat: str) -> str:
        """``[A1 hand] Tight Turn, Guns; Aircraft Expertise: …`` (English: the exported
        log is the canonical record)."""
        view = self.engine.view(state, seat)
        me = next(a for a in view.aircraft if a.seat == seat)
        text = f"[{seat} hand] " + (", ".join(self.card(c) for c in me.hand or ()) or "(empty)")
        if me.side_hand:
            text += "; Aircraft Expertise: " + ", ".join(self.card(c) for c in me.side_hand)
        return text

    def final_lines(self, state: GameState) -> list[str]:
        """``  B1  MiG-29 Fulcrum  shot down by A1, round 3`` per aircraft (the
        presentation contract's next member, for ``python -m bot verify``)."""
        lines = []
        for seat, p in state.planes.items():
            name = self.engine.aircraft[p.aircraft].name
            fate = "flying" if p.flying else f"shot down by {p.by}, round {p.lost_round}"
            lines.append(f"  {seat:<4} {name:<24} {fate}")
        return lines

    def notable(self, event: Event) -> bool:
        return event.kind in NOTABLE or getattr(event.text, "key", None) in NOTABLE_KEYS

    def report(
        self,
        start: GameState,
        moves: Sequence[Played],
        outcome: Outcome,
        players: Mapping[str, str],
    ) -> WrittenReport:
        return report.written(self, start, moves, outcome, players)
