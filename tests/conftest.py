"""Test-wide settings and fixtures.

Under CI (the CI variable set) hypothesis runs derandomized, so that a run is reproducible;
locally it explores new examples each time. ``db_url`` is an empty tournament database, once on
SQLite and once on PostgreSQL (``postgres_server``). The command line's per-user data folder is a
scratch folder for the whole run (GUOBIAO_HOME), so no test writes into the real home.
The test files start in the order ``pytest_collection_modifyitems`` gives them (see there).
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


# The files that take longest, longest first (seconds summed over their tests in a CI run, under
# two workers). WAITING files drive a browser or wait on a table's clocks; COMPUTING files play
# games or score hands. scripts/test runs each file in one pytest-xdist worker (--dist loadfile)
# in this order (--no-loadscope-reorder): the two kinds taken in turn, and the longest first, so
# that no long file is left to run alone at the end (xdist's own order, by number of tests, left
# the browser files to the end). A file not named here starts after these, in the usual order;
# naming it only changes when it starts.
WAITING = (
    "test_web_layout.py",  # 178 s
    "test_web_table_audit10.py",
    "test_web_friends_audit9.py",
    "test_web_lobby_audit8.py",
    "test_referee_audit_browser.py",
    "test_web_table_audit3.py",
    "test_server_e2e.py",
    "test_web_table_audit5.py",
    "test_web_pages_audit4.py",
    "test_web_replay_help_audit.py",
    "test_web_table_audit7.py",
    "test_organiser_audit5_browser.py",
    "test_web_table_audit11.py",
    "test_organiser_audit10_browser.py",
    "test_web_i18n.py",
    "test_tournament_pages_audit2_browser.py",
    "test_server_tournament_e2e.py",
    "test_organiser_audit9_browser.py",
    "test_web_table_audit6.py",
    "test_web_lobby.py",  # 9 s
)
COMPUTING = (
    "test_game_invariants.py",  # 65 s
    "test_tournament_sim.py",
    "test_differential.py",
    "test_workers.py",
    "test_papers_letter.py",
    "test_server_load.py",
    "test_hostile_replay.py",
    "test_bots.py",
    "test_reports.py",
    "test_architecture.py",
    "test_tournament_event.py",
    "test_botzone_protocol.py",
    "test_shanten.py",
    "test_shanten_table.py",
    "test_env_fast_path.py",
    "test_leftovers_audit3.py",
    "test_server_app.py",
    "test_env.py",
    "test_tournament_withdraw.py",
    "test_readme.py",  # 16 s
)
FIRST = tuple(name for pair in zip(WAITING, COMPUTING, strict=True) for name in pair)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of FIRST first, in its order; the rest after them as collected (a stable sort:
    the tests of a file keep their order)."""
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(FIRST)))


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
