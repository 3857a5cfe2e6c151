"""Preview speed (issue 21: a preview answers in under 150 ms on the largest shipped map).

Run: `python benchmarks/preview.py`. Measures, in one run, on the largest shipped map, for Skirm
and Skirm Lite, what the service does for a preview: copy the live state, work out the unit's
reach and exact odds on the copy, and draw and encode the picture. Every unit on the map is
previewed where it stands and as if on a square it can reach, at several moments of a demo match
(the renderer's caches warm, as in a live match; the first, cold preview is shown apart). The
baseline, measured in the same run on the same states, is drawing and encoding the plain
battlemap, which every activation already posts. Ends with `ratio: X` (preview over baseline,
medians).
"""

from __future__ import annotations

import copy
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from skirmbot import content
from skirmbot.demo import default_content, new_demo_match
from skirmbot.render.battlemap import MapRenderer
from skirmbot.render.preview import PreviewRenderer
from skirmbot.rules.errors import RulesError
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.preview import copy_for_preview
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.skirm.state import ENDED, PLAYING

BUDGET_MS = 150.0
MOMENTS = 6  # states sampled per ruleset, a few activations apart
STRIDE = 5  # activations between two sampled states


def largest_map() -> str:
    """The name of the shipped map with the most squares."""
    return max(content.names("maps"), key=lambda name: _squares(content.raw("maps", name)))


def _squares(data: dict[str, Any]) -> int:
    board = map_from_json(data).board
    return board.width * board.height


def moments(rules: str, map_name: str) -> Iterator[Any]:
    """Copies of a demo match's state on the map, after the deployment and then every STRIDE
    commands, between activations: MOMENTS of them (fewer if the match ends first)."""
    match, _ = new_demo_match(7, default_content(map_name, rules=rules), rules=rules)
    played, state = ruleset(rules), match.state
    taken = steps = 0
    while taken < MOMENTS and state.phase != ENDED:
        if state.phase == PLAYING and state.activation is None and steps % STRIDE == 0:
            yield copy.deepcopy(state)
            taken += 1
        side = state.waiting_for()
        assert side is not None
        match.apply(played.automatic_command(state, side))
        steps += 1


def main() -> None:
    name = largest_map()
    print(f"largest shipped map: {name} ({_squares(content.raw('maps', name))} squares)")
    previews: list[float] = []
    baseline: list[float] = []
    for rules in ("skirm", "lite"):
        own, plain, cold = measure(rules, name)
        previews += own
        baseline += plain
        print(
            f"{ruleset(rules).title}: {len(own)} previews: median {statistics.median(own):.1f} ms, "
            f"95th percentile {_percentile(own, 95):.1f} ms, slowest {max(own):.1f} ms; "
            f"the first of the match (cold caches) {cold:.1f} ms"
        )
    worst = max(previews)
    verdict = "within" if worst < BUDGET_MS else "OVER"
    print(f"slowest preview {worst:.1f} ms: {verdict} the {BUDGET_MS:.0f} ms budget")
    print(
        f"baseline, the plain battlemap of the same states: "
        f"{statistics.median(baseline):.1f} ms median"
    )
    print(f"ratio: {statistics.median(previews) / statistics.median(baseline):.2f}")


def measure(rules: str, map_name: str) -> tuple[list[float], list[float], float]:
    """Each preview's time and the plain battlemap's, over the sampled states (every unit
    that can be previewed, where it stands and as if on a square it can reach); and the time
    of the match's first preview, with the renderer's caches cold."""
    played = ruleset(rules)
    pictures, maps = PreviewRenderer(), MapRenderer()
    states = list(moments(rules, map_name))
    first = states[0]
    cold = _timed(answer, pictures, played, first, first.on_map()[0].id, None)
    maps.png(played.view(first))
    own: list[float] = []
    plain: list[float] = []
    for state in states:
        for unit in state.on_map():
            try:
                reach = played.preview(state, unit.id).reach
            except RulesError:  # a Downed Lite Agent: nothing to preview
                continue
            for square in [None] + ([reach[len(reach) // 2].square] if reach else []):
                own.append(_timed(answer, pictures, played, state, unit.id, square))
                plain.append(_timed(maps.png, played.view(state)))
    return own, plain, cold


def answer(pictures: PreviewRenderer, played: Any, state: Any, unit: str, square: Any) -> bytes:
    """What the service does for a preview: a copy, the preview, the picture."""
    seen = copy_for_preview(state, own_board=True)
    return pictures.png(played.view(seen), played.preview(seen, unit, square))


def _timed(work: Callable[..., object], *args: Any) -> float:
    start = time.perf_counter()
    work(*args)
    return (time.perf_counter() - start) * 1000


def _percentile(samples: list[float], percent: int) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(len(ordered) * percent / 100))]


if __name__ == "__main__":
    main()
