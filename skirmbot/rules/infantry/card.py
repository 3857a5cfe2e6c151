"""The unit card's damage: the HP track of cells 10 to 1, body armour cells, and what they give
(current HP, maximum AP, the target-number modifier). Rulebook 002, "Unit Card" and "Resolving
Fire" ¶6-¶9; the AP and modifier rows past the two values the text gives are our ruling
(proposed in docs/plans/infantry.md, section 2).

Pure functions on a frozen `Track`: damage gives a new track, never changes one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from types import MappingProxyType

CELLS = 10  # HP cells, labelled 10 to 1 from left to right (Unit Card ¶3)
MAX_ARMOUR = 6  # armour cells on the card; unused ones are marked off (Unit Card ¶6)
LAST_ROLL = 12  # the damage roll is 2D6: 2 to 12


class Mark(Enum):
    """How a cell is crossed out (Unit Card ¶3)."""

    CLEAN = " "
    HALF = "\\"  # bludgeoning damage
    FULL = "X"  # lethal damage, or bludgeoning on a half-crossed cell (Resolving Fire ¶8)


def _row(values: dict[int, int]) -> Mapping[int, int]:
    return MappingProxyType(values)


# HP -> AP of a regular trooper: 8 at 10 HP and 7 at 5 HP are the text's (Unit Card ¶4); the
# rest is our ruling: AP = 8 - (HP lost // 3), the one whole step that still falls at 1 HP.
AP_ROW = _row({hp: 8 - (CELLS - hp) // 3 for hp in range(CELLS, 0, -1)})
# HP -> target-number modifier: +2 at 5 HP is the text's (Unit Card ¶5); the rest is our
# ruling: +1 per 2 HP lost, rounded down, the only such step that gives +2 at 5.
MOD_ROW = _row({hp: (CELLS - hp) // 2 for hp in range(CELLS, 0, -1)})


def index_of(hp: int) -> int:
    """The position of the cell labelled `hp` in `Track.cells` (10 is leftmost, index 0)."""
    if not 1 <= hp <= CELLS:
        raise ValueError(f"HP cells are labelled 1 to {CELLS}, not {hp}")
    return CELLS - hp


def label_of(index: int) -> int:
    return CELLS - index


@dataclass(frozen=True)
class Track:
    """A trooper's damage: `cells[0]` is the cell labelled HP 10, `cells[9]` HP 1; `armour` is
    how many body armour cells are left (the card's others are marked off)."""

    cells: tuple[Mark, ...] = (Mark.CLEAN,) * CELLS
    armour: int = 0

    def __post_init__(self) -> None:
        if len(self.cells) != CELLS:
            raise ValueError(f"a track has {CELLS} HP cells, not {len(self.cells)}")
        if not 0 <= self.armour <= MAX_ARMOUR:
            raise ValueError(f"a card has 0 to {MAX_ARMOUR} armour cells, not {self.armour}")

    def mark(self, hp: int) -> Mark:
        """The mark on the cell labelled `hp`."""
        return self.cells[index_of(hp)]


def new_track(armour: int = 0) -> Track:
    """A fresh card: every HP cell clean, `armour` cells of body armour (0, 2, 4 or 6)."""
    return Track(armour=armour)


def current_hp(track: Track) -> int:
    """The HP "given by the first cell to the right of the lowest fully crossed out HP cell"
    (Unit Card ¶3): half-crossed cells never lower it; 10 with no full cell, 0 once cell 1 is
    full (dead)."""
    full = [label_of(i) for i, mark in enumerate(track.cells) if mark is Mark.FULL]
    return min(full) - 1 if full else CELLS


def is_dead(track: Track) -> bool:
    """Our ruling: dead when cell 1 is fully crossed (no cell is left to its right)."""
    return current_hp(track) == 0


def is_unconscious(track: Track) -> bool:
    """Our ruling: alive with cell 1 half crossed (bludgeoning has reached the track's end)."""
    return not is_dead(track) and track.mark(1) is Mark.HALF


def is_able(track: Track) -> bool:
    """Neither dead nor unconscious: the trooper may still activate."""
    return not is_dead(track) and not is_unconscious(track)


def max_ap(track: Track, armour_cost: int = 0) -> int:
    """The AP row's value at the current HP, less the body armour's cost at every HP (Body
    Armor ¶2); 0 for the dead, who have no column (and never below 0)."""
    hp = current_hp(track)
    return 0 if hp == 0 else max(0, AP_ROW[hp] - armour_cost)


def damage_modifier(track: Track) -> int:
    """The modifier row's value at the current HP, added to every target number the trooper
    rolls (Unit Card ¶5). The dead roll nothing; they read the last column's value."""
    return MOD_ROW[max(1, current_hp(track))]


def first_cell(roll: int) -> int:
    """The HP cell a damage roll (2D6, Resolving Fire ¶6) names. Our ruling: 11 and 12 start at
    cell 10, the highest there is."""
    if not 2 <= roll <= LAST_ROLL:
        raise ValueError(f"a 2D6 roll is 2 to {LAST_ROLL}, not {roll}")
    return min(roll, CELLS)


def apply_damage(track: Track, lethal: int, blunt: int, first: int) -> Track:
    """One hit's damage (Resolving Fire ¶7-¶8): lethal points first take armour cells, then
    fully cross HP cells from cell `first` rightwards, skipping full ones; then bludgeoning,
    ignored while armour is left, half-crosses (or fully crosses half-crossed) cells from the
    cell after the last lethal one. Points that run past cell 1 are lost (our ruling)."""
    if lethal < 0 or blunt < 0:
        raise ValueError("damage is never negative")
    start = index_of(first)
    absorbed = min(track.armour, lethal)
    cells = list(track.cells)
    last = _cross_lethal(cells, start, lethal - absorbed)
    armour = track.armour - absorbed
    if armour == 0:
        # "the first cell after the last cell affected by the lethal damage or the initial
        # cell if the weapon does not have a lethal damage value" - our ruling: also the
        # initial cell when the lethal points never reached an HP cell (armour took them).
        _cross_blunt(cells, start if last is None else last + 1, blunt)
    return replace(track, cells=tuple(cells), armour=armour)


def _cross_lethal(cells: list[Mark], start: int, points: int) -> int | None:
    """Fully crosses `points` cells from `start` rightwards, skipping full ones; gives the
    index of the last cell crossed, None if none was."""
    last = None
    index = start
    while points > 0 and index < CELLS:
        if cells[index] is not Mark.FULL:
            cells[index] = Mark.FULL
            points -= 1
            last = index
        index += 1
    return last


def _cross_blunt(cells: list[Mark], start: int, points: int) -> None:
    """Half-crosses a clean cell or fully crosses a half one, one point each, from `start`
    rightwards; full cells are skipped (our ruling: a point is never spent on a full cell)."""
    index = start
    while points > 0 and index < CELLS:
        if cells[index] is not Mark.FULL:
            cells[index] = Mark.FULL if cells[index] is Mark.HALF else Mark.HALF
            points -= 1
        index += 1


def track_text(track: Track) -> str:
    """The HP row as the card draws it, cell 10 first: "X" lethal, "\\" bludgeoning, "." clean
    (a dot, not a space, so an export's text keeps its width)."""
    return "".join("." if mark is Mark.CLEAN else mark.value for mark in track.cells)
