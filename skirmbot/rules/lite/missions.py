"""Skirm Lite missions (Lite rulebook Game Cycle: Select Mission, which it never defines).

Lite missions are written in Skirm's mission format (skirmbot.rules.skirm.missions) and read by
its reader, then checked against what Lite has (our ruling): objectives, markers to Pick Up and
Drop, deployment zones, events that change orders, Dash or range; no crates, secondary
objectives, mission actions or hazards, which need rules Lite does not have.
"""

from __future__ import annotations

from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.rules.skirm.missions import Mission
from skirmbot.rules.skirm.missions import mission_from_json as skirm_mission_from_json

SCORING_KINDS = ("control", "take_out", "carry", "leader", "zone")
EVENT_EFFECTS = ("none", "no_dash", "orders", "underdog", "max_range")


def mission_from_json(data: Any) -> Mission:
    mission = skirm_mission_from_json(data)
    where = f"Lite mission {mission.name}"
    for rule in mission.scoring:
        if rule.kind not in SCORING_KINDS:
            raise ContentError(
                f"{where}: Skirm Lite scores only {', '.join(SCORING_KINDS)}, not '{rule.kind}'."
            )
    for entry in mission.events:
        if entry.effect not in EVENT_EFFECTS:
            raise ContentError(
                f"{where}: the event '{entry.name}' has the effect '{entry.effect}'; Skirm Lite "
                f"events are {', '.join(EVENT_EFFECTS)}."
            )
    if mission.secondaries:
        raise ContentError(f"{where}: Skirm Lite has no secondary objectives.")
    if mission.crates:
        raise ContentError(f"{where}: Skirm Lite has no crates.")
    if mission.actions:
        raise ContentError(f"{where}: Skirm Lite has no mission actions.")
    return mission
