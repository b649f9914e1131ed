"""The PostgreSQL fixtures of the server's tests (imported by the tests that use them: ``from pgfixtures import
any_db, pg_cluster, pg_url``): one throwaway cluster per test session (tests/pgcluster.py), a fresh database per
test. Skipped, with the reason, only where PostgreSQL's server programs or psycopg are
missing (CI installs both: .ci/run, the extra ``dev``)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from pgcluster import PgCluster, missing_reason

_names = itertools.count(1)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    reason = missing_reason()
    if reason is not None:
        pytest.skip(reason)
    pytest.importorskip("psycopg", reason="psycopg 3 is not installed: pip install -e '.[postgres]'")
    with PgCluster(durable=False) as pg:
        yield pg


@pytest.fixture
def pg_url(pg_cluster: PgCluster) -> str:
    """A new, empty database in the session's cluster."""
    return pg_cluster.create_database(f"t{next(_names)}")


@pytest.fixture(params=["sqlite", "postgres"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A test's database in each store: a SQLite file, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "db.sqlite")
    return str(request.getfixturevalue("pg_url"))
