"""Test-wide settings and fixtures.

Under CI (the CI variable set) hypothesis runs derandomized, so that a run is reproducible;
locally it explores new examples each time. ``db_url`` is an empty tournament database, once on
SQLite and once on PostgreSQL (``postgres_server``). The command line's per-user data folder is a
scratch folder for the whole run (GUOBIAO_HOME), so no test writes into the real home.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from sqlalchemy import create_engine, make_url

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session", autouse=True)
def _scratch_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """GUOBIAO_HOME in a scratch folder and no GUOBIAO_DB, for every test and subprocess."""
    home = tmp_path_factory.mktemp("guobiao-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GUOBIAO_HOME", str(home))
        patch.delenv("GUOBIAO_DB", raising=False)
        yield home


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium (Debian's, through Playwright), one per test module; the modules that
    use it import test_server_e2e, which finds the browser (or fails under CI)."""
    from playwright import sync_api

    from test_server_e2e import CHROMIUM

    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


POSTGRES_URL = "GUOBIAO_TEST_POSTGRES_URL"
POSTGRES_SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "postgres.sh"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL database to create test databases from: GUOBIAO_TEST_POSTGRES_URL
    (set by scripts/test). Missing under CI: the PostgreSQL cases fail (never skip). Missing in a
    plain local ``pytest``: a throwaway server from scripts/postgres.sh, stopped at the end."""
    url = os.environ.get(POSTGRES_URL)
    if url:
        yield url
        return
    if os.environ.get("CI"):
        pytest.fail(
            f"{POSTGRES_URL} is not set: run the tests with scripts/test, which starts PostgreSQL "
            "(scripts/postgres.sh)",
            pytrace=False,
        )
    run = subprocess.run(
        ["bash", str(POSTGRES_SCRIPT), "start"], capture_output=True, text=True, check=False
    )
    if run.returncode != 0:
        pytest.fail(
            f"{POSTGRES_URL} is not set and `bash scripts/postgres.sh start` failed "
            f"(exit {run.returncode}):\n{run.stderr}",
            pytrace=False,
        )
    values = dict(line.split("=", 1) for line in run.stdout.splitlines() if "=" in line)
    try:
        yield values[POSTGRES_URL]
    finally:
        subprocess.run(
            ["bash", str(POSTGRES_SCRIPT), "stop", values["GUOBIAO_TEST_POSTGRES_DIR"]],
            check=False,
        )


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a SQLite file, or a fresh PostgreSQL database dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 't.db'}"
        return
    base: str = request.getfixturevalue("postgres_server")
    name = f"guobiao_t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()
