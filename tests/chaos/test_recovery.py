"""Two losses the chaos test (``tests/chaos/test_chaos.py``) found, each replayed in
one process at the moment a kill hit: a crash between a change's commit and the sync of
the deadlines left the next decision without one (the game waited for ever; a move now
writes its deadlines with it, a start still does not, and the start-up sweep mends
it), and a crash between a game's last step and its after-action report lost the
report."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import cogs.publisher
from bot.clock import FakeClock
from bot.testing import FakeDiscord
from bot.testing.driver import components_of
from cogs.app import TallyHoBot
from strings import t, tr
from tests.bot.clocked import FIXED, START, make_bot, open_duel
from tests.bot.test_outbox import crash_in, told


async def restart(fake: FakeDiscord, bot: TallyHoBot, db: Path, clock: FakeClock) -> TallyHoBot:
    await bot.close()
    fresh = make_bot(db, clock)
    await fake.start(fresh)
    return fresh


def live(bot: TallyHoBot, game_id: int) -> set[tuple[str, str]]:
    assert bot.deadlines is not None
    return {(d.seat, d.kind) for d in bot.deadlines.scheduler.of_game(game_id)}


async def pending(bot: TallyHoBot, game_id: int) -> set[tuple[str, str]]:
    game = await bot.service.load(game_id)
    assert game.state is not None
    return {(p.seat, p.kind) for p in game.system.pending(game.state)}


async def test_a_crash_right_after_a_move_leaves_its_deadlines_written(tmp_path: Path) -> None:
    """A move writes the next decision's deadline with its actions (one transaction):
    killed right after the commit, the game still has it, before and after a restart."""
    fake = FakeDiscord()
    try:
        alice, bob = fake.add_member("alice"), fake.add_member("bob")
        clock = FakeClock(START)
        db = tmp_path / "g.sqlite3"
        bot = make_bot(db, clock)
        game_id, thread = await open_duel(fake, bot, alice, bob, fixed=FIXED)
        crash_in(bot.service, "_changed")  # killed right after the commit
        await fake.slash(alice, "play", channel_id=thread, text="stay")
        now = await pending(bot, game_id)
        assert now and live(bot, game_id) == now
        bot = await restart(fake, bot, db, clock)
        assert bot.deadlines is not None and bot.deadlines.swept is not None
        await bot.deadlines.swept
        assert live(bot, game_id) == now
        await bot.close()
    finally:
        await fake.shutdown()
        fake.patch.undo()


async def test_a_crash_before_a_starts_deadlines_are_written_is_mended_at_start_up(
    tmp_path: Path,
) -> None:
    """A change that does not write its deadlines with it (a start, a seat handed
    over, an undo) killed before they are: the start-up sweep opens them."""
    fake = FakeDiscord()
    try:
        alice, bob = fake.add_member("alice"), fake.add_member("bob")
        clock = FakeClock(START)
        db = tmp_path / "g.sqlite3"
        bot = make_bot(db, clock)
        await fake.start(bot)
        crash_in(bot.service, "_changed")  # the start's: killed before its deadlines
        game_id, _ = await open_duel(fake, bot, alice, bob, fixed=FIXED)
        now = await pending(bot, game_id)
        assert now and not now <= live(bot, game_id), "the first decisions have no deadline"
        bot = await restart(fake, bot, db, clock)
        assert bot.deadlines is not None and bot.deadlines.swept is not None
        await bot.deadlines.swept
        assert live(bot, game_id) == now, "the start-up sweep opened them"
        await bot.close()
    finally:
        await fake.shutdown()
        fake.patch.undo()


async def finish(fake: FakeDiscord, bot: TallyHoBot, game_id: int, thread: int) -> None:
    """Play the duel to its end through ``/play``: an action that ends it whenever
    there is one, else the first legal one."""
    for _ in range(500):
        game = await bot.service.load(game_id)
        state = game.state
        assert state is not None
        system = game.system
        if system.is_over(state):
            return
        seat = system.pending(state)[0].seat
        legal = system.legal_actions(state, seat)
        ending = [a for a in legal if system.is_over(system.apply(state, seat, a)[0])]
        user = game.holder(seat)
        await fake.slash(user, "play", channel_id=thread, text=str((ending or legal)[0]))
    raise AssertionError("the duel did not end")


async def test_a_crash_before_the_after_action_report_posts_it_once_after_the_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    db = tmp_path / "g.sqlite3"
    bot = make_bot(db, clock)
    game_id, thread = await open_duel(fake, bot, alice, bob, fixed=FIXED)
    crash_in(cogs.publisher, "post_after_action")  # killed between the end and the report
    await finish(fake, bot, game_id, thread)
    posted, last = await told(bot, game_id)
    assert posted < last, "the end is posted, the report is not: not told yet"
    record = await bot.service.storage.get_game(game_id)
    assert record is not None
    seed_line = t("history.seed", "en", seed=record.seed).removesuffix(".")

    def reports() -> int:
        return sum(seed_line in (m.get("content") or "") for m in fake.sent_to(thread))

    assert reports() == 0
    bot = await restart(fake, bot, db, clock)
    assert await told(bot, game_id) == (last, last)
    assert reports() == 1
    bot = await restart(fake, bot, db, clock)
    await asyncio.sleep(0)
    assert reports() == 1, "not twice"
    await bot.close()


async def test_a_crash_before_a_resignation_is_told_tells_it_and_its_report_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A resignation adds no action to the log: its end is recorded untold with the
    status (``end_told``), and a restart tells it, the after-action report after it,
    once; a crash between the two posts only the report afterwards."""
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    db = tmp_path / "g.sqlite3"
    bot = make_bot(db, clock)
    game_id, thread = await open_duel(fake, bot, alice, bob, fixed=FIXED)
    before = len(fake.sent_to(thread))
    crash_in(cogs.publisher, "tell")  # killed between the resignation and its post
    token = await fake.slash(alice, "game resign", channel_id=thread, confirm=True)
    assert fake.original(token)["content"].endswith(t("game.resigned", "en"))
    record = await bot.service.storage.get_game(game_id)
    assert record is not None and record.status == "finished" and not record.end_told
    assert len(fake.sent_to(thread)) == before, "nothing told"

    def saying(text: str) -> list[dict[str, Any]]:
        """The thread's messages with a line starting with ``text``."""
        return [
            m
            for m in fake.sent_to(thread)
            if any(line.startswith(text) for line in (m.get("content") or "").splitlines())
        ]

    verdict = "Victory for the Japanese side: the Allied side resigned."
    report = t("history.seed", "en", seed=record.seed).removesuffix(".")
    bot = await restart(fake, bot, db, clock)
    [end] = saying(verdict)
    assert len(saying(report)) == 1
    marker = f"th:hand:{game_id}:{record.last_seq}:end"
    assert marker in [c.get("custom_id") for c in components_of(end)]
    told = await bot.service.storage.get_game(game_id)
    assert told is not None and told.end_told
    bot = await restart(fake, bot, db, clock)
    assert (len(saying(verdict)), len(saying(report))) == (1, 1), "nothing twice"

    # Another duel: the resignation is told, the crash comes before the report.
    game_id, thread = await open_duel(fake, bot, alice, bob, fixed=FIXED)
    crash_in(cogs.publisher, "post_after_action")
    await fake.slash(bob, "game resign", channel_id=thread, confirm=True)
    record = await bot.service.storage.get_game(game_id)
    assert record is not None and not record.end_told
    resigns = f"<@{bob.id}> resigns."
    report = t("history.seed", "en", seed=record.seed).removesuffix(".")
    assert (len(saying(resigns)), len(saying(report))) == (1, 0)
    bot = await restart(fake, bot, db, clock)
    assert (len(saying(resigns)), len(saying(report))) == (1, 1)
    assert saying("Victory for the Allied side") == [], "the end is told once"
    told = await bot.service.storage.get_game(game_id)
    assert told is not None and told.end_told
    await bot.close()


async def test_a_crash_before_a_start_is_told_tells_it_once_after_the_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A start adds no action to the log either: it is recorded untold with the status
    (``start_told``), and a restart tells it as the start would have (the start's
    lines, its seed commitment, the first decisions' pings), once. The start command's
    own answer ("the dogfight begins") is posted then only if it was lost too."""
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    db = tmp_path / "g.sqlite3"
    bot = make_bot(db, clock)
    await fake.start(bot)

    async def counts(game_id: int, thread: int) -> tuple[int, int, int]:
        """How many of the thread's messages say the game begins, show its seed
        commitment, and ping whoever decides first."""
        game = await bot.service.load(game_id)
        begins = tr(game.presenter.begins(game.options), "en")
        commitment = t("history.commitment", "en", commitment=game.record.options["commitment"])
        assert game.state is not None
        presenter = game.system.presenter()
        pings = [
            t("publish.ping", "en", user=f"<@{game.holder(p.seat)}>", prompt=prompt)
            for p in game.system.pending(game.state)
            if (prompt := tr(presenter.prompt(game.state, p), "en"))
        ]
        assert pings
        texts = [m.get("content") or "" for m in fake.sent_to(thread)]
        return (
            sum(begins in text for text in texts),
            sum(commitment in text for text in texts),
            sum(any(ping in text for ping in pings) for text in texts),
        )

    # Killed right after the start's commit: neither the answer nor the step is out.
    crash_in(bot.service, "_changed")
    game_id, thread = await open_duel(fake, bot, alice, bob, fixed=FIXED)
    record = await bot.service.storage.get_game(game_id)
    assert record is not None and record.status == "active" and not record.start_told
    assert await counts(game_id, thread) == (0, 0, 0)
    # The killed process never answered the command (Discord says it did not respond).
    [killed] = [token for token, i in fake.interactions.items() if i.callback_type is None]
    del fake.interactions[killed]
    bot = await restart(fake, bot, db, clock)
    assert await counts(game_id, thread) == (1, 1, 1)
    told = await bot.service.storage.get_game(game_id)
    assert told is not None and told.start_told and told.posted_seq == told.last_seq
    bot = await restart(fake, bot, db, clock)
    assert await counts(game_id, thread) == (1, 1, 1), "nothing twice"

    # Killed after the answer, before the step's post: the step only.
    crash_in(bot.publisher, "publish")
    game_id, thread = await open_duel(fake, bot, alice, bob, fixed=FIXED)
    assert await counts(game_id, thread) == (1, 0, 0)
    bot = await restart(fake, bot, db, clock)
    assert await counts(game_id, thread) == (1, 1, 1)
    await bot.close()


async def test_a_crash_before_a_handover_is_told_tells_it_once_after_the_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A seat handed over is a marker in the log, written with the new holder: killed
    before the thread is told, a restart tells the handover's line once, and the log
    still replays (the marker changes nothing in the game)."""
    alice, bob, carol = (fake.add_member(name) for name in ("alice", "bob", "carol"))
    clock = FakeClock(START)
    db = tmp_path / "g.sqlite3"
    bot = make_bot(db, clock)
    game_id, thread = await open_duel(fake, bot, alice, bob, fixed=FIXED)
    game = await bot.service.load(game_id)
    [seat] = game.seats_of(bob.id)
    crash_in(cogs.publisher, "tell")  # killed between the handover and its post
    await fake.slash(alice, "game sub", channel_id=thread, member=carol, seat=seat)
    line = f"from <@{bob.id}> to <@{carol.id}>."

    def told() -> int:
        return sum(line in (m.get("content") or "") for m in fake.sent_to(thread))

    record = await bot.service.storage.get_game(game_id)
    assert record is not None and record.posted_seq < record.last_seq and told() == 0
    rows = await bot.service.storage.load_actions(game_id)
    assert rows[-1].seat is None and rows[-1].action.startswith(f"seat {seat} ")
    bot = await restart(fake, bot, db, clock)
    assert told() == 1
    game = await bot.service.load(game_id)
    assert game.holder(seat) == carol.id
    bot = await restart(fake, bot, db, clock)
    assert told() == 1, "nothing twice"
    token = await fake.slash(alice, "game undo", channel_id=thread)  # behind the handover
    assert fake.original(token)["content"].endswith(t("seats.undo_handed_over", "en"))
    await finish(fake, bot, game_id, thread)  # carol flies on; the log replays to the end
    token = await fake.slash(alice, "game verify", channel_id=thread)
    assert t("verify.ok", "en") in (fake.original(token).get("content") or "")
    await bot.close()
