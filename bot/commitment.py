"""The seed commitment: the hash a game's thread shows at the start, so the seed
revealed at the end can be checked (``/game verify``).

``sha256("tally-ho/<system>/seed/v1:<game id>:<seed>")``, decimal ASCII numbers,
lowercase hex: ``tally-ho/dif/seed/v1`` for Down in Flames, as every log since the
first release. The game id ties a commitment to one game, so the hash of one game's
seed says nothing about another's. The seed is 62 random bits (``secrets``): trying
every seed against the hash is out of reach for the length of a game.
"""

from __future__ import annotations

import hashlib

from bot.systems import commitment_prefix
from strings import Term

__all__ = ["campaign_commitment", "commitment_text", "seed_commitment"]


def seed_commitment(system: str, game_id: int, seed: int) -> str:
    """The commitment of a game's seed, as 64 lowercase hex digits."""
    text = f"{commitment_prefix(system)}:{game_id}:{seed}"
    return hashlib.sha256(text.encode()).hexdigest()


def campaign_commitment(campaign_id: int, seed: int) -> str:
    """A campaign's seed commitment, posted when it opens:
    ``sha256("tally-ho/campaign/seed/v1:<campaign id>:<seed>")``, lowercase hex. Its
    mission games' seeds derive from that seed (:func:`engine.core.campaign.mission_seed`)."""
    text = f"tally-ho/campaign/seed/v1:{campaign_id}:{seed}"
    return hashlib.sha256(text.encode()).hexdigest()


def commitment_text(commitment: str) -> str:
    """The line the thread shows at the start (a :class:`Term`)."""
    return Term("history.commitment", commitment=commitment)
