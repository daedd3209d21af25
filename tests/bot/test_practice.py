"""Practice against the computer (``/dogfight new opponent:computer level:``), and the
level a server gives its computer players (``/config computer level:``).

A person plays a whole game of each system against the computer through the offline
Discord: they open the lobby, take a seat, press start, and make every decision of
their seat through the UI; the computer's seats are filled at the start and move at
once, at the level chosen. The person's choices come from the ``random`` level
(a person is not a strong player), the computer's from its own level.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

import pytest

from bot.errors import Refusal
from bot.settings import ComputerLevel, DeadlinePolicy
from bot.testing import FakeDiscord, FakeUser
from bot.testing.driver import UiPlayer, text_of, wait_for_new_game
from cogs.app import TallyHoBot
from engine.core import registry
from engine.core.contract import COMPUTER_LEVELS, DEFAULT_COMPUTER_LEVEL, Timing

SEED = 20261202

GAMES = [
    # (ruleset, new's options, the person's side and aircraft, their seat, private lines)
    pytest.param(
        "zero",
        {"year": 1942},
        ("allied", "buffalo-i"),
        "A1",
        r"Hand \(\d+\)|You drew|Wingman's mini-hand: ",
        id="dif",
    ),
    pytest.param(
        "lockedon",
        {"battle_year": 1982},
        ("A", "sea-harrier-frs1"),
        "A1",
        r"Hand \(\d+, limit|Your Missile's cards|You draw",
        id="lockedon",
    ),
    pytest.param(
        "eagles",
        {"engagement": "patrol", "month": "1918-04", "flight": "points 20"},
        ("allied", "se5a"),
        "A1",
        r"Hand \(\d+|You draw",
        id="eagles",
    ),
]


async def _open_practice(
    fake: FakeDiscord, bot: TallyHoBot, host: FakeUser, ruleset: str, **options: Any
) -> int:
    """A practice lobby's thread; returns the game id."""
    await fake.slash(
        host,
        "dogfight new",
        channel_id=fake.channel_id,
        ruleset=ruleset,
        opponent="computer",
        **options,
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    assert game.thread_id is not None
    return game.id


@pytest.mark.parametrize(("ruleset", "options", "pick", "seat", "private"), GAMES)
async def test_a_person_plays_a_whole_game_against_the_computer(
    tmp_path: Path,
    ruleset: str,
    options: dict[str, Any],
    pick: tuple[str, str],
    seat: str,
    private: str,
) -> None:
    fake = FakeDiscord()
    alice = fake.add_member("alice")
    bot = TallyHoBot(database=str(tmp_path / "p.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    game_id = await _open_practice(fake, bot, alice, ruleset, level="heuristic", **options)
    game = await bot.service.load(game_id)
    thread = game.record.thread_id
    assert thread is not None
    lobby = fake.sent_to(thread)[0]["content"]
    assert "Practice against the computer (heuristic)" in lobby
    assert "Ready" not in lobby, "nobody has joined: a practice game needs its person"

    side, aircraft = pick
    await fake.slash(alice, "dogfight join", channel_id=thread, side=side, aircraft=aircraft)
    await fake.slash(alice, "dogfight start", channel_id=thread)

    game = await bot.service.load(game_id)
    computers = [s.seat for s in game.seats if s.user_id is None]
    assert computers and all(game.side_of(s) != side for s in computers)
    settings = await bot.service.game_settings(game_id)
    assert settings["computer_seats"] == sorted(computers)
    assert settings["computer_levels"] == dict.fromkeys(computers, "heuristic")

    listed = fake.original(await fake.slash(alice, "game list"))["content"]
    assert "🤖 practice (heuristic)" in listed, "a practice game says so where it is listed"

    system = registry.get(game.record.system)
    person = system.computer_player(SEED, "random")
    pilot = UiPlayer(fake, alice, game_id, thread)
    for _ in range(3000):
        state = (await bot.service.load(game_id)).state
        if system.is_over(state):
            break
        pending = system.pending(state)
        assert pending, "a game under way always waits for someone"
        assert {p.seat for p in pending} <= {s.seat for s in game.seats if s.user_id}, (
            "the computer's decisions are made at once: only the person is ever waited for"
        )
        d = pending[0]
        action = person.choose(state, d.seat)
        await pilot.act(str(action), via_dm=d.timing is Timing.RESPONSE, seat=d.seat)
    else:
        pytest.fail("the game did not end")

    outcome = system.outcome((await bot.service.load(game_id)).state)
    assert outcome is not None
    lines = [text_of(m) for m in fake.public_messages()]
    assert any("(computer)" in line for line in lines), "the computer's moves are told"
    hidden = re.compile(private)
    for line in lines:
        assert not hidden.search(line), f"hidden information in public: {line!r}"
    assert not fake.problems(), fake.problems()


async def test_the_practice_lobby_refuses_what_does_not_fit(tmp_path: Path) -> None:
    fake = FakeDiscord()
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = TallyHoBot(database=str(tmp_path / "r.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    service = bot.service

    with pytest.raises(Refusal) as level_alone:
        await service.new_lobby(
            guild_id=fake.guild_id, channel_id=fake.channel_id, host_id=alice.id,
            ruleset="zero", year=1942, level="search",
        )  # fmt: skip
    assert level_alone.value.key == "refusal.computer_level"

    plain = await service.new_lobby(
        guild_id=fake.guild_id,
        channel_id=fake.channel_id,
        host_id=alice.id,
        ruleset="zero",
        year=1942,
    )
    with pytest.raises(Refusal) as not_practice:
        await service.join(plain, alice.id, "alice", "ki-43", "axis", computer=True)
    assert not_practice.value.key == "refusal.computer_seat_practice"

    game_id = await _open_practice(fake, bot, alice, "zero", year=1942, level="search")
    game = await service.load(game_id)
    with pytest.raises(Refusal) as guest:
        await service.join(game, bob.id, "bob", "ki-43", "axis", computer=True)
    assert guest.value.key == "refusal.computer_seat_host"
    with pytest.raises(Refusal) as alone:
        await service.start(game, alice.id)
    assert alone.value.key == "lobby.problem.practice_human"
    assert [s.seat for s in (await service.load(game_id)).seats] == [], "nothing changed"

    # The host chooses the computer's aircraft; bob joins the host's side.
    game, taken = await service.join(game, alice.id, "alice", "ki-43", "axis", computer=True)
    assert taken == "X1"
    assert "🤖 computer flies for" in service.joined_text(game, alice.id, taken)
    game, _ = await service.join(game, bob.id, "bob", "buffalo-i", "allied")
    outcome = await service.start(game, alice.id)
    started = outcome.game
    assert [(s.seat, s.user_id) for s in started.seats] == [("A1", bob.id), ("X1", None)]
    settings = await service.game_settings(game_id)
    assert settings["computer_levels"] == {"X1": "search"}


async def test_the_server_chooses_its_computer_players_level(tmp_path: Path) -> None:
    fake = FakeDiscord()
    admin = fake.add_member("admin", admin=True)
    bot = TallyHoBot(database=str(tmp_path / "c.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    token = await fake.slash(admin, "config computer", allowed=True, level="search")
    shown = fake.original(token)["content"]
    assert "may take over seats, at level search" in shown
    token = await fake.slash(admin, "config show")
    assert "at level search" in fake.original(token)["content"]


async def test_a_computer_move_the_rules_refuse_gives_way_to_the_passive_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A computer player's bug (a move its own rules refuse) is logged, and the seat
    takes its passive default instead of waiting for a decision nobody would make."""
    fake = FakeDiscord()
    alice = fake.add_member("alice")
    bot = TallyHoBot(database=str(tmp_path / "b.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    service = bot.service
    game_id = await _open_practice(fake, bot, alice, "zero", year=1942)
    game = await service.load(game_id)
    system = game.system

    class Faulty:
        def choose(self, state: Any, seat: str) -> Any:
            return system.parse_action("pass")  # never legal at the start

    monkeypatch.setattr(type(system), "computer_player", lambda self, seed, level="": Faulty())
    game, _ = await service.join(game, alice.id, "alice", "buffalo-i", "allied")
    started = (await service.start(game, alice.id)).game
    fresh, _ = system.new_game(started.setup, started.record.seed)
    rows = await service.storage.load_actions(game_id)
    assert [(r.seat, r.action) for r in rows] == [
        ("X1", str(system.default_action(fresh, "X1")))
    ], "the computer seat took its passive default"
    assert "refused its own computer move for X1" in caplog.text


def test_the_servers_levels_are_the_contracts() -> None:
    assert get_args(ComputerLevel) == COMPUTER_LEVELS
    assert DeadlinePolicy().computer_level == DEFAULT_COMPUTER_LEVEL


async def test_the_computers_aircraft_keep_the_game_within_the_rules(tmp_path: Path) -> None:
    """The computer's aircraft add none of the system's start problems: an Eagles in
    the Sky flight of 32 points a side (§3.51) beside a human's SE5a (18 points)."""
    fake = FakeDiscord()
    alice = fake.add_member("alice")
    bot = TallyHoBot(database=str(tmp_path / "e.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    service = bot.service
    for _ in range(6):  # the computer's choices are drawn from each game's id
        game = await service.new_lobby(
            guild_id=fake.guild_id, channel_id=fake.channel_id, host_id=alice.id,
            ruleset="eagles", format="2v2", opponent="computer",
            engagement="patrol", month="1918-04", flight="points 32",
        )  # fmt: skip
        game, _ = await service.join(game, alice.id, "alice", "se5a", "allied")
        assert service.start_problems(game) == []
        started = (await service.start(game, alice.id)).game
        assert started.system.start_problems(started.options, started.picks) == []


async def test_a_practice_lobby_the_rules_refuse_stays_as_it_was(tmp_path: Path) -> None:
    """A custom Locked-On practice lobby with two aircraft on side A needs Team Games
    (L388-389): the lobby says so, the start writes no computer seat, and the host may
    unseat the computer player it added."""
    fake = FakeDiscord()
    alice = fake.add_member("alice")
    bot = TallyHoBot(database=str(tmp_path / "l.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    service = bot.service
    game = await service.new_lobby(
        guild_id=fake.guild_id, channel_id=fake.channel_id, host_id=alice.id,
        ruleset="lockedon", format="custom", opponent="computer", battle_year=1982,
    )  # fmt: skip
    game, _ = await service.join(game, alice.id, "alice", "sea-harrier-frs1", "A")
    game, extra = await service.join(
        game, alice.id, "alice", "sea-harrier-frs1", "A", computer=True
    )
    assert "Team Games" in service.lobby_text(game).splitlines()[-1]
    with pytest.raises(Refusal) as refused:
        await service.start(game, alice.id)
    assert "Team Games" in str(refused.value)
    seats = [(s.seat, s.user_id) for s in (await service.load(game.id)).seats]
    assert seats == [("A1", alice.id), (extra, None)], "the start wrote nothing"
    game, left = await service.leave(game, alice.id, extra)
    assert left == extra and [s.seat for s in game.seats] == ["A1"]
    started = (await service.start(game, alice.id)).game
    assert [(s.seat, s.side, s.user_id) for s in started.seats] == [
        ("A1", "A", alice.id),
        ("B1", "B", None),
    ]
