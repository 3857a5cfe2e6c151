"""The automatic player for Skirm Lite: practice matches, timeouts, the demo.

It picks among `legal_commands` only, so it never sends an illegal command, and weighs each by a
few plain preferences: revive a Downed squadmate, attack where the expected HIT lost is
highest, take and hold objectives and markers, close in on the enemy; Tactical Orders are kept
for revives and rolls unless an action is worth them.
"""

from __future__ import annotations

from skirmbot.rules.lite import commands
from skirmbot.rules.lite.agents import standing
from skirmbot.rules.lite.cards import weapon_skill
from skirmbot.rules.lite.legal import legal_commands
from skirmbot.rules.maps import MARKER
from skirmbot.rules.skirm.autoplayer import own_view
from skirmbot.rules.skirm.legal import failed_dice
from skirmbot.rules.skirm.state import DEPLOYMENT, MatchState, UnitState
from skirmbot.rules.squares import Square

REVIVE_VALUE = 60.0
DOWN_BONUS = 12.0  # an attack likely to Down its target
HIT_VALUE = 10.0  # each HIT the enemy is expected to lose
STEP_VALUE = 2.0  # each square nearer the Agent's goal
ORDER_PRICE = 4.0  # each Tactical Order an action spends
PICK_UP_VALUE = 25.0
RESERVE_ORDERS = 2  # kept for a Revive before any is spent on re-rolls


def deployment(state: MatchState, side: int) -> commands.Deploy:
    """Each Agent on the free square of the zone nearest the objectives (or the centre), a
    square apart where the zone allows."""
    zone = state.mission.zones[side].squares(state.board)
    goals = state.objectives or [Square(state.board.width // 2, state.board.height // 2)]
    placements: dict[str, str] = {}
    placed: list[Square] = []
    for agent in sorted(state.units_of(side), key=lambda u: u.id):
        spaced = [s for s in zone if s not in placed and all(s.distance(o) > 1 for o in placed)]
        choices = spaced or [s for s in zone if s not in placed]
        if not choices:
            break
        square = min(
            choices,
            key=lambda s: (
                min(s.distance(g) for g in goals),
                own_view(state, side, s).y,
                own_view(state, side, s).x,
            ),
        )
        placed.append(square)
        placements[agent.id] = str(square)
    return commands.Deploy(side, placements)


def choose(state: MatchState, side: int) -> commands.Command:
    """The automatic player's next command for `side` (which must be able to act)."""
    if state.phase == DEPLOYMENT:
        return deployment(state, side)
    options = legal_commands(state, side, blasts=False)  # it aims at Agents only
    if not options:
        raise ValueError("The automatic player was asked to act when it cannot.")
    activation = state.activation
    if activation is not None and activation.pending is not None:
        return _decide_roll(state, side, options)
    scored = [
        (_value(state, side, command), -index, command) for index, command in enumerate(options)
    ]
    return max(scored, key=lambda entry: (entry[0], entry[1]))[2]


def _decide_roll(state: MatchState, side: int, options: list[commands.Command]) -> commands.Command:
    """Re-roll the first missed die while Tactical Orders are spare, else accept."""
    if state.squads[side].orders > RESERVE_ORDERS:
        for number in failed_dice(state):
            for option in options:
                if isinstance(option, commands.Reroll) and option.die == number:
                    return option
    return commands.Accept(side)


def _value(state: MatchState, side: int, command: commands.Command) -> float:
    """What a command is worth to the automatic player (0: ending the activation)."""
    price = ORDER_PRICE * getattr(command, "orders", 0)
    if isinstance(command, commands.Revive):
        return REVIVE_VALUE
    if isinstance(command, commands.Sentry):
        if command.action == "dash":
            return _step_value(state, state.units[command.unit], command.square or "") - 1
        return _attack_value(state, command.unit, command.target or "", command.weapon)
    if isinstance(command, (commands.Shoot, commands.Melee)):
        return _attack_value(state, command.unit, command.target, command.weapon) - price
    if isinstance(command, commands.PickUp):
        return PICK_UP_VALUE - price
    if isinstance(command, (commands.Move, commands.Dash)):
        value = _step_value(state, state.units[command.unit], command.square)
        return value - price - (0.5 if isinstance(command, commands.Dash) else 0)
    if isinstance(command, (commands.Drop, commands.Door)):
        return -5.0
    return 0.0


def _attack_value(
    state: MatchState, attacker_id: str, target_id: str, weapon_name: str | None
) -> float:
    attacker, target = state.units[attacker_id], state.units.get(target_id)
    weapon = attacker.card.weapon(weapon_name or "") if weapon_name else attacker.card.weapons[0]
    if target is None or weapon is None:
        return 0.0
    hit_chance = min(5, max(1, weapon_skill(weapon))) / 6
    save_chance = min(5, max(1, target.card.arm - weapon.dam)) / 6
    expected = weapon.roa * hit_chance * (1 - save_chance)
    bonus = DOWN_BONUS if expected >= target.hit else 0.0
    return 1.0 + HIT_VALUE * min(expected, target.hit) + bonus


def _goals(state: MatchState, agent: UnitState) -> list[Square]:
    """Where the Agent heads: loose markers (if it carries none), objectives its squad does not
    hold, else the nearest Standing enemy."""
    goals: list[Square] = []
    if agent.carrying is None:
        goals += [
            i.square for i in state.items.values() if i.kind == MARKER and i.square is not None
        ]
    held = {u.square for u in standing(state, agent.side) if u is not agent}
    goals += [o for o in state.objectives if o not in held]
    if not goals or agent.carrying is not None:
        goals += [e.square for e in standing(state, 1 - agent.side) if e.square is not None]
    return goals


def _step_value(state: MatchState, agent: UnitState, square: str) -> float:
    goals = _goals(state, agent)
    if not goals or agent.square is None or not square:
        return 0.0
    to = Square.parse(square)
    before = min(agent.square.distance(g) for g in goals)
    after = min(to.distance(g) for g in goals)
    if before == 0:  # already on its goal: stay
        return -10.0
    return STEP_VALUE * (before - after) - 0.5
