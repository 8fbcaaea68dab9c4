"""The head referee's audit of score entry (a 32-player event, 8 tables a session, several
referees on phones at once), the server's part: a table carries a ``revision`` (what the referee
page showed), and a save made from a view of the table that is no longer true (another referee
entered or corrected it meanwhile) is refused with 409 ``changed`` and changes nothing, instead
of silently replacing the other referee's numbers. The pages in Chromium:
tests/test_referee_audit_browser.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from click.testing import CliRunner
from fastapi.testclient import TestClient

from guobiao.cli import main
from guobiao.server.app import create_app
from guobiao.tournament.store import open_store

T = "open32"
NAMES = tuple(f"{'选手' if i % 3 == 0 else 'Player'}{i + 1}" for i in range(32))


def ok(url: str, *args: str) -> str:
    result = CliRunner().invoke(main, ["tournament", *args, "--db", url])
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


def password(output: str) -> str:
    found = re.search(r"password (\S+)", output)
    assert found, output
    return found[1]


def event(tmp_path: Path) -> dict[str, Any]:
    """32 players, 2 sessions drawn (8 tables each); referees li and wang, organiser boss."""
    url = f"sqlite:///{tmp_path / 'open32.db'}"
    players = tmp_path / "players.csv"
    players.write_text(
        "number,name\n" + "".join(f"{i + 1},{n}\n" for i, n in enumerate(NAMES)), encoding="utf-8"
    )
    ok(url, "create", T, "--sessions", "2")
    ok(url, "players", T, str(players))
    ok(url, "draw", T, "--seed", "7")
    return {
        "url": url,
        "li": password(ok(url, "referee", T, "--add", "li")),
        "wang": password(ok(url, "referee", T, "--add", "wang")),
        "boss": password(ok(url, "referee", T, "--add", "boss", "--organiser")),
    }


@pytest.fixture
def site(tmp_path: Path) -> dict[str, Any]:
    return event(tmp_path)


@pytest.fixture
def client(tmp_path: Path, site: dict[str, Any]) -> Iterator[TestClient]:
    app = create_app(tmp_path / "rooms.sqlite3", tournament_db=site["url"], check_interval=0)
    with TestClient(app) as c:
        yield c


def log_in(client: TestClient, site: dict[str, Any], user: str) -> str:
    res = client.post(f"/api/t/{T}/login", json={"username": user, "password": site[user]})
    assert res.status_code == 200, res.text
    csrf: str = res.json()["csrf"]
    return csrf


def table(client: TestClient, number: int) -> dict[str, Any]:
    tables = client.get(f"/api/t/{T}/seating/1").json()["tables"]
    found: dict[str, Any] = next(t for t in tables if t["table"] == number)
    return found


def save(client: TestClient, csrf: str, number: int, scores: tuple[int, ...], **more: Any) -> Any:
    body = {"session": 1, "table": number, "scores": dict(zip("ESWN", scores, strict=True))}
    return client.post(f"/api/t/{T}/results", json={**body, **more}, headers={"X-CSRF-Token": csrf})


def held(site: dict[str, Any], number: int) -> list[int] | None:
    """Table ``number``'s 局分 E S W N as the database holds them."""
    store = open_store(site["url"])
    try:
        scores = store.table_scores(T, 1, number)
        if scores is None:
            return None
        order = dict(store_seats(store, number))
        return [scores[order[w]] for w in "ESWN"]
    finally:
        store.close()


def store_seats(store: Any, number: int) -> list[tuple[str, str]]:
    from guobiao.tournament.queries import read_seating

    names = dict(read_seating(store, T, 1))[number]
    return list(zip("ESWN", names, strict=True))


def test_a_save_from_a_stale_view_is_refused_not_written_over(
    client: TestClient, site: dict[str, Any]
) -> None:
    # two referees open table 3 on their phones: both see it not entered, the same revision
    phone = TestClient(client.app)  # wang's phone: its own cookie
    li, wang = log_in(client, site, "li"), log_in(phone, site, "wang")
    seen = table(client, 3)["revision"]
    assert isinstance(seen, str) and seen
    assert save(client, li, 3, (620, 480, 510, 390), seen=seen).status_code == 200
    # wang, typing from the same sheet with one number misread, saves from that view: told
    res = save(phone, wang, 3, (620, 480, 501, 399), seen=seen)
    assert res.status_code == 409, res.text
    assert res.json()["detail"]["code"] == "changed"
    assert res.json()["detail"]["params"]["table"] == 3
    assert held(site, 3) == [620, 480, 510, 390]
    # both look again and correct it, each from the entered table: the first goes through...
    now = table(client, 3)
    assert now["revision"] != seen and now["entered"]
    fixed = save(client, li, 3, (600, 480, 510, 410), seen=now["revision"], correct=True)
    assert fixed.status_code == 200, fixed.text
    # ...the second, made against what it no longer is, is refused and changes nothing
    late = save(phone, wang, 3, (620, 480, 501, 399), seen=now["revision"], correct=True)
    assert late.status_code == 409, late.text
    assert held(site, 3) == [600, 480, 510, 410]
    # against the table as it is now, wang's correction goes through, audited under wang
    again = save(
        phone, wang, 3, (620, 480, 501, 399), seen=table(client, 3)["revision"], correct=True
    )
    assert again.status_code == 200, again.text
    assert held(site, 3) == [620, 480, 501, 399]
    store = open_store(site["url"])
    try:
        trail = [(a.who, a.table, bool(a.old)) for a in store.audit_trail(T)]
    finally:
        store.close()
    assert trail == [("li", 3, False), ("li", 3, True), ("wang", 3, True)]


def test_the_revision_moves_with_every_change_a_referee_would_see(
    client: TestClient, site: dict[str, Any]
) -> None:
    li = log_in(client, site, "li")
    before = {
        t["table"]: t["revision"] for t in client.get(f"/api/t/{T}/seating/1").json()["tables"]
    }
    assert len(before) == 8 and len(set(before.values())) == 8  # tables differ by who sits there
    # a lateness deduction recorded at the desk (another process) moves table 5's revision only
    store = open_store(site["url"])
    try:
        names = dict(store_seats(store, 5))
    finally:
        store.close()
    ok(site["url"], "late", T, "--session", "1", "--player", names["W"], "--minutes", "7")
    after = {
        t["table"]: t["revision"] for t in client.get(f"/api/t/{T}/seating/1").json()["tables"]
    }
    assert [n for n in before if before[n] != after[n]] == [5]
    # a save from the view before the deduction is refused: the sum it was checked against moved
    res = save(client, li, 5, (620, 480, 510, 390), seen=before[5])
    assert res.status_code == 409, res.text
    assert held(site, 5) is None
    # a client that sends no revision (the command line, older pages) is checked as before
    plain = save(client, li, 6, (620, 480, 510, 390))
    assert plain.status_code == 200, plain.text
    assert save(client, li, 6, (620, 480, 510, 390)).status_code == 400  # no second entry
