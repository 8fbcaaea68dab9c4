"""The tournament pages of ``guobiao serve --db`` (FastAPI's TestClient): public reads, live
updates, referee accounts, and every way an unauthorised request is refused with the database
left unchanged; the session clock; ``guobiao tournament referee``."""

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
from guobiao.server.tournament import COOKIE
from guobiao.tournament.accounts import (
    SessionSigner,
    add_account,
    authenticate,
    hash_password,
    verify_password,
)
from guobiao.tournament.store import open_store

PLAYERS = "number,name,team\n" + "".join(
    f"{i + 1},P{i + 1},{('Red', 'Blue', 'Gold', 'Jade')[i % 4]}\n" for i in range(8)
)


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def password_of(output: str) -> str:
    found = re.search(r"password (\S+)", output)
    assert found, output
    return found.group(1)


class Clock:
    """The wall clock of login expiries and the session clock."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def db(tmp_path: Path) -> dict[str, str]:
    """Two tournaments: "club" (8 players, 4 teams of 2, 2 sessions drawn) with a referee "li" and
    an organiser "boss"; "other" with a referee "ola"."""
    url = f"sqlite:///{tmp_path / 'guobiao.db'}"
    csv = tmp_path / "players.csv"
    csv.write_text(PLAYERS, encoding="utf-8")
    cli("tournament", "create", "club", "--sessions", "2", "--db", url)
    cli("tournament", "players", "club", str(csv), "--db", url)
    cli("tournament", "draw", "club", "--seed", "3", "--db", url)
    cli("tournament", "create", "other", "--sessions", "1", "--db", url)
    return {
        "url": url,
        "li": password_of(cli("tournament", "referee", "club", "--add", "li", "--db", url)),
        "boss": password_of(
            cli("tournament", "referee", "club", "--add", "boss", "--organiser", "--db", url)
        ),
        "ola": password_of(cli("tournament", "referee", "other", "--add", "ola", "--db", url)),
    }


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(tmp_path: Path, db: dict[str, str], clock: Clock) -> Iterator[TestClient]:
    app = create_app(
        tmp_path / "rooms.sqlite3",
        tournament_db=db["url"],
        wall=clock,
        session_seconds=3600,
        check_interval=0,
    )
    with TestClient(app) as c:
        yield c


def login(client: TestClient, user: str, password: str, tournament: str = "club") -> str:
    res = client.post(f"/api/t/{tournament}/login", json={"username": user, "password": password})
    assert res.status_code == 200, res.text
    assert COOKIE in res.cookies
    csrf: str = res.json()["csrf"]
    return csrf


def seats(client: TestClient, session: int = 1, table: int = 1) -> list[dict[str, Any]]:
    data = client.get(f"/api/t/club/seating/{session}").json()
    found: list[dict[str, Any]] = next(t for t in data["tables"] if t["table"] == table)["seats"]
    return found


def snapshot(url: str) -> Any:
    """Everything a result entry could change."""
    store = open_store(url)
    try:
        scores = [(s, t, store.table_scores("club", s, t)) for s in (1, 2) for t in (1, 2)]
        return scores, [(a.who, a.new) for a in store.audit("club")], store.penalty_list("club")
    finally:
        store.close()


TOTALS = {"session": 1, "table": 1, "scores": {"E": 620, "S": 480, "W": 510, "N": 390}}


def post_totals(client: TestClient, csrf: str | None, body: dict[str, Any] | None = None) -> Any:
    headers = {} if csrf is None else {"X-CSRF-Token": csrf}
    return client.post("/api/t/club/results", json=body or TOTALS, headers=headers)


# -- public pages and reads ---------------------------------------------------------------------


def test_pages_are_served_with_security_headers(client: TestClient) -> None:
    for path in (
        "/t/",
        "/t/club",
        "/t/club/projector",
        "/t/club/referee",
        "/t/club/sheet/1/1",
        "/t/club/results",
    ):
        res = client.get(path)
        assert res.status_code == 200, path
        assert res.headers["content-type"].startswith("text/html")
        assert res.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in res.headers["content-security-policy"]
    sheet = client.get("/t/club/sheet/1/1").text
    assert "记分表" in sheet and "/static/live.js" in sheet
    assert client.get("/t/club/sheet/1/9").status_code == 404  # an HTML page
    assert client.get("/t/nobody/results").status_code == 404
    for asset in ("tournament.js", "referee.js", "projector.js", "live.js", "tournament.css"):
        assert client.get(f"/static/{asset}").status_code == 200


def test_public_reads(client: TestClient) -> None:
    names = [t["name"] for t in client.get("/api/tournaments").json()]
    assert sorted(names) == ["club", "other"]
    summary = client.get("/api/t/club").json()
    assert summary["seated"] == [1, 2] and summary["current"] == 1 and summary["teams"]
    assert summary["starting_points"] == 500
    assert summary["clock"]["running"] is False
    seating = client.get("/api/t/club/seating/1").json()
    assert [t["table"] for t in seating["tables"]] == [1, 2]
    assert all(len(t["seats"]) == 4 and not t["entered"] for t in seating["tables"])
    standings = client.get("/api/t/club/standings").json()
    # every registered player listed, none ranked yet: by registration number, no place
    assert [(r["rank"], r["status"]) for r in standings["individual"]] == [
        ("—", "did not play")
    ] * 8
    assert [r["number"] for r in standings["individual"]] == list(range(1, 9))
    assert {t["standard"] for t in standings["teams"]} == {"0"}
    assert client.get("/api/t/nobody").status_code == 404
    assert client.get("/api/t/club/seating/7").status_code == 400


# -- entering results ---------------------------------------------------------------------------


def test_a_referee_enters_and_corrects_and_the_standings_follow(
    client: TestClient, db: dict[str, str]
) -> None:
    version = client.get("/api/t/club/changes", params={"since": 0, "wait": 0}).json()["version"]
    unchanged = client.get("/api/t/club/changes", params={"since": version, "wait": 0.3})
    assert unchanged.json()["version"] == version
    csrf = login(client, "li", db["li"])
    me = client.get("/api/t/club/me").json()
    assert me["username"] == "li" and me["role"] == "referee" and me["csrf"] == csrf
    names = [s["name"] for s in seats(client)]
    res = post_totals(client, csrf)
    assert res.status_code == 200, res.text
    # the live feed moves, and the standings page's data shows the new ranking
    after = client.get("/api/t/club/changes", params={"since": version, "wait": 5}).json()
    assert after["version"] > version
    every = client.get("/api/t/club/standings").json()["individual"]
    standings = [r for r in every if r["status"] == "ranked"]
    assert [r["name"] for r in standings] == [names[0], names[2], names[1], names[3]]
    # the four who have not played yet follow, with no place
    assert [(r["rank"], r["status"]) for r in every[4:]] == [("—", "did not play")] * 4
    assert {r["name"] for r in every} == {f"P{i}" for i in range(1, 9)}
    assert standings[0]["standard"] == "4" and standings[0]["match"] == 620
    table = client.get("/api/t/club/seating/1").json()["tables"][0]
    assert table["entered"] and table["source"] == "totals"
    assert [s["score"] for s in table["seats"]] == [620, 480, 510, 390]
    # a second entry is refused; a correction (with a deduction) is audited under "li"
    assert post_totals(client, csrf).status_code == 400
    corrected = {
        **TOTALS,
        "scores": {"E": 600, "S": 480, "W": 510, "N": 400},
        "deductions": {"N": 10},
        "correct": True,
        "note": "sheet misread",
    }
    res = post_totals(client, csrf, corrected)
    assert res.status_code == 200, res.text
    store = open_store(db["url"])
    audit = store.audit("club")
    trail = store.audit_trail("club")
    store.close()
    assert [a.who for a in audit] == ["li"]
    # the first entry too is under the referee's name (web as on the command line)
    assert [(a.who, a.session, a.table, bool(a.old)) for a in trail] == [
        ("li", 1, 1, False),
        ("li", 1, 1, True),
    ]
    assert audit[0].old["scores"][names[0]] == 620
    assert audit[0].new["deductions"] == {names[3]: 10}
    table = client.get("/api/t/club/seating/1").json()["tables"][0]
    assert table["deductions"] == {"E": 0, "S": 0, "W": 0, "N": 10}


def test_a_wrong_sum_is_refused_by_the_server(client: TestClient, db: dict[str, str]) -> None:
    csrf = login(client, "li", db["li"])
    before = snapshot(db["url"])
    for scores in (
        {"E": 620, "S": 480, "W": 510, "N": 391},  # 2001
        {"E": 620, "S": 480, "W": 510},  # a seat missing
        {"E": 620, "S": 480, "W": 510, "X": 390},
    ):
        res = post_totals(client, csrf, {**TOTALS, "scores": scores})
        assert res.status_code == 400, res.text
    # the deductions come off the 2000
    res = post_totals(client, csrf, {**TOTALS, "deductions": {"N": 10}})
    assert res.status_code == 400 and "1990" in res.json()["detail"]["message"]
    assert post_totals(client, csrf, {**TOTALS, "table": 9}).status_code == 400
    assert snapshot(db["url"]) == before


def test_results_entered_elsewhere_show_up_live(client: TestClient, db: dict[str, str]) -> None:
    """A result entered with the CLI (another process, the same database) moves the feed."""
    version = client.get("/api/t/club/changes", params={"since": 0, "wait": 0}).json()["version"]
    names = [s["name"] for s in seats(client, 1, 2)]
    store = open_store(db["url"])
    store.record_session_totals("club", 1, 2, dict(zip(names, (500, 500, 400, 600), strict=True)))
    store.close()
    after = client.get("/api/t/club/changes", params={"since": version, "wait": 5}).json()
    assert after["version"] > version
    assert client.get("/api/t/club/standings").json()["individual"][0]["name"] == names[3]


# -- who may change results ---------------------------------------------------------------------


def test_anonymous_requests_change_nothing(client: TestClient, db: dict[str, str]) -> None:
    before = snapshot(db["url"])
    res = post_totals(client, None)
    assert res.status_code == 401
    res = client.post("/api/t/club/clock", json={"action": "start"})
    assert res.status_code == 401
    assert client.get("/api/t/club/me").status_code == 401
    assert snapshot(db["url"]) == before


def test_a_referee_of_another_tournament_changes_nothing(
    client: TestClient, db: dict[str, str]
) -> None:
    before = snapshot(db["url"])
    csrf = login(client, "ola", db["ola"], "other")
    res = post_totals(client, csrf)
    assert res.status_code == 403 and res.json()["detail"]["code"] == "forbidden"
    # nor can ola log in to club with club's tournament name
    res = client.post("/api/t/club/login", json={"username": "ola", "password": db["ola"]})
    assert res.status_code == 401
    assert snapshot(db["url"]) == before


def test_an_expired_session_changes_nothing(
    client: TestClient, db: dict[str, str], clock: Clock
) -> None:
    before = snapshot(db["url"])
    csrf = login(client, "li", db["li"])
    clock.now += 3601  # the session lasted an hour
    res = post_totals(client, csrf)
    assert res.status_code == 401
    assert client.get("/api/t/club/me").status_code == 401
    assert snapshot(db["url"]) == before


@pytest.mark.parametrize("token", [None, "", "forged-token", "x" * 43])
def test_a_missing_or_forged_csrf_token_changes_nothing(
    client: TestClient, db: dict[str, str], token: str | None
) -> None:
    before = snapshot(db["url"])
    login(client, "li", db["li"])
    res = post_totals(client, token)
    assert res.status_code == 403 and res.json()["detail"]["code"] == "csrf"
    assert snapshot(db["url"]) == before


def test_the_csrf_token_of_another_session_is_refused(
    client: TestClient, db: dict[str, str], tmp_path: Path, clock: Clock
) -> None:
    before = snapshot(db["url"])
    other = login(client, "boss", db["boss"])  # boss's token...
    login(client, "li", db["li"])  # ...with li's cookie
    assert post_totals(client, other).status_code == 403
    assert snapshot(db["url"]) == before


def test_a_forged_or_tampered_cookie_changes_nothing(
    client: TestClient, db: dict[str, str]
) -> None:
    before = snapshot(db["url"])
    csrf = login(client, "li", db["li"])
    cookie = client.cookies[COOKIE]
    payload, _, mac = cookie.partition(".")
    for forged in (payload + ".AAAA", "garbage", payload[:-2] + "xx." + mac):
        client.cookies.clear()
        client.cookies.set(COOKIE, forged)
        assert post_totals(client, csrf).status_code == 401
    client.cookies.clear()
    client.cookies.set(COOKIE, cookie)  # the genuine cookie, set the same way, still works
    assert client.get("/api/t/club/me").status_code == 200
    # a cookie signed with another server's key
    store = open_store(db["url"])
    account = authenticate(store, "club", "li", db["li"])
    store.close()
    assert account is not None
    stranger, session = SessionSigner(b"k" * 32).issue(account, 1_800_000_000.0, 3600)
    client.cookies.clear()
    client.cookies.set(COOKIE, stranger)
    assert post_totals(client, SessionSigner(b"k" * 32).csrf_token(session)).status_code == 401
    assert snapshot(db["url"]) == before


def test_form_posts_and_bad_logins_are_refused(client: TestClient, db: dict[str, str]) -> None:
    before = snapshot(db["url"])
    csrf = login(client, "li", db["li"])
    res = client.post(
        "/api/t/club/results",
        content="session=1&table=1",
        headers={"X-CSRF-Token": csrf, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert res.status_code in (415, 422)
    client.cookies.clear()
    for _ in range(10):
        res = client.post("/api/t/club/login", json={"username": "li", "password": "guess"})
        assert res.status_code == 401
    res = client.post("/api/t/club/login", json={"username": "li", "password": db["li"]})
    assert res.status_code == 429  # too many failures: even the right password waits
    assert snapshot(db["url"]) == before


def test_removing_or_resetting_an_account_ends_its_sessions(
    client: TestClient, db: dict[str, str]
) -> None:
    before = snapshot(db["url"])
    csrf = login(client, "li", db["li"])
    new = password_of(cli("tournament", "referee", "club", "--reset", "li", "--db", db["url"]))
    assert post_totals(client, csrf).status_code == 401
    csrf = login(client, "li", new)
    cli("tournament", "referee", "club", "--remove", "li", "--db", db["url"])
    assert post_totals(client, csrf).status_code == 401
    res = client.post("/api/t/club/login", json={"username": "li", "password": new})
    assert res.status_code == 401
    assert snapshot(db["url"]) == before


def test_logout_needs_the_csrf_token_and_ends_the_session(
    client: TestClient, db: dict[str, str]
) -> None:
    csrf = login(client, "li", db["li"])
    assert client.post("/api/t/club/logout", json={}).status_code == 403
    assert client.post("/api/t/club/logout", json={}, headers={"X-CSRF-Token": csrf}).json()
    assert client.get("/api/t/club/me").status_code == 401


def test_the_login_cookie_is_httponly_and_samesite(client: TestClient, db: dict[str, str]) -> None:
    res = client.post("/api/t/club/login", json={"username": "li", "password": db["li"]})
    header = res.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=strict" in header and "max-age=3600" in header


# -- the session clock ----------------------------------------------------------------------------


def test_the_organiser_runs_the_clock(
    client: TestClient, db: dict[str, str], clock: Clock, tmp_path: Path
) -> None:
    csrf = login(client, "li", db["li"])
    res = client.post("/api/t/club/clock", json={"action": "start"}, headers={"X-CSRF-Token": csrf})
    assert res.status_code == 403  # a referee, not the organiser
    csrf = login(client, "boss", db["boss"])
    headers = {"X-CSRF-Token": csrf}
    assert client.post("/api/t/club/clock", json={"action": "start"}).status_code == 403
    res = client.post(
        "/api/t/club/clock", json={"action": "reset", "minutes": 120, "session": 1}, headers=headers
    )
    assert res.json()["remaining"] == 7200 and res.json()["session"] == 1
    planned = client.get("/api/t/club").json()["sessions"]
    # a session the tournament does not have: out of any range (422), or beyond its own
    for session, status, code in (
        (0, 422, "bad_request"),
        (planned + 1, 400, "bad_action"),
        (99999, 400, "bad_action"),
    ):
        res = client.post(
            "/api/t/club/clock",
            json={"action": "reset", "minutes": 5, "session": session},
            headers=headers,
        )
        assert res.status_code == status and res.json()["detail"]["code"] == code, session
    assert client.get("/api/t/club/clock").json()["remaining"] == 7200  # nothing changed
    client.post("/api/t/club/clock", json={"action": "start"}, headers=headers)
    clock.now += 600
    state = client.get("/api/t/club/clock").json()
    assert state["running"] and state["remaining"] == 6600 and not state["warn"]
    client.post("/api/t/club/clock", json={"action": "pause"}, headers=headers)
    clock.now += 1000
    assert client.get("/api/t/club/clock").json()["remaining"] == 6600
    client.post("/api/t/club/clock", json={"action": "start"}, headers=headers)
    clock.now += 6600 - 900  # 15 minutes left: the warning of 第六条四
    state = client.get("/api/t/club/clock").json()
    assert state["warn"] and not state["over"] and state["warning"] == 900
    clock.now += 1000
    state = client.get("/api/t/club/clock").json()
    assert state["over"] and state["remaining"] == 0 and not state["running"]
    # the clock is kept in the server's database: a new app on the same data has it
    app = create_app(tmp_path / "rooms.sqlite3", tournament_db=db["url"], wall=clock)
    with TestClient(app) as again:
        assert again.get("/api/t/club/clock").json()["over"]


# -- accounts and the CLI -------------------------------------------------------------------------


def test_passwords_are_salted_scrypt_hashes() -> None:
    one, two = hash_password("secret"), hash_password("secret")
    assert one != two and one.startswith("scrypt$16384$8$1$")
    assert verify_password("secret", one) and not verify_password("Secret", one)
    assert not verify_password("secret", "removed$00") and not verify_password("x", "garbage")


def test_referee_command(db: dict[str, str]) -> None:
    url = db["url"]
    listing = cli("tournament", "referee", "club", "--db", url)
    assert "li\treferee" in listing and "boss\torganiser" in listing
    assert db["li"] not in listing
    runner = CliRunner()
    again = runner.invoke(main, ["tournament", "referee", "club", "--add", "li", "--db", url])
    assert again.exit_code == 1 and "already" in again.output
    nobody = runner.invoke(main, ["tournament", "referee", "nope", "--add", "x", "--db", url])
    assert nobody.exit_code == 1 and "no tournament" in nobody.output
    both = runner.invoke(
        main, ["tournament", "referee", "club", "--add", "a", "--remove", "b", "--db", url]
    )
    assert both.exit_code == 2
    cli("tournament", "referee", "club", "--remove", "li", "--db", url)
    assert "(removed)" in cli("tournament", "referee", "club", "--db", url)
    store = open_store(url)
    try:
        assert authenticate(store, "club", "li", db["li"]) is None
        assert authenticate(store, "club", "boss", db["boss"]) is not None
        assert authenticate(store, "club", "ghost", "x") is None
        password = add_account(store, "other", "li")
        assert authenticate(store, "other", "li", password) is not None
    finally:
        store.close()


def test_migration_0003_goes_down_and_up(tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy import create_engine, inspect

    from guobiao.tournament.store import alembic_config

    url = f"sqlite:///{tmp_path / 'm.db'}"
    open_store(url).close()
    config = alembic_config(url)
    command.downgrade(config, "0002")
    engine = create_engine(url)
    assert "referee_accounts" not in inspect(engine).get_table_names()
    engine.dispose()
    command.upgrade(config, "head")
    engine = create_engine(url)
    assert "referee_accounts" in inspect(engine).get_table_names()
    engine.dispose()
