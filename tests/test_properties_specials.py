"""Invariants with every special rule in play (issue 6: "property tests that play automatic
matches with squads that carry every special rule and check the invariants of the engine").

Two squads between them carry every unit rule and every weapon/gear rule of the rulebook's
tables, plus skills; random seeds play whole matches mixing the automatic player's choices with
random legal commands. After every step the engine invariants hold, and the record replays to
the same match.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import check_invariants, random_command, try_illegal

from skirmbot import content
from skirmbot.demo import new_demo_match
from skirmbot.rules.record import content_of, record_of, replay
from skirmbot.rules.skirm import autoplayer
from skirmbot.rules.skirm.cards import UNIT_RULES, WEAPON_RULES
from skirmbot.rules.skirm.legal import legal_commands
from skirmbot.rules.skirm.state import ENDED


def gun(
    name: str, roa: int, dam: int, *rules: str, kind: str = "ranged", **extra: Any
) -> dict[str, Any]:
    return {"name": name, "type": kind, "roa": roa, "dam": dam, "specials": list(rules), **extra}


def trooper(
    name: str, rules: list[str], weapons: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    return {"name": name, "type": name, "ep": 5, "act": 3, "msk": 3, "rsk": 3, "arm": 3, "hit": 3,
            "specials": rules, "weapons": weapons, **extra}  # fmt: skip


BLADE = gun("Blade", 2, 1, kind="melee")
RED = {
    "name": "Red Specials",
    "units": [
        trooper(
            "Ace",
            ["LD2", "2RC", "PR1", "CAM", "UNQ"],
            [gun("Carbine", 2, 1, "RG8", "2RC", "PR1", "+SK"), BLADE],
        ),
        trooper(
            "Bex",
            ["2MC", "BR1", "CTR", "DLS"],
            [
                gun("Maul", 2, 1, "2MC", "BR1", "DD1", "RND", kind="melee"),
                gun("Pistol", 1, 1, "RG4", "MCR"),
            ],
        ),
        trooper(
            "Cid",
            ["FLY", "SWF", "NMB"],
            [gun("Arc", 1, 1, "RG6", "CR1", "NCV"), gun("Claws", 2, 1, "UWD", kind="melee")],
        ),
        trooper(
            "Dot",
            ["RGR", "LP3", "TG1", "BLS"],
            [gun("Grenade", 1, 2, "RG5", "BLS", "LIM", "*", gear=True), BLADE],
        ),
        trooper(
            "Eno",
            ["PAR", "INF", "TCH"],
            [gun("Lance", 1, 2, "RG8", "LNR", "HVY"), BLADE],
            skills=[{"name": "Patch", "act": 1, "effect": "heal", "amount": 1, "reach": 1}],
        ),  # fmt: skip
    ],
}
BLUE = {
    "name": "Blue Specials",
    "units": [
        trooper("Fay", ["LD1", "NEQ"], [gun("Fists", 2, 1, kind="melee")]),
        trooper(
            "Gus",
            ["2RC"],
            [gun("Spitter", 4, 1, "RG8", "SPR", "AH1", "RLT"), BLADE],
            skills=[
                {"name": "Burst", "to": 1, "effect": "attack", "weapon": "Spitter", "amount": 1}
            ],
        ),  # fmt: skip
        trooper(
            "Hal",
            ["SWF"],
            [gun("Shock", 2, 1, "RG6", "STN", "SK4"), BLADE],
            skills=[{"name": "Sprint", "act": 1, "effect": "dash", "amount": 2}],
        ),  # fmt: skip
        trooper(
            "Ivo",
            ["PR1", "TG1"],
            [gun("Longgun", 1, 2, "RG10", "XP5"), BLADE],
            skills=[{"name": "Rally", "act": 2, "effect": "orders", "amount": 1}], xp=5,
        ),  # fmt: skip
    ],
}


def test_the_squads_carry_every_special_rule() -> None:
    unit_rules = {
        r.rstrip("0123456789")
        for squad in (RED, BLUE)
        for u in squad["units"]
        for r in u["specials"]
    }
    weapon_rules = {
        r.rstrip("0123456789")
        for squad in (RED, BLUE)
        for u in squad["units"]
        for w in u["weapons"]
        for r in w["specials"]
    }
    assert set(UNIT_RULES) <= unit_rules, set(UNIT_RULES) - unit_rules
    assert set(WEAPON_RULES) - {"XPL"} <= weapon_rules, set(WEAPON_RULES) - weapon_rules


def special_content() -> dict[str, Any]:
    battle_map = content.raw("maps", "foundry")
    mission = {**content.raw("missions", "hold-the-line"), "ep_limit": 1000}
    return content_of(battle_map, mission, [RED, BLUE])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), noise=st.integers(0, 2**32 - 1))
def test_matches_with_every_special_rule_keep_the_invariants(seed: int, noise: int) -> None:
    data = special_content()
    match, _ = new_demo_match(seed, data)
    rng = random.Random(noise)
    names = list(match.state.units)
    for _ in range(3000):
        state = match.state
        if state.phase == ENDED:
            break
        if rng.random() < 0.2:
            try_illegal(match, random_command(names, rng))
            if state.phase == ENDED:
                break
        side = state.waiting_for()
        assert side is not None
        options = legal_commands(state, side)
        command = (
            rng.choice(options)
            if options and rng.random() < 0.35
            else autoplayer.choose(state, side)
        )
        match.apply(command)
        check_invariants(match)
    assert match.state.phase == ENDED
    again = replay(record_of(match, data))
    assert json.dumps(again.state.to_json()) == json.dumps(match.state.to_json())
