"""The library and the command line as a newcomer meets them (audit 7): a natural mistake with
the Python API is one clear error that says how to write it (never a silent wrong score, never
``invalid literal for int()``), every public name explains itself in ``help()``, ``fan
--tiles chinese`` shows the whole hand, ``shanten --json`` refuses in JSON, and the README's
piped examples run as written."""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import guobiao
from guobiao import Hand, Meld, MeldKind, Tile, WinContext, Wind, calculate, parse_hand, shanten
from guobiao.cli import main
from guobiao.scoring.fans import Fan

ROOT = Path(__file__).resolve().parents[1]
NINE_GATES = "W1W1W1W2W3W4W5W6W7W8W9W9W9"
# a pung of South (南) exposed: with South as the seat wind it is 门风刻 (Seat Wind, 2 points)
SOUTH_PUNG = "[F2F2F2]W1W2W3W4W5W6B1B2B3T9 +T9"


# The constructors as a program without type hints calls them: with a tile's name, a letter.
AnyWinContext: Any = WinContext
AnyMeld: Any = Meld
AnyHand: Any = Hand


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner(env={"COLUMNS": "80"}).invoke(main, list(args), input=stdin)


# -- the Python API: a mistake says how to write it ------------------------------------------


def test_the_seat_wind_as_a_letter_is_refused_not_scored_as_no_wind() -> None:
    """``seat_wind="S"`` was kept as is and matched no wind: the hand lost its 门风刻."""
    hand = parse_hand(SOUTH_PUNG)
    assert hand.win_tile is not None
    for field in ("seat_wind", "round_wind"):
        with pytest.raises(TypeError, match=re.escape(f"{field} takes a Wind, such as Wind.parse")):
            AnyWinContext(hand.win_tile, **{field: "S"})
    with pytest.raises(TypeError, match="seat_wind takes a Wind"):
        AnyWinContext(hand.win_tile, seat_wind=7)
    # the way the message names scores the seat wind, as its number does
    for seat in (Wind.parse("S"), 1):
        result = calculate(hand, AnyWinContext(hand.win_tile, seat_wind=seat))
        assert result.count_of(Fan.SEAT_WIND) == 1


@pytest.mark.parametrize(
    ("flag", "value"), [("kong", 2), ("last_tile", None), ("self_drawn", "yes"), ("fourth_tile", 1)]
)
def test_a_win_flag_that_is_no_bool_is_refused(flag: str, value: object) -> None:
    """``kong=2`` was read as another flag (a cache of the calculator keyed by the flags' bits:
    after one call with ``last_tile=2`` a robbed kong scored 海底捞月 for the rest of the
    process); ``None`` or a string raised a TypeError about ``<<``. Now the context says which."""
    hand = parse_hand(SOUTH_PUNG)
    assert hand.win_tile is not None
    with pytest.raises(TypeError, match=re.escape(f"WinContext's {flag} takes True or False")):
        AnyWinContext(hand.win_tile, **{flag: value})


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (
            lambda: AnyWinContext("W5"),
            "WinContext's win_tile takes a Tile, such as Tile.parse('W5')",
        ),
        (lambda: AnyWinContext(None), "WinContext's win_tile takes a Tile (or its index 0-41)"),
        (lambda: AnyWinContext(-1), "WinContext's win_tile: tile index out of range 0-41: -1"),
        (
            lambda: AnyMeld(MeldKind.PUNG, "F1"),
            "Meld's tile takes a Tile, such as Tile.parse('F1')",
        ),
        (lambda: AnyMeld(MeldKind.PUNG, 50), "Meld's tile: tile index out of range 0-41: 50"),
        (lambda: AnyHand(["W1", "W2"]), "Hand's concealed takes a Tile, such as Tile.parse('W1')"),
        (lambda: AnyHand("W1W2W3"), "parse_hand('W1W2W3') reads a hand's text"),
        (
            lambda: AnyHand((), win_tile="W5"),
            "Hand's win_tile takes a Tile, such as Tile.parse('W5')",
        ),
        (
            lambda: AnyHand((), flowers=["H1"]),
            "Hand's flowers takes a Tile, such as Tile.parse('H1')",
        ),
        (lambda: AnyHand([99]), "Hand's concealed: tile index out of range 0-41: 99"),
    ],
)
def test_a_tile_name_where_a_tile_belongs_says_how_to_write_it(
    make: Callable[[], object], expected: str
) -> None:
    """It said ``invalid literal for int() with base 10: 'W5'`` (or ``tuple index out of range``)."""
    with pytest.raises((TypeError, ValueError)) as caught:
        make()
    assert expected in str(caught.value)


def test_tiles_and_indices_still_make_the_same_objects() -> None:
    w5 = Tile.parse("W5")
    assert AnyWinContext(4) == WinContext(w5)
    assert AnyMeld(MeldKind.PUNG, 27) == Meld(MeldKind.PUNG, Tile.parse("F1"))
    assert AnyHand([0, 1, 2], win_tile=3) == parse_hand("W1W2W3 +W4")


def test_shanten_of_a_list_of_tiles_says_what_counts_are() -> None:
    """A hand's tiles passed where counts belong were "a kind held more than four times"."""
    tiles = list(parse_hand(NINE_GATES).concealed)  # 13 tile indices, not 34 counts
    with pytest.raises(ValueError, match=re.escape("counts[k] is how many of tile k")):
        shanten(tiles)
    with pytest.raises(ValueError, match="not a list of tiles"):
        shanten(tiles)
    # fifteen characters: no kind four times over, one suit over a hand's size
    with pytest.raises(ValueError, match="15 tiles of one suit"):
        shanten([4, 4, 4, 3] + [0] * 30)
    with pytest.raises(ValueError, match="counts must have 34 entries"):
        shanten([0] * 33)


def _own_doc(owner: type, name: str) -> str | None:
    value = vars(owner)[name]
    if isinstance(value, property):
        value = value.fget
    return getattr(getattr(value, "__func__", value), "__doc__", None)


def test_every_public_name_and_member_explains_itself() -> None:
    """``help(guobiao.MeldKind)`` showed Enum's "Create a collection of name/value pairs.";
    a dozen properties (``Tile.suit``, ``FanResult.meets_minimum`` ...) had no docstring."""
    missing = []
    for name in guobiao.__all__:
        value = getattr(guobiao, name)
        if not inspect.isclass(value):
            if callable(value) and not inspect.getdoc(value):
                missing.append(name)
            continue
        if not vars(value).get("__doc__"):
            missing.append(name)
        for member, attr in vars(value).items():
            if member.startswith("_") and member not in ("__str__", "__repr__"):
                continue
            if not (callable(attr) or isinstance(attr, (property, classmethod))):
                continue  # an enum member, a field
            if member == "__repr__" and dataclasses.is_dataclass(value):
                continue  # the dataclass's own, field by field
            if not _own_doc(value, member):
                missing.append(f"{name}.{member}")
    assert missing == []


# -- the command line ----------------------------------------------------------------------


@pytest.mark.parametrize("style", ["chinese", "glyph"])
def test_fan_in_chinese_or_glyphs_shows_the_flowers_and_the_winning_tile_whole(style: str) -> None:
    """``--tiles chinese`` left the flowers out of the Hand line and could break it between
    ``+`` and the winning tile."""
    result = invoke("fan", "[W1W2W3][F1F1F1:2]B4B5B6T7T8B1B1 H1H2 +T9", "--tiles", style)
    assert result.exit_code == 0, result.output
    hand = result.output.split("Shape:")[0]
    h1, h2, t9 = (Tile.parse(name).text(style) for name in ("H1", "H2", "T9"))
    assert f"{h1} {h2}" in hand and f"+{t9}" in hand
    assert "Flower Tiles" in result.output  # the two flowers are scored: 花牌 x2


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["W1"], "13 or 14 standing tiles, not 1"),
        (["X1"], "unexpected character at position 0"),
        (["W1W1W1W1W1W2W3W4W5W6W7W8W9"], "more than four of W1"),
        ([NINE_GATES, "--visible", "Q"], "--visible: unexpected character"),
        ([NINE_GATES, "--bogus"], "No such option '--bogus'"),
    ],
)
def test_shanten_json_refuses_in_json(args: list[str], words: str) -> None:
    """A program reading ``shanten --json`` got nothing on stdout for a bad hand; now the
    refusal that ``fan --json`` gives, and ``"ok": true`` beside a shanten."""
    result = invoke("shanten", *args, "--json")
    assert result.exit_code == 2
    answer = json.loads(result.stdout)
    assert answer["ok"] is False and answer["reason"] == "invalid"
    assert words in answer["message"]
    good = json.loads(invoke("shanten", NINE_GATES, "--json").stdout)
    assert good["ok"] is True and good["shanten"] == 0  # 九莲宝灯's shape: ready


# -- the docs: piped examples run as written ---------------------------------------------------


def _piped_lines(text: str) -> list[tuple[str, str]]:
    """(what is piped in, the guobiao command) of every ``echo '...' | guobiao ...`` example
    line in the ```sh and ```text blocks of a doc."""
    found = []
    for body in re.findall(r"```(?:sh|text)\n(.*?)```", text, flags=re.S):
        for line in body.splitlines():
            command = line.split("  #")[0].strip()
            if command.startswith("echo ") and "| guobiao " in command:
                left, _, right = command.partition("| ")
                found.append((shlex.split(left)[1], right.strip()))
    return found


DOCS = ["README.md", *(f"docs/{n}" for n in ("arena.md", "botzone.md", "env.md"))]


def test_the_piped_examples_of_the_docs_run_as_written() -> None:
    """The README's ``echo ... | guobiao botzone-bot`` line is the only kind of example line
    tests/test_readme.py does not run (it takes lines that start with ``guobiao``)."""
    piped = [p for doc in DOCS for p in _piped_lines((ROOT / doc).read_text(encoding="utf-8"))]
    assert piped
    for stdin, command in piped:
        result = invoke(*shlex.split(command)[1:], stdin=stdin + "\n")
        assert result.exit_code == 0, (command, result.output)
        assert json.loads(result.stdout) == {"response": "PASS"}  # a first turn: PASS


def test_the_readmes_compact_hand_is_the_hand_of_the_line_before() -> None:
    """The README writes a hand twice, the second time "the same hand, compact form"."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    (at,) = [i for i, line in enumerate(lines) if line.endswith("# the same hand, compact form")]
    compact, botzone = (shlex.split(lines[i].split("  #")[0])[2] for i in (at, at - 1))
    assert parse_hand(compact) == parse_hand(botzone)
    assert compact != botzone


# -- the declared dependency ranges hold at their lower ends ------------------------------------


def _lowest_pins() -> list[str]:
    """``name==X`` for each dependency of the command line, X its declared lower bound."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = []
    for requirement in project["dependencies"]:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+),<[0-9.]+", requirement)
        assert match, f"not a 'name>=low,<high' range: {requirement}"
        pins.append(f"{match[1]}=={match[2]}")
    return pins


def test_the_commands_run_with_the_lowest_versions_pyproject_allows(
    tmp_path: Path,
) -> None:
    """``click>=8.1`` was declared, but ``guobiao fan`` died at import with ``TypeError: type
    'ParamType' is not subscriptable`` under click 8.1-8.3 (and 8.4, which takes one type
    parameter): a newcomer whose environment had an older click met a traceback."""
    import os
    import subprocess
    import venv

    where = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(where)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    pins = tmp_path / "lowest.txt"
    pins.write_text("\n".join(_lowest_pins()) + "\n", encoding="utf-8")
    done = subprocess.run(
        [str(where / "bin" / "python"), "-m", "pip", "install", "-q", "-c", str(pins), str(ROOT)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    guobiao_bin = str(where / "bin" / "guobiao")

    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [guobiao_bin, *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=300,
            check=False,
        )

    scored = run("fan", NINE_GATES + " +W5", "--json", "--seat", "S")
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["fans"][0]["zh"] == "九莲宝灯"
    refused = run("fan", NINE_GATES + " +W5", "--seat", "Q")
    assert refused.returncode == 2 and "not a wind: 'Q'" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert run("shanten", NINE_GATES).returncode == 0
    assert run("simulate", "-n", "1", "--hands", "1", "--seed", "1").returncode == 0
    assert run("play", "--hands", "1", "--seed", "3", stdin="1\n" * 3000).returncode == 0
