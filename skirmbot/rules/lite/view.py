"""Skirm Lite's skin: what its cards show of a unit (rulebook Stat Cards, Special Rules)."""

from __future__ import annotations

from skirmbot.rules.skirm.state import ACTIVATED, DOWNED, TAKEN_OUT
from skirmbot.rules.skirm.view import Skin, with_range

# Skirm Lite rulebook: Stat Cards (MOV, ACT, ARM, HIT; weapons ROA, SKL, DAM), Special Rules.
LITE = Skin(
    unit_stats=lambda card: [("MOV", str(card.mov)), ("ACT", str(card.act)), ("ARM", str(card.arm))],
    weapon_stats=lambda weapon: with_range(
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
