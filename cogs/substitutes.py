"""/match substitute (issue 34): the glue between Discord and skirmbot.service.substitutes.

The command itself sits in the /match group (cogs/matches.py); what it does is here. A moderator
or league organiser naming a member hands a seat on: the channel is told, the newcomer pinged,
and the newcomer gets a direct message (in the channel instead when their DMs are closed). A
player naming no other player asks for a substitute for themselves.
"""

from __future__ import annotations

from typing import Any

import discord

from skirmbot.service import Member, ServiceError
from skirmbot.service import substitutes as subs

from .buttons import answer, post
from .common import bot_of, channel_of, in_time, player, roles_of, service_of
from .delivery import deliver


async def substitute(
    interaction: discord.Interaction[Any],
    member: discord.Member | None,
    seat_of: discord.Member | None,
) -> None:
    asker = await player(interaction)
    if member is not None and member.bot:
        raise ServiceError(
            f"{member.display_name} is a bot; a seat goes to a member who plays, or to the "
            "automatic player by the league's rule."
        )
    wanted = None if member is None else Member(member.id, member.display_name)
    leaving = None if seat_of is None else Member(seat_of.id, seat_of.display_name)
    service, channel = service_of(interaction), channel_of(interaction)
    if wanted is None or (leaving is None and not await _may_hand_on(interaction, asker)):
        # A player asking for a substitute for themselves (naming one they would like, or not).
        await answer(interaction, subs.ask(service, channel, asker, wanted))
        return
    handover = await in_time(
        interaction,
        subs.substitute(service, channel, asker, roles_of(interaction), wanted, leaving),
    )
    await post(interaction, [handover.reply])
    await deliver(bot_of(interaction), handover.match_id, handover.channel_id, [handover.direct])


async def _may_hand_on(interaction: discord.Interaction[Any], asker: Member) -> bool:
    """Whether the asker may hand seats on in this match (then naming only a member hands on
    their own seat, when they play); a player who may not is asking instead."""
    return await subs.may_hand_on(
        service_of(interaction), channel_of(interaction), asker, roles_of(interaction)
    )
