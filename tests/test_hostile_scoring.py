"""Hostile input at the scoring commands: `guobiao fan HAND`, `guobiao fan --jsonl` and
`guobiao shanten HAND [--visible TILES]`. A bad input is a refusal on stderr with exit code 2
(1 for an impossible hand), or in a JSON-lines stream an ``ok: false`` line: never a traceback,
and never a lost line (one output line per non-blank input line, in order).

Also the library rules these inputs reached: tile digits are ASCII 0-9 only, a meld is never
empty, and each of the 8 flowers is a single tile (第三条), so no hand holds one twice.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from guobiao.cli import main
from guobiao.core.context import WinContext
from guobiao.core.hand import Hand, parse_hand, parse_tiles
from guobiao.core.tiles import Tile, TileParseError
from guobiao.scoring.calculator import calculate
from guobiao.scoring.result import InvalidHandError
from scoring import NINE_GATES_JSON

NINE_GATES = "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"
# Valid hands from the README and tests/test_cli.py, the seeds of the mutations.
HANDS = [
    NINE_GATES,
    "[W1W2W3][F1F1F1]B4B5B6T7T8B1B1 +T9",
    "[123m][111z]456p78s11p +9s",
    "W2W3W4W2W3W4B2B3B4B5B6B7T5 +T5",
    "[W1W2W3][B4B5B6][T2T3T4]W5W6W7F1 +F1",
    "[T2T3T4]W1W2W5W7B3B4B6B8F1F1 +J1",
    "W1W9B1B9T1T9F1F2F3F4J1J2J3",
    "(B5B5B5B5)[F2F2F2:1]W1W2W3T7T8 +T9 H1H2",
]
GOOD = NINE_GATES_JSON
GOOD_LINE = json.dumps(GOOD).encode()
EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples" / "hands.jsonl"
JSON_LINES = [GOOD_LINE, *EXAMPLES.read_bytes().splitlines()[:6]]


def invoke(*args: str, stdin: bytes | str | None = None) -> Result:
    """Run the command in-process; an exception that escapes the command fails the test."""
    result = CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=True)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    assert "Traceback" not in result.output
    return result


def refused(result: Result, *words: str) -> None:
    """Exit 2, an `error:` line on stderr naming ``words``, nothing on stdout."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    first = result.stderr.splitlines()[0]
    assert first.startswith("error: ")
    for word in words:
        assert word in first


def stream(lines: list[bytes]) -> list[dict[str, Any]]:
    """Run `fan --jsonl` on the lines; exactly one JSON object with "ok" per non-blank line."""
    result = invoke("fan", "--jsonl", stdin=b"\n".join(lines) + b"\n")
    assert result.exit_code == 0
    *out, end = result.stdout.split("\n")  # JSON escapes every newline inside a line
    assert end == ""
    assert len(out) == sum(1 for line in lines if line.strip()), result.output
    parsed = [json.loads(line) for line in out]
    assert all(isinstance(obj, dict) and isinstance(obj.get("ok"), bool) for obj in parsed)
    return parsed


# ------------------------------------------------------------------------------------------------
# 1. Digits are ASCII 0-9: '²', '①' and '١' pass str.isdigit() (int() even reads '١' as 1)

# (text, the position the error names)
NOT_DIGITS = [
    ("W1W1W1W²W3W4W5W6W7W8W9W9W9 +W5", 6),  # 'W' not followed by a digit
    ("²m", 0),
    ("W①", 0),
    ("1m²m", 2),
    ("١m", 0),  # ARABIC-INDIC DIGIT ONE
    ("1١m", 0),  # digits that end in no suit letter
    ("W1W1W1W2W3W4W5W6W7W8W9W9W9 +W٥", 28),
]


@pytest.mark.parametrize(("text", "position"), NOT_DIGITS)
def test_only_ascii_digits_name_tiles(text: str, position: int) -> None:
    with pytest.raises(TileParseError) as caught:
        parse_hand(text)
    assert caught.value.position == position


@pytest.mark.parametrize(("text", "position"), NOT_DIGITS)
def test_unicode_digits_are_refused_by_fan_and_shanten(text: str, position: int) -> None:
    refused(invoke("fan", text), f"at position {position}")
    refused(invoke("shanten", text), f"at position {position}")


def test_unicode_digits_in_visible_are_refused() -> None:
    for visible in ("²m", "W①", "B1T²"):
        with pytest.raises(TileParseError):
            parse_tiles(visible)
        refused(invoke("shanten", "W1W1W1W2W3W4W5W6W7W8W9W9W9", "--visible", visible), "--visible")


# ------------------------------------------------------------------------------------------------
# 2. An empty meld


@pytest.mark.parametrize("text", ["[]" + NINE_GATES, "[:1]" + NINE_GATES, "[ ]W1 +W1", "[]"])
def test_an_empty_meld_is_refused(text: str) -> None:
    with pytest.raises(TileParseError, match="empty meld") as caught:
        parse_hand(text)
    assert caught.value.position == 0
    refused(invoke("fan", text), "empty meld")
    refused(invoke("shanten", text), "empty meld")


# ------------------------------------------------------------------------------------------------
# 3, 4. Each of the 8 flowers is one tile: a hand never holds one twice, nor nine flowers


@pytest.mark.parametrize(
    ("text", "flower"),
    [
        ("H1H1" + NINE_GATES, "H1"),
        (NINE_GATES + " H3H3", "H3"),
        (NINE_GATES + " 1f2f3f2f", "H2"),
        ("H1H2H3H4H5H6H7H8H1 " + NINE_GATES, "H1"),  # nine flowers
        ("H8 H1H2H3H4H5H6H7 " + NINE_GATES + " 12345678f", "H1"),
    ],
)
def test_a_flower_twice_is_refused(text: str, flower: str) -> None:
    message = f"flower {flower} appears twice; each flower is a single tile"
    with pytest.raises(TileParseError, match=message):
        parse_hand(text)
    refused(invoke("fan", text), message)
    # With --json the refusal is also a JSON answer on stdout, as `fan --jsonl` answers a line
    # it refuses (it was nothing on stdout: a script reading JSON got nothing to read).
    as_json = invoke("fan", text, "--json")
    assert as_json.exit_code == 2 and as_json.stderr.startswith("error: ")
    answer = json.loads(as_json.stdout)
    assert answer["ok"] is False and answer["reason"] == "invalid" and message in answer["message"]
    refused(invoke("shanten", text), message)


def test_calculate_refuses_a_hand_holding_a_flower_twice() -> None:
    hand = parse_hand(NINE_GATES)
    assert hand.win_tile is not None
    h1 = Tile.parse("H1")
    context = WinContext(win_tile=hand.win_tile, flowers=2)
    with pytest.raises(InvalidHandError, match="flower H1 appears twice"):
        calculate(Hand(hand.concealed, hand.melds, None, (h1, h1)), context)
    # Two different flowers are two points (第九条81: 1 point each).
    one = calculate(Hand(hand.concealed, hand.melds), WinContext(win_tile=hand.win_tile))
    two = calculate(
        Hand(hand.concealed, hand.melds, None, (h1, Tile.parse("H2"))),
        WinContext(win_tile=hand.win_tile, flowers=2),
    )
    assert two.total == one.total + 2


def test_one_flower_scores_one_point_more() -> None:
    plain = json.loads(invoke("fan", NINE_GATES, "--json").stdout)
    flower = json.loads(invoke("fan", "H1" + NINE_GATES, "--json").stdout)
    assert flower["total"] == plain["total"] + 1


# ------------------------------------------------------------------------------------------------
# 5. `fan --jsonl`: bad bytes, JSON too deep or too long, values of the wrong type


def test_the_stream_survives_bytes_depth_and_long_numbers() -> None:
    bad = [b"\xff", b"[" * 50_000, b"1" * 5_000, b'{"flowers": ' + b"9" * 5_000 + b"}"]
    lines = [GOOD_LINE]
    for line in bad:
        lines += [line, GOOD_LINE]
    out = stream(lines)
    assert [o["ok"] for o in out] == [True, False] * len(bad) + [True]
    assert {o["total"] for o in out[::2]} == {91}  # 九莲宝灯 88 + 双暗刻 2 + 幺九刻 1
    assert "line 2: not UTF-8" in out[1]["message"]
    assert "line 4: " in out[3]["message"] and "deep" in out[3]["message"]
    assert "line 6: " in out[5]["message"] and "4300 digits" in out[5]["message"]


# JSON texts that are none of the values a key accepts (the line is built as text: a number of
# 5,000 digits is no Python value json.dumps can write).
WRONG = [
    "null", "[[]]", '{"a": 1}', "1.5", '"x"', "NaN", "Infinity", "-Infinity", "1e999",
    "9" * 4000, "-1", '["W1"]',
]  # fmt: skip


def _with(key: str, value: str, meld: dict[str, Any] | None = None) -> bytes:
    obj = dict(GOOD)
    if meld is not None:  # a pung of W1 in place of the standing three; W2 pairs
        obj["concealed"] = GOOD["concealed"][3:]
        obj["win_tile"] = "W2"
        obj["melds"] = [dict(meld, **{key: "@"})]
    else:
        obj[key] = "@"
    return json.dumps(obj).replace('"@"', value).encode()


def test_a_value_of_the_wrong_type_anywhere_is_an_invalid_line() -> None:
    pung = {"type": "pung", "tiles": ["W1", "W1", "W1"], "from": 1}
    lines: list[bytes] = []
    for key in GOOD:
        wrong = WRONG + (
            ["true"] if key not in ("self_drawn", "fourth_tile", "kong", "last_tile") else []
        )
        lines += [_with(key, value) for value in wrong]
    for key in pung:
        wrong = [*WRONG, "true", "1.0"] if key == "from" else [*WRONG, "true"]
        lines += [
            _with(key, value, pung) for value in wrong if not (key == "from" and value == "null")
        ]
    lines += [_with("from", "3", pung), GOOD_LINE]  # good ones: a pung of W1 offered by seat 3
    out = stream(lines)
    assert out[-2]["ok"] and out[-1]["ok"]
    for line, result in zip(lines[:-2], out[:-2], strict=True):
        assert result["ok"] is False and result["reason"] == "invalid", line[:200]
        assert len(result["message"]) < 200  # a short message, not the whole value


def test_evaluate_names_the_wrong_seat_type() -> None:
    pung = {"type": "pung", "tiles": ["W1", "W1", "W1"], "from": 1}
    for value in ("true", "1.0"):
        (out,) = stream([_with("from", value, pung)])
        assert "melds[0].from: 1, 2, 3 or null expected" in out["message"]


# ------------------------------------------------------------------------------------------------
# 6. Property-based: random and mutated input, nothing escapes

GRAMMAR = list("WBTFJHwbtfjhmpszfMPSZF0123456789[]():+ ") + list("²³¹①٣١９Ｗ\u3000\x00\udcff万东")
grammar_text = st.text(alphabet=st.sampled_from(GRAMMAR), max_size=40)
any_text = st.text(max_size=40)
random_bytes_text = st.binary(max_size=40).map(lambda b: b.decode("utf-8", "surrogateescape"))


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str]) -> str:
    """A valid input with a few characters inserted, deleted or replaced."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        char = draw(st.sampled_from(GRAMMAR) | st.characters())
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        if op == "insert":
            text = text[:at] + char + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + char + text[at + 1 :]
    return text


hands = st.one_of(grammar_text, any_text, random_bytes_text, mutated(HANDS))


FAN_OPTIONS = ["-s", "-4", "-k", "-l", "--explain", "--json", "--seat=S", "--round=N"]
FAN_OPTIONS += ["--flowers=2", "--rules=mil", "--tiles=glyph", "--tiles=chinese", "--win=W5"]
fan_options = st.lists(st.sampled_from(FAN_OPTIONS) | hands.map(lambda w: f"--win={w}"), max_size=4)


@settings(max_examples=400, deadline=None)
@given(hands, fan_options)
def test_fan_never_escapes(text: str, options: list[str]) -> None:
    invoke("fan", "--", text)
    invoke("fan", *options, "--", text)


@settings(max_examples=300, deadline=None)
@given(hands, st.one_of(grammar_text, random_bytes_text, mutated(["W1B2T3F4J1", "123m456p7z"])))
def test_shanten_never_escapes(text: str, visible: str) -> None:
    invoke("shanten", "--", text)
    invoke("shanten", f"--visible={visible}", "--", text)


json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
    st.sampled_from(["W1", "W5", "F1", "H1", "E", "S", "pung", "chow", "kong", "concealed_kong"]),
)  # fmt: skip
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)
tiles_lists = st.lists(
    st.sampled_from(["W1", "W2", "W3", "W5", "W9", "F1", "H1", "x"]), max_size=14
)
melds = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["chow", "pung", "kong", "concealed_kong"]) | json_values,
        "tiles": tiles_lists | json_values,
        "from": st.sampled_from([None, 1, 2, 3, 4, True, 1.0]) | json_values,
    },
)
hand_objects = st.fixed_dictionaries(
    {},
    optional={
        "concealed": tiles_lists | json_values,
        "melds": st.lists(melds, max_size=5) | json_values,
        "win_tile": st.sampled_from(["W1", "W5", "H1", "x"]) | json_values,
        "self_drawn": json_values,
        "kong": json_values,
        "seat_wind": st.sampled_from(["E", "S", "x"]) | json_values,
        "flowers": st.integers(-2, 10) | json_values,
        "extra": json_values,
    },
)
json_text = st.one_of(
    json_values,
    hand_objects,
    hand_objects.map(lambda o: {**GOOD, **o}),  # GOOD, a few keys changed
).map(json.dumps)
stream_lines = st.one_of(
    st.binary(max_size=60).map(lambda b: b.replace(b"\n", b"")),
    json_text.map(str.encode),
    mutated([line.decode() for line in JSON_LINES]).map(
        lambda s: s.replace("\n", "").encode("utf-8", "surrogatepass")
    ),
    st.sampled_from(JSON_LINES),
    st.just(b"[" * 5_000),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(stream_lines, min_size=1, max_size=8))
def test_jsonl_answers_every_line(lines: list[bytes]) -> None:
    out = stream([GOOD_LINE, *lines, GOOD_LINE])
    assert out[0]["ok"] and out[-1]["ok"] and out[0] == out[-1]
    assert all(o["reason"] != "error" for o in out if not o["ok"]), out  # no internal error


# ------------------------------------------------------------------------------------------------
# The real executable: the stream goes on past an invalid byte under a UTF-8 locale

GUOBIAO = Path(sys.executable).parent / "guobiao"


def _run(args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    env.pop("PYTHONIOENCODING", None)
    return subprocess.run(
        [str(GUOBIAO), *args], input=stdin, capture_output=True, env=env, timeout=60, check=False
    )


@pytest.mark.skipif(not GUOBIAO.exists(), reason="the guobiao script is not installed")
def test_the_process_keeps_the_stream_past_an_invalid_byte() -> None:
    run = _run(
        ["fan", "--jsonl"], b"\n".join([GOOD_LINE, b"\xff\xfe", b"[" * 50_000, GOOD_LINE]) + b"\n"
    )
    assert run.returncode == 0 and b"Traceback" not in run.stderr
    out = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert [o["ok"] for o in out] == [True, False, False, True]
    assert out[0]["total"] == out[3]["total"] == 91


@pytest.mark.skipif(not GUOBIAO.exists(), reason="the guobiao script is not installed")
def test_the_process_refuses_a_superscript_digit_in_one_line() -> None:
    run = _run(["fan", "W1W1W1W²W3W4W5W6W7W8W9W9W9 +W5"])
    assert run.returncode == 2 and run.stdout == b""
    assert b"Traceback" not in run.stderr
    assert run.stderr.decode().startswith("error: 'W' must be followed by a digit at position 6")
