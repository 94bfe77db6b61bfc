from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` (long soak runs) run only when asked for: ``pytest -m slow``."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="a long run: pytest -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
