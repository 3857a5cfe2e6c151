"""d20 warbands: a seat's models, each a profile from the armory (our ruling: the rulebook
names no force building rules, so a warband is 3 to 8 models with names of their own, within
the scenario's points limit).

A warband file is `{"name", "description", "models": [{"name", "profile"}]}`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmbot.rules.d20.armory import Armory, Profile
from skirmbot.rules.errors import ContentError

MIN_MODELS, MAX_MODELS = 3, 8


@dataclass(frozen=True)
class Warband:
    name: str
    models: tuple[tuple[str, Profile], ...]

    @property
    def points(self) -> int:
        return sum(profile.points for _, profile in self.models)


def warband_from_json(data: Any, armory: Armory) -> Warband:
    """Read a warband file; ContentError says what is wrong in plain words."""
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("name"), str)
        or not data["name"].strip()
    ):
        raise ContentError("A warband must be an object with a 'name' and a list of 'models'.")
    name = data["name"].strip()
    raw = data.get("models")
    if not isinstance(raw, list) or not MIN_MODELS <= len(raw) <= MAX_MODELS:
        raise ContentError(
            f"Warband {name}: 'models' must list {MIN_MODELS} to {MAX_MODELS} models."
        )
    models = tuple(_model(item, armory, name) for item in raw)
    names = [model.lower() for model, _ in models]
    if len(set(names)) != len(names):
        raise ContentError(f"Warband {name}: two models have the same name; give each its own.")
    return Warband(name, models)


def check_points(warband: Warband, limit: int) -> None:
    if warband.points > limit:
        raise ContentError(
            f"Warband {warband.name} costs {warband.points} points; this scenario allows {limit}."
        )


def _model(data: Any, armory: Armory, where: str) -> tuple[str, Profile]:
    if not isinstance(data, dict):
        raise ContentError(f"Warband {where}: each model needs a 'name' and a 'profile'.")
    name, profile = data.get("name"), data.get("profile")
    if not isinstance(name, str) or not name.strip() or not name.replace(" ", "").isalnum():
        raise ContentError(
            f"Warband {where}: a model's 'name' is letters and digits, not {name!r}."
        )
    if not isinstance(profile, str) or profile.lower() not in armory.profiles:
        raise ContentError(f"Warband {where}: {name} has no profile in the armory ({profile!r}).")
    return name.strip(), armory.profiles[profile.lower()]
