//! Comparisons with the seeds' numbers, and an experiment's files: tables as CSV, `results.md`
//! and `report.html`.

use super::{Experiment, Options, Output};
pub use crate::table::Table;
use crate::UserError;
use std::fmt::Write as _;

/// Our figure beside the seed's, with the tolerance we accept.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub metric: String,
    pub ours: f64,
    pub seed: f64,
    /// Accepted relative difference, e.g. 0.25 for ±25 %.
    pub tolerance: f64,
    pub unit: String,
}

impl Comparison {
    pub fn within(&self) -> bool {
        if self.seed == 0.0 {
            return self.ours.abs() <= self.tolerance;
        }
        ((self.ours - self.seed) / self.seed).abs() <= self.tolerance
    }
}

pub fn comparison_table(cs: &[Comparison]) -> Table {
    let mut t = Table::new("ours beside the seed's", &["metric", "ours", "seed", "tolerance", "agrees"]);
    for c in cs {
        t.row(vec![
            c.metric.clone(),
            format!("{:.3} {}", c.ours, c.unit),
            format!("{:.3} {}", c.seed, c.unit),
            format!("±{:.0} %", c.tolerance * 100.0),
            if c.within() { "yes".into() } else { "NO: differs".into() },
        ]);
    }
    t
}

fn slug(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect::<String>().split('-').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("-")
}

/// Writes every table as CSV and the whole output as `results.md`.
pub fn write_outputs(e: &Experiment, opts: &Options, out: &Output) -> Result<(), UserError> {
    let io = |p: &std::path::Path, err: String| UserError(format!("{}: {err}", p.display()));
    let mut md = format!("# {}: {}\n\nSeed: {}.\n\n{}\n\n", e.name, e.title, e.seed, e.description);
    if opts.fast {
        md.push_str("Fast mode: shortened runs and fewer seeds.\n\n");
    }
    for t in &out.tables {
        let p = opts.out.join(format!("{}.csv", slug(&t.title)));
        std::fs::write(&p, t.to_csv().map_err(|err| io(&p, err))?).map_err(|err| io(&p, err.to_string()))?;
        md.push_str(&t.to_markdown());
        md.push('\n');
    }
    if !out.comparisons.is_empty() {
        md.push_str(&comparison_table(&out.comparisons).to_markdown());
        md.push('\n');
    }
    for n in &out.notes {
        let _ = writeln!(md, "- {n}");
    }
    let p = opts.out.join("results.md");
    std::fs::write(&p, md).map_err(|err| io(&p, err.to_string()))?;
    report(e, opts, out)?.write(&opts.out.join("report.html"))?;
    Ok(())
}

/// The experiment's `report.html`: description, parameters, tables, ours beside the seed's,
/// notes and plots, in one self-contained file.
fn report(e: &Experiment, opts: &Options, out: &Output) -> Result<crate::report::Report, UserError> {
    let mut r = crate::report::Report::new(&format!("cclab experiment {}: {}", e.name, e.title));
    r.description(e.description);
    r.parameter("experiment", e.name).parameter("seed document", e.seed).parameter("mode", if opts.fast { "fast" } else { "full" });
    let results = r.section("Results");
    for t in &out.tables {
        results.table(&t.title, &t.header, &t.rows);
    }
    if !out.comparisons.is_empty() {
        r.section("Ours beside the seed's").comparisons(&out.comparisons);
    }
    if !out.notes.is_empty() {
        let notes = r.section("Notes");
        for n in &out.notes {
            notes.text(n);
        }
    }
    for (heading, files) in &out.plots {
        r.section(heading).plots(files)?;
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_mark_what_is_out_of_tolerance() {
        let c = |ours, seed| Comparison { metric: "x".into(), ours, seed, tolerance: 0.2, unit: "".into() };
        assert!(c(1.1, 1.0).within());
        assert!(!c(1.3, 1.0).within());
        assert!(!c(0.7, 1.0).within());
        let t = comparison_table(&[c(1.1, 1.0), c(2.0, 1.0)]);
        assert_eq!(t.rows[0][4], "yes");
        assert!(t.rows[1][4].starts_with("NO"));
    }

    #[test]
    fn csv_and_markdown() {
        let mut t = Table::new("Mathis, Reno", &["p", "goodput"]);
        t.row(vec!["1 %".into(), "1.4".into()]);
        assert_eq!(t.to_csv().unwrap(), "p,goodput\n1 %,1.4\n");
        assert!(t.to_markdown().contains("| 1 % | 1.4 |"));
        assert_eq!(slug("Mathis, Reno (RTT 100 ms)"), "mathis-reno-rtt-100-ms");
    }
}
