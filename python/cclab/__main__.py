"""``python -m cclab sweep PLAN --engine ray``: a sweep from the shell (``cclab sweep --engine
ray`` runs this)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ._sweep import sweep


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cclab", description="cclab's Python entry point")
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sweep", help="run a sweep plan into a Parquet store")
    s.add_argument("plan")
    s.add_argument("--engine", choices=["local", "ray"], default="local")
    s.add_argument("--address", help="Ray cluster address (default: start a local Ray)")
    s.add_argument("--out", help="Parquet store (a directory); default: the plan's out with .parquet")
    s.add_argument("--fresh", action="store_true", help="discard the store's rows and run everything again")
    s.add_argument("--workers", type=int, help="threads for the local engine")
    s.add_argument("--batch-size", type=int, help="runs per task")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    b = sub.add_parser("bench", help="per-run cost of the sweep engines, and the speed-up from a second worker")
    b.add_argument("--runs", type=int, default=400, help="tiny runs (moderate ones: a tenth)")
    b.add_argument("--json", action="store_true")
    b.add_argument("--no-ray", action="store_true", help="the local engine only")
    a = parser.parse_args(argv)
    if a.command == "bench":
        from ._bench import main as bench

        bench(a.runs, a.json, not a.no_ray)
        return 0
    out = a.out
    if out is None:
        from ._sweep import load_plan

        try:
            planned = load_plan(a.plan)["out"]
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        out = str(Path(planned).with_suffix(".parquet"))
    try:
        df = sweep(a.plan, engine=a.engine, address=a.address, out=out, fresh=a.fresh, workers=a.workers, batch_size=a.batch_size, progress=not a.quiet)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{out}: {df['run'].nunique() if not df.empty else 0} parameter combinations, {len(df)} rows ({df.attrs['ran']} runs now, {df.attrs['resumed']} from before)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
