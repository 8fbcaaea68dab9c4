"""`guobiao play`: a person at a terminal against three bots (issue 3 item 8).

The command is driven with scripted input through click's CliRunner, and the person's agent
(:class:`guobiao.cli.terminal.TerminalPlayer`) and its input parsing directly.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from guobiao.cli import main
from guobiao.cli.terminal import (
    EXIT_EOF,
    EXIT_INTERRUPTED,
    InputError,
    TerminalPlayer,
    default_style,
    describe,
    menu_of,
    parse_bots,
    parse_input,
    play_at_terminal,
    tile_text,
)
from guobiao.core.context import Wind
from guobiao.core.hand import parse_tiles
from guobiao.core.tiles import Tile
from guobiao.table.game import PASS, WIN, Action, ActionKind, Game, Phase, SeatView
from guobiao.table.replay import read_log, verify_log

ALWAYS_FIRST = "1\n" * 3000  # choose the first menu entry at every prompt


def t(name: str) -> Tile:
    return Tile.parse(name)


def discard(name: str) -> Action:
    return Action(ActionKind.DISCARD, t(name))


def run(*args: str, stdin: str = ALWAYS_FIRST) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", *args], input=stdin)
    # never a traceback: the command ends by sys.exit with its code
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


# -- input parsing ------------------------------------------------------------------------------

ACT_MENU = menu_of(
    (
        Action(ActionKind.CONCEALED_KONG, t("F1")),
        discard("W5"),
        discard("B3"),
        discard("F1"),
        discard("T7"),
    )
)
CLAIM_MENU = menu_of(
    (
        Action(ActionKind.PUNG, t("W5")),
        Action(ActionKind.KONG, t("W5")),
        Action(ActionKind.CHOW, t("W3")),
        Action(ActionKind.CHOW, t("W4")),
        Action(ActionKind.CHOW, t("W5")),
        PASS,
    )
)


def test_menu_order_discards_by_tile_then_kongs_then_claims_and_pass_last() -> None:
    assert [str(a) for a in ACT_MENU] == [
        "discard W5",
        "discard B3",
        "discard T7",
        "discard F1",
        "concealed_kong F1",
    ]
    assert menu_of((PASS, *CLAIM_MENU[:-1], WIN))[0] == WIN
    assert [str(a) for a in CLAIM_MENU] == [
        "pung W5",
        "kong W5",
        "chow W3W4W5",
        "chow W4W5W6",
        "chow W5W6W7",
        "pass",
    ]


def test_numbers_choose_from_the_menu() -> None:
    assert parse_input("1", ACT_MENU) == discard("W5")
    assert parse_input(" 5 ", ACT_MENU) == Action(ActionKind.CONCEALED_KONG, t("F1"))
    for bad in ("0", "6", "99"):
        with pytest.raises(InputError, match="choose 1-5"):
            parse_input(bad, ACT_MENU)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d W5", "discard W5"),
        ("discard 5m", "discard W5"),
        ("D w5", "discard W5"),
        ("d 五万", "discard W5"),
        ("打五万", "discard W5"),
        ("W5", "discard W5"),
        ("3p", "discard B3"),
        ("d 东", "discard F1"),
        ("d", "discard T7"),  # the drawn tile
        ("kong", "concealed_kong F1"),
        ("gang F1", "concealed_kong F1"),
        ("concealed_kong F1", "concealed_kong F1"),
    ],
)
def test_typed_actions_on_ones_turn(text: str, expected: str) -> None:
    assert str(parse_input(text, ACT_MENU, drawn=t("T7"))) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "pass"),
        ("p", "pass"),
        ("pass", "pass"),
        ("过", "pass"),
        ("pung", "pung W5"),
        ("peng", "pung W5"),
        ("碰", "pung W5"),
        ("pung W5", "pung W5"),
        ("kong", "kong W5"),
        ("chow 345m", "chow W3W4W5"),
        ("chow W4W5W6", "chow W4W5W6"),
        ("c 7m", "chow W5W6W7"),
        ("chow 3m4m", "chow W3W4W5"),
        ("吃567m", "chow W5W6W7"),
        ("chow 四万五万六万", "chow W4W5W6"),
    ],
)
def test_typed_claims(text: str, expected: str) -> None:
    assert str(parse_input(text, CLAIM_MENU)) == expected


def test_every_action_reads_back_from_its_own_text() -> None:
    for menu in (ACT_MENU, CLAIM_MENU, (WIN, PASS)):
        for action in menu:
            assert parse_input(str(action), menu) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "type a number 1-5"),
        ("xyz", "not an action"),
        ("d B9", "you have no B9"),
        ("d Z9", "not a tile"),
        ("d", "discard which tile"),
        ("d W5 B3", "one tile"),
        ("pung", "you cannot pung now"),
        ("chow 345m", "you cannot chow now"),
        ("pass", "nothing to pass"),
        ("win", "no win now"),
        ("hu", "no win now"),
        ("kong W5", "you cannot kong W5"),
        ("W5B3", "which action"),
    ],
)
def test_invalid_input_on_ones_turn_says_why(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_input(text, ACT_MENU)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("chow", "which chow"),
        ("chow 5m", "which chow"),
        ("chow 789m", "you cannot chow 789m"),
        ("pung B5", "you cannot pung B5"),
        ("d W5", "cannot discard now"),
        ("W5", "cannot discard now"),
    ],
)
def test_invalid_claims_say_why(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_input(text, CLAIM_MENU)


def test_a_bare_enter_never_passes_a_win() -> None:
    menu = (WIN, PASS)
    with pytest.raises(InputError, match="you can win"):
        parse_input("", menu)
    for word in ("win", "hu", "和", "胡", "W"):
        assert parse_input(word, menu) == WIN
    assert parse_input("p", menu) == PASS


def test_commands() -> None:
    assert parse_input("q", ACT_MENU) == "quit"
    assert parse_input("quit", CLAIM_MENU) == "quit"
    assert parse_input("?", ACT_MENU) == "help"
    assert parse_input("show", ACT_MENU) == "show"


def test_bots_option() -> None:
    assert parse_bots("fan") == ("fan", "fan", "fan")
    assert parse_bots("fan, efficiency,random") == ("fan", "efficiency", "random")
    assert parse_bots("e,r,f") == ("efficiency", "random", "fan")
    with pytest.raises(ValueError, match="three bots"):
        parse_bots("fan,fan")
    with pytest.raises(ValueError, match="unknown bot 'dragon'"):
        parse_bots("fan,dragon,fan")


def test_tile_styles() -> None:
    assert tile_text(t("W5"), "botzone") == "W5"
    assert tile_text(t("W5"), "chinese") == "五万"
    assert tile_text(t("W5"), "glyph") == "\U0001f00b"
    assert describe(Action(ActionKind.CHOW, t("W3"))) == "chow W3 W4 W5"
    assert describe(Action(ActionKind.ADDED_KONG, t("J1")), "chinese") == "added kong 红中"
    assert describe(discard("F1"), "glyph") == "discard \U0001f000 F1"  # glyph and its name
    assert default_style("utf-8") == default_style("UTF8") == "glyph"
    assert default_style("ascii") == default_style("cp1252") == default_style(None) == "botzone"


# -- the person's agent on its SeatView ------------------------------------------------------------


def person(
    answers: list[str], style: str = "botzone"
) -> tuple[TerminalPlayer, io.StringIO, list[str]]:
    out = io.StringIO()
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        if not answers:
            raise EOFError
        return answers.pop(0)

    console = Console(file=out, width=100, highlight=False, emoji=False)
    return TerminalPlayer(console, style=style, read_line=read_line), out, prompts


def test_the_person_discards_from_a_real_view() -> None:
    game = Game(seed=4)
    view = game.view(0)
    assert view.phase is Phase.ACT and view.drawn is not None
    other = next(tile for tile in view.hand if tile != view.drawn)
    for answer, expected in (
        ("d", view.drawn),
        (f"d {other}", other),
        (f"discard {other.compact}", other),
        (f"打{other.chinese}", other),
        (str(other), other),
    ):
        player, out, _ = person([answer])
        assert player.choose(view) == Action(ActionKind.DISCARD, expected)
        shown = out.getvalue()
        assert "Your hand:" in shown and f"drew {view.drawn}" in shown
        assert "wall" in shown and "Hint:" in shown and "1 discard" in shown


def test_invalid_input_is_reprompted_then_accepted() -> None:
    view = Game(seed=4).view(0)
    player, out, prompts = person(["", "nonsense", "42", "pung", "?", "show", "1"])
    assert player.choose(view) == menu_of(view.legal_actions)[0]
    assert len(prompts) == 7
    shown = out.getvalue()
    for message in ("type a number", "not an action", "no choice 42", "cannot pung", "d W5"):
        assert message in shown


def test_eof_and_quit_leave_the_table() -> None:
    from guobiao.cli.terminal import QuitGame

    view = Game(seed=4).view(0)
    player, _, _ = person([])
    with pytest.raises(QuitGame) as stop:
        player.choose(view)
    assert stop.value.reason == "eof"
    player, _, _ = person(["q"])
    with pytest.raises(QuitGame) as stop:
        player.choose(view)
    assert stop.value.reason == "quit"


def ready_view(phase: Phase = Phase.RESPOND) -> SeatView:
    """South holds 九莲宝灯's 13 tiles; West has just discarded W5."""
    hand = parse_tiles("W1W1W1W2W3W4W5W6W7W8W9W9W9")
    return SeatView(
        seat=1,
        round_wind=Wind.EAST,
        phase=phase,
        current=2,
        hand=hand,
        drawn=None,
        melds=((), (), (), ()),
        discards=((t("F1"),), (t("J1"),), (t("B2"), t("W5")), ()),
        flowers=(0, 1, 0, 2),
        wall_remaining=40,
        last_discard=t("W5"),
        legal_actions=(WIN, PASS),
    )


def test_a_ready_hand_shows_its_waits_and_a_win_needs_a_word() -> None:
    player, out, prompts = person(["", "hu"])
    assert player.choose(ready_view()) == WIN
    shown = out.getvalue()
    assert "ready" in shown and "waits W1 (" in shown and "W9 (" in shown
    assert "pts" in shown and "W 西 seat W discarded W5" in shown
    assert "W5◀" in shown  # the last discard is marked in West's pool
    assert "flowers 2" in shown and "1 win" in shown and "2 pass" in shown
    assert "You can WIN" in prompts[0] and "you can win" in shown


def test_a_claim_shows_the_shanten_after_it() -> None:
    view = ready_view()
    hand = parse_tiles("W1W1W3W4W5W5B2B4T6T8F2F3J1")
    pung = Action(ActionKind.PUNG, t("W5"))
    chow = Action(ActionKind.CHOW, t("W3"))
    view = replace(view, hand=hand, current=0, legal_actions=(pung, chow, PASS))
    player, out, prompts = person([""])
    assert player.choose(view) == PASS
    shown = out.getvalue()
    assert "after pung W5 → 2, chow W3 W4 W5 → 2" in shown and "Enter = pass" in prompts[0]


# -- the command ------------------------------------------------------------------------------------


def test_a_round_against_fan_bots_completes_with_the_summary() -> None:
    code, out = run("--seed", "7", "--hands", "4", "--tiles", "botzone")
    assert code == 0
    for number in range(1, 5):
        assert f"End of hand {number}/4" in out
    assert "Final standings" in out and "Standard points" in out
    assert "东风圈 East round" in out and "you are E 东" in out
    assert out.count("Score") >= 4
    # each hand ends with a win (fan breakdown) or a draw (荒牌)
    assert out.count(" wins ") + out.count("荒牌") == 4
    if " wins " in out:
        assert "番种" in out and "Subtotal" in out and "Total:" in out


def test_a_full_session_of_sixteen_hands() -> None:
    code, out = run("--seed", "2", "--bots", "random", "--tiles", "botzone", "--seat", "W")
    assert code == 0
    assert "End of hand 16/16" in out and "北风圈 North round" in out
    assert "Final standings" in out
    assert "you are W 西" in out


def test_the_same_seed_replays_the_same_game() -> None:
    args = ("--seed", "5", "--hands", "2", "--bots", "random,efficiency,fan", "--tiles", "botzone")
    assert run(*args) == run(*args)


def test_invalid_input_is_reprompted_never_a_traceback() -> None:
    code, out = run(
        "--seed", "3", "--hands", "1", "--tiles", "botzone",
        stdin="xyz\n99\npung\nd Q7\nwin\n" + ALWAYS_FIRST,
    )  # fmt: skip
    assert code == 0
    for message in ("not an action", "no choice 99", "cannot pung", "not a tile", "no win now"):
        assert message in out
    assert "Final standings" in out


@pytest.mark.parametrize(
    ("style", "pattern"),
    [
        ("glyph", "[\U0001f000-\U0001f02b]"),
        ("chinese", "[一二三四五六七八九][万饼条]|东风|南风|西风|北风|红中|发财|白板"),
        ("botzone", r"\b[WBT][1-9]\b"),
    ],
)
def test_tile_styles_render(style: str, pattern: str) -> None:
    code, out = run("--seed", "1", "--hands", "1", "--bots", "random", "--tiles", style)
    assert code == 0
    hands = [line for line in out.splitlines() if line.startswith("Your hand:")]
    assert hands and all(re.search(pattern, line) for line in hands)
    if style != "botzone":
        assert not any(re.search(r"\b[WBT][1-9]\b", line) for line in hands)


def test_eof_ends_cleanly_with_a_message_and_no_log(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    code, out = run("--seed", "1", "--tiles", "botzone", "--log", str(log), stdin="1\n1\n")
    assert code == EXIT_EOF
    assert "Input ended: the session stops after 0 complete hands" in out
    assert "no log written" in out and not log.exists()
    assert not list(tmp_path.iterdir())


def test_the_log_replays(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    code, out = run(
        "--seed", "9", "--hands", "4", "--bots", "fan,efficiency,random", "--seat", "N",
        "--rules", "mil", "--log", str(log),
    )  # fmt: skip
    assert code == 0 and f"Log written to {log}" in " ".join(out.split())  # lines fold at 80
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert result.exit_code == 0, result.output
    assert "Replayed 4 hands (session): every action, settlement and score matches" in result.output
    lines = read_log(log)
    assert lines[0]["players"][3] == "You" and lines[0]["agents"][3] == "human"
    assert lines[0]["rules"]["fan_profile"] == "mil"


def test_typed_actions_play_a_whole_round(tmp_path: Path) -> None:
    """Discard the drawn tile ('d'), pass every claim (Enter), always win ('hu')."""
    out = io.StringIO()
    asked: list[str] = []

    def read_line(prompt: str) -> str:
        retry = bool(asked) and asked[-1] == prompt and prompt.startswith("Your move")
        asked.append(prompt)
        if prompt.startswith("You can WIN"):
            return "hu"
        if prompt.startswith("Your move"):
            return "1" if retry else "d"  # after a claim there is no drawn tile: choose 1
        return ""

    log = tmp_path / "round.jsonl"
    code = play_at_terminal(
        Console(file=out, width=100),
        bots=("random", "random", "efficiency"),
        hands=4,
        seat=2,
        style="chinese",
        seed=21,
        log=log,
        read_line=read_line,
    )
    assert code == 0
    assert "Final standings" in out.getvalue()
    report = verify_log(read_log(log))
    assert report.ok and report.hands == 4


def leave_after_first_hand(how: str) -> Callable[[str], str]:
    def read_line(prompt: str) -> str:
        if prompt.startswith("Enter for the next hand"):
            if how == "eof":
                raise EOFError
            if how == "interrupt":
                raise KeyboardInterrupt
            return "q"
        return "1"

    return read_line


@pytest.mark.parametrize(
    ("how", "code", "message"),
    [
        ("quit", 0, "You left the table"),
        ("eof", EXIT_EOF, "Input ended"),
        ("interrupt", EXIT_INTERRUPTED, "Interrupted"),
    ],
)
def test_leaving_keeps_a_valid_log_of_the_complete_hands(
    tmp_path: Path, how: str, code: int, message: str
) -> None:
    out = io.StringIO()
    log = tmp_path / "partial.jsonl"
    got = play_at_terminal(
        Console(file=out, width=100),
        bots=("random", "random", "random"),
        hands=4,
        seed=3,
        style="botzone",
        log=log,
        read_line=leave_after_first_hand(how),
    )
    shown = out.getvalue()
    assert got == code
    assert f"{message}: the session stops after 1 complete hand." in shown
    assert "Standings after the complete hands" in shown
    report = verify_log(read_log(log))
    assert report.ok and report.hands == 1
    assert not (tmp_path / "partial.jsonl.tmp").exists()


def test_ctrl_c_mid_hand_on_the_command_line() -> None:
    out = io.StringIO()

    def read_line(prompt: str) -> str:
        raise KeyboardInterrupt

    code = play_at_terminal(
        Console(file=out, width=100), bots=("random",) * 3, hands=1, seed=1, read_line=read_line
    )
    assert code == EXIT_INTERRUPTED and "Interrupted" in out.getvalue()


def test_plain_text_fallback_on_a_non_utf8_terminal() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii", write_through=True)
    code = play_at_terminal(
        Console(file=stream, width=100, highlight=False),
        bots=("random",) * 3,
        hands=1,
        seed=6,
        style="glyph",  # asked for, but the terminal cannot show it
        read_line=lambda prompt: "1",
    )
    stream.flush()
    text = raw.getvalue().decode("ascii")  # nothing but ASCII was written
    assert code == 0 and "using botzone" in text
    assert "Final standings" in text and "?" not in text.replace("Type ? at", "")


def test_option_errors_are_messages() -> None:
    code, out = run("--bots", "fan,dragon,fan")
    assert code == 2 and "unknown bot 'dragon'" in out
    code, out = run("--log", "/no/such/dir/game.jsonl")
    assert code == 2 and "no such directory" in out
    code, out = run("--hands", "17")
    assert code == 2
