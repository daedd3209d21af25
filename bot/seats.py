"""Seats and people during a game: handing a seat over, substitutes for an abandoned
seat, computer players, and taking an action back with the opponents' consent.

No Discord here (the thin side is :mod:`cogs.seats`) and no rules: legal moves,
hidden information and randomness are the game's system's. Every change happens under
the game's lock through :class:`~bot.service.GameService` (``hand_over``,
``take_back``, ``forfeit``), so it is committed before anyone is told, and the cached
game is replaced at once: every later click and ``/play`` checks the seat against the
new holder.

What is stored (no migration): the holder in the ``seats`` table (``user_id`` NULL
for a computer player), and in the game settings JSON::

    "computer_seats": ["X1"],        # seats a computer player flies (user_id NULL)
    "offers": {"X1": {"from": 11, "to": 12, "name": "carol", "until": "<iso>"}},
    "abandoned": {"X1": {"at": "<iso>", "user_id": 11}},
    "undo": {"seq": 12, "seat": "A1", "by": 11, "version": 40, "until": "<iso>",
             "needed": [12], "accepted": []}

**Substitutes.** A player offers their seat to a member, who accepts (button or
``/game accept``) before the offer expires (:data:`OFFER_HOURS`); the player may
withdraw it, the member decline it. The host or a server admin replaces a player
directly, or hands the seat to a computer player if the server allows computer
players. A seat abandoned after too many missed deadlines (``bot.operations``) is
offered in the thread: anyone not playing in the game takes it at once ("Take this
seat"; the host or an admin can still replace them). Nobody within the server's
``substitute_hours``: ``abandon_action`` applies, a computer player or a forfeit.

**Posted prompts.** The thread messages with buttons for a seat offer, an abandoned
seat and an undo request are remembered (storage's ``messages``, kinds from
:func:`offer_kind`, :func:`take_kind`, :func:`undo_kind`); :func:`open_prompts` says
which are still open, so ``cogs.seats.close_lapsed`` can close the others (lapsed,
withdrawn by command, settled elsewhere, the game over) and :func:`next_lapse` when
to look next.

**Undo.** Only the latest action, only by a player holding its seat, only while
nobody has acted since (the game version is unchanged), only with the consent of
every opposing human player within :data:`UNDO_HOURS`, and never an action the
system says cannot be taken back (``undo_refusal``: it used the game's randomness,
drew cards, revealed a secret, showed anyone a private line): the action is applied
again to the state before it and compared. The log stays append-only: an undo is a
marker row (:mod:`bot.actionlog`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.actionlog import effective, handover_note, undone_seq
from bot.errors import Refusal
from bot.games import LoadedGame
from bot.logfile import public_notation
from bot.outcome import Outcome
from bot.play import computer_seats
from bot.scheduler import StoredTerms
from bot.service import GameService
from bot.settings import DeadlinePolicy
from bot.storage import GameStatus
from bot.systems import Hosted
from engine.core.events import Event
from strings import Term

__all__ = [
    "OFFER_HOURS",
    "UNDO_HOURS",
    "Handover",
    "Offer",
    "UndoRequest",
    "abandon",
    "accept",
    "answer_undo",
    "close_offer",
    "expire_abandoned",
    "next_lapse",
    "offer_kind",
    "open_prompts",
    "request_undo",
    "substitute",
    "take_abandoned",
    "take_kind",
    "undo_kind",
    "undo_refusal",
]

OFFER_HOURS = 24.0
"""How long an offered seat waits for the member to accept."""
UNDO_HOURS = 12.0
"""How long an undo request waits for the opponents' consent (it lapses sooner, as
soon as anyone acts)."""


@dataclass
class Handover:
    """A seat changed hands; ``outcome`` is what to publish."""

    outcome: Outcome
    seat: str
    old: int | None
    new: int | None
    """None: a computer player."""


@dataclass
class Offer:
    """A seat offered to a member, waiting for them."""

    game: LoadedGame
    seat: str
    label: str
    by: int
    to: int
    until: datetime


@dataclass
class UndoRequest:
    """An undo waiting for the consent of ``needed``."""

    game: LoadedGame
    seq: int
    seat: str
    shown: str
    """The action as the public log shows it (a secret pick stays masked)."""
    by: int
    needed: list[int]
    until: datetime


# ---------------------------------------------------------------- helpers
async def _settings(service: GameService, game_id: int) -> dict[str, Any]:
    return await service.game_settings(game_id)


async def _save(service: GameService, game_id: int, settings: dict[str, Any]) -> None:
    await service.storage.put_game_settings(game_id, settings)


def _active(game: LoadedGame) -> Any:
    if game.record.status is GameStatus.LOBBY or game.state is None:
        raise Refusal("seats.not_started")
    if game.record.status is not GameStatus.ACTIVE:
        raise Refusal("refusal.over")
    return game.state


def _seat_name(game: LoadedGame, seat: str | None) -> str | None:
    if seat is None:
        return None
    seat = seat.strip().upper()
    game.require_seat(seat)
    return seat


def _may_manage(game: LoadedGame, user_id: int, admin: bool) -> bool:
    return admin or user_id == game.record.host_id


def _check_newcomer(game: LoadedGame, user_id: int, seat: str) -> None:
    """A member may take a seat unless they hold it already or fly for the other side."""
    if game.holder(seat) == user_id:
        raise Refusal("seats.already_flies", user=f"<@{user_id}>", seat=seat)
    side = game.side_of(seat)
    if any(game.side_of(s) != side for s in game.seats_of(user_id)):
        raise Refusal("seats.other_side", user=f"<@{user_id}>")


def _mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id is not None else Term("seats.the_computer")


async def server_computer_level(service: GameService, game_id: int) -> str | None:
    """The level of the computer player the server (and the game) let fly a seat
    (``/config computer``), or None: none may."""
    policy = await StoredTerms(service.storage, DeadlinePolicy).settings(game_id)
    if isinstance(policy, DeadlinePolicy) and policy.computer_players:
        return policy.computer_level
    return None


# ---------------------------------------------------------------- substitutes
async def substitute(
    service: GameService,
    game_id: int,
    user_id: int,
    *,
    admin: bool,
    seat: str | None,
    member: tuple[int, str] | None,
    computer: bool = False,
) -> Offer | Handover:
    """``/game sub``: a player offers their own seat to ``member``; the host or an admin
    replaces the holder of ``seat`` by ``member`` at once, or (``computer``) hands it to
    a computer player for the rest of the game."""
    async with service.locks(game_id):
        game = await service.load(game_id)
        _active(game)
        named = _seat_name(game, seat)
        mine = game.seats_of(user_id)
        if named is None:
            if len(mine) != 1:
                raise Refusal(
                    "seats.name_seat"
                    if mine or _may_manage(game, user_id, admin)
                    else "seats.no_seat"
                )
            named = mine[0]
        label = game.seat_label(named)
        old = game.holder(named)
        if computer:
            if not _may_manage(game, user_id, admin):
                raise Refusal("seats.computer_who")
            if named in computer_seats(game, await _settings(service, game_id)):
                raise Refusal("seats.computer_already", seat=named)
            level = await server_computer_level(service, game_id)
            if level is None:
                raise Refusal("seats.computer_off")
            note = Term(
                "seats.note.to_computer",
                user=f"<@{user_id}>",
                seat=named,
                element=label,
                old=_mention(old),
            )
            outcome = await service.hand_over(game, named, None, "Computer", note, level=level)
            return Handover(outcome, named, old, None)
        if member is None:
            raise Refusal("seats.name_member")
        to_id, to_name = member
        _check_newcomer(game, to_id, named)
        if named in mine:  # the holder offers; the member must accept
            settings = await _settings(service, game_id)
            until = service.clock.now() + timedelta(hours=OFFER_HOURS)
            offers = dict(settings.get("offers", {}))
            offers[named] = {
                "from": user_id,
                "to": to_id,
                "name": to_name,
                "until": until.isoformat(),
            }
            settings["offers"] = offers
            await _save(service, game_id, settings)
            return Offer(game, named, label, user_id, to_id, until)
        if not _may_manage(game, user_id, admin):
            raise Refusal("seats.replace_who", seat=named)
        note = Term(
            "seats.note.replaced",
            user=f"<@{user_id}>",
            seat=named,
            element=label,
            old=_mention(old),
            new=f"<@{to_id}>",
        )
        outcome = await service.hand_over(game, named, to_id, to_name, note)
        return Handover(outcome, named, old, to_id)


async def close_offer(
    service: GameService, game_id: int, user_id: int, seat: str | None, how: str
) -> str:
    """``decline`` (by the member offered the seat) or ``withdraw`` (by the player who
    offered it). Returns the public line (a :class:`Term`)."""
    async with service.locks(game_id):
        settings = await _settings(service, game_id)
        offers: dict[str, dict[str, Any]] = dict(settings.get("offers", {}))
        who = "to" if how == "decline" else "from"
        named = seat.strip().upper() if seat else None
        found = [s for s, o in offers.items() if o[who] == user_id and named in (None, s)]
        if not found:
            raise Refusal("seats.no_offer_yours" if how == "withdraw" else "seats.no_offer_here")
        if len(found) > 1:
            raise Refusal("seats.several_offers")
        o = offers.pop(found[0])
        settings["offers"] = offers
        await _save(service, game_id, settings)
        if how == "withdraw":
            return Term(
                "seats.note.withdrawn", user=f"<@{user_id}>", seat=found[0], to=f"<@{o['to']}>"
            )
        return Term(
            "seats.note.declined", user=f"<@{user_id}>", seat=found[0], holder=f"<@{o['from']}>"
        )


async def accept(
    service: GameService, game_id: int, user_id: int, name: str, seat: str | None
) -> Handover:
    """The member takes a seat offered to them (or, with no offer, an abandoned seat)."""
    async with service.locks(game_id):
        game = await service.load(game_id)
        _active(game)
        settings = await _settings(service, game_id)
        offers: dict[str, dict[str, Any]] = dict(settings.get("offers", {}))
        named = seat.strip().upper() if seat else None
        found = [s for s, o in offers.items() if o["to"] == user_id and named in (None, s)]
        if not found:
            abandoned = list(settings.get("abandoned", {}))
            if named in abandoned or (named is None and len(abandoned) == 1):
                return await _take(service, game, user_id, name, named or abandoned[0])
            raise Refusal("seats.no_offer")
        if len(found) > 1:
            raise Refusal("seats.offered_several", seats=", ".join(found))
        named = found[0]
        o = offers[named]
        if service.clock.now() > datetime.fromisoformat(o["until"]):
            offers.pop(named)
            settings["offers"] = offers
            await _save(service, game_id, settings)
            raise Refusal("seats.offer_expired", seat=named)
        if game.holder(named) != o["from"]:
            raise Refusal("seats.changed_hands", seat=named)
        _check_newcomer(game, user_id, named)
        label = game.seat_label(named)
        note = Term(
            "seats.note.took_over",
            user=f"<@{user_id}>",
            seat=named,
            element=label,
            old=f"<@{o['from']}>",
        )
        outcome = await service.hand_over(game, named, user_id, name, note)
        return Handover(outcome, named, o["from"], user_id)


# ---------------------------------------------------------------- posted prompts
PROMPTS = ("offer:", "take:", "undo:")
"""Kind prefixes of the remembered prompt messages."""


def offer_kind(seat: str, until: datetime) -> str:
    """The message of one offer of ``seat`` (a new offer of the same seat is another)."""
    return f"offer:{seat}:{int(until.timestamp())}"


def take_kind(seat: str, at: datetime) -> str:
    """The **Take this seat** message of one abandonment of ``seat``."""
    return f"take:{seat}:{int(at.timestamp())}"


def undo_kind(seq: int, version: int) -> str:
    """The message of the undo request of action ``seq`` made at game ``version``."""
    return f"undo:{seq}:{version}"


async def open_prompts(service: GameService, game: LoadedGame) -> set[str]:
    """The kinds of the prompts still open: offers not expired, seats still abandoned,
    an undo request nobody has overtaken (nobody acted since) and not expired."""
    if game.record.status is not GameStatus.ACTIVE:
        return set()
    settings = await _settings(service, game.id)
    now = service.clock.now()
    live: set[str] = set()
    for seat, o in settings.get("offers", {}).items():
        until = datetime.fromisoformat(o["until"])
        if now < until:
            live.add(offer_kind(seat, until))
    for seat, a in settings.get("abandoned", {}).items():
        live.add(take_kind(seat, datetime.fromisoformat(a["at"])))
    req = settings.get("undo")
    overtaken = req and req["version"] != game.record.version
    if req and not overtaken and now < datetime.fromisoformat(req["until"]):
        live.add(undo_kind(req["seq"], req["version"]))
    return live


async def next_lapse(
    service: GameService, game_id: int, substitute_hours: float | None = None
) -> datetime | None:
    """When the game's next offer or undo request lapses, or (given the server's
    ``substitute_hours``) an abandoned seat's time for a substitute runs out, if one
    is still to come."""
    settings = await _settings(service, game_id)
    now = service.clock.now()
    times = [datetime.fromisoformat(o["until"]) for o in settings.get("offers", {}).values()]
    req = settings.get("undo")
    if req:
        times.append(datetime.fromisoformat(req["until"]))
    if substitute_hours is not None:
        limit = timedelta(hours=substitute_hours)
        times += [
            datetime.fromisoformat(a["at"]) + limit for a in settings.get("abandoned", {}).values()
        ]
    return min((when for when in times if when > now), default=None)


# ---------------------------------------------------------------- abandonment
async def abandon(
    service: GameService, game_id: int, seat: str, user_id: int | None
) -> datetime | None:
    """Record ``seat`` as abandoned by ``user_id`` (once). Returns when it was, or None
    if nothing was recorded: already recorded, the seat changed hands, the game ended."""
    async with service.locks(game_id):
        game = await service.load(game_id)
        if game.record.status is not GameStatus.ACTIVE:
            return None
        settings = await _settings(service, game_id)
        abandoned = dict(settings.get("abandoned", {}))
        holder = game.holder(seat)
        if seat in abandoned or holder is None or holder != user_id:
            return None
        now = service.clock.now()
        abandoned[seat] = {"at": now.isoformat(), "user_id": holder}
        settings["abandoned"] = abandoned
        await _save(service, game_id, settings)
        return now


async def returned(service: GameService, game_id: int, seat: str) -> bool:
    """The player of an abandoned seat acted: it is no longer offered. Called by the
    scheduler's change listener, under the game's lock. True if it was abandoned."""
    settings = await _settings(service, game_id)
    abandoned = dict(settings.get("abandoned", {}))
    if abandoned.pop(seat, None) is None:
        return False
    settings["abandoned"] = abandoned
    await _save(service, game_id, settings)
    return True


async def take_abandoned(
    service: GameService, game_id: int, user_id: int, name: str, seat: str
) -> Handover:
    """Someone not playing in the game takes an abandoned seat (the **Take this seat**
    button): at once, no confirmation."""
    async with service.locks(game_id):
        game = await service.load(game_id)
        _active(game)
        return await _take(service, game, user_id, name, seat)


async def _take(
    service: GameService, game: LoadedGame, user_id: int, name: str, seat: str
) -> Handover:
    _active(game)
    settings = await _settings(service, game.id)
    if seat not in settings.get("abandoned", {}):
        raise Refusal("seats.not_abandoned", seat=seat)
    if game.seats_of(user_id):
        raise Refusal("seats.plays_already")
    old = game.holder(seat)
    label = game.seat_label(seat)
    note = Term(
        "seats.note.took_abandoned",
        user=f"<@{user_id}>",
        seat=seat,
        element=label,
        old=_mention(old),
    )
    outcome = await service.hand_over(game, seat, user_id, name, note)
    return Handover(outcome, seat, old, user_id)


async def expire_abandoned(service: GameService, game_id: int) -> list[Outcome]:
    """Apply the server's ``abandon_action`` to every abandoned seat of the game whose
    ``substitute_hours`` have run out: a computer player flies it (if computer players
    are allowed), else its side forfeits. Returns what to publish."""
    policy = await StoredTerms(service.storage, DeadlinePolicy).settings(game_id)
    if not isinstance(policy, DeadlinePolicy):
        return []
    outcomes: list[Outcome] = []
    async with service.locks(game_id):
        game = await service.load(game_id)
        settings = await _settings(service, game_id)
        abandoned: dict[str, dict[str, Any]] = settings.get("abandoned", {})
        now = service.clock.now()
        limit = timedelta(hours=policy.substitute_hours)
        for seat, info in sorted(abandoned.items()):
            if game.record.status is not GameStatus.ACTIVE or game.state is None:
                break
            if now < datetime.fromisoformat(info["at"]) + limit:
                continue
            hours = f"{policy.substitute_hours:g}"
            why = Term("seats.note.nobody_took", seat=seat, hours=hours)
            if policy.abandon_action == "computer" and policy.computer_players:
                note = Term("seats.note.computer_flies", why=why)
                outcome = await service.hand_over(
                    game, seat, None, "Computer", note, level=policy.computer_level
                )
            else:
                outcome = await service.forfeit(game, seat, why)
            outcomes.append(outcome)
            game = outcome.game
    return outcomes


# ---------------------------------------------------------------- undo
def undo_refusal(system: Hosted, before: Any, after: Any, events: list[Event]) -> str | None:
    """Why an action from ``before`` to ``after`` may not be taken back, or None (the
    system's rule: :meth:`engine.core.contract.GameSystem.undo_refusal`)."""
    return system.undo_refusal(before, after, events)


async def request_undo(service: GameService, game_id: int, user_id: int) -> UndoRequest | Outcome:
    """``/game undo``: ask to take back the latest action, which must be the user's.
    Returns the request to post, or the outcome if no opposing human must consent
    (every opponent is a computer player)."""
    async with service.locks(game_id):
        game = await service.load(game_id)
        state = _active(game)
        assert game.setup is not None
        if not game.seats_of(user_id):
            raise Refusal("seats.undo_no_seat")
        rows = await service.storage.load_actions(game_id)
        if not rows:
            raise Refusal("seats.nothing_played")
        last = rows[-1]
        if undone_seq(last.action) is not None:
            raise Refusal("seats.just_undone")
        if last.seat is None and handover_note(last.action) is not None:
            raise Refusal("seats.undo_handed_over")
        if last.seat is None or last.seat not in game.seats_of(user_id):
            raise Refusal("seats.undo_whose", seat=last.seat or Term("seats.the_system"))
        settings = await _settings(service, game_id)
        req = settings.get("undo")
        if (
            req is not None
            and req.get("version") == game.record.version
            and service.clock.now() <= datetime.fromisoformat(req["until"])
        ):
            raise Refusal("seats.undo_asked")
        system = game.system
        kept = effective((r.seq, r.seat or "", r.action) for r in rows)
        prior = await asyncio.to_thread(
            system.replay, game.setup, game.record.seed, [(s, t) for _, s, t in kept[:-1]]
        )
        after, events = system.apply(prior, last.seat, system.parse_action(last.action))
        why = undo_refusal(system, prior, after, events)
        if why is not None:
            raise Refusal("seats.undo_refused", seq=last.seq, seat=last.seat, why=why)
        shown = public_notation(system, last.action, picks_secret=system.picks_hidden(state))
        side = game.side_of(last.seat)
        needed = sorted({s.user_id for s in game.seats if s.user_id is not None and s.side != side})
        if not needed:  # only computer players oppose: nobody to ask
            line = Term(
                "seats.note.taken_back",
                user=f"<@{user_id}>",
                seq=last.seq,
                seat=last.seat,
                action=shown,
            )
            return await service.take_back(game, last.seq, line)
        until = service.clock.now() + timedelta(hours=UNDO_HOURS)
        settings["undo"] = {
            "seq": last.seq,
            "seat": last.seat,
            "by": user_id,
            "version": game.record.version,
            "until": until.isoformat(),
            "needed": needed,
            "accepted": [],
        }
        await _save(service, game_id, settings)
        return UndoRequest(game, last.seq, last.seat, shown, user_id, needed, until)


async def answer_undo(
    service: GameService, game_id: int, user_id: int, seq: int, agree: bool
) -> tuple[str, Outcome | None]:
    """An opposing player accepts or declines the undo request of action ``seq``.
    Returns the public line (a :class:`Term`), and the outcome once every one of them
    accepted."""
    async with service.locks(game_id):
        game = await service.load(game_id)
        settings = await _settings(service, game_id)
        req = settings.get("undo")
        if req is None or req.get("seq") != seq:
            raise Refusal("seats.undo_closed")
        if user_id not in req["needed"]:
            raise Refusal("seats.undo_who")
        stale = game.record.status is not GameStatus.ACTIVE or game.record.version != req["version"]
        expired = service.clock.now() > datetime.fromisoformat(req["until"])
        if stale or expired or not agree:
            settings.pop("undo")
            await _save(service, game_id, settings)
        if stale:
            raise Refusal("seats.undo_moved_on", seq=seq)
        if expired:
            raise Refusal("seats.undo_expired", seq=seq)
        if not agree:
            return Term("seats.note.undo_declined", user=f"<@{user_id}>", seq=seq), None
        accepted = sorted({*req["accepted"], user_id})
        if set(accepted) < set(req["needed"]):
            req["accepted"] = accepted
            await _save(service, game_id, settings)
            line = Term(
                "seats.note.undo_agreed",
                user=f"<@{user_id}>",
                seq=seq,
                n=len(accepted),
                total=len(req["needed"]),
            )
            return line, None
        settings.pop("undo")
        await _save(service, game_id, settings)
        who = " ".join(f"<@{u}>" for u in req["needed"])
        line = Term("seats.note.undo_done", seq=seq, seat=req["seat"], users=who)
        outcome = await service.take_back(game, seq, line)
        return line, outcome
