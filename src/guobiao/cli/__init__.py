"""The ``guobiao`` command: one module per command group; ``main`` is the entry point."""

from guobiao.cli.app import main

__all__ = ["main"]
