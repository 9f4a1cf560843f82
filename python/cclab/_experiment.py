"""`cclab.experiment` and `cclab.experiments`: the seeds' reproductions as Python calls.

An experiment writes the same files as ``cclab experiment run`` (tables as CSV, ``results.md``,
``report.html``) and returns its verdicts and tables as pandas DataFrames.
"""

from __future__ import annotations

import html
import json
import os
from typing import Any, Union

import pandas as pd

from . import _native

PathLike = Union[str, "os.PathLike[str]"]

# The verdicts an experiment's claims take (see crates/cclab/src/verdict.rs), as verdicts.csv
# and the report write them.
VERDICTS = ("holds", "does not hold", "not settled", "fitted", "not comparable")


class Experiment:
    """One experiment's outcome: ``verdicts`` (one row per claim of the seed: claim, seed,
    ours, test, verdict, why), ``tables`` (title -> DataFrame of strings, as the report shows
    them), ``notes``, and the paths of its output directory and ``report.html``."""

    def __init__(self, raw: dict[str, Any]):
        self.name: str = raw["name"]
        self.seed: str = raw["seed"]
        self.title: str = raw["title"]
        self.out: str = raw["out"]
        self.report: str = raw["report"]
        self.notes: list[str] = raw["notes"]
        claims = [{**c, "verdict": c["verdict"].replace("-", " ")} for c in raw["claims"]]
        self.verdicts = pd.DataFrame(claims, columns=["claim", "seed", "ours", "test", "verdict", "why"])
        self.verdicts["verdict"] = pd.Categorical(self.verdicts["verdict"], categories=VERDICTS)
        self.tables: dict[str, pd.DataFrame] = {t["title"]: pd.DataFrame(t["rows"], columns=t["header"]) for t in raw["tables"]}

    def tally(self) -> tuple[int, int]:
        """How many claims hold, of those judged (fitted and not comparable ones excluded; those
        not settled are judged and do not hold)."""
        v = self.verdicts["verdict"]
        return int((v == "holds").sum()), int(v.isin(["holds", "does not hold", "not settled"]).sum())

    def _summary(self) -> str:
        """"N of M claims hold", with how many of the rest are not settled."""
        holds, judged = self.tally()
        unsettled = int((self.verdicts["verdict"] == "not settled").sum())
        return f"{holds} of {judged} claims hold" + (f" ({unsettled} of the rest not settled)" if unsettled else "")

    def _repr_html_(self) -> str:
        return f"<p><b>{self.name}</b>: {self.title}; {html.escape(self._summary())}</p>" + self.verdicts.to_html(index=False)

    def __repr__(self) -> str:
        return f"<cclab.Experiment {self.name}: {self._summary()}; report {self.report}>"


def experiments() -> pd.DataFrame:
    """Every experiment: name, seed and title (``cclab experiment list``)."""
    return pd.DataFrame(json.loads(_native.experiments_json()), columns=["name", "seed", "title"])


def experiment(name: str, fast: bool = False, out: PathLike | None = None, force: bool = False) -> Experiment:
    """Runs the experiment ``name`` as ``cclab experiment run`` does and returns its verdicts
    and tables. ``out`` defaults to ``results/NAME``; as on the command line it must be new,
    empty or written by cclab before, unless ``force``. Bad names raise ``ValueError``."""
    if not isinstance(name, str):
        raise ValueError(f"name: expected an experiment's name (a str), got {type(name).__name__}")
    return Experiment(json.loads(_native.run_experiment(name, bool(fast), None if out is None else os.fspath(out), bool(force))))
