"""The ``guobiao`` command: one module per command group.

``main`` (:mod:`guobiao.cli.app`) is the command group; :func:`run`, the console script, hands a
plain ``guobiao fan --jsonl [--rules R]`` straight to the stream (:mod:`guobiao.cli.stream`)
without loading the command-line framework, and everything else to ``main``.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["main", "run"]


def run() -> None:
    """The ``guobiao`` console script."""
    from guobiao.cli.stream import stream_rules

    rules = stream_rules(sys.argv[1:])
    if rules is not None:
        from guobiao.cli.stream import stream_jsonl

        stream_jsonl(rules)
        return
    from guobiao.cli.app import main

    main()


def __getattr__(name: str) -> Any:
    # ``main`` is imported when first asked for, so that a stream never loads click.
    if name == "main":
        from guobiao.cli.app import main

        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
