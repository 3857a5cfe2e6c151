"""The web pages: an aiohttp application over the read-only `Pages` (skirmbot.service.pages).

Routes (a server's pages answer 404 until its admins publish them with /web publish):
`/`, `/g/{guild}`, `/g/{guild}/league/{name}`, `/g/{guild}/league/{name}/player/{user}`,
`/g/{guild}/match/{id}`, `/g/{guild}/match/{id}/step/{n}.png` (ETag, 304),
`/g/{guild}/match/{id}/record.json`, and a player's private calendar feed
`/calendar/{token}.ics` (issue 21; its token is its only key, so it is never cached by others).
Anything else, or a request too long, gets a short error page and nothing more.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote

from aiohttp import web
from jinja2 import Environment, PackageLoader, select_autoescape

from skirmbot.service.calendar import Calendars
from skirmbot.service.pages import Pages
from skirmbot.store import Store

log = logging.getLogger("skirmbot.web")

MAX_PATH = 512
MAX_QUERY = 256
PAGES: web.AppKey[Pages] = web.AppKey("pages", Pages)
TEMPLATES: web.AppKey[Environment] = web.AppKey("templates", Environment)
CALENDARS: web.AppKey[Calendars] = web.AppKey("calendars", Calendars)
TOKEN = r"{token:[A-Za-z0-9_-]{16,64}}"
HEADINGS = {
    "points": "Pts",
    "mp_difference": "MP ±",
    "strength_of_schedule": "SoS",
    "rating": "Rating",
}
ID = r"{%s:\d{1,19}}"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def headings(score: str) -> dict[str, str]:
    """The standings' column headings, the score difference in the league's ruleset's words."""
    return {**HEADINGS, "mp_difference": f"{score} ±"}


def make_app(store: Store, pages: Pages | None = None) -> web.Application:
    """The application reading `store` (through `pages`, made from the store when not given)."""
    app = web.Application(middlewares=[_errors], client_max_size=1024)
    app[PAGES] = pages or Pages(store)
    app[CALENDARS] = Calendars(store)
    app[TEMPLATES] = Environment(
        loader=PackageLoader("skirmbot.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
    )
    guild = "/g/" + ID % "guild"
    match = guild + "/match/" + ID % "id"
    app.router.add_get("/", _index)
    app.router.add_get(guild, _guild)
    app.router.add_get(guild + "/league/{name}", _league)
    app.router.add_get(guild + "/league/{name}/player/" + ID % "user", _player)
    app.router.add_get(match, _match)
    app.router.add_get(match + "/step/" + ID % "n" + ".png", _step)
    app.router.add_get(match + "/record.json", _record)
    app.router.add_get("/calendar/" + TOKEN + ".ics", _calendar)
    return app


async def serve(store: Store, host: str, port: int, pages: Pages | None = None) -> web.AppRunner:
    """Start serving the pages on host:port; stop with `await runner.cleanup()`."""
    runner = web.AppRunner(make_app(store, pages), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("Serving the web pages on http://%s:%d/", host, port)
    return runner


def listen_address(text: str) -> tuple[str, int]:
    """`host:port` (ValueError in plain words when it is not one)."""
    host, _, port = text.strip().rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"'{text}' is not host:port (such as 127.0.0.1:8080)")
    return host.strip("[]"), int(port)


# --- handlers --------------------------------------------------------------------------------
def _render(request: web.Request, name: str, status: int = 200, **values: Any) -> web.Response:
    html = request.app[TEMPLATES].get_template(name).render(status=status, **values)
    return web.Response(text=html, status=status, content_type="text/html")


def _number(request: web.Request, key: str) -> int:
    return int(request.match_info[key])


def _not_found() -> web.HTTPNotFound:
    return web.HTTPNotFound()


async def _index(request: web.Request) -> web.Response:
    return _render(request, "index.html")


async def _guild(request: web.Request) -> web.Response:
    guild = _number(request, "guild")
    leagues = await request.app[PAGES].guild_leagues(guild)
    if leagues is None:
        raise _not_found()
    return _render(request, "guild.html", leagues=leagues, base=f"/g/{guild}")


async def _league(request: web.Request) -> web.Response:
    guild, name = _number(request, "guild"), request.match_info["name"]
    page = await request.app[PAGES].league(guild, name)
    if page is None:
        raise _not_found()
    base = f"/g/{guild}"
    return _render(
        request, "league.html", page=page, base=base, headings=headings(page.score),
        league_url=f"{base}/league/{quote(page.name, safe='')}",
    )  # fmt: skip


async def _player(request: web.Request) -> web.Response:
    guild, name = _number(request, "guild"), request.match_info["name"]
    page = await request.app[PAGES].player(guild, name, _number(request, "user"))
    if page is None:
        raise _not_found()
    base = f"/g/{guild}"
    return _render(
        request, "player.html", page=page, base=base,
        league_url=f"{base}/league/{quote(page.league, safe='')}",
    )  # fmt: skip


async def _match(request: web.Request) -> web.Response:
    guild, match_id = _number(request, "guild"), _number(request, "id")
    page = await request.app[PAGES].match(guild, match_id)
    if page is None:
        raise _not_found()
    base = f"/g/{guild}"
    start = 0 if page.finished else max(len(page.logs) - 1, 0)
    return _render(
        request, "match.html", page=page, base=base, start=start,
        match_url=f"{base}/match/{page.id}",
    )  # fmt: skip


async def _step(request: web.Request) -> web.Response:
    guild, match_id, step = (_number(request, k) for k in ("guild", "id", "n"))
    pages = request.app[PAGES]
    tag = await pages.step_tag(guild, match_id, step)
    if tag is None:
        raise _not_found()
    headers = {"ETag": tag, "Cache-Control": "public, max-age=60"}
    asked = {
        t.strip().removeprefix("W/") for t in request.headers.get("If-None-Match", "").split(",")
    }
    if tag in asked or "*" in asked:
        return web.Response(status=304, headers=headers)
    found = await pages.step_png(guild, match_id, step)
    if found is None:
        raise _not_found()
    return web.Response(body=found[1], content_type="image/png", headers=headers)


async def _record(request: web.Request) -> web.Response:
    guild, match_id = _number(request, "guild"), _number(request, "id")
    found = await request.app[PAGES].record_json(guild, match_id)
    if found is None:
        raise _not_found()
    name, data = found
    return web.Response(
        body=data,
        content_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


async def _calendar(request: web.Request) -> web.Response:
    """A player's deadlines as iCalendar, for the calendar app that holds the secret address."""
    found = await request.app[CALENDARS].feed(request.match_info["token"])
    if found is None:
        raise _not_found()
    return web.Response(
        body=found,
        content_type="text/calendar",
        charset="utf-8",
        headers={"Cache-Control": "private, max-age=300", "Referrer-Policy": "no-referrer"},
    )


# --- errors ----------------------------------------------------------------------------------
MESSAGES = {
    400: "That request is not one these pages answer.",
    404: "There is no such page, or its server has not published its pages.",
    405: "These pages are only read.",
    500: "Something went wrong on our side.",
}


@web.middleware
async def _errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    if len(request.raw_path) > MAX_PATH + MAX_QUERY or len(request.query_string) > MAX_QUERY:
        return _error(request, 400)
    if len(request.path) > MAX_PATH:
        return _error(request, 404)
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        return _error(request, error.status if error.status in MESSAGES else 404)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("The page %s failed", request.path)
        return _error(request, 500)


def _error(request: web.Request, status: int) -> web.Response:
    reason = {400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"}.get(
        status, "Server Error"
    )
    return _render(request, "error.html", status, reason=reason, text=MESSAGES[status])
