"""Errors the rules core raises: each message is written for a player to read."""


class RulesError(Exception):
    """A command or piece of content breaks the rules; the message says why in plain words."""


class IllegalCommand(RulesError):
    """The command cannot be applied to the match as it stands; nothing was changed."""


class ContentError(RulesError):
    """A map, mission or squad file is not valid; the message names what is wrong."""


class NeedsOrders(IllegalCommand):
    """The unit's own points are short, but the side's shared pool could pay (Skirm's Tactical
    Orders): `orders` is how many to spend, so the player can confirm the cost before it is
    paid ("needed and confirmed", rulings: An activation). A ruleset with a pool raises it; the
    service asks the player, then sends the command again with `orders` set."""

    def __init__(self, message: str, orders: int) -> None:
        super().__init__(message)
        self.orders = orders
