"""The repository's documents stand on their own: no link or path leads out of the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("benchmarks/*.md")])
#: This computer, or a placeholder in capitals for the reader's own address (YOUR-DOMAIN).
LOOPBACK = re.compile(r"^(https?|wss?)://(127\.0\.0\.1|localhost|\[::1\]|[A-Z][A-Z-]*)(:\w+)?(/|$)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_link_leaves_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for url in re.findall(r"(?:https?|wss?)://[^\s)`'\"<>]+", text):
        assert LOOPBACK.match(url), f"{doc.name}: a link out of the repository: {url}"
    assert "../" not in text, f"{doc.name}: a path out of the repository"
    assert "shared/" not in text, f"{doc.name}: names the team's files, which are not here"
    for target in re.findall(r"\]\(([^)#\s]+)", text):
        assert (doc.parent / target).exists(), f"{doc.name}: the link {target} leads nowhere"


def test_the_readme_starts_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", text, re.S)
    assert blocks[0] == (
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/batak serve"
    )
    assert blocks[1] == (
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"
    )
    assert text.index("```sh") < text.index("\n## ")
