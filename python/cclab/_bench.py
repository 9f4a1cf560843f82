"""``python -m cclab bench``: what a sweep engine costs per run, and what a second worker
gains.

Two plans: *tiny* runs (a 0.2 s simulation of one flow at 1 Mbit/s, well under a millisecond
of work each), whose wall time per run is almost all engine overhead, and *moderate* runs (30 s
of one flow at 50 Mbit/s, tens of milliseconds each), on which the speed-up from one worker to
two shows. Ray is started before the clock starts; its start-up (seconds) is printed apart.
Wall-clock figures, so they vary from run to run and machine to machine.
"""

from __future__ import annotations

import json
import time

from . import _native
from ._sweep import load_plan, sweep


def _plan(duration: str, rate: str, seeds: int) -> dict:
    return {"duration": duration, "link": {"rate": rate}, "flows": [{"cc": "reno"}], "grid": {"flows[0].cc": ["reno", "cubic"]}, "seeds": seeds}


def _wall(f) -> float:
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def bench(runs: int = 400, with_ray: bool = True) -> list[dict]:
    rows: list[dict] = []
    tiny = _plan("200ms", "1mbit", runs // 2)
    moderate = _plan("30s", "50mbit", max(2, runs // 20))

    def add(case: str, plan: dict, engine: str, workers: int, batch: str, wall: float) -> None:
        n = len(load_plan(plan)["runs"])
        rows.append({"case": case, "engine": engine, "workers": workers, "batch": batch, "runs": n, "wall_s": round(wall, 3), "ms_per_run": round(1e3 * wall / n, 3)})

    for name, plan in (("tiny", tiny), ("moderate", moderate)):
        p = load_plan(plan)
        jobs = [(r["id"], r["cells"], r["seed"], r["scenario"]) for r in p["runs"]]
        add(name, plan, "none (one thread, no engine)", 1, "all", _wall(lambda: _native.run_batch(jobs)))
        for w in (1, 2):
            add(name, plan, "local", w, "auto", _wall(lambda: sweep(plan, workers=w, progress=False)))
    if with_ray:
        import ray

        started = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        rows.append({"case": "ray.init", "engine": "ray", "workers": 2, "batch": "-", "runs": 0, "wall_s": round(time.perf_counter() - started, 3), "ms_per_run": None})
        try:
            for name, plan in (("tiny", tiny), ("moderate", moderate)):
                for batch in (1, None):
                    add(name, plan, "ray", 2, str(batch or "auto"), _wall(lambda: sweep(plan, engine="ray", batch_size=batch, progress=False)))
        finally:
            ray.shutdown()
    return rows


def main(runs: int, as_json: bool, with_ray: bool) -> None:
    rows = bench(runs, with_ray)
    if as_json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'case':<9} {'engine':<29} {'workers':>7} {'batch':>5} {'runs':>5} {'wall (s)':>9} {'ms/run':>8}")
    for r in rows:
        per = "-" if r["ms_per_run"] is None else f"{r['ms_per_run']:.3f}"
        print(f"{r['case']:<9} {r['engine']:<29} {r['workers']:>7} {r['batch']:>5} {r['runs']:>5} {r['wall_s']:>9.3f} {per:>8}")
