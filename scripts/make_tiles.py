#!/usr/bin/env python3
"""Draw the mahjong tiles as SVG files for the web pages (src/guobiao/server/static/tiles).

    python3 scripts/make_tiles.py           # (re)write the 43 files
    python3 scripts/make_tiles.py --check   # exit 1 when a file differs from what this draws

Standard library only, deterministic. Files are named as Botzone names the tiles: W1..W9
(characters), B1..B9 (dots), T1..T9 (bamboo), F1..F4 (winds), J1..J3 (dragons), H1..H8 (flowers:
春夏秋冬 梅兰竹菊, the project's order) and ``back``. No <text>, no font: every Chinese character
is a set of brush strokes drawn below as path data in a 100 x 100 box, stroked with round caps.
Suits differ by shape (characters, circles, sticks), not by colour alone.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "guobiao" / "server" / "static" / "tiles"

W, H = 60, 80  # the viewBox
INK = "#18213a"  # numerals, winds
BLUE = "#1d46a0"
RED = "#b8222c"
GREEN = "#0b6e55"
GOLD = "#a86a00"
PURPLE = "#6b3fa0"
IVORY = "#fffaf0"

# Strokes of each character in a 100 x 100 box (y down), as SVG path data, in writing order.
GLYPHS: dict[str, str] = {
    "一": "M8 52 Q50 45 92 50",
    "二": "M22 30 Q50 26 78 29 M8 74 Q50 68 92 73",
    "三": "M20 16 Q50 12 80 15 M26 48 Q50 45 74 47 M8 84 Q50 78 92 83",
    "四": "M14 18 L14 88 M14 18 L86 18 L86 88 M14 84 L86 84 M40 20 Q40 50 24 62 "
    "M60 20 L60 56 Q60 62 68 62 L84 62",
    "五": "M14 12 L86 12 M48 12 L38 86 M30 46 L74 46 L70 86 M6 86 L94 86",
    "六": "M48 6 L56 22 M8 36 L92 36 M38 52 Q32 72 14 90 M62 52 Q74 70 88 88",
    "七": "M8 54 L92 40 M40 8 L40 78 Q40 90 54 90 L86 90 L88 76",
    "八": "M40 16 Q38 62 8 88 M58 16 Q66 62 92 84",
    "九": "M42 6 Q42 62 8 92 M12 36 L66 36 Q64 80 70 88 L88 88 L92 74",
    "万": "M6 16 L94 16 M44 16 Q42 66 10 94 M36 46 L80 46 Q80 90 60 88",
    "东": "M12 22 L88 22 M46 4 L26 52 L82 52 M54 30 L54 90 Q54 97 44 92 M32 64 L16 82 "
    "M68 64 L86 82",
    "南": "M10 14 L90 14 M50 2 L50 30 M18 32 L18 96 M18 32 L82 32 L82 88 Q82 96 70 94 "
    "M36 40 L42 50 M64 40 L58 50 M30 58 L70 58 M28 74 L72 74 M50 58 L50 96",
    "西": "M8 10 L92 10 M16 32 L16 94 M16 32 L84 32 L84 94 M16 88 L84 88 M40 10 L40 48 "
    "Q40 62 26 66 M60 10 L60 58 Q60 64 68 64 L84 64",
    "北": "M36 6 L36 92 M12 38 L36 38 M8 80 L36 68 M66 6 L66 80 Q66 92 78 92 L92 92 L92 78 "
    "M90 30 L66 46",
    "中": "M16 30 L16 72 M16 30 L84 30 L84 72 M16 68 L84 68 M50 4 L50 98",
    "发": "M28 6 L20 36 L88 36 M66 8 L78 20 M50 14 Q46 64 8 94 M40 54 L78 54 Q66 80 30 94 "
    "M44 64 Q62 88 92 94",
}

# Arabic digits for the flowers' numbers, in a 60 x 100 box.
DIGITS: dict[int, str] = {
    1: "M18 22 L34 8 L34 92",
    2: "M10 28 Q12 6 32 6 Q52 6 50 28 Q48 46 10 92 L52 92",
    3: "M12 10 L48 10 L28 42 Q52 42 52 66 Q50 92 28 92 Q14 92 8 82",
    4: "M40 92 L40 8 L6 64 L54 64",
    5: "M48 8 L16 8 L14 44 Q22 38 32 38 Q52 40 52 64 Q50 92 28 92 Q14 92 8 82",
    6: "M46 10 Q30 6 20 28 Q8 60 18 80 Q30 98 46 84 Q56 66 42 54 Q28 46 14 60",
    7: "M8 8 L52 8 Q36 40 26 92",
    8: "M30 48 Q12 42 14 26 Q16 8 30 8 Q44 8 46 26 Q48 42 30 48 Q8 56 10 72 Q12 92 30 92 "
    "Q48 92 50 72 Q52 56 30 48",
}

NUMERALS = "一二三四五六七八九"


def n(x: float) -> str:
    """A coordinate, at most two decimals, no trailing zeros."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def strokes(d: str, x: float, y: float, size: float, colour: str, weight: float) -> str:
    """Path data ``d`` (a 100-unit box) drawn at (x, y), ``size`` wide; ``weight`` in box units."""
    s = size / 100
    return (
        f'<path transform="translate({n(x)} {n(y)}) scale({n(s)})" d="{d}" fill="none" '
        f'stroke="{colour}" stroke-width="{n(weight)}" stroke-linecap="round" '
        f'stroke-linejoin="round"/>'
    )


def glyph(ch: str, cx: float, cy: float, size: float, colour: str, weight: float = 11) -> str:
    return strokes(GLYPHS[ch], cx - size / 2, cy - size / 2, size, colour, weight)


def digit(k: int, x: float, y: float, height: float, colour: str) -> str:
    return strokes(DIGITS[k], x, y, height, colour, 13)


def face(*parts: str) -> str:
    """The tile: an ivory face over a darker body whose edge shows below, then ``parts``."""
    return svg(
        '<defs><linearGradient id="f" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#fffdf6"/><stop offset="1" stop-color="#f2ead3"/>'
        "</linearGradient></defs>",
        '<rect x="0.75" y="0.75" width="58.5" height="78.5" rx="7" fill="#d9cca4" '
        'stroke="#8a7e5c" stroke-width="1.5"/>',
        '<rect x="2.2" y="2.2" width="55.6" height="72.3" rx="5.8" fill="url(#f)"/>',
        *parts,
    )


def svg(*parts: str) -> str:
    body = "\n".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
        f'height="{H}">\n{body}\n</svg>\n'
    )


# -- characters -----------------------------------------------------------------------------
def characters(k: int) -> str:
    return face(
        glyph(NUMERALS[k - 1], 30, 23.5, 31, INK, 13),
        glyph("万", 30, 56, 32, RED, 11.5),
    )


# -- dots -----------------------------------------------------------------------------------
def pip(x: float, y: float, r: float, colour: str) -> str:
    """One coin: a disc, an ivory ring, a centre."""
    return (
        f'<circle cx="{n(x)}" cy="{n(y)}" r="{n(r)}" fill="{colour}"/>'
        f'<circle cx="{n(x)}" cy="{n(y)}" r="{n(r * 0.6)}" fill="{IVORY}"/>'
        f'<circle cx="{n(x)}" cy="{n(y)}" r="{n(r * 0.34)}" fill="{colour}"/>'
    )


def big_dot() -> str:
    cx, cy = 30, 38.4
    petals = "".join(
        f'<circle cx="{n(cx + 12.6 * math.cos(a))}" cy="{n(cy + 12.6 * math.sin(a))}" '
        f'r="2.4" fill="{BLUE}"/>'
        for a in (i * math.pi / 4 + math.pi / 8 for i in range(8))
    )
    return (
        f'<circle cx="{cx}" cy="{cy}" r="22" fill="{GREEN}"/>'
        f'<circle cx="{cx}" cy="{cy}" r="18" fill="{IVORY}"/>{petals}'
        f'<circle cx="{cx}" cy="{cy}" r="8.5" fill="{RED}"/>'
        f'<circle cx="{cx}" cy="{cy}" r="4.6" fill="{IVORY}"/>'
        f'<circle cx="{cx}" cy="{cy}" r="2.2" fill="{RED}"/>'
    )


B, R, G = BLUE, RED, GREEN
DOTS: dict[int, tuple[float, list[tuple[float, float, str]]]] = {
    2: (10.5, [(30, 21, G), (30, 56, B)]),
    3: (8.8, [(15, 15, B), (30, 38.4, R), (45, 62, G)]),
    4: (9.5, [(17.5, 22, B), (42.5, 22, G), (17.5, 55, G), (42.5, 55, B)]),
    5: (8.4, [(15.5, 16, B), (44.5, 16, G), (30, 38.4, R), (15.5, 61, G), (44.5, 61, B)]),
    6: (8.4, [(18, 14, G), (42, 14, G), (18, 40, R), (42, 40, R), (18, 62, R), (42, 62, R)]),
    7: (
        7.2,
        [
            (13.5, 11.5, G),
            (30, 19.5, G),
            (46.5, 27.5, G),
            (18, 46, R),
            (42, 46, R),
            (18, 64, R),
            (42, 64, R),
        ],
    ),
    8: (7.3, [(x, y, B) for y in (12, 28.8, 45.6, 62.4) for x in (18.5, 41.5)]),
    9: (
        7.3,
        [(x, y, c) for y, c in ((14, B), (38.4, R), (62.6, G)) for x in (13.8, 30, 46.2)],
    ),
}


def dots(k: int) -> str:
    if k == 1:
        return face(big_dot())
    r, pips = DOTS[k]
    return face(*(pip(x, y, r, c) for x, y, c in pips))


# -- bamboo ---------------------------------------------------------------------------------
def stick(x: float, y: float, h: float, colour: str, angle: float = 0, w: float = 8.2) -> str:
    """A bamboo stick centred on (x, y): a capsule with a node in the middle and at the ends."""
    rot = f" rotate({n(angle)})" if angle else ""
    hh, hw = h / 2, w / 2
    return (
        f'<g transform="translate({n(x)} {n(y)}){rot}">'
        f'<rect x="{n(-hw)}" y="{n(-hh)}" width="{n(w)}" height="{n(h)}" rx="{n(hw)}" '
        f'fill="{colour}"/>'
        f'<path d="M{n(-hw)} 0 H{n(hw)} M{n(-hw)} {n(-hh + 2.6)} H{n(hw)} '
        f'M{n(-hw)} {n(hh - 2.6)} H{n(hw)}" stroke="{IVORY}" stroke-width="1.3"/>'
        f'<path d="M{n(-hw * 0.2)} {n(-hh + 4.2)} V-1.8 M{n(-hw * 0.2)} 1.8 V{n(hh - 4.2)}" '
        f'stroke="{IVORY}" stroke-opacity="0.55" stroke-width="0.9" stroke-linecap="round"/>'
        "</g>"
    )


def bird() -> str:
    """The one of bamboo: a bird on a bamboo perch."""
    tail = "".join(
        f'<path d="M27 45 Q{qx} {qy} {x} {y}" fill="none" stroke="{c}" stroke-width="3.4" '
        f'stroke-linecap="round"/><circle cx="{x}" cy="{y}" r="2.7" fill="{RED}"/>'
        for qx, qy, x, y, c in (
            (14, 48, 7, 58, GREEN),
            (18, 56, 10, 68, BLUE),
            (24, 60, 19, 73, GREEN),
        )
    )
    return (
        tail + f'<ellipse cx="32" cy="40" rx="14" ry="10.5" transform="rotate(-28 32 40)" '
        f'fill="{GREEN}"/>'
        f'<path d="M22 42 Q30 30 42 34 Q34 46 22 42 Z" fill="{BLUE}"/>'
        f'<circle cx="43" cy="23" r="7.6" fill="{GREEN}"/>'
        f'<path d="M49.5 20.5 L57 24 L49.5 26.5 Z" fill="{RED}"/>'
        f'<path d="M38 16 L36 9 M42 15 L42 8 M46 16 L48 9" stroke="{RED}" stroke-width="2" '
        f'stroke-linecap="round"/>'
        f'<circle cx="44.5" cy="21.5" r="2.3" fill="{IVORY}"/>'
        f'<circle cx="45" cy="21.5" r="1.2" fill="{INK}"/>'
        f'<path d="M36 49 L36 62 M42 47 L43 62" stroke="{RED}" stroke-width="1.8" '
        f'stroke-linecap="round"/>' + stick(43, 64.5, 24, GREEN, 90, 5)
    )


BAMBOO: dict[int, tuple[float, list[tuple[float, float, str, float]]]] = {
    2: (28, [(30, 21.5, G, 0), (30, 55, B, 0)]),
    3: (28, [(30, 21.5, B, 0), (18.5, 55, G, 0), (41.5, 55, G, 0)]),
    4: (28, [(18.5, 21.5, B, 0), (41.5, 21.5, G, 0), (18.5, 55, G, 0), (41.5, 55, B, 0)]),
    5: (
        28,
        [(14, 21.5, G, 0), (46, 21.5, B, 0), (30, 38.4, R, 0), (14, 55, B, 0), (46, 55, G, 0)],
    ),
    6: (28, [(x, y, c, 0) for y, c in ((21.5, G), (55, B)) for x in (14, 30, 46)]),
    7: (
        19,
        [(30, 13.5, R, 0)] + [(x, y, c, 0) for y, c in ((38, G), (61, B)) for x in (14, 30, 46)],
    ),
    8: (
        28,
        [
            (11.5, 21.5, G, 0),
            (23.5, 21.5, G, 22),
            (36.5, 21.5, G, -22),
            (48.5, 21.5, G, 0),
            (11.5, 55, B, 0),
            (23.5, 55, B, -22),
            (36.5, 55, B, 22),
            (48.5, 55, B, 0),
        ],
    ),
    9: (
        19,
        [
            (x, y, R if x == 30 else c, 0)
            for y, c in ((15, G), (38.4, B), (61.8, G))
            for x in (14, 30, 46)
        ],
    ),
}


def bamboo(k: int) -> str:
    if k == 1:
        return face(bird())
    h, sticks = BAMBOO[k]
    w = 7 if k == 8 else 8.2
    return face(*(stick(x, y, h, c, a, w) for x, y, c, a in sticks))


# -- honours --------------------------------------------------------------------------------
def wind(k: int) -> str:
    return face(glyph("东南西北"[k - 1], 30, 38.4, 44, INK, 10))


def dragon(k: int) -> str:
    if k == 1:
        return face(glyph("中", 30, 38.4, 46, RED, 11))
    if k == 2:
        return face(glyph("发", 30, 38.4, 46, GREEN, 10))
    return face(
        f'<rect x="11" y="12" width="38" height="53" rx="3" fill="none" stroke="{BLUE}" '
        'stroke-width="4"/>',
        f'<rect x="16.5" y="17.5" width="27" height="42" rx="1.5" fill="none" stroke="{BLUE}" '
        'stroke-width="1.6"/>',
    )


# -- flowers: a picture for each, its number (1-4) in the top right corner ------------------
def petals(cx: float, cy: float, count: int, dist: float, rx: float, ry: float, fill: str) -> str:
    return "".join(
        f'<ellipse cx="{n(cx)}" cy="{n(cy - dist)}" rx="{n(rx)}" ry="{n(ry)}" fill="{fill}" '
        f'transform="rotate({n(360 * i / count)} {n(cx)} {n(cy)})"/>'
        for i in range(count)
    )


def flower_picture(k: int) -> str:
    if k == 1:  # 春: a sprout with a bud
        return (
            f'<path d="M30 68 Q30 50 30 34" stroke="{GREEN}" stroke-width="3.4" fill="none" '
            'stroke-linecap="round"/>'
            f'<path d="M30 52 Q16 50 10 36 Q24 36 30 52 Z" fill="{GREEN}"/>'
            f'<path d="M30 46 Q44 44 50 30 Q36 30 30 46 Z" fill="{GREEN}"/>'
            f'<ellipse cx="30" cy="28" rx="6" ry="8.5" fill="{RED}"/>'
            f'<path d="M14 70 Q30 64 46 70" stroke="{GOLD}" stroke-width="3" fill="none" '
            'stroke-linecap="round"/>'
        )
    if k == 2:  # 夏: the sun
        rays = "".join(
            f'<path d="M{n(30 + 15 * math.cos(a))} {n(44 + 15 * math.sin(a))} '
            f'L{n(30 + 22 * math.cos(a))} {n(44 + 22 * math.sin(a))}"/>'
            for a in (i * math.pi / 4 for i in range(8))
        )
        return (
            f'<g stroke="{RED}" stroke-width="3.4" stroke-linecap="round">{rays}</g>'
            f'<circle cx="30" cy="44" r="11" fill="{RED}"/>'
            f'<circle cx="30" cy="44" r="6" fill="{GOLD}"/>'
        )
    if k == 3:  # 秋: a falling leaf
        return (
            f'<path d="M14 64 Q12 34 44 20 Q50 52 14 64 Z" fill="{GOLD}"/>'
            f'<path d="M10 70 L38 30 M22 52 L32 50 M27 45 L25 36" stroke="{RED}" '
            'stroke-width="2.2" stroke-linecap="round" fill="none"/>'
        )
    if k == 4:  # 冬: a snowflake
        arms = "".join(
            f'<g transform="rotate({60 * i} 30 44)"><path d="M30 44 V22 M30 30 L24 25 '
            'M30 30 L36 25"/></g>'
            for i in range(6)
        )
        return f'<g stroke="{BLUE}" stroke-width="3" stroke-linecap="round" fill="none">{arms}</g>'
    if k == 5:  # 梅: a plum blossom on a branch
        return (
            f'<path d="M8 70 Q24 58 28 40 M22 56 L40 60" stroke="{INK}" stroke-width="3" '
            'fill="none" stroke-linecap="round"/>'
            + petals(32, 36, 5, 8, 6.2, 7.2, RED)
            + f'<circle cx="32" cy="36" r="4" fill="{GOLD}"/>'
            + petals(44, 60, 5, 4.2, 3.2, 3.8, RED)
        )
    if k == 6:  # 兰: orchid leaves and a flower
        return (
            f'<g stroke="{GREEN}" stroke-width="3" fill="none" stroke-linecap="round">'
            '<path d="M30 70 Q22 40 8 28"/><path d="M30 70 Q36 44 54 36"/>'
            '<path d="M30 70 Q30 52 22 44"/></g>'
            + petals(34, 26, 3, 5.5, 3.6, 6.5, PURPLE)
            + f'<circle cx="34" cy="26" r="2.4" fill="{GOLD}"/>'
        )
    if k == 7:  # 竹: a bamboo stem with leaves
        return (
            stick(24, 44, 50, GREEN, 8, 6.4)
            + f'<g fill="{GREEN}"><path d="M28 30 Q40 20 54 22 Q42 32 28 30 Z"/>'
            '<path d="M27 40 Q42 40 52 48 Q38 48 27 40 Z"/>'
            '<path d="M24 56 Q34 62 38 72 Q26 66 24 56 Z"/></g>'
        )
    # 菊: a chrysanthemum
    return (
        petals(30, 42, 12, 11, 3.2, 8.5, GOLD)
        + f'<circle cx="30" cy="42" r="6" fill="{RED}"/>'
        + f'<path d="M30 60 L30 72" stroke="{GREEN}" stroke-width="3" stroke-linecap="round"/>'
    )


def flower(k: int) -> str:
    # Seasons (1-4) number in blue, plants (5-8) in red, as on printed tiles.
    colour = BLUE if k <= 4 else RED
    return face(flower_picture(k), digit(k - 4 if k > 4 else k, 42, 6, 13, colour))


def back() -> str:
    return svg(
        '<rect x="0.75" y="0.75" width="58.5" height="78.5" rx="7" fill="#e9dfc0" '
        'stroke="#8a7e5c" stroke-width="1.5"/>',
        '<rect x="2.2" y="2.2" width="55.6" height="72.3" rx="5.8" fill="#1f5f8b"/>',
        '<rect x="7" y="7" width="46" height="62.7" rx="3.5" fill="none" stroke="#8fc1e3" '
        'stroke-width="1.6"/>',
        '<path d="M30 20 L42 38.4 L30 56.8 L18 38.4 Z" fill="none" stroke="#8fc1e3" '
        'stroke-width="1.6"/>',
        '<circle cx="30" cy="38.4" r="3.6" fill="#8fc1e3"/>',
    )


def render_all() -> dict[str, str]:
    """File name (without .svg) to SVG text, for every tile and the back."""
    tiles: dict[str, str] = {}
    for k in range(1, 10):
        tiles[f"W{k}"] = characters(k)
        tiles[f"B{k}"] = dots(k)
        tiles[f"T{k}"] = bamboo(k)
    for k in range(1, 5):
        tiles[f"F{k}"] = wind(k)
    for k in range(1, 4):
        tiles[f"J{k}"] = dragon(k)
    for k in range(1, 9):
        tiles[f"H{k}"] = flower(k)
    tiles["back"] = back()
    return tiles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("--out", type=Path, default=OUT, help="the folder (default: %(default)s)")
    args = parser.parse_args(argv)
    stale = []
    if not args.check:
        args.out.mkdir(parents=True, exist_ok=True)
    for name, text in render_all().items():
        path = args.out / f"{name}.svg"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        else:
            path.write_text(text, encoding="utf-8", newline="\n")
    if stale:
        print("out of date:", " ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
