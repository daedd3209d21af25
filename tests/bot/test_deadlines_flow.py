"""Deadlines through the real bot on the offline Discord, with a controllable clock.

A response deadline passes and the default applies; reminders fire the configured
number of times; a restart between a reminder and the deadline neither loses nor
duplicates anything; vacation pauses a seat's deadline; fast mode passes a defender
without a response; a spectator who follows gets the moves by DM, never a hand;
standing orders answer for an absent player.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.clock import FakeClock
from bot.storage.models import DeadlineRecord
from bot.testing import FakeDiscord, FakeUser
from cogs.app import TallyHoBot
from engine.dif.game import default_engine
from tests.bot.clocked import FIXED, START, advance, log_of, make_bot, open_duel


async def attack(
    fake: FakeDiscord, bot: TallyHoBot, alice: FakeUser, game_id: int, thread: int
) -> None:
    for text in ("stay", "play MAN X1L"):
        await fake.slash(alice, "play", channel_id=thread, text=text)
    state = (await bot.service.load(game_id)).state
    assert state is not None and [p.kind for p in default_engine().pending(state)] == ["respond"]


def thread_texts(fake: FakeDiscord, thread: int) -> list[str]:
    return [m.get("content") or "" for m in fake.sent_to(thread)]


PLANNED_BY = ("id", "seat", "kind", "user_id", "due_at", "expires_at", "bank_seconds", "fired_at")
"""What a move's planning reads of a game's live deadlines (``DeadlineScheduler.plan``)."""


async def held_as_stored(bot: TallyHoBot, game_id: int) -> None:
    """The scheduler holds the game's live deadlines as the database has them: on a
    SQLite file, one process's, a move plans from the held copy without reading it
    (``Storage.shared``)."""
    assert bot.deadlines is not None and not bot.service.storage.shared
    held = bot.deadlines.scheduler.of_game(game_id)
    stored = await bot.service.storage.live_deadlines(game_id)

    def planned(records: list[DeadlineRecord]) -> list[tuple[object, ...]]:
        return sorted(tuple(getattr(d, name) for name in PLANNED_BY) for d in records)

    assert planned(held) == planned(stored)


async def test_response_deadline_passes_and_no_response_applies(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob, response_hours=2.0)
    await held_as_stored(bot, game_id)
    await attack(fake, bot, alice, game_id, thread)
    await held_as_stored(bot, game_id)
    await advance(fake, bot, clock, 1.9)
    assert (await log_of(bot, game_id))[-1] == "A1 play MAN X1L"  # not yet
    await advance(fake, bot, clock, 0.2)
    assert (await log_of(bot, game_id))[-1] == "X1 pass"
    await held_as_stored(bot, game_id)
    said = "\n".join(thread_texts(fake, thread))
    assert "The deadline of Ki-43 Oscar (X1) has passed: the default applies: pass." in said
    assert "Buffalo I (A1) is now Advantaged on Ki-43 Oscar (X1)." in said
    await advance(fake, bot, clock, 48)  # the Buffalo's turn goes on: its own deadline
    assert "A1 done" in await log_of(bot, game_id)
    await held_as_stored(bot, game_id)


async def test_reminders_fire_the_configured_number_of_times_across_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    db = tmp_path / "g.sqlite3"
    bot = make_bot(db, clock)
    game_id, thread = await open_duel(fake, bot, alice, bob, response_hours=10.0)
    await attack(fake, bot, alice, game_id, thread)

    def reminders() -> list[str]:
        return [
            t for t in thread_texts(fake, thread) if "Reminder" in t and "<@" + str(bob.id) in t
        ]

    asked: list[int] = []  # what the next click reads, read again after a reminder
    prefetch = bot.service.storage.prefetch

    async def recorded(game_id: int) -> None:
        asked.append(game_id)
        await prefetch(game_id)

    bot.service.storage.prefetch = recorded  # type: ignore[method-assign]
    await advance(fake, bot, clock, 5.5)  # past 50 %: the first reminder (thread and DM)
    assert len(reminders()) == 1 and "Reminder 1/2" in reminders()[0]
    assert asked == [game_id]
    await held_as_stored(bot, game_id)
    assert any("Reminder 1/2" in (m.get("content") or "") for m in fake.dms(bob))
    await bot.close()  # a restart between the reminder and the deadline
    bot = make_bot(db, clock)
    await fake.start(bot)
    await advance(fake, bot, clock, 0.1)
    assert len(reminders()) == 1  # nothing sent twice after the restart
    await advance(fake, bot, clock, 3.6)  # past 90 %
    assert [r[:14] for r in reminders()] == ["⏰ Reminder 1/2", "⏰ Reminder 2/2"]
    await advance(fake, bot, clock, 1.0)  # the deadline
    assert (await log_of(bot, game_id)).count("X1 pass") == 1
    await held_as_stored(bot, game_id)
    await advance(fake, bot, clock, 1.0)
    assert len(reminders()) == 2 and (await log_of(bot, game_id)).count("X1 pass") == 1


async def test_a_deadline_missed_while_the_bot_was_down_fires_once_at_start_up(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    db = tmp_path / "g.sqlite3"
    bot = make_bot(db, clock)
    game_id, thread = await open_duel(fake, bot, alice, bob, response_hours=1.0)
    await attack(fake, bot, alice, game_id, thread)
    await bot.close()
    clock.advance(timedelta(hours=30))  # the bot is down past the deadline
    bot = make_bot(db, clock)
    await fake.start(bot)
    await fake.settle()
    assert bot.deadlines is not None
    await bot.deadlines.scheduler.run_due()
    await fake.settle()
    assert (await log_of(bot, game_id)).count("X1 pass") == 1


async def test_vacation_pauses_the_deadline_and_shows_until_when(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob, response_hours=2.0)
    await fake.slash(bob, "game vacation", channel_id=thread, days=2)
    assert any("on vacation" in t for t in thread_texts(fake, thread))
    await attack(fake, bot, alice, game_id, thread)
    await advance(fake, bot, clock, 24)
    assert (await log_of(bot, game_id))[-1] == "A1 play MAN X1L"  # paused
    await held_as_stored(bot, game_id)
    await fake.slash(alice, "game status", channel_id=thread)
    await advance(fake, bot, clock, 24 + 2.5)  # vacation over, then the 2 hours run
    assert (await log_of(bot, game_id))[-1] == "X1 pass"


async def test_fast_mode_passes_a_defender_without_a_response_and_says_so(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    fixed = {**FIXED, "hands": {"A1": FIXED["hands"]["A1"], "X1": ["IMS-1B2D", "HAL", "MAN"]}}
    game_id, thread = await open_duel(fake, bot, alice, bob, fixed, responses="fast")
    lobby = thread_texts(fake, thread)[0]
    assert "Fast responses" in lobby  # everyone is told what this mode reveals
    for text in ("stay", "play MAN X1L"):
        await fake.slash(alice, "play", channel_id=thread, text=text)
    assert (await log_of(bot, game_id))[-1] == "X1 pass"  # at once: no legal response
    assert any("fast mode: no legal response" in t for t in thread_texts(fake, thread))


async def test_a_follower_gets_public_moves_by_dm_and_no_hidden_card(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = (fake.add_member(n) for n in ("alice", "bob", "carol"))
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob)
    await fake.slash(carol, "game follow", channel_id=thread)
    await attack(fake, bot, alice, game_id, thread)
    await fake.slash(bob, "play", channel_id=thread, text="respond TIT")
    dms = "\n".join(m.get("content") or "" for m in fake.dms(carol))
    assert "Buffalo I (A1) plays Maneuvering on Ki-43 Oscar (X1)." in dms
    assert "responds with Tight Turn" in dms
    for secret in ("You drew", "Hand (", "Sights (1B/2D)", "Half Loop"):
        assert secret not in dms  # X1's hand and the cards drawn stay hidden
    await fake.slash(carol, "game unfollow", channel_id=thread)
    before = len(fake.dms(carol))
    await fake.slash(alice, "play", channel_id=thread, text="pass")
    assert len(fake.dms(carol)) == before


async def test_standing_orders_answer_for_an_absent_player(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob)
    await fake.slash(bob, "game orders", channel_id=thread, order="cheapest-response")
    shown = fake.ephemeral_for(bob)
    assert any("cheapest" in (m.get("content") or "") for m in shown)
    assert not any("cheapest" in t for t in thread_texts(fake, thread))  # owner only
    for text in ("stay", "play MAN X1L"):
        await fake.slash(alice, "play", channel_id=thread, text=text)
    assert (await log_of(bot, game_id))[-1] == "X1 respond TIT"
    assert any("standing orders" in t for t in thread_texts(fake, thread))


async def test_quiet_hours_do_not_count_toward_a_deadline(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)  # 12:00 UTC
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob, response_hours=2.0)
    await attack(fake, bot, alice, game_id, thread)
    await fake.slash(bob, "settings quiet", start="12:00", end="18:00", tz="UTC")
    assert any(
        "Quiet hours 12:00-18:00" in (m.get("content") or "") for m in fake.ephemeral_for(bob)
    )
    await advance(fake, bot, clock, 7.5)  # 19:30: only 1.5 active hours have run
    assert (await log_of(bot, game_id))[-1] == "A1 play MAN X1L"
    await advance(fake, bot, clock, 0.6)  # 20:06: two active hours
    assert (await log_of(bot, game_id))[-1] == "X1 pass"
    await fake.slash(bob, "settings quiet", channel_id=thread)
    assert any("No quiet hours" in (m.get("content") or "") for m in fake.ephemeral_for(bob))
    await fake.slash(bob, "settings quiet", start="25:00", end="07:00")
    assert "HH:MM" in (fake.ephemeral_for(bob)[-1].get("content") or "")  # refused, explained


async def test_a_missed_turn_passes_as_a_whole(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob, turn_hours=3.0)
    await advance(fake, bot, clock, 3.1)  # Alice (A1) lets her first turn go
    assert (await log_of(bot, game_id))[-3:] == ["A1 stay", "A1 done", "A1 discard"]
    said = "\n".join(thread_texts(fake, thread))
    assert "The deadline of Buffalo I (A1) has passed: the default applies: stay." in said
    state = (await bot.service.load(game_id)).state
    assert state is not None and state.active == "X1"  # Bob's turn, with its own deadline
