"""`cclab.sweep` on the local engine: the rows of `cclab sweep`, the Parquet store and its
resumption."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pandas as pd
import pytest

import cclab

KEY = ["run", "seed", "flow"]


def test_rows_equal_the_cli_csv(cclab_bin, plan_file):
    """The same plan through `cclab sweep` (its CSV, read by pandas) and through Python."""
    subprocess.run([cclab_bin, "sweep", str(plan_file), "-q"], check=True, capture_output=True)
    df = cclab.sweep(plan_file, progress=False)
    cli = pd.read_csv(plan_file.with_suffix(".csv"), dtype={"run": "string", "cc": "string"})
    assert list(cli.columns) == list(df.columns)
    pd.testing.assert_frame_equal(df, cli.astype(df.dtypes.to_dict()))
    # 3 algorithms x 2 RTTs x 2 seeds, one flow each, in plan order: the first key slowest.
    assert len(df) == 12
    assert list(df["flows[0].cc"][::4]) == ["reno", "cubic", "bbr"]
    assert list(df["seed"][:4]) == [1, 2, 1, 2]


def test_dict_plan_same_rows_as_file(plan_file):
    plan = tomllib.loads(plan_file.read_text())
    pd.testing.assert_frame_equal(cclab.sweep(plan, progress=False), cclab.sweep(plan_file, progress=False))


def test_rows_do_not_depend_on_workers_or_batches(plan_file):
    a = cclab.sweep(plan_file, workers=1, batch_size=1, progress=False)
    b = cclab.sweep(plan_file, workers=2, batch_size=5, progress=False)
    pd.testing.assert_frame_equal(a, b)


def test_numeric_parameters_become_numeric_columns(tmp_path):
    p = tmp_path / "beta.toml"
    p.write_text('duration = "2s"\n[[flows]]\ncc = { algorithm = "cubic" }\n[grid]\n"flows[0].cc.beta" = [0.5, 0.7]\n')
    df = cclab.sweep(p, progress=False)
    assert df["flows[0].cc.beta"].dtype == "float64" and list(df["flows[0].cc.beta"]) == [0.5, 0.7]


def test_store_resumes_and_reads_with_pandas(plan_file, tmp_path):
    out = tmp_path / "s.parquet"
    first = cclab.sweep(plan_file, out=out, progress=False)
    assert first.attrs["ran"] == 12 and first.attrs["resumed"] == 0
    again = cclab.sweep(plan_file, out=out, progress=False)
    assert again.attrs["ran"] == 0 and again.attrs["resumed"] == 12
    pd.testing.assert_frame_equal(first, again)
    stored = pd.read_parquet(out)
    assert len(stored) == 12 and not stored.duplicated(KEY).any()


def test_store_refuses_another_plan_a_foreign_directory_and_a_file(plan_file, tmp_path):
    out = tmp_path / "s.parquet"
    cclab.sweep(plan_file, out=out, progress=False)
    other = tmp_path / "other.toml"
    other.write_text(plan_file.read_text().replace('"20ms", "60ms"', '"20ms", "80ms"'))
    with pytest.raises(ValueError, match="different plan"):
        cclab.sweep(other, out=out, progress=False)
    assert cclab.sweep(other, out=out, fresh=True, progress=False).attrs["ran"] == 12
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="did not write"):
        cclab.sweep(plan_file, out=foreign, progress=False)
    assert (foreign / "notes.txt").read_text() == "mine"
    with pytest.raises(ValueError, match="is a file"):
        cclab.sweep(plan_file, out=foreign / "notes.txt", progress=False)


DRIVER = """
import sys, cclab
cclab.sweep(sys.argv[1], out=sys.argv[2], workers=1, batch_size=1, progress=False)
"""


def test_a_killed_driver_loses_no_finished_run_and_duplicates_none(tmp_path):
    """A driver killed (SIGKILL) in the middle of a sweep; the re-run runs only what is
    missing, and the rows are those of an uninterrupted sweep, each once."""
    plan = tmp_path / "long.toml"
    # 24 runs of about 0.1-0.3 s each on one thread: seconds in all, time to kill it midway.
    plan.write_text('duration = "30s"\nseeds = 8\n[link]\nrate = "20mbit"\n[[flows]]\ncc = "reno"\n[grid]\n"flows[0].cc" = ["reno", "cubic", "bbr"]\n')
    out = tmp_path / "s.parquet"
    driver = subprocess.Popen([sys.executable, "-c", DRIVER, str(plan), str(out)])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(out.glob("part-*.parquet"))) < 3 and driver.poll() is None:
        time.sleep(0.01)
    driver.send_signal(signal.SIGKILL)
    driver.wait(timeout=30)
    parts = len(list(out.glob("part-*.parquet")))
    assert parts >= 3, "the driver wrote no parts before it was killed"
    resumed = cclab.sweep(plan, out=out, progress=False)
    assert resumed.attrs["resumed"] >= 3 and resumed.attrs["ran"] + resumed.attrs["resumed"] == 24
    assert resumed.attrs["ran"] > 0, "the driver finished before it was killed; the test proves nothing"
    whole = cclab.sweep(plan, progress=False)
    pd.testing.assert_frame_equal(resumed, whole)
    assert not pd.read_parquet(out).duplicated(KEY).any()


@pytest.mark.parametrize(
    "plan, names",
    [
        ({"grid": {"link.rat": ["10mbit"]}, "flows": [{"cc": "reno"}]}, "link"),
        ({"grid": {"link.rate": ["10furlongs"]}, "flows": [{"cc": "reno"}]}, "link.rate"),
        ({"seeds": 0, "flows": [{"cc": "reno"}]}, "seeds"),
        ({"flows": [{"cc": "reno"}], "seed": "x"}, "seed"),
    ],
)
def test_bad_plans_are_value_errors_naming_the_key(plan, names):
    with pytest.raises(ValueError, match=names.replace(".", r"\.")):
        cclab.sweep(plan, progress=False)


def test_bad_arguments_are_value_errors(plan_file):
    with pytest.raises(ValueError, match="engine"):
        cclab.sweep(plan_file, engine="spark")
    with pytest.raises(ValueError, match="workers"):
        cclab.sweep(plan_file, workers=0)
    with pytest.raises(ValueError, match="workers: applies to engine='local'"):
        cclab.sweep(plan_file, engine="ray", workers=2)
    with pytest.raises(ValueError, match="batch_size"):
        cclab.sweep(plan_file, batch_size=-1)
