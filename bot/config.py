"""Bot settings, read from the environment (and a ``.env`` file if present)."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings", "settings_help"]


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


def settings_help() -> str:
    """Every setting, one a line, with its description and default (for ``--help``):
    read from the model, so a new setting is listed without anyone remembering to."""
    width = max(len(f.alias or name) for name, f in Settings.model_fields.items())
    lines = []
    for name, f in Settings.model_fields.items():
        default = "" if f.default is None else f" Default: {f.default}."
        lines.append(f"  {f.alias or name:<{width}}  {f.description or ''}{default}")
    return "\n".join(lines) + "\n"
