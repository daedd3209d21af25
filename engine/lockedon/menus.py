"""A Locked-On seat's choices as menus and buttons (:class:`~engine.core.present.Menu`).

Built from ``legal_actions`` only, so nothing illegal is offered and every legal move is
reachable. A Locked-On decision may have hundreds of legal actions (every card, as an
Action or as Maneuvering for Position or Range, every split of a Range change, every
target, every set of cards paying a gun attack), so the choices are a tree:

* **Play cards**: the card (one entry per card of the hand; the Aircraft Expertise
  cards in a menu of their own), then its use (its Action: a gun attack, a Tone for a
  missile, Barrel Roll, Scissors, a Tactic, a Vertical Roll up or down; Maneuvering for
  Position; Maneuvering for Range; the same as an Ace Pilot with Agile), then the target
  when there are several, then the amount, the split of the Range change, the missile,
  or the cards paying the attack (a multi-pick: any set of that many cards is legal).
* **Discards** (Pre- and Post-Turn, down to Performance, Timely, following an altitude
  change, the card paying a climb) are multi-picks of the hand.
* **Quick choices** are buttons: end a step, pass, stay, dive, launch or not,
  afterburners on or off, give up a position.

A message holds five rows (a menu fills one, buttons go five to a row) and a menu 25
options (24 below the top: the generic menu adds **Back**); a longer level ends with a
**More…** branch. Labels are words, never notation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar, cast

from engine.core.contract import Decision
from engine.core.present import Choice, Item, Menu, Seating, Several, Tone
from engine.lockedon import geometry
from engine.lockedon.actions import COUNTER, Action
from engine.lockedon.state import GameState, Launch
from engine.lockedon.words import altitude_word, range_word
from strings import t, tr

if TYPE_CHECKING:
    from engine.lockedon.ui import LockedOnPresenter

T = TypeVar("T")

__all__ = ["BELOW", "MAX_ROWS", "TOP", "seat_menu", "side_menu"]

MAX_ROWS = 5
"""Rows of components a Discord message may carry."""
TOP = 25
"""Options of a menu's first level."""
BELOW = 24
"""Options of a deeper level (the generic menu adds **Back**)."""
LABEL = 100
BUTTON = 80
QUIET = frozenset({"pass", "nofollow", "nolaunch", "end", "stay", "giveup"})
"""Verbs whose button is quiet (passing, ending a step, keeping things as they are)."""
USES = ("guns", "guns_gf", "tone", "action", "tactic", "vr_up", "vr_down", "pos", "range")
"""A card's uses in the order its menu lists them (its Action first)."""


def cut(text: str, n: int = LABEL) -> str:
    """``text`` within ``n`` characters (an ellipsis marks a cut)."""
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def fit(children: Sequence[Choice], depth: int, more: str) -> tuple[Choice, ...]:
    """The choices of one level within its room; the rest behind ``more`` (itself a
    level one deeper, fitted the same way). Each child's own children are fitted too."""
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


class _Builder:
    """The words and pieces of one seat's menu in one language."""

    def __init__(
        self,
        presenter: LockedOnPresenter,
        state: GameState,
        seat: str,
        seating: Seating,
        language: str,
    ) -> None:
        self.p = presenter
        self.e = presenter.engine
        self.state = state
        self.seat = seat
        self.seating = seating
        self.language = language
        self._once: dict[tuple[Any, ...], Any] = {}
        """Words already worked out for this menu (one state, seat and language): a
        hand offers the same target and the same Range step under many cards."""

    def once(self, key: tuple[Any, ...], make: Callable[[], T]) -> T:
        """``make()``, worked out once per menu for ``key`` (what it depends on)."""
        if key not in self._once:
            self._once[key] = make()
        return cast(T, self._once[key])

    def say(self, key: str, **fields: Any) -> str:
        return t(f"lockedon.ui.{key}", self.language, **fields)

    def words(self, a: Action) -> str:
        return self.p.describe_action(self.state, a, self.language)

    def card(self, code: str | None) -> str:
        return tr(self.p.card(code), self.language)

    def plane(self, seat: str | None) -> str:
        return self.p.seat_label(self.state, seat or "")

    def note(self, target: str | None) -> str | None:
        if target is None:
            return None
        return self.once(
            ("note", target),
            lambda: (
                self.p.target_note(self.state, self.seat, target, self.seating, self.language)
                or None
            ),
        )

    def leaf(self, a: Action, label: str | None = None, description: str | None = None) -> Choice:
        return Choice(
            cut(label or self.words(a)),
            action=str(a),
            description=cut(description) if description else None,
        )

    def button(self, a: Action, label: str | None = None, tone: Tone | None = None) -> Choice:
        if tone is None:
            quiet = a.verb in QUIET or (a.verb == "ab" and a.mode == "off")
            tone = Tone.QUIET if quiet else Tone.MOVE
        return Choice(cut(label or self.words(a), BUTTON), action=str(a), tone=tone)

    def items(self, codes: Sequence[str]) -> tuple[Item, ...]:
        """One item per card (a card held twice is two items), by name."""
        pairs = sorted((self.card(c), c) for c in codes)
        return tuple(Item(cut(label), code) for label, code in pairs)

    def hand(self, without: str | None = None) -> list[str]:
        codes = self.e.codes(self.state, self.state.planes[self.seat].hand)
        if without is not None and without in codes:
            codes.remove(without)
        return codes

    def several(
        self, label: str, prefix: str, codes: Sequence[str], least: int, most: int | None
    ) -> Choice:
        return Choice(
            cut(label) if label else "",
            several=Several(prefix, self.items(codes), least, most),
            placeholder=cut(label or prefix, 150),
        )

    def menu(self, children: Sequence[Choice], placeholder: str) -> Choice:
        return Choice("", children=tuple(children), placeholder=cut(placeholder, 150))


# ---------------------------------------------------------------- a seat's decision
def seat_menu(
    presenter: LockedOnPresenter, state: GameState, seat: str, seating: Seating, language: str
) -> Menu:
    """Buttons and menus for every legal action of ``seat``, labelled in ``language``."""
    engine = presenter.engine
    actions = presenter.shown_legal(state, seat)
    if not actions:
        return Menu()
    kind = next(d.kind for d in engine.pending(state) if d.seat == seat)
    b = _Builder(presenter, state, seat, seating, language)
    timely = [a for a in actions if a.verb == "timely"]
    rest = [a for a in actions if a.verb != "timely"]
    build = _BUILDERS.get(kind, _buttons_only)
    menus, buttons = build(b, rest)
    if timely:
        menus.append(b.several(b.say("menu.timely"), "timely", b.hand(), 1, None))
    more = b.say("menu.more")
    menus = [_fitted(m, 0, more) if m.children else m for m in menus]
    buttons.sort(key=lambda c: c.tone is not Tone.MOVE)  # moves first, then passing
    return _rows(b, menus, buttons)


def _rows(b: _Builder, menus: list[Choice], buttons: list[Choice]) -> Menu:
    """Within five rows: if the buttons do not fit, they go in a menu of their own."""
    rows = len(menus) + -(-len(buttons) // 5)
    if rows > MAX_ROWS and buttons:
        leaves = [Choice(cut(c.label), action=c.action) for c in buttons]
        menus.append(_fitted(b.menu(leaves, b.say("menu.choose")), 0, b.say("menu.more")))
        buttons = []
    return Menu(tuple(menus), tuple(buttons))


Built = tuple[list[Choice], list[Choice]]


def _buttons_only(b: _Builder, actions: list[Action]) -> Built:
    """A few quick choices: a button each (more than ten: a menu)."""
    if len(actions) <= 10:
        return [], [b.button(a) for a in actions]
    return [b.menu([b.leaf(a) for a in actions], b.say("menu.choose"))], []


def _altitude(b: _Builder, actions: list[Action]) -> Built:
    """The secret starting altitude: a menu (L76), with what each band changes."""
    leaves = [b.leaf(a, description=b.say(f"menu.alt_note.{a.mode}")) for a in actions]
    return [b.menu(leaves, b.say("menu.alt"))], []


def _next(b: _Builder, actions: list[Action]) -> Built:
    """Which aircraft of the side takes the next turn (L390)."""
    if len(actions) <= 10:
        return [], [b.button(a) for a in actions]
    leaves = [b.leaf(a, b.plane(a.target), _flown_by(b, a.target)) for a in actions]
    return [b.menu(leaves, b.say("menu.next"))], []


def _flown_by(b: _Builder, seat: str | None) -> str | None:
    who = b.seating.players.get(seat or "") or b.seating.names.get(seat or "")
    return b.say("menu.flown_by", name=who) if who else None


def _discard(b: _Builder, actions: list[Action]) -> Built:
    """Pre- or Post-Turn Discard: any cards of the hand, or none (L105, L118)."""
    menus, buttons = [], []
    if any(a.cards for a in actions):
        menus.append(b.several(b.say("menu.discard"), "discard", b.hand(), 1, None))
    for a in actions:
        if not a.cards:
            buttons.append(b.button(a, tone=Tone.CONFIRM))
    return menus, buttons


def _trim(b: _Builder, actions: list[Action]) -> Built:
    """Edge of Envelope: exactly this many cards down to Performance (L372)."""
    n = len(actions[0].cards)
    label = b.say("menu.trim", n=n)
    return [b.several(label, "trim", b.hand(), n, n)], []


def _altitude_step(b: _Builder, actions: list[Action]) -> Built:
    """Stay, dive (buttons) or climb paying one card (a pick of the card, L218-220)."""
    menus, buttons = [], []
    climbs = sorted({a.cards[0] for a in actions if a.verb == "climb"})
    if climbs:
        label = b.say("menu.climb", altitude=_vertical_to(b, "vr_up"))
        menus.append(b.several(label, "climb", climbs, 1, 1))
    buttons = [b.button(a) for a in actions if a.verb != "climb"]
    return menus, buttons


def _speed(b: _Builder, actions: list[Action]) -> Built:
    """Speed Maneuvering points (L110-112): by target, then Position or a Range step."""
    points = [a for a in actions if a.verb == "speed"]
    buttons = [b.button(a) for a in actions if a.verb != "speed"]
    if not points:
        return [], buttons
    children = _by_target(b, points, lambda acts: [b.leaf(a) for a in acts])
    return [b.menu(children, b.say("menu.speed"))], buttons


def _by_target(
    b: _Builder,
    actions: Sequence[Action],
    make: Callable[[list[Action]], list[Choice]],
) -> list[Choice]:
    """``make``'s choices for each target of ``actions``, under a branch per target when
    there are several (no target: the aircraft's own Range counter only)."""
    targets = list(dict.fromkeys(a.target for a in actions))
    groups = {x: [a for a in actions if a.target == x] for x in targets}
    if len(targets) == 1:
        return make(groups[targets[0]])
    out = []
    for x in targets:
        kids = make(groups[x])
        label = b.plane(x) if x is not None else b.say("menu.own_range")
        if len(kids) == 1 and kids[0].several is None and kids[0].leaf:
            out.append(replace(kids[0], description=b.note(x)))
        elif len(kids) == 1 and kids[0].several is not None:
            out.append(replace(kids[0], label=cut(label), description=b.note(x)))
        else:
            out.append(
                Choice(
                    cut(label),
                    children=tuple(kids),
                    description=b.note(x),
                    placeholder=cut(b.say("menu.choose"), 150),
                )
            )
    return out


def _use(b: _Builder, a: Action) -> str:
    """How a card is played: its Action, or Maneuvering (L140-159)."""
    if a.mode in ("pos", "range"):
        return a.mode
    if a.mode == "up":
        return "vr_up"
    if a.mode == "down":
        return "vr_down"
    if a.missile is not None:
        return "tone"
    t_ = b.e.by_code[a.card or ""]
    if t_.is_guns and a.target is not None:
        return "guns_gf" if a.gf else "guns"
    if a.target is None:
        return "tactic"
    return "action"


def _play(b: _Builder, actions: list[Action]) -> Built:
    """The Play Cards step (L113-116): a tree of the hand's cards, another of the
    Aircraft Expertise cards; ending the step and giving up a position are buttons."""
    buttons = [b.button(a) for a in actions if a.verb in ("end", "giveup")]
    played = [a for a in actions if a.verb == "play"]
    menus = []
    for side, placeholder in ((False, "menu.play"), (True, "menu.play_expertise")):
        mine = [a for a in played if a.side is side]
        cards = list(dict.fromkeys(a.card for a in mine))
        children = [_card(b, code, [a for a in mine if a.card == code]) for code in cards]
        children.sort(key=lambda c: c.label)
        if children:
            menus.append(b.menu(children, b.say(placeholder)))
    return menus, buttons


def _card(b: _Builder, code: str | None, actions: list[Action]) -> Choice:
    """One card: its uses, each a branch (or a leaf when it has one move only)."""
    t_ = b.e.by_code[code or ""]
    label = b.card(code)
    if actions[0].side:
        label = b.say("action.expertise", card=label)
    uses: list[Choice] = []
    for ace in (False, True):
        for use in USES:
            acts = [a for a in actions if a.ace is ace and _use(b, a) == use]
            if acts:
                uses.append(_use_node(b, use, acts, ace=ace))
    note = b.say("menu.card_note", pos=t_.positioning, range=t_.range)
    return Choice(
        cut(label),
        children=tuple(uses),
        description=cut(note),
        placeholder=cut(b.say("menu.use_of", card=b.card(code)), 150),
    )


def _use_node(b: _Builder, use: str, acts: list[Action], *, ace: bool) -> Choice:
    a0 = acts[0]
    t_ = b.e.ace_type if ace else b.e.by_code[a0.card or ""]
    if use == "tactic":
        return b.leaf(a0, b.say("menu.use.tactic"), b.say("menu.tactic_note"))
    if use in ("guns", "guns_gf"):
        k = len(a0.cards)
        label = b.say(f"menu.use.{use}", n=k) if k else b.say("menu.use.guns_free")
        kids = _by_target(b, acts, lambda group: [_guns(b, group)])
    elif use == "tone":
        label = b.say("menu.use.tone")
        kids = _by_target(b, acts, lambda group: [_tone_leaf(b, a) for a in group])
    elif use == "action":
        label = b.say("menu.use.action", card=b.card(a0.card))
        kids = _by_target(
            b,
            acts,
            lambda group: [b.leaf(a, b.say("menu.at", plane=b.plane(a.target))) for a in group],
        )
    elif use in ("vr_up", "vr_down"):
        label = b.say(f"menu.use.{use}", altitude=_vertical_to(b, use))
        kids = _by_target(b, acts, lambda group: [_vertical_leaf(b, a) for a in group])
    elif use == "pos":
        label = b.say("menu.use.pos", n=t_.positioning)
        kids = _by_target(b, acts, lambda group: [_pos_leaf(b, a) for a in group])
    else:
        label = b.say("menu.use.range", n=t_.range)
        kids = _by_target(b, acts, lambda group: [_range_leaf(b, a) for a in group])
    if ace:
        skill = b.e.ace_skill(b.state.planes[b.seat], vs_guns=False)
        name = b.e.skills[skill].name if skill else ""
        label = b.say("menu.use.ace", use=label, skill=name)
    if len(kids) == 1 and kids[0].several is not None:
        return replace(kids[0], label=cut(label))
    return Choice(cut(label), children=tuple(kids), placeholder=cut(label, 150))


def _guns(b: _Builder, group: list[Action]) -> Choice:
    """A gun attack on one target: free, or paid with any ``k`` other cards (L172)."""
    a0 = group[0]
    k = len(a0.cards)
    if k == 0:
        return b.leaf(a0, b.say("menu.fire", plane=b.plane(a0.target)), b.note(a0.target))
    head = str(replace(a0, cards=()))
    rest = b.hand() if a0.side else b.hand(without=a0.card)
    label = b.say("menu.pay_guns", n=k, plane=b.plane(a0.target))
    return b.several(label, f"{head} paying", rest, k, k)


def _vertical_to(b: _Builder, use: str) -> str:
    """The altitude a Vertical Roll would take the aircraft to."""
    alt = b.state.planes[b.seat].altitude
    step = 1 if use == "vr_up" else -1
    return tr(altitude_word(alt + step), b.language) if alt is not None else ""


def _tone_leaf(b: _Builder, a: Action) -> Choice:
    assert a.missile is not None and a.target is not None
    m = b.e.missiles[a.missile]
    t_ = b.e.by_code[a.card or ""]
    left = b.state.planes[b.seat].missiles.get(a.missile, 0)
    k = b.e.missile_cards(b.state, b.seat, Launch(b.seat, a.target, a.missile, t_.missile_cards), 1)
    label = b.say("menu.tone", missile=m.name, left=left, plane=b.plane(a.target))
    return b.leaf(a, label, b.say("menu.tone_note", k=k))


def _vertical_leaf(b: _Builder, a: Action) -> Choice:
    if a.mode == "up":
        label = b.say("menu.vr_up", card=b.card(a.cards[0]), plane=b.plane(a.target))
    else:
        label = b.say("menu.vr_down", plane=b.plane(a.target))
    return b.leaf(a, label)


def _pos_leaf(b: _Builder, a: Action) -> Choice:
    to = b.p.pos_after(b.state, a, b.language)
    return b.leaf(a, b.say("menu.pos", n=a.n, plane=b.plane(a.target), to=to))


def _range_leaf(b: _Builder, a: Action) -> Choice:
    label, note = b.once(
        ("range", a.target, a.own, a.enemy),  # the same step under every card offering it
        lambda: (
            b.say("menu.range", range=b.p.range_words(b.state, a, b.language)),
            _range_note(b, a),
        ),
    )
    return b.leaf(a, label, note)


def _range_note(b: _Builder, a: Action) -> str | None:
    """The range between the two aircraft after the change (L189-193)."""
    if a.target is None:
        return None
    me, them = b.state.planes[b.seat], b.state.planes[a.target]
    if me.altitude is None or them.altitude is None:
        return None
    band = geometry.band(
        max(0, min(3, me.range + a.own)),
        me.altitude,
        max(0, min(3, them.range + a.enemy)),
        them.altitude,
    )
    return b.say("menu.range_note", band=tr(range_word(band), b.language))


def _react(b: _Builder, actions: list[Action]) -> Built:
    """A reaction (L133-137), a Teamwork reaction (L400-404) or the Missile's answer
    (L262): pass, Alert, Countermeasures are buttons; the cards are buttons too when
    few, else a menu (cards played as an Ace Pilot in a branch of their own)."""
    teamwork = any(d.kind == "teamwork" for d in b.e.pending(b.state) if d.seat == b.seat)
    buttons = []
    for a in actions:
        if a.verb == "pass":
            key = "menu.no_teamwork" if teamwork else "menu.no_reaction"
            buttons.append(b.button(a, b.say(key)))
        elif a.verb == "alert" or a.card == COUNTER:
            buttons.append(b.button(a))
    cards = [a for a in actions if a.verb == "react" and a.card != COUNTER]
    if len(cards) + len(buttons) <= 10:
        return [], [*[b.button(a) for a in cards], *buttons]
    plain = [b.leaf(a, b.p.played(a, b.language)) for a in cards if not a.ace]
    aces = [b.leaf(a, b.p.played(a, b.language)) for a in cards if a.ace]
    if aces:
        plain.append(
            Choice(b.say("menu.as_ace"), children=tuple(aces), placeholder=b.say("menu.as_ace"))
        )
    return [b.menu(plain, b.say("menu.react"))], buttons


def _follow(b: _Builder, actions: list[Action]) -> Built:
    """Follow an altitude change paying its cost (any such cards), or not (L229-236)."""
    buttons = [b.button(a) for a in actions if a.verb == "nofollow" or not a.cards]
    paid = [a for a in actions if a.verb == "follow" and a.cards]
    if not paid:
        return [], buttons
    n = len(paid[0].cards)
    label = b.say("menu.follow", n=n)
    return [b.several(label, "follow", b.hand(), n, n)], buttons


def _batturn(b: _Builder, actions: list[Action]) -> Built:
    return [], [
        b.button(a, b.say("menu.keep_positions") if a.verb == "pass" else None) for a in actions
    ]


_BUILDERS: dict[str, Callable[[_Builder, list[Action]], Built]] = {
    "altitude": _altitude,
    "next": _next,
    "predraw": _discard,
    "postdraw": _discard,
    "trim": _trim,
    "altitude_step": _altitude_step,
    "speed": _speed,
    "play": _play,
    "react": _react,
    "teamwork": _react,
    "follow": _follow,
    "batturn": _batturn,
    "site": _react,
}
"""How each kind of decision is laid out (the others: a button per move)."""


# ---------------------------------------------------------------- a side's decision
def side_menu(
    presenter: LockedOnPresenter,
    state: GameState,
    decision: Decision,
    seating: Seating,
    language: str,
) -> Menu:
    """Team Games (L390): the public menu of the aircraft the side may send next, each
    with who flies it."""
    if decision.kind != "next":
        return Menu()
    engine = presenter.engine
    b = _Builder(presenter, state, decision.seat, seating, language)
    options = [
        b.leaf(a, presenter.seat_label(state, a.target or ""), _flown_by(b, a.target))
        for a in engine.legal_actions(state, decision.seat)
        if a.verb == "next"
    ]
    if not options:
        return Menu()
    top = _fitted(b.menu(options, b.say("menu.next")), 0, b.say("menu.more"))
    return Menu((top,))
