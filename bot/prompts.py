"""What a player reads about a game's decisions: a seat's own message (its hand and
its decision), and ``/game status``'s line. The system's presenter gives its words;
this module puts the generic parts around them.

It also says which posted messages carry a decision's components and when they hold:
a seat's DM (its hand with its buttons, sent when the move passes to its player:
:func:`dm_now`) and the thread's menu of a side's decision. Both are remembered with
the game (storage's ``messages``, kinds :func:`dm_kind` and :func:`side_kind`, with
the game's version they were built at), so the chat layer can bring a DM up to date or
close it, and close a side's menu once it was answered some other way.
"""

from __future__ import annotations

from bot.games import LoadedGame
from bot.outcome import Prompt
from bot.results import verdict_text
from bot.storage import GameStatus
from engine.core.contract import Decision, Scope
from engine.core.present import Seating
from strings import DEFAULT, t, tr

__all__ = [
    "DM",
    "SIDE",
    "DmKind",
    "decision_words",
    "dm_kind",
    "dm_now",
    "dm_text",
    "hand_text",
    "seat_decision",
    "side_deciding",
    "side_kind",
    "status_text",
]

DM = "dm:"
SIDE = "side:"
"""Kind prefixes of the remembered DMs and side menus."""


def decision_words(game: LoadedGame, kind: str) -> str:
    """A kind of decision in words (a Term): ``respond, or pass``."""
    return game.presenter.decision_words(kind)


def hand_text(game: LoadedGame, seat: str, *, decision: bool = True, language: str = "en") -> str:
    """The private summary of one seat: what the system shows of it (its aircraft,
    hand, position...), then its decision, or who the game waits for.

    It starts with the seat's name in bold: a player flying several seats gets one
    such message each. ``decision``: say what the seat must decide (a DM says it in
    its first line already)."""
    state = game.state
    assert state is not None
    system = game.system
    live = game.record.status is GameStatus.ACTIVE
    lines = game.presenter.seat_lines(state, seat, language, live=live)
    pending = system.pending(state)
    mine = next((p for p in pending if p.seat == seat), None)
    if mine is not None:
        if decision:
            prompt = tr(game.presenter.prompt(state, mine), language)
            lines.append(t("hand.decision", language, prompt=prompt))
    elif not system.is_over(state):
        waiting = ", ".join(sorted({p.seat for p in pending}))
        lines.append(t("hand.waiting", language, seats=waiting))
    return "\n".join(lines)


def status_text(game: LoadedGame, language: str = "en") -> str:
    """One line for /game status: turn, step and who is awaited, or the result."""
    state = game.state
    assert state is not None
    phase = game.presenter.phase(state)
    step = tr(phase.step, language)
    text = t("status.head", language, id=game.id, turn=phase.turn, step=step)
    result = game.record.result
    if game.record.status is not GameStatus.ACTIVE:
        if result:
            text += t("status.result", language, verdict=verdict_text(game, language))
        elif game.record.status is GameStatus.ABORTED:
            text += t("status.aborted", language)
        return text
    seen: dict[str, None] = {}
    for p in game.system.pending(state):
        words = tr(decision_words(game, p.kind), language)
        if p.scope is Scope.SIDE and p.side is not None:
            side = tr(game.side_phrase(p.side), language)
            seen[t("status.side", language, side=side, decision=words)] = None
        else:
            holder = game.holder(p.seat)
            who = f"<@{holder}>" if holder is not None else t("status.computer", language)
            seen[t("status.seat", language, who=who, seat=p.seat, decision=words)] = None
    waiting = ", ".join(seen)
    return text + (t("status.waiting", language, waiting=waiting) if waiting else "")


# ---------------------------------------------------------------- posted decisions
def dm_now(prompt: Prompt, acted: int | None) -> bool:
    """Whether ``prompt`` is DMed to its player now, with the seat's hand and buttons.

    A response at once (someone waits on it). Any other decision of the seat's own
    (its turn, a secret pick) when the move passes to its player: not when it follows
    their own move (``acted``: the user whose action this is), whose answer already
    shows the next step's buttons, so a turn of several steps sends one DM, not one a
    step. A side's decision is asked in the thread's menu instead."""
    if prompt.user_id is None or prompt.side is not None or not prompt.new:
        return False
    return prompt.urgent or prompt.user_id != acted


def seat_decision(game: LoadedGame, seat: str) -> Decision | None:
    """The decision the seat's player answers from their own messages (**My hand**,
    the DM), if the game runs: the seat's own, or a side's that has no public menu in
    the thread (its choices would show the side's hand, as Eagles in the Sky's one hand
    a side does)."""
    if game.state is None or game.record.status is not GameStatus.ACTIVE:
        return None
    for d in game.system.pending(game.state):
        if d.seat != seat:
            continue
        if d.scope is Scope.SEAT:
            return d
        if not game.presenter.side_menu(game.state, d, Seating(), DEFAULT):
            return d
    return None


def dm_text(game: LoadedGame, seat: str, language: str) -> str:
    """A seat's DM: the game and what it must decide, then its hand."""
    decision = seat_decision(game, seat)
    assert decision is not None and game.state is not None
    prompt = tr(game.presenter.prompt(game.state, decision), language)
    head = t("publish.dm", language, id=game.id, prompt=prompt)
    return head + "\n" + hand_text(game, seat, decision=False, language=language)


def dm_kind(seat: str, user_id: int, version: int) -> str:
    """The DM of ``seat`` to ``user_id`` whose buttons were built at game ``version``."""
    return f"{DM}{seat}:{user_id}:{version}"


class DmKind:
    """A remembered DM's kind, read back."""

    def __init__(self, kind: str) -> None:
        seat, user, version = kind.removeprefix(DM).split(":")
        self.seat, self.user_id, self.version = seat, int(user), int(version)


def side_kind(version: int, side: str = "") -> str:
    """The thread's menu of ``side``'s decision, built at game ``version`` (without
    ``side``: the prefix of every side's menu at that version)."""
    return f"{SIDE}{version}:{side}"


def side_deciding(game: LoadedGame) -> str | None:
    """The side whose decision is pending now (its players choose in the thread)."""
    if game.state is None or game.record.status is not GameStatus.ACTIVE:
        return None
    pending = game.system.pending(game.state)
    return next((d.side for d in pending if d.scope is Scope.SIDE and d.side), None)
