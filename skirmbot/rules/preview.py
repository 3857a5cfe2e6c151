"""Previews: a unit's options seen before committing to one (issue 21), for every ruleset.

A preview answers "where can it go, and what are its chances from here (or from there)?" with
the squares the unit can reach, each labelled by the shortest action that reaches it (a Dash, a
Move, a Leap), the enemies it could attack with each weapon (the exact chance to hit and the
expected HIT lost, as /odds works them out), and, when it is previewed on another square, the
enemies that could attack it there.

A preview is computed on a copy of the state (`copy_for_preview`) and rolls no die: a ruleset's
preview works out chances, never outcomes, and the state it reads holds no dice source (the
match's dice stay with the match), so no die of the match can be used up. Nothing hidden is used: set-up placements are refused (they are secret
until revealed), and the odds read only what every player sees on the map and the cards.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from skirmbot.rules.errors import RulesError
from skirmbot.rules.squares import Square
from skirmbot.rules.view import Position

# The actions that move a unit, the shortest first: a square is labelled with the first that
# reaches it (docs/rulings.md, Previews).
DASH, MOVE, LEAP = "dash", "move", "leap"
MOVEMENTS = (DASH, MOVE, LEAP)


@dataclass(frozen=True, slots=True)
class Reach:
    """A square the unit can end a movement action on, and the first action that reaches it."""

    square: Position
    action: str  # DASH, MOVE or LEAP
    cost: int  # movement points the cheapest route spends (a Leap: squares jumped)


@dataclass(frozen=True, slots=True)
class OddsTerms:
    """How a ruleset's preview names its numbers (Skirm's words unless a ruleset gives its
    own: the group rules count inches and R, and a target is Routed)."""

    distance: str = " sq"  # after a distance: " sq", or '"' for inches
    hit: str = "hits"  # before the chance `Chance.hit`
    lost: str = "HIT expected"  # after `Chance.damage`
    short_lost: str = "dmg"  # the same, on the picture's labels
    out: str = "out"  # before the chance `Chance.out`
    heading: str = "chance to hit · expected HIT lost, without TO"  # what the numbers are
    odds: str = "chance to hit, expected HIT lost, without TO spent on your dice"  # /odds'
    # The preview's two lists' titles: the unit's attacks, and (as if elsewhere) the enemies'
    # on it there; `{unit}` and `{square}` are filled in.
    attacks_title: str = "Attacks"
    threats_title: str = "Could attack {unit} on {square}"


@dataclass(frozen=True, slots=True)
class Chance:
    """One weapon against one target: the exact chance that at least one hit lands and the
    expected HIT the target loses (after cover, saves and the target's own rules)."""

    attacker: str
    weapon: str
    kind: str  # "ranged" or "melee"
    target: str
    distance: int
    cover: bool
    hit: Fraction  # at least one hit (strike) lands
    damage: Fraction  # expected HIT lost
    out: Fraction  # the target is Taken Out (Skirm) or Downed (Lite)
    # An opposed roll (the d20 rules): `hit` is the chance to win it with no bonus dice of the
    # attacker's, `bonus` with 1, 2, ... of the bonus dice it holds, each against the
    # `defended` bonus dice the defender's standing order adds.
    opposed: bool = False
    bonus: tuple[Fraction, ...] = ()
    defended: int = 0
    terms: OddsTerms = OddsTerms()  # how the numbers are named

    def short(self) -> str:
        """As the picture labels it: "62% · 1.4 dmg" ("wins 45%" for an opposed roll)."""
        if self.opposed:
            return f"wins {percent(self.hit)}"
        return f"{percent(self.hit)} · {float(self.damage):.1f} {self.terms.short_lost}"

    def words(self) -> str:
        """As the text lists it: "Rifle → Vex (5 sq, in cover): hits 62%, 1.37 HIT expected,
        out 12%"; an opposed roll: "Rifle → Vex (5 sq): wins 45% against 1 bonus die; with
        bonus dice +1 58%, +2 69%"."""
        terms = self.terms
        where = f"{self.distance}{terms.distance}{', in cover' if self.cover else ''}"
        if self.opposed:
            against = f" against {self.defended} bonus di{'e' if self.defended == 1 else 'ce'}"
            more = ", ".join(f"+{n} {percent(p)}" for n, p in enumerate(self.bonus, start=1))
            return (
                f"{self.weapon} → {self.target} ({where}): wins {percent(self.hit)}"
                f"{against if self.defended else ''}{f'; with bonus dice {more}' if more else ''}"
            )
        return (
            f"{self.weapon} → {self.target} ({where}): {terms.hit} {percent(self.hit)}, "
            f"{float(self.damage):.2f} {terms.lost}, {terms.out} {percent(self.out)}"
        )


@dataclass(frozen=True, slots=True)
class Preview:
    """A unit's options where it stands, or as if it stood on `square` (`as_if`)."""

    unit: str
    side: int
    square: Position  # where it stands, or the place it is previewed on
    as_if: bool  # True: previewed on a square it does not stand on
    reach: tuple[Reach, ...]
    attacks: tuple[Chance, ...]  # what it could attack from `square`
    threats: tuple[Chance, ...] = ()  # with `as_if`: the enemies that could attack it there
    terms: OddsTerms = OddsTerms()  # how its numbers are named (the heading of its odds)

    def reach_by(self, action: str) -> list[Reach]:
        return [r for r in self.reach if r.action == action]


def percent(p: Fraction) -> str:
    """A chance in whole percents; a possibility is never rounded to 0% or 100%."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    shown = round(float(p) * 100)
    return "<1%" if shown == 0 else ">99%" if shown == 100 else f"{shown}%"


SHARED = ("board", "battle_map", "mission")  # parts of a state a preview never changes


def copy_for_preview(state: Any, *, own_board: bool = False) -> Any:
    """A copy of the match state a preview may change freely (its units, squads, items). The
    board, the map and the mission are shared, not copied: a preview never changes them (it
    moves no door), and leaving them out makes the copy about a fifth quicker.

    `own_board`: the copy has a board of its own too (its own doors, and what the live board
    has worked out so far, so it is as quick). For a copy read in another thread while the
    live match plays on: a door the match opens meanwhile must not change the copy's board
    half-way through, and what the preview works out for the old doors must not land in the
    live board's memory after the door made it forget (the match would then move and see
    through the door as it was)."""
    # Another ruleset's state may hold only some of them (the d20 rules: a board, no mission).
    shared = [getattr(state, name) for name in SHARED if hasattr(state, name)]
    memo = {id(part): part for part in shared}
    # A board that cannot change (the infantry rules' map of dots has no door) has no `copy`:
    # shared, it is already as good as the copy's own.
    if own_board and hasattr(state.board, "copy"):
        memo[id(state.board)] = state.board.copy(keep_memo=True)
    return copy.deepcopy(state, memo)


def place_as_if(state: Any, unit: Any, square: Square | None) -> Any:
    """The copy's unit, standing on `square` (None: where it stands). RulesError, in plain
    words, when it could not stand there: off the board, impassable, or another unit's."""
    if square is None or square == unit.square:
        return unit
    board = state.board
    if not board.on_board(square):
        raise RulesError(f"{square} is not on the map ({board.width}x{board.height} squares).")
    if not board.is_open(square):
        raise RulesError(f"{square} is impassable: no unit can stand there.")
    other = state.unit_at(square)
    if other is not None:
        raise RulesError(f"{other.name} stands on {square}; preview a free square instead.")
    unit.square = square
    return unit


def label_reach(found: dict[str, dict[Square, int]]) -> tuple[Reach, ...]:
    """Each square once, labelled by the shortest action that reaches it (`MOVEMENTS` order),
    in reading order."""
    labelled: dict[Square, Reach] = {}
    for action in MOVEMENTS:
        for square, cost in found.get(action, {}).items():
            labelled.setdefault(square, Reach(square, action, cost))
    return tuple(labelled[square] for square in sorted(labelled, key=lambda s: (s.y, s.x)))


def check_public(stage: object | None) -> None:
    """Previews show only what both players see: never during a (secret) set-up stage."""
    if stage is not None:
        raise RulesError(
            "There is nothing to preview yet: units are still being placed in secret. "
            "Preview a unit once the match has begun."
        )
