//! `cclab sweep PLAN.toml`: many runs of one scenario over a grid or list of parameter values
//! and seeds, in parallel on all cores, into one tidy CSV with a row per (run, flow).
//!
//! ```toml
//! base = "scenario.toml"      # relative to the plan; or the scenario's keys right here
//! duration = "20s"            # scenario keys here override the base file's
//! seeds = 3                   # 1, 2, 3; or seeds = [1, 7, 42]
//! out = "results.csv"         # relative to the plan; default: the plan's name with .csv
//!
//! [grid]                      # every combination; the first key varies slowest
//! "link.rate" = ["10mbit", "40mbit"]
//! "flows[0].cc" = ["reno", "cubic", "bbr"]
//!
//! [[list]]                    # and/or whole sets of settings, each combined with the grid
//! "link.netem" = "loss 0.1%"
//! [[list]]
//! "link.netem" = "loss 1%"
//! "defaults.rtt" = "20ms"
//! ```
//!
//! Each run is the base scenario with its settings written in at their key paths, read and
//! resolved exactly as a scenario file, all before the first run starts. The CSV's rows come
//! in plan order whatever the number of threads. A re-run of the same plan skips the runs
//! whose rows are all there; `<out>.fingerprint` records which plan the rows belong to.

mod keypath;
mod plan;
mod store;

use crate::run::simulate;
use crate::UserError;
use indicatif::{ProgressBar, ProgressStyle};
use plan::Plan;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Mutex;
use store::Store;

/// Flags for `cclab sweep`.
#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    /// The plan (TOML): a base scenario, [grid] and/or [[list]] of settings, seeds, out.
    pub plan: PathBuf,
    /// Worker threads (default: one per core, or RAYON_NUM_THREADS).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Discard the results file's rows and run everything again.
    #[arg(long)]
    pub fresh: bool,
    /// No progress bar or progress line.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the runs a sweep would do, and do nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub fn sweep(a: &SweepArgs) -> Result<(), UserError> {
    let plan = Plan::load(&a.plan)?;
    let mut store = Store::open(&plan, a.fresh)?;
    let todo: Vec<usize> = (0..plan.runs.len()).filter(|&i| !store.is_done(i)).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.unwrap_or(0))
        .build()
        .map_err(|e| UserError(format!("--threads: {e}")))?;
    let status = format!(
        "{}: {} runs ({} parameter combination{} x {} seed{}): {} done, {} to run on {} thread{}",
        plan.file,
        plan.runs.len(),
        plan.combinations,
        plural(plan.combinations),
        plan.seeds,
        plural(plan.seeds),
        plan.runs.len() - todo.len(),
        todo.len(),
        pool.current_num_threads(),
        plural(pool.current_num_threads()),
    );
    if a.dry_run {
        println!("{status}");
        for &i in &todo {
            println!("{}", plan.describe(&plan.runs[i]));
        }
        return Ok(());
    }
    if !a.quiet {
        eprintln!("{status}");
    }
    store.begin()?;
    let bar = if a.quiet { ProgressBar::hidden() } else { ProgressBar::new(todo.len() as u64) };
    bar.set_style(
        ProgressStyle::with_template("[{bar:40}] {pos}/{len} runs, {elapsed} elapsed, eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let shared = Mutex::new(store);
    pool.install(|| {
        todo.par_iter().try_for_each(|&i| {
            let run = &plan.runs[i];
            let result = simulate(run.scenario.resolve()?, true, "")?;
            let rows = store::rows(run, &result.summary);
            shared.lock().expect("no writer panicked").append(i, rows)?;
            bar.inc(1);
            Ok::<(), UserError>(())
        })
    })?;
    bar.finish_and_clear();
    let store = shared.into_inner().expect("no writer panicked");
    let path = store.path().display().to_string();
    let rows = store.finish()?;
    println!("{path}: {} runs, {rows} rows ({} run now, {} from before)", plan.runs.len(), todo.len(), plan.runs.len() - todo.len());
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
