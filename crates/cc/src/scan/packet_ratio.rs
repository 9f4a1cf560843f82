//! The wiki's `packet_ratio` (seed 000): `probes_sent / probes_replied_to`, the group scale of
//! the 2007 variant (`GroupScanStats::cc_scale`, `eddc2b083`, spec §2.4).
//!
//! ```text
//! probes_sent        += 1  for every packet sent (new probe, retransmission, timing ping), at send time
//! probes_replied_to  += 1  for every timing update that is a reply, or a timed-out timing ping
//! cc_scale = min(probes_sent / probes_replied_to, 50)      (50 while nothing was replied to)
//! ```
//!
//! Counting at send time inflates the ratio while probes are in flight: ten probes sent at once
//! make the first reply count ten times. Today's nmap counts outcomes instead
//! ([`super::UltraTimingVals::cc_scale`]).

use super::perf::ScanPerformanceVars;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PacketRatio {
    pub probes_sent: u64,
    pub probes_replied_to: u64,
}

impl PacketRatio {
    /// The uncapped ratio, `None` before any reply.
    pub fn ratio(&self) -> Option<f64> {
        (self.probes_replied_to > 0).then(|| self.probes_sent as f64 / self.probes_replied_to as f64)
    }

    /// The 2007 group scale.
    pub fn cc_scale(&self, perf: &ScanPerformanceVars) -> f64 {
        self.ratio().map_or(perf.cc_scale_max, |r| r.min(perf.cc_scale_max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::perf::TimingTemplate;

    #[test]
    fn counting_at_send_time_makes_the_first_reply_count_by_the_probes_in_flight() {
        let p = ScanPerformanceVars::new(TimingTemplate::T3);
        let mut r = PacketRatio::default();
        assert_eq!(r.cc_scale(&p), 50.0, "nothing replied to yet");
        r.probes_sent = 10;
        r.probes_replied_to = 1;
        assert_eq!(r.cc_scale(&p), 10.0);
        r.probes_sent = 1930;
        r.probes_replied_to = 34;
        assert!((r.ratio().unwrap() - 56.76).abs() < 0.01);
        assert_eq!(r.cc_scale(&p), 50.0, "capped");
    }
}
