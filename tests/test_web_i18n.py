"""The pages in 中文, in headless Chromium against a real ``guobiao serve``: the lobby switched to
中文, a waiting room, a practice table against three bots whose person lets the clock run out
(a time-out, auto-play, bots playing the hand to its end), the end of the hand and its replay;
every text shown on the way must be the page's 中文 (a Latin word only inside a 中文 string, a
name, the table's id or a fan's English beside its 中文). Server refusals (HTTP and socket), a
notice and a socket error are shown in 中文, on the tournament pages in both languages; the
pages' game terms are the printed papers' (guobiao.table.glossary)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from guobiao.bots import BOT_NAMES, LEVEL_NAMES, LEVEL_OF
from guobiao.scoring.fans import Fan
from guobiao.table.glossary import BOT_NAME, TABLE_NAME, TERMS
from test_server_e2e import post
from test_server_restart import free_port, server
from test_web_messages import page_messages

ZOE = "Zoe"
LATIN = re.compile(r"[A-Za-z]{2,}")

# Every visible text node (not the language button, which names both languages), gathered every
# 50 ms into window.seen; every addLog line into window.lines.
WATCH = """() => {
  window.seen = new Set();
  window.lines = [];
  const look = () => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.trim();
      const el = n.parentElement;
      if (text && el && el.id !== "lang" && el.checkVisibility()) window.seen.add(text);
    }
  };
  look();
  setInterval(look, 50);
  if (typeof addLog === "function") {
    const log = addLog;
    addLog = (text) => { if (text) window.lines.push(text); log(text); };
  }
}"""

# Every string the page may show in 中文: t() of every key, the server messages, flattened.
ZH_STRINGS = """() => {
  const keys = new Set([...Object.keys(STRINGS.en), ...Object.keys(STRINGS.zh), ...Object.keys(TERM_OF),
    "winds", "acts", ...Object.keys(GLOSSARY.bots).flatMap((k) => ["kind_" + k, "botlevel_" + k])]);
  const out = [];
  const add = (v) => { if (typeof v === "string") out.push(v); else if (v && typeof v === "object") Object.values(v).forEach(add); };
  const before = LANG;
  LANG = "zh";
  keys.forEach((k) => add(t(k)));
  LANG = before;
  add(MESSAGES.zh);
  return out;
}"""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    # short clocks: the person's first discard times out once the page is watching, a bot then
    # plays for them (auto-play after one time-out), and the hand ends in seconds
    with server(
        tmp_path_factory.mktemp("web"),
        port,
        first_discard=3,
        turn=0.4,
        claim=0.05,
        bot_delay=0,
        auto_after=1,
    ):
        yield f"http://127.0.0.1:{port}"


def foreign_words(page: Any, texts: set[str], allowed: set[str]) -> set[str]:
    """Latin words of ``texts`` that no 中文 string of the page contains, nor ``allowed``."""
    zh = " ".join(page.evaluate(ZH_STRINGS))
    known = set(LATIN.findall(zh)) | allowed
    return {w for text in texts for w in LATIN.findall(text)} - known


def test_the_pages_speak_chinese(base_url: str, browser: Any) -> None:
    messages = page_messages()["zh"]
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.set_default_timeout(15_000)

    # the lobby, switched from English to 中文
    page.goto(f"{base_url}/?lang=en")
    page.wait_for_selector("text=Create and play against 3 bots")
    page.click("#lang")
    page.wait_for_selector("text=创建并与三个机器人对局")
    page.evaluate(WATCH)
    # the bots' list names the level, then the kind
    assert page.locator("select[name=bot_kind] option[value=fan]").inner_text() == (
        f"{LEVEL_NAMES['normal'].zh} · {BOT_NAMES['fan'].zh}"
    )
    assert page.locator("select[name=bot_kind] option[value=strong]").inner_text() == (
        BOT_NAMES["strong"].zh
    )
    # an HTTP refusal: a name of spaces only (the browser lets it through, the server does not)
    page.fill("input[name=player]", "   ")
    page.click("button[value=quick]")
    page.wait_for_function("() => document.querySelector('#create-error').textContent !== ''")
    shown = page.locator("#create-error").inner_text()
    assert shown == messages["bad_name"].format(min=1, max=24)
    lobby_seen: set[str] = set(page.evaluate("() => [...window.seen]"))
    assert not foreign_words(page, lobby_seen, set()), lobby_seen

    # a table to share: its waiting room, with the creator's controls
    page.fill("input[name=player]", ZOE)
    page.click("button[value=wait]")
    page.wait_for_selector("#owner:not([hidden])")
    page.evaluate(WATCH)
    page.wait_for_timeout(200)
    waiting: set[str] = set(page.evaluate("() => [...window.seen]"))
    wait_id = page.url.rstrip("/").split("/")[-1]
    assert TABLE_NAME.zh.format(id=wait_id[:4]) in waiting
    assert page.locator("#bot-kind option[value=random]").inner_text() == (
        f"{LEVEL_NAMES['easy'].zh} · {BOT_NAMES['random'].zh}"
    )
    assert not foreign_words(page, waiting, {ZOE, *LATIN.findall(wait_id[:4])}), waiting
    page.goto(f"{base_url}/")

    # a practice table; its person never acts: time-outs, auto-play, the hand played to its end
    page.fill("input[name=player]", ZOE)
    page.click("button[value=quick]")
    page.wait_for_url("**/room/*")
    room_id = page.url.rstrip("/").split("/")[-1]
    page.check("#hints-on")
    page.evaluate(WATCH)
    page.wait_for_selector("#overlay:not([hidden]) #continue", timeout=20_000)
    page.wait_for_timeout(200)  # the collector's next look
    seen: set[str] = set(page.evaluate("() => [...window.seen]"))
    lines: list[str] = page.evaluate("() => window.lines")

    # the table's and the bots' names, made by the server, in 中文
    assert TABLE_NAME.zh.format(id=room_id[:4]) in seen
    # each bot on its plate by level and place (入门机器人B, as English reads easy bot B), its
    # whole name in the title
    level = LEVEL_NAMES[LEVEL_OF["efficiency"]].zh
    plates = page.locator("#center .plate .name").all_inner_texts()
    for place in "BCD":
        assert f"{level}机器人{place}" in plates, plates
        full = BOT_NAME.zh.format(kind=BOT_NAMES["efficiency"].zh, place=place)
        assert page.locator(f'[title="{full}"]').count() >= 1, full
    # the person's time-outs and the auto-play notice (docs/web.md: a notice, code auto_on)
    assert any(ZOE in line and "超时" in line for line in lines), lines
    assert messages["auto_on"].format(name=ZOE) in lines
    assert any(text.startswith(TERMS["shanten"].zh) or text == TERMS["ready"].zh for text in seen)
    # the end of the hand in the papers' terms
    box = page.locator("#overlay-body").inner_text()
    won = TERMS["fan"].zh in box
    assert (
        TERMS["self_drawn"].zh in box or TERMS["deal_in"].zh in box
        if won
        else TERMS["drawn_hand"].zh in box
    ), box
    assert TERMS["session_score"].zh in box
    # nothing English on the way but names, the table's id and each fan's English, which the
    # fan table shows beside its 中文 by design
    allowed = {ZOE, *LATIN.findall(room_id[:4]), *(w for fan in Fan for w in LATIN.findall(fan.en))}
    assert not foreign_words(page, seen, allowed), sorted(t for t in seen if LATIN.search(t))

    # a notice and an error on the socket: resume (auto_off), then resume again (not_auto)
    page.evaluate("() => { window.lines = []; }")
    page.evaluate('() => send({type: "resume"})')
    page.wait_for_function("() => window.lines.length >= 1")
    page.evaluate('() => send({type: "resume"})')
    page.wait_for_function("() => window.lines.length >= 2")
    lines = page.evaluate("() => window.lines")
    assert lines[:2] == [messages["auto_off"].format(name=ZOE), f"⚠ {messages['not_auto']}"]

    # the hand's replay, at its end
    page.goto(f"{base_url}/room/{room_id}/replay?hand=1")
    page.wait_for_selector("#table:not([hidden])")
    page.evaluate(WATCH)
    page.click("#last")
    page.wait_for_selector("#result:not([hidden])")
    page.wait_for_timeout(200)
    replayed: set[str] = set(page.evaluate("() => [...window.seen]"))
    assert TABLE_NAME.zh.format(id=room_id[:4]) in replayed
    assert not foreign_words(page, replayed, allowed), sorted(replayed)

    # a socket refused: a private table opened with a wrong token, said on the status line
    private = post(base_url, "/api/rooms", {"private": True})
    page.goto(f"{base_url}/room/{private['id']}?token=wrong")
    page.wait_for_function(
        "text => document.querySelector('#status').textContent === text", arg=messages["bad_token"]
    )
    assert not errors, errors
    context.close()


def test_the_pages_terms_are_the_papers(base_url: str, browser: Any) -> None:
    """Each page string that is a glossary term equals the papers' (both languages, or the 中文
    where the page keeps its own English phrase); the glossary the pages get is the server's."""
    page = browser.new_page()
    page.goto(f"{base_url}/?lang=zh")
    pairs = page.evaluate(
        """() => TERM_KEYS.map(([pageKey, key, only]) => {
          const said = {};
          const before = LANG;
          for (const lang of ["en", "zh"]) { LANG = lang; said[lang] = t(pageKey); }
          LANG = before;
          return {pageKey, key, only: only || null, said};
        })"""
    )
    assert len(pairs) >= 20
    for pair in pairs:
        want = TERMS[pair["key"]]
        assert pair["said"]["zh"] == want.zh, pair
        if pair["only"] is None:
            assert pair["said"]["en"] == want.en, pair
    # the fixes of issue 12: the web said 点和 and 分 where the papers say 点炮 and 番
    said = page.evaluate('() => [t("dealIn"), t("points"), t("winds").join("")]')
    assert said == [TERMS["deal_in"].zh, TERMS["fan"].zh, "东南西北"]
    glossary = page.evaluate("() => GLOSSARY.terms")
    assert glossary == {key: term._asdict() for key, term in TERMS.items()}

    # the tournament pages, in both languages at once, say a refusal in both
    page.goto(f"{base_url}/t/")
    said = page.evaluate(
        '() => api("GET", "/api/t/nope/standings").then(() => "", (err) => err.message)'
    )
    messages = page_messages()
    assert said == f"{messages['zh']['no_tournament']} — {messages['en']['no_tournament']}"
    page.close()
