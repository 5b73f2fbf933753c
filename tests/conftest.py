"""Shared test configuration (others may append fixtures below)."""

from __future__ import annotations

import os

from hypothesis import settings

# Property tests set their own example counts (scaled by RUMMIKUB_TEST_SCALE, see
# tests/strategies.py); the profile sets what they share. Solving or searching one example
# can take far longer than hypothesis' 200 ms default deadline without anything being
# wrong, and "ci" derandomizes so that a CI failure reproduces on any machine.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)
