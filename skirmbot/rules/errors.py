"""Errors the rules core raises: each message is written for a player to read."""


class RulesError(Exception):
    """A command or piece of content breaks the rules; the message says why in plain words."""


class IllegalCommand(RulesError):
    """The command cannot be applied to the match as it stands; nothing was changed."""


class ContentError(RulesError):
    """A map, mission or squad file is not valid; the message names what is wrong."""
