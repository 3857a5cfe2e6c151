"""/match: set up a match, follow it and manage it (everything but the moves themselves)."""

from __future__ import annotations

import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot import content
from skirmbot.service import MatchRow, Member, NotAllowed, Reply, ServiceError
from skirmbot.service import recap as recaps
from skirmbot.service.matches import (
    DEFAULT_RULESET,
    SETUP,
    players_words,
    ruleset_choices,
    ruleset_title,
    seat_choices,
    shipped_choices,
)
from skirmbot.service.orderline import line_choices
from skirmbot.service.preview import preview_squares, preview_units
from skirmbot.timers.clock import (
    ACTIVATION,
    MODES,
    ON_MISS,
    ControlsError,
    TimeControls,
    controls_for,
)
from skirmbot.words import typed_key

from . import substitutes
from .buttons import answer, concede_view
from .common import (
    NAME_LENGTH,
    SQUARE_LENGTH,
    Text,
    asker,
    channel_of,
    in_time,
    player,
    post_to_channel,
    send,
    send_file,
    service_of,
)
from .inbox import (
    ANYWHERE,
    MatchNumber,
    answer_for,
    channel_named,
    in_a_server_or_named,
    match_choices,
    named_match,
    privately,
    situation_named,
)
from .play import offer
from .text import NAME_LIMIT, choice, listed, short


def time_controls(
    hours: int,
    excuses: int,
    on_miss: str,
    mode: str = ACTIVATION,
    *,
    bank: int = 72,
    increment: int = 12,
    cap: int | None = None,
    days: int = 14,
) -> TimeControls:
    """The clock `/match new` chose (the bank, increment and cap count with Fischer only, the
    days with days per player only)."""
    try:
        return controls_for(
            mode, hours, excuses, on_miss,
            bank_hours=bank, increment_hours=increment, cap_hours=cap, days=days,
        )  # fmt: skip
    except ControlsError as error:
        raise ServiceError(str(error)) from error


SQUAD_FILE_LIMIT = 64_000  # bytes; a squad file is a few kB
# A shipped squad's name, or `my:NAME` (a stored squad's name has at most 50 characters).
SquadName = app_commands.Transform[str, Text(60, "squad name")]
UnitName = app_commands.Transform[str, Text(NAME_LENGTH, "unit name")]
PreviewSquare = app_commands.Transform[str, Text(SQUARE_LENGTH, "square")]
MissionName = app_commands.Transform[str, Text(60, "mission name")]
MapName = app_commands.Transform[str, Text(60, "map name")]
OrdersLine = app_commands.Transform[str, Text(1000, "line of orders")]  # a dozen steps
SaltText = app_commands.Transform[str, Text(32, "salt")]  # the service checks what it holds


async def squad_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The shipped squads of the channel's match's ruleset that fit its points per player,
    then the asker's stored ones (my:NAME)."""
    service = service_of(interaction)
    rules = await service.ruleset_here(channel_of(interaction))
    every = shipped("squads", rules)
    costly = await service.squads_too_costly(channel_of(interaction), [c.value for c in every])
    options = [(c.value, c.name) for c in every if c.value not in costly]
    stored = await service.campaigns.squad_names(interaction.user.id)
    options += [(name, name) for name in stored]
    typed = typed_key(current)  # "iron-w" finds Iron Wardens
    return listed(
        [
            app_commands.Choice(name=short(label), value=value)
            for value, label in options
            if typed in typed_key(label)
        ]
    )


def shipped(kind: str, rules: str = DEFAULT_RULESET) -> list[app_commands.Choice[str]]:
    """The shipped maps, or a ruleset's missions/squads, as choices: their display name, their
    file name."""
    return [
        app_commands.Choice(name=short(title), value=name)
        for name, title in listed(shipped_choices(kind, rules))
    ]


async def mission_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The missions of the ruleset chosen in the same command (the default one until then)."""
    rules = str(getattr(interaction.namespace, "ruleset", None) or DEFAULT_RULESET)
    typed = typed_key(current)  # "bloody-cr" finds Bloody Crossroads
    return [choice for choice in shipped("missions", rules) if typed in typed_key(choice.name)]


async def map_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The maps of the ruleset chosen in the same command (its own maps when it keeps them: the
    infantry rules' boards of dots; else the shared maps), then the server's own of the kind it
    plays on (/map upload)."""
    rules = str(getattr(interaction.namespace, "ruleset", None) or DEFAULT_RULESET)
    typed = typed_key(current)
    guild = getattr(interaction, "guild_id", None)
    if guild is None:  # outside a server there are only the shipped maps
        return [choice for choice in shipped("maps", rules) if typed in typed_key(choice.name)]
    options = await service_of(interaction).maps.choices(guild, rules)
    return listed(
        [
            app_commands.Choice(name=short(label), value=value)
            for value, label in options
            if typed in typed_key(label)
        ]
    )


RULESETS = [app_commands.Choice(name=short(title), value=name) for name, title in ruleset_choices()]
PLAYERS = [app_commands.Choice(name=f"{count} players", value=count) for count in seat_choices()]


# Issue 34: /match is also offered in direct messages and as a user-installed app, for the
# commands that name a match (`match:`, cogs/inbox.py); every other one still needs a server
# with the bot in it (`interaction_check`).
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class Matches(
    commands.GroupCog,
    group_name="match",
    group_description="Start, follow and manage the match in this channel",
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Issue 34: outside a server with the bot (a direct message, a server the player added
        the app to for themselves), only the commands that name a match run."""
        return in_a_server_or_named(interaction, ANYWHERE)

    # --- setting up ----------------------------------------------------------------------
    @app_commands.command(
        name="new",
        description="Start a match here: challenge someone, let anyone join, or practice",
    )
    @app_commands.describe(
        opponent="Challenge this member (leave out to let anyone join)",
        ruleset="The rules to play by (default Skirm)",
        mission="The mission to play (default: the ruleset's first)",
        battle_map="The battlefield: shipped, or this server's own (default: the mission's, else the first)",
        practice="Play against the automatic player",
        thread="Open a thread for the match and play there",
        hours="Time per activation (with a bank: to deploy), 1 to 168 hours (default 24)",
        excuses="Missed deadlines forgiven per player before a miss forfeits (default 2)",
        on_miss="What a forgiven miss does (default: the activation ends where it stands)",
        clock="The clock: time per activation (default), Fischer, or days per player",
        bank="Fischer: each player's bank at the start, 1 to 1440 hours (default 72)",
        increment="Fischer: hours added to the bank after each activation (default 12)",
        cap="Fischer: the most hours a bank holds (default: the starting bank)",
        days="Days per player for the whole match, 1 to 60 (default 14)",
        salt="Your salt for the dice, up to 32 letters, digits, - _ . (default: the bot makes one)",
        players="How many players, each with a squad (default: the fewest the rules allow)",
    )
    @app_commands.rename(battle_map="map")
    @app_commands.autocomplete(mission=mission_choices, battle_map=map_choices)
    @app_commands.choices(players=PLAYERS)  # (whole numbers: not in the same call as the texts)
    @app_commands.choices(
        ruleset=RULESETS,
        on_miss=[app_commands.Choice(name=short(text), value=key) for key, text in ON_MISS.items()],
        clock=[app_commands.Choice(name=short(text), value=key) for key, text in MODES.items()],
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | None = None,
        ruleset: str = DEFAULT_RULESET,
        mission: MissionName | None = None,
        battle_map: MapName | None = None,
        practice: bool = False,
        thread: bool = False,
        hours: app_commands.Range[int, 1, 168] = 24,
        excuses: app_commands.Range[int, 0, 10] = 2,
        on_miss: str = "skip",
        clock: str = ACTIVATION,
        bank: app_commands.Range[int, 1, 1440] = 72,
        increment: app_commands.Range[int, 0, 168] = 12,
        cap: app_commands.Range[int, 1, 1440] | None = None,
        days: app_commands.Range[int, 1, 60] = 14,
        salt: SaltText | None = None,
        players: int | None = None,
    ) -> None:
        controls = time_controls(
            hours, excuses, on_miss, clock, bank=bank, increment=increment, cap=cap, days=days
        )
        if opponent is not None and practice:
            raise ServiceError(
                "Choose an opponent or practice against the automatic player, not both."
            )
        if opponent is not None and opponent.bot:
            raise ServiceError("Bots cannot play; use practice: True to play the automatic player.")
        creator = await player(interaction)
        challenged = Member(opponent.id, opponent.display_name) if opponent else None
        if not thread:
            work = service_of(interaction).create(
                interaction.guild_id or 0, channel_of(interaction), creator,
                opponent=challenged, practice=practice, mission=mission, battle_map=battle_map,
                controls=controls, rules=ruleset, salt=salt, players=players,
            )  # fmt: skip
            await answer(interaction, work)
            return
        await self._new_in_thread(
            interaction, creator, challenged, practice, mission, battle_map, controls, ruleset,
            salt, players,
        )  # fmt: skip

    async def _new_in_thread(
        self,
        interaction: discord.Interaction[Any],
        creator: Member,
        opponent: Member | None,
        practice: bool,
        mission: str | None,
        battle_map: str | None,
        controls: TimeControls,
        ruleset: str,
        salt: str | None = None,
        players: int | None = None,
    ) -> None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise ServiceError(
                "I can open a match thread from a text channel only; leave thread out here."
            )
        rival = "the automatic player" if practice else (opponent.name if opponent else "open seat")
        rival += "s" if (players or 2) > 2 and opponent is None else ""
        created = await channel.create_thread(
            name=short(f"{ruleset_title(ruleset)}: {creator.name} vs {rival}"),
            type=discord.ChannelType.public_thread,
            auto_archive_duration=10080,  # a week: play-by-post matches pause for days
        )
        try:
            reply = await service_of(interaction).create(
                interaction.guild_id or 0, created.id, creator,
                opponent=opponent, practice=practice, mission=mission, battle_map=battle_map,
                controls=controls, rules=ruleset, salt=salt, players=players,
            )  # fmt: skip
        except Exception:
            await created.delete()  # no empty thread left behind by a refused match
            raise
        await send(interaction, f"The match is on in {created.mention}.")
        for part in reply.all():
            await post_to_channel(created, part)

    @app_commands.command(name="join", description="Take an open seat of the match in this channel")
    @app_commands.describe(
        salt="Your salt for the dice, up to 32 letters, digits, - _ . (default: the bot makes one)"
    )
    async def join(
        self, interaction: discord.Interaction[Any], salt: SaltText | None = None
    ) -> None:
        member = await player(interaction)
        await answer(
            interaction, service_of(interaction).join(channel_of(interaction), member, salt)
        )

    @app_commands.command(
        name="squad", description="Field a shipped squad, or upload your own squad file"
    )
    @app_commands.describe(
        name="A shipped squad, or one of yours stored with /squad save (my:NAME)",
        file="Your squad as a JSON file",
    )
    @app_commands.autocomplete(name=squad_choices)
    async def squad(
        self,
        interaction: discord.Interaction[Any],
        name: SquadName | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        if (name is None) == (file is None):
            rules = await service_of(interaction).ruleset_here(channel_of(interaction))
            shipped_names = content.listing("squads", rules)
            raise ServiceError(
                f"Give either a shipped squad ({shipped_names}) or a squad file, not both or neither."
            )
        member = await player(interaction)
        squad: str | dict[str, Any] = name if name is not None else await read_squad_file(file)  # type: ignore[arg-type]
        await answer(
            interaction,
            service_of(interaction).choose_squad(channel_of(interaction), member, squad),
        )

    # --- following -----------------------------------------------------------------------
    @app_commands.command(name="status", description="The map and whose turn it is")
    @app_commands.describe(match="One of your matches, from anywhere (default: this channel's)")
    @app_commands.autocomplete(match=match_choices)
    async def status(
        self, interaction: discord.Interaction[Any], match: MatchNumber | None = None
    ) -> None:
        channel = await channel_named(interaction, match)
        work = service_of(interaction).status(channel)
        if match is None:
            await answer(interaction, work)
        else:  # named from elsewhere: only the asker sees it
            await answer(interaction, privately(work), private=True)

    @app_commands.command(
        name="log", description="What happened recently, every die shown (only you see it)"
    )
    @app_commands.describe(
        count="How many lines (default 25)",
        match="One of your matches, from anywhere (default: this channel's)",
    )
    @app_commands.autocomplete(match=match_choices)
    async def log(
        self,
        interaction: discord.Interaction[Any],
        count: app_commands.Range[int, 1, 200] = 25,
        match: MatchNumber | None = None,
    ) -> None:
        channel = await channel_named(interaction, match)
        await answer(interaction, service_of(interaction).log(channel, count), private=True)

    @app_commands.command(
        name="recap", description="What happened since you last acted, as a GIF and a summary"
    )
    @app_commands.describe(
        activation="Start from this activation (/match log numbers them); default: your last",
        public="Post it for the channel (default: only you see it)",
    )
    async def recap(
        self,
        interaction: discord.Interaction[Any],
        activation: app_commands.Range[int, 1, 10_000] | None = None,
        public: bool = False,
    ) -> None:
        caught_up = recaps.show(
            service_of(interaction),
            channel_of(interaction),
            await player(interaction),
            activation,
            private=not public,
        )
        await answer(interaction, caught_up, private=not public)

    @app_commands.command(
        name="rules", description="The actions of this match's rules and what they cost"
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        async def explained() -> Reply:
            text = await service_of(interaction).rules_text(channel_of(interaction))
            return Reply(text, private=True)

        await answer(interaction, explained(), private=True)

    @app_commands.command(
        name="secondary", description="Your secondary objective this turn (only you see it)"
    )
    async def secondary(self, interaction: discord.Interaction[Any]) -> None:
        member = await player(interaction)
        await answer(
            interaction,
            service_of(interaction).secondary(channel_of(interaction), member),
            private=True,
        )

    @app_commands.command(name="card", description="A unit's stat card (only you see it)")
    @app_commands.describe(unit="The unit")
    async def card(self, interaction: discord.Interaction[Any], unit: UnitName) -> None:
        await past_setup(interaction)
        await answer(
            interaction,
            service_of(interaction).card(channel_of(interaction), unit.strip()),
            private=True,
        )

    @card.autocomplete("unit")
    async def card_unit(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Both squads' units, from the deployment on."""
        try:
            units = await service_of(interaction).units(channel_of(interaction))
        except ServiceError:
            return []
        return listed(
            [
                app_commands.Choice(name=short(f"{unit} ({squad})"), value=unit)
                for unit, squad in units
                if current.casefold() in unit.casefold()
            ]
        )

    @app_commands.command(
        name="preview",
        description="Where one of your units can go and its odds (or as if on a square); only you see it",
    )
    @app_commands.describe(
        unit="Your unit (default: the one activating)",
        square="Preview it as if it stood on this square (default: where it stands)",
        match="One of your matches, to preview from anywhere (default: this channel's)",
    )
    @app_commands.autocomplete(match=match_choices)
    async def preview(
        self,
        interaction: discord.Interaction[Any],
        unit: UnitName | None = None,
        square: PreviewSquare | None = None,
        match: MatchNumber | None = None,
    ) -> None:
        member = await player(interaction)
        channel = await channel_named(interaction, match)
        work = service_of(interaction).preview(channel, member, unit, square)
        await answer(interaction, work, private=True)

    @preview.autocomplete("unit")
    async def preview_unit(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        found = await situation_named(interaction)
        return [] if found is None else offer(preview_units(found), current)

    @preview.autocomplete("square")
    async def preview_square(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        found = await situation_named(interaction)
        unit = str(getattr(interaction.namespace, "unit", "") or "") or None
        return [] if found is None else offer(preview_squares(found, unit), current)

    @app_commands.command(
        name="export", description="The match record as a file (replay it with skirmbot replay)"
    )
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        """Once the match is over, the whole record for the channel; before, the record so far
        (the dice rolled so far, never the key) for the asker only (issue 11)."""
        member = await player(interaction)
        exported = service_of(interaction).export_record(channel_of(interaction), member)
        await send_file(interaction, await in_time(interaction, exported))

    # --- managing ------------------------------------------------------------------------
    @app_commands.command(
        name="standing",
        description="Standing orders: spend TO on your failed saves while you are away",
    )
    @app_commands.describe(
        reroll_saves="Re-roll failed saves with TO when your squad has more than `above` TO",
        above="Keep at least this many TO for your own activations (default 0)",
        per_attack="Skirm Lite: at most this many TO per attack, the cheapest way (-1, -2, else re-roll)",
        defend="d20: add up to this many of your bonus dice to a defence roll without being asked",
        prompt="d20, group rules: ask me (defence dice; whether to test Defiant/Elusive) instead",
        defiant="The group rules: when attacked, test Defiant without being asked (default on)",
        elusive="The group rules: when attacked, test Elusive without being asked (default on)",
    )
    async def standing(
        self,
        interaction: discord.Interaction[Any],
        reroll_saves: bool | None = None,
        above: app_commands.Range[int, 0, 20] = 0,
        per_attack: app_commands.Range[int, 1, 20] | None = None,
        defend: app_commands.Range[int, 0, 6] | None = None,
        prompt: bool | None = None,
        defiant: bool | None = None,
        elusive: bool | None = None,
    ) -> None:
        member = await player(interaction)
        service, channel = service_of(interaction), channel_of(interaction)
        # The standing orders of the rules whose orders are their own (d20: bonus dice on
        # defence rolls; the group rules: interrupts): the service asks the match's ruleset
        # which of these it takes.
        given = {
            name: value
            for name, value in (
                ("defend", defend), ("prompt", prompt), ("defiant", defiant), ("elusive", elusive)
            )
            if value is not None
        }  # fmt: skip
        if given:
            work = service.own_standing_orders(channel, member, given)
            await answer(interaction, work, private=True)
            return
        if reroll_saves is None:
            raise ServiceError(
                "Give your standing orders: reroll_saves (with above, per_attack) for saves, "
                "defend (or prompt) for the d20 rules' defence rolls, or defiant, elusive (or "
                "prompt) for the group rules' interrupts."
            )
        work = service.standing_orders(channel, member, above if reroll_saves else None, per_attack)
        await answer(interaction, work, private=True)

    @app_commands.command(
        name="orders",
        description="A whole activation in one line: Halden move C5; shoot Kor with Oathkeeper; end",
    )
    @app_commands.describe(
        line="Steps separated by ';', the unit named first; stops at a refused step or a roll",
        match="One of your matches, to give orders from anywhere (default: this channel's)",
    )
    @app_commands.autocomplete(match=match_choices)
    async def orders(
        self,
        interaction: discord.Interaction[Any],
        line: OrdersLine,
        match: MatchNumber | None = None,
    ) -> None:
        member = await player(interaction)
        named = await named_match(interaction, match)
        channel = channel_of(interaction) if named is None else named.channel_id
        work = service_of(interaction).orders(channel, member, line)
        await answer_for(interaction, named, work)

    @orders.autocomplete("line")
    async def orders_line(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """What the line can go on with: the asker's units and what each can do now."""
        found = await situation_named(interaction)
        if found is None:
            return []
        offered = [text for text in line_choices(found, current) if len(text) <= NAME_LIMIT]
        return listed([choice(text, text) for text in offered])

    @app_commands.command(name="concede", description="Concede the match (asks you to confirm)")
    async def concede(self, interaction: discord.Interaction[Any]) -> None:
        service, member = service_of(interaction), asker(interaction)
        row, _ = await service.view(channel_of(interaction))
        seats = len(row.players)
        if service.side_of(row, member) is None:
            raise NotAllowed(f"Only the {players_words(seats)} of this match can concede it.")
        then = await service.conceding_means(channel_of(interaction), member)
        text = f"Concede match #{row.id}? {then}. This cannot be undone."
        await send(interaction, text, private=True, view=concede_view(row.id))

    @app_commands.command(name="draw", description="Offer a draw, or accept your opponent's offer")
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        row = await past_setup(interaction)
        if None in row.players:
            nobody = row.players.count(None) == len(row.players) - 1
            who = "Nobody has joined this match yet" if nobody else "Not every seat is taken yet"
            raise ServiceError(f"{who}; /match concede calls it off.")
        member = await player(interaction)
        await answer(
            interaction, service_of(interaction).accept_draw(channel_of(interaction), member)
        )

    @app_commands.command(
        name="undo",
        description="Ask to take back your last action, or agree to your opponent's request",
    )
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        service, member, channel = (
            service_of(interaction),
            await player(interaction),
            channel_of(interaction),
        )
        row = await past_setup(interaction)
        asked = row.setup.get("undo")  # an open request (see the service's request_undo)
        if asked is not None and asked.get("side") != service.side_of(row, member):
            await answer(interaction, service.accept_undo(channel, member))
        else:
            await answer(interaction, service.request_undo(channel, member))

    @app_commands.command(
        name="abort", description="Moderators: call off the match in this channel"
    )
    async def abort(self, interaction: discord.Interaction[Any]) -> None:
        member = await player(interaction)
        await answer(interaction, service_of(interaction).abort(channel_of(interaction), member))

    # --- substitutes (issue 34) ---------------------------------------------------------------
    @app_commands.command(
        name="substitute",
        description="Moderators, organisers: hand a player's seat to a member; players: ask for one",
    )
    @app_commands.describe(
        member="Who takes the seat (a player asking: who they would like)",
        seat_of="Moderators, organisers: whose seat goes on (default: yours)",
    )
    async def substitute(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        seat_of: discord.Member | None = None,
    ) -> None:
        await substitutes.substitute(interaction, member, seat_of)

    @app_commands.command(
        name="modrole", description="Manage Server: name the role whose members may abort matches"
    )
    @app_commands.describe(role="The moderators' role (leave out to clear it)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def modrole(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        guild = interaction.guild_id or 0
        await service_of(interaction).set_moderator_role(guild, role.id if role else None)
        text = (
            f"Members with {role.mention} may now abort matches."
            if role
            else "The moderator role is cleared."
        )
        await send(interaction, text + " (Manage Server always may.)", private=True)


async def past_setup(interaction: discord.Interaction[Any]) -> MatchRow:
    """The channel's match, refused while still in set-up. Work-around: the service's card, log,
    request_undo and accept_draw fail (or offer a draw to nobody) before both squads are in."""
    row, _ = await service_of(interaction).view(channel_of(interaction))
    if row.status == SETUP:
        raise ServiceError(
            "The match has not started: both players pick a squad first (/match squad)."
        )
    return row


async def read_squad_file(file: discord.Attachment) -> dict[str, Any]:
    """An uploaded squad: JSON object, with an error that says what is wrong and where."""
    if file.size > SQUAD_FILE_LIMIT:
        raise ServiceError(
            f"{file.filename} is {file.size} bytes; a squad file is at most {SQUAD_FILE_LIMIT}."
        )
    raw = await file.read()
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise ServiceError(
            f"{file.filename} is not a text file; upload the squad as JSON."
        ) from error
    except json.JSONDecodeError as error:
        raise ServiceError(
            f"{file.filename} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}."
        ) from error
    if not isinstance(data, dict):
        raise ServiceError(f"{file.filename} must hold one JSON object with a name and units.")
    return data


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Matches(bot))
