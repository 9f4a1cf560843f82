//! `cclab plot RESULTS_DIR`: the plots of a run from its files, into `RESULTS_DIR/plots/`, and
//! `RESULTS_DIR/report.html` with the summary tables and the plots.

use crate::output::{self, fmt_rate};
use crate::plot::{self, PlotFiles, RunData};
use crate::report::Report;
use crate::UserError;
use std::path::Path;

/// A run's report: parameters, the per-flow and link tables, the plots, and the scenario
/// file that repeats the run (when there is one).
pub fn run_report(d: &RunData, plots: &[PlotFiles], scenario: Option<&str>) -> Result<Report, UserError> {
    let s = &d.summary;
    let l = &s.link;
    let mut algorithms: Vec<&str> = s.flows.iter().map(|f| f.cc.as_str()).collect();
    let mut seen = std::collections::BTreeSet::new();
    algorithms.retain(|a| seen.insert(*a));
    // `cclab send --out` writes a real run's files: its link is not known, only its flows.
    let real = l.queue == "real network";
    let mut r = Report::new(&format!("cclab {}: {}", if real { "send" } else { "run" }, algorithms.join(", ")));
    let path = if real {
        format!("over a real network (cclab send), {:.1} s", s.sim_time_s)
    } else {
        format!("through a {} bottleneck ({} queue), {} s simulated", fmt_rate(l.capacity_bps), l.queue, s.sim_time_s)
    };
    r.description(&format!(
        "{} flow{} {path}. Throughput is payload sent per second, retransmissions included; goodput is payload delivered per second, each byte once.",
        s.flows.len(),
        if s.flows.len() == 1 { "" } else { "s" },
    ));
    r.parameter("algorithms", algorithms.join(", "))
        .parameter("flows", s.flows.len())
        .parameter("bottleneck capacity (mean)", fmt_rate(l.capacity_bps))
        .parameter("queue discipline", &l.queue)
        .parameter("simulated time", format!("{} s", s.sim_time_s))
        .parameter("seed", s.seed);
    let flows: Vec<Vec<String>> = s.flows.iter().map(output::flow_row).collect();
    let link = vec![vec![
        format!("{:.1} %", l.utilization * 100.0),
        l.drops.to_string(),
        l.overflow_events.to_string(),
        l.ecn_marks.to_string(),
        format!("{:.1} / {:.1}", l.queue_delay_ms.mean, l.queue_delay_ms.p95),
        format!("{:.1} / {:.0}", l.queue_packets.mean, l.queue_packets.p95),
    ]];
    r.section("Results")
        .table("flows", &output::FLOW_COLUMNS, &flows)
        .table(
            "bottleneck",
            &["utilisation", "drops", "overflow events", "ECN marks", "queueing delay mean/p95 (ms)", "queue mean/p95 (packets)"],
            &link,
        )
        .text(&format!(
            "Jain's fairness index {:.3} (goodput, {:.0}-{:.0} s).",
            s.jain_index, s.fairness_window_s[0], s.fairness_window_s[1]
        ));
    if !plots.is_empty() {
        r.section("Plots").plots(plots)?;
    }
    if let Some(toml) = scenario {
        r.section("Scenario").text("`cclab run scenario.toml` repeats this run:").code(toml);
    }
    Ok(r)
}

/// The command: plots, report, and their paths on stdout.
pub fn plot(dir: &Path) -> Result<(), UserError> {
    let d = RunData::load(dir)?;
    let plots = plot::plot_run(&dir.join("plots"), &d)?;
    let scenario = std::fs::read_to_string(dir.join("scenario.toml")).ok();
    let report = run_report(&d, &plots, scenario.as_deref())?;
    let html = dir.join("report.html");
    report.write(&html)?;
    for p in &plots {
        println!("{}", p.png.display());
        println!("{}", p.svg.display());
    }
    println!("{}", html.display());
    Ok(())
}
