//! Tables on the terminal and the machine-readable files of a run.

use crate::scenario::Scenario;
use crate::table::Table;
use crate::UserError;
use cc::ALGORITHMS;
use sim::{RunResult, SimConfig};
use std::fmt::Write as _;
use std::path::Path;

/// `38.28 Mbit/s`, `512.0 kbit/s`, `1.00 Gbit/s`.
pub fn fmt_rate(bps: f64) -> String {
    if bps >= 1e9 {
        format!("{:.2} Gbit/s", bps / 1e9)
    } else if bps >= 1e6 {
        format!("{:.2} Mbit/s", bps / 1e6)
    } else {
        format!("{:.1} kbit/s", bps / 1e3)
    }
}

fn fmt_bytes(b: u64) -> String {
    if b >= 10_000_000 {
        format!("{:.1} MB", b as f64 / 1e6)
    } else if b >= 10_000 {
        format!("{:.1} KB", b as f64 / 1e3)
    } else {
        format!("{b} B")
    }
}

fn network_line(cfg: &SimConfig, netem: Option<&str>) -> String {
    let (lp, lb) = cfg.queue_limit();
    let buffer = if lp != u64::MAX { format!("{lp} packets") } else { fmt_bytes(lb) };
    let mut rtts: Vec<f64> = cfg.flows.iter().map(|f| f.rtt.as_millis_f64()).collect();
    rtts.sort_by(|a, b| a.total_cmp(b));
    rtts.dedup();
    let rtt = if rtts.len() == 1 {
        format!("{} ms", rtts[0])
    } else {
        format!("{}..{} ms", rtts[0], rtts[rtts.len() - 1])
    };
    let mut s = format!(
        "{} bottleneck, base RTT {rtt}, {} buffer {buffer}, {} s simulated, seed {}",
        fmt_rate(cfg.initial_rate().bits_per_sec()),
        cfg.link.qdisc.name(),
        cfg.duration.as_secs_f64(),
        cfg.seed
    );
    if !cfg.link.schedule.is_empty() {
        let _ = write!(s, ", rate schedule of {} steps", cfg.link.schedule.len());
    }
    if let Some(n) = netem {
        let _ = write!(s, ", netem \"{n}\"");
    } else if cfg.link.netem.loss.mean_loss() > 0.0 {
        let _ = write!(s, ", random loss {}%", cfg.link.netem.loss.mean_loss() * 100.0);
    }
    s
}

/// min / mean / p95, or `-` for a flow that measures no RTT (SABUL, CBR).
fn rtt_cell(r: &sim::results::Dist) -> String {
    if r.max == 0.0 {
        return "-".into();
    }
    format!("{:.1} / {:.1} / {:.1}", r.min, r.mean, r.p95)
}

/// The per-flow table's columns, on the terminal and in `report.html`.
pub const FLOW_COLUMNS: [&str; 9] =
    ["flow", "cc", "active (s)", "throughput", "goodput", "retrans", "timeouts", "loss episodes", "rtt min/mean/p95 (ms)"];

/// One flow's row under [`FLOW_COLUMNS`].
pub fn flow_row(f: &sim::results::FlowSummary) -> Vec<String> {
    vec![
        f.id.to_string(),
        f.cc.clone(),
        format!("{:.1}-{:.1}", f.start_s, f.end_s),
        fmt_rate(f.throughput_bps),
        fmt_rate(f.goodput_bps),
        f.retransmits.to_string(),
        f.timeouts.to_string(),
        f.loss_episodes.to_string(),
        rtt_cell(&f.rtt_ms),
    ]
}

pub fn print_run(cfg: &SimConfig, r: &RunResult, netem: Option<&str>) {
    let s = &r.summary;
    println!("{} flow{}: {}\n", s.flows.len(), if s.flows.len() == 1 { "" } else { "s" }, network_line(cfg, netem));
    let mut t = Table::new("", &FLOW_COLUMNS);
    for f in &s.flows {
        t.row(flow_row(f));
    }
    print!("{}", t.render_text());
    let l = &s.link;
    println!(
        "\nlink: utilisation {:.1} %, drops {} ({} overflow in {} overflow events, {} AQM, {} random{}), {} ECN marks, queueing delay mean {:.1} ms p95 {:.1} ms, queue mean {:.1} p95 {:.0} packets",
        l.utilization * 100.0,
        l.drops,
        l.overflow_drops,
        l.overflow_events,
        l.aqm_drops,
        l.random_drops,
        [("listed", l.listed_drops), ("policed", l.policed_drops)]
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(what, n)| format!(", {n} {what}"))
            .collect::<String>(),
        l.ecn_marks,
        l.queue_delay_ms.mean,
        l.queue_delay_ms.p95,
        l.queue_packets.mean,
        l.queue_packets.p95,
    );
    println!(
        "Jain's fairness index {:.3} (goodput, {:.0}-{:.0} s); {} events, {} bottleneck packets, {:.2} s wall",
        s.jain_index, s.fairness_window_s[0], s.fairness_window_s[1], s.events, s.packets, s.wall_time_s
    );
}

pub fn print_comparison(cfg: &SimConfig, rows: &[RunResult], netem: Option<&str>) {
    println!("Each algorithm alone: {}\n", network_line(cfg, netem));
    let mut t = Table::new(
        "",
        &[
            "algorithm",
            "goodput",
            "utilisation",
            "retrans",
            "timeouts",
            "rtt mean/p95 (ms)",
            "queue delay mean/p95 (ms)",
            "overflow events",
        ],
    );
    for r in rows {
        let f = &r.summary.flows[0];
        let l = &r.summary.link;
        t.row(vec![
            f.cc.clone(),
            fmt_rate(f.goodput_bps),
            format!("{:.1} %", l.utilization * 100.0),
            f.retransmits.to_string(),
            f.timeouts.to_string(),
            if f.rtt_ms.max == 0.0 { "-".into() } else { format!("{:.1} / {:.1}", f.rtt_ms.mean, f.rtt_ms.p95) },
            format!("{:.1} / {:.1}", l.queue_delay_ms.mean, l.queue_delay_ms.p95),
            l.overflow_events.to_string(),
        ]);
    }
    print!("{}", t.render_text());
    println!("\n`cclab run --cc NAME ...` runs one; `cclab list` describes them; `--json` and `--out DIR` give the figures as files.");
}

/// `name=value` pairs of a configuration's fields, without its `algorithm` tag.
fn parameters(config: serde_json::Value) -> String {
    match config {
        serde_json::Value::Object(m) => {
            m.into_iter().filter(|(k, _)| k != "algorithm").map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
        }
        _ => String::new(),
    }
}

/// One entry of `cclab list`: TCP algorithms and datagram protocols alike.
struct ListEntry {
    name: &'static str,
    family: &'static str,
    transport: &'static str,
    source: &'static str,
    summary: &'static str,
    config: serde_json::Value,
}

fn list_entries() -> Vec<ListEntry> {
    let tcp = ALGORITHMS.iter().map(|a| ListEntry {
        name: a.name,
        family: a.family.as_str(),
        transport: "tcp",
        source: a.source,
        summary: a.summary,
        config: serde_json::to_value((a.default_config)()).expect("config serialises"),
    });
    let datagram = cc::protocols::PROTOCOLS.iter().map(|p| ListEntry {
        name: p.name,
        family: p.family,
        transport: "udp",
        source: p.source,
        summary: p.summary,
        config: serde_json::to_value((p.default_config)()).expect("config serialises"),
    });
    tcp.chain(datagram).collect()
}

/// Every algorithm and protocol as JSON: name, family, transport, source, summary and its
/// parameters with their defaults (`cclab list --json`, `cclab.algorithms()` in Python).
pub fn list_json() -> serde_json::Value {
    let all: Vec<serde_json::Value> = list_entries()
        .into_iter()
        .map(|e| {
            serde_json::json!({
                "name": e.name,
                "family": e.family,
                "transport": e.transport,
                "source": e.source,
                "summary": e.summary,
                "parameters": e.config,
            })
        })
        .collect();
    serde_json::Value::Array(all)
}

/// `cclab list`: each algorithm's name, family and what it does on one line, then its source and
/// its parameters with their defaults (any of them can be set in a scenario file:
/// `cc = { algorithm = "cubic", beta = 0.8 }`).
pub fn print_list(json: bool) {
    if json {
        println!("{}", serde_json::to_string_pretty(&list_json()).expect("list serialises"));
        return;
    }
    let entries = list_entries();
    let width = entries.iter().map(|e| e.name.len()).max().unwrap_or(0);
    for e in entries {
        let params = parameters(e.config);
        println!("{:<width$}  {:<12}  {} {}", e.name, e.family, e.transport, e.summary);
        println!("{:<width$}  source: {}", "", e.source);
        println!("{:<width$}  parameters: {}", "", if params.is_empty() { "-".to_string() } else { params });
    }
}

fn io_err(path: &Path, e: impl std::fmt::Display) -> UserError {
    UserError(format!("{}: {e}", path.display()))
}

/// The results of a run given by its configuration, with the scenario file that repeats it.
pub fn write_result_files(dir: &Path, cfg: &SimConfig, r: &RunResult) -> Result<(), UserError> {
    write_run(dir, &Scenario::from_config(cfg), r)
}

/// A run's files as text, exactly as [`write_run`] writes them: `summary.json`, the resolved
/// `scenario.toml`, and, when the run sampled a time series, `timeseries.csv` (one row per flow
/// per interval) and `link.csv`. The Python package reads its DataFrames from these.
pub struct RunFiles {
    pub summary_json: String,
    pub scenario_toml: String,
    pub timeseries_csv: Option<String>,
    pub link_csv: Option<String>,
}

/// Rows as CSV text with a header, as the run's files hold them.
pub fn csv_text<T: serde::Serialize>(rows: &[T]) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in rows {
        w.serialize(row).map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.error().to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

impl RunFiles {
    pub fn new(scenario: &Scenario, r: &RunResult) -> Result<RunFiles, String> {
        let series = r.series.as_ref();
        Ok(RunFiles {
            summary_json: serde_json::to_string_pretty(&r.summary).expect("summary serialises") + "\n",
            scenario_toml: toml::to_string_pretty(scenario).map_err(|e| format!("scenario.toml: {e}"))?,
            timeseries_csv: series.map(|s| csv_text(&s.flows)).transpose().map_err(|e| format!("timeseries.csv: {e}"))?,
            link_csv: series.map(|s| csv_text(&s.link)).transpose().map_err(|e| format!("link.csv: {e}"))?,
        })
    }
}

/// `timeseries.csv` and `link.csv` written row by row as the simulation samples them, in the
/// very bytes [`RunFiles`] gives for a series kept in memory.
pub struct CsvSink {
    flows: csv::Writer<std::io::BufWriter<std::fs::File>>,
    link: csv::Writer<std::io::BufWriter<std::fs::File>>,
    dir: std::path::PathBuf,
    /// The first write error, reported by `finish`.
    error: Option<String>,
}

impl CsvSink {
    pub fn create(dir: &Path) -> Result<CsvSink, UserError> {
        let open = |name: &str| {
            let p = dir.join(name);
            std::fs::File::create(&p).map(|f| csv::Writer::from_writer(std::io::BufWriter::new(f))).map_err(|e| io_err(&p, e))
        };
        Ok(CsvSink { flows: open("timeseries.csv")?, link: open("link.csv")?, dir: dir.to_path_buf(), error: None })
    }
}

impl sim::sink::SampleSink for CsvSink {
    fn flow(&mut self, s: &sim::results::FlowSample) {
        if let Err(e) = self.flows.serialize(s) {
            self.error.get_or_insert(format!("{}: {e}", self.dir.join("timeseries.csv").display()));
        }
    }
    fn link(&mut self, s: &sim::results::LinkSample) {
        if let Err(e) = self.link.serialize(s) {
            self.error.get_or_insert(format!("{}: {e}", self.dir.join("link.csv").display()));
        }
    }
    fn finish(mut self: Box<Self>) -> Result<(), String> {
        for (name, w) in [("timeseries.csv", &mut self.flows), ("link.csv", &mut self.link)] {
            if let Err(e) = w.flush() {
                self.error.get_or_insert(format!("{}: {e}", self.dir.join(name).display()));
            }
        }
        self.error.map_or(Ok(()), Err)
    }
}

/// Writes `summary.json`, `scenario.toml`, `timeseries.csv` and `link.csv` (see [`RunFiles`]).
pub fn write_run(dir: &Path, scenario: &Scenario, r: &RunResult) -> Result<(), UserError> {
    let files = RunFiles::new(scenario, r).map_err(|e| io_err(dir, e))?;
    let mut named = vec![("summary.json", files.summary_json), ("scenario.toml", files.scenario_toml)];
    named.extend(files.timeseries_csv.map(|t| ("timeseries.csv", t)));
    named.extend(files.link_csv.map(|t| ("link.csv", t)));
    write_files(dir, &named)
}

/// The files cclab writes into a results directory (and `cclab plot` adds).
pub const RESULT_FILES: [&str; 7] = ["summary.json", "scenario.toml", "timeseries.csv", "link.csv", "report.json", "report.html", "plots"];

/// The file that marks a directory as cclab's output: a later write there replaces the whole
/// directory, so no stale plot or report survives beside new data.
pub const MARKER: &str = ".cclab-output";

/// Whether `dir` is cclab's to replace: it holds [`MARKER`], or (written before the marker
/// existed) only names from [`RESULT_FILES`].
fn is_ours(names: &[String]) -> bool {
    names.iter().any(|n| n == MARKER) || (!names.is_empty() && names.iter().all(|n| RESULT_FILES.contains(&n.as_str())))
}

fn entries(dir: &Path) -> Result<Option<Vec<String>>, UserError> {
    match std::fs::read_dir(dir) {
        Ok(list) => {
            let mut names: Vec<String> = list.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
            names.sort();
            Ok(Some(names))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(dir, e)),
    }
}

/// Checks, before a run, that its output may go to `dir` (given with `flag`): a new or empty
/// directory, a previous cclab output (which will be replaced whole), or, with `force`, any
/// directory (cclab's files are then written among the others, and nothing else is removed).
pub fn check_out_dir(dir: &Path, force: bool, flag: &str) -> Result<(), UserError> {
    let Some(names) = entries(dir)? else { return Ok(()) };
    if names.is_empty() || is_ours(&names) || force {
        return Ok(());
    }
    let first = names.iter().find(|n| !RESULT_FILES.contains(&n.as_str())).unwrap_or(&names[0]);
    Err(UserError(format!(
        "{flag}: {} holds `{first}`, which cclab did not write; give a new or empty directory, or add --force to write among its files",
        dir.display()
    )))
}

/// Makes `dir` ready for a command's output after [`check_out_dir`]: a previous cclab output
/// is removed whole, the directory created, and [`MARKER`] written into it.
pub fn prepare_out_dir(dir: &Path, force: bool, flag: &str) -> Result<(), UserError> {
    check_out_dir(dir, force, flag)?;
    if let Some(names) = entries(dir)? {
        if is_ours(&names) {
            std::fs::remove_dir_all(dir).map_err(|e| io_err(dir, e))?;
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
    let marker = dir.join(MARKER);
    std::fs::write(&marker, "cclab wrote this directory; writing to it again replaces all of it\n").map_err(|e| io_err(&marker, e))
}

/// Checks that a file a command will create (a pcap) is new, or `force` is given, and is none
/// of the command's `inputs` (which not even `force` overwrites).
pub fn check_new_file(path: &Path, force: bool, flag: &str, inputs: &[&Path]) -> Result<(), UserError> {
    if inputs.iter().any(|i| same_file(path, i)) {
        return Err(UserError(format!("{flag}: {} is one of this command's input files; give another path", path.display())));
    }
    if path.exists() && !force {
        return Err(UserError(format!("{flag}: {} exists; give a new file, or add --force to replace it", path.display())));
    }
    Ok(())
}

/// Whether two paths name one existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Writes each `(name, text)` into `dir`, creating it; callers check the directory first with
/// [`check_out_dir`] or [`prepare_out_dir`].
pub fn write_files(dir: &Path, files: &[(&str, String)]) -> Result<(), UserError> {
    std::fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
    for (name, text) in files {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| io_err(&p, e))?;
    }
    Ok(())
}

/// `link.csv`'s header line, for a run that has no link samples (a real network's).
pub fn link_csv_header() -> String {
    let zero = sim::results::LinkSample { time: 0.0, rate_mbps: 0.0, queue_packets: 0, queue_bytes: 0, queue_delay_ms: 0.0, drops: 0, utilization: 0.0 };
    let text = csv_text(&[zero]).expect("a link sample serialises");
    text.lines().next().unwrap_or_default().to_string()
}
