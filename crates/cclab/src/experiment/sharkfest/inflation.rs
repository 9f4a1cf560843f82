//! Reno's window inflation in fast recovery, as a capture shows it (the talk's Reno slide:
//! "set cwnd to sstresh+3", "Increase cwnd on 1 SMSS for every received next Dup ACK
//! ("inflation phase")", "Decrease cwnd to sstresh after receiving higher ACK"; RFC 5681
//! §3.2 steps 2-6).
//!
//! Our sender keeps no inflated window to read: like Linux's Reno emulation without SACK it
//! counts each duplicate ACK as a segment that left the network and sends while that pipe is
//! below cwnd = ssthresh. Both rules send the same segments, so the test is what Wireshark
//! would see: a tap on the sender records every segment sent and every ACK received, and each
//! recovery is read off it. With `F` segments outstanding at the third duplicate ACK and
//! ssthresh = `s`, the inflated window after duplicate ACK `j ≥ 3` is `s + j`, and new data may
//! go while the `F + n` segments outstanding are below it: after duplicate ACK `j` the recovery
//! has sent `N(j) = max(0, s + j − F)` new segments. So:
//!
//! - from the first duplicate ACK that releases one, **each further duplicate ACK releases
//!   exactly one new segment** (the "+1 SMSS per Dup ACK");
//! - a recovery that sees `D` duplicate ACKs sends `N(D) = max(0, s + D − F)` new segments in
//!   all. From one loss `D` is `F − 1` (one per segment behind the hole, those limited transmit
//!   sent included; the retransmission, sent first, fills the hole before any new segment
//!   arrives), or `F − 2` where the ACK for the segment before the hole was still delayed and
//!   the first segment behind it advanced the cumulative ACK instead: about half a window of
//!   new data. `s` is half the window at the loss: RFC 5681's FlightSize/2 = ⌊F/2⌋, or Linux's
//!   cwnd/2 with cwnd one or two below `F` (limited transmit's segments, RFC 3042), so
//!   ⌊F/2⌋ − 1 to ⌊F/2⌋. Several losses in one window bring fewer duplicates, and less or no
//!   new data.
//!
//! Run alone on the talk's testbed without SACK (Reno, 60 s, one BDP of buffer). Each fast
//! recovery is read from the third duplicate ACK (where the fast retransmit must go, RFC 5681
//! §3.2 step 2) to the first ACK that advances; the slow start after a timeout, where
//! duplicates also arrive, is left out (its retransmission is not the fast one).

use super::measure::{ALONE_S, TESTBED};
use crate::experiment::Claim;
use crate::verdict::Bound;
use crate::UserError;
use cc::Time;
use sim::endpoint::Back;
use sim::packet::DataPacket;
use sim::tap::{FlowInfo, Tap};
use std::cell::RefCell;
use std::rc::Rc;

/// What the sender's capture holds, in order: a segment sent (its number, a retransmission or
/// not) or an ACK received (its cumulative ACK).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seen {
    Sent { seq: u64, retransmission: bool },
    Ack { cum_ack: u64 },
}

/// A tap recording flow 0's segments and ACKs.
struct Capture(Rc<RefCell<Vec<Seen>>>);

impl Tap for Capture {
    fn flow_started(&mut self, _: Time, _: u32, _: &FlowInfo) {}
    fn data_sent(&mut self, _: Time, p: &DataPacket) {
        if p.flow == 0 {
            self.0.borrow_mut().push(Seen::Sent { seq: p.seq, retransmission: p.retransmission });
        }
    }
    fn feedback_received(&mut self, _: Time, flow: u32, back: &Back) {
        if let (0, Back::Ack(a)) = (flow, back) {
            self.0.borrow_mut().push(Seen::Ack { cum_ack: a.cum_ack });
        }
    }
}

/// One fast recovery read off a capture.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovery {
    /// Segments outstanding at the third duplicate ACK (`snd_nxt − snd_una`).
    pub outstanding: u64,
    /// New segments sent after each duplicate ACK from the third on, until the next ACK.
    pub released: Vec<u64>,
    pub retransmissions: u64,
    /// The segment at the hole was resent before the fourth duplicate ACK: a fast
    /// retransmit, not the slow start that follows a timeout.
    pub fast_retransmit: bool,
}

impl Recovery {
    /// The duplicate ACKs of the recovery (`D`).
    pub fn dupacks(&self) -> u64 {
        self.released.len() as u64 + 2
    }

    pub fn new_segments(&self) -> u64 {
        self.released.iter().sum()
    }

    /// From the first duplicate ACK that released a segment on, each released exactly one.
    pub fn one_per_dupack(&self) -> bool {
        self.released.iter().skip_while(|&&n| n == 0).all(|&n| n == 1)
    }

    /// The law's range for the new segments the recovery sends, `max(0, s + D − F)` with `s`
    /// from ⌊F/2⌋ − 1 to ⌊F/2⌋ (module doc).
    pub fn expected(&self) -> (u64, u64) {
        let half = self.outstanding / 2;
        let n = |s: u64| (s + self.dupacks()).saturating_sub(self.outstanding);
        (n(half.saturating_sub(1)), n(half))
    }

    /// The new segments sent lie in the law's range.
    pub fn within_law(&self) -> bool {
        let (lo, hi) = self.expected();
        (lo..=hi).contains(&self.new_segments())
    }
}

/// Every fast recovery in a capture: from the third duplicate ACK to the first ACK that
/// advances, with what was sent between.
pub fn recoveries(seen: &[Seen]) -> Vec<Recovery> {
    let (mut una, mut nxt, mut dups) = (0u64, 0u64, 0u64);
    let mut open: Option<Recovery> = None;
    let mut out = Vec::new();
    for s in seen {
        match *s {
            Seen::Sent { seq, retransmission } => {
                if let Some(r) = &mut open {
                    if retransmission {
                        r.retransmissions += 1;
                        r.fast_retransmit |= seq == una && r.released.len() == 1;
                    } else if seq >= nxt {
                        if let Some(last) = r.released.last_mut() {
                            *last += 1;
                        }
                    }
                }
                nxt = nxt.max(seq + 1);
            }
            Seen::Ack { cum_ack } if cum_ack > una => {
                una = cum_ack;
                dups = 0;
                out.extend(open.take());
            }
            Seen::Ack { .. } if nxt > una => {
                dups += 1;
                match (&mut open, dups) {
                    (None, 3) => open = Some(Recovery { outstanding: nxt - una, released: vec![0], retransmissions: 0, fast_retransmit: false }),
                    (Some(r), _) => r.released.push(0),
                    _ => {}
                }
            }
            Seen::Ack { .. } => {}
        }
    }
    out
}

/// Per seed, the fast recoveries of Reno alone without SACK on the testbed.
pub fn run(seeds: u64) -> Result<Vec<Vec<Recovery>>, UserError> {
    (1..=seeds)
        .map(|seed| {
            let mut cfg = TESTBED.config(TESTBED.flows(&["reno"]), ALONE_S, 0.0, seed);
            cfg.flows[0].sender.sack = false;
            cfg.sample_interval = None;
            let seen: Rc<RefCell<Vec<Seen>>> = Rc::default();
            let sim = sim::Simulation::new(cfg).map_err(UserError)?;
            sim.run_streaming(Box::new(sim::sink::Discard), Some(Box::new(Capture(seen.clone()))), |_| {});
            let all = recoveries(&seen.take());
            Ok(all.into_iter().filter(|r| r.retransmissions > 0).collect())
        })
        .collect()
}

pub fn claims(per_seed: &[Vec<Recovery>], claims: &mut Vec<Claim>) {
    let on = format!("alone on {} for {ALONE_S} s without SACK, one BDP of buffer, fast recoveries read off the sender's capture", TESTBED.label());
    let all: Vec<&Recovery> = per_seed.iter().flatten().collect();
    let seed = "\"set cwnd to sstresh+3\", \"Increase cwnd on 1 SMSS for every received next Dup ACK (\"inflation phase\")\", then \"Decrease cwnd to sstresh\"";
    if all.is_empty() {
        claims.push(Claim::not_comparable(&format!("Reno's window inflation ({on})"), seed.into(), "no fast recovery".into(), "no run had a fast recovery"));
        return;
    }
    let share = |f: &dyn Fn(&Recovery) -> bool| -> Vec<f64> {
        per_seed.iter().filter(|s| !s.is_empty()).map(|s| s.iter().filter(|r| f(r)).count() as f64 / s.len() as f64).collect()
    };
    claims.push(
        Claim::bound(
            &format!("Reno: \"Send Fast retransmission\" at the third duplicate ACK, before the window is set (the hole resent before the fourth duplicate: share of recoveries, per seed; {on})"),
            "\"Send Fast retransmission and then: Set sstresh to cwnd/2, set cwnd to sstresh+3\"",
            &share(&|r| r.fast_retransmit),
            Bound::AtLeast(1.0),
            "",
        )
        .check("RFC 5681 §3.2 step 2: the lost segment MUST be retransmitted at the third duplicate ACK, whatever the window (Linux lets it out through tcp_cwnd_reduction's fast_rexmit); only the new data waits for the inflated window"),
    );
    let dupacks: u64 = all.iter().map(|r| r.dupacks()).sum();
    let slope = share(&|r| r.one_per_dupack());
    let one_each = Claim::bound(
        &format!("Reno's inflation phase: from the first duplicate ACK that releases new data, each further one releases exactly one new segment (share of recoveries where every one does, per seed; {on})"),
        seed,
        &slope,
        Bound::AtLeast(1.0),
        "",
    )
    .check(&format!(
        "the inflated window grows by one per duplicate ACK, so once the outstanding data is below it each duplicate ACK lets one new segment out; our sender counts each duplicate ACK as a segment that left (Linux's Reno emulation) and sends the same segments: {} recoveries, {dupacks} duplicate ACKs",
        all.len()
    ));
    claims.push(one_each);
    let within = share(&|r| r.within_law());
    let mean_of = |f: &dyn Fn(&Recovery) -> f64| all.iter().map(|r| f(r)).sum::<f64>() / all.len() as f64;
    let half = Claim::bound(
        &format!("Reno's inflation: a recovery with F segments outstanding at the third duplicate ACK and D duplicates sends s + D − F new segments (none if that is below 1), s from ⌊F/2⌋ − 1 to ⌊F/2⌋ (share of recoveries within, per seed; {on})"),
        seed,
        &within,
        Bound::AtLeast(1.0),
        "",
    )
    .check(&(format!(
        "with ssthresh s, the window inflated to s + j after duplicate ACK j lets out s + j − F new segments; s is half the window at the loss. Ours: {:.1} outstanding at the third duplicate ACK, {:.1} duplicates and {:.1} new segments sent in recovery on average, over {} fast recoveries; {} of them sent the fast retransmit before the fourth duplicate",
        mean_of(&|r| r.outstanding as f64),
        mean_of(&|r| r.dupacks() as f64),
        mean_of(&|r| r.new_segments() as f64),
        all.len(),
        all.iter().filter(|r| r.fast_retransmit).count()
    ) + &outside(&all)));
    claims.push(half);
}

/// The recoveries outside the law's range, for the reader to check: F, D and N of each (the
/// first five).
fn outside(all: &[&Recovery]) -> String {
    let out: Vec<String> = all
        .iter()
        .filter(|r| !r.within_law())
        .take(5)
        .map(|r| format!("F {}, D {}, N {} (the law: {} to {})", r.outstanding, r.dupacks(), r.new_segments(), r.expected().0, r.expected().1))
        .collect();
    if out.is_empty() {
        String::new()
    } else {
        format!(". Outside: {}", out.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(seq: u64) -> Seen {
        Seen::Sent { seq, retransmission: false }
    }

    fn ack(cum_ack: u64) -> Seen {
        Seen::Ack { cum_ack }
    }

    /// Ten segments outstanding (0-9), segment 0 lost: nine duplicate ACKs. With ssthresh 5 the
    /// inflated window s + j passes F + n = 10 + n from j = 6 on: the duplicate ACKs 6 to 9
    /// each release one new segment, four in all = s − 1.
    #[test]
    fn a_one_loss_recovery_by_hand() {
        let mut seen: Vec<Seen> = (0..10).map(sent).collect();
        seen.extend([ack(0), ack(0), ack(0), Seen::Sent { seq: 0, retransmission: true }, ack(0), ack(0)]);
        for j in 6..=9 {
            seen.push(ack(0));
            seen.push(sent(10 + j - 6));
        }
        seen.push(ack(10));
        let r = recoveries(&seen);
        assert_eq!(r.len(), 1);
        let r = &r[0];
        assert_eq!((r.outstanding, r.dupacks(), r.retransmissions), (10, 9, 1));
        assert_eq!(r.released, [0, 0, 0, 1, 1, 1, 1]);
        assert!(r.one_per_dupack());
        assert_eq!(r.new_segments(), 4);
        assert_eq!(r.expected(), (3, 4));
    }

    /// Two new segments on one duplicate ACK break "one each"; fewer than three duplicate ACKs
    /// open no recovery.
    #[test]
    fn a_burst_breaks_one_per_dupack_and_two_dupacks_are_no_recovery() {
        let mut seen: Vec<Seen> = (0..6).map(sent).collect();
        seen.extend([ack(0), ack(0), ack(0), Seen::Sent { seq: 0, retransmission: true }, ack(0), sent(6), sent(7), ack(8)]);
        let r = recoveries(&seen);
        assert_eq!(r[0].released, [0, 2]);
        assert!(!r[0].one_per_dupack());
        let short: Vec<Seen> = (0..4).map(sent).chain([ack(0), ack(0), ack(4)]).collect();
        assert!(recoveries(&short).is_empty());
    }
}
