"""Refusals the service gives, in words for the player who asked."""

from __future__ import annotations


class ServiceError(Exception):
    """The request cannot be done; the message says why and what would work. Nothing changed.
    Shown to the asking player only (ephemeral in Discord)."""


class NotAllowed(ServiceError):
    """The asking member may not do this (not a player of the match, not their turn, not a
    moderator)."""


class Busy(ServiceError):
    """Someone else changed the match at the same moment; asking again will work."""
