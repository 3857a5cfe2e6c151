"""The caption's words for the group rules' dice (rulebook 003): activation tests, the 12d6 pools
of shooting and melee, Resilience tests, and what they did to a Group (Shaken, Rallied, Routed).

Each event of those kinds (`skirmbot.rules.events` lists their data) becomes one clause, a
subject and its words, compact enough that a whole activation fits one line: "Archers shoots
Spearmen: 12d6 ≥4 → 5 hits (Cover: 5 re-rolled → 3), −1 R". Events another clause already
tells (the R a pool took, the Shaken a failed test gave) say nothing of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skirmbot.rules.events import Event

# The kinds only the group rules emit: an activation with any of them is captioned as a list of
# clauses ("; " between them), as its dice say more than a verb.
KINDS = frozenset(
    {"activation_test", "pool", "r_lost", "resilience", "shaken", "rallied", "routed", "interrupt",
     "retreat_blocked"}
)  # fmt: skip
POOL_LINES = ("shoot", "attack")  # pools the map draws as a line (a defender's answers one)
POOL_VERBS = {"shoot": "shoots", "attack": "attacks", "defend": "strikes back at"}
OUTCOMES = {"passed": "holds", "rallied": "Rallies", "retreat": "Retreats, Shaken",
            "routed": "Routed"}  # fmt: skip
TRAITS = {"defiant": ("Defiant", "counter-charges"), "elusive": ("Elusive", "slips away")}
MINUS = "−"


def is_group_activation(events: Sequence[Event]) -> bool:
    """Whether the events are a Group's (the group rules'): their caption is a list of clauses."""
    return any(event.kind in KINDS for event in events)


def clause(event: Event, events: Sequence[Event], short: bool) -> tuple[str, str] | None:
    """The event's clause (its subject, its words), or None when it adds nothing to what the
    other `events` (the same activation's) say; `short`: without the dice."""
    data, kind = event.data, event.kind
    if kind == "activation_test":
        return _activation_test(data, short)
    if kind == "pool":
        return data["unit"], pool_text(data, short)
    if kind == "resilience":
        return data["unit"], resilience_text(data, short)
    if kind == "interrupt":
        return _interrupt(data, short)
    if kind == "retreat_blocked":
        return data["unit"], _blocked(data, short)
    if kind == "r_lost" and not _told_loss(event, events):
        return data["unit"], f"loses {data['lost']} R ({data['r']} left)"
    if kind in ("shaken", "rallied", "routed") and not _told_outcome(event, events):
        return data["unit"], {"shaken": "is Shaken", "rallied": "Rallies", "routed": "Routed"}[kind]
    return None


def _activation_test(data: dict[str, Any], short: bool) -> tuple[str, str] | None:
    """ "Spearmen Move: 2d6 7 ≥ 5"; a failed test ends the side's turn, so it is always told."""
    order = str(data["order"]).capitalize()
    total = sum(data["faces"])
    if data["passed"]:
        return None if short else (data["unit"], f"{order}: 2d6 {total} ≥ {data['needed']}")
    if short:
        return data["unit"], f"fails to {order}: turn ends"
    return data["unit"], f"{order}: 2d6 {total} < {data['needed']}, fails: turn ends"


def pool_text(data: dict[str, Any], short: bool = False) -> str:
    """A pool's words: "shoots Spearmen: 12d6 ≥4 → 5 hits (Cover: 5 re-rolled → 3), −1 R"; the
    hits counted from its faces, the Cover re-roll's from the faces re-rolled."""
    verb = f"{POOL_VERBS.get(data['purpose'], data['purpose'])} {data['target']}"
    needed = int(data["needed"])
    first = sum(1 for face in data["faces"] if face >= needed)
    rerolled = list(data.get("rerolled") or [])
    final = sum(1 for face in rerolled if face >= needed) if rerolled else first
    lost = int(data.get("r_lost", 0))
    harm = f"{MINUS}{lost} R" if lost else "no R lost"
    if short:
        return f"{verb}: {_hits(final)}, {harm}"
    cover = f" (Cover: {len(rerolled)} re-rolled → {final})" if rerolled else ""
    return f"{verb}: {data['dice']}d6 ≥{needed} → {_hits(first)}{cover}, {harm}"


def resilience_text(data: dict[str, Any], short: bool = False) -> str:
    """A Resilience test's words: "tests Resilience 6−1+1 = 6 ≥ 5: holds" (the dice, then each
    modifier), or in short only what came of it."""
    outcome = OUTCOMES.get(str(data["outcome"]), str(data["outcome"]))
    if short:
        return outcome
    sums = str(sum(data["faces"])) + "".join(
        f"{'+' if value >= 0 else MINUS}{abs(value)}" for _, value in data.get("modifiers", [])
    )
    compared = "≥" if data["total"] >= data["needed"] else "<"
    return f"tests Resilience {sums} = {data['total']} {compared} {data['needed']}: {outcome}"


def _interrupt(data: dict[str, Any], short: bool) -> tuple[str, str]:
    """A defender's Defiant or Elusive test: "Wolves Elusive: 2d6 8 ≥ 7, slips away"."""
    name, success = TRAITS.get(data["trait"], (str(data["trait"]).capitalize(), "succeeds"))
    result = success if data["passed"] else "fails"
    if short:
        return data["unit"], f"{name}: {result}"
    compared = "≥" if data["passed"] else "<"
    return data["unit"], f"{name}: 2d6 {sum(data['faces'])} {compared} {data['needed']}, {result}"


def tell_retreat(clauses: list[tuple[str, str]], moved: dict[str, Any]) -> bool:
    """Tells a Retreat the last clause (a failed Resilience test of the same Group) announced:
    that clause says where to ("Retreats to D20, Shaken"), and the move need say nothing."""
    retreats = OUTCOMES["retreat"].split(",")[0]
    if moved.get("action") != "retreat" or not clauses or clauses[-1][0] != moved["unit"]:
        return False
    subject, text = clauses[-1]
    if retreats not in text:
        return False
    at = text.rindex(retreats) + len(retreats)
    clauses[-1] = (subject, f"{text[:at]} to {moved['path'][-1]}{text[at:]}")
    return True


def _blocked(data: dict[str, Any], short: bool) -> str:
    """A blocked Retreat's roll (rulebook Retreating: "roll 1d6 vs their current R; if lower,
    they lose R equal to the roll")."""
    lost = int(data.get("lost", 0))
    if short:
        return f"is blocked, {MINUS}{lost} R" if lost else "is blocked"
    face, needed = data["faces"][0], data["needed"]
    if lost:
        return f"is blocked: 1d6 {face} < {needed}, {MINUS}{lost} R"
    return f"is blocked: 1d6 {face} ≥ {needed}, stops"


def _hits(count: int) -> str:
    return f"{count} hit" if count == 1 else f"{count} hits"


def _told_loss(event: Event, events: Sequence[Event]) -> bool:
    """An R loss a pool (its `r_lost`) or a blocked Retreat just before it already told."""
    at = _index(event, events)
    return any(
        (other.kind, other.data.get("target", other.data.get("unit")))
        in (("pool", event.data["unit"]), ("retreat_blocked", event.data["unit"]))
        and int(other.data.get("r_lost", other.data.get("lost", 0))) == int(event.data["lost"])
        for other in events[:at]
    )


def _told_outcome(event: Event, events: Sequence[Event]) -> bool:
    """Shaken, Rallied or Routed as a Resilience test before it already told it."""
    outcome = {"shaken": ("retreat",), "rallied": ("rallied",), "routed": ("routed",)}[event.kind]
    at = _index(event, events)
    return any(
        other.kind == "resilience"
        and other.data.get("unit") == event.data["unit"]
        and other.data.get("outcome") in outcome
        for other in events[:at]
    )


def _index(event: Event, events: Sequence[Event]) -> int:
    return next((n for n, other in enumerate(events) if other is event), len(events))
