"""``python -m bot`` runs the bot; ``python -m bot demo`` plays a game offline.

The composition root: the one module of ``bot/`` that may import ``cogs/`` (the
Discord application it starts), because ``python -m bot`` is the command people run.
Nothing imports it (``tests/test_layers.py`` checks both).
"""

from __future__ import annotations

import logging
import sys

from pydantic import ValidationError

__all__ = ["main"]

NO_TOKEN = """\
Tally-Ho needs a Discord bot token to connect.
Set DISCORD_TOKEN in the environment (or in a .env file), for example:
    DISCORD_TOKEN=your-token python -m bot
Optional: TALLYHO_DATABASE (SQLite file, default tallyho.sqlite3),
          TALLYHO_GUILD_ID (sync commands to one server at once).
To see the bot play a whole dogfight offline, with no token, try:
    python -m bot demo
"""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "demo":
        from cogs.demo import main as demo

        return demo(args[1:])
    if args and args[0] == "verify":
        from bot.verify import verify_main

        return verify_main(args[1:])
    if args and args[0] in ("-h", "--help", "help"):
        sys.stdout.write(
            "usage: python -m bot [demo [--seed N] [--out DIR] [--ruleset ID] [--format 1v1|2v2]]\n"
            "       python -m bot verify LOGFILE   (check a finished game's log; see /game log)\n\n"
            + NO_TOKEN
        )
        return 0
    from bot.config import Settings

    try:
        settings = Settings()
    except ValidationError as exc:
        sys.stderr.write(f"Invalid configuration:\n{exc}\n")
        return 2
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        sys.stderr.write(NO_TOKEN)
        return 2
    from cogs.app import TallyHoBot

    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    bot = TallyHoBot(database=settings.database, guild_id=settings.guild_id)
    bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
