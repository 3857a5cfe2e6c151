"""/roll, /rolloff and /to with scripted faces: every form of the grammar, success counting,
limits and error positions."""

from __future__ import annotations

import pytest

from skirmbot.dice.expressions import (
    ROLL_HELP,
    SKIRM_RULE,
    DiceError,
    RollOutcome,
    format_roll,
    roll_expression,
)
from skirmbot.dice.rolloff import (
    MAX_ROUNDS,
    format_orders,
    format_roll_off,
    roll_off,
    roll_tactical_orders,
)
from skirmbot.rules.dice import DiceExhausted, ScriptedDice, SeededDice


def rolled(expression: str, *faces: int) -> RollOutcome:
    """Roll with exactly these faces, and check the roll used every one of them."""
    dice = ScriptedDice(faces)
    outcome = roll_expression(expression, dice)
    assert dice.remaining == 0, f"{dice.remaining} scripted faces were not rolled"
    return outcome


# --- the d20 grammar, every die shown -----------------------------------------------------------
def test_plain_dice_and_arithmetic() -> None:
    outcome = rolled("1d8+3", 5)
    assert outcome.total == 8 and outcome.successes is None
    assert outcome.text == "1d8 (5) + 3 = `8`"
    assert rolled("2d6*2 - 1", 3, 4).total == 13


def test_keep_highest_and_lowest_strike_out_the_dropped_dice() -> None:
    highest = rolled("4d6kh3", 2, 6, 3, 5)
    assert highest.total == 14
    assert highest.text == "4d6kh3 (~~2~~, **6**, 3, 5) = `14`"
    lowest = rolled("2d20kl1", 17, 4)
    assert lowest.total == 4 and lowest.text == "2d20kl1 (~~17~~, 4) = `4`"


def test_rerolls_show_the_replaced_faces() -> None:
    again = rolled("1d6rr1", 1, 1, 4)  # re-rolls every 1
    assert again.total == 4 and again.text == "1d6rr1 (**~~1~~**, **~~1~~**, 4) = `4`"
    once = rolled("1d6ro1", 1, 1)  # re-rolls a 1 only once
    assert once.total == 1 and once.faces == (1, 1)


def test_exploding_dice_add_a_die_for_each_maximum() -> None:
    outcome = rolled("3d6e6", 6, 2, 3, 6, 1)
    assert outcome.total == 18
    assert outcome.text == "3d6e6 (**6!**, 2, 3, **6!**, **1**) = `18`"


def test_percentile_dice_roll_1_to_100_from_the_source() -> None:
    """`d%` as other dice bots read it: 1 to 100 (d20 alone rolls a tens die, 0 to 90)."""
    assert rolled("1d%", 4).total == 4
    hundred = rolled("d%", 100)
    assert hundred.total == 100 and hundred.text == "1d% (**100**) = `100`"
    assert rolled("2d%+1", 37, 1).total == 39


# --- other dice bots' notation (notation.py) ------------------------------------------------------
def test_rulebook_capitals_are_dice() -> None:
    """Rulebook Dice Rolls writes dice as 3D6."""
    outcome = rolled("3D6+1", 1, 2, 3)
    assert outcome.total == 7 and outcome.text == "3d6 (**1**, 2, 3) + 1 = `7`"


def test_bang_explodes_every_maximum() -> None:
    """Roll20 and Dice Maiden: `3d6!` adds a die for each 6, `3d6!5` for each 5."""
    outcome = rolled("3d6!", 6, 2, 3, 6, 1)
    assert outcome.total == 18
    assert outcome.text == "3d6e6 (**6!**, 2, 3, **6!**, **1**) = `18`"
    assert rolled("2d6!5", 5, 2, 4).total == 11


def test_fate_dice_are_minus_one_zero_or_plus_one() -> None:
    """`4dF`: each die is a D3 less 2, so the scripted 1, 2, 3 are -1, 0, +1."""
    outcome = rolled("4dF", 1, 2, 3, 3)
    assert outcome.total == 1 and outcome.text == "4dF (-1, 0, +1, +1) = `1`"
    assert rolled("4dF+2", 1, 1, 1, 1).total == -2
    with pytest.raises(DiceExhausted, match="cannot come up on a D3"):
        roll_expression("1dF", ScriptedDice([4]))


def test_drop_lowest_and_highest() -> None:
    """Roll20 and Dice Maiden: `dl1` (or `d1`) drops the lowest die, `dh1` the highest."""
    assert rolled("4d6dl1", 2, 6, 3, 5).total == 14
    assert rolled("4d6d1", 2, 6, 3, 5).total == 14
    highest = rolled("4d6dh1", 2, 6, 3, 5)
    assert highest.total == 10 and highest.text == "4d6ph1 (2, ~~**6**~~, 3, 5) = `10`"


def test_k_alone_keeps_the_highest() -> None:
    """Roll20's `4d6k3` keeps the highest 3 (d20's own `k3` would keep the dice showing 3)."""
    outcome = rolled("4d6k3", 2, 6, 3, 5)
    assert outcome.total == 14 and outcome.text == "4d6kh3 (~~2~~, **6**, 3, 5) = `14`"


def test_advantage_and_disadvantage_roll_the_d20_twice() -> None:
    """Avrae: `adv` keeps the higher of two d20s, `dis` the lower; the rest is the comment."""
    advantage = rolled("1d20+5 adv", 5, 17)
    assert advantage.total == 22 and advantage.comment is None
    assert advantage.text == "2d20kh1 (~~5~~, 17) + 5 = `22`"
    disadvantage = rolled("1d20 dis sneak past", 5, 17)
    assert disadvantage.total == 5 and disadvantage.comment == "sneak past"


@pytest.mark.parametrize(
    ("expression", "hint"),
    [
        ("2d6 adv", "2d6kh1"),  # advantage is a d20 habit
        ("4d6 k3", "without a space: 4d6k3"),  # a modifier after a space would be a comment
        ("3d6!!", "3d6! explodes each maximum"),  # compounding
        ("1d6r1", "write rr to re-roll every time"),
        ("4dF!", "Fate dice (dF) do not explode"),
        ("6d6!>4", "3d6e>4"),
    ],
)
def test_notations_that_mean_something_else_are_refused_with_a_hint(
    expression: str, hint: str
) -> None:
    with pytest.raises(DiceError) as error:
        roll_expression(expression, ScriptedDice([]))
    assert str(error.value).startswith(f"'{expression}': ") and hint in str(error.value)


def test_a_comment_keeps_what_the_player_typed() -> None:
    """A comment is shown as typed, even when it holds something that looks like dice."""
    outcome = rolled("1d6 cast 3d6! on the orc", 4)
    assert outcome.comment == "cast 3d6! on the orc" and outcome.total == 4


def test_error_positions_count_in_what_was_typed() -> None:
    """`3d6!` becomes `3d6e6` for d20: the position of an error is still the player's."""
    with pytest.raises(DiceError, match=r"Unexpected 'x' at position 5 in '3d6!x'"):
        roll_expression("3d6!x", ScriptedDice([]))


def test_roll_help_documents_every_notation() -> None:
    for notation in ("4d6k3", "4d6dl1", "4d6dh1", "3d6!", "4dF", "d%", "1d20+5 adv", "6d6<=3"):
        assert notation in ROLL_HELP, notation


def test_comments_labels_and_annotations() -> None:
    outcome = rolled("1d20+2 attack the dragon", 11)
    assert outcome.comment == "attack the dragon" and outcome.total == 13
    assert format_roll(outcome, "Charge") == "**Charge · attack the dragon**\n1d20 (11) + 2 = `13`"
    assert format_roll(rolled("2d6 [fire] + 1", 2, 3)) == "2d6 (2, 3) [fire] + 1 = `6`"
    assert format_roll(rolled("1d4", 2), "  ") == "1d4 (2) = `2`"


def test_labels_cannot_restyle_the_answer() -> None:
    text = format_roll(rolled("1d4 *boom*", 2), "~~secret~~")
    assert text.startswith(r"**\~\~secret\~\~ · \*boom\***")


def test_same_seed_same_roll() -> None:
    first = roll_expression("10d6kh3+4d8", SeededDice(7))
    again = roll_expression("10d6kh3+4d8", SeededDice(7))
    assert first.text == again.text


def test_without_a_source_the_dice_are_random() -> None:
    assert 3 <= roll_expression("3d6").total <= 18


# --- success counting ------------------------------------------------------------------------
def test_count_at_or_under_is_a_skirm_skill_test() -> None:
    """Rulebook Successes and Failures: at or under the stat succeeds."""
    outcome = rolled("6d6<=3", 1, 6, 3, 4, 2, 5)
    assert outcome.successes == outcome.total == 3
    assert outcome.text.startswith("6d6 (**1**✓, **6**✗, 3✓, 4✗, 2✓, 5✗) <= 3 = `3` successes")
    assert SKIRM_RULE in outcome.text


def test_a_one_always_succeeds_and_a_six_always_fails_on_d6() -> None:
    """Rulebook Successes and Failures: a 1 always succeeds, a 6 always fails."""
    assert rolled("3d6<=0", 1, 1, 2).successes == 2
    assert rolled("3d6<=9", 6, 6, 5).successes == 1
    # Not a D6 skill test: a plain count, no Skirm rule.
    other = rolled("3d10<=0", 1, 1, 2)
    assert other.successes == 0 and SKIRM_RULE not in other.text


def test_count_at_or_over_has_no_skirm_rule() -> None:
    outcome = rolled("10d6>=5", 5, 6, 1, 4, 5, 2, 6, 3, 3, 1)
    assert outcome.successes == 4
    assert "(at or over 5)" in outcome.text and SKIRM_RULE not in outcome.text
    assert "**1**✗" in outcome.text and "**6**✓" in outcome.text


def test_strict_and_equal_comparisons() -> None:
    assert rolled("4d6<3", 1, 2, 3, 6).successes == 2
    assert rolled("4d6>4", 5, 4, 6, 1).successes == 2
    assert rolled("4d6==6", 6, 6, 1, 5).successes == 2
    assert rolled("1d6<=3", 4).text.endswith("= `0` successes (at or under 3; " + SKIRM_RULE + ")")
    assert " `1` success " in rolled("1d6<=3", 2).text


def test_counting_keeps_only_the_kept_dice() -> None:
    outcome = rolled("5d6kh2>=5", 6, 1, 5, 2, 3)
    assert outcome.successes == 2
    assert "~~**1**~~" in outcome.text and "~~2~~" in outcome.text


def test_counting_with_rerolls_counts_the_final_face() -> None:
    outcome = rolled("2d6rr1<=3", 1, 2, 5)  # the first die's 1 is re-rolled last, into a 5
    assert outcome.successes == 1
    assert outcome.text.startswith("2d6rr1 (**~~1~~**, 5✗, 2✓)")


def test_counting_target_may_be_arithmetic_and_keeps_a_comment() -> None:
    outcome = rolled("4d6<=2+1 shots at Vex", 3, 4, 1, 6)
    assert outcome.successes == 2 and outcome.comment == "shots at Vex"


def test_a_comparison_of_a_sum_stays_d20s_true_or_false() -> None:
    outcome = rolled("1d20+5>=15", 10)
    assert outcome.total == 1 and outcome.successes is None
    assert outcome.text.endswith("(true)")
    assert rolled("(1d6)<=3", 5).text.endswith("= `0` (false)")


# --- limits ------------------------------------------------------------------------------------
def test_dice_per_roll_are_capped_before_rolling() -> None:
    dice = ScriptedDice([])
    with pytest.raises(DiceError, match=r"asks for 101 dice; a roll may use at most 100"):
        roll_expression("50d6+51d6", dice)
    assert roll_expression("100d6", SeededDice(1)).faces.__len__() == 100


def test_rerolls_and_explosions_count_towards_the_cap() -> None:
    with pytest.raises(DiceError, match="needs more than 100 dice"):
        roll_expression("1d6rr<7", SeededDice(1))
    with pytest.raises(DiceError, match="needs more than 5 dice"):
        roll_expression("4d6e6", ScriptedDice([6, 6, 6, 6, 6]), max_dice=5)


def test_oversized_dice_and_expressions_are_refused() -> None:
    with pytest.raises(DiceError, match="at most 1000 sides"):
        roll_expression("1d1001")
    with pytest.raises(DiceError, match="the limit is 200"):
        roll_expression("1+" * 100 + "1")
    with pytest.raises(DiceError, match="Give a dice expression"):
        roll_expression("   ")


def test_long_answers_are_summarised() -> None:
    outcome = roll_expression("100d20", SeededDice(3))
    full = format_roll(outcome)
    assert len(full) <= 1500 and full.count(",") == 99  # under the limit: every die shown
    short = format_roll(outcome, "Volley", limit=250)
    assert len(short) <= 250
    assert short.startswith("**Volley**\n100d20 = `") and "100 dice rolled" in short
    assert f"= `{outcome.total}`" in short


def test_long_labels_are_clipped() -> None:
    text = format_roll(rolled("1d4", 1), "x" * 300)
    assert len(text.splitlines()[0]) < 110 and "…" in text


# --- errors say where --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("4d6x", "Unexpected 'x' at position 4 in '4d6x': expected the end of the roll."),
        ("1d6)", "Unexpected ')' at position 4 in '1d6)'"),
        ("3d6kq2", "Unexpected 'q2' at position 5 in '3d6kq2': expected a number."),
        ("6d6<=x", "Unexpected 'x' at position 6 in '6d6<=x'"),
        ("hello", "Unexpected 'h' at position 1 in 'hello'"),
        ("4d", "'4d' ends too early: expected the number of sides"),
        ("(1d6", "'(1d6' ends too early: expected ')'."),
        ("2d6+", "'2d6+' ends too early"),
    ],
)
def test_syntax_errors_say_where(expression: str, message: str) -> None:
    with pytest.raises(DiceError) as error:
        roll_expression(expression, ScriptedDice([]))
    assert str(error.value).startswith(message)


def test_impossible_rolls_are_explained() -> None:
    with pytest.raises(DiceError, match=r"'1d6/0' cannot be rolled: Cannot divide by zero"):
        roll_expression("1d6/0", ScriptedDice([3]))
    with pytest.raises(DiceError, match="0-sided"):
        roll_expression("1d0", ScriptedDice([]))


# --- roll-off ----------------------------------------------------------------------------------
def test_roll_off_lowest_wins_and_only_the_tied_reroll() -> None:
    """Rulebook Glossary, Roll-Off: each rolls 1D6, the lowest wins, ties re-roll."""
    dice = ScriptedDice([2, 2, 5, 4, 3])
    result = roll_off(["Ann", "Bob", "Cat"], dice)
    assert [r.rolls for r in result.rounds] == [
        (("Ann", 2), ("Bob", 2), ("Cat", 5)),
        (("Ann", 4), ("Bob", 3)),
    ]
    assert result.winner == "Bob" and dice.remaining == 0
    assert format_roll_off(result) == (
        "**Roll-off** (lowest wins, ties re-roll)\n"
        "Round 1: Ann 2 · Bob 2 · Cat 5 — Ann and Bob tie on 2 and re-roll\n"
        "Round 2: Ann 4 · Bob 3\n"
        "**Bob wins** with 3."
    )


def test_roll_off_everyone_tied_all_reroll() -> None:
    """Rulebook Glossary, Roll-Off: if all roll the same value, all re-roll."""
    result = roll_off(["Ann", "Bob"], ScriptedDice([4, 4, 1, 1, 6, 5]))
    assert len(result.rounds) == 3 and result.winner == "Bob"


def test_roll_off_highest_wins() -> None:
    result = roll_off(["Ann", "Bob", "Cat"], ScriptedDice([6, 1, 6, 2, 5]), lowest_wins=False)
    assert result.winner == "Cat" and len(result.rounds) == 2
    assert "highest wins" in format_roll_off(result)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Ann"], "at least two players"),
        (["Ann", "Ann"], "only once"),
        ([f"P{i}" for i in range(9)], "at most 8 players"),
    ],
)
def test_roll_off_player_lists_are_checked(players: list[str], message: str) -> None:
    with pytest.raises(DiceError, match=message):
        roll_off(players, ScriptedDice([]))


def test_an_endless_tie_stops() -> None:
    with pytest.raises(DiceError, match="still tied"):
        roll_off(["Ann", "Bob"], ScriptedDice([3] * (2 * MAX_ROUNDS)))


# --- Tactical Orders ---------------------------------------------------------------------------
def test_tactical_orders_roll_3d6_plus_leader_dice() -> None:
    """Rulebook Tactical Orders: 3D6 plus one die per LDx; each 1-3 is one Tactical Order."""
    dice = ScriptedDice([1, 4, 3, 6, 2])
    orders = roll_tactical_orders(2, dice)
    assert orders.faces == (1, 4, 3, 6, 2) and orders.orders == 3 and dice.remaining == 0
    assert format_orders(orders) == (
        "**Tactical Orders**: 5D6 (3 + 2 leader dice): 1✓ 4✗ 3✓ 6✗ 2✓ = `3` Tactical Orders "
        "(each 1-3 is one)."
    )


def test_tactical_orders_without_a_leader() -> None:
    """Rulebook Tactical Orders: without a Leader on the Battlemap, just 3D6."""
    orders = roll_tactical_orders(0, ScriptedDice([4, 5, 3]))
    assert orders.orders == 1
    assert format_orders(orders).startswith("**Tactical Orders**: 3D6 (3): ")
    assert "`1` Tactical Order " in format_orders(orders)


def test_tactical_orders_leader_dice_are_bounded() -> None:
    with pytest.raises(DiceError, match="from 0 to 10"):
        roll_tactical_orders(11, ScriptedDice([]))
