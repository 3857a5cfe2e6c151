"""The README and the docs refer only to what a clone holds (issue 20)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", REPO / "docs" / "architecture.md", REPO / "docs" / "deploy.md"]
# A path of the repository as the docs write it: a top-level folder we keep, then a file or folder.
REPO_PATH = re.compile(
    r"(?<![\w/.])((?:docs|skirmbot|cogs|migrations|tests|benchmarks|shared)/[\w./-]*[\w/])"
)
LINK = re.compile(r"\]\(([^)#]+)\)")


def referenced_paths(text: str) -> set[str]:
    found = set(REPO_PATH.findall(text)) | {
        link for link in LINK.findall(text) if "://" not in link
    }
    return {path.rstrip("/") for path in found}


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.name)
def test_every_path_a_doc_names_is_in_the_repository(doc: Path) -> None:
    missing = sorted(
        path
        for path in referenced_paths(doc.read_text(encoding="utf-8"))
        if not any((REPO / path).exists() for path in _expansions(path))
    )
    assert missing == []


def _expansions(path: str) -> list[str]:
    """`skirmbot/rules/` or `maps/*.json`: a glob stands for any file it matches."""
    if "*" in path:
        return [str(match.relative_to(REPO)) for match in REPO.glob(path)]
    return [path]


def test_the_readme_shows_a_picture_and_the_python_it_needs() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    top = text[: text.index("## Playing on Discord")]
    assert "Python 3.11 or newer" in top
    assert re.search(r"!\[[^\]]+\]\(docs/[\w-]+\.png\)", top)
    assert (REPO / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
