//! The scan-wide state: nmap's `GroupScanStats` (`scan_engine.h`/`.cc`), spec §1.4, §4.2 and
//! §4.5.
//!
//! ```text
//! send OK = sends since the last wait for replies < 50
//!           and (fewer than 2 incomplete hosts, or cwnd ≥ num_probes_active + 0.5)
//! global timing ping to a found host, at most one at a time, when
//!           ≥ 20 sends since the last one, no reply for > pingtime, no ping for > pingtime
//! ```
//!
//! `num_probes_active` counts every probe in flight and not timed out: pings, and probes of
//! hosts already completed, included.

use super::packet_ratio::PacketRatio;
use super::perf::{ScanPerformanceVars, GLOBAL_PING_MIN_SENDS, MAX_SENDS_PER_WAIT};
use super::timeout::TimeoutInfo;
use super::timing_vals::UltraTimingVals;
use crate::units::Time;

#[derive(Clone, Debug)]
pub struct GroupScanStats {
    pub timing: UltraTimingVals,
    /// The group RTT estimator (`gstats->to`).
    pub to: TimeoutInfo,
    pub num_probes_active: u32,
    /// `probes_sent` (every send) and the 2007 `probes_replied_to`.
    pub ratio: PacketRatio,
    pub probes_sent_at_last_wait: u64,
    pub lastrcvd: Time,
    pub lastping_sent: Time,
    pub lastping_sent_numprobes: u64,
    /// The found host that receives global timing pings.
    pub pinghost: Option<u32>,
}

impl GroupScanStats {
    pub fn new(perf: &ScanPerformanceVars, to: TimeoutInfo, now: Time) -> GroupScanStats {
        GroupScanStats {
            timing: UltraTimingVals::new(perf.group_initial_cwnd, perf, now),
            to,
            num_probes_active: 0,
            ratio: PacketRatio::default(),
            probes_sent_at_last_wait: 0,
            lastrcvd: now,
            lastping_sent: now,
            lastping_sent_numprobes: 0,
            pinghost: None,
        }
    }

    /// The 50-sends-per-wait limit is reached.
    pub fn send_limited(&self) -> bool {
        self.ratio.probes_sent - self.probes_sent_at_last_wait >= MAX_SENDS_PER_WAIT
    }

    /// `GroupScanStats::sendOK` for a raw scan.
    pub fn send_ok(&self, incomplete_hosts: usize) -> bool {
        if self.send_limited() {
            return false;
        }
        incomplete_hosts < 2 || self.timing.cwnd >= self.num_probes_active as f64 + 0.5
    }

    /// When a global ping becomes due (if one is not outstanding); `None` while fewer than 20
    /// probes were sent since the last one.
    pub fn ping_due(&self, perf: &ScanPerformanceVars) -> Option<Time> {
        (self.ratio.probes_sent >= self.lastping_sent_numprobes + GLOBAL_PING_MIN_SENDS)
            .then(|| self.lastrcvd.max(self.lastping_sent) + perf.pingtime + Time(1))
    }

    /// Counts a send.
    pub fn sent(&mut self) {
        self.num_probes_active += 1;
        self.ratio.probes_sent += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::perf::TimingTemplate;

    #[test]
    fn the_window_the_wait_limit_and_the_lone_host_bypass() {
        let p = ScanPerformanceVars::new(TimingTemplate::T3);
        let mut g = GroupScanStats::new(&p, TimeoutInfo::new(&p.rtt), Time::ZERO);
        for _ in 0..9 {
            g.sent();
        }
        assert!(g.send_ok(100), "10 >= 9 + 0.5");
        g.sent();
        assert!(!g.send_ok(100), "10 < 10 + 0.5");
        assert!(g.send_ok(1), "fewer than two incomplete hosts bypass the window");
        g.num_probes_active = 0;
        g.ratio.probes_sent = 50;
        assert!(!g.send_ok(100), "50 sends since the last wait");
        g.probes_sent_at_last_wait = 50;
        assert!(g.send_ok(100));
    }

    #[test]
    fn a_global_ping_needs_twenty_sends_and_a_silent_pingtime() {
        let p = ScanPerformanceVars::new(TimingTemplate::T3);
        let mut g = GroupScanStats::new(&p, TimeoutInfo::new(&p.rtt), Time::ZERO);
        g.ratio.probes_sent = 19;
        assert_eq!(g.ping_due(&p), None);
        g.ratio.probes_sent = 20;
        g.lastrcvd = Time::from_secs(3);
        assert_eq!(g.ping_due(&p), Some(Time::from_millis(4250) + Time(1)));
    }
}
