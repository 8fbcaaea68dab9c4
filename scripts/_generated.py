"""What the table generators (scripts/make_*_table.py) share: compressed data as lines of a
string literal, and the command line that writes a module or checks that it is up to date."""

from __future__ import annotations

import argparse
import base64
import zlib
from collections.abc import Callable
from pathlib import Path


def blob(
    data: bytes,
    indent: int = 8,
    width: int = 84,
    encode: Callable[[bytes], bytes] = base64.b64encode,
) -> str:
    """``data`` compressed and encoded, as string-literal lines of ``width`` characters."""
    text = encode(zlib.compress(data, 9)).decode()
    return "\n".join(f'{" " * indent}"{text[i : i + width]}"' for i in range(0, len(text), width))


def write_or_check(out: Path, render: Callable[[], str], script: str, description: str) -> int:
    """The generator's command line: write ``out`` from ``render()``, or with ``--check`` exit 1
    when it differs from what would be written (the test suite runs that)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    text = render()
    if args.check:
        same = out.exists() and out.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{out} differs: run {Path(script).name}")
        return 0 if same else 1
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return 0
