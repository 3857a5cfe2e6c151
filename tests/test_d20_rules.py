"""The d20 rules (rulebook 004), one test per rule, each citing its sentence (or our ruling in
docs/rulings.md, "The d20 rules (rulebook 004)") and scripting its dice."""

from __future__ import annotations

import pytest
from d20_builders import content, d20, put, script, warband

from skirmbot.rules.commands import Concede, Deploy, EndActivation
from skirmbot.rules.d20.commands import Attack, Buy, Defend, EndTurn, Move, Shift, StandingOrders
from skirmbot.rules.d20.engine import D20Match
from skirmbot.rules.d20.ruleset import RULESET
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.errors import IllegalCommand, RulesError
from skirmbot.rules.squares import Square
from skirmbot.rules.view import DOWNED, OUT, READY, Decision

TROOPERS = ([("Ann", "Trooper")], [("Bo", "Trooper")])


def refused(match: D20Match, command: object, words: str) -> None:
    """The command is refused with `words` and changes nothing."""
    before = RULESET.view(match.state)
    taken = len(match.commands)
    with pytest.raises(IllegalCommand, match=words):
        match.apply(command)  # type: ignore[arg-type]
    assert RULESET.view(match.state) == before
    assert len(match.commands) == taken


def facing(match: D20Match, unit: str) -> str | None:
    piece = RULESET.view(match.state).piece(unit)
    assert piece is not None
    return piece.facing


def status(match: D20Match, unit: str) -> str:
    piece = RULESET.view(match.state).piece(unit)
    assert piece is not None
    return piece.status


def square(match: D20Match, unit: str) -> Square | None:
    piece = RULESET.view(match.state).piece(unit)
    assert piece is not None
    return piece.square


def standing(match: D20Match, seat: int) -> str:
    return RULESET.view(match.state).sides[seat].standing


# --- Round: "All players roll a d20 and determine playing order starting with highest roll" ---
def test_initiative_orders_the_seats_by_their_d20_highest_first() -> None:
    match = d20(
        [("Ann", "Trooper")], [("Bo", "Trooper")], [("Cy", "Trooper")], start=(5, 17, 11, 9)
    )
    assert match.state.order == [1, 2, 0]
    view = RULESET.view(match.state)
    assert view.to_act == 1 and view.turn == 1 and view.turn_word == "Round"
    assert view.notes == ("Then: Band 3",)


def test_tied_initiative_rolls_are_rolled_again_between_the_tied_seats() -> None:
    """Our ruling (the issue: "re-roll ties"): only the tied seats roll again, as often as needed."""
    match = d20(
        [("Ann", "Trooper")], [("Bo", "Trooper")], [("Cy", "Trooper")], start=(9, 9, 3, 4, 12, 7)
    )
    assert match.state.order == [1, 0, 2]
    assert match.state.to_act == 1


# --- Command Phase: "Roll 1d20 to generate action points to be spent on your turn." ------------
def test_a_turn_starts_with_its_action_point_roll() -> None:
    match = d20(*TROOPERS, start=(20, 19, 12))
    assert standing(match, 0).startswith("AP 12 · 0 bonus dice")


def test_action_points_do_not_carry_from_turn_to_turn() -> None:
    """ "Action points do not carry from turn-to-turn or round-to-round.\""""
    match = d20(*TROOPERS)
    script(match, 8)
    match.apply(EndTurn(0))
    assert match.state.seats[0].ap == 0 and match.state.to_act == 1
    assert match.state.seats[1].ap == 8
    script(match, 5)
    match.apply(EndTurn(1))
    assert match.state.seats[0].ap == 5


def test_a_turn_ends_when_its_action_points_are_spent() -> None:
    """ "A player's turn ends when they are spent all of their action points.\""""
    match = d20(*TROOPERS, start=(20, 19, 2))
    script(match, 9)
    match.apply(Buy(0, 2))  # 2 AP: all of them
    assert match.state.to_act == 1 and match.state.seats[1].ap == 9


def test_a_1_for_action_points_ends_the_round_at_once() -> None:
    """ "Alternate between players until a player rolls a 1 for Action Points, which ends the
    round and begins recovery." The next round rolls initiative again."""
    match = d20(*TROOPERS)
    script(match, 1, 3, 18, 6)
    events = match.apply(EndTurn(0))
    kinds = [event.kind for event in events]
    assert kinds.index("recovery") < kinds.index("turn_started") < kinds.index("initiative")
    assert match.state.round == 2
    assert match.state.order == [1, 0] and match.state.to_act == 1
    assert match.state.seats[1].ap == 6 and match.state.seats[0].ap == 0


# --- Bonus dice ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("held", "buying", "cost"), [(0, 1, 1), (0, 2, 2), (0, 3, 4), (0, 4, 7), (3, 1, 3), (2, 2, 5)]
)
def test_bonus_dice_cost_what_the_table_says_for_the_dice_held(
    held: int, buying: int, cost: int
) -> None:
    """ "1 AP per Bonus Dice" and the table 1, 2, 4, 7, 12, 20 (our ruling: the table prices the
    dice held, a purchase costs the difference, so the first die costs 1 AP)."""
    match = d20(*TROOPERS, start=(20, 19, 19))
    match.state.seats[0].bonus = held
    match.apply(Buy(0, buying))
    assert match.state.seats[0].ap == 19 - cost
    assert match.state.seats[0].bonus == held + buying


def test_six_bonus_dice_cost_20_action_points() -> None:
    match = d20(*TROOPERS, start=(20, 19, 20))
    script(match, 7)
    match.apply(Buy(0, 6))
    assert match.state.seats[0].bonus == 6 and match.state.to_act == 1


def test_no_player_holds_more_than_6_bonus_dice() -> None:
    """ "Each player can have no more than 6 Bonus Dice at time.\""""
    match = d20(*TROOPERS, start=(20, 19, 20))
    match.state.seats[0].bonus = 5
    refused(match, Buy(0, 2), "at most 6 bonus dice")


def test_bonus_dice_cannot_be_bought_with_action_points_not_held() -> None:
    match = d20(*TROOPERS, start=(20, 19, 3))
    refused(match, Buy(0, 3), "costs 4 AP")


def test_bonus_dice_bought_after_activating_end_the_action_phase() -> None:
    """ "You can not purchase bonus dice during the "action phase"": a purchase after an
    activation ends the Action Phase (our ruling), so no model activates after it."""
    match = d20([("Ann", "Trooper"), ("Al", "Trooper")], [("Bo", "Trooper")])
    put(match, Ann="F6", Al="H6", Bo="F10")
    match.apply(Move(0, "Ann", "F7"))
    match.apply(Buy(0, 1))
    refused(match, Move(0, "Al", "H7"), "no model can activate")
    refused(match, Move(0, "Ann", "F8"), "no model can activate")


def test_bonus_dice_carry_from_turn_to_turn_but_not_round_to_round() -> None:
    """ "Bonus dice do carry from turn-to-turn but not round-to-round.\""""
    match = d20(*TROOPERS)
    match.apply(Buy(0, 2))
    script(match, 8, 9)
    match.apply(EndTurn(0))
    match.apply(EndTurn(1))
    assert match.state.seats[0].bonus == 2
    script(match, 1, 20, 19, 12)
    match.apply(EndTurn(0))
    assert match.state.round == 2 and match.state.seats[0].bonus == 0


# --- Movement ---------------------------------------------------------------------------------
def test_a_small_model_moves_6_inches_3_squares() -> None:
    """ "Small Models can move 6 inches"; our ruling: a square is 2 inches."""
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="A10")
    refused(match, Move(0, "Ann", "F9"), "4 squares away")
    match.apply(Move(0, "Ann", "I8"))
    assert square(match, "Ann") == Square.parse("I8")


def test_a_big_model_moves_12_inches_6_squares_and_faces_its_last_step() -> None:
    """ "Big Models can move 12 inches"; our ruling: a Big Model ends a move facing the way of its
    last step unless its player names a facing."""
    match = d20([("Vask", "Walker")], [("Bo", "Trooper")])
    put(match, Vask="B4", Bo="L12")
    refused(match, Move(0, "Vask", "I4"), "7 squares away")
    match.apply(Move(0, "Vask", "H4"))
    assert square(match, "Vask") == Square.parse("H4") and facing(match, "Vask") == "E"
    match.apply(Move(0, "Vask", "H5", facing="SW"))
    assert facing(match, "Vask") == "SW"
    view = RULESET.view(match.state)
    piece = view.piece("Vask")
    assert piece is not None and len(piece.squares) == 4


def test_movements_cost_1_3_and_5_action_points_at_most_three_times() -> None:
    """ "1st Movement is 1 AP, 2nd Movement is 3 AP, 3rd Movement is 5 AP"; "A model can move up
    three times per activation"."""
    match = d20(*TROOPERS, start=(20, 19, 20))
    put(match, Ann="F5", Bo="A12")
    for destination, left in (("F6", 19), ("F7", 16), ("F8", 11)):
        match.apply(Move(0, "Ann", destination))
        assert match.state.seats[0].ap == left
    refused(match, Move(0, "Ann", "F9"), "three times")


def test_a_model_cannot_move_fight_and_move_again() -> None:
    """ "A model cannot move, perform combat, and move again.\""""
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    match.apply(Move(0, "Ann", "F6"))
    script(match, 5, 5)
    match.apply(Attack(0, "Ann", "Bo", "Rifle"))
    refused(match, Move(0, "Ann", "F5"), "moved and fought")


def test_a_model_may_fight_then_move() -> None:
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    script(match, 5, 5)
    match.apply(Attack(0, "Ann", "Bo", "Rifle"))
    match.apply(Move(0, "Ann", "F4"))
    assert square(match, "Ann") == Square.parse("F4")


def test_bonus_dice_add_their_faces_in_inches_to_a_movement() -> None:
    """ "Bonus dice can be added to other rolls or to movement": 6" + a 4 is 10", 5 squares."""
    match = d20(*TROOPERS)
    put(match, Ann="F1", Bo="A12")
    match.state.seats[0].bonus = 1
    script(match, 4)
    match.apply(Move(0, "Ann", "F6", bonus=1))
    assert square(match, "Ann") == Square.parse("F6") and match.state.seats[0].bonus == 0


def test_a_movement_short_of_its_square_stops_along_the_way() -> None:
    """Our ruling: bonus dice are rolled before the model moves; it goes as far as they take it."""
    match = d20(*TROOPERS)
    put(match, Ann="F1", Bo="A12")
    match.state.seats[0].bonus = 1
    script(match, 1)  # 7": 3 squares
    match.apply(Move(0, "Ann", "F6", bonus=1))
    assert square(match, "Ann") == Square.parse("F4")


def test_models_and_walls_block_movement() -> None:
    """Our ruling (Scale): no model passes through another, nor over a wall or a closed door."""
    wall = ["E5|E6, F5|F6, G5|G6: wall=1"]
    match = d20(*TROOPERS, battle_map=None)
    put(match, Ann="F5", Bo="F6")
    refused(match, Move(0, "Ann", "F7"), "cannot reach|squares away")
    walled = d20(
        *TROOPERS, battle_map={"name": "W", "rows": [" ".join(["."] * 12)] * 12, "edges": wall}
    )
    put(walled, Ann="F5", Bo="A12")
    refused(walled, Move(0, "Ann", "F6"), "squares away|cannot reach")


# --- Combat -----------------------------------------------------------------------------------
def test_a_ranged_attack_that_beats_the_defence_downs_the_defender() -> None:
    """ "If attacker beats defender, the defending model is turned on it's side and is considered
    down." Combat costs 2 AP (our ruling)."""
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    script(match, 7, 3)
    events = [e for e in match.apply(Attack(0, "Ann", "Bo", "Rifle")) if e.kind == "attack"]
    assert status(match, "Bo") == DOWNED
    assert match.state.seats[0].ap == 10
    assert events[0].data["total"] == 7 and events[0].data["against"] == 3


@pytest.mark.parametrize("faces", [(5, 5), (2, 8)])
def test_a_ranged_attack_that_does_not_beat_the_defence_changes_nothing(
    faces: tuple[int, int],
) -> None:
    """A tie is no win (our ruling: Ties): "If attacker beats defender"; a ranged attacker that
    loses is not downed."""
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    script(match, *faces)
    match.apply(Attack(0, "Ann", "Bo", "Rifle"))
    assert status(match, "Bo") == READY and status(match, "Ann") == READY


def test_a_ranged_target_must_be_within_the_weapons_range() -> None:
    """ "Select target within range of weapon profile": a Pistol's 12" is 6 squares."""
    match = d20([("Isa", "Duelist")], [("Bo", "Trooper")])
    put(match, Isa="F3", Bo="F10")
    refused(match, Attack(0, "Isa", "Bo", "Pistol"), "reaches 6 squares")


def test_a_high_wall_blocks_the_line_of_sight() -> None:
    """Our ruling: walls and closed doors 2 high block sight; a model cannot attack what it cannot
    see."""
    edges = ["F7|F8: wall=2"]
    match = d20(
        *TROOPERS, battle_map={"name": "W", "rows": [" ".join(["."] * 12)] * 12, "edges": edges}
    )
    put(match, Ann="F5", Bo="F9")
    refused(match, Attack(0, "Ann", "Bo", "Rifle"), "cannot see")


def test_a_model_behind_a_terrain_feature_adds_1_to_its_defence() -> None:
    """ "Models behind terrain features can reasonably claim a benefit for defense therefore, add
    +1 to any defense roll": 6 against 5 + 1 is a tie."""
    edges = ["F8|F9: wall=1"]
    match = d20(
        *TROOPERS, battle_map={"name": "W", "rows": [" ".join(["."] * 12)] * 12, "edges": edges}
    )
    put(match, Ann="F5", Bo="F9")
    script(match, 6, 5)
    events = [e for e in match.apply(Attack(0, "Ann", "Bo", "Rifle")) if e.kind == "attack"]
    assert events[0].data["cover"] is True and status(match, "Bo") == READY


def test_the_loser_of_a_melee_is_downed_even_the_attacker() -> None:
    """ "Losing model is turned on it's side and is in a "downed state" until the recovery phase.\""""
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F6")
    script(match, 3, 8)
    match.apply(Attack(0, "Ann", "Bo", "Knife"))
    assert status(match, "Ann") == DOWNED and status(match, "Bo") == READY
    assert match.state.active is None


def test_the_winner_of_a_melee_may_move_up_to_3_inches() -> None:
    """ "the winner may move up to 3 inches": one square, free (our ruling: Scale)."""
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F6")
    script(match, 8, 3)
    match.apply(Attack(0, "Ann", "Bo", "Knife"))
    assert Shift(0, "Ann", "E5") in RULESET.legal_commands(match.state, 0)
    refused(match, Shift(0, "Ann", "F3"), "free move")
    match.apply(Shift(0, "Ann", "E5"))
    assert square(match, "Ann") == Square.parse("E5") and match.state.seats[0].ap == 10


def test_a_downed_model_cannot_be_attacked_or_act() -> None:
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    match.state.model("Bo").status = DOWNED
    refused(match, Attack(0, "Ann", "Bo", "Rifle"), "already down")


def test_one_combat_per_activation() -> None:
    """Our ruling: a model fights once in an activation (the rulebook lists Combat once)."""
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    script(match, 5, 5)
    match.apply(Attack(0, "Ann", "Bo", "Rifle"))
    refused(match, Attack(0, "Ann", "Bo", "Rifle"), "already fought")


def test_a_model_activates_once_a_turn() -> None:
    """Our ruling: an activation ends when another model activates; it does not come back."""
    match = d20([("Ann", "Trooper"), ("Al", "Trooper")], [("Bo", "Trooper")])
    put(match, Ann="F5", Al="H5", Bo="A12")
    match.apply(Move(0, "Ann", "F6"))
    match.apply(Move(0, "Al", "H6"))
    refused(match, Move(0, "Ann", "F7"), "already activated")
    match.apply(EndActivation(0, "Al"))
    refused(match, Move(0, "Al", "H7"), "already activated")


# --- Big Models' armour -----------------------------------------------------------------------
def walker_facing_south() -> D20Match:
    match = d20([("Ann", "Trooper"), ("Gus", "Gunner"), ("Elm", "Marksman")], [("Vask", "Walker")])
    put(match, Vask="E5", Ann="A12", Gus="A11", Elm="B12")
    match.state.model("Vask").facing = "S"
    return match


def test_armour_0_to_1_is_only_damaged_at_melee_range() -> None:
    """ "If a big model has an armor value of 0 to 1, the big model may only be damaged at melee
    range": the Walker's rear armour is 1."""
    match = walker_facing_south()
    put(match, Ann="E2")
    refused(
        match,
        Attack(0, "Ann", "Vask", "Rifle"),
        "rear armour is 1: it can only be damaged in melee",
    )
    put(match, Ann="E4")
    script(match, 9, 2)
    match.apply(Attack(0, "Ann", "Vask", "Knife"))
    assert status(match, "Vask") == DOWNED


def test_armour_2_or_more_needs_an_armour_penetration_value() -> None:
    """ "An armor value of 2+ can only be damaged by attacks with an Armor Penetration value" (our
    ruling: at least the armour's value). Front 3: a Rifle (0) cannot, a Launcher (4) can."""
    match = walker_facing_south()
    put(match, Ann="E9", Gus="F9", Elm="J5")
    refused(match, Attack(0, "Ann", "Vask", "Rifle"), "front armour is 3")
    refused(match, Attack(0, "Elm", "Vask", "Long Rifle"), "side armour is 2")
    script(match, 9, 2)
    match.apply(Attack(0, "Gus", "Vask", "Launcher"))
    assert status(match, "Vask") == DOWNED


# --- The Recovery Phase -----------------------------------------------------------------------
def downed_bo() -> D20Match:
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    script(match, 7, 3)
    match.apply(Attack(0, "Ann", "Bo", "Rifle"))
    return match


def test_a_downed_small_model_returns_to_play_on_4_or_more() -> None:
    """ "a recovery phase where downed models will either return to play or be removed": our
    ruling, a d6: 4+ returns."""
    match = downed_bo()
    script(match, 1, 4, 20, 19, 12)
    match.apply(EndTurn(0))
    assert status(match, "Bo") == READY


def test_a_downed_small_model_is_removed_as_a_casualty_on_3_or_less() -> None:
    match = downed_bo()
    script(match, 1, 3, 20, 19, 12)
    match.apply(EndTurn(0))
    assert status(match, "Bo") == OUT and square(match, "Bo") is None
    assert RULESET.scores(match.state) == (1, 0)


def test_a_downed_big_model_explodes_on_1_or_2_downing_the_models_next_to_it() -> None:
    """ "Big models can explode in the recovery phase": our ruling, a d6 of 1-2 removes it and
    downs every Small Model next to it, which then rolls to recover."""
    match = walker_facing_south()
    put(match, Ann="D4", Gus="H8")
    vask = match.state.model("Vask")
    vask.status, vask.downed_by = DOWNED, 0
    script(match, 8, 1, 2, 5, 20, 19, 12)  # seat 1's AP, then seat 0 rolls 1: recovery
    match.apply(EndTurn(0))
    match.apply(EndTurn(1))
    assert status(match, "Vask") == OUT
    assert status(match, "Ann") == READY  # caught, downed, then rolled 5
    assert status(match, "Gus") == READY
    assert RULESET.scores(match.state) == (3, 0)


# --- Decisions in another player's turn --------------------------------------------------------
def test_a_standing_order_decides_the_defenders_bonus_dice_at_once() -> None:
    """The defender's bonus dice ("Defender will roll to defend with a d10, plus any bonus
    dice") by its standing order: 7 against 3 + 2 + 2 is a tie."""
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    match.apply(StandingOrders(1, defend=2))
    match.state.seats[1].bonus = 3
    script(match, 7, 3, 2, 2)
    match.apply(Attack(0, "Ann", "Bo", "Rifle"))
    assert status(match, "Bo") == READY and match.state.seats[1].bonus == 1


def test_a_seat_that_asks_to_be_prompted_decides_its_defence_itself() -> None:
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    match.apply(StandingOrders(1, defend=1, prompt=True))
    match.state.seats[1].bonus = 3
    match.apply(Attack(0, "Ann", "Bo", "Rifle"))
    assert RULESET.deciding(match.state) == (
        Decision(1, "Ann attacks Bo: choose bonus dice to defend", (Defend(1, 1),), turn=False),
    )
    refused(match, EndTurn(0), "Waiting for Band 2")
    refused(match, Defend(1, 4), "holds 3 bonus dice")
    script(match, 9, 2, 4, 4)
    match.apply(Defend(1, 2))
    assert status(match, "Bo") == READY and match.state.seats[1].bonus == 1


# --- Conceding and placings --------------------------------------------------------------------
def test_a_seat_that_concedes_leaves_and_the_others_play_on() -> None:
    match = d20(
        [("Ann", "Trooper")], [("Bo", "Trooper")], [("Cy", "Trooper")], start=(20, 15, 10, 12)
    )
    match.apply(Concede(1))
    view = RULESET.view(match.state)
    assert view.sides[1].out and not view.pieces_of(1)[0].on_map
    assert RULESET.outcome(match.state) is None
    script(match, 7)
    match.apply(EndTurn(0))
    assert match.state.to_act == 2  # seat 1 is skipped
    match.apply(Concede(0))
    outcome = RULESET.outcome(match.state)
    assert outcome is not None and outcome.placings == (2, 3, 1) and outcome.winner == 2


def test_placings_follow_the_scores_equal_scores_sharing_a_place() -> None:
    match = d20([("Ann", "Trooper")], [("Bo", "Trooper")], [("Cy", "Trooper")], mission={
        "name": "Short", "rounds": 1, "points_limit": 200, "scoring": [{"kind": "casualties"}]})  # fmt: skip
    for seat, score in enumerate((2, 5, 2)):
        match.state.seats[seat].score = score
    script(match, 1)
    match.apply(EndTurn(0))
    outcome = RULESET.outcome(match.state)
    assert outcome is not None and outcome.placings == (2, 1, 2) and outcome.scores == (2, 5, 2)


def test_a_seat_may_concede_while_the_others_deploy() -> None:
    """Our ruling (Conceding): the match begins once every warband still in it has deployed."""
    match = RULESET.new_match(
        content(
            [warband(f"Band {n}", *[(f"M{n}{k}", "Trooper") for k in range(3)]) for n in range(3)]
        ),
        ScriptedDice([20, 10, 12]),
    )
    match.apply(RULESET.automatic_placement(match.state, 0))
    match.apply(RULESET.automatic_placement(match.state, 2))
    match.apply(Concede(1))
    assert RULESET.view(match.state).to_act == 0 and match.state.order == [0, 2]


def test_a_placement_that_is_not_a_square_is_refused_in_words() -> None:
    match = RULESET.new_match(content([warband("A", ("Ann", "Trooper"), ("Al", "Trooper"), ("Abe", "Trooper")), warband("B", ("Bo", "Trooper"), ("Bea", "Trooper"), ("Bill", "Trooper"))]), ScriptedDice([]))  # fmt: skip
    refused(match, Deploy(0, {"Ann": 3, "Al": "C1", "Abe": "D1"}), "is not a square")  # type: ignore[dict-item]
    refused(match, Deploy(0, {"Ann": "C5", "Al": "C1", "Abe": "D1"}), "in Band|zone")


@pytest.mark.parametrize(
    "command",
    [
        Deploy(3, {"Ann": "C1"}),
        Buy(2, 3),
        Move(1, "Ann", "C4", bonus=2, facing="NE"),
        Attack(0, "Ann", "Bo", None, 1),
        Defend(3, 2),
        Shift(1, "Ann", None),
        EndTurn(2),
        EndActivation(0, None),
        StandingOrders(1, 3, True),
        Concede(3),
    ],
)
def test_every_command_reads_back_from_its_record_form(command: object) -> None:
    """Seats 0 to 3 (the kernel's reader takes 0 and 1): the d20 rules read their own."""
    assert RULESET.parse_command(command.to_json()) == command  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"type": "buy", "side": 4, "dice": 1}, "'side' from 0 to 3"),
        ({"type": "buy", "side": True, "dice": 1}, "'side' from 0 to 3"),
        ({"type": "move", "side": 0, "unit": None, "square": "C4"}, "'unit' cannot be None"),
        ({"type": "buy", "side": 0, "dice": 1, "orders": 2}, "no field orders"),
        ({"type": "leap", "side": 0}, "not a d20 command"),
    ],
)
def test_a_malformed_command_is_refused_in_words(data: dict[str, object], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        RULESET.parse_command(data)


def test_a_defender_that_wins_a_melee_takes_its_free_move_only_when_it_asked_to_be_prompted() -> (
    None
):
    """ "the winner may move up to 3 inches": a defender asked to be prompted decides it in the
    attacker's turn (turn=False), its deadline sending "stay"; otherwise it stays at once."""
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F6")
    match.apply(StandingOrders(1, defend=0, prompt=True))
    script(match, 2, 9)
    match.apply(Attack(0, "Ann", "Bo", "Knife"))
    assert RULESET.deciding(match.state) == (
        Decision(
            1, "Bo won the melee: take its free move, or stay", (Shift(1, "Bo", None),), turn=False
        ),
    )
    refused(match, EndTurn(0), "Waiting for Bo's free move")
    match.apply(Shift(1, "Bo", "G7"))
    assert square(match, "Bo") == Square.parse("G7") and RULESET.view(match.state).to_act == 0


def test_a_defender_that_wins_a_melee_without_asking_stays() -> None:
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F6")
    script(match, 2, 9)
    match.apply(Attack(0, "Ann", "Bo", "Knife"))
    assert match.state.free_move is None and square(match, "Bo") == Square.parse("F6")
