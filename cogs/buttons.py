"""The service's replies posted with their buttons (`answer`, `post`), and the persistent
buttons themselves: End activation, Preview (the activating unit's options, only for its
player), Accept / Re-roll after a roll, Accept draw, Agree to undo, Concede, and "Spend N TO"
when an action needs Tactical Orders. (Both live here: a button's click is answered with
replies that may carry buttons again; the rest of answering is in `common`.)

Every button is a `DynamicItem`: all it needs is in its custom_id, so a button on a message
posted before a restart still works (discord.py matches the id against the template, no view
has to be kept in memory). Ids look like `skirm:end:<match>:<at>`, `skirm:reroll:<match>:<die>:<at>`,
`skirm:draw:<match>`, `skirm:undo:<match>:<at>`, `skirm:spend:<match>:<at>:<command>`,
`skirm:preview:<match>:<at>`; `<at>`
is how far the match was when the button was posted (`service.moment`: the commands accepted,
an undo moving it on too), so a button from before the match moved on says it expired instead
of acting on a different situation (an undo button from before undo buttons carried `<at>`,
`skirm:undo:<match>`, still works).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Coroutine, Sequence
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.ext import commands

from skirmbot.service import (
    MatchService,
    Member,
    NeedsConfirmation,
    NotAllowed,
    Reply,
    ServiceError,
    actions,
    moment,
)

from .common import (
    ChannelGone,
    channel_of,
    in_time,
    picture_files,
    player,
    post_to_channel,
    send,
    service_of,
)
from .text import COMPONENTS_LIMIT, CUSTOM_ID_LIMIT

if TYPE_CHECKING:
    from skirmbot.bot import SkirmBot

log = logging.getLogger("skirmbot.discord")

SAVED = "saved"  # spend payload too long for an id: kept in the guild's settings instead
ENDED = (
    "This button belongs to a match that has ended. "
    "Use /match status to see what is going on in this channel now."
)
MOVED_ON = (
    "This button has expired: the match has moved on since it was posted. "
    "Use /match status to see where it stands."
)
LABELS = {
    "end": ("End activation", discord.ButtonStyle.primary),
    "accept": ("Accept roll", discord.ButtonStyle.success),
    "reroll": ("Re-roll die {arg} (1 TO)", discord.ButtonStyle.secondary),
    "draw": ("Accept draw", discord.ButtonStyle.success),
    "undo": ("Agree to undo", discord.ButtonStyle.secondary),
    "concede": ("Concede the match", discord.ButtonStyle.danger),
    "spend": ("Spend {arg} TO", discord.ButtonStyle.primary),
    "preview": ("Preview", discord.ButtonStyle.secondary),
    "fire": ("Fire: {arg}'s arc", discord.ButtonStyle.danger),
    "hold": ("Hold: {arg}'s arc", discord.ButtonStyle.secondary),
}
# Which buttons are tied to the exact moment they were posted (see <at> above). An undo
# request is too: an old "Agree to undo" must not agree to a later request.
# A Preview button shows the unit activating when it was posted, so it is timed too.
# A Fire or Hold button answers the one chance it was posted for (an arc owner's, infantry).
TIMED = {"end", "accept", "reroll", "spend", "undo", "preview", "fire", "hold"}


class MatchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"skirm:(?P<action>[a-z]+):(?P<match>[0-9]+)(?::(?P<rest>.*))?",
):
    def __init__(
        self,
        action: str,
        match_id: int,
        rest: str | None = None,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        custom_id = f"skirm:{action}:{match_id}" + (f":{rest}" if rest is not None else "")
        super().__init__(discord.ui.Button(label=label or action, style=style, custom_id=custom_id))
        self.action, self.match_id, self.rest = action, match_id, rest

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> MatchButton:
        button = item if isinstance(item, discord.ui.Button) else None
        return cls(
            match["action"],
            int(match["match"]),
            match["rest"],
            label=button.label if button else None,
            style=button.style if button else discord.ButtonStyle.secondary,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.click(interaction)
        except Exception as error:  # handed to the one error handler, as commands' errors are
            await interaction.client.tree.on_error(interaction, error)

    async def click(self, interaction: discord.Interaction[Any]) -> None:
        service, channel = service_of(interaction), channel_of(interaction)
        member = await player(interaction)
        try:
            row, _ = await service.view(channel)
        except ServiceError:
            raise ServiceError(ENDED) from None
        if row.id != self.match_id:
            raise ServiceError(ENDED)
        if service.side_of(row, member) is None:
            players = _together([name for name in row.names if name]) or "its players"
            raise NotAllowed(f"These buttons are for {players}, who play this match.")
        arg, at = self._parts()
        if at is not None and at != moment(row):
            raise ServiceError(MOVED_ON)
        work = await self._work(interaction, service, channel, member, arg)
        await answer(interaction, work)

    def _parts(self) -> tuple[str | None, int | None]:
        """(argument, record length) from the id's tail, per the action's id layout."""
        rest = self.rest
        if self.action not in TIMED:
            return rest, None
        if rest is None:
            return None, None
        if self.action == "spend":
            at, _, payload = rest.partition(":")
            return payload, _int(at)
        arg, _, at = rest.rpartition(":")
        return (arg or None), _int(at)

    async def _work(
        self,
        interaction: discord.Interaction[Any],
        service: MatchService,
        channel: int,
        member: Member,
        arg: str | None,
    ) -> Coroutine[Any, Any, Reply]:
        action = self.action
        if action == "end":
            return service.act(channel, member, actions.EndActivation(0))
        if action == "accept":
            return service.act(channel, member, actions.Accept(0))
        if action == "reroll" and arg is not None and arg.isdigit():
            return service.act(channel, member, actions.Reroll(0, int(arg)))
        if action == "draw":  # accepts only: an offer that lapsed is not offered back
            return service.accept_draw(channel, member, offer_if_none=False)
        if action == "undo":
            return service.accept_undo(channel, member)
        if action == "concede":
            return service.concede(channel, member)
        if action == "preview":  # the activating unit's options, for its player only
            return service.preview(channel, member)
        if action == "spend" and arg is not None:
            command = await _spend_command(interaction, self.match_id, arg)
            return service.act(channel, member, command)
        if action in ("fire", "hold") and arg is not None:  # an arc owner's live answer
            answer = actions.own_command("fire", owner=arg, fire=action == "fire")
            return service.act(channel, member, answer)
        raise ServiceError(
            "This button is from an older version of the bot; use the slash command instead."
        )


def _together(names: list[str]) -> str:
    """`Ada`, `Ada and Bo`, `Ada, Bo and Cy`."""
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def _int(text: str) -> int | None:
    return int(text) if text.isdigit() else None


# --- posting replies with their buttons ------------------------------------------------------
async def answer(
    interaction: discord.Interaction[Any],
    work: Coroutine[Any, Any, Reply],
    *,
    private: bool = False,
) -> None:
    """Run a service call and post its reply and followups (the automatic player's turns)."""
    reply = await in_time(interaction, work, private=private)
    await post(interaction, reply.all())


async def post(interaction: discord.Interaction[Any], replies: Sequence[Reply]) -> None:
    """Post the replies in order, each with the buttons of its choices; one meant for another
    channel goes there."""
    anchor = await _anchor(interaction) if any(reply.choices for reply in replies) else None
    for index, reply in enumerate(replies):
        if reply.channel is not None and reply.channel != interaction.channel_id:
            await _post_elsewhere(interaction, reply)
            continue
        view = choice_view(reply.choices, *anchor) if anchor and reply.choices else None
        try:
            await send(
                interaction,
                reply.text,
                private=reply.private,
                files=picture_files(reply),
                view=view,
                ping=reply.notify(),  # 0 is the automatic player: nobody to notify
            )
        except discord.HTTPException as error:
            if index == 0:
                raise  # the answer itself: the error handler tells the player
            # A followup (the automatic player's turn, the match's end): the match is saved
            # already; the next message still goes out.
            where = await _match_label(interaction)
            log.warning(
                "%s: Discord refused message %d of %s: %s", where, index + 1, interaction.id, error
            )


async def _post_elsewhere(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """A reply meant for another channel (a league match's thread): posted there if the bot
    can still reach it; a thread since deleted is skipped (its match was abandoned with it)."""
    target = interaction.client.get_channel(reply.channel or 0)
    if target is None:
        with contextlib.suppress(discord.HTTPException):
            target = await interaction.client.fetch_channel(reply.channel or 0)
    if isinstance(target, discord.abc.Messageable):
        with contextlib.suppress(ChannelGone):
            await post_to_channel(target, reply)


async def _match_label(interaction: discord.Interaction[Any]) -> str:
    """The match for the log, as `Match #12` (the channel's match or its last one)."""
    match_id = await service_of(interaction).last_match_id(interaction.channel_id or 0)
    return f"Match #{match_id}" if match_id is not None else f"Channel {interaction.channel_id}"


async def _anchor(interaction: discord.Interaction[Any]) -> tuple[int, int] | None:
    """(match id, record length) that buttons carry, so an old button can tell it is stale."""
    try:
        row, _ = await service_of(interaction).view(channel_of(interaction))
    except ServiceError:
        return None
    return row.id, moment(row)


# --- building buttons ------------------------------------------------------------------------
def button(action: str, match_id: int, rest: str | None = None, arg: object = "") -> MatchButton:
    label, style = LABELS[action]
    return MatchButton(action, match_id, rest, label=label.format(arg=arg), style=style)


def choice_view(choices: list[str], match_id: int, at: int) -> discord.ui.View | None:
    """Buttons for the service's `Reply.choices` ("end", "preview", "accept", "reroll:2", "draw",
    "undo")."""
    view = discord.ui.View(timeout=None)
    for choice in choices[:COMPONENTS_LIMIT]:
        name, _, arg = choice.partition(":")
        if name in ("end", "accept", "undo", "preview"):
            view.add_item(button(name, match_id, str(at)))
        elif (name == "reroll" and arg.isdigit()) or (name in ("fire", "hold") and arg):
            view.add_item(button(name, match_id, f"{arg}:{at}", arg))
        elif name == "draw":
            view.add_item(button(name, match_id))
        else:
            log.debug("No button for the choice %r", choice)
    return view if view.children else None


def concede_view(match_id: int) -> discord.ui.View:
    return discord.ui.View(timeout=None).add_item(button("concede", match_id))


async def spend_view(
    interaction: discord.Interaction[Any], error: NeedsConfirmation
) -> discord.ui.View | None:
    """The "Spend N TO" button that sends `error.retry` again for the same player."""
    try:
        row, _ = await service_of(interaction).view(channel_of(interaction))
    except ServiceError:
        return None
    orders = getattr(error.retry, "orders", 0)
    payload = actions.encode(error.retry)
    rest = f"{moment(row)}:{payload}"
    if len(f"skirm:spend:{row.id}:{rest}") > CUSTOM_ID_LIMIT:
        # A long unit or weapon name: the service keeps the action, for this match and player
        # (it survives a restart like the button does).
        await service_of(interaction).keep_action(
            _guild(interaction), row.id, interaction.user.id, payload
        )
        rest = f"{moment(row)}:{SAVED}"
    return discord.ui.View(timeout=None).add_item(button("spend", row.id, rest, orders))


async def _spend_command(
    interaction: discord.Interaction[Any], match_id: int, payload: str
) -> actions.Command:
    if payload == SAVED:
        saved = await service_of(interaction).kept_action(
            _guild(interaction), match_id, interaction.user.id
        )
        if saved is None:
            raise ServiceError(MOVED_ON)
        payload = saved
    try:
        return actions.decode(payload)
    except ValueError as error:
        log.warning("Unreadable spend button %r: %s", payload, error)
        raise ServiceError(MOVED_ON) from error


def _guild(interaction: discord.Interaction[Any]) -> int:
    return interaction.guild_id or 0


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(MatchButton)
    # Saved "Spend N TO" commands go when their match ends; sweep those left from before.
    swept = await cast("SkirmBot", bot).service.sweep_kept_actions()
    if swept:
        log.info("Deleted %d saved button commands of matches that are over", swept)


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(MatchButton)
