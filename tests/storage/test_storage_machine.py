"""A stateful property test of the store (hypothesis): games created, actions appended
with the right or a stale version, two writers racing, an append cancelled midway,
snapshots and settings, in any order, against a model (SQLite only: a file per run).

After every step: each game's seqs run 1, 2, 3... without gaps, its version is the
number of appends that won, and its log is the model's. A stale append raises
:class:`StaleGameVersion` and writes nothing; of two racing appends at one version
exactly one wins; a cancelled append is all or nothing (the log and the version
agree). The run is small and derandomized; ``TALLYHO_HYPOTHESIS_EXAMPLES`` soaks it
(CONTRIBUTING).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import tempfile
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule

from bot.storage import SQLiteStorage, StaleGameVersion

T = TypeVar("T")
SOAK = int(os.environ.get("TALLYHO_HYPOTHESIS_EXAMPLES", "0"))
ACTION = st.sampled_from(("pass", "play 3", "fire A1", "undo 1", "é ✈"))


class StoreMachine(RuleBasedStateMachine):
    games = Bundle("games")

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="tallyho-machine-"))
        self.loop = asyncio.new_event_loop()
        self.store = self.run(SQLiteStorage.open(str(self.folder / "db.sqlite3")))
        self.logs: dict[int, list[tuple[str, str]]] = {}
        self.snapshots: dict[int, int] = {}
        self.settings: dict[int, dict[str, Any]] = {}

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coroutine)

    def teardown(self) -> None:
        self.run(self.store.close())
        self.loop.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    @rule(target=games, seed=st.integers(0, 2**62))
    def create_game(self, seed: int) -> int:
        record = self.run(
            self.store.create_game(
                guild_id=1, channel_id=2, host_id=3, system="dif", ruleset="zero", seed=seed
            )
        )
        self.logs[record.id] = []
        return record.id

    @rule(game=games, seat=st.sampled_from(("A1", "X1")), action=ACTION)
    def append(self, game: int, seat: str, action: str) -> None:
        version = self.run(self.store.append_action(game, len(self.logs[game]), seat, action))
        self.logs[game].append((seat, action))
        assert version == len(self.logs[game])

    @rule(game=games, off=st.sampled_from((-1, 1, 5)), action=ACTION)
    def append_stale(self, game: int, off: int, action: str) -> None:
        expected = len(self.logs[game]) + off
        if expected < 0:
            return
        try:
            self.run(self.store.append_action(game, expected, "A1", action))
        except StaleGameVersion:
            return
        raise AssertionError(f"an append at version {expected} was not refused")

    @rule(game=games, first=ACTION, second=ACTION)
    def race(self, game: int, first: str, second: str) -> None:
        version = len(self.logs[game])

        async def both() -> list[Any]:
            return await asyncio.gather(
                self.store.append_action(game, version, "A1", first),
                self.store.append_action(game, version, "X1", second),
                return_exceptions=True,
            )

        outcomes = self.run(both())
        won = [i for i, o in enumerate(outcomes) if o == version + 1]
        assert len(won) == 1, outcomes
        assert isinstance(outcomes[1 - won[0]], StaleGameVersion), outcomes
        self.logs[game].append(("A1", first) if won[0] == 0 else ("X1", second))

    @rule(game=games, action=ACTION, ticks=st.integers(0, 6))
    def cancelled(self, game: int, action: str, ticks: int) -> None:
        """An append cancelled after ``ticks`` turns of the loop: written whole or not
        at all."""

        async def cancel() -> None:
            task = asyncio.ensure_future(
                self.store.append_action(game, len(self.logs[game]), "A1", action)
            )
            for _ in range(ticks):
                await asyncio.sleep(0)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

        self.run(cancel())
        record = self.run(self.store.get_game(game))
        assert record is not None
        if record.version == len(self.logs[game]) + 1:
            self.logs[game].append(("A1", action))
        assert record.version == len(self.logs[game])

    @rule(game=games, data=st.data())
    def snapshot(self, game: int, data: st.DataObject) -> None:
        seq = data.draw(st.integers(0, len(self.logs[game])))
        self.run(self.store.put_snapshot(game, seq, {"seq": seq}))
        self.snapshots[game] = max(seq, self.snapshots.get(game, -1))

    @rule(user=st.integers(1, 3), value=st.dictionaries(st.sampled_from("abc"), st.integers()))
    def user_settings(self, user: int, value: dict[str, Any]) -> None:
        self.run(self.store.put_user_settings(user, value))
        self.settings[user] = value

    @invariant()
    def logs_match_the_model(self) -> None:
        for game, log in self.logs.items():
            record = self.run(self.store.get_game(game))
            assert record is not None
            assert record.version == record.last_seq == len(log)
            rows = self.run(self.store.load_actions(game))
            assert [r.seq for r in rows] == list(range(1, len(log) + 1))
            assert [(r.seat, r.action) for r in rows] == log
            latest = self.run(self.store.latest_snapshot(game))
            if game in self.snapshots:
                assert latest is not None and latest.seq == self.snapshots[game]
                assert latest.state == {"seq": latest.seq}
            else:
                assert latest is None

    @invariant()
    def settings_match_the_model(self) -> None:
        for user, value in self.settings.items():
            found = self.run(self.store.get_user_settings(user))
            assert found is not None and found.settings == value


StoreMachine.TestCase.settings = settings(
    max_examples=SOAK or 12,
    stateful_step_count=25,
    derandomize=not SOAK,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_store_machine = StoreMachine.TestCase
