//! What a run's plots and report are made from: the summary and the time-series rows, taken
//! from a `sim::RunResult` in memory or read back from a results directory (`summary.json`,
//! `timeseries.csv`, `link.csv`, as `output.rs` writes them).

use crate::UserError;
use serde::Deserialize;
use sim::results::Summary;
use sim::RunResult;
use std::path::Path;

/// A row of `timeseries.csv` (units as there: segments, Mbit/s).
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct FlowRow {
    pub time: f64,
    pub flow: u32,
    pub cwnd: Option<f64>,
    pub ssthresh: Option<f64>,
    pub pacing_rate: Option<f64>,
    pub throughput: f64,
    pub goodput: f64,
}

/// A row of `link.csv`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct LinkRow {
    pub time: f64,
    pub rate_mbps: f64,
    pub queue_packets: u64,
    pub queue_delay_ms: f64,
}

/// One run: its summary and (when it was sampled) its time series.
#[derive(Clone, Debug, PartialEq)]
pub struct RunData {
    pub summary: Summary,
    pub flows: Vec<FlowRow>,
    pub link: Vec<LinkRow>,
}

fn io_err(path: &Path, e: impl std::fmt::Display) -> UserError {
    UserError(format!("{}: {e}", path.display()))
}

fn read_csv<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, UserError> {
    let mut r = csv::Reader::from_path(path).map_err(|e| io_err(path, e))?;
    r.deserialize().collect::<Result<Vec<T>, _>>().map_err(|e| io_err(path, e))
}

impl RunData {
    /// The run's own summary and time series.
    pub fn from_result(r: &RunResult) -> RunData {
        let summary = r.summary.clone();
        let (flows, link) = match &r.series {
            Some(s) => (
                s.flows
                    .iter()
                    .map(|f| FlowRow {
                        time: f.time,
                        flow: f.flow,
                        cwnd: f.cwnd,
                        ssthresh: f.ssthresh,
                        pacing_rate: f.pacing_rate_mbps,
                        throughput: f.throughput_mbps,
                        goodput: f.goodput_mbps,
                    })
                    .collect(),
                s.link
                    .iter()
                    .map(|l| LinkRow { time: l.time, rate_mbps: l.rate_mbps, queue_packets: l.queue_packets, queue_delay_ms: l.queue_delay_ms })
                    .collect(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        RunData { summary, flows, link }
    }

    /// Reads a results directory: `summary.json`, `timeseries.csv` and `link.csv`.
    pub fn load(dir: &Path) -> Result<RunData, UserError> {
        if !dir.is_dir() {
            return Err(UserError(format!("{}: no such results directory (write one with `cclab run ... --out DIR`)", dir.display())));
        }
        let file = |name: &str| {
            let p = dir.join(name);
            match p.is_file() {
                true => Ok(p),
                false => Err(UserError(format!("{}: missing; {} is not a results directory of `cclab run --out`", p.display(), dir.display()))),
            }
        };
        let p = file("summary.json")?;
        let text = std::fs::read_to_string(&p).map_err(|e| io_err(&p, e))?;
        let summary: Summary = serde_json::from_str(&text).map_err(|e| io_err(&p, e))?;
        let flows = read_csv(&file("timeseries.csv")?)?;
        let link = read_csv(&file("link.csv")?)?;
        Ok(RunData { summary, flows, link })
    }

    /// Flow ids in order, each with its legend label in the algorithm's written name, e.g.
    /// `flow 0: NewReno`, with its start-up when not the controller's own (`flow 0: Reno,
    /// paced chirping`) and a mark on a flow whose receiver misbehaves, e.g. `flow 0: Reno
    /// (attacking receiver)` (the figure's heading names the attack).
    pub fn flow_labels(&self) -> Vec<(u32, String)> {
        self.summary
            .flows
            .iter()
            .map(|f| {
                let attacker = if f.receiver_attack.is_some() { " (attacking receiver)" } else { "" };
                let startup = f.startup.as_deref().map_or(String::new(), |s| format!(", {}", s.replace('-', " ")));
                (f.id, format!("flow {}: {}{startup}{attacker}", f.id, cc::display_name(&f.cc)))
            })
            .collect()
    }

    /// The rows of one flow.
    pub fn rows(&self, flow: u32) -> impl Iterator<Item = &FlowRow> {
        self.flows.iter().filter(move |r| r.flow == flow)
    }
}
