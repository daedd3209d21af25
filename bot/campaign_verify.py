"""A campaign's seed commitment and its verification (``/campaign verify``).

The campaign's seed is secret while it runs; ``sha256`` of it is posted when it
starts (:func:`campaign_commitment`) and the seed itself when it ends. Every mission
game's seed is derived from it (:func:`engine.core.campaign.mission_seed`, one-way), so
each game's own commitment and ``/game verify`` hold as for any game, and the campaign's
verification ties the games to the campaign: replayed from the revealed seed, every
entry of its log stands where it does: each decision is legal, each mission's entry
names a game of the campaign (once), at the mission and attempt the campaign was at,
with the seed derived for them, set up as the campaign's mission, its outcome the
replay's; every ended game is in the log; every game verifies; the recorded result is
the replay's.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from bot.archive import archive
from bot.commitment import campaign_commitment
from bot.packs import own_setup
from bot.storage import GameStatus
from bot.storage.models import CampaignEntryRecord, CampaignStatus, GameRecord
from bot.verify import Check, Verification
from engine.core.campaign import CampaignEntry, EntryKind, outcome_from_json, outcome_to_json
from engine.core.errors import EngineError
from strings import Term

if TYPE_CHECKING:
    from bot.campaigns import CampaignService, LoadedCampaign

__all__ = ["verify_campaign"]


async def verify_campaign(service: CampaignService, campaign: LoadedCampaign) -> Verification:
    """Check a finished (or abandoned) campaign from its revealed seed (the module's
    doc): its log is walked from the seed, step by step, with its games beside it."""
    record = campaign.record
    checks = [
        Check(
            True,
            Term(
                "campaign.verify.seed",
                seed=record.seed,
                commitment=campaign_commitment(record.id, record.seed)[:16],
            ),
        ),
    ]
    system = campaign.system
    games = {g.id: g for g in await service.storage.games_of_campaign(record.id)}
    try:
        setup = system.setup_model.model_validate(own_setup(record.setup))
        state = system.new_campaign(setup, record.seed)
    except (EngineError, ValueError) as exc:
        checks.append(Check(False, Term("campaign.verify.illegal", why=str(exc))))
        return Verification(tuple(checks))
    used: set[int] = set()
    bad: list[str] = []
    """What does not hold, entry by entry (``#seq: why``), stopping at the first."""
    for e in campaign.entries:
        why = await _step_problem(service, system, state, e, games, used)
        if why is not None:
            bad.append(Term("campaign.verify.step.at", seq=e.seq, why=why))
            break
        entry = CampaignEntry(EntryKind(e.kind), e.side, e.entry)
        try:
            if entry.kind is EntryKind.DECISION:
                assert entry.side is not None
                state = system.apply(state, entry.side, system.parse_action(entry.text))
            elif entry.kind is EntryKind.OUTCOME:
                state = system.absorb(state, outcome_from_json(entry.text))
            else:
                state = system.abort_mission(state)
        except (EngineError, ValueError, AssertionError) as exc:
            bad.append(Term("campaign.verify.step.at", seq=e.seq, why=str(exc)))
            break
    if bad:
        checks.append(Check(False, Term("campaign.verify.illegal", why=bad[0])))
    else:
        checks.append(Check(True, Term("campaign.verify.legal", n=len(campaign.entries))))
    ended = {
        g.id
        for g in games.values()
        if g.status in (GameStatus.FINISHED, GameStatus.ABORTED) and "setup" in g.options
    }
    unlogged = sorted(ended - used)
    checks.append(
        Check(
            not unlogged,
            Term("campaign.verify.games_logged", n=len(used))
            if not unlogged
            else Term("campaign.verify.games_unlogged", games=", ".join(f"#{g}" for g in unlogged)),
        )
    )
    failed = []
    for game_id in sorted(ended):
        verification = await archive(service.games).verify(await service.games.load(game_id))
        if not verification.ok:
            failed.append(game_id)
    checks.append(
        Check(
            not failed,
            Term("campaign.verify.games_ok")
            if not failed
            else Term("campaign.verify.games_bad", games=", ".join(f"#{g}" for g in failed)),
        )
    )
    result = await asyncio.to_thread(system.result, state)
    if record.status is CampaignStatus.FINISHED:
        same = result is not None and (record.result or {}).get("verdict") == str(result.verdict)
        checks.append(
            Check(
                same,
                Term("campaign.verify.result_ok", verdict=result.verdict)
                if same and result is not None
                else Term("campaign.verify.result_bad"),
            )
        )
    else:
        flown = sum(1 for e in campaign.entries if e.kind == EntryKind.OUTCOME.value)
        checks.append(Check(True, Term("campaign.verify.abandoned", n=flown)))
    return Verification(tuple(checks))


async def _step_problem(
    service: CampaignService,
    system: Any,
    state: Any,
    e: CampaignEntryRecord,
    games: dict[int, GameRecord],
    used: set[int],
) -> str | None:
    """Why a mission's entry does not belong where it stands in the log (None: it
    does): it must name a game of this campaign not named before, the mission and
    attempt the campaign was at, with the seed derived for them and, for an outcome,
    the set-up the campaign gave that mission and the outcome of its game's replay."""
    if e.kind == EntryKind.DECISION.value:
        return None
    if e.game_id is None or e.game_id not in games or e.game_id in used:
        return Term("campaign.verify.step.no_game", game=str(e.game_id))
    game = games[e.game_id]
    used.add(game.id)
    upcoming = system.next_mission(state)
    if upcoming is None or game.mission != upcoming.number:
        return Term("campaign.verify.step.not_next", game=game.id)
    if int(game.options.get("attempt", 1)) != upcoming.attempt or game.seed != upcoming.seed:
        return Term("campaign.verify.step.seed", game=game.id)
    if e.kind == EntryKind.ABORTED.value:
        aborted = game.status is GameStatus.ABORTED
        return None if aborted else Term("campaign.verify.step.not_aborted", game=game.id)
    if game.status is not GameStatus.FINISHED:
        return Term("campaign.verify.step.not_finished", game=game.id)
    plan = system.mission_setup(state)
    if game.options.get("setup") != plan.setup.model_dump(mode="json"):
        return Term("campaign.verify.step.setup", game=game.id)
    replayed = outcome_to_json(await service.outcome_of(game.id))
    if replayed != json.loads(e.entry):
        return Term("campaign.verify.step.outcome", game=game.id)
    return None
