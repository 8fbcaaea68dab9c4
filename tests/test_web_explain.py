"""The end-of-hand box shows what ``guobiao fan --explain`` knows (server/breakdown.py,
static/explain.js): the sets each counted fan uses, the fans the hand shows but does not count
with the principle (第十条一(五)), and each payment, summing to the settlement's deltas.

API level: the breakdown of known hands equals the library's own explanation and the rules
(hands checked by hand against the digest's fan table and principles); payments sum to the deltas
over many bot hands (self-drawn, on a discard, with flowers, drawn) and with every kind of penalty;
the server sends it only at the end of a hand, and with the replay. In Chromium: a seeded practice
hand played to its end (the player times out, then a bot plays the place: no clicking) shows each
fan's sets, the fans not counted and the payments as the server sent them, in English and 中文,
with Continue and the total on a phone's screen."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from guobiao.bots import make_bot
from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand, parse_hand
from guobiao.scoring.calculator import calculate
from guobiao.scoring.explain import wait_exclusions
from guobiao.server.breakdown import hand_breakdown, payments
from guobiao.server.rooms import Limits, Room
from guobiao.table.game import Game, HandResult
from guobiao.table.play import play_hand
from guobiao.table.rules import COMPETITION
from guobiao.table.session import STARTING_POINTS
from guobiao.table.settlement import HandOutcome, Penalty, PenaltyKind, settle
from test_server_e2e import CHROMIUM, breakdown, get, open_page, post, rows, settlement
from test_server_restart import free_port, server

# A hand ends in about a second: the player's two turns time out, then a bot plays the place;
# the claim window after every discard is short; the box stays (no next hand).
FAST: dict[str, Any] = {
    "turn": 0.05,
    "first_discard": 0.05,
    "claim": 0.02,
    "bot_delay": 0,
    "grace": 600,
    "between_hands": 600,
    "bots_between": 600,
}


def deltas_of(pays: list[dict[str, Any]]) -> tuple[int, ...]:
    out = [0, 0, 0, 0]
    for p in pays:
        out[p["from"]] -= p["amount"]
        if p["to"] is not None:
            out[p["to"]] += p["amount"]
    return tuple(out)


def known(text: str, winner: int = 0, **flags: Any) -> HandResult:
    """A won hand as the table records it: ``text`` in the hand grammar, won by East (seat 0) in
    the East round, on South's discard unless self-drawn."""
    hand = parse_hand(text)
    assert hand.win_tile is not None
    context = WinContext(hand.win_tile, seat_wind=Wind(winner), **flags)
    held = Hand(hand.concealed, hand.melds, None, hand.flowers)
    fans = calculate(held, context)
    discarder = None if context.self_drawn else (winner + 1) % 4
    outcome = HandOutcome(winner, discarder, fans.points_without_flowers, fans.flower_points)
    deltas = settle(outcome, minimum=0)
    return HandResult(winner, discarder, fans, deltas, outcome, hand.win_tile, held)


def counted(x: dict[str, Any]) -> dict[str, int]:
    return {f["zh"]: f["count"] for f in x["fans"]}


def excluded(x: dict[str, Any]) -> list[tuple[str, str, str | None, list[str]]]:
    return sorted(
        (e["zh"], e["by"]["code"], e["because_of"] and e["because_of"]["zh"], e["sets"])
        for e in x["excluded"]
    )


# -- the breakdown of known hands -------------------------------------------------------------

HANDS = [
    ("W1W2W3W4W5W6W7W8W9B3B4T5T5 +B2", {}),
    ("W1W2W3B1B2B3B1B2B3T5T6T7F1 +F1", {}),
    ("[F1F1F1]W2W3W4B5B6B7T7T8T9J1 +J1", {"winner": 1}),
    ("W1W1B2B2B5B5T3T3T8T8F2F2J3 +J3", {"self_drawn": True}),
    ("W1W2W3W7W8W9B1B2B3B7B8B9T2 +T2", {}),
    ("[J1J1J1][J2J2J2]W2W3W4B5B6T5T5H1H3 +B7", {"self_drawn": True}),
]


@pytest.mark.parametrize(("text", "flags"), HANDS)
def test_the_breakdown_is_the_library_explanation(text: str, flags: dict[str, Any]) -> None:
    result = known(text, **flags)
    x = hand_breakdown(result, Wind.EAST, COMPETITION)
    hand = parse_hand(text)
    winner = flags.get("winner", 0)
    context = WinContext(
        hand.win_tile,  # type: ignore[arg-type]
        seat_wind=Wind(winner),
        self_drawn=flags.get("self_drawn", False),
        flowers=len(hand.flowers),
    )
    lib = calculate(Hand(hand.concealed, hand.melds), context, explain=True)
    lib = replace(  # and the wait fans a referee is told of (the CLI's fan --explain)
        lib,
        excluded=lib.excluded + wait_exclusions(Hand(hand.concealed, hand.melds), context, lib),
    )
    assert [(f["zh"], f["en"], f["points"], f["count"], f["basis"]) for f in x["fans"]] == [
        (f.fan.zh, f.fan.en, f.points, f.count, list(f.basis)) for f in lib.fans
    ]
    assert [(e["zh"], e["en"], e["reason"]) for e in x["excluded"]] == [
        (e.fan.zh, e.fan.en, e.reason) for e in lib.excluded
    ]
    assert x["shape"] == lib.decomposition
    assert deltas_of(x["payments"]) == result.deltas
    for e in x["excluded"]:  # the principle the library names, as a code
        assert (e["by"]["zh"] in e["reason"]) or e["by"]["code"] == "non_repeat"
        assert (e["because_of"] is None) == (
            e["by"]["code"] not in ("non_repeat", "non_separation")
        )


@pytest.mark.parametrize(
    ("text", "fan", "waits"),
    [
        ("W1W2W3W4W5B4B5B6T6T7T8J1J1 +W3", "边张", "W3W6"),  # 第九条77: 12345 和 3
        ("W4W5W5W6W7B1B2B3T6T7T8J1J1 +W6", "坎张", "W3W6"),  # 第九条78: 45567 和 6
    ],
)
def test_a_wait_fan_left_out_names_the_tiles_waited_on(text: str, fan: str, waits: str) -> None:
    """The end-of-hand box lists, as ``fan --explain`` does, a wait fan the winning tile shows
    that does not count because the hand waited on more than one tile (第九条77-79), with the
    tiles waited on; the page said nothing, and a player asked where their 边张 went."""
    x = hand_breakdown(known(text), Wind.EAST, COMPETITION)
    assert fan not in counted(x)
    assert (fan, "single_wait", None, [waits]) in excluded(x)
    (entry,) = [e for e in x["excluded"] if e["zh"] == fan]
    assert entry["by"]["article"] == "第九条77-79" and entry["by"]["zh"] == "单和"


def test_a_pure_straight_with_all_chows() -> None:
    """清龙 W123 456 789 + B234 + T55, concealed, on a discard (B2: a two-sided wait): 清龙 16,
    门前清 2, 平和 2. 清龙 holds 连六 twice and 老少副 (its reading excl.), 平和 无字."""
    x = hand_breakdown(known("W1W2W3W4W5W6W7W8W9B3B4T5T5 +B2"), Wind.EAST, COMPETITION)
    assert counted(x) == {"清龙": 1, "门前清": 1, "平和": 1}
    fans = {f["zh"]: f for f in x["fans"]}
    assert fans["清龙"]["sets"] == [["W1W2W3", "W4W5W6", "W7W8W9"]]
    assert fans["平和"]["sets"] == [["W1W2W3", "W4W5W6", "W7W8W9", "B2B3B4", "T5T5"]]
    assert fans["门前清"]["sets"] == []  # no tiles to show: "no exposed set"
    # 清龙's own sets make no other fan: 不拆移 (第十条一(五)2), as the library says
    assert excluded(x) == [
        ("无字", "non_repeat", "平和", []),
        ("老少副", "non_separation", "清龙", ["W1W2W3", "W7W8W9"]),
        ("连六", "non_separation", "清龙", ["W1W2W3", "W4W5W6"]),
        ("连六", "non_separation", "清龙", ["W4W5W6", "W7W8W9"]),
    ]


def test_non_identical_and_account_once() -> None:
    """W123 B123 B123: 一般高 (B123 B123) and one 喜相逢 (W123 B123); the other B123 may not make
    喜相逢 with W123 again (不得相同, 第十条一(五)3). W123 W789 B123 B789: 喜相逢 twice and one
    老少副; the second 老少副 joins two sets already combined (套算一次, 第十条一(五)5)."""
    x = hand_breakdown(known("W1W2W3B1B2B3B1B2B3T5T6T7F1 +F1"), Wind.EAST, COMPETITION)
    assert counted(x) == {"门前清": 1, "一般高": 1, "喜相逢": 1, "单钓将": 1}
    assert excluded(x) == [("喜相逢", "non_identical", None, ["W1W2W3", "B1B2B3"])]
    assert {f["zh"]: f["sets"] for f in x["fans"]}["单钓将"] == [["F1"]]
    x = hand_breakdown(known("W1W2W3W7W8W9B1B2B3B7B8B9T2 +T2"), Wind.EAST, COMPETITION)
    assert counted(x) == {"门前清": 1, "平和": 1, "喜相逢": 2, "老少副": 1, "单钓将": 1}
    assert {f["zh"]: f["sets"] for f in x["fans"]}["喜相逢"] == [
        ["W1W2W3", "B1B2B3"],
        ["W7W8W9", "B7B8B9"],
    ]
    assert excluded(x) == [
        ("无字", "non_repeat", "平和", []),
        ("老少副", "account_once", None, ["B1B2B3", "B7B8B9"]),
    ]
    principle = next(e["by"] for e in x["excluded"] if e["zh"] == "老少副")
    assert principle == {
        "code": "account_once",
        "zh": "套算一次原则",
        "en": "account-once principle",
        "article": "第十条一(五)5",
    }


def test_winds_seven_pairs_dragons_and_flowers() -> None:
    """圈风刻 counts the East pung, not 幺九刻 too; 七对 self-drawn adds 自摸 but not 不求人 or
    单钓将; 双箭刻 holds both 箭刻; flowers show the flower tiles."""
    x = hand_breakdown(known("[F1F1F1]W2W3W4B5B6B7T7T8T9J1 +J1", winner=1), Wind.EAST, COMPETITION)
    assert counted(x) == {"五门齐": 1, "圈风刻": 1, "单钓将": 1}
    assert {f["zh"]: f["sets"] for f in x["fans"]}["圈风刻"] == [["F1F1F1"]]
    assert excluded(x) == [("幺九刻", "non_repeat", "圈风刻", [])]
    x = hand_breakdown(
        known("W1W1B2B2B5B5T3T3T8T8F2F2J3 +J3", self_drawn=True), Wind.EAST, COMPETITION
    )
    assert counted(x) == {"七对": 1, "五门齐": 1, "自摸": 1}
    assert {f["zh"]: f["sets"] for f in x["fans"]}["七对"] == [
        ["W1W1", "B2B2", "B5B5", "T3T3", "T8T8", "F2F2", "J3J3"]
    ]
    assert excluded(x) == [
        ("不求人", "non_repeat", "七对", []),
        ("单钓将", "non_repeat", "七对", []),
    ]
    result = known("[J1J1J1][J2J2J2]W2W3W4B5B6T5T5H1H3 +B7", self_drawn=True)
    x = hand_breakdown(result, Wind.EAST, COMPETITION)
    assert counted(x) == {"双箭刻": 1, "自摸": 1, "花牌": 2}
    fans = {f["zh"]: f for f in x["fans"]}
    assert fans["双箭刻"]["sets"] == [["J1J1J1", "J2J2J2"]]
    assert fans["花牌"]["sets"] == [["H1H3"]]
    assert excluded(x) == [("箭刻", "non_repeat", "双箭刻", [])]
    # self-drawn: each of the three pays 底分 8, the fan points 7 and the 2 flowers
    assert sorted((p["from"], p["what"], p["amount"]) for p in x["payments"]) == [
        (s, what, amount)
        for s in (1, 2, 3)
        for what, amount in (("base", 8), ("fans", 7), ("flowers", 2))
    ]
    assert {p["to"] for p in x["payments"]} == {0}


# -- payments -------------------------------------------------------------------------------------


def test_payments_sum_to_the_deltas_over_many_hands() -> None:
    seen: Counter[str] = Counter()
    for seed in range(150):
        wind = Wind(seed % 4)
        agents = [make_bot("efficiency", seed * 4 + s) for s in range(4)]
        game = play_hand(agents, COMPETITION, seed, round_wind=wind)
        result = game.result
        assert result is not None
        x = hand_breakdown(result, wind, game.rules)
        assert deltas_of(x["payments"]) == result.deltas, seed
        if result.winner is None:
            seen["draw"] += 1
            assert x["fans"] is None and x["payments"] == []
            continue
        assert result.fans is not None
        # the explanation scores the hand as the table did, fan by fan
        assert [(f["zh"], f["count"]) for f in x["fans"]] == [
            (f.fan.zh, f.count) for f in result.fans.fans
        ]
        assert all("basis" in f for f in x["fans"]), seed
        assert all(e["by"]["code"] != "non_repeat" or e["because_of"] for e in x["excluded"])
        pays = Counter((p["from"], p["what"]) for p in x["payments"])
        others = [s for s in range(4) if s != result.winner]
        assert all(pays[(s, "base")] == 1 for s in others)
        fan_payers = others if result.discarder is None else [result.discarder]
        assert sorted(s for s, what in pays if what == "fans") == fan_payers
        seen["self-drawn" if result.discarder is None else "discard"] += 1
        seen["flowers"] += bool(result.fans.flower_points)
        seen["excluded"] += bool(x["excluded"])
    assert min(seen[k] for k in ("draw", "self-drawn", "discard", "flowers", "excluded")) >= 5, seen


def test_penalty_payments() -> None:
    """错和 and 诈和 pay each other player; a 违例 fine goes to its payee, or to nobody."""
    outcome = HandOutcome(
        winner=0,
        discarder=2,
        fan_points=12,
        flowers=1,
        penalties=(
            Penalty(1, PenaltyKind.FALSE_WIN, 10),
            Penalty(3, PenaltyKind.FAKE_WIN, 20),
            Penalty(3, PenaltyKind.VIOLATION, 5, payee=2),
            Penalty(2, PenaltyKind.VIOLATION, 10),
            Penalty(1, PenaltyKind.WRONG_COUNT),
        ),
    )
    pays = payments(outcome, 8)
    assert deltas_of(pays) == settle(outcome)
    assert [p for p in pays if p["to"] is None] == [
        {"from": 2, "to": None, "amount": 10, "what": "penalty", "kind": "violation"}
    ]
    assert sorted((p["from"], p["to"], p["amount"]) for p in pays if p["what"] == "penalty") == [
        (1, 0, 10),
        (1, 2, 10),
        (1, 3, 10),
        (2, None, 10),
        (3, 0, 20),
        (3, 1, 20),
        (3, 2, 5),
        (3, 2, 20),
    ]
    game = Game(COMPETITION, 7)
    game.forfeit(2, "time-out")
    assert game.result is not None
    x = hand_breakdown(game.result, Wind.EAST, COMPETITION)
    assert x["fans"] is None
    assert deltas_of(x["payments"]) == game.result.deltas == (10, 10, -30, 10)


# -- the server -------------------------------------------------------------------------------------


def simulate(seed: int, check: bool = False) -> tuple[Room, list[dict[str, Any]]]:
    """Hand 1 of a practice room seeded ``seed`` as the server plays it with FAST limits: Ann
    (place A) never acts, so her turns time out and then a bot plays her place. The messages
    sent; ``check``: that Ann's state never holds a hand's end while the hand is played."""
    room = Room("probe", seed=seed, practice=True, limits=Limits(**FAST))
    room.join("Ann", 0)
    room.add_bots()
    sent = [n.message for n in room.start(0.0)]
    room.connect(0)
    game, now = room.games[0], 0.0
    for _ in range(10_000):
        sent += [n.message for n in room.poll(now)]
        if game.is_over and room.window is None:
            return room, sent
        if check:
            assert "last_hand" not in room.state_for(0, now)
        wake = room.next_wake(now)
        assert wake is not None
        now = max(now, wake)
    raise AssertionError("the hand did not end")


def chosen_seed() -> int:
    """The shortest of the first seeds' hands that is won on a discard with flowers and a fan
    not counted (the box then shows every part)."""
    found = []
    for seed in range(8):
        room, _ = simulate(seed)
        result = room.games[0].result
        assert result is not None
        if result.discarder is None or result.fans is None or not result.fans.flower_points:
            continue
        if hand_breakdown(result, Wind.EAST, COMPETITION)["excluded"]:
            found.append((len(room.games[0].history), seed))
    assert found, "no seed gives such a hand"
    return min(found)[1]


def test_sent_only_at_the_end_and_with_the_replay() -> None:
    room, sent = simulate(4, check=True)
    game = room.games[0]
    assert game.result is not None
    ends = [i for i, m in enumerate(sent) if m["type"] == "hand_end"]
    assert len(ends) == 1 and not any("explain" in m for m in sent[: ends[0]])
    expected = hand_breakdown(game.result, game.round_wind, game.rules)
    assert sent[ends[0]]["explain"] == expected
    assert room.state_for(0, 1e6)["last_hand"]["explain"] == expected
    assert room.replay(0)["explain"] == expected
    summary = game.result.summary()  # the result's keys as before, no breakdown among them
    assert {k: sent[ends[0]]["result"][k] for k in summary} == summary
    assert "explain" not in sent[ends[0]]["result"]
    assert expected["fans"] and expected["payments"]


# -- the page --------------------------------------------------------------------------------------

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 720}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("explain"), port, **FAST):
        yield f"http://127.0.0.1:{port}"


def shown(page: Any, box: str = "#overlay") -> dict[str, Any]:
    """What the box shows: the tile groups under each fan, the fans not counted, the payments."""
    page.evaluate(f"() => document.querySelectorAll('{box} details').forEach(d => d.open = true)")
    found: dict[str, Any] = page.evaluate(
        """box => {
      const groups = (node) => [...node.querySelectorAll('.set')]
        .map((s) => [...s.querySelectorAll('.tile')].map((t) => t.dataset.tile).join(''));
      return {
        sets: [...document.querySelectorAll(box + ' table.fans tr:not(.total)')].map((tr) =>
          [...tr.querySelectorAll('.fan-sets .use')].map(groups)),
        excluded: [...document.querySelectorAll(box + ' .not-counted li')].map((li) =>
          ({text: li.innerText.trim(), sets: groups(li)})),
        caption: document.querySelector(box + ' table.payments caption').innerText.trim(),
      };
    }""",
        box,
    )
    found["payments"] = rows(page, f"{box} table.payments tr")
    return found


WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "part": "part of",
        "non_identical": "a set already counted in this fan",
        "account_once": "both sets already combined",
        "base": "base",
        "fans": "fans",
        "flowers": "flowers",
        "dealt": " (dealt in)",
        "to": "Paid to",
        "winds": ["East", "South", "West", "North"],
    },
    "zh": {
        "part": "含于",
        "non_identical": "其中一组已计入同一番种",
        "account_once": "两组都已组合过",
        "base": "底分",
        "fans": "番",
        "flowers": "花牌",
        "dealt": " (点炮)",
        "to": "付给",
        "winds": ["东", "南", "西", "北"],
    },
}


def expected_box(
    x: dict[str, Any], result: dict[str, Any], names: list[str], lang: str
) -> dict[str, Any]:
    """The box's parts as the page must draw them from the server's breakdown ``x``."""
    w = WORDS[lang]
    zh = lang == "zh"

    def excluded_text(e: dict[str, Any]) -> str:
        by = e["by"]["zh"] if zh else e["by"]["en"]
        if e["by"]["code"] == "non_repeat":
            because = e["because_of"]["zh"] if zh else e["because_of"]["en"]
            why = f"{w['part']}{'' if zh else ' '}{because}"
        else:
            why = w[e["by"]["code"]]
        name = e["zh"] if zh else e["en"]
        return f"{name} {why}（{by}）" if zh else f"{name} {why} ({by})"

    def who(seat: int) -> str:
        return f"{w['winds'][seat]} {names[seat]}"

    pays: dict[tuple[int, int | None], list[dict[str, Any]]] = {}
    for p in x["payments"]:
        pays.setdefault((p["from"], p["to"]), []).append(p)
    winner, discarder = result["winner"], result["discarder"]
    return {
        "sets": [f["sets"] for f in x["fans"]],
        "excluded": [{"text": excluded_text(e), "sets": e["sets"]} for e in x["excluded"]],
        "caption": f"{w['to']} {who(winner)}",
        "payments": [
            [
                who(payer)
                + ("" if payee == winner else f" → {who(payee) if payee is not None else '?'}"),
                " + ".join(f"{w[p['what']]} {p['amount']}" for p in items)
                + (w["dealt"] if payer == discarder else ""),
                str(sum(p["amount"] for p in items)),
            ]
            for (payer, payee), items in pays.items()
        ],
    }


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return bool(
        box
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"] + 0.5
        and box["y"] + box["height"] <= size["height"] + 0.5
    )


def test_the_box_shows_sets_exclusions_and_payments(base_url: str) -> None:
    from playwright import sync_api

    seed = chosen_seed()
    made = post(base_url, "/api/rooms", {"player": "Ann", "practice": True, "seed": seed})
    post(
        base_url,
        f"/api/rooms/{made['id']}/start",
        {"owner_token": made["owner_token"], "fill": True},
    )
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page, errors = open_page(
            browser, f"{base_url}/room/{made['id']}?token={made['token']}&lang=en", viewport=DESKTOP
        )
        page.wait_for_selector("#overlay:not([hidden]) #continue")
        msg = page.evaluate("() => lastHandMsg")
        x, result = msg["explain"], msg["result"]
        replay = get(base_url, f"/api/rooms/{made['id']}/hands/0?token={made['token']}")
        assert replay["explain"] == x  # what the page got is the server's breakdown
        assert result["winner"] is not None and result["discarder"] is not None
        assert x["excluded"] and any(f["sets"] for f in x["fans"])
        assert deltas_of(x["payments"]) == tuple(result["deltas"])
        # the fan table and the score changes read as before: the sets add no text to them
        assert rows(page, "#overlay table.fans tr") == breakdown(result)
        start = [STARTING_POINTS] * 4  # the first hand: the starting points before it
        # the bots as the table names them everywhere (easy bot B: level and place)
        names = page.evaluate("() => [0, 1, 2, 3].map(nameOf)")
        assert rows(page, "#overlay table.deltas tr") == settlement(result, names, start)
        assert shown(page) == expected_box(x, result, names, "en")
        assert in_view(page, "#continue") and in_view(page, "#overlay table.fans tr.total")
        # 中文: the language switch, then the box again with "Last hand"
        page.keyboard.press("Escape")
        page.click("#lang")
        page.click("#last-hand")
        assert rows(page, "#overlay table.fans tr") == breakdown(result, zh=True)
        names = page.evaluate("() => [0, 1, 2, 3].map(nameOf)")
        assert shown(page) == expected_box(x, result, names, "zh")
        # a phone: the Continue button and the total on screen, no page scroll
        page.set_viewport_size(PHONE)
        page.evaluate("() => document.querySelector('#overlay .card').scrollTop = 0")
        page.wait_for_timeout(50)
        assert in_view(page, "#continue") and in_view(page, "#overlay table.fans tr.total")
        scroll = page.evaluate(
            "() => [document.scrollingElement.scrollHeight, document.scrollingElement.scrollWidth]"
        )
        assert scroll[0] <= PHONE["height"] and scroll[1] <= PHONE["width"]
        # the replay's last step shows the same (its names are the server's)
        page.goto(f"{base_url}/room/{made['id']}/replay?hand=1&lang=en")
        page.wait_for_selector("#table:not([hidden])")  # loaded (#scrub is in the page's HTML)
        page.keyboard.press("End")
        page.wait_for_selector("#result:not([hidden]) table.payments")
        names = page.evaluate("(names) => names.map((n) => levelName(n))", result["names"])
        assert shown(page, "#result") == expected_box(x, result, names, "en")
        assert errors == []
        browser.close()
