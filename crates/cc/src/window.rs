//! Reno's window arithmetic, shared by every AIMD-family controller: slow start, additive
//! increase by byte counting, and the multiplicative decrease.
//!
//! Slow start follows RFC 5681 §3.1 with appropriate byte counting (RFC 3465) as Linux's
//! `tcp_slow_start` does it: `cwnd += acked` up to ssthresh, the rest of the ACK spills into
//! congestion avoidance. Congestion avoidance adds `a` segments per window of acknowledged
//! data (RFC 5681 eq. 3, `cwnd += a·SMSS·SMSS/cwnd` per ACK), accumulated in a credit counter
//! like Linux's `tcp_cong_avoid_ai` so that no fraction of an increase is lost to rounding.

use crate::controller::{Control, CwndUse, IdleRestart, Snapshot};
use crate::units::Bytes;

/// cwnd and ssthresh in bytes, with the congestion-avoidance credit.
#[derive(Clone, Debug, PartialEq)]
pub struct RenoWindow {
    pub cwnd: Bytes,
    pub ssthresh: Bytes,
    /// Acknowledged bytes (times the increase factor) not yet turned into window growth.
    ca_credit: f64,
}

impl RenoWindow {
    /// A window starting at `initial_cwnd` bytes with ssthresh "arbitrarily high" (RFC 5681).
    pub fn new(initial_cwnd: Bytes) -> RenoWindow {
        RenoWindow { cwnd: initial_cwnd, ssthresh: Bytes::MAX, ca_credit: 0.0 }
    }

    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// Whether the window may grow on this ACK (Linux `tcp_is_cwnd_limited`, which every
    /// `cong_avoid` tests first): the sender filled it, or in slow start it is below twice the
    /// most outstanding ([`CwndUse::is_cwnd_limited`]).
    pub fn is_cwnd_limited(&self, usage: CwndUse) -> bool {
        usage.is_cwnd_limited(self.cwnd, self.in_slow_start())
    }

    /// Slow start: `cwnd += acked`, capped at ssthresh. Returns the acknowledged bytes left
    /// over once ssthresh is reached (to be spent in congestion avoidance).
    pub fn slow_start(&mut self, acked: Bytes) -> Bytes {
        let room = self.ssthresh.saturating_sub(self.cwnd);
        let used = acked.min(room);
        self.cwnd += used;
        acked - used
    }

    /// Congestion avoidance: `a` MSS of growth per cwnd of acknowledged bytes.
    pub fn additive_increase(&mut self, acked: Bytes, mss: Bytes, a: f64) {
        if acked == 0 || a <= 0.0 {
            return;
        }
        self.ca_credit += acked as f64 * a;
        let w = self.cwnd.max(mss) as f64;
        if self.ca_credit >= w {
            let steps = (self.ca_credit / w).floor();
            self.ca_credit -= steps * w;
            self.cwnd += (steps as Bytes) * mss;
        }
    }

    /// Reno's increase for one ACK: slow start below ssthresh, then one MSS per RTT.
    pub fn reno_increase(&mut self, acked: Bytes, mss: Bytes) {
        let rest = if self.in_slow_start() { self.slow_start(acked) } else { acked };
        if rest > 0 {
            self.additive_increase(rest, mss, 1.0);
        }
    }

    /// Multiplicative decrease: `ssthresh = max(⌊beta·cwnd⌋, 2)` segments (Linux
    /// `tcp_reno_ssthresh` with beta = 1/2, in whole segments; RFC 5681 eq. 4 uses FlightSize in
    /// bytes, which equals cwnd for a window-limited flow). Returns the new ssthresh; cwnd is
    /// left to the caller.
    pub fn reduce_ssthresh(&mut self, beta: f64, mss: Bytes) -> Bytes {
        self.set_ssthresh((self.cwnd as f64 * beta) as Bytes, mss);
        self.ssthresh
    }

    /// The window less its cut `b` rounded down, in whole segments: `w − ⌊w·b⌋` (Linux's
    /// Scalable, HighSpeed and Illinois: `cwnd − ((cwnd·b) >> shift)`), at least two.
    pub fn less_cut(&self, b: f64, mss: Bytes) -> Bytes {
        let w = self.cwnd / mss;
        (w - (w as f64 * b) as Bytes).max(2) * mss
    }

    /// Sets ssthresh directly, rounded down to whole segments and at least two, dropping
    /// pending growth credit. Linux keeps `snd_ssthresh` and `snd_cwnd` in segments, so every
    /// decrease (`cwnd·β`, `cwnd − cwnd·b(w)`, ...) lands on a whole segment; RFC 5681's
    /// `FlightSize/2` in bytes can leave half of one, which a sender of full-sized segments
    /// cannot fill: congestion avoidance, one segment per window of ACKed bytes, then grows a
    /// segment only every (w + ½)/w round trips.
    pub fn set_ssthresh(&mut self, ssthresh: Bytes, mss: Bytes) {
        self.ssthresh = if ssthresh == Bytes::MAX { ssthresh } else { (ssthresh / mss * mss).max(2 * mss) };
        self.ca_credit = 0.0;
    }

    /// Never below one segment.
    pub fn set_cwnd(&mut self, cwnd: Bytes, mss: Bytes) {
        self.cwnd = cwnd.max(mss);
    }

    /// Restart after idle (RFC 5681 §4.1 with RFC 2861's decay, as Linux's
    /// `tcp_cwnd_restart`), in whole segments as Linux counts them:
    ///
    /// ```text
    /// ssthresh ← max(ssthresh, ⌊cwnd/2⌋ + ⌊cwnd/4⌋)          (tcp_current_ssthresh, Open state)
    /// RW       ← min(IW, cwnd)
    /// cwnd     ← max(⌊cwnd / 2^h⌋, RW),  h = ⌈idle/RTO⌉ − 1   (one halving per RTO idle past the first,
    ///                                                       stopping once cwnd ≤ RW)
    /// ```
    ///
    /// RFC 5681 sets cwnd to RW outright; RFC 2861 decays it by half per RTO, which Linux
    /// follows and we with it. ssthresh keeps ¾ of the window the flow had, so slow start climbs
    /// back to near it.
    pub fn restart_after_idle(&mut self, r: &IdleRestart, mss: Bytes) {
        let mss = mss.max(1);
        let mut cwnd = self.cwnd / mss;
        if self.ssthresh != Bytes::MAX {
            let three_quarters = (cwnd >> 1) + (cwnd >> 2);
            self.ssthresh = self.ssthresh.max(three_quarters * mss);
        }
        let restart = (r.initial_window / mss).min(cwnd);
        let rto = r.rto.0.max(1);
        // Linux: while ((delta -= rto) > 0 && cwnd > restart_cwnd) cwnd >>= 1;
        let mut left = r.idle.0;
        while left > rto && cwnd > restart {
            left -= rto;
            cwnd >>= 1;
        }
        self.cwnd = cwnd.max(restart).max(1) * mss;
    }

    /// A pure window decision (no pacing), bursts of one segment.
    pub fn control(&self, mss: Bytes) -> Control {
        Control { cwnd: Some(self.cwnd), pacing_rate: None, quantum: mss }
    }

    /// cwnd and ssthresh for traces, with the given state name.
    pub fn snapshot(&self, state: &'static str) -> Snapshot {
        Snapshot {
            cwnd: Some(self.cwnd),
            ssthresh: Some(self.ssthresh),
            pacing_rate: None,
            bw_estimate: None,
            min_rtt: None,
            state,
        }
    }

    pub fn state_name(&self, in_recovery: bool) -> &'static str {
        if in_recovery {
            "recovery"
        } else if self.in_slow_start() {
            "slow_start"
        } else {
            "cong_avoid"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Time;
    const MSS: Bytes = 1000;

    fn idle(idle_ms: u64, rto_ms: u64) -> IdleRestart {
        IdleRestart { idle: Time::from_millis(idle_ms), rto: Time::from_millis(rto_ms), initial_window: 10 * 1000 }
    }

    /// A window of 100 segments (MSS 1000 B, IW 10) idle for 1.5, 2.5 and 10 RTOs of 200 ms
    /// halves once, twice, and until the restart window: ⌈idle/RTO⌉ − 1 halvings (Linux's
    /// loop subtracts one RTO and halves while time is left), 100 → 50 → 25 → 12 → 10.
    /// ssthresh rises to ¾ of the window (50 + 25 = 75) from 40, and an infinite one stays so.
    #[test]
    fn restart_after_idle_halves_once_per_rto_down_to_the_restart_window() {
        for (idle_ms, cwnd) in [(300, 50), (500, 25), (700, 12), (2000, 10)] {
            let mut w = RenoWindow { cwnd: 100_000, ssthresh: 40_000, ca_credit: 0.0 };
            w.restart_after_idle(&idle(idle_ms, 200), 1000);
            assert_eq!(w.cwnd, cwnd * 1000, "idle {idle_ms} ms");
            assert_eq!(w.ssthresh, 75_000);
        }
        let mut w = RenoWindow::new(100_000);
        w.restart_after_idle(&idle(2000, 200), 1000);
        assert_eq!((w.cwnd, w.ssthresh), (10_000, Bytes::MAX));
    }

    /// A window below the initial window is the restart window itself: nothing halves it, and
    /// exactly one RTO of idle (not more than one) halves nothing either.
    #[test]
    fn a_small_window_restarts_where_it_was() {
        let mut w = RenoWindow { cwnd: 6_000, ssthresh: 8_000, ca_credit: 0.0 };
        w.restart_after_idle(&idle(5000, 200), 1000);
        assert_eq!(w.cwnd, 6_000);
        let mut w = RenoWindow { cwnd: 100_000, ssthresh: 8_000, ca_credit: 0.0 };
        w.restart_after_idle(&idle(200, 200), 1000);
        assert_eq!(w.cwnd, 100_000);
    }

    #[test]
    fn slow_start_doubles_per_rtt_and_stops_at_ssthresh() {
        let mut w = RenoWindow::new(10 * MSS);
        // One RTT: every segment of the window is acknowledged once.
        for _ in 0..10 {
            w.reno_increase(MSS, MSS);
        }
        assert_eq!(w.cwnd, 20 * MSS);
        w.ssthresh = 25 * MSS;
        let left = w.slow_start(10 * MSS);
        assert_eq!(w.cwnd, 25 * MSS);
        assert_eq!(left, 5 * MSS);
    }

    #[test]
    fn congestion_avoidance_adds_one_mss_per_window() {
        let mut w = RenoWindow::new(100 * MSS);
        w.ssthresh = 50 * MSS;
        for _ in 0..100 {
            w.reno_increase(MSS, MSS);
        }
        assert_eq!(w.cwnd, 101 * MSS);
        // The next 101 segments add exactly one more: nothing lost to rounding.
        for _ in 0..101 {
            w.reno_increase(MSS, MSS);
        }
        assert_eq!(w.cwnd, 102 * MSS);
    }

    /// `tcp_is_cwnd_limited`: a filled window may always grow; an unfilled one only in slow
    /// start and only below twice the most outstanding (with 30 out: up to 59 segments, not 60).
    #[test]
    fn an_unfilled_window_grows_only_in_slow_start_up_to_twice_the_most_outstanding() {
        let unfilled = CwndUse::Unfilled { max_in_flight: 30 * MSS };
        let mut w = RenoWindow::new(59 * MSS);
        assert!(w.is_cwnd_limited(CwndUse::Filled));
        assert!(w.is_cwnd_limited(unfilled));
        w.cwnd = 60 * MSS;
        assert!(!w.is_cwnd_limited(unfilled));
        assert!(w.is_cwnd_limited(CwndUse::Filled));
        // Congestion avoidance: an unfilled window never grows, however small.
        w.ssthresh = 10 * MSS;
        w.cwnd = 20 * MSS;
        assert!(!w.is_cwnd_limited(unfilled));
        assert!(w.is_cwnd_limited(CwndUse::Filled));
    }

    #[test]
    fn halving_floors_at_two_segments() {
        let mut w = RenoWindow::new(3 * MSS);
        assert_eq!(w.reduce_ssthresh(0.5, MSS), 2 * MSS);
        w.cwnd = 80 * MSS;
        assert_eq!(w.reduce_ssthresh(0.5, MSS), 40 * MSS);
        // Whole segments, as Linux counts the window: 31 halves to 15, not 15½.
        w.cwnd = 31 * MSS;
        assert_eq!(w.reduce_ssthresh(0.5, MSS), 15 * MSS);
        w.set_ssthresh(31 * MSS / 2, MSS);
        assert_eq!(w.ssthresh, 15 * MSS);
        w.set_ssthresh(10 * MSS * 7 / 10 + 1, MSS);
        assert_eq!(w.ssthresh, 7 * MSS);
        w.set_ssthresh(MSS + 1, MSS);
        assert_eq!(w.ssthresh, 2 * MSS);
        // Linux's w − ⌊w·b⌋: 21 less ⌊10.5⌋ is 11, 803 less ⌊100.4⌋ is 703.
        w.cwnd = 21 * MSS;
        assert_eq!(w.less_cut(0.5, MSS), 11 * MSS);
        w.cwnd = 803 * MSS;
        assert_eq!(w.less_cut(0.125, MSS), 703 * MSS);
    }
}
