"""Discord-free use cases: everything a player can do, callable from the cogs and the console."""

from skirmbot.service.errors import Busy, NotAllowed, ServiceError
from skirmbot.service.matches import AUTOMATIC, MatchService, Member, NeedsConfirmation
from skirmbot.service.replies import Reply

__all__ = [
    "AUTOMATIC",
    "Busy",
    "MatchService",
    "Member",
    "NeedsConfirmation",
    "NotAllowed",
    "Reply",
    "ServiceError",
]
