"""The outbox (``bot.outbox``, ``cogs.outbox``): a move committed is told in its
thread once, in order, whatever stops the post: a crash (the task cancelled) right
after the commit, a crash after Discord accepted the post but before it was marked, a
send Discord refused. The crashed process is replaced by a new bot on the same
database, as a restart would; a refused send is retried by the running bot."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import cogs.outbox
import cogs.publisher
from bot.actionlog import undo_narration
from bot.outbox import untold
from bot.service import GameService
from bot.storage.sqlite import SQLiteStorage
from bot.testing import FakeDiscord, FakeUser
from bot.testing.driver import UiPlayer, components_of
from cogs.app import TallyHoBot
from engine.dif.game import default_engine
from strings import t, tr
from tests.bot.test_game_flow import make_bot, open_game
from tests.bot.test_snapshots import played

THREAD_POST = "POST /channels/{channel_id}/messages"


async def picked(
    fake: FakeDiscord, bot: TallyHoBot, alice: FakeUser, bob: FakeUser
) -> tuple[int, int]:
    """A Zero! 1v1 whose secret altitudes are picked: the first turn's move is asked."""
    game_id, thread = await open_game(fake, bot, alice, bob)
    for user in (alice, bob):
        await UiPlayer(fake, user, game_id, thread).act("alt M")
    return game_id, thread


async def mover(bot: TallyHoBot, game_id: int, alice: FakeUser, bob: FakeUser) -> FakeUser:
    game = await bot.service.load(game_id)
    assert game.state is not None
    return alice if default_engine().pending(game.state)[0].seat == "A1" else bob


async def hand_button(
    fake: FakeDiscord, user: FakeUser, game_id: int, thread: int
) -> tuple[dict[str, Any], str]:
    """The user's hand (pressing **My hand**) and the custom_id of one action button."""
    hand = await UiPlayer(fake, user, game_id, thread).open_hand()
    button = next(
        str(c["custom_id"])
        for c in components_of(hand)
        if str(c.get("custom_id", "")).startswith("th:a:")
    )
    return hand, button


async def restart(fake: FakeDiscord, bot: TallyHoBot, db: Path) -> TallyHoBot:
    await bot.close()
    fresh = make_bot(db)
    await fake.start(fresh)
    return fresh


def crash_in(target: Any, name: str) -> None:
    """The process stops (its task cancelled) when ``target.name`` is next called; the
    call after that runs as usual."""
    real = getattr(target, name)

    async def stop(*args: Any, **kwargs: Any) -> None:
        setattr(target, name, real)
        raise asyncio.CancelledError

    setattr(target, name, stop)


async def told(bot: TallyHoBot, game_id: int) -> tuple[int, int]:
    record = await bot.service.storage.get_game(game_id)
    assert record is not None
    return record.posted_seq, record.last_seq


async def test_a_crash_right_after_the_move_is_told_once_after_the_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    db = tmp_path / "game.sqlite3"
    bot = make_bot(db)
    game_id, thread = await picked(fake, bot, alice, bob)
    user = await mover(bot, game_id, alice, bob)
    hand, button = await hand_button(fake, user, game_id, thread)
    before = len(fake.sent_to(thread))
    crash_in(cogs.publisher, "tell")  # killed between the commit and the post
    await fake.click(user, hand, button)
    posted, last = await told(bot, game_id)
    assert posted < last, "the move is committed, its post never came"
    assert len(fake.sent_to(thread)) == before

    bot = await restart(fake, bot, db)
    assert await told(bot, game_id) == (last, last)
    new = fake.sent_to(thread)[before:]
    assert len(new) == 1, "told once"
    expected = await untold(bot.service, game_id, posted)
    assert expected is not None and expected.public
    for line in expected.public:
        assert tr(line, "en") in new[0]["content"]
    game = await bot.service.load(game_id)
    assert game.state is not None
    waiting = game.holder(default_engine().pending(game.state)[0].seat)
    assert f"<@{waiting}>" in new[0]["content"], "the next player is pinged"
    assert any(p.message_id == int(new[0]["id"]) and waiting in p.users for p in fake.pings)
    assert bool(fake.files(new[0])) == expected.image
    assert any(
        str(c.get("custom_id")) == f"th:hand:{game_id}:{last}" for c in components_of(new[0])
    )

    bot = await restart(fake, bot, db)
    assert len(fake.sent_to(thread)) == before + 1, "nothing told twice"

    # The player retries the button: the move went through, and they are told so.
    token = await fake.click(user, hand, button)
    answer = fake.original(token)["content"]
    assert t("refusal.already_played", "en", action=button.rsplit(":", 1)[-1]) in answer
    assert await told(bot, game_id) == (last, last), "nothing changed"
    await bot.close()


async def test_a_crash_after_discord_accepted_the_post_tells_nothing_twice(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The post went out but the mark was never written: the thread's message carries
    the seq it told, so the restart marks it instead of posting it again."""
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    db = tmp_path / "game.sqlite3"
    bot = make_bot(db)
    game_id, thread = await picked(fake, bot, alice, bob)
    user = await mover(bot, game_id, alice, bob)
    hand, button = await hand_button(fake, user, game_id, thread)
    before = len(fake.sent_to(thread))
    crash_in(bot.service.storage, "mark_posted")
    await fake.click(user, hand, button)
    posted, last = await told(bot, game_id)
    assert posted < last and len(fake.sent_to(thread)) == before + 1, "posted, not marked"

    bot = await restart(fake, bot, db)
    assert await told(bot, game_id) == (last, last)
    assert len(fake.sent_to(thread)) == before + 1, "not posted again"
    await bot.close()


def failing_thread(fake: FakeDiscord, thread: int, times: int = 10**9) -> list[int]:
    """The next ``times`` posts in the thread time out (DMs still go), or all of them
    until the list returned is cleared; it holds the thread's id once per post refused,
    after a first entry."""
    real = fake.routes[THREAD_POST]
    refused = [thread]

    def post(call: Any) -> Any:
        if refused and len(refused) <= times and int(call.args["channel_id"]) == thread:
            refused.append(thread)
            raise TimeoutError("Discord did not answer")
        return real(call)

    fake.routes[THREAD_POST] = post
    return refused


async def test_a_refused_send_is_retried_and_told_once(
    fake: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    db = tmp_path / "game.sqlite3"
    bot = make_bot(db)
    game_id, thread = await picked(fake, bot, alice, bob)
    user = await mover(bot, game_id, alice, bob)
    hand, button = await hand_button(fake, user, game_id, thread)
    before = len(fake.sent_to(thread))
    posted, _ = await told(bot, game_id)
    monkeypatch.setattr(cogs.outbox, "RETRY_DELAYS", (0.0,))
    refused = failing_thread(fake, thread, times=2)  # the post, then the first retry
    await fake.click(user, hand, button)
    await fake.settle()
    _, last = await told(bot, game_id)
    assert last > posted and len(refused) == 3, "refused twice, then accepted"
    assert f"game {game_id}: could not be told" in caplog.text
    assert f"game {game_id}: retry 1 of its post failed" in caplog.text
    assert await told(bot, game_id) == (last, last)
    new = fake.sent_to(thread)[before:]
    assert len(new) == 1 and not bot.outbox.behind(game_id)
    expected = await untold(bot.service, game_id, posted)
    assert expected is not None and expected.public
    assert all(tr(line, "en") in new[0]["content"] for line in expected.public)
    await bot.close()


async def test_two_moves_committed_while_posts_fail_are_told_in_order(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    db = tmp_path / "game.sqlite3"
    bot = make_bot(db)
    game_id, thread = await picked(fake, bot, alice, bob)
    before = len(fake.sent_to(thread))
    posted, _ = await told(bot, game_id)
    monkeypatch.setattr(cogs.outbox, "RETRY_DELAYS", (3600.0,))
    refused = failing_thread(fake, thread)
    for _ in range(2):  # the second move's post catches up first, and fails too
        user = await mover(bot, game_id, alice, bob)
        hand, button = await hand_button(fake, user, game_id, thread)
        await fake.click(user, hand, button)
    _, last = await told(bot, game_id)
    assert len(refused) == 3 and len(fake.sent_to(thread)) == before
    assert (await told(bot, game_id))[0] == posted

    refused.clear()
    bot = await restart(fake, bot, db)
    assert await told(bot, game_id) == (last, last)
    new = fake.sent_to(thread)[before:]
    assert len(new) == 1, "both steps in one post, as moves made together are"
    rows = await bot.service.storage.load_actions(game_id, after_seq=posted)
    assert len(rows) >= 2, "two moves (and any made without asking)"
    expected = await untold(bot.service, game_id, posted)
    assert expected is not None and expected.public
    content, at = new[0]["content"], 0
    for line in expected.public:  # in the order they were played
        at = content.index(tr(line, "en"), at)
    await bot.close()


async def test_the_untold_outcome_is_the_log_replayed_after_the_watermark(tmp_path: Path) -> None:
    """``bot.outbox.untold``: the narration of the actions after the watermark (an undo
    marker's line included), a prompt new only if it was not pending at the watermark,
    a picture only when the turn changed; nothing once everything is told."""
    storage = await SQLiteStorage.open(str(tmp_path / "g.sqlite3"))
    try:
        service = GameService(storage, seed_source=lambda: 9)
        game = await played(service, 6)
        rows = await storage.load_actions(game.id)
        async with service.locks(game.id):
            game = (await service.take_back(game, 6, "undo")).game
        outcome = await untold(service, game.id, 5)
        assert outcome is not None and game.state is not None
        assert outcome.public[-1] == undo_narration(6, rows[-1].seat or "")
        assert not outcome.image, "back where it was: the same turn"
        assert outcome.prompts and not any(p.new for p in outcome.prompts)
        everything = await untold(service, game.id)  # nothing was posted: from the start
        assert everything is not None and len(everything.public) > len(outcome.public)
        await storage.mark_posted(game.id, game.record.last_seq)
        assert await untold(service, game.id) is None
    finally:
        await storage.close()
