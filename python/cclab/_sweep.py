"""`cclab.sweep`: a sweep plan (``cclab sweep``'s format) run on this machine's cores or on a
Ray cluster, into one DataFrame with a row per (run, flow) and, with ``out``, a Parquet store
that a re-run resumes.

The plan is expanded and every run validated before any starts, by the same Rust code as
``cclab sweep``; each run then goes to a worker as its resolved scenario (TOML text), and the
worker returns the run's rows, the same cells as ``cclab sweep``'s CSV. Runs go out in batches
so that scheduling costs little next to short runs; the rows come back in plan order whatever
the engine, the number of workers or the batch size.
"""

from __future__ import annotations

import json
import math
import os
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Any, Iterable, Iterator, Mapping, Union

import pandas as pd
import pyarrow as pa
from tqdm.auto import tqdm

from . import _native
from ._store import Store

Plan = Union[str, "os.PathLike[str]", Mapping[str, Any]]

# The sweep table's figures after the run id and the parameters (`store::COLUMNS` in Rust).
INT_COLUMNS = {"seed", "flow", "bytes_delivered", "retransmits", "timeouts", "drops", "overflow_events"}
STR_COLUMNS = {"run", "cc"}

# Batches: enough per worker to even out runs of different lengths, few enough runs per batch
# that a lost worker or a killed driver loses little. `batch_size` overrides.
BATCHES_PER_WORKER = 4
MAX_BATCH = 64


def load_plan(plan: Plan) -> dict[str, Any]:
    """The plan expanded into runs (``runs``: id, cells, seed, flows, scenario TOML), with its
    columns and fingerprint. Raises ``ValueError`` naming the plan's key when it is wrong."""
    if isinstance(plan, (str, os.PathLike)):
        text = _native.load_plan(plan_file=os.fspath(plan))
    elif isinstance(plan, Mapping):
        text = _native.load_plan(plan_json=json.dumps(plan))
    else:
        raise ValueError("plan: give a plan file's path or a dict of its keys")
    return json.loads(text)


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def _kinds(plan: dict[str, Any]) -> dict[str, str]:
    """Each column's type: the figures' from their meaning; a parameter's from its values, as
    ``pandas.read_csv`` would infer it from ``cclab sweep``'s CSV (integers, else numbers, else
    text)."""
    kinds: dict[str, str] = {}
    params = plan["params"]
    for c in plan["columns"]:
        if c in params:
            cells = [r["cells"][params.index(c)] for r in plan["runs"]]
            given = [v for v in cells if v != ""]
            if given and all(_is_number(v) for v in given):
                whole = all(v.lstrip("+-").isdigit() for v in given) and len(given) == len(cells)
                kinds[c] = "int" if whole else "float"
            else:
                kinds[c] = "str"
        elif c in STR_COLUMNS:
            kinds[c] = "str"
        elif c in INT_COLUMNS:
            kinds[c] = "int"
        else:
            kinds[c] = "float"
    return kinds


def _schema(kinds: dict[str, str]) -> pa.Schema:
    arrow = {"int": pa.int64(), "float": pa.float64(), "str": pa.string()}
    return pa.schema([(c, arrow[k]) for c, k in kinds.items()])


def _frame(rows: list[list[str]], kinds: dict[str, str]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(kinds), dtype=object)
    for c, k in kinds.items():
        if k == "int":
            frame[c] = frame[c].astype("int64")
        elif k == "float":
            frame[c] = pd.to_numeric(frame[c].replace("", float("nan"))).astype("float64")
        else:
            frame[c] = frame[c].where(frame[c] != "", None).astype(pd.StringDtype())
    return frame


def _batches(todo: list[int], workers: int, batch_size: int | None) -> list[list[int]]:
    size = batch_size or max(1, min(MAX_BATCH, math.ceil(len(todo) / (workers * BATCHES_PER_WORKER))))
    return [todo[i : i + size] for i in range(0, len(todo), size)]


def _job(plan: dict[str, Any], batch: list[int]) -> list[tuple[str, list[str], int, str]]:
    runs = plan["runs"]
    return [(runs[i]["id"], runs[i]["cells"], runs[i]["seed"], runs[i]["scenario"]) for i in batch]


def _run_local(plan: dict[str, Any], batches: list[list[int]], workers: int) -> Iterator[tuple[list[int], list[list[str]]]]:
    """Batches on a thread pool: the simulations release the GIL, so threads use every core."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = {pool.submit(_native.run_batch, _job(plan, b)): b for b in batches}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    yield pending.pop(f), f.result()
        finally:
            for f in pending:
                f.cancel()


def _ray_task(runs: list[tuple[str, list[str], int, str]]) -> list[list[str]]:
    """What a Ray worker runs: one batch, in the Rust core of its own cclab install."""
    from cclab import _native as native

    return native.run_batch(runs)


def _ray_cpus(address: str | None) -> int:
    """Starts or joins Ray (unless it is up already) and returns the cluster's CPUs."""
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError("engine='ray' needs Ray: pip install 'cclab[ray]'") from e
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False, include_dashboard=False)
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _run_ray(plan: dict[str, Any], batches: list[list[int]], address: str | None) -> Iterator[tuple[list[int], list[list[str]]]]:
    """Batches as Ray tasks, at most a few per CPU of the cluster in flight at once, so that a
    sweep of any size holds little in the object store. A task whose worker dies is retried
    by Ray; its rows are written only once it returns, so none are lost or doubled."""
    cpus = _ray_cpus(address)
    import ray

    task = ray.remote(max_retries=3)(_ray_task)
    queue = list(batches)
    inflight: dict[Any, list[int]] = {}
    try:
        while queue or inflight:
            while queue and len(inflight) < 2 * cpus:
                b = queue.pop(0)
                inflight[task.remote(_job(plan, b))] = b
            done, _ = ray.wait(list(inflight), num_returns=1)
            for ref in done:
                batch = inflight.pop(ref)
                try:
                    rows = ray.get(ref)
                except ray.exceptions.RayTaskError as e:
                    # The worker's own exception (a ValueError naming the run), not Ray's wrapper.
                    raise e.cause from None
                yield batch, rows
    finally:
        for ref in inflight:
            ray.cancel(ref)


def sweep(
    plan: Plan,
    *,
    engine: str = "local",
    address: str | None = None,
    out: str | os.PathLike[str] | None = None,
    fresh: bool = False,
    workers: int | None = None,
    batch_size: int | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Run every run of a sweep plan and return one DataFrame, a row per (run, flow), in plan
    order: the run id, one column per swept parameter, then seed, flow, cc, throughput_bps,
    goodput_bps, bytes_delivered, retransmits, timeouts, rtt_mean_ms, rtt_p95_ms, utilization,
    drops, overflow_events, queue_delay_mean_ms, queue_delay_p95_ms and jain_index, as in
    ``cclab sweep``'s CSV.

    - ``plan``: a plan file (TOML) or a dict of its keys (``base`` or inline scenario keys,
      ``grid``, ``list``, ``seeds``).
    - ``engine``: ``"local"`` (threads on this machine's cores) or ``"ray"`` (Ray tasks;
      ``ray.init(address=address)`` unless Ray is already initialised: None starts a local
      Ray, ``"auto"`` joins a running cluster, ``"ray://head:10001"`` a remote one). Each
      cluster node needs ``cclab`` installed, and trace files at the same paths.
    - ``out``: a Parquet store (a directory, e.g. ``results/s.parquet``). A re-run of the
      same plan skips the runs already there; ``fresh=True`` starts over. Without ``out``,
      a plan whose own ``out`` ends in ``.parquet`` uses that; otherwise nothing is written.
    - ``workers``: threads for the local engine (default: the machine's cores).
    - ``batch_size``: runs per task (default: about four batches per worker, that is per core
      or per CPU of the Ray cluster, at most 64 runs each).

    The same plan gives the same rows under either engine. The DataFrame's ``attrs`` say how
    many runs ran now (``"ran"``) and how many came from the store (``"resumed"``).
    """
    if engine not in ("local", "ray"):
        raise ValueError(f"engine: {engine!r} is not one of 'local', 'ray'")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError("workers: give a positive integer")
    if workers is not None and engine == "ray":
        raise ValueError("workers: applies to engine='local'; Ray runs a task on each CPU of the cluster")
    if batch_size is not None and (isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1):
        raise ValueError("batch_size: give a positive integer")
    p = load_plan(plan)
    kinds = _kinds(p)
    if out is None and p["out"].endswith(".parquet"):
        out = p["out"]
    store = Store(out, p, _schema(kinds), fresh) if out is not None else None

    index = {(r["id"], r["seed"]): i for i, r in enumerate(p["runs"])}
    stored = store.read() if store is not None else _frame([], kinds)
    counts = stored.groupby(["run", "seed"]).size().to_dict() if not stored.empty else {}
    done = {k for k, n in counts.items() if k in index and n == p["runs"][index[k]]["flows"]}
    stored = stored[[(r, s) in done for r, s in zip(stored["run"], stored["seed"])]] if not stored.empty else stored
    todo = [i for i, r in enumerate(p["runs"]) if (r["id"], r["seed"]) not in done]

    # Batches are sized to the workers that will run them: this machine's cores, or the Ray
    # cluster's CPUs.
    n_workers = _ray_cpus(address) if engine == "ray" else (workers or os.cpu_count() or 1)
    batches = _batches(todo, n_workers, batch_size)
    results = _run_ray(p, batches, address) if engine == "ray" else _run_local(p, batches, n_workers)
    frames = [stored]
    started = time.monotonic()
    with tqdm(total=len(todo), unit="run", disable=not progress or not todo, desc=f"sweep ({engine})") as bar:
        for batch, rows in results:
            frame = _frame(rows, kinds)
            if store is not None:
                store.append(frame)
            frames.append(frame)
            bar.update(len(batch))
    frames = [f for f in frames if not f.empty]
    result = _in_plan_order(pd.concat(frames, ignore_index=True), index) if frames else _frame([], kinds)
    if store is not None:
        store.compact(result)
    result.attrs.update(ran=len(todo), resumed=len(done), engine=engine, wall_s=time.monotonic() - started)
    return result


def _in_plan_order(frame: pd.DataFrame, index: dict[tuple[str, int], int]) -> pd.DataFrame:
    order = [index[(r, s)] for r, s in zip(frame["run"], frame["seed"])]
    frame = frame.assign(_order=order).sort_values(["_order", "flow"], kind="stable")
    return frame.drop(columns="_order").reset_index(drop=True)


