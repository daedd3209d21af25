"""Campaigns: a series of mission games, without Discord.

:class:`CampaignService` does for a campaign what :class:`~bot.service.GameService`
does for a game: it loads the campaign (its state replayed from its log, like a
game's), checks who may do what, asks the campaign's system
(:func:`engine.core.registry.campaign_system`), commits to storage before anyone is
answered, and returns :class:`CampaignNews` saying what the chat layer must tell.
It holds no rules and names no system.

A campaign's life:

* **recruiting**: ``/campaign new`` opens it, members join a side (a side nobody
  joins is flown by computer players);
* **active**: before each mission every side takes the campaign's decisions (secret
  ones by ephemeral menu; a computer side at once); when the mission is ready its
  game is opened through the normal game flow: a game row linked to the campaign
  and its mission number, seats from the members (round robin over the side's
  aircraft, one member further each mission), computer seats where a side has nobody, started from the campaign's
  ``mission_setup`` (:meth:`~bot.lobby.Lobbies.begin`), its thread made by the chat
  layer (:meth:`launch`);
* when a mission game ends, :meth:`after_game` writes its outcome to the campaign's
  log and the next mission is prepared; once the last is absorbed the campaign is
  **finished** with its result. **abandoned**: the host (or an admin) stopped it.

How a mission's game ending without the rules counts (docs/rules-decisions.md):

* **resigned or forfeited**: the outcome is recorded with the conceding side
  (``Outcome.conceded``): the campaign system scores it (Locked-On: the other
  nation its full stated VP, the conceding one what it destroyed);
* **aborted** (by the host or an admin): nothing is scored; the mission is flown
  again in a new game (a new seed, the same decisions);
* **campaign abandoned**: its running mission game is aborted, the campaign ends
  with no result.

Crash safety: every step is one append to the campaign's log (compare-and-set on its
sequence) or writes whose completion is marked last; :meth:`reconcile` (run at
start-up) finishes whatever step a crash interrupted: an ended mission game not yet
in the log is absorbed; a ready mission without a game row gets one; a row half
prepared (``prepared``) or half seated (``plan``) is done again; a seated game
without a thread, not started, or started but never announced (``announced``) is
launched; an abandoned campaign's open games are aborted. Each repair is idempotent,
so running it twice changes nothing (``tests/bot/test_campaign_recovery.py``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from pydantic import ValidationError

from bot.campaign_verify import verify_campaign
from bot.commitment import campaign_commitment, commitment_text
from bot.errors import Refusal, UserError
from bot.games import engine_refusal
from bot.outcome import Outcome, outcome_of
from bot.packs import OPTION, ContentPacks, campaign_system_of, own_setup, prepare_campaign
from bot.recent import Recent
from bot.scheduler import PendingDecision
from bot.service import GameService
from bot.storage import GameStatus
from bot.storage.locks import GameLocks
from bot.storage.models import (
    CampaignEntryRecord,
    CampaignMemberRecord,
    CampaignRecord,
    CampaignStatus,
    GameRecord,
)
from bot.verify import Verification
from engine.core.campaign import (
    CampaignDecision,
    CampaignEntry,
    CampaignSheet,
    CampaignSystem,
    EntryKind,
    Happenings,
    MissionPlan,
    outcome_text,
    replay,
    replay_step,
)
from engine.core.contract import Outcome as GameOutcome
from engine.core.errors import EngineError
from engine.core.present import Choice
from engine.core.registry import UnknownSystem, campaign_system, campaign_system_ids
from strings import Term

__all__ = [
    "DEADLINE_KIND",
    "CampaignNews",
    "CampaignService",
    "LoadedCampaign",
    "campaign_computer_seed",
]

log = logging.getLogger(__name__)

T = TypeVar("T")
STATE_CACHE = 64
"""Campaign states kept in memory (the most recently loaded)."""
LIVE = (CampaignStatus.RECRUITING, CampaignStatus.ACTIVE)
DEADLINE_KIND = "campaign."
"""The kind of a campaign decision's deadline is this and the decision's kind
(``campaign.skills``); its seat is the deciding side."""
DeadlineListener = Callable[[int, int, list[PendingDecision], str | None], Awaitable[None]]
MAX_STEPS = 64
"""Computer decisions and missions opened in one go: far more than any campaign has
between two human moves (a loop guard, never reached in play)."""


def campaign_computer_seed(record: CampaignRecord, side: str) -> int:
    """The seed of a computer player's campaign decision: hashed from the campaign's
    seed, its log's length and the side, so a replay makes the same choice."""
    key = f"tally-ho/campaign/computer/v1:{record.id}:{record.seed}:{record.last_seq}:{side}"
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 2


@dataclass
class LoadedCampaign:
    """A campaign as the service holds it: its record, members, log and state."""

    record: CampaignRecord
    members: list[CampaignMemberRecord]
    entries: list[CampaignEntryRecord]
    state: Any

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def system(self) -> CampaignSystem[Any, Any]:
        """Its campaign game: the built-in one, or the one over the content packs it
        was created with (built when it was loaded)."""
        return campaign_system_of(self.record.system, self.record.setup)

    def side_of(self, user_id: int) -> str | None:
        return next((m.side for m in self.members if m.user_id == user_id), None)

    def members_of(self, side: str) -> list[CampaignMemberRecord]:
        return [m for m in self.members if m.side == side]

    def side_name(self, side: str) -> str:
        return next((s.name for s in self.system.sides(self.state) if s.id == side), side)

    def sheet(self, side: str | None) -> CampaignSheet:
        return self.system.sheet(self.state, side)

    def absorbed(self, game_id: int) -> bool:
        """The log already holds the end (outcome or abort) of this mission game."""
        return any(
            e.game_id == game_id and e.kind in (EntryKind.OUTCOME, EntryKind.ABORTED)
            for e in self.entries
        )


@dataclass
class CampaignNews:
    """What a campaign call did, for the chat layer to tell."""

    campaign: LoadedCampaign
    lines: list[str] = field(default_factory=list)
    """For the campaign's thread (Terms): picks made, a mission's result, the end."""
    sheet: bool = False
    """Post the sheet's picture (a mission was flown, the campaign started or ended)."""
    launch: list[int] = field(default_factory=list)
    """Mission games opened and waiting for their thread (:meth:`CampaignService.launch`)."""
    asks: list[CampaignDecision] = field(default_factory=list)
    """Decisions now awaited from sides with players (ping them, offer the menu)."""
    pings: list[int] = field(default_factory=list)
    """Members the lines call on besides the sides asked (a reminder's): pinged."""
    outcomes: list[Outcome] = field(default_factory=list)
    """Mission games' own news to publish in their threads (an abort)."""
    finished: bool = False
    followers: list[str] = field(default_factory=list)
    """For the campaign's followers by DM: each mission's result, the end."""
    told: int | None = None
    """The log's seq up to which what the campaign settled by itself is in ``lines``:
    the chat layer calls :meth:`CampaignService.mark_told` once it is posted."""


class CampaignService:
    """Campaigns of one bot process, opening their missions through ``games``."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.storage = games.storage
        self.locks = GameLocks()
        self._states: Recent[int, tuple[int, Any]] = Recent(STATE_CACHE)
        """Campaigns' states by id, with the number of log entries each holds (a
        campaign's state never changes but by appending to its log)."""
        self.deadline_listeners: list[DeadlineListener] = []
        """Called after every campaign step with the mission row's id, the campaign's
        version (its deadlines' key), the decisions awaited (as the scheduler's ``PendingDecision``) and
        the side that just decided: ``bot.operations`` keeps their deadlines."""

    # ------------------------------------------------------------ reading
    async def load(self, campaign_id: int) -> LoadedCampaign:
        record = await self.storage.get_campaign(campaign_id)
        if record is None:
            raise Refusal("campaign.refusal.no_campaign", id=campaign_id)
        members = await self.storage.campaign_members(campaign_id)
        entries = await self.storage.load_campaign_log(campaign_id)
        await prepare_campaign(self.storage, record.system, record.setup)
        system = campaign_system_of(record.system, record.setup)
        log_entries = [CampaignEntry(EntryKind(e.kind), e.side, e.entry) for e in entries]
        cached = self._states.get(campaign_id)
        if cached is not None and cached[0] <= len(log_entries):
            # The log only grows: the entries after the cached state's are replayed.
            seq, state = cached
            for entry in log_entries[seq:]:
                state = replay_step(system, state, entry)
        else:
            setup = system.setup_model.model_validate(own_setup(record.setup))
            state = await asyncio.to_thread(replay, system, setup, record.seed, log_entries)
        self._states.put(campaign_id, (len(log_entries), state))
        return LoadedCampaign(record, members, entries, state)

    async def in_channel(self, channel_id: int | None) -> LoadedCampaign | None:
        """The campaign of this thread (its own, or one of its missions')."""
        if channel_id is None:
            return None
        record = await self.storage.get_campaign_by_thread(channel_id)
        if record is None:
            game = await self.storage.get_game_by_thread(channel_id)
            if game is None or game.campaign_id is None:
                return None
            return await self.load(game.campaign_id)
        return await self.load(record.id)

    async def resolve(
        self,
        guild_id: int | None,
        channel_id: int | None,
        user_id: int,
        campaign_id: int | None = None,
    ) -> LoadedCampaign:
        """The campaign named, else of this thread, else the user's only live one on
        this server. A campaign of another server (or asked from a DM) is refused: its
        id says nothing here."""
        found: LoadedCampaign | None = None
        if campaign_id is not None:
            found = await self.load(campaign_id)
        else:
            found = await self.in_channel(channel_id)
            if found is None:
                mine = [
                    c
                    for c in await self.storage.campaigns_of_user(user_id, statuses=LIVE)
                    if c.guild_id == guild_id
                ]
                if len(mine) != 1:
                    raise Refusal(
                        "campaign.refusal.which" if mine else "campaign.refusal.none_here"
                    )
                found = await self.load(mine[0].id)
        if guild_id is None or found.record.guild_id != guild_id:
            raise Refusal("campaign.refusal.no_campaign", id=found.id)
        return found

    async def list_campaigns(
        self, guild_id: int, *, live_only: bool = False
    ) -> list[CampaignRecord]:
        return await self.storage.list_campaigns(guild_id, statuses=LIVE if live_only else None)

    def public_log(self, campaign: LoadedCampaign) -> list[tuple[CampaignEntryRecord, str]]:
        """Each entry as anyone may read it now (secret picks masked until revealed)."""
        system = campaign.system
        out = []
        for e in campaign.entries:
            entry = CampaignEntry(EntryKind(e.kind), e.side, e.entry)
            if entry.kind is EntryKind.OUTCOME:
                text = str(json.loads(e.entry).get("verdict", ""))
            else:
                text = system.public_text(campaign.state, entry)
            out.append((e, text))
        return out

    # ------------------------------------------------------------ opening
    async def new(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        system: str,
        campaign: str,
        options: dict[str, Any],
    ) -> LoadedCampaign:
        """Open a campaign (recruiting). Refused for an unknown system or campaign, or
        options its system's ``setup_model`` refuses. It records the server's live
        content packs of its system (its set-up's ``packs``), which may give its
        campaign, and is played over exactly those versions."""
        try:
            campaign_system(system)
        except UnknownSystem:
            raise Refusal(
                "campaign.refusal.no_system",
                system=repr(system),
                systems=", ".join(campaign_system_ids()),
            ) from None
        packs = await ContentPacks(self.storage).for_new_campaign(guild_id, system)
        rules = campaign_system_of(system, {OPTION: packs})
        known = {c.id for c in rules.campaigns()}
        if campaign not in known:
            raise Refusal(
                "campaign.refusal.unknown", campaign=repr(campaign), known=", ".join(sorted(known))
            )
        fields = rules.setup_model.model_fields
        for key in options:  # what tests fix (the draws) is never a player's option
            extra = fields[key].json_schema_extra if key in fields else None
            if isinstance(extra, dict) and extra.get("tests_only"):
                raise Refusal("campaign.refusal.tests_only", option=key)
        try:
            setup = rules.setup_model.model_validate({**options, "campaign": campaign})
        except ValidationError as exc:
            first = exc.errors()[0]
            option = ".".join(str(part) for part in first["loc"]) or "options"
            raise Refusal("campaign.refusal.option", option=option, why=first["msg"]) from exc
        seed = self.games._seed()
        try:
            rules.new_campaign(setup, seed)
        except EngineError as exc:
            raise engine_refusal(exc) from exc
        record = await self.storage.create_campaign(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            system=system,
            campaign=campaign,
            setup={**setup.model_dump(mode="json"), **({OPTION: packs} if packs else {})},
            seed=seed,
        )
        return await self.load(record.id)

    async def attach_thread(self, campaign: LoadedCampaign, thread_id: int) -> LoadedCampaign:
        await self.storage.update_campaign(campaign.id, thread_id=thread_id)
        return await self.load(campaign.id)

    async def join(
        self, campaign_id: int, user_id: int, name: str, side: str | None
    ) -> tuple[LoadedCampaign, str]:
        """Join (or change) a side while the campaign recruits. Once it runs, a side's
        secret decisions are its members' to see: a newcomer comes in through a member
        (or the host) handing over a place (:meth:`substitute`)."""
        async with self.locks(campaign_id):
            campaign = await self.load(campaign_id)
            if campaign.record.status not in LIVE:
                raise Refusal("campaign.refusal.over")
            if campaign.record.status is CampaignStatus.ACTIVE:
                raise Refusal("campaign.refusal.join_running")
            sides = campaign.system.sides(campaign.state)
            ids = [s.id for s in sides]
            if side is None:
                side = min(ids, key=lambda s: (len(campaign.members_of(s)), ids.index(s)))
            found = _match_side(sides, side)
            if found is None:
                raise Refusal(
                    "campaign.refusal.side",
                    side=repr(side),
                    sides=", ".join(f"{s.id} ({s.name})" for s in sides),
                )
            await self.storage.put_campaign_member(
                campaign_id, user_id, side=found, display_name=name
            )
            return await self.load(campaign_id), found

    async def start(self, campaign_id: int, user_id: int, *, admin: bool = False) -> CampaignNews:
        """The host starts the campaign: its first decisions are asked (and a computer
        side's taken), then its first mission opened as soon as it is ready."""
        async with self.locks(campaign_id):
            campaign = await self.load(campaign_id)
            if campaign.record.status is not CampaignStatus.RECRUITING:
                raise Refusal("campaign.refusal.started")
            if user_id != campaign.record.host_id and not admin:
                raise Refusal("campaign.refusal.host")
            if not campaign.members:
                raise Refusal("campaign.refusal.nobody")
            await self.storage.update_campaign(campaign_id, status=CampaignStatus.ACTIVE)
            campaign = await self.load(campaign_id)
            news = CampaignNews(campaign, sheet=True)
            news.lines.extend(campaign.system.opening(campaign.state).lines)
            for s in campaign.system.sides(campaign.state):
                players = campaign.members_of(s.id)
                who = ", ".join(f"<@{m.user_id}>" for m in players)
                news.lines.append(
                    Term("campaign.side_players", side=s.name, players=who)
                    if players
                    else Term("campaign.side_computer", side=s.name)
                )
            return await self._advance(campaign, news)

    async def substitute(
        self,
        campaign_id: int,
        user_id: int,
        newcomer: int,
        name: str,
        *,
        replaces: int | None = None,
        admin: bool = False,
    ) -> tuple[LoadedCampaign, str]:
        """A member hands their place in the campaign to ``newcomer`` (not a member
        yet); the host or an admin may replace any member (``replaces``). The side's
        decisions and its next missions' seats go to the newcomer; a mission being
        flown keeps its seats (``/game sub`` hands those over)."""
        async with self.locks(campaign_id):
            campaign = await self.load(campaign_id)
            if campaign.record.status not in LIVE:
                raise Refusal("campaign.refusal.over")
            leaving = user_id if replaces is None else replaces
            if replaces is not None and user_id != campaign.record.host_id and not admin:
                raise Refusal("campaign.refusal.sub_who")
            side = campaign.side_of(leaving)
            if side is None:
                raise Refusal("campaign.refusal.not_member")
            if campaign.side_of(newcomer) is not None:
                raise Refusal("campaign.refusal.sub_member")
            await self.storage.replace_campaign_member(
                campaign_id, leaving, newcomer, display_name=name
            )  # one transaction: the side is never without the place, nor with both
            campaign = await self.load(campaign_id)
            row = await self._mission_game(campaign)
            pending = campaign.system.pending(campaign.state)
            if row is not None and row.status is GameStatus.LOBBY:
                await self.settle_deadlines(campaign, row.id, side)
                await self._sync_deadlines(campaign, row.id, pending, None)
            return campaign, side

    async def settle_deadlines(self, campaign: LoadedCampaign, row_id: int, side: str) -> None:
        """Drop the side's open deadlines (they named the old holder): the next sync
        gives the decision a fresh one."""
        others = [d for d in campaign.system.pending(campaign.state) if d.side != side]
        await self._sync_deadlines(campaign, row_id, others, None)

    async def current_row(self, campaign: LoadedCampaign) -> GameRecord | None:
        """The next mission's game row (being prepared or flown), if it exists."""
        return await self._mission_game(campaign)

    async def is_current_row(self, campaign: LoadedCampaign, row_id: int) -> bool:
        """``row_id`` is the row of the mission the campaign is at (its deadlines are
        the ones that count)."""
        row = await self._mission_game(campaign)
        return row is not None and row.id == row_id

    async def with_current_row(
        self, campaign_id: int, act: Callable[[GameRecord | None], Awaitable[T]]
    ) -> T:
        """Run ``act`` on the current mission's row under the campaign's lock: no
        decision moves the campaign to another row meanwhile (a vacation set on it
        is the one the next row copies)."""
        async with self.locks(campaign_id):
            return await act(await self._mission_game(await self.load(campaign_id)))

    async def mark_told(self, campaign_id: int, seq: int) -> None:
        """What the campaign settled by itself up to entry ``seq`` was posted."""
        await self.storage.update_campaign(campaign_id, told_seq=seq)

    # ------------------------------------------------------------ deciding
    def legal(self, campaign: LoadedCampaign, side: str) -> list[Any]:
        if campaign.record.status is not CampaignStatus.ACTIVE:
            return []
        return campaign.system.legal_actions(campaign.state, side)

    @staticmethod
    def menu_version(campaign: LoadedCampaign) -> int:
        """What a side's menu is for: the next mission and its attempt (another side
        deciding meanwhile leaves the menu good; a mission flown makes it stale)."""
        upcoming = campaign.system.next_mission(campaign.state)
        return upcoming.number * 1000 + upcoming.attempt if upcoming is not None else 0

    def menu(self, campaign: LoadedCampaign, user_id: int) -> Choice | None:
        """The user's side's decision as its system's tree of choices (None: nothing
        to decide now)."""
        side = campaign.side_of(user_id)
        if side is None or campaign.record.status is not CampaignStatus.ACTIVE:
            return None
        return campaign.system.menu(campaign.state, side)

    async def decide(
        self, campaign_id: int, user_id: int, text: str, *, version: int | None = None
    ) -> CampaignNews:
        """A member's decision for their side. Refused (nothing written) unless the
        side has that decision pending and the system accepts it; ``version``: the
        menu's (:meth:`menu_version`), refused once out of date."""
        async with self.locks(campaign_id):
            campaign = await self.load(campaign_id)
            if campaign.record.status is not CampaignStatus.ACTIVE:
                raise Refusal("campaign.refusal.not_active")
            side = campaign.side_of(user_id)
            if side is None:
                raise Refusal("campaign.refusal.not_member")
            system = campaign.system
            if not any(d.side == side for d in system.pending(campaign.state)):
                raise Refusal("campaign.refusal.nothing_pending", side=campaign.side_name(side))
            if version is not None and version != self.menu_version(campaign):
                raise Refusal("campaign.refusal.stale")
            try:
                action = system.parse_action(text)
                after = system.apply(campaign.state, side, action)
            except EngineError as exc:
                raise engine_refusal(exc) from exc
            before = campaign.state
            campaign = await self._append(
                campaign, after, EntryKind.DECISION, str(action), side=side, user_id=user_id
            )
            news = CampaignNews(campaign)
            news.lines.append(Term("campaign.decided", side=campaign.side_name(side)))
            self._happened(news, before, campaign)
            return await self._advance(campaign, news, actor=side)

    async def default_decision(
        self,
        campaign_id: int,
        side: str,
        *,
        computer: bool = False,
        row_id: int | None = None,
    ) -> CampaignNews:
        """A side's deadline passed: its system's default decision is taken (with
        ``computer``, the server's policy: a computer player's). ``row_id``: the row
        the deadline was kept on; a deadline of a mission the campaign has left (an
        Eagles in the Sky mission settled meanwhile) decides nothing, not the next
        mission's decision the side was not yet asked for."""
        async with self.locks(campaign_id):
            campaign = await self.load(campaign_id)
            system = campaign.system
            if campaign.record.status is not CampaignStatus.ACTIVE or not any(
                d.side == side for d in system.pending(campaign.state)
            ):
                return CampaignNews(campaign)
            if row_id is not None and not await self.is_current_row(campaign, row_id):
                return CampaignNews(campaign)
            if computer:
                seed = campaign_computer_seed(campaign.record, side)
                action = system.computer_action(campaign.state, side, seed)
            else:
                action = system.default_action(campaign.state, side)
            after = system.apply(campaign.state, side, action)
            before = campaign.state
            campaign = await self._append(
                campaign, after, EntryKind.DECISION, str(action), side=side
            )
            news = CampaignNews(campaign)
            news.lines.append(Term("campaign.defaulted", side=campaign.side_name(side)))
            self._happened(news, before, campaign)
            return await self._advance(campaign, news)

    # ------------------------------------------------------------ the missions
    async def _advance(
        self, campaign: LoadedCampaign, news: CampaignNews, actor: str | None = None
    ) -> CampaignNews:
        """Take computer sides' decisions, open the next mission once it is ready, end
        the campaign after its last; report the decisions still awaited. Under the
        campaign's lock."""
        for _ in range(MAX_STEPS):
            system = campaign.system
            if campaign.record.status is not CampaignStatus.ACTIVE:
                break
            if system.is_over(campaign.state):
                await self._close_unflown(campaign)
                result = system.result(campaign.state)
                assert result is not None
                await self.storage.update_campaign(
                    campaign.id,
                    status=CampaignStatus.FINISHED,
                    result={
                        "winner": result.winner,
                        "verdict": str(result.verdict),
                        "totals": dict(result.totals),
                        "levels": {k: str(v) for k, v in result.levels.items()},
                    },
                    finished_at=self.games.clock.now(),
                )
                campaign = await self.load(campaign.id)
                news.campaign = campaign
                news.lines.append(Term("campaign.finished", verdict=result.verdict))
                news.lines.append(self.seed_line(campaign))
                news.followers.append(Term("campaign.finished", verdict=result.verdict))
                news.finished = news.sheet = True
                break
            await self._close_unflown(campaign, actor)
            pending = system.pending(campaign.state)
            computer = [d for d in pending if not campaign.members_of(d.side)]
            if computer:
                d = computer[0]
                seed = campaign_computer_seed(campaign.record, d.side)
                action = system.computer_action(campaign.state, d.side, seed)
                after = system.apply(campaign.state, d.side, action)
                before = campaign.state
                campaign = await self._append(
                    campaign, after, EntryKind.DECISION, str(action), side=d.side
                )
                news.campaign = campaign
                news.lines.append(
                    Term("campaign.decided_computer", side=campaign.side_name(d.side))
                )
                self._happened(news, before, campaign)
                continue
            row = await self._mission_row(campaign)
            await self._sync_deadlines(campaign, row.id, pending, actor)
            if pending:
                news.asks = pending
                break
            own = await self.storage.get_game_settings(row.id)
            settings = own.settings if own is not None else {}
            if row.status is GameStatus.LOBBY:
                if "plan" not in settings:  # not (wholly) seated yet
                    await self._seat_mission(campaign, row.id)
                news.launch.append(row.id)
            elif row.status is GameStatus.ACTIVE and not settings.get("announced"):
                news.launch.append(row.id)  # started, its start never posted: a crash
            break
        news.campaign = campaign
        return news

    async def _append(
        self,
        campaign: LoadedCampaign,
        after: Any,
        kind: EntryKind,
        text: str,
        *,
        side: str | None = None,
        user_id: int | None = None,
        game_id: int | None = None,
    ) -> LoadedCampaign:
        """Append one entry to the campaign's log (compare-and-set on its length) and
        load the campaign again. ``after`` is the state the entry leads to, which the
        system computed to check it: the cache takes it, so nothing is replayed."""
        await self.storage.append_campaign_entry(
            campaign.id,
            kind=kind.value,
            side=side,
            entry=text,
            user_id=user_id,
            game_id=game_id,
            expected_seq=campaign.record.last_seq,
        )
        self._states.put(campaign.id, (len(campaign.entries) + 1, after))
        return await self.load(campaign.id)

    @staticmethod
    def _happened(news: CampaignNews, before: Any, campaign: LoadedCampaign) -> None:
        """What the campaign resolved by itself in its last step (its system's
        ``happenings``): into the thread's lines, and the followers' DMs."""
        happened = campaign.system.happenings(before, campaign.state)
        news.lines.extend(happened.lines)
        news.followers.extend(happened.lines)
        news.sheet = news.sheet or happened.sheet
        if happened.lines:
            news.told = campaign.record.last_seq

    def _untold(self, campaign: LoadedCampaign) -> Happenings:
        """What the campaign settled by itself after the last entry its thread was told
        of (a crash between an entry and its post): its entries replayed one by one."""
        system = campaign.system
        told = campaign.record.told_seq
        state = system.new_campaign(
            system.setup_model.model_validate(own_setup(campaign.record.setup)),
            campaign.record.seed,
        )
        lines: list[str] = []
        sheet = False
        for e in campaign.entries:
            before = state
            state = replay_step(system, state, CampaignEntry(EntryKind(e.kind), e.side, e.entry))
            if e.seq > told:
                happened = system.happenings(before, state)
                lines.extend(happened.lines)
                sheet = sheet or happened.sheet
        return Happenings(tuple(lines), sheet)

    async def _close_unflown(self, campaign: LoadedCampaign, actor: str | None = None) -> None:
        """Close the rows of missions the campaign settled without a game (an Eagles
        in the Sky Encounter, a mission the weather grounded): the row made to hold
        their decisions' deadlines never became a game. It ends aborted with a note,
        its deadlines cancelled; its log holds nothing, and the campaign's log needs
        no entry for it (the decisions that settled it are there)."""
        upcoming = campaign.system.next_mission(campaign.state)
        for g in await self.storage.games_of_campaign(campaign.id):
            if g.status is not GameStatus.LOBBY or campaign.absorbed(g.id):
                continue
            if upcoming is not None and g.mission == upcoming.number:
                continue
            await self._sync_deadlines(campaign, g.id, [], actor)  # ``actor``'s time used
            await self.storage.update_game(
                g.id,
                g.version,
                status=GameStatus.ABORTED,
                result={"verdict": str(Term("campaign.mission_unflown")), "unflown": True},
            )

    async def _mission_game(self, campaign: LoadedCampaign) -> GameRecord | None:
        """The game of the next mission's current attempt, if its row exists: the
        newest game of that mission whose end is not yet in the log."""
        upcoming = campaign.system.next_mission(campaign.state)
        if upcoming is None:
            return None
        for g in reversed(await self.storage.games_of_campaign(campaign.id)):
            if g.mission == upcoming.number and not campaign.absorbed(g.id):
                return g
        return None

    async def _mission_row(self, campaign: LoadedCampaign) -> GameRecord:
        """The next mission's game row, made (in the lobby, no seats yet) when its
        decisions are first awaited: their deadlines are kept on it, keyed by the
        deciding side. A side's time bank and vacation on the previous mission's row
        carry over."""
        found = await self._mission_game(campaign)
        if found is not None:
            own = await self.storage.get_game_settings(found.id)
            if own is None or not own.settings.get("prepared"):
                await self._prepare_row(campaign, found.id)  # a crash cut it short
            return found
        upcoming = campaign.system.next_mission(campaign.state)
        assert upcoming is not None
        packs = campaign.record.setup.get(OPTION)  # its missions fly the campaign's packs
        record = await self.storage.create_game(
            guild_id=campaign.record.guild_id,
            channel_id=campaign.record.channel_id,
            host_id=campaign.record.host_id,
            system=upcoming.system,
            ruleset=upcoming.ruleset,
            seed=upcoming.seed,
            options={
                "format": "custom",
                "responses": "normal",
                "mission": upcoming.number,
                "attempt": upcoming.attempt,
                **({OPTION: packs} if packs else {}),
            },
            campaign_id=campaign.id,
            mission=upcoming.number,
        )
        await self._prepare_row(campaign, record.id)
        return record

    async def _prepare_row(self, campaign: LoadedCampaign, row_id: int) -> None:
        """A mission row's settings, and the sides' time banks and vacations carried
        over from the previous mission's row; ``prepared`` is written last, so a row a
        crash left half-done is prepared again (every write here is idempotent)."""
        previous = [g for g in await self.storage.games_of_campaign(campaign.id) if g.id != row_id]
        settings: dict[str, Any] = {"responses": "normal"}
        if previous:
            before = await self.storage.get_game_settings(previous[-1].id)
            if before is not None and "deadlines" in before.settings:
                settings["deadlines"] = before.settings["deadlines"]
        if previous:
            now = self.games.clock.now()
            sides = {s.id for s in campaign.system.sides(campaign.state)}
            for clock in await self.storage.list_seat_clocks(previous[-1].id):
                if clock.seat not in sides:
                    continue  # a seat of the game, not a side's decisions
                bank = clock.time_bank_seconds  # the side's time bank carries over too
                await self.storage.init_seat_clock(row_id, clock.seat, time_bank_seconds=bank)
                until = clock.vacation_until
                if until is not None and until > now:
                    await self.storage.set_vacation(row_id, clock.seat, clock.vacation_from, until)
        await self.storage.put_game_settings(row_id, {**settings, "prepared": True})

    async def _sync_deadlines(
        self,
        campaign: LoadedCampaign,
        row_id: int,
        pending: list[CampaignDecision],
        actor: str | None,
    ) -> None:
        """Keep the deadlines of the campaign's decisions in line with what it awaits:
        one per deciding side with players (kind ``campaign.<kind>``, on the mission's
        row, seat: the side, held by its first member)."""
        decisions = [
            PendingDecision(d.side, DEADLINE_KIND + d.kind, campaign.members_of(d.side)[0].user_id)
            for d in pending
            if campaign.members_of(d.side)
        ]
        for listener in self.deadline_listeners:
            try:
                await listener(row_id, campaign.record.version, decisions, actor)
            except Exception:  # deadlines must never undo or block a committed decision
                log.exception("campaign %s: the deadlines could not follow", campaign.id)

    async def _seat_mission(self, campaign: LoadedCampaign, row_id: int) -> None:
        """Seat the mission's game: each seat held by a member of the side flying it
        (round robin over the side's aircraft, starting one member further each
        mission, so a side of several members takes turns even where it flies one
        seat), a computer player where a side has nobody. Every write replaces (a seat,
        the options, the settings), and the settings' ``plan``, written last, marks it
        done: a crash halfway is seated again, the same way (the mission's number
        decides). The setup itself is the campaign's ``mission_setup``, at the start."""
        plan = campaign.system.mission_setup(campaign.state)
        computer: list[str] = []
        turn: dict[str, int] = {}
        for pick in plan.seats:
            players = campaign.members_of(plan.seat_sides[pick.seat])
            payload = pick.pick.model_dump(mode="json")
            if players:
                n = turn.get(pick.side, plan.number - 1)
                turn[pick.side] = n + 1
                m = players[n % len(players)]
                await self.storage.put_seat(
                    row_id, pick.seat, pick.side, m.user_id, m.display_name, payload
                )
            else:
                computer.append(pick.seat)
                await self.storage.put_seat(row_id, pick.seat, pick.side, None, "computer", payload)
        game = await self.storage.get_game(row_id)
        assert game is not None
        options = {**game.options, **plan.options.model_dump(mode="json")}
        await self.storage.update_game(row_id, game.version, options=options)
        own = await self.storage.get_game_settings(row_id)
        settings = dict(own.settings) if own is not None else {}
        settings["computer_seats"] = computer
        settings["plan"] = _plan_record(plan)
        await self.storage.put_game_settings(row_id, settings)

    async def launch(self, game_id: int) -> Outcome:
        """Start a mission game whose thread exists (the chat layer made it) from the
        campaign's ``mission_setup``, its first lines the mission's briefing (the
        secret choices revealed). A game started but never announced (a crash between
        the two) is announced now, from where it stands; one announced already gives
        an empty outcome. The chat layer calls :meth:`mark_announced` once it posted."""
        async with self.games.locks(game_id):
            game = await self.games.load(game_id)
            if game.record.campaign_id is None:
                return Outcome(game)
            settings = await self.games.game_settings(game_id)
            started = game.record.status is GameStatus.ACTIVE
            if not (game.record.status is GameStatus.LOBBY or started) or settings.get("announced"):
                return Outcome(game)
            campaign = await self.load(game.record.campaign_id)
            plan = campaign.system.mission_setup(campaign.state)
            if started:
                out = outcome_of(game, [], image=True)
                commitment = game.record.options.get("commitment")
                if commitment:
                    out.public.append(commitment_text(str(commitment)))
            else:
                out = await self.games.begin(game, plan.setup)
            out.public[:0] = [
                Term("campaign.mission_start", number=plan.number, title=plan.title),
                *plan.briefing,
            ]
            return out

    async def mark_announced(self, game_id: int) -> None:
        """The mission game's start was posted (:meth:`launch`)."""
        settings = await self.games.game_settings(game_id)
        await self.storage.put_game_settings(game_id, {**settings, "announced": True})

    async def after_game(self, game_id: int) -> CampaignNews | None:
        """A mission game ended (finished or aborted): its end goes into the campaign's
        log once, and the campaign moves on. None for a game of no campaign or one
        still running."""
        record = await self.storage.get_game(game_id)
        if record is None or record.campaign_id is None:
            return None
        if record.status not in (GameStatus.FINISHED, GameStatus.ABORTED):
            return None
        async with self.locks(record.campaign_id):
            campaign = await self.load(record.campaign_id)
            if campaign.absorbed(game_id) or campaign.record.status is not CampaignStatus.ACTIVE:
                return None
            upcoming = campaign.system.next_mission(campaign.state)
            if upcoming is None or record.mission != upcoming.number:
                return None  # an earlier attempt's late news
            news = CampaignNews(campaign)
            system = campaign.system
            before = campaign.state
            if record.status is GameStatus.ABORTED:
                after = system.abort_mission(campaign.state)
                campaign = await self._append(
                    campaign, after, EntryKind.ABORTED, f"game {game_id} aborted", game_id=game_id
                )
                news.lines.append(
                    Term("campaign.mission_aborted", number=record.mission, id=game_id)
                )
            else:
                outcome = await self.outcome_of(game_id)
                try:
                    after = system.absorb(campaign.state, outcome)
                except EngineError:
                    log.exception("campaign %s: game %s's outcome refused", campaign.id, game_id)
                    return None
                campaign = await self._append(
                    campaign, after, EntryKind.OUTCOME, outcome_text(outcome), game_id=game_id
                )
                flown = campaign.sheet(None).missions[(record.mission or 1) - 1]
                scores = ", ".join(
                    f"{campaign.side_name(side)} {vp}" for side, vp in flown.vp.items()
                )
                # A mission scoring nothing of its own (a Zero! air strike: its Damage
                # goes on the records) has no scores clause.
                line = Term(
                    "campaign.mission_result" if scores else "campaign.mission_result_unscored",
                    number=record.mission,
                    title=flown.title,
                    scores=scores,
                    verdict=outcome.verdict,
                )
                news.lines.append(line)
                news.followers.append(line)
                news.sheet = True
                self._happened(news, before, campaign)
            news.campaign = campaign
            return await self._advance(campaign, news)

    async def outcome_of(self, game_id: int) -> GameOutcome:
        """The typed outcome of an ended mission game: its system's, with the side that
        resigned or forfeited it (the bot's record, which the rules know nothing of)."""
        game = await self.games.load(game_id)
        assert game.state is not None
        outcome = game.system.outcome(game.state)
        result = game.record.result or {}
        conceded = result.get("conceded")
        if conceded is not None:
            vp = {str(k): int(v) for k, v in dict(result.get("vp") or outcome.vp).items()}
            outcome = replace(
                outcome,
                over=True,
                winner=result.get("winner"),
                verdict=str(result.get("verdict", outcome.verdict)),
                vp=vp,
                conceded=str(conceded),
            )
        return outcome

    # ------------------------------------------------------------ ending
    async def abandon(self, campaign_id: int, user_id: int, *, admin: bool) -> CampaignNews:
        """The host (or an admin) abandons the campaign: no result; its running mission
        game is aborted."""
        async with self.locks(campaign_id):
            campaign = await self.load(campaign_id)
            if campaign.record.status not in LIVE:
                raise Refusal("campaign.refusal.over")
            if user_id != campaign.record.host_id and not admin:
                raise Refusal("campaign.refusal.abandon_who")
            await self.storage.update_campaign(
                campaign_id,
                status=CampaignStatus.ABANDONED,
                finished_at=self.games.clock.now(),
            )
            campaign = await self.load(campaign_id)
        news = CampaignNews(campaign, finished=True)
        news.lines.append(Term("campaign.abandoned", user=f"<@{user_id}>"))
        if campaign.record.last_seq or campaign.record.thread_id is not None:
            news.lines.append(self.seed_line(campaign))
        news.outcomes.extend(await self._abort_games(campaign.id, user_id))
        return news

    async def _abort_games(self, campaign_id: int, user_id: int) -> list[Outcome]:
        """Abort an abandoned campaign's open mission games (what their threads are told)."""
        out: list[Outcome] = []
        for g in await self.storage.games_of_campaign(campaign_id):
            if g.status in (GameStatus.LOBBY, GameStatus.ACTIVE):
                try:
                    out.append(await self.games.abort(g.id, user_id, admin=True))
                except UserError:
                    log.warning("campaign %s: could not abort game %s", campaign_id, g.id)
        return out

    async def reconcile(self) -> list[CampaignNews]:
        """At start-up: finish every step a crash interrupted (see the module's doc)."""
        out: list[CampaignNews] = []
        # An abandoned campaign's games still open (a crash between its status and its
        # games): found from the open games, not by loading every campaign ever abandoned.
        of_campaigns = {g.campaign_id for g in await self.storage.list_open_games()}
        for campaign_id in sorted(c for c in of_campaigns if c is not None):
            record = await self.storage.get_campaign(campaign_id)
            if record is None or record.status is not CampaignStatus.ABANDONED:
                continue
            outcomes = await self._abort_games(campaign_id, record.host_id)
            if outcomes:
                out.append(CampaignNews(await self.load(campaign_id), outcomes=outcomes))
        for record in await self.storage.list_campaigns(statuses=(CampaignStatus.ACTIVE,)):
            try:
                news = await self._reconcile_one(record.id)
            except Exception:  # one broken campaign must not keep the others down
                log.exception("campaign %s: could not be brought up to date", record.id)
                continue
            if news is not None:
                out.append(news)
        return out

    async def _reconcile_one(self, campaign_id: int) -> CampaignNews | None:
        campaign = await self.load(campaign_id)
        for g in await self.storage.games_of_campaign(campaign_id):
            ended = g.status in (GameStatus.FINISHED, GameStatus.ABORTED)
            unflown = bool((g.result or {}).get("unflown"))  # settled without a game
            if ended and not unflown and not campaign.absorbed(g.id):  # not yet logged
                news = await self.after_game(g.id)
                if news is not None:
                    return news
        async with self.locks(campaign_id):
            campaign = await self.load(campaign_id)
            news = CampaignNews(campaign)
            if campaign.record.told_seq < campaign.record.last_seq:
                untold = self._untold(campaign)
                news.lines.extend(untold.lines)
                news.followers.extend(untold.lines)
                news.sheet = untold.sheet and bool(untold.lines)
                if untold.lines:
                    news.told = campaign.record.last_seq
                else:  # nothing was settled by the campaign itself since
                    await self.mark_told(campaign_id, campaign.record.last_seq)
            news = await self._advance(campaign, news)
        return news if news.launch or news.lines or news.finished or news.asks else None

    # ------------------------------------------------------------ verifying
    @staticmethod
    def seed_line(campaign: LoadedCampaign) -> str:
        """The seed revealed at the end, with the commitment posted at the start."""
        seed = campaign.record.seed
        return Term(
            "campaign.seed_revealed",
            seed=seed,
            commitment=campaign_commitment(campaign.id, seed),
        )

    async def verify(self, campaign_id: int) -> Verification:
        """``/campaign verify``: once it is over (its seed is secret before)."""
        campaign = await self.load(campaign_id)
        if campaign.record.status in LIVE:
            raise Refusal("campaign.refusal.verify_running")
        return await verify_campaign(self, campaign)

    # ------------------------------------------------------------ following
    async def follow(self, campaign_id: int, user_id: int) -> bool:
        await self.load(campaign_id)
        return await self.storage.follow_campaign(campaign_id, user_id)

    async def unfollow(self, campaign_id: int, user_id: int) -> bool:
        return await self.storage.unfollow_campaign(campaign_id, user_id)


def _match_side(sides: Any, typed: str) -> str | None:
    key = typed.strip().lower()
    for s in sides:
        if key in (s.id.lower(), str(s.name).lower()):
            return str(s.id)
    return None


def _plan_record(plan: MissionPlan) -> dict[str, Any]:
    return {"number": plan.number, "title": plan.title, "attempt": plan.next.attempt}
