"""`/roll`: dice expressions, with every die shown, plus success counting on pools.

The grammar is the `d20` package's (`4d6kh3`, `2d20kl1`, `1d8+3`, `1d6rr1`, `3d6e6`, comments),
read with other dice bots' habits first (`notation.py`: `3d6!`, `4d6k3`, `4d6dl1`, `3D6`); this
module adds what d20 does not do:

- **Success counting.** d20 reads `6d6<=3` as "is the sum of 6d6 at most 3" (1 or 0). A wargamer
  means "how many of the six dice are at most 3", so when the whole roll is a pool of dice
  compared with a number, each kept die is compared instead and the count is the result. On
  d6s, `<=` is the Skirm skill test (rulebook Successes and Failures): a 1 always succeeds and a
  6 always fails, whatever the target.
- **Fate dice and d%.** `4dF` rolls dice of -1, 0 or +1; `d%` rolls 1 to 100 (d20's own d% rolls
  a single tens die, 0 to 90).
- **Advantage.** `1d20+5 adv` and `1d20 dis`, as Avrae reads them: the first 1d20 becomes
  2d20kh1 or 2d20kl1.
- **An injectable random source.** d20 1.1.2 draws from the global `random` module with no hook,
  so the roller below builds its dice from subclasses that ask a `DieSource` instead; tests script
  exact faces with `skirmbot.rules.dice.ScriptedDice`.
- **Limits.** A cap on dice per roll (re-rolls and explosions count), on the expression's
  length, and on the answer's length (long answers are summarised), and errors that say where
  the expression went wrong.
"""

from __future__ import annotations

import operator
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import d20  # type: ignore[import-untyped]
from d20 import diceast
from d20.utils import ast_adv_copy, leftmost  # type: ignore[import-untyped]

from skirmbot.dice import notation
from skirmbot.dice.hand import hand_dice
from skirmbot.dice.notation import FATE, FATE_SIDES, PERCENT, PERCENT_SIDES, Reading

MAX_DICE = 100  # dice per roll, re-rolls and exploded dice included
MAX_SIDES = 1000
MAX_EXPRESSION = 200  # characters; also the slash option's limit
MAX_OUTPUT = 1500  # characters of an answer before it is summarised (Discord allows 2000)
MAX_NOTE = 100  # characters of a label or comment shown

COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
    "==": operator.eq,
    "!=": operator.ne,
}
COMPARISON_WORDS = {
    "<=": "at or under",
    ">=": "at or over",
    "<": "under",
    ">": "over",
    "==": "equal to",
    "!=": "not equal to",
}
MARKDOWN = set("\\*_~`|")  # inline Markdown that would restyle a label or comment
SKIRM_RULE = "Skirm skill test: a 1 always succeeds, a 6 always fails"
ADVANTAGE_WORDS = {
    "adv": d20.AdvType.ADV,
    "advantage": d20.AdvType.ADV,
    "dis": d20.AdvType.DIS,
    "disadvantage": d20.AdvType.DIS,
}
ADVANTAGE_HINT = (
    "adv and dis turn a roll that starts with 1d20 into 2d20kh1 or 2d20kl1 (1d20+5 adv); "
    "for other dice keep the highest or lowest yourself: 2d6kh1, 2d6kl1."
)
# A comment that starts like a modifier: `4d6 k3` would quietly roll 4d6 with "k3" as its label.
_LOOSE_MODIFIER = re.compile(r"^(?:k[hl]?|p[hl]?|d[hl]|rr|ro|ra|e|mi|ma)[<>]?\d+\b")
LOOSE_MODIFIER_HINT = (
    "Put modifiers right after the dice, without a space: 4d6k3, 3d6!, 2d20kl1 (what follows a "
    "space is a comment)."
)

HELP_WORDS = ("help", "?")
# /roll help: the whole grammar (README, Playing on Discord, item 7, says the same).
ROLL_HELP = "\n".join(
    [
        "**/roll**: dice as most dice bots write them; every die is shown.",
        "`2d6+3` · `1d20-1` · `(1d6+1)*2`: dice and arithmetic (`3D6` works too)",
        "`4d6kh3` or `4d6k3` keep the highest 3 · `2d20kl1` keep the lowest · "
        "`4d6dl1` or `4d6d1` drop the lowest · `4d6dh1` drop the highest",
        "`1d20+5 adv` · `1d20 dis`: advantage, disadvantage (on the first 1d20)",
        "`3d6!` a new die for every 6 · `3d6!5` or `3d6e5` for every 5 · "
        "`3d6e>4` for every 5 and 6",
        "`1d6rr1` re-roll every 1 · `1d6ro1` re-roll a 1 once · `1d6mi2` at least 2 · "
        "`1d6ma5` at most 5",
        "`4dF` Fate dice (-1, 0 or +1 each) · `d%` 1 to 100",
        "Selectors after an operator: `h3` highest 3, `l3` lowest 3, `>4` over 4, `<2` under 2, "
        "`3` exactly 3 (`4d6rr<3`, `5d6p>4` drops the dice over 4).",
        "**Successes**: a pool compared with a number counts dice, not the sum: `6d6<=3` counts "
        "dice at or under 3; on D6s that is the Skirm test (a 1 always succeeds, a 6 always "
        "fails). `10d6>=5`, `4d6==6` · `1d20+5>=15` compares the sum: true (1) or false (0).",
        "Words after a space are a comment: `1d20+5 attack the dragon`. `label` titles the roll; "
        f"`private` shows it to you only. At most {MAX_DICE} dice a roll (re-rolled and "
        f"exploding ones count), {MAX_SIDES} sides, {MAX_EXPRESSION} characters.",
    ]
)

# Lark's token names, in words, for "expected ..." in syntax errors.
_EXPECTED_WORDS = {
    "INTEGER": "a number",
    "DECIMAL": "a number",
    "DICE_VALUE": "the number of sides (d6, d20, d%)",
    "LPAR": "'('",
    "RPAR": "')'",
    "U_OP": "'+' or '-'",
    "A_OP": "'+' or '-'",
    "M_OP": "'*', '/', '//' or '%'",
    "COMP_OPERATOR": "a comparison such as '<='",
    "D": "'d'",
    "$END": "the end of the roll",
}


class DiceError(ValueError):
    """The expression cannot be rolled; the message says why (and where) in plain words."""


class DieSource(Protocol):
    """Where faces come from: `skirmbot.rules.dice.SeededDice`/`ScriptedDice` fit, and so does
    `SystemDice` below."""

    def roll(self, sides: int = 6) -> int: ...


class SystemDice:
    """The operating system's randomness, for rolls nobody needs to replay."""

    def __init__(self) -> None:
        self._random = random.SystemRandom()

    def roll(self, sides: int = 6) -> int:
        return self._random.randint(1, sides)


# --- d20 with an injectable random source ----------------------------------------------------
# d20's Dice and Die call `random.randrange` directly; these subclasses draw from a DieSource.
class _SourcedDie(d20.Die):  # type: ignore[misc]
    __slots__ = ("_source",)

    def __init__(self, size: Any, values: list[Any], context: Any, source: DieSource) -> None:
        self._source = source
        super().__init__(size, values, context=context)

    @classmethod
    def rolled(cls, size: Any, context: Any, source: DieSource) -> _SourcedDie:
        die = cls(size, [], context, source)
        die._add_roll()
        return die

    def _add_roll(self) -> None:
        if self.size not in (PERCENT, FATE) and self.size < 1:
            raise d20.RollValueError("Cannot roll a 0-sided die.")
        if self._context:
            self._context.count_roll()  # raises TooManyRolls past the cap
        if self.size == PERCENT:
            face = self._source.roll(PERCENT_SIDES)  # 1-100, not d20's tens die (0-90)
        elif self.size == FATE:
            face = self._source.roll(FATE_SIDES) - 2  # -1, 0, +1
        else:
            face = self._source.roll(self.size)
        self.values.append(d20.Literal(face))


class _SourcedDice(d20.Dice):  # type: ignore[misc]
    __slots__ = ("_source",)

    def __init__(
        self, num: int, size: Any, values: list[Any], context: Any, source: DieSource
    ) -> None:
        self._source = source
        super().__init__(num, size, values, context=context)

    def roll_another(self) -> None:  # exploding dice add one more die to the set
        self.values.append(_SourcedDie.rolled(self.size, self._context, self._source))


class _SourcedRoller(d20.Roller):  # type: ignore[misc]
    def __init__(self, source: DieSource, max_dice: int) -> None:
        super().__init__(context=d20.RollContext(max_rolls=max_dice))
        self._source = source

    def _eval_dice(self, node: Any) -> _SourcedDice:
        dice = [_SourcedDie.rolled(node.size, self.context, self._source) for _ in range(node.num)]
        return _SourcedDice(node.num, node.size, dice, self.context, self._source)


class _Stringifier(d20.MarkdownStringifier):  # type: ignore[misc]
    """d20's Markdown (dropped dice struck through, 1s and maximums in bold), knowing our dice
    types, and marking each counted die ✓ or ✗ when a pool counts successes."""

    _nodes: dict[Any, Any]  # d20's handlers by node type

    def __init__(self, verdict: Callable[[int], bool] | None = None) -> None:
        super().__init__()
        # d20 looks handlers up by exact type, so the subclasses need their own entries.
        self._nodes = {**self._nodes, _SourcedDice: self._str_dice, _SourcedDie: self._str_die}
        self._verdict = verdict

    def _str_die(self, node: Any) -> str:
        text = self._faces(node)
        if self._verdict is None or not node.kept:
            return text
        return text + ("✓" if self._verdict(int(node.number)) else "✗")

    def _faces(self, node: Any) -> str:
        """Each face the die showed; 1s and maximums bold (d%: 100), Fate faces signed."""
        if node.size not in (PERCENT, FATE):
            text: str = super()._str_die(node)
            return text
        shown = []
        for value in node.values:
            inside = self._stringify(value)
            if node.size == FATE and value.number > 0:
                inside = "+" + inside
            elif node.size == PERCENT and value.number in (1, PERCENT_SIDES):
                inside = f"**{inside}**"
            shown.append(inside)
        return ", ".join(shown)


# --- the roll --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RollOutcome:
    expression: str  # as the player typed it
    text: str  # every die shown (Markdown), ending with the result
    total: int  # the result: the sum, or the number of successes
    successes: int | None  # set when a pool counted successes
    comment: str | None
    faces: tuple[int, ...]  # every face rolled, re-rolled and dropped ones included


@dataclass(frozen=True, slots=True)
class _Count:
    """A pool compared with a number: `6d6<=3`."""

    pool: Any  # d20 AST of the dice
    op: str
    target: int


def roll_expression(
    expression: str, source: DieSource | None = None, max_dice: int = MAX_DICE
) -> RollOutcome:
    """Roll `expression`; raises DiceError with a plain-words reason when it cannot be rolled."""
    text = expression.strip()
    if not text:
        raise DiceError("Give a dice expression, for example 4d6kh3, 1d20+5 or 6d6<=3.")
    if len(text) > MAX_EXPRESSION:
        raise DiceError(
            f"That expression is {len(text)} characters; the limit is {MAX_EXPRESSION}."
        )
    roller = _SourcedRoller(source or SystemDice(), max_dice)
    reading = notation.read(text)
    tree = _parse(roller, reading)
    _mark_fate(tree, reading)
    tree = _advantage(tree, reading)
    _check_size(tree, text, max_dice)
    count = _as_count(roller, tree, text)
    try:
        if count is None:
            return _roll_sum(roller, tree, text)
        return _roll_count(roller, tree, count, text)
    except d20.TooManyRolls as error:
        raise DiceError(
            f"'{text}' needs more than {max_dice} dice (re-rolled and exploding dice count too); "
            f"a roll may use at most {max_dice}."
        ) from error
    except d20.RollError as error:  # division by zero, a 0-sided die, a bad mi/ma selector
        raise DiceError(f"'{text}' cannot be rolled: {error}") from error


def _parse(roller: _SourcedRoller, reading: Reading) -> Any:
    """d20's tree of the expression, its comment set back to the words the player typed."""
    text = reading.text
    try:
        tree = roller.parse(text, allow_comments=True)
    except d20.RollSyntaxError as error:
        raise DiceError(_syntax_message(reading, error)) from error
    if tree.comment and not _comment_stands_apart(text, str(tree.comment)):
        # d20 takes anything after a complete roll as a comment, so "4d6x" would quietly roll
        # 4d6; a comment glued to the roll is almost always a typo, so say where it went wrong.
        try:
            roller.parse(text)
        except d20.RollSyntaxError as error:
            raise DiceError(_syntax_message(reading, error)) from error
    if tree.comment:
        start = reading.typed_index(len(text) - len(str(tree.comment)))
        tree.comment = reading.typed[start:].strip() or None
        if tree.comment and _LOOSE_MODIFIER.match(tree.comment):
            raise DiceError(f"'{reading.typed}': {LOOSE_MODIFIER_HINT}")
    return tree


def _comment_stands_apart(text: str, comment: str) -> bool:
    start = text.rfind(comment.strip())
    return start > 0 and text[start - 1].isspace()


def _mark_fate(tree: Any, reading: Reading) -> None:
    """The dice the player wrote as dF were parsed as d3s: make them Fate dice."""
    dice = [node for node in _walk(tree) if isinstance(node, diceast.Dice)]
    for ordinal in reading.fate:
        if ordinal < len(dice):  # later ones were in the comment
            dice[ordinal].size = FATE


def _advantage(tree: Any, reading: Reading) -> Any:
    """`1d20+5 adv` / `1d20 dis` (Avrae): the first word of the comment, when it is one of
    these, rolls the leading 1d20 twice and keeps the higher or lower die."""
    words = str(tree.comment or "").split(maxsplit=1)
    kind = ADVANTAGE_WORDS.get(words[0].casefold()) if words else None
    if kind is None:
        return tree
    first = leftmost(tree)
    if not (isinstance(first, diceast.Dice) and first.num == 1 and first.size == 20):
        raise DiceError(f"'{reading.typed}': {ADVANTAGE_HINT}")
    rolled = ast_adv_copy(tree, kind)
    rolled.comment = words[1].strip() if len(words) > 1 else None
    return rolled


def _syntax_message(reading: Reading, error: Any) -> str:
    text = reading.typed
    at = _position(reading.text, int(error.line), int(error.col)) - 1
    position = reading.typed_index(at) + 1
    hint = reading.hints.get(position - 1)
    if hint is not None:
        return f"'{text}': {hint}"
    expected = _expected_words(error.expected)
    hint = f": expected {expected}" if expected else ""
    got = str(error.got).strip()
    if not got or position > len(text):
        return f"'{text}' ends too early{hint}."
    if len(got) > 20:
        got = got[:20] + "…"
    return f"Unexpected '{got}' at position {position} in '{text}'{hint}."


def _position(text: str, line: int, column: int) -> int:
    """1-based position in the whole text from Lark's line and column."""
    lines = text.split("\n")
    return sum(len(earlier) + 1 for earlier in lines[: line - 1]) + column


def _expected_words(expected: Any) -> str:
    words: list[str] = []
    for name in sorted(str(token) for token in expected or ()):
        word = _EXPECTED_WORDS.get(name)
        if word and word not in words:
            words.append(word)
    return " or ".join(words)


def _walk(node: Any) -> Iterator[Any]:
    """Every node of a d20 tree (AST or rolled), the dice of a rolled set included."""
    yield node
    children = node.values if isinstance(node, d20.Dice) else node.children
    for child in children:
        yield from _walk(child)


def _check_size(tree: Any, text: str, max_dice: int) -> None:
    """Refuse before rolling: clearer than d20's "Too many dice rolled." halfway through."""
    dice = [node for node in _walk(tree) if isinstance(node, diceast.Dice)]
    asked = sum(node.num for node in dice)
    if asked > max_dice:
        raise DiceError(f"'{text}' asks for {asked} dice; a roll may use at most {max_dice}.")
    for node in dice:
        if node.size not in (PERCENT, FATE) and node.size > MAX_SIDES:
            raise DiceError(f"A d{node.size} is too big; dice may have at most {MAX_SIDES} sides.")


def _as_count(roller: _SourcedRoller, tree: Any, text: str) -> _Count | None:
    """The roll is a pool compared with a number (`6d6<=3`, `10d6kh5>=5`): count successes."""
    root = tree.roll
    if not isinstance(root, diceast.BinOp) or root.op not in COMPARISONS:
        return None
    if not isinstance(root.left, diceast.Dice | diceast.OperatedDice):
        return None  # `1d20+5>=15` stays d20's own comparison of the sum (1 true, 0 false)
    if any(isinstance(node, diceast.Dice) for node in _walk(root.right)):
        return None
    try:
        target = roller.roll(diceast.Expression(root.right)).expr.total
    except d20.RollError as error:
        raise DiceError(f"'{text}' cannot be rolled: {error}") from error
    if target != int(target):
        raise DiceError(f"The target after {root.op} in '{text}' must be a whole number.")
    return _Count(root.left, root.op, int(target))


def _roll_sum(roller: _SourcedRoller, tree: Any, text: str) -> RollOutcome:
    result = roller.roll(tree, stringifier=_Stringifier())
    shown = result.result  # stringify first: it raises for a division by zero
    if isinstance(tree.roll, diceast.BinOp) and tree.roll.op in COMPARISONS:
        # d20's own comparison of a sum (`1d20+5>=15`): its 1 or 0 means true or false.
        shown += " (true)" if result.total else " (false)"
    return RollOutcome(text, shown, result.total, None, _comment(tree), _faces(result.expr))


def _roll_count(roller: _SourcedRoller, tree: Any, count: _Count, text: str) -> RollOutcome:
    verdict = _verdict(count, _size_of(count.pool))
    result = roller.roll(diceast.Expression(count.pool))
    pool = result.expr.roll
    successes = sum(1 for die in pool.keptset if verdict(int(die.number)))
    shown = _Stringifier(verdict).stringify(pool)
    rule = f"; {SKIRM_RULE}" if _skirm_test(count, _size_of(count.pool)) else ""
    noun = "success" if successes == 1 else "successes"
    line = (
        f"{shown} {count.op} {count.target} = `{successes}` {noun} "
        f"({COMPARISON_WORDS[count.op]} {count.target}{rule})"
    )
    return RollOutcome(text, line, successes, successes, _comment(tree), _faces(result.expr))


def _size_of(pool: Any) -> Any:
    return pool.size if isinstance(pool, diceast.Dice) else pool.value.size


def _skirm_test(count: _Count, size: Any) -> bool:
    return count.op == "<=" and size == 6


def _verdict(count: _Count, size: Any) -> Callable[[int], bool]:
    if _skirm_test(count, size):
        return lambda face: hand_dice().succeeds(face, count.target)
    compare = COMPARISONS[count.op]
    return lambda face: compare(face, count.target)


def _comment(tree: Any) -> str | None:
    comment = str(tree.comment or "").strip()
    return comment or None


def _faces(expr: Any) -> tuple[int, ...]:
    return tuple(
        int(value.number)
        for node in _walk(expr)
        if isinstance(node, d20.Die)
        for value in node.values
    )


# --- the answer ------------------------------------------------------------------------------
def format_roll(outcome: RollOutcome, label: str | None = None, limit: int = MAX_OUTPUT) -> str:
    """The message: label and comment, then every die; summarised when longer than `limit`."""
    heading = _heading(outcome, label)
    full = heading + outcome.text
    if len(full) <= limit:
        return full
    return heading + _summary(outcome, limit - len(heading))


def _heading(outcome: RollOutcome, label: str | None) -> str:
    notes = [_escape(_clip(note)) for note in (label, outcome.comment) if note and note.strip()]
    return f"**{' · '.join(notes)}**\n" if notes else ""


def _clip(note: str) -> str:
    note = " ".join(note.split())
    return note if len(note) <= MAX_NOTE else note[: MAX_NOTE - 1] + "…"


def _escape(note: str) -> str:
    """A player's words shown as typed: `*` or `~` in a comment must not bold or strike the rest."""
    return "".join("\\" + char if char in MARKDOWN else char for char in note)


def _summary(outcome: RollOutcome, room: int) -> str:
    """Too long to show every die: the result and a tally of the faces instead."""
    result = (
        f"`{outcome.successes}` successes"
        if outcome.successes is not None
        else f"`{outcome.total}`"
    )
    head = f"{_escape(_clip(outcome.expression))} = {result}\n"
    head += f"{len(outcome.faces)} dice rolled, too many to show one by one. "
    tally = Counter(outcome.faces)
    faces = ", ".join(f"{face}×{n}" for face, n in sorted(tally.items()))
    line = f"Faces: {faces}."
    if len(head) + len(line) > room and outcome.faces:
        line = f"Lowest {min(outcome.faces)}, highest {max(outcome.faces)}."
    return head + line
