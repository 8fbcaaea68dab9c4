"""`guobiao replay` on hostile files: whatever the file, a one-line error and exit code 2 (it
cannot be read), 1 (it reads but does not replay as it says) or 0, never a traceback, never an
endless read. Specific cases first (wrong types in every format, Infinity and NaN, deep nesting,
huge integers, devices and directories), then random bytes, random JSON and mutated real logs
(hypothesis)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, event, given, reject, settings
from hypothesis import strategies as st

from guobiao.cli import main

GUOBIAO = Path(sys.executable).parent / "guobiao"


# -- writing logs, JSON the json module does not write included -------------------------------


@dataclass(frozen=True)
class Raw:
    """JSON text written as it is: ``Infinity`` where an int goes, an integer of 5,000 digits,
    arrays nested 50,000 deep."""

    text: str


def dumps(value: object) -> str:
    raws: list[str] = []

    def default(obj: object) -> str:
        if isinstance(obj, Raw):
            raws.append(obj.text)
            return f"\x00raw{len(raws) - 1}\x00"
        raise TypeError(type(obj).__name__)

    text = json.dumps(value, default=default)
    for index, raw in enumerate(raws):
        text = text.replace(json.dumps(f"\x00raw{index}\x00"), raw, 1)
    return text


def lines_text(lines: list[Any]) -> str:
    return "".join(dumps(line) + "\n" for line in lines)


@dataclass(frozen=True)
class Logs:
    """Real logs: a 1998 session log (its lines), a Botzone-variant session log of one hand, a
    1998 and a Botzone hand record, a Botzone match log; and a folder to write cases in."""

    folder: Path
    session: list[dict[str, Any]]
    arena: list[dict[str, Any]]
    record: dict[str, Any]
    botzone_record: dict[str, Any]
    match: dict[str, Any]

    def __repr__(self) -> str:  # short in hypothesis reports
        return f"Logs({self.folder})"

    def text(self, kind: str, doc: Any) -> str:
        """A document of ``kind`` as the file guobiao reads."""
        return lines_text(doc) if kind in ("session", "arena") else dumps(doc)

    def doc(self, kind: str) -> Any:
        return copy.deepcopy(getattr(self, kind))


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    folder = tmp_path_factory.mktemp("hostile")
    runner = CliRunner()
    sim = ["simulate", "-n", "1", "--hands", "2", "--seed", "3", "--log-dir", str(folder / "s")]
    done = runner.invoke(main, sim)
    assert done.exit_code == 0, done.output
    arena = ["arena", "--bots", "fan,efficiency,random,fan", "--deals", "1", "--seed", "2"]
    done = runner.invoke(main, [*arena, "--log-dir", str(folder / "a")])
    assert done.exit_code == 0, done.output

    def read_lines(path: Path) -> list[dict[str, Any]]:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]

    session = read_lines(next((folder / "s").glob("*.jsonl")))
    one_hand = read_lines(next((folder / "a").glob("*.jsonl")))
    match = json.loads(next((folder / "a").glob("*.botzone.json")).read_text(encoding="utf-8"))
    assert "dice" in session[1]["game"] and "dice" not in one_hand[1]["game"]
    return Logs(folder, session, one_hand, session[1]["game"], one_hand[1]["game"], match)


def replay(path: Path) -> Result:
    """``guobiao replay path``: no exception but the exit, exit code 0, 1 or 2, and for 2 one
    line on stderr."""
    result = CliRunner().invoke(main, ["replay", str(path)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        assert result.exc_info is not None
        pytest.fail("".join(traceback.format_exception(*result.exc_info)))
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return result


def write(logs: Logs, text: str | bytes, name: str = "case.log") -> Path:
    path = logs.folder / name
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


def setting(doc: Any, path: tuple[Any, ...], value: object) -> Any:
    """``doc`` with the value at ``path`` replaced (or the key added)."""
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


def test_the_real_logs_replay(logs: Logs) -> None:
    for kind in ("session", "arena", "record", "botzone_record", "match"):
        result = replay(write(logs, logs.text(kind, logs.doc(kind))))
        assert result.exit_code == 0, (kind, result.output)


# -- the specific cases --------------------------------------------------------------------------

INF, NINF, NAN = Raw("Infinity"), Raw("-Infinity"), Raw("NaN")
BIG = Raw("9" * 5000)  # over the int-string limit (4,300 digits)
DEEP = Raw("[" * 50_000 + "]" * 50_000)

# (log, where, value, exit code, what stderr or stdout says)
CASES: dict[str, tuple[str, tuple[Any, ...], object, int, str]] = {
    # a session log's hand line: "game" not an object
    "game-list": ("session", (1, "game"), [], 2, "line 2: game must be an object, not an array"),
    "game-string": ("session", (1, "game"), "x", 2, "line 2: game must be an object, not 'x'"),
    "game-null": ("session", (1, "game"), None, 2, "line 2: game must be an object, not null"),
    # an action, or round_wind, not a string
    "action-number": ("session", (1, "game", "actions", 0, 1), 5, 2, "actions[0][1] must be a string, not 5"),
    "action-list": ("session", (1, "game", "actions", 0, 1), [], 2, "actions[0][1] must be a string, not an array"),
    "action-object": ("session", (1, "game", "actions", 0, 1), {}, 2, "actions[0][1] must be a string, not an object"),
    "action-null": ("session", (1, "game", "actions", 0, 1), None, 2, "actions[0][1] must be a string, not null"),
    "round-wind-number": ("session", (1, "game", "round_wind"), 1, 2, "line 2: game: round_wind must be a string, not 1"),
    "round-wind-list": ("record", ("round_wind",), ["E"], 2, "round_wind must be a string, not an array"),
    "round-wind-object": ("botzone_record", ("round_wind",), {}, 2, "round_wind must be a string, not an object"),
    "round-wind-null": ("arena", (1, "game", "round_wind"), None, 2, "round_wind must be a string, not null"),
    # Infinity, -Infinity, NaN in the dice or a seat
    "dice-infinity": ("session", (1, "game", "dice", 0), INF, 2, "dice[0] must be an integer, not Infinity"),
    "dice-minus-infinity": ("record", ("dice", 2), NINF, 2, "dice[2] must be an integer, not -Infinity"),
    "dice-nan": ("session", (1, "game", "dice", 1), NAN, 2, "dice[1] must be an integer, not NaN"),
    "seat-infinity": ("session", (1, "game", "actions", 0, 0), INF, 2, "actions[0][0] must be a seat 0-3, not Infinity"),
    "seat-nan": ("record", ("actions", 3, 0), NAN, 2, "actions[3][0] must be a seat 0-3, not NaN"),
    "seat-minus-infinity": ("botzone_record", ("actions", 0, 0), NINF, 2, "must be a seat 0-3, not -Infinity"),
    "seat-out-of-range": ("session", (1, "game", "actions", 0, 0), 7, 2, "actions[0][0] must be a seat 0-3, not 7"),
    "forfeit-seat-infinity": ("botzone_record", ("forfeit",), {"seat": INF, "reason": "crash"}, 2, "forfeit.seat must be a seat 0-3, not Infinity"),
    # nesting 50,000 deep; integers of 5,000 digits
    "deep-in-a-line": ("session", (1, "result"), DEEP, 2, "line 2: JSON nested too deeply"),
    "deep-in-a-record": ("record", ("actions",), DEEP, 2, "JSON nested too deeply"),
    "deep-in-a-match": ("match", ("initdata",), DEEP, 2, "JSON nested too deeply"),
    "big-integer-in-a-line": ("session", (1, "number"), BIG, 2, "line 2: not JSON guobiao reads: Exceeds the limit (4300 digits)"),
    "big-integer-in-a-record": ("botzone_record", ("seed",), BIG, 2, "Exceeds the limit (4300 digits)"),
    "big-integer-in-a-match": ("match", ("initdata", "srand"), BIG, 2, "Exceeds the limit (4300 digits)"),
    # a session log's header and end line
    "players-not-strings": ("session", (0, "players"), [1, 2, 3, 4], 2, "line 1: players[0] must be a string, not 1"),
    "rules-wrong-type": ("session", (0, "rules", "minimum"), "8", 2, "line 1: rules.minimum must be an integer, not '8'"),
    "rules-float": ("session", (0, "rules", "hands_per_session"), 1.5, 2, "line 1: rules.hands_per_session must be an integer, not 1.5"),
    "rules-unknown": ("session", (0, "rules", "speed"), 1, 2, "line 1: rules: unknown rule 'speed'"),
    "version-infinity": ("session", (0, "version"), INF, 2, "unsupported log version inf"),
    "number-list": ("session", (1, "number"), [1], 2, "line 2: number must be an integer, not an array"),
    "ended-early-string": ("session", (-1, "ended_early"), "no", 2, "ended_early must be true or false, not 'no'"),
    "markup-in-a-name": ("session", (0, "players", 0), "[/red]", 1, "[/red]"),
    # a single hand record
    "record-rules-list": ("record", ("rules",), [], 2, "bad hand record: rules must be an object, not an array"),
    "record-flowers-string": ("record", ("rules", "flowers"), "yes", 2, "rules.flowers must be true or false, not 'yes'"),
    "record-actions-string": ("record", ("actions",), "pass", 2, "actions must be an array, not 'pass'"),
    "record-action-of-three": ("record", ("actions", 0), [0, "pass", 1], 2, "actions[0] must be [seat, action], not 3 values"),
    "record-wall-numbers": ("botzone_record", ("wall", 5), 5, 2, "wall[5] must be a string, not 5"),
    "record-build-null": ("record", ("build",), None, 2, "build must be an array, not null"),
    "record-forfeit-string": ("botzone_record", ("forfeit",), "crash", 2, "forfeit must be an object, not 'crash'"),
    "record-result-list": ("record", ("result",), [0], 2, "result must be an object, not an array"),
    "record-seed-float": ("record", ("seed",), 1.5, 2, "seed must be an integer, not 1.5"),
    "record-false-wins-number": ("botzone_record", ("false_wins",), 1, 2, "false_wins must be true or false, not 1"),
    "record-version-string": ("record", ("version",), "1", 2, "unsupported record version '1'"),
    # a Botzone match log
    "initdata-list": ("match", ("initdata",), [], 2, "bad Botzone match log: initdata must be an object, not an array"),
    "walltiles-list": ("match", ("initdata", "walltiles"), [], 2, "initdata.walltiles must be a string, not an array"),
    "walltiles-short": ("match", ("initdata", "walltiles"), "W1 W2", 2, "initdata.walltiles has 2 tiles, not 136"),
    "quan-infinity": ("match", ("initdata", "quan"), INF, 2, "initdata.quan must be an integer, not Infinity"),
    "quan-out-of-range": ("match", ("initdata", "quan"), 4, 2, "initdata.quan must be a seat 0-3, not 4"),
    "srand-nan": ("match", ("initdata", "srand"), NAN, 2, "initdata.srand must be an integer, not NaN"),
    "request-entry-string": ("match", ("log", 0), "x", 2, "log[0] must be an object, not 'x'"),
    "answer-entry-number": ("match", ("log", 1), 5, 2, "log[1] must be an object, not 5"),
    "missing-answers": ("match", ("log",), [], 1, "log entry 0: no request for seat 0"),
    "output-list": ("match", ("log", 2, "output"), [], 2, "log[2].output must be an object, not an array"),
    "content-string": ("match", ("log", 0, "output", "content"), "0 0 0", 2, "log[0].output.content must be an object"),
    "request-number": ("match", ("log", 0, "output", "content", "1"), 0, 2, "log[0].output.content.1 must be a string, not 0"),
    "answer-string": ("match", ("log", 1, "2"), "PASS", 2, "log[1].2 must be an object, not 'PASS'"),
    "verdict-list": ("match", ("log", 1, "0", "verdict"), ["OK"], 2, "log[1].0.verdict must be a string, not an array"),
    "time-infinity": ("match", ("log", 1, "3", "time"), INF, 2, "log[1].3.time must be an integer, not Infinity"),
    # an answer the judge cannot read is an illegal action (as on Botzone): the log then differs
    "response-number": ("match", ("log", 1, "0", "response"), 5, 1, "mismatch the judged scores [-30, 10, 10, 10]"),
    "response-list": ("match", ("log", 1, "1", "response"), ["PASS"], 1, "mismatch the judged scores [10, -30, 10, 10]"),
    "finish-score-infinity": ("match", ("log", -1, "output", "content", "0"), INF, 1, "the log has no finish output with the scores"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(CASES))
def test_a_hostile_field_is_named(logs: Logs, name: str) -> None:
    kind, where, value, code, says = CASES[name]
    doc = setting(logs.doc(kind), where, value)
    result = replay(write(logs, logs.text(kind, doc)))
    assert result.exit_code == code, result.output
    assert says in (result.stderr if code == 2 else result.stdout), result.output


def test_a_whole_file_nested_deep_or_with_a_huge_integer(logs: Logs) -> None:
    result = replay(write(logs, "[" * 50_000 + "]" * 50_000))
    assert "line 1: JSON nested too deeply" in result.stderr
    result = replay(write(logs, '{"log": [], "initdata": ' + "1" * 5000 + "}"))
    assert "line 1: not JSON guobiao reads: Exceeds the limit (4300 digits)" in result.stderr


def test_too_many_values_are_refused(logs: Logs) -> None:
    from guobiao.table.replay import MAX_LOG_VALUES

    result = replay(write(logs, "[" + "[]," * MAX_LOG_VALUES + "[]]"))
    assert result.exit_code == 2 and f"more than {MAX_LOG_VALUES:,} JSON values" in result.stderr


def test_files_that_are_no_logs(logs: Logs) -> None:
    from guobiao.table.replay import MAX_LOG_BYTES

    cases: list[tuple[Path, str]] = [
        (Path("/dev/zero"), "a device, not a log file"),
        (Path("/dev/null"), "a device, not a log file"),
        (logs.folder, "a directory, not a log file"),
        (logs.folder / "missing.jsonl", "no such file"),
        (
            write(logs, b'{"type": "session", "players": ["\xff"]}\n', "latin.jsonl"),
            "not UTF-8 text (byte 33)",
        ),
        (write(logs, "", "empty.jsonl"), "the first line must be the session header"),
    ]
    big = logs.folder / "big.jsonl"
    with big.open("wb") as out:
        out.truncate(MAX_LOG_BYTES + 1)  # sparse: no disk
    cases.append((big, f"larger than {MAX_LOG_BYTES // 2**20} MiB"))
    for path, says in cases:
        result = replay(path)
        assert result.exit_code == 2 and says in result.stderr, (path, result.stderr)


def test_an_unreadable_file(logs: Logs, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(logs, lines_text(logs.session), "locked.jsonl")
    real_open = Path.open

    def locked(self: Path, *args: Any, **kwargs: Any) -> Any:  # as chmod 0 is for a non-root user
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", locked)
    result = replay(path)
    assert result.exit_code == 2 and "permission denied" in result.stderr


def test_the_command_on_dev_zero_ends_at_once() -> None:
    done = subprocess.run(
        [str(GUOBIAO), "replay", "/dev/zero"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr == "error: /dev/zero: a device, not a log file\n"


# -- random bytes, random JSON, mutated logs -----------------------------------------------------

KEYS = sorted(
    {"type", "version", "rules", "players", "seats", "game", "result", "actions", "dice"}
    | {"wall", "build", "round_wind", "forfeit", "seat", "reason", "number", "log", "initdata"}
    | {"walltiles", "quan", "srand", "output", "content", "command", "response", "verdict"}
    | {"time", "scores", "ended_early", "deltas", "0", "1", "2", "3", "session", "hand", "end"}
)
SPECIAL = st.sampled_from(
    [INF, NINF, NAN, BIG, Raw("-" + "1" * 4400), DEEP, Raw("[" * 900 + "]" * 900), Raw("1e999")]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["E", "pass", "win", "discard W1", "HU", "PASS", "W1", "session", "hand"])
)
JSON = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), children, max_size=5)
    ),
    max_leaves=25,
)
HOSTILE = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MUTATIONS = settings(HOSTILE, max_examples=600)


@HOSTILE
@given(data=st.binary(max_size=600))
def test_random_bytes(logs: Logs, data: bytes) -> None:
    replay(write(logs, data))


@HOSTILE
@given(values=st.lists(JSON | SPECIAL, min_size=1, max_size=4))
def test_random_json(logs: Logs, values: list[object]) -> None:
    replay(write(logs, dumps(values[0])))  # one value
    replay(write(logs, lines_text(values)))  # JSON lines


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a document, its containers' too."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*prefix, index))
    return out


def _other_type(value: object) -> st.SearchStrategy[object]:
    """A JSON value of another type than ``value`` (or JSON the json module does not write)."""
    kinds: dict[type, st.SearchStrategy[Any]] = {
        type(None): st.none(),
        bool: st.booleans(),
        int: st.integers() | st.sampled_from([-1, 4, 7, 144, 2**64]),
        float: st.floats(),
        str: st.text(max_size=8) | st.sampled_from(["", "E", "W1", "chow W1W2W3", "[/b]"]),
        list: st.lists(SCALARS, max_size=4),
        dict: st.dictionaries(st.sampled_from(KEYS), SCALARS, max_size=4),
    }
    own = type(value)
    return st.one_of(*(s for k, s in kinds.items() if k is not own), SPECIAL)


WORDS = ["E", "S", "N", "W1", "J3", "F4", "H1", "pass", "win", "discard W1", "pung F1"]
WORDS += ["kong B2", "chow W3W4W5", "concealed_kong J1", "added_kong T3", "PASS", "HU"]
WORDS += ["PLAY W1", "PENG T5", "CHI B2 W3", "GANG", "GANG F1", "BUGANG J2", "time-out", "OK"]


def _same_type(value: object) -> st.SearchStrategy[object]:
    """Another value of the same type: a seat, a die, a score, a tile, an action, an answer."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.integers(-2, 8) | st.integers()
    if isinstance(value, str):
        return st.sampled_from(WORDS) | st.text(max_size=6)
    return _other_type(value)


@st.composite
def mutated(draw: st.DrawFn, doc: Any, paths: list[tuple[Any, ...]]) -> Any:
    """``doc`` (a copy) with one to three changes: a value of another type somewhere, another
    value of the same type, a key dropped, a list shortened."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        try:
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            current = parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed it
        if not isinstance(parent, dict | list):
            continue  # an earlier change made a container a string (indexable, not writable)
        change = draw(st.sampled_from(["replace", "tweak", "tweak", "drop", "shorten"]))
        if change == "replace":
            parent[path[-1]] = draw(_other_type(current))
        elif change == "tweak":
            parent[path[-1]] = draw(_same_type(current))
        elif change == "drop":
            del parent[path[-1]]
        elif isinstance(current, list) and current:
            del current[draw(st.integers(0, len(current) - 1)) :]
    return doc


FORMATS = ("session", "arena", "record", "botzone_record", "match")


@MUTATIONS
@given(data=st.data(), kind=st.sampled_from(FORMATS))
def test_mutated_logs(logs: Logs, data: st.DataObject, kind: str) -> None:
    doc = getattr(logs, kind)
    changed = data.draw(mutated(doc, _paths(doc)))
    text = logs.text(kind, changed)
    event(f"{kind}: exit code {replay(write(logs, text)).exit_code}")
    cut = data.draw(st.integers(0, len(text)))
    replay(write(logs, text[:cut]))  # truncated


@MUTATIONS
@given(data=st.data(), kind=st.sampled_from(["record", "botzone_record", "match"]))
def test_the_library_raises_only_value_errors(logs: Logs, data: st.DataObject, kind: str) -> None:
    """Game.replay, match_to_record and record_to_match on mutated input: a result or a
    ValueError (LogError for what cannot be read), nothing else."""
    from guobiao.botzone.log import match_to_record, record_to_match
    from guobiao.table.game import Game

    doc = getattr(logs, kind)
    try:  # values only: the JSON the json module cannot read is the reader's business
        changed = json.loads(dumps(data.draw(mutated(doc, _paths(doc)))))
    except (ValueError, RecursionError):
        reject()
    calls: list[Callable[[dict[str, Any]], object]] = (
        [match_to_record] if kind == "match" else [Game.replay, record_to_match]
    )
    for call in calls:
        try:
            call(changed)
        except ValueError as err:
            assert str(err)


def test_the_library_reads_a_log_saved_with_a_byte_order_mark(tmp_path: Path) -> None:
    from guobiao.table.replay import read_log

    plain = tmp_path / "plain.jsonl"
    plain.write_text('{"a": 1}\n{"b": 2}\n', encoding="utf-8")
    marked = tmp_path / "marked.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())  # as an editor may save it
    assert read_log(marked) == read_log(plain) == [{"a": 1}, {"b": 2}]
