from __future__ import annotations

import sys
from collections.abc import Iterator
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


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """A test's server database, once each: None (SQLite in the test's folder), then a fresh
    PostgreSQL database's URL (BATAK_TEST_POSTGRES, started by .ci/run; skipped without it)."""
    if request.param == "sqlite":
        yield None
        return
    from harness import postgres_database

    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    with pg as url:
        yield url
