"""Company lists: the Groups a player fields and which one holds the Captain (rulebook Setup 1,
4 and 6). A list file is `{"name", "captain", "groups": [{"name", "profile"}]}`; its points are
its Groups' profiles' points. The shipped lists are `skirmbot/content/companies/squads/`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmbot.rules.companies.profiles import Catalogue, Profile
from skirmbot.rules.errors import ContentError

MAX_GROUPS = 8  # a Company fields 1 to 8 Groups (our content: the rulebook sets no limit)
NAME_LENGTH = 24  # characters in a Group's name: commands and pictures name it


@dataclass(frozen=True)
class GroupEntry:
    name: str  # the Group's name in the list ("Spearmen", "Old Guard")
    profile: Profile


@dataclass(frozen=True)
class CompanyList:
    name: str  # the Company's name ("Hill Wardens")
    groups: tuple[GroupEntry, ...]
    captain: str  # the name of the Group the Captain stands with

    @property
    def points(self) -> int:
        return sum(entry.profile.points for entry in self.groups)


def company_from_json(data: Any, catalogue: Catalogue) -> CompanyList:
    """Read a company list; ContentError says what is wrong in plain words."""
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("name"), str)
        or not data["name"].strip()
    ):
        raise ContentError("A company list must be an object with a 'name' and a list of 'groups'.")
    name = data["name"].strip()
    raw = data.get("groups")
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_GROUPS:
        raise ContentError(f"Company {name}: 'groups' must list 1 to {MAX_GROUPS} Groups.")
    groups = tuple(_group(item, catalogue, name) for item in raw)
    names = [entry.name.lower() for entry in groups]
    if len(set(names)) != len(names):
        raise ContentError(f"Company {name}: two Groups have the same name; give each its own.")
    captain = data.get("captain")
    if not isinstance(captain, str) or captain.strip().lower() not in names:
        choices = ", ".join(entry.name for entry in groups)
        raise ContentError(f"Company {name}: 'captain' must name one of its Groups ({choices}).")
    return CompanyList(name, groups, groups[names.index(captain.strip().lower())].name)


def check_points(company: CompanyList, limit: int) -> None:
    """Each player's Company within the points a seat may field (the scenario's side total
    shared among the side's players: docs/rulings.md, the group rules: Team play)."""
    if company.points > limit:
        raise ContentError(
            f"{company.name} costs {company.points} points; this match allows {limit} per player."
        )


def _group(data: Any, catalogue: Catalogue, where: str) -> GroupEntry:
    if not isinstance(data, dict):
        raise ContentError(f"Company {where}: each Group needs a 'name' and a 'profile'.")
    name, key = data.get("name"), data.get("profile")
    if (
        not isinstance(name, str)
        or not name.strip()
        or len(name.strip()) > NAME_LENGTH
        or not name.replace(" ", "").isalnum()
    ):
        raise ContentError(
            f"Company {where}: a Group's 'name' is letters and digits "
            f"(at most {NAME_LENGTH}), not {name!r}."
        )
    profile = _profile(catalogue, key)
    if profile is None:
        choices = ", ".join(p.name for p in catalogue.profiles.values() if not p.summoned)
        raise ContentError(
            f"Company {where}: {name.strip()} has no profile called {key!r}; "
            f"the profiles are {choices}."
        )
    if profile.summoned:
        raise ContentError(
            f"Company {where}: {profile.name} only come by a Summon order; no Company fields them."
        )
    return GroupEntry(name.strip(), profile)


def _profile(catalogue: Catalogue, key: Any) -> Profile | None:
    """A profile by its key or its name, in any case."""
    if not isinstance(key, str):
        return None
    typed = key.strip().lower()
    return catalogue.profiles.get(typed) or next(
        (p for p in catalogue.profiles.values() if p.name.lower() == typed), None
    )
