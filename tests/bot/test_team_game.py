"""Team dogfights through the real cogs on the offline Discord.

Four players, two a side, play a 2v2 whose hands, deck and damage are fixed by the
test (the service's ``setup_filter``), so that the game surely goes through a
Combat Vision redraw, both turn-1 order choices (4.7), an attack on a wingman
answered from its defensive mini-hand, and a leader shot down and replaced by its
wingman (11.2). A second game has two players flying two elements each.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.testing import FakeDiscord, FakeUser
from bot.testing.driver import UiPlayer, components_of, text_of, wait_for_new_game
from cogs.app import TallyHoBot
from engine.dif.ai import RandomPlayer
from engine.dif.game import default_engine
from engine.dif.setup import DifSetup

SEED = 20261130
PRIVATE = re.compile(r"Hand \(\d+\)|You drew|Wingman's mini-hand: |Your secret altitude")
SEAT_HEADER = re.compile(r"\*\*[^*\n]+ \(([AX]\d+)\)\*\*")


def make_bot(db: Path) -> TallyHoBot:
    return TallyHoBot(database=str(db), seed_source=lambda: SEED)


def assert_hidden_information_reaches_only_owners(
    fake: FakeDiscord, holders: dict[FakeUser, set[str]]
) -> int:
    """No hand, mini-hand, drawn card or secret pick in public; each private message
    showing one names only elements its reader flies. Returns the messages checked."""
    for m in fake.public_messages():
        assert not PRIVATE.search(text_of(m)), f"hidden information in public: {m['content']!r}"
    checked = 0
    for user, seats in holders.items():
        for m in fake.ephemeral_for(user) + fake.dms(user):
            text = text_of(m)
            if PRIVATE.search(text):
                shown = set(SEAT_HEADER.findall(text))
                assert shown <= seats, f"{user.name} was shown {shown - seats}: {text!r}"
                checked += 1
    return checked


def last_answer(fake: FakeDiscord, token: str) -> str:
    return str(fake.original(token)["content"])


async def open_2v2(
    fake: FakeDiscord, bot: TallyHoBot, users: list[FakeUser], *, fixed: dict[str, Any]
) -> tuple[int, int]:
    alice, bob, carol, dave = users
    await fake.start(bot)
    await fake.slash(
        alice, "dogfight new", channel_id=fake.channel_id, format="2v2", ruleset="zero", year=1942
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    for user, side, aircraft, extra in (
        (alice, "allied", "buffalo-i", {}),
        (bob, "allied", "p-40b", {"pilot": "CV"}),
        (carol, "axis", "ki-43", {}),
        (dave, "axis", "a6m2", {}),
    ):
        await fake.slash(
            user, "dogfight join", channel_id=thread, side=side, aircraft=aircraft, **extra
        )

    def fix(setup: DifSetup) -> DifSetup:
        return DifSetup.model_validate({**setup.model_dump(mode="json"), **fixed})

    bot.service.setup_filter = fix
    return game.id, thread


async def test_2v2_four_players_order_wingman_defence_and_promotion(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    users = [fake.add_member(n) for n in ("alice", "bob", "carol", "dave")]
    alice, bob, carol, dave = users
    bot = make_bot(tmp_path / "game.sqlite3")
    engine_cap = default_engine().aircraft["a6m2"].leader.damaged.damage_capacity
    fixed = {
        "altitudes": {"A1": "M", "A2": "M", "X1": "M", "X2": "M"},
        "first_side": "allied",
        "hands": {
            "A1": ["IMS-1B2D", "MAN", "MAN", "HAL", "IMS-1B1D"],
            "A2": ["IMS-1B2D", "MAN", "MAN", "HAL", "MAN"],
            "X1": ["MAN", "MAN", "MAN", "IMS-1B1D", "IMS-1B1D", "IMS-1B1D"],
            "X2": ["MAN", "MAN", "MAN", "MAN", "MAN"],
        },
        # Bob's Combat Vision redraw, then the Ki-43 wingman's defensive mini-hand.
        "deck_top": ["IMS-2B2D", "TIT", "MAN"],
        "hits": {"X2L": engine_cap - 2},  # one more 2-damage burst shoots it down
    }
    game_id, thread = await open_2v2(fake, bot, users, fixed=fixed)
    pilots = {u.name: UiPlayer(fake, u, game_id, thread) for u in users}

    lobby = fake.sent_to(thread)[0]["content"]
    assert "2 v 2" in lobby
    assert f"• A2 <@{bob.id}>: P-40B with wingman, pilot CV (Combat Vision) +1" in lobby
    assert "Ready: the host can now `/dogfight start`." in lobby

    await fake.slash(alice, "dogfight start", channel_id=thread)
    # Combat Vision: only Bob decides, privately, with a menu of his cards.
    token = await pilots["bob"].act("redraw MAN", seat="A2")
    assert "You drew In My Sights (2B/2D)" in last_answer(fake, token)
    assert pilots["bob"].typed == 0

    # Turn 1's order (4.7): the Allied side chooses in the thread, both its players
    # pinged; the other side cannot answer; Bob may choose Alice's element.
    menu = next(
        m
        for m in reversed(fake.sent_to(thread))
        if any(str(c.get("custom_id", "")).startswith("th:o:") for c in components_of(m))
    )
    assert alice.mention in menu["content"] and bob.mention in menu["content"]
    assert carol.mention not in menu["content"]
    select = fake.custom_id(menu, "Buffalo I (A1)")
    (option,) = [
        o["value"]
        for c in components_of(menu)
        for o in c.get("options", [])
        if o["label"] == "Buffalo I (A1)"
    ]
    token = await fake.click(carol, menu, select, values=[option])
    assert "Only the players of the Allied side" in last_answer(fake, token)
    await pilots["bob"].act("next A1")
    assert pilots["bob"].order_menus == 1
    resolved = fake.messages[int(menu["id"])]
    assert f"✔ <@{bob.id}> chose Buffalo I (A1)." in resolved["content"]
    assert not any(str(c.get("custom_id", "")).startswith("th:o:") for c in components_of(resolved))

    # Nobody acts for a seat they do not hold.
    token = await fake.slash(carol, "play", channel_id=thread, text="stay", seat="A1")
    assert "another player" in last_answer(fake, token)
    hand = await pilots["alice"].open_hand()
    token = await fake.click(bob, hand, fake.custom_id(hand, "Stay at this altitude"))
    assert "another player" in last_answer(fake, token)

    # Alice attacks Carol's wingman: Carol alone gets its defensive mini-hand, by DM.
    await pilots["alice"].act("stay")
    await pilots["alice"].act("play IMS-1B2D X1W")
    dm = fake.dms(carol)[-1]["content"]
    assert dm.count("Respond with your wingman's defensive mini-hand?") == 1
    assert "Wingman's mini-hand: Maneuvering, **Tight Turn** ▶" in dm
    for other in (alice, bob, dave):
        assert not any(
            "Tight Turn" in text_of(m) and "mini-hand" in text_of(m)
            for m in fake.ephemeral_for(other) + fake.dms(other)
        )
    await pilots["carol"].act("respond TIT", via_dm=True)
    await pilots["alice"].act("pass", via_dm=True)
    public = "\n".join(m["content"] for m in fake.sent_to(thread))
    assert "Ki-43 Oscar wingman (X1) responds with Tight Turn." in public
    await pilots["alice"].act("done")
    await pilots["alice"].act("discard")

    # The Japanese side chooses next; Dave names his own element through My hand. The
    # thread's menu of that choice is then closed, as the other prompts are, instead of
    # staying live to answer "out of date" later.
    menu = next(
        m
        for m in reversed(fake.sent_to(thread))
        if any(str(c.get("custom_id", "")).startswith("th:o:") for c in components_of(m))
    )
    pilots["dave"].side_menus = False
    await pilots["dave"].act("next X2")
    assert pilots["dave"].order_menus == 0 and pilots["dave"].typed == 0
    closed = fake.messages[int(menu["id"])]
    assert closed["content"].endswith("✔ Decided: see below.")
    assert next(str(c.get("custom_id", "")) for c in components_of(closed)) == f"th:hand:{game_id}"
    assert not any(str(c.get("custom_id", "")).startswith("th:o:") for c in components_of(closed))
    assert "The Japanese side chooses A6M2 Zero (X2)" in fake.sent_to(thread)[-1]["content"]
    for action in ("skip", "stay", "done", "discard"):
        await pilots["dave"].act(action)

    # Bob shoots down Dave's leader: the wingman takes over (11.2).
    for action in ("skip", "stay", "play IMS-1B2D X2L"):
        await pilots["bob"].act(action)
    token = await pilots["dave"].act("pass", via_dm=True)
    assert "You drew" in last_answer(fake, token), "the promoted leader's new hand is private"
    public = "\n".join(m["content"] for m in fake.sent_to(thread))
    assert "A6M2 Zero (X2) is shot down!" in public
    assert "The wingman of A6M2 Zero (X2) becomes the leader (11.2)." in public
    loaded = await bot.service.load(game_id)
    view = bot.service.view(loaded, None)
    x2 = next(e for e in view.elements if e.seat == "X2")
    assert x2.leader is not None and x2.leader.promoted and x2.wingman is None

    assert all(p.typed == 0 for p in pilots.values()), "every move was a button or a menu"
    holders = {alice: {"A1"}, bob: {"A2"}, carol: {"X1"}, dave: {"X2"}}
    assert assert_hidden_information_reaches_only_owners(fake, holders) > 5


async def test_players_flying_two_elements_get_separate_labelled_hands(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = (fake.add_member(n) for n in ("alice", "bob", "carol"))
    bot = make_bot(tmp_path / "game.sqlite3")
    await fake.start(bot)
    await fake.slash(
        alice, "dogfight new", channel_id=fake.channel_id, format="2v2", ruleset="zero", year=1942
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    seats = {"A1": alice, "A2": alice, "X1": bob, "X2": bob}
    aircraft = {"A1": "buffalo-i", "A2": "f4f", "X1": "ki-43", "X2": "a6m2"}
    for seat, user in seats.items():
        side = "allied" if seat.startswith("A") else "axis"
        await fake.slash(
            user, "dogfight join", channel_id=thread, side=side, aircraft=aircraft[seat], seat=seat
        )
    await fake.slash(alice, "dogfight start", channel_id=thread)

    # Both of Alice's elements pick a secret altitude, each in its own message.
    hands = await UiPlayer(fake, alice, game.id, thread).open_hands()
    assert [SEAT_HEADER.findall(m["content"]) for m in hands] == [["A1"], ["A2"]]
    assert all("Secret starting altitude…" in text_of(m) or m["components"] for m in hands)
    # Typed without a seat, a move both elements could make is ambiguous.
    token = await fake.slash(alice, "play", channel_id=thread, text="alt M")
    assert "say which" in last_answer(fake, token)
    token = await fake.slash(carol, "play", channel_id=thread, text="alt M", seat="A1")
    assert "not playing" in last_answer(fake, token)

    pilots = {s: UiPlayer(fake, u, game.id, thread) for s, u in seats.items()}
    brains = {s: RandomPlayer(i + 11) for i, s in enumerate(seats)}
    for _ in range(10_000):
        loaded = await bot.service.load(game.id)
        state = loaded.state
        assert state is not None
        if state.step == "over":
            break
        p = default_engine().pending(state)[0]
        action = brains[p.seat].choose(default_engine(), state, p.seat)
        await pilots[p.seat].act(str(action), via_dm=p.kind in ("respond", "follow"), seat=p.seat)
    final = await bot.service.load(game.id)
    assert final.record.status == "finished"
    assert all(p.typed == 0 for p in pilots.values())
    assert sum(p.order_menus for p in pilots.values()) >= 1
    holders = {alice: {"A1", "A2"}, bob: {"X1", "X2"}, carol: set()}
    assert assert_hidden_information_reaches_only_owners(fake, holders) > 10
    # Each private message is about one element: never two hands in one message.
    for m in fake.ephemeral_for(alice) + fake.dms(alice):
        assert len(re.findall(r"Hand \(\d+\)", m["content"])) <= 1
    shown = {s for m in fake.ephemeral_for(alice) for s in SEAT_HEADER.findall(m["content"])}
    assert {"A1", "A2"} <= shown


async def test_custom_lobby_menu_autocomplete_bonus_and_leave(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = (fake.add_member(n) for n in ("alice", "bob", "carol"))
    bot = make_bot(tmp_path / "game.sqlite3")
    await fake.start(bot)
    await fake.slash(
        alice,
        "dogfight new",
        channel_id=fake.channel_id,
        format="custom",
        ruleset="rotl",
        year=1941,
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    lobby = fake.sent_to(thread)[0]

    # Bob takes a seat with the lobby's menu, then picks his aircraft privately.
    token = await fake.click(bob, lobby, f"th:j:{game.id}", values=["X1"])
    offer = fake.original(token)
    assert "Seat **X1**" in offer["content"]
    aircraft = fake.custom_id(offer, "Bf-109E")
    assert "Spitfire I" not in text_of(offer), "only the seat's side"
    await fake.click(bob, offer, aircraft, values=["bf-109e"])
    assert "in seat X1: Bf-109E with wingman" in fake.sent_to(thread)[-1]["content"]
    lobby = fake.messages[int(lobby["id"])]
    assert f"• X1 <@{bob.id}>: Bf-109E with wingman" in lobby["content"]
    options = [o["value"] for c in components_of(lobby) for o in c.get("options", [])]
    assert options == ["A1", "X2"], "the menu offers the next element of each side"

    # Autocomplete offers the open seats of the side typed so far.
    choices = await fake.autocomplete(
        carol, "dogfight join", "seat", "", channel_id=thread, side="allied"
    )
    assert [c["value"] for c in choices] == ["A1"]
    await fake.slash(
        carol,
        "dogfight join",
        channel_id=thread,
        side="allied",
        aircraft="hurricane-iib",
        seat="A1",
        wingman=False,
        pilot="A,D",
    )
    lobby = fake.messages[int(lobby["id"])]
    assert (
        "Hurricane IIB without wingman, pilot A (Ace Pilot) +1, D (Damage +1) +1"
        in (lobby["content"])
    )
    assert "⚠ Rise of the Luftwaffe: both sides should field the same number" in lobby["content"]

    token = await fake.slash(bob, "dogfight bonus", channel_id=thread, apply=True)
    assert "host" in last_answer(fake, token)
    await fake.slash(alice, "dogfight bonus", channel_id=thread, apply=True)
    assert "VP bonus (13.1) **on**" in fake.messages[int(lobby["id"])]["content"]

    await fake.slash(carol, "dogfight leave", channel_id=thread)
    lobby = fake.messages[int(lobby["id"])]
    assert "Hurricane IIB" not in lobby["content"]
    assert "The Allied side needs at least one element (4.2)." in lobby["content"]
    token = await fake.slash(alice, "dogfight start", channel_id=thread)
    assert "needs at least one element" in last_answer(fake, token)


async def test_a_zero_lobby_offers_a_mixed_game_and_warns_of_unequal_sides(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = (fake.add_member(n) for n in ("alice", "bob", "carol"))
    bot = make_bot(tmp_path / "game.sqlite3")
    await fake.start(bot)
    await fake.slash(alice, "dogfight new", channel_id=fake.channel_id, ruleset="rotl", year=1941)
    rotl = await wait_for_new_game(fake, bot.service.storage)
    token = await fake.slash(alice, "dogfight mixed", channel_id=rotl.thread_id, allow=True)
    assert "a Zero! option" in last_answer(fake, token), "only Zero! restricts a side's nation"
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
    lobby_id = int(fake.sent_to(thread)[0]["id"])

    def lobby() -> str:
        return str(fake.messages[lobby_id]["content"])

    assert "The Japanese side flies Japanese aircraft only (4.2, 5.0)" in lobby()
    token = await fake.slash(
        bob, "dogfight join", channel_id=thread, side="axis", aircraft="bf-109e"
    )
    assert "not a Japanese aircraft" in last_answer(fake, token)
    offered = await fake.autocomplete(
        bob, "dogfight join", "aircraft", "bf", channel_id=thread, side="axis"
    )
    assert offered == []

    # Only the host chooses; a mixed game lets the Japanese side fly a Bf-109E.
    token = await fake.slash(bob, "dogfight mixed", channel_id=thread, allow=True)
    assert "host" in last_answer(fake, token)
    await fake.slash(alice, "dogfight mixed", channel_id=thread, allow=True)
    assert "A mixed game: the Japanese side may now fly" in fake.sent_to(thread)[-1]["content"]
    assert "🔀 Mixed game" in lobby()
    offered = await fake.autocomplete(
        bob, "dogfight join", "aircraft", "bf", channel_id=thread, side="axis"
    )
    assert "bf-109e" in [c["value"] for c in offered]
    await fake.slash(bob, "dogfight join", channel_id=thread, side="axis", aircraft="bf-109e")
    await fake.slash(
        carol, "dogfight join", channel_id=thread, side="allied", aircraft="p-40b", wingman=False
    )
    # Zero! 4.2: the sides must field as many aircraft; the lobby says so (it does not refuse).
    assert "⚠ Both sides must field the same number of aircraft (Allied 1, Japanese 2)" in lobby()
    assert "Ready" in lobby()

    # Turned off again, the Bf-109E may not fly: the lobby names the seat, the start waits.
    await fake.slash(alice, "dogfight mixed", channel_id=thread, allow=False)
    assert "X1: Bf-109E is not a Japanese aircraft" in lobby()
    token = await fake.slash(alice, "dogfight start", channel_id=thread)
    assert "X1: Bf-109E is not a Japanese aircraft" in last_answer(fake, token)
    await fake.slash(alice, "dogfight mixed", channel_id=thread, allow=True)
    await fake.slash(alice, "dogfight start", channel_id=thread)
    started = await bot.service.load(game.id)
    assert started.setup is not None and started.setup.mixed is True
    assert "must field the same number" not in lobby(), "a warning for the host, before the start"
