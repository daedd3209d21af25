"""The one generic menu (``cogs.components``): a tree of choices shown a level at a time.

Offline, with a menu shaped like Locked-On's (a card, then its use, then an amount,
then a target; Guns paying discards; a list longer than Discord's 25 options): every
leaf is reachable by walking the levels, each within Discord's limits. Then through
the offline Discord, on a Down in Flames team game whose card-and-target moves do not
fit one menu: picking a target opens its moves in place, **Back** returns, a move plays.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot.testing import FakeDiscord
from bot.testing.driver import UiPlayer, components_of, wait_for_new_game
from cogs.app import TallyHoBot
from cogs.components import MAX_ROWS, MenuSelect, menu_view, resolve
from engine.core.present import Choice, Item, Menu, Several, Tone
from engine.dif.ai import RandomPlayer
from engine.dif.game import default_engine
from engine.dif.setup import DifSetup
from strings import t


class Context:
    """A menu about nothing but itself (``th:s:1:B1:5:{path}``)."""

    public = False

    def custom_id(self, path: Any) -> str:
        return f"th:s:1:B1:5:{'.'.join(map(str, path))}"

    async def menu(self, interaction: discord.Interaction) -> Menu:
        raise NotImplementedError

    async def choose(self, interaction: discord.Interaction, action: str, label: str) -> None:
        raise NotImplementedError

    def button(self, choice: Choice) -> discord.ui.Item[Any] | None:
        return discord.ui.Button(label=choice.label, custom_id=f"b:{choice.action}")


CARDS = ("ACE", "RED", "BLU", "GUN", "TON", "MAN", "SCI")
TARGETS = ("B1", "B2", "B3")


def locked_on_menu() -> Menu:
    """Play a card as an Action, for Position (1..3) or Range (own+enemy) at a target;
    Guns pays discards; a long menu of 30 missile launches; pass and done as buttons."""

    def targets(prefix: str) -> tuple[Choice, ...]:
        return tuple(Choice(f"at {t}", action=f"{prefix} {t}") for t in TARGETS)

    cards = []
    for card in CARDS:
        uses = [
            Choice("as an Action", action=f"play {card} act"),
            Choice(
                "for Position",
                children=tuple(
                    Choice(f"{n}", children=targets(f"play {card} pos {n}")) for n in (1, 2, 3)
                ),
            ),
            Choice(
                "for Range",
                children=tuple(
                    Choice(f"{a}+{b}", children=targets(f"play {card} range {a}+{b}"))
                    for a in range(3)
                    for b in range(3)
                    if a + b
                ),
            ),
        ]
        if card == "GUN":
            pay = tuple(Item(c, c) for c in CARDS if c != "GUN")
            uses.append(Choice("Guns, paying…", several=Several("play GUN guns B1 pay", pay)))
        cards.append(Choice(card, children=tuple(uses), placeholder="Use it…"))
    launches = tuple(Choice(f"launch {n}", action=f"launch {n}") for n in range(1, 31))
    return Menu(
        (
            Choice("", children=tuple(cards), placeholder="Play a card…"),
            Choice("", children=launches, placeholder="Launch…"),
        ),
        (Choice("Pass", action="pass", tone=Tone.QUIET), Choice("Done", action="done")),
    )


def leaves(node: Choice) -> set[str]:
    if node.action is not None:
        return {node.action}
    if node.several is not None:
        return {f"{node.several.prefix} <several>"}
    return {a for c in node.children for a in leaves(c)}


def walk(
    context: Context, menu: Menu, view: discord.ui.View, only: tuple[int, ...] = ()
) -> set[str]:
    """Every action reachable from ``view``, opening each branch as a player would
    (``only``: the select at that path, the one just opened)."""
    out: set[str] = set()
    for item in view.children:
        assert len(view.children) <= 25
        if only and not (
            isinstance(item, MenuSelect) and item.custom_id.endswith(":" + ".".join(map(str, only)))
        ):
            continue
        if isinstance(item, discord.ui.Button):
            out.add(item.custom_id.removeprefix("b:") if item.custom_id else "")
            continue
        assert isinstance(item, MenuSelect)
        select = item.item
        assert 1 <= len(select.options) <= 25 and len(item.custom_id) <= 100
        here = tuple(int(p) for p in item.custom_id.rsplit(":", 1)[1].split(".") if p)
        assert resolve(menu, here) is not None
        if select.max_values > 1:
            node = resolve(menu, here)
            assert node is not None and node.several is not None
            out.add(f"{node.several.prefix} <several>")
            continue
        if len(here) > 1:
            assert select.options[0].value == "<", "below the top, Back comes first"
        for option in select.options:
            if option.value == "<":
                continue
            if option.value.startswith(">"):
                deeper = (*here, int(option.value[1:]))
                sub = menu_view(context, menu, open_at=deeper)
                assert sub is not None
                out |= walk(context, menu, sub, deeper)
                sub.stop()
            else:
                out.add(option.value)
    return out


async def test_a_tree_of_choices_is_walked_a_level_at_a_time_within_discords_limits() -> None:
    context, menu = Context(), locked_on_menu()
    view = menu_view(context, menu)
    assert view is not None
    rows = sum(1 for i in view.children if isinstance(i, MenuSelect))
    buttons = sum(1 for i in view.children if not isinstance(i, MenuSelect))
    assert rows + -(-buttons // 5) <= MAX_ROWS
    expected = {a for top in menu.menus for a in leaves(top)} | {"pass", "done"}
    assert len(expected) > 150, "far more moves than one menu holds"
    assert walk(context, menu, view) == expected
    # The 30 launches: 24, then "More…" with the rest (and Back).
    launches = next(
        i for i in view.children if isinstance(i, MenuSelect) and i.custom_id.endswith(":1")
    )
    assert len(launches.item.options) == 25 and launches.item.options[-1].value == ">24"
    more = resolve(menu, (1, 24))
    assert more is not None and len(more.children) == 6
    assert resolve(menu, (0, 3, 3)) is not None and resolve(menu, (0, 99)) is None
    view.stop()


# ---------------------------------------------------------------- through Discord
async def test_a_target_menu_opens_in_place_goes_back_and_plays(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = TallyHoBot(database=str(tmp_path / "game.sqlite3"), seed_source=lambda: 41)
    await fake.start(bot)
    await fake.slash(
        alice,
        "dogfight new",
        channel_id=fake.channel_id,
        format="custom",
        ruleset="zero",
        year=1942,
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    for user, side, count in ((alice, "allied", 4), (bob, "axis", 3)):
        for _ in range(count):
            await fake.slash(
                user,
                "dogfight join",
                channel_id=thread,
                side=side,
                aircraft="f4f" if side == "allied" else "ki-43",
            )

    def same_altitude(setup: DifSetup) -> DifSetup:
        data = setup.model_dump(mode="json")
        data["altitudes"] = {e["seat"]: "M" for e in data["elements"]}
        data["first_side"] = "allied"
        attacks = ["MAN", "HAL", "IMS-1B1D", "IMS-1B2D", "IMS-2B2D", "OOS-1B2D"]
        data["hands"] = {"A1": attacks}
        return DifSetup.model_validate(data)

    bot.service.setup_filter = same_altitude
    await fake.slash(alice, "dogfight start", channel_id=thread)
    engine = default_engine()
    players = {
        "A": UiPlayer(fake, alice, game.id, thread),
        "X": UiPlayer(fake, bob, game.id, thread),
    }
    brain = RandomPlayer(3)
    for _ in range(100):
        state = (await bot.service.load(game.id)).state
        assert state is not None
        p = engine.pending(state)[0]
        plays = [a for a in engine.legal_actions(state, p.seat) if a.verb == "play" and a.target]
        if p.kind == "play" and p.seat.startswith("A") and len(plays) > 25:
            break
        action = brain.choose(engine, state, p.seat)
        await players[p.seat[0]].act(str(action), via_dm=p.urgent, seat=p.seat)
    else:
        raise AssertionError("no play step with a menu of targets came")
    hands = await players["A"].open_hands()
    hand = next(m for m in hands if f"({p.seat})**" in m["content"])
    targets = next(
        c
        for c in components_of(hand)
        if str(c.get("custom_id", "")).startswith(f"th:s:{game.id}:{p.seat}:")
        and any(o["value"].startswith(">") for o in c.get("options", []))
    )
    branch = targets["options"][0]["value"]
    token = await fake.click(alice, hand, targets["custom_id"], values=["play MAN A1L"])
    assert "out of date" in fake.original(token)["content"], "only what the menu offers"
    # A target menu of the previous release, on a message sent before the upgrade.
    old = f"th:t:{game.id}:{p.seat}:1"
    stored = fake.messages[int(hand["id"])]
    saved = targets["custom_id"]
    targets["custom_id"] = old
    for c in components_of(stored):
        if c.get("custom_id") == saved:
            c["custom_id"] = old
    token = await fake.click(alice, stored, old, values=["X1L"])
    assert "out of date" in fake.original(token)["content"]
    for c in components_of(stored):
        if c.get("custom_id") == old:
            c["custom_id"] = saved
    targets["custom_id"] = saved
    await fake.click(alice, hand, targets["custom_id"], values=[branch])
    opened = fake.messages[int(hand["id"])]
    assert opened["content"] == hand["content"], "the hand stays; its menu shows the next level"
    sub = next(
        c for c in components_of(opened) if c.get("custom_id", "").endswith(f".{branch[1:]}")
    )
    assert sub["options"][0]["value"] == "<"
    moves = [o["value"] for o in sub["options"][1:]]
    assert moves and all(m.startswith("play ") for m in moves)
    await fake.click(alice, opened, sub["custom_id"], values=["<"])
    back = fake.messages[int(hand["id"])]
    assert any(c.get("custom_id") == targets["custom_id"] for c in components_of(back))
    await fake.click(alice, back, targets["custom_id"], values=[branch])
    opened = fake.messages[int(hand["id"])]
    sub = next(
        c for c in components_of(opened) if c.get("custom_id", "").endswith(f".{branch[1:]}")
    )
    version = (await bot.service.load(game.id)).record.version
    await fake.click(alice, opened, sub["custom_id"], values=[moves[0]])
    after = await bot.service.load(game.id)
    assert after.record.version > version
    rows = await bot.service.storage.load_actions(game.id)
    assert rows[-1].action == moves[0] or any(r.action == moves[0] for r in rows[-3:])
    # The same pick again (its answer lost, on a phone): the move went through, once.
    token = await fake.click(alice, opened, sub["custom_id"], values=[moves[0]])
    assert t("refusal.already_played", "en", action=moves[0]) in fake.original(token)["content"]
    assert len(await bot.service.storage.load_actions(game.id)) == len(rows)
    # Another pick on that old menu is out of date.
    token = await fake.click(alice, opened, sub["custom_id"], values=[moves[-1]])
    assert "out of date" in fake.original(token)["content"]
    assert all(p.typed == 0 for p in players.values())
