"""Other dice bots' notation, read into the `d20` package's grammar before `/roll` parses it.

Players arrive from Roll20, Dice Maiden and Avrae with their habits; where d20 has the same roll
under another spelling, the expression is rewritten (and the answer shows d20's spelling); where
it has none, `expressions.py` rolls it itself (Fate dice); where the roll is a different one, the
expression is refused with a hint naming the spelling that works.

| typed | read as | why |
| --- | --- | --- |
| `3D6` | `3d6` | the rulebook writes dice in capitals |
| `3d6!` | `3d6e6` | explode every maximum (Roll20, Dice Maiden) |
| `3d6!5` | `3d6e5` | explode every 5 |
| `4d6k3` | `4d6kh3` | Roll20's keep is keep highest; d20's `k3` would keep the 3s |
| `4d6d1`, `4d6dl1` | `4d6pl1` | drop lowest (Roll20, Dice Maiden) |
| `4d6dh1` | `4d6ph1` | drop highest |
| `4dF` | Fate dice | -1, 0 or +1 each (rolled in `expressions.py`) |
| `d%` | 1-100 | d20 alone rolls 0, 10, ..., 90 |

`1d20 adv` / `1d20 dis` (Avrae) are words after the roll, so `expressions.py` reads them from the
comment once d20 has parsed the expression.

Only the modifiers glued to a die (`4d6k3`, not `4d6 k3`) are read, and everything is mapped back
to the player's own text: error positions count in what they typed, and a comment is shown as
typed even if it holds something that looks like dice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FATE = "F"  # the size a Fate die carries through d20 (its faces: -1, 0, +1)
FATE_SIDES = 3  # a Fate die is drawn as a D3, less 2
PERCENT = "%"
PERCENT_SIDES = 100

# A die term: count, `d`, sides; not part of a word ("sword6" holds no die).
_DIE = re.compile(r"(?<![A-Za-z_])(\d*)([dD])(\d+|%|[fF])")
_EXPLODE = re.compile(r"!(\d*)")
_KEEP = re.compile(r"k(\d+)")  # a bare number after k: Roll20's keep highest
_DROP = re.compile(r"d([hl]?)(\d+)")  # Roll20's drop (lowest unless h)
_D20_OPERATOR = re.compile(r"(?:rr|ro|ra|e|mi|ma|k|p)[hl<>]?\d+")  # d20's own, left as typed
_LONE_REROLL = re.compile(r"r(?![roa])[<>]?\d+")

REROLL_HINT = (
    "'r' alone is not a re-roll here: write rr to re-roll every time (4d6rr1) "
    "or ro to re-roll once (4d6ro1)."
)
COMPOUND_HINT = (
    "Compounding and penetrating dice (!! and !p) are not supported: 3d6! explodes each "
    "maximum into a new die, and 3d6e6 says the same."
)
COMPARE_EXPLODE_HINT = (
    "To explode on several faces write e with a comparison: 3d6e>4 explodes every 5 and 6 "
    "(over 4); 3d6! explodes the 6s."
)
FATE_EXPLODE_HINT = "Fate dice (dF) do not explode; roll 4dF."


@dataclass(slots=True)
class Reading:
    """The expression in d20's grammar, and how to get back to what the player typed."""

    typed: str
    text: str = ""
    # For each character of `text`, its index in `typed`.
    origin: list[int] = field(default_factory=list)
    fate: list[int] = field(default_factory=list)  # ordinals (among the die terms) of Fate dice
    hints: dict[int, str] = field(default_factory=dict)  # index in `typed` -> why it is refused

    def add(self, piece: str, start: int) -> None:
        """Append `piece`, which stands for what the player typed from `start`."""
        self.text += piece
        self.origin.extend([start] * len(piece))

    def copy(self, start: int, end: int) -> None:
        self.text += self.typed[start:end]
        self.origin.extend(range(start, end))

    def typed_index(self, index: int) -> int:
        """Index in the typed text of `index` in the d20 text (the end maps to the end)."""
        if index >= len(self.origin):
            return len(self.typed) + index - len(self.origin)
        return self.origin[index]


def read(typed: str) -> Reading:
    """Rewrite other bots' notation into d20's grammar (see the table above)."""
    reading = Reading(typed)
    done = 0
    ordinal = 0
    for die in _DIE.finditer(typed):
        if die.start() < done:
            continue
        reading.copy(done, die.start())
        sides = die.group(3)
        fate = sides in ("f", "F")
        if fate:
            reading.fate.append(ordinal)
        ordinal += 1
        reading.copy(die.start(), die.start(2))
        reading.add("d", die.start(2))  # 3D6 as the rulebook writes it: d20 reads only d
        if fate:
            reading.add(str(FATE_SIDES), die.start(3))
        else:
            reading.copy(die.start(3), die.end(3))
        done = _modifiers(reading, die.end(), FATE if fate else sides)
    reading.copy(done, len(typed))
    return reading


def _modifiers(reading: Reading, at: int, sides: str) -> int:
    """Read the modifiers glued to a die from `at`; returns where they end."""
    typed = reading.typed
    while at < len(typed):
        rest = typed[at:]
        if rest.startswith("!"):
            if rest[1:2] in ("!", "p"):
                reading.hints[at] = COMPOUND_HINT
                return at
            if rest[1:2] in ("<", ">") and rest[2:3] != "=":  # 6d6!<=3 explodes, then counts
                reading.hints[at] = COMPARE_EXPLODE_HINT
                return at
            if sides == FATE:
                reading.hints[at] = FATE_EXPLODE_HINT
                return at
            explode = _EXPLODE.match(rest)
            assert explode is not None
            face = explode.group(1) or (str(PERCENT_SIDES) if sides == PERCENT else sides)
            reading.add(f"e{face}", at)
            at += explode.end()
            continue
        keep = _KEEP.match(rest)
        if keep:
            reading.add(f"kh{keep.group(1)}", at)
            at += keep.end()
            continue
        drop = _DROP.match(rest)
        if drop:
            reading.add(f"p{drop.group(1) or 'l'}{drop.group(2)}", at)
            at += drop.end()
            continue
        own = _D20_OPERATOR.match(rest)
        if own:
            reading.copy(at, at + own.end())
            at += own.end()
            continue
        if _LONE_REROLL.match(rest):
            reading.hints[at] = REROLL_HINT
        return at
    return at
