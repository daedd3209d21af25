"""``python -m bot demo``: a whole game played offline by computer players.

The real bot (cogs, service, SQLite storage, renderer) runs against the offline
Discord of :mod:`bot.testing` (test support, shipped for this demo); fake users open a
lobby, join, start, and then play the system's computer player's moves by clicking
the bot's buttons and menus. The public thread is printed as a transcript, in
the order its readers saw it (a message edited later, like the lobby message, again
where it changed, marked ``(edited)``; mentions as Discord shows them, ``@alice``),
each picture of the sky is written to ``--out``, and the last line states the result. The
same seed gives the same transcript, byte for byte. Any registered system with a demo
(its presenter's ``demo``) plays: pick it by ruleset.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from bot.games import LoadedGame
from bot.service import GameService
from bot.storage import GameStatus
from bot.systems import hosted, hosted_ids, rulesets
from bot.testing import FakeDiscord
from bot.testing.campaigns import CampaignDriver
from bot.testing.driver import UiPlayer, wait_for_new_game
from cogs.app import TallyHoBot
from engine.core.contract import COMPUTER_LEVELS, DEFAULT_COMPUTER_LEVEL, Decision
from engine.core.registry import campaign_system, campaign_system_ids
from strings import SUPPORTED, tr

__all__ = ["main", "parser", "play_campaign_demo", "play_demo"]

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


async def play_demo(
    seed: int,
    out: Path | None,
    ruleset: str | None = None,
    database: str | None = None,
    format: str = "1v1",
    language: str = "en",
    scenario: int | None = None,
    level: str = DEFAULT_COMPUTER_LEVEL,
) -> list[str]:
    """Play one game; returns the transcript lines (the last one is the result).
    ``level``: the computer players' (:data:`engine.core.contract.COMPUTER_LEVELS`).

    ``language``: the server's language (``/config language``), so the thread, its
    pictures and the players' messages are in it; the result line stays English.
    ``ruleset``: any registered system's (default: the registry's first). ``scenario``:
    one of the system's numbered historical set-ups instead of its usual game."""
    ruleset = ruleset or next(iter(rulesets()))
    system = hosted(rulesets()[ruleset])
    demo = system.presenter().demo(ruleset, format, scenario)
    if demo is None:
        raise ValueError(f"no demo of {ruleset} in format {format} (scenario {scenario})")
    options = {"format": format, **demo.options}  # a solitaire game brings its own format
    with tempfile.TemporaryDirectory() as tmp:
        db = database or str(Path(tmp) / "demo.sqlite3")
        async with FakeDiscord() as fake:
            members = [fake.add_member(n) for n in NAMES[: len(demo.seats)]]
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
                **options,
            )
            game = await wait_for_new_game(fake, bot.service.storage)
            thread = game.thread_id
            assert thread is not None
            users = {}
            for (seat, side, aircraft), user in zip(demo.seats, members, strict=True):
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
            brains = {
                s: system.computer_player(seed * 2 + i + 1, level)
                for i, s in enumerate(sorted(users))
            }
            service = bot.service
            for _ in range(10000):
                loaded = await service.load(game.id)
                state = loaded.state
                assert state is not None
                if system.is_over(state):
                    break
                p = system.pending(state)[0]
                action = brains[p.seat].choose(state, p.seat)
                await _act(fake, service, loaded, pilots[p.seat], str(action), p)
            names = {u.id: u.name for u in (fake.bot_user, *fake.members.values())}
            lines = [
                ("(edited) " if edited else "") + shown_names(content, names)
                for _, content, edited in fake.timeline(thread)
            ]
            n_image = 0
            for m in fake.sent_to(thread):
                for name, data in fake.files(m):
                    n_image += 1
                    if out is not None:
                        out.mkdir(parents=True, exist_ok=True)
                        (out / f"{n_image:03d}-{name}").write_bytes(data)
            final = await service.load(game.id)
            lines.append(result_line(final))
            problems = fake.problems()
            if problems:
                raise RuntimeError("the offline Discord saw problems: " + "; ".join(problems))
            return lines


async def _act(
    fake: FakeDiscord,
    service: GameService,
    game: LoadedGame,
    pilot: UiPlayer,
    action: str,
    p: Decision,
) -> None:
    """``pilot`` performs ``action`` for the decision ``p`` of ``game``, and the demo
    waits until the game moved on. On a loaded machine a click's answer may come
    before the messages it updates (a DM still offering an older decision): a click
    that changed nothing is made again, so each brain chooses once per decision and
    a seed's transcript does not depend on the machine's speed."""
    for _ in range(3):
        await pilot.act(action, via_dm=p.urgent, seat=p.seat)
        for _ in range(50):
            record = await service.storage.get_game(game.id)
            if record is not None and record.version != game.record.version:
                return
            await fake.settle()
    raise RuntimeError(f"game {game.id}: {p.seat} could not play {action!r} in the UI")


MENTION = re.compile(r"<@!?(\d+)>")


def shown_names(text: str, names: Mapping[int, str]) -> str:
    """``<@123>`` as Discord shows it to a reader: ``@alice``."""
    return MENTION.sub(lambda m: "@" + names.get(int(m[1]), m[1]), text)


def result_line(game: LoadedGame) -> str:
    """The demo's last line: verdict, winner and VP of every side."""
    result = game.record.result or {}
    vp = result.get("vp") or {}
    assert isinstance(vp, dict)
    sides = game.sides()
    winner = result.get("winner")
    who = next((str(s.name) for s in sides if s.id == winner), "nobody (draw)")
    scores = ", ".join(f"{s.name} {vp.get(s.id, 0)}" for s in sides)
    return f"RESULT: {result.get('verdict', 'unfinished')}. Winner: {who}. VP {scores}."


def campaign_ids() -> dict[str, tuple[str, str]]:
    """Every campaign any system offers, with its system and its id there: by its id,
    and by its id prefixed with the system's (``eagles-cambrai``)."""
    out: dict[str, tuple[str, str]] = {}
    for s in campaign_system_ids():
        for c in campaign_system(s).campaigns():
            out[c.id] = (s, c.id)
            out.setdefault(f"{s}-{c.id}", (s, c.id))
    return out


async def play_campaign_demo(
    seed: int,
    campaign: str,
    out: Path | None = None,
    language: str = "en",
    options: Mapping[str, str] | None = None,
    level: str = DEFAULT_COMPUTER_LEVEL,
) -> list[str]:
    """Play a whole campaign offline: one member a side opens, joins and starts it,
    makes each side's choices in the private menus and flies every mission through
    the game threads' UI, with the computer players' choices. Returns one line per
    mission (its result) and the campaign's result last. Same seed, same lines."""
    system_id, campaign = campaign_ids()[campaign]
    sides = campaign_system(system_id).campaigns()
    info = next(c for c in sides if c.id == campaign)
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            members = [fake.add_member(n) for n in NAMES[: len(info.sides)]]
            bot = TallyHoBot(database=str(Path(tmp) / "demo.sqlite3"), seed_source=lambda: seed)
            await fake.start(bot)
            if language != "en":
                admin = fake.add_member("admin", admin=True)
                await fake.slash(admin, "config language", language=language)
            host = members[0]
            extra = {"options": " ".join(f"{k}={v}" for k, v in options.items())} if options else {}
            await fake.slash(
                host,
                "campaign new",
                channel_id=fake.channel_id,
                system=system_id,
                name=campaign,
                **extra,
            )
            (record,) = await bot.service.storage.list_campaigns()
            assert record.thread_id is not None
            for member, side in zip(members, info.sides, strict=True):
                await fake.slash(member, "campaign join", channel_id=record.thread_id, side=side.id)
            await fake.slash(host, "campaign start", channel_id=record.thread_id)
            driver = CampaignDriver(fake, bot, record.id, {m.id: m for m in members}, seed, level)
            while await driver.step() != "done":
                pass
            loaded = await bot.campaigns.load(record.id)
            sheet = loaded.sheet(None)
            names = {s.id: str(s.name) for s in sheet.sides}
            played = {
                g.mission: g.id
                for g in await bot.service.storage.games_of_campaign(record.id)
                if g.status is GameStatus.FINISHED
            }
            lines = []
            for row in sheet.missions:
                scores = ", ".join(f"{names[k]} {v}" for k, v in row.vp.items()) or "-"
                how = (
                    f"game {played[row.number]}"
                    if row.number in played
                    else tr(row.note or "", language) or "no game"
                )
                title = tr(row.title, language)
                lines.append(f"MISSION #{row.number} {title} ({how}): {scores}")
            if out is not None:
                out.mkdir(parents=True, exist_ok=True)
                n = 0
                for m in fake.sent_to(record.thread_id):
                    for name, data in fake.files(m):
                        n += 1
                        (out / f"{n:03d}-{name}").write_bytes(data)
            result = sheet.result
            assert result is not None
            lines.append(f"CAMPAIGN: {tr(result.verdict, language)}")
            problems = fake.problems()
            if problems:
                raise RuntimeError("the offline Discord saw problems: " + "; ".join(problems))
            return lines


def parser() -> argparse.ArgumentParser:
    """The demo's command line (``python -m bot demo --help`` prints every option)."""
    p = argparse.ArgumentParser(
        prog="python -m bot demo",
        description=(
            "Play a whole game offline: computer players click the bot's real buttons "
            "on an in-memory Discord. Prints the thread's transcript (the last line is "
            "the result); the same options always give the same transcript."
        ),
    )
    p.add_argument(
        "--seed",
        type=int,
        default=1,
        metavar="N",
        help="the game's seed and the computer players' (default 1)",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="save every picture of the sky in this folder (default: none saved)",
    )
    p.add_argument(
        "--system",
        choices=hosted_ids(),
        default=None,
        help="the game system, played in its first ruleset unless --ruleset says "
        "otherwise (default: the ruleset's system)",
    )
    p.add_argument(
        "--ruleset",
        choices=sorted(rulesets()),
        default=None,
        help="a ruleset of that system (default: the first system's first ruleset)",
    )
    p.add_argument(
        "--format",
        choices=("1v1", "2v2"),
        default="1v1",
        help="one or two seats a side, each a computer player (default 1v1)",
    )
    p.add_argument(
        "--scenario",
        type=int,
        default=None,
        help="a numbered historical scenario of the system, if it has them (default none)",
    )
    p.add_argument(
        "--campaign",
        choices=sorted(campaign_ids()),
        default=None,
        help="play a whole campaign instead of one game: one line per mission, then the "
        "campaign's result",
    )
    p.add_argument(
        "--options",
        default=None,
        metavar="NAME=VALUE",
        help="with --campaign: the campaign's options, as /campaign new takes them "
        "(Locked-On: scale=2 or scale=3, Campaign Scaling; Eagles in the Sky: days=2; "
        "Zero!: period=feb-mar-1942, a land campaign's Period)",
    )
    p.add_argument(
        "--language",
        choices=SUPPORTED,
        default="en",
        help="the server's language: the thread, its pictures and the report (default en)",
    )
    p.add_argument(
        "--level",
        choices=COMPUTER_LEVELS,
        default=DEFAULT_COMPUTER_LEVEL,
        help="how the computer players play: random (any legal move), heuristic (the "
        "rules' tactics) or search (thinks ahead: slower) (default %(default)s)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    cli = parser()
    args = cli.parse_args(argv)
    owner = rulesets()
    if args.system is not None and args.ruleset is None:
        args.ruleset = hosted(args.system).rulesets[0].id
    elif args.system is not None and owner[args.ruleset] != args.system:
        cli.error(f"ruleset {args.ruleset} is not one of {args.system}'s")
    args.ruleset = args.ruleset or next(iter(owner))
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice: not needed
    if args.campaign is not None:
        options = dict(w.split("=", 1) for w in (args.options or "").split() if "=" in w)
        lines = asyncio.run(
            play_campaign_demo(
                args.seed, args.campaign, args.out, args.language, options, args.level
            )
        )
        sys.stdout.write("\n".join(lines) + "\n")
        return 0
    lines = asyncio.run(
        play_demo(
            args.seed,
            args.out,
            args.ruleset,
            format=args.format,
            language=args.language,
            scenario=args.scenario,
            level=args.level,
        )
    )
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
