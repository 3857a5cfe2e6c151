"""A stored squad's campaign progress: its roster card (units, XP, medals, Spoils Of War to
take) and the Spoils its units take between matches, by command rather than by editing the
squad file (issue 13: campaign leagues)."""

from __future__ import annotations

import asyncio
from typing import Any

from skirmbot import content
from skirmbot.render.roster import Roster, RosterUnit, roster_lines, roster_png
from skirmbot.rules.errors import ContentError
from skirmbot.service.campaigns import CampaignService, campaign, campaign_rules, stored_name
from skirmbot.service.errors import ServiceError
from skirmbot.service.replies import Reply
from skirmbot.store import Store
from skirmbot.words import shown

SPOILS = "common"  # the shipped list of Spoils Of War (content/skirm/spoils/common.json)


def rewards() -> Any:
    """The shipped list of Spoils Of War, as content data (its rules read it)."""
    return content.raw("spoils", SPOILS, campaign_rules().name)


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
                name=entry.name,
                unit_type=entry.unit_type,
                xp=entry.xp,
                medals=tuple(earned.get(entry.name, [])),
                spoils_taken=entry.spoils_taken,
                spoils_available=entry.spoils_available,
                next_spoil_at=entry.next_spoil_at,
            )
            for entry in campaign().roster(row.data)
        )
        title = campaign_rules().title
        rules = campaign()
        roster = Roster(
            row.name, owner_name, title, len(awards), units, rules.medal_xp, rules.spoils_xp_step
        )
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
        return campaign().rewards(row.data, unit, rewards())

    async def take_spoil(self, owner: int, guild: int, name: str, unit: str, reward: str) -> Reply:
        """The unit of the stored squad takes the reward as one of its Spoils Of War; checked
        against its XP and the Spoils it holds, and saved in one transaction."""
        row = await self.campaigns.load_squad(owner, name)
        chosen = ""

        def change(stored: dict[str, Any] | None) -> dict[str, Any]:
            nonlocal chosen
            if stored is None:
                raise ServiceError(f"Your squad '{row.name}' is no longer stored.")
            rules = campaign()
            try:
                taken = rules.take_reward(stored, unit, reward, rewards())
            except ContentError as error:
                raise ServiceError(str(error)) from error
            if taken is None:
                names = ", ".join(entry.name for entry in rules.roster(stored))
                raise ServiceError(
                    f"{row.name} has no unit called '{shown(unit)}'. Its units: {names}."
                )
            data, chosen = taken
            return data

        await self.store.save_squad(owner, guild, row.name, change)
        return Reply(
            f"{chosen} of **{row.name}** takes {reward.strip()} as a Spoil Of War; it fights "
            "with it from your next match.",
            private=True,
        )
