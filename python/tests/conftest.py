"""Shared fixtures: the `cclab` command-line binary (to compare the package with the CLI) and
small plans."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cclab_bin() -> str:
    """The CLI that `cargo build` made (the test command builds it before pytest runs);
    CCLAB_BIN names another."""
    named = os.environ.get("CCLAB_BIN")
    if named:
        return named
    for profile in ("release", "debug"):
        candidate = REPO / "target" / profile / "cclab"
        if candidate.exists():
            return str(candidate)
    found = shutil.which("cclab")
    if found:
        return found
    pytest.fail("the cclab binary is needed to compare with the CLI: run `cargo build` or set CCLAB_BIN")


PLAN = """\
duration = "4s"
seeds = 2
[link]
rate = "10mbit"
[[flows]]
cc = "reno"
[grid]
"flows[0].cc" = ["reno", "cubic", "bbr"]
"defaults.rtt" = ["20ms", "60ms"]
"""


@pytest.fixture
def plan_file(tmp_path: Path) -> Path:
    """3 algorithms x 2 RTTs x 2 seeds = 12 short runs of one flow."""
    p = tmp_path / "plan.toml"
    p.write_text(PLAN)
    return p
