"""Skills on stat cards, as data (rulebook Stat Cards: Skills; Tactical Orders).

A skill has a cost, in ACT (payable with ACT or TO, with the usual repeat surcharge) or in TO
(payable only with Tactical Orders, once per turn unless the card says otherwise), and one
effect built from the engine's blocks:

    heal    regain `amount` HIT, up to the starting HIT: the unit itself (`reach` 0) or an
            adjacent squadmate (`reach` 1)
    dash    move up to `amount` squares, following the movement rules
    orders  the squad gains `amount` Tactical Orders (only on ACT-cost skills)
    attack  attack with the unit's weapon `weapon`, rolling `amount` more attack dice

    {"name": "Field Dressing", "act": 1, "effect": "heal", "amount": 1, "reach": 1, "ep": 3}
    {"name": "Overwatch Burst", "to": 1, "effect": "attack", "weapon": "Rifle", "amount": 2}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmbot.rules.errors import ContentError

EFFECTS = ("heal", "dash", "orders", "attack")
MAX_AMOUNT = 4


@dataclass(frozen=True, slots=True)
class Skill:
    name: str
    effect: str
    amount: int
    act: int = 0
    to: int = 0
    reach: int = 0
    weapon: str | None = None
    ep: int = 0
    once_per_turn: bool = False

    @property
    def action(self) -> str:
        """The action key the repeat surcharge counts uses of this skill under."""
        return f"skill:{self.name.casefold()}"

    def cost_text(self) -> str:
        return f"{self.act} ACT" if self.act else f"{self.to} TO"

    def summary(self) -> str:
        what = {
            "heal": f"regain {self.amount} HIT ({'self' if not self.reach else 'self or an adjacent squadmate'})",
            "dash": f"move up to {self.amount} square{'s' if self.amount > 1 else ''}",
            "orders": f"the squad gains {self.amount} TO",
            "attack": f"attack with {self.weapon}, {self.amount} more attack dice",
        }[self.effect]
        return f"{self.name} ({self.cost_text()}): {what}"


def skill_from_json(data: Any, owner: str) -> Skill:
    """Read a skill from a squad file, with plain-words errors."""
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("name"), str)
        or not data["name"].strip()
    ):
        raise ContentError(f"{owner}: each skill needs a 'name'.")
    name = data["name"].strip()
    where = f"{owner}, skill {name}"
    effect = data.get("effect")
    if effect not in EFFECTS:
        raise ContentError(f"{where}: 'effect' must be one of {', '.join(EFFECTS)}.")
    act, to = _number(data, "act", where, 0, 3), _number(data, "to", where, 0, 3)
    if (act > 0) == (to > 0):
        raise ContentError(
            f"{where}: give the cost as either 'act' or 'to' (1 to 3), not both or neither."
        )
    if effect == "orders" and not act:
        raise ContentError(f"{where}: a skill that gives Tactical Orders must cost ACT.")
    weapon = data.get("weapon")
    if effect == "attack" and not (isinstance(weapon, str) and weapon.strip()):
        raise ContentError(f"{where}: an attack skill names the unit's 'weapon' it attacks with.")
    return Skill(
        name=name,
        effect=effect,
        amount=_number(data, "amount", where, 1, MAX_AMOUNT, default=1),
        act=act,
        to=to,
        reach=_number(data, "reach", where, 0, 1),
        weapon=weapon.strip() if isinstance(weapon, str) else None,
        ep=_number(data, "ep", where, 0, 30),
        once_per_turn=bool(data.get("once_per_turn", to > 0)),
    )


def _number(
    data: dict[str, Any], key: str, where: str, low: int, high: int, default: int = 0
) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ContentError(f"{where}: '{key}' must be a whole number from {low} to {high}.")
    return value
