"""Shared set-up of the fake-clock harness tests: a duel between a Buffalo (alice,
A1) and a Ki-43 (bob, X1) at Medium, Allies first, with fixed hands, on a bot
whose deadlines run on a :class:`~bot.clock.FakeClock`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.clock import FakeClock
from bot.testing import FakeDiscord, FakeUser
from bot.testing.driver import wait_for_new_game
from cogs.app import TallyHoBot
from engine.dif.setup import DifSetup

SEED = 20261130
START = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
# The Allies move first at Medium: the Buffalo plays Maneuvering at the Ki-43, which
# must then respond (it holds a Tight Turn, a legal answer) or pass.
FIXED: dict[str, Any] = {
    "altitudes": {"A1": "M", "X1": "M"},
    "first_side": "allied",
    "hands": {
        "A1": ["MAN", "IMS-1B1D", "BAR", "TIT", "HAL"],
        "X1": ["TIT", "BAR", "IMS-1B2D", "HAL", "MAN", "SCI"],
    },
}


def make_bot(db: Path, clock: FakeClock) -> TallyHoBot:
    return TallyHoBot(database=str(db), seed_source=lambda: SEED, clock=clock)


async def open_duel(
    fake: FakeDiscord,
    bot: TallyHoBot,
    alice: FakeUser,
    bob: FakeUser,
    fixed: dict[str, Any] = FIXED,
    **options: Any,
) -> tuple[int, int]:
    if fake.bot is not bot:  # (a test may start it first, to configure the server)
        await fake.start(bot)
    await fake.slash(
        alice, "dogfight new", channel_id=fake.channel_id, ruleset="zero", year=1942, **options
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    assert game.thread_id is not None
    await fake.slash(
        alice, "dogfight join", channel_id=game.thread_id, side="allied", aircraft="buffalo-i"
    )
    await fake.slash(bob, "dogfight join", channel_id=game.thread_id, side="axis", aircraft="ki-43")

    def fix(setup: DifSetup) -> DifSetup:
        return DifSetup.model_validate({**setup.model_dump(mode="json"), **fixed})

    bot.service.setup_filter = fix
    await fake.slash(alice, "dogfight start", channel_id=game.thread_id)
    return game.id, game.thread_id


async def advance(fake: FakeDiscord, bot: TallyHoBot, clock: FakeClock, hours: float) -> None:
    clock.advance(timedelta(hours=hours))
    assert bot.deadlines is not None
    await bot.deadlines.scheduler.run_due()
    await fake.settle()


async def log_of(bot: TallyHoBot, game_id: int) -> list[str]:
    return [f"{r.seat} {r.action}" for r in await bot.service.storage.load_actions(game_id)]
