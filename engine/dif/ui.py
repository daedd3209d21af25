"""Down in Flames as people read it: the system's :class:`~engine.core.present.Presenter`.

What the generic bot shows of a DiF game comes from here: how an element and an
aircraft are named, what each decision asks, a move in words, an element's own
message (hand, mini-hand, position), the exported log's DiF lines. The menus are
:mod:`engine.dif.menus`, the lobby's lines :mod:`engine.dif.lobbytext`, the
after-action report :mod:`engine.dif.report`. Texts are keys of
``strings/<lang>/dif-ui.yaml`` (``dif.ui.*``) and of the engine's ``dif.yaml``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from engine.core.contract import Decision, Outcome, SeatPick, SideInfo
from engine.core.events import Event
from engine.core.present import (
    DemoGame,
    Field,
    HelpPage,
    Menu,
    Phase,
    Played,
    Seating,
    ShownState,
    Switch,
    WrittenReport,
)
from engine.dif import alttext, lobbytext, menus, report
from engine.dif.actions import COUNTER, Action
from engine.dif.components import Altitude, CardKind, Position, Ruleset
from engine.dif.game import DifEngine, step_label
from engine.dif.picks import DifOptions
from engine.dif.present import pending_prompt
from engine.dif.setup import DifSetup
from engine.dif.state import GameState
from engine.dif.view import DifView
from strings import Term, has, t, tr

__all__ = ["NOTABLE", "DifPresenter", "plane_name"]

NOTABLE = frozenset({"destroyed", "damaged", "evade", "promoted", "eliminated", "result", "reveal"})
"""Events worth a caption under a replay frame."""
_BOMBER_KEYS = {
    "flying": "dif.ui.hand.bomber.flying",
    "damaged": "dif.ui.hand.bomber.damaged",
    "destroyed": "dif.ui.hand.bomber.destroyed",
}
"""A bomber's line in its formation seat's summary, by its state (§17.28)."""
DEMOS = {
    ("zero", "1v1"): ({"year": 1942}, (("A1", "allied", "buffalo-i"), ("X1", "axis", "ki-43"))),
    ("rotl", "1v1"): ({"year": 1940}, (("A1", "allied", "spitfire-i"), ("X1", "axis", "bf-109e"))),
    ("zero", "2v2"): (
        {"year": 1942},
        (
            ("A1", "allied", "buffalo-i"),
            ("A2", "allied", "p-40b"),
            ("X1", "axis", "ki-43"),
            ("X2", "axis", "a6m2"),
        ),
    ),
    ("rotl", "2v2"): (
        {"year": 1941},
        (
            ("A1", "allied", "spitfire-i"),
            ("A2", "allied", "hurricane-iib"),
            ("X1", "axis", "bf-109e"),
            ("X2", "axis", "bf-110c"),
        ),
    ),
}
"""``python -m bot demo``'s games: a year, and each seat's aircraft."""
SIMPLE_ACTIONS = frozenset(
    {
        "skip",
        "stay",
        "nofollow",
        "pass",
        "giveup",
        "evade",
        "abandon",
        "continue",
        "jettison",
        "keep",
        "bomb",
        "strafe",
        "hold",
    }
)
"""Actions whose label is a fixed text (``dif.ui.action.<verb>``)."""


def plane_name(engine: DifEngine, state: GameState, ref: str) -> str:
    """A plane as a menu names it: aircraft, seat, and leader or whose wingman (a
    :class:`Term`: ``tr`` it for the reader).

    ``Ki-43 Oscar (X1 leader)``, ``Ki-43 Oscar (wingman of X1)``, ``Ki-43 Oscar (X1,
    shot down)``: with several elements at one altitude a bare aircraft name is not
    enough to tell two targets apart.
    """
    base, _, lost = ref.partition("-")  # "A1L-lost1": a leader shot down (11.2)
    e = state.elements.get(base[:-1])
    if e is None:
        return ref
    name = engine.aircraft[e.aircraft].name
    if lost:
        return Term("dif.ui.plane.lost", name=name, seat=e.seat)
    if base.endswith("W"):
        return Term("dif.ui.plane.wingman", name=name, seat=e.seat)
    return Term("dif.ui.plane.leader", name=name, seat=e.seat)


def count(key: str, n: int, language: str) -> str:
    """``3 elements``: the catalogue's ``<key>.one`` or ``<key>.other``."""
    one = n == 1 or (n == 0 and language == "fr")
    return t(f"{key}.{'one' if one else 'other'}", language, n=n)


def _kind_name(kind: str) -> str:
    """A card kind by its printed name (``SCI``: Scissors), as the engine names it."""
    try:
        return CardKind(kind).label
    except ValueError:
        return kind


def _chain(cards: Sequence[str]) -> str:
    """An exchange's cards, attack first: ``Maneuvering → Tight Turn``, keeping each
    card's text translatable (a card played as another is a Term)."""
    out = cards[0] if cards else ""
    for card in cards[1:]:
        out = Term("dif.ui.prompt.then", head=out, card=card)
    return out


class DifPresenter:
    """The presenter of one :class:`DifEngine` (its aircraft and cards)."""

    def __init__(self, engine: DifEngine) -> None:
        self.engine = engine
        self.shown_view = ShownState(engine.view)
        """The views shown last (a seat's message reads it twice)."""
        self.shown_legal = ShownState(engine.legal_actions)
        """The legal actions shown last (a seat's hand marks them, its menu lists them)."""

    # --- naming -------------------------------------------------------------------
    def seat_label(self, state: GameState, seat: str) -> str:
        """``Buffalo I (A1)``, as the narration names an element."""
        e = state.elements.get(seat)
        return f"{self.engine.aircraft[e.aircraft].name} ({seat})" if e is not None else seat

    def plane(self, state: GameState, ref: str) -> str:
        return plane_name(self.engine, state, ref)

    # --- decisions ----------------------------------------------------------------
    def decision_words(self, kind: str) -> str:
        """A pending decision in words: ``dif.ui.decision.<kind>``, else the engine's
        prompt (English)."""
        key = f"dif.ui.decision.{kind}"
        return Term(key) if has(key) else pending_prompt(kind)

    def prompt(self, state: GameState, decision: Decision) -> str:
        """What ``decision.seat`` must decide, naming the element (a player may hold
        several)."""
        p = decision
        me = self.seat_label(state, p.seat)
        if p.kind == "respond" and state.exchange is not None:
            x = self.engine.view(state, p.seat).exchange
            assert x is not None
            name = partial(plane_name, self.engine, state)
            where: str = ""
            # A wingman attacking a bomber answers its counter-attack with the
            # mini-hand it attacks with (Zero! §20.52).
            attacking = state.step == "wingman_attack" and state.active == p.seat
            if x.target == f"{p.seat}W" and len(x.cards) % 2 == 1 and not attacking:
                where = Term("dif.ui.prompt.with_wingman_defence")
            elif f"{p.seat}W" in (x.attacker, x.target):
                where = Term("dif.ui.prompt.with_wingman")
            return Term(  # the attacker or the target is this seat's: no need to name it
                "dif.ui.prompt.respond",
                attacker=name(x.attacker),
                cards=_chain(x.cards),
                target=name(x.target),
                where=where,
            )
        if p.kind == "follow" and state.follow is not None:
            mover = self.seat_label(state, state.follow.mover)
            way = Term(
                "dif.ui.prompt.climbed" if state.follow.direction > 0 else "dif.ui.prompt.dived"
            )
            return Term("dif.ui.prompt.follow", me=me, mover=mover, way=way)
        if p.kind == "order":
            side, seats = self.engine.order_choice(state)
            names = ", ".join(self.seat_label(state, s) for s in seats)
            side_phrase = side.phrase(Ruleset(state.ruleset))
            return Term("dif.ui.prompt.order", side=side_phrase, names=names)
        return Term("dif.ui.prompt.decide", me=me, decision=self.decision_words(p.kind))

    def phase(self, state: GameState) -> Phase:
        return Phase(state.turn, step_label(state.step))

    def begins(self, options: DifOptions) -> str:
        return Term("dif.ui.dogfight.begins")

    # --- an element's own message ---------------------------------------------------
    def _formation_lines(
        self, view: DifView, seat: str, language: str, playable: set[str]
    ) -> list[str]:
        """A formation of bombers' summary (Zero! §17.22): no hand, no player-turn; it
        bombs and takes its fire at the end of the Bomb Turn (§23.63); its attacked
        bomber's defensive mini-hand (§20.41) with the cards it may answer with (▶)."""
        mission = view.mission
        formation = next(f for f in (mission.formations if mission else ()) if f.seat == seat)
        where = tr(formation.altitude.label, language)
        lines = [t("dif.ui.hand.formation", language, seat=seat, altitude=where)]
        for b in formation.bombers:
            key = "destroyed" if b.status == "destroyed" else "damaged" if b.damaged else "flying"
            lines.append(
                t(
                    _BOMBER_KEYS[key],
                    language,
                    ref=b.ref,
                    aircraft=b.aircraft,
                    hits=b.hits,
                )
            )
        if formation.defence_cards is not None:
            cards = []
            for code in formation.defence_cards:
                label = tr(self.engine.card_label(code), language)
                cards.append(f"**{label}** ▶" if code in playable else label)
            shown = ", ".join(cards) or t("dif.ui.hand.empty", language)
            lines.append(t("dif.ui.hand.bomber_defence", language, cards=shown))
        else:
            lines.append(t("dif.ui.hand.formation_turn", language))
        return lines

    def seat_lines(
        self, state: GameState, seat: str, language: str, *, live: bool = True
    ) -> list[str]:
        """The private summary of one element: its name and altitude (in bold: a
        player flying several elements gets one such message each), its position,
        its secret pick, its hand and mini-hand with the cards it can play now (▶),
        the bursts it has left."""
        view = self.shown_view(state, seat)
        el = next((e for e in view.elements if e.seat == seat), None)
        legal = self.shown_legal(state, seat) if live else []
        playable = {a.card for a in legal if a.card}
        if el is None:
            return self._formation_lines(view, seat, language, playable)
        where = (
            tr(el.altitude.label, language)
            if el.altitude is not None
            else t("dif.ui.hand.secret_altitude", language)
        )
        lines = [t("dif.ui.hand.head", language, element=el.label, altitude=where)]
        for g in view.engagements:
            if seat in (g.leader, g.on):
                other = g.on if g.leader == seat else g.leader
                mine = g.position if g.leader == seat else Position(-g.position)
                name = next(e.label for e in view.elements if e.seat == other)
                position = tr(mine.label, language)
                lines.append(t("dif.ui.hand.position", language, position=position, on=name))
        if el.pick is not None:
            pick = tr(el.pick.label, language)
            lines.append(t("dif.ui.hand.secret_pick", language, altitude=pick))
        # Which pile the marked cards are played from: the wingman's mini-hand while it
        # attacks or defends, else the hand.
        x = view.exchange
        wingman_pile = (state.step == "wingman_attack" and view.active == seat) or (
            x is not None and x.waiting_on == seat and f"{seat}W" in (x.target, x.attacker)
        )

        def names(codes: tuple[str, ...], live: bool) -> str:
            out = []
            for code in codes:
                label = tr(self.engine.card_label(code), language)
                out.append(f"**{label}** ▶" if live and code in playable else label)
            return ", ".join(out) or t("dif.ui.hand.empty", language)

        if el.hand is not None:
            hand = names(el.hand, not wingman_pile)
            lines.append(t("dif.ui.hand.hand", language, n=len(el.hand), cards=hand))
        if el.minihand:
            cards = names(el.minihand, wingman_pile)
            lines.append(t("dif.ui.hand.minihand", language, cards=cards))
        if view.bursts_left is not None and view.active == seat:
            lines.append(t("dif.ui.hand.bursts", language, n=view.bursts_left))
        return lines

    def menu(self, state: GameState, seat: str, seating: Seating, language: str) -> Menu:
        return menus.seat_menu(self, state, seat, seating, language)

    def side_menu(
        self, state: GameState, decision: Decision, seating: Seating, language: str
    ) -> Menu:
        return menus.side_menu(self, state, decision, seating, language)

    def describe(self, state: GameState, action: str, language: str) -> str:
        return self.describe_action(state, Action.from_text(action), language)

    def picture_text(self, view: DifView, players: Mapping[str, str], language: str) -> str:
        return alttext.picture_text(view, players, language)

    def describe_action(self, state: GameState, a: Action, language: str = "en") -> str:
        """A short button label for an action, e.g. 'Maneuvering → Ki-43 (X1 leader)'."""
        engine = self.engine

        def card(code: str | None) -> str:
            return tr(engine.card_label(code), language) if code is not None else ""

        def cards(codes: tuple[str, ...]) -> str:
            return ", ".join(card(c) for c in codes)

        def plane(ref: str | None) -> str:
            return tr(plane_name(engine, state, ref), language) if ref is not None else ""

        def to(step: int) -> str:
            """The band the active element would move to."""
            active = state.elements[state.active] if state.active else None
            if active is None or active.altitude is None:
                return say("dif.ui.action.up" if step > 0 else "dif.ui.action.down")
            band = tr(Altitude(active.altitude + step).label, language)
            return say("dif.ui.action.to", altitude=band)

        def played() -> str:
            if not a.as_kind:
                return card(a.card)
            x = state.exchange
            if a.as_kind == "ACE" and x is not None and engine._bomber(state, x.target):
                return say("dif.ui.action.ace_crew", card=card(a.card))  # Zero! §19.35 AC
            kind = tr(_kind_name(a.as_kind), language)
            return say("dif.ui.action.as", card=card(a.card), kind=kind)

        def paying(codes: tuple[str, ...]) -> str:
            """What a climb or a follow costs: discards, and Full Throttle counters spent."""
            spent = [c for c in codes if c == COUNTER]
            rest = tuple(c for c in codes if c != COUNTER)
            parts = []
            if spent:
                parts.append(count("dif.ui.action.spend", len(spent), language))
            if rest:
                parts.append(say("dif.ui.action.discard_cards", cards=cards(rest)))
            return f" ({', '.join(parts)})" if parts else ""

        def say(key: str, **fields: Any) -> str:
            return t(key, language, **fields)

        v = a.verb
        if v == "alt":
            return tr(Altitude.from_code(a.arg or "M").label, language)
        if v == "wm":
            return say("dif.ui.action.wingman", plane=plane(a.target))
        if v == "angle":  # Zero! §20.31
            return say("dif.ui.action.angle", angle=tr(engine.angle_name(a.arg or ""), language))
        if v == "play" and a.arg is not None:
            up = a.arg == "up"
            return say(
                "dif.ui.action.vertical_roll",
                card=tr(CardKind.VER.label, language),
                way=say("dif.ui.action.climb_word" if up else "dif.ui.action.dive_word"),
                to=to(1 if up else -1),
                paying=paying(a.cards),
            )
        if v == "play":
            return say("dif.ui.action.at", card=played(), plane=plane(a.target))
        if v == "respond":
            return played()
        if v == "climb":
            return say("dif.ui.action.climb", to=to(1), paying=paying((a.card,) if a.card else ()))
        if v == "dive":
            return say("dif.ui.action.dive", to=to(-1))
        if v == "done":
            key = (
                "dif.ui.action.end_wingman"
                if state.step == "wingman_attack"
                else "dif.ui.action.done"
            )
            return say(key)
        if v == "follow":
            return say("dif.ui.action.follow", paying=paying(a.cards))
        if v == "discard":
            if a.cards:
                return say("dif.ui.action.discard", cards=cards(a.cards))
            return say("dif.ui.action.keep_all")
        if v == "redraw":
            if a.cards:
                return say("dif.ui.action.redraw", cards=cards(a.cards))
            return say("dif.ui.action.keep_hand")
        if v == "next":
            e = state.elements.get(a.target or "")
            name = engine.aircraft[e.aircraft].name if e is not None else ""
            return say("dif.ui.action.next", name=name, seat=a.target)
        if v in SIMPLE_ACTIONS:
            return say(f"dif.ui.action.{v}")
        return str(a)

    def target_notes(self, state: GameState, seating: Seating, language: str) -> dict[str, str]:
        """A short line per aircraft for menus: whose it is, its damage, its fight.

        ``wingman of Ki-43 Oscar (X1), flown by carol · Medium · 1/2 hits``: with
        several elements a side, the menu's label alone does not say enough.
        """
        view = self.shown_view(state, None)
        engaged: dict[str, str] = {}
        for g in view.engagements:
            engaged[g.leader] = g.on
            engaged[g.on] = g.leader
        labels = {e.seat: e.label for e in view.elements}
        notes = {}
        for e in view.elements:
            where = (
                tr(e.altitude.label, language)
                if e.altitude is not None
                else t("dif.ui.note.secret", language)
            )
            for p in (e.leader, e.wingman):
                if p is None:
                    continue
                leader = p.role == "leader"
                role = (
                    t("dif.ui.note.leader", language)
                    if leader
                    else t("dif.ui.note.wingman", language, element=e.label)
                )
                fight = ""
                if leader and e.seat in engaged:
                    other = labels.get(engaged[e.seat], engaged[e.seat])
                    fight = t("dif.ui.note.engaged", language, element=other)
                notes[p.ref] = t(
                    "dif.ui.note.line",
                    language,
                    role=role,
                    name=seating.names.get(e.seat, "?"),
                    where=where,
                    hits=p.hits,
                    capacity=p.capacity,
                    damaged=t("dif.ui.note.damaged", language) if p.damaged else "",
                    engaged=fight,
                )
        return notes

    # --- the lobby ----------------------------------------------------------------
    def option_fields(self) -> tuple[Field, ...]:
        return lobbytext.OPTION_FIELDS

    def pick_fields(self) -> tuple[Field, ...]:
        return lobbytext.PICK_FIELDS

    def switches(self) -> tuple[Switch, ...]:
        return lobbytext.SWITCHES

    def switch_line(self, name: str, value: Any) -> str:
        return lobbytext.switch_line(name, value)

    def catalogue_fields(self) -> tuple[Field, ...]:
        return lobbytext.CATALOGUE_FIELDS

    def aircraft_lines(self, options: DifOptions, language: str) -> list[str]:
        return lobbytext.aircraft_lines(self.engine, options, language)

    def lobby_title(self, options: DifOptions, game_id: int, format: str, language: str) -> str:
        return lobbytext.title(options, game_id, format, language)

    def side_heading(
        self, options: DifOptions, side: SideInfo, seats: Sequence[SeatPick], language: str
    ) -> str:
        return lobbytext.side_heading(self.engine, options, side, seats, language)

    def pick_text(self, options: DifOptions, pick: Any, language: str) -> str:
        return lobbytext.pick_text(self.engine, pick, language)

    def lobby_notes(
        self, options: DifOptions, seats: Sequence[SeatPick], *, open_lobby: bool, language: str
    ) -> list[str]:
        return lobbytext.notes(
            self.engine, options, seats, open_lobby=open_lobby, language=language
        )

    def lobby_menu_hint(self, more: bool, language: str) -> str:
        return lobbytext.menu_hint(more, language)

    def game_title(self, options: DifOptions, language: str) -> str:
        return f"{lobbytext.ruleset_title(options.ruleset, language)} {options.year}"

    def help_pages(self) -> tuple[HelpPage, ...]:
        return lobbytext.HELP_PAGES

    def demo(self, ruleset: str, format: str, scenario: int | None = None) -> DemoGame | None:
        """A dogfight for ``python -m bot demo``; none for a scenario (Down in Flames
        has no numbered scenarios here)."""
        found = DEMOS.get((ruleset, format)) if scenario is None else None
        return DemoGame(found[0], found[1]) if found is not None else None

    # --- history ------------------------------------------------------------------
    def log_title(self, setup: DifSetup) -> str:
        return f"{lobbytext.ruleset_title(setup.ruleset)}, {setup.year}"

    def log_fields(self, setup: DifSetup) -> dict[str, str]:
        return {"ruleset": setup.ruleset.value}

    def full_log_legend(self) -> str:
        return (
            "(A1 only) lines were private to that seat; [A1 hand] is the element's hand "
            "as its player-turn began."
        )

    def full_log_lines(self, event: Event, after: GameState) -> list[str]:
        """The hand of each element whose player-turn begins (from its owner's view)."""
        if event.kind == "player_turn" and event.data.get("seat") in after.elements:
            return [self._hand_line(after, str(event.data["seat"]))]
        return []

    def _hand_line(self, state: GameState, seat: str) -> str:
        """``[A1 hand] Maneuvering, Tight Turn; wingman's mini-hand: …`` (English: the
        exported log is the canonical record)."""
        engine = self.engine
        view = engine.view(state, seat)
        el = next(e for e in view.elements if e.seat == seat)
        cards = ", ".join(engine.card_label(c) for c in el.hand or ()) or "(empty)"
        text = f"[{seat} hand] {cards}"
        if el.minihand:
            text += "; wingman's mini-hand: " + ", ".join(engine.card_label(c) for c in el.minihand)
        if el.counters:
            text += f"; {el.counters} Full Throttle counter(s)"
        return text

    def final_lines(self, state: GameState) -> list[str]:
        """``  X2L-lost1  A6M2 Zero  damaged, destroyed, 3 hits`` per aircraft."""
        lines = []
        for el in self.engine.view(state, None).elements:
            for p in (*el.lost, el.leader, el.wingman):
                if p is not None:
                    damaged = "damaged, " if p.damaged else ""
                    lines.append(
                        f"  {p.ref:<10} {p.aircraft:<20} {damaged}{p.status.value}, {p.hits} hits"
                    )
        return lines

    def notable(self, event: Event) -> bool:
        return event.kind in NOTABLE

    def report(
        self,
        start: GameState,
        moves: Sequence[Played],
        outcome: Outcome,
        players: Mapping[str, str],
    ) -> WrittenReport:
        return report.written(self.engine, start, moves, outcome, players)
