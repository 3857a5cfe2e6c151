"""What each ruleset's pictures show of a unit: its stats, its weapons' stats, its special rules'
titles and the words for its state. The board, tokens and card layout are shared; a ruleset
adds its skin here (docs/rulesets.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from skirmbot.rules.ruleset import DEFAULT_RULESET
from skirmbot.rules.skirm.cards import RANGED, UnitCard, Weapon
from skirmbot.rules.skirm.state import ACTIVATED, DOWNED, TAKEN_OUT

Stats = list[tuple[str, str]]


@dataclass(frozen=True)
class Skin:
    unit_stats: Callable[[UnitCard], Stats]  # the boxes before HIT, which every skin shows
    weapon_stats: Callable[[Weapon], Stats]
    unit_rule_titles: dict[str, str]  # code -> title ("{x}" is the rule's number)
    weapon_rule_titles: dict[str, str]
    status_words: dict[str, str]  # a unit's status -> what the card says (else "Ready")
    shows_points: bool  # the EP line (Skirm's Equipment Points)


def _with_range(weapon: Weapon, stats: Stats) -> Stats:
    return [*stats, ("RG", str(weapon.range))] if weapon.kind == RANGED else stats


# Skirm rulebook: Unit Special Rules, Weapon/Gear Special Rules (plus XPL: the Rocket Launcher
# Turret's blast, rulings).
SKIRM = Skin(
    unit_stats=lambda card: [
        ("ACT", str(card.act)), ("MSK", str(card.msk)), ("RSK", str(card.rsk)),
        ("ARM", str(card.arm)),
    ],
    weapon_stats=lambda weapon: _with_range(
        weapon, [("ROA", str(weapon.roa)), ("DAM", str(weapon.dam))]
    ),
    unit_rule_titles={
        "2MC": "Double Melee", "2RC": "Double Ranged", "BLS": "Blast Shield", "BR": "Brutal {x}",
        "CAM": "Camouflage", "CTR": "Counter", "DLS": "Duellist", "FLY": "Flying",
        "INF": "Infiltrator", "LD": "Leader {x}", "LP": "Leap {x}", "NEQ": "No Equipment",
        "NMB": "Nimble", "PAR": "Parry", "PR": "Precise {x}", "RGR": "Ranger", "SWF": "Swift",
        "TCH": "Technician", "TG": "Tough {x}", "UNQ": "Unique",
    },
    weapon_rule_titles={
        "*": "Unique", "+SK": "Improve Skill", "2MC": "Double Melee", "2RC": "Double Ranged",
        "AH": "Autohit {x}", "BLS": "Blast", "BR": "Brutal {x}", "CR": "Chain Reaction {x}",
        "DD": "Deadly {x}", "HVY": "Heavy", "LIM": "Limited Ammo", "LNR": "Linear",
        "MCR": "Melee Combat Ranged", "NCV": "No Cover", "PR": "Precise {x}", "RG": "Range {x}",
        "RLT": "Relentless", "RND": "Rending", "SK": "Skill {x}", "SPR": "Spread", "STN": "Stun",
        "UWD": "Unwieldy", "XP": "Min XP {x}", "XPL": "Explosive",
    },
    status_words={ACTIVATED: "Activated", TAKEN_OUT: "Taken Out"},
    shows_points=True,
)  # fmt: skip

# Skirm Lite rulebook: Stat Cards (MOV, ACT, ARM, HIT; weapons ROA, SKL, DAM), Special Rules.
LITE = Skin(
    unit_stats=lambda card: [("MOV", str(card.mov)), ("ACT", str(card.act)), ("ARM", str(card.arm))],
    weapon_stats=lambda weapon: _with_range(
        weapon,
        [("ROA", str(weapon.roa)), ("SKL", str(weapon.skl or "-")), ("DAM", str(weapon.dam))],
    ),
    unit_rule_titles={
        "LD": "Leader {x}", "2R": "Double Ranged", "2M": "Double Melee", "HL": "Heal {x}",
        "CAM": "Camouflage", "DOD": "Dodge", "TF": "Tough {x}",
    },
    weapon_rule_titles={
        "RR": "Re-Roll {x}", "CR": "Critical {x}", "RG": "Range {x}", "XPL": "Explode",
        "LIM": "Limited Ammo", "AP": "Armor Piercing {x}", "VA": "Vampire {x}", "HVY": "Heavy",
        "LIN": "Linear", "NCV": "No Cover",
    },
    status_words={ACTIVATED: "Activated", TAKEN_OUT: "Taken Out", DOWNED: "Downed"},
    shows_points=False,
)  # fmt: skip

SKINS = {"skirm": SKIRM, "lite": LITE}


def skin(ruleset: str = DEFAULT_RULESET) -> Skin:
    """The skin of `ruleset`; a ruleset without its own shows Skirm's."""
    return SKINS.get(ruleset, SKIRM)
