"""Down in Flames: Locked-On (jet air combat, 1950s-1990s): rules engine and component data.

A pure library, like :mod:`engine.dif`: no Discord, asyncio or database. The modules,
one concept each:

================  ==================================================================
``components``    the data models (cards, aircraft, missiles, skills, sites)
``loader``        reading and checking ``data/lockedon/*.yaml``
``actions``       the canonical notation of every decision (``play GUN B1``)
``setup``         lobby options, seat picks, the setup a game starts from, and a
                  campaign mission's rules (``MissionRules``)
``state``         the game state: plain dataclasses, clone, JSON
``ratings``       ratings in play: the card, skills, altitude (L206-216)
``geometry``      range between aircraft (L189-193) and positions (L120-204)
``balance``       VP of aircraft, missile loads and skills; what a lobby may take
``base``          lookups, piles, drawing, who must decide now
``candidates``    the candidate actions of a decision
``legality``      the one refusal predicate; ``legal_actions`` filters through it
``flow``          order, rounds, turn steps, altitude and following, the end
``exchange``      card play, reactions, Teamwork, Split-S
``missiles``      the launch and the Missile's mini-hand
``mission``       campaign missions: the 90° / 0° Angle start, answering a site
``game``          the engine: new game, apply, default action, replay
``view`` / ``present``  per-seat views (hidden information absent)
``system``        the game-system contract adapter (``system()``)
``ai``            the random computer player
``vectors``       conformance-vector expectations for this system
================  ==================================================================

Rule readings where the book is silent or contradicts itself are listed in
``docs/rules-decisions.md`` ("Locked-On").
"""
