"""A stored squad's campaign progress: its roster card (units, XP, medals, Spoils Of War to
take) and the Spoils its units take between matches, by command rather than by editing the
squad file (issue 13: campaign leagues)."""

from __future__ import annotations

import asyncio
from typing import Any

from skirmbot import content
from skirmbot.render.roster import Roster, RosterUnit, roster_lines, roster_png
from skirmbot.rules.errors import ContentError
from skirmbot.rules.skirm import spoils
from skirmbot.rules.skirm.cards import UnitCard
from skirmbot.rules.skirm.medals import MEDAL_XP
from skirmbot.rules.skirm.squads import DEFAULT_EP_LIMIT, SPOILS_XP_STEP, squad_from_json
from skirmbot.service.campaigns import CampaignService, stored_name
from skirmbot.service.errors import ServiceError
from skirmbot.service.replies import Reply
from skirmbot.store import SquadRow, Store
from skirmbot.words import shown

SPOILS = "common"  # the shipped list of Spoils Of War (content/skirm/spoils/common.json)


def rewards() -> list[tuple[Any, dict[str, Any]]]:
    return spoils.spoils_from_json(content.raw("spoils", SPOILS))


class SquadProgress:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.campaigns = CampaignService(store)

    async def roster(self, owner: int, owner_name: str, name: str) -> Reply:
        """The stored squad's roster card: each unit's XP, medals and Spoils to take."""
        row = await self.campaigns.load_squad(owner, name)
        awards = await self.store.squad_awards(row.id)
        earned: dict[str, list[str]] = {}
        for _, medals in awards:
            for unit, names in medals.items():
                earned.setdefault(unit, []).extend(names)
        units = tuple(
            RosterUnit(
                name=card.name,
                unit_type=card.unit_type,
                xp=int(data.get("xp", 0)),
                medals=tuple(earned.get(card.name, [])),
                spoils_taken=int(data.get("spoils_taken", 0))
                + sum(1 for w in card.weapons if w.has("XP")),
                spoils_available=spoils.available(card, data),
                next_spoil_at=spoils.next_at(int(data.get("xp", 0))),
            )
            for card, data in _units(row)
        )
        roster = Roster(row.name, owner_name, "Skirm", len(awards), units, MEDAL_XP, SPOILS_XP_STEP)
        picture = await asyncio.to_thread(roster_png, roster)
        to_take = sum(unit.spoils_available for unit in units)
        text = f"**{row.name}**: {len(awards)} matches played"
        if to_take:
            text += f"; {to_take} Spoils Of War to take with /squad spoils"
        alt = f"Roster card: {' · '.join(roster_lines(roster))}"
        return Reply(
            text + ".", picture=picture, picture_name="roster.png", picture_alt=alt, private=True
        )

    async def reward_choices(self, owner: int, name: str, unit: str) -> list[tuple[str, str]]:
        """The Spoils the unit may take now, as (name, words) for autocomplete."""
        row = await self.store.squad(owner, stored_name(name))
        if row is None:
            return []
        for card, data in _units(row):
            if card.name.casefold() == unit.strip().casefold():
                return [(w.name, w.summary()) for w in spoils.offered(card, data, rewards())]
        return []

    async def take_spoil(self, owner: int, guild: int, name: str, unit: str, reward: str) -> Reply:
        """The unit of the stored squad takes the reward as one of its Spoils Of War; checked
        against its XP and the Spoils it holds, and saved in one transaction."""
        row = await self.campaigns.load_squad(owner, name)
        chosen = ""

        def change(stored: dict[str, Any] | None) -> dict[str, Any]:
            nonlocal chosen
            if stored is None:
                raise ServiceError(f"Your squad '{row.name}' is no longer stored.")
            data = dict(stored)
            units = list(data.get("units", []))
            for index, (card, item) in enumerate(_cards(data)):
                if card.name.casefold() != unit.strip().casefold():
                    continue
                try:
                    units[index] = spoils.take(card, item, reward, rewards())
                    data["units"] = units
                    squad_from_json(data, DEFAULT_EP_LIMIT)  # still a squad that can play
                except ContentError as error:
                    raise ServiceError(str(error)) from error
                chosen = card.name
                return data
            names = ", ".join(card.name for card, _ in _cards(data))
            raise ServiceError(f"{row.name} has no unit called '{shown(unit)}'. Its units: {names}.")

        await self.store.save_squad(owner, guild, row.name, change)
        return Reply(
            f"{chosen} of **{row.name}** takes {reward.strip()} as a Spoil Of War; it fights "
            "with it from your next match.",
            private=True,
        )


def _cards(data: dict[str, Any]) -> list[tuple[UnitCard, dict[str, Any]]]:
    squad = squad_from_json(data, DEFAULT_EP_LIMIT, strict=False)
    return list(zip(squad.units, data.get("units", []), strict=True))


def _units(row: SquadRow) -> list[tuple[UnitCard, dict[str, Any]]]:
    return _cards(row.data)
