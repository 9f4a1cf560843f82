"""`cclab.sweep(..., engine="ray")` on a local Ray cluster of two CPUs: the same rows as the
local engine, resumption across engines, a worker's error reaching the caller, and the CLI's
`cclab sweep --engine ray`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import cclab
from cclab import _sweep

if os.environ.get("CI"):
    import ray  # CI installs Ray: these tests must run there, not skip
else:
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'cclab[ray]')")


@pytest.fixture(scope="module", autouse=True)
def local_cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_rows_equal_local_rows(plan_file):
    local = cclab.sweep(plan_file, progress=False)
    on_ray = cclab.sweep(plan_file, engine="ray", progress=False)
    pd.testing.assert_frame_equal(local, on_ray)
    one_per_task = cclab.sweep(plan_file, engine="ray", batch_size=1, progress=False)
    pd.testing.assert_frame_equal(local, one_per_task)


def test_ray_resumes_what_the_local_engine_left(plan_file, tmp_path):
    """A store half lost (parts deleted, as after a crash) is finished on Ray: only the missing
    runs run, and the rows equal an uninterrupted sweep's."""
    out = tmp_path / "s.parquet"
    whole = cclab.sweep(plan_file, out=out, workers=1, batch_size=1, progress=False)
    # The finished sweep compacted its parts into one; write it again as one part per run.
    for p in out.glob("part-*.parquet"):
        p.unlink()
    for i, (_, rows) in enumerate(whole.groupby(["run", "seed"], sort=False)):
        if i % 2 == 0:
            rows.to_parquet(out / f"part-{i:06d}.parquet", index=False)
    resumed = cclab.sweep(plan_file, engine="ray", out=out, progress=False)
    assert resumed.attrs["resumed"] == 6 and resumed.attrs["ran"] == 6
    pd.testing.assert_frame_equal(resumed, whole)


def test_a_lost_worker_loses_and_doubles_no_row(plan_file, tmp_path, monkeypatch):
    """The first task to start kills its own worker process, as a node that goes away would;
    Ray runs that batch again elsewhere, and the store ends with every run once."""
    marker = str(tmp_path / "killed-once")

    def dies_once(runs):
        import os as os_

        if not os_.path.exists(marker):
            open(marker, "w").close()
            os_._exit(1)
        from cclab import _native

        return _native.run_batch(runs)

    monkeypatch.setattr(_sweep, "_ray_task", dies_once)
    out = tmp_path / "s.parquet"
    survived = cclab.sweep(plan_file, engine="ray", out=out, batch_size=2, progress=False)
    assert os.path.exists(marker), "no worker was killed; the test proves nothing"
    pd.testing.assert_frame_equal(survived, cclab.sweep(plan_file, progress=False))
    assert not pd.read_parquet(out).duplicated(["run", "seed", "flow"]).any()


def test_an_error_in_a_worker_reaches_the_caller_as_value_error(tmp_path):
    """A node that lacks the trace file a run needs: the worker's ValueError, naming the
    trace, is what the caller gets."""
    trace = tmp_path / "link.down"
    trace.write_text("".join(f"{t}\n" for t in range(1, 11)))
    plan = {"duration": "2s", "link": {"trace": str(trace)}, "flows": [{"cc": "reno"}], "seeds": 2}
    loaded = _sweep.load_plan(plan)
    trace.unlink()
    with pytest.raises(ValueError, match="link.down"):
        for _ in _sweep._run_ray(loaded, [[0], [1]], None):
            pass


def test_cli_engine_ray(cclab_bin, plan_file):
    env = dict(os.environ, CCLAB_PYTHON=sys.executable, RAY_ADDRESS="")
    done = subprocess.run([cclab_bin, "sweep", str(plan_file), "--engine", "ray", "-q"], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    stored = pd.read_parquet(plan_file.with_suffix(".parquet"))
    local = cclab.sweep(plan_file, progress=False)
    pd.testing.assert_frame_equal(stored.sort_values(["run", "seed", "flow"]).reset_index(drop=True), local.sort_values(["run", "seed", "flow"]).reset_index(drop=True), check_dtype=False)
    bad = subprocess.run([cclab_bin, "sweep", str(plan_file), "--engine", "ray", "--threads", "2"], env=env, capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: --threads")
