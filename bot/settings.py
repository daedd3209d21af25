"""Server and player settings: validated models over the storage's JSON columns.

A server's settings live in the ``guild_settings`` JSON object, a player's in
``user_settings``; both are read with defaults and written by merging, so keys other
modules keep there (a player's quiet hours, future content packs) are left alone.

The server's JSON, with every field this module knows and its default::

    {
      "deadlines": {                   # DeadlinePolicy (bot.deadlines.DeadlineSettings +)
        "enabled": true,               # false: games wait forever, no reminders
        "turn_hours": 24.0,            # active time for a decision of one's own turn
        "response_hours": 12.0,        # active time for a response / follow decision
        "time_bank_hours": 0.0,        # each seat's bank for the whole game
        "reminders": [0.5, 0.9],       # fractions of the active time: one reminder each
        "max_reminders": null,         # at most this many of them per decision (null: all)
        "default_action": "pass",      # at a deadline: "pass" (engine.default_action)
                                       # or "computer" (a computer player decides once)
        "computer_players": false,     # may a computer player take over a seat?
        "computer_level": "heuristic", # and at which level (engine.ai: random,
                                       # heuristic, search)
        "abandon_after": 3,            # missed deadlines in a row = abandoned (0: never)
        "abandon_action": "forfeit",   # then: "computer" takes the seat, or "forfeit"
        "substitute_hours": 48.0,      # time to find a human substitute before that
        "vacation_max_days": 14        # the longest vacation a player may take
      },
      "systems": [...],                # game systems allowed on the server (every
                                       # registered one: engine.core.registry)
      "rulesets": [...],               # rulesets allowed for /dogfight new (all)
      "game_channel_id": null,         # where /dogfight new opens its threads
      "language": "en"                 # the server's language (strings.SUPPORTED)
    }

The scheduler reads ``"deadlines"`` with :meth:`DeadlinePolicy.resolve` (or the base
:class:`~bot.deadlines.DeadlineSettings`, which ignores the extra keys): the same
JSON serves both. A player's JSON holds ``{"dm": true, "auto_pass": false}`` here
(:class:`PlayerSettings`), next to the scheduler's ``tz`` and ``quiet_hours``.

Refusals are :class:`SettingsError`: an i18n key and its fields, so the cog answers
in the reader's language.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from bot.deadlines import DeadlineSettings
from bot.errors import Refusal
from bot.storage import Storage
from bot.systems import hosted, hosted_ids, rulesets
from engine.core import registry
from strings import SUPPORTED

__all__ = [
    "MAX_REMINDERS",
    "DeadlinePolicy",
    "GuildSettings",
    "PlayerSettings",
    "SettingsError",
    "allowed_list",
    "parse_fractions",
    "ruleset_name",
    "server_language",
    "system_title",
    "wants_dm",
]

log = logging.getLogger(__name__)

MAX_REMINDERS = 5
"""The most reminders a server may plan for one decision."""

DefaultAction = Literal["pass", "computer"]
ComputerLevel = Literal["random", "heuristic", "search"]
"""``engine.core.contract.COMPUTER_LEVELS`` (and its ``DEFAULT_COMPUTER_LEVEL`` the
default below), checked by a test."""
AbandonAction = Literal["computer", "forfeit"]


def system_title(system: str) -> str:
    """A system's published name (a title: not translated)."""
    return registry.entry(system).title


def ruleset_name(ruleset: str) -> str:
    """A ruleset's name, as its system gives it."""
    system = hosted(rulesets()[ruleset])
    return next(r.name for r in system.rulesets if r.id == ruleset)


class SettingsError(Refusal):
    """A refused setting: an i18n key and its fields (the message is the English text)."""


async def server_language(storage: Storage, guild_id: int | None) -> str:
    """The language of a server's public texts (``/config language``; English outside
    a server). DMs use it too: the bot does not know a DM reader's locale."""
    return (await GuildSettings.load(storage, guild_id)).language


class DeadlinePolicy(DeadlineSettings):
    """A server's deadline policy: the scheduler's :class:`DeadlineSettings` plus what
    happens when a deadline passes and when a seat is abandoned."""

    max_reminders: int | None = Field(default=None, ge=0, le=MAX_REMINDERS)
    """At most this many reminders per decision (the first fractions); None: all."""
    default_action: DefaultAction = "pass"
    """At a deadline: ``pass`` takes the seat's passive default
    (``DifEngine.default_action``); ``computer`` lets a computer player take that one
    decision (only if ``computer_players``)."""
    computer_players: bool = False
    """Whether a computer player may take over a seat (a decision, or an abandoned seat)."""
    computer_level: ComputerLevel = "heuristic"
    """The level of those computer players (``engine.ai``)."""
    abandon_action: AbandonAction = "forfeit"
    """After ``abandon_after`` missed deadlines in a row: ``computer`` flies the seat
    for the rest of the game (only if ``computer_players``), ``forfeit`` resigns it."""
    substitute_hours: float = Field(default=48.0, ge=0, le=24 * 30)
    """Time to find a human substitute for an abandoned seat before ``abandon_action``."""

    @model_validator(mode="after")
    def _computer_allowed(self) -> Self:
        if not self.computer_players and "computer" in (self.default_action, self.abandon_action):
            raise ValueError("a computer player is used but computer players are not allowed")
        return self

    @property
    def reminder_fractions(self) -> tuple[float, ...]:
        """The reminders actually sent: ``reminders`` capped by ``max_reminders``."""
        if self.max_reminders is None:
            return self.reminders
        return self.reminders[: self.max_reminders]


class GuildSettings(BaseModel):
    """A server's settings (``/config``), with defaults for anything never set."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    deadlines: DeadlinePolicy = Field(default_factory=DeadlinePolicy)
    systems: tuple[str, ...] = Field(default_factory=hosted_ids)
    """Game systems allowed on this server (every registered system by default)."""
    rulesets: tuple[str, ...] = Field(default_factory=lambda: tuple(rulesets()))
    """Rulesets allowed for new games (a game already open keeps its own)."""
    game_channel_id: int | None = None
    """The text channel where new game threads open (None: where /dogfight new is used)."""
    campaign_home: Literal["thread", "channel"] = "thread"
    """Where a campaign lives: a thread of its own (opened like a game's), or the
    channel ``/campaign new`` is used in (one live campaign per channel). Its mission
    games' threads open next to it."""
    language: str = "en"
    """The server's language: public texts, and players whose locale has no catalogue."""

    @field_validator("systems")
    @classmethod
    def _systems(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        known = hosted_ids()
        unknown = [s for s in value if s not in known]
        if unknown or not value:
            raise ValueError(f"systems must be some of {list(known)}, not {list(value)}")
        return tuple(dict.fromkeys(value))

    @field_validator("rulesets")
    @classmethod
    def _rulesets(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        known = tuple(rulesets())
        unknown = [r for r in value if r not in known]
        if unknown or not value:
            raise ValueError(f"rulesets must be some of {list(known)}, not {list(value)}")
        return tuple(dict.fromkeys(value))

    @field_validator("language")
    @classmethod
    def _language(cls, value: str) -> str:
        if value not in SUPPORTED:
            raise ValueError(f"language must be one of {list(SUPPORTED)}, not {value!r}")
        return value

    # ---------------------------------------------------------------- reading
    @classmethod
    async def load(cls, storage: Storage, guild_id: int | None) -> GuildSettings:
        """The server's settings; defaults for a DM (None), a server that never set
        any, and any stored value that no longer validates (logged)."""
        if guild_id is None:
            return cls()
        record = await storage.get_guild_settings(guild_id)
        return cls.from_json(record.settings if record else None, guild_id)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None, guild_id: int | None = None) -> Self:
        """Settings from the stored JSON, dropping what does not validate."""
        return cls.model_validate(_usable(cls, data or {}, guild_id))

    def ruleset_allowed(self, system: str, ruleset: str) -> bool:
        return system in self.systems and ruleset in self.rulesets

    def check_new_game(self, system: str, ruleset: str) -> None:
        """Raises :class:`SettingsError` if this server refuses such a game."""
        if system not in self.systems:
            raise SettingsError("config.refused.system", system=system_title(system))
        if ruleset not in self.rulesets:
            allowed = ", ".join(ruleset_name(r) for r in self.rulesets)
            raise SettingsError(
                "config.refused.ruleset", ruleset=ruleset_name(ruleset), allowed=allowed
            )

    # ---------------------------------------------------------------- writing
    @classmethod
    async def update(
        cls,
        storage: Storage,
        guild_id: int,
        changes: Mapping[str, Any] | None = None,
        deadlines: Mapping[str, Any] | None = None,
    ) -> GuildSettings:
        """Change some top-level settings and some deadline settings; validate the
        result; store it; return it. Other keys of the JSON are kept.

        Raises :class:`SettingsError` (nothing written) if the result is invalid.
        """
        async with _locks[guild_id]:
            record = await storage.get_guild_settings(guild_id)
            stored: dict[str, Any] = dict(record.settings) if record else {}
            usable = _usable(cls, stored, guild_id)
            if deadlines:
                usable["deadlines"] = {**dict(usable.get("deadlines") or {}), **deadlines}
            usable.update(changes or {})
            _check(usable, set(changes or {}) | set(deadlines or {}))
            try:
                result = cls.model_validate(usable)
            except ValidationError as exc:
                raise SettingsError("config.error.invalid", detail=_first(exc)) from exc
            merged = {**stored, **usable}
            merged["deadlines"] = {
                **dict(stored.get("deadlines") or {}),
                **dict(usable.get("deadlines") or {}),
            }
            await storage.put_guild_settings(guild_id, merged)
            return result

    @classmethod
    async def reset(cls, storage: Storage, guild_id: int) -> GuildSettings:
        """Forget every setting of this module (other keys are kept)."""
        async with _locks[guild_id]:
            record = await storage.get_guild_settings(guild_id)
            stored = dict(record.settings) if record else {}
            for key in cls.model_fields:
                stored.pop(key, None)
            await storage.put_guild_settings(guild_id, stored)
            return cls()


def _check(data: Mapping[str, Any], changed: set[str]) -> None:
    """The refusals an admin can cause, in words (the models are the last guard).
    ``changed`` names the keys being changed, to say which one to undo."""
    d = data.get("deadlines") or {}
    if not d.get("computer_players", False):
        for key in ("default_action", "abandon_action"):
            if d.get(key) != "computer":
                continue
            if key in changed:
                raise SettingsError("config.error.computer_needed", what=key)
            raise SettingsError("config.error.computer_in_use", what=key)
    for key in ("turn_hours", "response_hours"):
        if key in d and not 0 < float(d[key]) <= 24 * 60:
            raise SettingsError("config.error.hours", value=d[key], max=24 * 60)
    if "time_bank_hours" in d and not 0 <= float(d["time_bank_hours"]) <= 24 * 60:
        raise SettingsError("config.error.hours", value=d["time_bank_hours"], max=24 * 60)
    if "substitute_hours" in d and not 0 <= float(d["substitute_hours"]) <= 24 * 30:
        raise SettingsError("config.error.hours", value=d["substitute_hours"], max=24 * 30)
    m = d.get("max_reminders")
    if m is not None and not 0 <= int(m) <= MAX_REMINDERS:
        raise SettingsError("config.error.max_reminders", max=MAX_REMINDERS)
    if "abandon_after" in d and not 0 <= int(d["abandon_after"]) <= 50:
        raise SettingsError("config.error.abandon_after")
    if "vacation_max_days" in d and not 0 <= int(d["vacation_max_days"]) <= 365:
        raise SettingsError("config.error.vacation")
    if "rulesets" in data and not data["rulesets"]:
        raise SettingsError("config.error.no_ruleset")
    if "systems" in data and not data["systems"]:
        raise SettingsError("config.error.no_system")


def parse_fractions(text: str) -> tuple[float, ...]:
    """Reminder times as typed: ``"0.5, 0.9"``, ``"50%, 90%"`` or ``"50 90"``.

    Raises :class:`SettingsError` unless each lies strictly between 0 and 1 (0 and
    100%), they increase, and there are at most :data:`MAX_REMINDERS`. An empty text
    is no reminder at all.
    """
    out: list[float] = []
    for part in text.replace(",", " ").replace(";", " ").split():
        word = part.strip()
        try:
            value = float(word.rstrip("%"))
        except ValueError as exc:
            raise SettingsError("config.error.fraction", value=word) from exc
        if word.endswith("%") or value >= 1:
            value /= 100
        if not 0 < value < 1:
            raise SettingsError("config.error.fraction", value=word)
        out.append(round(value, 4))
    if any(b <= a for a, b in itertools.pairwise(out)):
        raise SettingsError("config.error.fractions_order")
    if len(out) > MAX_REMINDERS:
        raise SettingsError("config.error.max_reminders", max=MAX_REMINDERS)
    return tuple(out)


def _first(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    msg = str(err.get("msg", exc)).removeprefix("Value error, ")
    return f"{where}: {msg}" if where else msg


def _usable(
    model: type[BaseModel], data: Mapping[str, Any], guild_id: int | None
) -> dict[str, Any]:
    """The stored keys that validate: a value that does not is dropped (and logged),
    so one bad value never hides the rest. Keys the model does not know are dropped
    too (the callers keep them in storage)."""
    out = {k: v for k, v in data.items() if k in model.model_fields}
    if isinstance(out.get("deadlines"), Mapping):
        out["deadlines"] = _usable(DeadlinePolicy, out["deadlines"], guild_id)
    while out:
        try:
            model.model_validate(out)
            return out
        except ValidationError as exc:
            bad = {str(e["loc"][0]) for e in exc.errors() if e.get("loc")} & set(out)
            if not bad:  # a rule between fields: drop the value that breaks it
                bad = {_culprit(model, out)}
            for key in bad:
                log.warning(
                    "id %s: ignoring the invalid stored setting %s=%r", guild_id, key, out[key]
                )
                del out[key]
    return out


def _culprit(model: type[BaseModel], data: dict[str, Any]) -> str:
    """The key whose removal makes ``data`` valid (the last key if none does)."""
    for key in reversed(data):
        try:
            model.model_validate({k: v for k, v in data.items() if k != key})
        except ValidationError:
            continue
        return key
    return next(reversed(data))


_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
"""One writer per guild (or user) at a time in this process: read-merge-write."""
_user_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)


class PlayerSettings(BaseModel):
    """A player's own settings (``/settings``), the same in every server."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    dm: bool = True
    """Send this player a DM when they must respond during someone else's turn (the
    ping in the game thread is sent either way)."""
    auto_pass: bool = False
    """At a deadline, take the passive default for this player's seats even where the
    server lets a computer player decide (read by the deadline integration)."""
    global_board: bool = True
    """Appear on the global leaderboards (``/leaderboard scope:global``; the stores'
    ``leaderboard`` reads this key). Each server's own board lists every player."""

    @classmethod
    async def load(cls, storage: Storage, user_id: int) -> PlayerSettings:
        record = await storage.get_user_settings(user_id)
        return cls.model_validate(_usable(cls, record.settings if record else {}, None))

    @classmethod
    async def update(cls, storage: Storage, user_id: int, **changes: Any) -> PlayerSettings:
        """Change some of the player's settings; the other keys are kept."""
        async with _user_locks[user_id]:
            record = await storage.get_user_settings(user_id)
            stored = dict(record.settings) if record else {}
            result = cls.model_validate({**_usable(cls, stored, None), **changes})
            await storage.put_user_settings(user_id, {**stored, **changes})
            return result


async def wants_dm(storage: Storage, user_id: int) -> bool:
    """Whether the player accepts DMs from the bot (a storage failure says yes: a
    missed DM is worse than an unwanted one, and the thread ping happens anyway)."""
    try:
        return (await PlayerSettings.load(storage, user_id)).dm
    except Exception:
        log.warning("could not read the settings of user %s", user_id, exc_info=True)
        return True


def allowed_list(values: Iterable[str], allowed: Iterable[str], value: str, on: bool) -> list[str]:
    """``values`` with ``value`` added or removed, in the order of ``allowed``."""
    chosen = set(values) | {value} if on else set(values) - {value}
    return [v for v in allowed if v in chosen]
