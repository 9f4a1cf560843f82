//! `cclab`: the congestion-control laboratory's command line.

use cclab::{bench, experiment, net_cmd, output, plot_cmd, run, scan_cmd, sweep, testbed_cmd, RunArgs, UserError};
use clap::{Parser, Subcommand};
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
    /// Serve `cclab send` clients over UDP (port 5201, as iperf3): receive their streams, or
    /// send to them with -R.
    Serve(net_cmd::ServeArgs),
    /// Run a cclab congestion controller over real UDP sockets against `cclab serve`, measured
    /// as iperf3 measures TCP; every byte is checked at the receiver.
    Send(net_cmd::SendArgs),
    /// Plots of a run (PNG and SVG, in DIR/plots/) and DIR/report.html, from the files of
    /// `cclab run --out DIR`.
    Plot { dir: PathBuf },
    /// Real packets: kernel TCP through the simulator's link model in network namespaces
    /// (needs root): `cclab testbed run [SCENARIO] [flags of cclab run]`.
    #[command(subcommand)]
    Testbed(TestbedCmd),
    /// The same scenario in the simulator and on the testbed (needs root), and a table of
    /// where they agree and differ; --out DIR gets DIR/sim, DIR/kernel and DIR/twin.csv
    /// (with --runs N: DIR/sim-seed-*, DIR/kernel-run-* and the verdicts in DIR/twin.csv).
    Twin(testbed_cmd::TwinArgs),
    #[command(hide = true, name = "__bench-case")]
    BenchCase { name: String },
}

#[derive(Subcommand)]
enum TestbedCmd {
    /// Run a scenario on kernel TCP: the files of `cclab run --out` plus emulator.json (the
    /// emulator's measured accuracy) and kernel.json (each flow's time limited by the receive
    /// window or the send buffer, from TCP_INFO). --cc takes the kernel's names (reno, cubic,
    /// bbr, ...).
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
        /// Write into an `--out` directory cclab did not write.
        #[arg(long)]
        force: bool,
    },
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

/// A write to stdout that fails (a full disk, `> /dev/full`) makes Rust's `println!` panic
/// with "failed printing to stdout"; this turns that one panic into cclab's one-line error and
/// exit code 2, and leaves every other panic (a bug) to the default report.
fn stdout_errors_are_user_errors() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info.payload().downcast_ref::<String>().map(String::as_str).or_else(|| info.payload().downcast_ref::<&str>().copied()).unwrap_or("");
        if let Some(why) = msg.strip_prefix("failed printing to stdout: ") {
            eprintln!("error: cannot write the output to stdout: {why}");
            std::process::exit(2);
        }
        default(info);
    }));
}

/// clap's own errors (an unknown flag, a missing value) in cclab's one-line form, exit code 2;
/// `--help` and `--version` print as clap prints them.
fn argument_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) {
        let _ = e.print();
        return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand { ExitCode::from(2) } else { ExitCode::SUCCESS };
    }
    let text = e.to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("invalid arguments").trim_start_matches("error: ").to_string();
    let tip = lines.find_map(|l| l.strip_prefix("tip: ")).map(|t| format!(" ({t})")).unwrap_or_default();
    eprintln!("error: {}", UserError(format!("{first}{tip}; see --help")).line());
    ExitCode::from(2)
}

fn main() -> ExitCode {
    default_sigpipe();
    stdout_errors_are_user_errors();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return argument_error(e),
    };
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
        Command::Experiment(ExperimentCmd::Run { name, fast, out, quiet, force }) => experiment::run(&name, fast, out.as_deref(), quiet, force),
        Command::Sweep(args) => sweep::sweep(&args),
        Command::Scan(args) => scan_cmd::scan(&args),
        Command::Serve(args) => net_cmd::serve(&args),
        Command::Send(args) => net_cmd::send(&args),
        Command::Testbed(TestbedCmd::Run(args)) => testbed_cmd::testbed_run(&args),
        Command::Testbed(TestbedCmd::Bench { datagrams, payload }) => testbed_cmd::bench(datagrams, payload),
        Command::Twin(args) => testbed_cmd::twin(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e.line());
            ExitCode::from(2)
        }
    }
}
