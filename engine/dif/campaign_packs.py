"""Zero!'s campaign data with a server's content packs laid over it.

A content pack's ``dif`` part may hold, besides ``aircraft``, two sections of campaign
data, each a list of entries in exactly the schema of the shipped file and keyed by
``id``:

* ``campaigns``: Campaign Sheets (``data/dif/campaign/<id>.yaml``, one file a sheet in
  the shipped data): a Land (``kind: land``, :class:`LandCampaign`) or Carrier
  (``kind: carrier``, :class:`CarrierCampaign`) Campaign. The Pearl Harbor Solitaire
  Campaign (§26.0) is the book's only solitaire sheet, played by its own code: a pack
  neither adds another nor replaces it.
* ``targets``: Target Sheets (``data/dif/campaign/targets.yaml``, :class:`TargetSheet`)
  a pack's campaign may name, or built-in ones replaced.

The shipped data is the first layer (:func:`engine.core.packs.extend`: a new id is
added, ``override: true`` replaces an entry, a collision without it is refused). The
Bombing Chart, the Options Sheet, the scoresheets, the Pilot counters and the card
counts are the shipped ones. Then every sheet, shipped or from a pack, gets the checks
of the shipped files (:func:`engine.dif.campaign_data.check_references`: its Target
Sheets and Options exist and fit; :func:`engine.dif.campaign_checks.sheet_problems`:
its Periods, draws and turns) and is checked against the aircraft built with the
same packs (:func:`engine.dif.campaign_checks.aircraft_problems`). A problem names the
last pack's file and the sheet's place: its section and entry (``dif.campaigns[0]``,
after ``pack 'name'`` for an earlier pack's) or ``built-in campaign <id>``, then the
field: ``house.yaml: dif.campaigns[0].targets[2].aircraft[0]: unknown aircraft 'ki-99'
(not in aircraft.yaml or a pack)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, RootModel, ValidationError

from engine.core.dataload import DataError
from engine.core.packs import Pack, entry_places, extend, placed_problems
from engine.dif.campaign_checks import aircraft_problems, sheet_problems
from engine.dif.campaign_data import (
    Campaign,
    CampaignBook,
    CarrierCampaign,
    LandCampaign,
    SolitaireCampaign,
    check_references,
    shipped_book,
)
from engine.dif.campaign_targets import TargetSheet
from engine.dif.carrier import card_counts
from engine.dif.components import Aircraft
from engine.dif.pearl_harbor import CAMPAIGN_ID as PEARL_HARBOR

__all__ = ["CAMPAIGNS", "CONTENT_KINDS", "TARGETS", "PackCampaign", "book_with"]

SYSTEM_DIR = "dif"
CAMPAIGNS = "campaigns"
"""A content pack's section of Campaign Sheets (``dif: campaigns:``)."""
TARGETS = "targets"
"""A content pack's section of Target Sheets (``dif: targets:``)."""
CONTENT_KINDS = (CAMPAIGNS, TARGETS)
_PACK_KINDS: dict[str, type[LandCampaign | CarrierCampaign]] = {
    "land": LandCampaign,
    "carrier": CarrierCampaign,
}


def _by_kind(value: Any) -> Any:
    """A pack's sheet validated by the model its ``kind`` names, so that a problem's
    path is the sheet's own field (``periods[1].start``); a shipped sheet (already a
    model) is kept as it is."""
    if isinstance(value, BaseModel) or not isinstance(value, Mapping):
        return value
    kind = value.get("kind")
    model = _PACK_KINDS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ValidationError.from_exception_data(
            "PackCampaign",
            [
                {
                    "type": "value_error",
                    "loc": ("kind",),
                    "input": kind,
                    "ctx": {
                        "error": ValueError(
                            "'land' or 'carrier' (a pack's Campaign Sheet; the Pearl Harbor "
                            "Solitaire Campaign is the book's only solitaire sheet, §26.0)"
                        )
                    },
                }
            ],
        )
    return model.model_validate(dict(value))


class PackCampaign(
    RootModel[
        Annotated[LandCampaign | CarrierCampaign | SolitaireCampaign, BeforeValidator(_by_kind)]
    ]
):
    """A Campaign Sheet as a pack's ``dif.campaigns`` entry: the shipped file's schema,
    chosen by its ``kind`` (``land`` or ``carrier``)."""

    @property
    def id(self) -> str:
        """The sheet's id: the key packs lay entries over by."""
        return self.root.id


def book_with(packs: Sequence[Pack], aircraft: Mapping[str, Aircraft]) -> CampaignBook:
    """The shipped campaign book with each pack's ``dif.targets`` and ``dif.campaigns``
    laid over it in turn, every sheet checked against its Target Sheets, the Options
    Sheet and ``aircraft`` (the aircraft built over the same packs: a pack's campaign
    may fly a pack's aircraft, a pack's aircraft may not break a shipped campaign).
    Raises :class:`DataError` naming the last pack's file, the entry and the field."""
    shipped = shipped_book()
    if not packs:
        return shipped
    targets = extend(shipped.targets, packs, SYSTEM_DIR, TARGETS, TargetSheet)
    base = {id_: PackCampaign(sheet) for id_, sheet in shipped.campaigns.items()}
    sheets = extend(base, packs, SYSTEM_DIR, CAMPAIGNS, PackCampaign)
    campaigns: dict[str, Campaign] = {id_: entry.root for id_, entry in sheets.items()}
    places = entry_places(packs, SYSTEM_DIR, CAMPAIGNS)
    problems = []
    if PEARL_HARBOR in places:
        problems.append(
            f"{places[PEARL_HARBOR]}.id: {PEARL_HARBOR!r} is the Pearl Harbor Solitaire "
            "Campaign (§26.0), which a pack does not replace"
        )
    counts = card_counts()
    problems += placed_problems(
        packs,
        SYSTEM_DIR,
        CAMPAIGNS,
        "built-in campaign",
        campaigns,
        lambda sheet: [
            *check_references(sheet, targets, shipped.options),
            *sheet_problems(sheet),
            *aircraft_problems(sheet, aircraft, counts),
        ],
    )
    if problems:
        raise DataError(packs[-1].file, problems)
    return CampaignBook(
        targets=targets,
        bombing=shipped.bombing,
        options=shipped.options,
        scoresheets=shipped.scoresheets,
        campaigns=campaigns,
    )
