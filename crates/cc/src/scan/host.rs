//! One target's bookkeeping: nmap's `HostScanStats` (`scan_engine.h`/`.cc`), spec §1.5, §3.5,
//! §4.2, §4.3 and §5.
//!
//! ```text
//! probe timeout = host to.timeout if the host has an RTT sample, else the group's if it has
//!                 one, else the initial RTT timeout (1 s at T3)
//! a probe times out when now − sent > probe timeout; it stays listed for late replies until
//!                 now − sent > 10·min(1 s, probe timeout)
//! maxtries   = min(max(1, max_successful_tryno + 1), tryno_cap)   (host discovery: 1, two tries)
//! mayincrease = not capped, unless the host has no active and no fresh probes and every listed
//!               non-ping probe is at maxtries or retransmitted
//! send OK    = not completed; RLD wait over (then OK without the window); send delay over;
//!              window cwnd ≥ active + 0.5 and something to send
//! window     = own timing if the host has answered or numprobes_sent < 80, else the group's
//!              if it had more than one update, else cwnd 10 / ssthresh 75
//! completed  = no active and no waiting probes, and (state known or no fresh probes)
//! ```

use super::perf::{ScanPerformanceVars, HOST_TIMING_PROBE_LIMIT};
use super::probe::{HostState, UltraProbe};
use super::rate_limit::{RateLimitDetection, SendDelay};
use super::timeout::TimeoutInfo;
use super::timing_vals::UltraTimingVals;
use crate::units::Time;

/// `allowedTryno`'s answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TryLimit {
    pub maxtries: u8,
    pub capped: bool,
    pub may_increase: bool,
}

#[derive(Clone, Debug)]
pub struct HostScanStats {
    pub timing: UltraTimingVals,
    /// The host's RTT estimator (`Target::to`).
    pub to: TimeoutInfo,
    pub state: HostState,
    /// Probes in flight, not timed out (pings included).
    pub num_probes_active: u32,
    /// Timed-out probes not yet retransmitted or given up.
    pub num_probes_waiting_retransmit: u32,
    /// In send order.
    pub probes_outstanding: Vec<UltraProbe>,
    /// How many of the host-discovery probe types have been sent (the rest are fresh).
    pub fresh_sent: u8,
    pub probe_types: u8,
    /// Scan probes sent, retransmissions included, pings excluded.
    pub numprobes_sent: u32,
    /// Highest try number that produced a useful answer (raised only by port scans).
    pub max_successful_tryno: u8,
    pub sdn: SendDelay,
    pub rld: RateLimitDetection,
    pub lastrcvd: Option<Time>,
    pub lastprobe_sent: Option<Time>,
    /// The probe type that answered, usable as a timing ping (`pingprobe`).
    pub ping_probe: Option<u8>,
    pub completed_at: Option<Time>,
    next_serial: u32,
    /// The window holds back a send this host is ready to make (set by
    /// [`HostScanStats::note_window_hold`], cleared when the host next sends).
    window_held: bool,
}

impl HostScanStats {
    pub fn new(probe_types: u8, perf: &ScanPerformanceVars, now: Time) -> HostScanStats {
        HostScanStats {
            timing: UltraTimingVals::new(perf.host_initial_cwnd, perf, now),
            to: TimeoutInfo::new(&perf.rtt),
            state: HostState::Unknown,
            num_probes_active: 0,
            num_probes_waiting_retransmit: 0,
            probes_outstanding: Vec::new(),
            fresh_sent: 0,
            probe_types,
            numprobes_sent: 0,
            max_successful_tryno: 0,
            sdn: SendDelay::new(perf, now),
            rld: RateLimitDetection::default(),
            lastrcvd: None,
            lastprobe_sent: None,
            ping_probe: None,
            completed_at: None,
            next_serial: 0,
            window_held: false,
        }
    }

    pub fn fresh_left(&self) -> bool {
        self.fresh_sent < self.probe_types
    }

    /// `HostScanStats::probeTimeout`.
    pub fn probe_timeout(&self, group_to: &TimeoutInfo, perf: &ScanPerformanceVars) -> Time {
        if self.to.has_sample() {
            self.to.timeout()
        } else if group_to.has_sample() {
            group_to.timeout()
        } else {
            perf.rtt.initial
        }
    }

    /// `probeExpireTime`: how long a timed-out probe is kept for late replies.
    pub fn probe_expire_time(probe_timeout: Time) -> Time {
        let t = probe_timeout.min(Time::from_secs(1));
        Time(t.0 * 10)
    }

    /// `allowedTryno`.
    pub fn allowed_tryno(&self, perf: &ScanPerformanceVars) -> TryLimit {
        let wanted = u32::max(1, self.max_successful_tryno as u32 + 1);
        let capped = wanted >= perf.tryno_cap;
        let maxtries = wanted.min(perf.tryno_cap) as u8;
        let all_done = self.num_probes_active == 0
            && !self.fresh_left()
            && self.probes_outstanding.iter().all(|p| p.is_ping || p.retransmitted || p.tryno >= maxtries);
        TryLimit { maxtries, capped, may_increase: !capped && !all_done }
    }

    /// `HostScanStats::completed` for a ping scan.
    pub fn completed(&self) -> bool {
        self.num_probes_active == 0
            && self.num_probes_waiting_retransmit == 0
            && (self.state != HostState::Unknown || !self.fresh_left())
    }

    /// `getTiming`: the window this host sends under.
    pub fn window(&self, group: &UltraTimingVals) -> f64 {
        if self.ping_probe.is_some() || self.numprobes_sent < HOST_TIMING_PROBE_LIMIT {
            self.timing.cwnd
        } else if group.num_updates > 1 {
            group.cwnd
        } else {
            10.0
        }
    }

    /// `HostScanStats::sendOK`.
    pub fn send_ok(&self, group: &UltraTimingVals, now: Time) -> bool {
        self.gate(now).unwrap_or_else(|| self.window_open(group))
    }

    /// Whether a hold by the window ([`HostScanStats::held_by_window`]) begins now: true once
    /// per held send, however often the scheduler looks at the host before it sends again.
    pub fn note_window_hold(&mut self, group: &UltraTimingVals, now: Time) -> bool {
        let begins = !self.window_held && self.held_by_window(group, now);
        self.window_held |= begins;
        begins
    }

    /// Everything but the window lets this host send, and its window does not: the host's
    /// window as `getTiming` gives it ([`HostScanStats::window`]: its own, or the group's once
    /// 80 probes went unanswered), not the group's send limit or a timer, holds the probe back.
    pub fn held_by_window(&self, group: &UltraTimingVals, now: Time) -> bool {
        self.gate(now).is_none() && !self.window_open(group)
    }

    /// `sendOK`'s answer when something other than the window decides it: completion, an RLD
    /// wait (which, when over, allows a send whatever the window), the send delay, or nothing
    /// to send.
    fn gate(&self, now: Time) -> Option<bool> {
        if self.completed_at.is_some() || self.completed() {
            return Some(false);
        }
        if self.rld.waiting {
            return Some(now >= self.rld.waittime);
        }
        if self.sdn.blocked_until(self.lastprobe_sent, now).is_some() || !(self.fresh_left() || self.num_probes_waiting_retransmit > 0) {
            return Some(false);
        }
        None
    }

    fn window_open(&self, group: &UltraTimingVals) -> bool {
        self.window(group) >= self.num_probes_active as f64 + 0.5
    }

    /// The earliest time a host-side wait (RLD, send delay) ends, if one holds it back.
    pub fn wait_ends(&self, now: Time) -> Option<Time> {
        if self.rld.waiting {
            return Some(self.rld.waittime);
        }
        if self.fresh_left() || self.num_probes_waiting_retransmit > 0 {
            return self.sdn.blocked_until(self.lastprobe_sent, now);
        }
        None
    }

    /// Lists a new probe as sent now and counts it.
    pub fn add_probe(&mut self, probe_type: u8, tryno: u8, is_ping: bool, now: Time) -> UltraProbe {
        self.window_held = false;
        let p = UltraProbe {
            serial: self.next_serial,
            probe_type,
            tryno,
            is_ping,
            sent: now,
            timedout: false,
            retransmitted: false,
        };
        self.next_serial += 1;
        self.probes_outstanding.push(p);
        self.num_probes_active += 1;
        if !is_ping {
            self.numprobes_sent += 1;
        }
        self.lastprobe_sent = Some(now);
        p
    }

    /// Marks probe `i` timed out: its window slot is free. Returns the probe.
    pub fn mark_timed_out(&mut self, i: usize) -> UltraProbe {
        let p = &mut self.probes_outstanding[i];
        debug_assert!(!p.timedout && !p.retransmitted);
        p.timedout = true;
        self.num_probes_active -= 1;
        if !p.is_ping {
            self.num_probes_waiting_retransmit += 1;
        }
        *p
    }

    /// Removes probe `i` from the list; returns it and whether it held a window slot.
    pub fn destroy(&mut self, i: usize) -> (UltraProbe, bool) {
        let p = self.probes_outstanding.remove(i);
        if !p.timedout {
            self.num_probes_active -= 1;
        } else if !p.retransmitted && !p.is_ping {
            self.num_probes_waiting_retransmit -= 1;
        }
        (p, !p.timedout)
    }

    pub fn find(&self, serial: u32) -> Option<usize> {
        self.probes_outstanding.iter().position(|p| p.serial == serial)
    }

    /// The newest timed-out, not yet retransmitted scan probe below `maxtries`
    /// (`doAnyOutstandingRetransmits` scans backwards).
    pub fn retransmit_candidate(&self, maxtries: u8) -> Option<usize> {
        self.probes_outstanding.iter().rposition(|p| p.timedout && !p.retransmitted && !p.is_ping && p.tryno < maxtries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::perf::TimingTemplate;

    fn perf() -> ScanPerformanceVars {
        ScanPerformanceVars::new(TimingTemplate::T3)
    }

    #[test]
    fn the_timeout_falls_back_from_host_to_group_to_initial() {
        let p = perf();
        let mut h = HostScanStats::new(2, &p, Time::ZERO);
        let mut g = TimeoutInfo::new(&p.rtt);
        assert_eq!(h.probe_timeout(&g, &p), Time::from_secs(1));
        g.adjust(Time::ZERO, Time::from_millis(100), &p.rtt);
        assert_eq!(h.probe_timeout(&g, &p), Time::from_millis(500));
        h.to.adjust(Time::ZERO, Time::from_millis(40), &p.rtt);
        assert_eq!(h.probe_timeout(&g, &p), Time::from_millis(200));
        assert_eq!(HostScanStats::probe_expire_time(Time::from_millis(200)), Time::from_secs(2));
        assert_eq!(HostScanStats::probe_expire_time(Time::from_secs(3)), Time::from_secs(10));
    }

    #[test]
    fn discovery_probes_get_two_tries_and_a_silent_host_completes_when_all_are_spent() {
        let p = perf();
        let mut h = HostScanStats::new(1, &p, Time::ZERO);
        let g = UltraTimingVals::new(10.0, &p, Time::ZERO);
        assert!(h.send_ok(&g, Time::ZERO));
        h.fresh_sent = 1;
        h.add_probe(0, 0, false, Time::ZERO);
        assert_eq!(h.allowed_tryno(&p), TryLimit { maxtries: 1, capped: false, may_increase: true });
        h.mark_timed_out(0);
        assert_eq!(h.retransmit_candidate(1), Some(0));
        assert!(!h.completed(), "waiting for its retransmission");
        h.probes_outstanding[0].retransmitted = true;
        h.num_probes_waiting_retransmit -= 1;
        h.add_probe(0, 1, false, Time::from_secs(1));
        h.mark_timed_out(1);
        assert_eq!(h.retransmit_candidate(1), None, "try 1 is the last in host discovery");
        assert!(!h.allowed_tryno(&p).may_increase, "nothing active, nothing fresh, all at maxtries");
        let (_, held_slot) = h.destroy(1);
        assert!(!held_slot);
        h.state = HostState::Down;
        assert!(h.completed());
    }

    #[test]
    fn silent_hosts_with_80_probes_use_the_group_window() {
        let p = perf();
        let mut h = HostScanStats::new(100, &p, Time::ZERO);
        let mut g = UltraTimingVals::new(10.0, &p, Time::ZERO);
        g.cwnd = 42.0;
        g.num_updates = 2;
        h.timing.cwnd = 3.0;
        h.numprobes_sent = 79;
        assert_eq!(h.window(&g), 3.0);
        h.numprobes_sent = 80;
        assert_eq!(h.window(&g), 42.0);
        h.ping_probe = Some(0);
        assert_eq!(h.window(&g), 3.0);
    }

    #[test]
    fn a_host_window_holds_a_send_only_when_nothing_else_does() {
        // Window 1 with one probe active: 1 < 1 + 0.5, the window holds the second type.
        let p = perf();
        let mut h = HostScanStats::new(2, &p, Time::ZERO);
        let g = UltraTimingVals::new(10.0, &p, Time::ZERO);
        h.timing.cwnd = 1.0;
        h.fresh_sent = 1;
        h.add_probe(0, 0, false, Time::ZERO);
        assert!(!h.send_ok(&g, Time::ZERO) && h.held_by_window(&g, Time::ZERO));
        assert!(h.note_window_hold(&g, Time::ZERO), "a hold begins");
        assert!(!h.note_window_hold(&g, Time::ZERO), "the same hold, looked at again");
        // At cwnd 2 it may send; sending ends the hold; with both types sent there is nothing
        // left to hold.
        h.timing.cwnd = 2.0;
        assert!(h.send_ok(&g, Time::ZERO) && !h.held_by_window(&g, Time::ZERO));
        h.add_probe(1, 0, false, Time::ZERO);
        h.timing.cwnd = 1.0;
        assert!(h.note_window_hold(&g, Time::ZERO), "a new hold after the send");
        h.timing.cwnd = 1.0;
        h.fresh_sent = 2;
        assert!(!h.send_ok(&g, Time::ZERO) && !h.held_by_window(&g, Time::ZERO));
    }

    #[test]
    fn an_rld_wait_blocks_the_host_then_lets_it_send_past_its_window() {
        let p = perf();
        let mut h = HostScanStats::new(2, &p, Time::ZERO);
        let g = UltraTimingVals::new(10.0, &p, Time::ZERO);
        h.timing.cwnd = 0.0;
        h.rld.must_wait(1, Time::ZERO);
        assert!(!h.send_ok(&g, Time::from_millis(999)));
        assert!(h.send_ok(&g, Time::from_secs(1)));
        assert_eq!(h.wait_ends(Time::ZERO), Some(Time::from_secs(1)));
    }
}
