//! UDT's RTT estimator, kept by both ends (\[U4\] `core.cpp`; spec §2.3): integer microseconds,
//! `RTTVar ← (3·RTTVar + |rtt − RTT|)/4`, `RTT ← (7·RTT + rtt)/8` by shifts, as RFC 6298's gains.

use crate::units::Time;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UdtRtt {
    /// Smoothed RTT, µs.
    pub rtt_us: i64,
    /// RTT variation, µs.
    pub rttvar_us: i64,
}

impl UdtRtt {
    pub fn new(rtt_us: i64, rttvar_us: i64) -> UdtRtt {
        UdtRtt { rtt_us, rttvar_us }
    }

    /// Takes a sample, in µs.
    pub fn on_sample(&mut self, sample_us: i64) {
        self.rttvar_us = (3 * self.rttvar_us + (sample_us - self.rtt_us).abs()) >> 2;
        self.rtt_us = (7 * self.rtt_us + sample_us) >> 3;
    }

    /// The smoothed RTT.
    pub fn rtt(&self) -> Time {
        Time::from_micros(self.rtt_us.max(0) as u64)
    }

    /// `RTT + 4·RTTVar`, µs: the base of UDT's EXP timeout and its ACK repeat interval.
    pub fn rto_us(&self) -> i64 {
        self.rtt_us + 4 * self.rttvar_us
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smooths_with_gains_of_an_eighth_and_a_quarter() {
        let mut r = UdtRtt::new(100_000, 50_000);
        r.on_sample(60_000);
        // RTTVar = (3·50 000 + 40 000)/4 = 47 500; RTT = (7·100 000 + 60 000)/8 = 95 000.
        assert_eq!((r.rtt_us, r.rttvar_us), (95_000, 47_500));
        assert_eq!(r.rto_us(), 95_000 + 4 * 47_500);
        assert_eq!(r.rtt(), Time::from_millis(95));
    }
}
