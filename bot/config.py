"""Bot settings, read from the environment (and a ``.env`` file if present).

Sharding: ``TALLYHO_SHARD_COUNT`` is how many Discord shards the bot has across all its
processes, ``TALLYHO_SHARDS`` the ones this process runs (``0,1``, ``2-3``, ``0,2-3``).
Both unset: one process, as many shards as Discord recommends. The count alone: this
process runs every shard. Shards alone are refused (a shard id means nothing without
the count), and so is running only some of the shards on SQLite: the other shards'
processes would need the same database, and a SQLite file serves one process.
"""

from __future__ import annotations

import re
from typing import Self

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.storage.postgres import DEFAULT_POOL_SIZE, is_postgres_url

__all__ = ["Settings", "parse_shards", "settings_help"]

_SHARD_ITEM = re.compile(r"(\d+)(?:-(\d+))?")


def parse_shards(text: str) -> tuple[int, ...]:
    """Shard ids written as ``0,1``, ``0-3`` or ``0,2-3``: sorted, each once.
    Raises ``ValueError`` with a message an operator can act on."""
    ids: list[int] = []
    for item in text.replace(" ", "").split(","):
        found = _SHARD_ITEM.fullmatch(item)
        if found is None:
            raise ValueError(
                f"TALLYHO_SHARDS={text!r}: write shard ids as 0,1 or a range 0-3 (not {item!r})"
            )
        first = int(found[1])
        last = int(found[2]) if found[2] is not None else first
        if last < first:
            raise ValueError(f"TALLYHO_SHARDS={text!r}: the range {item} runs backwards")
        ids.extend(range(first, last + 1))
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ValueError(f"TALLYHO_SHARDS={text!r} names shard {twice[0]} twice")
    return tuple(sorted(ids))


class Settings(BaseSettings):
    """Everything a server admin configures when running the bot."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        use_attribute_docstrings=True,  # each field's docstring is its description
    )

    discord_token: SecretStr | None = Field(default=None, alias="DISCORD_TOKEN")
    """Required: the bot token from the Discord developer portal."""
    database: str = Field(default="tallyho.sqlite3", alias="TALLYHO_DATABASE")
    """Path of the SQLite database file (on a volume in Docker), or a postgresql:// URL."""
    guild_id: int | None = Field(default=None, alias="TALLYHO_GUILD_ID")
    """Sync slash commands to this one server at start-up (instant), instead of globally."""
    log_level: str = Field(default="INFO", alias="TALLYHO_LOG_LEVEL")
    """How much the bot logs: DEBUG, INFO, WARNING or ERROR."""
    shard_count: int | None = Field(default=None, alias="TALLYHO_SHARD_COUNT", ge=1)
    """Discord shards across all the bot's processes (unset: Discord's advice, one process)."""
    shards: str | None = Field(default=None, alias="TALLYHO_SHARDS")
    """This process's shards, e.g. 0,1 or 2-3 (of TALLYHO_SHARD_COUNT; some: PostgreSQL only)."""
    poll_seconds: float = Field(default=30.0, alias="TALLYHO_POLL_SECONDS", gt=0)
    """Seconds between the deadline scheduler's reads of what other processes opened."""
    game_cache: int = Field(default=2048, alias="TALLYHO_GAME_CACHE", ge=16)
    """Games held in memory (about 18 KiB each); a click on another one replays it."""
    database_pool: int = Field(default=DEFAULT_POOL_SIZE, alias="TALLYHO_DATABASE_POOL", ge=1)
    """Connections to PostgreSQL a process keeps at most (one statement in flight each)."""

    @model_validator(mode="after")
    def _check_shards(self) -> Self:
        """The shards are well written, within the count, and shared only on
        PostgreSQL."""
        if self.shards is None:
            return self
        if self.shard_count is None:
            raise ValueError(
                "TALLYHO_SHARDS needs TALLYHO_SHARD_COUNT: the number of shards across "
                "every process of the bot"
            )
        ids = parse_shards(self.shards)
        if ids[-1] >= self.shard_count:
            raise ValueError(
                f"TALLYHO_SHARDS={self.shards!r}: shard ids run from 0 to "
                f"{self.shard_count - 1} (TALLYHO_SHARD_COUNT={self.shard_count})"
            )
        if len(ids) < self.shard_count and not is_postgres_url(self.database):
            raise ValueError(
                f"TALLYHO_SHARDS={self.shards!r} runs {len(ids)} of {self.shard_count} "
                "shards: the processes running the others must share this one's "
                "database, and a SQLite file serves one process; set TALLYHO_DATABASE "
                "to a postgresql:// URL (python -m bot export --to moves the data)"
            )
        return self

    @property
    def shard_ids(self) -> tuple[int, ...] | None:
        """The shards this process runs (None: every shard)."""
        if self.shards is None:
            return None
        return parse_shards(self.shards)


def settings_help() -> str:
    """Every setting, one a line, with its description and default (for ``--help``):
    read from the model, so a new setting is listed without anyone remembering to."""
    width = max(len(f.alias or name) for name, f in Settings.model_fields.items())
    lines = []
    for name, f in Settings.model_fields.items():
        default = "" if f.default is None else f" Default: {f.default}."
        lines.append(f"  {f.alias or name:<{width}}  {f.description or ''}{default}")
    return "\n".join(lines) + "\n"
