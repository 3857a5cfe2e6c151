"""Skirm's campaigns behind `Ruleset.campaign` (CAMPAIGNS): a stored squad's XP from medals,
its roster, and the Spoils Of War its units take between matches (rulebook Campaigns, Spoils
Of War; rulings: Campaigns). The service stores the squads; the rules here change their data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skirmbot.rules.medal import Medal
from skirmbot.rules.ruleset import Option, RosterEntry
from skirmbot.rules.skirm import spoils
from skirmbot.rules.skirm.cards import UnitCard
from skirmbot.rules.skirm.medals import MEDAL_XP, Spoils, apply_xp
from skirmbot.rules.skirm.squads import DEFAULT_EP_LIMIT, SPOILS_XP_STEP, squad_from_json


class SkirmCampaign:
    points_limit = DEFAULT_EP_LIMIT  # a stored squad is checked as any match's squad (100 EP)
    medal_xp = MEDAL_XP  # each medal's XP, for the roster card's legend
    spoils_xp_step = SPOILS_XP_STEP  # one more Spoil Of War per this many XP

    def add_xp(
        self, data: Mapping[str, Any], earned: Mapping[str, Sequence[Medal]]
    ) -> tuple[dict[str, Any], dict[str, Spoils]]:
        return apply_xp(data, earned)

    def roster(self, data: dict[str, Any]) -> list[RosterEntry]:
        return [
            RosterEntry(
                name=card.name,
                unit_type=card.unit_type,
                xp=int(unit.get("xp", 0)),
                spoils_taken=int(unit.get("spoils_taken", 0))
                + sum(1 for w in card.weapons if w.has("XP")),
                spoils_available=spoils.available(card, unit),
                next_spoil_at=spoils.next_at(int(unit.get("xp", 0))),
            )
            for card, unit in _cards(data)
        ]

    def rewards(self, data: dict[str, Any], unit: str, rewards: Any) -> list[Option]:
        for card, item in _cards(data):
            if card.name.casefold() == unit.strip().casefold():
                offered = spoils.offered(card, item, spoils.spoils_from_json(rewards))
                return [(w.name, w.summary()) for w in offered]
        return []

    def take_reward(
        self, data: dict[str, Any], unit: str, reward: str, rewards: Any
    ) -> tuple[dict[str, Any], str] | None:
        """The squad's data with the unit's reward taken, and the unit's name; None: the squad
        has no such unit. ContentError saying why it may not take it."""
        changed = dict(data)
        units = list(changed.get("units", []))
        for index, (card, item) in enumerate(_cards(data)):
            if card.name.casefold() != unit.strip().casefold():
                continue
            units[index] = spoils.take(card, item, reward, spoils.spoils_from_json(rewards))
            changed["units"] = units
            squad_from_json(changed, DEFAULT_EP_LIMIT)  # still a squad that can play
            return changed, card.name
        return None


def _cards(data: dict[str, Any]) -> list[tuple[UnitCard, dict[str, Any]]]:
    squad = squad_from_json(data, DEFAULT_EP_LIMIT, strict=False)
    return list(zip(squad.units, data.get("units", []), strict=True))


CAMPAIGN = SkirmCampaign()
