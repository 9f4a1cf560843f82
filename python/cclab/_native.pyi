"""Type stubs of the Rust extension module (see python/src/lib.rs)."""

from os import PathLike

__version__: str

def run_scenario(
    scenario_file: str | PathLike[str] | None,
    scenario_json: str | None,
    flags_json: str,
    out: str | PathLike[str] | None = None,
) -> tuple[str, str, str | None, str | None]:
    """One simulation; returns summary.json, scenario.toml, timeseries.csv and link.csv as text."""

def algorithms_json() -> str:
    """Every algorithm and protocol, as `cclab list --json` prints them."""

def load_plan(plan_file: str | PathLike[str] | None = None, plan_json: str | None = None) -> str:
    """A sweep plan expanded into runs, as JSON."""

def run_batch(runs: list[tuple[str, list[str], int, str]]) -> list[list[str]]:
    """Runs (id, cells, seed, scenario TOML) and returns their rows of the sweep table."""

def experiments_json() -> str:
    """Every experiment's name, seed and title, as JSON."""

def run_experiment(name: str, fast: bool = False, out: str | PathLike[str] | None = None, force: bool = False) -> str:
    """Runs an experiment, writes its files and returns its claims, tables and notes as JSON."""
