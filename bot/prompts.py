"""What a player reads about a game's decisions: a seat's own message (its hand and
its decision), and ``/game status``'s line. The system's presenter gives its words;
this module puts the generic parts around them."""

from __future__ import annotations

from bot.games import LoadedGame
from bot.results import verdict_text
from bot.storage import GameStatus
from engine.core.contract import Scope
from strings import t, tr

__all__ = ["decision_words", "hand_text", "status_text"]


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
