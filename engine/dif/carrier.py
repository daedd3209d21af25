"""Zero!'s Carrier Campaigns, Coral Sea and Midway (§25), for
:class:`~engine.dif.campaign.ZeroCampaigns`.

A Carrier Campaign is a series of Turns (§25.1 III). Each turn both sides secretly
choose their Carrier Fleet Tactics and Flight Ops, with the Damage Record their Air
Strike attacks (§25.3-25.4, §25.66), ``fleet #<turn> <tactics> <ops> [<target>]``;
once revealed, each secretly chooses ONE numbered Option (§25.5),
``option #<turn> <number>``. Then the turn's games are flown one after another
(§25.61): the Reconnaissance Missions, Midway's Air Strike, the Carrier Fleets' Air
Strikes (the lower Option number first, §25.53). An Air Strike its fleet's Damage
makes smaller loses the aircraft its side chooses, one at a time (§25.63),
``lose #<game> <flight>``. Each game draws its pilots (§19.24; a Veteran Pilot
Leader who drew more than one Skilled Pilot keeps the one his side names,
``keep #<game> <counter>``) and, for Port Moresby and the Invasion Force, the card
that sets their CAP (§25.43).
After each Air Strike its Damaged aircraft try to land (§25.71), the target's Damage
Record takes the Damage the bombs scored and one box for each aircraft destroyed
flying from a Carrier Fleet or Midway (§25.82, not on a Reconnaissance Mission). The
campaign ends after the sheet's turns, or after a turn in which a Carrier Fleet is
Out of Action (§25.9): each side scores the VP of the levels the enemy records
reached (§25.83).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.campaign import (
    CampaignDecision,
    CampaignEntry,
    CampaignResult,
    CampaignSheet,
    Happenings,
    MissionPlan,
    MissionRow,
    MissionState,
    NextMission,
    PilotLog,
    SheetTable,
)
from engine.core.contract import Fate, Outcome, SideInfo
from engine.core.dataload import parse_model, read_shipped
from engine.core.errors import RuleViolation
from engine.core.present import Choice
from engine.core.rng import Rng
from engine.dif.campaign_data import (
    CampaignBook,
    CampaignOption,
    CarrierCampaign,
    DamageRecord,
    DrawCard,
    FleetTactics,
    Flight,
    FlightForm,
    FlightOp,
    FlightOps,
    OptionKind,
    OptionSpec,
)
from engine.dif.campaign_mission import (
    CAMPAIGN_SIDES,
    GAME_SIDE,
    CampaignPart,
    DrawnCounter,
    Draws,
    FlownPilot,
    Layout,
    OptionPick,
    PartState,
    PilotKeep,
    PilotOffer,
    Sortie,
    ZeroCampaignSetup,
    arrival_change,
    as_drawn,
    campaign_side,
    check_keep,
    clouds_of,
    draw_pilots,
    drawn_lines,
    flown_pilots,
    keep_label,
    lay_out,
    lobby,
    logbook,
    pilots_table,
    ratings_of,
    shot_down_pilots,
    side_name,
    veteran_offer,
    victory_result,
)
from engine.dif.campaign_targets import Frozen, check_printed
from engine.dif.components import Altitude, CardKind, Ruleset, Side
from engine.dif.game import DifEngine
from engine.dif.mission import MissionKind, MissionSetup
from engine.dif.pilots import PilotBook
from engine.dif.setup import DifSetup
from strings import Term

__all__ = [
    "CARD_COUNTS_FILE",
    "CardCounts",
    "CarrierCampaigns",
    "CarrierGame",
    "CarrierState",
    "FleetOrders",
    "StrikeLoss",
    "card_counts",
    "parse_loss",
    "parse_orders",
    "recovery_cards",
]

CARD_COUNTS_FILE = "campaign/card-counts.yaml"
STRIKE_ALTITUDE = Altitude.MEDIUM
"""Where an Air Strike's Formations fly: the sheets give no altitude (an authored
reading, docs/rules-decisions.md)."""
_ORDERS = re.compile(
    r"^fleet\s+#(\d+)\s+(short|medium|long)\s+(large|small|none)(?:\s+([a-z0-9-]+))?\s*$"
)
_LOSS = re.compile(r"^lose\s+#(\d+)\s+(\d+)\s*$")
_LOSS_KINDS = frozenset({"carrier_fleet", "airfield"})
"""The records that lose a box for each of their aircraft destroyed (§25.82)."""


class CardCounts(Frozen):
    """The aircraft cards an Air Strike or CAP may use (§25.65)."""

    elements: dict[str, int] = Field(description="aircraft id -> Leader/Wingman card pairs")
    aircraft: dict[str, int] = Field(description="bomber id -> its cards")
    printed: frozenset[str] = Field(default=frozenset())

    def limit(self, aircraft: str) -> int:
        return self.elements.get(aircraft, self.aircraft.get(aircraft, 0))

    @model_validator(mode="after")
    def _printed(self) -> CardCounts:
        check_printed(self, self.printed)
        return self


@functools.cache
def card_counts() -> CardCounts:
    """The shipped card counts (``campaign/card-counts.yaml``)."""
    text = read_shipped("dif", CARD_COUNTS_FILE)
    return parse_model("card-counts.yaml", text, CardCounts, "the aircraft card counts")


class FleetOrders(BaseModel):
    """A side's secret Fleet Tactics and Flight Ops for a turn, and the record its
    Air Strike attacks (§25.31, §25.41, §25.66)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int = Field(ge=1)
    tactics: FleetTactics
    ops: FlightOps
    target: str | None = None

    def __str__(self) -> str:
        tail = f" {self.target}" if self.target else ""
        return f"fleet #{self.turn} {self.tactics.value} {self.ops.value}{tail}"

    def __hash__(self) -> int:
        return hash(str(self))


def parse_orders(text: str) -> FleetOrders | None:
    """``fleet #2 long large allied-fleet``; None when the text is not one."""
    m = _ORDERS.match(text.strip())
    if m is None:
        return None
    return FleetOrders(
        turn=int(m.group(1)),
        tactics=FleetTactics(m.group(2)),
        ops=FlightOps(m.group(3)),
        target=m.group(4),
    )


class StrikeLoss(BaseModel):
    """One aircraft an Air Strike made smaller by its fleet's Damage loses (§25.63,
    L2007: the player's choice), ``lose #<game> <flight>``: the strike's flight
    (numbered from 1 as the strike lists it) that loses it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: int = Field(ge=1)
    flight: int = Field(ge=1)

    def __str__(self) -> str:
        return f"lose #{self.game} {self.flight}"

    def __hash__(self) -> int:
        return hash(str(self))


def parse_loss(text: str) -> StrikeLoss | None:
    """``lose #4 3``; None when the text is not one."""
    m = _LOSS.match(text.strip())
    if m is None:
        return None
    return StrikeLoss(game=int(m.group(1)), flight=int(m.group(2)))


class CarrierGame(BaseModel):
    """A game of the turn still to fly: a Reconnaissance Mission or an Air Strike."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["recon", "strike"]
    side: str
    """The campaign side flying it."""
    source: str
    """The Damage Record it flies from (a Carrier Fleet, or Midway)."""
    target: str | None = None
    """The record an Air Strike attacks."""
    simultaneous: bool = False
    """One of the two fleets' strikes resolved together (§25.53: the same Option)."""
    at: dict[str, int] | None = None
    """Simultaneous strikes: the Damage their sizes are read at, taken when the first
    of them is flown (after the turn's Reconnaissance Missions and Midway's strike,
    §25.61), so neither sees the other's Damage."""


class GameScore(BaseModel):
    """A flown game of a turn: what it did to the records."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int
    title: str
    side: str
    damage: dict[str, int] = Field(default_factory=dict)
    """Boxes crossed out on each record (its target's Damage, aircraft destroyed)."""
    recovered: tuple[str, ...] = ()
    """Each Damaged aircraft's recovery: its ref and 'landed' or 'lost' (§25.71)."""
    lost: tuple[str, ...] = ()
    survived: bool | None = None
    """A Reconnaissance Mission's aircraft survived (§25.63); None: an Air Strike."""
    flown: tuple[FlownPilot, ...] = ()
    """The Skilled Pilots who flew it, and how they fared (the logbook)."""


class CarrierState(PartState):
    """A Carrier Campaign. Plain JSON."""

    kind: Literal["carrier"] = "carrier"
    turn: int = 1
    phase: Literal["orders", "options", "flying", "over"] = "orders"
    game: int = 1
    """The campaign's next game's number (every Mission and Air Strike counts)."""
    attempt: int = 1
    orders: dict[str, FleetOrders] = Field(default_factory=dict)
    last: dict[str, FleetOrders] = Field(default_factory=dict)
    """The previous turn's orders (§25.32, §25.42)."""
    picks: dict[str, int] = Field(default_factory=dict)
    used: dict[str, tuple[int, ...]] = Field(default_factory=dict)
    hidden: tuple[str, ...] = ()
    """Fleets an Out of Sight Option hid this turn (their side ids)."""
    recon: dict[str, bool] = Field(default_factory=dict)
    """This turn's Reconnaissance Missions: survived or not (§25.63)."""
    queue: tuple[CarrierGame, ...] = ()
    cuts: tuple[int, ...] = ()
    """The next Air Strike's losses its side chose so far (§25.63): the flight (from 0,
    in the strike as each loss left it) that lost each aircraft."""
    cap_card: DrawCard | None = None
    """The card drawn for the next game's base or Invasion Force CAP (§25.43)."""
    veteran: tuple[str, ...] = ()
    """Sides whose Veteran Pilot Option was used this turn (one Leader, once)."""
    extra: dict[str, int] = Field(default_factory=dict)
    """The next game's Veteran Pilot Leaders: the counters each side's draws."""
    keep: dict[str, str] = Field(default_factory=dict)
    """The counter each of those sides keeps, once it said."""
    offer: PilotOffer | None = None
    """A Veteran Pilot Leader's Skilled Pilots awaiting its side's pick: the game's
    pilots are drawn (again, from the same RNG state) once it is made."""
    drawn: tuple[DrawnCounter, ...] = ()
    damage: dict[str, int] = Field(default_factory=dict)
    lost: tuple[str, ...] = ()
    scores: tuple[GameScore, ...] = ()
    log: tuple[tuple[int, str, str], ...] = ()
    """Revealed orders and Options: (turn, side, text)."""


def _tactics_name(tactics: FleetTactics) -> str:
    return Term(f"campaign.zero.tactics_name.{tactics.value}")


def _ops_name(ops: FlightOps) -> str:
    return Term(f"campaign.zero.ops_name.{ops.value}")


def recovery_cards(
    c: CarrierCampaign,
    rules: Mapping[FleetTactics, int],
    orders: Mapping[str, FleetOrders],
    source: str,
    target: str,
) -> int:
    """§25.71: the cards each Damaged aircraft draws, the two ends' Fleet Tactics
    added; a fleet without carriers takes the tactics its record names (§25.34:
    Midway the Japanese player's, L2037)."""
    total = 0
    for record_id in (source, target):
        record = c.record(record_id)
        assert record is not None
        side = record.tactics if record.tactics is not None else record.owner
        total += rules[orders[campaign_side(side)].tactics]
    return total


def _lose_one(flights: list[Flight], index: int) -> list[Flight]:
    """The flight at ``index`` loses one aircraft (§25.63): an Element its Wingman
    (its Leader flies on alone; losing the Leader instead leaves the same lone
    aircraft), a Leader or a bomber itself."""
    f = flights[index]
    rest = [f.model_copy(update={"count": f.count - 1})] if f.count > 1 else []
    if f.form is FlightForm.ELEMENT:
        rest.append(Flight(aircraft=f.aircraft, count=1, form=FlightForm.LEADER))
    return [*flights[:index], *rest, *flights[index + 1 :]]


def _trim(flights: list[Flight], count: int) -> list[Flight]:
    """A CAP ``count`` aircraft smaller (§25.64): each from the last flight listed,
    its Wingman first, then its Leader."""
    out = list(flights)
    for _ in range(count):
        if not out:
            break
        out = _lose_one(out, len(out) - 1)
    return out


def _grow(flights: list[Flight], count: int, counts: CardCounts) -> list[Flight]:
    """``count`` more aircraft of a type already in the strike (§25.63): a Wingman for
    the last lone Leader (the example's Val), else one more of the last type, cards
    permitting (§25.65)."""
    out = list(flights)
    for _ in range(count):
        lone = [i for i, f in enumerate(out) if f.form is FlightForm.LEADER]
        if lone:
            i = lone[-1]
            f = out[i]
            pair = Flight(aircraft=f.aircraft, count=1, form=FlightForm.ELEMENT)
            rest = [f.model_copy(update={"count": f.count - 1})] if f.count > 1 else []
            out = [*out[:i], *rest, pair, *out[i + 1 :]]
        elif out:
            last = out[-1]
            form = FlightForm.AIRCRAFT if last.form is FlightForm.AIRCRAFT else FlightForm.LEADER
            out.append(Flight(aircraft=last.aircraft, count=1, form=form))
    return _limit(out, counts)


def _limit(flights: list[Flight], counts: CardCounts) -> list[Flight]:
    """No more Elements (or bombers) of a type than its cards (§25.65)."""
    left = {f.aircraft: counts.limit(f.aircraft) for f in flights}
    out: list[Flight] = []
    for f in flights:
        n = min(f.count, left[f.aircraft])
        left[f.aircraft] -= n
        if n > 0:
            out.append(f.model_copy(update={"count": n}))
    return out


class CarrierCampaigns(CampaignPart):
    """The Carrier Campaigns (§25) for :class:`~engine.dif.campaign.ZeroCampaigns`."""

    def __init__(self, engine: DifEngine, book: CampaignBook, pilots: PilotBook) -> None:
        super().__init__(engine, book, pilots)
        self.counts = card_counts()

    def sheet_of(self, state: CarrierState) -> CarrierCampaign:
        c = self.book.campaign(state.setup.campaign)
        assert isinstance(c, CarrierCampaign)
        return c

    def record(self, state: CarrierState, id_: str) -> DamageRecord:
        r = self.sheet_of(state).record(id_)
        assert r is not None
        return r

    def new_campaign(self, setup: ZeroCampaignSetup, seed: int, c: CarrierCampaign) -> CarrierState:
        Draws.check(setup, self.deck, self.pilots.counters)
        return CarrierState(
            setup=setup,
            seed=seed,
            rng=Rng(seed).state,
            draws=setup.draws,
            cup=setup.cup,
            damage={r.id: 0 for r in c.records},
        )

    def is_over(self, state: CarrierState) -> bool:
        return state.phase == "over"

    # --- orders and Options -------------------------------------------------------------
    def pending(self, state: CarrierState) -> list[CampaignDecision]:
        if state.phase == "orders":
            return [
                CampaignDecision(s, "fleet", secret=True, mission=state.turn)
                for s in CAMPAIGN_SIDES
                if s not in state.orders
            ]
        if state.phase == "options":
            return [
                CampaignDecision(s, "carrier_option", secret=True, mission=state.turn)
                for s in CAMPAIGN_SIDES
                if s not in state.picks
            ]
        if state.phase == "flying" and state.queue and self._losses_left(state):
            side = state.queue[0].side
            return [CampaignDecision(side, "strike_loss", secret=True, mission=state.game)]
        if state.offer is not None:
            return [CampaignDecision(state.offer.side, "veteran", secret=True, mission=state.game)]
        return []

    def _orders_open(self, state: CarrierState, side: str) -> list[FleetOrders]:
        """§25.32: no Short Range after Long, nor Long after Short; §25.42: no Large
        Air Strike two turns running; §25.66: a target its Flight Ops name."""
        last = state.last.get(side)
        sheet = self.sheet_of(state).sides[GAME_SIDE[side]]
        out: list[FleetOrders] = []
        for tactics in FleetTactics:
            if last is not None and {tactics, last.tactics} == {
                FleetTactics.SHORT,
                FleetTactics.LONG,
            }:
                continue
            for op in sheet.flight_ops:
                if last is not None and op.ops is FlightOps.LARGE and last.ops is FlightOps.LARGE:
                    continue
                targets: Sequence[str | None] = op.targets or (None,)
                out += [
                    FleetOrders(turn=state.turn, tactics=tactics, ops=op.ops, target=t)
                    for t in targets
                ]
        return out

    def _options_open(self, state: CarrierState, side: str) -> list[CampaignOption]:
        """§25.52: each Option once per campaign (No Option as often as wished), none
        reserved to the other side."""
        used = state.used.get(side, ())
        out = []
        for entry in self.sheet_of(state).options:
            spec = self.book.options[entry.option]
            if spec.side is not None and spec.side is not GAME_SIDE[side]:
                continue
            if entry.number in used and not spec.repeatable:
                continue
            out.append(entry)
        return out

    def legal_actions(self, state: CarrierState, side: str) -> list[Any]:
        if side not in CAMPAIGN_SIDES:
            return []
        if state.phase == "orders" and side not in state.orders:
            return list(self._orders_open(state, side))
        if state.phase == "options" and side not in state.picks:
            return [
                OptionPick(mission=state.turn, number=o.number)
                for o in self._options_open(state, side)
            ]
        if any(d.side == side and d.kind == "strike_loss" for d in self.pending(state)):
            flights = self._cut(state, state.queue[0])
            return [StrikeLoss(game=state.game, flight=i) for i in range(1, len(flights) + 1)]
        if state.offer is not None and state.offer.side == side:
            return [PilotKeep(game=state.game, counter=d.counter) for d in state.offer.counters]
        return []

    def rule_action(self, state: CarrierState, side: str) -> Any | None:
        """The choice the campaign makes for a computer side (or at a deadline) where
        the book leaves it to the player: an Air Strike's loss from its last flight
        (§25.63); a Veteran Pilot's the most skilled counter, the first on a tie. None:
        no such decision is pending for ``side``."""
        if state.offer is not None and state.offer.side == side:
            return PilotKeep(game=state.game, counter=state.offer.rule().counter)
        legal = self.legal_actions(state, side)
        if legal and isinstance(legal[-1], StrikeLoss):
            return legal[-1]
        return None

    def apply(self, state: CarrierState, side: str, action: Any) -> CarrierState:
        if self.is_over(state):
            raise RuleViolation(Term("campaign.zero.over"))
        if side not in CAMPAIGN_SIDES:
            raise RuleViolation(Term("campaign.zero.no_side", side=side))
        if isinstance(action, StrikeLoss):
            return self._lose(state, side, action)
        if isinstance(action, PilotKeep):
            return self._keep(state, side, action)
        turn = action.turn if isinstance(action, FleetOrders) else action.mission
        if turn != state.turn:
            raise RuleViolation(Term("campaign.zero.wrong_turn", turn=state.turn, given=turn))
        if isinstance(action, FleetOrders):
            return self._order(state, side, action)
        return self._option(state, side, action)

    def _order(self, state: CarrierState, side: str, action: FleetOrders) -> CarrierState:
        if state.phase != "orders" or side in state.orders:
            raise RuleViolation(Term("campaign.zero.not_orders", turn=state.turn))
        last = state.last.get(side)
        if last is not None and {action.tactics, last.tactics} == {
            FleetTactics.SHORT,
            FleetTactics.LONG,
        }:
            raise RuleViolation(
                Term(
                    "campaign.zero.tactics",
                    last=_tactics_name(last.tactics),
                    tactics=_tactics_name(action.tactics),
                )
            )
        if last is not None and action.ops is FlightOps.LARGE and last.ops is FlightOps.LARGE:
            raise RuleViolation(Term("campaign.zero.large_twice"))
        if action not in self._orders_open(state, side):
            op = self.sheet_of(state).sides[GAME_SIDE[side]].ops(action.ops)
            raise RuleViolation(
                Term("campaign.zero.strike_target", targets=", ".join(op.targets) or "-")
            )
        orders = {**state.orders, side: action}
        state = state.model_copy(update={"orders": orders})
        if len(orders) < len(CAMPAIGN_SIDES):
            return state
        log = tuple((state.turn, s, str(orders[s])) for s in CAMPAIGN_SIDES)
        return state.model_copy(update={"phase": "options", "log": (*state.log, *log)})

    def _option(self, state: CarrierState, side: str, action: OptionPick) -> CarrierState:
        if state.phase != "options" or side in state.picks:
            raise RuleViolation(Term("campaign.zero.not_options", turn=state.turn))
        c = self.sheet_of(state)
        entry = next((o for o in c.options if o.number == action.number), None)
        if entry is None:
            raise RuleViolation(
                Term("campaign.zero.no_option", number=action.number, side=side_name(side))
            )
        spec = self.book.options[entry.option]
        if spec.side is not None and spec.side is not GAME_SIDE[side]:
            raise RuleViolation(
                Term(
                    "campaign.zero.reserved",
                    number=action.number,
                    side=side_name(campaign_side(spec.side)),
                )
            )
        if action.number in state.used.get(side, ()) and not spec.repeatable:
            raise RuleViolation(Term("campaign.zero.used_carrier", number=action.number))
        picks = {**state.picks, side: action.number}
        used = {**state.used, side: (*state.used.get(side, ()), action.number)}
        state = state.model_copy(update={"picks": picks, "used": used})
        return self._reveal(state) if len(picks) == len(CAMPAIGN_SIDES) else state

    def _lose(self, state: CarrierState, side: str, action: StrikeLoss) -> CarrierState:
        """§25.63: the side names the flight that loses the strike's next aircraft;
        the last loss chosen, the game's pilots are drawn."""
        if not any(d.side == side and d.kind == "strike_loss" for d in self.pending(state)):
            raise RuleViolation(Term("campaign.zero.no_loss", side=side_name(side)))
        if action.game != state.game:
            raise RuleViolation(
                Term("campaign.zero.wrong_game", game=state.game, given=action.game)
            )
        flights = self._cut(state, state.queue[0])
        if action.flight > len(flights):
            raise RuleViolation(
                Term("campaign.zero.no_flight", flight=action.flight, flights=len(flights))
            )
        state = state.model_copy(update={"cuts": (*state.cuts, action.flight - 1)})
        return state if self._losses_left(state) else self._prepare(state)

    def _keep(self, state: CarrierState, side: str, action: PilotKeep) -> CarrierState:
        """The Veteran Pilot Leader keeps the Skilled Pilot its side names of those he
        drew; the game's pilots are drawn again with it (the same RNG state)."""
        check_keep(state.offer, side, state.game, action)
        keep = {**state.keep, side: action.counter}
        return self._draw_pilots(state.model_copy(update={"keep": keep, "offer": None}))

    def spec(self, state: CarrierState, side: str) -> tuple[CampaignOption, OptionSpec] | None:
        number = state.picks.get(side)
        if number is None:
            return None
        entry = next(o for o in self.sheet_of(state).options if o.number == number)
        return entry, self.book.options[entry.option]

    def _kind(self, state: CarrierState, side: str) -> OptionKind | None:
        chosen = self.spec(state, side)
        return chosen[1].kind if chosen else None

    # --- the turn's games -----------------------------------------------------------------
    def _reveal(self, state: CarrierState) -> CarrierState:
        """Both Options revealed (§25.52): Out of Sight draws (by the chooser's Fleet
        Tactics), then the turn's games in order (§25.61): Reconnaissance Missions,
        Midway's Air Strike, the Carrier Fleets' strikes, lower Option first (§25.53)."""
        c = self.sheet_of(state)
        draws = self.draws(state)
        log = tuple((state.turn, s, f"option {state.picks[s]}") for s in CAMPAIGN_SIDES)
        hidden: list[str] = []
        for side in CAMPAIGN_SIDES:
            chosen = self.spec(state, side)
            if chosen and chosen[1].kind is OptionKind.OUT_OF_SIGHT:
                n = chosen[1].range_draw[state.orders[side].tactics]
                if any(draws.card().is_response for _ in range(n)):
                    hidden.append(side)
        queue: list[CarrierGame] = [
            CarrierGame(kind="recon", side=s, source=c.sides[GAME_SIDE[s]].fleet)
            for s in CAMPAIGN_SIDES
            if self._kind(state, s) is OptionKind.RECONNAISSANCE
        ]
        for record in c.records:
            aim = self._found(state, record.strike_targets, hidden)
            if record.launches and aim is not None:
                queue.append(
                    CarrierGame(
                        kind="strike",
                        side=campaign_side(record.owner),
                        source=record.id,
                        target=aim,
                    )
                )
        strikes = []
        for side in CAMPAIGN_SIDES:
            orders = state.orders[side]
            if orders.ops is FlightOps.NONE or orders.target is None:
                continue
            op = self._flight_op(state, side)
            rest = [t for t in op.targets if t != orders.target]
            target = self._found(state, [orders.target, *rest], hidden)
            if target is not None:
                strikes.append((state.picks[side], side, target))
        strikes.sort(key=lambda s: s[0])
        simultaneous = len(strikes) == 2 and strikes[0][0] == strikes[1][0]
        for _, side, target in strikes:
            queue.append(
                CarrierGame(
                    kind="strike",
                    side=side,
                    source=c.sides[GAME_SIDE[side]].fleet,
                    target=target,
                    simultaneous=simultaneous,
                )
            )
        state = state.model_copy(
            update={
                **draws.update(),
                "phase": "flying",
                "hidden": tuple(hidden),
                "queue": tuple(queue),
                "log": (*state.log, *log),
            }
        )
        return self._next_game(state)

    def _found(self, state: CarrierState, targets: Sequence[str], hidden: list[str]) -> str | None:
        """The first of a strike's targets it finds: a Carrier Fleet an Out of Sight
        Option hid this turn is passed over for the next target, or none (the strike
        returns without attacking)."""
        c = self.sheet_of(state)
        unseen = {c.sides[GAME_SIDE[side]].fleet for side in hidden}
        return next((t for t in targets if t not in unseen), None)

    def _next_game(self, state: CarrierState) -> CarrierState:
        """Skip the games that cannot be flown (no aircraft left to launch; a
        Reconnaissance Mission against no CAP survives unopposed), prepare the next
        one (its pilots, its base's CAP card), or end the turn."""
        while state.queue:
            head = state.queue[0]
            if head.simultaneous and head.at is None:
                at = dict(state.damage)
                queue = tuple(
                    g.model_copy(update={"at": at}) if g.simultaneous else g for g in state.queue
                )
                state = state.model_copy(update={"queue": queue})
                head = state.queue[0]
            if head.kind == "recon" and not self._cap(state, head.side, head, None):
                state = state.model_copy(
                    update={"recon": {**state.recon, head.side: True}, "queue": state.queue[1:]}
                )
                continue
            if head.kind == "strike" and not self._strike(state, head):
                state = state.model_copy(update={"queue": state.queue[1:]})
                continue
            return state if self._losses_left(state) else self._prepare(state)
        return self._end_turn(state)

    def _prepare(self, state: CarrierState) -> CarrierState:
        draws = self.draws(state)
        head = state.queue[0]
        card: DrawCard | None = None
        if head.kind == "strike" and head.target and self.record(state, head.target).cap_draw:
            card = DrawCard.of(draws.card())
        state = state.model_copy(update={**draws.update(), "cap_card": card})
        layout = self._layout(state, head)
        extra: dict[str, int] = {}
        for side in CAMPAIGN_SIDES:
            chosen = self.spec(state, side)
            if (
                chosen
                and chosen[1].kind is OptionKind.PILOT
                and side not in state.veteran
                and layout.leaders(GAME_SIDE[side])
            ):
                extra[side] = chosen[1].pilots
        used = (*state.veteran, *extra)
        return self._draw_pilots(state.model_copy(update={"veteran": used, "extra": extra}))

    def _draw_pilots(self, state: CarrierState) -> CarrierState:
        """The game's pilots (§19.24), Veteran Pilot Leaders drawing more: when one drew
        more than one Skilled Pilot and its side has not said which it keeps, it is
        asked, and nothing is drawn yet (the RNG stays where it is)."""
        draws = self.draws(state)
        layout = self._layout(state, state.queue[0])
        veteran = {GAME_SIDE[s]: n for s, n in state.extra.items()}
        kept = {GAME_SIDE[s]: c for s, c in state.keep.items()}
        drawn = draw_pilots(
            self.pilots,
            self.catalogue,
            layout,
            draws.pick,
            out=frozenset(state.lost),
            veteran=veteran,
            keep=kept,
        )
        offer = veteran_offer(drawn, layout, veteran, kept)
        if offer is not None:
            return state.model_copy(update={"offer": offer})
        return state.model_copy(
            update={**draws.update(), "drawn": tuple(DrawnCounter.of(d) for d in drawn)}
        )

    def _end_turn(self, state: CarrierState) -> CarrierState:
        """§25.9: over after the sheet's turns or a turn that left a Carrier Fleet
        Out of Action; else the next turn's orders."""
        c = self.sheet_of(state)
        out_of_action = any(
            r.out_of_action and r.level(state.damage[r.id]) == r.levels[-1] for r in c.records
        )
        done = state.turn >= c.turns or out_of_action
        return state.model_copy(
            update={
                "phase": "over" if done else "orders",
                "turn": state.turn if done else state.turn + 1,
                "last": dict(state.orders),
                "orders": {} if not done else state.orders,
                "picks": {} if not done else state.picks,
                "hidden": (),
                "recon": {},
                "veteran": (),
                "drawn": (),
                "cap_card": None,
            }
        )

    def _damage(self, state: CarrierState, game: CarrierGame) -> Mapping[str, int]:
        return game.at if game.at is not None else state.damage

    def _launched(self, state: CarrierState, game: CarrierGame) -> tuple[list[Flight], int]:
        """An Air Strike before its losses (§25.63): the Flight Ops' (Midway: its
        Damage row's, §25.43) within the cards (§25.65), and the number of aircraft
        its record's level takes from it."""
        record = self.record(state, game.source)
        damage = self._damage(state, game)[record.id]
        if record.launches:
            row = next(
                r
                for r in record.launches
                if r.low <= damage and (r.high is None or damage <= r.high)
            )
            flights = list(row.strike)
        else:
            flights = list(self._flight_op(state, game.side).strike)
        return _limit(flights, self.counts), -record.level(damage).strike

    def _losses_left(self, state: CarrierState) -> int:
        """The aircraft the next Air Strike must still lose by its side's choice
        (§25.63); 0 when it is not an Air Strike or loses them all."""
        game = state.queue[0]
        if game.kind != "strike":
            return 0
        flights, loss = self._launched(state, game)
        if loss >= sum(f.aircraft_count for f in flights):
            return 0
        return max(0, loss - len(state.cuts))

    def _cut(self, state: CarrierState, game: CarrierGame) -> list[Flight]:
        """The Air Strike less the losses its side chose (:attr:`CarrierState.cuts`);
        none left when its level takes all its aircraft."""
        flights, loss = self._launched(state, game)
        if loss >= sum(f.aircraft_count for f in flights):
            return []
        for index in state.cuts:
            flights = _lose_one(flights, index)
        return flights

    def _strike(self, state: CarrierState, game: CarrierGame) -> list[Flight]:
        """An Air Strike's aircraft (§25.63): the Flight Ops' less the losses its side
        chose, plus a surviving Reconnaissance Mission's bonus, within the cards
        (§25.65)."""
        record = self.record(state, game.source)
        flights = self._cut(state, game)
        chosen = self.spec(state, game.side)
        if state.recon.get(game.side) and chosen and record.kind == "carrier_fleet":
            flights = _grow(flights, chosen[1].bonus_aircraft, self.counts)
        return flights

    def _flight_op(self, state: CarrierState, side: str) -> FlightOp:
        return self.sheet_of(state).sides[GAME_SIDE[side]].ops(state.orders[side].ops)

    def _cap(
        self, state: CarrierState, attacker: str, game: CarrierGame, card: DrawCard | None
    ) -> list[Flight]:
        """The CAP meeting ``attacker``'s game (§25.64): the defending fleet's Flight
        Ops' CAP less its level's loss; Midway's by its Damage; Port Moresby's and the
        Invasion Force's by the card drawn (§25.43); plus an Extra CAP Option's
        Elements (§25.65: cards permitting, of another type the defender flies).
        A Reconnaissance Mission meets one Element of the enemy fleet's CAP."""
        defender = "allied" if attacker == "japanese" else "japanese"
        c = self.sheet_of(state)
        aim = game.target if game.kind == "strike" else c.sides[GAME_SIDE[defender]].fleet
        assert aim is not None
        record = self.record(state, aim)
        damage = self._damage(state, game)[record.id]
        if record.cap_draw:
            flights = list(record.cap_draw[card]) if card is not None else []
        elif record.launches:
            row = next(
                r
                for r in record.launches
                if r.low <= damage and (r.high is None or damage <= r.high)
            )
            flights = list(row.cap)
        else:
            flights = _trim(list(self._flight_op(state, defender).cap), -record.level(damage).cap)
        if game.kind == "recon":
            return [f.model_copy(update={"count": 1}) for f in _limit(flights, self.counts)[:1]]
        chosen = self.spec(state, defender)
        if chosen and chosen[1].kind is OptionKind.EXTRA_CAP:
            flights = self._extra_cap(state, defender, flights, chosen[1].elements)
        return _limit(flights, self.counts)

    def _extra_cap(
        self, state: CarrierState, side: str, flights: list[Flight], elements: int
    ) -> list[Flight]:
        """Extra CAP (Z-30): more Elements of the CAP's type, else of another type the
        side's Flight Ops list, as long as cards are left."""
        sheet = self.sheet_of(state).sides[GAME_SIDE[side]]
        kinds = list(
            dict.fromkeys(
                [f.aircraft for f in flights]
                + [f.aircraft for op in sheet.flight_ops for f in (*op.cap, *op.strike)]
            )
        )
        out = list(flights)
        for _ in range(elements):
            for aircraft in kinds:
                if not self.catalogue[aircraft].role.element:
                    continue
                used = sum(f.count for f in out if f.aircraft == aircraft)
                if used < self.counts.limit(aircraft):
                    out.append(Flight(aircraft=aircraft, count=1, form=FlightForm.ELEMENT))
                    break
        return out

    def _sorties(self, state: CarrierState, game: CarrierGame) -> list[Sortie]:
        side = GAME_SIDE[game.side]
        if game.kind == "recon":
            own = list(self.sheet_of(state).sides[side].recon)
        else:
            own = self._strike(state, game)
        cap = self._cap(state, game.side, game, state.cap_card)
        return [Sortie(side, f) for f in own] + [Sortie(side.other, f, mission=False) for f in cap]

    def _layout(self, state: CarrierState, game: CarrierGame) -> Layout:
        target = (
            ratings_of(self.record(state, game.target))
            if game.kind == "strike" and game.target
            else None
        )
        return lay_out(
            self._sorties(state, game),
            self.catalogue,
            self.book.bombing,
            altitude=STRIKE_ALTITUDE,
            attacker=GAME_SIDE[game.side],
            target=target,
            fixed_altitude=False,
        )

    def mission_ready(self, state: CarrierState) -> bool:
        return state.phase == "flying" and bool(state.queue) and not self.pending(state)

    def next_game(self, state: CarrierState) -> tuple[int, str]:
        """The next game's number and title (a turn's games are numbered on)."""
        return state.game, self._title(state, state.queue[0]) if state.queue else ""

    def _title(self, state: CarrierState, game: CarrierGame) -> str:
        if game.kind == "recon":
            return Term("campaign.zero.title.recon", turn=state.turn, side=side_name(game.side))
        assert game.target is not None
        return Term(
            "campaign.zero.title.strike",
            turn=state.turn,
            side=side_name(game.side),
            source=self.record(state, game.source).name.split(" (")[0],
            target=self.record(state, game.target).name.split(" (")[0],
        )

    def mission_setup(self, state: CarrierState, upcoming: NextMission) -> MissionPlan:
        """The game: an Air Strike of 2 Turns of Arrival and 1 of Return Home
        (§25.62), TURNS Options applied, against a Damage Record with its Damage
        (§25.81) and no awards; or a Reconnaissance Mission of the Option's turns."""
        game = state.queue[0]
        layout = self._layout(state, game)
        attacker = GAME_SIDE[game.side]
        pilots = {d.seat: as_drawn(d).setup() for d in state.drawn if d.kept}
        specs = [(s, self.spec(state, s)) for s in CAMPAIGN_SIDES]
        if game.kind == "recon":
            chosen = self.spec(state, game.side)
            assert chosen is not None
            mission = MissionSetup(
                kind=MissionKind.DOGFIGHT,
                attacker=attacker,
                title=self._title(state, game),
                turns=chosen[1].turns,
                formations=tuple(layout.formations),
                pilots=pilots,
            )
        else:
            assert game.target is not None
            record = self.record(state, game.target)
            rules = self.book.scoresheets.carrier
            change = sum(arrival_change(sp[1], GAME_SIDE[s], attacker) for s, sp in specs if sp)
            mine = self.spec(state, game.side)
            extra = (
                mine[1].extra_damage
                if mine
                and mine[1].kind is OptionKind.LOADED_FLIGHT_DECK
                and record.kind == "carrier_fleet"
                else 0
            )
            clouds = next(
                (clouds_of(sp[1]) for _, sp in specs if sp and sp[1].kind is OptionKind.CLOUDS),
                None,
            )
            mission = MissionSetup(
                kind=MissionKind.STRIKE,
                attacker=attacker,
                title=self._title(state, game),
                target=ratings_of(record),
                target_damage=state.damage[record.id],
                arrival=max(0, rules.strike_arrival + change),
                home=rules.strike_return,
                formations=tuple(layout.formations),
                bombs=dict(layout.bombs),
                pilots=pilots,
                clouds=clouds,
                extra_damage=extra,
            )
        year = int(re.findall(r"19[0-9]{2}", self.sheet_of(state).dates)[-1])
        setup = DifSetup(
            ruleset=Ruleset.ZERO,
            year=year,
            elements=tuple(layout.elements),
            mixed=False,
            mission=mission,
        )
        options, seats = lobby(year, layout, layout.formations)
        return MissionPlan(
            next=upcoming,
            setup=setup,
            options=options,
            seats=seats,
            seat_sides={s.seat: campaign_side(Side(s.side)) for s in seats},
            briefing=tuple(self.briefing(state)),
        )

    def briefing(self, state: CarrierState) -> list[str]:
        game = state.queue[0]
        lines = [self._title(state, game)]
        for side in CAMPAIGN_SIDES:
            orders = state.orders[side]
            chosen = self.spec(state, side)
            lines.append(
                Term(
                    "campaign.zero.briefing.fleet",
                    side=side_name(side),
                    tactics=_tactics_name(orders.tactics),
                    ops=_ops_name(orders.ops),
                    number=state.picks[side],
                    option=chosen[1].name if chosen else "-",
                )
            )
        for side in state.hidden:
            lines.append(Term("campaign.zero.briefing.hidden", side=side_name(side)))
        if state.cap_card is not None:
            lines.append(Term("campaign.zero.briefing.cap_card", card=state.cap_card.value))
        return lines + drawn_lines(state.drawn)

    # --- after a game ----------------------------------------------------------------------
    def absorb(self, state: CarrierState, outcome: Outcome) -> CarrierState:
        """A Reconnaissance Mission: survived when no reconnaissance aircraft was shot
        down or left (§25.63). An Air Strike: its Damaged aircraft's recovery (§25.71),
        then the boxes: the Damage the bombs scored on the target, one on each Carrier
        Fleet's or Midway's record for each of its aircraft destroyed (§25.82)."""
        if not self.mission_ready(state):
            raise RuleViolation(Term("campaign.zero.not_ready", mission=state.game))
        if not outcome.over:
            raise RuleViolation(Term("campaign.zero.not_over", mission=state.game))
        game = state.queue[0]
        side = GAME_SIDE[game.side].value
        down = shot_down_pilots(outcome, state.drawn)
        title = self._title(state, game)
        if game.kind == "recon":
            own = [f for f in outcome.fates if f.side == side]
            alive = bool(own) and all(f.fate in (Fate.UNHARMED, Fate.DAMAGED) for f in own)
            score = GameScore(
                turn=state.turn,
                title=title,
                side=game.side,
                lost=tuple(d.name for d in down),
                survived=alive,
            )
            state = state.model_copy(update={"recon": {**state.recon, game.side: alive}})
        else:
            state, score = self._strike_result(state, game, outcome, title, down)
        score = score.model_copy(update={"flown": flown_pilots(outcome, state.drawn)})
        state = state.model_copy(
            update={
                "scores": (*state.scores, score),
                "lost": (*state.lost, *(d.counter for d in down)),
                "queue": state.queue[1:],
                "cuts": (),
                "extra": {},
                "keep": {},
                "game": state.game + 1,
                "attempt": 1,
                "drawn": (),
            }
        )
        return self._next_game(state)

    def _strike_result(
        self,
        state: CarrierState,
        game: CarrierGame,
        outcome: Outcome,
        title: str,
        down: list[DrawnCounter],
    ) -> tuple[CarrierState, GameScore]:
        assert game.target is not None
        c = self.sheet_of(state)
        side = GAME_SIDE[game.side].value
        draws = self.draws(state)
        cards = recovery_cards(
            c, self.book.scoresheets.carrier.recovery, state.orders, game.source, game.target
        )
        boxes: dict[str, int] = {}
        recovered: list[str] = []
        scored = sum(int(f.record.get("damage_dealt", 0)) for f in outcome.fates if f.side == side)
        if scored:
            boxes[game.target] = scored
        for f in outcome.fates:
            lost = f.fate is Fate.SHOT_DOWN
            if f.side == side and not lost and f.damaged:
                drawn = [draws.card().kind for _ in range(cards)]
                lost = any(k in (CardKind.IMS, CardKind.OOS) for k in drawn)
                recovered.append(f"{f.ref}:{'lost' if lost else 'landed'}")
            if not lost:
                continue
            home = game.source if f.side == side else game.target
            if self.record(state, home).kind in _LOSS_KINDS:
                boxes[home] = boxes.get(home, 0) + 1
        damage = {k: v + boxes.get(k, 0) for k, v in state.damage.items()}
        score = GameScore(
            turn=state.turn,
            title=title,
            side=game.side,
            damage=boxes,
            recovered=tuple(recovered),
            lost=tuple(d.name for d in down),
        )
        return state.model_copy(update={**draws.update(), "damage": damage}), score

    def abort_mission(self, state: CarrierState) -> CarrierState:
        if not self.mission_ready(state):
            raise RuleViolation(Term("campaign.zero.not_ready", mission=state.game))
        return state.model_copy(update={"attempt": state.attempt + 1})

    # --- reading ------------------------------------------------------------------------------
    def totals(self, state: CarrierState) -> dict[str, int]:
        """§25.83: each side scores the VP of the levels the enemy's records reached."""
        out = {s: 0 for s in CAMPAIGN_SIDES}
        for r in self.sheet_of(state).records:
            out[campaign_side(r.owner.other)] += r.level(state.damage[r.id]).vp
        return out

    def logbook(self, state: CarrierState) -> tuple[PilotLog, ...]:
        """The Skilled Pilots of the flown games (§19.24: drawn for each Mission and
        Air Strike), numbered as the campaign numbers its games."""
        return logbook([(n, s.title, s.flown) for n, s in enumerate(state.scores, start=1)])

    def result(self, state: CarrierState) -> CampaignResult | None:
        if not self.is_over(state):
            return None
        return victory_result(self.sheet_of(state).victory, self.totals(state))

    def happenings(self, before: CarrierState, after: CarrierState) -> Happenings:
        lines: list[str] = []
        if after.phase != "orders" and before.phase == "orders":
            lines += [
                Term("campaign.zero.revealed", side=side_name(s), text=t)
                for (turn, s, t) in after.log
                if turn == before.turn and t.startswith("fleet")
            ]
        if before.phase == "options" and after.phase != "options":
            lines += [
                Term("campaign.zero.revealed", side=side_name(s), text=t)
                for (turn, s, t) in after.log
                if turn == before.turn and t.startswith("option")
            ]
        for score in after.scores[len(before.scores) :]:
            for record, boxes in score.damage.items():
                lines.append(
                    Term("campaign.zero.boxes", record=self.record(after, record).name, boxes=boxes)
                )
            lines += [Term("campaign.zero.recovery", result=r) for r in score.recovered]
            if score.survived is not None:
                key = (
                    "campaign.zero.recon_survived"
                    if score.survived
                    else "campaign.zero.recon_failed"
                )
                lines.append(Term(key, side=side_name(score.side)))
            lines += [Term("campaign.zero.pilot_lost", name=n) for n in score.lost]
        if after.turn > before.turn or (after.phase == "over" and before.phase != "over"):
            lines.append(Term("campaign.zero.turn_end", turn=before.turn))
        return Happenings(tuple(lines), sheet=after.turn > before.turn or after.phase == "over")

    def sheet(
        self, state: CarrierState, side: str | None, sides: tuple[SideInfo, ...]
    ) -> CampaignSheet:
        c = self.sheet_of(state)
        rows = [
            MissionRow(n, s.title, MissionState.FLOWN, note=Term("campaign.zero.turn", turn=s.turn))
            for n, s in enumerate(state.scores, start=1)
        ]
        if self.mission_ready(state):
            rows.append(
                MissionRow(state.game, self._title(state, state.queue[0]), MissionState.NEXT)
            )
        records = SheetTable(
            title=Term("campaign.zero.table.records"),
            columns=(
                Term("campaign.zero.table.record"),
                Term("campaign.zero.table.damage"),
                Term("campaign.zero.table.level"),
            ),
            rows=tuple(
                (
                    r.name,
                    str(state.damage[r.id]),
                    f"{r.level(state.damage[r.id]).name} ({r.level(state.damage[r.id]).vp} VP)",
                )
                for r in c.records
            ),
        )
        revealed = SheetTable(
            title=Term("campaign.zero.table.orders"),
            columns=(
                Term("campaign.zero.table.turn"),
                Term("campaign.zero.table.side"),
                Term("campaign.zero.table.choice"),
            ),
            rows=tuple((str(t), side_name(s), text) for t, s, text in state.log),
        )
        return CampaignSheet(
            campaign=c.id,
            title=c.name,
            sides=sides,
            missions=tuple(rows),
            totals=self.totals(state),
            total_label=Term("campaign.zero.vp"),
            next=self._next_lines(state),
            secrets=self._secrets(state, side),
            tables=(records, revealed, pilots_table(state.lost, self.pilots)),
            result=self.result(state),
            options=(Term("campaign.zero.turns_line", turn=state.turn, turns=c.turns),),
        )

    def _next_lines(self, state: CarrierState) -> tuple[str, ...]:
        if self.is_over(state):
            return ()
        if self.mission_ready(state):
            return tuple(self.briefing(state))
        if state.phase == "flying":
            return tuple(
                Term(f"campaign.zero.waiting_{d.kind}", side=side_name(d.side))
                for d in self.pending(state)
            )
        key = "campaign.zero.waiting_fleet" if state.phase == "orders" else "campaign.zero.waiting"
        done = state.orders if state.phase == "orders" else state.picks
        return tuple(
            Term("campaign.zero.chosen" if s in done else key, side=side_name(s))
            for s in CAMPAIGN_SIDES
        )

    def _secrets(self, state: CarrierState, side: str | None) -> tuple[str, ...]:
        if side is None:
            return ()
        if state.phase == "orders" and side in state.orders:
            return (str(state.orders[side]),)
        if state.phase == "options" and side in state.picks:
            chosen = self.spec(state, side)
            assert chosen is not None
            return (self._option_label(chosen[0], chosen[1]),)
        if any(d.side == side and d.kind == "strike_loss" for d in self.pending(state)):
            flights = ", ".join(str(f) for f in self._cut(state, state.queue[0]))
            return (
                Term("campaign.zero.strike_now", flights=flights, left=self._losses_left(state)),
            )
        if state.offer is not None and state.offer.side == side:
            return tuple(keep_label(d) for d in state.offer.counters)
        return ()

    def public_text(self, state: CarrierState, entry: CampaignEntry, action: Any) -> str:
        """Orders are secret until both sides gave theirs (§25.31, §25.41), Options
        until both chose (§25.52), a strike's losses until its game is set up (§25.63)."""
        if isinstance(action, StrikeLoss | PilotKeep):
            hidden = action.game == state.game and not self.mission_ready(state)
            verb = "lose" if isinstance(action, StrikeLoss) else "keep"
            return f"{verb} #{action.game} (secret)" if hidden else entry.text
        if isinstance(action, FleetOrders):
            hidden = action.turn == state.turn and state.phase == "orders"
            return f"fleet #{action.turn} (secret)" if hidden else entry.text
        hidden = action.mission == state.turn and state.phase == "options"
        return f"option #{action.mission} (secret)" if hidden else entry.text

    def _option_label(self, entry: CampaignOption, spec: OptionSpec) -> str:
        return Term("campaign.zero.option_label", number=entry.number, name=spec.name)

    def label(self, state: CarrierState, side: str, action: Any) -> str:
        if isinstance(action, FleetOrders):
            target = self.record(state, action.target).name if action.target else "-"
            return Term(
                "campaign.zero.orders_label",
                tactics=_tactics_name(action.tactics),
                ops=_ops_name(action.ops),
                target=target,
            )
        if isinstance(action, StrikeLoss):
            flight = self._cut(state, state.queue[0])[action.flight - 1]
            return Term("campaign.zero.loss_label", number=action.flight, flight=str(flight))
        if isinstance(action, PilotKeep):
            assert state.offer is not None
            return keep_label(next(d for d in state.offer.counters if d.counter == action.counter))
        entry = next(o for o in self.sheet_of(state).options if o.number == action.number)
        return self._option_label(entry, self.book.options[entry.option])

    def menu(self, state: CarrierState, side: str) -> Choice | None:
        legal = self.legal_actions(state, side)
        if not legal:
            return None
        kind = next(d.kind for d in self.pending(state) if d.side == side)
        key = {"fleet": "fleet", "carrier_option": "option", "strike_loss": "loss"}.get(
            kind, "keep"
        )
        return Choice(
            Term("campaign.zero.menu.turn", turn=state.turn),
            children=tuple(Choice(self.label(state, side, a), action=str(a)) for a in legal),
            placeholder=Term(f"campaign.zero.menu.{key}", mission=state.turn),
        )

    def load_state(self, data: Mapping[str, Any]) -> CarrierState:
        return CarrierState.model_validate(dict(data))
