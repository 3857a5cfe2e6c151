"""Non-combat actions: Move, Dash/Crawl, Open/Close Door, Pick Up/Drop, open a Crate
(rulebook Basic Actions, Movement, Items; rulings: Movement, Items).

Each action is split in two: `check_*` raises IllegalCommand and changes nothing; `do_*` changes
the state (it is only called after every check passed and the cost was paid).
"""

from __future__ import annotations

from skirmbot.rules.board import edge_key
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.events import Event
from skirmbot.rules.maps import CRATE, MARKER
from skirmbot.rules.movement import Mover, Route, reachable, route_to
from skirmbot.rules.skirm.leap import leap_squares
from skirmbot.rules.skirm.state import ItemState, MatchState, UnitState
from skirmbot.rules.squares import Square
from skirmbot.words import possessive

MOVE_BUDGET = 3  # rulebook Basic Actions: Move up to 3 squares
DASH_BUDGET = 1  # Dash/Crawl: up to 1 square
CRATE_OPTIONS = {"mp": "1 MP", "medpack": "MedPack (1D3 HIT)", "ammo": "Ammo Refill", "to": "1 TO"}


# --- movement ------------------------------------------------------------------------------
def movement_budget(unit: UnitState, action: str) -> int:
    base = unit.card.mov if action == "move" else DASH_BUDGET  # Skirm cards: mov = MOVE_BUDGET
    return base + (1 if unit.card.has("SWF") else 0)


def mover_of(unit: UnitState) -> Mover:
    """The unit as movement sees it: its squad, and the special rules that change its moves."""
    return Mover(
        str(unit.side),
        fly=unit.card.has("FLY"),
        ranger=unit.card.has("RGR"),
        nimble=unit.card.has("NMB"),
    )


def routes(state: MatchState, unit: UnitState, action: str) -> dict[Square, Route]:
    """Every square the unit can end a Move or Dash on, with the cheapest path (start included)."""
    assert unit.square is not None
    mover = mover_of(unit)
    return reachable(
        state.board, unit.square, movement_budget(unit, action), mover, state.occupancy()
    )


def known_route(
    state: MatchState, unit: UnitState, action: str, destination: Square
) -> Route | None:
    """The route of a Move or Dash already accepted once (a trusted replay), as `check_move`
    gives it, without listing every square the unit could reach; None when it finds none (the
    caller checks the move in full, to say why)."""
    assert unit.square is not None
    if destination == unit.square:
        return None
    budget = movement_budget(unit, action)
    return route_to(
        state.board, unit.square, budget, mover_of(unit), state.occupancy(), destination
    )


def check_move(state: MatchState, unit: UnitState, action: str, destination: Square) -> Route:
    if destination == unit.square:
        raise IllegalCommand(f"{unit.name} is already on {destination}.")
    options = routes(state, unit, action)
    route = options.get(destination)
    if route is None:
        verb = "a Move" if action == "move" else "a Dash"
        budget = movement_budget(unit, action)
        ends = [
            f"{square} ({r.cost})"
            for square, r in sorted(options.items(), key=lambda kv: (kv[0].y, kv[0].x))
            if square != unit.square
        ]
        assert unit.square is not None
        why = _why_unreachable(state, unit, destination, budget)
        raise IllegalCommand(
            f"{unit.name} cannot reach {destination} with {verb} ({budget} square{'s' if budget != 1 else ''} of movement){why}. "
            f"{unit.name} can reach: {', '.join(ends) or 'nowhere'}."
        )
    return route


def _why_unreachable(state: MatchState, unit: UnitState, destination: Square, budget: int) -> str:
    assert unit.square is not None
    if not state.board.is_open(destination):
        return f": {destination} is impassable"
    other = state.unit_at(destination)
    if other is not None:
        return f": {other.name} stands there"
    distance = unit.square.distance(destination)
    if distance > budget:
        return f": {destination} is {distance} squares away"
    return ""


def do_move(state: MatchState, unit: UnitState, action: str, route: Route) -> Event:
    unit.square = route.path[-1]
    if unit.carrying is not None:
        state.items[unit.carrying].square = None  # carried markers travel with the unit
    path = " → ".join(str(square) for square in route.path)
    verb = {"move": "moves", "dash": "dashes", "leap": "leaps"}[action]
    return Event(
        "moved",
        f"{unit.name} {verb} {path} ({route.cost} movement).",
        {
            "unit": unit.id,
            "path": [str(square) for square in route.path],
            "cost": route.cost,
            "action": action,
        },
    )


def leaps(state: MatchState, unit: UnitState) -> dict[Square, Route]:
    """Where an LPx unit can leap: up to x squares in a straight line."""
    assert unit.square is not None
    return leap_squares(state.board, unit.square, unit.card.value("LP"), state.occupancy())


def check_leap(state: MatchState, unit: UnitState, destination: Square) -> Route:
    if not unit.card.has("LP"):
        raise IllegalCommand(f"{unit.name} cannot Leap (it has no LPx rule).")
    options = leaps(state, unit)
    if destination not in options:
        listed = ", ".join(str(s) for s in sorted(options, key=lambda s: (s.y, s.x))) or "nowhere"
        raise IllegalCommand(
            f"{unit.name} cannot leap to {destination}: a Leap goes up to {unit.card.value('LP')} squares "
            f"in a straight line and ends on an empty square. {unit.name} can leap to: {listed}."
        )
    return options[destination]


# --- doors ---------------------------------------------------------------------------------
def check_door(state: MatchState, unit: UnitState, toward: Square | None) -> Square:
    """The square across the door the unit will open or close."""
    assert unit.square is not None
    here = unit.square
    doors = [n for n in (here.offset(0, -1), here.offset(1, 0), here.offset(0, 1), here.offset(-1, 0))
             if state.board.on_board(n) and state.board.has_door(here, n)]  # fmt: skip
    if toward is None:
        if len(doors) == 1:
            return doors[0]
        if not doors:
            raise IllegalCommand(
                f"There is no door on an edge of {here}, {possessive(unit.name)} square."
            )
        raise IllegalCommand(
            f"{here} has doors toward {', '.join(map(str, doors))}; say which one."
        )
    if toward not in doors:
        listed = ", ".join(map(str, doors)) or "none"
        raise IllegalCommand(
            f"There is no door between {here} and {toward}. Doors on {here}'s edges lead to: {listed}."
        )
    return toward


def do_door(state: MatchState, unit: UnitState, toward: Square) -> Event:
    assert unit.square is not None
    closed = state.board.door_closed(unit.square, toward)
    key = edge_key(unit.square, toward)
    state.board.doors[key] = closed  # a closed door opens, an open one closes
    a, b = key
    return Event(
        "door",
        f"{unit.name} {'opens' if closed else 'closes'} the door between {unit.square} and {toward}.",
        {"unit": unit.id, "edge": f"{a}|{b}", "open": closed},
    )


# --- markers -------------------------------------------------------------------------------
def check_pick_up(state: MatchState, unit: UnitState) -> ItemState:
    assert unit.square is not None
    if unit.carrying is not None:
        raise IllegalCommand(f"{unit.name} already carries a marker; drop it first.")
    markers = state.items_at(unit.square, MARKER)
    if not markers:
        raise IllegalCommand(f"There is no marker on {unit.square} to pick up.")
    return markers[0]


def do_pick_up(unit: UnitState, marker: ItemState) -> Event:
    square = marker.square
    marker.square, marker.carried_by, unit.carrying = None, unit.id, marker.id
    return Event(
        "picked_up",
        f"{unit.name} picks up the marker on {square}.",
        {"unit": unit.id, "item": marker.id, "square": str(square)},
    )


def check_drop(unit: UnitState) -> None:
    if unit.carrying is None:
        raise IllegalCommand(f"{unit.name} carries nothing to drop.")


def do_drop(state: MatchState, unit: UnitState) -> Event:
    assert unit.carrying is not None
    marker = state.items[unit.carrying]
    marker.square, marker.carried_by, unit.carrying = unit.square, None, None
    return Event(
        "dropped",
        f"{unit.name} drops the marker on {unit.square}.",
        {"unit": unit.id, "item": marker.id, "square": str(unit.square)},
    )


# --- crates --------------------------------------------------------------------------------
def crate_options(state: MatchState, unit: UnitState) -> list[str]:
    """The options still in the crates this match that this unit could take now."""
    options = [option for option in CRATE_OPTIONS if option not in state.crate_options_taken]
    if not refillable_weapons(unit):
        options = [option for option in options if option != "ammo"]
    return options


def refillable_weapons(unit: UnitState) -> list[str]:
    """LIM weapons this unit has already used (only those can be refilled, rulebook Crate)."""
    return sorted(name for name, left in unit.lim_uses_left.items() if left <= 0)


def check_crate(state: MatchState, unit: UnitState, option: str) -> ItemState:
    assert unit.square is not None
    crates = state.items_at(unit.square, CRATE)
    if not crates:
        raise IllegalCommand(
            f"There is no crate on {unit.square}; {unit.name} must stand on a crate to open it."
        )
    key = option.strip().lower()
    if key not in CRATE_OPTIONS:
        raise IllegalCommand(
            f"'{option}' is not a crate option. Choose one of: {_options_text(state, unit)}."
        )
    if key in state.crate_options_taken:
        raise IllegalCommand(
            f"{CRATE_OPTIONS[key]} has already been taken from a crate this battle. Left: {_options_text(state, unit)}."
        )
    if key == "ammo" and not refillable_weapons(unit):
        raise IllegalCommand(
            f"{unit.name} has no used Limited Ammo weapon to refill. Choose one of: {_options_text(state, unit)}."
        )
    return crates[0]


def _options_text(state: MatchState, unit: UnitState) -> str:
    return (
        ", ".join(f"{key} ({CRATE_OPTIONS[key]})" for key in crate_options(state, unit))
        or "nothing"
    )


def do_crate(
    state: MatchState, unit: UnitState, crate: ItemState, option: str, dice: Dice
) -> list[Event]:
    key = option.strip().lower()
    square = crate.square
    crate.square = None
    state.crate_options_taken.append(key)
    squad = state.squads[unit.side]
    if key == "mp":
        squad.mp += 1
        outcome = f"{squad.name} gains 1 MP"
    elif key == "to":
        squad.orders += 1
        outcome = f"{squad.name} gains 1 TO"
    elif key == "medpack":
        roll = dice.roll(3)
        healed = min(roll, unit.card.hit - unit.hit)
        unit.hit += healed
        outcome = f"MedPack: rolls {roll} on 1D3, {unit.name} regains {healed} HIT ({unit.hit} now)"
    else:
        weapon = refillable_weapons(unit)[0]
        unit.lim_uses_left[weapon] = 1
        outcome = f"Ammo Refill: {weapon} can be used once more"
    return [
        Event(
            "crate_opened",
            f"{unit.name} opens the crate on {square}: {outcome}.",
            {"unit": unit.id, "item": crate.id, "option": key, "square": str(square)},
        )
    ]
