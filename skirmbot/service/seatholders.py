"""Who holds each seat of a match, and who held it before (substitutes, issue 34).

A seat handed on changes the match row's `players` and `names` (who plays it now: the pings, the
reminders and the result's seat rows follow) and adds a hand-over to the record's `holders`, with
the command it takes effect from (`skirmbot.rules.record.held_by`). Kept apart from
`skirmbot.service.substitutes` so the match service can say who played without importing the
league side of substitutes.
"""

from __future__ import annotations

from typing import Any

from skirmbot.rules.record import MatchRecord, held_by
from skirmbot.service.work import MatchWork
from skirmbot.store import MatchRow


def hand_seat(work: MatchWork, seat: int, user_id: int, name: str) -> None:
    """`user_id` (AUTOMATIC: the automatic player) holds `seat` from the next command on: in
    the row, and kept in the record's hand-overs."""
    row = work.row
    row.players[seat] = user_id
    row.names[seat] = name
    holders: list[dict[str, Any]] = row.record.setdefault("holders", [])
    holders.append({"seat": seat, "player": name, "from": len(row.record["commands"])})


def who_played(row: MatchRow) -> str:
    """The seats that changed hands, in words ("" when none did): for the log and the result."""
    record = MatchRecord.from_json(row.record)
    lines = []
    for seat, held in enumerate(held_by(record)):
        if len(held) > 1:
            turns = ", then ".join(
                name if start == 0 else f"{name} from the record's command {start + 1}"
                for name, start in held
            )
            lines.append(f"🔁 Seat {seat + 1}: {turns}.")
    return "\n".join(lines)
