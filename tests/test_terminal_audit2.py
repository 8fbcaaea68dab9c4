"""`guobiao play`, what the first audit of the terminal game left (audit 10): a bot that fails
is said in one line and the finished hands are kept; the opening fits 80 columns; 中文 tiles
never fold a meld at 80 columns; ``?`` at the next-hand prompt helps; a chow shows the tile it
claimed.

The game is driven as a person would drive it: the command through click's CliRunner with
scripted input (80 columns wide, as rich sees a pipe), or :func:`play_at_terminal` /
:class:`TerminalPlayer` with a scripted ``read_line``, and the screen text is read.
"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import Console

import guobiao.bots
from guobiao.cli import main
from guobiao.cli.terminal import TerminalPlayer, play_at_terminal
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.tiles import Tile
from guobiao.table.game import Action, ActionKind, Game, SeatView
from guobiao.table.play import Agent
from guobiao.table.replay import read_log, verify_log
from guobiao.table.rules import TableRules

ALWAYS_FIRST = "1\n" * 3000


def t(name: str) -> Tile:
    return Tile.parse(name)


def invoke(*args: str, stdin: str = ALWAYS_FIRST) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(main, ["play", *args], input=stdin)
    return result.exit_code, result.output, result.exception


# -- 1. a bot that fails --------------------------------------------------------------------------


class FailsInTheSecondHand:
    """A real bot that raises when it finds itself at another seat: in the session's second
    hand, the seats having turned."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.seat: int | None = None

    def choose(self, view: SeatView) -> Action:
        if self.seat is None:
            self.seat = view.seat
        if view.seat != self.seat:
            raise RuntimeError("the bot's own bug\nwith a second line")
        return self.agent.choose(view)


def test_a_failing_bot_is_one_line_not_a_traceback_and_the_hands_played_are_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = guobiao.bots.make_bot

    def make_bot(kind: str, seed: int | None = None, rules: TableRules | None = None) -> Agent:
        bot = real(kind, seed) if rules is None else real(kind, seed, rules)
        # the bots are seeded seed * 4 + their player's index: player 3 (fan-3) fails
        return FailsInTheSecondHand(bot) if seed is not None and seed % 4 == 2 else bot

    monkeypatch.setattr(guobiao.bots, "make_bot", make_bot)
    log = tmp_path / "game.jsonl"
    code, out, exception = invoke(
        "--seed", "5", "--hands", "3", "--tiles", "botzone", "--log", str(log)
    )
    assert isinstance(exception, SystemExit), exception  # the command ended, no traceback
    assert code != 0
    assert "Traceback" not in out
    lines = out.splitlines()
    said = [line for line in lines if "fan-3" in line and "bug" in line]
    assert len(said) == 1, out[-2000:]
    assert "report" in said[0] and cell_len(said[0]) <= 80
    assert any("RuntimeError: the bot's own bug" in line for line in lines)
    assert "after 1 complete hand" in out
    # the hand finished before the failure is logged, and replays
    assert log.exists()
    logged = read_log(log)
    assert sum(1 for line in logged if line.get("type") == "hand") == 1
    assert verify_log(logged).ok
    # and the session ends, as always, with the command that deals it again
    assert lines[-1].strip().startswith("guobiao play --seed 5 --hands 3")


class Illegal:
    """A bot that answers with an action that is not legal: discards a tile it does not hold."""

    name = "illegal"

    def choose(self, view: SeatView) -> Action:
        held = set(view.hand)
        missing = next(tile for tile in (t("W1"), t("B1"), t("T1"), t("F1")) if tile not in held)
        return (
            Action(ActionKind.DISCARD, missing) if view.drawn is not None else view.legal_actions[0]
        )


def test_a_bot_answering_an_illegal_action_is_named_too() -> None:
    out = io.StringIO()

    def make(kind: str, seed: int) -> Agent:
        return Illegal() if seed % 4 == 1 else guobiao.bots.make_bot("random", seed)

    code = play_at_terminal(
        Console(file=out, width=80, highlight=False),
        bots=("random", "random", "random"),
        hands=2,
        seed=3,
        style="botzone",
        read_line=lambda prompt: "1",
        make=make,
    )
    screen = out.getvalue()
    assert code != 0
    assert re.search(r"^Bot random-2 failed, a bug: please report it", screen, re.M), screen
    assert "illegal action" in screen
    assert "guobiao play --seed 3" in screen.splitlines()[-1]


# -- 2. the opening fits 80 columns -------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("--seed", "2147483647"),
        ("--seed", "14", "--hands", "4"),
        ("--seed", "2147483647", "--bots", "efficiency,efficiency,strong", "--rules", "botzone"),
    ],
)
def test_the_opening_lines_fit_80_columns_and_name_the_seed(args: tuple[str, ...]) -> None:
    code, out, _ = invoke(*args, "--tiles", "botzone", stdin="q\n")
    assert code == 0
    opening = out.split("\nHand 1/", 1)[0].strip("\n").splitlines()
    seed = args[1]
    assert all(cell_len(line) <= 80 for line in opening), opening
    text = " ".join(opening)
    assert f"seed {seed}" in text and f"--seed {seed}" in text and "? at any prompt" in text
    for line in opening:  # no phrase is cut by the edge: each line ends one
        assert line.rstrip().endswith((";", ",", ".", f" {seed}")), line
    if "--bots" not in args:
        assert len(opening) == 2, opening  # the usual opening: two lines


# -- 3. 中文 tiles: a meld is never folded at 80 columns -------------------------------------------


def chow(low: str, claimed: str, by: int = 3) -> Meld:
    return Meld(MeldKind.CHOW, t(low), by, t(claimed))


def pung(tile: str, by: int = 1) -> Meld:
    return Meld(MeldKind.PUNG, t(tile), by)


def busy_view() -> SeatView:
    """Every seat with four melds, long rivers: the widest table a hand can show."""
    view = Game(seed=4).view(0)
    melds = (
        (chow("W1", "W2"), chow("B4", "B6"), pung("F2"), pung("J1")),
        (chow("T1", "T1"), chow("T4", "T5"), chow("T7", "T9"), pung("B9")),
        (pung("W9"), pung("B1"), Meld(MeldKind.KONG, t("F4"), 2), chow("W5", "W6")),
        (chow("B1", "B3"), pung("J2"), pung("J3"), pung("F1")),
    )
    river = tuple(
        Tile.parse(n)
        for n in [
            "W1",
            "W9",
            "B1",
            "B9",
            "T1",
            "T9",
            "F1",
            "F2",
            "F3",
            "F4",
            "J1",
            "J2",
            "J3",
            "W5",
            "B5",
            "T5",
        ]
    )
    return replace(
        view,
        melds=melds,
        flowers=(2, 1, 3, 0),
        discards=(river, river[:12], river, river[3:]),
    )


def shown(view: SeatView, style: str, width: int = 80) -> list[str]:
    out = io.StringIO()
    player = TerminalPlayer(
        Console(file=out, width=width, highlight=False), style=style, read_line=lambda p: "1"
    )
    player.show(view)
    return out.getvalue().splitlines()


def bracketed(line: str) -> str:
    """The line without the prompt-like brackets of menus: only the melds' brackets."""
    return re.sub(r"\[\d+-\d+,[^]]*\]", "", line)


@pytest.mark.parametrize(("style", "width"), [("chinese", 80), ("botzone", 60), ("glyph", 60)])
def test_seat_and_hand_lines_wrap_between_melds_never_inside_one(style: str, width: int) -> None:
    """At 80 columns in 中文 (two columns a character), or in a narrower terminal in any style."""
    view = busy_view()
    lines = shown(view, style, width)
    for line in lines:
        assert cell_len(line) <= width, line
        body = bracketed(line)
        assert body.count("[") == body.count("]"), f"a meld folded: {line!r}"
    screen = "\n".join(lines)
    for seat_melds in view.melds:
        for meld in seat_melds:  # each meld whole on one line
            tiles = [m.text(style) for m in meld.tiles]
            assert re.search(r"\[" + r"\*? ".join(map(re.escape, tiles)) + r"\*?\]", screen), (
                meld,
                screen,
            )
    hand = next(i for i, line in enumerate(lines) if line.startswith("Your hand: "))
    assert "drew" in " ".join(lines[hand : hand + 3])  # "drew 五万" kept whole
    assert not any(line.rstrip().endswith("drew") for line in lines)


def test_a_whole_chinese_session_folds_no_meld_at_80_columns() -> None:
    code, out, _ = invoke("--seed", "14", "--hands", "4", "--tiles", "chinese")
    assert code == 0
    melded = 0
    for line in out.splitlines():
        body = bracketed(line)
        assert body.count("[") == body.count("]"), f"a meld folded: {line!r}"
        assert cell_len(line) <= 80
        melded += body.count("[") >= 3
    assert melded, "no seat with three melds: the test shows nothing"


# -- 4. ? at the next-hand prompt -----------------------------------------------------------------


@pytest.mark.parametrize("question", ["?", "？", "help"])
def test_a_question_at_the_next_hand_prompt_says_what_it_takes_and_asks_again(
    question: str,
) -> None:
    out = io.StringIO()
    asked: list[str] = []

    def read_line(prompt: str) -> str:
        if prompt.startswith("Enter for the next hand"):
            asked.append(prompt)
            return question if len(asked) == 1 else "q"
        return "1"

    code = play_at_terminal(
        Console(file=out, width=80, highlight=False),
        hands=3,
        seed=2,
        style="botzone",
        read_line=read_line,
    )
    screen = out.getvalue()
    assert code == 0
    assert len(asked) == 2  # asked again after the help, not dealt the next hand
    assert "after 1 complete hand" in screen and "Hand 2/3" not in screen
    helped = screen.split("End of hand 1/3", 1)[1].split("you left the table", 1)[0]
    # one whole line saying what the prompt takes
    assert re.search(r"^  Enter: the next hand; q: quit \(.*logged\)$", helped, re.M), helped
    assert all(cell_len(line) <= 80 for line in helped.splitlines())


# -- 5. a chow shows the discard it claimed -------------------------------------------------------


@pytest.mark.parametrize(
    ("style", "marked"),
    [
        ("botzone", "[W1 W2* W3]"),
        ("chinese", "[一万 二万* 三万]"),
        ("glyph", "[\U0001f007 \U0001f008* \U0001f009]"),
    ],
)
def test_a_chow_marks_its_claimed_tile_in_every_style(style: str, marked: str) -> None:
    screen = "\n".join(shown(busy_view(), style))
    assert marked in screen
    assert "[" + marked[1:-1].replace("*", "") + "]" not in screen


def test_a_chow_said_as_an_event_marks_the_discard_it_took() -> None:
    view = busy_view()
    before = replace(view, melds=((), (), (), ()))
    out = io.StringIO()
    player = TerminalPlayer(
        Console(file=out, width=80, highlight=False), style="botzone", read_line=lambda p: "1"
    )
    player.show(view, before)
    assert "S 南 seat S: chow T1* T2 T3 from E" in out.getvalue()


def test_every_chow_said_at_a_played_table_marks_one_tile() -> None:
    code, out, _ = invoke("--seed", "14", "--hands", "4", "--tiles", "botzone")
    assert code == 0
    chows = re.findall(r"chow ([WBT][1-9]\*?) ([WBT][1-9]\*?) ([WBT][1-9]\*?) from", out)
    assert chows
    for tiles in chows:
        assert sum(tile.endswith("*") for tile in tiles) == 1, tiles
