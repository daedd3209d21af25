"""Play a game through the real UI of the offline Discord: test support, used by the
tests and by ``python -m bot demo``.

A :class:`UiPlayer` acts as a human would: it uses the buttons of the DMs it was sent
(``via_dm``), or presses **My hand** in the game thread, then clicks the button or picks the menu
option of the action it wants, opening the menus' branches one level at a time (the
menu is edited in place) and backing up when the action is not under one. Only when
an action is not offered as a component does it fall back to the typed ``/play``
command. It knows the generic components only (``cogs.components``), no system.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from bot.storage import GameRecord, Storage
from bot.testing.fakediscord import FakeDiscord, FakeUser
from strings import t

__all__ = ["UiPlayer", "components_of", "message_with", "text_of", "wait_for_new_game"]

Payload = dict[str, Any]


def components_of(message: Payload) -> Iterator[Payload]:
    """Every component of a message, rows flattened."""
    for row in message.get("components") or []:
        if row.get("type") == 1:
            yield from row.get("components") or []
        else:
            yield row


def text_of(message: Payload) -> str:
    """Everything a reader sees of a message: its content, then each component's
    label and each menu option's label."""
    parts = [message.get("content") or ""]
    for c in components_of(message):
        parts.append(str(c.get("label", "")))
        parts.extend(str(o.get("label", "")) for o in c.get("options", []))
    return "\n".join(parts)


def message_with(fake: FakeDiscord, channel_id: int, prefix: str) -> tuple[Payload, str]:
    """The latest message of a channel with a component whose custom_id starts with
    ``prefix``, and that custom_id (LookupError when there is none)."""
    for m in reversed(fake.sent_to(channel_id)):
        for c in components_of(m):
            if str(c.get("custom_id", "")).startswith(prefix):
                return m, str(c["custom_id"])
    raise LookupError(prefix)


async def wait_for_new_game(fake: FakeDiscord, storage: Storage, tries: int = 50) -> GameRecord:
    """The newest game, once ``/dogfight new`` has attached its thread.

    ``settle`` normally returns only when the handler is done; on a loaded machine a
    database write can outlast its grace period, so look again rather than assume.
    """
    for _ in range(tries):
        games = await storage.list_games()
        if games and games[-1].thread_id is not None:
            return games[-1]
        await fake.settle()
    raise LookupError("/dogfight new did not open a game thread")


class UiPlayer:
    """One fake user clicking through the bot's messages.

    A user may fly several elements: **My hand** then answers with one message per
    seat, and ``act(..., seat=...)`` clicks in that seat's message.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        user: FakeUser,
        game_id: int,
        thread_id: int,
        *,
        side_menus: bool = True,
    ) -> None:
        self.fake, self.user, self.game_id, self.thread_id = fake, user, game_id, thread_id
        self.side_menus = side_menus
        """Take a side's decision in the thread's menu (else through **My hand**)."""
        self.typed = 0
        """How many actions had to be typed with /play (none, when the UI offers everything)."""
        self.order_menus = 0
        """How many side decisions were made in the thread's public menu."""
        self.hands = 0
        """How many times **My hand** was pressed (the DMs did not offer the move)."""

    def _hand_message(self) -> tuple[Payload, str]:
        """The thread's latest message with **My hand**, and that button's custom_id
        (``th:hand:{game}``, with the seq a published step told after it)."""
        cid = f"th:hand:{self.game_id}"
        for m in reversed(self.fake.sent_to(self.thread_id)):
            for c in components_of(m):
                found = str(c.get("custom_id", ""))
                if found == cid or found.startswith(f"{cid}:"):
                    return m, found
        raise LookupError("no My hand button in the thread")

    def answers(self, token: str) -> list[Payload]:
        """Every message the bot answered interaction ``token`` with, first one first."""
        iid = str(self.fake.interactions[token].id)
        return [
            m
            for m in self.fake.messages.values()
            if m.get("interaction_metadata", {}).get("id") == iid
        ]

    async def open_hand(self) -> Payload:
        return (await self.open_hands())[0]

    async def open_hands(self) -> list[Payload]:
        """Press **My hand**: one message per seat the user holds."""
        self.hands += 1
        token = await self.fake.click(self.user, *self._hand_message())
        return self.answers(token)

    def live_dms(self) -> list[Payload]:
        """The user's DMs about this game that still carry buttons, newest first."""
        mine = f":{self.game_id}:"
        return [
            m
            for m in reversed(self.fake.dms(self.user))
            if any(mine in str(c.get("custom_id", "")) for c in components_of(m))
        ]

    def _order_menu(self) -> Payload | None:
        for m in reversed(self.fake.sent_to(self.thread_id)):
            if any(str(c.get("custom_id", "")).startswith("th:o:") for c in components_of(m)):
                return m
        return None

    async def act(self, action: str, *, via_dm: bool = False, seat: str | None = None) -> str:
        """Perform ``action`` (canonical text) for ``seat`` (any of the user's seats if
        None); returns the interaction token."""
        menu = self._order_menu() if self.side_menus else None
        token = await self._click_order(menu, action) if menu is not None else None
        if token is not None:
            self.order_menus += 1
            return token
        if via_dm:
            token = await self._click_first(self.live_dms(), action, seat)
            if token is not None:
                return token
        # Not in a DM (or an older one): as a player would, press My hand instead.
        token = await self._click_first(await self.open_hands(), action, seat)
        if token is not None:
            return token
        self.typed += 1
        options = {"text": action} if seat is None else {"text": action, "seat": seat}
        return await self.fake.slash(self.user, "play", channel_id=self.thread_id, **options)

    async def _click_first(
        self, messages: list[Payload], action: str, seat: str | None
    ) -> str | None:
        """Click ``action`` in the first of ``messages`` offering it that is not out of date."""
        stale = f"⛔ {t('refusal.stale_buttons', 'en')}"
        for message in messages:
            token = await self._click_action(message, action, seat)
            if token is not None and not any(
                m.get("content") == stale for m in self.answers(token)
            ):
                return token
        return None

    async def _click_order(self, message: Payload, action: str) -> str | None:
        for c in components_of(message):
            cid = str(c.get("custom_id", ""))
            if cid.startswith(f"th:o:{self.game_id}:") and any(
                o["value"] == action for o in c.get("options", [])
            ):
                return await self.fake.click(self.user, message, cid, values=[action])
        return None

    async def _click_action(
        self,
        message: Payload,
        action: str,
        seat: str | None,
        depth: int = 0,
        under: str | None = None,
    ) -> str | None:
        """Click ``action`` in ``message``; ``under``: only inside the branch of that
        menu just opened (a message may hold several menus: the others stay put)."""
        mine = f"{self.game_id}:{seat}:" if seat else f"{self.game_id}:"
        words = action.split()
        for c in components_of(message):
            cid = str(c.get("custom_id", ""))
            options = c.get("options", [])
            if under is not None and not cid.startswith(under + "."):
                continue
            if c.get("type") == 2 and cid.startswith(f"th:a:{mine}") and cid.endswith(":" + action):
                return await self.fake.click(self.user, message, cid)
            if c.get("type") != 3 or not cid.startswith(f"th:s:{mine}"):
                continue
            if any(o["value"] == action for o in options):
                return await self.fake.click(self.user, message, cid, values=[action])
            picked = self._pick_several(options, words)
            if picked is not None:
                return await self.fake.click(self.user, message, cid, values=picked)
            for o in sorted(options, key=lambda o: -_likeness(o, words)):
                if not o["value"].startswith(">") or depth > 6:
                    continue
                if not any(x.get("custom_id") == cid for x in components_of(message)):
                    break  # backing up closed this level: look no further in it
                # Open the branch (the menu is edited in place), look, and back up.
                await self.fake.click(self.user, message, cid, values=[o["value"]])
                opened = self.fake.messages[int(message["id"])]
                done = await self._click_action(opened, action, seat, depth + 1, under=cid)
                if done is not None:
                    return done
                opened = self.fake.messages[int(message["id"])]
                back = next(
                    (
                        x
                        for x in components_of(opened)
                        if str(x.get("custom_id", "")).startswith(cid + ".")
                        and any(y["value"] == "<" for y in x.get("options", []))
                    ),
                    None,
                )
                if back is not None:
                    await self.fake.click(self.user, opened, back["custom_id"], values=["<"])
                message = self.fake.messages[int(message["id"])]
        return None

    @staticmethod
    def _pick_several(options: list[Payload], words: list[str]) -> list[str] | None:
        """The options of a multi-pick (values ``index:token``) that make ``words``'
        tokens after the first, or None."""
        if len(words) < 2 or not options or not all(":" in o["value"] for o in options):
            return None
        want = Counter(words[1:])
        picked = []
        for o in options:
            token = o["value"].split(":", 1)[1]
            if want[token] > 0:
                want[token] -= 1
                picked.append(o["value"])
        return picked if not +want else None


def _likeness(option: Payload, words: list[str]) -> int:
    """How many of the move's words an option's label and description name: the
    branch a player would open first (the aircraft, the card, the target the move
    names). Only an order: the search still looks everywhere."""
    text = f"{option.get('label', '')} {option.get('description', '')}"
    found = set(re.findall(r"[A-Za-z0-9]+", text))
    tokens = {w for word in words for w in re.findall(r"[A-Za-z]*[0-9]+|[A-Za-z]{2,}", word)}
    tokens |= {re.sub(r"[A-Z]+$", "", w) for w in tokens if w[:1].isdigit()}
    return sum(1 for w in tokens if w in found)
