"""Messages that must always arrive (issue 11): what the bot posts with no interaction to answer.

The turn timers' messages (reminders, misses, the automatic player's turns after a miss, a
forfeit's end of the match) go out through `deliver`, one reply after the other, each through
`common.post_to_channel`, so:

- Discord refusing one message (a permission, a body it does not take, an outage) is logged
  once with the match id, and the next message still goes out; the match state was saved
  before anything was posted.
- A reminder by direct message to a player whose DMs are closed (403, code 50007) goes to the
  match's channel instead, with the ping and a line saying why, and the store remembers it:
  their next reminders go to the channel directly, until they choose again (/timer reminders).
- A match whose channel or thread was deleted (404, code 10003) is reported back
  (`Delivery.channel_gone`): the caller abandons the match, so its deadlines stop firing.

Not an extension: the timers cog and the bot use it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import discord

from skirmbot.service import Reply, ServiceError, moment

from .buttons import choice_view
from .common import (
    UNKNOWN_CHANNEL,
    ChannelGone,
    mentions,
    picture_files,
    post_to_channel,
    with_mention,
)
from .text import MESSAGE_LIMIT, channel_mention, fit

if TYPE_CHECKING:
    from skirmbot.bot import SkirmBot

log = logging.getLogger("skirmbot.delivery")

CANNOT_DM = 50007  # Discord: "Cannot send messages to this user" (their DMs are closed)
DMS_CLOSED_NOTE = (
    "(Your direct messages are closed to me, so your reminders come here from now on; "
    "/timer reminders chooses again.)"
)


@dataclass
class Delivery:
    """What became of a batch of replies."""

    posted: int = 0  # in the channel or by direct message
    refused: int = 0  # Discord refused them; logged, and the next one went on
    channel_gone: bool = False  # the channel or thread no longer exists: nothing was posted after


async def deliver(
    bot: SkirmBot, match_id: int, channel_id: int, replies: Sequence[Reply]
) -> Delivery:
    """Post the replies of a match in its channel (a reminder by DM to a player who chose that),
    in order; see the module's documentation for what happens when Discord refuses."""
    result = Delivery()
    channel: discord.abc.Messageable | None = None
    for reply in replies:
        if reply.dm and reply.ping:
            sent = await _direct_message(bot, match_id, channel_id, reply)
            if sent is True:
                result.posted += 1
                continue
            if sent is None:  # DMs closed: here instead, with the reason
                reply = replace(reply, text=f"{reply.text}\n{DMS_CLOSED_NOTE}")
        left = len(replies) - result.posted - result.refused
        try:
            if channel is None:
                channel = await _channel(bot, channel_id)
            view = await _buttons(bot, match_id, channel_id, reply)
            if await post_to_channel(channel, reply, match_id=match_id, view=view):
                result.posted += 1
            else:
                result.refused += 1
        except ChannelGone:
            log.warning(
                "Match #%s: its channel %s is gone; %d message(s) not posted",
                match_id,
                channel_id,
                left,
            )
            result.channel_gone = True
            break
        except discord.HTTPException as error:  # the channel cannot be looked up (access)
            log.warning(
                "Match #%s: cannot reach its channel %s (%s); %d message(s) not posted",
                match_id,
                channel_id,
                error,
                left,
            )
            result.refused += left
            break
    return result


async def _buttons(
    bot: SkirmBot, match_id: int, channel_id: int, reply: Reply
) -> discord.ui.View | None:
    """The buttons of a reply the timers post, as an answer's carry them: a window that ran
    out on a move which then meets another arc asks that arc's owner, who answers with Fire
    or Hold on this message (there is no other to click). Stale once the match moves on."""
    if not reply.choices:
        return None
    try:
        row, _ = await bot.service.view(channel_id)
    except ServiceError:
        return None
    if row.id != match_id:
        return None
    return choice_view(reply.choices, match_id, moment(row))


async def _channel(bot: SkirmBot, channel_id: int) -> discord.abc.Messageable:
    found: Any = bot.get_channel(channel_id)
    if found is None:
        try:
            found = await bot.fetch_channel(channel_id)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                raise ChannelGone(f"channel {channel_id} no longer exists") from error
            raise
    if not isinstance(found, discord.abc.Messageable):
        raise ChannelGone(f"channel {channel_id} is not one messages can be posted in")
    return found


def _with_channel(text: str, channel_id: int) -> str:
    """A direct message's text with the match's channel after it, the text cut to leave room."""
    where = f"\n(match in {channel_mention(channel_id)})"
    return fit(text, MESSAGE_LIMIT - len(where)) + where


async def _direct_message(
    bot: SkirmBot, match_id: int, channel_id: int, reply: Reply
) -> bool | None:
    """True: sent by DM. None: the player's DMs are closed (remembered). False: Discord
    refused for another reason (logged); either way the channel gets it instead."""
    assert reply.ping
    try:
        user = bot.get_user(reply.ping) or await bot.fetch_user(reply.ping)
        await user.send(
            _with_channel(with_mention(reply.text, reply.ping), channel_id),
            files=picture_files(reply),  # a reminder's catch-up recap goes along
            allowed_mentions=mentions(reply.ping),
        )
    except discord.Forbidden as error:
        if error.code != CANNOT_DM:
            log.warning("Match #%s: could not DM player %s: %s", match_id, reply.ping, error)
            return False
        log.info(
            "Match #%s: player %s has closed DMs; reminders go to channel %s from now on",
            match_id,
            reply.ping,
            channel_id,
        )
        await bot.service.note_dms_closed(reply.ping)
        return None
    except discord.HTTPException as error:
        log.warning("Match #%s: could not DM player %s: %s", match_id, reply.ping, error)
        return False
    return True
