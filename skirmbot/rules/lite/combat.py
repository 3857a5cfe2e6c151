"""Skirm Lite combat (Lite rulebook Combat, Modifiers, Damage; weapon and agent Special Rules).

1. Select a valid target in line of sight (XPL: any square; LIN: every Agent on the line too).
2. Roll ROA dice (+ modifiers); each die at or under the weapon's SKL (+ modifiers) is a hit, a
   result up to x with CRx (1 without) a double hit. A 1 always hits and a 6 always misses
   (our ruling, as in the full rules).
3. The target rolls one save die per hit (APx: x hits are not saved; CAM/DOD: one automatic
   save against the others); each die higher than ARM - DAM (Cover: ARM + 1) loses one HIT
   (TFx may keep it). At 0 HIT the Agent is Downed.

The attack roll is Skirm's `PendingRoll`, so the active player's Tactical Orders (re-roll one
die, +/-1) use Skirm's decision commands; RRx re-rolls misses by itself (our ruling). Every
further target of an XPL or LIN weapon gets its own roll, the first target first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmbot.rules.adjacency import adjacent, adjacent_squares
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import IllegalCommand, RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.lite.agents import (
    is_downed,
    is_standing,
    standing,
    standing_at,
    standing_enemy_next_to,
    standing_squares,
)
from skirmbot.rules.lite.cards import weapon_skill
from skirmbot.rules.lite.standing_orders import save_budget, spend_on_saves
from skirmbot.rules.sight import line_of_sight, sight
from skirmbot.rules.skirm import environment
from skirmbot.rules.skirm.area import crossed_squares
from skirmbot.rules.skirm.cards import MELEE, RANGED, Weapon
from skirmbot.rules.skirm.combat import marked_dice, marked_saves
from skirmbot.rules.skirm.rolls import succeeds
from skirmbot.rules.skirm.state import (
    DOWNED,
    Die,
    MatchState,
    PendingRoll,
    SquadState,
    UnitState,
)
from skirmbot.rules.squares import Square

CAMOUFLAGE_BEYOND = 3  # CAM: "the Attacker is more than 3 Squares away"
RANGED_HIGH_GROUND = 2  # "Target is at least 2 Squares lower than Attacker"
MELEE_HIGH_GROUND = 1  # "Target is 1 Square lower than Attacker"


@dataclass(frozen=True, slots=True)
class Aim:
    """One target of an attack, with the modifiers that apply to it."""

    square: Square
    agent: str | None  # None: an XPL weapon aimed at an empty square
    roa: int
    skill: int
    cover: bool
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "square": str(self.square),
            "unit": self.agent,
            "roa": self.roa,
            "skill": self.skill,
            "cover": self.cover,
            "notes": list(self.notes),
        }


def aim_from_json(data: dict[str, Any]) -> Aim:
    return Aim(
        Square.parse(data["square"]),
        data["unit"],
        int(data["roa"]),
        int(data["skill"]),
        bool(data["cover"]),
        tuple(data["notes"]),
    )


# --- selecting targets ------------------------------------------------------------------------
def declare(
    state: MatchState, attacker: UnitState, kind: str, weapon: Weapon, text: str
) -> list[Aim]:
    """Every target of the attack, first the one named, each with its modifiers; raises
    IllegalCommand (and changes nothing) when the target is not valid."""
    assert attacker.square is not None
    square, agent = find_target(state, attacker, text, allow_empty=weapon.has("XPL"))
    if agent is not None and agent.side == attacker.side:
        raise IllegalCommand(f"{agent.name} is in your own squad.")
    if kind == MELEE:
        if not adjacent(state.board, attacker.square, square):
            raise IllegalCommand(
                f"{agent.name if agent else square} is not adjacent to {attacker.name}: "
                "Melee Combat needs an adjacent target."
            )
        return [aim_at(state, attacker, kind, weapon, square, agent)]
    line = line_agents(state, attacker, weapon, square)
    problem = ranged_problem(state, attacker, weapon, square, ignore={a.square for a in line})
    if problem:
        raise IllegalCommand(
            f"{attacker.name} cannot shoot {agent.name if agent else square}: {problem}"
        )
    aims = [aim_at(state, attacker, kind, weapon, square, agent)]
    aims += [aim_at(state, attacker, kind, weapon, a.square, a) for a in line]  # type: ignore[arg-type]
    aims += [
        aim_at(state, attacker, kind, weapon, a.square, a, caught_by_blast=True)  # type: ignore[arg-type]
        for a in explosion_agents(state, attacker, weapon, square)
    ]
    return aims


def find_target(
    state: MatchState, attacker: UnitState, text: str, allow_empty: bool
) -> tuple[Square, UnitState | None]:
    """A Standing Agent named by its name or square; with XPL, any open square."""
    wanted = text.strip().casefold()
    named = next((u for u in state.on_map() if u.id.casefold() == wanted), None)
    if named is None:
        try:
            square = state.board.parse_square(text)
        except RulesError as error:
            enemies = ", ".join(u.name for u in standing(state, 1 - attacker.side)) or "none"
            raise IllegalCommand(
                f"'{text}' is not an Agent on the map or a square. Standing enemies: {enemies}."
            ) from error
        named = standing_at(state, square)
        if named is None:
            if allow_empty and state.board.is_open(square) and square != attacker.square:
                return square, None  # XPL "can target an unoccupied Square"
            raise IllegalCommand(f"There is no Standing Agent to attack on {square}.")
    if is_downed(named):
        raise IllegalCommand(
            f"{named.name} is Downed: a Downed Agent is no target (it is removed at the end of the turn)."
        )
    assert named.square is not None
    return named.square, named


def ranged_problem(
    state: MatchState,
    attacker: UnitState,
    weapon: Weapon,
    square: Square,
    ignore: set[Square | None] | None = None,
) -> str | None:
    """Why a Ranged Combat at `square` is not allowed, or None: the target is not adjacent,
    no Standing enemy is adjacent to the attacker, within RGx and the turn's event, and in line
    of sight (Standing Agents in between block it, but not a LIN weapon's further targets)."""
    assert attacker.square is not None
    board = state.board
    if adjacent(board, attacker.square, square):
        return f"the target on {square} is adjacent; Ranged Combat needs a target that is not adjacent."
    enemy = standing_enemy_next_to(state, attacker.side, attacker.square)
    if enemy is not None:
        return f"{enemy.name} is adjacent to {attacker.name}; an Agent next to a Standing enemy cannot shoot."
    distance = attacker.square.distance(square)
    if distance > weapon.range:
        return f"{square} is {distance} squares away; {weapon.name} reaches {weapon.range} (RG{weapon.range})."
    event_problem = environment.range_problem(state, distance)
    if event_problem:
        return event_problem
    blocking = [s for s in standing_squares(state) if s not in (ignore or set())]
    if not line_of_sight(board, attacker.square, square, blocking):
        return f"no line of sight from {attacker.square} to {square}."
    return None


def line_agents(
    state: MatchState, attacker: UnitState, weapon: Weapon, square: Square
) -> list[UnitState]:
    """LIN: the Standing Agents (squadmates too) on the squares the line between attacker and
    target crosses, nearest first (the line between the squares' centres, our ruling)."""
    if not weapon.has("LIN"):
        return []
    assert attacker.square is not None
    found = [standing_at(state, s) for s in crossed_squares(attacker.square, square)]
    return [agent for agent in found if agent is not None]


def explosion_agents(
    state: MatchState, attacker: UnitState, weapon: Weapon, square: Square
) -> list[UnitState]:
    """XPL: every other Standing Agent (squadmates too) adjacent to the target square, in
    reading order; never the attacker itself (our ruling)."""
    if not weapon.has("XPL"):
        return []
    around = sorted(adjacent_squares(state.board, square), key=lambda s: (s.y, s.x))
    found = [standing_at(state, s) for s in around]
    return [agent for agent in found if agent is not None and agent is not attacker]


def aim_at(
    state: MatchState,
    attacker: UnitState,
    kind: str,
    weapon: Weapon,
    square: Square,
    agent: UnitState | None,
    caught_by_blast: bool = False,
) -> Aim:
    """The modifiers for one target (Lite rulebook Ranged and Melee Combat Modifiers)."""
    assert attacker.square is not None
    board = state.board
    roa, skill, notes = weapon.roa, weapon_skill(weapon), []
    drop = board.level(attacker.square) - board.level(square)
    mates_near = _squadmate_near(state, attacker, square)
    if kind == RANGED:
        if drop >= RANGED_HIGH_GROUND:
            skill += 1
            notes.append("High Ground: SKL +1")
        if mates_near:
            roa -= 1
            notes.append("Friendly Fire: ROA -1")
    else:
        if drop >= MELEE_HIGH_GROUND:
            skill += 1
            notes.append("High Ground: SKL +1")
        if mates_near:
            roa += 1
            notes.append("Support: ROA +1")
    cover = (
        kind == RANGED
        and agent is not None
        and not weapon.has("NCV")
        and in_cover(state, attacker, square, caught_by_blast)
    )
    if cover:
        notes.append("Cover: ARM +1")
    return Aim(square, agent.id if agent else None, max(0, roa), skill, cover, tuple(notes))


def in_cover(state: MatchState, attacker: UnitState, square: Square, caught_by_blast: bool) -> bool:
    """Lite rulebook Cover ("Target ARM +1"), the full rules' cover as the sight code decides it,
    which Lite's High Ground does not take away: Lite's High Ground only gives "Attacker SKL +1".
    Nor does XPL: an Agent caught by the blast is in Cover as if it were shot, and one that the
    attacker cannot see at all is in Cover too, as what hides it shelters it (our rulings)."""
    assert attacker.square is not None
    seen = sight(state.board, attacker.square, square, list(standing_squares(state)))
    if state.full_game_cover:  # a record from before Lite's own rule replays as it was played
        return seen.cover and not caught_by_blast
    return seen.terrain_cover or (caught_by_blast and not seen.visible)


def _squadmate_near(state: MatchState, attacker: UnitState, square: Square) -> bool:
    """A Standing squadmate of the attacker adjacent to the target (Friendly Fire, Support)."""
    return any(
        mate is not attacker
        and mate.square is not None
        and mate.square != square
        and adjacent(state.board, mate.square, square)
        for mate in standing(state, attacker.side)
    )


# --- rolling ---------------------------------------------------------------------------------
def open_fire(
    state: MatchState,
    attacker: UnitState,
    kind: str,
    weapon: Weapon,
    aims: list[Aim],
    dice: Dice,
) -> tuple[list[Event], PendingRoll | None]:
    """The roll for the first target there is (an XPL aimed at an empty square rolls only for
    the Agents it catches)."""
    attack = {
        "kind": kind,
        "weapon": weapon.name,
        "from": str(attacker.square),
        "free_rerolls": 0,  # RRx re-rolls are taken at once (our ruling), never waited for
        "aim": None,
        "queue": [aim.to_json() for aim in aims],
        "vampire": False,
    }
    return roll_next(state, attacker, attack, dice)


def roll_next(
    state: MatchState, attacker: UnitState, attack: dict[str, Any], dice: Dice
) -> tuple[list[Event], PendingRoll | None]:
    """Roll for the next target in the queue that is still a Standing Agent."""
    events: list[Event] = []
    queue = list(attack["queue"])
    while queue:
        aim = aim_from_json(queue.pop(0))
        target = state.units.get(aim.agent) if aim.agent else None
        if target is None:
            events.append(_empty_square(attacker, aim))
            continue
        if not is_standing(target):
            continue  # Downed by an earlier roll of this attack
        following = {**attack, "aim": aim.to_json(), "queue": queue}
        pending, rolled = roll_attack(state, attacker, following, aim, dice)
        return [*events, *rolled], pending
    return events, None


def _empty_square(attacker: UnitState, aim: Aim) -> Event:
    return Event(
        "blast",
        f"{possessive_name(attacker)} explosive lands on the empty square {aim.square}.",
        {"unit": attacker.id, "from": str(attacker.square), "square": str(aim.square)},
    )


def possessive_name(agent: UnitState) -> str:
    return f"{agent.name}'" if agent.name.endswith("s") else f"{agent.name}'s"


def roll_attack(
    state: MatchState, attacker: UnitState, attack: dict[str, Any], aim: Aim, dice: Dice
) -> tuple[PendingRoll, list[Event]]:
    """ROA dice (+modifiers); RRx re-rolls missed dice at once, first to last."""
    weapon = weapon_of(attacker, attack)
    rolled = [Die(dice.roll()) for _ in range(aim.roa)]
    target = state.units[aim.agent] if aim.agent else None
    verb = "attacks" if attack["kind"] == MELEE else "shoots"
    notes = f"; {'; '.join(aim.notes)}" if aim.notes else ""
    faces = [die.face for die in rolled]
    pending = PendingRoll(attacker.id, aim.skill, rolled, attack)
    events = [
        Event(
            "roll",
            f"{attacker.name} {verb} {target.name if target else aim.square} with {weapon.name} "
            f"(ROA {aim.roa}, SKL {aim.skill}{notes}): {marked_dice(rolled, aim.skill) or 'no dice to roll'}.",
            {
                "unit": attacker.id,
                "purpose": f"{attack['kind']} attack",
                "faces": faces,
                "skill": aim.skill,
            },
        )
    ]
    rerolls = weapon.value("RR")
    missed = [i for i, die in enumerate(rolled, start=1) if not succeeds(die.value, aim.skill)]
    for index in missed[:rerolls]:
        die = rolled[index - 1]
        old = die.face
        die.face, die.rerolled = dice.roll(), True
        events.append(
            Event(
                "reroll",
                f"{attacker.name} re-rolls die {index} (RR{rerolls}): {old} → {die.face}. "
                f"Dice now: {marked_dice(rolled, aim.skill)}.",
                {"die": index, "old": old, "new": die.face, "free": True},
            )
        )
    return pending, events


def weapon_of(attacker: UnitState, attack: dict[str, Any]) -> Weapon:
    weapon = attacker.card.weapon(attack["weapon"])
    assert weapon is not None
    return weapon


def hits(pending: PendingRoll, weapon: Weapon) -> tuple[int, int]:
    """Hits and criticals: a die at or under SKL hits, one up to x (CRx; 1 without) counts
    twice. A die changed with TO is judged on its new value but is never critical (our ruling,
    as a changed die never counts as a natural 1 in Skirm)."""
    critical_up_to = weapon.value("CR") or 1
    total = criticals = 0
    for die in pending.dice:
        if not succeeds(die.value, pending.skill):
            continue
        critical = die.modifier == 0 and die.face <= critical_up_to
        criticals += critical
        total += 2 if critical else 1
    return total, criticals


# --- resolving -------------------------------------------------------------------------------
def resolve(
    state: MatchState, pending: PendingRoll, dice: Dice
) -> tuple[list[Event], PendingRoll | None]:
    """The accepted roll: hits, saves and damage for this target, then the next target's roll."""
    attacker = state.units[pending.unit]
    attack = pending.attack
    aim = aim_from_json(attack["aim"])
    target = state.units[aim.agent] if aim.agent else None
    events: list[Event] = []
    if target is not None and is_standing(target):
        events += _strike(state, attacker, target, pending, aim, dice)
    more, following = roll_next(state, attacker, attack, dice)
    return events + more, following


def _strike(
    state: MatchState,
    attacker: UnitState,
    target: UnitState,
    pending: PendingRoll,
    aim: Aim,
    dice: Dice,
) -> list[Event]:
    attack = pending.attack
    weapon = weapon_of(attacker, attack)
    kind = attack["kind"]
    total, criticals = hits(pending, weapon)
    piercing = min(weapon.value("AP"), total)
    automatic = _automatic_saves(attacker, target, kind, total - piercing)
    crit_text = f" ({criticals} critical)" if criticals else ""
    parts = [f"{total} hit{'s' if total != 1 else ''}{crit_text}"]
    if piercing:
        parts.append(f"AP{weapon.value('AP')}: {piercing} not saved")
    if automatic:
        parts.append(f"{'CAM' if kind == RANGED else 'DOD'}: 1 automatic save")
    events = [
        Event(
            "attack",
            f"{attacker.name} → {target.name}: {', '.join(parts)}.",
            {
                "attacker": attacker.id,
                "target": target.id,
                "item": None,
                "weapon": weapon.name,
                "kind": kind,
                "from": attack["from"],
                "to": str(aim.square),
                "strikes": total,
                "criticals": criticals,
                "damage": total,
                "piercing": piercing,
                "automatic_saves": automatic,
                "cover": aim.cover,
                "support": "Support: ROA +1" in aim.notes,
                "counter": False,
            },
        )
    ]
    to_save = total - piercing - automatic
    failed, save_events = roll_saves(state, target, to_save, weapon.dam, aim.cover, dice)
    events += save_events
    lost, loss_events = lose_hits(state, target, piercing + failed, dice)
    events += loss_events
    if lost and weapon.has("VA") and not attack.get("vampire"):
        attack["vampire"] = True
        events += _vampire(attacker, weapon.value("VA"))
    if target.hit == 0:
        events += down(state, target, attacker, weapon.name, kind)
    return events


def _automatic_saves(attacker: UnitState, target: UnitState, kind: str, savable: int) -> int:
    """CAM (ranged, attacker more than 3 squares away) and DOD (melee): one automatic save,
    never against an APx hit (so only when a hit is left to save)."""
    if savable <= 0:
        return 0
    assert attacker.square is not None and target.square is not None
    if kind == RANGED and target.card.has("CAM"):
        return 1 if attacker.square.distance(target.square) > CAMOUFLAGE_BEYOND else 0
    if kind == MELEE and target.card.has("DOD"):
        return 1
    return 0


def save_target(target: UnitState, dam: int, cover: bool) -> int:
    """A save die at or under ARM (+1 in Cover) - DAM saves; higher loses one HIT."""
    return target.card.arm + (1 if cover else 0) - dam


def roll_saves(
    state: MatchState, target: UnitState, count: int, dam: int, cover: bool, dice: Dice
) -> tuple[int, list[Event]]:
    """One save die per hit to save, then the target's standing orders spend TO on the failed
    ones (rulings: Tactical Orders on rolls; Skirm Lite). The failed saves and the event."""
    if count <= 0:
        return 0, []
    needed = save_target(target, dam, cover)
    rolled = [Die(dice.roll()) for _ in range(count)]
    first = [die.face for die in rolled]
    squad = state.squads[target.side]
    if squad.orders_per_attack is None:
        spent = _reroll_failed_saves(squad, rolled, needed, dice)
        shown, orders = marked_saves([die.face for die in rolled], needed), "standing order"
    else:
        spent = spend_on_saves(rolled, needed, save_budget(squad), dice.roll)
        squad.orders -= spent
        shown, orders = marked_dice(rolled, needed), "standing orders"
    changed = [n for n, die in enumerate(rolled, start=1) if die.rerolled or die.modifier]
    note = f" ({orders}, {spent} TO: {_changes_of(rolled, first, changed)})" if changed else ""
    faces = [die.value for die in rolled]
    failed = sum(1 for face in faces if not succeeds(face, needed))
    arm = f"ARM {target.card.arm}{' + 1 cover' if cover else ''} - DAM {dam} = {needed}"
    return failed, [
        Event(
            "saves",
            f"{target.name} rolls {count} save{'s' if count > 1 else ''} ({arm}): "
            f"{shown}{note}: {count - failed} saved, {failed} failed.",
            {
                "unit": target.id,
                "faces": faces,
                "first_faces": first,
                "needed": needed,
                "saved": count - failed,
                "rerolled": [n for n, die in enumerate(rolled, start=1) if die.rerolled],
                "lowered": [n for n, die in enumerate(rolled, start=1) if die.modifier],
                "orders_spent": spent,
                "failed": failed,  # HIT are lost by the hit_lost event that follows (TFx)
            },
        )
    ]


def _reroll_failed_saves(squad: SquadState, rolled: list[Die], needed: int, dice: Dice) -> int:
    """The first release's standing order, which records without `orders_per_attack` keep:
    re-roll each failed save for 1 TO while the squad has more TO than it keeps. TO spent."""
    spent = 0
    if squad.reroll_saves_above is None:
        return spent
    for die in rolled:
        if not succeeds(die.face, needed) and squad.orders > squad.reroll_saves_above:
            squad.orders -= 1
            die.face, die.rerolled = dice.roll(), True
            spent += 1
    return spent


def _changes_of(rolled: list[Die], first: list[int], changed: list[int]) -> str:
    """Each changed die from its first face to its result (the marks tell re-rolled from
    lowered); only re-rolls are told as the first release told them."""
    told = ", ".join(f"die {n}: {first[n - 1]} → {rolled[n - 1].value}" for n in changed)
    return told if any(rolled[n - 1].modifier for n in changed) else f"re-rolled {told}"


def lose_hits(
    state: MatchState, target: UnitState, count: int, dice: Dice
) -> tuple[int, list[Event]]:
    """Take `count` HIT off, one at a time; TFx rolls 1D6 for each, x or lower keeps it. No die
    is rolled once the Agent is at 0 HIT. The HIT lost and the events."""
    tough = target.card.value("TF")
    lost = kept = 0
    faces: list[int] = []
    for _ in range(count):
        if target.hit == 0:
            break
        if tough:
            face = dice.roll()
            faces.append(face)
            if face <= tough:
                kept += 1
                continue
        target.hit -= 1
        lost += 1
    if not count:
        return 0, []
    tough_text = f" (TF{tough}: rolled {' '.join(map(str, faces))}, {kept} kept)" if tough else ""
    return lost, [
        Event(
            "hit_lost",
            f"{target.name} loses {lost} HIT{tough_text} ({target.hit} left).",
            {
                "unit": target.id,
                "lost": lost,
                "kept": kept,
                "tough_faces": faces,
                "hit": target.hit,
            },
        )
    ]


def _vampire(attacker: UnitState, amount: int) -> list[Event]:
    """VAx: the attacker regains x lost HIT (never above its card's HIT)."""
    regained = min(amount, attacker.card.hit - attacker.hit)
    attacker.hit += regained
    return [
        Event(
            "healed",
            f"{attacker.name} regains {regained} HIT (VA{amount}) ({attacker.hit} now).",
            {"unit": attacker.id, "by": attacker.id, "hit": regained, "regained": regained, "rule": "VA"},
        )
    ]


def down(
    state: MatchState, victim: UnitState, by: UnitState | None, weapon: str | None, kind: str
) -> list[Event]:
    """At 0 HIT the Agent is Downed: it stays on its square, on its side, and drops what it
    carries (our ruling). It counts as taken out by the squad that downed it, unless revived."""
    victim.status = DOWNED
    events = [
        Event(
            "downed",
            f"{victim.name} is Downed{' by ' + by.name if by else ''}.",
            {
                "unit": victim.id,
                "side": victim.side,
                "square": str(victim.square),
                "by": by.id if by else None,
                "by_side": by.side if by else None,
                "weapon": weapon,
                "kind": kind,
                "turn": state.turn,
            },
        )
    ]
    if victim.carrying is not None:
        marker = state.items[victim.carrying]
        marker.square, marker.carried_by, victim.carrying = victim.square, None, None
        events.append(
            Event(
                "dropped",
                f"{victim.name} drops the marker on {victim.square}.",
                {"unit": victim.id, "item": marker.id, "square": str(victim.square)},
            )
        )
    by_side = by.side if by is not None and by.side != victim.side else None
    state.taken_out_this_turn.append((victim.id, by_side))
    return events
