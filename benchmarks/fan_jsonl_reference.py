"""The reference side of ``benchmarks/fan_jsonl.py``: PyMahjongGB behind the JSON-lines layer of
``guobiao fan --jsonl``, as a whole process.

    python benchmarks/fan_jsonl_reference.py [--rules mil] < hands.jsonl > scores.jsonl

The same work per line as ours, with the C++ calculator in the middle: decode the bytes, parse the
JSON object (``json.loads``), turn it into ``MahjongFanCalculator``'s arguments (the conversion of
``tests/oracle.py``, kept here so the process imports nothing else), score it, and write one JSON
object per line in the output format of ``guobiao fan --jsonl`` (``json.dumps``, buffered). The
reference's own names are written as it gives them; ``--rules`` is accepted for the same command
line and ignored (PyMahjongGB 1.4.0 is the ``mil`` profile). Only the standard library and
``MahjongGB`` are imported.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from MahjongGB import MahjongFanCalculator

_WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
_ORDER = [f"{s}{r}" for s in "WBT" for r in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2"]
_ORDER += ["J3"]
_NEXT = {t: _ORDER[i + 1] for i, t in enumerate(_ORDER[:-1])}
_RANK = {t: i for i, t in enumerate(_ORDER)}


def arguments(obj: dict[str, Any]) -> tuple[Any, ...]:
    """``MahjongFanCalculator``'s positional arguments (tests/oracle.py ``to_reference_args``)."""
    pack = []
    for meld in obj.get("melds", ()):
        kind = meld["type"]
        tiles = meld["tiles"]
        if kind == "chow":  # the middle tile; which tile was claimed (1-3): the first
            pack.append(("CHI", _NEXT[min(tiles, key=_RANK.__getitem__)], 1))
        elif kind == "pung":
            pack.append(("PENG", tiles[0], meld.get("from") or 1))
        elif kind == "kong":
            pack.append(("GANG", tiles[0], meld.get("from") or 1))
        else:
            pack.append(("GANG", tiles[0], 0))
    return (
        tuple(pack),
        tuple(obj["concealed"]),
        obj["win_tile"],
        int(obj.get("flowers", 0)),
        bool(obj.get("self_drawn", False)),
        bool(obj.get("fourth_tile", False)),
        bool(obj.get("kong", False)),
        bool(obj.get("last_tile", False)),
        _WINDS[obj.get("seat_wind", "E")],
        _WINDS[obj.get("round_wind", "E")],
    )


def evaluate(raw: bytes) -> dict[str, Any]:
    """One line's answer in the output format of ``guobiao fan --jsonl``."""
    try:
        result = MahjongFanCalculator(*arguments(json.loads(raw.decode("utf-8"))), verbose=True)
    except TypeError as err:
        if str(err) == "ERROR_NOT_WIN":
            return {"ok": False, "reason": "not_winning", "message": str(err)}
        return {"ok": False, "reason": "invalid", "message": str(err)}
    except (ValueError, KeyError, IndexError) as err:
        return {"ok": False, "reason": "invalid", "message": str(err)}
    fans = [
        {"zh": zh, "en": en, "points": points, "count": count} for points, count, zh, en in result
    ]
    total = sum(points * count for points, count, _, _ in result)
    flowers = sum(count for _, count, zh, _ in result if zh == "花牌")
    return {"ok": True, "total": total, "meets_minimum": total - flowers >= 8, "fans": fans}


def main() -> int:
    out = sys.stdout.buffer
    dumps = json.dumps
    for raw in sys.stdin.buffer:
        if raw.strip():
            out.write((dumps(evaluate(raw), ensure_ascii=False) + "\n").encode("utf-8"))
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
