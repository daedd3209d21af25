"""Moving a server's data: ``python -m bot export`` and ``python -m bot import`` copy
every game, campaign and setting from one database to another (SQLite to PostgreSQL,
or back), then verify every finished game on the copy; ``python -m bot backup PATH``
makes a consistent copy of the SQLite file while the bot runs.

``export --to TARGET`` copies the configured database (``TALLYHO_DATABASE``) to
TARGET; ``import --from SOURCE`` copies SOURCE into it; either takes both ``--from``
and ``--to`` to name the two itself. The copy is :func:`bot.storage.transfer.copy_database`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from bot.archive import archive
from bot.games import GameStore
from bot.storage import GameStatus, open_storage
from bot.storage.transfer import BackupFailed, TargetNotEmpty, backup_sqlite, copy_database

__all__ = ["backup_main", "move_main", "verify_finished"]


async def verify_finished(location: str) -> tuple[int, list[int]]:
    """Verify every finished game of the database at ``location`` as ``/game verify``
    does (seed, legality, result): how many there are, and the ids that fail."""
    storage = await open_storage(location)
    try:
        store = GameStore(storage)
        finished = await storage.list_games(statuses=[GameStatus.FINISHED])
        failed: list[int] = []
        for record in finished:
            game = await store.load(record.id)
            if not (await archive(store).verify(game)).ok:
                failed.append(record.id)
        return len(finished), failed
    finally:
        await storage.close()


def _configured() -> str:
    """The ``TALLYHO_DATABASE`` setting (environment or ``.env``)."""
    from bot.config import Settings

    return Settings().database


def move_main(command: str, argv: Sequence[str]) -> int:
    """``python -m bot export|import``: exit status 0 when the copy is made and every
    finished game verifies on it, 1 when a game fails, 2 when nothing was copied."""
    parser = argparse.ArgumentParser(
        prog=f"python -m bot {command}",
        description=(
            "Copy every game, campaign and setting from one database to another (a SQLite "
            "file path or a postgresql:// URL), ids included, then verify every finished "
            "game on the copy. The target must be empty. Stop the bot first: a move made "
            "while it plays misses what it writes meanwhile."
        ),
    )
    source_default = _configured() if command == "export" else None
    target_default = _configured() if command == "import" else None
    parser.add_argument(
        "--from", dest="source", default=source_default, required=source_default is None,
        help="the database to copy" + (" (default: TALLYHO_DATABASE)" if source_default else ""),
    )  # fmt: skip
    parser.add_argument(
        "--to", dest="target", default=target_default, required=target_default is None,
        help="the empty database to fill" + (" (default: TALLYHO_DATABASE)" if target_default else ""),
    )  # fmt: skip
    args = parser.parse_args(list(argv))
    try:
        summary = asyncio.run(copy_database(args.source, args.target))
    except (TargetNotEmpty, ValueError, OSError) as exc:
        sys.stderr.write(f"nothing copied: {exc}\n")
        return 2
    sys.stdout.write(
        f"copied {summary.games} games, {summary.actions} actions, "
        f"{summary.campaigns} campaigns ({sum(summary.rows.values())} rows in all)\n"
    )
    total, failed = asyncio.run(verify_finished(args.target))
    sys.stdout.write(f"verified {total - len(failed)} of {total} finished games\n")
    if failed:
        sys.stdout.write(f"games failing verification: {', '.join(map(str, failed))}\n")
        return 1
    return 0


def backup_main(argv: Sequence[str]) -> int:
    """``python -m bot backup PATH``: exit status 0 when the backup is made and intact."""
    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
        description=(
            "Copy the SQLite database (TALLYHO_DATABASE) to PATH with SQLite's online "
            "backup, safe while the bot runs, and check the copy's integrity."
        ),
    )
    parser.add_argument("path", help="the new backup file")
    parser.add_argument("--from", dest="source", help="the database (default: TALLYHO_DATABASE)")
    args = parser.parse_args(list(argv))
    source = args.source or _configured()
    try:
        backup_sqlite(source, args.path)
    except BackupFailed as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    sys.stdout.write(f"backed up {source} to {args.path} (integrity check: ok)\n")
    return 0
