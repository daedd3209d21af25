"""An Eagles in the Sky seat's choices as menus and buttons
(:class:`~engine.core.present.Menu`).

Built from ``legal_actions`` only, so nothing illegal is offered and every legal move
is reachable. An activation may have hundreds of legal actions (every aircraft, every
card of the side's hand with each of its symbols, every target, fire or hold fire,
give up a position, jettison bombs, a balloon's Fire Value), so the choices are a tree:

* **Activate**: a menu per unactivated aircraft (one menu with the aircraft first when
  there are more than four): the card, then what to do with it (tail, head-on, escape,
  dive, climb, clear the guns, idle...), then the target, then the options (fire or
  hold fire, give up a position, jettison, a Fire Value); a level with one choice is
  skipped. Passing, ending the phase and lowering a balloon are buttons.
* **Respond** (by DM): the Response cards in a menu (each with its total), passing and
  letting an aircraft escape are buttons.
* **Follow**, **place**, **remove**, a campaign's **withdraw** and **trouble**: buttons. **Discard**: a multi-pick of the hand, and
  a button to keep every card when none must go.

A message holds five rows and a menu 25 options (24 below the top: the generic menu
adds **Back**); a longer level ends with a **More…** branch. Labels are words, never
notation.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar, cast

from engine.core.contract import Decision
from engine.core.present import Choice, Item, Menu, Seating, Several, Tone
from engine.eagles.actions import Action
from engine.eagles.describe import altitude_word, rating_word
from engine.eagles.hand import MANEUVERS
from engine.eagles.state import GameState
from strings import t, tr

if TYPE_CHECKING:
    from engine.eagles.ui import EaglesPresenter

T = TypeVar("T")

__all__ = ["BELOW", "MAX_MENUS", "TOP", "fit", "seat_menu", "side_menu"]

TOP = 25
BELOW = 24
LABEL = 100
BUTTON = 80
MAX_MENUS = 4
"""Aircraft menus of one message (the fifth row holds the buttons)."""
QUIET = frozenset({"pass", "end", "stay"})


def cut(text: str, n: int = LABEL) -> str:
    """``text`` within ``n`` characters (an ellipsis marks a cut)."""
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def fit(children: Sequence[Choice], depth: int, more: str) -> tuple[Choice, ...]:
    """The choices of one level within its room; the rest behind ``more``."""
    kids = tuple(_fitted(c, depth + 1, more) for c in children)
    room = TOP if depth == 0 else BELOW
    if len(kids) <= room:
        return kids
    rest = fit(kids[room - 1 :], depth + 1, more)
    return (*kids[: room - 1], Choice(more, children=rest))


def _fitted(node: Choice, depth: int, more: str) -> Choice:
    if not node.children:
        return node
    return replace(node, children=fit(node.children, depth, more))


Level = tuple[Callable[[Action], Hashable], Callable[[Action], str], Callable[[Action], str | None]]
"""How one level of a tree groups actions: its key, its label, its description."""


class _Builder:
    """The words and pieces of one seat's menu in one language."""

    def __init__(
        self, presenter: EaglesPresenter, state: GameState, seat: str, language: str
    ) -> None:
        self.p = presenter
        self.e = presenter.engine
        self.state = state
        self.seat = seat
        self.language = language
        self._once: dict[tuple[Any, ...], Any] = {}
        """Words already worked out for this menu (one state, seat and language): an
        activation lists every card, maneuver, target and option together, and the
        same aircraft, card or option words come back on hundreds of its leaves."""

    def once(self, key: tuple[Any, ...], make: Callable[[], T]) -> T:
        """``make()``, worked out once per menu for ``key`` (what it depends on)."""
        if key not in self._once:
            self._once[key] = make()
        return cast(T, self._once[key])

    def say(self, key: str, **fields: Any) -> str:
        if not fields:
            return self.once(("say", key), lambda: t(f"eagles.ui.menu.{key}", self.language))
        return t(f"eagles.ui.menu.{key}", self.language, **fields)

    def words(self, a: Action) -> str:
        return self.p.describe_action(self.state, a, self.language)

    def plane(self, ref: str | None) -> str:
        return self.once(("plane", ref), lambda: tr(self.p.plane(self.state, ref), self.language))

    def button(self, a: Action, label: str | None = None, tone: Tone | None = None) -> Choice:
        if tone is None:
            tone = Tone.QUIET if a.verb in QUIET else Tone.MOVE
        return Choice(cut(label or self.words(a), BUTTON), action=str(a), tone=tone)

    def menu(self, children: Sequence[Choice], placeholder: str) -> Choice:
        more = self.say("more")
        return Choice("", children=fit(children, 0, more), placeholder=cut(placeholder, 150))

    # --- the tree -------------------------------------------------------------------
    def tree(self, actions: Sequence[Action], levels: Sequence[Level]) -> list[Choice]:
        """The actions grouped level by level; a level with one group is skipped, a
        group of one action is a leaf labelled with what is left to say."""
        if not levels:
            return [self.leaf(a, self.rest(a, ())) for a in actions]
        key, label, note = levels[0]
        groups: dict[Hashable, list[Action]] = {}
        for a in actions:
            groups.setdefault(key(a), []).append(a)
        if len(groups) == 1 and len(levels) > 1:
            return self.tree(actions, levels[1:])
        if len(groups) == 1:  # the last level, one group: its label goes on every leaf
            head = label(actions[0])
            return [
                self.leaf(a, " · ".join(x for x in (head, self.options(a)) if x), note(a))
                for a in actions
            ]
        out = []
        for group in groups.values():
            a0 = group[0]
            if len(group) == 1:
                extra = self.rest(a0, levels[1:])
                head = label(a0)
                out.append(self.leaf(a0, f"{head} · {extra}" if extra else head, note(a0)))
                continue
            kids = self.tree(group, levels[1:])
            out.append(
                Choice(
                    cut(label(a0)),
                    children=tuple(kids),
                    description=_cut(note(a0)),
                    placeholder=cut(self.say("choose"), 150),
                )
            )
        return out

    def rest(self, a: Action, levels: Sequence[Level]) -> str:
        """The labels of the levels below, for a leaf that stands for them all."""
        parts = [label(a) for _, label, _ in levels]
        opts = self.options(a)
        if opts:
            parts.append(opts)
        return " · ".join(p for p in parts if p)

    def leaf(self, a: Action, label: str, description: str | None = None) -> Choice:
        return Choice(
            cut(_upper(label) or self.words(a)), action=str(a), description=_cut(description)
        )

    # --- the levels' words ---------------------------------------------------------
    def card_label(self, a: Action) -> str:
        return self.once(("card", a.card), lambda: self.p.card(a.card))

    def card_note(self, a: Action) -> str | None:
        card = a.card
        if card is None:
            return None
        return self.once(("card_note", card), lambda: self.p.card_note(card, self.language))

    def maneuver_label(self, a: Action) -> str:
        """``Tail (Dive)``, ``Escape (Climb)``, ``Dive``..."""
        return self.once(("maneuver", a.verb, a.as_card, a.symbol), lambda: self._maneuver(a))

    def _maneuver(self, a: Action) -> str:
        word = _upper(t(f"eagles.ui.verb.{a.verb}", self.language))
        if a.as_card:
            return self.say(f"as_{a.as_card}", maneuver=word)
        if a.symbol and a.verb not in ("dive", "climb"):
            return self.say("with", maneuver=word, rating=tr(rating_word(a.symbol), self.language))
        return word

    def maneuver_note(self, a: Action) -> str | None:
        """The total a Targeted Activation makes (§8.27), or the altitude reached."""
        if a.verb in ("tail", "headon", "escape"):
            total = self.p.total(self.state, a)
            return self.say("total", total=total) if total is not None else None
        if a.verb in ("dive", "climb", "leaf"):
            p = self.state.find(a.plane or "")
            if p is not None and a.verb == "dive" and p.altitude > 0:
                return self.say("to", altitude=tr(altitude_word(p.altitude - 1), self.language))
        return None

    def target_label(self, a: Action) -> str:
        return self.plane(a.target)

    def target_note(self, a: Action) -> str | None:
        return self.once(("where", a.target), lambda: self._where(a.target))

    def _where(self, target: str | None) -> str | None:
        p = self.state.find(target or "")
        if p is None:
            return None
        return tr(self.p.where(self.state, p, self.language), self.language)

    def options(self, a: Action) -> str:
        """``Fire Value 4, hold fire, give up the position``: a move's options; empty
        for a move with none to choose."""
        parts = []
        if a.verb == "balloon":
            parts.append(self.say("fv", fv=a.fv))
        if a.verb in ("tail", "headon", "respond"):
            parts.append(self.say("hold" if a.has("hold") else "fire"))
        if a.verb == "escape" and a.target and a.symbol in ("climb", "dive"):
            parts.append(self.say("change" if a.has("change") else "keep"))
        for flag, key in (
            ("giveup", "giveup"),
            ("jettison", "jettison"),
            ("+1", "plus"),
            ("rockets", "rockets"),
            ("gunner", "gunner"),
            ("sun", "sun"),
        ):
            if a.has(flag):
                parts.append(self.say(key))
        return ", ".join(parts)

    def levels(self, *, aircraft: bool) -> list[Level]:
        """aircraft -> card -> maneuver -> target -> options."""
        out: list[Level] = []
        if aircraft:
            out.append((lambda a: a.plane, lambda a: self.plane(a.plane), lambda a: None))
        out += [
            (lambda a: a.card, self.card_label, self.card_note),
            (
                lambda a: (a.verb, a.symbol, a.as_card),
                self.maneuver_label,
                self.maneuver_note,
            ),
            (lambda a: a.target, self.target_label, self.target_note),
        ]
        return out


def _upper(text: str) -> str:
    """``text`` with a capital first letter (the rest as written)."""
    return text[:1].upper() + text[1:]


def _cut(text: str | None) -> str | None:
    return cut(text) if text else None


Built = tuple[list[Choice], list[Choice]]


def _order(a: Action) -> tuple[int, int, str]:
    verb = MANEUVERS.index(a.verb) if a.verb in MANEUVERS else len(MANEUVERS)
    return (a.card or 0, verb, str(a))


def _activate(b: _Builder, actions: list[Action]) -> Built:
    """The side's activation (§8): a menu per aircraft, or one with the aircraft first."""
    buttons = [b.button(a) for a in actions if a.verb in ("pass", "end", "offer", "lower")]
    moves = sorted((a for a in actions if a.plane and a.verb != "lower"), key=_order)
    planes = list(dict.fromkeys(a.plane for a in moves))
    menus = []
    if len(planes) <= MAX_MENUS:
        for ref in planes:
            mine = [a for a in moves if a.plane == ref]
            kids = b.tree(mine, b.levels(aircraft=False))
            menus.append(b.menu(kids, b.say("activate", plane=b.plane(ref))))
    else:
        kids = b.tree(moves, b.levels(aircraft=True))
        menus.append(b.menu(kids, b.say("activate_any")))
    return menus, buttons


def _respond(b: _Builder, actions: list[Action]) -> Built:
    """A Response (§8.4): the cards that answer in a menu, each with its total; no
    Response (firing or holding fire) and letting the aircraft escape are buttons."""
    buttons = [b.button(a) for a in actions if a.verb in ("pass", "allow")]
    cards = [a for a in actions if a.verb == "respond"]
    if not cards:
        return [], buttons

    def label(a: Action) -> str:
        total = b.p.total(b.state, a, response=True)
        card = b.p.played(a, b.language)
        return b.say("response", card=card, total=total if total is not None else "?")

    levels: list[Level] = [
        (lambda a: (a.card, a.symbol, a.as_card), label, b.card_note),
    ]
    kids = b.tree(cards, levels)
    return [b.menu(kids, b.say("respond"))], buttons


def _discard(b: _Builder, actions: list[Action]) -> Built:
    """The Card Draw Phase (§7.2): any allowed number of the hand's cards, or none."""
    menus: list[Choice] = []
    buttons = [b.button(a, tone=Tone.CONFIRM) for a in actions if not a.cards]
    sizes = [len(a.cards) for a in actions if a.cards]
    if sizes:
        side = b.e.side_of(b.state, b.seat)
        hand = sorted(b.state.hands.get(side, []))
        items = tuple(
            Item(cut(b.p.card(c)), str(c), _cut(b.p.card_note(c, b.language))) for c in hand
        )
        label = b.say("discard", low=min(sizes), high=max(sizes))
        menus.append(
            Choice(
                "",
                several=Several("discard", items, min(sizes), max(sizes)),
                placeholder=cut(label, 150),
            )
        )
    return menus, buttons


def _buttons(b: _Builder, actions: list[Action]) -> Built:
    if len(actions) <= 10:
        return [], [b.button(a) for a in actions]
    return [b.menu([b.leaf(a, b.words(a)) for a in actions], b.say("choose"))], []


_BUILDERS: dict[str, Callable[[_Builder, list[Action]], Built]] = {
    "activate": _activate,
    "respond": _respond,
    "discard": _discard,
}


def seat_menu(
    presenter: EaglesPresenter, state: GameState, seat: str, seating: Seating, language: str
) -> Menu:
    """Buttons and menus for every legal action of ``seat``, labelled in ``language``."""
    engine = presenter.engine
    actions = presenter.shown_legal(state, seat)
    if not actions:
        return Menu()
    kind = next(d.kind for d in engine.pending(state) if d.seat == seat)
    b = _Builder(presenter, state, seat, language)
    menus, buttons = _BUILDERS.get(kind, _buttons)(b, actions)
    buttons.sort(key=lambda c: c.tone is not Tone.MOVE)
    rows = len(menus) + -(-len(buttons) // 5)
    if rows > 5 and buttons:
        leaves = [Choice(cut(c.label), action=c.action) for c in buttons]
        menus.append(b.menu(leaves, b.say("choose")))
        buttons = []
    return Menu(tuple(menus), tuple(buttons))


def side_menu(
    presenter: EaglesPresenter,
    state: GameState,
    decision: Decision,
    seating: Seating,
    language: str,
) -> Menu:
    """No public menu: every decision of a side shows its hand's cards, so each of its
    players takes it from their own message (**My hand**)."""
    return Menu()
