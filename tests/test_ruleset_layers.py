"""Rulesets own their state: the layers of ARCHITECTURE.md, held by reading the source
(issue 29; tests/test_layers.py holds the others).

- Nothing outside `skirmbot/rules/<ruleset>/` imports a ruleset package: service, render,
  timers, console, demo, web and cogs reach a ruleset through `Ruleset` and what it returns.
- Nothing outside the rules reads a played match's state (`match.state.units`): it asks the
  ruleset (`view`, `card`, `deciding`, ...) and passes the state back whole.
- The kernel imports no ruleset; a ruleset imports the kernel, and a variant (Lite) the
  package it varies.
- No module imports itself back through others (an import circle), type-only imports aside.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

from skirmbot.rules.ruleset import PACKAGES

ROOT = Path(__file__).resolve().parent.parent
RULESET_PACKAGES = tuple(PACKAGES)
# A variant may build on the package it varies, through what that package offers.
BUILDS_ON = {"skirmbot.rules.lite": ("skirmbot.rules.skirm",)}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[0] == "cogs":
        parts.insert(0, "skirmbot")  # installed as skirmbot.cogs (setup.py)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> Iterator[tuple[str, Path, ast.Module]]:
    for top in ("skirmbot", "cogs"):
        for path in sorted((ROOT / top).rglob("*.py")):
            yield _module_name(path), path, ast.parse(path.read_text(encoding="utf-8"))


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Line numbers of imports under `if TYPE_CHECKING:` (they never run)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def _imports(
    module: str, path: Path, tree: ast.Module, *, typing_too: bool = False
) -> Iterator[tuple[int, str]]:
    """(line, module imported) for every import that runs (and, `typing_too`, those for type
    checking only), relative ones resolved."""
    skipped: set[int] = set() if typing_too else _type_checking_only(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if node.lineno in skipped if hasattr(node, "lineno") else False:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield node.lineno, base
            for alias in node.names:  # `from skirmbot.rules import skirm` imports a package
                yield node.lineno, f"{base}.{alias.name}"


def _owner(module: str) -> str | None:
    """The ruleset package `module` belongs to, if any."""
    return next((p for p in RULESET_PACKAGES if module == p or module.startswith(p + ".")), None)


def test_nothing_outside_a_ruleset_imports_it() -> None:
    found = []
    for module, path, tree in _sources():
        home = _owner(module)
        allowed = {home, *BUILDS_ON.get(home or "", ())} if home else set()
        for line, imported in _imports(module, path, tree, typing_too=True):
            target = _owner(imported)
            if target is not None and target not in allowed:
                found.append(f"{path.relative_to(ROOT)}:{line} imports {imported}")
    assert found == []


def test_a_variant_uses_no_private_name_of_the_package_it_varies() -> None:
    """Lite builds on Skirm through the hooks Skirm offers, never its `_private` helpers."""
    found = []
    for module, path, tree in _sources():
        home = _owner(module)
        for line, imported in _imports(module, path, tree):
            if _owner(imported) in BUILDS_ON.get(home or "", ()) and "._" in imported:
                found.append(f"{path.relative_to(ROOT)}:{line} imports {imported}")
    assert found == []


def test_nothing_outside_the_rules_reads_a_match_state() -> None:
    """`x.state.anything` outside skirmbot/rules: the state is the ruleset's own."""
    found = []
    for module, path, tree in _sources():
        if module.startswith("skirmbot.rules"):
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "state"
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} reads {ast.unparse(node)}")
    assert found == []


def test_no_import_circles() -> None:
    graph: nx.DiGraph[str] = nx.DiGraph()
    names = {module for module, _, _ in _sources()}
    for module, path, tree in _sources():
        graph.add_node(module)
        for _, imported in _imports(module, path, tree):
            if imported in names and imported != module and not module.startswith(imported + "."):
                graph.add_edge(module, imported)
    # A package's __init__ importing its own modules is how a package exposes them: not a circle.
    circles = [c for c in nx.simple_cycles(graph) if not _package_and_its_own(c)]
    assert sorted(" -> ".join(c) for c in circles) == []


def _package_and_its_own(cycle: list[str]) -> bool:
    """A package's __init__ and a module inside it importing each other (RULESET exposure)."""
    return len(cycle) == 2 and (
        cycle[0].startswith(cycle[1] + ".") or cycle[1].startswith(cycle[0] + ".")
    )
