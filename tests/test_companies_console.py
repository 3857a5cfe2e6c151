"""`skirmbot console --ruleset companies --players 4` (issue 30): four players take the
keyboard in turn; the help lists the group rules' words (a Move of each model's square, the
interrupt standing orders, act for the rest); ambitions from act, standing orders, /end."""

from __future__ import annotations

from pathlib import Path

from skirmbot.console import help_for, run_console
from skirmbot.rules.ruleset import ruleset
from tests.test_console import scripted


def test_the_help_lists_the_group_rules_words() -> None:
    """Every word the group rules play, and none they do not (no Tactical Orders, dashes,
    doors or leaps)."""
    text = help_for(ruleset("companies"))
    assert "move UNIT SQUARE   end [UNIT]" in text and "act [NUMBER]" in text
    assert "move UNIT SQUARE SQUARE ... (each model of a Group to its square, in order)" in text
    assert "standing defiant on|off   elusive on|off   prompt on|off" in text
    for word in ("dash", "turret", "leap", "door", "reroll", "[TO]", "Tactical", "standing N"):
        assert word not in text


async def test_four_players_choose_ambitions_set_standing_orders_and_end_their_parts(
    tmp_path: Path,
) -> None:
    """Setup 7 (ambitions, from act), standing orders in the console's words, and a side's turn
    that passes once both of its players have ended their parts (Turns)."""
    lines = ["auto"] * 4 + ["help"] + ["act 1"] * 4 + ["standing defiant off prompt on", "end"]
    lines += ["end", "quit"]
    ask, said = scripted(lines)
    code = await run_console(False, tmp_path, ask=ask, say=said.append, seed=4,
                             rules="companies", players=4)  # fmt: skip
    text = "\n".join(said)
    assert code == 0
    assert "choose Ember Circle's ambition (Glory, Regicide, Unbroken, Hold the Ground)" in text
    assert text.count("chooses its ambition: Glory.") == 4
    assert "asks to be prompted when attacked." in text
    assert text.count("ends its part of the turn.") == 2 and " turn ends." in text
