//! The seed's "Why host discovery is different": "If a probe gets no response, it's not counted
//! as a drop as it would be with TCP", and its closing "Host congestion control is unchanged,
//! because per-host is more like a plain TCP stream".
//!
//! The first is tested against the alternative it names. Each workload's scaled-2007 scans run
//! again with TCP's rule, every scan probe that times out unanswered a drop
//! ([`cc::scan::VariantRules::with_unanswered_as_drop`]), on the same check seeds. TCP's rule
//! halves the group window once per window of unanswered probes. When most probes go to dead
//! addresses, every window has one, so the window stays near its floor (`low_cwnd` 1) and the
//! scan's rate with it. The seed's rule holds when TCP's scan is the slower on every seed.
//!
//! The second is a statement about nmap's code: scaled-2007 scales only the group's increments
//! ([`cc::scan::Variant`]'s table). Whether a host window ever limits a send is counted in every
//! scan ([`sim::scan::ScanResult::host_window_holds`]). In host discovery a host gets at most
//! two tries of each of its probe types (≤ 6 probes here), under the host window's initial 10;
//! its window falls (to 1) only on a drop, a reply to a retransmission, and that reply ends the
//! host's discovery. So no host window should hold a send under nmap's rules, and the choice of
//! host increments cannot show in these scan times.

use crate::stats::mean;
use crate::table::Table;
use crate::verdict::Claim;
use sim::scan::ScanResult;

pub const SEED_NOT_A_DROP: &str = "\"If a probe gets no response, it's not counted as a drop as it would be with TCP\"";
pub const SEED_HOSTS_UNCHANGED: &str = "\"This is only for group congestion control variables. Host congestion control is unchanged, because per-host is more like a plain TCP stream.\"";

/// The comparison table's header; [`row`] fills one line per workload.
pub fn table() -> Table {
    Table::new(
        "unanswered probes: nmap's rule (not a drop) against TCP's (a drop), scaled-2007, check seeds (means)",
        &[
            "addresses",
            "probes timed out / sent",
            "group drops, nmap's rule",
            "group drops, TCP's rule",
            "mean group cwnd, nmap's rule",
            "mean group cwnd, TCP's rule",
            "scan time, nmap's rule",
            "scan time, TCP's rule",
            "TCP's / nmap's",
        ],
    )
}

fn means(runs: &[ScanResult], f: impl Fn(&ScanResult) -> f64) -> f64 {
    mean(&runs.iter().map(f).collect::<Vec<_>>())
}

fn times(runs: &[ScanResult]) -> Vec<f64> {
    runs.iter().map(|r| r.scan_time_s).collect()
}

/// One workload's line of the table and its verdict: `nmap` and `tcp` are the scaled-2007 scans
/// of `hosts` addresses under each rule, paired by seed.
pub fn judge(table: &mut Table, hosts: u32, nmap: &[ScanResult], tcp: &[ScanResult]) -> Claim {
    let (tn, tt) = (times(nmap), times(tcp));
    table.row(vec![
        hosts.to_string(),
        format!("{:.2}", means(nmap, |r| r.timeouts as f64 / r.probes_sent as f64)),
        format!("{:.1}", means(nmap, |r| r.group_drops as f64)),
        format!("{:.1}", means(tcp, |r| r.group_drops as f64)),
        format!("{:.1}", means(nmap, |r| r.mean_group_cwnd)),
        format!("{:.1}", means(tcp, |r| r.mean_group_cwnd)),
        format!("{:.1} s", mean(&tn)),
        format!("{:.1} s", mean(&tt)),
        format!("{:.1}", mean(&tt) / mean(&tn)),
    ]);
    Claim::direction(
        &format!("{hosts} addresses: an unanswered probe is not a drop; TCP's rule (each one a drop) would make the scaled-2007 scan slower"),
        SEED_NOT_A_DROP,
        ("TCP's rule", &tt),
        ("nmap's rule", &tn),
        "s",
    )
    .because(&format!(
        "With TCP's rule the group window averages {:.1} probes against {:.1} with nmap's: {:.0} % of the probes go unanswered, so every window has a drop and halves.",
        means(tcp, |r| r.mean_group_cwnd),
        means(nmap, |r| r.mean_group_cwnd),
        100.0 * means(nmap, |r| r.timeouts as f64 / r.probes_sent as f64),
    ))
}

/// The host-window row, from the sends held by a host window in every check scan under nmap's
/// rules (`nmap`) and in the TCP-rule scans (`tcp`), which show the count is not blind.
pub fn hosts_unchanged(nmap: &[u64], tcp: &[u64]) -> Claim {
    let with_holds = |xs: &[u64]| xs.iter().filter(|&&x| x > 0).count();
    let held: u64 = nmap.iter().sum();
    let ours = format!(
        "host windows held {held} sends in {} scans under nmap's three variants ({} of {} TCP-rule scans had holds, {} in all)",
        nmap.len(),
        with_holds(tcp),
        tcp.len(),
        tcp.iter().sum::<u64>()
    );
    let reason = if held == 0 {
        "no host window held a send under nmap's rules: each address gets at most two tries of each probe type (at most 6 probes here), under the host window's initial 10, and a host window falls to 1 only on a drop, a reply to a retransmission, which ends that host's discovery. The host increments cannot show in host-discovery times; they matter in port scans, which the seed did not time. Under TCP's rule, where unanswered probes cut host windows too, they do hold sends, so the count can see them."
    } else {
        "host windows held some sends under nmap's rules, but the seed gives no figure or graph of host windows to compare with."
    };
    Claim::not_comparable("host congestion control unchanged by the scaling (only the group's increments scaled)", SEED_HOSTS_UNCHANGED.into(), ours, reason)
}
