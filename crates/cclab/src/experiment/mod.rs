//! Named experiments that reproduce the seeds' tests: `cclab experiment list`,
//! `cclab experiment run NAME [--fast]`.
//!
//! An experiment builds its scenarios in code (each run's resolved `scenario.toml` is written
//! next to its results, so any run can be repeated with `cclab run`), runs them, and writes
//! its verdicts on the seed's claims (see [`crate::verdict`]) and tables with our numbers beside
//! the seed's. `--fast` shortens runs and uses fewer seeds: CI runs that mode and checks
//! the qualitative result the seed reports.

mod attacks;
mod mathis;
mod nmap_scaling;
mod readings;
mod sabul_table1;
mod sackexp;
mod sharkfest;
mod startup;
mod twin;
mod vegas_samples;
mod vegas_trials;
mod write;

pub use crate::table::Table;
pub use crate::verdict::Claim;

use crate::plot::PlotFiles;
use crate::run::simulate;
use crate::UserError;
use sim::{RunResult, SimConfig};
use std::path::{Path, PathBuf};

/// How an experiment is run.
#[derive(Clone, Debug)]
pub struct Options {
    pub fast: bool,
    pub out: PathBuf,
}

/// What an experiment produces.
#[derive(Clone, Debug, Default)]
pub struct Output {
    pub tables: Vec<Table>,
    /// The seed's main findings, each judged from the rows of `claims` that decide it: the
    /// report opens with them, before the verdict table.
    pub findings: Vec<crate::finding::Finding>,
    /// The seed's claims with ours and a verdict each.
    pub claims: Vec<Claim>,
    /// The seed's statements about its own data checked on that data alone (no run of ours
    /// enters them): shown in a table of their own, outside the tally of `claims`, which
    /// counts what our runs reproduce.
    pub seed_readings: Vec<Claim>,
    /// Ours against another reference than the seed (the kernel's runs on our testbed): no
    /// claim of the seed's, so shown in a table of their own, outside the tally of `claims`.
    pub against_linux: Vec<Claim>,
    /// What the claims' reference figures are, where not a seed's (the `twin` experiment's
    /// are the kernel's runs): heads their column in the report.
    pub reference: Option<&'static str>,
    /// Free text for the report: assumptions, where we differ and why.
    pub notes: Vec<String>,
    /// Plots for the report, under a heading each (files already written).
    pub plots: Vec<(String, Vec<PlotFiles>)>,
}

impl Output {
    /// Draws every plot of a run made by [`run_one`] (into `dir/plots`) for the report.
    pub fn plot_run(&mut self, heading: &str, dir: &Path, r: &RunResult) -> Result<(), UserError> {
        let files = crate::plot::plot_result(&dir.join("plots"), r)?;
        self.plots.push((heading.to_string(), files));
        Ok(())
    }
}

pub struct Experiment {
    pub name: &'static str,
    /// The seed document it reproduces.
    pub seed: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub run: fn(&Options) -> Result<Output, UserError>,
}

pub const EXPERIMENTS: &[Experiment] = &[
    Experiment {
        name: "sharkfest",
        seed: "002 (SharkFest'19: how TCP congestion control algorithms work)",
        title: "The talk's tests per algorithm: efficiency, collateral damage, fairness, convergence, loss",
        description: sharkfest::DESCRIPTION,
        run: sharkfest::run,
    },
    Experiment {
        name: "mathis",
        seed: "002 (the talk's T = f(p)) and Mathis et al., CCR 1997",
        title: "Reno's throughput against the Mathis and Padhye laws",
        description: mathis::DESCRIPTION,
        run: mathis::run,
    },
    Experiment {
        name: "sackexp",
        seed: "003 (TCP SACK without congestion control)",
        title: "SACKEXP (no congestion window) against NewReno+SACK over lossy links",
        description: sackexp::DESCRIPTION,
        run: sackexp::run,
    },
    Experiment {
        name: "vegas-trials",
        seed: "004 (the modified Vegas project report)",
        title: "Reno, Vegas and mVegas under the six netem conditions, five runs each",
        description: vegas_trials::DESCRIPTION,
        run: vegas_trials::run,
    },
    Experiment {
        name: "sabul-table1",
        seed: "001 (Experimental analysis of the SABUL congestion control algorithm)",
        title: "Three SABUL connections: the seed's claims that one interval shares fairly whatever the RTT and that a shorter interval takes more",
        description: sabul_table1::DESCRIPTION,
        run: sabul_table1::run,
    },
    Experiment {
        name: "nmap-scaling",
        seed: "000 (nmap's ResponseRateScaledCongestionControl)",
        title: "Host discovery of 500, 5000 and 10000 random addresses, unscaled vs scaled probe windows",
        description: nmap_scaling::DESCRIPTION,
        run: nmap_scaling::run,
    },
    Experiment {
        name: "attacks",
        seed: "002 (the talk's \"Attacks on CA\") and Savage et al., CCR 1999",
        title: "ACK division, duplicate-ACK spoofing and optimistic ACKs against Reno, CUBIC and BBR, defences off and on",
        description: attacks::DESCRIPTION,
        run: attacks::run,
    },
    Experiment {
        name: "startup",
        seed: "002 (the talk's \"Paced Chirping\") and Misund & Briscoe, Netdev 0x13, 2019",
        title: "Slow start, HyStart, HyStart++, BBR's STARTUP and paced chirping: time to 90 %, queue, drops, completion times",
        description: startup::DESCRIPTION,
        run: startup::run,
    },
    Experiment {
        name: "twin",
        seed: "002 and 004 (their links), run on the kernel's TCP (needs root)",
        title: "Reno, CUBIC and BBR in the simulator and on the testbed, side by side",
        description: twin::DESCRIPTION,
        run: twin::run,
    },
];

/// Runs one configuration quietly and keeps its files under `dir` (summary, time series,
/// scenario) so that it can be inspected or re-run.
pub fn run_one(cfg: SimConfig, dir: &Path) -> Result<RunResult, UserError> {
    let result = simulate(cfg.clone(), true, "")?;
    crate::output::write_result_files(dir, &cfg, &result)?;
    Ok(result)
}

pub fn list() {
    let mut t = Table::new("experiments", &["name", "seed", "what it reproduces"]);
    for e in EXPERIMENTS {
        t.row(vec![e.name.into(), e.seed.into(), e.title.into()]);
    }
    print!("{}", t.render_text());
}

/// Runs the experiment `name` and writes its files into `out` (default `results/NAME`):
/// what `cclab experiment run` and Python's `cclab.experiment` both call.
pub fn execute(name: &str, fast: bool, out: Option<&Path>, quiet: bool, force: bool) -> Result<(&'static Experiment, Options, Output), UserError> {
    let e = EXPERIMENTS.iter().find(|e| e.name == name).ok_or_else(|| {
        UserError(format!(
            "unknown experiment `{name}`; allowed: {}",
            EXPERIMENTS.iter().map(|e| e.name).collect::<Vec<_>>().join(", ")
        ))
    })?;
    let out = out.map_or_else(|| PathBuf::from("results").join(e.name), Path::to_path_buf);
    crate::output::prepare_out_dir(&out, force, "--out")?;
    let opts = Options { fast, out };
    if !quiet {
        eprintln!("{}: {}{}", e.name, e.title, if fast { " (fast mode)" } else { "" });
    }
    let output = (e.run)(&opts)?;
    write::write_outputs(e, &opts, &output)?;
    Ok((e, opts, output))
}

pub fn run(name: &str, fast: bool, out: Option<&Path>, quiet: bool, force: bool) -> Result<(), UserError> {
    let (_, opts, output) = execute(name, fast, out, quiet, force)?;
    for t in &output.tables {
        println!("{}", t.render_text());
    }
    if !output.claims.is_empty() {
        let (holds, judged) = crate::verdict::tally(&output.claims);
        println!("{}", crate::verdict::claims_table(&output.claims).render_text());
        let unsettled = output.claims.iter().filter(|c| c.verdict == crate::verdict::Verdict::NotSettled).count();
        let unsettled = if unsettled > 0 { format!("; {unsettled} of the rest not settled") } else { String::new() };
        let conforms = output.claims.iter().filter(|c| c.verdict == crate::verdict::Verdict::Conforms).count();
        let conforms = if conforms > 0 { format!("; {conforms} checks of our code conform") } else { String::new() };
        println!("{holds} of {judged} claims hold{unsettled}{conforms} (checks, fitted and not comparable ones are not counted)");
    }
    for n in &output.notes {
        println!("note: {n}");
    }
    println!("wrote {} (open {} in a browser)", opts.out.display(), opts.out.join("report.html").display());
    Ok(())
}
