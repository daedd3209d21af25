"""What a player types to join a Locked-On dogfight besides the aircraft, made into a
seat's pick (:class:`~engine.lockedon.setup.LockedOnPick`).

``/dogfight join`` asks three texts (:data:`engine.lockedon.lobbytext.PICK_FIELDS`):

``skills``
    skills by id or printed name, comma separated: ``eagle-eyes, Gun Fighter``
    (List of Skills, L329-373).
``ratings``
    the rating changes of Green, Newbie, Skilled, Veteran or Ace (Skills, L317): a
    rating and its change, ``speed+1``; several separated by spaces or commas,
    ``ew-1 gun-1``; with more than one of those skills, each group after its skill
    and a colon, groups separated by semicolons: ``skilled: speed+1; newbie: ew-1,
    gun-1``. A bare rating counts one point in the skill's direction (``veteran:
    speed gun`` is ``speed+1 gun+1``). Ratings: speed, performance, thrust,
    afterburner (``ab``), gun, ew, countermeasures (``cm``).
``missiles``
    ``standard`` (the card's Standard Missile Load, the default), ``none`` (fly
    without missiles: the card's top VP), or a custom load (the Missile Loads
    optional rule, L375-379): each missile by id or name with how many, 2 or 4 (1 or
    2 pairs), comma separated: ``aim-9l:4, aim-7f:2``; a missile without a count is
    one pair.

Parsing happens in a model validator, so a mistake is a pydantic ``ValidationError``
whose message is a :class:`strings.Term` naming what to write. Whether the pick may
fly (the year, campaign-only skills, rating rules, custom loads allowed) is
:meth:`~engine.lockedon.system.LockedOnSystem.pick_refusal`'s to say.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationInfo, model_validator

from engine.lockedon.components import Missile, MissileLoad, Rating, Skill
from engine.lockedon.setup import LockedOnPick
from strings import Term

__all__ = ["JoinExtras", "make_pick", "parse_missiles", "parse_ratings", "parse_skills"]

RATING_WORDS: dict[str, Rating] = {
    "speed": Rating.SPEED,
    "spd": Rating.SPEED,
    "performance": Rating.PERFORMANCE,
    "perf": Rating.PERFORMANCE,
    "thrust": Rating.THRUST,
    "afterburner": Rating.AFTERBURNER,
    "afterburners": Rating.AFTERBURNER,
    "ab": Rating.AFTERBURNER,
    "a/b": Rating.AFTERBURNER,
    "gun": Rating.GUN,
    "ew": Rating.EW,
    "countermeasures": Rating.COUNTERMEASURES,
    "cm": Rating.COUNTERMEASURES,
}
"""What a player may call each rating (the words of the Green skill example, L317)."""
_CHANGE = re.compile(r"^([a-z/]+)([+-]\d)?$")
_LOAD = re.compile(r"^(.+?)\s*(?:[:×x*]\s*(\d+))?$")


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _find(catalogue: Mapping[str, Skill] | Mapping[str, Missile], word: str) -> str | None:
    """The id of the skill or missile a player named by id or printed name."""
    key = _squash(word)
    for item_id, item in catalogue.items():
        if key in (_squash(item_id), _squash(item.name)):
            return item_id
    return None


def parse_skills(text: str, skills: Mapping[str, Skill]) -> tuple[str, ...]:
    """``"eagle-eyes, Gun Fighter"`` -> ``("eagle-eyes", "gun-fighter")``."""
    out = []
    for word in re.split(r"[,;]", text):
        if not word.strip():
            continue
        found = _find(skills, word)
        if found is None:
            raise ValueError(Term("lockedon.ui.pick.unknown_skill", skill=repr(word.strip())))
        out.append(found)
    return tuple(out)


def parse_ratings(
    text: str, chosen: tuple[str, ...], skills: Mapping[str, Skill]
) -> dict[str, dict[Rating, int]]:
    """``"skilled: speed+1; newbie: ew-1 gun-1"`` -> each rating skill's changes."""
    rating_skills = [s for s in chosen if skills[s].ratings is not None]
    out: dict[str, dict[Rating, int]] = {}
    for group in text.split(";"):
        if not group.strip():
            continue
        head, colon, rest = group.partition(":")
        if colon:
            skill = _find(skills, head)
            if skill is None:
                raise ValueError(Term("lockedon.ui.pick.unknown_skill", skill=repr(head.strip())))
            if skill not in rating_skills:
                raise ValueError(Term("lockedon.ui.pick.ratings_skill", skill=skills[skill].name))
        else:
            rest = head
            if not rating_skills:
                raise ValueError(Term("lockedon.ui.pick.ratings_no_skill"))
            if len(rating_skills) > 1:
                names = ", ".join(skills[s].name for s in rating_skills)
                raise ValueError(Term("lockedon.ui.pick.ratings_which", skills=names))
            skill = rating_skills[0]
        rule = skills[skill].ratings
        assert rule is not None
        sign = 1 if rule.total > 0 else -1
        changes = out.setdefault(skill, {})
        for word in re.split(r"[\s,]+", rest.strip().lower()):
            if not word:
                continue
            m = _CHANGE.match(word)
            rating = RATING_WORDS.get(m.group(1)) if m else None
            if m is None or rating is None:
                raise ValueError(Term("lockedon.ui.pick.ratings_text", text=repr(word)))
            delta = int(m.group(2)) if m.group(2) else sign
            changes[rating] = changes.get(rating, 0) + delta
    return out


def parse_missiles(text: str, missiles: Mapping[str, Missile]) -> tuple[MissileLoad, ...] | None:
    """``standard`` -> None; ``none`` -> ``()``; ``"aim-9l:4, aim-7f"`` -> the loads."""
    words = text.strip().lower()
    if words in ("", "standard", "std", "default"):
        return None
    if words in ("none", "no", "0", "-"):
        return ()
    out = []
    for part in words.split(","):
        if not part.strip():
            continue
        m = _LOAD.match(part.strip())
        found = _find(missiles, m.group(1)) if m else None
        if m is None or found is None:
            raise ValueError(Term("lockedon.ui.pick.missiles_text", text=repr(part.strip())))
        count = int(m.group(2)) if m.group(2) else 2
        if not 1 <= count <= 8:
            raise ValueError(Term("lockedon.ui.pick.missiles_text", text=repr(part.strip())))
        out.append(MissileLoad(missile=found, count=count))
    return tuple(out)


class JoinExtras(BaseModel):
    """The join command's extras, parsed (validate with ``context={"skills": ...,
    "missiles": ...}``, the engine's catalogues)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    skills: tuple[str, ...] = ()
    ratings: dict[str, dict[Rating, int]] = {}
    missiles: tuple[MissileLoad, ...] | None = None

    @model_validator(mode="before")
    @classmethod
    def _typed(cls, data: Any, info: ValidationInfo) -> Any:
        if not isinstance(data, Mapping):
            return data
        context = info.context or {}
        skills: Mapping[str, Skill] = context["skills"]
        missiles: Mapping[str, Missile] = context["missiles"]
        out = dict(data)
        chosen = out.get("skills") or ()
        if isinstance(chosen, str):
            chosen = parse_skills(chosen, skills)
            out["skills"] = chosen
        ratings = out.get("ratings")
        if isinstance(ratings, str):
            out["ratings"] = parse_ratings(ratings, tuple(chosen), skills)
        elif ratings is None:
            out.pop("ratings", None)
        load = out.get("missiles")
        if isinstance(load, str):
            out["missiles"] = parse_missiles(load, missiles)
        return out


def make_pick(
    aircraft: str,
    fields: Mapping[str, Any],
    skills: Mapping[str, Skill],
    missiles: Mapping[str, Missile],
) -> LockedOnPick:
    """A seat's pick from the aircraft and the typed extras (absent ones: no skill, the
    Standard Missile Load). Raises pydantic's ValidationError."""
    extras = JoinExtras.model_validate(
        {k: v for k, v in fields.items() if v is not None},
        context={"skills": skills, "missiles": missiles},
    )
    return LockedOnPick.model_validate({"aircraft": aircraft, **extras.model_dump()})
