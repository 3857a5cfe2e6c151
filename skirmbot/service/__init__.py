"""Discord-free use cases: everything a player can do, callable from the cogs and the console."""

from skirmbot.service.errors import Busy, NotAllowed, ServiceError
from skirmbot.service.matches import AUTOMATIC, MatchService, Member, moment
from skirmbot.service.replies import Reply, channel, person, when
from skirmbot.service.work import LiveMatches, MatchWork, NeedsConfirmation
from skirmbot.store import MatchRow  # the match as the service hands it to the cogs

__all__ = [
    "AUTOMATIC",
    "Busy",
    "LiveMatches",
    "MatchRow",
    "MatchService",
    "MatchWork",
    "Member",
    "NeedsConfirmation",
    "NotAllowed",
    "Reply",
    "ServiceError",
    "channel",
    "moment",
    "person",
    "when",
]
