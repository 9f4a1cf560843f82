//! The rate path, end to end: a test-only controller that asks for a fixed pacing rate and no
//! window, run as a boxed user-defined controller (`Cc::Custom`) through the sender core and
//! the simulator.

use ::sim::{FlowConfig, LinkConfig, QueueLimit, SimConfig, Simulation};
use cc::transport::{SenderConfig, SenderCore};
use cc::{component_rng, Cc, CongestionControl, Control, Ctx, Feedback, Rate, Snapshot, Time};

/// Sends at `rate`, ignores every feedback: the smallest rate-based controller.
#[derive(Clone)]
struct ToyRate {
    rate: Rate,
    acked: u64,
}

impl CongestionControl for ToyRate {
    fn name(&self) -> &'static str {
        "toy-rate"
    }
    fn on_feedback(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
        self.acked += fb.acked_bytes;
    }
    fn control(&self) -> Control {
        Control { cwnd: None, pacing_rate: Some(self.rate), quantum: 1448 }
    }
    fn snapshot(&self) -> Snapshot {
        Snapshot { cwnd: None, ssthresh: None, pacing_rate: Some(self.rate), bw_estimate: None, min_rtt: None, state: "rate" }
    }
}

#[test]
fn a_rate_based_controller_sends_at_its_pacing_rate() {
    let toy = ToyRate { rate: Rate::from_bits_per_sec(5e6), acked: 0 };
    let sender = SenderCore::with_controller(SenderConfig::default(), Cc::Custom(Box::new(toy)), component_rng(1, 0));
    assert_eq!(sender.controller().name(), "toy-rate");
    let cfg = SimConfig {
        seed: 1,
        duration: Time::from_secs(20),
        sample_interval: Some(Time::from_millis(100)),
        link: LinkConfig { rate: Rate::from_bits_per_sec(40e6), buffer: QueueLimit::Bdp(1.0), ..LinkConfig::default() },
        flows: vec![FlowConfig::new(cc::CcConfig::from_name("none").unwrap(), Time::from_millis(50))],
    };
    let mut sim = Simulation::new(cfg).unwrap();
    sim.replace_sender(0, sender);
    let r = sim.run(|_| {});
    let f = &r.summary.flows[0];
    // Controllers' rates count payload bytes, like the delivery rate they are computed from.
    let expected = 5e6;
    assert!((f.throughput_bps / expected - 1.0).abs() < 0.01, "sent at {} bit/s, asked {expected}", f.throughput_bps);
    assert!((f.goodput_bps / expected - 1.0).abs() < 0.02, "{}", f.goodput_bps);
    // No queue builds: the link is 8 times faster than the flow.
    assert!(r.summary.link.queue_delay_ms.p95 < 1.0, "{:?}", r.summary.link.queue_delay_ms);
    assert_eq!(f.retransmits, 0);
    let pacing = r.series.unwrap().flows.iter().filter_map(|s| s.pacing_rate_mbps).last().unwrap();
    assert_eq!(pacing, 5.0);
}
