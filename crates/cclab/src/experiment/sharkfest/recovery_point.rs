//! NewReno's recovery point (the talk's NewReno slide, RFC 6582): "Remember highest SEQ at
//! the moment of packet loss detection ("Recovery point")" and "Do NOT deflate cwnd unless we
//! receive an ACK for Recovery Point", so that a burst of losses in one window is repaired in
//! one recovery. Reno (RFC 5681) leaves fast recovery at the first ACK of new data, a partial
//! one included: the holes after it wait for three more duplicate ACKs, which a window
//! thinned by the burst may never bring, and end in a retransmission timeout.
//!
//! Measured on the talk's testbed without SACK (which would repair the holes either way):
//! Reno and NewReno alone under bursty loss (Gilbert-Elliott: bursts of four packets on
//! average, half of each lost, entered at 0.2 % per packet), each on the same seeds, counting
//! retransmission timeouts and goodput.

use super::measure::TESTBED;
use crate::experiment::{run_one, Claim};
use crate::UserError;
use sim::LossSpec;
use std::path::Path;

/// How long each run lasts: a burst begins once per 500 packets sent on average, so at the
/// 3.5-4.5 Mbit/s these flows reach (about 330 packets per second) a run meets about 80.
pub const SECS: u64 = 120;

/// The bursty loss: into a burst with probability 0.2 % per packet, out with 25 % (four
/// packets on average), half of a burst's packets lost.
pub const BURSTS: LossSpec = LossSpec::GilbertElliott { p: 0.002, r: 0.25, one_minus_h: 0.5, one_minus_k: 0.0 };

/// Per seed, for Reno and NewReno: timeouts and goodput (Mbit/s).
#[derive(Clone, Debug, Default)]
pub struct RecoveryPoint {
    pub timeouts: [Vec<f64>; 2],
    pub goodput: [Vec<f64>; 2],
}

pub fn run(seeds: u64, out: &Path) -> Result<RecoveryPoint, UserError> {
    let mut rp = RecoveryPoint::default();
    for (k, cc) in ["reno", "newreno"].into_iter().enumerate() {
        for seed in 1..=seeds {
            let mut cfg = TESTBED.config(TESTBED.flows(&[cc]), SECS, 0.0, seed);
            cfg.link.netem.loss = BURSTS;
            cfg.flows[0].sender.sack = false;
            let r = run_one(cfg, &out.join("recovery-point").join(format!("{cc}-seed-{seed}")))?;
            let f = &r.summary.flows[0];
            rp.timeouts[k].push(f.timeouts as f64);
            rp.goodput[k].push(f.goodput_bps / 1e6);
        }
    }
    Ok(rp)
}

pub fn claims(rp: &RecoveryPoint, claims: &mut Vec<Claim>) {
    let on = format!("alone on {} for {SECS} s, no SACK, bursts of losses", TESTBED.label());
    let seed = "\"Do NOT deflate cwnd unless we receive an ACK for Recovery Point\"";
    let timeouts = Claim::direction(
        &format!("NewReno's recovery point: bursts of losses time Reno out more often than NewReno (retransmission timeouts; {on})"),
        seed,
        ("Reno", &rp.timeouts[0]),
        ("NewReno", &rp.timeouts[1]),
        "timeouts",
    );
    let why = "Reno leaves recovery at the first partial ACK and waits for three more duplicates for each later hole, which a window thinned by the burst may not bring; NewReno resends the next hole on each partial ACK";
    claims.push(if timeouts.holds() { timeouts.because(why) } else { timeouts.because(&format!("{why}; on the seeds where it did not, not traced")) });
    let goodput = Claim::direction(
        &format!("NewReno's recovery point: NewReno delivers more than Reno under bursts of losses (goodput; {on})"),
        seed,
        ("NewReno", &rp.goodput[1]),
        ("Reno", &rp.goodput[0]),
        "Mbit/s",
    );
    claims.push(if goodput.holds() { goodput } else { goodput.because("not on every seed; not traced") });
}
