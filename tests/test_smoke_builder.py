"""The test builder itself: turn 1 starts as asked (rulebook Game Cycle)."""

from builders import skirm_match, unit

from skirmbot.rules.commands import Move


def test_builder_starts_turn_one_with_the_requested_orders() -> None:
    match = skirm_match({0: [unit("Remus", "C3")], 1: [unit("Vex", "C9")]}, orders=(2, 1))
    state = match.state
    assert (state.turn, state.to_act, state.initiative) == (1, 0, 0)
    assert [s.orders for s in state.squads] == [2, 1]
    match.apply(Move(0, "Remus", "C5"))
    assert str(state.units["Remus"].square) == "C5"
