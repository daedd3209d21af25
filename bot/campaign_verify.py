"""A campaign's seed commitment and its verification (``/campaign verify``).

The campaign's seed is secret while it runs; ``sha256`` of it is posted when it
starts (:func:`campaign_commitment`) and the seed itself when it ends. Every mission
game's seed is derived from it (:func:`engine.core.campaign.mission_seed`, one-way), so
each game's own commitment and ``/game verify`` hold as for any game, and the campaign's
verification ties the games to the campaign: replayed from the revealed seed, every
decision of its log is legal, every mission game's seed is the one derived for its
mission and attempt, every outcome in the log is what its game's replay ends in, every
game verifies, and the recorded result is the replay's.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import TYPE_CHECKING

from bot.archive import archive
from bot.storage import GameStatus
from bot.storage.models import CampaignStatus
from bot.verify import Check, Verification
from engine.core.campaign import CampaignEntry, EntryKind, mission_seed, outcome_to_json, replay
from engine.core.errors import EngineError
from strings import Term

if TYPE_CHECKING:
    from bot.campaigns import CampaignService, LoadedCampaign

__all__ = ["campaign_commitment", "verify_campaign"]


def campaign_commitment(campaign_id: int, seed: int) -> str:
    """``sha256("tally-ho/campaign/seed/v1:<campaign id>:<seed>")``, lowercase hex."""
    text = f"tally-ho/campaign/seed/v1:{campaign_id}:{seed}"
    return hashlib.sha256(text.encode()).hexdigest()


async def verify_campaign(service: CampaignService, campaign: LoadedCampaign) -> Verification:
    """Check a finished (or abandoned) campaign from its revealed seed (the module's
    doc)."""
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
    entries = [CampaignEntry(EntryKind(e.kind), e.side, e.entry) for e in campaign.entries]
    try:  # from the revealed seed, again (what was loaded may come from elsewhere one day)
        setup = system.setup_model.model_validate(record.setup)
        await asyncio.to_thread(replay, system, setup, record.seed, entries)
        checks.append(Check(True, Term("campaign.verify.legal", n=len(entries))))
    except (EngineError, ValueError) as exc:
        checks.append(Check(False, Term("campaign.verify.illegal", why=str(exc))))
    storage = service.storage
    games = await storage.games_of_campaign(record.id)
    wrong_seed = [
        g.id
        for g in games
        if g.seed != mission_seed(record.seed, g.mission or 0, int(g.options.get("attempt", 1)))
    ]
    checks.append(
        Check(
            not wrong_seed,
            Term("campaign.verify.seeds_ok", n=len(games))
            if not wrong_seed
            else Term("campaign.verify.seeds_bad", games=", ".join(f"#{g}" for g in wrong_seed)),
        )
    )
    logged = {
        e.game_id: json.loads(e.entry)
        for e in campaign.entries
        if e.kind == EntryKind.OUTCOME.value and e.game_id is not None
    }
    differ: list[int] = []
    failed: list[int] = []
    for g in games:
        if g.status is GameStatus.ABORTED and "setup" not in g.options:
            continue  # opened, never started: no seed was used
        game = await service.games.load(g.id)
        if g.id in logged:
            replayed = outcome_to_json(await service.outcome_of(g.id))
            if replayed != logged[g.id]:
                differ.append(g.id)
        if g.status in (GameStatus.FINISHED, GameStatus.ABORTED):
            verification = await archive(service.games).verify(game)
            if not verification.ok:
                failed.append(g.id)
    checks.append(
        Check(
            not differ,
            Term("campaign.verify.outcomes_ok", n=len(logged))
            if not differ
            else Term("campaign.verify.outcomes_bad", games=", ".join(f"#{g}" for g in differ)),
        )
    )
    checks.append(
        Check(
            not failed,
            Term("campaign.verify.games_ok")
            if not failed
            else Term("campaign.verify.games_bad", games=", ".join(f"#{g}" for g in failed)),
        )
    )
    result = await asyncio.to_thread(system.result, campaign.state)
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
        checks.append(Check(True, Term("campaign.verify.abandoned", n=len(logged))))
    return Verification(tuple(checks))
