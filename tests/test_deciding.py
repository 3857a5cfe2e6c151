"""Who must decide now in Skirm (`Ruleset.deciding`, issue 29): the side to act, alone, with the
words its reminder uses and what a missed deadline sends for it (docs/rulings.md, Turn timers:
a miss ends the activation where it stands; a roll waiting for a decision is accepted first)."""

from __future__ import annotations

from builders import RIFLE, skirm_match, unit

from skirmbot.rules.commands import Accept, Activate, Concede, EndActivation, Shoot
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.ruleset import RULESET as SKIRM
from skirmbot.rules.view import MISSED, Decision


def _match(faces: list[int] | None = None, orders: tuple[int, int] = (0, 0)) -> Match:
    return skirm_match(
        {
            0: [unit("Remus", "C3", weapons=[RIFLE]), unit("Ann", "A3")],
            1: [unit("Vex", "C10", weapons=[RIFLE])],
        },
        faces=faces,
        orders=orders,
    )


def test_the_side_to_act_decides_and_a_miss_ends_its_first_ready_unit() -> None:
    match = _match()
    [decision] = SKIRM.deciding(match.state)
    assert decision == Decision(
        0,
        "activate a unit, 2 ready: Remus, Ann",
        (EndActivation(0, "Remus", reason=MISSED),),
        key="t1:a0:s0",
    )


def test_an_activation_in_progress_is_ended_as_it_stands() -> None:
    match = _match()
    match.apply(Activate(0, "Ann"))
    [decision] = SKIRM.deciding(match.state)
    assert decision.why == "Ann is still activating: act, or /end it"
    assert decision.on_timeout == (EndActivation(0, None, reason=MISSED),)
    assert decision.turn and decision.key == "t1:a0:s0"  # the same activation: the same clock
    match.apply(EndActivation(0))
    assert [d.key for d in SKIRM.deciding(match.state)] == ["t1:a1:s1"]


def test_a_roll_waiting_for_a_decision_is_accepted_first() -> None:
    """Rulings: Tactical Orders in play-by-post: a failed die with TO left waits."""
    match = _match(faces=[2, 6, 6], orders=(2, 1))
    match.apply(Shoot(0, "Remus", "Vex"))
    [decision] = SKIRM.deciding(match.state)
    assert decision.on_timeout == (Accept(0), EndActivation(0, None, reason=MISSED))
    assert SKIRM.buttons(match.state)[0] == "accept"


def test_nobody_decides_once_the_match_is_over() -> None:
    match = _match()
    match.apply(Concede(1))
    assert SKIRM.deciding(match.state) == ()
    assert SKIRM.recorded_result(match.state) is not None
