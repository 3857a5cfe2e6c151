"""A whole match of the automatic player against itself, on a ruleset's default content."""

from __future__ import annotations

from pathlib import Path

from skirmbot import content
from skirmbot.rules.record import MatchRecord, content_of, record_of, start_match
from skirmbot.rules.ruleset import DEFAULT_RULESET, PlayedMatch, ruleset
from skirmbot.rules.skirm.state import ENDED

# A 4-turn match takes a few hundred commands; this bound only catches a player that loops.
MAX_COMMANDS = 10_000


def default_content(
    map_name: str = content.DEFAULT_MAP,
    mission_name: str | None = None,
    squad_names: tuple[str, str] | None = None,
    rules: str = DEFAULT_RULESET,
) -> dict[str, object]:
    """A map, and `rules`' mission and two squads (its defaults where not named)."""
    default_mission, default_squads = content.defaults(rules)
    mission_name = mission_name or default_mission
    squad_names = squad_names or default_squads
    return content_of(
        content.raw("maps", map_name),
        content.raw("missions", mission_name, rules),
        [content.raw("squads", name, rules) for name in squad_names],
    )


def new_demo_match(
    seed: int, match_content: dict[str, object] | None = None, rules: str = DEFAULT_RULESET
) -> tuple[PlayedMatch, dict[str, object]]:
    data = match_content or default_content(rules=rules)
    record = MatchRecord(content=data, dice={"seed": seed}, ruleset=rules)
    return start_match(record), data


def play_out(match: PlayedMatch, rules: str = DEFAULT_RULESET) -> None:
    """Let the automatic player take every decision until the match ends."""
    state, played = match.state, ruleset(rules)
    for _ in range(MAX_COMMANDS):
        if state.phase == ENDED:
            return
        side = state.waiting_for()
        assert side is not None
        match.apply(played.automatic_command(state, side))
    raise RuntimeError(
        f"The automatic players did not finish the match within {MAX_COMMANDS} commands."
    )


def play_demo(seed: int, rules: str = DEFAULT_RULESET) -> tuple[PlayedMatch, MatchRecord]:
    """A whole match of `rules` between two automatic players, and its record."""
    match, data = new_demo_match(seed, rules=rules)
    play_out(match, rules)
    players = ["Automatic player 1", "Automatic player 2"]
    return match, record_of(match, data, players, ruleset(rules).name)


def write_demo(record: MatchRecord, out: Path) -> int:
    """Write the record (`match.json`), the battlemap after every activation
    (`activation-000.png` as deployed, then one per activation) and the animation (`replay.gif`)
    into the folder `out`, which must exist; the number of the last activation."""
    from skirmbot.render.battlemap import MapRenderer
    from skirmbot.render.replay import activation_steps, animation

    (out / "match.json").write_text(record.dumps(), encoding="utf-8")
    renderer = MapRenderer()
    last = 0
    for last, (view, events) in enumerate(activation_steps(record)):
        (out / f"activation-{last:03d}.png").write_bytes(renderer.png(view, events))
    (out / "replay.gif").write_bytes(animation(record, renderer))
    return last
