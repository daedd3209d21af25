"""Play a campaign through the real UI of the offline Discord: test support, used by
the tests and by ``python -m bot demo --campaign``.

:class:`CampaignDriver` takes one step at a time, as people would: a side's member
presses **Choose** in the campaign's thread and picks, in the private menu, what the
campaign system's computer player would choose; a mission game's next decision is made
by the seat's holder through the game's UI (:class:`~bot.testing.driver.UiPlayer`)
with the game system's computer player's choice. It knows the generic components and
contracts only, no system. Its ``bot`` may be replaced between two steps (a restart).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.storage import GameStatus
from bot.storage.models import CampaignStatus
from bot.testing.driver import UiPlayer, components_of, message_with
from bot.testing.fakediscord import FakeDiscord, FakeUser
from engine.core.contract import DEFAULT_COMPUTER_LEVEL, Timing
from engine.core.present import Choice
from strings import t, tr

__all__ = ["CampaignDriver"]

Payload = dict[str, Any]


class CampaignDriver:
    """Drives one campaign to its end, one step per :meth:`step`."""

    def __init__(
        self,
        fake: FakeDiscord,
        bot: Any,
        campaign_id: int,
        users: Mapping[int, FakeUser],
        seed: int,
        level: str = DEFAULT_COMPUTER_LEVEL,
    ) -> None:
        self.fake, self.bot, self.campaign_id, self.seed = fake, bot, campaign_id, seed
        """``bot``: the running ``cogs.app.TallyHoBot`` (``bot/`` never imports ``cogs/``)."""
        self.level = level
        """The level of the computer players choosing the members' moves."""
        self.users = dict(users)
        """The fake users by id (every member of the campaign)."""
        self.choices = 0
        """Campaign decisions made through the Choose menu."""
        self.moves = 0
        """Game actions made through the games' UI."""
        self.games: list[int] = []
        """The mission games played, in order."""

    async def done(self) -> bool:
        record = await self.bot.service.storage.get_campaign(self.campaign_id)
        assert record is not None
        return record.status in (CampaignStatus.FINISHED, CampaignStatus.ABANDONED)

    async def step(self) -> str:
        """One decision: a side's campaign choice, or one move of the running mission
        game. Returns what it did (``choose``, ``move``) or ``done``."""
        campaigns = self.bot.campaigns
        campaign = await campaigns.load(self.campaign_id)
        if campaign.record.status is not CampaignStatus.ACTIVE:
            return "done"
        system = campaign.system
        for d in system.pending(campaign.state):
            members = campaign.members_of(d.side)
            if members:
                seed = self.seed * 1000 + campaign.record.last_seq
                action = system.computer_action(campaign.state, d.side, seed)
                await self.choose(self.users[members[0].user_id], str(action))
                self.choices += 1
                return "choose"
        for g in reversed(await self.bot.service.storage.games_of_campaign(self.campaign_id)):
            if g.status is GameStatus.ACTIVE:
                await self.move(g.id)
                return "move"
        raise AssertionError(f"campaign {self.campaign_id} waits on nothing the driver can do")

    async def choose(self, user: FakeUser, action: str) -> None:
        """Press **Choose** in the campaign thread, then pick ``action`` in the private
        menu: the branch on its path at each level (found in the system's own tree,
        :meth:`CampaignSystem.menu`, by label), behind **More…** when a level is long."""
        campaign = await self.bot.campaigns.load(self.campaign_id)
        thread = campaign.record.thread_id
        assert thread is not None
        side = campaign.side_of(user.id)
        assert side is not None
        top = campaign.system.menu(campaign.state, side)
        assert top is not None, f"{side} has nothing to choose"
        path = _path_to(top, action)
        assert path is not None, f"{action!r} is not in {side}'s menu"
        message, custom_id = message_with(self.fake, thread, f"th:cchoose:{self.campaign_id}")
        token = await self.fake.click(user, message, custom_id)
        menu = self._answer(token)
        for step, want in enumerate(path):
            for _ in range(40):  # past More… pages
                select = next(
                    c
                    for c in components_of(menu)
                    if str(c.get("custom_id", "")).startswith("th:cm:")
                )
                option = next(
                    (o for o in select["options"] if o["label"] == tr(want.label, None)[:100]),
                    None,
                )
                if option is not None:
                    break
                more = next(o for o in select["options"] if o["label"] == t("menu.more", None))
                await self.fake.click(user, menu, select["custom_id"], [more["value"]])
                menu = self.fake.messages[int(menu["id"])]  # edited in place
            else:
                raise AssertionError(f"{want.label!r} is not offered")
            token = await self.fake.click(user, menu, select["custom_id"], [option["value"]])
            if step < len(path) - 1:
                menu = self.fake.messages[int(menu["id"])]
        said = self._answer(token).get("content") or ""
        assert said.startswith(t("campaign.chosen", None, choice="")[:6]), said

    def _answer(self, token: str) -> Payload:
        iid = str(self.fake.interactions[token].id)
        found = [
            m
            for m in self.fake.messages.values()
            if m.get("interaction_metadata", {}).get("id") == iid
        ]
        assert found, "the bot did not answer"
        return found[-1]

    async def move(self, game_id: int) -> None:
        """The next decision of a mission game, made by its seat's holder in the UI."""
        service = self.bot.service
        game = await service.load(game_id)
        if game_id not in self.games:
            self.games.append(game_id)
        state = game.state
        assert state is not None and game.record.thread_id is not None
        system = game.system
        d = system.pending(state)[0]
        holder = game.holder(d.seat)
        assert holder is not None, (
            f"seat {d.seat} of game {game_id} is a computer's: it moves alone"
        )
        brain = system.computer_player(self.seed * 7919 + game.record.version, self.level)
        action = brain.choose(state, d.seat)
        pilot = UiPlayer(self.fake, self.users[holder], game_id, game.record.thread_id)
        await pilot.act(str(action), via_dm=d.timing is Timing.RESPONSE, seat=d.seat)
        after = await service.load(game_id)
        assert after.record.version != game.record.version, (d, str(action))
        self.moves += 1


def _path_to(node: Choice, action: str) -> list[Choice] | None:
    """The choices from below ``node`` down to the leaf of ``action``."""
    for child in node.children:
        if child.action == action:
            return [child]
        below = _path_to(child, action)
        if below is not None:
            return [child, *below]
    return None
