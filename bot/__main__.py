"""``python -m bot`` runs the bot; ``python -m bot demo`` plays a game offline.

The Discord application (and the offline demo that drives it) live in ``cogs/``,
which imports ``bot/``, never the reverse: this command finds them as the installed
package's ``tally_ho.frontends`` entry points (``pyproject.toml``), not by importing
them (``tests/test_layers.py`` checks that no module of ``bot/`` imports ``cogs/``).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from pydantic import ValidationError

from bot.config import settings_help

__all__ = ["main"]

USAGE = """\
usage: python -m bot                  run the bot on Discord (settings below)
       python -m bot demo [OPTIONS]   play a whole game offline, no token needed
       python -m bot verify LOGFILE   check a finished game's log (see /game log)
       python -m bot export --to DB   copy every game and setting into an empty database
       python -m bot import --from DB copy every game and setting from another database
       python -m bot backup PATH      copy the SQLite database safely while the bot runs
       python -m bot ratings          recompute every rating from the finished games
       python -m bot --help           this help
"""

SETTINGS = "Settings, from the environment or a .env file in the working directory:\n"

NO_TOKEN = """\
Tally-Ho needs a Discord bot token to connect.
Set DISCORD_TOKEN in the environment (or in a .env file), for example:
    DISCORD_TOKEN=your-token python -m bot
To see the bot play a whole dogfight offline, with no token, try:
    python -m bot demo
"""


FRONTENDS = "tally_ho.frontends"


def frontend(name: str) -> Callable[..., Any]:
    """The front end ``name`` (``discord``, ``demo``) of the installed package."""
    found = entry_points(group=FRONTENDS, name=name)
    if not found:
        raise SystemExit(
            f"Tally-Ho's {name!r} front end is not installed: run "
            "`python -m pip install -e .` in the project first."
        )
    loaded: Callable[..., Any] = next(iter(found)).load()
    return loaded


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "demo":
        code: int = frontend("demo")(args[1:])
        return code
    if args and args[0] == "verify":
        from bot.verify import verify_main

        return verify_main(args[1:])
    if args and args[0] in ("export", "import"):
        from bot.move import move_main

        return move_main(args[0], args[1:])
    if args and args[0] == "backup":
        from bot.move import backup_main

        return backup_main(args[1:])
    if args and args[0] == "ratings":
        from bot.ratings import ratings_main

        return ratings_main(args[1:])
    if args and args[0] in ("-h", "--help", "help"):
        return _help()
    from bot.config import Settings

    try:
        settings = Settings()
    except ValidationError as exc:
        sys.stderr.write(f"Invalid configuration:\n{exc}\n")
        return 2
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        sys.stderr.write(NO_TOKEN + "\n" + SETTINGS + settings_help())
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    frontend("discord")(settings)
    return 0


def _help() -> int:
    """Every way to run the bot and every option: the settings (from their model) and
    the demo's options (from the demo's own parser, which prints them and exits)."""
    sys.stdout.write(USAGE + "\n" + SETTINGS + settings_help() + "\n")
    sys.stdout.flush()
    try:
        frontend("demo")(["--help"])
    except SystemExit as done:  # argparse's way to end --help
        return int(done.code or 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
