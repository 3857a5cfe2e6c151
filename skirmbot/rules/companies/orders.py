"""What each order may do now: pure questions about a match under the group rules.

The engine checks every order through these before a die is rolled, and the legal-commands menu
and autocomplete ask the same ones, so the menu and the engine never disagree. Each answers for
a Group as it stands; whose turn it is belongs to `seat_may_act`.

Our rulings (docs/rulings.md, the group rules: Orders): a Group in melee may only Attack the
Groups it is in melee with, or Retreat (rulebook Attacking: "If already in melee, the Group may
attempt to activate and either Attack or Retreat"); a Group does not Shoot at a Group in melee;
a Reckless Group's player gives no other order until it has attempted its Attack.
"""

from __future__ import annotations

from collections.abc import Collection

from skirmbot.rules.companies import geometry
from skirmbot.rules.companies.captains import mi_of, mo_of
from skirmbot.rules.companies.profiles import ATTACK, CAST, DEFIANT, MOVE, RETREAT, SHOOT, SUMMON
from skirmbot.rules.companies.state import Group, State, side_of_seat
from skirmbot.rules.squares import Square
from skirmbot.words import possessive

CAST_RANGE = 12  # inches: our content's hex reaches an enemy Group within 12" it can see
SUMMON_REACH = 3  # inches from the summoner: where a summoned Group may be placed
NEAREST = 5  # squares a refused Move names as reachable instead


def seat_may_act(state: State, seat: int) -> str | None:
    """Why `seat` may give no order now, in plain words; None if it may."""
    if state.over:
        return "The match is over."
    if state.round == 0:
        return "The match has not begun: its Companies are still being set up."
    if state.pending is not None:
        target = state.group(state.pending.target)
        return f"Waiting for {state.seats[target.seat].name} to answer the Attack on {target.id}."
    player = state.seats[seat]
    if player.out:
        return f"{player.name} has left the match."
    if side_of_seat(seat) != state.active:
        return "It is the other side's turn."
    if player.ended:
        return f"{player.name} has ended its part of this turn."
    return None


def may_activate(state: State, group: Group) -> str | None:
    """Why the Group may not activate now (whatever the order), in plain words; None if it may."""
    if not group.on_table:
        return f"{group.id} has been Routed." if group.routed else f"{group.id} is not deployed."
    if group.shaken:
        return f"{group.id} is Shaken: it may not activate until it Rallies."
    if group.activated:
        return f"{group.id} has already activated this turn."
    reckless = reckless_of(state, group.seat)
    if reckless and all(g is not group for g in reckless):
        names = ", ".join(g.id for g in reckless)
        return f"{names} must first attempt to Attack (Reckless)."
    return None


def reckless_of(state: State, seat: int) -> list[Group]:
    """The seat's Reckless Groups that must still attempt their Attack this turn."""
    return [state.group(name) for name in state.reckless if state.group(name).seat == seat]


def in_melee(state: State, group: Group) -> list[Group]:
    """The enemy Groups in base contact with it (rulebook Attacking: "in melee")."""
    if not group.on_table:
        return []
    return [e for e in state.enemies_of(group) if geometry.in_contact(group.models, e.models)]


def blocked_for(state: State, group: Group) -> set[Square]:
    """The squares other Groups' models stand on: no model of this Group passes them."""
    return {s for g in state.groups.values() if g.on_table and g is not group for s in g.models}


def enemy_squares(state: State, group: Group) -> set[Square]:
    return {s for g in state.enemies_of(group) for s in g.models}


def move_squares(state: State, group: Group) -> dict[Square, tuple[Square, ...]]:
    """Every square the Group's first model can end a Move on keeping the Group's shape, with
    every model's square (none while in melee: it may only Attack or Retreat)."""
    if not group.profile.can(MOVE) or in_melee(state, group):
        return {}
    found = geometry.formation_moves(
        geometry.Terrain(state.board),
        group.models,
        mo_of(state, group),
        blocked_for(state, group),
        enemy_squares(state, group),
    )
    return {square: models for square, models in found.items() if tuple(group.models) != models}


def why_not_move(state: State, group: Group, square: Square) -> str | None:
    """Why the whole Group may not Move its first model to `square` keeping its shape, in plain
    words with what would be right (the nearest squares it can reach); None if it may."""
    if not group.profile.can(MOVE):
        return f"{group.id} cannot be given a Move order."
    if in_melee(state, group):
        return f"{group.id} is in melee: it may only Attack or Retreat."
    found = move_squares(state, group)
    if square in found:
        return None
    first = group.models[0]
    mo = mo_of(state, group)
    away = geometry.distance(first, square)
    why = (
        f'{square} is {away}" from {possessive(group.id)} first model ({first}); '
        f'{group.id} moves {mo}".'
        if away > mo
        else f"{group.id} cannot Move its first model to {square} keeping its shape (Cohesion, "
        f'3" from enemy Groups, the way there).'
    )
    if not found:
        return f"{why} It has nowhere to Move now."
    return (
        f"{why} {nearest_words(group, square, found)[:-1]}; or give every model's square "
        '("models": C3 D3 E4) to move them one by one.'
    )


def nearest_words(
    group: Group, square: Square, squares: Collection[Square], verb: str = "can reach"
) -> str:
    """The few of `squares` nearest `square`, as a refusal offers them instead: "Spearmen can
    reach: C5, D5." ("may Summon at": ...; none: "... none now")."""
    nearest = sorted(squares, key=lambda s: (geometry.distance(s, square), s.y, s.x))[:NEAREST]
    if not nearest:
        return f"{group.id} {verb} none now."
    return f"{group.id} {verb}: {', '.join(str(s) for s in nearest)}."


def move_routes(state: State, group: Group) -> dict[Square, tuple[int, tuple[Square, ...]]]:
    """For each square the Group's first model can end a Move on (`move_squares`), that model's
    cost in inches and its path (autocomplete's labels, the picture's preview)."""
    found = move_squares(state, group)
    if not found:
        return {}
    first = group.models[0]
    terrain = geometry.Terrain(state.board)
    walks = geometry.reach(
        terrain,
        first,
        mo_of(state, group),
        blocked_for(state, group),
        ignore_obstacles=terrain.obstacle_contact(first),
    )
    routes: dict[Square, tuple[int, tuple[Square, ...]]] = {}
    for square in found:
        path = walks.get(square, (first, square))
        routes[square] = (path_cost(state, path), path)
    return routes


def model_paths(
    state: State, group: Group, destinations: tuple[Square, ...]
) -> list[tuple[Square, ...]]:
    """Each model's path to its destination, for the picture: its own walk within its Move
    where one is found (a Group's own models step aside for each other), else straight there
    (a charge's last inch into contact)."""
    terrain = geometry.Terrain(state.board)
    blocked = blocked_for(state, group)
    mo = mo_of(state, group)
    paths: list[tuple[Square, ...]] = []
    for start, end in zip(group.models, destinations, strict=True):
        found = geometry.reach(
            terrain, start, mo, blocked, ignore_obstacles=terrain.obstacle_contact(start)
        )
        paths.append(found.get(end, (start, end) if start != end else (start,)))
    return paths


def path_cost(state: State, path: tuple[Square, ...]) -> int:
    """Inches a path costs (Terrain, Difficult: "Each inch of movement through difficult
    terrain costs 2""), its first square where it starts."""
    terrain = geometry.Terrain(state.board)
    return sum(2 if terrain.difficult(square) else 1 for square in path[1:])


def placed_move_error(state: State, group: Group, destinations: list[Square]) -> str | None:
    """Why moving each model to its own square breaks the rules (Moving: "Move each model
    individually", Cohesion, Obstacle); None if the Move is legal."""
    if not group.profile.can(MOVE):
        return f"{group.id} cannot be given a Move order."
    if in_melee(state, group):
        return f"{group.id} is in melee: it may only Attack or Retreat."
    if len(destinations) != len(group.models):
        return f"{group.id} has {len(group.models)} models: give a square for each, in order."
    if tuple(destinations) == tuple(group.models):
        return f"{group.id} already stands there."
    return geometry.check_placed_move(
        geometry.Terrain(state.board),
        group.models,
        destinations,
        mo_of(state, group),
        blocked_for(state, group),
        enemy_squares(state, group),
    )


def shoot_targets(state: State, group: Group) -> list[Group]:
    """The enemy Groups it may Shoot now."""
    return [e for e in state.enemies_of(group) if why_not_shoot(state, group, e) is None]


def why_not_shoot(state: State, group: Group, target: Group) -> str | None:
    """Why the Group may not Shoot `target`, in plain words; None if it may (Shooting: "If the
    activating Group has a MI profile, they may choose a Group within range that they can see";
    our ruling: not while in melee, nor at a Group in melee)."""
    if mi_of(state, group) is None or not group.profile.can(SHOOT):
        return f"{group.id} has no MI profile: it cannot Shoot."
    why = _why_not_enemy(state, group, target)
    if why is not None:
        return why
    if in_melee(state, group):
        return f"{group.id} is in melee: it may only Attack or Retreat."
    if in_melee(state, target):
        return f"{target.id} is in melee: no Group Shoots into a melee."
    away = geometry.group_distance(group.models, target.models)
    if away > group.profile.range:
        return (
            f'{target.id} is {away}" away; {possessive(group.id)} range is {group.profile.range}".'
        )
    if not geometry.can_see(geometry.Terrain(state.board), group.models, target.models):
        return f"{group.id} cannot see {target.id}."
    return None


def with_targets(why: str, group: Group, verb: str, targets: list[Group]) -> str:
    """A refused order's reason, then what the Group may do instead: "... Spearmen may Attack
    Foes, Knights." (`verb`: "Shoot at", "Attack", "Cast at")."""
    if not targets:
        return f"{why} {group.id} has nothing to {verb.split()[0]} now."
    return f"{why} {group.id} may {verb} {', '.join(t.id for t in targets)}."


def _why_not_enemy(state: State, group: Group, target: Group) -> str | None:
    if target.side == group.side:
        return f"{target.id} is on your side."
    if not target.on_table:
        return f"{target.id} is not on the table."
    return None


def attack_targets(state: State, group: Group) -> list[Group]:
    """The enemy Groups it may Attack now."""
    return [e for e in state.enemies_of(group) if why_not_attack(state, group, e) is None]


def why_not_attack(state: State, group: Group, target: Group) -> str | None:
    """Why the Group may not Attack `target`, in plain words; None if it may (Attacking: "a
    target within their movement distance that they can see", some model able to reach base
    contact; "If already in melee", only the Groups it is in melee with: our ruling)."""
    if group.profile.me_attack is None or not group.profile.can(ATTACK):
        return f"{group.id} has no ME profile for Attacking: it cannot Attack."
    why = _why_not_enemy(state, group, target)
    if why is not None:
        return why
    engaged = in_melee(state, group)
    if engaged:
        if any(e is target for e in engaged):
            return None
        names = ", ".join(e.id for e in engaged)
        return f"{group.id} is in melee with {names}: it may Attack only them, or Retreat."
    away = geometry.group_distance(group.models, target.models)
    mo = mo_of(state, group)
    if away > mo:
        return f'{target.id} is {away}" away; {group.id} moves {mo}".'
    if not geometry.can_see(geometry.Terrain(state.board), group.models, target.models):
        return f"{group.id} cannot see {target.id}."
    if charge_squares(state, group, target) is None:
        return f"No model of {group.id} can reach base contact with {target.id}."
    return None


def charge_squares(state: State, group: Group, target: Group) -> tuple[Square, ...] | None:
    """Where the attacking Group's models end its charge at `target` (Attacking 1: "Move as many
    models as possible into base contact"); None if no model reaches base contact."""
    return geometry.charge(
        geometry.Terrain(state.board),
        group.models,
        mo_of(state, group),
        target.models,
        blocked_for(state, group),
    )


def cast_targets(state: State, group: Group) -> list[Group]:
    """The enemy Groups its hex may reach now."""
    return [e for e in state.enemies_of(group) if why_not_cast(state, group, e) is None]


def why_not_cast(state: State, group: Group, target: Group) -> str | None:
    """Why the Group may not Cast at `target` (our content: an enemy Group within 12" it can
    see, not while in melee); None if it may."""
    if not group.profile.can(CAST):
        return f"{group.id} cannot Cast."
    why = _why_not_enemy(state, group, target)
    if why is not None:
        return why
    if in_melee(state, group):
        return f"{group.id} is in melee: it may only Attack or Retreat."
    away = geometry.group_distance(group.models, target.models)
    if away > CAST_RANGE:
        return f'{target.id} is {away}" away; a hex reaches {CAST_RANGE}".'
    if not geometry.can_see(geometry.Terrain(state.board), group.models, target.models):
        return f"{group.id} cannot see {target.id}."
    return None


def summon_squares(state: State, group: Group) -> dict[Square, tuple[Square, ...]]:
    """Where its Summon may place the new Group, by its first model's square: every model in
    Cohesion, within 3" of the summoner and at least 3" from enemy Groups; once per game, not
    while in melee."""
    profile = group.profile
    if (
        not profile.can(SUMMON)
        or profile.summons is None
        or group.has_summoned
        or not group.on_table
        or in_melee(state, group)
    ):
        return {}
    count = state.catalogue.profiles[profile.summons].models
    terrain = geometry.Terrain(state.board)
    taken = set(state.occupied())
    enemies = enemy_squares(state, group)
    allowed = {
        square
        for square in state.board.squares()
        if state.board.is_open(square)
        and square not in taken
        and any(geometry.distance(square, model) <= SUMMON_REACH for model in group.models)
        and all(geometry.distance(square, enemy) >= geometry.COHESION for enemy in enemies)
    }
    found: dict[Square, tuple[Square, ...]] = {}
    for anchor in sorted(allowed, key=lambda s: (s.y, s.x)):
        placed = geometry.formation_at(terrain, anchor, count, allowed, taken)
        if placed is not None:
            found[anchor] = placed
    return found


def standing_answer(state: State, seat: int, trait: str) -> bool:
    """Whether the seat's standing orders test `trait` (DEFIANT or ELUSIVE) when one of its
    Groups is attacked: what it answers when not prompted, or when its answer does not come."""
    player = state.seats[seat]
    return player.defiant if trait == DEFIANT else player.elusive


def can_retreat(state: State, group: Group) -> bool:
    """Retreating: "A Group may activate to Retreat from melee"."""
    return group.profile.can(RETREAT) and bool(in_melee(state, group))


def orders_now(state: State, group: Group) -> list[str]:
    """The orders the Group may be given now, as far as where it stands allows (a Reckless
    Group that must attempt its Attack: only that)."""
    if may_activate(state, group) is not None:
        return []
    if group.id in state.reckless:
        return [ATTACK] if attack_targets(state, group) else []
    found = {
        MOVE: bool(move_squares(state, group)),
        SHOOT: bool(shoot_targets(state, group)),
        ATTACK: bool(attack_targets(state, group)),
        RETREAT: can_retreat(state, group),
        CAST: bool(cast_targets(state, group)),
        SUMMON: bool(summon_squares(state, group)),
    }
    return [order for order, possible in found.items() if possible]


def may_still_act(state: State, seat: int) -> bool:
    """Whether the seat still has a part in its side's turn: it has not ended it and some Group
    of its Company may activate (rulebook Activation: "For each Group which did not Rally or
    check for Reckless")."""
    if seat_may_act(state, seat) is not None:
        return False
    return any(may_activate(state, g) is None for g in state.groups_of(seat))


def acting_seats(state: State) -> list[int]:
    """The seats of the side whose turn it is that may still give an order."""
    if state.active is None:
        return []
    return [seat for seat in state.seats_of(state.active) if may_still_act(state, seat)]
