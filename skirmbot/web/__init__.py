"""Read-only web pages of published servers' leagues and matches (aiohttp, Jinja2)."""

from skirmbot.web.app import make_app, serve

__all__ = ["make_app", "serve"]
