"""Bot settings, read from the environment (and a ``.env`` file if present)."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings"]


class Settings(BaseSettings):
    """Everything a server admin configures when running the bot."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, alias="DISCORD_TOKEN")
    """The bot token from the Discord developer portal."""
    database: str = Field(default="tallyho.sqlite3", alias="TALLYHO_DATABASE")
    """Path of the SQLite database file (put it on a volume in Docker)."""
    guild_id: int | None = Field(default=None, alias="TALLYHO_GUILD_ID")
    """Sync slash commands to this one server at start-up (instant), instead of globally."""
    log_level: str = Field(default="INFO", alias="TALLYHO_LOG_LEVEL")
