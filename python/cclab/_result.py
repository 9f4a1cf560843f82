"""`Result`: one run's figures as a dict and pandas DataFrames, read from the same text the
command line writes to ``summary.json``, ``timeseries.csv`` and ``link.csv``."""

from __future__ import annotations

import io
from functools import cached_property
from typing import Any

import pandas as pd


class Result:
    """The results of one simulation.

    - ``summary``: a dict, the same as ``summary.json`` (per-flow and link figures, Jain's index).
    - ``flows``: a DataFrame, one row per flow (nested figures such as ``rtt_ms`` become
      ``rtt_ms.min``, ``rtt_ms.mean``, ...).
    - ``link_summary``: the bottleneck's figures, a dict.
    - ``timeseries``: a DataFrame with ``timeseries.csv``'s columns, one row per flow per interval
      (time in s, cwnd and ssthresh in segments, rtt in ms, throughput and goodput in Mbit/s).
    - ``link``: a DataFrame with ``link.csv``'s columns (queue, queueing delay, drops per interval).
    - ``scenario_toml``: the resolved scenario; ``cclab run`` on it repeats the run.
    """

    def __init__(self, summary: dict[str, Any], scenario_toml: str, timeseries_csv: str | None, link_csv: str | None):
        self.summary = summary
        self.scenario_toml = scenario_toml
        self._timeseries_csv = timeseries_csv
        self._link_csv = link_csv

    @cached_property
    def flows(self) -> pd.DataFrame:
        return pd.json_normalize(self.summary["flows"], sep=".")

    @property
    def link_summary(self) -> dict[str, Any]:
        return self.summary["link"]

    @cached_property
    def timeseries(self) -> pd.DataFrame:
        return _csv(self._timeseries_csv)

    @cached_property
    def link(self) -> pd.DataFrame:
        return _csv(self._link_csv)

    def plot(self, figsize: tuple[float, float] = (9, 8)):
        """Congestion window, throughput and queueing delay over time, one line per flow, in
        one matplotlib figure (shown inline in Jupyter). Returns the figure."""
        import matplotlib.pyplot as plt

        ts, link = self.timeseries, self.link
        fig, (ax_cwnd, ax_tput, ax_queue) = plt.subplots(3, 1, sharex=True, figsize=figsize, constrained_layout=True)
        names = {f["id"]: f"flow {f['id']} ({f['cc']})" for f in self.summary["flows"]}
        for flow, rows in ts.groupby("flow", sort=True):
            label = names.get(flow, f"flow {flow}")
            if rows["cwnd"].notna().any():
                ax_cwnd.plot(rows["time"], rows["cwnd"], label=label, lw=1)
            ax_tput.plot(rows["time"], rows["goodput"], label=label, lw=1)
        if not link.empty:
            ax_tput.plot(link["time"], link["rate_mbps"], color="black", ls="--", lw=1, label="capacity")
            ax_queue.plot(link["time"], link["queue_delay_ms"], color="tab:gray", lw=1)
        ax_cwnd.set_ylabel("cwnd (segments)")
        ax_tput.set_ylabel("goodput (Mbit/s)")
        ax_queue.set_ylabel("queueing delay (ms)")
        ax_queue.set_xlabel("time (s)")
        for ax in (ax_cwnd, ax_tput):
            if ax.get_legend_handles_labels()[0]:
                ax.legend(loc="best", fontsize="small", framealpha=0.8)
        plt.close(fig)  # Jupyter shows the returned figure once; no second copy from pyplot's state
        return fig

    def _repr_html_(self) -> str:
        link = self.summary["link"]
        head = (
            f"<p>{len(self.summary['flows'])} flow(s), {self.summary['sim_time_s']} s simulated, "
            f"seed {self.summary['seed']}; bottleneck utilisation {link['utilization'] * 100:.1f} %, "
            f"Jain's index {self.summary['jain_index']:.3f}</p>"
        )
        cols = ["id", "cc", "goodput_bps", "throughput_bps", "retransmits", "timeouts", "rtt_ms.mean"]
        return head + self.flows[[c for c in cols if c in self.flows]].to_html(index=False)

    def __repr__(self) -> str:
        flows = ", ".join(f"{f['cc']} {f['goodput_bps'] / 1e6:.2f} Mbit/s" for f in self.summary["flows"])
        return f"<cclab.Result seed={self.summary['seed']} {self.summary['sim_time_s']} s: {flows}>"


def _csv(text: str | None) -> pd.DataFrame:
    if text is None:
        return pd.DataFrame()
    return pd.read_csv(io.StringIO(text))
