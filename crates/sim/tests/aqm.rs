//! Queue disciplines: RED and CoDel keep the standing queue short where drop-tail fills the
//! buffer; with ECN they mark instead of dropping.

mod common;
use ::sim::qdisc::{CodelConfig, QdiscConfig, RedConfig};
use ::sim::QueueLimit;
use common::*;

fn five_reno(qdisc: QdiscConfig, ecn: bool) -> ::sim::RunResult {
    let mut l = link(40.0, QueueLimit::Bdp(2.0));
    l.qdisc = qdisc;
    let flows = (0..5)
        .map(|_| {
            let mut f = flow("reno", 100);
            f.sender.ecn = ecn;
            f
        })
        .collect();
    simulate(3, 60, l, flows)
}

/// Drop-tail lets Reno fill a 2-BDP buffer (a standing queue of about a BDP: ~100 ms); RED
/// holds the average near its thresholds (ARED defaults: min_th 8.3, max_th 25 packets at
/// 40 Mbit/s) and CoDel the sojourn time near its 5 ms target. RED's thresholds are far below
/// the BDP/√N ≈ 150 packets that five Reno flows need to keep the link full (Appenzeller et
/// al., SIGCOMM 2004), so it buys its short queue with utilisation; CoDel, whose target is 5 %
/// of its 100 ms interval, keeps the link busy (Nichols & Jacobson 2012).
#[test]
fn red_and_codel_keep_the_queue_short_where_drop_tail_fills_it() {
    let droptail = five_reno(QdiscConfig::DropTail, false);
    let red = five_reno(QdiscConfig::Red(RedConfig::default()), false);
    let codel = five_reno(QdiscConfig::Codel(CodelConfig::default()), false);
    let dt = droptail.summary.link.queue_delay_ms.mean;
    assert!(dt > 40.0, "drop-tail mean queueing delay {dt} ms");
    // RED: the queue stays below 2·max_th = 50 packets (where the gentle region ends and
    // every packet is dropped) instead of filling the 666-packet buffer.
    let red_q = &red.summary.link.queue_packets;
    assert!(red_q.mean < 25.0 && red_q.p95 < 50.0, "RED queue {red_q:?} packets");
    assert!(red.summary.link.aqm_drops > 0 && red.summary.link.overflow_drops == 0);
    // CoDel: the sojourn time stays within a few targets (RFC 8289 aims at 5 ms).
    let codel_d = codel.summary.link.queue_delay_ms.mean;
    assert!(codel_d < 15.0, "CoDel mean queueing delay {codel_d} ms");
    assert!(codel.summary.link.utilization > 0.9, "CoDel utilisation {}", codel.summary.link.utilization);
    for r in [&red, &codel] {
        assert!(r.summary.link.queue_delay_ms.mean < dt / 3.0);
    }
}

/// RFC 3168: with ECN-capable senders, RED and CoDel mark instead of dropping, so the flows
/// get the same congestion signal without losses.
#[test]
fn with_ecn_the_aqms_mark_instead_of_dropping() {
    for q in [QdiscConfig::Red(RedConfig::default()), QdiscConfig::Codel(CodelConfig::default())] {
        let r = five_reno(q.clone(), true);
        let l = &r.summary.link;
        assert!(l.ecn_marks > 50, "{}: {} marks", q.name(), l.ecn_marks);
        assert_eq!(l.aqm_drops, 0, "{}: AQM drops with ECN", q.name());
        let retrans: u64 = r.summary.flows.iter().map(|f| f.retransmits).sum();
        let without = five_reno(q.clone(), false);
        let retrans_without: u64 = without.summary.flows.iter().map(|f| f.retransmits).sum();
        assert!(retrans * 2 < retrans_without, "{}: {retrans} retransmissions with ECN, {retrans_without} without", q.name());
    }
}
