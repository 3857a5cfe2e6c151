"""`/odds`: the exact chance of each outcome of an attack, before it is made.

This module is the command's own side: an attack given by hand (skill, ROA, DAM, ARM, HIT and
the special rules /odds takes), checked and refused in words (`DiceError`), and the odds as text,
for an attack given by hand and for a unit's targets in a match. The odds themselves, worked out
exactly as the engine resolves the attack, are the ruleset's with /odds by hand
(`skirmbot.dice.hand`: Skirm's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from skirmbot.dice.expressions import DiceError
from skirmbot.dice.hand import hand_dice
from skirmbot.words import plural, possessive

# --- the odds a ruleset with exact odds works out, as this module puts them in words ---------
# Structural shapes (the ruleset's own classes are not imported here: what /odds reads of them
# is all it needs; Skirm's `rules/skirm/odds.py` has them).
Distribution = dict[int, Fraction]  # each number (of HIT lost, of damage) and its chance


class CounterOdds(Protocol):
    @property
    def unit(self) -> str: ...
    @property
    def weapon(self) -> str: ...
    @property
    def happens(self) -> Fraction: ...
    @property
    def taken_out(self) -> Fraction: ...
    @property
    def hit_lost(self) -> Distribution: ...


class Outcome(Protocol):
    @property
    def hit(self) -> int: ...
    @property
    def damage(self) -> Distribution: ...
    @property
    def hit_lost(self) -> Distribution: ...
    @property
    def struck(self) -> Fraction: ...
    @property
    def stunned(self) -> Fraction: ...
    @property
    def counter(self) -> CounterOdds | None: ...

    @property
    def taken_out(self) -> Fraction: ...

    @property
    def expected_hit_lost(self) -> Fraction: ...


class _Roll(Protocol):
    @property
    def dice(self) -> int: ...
    @property
    def unrolled(self) -> int: ...
    @property
    def natural_bonus(self) -> int: ...
    @property
    def deadly(self) -> int: ...
    @property
    def relentless(self) -> bool: ...
    @property
    def cover(self) -> bool: ...
    @property
    def parried(self) -> bool: ...


class _Saves(Protocol):
    @property
    def arm(self) -> int: ...
    @property
    def hit(self) -> int: ...
    @property
    def tough(self) -> int: ...


class _Step(Protocol):
    @property
    def label(self) -> str: ...
    @property
    def side(self) -> int | None: ...
    @property
    def roll(self) -> _Roll: ...
    @property
    def saves(self) -> _Saves | None: ...


class _Option(Protocol):
    @property
    def label(self) -> str: ...
    @property
    def distance(self) -> int: ...
    @property
    def cover(self) -> bool: ...


class _Weapon(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def dam(self) -> int: ...

    def has(self, code: str) -> bool: ...


class TargetOdds(Protocol):
    """One weapon against one target in a match, without TO and spending some (read-only
    members: the ruleset's odds are frozen dataclasses)."""

    @property
    def weapon(self) -> _Weapon: ...
    @property
    def kind(self) -> str: ...
    @property
    def option(self) -> _Option: ...
    @property
    def skill(self) -> int: ...
    @property
    def notes(self) -> tuple[str, ...]: ...
    @property
    def free_rerolls(self) -> int: ...
    @property
    def steps(self) -> tuple[_Step, ...]: ...
    @property
    def orders(self) -> int: ...
    @property
    def without(self) -> tuple[Outcome, ...]: ...
    @property
    def spending(self) -> tuple[Outcome, ...] | None: ...
    @property
    def support(self) -> bool: ...
    @property
    def attacker_side(self) -> int: ...

    @property
    def primary(self) -> Outcome: ...


DEFAULT_ORDERS = hand_dice().default_orders  # /odds' option default

# Bounds for /odds: generous beyond any card, small enough to answer at once.
LIMITS = {"skill": (1, 6), "roa": (1, 20), "dam": (1, 10), "arm": (1, 6), "hit": (1, 20)}
MAX_ORDERS = 10
MAX_RULE_VALUE = 10  # the x of AHx, DDx, PRx, BRx, TGx given by hand


# --- /odds by hand: numbers and special rules ----------------------------------------------------
# Rules /odds takes by hand, by what they change (rulebook Special Rules tables).
MANUAL_RULES = ("RND", "DDx", "AHx", "RLT", "PRx", "BRx", "STN", "NCV", "BLS", "XPL", "TGx", "PAR")
_MANUAL_HINTS = {
    "SK": "SKx and +SK change the skill: give the skill the attack rolls against.",
    "+SK": "SKx and +SK change the skill: give the skill the attack rolls against.",
    "CAM": "CAM and DLS lower the attacker's skill: give the skill after them.",
    "DLS": "CAM and DLS lower the attacker's skill: give the skill after them.",
    "CTR": "CTR strikes back with the target's own weapon: use unit and target in a match.",
    "SPR": "Each target of SPR, CRx or LNR rolls on its own: give that target's dice as ROA.",
    "CR": "Each target of SPR, CRx or LNR rolls on its own: give that target's dice as ROA.",
    "LNR": "Each target of SPR, CRx or LNR rolls on its own: give that target's dice as ROA.",
}
_RULE_TEXT = re.compile(r"^(\+SK|[A-Z]{2,3}?)(\d*)$")
_TAKES_NUMBER = {"DD", "AH", "PR", "BR", "TG", "SK", "CR"}


@dataclass(frozen=True, slots=True)
class Attack:
    """An attack given by hand (/odds skill, ROA, DAM, ARM, HIT and special rules)."""

    skill: int
    roa: int
    dam: int
    arm: int
    hit: int  # the target's HIT now
    cover: bool = False
    support: bool = False
    rules: tuple[str, ...] = ()  # as given: RND, DD1, ...

    def value(self, code: str) -> int:
        """The x of an x rule (0 when absent), or 1 for a rule given without a number."""
        total = 0
        for rule in self.rules:
            found = _RULE_TEXT.match(rule)
            if found and found.group(1) == code:
                total += int(found.group(2) or 1)
        return total

    def has(self, code: str) -> bool:
        return self.value(code) > 0

    @property
    def in_cover(self) -> bool:
        """NCV and blasts (BLS, XPL) deny cover."""
        return self.cover and not any(self.has(code) for code in ("NCV", "BLS", "XPL"))

    def describe(self) -> str:
        extras = [w for w, on in (("in cover", self.in_cover), ("support", self.support)) if on]
        if self.cover and not self.in_cover:
            extras.append("cover ignored")
        extras += self.rules
        tail = f", {', '.join(extras)}" if extras else ""
        return (
            f"skill {self.skill}, ROA {self.roa}, DAM {self.dam} against ARM {self.arm}, "
            f"HIT {self.hit}{tail}"
        )

    def outcome(self, budget: int) -> Outcome:
        """The attack's exact outcome spending up to `budget` TO, as the rules resolve it."""
        stats = {"skill": self.skill, "roa": self.roa, "dam": self.dam, "arm": self.arm}
        codes = {code for code in (_RULE_TEXT.match(rule) for rule in self.rules) if code}
        values = {found.group(1): self.value(found.group(1)) for found in codes}
        outcome: Outcome = hand_dice().attack(
            {**stats, "hit": self.hit},
            values,
            cover=self.in_cover,
            support=self.support,
            budget=budget,
        )
        return outcome

    @property
    def free_rerolls(self) -> int:
        return self.value("PR") + self.value("BR")


def parse_rules(text: str | None) -> tuple[str, ...]:
    """Special rules typed by hand: `RND DD1, ah1` -> ("RND", "DD1", "AH1"); refused in words
    when a rule is unknown or does not change one attack's dice."""
    rules: list[str] = []
    for word in (text or "").replace(",", " ").split():
        rule = word.strip().upper()
        found = _RULE_TEXT.match(rule)
        code, number = (found.group(1), found.group(2)) if found else (rule, "")
        if code in _MANUAL_HINTS:
            raise DiceError(f"{rule}: {_MANUAL_HINTS[code]}")
        known = {name.removesuffix("x") for name in MANUAL_RULES}
        if found is None or code not in known or (code in _TAKES_NUMBER) != bool(number):
            listed = ", ".join(MANUAL_RULES)
            raise DiceError(f"'{word}' is not a rule /odds takes by hand. Rules: {listed}.")
        if number and not 1 <= int(number) <= MAX_RULE_VALUE:
            raise DiceError(f"{rule}: x must be from 1 to {MAX_RULE_VALUE}.")
        if rule not in rules:
            rules.append(rule)
    return tuple(rules)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    attack: Attack
    orders: int  # the TO the attacker is ready to spend on re-rolls
    without: Outcome  # no TO spent (free re-rolls used)
    spending: Outcome | None  # up to `orders` TO spent (None when orders is 0)

    # The odds without TO, as most players quote them.
    @property
    def hit_lost(self) -> Distribution:
        return self.without.hit_lost

    @property
    def damage(self) -> Distribution:
        return self.without.damage

    @property
    def taken_out(self) -> Fraction:
        return self.without.taken_out

    @property
    def expected_hit_lost(self) -> Fraction:
        return self.without.expected_hit_lost

    @property
    def any_strike(self) -> Fraction:
        return self.without.struck


def check_attack(attack: Attack, orders: int = 0) -> None:
    for name, (low, high) in LIMITS.items():
        value = getattr(attack, name)
        if not low <= value <= high:
            raise DiceError(f"{name.upper()} must be from {low} to {high}, not {value}.")
    if not 0 <= orders <= MAX_ORDERS:
        raise DiceError(f"Tactical Orders must be from 0 to {MAX_ORDERS}, not {orders}.")


def attack_odds(attack: Attack, orders: int = 0) -> AttackOdds:
    """The exact odds of an attack given by hand: without TO, and spending up to `orders` TO
    re-rolling failed attack dice."""
    check_attack(attack, orders)
    return AttackOdds(attack, orders, attack.outcome(0), attack.outcome(orders) if orders else None)


# --- as text -----------------------------------------------------------------------------------
TO_NOTE = (
    "TO go on re-rolls of failed attack dice as they come, after free PR/BR re-rolls; "
    "+/-1 changes are not counted."
)


def percent(p: Fraction) -> str:
    """A probability as a percentage with one decimal; never rounds a possibility to 0 or 100."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    shown = f"{float(p) * 100:.1f}"
    if shown == "0.0":
        return "<0.1%"
    if shown == "100.0":
        return ">99.9%"
    return f"{shown.removesuffix('.0')}%"


def hit_lost_line(hit_lost: Distribution) -> str:
    return " · ".join(f"{lost}: {percent(p)}" for lost, p in hit_lost.items())


def outcome_line(outcome: Outcome) -> str:
    """Taken out first (what players ask), then each number of HIT lost and the average."""
    if outcome.hit == 0:
        return f"explodes **{percent(outcome.struck)}**"
    return (
        f"taken out **{percent(outcome.taken_out)}** · HIT lost {hit_lost_line(outcome.hit_lost)}"
        f" · average {float(outcome.expected_hit_lost):.2f}"
    )


def spending_words(orders: int, start: str = "Re-rolling") -> str:
    return f"{start} failed attack dice with up to {plural(orders, 'TO', 'TO')}"


def format_attack_odds(odds: AttackOdds) -> str:
    lines = [
        f"**Attack odds**: {odds.attack.describe()}",
        f"Without TO: {outcome_line(odds.without)}",
    ]
    if odds.spending is not None:
        lines.append(f"{spending_words(odds.orders)}: {outcome_line(odds.spending)}")
    extras = [f"at least one strike: {percent(odds.without.struck)}"]
    if odds.attack.has("STN"):
        extras.append(f"stuns (STN): {percent(odds.without.stunned)}")
    if odds.attack.free_rerolls:
        extras.append(f"{plural(odds.attack.free_rerolls, 'free re-roll')} (PR/BR) taken")
    said = " · ".join(extras)
    lines.append(said[0].upper() + said[1:] + " (without TO).")
    if odds.spending is not None:
        lines.append(TO_NOTE)
    return "\n".join(lines)


class Named(Protocol):
    """What the odds' words need of the attacking unit."""

    @property
    def name(self) -> str: ...


def format_target_odds(
    unit: Named | str, listed: list[TargetOdds], limit: int = 1900, detail: bool = False
) -> str:
    """One line per weapon and target (or, with `detail`, every line for each); past `limit`
    characters the rest are counted, not shown. `unit`: the attacker, or its name."""
    name = unit if isinstance(unit, str) else unit.name
    if not listed:
        return f"{name} has no legal target now."
    if detail:
        blocks = [_detail(name, entry) for entry in listed]
        text = "\n\n".join(blocks)
        return text if len(text) <= limit else text[: limit - 1] + "…"
    orders = max(entry.orders for entry in listed)
    spend = f"; in brackets: {spending_words(orders, 're-rolling')}" if orders else ""
    text = f"**{possessive(name)} targets** (without TO{spend})"
    for shown, entry in enumerate(listed):
        line = _target_line(entry)
        more = f"\n… and {len(listed) - shown} more."
        if len(text) + 1 + len(line) + len(more) > limit:
            return text + more
        text += "\n" + line
    return text


def _where(entry: TargetOdds) -> str:
    return f"{entry.option.distance} away{', in cover' if entry.option.cover else ''}"


def _target_line(entry: TargetOdds) -> str:
    head = f"{entry.weapon.name} → {entry.option.label} ({_where(entry)})"
    first = entry.primary
    support = ", support" if entry.support else ""
    if first.hit == 0:
        line = f"{head}{support}: explodes **{percent(first.struck)}**"
        if entry.spending is not None:
            line += f" ({percent(entry.spending[0].struck)})"
        return line
    line = f"{head}{support}: taken out **{percent(first.taken_out)}**"
    if entry.spending is not None:
        line += f" ({percent(entry.spending[0].taken_out)})"
    line += f" · HIT lost {hit_lost_line(first.hit_lost)}"
    if len(entry.steps) > 1:
        line += f" · hits {plural(len(entry.steps) - 1, 'more target')}"
    if first.counter is not None:
        line += f" · {first.counter.unit} strikes back (CTR)"
    return line


def _detail(name: str, entry: TargetOdds) -> str:
    first, roll = entry.steps[0], entry.steps[0].roll
    rules = _rules_words(entry)
    lines = [
        f"**{name} → {entry.option.label}** with {entry.weapon.name} ({entry.kind}, "
        f"{_where(entry)}): skill {entry.skill}, {plural(roll.dice, 'die', 'dice')} rolled, "
        f"DAM {entry.weapon.dam}{rules}"
    ]
    if first.saves is not None and entry.primary.hit:
        lines[0] += f"; ARM {first.saves.arm}, HIT {first.saves.hit}"
    lines.append(f"Without TO: {outcome_line(entry.without[0])}")
    if entry.spending is not None:
        lines.append(f"{spending_words(entry.orders)}: {outcome_line(entry.spending[0])}")
    if entry.weapon.has("STN") and entry.primary.hit:
        lines.append(f"Stuns (STN): {percent(entry.primary.stunned)} (without TO)")
    if len(entry.steps) > 1:
        others = []
        for step, outcome in zip(entry.steps[1:], entry.without[1:], strict=True):
            own = " (your own)" if step.side == entry.attacker_side else ""
            if outcome.hit == 0:
                others.append(f"{step.label} explodes {percent(outcome.struck)}")
            else:
                others.append(f"{step.label}{own} taken out {percent(outcome.taken_out)}")
        lines.append(f"Also hit, without TO: {' · '.join(others)}")
    counter = entry.primary.counter
    if counter is not None:
        lines.append(
            f"If {entry.option.label} survives ({percent(counter.happens)}), it strikes back "
            f"(CTR) with {counter.weapon}: {name} taken out **{percent(counter.taken_out)}**"
            f" · HIT lost {hit_lost_line(counter.hit_lost)}"
        )
    if entry.spending is not None:
        lines.append(TO_NOTE)
    return "\n".join(lines)


def _rules_words(entry: TargetOdds) -> str:
    """The rules that change these odds, in short."""
    first = entry.steps[0]
    words = list(entry.notes)
    roll = first.roll
    automatic = roll.unrolled - (1 if entry.support else 0)
    if automatic:
        words.append(f"AH{automatic}")
    if entry.support:
        words.append("support")
    if roll.natural_bonus > 1:
        words.append("RND")
    if roll.deadly:
        words.append(f"DD{roll.deadly}")
    if roll.relentless:
        words.append("RLT")
    if entry.free_rerolls:
        words.append(plural(entry.free_rerolls, "free re-roll"))
    if roll.cover:
        words.append("cover")
    if first.saves is not None and first.saves.tough:
        words.append(f"TG{first.saves.tough}")
    if roll.parried:
        words.append("PAR")
    return f" ({', '.join(words)})" if words else ""
