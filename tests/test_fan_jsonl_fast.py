"""The fast path of ``guobiao fan --jsonl`` gives exactly the answers of the full reading.

``jsonio.answer_line`` reads the usual line by look-ups (``_quick_hand``) and writes the answer from
ready-made pieces (``_answer_text``); every line is compared here with the full way,
``json.dumps(evaluate_line(...), ensure_ascii=False)``: generated hands of every family, lines
that leave the usual form (other notations, missing keys, values of other types), and whole
streams read in blocks (``stream.stream_jsonl``), including one answered line by line through a pipe.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from click.testing import CliRunner

import handgen
from guobiao.cli import jsonio, main
from guobiao.cli.jsonio import answer_line, evaluate_line, hand_from_json
from scoring import NINE_GATES_JSON

HANDS = list(handgen.generate(1500, 14))
NINE_GATES = NINE_GATES_JSON
PUNG = {"type": "pung", "tiles": ["W1", "W1", "W1"], "from": 1}


def full(raw: bytes, number: int, rules: str) -> str:
    return json.dumps(evaluate_line(raw, number, rules), ensure_ascii=False)


@pytest.mark.parametrize("rules", ["1998", "mil"])
def test_generated_hands_take_the_fast_path_and_answer_the_same(rules: str) -> None:
    for number, obj in enumerate(HANDS, start=1):
        raw = json.dumps(obj, ensure_ascii=False).encode()
        quick = jsonio._quick_hand(json.loads(raw))
        assert quick is not None, obj  # the usual form is read by look-ups
        assert quick == hand_from_json(obj)
        assert answer_line(raw, number, rules) == full(raw, number, rules)


def _variants() -> list[Any]:
    """Hands that leave the usual form, valid or not, one change each."""
    with_pung = dict(NINE_GATES, concealed=NINE_GATES["concealed"][3:], win_tile="W2")
    out: list[Any] = [None, [], "x", 1, {}]
    for key, values in {
        "concealed": [None, "W1", ["1m"] * 13, [*NINE_GATES["concealed"][:12], "H1"], [["W1"]]],
        "melds": [None, {}, [None], [[]], "W1"],
        "win_tile": [None, "5m", "H1", "X9", ["W5"], 4],
        "self_drawn": [None, 1, "true", True, 0],
        "fourth_tile": [0, True, False, 1],
        "kong": [1.0, True, 0.0],
        "last_tile": ["", True],
        "seat_wind": ["east", "e", "F2", 1, None, "S", "N"],
        "round_wind": ["W ", "南", "W"],
        "flowers": [True, False, 1, -1, 9, 8, 2.0, 0.0, "2", None],
        "extra": [1],
    }.items():
        out += [dict(NINE_GATES, **{key: value}) for value in values]
    out += [{k: v for k, v in NINE_GATES.items() if k != key} for key in NINE_GATES]
    for key, values in {
        "type": [None, "PUNG", "chow", "kong", "concealed_kong", 1],
        "tiles": [["W1", "W1"], ["1m", "1m", "1m"], ["W1", "W1", ["W1"]], "W1W1W1", None],
        "from": [None, 0, 4, True, 1.0, "1", 2, 3],
    }.items():
        out += [dict(with_pung, melds=[dict(PUNG, **{key: value})]) for value in values]
    out.append(dict(with_pung, melds=[{k: v for k, v in PUNG.items() if k != "from"}]))
    chow = {"type": "chow", "tiles": ["B3", "B1", "B2"], "from": 3}
    out.append(dict(NINE_GATES, concealed=NINE_GATES["concealed"][3:], melds=[chow]))
    out.append(dict(NINE_GATES, melds=[chow, chow, chow, chow, chow]))
    return out


@pytest.mark.parametrize("rules", ["1998", "mil"])
def test_unusual_lines_answer_as_the_full_reading_does(rules: str) -> None:
    lines = [json.dumps(v, ensure_ascii=False).encode() for v in _variants()]
    lines += [b"{not json", b"\xff\xfe", b"[" * 5000, b"1" * 5000, b"  ", b'{"flowers": 1e400}']
    good = json.dumps(NINE_GATES).encode()
    # JSON white space is only space, tab, CR and LF: a BOM, a form feed or an ideographic space
    # around the value, or anything after it, makes the line invalid
    lines += [b"\xef\xbb\xbf" + good, good + b" x", b"\t" + good + b" \r", good + b"{}"]
    lines += ["\u3000".encode() + good, b"\x0c" + good, good + b"\x0c", b"NaN", b'"W1"']
    # twice: the second time every value read before is known (1 == True == 1.0 as keys)
    for number, raw in enumerate(lines + lines, start=1):
        assert answer_line(raw, number, rules) == full(raw, number, rules), raw[:120]
    for value in _variants():  # read quickly only when the full reading gives the same hand
        quick = jsonio._quick_hand(value)
        if quick is not None:
            assert quick == hand_from_json(value), value


def test_a_stream_in_many_blocks_answers_every_line_in_order() -> None:
    lines = [json.dumps(h, ensure_ascii=False).encode() for h in HANDS]
    lines[10:10] = [b"", b"{not json", b"   ", b"\xff"]
    stdin = b"\r\n".join(lines[:30]) + b"\n" + b"\n".join(lines[30:])  # no newline at the end
    assert len(stdin) > 3 * (1 << 16)  # several reads of 64 KiB
    result = CliRunner().invoke(main, ["fan", "--jsonl", "--rules", "mil"], input=stdin)
    assert result.exit_code == 0, result.output
    expected = [
        full(raw, number, "mil")
        for number, raw in enumerate(stdin.split(b"\n"), start=1)
        if raw.strip()
    ]
    assert result.stdout.split("\n") == [*expected, ""]
    assert '"line 12: not JSON' in result.stdout and '"line 14: not UTF-8' in result.stdout


def test_a_program_gets_each_answer_before_it_writes_the_next_line() -> None:
    code = "import sys; from guobiao.cli import main; sys.exit(main())"
    with subprocess.Popen(
        [sys.executable, "-c", code, "fan", "--jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        for flowers in (0, 3):
            process.stdin.write(json.dumps(dict(NINE_GATES, flowers=flowers)).encode() + b"\n")
            process.stdin.flush()
            answer = json.loads(process.stdout.readline())  # would hang if it waited for more
            assert answer["total"] == 91 + flowers  # 九莲宝灯 88, 双暗刻 2, 幺九刻 1, flowers
        process.stdin.close()
        assert process.wait(timeout=60) == 0


def test_a_stream_loads_only_what_scoring_needs() -> None:
    code = (
        "import sys, io; from guobiao.cli import main\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))\n"
        "try:\n    main(['fan', '--jsonl'])\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, json.dumps(NINE_GATES)],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        timeout=60,
        check=True,
    )
    assert json.loads(run.stdout)["total"] == 91
    loaded = set(run.stderr.decode().split())
    for module in (
        "guobiao.bots",
        "guobiao.table.game",
        "guobiao.tournament",
        "guobiao.cli.botzone",
        "guobiao.cli.tournament",
        "rich.table",
        "sqlalchemy",
        "numpy",
    ):
        assert module not in loaded


def test_an_internal_error_is_one_answer_and_the_stream_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from guobiao.cli import stream

    def broken(raw: bytes, number: int, rules: str) -> str:
        if number == 2:
            raise KeyError("boom")
        return answer_line(raw, number, rules)

    monkeypatch.setattr(stream, "answer_line", broken)
    good = json.dumps(NINE_GATES).encode()
    result = CliRunner().invoke(main, ["fan", "--jsonl"], input=b"\n".join([good] * 3))
    assert result.exit_code == 0
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["ok"] for o in out] == [True, False, True]
    assert out[1] == {
        "ok": False,
        "reason": "error",
        "message": "line 2: internal error: KeyError: 'boom'",
    }
    assert "error: line 2: internal error: KeyError: 'boom'" in result.stderr
