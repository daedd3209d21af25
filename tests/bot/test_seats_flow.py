"""Seats and people through the real bot on the offline Discord (issue #4).

A substitute takes a seat mid-game (the old holder's buttons and /play stop working,
the new holder's work); the host hands a seat to a computer player and the game goes
on; an abandoned seat is offered to substitutes, then flown by the computer or
forfeited once ``substitute_hours`` pass (fake clock, also across a restart); the
host aborts a game, nobody else can; an action is taken back with the opponent's
consent and the game replays as if it had never been played, or the undo is refused.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot import seats
from bot.archive import archive
from bot.clock import FakeClock
from bot.errors import Refusal
from bot.settings import GuildSettings
from bot.storage import GameStatus
from bot.testing import FakeDiscord, FakeUser
from bot.testing.driver import UiPlayer, components_of, message_with, wait_for_new_game
from cogs.app import TallyHoBot
from engine.dif.ai import RandomPlayer
from engine.dif.game import default_engine
from tests.bot.clocked import START, advance, log_of, make_bot, open_duel


async def attack(fake: FakeDiscord, alice: FakeUser, thread: int) -> None:
    for text in ("stay", "play MAN X1L"):
        await fake.slash(alice, "play", channel_id=thread, text=text)


def said(fake: FakeDiscord, thread: int) -> str:
    return "\n".join(m.get("content") or "" for m in fake.sent_to(thread))


def answer(fake: FakeDiscord, token: str) -> str:
    return str(fake.original(token).get("content") or "")


def closed(fake: FakeDiscord, message: dict[str, Any]) -> str:
    """The message as it is now, asserted without buttons: its content."""
    now = fake.messages[int(message["id"])]
    assert not list(components_of(now)), now["content"]
    return str(now["content"])


def computer_lines(fake: FakeDiscord, thread: int) -> list[str]:
    """Narration of the computer player's moves: ``Ki-43 Oscar (X1) … (computer)``."""
    lines = said(fake, thread).splitlines()
    return [x for x in lines if x.startswith("Ki-43 Oscar") and x.endswith(". (computer)")]


async def allow_computers(bot: TallyHoBot, fake: FakeDiscord, **deadlines: Any) -> None:
    assert bot.storage is not None
    await GuildSettings.update(
        bot.storage, fake.guild_id, deadlines={"computer_players": True, **deadlines}
    )


async def play_seat(
    fake: FakeDiscord, bot: TallyHoBot, game_id: int, thread: int, user: FakeUser, seat: str
) -> int:
    """``user`` plays ``seat``'s pending decisions (random legal moves, typed); returns
    how many."""
    brain = RandomPlayer(3)
    n = 0
    for _ in range(500):
        game = await bot.service.load(game_id)
        state = game.state
        if state is None or game.record.status is not GameStatus.ACTIVE:
            break
        if not any(p.seat == seat for p in default_engine().pending(state)):
            break
        action = brain.choose(default_engine(), state, seat)
        await fake.slash(user, "play", channel_id=thread, text=str(action), seat=seat)
        n += 1
    return n


# ---------------------------------------------------------------- substitutes
async def test_a_substitute_takes_a_seat_and_the_old_holder_loses_it_at_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = (fake.add_member(n) for n in ("alice", "bob", "carol"))
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob)
    await attack(fake, alice, thread)
    old_hand = await UiPlayer(fake, bob, game_id, thread).open_hand()
    respond = fake.custom_id(old_hand, "Tight Turn")

    tok = await fake.slash(carol, "game sub", channel_id=thread, member=alice)
    assert "not playing" in answer(fake, tok) or "no seat" in answer(fake, tok).lower()
    await fake.slash(bob, "game sub", channel_id=thread, member=carol)
    assert "offers seat X1 (Ki-43 Oscar (X1)) to" in said(fake, thread)
    offer, accept_id = message_with(fake, thread, f"th:sub:{game_id}:X1:accept")
    assert (await bot.service.load(game_id)).holder("X1") == bob.id  # until carol accepts
    tok = await fake.click(alice, offer, accept_id)
    assert "No seat is offered to you" in answer(fake, tok)

    tok = await fake.click(carol, offer, accept_id)
    hand = fake.original(tok)
    assert hand["flags"] & 64 and "you now fly X1" in hand["content"]
    assert "Hand (" in hand["content"]  # the hand, to carol only
    assert f"<@{carol.id}> takes over seat X1" in said(fake, thread)
    assert "accepted" in fake.messages[int(offer["id"])]["content"]  # the offer closes
    game = await bot.service.load(game_id)
    assert game.holder("X1") == carol.id and game.seats_of(bob.id) == []
    seat_rows = await bot.service.storage.get_seats(game_id)
    assert next(s.user_id for s in seat_rows if s.seat == "X1") == carol.id
    live = await bot.service.storage.live_deadlines(game_id)
    assert [d.user_id for d in live if d.seat == "X1"] == [carol.id]  # reminders go to carol

    before = await log_of(bot, game_id)
    tok = await fake.click(bob, old_hand, respond)  # the old holder's button
    assert "not playing in this game" in answer(fake, tok)
    tok = await fake.slash(bob, "play", channel_id=thread, text="respond TIT")
    assert "not playing in this game" in answer(fake, tok)
    tok = await fake.slash(bob, "hand", channel_id=thread)
    assert "not playing" in answer(fake, tok)
    assert await log_of(bot, game_id) == before

    await fake.click(carol, hand, fake.custom_id(hand, "Tight Turn"))  # the new holder's
    assert (await log_of(bot, game_id))[-1] == "X1 respond TIT"


async def test_an_offer_can_be_withdrawn_declined_or_expire(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = (fake.add_member(n) for n in ("alice", "bob", "carol"))
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob)
    tok = await fake.slash(bob, "game sub", channel_id=thread, member=alice)
    assert "other side" in answer(fake, tok)

    await fake.slash(bob, "game sub", channel_id=thread, member=carol)
    first, _ = message_with(fake, thread, f"th:sub:{game_id}:X1:accept")
    await fake.slash(bob, "game sub", channel_id=thread, withdraw=True)
    assert "withdraws the offer of seat X1" in said(fake, thread)
    assert "⌛ This offer is closed" in closed(fake, first), "withdrawn by command"
    tok = await fake.slash(carol, "game accept", channel_id=thread)
    assert "No seat is offered to you" in answer(fake, tok)

    await fake.slash(bob, "game sub", channel_id=thread, member=carol)
    offer, decline = message_with(fake, thread, f"th:sub:{game_id}:X1:decline")
    await fake.click(carol, offer, decline)
    assert "declines seat X1" in said(fake, thread)

    await fake.slash(bob, "game sub", channel_id=thread, member=carol)
    last, _ = message_with(fake, thread, f"th:sub:{game_id}:X1:accept")
    clock.advance(timedelta(hours=23.9))
    await fake.settle()
    assert list(components_of(fake.messages[int(last["id"])])), "still open"
    clock.advance(timedelta(hours=0.2))  # 24 h: the offer lapses, its message says so
    await fake.settle()
    assert "⌛ This offer is closed" in closed(fake, last)
    clock.advance(timedelta(hours=1))
    tok = await fake.slash(carol, "game accept", channel_id=thread)
    assert "expired" in answer(fake, tok)
    assert (await bot.service.load(game_id)).holder("X1") == bob.id


async def test_the_host_replaces_an_absent_player_directly(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol, dave = (fake.add_member(n) for n in ("alice", "bob", "carol", "dave"))
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob)
    await attack(fake, alice, thread)
    tok = await fake.slash(dave, "game sub", channel_id=thread, member=carol, seat="X1")
    assert "only the host" in answer(fake, tok)
    await fake.slash(alice, "game sub", channel_id=thread, member=carol, seat="X1")
    assert f"hands seat X1 (Ki-43 Oscar (X1)) from <@{bob.id}> to <@{carol.id}>" in said(
        fake, thread
    )
    dm = fake.dms(carol)[-1]  # the hand, at once, with its buttons
    assert "you now fly X1" in dm["content"] and "Hand (" in dm["content"]
    await fake.click(carol, dm, fake.custom_id(dm, "Tight Turn"))
    assert (await log_of(bot, game_id))[-1] == "X1 respond TIT"


async def test_the_host_hands_a_seat_to_the_computer_and_the_game_goes_on(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob)
    tok = await fake.slash(alice, "game sub", channel_id=thread, seat="X1", computer=True)
    assert "does not allow computer players" in answer(fake, tok)
    await allow_computers(bot, fake)
    tok = await fake.slash(bob, "game sub", channel_id=thread, seat="X1", computer=True)
    assert "Only the host" in answer(fake, tok)

    await fake.slash(alice, "game sub", channel_id=thread, seat="X1", computer=True)
    assert "hands seat X1 (Ki-43 Oscar (X1)) to a computer player" in said(fake, thread)
    game = await bot.service.load(game_id)
    assert game.holder("X1") is None
    assert (await bot.service.game_settings(game_id))["computer_seats"] == ["X1"]
    assert "🤖 computer" in bot.service.lobby_text(game)
    tok = await fake.slash(bob, "play", channel_id=thread, text="pass")
    assert "not playing" in answer(fake, tok)

    for _ in range(100):  # alice plays; the computer answers at once, every time
        if not await play_seat(fake, bot, game_id, thread, alice, "A1"):
            break
    game = await bot.service.load(game_id)
    assert game.record.status is GameStatus.FINISHED
    rows = await log_of(bot, game_id)
    assert any(r.startswith("X1 ") for r in rows)
    assert computer_lines(fake, thread)
    assert not await bot.service.storage.live_deadlines(game_id)  # no deadline for a computer
    assert (await archive(bot.service).verify(game)).ok


# ---------------------------------------------------------------- abandonment
async def abandon_x1(
    fake: FakeDiscord, bot: TallyHoBot, clock: FakeClock, alice: FakeUser, game_id: int, thread: int
) -> None:
    """Bob misses two response deadlines in a row (abandon_after 2)."""
    await attack(fake, alice, thread)
    await advance(fake, bot, clock, 1.1)
    assert (await log_of(bot, game_id))[-1] == "X1 pass"
    game = await bot.service.load(game_id)
    assert game.state is not None
    again = next(
        a
        for a in default_engine().legal_actions(game.state, "A1")
        if a.verb == "play" and a.target == "X1L"
    )
    await fake.slash(alice, "play", channel_id=thread, text=str(again))
    await advance(fake, bot, clock, 1.1)
    assert (await log_of(bot, game_id))[-1] == "X1 pass"


async def test_an_abandoned_seat_is_offered_then_flown_by_the_computer(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    await fake.start(bot)
    await allow_computers(bot, fake, abandon_after=2, abandon_action="computer", substitute_hours=6)
    game_id, thread = await open_duel(fake, bot, alice, bob, response_hours=1.0, turn_hours=2.0)
    await abandon_x1(fake, bot, clock, alice, game_id, thread)
    text = said(fake, thread)
    assert "Seat X1 (Ki-43 Oscar (X1)" in text and "it is abandoned" in text
    assert "a computer player flies it for the rest of the game" in text
    taken_offer, _ = message_with(fake, thread, f"th:take:{game_id}:X1")  # the button is there
    abandoned = (await bot.service.game_settings(game_id))["abandoned"]
    assert abandoned["X1"]["at"] == clock.now().isoformat()

    for _ in range(12):  # alice keeps playing; bob's seat waits for a substitute
        await play_seat(fake, bot, game_id, thread, alice, "A1")
        await advance(fake, bot, clock, 1.0)
        if (await bot.service.load(game_id)).holder("X1") is None:
            break
    game = await bot.service.load(game_id)
    assert game.holder("X1") is None, "the computer took the seat once the 6 hours passed"
    assert "⌛ This seat is no longer offered" in closed(fake, taken_offer)
    assert clock.now() >= START + timedelta(hours=6)
    assert "Nobody took the abandoned seat X1 within 6 hours" in said(fake, thread)
    assert "abandoned" not in {
        k for k, v in (await bot.service.game_settings(game_id)).items() if v
    }
    await play_seat(fake, bot, game_id, thread, alice, "A1")
    assert computer_lines(fake, thread)


async def test_an_abandoned_seat_forfeits_on_time_without_waiting_for_a_deadline(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """``substitute_hours`` has its own timer: the forfeit comes when the time for a
    substitute runs out, not at the game's next deadline."""
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    await fake.start(bot)
    await allow_computers(bot, fake, abandon_after=2, abandon_action="forfeit", substitute_hours=2)
    game_id, thread = await open_duel(fake, bot, alice, bob, response_hours=1.0, turn_hours=24.0)
    await abandon_x1(fake, bot, clock, alice, game_id, thread)
    abandoned_at = clock.now()
    assert bot.deadlines is not None
    next_deadline = bot.deadlines.deadline_of(game_id)
    assert next_deadline is not None and next_deadline.expires_at > abandoned_at + timedelta(
        hours=3
    )

    clock.advance(timedelta(hours=1.9))  # not yet
    await fake.settle()
    assert (await bot.service.load(game_id)).record.status is GameStatus.ACTIVE
    clock.advance(timedelta(hours=0.2))  # 2.1 hours after: the timer alone fires
    await fake.settle()
    record = (await bot.service.load(game_id)).record
    assert record.status is GameStatus.FINISHED and record.result is not None
    assert "Nobody took the abandoned seat X1 within 2 hours" in said(fake, thread)
    assert clock.now() < next_deadline.expires_at


async def test_a_substitute_takes_an_abandoned_seat(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob, carol = (fake.add_member(n) for n in ("alice", "bob", "carol"))
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    await fake.start(bot)
    await allow_computers(bot, fake, abandon_after=2, substitute_hours=6)
    game_id, thread = await open_duel(fake, bot, alice, bob, response_hours=1.0)
    await abandon_x1(fake, bot, clock, alice, game_id, thread)
    offer, take = message_with(fake, thread, f"th:take:{game_id}:X1")
    tok = await fake.click(alice, offer, take)
    assert "You play in this game already" in answer(fake, tok)
    tok = await fake.click(carol, offer, take)
    assert "you now fly X1" in answer(fake, tok)
    assert f"<@{carol.id}> takes over the abandoned seat X1" in said(fake, thread)
    assert "took it" in closed(fake, offer)
    assert "⌛" not in closed(fake, offer), "closed once, by its own button"
    game = await bot.service.load(game_id)
    assert game.holder("X1") == carol.id
    assert not (await bot.service.game_settings(game_id)).get("abandoned")
    assert (await bot.service.storage.get_seat_clock(game_id, "X1")).missed_in_a_row == 0
    tok = await fake.slash(bob, "play", channel_id=thread, text="pass")
    assert "not playing" in answer(fake, tok)
    await advance(fake, bot, clock, 10)  # no forfeit, no computer: the seat is carol's
    assert (await bot.service.load(game_id)).record.status is GameStatus.ACTIVE
    assert (await bot.service.load(game_id)).holder("X1") == carol.id


async def test_an_abandoned_seat_forfeits_when_its_time_ran_out_during_downtime(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    db = tmp_path / "g.sqlite3"
    bot = make_bot(db, clock)
    await fake.start(bot)
    assert bot.storage is not None
    await GuildSettings.update(
        bot.storage,
        fake.guild_id,
        deadlines={"abandon_after": 2, "abandon_action": "forfeit", "substitute_hours": 0.5},
    )
    game_id, thread = await open_duel(fake, bot, alice, bob, response_hours=1.0)
    await abandon_x1(fake, bot, clock, alice, game_id, thread)
    assert "the Japanese side forfeits" in said(fake, thread)
    assert (await bot.service.load(game_id)).record.status is GameStatus.ACTIVE
    offer, _ = message_with(fake, thread, f"th:take:{game_id}:X1")
    await bot.close()
    clock.advance(timedelta(hours=1))  # past the half hour; alice's own deadline is not
    bot = make_bot(db, clock)
    await fake.start(bot)
    assert bot.deadlines is not None and bot.deadlines.swept is not None
    await bot.deadlines.swept
    await fake.settle()
    game = await bot.service.load(game_id)
    assert game.record.status is GameStatus.FINISHED
    assert game.record.result is not None and game.record.result["winner"] == "allied"
    assert "the Japanese side forfeits" in game.record.result["verdict"]
    assert "Nobody took the abandoned seat X1 within 0.5 hours" in said(fake, thread)
    assert not await bot.service.storage.live_deadlines(game_id)
    assert "⌛ This seat is no longer offered" in closed(fake, offer), "closed at start-up"


async def test_an_absent_player_who_comes_back_keeps_the_seat(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    await fake.start(bot)
    assert bot.storage is not None
    await GuildSettings.update(
        bot.storage, fake.guild_id, deadlines={"abandon_after": 2, "substitute_hours": 6}
    )
    game_id, thread = await open_duel(fake, bot, alice, bob, response_hours=1.0, turn_hours=2.0)
    await abandon_x1(fake, bot, clock, alice, game_id, thread)
    offer, _ = message_with(fake, thread, f"th:take:{game_id}:X1")
    await play_seat(fake, bot, game_id, thread, alice, "A1")
    await play_seat(fake, bot, game_id, thread, bob, "X1")
    assert "X1 is back: the seat is no longer offered" in said(fake, thread)
    assert "⌛ This seat is no longer offered" in closed(fake, offer)
    assert not (await bot.service.game_settings(game_id)).get("abandoned")
    await advance(fake, bot, clock, 7)
    assert (await bot.service.load(game_id)).record.status is GameStatus.ACTIVE


# ---------------------------------------------------------------- abort
async def test_the_host_aborts_and_nobody_else_can(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob, carol = (fake.add_member(n) for n in ("alice", "bob", "carol"))
    admin = fake.add_member("admin", admin=True)
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob)
    await attack(fake, alice, thread)
    assert bot.deadlines is not None and bot.deadlines.scheduler.of_game(game_id)
    for who in (bob, carol):
        tok = await fake.slash(who, "game abort", channel_id=thread, confirm=True)
        assert "Only the host" in answer(fake, tok)
    assert (await bot.service.load(game_id)).record.status is GameStatus.ACTIVE

    tok = await fake.slash(alice, "game abort", channel_id=thread)
    confirm = fake.original(tok)
    assert confirm["flags"] & 64 and "Abort dogfight" in confirm["content"]
    await fake.click(alice, confirm, f"th:abort:{game_id}")
    game = await bot.service.load(game_id)
    assert game.record.status is GameStatus.ABORTED and game.record.result is None
    assert f"<@{alice.id}> aborted dogfight #{game_id}" in said(fake, thread)
    assert "🔓 The seed was" in said(fake, thread)
    assert not bot.deadlines.scheduler.of_game(game_id)
    assert not await bot.service.storage.live_deadlines(game_id)
    tok = await fake.slash(bob, "play", channel_id=thread, text="respond TIT")
    assert "over" in answer(fake, tok)
    tok = await fake.slash(alice, "game status", channel_id=thread)
    assert "Aborted" in answer(fake, tok)
    assert (await archive(bot.service).verify(game)).ok

    await fake.slash(carol, "dogfight new", channel_id=fake.channel_id, ruleset="zero", year=1942)
    lobby = await wait_for_new_game(fake, bot.service.storage)
    assert lobby.thread_id is not None and lobby.id != game_id
    await fake.slash(admin, "game abort", channel_id=lobby.thread_id, confirm=True)
    assert (await bot.service.load(lobby.id)).record.status is GameStatus.ABORTED
    assert "Aborted: no result." in fake.sent_to(lobby.thread_id)[0]["content"]


# ---------------------------------------------------------------- undo
async def test_an_undo_accepted_replays_as_if_never_played(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = (fake.add_member(n) for n in ("alice", "bob", "carol"))
    clock = FakeClock(START)
    db = tmp_path / "g.sqlite3"
    bot = make_bot(db, clock)
    game_id, thread = await open_duel(fake, bot, alice, bob)
    await attack(fake, alice, thread)
    tok = await fake.slash(bob, "game undo", channel_id=thread)
    assert "Only the latest action" in answer(fake, tok)
    await fake.slash(alice, "game undo", channel_id=thread)
    assert "asks to take back action 2 (A1: play MAN X1L)" in said(fake, thread)
    request, agree = message_with(fake, thread, f"th:undo:{game_id}:2:yes")
    tok = await fake.click(carol, request, agree)
    assert "Only the opposing players" in answer(fake, tok)
    await fake.click(bob, request, agree)
    assert "Action 2 (A1) is taken back" in said(fake, thread)

    assert await log_of(bot, game_id) == ["A1 stay", "A1 play MAN X1L", "None undo 2"]
    game = await bot.service.load(game_id)
    assert game.setup is not None and game.state is not None
    without = default_engine().replay(game.setup, game.record.seed, [("A1", "stay")])
    assert game.state.to_json() == without.to_json()
    assert [p.seat for p in default_engine().pending(game.state)] == ["A1"]
    assert not bot.deadlines or all(
        d.seat == "A1" for d in bot.deadlines.scheduler.of_game(game_id)
    )
    log_text = await bot.service.public_log(game)
    assert "[3] -: undo 2" in log_text and "↩ Action 2 of A1 is taken back (undo)." in log_text

    await bot.close()  # a restart replays the log, marker included
    bot = make_bot(db, clock)
    await fake.start(bot)
    again = await bot.service.load(game_id)
    assert again.state is not None and again.state.to_json() == without.to_json()
    await fake.slash(alice, "play", channel_id=thread, text="play MAN X1L")  # play on
    await fake.slash(bob, "play", channel_id=thread, text="respond TIT")
    await fake.slash(bob, "game resign", channel_id=thread, confirm=True)
    over = await bot.service.load(game_id)
    verification = await archive(bot.service).verify(over)
    assert verification.ok, verification.text()
    files = await archive(bot.service).log_files(over)
    from bot.verify import verify_log

    assert verify_log(files[1][1]).ok  # the full log file too


async def test_a_spectators_undo_and_a_seat_of_no_one_are_refused_for_what_they_are(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A spectator's undo is refused because they hold no seat (not because the action
    is A1's), and a malformed or unknown seat is named as such, with the game's seats
    (not as another player's seat), in /play and /game orders alike."""
    alice, bob, carol = (fake.add_member(n) for n in ("alice", "bob", "carol"))
    bot = make_bot(tmp_path / "g.sqlite3", FakeClock(START))
    game_id, thread = await open_duel(fake, bot, alice, bob)
    await attack(fake, alice, thread)
    version = (await bot.service.load(game_id)).record.version

    tok = await fake.slash(carol, "game undo", channel_id=thread)
    assert answer(fake, tok) == (
        "⛔ You have no seat in this game: only a player can ask to take back their own "
        "latest action."
    )
    tok = await fake.slash(bob, "play", channel_id=thread, text="pass", seat="ZZ9")
    assert answer(fake, tok) == "⛔ This game has no seat ZZ9: its seats are A1 and X1."
    tok = await fake.slash(bob, "play", channel_id=thread, text="pass", seat="a1")
    assert answer(fake, tok) == "⛔ Seat A1 is another player's: you fly X1."
    tok = await fake.slash(bob, "game orders", channel_id=thread, seat="zz9")
    assert answer(fake, tok) == "⛔ This game has no seat ZZ9: its seats are A1 and X1."
    tok = await fake.slash(bob, "game orders", channel_id=thread, seat="A1")
    assert answer(fake, tok) == "⛔ Seat A1 is another player's: you fly X1."
    assert (await bot.service.load(game_id)).record.version == version
    assert not any("undo" in line for line in await log_of(bot, game_id))


async def test_undo_is_refused_when_someone_acted_or_cards_were_drawn(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob)
    await fake.slash(alice, "play", channel_id=thread, text="dive")  # draws a card
    tok = await fake.slash(alice, "game undo", channel_id=thread)
    assert "cannot be taken back: cards were drawn" in answer(fake, tok)

    await play_seat(fake, bot, game_id, thread, alice, "A1")  # alice's turn ends
    game = await bot.service.load(game_id)
    assert game.state is not None
    first = default_engine().legal_actions(game.state, "X1")[0]
    await fake.slash(bob, "play", channel_id=thread, text=str(first))  # bob acts
    assert (await log_of(bot, game_id))[-1].startswith("X1 ")
    tok = await fake.slash(alice, "game undo", channel_id=thread)
    assert "Only the latest action can be taken back" in answer(fake, tok)


async def test_undo_declined_or_overtaken_leaves_the_action(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob)
    await attack(fake, alice, thread)
    await fake.slash(alice, "game undo", channel_id=thread)
    tok = await fake.slash(alice, "game undo", channel_id=thread)
    assert "asked already" in answer(fake, tok)
    request, decline = message_with(fake, thread, f"th:undo:{game_id}:2:no")
    await fake.click(bob, request, decline)
    assert "declines: action 2 stands" in said(fake, thread)
    assert (await log_of(bot, game_id))[-1] == "A1 play MAN X1L"

    await fake.slash(alice, "game undo", channel_id=thread)  # asked again...
    request, _ = message_with(fake, thread, f"th:undo:{game_id}:2:yes")
    # ...but bob answers
    bobs = await fake.slash(bob, "play", channel_id=thread, text="respond TIT")
    assert "⌛ This request is closed" in closed(fake, request), "its buttons are gone"
    # ...after bob was answered: closing a prompt never holds up a move's reply.
    keys = [(c.key, c.args.get("webhook_token") or c.args.get("message_id")) for c in fake.calls]
    answered = keys.index(("POST /interactions/{webhook_id}/{webhook_token}/callback", bobs))
    edited = keys.index(("PATCH /channels/{channel_id}/messages/{message_id}", str(request["id"])))
    assert answered < edited
    with pytest.raises(Refusal, match="moved on"):  # a click that raced the edit
        await seats.answer_undo(bot.service, game_id, bob.id, 2, True)
    assert (await log_of(bot, game_id))[-1] == "X1 respond TIT"
    assert not any(r.endswith("undo 2") for r in await log_of(bot, game_id))
