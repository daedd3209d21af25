"""Engagement Special Events (Campaign §11.1, §12): what a Random Events draw of
101-110 brings to a Campaign Game's Engagement.

A second card's Fire Value (a Guns Jammed card is 0) is read on the Campaign card's
table (``CampaignEngagement.special_events``). The events use the engagement's own
procedures: aircraft join as Add Aircraft's do (:meth:`Flow.join`) and leave as an
Escape does (:meth:`Combat.escape_now`); a choice (Withdrawal, which aircraft has
"Engine Trouble") is a decision of the side, as Remove Aircraft's is.

Where the book leaves a choice to a player that the engine makes itself (which Ace
joins, whether he sets the hand size), docs/rules-decisions.md says how.
"""

from __future__ import annotations

from engine.eagles import mat
from engine.eagles.base import Run
from engine.eagles.campaign_data import SpecialEvent
from engine.eagles.components import Weather, YearMonth, Zone
from engine.eagles.flow import SIDES, Flow
from engine.eagles.setup import CampaignEngagement
from engine.eagles.state import GameState, Pending, Plane

__all__ = ["SpecialEvents"]

ONCE = {
    SpecialEvent.ACE: SpecialEvent.LUCKY_SHOT,  # §12.1
    SpecialEvent.SQUADRON_56: SpecialEvent.LUCKY_SHOT,  # §12.4
    SpecialEvent.JASTA_11: SpecialEvent.LUCKY_SHOT,  # §12.5
    SpecialEvent.WIND_CHANGE: SpecialEvent.NONE,  # §12.9
}
"""The events that happen once an Engagement, and what they are when drawn again."""
NAMED_ACES = frozenset({SpecialEvent.ACE, SpecialEvent.SQUADRON_56, SpecialEvent.JASTA_11})
"""The events that bring a Famous Ace (``CampaignEngagement.aces``)."""
SQUADRONS = {
    SpecialEvent.SQUADRON_56: ("allied", "se5a", "mccudden"),  # §12.4
    SpecialEvent.JASTA_11: ("german", "fokker-dri", "richthofen"),  # §12.5
}
"""A famous unit's side, aircraft and Ace; three aircraft join."""
WIND_CHANGE = {
    Weather.STRONG_PREVAILING_WINDS: Weather.CONTRARY_WINDS,
    Weather.CONTRARY_WINDS: Weather.STRONG_PREVAILING_WINDS,
    Weather.STRONG_CONTRARY_WINDS: Weather.STRONG_PREVAILING_WINDS,
}
"""§12.9."""
ENEMY_ZONES = {
    Zone.ALLIED_FRONT: "german",
    Zone.ALLIED_REAR: "german",
    Zone.GERMAN_FRONT: "allied",
    Zone.GERMAN_REAR: "allied",
}
"""The side fighting over enemy ground in each zone (§12.10)."""


class SpecialEvents(Flow):
    """The Engagement Special Events."""

    def special_event(self, run: Run) -> None:
        """Draw for the Special Event and resolve it (§11.11)."""
        s = run.state
        campaign = CampaignEngagement.model_validate(s.setup["campaign"])
        card = self.draw(run)
        fire = card.fire or 0
        drawn = campaign.special_event(fire)
        run.say("special_drawn", kind="event", card=card.number, fv=fire, special=drawn.value)
        event = drawn
        if event in NAMED_ACES and not campaign.aces:
            event = SpecialEvent.LUCKY_SHOT
        if event.value in s.specials:
            event = ONCE[event]
        if event is not drawn:
            run.say("special_instead", special=drawn.value, instead=event.value)
        if event is SpecialEvent.ACE:
            self.ace_joins(run)
        elif event in SQUADRONS:
            self.squadron_joins(run, event)
        elif event is SpecialEvent.CLEARING_SKIES:
            self.clearing_skies(run)
        elif event is SpecialEvent.ENGINE_TROUBLE:
            self.engine_trouble(run)
        elif event is SpecialEvent.LUCKY_SHOT:
            s.lucky_shot = True
            run.say("lucky_shot_turn")
        elif event is SpecialEvent.OUT_OF_THE_SUN:
            s.sun = "german" if campaign.phase == "morning" else "allied"
            run.say("out_of_the_sun", side=s.sun)
        elif event is SpecialEvent.THUNDERSTORM:
            self.thunderstorm(run)
        elif event is SpecialEvent.WIND_CHANGE:
            self.wind_change(run)
        elif event is SpecialEvent.WITHDRAWAL:
            self.withdrawal(run)
        if s.pending is None:
            self.last_side_left(run)

    def last_side_left(self, run: Run) -> None:
        """Aircraft that left may leave one side alone on the mat: the engagement ends
        (§4.5, Campaign §12.8)."""
        s = run.state
        if sum(1 for side in SIDES if self.on_mat(s, side)) < 2:
            self.end_engagement(run)

    def special_done(self, run: Run) -> None:
        """A Special Event's decision is taken: the turn goes on, unless it is over."""
        self.last_side_left(run)
        if run.state.phase != "over":
            self.after_event(run)

    # -- aircraft joining (§12.1, §12.4, §12.5) ---------------------------------------
    def ace_joins(self, run: Run) -> None:
        """§12.1: a card draws the side as Add Aircraft does; that side's first Ace
        available in the month (the data's order) and not yet in the engagement joins
        in the aircraft he flew then. He sets the hand size with his Leadership if it
        gives more than the rating in use (docs/rules-decisions.md)."""
        s = run.state
        side = self.tables.event_resolution.add_side(self.event_fire(run)).value
        when = YearMonth.from_text(s.setup["month"])
        present = {p.leader for p in s.planes}
        ace = next(
            (
                k
                for k, v in self.leaders.items()
                if v.ace and v.side.value == side and v.available(when) and k not in present
            ),
            None,
        )
        aircraft = self.leaders[ace].aircraft_on(when) if ace is not None else None
        if ace is None or aircraft is None or self.automatic(s, side):
            run.say("no_ace", side=side)
            return
        s.specials.append(SpecialEvent.ACE.value)
        p = self.new_plane(s, side, aircraft, original=False)
        self.make_leader(p, ace)
        leader, which = self.hand_leader(s, side)
        in_use = self.leader_rating(leader, which) if leader is not None else 0
        entry = [p.ref, "leadership"]
        lead = s.leads.setdefault(side, [])
        if self.leader_rating(p, "leadership") > in_use:
            lead.insert(0, entry)
        else:
            lead.append(entry)
        run.say("ace_joins", side=side, leader=self.leaders[ace].name)
        self.join(run, side, [p])

    def squadron_joins(self, run: Run, event: SpecialEvent) -> None:
        """§12.4, §12.5: three aircraft join as Add Aircraft's do, one flown by the
        unit's Ace (unless he is already here), two by Experienced pilots; his
        Leadership sets the hand size from now on."""
        s = run.state
        side, aircraft, ace = SQUADRONS[event]
        if self.automatic(s, side):
            run.say("no_add", side=side)
            return
        s.specials.append(event.value)
        run.say("squadron_joins", special=event.value)
        planes = [self.new_plane(s, side, aircraft, original=False) for _ in range(3)]
        if all(p.leader != ace for p in s.planes):
            self.make_leader(planes[0], ace)
            s.leads.setdefault(side, []).insert(0, [planes[0].ref, "leadership"])
        self.join(run, side, planes)

    # -- the weather (§12.2, §12.8, §12.9) --------------------------------------------
    def change_weather(self, run: Run, weather: Weather) -> None:
        """The weather is ``weather`` from this turn (``GameState.weather_turn``: the
        aircraft that left before keep the old one for their Safe Return)."""
        s = run.state
        s.weather = weather.value
        s.weather_turn = s.turn
        run.say("weather_now", weather=weather.value)

    def clearing_skies(self, run: Run) -> None:
        """§12.2: the Clouds marker goes, and the weather that brought it (Rain) with
        it: the weather is Clear."""
        s = run.state
        if s.clouds is None:
            run.say("no_clouds")
            return
        s.clouds = None
        run.say("skies_clear")
        if self.tables.weather_effect(Weather(self.weather(s))).clouds is not None:
            self.change_weather(run, Weather.CLEAR)

    def thunderstorm(self, run: Run) -> None:
        """§12.8: with Clouds on the display, every aircraft at their altitude or below
        Escapes; later, one diving there is attacked and Escapes
        (:meth:`Flow.in_the_storm`). Without Clouds, no event."""
        s = run.state
        if s.clouds is None:
            run.say("no_clouds")
            return
        s.storm = s.clouds
        run.say("thunderstorm", altitude=s.storm)
        for p in s.planes:
            if p.flying and not p.balloon and not p.on_ground and p.altitude <= s.storm:
                self.escape_now(run, p, key="storm_escapes")

    def wind_change(self, run: Run) -> None:
        """§12.9: Strong Prevailing Winds become Contrary Winds, (Strong) Contrary
        Winds become Strong Prevailing Winds; any other weather: no event."""
        s = run.state
        new = WIND_CHANGE.get(Weather(self.weather(s)))
        if new is None:
            run.say("no_wind_change")
            return
        s.specials.append(SpecialEvent.WIND_CHANGE.value)
        self.change_weather(run, new)

    # -- aircraft leaving (§12.3, §12.10) ---------------------------------------------
    def engine_trouble(self, run: Run) -> None:
        """§12.3: of the Unengaged aircraft flown by the squadrons' pilots, the one
        whose pilot has the most Fatigue Points Escapes; tied in one side, its owner
        chooses; tied across the sides, one of each side Escapes."""
        s = run.state
        pool = [
            p
            for p in s.planes
            if p.flying
            and p.pilot_id is not None
            and not p.balloon
            and not p.on_ground
            and mat.unengaged(s, p)
        ]
        if not pool:
            run.say("no_trouble")
            return
        most = max(p.fatigue for p in pool)
        queue = [
            (side, [p.ref for p in pool if p.side == side and p.fatigue == most]) for side in SIDES
        ]
        self.trouble_next(run, [(side, refs) for side, refs in queue if refs])

    def trouble_next(self, run: Run, queue: list[tuple[str, list[str]]]) -> None:
        """Each side in ``queue`` loses one of its candidates, the side choosing among
        several (``trouble``: ``remove`` and the aircraft)."""
        s = run.state
        for i, (side, refs) in enumerate(queue):
            if len(refs) > 1 and not self.automatic(s, side):
                rest = [[sd, r] for sd, r in queue[i + 1 :]]
                s.pending = Pending("trouble", side, chain=refs, data={"queue": rest})
                return
            self.escape_now(run, s.plane(refs[0]), key="engine_trouble")

    def trouble_pick(self, run: Run, ref: str) -> None:
        """The side's choice of the aircraft with "Engine Trouble"."""
        s = run.state
        pend = s.pending
        assert pend is not None
        s.pending = None
        self.escape_now(run, s.plane(ref), key="engine_trouble")
        self.trouble_next(run, [(str(sd), list(r)) for sd, r in pend.data.get("queue", [])])
        if s.pending is None:
            self.special_done(run)

    def withdrawal(self, run: Run) -> None:
        """§12.10: the side with fewer Scouts may withdraw; with as many, the side over
        enemy ground (the Germans over No Man's Land). Its player decides
        (``withdraw``: ``accept`` or ``refuse``)."""
        s = run.state
        scouts = {side: self.scouts(s, side) for side in SIDES}
        if scouts["allied"] != scouts["german"]:
            side = min(SIDES, key=lambda sd: scouts[sd])
        else:
            side = ENEMY_ZONES.get(Zone(s.setup["zone"]), "german")
        if self.automatic(s, side) or not self.leaving(s, side):
            run.say("no_withdrawal", side=side)
            return
        s.pending = Pending("withdraw", side)
        run.say("withdrawal", side=side)

    def withdraw(self, run: Run, yes: bool) -> None:
        """The side's answer: all its aircraft Escape, or it fights on."""
        s = run.state
        pend = s.pending
        assert pend is not None
        s.pending = None
        if yes:
            s.withdrew = pend.side
            run.say("withdraws", side=pend.side)
            for p in self.leaving(s, pend.side):
                self.escape_now(run, p, key="withdrawn")
        else:
            run.say("fights_on", side=pend.side)
        self.special_done(run)

    @staticmethod
    def leaving(state: GameState, side: str) -> list[Plane]:
        """``side``'s aircraft on the mat (not its balloon: no aircraft, it stays)."""
        return [p for p in state.planes if p.side == side and p.flying and not p.balloon]
