"""The repository's documents stand on their own: no link or path leads out of the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import SRC, package_modules

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


def test_the_worked_bot_example_plays_in_the_arena(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/bots.md's example, as written there, plays legal moves against our medium player."""
    from batak.arena import ArenaConfig, run

    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    example = text.split("## A worked example", 1)[1]
    code = re.search(r"```python\n(.*?)```", example, re.S)
    assert code is not None
    (tmp_path / "mybot.py").write_text(code.group(1), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    result = run(ArenaConfig(bots=("mybot:CheapWinner", "medium"), deals=4), jobs=1)
    assert len(result["boards"]) == 4  # every move legal: an illegal one raises


def test_the_view_keys_in_the_bot_guide_are_the_views_keys() -> None:
    """Every key docs/bots.md's view table names is a key of a seat's view, and every key of
    the view is there: the table used to name a ``trick`` that no view has."""
    import batak

    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = text.split("## The view", 1)[1].split("\n## ", 1)[0]
    named = {
        key
        for row in re.findall(r"^\| ([^|]+) \|", section, re.M)
        for key in re.findall(r"`(\w+)`", row)
    }
    view = batak.Match("standard", seed=1).view(0)
    assert named - set(view) == set()
    assert set(view) == named  # every key, the format's version too


def test_every_module_and_web_file_is_in_the_architecture_page() -> None:
    """docs/architecture.md names every module of the package and every script of the web
    client, so a newcomer finds where each thing lives (and a new file is not forgotten)."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [name for name in sorted(package_modules()) if f"`{name}`" not in page]
    for path in sorted((SRC / "batak" / "web" / "static").glob("*.js")):
        if f"`{path.name}`" not in page:
            missing.append(path.name)
    assert not missing, f"not in docs/architecture.md: {', '.join(missing)}"
