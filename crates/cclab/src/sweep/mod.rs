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
pub mod plan;
pub mod store;

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
    /// Where the runs go: `local` (this machine's cores, rows into the plan's CSV) or `ray`
    /// (Ray tasks, through the Python package: rows into a Parquet store, the plan's `out`
    /// with `.parquet`).
    #[arg(long, value_enum, default_value_t = Engine::Local)]
    pub engine: Engine,
    /// Ray cluster address for `--engine ray` (`auto`, `ray://head:10001`); default: start a
    /// local Ray.
    #[arg(long)]
    pub address: Option<String>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Local,
    Ray,
}

/// `--engine ray`: the plan is checked here, then run by the Python package (`python -m cclab
/// sweep`, with the interpreter `CCLAB_PYTHON` names, or `python3`), which owns the Ray side.
fn sweep_on_ray(a: &SweepArgs, plan: &Plan) -> Result<(), UserError> {
    if a.threads.is_some() {
        return Err("--threads: applies to --engine local; Ray uses the cluster's CPUs".into());
    }
    let python = std::env::var("CCLAB_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let out = plan.out.with_extension("parquet");
    let mut cmd = std::process::Command::new(&python);
    cmd.args(["-m", "cclab", "sweep"]).arg(&a.plan).args(["--engine", "ray", "--out"]).arg(&out);
    if let Some(addr) = &a.address {
        cmd.args(["--address", addr]);
    }
    if a.fresh {
        cmd.arg("--fresh");
    }
    if a.quiet {
        cmd.arg("--quiet");
    }
    let probe = std::process::Command::new(&python).args(["-c", "import cclab, ray"]).output();
    match probe {
        Ok(o) if o.status.success() => {}
        _ => {
            return Err(format!(
                "--engine ray: needs the cclab Python package with Ray, which `{python}` cannot import; install it with `pip install './python[ray]'` (or name the interpreter in CCLAB_PYTHON)"
            )
            .into())
        }
    }
    let status = cmd.status().map_err(|e| format!("--engine ray: cannot start `{python}`: {e}"))?;
    match status.code() {
        Some(0) => Ok(()),
        // The Python side has printed its one-line `error:` already; one is enough.
        Some(2) => std::process::exit(2),
        _ => Err(UserError(format!("--engine ray: `{python} -m cclab sweep` failed ({status})"))),
    }
}

pub fn sweep(a: &SweepArgs) -> Result<(), UserError> {
    let plan = Plan::load(&a.plan)?;
    if a.address.is_some() && a.engine != Engine::Ray {
        return Err("--address: applies to --engine ray".into());
    }
    if a.engine == Engine::Ray && !a.dry_run {
        return sweep_on_ray(a, &plan);
    }
    let mut store = Store::open(&plan, a.fresh)?;
    let todo: Vec<usize> = (0..plan.runs.len()).filter(|&i| !store.is_done(i)).collect();
    if a.threads.is_some_and(|t| t > MAX_THREADS) {
        return Err(format!("--threads: at most {MAX_THREADS} (runs are CPU-bound: more threads than cores only add memory)").into());
    }
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

/// Worker threads a sweep may ask for.
const MAX_THREADS: usize = 1024;

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
