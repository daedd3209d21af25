"""Campaign benchmark: whole campaigns flown by random players, engine only (not part
of the test suite).

    python bench/campaigns.py [--campaigns N] [--campaign ID]

For each of N seeds: a campaign of the registry's systems with a campaign game is
created, each side's decisions are the computer player's, and each mission is flown to
its end as a game with the system's computer players; the campaign absorbs each
outcome. Then the campaign is rebuilt from its log (``engine.core.campaign.replay``, what
the bot does on every load) and its sheet drawn. Prints, per campaign sheet, the median
time of a whole campaign (every mission game included), of one rebuild from the log,
of ``mission_setup`` and of one sheet's picture, and the games' share of the total:
loading a campaign must stay a small fraction of a mission's move, under 5 ms median
(the bot rebuilds it once, then replays only the entries its cached state lacks).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import registry
from engine.core.campaign import CampaignEntry, EntryKind, outcome_text, replay
from rendering.campaign import render_sheet


def fly(system_id: str, campaign: str, seed: int) -> tuple[list[CampaignEntry], Any, float, float]:
    """A whole campaign: its log, its setup, the seconds in mission games, in all."""
    rules = registry.campaign_system(system_id)
    game_system: Any = registry.get(system_id)
    setup = rules.setup_model.model_validate({"campaign": campaign})
    state = rules.new_campaign(setup, seed)
    log: list[CampaignEntry] = []
    in_games = 0.0
    start = time.perf_counter()
    while not rules.is_over(state):
        pending = rules.pending(state)
        if pending:  # one at a time: a decision may settle a mission (an Encounter)
            d = pending[0]
            action = rules.computer_action(state, d.side, seed + len(log))
            state = rules.apply(state, d.side, action)
            log.append(CampaignEntry(EntryKind.DECISION, d.side, str(action)))
            continue
        plan = rules.mission_setup(state)
        t0 = time.perf_counter()
        game, _ = game_system.new_game(plan.setup, plan.next.seed)
        players = {}
        while not game_system.is_over(game):
            p = game_system.pending(game)[0]
            player = players.setdefault(p.seat, game_system.computer_player(seed + len(players)))
            game, _ = game_system.apply(game, p.seat, player.choose(game, p.seat))
        in_games += time.perf_counter() - t0
        outcome = game_system.outcome(game)
        state = rules.absorb(state, outcome)
        log.append(CampaignEntry(EntryKind.OUTCOME, None, outcome_text(outcome)))
    return log, setup, in_games, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python bench/campaigns.py", description=__doc__)
    p.add_argument("--campaigns", type=int, default=5, help="seeds per campaign sheet")
    p.add_argument("--campaign", default=None, help="one campaign sheet id (default: all)")
    args = p.parse_args(argv)
    for system_id in registry.campaign_system_ids():
        rules = registry.campaign_system(system_id)
        for info in rules.campaigns():
            if args.campaign and info.id != args.campaign:
                continue
            whole, games, rebuild, plan, sheet = [], [], [], [], []
            for seed in range(1, args.campaigns + 1):
                log, setup, in_games, total = fly(system_id, info.id, seed)
                whole.append(total)
                games.append(in_games / total)
                t0 = time.perf_counter()
                state = replay(rules, setup, seed, log)
                rebuild.append(time.perf_counter() - t0)
                first = rules.new_campaign(setup, seed)
                while pending := rules.pending(first):  # to the first mission flown as a game
                    d = pending[0]
                    first = rules.apply(first, d.side, rules.default_action(first, d.side))
                if rules.mission_ready(first):  # (Pearl Harbor's defaults may fly none)
                    t0 = time.perf_counter()
                    rules.mission_setup(first)
                    plan.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                render_sheet(rules.sheet(state, None))
                sheet.append(time.perf_counter() - t0)
            ms = 1000 * statistics.median(rebuild)
            print(
                f"{system_id} {info.id}: {len(log)} log entries; whole campaign "
                f"{statistics.median(whole):.2f} s median ({100 * statistics.median(games):.0f}%"
                f" in the mission games); rebuild from the log {ms:.2f} ms median "
                f"(goal < 5 ms: {'ok' if ms < 5 else 'MISSED'}); mission_setup "
                f"{f'{1000 * statistics.median(plan):.2f} ms' if plan else '(no mission)'};"
                " sheet picture "
                f"{1000 * statistics.median(sheet):.0f} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
