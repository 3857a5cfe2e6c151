"""Skills with ACT or TO costs on stat cards, as data (issue 6; rulebook Stat Cards: Skills,
Tactical Orders: "TO skills cannot be performed more than once per Turn")."""

from __future__ import annotations

from typing import Any

import pytest
from builders import KNIFE, RIFLE, refused, skirm_match, unit

from skirmbot.rules.commands import Accept
from skirmbot.rules.errors import ContentError
from skirmbot.rules.skirm.cards import card_from_json
from skirmbot.rules.skirm.commands import UseSkill

MEDIC = {"name": "Field Dressing", "act": 1, "effect": "heal", "amount": 2, "reach": 1}
SPRINT = {"name": "Sprint", "act": 1, "effect": "dash", "amount": 2}
RALLY = {"name": "Rally", "act": 2, "effect": "orders", "amount": 1}
BURST = {"name": "Burst", "to": 1, "effect": "attack", "weapon": "Rifle", "amount": 2}


def with_skills(name: str, square: str, *skills: dict[str, Any], **stats: Any) -> tuple[dict[str, Any], str]:
    card, where = unit(name, square, **stats)
    card["skills"] = list(skills)
    return card, where


def test_a_heal_skill_restores_hit_to_an_adjacent_squadmate() -> None:
    match = skirm_match({0: [with_skills("Ada", "C3", MEDIC), unit("Cy", "C4")], 1: [unit("Bo", "L12")]})
    match.state.units["Cy"].hit = 1
    events = match.apply(UseSkill(0, "Ada", "Field Dressing", "Cy"))
    assert match.state.units["Cy"].hit == 3 and "regains 2 HIT" in events[-1].text
    refused(match, UseSkill(0, "Ada", "Field Dressing", "Cy"), "all its HIT")


def test_act_skills_pay_the_repeat_surcharge_and_can_use_tactical_orders() -> None:
    """Rulebook: skills with an ACT cost are paid with ACT or TO; repeats cost 1 more."""
    match = skirm_match({0: [with_skills("Ada", "C3", SPRINT, act=3)], 1: [unit("Bo", "L12")]}, orders=(1, 0))
    first = match.apply(UseSkill(0, "Ada", "Sprint", "C5"))
    assert str(match.state.units["Ada"].square) == "C5" and first[1].data["act"] == 1
    second = match.apply(UseSkill(0, "Ada", "Sprint", "C7"))
    assert second[0].data["act"] == 2  # 1 + 1 for the repeat
    refused(match, UseSkill(0, "Ada", "Sprint", "C9"), "costs 3; Ada has 0 ACT left")


def test_an_orders_skill_gives_the_squad_tactical_orders() -> None:
    match = skirm_match({0: [with_skills("Ada", "C3", RALLY)], 1: [unit("Bo", "L12")]})
    match.apply(UseSkill(0, "Ada", "Rally"))
    assert match.state.squads[0].orders == 1


def test_to_skills_cost_only_tactical_orders_and_work_once_per_turn() -> None:
    """Rulebook: TO skills are paid with Tactical Orders only, once per turn."""
    placed = {0: [with_skills("Ada", "C3", BURST, weapons=[RIFLE, KNIFE])], 1: [unit("Bo", "C7", arm=1, hit=4)]}
    broke = skirm_match(placed)
    refused(broke, UseSkill(0, "Ada", "Burst", "Bo"), "costs 1 TO (Tactical Orders only)")
    match = skirm_match(placed, orders=(2, 0), faces=[2, 2, 6, 6, 6, 6, 6, 6, 6])
    events = match.apply(UseSkill(0, "Ada", "Burst", "Bo"))
    roll = next(e for e in events if e.kind == "roll")
    assert len(roll.data["faces"]) == 4 and "Burst: +2 attack dice" in roll.text
    assert match.state.squads[0].orders == 1 and match.state.activation is not None
    assert match.state.activation.act_left == 3  # no ACT spent
    match.apply(Accept(0))  # two strikes, two failed saves
    assert match.state.units["Bo"].hit == 2
    refused(match, UseSkill(0, "Ada", "Burst", "Bo"), "once per turn")


def test_skills_are_checked_when_the_squad_is_read() -> None:
    base = unit("Ada", "C3")[0]
    with pytest.raises(ContentError, match="either 'act' or 'to'"):
        card_from_json({**base, "skills": [{"name": "X", "effect": "heal", "act": 1, "to": 1}]}, "Squad")
    with pytest.raises(ContentError, match="does not carry"):
        card_from_json({**base, "skills": [{"name": "Y", "to": 1, "effect": "attack", "weapon": "Bow"}]}, "Squad")
    with pytest.raises(ContentError, match="effect"):
        card_from_json({**base, "skills": [{"name": "Z", "act": 1, "effect": "teleport"}]}, "Squad")
    card = card_from_json({**base, "skills": [{**MEDIC, "ep": 4}]}, "Squad")
    assert card.total_ep == base["ep"] + 4


def test_an_unknown_skill_lists_the_units_skills() -> None:
    match = skirm_match({0: [with_skills("Ada", "C3", MEDIC)], 1: [unit("Bo", "L12")]})
    refused(match, UseSkill(0, "Ada", "Fireball"), "Field Dressing (1 ACT)")
