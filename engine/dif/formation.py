"""Attacking bombers in formation: the numbers and checks of Zero! §17.2, §20, §21.6.

What a fighter may play against Aircraft in Formation and with how many Bursts or
cards (§20.13, §20.22, §20.42), the bomber's defensive mini-hand (§20.41), what a
bomber may answer and what its answer does (§20.43, §20.5), a saturation bomber's
Bomb Cards (§21.62, §18.31, errata L1193) and the VP an aircraft is worth (§24.61).
The optional Angle of Attack (§20.31) and the Skilled Crews (§19.35) change them.

These are pure functions of the printed ratings, used by the mission game's rules
(:mod:`engine.dif.bombing`); they hold no state and draw nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from engine.dif.campaign_cards import FormationRatings
from engine.dif.campaign_data import VpAward
from engine.dif.campaign_targets import BombingChart, BombingMode
from engine.dif.components import (
    BURST_KINDS,
    Aircraft,
    Altitude,
    Card,
    CardKind,
    LeaderRatings,
    WingmanRatings,
)
from engine.dif.legality import Why
from engine.dif.mission import CrewSkill

__all__ = [
    "Angle",
    "BomberAnswer",
    "Supporter",
    "answer",
    "attack_refusal",
    "award_vp",
    "bomber_response_refusal",
    "choice_bonus",
    "defence_cards",
    "formation_speed",
    "leader_bursts",
    "saturation_cards",
    "wingman_minihand",
]

FORMATION_ATTACKS = frozenset({CardKind.MAN, CardKind.HAL, CardKind.IMS, CardKind.OOS})
"""The only cards played against Aircraft in Formation (§20.42)."""
LEADER_BONUS = 2
"""A Leader's extra Bursts against a Bomber (§20.22)."""
_CHOICE_BONUS = {CardKind.MAN: 1, CardKind.HAL: 2}
"""Bursts a successful Maneuvering or Half Loop adds against that Bomber (§20.22)."""


class Angle(StrEnum):
    """The optional Angle of Attack (§20.31), declared before attacking a formation."""

    FRONTAL = "frontal"
    BEAM = "beam"
    REAR = "rear"

    @property
    def fighter(self) -> int:
        """Change to a Leader's Bursts or a Wingman's Offensive Rating."""
        return {Angle.FRONTAL: -1, Angle.BEAM: 0, Angle.REAR: 1}[self]

    @property
    def defence(self) -> int:
        """Change to the formation's Defensive cards, in total (not per bomber)."""
        return {Angle.FRONTAL: -1, Angle.BEAM: 0, Angle.REAR: 2}[self]


def _fighter_change(angle: Angle | None, evasive: bool) -> int:
    """§20.31 Angle of Attack and §19.35 Evasive Action (the attacked bomber's crew):
    both change a Leader's Bursts or a Wingman's Offensive Rating."""
    return (angle.fighter if angle is not None else 0) - int(evasive)


def attack_refusal(kind: CardKind) -> Why | None:
    """§20.42: only Maneuvering, Half Loop, In My Sights or Out of the Sun are played
    against Aircraft in Formation. A Loaded fighter's Maneuvering and Half Loop are
    allowed: the Load Penalty does not apply against formations (§17.15)."""
    if kind in FORMATION_ATTACKS:
        return None
    return Why("dif.mission.refuse.formation_card", card=kind.label)


def wingman_minihand(
    ratings: WingmanRatings, *, angle: Angle | None = None, evasive: bool = False
) -> int:
    """§20.13: a Wingman attacking a Bomber draws its Offensive plus its Defensive
    Rating (Z-17: P-40B 3, A6M2 4); §20.31 and an Evasive Action crew (§19.35) change
    the Offensive part, never below 0; no Burst limit (§20.21)."""
    offensive = max(0, ratings.offensive + _fighter_change(angle, evasive))
    return offensive + ratings.defensive


def choice_bonus(kind: CardKind) -> int:
    """§20.22, §20.32d: Bursts a Leader's successful Maneuvering (+1) or Half Loop (+2)
    adds against the Bomber it attacks; 0 for any other card."""
    return _CHOICE_BONUS.get(kind, 0)


def leader_bursts(
    ratings: LeaderRatings,
    *,
    gained: int = 0,
    angle: Angle | None = None,
    evasive: bool = False,
) -> int:
    """§20.22: a Leader's Number of Bursts against a Bomber: its rating +2, plus
    ``gained`` (the :func:`choice_bonus` of its successful cards against it); §20.31
    and an Evasive Action crew (§19.35) change it, never below 0."""
    return max(0, ratings.bursts + LEADER_BONUS + gained + _fighter_change(angle, evasive))


@dataclass(frozen=True, slots=True)
class Supporter:
    """A bomber of the attacked one's formation: its current side's ratings and its
    crew's skills (§19.35)."""

    ratings: FormationRatings
    crew: tuple[str, ...] = ()


def defence_cards(
    target: Supporter, others: Iterable[Supporter], *, angle: Angle | None = None
) -> int:
    """§20.41: the attacked bomber's Turret Defensive Rating (+1 with a TD crew) plus
    the Turret Support Rating (+1 with a TS crew) of every other bomber still in its
    formation, then the Angle of Attack's change in total (§20.31), never below 0.

    ``others`` holds only bombers still in the formation: a Damaged bomber has left it
    and neither gives nor receives Turret Support (§17.28)."""
    cards = target.ratings.turret_defensive + int(CrewSkill.TD.value in target.crew)
    for o in others:
        cards += o.ratings.turret_support + int(CrewSkill.TS.value in o.crew)
    return max(0, cards + (angle.defence if angle is not None else 0))


def bomber_response_refusal(attack: CardKind, card: Card) -> Why | None:
    """May a bomber answer a fighter's ``attack`` with ``card`` from its mini-hand?
    Not a Maneuvering or Half Loop (§20.43); to an In My Sights or Out of the Sun only
    with an In My Sights, an Out of the Sun or a card with a Rejected Attack (§20.51)."""
    if attack not in BURST_KINDS:
        return Why("dif.mission.refuse.bomber_no_response", card=attack.label)
    if card.type.kind in BURST_KINDS or card.spoiled_attack:
        return None
    return Why("dif.mission.refuse.bomber_response", card=card.type.label)


@dataclass(frozen=True, slots=True)
class BomberAnswer:
    """What a bomber's response does (§20.52-§20.54)."""

    rejected: bool
    """The fighter's attack is rejected: it scores no Damage (§20.53, §20.54)."""
    counter: bool
    """The card is an In My Sights or Out of the Sun: the fighter takes its Damage
    unless it answers it; the bomber never answers that answer (§20.52, §20.54)."""


def answer(card: Card, *, ace: bool = False) -> BomberAnswer:
    """§20.52-§20.54: the effect of a bomber's allowed response. ``ace``: an Ace Crew
    (§19.35 AC) spends one of its two uses so that its counter-attack card gains a
    Rejected Attack. The fighter may never answer the Rejected Attack itself."""
    counter = card.type.kind in BURST_KINDS
    return BomberAnswer(rejected=card.spoiled_attack or (ace and counter), counter=counter)


def saturation_cards(
    chart: BombingChart,
    ac: Aircraft,
    *,
    damaged: bool,
    altitude: Altitude,
    naval: bool,
    crew: tuple[str, ...] = (),
) -> int:
    """§21.62: a saturation bomber draws its Saturation factor (the Damaged side's once
    Damaged, §17.27) changed by altitude; a Norden Bombsight adds two, never against a
    Naval Target (§18.31, errata L1193; Z-20: a B-17E 8 against a Ground Target, 6
    against a ship); a BD crew one more (§19.35)."""
    factors = None
    if ac.bombing is not None:
        factors = ac.bombing.damaged if damaged else ac.bombing.undamaged
    if ac.bombing is None or factors is None or factors.saturation is None:
        raise ValueError(f"{ac.name} has no Saturation Bombing Capacity (21.61)")
    cards = chart.bomb_cards(
        BombingMode.SATURATION,
        altitude,
        factor=factors.saturation,
        norden=ac.bombing.norden,
        naval=naval,
    )
    return cards + int(cards > 0 and CrewSkill.BD.value in crew)


def formation_speed(bombers: Iterable[Aircraft]) -> int | None:
    """§23.7: the Formation Speed Factor of the slowest surviving bomber; None when
    no bomber survives."""
    speeds = [ac.mission_speed for ac in bombers]
    return min(speeds) if speeds else None


def award_vp(
    award: VpAward, *, destroyed: bool, damaged: bool, over_target: bool
) -> tuple[int, int]:
    """§24.61: the VP one aircraft (a bomber or an element's) is worth: (the enemy's,
    its own side's). The enemy scores it Destroyed or Damaged (or Evaded); its own
    side when it flew Over the Target and returned NOT Damaged."""
    if destroyed:
        return award.destroyed, 0
    if damaged:
        return award.damaged, 0
    return 0, award.returned if over_target else 0
