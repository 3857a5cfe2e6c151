"""Combat (rulebook Combat, Ranged/Melee Combat Modifiers; rulings: Combat, Tactical Orders in
play-by-post, Items).

An attack is declared (weapon and target checked), its attack dice are rolled, and, when the
active player could still spend Tactical Orders on a failed die, the roll waits for their
decision (re-roll, +/-1, accept). Accepting resolves strikes, damage, cover, saves (the target's
player's standing orders apply automatically) and Taken Out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from skirmbot.rules.adjacency import adjacent, adjacent_squares
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import IllegalCommand, RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.maps import BARREL, TURRET
from skirmbot.rules.sight import sight
from skirmbot.rules.skirm import area, event_limits, specials
from skirmbot.rules.skirm.cards import MELEE, RANGED, SpecialRule, Weapon
from skirmbot.rules.skirm.rolls import succeeds
from skirmbot.rules.skirm.state import (
    TAKEN_OUT,
    TURRET_ARM,
    Die,
    ItemState,
    MatchState,
    PendingRoll,
    UnitState,
)
from skirmbot.rules.squares import Square
from skirmbot.rules.targeting import ranged_target_problem
from skirmbot.words import possessive

# Rulings: Items. The two turret types and what they fire.
TURRET_WEAPONS: dict[str, Weapon] = {
    "machine_gun": Weapon(
        "Machine Gun Turret", RANGED, 4, 1, (SpecialRule("RG", 8), SpecialRule("SPR"))
    ),
    "rocket_launcher": Weapon(
        "Rocket Launcher Turret", RANGED, 1, 3, (SpecialRule("RG", 10), SpecialRule("XPL"))
    ),
}
BARREL_DAMAGE = 2
TURRET_WRECK_DAMAGE = 3


@dataclass(frozen=True, slots=True)
class Target:
    """What an attack is aimed at: a unit, or an item targeted like a unit (barrel, turret)."""

    square: Square
    unit: UnitState | None = None
    item: ItemState | None = None

    @property
    def label(self) -> str:
        if self.unit is not None:
            return self.unit.name
        return self.item.label if self.item is not None else str(self.square)

    @property
    def reference(self) -> str:
        """How a command names this target: a unit's id, or `barrel@E5` for an item."""
        if self.unit is not None:
            return self.unit.id
        return f"{self.item.kind}@{self.square}" if self.item is not None else str(self.square)


@dataclass(frozen=True, slots=True)
class AttackPlan:
    attacker: UnitState
    kind: str
    weapon: Weapon
    target: Target
    skill: int
    cover: bool
    support: bool
    turret: ItemState | None = None
    notes: tuple[str, ...] = ()  # what special rules changed, for the log
    automatic: int = 0  # AHx: strikes without rolling
    free_rerolls: int = 0  # PRx/BRx: attack dice re-rolled without Tactical Orders
    counter: bool = False  # a CTR counter-attack (which never provokes another)
    dice: int | None = None  # attack dice for this target (SPR shares them); None: ROA
    queue: tuple[area.Aim, ...] = ()  # further targets, each rolled for after this one

    def to_json(self) -> dict[str, Any]:
        return {
            "from": str(self.attacker.square),
            "dice": self.dice,
            "queue": [_aim_json(aim) for aim in self.queue],
            "notes": list(self.notes),
            "automatic": self.automatic,
            "free_rerolls": self.free_rerolls,
            "counter": self.counter,
            "kind": self.kind,
            "weapon": self.weapon.name,
            "target_unit": self.target.unit.id if self.target.unit else None,
            "target_item": self.target.item.id if self.target.item else None,
            "target_square": str(self.target.square),
            "skill": self.skill,
            "cover": self.cover,
            "support": self.support,
            "turret": self.turret.id if self.turret else None,
        }


# --- declaring an attack -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Declaration:
    """An attack as it is declared (rulebook Combat 1, Select Target), whatever makes it: a
    Ranged or Melee Attack, a turret or an attack skill. `declare` checks it."""

    attacker: UnitState
    kind: str
    weapon: Weapon
    target: str  # a unit's id, a square, or `barrel@E5` / `turret@E5`
    also: str | None = None  # further targets, comma-separated (CRx, SPR)
    turret: ItemState | None = None
    extra_dice: int = 0  # an attack skill's extra attack dice
    note: str | None = None  # what added them, for the log


def declare(state: MatchState, declaration: Declaration) -> AttackPlan:
    """Every check of an attack, for every way of making one, in one place: the target, range,
    sight and the turn's event (`plan_attack`), then the further targets of a Blast, Chain
    Reaction, Linear or Spread weapon (`with_area`). Raises IllegalCommand; changes nothing."""
    attacker = declaration.attacker
    weapon = with_extra_dice(declaration.weapon, declaration.extra_dice)
    target = find_target(state, attacker, declaration.target, allow_empty=area.is_blast(weapon))
    plan = plan_attack(state, attacker, declaration.kind, weapon, target, declaration.turret)
    if declaration.note:
        plan = replace(plan, notes=(*plan.notes, declaration.note))
    also = [find_target(state, attacker, name) for name in target_names(declaration.also)]
    return with_area(state, plan, also)


def with_extra_dice(weapon: Weapon, extra: int) -> Weapon:
    """The weapon as an attack skill fires it: its extra dice are a modifier of the attack roll
    ("ROA + applicable Modifiers", rulebook Combat 2.1), so they count as ROA for this attack:
    a Spread weapon shares them, a Blast, Chain Reaction or Linear weapon rolls them at every
    target (docs/rulings.md, Skills)."""
    return replace(weapon, roa=weapon.roa + extra) if extra else weapon


def target_names(text: str | None) -> list[str]:
    """The further targets a command names, comma-separated."""
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def unused_also(weapon: Weapon, also: str | None) -> str | None:
    """What is wrong with a command's further targets for `weapon`, or None: only a Chain
    Reaction (CRx) or Spread (SPR) weapon takes them (a Blast or Linear weapon finds its own),
    and `also` then names at least one."""
    if also is None:
        return None
    if not (weapon.has("CR") or weapon.has("SPR")):
        return f"The {weapon.name} has no further targets: leave out 'also'."
    if not target_names(also):
        return (
            f"'also' names no target: name the {weapon.name}'s further targets, "
            "comma-separated, or leave it out."
        )
    return None


def find_target(
    state: MatchState, attacker: UnitState, text: str, allow_empty: bool = False
) -> Target:
    """Read a target: a unit's name, a square, or `barrel@E5` / `turret@E5`."""
    kind, _, where = text.strip().partition("@")
    if where and kind.lower() in (BARREL, TURRET):
        try:
            square = state.board.parse_square(where)
        except RulesError as error:
            raise IllegalCommand(f"'{text}' names no square: {error}") from error
        items = state.items_at(square, kind.lower())
        if not items:
            raise IllegalCommand(f"There is no {kind.lower()} on {square}.")
        return Target(square, item=items[0])
    unit = next(
        (
            u
            for u in state.units.values()
            if u.on_map and u.id.casefold() == text.strip().casefold()
        ),
        None,
    )
    if unit is not None:
        assert unit.square is not None
        return Target(unit.square, unit=unit)
    try:
        square = state.board.parse_square(text)
    except RulesError as error:  # a mistyped or off-map square; anything else is a bug
        names = ", ".join(u.name for u in state.on_map(1 - attacker.side))
        raise IllegalCommand(
            f"'{text}' is not a unit on the map or a square. Enemy units: {names}."
        ) from error
    standing = state.unit_at(square)
    if standing is not None:
        return Target(square, unit=standing)
    items = [i for i in state.items_at(square) if i.kind in (BARREL, TURRET)]
    if items:
        return Target(square, item=items[0])
    if allow_empty:  # a Blast weapon may target an unoccupied square (rulebook BLS)
        return Target(square)
    raise IllegalCommand(f"There is nothing to attack on {square}.")


def choose_weapon(unit: UnitState, kind: str, name: str | None) -> Weapon:
    """The named weapon of that kind, or the unit's only one; errors list what would work."""
    options = specials.melee_weapons(unit) if kind == MELEE else unit.card.weapons_of(kind)
    listed = ", ".join(w.name for w in options) or "none"
    if name:
        weapon = unit.card.weapon(name)
        if weapon is None or weapon not in options:
            raise IllegalCommand(
                f"{unit.name} has no {kind} weapon called '{name}'. {kind.title()} weapons: {listed}."
            )
    elif len(options) == 1:
        weapon = options[0]
    elif not options:
        raise IllegalCommand(f"{unit.name} has no {kind} weapon.")
    else:
        raise IllegalCommand(f"{unit.name} has several {kind} weapons; name one: {listed}.")
    if weapon.has("LIM") and unit.lim_uses_left.get(weapon.name, 0) <= 0:
        raise IllegalCommand(
            f"{weapon.name} has Limited Ammo (LIM) and has already been used in this battle."
        )
    return weapon


def plan_attack(
    state: MatchState,
    attacker: UnitState,
    kind: str,
    weapon: Weapon,
    target: Target,
    turret: ItemState | None = None,
) -> AttackPlan:
    """Check the target against the combat rules and work out cover and support."""
    assert attacker.square is not None
    if target.unit is not None and target.unit.side == attacker.side:
        raise IllegalCommand(f"{target.unit.name} is in your own squad.")
    if target.square == attacker.square:
        raise IllegalCommand(f"{attacker.name} cannot attack something on its own square.")
    occupancy = state.occupancy()
    cover = False
    if kind == MELEE:
        if not adjacent(state.board, attacker.square, target.square):
            reach = _adjacent_targets(state, attacker)
            raise IllegalCommand(
                f"{target.label} is not adjacent to {attacker.name}: a Melee Attack needs an adjacent target. "
                f"In reach: {reach or 'nothing'}."
            )
    else:
        problem = ranged_target_problem(
            state.board, attacker.square, target.square, weapon.range, occupancy, str(attacker.side)
        ) or event_limits.range_problem(state, attacker.square.distance(target.square))
        if problem:
            raise IllegalCommand(f"{attacker.name} cannot shoot {target.label}: {problem}")
        cover = False if area.is_blast(weapon) else _has_cover(state, attacker, target, weapon)
    support = kind == MELEE and _has_support(state, attacker, target)
    distance = attacker.square.distance(target.square)
    skill, notes = specials.attack_skill(attacker, weapon, kind, target.unit, distance)
    return AttackPlan(
        attacker, kind, weapon, target, skill, cover, support, turret, tuple(notes),
        specials.automatic_strikes(weapon), specials.free_rerolls(attacker, weapon, kind),
    )  # fmt: skip


def _aim_json(aim: area.Aim) -> dict[str, Any]:
    return {
        "square": str(aim.square),
        "unit": aim.unit,
        "item": aim.item,
        "dice": aim.dice,
        "no_cover": aim.no_cover,
    }


def with_area(state: MatchState, plan: AttackPlan, also: list[Target]) -> AttackPlan:
    """The plan with the further targets of a Blast, Chain Reaction, Linear or Spread weapon:
    `also` are the targets the attacker named besides the first (CRx and SPR)."""
    weapon = plan.weapon
    if weapon.has("SPR") or len(also) > 0 and not weapon.has("CR"):
        squares = [plan.target.square, *(t.square for t in also)]
        area.check_spread(state, weapon, squares)
        for target in also:  # each spread target must be a valid target on its own
            plan_attack(state, plan.attacker, plan.kind, weapon, target)
        shares = area.spread_dice(weapon, len(squares))
        queue = tuple(
            area.Aim(
                t.square, t.unit.id if t.unit else None, t.item.id if t.item else None, n, False
            )
            for t, n in zip(also, shares[1:], strict=True)
        )
        automatic = specials.automatic_strikes(weapon, shares[0])
        return replace(plan, dice=shares[0], automatic=automatic, queue=queue)
    aims = area.secondary_aims(
        state, plan.attacker, weapon, plan.target.square, [t.square for t in also]
    )
    return replace(plan, queue=tuple(aims))


def _adjacent_targets(state: MatchState, attacker: UnitState) -> str:
    assert attacker.square is not None
    squares = adjacent_squares(state.board, attacker.square)
    names = [u.name for u in state.on_map(1 - attacker.side) if u.square in squares]
    return ", ".join(names)


def _has_cover(state: MatchState, attacker: UnitState, target: Target, weapon: Weapon) -> bool:
    """Terrain cover (with high ground) for units and turrets; items never get it for barrels."""
    if (
        weapon.has("NCV")
        or target.unit is None
        and target.item is not None
        and target.item.kind == BARREL
    ):
        return False
    assert attacker.square is not None
    return sight(state.board, attacker.square, target.square, set(state.occupancy())).cover


def _has_support(state: MatchState, attacker: UnitState, target: Target) -> bool:
    """A squadmate of the attacker adjacent to the target (rulebook Melee Combat Modifiers)."""
    return any(
        mate.square is not None and adjacent(state.board, mate.square, target.square)
        for mate in state.on_map(attacker.side)
        if mate is not attacker
    )


# --- the attack roll and the active player's decision ---------------------------------------
def open_fire(
    state: MatchState, plan: AttackPlan, dice: Dice
) -> tuple[list[Event], PendingRoll | None]:
    """The first roll of an attack. A Blast announces where it lands; one aimed at an empty
    square rolls no dice there, only for each unit it catches."""
    events: list[Event] = []
    if area.is_blast(plan.weapon):
        events.append(
            Event(
                "blast",
                f"{possessive(plan.attacker.name)} {plan.weapon.name} lands on {plan.target.square}: "
                f"{len(plan.queue)} more target{'s' if len(plan.queue) != 1 else ''} caught in the blast.",
                {
                    "unit": plan.attacker.id,
                    "from": str(plan.attacker.square),
                    "square": str(plan.target.square),
                },
            )
        )
    if plan.target.unit is None and plan.target.item is None:
        empty = PendingRoll(plan.attacker.id, plan.skill, [], plan.to_json())
        more, first = _roll_next_target(state, empty, dice)
        return events + more, first
    pending, event = roll_attack(state, plan, dice)
    return [*events, event], pending


def roll_attack(state: MatchState, plan: AttackPlan, dice: Dice) -> tuple[PendingRoll, Event]:
    """Roll the attack dice (AHx dice strike unrolled; RLT re-rolls every 6 at once)."""
    count = plan.dice if plan.dice is not None else plan.weapon.roa
    faces = [dice.roll() for _ in range(count - plan.automatic)]
    rolled = [Die(face) for face in faces]
    notes = list(plan.notes)
    if plan.automatic:
        notes.append(
            f"AH{plan.automatic}: {plan.automatic} automatic strike{'s' if plan.automatic > 1 else ''}"
        )
    sixes = [die for die in rolled if die.face == 6] if specials.relentless(plan.weapon) else []
    for die in sixes:
        die.face, die.rerolled = dice.roll(), True
    if sixes:
        notes.append(f"RLT: {len(sixes)} six{'es' if len(sixes) > 1 else ''} re-rolled")
    pending = PendingRoll(plan.attacker.id, plan.skill, rolled, plan.to_json())
    verb = "attacks" if plan.kind == MELEE else "shoots"
    if plan.counter:
        verb = "strikes back at"
    changes = f"; {'; '.join(notes)}" if notes else ""
    text = (
        f"{plan.attacker.name} {verb} {plan.target.label} with {plan.weapon.name} "
        f"({'MSK' if plan.kind == MELEE else 'RSK'} {plan.skill}{changes}): {marked_dice(pending.dice, plan.skill) or 'no dice to roll'}."
    )
    return pending, Event(
        "roll",
        text,
        {
            "unit": plan.attacker.id,
            "purpose": f"{plan.kind} attack",
            "faces": faces,
            "skill": plan.skill,
        },
    )


def needs_decision(state: MatchState, pending: PendingRoll) -> bool:
    """Wait for the active player only if a free re-roll (PRx/BRx) or a Tactical Order could
    still turn a failed die."""
    if not any(not succeeds(die.value, pending.skill) for die in pending.dice):
        return False
    side = state.units[pending.unit].side
    return state.squads[side].orders > 0 or _free_left(pending) > 0


def _free_left(pending: PendingRoll) -> int:
    return int(pending.attack.get("free_rerolls", 0))


def reroll_die(state: MatchState, pending: PendingRoll, index: int, dice: Dice) -> Event:
    """Re-roll one die: a free PRx/BRx re-roll while any are left, then 1 TO each."""
    die = _die(pending, index)
    if die.rerolled:
        raise IllegalCommand(f"Die {index} has already been re-rolled; a re-rolled die is final.")
    if die.modifier:
        raise IllegalCommand(
            f"Die {index} has been changed with Tactical Orders; re-roll before changing a die."
        )
    squad = state.squads[state.units[pending.unit].side]
    if _free_left(pending):
        pending.attack["free_rerolls"] = _free_left(pending) - 1
        paid = f"{pending.unit} re-rolls die {index} for free ({'PR' if pending.attack['kind'] == 'ranged' else 'BR'})"
    else:
        _need_order(squad.orders)
        squad.orders -= 1
        paid = f"{squad.name} spends 1 TO to re-roll die {index}"
    old = die.face
    die.face, die.rerolled = dice.roll(), True
    return Event(
        "reroll",
        f"{paid}: {old} → {die.face}. Dice now: {marked_dice(pending.dice, pending.skill)}.",
        {"die": index, "old": old, "new": die.face},
    )


def modify_die(state: MatchState, pending: PendingRoll, index: int, delta: int) -> Event:
    die = _die(pending, index)
    if delta not in (-1, 1):
        raise IllegalCommand(
            "A Tactical Order changes a die by +1 or -1; spend another to change it again."
        )
    if not 1 <= die.value + delta <= 6:
        raise IllegalCommand(f"Die {index} shows {die.value}; it cannot go to {die.value + delta}.")
    squad = state.squads[state.units[pending.unit].side]
    _need_order(squad.orders)
    squad.orders -= 1
    old = die.value
    die.modifier += delta
    return Event(
        "modify",
        f"{squad.name} spends 1 TO to change die {index}: {old} → {die.value}. Dice now: {marked_dice(pending.dice, pending.skill)}.",
        {"die": index, "old": old, "new": die.value},
    )


def _die(pending: PendingRoll, index: int) -> Die:
    if not 1 <= index <= len(pending.dice):
        raise IllegalCommand(
            f"There is no die {index}; the roll has dice 1 to {len(pending.dice)}."
        )
    return pending.dice[index - 1]


def _need_order(orders: int) -> None:
    if orders < 1:
        raise IllegalCommand("Your squad has no Tactical Orders left.")


# How the log marks a die that is not as first rolled, and what the mark means.
REROLLED, CHANGED = "*", "±"
MARK_MEANINGS = {REROLLED: "re-rolled", CHANGED: "changed with TO"}


def _marked(face: int, stat: int) -> str:
    """A die as the log shows it, marked like /roll marks a pool: ✓ a success (a strike, a
    save), ✗ a failure (rulebook Successes and Failures)."""
    return f"{face}{'✓' if succeeds(face, stat) else '✗'}"


def marked_dice(dice: list[Die], skill: int) -> str:
    """The attack dice, each marked hit or miss, * when re-rolled and ± when changed with TO,
    followed by what those marks mean (only the marks that appear). Skirm Lite's attack and
    save messages mark their dice the same way."""
    shown = [
        f"{_marked(d.value, skill)}{REROLLED if d.rerolled else ''}{CHANGED if d.modifier else ''}"
        for d in dice
    ]
    legend = [
        f"{mark} {words}"
        for mark, words in MARK_MEANINGS.items()
        if any(mark in die for die in shown)
    ]
    return " ".join(shown) + (f" ({', '.join(legend)})" if legend else "")


def marked_saves(faces: list[int], arm: int) -> str:
    """Save dice as rolled, each marked saved or not against `arm` (Skirm Lite's standing
    orders' saves are shown so too)."""
    return " ".join(_marked(face, arm) for face in faces)


# --- resolving an accepted roll -------------------------------------------------------------
def resolve_attack(
    state: MatchState, pending: PendingRoll, dice: Dice
) -> tuple[list[Event], PendingRoll | None]:
    """The accepted roll: parry, strikes, damage, cover, saves, Taken Out, then a counter; and
    the roll for the next target of a multi-target weapon, if any (it may wait for a decision)."""
    events = _resolve_one(state, pending, dice)
    more, following = _roll_next_target(state, pending, dice)
    return events + more, following


def _resolve_one(state: MatchState, pending: PendingRoll, dice: Dice) -> list[Event]:
    plan = pending.attack
    attacker = state.units[pending.unit]
    weapon = _weapon_of(state, attacker, plan)
    target_square = Square.parse(plan["target_square"])
    target_unit = state.units.get(plan["target_unit"]) if plan["target_unit"] else None
    target_item = state.items.get(plan["target_item"]) if plan["target_item"] is not None else None
    events = _parry(state, pending, target_unit, dice) if plan["kind"] == MELEE else []
    strikes = [d for d in pending.dice if succeeds(d.value, pending.skill)]
    naturals = sum(1 for d in strikes if d.face == 1 and d.modifier == 0)
    unrolled = plan.get("automatic", 0) + (1 if plan["support"] else 0)
    strike_count = len(strikes) + unrolled
    bonus = specials.natural_one_bonus(weapon)
    deadly = specials.deadly_bonus(weapon, strike_count)
    damage = strike_count * weapon.dam + naturals * bonus + deadly
    label = (
        target_unit.name
        if target_unit
        else (target_item.label if target_item else str(target_square))
    )
    parts = [_strikes_text(len(strikes), plan)]
    if naturals:
        parts.append(
            f"{naturals} natural 1{'s' if naturals > 1 else ''} (+{bonus} DAM each{', RND' if bonus > 1 else ''})"
        )
    if deadly:
        parts.append(f"DD{deadly}: +{deadly} DAM")
    auto_saves = 1 if plan["cover"] and damage > 0 else 0
    if plan["cover"]:
        parts.append("target in cover: the first point is saved")
    events.append(
        Event(
            "attack",
            f"{attacker.name} → {label}: {', '.join(parts)}; {damage} damage.",
            {
                "attacker": attacker.id,
                "target": target_unit.id if target_unit else None,
                "item": target_item.id if target_item else None,
                "weapon": weapon.name,
                "kind": plan["kind"],
                "from": str(attacker.square),
                "to": str(target_square),
                "strikes": strike_count,
                "damage": damage,
                "cover": plan["cover"],
                "support": plan["support"],
                "counter": plan.get("counter", False),
            },
        )
    )
    cause = Cause(
        attacker.id,
        attacker.side,
        weapon.name,
        plan["kind"],
        "turret" if plan["turret"] is not None else None,
    )
    if target_unit is not None and target_unit.on_map:
        if specials.stuns(weapon, naturals):
            target_unit.stunned = True
            events.append(
                Event(
                    "stunned",
                    f"{target_unit.name} is stunned (STN): 1 ACT less in its next activation.",
                    {"unit": target_unit.id},
                )
            )
        events += damage_unit(state, target_unit, damage, auto_saves, dice, cause)
        events += counter_attack(state, attacker, target_unit, plan, dice)
    elif target_item is not None and target_item.kind == BARREL and strike_count:
        events += explode_barrels(state, target_item, dice, cause)
    elif target_item is not None and target_item.kind == TURRET:
        events += damage_turret(state, target_item, damage, auto_saves, dice, cause)
    return events


def _roll_next_target(
    state: MatchState, pending: PendingRoll, dice: Dice
) -> tuple[list[Event], PendingRoll | None]:
    """Roll for the next target still there in the attack's queue."""
    attack = pending.attack
    queue = list(attack.get("queue", []))
    attacker = state.units[pending.unit]
    weapon = _weapon_of(state, attacker, attack)
    origin = Square.parse(attack["from"])
    while queue:
        spec = queue.pop(0)
        unit = state.units.get(spec["unit"]) if spec["unit"] else None
        item = state.items.get(spec["item"]) if spec["item"] is not None else None
        if (unit is not None and not unit.on_map) or (item is not None and item.square is None):
            continue  # already gone (a blast or an explosion got it first)
        target = Target(Square.parse(spec["square"]), unit=unit, item=item)
        skill, notes = specials.attack_skill(
            attacker, weapon, attack["kind"], unit, origin.distance(target.square), primary=False
        )
        cover = (
            not spec["no_cover"]
            and not weapon.has("NCV")
            and unit is not None
            and sight(state.board, origin, target.square, set(state.occupancy())).cover
        )
        support = attack["kind"] == MELEE and _has_support(state, attacker, target)
        turret = state.items.get(attack["turret"]) if attack["turret"] is not None else None
        rest = tuple(
            area.Aim(Square.parse(q["square"]), q["unit"], q["item"], q["dice"], q["no_cover"])
            for q in queue
        )
        automatic = specials.automatic_strikes(weapon, spec["dice"])  # AHx: per target
        plan = AttackPlan(
            attacker, attack["kind"], weapon, target, skill, cover, support, turret, tuple(notes),
            automatic, int(attack.get("free_rerolls", 0)), False, spec["dice"], rest,
        )  # fmt: skip
        following, event = roll_attack(state, plan, dice)
        following.attack["from"] = attack["from"]
        return [event], following
    return [], None


def _strikes_text(rolled: int, plan: dict[str, Any]) -> str:
    text = f"{rolled} strike{'s' if rolled != 1 else ''}"
    if plan.get("automatic"):
        text += f" + {plan['automatic']} automatic (AH)"
    if plan["support"]:
        text += " + 1 for support"
    return text


def _parry(
    state: MatchState, pending: PendingRoll, target: UnitState | None, dice: Dice
) -> list[Event]:
    """PAR: the target re-rolls one attack die the attacker has not re-rolled, before saves;
    by standing orders it picks the die that hurts most (a natural 1, then any strike)."""
    if target is None or not target.card.has("PAR") or not state.squads[target.side].parry:
        return []
    choices = [
        (i, d)
        for i, d in enumerate(pending.dice, start=1)
        if not d.rerolled and succeeds(d.value, pending.skill)
    ]
    if not choices:
        return []
    index, die = min(choices, key=lambda choice: (choice[1].value, choice[0]))
    old = die.value
    die.face, die.modifier, die.rerolled = dice.roll(), 0, True
    return [
        Event(
            "parry",
            f"{target.name} parries (PAR): die {index} re-rolled {old} → {die.face}. Dice now: {marked_dice(pending.dice, pending.skill)}.",
            {"unit": target.id, "die": index, "old": old, "new": die.face},
        )
    ]


def counter_attack(
    state: MatchState, attacker: UnitState, target: UnitState, plan: dict[str, Any], dice: Dice
) -> list[Event]:
    """CTR: a unit that survives a melee attack strikes back at once, outside its activation
    (so not with UWD weapons). A counter-attack never provokes another (docs/rulings.md). Its
    free re-rolls go on failed dice by themselves: the player is not at the table."""
    if plan["kind"] != MELEE or plan.get("counter") or not target.card.has("CTR"):
        return []
    if not (target.on_map and attacker.on_map and state.squads[target.side].counter):
        return []
    assert target.square is not None and attacker.square is not None
    weapons = specials.melee_weapons(target, in_activation=False)
    if not weapons or not adjacent(state.board, target.square, attacker.square):
        return []
    weapon = max(weapons, key=lambda w: (w.roa * w.dam, w.name))
    counter = plan_attack(state, target, MELEE, weapon, Target(attacker.square, unit=attacker))
    counter = AttackPlan(
        **{**{f: getattr(counter, f) for f in counter.__dataclass_fields__}, "counter": True}
    )
    pending, event = roll_attack(state, counter, dice)
    events = [event]
    for index, die in enumerate(pending.dice, start=1):
        if _free_left(pending) and not die.rerolled and not succeeds(die.value, pending.skill):
            events.append(reroll_die(state, pending, index, dice))
    resolved, _ = resolve_attack(state, pending, dice)  # a counter-attack has one target
    return events + resolved


def _weapon_of(state: MatchState, attacker: UnitState, plan: dict[str, Any]) -> Weapon:
    if plan["turret"] is not None:
        turret = state.items[plan["turret"]]
        assert turret.turret_type is not None
        return TURRET_WEAPONS[turret.turret_type]
    weapon = attacker.card.weapon(plan["weapon"])
    assert weapon is not None
    return weapon


@dataclass(frozen=True, slots=True)
class Cause:
    """Who is credited with damage: for the log, mission scoring and campaign medals."""

    unit: str | None
    side: int | None
    weapon: str | None
    kind: str  # "ranged", "melee" or "explosion"
    item: str | None = None  # "barrel" or "turret" when an item did it


def damage_unit(
    state: MatchState, victim: UnitState, damage: int, auto_saves: int, dice: Dice, cause: Cause
) -> list[Event]:
    """Save dice for the damage (after automatic saves); each failure removes 1 HIT."""
    to_roll = max(0, damage - auto_saves)
    if to_roll == 0:
        return []
    squad = state.squads[victim.side]
    faces = [dice.roll() for _ in range(to_roll)]
    first_faces = list(faces)  # rulings: every die is logged, with its re-roll
    tough = _reroll_failed(faces, victim.card.arm, specials.save_rerolls(victim), dice, [])
    rerolled: list[int] = []
    if squad.reroll_saves_above is not None:
        for i, face in enumerate(faces):
            free_of_tough = i + 1 not in tough  # a re-rolled die is final
            if (
                free_of_tough
                and not succeeds(face, victim.card.arm)
                and squad.orders > squad.reroll_saves_above
            ):
                squad.orders -= 1
                faces[i] = dice.roll()
                rerolled.append(i + 1)
    saved = sum(1 for face in faces if succeeds(face, victim.card.arm))
    lost = min(victim.hit, to_roll - saved)
    hit_before = victim.hit
    victim.hit -= lost
    note = _tough_note(first_faces, faces, tough) + _standing_reroll_note(
        first_faces, faces, rerolled
    )
    events = [
        Event(
            "saves",
            f"{victim.name} rolls {to_roll} save{'s' if to_roll > 1 else ''} (ARM {victim.card.arm}): "
            f"{marked_saves(faces, victim.card.arm)}{note}: {saved} saved, loses {lost} HIT ({victim.hit} left).",
            {
                "unit": victim.id,
                "faces": faces,
                "first_faces": first_faces,
                "needed": victim.card.arm,
                "saved": saved,
                "rerolled": sorted(tough + rerolled),
                "lost": lost,
            },
        )
    ]
    if victim.hit == 0:
        events += take_out(state, victim, cause, unsaved=to_roll - saved, hit_before=hit_before)
    return events


def _reroll_failed(
    faces: list[int], stat: int, count: int, dice: Dice, already: list[int]
) -> list[int]:
    """Re-roll up to `count` failed dice in place, first to last; their 1-based numbers."""
    done: list[int] = []
    for i, face in enumerate(faces):
        if len(done) < count and i + 1 not in already and not succeeds(face, stat):
            faces[i] = dice.roll()
            done.append(i + 1)
    return done


def _tough_note(first_faces: list[int], faces: list[int], tough: list[int]) -> str:
    if not tough:
        return ""
    changes = ", ".join(f"die {n}: {first_faces[n - 1]} → {faces[n - 1]}" for n in tough)
    return f" (Tough, TG{len(tough)} free: re-rolled {changes})"


def _standing_reroll_note(first_faces: list[int], faces: list[int], rerolled: list[int]) -> str:
    """How the standing order changed the save dice, die by die, for the log."""
    if not rerolled:
        return ""
    changes = ", ".join(f"die {n}: {first_faces[n - 1]} → {faces[n - 1]}" for n in rerolled)
    return f" (standing order, {len(rerolled)} TO: re-rolled {changes})"


def take_out(
    state: MatchState, victim: UnitState, cause: Cause, unsaved: int, hit_before: int
) -> list[Event]:
    """At 0 HIT the unit is Taken Out and leaves the map at once, dropping what it carries."""
    square = victim.square
    victim.status = TAKEN_OUT
    victim.square = None
    events: list[Event] = []
    if victim.carrying is not None:
        marker = state.items[victim.carrying]
        marker.square, marker.carried_by, victim.carrying = square, None, None
        events.append(
            Event(
                "dropped",
                f"{victim.name} drops the marker on {square}.",
                {"unit": victim.id, "item": marker.id, "square": str(square)},
            )
        )
    state.taken_out_this_turn.append((victim.id, None if cause.side == victim.side else cause.side))
    by = f" by {state.units[cause.unit].name}" if cause.unit else ""
    events.insert(
        0,
        Event(
            "taken_out",
            f"{victim.name} is Taken Out{by}.",
            {
                "unit": victim.id,
                "side": victim.side,
                "square": str(square),
                "by": cause.unit,
                "by_side": cause.side,
                "weapon": cause.weapon,
                "kind": cause.kind,
                "item": cause.item,
                "unsaved": unsaved,
                "hit_before": hit_before,
                "overkill": unsaved - hit_before,
                "turn": state.turn,
            },
        ),
    )
    return events


def damage_turret(
    state: MatchState, turret: ItemState, damage: int, auto_saves: int, dice: Dice, cause: Cause
) -> list[Event]:
    """Turrets take damage like units with 2 ARM; at 0 HIT they are removed and hurt their user."""
    to_roll = max(0, damage - auto_saves)
    if to_roll == 0:
        return []
    faces = [dice.roll() for _ in range(to_roll)]
    lost = min(turret.hit, sum(1 for face in faces if not succeeds(face, TURRET_ARM)))
    turret.hit -= lost
    events = [
        Event(
            "saves",
            f"The {turret.label} rolls {to_roll} save{'s' if to_roll > 1 else ''} (ARM {TURRET_ARM}): "
            f"{marked_saves(faces, TURRET_ARM)}: loses {lost} HIT ({turret.hit} left).",
            {
                "item": turret.id,
                "faces": faces,
                "first_faces": faces,
                "needed": TURRET_ARM,
                "saved": to_roll - lost,
                "rerolled": [],
                "lost": lost,
            },
        )
    ]
    if turret.hit == 0:
        square = turret.square
        assert square is not None
        events.append(
            Event(
                "item_destroyed",
                f"The {turret.label} is destroyed.",
                {"item": turret.id, "kind": TURRET, "square": str(square)},
            )
        )
        turret.square = None
        user = state.unit_at(square)
        if user is not None:
            wreck = Cause(cause.unit, cause.side, cause.weapon, "explosion", "turret")
            events += damage_unit(state, user, TURRET_WRECK_DAMAGE, 0, dice, wreck)
    return events


def explode_barrels(state: MatchState, first: ItemState, dice: Dice, cause: Cause) -> list[Event]:
    """Rulings: Barrel. Removed, then 2 damage to every unit on its square and adjacent squares;
    barrels caught explode in turn, one at a time, nearest first, then in reading order."""
    blast = Cause(cause.unit, cause.side, cause.weapon, "explosion", "barrel")
    events: list[Event] = []
    queue = [first]
    while queue:
        barrel = queue.pop(0)
        square = barrel.square
        if square is None:
            continue
        barrel.square = None
        events.append(
            Event(
                "explosion",
                f"The barrel on {square} explodes!",
                {"item": barrel.id, "square": str(square), "kind": BARREL},
            )
        )
        caught = sorted([square, *adjacent_squares(state.board, square)], key=lambda s: (s.y, s.x))
        for spot in caught:
            unit = state.unit_at(spot)
            if unit is not None:
                events += damage_unit(state, unit, BARREL_DAMAGE, 0, dice, blast)
            for turret in state.items_at(spot, TURRET):
                events += damage_turret(state, turret, BARREL_DAMAGE, 0, dice, blast)
        more = [b for spot in caught for b in state.items_at(spot, BARREL) if b not in queue]
        more.sort(
            key=lambda b: (
                square.distance(b.square) if b.square else 0,
                b.square.y if b.square else 0,
                b.square.x if b.square else 0,
            )
        )
        queue.extend(more)
    return events
