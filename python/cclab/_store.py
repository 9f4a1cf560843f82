"""The Parquet store of a sweep: a directory (``results/s.parquet``) of part files, each the
rows of whole runs, written atomically (a temporary name, then a rename), and a manifest
``_cclab_sweep.json`` naming the plan whose rows it holds. ``pandas.read_parquet`` reads the
directory as one table (it skips names starting with ``_`` or ``.``).

A re-run of the same plan reads which (run, seed) pairs are there and runs only the others. A
driver killed mid-sweep loses at most the runs not yet written; a part is never half there,
and rows that two parts hold (a compaction cut short) are read once.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

MANIFEST = "_cclab_sweep.json"
KEY = ["run", "seed", "flow"]


class Store:
    def __init__(self, path: str | os.PathLike[str], plan: dict, schema: pa.Schema, fresh: bool):
        self.path = Path(path)
        self.schema = schema
        manifest = self.path / MANIFEST
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"out: {self.path} is a file; give a directory name such as results/sweep.parquet")
        if self.path.is_dir() and any(self.path.iterdir()):
            if not manifest.exists():
                raise ValueError(f"out: {self.path} is a directory that cclab did not write (no {MANIFEST}); give another out")
            theirs = json.loads(manifest.read_text())
            if theirs.get("fingerprint") != plan["fingerprint"] and not fresh:
                raise ValueError(
                    f"out: {self.path} holds the results of a different plan (its base scenario or parameters have changed since); "
                    "pass fresh=True to start over (replacing them) or give another out"
                )
            if fresh:
                for part in self._parts():
                    part.unlink()
        self.path.mkdir(parents=True, exist_ok=True)
        _atomic_write(manifest, json.dumps({"plan": plan["file"], "fingerprint": plan["fingerprint"], "columns": plan["columns"]}, indent=1).encode())
        existing = self._parts()
        self._next = 1 + max((int(p.stem.split("-")[1]) for p in existing), default=-1)

    def _parts(self) -> list[Path]:
        return sorted(self.path.glob("part-*.parquet"))

    def read(self) -> pd.DataFrame:
        """Every row stored, each (run, seed, flow) once."""
        tables = [pq.read_table(p, schema=self.schema) for p in self._parts()]
        strings = {pa.string(): pd.StringDtype()}.get
        if not tables:
            return self.schema.empty_table().to_pandas(types_mapper=strings)
        frame = pa.concat_tables(tables).to_pandas(types_mapper=strings)
        return frame.drop_duplicates(subset=KEY, keep="first", ignore_index=True)

    def append(self, frame: pd.DataFrame) -> None:
        """Writes the rows of whole runs as a new part."""
        if frame.empty:
            return
        table = pa.Table.from_pandas(frame, schema=self.schema, preserve_index=False)
        target = self.path / f"part-{self._next:06d}.parquet"
        tmp = self.path / f".{target.name}.tmp"
        pq.write_table(table, tmp)
        os.replace(tmp, target)
        self._next += 1

    def compact(self, frame: pd.DataFrame) -> None:
        """Replaces the parts with one holding `frame` (every row, in plan order): the new
        part is in place before the old ones go, so an interruption leaves only duplicates,
        which `read` drops."""
        old = self._parts()
        if len(old) <= 1:
            return
        self.append(frame)
        for p in old:
            p.unlink()


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
