"""Fixtures shared by the whole test suite."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from bot.testing import FakeDiscord, discord_log_errors
from tests.storage.backends import INSTALL_HINT, PostgresServer, postgres_bindir


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests (``@pytest.mark.slow``) first: the suite is spread over every
    core (pytest-xdist hands tests out in this order), and a long test handed out last
    would run alone at the end while the other cores wait."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def fake_discord_problems(fake: FakeDiscord, caplog: pytest.LogCaptureFixture) -> list[str]:
    """Everything a Discord user would have noticed during a test using ``fake``.

    Unhandled routes and unanswered interactions come from the fake. Errors in command
    and view callbacks are only logged by discord.py, so ERROR records from ``discord.*``
    loggers count too. They are read per phase: inside a fixture's teardown,
    ``caplog.records`` only holds teardown records, which would give a false green.
    """
    records = [*caplog.get_records("setup"), *caplog.get_records("call")]
    # Our own error boundary logs what it catches (cogs.ui); a test must not hide those.
    return fake.problems() + discord_log_errors(records, prefixes=("discord", "cogs", "bot"))


async def finish_fake_discord(fake: FakeDiscord, caplog: pytest.LogCaptureFixture) -> None:
    """Close the fake's bots, then fail the test if `fake_discord_problems` finds anything."""
    await fake.shutdown()
    problems = fake_discord_problems(fake, caplog)
    if problems:
        pytest.fail("Discord problems:\n  " + "\n  ".join(problems), pytrace=False)


@pytest.fixture
async def fake(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[FakeDiscord]:
    """An offline Discord (see `bot.testing.FakeDiscord`), checked for problems at teardown."""
    harness = FakeDiscord(monkeypatch)
    yield harness
    await finish_fake_discord(harness, caplog)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The PostgreSQL server of this test process (started on first use)."""
    bindir = postgres_bindir()
    if bindir is None:
        pytest.fail(INSTALL_HINT, pytrace=False)
    server = PostgresServer(bindir)
    try:
        server.start()
        server.create_database()
    except Exception as exc:
        server.stop()
        pytest.fail(f"could not start a PostgreSQL server: {exc}", pytrace=False)
    yield server
    server.stop()
