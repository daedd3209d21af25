"""The offline Discord as a server: bots in processes of their own, killed and restarted.

`FakeDiscord` patches discord.py in the process it runs in, so a bot killed there takes
its Discord down with it. `DiscordHost` keeps the fake's state and routes (its guild,
channels, threads, DMs, members, messages, interactions) in the test's process and
serves them over a Unix socket to bot processes; in each of those, `HostLink` replaces
discord.py's network by that socket and delivers the gateway events the host sends. A
bot killed with SIGKILL loses nothing Discord accepted: the next one reads the threads'
history from the host, as a restarted bot reads Discord's::

    host = DiscordHost(str(tmp_path / "discord.sock"))      # in the test's process
    await host.listen()
    alice = host.add_member("alice")
    ...  # start a process running `connect` (below), then
    await host.wait_ready(1)
    await host.slash(alice, "game status", channel_id=thread)

    # in the bot's process
    link = await HostLink.open(path, shards=(0,), shard_count=1)
    bot = make_bot(clock=FakeClock(link.now))               # the host's time
    await serve(bot, link.connect(bot))                      # cogs.app.serve

Several processes may connect at once: each names its shards and the shard count, and
the host sends a guild's events to the process whose shard owns it, Discord's formula
``(guild_id >> 22) % shard_count`` (DMs go to shard 0). Time is the host's: ``now`` at
connect, then :meth:`DiscordHost.advance` moves every process's
:class:`~bot.clock.FakeClock` (and a restart continues from the host's time).

The protocol is JSON lines (attachments in base64). A bot process sends ``hello``
(``shards``, ``shard_count``, ``pid``), ``http`` (``id``, ``method``, ``path``: the
route template, ``url``, ``json``, ``files``, ``params``), ``cdn`` (``id``, ``url``)
and ``ready`` (its set-up is done and it received its guilds: it takes interactions).
The host answers ``hello`` (``now``, ``ready``: the READY payload, ``guilds``: the
GUILD_CREATE payloads of the guilds the process owns) and ``reply`` (``id``, then
``result``, ``error``: a Discord error ``[status, code, message]``, or ``exception``:
another error a route raised ``[type, message]``), and sends ``event`` (``t``, ``d``)
and ``time`` (``now``) whenever it has one.
"""

from __future__ import annotations

import asyncio
import base64
import builtins
import contextlib
import itertools
import json
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord.http import Route

from bot.clock import FakeClock
from bot.testing.fakediscord import (
    FakeDiscord,
    Patcher,
    Payload,
    _decode_body,
    _http_error,
    _read_files,
    route_network,
)

__all__ = ["LINE_LIMIT", "DiscordHost", "HostLink", "Link", "shard_of"]

LINE_LIMIT = 1 << 26
"""The longest line either side reads (a message with its pictures in base64)."""


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a guild's events (Discord's formula); DMs: shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def _line(message: Payload) -> bytes:
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


def _files_out(files: Iterable[tuple[str, bytes]]) -> list[list[str]]:
    return [[name, base64.b64encode(data).decode("ascii")] for name, data in files]


def _files_in(files: Iterable[Sequence[str]] | None) -> list[tuple[str, bytes]]:
    return [(name, base64.b64decode(data)) for name, data in files or ()]


@dataclass(eq=False)
class Link:
    """One bot process connected to the host."""

    writer: asyncio.StreamWriter
    pid: int
    shards: tuple[int, ...]
    shard_count: int
    ready: bool = False
    """It finished its set-up and received its guilds: interactions go to it."""

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process's shards receive the guild's events."""
        return shard_of(guild_id, self.shard_count) in self.shards

    def send(self, message: Payload) -> None:
        """Queue a line for the process (dropped once its socket is closing: a dead
        process misses what was sent to it, as a dead gateway connection does)."""
        if not self.writer.is_closing():
            self.writer.write(_line(message))


@dataclass
class _Stats:
    connects: int = 0
    requests: int = 0
    events: int = 0
    undelivered: list[str] = field(default_factory=list)
    """Gateway events no connected process owned (their names)."""


class DiscordHost(FakeDiscord):
    """A `FakeDiscord` that does not patch its own process: it serves bot processes
    over the Unix socket ``path`` (see the module docstring). Everything a test reads
    (``messages``, ``contents``, ``sent_to``, ``interactions``, ``calls``...) and
    every user action (``slash``, ``click``, ``interact``) works as on `FakeDiscord`;
    ``slash`` and ``click`` wait (`settle`) until every interaction is answered and
    the bots went quiet."""

    def __init__(self, path: str, guild_id: int | None = None, now: datetime | None = None) -> None:
        self.links: list[Link] = []
        """The bot processes connected now, oldest first."""
        super().__init__(guild_id=guild_id, install=False)
        self.path = path
        """The Unix socket the host listens on."""
        self.now: datetime = now or datetime(2026, 1, 1, tzinfo=UTC)
        """The time of every connected bot's clock (:meth:`advance`)."""
        self.receivers: dict[str, Link] = {}
        """The process each interaction was sent to, by token."""
        self.stats = _Stats()
        self._server: asyncio.AbstractServer | None = None
        self._changed = asyncio.Event()

    # -- the server ------------------------------------------------------------------

    async def listen(self) -> None:
        """Start accepting bot processes on `path`."""
        self._server = await asyncio.start_unix_server(
            self._serve, path=self.path, limit=LINE_LIMIT
        )

    async def close(self) -> None:
        """Stop listening and drop every connection."""
        if self._server is not None:
            self._server.close()
        for link in list(self.links):
            link.writer.close()
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        link: Link | None = None
        try:
            while line := await reader.readline():
                message = json.loads(line)
                op = message["op"]
                if op == "hello":
                    link = Link(
                        writer,
                        int(message["pid"]),
                        tuple(message["shards"]),
                        int(message["shard_count"]),
                    )
                    self.links.append(link)
                    self.stats.connects += 1
                    link.send(self._hello(link))
                elif op == "ready" and link is not None:
                    link.ready = True
                elif op == "http":
                    writer.write(_line(self._http(message)))
                elif op == "cdn":
                    writer.write(_line(self._cdn(message)))
                self._changed.set()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the process died: what it sent before is kept, the rest is lost
        finally:
            if link is not None and link in self.links:
                self.links.remove(link)
            writer.close()
            self._changed.set()

    def _hello(self, link: Link) -> Payload:
        owned = [g for g in self.guilds if link.owns(g)]
        ready = {**self._ready_payload(owned), "shard": [link.shards[0], link.shard_count]}
        guilds = [self._guild_payload(g) for g in owned]
        return {"op": "hello", "now": self.now.isoformat(), "ready": ready, "guilds": guilds}

    def _http(self, message: Payload) -> Payload:
        self.stats.requests += 1
        call = self.new_call(
            message["method"],
            message["path"],
            message["url"],
            message.get("json"),
            _files_in(message.get("files")),
            message.get("params"),
        )
        answer: Payload = {"op": "reply", "id": message["id"]}
        try:
            answer["result"] = self.answer(call)
        except discord.HTTPException as exc:
            answer["error"] = [exc.status, exc.code, exc.text]
        except Exception as exc:  # a route a test replaced (a timeout, an outage)
            answer["exception"] = [type(exc).__name__, str(exc)]
        return answer

    def _cdn(self, message: Payload) -> Payload:
        data = self.cdn.get(message["url"])
        if data is None:
            return {"op": "reply", "id": message["id"], "error": [404, 0, "asset not found"]}
        return {"op": "reply", "id": message["id"], "result": base64.b64encode(data).decode()}

    # -- the gateway -----------------------------------------------------------------

    def link_of(self, guild_id: int | None, *, ready: bool = False) -> Link | None:
        """The connected process that receives the guild's events (the oldest, if two
        claim the same shard); with ``ready``, only one that takes interactions."""
        for link in self.links:
            if link.owns(guild_id) and (link.ready or not ready):
                return link
        return None

    def _gateway(self, event: str, data: Payload) -> None:
        guild = data.get("guild_id")
        link = self.link_of(int(guild) if guild else None)
        if link is None:
            self.stats.undelivered.append(event)
            return
        self.stats.events += 1
        if event == "INTERACTION_CREATE":
            self.receivers[data["token"]] = link
        link.send({"op": "event", "t": event, "d": data})

    def _require_connected(self, guild_id: int | None = None) -> None:
        if self.link_of(guild_id, ready=True) is None:
            raise RuntimeError(f"no bot process is connected and ready for guild {guild_id}")

    def _running(self) -> bool:
        return any(link.ready for link in self.links)

    async def wait_ready(self, count: int = 1, timeout: float = 60.0) -> None:
        """Wait until ``count`` processes are connected and ready."""
        await self.wait_for(lambda: sum(link.ready for link in self.links) >= count, timeout)

    async def wait_for(self, condition: Any, timeout: float = 60.0) -> None:
        """Wait until ``condition()`` holds (checked whenever a process sends something,
        and every 10 ms); ``TimeoutError`` after ``timeout`` seconds."""
        async with asyncio.timeout(timeout):
            while not condition():
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.01):
                        await self._changed.wait()

    # -- time ------------------------------------------------------------------------

    def advance(self, delta: timedelta | float) -> datetime:
        """Move every bot's clock forward by ``delta`` (a timedelta or seconds); the
        host keeps the time, so a process started later continues from it."""
        step = delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
        self.now += step
        for link in self.links:
            link.send({"op": "time", "now": self.now.isoformat()})
        return self.now

    # -- users acting ----------------------------------------------------------------

    def unanswered(self) -> list[str]:
        """The interactions a process still connected has not answered (tokens): one
        sent to a process since killed will never be."""
        return [
            token
            for token, i in self.interactions.items()
            if (i.callback_type is None or i.loading) and self.receivers.get(token) in self.links
        ]

    async def settle(
        self, rounds: int = 20, timeout: float = 30.0, grace: float = 0.25
    ) -> list[asyncio.Task[Any]]:
        """Wait until every interaction is answered (`unanswered`) and no request came for ``grace``
        seconds (``rounds`` is unused: the bots' tasks are in other processes); a
        ``timeout`` is recorded in `problems`."""
        deadline = time.monotonic() + timeout
        last, since = -1, time.monotonic()
        while time.monotonic() < deadline:
            now = time.monotonic()
            if len(self.calls) != last:
                last, since = len(self.calls), now
            answered = not any(self.unanswered())
            if answered and now - since >= grace:
                return []
            await asyncio.sleep(0.01)
        self._settle_failures.append(f"settle() gave up after {timeout:g}s")
        return []

    def _command_data(
        self,
        path: str,
        values: Mapping[str, Any],
        *,
        guild_id: int | None,
        focused: tuple[str, str] | None = None,
    ) -> Payload:
        """The ``data`` of a slash interaction in the guild ``guild_id`` (None: a DM),
        typed from the commands the bots synced (the command tree is in their
        processes)."""
        in_guild = guild_id is not None
        names = path.split()
        synced = [*self.commands.get(guild_id, []), *self.commands.get(None, [])]
        root = next((c for c in synced if c["name"] == names[0]), None)
        if root is None:
            raise LookupError(f"no synced slash command /{names[0]}")
        node: Payload = root
        for name in names[1:]:
            node = next(o for o in node.get("options", []) if o["name"] == name)
        resolved: Payload = {}
        options: list[Payload] = []
        for option in node.get("options", []):
            if focused is not None and focused[0] == option["name"]:
                options.append({**_typed(option), "value": focused[1], "focused": True})
            elif option["name"] in values:
                value = self._option_value(
                    option["type"], values[option["name"]], resolved, in_guild
                )
                options.append({**_typed(option), "value": value})
        unknown = set(values) - {o["name"] for o in node.get("options", [])}
        if unknown:
            raise TypeError(f"/{path} has no option {sorted(unknown)}")
        for depth, name in reversed(list(enumerate(names[1:], start=1))):
            kind = 1 if depth == len(names) - 1 else 2
            options = [{"name": name, "type": kind, "options": options}]
        data: Payload = {"id": root["id"], "name": root["name"], "type": 1, "options": options}
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in root:
            data["guild_id"] = root["guild_id"]
        return data


def _typed(option: Payload) -> Payload:
    return {"name": option["name"], "type": option["type"]}


class HostLink:
    """A bot process's connection to a `DiscordHost`: its network and its gateway."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, hello: Payload
    ) -> None:
        self._reader, self._writer = reader, writer
        self._hello = hello
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Payload]] = {}
        self.now = datetime.fromisoformat(hello["now"])
        """The host's time at connect: start the bot's :class:`FakeClock` there."""
        self.clock: FakeClock | None = None
        """The clock the host's ``time`` messages move (`connect` takes the bot's)."""
        self.patch = Patcher()

    @classmethod
    async def open(cls, path: str, shards: Sequence[int] = (0,), shard_count: int = 1) -> HostLink:
        """Connect to the host at ``path`` as the process serving ``shards``."""
        reader, writer = await asyncio.open_unix_connection(path, limit=LINE_LIMIT)
        hello = {"op": "hello", "pid": os.getpid(), "shards": list(shards)}
        writer.write(_line({**hello, "shard_count": shard_count}))
        answer = json.loads(await reader.readline())
        return cls(reader, writer, answer)

    async def request(self, message: Payload) -> Any:
        """Send a request and wait for the host's reply (its result, or the error)."""
        future: asyncio.Future[Payload] = asyncio.get_running_loop().create_future()
        key = next(self._ids)
        self._waiting[key] = future
        self._writer.write(_line({**message, "id": key}))
        reply = await future
        if "error" in reply:
            status, code, text = reply["error"]
            raise _http_error(status, code, text)
        if "exception" in reply:
            name, text = reply["exception"]
            kind = getattr(builtins, name, None)
            if isinstance(kind, type) and issubclass(kind, Exception):
                raise kind(text)
            raise RuntimeError(f"{name}: {text}")
        return reply.get("result")

    def install(self) -> None:
        """Route discord.py's REST calls, webhooks and CDN reads of this process to the
        host; any other HTTP fails (`NetworkDisabledError`)."""
        link = self

        async def get_from_cdn(url: str) -> bytes:
            return base64.b64decode(await link.request({"op": "cdn", "url": url}))

        route_network(self.patch, self._rest, get_from_cdn, "HostLink")

    async def _rest(
        self,
        route: Route,
        body: Any,
        form: Iterable[Mapping[str, Any]] | None,
        files: Sequence[discord.File] | None,
        params: Payload | None,
    ) -> Any:
        return await self.request(
            {
                "op": "http",
                "method": route.method,
                "path": route.path,
                "url": route.url,
                "json": _decode_body(body, form),
                "files": _files_out(_read_files(files)),
                "params": dict(params) if params else None,
            }
        )

    async def connect(self, bot: discord.Client, clock: FakeClock | None = None) -> None:
        """Log ``bot`` in through the host (``setup_hook`` runs, as in production),
        give it READY and its guilds, tell the host it is ready, then deliver the host's
        gateway events and time until the host goes away. ``clock`` is the bot's
        :class:`FakeClock`, moved by the host's ``time`` messages."""
        self.clock = clock
        self.install()
        pump = asyncio.create_task(self._pump(bot), name="host-link")
        try:
            await bot.login("fake-token")
            state = bot._connection
            state.guild_ready_timeout = 0.01
            state._chunk_guilds = False  # chunking would ask a websocket that does not exist
            ready = self._hello["ready"]
            shards = FakeDiscord._shards(bot)  # a sharded client: a READY per shard
            if shards is None:
                state.parsers["READY"](ready)
            for shard, count in shards or ():
                held = [g for g in ready["guilds"] if shard_of(int(g["id"]), count) == shard]
                state.parsers["READY"]({**ready, "shard": [shard, count], "guilds": held})
            for guild in self._hello["guilds"]:
                state.parsers["GUILD_CREATE"](guild)
            await bot.wait_until_ready()
            self._writer.write(_line({"op": "ready"}))
            await pump
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump
            self.patch.undo()
            self._writer.close()

    async def _pump(self, bot: discord.Client) -> None:
        """Read the host's lines: replies to requests, gateway events, time."""
        while line := await self._reader.readline():
            message = json.loads(line)
            op = message["op"]
            if op == "reply":
                future = self._waiting.pop(message["id"], None)
                if future is not None and not future.done():
                    future.set_result(message)
            elif op == "event":
                bot._connection.parsers[message["t"]](message["d"])
            elif op == "time" and self.clock is not None:
                moment = datetime.fromisoformat(message["now"])
                if moment > self.clock.now():
                    self.clock.set(moment)
        for future in self._waiting.values():  # the host went away
            if not future.done():
                future.set_exception(ConnectionError("the Discord host closed the connection"))
