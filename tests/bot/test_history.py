"""Spectators and history: /game log, verify, replay, list and the after-action report.

Whole games through the real cogs on the offline Discord, plus the history module
on its own: a finished game's exported log replays to the very same state, a
tampered seed or move is caught, nothing hidden leaves before the end, and the full
log after the end holds every hand.
"""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stdout
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import listing
from bot.__main__ import main as bot_main
from bot.commitment import seed_commitment
from bot.history import replay_history
from bot.logfile import LogInfo, export_log, parse_log, public_notation
from bot.report import after_action_report
from bot.testing import FakeDiscord, FakeUser
from bot.testing.driver import UiPlayer, wait_for_new_game
from bot.verify import verify_log
from cogs.app import TallyHoBot
from engine.core import registry
from engine.dif.actions import Action
from engine.dif.ai import RandomPlayer
from engine.dif.game import default_engine
from engine.dif.setup import DifSetup
from tests.scenarios import shoot_down_game

SEED = 0x2C0FFEE1234567
"""Fifteen digits: found in a message only if the seed itself was written there."""
DIF: Any = registry.get("dif")
HIDDEN = re.compile(r"You drew|hand\]|Hand \(\d+\)|mini-hand: |Your secret altitude")


def make_bot(db: Path) -> TallyHoBot:
    return TallyHoBot(database=str(db), seed_source=lambda: SEED)


async def open_game(
    fake: FakeDiscord, bot: TallyHoBot, alice: FakeUser, bob: FakeUser, **alice_extra: Any
) -> tuple[int, int]:
    await fake.start(bot)
    await fake.slash(alice, "dogfight new", channel_id=fake.channel_id, ruleset="zero", year=1942)
    game = await wait_for_new_game(fake, bot.service.storage)
    assert game.thread_id is not None
    await fake.slash(
        alice,
        "dogfight join",
        channel_id=game.thread_id,
        side="allied",
        aircraft="buffalo-i",
        **alice_extra,
    )
    await fake.slash(bob, "dogfight join", channel_id=game.thread_id, side="axis", aircraft="ki-43")
    await fake.slash(alice, "dogfight start", channel_id=game.thread_id)
    return game.id, game.thread_id


async def play(
    fake: FakeDiscord,
    bot: TallyHoBot,
    game_id: int,
    thread: int,
    users: dict[str, FakeUser],
    max_actions: int = 10_000,
) -> None:
    pilots = {s: UiPlayer(fake, u, game_id, thread) for s, u in users.items()}
    brains = {s: RandomPlayer(i + 3) for i, s in enumerate(users)}
    for _ in range(max_actions):
        state = (await bot.service.load(game_id)).state
        assert state is not None
        if state.step == "over":
            return
        p = default_engine().pending(state)[0]
        action = brains[p.seat].choose(default_engine(), state, p.seat)
        await pilots[p.seat].act(str(action), via_dm=p.urgent)


def answer(fake: FakeDiscord, token: str) -> str:
    return str(fake.original(token)["content"])


def texts(fake: FakeDiscord, token: str) -> dict[str, str]:
    return {name: data.decode() for name, data in fake.files(fake.original(token))}


def public_text(fake: FakeDiscord) -> str:
    return "\n".join(m["content"] for m in fake.public_messages())


async def start_cv_game(
    fake: FakeDiscord, tmp_path: Path, alice: FakeUser, bob: FakeUser
) -> tuple[TallyHoBot, int, int, str]:
    """A 1v1 whose Allied pilot has Combat Vision, played up to a redraw of one card.

    Returns the bot, game, thread and the code of the card redrawn.
    """
    bot = make_bot(tmp_path / "game.sqlite3")
    game_id, thread = await open_game(fake, bot, alice, bob, pilot="CV")
    await UiPlayer(fake, alice, game_id, thread).act("alt M")
    await UiPlayer(fake, bob, game_id, thread).act("alt M")
    state = (await bot.service.load(game_id)).state
    assert state is not None and state.step == "redraw"
    code = default_engine().code[state.elements["A1"].hand[0]]
    await UiPlayer(fake, alice, game_id, thread).act(f"redraw {code}")
    return bot, game_id, thread, code


async def test_before_the_end_nothing_hidden_is_public_and_verify_replay_refuse(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    carol = fake.add_member("carol")  # a spectator
    alice = fake.add_member("alice")
    bob = fake.add_member("bob")
    bot = make_bot(tmp_path / "game.sqlite3")
    game_id, thread = await open_game(fake, bot, alice, bob, pilot="CV")
    # The start shows the commitment, never the seed.
    commitment = seed_commitment("dif", game_id, SEED)
    assert f"sha256:{commitment}" in public_text(fake)
    record = await bot.service.storage.get_game(game_id)
    assert record is not None and record.options["commitment"] == commitment

    await UiPlayer(fake, alice, game_id, thread).act("alt H")
    text = texts(fake, await fake.slash(carol, "game log", channel_id=thread))
    ((name, log),) = text.items()
    assert name == f"dogfight-{game_id}.txt"
    assert "[1] A1: alt ?" in log and "alt H" not in log, "the pick stays secret (4.5)"

    await UiPlayer(fake, bob, game_id, thread).act("alt M")
    state = (await bot.service.load(game_id)).state
    assert state is not None and state.step == "redraw"
    code = default_engine().code[state.elements["A1"].hand[0]]
    await UiPlayer(fake, alice, game_id, thread).act(f"redraw {code}")
    await play(fake, bot, game_id, thread, {"A1": alice, "X1": bob}, max_actions=12)
    assert (await bot.service.load(game_id)).record.status == "active"

    log = next(iter(texts(fake, await fake.slash(carol, "game log", channel_id=thread)).values()))
    assert "[1] A1: alt H" in log, "revealed once every seat has picked"
    assert "[3] A1: redraw ?×1" in log and f"redraw {code}" not in log
    assert "# seed: hidden until the game is over" in log and str(SEED) not in log
    assert not HIDDEN.search(log)
    parsed = parse_log(log)
    assert parsed.fields["commitment"] == commitment and len(parsed.log) == 15

    tok = await fake.slash(carol, "game verify", channel_id=thread)
    assert "still being fought" in answer(fake, tok)
    tok = await fake.slash(alice, "game replay", channel_id=thread)
    assert "still being fought" in answer(fake, tok) and not fake.files(fake.original(tok))
    assert str(SEED) not in public_text(fake)
    for m in fake.public_messages():
        assert not HIDDEN.search(m["content"]), m["content"]


async def test_a_finished_game_reveals_the_seed_and_verifies_replays_and_reports(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = fake.add_member("alice"), fake.add_member("bob"), fake.add_member("carol")
    bot, game_id, thread, code = await start_cv_game(fake, tmp_path, alice, bob)
    await play(fake, bot, game_id, thread, {"A1": alice, "X1": bob})
    final = await bot.service.load(game_id)
    assert final.record.status == "finished" and final.state is not None

    # The seed appears in one public message: the after-action report, last of all.
    revealing = [m for m in fake.public_messages() if str(SEED) in m["content"]]
    report = fake.sent_to(thread)[-1]
    assert [m["id"] for m in revealing] == [report["id"]]
    assert "after-action report" in report["content"]
    assert final.record.result is not None
    assert final.record.result["verdict"] in report["content"]
    ((name, png),) = fake.files(report)
    assert name == "report.png" and Image.open(io.BytesIO(png)).width == 960

    # /game log: the public log and the full log, both verifiable.
    files = texts(fake, await fake.slash(carol, "game log", channel_id=thread))
    public, full = files[f"dogfight-{game_id}.txt"], files[f"dogfight-{game_id}-full.txt"]
    assert f"# seed: {SEED}" in public and f"redraw {code}" in public
    assert "You drew" not in public and "hand]" not in public
    assert "(A1 only) You drew" in full and "(X1 only) You drew" in full
    assert "[A1 hand] " in full and "[X1 hand] " in full
    for text in (public, full):
        assert verify_log(text).ok

    # Replayed from its canonical notation, the export gives the very same game.
    parsed = parse_log(public)
    setup = DifSetup.model_validate(json.loads(parsed.fields["setup"]))
    state = default_engine().replay(
        setup, int(parsed.fields["seed"]), [(seat, a) for _, seat, a in parsed.log]
    )
    assert state.to_json() == final.state.to_json()

    # A tampered seed or move is caught.
    tampered = public.replace(f"# seed: {SEED}", f"# seed: {SEED + 1}")
    bad = verify_log(tampered)
    assert not bad.ok and "does NOT match the commitment" in bad.text()
    seq, seat, action = next((s, st, a) for s, st, a in parsed.log if a.startswith("play "))
    other = "pass" if action != "pass" else "done"
    bad = verify_log(
        public.replace(f"[{seq}] {seat}: {action}\n", f"[{seq}] {seat}: {other}\n"),
    )
    assert not bad.ok
    narrated = public.replace("    Game turn 2 begins.", "    Game turn 2 begins!", 1)
    assert not verify_log(narrated).ok

    # /game verify and /game replay, for anyone.
    tok = await fake.slash(carol, "game verify", channel_id=thread)
    text = answer(fake, tok)
    assert "✅ Verified." in text and "matches the commitment" in text
    assert "reproduces the recorded result" in text
    tok = await fake.slash(carol, "game replay", channel_id=thread)
    ((name, gif),) = fake.files(fake.original(tok))
    assert name == f"dogfight-{game_id}-replay.gif"
    assert gif.startswith(b"GIF8") and len(gif) < 8_000_000
    assert Image.open(io.BytesIO(gif)).n_frames > 5


async def test_a_resigned_game_verifies_and_gets_a_report(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = make_bot(tmp_path / "game.sqlite3")
    game_id, thread = await open_game(fake, bot, alice, bob)
    await play(fake, bot, game_id, thread, {"A1": alice, "X1": bob}, max_actions=20)
    await fake.slash(bob, "game resign", channel_id=thread, confirm=True)
    report = fake.sent_to(thread)[-1]["content"]
    assert "after-action report" in report and "resigned" in report and str(SEED) in report
    text = answer(fake, await fake.slash(alice, "game verify", channel_id=thread))
    assert "✅ Verified." in text and "ended by a player after action 20" in text
    gif = fake.files(fake.original(await fake.slash(alice, "game replay", channel_id=thread)))
    assert gif and gif[0][1].startswith(b"GIF8")


async def test_game_list_shows_whose_move_it_is(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, carol = fake.add_member("alice"), fake.add_member("bob"), fake.add_member("carol")
    bot = make_bot(tmp_path / "game.sqlite3")
    running, thread = await open_game(fake, bot, alice, bob)
    await UiPlayer(fake, alice, running, thread).act("alt M")
    await fake.slash(carol, "dogfight new", channel_id=fake.channel_id, ruleset="rotl", year=1940)
    lobby = (await wait_for_new_game(fake, bot.service.storage)).id

    text = answer(fake, await fake.slash(carol, "game list", channel_id=fake.channel_id))
    assert "Open dogfights in this server** (2)" in text
    assert f"**#{running}** <#{thread}>" in text
    assert f"Ki-43 Oscar (X1) <@{bob.id}>: pick a secret starting altitude" in text
    assert "Buffalo I (A1)" not in text, "Alice has picked: the game waits on Bob only"
    assert f"**#{lobby}**" in text and f"lobby, 0/2 seats, host <@{carol.id}>" in text
    loaded = await bot.service.load(running)
    if await listing.deadline_of(loaded, bot.service) is None:
        assert "due" not in text, "no deadline: none is shown, never a made-up one"
    assert text.index(f"#{lobby}") < text.index(f"#{running}"), "newest first"

    text = answer(
        fake, await fake.slash(carol, "game list", channel_id=fake.channel_id, user=alice)
    )
    assert f"#{running}" in text and f"#{lobby}" not in text
    text = answer(
        fake, await fake.slash(carol, "game list", channel_id=fake.channel_id, user=carol)
    )
    assert "No open dogfight of" in text

    # The deadline scheduler fills this hook; the list shows what it returns.
    due = datetime(2025, 1, 2, 12, 0, tzinfo=UTC)

    async def deadline(game: Any, service: Any) -> datetime | None:
        return due if game.id == running else None

    monkeypatch.setattr(listing, "deadline_of", deadline)
    text = answer(fake, await fake.slash(carol, "game list", channel_id=fake.channel_id))
    assert f"due <t:{int(due.timestamp())}:R>" in text


def test_public_notation_masks_only_what_the_narration_does_not_tell() -> None:
    assert public_notation(DIF, "alt VH", picks_secret=True) == "alt ?"
    assert public_notation(DIF, "alt VH", picks_secret=False) == "alt VH"
    assert public_notation(DIF, "redraw MAN TIT", picks_secret=False) == "redraw ?×2"
    assert public_notation(DIF, "redraw", picks_secret=False) == "redraw"
    assert public_notation(DIF, "play VER up MAN", picks_secret=False) == "play VER up ?"
    for text in ("play VER down", "play MAN X1L", "discard MAN", "climb TIT", "follow MAN"):
        assert public_notation(DIF, text, picks_secret=True) == text


# ---------------------------------------------------------------- without Discord


def test_the_report_says_who_shot_down_whom_and_every_fate() -> None:
    engine = default_engine()
    setup, log = shoot_down_game()
    history = replay_history(DIF, setup, 11, log)
    state = history.final
    # Finish the game with computer players; the report must agree with the state.
    brains = [RandomPlayer(5), RandomPlayer(6)]
    seq = len(log)
    while state.step != "over":
        p = engine.pending(state)[0]
        action = brains[p.seat.startswith("X")].choose(engine, state, p.seat)
        state, _ = engine.apply(state, p.seat, action)
        seq += 1
        log.append((seq, p.seat, str(action)))
    history = replay_history(DIF, setup, 11, log)
    assert history.final.to_json() == state.to_json()
    report = after_action_report(
        history,
        title="Dogfight #1: after-action report",
        result=state.result,
        players={"A1": "alice", "A2": "bob", "X1": "carol", "X2": "dave"},
    )
    lines = {a.ref: a for a in report.aircraft}
    assert set(lines) == {"A1L", "A1W", "A2L", "A2W", "X1L", "X1W", "X2L", "X2W"}
    x2l = lines["X2L"]
    assert x2l.fate == "shot down" and x2l.player == "dave"
    assert x2l.detail.startswith("by P-40B (A2 leader) on turn 1")
    assert x2l.label == "A6M2 Zero (X2 leader)"
    assert lines["X2W"].label == "A6M2 Zero (wingman of X2, then leader)"
    assert "took over as leader" in lines["X2W"].detail
    assert report.exchanges[0].turn == 1
    assert report.exchanges[0].text == (
        "P-40B (A2 leader) → A6M2 Zero (X2 leader), In My Sights (1B/2D): shot down"
    )
    assert lines["A2L"].hits_given >= 2 and x2l.hits_taken >= 2
    # Every fate agrees with the final state, and the VP with the result.
    view = engine.view(state, None)
    for el in view.elements:
        planes = {p.ref: p for p in (*el.lost, el.leader, el.wingman) if p is not None}
        for ref, p in planes.items():
            origin = f"{el.seat}L" if "lost" in ref else ref
            if p.promoted:
                origin = f"{el.seat}W"
            fate = lines[origin].fate
            expected = {"destroyed": "shot down", "evaded": "evaded"}.get(p.status.value)
            untouched = "hit" if lines[origin].hits_taken else "unharmed"  # card not flipped
            assert fate == (expected or ("damaged" if p.damaged else untouched))
    assert state.result is not None
    assert report.vp == state.result["vp"]
    assert sum(a.hits_given for a in report.aircraft) == sum(a.hits_taken for a in report.aircraft)


def test_python_m_bot_verify_reads_an_exported_log(tmp_path: Path) -> None:
    setup, log = shoot_down_game()
    history = replay_history(DIF, setup, 11, log)
    info = LogInfo(7, "aborted", seed_commitment("dif", 7, 11), 11, None, {"A1": "alice"})
    path = tmp_path / "dogfight-7.txt"
    path.write_text(export_log(history, info, full=True))
    out = io.StringIO()
    with redirect_stdout(out):
        code = bot_main(["verify", str(path)])
    text = out.getvalue()
    assert code == 0, text
    assert "✔ The game was aborted after action 17: there is no result to check." in text
    assert "✔ The seed 11 matches the commitment" in text
    assert "✔ All 17 actions replay legally" in text
    assert "✔ Every line of narration" in text
    assert "X2L-lost1" in text and "destroyed" in text
    path.write_text(path.read_text().replace("[17] X2: pass", "[17] X2: respond MAN"))
    with redirect_stdout(io.StringIO()):
        assert bot_main(["verify", str(path)]) == 1
    with redirect_stdout(io.StringIO()):
        assert bot_main(["verify", str(tmp_path / "missing.txt")]) == 2


def test_the_seed_commitment_scheme() -> None:
    import hashlib

    expected = hashlib.sha256(b"tally-ho/dif/seed/v1:12:345").hexdigest()
    assert seed_commitment("dif", 12, 345) == expected
    assert seed_commitment("dif", 13, 345) != expected


def test_actions_in_an_export_round_trip() -> None:
    setup, log = shoot_down_game()
    history = replay_history(DIF, setup, 11, log)
    info = LogInfo(7, "finished", None, 11, None)
    parsed = parse_log(export_log(history, info))
    assert parsed.log == log
    assert all(str(Action.from_text(a)) == a for _, _, a in parsed.log)
