"""Combat (§10): fire values, the draw, gun jams, and every damage result.

Every attack of one activation is declared, then drawn, then applied (§10.14, §10.44,
§10.54): :meth:`Combat.resolve` takes the list. Damage is applied by
:meth:`Combat.hit`, which also serves the checks that are "as if fired upon"
(Unreliable Engine §13.5, Weak Wings §13.6), flak (§5.1), collisions (§9.47),
ground fire (§15.14) and balloon anti-aircraft guns (§15.29).
"""

from __future__ import annotations

from engine.eagles import mat
from engine.eagles.base import Base, Run
from engine.eagles.components import Card, Characteristic, DamageKind, DefenceClass, Weather
from engine.eagles.ratings import defence, rating
from engine.eagles.state import ESCAPED, SHOT_DOWN, Fire, GameState, Pending, Plane

__all__ = ["GUNNER_FV", "Combat"]

CONVERTIBLE = frozenset({DamageKind.WING, DamageKind.ENGINE, DamageKind.CONTROL, DamageKind.CREW})
"""The hits Fonck may turn into one another (§18.0)."""

GUNNER_FV = {1: 2, 2: 2, 3: 4, 4: 4, 5: 2, 6: 2}
"""The Rear Gunner's Fire Value by the tailing aircraft's Position Level (§10.53)."""

_HITS_TO_DESTROY = {"wing": 2, "control": 2, "engine": 2}


def clamp_fv(fv: int) -> int:
    """A Fire Value is never below 1 nor above 6 (§10.23)."""
    return max(1, min(6, fv))


def half_up(n: int) -> int:
    return (n + 1) // 2


class Combat(Base):
    """Fire and damage."""

    # -- who can fire what ------------------------------------------------------------
    def crewmen(self, p: Plane) -> list[str]:
        """The crew positions of ``p``: the pilot, a rear gunner, a front gunner."""
        ac = self.ac(p)
        out = ["pilot"]
        if ac.guns_rear or ac.crew >= 2:
            out.append("gunner")
        if Characteristic.FRONT_GUNNER in ac.characteristics:
            out.append("front")
        return out

    def flown_by_gunner(self, p: Plane) -> bool:
        """The pilot is dead and the gunner flies (§13.2): no attacks at all."""
        return p.crew.get("pilot") == "killed"

    def gun_count(self, p: Plane, group: str) -> int:
        """How many guns of ``group`` can fire now: the column of the damage table. A
        Lewis gun with ammunition adds one to the forward guns (§15.41)."""
        ac = self.ac(p)
        if p.guns.get(group, "ok") != "ok" or self.flown_by_gunner(p):
            return 0
        if group == "rear":
            if p.crew.get("gunner") == "killed":
                return 0
            return min(ac.guns_rear, 2)
        if group == "front":
            return 0 if p.crew.get("front") == "killed" else min(max(ac.guns_forward, 1), 2)
        n = ac.guns_forward
        if p.lewis in ("full", "low"):
            n += 1
        return min(n, 2)

    def forward_group(self, p: Plane) -> str:
        """The guns a Tailing or Head-on attack fires: the Front Gunner's where there
        is one (§13.31)."""
        return "front" if Characteristic.FRONT_GUNNER in self.ac(p).characteristics else "fixed"

    def tailing_fire(self, p: Plane, target: Plane) -> Fire | None:
        """``p``'s Tailing Attack on ``target`` (§10.31), if its guns can fire."""
        group = self.forward_group(p)
        guns = self.gun_count(p, group)
        if not guns:
            return None
        fv = p.level
        if group == "front":
            fv = half_up(fv)  # §13.32
        elif p.has("tailing_fire_plus_2"):
            fv += 2  # §18.0: the greater increase replaces the +1 (G-E5)
        elif p.quality == "ace" or p.has("campaign_ace"):
            fv += 1  # §14.62; Campaign §9.31: an Ace without a Flight Leader counter
        return Fire(p.ref, target.ref, clamp_fv(fv), guns, group, "tailing")

    def headon_fire(self, p: Plane, target: Plane) -> Fire | None:
        """A Head-on Attack's fire (§10.43): Fire Value 4, a Front Gunner's 2 (§13.32)."""
        group = self.forward_group(p)
        guns = self.gun_count(p, group)
        if not guns:
            return None
        fv = 2 if group == "front" else 4
        return Fire(p.ref, target.ref, fv, guns, group, "headon")

    def gunner_fire(self, p: Plane, tailer: Plane) -> Fire | None:
        """A Rear Gunner Attack on the aircraft tailing ``p`` (§10.51-10.53); a wounded
        gunner fires at -1 (§10.87), an Exhausted one too (Campaign §8.32)."""
        guns = self.gun_count(p, "rear")
        if not guns or tailer.tailing != p.ref:
            return None
        fv = GUNNER_FV[tailer.level] - self.gunner_penalty(p, "gunner")
        return Fire(p.ref, tailer.ref, clamp_fv(fv), guns, "rear", "gunner")

    @staticmethod
    def gunner_penalty(p: Plane, who: str) -> int:
        """What a gunner (``gunner``, ``front``) loses on a Gunner Attack: 1 wounded
        (§10.87), 1 more Exhausted with his pilot (Campaign §8.32)."""
        return (p.crew.get(who) == "wounded") + p.exhausted

    def formation_fire(self, state: GameState, gunner: Plane, target: Plane) -> list[Fire]:
        """The rest of ``gunner``'s formation joins its Gunner Attack (§10.61-10.64):
        every other Unengaged 2-Seater of the side at its altitude, with its rear and
        front gunners, at Fire Value 2."""
        s_fire: list[Fire] = []
        for q in state.planes:
            if (
                q.ref == gunner.ref
                or not q.flying
                or q.side != gunner.side
                or q.kind != "two_seater"
                or q.altitude != gunner.altitude
                or mat.engaged(state, q)
                or self.flown_by_gunner(q)
            ):
                continue
            for group in ("rear", "front"):
                guns = self.gun_count(q, group)
                if guns:
                    who = "gunner" if group == "rear" else "front"
                    fv = clamp_fv(2 - self.gunner_penalty(q, who))
                    s_fire.append(Fire(q.ref, target.ref, fv, guns, group, "formation"))
        return s_fire

    # -- resolving fire ---------------------------------------------------------------
    def fire_card(self, run: Run, shooter: Plane) -> Card:
        """The card a shot draws; Fonck and McCudden draw again on a Gun Jam (§18.0)."""
        card = self.draw(run)
        if card.jammed and shooter.has("gun_jam_redraw"):
            run.say("gun_jam_redraw", plane=self.name(shooter))
            card = self.draw(run)
        return card

    def attack_card(self, run: Run, shooter: Plane, *, guns: bool = True) -> tuple[Card, bool]:
        """The card an attack draws (:meth:`fire_card`; rockets: a plain draw), and
        whether it hits whatever its Fire Value: after a Lucky Shot the turn's first
        attack does, drawing past Guns Jammed to a card with a damage table (Campaign
        §12.6)."""
        s = run.state
        if not s.lucky_shot:
            return (self.fire_card(run, shooter) if guns else self.draw(run)), False
        s.lucky_shot = False
        card = self.draw(run)
        while card.jammed:
            card = self.draw(run)
        run.say("lucky_shot", plane=self.name(shooter), card=card.number)
        return card, True

    def resolve(self, run: Run, shots: list[Fire], then: str = "") -> bool:
        """Draw for every declared shot, then apply the damage (simultaneous fire,
        §10.14, §10.44, §10.54). True when it stopped for Fonck's choice of hit
        (:meth:`apply_results` goes on with ``then``, what the activation still does)."""
        s = run.state
        results: list[tuple[Fire, DamageKind]] = []
        for shot in shots:
            shooter, target = s.plane(shot.shooter), s.plane(shot.target)
            if not shooter.flying or not target.flying:
                continue
            card, lucky = self.attack_card(run, shooter)
            self._use_lewis(shooter, shot, jammed=card.jammed)
            if card.jammed:
                self._jam(shooter, shot.group)
                run.say("fire_jammed", kind="jam", plane=self.name(shooter), card=card.number)
                continue
            if card.fire is None or (card.fire > shot.fv and not lucky):
                run.say(
                    "fire_miss",
                    plane=self.name(shooter),
                    target=self.name(target),
                    fv=shot.fv,
                    card=card.number,
                    value=card.fire,
                )
                continue
            cls = defence(self.ac(target), target) if not target.balloon else DefenceClass.FRAGILE
            kind = card.damage_for(shot.guns, cls or DefenceClass.FRAGILE)
            run.say(
                "fire_hit",
                kind="fire",
                plane=self.name(shooter),
                target=self.name(target),
                fv=shot.fv,
                card=card.number,
                value=card.fire,
                result=kind.value,
            )
            results.append((shot, kind))
        rows = [[shot.shooter, shot.target, kind.value] for shot, kind in results]
        for i, (shot, kind) in enumerate(results):
            shooter = s.plane(shot.shooter)
            if shot.kind == "tailing" and kind in CONVERTIBLE and shooter.has("convert_hit"):
                # §18.0 Fonck: he may turn that hit into another of the four.
                s.pending = Pending(
                    "convert",
                    shooter.side,
                    actor=shooter.ref,
                    target=shot.target,
                    data={"results": rows, "convert": i, "then": then},
                )
                run.say("convert_choice", plane=self.name(shooter), result=kind.value)
                return True
        self.apply_results(run, rows)
        return False

    def apply_results(self, run: Run, rows: list[list[str]]) -> None:
        """Apply the damage of ``[shooter, target, kind]`` rows, in order."""
        s = run.state
        for shooter_ref, target_ref, kind in rows:
            target = s.plane(target_ref)
            if target.flying:
                self.hit(run, target, DamageKind(kind), by=s.plane(shooter_ref))

    def _use_lewis(self, p: Plane, shot: Fire, *, jammed: bool) -> None:
        if shot.group != "fixed" or p.lewis not in ("full", "low") or jammed:
            return  # §15.45: a jam uses no Lewis ammunition
        p.lewis = "low" if p.lewis == "full" else "out"  # §15.42-15.43

    def _jam(self, p: Plane, group: str) -> None:
        """A Guns Jammed card (§10.71): the group jams (a Lewis gun with it, §15.45)."""
        if p.guns.get(group, "ok") == "ok":
            p.guns[group] = "jammed"

    # -- damage -----------------------------------------------------------------------
    def hit(
        self, run: Run, p: Plane, kind: DamageKind, *, by: Plane | None, cause: str = ""
    ) -> None:
        """Apply one damage result to ``p`` (§10.8). ``by``: the aircraft that caused it
        (credited with a shoot-down); ``cause``: flak, collision, ground fire..."""
        if kind is DamageKind.SUPERFICIAL:
            return
        if by is not None and by.side != p.side:
            p.damaged_by = by.ref  # Campaign §9.32: the last pilot who damaged it
        if p.balloon:
            self._hit_balloon(run, p, kind, by=by)
            return
        if kind is DamageKind.CREW and by is not None and by.has("crew_to_engine"):
            run.say("udet_engine", plane=self.name(by))
            kind = DamageKind.ENGINE  # §18.0 Udet
        if kind is DamageKind.ON_FIRE:
            if not self._extinguished(run, p):
                self.shoot_down(run, p, by=by, cause=cause, reason="on_fire")
                return
            kind = DamageKind.STRUCTURE
        if kind is DamageKind.CREW:
            self._crew_hit(run, p, by=by, cause=cause)
            return
        name = kind.value
        p.damage[name] = p.damage.get(name, 0) + 1
        n = p.damage[name]
        ac = self.ac(p)
        run.say("takes", kind="damage", plane=self.name(p), result=name, n=n)
        if kind is DamageKind.STRUCTURE:
            if n >= ac.structure_hits_to_destroy or (
                n >= ac.structure_hits_to_destroy - 1 and ac.defence is DefenceClass.FRAGILE
            ):
                self.shoot_down(run, p, by=by, cause=cause, reason="structure")
        elif n >= _HITS_TO_DESTROY[name]:
            if kind is DamageKind.ENGINE and self.in_campaign(run.state):
                self.engine_out(run, p)
            else:
                self.shoot_down(run, p, by=by, cause=cause, reason=name)
        # (A first Engine hit also loses a High Altitude Engine, §13.42: ratings.py.)
        if (
            p.flying
            and p.bombs
            and min(rating(ac, p, r, altitude=1) for r in ("climb", "agility")) < 0
        ):
            p.bombs = 0
            run.say("forced_jettison", plane=self.name(p))  # §15.33
        if p.flying and p.altitude == 3 and min(self._ratings_at_high(p)) < 0:
            run.say("must_dive", plane=self.name(p))  # §11.24: next activation dives

    def _ratings_at_high(self, p: Plane) -> list[int]:
        ac = self.ac(p)
        return [rating(ac, p, r) for r in ("climb", "speed", "agility")]

    def _hit_balloon(self, run: Run, p: Plane, kind: DamageKind, *, by: Plane | None) -> None:
        """Only Structure and On Fire harm a balloon (§15.28): two Structure hits, one
        with incendiary ammunition (§15.62); rockets destroy it with any result but
        Superficial (§15.55): the caller passes On Fire for them."""
        if kind is DamageKind.ON_FIRE:
            self.shoot_down(run, p, by=by, reason="on_fire")
            return
        if kind is not DamageKind.STRUCTURE:
            run.say("balloon_unharmed", plane=self.name(p), result=kind.value)
            return
        p.damage["structure"] = p.damage.get("structure", 0) + 1
        run.say(
            "takes", kind="damage", plane=self.name(p), result="structure", n=p.damage["structure"]
        )
        if (by is not None and by.incendiary) or p.damage["structure"] >= 2:
            self.shoot_down(run, p, by=by, reason="structure")

    def _extinguished(self, run: Run, p: Plane) -> bool:
        """A Flight Leader or Ace may put out a fire: a Fire Value of 6 or more, +1
        with a Flying Rating of 3 or more (§10.88); in Rain, any pilot at Low or
        Treetop tries at +2 (§10.88: the weather's ``on_fire_bonus``)."""
        rain = self.fire_bonus(run.state) if p.altitude <= 1 else 0
        leader = p.quality in ("leader", "ace") and p.crew.get("pilot") != "killed"
        if not (leader or rain):
            return False
        card = self.draw(run)
        if card.jammed or card.fire is None:
            run.say("fire_spreads", plane=self.name(p), card=card.number)
            return False
        value = card.fire
        if leader and self.flying_rating(p) >= 3:
            value += 1
        value += rain
        ok = value >= 6
        run.say("extinguish" if ok else "fire_spreads", plane=self.name(p), card=card.number)
        return ok

    def fire_bonus(self, state: GameState) -> int:
        """What the weather adds to any pilot's try at putting out a fire at Low or
        Treetop (0 in clear weather)."""
        return self.tables.weather_effect(Weather(self.weather(state))).on_fire_bonus

    def _crew_hit(self, run: Run, p: Plane, *, by: Plane | None, cause: str) -> None:
        """A Crew hit (§10.87): which crewman, then wounded or killed."""
        alive = [c for c in self.crewmen(p) if p.crew.get(c, "ok") != "killed"]
        if len(alive) <= 1:
            victims = alive
        else:
            card = self.draw(run)
            if len(self.crewmen(p)) == 3:
                # Front and rear gunners (AEG GIV): 1-2 front, 3-4 pilot, 5-6 rear;
                # a Guns Jammed hits the rear gunner only.
                by_fv = ("front", "front", "pilot", "pilot", "gunner", "gunner")
                pick = "gunner" if card.fire is None else by_fv[card.fire - 1]
                victims = [pick] if pick in alive else []
            elif card.jammed:
                victims = alive
            else:
                victims = ["pilot" if (card.fire or 0) <= 3 else "gunner"]
                victims = [v for v in victims if v in alive]
        if not victims:
            run.say("crew_missed", plane=self.name(p))
        for who in victims:
            card = self.draw(run)
            state = p.crew.get(who, "ok")
            if card.jammed:
                new = "killed" if state == "wounded" else "wounded"
            else:
                new = "wounded" if (card.fire or 0) <= 4 else "killed"
                if new == "wounded" and state == "wounded":
                    new = "wounded"  # further wounds have no effect
            p.crew[who] = new
            run.say(f"crew_{new}", kind="damage", plane=self.name(p), who=who)
            if who == "pilot" and new == "killed":
                ac = self.ac(p)
                gunner_alive = "gunner" in self.crewmen(p) and p.crew.get("gunner") != "killed"
                if Characteristic.DUAL_CONTROLS in ac.characteristics and gunner_alive:
                    run.say("gunner_flies", plane=self.name(p))  # §13.21
                else:
                    self.shoot_down(run, p, by=by, cause=cause, reason="pilot")
                    return
            if who == "gunner" and new == "killed" and p.crew.get("pilot") == "killed":
                self.shoot_down(run, p, by=by, cause=cause, reason="crew")
                return

    def shoot_down(
        self, run: Run, p: Plane, *, by: Plane | None, cause: str = "", reason: str = ""
    ) -> None:
        """``p`` is shot down (crashed, destroyed): off the mat, its positions given up."""
        s = run.state
        if not p.flying:
            return
        p.status = SHOT_DOWN
        p.by = by.ref if by is not None else (cause or None)
        p.lost_turn = s.turn
        p.lost_engagement = s.engagement
        mat.give_up(p)
        for q in mat.tailers(s, p.ref):
            mat.give_up(q)
        if by is not None and by.side != p.side:
            by.kills.append(p.ref)
            if p.quality == "ace" and p.leader:
                glory = self.ace_glory(p.leader)
                s.glory[by.side] = s.glory.get(by.side, 0) + glory  # §14.63
        run.say(
            "shot_down",
            kind="shot_down",
            plane=self.name(p),
            by=self.name(by) if by is not None else (cause or "-"),
        )
        mat.settle(s)

    def engine_out(self, run: Run, p: Plane) -> None:
        """A second Engine hit in a Campaign Game's Engagement does not shoot the
        aircraft down (§10.86): it leaves the mat at once for its Safe Return, with the
        Engine-out modifier (Campaign §5.64: the campaign draws it)."""
        p.engine_out = True
        self.escape_now(run, p, key="engine_out")

    def escape_now(self, run: Run, a: Plane, key: str = "escapes") -> None:
        """``a`` leaves the Engagement (§9.62 exception): an Escape, and what leaves
        the mat as one (an engine out, a thunderstorm, a withdrawal, Campaign §5.64,
        §12). ``key``: its narration."""
        s = run.state
        mat.give_up(a)
        for q in mat.tailers(s, a.ref):
            mat.give_up(q)
        a.status = ESCAPED
        a.escaped_turn = s.turn
        run.say(key, kind="escape", plane=self.name(a))
        mat.settle(s)

    # -- checks "as if fired upon" ----------------------------------------------------
    def check(self, run: Run, p: Plane, fv: int, result: DamageKind, why: str) -> None:
        """An Unreliable Engine or Weak Wings check (§13.52, §13.62): draw against
        ``fv`` (no check below 1); a hit on the 1-Gun column, Normal line, other than
        Superficial, is a ``result`` hit. Gun jams have no effect."""
        if fv < 1 or not p.flying:
            return
        card = self.draw(run)
        if card.jammed or card.fire is None or card.fire > fv:
            run.say("check_ok", plane=self.name(p), why=why, fv=fv, card=card.number)
            return
        if card.damage_for(1, DefenceClass.NORMAL) is DamageKind.SUPERFICIAL:
            run.say("check_ok", plane=self.name(p), why=why, fv=fv, card=card.number)
            return
        run.say("check_hit", kind="damage", plane=self.name(p), why=why, fv=fv, card=card.number)
        self.hit(run, p, result, by=None, cause=why)

    def attack(self, run: Run, p: Plane, fv: int, guns: int, cause: str) -> DamageKind | None:
        """Flak, ground fire, a collision or anti-aircraft guns on ``p``: the damage
        result (applied), or None for a miss."""
        card = self.draw(run)
        if card.jammed or card.fire is None or card.fire > fv:
            run.say("attack_miss", plane=self.name(p), cause=cause, fv=fv, card=card.number)
            return None
        cls = defence(self.ac(p), p) or DefenceClass.FRAGILE
        kind = card.damage_for(guns, cls)
        run.say(
            "attack_hit",
            kind="fire",
            plane=self.name(p),
            cause=cause,
            fv=fv,
            card=card.number,
            result=kind.value,
        )
        return kind
