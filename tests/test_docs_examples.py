"""Every example hand in docs/rules.md scores, under both profiles, exactly as the doc says.

The doc's examples were checked against the reference calculator when written; this test keeps
the doc and guobiao in step. Example blocks are ```text fences: a hand line (guobiao notation,
then two spaces and context words), followed by indented ``1998 = mil: fan pts[×n], ... = total``
lines (or separate ``1998:`` and ``mil:`` lines).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand, parse_hand
from guobiao.scoring.calculator import calculate

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def _examples() -> list[tuple[str, str, str, str]]:
    """(hand line, context words, profile, expected fan text) for every example."""
    out: list[tuple[str, str, str, str]] = []
    in_block = False
    hand_line = context = ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_block = line.strip() == "```text"
            continue
        if not in_block or not line.strip():
            continue
        if not line.startswith(" "):
            hand_line, _, context = line.partition("  ")
            continue
        label, _, fans = line.strip().partition(":")
        for profile in ("1998", "mil"):
            if profile in label:
                out.append((hand_line.strip(), context.strip(), profile, fans.strip()))
    return out


def _context(win: int, words: str, flowers: int) -> WinContext:
    flags = {"self_drawn": False, "fourth_tile": False, "kong": False, "last_tile": False}
    seat = prevalent = Wind.EAST
    for word in (w.strip() for w in words.split(",") if w.strip()):
        if word == "self-drawn":
            flags["self_drawn"] = True
        elif word == "和绝张":
            flags["fourth_tile"] = True
        elif word == "杠上开花":
            flags["self_drawn"] = flags["kong"] = True
        elif word == "抢杠和":
            flags["kong"] = True
        elif word == "last tile":
            flags["last_tile"] = True
        elif word.startswith("seat wind "):
            seat = Wind.parse(word[-1])
        elif word.startswith("prevalent wind "):
            prevalent = Wind.parse(word[-1])
        elif word != "discard":
            raise AssertionError(f"unknown context word {word!r} in docs/rules.md")
    return WinContext(win, seat_wind=seat, round_wind=prevalent, flowers=flowers, **flags)


def _expected(text: str) -> tuple[dict[str, int], int]:
    body, _, total = text.split("→")[0].rpartition("=")
    fans: dict[str, int] = {}
    for item in body.split(","):
        match = re.fullmatch(r"(\S+) (\d+)(?:×(\d+))?", item.strip())
        assert match, f"bad fan item {item!r}"
        fans[match[1]] = int(match[3] or 1)
    return fans, int(total.split()[0])


EXAMPLES = _examples()


def test_the_doc_has_examples() -> None:
    assert len(EXAMPLES) >= 80


@pytest.mark.parametrize(
    ("hand_line", "words", "profile", "expected"),
    EXAMPLES,
    ids=[f"{h} {w} [{p}]" for h, w, p, _ in EXAMPLES],
)
def test_example(hand_line: str, words: str, profile: str, expected: str) -> None:
    hand = parse_hand(hand_line)
    assert hand.win_tile is not None
    context = _context(hand.win_tile, words, len(hand.flowers))
    result = calculate(Hand(hand.concealed, hand.melds, None, hand.flowers), context, profile)
    fans, total = _expected(expected)
    assert {f.fan.zh: f.count for f in result.fans} == fans
    assert result.total == total
