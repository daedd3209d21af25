"""The game service without Discord: lobby, seats, moves, persistence."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.errors import UserError
from bot.later import FollowUp, answer_first, run_follow_ups
from bot.outcome import Outcome
from bot.play import PLAN_ATTEMPTS
from bot.service import GameService, LoadedGame
from bot.storage import StaleGameVersion, StalePlan
from bot.storage.sqlite import SQLiteStorage
from engine.core import registry
from engine.dif.components import Side
from engine.dif.game import default_engine

ALICE, BOB, CAROL = 101, 202, 303


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    storage = await SQLiteStorage.open(str(tmp_path / "games.sqlite3"))
    yield GameService(storage, seed_source=lambda: 77)
    await storage.close()


async def lobby(service: GameService, year: int = 1942, thread: int = 3) -> LoadedGame:
    game = await service.new_lobby(
        guild_id=1, channel_id=2, host_id=ALICE, ruleset="zero", year=year, to_the_death=False
    )
    return await service.attach_thread(game, thread, thread + 1)


async def started(service: GameService, thread: int = 3) -> LoadedGame:
    game = await lobby(service, thread=thread)
    await service.join(game, ALICE, "alice", "buffalo-i", "allied")
    await service.join(game, BOB, "bob", "Ki-43", None)
    outcome = await service.start(game, ALICE)
    return outcome.game


async def test_joining_checks_side_year_and_seats(service: GameService) -> None:
    game = await lobby(service, year=1940)
    with pytest.raises(UserError, match="entered service in 1941, after 1940"):
        await service.join(game, ALICE, "alice", "buffalo-i", "allied")
    with pytest.raises(UserError, match="flies for the Japanese side"):
        await service.join(game, ALICE, "alice", "a6m2", "allied")
    with pytest.raises(UserError, match="Unknown aircraft"):
        await service.join(game, ALICE, "alice", "sopwith camel", None)
    await service.join(game, ALICE, "alice", "f4f", "allied")
    with pytest.raises(UserError, match="Every seat of the Allied side is taken"):
        await service.join(game, CAROL, "carol", "spitfire-i", "allied")
    with pytest.raises(UserError, match="other side"):
        await service.join(game, ALICE, "alice", "a6m2", "axis")
    with pytest.raises(UserError, match="X1 still open"):
        await service.start(game, ALICE)


async def test_only_the_host_starts_and_only_once(service: GameService) -> None:
    game = await lobby(service)
    await service.join(game, ALICE, "alice", "buffalo-i", "allied")
    await service.join(game, BOB, "bob", "ki-43", "axis")
    with pytest.raises(UserError, match="host"):
        await service.start(game, BOB)
    outcome = await service.start(game, ALICE)
    assert {p.seat for p in outcome.prompts} == {"A1", "X1"}
    with pytest.raises(UserError, match="already started"):
        await service.start(game, ALICE)


async def test_a_refused_move_changes_nothing(service: GameService) -> None:
    game = await started(service)
    version = game.record.version
    with pytest.raises(UserError, match=r"turbocharged.*4\.5"):
        await service.act(game.id, ALICE, None, "alt VH")
    with pytest.raises(UserError, match="not playing"):
        await service.act(game.id, CAROL, None, "alt M")
    with pytest.raises(UserError, match="another player"):
        await service.act(game.id, BOB, "A1", "alt M")
    with pytest.raises(UserError, match="unknown action"):
        await service.act(game.id, ALICE, None, "loop the loop")
    assert (await service.load(game.id)).record.version == version
    assert await service.storage.load_actions(game.id) == []


async def test_a_stale_button_is_refused(service: GameService) -> None:
    game = await started(service)
    old = game.record.version
    await service.act(game.id, ALICE, "A1", "alt M", version=old)
    with pytest.raises(UserError, match="out of date"):  # a double click
        await service.act(game.id, ALICE, "A1", "alt L", version=old)
    # Bob's menu, sent before Alice picked, still works: secret picks are made at
    # once, and nothing Alice did changed Bob's choices.
    await service.act(game.id, BOB, "X1", "alt M", version=old)
    state = (await service.load(game.id)).state
    assert state is not None
    seat = default_engine().pending(state)[0].seat
    user = ALICE if seat == "A1" else BOB
    with pytest.raises(UserError, match="out of date"):  # the game moved on
        await service.act(game.id, user, seat, "stay", version=old)


async def test_moves_are_stored_and_a_new_service_resumes_them(service: GameService) -> None:
    game = await started(service)
    await service.act(game.id, ALICE, None, "alt L")
    outcome = await service.act(game.id, BOB, None, "alt L")
    assert any("Altitudes revealed" in line for line in outcome.public)
    assert outcome.image is True, "the first player-turn starts: time for a picture"
    # What A1 drew is private to A1.
    assert all("You drew" not in line for line in outcome.public)
    assert any("You drew" in line for line in outcome.private["A1"])
    state = (await service.load(game.id)).state
    assert state is not None
    fresh = GameService(service.storage)
    again = (await fresh.load(game.id)).state
    assert again is not None and again.to_json() == state.to_json()


async def test_the_public_log_hides_picks_until_both_are_made(service: GameService) -> None:
    game = await started(service)
    await service.act(game.id, ALICE, None, "alt H")
    text = await service.public_log(await service.load(game.id))
    assert "A1: alt ?" in text and "alt H" not in text


async def test_button_labels_read_like_moves(service: GameService) -> None:
    game = await started(service)
    await service.act(game.id, ALICE, None, "alt M")
    await service.act(game.id, BOB, None, "alt M")
    state = (await service.load(game.id)).state
    assert state is not None
    presenter = registry.get("dif").presenter()  # type: ignore[attr-defined]
    labels = {
        t: presenter.describe(state, t, "en")
        for t in (
            "play MAN X1L",
            "play VER down",
            "dive",
            "pass",
            "discard",
            "play MAN=SCI X1L",
            "wm X1W",
            "next A1",
            "redraw",
            "redraw MAN TIT",
            "play TIT=FUT X1L",
            "respond OOS-1B2D=ACE",
            "play FTC X1W",
            "respond FTC",
            "climb FTC",
            "follow FTC MAN",
            "play VER up FTC",
        )
    }
    assert labels == {
        "play MAN X1L": "Maneuvering → Ki-43 Oscar (X1 leader)",
        "play VER down": "Vertical Roll: dive to Low",
        "dive": "Dive to Low (draw a card)",
        "pass": "No response",
        "discard": "Keep all cards",
        "play MAN=SCI X1L": "Maneuvering as Scissors → Ki-43 Oscar (X1 leader)",
        "wm X1W": "Wingman attacks Ki-43 Oscar (wingman of X1)",
        "next A1": "Buffalo I (A1) plays next",
        "redraw": "Keep my first hand",
        "redraw MAN TIT": "Redraw Maneuvering, Tight Turn",
        "play TIT=FUT X1L": "Tight Turn as Full Throttle → Ki-43 Oscar (X1 leader)",
        "respond OOS-1B2D=ACE": "Out of the Sun (1B/2D) as Ace Pilot",
        "play FTC X1W": "Full Throttle counter → Ki-43 Oscar (wingman of X1)",
        "respond FTC": "Full Throttle counter",
        "climb FTC": "Climb to High (spend 1 Full Throttle counter)",
        "follow FTC MAN": "Follow (spend 1 Full Throttle counter, discard Maneuvering)",
        "play VER up FTC": "Vertical Roll: climb to High (spend 1 Full Throttle counter)",
    }


async def team_lobby(
    service: GameService, fmt: str, ruleset: str = "zero", year: int = 1942
) -> LoadedGame:
    game = await service.new_lobby(
        guild_id=1,
        channel_id=2,
        host_id=ALICE,
        ruleset=ruleset,
        year=year,
        to_the_death=False,
        format=fmt,
    )
    return await service.attach_thread(game, 3, 4)


async def test_2v2_lobby_shows_seats_points_and_starts_when_full(service: GameService) -> None:
    game = await team_lobby(service, "2v2")
    assert service.open_seats(game) == ["A1", "A2", "X1", "X2"]
    game, seat = await service.join(game, ALICE, "alice", "buffalo-i", "allied", pilot="A,bv")
    assert seat == "A1"
    game, seat = await service.join(game, ALICE, "alice", "p-40b", "allied", wingman=False)
    assert seat == "A2", "a player may fly several elements"
    game, _ = await service.join(game, BOB, "bob", "ki-43", "axis", seat="X2")
    text = service.lobby_text(game)
    assert "Zero!, 1942, 2 v 2, six turns." in text
    assert (
        f"• A1 <@{ALICE}>: Buffalo I with wingman, pilot A (Ace Pilot) +1, BU (Burst +1) +1" in text
    )
    assert f"• A2 <@{ALICE}>: P-40B without wingman" in text
    assert "• X1 *open*" in text and "X2 <@" in text
    assert "Open seats: X1" in text and "X1 still open" in text
    assert "pilots 2" in text and "VP bonus (13.1)" in text
    with pytest.raises(UserError, match="X1 still open"):
        await service.start(game, ALICE)
    with pytest.raises(UserError, match="taken by"):
        await service.join(game, CAROL, "carol", "a6m2", "axis", seat="X2")
    with pytest.raises(UserError, match="no seat X3"):
        await service.join(game, CAROL, "carol", "a6m2", "axis", seat="X3")
    with pytest.raises(UserError, match="Allied side are named A1"):
        await service.join(game, ALICE, "alice", "f4f", "allied", seat="X1")
    with pytest.raises(UserError, match="unknown pilot skill 'Z'"):
        await service.join(game, CAROL, "carol", "a6m2", "axis", pilot="A,Z")
    with pytest.raises(UserError, match="each skill at most once"):
        await service.join(game, CAROL, "carol", "a6m2", "axis", pilot="BU,BV")
    game, seat = await service.join(game, CAROL, "carol", "a6m2", "axis")
    assert seat == "X1"
    assert "Ready: the host can now" in service.lobby_text(game)
    outcome = await service.start(game, ALICE)
    setup = outcome.game.setup
    assert setup is not None
    assert [(e.seat, e.wingman, [k.value for k in e.pilot]) for e in setup.elements] == [
        ("A1", True, ["A", "BU"]),
        ("A2", False, []),
        ("X1", True, []),
        ("X2", True, []),
    ]
    assert {p.seat for p in outcome.prompts} == {"A1", "A2", "X1", "X2"}
    assert all(p.text.startswith(f"{p.text.split(':')[0]}:") for p in outcome.prompts)
    assert any(p.text.startswith("Buffalo I (A1): ") for p in outcome.prompts)


async def test_custom_lobby_grows_to_the_aircraft_limit(service: GameService) -> None:
    game = await team_lobby(service, "custom", ruleset="rotl", year=1941)
    assert service.open_seats(game) == ["A1", "X1"]
    game, _ = await service.join(game, ALICE, "alice", "spitfire-i", "allied")
    with pytest.raises(UserError, match="needs at least one element"):
        await service.start(game, ALICE)
    game, _ = await service.join(game, BOB, "bob", "bf-109e", "axis", wingman=False)
    text = service.lobby_text(game)
    assert "⚠ Rise of the Luftwaffe: both sides should field the same number of aircraft" in text
    assert "(Allies 2, Axis 1)" in text
    assert "Ready" in text
    with pytest.raises(UserError, match="next seat of the Allied side is A2"):
        await service.join(game, ALICE, "alice", "hurricane-iib", "allied", seat="A5")
    for _ in range(6):  # 2 + 1 + 12 = 15 aircraft
        game, _ = await service.join(game, ALICE, "alice", "hurricane-iib", "allied")
    assert sum(2 if p.pick.wingman else 1 for p in game.picks) == 15  # type: ignore[attr-defined]
    assert service.open_seats(game) == []
    with pytest.raises(UserError, match="at most 15 aircraft"):
        await service.join(game, BOB, "bob", "bf-109e", "axis", seat="X2")
    # Changing one's own element is still possible, within the limit.
    with pytest.raises(UserError, match="16 aircraft"):
        await service.join(game, BOB, "bob", "bf-109e", "axis", seat="X1", wingman=True)
    game, seat = await service.leave(game, ALICE, "A7")
    assert seat == "A7" and service.open_seats(game, Side.AXIS) == ["X2"]
    game, _ = await service.join(game, BOB, "bob", "bf-109e", "axis", seat="X1", wingman=True)
    assert "(Allies 12, Axis 2)" in service.lobby_text(game)


async def test_vp_bonus_is_a_lobby_option_of_the_host(service: GameService) -> None:
    game = await team_lobby(service, "1v1")
    await service.join(game, ALICE, "alice", "buffalo-i", "allied")
    game, _ = await service.join(game, BOB, "bob", "a6m2", "axis")
    assert "VP bonus (13.1) off: it would give the Allied side 2 VP." in service.lobby_text(game)
    with pytest.raises(UserError, match="host"):
        await service.set_option(game, BOB, "vp_bonus", True)
    game = await service.set_option(game, ALICE, "vp_bonus", True)
    assert "VP bonus (13.1) **on**: the Allied side starts with 2 VP." in service.lobby_text(game)
    outcome = await service.start(game, ALICE)
    assert outcome.game.setup is not None and outcome.game.setup.vp_bonus


async def test_a_player_with_two_elements_names_the_seat_when_both_could_act(
    service: GameService,
) -> None:
    game = await team_lobby(service, "2v2")
    for seat, user, ac in (
        ("A1", ALICE, "buffalo-i"),
        ("A2", ALICE, "f4f"),
        ("X1", BOB, "ki-43"),
        ("X2", CAROL, "a6m2"),
    ):
        game, _ = await service.join(game, user, "x", ac, None, seat=seat)
    await service.start(game, ALICE)
    with pytest.raises(UserError, match="A1 and A2"):
        await service.act(game.id, ALICE, None, "alt M")
    # Neither element may start at Very High: the engine's refusal is the answer.
    with pytest.raises(UserError, match=r"turbocharged.*4\.5"):
        await service.act(game.id, ALICE, None, "alt VH")
    await service.act(game.id, ALICE, "a2", "alt M")  # seat names are forgiving
    await service.act(game.id, ALICE, None, "alt L")  # only A1 is left to pick
    with pytest.raises(UserError, match="another player"):
        await service.act(game.id, ALICE, "X1", "alt M")


async def test_a_computer_player_failing_leaves_the_players_move_made_and_logged(
    service: GameService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    game = await started(service)
    async with service.locks(game.id):
        game = await service.load(game.id)
        await service.hand_over(game, "X1", None, "computer", "X1 goes to a computer")

    class Broken:
        def choose(self, state: object, seat: str) -> object:
            raise RuntimeError("the computer player crashed")

    monkeypatch.setattr(game.system, "computer_player", lambda seed, level="": Broken())
    version = (await service.load(game.id)).record.version
    outcome = await service.act(game.id, ALICE, None, "alt M")
    assert outcome.game.record.version == version + 1, "Alice's pick stands, nothing more"
    assert [p.seat for p in outcome.prompts] == ["X1"], "X1 is still asked"
    (record,) = [r for r in caplog.records if r.name == "bot.play"]
    assert record.exc_info is not None and "crashed" in str(record.exc_info[1])


async def test_a_copy_held_by_one_process_moved_on_by_another_is_played_as_it_is_now(
    service: GameService,
) -> None:
    """A move is played on the copy of the game the process holds, the database not
    asked first; when another process (a second service on the same database) moved
    the game meanwhile, the commit finds it out and the move is played on the game as
    it is now: applied if it still holds, refused as the game now says if not, never
    twice and never refused for what only the old copy said."""
    game = await started(service)
    old = game.record.version
    other = GameService(service.storage)
    await other.act(game.id, ALICE, "A1", "alt M", version=old)  # the copy held is behind
    outcome = await service.act(game.id, BOB, "X1", "alt L")
    assert outcome.game.record.version == old + 2
    logged = await service.storage.load_actions(game.id)
    assert [(a.seat, a.action) for a in logged] == [("A1", "alt M"), ("X1", "alt L")]
    assert any("Altitudes revealed" in line for line in outcome.public)
    # A player's double click, the second through a process holding the game as it
    # was before the first: told the move went through, nothing written twice.
    behind = GameService(service.storage)
    now = await behind.load(game.id)
    assert now.state is not None
    seat = default_engine().pending(now.state)[0].seat
    user = ALICE if seat == "A1" else BOB
    action = str(service.legal(now, seat)[0])
    await service.act(game.id, user, seat, action, version=now.record.version)
    with pytest.raises(UserError, match="already went through"):
        await behind.act(game.id, user, seat, action, version=now.record.version)
    assert len(await service.storage.load_actions(game.id)) == len(logged) + 1


async def test_a_move_planned_on_rows_that_changed_is_planned_again(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store that kept what the game's last click read (PostgreSQL) refuses a move
    planned on rows another process changed since (``StalePlan``, nothing written): the
    click plans it again on the rows read anew, and the player never hears of it; when
    they keep changing, the click is refused as a race, and nothing is written."""
    game = await started(service)
    storage = service.storage
    commit = storage.commit_move
    stale_left = 1
    asked: list[bool] = []

    async def sometimes_stale(game_id: int, *args: Any, **kwargs: Any) -> Any:
        nonlocal stale_left
        asked.append(kwargs.get("replan", False))
        if stale_left:
            stale_left -= 1
            raise StalePlan(game_id)
        return await commit(game_id, *args, **kwargs)

    monkeypatch.setattr(storage, "commit_move", sometimes_stale)
    await service.act(game.id, ALICE, None, "alt M")
    assert asked == [True, True]  # planned twice, written once
    assert [a.action for a in await storage.load_actions(game.id)] == ["alt M"]
    stale_left = PLAN_ATTEMPTS
    asked.clear()
    version = (await service.load(game.id)).record.version
    with pytest.raises(UserError, match="at the same moment"):
        await service.act(game.id, BOB, None, "alt M")
    assert asked == [True] * PLAN_ATTEMPTS
    assert (await service.load(game.id)).record.version == version
    assert [a.action for a in await storage.load_actions(game.id)] == ["alt M"]


async def test_the_movers_answer_is_made_while_the_move_is_written(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mover's answer is made while the move's write waits for the database, and
    given back once the write went through: the same outcome as one made after it. A
    store whose write does not wait, or a click among others in flight, has it made
    after the write."""
    storage = service.storage
    commit = storage.commit_move
    made: list[int] = []  # the game's version each answer was made for
    during: list[bool] = []  # whether an answer was made while the write waited

    async def waiting(game_id: int, *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0)  # the database's round trip: the loop runs other work
        during.append(bool(made))
        return await commit(game_id, *args, **kwargs)

    def answer(outcome: Outcome) -> tuple[int, Outcome]:
        made.append(outcome.game.record.version)
        return outcome.game.record.version, outcome

    game, twin = await started(service), await started(service, thread=5)
    monkeypatch.setattr(storage, "commit_move", waiting)
    outcome, (version, told) = await service.act_and_answer(game.id, ALICE, None, "alt M", answer)
    assert during == [True] and made == [version]
    assert told.game.record.version == version == outcome.game.record.version
    assert outcome.game.record == await storage.get_game(game.id)  # as written, not planned
    monkeypatch.setattr(storage, "commit_move", commit)  # a write that never waits
    made.clear()
    after = await service.act(twin.id, ALICE, None, "alt M")
    outcome_after, _ = await service.act_and_answer(twin.id, BOB, None, "alt M", answer)
    assert made == [outcome_after.game.record.version]  # made once, after the write
    monkeypatch.setattr(storage, "commit_move", waiting)
    service.crowded = lambda: True  # other clicks in flight: their work comes first
    made.clear()
    during.clear()
    outcome_crowded, _ = await service.act_and_answer(game.id, BOB, None, "alt M", answer)
    assert during == [False] and made == [outcome_crowded.game.record.version]
    assert (outcome.public, outcome.private, outcome.image, outcome.finished) == (
        after.public,
        after.private,
        after.image,
        after.finished,
    )  # the twin's first move, answered after its write: the same outcome
    assert [(p.seat, p.kind, p.text, p.new) for p in outcome.prompts] == [
        (p.seat, p.kind, p.text, p.new) for p in after.prompts
    ]


async def test_a_games_change_has_its_next_clicks_reads_made_once_it_is_answered(
    service: GameService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """After each change of a running game (its start, a move), the store reads what
    the game's next click reads (``Storage.prefetch``): in an interaction once it was
    answered (a follow-up, ``bot.later``), outside one at once. A failed read is
    logged, never raised; a game over is not read ahead."""
    asked: list[int] = []

    async def prefetch(game_id: int) -> None:
        asked.append(game_id)

    monkeypatch.setattr(service.storage, "prefetch", prefetch)
    game = await started(service)
    assert asked == [game.id]  # outside an interaction: at once

    async def click() -> list[FollowUp]:
        follow_ups = answer_first()  # as the gate opens it for an interaction
        await service.act(game.id, ALICE, None, "alt M")
        assert asked == [game.id]  # nothing before the answer
        return follow_ups

    await run_follow_ups(await asyncio.create_task(click()))
    assert asked == [game.id, game.id]

    async def failing(game_id: int) -> None:
        raise OSError("the server went away")

    monkeypatch.setattr(service.storage, "prefetch", failing)
    await service.act(game.id, BOB, None, "alt M")  # the move stands
    assert "could not read ahead" in caplog.text
    monkeypatch.setattr(service.storage, "prefetch", prefetch)
    asked.clear()
    await service.resign(game.id, ALICE)
    assert asked == []


async def test_an_answer_made_for_a_write_that_failed_is_dropped(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An answer made while a write waited is handed to ``discard`` if the write fails:
    planned again (``StalePlan``) the move is answered anew; lost to a race
    (``StaleGameVersion``) the click is refused. Only an answer for a move written is
    ever given back."""
    game = await started(service)
    storage = service.storage
    commit = storage.commit_move
    failures: list[Exception] = [StalePlan(game.id)]
    made: list[object] = []
    dropped: list[object] = []

    async def failing(game_id: int, *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0)
        if failures:
            raise failures.pop(0)
        return await commit(game_id, *args, **kwargs)

    def answer(outcome: Outcome) -> object:
        made.append(object())
        return made[-1]

    monkeypatch.setattr(storage, "commit_move", failing)
    _, answered = await service.act_and_answer(
        game.id, ALICE, None, "alt M", answer, discard=dropped.append
    )
    assert len(made) == 2 and dropped == [made[0]] and answered is made[1]
    made.clear()
    dropped.clear()
    version = (await service.load(game.id)).record.version
    failures.append(StaleGameVersion(game.id, version, version + 1))
    with pytest.raises(UserError, match="at the same moment"):
        await service.act_and_answer(game.id, BOB, None, "alt M", answer, discard=dropped.append)
    assert len(made) == 1 and dropped == made
    assert (await service.load(game.id)).record.version == version
