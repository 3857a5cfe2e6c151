"""Testing Resilience, Shaken, Retreat and Rout under the group rules (rulebook 003: Testing
Resilience, Shaken Groups, Retreating, Turns 1). Every test scripts its dice and cites its rule.

Retreat's path is the geometry's (tests/test_companies_geometry.py); most tests here stand in a
retreat that goes straight away from the cause, blocked or off the table as the test needs.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import pytest
from companies_builders import captain_trait, profile, put, table

from skirmbot.rules.companies import geometry
from skirmbot.rules.companies.combat import shoot
from skirmbot.rules.companies.resilience import rally, retreat, rout
from skirmbot.rules.companies.resilience import test_resilience as resilience_test
from skirmbot.rules.companies.state import State
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.events import Event
from skirmbot.rules.squares import Square


@dataclass
class FakeRetreat:
    """Stands in for geometry.retreat: straight away from the cause along the column."""

    blocked: bool = False
    off_table: bool = False

    def __call__(
        self,
        terrain: geometry.Terrain,
        models: Sequence[Square],
        cause: Sequence[Square],
        inches: int,
        blocked: Collection[Square],
        enemies: Collection[Square],
        *,
        home_edge: int | None = None,
    ) -> geometry.RetreatMove:
        step = inches if models[0].y >= cause[0].y else -inches
        moved = tuple(m.offset(0, 0 if self.blocked else step) for m in models)
        paths = tuple((m, n) for m, n in zip(models, moved, strict=True))
        return geometry.RetreatMove(moved, paths, self.blocked, self.off_table)


@pytest.fixture
def retreats(monkeypatch: pytest.MonkeyPatch) -> FakeRetreat:
    fake = FakeRetreat()
    monkeypatch.setattr(geometry, "retreat", fake)
    return fake


def squares(models: list[Square]) -> str:
    return " ".join(str(m) for m in models)


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def facing() -> State:
    """Raiders (seat 0) facing Spearmen (seat 1) 7" away; each Company has two more Groups of
    the same points far off, so no Rout here loses half the points or leaves a last Group."""
    state = table()
    put(state, 0, "Raiders", "C6 D6 E6")
    put(state, 0, "Reserve", "T3 U3 V3")
    put(state, 0, "Guides", "T6 U6 V6")
    put(state, 1, "Spearmen", "C13 D13 E13")
    put(state, 1, "Levy", "T20 U20 V20")
    put(state, 1, "Pikes", "T23 U23 V23")
    return state


def test_passing_needs_a_result_equal_to_or_higher_than_r() -> None:
    """Testing Resilience 3: "If the final result is equal to or higher than the Group's R
    rating, they succeed"."""
    state = facing()
    spearmen = state.group("Spearmen")
    dice = ScriptedDice([3, 3])
    events = resilience_test(state, dice, spearmen)
    assert events[0].data["outcome"] == "passed" and events[0].data["needed"] == 6
    assert len(events) == 1 and not spearmen.shaken


def test_failing_retreats_and_becomes_shaken(retreats: FakeRetreat) -> None:
    """Testing Resilience: "If failed but the final result is greater than 0 the Group Retreats
    and becomes Shaken"."""
    state = facing()
    raiders, spearmen = state.group("Raiders"), state.group("Spearmen")
    events = resilience_test(state, ScriptedDice([2, 3]), spearmen, cause=raiders)
    assert events[0].data["outcome"] == "retreat"
    assert spearmen.shaken and spearmen.r == 6
    assert spearmen.models == [Square.parse(s) for s in ("C16", "D16", "E16")]  # half of 6"
    assert [e.kind for e in events] == ["resilience", "moved", "shaken"]
    assert kinds(events, "moved")[0].data["action"] == "retreat"


def test_an_already_shaken_group_that_fails_loses_1_r_and_retreats(retreats: FakeRetreat) -> None:
    """Testing Resilience: "(if already Shaken, they lose 1 R instead)"; Shaken Groups: "Lose 1R
    and Retreat when failing while Testing Resilience". The R lost this way triggers no further
    test (our ruling)."""
    state = facing()
    raiders, spearmen = state.group("Raiders"), state.group("Spearmen")
    spearmen.shaken = True
    dice = ScriptedDice([2, 3])
    events = resilience_test(state, dice, spearmen, cause=raiders)
    assert [e.kind for e in events] == ["resilience", "r_lost", "moved"]
    assert spearmen.r == 5 and spearmen.shaken and dice.remaining == 0


def test_a_result_of_0_or_less_routs() -> None:
    """Testing Resilience: "If the final result is 0 or less, the Group is Routed"."""
    state = facing()
    raiders, spearmen = state.group("Raiders"), state.group("Spearmen")
    spearmen.r = 3
    events = resilience_test(state, ScriptedDice([1, 2]), spearmen, lost=3, cause=raiders)
    assert events[0].data["total"] == 0 and events[0].data["outcome"] == "routed"
    assert spearmen.routed and spearmen.models == [] and not spearmen.on_table
    assert spearmen.routed_by == 0 and spearmen.routed_how == "test"
    assert kinds(events, "routed")[0].data == {
        "unit": "Spearmen",
        "side": 1,
        "by": 0,
        "reason": "test",
    }


def test_r_0_routs_without_a_test() -> None:
    """Our ruling (R 0): a Group whose R falls to 0 is Routed; it does not roll its test."""
    state = facing()
    raiders, spearmen = state.group("Raiders"), state.group("Spearmen")
    raiders.profile = profile("archers", mi=4, range_=18)
    spearmen.r = 1
    dice = ScriptedDice([6, 6] + [1] * 10)
    events = shoot(state, dice, raiders, spearmen)
    assert spearmen.routed and spearmen.routed_how == "shoot" and spearmen.routed_by == 0
    assert not kinds(events, "resilience") and dice.remaining == 0


def test_under_half_the_points_in_play_subtracts_1() -> None:
    """Testing Resilience 2: "Subtract 1 from the result if the Group's Company has less than
    half of their total points still in play"; exactly half is not less."""
    state = table()
    spearmen = put(state, 1, "Spearmen", "C13 D13 E13", r=4)
    levy = put(state, 1, "Levy", "T20 U20 V20")
    levy.routed, levy.models = True, []  # 6 of 12 points in play: half
    events = resilience_test(state, ScriptedDice([3, 3]), spearmen)
    assert events[0].data["modifiers"] == []
    put(state, 1, "Pikes", "T22 U22 V22").routed = True  # 6 of 18
    events = resilience_test(state, ScriptedDice([3, 3]), spearmen)
    assert events[0].data["modifiers"] == [["Company under half its points", -1]]
    assert events[0].data["total"] == 5


def test_the_captain_within_12_inches_adds_1_not_at_13() -> None:
    """Testing Resilience 2: "Add 1 to the result if the Captain's Group is within 12""."""
    state = facing()
    spearmen = state.group("Spearmen")
    put(state, 1, "Guard", "C1 D1", captain=True)  # 12" from C13
    events = resilience_test(state, ScriptedDice([3, 3]), spearmen)
    assert events[0].data["modifiers"] == [['Captain within 12"', 1]]
    assert events[0].data["total"] == 7
    spearmen.models = [Square.parse(s) for s in ("C14", "D14", "E14")]  # 13" from C1
    events = resilience_test(state, ScriptedDice([3, 3]), spearmen)
    assert events[0].data["modifiers"] == []


def test_the_captains_own_group_counts_but_not_while_shaken() -> None:
    """Our rulings: the Captain's own Group is within 12" of itself; Shaken Groups: "If the
    Captain's Group is Shaken, none of their special rules affect play"."""
    state = facing()
    guard = put(state, 1, "Guard", "K13 L13", captain=True)
    events = resilience_test(state, ScriptedDice([3, 3]), guard)
    assert events[0].data["modifiers"] == [['Captain within 12"', 1]]
    guard.shaken = True
    spearmen = state.group("Spearmen")
    events = resilience_test(state, ScriptedDice([6, 6]), spearmen)
    assert events[0].data["modifiers"] == []


def test_commanding_reaches_18_inches() -> None:
    """Captain trait commanding (our content): the Captain's +1 reaches Groups within 18"."""
    state = facing()
    spearmen = state.group("Spearmen")
    put(state, 1, "Guard", "C1", captain=True)  # 12" from C13
    spearmen.models = [Square(2, 18)]  # C19: 18" from C1
    events = resilience_test(state, ScriptedDice([3, 3]), spearmen)
    assert events[0].data["modifiers"] == []
    captain_trait(state, 1, "commanding")
    events = resilience_test(state, ScriptedDice([3, 3]), spearmen)
    assert events[0].data["modifiers"] == [['Captain within 18"', 1]]


def test_steady_adds_1_to_the_captains_group_only() -> None:
    """Captain trait steady (our content): +1 to its Resilience tests (the Captain's Group's)."""
    state = facing()
    captain_trait(state, 1, "steady")
    guard = put(state, 1, "Guard", "K20 L20", captain=True)
    events = resilience_test(state, ScriptedDice([3, 3]), guard)
    assert ["Steady Captain", 1] in events[0].data["modifiers"]
    events = resilience_test(state, ScriptedDice([3, 3]), state.group("Levy"))
    assert ["Steady Captain", 1] not in events[0].data["modifiers"]


def test_the_captains_group_routed_makes_every_remaining_group_test_once() -> None:
    """Testing Resilience: "Test once for every remaining Group immediately when: The Captain's
    Group is Routed" (of its Company only)."""
    state = table()
    put(state, 0, "Raiders", "C3 D3 E3")
    guard = put(state, 1, "Guard", "C13 D13", captain=True)
    for n, row in enumerate(("16", "19", "22")):
        put(state, 1, f"Band{n}", f"K{row} L{row}")
    dice = ScriptedDice([6, 6] * 3)
    events = rout(state, dice, guard, 0, "attack")
    assert [e.data["unit"] for e in kinds(events, "resilience")] == ["Band0", "Band1", "Band2"]
    assert dice.remaining == 0


def test_losing_half_the_points_makes_every_group_test_the_first_time_only() -> None:
    """Testing Resilience: test once for every remaining Group "when: The Company has lost
    Groups worth half or more of the total points fielded by their Company" (the first time)."""
    state = table()
    bands = [put(state, 1, f"Band{n}", f"{'ACEGIK'[n]}13") for n in range(6)]  # 36 points
    dice = ScriptedDice([6, 6] * 3)
    assert rout(state, dice, bands[0], None, "shoot")[1:] == []
    assert rout(state, dice, bands[1], None, "shoot")[1:] == []
    events = rout(state, dice, bands[2], None, "shoot")  # 18 of 36 lost: half
    assert [e.data["unit"] for e in kinds(events, "resilience")] == ["Band3", "Band4", "Band5"]
    assert state.seats[1].halved and dice.remaining == 0
    assert rout(state, dice, bands[3], None, "shoot")[1:] == []


def test_the_last_group_of_a_company_tests() -> None:
    """Testing Resilience: test for a Group when they "Become the last Group of their Company"
    (a summoned Group's Rout loses no points)."""
    state = table()
    spearmen = put(state, 1, "Spearmen", "C13 D13 E13")
    imps = put(state, 1, "Imps", "K13", summoned=True)
    dice = ScriptedDice([6, 6])
    events = rout(state, dice, imps, 0, "attack")
    assert [e.data["unit"] for e in kinds(events, "resilience")] == ["Spearmen"]
    assert not state.seats[1].halved and dice.remaining == 0
    assert spearmen.on_table


def test_a_conceding_companys_groups_cause_no_tests() -> None:
    """Our ruling (team play): a conceding player's Groups leave the table without tests."""
    state = table()
    guard = put(state, 1, "Guard", "C13 D13", captain=True)
    put(state, 1, "Spearmen", "K13 L13")
    events = rout(state, ScriptedDice([]), guard, None, "conceded")
    assert [e.kind for e in events] == ["routed"] and guard.routed_how == "conceded"


def test_a_group_routed_during_the_companys_tests_is_skipped(retreats: FakeRetreat) -> None:
    """Our ruling: each trigger is a test of its own, and a Group Routed while its Company tests
    is skipped. The Captain's Group Routs: Band0 fails and Retreats off the table, which loses
    half the points: Band1..3 test for that first; Band1 Routs too, and the Captain's round of
    tests goes on with Band2 and Band3 only."""
    retreats.off_table = True
    state = table()
    put(state, 0, "Raiders", "C3 D3")
    guard = put(state, 1, "Guard", "C13 D13", profile(points=12), captain=True)
    for n in range(4):
        put(state, 1, f"Band{n}", f"{'GKOS'[n]}13 {'HLPT'[n]}13")  # 36 points fielded
    dice = ScriptedDice([1, 1, 1, 1] + [6, 6] * 4)
    events = rout(state, dice, guard, 0, "attack")
    tested = [e.data["unit"] for e in kinds(events, "resilience")]
    assert tested == ["Band0", "Band1", "Band2", "Band3", "Band2", "Band3"]
    assert state.seats[1].halved and dice.remaining == 0


def test_a_blocked_retreat_loses_r_equal_to_a_lower_roll(retreats: FakeRetreat) -> None:
    """Retreating: "If blocked by terrain or enemy Groups, roll 1d6 vs their current R; if
    lower, they lose R equal to the roll and stop moving" (no test follows: our ruling)."""
    retreats.blocked = True
    state = facing()
    raiders, spearmen = state.group("Raiders"), state.group("Spearmen")
    dice = ScriptedDice([3])
    events = retreat(state, dice, spearmen, raiders, shaken=False)
    assert spearmen.r == 3 and not kinds(events, "resilience") and dice.remaining == 0
    assert kinds(events, "retreat_blocked")[0].data == {
        "unit": "Spearmen",
        "faces": [3],
        "needed": 6,
        "lost": 3,
    }


def test_a_blocked_retreat_not_lower_stops_without_loss(retreats: FakeRetreat) -> None:
    """Retreating: only "if lower" do they lose R; a roll equal to R or higher only stops them."""
    retreats.blocked = True
    state = facing()
    raiders, spearmen = state.group("Raiders"), state.group("Spearmen")
    spearmen.r = 4
    events = retreat(state, ScriptedDice([4]), spearmen, raiders, shaken=True)
    assert spearmen.r == 4 and not kinds(events, "r_lost") and spearmen.shaken


def test_retreating_off_the_table_routs(retreats: FakeRetreat) -> None:
    """Retreating: "If any member of the Retreating Group Retreats off of the table, the entire
    Group counts as having Routed and is removed from play"."""
    retreats.off_table = True
    state = facing()
    raiders, spearmen = state.group("Raiders"), state.group("Spearmen")
    events = retreat(state, ScriptedDice([6, 6]), spearmen, raiders, shaken=True)
    assert spearmen.routed and spearmen.routed_by == 0 and spearmen.routed_how == "retreat"
    assert kinds(events, "routed")


def test_rally_removes_shaken_on_a_pass() -> None:
    """Turns 1: "All Shaken friendly Groups Test Resilience to remove Shaken status"; Testing
    Resilience: "If successful and Rallying, the Group is no longer Shaken". Rallied Groups may
    not activate this turn."""
    state = facing()
    raiders = state.group("Raiders")
    raiders.shaken = True
    events = rally(state, ScriptedDice([3, 3]), 0)
    assert [e.kind for e in events] == ["resilience", "rallied"]
    assert events[0].data["outcome"] == "rallied"
    assert not raiders.shaken and raiders.activated


def test_rally_failing_loses_1_r_and_retreats(retreats: FakeRetreat) -> None:
    """Turns 1: "If unsuccessful, the Group loses 1R and retreats; this does not end the turn"
    (from the nearest enemy Group: our ruling); it stays Shaken."""
    state = facing()
    raiders = state.group("Raiders")
    raiders.shaken = True
    dice = ScriptedDice([2, 3])
    events = rally(state, dice, 0)
    assert [e.kind for e in events] == ["resilience", "r_lost", "moved"]
    assert raiders.r == 5 and raiders.shaken and dice.remaining == 0
    assert raiders.models[0] == Square.parse("C3")  # 3" away from Spearmen, the nearest enemy


def test_on_the_table_a_retreat_from_the_edge_goes_off_it_and_routs() -> None:
    """Retreating (with the table's geometry): "If any member of the Retreating Group Retreats
    off of the table, the entire Group counts as having Routed and is removed from play"."""
    state = table()
    raiders = put(state, 0, "Raiders", "C20 D20 E20")
    spearmen = put(state, 1, "Spearmen", "C23 D23 E23")
    put(state, 1, "Levy", "T12 U12")
    put(state, 1, "Pikes", "T16 U16")
    events = retreat(state, ScriptedDice([]), spearmen, raiders, shaken=True)
    assert [e.kind for e in events] == ["routed"] and spearmen.routed_how == "retreat"


def test_on_the_table_a_retreat_blocked_by_an_enemy_group_rolls_against_r() -> None:
    """Retreating (with the table's geometry): "They may not pass within 3" of any enemy Groups.
    If blocked by terrain or enemy Groups, roll 1d6 vs their current R; if lower, they lose R
    equal to the roll and stop moving"."""
    state = table()
    raiders = put(state, 0, "Raiders", "C10 D10 E10")
    put(state, 0, "Flankers", "C16 D16 E16")  # the first step would come within 3"
    spearmen = put(state, 1, "Spearmen", "C13 D13 E13")
    put(state, 1, "Levy", "T20 U20")
    put(state, 1, "Pikes", "T23 U23")
    dice = ScriptedDice([2])
    events = retreat(state, dice, spearmen, raiders, shaken=True)
    assert [e.kind for e in events] == ["retreat_blocked", "r_lost", "shaken"]
    assert squares(spearmen.models) == "C13 D13 E13"
    assert spearmen.r == 4 and dice.remaining == 0


def test_a_retreat_passes_through_friendly_groups() -> None:
    """Retreating: only "terrain or enemy Groups" block a Retreat (our ruling: it passes
    through friendly Groups)."""
    state = table()
    raiders = put(state, 0, "Raiders", "C10 D10 E10")
    spearmen = put(state, 1, "Spearmen", "C13 D13 E13")
    put(state, 1, "Levy", "C15 D15 E15")
    put(state, 1, "Pikes", "T23 U23")
    events = retreat(state, ScriptedDice([]), spearmen, raiders, shaken=False)
    assert [e.kind for e in events] == ["moved"] and squares(spearmen.models) == "C16 D16 E16"


def test_a_retreat_never_ends_on_a_friendly_group_and_stops_short_without_a_roll() -> None:
    """Our ruling (Retreat through friends): a Retreat that would end on a friendly Group stops
    at the last squares free of it; nothing the rulebook names blocked it, so no roll."""
    state = table()
    raiders = put(state, 0, "Raiders", "C10 D10 E10")
    spearmen = put(state, 1, "Spearmen", "C13 D13 E13")
    put(state, 1, "Levy", "C16 D16")
    put(state, 1, "Pikes", "T23 U23")
    events = retreat(state, ScriptedDice([]), spearmen, raiders, shaken=False)
    assert [e.kind for e in events] == ["moved"] and squares(spearmen.models) == "C15 D15 E15"


def test_a_teammates_captain_gives_no_bonus() -> None:
    """Testing Resilience 2: "+1 if the Captain's Group is within 12"" - its own Company's
    Captain (our ruling, team play: each player's Company has its own Captain)."""
    state = table(seats=4)
    spearmen = put(state, 1, "Spearmen", "C13 D13 E13")
    put(state, 3, "Guard", "C11 D11", captain=True)  # a teammate's Captain, 2" away
    events = resilience_test(state, ScriptedDice([3, 3]), spearmen)
    assert events[0].data["modifiers"] == []


def test_a_captains_rout_makes_only_its_own_company_test() -> None:
    """Testing Resilience: "Test once for every remaining Group" of the Company whose Captain's
    Group is Routed; a teammate's Company does not test (our ruling, team play)."""
    state = table(seats=4)
    guard = put(state, 1, "Guard", "C13 D13", captain=True)
    put(state, 1, "Spearmen", "K13 L13")
    put(state, 1, "Levy", "K20 L20")
    put(state, 1, "Pikes", "R20 S20")
    put(state, 3, "Allies", "C20 D20")
    dice = ScriptedDice([6, 6] * 3)
    events = rout(state, dice, guard, 0, "attack")
    assert [e.data["unit"] for e in kinds(events, "resilience")] == ["Spearmen", "Levy", "Pikes"]
    assert dice.remaining == 0
