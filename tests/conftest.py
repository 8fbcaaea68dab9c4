"""Test-wide settings: under CI (the CI variable set) hypothesis runs derandomized, so that a
run is reproducible; locally it explores new examples each time."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
