//! Proportional Rate Reduction: how much a sender may send per ACK during fast recovery
//! (RFC 6937; Linux `tcp_cwnd_reduction` in net/ipv4/tcp_input.c).
//!
//! When a loss opens fast recovery the congestion controller picks the window to recover to,
//! `ssthresh`. RFC 6675 lets the sender transmit whenever `pipe < cwnd = ssthresh`, so it falls
//! silent for half a window and then sends the rest back to back; after a burst of losses that
//! empties the pipe it sends a burst of `ssthresh − pipe` at once. PRR instead spreads the
//! reduction over the round trip, in proportion to the data the receiver reports delivered,
//! and lands on `ssthresh` when recovery ends. With `DeliveredData` the segments an ACK newly
//! acknowledges (cumulatively or by SACK) and `pipe` the RFC 6675 estimate of segments in
//! flight after it, on every ACK in recovery:
//!
//! ```text
//! prr_delivered += DeliveredData
//! if pipe > ssthresh:                                   // proportional part
//!     sndcnt = ⌈prr_delivered · ssthresh / RecoverFS⌉ − prr_out
//! else:                                                 // reduction bound
//!     CRB:   limit = prr_delivered − prr_out
//!     SSRB:  limit = max(prr_delivered − prr_out, DeliveredData) + 1
//!     sndcnt = min(ssthresh − pipe, limit)
//! sndcnt = max(sndcnt, 1 if prr_out = 0)                // the fast retransmit always goes
//! ```
//!
//! and every segment sent (new or retransmitted) adds one to `prr_out`. The sender may then
//! send while `pipe < pipe_after_ack + sndcnt`: Linux writes exactly this window into
//! `snd_cwnd`, so a later event that lowers `pipe` (RACK marking a segment lost) lets the
//! sender fill the difference without a new ACK.
//!
//! Two choices follow Linux where RFC 6937 leaves room or differs:
//!
//! - `RecoverFS` is the congestion window before the reduction (Linux `prior_cwnd`), not
//!   `snd.nxt − snd.una`: the two differ by the segments limited transmit sent just before
//!   recovery, and the RFC's own examples (cwnd = FlightSize = 20 with two limited-transmit
//!   segments out) need the window.
//! - The slow-start reduction bound adds its extra segment only on an ACK that advanced
//!   `snd.una` without reporting a new loss ([`ReductionBound::SafeAck`], Linux since 5.10
//!   and draft-ietf-tcpm-prr-rfc6937bis). RFC 6937's unconditional `+1`
//!   ([`ReductionBound::SlowStart`]) and the conservative bound are kept for comparison.

/// What limits sending once `pipe` has fallen to `ssthresh` or below.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ReductionBound {
    /// PRR-CRB: strict packet conservation, `limit = prr_delivered − prr_out`.
    Conservative,
    /// PRR-SSRB as RFC 6937 §3 writes it: `limit = max(prr_delivered − prr_out,
    /// DeliveredData) + 1`, a slow start back towards `ssthresh`.
    SlowStart,
    /// Linux's PRR-SSRB: `max(prr_delivered − prr_out, DeliveredData)`, plus one only when the
    /// ACK advanced `snd.una` and reported no new loss (a "safe" ACK).
    SafeAck,
}

/// PRR's state for one recovery episode, in segments.
#[derive(Clone, Debug, PartialEq)]
pub struct Prr {
    bound: ReductionBound,
    /// The window the reduction starts from (Linux `prior_cwnd`).
    recover_fs: u64,
    /// Segments delivered to the receiver since recovery began.
    prr_delivered: u64,
    /// Segments sent since recovery began.
    prr_out: u64,
}

impl Prr {
    /// Recovery begins with `recover_fs` segments of window (RFC 6937 §3 initialisation).
    pub fn start(bound: ReductionBound, recover_fs: u64) -> Prr {
        Prr { bound, recover_fs: recover_fs.max(1), prr_delivered: 0, prr_out: 0 }
    }

    /// An ACK in recovery reported `delivered` segments newly delivered; `pipe` segments are in
    /// flight after it and the controller's target is `ssthresh`. `safe_ack`: the ACK advanced
    /// `snd.una` and marked nothing newly lost. Returns `sndcnt`, the segments the sender may
    /// send in response. Linux leaves the window alone on an ACK that delivers nothing; the
    /// caller does the same by not calling this.
    pub fn on_ack(&mut self, delivered: u64, pipe: u64, ssthresh: u64, safe_ack: bool) -> u64 {
        self.prr_delivered += delivered;
        let (prr_delivered, prr_out) = (self.prr_delivered as i128, self.prr_out as i128);
        let sndcnt = if pipe > ssthresh {
            // ⌈prr_delivered · ssthresh / RecoverFS⌉ − prr_out
            let target = (prr_delivered * ssthresh as i128 + self.recover_fs as i128 - 1) / self.recover_fs as i128;
            target - prr_out
        } else {
            let banked = prr_delivered - prr_out;
            let limit = match self.bound {
                ReductionBound::Conservative => banked,
                ReductionBound::SlowStart => banked.max(delivered as i128) + 1,
                ReductionBound::SafeAck => banked.max(delivered as i128) + safe_ack as i128,
            };
            limit.min((ssthresh - pipe) as i128)
        };
        // RFC 6675's fast retransmit (Linux: "force a fast retransmit upon entering").
        let floor = if self.prr_out == 0 { 1 } else { 0 };
        sndcnt.max(floor) as u64
    }

    /// `n` segments were sent during recovery.
    pub fn on_send(&mut self, n: u64) {
        self.prr_out += n;
    }

    pub fn prr_delivered(&self) -> u64 {
        self.prr_delivered
    }

    pub fn prr_out(&self) -> u64 {
        self.prr_out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scoreboard of RFC 6937 §6's examples: 20 segments (0-19) in flight, cwnd = 20,
    /// ssthresh = 10, limited transmit on the first two duplicate ACKs, RFC 6675 `IsLost` (three
    /// SACKed segments above the holes) on the third. ACK `k` SACKs segment `k`. Returns, for
    /// each ACK, `(pipe before sending, segments sent)`; lost segments are resent first.
    fn run_example(lost: u64, acks: std::ops::RangeInclusive<u64>, bound: ReductionBound) -> Vec<(u64, u64)> {
        let (cwnd, ssthresh) = (20u64, 10u64);
        let (mut snd_nxt, mut sacked, mut lost_out, mut retrans_out) = (20u64, 0u64, 0u64, 0u64);
        let mut prr: Option<Prr> = None;
        let mut out = vec![];
        for _ in acks {
            sacked += 1;
            if prr.is_none() && sacked >= 3 {
                lost_out = lost;
                prr = Some(Prr::start(bound, cwnd));
            }
            let pipe = snd_nxt - sacked - lost_out + retrans_out;
            let send = match &mut prr {
                None => 1, // limited transmit (RFC 3042)
                Some(prr) => prr.on_ack(1, pipe, ssthresh, false),
            };
            for _ in 0..send {
                if retrans_out < lost_out {
                    retrans_out += 1;
                } else {
                    snd_nxt += 1;
                }
                if let Some(prr) = &mut prr {
                    prr.on_send(1);
                }
            }
            out.push((pipe, send));
        }
        out
    }

    #[test]
    fn single_loss_spreads_the_reduction_over_the_round_trip() {
        // RFC 6937 §6, first figure (segment 0 lost; ACKs 1-19):
        //   ack#   1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19
        //   pipe: 19 19 18 18 18 17 17 16 16 15 15 14 14 13 13 12 12 11 10
        //   sent:  N  N  R     N     N     N     N     N     N        N  N
        // The RFC's pipe row is the pipe after the ACK's transmission from ACK 4 on; its last
        // sends are drawn at ACKs 18 and 19, which contradicts that same row (pipe 11 > ssthresh
        // at ACK 18 and pipe = ssthresh at 19 leave nothing to send) and its own arithmetic:
        // at ACK 17 prr_delivered = 15, ⌈15·10/20⌉ − prr_out 7 = 1. The send is at ACK 17,
        // which is where the pipe row shows it (12 after ACK 16's 12, as at every other send).
        // With a single loss the pipe stays above ssthresh, so every reduction bound agrees.
        for bound in [ReductionBound::SafeAck, ReductionBound::SlowStart, ReductionBound::Conservative] {
            let r = run_example(1, 1..=19, bound);
            let sent: Vec<u64> = r.iter().map(|x| x.1).collect();
            assert_eq!(sent, [1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0], "{bound:?}");
            // The pipe before each ACK's sends: 19, 19 (limited transmit), 18 at the fast
            // retransmit, then down by one every second ACK to ssthresh.
            let pipe: Vec<u64> = r.iter().map(|x| x.0).collect();
            assert_eq!(pipe, [19, 19, 18, 18, 17, 17, 16, 16, 15, 15, 14, 14, 13, 13, 12, 12, 11, 11, 10]);
            // One segment per two delivered (1 retransmission + 7 new in 17 ACKs): recovery ends
            // with exactly ssthresh segments in flight.
            assert_eq!(sent[2..].iter().sum::<u64>(), 8);
        }
    }

    #[test]
    fn burst_loss_ssrb_sends_two_per_ack_and_crb_one() {
        // RFC 6937 §6, second figure: segments 0-14 lost, ACKs 15-19 return.
        //   PRR-CRB   pipe: 19 19 4 4 4   sent: N N R  R  R
        //   PRR-SSRB  pipe: 19 19 4 5 6   sent: N N 2R 2R 2R
        let crb = run_example(15, 15..=19, ReductionBound::Conservative);
        assert_eq!(crb, [(19, 1), (19, 1), (4, 1), (4, 1), (4, 1)]);
        let ssrb = run_example(15, 15..=19, ReductionBound::SlowStart);
        assert_eq!(ssrb, [(19, 1), (19, 1), (4, 2), (5, 2), (6, 2)]);
        // Linux grows only on ACKs that advance snd.una: these are all SACKs, so it conserves.
        let linux = run_example(15, 15..=19, ReductionBound::SafeAck);
        assert_eq!(linux, [(19, 1), (19, 1), (4, 1), (4, 1), (4, 1)]);
    }

    #[test]
    fn proportional_part_rounds_up_and_the_bound_catches_up_to_ssthresh() {
        // ssthresh 7 of RecoverFS 10 (CUBIC's β = 0.7): 7 of every 10 delivered go out.
        let mut p = Prr::start(ReductionBound::SafeAck, 10);
        let mut sent = 0;
        for pipe in (8..=17).rev() {
            let n = p.on_ack(1, pipe, 7, false);
            p.on_send(n);
            sent += n;
        }
        assert_eq!((p.prr_delivered(), p.prr_out(), sent), (10, 7, 7));
        // At or below ssthresh: at most ssthresh − pipe, at most what was delivered (+1 when
        // the ACK is safe).
        let mut p = Prr::start(ReductionBound::SafeAck, 10);
        p.on_send(1);
        assert_eq!(p.on_ack(3, 2, 7, false), 3);
        assert_eq!(p.on_ack(3, 2, 7, true), 5); // banked 6 − 1 = 5 ≥ 3 + 1; ssthresh − pipe = 5
        assert_eq!(p.on_ack(1, 6, 7, true), 1); // ssthresh − pipe = 1
        // Nothing sent yet in recovery: the fast retransmit goes whatever the arithmetic says.
        let mut p = Prr::start(ReductionBound::Conservative, 20);
        assert_eq!(p.on_ack(0, 30, 10, false), 1);
    }
}
