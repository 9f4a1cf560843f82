//! The seed's "Why host discovery is different": "If a probe gets no response, it's not counted
//! as a drop as it would be with TCP", and its closing "Host congestion control is unchanged,
//! because per-host is more like a plain TCP stream".
//!
//! The first describes nmap's rule, which our model follows by construction; what can be
//! measured is the seed's reason for it ("It's abnormal for 95% of them not to be responded
//! to"), against the alternative it names. Each workload's scaled-wiki scans run again with
//! TCP's rule, every scan probe that times out unanswered a drop
//! ([`cc::scan::VariantRules::with_unanswered_as_drop`]), on the same check seeds. TCP's rule
//! halves the group window at most once per window of probes (a drop counts only for probes
//! sent after the last one; the first window of each 4096-address batch, sent at the batch's
//! start, never counts). When most probes go to dead addresses, drops come every window or
//! two (the table prints the rate), so the window stays near its floor (`low_cwnd` 1) and the
//! scan's rate with it. The
//! counterfactual is ours: the row holds when TCP's scan is the slower on every seed, both
//! scans having finished.
//!
//! The second is a statement about nmap's code: scaled-wiki scales only the group's increments
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

pub const SEED_NOT_A_DROP: &str = "\"It's abnormal for 95% of them not to be responded to. ultra_scan, on the other hand, gets a response to only a fraction of its probes. If a probe gets no response, it's not counted as a drop as it would be with TCP.\"";
pub const SEED_HOSTS_UNCHANGED: &str = "\"This is only for group congestion control variables. Host congestion control is unchanged, because per-host is more like a plain TCP stream.\"";

/// The comparison table's header; [`row`] fills one line per workload.
pub fn table() -> Table {
    Table::new(
        "unanswered probes: nmap's rule (not a drop) against TCP's (a drop), scaled-wiki, check seeds (means)",
        &[
            "addresses",
            "timeouts per packet sent (pings included)",
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

/// One workload's line of the table and its verdict: `nmap` and `tcp` are the scaled-wiki scans
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
    let claim = format!("{hosts} addresses: an unanswered probe is not a drop, because most go unanswered: with TCP's rule (each one a drop) the scaled-wiki scan would be slower (ours, a counterfactual)");
    let unfinished = nmap.iter().chain(tcp).filter(|r| !r.finished).count();
    if unfinished > 0 {
        return Claim::not_comparable(&claim, SEED_NOT_A_DROP.into(), format!("{unfinished} scans hit the time limit"), "a scan cut off by the time limit is not a scan time");
    }
    // Windows of probes sent: packets over the mean window; group drops per window under each rule.
    let drops_per_window = |rs: &[ScanResult]| means(rs, |r| r.group_drops as f64 * r.mean_group_cwnd / r.probes_sent as f64);
    Claim::direction(&claim, SEED_NOT_A_DROP, ("TCP's rule", &tt), ("nmap's rule", &tn), "s").because(&format!(
        "{:.0} % of the packets sent time out unanswered. With TCP's rule the scan has {:.2} group drops per window of probes sent (nmap's rule: {:.3}), and its group window averages {:.1} probes against {:.1}.",
        100.0 * means(nmap, |r| r.timeouts as f64 / r.probes_sent as f64),
        drops_per_window(tcp),
        drops_per_window(nmap),
        means(tcp, |r| r.mean_group_cwnd),
        means(nmap, |r| r.mean_group_cwnd),
    ))
}

/// The host-window row, from the sends held by a host window in every check scan under nmap's
/// rules (`nmap`) and in the TCP-rule scans (`tcp`), which show the count is not blind.
pub fn hosts_unchanged(nmap: &[u64], tcp: &[u64]) -> Claim {
    let with_holds = |xs: &[u64]| xs.iter().filter(|&&x| x > 0).count();
    let held: u64 = nmap.iter().sum();
    let ours = format!(
        "host windows held {held} sends in {} scans under every nmap variant we run ({} of {} TCP-rule scans had holds, {} in all)",
        nmap.len(),
        with_holds(tcp),
        tcp.len(),
        tcp.iter().sum::<u64>()
    );
    let control = if with_holds(tcp) > 0 {
        " Under TCP's rule, where unanswered probes cut host windows too, host windows do hold sends, so the count can see them."
    } else {
        " (The TCP-rule scans had no holds either, so this count is not shown to see any.)"
    };
    let reason = if held == 0 {
        format!("no host window held a send under nmap's rules: each address gets at most two tries of each probe type (at most 6 probes here), under the host window's initial 10, and a host window falls to 1 only on a drop, a reply to a retransmission, which ends that host's discovery. The host increments cannot show in host-discovery times; they matter in port scans, which the seed did not time.{control}")
    } else {
        "host windows held some sends under nmap's rules, but the seed gives no figure or graph of host windows to compare with.".to_string()
    };
    Claim::not_comparable("host congestion control unchanged by the scaling (only the group's increments scaled)", SEED_HOSTS_UNCHANGED.into(), ours, &reason)
}
