"""``guobiao fans``: the fans at the command line, with what each asks of a hand (the same lines
the help page shows, guobiao.scoring.examples.DEFINITIONS) and an example whose ``guobiao fan``
command line, pasted, scores that fan."""

from __future__ import annotations

import json
import shlex
from unicodedata import east_asian_width

import pytest
from click.testing import CliRunner, Result

from guobiao import Fan
from guobiao.cli import main
from guobiao.scoring.examples import DEFINITIONS, EXAMPLES


def invoke(*args: str) -> Result:
    result = CliRunner(env={"COLUMNS": "80"}).invoke(main, list(args), terminal_width=80)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def columns(line: str) -> int:
    return sum(2 if east_asian_width(ch) in "WF" else 1 for ch in line)


def test_every_fan_has_a_definition_in_both_languages() -> None:
    assert list(DEFINITIONS) == list(Fan)  # table order, 明暗杠 last
    for fan, text in DEFINITIONS.items():
        assert text.en.endswith(".") and text.zh.endswith("。"), fan
    assert len({d.en for d in DEFINITIONS.values()}) == len(Fan)
    assert len({d.zh for d in DEFINITIONS.values()}) == len(Fan)
    assert "round's wind" in DEFINITIONS[Fan.PREVALENT_WIND].en
    assert "门风" in DEFINITIONS[Fan.SEAT_WIND].zh


def test_the_help_page_reads_the_definitions_from_the_api() -> None:
    """One source: the page's script holds no definitions of its own."""
    from pathlib import Path

    import guobiao.server

    script = (Path(guobiao.server.__file__).parent / "static" / "help.js").read_text("utf-8")
    assert "FAN_DEFS" not in script and "f.en_def" in script and "f.zh_def" in script
    assert DEFINITIONS[Fan.ALL_GREEN].en not in script


def test_the_api_sends_each_fans_definition() -> None:
    pytest.importorskip("fastapi")
    from guobiao.server.app import fan_table

    for row in fan_table("mil"):
        fan = Fan(row["number"])
        assert (row["en_def"], row["zh_def"]) == (DEFINITIONS[fan].en, DEFINITIONS[fan].zh)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_list_has_every_fan_in_table_order_within_80_columns(lang: str) -> None:
    result = invoke("fans", "--lang", lang)
    assert result.exit_code == 0, result.output
    out = result.output
    at = -1
    for fan in Fan:
        found = out.find(fan.zh, at + 1)
        assert found > at, fan  # each one, after the one before it
        at = found
    flat = " ".join(out.replace("│", " ").split())
    for fan in Fan:
        text = DEFINITIONS[fan].text(lang)
        assert text.split()[0] in out, fan
    if lang == "en":
        assert all(fan.en.split()[0] in out for fan in Fan)
        assert "Pungs or kongs of all four winds." in flat
    else:
        assert "Big Four Winds" not in out and "东南西北四副风刻（或杠）。" in out
    assert all(columns(line) <= 80 for line in out.splitlines())


def test_a_number_shows_one_fan_in_full() -> None:
    result = invoke("fans", "19")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "七对" in out and "Seven Pairs" in out and "24 points" in out
    assert "Seven pairs." in out
    assert "W1W1W5W5B2B2B7B7T9T9F1F1F3 +F3" in out
    assert 'guobiao fan "W1W1W5W5B2B2B7B7T9T9F1F1F3 +F3"' in out
    assert "on a discard" in out and "seat wind East" in out


@pytest.mark.parametrize("query", ["七对", "seven pairs", "SEVEN PAIRS", " Seven  Pairs "])
def test_a_name_in_either_language_any_case(query: str) -> None:
    result = invoke("fans", query)
    assert result.exit_code == 0, result.output
    assert "19  七对 Seven Pairs" in result.output
    assert "Seven Shifted Pairs" not in result.output  # the whole name, not a part of 连七对


def test_zh_shows_the_fan_in_chinese() -> None:
    out = invoke("fans", "七对", "--lang", "zh").output
    assert "七个对子。" in out and "和别人打出的牌" in out and "Seven" not in out


def test_part_of_a_name_lists_every_match() -> None:
    result = invoke("fans", "dragon")
    assert result.exit_code == 0, result.output
    shown = [f for f in Fan if f.en in result.output]
    assert shown == [
        Fan.BIG_THREE_DRAGONS,
        Fan.LITTLE_THREE_DRAGONS,
        Fan.TWO_DRAGON_PUNGS,
        Fan.DRAGON_PUNG,
    ]
    assert "4 fans match 'dragon'" in result.output
    assert "guobiao fan " not in result.output  # a list: no example
    out = invoke("fans", "龙").output
    assert all(f.zh in out for f in Fan if "龙" in f.zh)


def test_honours_spelt_either_way() -> None:
    assert "All Honors" in invoke("fans", "all honours").output
    assert "34  全不靠" in invoke("fans", "lesser honors and knitted tiles").output


def test_the_mil_profiles_fan_is_82_and_says_so() -> None:
    out = invoke("fans", "82").output
    assert "明暗杠" in out and "--rules mil" in out
    assert out.rstrip().endswith("--rules mil")


@pytest.mark.parametrize(
    ("query", "hint"), [("sevn pairs", "七对 Seven Pairs"), ("七队", "七对"), ("99", "")]
)
def test_no_match_says_what_was_searched_and_the_nearest_names(query: str, hint: str) -> None:
    result = invoke("fans", query)
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and result.output.startswith("error: no fan matches")
    assert repr(query) in result.output and hint in result.output
    assert "Traceback" not in result.output


def test_json_lists_every_fan_as_the_api_does() -> None:
    result = invoke("fans", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert [f["number"] for f in data] == [f.number for f in Fan]
    first = data[0]
    assert set(first) == {"number", "points", "zh", "en", "en_def", "zh_def", "example"}
    assert first["en_def"] == DEFINITIONS[Fan.BIG_FOUR_WINDS].en
    assert set(first["example"]) == {
        "hand",
        "self_drawn",
        "fourth_tile",
        "kong",
        "last_tile",
        "seat_wind",
        "round_wind",
        "flowers",
        "rules",
        "command",
    }
    one = json.loads(invoke("fans", "seat wind", "--json").output)
    assert [f["zh"] for f in one] == ["门风刻"] and one[0]["example"]["seat_wind"] == "S"
    none = invoke("fans", "nothing at all", "--json")
    assert none.exit_code == 1 and none.stdout.strip() == "[]"


def _counts(command: str, fan: Fan) -> None:
    words = shlex.split(command)
    assert words[:2] == ["guobiao", "fan"], command
    result = invoke(*words[1:], "--json")
    assert result.exit_code == 0, (command, result.output)
    counted = {f["zh"] for f in json.loads(result.stdout)["fans"]}
    assert fan.zh in counted, (command, counted)


@pytest.mark.parametrize("fan", list(Fan), ids=lambda f: f"{f.number}-{f.name}")
def test_the_printed_command_line_scores_its_fan(fan: Fan) -> None:
    """What a newcomer pastes: the last line of ``guobiao fans NUMBER``."""
    out = invoke("fans", str(fan.number)).output
    command = out.rstrip().splitlines()[-1].strip()
    _counts(command, fan)


@pytest.mark.parametrize("style", ["chinese", "glyph"])
def test_the_command_line_in_other_tile_names_scores_too(style: str) -> None:
    data = json.loads(invoke("fans", "--json", "--tiles", style).output)
    for row in data:
        _counts(row["example"]["command"], Fan(row["number"]))


def test_flags_of_the_win_are_in_the_command_and_in_words() -> None:
    out = invoke("fans", "out with replacement").output
    assert "self-drawn: a kong's replacement tile" in out
    assert out.rstrip().endswith("--self-drawn --kong")
    assert EXAMPLES[Fan.PREVALENT_WIND].round_wind.letter == "S"
    assert invoke("fans", "prevalent wind").output.rstrip().endswith("--round S")


@pytest.mark.parametrize("width", [80, None])
def test_help_fits_80_columns_with_examples(width: int | None) -> None:
    result = CliRunner(env={"COLUMNS": "80"}).invoke(main, ["fans", "--help"], terminal_width=width)
    assert result.exit_code == 0
    assert all(columns(line) <= 80 for line in result.output.splitlines()), result.output
    assert "Examples:" in result.output and "guobiao fans 七对" in result.output
    assert "fans " in invoke("--help").output
