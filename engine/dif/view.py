"""What one seat (or a spectator) may see of a Down in Flames game.

:func:`engine.dif.game.view` builds these frozen models from the state. They are the
only way information leaves the engine: the bot's messages and the renderer read
views, never the state. A spectator's view (``viewer is None``) holds no hand, no
mini-hand, no deck order and no unrevealed secret choice; a seat's view adds that
seat's own hand and mini-hands only.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, InstanceOf

from engine.dif.components import Altitude, Position, Ruleset, Side

__all__ = [
    "DifView",
    "ElementView",
    "EngagementView",
    "ExchangeView",
    "MissionView",
    "PendingView",
    "PlaneStatus",
    "PlaneView",
    "ResultView",
    "Text",
]

Text = InstanceOf[str]
"""A display text: a :class:`strings.Term` (kept as it is, so the bot can show it in
the reader's language with :func:`strings.tr`) or a plain ``str``. A plain ``str``
field would turn a Term into its English text."""


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)


class PlaneStatus(StrEnum):
    FLYING = "flying"
    DESTROYED = "destroyed"
    EVADED = "evaded"
    """Left the fight by voluntary disengagement / evasion (Zero! 12.0)."""


class PlaneView(_View):
    """One aircraft: a leader or a wingman."""

    ref: str
    """``A1L`` / ``A1W``: element seat plus L (leader) or W (wingman)."""
    role: str
    """``leader`` or ``wingman``."""
    aircraft: str
    """Aircraft name as printed, e.g. ``Ki-43``."""
    hits: int
    damaged: bool
    """Showing its damaged side (not merely holding some hits, Zero! 5.21)."""
    capacity: int
    """Damage capacity of the side it shows now."""
    status: PlaneStatus
    promoted: bool = False
    pilot: tuple[str, ...] = ()
    """Pilot skill letters still usable (RotL "Pilots"): public, the counter is on the card."""
    """A wingman that became the leader after its leader was shot down (11.2)."""


class ElementView(_View):
    """A leader and its wingman, played by one seat."""

    seat: str
    side: Side
    label: str
    """``Buffalo I (A1)``: how narration names the element."""
    altitude: Altitude | None
    """None while the secret starting altitude is still hidden."""
    altitude_chosen: bool
    leader: PlaneView | None
    wingman: PlaneView | None
    lost: tuple[PlaneView, ...] = ()
    """Leaders shot down and replaced by their wingman (11.2)."""
    hand_count: int
    in_fight: bool
    agile: bool
    counters: int = 0
    """Full Throttle counters held (jets, Bf-109G methanol): public, on the table."""
    abilities: tuple[Text, ...] = ()
    """Printed abilities worth showing: ``gunner 1``, ``heavy cannon +2``, ``small target``,
    ``turbocharged``, ``jet``, ``rocket``, ``methanol``, ``Ta-152 Very High``."""
    ceiling: Altitude | None = None
    """The highest altitude its aircraft may fly at, printed on its card (Zero! 16.22
    L1024); None: no limit."""
    hand: tuple[str, ...] | None = None
    """Card codes of the hand, only in the owner's view."""
    minihand: tuple[str, ...] | None = None
    """The wingman's current mini-hand, only in the owner's view."""
    pick: Altitude | None = None
    """The owner's own secret altitude pick before the reveal."""


class EngagementView(_View):
    """Two engaged leaders; ``leader`` holds the better position on ``on``."""

    leader: str
    on: str
    position: Position
    """``ADVANTAGED`` or ``TAILING``: the position of ``leader`` relative to ``on``."""


class ExchangeView(_View):
    """The attack being resolved: the attack card and the responses so far."""

    attacker: str
    target: str
    cards: tuple[Text, ...]
    """Labels of the cards played in this exchange, attack first."""
    waiting_on: str
    """The seat that may respond now."""


class PendingView(_View):
    seat: str
    kind: str
    prompt: Text


class ResultView(_View):
    vp: dict[Side, int]
    winner: Side | None
    verdict: Text
    """E.g. ``Allies Marginal Victory`` (RotL table) or ``Japanese victory`` (Zero! 4.92)."""


class BomberView(_View):
    """One bomber of a formation (§17.22)."""

    ref: str
    """``X3B1``: the formation's seat and the bomber's number."""
    aircraft: str
    """The aircraft's name."""
    hits: int
    damaged: bool
    status: str
    """``flying`` or ``destroyed``."""
    group: str
    """The formation it flies in now: its seat, or its own ref once Damaged (17.28)."""


class FormationView(_View):
    """A formation of bombers: no player-turn, it bombs at the end of the Bomb Turn."""

    seat: str
    side: Side
    altitude: Altitude
    mode: str | None
    """Its Bombing Mode (saturation, level, torpedo); None: it carries no bombs."""
    bombers: tuple[BomberView, ...]
    defence: int | None = None
    """Cards in the attacked bomber's defensive mini-hand (20.41); None without one."""
    defence_cards: tuple[str, ...] | None = None
    """Those cards: only in the formation seat's own view."""


class MissionView(_View):
    """A Zero! campaign mission's public state (engine/dif/bombing.py)."""

    phase: Text
    """The mission phase of this game turn (Arrival, Ingress, Bomb, Egress, Return Home)."""
    attacker: Side
    target: str | None
    """The target's name; None for a dogfight-kind mission."""
    target_damage: int
    target_level: str | None
    away: tuple[str, ...]
    """Elements that Abandoned the target (23.51)."""
    loaded: tuple[str, ...]
    """Aircraft still carrying bombs (18.21), by the ref they started with."""
    clouds: bool | None = None
    """Clouds Over the Target (L1881): True once a blue-bordered card was drawn, False
    when none was; None before the draw or without the option."""
    formations: tuple[FormationView, ...] = ()
    """The formations of bombers (17.22), in the setup's order."""
    track: tuple[str, ...] = ()
    """The turn track: the phase of each game turn, turn 1 first (§23.1, §23.2):
    ``arrival`` for each Turn of Arrival, ``ingress``, ``bomb`` and ``egress`` Over the
    Target, ``home`` for each Turn of Return Home; ``dogfight`` for each turn of a
    dogfight-kind mission. The current turn is :attr:`DifView.turn`; the Turns of
    Return Home are counted again at the Egress (§23.7), and the track with them."""

    @property
    def phases(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The track by phase, in order: each phase with its game turns."""
        out: list[tuple[str, tuple[int, ...]]] = []
        for turn, phase in enumerate(self.track, start=1):
            if out and out[-1][0] == phase:
                out[-1] = (phase, (*out[-1][1], turn))
            else:
                out.append((phase, (turn,)))
        return tuple(out)


class DifView(_View):
    ruleset: Ruleset
    viewer: str | None
    """The seat this view is for; None for spectators."""
    turn: int
    max_turns: int | None
    """6, or None when fighting "to the death" (Zero! 4.8)."""
    step: Text
    """Human-readable step, e.g. ``Play cards``."""
    active: str | None
    """Seat whose player-turn it is."""
    order: tuple[str, ...]
    elements: tuple[ElementView, ...]
    engagements: tuple[EngagementView, ...]
    exchange: ExchangeView | None
    pending: tuple[PendingView, ...]
    deck_count: int
    discard_count: int
    vp: dict[Side, int]
    result: ResultView | None
    bursts_left: int | None = None
    """Bursts the active leader may still fire at its target this turn."""
    mission: MissionView | None = None
    """A campaign mission's phase, target and bombs; None in a dogfight."""
