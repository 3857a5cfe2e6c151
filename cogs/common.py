"""What the cogs share: who is asking, answering within Discord's 3 seconds, and sending a
message (text, picture, ping); `skirmbot.cogs.buttons` posts the service's replies in order
with the buttons under them (`answer`, `post`).

Game rules never appear here: the service decides, this module only carries its answer. Every
message goes out through `with_mention`, which writes the service's placeholders (a person, a
moment) as Discord markup and fits the message in Discord's limits (skirmbot.cogs.text).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Coroutine, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord

from skirmbot.service import MatchService, Member, Reply, ServiceError
from skirmbot.service.replies import FileReply

from .text import alt, fit, markup, mention

if TYPE_CHECKING:
    from skirmbot.bot import SkirmBot

T = TypeVar("T")
log = logging.getLogger("skirmbot.discord")

# Discord drops an interaction not answered within 3 s of its creation; rendering is usually
# far quicker, so we answer directly and only show "thinking..." when the service is slow.
DEFER_AFTER = 1.5
PLACEHOLDER = "skirm_placeholder"  # interaction.extras: a deferred message waits; value: private?
DONE = "Done."


def bot_of(interaction: discord.Interaction[Any]) -> SkirmBot:
    return cast("SkirmBot", interaction.client)


def service_of(interaction: discord.Interaction[Any]) -> MatchService:
    return bot_of(interaction).service


def channel_of(interaction: discord.Interaction[Any]) -> int:
    """The match's channel: the channel (or thread) the interaction came from."""
    if interaction.channel_id is None:
        raise ServiceError("Skirm matches are played in server channels.")
    return interaction.channel_id


async def is_moderator(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server in this channel, or the role the server named with /match modrole."""
    if interaction.guild_id is None:
        return False
    if interaction.permissions.manage_guild:
        return True
    role_id = await service_of(interaction).moderator_role(interaction.guild_id)
    roles = getattr(interaction.user, "roles", [])
    return role_id is not None and any(str(role.id) == role_id for role in roles)


async def player(interaction: discord.Interaction[Any]) -> Member:
    """The asking member as the service knows them."""
    user = interaction.user
    return Member(user.id, user.display_name, moderator=await is_moderator(interaction))


def asker(interaction: discord.Interaction[Any]) -> Member:
    """The asking member without the moderator look-up (autocomplete: fast, read-only)."""
    return Member(interaction.user.id, interaction.user.display_name)


# --- free-text options -----------------------------------------------------------------------
# The longest text each kind of option takes. Names in squad files have at most 32 visible
# characters, 64 in all (the squad file checks); targets may be items (`barrel@E5`).
NAME_LENGTH = 64
TARGET_LENGTH = 80
SQUARE_LENGTH = 16  # "C12", or an autocomplete label such as "C12 (3)"


class TooLong(ServiceError, discord.app_commands.AppCommandError):
    """A free-text option over its limit reached the bot: refused in words, never echoed."""


class Text(discord.app_commands.Transformer[Any]):
    """A free-text option of 1 to `limit` characters, as in
    `unit: app_commands.Transform[str, Text(64, "unit name")]`. Discord lets nobody type more
    (the option's max_length). A longer value that comes all the same (Discord's listing of the
    command from before the limit, a modified client) is refused here, before the service
    sees it, in plain words that do not repeat it."""

    def __init__(self, limit: int, what: str) -> None:
        self.limit, self.what = limit, what

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return self.limit

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> str:
        text = str(value)
        if len(text) > self.limit:
            raise TooLong(
                f"That {self.what} is {len(text):,} characters long; a {self.what} has at most "
                f"{self.limit} characters. Check what you typed and try again."
            )
        return text


# --- answering -------------------------------------------------------------------------------
async def in_time(
    interaction: discord.Interaction[Any], work: Coroutine[Any, Any, T], *, private: bool = False
) -> T:
    """Await the service; if it is slow, defer ("thinking...") so the interaction stays valid."""
    task: asyncio.Task[T] = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        try:
            await interaction.response.defer(thinking=True, ephemeral=private)
            interaction.extras[PLACEHOLDER] = private
        except discord.HTTPException as error:  # expired already: `send` falls back
            log.warning("Could not defer interaction %s: %s", interaction.id, error)
    return await task


Pings = int | Sequence[int] | None  # who a message notifies: one user, several, or nobody


def pinged(ping: Pings) -> list[int]:
    """The users to notify, once each (0, the automatic player, is nobody)."""
    users = [ping] if isinstance(ping, int) else list(ping or [])
    return [user for user in dict.fromkeys(users) if user]


def mentions(ping: Pings) -> discord.AllowedMentions:
    """Only the player whose turn it is gets a notification (at the end of a match, both
    players); names in texts never ping."""
    users = pinged(ping)
    if users:
        return discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(user) for user in users],
        )
    return discord.AllowedMentions.none()


def with_mention(text: str, ping: Pings) -> str:
    """A message's text as it is posted: the service's placeholders written as Discord markup
    (skirmbot.cogs.text), the pings in front (those it does not name already), and never over
    Discord's 2,000 characters (every message the cogs post goes through here)."""
    text = markup(text)
    missing = [mention(user) for user in pinged(ping) if mention(user) not in text]
    if missing:
        text = f"{' '.join(missing)} {text}"
    return fit(text)


async def send(
    interaction: discord.Interaction[Any],
    text: str,
    *,
    private: bool = False,
    files: Sequence[discord.File] = (),
    view: discord.ui.View | None = None,
    ping: Pings = None,
) -> None:
    """Post one message for the interaction: its response, else a followup."""
    options: dict[str, Any] = {
        "content": with_mention(text, ping) or DONE,
        "allowed_mentions": mentions(ping),
        # Issue 34: a post that pings nobody wakes nobody (no push, no sound); a ping does.
        "silent": not pinged(ping),
    }
    if files:
        options["files"] = list(files)
    if view is not None:
        options["view"] = view
    if not interaction.response.is_done():
        try:
            await interaction.response.send_message(ephemeral=private, **options)
        except discord.NotFound:
            # The interaction expired (Discord waited 3 s); what happened still goes public.
            if private or interaction.channel is None:
                raise
            if files:  # read already by the refused upload: the same bytes again, from the start
                options["files"] = again(files)
            await cast("discord.abc.Messageable", interaction.channel).send(**options)
        return
    placeholder = interaction.extras.pop(PLACEHOLDER, None)
    if placeholder is None or (placeholder == private and not (ping and not private)):
        await interaction.followup.send(ephemeral=private, **options)
        return
    # Until the deferred "thinking..." message is filled, a followup only edits it: it keeps
    # its visibility, and an edit notifies nobody. So fill it first, then post ours as a new
    # message, then take a public stand-in away.
    await interaction.edit_original_response(
        content="Posted in the channel." if placeholder else "…"
    )
    await interaction.followup.send(ephemeral=private, **options)
    if not placeholder:
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            log.warning("Could not delete the deferred response of %s", interaction.id)


def again(files: Sequence[discord.File]) -> list[discord.File]:
    """Files to upload once more after a refused request: discord.py reads each one to its end
    and does not rewind it for a new request, which would post empty files (the map, a recap's
    GIF)."""
    fresh = []
    for file in files:
        file.reset()
        fresh.append(
            discord.File(
                io.BytesIO(file.fp.read()),
                filename=file.filename,
                description=file.description,
            )
        )
    return fresh


async def send_file(interaction: discord.Interaction[Any], found: FileReply) -> None:
    """A file the service made (a match record, a calendar) with its message."""
    file = discord.File(io.BytesIO(found.data), filename=found.name)
    await send(interaction, found.text, private=found.private, files=[file])


def picture_files(reply: Reply) -> list[discord.File]:
    """The reply's files: the picture, then the animation (a catch-up recap) as a second file."""
    files = []
    if reply.picture is not None:
        files.append(picture_file(reply.picture, reply.picture_name, reply.picture_alt))
    if reply.animation is not None:
        files.append(picture_file(reply.animation, reply.animation_name, reply.animation_alt))
    return files


def picture_file(data: bytes, name: str, description: str) -> discord.File:
    """A picture to upload, with its alt text (the description screen readers read)."""
    return discord.File(io.BytesIO(data), filename=name, description=alt(description))


UNKNOWN_CHANNEL = 10003  # Discord's code for a channel or thread that does not exist (404)


class ChannelGone(Exception):
    """The match's channel or thread no longer exists (Discord answered 404, code 10003)."""


async def post_to_channel(
    channel: discord.abc.Messageable,
    reply: Reply,
    *,
    match_id: int | None = None,
    view: discord.ui.View | None = None,
) -> bool:
    """A reply posted as a plain channel message, with no interaction to answer (a new thread,
    the turn timers): the one way every such message goes out (see skirmbot.cogs.delivery).
    Discord refusing it is logged once, with the match id, and False returned, so the next
    message still goes out; a channel that no longer exists raises ChannelGone."""
    ping = reply.notify()
    try:
        buttons: dict[str, Any] = {"view": view} if view is not None else {}
        await channel.send(
            with_mention(reply.text, ping) or DONE,
            files=picture_files(reply),
            allowed_mentions=mentions(ping),
            silent=not ping,  # issue 34: as `send`, a post that pings nobody wakes nobody
            **buttons,
        )
    except discord.HTTPException as error:
        where = f"channel {getattr(channel, 'id', '?')}"
        if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
            raise ChannelGone(f"{where} no longer exists") from error
        match = f"Match #{match_id}" if match_id is not None else "A match"
        log.warning("%s: Discord refused a message in %s: %s", match, where, error)
        return False
    return True


def roles_of(interaction: discord.Interaction[Any]) -> list[int]:
    """The asking member's role ids (the service checks them against a league's organiser
    roles); none in a direct message."""
    return [role.id for role in getattr(interaction.user, "roles", [])]


def guild_of(interaction: discord.Interaction[Any]) -> int:
    """The server asked in (0 in a direct message: no server's settings apply)."""
    return interaction.guild_id or 0
