"""The unit card's damage track (rulebook 002, "Unit Card", "Body Armor", "Resolving Fire"
¶6-¶9; skirmbot.rules.infantry.card). Each test quotes its sentence or names our ruling
(proposed in docs/plans/infantry.md). The damage roll's 2D6 comes from ScriptedDice."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.infantry.card import (
    AP_ROW,
    CELLS,
    MOD_ROW,
    Mark,
    Track,
    apply_damage,
    current_hp,
    damage_modifier,
    first_cell,
    index_of,
    is_able,
    is_dead,
    is_unconscious,
    max_ap,
    new_track,
    track_text,
)

C, H, F = Mark.CLEAN, Mark.HALF, Mark.FULL


def marked(armour: int = 0, /, **marks: Mark) -> Track:
    """A track with the cells named hp9=F, hp5=H... marked; the rest clean."""
    cells = [C] * CELLS
    for key, mark in marks.items():
        cells[index_of(int(key.removeprefix("hp")))] = mark
    return Track(tuple(cells), armour)


def roll_2d6(dice: ScriptedDice) -> int:
    return dice.roll() + dice.roll()


def test_a_new_track_has_ten_clean_cells_10_to_1() -> None:
    """Unit Card ¶3: "HP cells are labeled by their HP value, from highest to lowest, 10 to 1,
    from left to right"."""
    track = new_track()
    assert track.cells == (C,) * 10
    assert [index_of(hp) for hp in range(10, 0, -1)] == list(range(10))
    assert track.armour == 0 and current_hp(track) == 10


def test_lethal_crosses_fully_and_bludgeoning_half() -> None:
    """Unit Card ¶3: "fully crossed out ... lethal damage (X) and partially crossed out ...
    bludgeoning damage (\\)"."""
    assert apply_damage(new_track(), 1, 0, 7).mark(7) is F
    assert apply_damage(new_track(), 0, 1, 7).mark(7) is H
    assert Mark.FULL.value == "X" and Mark.HALF.value == "\\"


def test_the_rulebooks_example_9_7_6_crossed_5_half_is_hp_5() -> None:
    """Unit Card ¶3: "HP 9, 7, and 6 fully crossed out and HP 5 partially crossed out, then
    their current HP is 5"."""
    assert current_hp(marked(hp9=F, hp7=F, hp6=F, hp5=H)) == 5


def test_no_full_cell_is_hp_10() -> None:
    """Unit Card ¶3: the first cell right of the lowest full one; with none, the card is whole."""
    assert current_hp(new_track()) == 10


def test_half_cells_alone_leave_hp_10() -> None:
    """Unit Card ¶3: only "fully crossed out" cells count for the current HP."""
    assert current_hp(marked(hp10=H, hp6=H, hp2=H)) == 10


def test_8_ap_at_10_hp_and_7_at_5_hp() -> None:
    """Unit Card ¶4: "A regular trooper has 8 AP at 10 HP ... if a regular trooper has 5 HP,
    then they have 7 AP"."""
    assert max_ap(new_track()) == 8
    assert max_ap(marked(hp6=F)) == 7


def test_the_whole_ap_row_is_our_ruling() -> None:
    """Our ruling (proposed in docs/plans/infantry.md, section 2): AP = 8 - (HP lost // 3)."""
    assert [AP_ROW[hp] for hp in range(10, 0, -1)] == [8, 8, 8, 7, 7, 7, 6, 6, 6, 5]
    for hp in range(10, 0, -1):
        track = marked(0, **({f"hp{hp + 1}": F} if hp < 10 else {}))
        assert current_hp(track) == hp and max_ap(track) == AP_ROW[hp]


def test_plus_2_at_5_hp() -> None:
    """Unit Card ¶5: "if the trooper has 5 HP, then add +2 to all target numbers"."""
    assert damage_modifier(marked(hp6=F)) == 2
    assert damage_modifier(new_track()) == 0


def test_the_whole_modifier_row_is_our_ruling() -> None:
    """Our ruling (proposed in docs/plans/infantry.md, section 2): +1 per 2 HP lost."""
    assert [MOD_ROW[hp] for hp in range(10, 0, -1)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert damage_modifier(marked(hp2=F)) == 4


def test_standard_armour_takes_2_from_every_ap_value() -> None:
    """Body Armor ¶2: "with standard body armor, leave 4 cells ... and reduce all values in the
    AP row by 2"."""
    for hp in range(10, 0, -1):
        track = marked(4, **({f"hp{hp + 1}": F} if hp < 10 else {}))  # Standard: 4 cells, 2 AP
        assert max_ap(track, 2) == AP_ROW[hp] - 2


def test_armour_takes_lethal_points_first() -> None:
    """Unit Card ¶6 / Resolving Fire ¶7: "any cells of armor are destroyed before applying
    lethal damage": a Rifle's 4X against 2 cells of basic armour takes both, then 2 HP cells."""
    dice = ScriptedDice([4, 4])  # damage roll 8: the initial cell is HP 8
    track = apply_damage(new_track(2), 4, 0, first_cell(roll_2d6(dice)))
    assert track.armour == 0
    assert [track.mark(hp) for hp in (8, 7, 6)] == [F, F, C]


def test_bludgeoning_is_ignored_while_armour_is_left() -> None:
    """Unit Card ¶6: "A trooper ignores bludgeoning damage while wearing armor"; a Club's
    1X, 4\\ on 4 cells takes one cell and leaves the HP cells clean."""
    dice = ScriptedDice([3, 3])
    track = apply_damage(new_track(4), 1, 4, first_cell(roll_2d6(dice)))
    assert track == Track(armour=3)


def test_bludgeoning_goes_on_once_the_lethal_part_strips_the_armour() -> None:
    """Resolving Fire ¶8: "If the trooper has any remaining body armor, then ignore all
    bludgeoning damage" - remaining after the lethal part; our ruling: the bludgeoning then
    starts at the initial cell, since the lethal points reached no HP cell."""
    track = apply_damage(new_track(1), 1, 2, 7)
    assert track.armour == 0
    assert [track.mark(hp) for hp in (7, 6, 5)] == [H, H, C]


def test_the_damage_roll_names_the_first_cell() -> None:
    """Resolving Fire ¶6: "roll an additional 2D6. This is the initial cell"."""
    dice = ScriptedDice([2, 3])
    track = apply_damage(new_track(), 1, 0, first_cell(roll_2d6(dice)))
    assert track.mark(5) is F and current_hp(track) == 4


def test_a_hit_sets_the_new_max_ap_and_modifier_at_once() -> None:
    """Resolving Fire ¶9: "The targeted trooper's new HP is given by the first cell to the
    right of the lowest fully crossed out HP cell. The corresponding maximum AP is given by
    this column on the unit card. The new maximum AP immediately applies": a Rifle's 4X from a
    damage roll of 9 crosses 9 to 6, so HP 5, 7 AP and +2 (Unit Card ¶4-¶5's own numbers);
    with standard armour its 4 cells take the 4 points and the row stays 8 - 2."""
    dice = ScriptedDice([4, 5])
    track = apply_damage(new_track(), 4, 0, first_cell(roll_2d6(dice)))
    assert (current_hp(track), max_ap(track), damage_modifier(track)) == (5, 7, 2)
    armoured = apply_damage(new_track(4), 4, 0, 9)
    assert (current_hp(armoured), max_ap(armoured, 2), armoured.armour) == (10, 6, 0)


def test_a_damage_roll_of_11_or_12_starts_at_cell_10() -> None:
    """Our ruling (proposed in docs/plans/infantry.md): the cells are 10 to 1, so 11 and 12
    start at cell 10."""
    assert [first_cell(roll) for roll in (11, 12)] == [10, 10]
    assert [first_cell(roll) for roll in range(2, 11)] == list(range(2, 11))
    with pytest.raises(ValueError):
        first_cell(13)


def test_lethal_skips_full_cells_and_overwrites_half_ones() -> None:
    """Resolving Fire ¶7: "Skip any previously fully crossed out cells and fully cross out any
    partially crossed out or undamaged HP cells"."""
    track = apply_damage(marked(hp9=F, hp8=H), 3, 0, 10)
    assert [track.mark(hp) for hp in (10, 9, 8, 7, 6)] == [F, F, F, F, C]


def test_lethal_past_cell_1_is_lost_and_the_trooper_dead() -> None:
    """Our ruling (proposed in docs/plans/infantry.md): points past cell 1 are lost; cell 1
    fully crossed is death (HP 0: no cell is left to its right)."""
    dice = ScriptedDice([1, 1])  # roll 2: the initial cell is HP 2
    track = apply_damage(new_track(), 6, 0, first_cell(roll_2d6(dice)))
    assert [track.mark(hp) for hp in (3, 2, 1)] == [C, F, F]
    assert current_hp(track) == 0 and is_dead(track) and max_ap(track) == 0
    assert not is_able(track)


def test_a_club_1x_4_half_crosses_the_four_cells_after_its_lethal_one() -> None:
    """Resolving Fire ¶8: "Start with the first cell after the last cell affected by the lethal
    damage ... Partially cross out the number of HP cells given by the bludgeoning damage"."""
    dice = ScriptedDice([5, 4])
    track = apply_damage(new_track(), 1, 4, first_cell(roll_2d6(dice)))
    assert [track.mark(hp) for hp in range(10, 0, -1)] == [C, F, H, H, H, H, C, C, C, C]
    assert current_hp(track) == 8


def test_bludgeoning_on_a_half_cell_crosses_it_fully() -> None:
    """Resolving Fire ¶8: "If an HP cell is already partially crossed out, then fully cross out
    the cell"; the initial cell when there is no lethal value."""
    track = apply_damage(marked(hp6=H), 0, 2, 6)
    assert [track.mark(hp) for hp in (6, 5, 4)] == [F, H, C]
    assert current_hp(track) == 5


def test_bludgeoning_skips_full_cells() -> None:
    """Our ruling (proposed in docs/plans/infantry.md): a bludgeoning point is never spent on a
    fully crossed cell."""
    track = apply_damage(marked(hp5=F), 0, 2, 6)
    assert [track.mark(hp) for hp in (6, 5, 4, 3)] == [H, F, H, C]


def test_bludgeoning_after_lethal_reaching_cell_1_is_lost() -> None:
    """Resolving Fire ¶8: it starts "after the last cell affected by the lethal damage": after
    cell 1 there is none, so it is lost (our ruling)."""
    assert apply_damage(new_track(), 2, 3, 2).cells == (C,) * 8 + (F, F)


def test_bludgeoning_to_cell_1_knocks_out() -> None:
    """Our ruling (proposed in docs/plans/infantry.md): alive with cell 1 half crossed is
    unconscious; a Stun Baton's 8\\ from cell 8 reaches it."""
    track = apply_damage(new_track(), 0, 8, 8)
    assert is_unconscious(track) and not is_dead(track) and not is_able(track)
    assert current_hp(track) == 10  # half-crossed cells never lower the current HP
    assert is_able(apply_damage(new_track(), 0, 8, 9))


def test_a_track_refuses_a_wrong_shape() -> None:
    """Unit Card ¶3 and ¶6: 10 HP cells, at most 6 armour cells."""
    with pytest.raises(ValueError):
        Track((C,) * 9)
    with pytest.raises(ValueError):
        Track(armour=7)
    with pytest.raises(ValueError):
        apply_damage(new_track(), -1, 0, 5)


tracks = st.builds(
    Track,
    st.tuples(*[st.sampled_from(list(Mark))] * CELLS),
    st.integers(min_value=0, max_value=6),
)
hits = st.tuples(
    st.integers(min_value=0, max_value=10),
    st.integers(min_value=0, max_value=10),
    st.integers(min_value=1, max_value=10),
)


@given(tracks, hits)
def test_hp_never_rises(track: Track, hit: tuple[int, int, int]) -> None:
    """Resolving Fire ¶7-¶8: damage only crosses cells, so the current HP never rises."""
    assert current_hp(apply_damage(track, *hit)) <= current_hp(track)


@given(tracks, hits)
def test_a_crossed_cell_stays_crossed(track: Track, hit: tuple[int, int, int]) -> None:
    """Resolving Fire ¶7: full cells are skipped; a half cell only becomes full."""
    after = apply_damage(track, *hit)
    for before_mark, after_mark in zip(track.cells, after.cells, strict=True):
        assert before_mark is C or after_mark is F or before_mark is after_mark
        assert before_mark is not F or after_mark is F


@given(tracks, hits)
def test_armour_absorbs_first(track: Track, hit: tuple[int, int, int]) -> None:
    """Unit Card ¶6: armour cells go "before applying lethal damage", and bludgeoning is
    ignored while armour is left: while lethal points do not outnumber the armour, no HP cell
    changes."""
    lethal, blunt, first = hit
    after = apply_damage(track, lethal, blunt, first)
    assert after.armour == max(0, track.armour - lethal)
    if lethal < track.armour:
        assert after.cells == track.cells


def test_the_track_reads_as_the_card_draws_it() -> None:
    """Unit Card ¶3: cells "10 to 1, from left to right", X for lethal and \\ for bludgeoning
    (the text form views and exports show)."""
    assert track_text(marked(0, hp9=F, hp7=F, hp6=F, hp5=H)) == ".X.XX\\...."
