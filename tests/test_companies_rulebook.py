"""Rule sentences of the group rules (rulebook 003) that no other test file checks on its own:
each test quotes its sentence, scripts its dice and builds its state by hand
(tests/companies_builders.py). docs/rulings.md maps every sentence of the rulebook to its test.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from companies_builders import profile, put, table

from skirmbot.rules.commands import Concede, Melee, Shoot
from skirmbot.rules.companies import orders
from skirmbot.rules.companies.combat import melee, shoot
from skirmbot.rules.companies.commands import EndTurn, Move, StandingOrders, Summon
from skirmbot.rules.companies.engine import CompaniesMatch
from skirmbot.rules.companies.profiles import ATTACK, MOVE, RETREAT, SHOOT, SUMMON, Trait
from skirmbot.rules.companies.resilience import rally, retreat
from skirmbot.rules.companies.scenarios import DEFENDERS
from skirmbot.rules.companies.setup import new_state
from skirmbot.rules.companies.state import Group, State
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.events import Event
from skirmbot.rules.squares import Square

CONTENT = Path(__file__).resolve().parent.parent / "skirmbot" / "content"
PASS, FAIL = [6, 6], [1, 1]  # an activation test's faces that pass, that fail
MISS = [1] * 12  # a pool that hits nothing
FIGHTER = profile(activation={MOVE: 5, ATTACK: 6, RETREAT: 6})
ARCHERS = profile("archers", mi=4, range_=18, activation={MOVE: 5, ATTACK: 6, SHOOT: 6})
TRAITS = {
    "defiant": Trait("defiant", "Defiant", "Counter-charges.", 7),
    "elusive": Trait("elusive", "Elusive", "Slips away.", 7),
    "reckless": Trait("reckless", "Reckless", "Must attack."),
}
HIGH_WALL = [f"{c}10|{c}11: wall=2" for c in "ABCDEFGHIJKLMNOPQRSTUVWX"]  # the table's width


def match(state: State, *faces: int) -> CompaniesMatch:
    state.catalogue = dataclasses.replace(state.catalogue, traits=TRAITS)
    return CompaniesMatch(state, ScriptedDice(faces))


def script(played: CompaniesMatch, *faces: int) -> ScriptedDice:
    played.dice = dice = ScriptedDice(faces)
    return dice


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def squares(group: Group) -> str:
    return " ".join(str(s) for s in group.models)


def refused(played: CompaniesMatch, command: Any, words: str) -> None:
    """The command is refused in these words, before any die is rolled."""
    dice = script(played, *PASS)
    with pytest.raises(IllegalCommand, match=words):
        played.apply(command)
    assert dice.remaining == 2


# --- Setup ------------------------------------------------------------------------------------


def test_the_chosen_scenario_is_the_matchs() -> None:
    """Setup 3: "Roll or choose a scenario": the match plays the mission chosen for it, with its
    own first side (our content: Breakthrough's defenders go first)."""
    mission = json.loads((CONTENT / "companies/missions/breakthrough.json").read_text("utf-8"))
    squads = [
        json.loads((CONTENT / f"companies/squads/{name}.json").read_text("utf-8"))
        for name in ("hill-wardens", "red-hounds")
    ]
    open_map = {"name": "Open", "rows": [" ".join(["."] * 12)] * 12, "edges": []}
    state = new_state({"map": open_map, "mission": mission, "squads": squads})
    assert state.scenario.name == "Breakthrough" and state.scenario.first == DEFENDERS


# --- General ----------------------------------------------------------------------------------


def test_round_down_hits_by_t() -> None:
    """General: "Round down unless otherwise noted": 5 hits against T 2 take 2 R, not 3."""
    state = table()
    archers = put(state, 0, "Archers", "C3 D3 E3", ARCHERS)
    spearmen = put(state, 1, "Spearmen", "C13 D13 E13", profile(t=2))
    events = shoot(state, ScriptedDice([6] * 5 + [1] * 7 + [6, 6]), archers, spearmen)
    assert kinds(events, "pool")[0].data["r_lost"] == 2 and spearmen.r == 4


def test_round_down_half_the_mo_of_a_retreat() -> None:
    """General: "Round down unless otherwise noted"; Retreating: "half their MO distance": a
    Group of MO 5 Retreats 2"."""
    state = table()
    raiders = put(state, 0, "Raiders", "C10 D10 E10")
    spearmen = put(state, 1, "Spearmen", "C13 D13 E13", profile(mo=5))
    events = retreat(state, ScriptedDice([]), spearmen, raiders, shaken=False)
    assert kinds(events, "moved") and squares(spearmen) == "C15 D15 E15"


def test_round_down_bloodied_at_half_the_starting_r() -> None:
    """General: "Round down unless otherwise noted" (our ruling, Bloodied: at half its starting
    R or less): half of R 7 is 3, so R 3 is Bloodied and R 4 is not."""
    state = table()
    spearmen = put(state, 1, "Spearmen", "C13 D13 E13", profile(r=7), r=4)
    assert not spearmen.bloodied
    spearmen.r = 3
    assert spearmen.bloodied


def teams() -> tuple[CompaniesMatch, Group, Group, Group]:
    """Two sides of two (our ruling, team play): Alpha (seat 0) with its teammate's Bravo (seat
    2) near it, Xray (seat 1) and Yankee (seat 3) far off."""
    state = table(seats=4)
    alpha = put(state, 0, "Alpha", "C3 D3 E3", FIGHTER)
    bravo = put(state, 2, "Bravo", "G3 H3 I3", FIGHTER)
    xray = put(state, 1, "Xray", "C20 D20 E20", FIGHTER)
    put(state, 3, "Yankee", "P20 Q20 R20", FIGHTER)
    return match(state), alpha, bravo, xray


def test_a_teammates_groups_are_friendly_and_the_other_sides_are_enemies() -> None:
    """General: "Groups on the same side (attackers or defenders) are considered friendly.
    Groups on opposing sides are considered enemies" - in team play too (our ruling): a
    teammate's Group is no target, and a Move may end next to it (Cohesion keeps 3" from enemy
    Groups only)."""
    played, alpha, _, _ = teams()
    assert [g.id for g in played.state.enemies_of(alpha)] == ["Xray", "Yankee"]
    refused(played, Melee(0, "Alpha", "Bravo"), "Bravo is on your side")
    script(played, *PASS)
    played.apply(Move(0, "Alpha", "D4"))  # F4 touches Bravo's G3
    assert squares(played.state.group("Alpha")) == "D4 E4 F4"


# --- Turns --------------------------------------------------------------------------------------


def side_1_to_rally(*shaken: str) -> tuple[CompaniesMatch, State]:
    """Side 0 about to end its turn; side 1's Zulu and Alpha (fielded in that order) far off."""
    state = table()
    put(state, 0, "Spears", "C3 D3 E3", FIGHTER)
    put(state, 1, "Zulu", "C20 D20 E20", FIGHTER)
    put(state, 1, "Alpha", "P20 Q20 R20", FIGHTER)
    put(state, 1, "Fresh", "J20 K20 L20", FIGHTER)
    for name in shaken:
        state.group(name).shaken = True
    return match(state), state


def test_a_failed_rally_loses_1_r_and_retreats_but_does_not_end_the_turn() -> None:
    """Turns 1: "If unsuccessful, the Group loses 1R and retreats; this does not end the turn":
    after it, the side's other Groups activate as usual."""
    played, _ = side_1_to_rally("Zulu")
    script(played, 1, 1, *PASS)
    events = played.apply(EndTurn(0))
    zulu = played.state.group("Zulu")
    assert kinds(events, "resilience")[0].data["outcome"] == "retreat"
    assert zulu.r == 5 and zulu.shaken and squares(zulu) == "C23 D23 E23"
    started = [e.kind for e in events].index("turn_started")
    assert played.state.active == 1 and "turn_ended" not in [e.kind for e in events[started:]]
    played.apply(Move(1, "Fresh", "J18"))
    assert squares(played.state.group("Fresh")) == "J18 K18 L18"


def test_every_shaken_group_rallies_in_the_order_its_company_fielded_them() -> None:
    """Turns 1: "All Shaken friendly Groups must test to rally, but may do so in any order" (our
    ruling: the engine tests them in the order their Company fielded them)."""
    played, state = side_1_to_rally("Alpha", "Zulu")
    events = rally(state, ScriptedDice([6, 6, 6, 6]), 1)
    assert [e.data["unit"] for e in kinds(events, "resilience")] == ["Zulu", "Alpha"]


# --- Activation ---------------------------------------------------------------------------------


def two_companies() -> tuple[CompaniesMatch, Group, Group]:
    state = table()
    spears = put(state, 0, "Spears", "C3 D3 E3", FIGHTER)
    put(state, 0, "Bows", "P3 Q3 R3", ARCHERS)
    foes = put(state, 1, "Foes", "C20 D20 E20", FIGHTER)
    return match(state), spears, foes


def test_an_activation_test_meets_or_exceeds_the_minimum() -> None:
    """Activation 3: "Roll 2d6, attempting to meet or exceed the Group's minimum activation
    result for their given order": 2 + 3 meets a Move's 5, 1 + 3 does not."""
    played, spears, _ = two_companies()
    script(played, 2, 3)
    events = played.apply(Move(0, "Spears", "C5"))
    assert kinds(events, "activation_test")[0].data["passed"] is True
    assert squares(spears) == "C5 D5 E5" and played.state.active == 0
    script(played, 1, 3)
    events = played.apply(Move(0, "Bows", "P5"))
    assert kinds(events, "activation_test")[0].data["passed"] is False
    assert squares(played.state.group("Bows")) == "P3 Q3 R3" and played.state.active == 1


def test_a_shaken_group_may_not_activate() -> None:
    """Shaken Groups: "Must Test Resilience to Rally at the beginning of next turn and may not
    activate for any other reason": no order, and no die rolled for it."""
    played, spears, _ = two_companies()
    spears.shaken = True
    refused(played, Move(0, "Spears", "C5"), "Spears is Shaken")
    assert orders.orders_now(played.state, played.state.group("Spears")) == []


# --- Shooting and Attacking ---------------------------------------------------------------------


def test_shooting_needs_a_mi_profile_range_and_sight() -> None:
    """Shooting: "If the activating Group has a MI profile, they may choose a Group within range
    that they can see to Shoot": none without MI, none out of range, none it cannot see."""
    played, _, _ = two_companies()
    refused(played, Shoot(0, "Spears", "Foes"), "cannot be given a Shoot order")
    played.state.group("Foes").models = [Square.parse("P22")]  # 19" from Q3: the range is 18"
    refused(played, Shoot(0, "Bows", "Foes"), "range is 18")
    played.state.group("Foes").models = [Square.parse("P21")]  # 18"
    played.state.board = table(edges=HIGH_WALL).board
    refused(played, Shoot(0, "Bows", "Foes"), "cannot see")
    played.state.board = table().board
    script(played, *PASS, *MISS)
    assert kinds(played.apply(Shoot(0, "Bows", "Foes")), "pool")


def test_attacking_needs_a_me_profile_and_sight() -> None:
    """Attacking: "If the activating Group has a ME profile, they may choose a target within
    their movement distance that they can see to Attack": none without ME for Attacking, none
    behind a high wall it cannot see past."""
    state = table(edges=HIGH_WALL)
    put(state, 0, "Spears", "C8 D8 E8", FIGHTER)
    put(state, 0, "Levy", "P8 Q8", profile("levy", models=2, me_attack=None))
    put(state, 1, "Foes", "C12 D12 E12", FIGHTER)
    put(state, 1, "Others", "P12 Q12", FIGHTER)
    played = match(state)
    refused(played, Melee(0, "Levy", "Others"), "no ME profile")
    refused(played, Melee(0, "Spears", "Foes"), "cannot see Foes")


def attacked() -> tuple[CompaniesMatch, Group, Group]:
    state = table()
    spears = put(state, 0, "Spears", "C5 D5 E5", FIGHTER)
    guards = put(state, 1, "Guards", "C9 D9 E9", profile("guards", traits=("defiant",)))
    return match(state), spears, guards


def test_a_failed_interrupt_stands_still_and_the_attack_goes_on() -> None:
    """Attacking 1: "If successful, resolve their interrupting action; otherwise, they stand
    still and the attack continues as normal": the Defiant Group fails its test (2 + 2 against
    7), keeps its squares, and the melee is fought as any other."""
    played, spears, guards = attacked()
    played.apply(StandingOrders(1, defiant=True, elusive=True))
    script(played, *PASS, 2, 2, *MISS, *MISS)
    events = played.apply(Melee(0, "Spears", "Guards"))
    assert kinds(events, "interrupt")[0].data["passed"] is False
    assert squares(guards) == "C9 D9 E9" and orders.in_melee(played.state, spears) == [guards]
    assert [e.data["purpose"] for e in kinds(events, "pool")] == ["attack", "defend"]


def test_a_bloodied_group_rolls_6d6_in_melee() -> None:
    """Attacking 2: "Both Groups try to hit each other, rolling 6d6 if Bloodied, else rolling
    12d6" (our ruling, Bloodied: at half its starting R or less)."""
    state = table()
    attacker = put(state, 0, "Raiders", "C12 D12 E12", r=3)  # of 6: Bloodied
    defender = put(state, 1, "Spearmen", "C13 D13 E13")
    dice = ScriptedDice([1] * 6 + MISS)
    events = melee(state, dice, attacker, defender)
    assert [e.data["dice"] for e in kinds(events, "pool")] == [6, 12] and dice.remaining == 0
    attacker.r, defender.r = 6, 2
    dice = ScriptedDice(MISS + [1] * 6)
    events = melee(state, dice, attacker, defender)
    assert [e.data["dice"] for e in kinds(events, "pool")] == [12, 6] and dice.remaining == 0


# --- Terrain: base contact is not across Impassable terrain -------------------------------------


def test_groups_either_side_of_a_high_wall_are_not_in_melee() -> None:
    """Terrain, Impassable: "Models cannot move through Impassable terrain"; Attacking: "If
    already in melee, the Group may attempt to activate and either Attack or Retreat" (our
    ruling: base contact is not across Impassable terrain, as a charge holds). Spears and Foes
    stand either side of a high wall: Spears may Move away, and may not Retreat from a melee it
    is not in."""
    state = table(edges=HIGH_WALL)
    spears = put(state, 0, "Spears", "C10 D10 E10", FIGHTER)
    foes = put(state, 1, "Foes", "C11 D11 E11", FIGHTER)
    played = match(state)
    assert orders.in_melee(state, spears) == [] and orders.in_melee(state, foes) == []
    assert orders.orders_now(state, spears) == [MOVE]
    refused(played, Melee(0, "Spears", "Foes"), "cannot see Foes")
    script(played, *PASS)
    played.apply(Move(0, "Spears", "C7"))
    assert squares(played.state.group("Spears")) == "C7 D7 E7"


def test_groups_either_side_of_a_low_wall_are_in_melee() -> None:
    """Terrain, Obstacle (our ruling): across a low wall models are in base contact, fighting
    over the obstacle."""
    state = table(edges=[f"{c}10|{c}11: wall=1" for c in "CDE"])
    spears = put(state, 0, "Spears", "C10 D10 E10", FIGHTER)
    foes = put(state, 1, "Foes", "C11 D11 E11", FIGHTER)
    assert orders.in_melee(state, spears) == [foes]
    assert orders.orders_now(state, spears) == [ATTACK, RETREAT]


# --- Our rulings where the rulebook is silent ---------------------------------------------------


def summoners() -> CompaniesMatch:
    """Summoners (seat 0, Summon) and Spears far from Foes (seat 1)."""
    state = table()
    summoner = dataclasses.replace(
        profile("summoners", models=2, activation={MOVE: 5, SUMMON: 6}),
        traits=("summon",),
        summons="spirits",
    )
    profiles = {"spirits": profile("spirits", models=2), "summoners": summoner}
    state.catalogue = dataclasses.replace(state.catalogue, profiles=profiles)
    put(state, 0, "Summoners", "C3 D3", summoner)
    put(state, 0, "Spears", "P3 Q3 R3", FIGHTER)
    put(state, 1, "Foes", "C20 D20 E20", FIGHTER)
    return match(state)


def test_summon_is_used_only_by_a_pass_and_once_a_game() -> None:
    """Our content (Summon, once a game) and ruling: a failed test uses nothing, so the Group
    may Summon in a later turn; once it has, it never Summons again."""
    played = summoners()
    script(played, *FAIL)
    played.apply(Summon(0, "Summoners", "C5"))
    assert "spirits" not in played.state.groups and played.state.active == 1
    script(played, *PASS)
    played.apply(EndTurn(1))
    played.apply(Summon(0, "Summoners", "C5"))
    assert played.state.group("Spirits").summoned
    played.apply(EndTurn(0))
    played.apply(EndTurn(1))
    refused(played, Summon(0, "Summoners", "H5"), "already Summoned this game")


def test_a_reckless_group_holds_back_only_its_own_player() -> None:
    """Turns 2 (our ruling, team play): until a Reckless Group has attempted its Attack its own
    player may give no other order; their teammate plays on."""
    state = table(seats=4)
    put(state, 0, "Spears", "C5 D5 E5", FIGHTER)
    put(state, 1, "Berserkers", "C10 D10 E10", profile("berserkers", traits=("reckless",)))
    put(state, 3, "Pikes", "P20 Q20 R20", FIGHTER)
    put(state, 2, "Riders", "T3 U3 V3", FIGHTER)
    played = match(state)
    played.apply(EndTurn(0))
    played.apply(EndTurn(2))
    assert played.state.reckless == ["Berserkers"]
    refused(played, EndTurn(1), "Berserkers must first attempt to Attack")
    script(played, *PASS)
    played.apply(Move(3, "Pikes", "P18"))
    assert squares(played.state.group("Pikes")) == "P18 Q18 R18"


def test_a_group_both_defiant_and_elusive_tests_defiant() -> None:
    """Attacking 1 (our ruling): a defender with both traits tests Defiant."""
    state = table()
    put(state, 0, "Spears", "C5 D5 E5", FIGHTER)
    put(state, 1, "Guards", "C9 D9 E9", profile("guards", traits=("elusive", "defiant")))
    played = match(state)
    script(played, *PASS, 1, 1, *MISS, *MISS)
    events = played.apply(Melee(0, "Spears", "Guards"))
    assert [e.data["trait"] for e in kinds(events, "interrupt")] == ["defiant"]


def test_conceding_during_set_up_gives_the_other_side_the_match() -> None:
    """Our ruling (Conceding): when every player of a side has conceded, the other side wins -
    before the first round too."""
    state = table()
    put(state, 0, "Spears", "C3 D3 E3", FIGHTER)
    put(state, 1, "Foes", "C20 D20 E20", FIGHTER)
    state.round, state.active = 0, None
    played = match(state)
    events = played.apply(Concede(1))
    assert played.state.over and kinds(events, "match_ended")[0].data["winner"] == 0


# --- docs/rulings.md names these tests ----------------------------------------------------------

REPO = Path(__file__).resolve().parent.parent
CITED = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def group_rules_section() -> str:
    text = (REPO / "docs" / "rulings.md").read_text("utf-8")
    start = text.index("## The group rules (rulebook 003)")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def test_every_rule_row_names_tests_that_exist() -> None:
    """docs/rulings.md (the group rules): every rule row and ruling names tests that exist, none
    is left pending, and every test of this file is cited there."""
    section = group_rules_section()
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) > 60 and not [row for row in rows if "pending" in row]
    missing = [
        f"{path}::{name}"
        for path, name in CITED.findall(section)
        if not re.search(rf"^(async )?def {name}\(", (REPO / path).read_text("utf-8"), re.M)
    ]
    assert missing == []
    cited = {name for path, name in CITED.findall(section) if path.endswith("rulebook.py")}
    here = set(re.findall(r"^def (test_\w+)\(", Path(__file__).read_text("utf-8"), re.M))
    assert here - cited == set()
