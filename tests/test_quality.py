"""The engine stays typed (mypy --strict) and lint-clean (ruff), as ARCHITECTURE.md asks."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy not installed")
def test_mypy_strict_clean() -> None:
    result = _run([sys.executable, "-m", "mypy", "--strict", "src/batak"])
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff not installed")
def test_ruff_clean() -> None:
    result = _run([sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks"])
    assert result.returncode == 0, result.stdout + result.stderr


def test_engine_has_no_io_or_third_party_imports() -> None:
    """ARCHITECTURE.md: the engine (cards … record) imports only the standard library."""
    engine = ["cards", "rules", "moves", "game", "scoring", "view", "match", "record", "explain"]
    banned = ("socket", "asyncio", "requests", "numpy", "print(")
    paths = [ROOT / "src" / "batak" / f"{name}.py" for name in engine]
    for path in [*paths, ROOT / "src" / "batak" / "i18n" / "__init__.py"]:
        name = path.stem if path.stem != "__init__" else path.parent.name
        source = path.read_text(encoding="utf-8")
        for word in banned:
            assert word not in source, f"{name}.py uses {word}"
