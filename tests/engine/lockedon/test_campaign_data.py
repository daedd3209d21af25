"""The shipped Locked-On campaign sheets (data/lockedon/campaigns/): they load and
check against the game data, the Yom Kippur sheet holds what the rulebook prints, the
book's example campaign (L314) can happen on it and ends as printed, and the authored
values follow the rules written in data/lockedon/SOURCES.md ("Campaigns").

"L314" is a line of the Locked-On rulebook transcription.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import pytest

from engine.core.contract import Outcome
from engine.core.present import Choice
from engine.lockedon.campaigns import (
    Campaign,
    Level,
    Mission,
    check_campaign,
    shipped_campaigns,
)
from engine.lockedon.loader import Components, load_components

YOM_KIPPUR = "yom-kippur-1973"
SHIPPED = {YOM_KIPPUR, "vietnam-1972", "falklands-1982"}

# The book's example campaign (L314): each nation's score per mission, in order.
EXAMPLE_SCORES = {
    "israel": (24, 82, 0, 39, 16, 63),
    "egypt": (0, 39, 66, 76, 24, 57),
}
EXAMPLE_TOTALS = {"israel": (224, Level.TACTICAL), "egypt": (262, Level.OPERATIONAL)}

# The victory-chart rule (authored): a share of the nation's total mission VP, rounded up.
CHART_SHARES = {Level.STRATEGIC: 0.70, Level.OPERATIONAL: 0.45, Level.TACTICAL: 0.25}

# Sites a nation of a shipped campaign may field: Soviet systems for Moscow's clients,
# Western systems for their users (the Roland and Skyguard Argentina bought).
SITE_USERS = {
    "egypt": {"sa-2", "sa-3", "sa-6", "sa-7", "sa-8", "sa-9", "zsu-23-4", "s-60"},
    "north-vietnam": {"sa-2", "sa-3", "sa-7", "s-60"},
    "israel": {"hawk"},
    "usa": {"hawk"},
    "uk": {"rapier", "sea-dart"},
    "argentina": {"roland", "oerlikon-35"},
}


@pytest.fixture(scope="module")
def campaigns() -> dict[str, Campaign]:
    return dict(shipped_campaigns())


@pytest.fixture(scope="module")
def data() -> Components:
    return load_components()


@pytest.fixture(scope="module")
def yk(campaigns: dict[str, Campaign]) -> Campaign:
    return campaigns[YOM_KIPPUR]


def enemy_of(mission: Mission, nation: str) -> str:
    (other,) = (n for n in mission.nations if n != nation)
    return other


def enemy_count(mission: Mission, nation: str) -> int:
    return sum(a.count for a in mission.nations[enemy_of(mission, nation)].aircraft)


def reachable(vp: int, n: int) -> set[int]:
    """The scores L307 allows: all ``vp`` for all ``n``, else proportionately, rounding up."""
    return {math.ceil(vp * k / n) for k in range(n + 1)}


def enemy_value(mission: Mission, nation: str, data: Components) -> int:
    """The authored mission-VP rule (SOURCES.md): what ``nation`` must destroy, with the
    enemy's Special Condition skills per aircraft and picks x its mean Option cost."""
    half = mission.nations[enemy_of(mission, nation)]
    special = sum(data.skills[s].cost for s in half.special)
    total = Decimal(0)
    for a in half.aircraft:
        card = data.aircraft[a.aircraft]
        value = card.vp if card.vp_missiles is None else card.vp_missiles
        total += a.count * (value + special)
    total += half.picks * Decimal(sum(data.skills[s].cost for s in half.options)) / 2
    return int(total.quantize(Decimal(1), rounding=ROUND_HALF_UP))


# --- Loading ------------------------------------------------------------------------


def test_every_campaign_is_shipped_and_checks(
    campaigns: dict[str, Campaign], data: Components
) -> None:
    assert set(campaigns) >= SHIPPED
    for campaign in campaigns.values():
        assert check_campaign(campaign, data) == []


@pytest.mark.parametrize("campaign_id", sorted(SHIPPED))
def test_every_campaign_has_five_missions_or_more(
    campaigns: dict[str, Campaign], campaign_id: str
) -> None:
    assert len(campaigns[campaign_id].missions) >= 5


@pytest.mark.parametrize("campaign_id", sorted(SHIPPED))
def test_every_mission_is_dated_and_small(campaigns: dict[str, Campaign], campaign_id: str) -> None:
    for m in campaigns[campaign_id].missions:
        assert m.year is not None and str(m.year) in campaigns[campaign_id].years
        for half in m.nations.values():
            assert 1 <= sum(a.count for a in half.aircraft) <= 4, m.title
            assert half.picks == 1


# --- Yom Kippur: what the book prints -----------------------------------------------


def test_yom_kippur_prints_mission_one(yk: Campaign) -> None:
    assert [n.id for n in yk.nations] == ["israel", "egypt"]
    assert [n.name for n in yk.nations] == ["Israel", "Egypt"]
    first = yk.missions[0]
    assert (first.number, first.title, first.turns) == (1, "SA-7 Site", 6)
    israel, egypt = first.nations["israel"], first.nations["egypt"]
    assert israel.vp == 47
    assert [(a.aircraft, a.count) for a in israel.aircraft] == [("mirage-iiicj", 1)]
    assert egypt.vp == 46
    assert [(a.aircraft, a.count) for a in egypt.aircraft] == [("mig-17f", 2)]
    assert egypt.sites == ("sa-7",)
    assert israel.sites == ()


def test_yom_kippur_has_six_missions_of_one_option(yk: Campaign) -> None:
    assert len(yk.missions) == 6
    assert all(h.picks == 1 for m in yk.missions for h in m.nations.values())
    assert len(yk.printed) >= 5


def test_yom_kippur_example_campaign_ends_as_printed(yk: Campaign) -> None:
    for nation, (total, level) in EXAMPLE_TOTALS.items():
        assert sum(EXAMPLE_SCORES[nation]) == total
        assert yk.level(nation, total) is level


def test_yom_kippur_example_scores_can_happen(yk: Campaign) -> None:
    """Every score of the example (L314) is ceil(VP x k / n) for k of the n enemy
    aircraft destroyed (L307), and no more than the mission's VP."""
    for nation, scores in EXAMPLE_SCORES.items():
        for mission, score in zip(yk.missions, scores, strict=True):
            vp = mission.nations[nation].vp
            assert score <= vp, (nation, mission.number)
            assert score in reachable(vp, enemy_count(mission, nation)), (nation, mission.number)


def test_yom_kippur_mission_one_example(yk: Campaign) -> None:
    """L309: Israel destroys 1 MiG-17 (24 VP), Egypt the Mirage (46 VP); C-L2: the
    campaign example's Egypt 0 for mission #1 is the Mirage surviving."""
    first = yk.missions[0]
    assert math.ceil(first.nations["israel"].vp * 1 / 2) == 24
    assert reachable(first.nations["egypt"].vp, 1) == {0, 46}


# --- Authored values follow their rules ---------------------------------------------


@pytest.mark.parametrize("campaign_id", sorted(SHIPPED))
def test_mission_vp_is_the_value_of_the_enemy(
    campaigns: dict[str, Campaign], data: Components, campaign_id: str
) -> None:
    """Exact on the authored sheets; on Yom Kippur's authored missions within 10% (so
    the book's example scores can happen); the printed mission #1 is not ours."""
    for m in campaigns[campaign_id].missions:
        if campaign_id == YOM_KIPPUR and m.number == 1:
            continue
        for nation, half in m.nations.items():
            value = enemy_value(m, nation, data)
            if campaign_id == YOM_KIPPUR:
                assert abs(half.vp - value) <= 0.10 * value, (m.number, nation, value)
            else:
                assert half.vp == value, (m.number, nation, value)


@pytest.mark.parametrize("campaign_id", sorted(SHIPPED))
def test_victory_charts_follow_the_share_rule(
    campaigns: dict[str, Campaign], campaign_id: str
) -> None:
    campaign = campaigns[campaign_id]
    for nation in campaign.nations:
        total = sum(m.nations[nation.id].vp for m in campaign.missions)
        steps = {s.level: s.min for s in campaign.victory[nation.id]}
        assert steps == {lvl: math.ceil(share * total) for lvl, share in CHART_SHARES.items()}
        assert campaign.level(nation.id, total) is Level.STRATEGIC
        assert campaign.level(nation.id, 0) is Level.NONE


@pytest.mark.parametrize("campaign_id", sorted(SHIPPED))
def test_options_are_usable(
    campaigns: dict[str, Campaign], data: Components, campaign_id: str
) -> None:
    """A gun skill is offered only to a side whose every aircraft has a gun; campaign-only
    skills (90° Angle, 0° Angle, NFOD) are a spice, not the staple."""
    campaign_only = 0
    slots = 0
    for m in campaigns[campaign_id].missions:
        for half in m.nations.values():
            for skill_id in (*half.options, *half.special):
                skill = data.skills[skill_id]
                if skill.requires_gun:
                    assert all(data.aircraft[a.aircraft].gun is not None for a in half.aircraft)
            campaign_only += sum(data.skills[s].campaign_only for s in half.options)
            slots += len(half.options)
    assert 0 < campaign_only <= slots // 4


@pytest.mark.parametrize("campaign_id", sorted(SHIPPED))
def test_sites_belong_to_their_nations(
    campaigns: dict[str, Campaign], data: Components, campaign_id: str
) -> None:
    for m in campaigns[campaign_id].missions:
        sided = [n for n, half in m.nations.items() if half.sites]
        assert len(sided) <= 1, f"#{m.number}: only the defending side has sites"
        for nation, half in m.nations.items():
            for site in half.sites:
                assert site in SITE_USERS[nation], (m.number, nation, site)
                assert m.year is None or data.sites[site].year <= m.year


def _leaves(choice: Choice) -> list[str]:
    if choice.action is not None:
        return [choice.action]
    return [a for c in choice.children for a in _leaves(c)]


def _widest(choice: Choice) -> int:
    return max([len(choice.children), *(_widest(c) for c in choice.children)])


def test_the_selection_menu_holds_every_legal_selection_a_few_at_a_level() -> None:
    """Scaled three times, a mission of twelve aircraft offers 1,760 selections: the
    menu asks one Option at a time, never more than 24 choices a level."""
    from engine.lockedon.campaign import LockedOnCampaignSetup, campaign_system

    rules = campaign_system()
    for campaign in ("yom-kippur-1973", "falklands-1982", "vietnam-1972"):
        state = rules.new_campaign(LockedOnCampaignSetup(campaign=campaign, scale=3), 1)
        while not rules.is_over(state):
            for nation in ("israel", "egypt", "uk", "argentina", "usa", "north-vietnam"):
                if nation not in {n.id for n in rules.sheet_of(state).nations}:
                    continue
                menu = rules.menu(state, nation)
                assert menu is not None
                legal = sorted(str(a) for a in rules.legal_actions(state, nation))
                assert sorted(_leaves(menu)) == legal
                assert _widest(menu) <= 24
                state = rules.apply(state, nation, rules.parse_action(legal[-1]))
            state = rules.absorb(state, Outcome(over=True, winner=None, verdict="", vp={}))
