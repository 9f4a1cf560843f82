//! An experiment's files, written last from its [`Output`]: the verdicts and every table as CSV,
//! all of it as `results.md`, and `report.html` (verdicts first, then tables, notes, plots).

use super::{Experiment, Options, Output};
use crate::verdict::claims_table;
use crate::UserError;
use std::fmt::Write as _;

/// The heading of [`Output::findings`] (its CSV is `findings.csv`).
const FINDINGS: &str = "Does the seed's main finding reproduce?";

/// The heading (and CSV name) of [`Output::against_linux`].
const AGAINST_LINUX: &str = "Ours against Linux on our testbed";

/// The heading (and CSV name) of [`Output::seed_readings`].
const SEED_READINGS: &str = "The seed's statements checked on its own data";

/// The column of [`Output::seed_readings`] that holds what we recomputed from the seed's runs
/// or figures.
const SEED_DATA: &str = "from the seed's own runs or figures";

/// The longest slug: a file name may have 255 bytes, and `.csv` follows.
const SLUG_MAX: usize = 240;

/// A table's title as a file name: lower-case ASCII words joined by `-`, cut after the last
/// whole word that fits in [`SLUG_MAX`].
fn slug(s: &str) -> String {
    let mut out = String::new();
    for word in s.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        if out.len() + 1 + word.len() > SLUG_MAX {
            break;
        }
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&word.to_ascii_lowercase());
    }
    out
}

/// Writes every table as CSV and the whole output as `results.md`.
pub fn write_outputs(e: &Experiment, opts: &Options, out: &Output) -> Result<(), UserError> {
    let io = |p: &std::path::Path, err: String| UserError(format!("{}: {err}", p.display()));
    let mut md = format!("# {}: {}\n\nSeed: {}.\n\n{}\n\n", e.name, e.title, e.seed, e.description);
    if opts.fast {
        md.push_str("Fast mode: shortened runs and fewer seeds.\n\n");
    }
    if !out.findings.is_empty() {
        let mut t = crate::table::Table::new(FINDINGS, &["finding", "outcome", "verdict rows (# = data row of verdicts.csv)", "ours"]);
        for f in &out.findings {
            t.row(vec![f.finding.clone(), f.outcome.label().into(), f.rows.clone(), f.ours.clone()]);
        }
        let p = opts.out.join("findings.csv");
        std::fs::write(&p, t.to_csv().map_err(|err| io(&p, err))?).map_err(|err| io(&p, err.to_string()))?;
        md.push_str(&t.to_markdown());
        md.push('\n');
    }
    let verdicts = claims_table(&out.claims);
    let mut readings = claims_table(&out.seed_readings);
    readings.title = SEED_READINGS.into();
    readings.header[2] = SEED_DATA.into();
    let mut references = claims_table(&out.against_linux);
    references.title = AGAINST_LINUX.into();
    references.header[1] = "Linux".into();
    let tables = [(!out.claims.is_empty()).then_some(&verdicts), (!out.seed_readings.is_empty()).then_some(&readings), (!out.against_linux.is_empty()).then_some(&references)];
    for t in tables.into_iter().flatten().chain(&out.tables) {
        let p = opts.out.join(format!("{}.csv", slug(&t.title)));
        std::fs::write(&p, t.to_csv().map_err(|err| io(&p, err))?).map_err(|err| io(&p, err.to_string()))?;
        md.push_str(&t.to_markdown());
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

/// The experiment's `report.html`: description, parameters, verdicts, tables, notes and plots, in one self-contained file.
fn report(e: &Experiment, opts: &Options, out: &Output) -> Result<crate::report::Report, UserError> {
    let mut r = crate::report::Report::new(&format!("cclab experiment {}: {}", e.name, e.title));
    r.description(e.description);
    r.parameter("experiment", e.name).parameter("seed document", e.seed).parameter("mode", if opts.fast { "fast" } else { "full" });
    if !out.findings.is_empty() {
        r.section(FINDINGS).text("Each of the seed's main findings, judged by the rows of the verdict table below that decide it (by their numbers, #): reproduced when all of them hold, not settled when none fails but some are not settled, not reproduced when none holds, partly reproduced otherwise.").findings(&out.findings);
    }
    if !out.claims.is_empty() {
        match out.reference {
            None => r.section("Verdicts: the seed's claims beside ours").claims("seed", &out.claims),
            Some(reference) => r.section(&format!("Verdicts: ours against the {reference}")).claims(reference, &out.claims),
        };
    }
    if !out.seed_readings.is_empty() {
        r.section(&format!("{SEED_READINGS} (not counted among the verdicts above: none of our runs enters them)")).claims_as("seed", SEED_DATA, &out.seed_readings);
    }
    if !out.against_linux.is_empty() {
        r.section(&format!("{AGAINST_LINUX} (not claims of the seed, and not counted among its verdicts)")).claims("Linux", &out.against_linux);
    }
    let results = r.section("Results");
    for t in &out.tables {
        results.table(&t.title, &t.header, &t.rows);
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
    use crate::table::Table;

    #[test]
    fn csv_and_markdown() {
        let mut t = Table::new("Mathis, Reno", &["p", "goodput"]);
        t.row(vec!["1 %".into(), "1.4".into()]);
        assert_eq!(t.to_csv().unwrap(), "p,goodput\n1 %,1.4\n");
        assert!(t.to_markdown().contains("| 1 % | 1.4 |"));
        assert_eq!(slug("Mathis, Reno (RTT 100 ms)"), "mathis-reno-rtt-100-ms");
        // A title longer than a file name may be is cut after a whole word.
        let long = slug(&"word ".repeat(100));
        assert!(long.len() <= SLUG_MAX && long.ends_with("word") && !long.ends_with('-'), "{long}");
    }
}
