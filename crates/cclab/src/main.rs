//! `cclab`: the congestion-control laboratory's command line.

mod bench;
mod experiment;
mod output;
mod pcap;
mod plot;
mod plot_cmd;
mod report;
mod run;
mod scan_cmd;
mod scenario;
mod sweep;
mod table;
mod testbed_cmd;

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "cclab", version, about = "How does this congestion-control algorithm behave on that network, alone and against others?")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario (a TOML file and/or flags). With neither, compare every algorithm alone
    /// on the default network (40 Mbit/s, 100 ms, 1 BDP of drop-tail buffer, 60 s).
    Run(RunArgs),
    /// List the algorithms with their family, source and parameters.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Measure simulator speed (bottleneck packets per second) and peak memory on fixed
    /// scenarios.
    Bench {
        #[arg(long)]
        json: bool,
        /// Only the cases whose name contains this.
        #[arg(long)]
        only: Option<String>,
    },
    /// The seeds' experiments: `cclab experiment list`, `cclab experiment run NAME`.
    #[command(subcommand)]
    Experiment(ExperimentCmd),
    /// Run a scenario over a grid or list of parameter values and seeds, in parallel, into one
    /// CSV with a row per run and flow; a re-run resumes.
    Sweep(sweep::SweepArgs),
    /// nmap-style host discovery under each probe-window variant (seed 000): scan time, probes
    /// sent, hosts found and the packet_ratio statistics.
    Scan(scan_cmd::ScanArgs),
    /// Plots of a run (PNG and SVG, in DIR/plots/) and DIR/report.html, from the files of
    /// `cclab run --out DIR`.
    Plot { dir: PathBuf },
    /// Real packets: kernel TCP through the simulator's link model in network namespaces
    /// (needs root): `cclab testbed run [SCENARIO] [flags of cclab run]`.
    #[command(subcommand)]
    Testbed(TestbedCmd),
    /// The same scenario in the simulator and on the testbed (needs root), and a table of
    /// where they agree and differ; --out DIR gets DIR/sim, DIR/kernel and DIR/twin.csv.
    Twin(RunArgs),
    #[command(hide = true, name = "__bench-case")]
    BenchCase { name: String },
}

#[derive(Subcommand)]
enum TestbedCmd {
    /// Run a scenario on kernel TCP: the files of `cclab run --out` plus emulator.json (the
    /// emulator's measured accuracy). --cc takes the kernel's names (reno, cubic, bbr, ...).
    Run(RunArgs),
    /// The emulator's packet rate on one core: small UDP datagrams as fast as one sender
    /// thread makes them, through a 10 Gbit/s link; prints JSON.
    Bench {
        #[arg(long, default_value_t = 200_000)]
        datagrams: u64,
        #[arg(long, default_value_t = 64)]
        payload: usize,
    },
}

#[derive(Subcommand)]
enum ExperimentCmd {
    /// The experiments and the seeds they reproduce.
    List,
    /// Run one: tables with the seed's numbers beside ours, and every run's files, in
    /// results/NAME (or --out).
    Run {
        name: String,
        /// Short runs and fewer seeds (what CI runs).
        #[arg(long)]
        fast: bool,
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long, short)]
        quiet: bool,
    },
}

/// Flags for `cclab run`. Each one overrides the scenario file.
#[derive(Args, Clone, Debug, Default)]
pub struct RunArgs {
    /// Scenario file (TOML).
    pub scenario: Option<PathBuf>,
    /// Algorithms, comma-separated; flows take them in turn.
    #[arg(long)]
    pub cc: Option<String>,
    /// Sending rate of the `cbr` flows given in --cc, e.g. 50mbit (default 10mbit).
    #[arg(long, allow_hyphen_values = true)]
    pub cbr_rate: Option<String>,
    /// Number of flows (default: one per algorithm given).
    #[arg(long)]
    pub flows: Option<u32>,
    /// Bottleneck rate, e.g. 40mbit.
    #[arg(long, allow_hyphen_values = true)]
    pub rate: Option<String>,
    /// Base round-trip time of every flow, e.g. 100ms.
    #[arg(long, allow_hyphen_values = true)]
    pub rtt: Option<String>,
    /// Simulated time, e.g. 60s.
    #[arg(long, allow_hyphen_values = true)]
    pub duration: Option<String>,
    /// Random loss at the bottleneck, e.g. 1%.
    #[arg(long, allow_hyphen_values = true)]
    pub loss: Option<String>,
    /// netem impairments at the bottleneck, e.g. "delay 100ms 10ms 25% loss 0.1%".
    #[arg(long)]
    pub netem: Option<String>,
    /// netem delay/jitter/loss on the return path (ACKs), as `tc ... netem` on the receiver.
    #[arg(long)]
    pub netem_reverse: Option<String>,
    /// Bottleneck buffer: 1bdp, 100pkts, 150KB.
    #[arg(long, allow_hyphen_values = true)]
    pub buffer: Option<String>,
    /// Queue discipline: droptail, red, codel, step.
    #[arg(long)]
    pub queue: Option<String>,
    /// Bottleneck capacity from a Mahimahi trace file (one line per 1500-byte opportunity,
    /// in ms; the trace repeats), e.g. traces/Verizon-LTE-short.down.
    #[arg(long)]
    pub trace_down: Option<String>,
    /// Send ECN-capable packets (DCTCP turns this on by itself).
    #[arg(long)]
    pub ecn: bool,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start flow k at k times this (staggered starts), e.g. 10s.
    #[arg(long, allow_hyphen_values = true)]
    pub stagger: Option<String>,
    /// Segment payload size in bytes.
    #[arg(long)]
    pub mss: Option<u64>,
    /// Turn SACK off (cumulative ACKs only).
    #[arg(long)]
    pub no_sack: bool,
    /// Delayed ACKs (every second segment or 40 ms).
    #[arg(long)]
    pub delayed_ack: bool,
    /// Pace window-based flows (Linux-style, 2x / 1.2x cwnd per RTT).
    #[arg(long)]
    pub pacing: bool,
    /// Receiver window, e.g. 64KB.
    #[arg(long, allow_hyphen_values = true)]
    pub rwnd: Option<String>,
    /// Initial window in segments.
    #[arg(long)]
    pub iw: Option<u32>,
    /// Minimum retransmission timeout, e.g. 200ms.
    #[arg(long, allow_hyphen_values = true)]
    pub min_rto: Option<String>,
    /// Sender access-link rate, e.g. 100mbit.
    #[arg(long, allow_hyphen_values = true)]
    pub access_rate: Option<String>,
    /// Time-series sample interval, e.g. 100ms.
    #[arg(long, allow_hyphen_values = true)]
    pub interval: Option<String>,
    /// Write summary.json, timeseries.csv and link.csv here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the summary as JSON on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write every packet (data and ACKs, as tcpdump on the senders' host) to this pcap file.
    #[arg(long)]
    pub pcap: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// A user error: printed as one line, exit code 2.
pub struct UserError(pub String);

impl<T: Into<String>> From<T> for UserError {
    fn from(s: T) -> Self {
        UserError(s.into())
    }
}

/// Restores the default action of SIGPIPE (Rust ignores it), so that `cclab list | head` ends
/// quietly when the reader goes away, as other Unix tools do, instead of panicking on the write.
fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    default_sigpipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => run::run(&args),
        Command::List { json } => {
            output::print_list(json);
            Ok(())
        }
        Command::Bench { json, only } => bench::bench(json, only.as_deref()),
        Command::BenchCase { name } => bench::bench_case(&name),
        Command::Plot { dir } => plot_cmd::plot(&dir),
        Command::Experiment(ExperimentCmd::List) => {
            experiment::list();
            Ok(())
        }
        Command::Experiment(ExperimentCmd::Run { name, fast, out, quiet }) => experiment::run(&name, fast, out.as_deref(), quiet),
        Command::Sweep(args) => sweep::sweep(&args),
        Command::Scan(args) => scan_cmd::scan(&args),
        Command::Testbed(TestbedCmd::Run(args)) => testbed_cmd::testbed_run(&args),
        Command::Testbed(TestbedCmd::Bench { datagrams, payload }) => testbed_cmd::bench(datagrams, payload),
        Command::Twin(args) => testbed_cmd::twin(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(UserError(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
