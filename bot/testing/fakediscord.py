"""An offline Discord: run the real discord.py client with only the network replaced.

`FakeDiscord` patches the four places where discord.py (and aiohttp) talk to the network
and answers them from an in-memory guild. Everything else runs for real: the command tree
parses options, views dispatch clicks, modals submit, responses and followups go through
the webhook adapter, attachments upload and download. Tests and ``python -m bot demo``
play whole games as several users::

    fake = FakeDiscord(monkeypatch)                 # or FakeDiscord() and fake.patch.undo()
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    await fake.start(bot)                           # login, READY, GUILD_CREATE, setup_hook
    token = await fake.slash(alice, "game start", rounds=3, opponent=bob)
    lobby = fake.original(token)
    await fake.click(bob, lobby, fake.custom_id(lobby, "Join"))
    assert fake.problems() == []

What is patched (at class level, so every client instance is covered):

- ``discord.http.HTTPClient.request``: every bot-token REST call;
- ``discord.webhook.async_.AsyncWebhookAdapter.request``: interaction callbacks, followups
  and ``@original`` messages;
- ``discord.http.HTTPClient.get_from_cdn``: ``Attachment.read()`` against the fake CDN;
- ``aiohttp.ClientSession._request``: raises `NetworkDisabledError`, so nothing can reach
  the real network.

Requests are routed on ``Route.path`` (the template, e.g. ``/channels/{channel_id}/messages``)
to the handlers in `FakeDiscord.routes` and recorded in `FakeDiscord.calls`; routes with no
handler land in `FakeDiscord.unhandled` and fail with a 404. Ids count up from a fixed
snowflake (2025-01-01) and timestamps are constant, so the same script produces a
byte-identical `FakeDiscord.transcript`.

This module imports only discord.py, aiohttp and the standard library, because it ships in
the package. It relies on discord.py internals (pinned to 2.7.1): the two ``request``
signatures, ``HTTPClient._HTTPClient__session``, ``ConnectionState.parsers``,
``_command_tree``, ``_chunk_guilds`` and ``guild_ready_timeout``, handler task names
(`WATCHED`) and the route templates. Run this module's tests first after an upgrade.
"""

from __future__ import annotations

import asyncio
import copy
import enum
import functools
import hashlib
import json
import logging
import mimetypes
import os
import re
import time
import types
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast
from urllib.parse import unquote

import aiohttp
import aiosqlite.core
import discord
from discord import app_commands
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

__all__ = [
    "FIRST_SNOWFLAKE",
    "TIMESTAMP",
    "WATCHED",
    "Call",
    "FakeDiscord",
    "FakeInteraction",
    "FakeUser",
    "NetworkDisabledError",
    "Patcher",
    "Ping",
    "discord_log_errors",
    "notified",
]

_log = logging.getLogger(__name__)

Payload = dict[str, Any]
"""A Discord JSON object, as the API sends it."""

Handler = Callable[["Call"], Any]
"""A route handler: gets the recorded call, returns the JSON answer or raises HTTPException."""


def _copied(value: Any) -> Any:
    """A deep copy of a JSON payload (what the fake and the bot exchange, so neither
    changes the other's): dicts, lists and scalars copied by hand, several times faster
    than ``copy.deepcopy`` (which the harness paid on every request and event); anything
    else goes to ``copy.deepcopy``."""
    kind = type(value)
    if kind is dict:
        return {k: _copied(v) for k, v in value.items()}
    if kind is list:
        return [_copied(v) for v in value]
    if kind in (str, int, bool, float, bytes) or value is None:
        return value
    if kind is tuple:
        return tuple(_copied(v) for v in value)
    return copy.deepcopy(value)


_DISCORD_EPOCH_MS = 1_420_070_400_000
_START_MS = 1_735_689_600_000  # 2025-01-01T00:00:00Z
FIRST_SNOWFLAKE = (_START_MS - _DISCORD_EPOCH_MS) << 22
"""The first id the fake hands out; every later id is one more."""

TIMESTAMP = "2025-01-01T00:00:00+00:00"
"""The one timestamp the fake uses, so transcripts do not depend on the clock."""

WATCHED: tuple[str, ...] = (
    "CommandTree-invoker",  # app commands and autocomplete (app_commands/tree.py)
    "discord-ui-view-",  # view item callbacks and on_timeout (ui/view.py)
    "discord-ui-modal",  # modal submits (ui/modal.py)
    "discord-ui-dynamic-item-",  # DynamicItem callbacks (ui/view.py)
    "discord.py: on_",  # event listeners (client.py)
)
"""Name prefixes of the tasks discord.py runs handlers in; `FakeDiscord.settle` waits on them."""

_ASYNCIO = os.path.dirname(asyncio.__file__) + os.sep
_DISCORD = os.path.dirname(discord.__file__) + os.sep

_THREAD_BOUND = (f"{os.sep}aiosqlite{os.sep}", os.path.join("asyncio", "threads.py"))
"""Code whose awaits are answered by another thread: a task suspended there is working."""

_PARKING = (
    *(_ASYNCIO + name for name in ("tasks.py", "locks.py", "queues.py", "timeouts.py")),
    *(_DISCORD + name for name in (os.path.join("ui", "view.py"), os.path.join("ui", "modal.py"))),
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "clock.py"),
)
"""Code whose awaits wait for the user or the clock: sleep, wait_for, events, queues,
``View.wait``, a :class:`bot.clock.FakeClock` sleep. A task suspended there is parked
until the next interaction or clock move."""

_LIBRARY_PATHS = (
    _DISCORD,
    _ASYNCIO,
    os.path.dirname(aiohttp.__file__) + os.sep,
    __file__,
)
_TEST_RUNNER_MARKERS = (f"{os.sep}_pytest{os.sep}", f"{os.sep}pytest_asyncio{os.sep}")

ALL_PERMISSIONS = discord.Permissions.all().value
MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
).value

_EPHEMERAL = 1 << 6
_LOADING = 1 << 7
_DM_CHANNEL = 1
_THREAD_TYPES = (10, 11, 12)


class NetworkDisabledError(RuntimeError):
    """Raised when code under a `FakeDiscord` tries to open a real HTTP connection."""


class _Patch(Protocol):
    """What the fake needs from a patcher: pytest's ``monkeypatch`` or a `Patcher`."""

    def setattr(self, target: Any, name: str, value: Any) -> None: ...

    def undo(self) -> None: ...


_ABSENT = object()


class Patcher:
    """A small stand-in for pytest's ``monkeypatch``: ``setattr`` now, ``undo`` later."""

    def __init__(self) -> None:
        self._saved: list[tuple[Any, str, Any]] = []

    def setattr(self, target: Any, name: str, value: Any) -> None:
        """Set ``target.name`` to ``value``, remembering what was there."""
        self._saved.append((target, name, vars(target).get(name, _ABSENT)))
        setattr(target, name, value)

    def undo(self) -> None:
        """Restore every patched attribute, newest first."""
        while self._saved:
            target, name, old = self._saved.pop()
            if old is _ABSENT:
                delattr(target, name)
            else:
                setattr(target, name, old)


@dataclass(frozen=True)
class FakeUser:
    """A user of the fake Discord: a guild member, the bot, or the application owner.

    Pass it wherever the harness wants a user (``slash``, ``click``, user options, ``dms``);
    anything with an ``id`` attribute, or a plain id, works too.
    """

    id: int
    """The user's snowflake."""
    name: str
    """Username and display name."""
    admin: bool = False
    """Whether the member holds the guild's administrator role."""
    bot: bool = False
    """Whether this is a bot account."""
    locale: str = "en-US"
    """The language of the user's Discord client (``interaction.locale``)."""

    @property
    def mention(self) -> str:
        """The ``<@id>`` mention string."""
        return f"<@{self.id}>"

    def payload(self) -> Payload:
        """The Discord user object."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Call:
    """One request discord.py made, with the fake's answer."""

    method: str
    """HTTP method."""
    path: str
    """The route template, e.g. ``/channels/{channel_id}/messages``."""
    args: dict[str, str]
    """Template placeholders filled from the URL, e.g. ``{"channel_id": "123"}``."""
    json: Any = None
    """The JSON body, also decoded from ``payload_json`` for multipart requests."""
    files: list[tuple[str, bytes]] = field(default_factory=list)
    """Uploaded files as ``(filename, bytes)``."""
    params: dict[str, Any] | None = None
    """Query parameters."""
    result: Any = None
    """A copy of the JSON the fake answered (None for 204 answers and errors)."""
    error: discord.HTTPException | None = None
    """The error the fake raised instead of answering, if any."""
    at: float = field(default_factory=time.perf_counter)
    """When the request reached the transport (``time.perf_counter``), before the fake
    decoded it: what a benchmark times a reply to (``bench/latency.py``)."""
    cpu: float = field(default_factory=time.thread_time)
    """The CPU time its thread had used then (``time.thread_time``): a benchmark's
    measure of the work before it that another process's turns do not inflate."""

    @property
    def key(self) -> str:
        """``"METHOD template"``, the key of `FakeDiscord.routes`."""
        return f"{self.method} {self.path}"


@dataclass
class FakeInteraction:
    """An interaction the fake sent to the bot, and how the bot answered it."""

    id: int
    token: str
    type: int
    """1 ping, 2 slash command, 3 component, 4 autocomplete, 5 modal submit."""
    user: FakeUser
    channel_id: int
    summary: str
    """What the user did, for error messages: ``/game start``, ``click toy:join``."""
    message_id: int | None = None
    """The message a component or modal interaction came from."""
    callback_type: int | None = None
    """The bot's answer: 4 message, 5 deferred message, 6 deferred update, 7 update,
    8 autocomplete choices, 9 modal; None while unanswered."""
    original_id: int | None = None
    """The ``@original`` message: the response message, or the clicked one for 6 and 7."""
    loading: bool = False
    """True between a thinking defer and the followup that fills its placeholder."""
    choices: list[Payload] | None = None
    """Autocomplete choices the bot answered with."""
    modal: Payload | None = None
    """The modal the bot opened."""


@dataclass(frozen=True)
class Ping:
    """Who a message notifies, by Discord's rules (:func:`notified`), when it is posted
    or its content edited; recorded in `FakeDiscord.pings`."""

    message_id: int
    everyone: bool
    """``@everyone`` or ``@here`` notifies the channel."""
    roles: frozenset[int]
    users: frozenset[int]
    allowed_mentions: Payload | None
    """What the bot sent as ``allowed_mentions`` (None: nothing, Discord parses all)."""


_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def notified(content: str, allowed: Payload | None) -> tuple[bool, frozenset[int], frozenset[int]]:
    """Whether ``content`` notifies everyone, and which roles and users, with
    ``allowed`` as its ``allowed_mentions``: without one every mention notifies; with
    one, a kind listed in ``parse`` notifies all its mentions, else only the ids listed
    in ``users`` and ``roles``."""
    parse = {"everyone", "users", "roles"} if allowed is None else set(allowed.get("parse") or [])
    found = {
        "users": {int(u) for u in _USER_MENTION.findall(content)},
        "roles": {int(r) for r in _ROLE_MENTION.findall(content)},
    }
    kept = {
        kind: ids if kind in parse else ids & {int(i) for i in (allowed or {}).get(kind) or []}
        for kind, ids in found.items()
    }
    everyone = "everyone" in parse and ("@everyone" in content or "@here" in content)
    return everyone, frozenset(kept["roles"]), frozenset(kept["users"])


@dataclass(frozen=True)
class _FakeResponse:
    """Just enough of an ``aiohttp.ClientResponse`` to build a ``discord.HTTPException``."""

    status: int
    reason: str
    headers: Mapping[str, str] = field(default_factory=dict)


_REASONS = {400: "Bad Request", 403: "Forbidden", 404: "Not Found"}


def _http_error(status: int, code: int, message: str) -> discord.HTTPException:
    """Build the exception discord.py raises for this Discord error response."""
    # What discord.py reads of the response, standing in for the aiohttp one it types.
    response = cast(aiohttp.ClientResponse, _FakeResponse(status, _REASONS.get(status, "Error")))
    data = {"code": code, "message": message}
    if status == 403:
        return discord.Forbidden(response, data)
    if status == 404:
        return discord.NotFound(response, data)
    return discord.HTTPException(response, data)


@functools.cache
def _template_regex(path: str) -> re.Pattern[str]:
    """A regex that matches a URL built from ``path`` and captures its placeholders."""
    parts = re.split(r"\{(\w+)\}", path)
    pattern = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>[^/?]+)" for i, part in enumerate(parts)
    )
    return re.compile(pattern + r"(?:\?.*)?$")


def _decode_body(body: Any, form: Iterable[Mapping[str, Any]] | None) -> Any:
    """The JSON body of a request, whether it was sent as JSON or as multipart."""
    if body is not None:
        return _copied(body)
    for part in form or ():
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


def _read_files(files: Sequence[discord.File] | None) -> list[tuple[str, bytes]]:
    """Read uploads now: discord.py closes the files once the request returns."""
    read = []
    for file in files or ():
        file.reset(seek=True)
        read.append((file.filename, file.fp.read()))
        file.reset(seek=True)
    return read


def _walk_components(components: Iterable[Payload]) -> Iterator[Payload]:
    """Every component in a message or modal, including those nested in rows and layouts."""
    for component in components:
        yield component
        yield from _walk_components(component.get("components") or ())
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from _walk_components([component[key]])


COMMAND_LIMITS = {"commands": 100, "options": 25, "choices": 25, "name": 32, "description": 100}
"""Discord's limits on the application commands a bot syncs (a command's, a
subcommand's options; an option's choices; the length of a name and a description)."""


def _command_problems(commands: Sequence[Payload]) -> list[str]:
    """What Discord would refuse in a sync of ``commands`` (see `COMMAND_LIMITS`)."""
    found = []
    if len(commands) > COMMAND_LIMITS["commands"]:
        found.append(f"{len(commands)} commands, more than {COMMAND_LIMITS['commands']}")

    def check(item: Payload, path: str) -> None:
        name = str(item.get("name", ""))
        if not 1 <= len(name) <= COMMAND_LIMITS["name"]:
            found.append(f"{path}: name {name!r} must be 1 to {COMMAND_LIMITS['name']} long")
        descriptions = [item.get("description") or ""]
        descriptions += (item.get("description_localizations") or {}).values()
        if any(len(str(d)) > COMMAND_LIMITS["description"] for d in descriptions):
            found.append(f"{path}: description longer than {COMMAND_LIMITS['description']}")
        choices = item.get("choices") or []
        if len(choices) > COMMAND_LIMITS["choices"]:
            found.append(f"{path}: {len(choices)} choices, more than {COMMAND_LIMITS['choices']}")
        options = item.get("options") or []
        if len(options) > COMMAND_LIMITS["options"]:
            found.append(f"{path}: {len(options)} options, more than {COMMAND_LIMITS['options']}")
        for option in options:
            check(option, f"{path} {option.get('name', '')}")

    for command in commands:
        check(command, f"/{command.get('name', '')}")
    return found


def _await_chain(coro: Any) -> list[types.CodeType]:
    """The code of each coroutine frame ``coro`` is suspended in, outermost first."""
    chain = []
    for _ in range(64):
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        if code is None:
            break
        chain.append(code)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return chain


def _chained_to_thread(future: asyncio.Future[Any]) -> bool:
    """Whether an asyncio future mirrors a concurrent one (``to_thread``, ``run_in_executor``)."""
    callbacks = getattr(future, "_callbacks", None) or ()
    return any(getattr(cb, "__name__", "") == "_call_check_cancel" for cb, *_ in callbacks)


class _Wait(enum.IntEnum):
    """What a suspended task waits for, from most to least in need of more spinning."""

    RUNNABLE = 3
    """It can run now (or is about to)."""
    THREAD = 2
    """It waits for work on another thread: ``to_thread``, an executor, aiosqlite."""
    UNKNOWN = 1
    """It waits on something opaque: maybe a thread, maybe the user."""
    PARKED = 0
    """It waits for the user or the clock, or is done."""


_SQL_WAITS: dict[asyncio.Task[Any], int] = {}
"""Tasks waiting for aiosqlite's worker thread, and how many calls deep. aiosqlite
answers through futures hidden behind ``__await__``, which `_wait_of` cannot see
through; counted here (`_counted_sql`), such a task is known to be working, however
long a slow disk makes the query take."""


def _counted_sql(method: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap an aiosqlite ``Connection`` method that hands work to its thread."""

    @functools.wraps(method)
    async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        task = asyncio.current_task()
        if task is None:
            return await method(self, *args, **kwargs)
        _SQL_WAITS[task] = _SQL_WAITS.get(task, 0) + 1
        try:
            return await method(self, *args, **kwargs)
        finally:
            left = _SQL_WAITS.pop(task) - 1
            if left:
                _SQL_WAITS[task] = left

    return counted


def _wait_of(task: asyncio.Future[Any], depth: int = 0) -> _Wait:
    """Classify what ``task`` is waiting for (see `_Wait`)."""
    if task.done() or task is asyncio.current_task():
        return _Wait.PARKED
    chain = _await_chain(task.get_coro()) if isinstance(task, asyncio.Task) else []
    if any(code.co_filename == __file__ and code.co_name == "settle" for code in chain):
        return _Wait.PARKED  # another player's settle(), waiting for the same handlers
    waiter = getattr(task, "_fut_waiter", None)
    if waiter is None or waiter.done():
        return _Wait.RUNNABLE
    if task in _SQL_WAITS:
        return _Wait.THREAD
    if depth < 8:
        if isinstance(waiter, asyncio.Task):
            return _wait_of(waiter, depth + 1)
        children = getattr(waiter, "_children", None)  # asyncio.gather
        if children:
            return max(_wait_of(child, depth + 1) for child in children)
    if _chained_to_thread(waiter):
        return _Wait.THREAD
    filename = chain[-1].co_filename if chain else ""
    if any(marker in filename for marker in _THREAD_BOUND):
        return _Wait.THREAD
    if filename.startswith(_PARKING):
        return _Wait.PARKED
    return _Wait.UNKNOWN


def _is_handler_task(task: asyncio.Task[Any]) -> bool:
    """Whether ``settle`` should watch a task: a discord.py handler or one the bot created."""
    if task.get_name().startswith(WATCHED):
        return True
    code = getattr(task.get_coro(), "cr_code", None)
    if code is None:
        return False
    filename = code.co_filename
    if filename.startswith(_LIBRARY_PATHS):
        return False
    return not any(marker in filename for marker in _TEST_RUNNER_MARKERS)


def discord_log_errors(
    records: Iterable[logging.LogRecord], prefixes: Sequence[str] = ("discord",)
) -> list[str]:
    """ERROR (and worse) log records from the given logger trees, formatted for a failure.

    discord.py only logs the exceptions raised in command and view callbacks
    (``CommandTree.on_error``, ``View.on_error``), so a test has to look for them.
    """
    formatter = logging.Formatter("%(name)s: %(message)s")
    problems = []
    for record in records:
        if record.levelno < logging.ERROR:
            continue
        if not any(record.name == p or record.name.startswith(p + ".") for p in prefixes):
            continue
        text = formatter.format(record)
        problems.append(text)
    return problems


Rest = Callable[
    [Route, Any, Iterable[Mapping[str, Any]] | None, Sequence[discord.File] | None, Payload | None],
    Awaitable[Any],
]
"""Where discord.py's requests go: ``rest(route, json body, multipart form, files,
query parameters)``."""


def route_network(
    patch: _Patch, rest: Rest, cdn: Callable[[str], Awaitable[bytes]], who: str
) -> None:
    """Patch (at class level, undone by ``patch``) discord.py's REST calls and webhooks
    to go to ``rest``, its CDN reads to ``cdn``, and any other HTTP to fail with
    `NetworkDisabledError` naming ``who``: the offline Discord's transport, in the
    process of the fake (:class:`FakeDiscord`) or of a bot linked to its host
    (``bot.testing.remote.HostLink``)."""

    async def http_request(
        http: HTTPClient,
        route: Route,
        *,
        files: Sequence[discord.File] | None = None,
        form: Iterable[Mapping[str, Any]] | None = None,
        **kwargs: Any,
    ) -> Any:
        return await rest(route, kwargs.get("json"), form, files, kwargs.get("params"))

    async def webhook_request(
        adapter: AsyncWebhookAdapter,
        route: Route,
        session: Any = None,
        *,
        payload: Payload | None = None,
        multipart: list[Payload] | None = None,
        files: Sequence[discord.File] | None = None,
        params: Payload | None = None,
        **kwargs: Any,
    ) -> Any:
        return await rest(route, payload, multipart, files, params)

    async def get_from_cdn(http: HTTPClient, url: str) -> bytes:
        return await cdn(url)

    async def no_network(session: aiohttp.ClientSession, method: str, url: Any, **kw: Any) -> Any:
        raise NetworkDisabledError(f"{who} blocks real network access: {method} {url}")

    patch.setattr(HTTPClient, "request", http_request)
    patch.setattr(AsyncWebhookAdapter, "request", webhook_request)
    patch.setattr(HTTPClient, "get_from_cdn", get_from_cdn)
    patch.setattr(aiohttp.ClientSession, "_request", no_network)


class FakeDiscord:
    """An in-memory Discord with one guild, its members, channels, threads and DMs.

    Construct it with pytest's ``monkeypatch`` (undone by pytest) or with nothing (then call
    ``fake.patch.undo()``, or use ``async with FakeDiscord() as fake``). Give ``guild_id``
    when the bot registers guild commands with ``@app_commands.guilds(...)``.
    Only one `FakeDiscord` may be active at a time.
    """

    def __init__(
        self,
        monkeypatch: _Patch | None = None,
        guild_id: int | None = None,
        *,
        install: bool = True,
    ) -> None:
        self.patch: _Patch = monkeypatch if monkeypatch is not None else Patcher()
        """The patcher; ``fake.patch.undo()`` restores discord.py."""
        self._next_id = FIRST_SNOWFLAKE
        self.guild_id: int = guild_id if guild_id is not None else self.snowflake()
        """The guild a test acts in unless it names another (`add_guild`)."""
        self.guilds: list[int] = [self.guild_id]
        """Every guild the bot is in, ``guild_id`` first; every member is in each."""
        self.application_id: int = self.snowflake()
        self.bot_user = FakeUser(self.snowflake(), "tally-ho", admin=True, bot=True)
        self.owner = FakeUser(self.snowflake(), "owner")
        self.admin_role_id: int = self.snowflake()
        self.members: dict[int, FakeUser] = {}
        """Guild members by id (the bot is not listed)."""
        self.channels: dict[int, Payload] = {}
        """Guild text channels and threads by id."""
        self.dm_channels: dict[int, Payload] = {}
        """DM channels by channel id."""
        self.messages: dict[int, Payload] = {}
        """Every live message the bot produced, by id, in order; edits apply in place."""
        self.deleted: dict[int, Payload] = {}
        """Messages the bot deleted."""
        self._in_channel: dict[int, dict[int, None]] = {}
        """The ids of :attr:`messages` by channel, in order (:meth:`sent_to` reads one
        channel's, not every message: a bench holds thousands)."""
        self.contents: list[tuple[int, str]] = []
        """Every message's content as the bot posted it and each time an edit changed
        it, in order: ``(message id, content)`` (see :meth:`timeline`)."""
        self.pings: list[Ping] = []
        """Every message posted, or its content edited, that notifies someone (not an
        ephemeral one: those notify nobody), in order, with its ``allowed_mentions``."""
        self.calls: list[Call] = []
        """Every request, in order (while :attr:`keep_calls`)."""
        self.keep_calls = True
        """Whether :attr:`calls` records each request. A benchmark that makes thousands
        sets it False: the log (a copy of each body and answer) would be the largest
        thing the process holds, and the collector's pauses would be the harness's."""
        self.requested = 0
        """How many requests arrived (kept in :attr:`calls` or not)."""
        self.unhandled: list[Call] = []
        """Requests no route answered (each also failed with a 404)."""
        self.interactions: dict[str, FakeInteraction] = {}
        """Every interaction sent to the bot, by token."""
        self.commands: dict[int | None, list[Payload]] = {}
        """Synced application commands by guild id (None: global)."""
        self.cdn: dict[str, bytes] = {}
        """Attachment bytes by URL."""
        self.bot: discord.Client | None = None
        """The bot started last."""
        self.bots: list[discord.Client] = []
        """Every bot started, for `shutdown`."""
        self.routes: dict[str, Handler] = self._default_routes()
        """Route handlers by ``"METHOD template"``; add to it for routes the fake lacks."""
        self.channel_id: int = self.add_channel("general")
        """The default text channel, ``#general``."""
        self._files: dict[int, tuple[str, bytes]] = {}
        self._dm_by_user: dict[int, int] = {}
        self._blocked_dms: set[int] = set()
        self._command_ids: dict[tuple[str, int | None], int] = {}
        self._thread_members: dict[int, set[int]] = {}
        self._settle_failures: list[str] = []
        if install:  # False: the state and routes only, served to other processes (remote)
            self._install()

    # -- set-up ---------------------------------------------------------------------------------

    def snowflake(self) -> int:
        """A new id, one more than the last."""
        value = self._next_id
        self._next_id += 1
        return value

    def add_member(self, name: str, *, admin: bool = False, locale: str = "en-US") -> FakeUser:
        """Add a guild member; after `start`, the bot sees a ``GUILD_MEMBER_ADD``.
        ``locale`` is their Discord client's language (e.g. ``"fr"``)."""
        user = FakeUser(self.snowflake(), name, admin=admin, locale=locale)
        self.members[user.id] = user
        if self._running():
            for guild_id in self.guilds:
                self._gateway("GUILD_MEMBER_ADD", {**self._member(user), "guild_id": str(guild_id)})
        return user

    def add_guild(self, *, shard: int = 0, shard_count: int = 1) -> int:
        """Add a guild (its members: every member) and return its id, chosen so that
        Discord's formula puts it on ``shard`` of ``shard_count``. Give it channels with
        `add_channel`. After `start`, the bot holding it sees its ``GUILD_CREATE``."""
        guild_id = self.snowflake()
        while (guild_id >> 22) % shard_count != shard:
            guild_id += 1 << 22
        self._next_id = max(self._next_id, guild_id + 1)
        self.guilds.append(guild_id)
        if self._running():
            self._gateway("GUILD_CREATE", self._guild_payload(guild_id))
        return guild_id

    def add_channel(self, name: str, *, guild_id: int | None = None) -> int:
        """Add a text channel to the guild ``guild_id`` (default: `guild_id`); after
        `start`, the bot sees a ``CHANNEL_CREATE``."""
        channel_id = self.snowflake()
        channel = {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(guild_id if guild_id is not None else self.guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }
        self.channels[channel_id] = channel
        if self._running():
            self._gateway("CHANNEL_CREATE", channel)
        return channel_id

    def guild_of(self, channel_id: int | None) -> int | None:
        """The guild of a channel or thread (None: ``#general``'s); None for a DM."""
        if channel_id is None:
            return self.guild_id
        if channel_id in self.dm_channels:
            return None
        return int(self._guild_channel(channel_id)["guild_id"])

    def block_dms(self, user: Any, blocked: bool = True) -> None:
        """Make DMs to ``user`` fail like Discord does: 403, code 50007."""
        uid = self._user(user).id
        if blocked:
            self._blocked_dms.add(uid)
        else:
            self._blocked_dms.discard(uid)

    def dm_channel_id(self, user: Any) -> int:
        """The id of the DM channel between the bot and ``user`` (created on first use)."""
        return int(self._dm_channel(self._user(user))["id"])

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self, bot: discord.Client, *, beside: bool = False) -> None:
        """Log ``bot`` in and connect it to the fake gateway, then wait for ``on_ready``.

        ``login()`` runs ``setup_hook`` exactly as in production. The bot gets READY and a
        GUILD_CREATE listing the members, channels and active threads. To restart, close
        the previous bot and start a new one with the same fake: the fake's state stays.
        ``beside``: start it while another bot runs, as another process of the same
        application on other shards; a guild's events go to the bot whose shards hold
        it, DMs to the one holding shard 0 (`bot` is the one holding `guild_id`, or the
        first one started, if none holds it).
        """
        running = self.bot is not None and not self.bot.is_closed()
        if running and not beside:
            raise RuntimeError("close the running bot (await bot.close()) before starting another")
        shards = self._shards(bot)
        if not running or self._holds(bot, self.guild_id):
            self.bot = bot
        self.bots.append(bot)
        await bot.login("fake-token")
        state = bot._connection
        state.guild_ready_timeout = 0.01
        state._chunk_guilds = False  # chunking would ask a websocket that does not exist
        if shards is None:
            state.parsers["READY"](self._ready_payload(self.guilds))
        else:  # a READY per shard, listing the guilds that shard holds
            for shard, count in shards:
                ours = [g for g in self.guilds if (g >> 22) % count == shard]
                state.parsers["READY"]({**self._ready_payload(ours), "shard": [shard, count]})
        for guild_id in self.guilds:
            if self._holds(bot, guild_id):
                state.parsers["GUILD_CREATE"](self._guild_payload(guild_id))
        await bot.wait_until_ready()
        await self.settle()

    @staticmethod
    def _shards(bot: discord.Client) -> list[tuple[int, int]] | None:
        """A sharded client's shards as ``(id, count)`` pairs, set on it as its
        ``launch_shards`` would (every shard of one when it names none); None for an
        unsharded client."""
        if not isinstance(bot, discord.AutoShardedClient):
            return None
        count = bot.shard_count or 1
        ids = list(bot.shard_ids) if bot.shard_ids is not None else list(range(count))
        bot.shard_count = bot._connection.shard_count = count
        bot._connection.shard_ids = ids
        return [(shard, count) for shard in ids]

    @staticmethod
    def _holds(bot: discord.Client, guild_id: int | None) -> bool:
        """Whether the guild's events go to ``bot`` (DMs: to shard 0)."""
        if not isinstance(bot, discord.AutoShardedClient) or bot.shard_ids is None:
            return True
        shard = 0 if guild_id is None else (guild_id >> 22) % (bot.shard_count or 1)
        return shard in bot.shard_ids

    async def shutdown(self) -> None:
        """Close every bot started on this fake that is still open."""
        for bot in self.bots:
            if not bot.is_closed():
                await bot.close()

    async def __aenter__(self) -> FakeDiscord:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.shutdown()
        self.patch.undo()

    async def settle(
        self, rounds: int = 20, timeout: float = 10.0, grace: float = 0.1
    ) -> list[asyncio.Task[Any]]:
        """Let the bot's handlers run until nothing changes; return those still parked.

        Spins the event loop until, for ``rounds`` turns in a row, no request was made, no
        id handed out, no handler task started or finished, and no handler can run.
        Watched are the tasks named in `WATCHED` and those whose coroutine is not library
        code (tasks the bot created).

        A handler parked in ``view.wait()``, ``bot.wait_for()``, an asyncio event, queue
        or sleep counts as settled: the next click resumes it. One waiting for another
        thread (``asyncio.to_thread``, an executor, an aiosqlite query: `_SQL_WAITS`)
        counts as running. One suspended somewhere the harness cannot classify must also
        stay unchanged for ``grace`` seconds. If ``timeout`` seconds pass first, that is
        recorded in `problems`.
        """
        deadline = time.monotonic() + timeout
        quiet, quiet_since = 0, time.monotonic()
        last: tuple[Any, ...] | None = None
        while True:
            current = asyncio.current_task()
            tasks = [t for t in asyncio.all_tasks() if t is not current and _is_handler_task(t)]
            waits = [_wait_of(t) for t in tasks]
            worst = max(waits, default=_Wait.PARKED)
            snapshot = (self.requested, self._next_id, frozenset(tasks))
            now = time.monotonic()
            if snapshot != last or worst >= _Wait.THREAD:
                quiet, quiet_since = 0, now
            else:
                quiet += 1
            if quiet >= rounds and (worst is _Wait.PARKED or now - quiet_since >= grace):
                return tasks
            if now > deadline:
                busy = sorted(t.get_name() for t, w in zip(tasks, waits, strict=True) if w)
                self._settle_failures.append(
                    f"settle() gave up after {timeout:g}s; still busy: {', '.join(busy)}"
                )
                return tasks
            last = snapshot
            # While another thread works (rendering, aiosqlite), yield the GIL to it:
            # spinning on sleep(0) would take it back every few microseconds and can
            # slow a picture's rendering tenfold on a loaded machine.
            if worst is _Wait.THREAD:
                await asyncio.sleep(0.001)
            elif worst is _Wait.RUNNABLE or quiet < rounds:
                await asyncio.sleep(0)
            else:
                await asyncio.sleep(0.0005)

    def problems(self) -> list[str]:
        """What a user would have noticed: unhandled routes, unanswered interactions."""
        found = [f"unhandled route {c.key} {c.args}" for c in self.unhandled]
        found += [
            f"interaction {i.summary!r} by {i.user.name} was never answered (token {token})"
            for token, i in self.interactions.items()
            if i.callback_type is None
        ]
        return found + self._settle_failures

    # -- users acting ---------------------------------------------------------------------------

    def interact(
        self,
        user: Any,
        type: int,
        data: Payload,
        channel_id: int | None = None,
        *,
        message: Payload | None = None,
        summary: str | None = None,
    ) -> str:
        """Send a raw ``INTERACTION_CREATE`` to the bot and return its token.

        This only schedules the handler: ``await fake.settle()`` afterwards. Use it for
        concurrent clicks or payloads the helpers do not build. ``channel_id`` defaults to
        ``#general``; a DM channel id (`dm_channel_id`) makes it a DM interaction.
        ``message`` is the message a component or modal interaction comes from.
        """
        who = self._user(user)
        channel_id = channel_id if channel_id is not None else self.channel_id
        guild_id = self.guild_of(channel_id)
        self._require_connected(guild_id)
        interaction_id = self.snowflake()
        token = f"token-{interaction_id}"
        payload: Payload = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": type,
            "token": token,
            "version": 1,
            "data": _copied(data),
            "channel_id": str(channel_id),
            "locale": who.locale,
            "app_permissions": str(ALL_PERMISSIONS),
            "entitlements": [],
            "attachment_size_limit": 26_214_400,
        }
        if channel_id in self.dm_channels:
            payload["channel"] = _copied(self.dm_channels[channel_id])
            payload["user"] = who.payload()
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": "0"}
        else:
            payload["channel"] = _copied(self._guild_channel(channel_id))
            payload["guild_id"] = str(guild_id)
            payload["guild_locale"] = "en-US"
            payload["member"] = self._member(who, permissions=True)
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(guild_id)}
        if message is not None:
            payload["message"] = _copied(message)
        self.interactions[token] = FakeInteraction(
            id=interaction_id,
            token=token,
            type=type,
            user=who,
            channel_id=channel_id,
            summary=summary or f"interaction type {type}",
            message_id=int(message["id"]) if message is not None else None,
        )
        self._gateway("INTERACTION_CREATE", payload)
        return token

    async def slash(
        self, user: Any, command: str, /, channel_id: int | None = None, **options: Any
    ) -> str:
        """Run ``/command`` as ``user`` and settle; returns the interaction token.

        ``command`` is the full path, ``"game start"``. Options are passed by Python
        parameter name (or display name) and typed from the bot's command tree: users as
        `FakeUser` or ids, channels as ids, attachments as ``(filename, bytes)``.
        """
        data = self._command_data(command, options, guild_id=self.guild_of(channel_id))
        token = self.interact(user, 2, data, channel_id, summary=f"/{command}")
        await self.settle()
        return token

    async def autocomplete(
        self,
        user: Any,
        command: str,
        focused: str,
        value: str,
        /,
        channel_id: int | None = None,
        **options: Any,
    ) -> list[Payload]:
        """Type ``value`` into option ``focused`` of ``/command``; returns the bot's choices."""
        data = self._command_data(
            command, options, guild_id=self.guild_of(channel_id), focused=(focused, value)
        )
        summary = f"autocomplete /{command} {focused}={value!r}"
        token = self.interact(user, 4, data, channel_id, summary=summary)
        await self.settle()
        return list(self.interactions[token].choices or [])

    async def click(
        self,
        user: Any,
        message: Payload | int,
        custom_id: str,
        values: Sequence[Any] | None = None,
        component_type: int | None = None,
    ) -> str:
        """Click a button, or choose ``values`` in a select, on ``message``; settles.

        The component must be on the message and enabled, as in the Discord client. Its
        type is taken from the message unless ``component_type`` is given (2 button,
        3 string select, 5 user, 6 role, 7 mentionable, 8 channel select). In a DM the
        interaction comes from the DM channel, as Discord sends it.
        """
        stored = self._message(message)
        component = next(
            (c for c in _walk_components(stored["components"]) if c.get("custom_id") == custom_id),
            None,
        )
        if component is None:
            raise LookupError(f"no component {custom_id!r} on message {stored['id']}")
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled; Discord would not send it")
        kind = component_type if component_type is not None else int(component["type"])
        data: Payload = {"custom_id": custom_id, "component_type": kind}
        if kind != 2:
            resolved: Payload = {}
            option_type = {5: 6, 6: 8, 7: 9, 8: 7}.get(kind)
            data["values"] = [
                self._option_value(option_type, v, resolved, True) if option_type else str(v)
                for v in values or ()
            ]
            if resolved:
                data["resolved"] = resolved
        token = self.interact(
            user,
            3,
            data,
            int(stored["channel_id"]),
            message=stored,
            summary=f"click {custom_id}",
        )
        await self.settle()
        return token

    async def submit_modal(self, user: Any, token: str, values: Mapping[str, str]) -> str:
        """Fill in and submit the modal the bot opened for interaction ``token``; settles.

        ``values`` maps each text input, by label or custom_id, to what the user typed.
        """
        opened = self.interactions[token]
        if opened.modal is None:
            raise LookupError(f"interaction {opened.summary!r} did not open a modal")
        inputs: dict[str, str] = {}
        for component in _walk_components(opened.modal.get("components") or ()):
            inner = component.get("component")
            target = inner if isinstance(inner, dict) else component
            if "custom_id" in target and target.get("type") == 4:
                inputs[target["custom_id"]] = target["custom_id"]
                if component.get("label"):
                    inputs[component["label"]] = target["custom_id"]
        rows = []
        for key, text in values.items():
            if key not in inputs:
                raise LookupError(f"no text input {key!r} in modal; it has {sorted(inputs)}")
            rows.append(
                {"type": 1, "components": [{"type": 4, "custom_id": inputs[key], "value": text}]}
            )
        data = {"custom_id": opened.modal["custom_id"], "components": rows}
        origin = self.messages.get(opened.message_id) if opened.message_id else None
        new_token = self.interact(
            user,
            5,
            data,
            opened.channel_id,
            message=origin,
            summary=f"submit modal {opened.modal['custom_id']}",
        )
        await self.settle()
        return new_token

    # -- reading what happened ------------------------------------------------------------------

    def original(self, token: str) -> Payload:
        """The message the bot's answer to interaction ``token`` created (or updated)."""
        interaction = self.interactions[token]
        if interaction.original_id is None:
            raise LookupError(f"interaction {interaction.summary!r} has no response message")
        if interaction.original_id in self.deleted:
            raise LookupError(f"the response to {interaction.summary!r} was deleted")
        return self.messages[interaction.original_id]

    def sent_to(self, channel_id: int) -> list[Payload]:
        """Messages everyone sees in a channel, thread or DM, oldest first."""
        messages = self.messages
        return [
            m
            for m in map(messages.__getitem__, self._in_channel.get(channel_id, ()))
            if not m["flags"] & _EPHEMERAL
        ]

    def timeline(self, channel_id: int) -> list[tuple[Payload, str, bool]]:
        """What everyone saw in a channel, thread or DM, in order: each message's
        content when it was posted and again whenever an edit changed it, as
        ``(message, content then, edited)``; ``edited`` when the message had shown a
        content before (a deferred answer's empty placeholder does not count)."""
        out: list[tuple[Payload, str, bool]] = []
        shown: set[int] = set()
        for message_id, content in self.contents:
            message = self.messages.get(message_id) or self.deleted.get(message_id)
            if message is None or int(message["channel_id"]) != channel_id:
                continue
            if message["flags"] & _EPHEMERAL or not content:
                continue
            out.append((message, content, message_id in shown))
            shown.add(message_id)
        return out

    def dms(self, user: Any) -> list[Payload]:
        """Messages the bot sent ``user`` in their DM channel."""
        channel_id = self._dm_by_user.get(self._user(user).id)
        return [] if channel_id is None else self.sent_to(channel_id)

    def ephemeral_for(self, user: Any) -> list[Payload]:
        """Ephemeral messages only ``user`` sees."""
        uid = str(self._user(user).id)
        return [
            m
            for m in self.messages.values()
            if m["flags"] & _EPHEMERAL
            and m.get("interaction_metadata", {}).get("user", {}).get("id") == uid
        ]

    def public_messages(self) -> list[Payload]:
        """Messages everyone in the guild sees: not ephemeral and not in a DM."""
        return [
            m
            for m in self.messages.values()
            if not m["flags"] & _EPHEMERAL and int(m["channel_id"]) not in self.dm_channels
        ]

    def files(self, message: Payload | int) -> list[tuple[str, bytes]]:
        """The attachments of a message as ``(filename, bytes)``."""
        stored = self._message(message)
        return [self._files[int(a["id"])] for a in stored["attachments"]]

    def custom_id(self, message: Payload | int, label: str) -> str:
        """The custom_id of the component labelled ``label`` on a message.

        Matches a button's label or emoji name, a select's placeholder, or the label of
        one of a select's options (giving the select's custom_id).
        """
        stored = self._message(message)
        seen = []
        for component in _walk_components(stored["components"]):
            if "custom_id" not in component:
                continue
            names = [component.get("label"), component.get("placeholder")]
            names.append((component.get("emoji") or {}).get("name"))
            names += [option.get("label") for option in component.get("options") or ()]
            if label in names:
                return str(component["custom_id"])
            seen += [n for n in names if n]
        raise LookupError(f"no component labelled {label!r} on message {stored['id']}: {seen}")

    def thread_members(self, thread_id: int) -> set[int]:
        """Ids of the users added to a thread (the bot joins the threads it creates)."""
        return set(self._thread_members.get(thread_id, ()))

    def transcript(self) -> str:
        """Every message as sorted JSON, attachments by digest: equal runs give equal text."""
        entries = []
        for message in self.messages.values():
            entry = _copied(message)
            entry["files"] = [[n, hashlib.sha256(b).hexdigest()] for n, b in self.files(message)]
            entries.append(entry)
        return json.dumps(entries, indent=1, sort_keys=True, ensure_ascii=False)

    # -- payloads -------------------------------------------------------------------------------

    def _member(
        self, user: FakeUser, *, permissions: bool = False, with_user: bool = True
    ) -> Payload:
        member: Payload = {
            "roles": [str(self.admin_role_id)] if user.admin else [],
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
        }
        if with_user:
            member["user"] = user.payload()
        if permissions:
            member["permissions"] = str(ALL_PERMISSIONS if user.admin else MEMBER_PERMISSIONS)
        return member

    def _ready_payload(self, guilds: Iterable[int]) -> Payload:
        return {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "session_id": "fake-session",
            "resume_gateway_url": "",
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    def _guild_payload(self, guild_id: int) -> Payload:
        everyone = {
            "id": str(guild_id),
            "name": "@everyone",
            "permissions": str(MEMBER_PERMISSIONS),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        admin = {**everyone, "id": str(self.admin_role_id), "name": "admin", "position": 1}
        admin["permissions"] = str(ALL_PERMISSIONS)
        members = [self.bot_user, *self.members.values()]
        mine = [c for c in self.channels.values() if c["guild_id"] == str(guild_id)]
        channels = [c for c in mine if c["type"] not in _THREAD_TYPES]
        threads = [
            c for c in mine if c["type"] in _THREAD_TYPES and not c["thread_metadata"]["archived"]
        ]
        return _copied(
            {
                "id": str(guild_id),
                "name": "Fake Guild",
                "owner_id": str(self.owner.id),
                "icon": None,
                "unavailable": False,
                "large": False,
                "roles": [everyone, admin],
                "channels": channels,
                "threads": threads,
                "emojis": [],
                "stickers": [],
                "features": [],
                "members": [self._member(m) for m in members],
                "member_count": len(members),
                "preferred_locale": "en-US",
            }
        )

    def _dm_channel(self, user: FakeUser) -> Payload:
        channel_id = self._dm_by_user.get(user.id)
        if channel_id is None:
            channel_id = self.snowflake()
            self._dm_by_user[user.id] = channel_id
            self.dm_channels[channel_id] = {
                "id": str(channel_id),
                "type": _DM_CHANNEL,
                "recipients": [user.payload()],
                "last_message_id": None,
                "flags": 0,
            }
        return self.dm_channels[channel_id]

    def _attachment(self, channel_id: int, filename: str, data: bytes, **extra: Any) -> Payload:
        attachment_id = self.snowflake()
        path = f"attachments/{channel_id}/{attachment_id}/{filename}"
        url = f"https://cdn.discordapp.com/{path}"
        proxy_url = f"https://media.discordapp.net/{path}"
        self.cdn[url] = self.cdn[proxy_url] = data
        self._files[attachment_id] = (filename, data)
        return {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": proxy_url,
            "content_type": mimetypes.guess_type(filename)[0],
            **extra,
        }

    def _attachments(
        self,
        channel_id: int,
        requested: list[Payload] | None,
        files: list[tuple[str, bytes]],
        existing: list[Payload],
    ) -> list[Payload]:
        """The attachment list after a create or edit: kept ones plus new uploads."""
        if requested is None:
            requested = [{"id": i} for i in range(len(files))]
            if existing:  # an edit without an attachments list keeps what was there
                requested = [{"id": a["id"]} for a in existing] + requested
        kept = {a["id"]: a for a in existing}
        result = []
        for entry in requested:
            key = str(entry["id"])
            if key in kept:
                result.append(kept[key])
            elif key.isdigit() and int(key) < len(files):
                filename, data = files[int(key)]
                extra = {k: entry[k] for k in ("description",) if entry.get(k)}
                result.append(self._attachment(channel_id, filename, data, **extra))
        return result

    def _new_message(
        self,
        channel_id: int,
        body: Payload,
        files: list[tuple[str, bytes]],
        *,
        interaction: FakeInteraction | None = None,
        flags: int | None = None,
    ) -> Payload:
        message_id = self.snowflake()
        message: Payload = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "type": 0,
            "content": body.get("content") or "",
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "attachments": self._attachments(channel_id, body.get("attachments"), files, []),
            "author": self.bot_user.payload(),
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": bool(body.get("tts")),
            "flags": flags if flags is not None else int(body.get("flags") or 0),
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "mention_everyone": False,
        }
        if channel_id not in self.dm_channels:
            message["guild_id"] = self._guild_channel(channel_id)["guild_id"]
        if body.get("message_reference"):
            message["type"] = 19
            message["message_reference"] = body["message_reference"]
        if interaction is not None:
            message["type"] = 20 if interaction.type == 2 else 0
            message["webhook_id"] = str(self.application_id)
            message["application_id"] = str(self.application_id)
            metadata: Payload = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(self.guild_of(channel_id) or 0)},
            }
            if interaction.message_id is not None:
                metadata["interacted_message_id"] = str(interaction.message_id)
            message["interaction_metadata"] = metadata
        self.messages[message_id] = message
        self._in_channel.setdefault(channel_id, {})[message_id] = None
        self.contents.append((message_id, message["content"]))
        self._record_ping(message, body)
        return message

    def _edit_message(
        self, message: Payload, body: Payload, files: list[tuple[str, bytes]]
    ) -> None:
        before = message["content"]
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key] or ("" if key == "content" else [])
        if body.get("flags") is not None:
            message["flags"] = int(body["flags"]) | (message["flags"] & _EPHEMERAL)
        if message["content"] != before:
            self.contents.append((int(message["id"]), message["content"]))
            self._record_ping(message, body)
        message["flags"] &= ~_LOADING
        if "attachments" in body or files:
            message["attachments"] = self._attachments(
                int(message["channel_id"]), body.get("attachments"), files, message["attachments"]
            )
        message["edited_timestamp"] = TIMESTAMP

    def _record_ping(self, message: Payload, body: Payload) -> None:
        if message["flags"] & _EPHEMERAL:
            return
        allowed = body.get("allowed_mentions")
        everyone, roles, users = notified(message["content"], allowed)
        if everyone or roles or users:
            self.pings.append(Ping(int(message["id"]), everyone, roles, users, allowed))

    # -- lookups --------------------------------------------------------------------------------

    def _user(self, who: Any) -> FakeUser:
        if isinstance(who, FakeUser):
            return who
        uid = int(who["id"]) if isinstance(who, Mapping) else int(getattr(who, "id", who))
        for user in (self.members.get(uid), self.bot_user, self.owner):
            if user is not None and user.id == uid:
                return user
        raise LookupError(f"unknown user {uid}; add it with fake.add_member()")

    def _message(self, message: Payload | int) -> Payload:
        message_id = int(message["id"]) if isinstance(message, Mapping) else int(message)
        if message_id not in self.messages:
            raise LookupError(f"no message {message_id}")
        return self.messages[message_id]

    def _guild_channel(self, channel_id: int) -> Payload:
        if channel_id not in self.channels:
            raise LookupError(f"no channel {channel_id} in the fake guild")
        return self.channels[channel_id]

    def _running(self) -> bool:
        return self.bot is not None and not self.bot.is_closed() and self.bot.is_ready()

    def _require_bot(self) -> discord.Client:
        if self.bot is None or self.bot.is_closed():
            raise RuntimeError("no bot is running: await fake.start(bot) first")
        return self.bot

    def _require_connected(self, guild_id: int | None = None) -> None:
        """Raise unless a bot is connected to receive the guild's gateway events."""
        self._require_bot()

    def _gateway(self, event: str, data: Payload) -> None:
        """Deliver a gateway event to the bot holding its guild (`start`), as the
        websocket would."""
        guild = data.get("guild_id") if event != "GUILD_CREATE" else data.get("id")
        guild_id = int(guild) if guild else None
        running = [b for b in self.bots if not b.is_closed()]
        bot = next((b for b in running if self._holds(b, guild_id)), self.bot)
        if bot is not None and not bot.is_closed():
            bot._connection.parsers[event](_copied(data))

    # -- slash command payloads -----------------------------------------------------------------

    def _command_data(
        self,
        path: str,
        values: Mapping[str, Any],
        *,
        guild_id: int | None,
        focused: tuple[str, str] | None = None,
    ) -> Payload:
        """The ``data`` of a slash or autocomplete interaction in the guild ``guild_id``
        (None: a DM), typed from the bot's tree."""
        in_guild = guild_id is not None
        tree = self._require_bot()._connection._command_tree
        if tree is None:
            raise RuntimeError("the bot has no app command tree")
        names = path.split()
        root = tree.get_command(names[0], guild=discord.Object(guild_id or self.guild_id))
        scope: int | None = (guild_id or self.guild_id) if root is not None else None
        if root is None:
            root = tree.get_command(names[0])
        if root is None:
            known = sorted(c.name for c in tree.get_commands())
            raise LookupError(f"no slash command /{names[0]}; the tree has {known}")
        node: Any = root
        for name in names[1:]:
            child = node.get_command(name) if isinstance(node, app_commands.Group) else None
            if child is None:
                raise LookupError(f"/{path}: no subcommand {name!r} under {node.qualified_name!r}")
            node = child
        if not isinstance(node, app_commands.Command):
            raise LookupError(f"/{path} is a group; name one of its subcommands")
        resolved: Payload = {}
        options = self._options(node, values, resolved, in_guild, focused)
        for depth, name in reversed(list(enumerate(names[1:], start=1))):
            kind = 1 if depth == len(names) - 1 else 2
            options = [{"name": name, "type": kind, "options": options}]
        synced = {c["name"]: int(c["id"]) for c in self.commands.get(scope, [])}
        command_id = synced.get(root.name) or self._command_id(root.name, scope)
        data: Payload = {"id": str(command_id), "name": root.name, "type": 1, "options": options}
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        return data

    def _command_id(self, name: str, scope: int | None) -> int:
        key = (name, scope)
        if key not in self._command_ids:
            self._command_ids[key] = self.snowflake()
        return self._command_ids[key]

    def _options(
        self,
        command: app_commands.Command[Any, ..., Any],
        values: Mapping[str, Any],
        resolved: Payload,
        in_guild: bool,
        focused: tuple[str, str] | None,
    ) -> list[Payload]:
        parameters = command.parameters
        known = {p.name for p in parameters} | {p.display_name for p in parameters}
        unknown = set(values) - known
        if focused is not None and focused[0] not in known:
            unknown.add(focused[0])
        if unknown:
            raise TypeError(f"/{command.qualified_name} has no option {sorted(unknown)}")
        options = []
        for parameter in parameters:
            names = (parameter.name, parameter.display_name)
            option: Payload = {"name": parameter.display_name, "type": parameter.type.value}
            if focused is not None and focused[0] in names:
                option.update(value=focused[1], focused=True)
            elif parameter.name in values or parameter.display_name in values:
                value = values.get(parameter.name, values.get(parameter.display_name))
                option["value"] = self._option_value(
                    parameter.type.value, value, resolved, in_guild
                )
            elif parameter.required and focused is None:
                raise TypeError(f"/{command.qualified_name} needs option {parameter.name!r}")
            else:
                continue
            options.append(option)
        return options

    def _option_value(self, kind: int, value: Any, resolved: Payload, in_guild: bool) -> Any:
        """An option value as Discord sends it, filling ``resolved`` for entities."""
        if isinstance(value, app_commands.Choice):
            value = value.value
        if isinstance(value, enum.Enum):
            value = value.value
        if kind == 3:
            return str(value)
        if kind == 4:
            return int(value)
        if kind == 5:
            return bool(value)
        if kind == 10:
            return float(value)
        if kind == 6 or (kind == 9 and not self._is_role(value)):
            user = self._user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if in_guild and (user.id in self.members or user == self.bot_user):
                member = self._member(user, permissions=True, with_user=False)
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        if kind in (8, 9):
            role_id = int(getattr(value, "id", value))
            guild = role_id if role_id in self.guilds else self.guild_id  # @everyone's id
            role = next(r for r in self._guild_payload(guild)["roles"] if int(r["id"]) == role_id)
            resolved.setdefault("roles", {})[str(role_id)] = role
            return str(role_id)
        if kind == 7:
            raw = value["id"] if isinstance(value, Mapping) else getattr(value, "id", value)
            channel = self._guild_channel(int(raw))
            resolved.setdefault("channels", {})[str(raw)] = {
                **channel,
                "permissions": str(ALL_PERMISSIONS),
            }
            return str(raw)
        if kind == 11:
            filename, data = value
            attachment = self._attachment(0, filename, data)
            resolved.setdefault("attachments", {})[attachment["id"]] = attachment
            return attachment["id"]
        raise TypeError(f"option type {kind} is not supported by FakeDiscord")

    def _is_role(self, value: Any) -> bool:
        raw = getattr(value, "id", value)
        return isinstance(raw, int) and (raw in self.guilds or raw == self.admin_role_id)

    # -- transport ------------------------------------------------------------------------------

    def _install(self) -> None:
        """Patch discord.py's and aiohttp's network entry points at class level."""
        fake = self

        async def get_from_cdn(url: str) -> bytes:
            if url not in fake.cdn:
                raise _http_error(404, 0, "asset not found")
            return fake.cdn[url]

        route_network(self.patch, self._request, get_from_cdn, "FakeDiscord")
        for name in ("_execute", "_connect"):  # see _SQL_WAITS
            method = getattr(aiosqlite.core.Connection, name, None)
            if method is not None:
                self.patch.setattr(aiosqlite.core.Connection, name, _counted_sql(method))

    async def _request(
        self,
        route: Route,
        body: Any,
        form: Iterable[Mapping[str, Any]] | None,
        files: Sequence[discord.File] | None,
        params: Payload | None,
    ) -> Any:
        """Record a request, route it to its handler and answer a copy of the result."""
        at, cpu = time.perf_counter(), time.thread_time()
        call = self.new_call(
            route.method,
            route.path,
            route.url,
            _decode_body(body, form),
            _read_files(files),
            dict(params) if params else None,
        )
        call.at, call.cpu = at, cpu
        await asyncio.sleep(0)  # a real request yields to the loop; so does this one
        return self.answer(call)

    def new_call(
        self,
        method: str,
        path: str,
        url: str,
        body: Any,
        files: list[tuple[str, bytes]],
        params: Payload | None,
    ) -> Call:
        """Record a request to ``url``, made from the route template ``path``."""
        match = _template_regex(path).search(url)
        args = {k: unquote(v) for k, v in match.groupdict().items()} if match else {}
        call = Call(method, path, args, body, files, params)
        self.requested += 1
        if self.keep_calls:
            self.calls.append(call)
        _log.debug("%s %s", call.key, args)
        return call

    def answer(self, call: Call) -> Any:
        """Route a recorded call to its handler and return a copy of the result (or
        raise the ``discord.HTTPException`` Discord would answer)."""
        handler = self.routes.get(call.key)
        if handler is None:
            self.unhandled.append(call)
            call.error = _http_error(404, 0, f"FakeDiscord has no route {call.key}")
            raise call.error
        try:
            result = handler(call)
        except discord.HTTPException as exc:
            call.error = exc
            raise
        if self.keep_calls:  # the log's own copy, for tests to inspect
            call.result = _copied(result)
        return _copied(result)

    def _default_routes(self) -> dict[str, Handler]:
        channel = "/channels/{channel_id}"
        message = f"{channel}/messages/{{message_id}}"
        hook = "/webhooks/{webhook_id}/{webhook_token}"
        return {
            "GET /users/@me": lambda call: {
                **self.bot_user.payload(),
                "verified": True,
                "mfa_enabled": False,
                "flags": 0,
            },
            "GET /oauth2/applications/@me": self._app_info,
            "GET /users/{user_id}": lambda call: self._user(int(call.args["user_id"])).payload(),
            "GET /guilds/{guild_id}/members/{member_id}": self._get_member,
            "GET /applications/{application_id}/commands": self._get_commands,
            "PUT /applications/{application_id}/commands": self._put_commands,
            "GET /applications/{application_id}/guilds/{guild_id}/commands": self._get_commands,
            "PUT /applications/{application_id}/guilds/{guild_id}/commands": self._put_commands,
            "POST /interactions/{webhook_id}/{webhook_token}/callback": self._callback,
            f"POST {hook}": self._followup,
            f"GET {hook}/messages/@original": self._get_webhook_message,
            f"PATCH {hook}/messages/@original": self._edit_webhook_message,
            f"DELETE {hook}/messages/@original": self._delete_webhook_message,
            f"GET {hook}/messages/{{message_id}}": self._get_webhook_message,
            f"PATCH {hook}/messages/{{message_id}}": self._edit_webhook_message,
            f"DELETE {hook}/messages/{{message_id}}": self._delete_webhook_message,
            "POST /users/@me/channels": self._create_dm,
            f"GET {channel}": self._get_channel,
            f"PATCH {channel}": self._edit_channel,
            f"POST {channel}/typing": lambda call: None,
            f"POST {channel}/messages": self._post_message,
            f"GET {channel}/messages": self._channel_history,
            f"GET {message}": lambda call: self._channel_message(call),
            f"PATCH {message}": self._edit_channel_message,
            f"DELETE {message}": self._delete_channel_message,
            f"PUT {message}/reactions/{{emoji}}/@me": self._add_reaction,
            f"DELETE {message}/reactions/{{emoji}}/@me": self._remove_reaction,
            f"POST {channel}/threads": self._create_thread,
            f"POST {message}/threads": self._create_thread,
            f"PUT {channel}/thread-members/@me": self._join_thread,
            f"PUT {channel}/thread-members/{{user_id}}": self._join_thread,
            f"DELETE {channel}/thread-members/@me": self._leave_thread,
            f"DELETE {channel}/thread-members/{{user_id}}": self._leave_thread,
        }

    # -- REST handlers: application -------------------------------------------------------------

    def _app_info(self, call: Call) -> Payload:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
            "rpc_origins": [],
        }

    def _get_member(self, call: Call) -> Payload:
        uid = int(call.args["member_id"])
        if uid not in self.members and uid != self.bot_user.id:
            raise _http_error(404, 10007, "Unknown Member")
        return self._member(self._user(uid))

    def _scope(self, call: Call) -> int | None:
        return int(call.args["guild_id"]) if "guild_id" in call.args else None

    def _get_commands(self, call: Call) -> list[Payload]:
        return self.commands.get(self._scope(call), [])

    def _put_commands(self, call: Call) -> list[Payload]:
        scope = self._scope(call)
        problems = _command_problems(call.json or [])
        if problems:  # Discord refuses the whole sync
            raise _http_error(400, 50035, "Invalid Form Body: " + "; ".join(problems))
        synced = []
        for command in call.json or []:
            command_id = self._command_id(command["name"], scope)
            entry = {"description": "", "type": 1, **command}
            entry.update(id=str(command_id), application_id=str(self.application_id))
            entry["version"] = str(command_id)
            if scope is not None:
                entry["guild_id"] = str(scope)
            synced.append(entry)
        self.commands[scope] = synced
        return synced

    # -- REST handlers: interactions ------------------------------------------------------------

    def _interaction(self, call: Call) -> FakeInteraction:
        interaction = self.interactions.get(call.args["webhook_token"])
        if interaction is None:
            raise _http_error(404, 10015, "Unknown Webhook")
        return interaction

    def _callback(self, call: Call) -> Payload | None:
        interaction = self._interaction(call)
        if interaction.id != int(call.args["webhook_id"]):
            raise _http_error(404, 10062, "Unknown interaction")
        if interaction.callback_type is not None:
            raise _http_error(400, 40060, "Interaction has already been acknowledged.")
        body = call.json or {}
        kind = int(body["type"])
        data = body.get("data") or {}
        interaction.callback_type = kind
        info: Payload = {"id": str(interaction.id), "type": interaction.type}
        answer: Payload = {"interaction": info}
        if kind in (4, 5):
            flags = int(data.get("flags") or 0) | (_LOADING if kind == 5 else 0)
            message = self._new_message(
                interaction.channel_id, data, call.files, interaction=interaction, flags=flags
            )
            interaction.original_id = int(message["id"])
            interaction.loading = kind == 5
            answer["resource"] = {"type": kind, "message": message}
        elif kind in (6, 7):
            if interaction.message_id not in self.messages:
                raise _http_error(400, 50035, "Invalid Form Body: no message to update")
            message = self.messages[interaction.message_id]
            if kind == 7:
                self._edit_message(message, data, call.files)
            interaction.original_id = interaction.message_id
            answer["resource"] = {"type": kind, "message": message}
        elif kind == 8:
            interaction.choices = list(data.get("choices") or [])
        elif kind == 9:
            interaction.modal = data
        elif kind != 1:
            raise _http_error(400, 50035, f"Invalid Form Body: callback type {kind}")
        if "resource" in answer:
            message = answer["resource"]["message"]
            info["response_message_id"] = message["id"]
            info["response_message_loading"] = bool(message["flags"] & _LOADING)
            info["response_message_ephemeral"] = bool(message["flags"] & _EPHEMERAL)
        return answer if (call.params or {}).get("with_response") else None

    def _followup(self, call: Call) -> Payload | None:
        interaction = self._interaction(call)
        if interaction.callback_type is None:
            raise _http_error(404, 10015, "Unknown Webhook")
        body = call.json or {}
        if interaction.loading and interaction.original_id in self.messages:
            # Discord shows the first followup after a thinking defer in its placeholder.
            message = self.messages[interaction.original_id]
            self._edit_message(message, {**body, "flags": None}, call.files)
            interaction.loading = False
        else:
            message = self._new_message(
                interaction.channel_id, body, call.files, interaction=interaction
            )
        wait = (call.params or {}).get("wait", 1)
        return message if int(wait) else None

    def _webhook_target(self, call: Call) -> tuple[FakeInteraction, Payload]:
        interaction = self._interaction(call)
        message_id = call.args.get("message_id", interaction.original_id)
        if message_id is None or int(message_id) not in self.messages:
            raise _http_error(404, 10008, "Unknown Message")
        return interaction, self.messages[int(message_id)]

    def _get_webhook_message(self, call: Call) -> Payload:
        return self._webhook_target(call)[1]

    def _edit_webhook_message(self, call: Call) -> Payload:
        interaction, message = self._webhook_target(call)
        self._edit_message(message, call.json or {}, call.files)
        if int(message["id"]) == interaction.original_id:
            interaction.loading = False
        return message

    def _delete_webhook_message(self, call: Call) -> None:
        self._delete(self._webhook_target(call)[1])

    def _delete(self, message: Payload) -> None:
        message_id = int(message["id"])
        self.deleted[message_id] = self.messages.pop(message_id)
        self._in_channel[int(message["channel_id"])].pop(message_id, None)

    # -- REST handlers: channels and messages ---------------------------------------------------

    def _create_dm(self, call: Call) -> Payload:
        try:
            user = self._user(int((call.json or {})["recipient_id"]))
        except LookupError:
            raise _http_error(400, 50033, "Invalid Recipient(s)") from None
        return self._dm_channel(user)

    def _any_channel(self, call: Call) -> Payload:
        channel_id = int(call.args["channel_id"])
        channel = self.channels.get(channel_id) or self.dm_channels.get(channel_id)
        if channel is None:
            raise _http_error(404, 10003, "Unknown Channel")
        return channel

    def _get_channel(self, call: Call) -> Payload:
        return self._any_channel(call)

    def _edit_channel(self, call: Call) -> Payload:
        channel = self._any_channel(call)
        body = call.json or {}
        is_thread = channel["type"] in _THREAD_TYPES
        for key, value in body.items():
            if is_thread and key in ("archived", "locked", "auto_archive_duration", "invitable"):
                channel["thread_metadata"][key] = value
            elif key in ("name", "topic", "rate_limit_per_user", "nsfw", "flags"):
                channel[key] = value
        event = "THREAD_UPDATE" if is_thread else "CHANNEL_UPDATE"
        asyncio.get_running_loop().call_soon(self._gateway, event, _copied(channel))
        return channel

    def _post_message(self, call: Call) -> Payload:
        channel = self._any_channel(call)
        if channel["type"] == _DM_CHANNEL:
            recipient = int(channel["recipients"][0]["id"])
            if recipient in self._blocked_dms:
                raise _http_error(403, 50007, "Cannot send messages to this user")
        message = self._new_message(int(channel["id"]), call.json or {}, call.files)
        channel["last_message_id"] = message["id"]
        return message

    def _channel_history(self, call: Call) -> list[Payload]:
        """A channel's messages, newest first, as ``channel.history()`` reads them: at
        most ``limit`` (default 50), those before ``before`` or after ``after``."""
        self._any_channel(call)
        params = call.params or {}
        before, after = params.get("before"), params.get("after")
        found = [
            m
            for m in reversed(self.sent_to(int(call.args["channel_id"])))
            if (before is None or int(m["id"]) < int(before))
            and (after is None or int(m["id"]) > int(after))
        ]
        return found[: int(params.get("limit", 50))]

    def _channel_message(self, call: Call) -> Payload:
        """A message as the channel routes see it: ephemeral ones do not exist there."""
        message = self.messages.get(int(call.args["message_id"]))
        if message is None or message["channel_id"] != call.args["channel_id"]:
            raise _http_error(404, 10008, "Unknown Message")
        if message["flags"] & _EPHEMERAL:
            raise _http_error(404, 10008, "Unknown Message")
        return message

    def _edit_channel_message(self, call: Call) -> Payload:
        message = self._channel_message(call)
        self._edit_message(message, call.json or {}, call.files)
        return message

    def _delete_channel_message(self, call: Call) -> None:
        self._delete(self._channel_message(call))

    def _add_reaction(self, call: Call) -> None:
        message = self._channel_message(call)
        name, _, emoji_id = call.args["emoji"].partition(":")
        reactions = message.setdefault("reactions", [])
        if not any(r["emoji"]["name"] == name for r in reactions):
            emoji = {"id": emoji_id or None, "name": name}
            details = {"burst": 0, "normal": 1}
            reactions.append({"emoji": emoji, "count": 1, "me": True, "count_details": details})

    def _remove_reaction(self, call: Call) -> None:
        message = self._channel_message(call)
        name = call.args["emoji"].partition(":")[0]
        message["reactions"] = [
            r for r in message.get("reactions", []) if r["emoji"]["name"] != name
        ]

    def _create_thread(self, call: Call) -> Payload:
        parent = self._any_channel(call)
        if parent["type"] not in (0, 5):
            raise _http_error(400, 50024, "Cannot execute action on this channel type")
        body = call.json or {}
        from_message = "message_id" in call.args
        if from_message:
            self._channel_message(call)
        # A thread started from a message shares the message's id, as on Discord.
        thread_id = int(call.args["message_id"]) if from_message else self.snowflake()
        kind = 11 if from_message else int(body.get("type") or 11)
        thread: Payload = {
            "id": str(thread_id),
            "type": kind,
            "guild_id": parent["guild_id"],
            "parent_id": parent["id"],
            "owner_id": str(self.bot_user.id),
            "name": body.get("name") or "thread",
            "message_count": 0,
            "total_message_sent": 0,
            "member_count": 1,
            "rate_limit_per_user": body.get("rate_limit_per_user") or 0,
            "last_message_id": None,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration") or 1440,
                "archive_timestamp": TIMESTAMP,
                "create_timestamp": TIMESTAMP,
                "locked": False,
            },
        }
        if kind == 12:
            thread["thread_metadata"]["invitable"] = bool(body.get("invitable", True))
        self.channels[thread_id] = thread
        self._thread_members[thread_id] = {self.bot_user.id}
        created = {**_copied(thread), "newly_created": True}
        asyncio.get_running_loop().call_soon(self._gateway, "THREAD_CREATE", created)
        return thread

    def _thread_member_id(self, call: Call) -> tuple[int, int]:
        thread = self._any_channel(call)
        if thread["type"] not in _THREAD_TYPES:
            raise _http_error(400, 50024, "Cannot execute action on this channel type")
        user_id = int(call.args.get("user_id", self.bot_user.id))
        return int(thread["id"]), user_id

    def _join_thread(self, call: Call) -> None:
        thread_id, user_id = self._thread_member_id(call)
        self._thread_members.setdefault(thread_id, set()).add(user_id)

    def _leave_thread(self, call: Call) -> None:
        thread_id, user_id = self._thread_member_id(call)
        self._thread_members.setdefault(thread_id, set()).discard(user_id)
