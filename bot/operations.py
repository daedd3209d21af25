"""Deadlines at work: the scheduler wired to the games and to Discord.

:class:`DeadlineOps` listens to every committed change of a game
(``GameService.listeners``) and keeps the scheduler's deadlines in line with the
pending decisions; when a reminder falls due it pings the player in the thread and by
DM (unless they turned DMs off); when a deadline passes it applies the seat's default
(``GameService.default_move``: the passive choice, or a computer player where the
server allows it and the player did not ask for auto-pass) and publishes what
happened, with the reason. A seat that misses too many deadlines in a row is
abandoned: it is offered in the thread to a substitute (``bot.seats``), and once the
server's ``substitute_hours`` have passed with nobody taking it, ``abandon_action``
applies (a computer player flies it, or its side forfeits). A timer per game waits
for that moment, and for the moment the game's next seat offer or undo request
lapses, whose message is then closed (:meth:`DeadlineOps.watch`); the time is also
checked at every later deadline of the game and at start-up
(:meth:`DeadlineOps.sweep`), which re-arms the timers and lets computer players make
any move a crash left them owing. Every committed change of a game also closes its
prompts that no longer hold.

What it posts goes through the :class:`~bot.publishing.Publisher` the chat layer hands
it: this module knows nothing of Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from datetime import datetime, timedelta

from bot import seats
from bot.campaigns import DEADLINE_KIND as CAMPAIGN_KIND
from bot.campaigns import CampaignNews, CampaignService
from bot.clock import Clock
from bot.games import LoadedGame
from bot.prompts import decision_words
from bot.publishing import Publisher
from bot.scheduler import POLL_INTERVAL, DeadlineScheduler, PendingDecision, StoredTerms
from bot.service import GameService
from bot.settings import DeadlinePolicy, PlayerSettings, server_language, wants_dm
from bot.storage import GameStatus
from bot.storage.models import DeadlineChanges, DeadlineRecord, MoveCommitted, SeatClockRecord
from strings import Term, t, tr

__all__ = ["DeadlineOps", "discord_time"]

log = logging.getLogger(__name__)


def discord_time(when: datetime) -> str:
    """A time every reader sees in their own time zone: ``<t:…:f> (<t:…:R>)``."""
    ts = int(when.timestamp())
    return f"<t:{ts}:f> (<t:{ts}:R>)"


class DeadlineOps:
    """Owns the bot's :class:`DeadlineScheduler`."""

    def __init__(
        self,
        service: GameService,
        publisher: Publisher,
        *,
        clock: Clock | None = None,
        campaigns: CampaignService | None = None,
        poll_interval: timedelta = POLL_INTERVAL,
    ) -> None:
        """``poll_interval``: how often the scheduler reads what falls due from the
        database (deadlines other processes opened)."""
        self.service = service
        self.publisher = publisher
        self.terms = StoredTerms(service.storage, DeadlinePolicy)
        self.scheduler = DeadlineScheduler(
            service.storage,
            on_reminder=self.on_reminder,
            on_due=self.on_due,
            clock=clock,
            terms=self.terms,
            poll_interval=poll_interval,
        )
        service.listeners.append(self.changed)
        service.seat_listeners.append(self.seat_changed)
        service.planner = self
        self._planned: dict[int, int] = {}
        """Per game: the version whose deadlines its move wrote (:meth:`committed`), so
        the change listener does not write them again."""
        self.campaigns = campaigns
        """Campaign decisions have deadlines too, kept on their mission's game row."""
        if campaigns is not None:
            campaigns.deadline_listeners.append(self.campaign_changed)
        self.swept: asyncio.Task[None] | None = None
        """The start-up sweep (:meth:`sweep`), running in the background."""
        self.clock: Clock = self.scheduler.clock
        self._timers: dict[int, tuple[datetime, asyncio.Task[None]]] = {}
        """Per game: when its next abandoned seat's time for a substitute runs out or
        its next offer or undo request lapses, and the task waiting for it
        (:meth:`watch`)."""

    async def start(self) -> int:
        """Load every live deadline; overdue ones fire once, right away. Abandoned
        seats and computer players are looked at in the background (:meth:`sweep`)."""
        count = await self.scheduler.start()
        self.swept = asyncio.create_task(self.sweep(), name="deadline-sweep")
        return count

    async def stop(self, grace: float = 0.0) -> None:
        """Stop the sweep, the timers and the scheduler (a firing in progress gets
        ``grace`` seconds to finish: :meth:`DeadlineScheduler.stop`)."""
        task, self.swept = self.swept, None
        timers = [task for _, task in self._timers.values()]
        self._timers.clear()
        for running in [task, *timers]:
            if running is not None and not running.done():
                running.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await running
        await self.scheduler.stop(grace)

    async def sweep(self) -> None:
        """At start-up: every game's deadlines are brought in line with its pending
        decisions (a move writes its deadlines with it, but a crash right after a change
        that does not (a start, a seat handed over, an undo) left the next decision
        without one: the game would wait for ever); an abandoned seat
        whose time for a substitute ran out while the bot was down gets its
        ``abandon_action``, prompts that lapsed meanwhile are closed and the timers
        re-armed (:meth:`watch`); a computer player makes the moves a crash left it
        owing (it has no deadline to wake it)."""
        storage = self.service.storage
        for record in await storage.list_open_games():
            if record.status is not GameStatus.ACTIVE:
                continue
            try:
                async with self.service.locks(record.id):  # no move between load and sync
                    await self.changed(await self.service.load(record.id), None)
                own = await storage.get_game_settings(record.id)
                settings = own.settings if own is not None else {}
                if settings.get("abandoned"):
                    await self.expire_abandoned(record.id)
                if any(settings.get(k) for k in ("abandoned", "offers", "undo")):
                    await self.close_lapsed(record.id)  # lapsed while the bot was down
                    await self.watch(record.id)
                if settings.get("computer_seats"):
                    outcome = await self.service.resume(record.id)
                    if outcome is not None:
                        await self.publisher.publish(outcome)
            except Exception:
                log.exception("game %s: the start-up sweep failed", record.id)

    # -- the game changed ------------------------------------------------------------
    @staticmethod
    def _pending(game: LoadedGame) -> list[PendingDecision] | None:
        """The game's pending decisions with who holds each seat; None once it is over."""
        state = game.state
        system = game.system
        if game.record.status is not GameStatus.ACTIVE or state is None or system.is_over(state):
            return None
        return [PendingDecision(p.seat, p.kind, game.holder(p.seat)) for p in system.pending(state)]

    async def plan(self, game: LoadedGame, actor: str | None) -> DeadlineChanges:
        """The deadlines of a move, which writes them with its actions (the service's
        :attr:`~bot.games.GameStore.planner`)."""
        pending = self._pending(game)
        if self.service.storage.shared:  # another process may have opened some
            await self.scheduler.refresh_game(game.id)
        return await self.scheduler.plan(
            game.id, game.record.version, pending or [], actor=actor, over=pending is None
        )

    def committed(self, game: LoadedGame, done: MoveCommitted) -> None:
        self.scheduler.committed(game.id, done)
        self._planned[game.id] = done.game.version

    async def changed(self, game: LoadedGame, actor: str | None) -> None:
        planned = self._planned.pop(game.id, None) == game.record.version
        pending = self._pending(game)
        # Prompts that no longer hold (the game over, an undo request overtaken, a seat
        # taken...) are closed after the player's answer: it never waits for their
        # messages to be read or edited, and a late close is harmless.
        close_lapsed = functools.partial(self.close_lapsed, game.id)
        if pending is None:
            if not planned:
                await self.scheduler.cancel_game(game.id)
            await self.service.later(game.id, close_lapsed)
            return
        if not planned:
            if self.service.storage.shared:  # another process may have opened some
                await self.scheduler.refresh_game(game.id)
            await self.scheduler.sync(game.id, game.record.version, pending, actor=actor)
        if actor is not None and await seats.returned(self.service, game.id, actor):
            public = await server_language(self.service.storage, game.record.guild_id)
            await self._say(game, t("deadline.returned", public, seat=actor))
        await self.service.later(game.id, close_lapsed)

    async def campaign_changed(
        self, row_id: int, version: int, pending: list[PendingDecision], actor: str | None
    ) -> None:
        """A campaign moved on: the deadlines of its decisions (seat: the deciding
        side) follow what it awaits, like a game's."""
        await self.scheduler.refresh_game(row_id)
        await self.scheduler.sync(row_id, version, pending, actor=actor)

    async def seat_changed(self, game: LoadedGame, seat: str) -> None:
        """A seat changed hands: its open deadlines named the old holder (reminders,
        auto-pass), so they go, with its missed deadlines; the change listener then
        gives its pending decisions fresh deadlines for the new holder (none for a
        computer player)."""
        for d in await self.scheduler.reload_game(game.id):
            if d.seat == seat and not d.is_claimed:
                await self.scheduler.settle(d, acted=False)
        await self.service.storage.reset_missed(game.id, seat)

    def deadline_of(self, game_id: int) -> DeadlineRecord | None:
        """The game's earliest live deadline (for /game list and /game status)."""
        live = self.scheduler.of_game(game_id)
        return min(live, key=lambda d: d.expires_at) if live else None

    # -- scheduler callbacks ---------------------------------------------------------
    async def on_reminder(self, d: DeadlineRecord, n: int) -> None:
        service = self.service
        if d.kind.startswith(CAMPAIGN_KIND):
            await self._campaign_reminder(d, n)
            return
        game = await service.load(d.game_id)
        if game.state is None or d.user_id is None:
            return
        total = len(d.reminder_ats)
        label = game.seat_label(d.seat)
        public = await server_language(service.storage, game.record.guild_id)  # DMs too
        text = t(
            "deadline.reminder",
            public,
            n=n,
            total=total,
            user=f"<@{d.user_id}>",
            element=label,
            decision=tr(decision_words(game, d.kind), public),
            when=discord_time(d.expires_at),
        )
        await self.publisher.say(game, text, pings=[d.user_id])
        if await wants_dm(service.storage, d.user_id):
            dm = t("deadline.dm", public, id=game.id, text=text)
            await self.publisher.direct(d.user_id, dm)
        await service.prefetch(game.id)  # the reminder's write dropped it

    async def on_due(self, d: DeadlineRecord, seat_clock: SeatClockRecord) -> None:
        service = self.service
        policy = await self.terms.settings(d.game_id)
        computer: str | None = None  # the level of the computer player deciding, if one does
        if isinstance(policy, DeadlinePolicy) and policy.default_action == "computer":
            wants_pass = (
                d.user_id is not None
                and (await PlayerSettings.load(service.storage, d.user_id)).auto_pass
            )
            if policy.computer_players and not wants_pass:
                computer = policy.computer_level
        if d.kind.startswith(CAMPAIGN_KIND):
            await self._campaign_due(d, computer is not None)
            return
        await self.expire_abandoned(d.game_id)  # a substitute's time may be up
        outcome = await service.default_move(d.id, d.game_id, d.seat, d.kind, computer=computer)
        if outcome is None:
            return
        await self.publisher.publish(outcome)
        if isinstance(policy, DeadlinePolicy) and policy.abandoned(seat_clock.missed_in_a_row):
            await self.abandon(outcome.game, d, seat_clock.missed_in_a_row, policy)

    async def _campaign_due(self, d: DeadlineRecord, computer: bool) -> None:
        """A campaign decision's deadline passed: the side's default decision (the
        server's ``default_action``: the system's passive choice, or a computer
        player's) is taken. Idempotent: a decision taken meanwhile is left alone."""
        record = await self.service.storage.get_game(d.game_id)
        if self.campaigns is None or record is None or record.campaign_id is None:
            return
        news = await self.campaigns.default_decision(
            record.campaign_id, d.seat, computer=computer, row_id=d.game_id
        )
        await self.publisher.publish_campaign(news)

    async def _campaign_reminder(self, d: DeadlineRecord, n: int) -> None:
        """The ``n``-th reminder of a side's campaign decision, in the campaign's thread
        (and by DM to the member holding it, unless DMs are off)."""
        record = await self.service.storage.get_game(d.game_id)
        if self.campaigns is None or record is None or record.campaign_id is None:
            return
        campaign = await self.campaigns.load(record.campaign_id)
        if (
            campaign.record.status != "active"
            or not any(p.side == d.seat for p in campaign.system.pending(campaign.state))
            or not await self.campaigns.is_current_row(campaign, d.game_id)
        ):
            return  # decided, the mission settled, or the campaign is over
        members = [m.user_id for m in campaign.members_of(d.seat)]
        users = " ".join(f"<@{u}>" for u in members)
        line = Term(
            "campaign.reminder",
            n=n,
            total=len(d.reminder_ats),
            users=users,
            side=campaign.side_name(d.seat),
            when=discord_time(d.expires_at),
        )
        await self.publisher.publish_campaign(CampaignNews(campaign, lines=[line], pings=members))
        if d.user_id is not None and await wants_dm(self.service.storage, d.user_id):
            public = await server_language(self.service.storage, record.guild_id)
            await self.publisher.direct(d.user_id, tr(line, public))

    async def abandon(
        self, game: LoadedGame, d: DeadlineRecord, missed: int, policy: DeadlinePolicy
    ) -> None:
        """The seat of ``d`` is abandoned: record it (once) and offer it in the thread
        to anyone not playing (**Take this seat**), until ``substitute_hours`` pass."""
        at = await seats.abandon(self.service, game.id, d.seat, d.user_id)
        if at is None:
            return
        until = at + timedelta(hours=policy.substitute_hours)
        public = await server_language(self.service.storage, game.record.guild_id)
        if policy.abandon_action == "computer" and policy.computer_players:
            then = t("deadline.then_computer", public)
        else:
            side = tr(game.side_phrase(game.side_of(d.seat) or ""), public)
            then = t("deadline.then_forfeit", public, side=side)
        label = game.seat_label(d.seat)
        text = t(
            "deadline.abandoned",
            public,
            seat=d.seat,
            element=label,
            user=f"<@{d.user_id}>",
            missed=missed,
            until=discord_time(until),
            then=then,
        )
        kind = seats.take_kind(d.seat, at)
        pings = [d.user_id] if d.user_id is not None else []
        await self.publisher.offer_seat(game, d.seat, kind, text, pings=pings)
        await self.expire_abandoned(game.id)  # substitute_hours may be 0

    async def expire_abandoned(self, game_id: int) -> None:
        """Apply ``abandon_action`` to the game's abandoned seats whose time is up."""
        outcomes = await seats.expire_abandoned(self.service, game_id)
        for outcome in outcomes:
            await self.publisher.publish(outcome)

    async def watch(self, game_id: int) -> None:
        """Arm the game's timer for the next moment something lapses (if it is still to
        come and not already armed for that moment): an abandoned seat's time for a
        substitute (``abandon_action`` applies on time, not only at the game's next
        deadline), an offer or an undo request (its message is closed)."""
        policy = await self.terms.settings(game_id)
        hours = policy.substitute_hours if isinstance(policy, DeadlinePolicy) else None
        when = await seats.next_lapse(self.service, game_id, hours)
        armed = self._timers.get(game_id)
        if armed is not None and not armed[1].done():
            if when is not None and armed[0] == when:
                return
            armed[1].cancel()
        self._timers.pop(game_id, None)
        if when is None:
            return
        task = asyncio.create_task(self._expire_at(game_id, when), name=f"abandon-{game_id}")
        self._timers[game_id] = (when, task)

    async def _expire_at(self, game_id: int, when: datetime) -> None:
        while (now := self.clock.now()) < when:
            # re-read the clock at least every 5 minutes (suspended machines, jumps)
            await self.clock.sleep_until(min(when, now + timedelta(minutes=5)))
        armed = self._timers.get(game_id)
        if armed is not None and armed[1] is asyncio.current_task():
            del self._timers[game_id]
        try:
            await self.expire_abandoned(game_id)
            await self.close_lapsed(game_id)
            await self.watch(game_id)  # another seat or offer may be waiting still
        except Exception:
            log.exception("game %s: what lapsed could not be applied", game_id)

    async def close_lapsed(self, game_id: int) -> None:
        """Close the game's posted prompts that no longer hold (see
        :meth:`Publisher.close_lapsed`); a failure is logged, the game goes on."""
        try:
            await self.publisher.close_lapsed(game_id)
        except Exception:
            log.exception("game %s: could not close lapsed prompts", game_id)

    async def _say(self, game: LoadedGame, text: str) -> None:
        await self.publisher.say(game, text)
