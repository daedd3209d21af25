"""Legality, one truth: :meth:`Legality.legal` lists exactly the actions ``apply``
accepts, and :meth:`Legality.refusal` says why any other is refused, citing the rule.

An action is first made canonical (:meth:`Legality.canonical`: the Performance symbol
of a one-symbol card filled in, like a chess move's disambiguation), then looked up
among the legal ones; a refusal names the first rule it breaks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import combinations

from engine.eagles import mat
from engine.eagles.actions import ACTIVATIONS, Action
from engine.eagles.components import Card, EngagementType, Symbol
from engine.eagles.flow import other
from engine.eagles.ratings import rating
from engine.eagles.special import SpecialEvents
from engine.eagles.state import GameState, Plane
from strings import Term

__all__ = ["Legality"]


@dataclass(frozen=True, slots=True)
class _Context:
    """One aircraft's situation, for listing its activations."""

    tailers: tuple[Plane, ...]
    free: bool
    """Unengaged (§9.34)."""
    targets: tuple[Plane, ...]
    giveup_targets: tuple[Plane, ...]
    """Whom it may target after giving up its position (§8.25 note)."""
    free_enemies: tuple[Plane, ...]
    forced_dive: bool
    gunner_flies: bool
    jets: tuple[tuple[str, ...], ...]
    plus: tuple[tuple[str, ...], ...]
    may_climb: bool
    gunner: tuple[tuple[str, ...], ...]
    """``((), ("gunner",))`` when the gunner may try to clear his jam (§10.75)."""
    sun: tuple[tuple[str, ...], ...]
    """``((), ("sun",))`` when it may attack out of the sun (Campaign §12.7)."""


HIGH = 3
TREETOP = 0


class Legality(SpecialEvents):
    """What may be done now."""

    # -- the decision in play -----------------------------------------------------------
    def deciding(self, state: GameState) -> tuple[str, str] | None:
        """``(kind, side)`` of the decision in play, or None (a simultaneous discard is
        ``("discard", "")``)."""
        if state.phase == "over":
            return None
        if state.pending is not None:
            return state.pending.kind, state.pending.side
        if state.phase == "discard":
            return "discard", ""
        return "activate", state.to_act

    # -- listing --------------------------------------------------------------------------
    def legal(self, state: GameState, side: str) -> list[Action]:
        d = self.deciding(state)
        if d is None:
            return []
        kind, who = d
        if kind == "discard":
            if state.discard_picks.get(side, 0) is not None:
                return []
            return self._discards(state, side)
        if who != side:
            return []
        if kind == "respond":
            return self._responses(state)
        if kind == "follow":
            return [Action("follow"), Action("stay")]
        if kind in ("consent", "withdraw"):
            return [Action("refuse"), Action("accept")]
        if kind == "place":
            pend = state.pending
            assert pend is not None
            return [Action("place", word=code) for code in pend.chain]
        if kind in ("remove", "trouble"):
            pend = state.pending
            assert pend is not None
            return [Action("remove", word=ref) for ref in pend.chain]
        if kind == "convert":
            pend = state.pending
            assert pend is not None
            drawn = pend.data["results"][int(pend.data["convert"])][2]
            kinds = [drawn, *(k for k in ("wing", "engine", "control", "crew") if k != drawn)]
            return [Action("convert", word=k) for k in kinds]
        return self._activations(state, side)

    def _discards(self, state: GameState, side: str) -> list[Action]:
        """Every set of cards ``side`` may discard (§7.2), in hand order."""
        low, high = self.discard_bounds(state, side)
        hand = sorted(state.hands.get(side, []))
        out: list[Action] = []
        for n in range(low, high + 1):
            for combo in combinations(hand, n):
                out.append(Action("discard", cards=combo))
        return out

    def _responses(self, state: GameState) -> list[Action]:
        pend = state.pending
        assert pend is not None and pend.target and pend.actor
        t = state.plane(pend.target)
        out = [Action("pass"), Action("pass", flags=("hold",))]
        act = Action.from_text(pend.action)
        if act.verb == "escape":
            out.append(Action("allow"))
        if pend.data.get("headon") or pend.data.get("barred"):
            return out
        for card in self._hand(state, t.side):
            for symbol, as_card in self._response_uses(t, card, pend.symbol or ""):
                for plus in self._plus(t):
                    for hold in ((), ("hold",)):
                        flags = tuple(f for f in (*hold, *plus) if f)
                        out.append(
                            Action(
                                "respond",
                                card=card.number,
                                symbol=symbol,
                                as_card=as_card,
                                flags=flags,
                            )
                        )
        return out

    def target_has_choice(self, state: GameState) -> bool:
        if any(a.verb != "pass" for a in self._responses(state)):
            return True
        return self.target_may_fire(state)

    def target_may_fire(self, state: GameState) -> bool:
        """Whether the target could fire if it plays no Response (§10.13): then holding
        fire is a choice to ask it."""
        pend = state.pending
        assert pend is not None and pend.actor and pend.target
        a, t = state.plane(pend.actor), state.plane(pend.target)
        before = int(pend.data["before"])
        new = before + pend.total - max(rating(self.ac(t), t, pend.symbol or "speed"), 0)
        if t.climb or a.climb:
            new = max(new, 0)  # §11.48, §11.57: a climbing aircraft does not end up tailing
        if new < 0 and (pend.data["both_free"] or before > 0):
            return bool(self.gun_count(t, self.forward_group(t)))
        if new > 0 and not pend.data.get("no_gunner"):
            return bool(self.gun_count(t, "rear"))
        return False

    def _response_uses(self, t: Plane, card: Card, symbol: str) -> Iterator[tuple[str, str | None]]:
        """How ``card`` may answer a ``symbol`` maneuver (§8.43): with the same symbol,
        a Snap Turn to a Speed, a Barrel Roll to an Agility; Voss's any card as a Snap
        Turn, Udet's as a Medal Maneuver (§18.0)."""
        if not self._may_play(t, card):
            return
        if Symbol(symbol) in card.symbols:
            yield symbol, None
        elif card.special == "snap_turn" and symbol == "speed":
            yield "agility", None
        elif card.special == "barrel_roll" and symbol == "agility":
            yield "speed", None
        if (
            t.has("snap_turn_any")
            and "snap_turn_any" not in t.used
            and symbol in ("agility", "speed")
            and card.special != "snap_turn"
        ):
            yield "agility", "snap"
        if t.has("medal_any") and "medal_any" not in t.used and card.special != "medal":
            medal = self._medal_symbols()
            if symbol in medal and t.quality != "green":
                yield symbol, "medal"

    def _medal_symbols(self) -> frozenset[str]:
        for card in self.cards.values():
            if card.special == "medal":
                return frozenset(s.value for s in card.symbols)
        return frozenset({"dive", "speed"})

    def _may_play(self, p: Plane, card: Card) -> bool:
        """A Green pilot never plays a Medal Maneuver (§14.23)."""
        return not (card.special == "medal" and p.quality == "green")

    def _plus(self, p: Plane) -> list[tuple[str, ...]]:
        """Rickenbacker's once-a-turn +1 (§18.0), taken or not."""
        if p.has("mr_plus_1") and "mr_plus_1" not in p.used:
            return [(), ("+1",)]
        return [()]

    def _hand(self, state: GameState, side: str) -> list[Card]:
        return [self.cards[n] for n in sorted(set(state.hands.get(side, [])))]

    # -- activations ----------------------------------------------------------------------
    def _activations(self, state: GameState, side: str) -> list[Action]:
        out: list[Action] = [Action("pass")]
        if not self.can_act(state, other(side)):
            out.append(Action("end"))
        elif side not in state.offered and not self.automatic(state, other(side)):
            out.append(Action("offer"))  # §4.4: to end the phase by mutual consent
        hand = self._hand(state, side)
        for p in state.planes:
            if p.side != side or not self.may_activate(state, p):
                continue
            if p.balloon:
                out.append(Action("lower", plane=p.ref))
                continue
            ctx = self._context(state, p)
            for card in hand:
                out.extend(self._plane_moves(state, p, card, ctx))
        return out

    def _activation_ok(self, state: GameState, side: str, a: Action) -> bool:
        """Whether ``a`` is among the legal activations, listing only those of its
        aircraft and card (the same truth as :meth:`_activations`, quicker)."""
        if a.verb in ("pass", "end") or a.plane is None:
            return a in self._activations(state, side)
        p = state.find(a.plane)
        if p is None or p.side != side or not self.may_activate(state, p):
            return False
        if p.balloon:
            return a == Action("lower", plane=p.ref)
        card = self.cards.get(a.card or 0)
        if card is None or card.number not in state.hands.get(side, []):
            return False
        return a in self._plane_moves(state, p, card, self._context(state, p))

    def _symbols(self, p: Plane, card: Card) -> list[tuple[str, str | None]]:
        """``(symbol, as_card)`` a card may be played with by ``p``."""
        out: list[tuple[str, str | None]] = [(s.value, None) for s in card.symbols]
        if p.has("snap_turn_any") and "snap_turn_any" not in p.used and card.special != "snap_turn":
            out.append(("agility", "snap"))
        if p.has("medal_any") and "medal_any" not in p.used and card.special != "medal":
            out.extend((s, "medal") for s in sorted(self._medal_symbols()))
        return out

    def _context(self, s: GameState, p: Plane) -> _Context:
        """What ``p``'s possible activations depend on but its cards do not."""
        ac = self.ac(p)
        tailers = mat.tailers(s, p.ref)
        free = p.tailing is None and not tailers
        enemies = self._enemies(s, p)
        return _Context(
            tailers=tuple(tailers),
            free=free,
            targets=tuple(self.tail_targets(s, p)),
            giveup_targets=tuple(self.tail_targets(s, p, giveup=True)) if p.tailing else (),
            free_enemies=tuple(t for t in enemies if mat.unengaged(s, t)) if free else (),
            forced_dive=p.altitude == HIGH
            and min(rating(ac, p, r) for r in ("climb", "speed", "agility")) < 0,
            gunner_flies=self.flown_by_gunner(p),
            jets=((), ("jettison",)) if p.bombs else ((),),
            plus=tuple(self._plus(p)),
            may_climb=p.altitude < HIGH and self._may_climb(p),
            gunner=((), ("gunner",))
            if p.guns.get("rear") == "jammed" and p.crew.get("gunner") != "killed"
            else ((),),
            sun=((), ("sun",)) if free and s.sun == p.side else ((),),
        )

    def _plane_moves(self, s: GameState, p: Plane, card: Card, ctx: _Context) -> list[Action]:
        """Every activation of ``p`` with ``card``."""
        out: list[Action] = []
        if not self._may_play(p, card):
            return out
        ref, number = p.ref, card.number
        leaf = card.special == "falling_leaf"
        if p.on_ground:
            if any(sym in card.symbols for sym in (Symbol.CLIMB, Symbol.SPEED, Symbol.AGILITY)):
                out.append(Action("takeoff", plane=ref, card=number))
            return out
        if ctx.forced_dive:
            # §11.24: it must dive to Medium, with any card (a one-symbol Dive card's
            # move in the canonical form apply takes: ``dive A6 42D``).
            if not leaf:
                out.append(self.canonical(s, Action("dive", plane=ref, card=number)))
            return out
        # §11.56: an aircraft following a climb plays only Climb cards unless it
        # gives up its position first.
        climbing = p.climb > 0 and p.tailing is not None
        tailers = ctx.tailers
        holds = ((), ("hold",))
        for symbol, as_card in self._symbols(p, card):
            only_climb = climbing and symbol != "climb"

            def mk(verb: str, target: str | None = None, flags: tuple[str, ...] = ()) -> Action:
                return Action(verb, ref, number, symbol, as_card, target, 0, flags)  # noqa: B023

            # Targeted Activations for position (§8.2).
            if not leaf:
                for giveup, targets in ((False, ctx.targets), (True, ctx.giveup_targets)):
                    if only_climb and not giveup:
                        continue
                    gu = ("giveup",) if giveup else ()
                    for t in targets:
                        if t.climb and symbol != "climb" and mat.unengaged(s, t):
                            continue  # §11.48
                        for extra in ctx.jets:
                            for pl in ctx.plus:
                                for hold in holds:
                                    for gun in ctx.gunner:
                                        for sun in ctx.sun:
                                            flags = (*hold, *gu, *extra, *pl, *gun, *sun)
                                            out.append(mk("tail", t.ref, flags))
            if only_climb:
                continue
            # Head-on (§10.4).
            if symbol == "speed" and not ctx.gunner_flies:
                for t in ctx.free_enemies:
                    for extra in ctx.jets:
                        for pl in ctx.plus:
                            for hold in holds:
                                out.append(mk("headon", t.ref, (*hold, *extra, *pl)))
            # Falling Leaf (§8.3), and as an Escape (§8.36).
            if (
                leaf
                and tailers
                and p.quality not in ("green", "inexperienced")
                and not ctx.gunner_flies
            ):
                sym = symbol if len(card.symbols) > 1 or as_card else None
                for t in tailers:
                    for verb in ("leaf", "escape"):
                        out.append(Action(verb, ref, number, sym, as_card, t.ref))
            # Escape (§12).
            if symbol in ("dive", "climb", "speed") and not leaf:
                if len(tailers) == 1:
                    change = (symbol == "dive" and p.altitude > TREETOP) or (
                        symbol == "climb" and ctx.may_climb
                    )
                    for pl in ctx.plus:
                        out.append(mk("escape", tailers[0].ref, pl))
                        if change:  # §12.14
                            out.append(mk("escape", tailers[0].ref, (*pl, "change")))
                elif not tailers:
                    out.append(mk("escape"))
            if leaf:
                continue
            # Ground targets and balloons (§15).
            if ctx.free and not ctx.gunner_flies:
                base = mk("idle")
                out.extend(self._ground(s, p, card, symbol, base, list(ctx.jets)))
            # Untargeted Activations (§8.5); a tailing aircraft gives up first (§8.53).
            if symbol == "dive" and p.altitude > TREETOP:
                out.append(mk("dive"))
            if symbol == "climb" and ctx.may_climb:
                out.append(mk("climb"))
        if leaf:
            return out
        if any(v == "jammed" for v in p.guns.values()):
            out.append(Action("clear", plane=ref, card=number))
        if p.lewis == "out":
            out.append(Action("reload", plane=ref, card=number))
        if ctx.free or (p.tailing is not None and not tailers):
            out.append(Action("idle", plane=ref, card=number))
        return out

    def _may_climb(self, p: Plane) -> bool:
        """Not to High if a rating there would fall below 0 (§11.24)."""
        if p.altitude + 1 < HIGH:
            return True
        ac = self.ac(p)
        return min(rating(ac, p, r, altitude=HIGH) for r in ("climb", "speed", "agility")) >= 0

    def _enemies(self, s: GameState, p: Plane) -> list[Plane]:
        return [
            q
            for q in s.planes
            if q.flying
            and q.side != p.side
            and not q.balloon
            and not q.on_ground
            and q.altitude == p.altitude
        ]

    def tail_targets(self, s: GameState, p: Plane, *, giveup: bool = False) -> list[Plane]:
        """Whom ``p`` may target for position (§8.23-8.26, §9.41-9.44, §11.14)."""
        tailers = mat.tailers(s, p.ref)
        tailing = None if giveup else p.tailing
        if tailers and tailing is None:
            return tailers  # §8.24
        if tailing is not None:
            t = s.plane(tailing)
            return [t, *tailers]  # §8.25, §8.26
        out: list[Plane] = []
        for t in self._enemies(s, p):
            if giveup and t.ref == p.tailing:
                continue
            if mat.unengaged(s, t):
                out.append(t)
                continue
            fight = mat.dogfight(s, t)
            mine = sum(1 for q in fight if q.side == p.side and q.ref != p.ref)
            theirs = [q for q in fight if q.side != p.side]
            if mine >= 2 or len(fight) >= 4:
                continue  # §9.13, §9.41
            if len(theirs) >= 2 and mat.tailers(s, t.ref):
                continue  # §9.44
            out.append(t)
        return out

    def _ground(
        self,
        s: GameState,
        p: Plane,
        card: Card,
        symbol: str,
        base: Action,
        jets: list[tuple[str, ...]],
    ) -> Iterator[Action]:
        kind = self.etype(s)
        attacker = self.attacker(s)
        guns = self.gun_count(p, self.forward_group(p)) > 0
        if symbol in ("speed", "dive"):
            for b in s.planes:
                if b.balloon and b.flying and b.side != p.side and b.altitude == p.altitude:
                    for fv in range(1, 7):
                        for extra in jets:
                            if guns:
                                yield replace(
                                    base, verb="balloon", target=b.ref, fv=fv, flags=extra
                                )
                            if p.rockets:
                                yield replace(
                                    base,
                                    verb="balloon",
                                    target=b.ref,
                                    fv=fv,
                                    flags=_order(("rockets", *extra)),
                                )
        if p.altitude != TREETOP or p.side != attacker:
            return
        if (
            guns
            and symbol in ("speed", "dive")
            and kind in (EngagementType.TRENCH_STRAFING, EngagementType.AIRFIELD_ATTACK)
        ):
            yield replace(base, verb="strafe", target="ground")
            if kind is EngagementType.AIRFIELD_ATTACK:
                for q in s.planes:
                    if q.flying and q.on_ground and q.side != p.side:
                        yield replace(base, verb="strafe", target=q.ref)
        if kind is EngagementType.TRENCH_STRAFING and p.bombs and symbol == card.symbols[0].value:
            yield Action("bomb", plane=p.ref, card=card.number, target="ground")

    # -- canonical form and refusals -------------------------------------------------------
    def canonical(self, state: GameState, action: Action) -> Action:
        """The Performance symbol of a one-symbol card filled in (``37`` -> ``37D``)."""
        if action.card is None or action.symbol is not None or action.as_card:
            return action
        card = self.cards.get(action.card)
        if card is None or len(card.symbols) != 1:
            return action
        if action.verb in ("clear", "reload", "idle", "takeoff", "bomb", "leaf"):
            return action
        if action.verb == "respond":
            pend = state.pending
            sym = pend.symbol if pend else None
            if card.special == "snap_turn" and sym == "speed":
                return replace(action, symbol="agility")
            if card.special == "barrel_roll" and sym == "agility":
                return replace(action, symbol="speed")
        if action.verb == "dive" and card.symbols[0] is not Symbol.DIVE:
            return action
        if action.verb == "escape" and card.special == "falling_leaf":
            return action
        return replace(action, symbol=card.symbols[0].value)

    def refusal(self, state: GameState, side: str, action: Action) -> Term | None:
        """Why ``side`` may not take ``action`` now, or None."""
        d = self.deciding(state)
        if d is None:
            return Term("eagles.refuse.over")
        kind, who = d
        if kind == "discard":
            if action.verb != "discard":
                return Term("eagles.refuse.discard_now")
            if state.discard_picks.get(side, 0) is not None:
                return Term("eagles.refuse.discarded")
            low, high = self.discard_bounds(state, side)
            hand = state.hands.get(side, [])
            if any(c not in hand for c in action.cards) or len(set(action.cards)) != len(
                action.cards
            ):
                return Term("eagles.refuse.not_in_hand")
            if not low <= len(action.cards) <= high:
                return Term("eagles.refuse.discard_count", low=low, high=high)
            return None
        if who != side:
            return Term("eagles.refuse.not_your_turn")
        ok = (
            self._activation_ok(state, side, action)
            if kind == "activate"
            else action in self.legal(state, side)
        )
        if ok:
            return None
        return self._why(state, side, kind, action)

    def _why(self, s: GameState, side: str, kind: str, a: Action) -> Term:
        """The first rule an illegal action breaks, in words."""
        expected = {
            "respond": ("respond", "pass", "allow"),
            "follow": ("follow", "stay"),
            "place": ("place",),
            "remove": ("remove",),
            "convert": ("convert",),
            "consent": ("accept", "refuse"),
            "withdraw": ("accept", "refuse"),
            "trouble": ("remove",),
            "activate": (*ACTIVATIONS, "pass", "end", "offer"),
        }[kind]
        if a.verb not in expected:
            return Term(f"eagles.refuse.expect_{kind}")
        if a.card is not None and a.card not in self.cards:
            return Term("eagles.refuse.no_such_card", card=a.card)
        if a.card is not None and a.card not in s.hands.get(side, []):
            return Term("eagles.refuse.not_in_hand")
        if kind == "respond":
            return Term("eagles.refuse.response")  # §8.43
        if a.verb == "end":
            return Term("eagles.refuse.end")  # §4.4
        if a.plane is not None:
            p = s.find(a.plane)
            if p is None or p.side != side:
                return Term("eagles.refuse.not_yours", plane=a.plane)
            if not p.flying:
                return Term("eagles.refuse.not_flying", plane=a.plane)
            if p.activated:
                return Term("eagles.refuse.activated", plane=a.plane)  # §8.12
            t = s.find(a.target) if a.target and a.target != "ground" else None
            if a.target and a.target != "ground" and t is None:
                return Term("eagles.refuse.no_target", target=a.target)
            if a.verb == "tail" and t is not None:
                if t.altitude != p.altitude:
                    return Term("eagles.refuse.altitude")  # §11.14
                if t not in self.tail_targets(s, p, giveup=a.has("giveup")):
                    return Term("eagles.refuse.target")  # §8.23-8.26, §9.4
            card = self.cards.get(a.card or 0)
            if (
                card is not None
                and a.symbol
                and Symbol(a.symbol) not in card.symbols
                and not a.as_card
            ):
                return Term("eagles.refuse.symbol", card=card.number)
        return Term(
            f"eagles.refuse.illegal_{a.verb}" if a.verb in _EXPLAINED else "eagles.refuse.illegal"
        )


_EXPLAINED = frozenset(
    {
        "headon",
        "leaf",
        "escape",
        "strafe",
        "bomb",
        "balloon",
        "dive",
        "climb",
        "clear",
        "reload",
        "idle",
        "takeoff",
    }
)


def _order(flags: tuple[str, ...]) -> tuple[str, ...]:
    order = ("hold", "giveup", "jettison", "+1", "rockets", "change", "gunner", "sun")
    return tuple(f for f in order if f in flags)
