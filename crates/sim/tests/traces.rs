//! Trace-driven links (Mahimahi format), with the cellular traces in `traces/`.

mod common;
use ::sim::{QueueLimit, Trace};
use cc::Time;
use common::*;

fn verizon() -> Trace {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../traces/Verizon-LTE-short.down");
    Trace::parse("Verizon-LTE-short.down", &std::fs::read_to_string(path).unwrap()).unwrap()
}

fn over_trace(cc: &str) -> ::sim::RunResult {
    let mut l = link(10.0, QueueLimit::Packets(200));
    l.trace = Some(verizon());
    let mut f = flow(cc, 40);
    f.start = Time::ZERO;
    simulate(1, 60, l, vec![f])
}

/// Each delivery opportunity carries one packet at most: nothing crosses faster than the trace,
/// and a loss-based flow with a 200-packet buffer keeps the link busy. Pantheon's cellular
/// results: CUBIC fills the buffer (seconds of delay), BBR keeps the delay far lower.
#[test]
fn flows_follow_a_cellular_trace() {
    let trace = verizon();
    let cubic = over_trace("cubic");
    let bbr = over_trace("bbr");
    for r in [&cubic, &bbr] {
        let l = &r.summary.link;
        assert!(l.utilization <= 1.0 + 1e-9, "utilisation {}", l.utilization);
        let capacity_bps = trace.opportunities_before(Time::from_secs(60)) as f64 * 1500.0 * 8.0 / 60.0;
        assert!((l.capacity_bps - capacity_bps).abs() < 1.0);
        assert!(r.summary.flows[0].goodput_bps < capacity_bps);
    }
    assert!(cubic.summary.link.utilization > 0.9, "{}", cubic.summary.link.utilization);
    assert!(
        bbr.summary.flows[0].rtt_ms.p95 < 0.5 * cubic.summary.flows[0].rtt_ms.p95,
        "BBR p95 RTT {} vs CUBIC {}",
        bbr.summary.flows[0].rtt_ms.p95,
        cubic.summary.flows[0].rtt_ms.p95
    );
}
