//! `cclab._native`: the Rust side of the Python package. It holds no logic of its own: every
//! call goes to the `cclab` library that the command line uses (scenarios, runs, the files a run
//! writes, sweep plans and their rows), so that Python and the CLI give the same figures for
//! the same scenario and seed. Long calls release the GIL; user errors become `ValueError`,
//! file errors `OSError`.
//!
//! The pure-Python layer (`cclab/__init__.py` and beside it) turns what these functions return
//! into dicts and pandas DataFrames, and runs sweeps locally or on Ray.

use cclab::experiment;
use cclab::output::{self, RunFiles};
use cclab::run;
use cclab::scenario::Scenario;
use cclab::sweep::plan::{Plan, Run};
use cclab::sweep::store;
use cclab::{RunArgs, UserError};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use std::path::{Path, PathBuf};

fn value_error(e: impl Into<UserError>) -> PyErr {
    PyValueError::new_err(e.into().0)
}

/// The CLI names a flag `--min-rto`; Python names the keyword `min_rto`.
fn keyword_error(e: UserError) -> PyErr {
    let msg = e.0;
    match msg.strip_prefix("--").and_then(|rest| rest.split_once(':')) {
        Some((flag, rest)) => PyValueError::new_err(format!("{}:{rest}", flag.replace('-', "_"))),
        None => PyValueError::new_err(msg),
    }
}

/// A JSON object (a Python dict, serialised by the caller) as a TOML value.
fn toml_of_json(json: &str, what: &str) -> Result<toml::Value, PyErr> {
    serde_json::from_str::<toml::Value>(json).map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
}

/// One simulation. `scenario_file` (a TOML path) or `scenario_json` (a dict as JSON) gives the
/// base scenario; `flags_json` holds the keyword arguments, named as `RunArgs`'s fields, over
/// it as the CLI's flags are over a file. With `out`, also writes the run's files there as
/// `cclab run --out` does. Returns the files' text: summary.json, scenario.toml,
/// timeseries.csv and link.csv (the last two None when the run sampled no time series).
#[pyfunction]
#[pyo3(signature = (scenario_file, scenario_json, flags_json, out=None))]
fn run_scenario(
    py: Python<'_>,
    scenario_file: Option<PathBuf>,
    scenario_json: Option<String>,
    flags_json: &str,
    out: Option<PathBuf>,
) -> PyResult<(String, String, Option<String>, Option<String>)> {
    let mut args: RunArgs = serde_json::from_str(flags_json).map_err(|e| PyValueError::new_err(e.to_string()))?;
    args.scenario = scenario_file;
    let flags = run::flags_scenario(&args).map_err(keyword_error)?;
    let base = match (&args.scenario, scenario_json) {
        (Some(path), _) => Scenario::load(path).map_err(value_error)?,
        (None, Some(json)) => Scenario::from_value(&toml_of_json(&json, "scenario")?).map_err(value_error)?,
        (None, None) => Scenario::default(),
    };
    let scenario = base.overlay(&flags);
    if scenario.flows.is_none() {
        return Err(PyValueError::new_err(
            "cc: give the algorithms (cc=\"cubic\" or cc=[\"cubic\", \"bbr\"]) or a scenario with flows; cclab.algorithms() lists them",
        ));
    }
    let cfg = scenario.resolve().map_err(value_error)?;
    if let Some(dir) = &out {
        output::check_out_dir(dir, args.force, "out").map_err(|e| PyOSError::new_err(e.0))?;
    }
    let result = py.detach(|| run::simulate(cfg, true, "")).map_err(value_error)?;
    if let Some(dir) = &out {
        output::prepare_out_dir(dir, args.force, "out").map_err(|e| PyOSError::new_err(e.0))?;
        output::write_run(dir, &scenario, &result).map_err(|e| PyOSError::new_err(e.0))?;
    }
    let files = RunFiles::new(&scenario, &result).map_err(PyOSError::new_err)?;
    Ok((files.summary_json, files.scenario_toml, files.timeseries_csv, files.link_csv))
}

/// `cclab list --json`: every algorithm and protocol with its family and parameters.
#[pyfunction]
fn algorithms_json() -> String {
    output::list_json().to_string()
}

/// A sweep plan (`cclab sweep`'s format), expanded and every run validated, as JSON:
/// `{file, out, params, columns, fingerprint, combinations, seeds, runs}`, each run
/// `{id, cells, seed, flows, scenario}` with its scenario as TOML text that resolves to the
/// same simulation wherever it is read (trace paths are absolute).
#[pyfunction]
#[pyo3(signature = (plan_file=None, plan_json=None))]
fn load_plan(py: Python<'_>, plan_file: Option<PathBuf>, plan_json: Option<String>) -> PyResult<String> {
    let plan = match (plan_file, plan_json) {
        (Some(path), _) => py.detach(|| Plan::load(&path)).map_err(value_error)?,
        (None, Some(json)) => {
            let text = toml::to_string(&toml_of_json(&json, "plan")?).map_err(|e| PyValueError::new_err(format!("plan: {e}")))?;
            py.detach(|| Plan::from_text(&text, "<plan>", Path::new(""), PathBuf::from("plan.csv"))).map_err(value_error)?
        }
        (None, None) => return Err(PyValueError::new_err("plan: give a plan file or a dict")),
    };
    let mut columns = vec!["run".to_string()];
    columns.extend(plan.params.iter().cloned());
    columns.extend(store::COLUMNS.iter().map(|c| c.to_string()));
    let runs = plan
        .runs
        .iter()
        .map(|r| {
            let scenario = toml::to_string(&r.scenario).map_err(|e| PyValueError::new_err(format!("run {}: {e}", r.id)))?;
            Ok(serde_json::json!({"id": r.id, "cells": r.cells, "seed": r.seed, "flows": r.flows, "scenario": scenario}))
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(serde_json::json!({
        "file": plan.file,
        "out": plan.out.display().to_string(),
        "params": plan.params,
        "columns": columns,
        "fingerprint": plan.fingerprint,
        "combinations": plan.combinations,
        "seeds": plan.seeds,
        "runs": runs,
    })
    .to_string())
}

/// Runs a batch of a sweep's runs, each `(id, cells, seed, scenario TOML)` as [`load_plan`]
/// gave it, one after another with the GIL released, and returns their rows (the cells of
/// `cclab sweep`'s CSV, as text) in the batch's order.
#[pyfunction]
fn run_batch(py: Python<'_>, runs: Vec<(String, Vec<String>, u64, String)>) -> PyResult<Vec<Vec<String>>> {
    py.detach(|| {
        let mut rows = Vec::new();
        for (id, cells, seed, text) in runs {
            let scenario = Scenario::from_toml(&text, &format!("run {id} seed {seed}"))?;
            let cfg = scenario.resolve().map_err(|e| format!("run {id} seed {seed}: {e}"))?;
            let flows = cfg.flows.len();
            let result = run::simulate(cfg, true, "")?;
            let run = Run { id, cells, seed, scenario, flows };
            rows.extend(store::rows(&run, &result.summary).iter().map(|r| r.iter().map(str::to_string).collect()));
        }
        Ok::<_, UserError>(rows)
    })
    .map_err(value_error)
}

/// `cclab experiment list` as JSON: each experiment's name, seed and title.
#[pyfunction]
fn experiments_json() -> String {
    let list: Vec<_> = experiment::EXPERIMENTS.iter().map(|e| serde_json::json!({"name": e.name, "seed": e.seed, "title": e.title})).collect();
    serde_json::Value::from(list).to_string()
}

/// `cclab experiment run NAME [--fast] --out OUT [--force]`, quietly, with the GIL released:
/// writes the experiment's files and returns `{name, seed, title, out, report, claims, tables,
/// notes}` as JSON (claims with their verdicts, tables as title, header and rows).
#[pyfunction]
#[pyo3(signature = (name, fast=false, out=None, force=false))]
fn run_experiment(py: Python<'_>, name: &str, fast: bool, out: Option<PathBuf>, force: bool) -> PyResult<String> {
    let (e, opts, output) = py.detach(|| experiment::execute(name, fast, out.as_deref(), true, force)).map_err(value_error)?;
    Ok(serde_json::json!({
        "name": e.name,
        "seed": e.seed,
        "title": e.title,
        "out": opts.out.display().to_string(),
        "report": opts.out.join("report.html").display().to_string(),
        "claims": output.claims,
        "tables": output.tables,
        "notes": output.notes,
    })
    .to_string())
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms_json, m)?)?;
    m.add_function(wrap_pyfunction!(load_plan, m)?)?;
    m.add_function(wrap_pyfunction!(run_batch, m)?)?;
    m.add_function(wrap_pyfunction!(experiments_json, m)?)?;
    m.add_function(wrap_pyfunction!(run_experiment, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
