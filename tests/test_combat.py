"""Combat with scripted dice (rulebook Combat 1-3, Successes and Failures, Ranged/Melee Combat
Modifiers, Line Of Sight, Tactical Orders; rulings: Combat, Line of sight and cover, Tactical
Orders in play-by-post).

Faces are scripted in the order the rules roll them: the attack dice (ROA), then one save die
per point of damage not saved automatically, then any re-rolls. Red (side 0) attacks; Blue's
Vex defends. Default cards: RSK/MSK 3, ARM 3, HIT 3; Rifle ROA 2 DAM 1 RG8, Knife ROA 2 DAM 1.
"""

from __future__ import annotations

from typing import Any

from builders import refused, skirm_match, unit, weapon

from skirmbot.rules.commands import Accept, EndActivation, Melee, Modify, Move, Reroll, Shoot
from skirmbot.rules.events import Event
from skirmbot.rules.skirm.commands import SetStandingOrders
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.state import TAKEN_OUT
from skirmbot.rules.squares import Square


def one(events: list[Event], kind: str) -> dict[str, Any]:
    found = [e.data for e in events if e.kind == kind]
    assert len(found) == 1, [e.kind for e in events]
    return found[0]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def shootout(
    red: dict[str, Any] | None = None,
    blue: dict[str, Any] | None = None,
    *,
    faces: list[int],
    orders: tuple[int, int] = (0, 0),
    red_square: str = "C3",
    blue_square: str = "C10",
    **options: Any,
) -> Match:
    """Remus (Red) and Vex (Blue), 7 squares apart on open ground unless told otherwise."""
    return skirm_match(
        {
            0: [unit("Remus", red_square, **(red or {}))],
            1: [unit("Vex", blue_square, **(blue or {}))],
        },
        faces=faces,
        orders=orders,
        **options,
    )


def vex(match: Match) -> int:
    return match.state.units["Vex"].hit


# --- ranged combat, step by step ---------------------------------------------------------------
def test_ranged_attack_rolls_strikes_then_saves() -> None:
    """Rulebook Combat 2-3: ROA attack dice, at or under RSK strikes (a 3 strikes for RSK 3, a
    4 misses), DAM per strike, one save die per point of damage, a failed save costs 1 HIT."""
    match = shootout(faces=[3, 4, 4])
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert kinds(events) == ["activation_started", "cost_paid", "roll", "attack", "saves"]
    assert one(events, "roll") == {
        "unit": "Remus",
        "purpose": "ranged attack",
        "faces": [3, 4],
        "skill": 3,
    }
    attack = one(events, "attack")
    assert (attack["strikes"], attack["damage"], attack["cover"], attack["support"]) == (
        1,
        1,
        False,
        False,
    )
    assert (attack["kind"], attack["weapon"], attack["from"], attack["to"]) == (
        "ranged",
        "Rifle",
        "C3",
        "C10",
    )
    assert one(events, "saves") == {
        "unit": "Vex", "faces": [4], "first_faces": [4], "needed": 3, "saved": 0,
        "rerolled": [], "lost": 1,
    }  # fmt: skip
    assert vex(match) == 2
    assert match.dice.remaining == 0


def test_a_roll_of_1_always_strikes() -> None:
    """Rulebook Successes and Failures / Combat 2.2: with RSK 1 only the 1 strikes (and, being a
    natural 1, deals DAM+1)."""
    match = shootout({"rsk": 1}, faces=[1, 2, 1, 1])
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert (one(events, "attack")["strikes"], one(events, "attack")["damage"]) == (1, 2)
    assert one(events, "saves")["saved"] == 2 and vex(match) == 3
    assert match.dice.remaining == 0


def test_a_roll_of_6_always_misses() -> None:
    """Rulebook Successes and Failures / Combat 2.2: with RSK 5 the 5 strikes, the 6 misses."""
    match = shootout({"rsk": 5}, faces=[5, 6, 3])
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert (one(events, "attack")["strikes"], one(events, "attack")["damage"]) == (1, 1)
    assert match.dice.remaining == 0


def test_each_natural_1_deals_dam_plus_1_and_each_point_gets_a_save_die() -> None:
    """Rulebook Combat 2.3-2.4 and 3.1: DAM 2, three strikes of which two are 1s: 2+2+2+1+1 = 8
    damage, so 8 save dice; at or under ARM 3 saves (5 of them), each failure costs 1 HIT."""
    gun = weapon("Cannon", "ranged", 3, 2, "RG8")
    match = shootout({"weapons": [gun]}, {"hit": 6}, faces=[1, 2, 1, 1, 2, 3, 4, 5, 6, 3, 3])
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert (one(events, "attack")["strikes"], one(events, "attack")["damage"]) == (3, 8)
    saves = one(events, "saves")
    assert (saves["faces"], saves["saved"], saves["lost"]) == ([1, 2, 3, 4, 5, 6, 3, 3], 5, 3)
    assert vex(match) == 3
    assert match.dice.remaining == 0


def test_saves_at_or_under_arm() -> None:
    """Rulebook Combat 3.2: a save die at or under ARM saves (4 and 1 for ARM 4; 5 and 6 fail)."""
    gun = weapon("Burst", "ranged", 4, 1, "RG8")
    match = shootout({"weapons": [gun]}, {"arm": 4}, faces=[2, 2, 2, 2, 4, 5, 1, 6])
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert (one(events, "saves")["saved"], one(events, "saves")["lost"]) == (2, 2)
    assert vex(match) == 1
    assert match.dice.remaining == 0


def test_taken_out_at_zero_hit_leaves_the_map() -> None:
    """Rulebook Combat 3.4: at zero HIT the unit is Taken Out and removed from the battlezone;
    the taken_out event says who, by whom, with what and by how much."""
    match = shootout(blue={"hit": 2}, faces=[1, 2, 6, 6, 6])
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert kinds(events)[-2:] == ["saves", "taken_out"]
    assert one(events, "saves")["lost"] == 2
    assert one(events, "taken_out") == {
        "unit": "Vex", "side": 1, "square": "C10", "by": "Remus", "by_side": 0,
        "weapon": "Rifle", "kind": "ranged", "item": None, "unsaved": 3, "hit_before": 2,
        "overkill": 1, "turn": 1,
    }  # fmt: skip
    victim = match.state.units["Vex"]
    assert (victim.hit, victim.square, victim.status) == (0, None, TAKEN_OUT)
    assert match.state.unit_at(Square.parse("C10")) is None
    refused(match, Shoot(0, "Remus", "Vex"), "'Vex' is not a unit on the map or a square")
    assert match.dice.remaining == 0


# --- melee ---------------------------------------------------------------------------------------
def test_melee_attack_uses_msk_and_the_same_steps() -> None:
    """Rulebook Combat 1.2.2 and 2-3: melee against an adjacent target, strikes at or under MSK
    (4 strikes for MSK 4, 5 misses), then saves as for ranged combat."""
    match = shootout({"msk": 4, "rsk": 2}, blue_square="D4", faces=[4, 5, 5])
    events = match.apply(Melee(0, "Remus", "Vex"))
    assert one(events, "roll") == {
        "unit": "Remus",
        "purpose": "melee attack",
        "faces": [4, 5],
        "skill": 4,
    }
    attack = one(events, "attack")
    assert (attack["kind"], attack["weapon"], attack["strikes"], attack["damage"]) == (
        "melee",
        "Knife",
        1,
        1,
    )
    assert one(events, "saves")["lost"] == 1 and vex(match) == 2
    assert match.dice.remaining == 0


def test_melee_needs_an_adjacent_target() -> None:
    """Rulebook Combat 1.2.2: the melee target must be in an adjacent square."""
    match = shootout(blue_square="C5", faces=[])
    refused(
        match,
        Melee(0, "Remus", "Vex"),
        "Vex is not adjacent to Remus: a Melee Attack needs an adjacent target. In reach: nothing.",
    )


def test_melee_refused_across_a_high_wall() -> None:
    """Rulebook Adjacent Squares: a wall higher than 1 between two squares breaks adjacency."""
    match = shootout(blue_square="C4", faces=[], edges=["C3|C4: wall=2"])
    refused(match, Melee(0, "Remus", "Vex"), "not adjacent")


# --- cover and high ground ----------------------------------------------------------------------
LOW_WALL = ["C9|C10: wall=1"]  # on the edge of Vex's square facing Remus


def test_cover_saves_the_first_point_without_a_die() -> None:
    """Rulebook Ranged Combat Modifiers (Cover): the target gets one automatic save: of 2
    damage, 1 is saved without a die and only 1 save die is rolled."""
    match = shootout(faces=[2, 3, 6], edges=LOW_WALL)
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert one(events, "attack")["cover"] is True and one(events, "attack")["damage"] == 2
    assert one(events, "saves")["faces"] == [6]
    assert vex(match) == 2
    assert match.dice.remaining == 0


def test_cover_with_one_point_of_damage_rolls_no_save() -> None:
    """Rulebook Cover: the single point of damage is the automatic save."""
    match = shootout(faces=[2, 6], edges=LOW_WALL)
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert "saves" not in kinds(events) and vex(match) == 3
    assert match.dice.remaining == 0


def test_high_ground_ignores_cover() -> None:
    """Rulebook Ranged Combat Modifiers (High Ground): an attacker at least 2 squares higher than
    the target denies it cover: both points of damage get save dice."""
    rows = [" ".join(["."] * 12)] * 12
    rows[2] = ". . 2 . . . . . . . . ."
    match = shootout(faces=[2, 3, 6, 6], edges=LOW_WALL, rows=rows)
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert one(events, "attack")["cover"] is False
    assert one(events, "saves")["faces"] == [6, 6] and vex(match) == 1
    assert match.dice.remaining == 0


def test_one_level_up_is_not_high_ground() -> None:
    """Rulings: High ground needs 2 or more levels; one level up the target keeps its cover."""
    rows = [" ".join(["."] * 12)] * 12
    rows[2] = ". . 1 . . . . . . . . ."
    match = shootout(faces=[2, 3, 6], edges=LOW_WALL, rows=rows)
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert one(events, "attack")["cover"] is True and one(events, "saves")["faces"] == [6]
    assert match.dice.remaining == 0


def test_ncv_weapon_ignores_cover() -> None:
    """Rulebook Weapon Special Rules NCV: targets do not benefit from cover."""
    gun = weapon("Flamer", "ranged", 2, 1, "RG8", "NCV")
    match = shootout({"weapons": [gun]}, faces=[2, 3, 6, 6], edges=LOW_WALL)
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert one(events, "attack")["cover"] is False and one(events, "saves")["faces"] == [6, 6]
    assert match.dice.remaining == 0


def test_no_cover_in_melee() -> None:
    """Rulebook Cover: cover only applies to ranged attacks."""
    match = shootout(blue_square="C4", faces=[2, 3, 6, 6], edges=["C3|C4: wall=1"])
    events = match.apply(Melee(0, "Remus", "Vex"))
    assert one(events, "attack")["cover"] is False and one(events, "saves")["faces"] == [6, 6]
    assert match.dice.remaining == 0


# --- support --------------------------------------------------------------------------------------
def support_match(ann_square: str, faces: list[int]) -> Match:
    """Remus on C3 attacks Vex on C4; Ann stands on `ann_square`."""
    return skirm_match(
        {0: [unit("Remus", "C3"), unit("Ann", ann_square)], 1: [unit("Vex", "C4")]},
        faces=faces,
    )


def test_support_adds_one_automatic_strike() -> None:
    """Rulebook Melee Combat Modifiers (Support): a squadmate adjacent to the target gives one
    automatic successful strike without rolling it: two misses still deal 1 damage."""
    match = support_match("D5", faces=[6, 6, 6])
    events = match.apply(Melee(0, "Remus", "Vex"))
    attack = one(events, "attack")
    assert (attack["support"], attack["strikes"], attack["damage"]) == (True, 1, 1)
    assert vex(match) == 2
    assert match.dice.remaining == 0


def test_support_strike_is_not_a_natural_1() -> None:
    """Rulings: Support: the extra strike never counts as a natural 1: a rolled 1 (DAM+1 = 2)
    plus the support strike (DAM 1) is 3 damage, not 4."""
    match = support_match("D5", faces=[1, 6, 3, 3, 3])
    events = match.apply(Melee(0, "Remus", "Vex"))
    assert (one(events, "attack")["strikes"], one(events, "attack")["damage"]) == (2, 3)
    assert match.dice.remaining == 0


def test_no_support_from_a_squadmate_not_adjacent_to_the_target() -> None:
    """Rulebook Support: the squadmate must be adjacent to the target, not to the attacker."""
    match = support_match("B2", faces=[6, 6])
    events = match.apply(Melee(0, "Remus", "Vex"))
    attack = one(events, "attack")
    assert (attack["support"], attack["strikes"], attack["damage"]) == (False, 0, 0)
    assert "saves" not in kinds(events) and vex(match) == 3
    assert match.dice.remaining == 0


# --- ranged restrictions -------------------------------------------------------------------------------
def test_ranged_refused_at_an_adjacent_target() -> None:
    """Rulebook Combat 1.2.1: the target must be at least 2 squares away (not adjacent)."""
    match = shootout(blue_square="D4", faces=[])
    refused(match, Shoot(0, "Remus", "Vex"), "ranged attacks need a target that is not adjacent")


def test_ranged_refused_with_an_enemy_adjacent_to_the_attacker() -> None:
    """Rulebook Combat 1.2.1: no Ranged Attack with an enemy unit in an adjacent square."""
    match = skirm_match({0: [unit("Remus", "C3")], 1: [unit("Vex", "C10"), unit("Bo", "D4")]})
    refused(
        match, Shoot(0, "Remus", "Vex"), "ranged attacks need no enemy adjacent to the attacker"
    )


def test_ranged_refused_with_a_squadmate_adjacent_to_the_target() -> None:
    """Rulebook Combat 1.2.1: the attacker has no squadmate adjacent to the target."""
    match = skirm_match({0: [unit("Remus", "C3"), unit("Ann", "D9")], 1: [unit("Vex", "C10")]})
    refused(
        match, Shoot(0, "Remus", "Vex"), "ranged attacks need no squadmate adjacent to the target"
    )


def test_ranged_refused_out_of_range() -> None:
    """Rulebook Combat 1.2.1 and Distances: within RGx, counted horizontally (9 > RG8)."""
    match = shootout(blue_square="C12", faces=[])
    refused(match, Shoot(0, "Remus", "Vex"), "C12 is 9 squares away; this weapon's range is 8.")


def test_ranged_refused_without_line_of_sight() -> None:
    """Rulebook Line Of Sight: a 2-high wall hides the target; nor can a unit shoot through
    other units."""
    walls = [f"{c}6|{c}7: wall=2" for c in "ABCDEFGHIJKL"]
    match = shootout(faces=[], edges=walls)
    refused(match, Shoot(0, "Remus", "Vex"), "No line of sight from C3 to C10.")
    match = skirm_match({0: [unit("Remus", "C3")], 1: [unit("Vex", "C10"), unit("Bo", "C6")]})
    refused(match, Shoot(0, "Remus", "Vex"), "No line of sight")


def test_target_on_a_square_off_the_map_refused() -> None:
    """Rulings: Coordinates: a target named by a square off the map is an illegal command
    that says what is wrong."""
    match = shootout(faces=[])
    refused(match, Shoot(0, "Remus", "barrel@Z9"), "Z9 is off the map: squares run from A1 to L12.")
    refused(match, Shoot(0, "Remus", "turret@x"), "'x' is not a square")
    refused(match, Shoot(0, "Remus", "Z9"), "'Z9' is not a unit on the map or a square.")


def test_attack_on_own_squadmate_refused() -> None:
    """Rulebook Combat 1.2: the attacker selects a valid target, an enemy."""
    match = skirm_match({0: [unit("Remus", "C3"), unit("Ann", "C8")], 1: [unit("Vex", "C10")]})
    refused(match, Shoot(0, "Remus", "Ann"), "Ann is in your own squad.")


# --- Tactical Orders on the attack roll ------------------------------------------------------------------
def test_failed_die_with_orders_left_waits_for_the_decision() -> None:
    """Rulings: Tactical Orders in play-by-post: after the active player's roll, with a failed
    die and TO left, the bot waits for re-roll, change or accept; nothing else goes on."""
    match = shootout(faces=[2, 6, 6], orders=(2, 1))
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert kinds(events) == ["activation_started", "cost_paid", "roll"]
    activation = match.state.activation
    assert activation is not None and activation.pending is not None
    assert [d.face for d in activation.pending.dice] == [2, 6]
    assert vex(match) == 3 and match.dice.remaining == 1
    refused(match, Move(0, "Remus", "C4"), "A roll is waiting for your decision")
    refused(match, EndActivation(0), "A roll is waiting for your decision")
    refused(match, Accept(1), "It is Red's activation, not yours.")
    events = match.apply(Accept(0))
    assert kinds(events) == ["attack", "saves"]
    assert one(events, "attack")["damage"] == 1 and vex(match) == 2
    assert match.state.squads[0].orders == 2 and match.state.activation.pending is None
    assert match.dice.remaining == 0


def test_reroll_costs_one_order_and_resolves_when_nothing_failed() -> None:
    """Rulebook Tactical Orders: re-roll one die for 1 TO; with no failed die left the attack
    goes on at once."""
    match = shootout(faces=[2, 6, 3, 6, 6], orders=(2, 0))
    match.apply(Shoot(0, "Remus", "Vex"))
    events = match.apply(Reroll(0, 2))
    assert kinds(events) == ["reroll", "attack", "saves"]
    assert one(events, "reroll") == {"die": 2, "old": 6, "new": 3}
    assert one(events, "attack")["damage"] == 2
    assert match.state.squads[0].orders == 1
    assert match.dice.remaining == 0


def test_rerolled_die_is_final_and_zero_orders_resolves_at_once() -> None:
    """Rulebook Dice (re-rolls) and Tactical Orders: a re-rolled die cannot be re-rolled again;
    once the last TO is spent the attack resolves without waiting."""
    match = shootout(faces=[2, 6, 5, 6], orders=(2, 0))
    match.apply(Shoot(0, "Remus", "Vex"))
    events = match.apply(Reroll(0, 2))
    assert kinds(events) == ["reroll"]  # 5 still misses and 1 TO is left: still waiting
    refused(match, Reroll(0, 2), "Die 2 has already been re-rolled; a re-rolled die is final.")
    events = match.apply(Modify(0, 2, -1))  # 5 -> 4: still a miss, but no TO left
    assert kinds(events) == ["modify", "attack", "saves"]
    assert one(events, "attack")["strikes"] == 1
    assert match.state.squads[0].orders == 0 and match.state.activation.pending is None
    assert match.dice.remaining == 0


def test_rerolled_1_is_a_natural_1() -> None:
    """Rulebook Dice (the re-rolled result is final) and Combat 2.4: a re-roll that comes up 1
    is a roll of 1 and deals DAM+1."""
    match = shootout(faces=[2, 6, 1, 6, 6, 6], orders=(1, 0))
    match.apply(Shoot(0, "Remus", "Vex"))
    events = match.apply(Reroll(0, 2))
    assert one(events, "attack")["damage"] == 3
    assert match.dice.remaining == 0


def test_modify_is_stackable_one_order_each() -> None:
    """Rulebook Using Tactical Orders: +/-1 per TO, stackable: 5 -> 4 -> 3 strikes at RSK 3."""
    match = shootout(faces=[5, 2, 6, 6], orders=(3, 0))
    match.apply(Shoot(0, "Remus", "Vex"))
    first = match.apply(Modify(0, 1, -1))
    assert kinds(first) == ["modify"] and one(first, "modify") == {"die": 1, "old": 5, "new": 4}
    second = match.apply(Modify(0, 1, -1))
    assert one(second, "modify") == {"die": 1, "old": 4, "new": 3}
    assert (one(second, "attack")["strikes"], one(second, "attack")["damage"]) == (2, 2)
    assert match.state.squads[0].orders == 1
    assert match.dice.remaining == 0


def test_die_changed_to_1_gives_no_natural_1_bonus() -> None:
    """Rulebook Using Tactical Orders: "reducing an Attack die roll of 2 to 1 does not mean that
    roll causes +1 DAM": the changed die strikes for DAM 1 only."""
    match = shootout(faces=[2, 6, 6], orders=(1, 0))
    match.apply(Shoot(0, "Remus", "Vex"))
    events = match.apply(Modify(0, 1, -1))
    assert (one(events, "attack")["strikes"], one(events, "attack")["damage"]) == (1, 1)
    assert "natural" not in next(e.text for e in events if e.kind == "attack")
    assert vex(match) == 2
    assert match.dice.remaining == 0


def test_decision_refusals() -> None:
    """Rulebook Using Tactical Orders: one die at a time, by +1 or -1, within 1-6; re-roll a die
    before changing it."""
    match = shootout(faces=[6, 6], orders=(2, 0))
    refused(match, Reroll(0, 1), "No roll is waiting for a decision.")
    match.apply(Shoot(0, "Remus", "Vex"))
    refused(match, Reroll(0, 3), "There is no die 3; the roll has dice 1 to 2.")
    refused(match, Modify(0, 1, 2), "A Tactical Order changes a die by +1 or -1")
    refused(match, Modify(0, 1, 1), "Die 1 shows 6; it cannot go to 7.")
    match.apply(Modify(0, 1, -1))
    refused(match, Reroll(0, 1), "re-roll before changing a die")


def test_no_failed_die_resolves_at_once_even_with_orders() -> None:
    """Rulings: Tactical Orders in play-by-post: nothing to decide when every die struck."""
    match = shootout(faces=[1, 2, 3, 3, 3], orders=(2, 0))
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert kinds(events)[2:] == ["roll", "attack", "saves"]
    assert match.state.squads[0].orders == 2
    assert match.dice.remaining == 0


# --- the defender's standing orders ----------------------------------------------------------------------
def test_no_standing_orders_means_no_save_rerolls() -> None:
    """Rulings: Tactical Orders in play-by-post: by default TO are never spent on reactions."""
    match = shootout(faces=[2, 6, 6], orders=(0, 2))
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert one(events, "saves")["rerolled"] == [] and match.state.squads[1].orders == 2
    assert match.dice.remaining == 0


def test_standing_orders_reroll_failed_saves() -> None:
    """Rulings: Tactical Orders in play-by-post / rulebook Tactical Orders (re-roll during the
    opponent's activation): the defender's standing order re-rolls a failed save for 1 TO."""
    match = shootout(faces=[2, 6, 5, 2], orders=(0, 1))
    events = match.apply(SetStandingOrders(1, reroll_saves_above=0))
    assert one(events, "standing_orders") == {"side": 1, "reroll_saves_above": 0, "parry": True, "counter": True}
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert one(events, "saves") == {
        "unit": "Vex", "faces": [2], "first_faces": [5], "needed": 3, "saved": 1,
        "rerolled": [1], "lost": 0,
    }  # fmt: skip
    assert match.state.squads[1].orders == 0 and vex(match) == 3
    assert match.dice.remaining == 0


def test_standing_order_rerolls_are_logged_with_both_faces() -> None:
    """Rulings: Combat: every die is recorded in the match log with its face and any re-roll:
    the failed save and its re-roll both appear."""
    match = shootout(faces=[2, 6, 5, 2], orders=(0, 1))
    match.apply(SetStandingOrders(1, reroll_saves_above=0))
    events = match.apply(Shoot(0, "Remus", "Vex"))
    text = next(e.text for e in events if e.kind == "saves")
    assert "standing order, 1 TO: re-rolled die 1: 5 → 2" in text


def test_standing_orders_keep_the_reserve() -> None:
    """Rulings: "re-roll failed saves while I have more than N TO": with 2 TO and N = 1 only
    the first failed save is re-rolled; a re-rolled save is final (6 again: lost)."""
    match = shootout(faces=[2, 3, 6, 6, 6], orders=(0, 2))
    match.apply(SetStandingOrders(1, reroll_saves_above=1))
    events = match.apply(Shoot(0, "Remus", "Vex"))
    saves = one(events, "saves")
    assert (saves["first_faces"], saves["faces"]) == ([6, 6], [6, 6])
    assert (saves["rerolled"], saves["lost"]) == ([1], 2)
    assert match.state.squads[1].orders == 1
    assert match.dice.remaining == 0


def test_standing_orders_never_reroll_with_only_the_reserve_left() -> None:
    """Rulings: more than N TO are needed: with exactly N nothing is re-rolled."""
    match = shootout(faces=[2, 6, 6], orders=(0, 1))
    match.apply(SetStandingOrders(1, reroll_saves_above=1))
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert one(events, "saves")["rerolled"] == [] and match.state.squads[1].orders == 1
    assert match.dice.remaining == 0


def test_standing_orders_values_checked() -> None:
    """Rulings: standing orders are a reserve of TO, or never."""
    match = shootout(faces=[])
    refused(match, SetStandingOrders(1, reroll_saves_above=21), "from 0 to 20")
    events = match.apply(SetStandingOrders(1, reroll_saves_above=None))
    assert "never spend TO on saves" in events[0].text
