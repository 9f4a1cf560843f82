"""cclab, the congestion-control laboratory, in Python.

Run a scenario and get its results as pandas DataFrames, list the algorithms, and sweep a
plan over parameters and seeds on the cores of this machine or on a Ray cluster::

    import cclab
    r = cclab.run(cc=["cubic", "bbr"], rate="40mbit", rtt="100ms", duration="60s", seed=1)
    r.flows          # one row per flow
    r.timeseries     # cwnd, RTT, throughput... every interval
    df = cclab.sweep("plan.toml", engine="ray")
    e = cclab.experiment("attacks", fast=True)
    e.verdicts       # each claim of the seed, ours, the test and its verdict

Every call goes to the same Rust code as the ``cclab`` command line: a scenario means the same
thing, and a run gives the same figures, from either.
"""

from ._native import __version__
from ._api import algorithms, run
from ._experiment import Experiment, experiment, experiments
from ._result import Result
from ._sweep import sweep

__all__ = ["__version__", "algorithms", "run", "Result", "sweep", "Experiment", "experiment", "experiments"]
