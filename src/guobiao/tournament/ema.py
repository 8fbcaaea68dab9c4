"""The EMA results file: a tournament's individual ranking as the European Mahjong Association
takes it for its ranking (MERS), and the default split of a full name into first and last name.
Pure Python; docs/tournament.md ("The EMA results file").

The columns follow the EMA's published tournament results (mahjong-europe.org, Tournament pages):

``Place``
    the place in the individual ranking (第十一条); a tie shares it (``3``, ``3``, ``5``).
``EMA number``
    the player's EMA (MERS) number as registered, leading zeros kept; blank when they have none.
``Last name``, ``First name``
    as registered (``first_name``, ``last_name``), else split from the name (:func:`split_name`).
``Country``
    as registered; a two-letter code is upper-cased (the EMA lists countries by ISO 3166 code).
``Table points``
    the total standard points (标准分, 4 2 1 0 a table), a decimal: ``10.5``; exact when it ends,
    else to 2 places.
``Mahjong points``
    the sum of the ranked sessions' scores counted from 0, as EMA results give them: each
    session's 局分 less the start (500), so a table's four seats sum to 0 (less any deduction).
    A session the player did not play counts 0: a forfeit (弃权, 局分 0, 第十三条二(一)), whose
    seat a substitute played and whose penalty is its standard points; a bye scored "average".
``Base rank``
    the MERS tournament result 1000 × (N − place) / (N − 1), rounded half up, N the players
    listed (the EMA computes it again; it is here to check).

Only players who played are listed (MERS ranks those who took part): the ranked players less
those whose every ranked session was unplayed (forfeits, byes); the places close up over them.
"""

from __future__ import annotations

import csv
import io
import math
import re
import unicodedata
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from guobiao.tournament.queries import TournamentInfo
    from guobiao.tournament.ranking import Standing

__all__ = [
    "COMPOUND_SURNAMES",
    "EMA_COLUMNS",
    "base_rank",
    "country_code",
    "decimal_points",
    "ema_csv",
    "ema_ranking",
    "ema_rows",
    "split_name",
]

EMA_COLUMNS: Final = (
    "Place",
    "EMA number",
    "Last name",
    "First name",
    "Country",
    "Table points",
    "Mahjong points",
    "Base rank",
)
"""The header of the EMA results file, in order."""

COMPOUND_SURNAMES: Final = frozenset(
    (
        "欧阳",
        "司马",
        "诸葛",
        "上官",
        "东方",
        "皇甫",
        "令狐",
        "慕容",
        "公孙",
        "尉迟",
        "长孙",
        "宇文",
        "夏侯",
        "轩辕",
        "端木",
        "澹台",
        "独孤",
        "南宫",
        "西门",
        "司徒",
        "司空",
        "申屠",
        "闻人",
        "万俟",
        "呼延",
        "赫连",
        "百里",
        "东郭",
        "钟离",
        "太史",
        "单于",
        "濮阳",
        "淳于",
        "拓跋",
        "歐陽",
        "諸葛",
        "長孫",
        "軒轅",
        "東方",
        "獨孤",
        "鍾離",
    )
)
"""Two-character Chinese surnames (复姓) that ``split_name`` keeps whole."""

_PARTICLES: Final = frozenset(
    (
        "van",
        "von",
        "der",
        "den",
        "de",
        "del",
        "della",
        "di",
        "da",
        "dos",
        "das",
        "du",
        "la",
        "le",
        "ten",
        "ter",
        "zu",
        "af",
        "av",
        "bin",
        "al",
        "el",
        "st",
        "st.",
    )
)
"""Lower-case words that begin a Western surname (``van der Berg``, ``de la Cruz``)."""


def _is_han(char: str) -> bool:
    return unicodedata.name(char, "").startswith(("CJK UNIFIED", "CJK COMPATIBILITY IDEOGRAPH"))


def _is_caps(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


def split_name(full: str) -> tuple[str, str]:
    """``(first name, last name)`` of a full name, the default when only the name is registered:

    - ``"Last, First"``: split at the comma;
    - a Chinese name in characters (``王小明``): the surname is the first character, or the first
      two for a compound surname (``欧阳娜娜``: 欧阳); the rest is the given name;
    - a surname in capitals first (``MÜLLER Hans``, the way EMA lists often write it): the words
      in capitals are the surname;
    - otherwise Western order: the last word is the surname, with the particles before it
      (``Jan van der Berg``: ``van der Berg``); the words before are the first name.

    One word alone is a last name with an empty first name. Pinyin in Chinese order (``Li Wei``)
    cannot be told from Western order: register such names with ``first_name`` and
    ``last_name``, or write ``Li, Wei``.
    """
    text = " ".join(full.split())
    if "," in text:
        last, _, first = text.partition(",")
        return first.strip(), last.strip()
    words = text.split(" ")
    if len(words) == 1:
        if len(text) >= 2 and all(_is_han(c) for c in text):
            cut = 2 if text[:2] in COMPOUND_SURNAMES and len(text) > 2 else 1
            return text[cut:], text[:cut]
        return "", text
    caps = 0
    while caps < len(words) and _is_caps(words[caps]):
        caps += 1
    if 0 < caps < len(words):
        return " ".join(words[caps:]), " ".join(words[:caps])
    start = len(words) - 1
    while start > 1 and words[start - 1].lower() in _PARTICLES:
        start -= 1
    return " ".join(words[:start]), " ".join(words[start:])


def base_rank(place: int, count: int) -> int:
    """The MERS tournament result of ``place`` among ``count`` ranked players: 1000 × (count −
    place) / (count − 1), rounded half up; 1000 for a lone player."""
    value = Fraction(1000 * (count - place), count - 1) if count > 1 else Fraction(1000)
    return math.floor(value + Fraction(1, 2))


def decimal_points(value: Fraction) -> str:
    """Standard points as a decimal: exact when it ends within 2 places (``10.5``, ``7``), else
    rounded half up to 2 places (``1/3`` → ``0.33``)."""
    hundredths = math.floor(value * 100 + Fraction(1, 2))
    whole, part = divmod(abs(hundredths), 100)
    text = f"{'-' if hundredths < 0 else ''}{whole}.{part:02d}"
    if value * 100 == hundredths:  # exact: no trailing zeros
        text = text.rstrip("0").rstrip(".")
    return text


_CODE = re.compile(r"[A-Za-z]{2}")


def country_code(country: str | None) -> str:
    """The country as the file gives it: a two-letter code upper-cased, anything else as
    registered, blank when none."""
    text = (country or "").strip()
    return text.upper() if _CODE.fullmatch(text) else text


def ema_ranking(ranking: Sequence[Standing]) -> list[tuple[int, Standing]]:
    """The standings the EMA file lists, with their places: every standing of a player who
    played a session (not only forfeits or byes, ``Standing.unplayed``) and has not left
    (``Standing.withdrawn``), in order; a place is 1 + the number listed above it with a better
    rank, so ties share it and the places close up over those left out."""
    kept = [s for s in ranking if s.withdrawn is None and len(s.session_points) > len(s.unplayed)]
    return [(1 + sum(o.rank < s.rank for o in kept), s) for s in kept]


def ema_rows(ranking: Sequence[Standing], info: TournamentInfo) -> list[dict[str, Any]]:
    """One dict per player of :func:`ema_ranking`, in ranking order: ``place`` (ties share
    it), ``name``, ``number`` (registration), ``ema_id``, ``country``, ``team``, ``first_name`` and
    ``last_name`` (``name_split``: split from the name by :func:`split_name`, not registered),
    ``table_points`` (标准分, exact: ``3/2``) and ``table_points_decimal``, ``mahjong_points``
    (比赛分, from the 500 start) and ``mahjong_points_net`` (from 0: the played sessions' 局分
    less the start each, an unplayed one 0), ``sessions_played`` (ranked and played),
    ``sessions_unplayed`` (forfeits, byes) and ``base_rank``. :func:`ema_csv` writes them as
    the EMA results file."""
    listed = ema_ranking(ranking)
    count = len(listed)
    rows = []
    for place, s in listed:
        number, team, _ = info.players[s.name]
        ema_id, country = info.ema[s.name]
        first, last = info.full_names.get(s.name, (None, None))
        split = not (first or last)
        if split:
            first, last = split_name(s.name)
        # a forfeit's 局分 0 is no table's score: 0 Mahjong points, not 0 - 500 (第十三条二(一))
        sessions = len(s.session_points) - len(s.unplayed)
        rows.append(
            {
                "place": place,
                "name": s.name,
                "number": number,
                "ema_id": ema_id or "",
                "country": country or "",
                "team": team or "",
                "first_name": first or "",
                "last_name": last or "",
                "name_split": split,
                "table_points": str(s.standard_points),
                "table_points_decimal": decimal_points(s.standard_points),
                "mahjong_points": s.match_points,
                "mahjong_points_net": s.match_points - info.starting_points * sessions,
                "sessions_played": sessions,
                "sessions_unplayed": len(s.unplayed),
                "base_rank": base_rank(place, count),
            }
        )
    return rows


def ema_csv(rows: Sequence[dict[str, Any]]) -> str:
    """The EMA results file (CSV, a header of ``EMA_COLUMNS``) of :func:`ema_rows`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(EMA_COLUMNS)
    for row in rows:
        writer.writerow(
            (
                row["place"],
                row["ema_id"],
                row["last_name"],
                row["first_name"],
                country_code(row["country"]),
                row["table_points_decimal"],
                row["mahjong_points_net"],
                row["base_rank"],
            )
        )
    return out.getvalue()
