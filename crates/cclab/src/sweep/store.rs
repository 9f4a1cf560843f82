//! The results file of a sweep: a tidy CSV with one row per (run, flow), written as runs
//! finish and rewritten in plan order at the end, and the fingerprint file beside it that
//! says which plan the rows belong to, so that a re-run resumes only the same plan.

use super::plan::{Plan, Run};
use crate::UserError;
use csv::StringRecord;
use sim::results::Summary;
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The columns after the run id and the parameters. The link's figures and Jain's index are
/// the run's, repeated on each of its flows' rows.
pub const COLUMNS: [&str; 16] = [
    "seed",
    "flow",
    "cc",
    "throughput_bps",
    "goodput_bps",
    "bytes_delivered",
    "retransmits",
    "timeouts",
    "rtt_mean_ms",
    "rtt_p95_ms",
    "utilization",
    "drops",
    "overflow_events",
    "queue_delay_mean_ms",
    "queue_delay_p95_ms",
    "jain_index",
];

/// The rows of one run, one per flow.
pub fn rows(run: &Run, s: &Summary) -> Vec<StringRecord> {
    let l = &s.link;
    s.flows
        .iter()
        .map(|f| {
            let mut r = StringRecord::new();
            r.push_field(&run.id);
            for c in &run.cells {
                r.push_field(c);
            }
            let stats: [String; COLUMNS.len()] = [
                run.seed.to_string(),
                f.id.to_string(),
                f.cc.clone(),
                f.throughput_bps.to_string(),
                f.goodput_bps.to_string(),
                f.bytes_delivered.to_string(),
                f.retransmits.to_string(),
                f.timeouts.to_string(),
                f.rtt_ms.mean.to_string(),
                f.rtt_ms.p95.to_string(),
                l.utilization.to_string(),
                l.drops.to_string(),
                l.overflow_events.to_string(),
                l.queue_delay_ms.mean.to_string(),
                l.queue_delay_ms.p95.to_string(),
                s.jain_index.to_string(),
            ];
            for v in &stats {
                r.push_field(v);
            }
            r
        })
        .collect()
}

pub struct Store {
    path: PathBuf,
    fingerprint_path: PathBuf,
    fingerprint: String,
    plan_file: String,
    header: StringRecord,
    /// Each run's rows once complete, by the run's index in the plan.
    done: Vec<Option<Vec<StringRecord>>>,
    file: Option<File>,
}

impl Store {
    /// Opens the plan's results file: reads the rows of every complete run in it, or none with
    /// `fresh`. Refuses a file that another plan made.
    pub fn open(plan: &Plan, fresh: bool) -> Result<Store, UserError> {
        let mut header = StringRecord::new();
        header.push_field("run");
        for p in &plan.params {
            header.push_field(p);
        }
        for c in COLUMNS {
            header.push_field(c);
        }
        let path = plan.out.clone();
        let mut store = Store {
            fingerprint_path: PathBuf::from(format!("{}.fingerprint", path.display())),
            path,
            fingerprint: plan.fingerprint.clone(),
            plan_file: plan.file.clone(),
            header,
            done: plan.runs.iter().map(|_| None).collect(),
            file: None,
        };
        if !fresh && store.path.exists() {
            store.check_fingerprint()?;
            store.read(plan)?;
        }
        Ok(store)
    }

    pub fn is_done(&self, i: usize) -> bool {
        self.done[i].is_some()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn check_fingerprint(&self) -> Result<(), UserError> {
        let (out, fp) = (self.path.display(), self.fingerprint_path.display());
        let text = std::fs::read_to_string(&self.fingerprint_path).map_err(|_| {
            format!("{out} exists, but {fp}, which says what plan made it, does not; run with --fresh to start over (replacing {out}) or set another `out`")
        })?;
        let theirs = toml::from_str::<toml::Table>(&text).ok().and_then(|t| t.get("fingerprint").and_then(|f| f.as_str().map(str::to_string)));
        if theirs.as_deref() != Some(self.fingerprint.as_str()) {
            return Err(format!(
                "{out} holds the results of a different plan (its base scenario or parameters have changed since); run with --fresh to start over (replacing {out}) or set another `out`"
            )
            .into());
        }
        Ok(())
    }

    /// Reads the existing rows; a run counts as done when all its flows' rows are there. A last
    /// line without its newline (an interrupted write) is ignored.
    fn read(&mut self, plan: &Plan) -> Result<(), UserError> {
        let out = self.path.display().to_string();
        let mut bytes = std::fs::read(&self.path).map_err(|e| format!("{out}: {e}"))?;
        bytes.truncate(bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1));
        let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(bytes.as_slice());
        let mut records = reader.records();
        let fresh_hint = format!("run with --fresh to start over (replacing {out})");
        match records.next() {
            Some(Ok(h)) if h == self.header => {}
            None => return Ok(()),
            _ => return Err(format!("{out}: its columns are not the plan's; {fresh_hint}").into()),
        }
        let index: HashMap<(&str, u64), usize> = plan.runs.iter().enumerate().map(|(i, r)| ((r.id.as_str(), r.seed), i)).collect();
        let seed_col = 1 + plan.params.len();
        let mut found: Vec<Vec<StringRecord>> = vec![Vec::new(); plan.runs.len()];
        for rec in records {
            let rec = rec.map_err(|e| format!("{out}: {e}; {fresh_hint}"))?;
            let key = (&rec[0], rec[seed_col].parse::<u64>().unwrap_or(u64::MAX));
            let Some(&i) = index.get(&key) else {
                return Err(format!("{out} holds run {} seed {}, which the plan does not list; {fresh_hint}, or add the seed back", key.0, &rec[seed_col]).into());
            };
            found[i].push(rec);
        }
        for ((slot, mut rows), run) in self.done.iter_mut().zip(found).zip(&plan.runs) {
            rows.sort_by_key(|r| r[seed_col + 1].parse::<u64>().unwrap_or(u64::MAX));
            let complete = rows.len() == run.flows && rows.iter().enumerate().all(|(k, r)| r[seed_col + 1] == *k.to_string());
            if complete {
                *slot = Some(rows);
            }
        }
        Ok(())
    }

    /// Writes the fingerprint file and the rows kept so far, in plan order, and opens the file
    /// for the rows to come.
    pub fn begin(&mut self) -> Result<(), UserError> {
        let text = format!(
            "# cclab sweep: {} holds the runs of this plan; a re-run resumes it only while the plan is unchanged\nplan = {}\nfingerprint = \"{}\"\n",
            self.path.display(),
            toml::Value::String(self.plan_file.clone()),
            self.fingerprint
        );
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| self.io_err(e))?;
        }
        std::fs::write(&self.fingerprint_path, text).map_err(|e| format!("{}: {e}", self.fingerprint_path.display()))?;
        self.write_ordered()?;
        self.file = Some(File::options().append(true).open(&self.path).map_err(|e| self.io_err(e))?);
        Ok(())
    }

    /// Appends run `i`'s rows (in one write, so that an interruption leaves at most one partial
    /// line, which the next run ignores).
    pub fn append(&mut self, i: usize, rows: Vec<StringRecord>) -> Result<(), UserError> {
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in &rows {
            w.write_record(r).map_err(|e| self.io_err(e))?;
        }
        let buf = w.into_inner().map_err(|e| self.io_err(e.error()))?;
        let file = self.file.as_mut().expect("begin() opened the file");
        file.write_all(&buf).map_err(|e| format!("{}: {e}", self.path.display()))?;
        self.done[i] = Some(rows);
        Ok(())
    }

    /// Rewrites the file with every finished run's rows in plan order. Returns the number of
    /// rows.
    pub fn finish(mut self) -> Result<usize, UserError> {
        self.file = None;
        self.write_ordered()
    }

    /// The header and the finished runs' rows in plan order, written to a temporary file that
    /// then replaces the results file.
    fn write_ordered(&self) -> Result<usize, UserError> {
        let tmp = PathBuf::from(format!("{}.tmp", self.path.display()));
        let mut w = csv::Writer::from_path(&tmp).map_err(|e| self.io_err(e))?;
        w.write_record(&self.header).map_err(|e| self.io_err(e))?;
        let mut n = 0;
        for r in self.done.iter().flatten().flatten() {
            w.write_record(r).map_err(|e| self.io_err(e))?;
            n += 1;
        }
        w.flush().map_err(|e| self.io_err(e))?;
        drop(w);
        std::fs::rename(&tmp, &self.path).map_err(|e| self.io_err(e))?;
        Ok(n)
    }

    fn io_err(&self, e: impl std::fmt::Display) -> UserError {
        UserError(format!("{}: {e}", self.path.display()))
    }
}
