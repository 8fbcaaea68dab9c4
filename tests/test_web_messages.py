"""Every code the server can send is said on the pages in 中文 and English: the server's sources
are read with ``ast`` for each code given to ``RoomError``, ``ProtocolError``, ``_error``,
``_notice``, the tournament's ``_refused`` and each ``{"code": ..., "params": ...}`` literal (HTTP
details, time-outs), with the params each site sends; static/common.js's ``MESSAGES`` must say
every code in both languages, using only params that every site of that code sends."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "src" / "guobiao" / "server"
COMMON_JS = SERVER / "static" / "common.js"

# function -> (index of the code, index of the params; None: keyword arguments are the params)
SENDERS = {
    "RoomError": (0, 2),
    "ProtocolError": (0, 2),
    "_error": (0, 2),
    "_refused": (1, 3),
    "_notice": (0, None),
}
CLIENT_CODES = {"bad_request", "network"}  # made by the pages themselves (common.js api())
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Site:
    code: str
    params: frozenset[str] | None  # None: not visible statically
    where: str


def _keys(node: ast.expr | None) -> frozenset[str] | None:
    if node is None:
        return frozenset()
    if not isinstance(node, ast.Dict):
        return None
    keys = [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return frozenset(keys) if len(keys) == len(node.keys) else None  # ** spread: not visible


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _sites_in(path: Path) -> Iterator[Site]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Call) and _name(node.func) in SENDERS:
            at, params_at = SENDERS[_name(node.func)]
            if len(node.args) <= at:
                continue
            code = node.args[at]
            if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
                continue  # passed on (err.code): its own site is found where it is raised
            params: frozenset[str] | None
            if params_at is None:
                params = frozenset(k.arg for k in node.keywords if k.arg)
            else:
                given = node.args[params_at] if len(node.args) > params_at else None
                given = next((k.value for k in node.keywords if k.arg == "params"), given)
                params = _keys(given)
            yield Site(code.value, params, where)
        elif isinstance(node, ast.Dict):
            fields = {
                k.value: v
                for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
            }
            literal = fields.get("code")
            if (
                isinstance(literal, ast.Constant)
                and isinstance(literal.value, str)
                and {"message", "params", "type"} & set(fields)
            ):
                yield Site(literal.value, _keys(fields.get("params")), where)


def server_sites() -> list[Site]:
    return [site for path in sorted(SERVER.glob("*.py")) for site in _sites_in(path)]


def page_messages() -> dict[str, dict[str, str]]:
    """common.js's MESSAGES (kept JSON for this test)."""
    text = COMMON_JS.read_text(encoding="utf-8")
    found = re.search(r"^const MESSAGES = (\{.*?^\});$", text, re.S | re.M)
    assert found, "common.js has no MESSAGES table"
    table: dict[str, dict[str, str]] = json.loads(found.group(1))
    return table


def sent_params() -> dict[str, frozenset[str]]:
    """Each code's params that every site visibly sends."""
    out: dict[str, frozenset[str]] = {}
    for site in server_sites():
        if site.params is None:
            continue
        out[site.code] = out[site.code] & site.params if site.code in out else site.params
    return out


def test_the_scan_finds_the_server_codes() -> None:
    codes = {site.code for site in server_sites()}
    # one of each kind of site: RoomError, ProtocolError, _error, _notice, _refused, a literal
    assert {"bad_invite", "too_long", "bad_token", "auto_on", "bad_login", "not_found"} <= codes
    assert {"timeout", "too_many", "illegal_action", "slow_down"} <= codes
    assert len(codes) >= 35
    params = sent_params()
    assert params["too_many"] == {"cap", "max"}
    assert params["auto_on"] == {"place", "name"}
    assert params["timeout"] == {"seat", "name", "action"}
    assert params["forbidden"] == set()  # rooms send none, the tournament user and name


def test_every_server_code_has_a_message_in_both_languages() -> None:
    messages = page_messages()
    assert set(messages) == {"en", "zh"}
    codes = {site.code for site in server_sites()}
    for lang in ("en", "zh"):
        missing = sorted(codes - set(messages[lang]))
        assert not missing, f"{lang}: no message for {missing}"
        stale = sorted(set(messages[lang]) - codes - CLIENT_CODES)
        assert not stale, f"{lang}: messages for codes the server never sends: {stale}"
        assert all(text.strip() for text in messages[lang].values())
    assert set(messages["en"]) == set(messages["zh"])


def test_messages_use_only_params_the_server_sends() -> None:
    messages = page_messages()
    params = sent_params()
    for lang, table in messages.items():
        for code, text in table.items():
            used = set(PLACEHOLDER.findall(text))
            allowed = params.get(code, frozenset())
            assert used <= allowed, f"{lang} {code}: {sorted(used - allowed)} is not sent"
        # the 中文 says what the English says: the same params
    for code in messages["en"]:
        en = set(PLACEHOLDER.findall(messages["en"][code]))
        assert en == set(PLACEHOLDER.findall(messages["zh"][code])), code


def test_the_zh_messages_are_chinese() -> None:
    for code, text in page_messages()["zh"].items():
        assert re.search(r"[\u4e00-\u9fff]", text), code
