"""A Down in Flames element's choices as menus and buttons (:class:`~engine.core.present.Menu`).

Built from ``legal_actions`` only, so nothing illegal is offered and every legal move
is reachable. A message holds five rows of components (a menu fills one, buttons go
five to a row) and a menu 25 options: up to ten moves are buttons; more go in menus
of 25 (the secret altitude is always a menu). When the card-and-target moves do not
fit one menu (several elements at one altitude), a menu of targets comes first, each
target opening the moves against it. The discard step and the Combat Vision redraw
pick any number of cards of the hand at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.contract import Decision
from engine.core.present import Choice, Item, Menu, Seating, Several, Tone
from engine.dif.actions import Action
from engine.dif.state import GameState
from strings import t, tr

if TYPE_CHECKING:
    from engine.dif.ui import DifPresenter

__all__ = ["MAX_ROWS", "MENU_PLACEHOLDERS", "MENU_VERBS", "QUIET_VERBS", "seat_menu", "side_menu"]

MAX_ROWS = 5
"""Rows of components a Discord message may carry."""
MENU_VERBS = frozenset({"play", "respond", "climb", "follow", "wm", "alt", "next"})
"""Moves that go in a select menu when there are too many for buttons."""
MENU_PLACEHOLDERS = frozenset({"play", "alt", "wm", "next", "respond", "follow", "climb"})
"""Moves whose menu has its own placeholder (``dif.ui.menu.<verb>``; the others:
``dif.ui.menu.choose``)."""
QUIET_VERBS = frozenset({"pass", "done", "skip", "stay", "nofollow", "redraw", "discard"})
"""Moves whose button is quiet (passing, ending a step, keeping the cards)."""


def seat_menu(
    presenter: DifPresenter, state: GameState, seat: str, seating: Seating, language: str
) -> Menu:
    """Buttons and menus for every legal action of ``seat``, labelled in ``language``."""
    engine = presenter.engine
    actions = presenter.shown_legal(state, seat)
    if not actions:
        return Menu()

    def label(a: Action) -> str:
        return presenter.describe_action(state, a, language)

    verb = actions[0].verb
    if verb in ("discard", "redraw"):
        hand = sorted(state.elements[seat].hand)
        items = tuple(Item(tr(engine.label[c], language), engine.code[c]) for c in hand)[:25]
        cards: tuple[Choice, ...] = ()
        if items and any(a.cards for a in actions):  # none when refused (23.7 note)
            placeholder = t(f"dif.ui.menu.{verb}", language)
            cards = (Choice("", several=Several(verb, items), placeholder=placeholder),)
        keep = Choice(label(Action(verb)), action=verb, tone=Tone.CONFIRM)
        return Menu(cards, (keep,))
    notes: dict[str, str] | None = None

    def note(ref: str | None) -> str | None:
        """A target's line under its menu option; the notes read the spectators' view,
        so they are made only for a menu that names a target (buttons have none)."""
        nonlocal notes
        if ref is None:
            return None
        if notes is None:
            notes = presenter.target_notes(state, seating, language)
        return notes.get(ref, "")[:100] or None

    def leaf(a: Action) -> Choice:
        return Choice(label(a), action=str(a), description=note(a.target))

    many = len(actions) > 10
    in_menu = [a for a in actions if a.verb == "alt" or (many and a.verb in MENU_VERBS)]
    buttons = [a for a in actions if a not in in_menu][: MAX_ROWS * 5]
    targeted = [a for a in in_menu if a.verb == "play" and a.target is not None]
    targets = list(dict.fromkeys(a.target for a in targeted if a.target is not None))
    by_target = len(targeted) > 25 and len(targets) > 1
    if by_target:
        in_menu = [a for a in in_menu if a not in targeted]
    # Five rows: a menu fills one, buttons go five to a row.
    free_rows = MAX_ROWS - -(-len(buttons) // 5) - (1 if by_target else 0)
    chunks = [in_menu[n : n + 25] for n in range(0, len(in_menu), 25)][:free_rows]
    menus: list[Choice] = []
    if by_target:
        against = [
            Choice(
                tr(presenter.plane(state, ref), language)[:100],
                children=tuple(
                    leaf(a) for a in actions if a.target == ref and a.verb in ("play", "wm")
                ),
                description=note(ref),
                placeholder=t("dif.ui.menu.play", language),
            )
            for ref in targets[:25]
        ]
        menus.append(
            Choice("", children=tuple(against), placeholder=t("dif.ui.menu.target", language))
        )
    for chunk in chunks:
        first = chunk[0].verb
        placeholder = t(
            f"dif.ui.menu.{first if first in MENU_PLACEHOLDERS else 'choose'}", language
        )
        menus.append(Choice("", children=tuple(leaf(a) for a in chunk), placeholder=placeholder))
    quick = tuple(
        Choice(label(a), action=str(a), tone=Tone.QUIET if a.verb in QUIET_VERBS else Tone.MOVE)
        for a in buttons
    )
    return Menu(tuple(menus), quick)


def side_menu(
    presenter: DifPresenter, state: GameState, decision: Decision, seating: Seating, language: str
) -> Menu:
    """Turn 1 (4.7): the public menu of the elements the choosing side may name next,
    each with who flies it."""
    if decision.kind != "order":
        return Menu()
    _, seats = presenter.engine.order_choice(state)
    options = tuple(
        Choice(
            presenter.seat_label(state, seat)[:100],
            action=str(Action.next(seat)),
            description=t("dif.ui.hand.flown_by", language, name=seating.players.get(seat, "?"))[
                :100
            ],
        )
        for seat in seats[:25]
    )
    placeholder = t("dif.ui.hand.order_placeholder", language)
    return Menu((Choice("", children=options, placeholder=placeholder),))
