"""What a service call did: :class:`Outcome` (narration, private lines, prompts, whether
to post a picture), for the chat layer to tell everyone."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.games import LoadedGame
from engine.core.contract import Scope
from engine.core.events import Event

__all__ = ["Outcome", "Prompt", "outcome_of"]


@dataclass
class Prompt:
    """Someone must decide something now."""

    seat: str
    user_id: int | None
    kind: str
    text: str
    urgent: bool
    """A decision during someone else's turn (respond, follow): sent by DM."""
    new: bool = True
    """Not pending before this outcome's action: worth a ping (a seat still picking its
    secret altitude was pinged when the picks began)."""
    side: str | None = None
    """Set for a decision any player of this side may take (``Scope.SIDE``): posted in
    the thread for the whole side."""


@dataclass
class Outcome:
    """What a service call did, for the cog to tell Discord."""

    game: LoadedGame
    public: list[str] = field(default_factory=list)
    """Narration for the game thread (public events only)."""
    private: dict[str, list[str]] = field(default_factory=dict)
    """Lines only a seat may read (e.g. the cards it drew)."""
    prompts: list[Prompt] = field(default_factory=list)
    image: bool = False
    """Post a fresh picture of the sky (a player-turn ended, or the game started/ended)."""
    finished: bool = False


def outcome_of(
    game: LoadedGame,
    events: list[Event],
    *,
    image: bool,
    before: set[tuple[str, str]] | None = None,
) -> Outcome:
    """The outcome of a committed change: the events split into public and private
    lines, and a prompt for every decision pending now (``new`` unless it was pending
    ``before``, as ``(seat, kind)``)."""
    out = Outcome(game, image=image)
    for e in events:
        if e.seat is None:
            out.public.append(e.text)
        else:
            out.private.setdefault(e.seat, []).append(e.text)
    state = game.state
    assert state is not None
    system = game.system
    out.finished = system.is_over(state)
    presenter = system.presenter()
    for p in system.pending(state):
        text = presenter.prompt(state, p)
        new = before is None or (p.seat, p.kind) not in before
        side = p.side if p.scope is Scope.SIDE else None
        out.prompts.append(Prompt(p.seat, game.holder(p.seat), p.kind, text, p.urgent, new, side))
    return out
