"""Play a game through the real UI of the offline Discord: used by the demo and tests.

A :class:`UiPlayer` acts as a human would: it presses **My hand** in the game thread
(or uses the buttons of the DM it was sent), then clicks the button or picks the menu
option of the action it wants. Only when an action is not offered as a component
does it fall back to the typed ``/play`` command.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from bot.storage import GameRecord, Storage
from bot.testing.fakediscord import FakeDiscord, FakeUser

__all__ = ["UiPlayer", "components_of", "wait_for_new_game"]

Payload = dict[str, Any]


def components_of(message: Payload) -> Iterator[Payload]:
    """Every component of a message, rows flattened."""
    for row in message.get("components") or []:
        if row.get("type") == 1:
            yield from row.get("components") or []
        else:
            yield row


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
    """One fake user clicking through the bot's messages."""

    def __init__(self, fake: FakeDiscord, user: FakeUser, game_id: int, thread_id: int) -> None:
        self.fake, self.user, self.game_id, self.thread_id = fake, user, game_id, thread_id
        self.typed = 0
        """How many actions had to be typed with /play (none, when the UI offers everything)."""

    def _hand_message(self) -> Payload:
        cid = f"th:hand:{self.game_id}"
        for m in reversed(self.fake.sent_to(self.thread_id)):
            if any(c.get("custom_id") == cid for c in components_of(m)):
                return m
        raise LookupError("no My hand button in the thread")

    async def open_hand(self) -> Payload:
        token = await self.fake.click(self.user, self._hand_message(), f"th:hand:{self.game_id}")
        return self.fake.original(token)

    async def act(self, action: str, *, via_dm: bool = False) -> str:
        """Perform ``action`` (canonical text); returns the interaction token."""
        messages: list[Payload] = []
        if via_dm:
            dms = [m for m in self.fake.dms(self.user) if any(True for _ in components_of(m))]
            messages.extend(reversed(dms[-1:]))
        messages.append(await self.open_hand())
        for message in messages:
            token = await self._click_action(message, action)
            if token is not None:
                return token
        self.typed += 1
        return await self.fake.slash(self.user, "play", channel_id=self.thread_id, text=action)

    async def _click_action(self, message: Payload, action: str) -> str | None:
        for c in components_of(message):
            cid = str(c.get("custom_id", ""))
            if (
                c.get("type") == 2
                and cid.startswith(f"th:a:{self.game_id}:")
                and cid.endswith(":" + action)
            ):
                return await self.fake.click(self.user, message, cid)
            if (
                c.get("type") == 3
                and cid.startswith(f"th:s:{self.game_id}:")
                and any(o["value"] == action for o in c.get("options", []))
            ):
                return await self.fake.click(self.user, message, cid, values=[action])
            if (
                c.get("type") == 3
                and cid.startswith(f"th:d:{self.game_id}:")
                and action.startswith("discard ")
            ):
                want = Counter(action.split()[1:])
                picked = []
                for o in c.get("options", []):
                    code = o["value"].split(":", 1)[1]
                    if want[code] > 0:
                        want[code] -= 1
                        picked.append(o["value"])
                if not +want:
                    return await self.fake.click(self.user, message, cid, values=picked)
        return None
