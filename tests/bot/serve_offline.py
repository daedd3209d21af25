"""``python -m bot``'s serving loop (:func:`cogs.app.serve`) on the offline Discord, in
a process of its own: ``tests/bot/test_shutdown.py`` starts it and sends it signals.

``python -m tests.bot.serve_offline DATABASE`` starts the bot, opens a lobby (a write
to the database), prints ``ready`` and serves until a signal stops it.
"""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.testing import FakeDiscord
from cogs.app import TallyHoBot, serve


async def main(database: str) -> None:
    fake = FakeDiscord()
    bot = TallyHoBot(database=database, seed_source=lambda: 1)

    async def connect() -> None:
        await fake.start(bot)
        alice = fake.add_member("alice")
        await fake.slash(
            alice, "dogfight new", channel_id=fake.channel_id, ruleset="zero", year=1942
        )
        print("ready", flush=True)
        await asyncio.Event().wait()  # the gateway, until the client closes

    try:
        await serve(bot, connect())
    finally:
        fake.patch.undo()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    asyncio.run(main(sys.argv[1]))
