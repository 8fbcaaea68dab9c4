"""`guobiao tournament ...` on one database through click's runner: the helper the tournament
command-line tests share."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner, Result

from guobiao.cli import main
from guobiao.tournament.store import Store, open_store


class TournamentCli:
    def __init__(self, url: str) -> None:
        self.url = url

    def __call__(self, *args: str) -> Result:
        return CliRunner().invoke(main, ["tournament", *args, "--db", self.url])

    def ok(self, *args: str) -> str:
        result = self(*args)
        assert result.exit_code == 0, (args, result.output, result.exception)
        return result.output

    def json(self, *args: str) -> Any:
        return json.loads(self.ok(*args, "--json"))

    def store(self) -> Store:
        return open_store(self.url)
