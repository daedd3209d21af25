"""``python -m bot demo``: a whole dogfight played offline by two computer players.

The real bot (cogs, service, SQLite storage, renderer) runs against the offline
Discord of :mod:`bot.testing`; two fake users open a lobby, join, start, and then
play random legal moves by clicking the bot's buttons and menus. The public thread
is printed as a transcript, each picture of the sky is written to ``--out``, and the
last line states the result. The same seed gives the same transcript, byte for byte.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

from bot.testing import FakeDiscord
from bot.testing.driver import UiPlayer, wait_for_new_game
from cogs.app import TallyHoBot
from engine.dif.ai import RandomPlayer
from engine.dif.components import Ruleset, Side
from strings import SUPPORTED

__all__ = ["main", "play_demo"]

MATCHUPS = {
    "zero": ("buffalo-i", "ki-43", 1942),
    "rotl": ("spitfire-i", "bf-109e", 1940),
}
TEAMS = {
    "zero": (("buffalo-i", "p-40b"), ("ki-43", "a6m2"), 1942),
    "rotl": (("spitfire-i", "hurricane-iib"), ("bf-109e", "bf-110c"), 1941),
}
"""2v2: two players a side, each flying one element."""


async def play_demo(
    seed: int,
    out: Path | None,
    ruleset: str = "zero",
    database: str | None = None,
    format: str = "1v1",
    language: str = "en",
) -> list[str]:
    """Play one game; returns the transcript lines (the last one is the result).

    ``language``: the server's language (``/config language``), so the thread, its
    pictures and the players' messages are in it; the result line stays English."""
    allied_team: tuple[str, ...]
    axis_team: tuple[str, ...]
    if format == "2v2":
        allied_team, axis_team, year = TEAMS[ruleset]
    else:
        allied, axis, year = MATCHUPS[ruleset]
        allied_team, axis_team = (allied,), (axis,)
    with tempfile.TemporaryDirectory() as tmp:
        db = database or str(Path(tmp) / "demo.sqlite3")
        async with FakeDiscord() as fake:
            names = ("alice", "bob", "carol", "dave") if format == "2v2" else ("alice", "bob")
            members = [fake.add_member(n) for n in names]
            bot = TallyHoBot(database=db, seed_source=lambda: seed)
            await fake.start(bot)
            host = members[0]
            if language != "en":
                admin = fake.add_member("admin", admin=True)
                await fake.slash(admin, "config language", language=language)
            await fake.slash(
                host,
                "dogfight new",
                channel_id=fake.channel_id,
                ruleset=ruleset,
                year=year,
                format=format,
            )
            game = await wait_for_new_game(fake, bot.service.storage)
            thread = game.thread_id
            assert thread is not None
            allied_users = members[: len(allied_team)]
            axis_users = members[len(allied_team) :]
            users = {}
            for side, team, people in (
                ("allied", allied_team, allied_users),
                ("axis", axis_team, axis_users),
            ):
                for n, (aircraft, user) in enumerate(zip(team, people, strict=True), start=1):
                    seat = f"{'A' if side == 'allied' else 'X'}{n}"
                    await fake.slash(
                        user,
                        "dogfight join",
                        channel_id=thread,
                        side=side,
                        aircraft=aircraft,
                        seat=seat,
                    )
                    users[seat] = user
            await fake.slash(host, "dogfight start", channel_id=thread)
            pilots = {s: UiPlayer(fake, u, game.id, thread) for s, u in users.items()}
            brains = {s: RandomPlayer(seed * 2 + i + 1) for i, s in enumerate(sorted(users))}
            service = bot.service
            for _ in range(10000):
                loaded = await service.load(game.id)
                state = loaded.state
                assert state is not None
                if state.step == "over":
                    break
                p = service.engine.pending(state)[0]
                action = brains[p.seat].choose(service.engine, state, p.seat)
                await pilots[p.seat].act(
                    str(action), via_dm=p.kind in ("respond", "follow"), seat=p.seat
                )
            lines = []
            n_image = 0
            for m in fake.sent_to(thread):
                lines.append(m["content"])
                for name, data in fake.files(m):
                    n_image += 1
                    if out is not None:
                        out.mkdir(parents=True, exist_ok=True)
                        (out / f"{n_image:03d}-{name}").write_bytes(data)
            final = await service.load(game.id)
            lines.append(result_line(final.record.result or {}, ruleset))
            problems = fake.problems()
            if problems:
                raise RuntimeError("the offline Discord saw problems: " + "; ".join(problems))
            return lines


def result_line(result: dict[str, object], ruleset: str) -> str:
    """The demo's last line: verdict, winner and VP of both sides."""
    rs = Ruleset(ruleset)
    vp = result.get("vp") or {}
    assert isinstance(vp, dict)
    winner = result.get("winner")
    who = Side(str(winner)).label(rs) if winner else "nobody (draw)"
    return (
        f"RESULT: {result.get('verdict', 'unfinished')}. Winner: {who}. "
        f"VP {Side.ALLIED.label(rs)} {vp.get('allied', 0)}, {Side.AXIS.label(rs)} {vp.get('axis', 0)}."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot demo", description="Play a whole dogfight offline."
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="game and computer-player seed (default 1)"
    )
    parser.add_argument("--out", type=Path, default=None, help="folder for the pictures of the sky")
    parser.add_argument("--ruleset", choices=sorted(MATCHUPS), default="zero")
    parser.add_argument(
        "--format", choices=("1v1", "2v2"), default="1v1", help="one or two elements a side"
    )
    parser.add_argument(
        "--language", choices=SUPPORTED, default="en", help="the server's language (default en)"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice: not needed
    lines = asyncio.run(
        play_demo(args.seed, args.out, args.ruleset, format=args.format, language=args.language)
    )
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
