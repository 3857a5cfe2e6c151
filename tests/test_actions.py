"""Actions and what they cost (rulebook Actions, Basic Actions, Tactical Orders, Movement, Items:
Crate; Special Rules 2RC/2MC/LIM; rulings: Turns and activations, Movement, Items).

Side 0 (Red) has the initiative in every match here, so its unit acts first.
"""

from __future__ import annotations

from typing import Any

from builders import KNIFE, RIFLE, of, refused, skirm_match, unit, weapon

from skirmbot.rules.commands import Dash, Door, Drop, EndActivation, Melee, Move, PickUp, Shoot
from skirmbot.rules.events import Event
from skirmbot.rules.skirm.commands import OpenCrate
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.state import ACTIVATED

PISTOL = weapon("Pistol", "ranged", 1, 1, "RG8")
CARBINE = weapon("Carbine", "ranged", 1, 1, "RG8", "2RC")
GRENADE = weapon("Grenade", "ranged", 1, 2, "RG4", "LIM")


def paid(events: list[Event]) -> list[tuple[str, int, int]]:
    """(action, ACT, TO) of every cost paid in these events."""
    return [
        (e.data["action"], e.data["act"], e.data["orders"]) for e in events if e.kind == "cost_paid"
    ]




def duel(**red: Any) -> dict[int, list[tuple[dict[str, Any], str]]]:
    """Red's Remus on C3 (card as given) against Blue's Vex far away on C10."""
    return {0: [unit("Remus", "C3", **red)], 1: [unit("Vex", "C10")]}


# --- costs -----------------------------------------------------------------------------------------
def test_move_then_move_costs_one_then_two() -> None:
    """Rulebook Actions: the first Move costs 1 ACT, the repeated Move 2 (1 + 2 = 3 ACT)."""
    match = skirm_match(duel())
    events = match.apply(Move(0, "Remus", "C4")) + match.apply(Move(0, "Remus", "C5"))
    assert paid(events) == [("move", 1, 0), ("move", 2, 0)]
    assert str(match.state.units["Remus"].square) == "C5"


def test_third_repeat_costs_three() -> None:
    """Rulebook Actions: each repeat costs one more ACT than the listed cost: 1, 2, then 3."""
    match = skirm_match(duel(act=4), orders=(2, 0))
    match.apply(Move(0, "Remus", "C4"))
    match.apply(Move(0, "Remus", "C5"))
    assert match.state.activation is not None and match.state.activation.act_left == 1
    refused(
        match,
        Move(0, "Remus", "C6"),
        "Move costs 3 and Remus has 1 ACT left: spend 2 Tactical Orders",
    )
    events = match.apply(Move(0, "Remus", "C6", orders=2))
    assert paid(events) == [("move", 1, 2)]
    assert match.state.squads[0].orders == 0


def test_different_actions_each_cost_their_listed_act() -> None:
    """Rulebook Basic Actions: Move, Dash/Crawl and Ranged Attack are different actions, each
    costing 1 ACT the first time."""
    match = skirm_match(duel(), faces=[6, 6])
    events = match.apply(Move(0, "Remus", "C5"))
    events += match.apply(Dash(0, "Remus", "C6"))
    events += match.apply(Shoot(0, "Remus", "Vex"))
    assert paid(events) == [("move", 1, 0), ("dash", 1, 0), ("ranged", 1, 0)]
    assert match.dice.remaining == 0


def test_dash_repeated_costs_two() -> None:
    """Rulebook Actions: repeating Dash/Crawl costs one more, like any action."""
    match = skirm_match(duel())
    events = match.apply(Dash(0, "Remus", "C4")) + match.apply(Dash(0, "Remus", "C5"))
    assert paid(events) == [("dash", 1, 0), ("dash", 2, 0)]


def test_2rc_unit_second_ranged_attack_costs_one_third_costs_three() -> None:
    """Rulebook Unit Special Rules 2RC: two Ranged Attacks for 1 ACT each; a third costs 3."""
    match = skirm_match(duel(specials=["2RC"]), faces=[6, 6, 6, 6])
    events = match.apply(Shoot(0, "Remus", "Vex")) + match.apply(Shoot(0, "Remus", "Vex"))
    assert paid(events) == [("ranged", 1, 0), ("ranged", 1, 0)]
    refused(match, Shoot(0, "Remus", "Vex"), "Ranged Attack costs 3")
    assert match.dice.remaining == 0


def test_2rc_weapon_used_for_the_second_attack() -> None:
    """Rulebook Weapon Special Rules 2RC: two Ranged Attacks for 1 ACT each as long as this
    weapon is used for at least one of them (here the second)."""
    match = skirm_match(duel(weapons=[PISTOL, CARBINE]), faces=[6, 6])
    events = match.apply(Shoot(0, "Remus", "Vex", "Pistol"))
    events += match.apply(Shoot(0, "Remus", "Vex", "Carbine"))
    assert paid(events) == [("ranged", 1, 0), ("ranged", 1, 0)]
    refused(match, Shoot(0, "Remus", "Vex", "Carbine"), "Ranged Attack costs 3")


def test_2rc_weapon_used_for_the_first_attack() -> None:
    """Rulebook Weapon Special Rules 2RC: the 2RC weapon fired first also makes the second
    attack, with another weapon, cost 1."""
    match = skirm_match(duel(weapons=[PISTOL, CARBINE]), faces=[6, 6])
    events = match.apply(Shoot(0, "Remus", "Vex", "Carbine"))
    events += match.apply(Shoot(0, "Remus", "Vex", "Pistol"))
    assert paid(events) == [("ranged", 1, 0), ("ranged", 1, 0)]


def test_without_2rc_the_second_attack_costs_two() -> None:
    """Rulebook Actions: without 2RC a repeated Ranged Attack costs 2."""
    match = skirm_match(duel(weapons=[PISTOL, CARBINE]), faces=[6, 6])
    events = match.apply(Shoot(0, "Remus", "Vex", "Pistol"))
    events += match.apply(Shoot(0, "Remus", "Vex", "Pistol"))
    assert paid(events) == [("ranged", 1, 0), ("ranged", 2, 0)]


def test_2mc_unit_second_melee_costs_one_third_costs_three() -> None:
    """Rulebook Unit Special Rules 2MC: two Melee Attacks for 1 ACT each; a third costs 3."""
    match = skirm_match(
        {0: [unit("Remus", "C3", specials=["2MC"])], 1: [unit("Vex", "C4")]},
        faces=[6, 6, 6, 6],
    )
    events = match.apply(Melee(0, "Remus", "Vex")) + match.apply(Melee(0, "Remus", "Vex"))
    assert paid(events) == [("melee", 1, 0), ("melee", 1, 0)]
    refused(match, Melee(0, "Remus", "Vex"), "Melee Attack costs 3")


def test_2rc_does_not_cheapen_melee() -> None:
    """Rulebook Special Rules: 2RC is about Ranged Attacks; a second Melee Attack costs 2."""
    match = skirm_match(
        {0: [unit("Remus", "C3", specials=["2RC"])], 1: [unit("Vex", "C4")]},
        faces=[6, 6, 6, 6],
    )
    events = match.apply(Melee(0, "Remus", "Vex")) + match.apply(Melee(0, "Remus", "Vex"))
    assert paid(events) == [("melee", 1, 0), ("melee", 2, 0)]


# --- paying with Tactical Orders -----------------------------------------------------------------
def test_pay_an_action_with_tactical_orders() -> None:
    """Rulebook Actions: ACT costs may be paid with the squad's Tactical Orders instead."""
    match = skirm_match(duel(), orders=(2, 0))
    events = match.apply(Move(0, "Remus", "C4", orders=1))
    assert paid(events) == [("move", 0, 1)]
    assert match.state.activation is not None and match.state.activation.act_left == 3
    assert match.state.squads[0].orders == 1


def test_pay_one_act_and_one_order() -> None:
    """Rulebook Actions: "you can spend 1 ACT + 1 TO" for an action costing 2."""
    match = skirm_match(duel(), orders=(1, 0))
    match.apply(Move(0, "Remus", "C4"))
    match.apply(Dash(0, "Remus", "C5"))
    events = match.apply(Move(0, "Remus", "C6", orders=1))
    assert paid(events) == [("move", 1, 1)]
    assert match.state.squads[0].orders == 0


def test_short_of_act_without_orders_refused_naming_the_orders_needed() -> None:
    """Rulebook Actions/Tactical Orders: with too little ACT, the player is told how many TO
    would pay for the action."""
    match = skirm_match(duel(), orders=(2, 0))
    match.apply(Move(0, "Remus", "C4"))
    match.apply(Move(0, "Remus", "C5"))
    refused(
        match,
        Dash(0, "Remus", "C6"),
        "Dash costs 1 and Remus has 0 ACT left: spend 1 Tactical Order to do it (your squad has 2).",
    )
    refused(
        match,
        Move(0, "Remus", "C8"),
        "Move costs 3; Remus has 0 ACT left and your squad has 2 Tactical Orders, which is not enough.",
    )
    assert paid(match.apply(Dash(0, "Remus", "C6", orders=1))) == [("dash", 0, 1)]


def test_orders_offered_must_fit_the_cost_and_the_squad() -> None:
    """Rulebook Tactical Orders: only TO the squad has, and no more than the action costs."""
    match = skirm_match(duel(), orders=(1, 0))
    refused(
        match,
        Move(0, "Remus", "C4", orders=2),
        "Move costs 1; you cannot spend 2 Tactical Orders on it.",
    )
    match.apply(Move(0, "Remus", "C4"))
    refused(
        match,
        Move(0, "Remus", "C6", orders=2),
        "You asked to spend 2 Tactical Orders but your squad has 1.",
    )
    refused(match, Move(0, "Remus", "C6", orders=-1), "cannot be negative")


def test_activation_ends_by_itself_at_zero_act_and_zero_orders() -> None:
    """Rulings: An activation: with no ACT and no Tactical Orders left nothing more can be
    done, so the activation ends and the other squad is next."""
    match = skirm_match(duel())
    events = match.apply(Move(0, "Remus", "C4")) + match.apply(Move(0, "Remus", "C5"))
    assert of(events, "activation_ended") == [
        {"unit": "Remus", "side": 0, "reason": "no ACT or Tactical Orders left"}
    ]
    assert match.state.activation is None and match.state.to_act == 1
    assert match.state.units["Remus"].status == ACTIVATED


def test_activation_goes_on_at_zero_act_while_orders_are_left() -> None:
    """Rulebook Tactical Orders: TO buy actions beyond ACT, so the activation waits at 0 ACT and
    ends when the last TO is spent."""
    match = skirm_match(duel(), orders=(1, 0))
    match.apply(Move(0, "Remus", "C4"))
    events = match.apply(Move(0, "Remus", "C5"))
    assert "activation_ended" not in [e.kind for e in events]
    activation = match.state.activation
    assert activation is not None and activation.act_left == 0
    events = match.apply(Dash(0, "Remus", "C6", orders=1))
    assert [e.kind for e in events][-1] == "activation_ended"
    assert match.state.to_act == 1


# --- Move and Dash -------------------------------------------------------------------------------
def test_move_event_gives_path_and_cost() -> None:
    """Rulebook Basic Actions/Movement: a Move goes up to 3 squares; the moved event shows the
    path the bot chose and what it cost."""
    match = skirm_match({0: [unit("Remus", "A3")], 1: [unit("Vex", "C10")]})
    events = match.apply(Move(0, "Remus", "A6"))
    assert of(events, "moved") == [
        {"unit": "Remus", "path": ["A3", "A4", "A5", "A6"], "cost": 3, "action": "move"}
    ]


def test_move_over_a_low_wall_costs_two() -> None:
    """Rulebook Vertical Movement: crossing a 1-high wall costs 2 squares of movement."""
    walls = [f"{c}4|{c}5: wall=1" for c in "ABCDEFGHIJKL"]
    match = skirm_match({0: [unit("Remus", "C4")], 1: [unit("Vex", "C10")]}, edges=walls)
    events = match.apply(Move(0, "Remus", "C6"))
    assert of(events, "moved")[0]["path"] == ["C4", "C5", "C6"]
    assert of(events, "moved")[0]["cost"] == 3


def test_dash_moves_one_square() -> None:
    """Rulebook Basic Actions: Dash/Crawl moves up to 1 square, following the Move rules."""
    match = skirm_match(duel())
    events = match.apply(Dash(0, "Remus", "D4"))
    assert of(events, "moved") == [
        {"unit": "Remus", "path": ["C3", "D4"], "cost": 1, "action": "dash"}
    ]


def test_unreachable_square_refused_with_the_reachable_list() -> None:
    """Rulebook Basic Actions: a Dash cannot go 2 squares; the message lists where it can go."""
    match = skirm_match(duel())
    refused(
        match,
        Dash(0, "Remus", "C5"),
        "Remus cannot reach C5 with a Dash (1 square of movement): C5 is 2 squares away. "
        "Remus can reach: B2 (1), C2 (1), D2 (1), B3 (1), D3 (1), B4 (1), C4 (1), D4 (1).",
    )
    refused(match, Move(0, "Remus", "C7"), "C7 is 4 squares away")
    refused(match, Move(0, "Remus", "C3"), "Remus is already on C3.")


def test_move_to_a_square_off_the_map_refused() -> None:
    """Rulings: Coordinates: squares run from A1 to the map's last square; another square is an
    illegal command with the map's bounds in the message."""
    match = skirm_match(duel())
    refused(match, Move(0, "Remus", "M3"), "M3 is off the map: squares run from A1 to L12.")
    refused(match, Move(0, "Remus", "here"), "is not a square")


def test_move_onto_an_occupied_square_refused() -> None:
    """Rulebook Occupied Squares: two units cannot share a square."""
    match = skirm_match({0: [unit("Remus", "C3"), unit("Ann", "C5")], 1: [unit("Vex", "C10")]})
    refused(match, Move(0, "Remus", "C5"), "Ann stands there")


# --- doors -------------------------------------------------------------------------------------------
def test_door_open_and_close_toggle_and_cost() -> None:
    """Rulebook Basic Actions: Open/Close Door (1 ACT) opens or closes a door on an edge of the
    unit's square; doing it again is a repeat (2 ACT)."""
    match = skirm_match(duel(), edges=["C3|C4: door=closed"])
    events = match.apply(Door(0, "Remus"))
    assert of(events, "door") == [{"unit": "Remus", "edge": "C3|C4", "open": True}]
    assert match.state.to_json()["doors"] == {"C3|C4": True}
    events = match.apply(Door(0, "Remus", "C4"))
    assert of(events, "door") == [{"unit": "Remus", "edge": "C3|C4", "open": False}]
    assert paid(events) == [("door", 2, 0)]
    assert match.state.to_json()["doors"] == {"C3|C4": False}


def test_open_door_lets_the_unit_through() -> None:
    """Rulings: Doors: a closed door cannot be crossed; an open one costs like a bare edge."""
    match = skirm_match(duel(), edges=["C3|C4: door=closed"])
    refused(match, Dash(0, "Remus", "C4"), "cannot reach C4")
    match.apply(Door(0, "Remus"))
    events = match.apply(Dash(0, "Remus", "C4"))
    assert of(events, "moved")[0]["path"] == ["C3", "C4"]


def test_door_refused_without_a_door() -> None:
    """Rulebook Basic Actions: the door must be on one of the edges of the unit's square."""
    match = skirm_match(duel(), edges=["E3|E4: door=closed"])
    refused(match, Door(0, "Remus"), "There is no door on an edge of C3")
    refused(match, Door(0, "Remus", "C4"), "There is no door between C3 and C4")


def test_door_with_two_doors_asks_which() -> None:
    """Rulebook Basic Actions: with doors on two edges the player names the one to use."""
    match = skirm_match(duel(), edges=["C3|C4: door=closed", "C3|D3: door=open"])
    refused(match, Door(0, "Remus"), "C3 has doors toward D3, C4; say which one.")
    events = match.apply(Door(0, "Remus", "D3"))
    assert of(events, "door") == [{"unit": "Remus", "edge": "C3|D3", "open": False}]


# --- markers -----------------------------------------------------------------------------------------
def test_pick_up_carry_and_drop_a_marker() -> None:
    """Rulebook Basic Actions: Pick Up/Drop (1 ACT) a marker in the unit's square; the marker
    travels with its carrier. Picking up then dropping repeats the same action (1 + 2)."""
    match = skirm_match(duel(act=4), items=[{"kind": "marker", "square": "C3"}])
    state = match.state
    events = match.apply(PickUp(0, "Remus"))
    assert of(events, "picked_up") == [{"unit": "Remus", "item": 0, "square": "C3"}]
    assert state.units["Remus"].carrying == 0
    assert (state.items[0].square, state.items[0].carried_by) == (None, "Remus")
    match.apply(Dash(0, "Remus", "D4"))
    events = match.apply(Drop(0, "Remus"))
    assert paid(events) == [("pickup/drop", 2, 0)]
    assert of(events, "dropped") == [{"unit": "Remus", "item": 0, "square": "D4"}]
    assert str(state.items[0].square) == "D4" and state.items[0].carried_by is None
    assert state.units["Remus"].carrying is None


def test_marker_refusals() -> None:
    """Rulebook Basic Actions: there must be a marker to pick up, and something to drop."""
    match = skirm_match(duel(), items=[{"kind": "marker", "square": "D4"}], orders=(1, 0))
    refused(match, PickUp(0, "Remus"), "There is no marker on C3 to pick up.")
    refused(match, Drop(0, "Remus"), "Remus carries nothing to drop.")
    match.apply(Dash(0, "Remus", "D4"))
    match.apply(PickUp(0, "Remus"))
    refused(match, PickUp(0, "Remus", orders=1), "already carries a marker")


def test_carried_marker_dropped_where_the_carrier_is_taken_out() -> None:
    """Rulebook Combat (Taken Out, removed from the battlezone): what it carried stays on the
    square where it fell."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C10", hit=1), unit("Bo", "J10")]},
        items=[{"kind": "marker", "square": "C10"}],
        initiative=1,
        faces=[2, 6, 6],
    )
    match.apply(PickUp(1, "Vex"))
    match.apply(Move(1, "Vex", "C8"))
    match.apply(EndActivation(1))
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert [e.kind for e in events][-2:] == ["taken_out", "dropped"]
    assert of(events, "dropped") == [{"unit": "Vex", "item": 0, "square": "C8"}]
    marker = match.state.items[0]
    assert (str(marker.square), marker.carried_by) == ("C8", None)
    assert match.dice.remaining == 0


# --- crates --------------------------------------------------------------------------------------------
def crate_match() -> Match:
    """Remus on a crate on C3, another crate on C4."""
    return skirm_match(
        duel(),
        items=[{"kind": "crate", "square": "C3"}, {"kind": "crate", "square": "C4"}],
    )


def test_crate_mp() -> None:
    """Rulebook Crate: MP: the squad immediately gains 1 MP; the crate is removed."""
    match = crate_match()
    events = match.apply(OpenCrate(0, "Remus", "mp"))
    assert paid(events) == [("crate", 1, 0)]
    assert of(events, "crate_opened") == [
        {"unit": "Remus", "item": 0, "option": "mp", "square": "C3"}
    ]
    assert match.state.squads[0].mp == 1
    assert match.state.items[0].square is None
    refused(match, OpenCrate(0, "Remus", "to"), "There is no crate on C3")


def test_crate_to() -> None:
    """Rulebook Crate: TO: the squad immediately gains 1 Tactical Order."""
    match = crate_match()
    match.apply(OpenCrate(0, "Remus", "TO"))
    assert match.state.squads[0].orders == 1


def test_crate_options_once_per_battle() -> None:
    """Rulebook Crate: each crate content option can only be selected once per battle."""
    match = crate_match()
    match.apply(OpenCrate(0, "Remus", "mp"))
    match.apply(Dash(0, "Remus", "C4"))
    refused(
        match,
        OpenCrate(0, "Remus", "mp"),
        "1 MP has already been taken from a crate this battle. Left: medpack (MedPack (1D3 HIT)), to (1 TO).",
    )
    refused(match, OpenCrate(0, "Remus", "gold"), "'gold' is not a crate option")


def test_crate_medpack_heals_1d3() -> None:
    """Rulebook Crate: MedPack: the unit regains 1D3 HIT."""
    match = skirm_match(
        {0: [unit("Remus", "C3", hit=5)], 1: [unit("Vex", "C10")]},
        items=[{"kind": "crate", "square": "C3"}],
        faces=[2],
    )
    match.state.units["Remus"].hit = 1
    match.apply(OpenCrate(0, "Remus", "medpack"))
    assert match.state.units["Remus"].hit == 3
    assert match.dice.remaining == 0


def test_crate_medpack_capped_at_starting_hit() -> None:
    """Rulings: Items: MedPack 1D3 HIT up to the unit's starting HIT."""
    match = skirm_match(
        {0: [unit("Remus", "C3", hit=3)], 1: [unit("Vex", "C10")]},
        items=[{"kind": "crate", "square": "C3"}],
        faces=[3],
    )
    match.state.units["Remus"].hit = 2
    events = match.apply(OpenCrate(0, "Remus", "medpack"))
    assert match.state.units["Remus"].hit == 3
    assert "rolls 3 on 1D3, Remus regains 1 HIT (3 now)" in events[-1].text
    assert match.dice.remaining == 0


def test_crate_ammo_refill_only_for_a_used_lim_weapon() -> None:
    """Rulebook Crate: Ammo Refill: a LIM weapon already used can be used once more; an unused
    LIM weapon cannot be refilled."""
    match = skirm_match(
        {0: [unit("Remus", "C6", act=4, weapons=[GRENADE, KNIFE])], 1: [unit("Vex", "C10")]},
        items=[{"kind": "crate", "square": "C6"}],
        faces=[6, 6],
    )
    refused(
        match, OpenCrate(0, "Remus", "ammo"), "Remus has no used Limited Ammo weapon to refill."
    )
    match.apply(Shoot(0, "Remus", "Vex", "Grenade"))
    assert match.state.units["Remus"].lim_uses_left == {"Grenade": 0}
    refused(match, Shoot(0, "Remus", "Vex", "Grenade"), "has already been used in this battle")
    events = match.apply(OpenCrate(0, "Remus", "ammo"))
    assert of(events, "crate_opened")[0]["option"] == "ammo"
    assert match.state.units["Remus"].lim_uses_left == {"Grenade": 1}
    match.apply(Shoot(0, "Remus", "Vex", "Grenade"))
    assert match.dice.remaining == 0


def test_crate_ammo_refill_with_two_used_lim_weapons_refills_the_first_by_name() -> None:
    """docs/rulings.md (Ammo Refill): with several used LIM weapons, the first by name."""
    bomb = weapon("Bomb", "ranged", 1, 1, "RG4", "LIM")
    acid = weapon("Acid", "ranged", 1, 1, "RG4", "LIM")
    match = skirm_match(
        {0: [unit("Remus", "C6", act=4, weapons=[bomb, acid, KNIFE])], 1: [unit("Vex", "C10")]},
        items=[{"kind": "crate", "square": "C6"}],
        faces=[6, 6],
    )
    match.apply(Shoot(0, "Remus", "Vex", "Bomb"))
    match.apply(Shoot(0, "Remus", "Vex", "Acid"))
    events = match.apply(OpenCrate(0, "Remus", "ammo"))
    opened = next(e for e in events if e.kind == "crate_opened")
    assert "Ammo Refill: Acid can be used once more" in opened.text
    assert match.state.units["Remus"].lim_uses_left == {"Acid": 1, "Bomb": 0}


def test_crate_ammo_refused_without_a_lim_weapon() -> None:
    """Rulebook Crate: Ammo Refill needs a LIM weapon that has been used."""
    match = crate_match()
    refused(match, OpenCrate(0, "Remus", "ammo"), "no used Limited Ammo weapon")


# --- LIM -----------------------------------------------------------------------------------------------
def test_lim_weapon_usable_once_per_battle() -> None:
    """Rulebook Weapon Special Rules LIM: usable only once during each battle, even in a later
    turn."""
    match = skirm_match(
        {0: [unit("Remus", "C6", weapons=[GRENADE, RIFLE, KNIFE])], 1: [unit("Vex", "C10")]},
        faces=[6, *[1, 2, 6, 6, 6, 6, 6, 6, 6, 6]],
    )
    match.apply(Shoot(0, "Remus", "Vex", "Grenade"))
    refused(
        match,
        Shoot(0, "Remus", "Vex", "Grenade"),
        "Grenade has Limited Ammo (LIM) and has already been used in this battle.",
    )
    match.apply(EndActivation(0))
    match.apply(EndActivation(1, "Vex"))
    assert match.state.turn == 2
    refused(match, Shoot(0, "Remus", "Vex", "Grenade"), "already been used in this battle")
    assert match.dice.remaining == 0


def test_weapon_choice_refusals() -> None:
    """Rulebook Combat 1.1: the attacker picks one of its weapons of the right type."""
    match = skirm_match(duel(weapons=[PISTOL, CARBINE]))
    refused(
        match,
        Shoot(0, "Remus", "Vex"),
        "Remus has several ranged weapons; name one: Pistol, Carbine.",
    )
    refused(match, Shoot(0, "Remus", "Vex", "Knife"), "Remus has no ranged weapon called 'Knife'")
    refused(match, Melee(0, "Remus", "Vex"), "Remus has no melee weapon.")
