//! RTT estimation and the retransmission timeout, RFC 6298.
//!
//! First sample R: `SRTT = R`, `RTTVAR = R/2`. Later samples R':
//! `RTTVAR = (1 - 1/4)·RTTVAR + 1/4·|SRTT - R'|`, `SRTT = (1 - 1/8)·SRTT + 1/8·R'`.
//! `RTO = SRTT + max(G, 4·RTTVAR)`. The floor is applied the way Linux does it
//! (`tcp_set_rto`): the variance term is at least `min_rto` (200 ms by default), so
//! `RTO = SRTT + max(4·RTTVAR, min_rto)`. RFC 6298 §2.4 instead clamps the whole RTO at 1 s;
//! Linux's form keeps a queue that fills slowly (tiny RTTVAR) from firing spurious timeouts
//! just before a fast retransmit returns. The RTO is at most `max_rto`. Each expiry doubles it
//! (§5.5) until a valid sample from a segment that was never retransmitted arrives (Karn).

use crate::controller::RttStats;
use crate::units::Time;

/// Clock granularity G: the simulator's clock is exact, Linux's is one jiffy; 1 ms.
const CLOCK_GRANULARITY: Time = Time::from_millis(1);

#[derive(Clone, Debug)]
pub struct RttEstimator {
    stats: RttStats,
    min_rto: Time,
    max_rto: Time,
    initial_rto: Time,
    backoff: u32,
}

impl RttEstimator {
    pub fn new(initial_rto: Time, min_rto: Time, max_rto: Time) -> RttEstimator {
        RttEstimator { stats: RttStats::default(), min_rto, max_rto, initial_rto, backoff: 0 }
    }

    pub fn stats(&self) -> RttStats {
        self.stats
    }

    pub fn on_sample(&mut self, r: Time) {
        let s = &mut self.stats;
        match s.srtt {
            None => {
                s.srtt = Some(r);
                s.rttvar = Time(r.0 / 2);
            }
            Some(srtt) => {
                let err = srtt.0.abs_diff(r.0);
                s.rttvar = Time((3 * s.rttvar.0 + err) / 4);
                s.srtt = Some(Time((7 * srtt.0 + r.0) / 8));
            }
        }
        s.latest = Some(r);
        s.min_rtt = Some(s.min_rtt.map_or(r, |m| m.min(r)));
        self.backoff = 0;
    }

    /// The RTO before backoff.
    pub fn base_rto(&self) -> Time {
        match self.stats.srtt {
            None => self.initial_rto,
            Some(srtt) => {
                let var = CLOCK_GRANULARITY.max(Time(4 * self.stats.rttvar.0)).max(self.min_rto);
                (srtt + var).min(self.max_rto)
            }
        }
    }

    /// The RTO with exponential backoff applied.
    pub fn rto(&self) -> Time {
        let base = self.base_rto().0;
        let shifted = base.checked_shl(self.backoff.min(32)).unwrap_or(u64::MAX);
        Time(shifted.min(self.max_rto.0))
    }

    pub fn on_timeout(&mut self) {
        if self.rto() < self.max_rto {
            self.backoff += 1;
        }
    }

    pub fn backoff(&self) -> u32 {
        self.backoff
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est() -> RttEstimator {
        RttEstimator::new(Time::from_secs(1), Time::from_millis(200), Time::from_secs(120))
    }

    #[test]
    fn first_sample_sets_srtt_and_half_rttvar() {
        let mut e = est();
        assert_eq!(e.rto(), Time::from_secs(1));
        e.on_sample(Time::from_millis(100));
        assert_eq!(e.stats().srtt, Some(Time::from_millis(100)));
        assert_eq!(e.stats().rttvar, Time::from_millis(50));
        // RTO = 100 + max(4·50, 200) = 300 ms.
        assert_eq!(e.rto(), Time::from_millis(300));
    }

    #[test]
    fn later_samples_are_smoothed_with_gains_one_eighth_and_one_quarter() {
        let mut e = est();
        e.on_sample(Time::from_millis(100));
        e.on_sample(Time::from_millis(180));
        // RTTVAR = 3/4·50 + 1/4·80 = 57.5; SRTT = 7/8·100 + 1/8·180 = 110.
        assert_eq!(e.stats().rttvar, Time::from_micros(57_500));
        assert_eq!(e.stats().srtt, Some(Time::from_millis(110)));
        assert_eq!(e.stats().min_rtt, Some(Time::from_millis(100)));
    }

    #[test]
    fn min_rto_floors_the_variance_term_and_backoff_doubles_with_cap() {
        let mut e = est();
        for _ in 0..40 {
            e.on_sample(Time::from_millis(10));
        }
        // RTTVAR has decayed to ~0: RTO = 10 ms + 200 ms.
        assert_eq!(e.rto(), Time::from_millis(210));
        e.on_timeout();
        assert_eq!(e.rto(), Time::from_millis(420));
        e.on_timeout();
        assert_eq!(e.rto(), Time::from_millis(840));
        for _ in 0..20 {
            e.on_timeout();
        }
        assert_eq!(e.rto(), Time::from_secs(120));
        e.on_sample(Time::from_millis(10));
        assert_eq!(e.backoff(), 0);
    }
}
