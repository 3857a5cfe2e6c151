"""The group rules' engine (rulebook 003: Setup, Turns, Activation, Moving, Attacking,
Retreating) with team play (our rulings): commands in, events out, all or nothing. Every test
scripts its dice and cites the sentence it checks."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from skirmbot.rules.commands import Command, Concede, Deploy, Melee, Shoot
from skirmbot.rules.commands import Move as KernelMove
from skirmbot.rules.companies import orders
from skirmbot.rules.companies.commands import (
    Cast,
    ChooseAmbition,
    EndTurn,
    Interrupt,
    Move,
    Retreat,
    StandingOrders,
    Summon,
    parse_command,
)
from skirmbot.rules.companies.engine import CompaniesMatch
from skirmbot.rules.companies.profiles import (
    ATTACK,
    CAST,
    MOVE,
    RETREAT,
    SHOOT,
    SUMMON,
    Trait,
)
from skirmbot.rules.companies.scenarios import DEFENDERS
from skirmbot.rules.companies.setup import deploy, new_state, placement_help, roll_off
from skirmbot.rules.companies.state import Group, State
from skirmbot.rules.dice import ScriptedDice, SeededDice
from skirmbot.rules.errors import ContentError, IllegalCommand, RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.squares import Square
from tests.companies_builders import profile, put, table

CONTENT = Path(__file__).resolve().parent.parent / "skirmbot" / "content"
PASS, FAIL = [6, 6], [1, 1]  # an activation test's faces
MISS = [1] * 12  # a pool that hits nothing (a Shaken Group's or not)
FIGHTER = profile(activation={MOVE: 5, ATTACK: 6, RETREAT: 6})
ARCHERS = profile("archers", mi=4, range_=18)
TRAITS = {
    "defiant": Trait("defiant", "Defiant", "Counter-charges.", 7),
    "elusive": Trait("elusive", "Elusive", "Slips away.", 7),
    "reckless": Trait("reckless", "Reckless", "Must attack."),
}


def match(state: State, *faces: int) -> CompaniesMatch:
    state.catalogue = dataclasses.replace(state.catalogue, traits=TRAITS)
    return CompaniesMatch(state, ScriptedDice(faces))


def script(played: CompaniesMatch, *faces: int) -> None:
    played.dice = ScriptedDice(faces)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def group(played: CompaniesMatch, name: str) -> Group:
    """The Group as the match holds it now (a refused command puts back a copy of the state)."""
    return played.state.group(name)


def sq(text: str) -> Square:
    return Square.parse(text)


def squares(group: Group) -> str:
    return " ".join(str(s) for s in group.models)


def two_companies() -> tuple[CompaniesMatch, Group, Group, Group]:
    """Round 1, side 0's turn: Spears and Bows (seat 0) at the top, Foes (seat 1) far below."""
    state = table()
    spears = put(state, 0, "Spears", "C3 D3 E3", FIGHTER)
    bows = put(state, 0, "Bows", "P3 Q3 R3", ARCHERS)
    foes = put(state, 1, "Foes", "C20 D20 E20", FIGHTER)
    return match(state), spears, bows, foes


def snapshot(state: State) -> State:
    return copy.deepcopy(state, {id(state.board): state.board})


# --- commands -----------------------------------------------------------------------------------
def test_commands_parse_for_six_seats_and_kernel_verbs() -> None:
    """Our ruling (team play): two sides of up to three players, seats 0 to 5."""
    move = parse_command({"type": "move", "side": 5, "unit": "Spears", "square": "C5"})
    assert move == Move(5, "Spears", "C5")
    placed = {"type": "move", "side": 0, "unit": "Spears", "square": "C5", "models": "C5 D5"}
    assert parse_command(placed) == Move(0, "Spears", "C5", "C5 D5")
    kernel = {"type": "move", "side": 1, "unit": "Spears", "square": "C5", "orders": 0}
    assert parse_command(kernel) == KernelMove(1, "Spears", "C5", 0)
    assert parse_command({"type": "melee", "side": 2, "unit": "A", "target": "B"}) == Melee(
        2, "A", "B"
    )
    assert parse_command({"type": "interrupt", "side": 3, "use": True}) == Interrupt(3, True)
    for bad in (
        {"type": "end_turn", "side": 6},
        {"type": "interrupt", "side": 0, "use": 1},
        {"type": "retreat", "side": 0, "unit": "A", "square": "C3"},
        {"type": "shift", "side": 0},
    ):
        with pytest.raises(RulesError):
            parse_command(bad)


def test_a_kernel_move_is_played_as_the_move_order() -> None:
    """Moving: /move sends the kernel's Move; the group rules play it as the whole Group's
    Move (and refuse Tactical Orders they do not have)."""
    played, spears, _, _ = two_companies()
    script(played, *PASS)
    played.apply(KernelMove(0, "Spears", "C5"))
    assert squares(spears) == "C5 D5 E5" and played.commands == [Move(0, "Spears", "C5")]
    with pytest.raises(IllegalCommand, match="Tactical Orders"):
        played.apply(KernelMove(0, "Bows", "P5", orders=1))


# --- set-up -------------------------------------------------------------------------------------
def test_roll_off_rerolls_ties_and_higher_attacks() -> None:
    """Setup 5: "Roll 1d6 each ... higher result is the attacker. Reroll ties."."""
    state = table()
    event = roll_off(state, ScriptedDice([4, 4, 2, 5]))
    assert event.data == {"rolls": [[4, 4], [2, 5]], "attackers": 1} and state.attackers == 1


def ready_to_choose(first: str | None = None) -> tuple[CompaniesMatch, State]:
    """Deployment revealed (side 1 attacks), ambitions not yet chosen."""
    state = table()
    put(state, 0, "Spears", "C3 D3 E3")
    put(state, 1, "Foes", "C20 D20 E20")
    state.round, state.active, state.attackers = 0, None, 1
    if first is not None:
        state.scenario = dataclasses.replace(state.scenario, first=first)
    for seat in state.seats:
        seat.placed = True
    return match(state), state


def test_after_ambitions_the_attackers_take_the_first_turn() -> None:
    """Setup 7-8 and 5: "Choose ambitions. The active player takes their turn"; "Unless
    otherwise specified in the scenario, the attackers take the first turn"."""
    played, state = ready_to_choose()
    with pytest.raises(IllegalCommand, match="has not begun"):
        played.apply(EndTurn(1))
    assert played.apply(ChooseAmbition(0, "glory")) == [
        Event("ambition_chosen", "Company 0 chooses its ambition: Glory.", {"side": 0,
              "ambition": "glory"})
    ]  # fmt: skip
    events = played.apply(ChooseAmbition(1, "unbroken"))
    assert of(events, "turn_started")[0].data == {"turn": 1, "side": 1}
    assert played.state.round == 1 and played.state.active == 1


def test_a_scenario_may_give_the_defenders_the_first_turn() -> None:
    """Setup 5: "Unless otherwise specified in the scenario, the attackers take the first
    turn" (our content: breakthrough's defenders go first)."""
    played, state = ready_to_choose(DEFENDERS)
    played.apply(ChooseAmbition(0, "glory"))
    played.apply(ChooseAmbition(1, "ground"))
    assert played.state.active == 0


def test_an_ambition_is_chosen_once_from_the_catalogue() -> None:
    """Setup 7: "Choose ambitions" (our content: one per player, from the four)."""
    played, state = ready_to_choose()
    with pytest.raises(IllegalCommand, match="no ambition 'fame'"):
        played.apply(ChooseAmbition(0, "fame"))
    played.apply(ChooseAmbition(0, "glory"))
    with pytest.raises(IllegalCommand, match="already chosen"):
        played.apply(ChooseAmbition(0, "ground"))


def shipped(folder: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CONTENT / folder / f"{name}.json").read_text("utf-8"))
    return data


def shipped_content(*squads: str) -> dict[str, Any]:
    open_map = {"name": "Open", "rows": [" ".join(["."] * 12)] * 12, "edges": []}
    return {
        "map": open_map,
        "mission": shipped("companies/missions", "clash"),
        "squads": [shipped("companies/squads", name) for name in squads],
    }


def test_new_state_shares_a_sides_points_between_its_seats() -> None:
    """Setup 1 and 6: "Choose points total for each side", "each side with the same number of
    Company points" (our ruling: a side's seats share its points evenly)."""
    with pytest.raises(ContentError, match="this match allows 12 per player"):
        new_state(shipped_content("hill-wardens", "red-hounds", "hill-wardens", "red-hounds"))
    with pytest.raises(ContentError, match="2, 4 or 6 Companies"):
        new_state(shipped_content("hill-wardens", "red-hounds", "hill-wardens"))


def test_new_state_names_each_group_once_and_flags_each_captains_group() -> None:
    """Setup 4 (the Captain's Group) and our ruling (commands name Groups): a name two Companies
    share gets its seat's number."""
    state = new_state(shipped_content("hill-wardens", "hill-wardens"))
    assert [g.id for g in state.groups_of(1)][:2] == ["Knights2", "Spearmen2"]
    assert [g.id for g in state.groups.values() if g.captain] == ["Knights", "Knights2"]
    assert state.seats[0].points == sum(g.profile.points for g in state.groups_of(0))
    assert state.zones[0] and not state.zones[0] & state.zones[1]


def deployed_by_hand() -> tuple[CompaniesMatch, State]:
    state = new_state(shipped_content("hill-wardens", "red-hounds"))
    return CompaniesMatch(state, ScriptedDice([])), state


def test_deploy_by_first_square_or_every_square_then_reveal_rolls_traits_and_roll_off() -> None:
    """Setup 4-6 (our ruling: deployment is secret and simultaneous; when it is revealed each
    Captain's trait is rolled, 1d6 in seat order, then the attackers' roll-off)."""
    played, state = deployed_by_hand()
    top = {g.id: f"{'ACEGIKMOQSUW'[n]}1" for n, g in enumerate(state.groups_of(0))}
    assert played.apply(Deploy(0, top)) == []
    placed = state.groups_of(0)[0]
    assert placed.models[0] == sq(top[placed.id]) and len(placed.models) == placed.profile.models
    bottom = {g.id: f"{'AEIMQUW'[n]}22" for n, g in enumerate(state.groups_of(1))}
    first = state.groups_of(1)[0]
    bottom[first.id] = " ".join(f"{c}24" for c in "BCDEF"[: first.profile.models])
    played.dice = ScriptedDice([3, 6, 2, 5])
    events = played.apply(Deploy(1, bottom))
    assert squares(first) == bottom[first.id]
    assert [e.data for e in of(events, "captain_trait")] == [
        {"side": 0, "trait": "commanding", "roll": 3},
        {"side": 1, "trait": "swift", "roll": 6},
    ]
    assert of(events, "roll_off")[0].data == {"rolls": [[2, 5]], "attackers": 1}


def test_a_whole_match_of_shipped_content_runs_to_its_last_round() -> None:
    """Setup 1-8 and End of Game on shipped content (clash: six rounds): deployment, Captain
    traits and roll-off, ambitions, then turns by side until the last round ends."""
    played, state = deployed_by_hand()
    assert state.battle_map is not None and state.battle_map.board is state.board
    assert "Deploy Hill Wardens in your zone (A1 to X4)" in placement_help(state, 0)
    for seat, row in ((0, 1), (1, 22)):
        places = {g.id: f"{'AEIMQUW'[n]}{row}" for n, g in enumerate(state.groups_of(seat))}
        script(played, 1, 2, 6, 5)  # revealed: Captain traits bold and steady, side 0 attacks
        played.apply(Deploy(seat, places))
    assert played.state.attackers == 0
    played.apply(ChooseAmbition(0, "unbroken"))
    played.apply(ChooseAmbition(1, "unbroken"))
    for _ in range(6):
        played.apply(EndTurn(0))
        events = played.apply(EndTurn(1))
    assert played.state.over and played.state.round == 6
    assert of(events, "match_ended")[0].data["winner"] is None


@pytest.mark.parametrize(
    ("placement", "words"),
    [
        ({"Knights": "A10"}, "must deploy in Hill Wardens' zone; A10 is not"),
        ({"Knights": "A1 B1"}, "give its first model's square, or one for each"),
        ({"Knights": "A1 B1 X1"}, "in Cohesion"),
        ({"Knights": "A1 A1 B1"}, "two models on A1"),
        ({"Ghosts": "A1"}, "Place every Group of Hill Wardens once"),
        ({"Knights": "Z9"}, "off the map"),
    ],
)
def test_deployment_mistakes_are_told_in_plain_words(placement: dict[str, str], words: str) -> None:
    """Our ruling (Deployment): every Group once, in its seat's zone, in Cohesion."""
    played, state = deployed_by_hand()
    rest = {g.id: f"{'CEGIKMOQSUW'[n]}2" for n, g in enumerate(state.groups_of(0)[1:])}
    before = snapshot(state)
    with pytest.raises(IllegalCommand, match=words):
        played.apply(Deploy(0, {**rest, **placement}))
    assert played.state == before


# --- activation ---------------------------------------------------------------------------------
def test_each_group_may_activate_only_once_each_turn() -> None:
    """Activation 1: "Each Group may activate only once each turn"."""
    played, spears, _, _ = two_companies()
    script(played, *PASS)
    events = played.apply(Move(0, "Spears", "C5"))
    assert kinds(events) == ["activation_started", "activation_test", "moved", "activation_ended"]
    assert of(events, "activation_test")[0].data == {
        "unit": "Spears", "side": 0, "order": MOVE, "faces": [6, 6], "needed": 5, "passed": True
    }  # fmt: skip
    with pytest.raises(IllegalCommand, match="already activated this turn"):
        played.apply(Move(0, "Spears", "C7"))
    assert played.state.orders == 1


def test_a_failed_activation_test_ends_the_sides_turn() -> None:
    """Activation 3-4: "On a success, the Group performs the chosen order"; "If the Group
    failed their activation test, end your side's turn and the next side's turn begins"."""
    played, spears, _, _ = two_companies()
    script(played, 2, 2)
    events = played.apply(Move(0, "Spears", "C5"))
    assert squares(spears) == "C3 D3 E3"
    assert kinds(events)[-3:] == ["activation_ended", "turn_ended", "turn_started"]
    assert played.state.active == 1
    with pytest.raises(IllegalCommand, match="other side's turn"):
        played.apply(Move(0, "Bows", "P5"))


def test_choose_another_group_or_end_the_turn() -> None:
    """Activation 4: "Otherwise, choose another friendly Group to activate, or choose to end
    your turn"."""
    played, _, bows, _ = two_companies()
    script(played, *PASS, *PASS)
    played.apply(Move(0, "Spears", "C5"))
    assert played.state.active == 0
    played.apply(EndTurn(0))
    assert played.state.active == 1 and squares(bows) == "P3 Q3 R3"


def test_the_turn_passes_when_no_group_is_left_to_activate() -> None:
    """Turns: "The active side attempts to activate Groups until an activation is failed or they
    choose to end their turn" (our ruling: with none left to activate, the turn ends)."""
    played, _, _, _ = two_companies()
    script(played, *PASS, *PASS)
    played.apply(Move(0, "Spears", "C5"))
    events = played.apply(Move(0, "Bows", "P5"))
    assert "turn_ended" in kinds(events) and played.state.active == 1


def test_the_round_ends_after_each_sides_turn_and_the_game_after_its_last_round() -> None:
    """End of Game: "When the chosen scenario's closing conditions are met, total VP" (our
    content: after the scenario's rounds); a round is one turn of each side."""
    played, _, _, _ = two_companies()
    played.state.scenario = dataclasses.replace(played.state.scenario, rounds=2)
    played.apply(EndTurn(0))
    events = played.apply(EndTurn(1))
    assert of(events, "turn_started")[-1].data == {"turn": 2, "side": 0}
    played.apply(EndTurn(0))
    events = played.apply(EndTurn(1))
    assert played.state.over and of(events, "match_ended")[0].data["winner"] is None
    with pytest.raises(IllegalCommand, match="over"):
        played.apply(EndTurn(0))


# --- moving -------------------------------------------------------------------------------------
def test_cohesion_at_the_end_of_a_move() -> None:
    """Moving, Cohesion: "At the end of a Move, all models in a Group must be within 3" of at
    least one other model in that Group"."""
    played, spears, _, _ = two_companies()
    with pytest.raises(IllegalCommand):
        played.apply(Move(0, "Spears", "C5", "C5 D5 J5"))
    script(played, *PASS)
    played.apply(Move(0, "Spears", "C5", "C5 D5 G5"))
    assert squares(group(played, "Spears")) == "C5 D5 G5"


def test_a_move_ends_at_least_3_inches_from_enemy_groups() -> None:
    """Moving, Cohesion: "and must be at least 3" from enemy Groups (unless in melee with
    them)"."""
    state = table()
    spears = put(state, 0, "Spears", "C4 D4 E4", FIGHTER)
    put(state, 1, "Foes", "C12 D12 E12", FIGHTER)
    played = match(state)
    found = orders.move_squares(state, spears)
    assert sq("C9") in found and sq("C10") not in found
    before = snapshot(state)
    with pytest.raises(IllegalCommand, match="cannot Move its first model to C10"):
        played.apply(Move(0, "Spears", "C10"))
    assert played.state == before


def test_move_routes_give_the_first_models_path_and_its_cost_in_inches() -> None:
    """Terrain, Difficult: "Each inch of movement through difficult terrain costs 2" of a
    model's MO instead of 1" (what autocomplete labels a Move's squares with)."""
    rows = [" ".join(["."] * 24)] * 24
    rows[4] = " ".join(["~"] * 24)  # row 5 is Difficult ground
    state = table(rows=rows)
    spears = put(state, 0, "Spears", "C3 D3 E3", FIGHTER)
    routes = orders.move_routes(state, spears)
    assert routes[sq("C4")] == (1, (sq("C3"), sq("C4")))
    cost, path = routes[sq("C6")]
    assert cost == 4 and len(path) == 4 and path[-1] == sq("C6")
    assert sq("C8") in routes and sq("C9") not in routes  # Move 6": 2" of them for one inch


def walled() -> tuple[CompaniesMatch, Group]:
    """A low wall (an Obstacle) runs the width of the table between rows 5 and 6."""
    state = table(edges=[f"{c}5|{c}6: wall=1" for c in "ABCDEFGHIJKLMNOPQRSTUVWX"])
    scout = put(state, 0, "Scout", "C3", profile(models=1))
    put(state, 1, "Foes", "C20 D20 E20", FIGHTER)
    return match(state), scout


def test_an_obstacle_stops_a_move_in_base_contact() -> None:
    """Terrain, Obstacle: "If a model comes into base contact with an obstacle, it stops its
    Move for this activation"."""
    played, scout = walled()
    with pytest.raises(IllegalCommand):
        played.apply(Move(0, "Scout", "C8"))
    script(played, *PASS)
    played.apply(Move(0, "Scout", "C5"))
    assert squares(group(played, "Scout")) == "C5"


def test_a_move_begun_in_contact_with_an_obstacle_ignores_it() -> None:
    """Terrain, Obstacle: "If a model begins its Move in contact with an obstacle, it ignores
    the obstacle for the purposes of movement this activation"."""
    played, scout = walled()
    scout.models = [sq("C5")]
    script(played, *PASS)
    played.apply(Move(0, "Scout", "C8"))
    assert squares(scout) == "C8"


def in_melee() -> tuple[CompaniesMatch, Group, Group]:
    state = table()
    spears = put(state, 0, "Spears", "C5 D5 E5", FIGHTER)
    put(state, 0, "Bows", "P3 Q3 R3", ARCHERS)
    foes = put(state, 1, "Foes", "C6 D6 E6", FIGHTER)
    put(state, 1, "Others", "P6 Q6 R6", FIGHTER)
    return match(state), spears, foes


def test_a_group_in_melee_may_only_attack_or_retreat() -> None:
    """Attacking: "If already in melee, the Group may attempt to activate and either Attack or
    Retreat"."""
    played, spears, _ = in_melee()
    before = snapshot(played.state)
    with pytest.raises(IllegalCommand, match="in melee"):
        played.apply(Move(0, "Spears", "C2"))
    with pytest.raises(IllegalCommand, match="in melee with Foes"):
        played.apply(Melee(0, "Spears", "Others"))
    with pytest.raises(IllegalCommand, match="Foes is in melee"):
        played.apply(Shoot(0, "Bows", "Foes"))
    spears = group(played, "Spears")
    assert played.state == before and orders.orders_now(played.state, spears) == [ATTACK, RETREAT]


def test_retreat_from_melee_moves_half_mo_away_without_becoming_shaken() -> None:
    """Retreating: "A Group may activate to Retreat from melee"; "The Group moves half their MO
    distance directly away from the cause of Retreat" (our ruling: no Shaken)."""
    played, spears, foes = in_melee()
    script(played, *PASS)
    events = played.apply(Retreat(0, "Spears"))
    assert of(events, "moved")[0].data["action"] == "retreat"
    assert not orders.in_melee(played.state, spears) and not spears.shaken
    assert all(m.y < 4 for m in spears.models)


def test_only_a_group_in_melee_retreats() -> None:
    """Retreating: "A Group may activate to Retreat from melee"."""
    played, _, _, _ = two_companies()
    with pytest.raises(IllegalCommand, match="cannot be given a Retreat order"):
        played.apply(Retreat(0, "Bows"))
    with pytest.raises(IllegalCommand, match="not in melee"):
        played.apply(Retreat(0, "Spears"))


# --- turn start ---------------------------------------------------------------------------------
def test_rally_comes_first_and_a_rallying_group_does_not_activate() -> None:
    """Turns 1: "Rally Shaken Groups. All Shaken friendly Groups Test Resilience to remove
    Shaken status"; Activation: "For each Group which did not Rally or check for Reckless"."""
    played, _, _, foes = two_companies()
    foes.shaken = True
    put(played.state, 1, "Fresh", "P20 Q20 R20", FIGHTER)
    script(played, 6, 6)
    events = played.apply(EndTurn(0))
    assert kinds(events)[kinds(events).index("turn_started") + 1] == "resilience"
    assert not foes.shaken and foes.activated
    with pytest.raises(IllegalCommand, match="already activated"):
        played.apply(Move(1, "Foes", "C18"))


def reckless() -> tuple[CompaniesMatch, Group, Group]:
    """Berserkers (seat 1, Reckless) within their MO of Spears; side 0 is about to end its turn."""
    state = table()
    put(state, 0, "Spears", "C5 D5 E5", FIGHTER)
    wild = profile("berserkers", traits=("reckless",))
    berserkers = put(state, 1, "Berserkers", "C10 D10 E10", wild)
    others = put(state, 1, "Others", "P20 Q20 R20", FIGHTER)
    return match(state), berserkers, others


def test_reckless_groups_must_attempt_to_attack_first() -> None:
    """Turns 2: "If any friendly Group with the Reckless trait is within their movement range of
    an enemy, they must attempt to activate to Attack an enemy Group of your choice in range"."""
    played, _, _ = reckless()
    events = played.apply(EndTurn(0))
    assert "reckless" in kinds(events) and played.state.reckless == ["Berserkers"]
    with pytest.raises(IllegalCommand, match="Berserkers must first attempt to Attack"):
        played.apply(Move(1, "Others", "P18"))
    with pytest.raises(IllegalCommand, match="Berserkers must first attempt to Attack"):
        played.apply(EndTurn(1))
    with pytest.raises(IllegalCommand, match="Reckless: it must attempt to Attack"):
        played.apply(Move(1, "Berserkers", "C14"))


def test_a_reckless_failure_leaves_it_stationary_and_does_not_end_the_turn() -> None:
    """Turns 2: "If successful, Attack as normal; otherwise, they remain stationary, but this
    does not end the turn"."""
    played, berserkers, others = reckless()
    played.apply(EndTurn(0))
    script(played, *FAIL, *PASS)
    events = played.apply(Melee(1, "Berserkers", "Spears"))
    assert "turn_ended" not in kinds(events) and played.state.active == 1
    assert squares(berserkers) == "C10 D10 E10" and berserkers.activated
    played.apply(Move(1, "Others", "P18"))
    assert squares(others) == "P18 Q18 R18"


def test_every_reckless_group_of_a_company_must_attempt() -> None:
    """Turns 2: "If any friendly Group with the Reckless trait is within their movement range of
    an enemy, they must attempt to activate to Attack"."""
    played, _, _ = reckless()
    wild = profile("berserkers", traits=("reckless",))
    put(played.state, 1, "Wolves", "J10 K10 L10", wild)
    played.apply(EndTurn(0))
    assert played.state.reckless == ["Berserkers", "Wolves"]
    script(played, *FAIL)
    played.apply(Melee(1, "Wolves", "Spears"))
    with pytest.raises(IllegalCommand, match="Berserkers must first attempt to Attack"):
        played.apply(EndTurn(1))


# --- the Attack ---------------------------------------------------------------------------------
def attack(traits: tuple[str, ...] = ("defiant",)) -> tuple[CompaniesMatch, Group, Group]:
    state = table()
    spears = put(state, 0, "Spears", "C5 D5 E5", FIGHTER)
    put(state, 0, "Bows", "P3 Q3 R3", ARCHERS)
    guards = put(state, 1, "Guards", "C9 D9 E9", profile("guards", traits=traits))
    return match(state), spears, guards


def test_an_attack_charges_into_base_contact_and_both_groups_roll() -> None:
    """Attacking: "Move as many models as possible into base contact with the defending Group";
    "Both Groups try to hit each other"."""
    played, spears, guards = attack(())
    script(played, *PASS, *MISS, *MISS)
    events = played.apply(Melee(0, "Spears", "Guards"))
    assert of(events, "moved")[0].data["action"] == "charge"
    assert orders.in_melee(played.state, spears) == [guards]
    assert [e.data["purpose"] for e in of(events, "pool")] == ["attack", "defend"]


def test_a_prompted_defender_answers_the_interrupt_itself() -> None:
    """Attacking 1: "If the defending Group has the Defiant or Elusive traits, they may test to
    activate that trait" (our ruling: a player who asked to be prompted answers)."""
    played, _, _ = attack()
    played.apply(StandingOrders(1, defiant=True, elusive=True, prompt=True))
    script(played, *PASS)
    events = played.apply(Melee(0, "Spears", "Guards"))
    assert kinds(events)[-1] == "interrupt_asked" and played.state.pending is not None
    with pytest.raises(IllegalCommand, match="Waiting for Company 1 to answer"):
        played.apply(EndTurn(0))
    with pytest.raises(IllegalCommand, match="No Attack is waiting"):
        played.apply(Interrupt(0, True))
    script(played, 4, 4, *MISS, *MISS)
    events = played.apply(Interrupt(1, True))
    assert of(events, "interrupt")[0].data == {
        "unit": "Guards", "trait": "defiant", "faces": [4, 4], "needed": 7, "passed": True
    }  # fmt: skip
    assert [e.data["purpose"] for e in of(events, "pool")] == ["defend", "attack"]
    assert kinds(events)[-1] == "activation_ended" and played.state.pending is None


def test_a_prompted_defenders_standing_orders_answer_when_it_does_not() -> None:
    """Our ruling (reaction window): a prompted player who does not answer in time answers as
    their standing orders say, trait by trait."""
    played, _, _ = attack()
    played.apply(StandingOrders(1, defiant=False, elusive=True, prompt=True))
    assert not orders.standing_answer(played.state, 1, "defiant")
    assert orders.standing_answer(played.state, 1, "elusive")


def test_standing_orders_test_the_interrupt_without_asking() -> None:
    """Attacking 1: "they may test to activate that trait. If successful, resolve their
    interrupting action; otherwise, they stand still" (our ruling: standing orders decide)."""
    played, _, _ = attack()
    script(played, *PASS, 2, 2, *MISS, *MISS)
    events = played.apply(Melee(0, "Spears", "Guards"))
    assert of(events, "interrupt")[0].data["passed"] is False
    assert [e.data["purpose"] for e in of(events, "pool")] == ["attack", "defend"]
    played2, _, _ = attack()
    played2.apply(StandingOrders(1, defiant=False, elusive=False))
    script(played2, *PASS, *MISS, *MISS)
    assert "interrupt" not in kinds(played2.apply(Melee(0, "Spears", "Guards")))


def test_a_shaken_defender_tests_no_interrupt() -> None:
    """Shaken Groups: "may not activate for any other reason" than to Rally (our ruling: nor
    test Defiant or Elusive when attacked)."""
    played, _, guards = attack()
    guards.shaken = True
    script(played, *PASS, *MISS, *MISS)
    events = played.apply(Melee(0, "Spears", "Guards"))
    assert "interrupt" not in kinds(events) and of(events, "pool")[1].data["needed"] == 6


def test_an_elusive_success_retreats_before_the_charge() -> None:
    """Attacking 1 (our content, Elusive): it Retreats half its MO from the attacker without
    becoming Shaken, and the attacker charges as far as it can."""
    played, spears, guards = attack(("elusive",))
    script(played, *PASS, 4, 4, *MISS, *MISS)
    events = played.apply(Melee(0, "Spears", "Guards"))
    moved = of(events, "moved")
    assert [e.data["action"] for e in moved] == ["retreat", "charge"]
    assert not guards.shaken and orders.in_melee(played.state, spears) == [guards]


def test_an_elusive_target_out_of_reach_leaves_the_attacker_short_and_no_melee() -> None:
    """Attacking 1 (our content, Elusive): "the attacker charges as far as it can" and the melee
    happens only if a model reaches base contact (our ruling: it ends its charge as near as its
    Move allows, 3" from the enemy by Cohesion)."""
    state = table()
    spears = put(state, 0, "Spears", "C5 D5 E5", FIGHTER)
    put(state, 0, "Bows", "P3 Q3 R3", ARCHERS)
    guards = put(state, 1, "Guards", "C9 D9 E9", profile("guards", mo=10, traits=("elusive",)))
    played = match(state)
    script(played, *PASS, 4, 4)
    events = played.apply(Melee(0, "Spears", "Guards"))
    assert [e.data["action"] for e in of(events, "moved")] == ["retreat", "charge"]
    assert squares(guards) == "C14 D14 E14" and squares(spears) == "C11 D11 E11"
    assert "pool" not in kinds(events) and kinds(events)[-1] == "activation_ended"


def test_an_attack_needs_a_target_within_movement_distance() -> None:
    """Attacking: "they may choose a target within their movement distance that they can see
    to Attack"."""
    played, _, _, _ = two_companies()
    with pytest.raises(IllegalCommand, match='Foes is 17" away; Spears moves 6"'):
        played.apply(Melee(0, "Spears", "Foes"))
    with pytest.raises(IllegalCommand, match="Bows is on your side"):
        played.apply(Melee(0, "Spears", "Bows"))


def test_shooting_with_the_kernel_verb() -> None:
    """Shooting: "If the activating Group has a MI profile, they may choose a Group within
    range that they can see to Shoot" (/shoot sends the kernel's Shoot)."""
    played, _, _, _ = two_companies()
    script(played, *PASS, *MISS)
    events = played.apply(Shoot(0, "Bows", "Foes"))
    assert of(events, "pool")[0].data["purpose"] == "shoot"
    assert kinds(events)[-1] == "activation_ended" and played.state.active == 0


def test_the_game_ends_when_a_side_has_no_group_left() -> None:
    """End of Game: "When the chosen scenario's closing conditions are met" (our content: a side
    with no Group left on the table)."""
    played, _, guards = attack(())
    guards.r = 1
    script(played, *PASS, *[6] * 12, *MISS)
    events = played.apply(Melee(0, "Spears", "Guards"))
    assert guards.routed and played.state.over
    assert kinds(events)[-1] == "match_ended" and of(events, "match_ended")[0].data["winner"] == 0


# --- special orders -----------------------------------------------------------------------------
def test_summon_places_a_new_group_that_may_not_activate_this_turn() -> None:
    """Activation 2: "any available special orders like Cast or Summon" (our content: Summon,
    once a game, a new Group within 3" of the summoner and at least 3" from enemies)."""
    state = table()
    spirits = profile("spirits", models=2)
    summoner = dataclasses.replace(
        profile("summoners", models=2, activation={MOVE: 5, SUMMON: 6}),
        traits=("summon",),
        summons="spirits",
    )
    state.catalogue = dataclasses.replace(
        state.catalogue, profiles={"spirits": spirits, "summoners": summoner}
    )
    put(state, 0, "Summoners", "C3 D3", summoner)
    put(state, 0, "Spears", "P3 Q3 R3", FIGHTER)
    put(state, 1, "Foes", "C20 D20 E20", FIGHTER)
    played = match(state)
    with pytest.raises(IllegalCommand, match="cannot Summon at C10"):
        played.apply(Summon(0, "Summoners", "C10"))
    script(played, *PASS)
    events = played.apply(Summon(0, "Summoners", "C5"))
    new = group(played, "Spirits")
    assert of(events, "summoned")[0].data["unit"] == "Spirits" and new.summoned
    assert new.models[0] == sq("C5") and len(new.models) == 2 and new.seat == 0
    with pytest.raises(IllegalCommand, match="already activated"):
        played.apply(Move(0, "Spirits", "C7"))


def test_cast_hexes_an_enemy_group_within_12_inches() -> None:
    """Activation 2: special orders "like Cast" (our content: a Hex on an enemy Group within 12"
    it can see: it loses 1 R and Tests Resilience)."""
    state = table()
    hexers = dataclasses.replace(profile("hexers", activation={MOVE: 5, CAST: 7}), traits=("cast",))
    put(state, 0, "Hexers", "C3 D3 E3", hexers)
    put(state, 0, "Spears", "P3 Q3 R3", FIGHTER)
    foes = put(state, 1, "Foes", "C15 D15 E15", FIGHTER)
    played = match(state)
    with pytest.raises(IllegalCommand, match='Foes is 13" away; a hex reaches 12"'):
        foes.models = [sq("C16"), sq("D16"), sq("E16")]
        played.apply(Cast(0, "Hexers", "Foes"))
    foes = group(played, "Foes")
    foes.models = [sq("C15"), sq("D15"), sq("E15")]
    script(played, *PASS, 6, 6)
    events = played.apply(Cast(0, "Hexers", "Foes"))
    assert foes.r == 5 and "resilience" in kinds(events)


# --- team play ----------------------------------------------------------------------------------
def teams() -> tuple[CompaniesMatch, State]:
    """Two sides of two: seats 0 and 2 (side 0) against seats 1 and 3 (side 1)."""
    state = table(seats=4)
    put(state, 0, "Alpha", "C3 D3 E3", FIGHTER)
    put(state, 2, "Bravo", "P3 Q3 R3", FIGHTER)
    put(state, 1, "Xray", "C20 D20 E20", FIGHTER)
    put(state, 3, "Yankee", "P20 Q20 R20", FIGHTER)
    return match(state), state


def test_team_play_both_seats_of_a_side_activate_in_its_turn() -> None:
    """Our ruling (team play): a turn is a side's; every seat of it activates its own Groups."""
    played, _ = teams()
    assert orders.acting_seats(played.state) == [0, 2]
    with pytest.raises(IllegalCommand, match="Bravo is not in Company 0"):
        played.apply(Move(0, "Bravo", "P5"))
    script(played, *PASS, *PASS)
    played.apply(Move(2, "Bravo", "P5"))
    assert played.state.active == 0 and orders.acting_seats(played.state) == [0]
    events = played.apply(Move(0, "Alpha", "C5"))
    assert "turn_ended" in kinds(events) and played.state.active == 1
    assert orders.acting_seats(played.state) == [1, 3]


def test_team_play_one_failure_ends_the_turn_for_the_whole_side() -> None:
    """Activation 4: "If the Group failed their activation test, end your side's turn"."""
    played, _ = teams()
    script(played, *FAIL)
    played.apply(Move(0, "Alpha", "C5"))
    assert played.state.active == 1
    with pytest.raises(IllegalCommand, match="other side's turn"):
        played.apply(Move(2, "Bravo", "P5"))


def test_team_play_ending_a_part_leaves_the_teammate_to_play() -> None:
    """Activation 4: "choose to end your turn" (our ruling: each seat ends its own part; the
    turn passes when every seat of the side has)."""
    played, _ = teams()
    played.apply(EndTurn(0))
    assert played.state.active == 0 and orders.acting_seats(played.state) == [2]
    with pytest.raises(IllegalCommand, match="ended its part"):
        played.apply(Move(0, "Alpha", "C5"))
    played.apply(EndTurn(2))
    assert played.state.active == 1


def test_team_play_a_conceding_company_leaves_and_its_teammate_plays_on() -> None:
    """Our ruling (team play): a conceding player's Groups leave the table (Routed for the
    scenario, no tests follow); the side loses when all its players have conceded."""
    played, _ = teams()
    events = played.apply(Concede(2))
    assert group(played, "Bravo").routed and not played.state.over
    assert of(events, "routed")[0].data["reason"] == "conceded"
    assert "resilience" not in kinds(events)
    script(played, *PASS)
    played.apply(Move(0, "Alpha", "C5"))
    assert played.state.active == 1
    with pytest.raises(IllegalCommand, match="has left the match"):
        played.apply(EndTurn(2))
    events = played.apply(Concede(0))
    assert played.state.over and of(events, "match_ended")[0].data["winner"] == 1


# --- all or nothing -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        Move(0, "Spears", "X24"),
        Move(0, "Foes", "C18"),
        Move(1, "Foes", "C18"),
        Move(0, "Spears", "C5", "C5 D5"),
        Move(0, "Spears", "C6", "C5 D5 E5"),
        Shoot(0, "Spears", "Foes"),
        Shoot(0, "Bows", "Foes", weapon="Longbow"),
        Melee(0, "Spears", "Bows"),
        Cast(0, "Spears", "Foes"),
        Summon(0, "Spears", "C5"),
        Retreat(0, "Spears"),
        Interrupt(1, True),
        ChooseAmbition(0, "glory"),
        Deploy(0, {"Spears": "C3"}),
        EndTurn(1),
        EndTurn(7),
        Move(0, "Nobody", "C5"),
    ],
)
def test_an_illegal_command_changes_nothing_and_rolls_nothing(command: Command) -> None:
    """Activation: an order is checked before its test (our ruling: an illegal order changes
    nothing and rolls no die)."""
    played, _, _, _ = two_companies()
    script(played, *PASS)
    before = snapshot(played.state)
    with pytest.raises(IllegalCommand):
        played.apply(command)
    assert played.state == before and played.commands == [] and played.log == []
    assert isinstance(played.dice, ScriptedDice) and played.dice.remaining == 2


# --- the order queries and the engine agree -----------------------------------------------------
def offered(state: State, seat: int, rng: random.Random) -> list[Command]:
    """One command for each order the queries say a Group of the seat may be given now (a
    random square or target of those offered), an answer to an Attack, or the end of its part."""
    pending = state.pending
    if pending is not None:
        mine = state.group(pending.target).seat == seat
        return [Interrupt(seat, rng.random() < 0.5)] if mine else []
    if seat not in orders.acting_seats(state):
        return []
    choices: dict[str, Any] = {
        MOVE: lambda g: Move(seat, g.id, str(rng.choice(list(orders.move_squares(state, g))))),
        SHOOT: lambda g: Shoot(seat, g.id, rng.choice(orders.shoot_targets(state, g)).id),
        ATTACK: lambda g: Melee(seat, g.id, rng.choice(orders.attack_targets(state, g)).id),
        RETREAT: lambda g: Retreat(seat, g.id),
        CAST: lambda g: Cast(seat, g.id, rng.choice(orders.cast_targets(state, g)).id),
        SUMMON: lambda g: Summon(
            seat, g.id, str(rng.choice(list(orders.summon_squares(state, g))))
        ),
    }
    found = [choices[o](g) for g in state.groups_of(seat) for o in orders.orders_now(state, g)]
    return found if orders.reckless_of(state, seat) else [*found, EndTurn(seat)]


@pytest.mark.parametrize(
    ("seed", "squads"),
    [
        (1, ("hill-wardens", "red-hounds")),
        (2, ("ember-circle", "iron-lances", "red-hounds", "thornwatch")),
        (3, ("lone-lance", "shield-oath", "wild-hunt", "lone-lance", "shield-oath", "wild-hunt")),
    ],
)
def test_every_order_the_queries_offer_is_accepted(seed: int, squads: tuple[str, ...]) -> None:
    """Activation 2: "Assign a valid order to the chosen Group": what the order queries offer
    (the menu's and autocomplete's source) the engine accepts, through whole seeded matches of
    1, 2 and 3 players a side, with no seat ever left without a command while the match goes
    on (side 1's first player answers each Attack on its Groups itself)."""
    rng = random.Random(seed)
    content = {**shipped_content(*squads), "map": shipped("maps", "ruined-chapel")}
    played = CompaniesMatch(new_state(content), SeededDice(seed))
    for seat in range(len(squads)):
        played.apply(played_placement(played.state, seat, rng))
    for seat in range(len(squads)):
        played.apply(ChooseAmbition(seat, "glory"))
    played.apply(StandingOrders(1, prompt=True))
    while not played.state.over:
        found = [c for seat in range(len(squads)) for c in offered(played.state, seat, rng)]
        assert found, "a match going on always waits on some seat"
        orders_only = [c for c in found if not isinstance(c, EndTurn)]
        played.apply(rng.choice(orders_only if orders_only and rng.random() < 0.9 else found))
    assert played.state.round >= 1 and played.log[-1].kind == "match_ended"


def played_placement(state: State, seat: int, rng: random.Random) -> Deploy:
    """Each Group by a random square of the seat's zone where it fits."""
    zone = sorted(state.zones[seat])
    while True:
        trial = copy.deepcopy(state, {id(state.board): state.board})
        placements = {g.id: str(rng.choice(zone)) for g in state.groups_of(seat)}
        try:
            deploy(trial, seat, placements)
        except IllegalCommand:
            continue
        return Deploy(seat, placements)
