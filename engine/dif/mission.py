"""A Zero! campaign mission as a Down in Flames game: what it starts from (§15-§23).

A campaign mission or air strike is a DiF game of the Zero! ruleset whose
:class:`~engine.dif.setup.DifSetup` carries a :class:`MissionSetup`. The mission adds
to the basic game (§15.2): formations of bombers and patrol aircraft (§17.2, §17.3,
§20), bombs and the Load Penalty (§17.15, §18), the phases of a mission (Turns of
Arrival, Ingress, Bomb and Egress Turns Over the Target, Turns of Return Home, §23),
bombing and strafing (§21), Discretionary and Anti-Aircraft Fire (§22), pilots' and
crews' campaign abilities (§19.25, §19.35).

A mission is self-contained: the target's ratings, the options' effects and every
aircraft are written into the setup, so a stored game replays exactly even if the
campaign data changes later. The campaign (:mod:`engine.dif.campaign`) builds the
setup; the game's :class:`~engine.core.contract.Outcome` reports back (see
:data:`RECORD_KEYS`).

Seats: fighter and light bomber elements are the setup's ``elements`` as in a
dogfight (``A1``, ``X1``...). Each formation of bombers (or lone patrol aircraft) is a
seat of its own (:class:`FormationSetup`): it has no player-turn (§23.63) but its
side's player chooses its responses from its defensive mini-hands (§20.5). Its
bombers' refs are the seat and ``B1``, ``B2``... (``X3B1``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field, field_validator, model_validator

from engine.dif.campaign_data import LandScoresheet
from engine.dif.campaign_targets import ALT, SIDE, BombingMode, Frozen, TargetRatings
from engine.dif.components import Side

__all__ = [
    "RECORD_KEYS",
    "Clouds",
    "CrewSkill",
    "FormationSetup",
    "MissionKind",
    "MissionSetup",
    "PilotSetup",
]


class MissionKind(StrEnum):
    """The two shapes of a campaign mission (§23.1)."""

    STRIKE = "strike"
    """Turns of Arrival, three Turns Over the Target, Turns of Return Home (§23.1)."""
    DOGFIGHT = "dogfight"
    """A "Dogfight", Reconnaissance or Evacuation Mission: a fixed number of turns, or
    until one side has no aircraft left (§23.1); no target, no bombing."""


class CrewSkill(StrEnum):
    """A Skilled Crew's abilities (§19.35): heavy bombers only."""

    AC = "AC"
    """Ace Crew: twice a mission, a counter-attack card gains a Rejected Attack."""
    BD = "BD"
    """+1 Bomb Card when the aircraft bombs."""
    D = "D"
    """+1 Damage Capacity on each side of its card."""
    EA = "EA"
    """Evasive Action: attacking Leaders -1 Burst, Wingmen -1 Offensive Rating."""
    NS = "NS"
    """Nerves of Steel: spared the first Anti-Aircraft attack when it bombs."""
    TD = "TD"
    """+1 Turret Defensive Rating."""
    TS = "TS"
    """+1 Turret Offensive (Support) Rating."""


class PilotSetup(Frozen):
    """A Skilled Pilot or Crew counter on an aircraft card (§19.13), by name."""

    name: str = Field(min_length=1, max_length=40)
    skills: tuple[str, ...] = Field(
        default=(),
        description="pilot: A, BM, BV, CV, D, G, H, P, S (§19.25); crew: CrewSkill values",
    )


class FormationSetup(Frozen):
    """Bombers flying together (§17.22), or one patrol aircraft (§17.31)."""

    seat: str = Field(pattern=r"^[A-Z][0-9]{1,2}$")
    side: SIDE
    aircraft: tuple[str, ...] = Field(
        min_length=1, max_length=3, description="one aircraft id per bomber, same type (17.22c)"
    )
    altitude: ALT = Field(description="the whole mission's altitude (17.24, 24.48)")
    mode: BombingMode | None = Field(
        default=None, description="saturation, level or torpedo; None: carries no bombs"
    )
    crews: dict[int, PilotSetup] = Field(
        default_factory=dict, description="bomber index (0-based) -> its Skilled Crew (19.34)"
    )


class Clouds(Frozen):
    """The "Clouds Over the Target" Option (§24.53 example): ``draw`` cards at the
    start of the Ingress Turn; on a blue-bordered one, every bombing result
    ``result_shift`` levels lower and Anti-Aircraft Fire ``aa`` (never on Torpedo
    attacks nor their AA when ``torpedo`` is False)."""

    draw: int = Field(ge=1, le=3)
    result_shift: int = Field(ge=0, le=3)
    aa: int = Field(ge=-3, le=3)
    torpedo: bool = False


class MissionSetup(Frozen):
    """Everything a mission adds to a DiF game's setup."""

    kind: MissionKind = MissionKind.STRIKE
    attacker: SIDE = Field(description="the side that bombs (or flies the mission)")
    title: str = Field(default="", max_length=120, description="e.g. 'Target 11: Railway'")
    target: TargetRatings | None = Field(
        default=None,
        description="the target's ratings as flown, options' FLAK changes applied "
        "(a Target Sheet, or a Carrier Fleet's Damage Record, §21.9, §25.83)",
    )
    target_damage: int = Field(
        default=0, ge=0, description="Damage the target already carries (carrier campaigns, 25.81)"
    )
    arrival: int = Field(default=0, ge=0, le=12, description="Turns of Arrival (23.2)")
    home: int = Field(default=0, ge=0, le=12, description="Turns of Return Home (23.2)")
    home_base: int | None = Field(
        default=None,
        description="a land mission's base Turns of Return Home, recomputed from the "
        "slowest surviving bomber at the Egress (23.7); None: ``home`` stands",
    )
    turns: int | None = Field(
        default=None, ge=1, le=12, description="a dogfight-kind mission's turns (23.1)"
    )
    formations: tuple[FormationSetup, ...] = ()
    bombs: dict[str, BombingMode] = Field(
        default_factory=dict,
        description="element seat -> its bombs' mode: Loaded (17.15, 18.11d)",
    )
    pilots: dict[str, PilotSetup] = Field(
        default_factory=dict, description="element seat -> its Leader's Skilled Pilot (19.24)"
    )
    patrol: bool = Field(default=False, description="a Patrol Mission (23.64): no bombs dropped")
    clouds: Clouds | None = None
    extra_damage: int = Field(
        default=0, ge=0, le=3, description="Loaded Flight Deck: + per damaging bomb result"
    )
    angle_of_attack: bool = Field(default=False, description="the optional 20.31")
    awards: LandScoresheet | None = Field(
        default=None,
        description="a land mission's VP awards (24.61); None: VP for the target only (25.81)",
    )

    @field_validator("bombs")
    @classmethod
    def _modes(cls, v: dict[str, BombingMode]) -> dict[str, BombingMode]:
        for seat, mode in v.items():
            if mode in (BombingMode.SATURATION, BombingMode.STRAFING, BombingMode.NONE):
                raise ValueError(f"bombs.{seat}: an element bombs level, dive or torpedo")
        return v

    @model_validator(mode="after")
    def _shape(self) -> MissionSetup:
        if self.kind is MissionKind.DOGFIGHT:
            if self.target is not None or self.turns is None:
                raise ValueError("a dogfight mission has its turns and no target")
        elif self.target is None and not self.patrol:
            raise ValueError("a strike needs its target")
        seats = [f.seat for f in self.formations]
        if len(set(seats)) != len(seats):
            raise ValueError("formations: each seat once")
        return self

    @property
    def defender(self) -> Side:
        return self.attacker.other


RECORD_KEYS = frozenset(
    {
        "pilot",  # the Skilled Pilot's (or Crew's) name, when one flew it
        "over_target",  # True: it flew Over the Target (did not Abandon), 24.61
        "role",  # the campaign Role value of its aircraft
        "bombed",  # True: it dropped its bombs (or torpedo) on the target
        "damage_dealt",  # Damage points its bombs and strafing scored on the target
        "loaded",  # True: it still carries its bombs at the end (not dropped nor jettisoned)
    }
)
"""What each :class:`~engine.core.contract.AircraftFate` of a mission game carries in
its ``record`` for the campaign. The outcome's ``vp`` are the mission's VP by the
Land Campaign awards (§24.61) when ``awards`` is given, else the target's level's VP
only (carrier strikes, §25.81); the game's result holds
``target_damage`` (the target's Damage at the end, earlier Damage included) and
``target_level`` (its level's name)."""


# Re-exported for the campaign: a mission is only ever flown in the Zero! ruleset.
RULESET: Literal["zero"] = "zero"
