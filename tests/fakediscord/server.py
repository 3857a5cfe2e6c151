"""A small aiohttp server on 127.0.0.1 that plays Discord for one bot, one guild, one channel.

It is a test double, not a Discord implementation: it answers the REST routes discord.py 2.7 uses
at login, command sync and interaction replies, and runs a gateway that says HELLO, accepts
IDENTIFY, sends READY and one GUILD_CREATE and acknowledges heartbeats. Tests inject interactions
(slash commands, autocomplete, button clicks) and wait for what the bot answers: the interaction
callback, followups, edits and channel messages, with attached files kept as bytes.

Unknown routes answer 404 with a JSON body and are recorded in `unknown`, so a test can say what
the fake was missing. Every request is recorded in `requests`.

What discord.py needs that is easy to miss (checked against discord.py 2.7.1):
- it connects to `DiscordWebSocket.DEFAULT_GATEWAY` with `?v=10&encoding=json&compress=zlib-stream`
  (`zstd-stream` when a zstd module is importable) and does not call GET /gateway/bot; plain
  text frames are accepted whatever `compress` says, so the fake never compresses;
- READY's `resume_gateway_url` replaces the gateway URL for every later reconnect, so it must
  point back here;
- a REST body is JSON only with Content-Type exactly `application/json` (no charset);
- login is GET /users/@me (401 means a bad token) then GET /oauth2/applications/@me;
- interaction callbacks are POSTed with `?with_response=1` and must answer an
  InteractionCallbackResponse (`interaction.response_message_id`, `resource.message`); views
  are stored under that message id, which button clicks must carry back in `message.id`;
- an interaction payload needs `version`, `application_id`, `attachment_size_limit` and a
  `channel` object; a member needs `roles` and `flags`; guild commands need `data.guild_id`;
- after a "thinking" defer (callback type 5) the first followup replaces the placeholder;
- `Client.close()` closes the gateway with code 4000, not 1000 (its reader task answers the
  close first); a killed bot leaves no close frame (1006).

Tests can also catch the bot mid-request (`hold`) and upload files with a command
(`Attachment` option values, served back from the fake's own /attachments URLs).

And Discord refusing messages, as it answers them (issue 11):
- `dms_closed`: user ids whose direct messages are closed to the bot. Opening the DM channel
  works; sending in it answers 403 `{"code": 50007, "message": "Cannot send messages to this
  user"}`, as real Discord does.
- `delete_channel(id)`: the channel or thread is gone (THREAD_DELETE / CHANNEL_DELETE is sent
  on the gateway); every later request for it answers 404 `{"code": 10003, "message":
  "Unknown Channel"}`.
Each refusal is kept in `refusals` as (method, path, status, code).

And shards, for a bot run as several processes (each one a range of shards):
- `add_guild` adds a guild (with one text channel) whose id puts it on a chosen shard, as
  Discord has it: shard = (guild_id >> 22) % shard_count. `shard_count` is what
  `GET /gateway/bot` recommends (1 unless a test sets it).
- every gateway connection is a `Session` in `sessions`; an IDENTIFY with `shard: [id, count]`
  makes it that shard's session (a shard id outside 0..count-1 is closed with 4010, "Invalid
  shard"), READY carries the `shard` back and only that shard's guilds, and a GUILD_CREATE
  follows for each of them. A session identified without `shard` gets every guild.
- an event about a guild (`guild_id` in its data: interactions, threads, channel deletes)
  goes to the newest open session whose shard owns the guild; an event without a guild goes
  to shard 0's, as Discord sends direct messages. `Interaction.session` is the session that
  got it, so a test can tell which process answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

# Permission bits (as Discord's decimal strings are built from them).
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
MANAGE_GUILD = 1 << 5  # for a moderator: User(..., permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
MEMBER_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = MEMBER_PERMISSIONS

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SILENT = 1 << 12  # SUPPRESS_NOTIFICATIONS: posted without a push or a sound (issue 34)

_ids = itertools.count(1_300_000_000_000_000_001)


def snowflake() -> int:
    return next(_ids)


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only if Content-Type is exactly "application/json":
    # aiohttp's json_response adds "; charset=utf-8", and the bot would get a string.
    body = json.dumps(data).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00", time.gmtime())


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to."""
    return (guild_id >> 22) % shard_count


def guild_id_on(shard: int, shard_count: int) -> int:
    """A new snowflake whose guild would be on `shard` of `shard_count`."""
    # Snowflakes from `snowflake()` differ only in their low bits, so they sit on one shard:
    # move the high part (the "timestamp" Discord shards by) up to the wanted shard instead.
    base = snowflake()
    high = base >> 22
    high += (shard - high) % shard_count
    return (high << 22) | (base & ((1 << 22) - 1))


@dataclass
class Guild:
    """A guild of the fake and its one text channel."""

    id: int
    name: str
    channel_id: int


@dataclass
class Session:
    """One gateway connection (one shard of one bot process, or a whole unsharded bot)."""

    ws: web.WebSocketResponse
    number: int  # 0, 1, ... in the order the sessions connected
    shard: tuple[int, int] | None = None  # (id, count) from IDENTIFY; None: unsharded
    identify: dict[str, Any] | None = None
    guild_ids: list[int] = field(default_factory=list)  # the guilds READY announced
    events: list[str] = field(default_factory=list)  # every dispatch sent, by name
    seq: int = 0

    @property
    def open(self) -> bool:
        return not self.ws.closed

    def owns(self, guild_id: int) -> bool:
        """Does Discord send this guild's events to this session?"""
        return self.shard is None or shard_of(guild_id, self.shard[1]) == self.shard[0]


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    permissions: int = MEMBER_PERMISSIONS

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member_json(self, with_permissions: bool = False) -> dict[str, Any]:
        member = {
            "user": self.to_json(),
            "roles": [],
            "nick": None,
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
        }
        if with_permissions:
            member["permissions"] = str(self.permissions)
        return member


@dataclass
class Attachment:
    filename: str
    data: bytes
    description: str | None = None  # the alt text screen readers read (payload attachments[n])
    id: int = field(default_factory=snowflake)

    @property
    def picture(self) -> bool:
        return self.data.startswith((b"\x89PNG", b"GIF8"))

    def to_json(self, base_url: str) -> dict[str, Any]:
        """As Discord lists it; the URL is served by the fake, so the bot can download it."""
        url = f"{base_url}/attachments/{self.id}/{self.filename}"
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
        }


@dataclass
class Message:
    """A message the bot created (reply, followup or channel message), as the fake keeps it."""

    id: int
    channel_id: int
    route: str  # "callback", "followup" or "channel"
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    attachments: list[Attachment] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None
    interaction: Interaction | None = None
    edits: int = 0
    created: float = field(default_factory=time.time)  # when the fake took it (real time)

    @property
    def pings(self) -> set[int]:
        """Users Discord would notify: mentioned in the content and allowed to be pinged."""
        mentioned = {int(found) for found in re.findall(r"<@!?([0-9]+)>", self.content)}
        allowed = self.allowed_mentions
        if allowed is None or "users" in allowed.get("parse", []):
            return mentioned
        return mentioned & {int(user) for user in allowed.get("users", [])}

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def silent(self) -> bool:
        """Sent with the suppress-notifications flag (discord.py's `silent=True`)."""
        return bool(self.flags & SILENT)

    @property
    def text(self) -> str:
        """Content and embed text in one string, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [f"{f.get('name', '')}: {f.get('value', '')}" for f in embed.get("fields", [])]
            parts.append((embed.get("footer") or {}).get("text", ""))
        parts += _component_texts(self.components)
        return "\n".join(p for p in parts if p)

    @property
    def pngs(self) -> list[Attachment]:
        return [a for a in self.attachments if a.data.startswith(b"\x89PNG")]

    def buttons(self) -> dict[str, str]:
        """custom_id -> label of every button on the message."""
        found: dict[str, str] = {}

        def walk(components: list[dict[str, Any]]) -> None:
            for c in components:
                if c.get("type") == 2 and "custom_id" in c:
                    found[c["custom_id"]] = c.get("label") or ""
                walk(c.get("components", []))
                if isinstance(c.get("accessory"), dict):
                    walk([c["accessory"]])

        walk(self.components)
        return found

    def update(self, payload: dict[str, Any], files: list[Attachment]) -> None:
        for key in ("content", "embeds", "components", "flags", "allowed_mentions"):
            if key in payload and payload[key] is not None:
                setattr(self, key, payload[key])
        if "attachments" in payload or files:
            kept = {str(a.get("id")) for a in payload.get("attachments") or []}
            self.attachments = [a for a in self.attachments if str(a.id) in kept] + files
        self.flags &= ~LOADING
        self.edits += 1


def _component_texts(components: list[dict[str, Any]]) -> list[str]:
    texts = []
    for c in components:
        if c.get("type") == 10:  # components v2 text display
            texts.append(c.get("content", ""))
        texts += _component_texts(c.get("components", []))
    return texts


@dataclass
class Interaction:
    """One interaction the test sent, and everything the bot answered to it."""

    id: int
    token: str
    payload: dict[str, Any]
    callback: dict[str, Any] | None = None  # {"type": N, "data": {...}}
    messages: list[Message] = field(default_factory=list)
    original: Message | None = None
    session: Session | None = None  # the gateway session (shard, process) it was sent to

    @property
    def callback_type(self) -> int | None:
        return None if self.callback is None else self.callback["type"]

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (callback type 8)."""
        return ((self.callback or {}).get("data") or {}).get("choices", [])

    @property
    def text(self) -> str:
        return "\n".join(m.text for m in self.messages)

    @property
    def pngs(self) -> list[Attachment]:
        return [a for m in self.messages for a in m.pngs]


class FakeDiscord:
    """One bot user and application, one guild with one text channel and three human members
    (carol makes a third player for a league); `add_guild` adds more guilds, on any shard."""

    def __init__(self, token: str = "fake") -> None:
        self.token = token
        self.application_id = snowflake()
        self.bot = User(self.application_id, "skirmbot", bot=True, permissions=BOT_PERMISSIONS)
        self.alice = User(snowflake(), "alice")
        self.bob = User(snowflake(), "bob")
        self.carol = User(snowflake(), "carol")
        self.channels: dict[int, dict[str, Any]] = {}
        self.guilds: dict[int, Guild] = {}
        first = self._add_guild(snowflake(), "Skirm club")
        self.guild_id, self.channel_id = first.id, first.channel_id
        self.shard_count = 1  # what GET /gateway/bot recommends
        self.commands: list[dict[str, Any]] = []  # the last synced command list
        self.command_syncs = 0
        self.identifies: list[dict[str, Any]] = []  # IDENTIFY payloads, one per gateway session
        self.ready_at: list[float] = []  # time.monotonic() when each READY + GUILD_CREATE went out
        self.gateway_queries: list[dict[str, str]] = []
        self.gateway_close_codes: list[int | None] = []
        self.requests: list[tuple[str, str]] = []
        self.unknown: list[tuple[str, str]] = []
        self.messages: dict[int, Message] = {}
        self.interactions: dict[str, Interaction] = {}  # by token
        self.uploads: dict[int, Attachment] = {}  # files a test attached to a slash command
        self.dms_closed: set[int] = set()  # users whose DMs refuse the bot (403, code 50007)
        self.deleted: set[int] = set()  # channels and threads deleted (404, code 10003)
        self.refusals: list[tuple[str, str, int, int]] = []  # (method, path, status, code)
        self.sessions: list[Session] = []  # every gateway connection, in order
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        # While this is an unset Event, every REST request is recorded and then left waiting
        # for it (10 s at most) before it is answered: a test kills the bot meanwhile.
        self.hold: asyncio.Event | None = None
        self.port = 0

    def add_guild(self, name: str, shard: int = 0, shard_count: int = 1) -> Guild:
        """A new guild with one text channel, on `shard` of `shard_count` (its id puts it
        there). Add guilds before the bot connects: a bot already connected is not told."""
        return self._add_guild(guild_id_on(shard, shard_count), name)

    def _add_guild(self, guild_id: int, name: str) -> Guild:
        guild = Guild(guild_id, name, snowflake())
        self.guilds[guild.id] = guild
        self.channels[guild.channel_id] = {
            "id": str(guild.channel_id),
            "type": 0,
            "guild_id": str(guild.id),
            "name": "skirm",
            "position": 0,
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "permission_overwrites": [],
            "last_message_id": None,
        }
        return guild

    def _guild_of_channel(self, channel_id: int) -> int:
        """The guild a channel or thread is in (the first guild for DMs and unknown ones, as
        the fake always answered)."""
        guild_id = (self.channels.get(channel_id) or {}).get("guild_id")
        return int(guild_id) if guild_id else self.guild_id

    def session_of(self, guild_id: int) -> Session | None:
        """The open session Discord would send the guild's events to (the newest, if a bot
        restarted and the old connection is not closed yet)."""
        owners = [s for s in self.sessions if s.open and s.owns(guild_id)]
        return owners[-1] if owners else None

    # --- lifecycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        app.router.add_get("/attachments/{id}/{filename}", self._attachment)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        for session in self.sessions:
            if session.open:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # --- waiting -----------------------------------------------------------------------------
    async def _touch(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_until(
        self, predicate: Callable[[], Any], what: str, timeout: float = 10.0
    ) -> Any:
        """Wait until predicate() is truthy and return its value; fail with the fake's view."""

        async def waiter() -> Any:
            async with self._changed:
                while not (value := predicate()):
                    # Woken by every request and gateway event; also look again now and then,
                    # for predicates on things the fake does not see (the bot process exiting).
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), 0.2)
                return value

        try:
            return await asyncio.wait_for(waiter(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"fake Discord: timed out after {timeout}s waiting for {what}\n{self.report()}"
            ) from None

    def report(self) -> str:
        recent = "\n".join(f"  {m} {p}" for m, p in self.requests[-15:])
        return f"last requests:\n{recent}\nunknown routes: {self.unknown}"

    @property
    def connected(self) -> bool:
        return any(session.open for session in self.sessions)

    # --- gateway -----------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.gateway_queries.append(dict(request.query))
        session = Session(ws, len(self.sessions))
        self.sessions.append(session)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for frame in ws:
            if frame.type != WSMsgType.TEXT:
                continue
            message = json.loads(frame.data)
            op, data = message.get("op"), message.get("d")
            if op == 1:  # heartbeat
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif op == 2:  # identify
                if data.get("token") != self.token:
                    await ws.close(code=4004, message=b"Authentication failed.")
                    break
                if not self._valid_shard(data.get("shard")):
                    await ws.close(code=4010, message=b"Invalid shard.")
                    break
                await self._ready(session, data)
            elif op == 6:  # resume: sessions are not kept, ask for a fresh IDENTIFY
                await ws.send_json({"op": 9, "d": False, "s": None, "t": None})
            elif op == 8:  # request guild members
                chunk = self._members_chunk(data)
                await self.dispatch("GUILD_MEMBERS_CHUNK", chunk, session=session)
        self.gateway_close_codes.append(ws.close_code)
        await self._touch()
        return ws

    @staticmethod
    def _valid_shard(shard: Any) -> bool:
        """No shard (the whole bot), or [id, count] with 0 <= id < count."""
        if shard is None:
            return True
        return (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) for n in shard)
            and 0 <= shard[0] < shard[1]
        )

    async def _ready(self, session: Session, identify: dict[str, Any]) -> None:
        shard = identify.get("shard")
        session.shard = None if shard is None else (shard[0], shard[1])
        session.identify = identify
        session.guild_ids = [g for g in self.guilds if session.owns(g)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**self.bot.to_json(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g), "unavailable": True} for g in session.guild_ids],
            "session_id": f"session-{snowflake()}",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "_trace": ["fakediscord"],
        }
        if shard is not None:  # discord.py's sharded client reads READY's shard id
            ready["shard"] = shard
        await self.dispatch("READY", ready, session=session)
        for guild_id in session.guild_ids:
            await self.dispatch("GUILD_CREATE", self._guild_json(guild_id), session=session)
        self.ready_at.append(time.monotonic())
        self.identifies.append(identify)
        await self._touch()

    async def dispatch(
        self, event: str, data: dict[str, Any], session: Session | None = None
    ) -> Session:
        """Send a gateway DISPATCH to the bot: to `session`, or else to the session whose
        shard owns the event's guild (no guild: shard 0, like a DM). Returns the session."""
        guild_id = int(data.get("guild_id") or 0)
        target = session or self.session_of(guild_id)
        if target is None or not target.open:
            where = f" (no open session has the shard of guild {guild_id})" if guild_id else ""
            raise AssertionError(
                f"fake Discord: cannot send {event}, the bot is not connected{where}"
            )
        target.seq += 1
        target.events.append(event)
        await target.ws.send_json({"op": 0, "t": event, "s": target.seq, "d": data})
        return target

    def _guild_json(self, guild_id: int) -> dict[str, Any]:
        def here(channel: dict[str, Any], kind: int) -> bool:
            return channel["type"] == kind and channel.get("guild_id") == str(guild_id)

        return {
            "id": str(guild_id),
            "name": self.guilds[guild_id].name,
            "owner_id": str(self.alice.id),
            "unavailable": False,
            "large": False,
            "member_count": 4,
            "joined_at": _now(),
            "features": [],
            "preferred_locale": "en-US",
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [c for c in self.channels.values() if here(c, 0)],
            "threads": [c for c in self.channels.values() if here(c, 11)],
            "members": [u.member_json() for u in (self.bot, self.alice, self.bob, self.carol)],
            "presences": [],
            "voice_states": [],
            "emojis": [],
            "stickers": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _members_chunk(self, request: dict[str, Any]) -> dict[str, Any]:
        chunk = {
            "guild_id": str(request.get("guild_id") or self.guild_id),
            "members": [u.member_json() for u in (self.bot, self.alice, self.bob, self.carol)],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if request.get("nonce"):
            chunk["nonce"] = request["nonce"]
        return chunk

    # --- injecting interactions --------------------------------------------------------------
    def _interaction(
        self, type_: int, data: dict[str, Any], user: User, channel_id: int | None, **extra: Any
    ) -> Interaction:
        channel = self.channels[channel_id or self.channel_id]
        guild_id = self._guild_of_channel(int(channel["id"]))
        iid, token = snowflake(), f"token-{snowflake()}"
        payload = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": type_,
            "data": data,
            "guild_id": str(guild_id),
            "guild": {"id": str(guild_id), "locale": "en-US", "features": []},
            "channel_id": channel["id"],
            "channel": {**channel, "permissions": str(user.permissions)},
            "member": user.member_json(with_permissions=True),
            "token": token,
            "version": 1,
            "app_permissions": str(BOT_PERMISSIONS),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
            **extra,
        }
        interaction = Interaction(iid, token, payload)
        self.interactions[token] = interaction
        return interaction

    def _command_data(
        self, command: str, options: dict[str, Any], focused: str | None
    ) -> dict[str, Any]:
        """Build `data` for "match new" with options {"practice": True}, typed from the synced list."""
        words = command.split()
        found = [c for c in self.commands if c["name"] == words[0] and c.get("type", 1) == 1]
        if not found:
            names = sorted(c["name"] for c in self.commands)
            raise AssertionError(f"the bot did not sync a command /{words[0]} (it synced {names})")
        top = found[0]
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1}
        if top.get("guild_id"):
            data["guild_id"] = top["guild_id"]
        node, holder = top, data
        for word in words[1:]:
            subs = [o for o in node.get("options", []) if o["name"] == word and o["type"] in (1, 2)]
            if not subs:
                raise AssertionError(f"/{command}: the bot has no subcommand {word!r} there")
            node = subs[0]
            child: dict[str, Any] = {"name": word, "type": node["type"], "options": []}
            holder["options"] = [child]
            holder = child
        declared = {o["name"]: o for o in node.get("options", [])}
        values, resolved = [], {}
        for name, value in options.items():
            if name not in declared:
                raise AssertionError(
                    f"/{command} has no option {name!r}; it has {sorted(declared)}"
                )
            type_ = declared[name]["type"]
            if isinstance(value, User):
                resolved.setdefault("users", {})[str(value.id)] = value.to_json()
                member = value.member_json(with_permissions=True)
                del member["user"]
                resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            elif isinstance(value, Attachment):  # an uploaded file: the bot downloads it here
                self.uploads[value.id] = value
                attachments = resolved.setdefault("attachments", {})
                attachments[str(value.id)] = value.to_json(self.base_url)
                value = str(value.id)
            option = {"name": name, "type": type_, "value": value}
            if name == focused:
                option["focused"] = True
            values.append(option)
        holder["options"] = values
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self, command: str, user: User | None = None, channel_id: int | None = None, **options: Any
    ) -> Interaction:
        """Send an INTERACTION_CREATE for /command (words: "match new") with typed options."""
        data = self._command_data(command, options, None)
        interaction = self._interaction(2, data, user or self.alice, channel_id)
        interaction.session = await self.dispatch("INTERACTION_CREATE", interaction.payload)
        return interaction

    async def autocomplete(
        self,
        command: str,
        focused: str,
        user: User | None = None,
        channel_id: int | None = None,
        **options: Any,
    ) -> Interaction:
        """Send an autocomplete interaction (type 4); the choices come back in callback type 8."""
        options.setdefault(focused, "")
        data = self._command_data(command, options, focused)
        interaction = self._interaction(4, data, user or self.alice, channel_id)
        interaction.session = await self.dispatch("INTERACTION_CREATE", interaction.payload)
        return interaction

    async def click(
        self, message: Message, custom_id: str, user: User | None = None
    ) -> Interaction:
        """Click a button (component type 2) on a message the bot sent."""
        data = {"custom_id": custom_id, "component_type": 2}
        interaction = self._interaction(
            3, data, user or self.alice, message.channel_id, message=self._message_json(message)
        )
        interaction.original = message  # @original of a component interaction is its message
        interaction.session = await self.dispatch("INTERACTION_CREATE", interaction.payload)
        return interaction

    # --- direct messages with the bot (issue 34: /mine, a match named from anywhere) ----------
    def _dm_interaction(self, type_: int, data: dict[str, Any], user: User) -> Interaction:
        """An interaction from the user's direct message with the bot, as Discord sends it: no
        guild, `user` instead of `member`, context 1 (BOT_DM). Discord only delivers it for a
        command whose synced `contexts` hold 1: the fake refuses the others, as Discord's
        client does not offer them there."""
        synced = [c for c in self.commands if c["name"] == data["name"]]
        contexts = synced[0].get("contexts") if synced else None
        if not contexts or 1 not in contexts:
            raise AssertionError(f"/{data['name']} is not offered in direct messages: {contexts}")
        channel = self._dm_channel(user)
        iid, token = snowflake(), f"token-{snowflake()}"
        payload = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": type_,
            "data": data,
            "channel_id": channel["id"],
            "channel": channel,
            "user": user.to_json(),
            "token": token,
            "version": 1,
            "app_permissions": str(BOT_PERMISSIONS),
            "locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": "0"},  # the app as the server installed it
            "context": 1,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        interaction = Interaction(iid, token, payload)
        self.interactions[token] = interaction
        return interaction

    async def dm_slash(self, command: str, user: User | None = None, **options: Any) -> Interaction:
        """/command sent from the user's direct message with the bot."""
        data = self._command_data(command, options, None)
        interaction = self._dm_interaction(2, data, user or self.alice)
        interaction.session = await self.dispatch("INTERACTION_CREATE", interaction.payload)
        return interaction

    async def dm_autocomplete(
        self, command: str, focused: str, user: User | None = None, **options: Any
    ) -> Interaction:
        """An autocomplete interaction from the user's direct message with the bot."""
        options.setdefault(focused, "")
        data = self._command_data(command, options, focused)
        interaction = self._dm_interaction(4, data, user or self.alice)
        interaction.session = await self.dispatch("INTERACTION_CREATE", interaction.payload)
        return interaction

    @staticmethod
    def responded_to(interaction: Interaction) -> bool:
        """Has the bot answered: a callback, and after a defer the first real message?"""
        if interaction.callback is None:
            return False
        if interaction.callback_type == 5:  # "thinking...": until @original is filled in
            original = interaction.original
            filled = original is not None and not original.flags & LOADING
            return filled or len(interaction.messages) > 1
        if interaction.callback_type == 6:  # deferred update: until an edit or a followup
            return bool(interaction.messages)
        return True

    async def responded(self, interaction: Interaction, timeout: float = 10.0) -> Interaction:
        """Wait until the bot has answered the interaction (see `responded_to`)."""
        what = f"the bot's answer to interaction {interaction.payload['data']}"
        await self.wait_until(lambda: self.responded_to(interaction), what, timeout)
        return interaction

    async def wait_for_message(
        self, predicate: Callable[[Message], bool], what: str, timeout: float = 10.0, after: int = 0
    ) -> Message:
        """Wait for a message (new or edited) with an id above `after` that satisfies predicate."""

        def find() -> Message | None:
            for message in self.messages.values():
                if message.id > after and predicate(message):
                    return message
            return None

        return await self.wait_until(find, what, timeout)

    # --- REST --------------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        self.requests.append((request.method, path))
        try:
            response = await self._route(request, request.method, path.strip("/").split("/"))
            if response is None:
                self.unknown.append((request.method, path))
                body = {"message": f"fake Discord: no route {request.method} {path}", "code": 0}
                response = _json(body, status=404)
        finally:
            await self._touch()
        if self.hold is not None:  # the test wants the bot caught in the middle of a request
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.hold.wait(), 10)
        return response

    async def _route(
        self, request: web.Request, method: str, p: list[str]
    ) -> web.StreamResponse | None:
        authorised = request.headers.get("Authorization") == f"Bot {self.token}"
        if p[0] not in ("webhooks", "interactions") and not authorised:
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        match method, p:
            case "GET", ["users", "@me"]:
                return _json({**self.bot.to_json(), "verified": True, "flags": 0})
            case "GET", ["oauth2" | "applications", "applications" | "@me", *_]:
                return _json(self._application_json())
            case "GET", ["gateway", *_]:
                limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
                body = {"url": self.gateway_url, "shards": self.shard_count}
                return _json({**body, "session_start_limit": limit})
            case "PUT", ["applications", _, "commands"] | [
                "applications",
                _,
                "guilds",
                _,
                "commands",
            ]:
                guild_id = p[3] if len(p) == 5 else None
                return _json(await self._sync(await request.json(), guild_id))
            case "GET", ["applications", _, "commands"] | [
                "applications",
                _,
                "guilds",
                _,
                "commands",
            ]:
                return _json(self.commands)
            case "POST", ["interactions", _, token, "callback"]:
                return await self._callback(request, token)
            case "POST", ["webhooks", _, token]:
                interaction = self.interactions.get(token)
                if interaction is None:
                    return None
                if interaction.original is not None and interaction.original.flags & LOADING:
                    # Discord turns the first followup after a "thinking" defer into that message.
                    return await self._message_op(request, interaction.original, interaction)
                return await self._create(
                    request, interaction.payload["channel_id"], "followup", interaction
                )
            case "GET" | "PATCH" | "DELETE", ["webhooks", _, token, "messages", message_id]:
                interaction = self.interactions.get(token)
                if interaction is None:
                    return None
                target = (
                    interaction.original
                    if message_id == "@original"
                    else self.messages.get(int(message_id))
                )
                return await self._message_op(request, target, interaction)
            case _, ["channels", channel_id, *_] if int(channel_id) in self.deleted:
                return self._refuse(method, p, 404, 10003, "Unknown Channel")
            case "POST", ["channels", channel_id, "messages"] if self._dm_refused(int(channel_id)):
                return self._refuse(method, p, 403, 50007, "Cannot send messages to this user")
            case "POST", ["channels", channel_id, "messages"]:
                return await self._create(request, channel_id, "channel", None)
            case "GET" | "PATCH" | "DELETE", ["channels", _, "messages", message_id]:
                return await self._message_op(request, self.messages.get(int(message_id)))
            case "GET", ["channels", channel_id]:
                channel = self.channels.get(int(channel_id))
                return None if channel is None else _json(channel)
            case "POST", ["channels", channel_id, "threads"] | [
                "channels",
                channel_id,
                "messages",
                _,
                "threads",
            ]:
                return _json(await self._thread(int(channel_id), await request.json()))
            case "PUT" | "DELETE", ["channels", _, "thread-members", *_]:
                return web.Response(status=204)
            case "GET", ["guilds", _, "members", user_id]:
                user = self._user(int(user_id))
                return None if user is None else _json(user.member_json())
            case "POST", ["users", "@me", "channels"]:  # open a DM channel
                user = self._user(int((await request.json())["recipient_id"]))
                return None if user is None else _json(self._dm_channel(user))
            case "GET", ["users", user_id]:
                user = self._user(int(user_id))
                return None if user is None else _json(user.to_json())
        return None

    def _refuse(self, method: str, p: list[str], status: int, code: int, text: str) -> web.Response:
        self.refusals.append((method, "/" + "/".join(p), status, code))
        return _json({"message": text, "code": code}, status=status)

    def _dm_refused(self, channel_id: int) -> bool:
        channel = self.channels.get(channel_id) or {}
        recipients = {int(user["id"]) for user in channel.get("recipients", [])}
        return channel.get("type") == 1 and bool(recipients & self.dms_closed)

    async def delete_channel(self, channel_id: int) -> None:
        """Delete a channel or thread, as a member with Manage Channels would: the bot is told
        on the gateway, and Discord answers 404 (code 10003) for it from now on."""
        channel = self.channels.pop(channel_id)
        self.deleted.add(channel_id)
        event = "THREAD_DELETE" if channel["type"] in (10, 11, 12) else "CHANNEL_DELETE"
        keys = ("id", "guild_id", "parent_id", "type")
        await self.dispatch(event, {key: channel[key] for key in keys if key in channel})
        await self._touch()

    def _user(self, user_id: int) -> User | None:
        users = (self.bot, self.alice, self.bob, self.carol)
        return next((u for u in users if u.id == user_id), None)

    def _application_json(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": "skirmbot",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.alice.to_json(),
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": self.bot.to_json(),
        }

    async def _sync(
        self, commands: list[dict[str, Any]], guild_id: str | None
    ) -> list[dict[str, Any]]:
        self.commands = []
        for command in commands:
            synced = {
                **command,
                "id": str(snowflake()),
                "application_id": str(self.application_id),
                "version": str(snowflake()),
                "type": command.get("type", 1),
            }
            if guild_id:
                synced["guild_id"] = guild_id
            self.commands.append(synced)
        self.command_syncs += 1
        return self.commands

    def _dm_channel(self, user: User) -> dict[str, Any]:
        existing = [c for c in self.channels.values() if c.get("recipients") == [user.to_json()]]
        if existing:
            return existing[0]
        channel = {
            "id": str(snowflake()),
            "type": 1,
            "recipients": [user.to_json()],
            "last_message_id": None,
        }
        self.channels[int(channel["id"])] = channel
        return channel

    async def _thread(self, parent_id: int, body: dict[str, Any]) -> dict[str, Any]:
        thread_id = snowflake()
        thread = {
            "id": str(thread_id),
            "type": body.get("type", 11),
            "guild_id": str(self._guild_of_channel(parent_id)),
            "parent_id": str(parent_id),
            "owner_id": str(self.bot.id),
            "name": body.get("name", "thread"),
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "flags": 0,
            "last_message_id": None,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration", 1440),
                "archive_timestamp": _now(),
                "locked": False,
                "create_timestamp": _now(),
            },
        }
        self.channels[thread_id] = thread
        await self.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return thread

    def undescribed_pictures(self) -> list[str]:
        """The pictures the bot posted without alt text (a description screen readers read)."""
        posted = [a for m in self.messages.values() for a in m.attachments]
        return [a.filename for a in posted if a.picture and not (a.description or "").strip()]

    async def _attachment(self, request: web.Request) -> web.Response:
        """The CDN: files users uploaded with a command, and files the bot posted."""
        self.requests.append(("GET", request.path))
        wanted = int(request.match_info["id"])
        posted = [a for m in self.messages.values() for a in m.attachments]
        for attachment in [*self.uploads.values(), *posted]:
            if attachment.id == wanted:
                return web.Response(body=attachment.data)
        self.unknown.append(("GET", request.path))
        return web.Response(status=404)

    # --- messages ----------------------------------------------------------------------------
    async def _read(self, request: web.Request) -> tuple[dict[str, Any], list[Attachment]]:
        """A JSON body, or multipart with payload_json and files[n] parts."""
        if not request.content_type.startswith("multipart/"):
            return (await request.json() if request.can_read_body else {}), []
        payload: dict[str, Any] = {}
        files: dict[str, Attachment] = {}
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            data = await part.read(decode=False)
            if part.name == "payload_json":
                payload = json.loads(data)
            elif part.filename is not None:
                files[str(part.name)] = Attachment(part.filename, bytes(data))
        # Each file's description is in the payload's attachments (an interaction response's
        # in its data), by the index of its part.
        listed_files = payload.get("attachments") or (payload.get("data") or {}).get("attachments")
        for listed in listed_files or []:
            found = files.get(f"files[{listed.get('id')}]")
            if found is not None:
                found.description = listed.get("description")
        return payload, list(files.values())

    def _message_json(self, message: Message) -> dict[str, Any]:
        return {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "guild_id": str(self._guild_of_channel(message.channel_id)),
            "type": 0,
            "author": self.bot.to_json(),
            "content": message.content,
            "embeds": message.embeds,
            "components": message.components,
            "attachments": [a.to_json(self.base_url) for a in message.attachments],
            "flags": message.flags,
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": _now(),
            "edited_timestamp": _now() if message.edits else None,
            "application_id": str(self.application_id),
        }

    def _new_message(self, channel_id: Any, route: str, interaction: Interaction | None) -> Message:
        message = Message(snowflake(), int(channel_id), route, interaction=interaction)
        self.messages[message.id] = message
        if interaction is not None:
            interaction.messages.append(message)
        return message

    async def _create(
        self, request: web.Request, channel_id: Any, route: str, interaction: Interaction | None
    ) -> web.Response:
        payload, files = await self._read(request)
        message = self._new_message(channel_id, route, interaction)
        message.update(payload, files)
        message.edits = 0
        return _json(self._message_json(message))

    async def _message_op(
        self, request: web.Request, message: Message | None, interaction: Interaction | None = None
    ) -> web.Response | None:
        if message is None:
            return None
        if request.method == "DELETE":  # gone for everyone, from every interaction's answer
            self.messages.pop(message.id, None)
            for interaction in self.interactions.values():
                if message in interaction.messages:
                    interaction.messages.remove(message)
            return web.Response(status=204)
        if request.method != "GET":  # PATCH, or the followup that replaces "thinking"
            payload, files = await self._read(request)
            message.update(payload, files)
            if interaction is not None and message not in interaction.messages:
                interaction.messages.append(message)
        return _json(self._message_json(message))

    async def _callback(self, request: web.Request, token: str) -> web.Response | None:
        interaction = self.interactions.get(token)
        if interaction is None:
            return None
        if interaction.callback is not None:
            body = {"message": "Interaction has already been acknowledged.", "code": 40060}
            return _json(body, status=400)
        body, files = await self._read(request)
        kind, data = body["type"], body.get("data") or {}
        message: Message | None = None
        if kind in (4, 5):  # a new message, or "thinking" until @original is edited
            message = self._new_message(interaction.payload["channel_id"], "callback", interaction)
            message.update(data, files)
            message.edits = 0
            if kind == 5:
                message.flags |= LOADING
            interaction.original = message
        elif kind == 7 and interaction.original is not None:  # a click updates its message
            message = interaction.original
            message.update(data, files)
            interaction.messages.append(message)
        interaction.callback = {"type": kind, "data": data, "files": [a.filename for a in files]}
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.payload["type"],
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(data.get("flags", 0) & EPHEMERAL),
            }
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = str(message.id)
            answer["resource"] = {"type": kind, "message": self._message_json(message)}
        return _json(answer)
