"""Dice pools of the group rules (rulebook 003: Shooting, Attacking, Cover, Shaken Groups) and the
Captain traits that change them (our content). Every test scripts its dice and cites its rule."""

from __future__ import annotations

from companies_builders import captain_trait, profile, put, table

from skirmbot.rules.companies.captains import activation_minimum, mo_of
from skirmbot.rules.companies.combat import hex, melee, shoot
from skirmbot.rules.companies.profiles import ATTACK, MOVE
from skirmbot.rules.companies.state import Group, State
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.events import Event

MISS = [1] * 12
ARCHERS = profile("archers", mi=4, range_=18)


def duel(
    *, edges: list[str] | None = None, r: int | None = None, t: int = 2
) -> tuple[State, Group, Group]:
    """Archers (seat 0) ten inches from Spearmen (seat 1)."""
    state = table(edges=edges)
    archers = put(state, 0, "Archers", "C3 D3 E3", ARCHERS)
    spearmen = put(state, 1, "Spearmen", "C13 D13 E13", profile(t=t), r=r)
    return state, archers, spearmen


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def pool(events: list[Event], n: int = 0) -> dict[str, object]:
    return kinds(events, "pool")[n].data


def test_shooting_rolls_12d6_if_not_bloodied() -> None:
    """Shooting: "If Bloodied, roll 6d6 to hit; else roll 12d6"."""
    state, archers, spearmen = duel()
    dice = ScriptedDice(MISS)
    events = shoot(state, dice, archers, spearmen)
    assert pool(events)["dice"] == 12 and dice.remaining == 0


def test_shooting_rolls_6d6_if_bloodied() -> None:
    """Shooting: "If Bloodied, roll 6d6 to hit" (our ruling: Bloodied at half its R or less)."""
    state, archers, spearmen = duel()
    archers.r = 3  # of 6
    dice = ScriptedDice([1] * 6)
    events = shoot(state, dice, archers, spearmen)
    assert pool(events)["dice"] == 6 and dice.remaining == 0


def test_each_die_at_or_above_mi_is_a_hit_and_no_r_lost_means_no_test() -> None:
    """Shooting: "Each die that shows a result equal to or higher than the Shooting Group's MI
    value is a hit"; fewer hits than T take no R, and only "If the target lost any R, it must
    Test Resilience"."""
    state, archers, spearmen = duel(t=5)
    dice = ScriptedDice([4, 3, 5, 6, 1, 2, 4, 3, 3, 3, 3, 3])
    events = shoot(state, dice, archers, spearmen)
    assert pool(events)["hits"] == 4 and pool(events)["needed"] == 4
    assert spearmen.r == 6 and not kinds(events, "resilience") and dice.remaining == 0


def test_each_t_hits_take_1_r_and_the_target_tests() -> None:
    """Shooting: "For each number of hits equal to the target's T, reduce their R by 1. If the
    target lost any R, it must Test Resilience" (-1 per R lost)."""
    state, archers, spearmen = duel(t=2)
    dice = ScriptedDice([6] * 5 + [1] * 7 + [6, 6])
    events = shoot(state, dice, archers, spearmen)
    assert pool(events)["r_lost"] == 2 and spearmen.r == 4
    assert kinds(events, "r_lost")[0].data == {
        "unit": "Spearmen",
        "lost": 2,
        "r": 4,
        "by": "Archers",
    }
    test = kinds(events, "resilience")[0].data
    assert test["modifiers"] == [["2 R lost", -2]] and test["total"] == 10
    assert test["outcome"] == "passed" and dice.remaining == 0


def test_cover_rerolls_every_hit_die_once() -> None:
    """Cover: "Reroll all to-hit dice that hit against Groups on the opposite side of Cover"
    (our ruling: a Group within 3" of an obstacle, Shooting only)."""
    state, archers, spearmen = duel(edges=["C12|C13: wall=1"])
    dice = ScriptedDice([6, 6, 6, 5] + [1] * 8 + [6, 3, 4, 1] + [6, 6])
    events = shoot(state, dice, archers, spearmen)
    assert pool(events)["rerolled"] == [6, 3, 4, 1]
    assert pool(events)["hits"] == 2 and spearmen.r == 5 and dice.remaining == 0


def test_no_cover_in_melee() -> None:
    """Cover re-rolls "to-hit dice" of Shooting only (our ruling: melee is base to base)."""
    state = table(edges=["C12|C13: wall=1"])
    attacker = put(state, 0, "Raiders", "C12 D12 E12")
    defender = put(state, 1, "Spearmen", "C13 D13 E13")
    dice = ScriptedDice([6, 6] + [1] * 10 + MISS + [6, 6])
    events = melee(state, dice, attacker, defender)
    assert pool(events)["rerolled"] == [] and pool(events)["hits"] == 2
    assert defender.r == 5 and dice.remaining == 0


def test_shaken_groups_hit_only_on_6_in_melee() -> None:
    """Shaken Groups: "Only hit on a 6 in melee"."""
    state = table()
    attacker = put(state, 0, "Raiders", "C12 D12 E12")
    defender = put(state, 1, "Spearmen", "C13 D13 E13", shaken=True)
    dice = ScriptedDice(MISS + [5, 5, 5, 6] + [1] * 8)
    events = melee(state, dice, attacker, defender)
    assert pool(events, 1)["needed"] == 6 and pool(events, 1)["hits"] == 1
    assert dice.remaining == 0


def test_shaken_groups_hit_as_usual_when_shooting() -> None:
    """Shaken Groups: only hit on a 6 in melee "(not when Shooting)"."""
    state, archers, spearmen = duel(t=5)
    archers.shaken = True
    events = shoot(state, ScriptedDice([4, 4] + [1] * 10), archers, spearmen)
    assert pool(events)["needed"] == 4 and pool(events)["hits"] == 2


def test_melee_both_roll_before_either_loses_r() -> None:
    """Attacking 2: "Both Groups try to hit each other, rolling 6d6 if Bloodied, else rolling
    12d6": the defender's pool is not cut by the losses the attacker's dice inflict."""
    state = table()
    attacker = put(state, 0, "Raiders", "C12 D12 E12")
    defender = put(state, 1, "Spearmen", "C13 D13 E13", r=4)
    dice = ScriptedDice([6] * 4 + [1] * 8 + MISS + [6, 6])
    events = melee(state, dice, attacker, defender)
    assert pool(events, 1)["dice"] == 12 and defender.r == 2 and defender.bloodied
    assert dice.remaining == 0


def test_melee_hits_on_me_attack_and_defend_and_the_defender_tests_first() -> None:
    """Attacking 2: each die "equal to or higher than the Group's ME to-hit target for
    Attacking/Defending as appropriate is a hit"; each Group that lost R tests, the defender
    first (our ruling)."""
    state = table()
    attacker = put(state, 0, "Raiders", "C12 D12 E12", profile(me_attack=3, me_defend=5))
    defender = put(state, 1, "Spearmen", "C13 D13 E13", profile(me_attack=None, me_defend=5))
    dice = ScriptedDice([3, 3] + [2] * 10 + [5, 5] + [4] * 10 + [6, 6] + [5, 5])
    events = melee(state, dice, attacker, defender)
    assert [pool(events, n)["needed"] for n in (0, 1)] == [3, 5]
    assert [pool(events, n)["purpose"] for n in (0, 1)] == ["attack", "defend"]
    tests = kinds(events, "resilience")
    assert [t.data["unit"] for t in tests] == ["Spearmen", "Raiders"]
    assert attacker.r == defender.r == 5 and dice.remaining == 0


def test_defiant_counter_charge_swaps_attacking_and_defending() -> None:
    """Defiant (our content): in the melee of a counter-charge the defender rolls with its ME
    for Attacking and the attacker with its ME for Defending."""
    state = table()
    attacker = put(state, 0, "Raiders", "C12 D12 E12", profile(me_attack=3, me_defend=5))
    defender = put(state, 1, "Guard", "C13 D13 E13", profile(me_attack=2, me_defend=6))
    events = melee(state, ScriptedDice(MISS + MISS), attacker, defender, counter=True)
    assert [pool(events, n)["needed"] for n in (0, 1)] == [5, 2]
    assert [pool(events, n)["purpose"] for n in (0, 1)] == ["defend", "attack"]


def test_hex_takes_1_r_and_the_target_tests() -> None:
    """Cast (our content, Hex): the target loses 1 R and Tests Resilience."""
    state, archers, spearmen = duel()
    dice = ScriptedDice([6, 6])
    events = hex(state, dice, archers, spearmen)
    assert spearmen.r == 5
    assert kinds(events, "resilience")[0].data["modifiers"] == [["1 R lost", -1]]
    assert dice.remaining == 0


def test_marksman_hits_on_one_less_never_below_2() -> None:
    """Captain trait marksman (our content): "hits on 1 less when Shooting, never below 2"."""
    state, archers, spearmen = duel(t=12)
    archers.captain = True
    captain_trait(state, 0, "marksman")
    events = shoot(state, ScriptedDice(MISS), archers, spearmen)
    assert pool(events)["needed"] == 3
    sharp = put(state, 0, "Slingers", "K3 L3", profile("slingers", mi=2, range_=18), captain=True)
    events = shoot(state, ScriptedDice(MISS), sharp, spearmen)
    assert pool(events)["needed"] == 2


def test_hardy_adds_1_to_t() -> None:
    """Captain trait hardy (our content): T + 1. Four hits take 1 R from a T 2 Group, not 2."""
    state, archers, spearmen = duel(t=2)
    spearmen.captain = True
    captain_trait(state, 1, "hardy")
    events = shoot(state, ScriptedDice([6] * 4 + [1] * 8 + [6, 6]), archers, spearmen)
    assert pool(events)["r_lost"] == 1 and spearmen.r == 5


def test_captain_traits_act_on_the_captains_group_only_and_never_while_shaken() -> None:
    """Shaken Groups: "If the Captain's Group is Shaken, none of their special rules affect
    play"; swift (MO + 2") and bold (+1 to Attack activation tests) are the Captain's Group's."""
    state, archers, spearmen = duel()
    captain_trait(state, 0, "swift")
    assert mo_of(state, archers) == 6
    archers.captain = True
    assert mo_of(state, archers) == 8
    archers.shaken = True
    assert mo_of(state, archers) == 6


def test_bold_eases_attack_activation_tests_only() -> None:
    """Captain trait bold (our content): +1 to its activation tests for Attack orders."""
    state, archers, spearmen = duel()
    archers.captain = True
    captain_trait(state, 0, "bold")
    assert activation_minimum(state, archers, ATTACK) == 5
    assert activation_minimum(state, archers, MOVE) == 5
    assert activation_minimum(state, spearmen, ATTACK) == 6
