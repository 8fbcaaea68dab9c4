"""`guobiao play` as a demanding player sees it (audit 9): an 80x24 terminal, forgiving input,
the end of a hand on one screen with its payments, the others' concealed kongs, the seed to
play again.

Each test drives the game as a person would: the command through click's CliRunner with
scripted input (CliRunner's output is 80 columns wide, as rich sees a pipe), or
:func:`play_at_terminal` / :class:`TerminalPlayer` with a scripted ``read_line``, and reads the
screen text.
"""

from __future__ import annotations

import io
import re
import shlex
from collections.abc import Callable
from dataclasses import replace

from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import Console

from guobiao.cli import main
from guobiao.cli.terminal import InputError, TerminalPlayer, menu_of, parse_input, play_at_terminal
from guobiao.core.tiles import Tile
from guobiao.scoring.fans import Fan
from guobiao.table.game import PASS, Action, ActionKind, Game, Phase

ALWAYS_FIRST = "1\n" * 3000
FAN_NAMES = {fan.zh for fan in Fan}


def t(name: str) -> Tile:
    return Tile.parse(name)


def play(*args: str, stdin: str = ALWAYS_FIRST) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", *args], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def person(answers: list[str], width: int = 80) -> tuple[TerminalPlayer, io.StringIO]:
    out = io.StringIO()

    def read_line(prompt: str) -> str:
        return answers.pop(0)

    console = Console(file=out, width=width, highlight=False, emoji=False)
    return TerminalPlayer(console, style="botzone", read_line=read_line), out


def careful_player(out: io.StringIO) -> Callable[[str], str]:
    """A person who wins when the menu offers it, discards the first tile the hint names,
    passes every other claim and goes on to the next hand."""

    def read_line(prompt: str) -> str:
        if prompt.startswith("Enter for the next hand"):
            return ""
        screen = out.getvalue()
        last = screen[screen.rfind("Your hand:") :]
        if "WIN" in prompt or re.search(r"^1 win\b", last, re.MULTILINE):
            return "win"
        if prompt.startswith("Your move"):
            hinted = re.search(r"Hint: .*?discard ([WBTFJ][1-9])", last)
            return f"d {hinted.group(1)}" if hinted else "1"
        return "pass"

    return read_line


# -- the help and the refusals fit an 80-column terminal ----------------------------------------


def test_help_shows_whole_lines_in_two_aligned_columns_at_80_columns() -> None:
    code, out = play("--seed", "1", "--hands", "1", stdin="?\nq\n")
    assert code == 0
    lines = out.split("Choose by number, or type the action:\n", 1)[1].splitlines()
    tiles = next(i for i, line in enumerate(lines) if line.startswith("Tiles:"))
    rows, rest = lines[:tiles], lines[tiles:]
    assert len(rows) >= 8
    # no row was folded by the terminal: every one is "  keys  what they do"
    columns = set()
    for row in rows:
        found = re.match(r"  (\S.*?\S)\s{2,}(\S.*)$", row)
        assert found, f"a folded or broken help row: {row!r}"
        columns.add(cell_len(row[: found.start(2)]))
        assert cell_len(row) <= 80
    assert len(columns) == 1, f"the descriptions start at different columns: {columns}"
    # the tile notations, the last lines, are whole too (the next line is the prompt again)
    assert rest[0].startswith("Tiles:") and "五万" in out and "5m" in out
    assert cell_len(rest[0]) <= 80


def test_an_illegal_input_is_refused_in_one_line_at_80_columns() -> None:
    view = Game(seed=4).view(0)
    bad = ["what is this input even", "win", "pass", "d Q7", "42", "pung"]
    player, out = person([*bad, "1"])
    assert player.choose(view) == menu_of(view.legal_actions)[0]
    menu = menu_of(view.legal_actions)
    screen = out.getvalue().splitlines()
    for text in bad:
        try:
            parse_input(text, menu, drawn=view.drawn)
        except InputError as err:
            message = str(err)
        else:
            raise AssertionError(f"{text!r} was accepted")
        assert f"  {message}" in screen, f"{message!r} is not one whole line"
        assert cell_len(message) <= 78


# -- forgiving input ------------------------------------------------------------------------------

ACT_MENU = menu_of(
    (
        Action(ActionKind.DISCARD, t("W5")),
        Action(ActionKind.DISCARD, t("B3")),
        Action(ActionKind.DISCARD, t("F1")),
        Action(ActionKind.CONCEALED_KONG, t("F1")),
    )
)
CLAIM_MENU = menu_of(
    (
        Action(ActionKind.PUNG, t("W5")),
        Action(ActionKind.CHOW, t("W3")),
        Action(ActionKind.CHOW, t("W4")),
        PASS,
    )
)


def test_tiles_typed_with_a_space_glued_or_full_width_are_read() -> None:
    w5 = Action(ActionKind.DISCARD, t("W5"))
    for text in ("W 5", "w 5", "d W 5", "d5m", "dW5", "discard5m", "d五万", "Ｗ５", "ｄ\u3000５ｍ"):
        assert parse_input(text, ACT_MENU) == w5, text
    assert parse_input("kongF1", ACT_MENU) == Action(ActionKind.CONCEALED_KONG, t("F1"))
    assert parse_input("chow34m", CLAIM_MENU) == Action(ActionKind.CHOW, t("W3"))
    assert parse_input("c56m", CLAIM_MENU) == Action(ActionKind.CHOW, t("W4"))
    assert parse_input("pungW5", CLAIM_MENU) == Action(ActionKind.PUNG, t("W5"))
    assert parse_input("ｐａｓｓ", CLAIM_MENU) == PASS


def test_glued_and_full_width_discards_play_at_the_table() -> None:
    view = Game(seed=4).view(0)
    other = next(tile for tile in view.hand if tile != view.drawn)
    wide = str(other).translate({c: c + 0xFEE0 for c in range(0x21, 0x7F)})  # Ｗ５
    for text in (f"d{other}", f"d{other.compact}", wide, f"{str(other)[0]} {str(other)[1]}"):
        player, out = person([text])
        assert player.choose(view) == Action(ActionKind.DISCARD, other), text
        assert "no win now" not in out.getvalue()


# -- the table ------------------------------------------------------------------------------------


def test_anothers_concealed_kong_lies_face_down_on_the_table() -> None:
    """第七条: a concealed kong is laid face down; the others see that it is there."""
    game = Game(seed=4)
    view = game.view(0)
    player, out = person(["1", "1"])
    player.choose(view)
    player.choose(replace(view, concealed_kongs=(0, 0, 1, 0)))
    second = out.getvalue().split("东风圈 East round")[-1]
    assert "W 西 seat W: concealed kong (face down)" in second
    west = next(line for line in second.splitlines() if line.startswith("  W 西 seat W "))
    assert "concealed kong" in west


def test_glyph_discards_and_the_winning_hand_carry_their_names() -> None:
    code, out = play("--seed", "3", "--hands", "2")  # glyphs: CliRunner writes UTF-8
    assert code == 0
    glyph = "[\U0001f000-\U0001f02b]"
    events = [line for line in out.splitlines() if "discarded" in line]
    assert events
    for line in events:  # every discard said since your last turn, named as in the menus
        for shown in re.findall(rf"{glyph}(?: [WBTFJ][1-9])?", line.split("discarded", 1)[1]):
            assert re.fullmatch(rf"{glyph} [WBTFJ][1-9]", shown), line
    lines = out.splitlines()
    hands = [i for i, line in enumerate(lines) if line.startswith("Hand: ")]
    assert hands
    for i in hands:
        glyphs = len(re.findall(glyph, lines[i].split("flowers")[0]))
        names = re.findall(r"\b[WBTFJ][1-9]\b", lines[i + 1])
        assert len(names) == glyphs, (lines[i], lines[i + 1])


# -- the end of a hand --------------------------------------------------------------------------


def _hand_ends(out: str) -> list[list[str]]:
    """Each end of a hand followed by the next-hand prompt: its lines from the blank line
    before it to the prompt, what a 24-line terminal must hold."""
    lines = out.splitlines()
    blocks = []
    for i, line in enumerate(lines):
        if line.startswith("End of hand"):
            end = next(j for j in range(i, len(lines)) if lines[j].startswith(("Enter", "Final")))
            if lines[end].startswith("Enter"):
                blocks.append(lines[i - 1 : end + 1])
    return blocks


def test_the_end_of_a_hand_with_many_fans_fits_a_24_line_terminal() -> None:
    for seed in range(1, 40):
        code, out = play("--seed", str(seed), "--hands", "4")
        assert code == 0
        blocks = _hand_ends(out)
        many = [
            b for b in blocks if sum(1 for x in b if x.strip("│ ").split(" ")[0] in FAN_NAMES) >= 7
        ]
        if many:
            break
    else:
        raise AssertionError("no hand with 7 fans in 39 seeds")
    for block in many:
        assert len(block) <= 24, "\n".join(block)
        assert " wins " in "\n".join(block[:3]) or " win " in "\n".join(block[:3])


def test_the_total_says_who_pays_what_by_the_rules() -> None:
    """第五条 (1998): each other player pays the winner 8 points; the discarder also pays the
    total, or on a self-drawn win each pays 8 plus the total."""
    code, out = play("--seed", "3", "--hands", "4", "--tiles", "botzone")
    assert code == 0
    ends = out.split("End of hand")[1:]
    checked = 0
    for end in ends:
        won = re.search(
            r"^.*\(([东南西北])\) wins? (by self-draw|on a discard from .*\((.)\))", end, re.M
        )
        if not won:
            continue
        said = re.search(r"Total: (\d+)", end)
        assert said is not None
        total = int(said.group(1))
        changes = {
            wind: int(change)
            for wind, change in re.findall(r"^\W*([东南西北]) [ESWN]\W+\S+\W+([+-]\d+)", end, re.M)
        }
        assert len(changes) == 4
        if won.group(2) == "by self-draw":
            assert f"each pays 8 + {total} = {8 + total}" in end
            expected = {w: -(8 + total) for w in changes if w != won.group(1)}
        else:
            assert f"pays 8 + {total} = {8 + total}, the others 8 each" in end
            loser = won.group(3)
            expected = {w: -(8 + total if w == loser else 8) for w in changes if w != won.group(1)}
        for wind, amount in expected.items():
            assert changes[wind] == amount
        checked += 1
    assert checked >= 2


def test_when_you_win_the_screen_says_you_win() -> None:
    for seed in range(1, 60):
        out = io.StringIO()
        play_at_terminal(
            Console(file=out, width=80, highlight=False),
            hands=1,
            seed=seed,
            style="botzone",
            read_line=careful_player(out),
        )
        said = re.search(
            r"^(?:End of hand 1/1: )?You \([东南西北]\) (wins?) ", out.getvalue(), re.M
        )
        if said:
            break
    else:
        raise AssertionError("the careful player never won a first hand in 59 seeds")
    assert said.group(1) == "win"


# -- the seed to play again -----------------------------------------------------------------------


def test_the_session_ends_with_the_command_that_deals_it_again() -> None:
    args = ("--seed", "5", "--hands", "2", "--bots", "random,fan,easy", "--seat", "S")
    code, first = play(*args, "--tiles", "botzone", stdin="q\n")
    assert code == 0
    last = first.rstrip().splitlines()[-1].strip()  # far below the first line, on the screen
    assert last.startswith("guobiao play ") and "--seed 5" in last
    again = shlex.split(last)[2:]
    code, second = play(*again, "--tiles", "botzone", stdin="q\n")
    assert code == 0
    assert first == second
    assert "you are S 南" in second and "random-1" in second and "efficiency-4" in second


def test_the_replay_command_survives_quitting_before_any_hand() -> None:
    code, out = play("--seed", "77", "--hands", "3", stdin="q\n")
    assert code == 0 and "after 0 complete hands" in out
    assert out.rstrip().splitlines()[-1].strip() == "guobiao play --seed 77 --hands 3"


def test_a_claim_names_the_discard_with_its_tile_name_in_glyphs() -> None:
    view = Game(seed=4).view(0)
    claim = replace(
        view,
        phase=Phase.RESPOND,
        current=3,
        drawn=None,
        hand=view.hand[:13],
        last_discard=t("J1"),
        legal_actions=(PASS,),
    )
    out = io.StringIO()
    player = TerminalPlayer(Console(file=out, width=80), style="glyph", read_line=lambda prompt: "")
    assert player.choose(claim) == PASS
    assert "discarded \U0001f004 J1" in out.getvalue()
