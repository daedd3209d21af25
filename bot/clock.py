"""Clocks: where the bot reads the time and how it waits for a moment to come.

Everything that depends on the time (deadlines, reminders, the scheduler's task) takes
a :class:`Clock`, so tests run against a :class:`FakeClock` they move by hand and never
sleep for real. Both clocks are also callables returning ``now()``, which makes them
usable wherever the storage layer expects its :data:`bot.storage.base.Clock` (a plain
``Callable[[], datetime]``): a test can give one fake clock to the store and to the
scheduler.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable

__all__ = ["Clock", "FakeClock", "SystemClock", "as_utc"]


def as_utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC datetime; ``ValueError`` on a naive one."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"expected an aware datetime, got naive {moment!r}")
    return moment.astimezone(UTC)


@runtime_checkable
class Clock(Protocol):
    """The time, and a way to wait for it."""

    def now(self) -> datetime:
        """The current time, an aware datetime in UTC."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait until ``seconds`` have passed on this clock (0 or less: yield once)."""
        ...

    async def sleep_until(self, moment: datetime) -> None:
        """Wait until the clock reads ``moment`` (past: yield once). Prefer it to
        :meth:`sleep` for a time computed earlier: the clock may move between the
        computation and the moment the sleep starts."""
        ...

    def __call__(self) -> datetime:
        """Same as :meth:`now` (the storage layer's clock is a plain callable)."""
        ...


class SystemClock:
    """The real time (UTC) and :func:`asyncio.sleep`."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    async def sleep_until(self, moment: datetime) -> None:
        await asyncio.sleep(max(0.0, (as_utc(moment) - self.now()).total_seconds()))

    def __call__(self) -> datetime:
        return self.now()

    def __repr__(self) -> str:
        return "SystemClock()"


class FakeClock:
    """A clock that moves only when told to (tests).

    :meth:`sleep` does not wait for real: the sleeper wakes when :meth:`advance` or
    :meth:`set` moves the clock to or past its wake time. :meth:`advance` and
    :meth:`set` are synchronous; the woken coroutines run at the test's next ``await``
    (``await asyncio.sleep(0)`` a few times, or await the scheduler directly).
    """

    def __init__(self, start: datetime | None = None) -> None:
        self._now = as_utc(start) if start is not None else datetime(2024, 1, 1, tzinfo=UTC)
        self._sleepers: list[tuple[datetime, int, asyncio.Future[None]]] = []
        self._ids = itertools.count()

    def now(self) -> datetime:
        return self._now

    def __call__(self) -> datetime:
        return self._now

    def set(self, moment: datetime) -> None:
        """Move the clock to ``moment`` (not backwards: ``ValueError``)."""
        moment = as_utc(moment)
        if moment < self._now:
            raise ValueError(f"a FakeClock does not go back ({moment} < {self._now})")
        self._now = moment
        self._wake()

    def advance(self, delta: timedelta | float = 0) -> datetime:
        """Move the clock forward by ``delta`` (a timedelta or seconds); return now."""
        step = delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
        self.set(self._now + step)
        return self._now

    async def sleep(self, seconds: float) -> None:
        await self.sleep_until(self._now + timedelta(seconds=max(0.0, seconds)))

    async def sleep_until(self, moment: datetime) -> None:
        wake = as_utc(moment)
        if wake <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (wake, next(self._ids), future))
        await future

    @property
    def sleepers(self) -> int:
        """How many coroutines are sleeping on this clock (cancelled ones excluded)."""
        return sum(1 for _, _, f in self._sleepers if not f.done())

    def _wake(self) -> None:
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)

    def __repr__(self) -> str:
        return f"FakeClock({self._now.isoformat()})"
