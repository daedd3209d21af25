"""Write data/eagles/deck.yaml: the authored Eagles in the Sky Maneuver deck.

The rulebook prints no deck list (data/eagles/SOURCES.md, section 1). This script is
how the project authored one, kept so the method can be read and re-run; the YAML it
wrote is the source of truth the loader reads (edit the YAML, not this, to correct a
card; a re-run overwrites such edits). Run from the repository root:

    python data/eagles/tools/make_deck.py            # rewrite deck.yaml
    python data/eagles/tools/make_deck.py --stats    # print the distribution only

It is not part of the installed package (package data is data/*/*.yaml and *.md).

Method (seeded, so a re-run writes the same file):

1. The card kinds below (name, symbols, Maneuver Rating, special rule, copies) are
   laid out by hand: the book's named cards with their printed values, the rest
   authored so each symbol appears on about a third of the deck and MR 1-2 are the
   commonest.
2. The 110 copies are shuffled and numbered 1-110.
3. Ten numbers are drawn as Guns Jammed; the other 100 get Fire Values 1-6 as evenly
   as 100 allows (17, 17, 17, 17, 16, 16), shuffled.
4. Each card with a Fire Value gets a damage table from a "hit kind" and a
   "strength" drawn per card; a cell hits when strength + guns bonus - class penalty
   reaches a threshold, and a cell well past it gives the card's severe result. So a
   card never does less damage with 2 guns than with 1, nor to a weaker class than
   to a stronger one.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

SEED = 1917
OUT = Path(__file__).resolve().parent.parent / "deck.yaml"

# name, symbols, Maneuver Rating, special, copies
KINDS: list[tuple[str, tuple[str, ...], int, str | None, int]] = [
    # Climb
    ("Zoom Climb", ("climb",), 3, None, 5),  # printed C 3 (L323, L694)
    ("Vertical Roll", ("climb",), 2, None, 5),  # printed MR 2, used to climb (L692)
    ("Climbing Turn", ("climb",), 1, None, 8),
    ("Hammerhead", ("climb",), 4, None, 1),
    # Dive
    ("Steep Dive", ("dive",), 2, None, 6),  # printed D 2 (L350)
    ("Diving Turn", ("dive",), 1, None, 8),
    ("Spiral Dive", ("dive",), 3, None, 4),
    ("Falling Leaf", ("dive",), 2, "falling_leaf", 2),  # §8.3
    # Speed
    ("Full Throttle", ("speed",), 1, None, 8),  # printed S 1 (L429)
    ("Shallow Dive", ("speed",), 2, None, 6),  # printed S 2 (L383, L429)
    ("Barrel Roll", ("speed",), 2, "barrel_roll", 3),  # printed Speed (L381), MR authored
    ("Extend", ("speed",), 3, None, 4),  # Speed MR 3 exists (L842)
    ("Flat Out", ("speed",), 4, None, 1),  # Speed MR 4 exists (L842)
    # Agility
    ("Tight Turn", ("agility",), 2, None, 5),  # printed A 2 (L431)
    ("Snap Turn", ("agility",), 3, "snap_turn", 3),  # printed A 3 (L380, L383)
    ("Sideslip", ("agility",), 1, None, 6),
    ("Flat Turn", ("agility",), 1, None, 5),
    ("Scissors", ("agility",), 2, None, 3),
    # several symbols
    ("Half Loop", ("climb", "dive"), 3, None, 3),  # printed C+D 3 (L350)
    ("Chandelle", ("climb", "speed"), 2, None, 3),
    ("Immelmann", ("climb", "agility"), 3, None, 3),
    ("Wingover", ("climb", "agility"), 1, None, 3),
    ("Split S", ("dive", "agility"), 2, None, 3),
    ("Power Dive", ("dive", "speed"), 3, None, 3),
    ("Slipping Turn", ("speed", "agility"), 1, None, 3),
    ("Stall Turn", ("climb", "dive"), 1, None, 3),
    ("Medal Maneuver", ("climb", "dive", "speed", "agility"), 4, "medal", 3),  # §8.14
]

JAMS = 10
FIRE_COUNTS = {1: 17, 2: 17, 3: 17, 4: 17, 5: 16, 6: 16}
CLASSES = ("fragile", "normal", "sturdy", "armored")
CLASS_PENALTY = {"fragile": 0, "normal": 2, "sturdy": 4, "armored": 6}
GUNS_BONUS = (0, 2)  # 1 gun, 2 guns
HIT = 3  # strength + bonus - penalty >= HIT: more than Superficial
SEVERE = 7  # ... >= SEVERE: the card's severe result
# The kind of harm a card does past the severe threshold, and its weight.
SEVERE_KINDS = {
    "structure": 30,
    "wing": 18,
    "engine": 18,
    "control": 16,
    "crew": 10,
    "on_fire": 8,
}
# Below the severe threshold a hit is a Structure hit, except on cards whose severe
# kind is Wing/Engine/Control, where it is that kind half the time.
STRENGTH = range(0, 12)


def build() -> list[dict[str, object]]:
    rng = random.Random(SEED)
    copies = [kind for kind in KINDS for _ in range(kind[4])]
    if len(copies) != 110:
        raise SystemExit(f"the kinds make {len(copies)} cards, not 110")
    rng.shuffle(copies)
    jammed = set(rng.sample(range(1, 111), JAMS))
    fires = [fv for fv, n in FIRE_COUNTS.items() for _ in range(n)]
    rng.shuffle(fires)
    cards: list[dict[str, object]] = []
    for number, (name, symbols, rating, special, _) in enumerate(copies, start=1):
        card: dict[str, object] = {"number": number, "name": name, "symbols": list(symbols)}
        card["rating"] = rating
        if special:
            card["special"] = special
        if number in jammed:
            card["fire"] = None
            card["damage"] = None
        else:
            card["fire"] = fires.pop()
            card["damage"] = damage_table(rng)
        cards.append(card)
    return cards


def damage_table(rng: random.Random) -> dict[str, list[str]]:
    severe = rng.choices(list(SEVERE_KINDS), weights=list(SEVERE_KINDS.values()))[0]
    strength = rng.choice(STRENGTH)
    light = "structure"
    if severe in ("wing", "engine", "control") and rng.random() < 0.5:
        light = severe
    if severe == "structure":
        # a Structure card's severe cells are a second kind of structural harm
        severe = rng.choice(("structure", "wing", "engine", "control"))
    table: dict[str, list[str]] = {}
    for cls in CLASSES:
        row = []
        for bonus in GUNS_BONUS:
            score = strength + bonus - CLASS_PENALTY[cls]
            row.append("superficial" if score < HIT else severe if score >= SEVERE else light)
        table[cls] = row
    return table


def stats(cards: list[dict[str, object]]) -> str:
    lines = []
    symbols: Counter[str] = Counter()
    for card in cards:
        symbols.update(card["symbols"])  # type: ignore[arg-type]
    lines.append("cards showing each symbol: " + ", ".join(f"{s} {n}" for s, n in symbols.items()))
    multi = sum(1 for c in cards if len(c["symbols"]) > 1)  # type: ignore[arg-type]
    lines.append(f"cards with several symbols: {multi}")
    ratings = Counter(c["rating"] for c in cards)
    lines.append("per Maneuver Rating: " + ", ".join(f"MR {r}: {ratings[r]}" for r in (1, 2, 3, 4)))
    fires = Counter(c["fire"] for c in cards)
    lines.append(
        "per Fire Value: "
        + ", ".join(f"FV {f}: {fires[f]}" for f in range(1, 7))
        + f", Guns Jammed: {fires[None]}"
    )
    for guns in (0, 1):
        for cls in CLASSES:
            kinds = Counter(c["damage"][cls][guns] for c in cards if c["damage"])  # type: ignore[index]
            lines.append(
                f"{guns + 1} gun(s) vs {cls}: "
                + ", ".join(
                    f"{k} {kinds[k]}"
                    for k in [
                        "superficial",
                        "structure",
                        "wing",
                        "control",
                        "engine",
                        "crew",
                        "on_fire",
                    ]
                )
            )
    return "\n".join(lines)


def to_yaml(cards: list[dict[str, object]]) -> str:
    out = [
        "# The Eagles in the Sky Maneuver deck: 110 cards (§2.2). AUTHORED, except the",
        "# values data/eagles/SOURCES.md section 1.1 lists as printed. Written once by",
        "# data/eagles/tools/make_deck.py (seed 1917); this file is the source of truth.",
        "# damage: a row per target Defensive Class, [1-Gun result, 2-Guns result].",
        "id: eagles-in-the-sky",
        "name: Eagles in the Sky Maneuver deck",
        "cards:",
    ]
    for card in cards:
        out.append(f"  - number: {card['number']}")
        out.append(f"    name: {card['name']}")
        out.append(f"    symbols: [{', '.join(card['symbols'])}]")  # type: ignore[arg-type]
        out.append(f"    rating: {card['rating']}")
        if "special" in card:
            out.append(f"    special: {card['special']}")
        if card["fire"] is None:
            out.append("    fire: null  # Guns Jammed")
            out.append("    damage: null")
        else:
            out.append(f"    fire: {card['fire']}")
            out.append("    damage:")
            for cls in CLASSES:
                out.append(f"      {cls}: [{', '.join(card['damage'][cls])}]")  # type: ignore[index]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stats", action="store_true", help="print the distribution only")
    args = parser.parse_args(argv)
    cards = build()
    print(stats(cards))
    if not args.stats:
        OUT.write_text(to_yaml(cards), encoding="utf-8")
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])
