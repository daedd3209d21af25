"""What the SQLite store needs to know of the disk under its file, and the checkpoints
it runs itself (:class:`bot.storage.sqlite.SQLiteStorage`).

A durable commit (``synchronous=FULL`` in WAL mode: one fsync of the log) costs what
the disk's fsync costs. On a disk that is about half a millisecond, well spent on a
thread while the event loop goes on (the store's group commit shares one fsync among
the writes queued meanwhile). On a memory file system, or a disk whose cache survives
a power cut, it is a few microseconds, less than the trip to a thread and back (about
0.15 ms, plus the interpreter lock passed back and forth while both run): there the
store writes on the event loop. :func:`durable_write_seconds` tells them apart when
the store opens.

Writing on the event loop, the store turns SQLite's automatic checkpoint off (it would
copy the log into the database file on the loop, every thousand pages) and runs
:class:`Checkpointer` instead, on a thread of its own.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import math
import os
import sqlite3
import statistics
import tempfile
import time

__all__ = ["CHECKPOINT_BYTES", "INLINE_SECONDS", "Checkpointer", "durable_write_seconds"]

log = logging.getLogger(__name__)

INLINE_SECONDS = 0.0001
"""A durable write this fast costs less than a trip to a thread and back: the store
writes on the event loop."""

CHECKPOINT_BYTES = 16 * 1024 * 1024
"""The log's size past which a checkpoint starts. SQLite's automatic one is at 1,000
pages (4 MiB with 4 KiB pages), and a move writes about 130 KiB of log (three commits
of whole pages): at 4 MiB, ``bench/latency.py`` ran ten checkpoints in 300 moves one at
a time, and the move beside each was among the slowest replies (a move's reply p99 at
9.4-12 times the no-op command's in ten runs). At 16 MiB, a quarter as many, each
copying a hot page once for four times as many commits: 9.0 times in two runs, and
7.9-9.1 times at 64 MiB in four; the replies' p50 and the moves a second unchanged."""


def durable_write_seconds(folder: str, *, samples: int = 5) -> float:
    """The median time of a 4 KiB write and its fsync, in a scratch file of ``folder``
    (the cost of a commit's fsync on the disk under it); infinite if no scratch file
    can be written there (the store then writes as on a slow disk)."""
    times = []
    try:
        with tempfile.TemporaryFile(dir=folder) as scratch:
            fd = scratch.fileno()
            for _ in range(samples):
                start = time.perf_counter()
                os.pwrite(fd, os.urandom(4096), 0)
                os.fsync(fd)
                times.append(time.perf_counter() - start)
    except OSError as exc:
        log.warning("could not time a durable write in %s: %s", folder, exc)
        return math.inf
    return statistics.median(times)


class Checkpointer:
    """Checkpoints of one database's write-ahead log, on a thread, from a connection
    of their own: :meth:`wrote` after each commit starts one once the log passed
    :data:`CHECKPOINT_BYTES`, unless one is running; :meth:`close` waits for it.

    A passive checkpoint never waits for the writer, and the writer's next transaction
    restarts the log once every frame is in the database file (it syncs the log, then
    the database file, as the automatic one does). The log's size is its file's: the
    writing connection truncates the file when it restarts the log
    (``journal_size_limit = 0``, ``SQLiteStorage.open``). Without that SQLite keeps the
    file at its largest and writes over it, and once past the size a checkpoint
    started after nearly every commit (three a move in ``bench/latency.py``), its
    thread taking the interpreter's lock from the event loop's."""

    def __init__(self, database: str) -> None:
        self._database = database
        self._log = database + "-wal"
        self._thread = concurrent.futures.ThreadPoolExecutor(1, "sqlite-checkpoint")
        self._running: asyncio.Future[None] | None = None
        self.runs = 0
        """How many checkpoints started (for tests)."""

    def wrote(self) -> None:
        """A commit was made: start a checkpoint if the log is due one."""
        if self._running is not None and not self._running.done():
            return
        try:
            size = os.stat(self._log).st_size
        except FileNotFoundError:
            return
        if size >= CHECKPOINT_BYTES:
            loop = asyncio.get_running_loop()
            self._running = asyncio.ensure_future(
                loop.run_in_executor(self._thread, self._checkpoint)
            )
            self._running.add_done_callback(_logged)
            self.runs += 1

    async def settled(self) -> None:
        """Wait for the checkpoint under way, if any."""
        if self._running is not None and not self._running.done():
            await asyncio.wait([self._running])

    def _checkpoint(self) -> None:
        db = sqlite3.connect(self._database, isolation_level=None, timeout=0)
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            db.close()

    async def close(self) -> None:
        """Wait for the checkpoint under way, then let the thread go."""
        await self.settled()
        self._thread.shutdown(wait=True)


def _logged(done: asyncio.Future[None]) -> None:
    """Log a checkpoint that failed (the next commit starts another)."""
    if not done.cancelled() and done.exception() is not None:
        log.warning("a WAL checkpoint failed", exc_info=done.exception())
