"""Squads for the infantry rules as content (rulebook 002, "Unit Card" ¶2 and "Weapons and
Equipment"; plan section 2, "Squad building by points").

A squad file names its troopers, each with the card's fields (name, rank, squad position
number, skill, leader) and its kit by the weapons tables' names. `parse_squad` checks a file
against the plan's squad building and says in plain words what is wrong (ContentError), because
squads are written by hand; each trooper's kit is checked by `arms.loadout` and priced by
`arms.points`, so the tables stay the one place prices live.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.rules.infantry.arms import Arms, Loadout, loadout, points

# Our ruling (proposed): 2 to 8 troopers keeps a picture readable; 1000 PV unless a scenario
# says otherwise.
MIN_TROOPERS, MAX_TROOPERS = 2, 8
DEFAULT_POINTS = 1000
# Our ruling (proposed): "Regular" is the only skill level the text gives an AP value for.
SKILLS = ("Regular",)
TROOPER_FIELDS = (
    "name",
    "rank",
    "number",
    "skill",
    "leader",
    "primary",
    "secondary",
    "armour",
    "equipment",
)
SQUAD_FIELDS = ("name", "description", "troopers")


@dataclass(frozen=True)
class Recruit:
    """One row of a squad file: a trooper's card heading (Unit Card ¶2) and kit (W&E ¶1).
    (The trooper in a match, with its damage and position, is `state.Trooper`.)"""

    name: str
    rank: str
    number: int  # the squad position number, 1 to n
    skill: str
    leader: bool
    kit: Loadout
    pv: int


@dataclass(frozen=True)
class Squad:
    name: str
    description: str
    troopers: tuple[Recruit, ...]

    @property
    def pv(self) -> int:
        return sum(t.pv for t in self.troopers)

    @property
    def leader(self) -> Recruit:
        return next(t for t in self.troopers if t.leader)


def parse_squad(arms: Arms, data: Any, limit: int = DEFAULT_POINTS) -> Squad:
    """A squad from a squad file's JSON, refused in plain words if it breaks squad building:
    2 to 8 troopers, one leader, numbers 1 to n, at most `limit` PV."""
    if not isinstance(data, dict):
        raise ContentError("A squad file must be an object with a name and its troopers.")
    _exact_fields(data, SQUAD_FIELDS, "A squad")
    name = _text(data, "name", "A squad")
    description = data["description"]
    if not isinstance(description, str):
        raise ContentError(f"{name}'s description must be text.")
    rows = data["troopers"]
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise ContentError(f"{name}'s troopers must be a list, each trooper an object.")
    squad = Squad(name, description, tuple(_trooper(arms, name, row) for row in rows))
    _check_size(squad)
    _check_leader(squad)
    _check_numbers(squad)
    _check_names(squad)
    if squad.pv > limit:
        raise ContentError(f"{name} costs {squad.pv} PV: the limit is {limit} PV.")
    return squad


def _exact_fields(row: dict[str, Any], fields: tuple[str, ...], who: str) -> None:
    missing = [f for f in fields if f not in row]
    extra = [str(f) for f in row if f not in fields]
    if missing or extra:
        raise ContentError(
            f"{who} needs {', '.join(fields)}"
            + (f"; it lacks {', '.join(missing)}" if missing else "")
            + (f"; it has unknown {', '.join(extra)}" if extra else "")
            + "."
        )


def _text(row: dict[str, Any], field: str, who: str) -> str:
    value = row.get(field)
    if not isinstance(value, str) or not value.strip():
        raise ContentError(f"{who} has no {field}.")
    return value


def _trooper(arms: Arms, squad: str, row: dict[str, Any]) -> Recruit:
    name = _text(row, "name", f"A trooper of {squad}")
    who = f"{name} ({squad})"
    _exact_fields(row, TROOPER_FIELDS, who)
    rank = _text(row, "rank", who)
    number = row["number"]
    if isinstance(number, bool) or not isinstance(number, int):
        raise ContentError(f"{who}'s number must be a whole number.")
    if row["skill"] not in SKILLS:
        raise ContentError(f"{who}'s skill must be {' or '.join(SKILLS)}: no other is built.")
    if not isinstance(row["leader"], bool):
        raise ContentError(f"{who}'s leader must be true or false.")
    kit = _kit(arms, who, row)
    return Recruit(name, rank, number, row["skill"], row["leader"], kit, points(arms, kit))


def _kit(arms: Arms, who: str, row: dict[str, Any]) -> Loadout:
    for field in ("secondary", "armour"):
        if row[field] is not None and not isinstance(row[field], str):
            raise ContentError(f"{who}'s {field} must be a name from the tables, or null.")
    equipment = row["equipment"]
    if not isinstance(equipment, list) or not all(isinstance(e, str) for e in equipment):
        raise ContentError(f"{who}'s equipment must be a list of names.")
    if not isinstance(row["primary"], str):
        raise ContentError(f"{who}'s primary must be a name from the tables.")
    try:
        return loadout(arms, row["primary"], row["secondary"], row["armour"], tuple(equipment))
    except ContentError as error:
        raise ContentError(f"{who}: {error}") from error


def _check_size(squad: Squad) -> None:
    count = len(squad.troopers)
    if not MIN_TROOPERS <= count <= MAX_TROOPERS:
        raise ContentError(
            f"{squad.name} has {count} troopers: a squad has {MIN_TROOPERS} to {MAX_TROOPERS}."
        )


def _check_leader(squad: Squad) -> None:
    leaders = [t.name for t in squad.troopers if t.leader]
    if len(leaders) != 1:
        found = ", ".join(leaders) if leaders else "none"
        raise ContentError(f"{squad.name} needs exactly one leader; it has {found}.")


def _check_numbers(squad: Squad) -> None:
    # Unit Card ¶2's "squad position number": each of 1 to n once, so the card's number names
    # one trooper.
    numbers = sorted(t.number for t in squad.troopers)
    wanted = list(range(1, len(squad.troopers) + 1))
    if numbers != wanted:
        raise ContentError(
            f"{squad.name}'s troopers must be numbered 1 to {len(wanted)}, each once; "
            f"they are numbered {', '.join(map(str, numbers))}."
        )


def _check_names(squad: Squad) -> None:
    # Commands name a trooper by its name, so two alike could not be told apart.
    seen: set[str] = set()
    for trooper in squad.troopers:
        key = trooper.name.casefold()
        if key in seen:
            raise ContentError(f"{squad.name} has two troopers called {trooper.name}.")
        seen.add(key)
