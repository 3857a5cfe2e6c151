"""Company lists: the Groups a player fields and which one holds the Captain (rulebook Setup 1,
4 and 6). A list file is `{"name", "captain", "groups": [{"name", "profile"}]}`; its points are
its Groups' profiles' points. The shipped lists are `skirmbot/content/companies/squads/`."""

from __future__ import annotations

from dataclasses import dataclass

from skirmbot.rules.companies.profiles import Profile


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
