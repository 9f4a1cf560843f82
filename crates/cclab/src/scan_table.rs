//! The table of a scan's results, one row per probe-window variant with the seed's figures
//! (scan time, probes sent, hosts found, the `packet_ratio` summary, group drops): what
//! `cclab scan` prints and what the `nmap-scaling` experiment shows per workload. Below both,
//! so the experiment does not call into the command.

use crate::table::Table;
use sim::scan::ScanResult;

/// One row per variant, the seed's columns.
pub fn table(title: &str, results: &[ScanResult]) -> Table {
    let mut t = Table::new(
        title,
        &["variant", "scan time", "probes sent", "hosts found", "ratio min", "q1", "median", "mean", "q3", "max", "group drops"],
    );
    for r in results {
        let p = &r.packet_ratio;
        t.row(vec![
            r.variant.clone(),
            format!("{:.1} s{}", r.scan_time_s, if r.finished { "" } else { " (unfinished)" }),
            r.probes_sent.to_string(),
            format!("{} of {}", r.hosts_found, r.hosts_up),
            format!("{:.2}", p.min),
            format!("{:.2}", p.q1),
            format!("{:.2}", p.median),
            format!("{:.2}", p.mean),
            format!("{:.2}", p.q3),
            format!("{:.2}", p.max),
            r.group_drops.to_string(),
        ]);
    }
    t
}
