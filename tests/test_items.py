"""Items and objectives (rulebook Items: Barrel, Turret; Scoring Mission Points And Controlling
Objectives; rulings: Items, Missions).

Red (side 0) acts first. Faces are scripted in the order the rules roll them: attack dice, then
save dice square by square in reading order for an explosion, barrel after barrel.
"""

from __future__ import annotations

from builders import of, pass_turn, refused, skirm_match, unit

from skirmbot.rules.commands import Accept, Melee, Shoot
from skirmbot.rules.events import Event
from skirmbot.rules.skirm.commands import SetStandingOrders, UseTurret
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.state import TAKEN_OUT


def hits(match: Match) -> dict[str, int]:
    return {name: u.hit for name, u in match.state.units.items()}


def barrel(square: str) -> dict[str, str]:
    return {"kind": "barrel", "square": square}


def turret(square: str) -> dict[str, str]:
    return {"kind": "turret", "square": square, "type": "machine_gun"}


# --- barrels ---------------------------------------------------------------------------------------
def test_any_strike_explodes_the_barrel_hurting_its_square_and_adjacent_squares() -> None:
    """Rulebook Barrel / rulings: Barrel: one strike explodes it (a barrel cannot save); it is
    removed, then deals 2 damage, saved as usual, to units on its square and adjacent squares."""
    match = skirm_match(
        {
            0: [unit("Remus", "C3")],
            1: [unit("Vex", "F6"), unit("Bo", "G7"), unit("Cy", "H8")],
        },
        items=[barrel("F6")],
        faces=[3, 6, 6, 6, 3, 6],
    )
    events = match.apply(Shoot(0, "Remus", "barrel@F6"))
    assert [e.kind for e in events][2:] == ["roll", "attack", "explosion", "saves", "saves"]
    assert of(events, "attack")[0]["item"] == 0 and of(events, "attack")[0]["strikes"] == 1
    assert of(events, "explosion") == [{"item": 0, "square": "F6", "kind": "barrel"}]
    assert [(s["unit"], s["faces"], s["lost"]) for s in of(events, "saves")] == [
        ("Vex", [6, 6], 2),
        ("Bo", [3, 6], 1),
    ]
    assert hits(match) == {"Remus": 3, "Vex": 1, "Bo": 2, "Cy": 3}  # Cy is 2 squares away
    assert match.state.items[0].square is None
    assert match.dice.remaining == 0


def test_barrel_without_a_strike_does_not_explode() -> None:
    """Rulebook Barrel: it explodes only if at least one strike is successful."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "F6")]},
        items=[barrel("F6")],
        faces=[6, 6],
    )
    events = match.apply(Shoot(0, "Remus", "barrel@F6"))
    assert "explosion" not in [e.kind for e in events]
    assert str(match.state.items[0].square) == "F6" and hits(match)["Vex"] == 3
    assert match.dice.remaining == 0


def test_melee_on_a_barrel_catches_the_attacker_too() -> None:
    """Rulebook Barrel: barrels may be attacked in melee; the attacker stands on an adjacent
    square, so the explosion hurts it as well (squares in reading order: E5 before F6)."""
    match = skirm_match(
        {0: [unit("Remus", "E5")], 1: [unit("Vex", "F6")]},
        items=[barrel("F6")],
        faces=[2, 6, 6, 6, 1, 1],
    )
    events = match.apply(Melee(0, "Remus", "barrel@F6"))
    assert [(s["unit"], s["lost"]) for s in of(events, "saves")] == [("Remus", 2), ("Vex", 0)]
    assert hits(match) == {"Remus": 1, "Vex": 3}
    assert match.dice.remaining == 0


def test_barrel_explosion_credits_the_attacker() -> None:
    """Rulebook Combat 3.4 / Spoils Of War (Resourceful): a unit taken out by the blast is
    credited to the attacker, as an explosion of an item."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "F7", hit=2)]},
        items=[barrel("F6")],
        faces=[3, 6, 6, 6],
    )
    events = match.apply(Shoot(0, "Remus", "barrel@F6"))
    taken = of(events, "taken_out")
    assert len(taken) == 1
    assert {k: taken[0][k] for k in ("unit", "by", "by_side", "kind", "item", "weapon")} == {
        "unit": "Vex", "by": "Remus", "by_side": 0, "kind": "explosion", "item": "barrel",
        "weapon": "Rifle",
    }  # fmt: skip
    assert match.state.units["Vex"].status == TAKEN_OUT
    assert match.dice.remaining == 0


def test_barrel_chain_reaction_one_at_a_time_nearest_first() -> None:
    """Rulings: Barrel and docs/rulings.md (Explosions): a barrel caught in an explosion explodes
    in turn, one at a time, nearest first, then in reading order: E6 catches D5 and F6 (D5
    first), F6 then catches G7. Vex on F7 is next to E6, F6 and
    G7 and is hit by each; Bo on C5 only by D5."""
    match = skirm_match(
        {0: [unit("Remus", "E1")], 1: [unit("Vex", "F7", hit=6), unit("Bo", "C5")]},
        items=[barrel("E6"), barrel("D5"), barrel("F6"), barrel("G7")],
        faces=[2, 6, *[6, 6], *[6, 6], *[6, 1], *[1, 1]],
    )
    events = match.apply(Shoot(0, "Remus", "barrel@E6"))
    assert [e["square"] for e in of(events, "explosion")] == ["E6", "D5", "F6", "G7"]
    assert [(s["unit"], s["lost"]) for s in of(events, "saves")] == [
        ("Vex", 2), ("Bo", 2), ("Vex", 1), ("Vex", 0),
    ]  # fmt: skip
    assert hits(match) == {"Remus": 3, "Vex": 3, "Bo": 1}
    assert all(item.square is None for item in match.state.items.values())
    assert match.dice.remaining == 0


def test_barrel_needs_a_valid_ranged_target() -> None:
    """Rulings: Items: barrels are targeted like units (range, line of sight, restrictions)."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10")]},
        items=[barrel("C12"), barrel("D4")],
    )
    refused(match, Shoot(0, "Remus", "barrel@C12"), "C12 is 9 squares away")
    refused(match, Shoot(0, "Remus", "barrel@D4"), "not adjacent")
    refused(match, Shoot(0, "Remus", "barrel@E5"), "There is no barrel on E5.")


def test_unit_taken_out_by_its_own_barrel_ends_its_activation() -> None:
    """docs/rulings.md: the activation ends by itself when its unit is Taken Out; every save
    roll follows standing orders, also the active player's own (Red re-rolls one save)."""
    match = skirm_match(
        {0: [unit("Remus", "E5", hit=1), unit("Ann", "A1")], 1: [unit("Vex", "J10")]},
        items=[barrel("F6")],
        orders=(1, 0),
        faces=[2, 6, 6, 6, 6],
    )
    match.apply(SetStandingOrders(0, reroll_saves_above=0))
    match.apply(Melee(0, "Remus", "barrel@F6"))
    events = match.apply(Accept(0))  # one miss and 1 TO: the roll waited for Red's decision
    saves = of(events, "saves")[0]
    assert (saves["unit"], saves["rerolled"], saves["lost"]) == ("Remus", [1], 1)
    assert [e.kind for e in events][-2:] == ["taken_out", "activation_ended"]
    assert of(events, "activation_ended")[0]["reason"] == "its unit was Taken Out"
    assert match.state.activation is None and match.state.to_act == 1
    assert match.state.squads[0].orders == 0
    assert match.dice.remaining == 0


# --- turrets ----------------------------------------------------------------------------------------
def test_turret_costs_1_act_per_use_without_repeat_surcharge() -> None:
    """Rulebook Turret: a unit on its square spends 1 ACT to use it, and may use it several
    times in its activation at 1 ACT each."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]},
        items=[turret("C3")],
        faces=[6] * 12,
    )
    events: list[Event] = []
    for _ in range(3):
        events += match.apply(UseTurret(0, "Remus", "Vex"))
    assert [(e.data["action"], e.data["act"]) for e in events if e.kind == "cost_paid"] == [
        ("turret", 1), ("turret", 1), ("turret", 1),
    ]  # fmt: skip
    assert events[-1].kind == "activation_ended"  # 3 ACT spent, no TO
    assert match.dice.remaining == 0


def test_machine_gun_turret_roa_4_dam_1() -> None:
    """Rulings: Items: Machine Gun Turret ROA 4, DAM 1: four dice; 1 and 3 strike for RSK 3,
    the 1 dealing DAM+1: 3 damage."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]},
        items=[turret("C3")],
        faces=[1, 3, 4, 6, 6, 6, 3],
    )
    events = match.apply(UseTurret(0, "Remus", "Vex"))
    roll = of(events, "roll")[0]
    assert (roll["faces"], roll["skill"]) == ([1, 3, 4, 6], 3)
    attack = of(events, "attack")[0]
    assert (attack["weapon"], attack["strikes"], attack["damage"]) == ("Machine Gun Turret", 2, 3)
    assert hits(match)["Vex"] == 1
    assert match.dice.remaining == 0


def test_machine_gun_turret_range_8() -> None:
    """Rulings: Items: Machine Gun Turret RG8: 8 squares is in range, 9 is not."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C12"), unit("Bo", "K3")]},
        items=[turret("C3")],
        faces=[6, 6, 6, 6],
    )
    refused(match, UseTurret(0, "Remus", "Vex"), "C12 is 9 squares away; this weapon's range is 8.")
    match.apply(UseTurret(0, "Remus", "Bo"))
    assert match.dice.remaining == 0


def test_turret_use_is_not_a_ranged_attack_for_the_surcharge() -> None:
    """docs/rulings.md (Using a turret is its own action): a Ranged Attack after using the
    turret still costs 1 ACT."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]},
        items=[turret("C3")],
        faces=[6] * 6,
    )
    events = match.apply(UseTurret(0, "Remus", "Vex")) + match.apply(Shoot(0, "Remus", "Vex"))
    assert [(e.data["action"], e.data["act"]) for e in events if e.kind == "cost_paid"] == [
        ("turret", 1), ("ranged", 1),
    ]  # fmt: skip
    assert match.dice.remaining == 0


def test_item_on_the_attackers_own_square_cannot_be_attacked() -> None:
    """docs/rulings.md (Combat and items): an item on the unit's own square is not a valid
    target (a ranged target is at least 2 squares away, a melee target adjacent)."""
    match = skirm_match({0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]}, items=[turret("C3")])
    refused(
        match, Shoot(0, "Remus", "turret@C3"), "Remus cannot attack something on its own square."
    )
    refused(
        match, Melee(0, "Remus", "turret@C3"), "Remus cannot attack something on its own square."
    )


def test_turret_needs_the_unit_on_its_square() -> None:
    """Rulebook Turret: to use a turret a unit must occupy its square."""
    match = skirm_match({0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]}, items=[turret("C4")])
    refused(
        match,
        UseTurret(0, "Remus", "Vex"),
        "There is no turret on C3; Remus must stand on a turret to use it.",
    )


def test_turret_takes_damage_with_2_arm() -> None:
    """Rulebook Turret: turrets take damage like units, saving at 2 ARM (2 saves, 3 fails), and
    have 2 HIT."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10")]},
        items=[turret("C8")],
        faces=[2, 3, 2, 3],
    )
    events = match.apply(Shoot(0, "Remus", "turret@C8"))
    assert of(events, "saves") == [
        {
            "item": 0,
            "faces": [2, 3],
            "first_faces": [2, 3],
            "needed": 2,
            "saved": 1,
            "rerolled": [],
            "lost": 1,
        }
    ]
    assert match.state.items[0].hit == 1 and str(match.state.items[0].square) == "C8"
    assert match.dice.remaining == 0


def test_destroyed_turret_deals_3_damage_to_the_unit_on_its_square() -> None:
    """Rulebook Turret: at 0 HIT the turret is removed and deals 3 damage to the unit on its
    square (3 save dice)."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]},
        items=[turret("C10")],
        faces=[2, 3, 6, 6, 6, 6, 6],
    )
    events = match.apply(Shoot(0, "Remus", "turret@C10"))
    assert [e.kind for e in events][-4:] == ["saves", "item_destroyed", "saves", "taken_out"]
    assert of(events, "item_destroyed") == [{"item": 0, "kind": "turret", "square": "C10"}]
    assert of(events, "saves")[1]["unit"] == "Vex" and of(events, "saves")[1]["faces"] == [6, 6, 6]
    taken = of(events, "taken_out")[0]
    assert (taken["unit"], taken["by"], taken["kind"], taken["item"]) == (
        "Vex",
        "Remus",
        "explosion",
        "turret",
    )
    assert match.state.items[0].square is None
    assert match.dice.remaining == 0


def test_turret_destroyed_with_nobody_on_it_hurts_nobody() -> None:
    """Rulebook Turret: the 3 damage goes to a unit on the turret's square only."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "D10")]},
        items=[turret("C10")],
        faces=[2, 3, 6, 6],
    )
    events = match.apply(Shoot(0, "Remus", "turret@C10"))
    assert [e.kind for e in events][-2:] == ["saves", "item_destroyed"]
    assert hits(match)["Vex"] == 3
    assert match.dice.remaining == 0


# --- objectives and scoring --------------------------------------------------------------------------
def test_objective_controlled_without_enemy_adjacent() -> None:
    """Rulebook Scoring: a unit on an objective's square controls it if no enemy unit is in an
    adjacent square; each controlled objective scores 1 MP at the end of the turn."""
    match = skirm_match(
        {0: [unit("Remus", "E6")], 1: [unit("Vex", "J10")]},
        objectives=["E6", "J10", "A1"],
        turns_total=1,
    )
    events = pass_turn(match)
    assert of(events, "scored") == [
        {"side": 0, "points": 1, "reason": "control"},
        {"side": 1, "points": 1, "reason": "control"},
    ]
    assert [s.mp for s in match.state.squads] == [1, 1]


def test_enemy_adjacent_denies_control() -> None:
    """Rulebook Scoring: with an enemy adjacent, nobody controls the objective."""
    match = skirm_match(
        {0: [unit("Remus", "E6")], 1: [unit("Vex", "F7")]},
        objectives=["E6"],
        turns_total=1,
    )
    events = pass_turn(match)
    assert of(events, "scored") == [] and [s.mp for s in match.state.squads] == [0, 0]


def test_enemy_behind_a_high_wall_is_not_adjacent() -> None:
    """Rulebook Adjacent Squares: a wall higher than 1 Square breaks adjacency, so the enemy
    behind it does not contest the objective."""
    match = skirm_match(
        {0: [unit("Remus", "E6")], 1: [unit("Vex", "E7")]},
        objectives=["E6"],
        edges=["E6|E7: wall=2"],
        turns_total=1,
    )
    events = pass_turn(match)
    assert of(events, "scored") == [{"side": 0, "points": 1, "reason": "control"}]


def test_one_point_per_objective_times_the_missions_points() -> None:
    """Rulebook Scoring: one score per objective controlled; the mission sets the points."""
    match = skirm_match(
        {0: [unit("Remus", "E6"), unit("Ann", "H6")], 1: [unit("Vex", "J10")]},
        objectives=["E6", "H6"],
        scoring=[{"kind": "control", "points": 2}],
        turns_total=1,
    )
    events = pass_turn(match)
    assert of(events, "scored") == [{"side": 0, "points": 4, "reason": "control"}]
    assert "controls objectives 1, 2: +4 MP" in next(e.text for e in events if e.kind == "scored")


def test_scoring_from_a_later_turn() -> None:
    """Missions (scoring `from_turn`): nothing is scored before that turn."""
    match = skirm_match(
        {0: [unit("Remus", "E6")], 1: [unit("Vex", "J10")]},
        objectives=["E6"],
        scoring=[{"kind": "control", "points": 1, "from_turn": 2}],
        faces=[1, 2, *[6] * 8],
        turns_total=2,
    )
    first = pass_turn(match)
    assert of(first, "scored") == []
    second = pass_turn(match)
    assert of(second, "scored") == [{"side": 0, "points": 1, "reason": "control"}]
    assert match.dice.remaining == 0


def test_take_out_scoring_counts_enemies_taken_out_this_turn() -> None:
    """Missions (`take_out` kind): `points` per enemy unit taken out during the turn, scored at
    its end, and only in that turn."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C10", hit=1), unit("Bo", "J10")]},
        scoring=[{"kind": "take_out", "points": 2}],
        faces=[2, 6, 6, 1, 2, *[6] * 7],  # turn 2: Blue rolls 3D6 only, its Leader Vex is out
        turns_total=2,
    )
    match.apply(Shoot(0, "Remus", "Vex"))
    first = pass_turn(match)
    assert of(first, "scored") == [{"side": 0, "points": 2, "reason": "take_out"}]
    assert "took out 1 enemy this turn" in next(e.text for e in first if e.kind == "scored")
    second = pass_turn(match)
    assert of(second, "scored") == []
    assert [s.mp for s in match.state.squads] == [2, 0]
    assert match.dice.remaining == 0


def test_take_out_scoring_ignores_a_squad_hurting_itself() -> None:
    """docs/rulings.md (Taking out your own units scores nothing) and missions' `take_out`
    kind: the barrel Red's Remus explodes taking out Red's Ann scores for nobody."""
    match = skirm_match(
        {0: [unit("Remus", "G6"), unit("Ann", "F5", hit=1)], 1: [unit("Vex", "J10")]},
        items=[barrel("F6")],
        scoring=[{"kind": "take_out", "points": 1}],
        faces=[2, 6, 6, 6, 1, 1],
        turns_total=1,
    )
    events = match.apply(Melee(0, "Remus", "barrel@F6"))
    assert of(events, "taken_out")[0]["unit"] == "Ann"
    events = pass_turn(match)
    assert of(events, "scored") == [] and [s.mp for s in match.state.squads] == [0, 0]
