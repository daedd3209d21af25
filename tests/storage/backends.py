"""The two backends of the storage suite: SQLite and a real PostgreSQL server.

Tests ask for ``database`` (a fresh, migrated database of each backend in turn) and
open as many stores on it as they need; ``store`` fixtures in the test modules open
one. The PostgreSQL server is started by the tests themselves, once per pytest process
(each xdist worker has its own): ``initdb`` into a temporary folder, ``pg_ctl start``
on a Unix socket only, no TCP port, durability off (a test server loses nothing worth
keeping), stopped and deleted at the end. Each test gets a fresh database: an empty
schema of its own, which the store migrates as it would a new database. As root (CI,
containers) the server runs as ``nobody``: PostgreSQL refuses to run as root.

The binaries are PostgreSQL's own (Debian's ``postgresql`` package: ``.ci/run``
installs it when absent): ``TALLYHO_PG_BINDIR`` if set, else ``pg_config --bindir``,
else ``initdb`` on the PATH, else the newest ``/usr/lib/postgresql/*/bin``. Without
them the PostgreSQL tests fail (never skip) and say how to install them.
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from bot.storage import Clock, SQLiteStorage, Storage, open_storage, utc_now

T = TypeVar("T")

BACKENDS = ("sqlite", "sqlite-inline", "postgresql")
"""SQLite twice: writing as on a disk (in groups, on the database's thread) and as on a
memory file system (on the event loop's thread), whichever the test machine's disk is
(``bot.storage.sqlite_disk``)."""
DATABASE = "tallyho"
INSTALL_HINT = (
    "the storage tests need PostgreSQL's server binaries (initdb, pg_ctl, postgres): "
    "on Debian or Ubuntu `apt-get install postgresql` (.ci/run does it), or set "
    "TALLYHO_PG_BINDIR to the folder holding them"
)


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end on a new event loop in a new thread (usable from
    synchronous fixtures whether or not an event loop is running)."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(asyncio.run(coroutine))
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


def postgres_bindir() -> Path | None:
    """The folder of PostgreSQL's server binaries, or None if there is none."""
    candidates: list[str] = []
    if os.environ.get("TALLYHO_PG_BINDIR"):
        candidates.append(os.environ["TALLYHO_PG_BINDIR"])
    if shutil.which("pg_config"):
        found = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True)
        candidates.append(found.stdout.strip())
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(str(Path(initdb).resolve().parent))
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    candidates += sorted(versions, key=lambda p: int(Path(p).parent.name), reverse=True)
    for folder in candidates:
        path = Path(folder)
        if all((path / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return path
    return None


class PostgresServer:
    """A throw-away PostgreSQL server in a temporary folder, on a Unix socket."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        # As root the server's user must reach the folder: /tmp, not a private TMPDIR.
        parent = "/tmp" if os.geteuid() == 0 else None
        self.root = Path(tempfile.mkdtemp(prefix="tallyho-pg-", dir=parent))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._names = itertools.count(1)
        self._user: str | None = None
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            self._user = "nobody"
            account = pwd.getpwnam(self._user)
            os.chown(self.root, account.pw_uid, account.pw_gid)

    def _run(self, *args: str) -> None:
        """Run one of the server's programs as the server's user; fail with its output."""
        done = subprocess.run(
            [str(self.bindir / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            user=self._user,
            group=None if self._user is None else pwd.getpwnam(self._user).pw_gid,
            extra_groups=None if self._user is None else [],
            cwd=self.root,
        )
        if done.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args)} failed:\n{done.stdout}{done.stderr}{log}")

    def start(self, settings: str = "") -> None:
        """initdb, then start the server and wait until it accepts connections;
        ``settings``: more of the server's command-line options (``-c name=value``)."""
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
            "--encoding=UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip
        options = (
            f"-k {self.root} -c listen_addresses='' -F -c full_page_writes=off "
            "-c synchronous_commit=off -c shared_buffers=16MB -c max_connections=60 "
            f"{settings}"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-o", options, "start")

    def stop(self) -> None:
        """Stop the server (at once: nothing in it is kept) and delete its folder."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def create_database(self) -> None:
        """Create the database the tests share (each test has a schema of its own)."""
        run_async(self._execute("postgres", f"CREATE DATABASE {DATABASE}"))

    def url(self, database: str = DATABASE, schema: str | None = None) -> str:
        """The connection URL of one of the server's databases; with ``schema``, a
        connection that sees that schema only (asyncpg passes ``search_path`` on to
        the server as a setting)."""
        url = f"postgresql://postgres@/{database}?host={self.root}"
        return url if schema is None else f"{url}&search_path={schema}"

    async def _execute(self, database: str, sql: str) -> None:
        conn = await asyncpg.connect(self.url(database))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    def new_database(self) -> str:
        """A new, empty schema: as good as a fresh database to the store, far cheaper
        to make (a ``CREATE DATABASE`` takes half a second); the URL seeing it."""
        schema = f"test_{next(self._names)}"
        run_async(self._execute(DATABASE, f"CREATE SCHEMA {schema}"))
        return self.url(schema=schema)


@dataclass(frozen=True)
class Database:
    """A fresh, migrated database of one backend: every :meth:`open` is one more store
    (one more process, as far as the database can tell) on the same data."""

    backend: str
    """One of :data:`BACKENDS`."""
    location: str
    """What ``TALLYHO_DATABASE`` would say: a file path or a ``postgresql://`` URL."""

    async def open(self, clock: Clock = utc_now) -> Storage:
        if self.backend.startswith("sqlite"):
            inline = self.backend == "sqlite-inline"
            return await SQLiteStorage.open(self.location, clock=clock, inline=inline)
        return await open_storage(self.location, clock=clock)
