//! The probe scheduler of one `ultra_scan()` call in host discovery: nmap's main loop
//! (`scan_engine.cc`: `doAnyPings`, `doAnyOutstandingRetransmits`, `doAnyNewProbes`,
//! `waitForResponses`, `processData`) and its timing update `ultrascan_adjust_timing`, spec §2.1,
//! §3, §4 and §5. No I/O and no clock: the prober calls [`UltraScan::poll`] at the times
//! [`UltraScan::next_wakeup`] asks for and whenever replies came in, puts the returned probes on
//! the wire, and hands matched replies to [`UltraScan::on_reply`].
//!
//! One poll is `processData` followed by a send phase: timing pings, then retransmissions (one
//! per host per pass, passes repeated while the group window allows), then new probes
//! round-robin over the incomplete hosts, one per host per pass, so probe *k* goes to every host
//! before probe *k*+1. Every timing update (reply, timeout, give-up) goes through
//! [`UltraScan::adjust_timing`]:
//!
//! ```text
//! group and host: num_replies_expected += 1, num_updates += 1
//! is_drop = (scan probe ∧ tryno > 0 ∧ reply) ∨ (timing ping ∧ no reply)
//!           [∨ (scan probe ∧ no reply), TCP's rule, only as a counterfactual]
//! is_drop ⇒ host drop if probe.sent > host.last_drop; group drop if probe.sent > group.last_drop
//! reply ∧ (¬is_drop ∨ variant acks after a drop) ⇒ group ack, host ack  (m = 3 for a ping)
//! ```
//!
//! Differences from nmap, none of which changes when windows open or close: timeouts of final
//! tries are given up in the same pass that marks them (nmap waits for the next pass, a few ms),
//! and given up when the host can no longer raise its try limit instead of going through the
//! bench (the same moment in host discovery); per-host timing pings, which need an incomplete
//! host that has answered, never happen in host discovery and are left out; the global ping
//! host is the last host found.

use super::group::GroupScanStats;
use super::host::HostScanStats;
use super::packet_ratio::PacketRatio;
use super::perf::{ScanPerformanceVars, COMPL_HOST_LIFETIME, MIN_WAIT};
use super::probe::{HostState, ProbeSend, ProbeToken, ReplyKind, UltraProbe};
use super::timeout::TimeoutInfo;
use super::variant::{ScaleRule, UnreachableRule, VariantRules};
use crate::units::Time;
use std::collections::BTreeSet;
use std::ops::AddAssign;

/// What a scan did, for reports.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ScanCounters {
    /// Every packet sent: new probes, retransmissions, pings.
    pub probes_sent: u64,
    pub retransmissions: u64,
    pub pings_sent: u64,
    /// Timing pings that timed out (each a drop).
    pub ping_timeouts: u64,
    pub timeouts: u64,
    pub group_drops: u64,
    pub host_drops: u64,
    pub group_acks: u64,
    pub rld_waits: u64,
    /// Replies that matched an outstanding probe.
    pub replies_matched: u64,
    /// Replies that matched nothing (late past expiry, destroyed probes, earlier batches).
    pub replies_unmatched: u64,
    /// ICMP unreachables from routers that the variant ignored.
    pub unreachables_ignored: u64,
    /// Sends a host's window held back when the host was ready and the group's limit allowed
    /// them (host congestion control at work): each counted once, however often the scheduler
    /// looks at the host before it sends.
    pub host_window_holds: u64,
}

impl AddAssign for ScanCounters {
    fn add_assign(&mut self, o: ScanCounters) {
        self.probes_sent += o.probes_sent;
        self.retransmissions += o.retransmissions;
        self.pings_sent += o.pings_sent;
        self.ping_timeouts += o.ping_timeouts;
        self.timeouts += o.timeouts;
        self.group_drops += o.group_drops;
        self.host_drops += o.host_drops;
        self.group_acks += o.group_acks;
        self.rld_waits += o.rld_waits;
        self.replies_matched += o.replies_matched;
        self.replies_unmatched += o.replies_unmatched;
        self.unreachables_ignored += o.unreachables_ignored;
        self.host_window_holds += o.host_window_holds;
    }
}

pub struct UltraScan {
    perf: ScanPerformanceVars,
    rules: VariantRules,
    /// Rate-limit detection applies when more than one probe type is sent per host.
    rld_enabled: bool,
    pub gstats: GroupScanStats,
    hosts: Vec<HostScanStats>,
    /// Token `target` of host 0.
    target_offset: u32,
    /// Incomplete hosts in target order (pruned lazily), and the round-robin position.
    incomplete: Vec<u32>,
    next_host: usize,
    num_incomplete: usize,
    /// Hosts that have probes listed or an RLD wait running.
    busy: BTreeSet<u32>,
    /// Whether each host is in `busy`: [`UltraScan::touch`] runs for every busy host on every
    /// poll, and most calls change nothing, so the set is only touched on a change.
    in_busy: Vec<bool>,
    pub counters: ScanCounters,
    /// The 2007 `packet_ratio`, recorded at every timing update that counts as a reply.
    ratio_samples: Vec<f64>,
    /// The last poll stopped at the 50-sends limit.
    send_limited: bool,
    last_poll: Time,
    finished_at: Option<Time>,
}

impl UltraScan {
    /// A scan of `num_targets` hosts, each sent `probe_types` discovery probes, whose tokens
    /// name targets `target_offset..target_offset + num_targets`. `group_to` is the group RTT
    /// estimator carried over from earlier calls (host discovery keeps it across batches).
    pub fn new(
        rules: VariantRules,
        perf: ScanPerformanceVars,
        num_targets: u32,
        probe_types: u8,
        target_offset: u32,
        group_to: TimeoutInfo,
        now: Time,
    ) -> UltraScan {
        UltraScan {
            rules,
            rld_enabled: probe_types > 1,
            gstats: GroupScanStats::new(&perf, group_to, now),
            hosts: (0..num_targets).map(|_| HostScanStats::new(probe_types, &perf, now)).collect(),
            target_offset,
            incomplete: (0..num_targets).collect(),
            next_host: 0,
            num_incomplete: num_targets as usize,
            busy: BTreeSet::new(),
            in_busy: vec![false; num_targets as usize],
            counters: ScanCounters::default(),
            ratio_samples: Vec::new(),
            send_limited: false,
            last_poll: now,
            finished_at: if num_targets == 0 { Some(now) } else { None },
            perf,
        }
    }

    pub fn perf(&self) -> &ScanPerformanceVars {
        &self.perf
    }

    pub fn is_done(&self) -> bool {
        self.num_incomplete == 0
    }

    /// When the last host completed.
    pub fn finished_at(&self) -> Option<Time> {
        self.finished_at
    }

    pub fn host(&self, i: u32) -> &HostScanStats {
        &self.hosts[i as usize]
    }

    pub fn host_states(&self) -> impl Iterator<Item = HostState> + '_ {
        self.hosts.iter().map(|h| h.state)
    }

    /// Moves the recorded `packet_ratio` samples into `out`.
    pub fn take_ratio_samples(&mut self, out: &mut Vec<f64>) {
        out.append(&mut self.ratio_samples);
    }

    // ---- the main loop --------------------------------------------------------------------

    /// `processData`, then a send phase. Appends the probes to send now to `out`.
    pub fn poll(&mut self, now: Time, out: &mut Vec<ProbeSend>) {
        self.last_poll = now;
        self.process_data(now);
        // `waitForResponses` just ran: the 50-sends counter restarts.
        self.gstats.probes_sent_at_last_wait = self.gstats.ratio.probes_sent;
        self.send_limited = false;
        if self.is_done() {
            return;
        }
        self.do_any_pings(now, out);
        self.do_any_outstanding_retransmits(now, out);
        self.do_any_new_probes(now, out);
        self.send_limited = self.gstats.send_limited();
    }

    /// When the scan next needs a poll, replies aside: the earliest probe timeout, end of a
    /// host wait, or timing ping; 2 ms after a poll that hit the 50-sends limit.
    pub fn next_wakeup(&self) -> Option<Time> {
        if self.is_done() {
            return None;
        }
        if self.send_limited {
            return Some(self.last_poll + MIN_WAIT);
        }
        let mut t = Time::MAX;
        for &h in &self.busy {
            let host = &self.hosts[h as usize];
            if host.completed_at.is_some() {
                continue;
            }
            let to = host.probe_timeout(&self.gstats.to, &self.perf);
            for p in host.probes_outstanding.iter().filter(|p| !p.timedout) {
                t = t.min(p.sent + to + Time(1));
            }
            // A wait that already ended and still holds the host back waits for the group window,
            // which opens on a timeout or a reply.
            if let Some(w) = host.wait_ends(self.last_poll).filter(|&w| w > self.last_poll) {
                t = t.min(w);
            }
        }
        if let Some(ph) = self.gstats.pinghost {
            let host = &self.hosts[ph as usize];
            match host.probes_outstanding.iter().find(|p| p.is_ping) {
                Some(p) => t = t.min(p.sent + host.probe_timeout(&self.gstats.to, &self.perf) + Time(1)),
                None => {
                    if let Some(due) = self.gstats.ping_due(&self.perf).filter(|&d| d > self.last_poll) {
                        t = t.min(due);
                    }
                }
            }
        }
        // Nothing pending: nmap's default wait when the group is blocked.
        Some(if t == Time::MAX { self.last_poll + Time::from_secs(1) } else { t.max(self.last_poll) })
    }

    fn process_data(&mut self, now: Time) {
        let busy: Vec<u32> = self.busy.iter().copied().collect();
        for h in busy {
            let hi = h as usize;
            if self.hosts[hi].completed_at.is_some() {
                self.expire_late_probes(hi, now);
                continue;
            }
            let to = self.hosts[hi].probe_timeout(&self.gstats.to, &self.perf);
            for i in 0..self.hosts[hi].probes_outstanding.len() {
                let p = self.hosts[hi].probes_outstanding[i];
                if !p.timedout && now - p.sent > to {
                    self.mark_timed_out(hi, i, now);
                }
            }
            let limit = self.hosts[hi].allowed_tryno(&self.perf);
            let mut i = 0;
            while i < self.hosts[hi].probes_outstanding.len() {
                let p = self.hosts[hi].probes_outstanding[i];
                if !p.is_ping && p.timedout && !p.retransmitted && p.tryno >= limit.maxtries && !limit.may_increase {
                    // Give up: `ultrascan_host_probe_update(HOST_DOWN, NULL)`.
                    self.adjust_timing(hi, p, None, now);
                    self.hosts[hi].destroy(i);
                    if self.hosts[hi].state == HostState::Unknown {
                        self.hosts[hi].state = HostState::Down;
                    }
                    continue;
                }
                if p.timedout && p.retransmitted && now - p.sent > HostScanStats::probe_expire_time(to) {
                    self.hosts[hi].destroy(i);
                    continue;
                }
                i += 1;
            }
            self.check_completed(hi, now);
            self.touch(hi);
        }
        self.prune_incomplete();
        self.expire_global_ping(now);
    }

    /// Drops timed-out probes of a completed host once they are too old for late replies.
    fn expire_late_probes(&mut self, hi: usize, now: Time) {
        let to = self.hosts[hi].probe_timeout(&self.gstats.to, &self.perf);
        let expire = HostScanStats::probe_expire_time(to);
        let host = &mut self.hosts[hi];
        host.probes_outstanding.retain(|p| p.is_ping || now - p.sent <= expire);
        self.touch(hi);
    }

    fn expire_global_ping(&mut self, now: Time) {
        let Some(ph) = self.gstats.pinghost else { return };
        let hi = ph as usize;
        let to = self.hosts[hi].probe_timeout(&self.gstats.to, &self.perf);
        if let Some(i) = self.hosts[hi].probes_outstanding.iter().position(|p| p.is_ping && now - p.sent > to) {
            let p = self.hosts[hi].probes_outstanding[i];
            self.counters.ping_timeouts += 1;
            if self.rules.ping_timeout_timed {
                self.adjust_timing(hi, p, None, now);
            }
            self.destroy(hi, i);
        }
    }

    fn do_any_pings(&mut self, now: Time, out: &mut Vec<ProbeSend>) {
        let Some(ph) = self.gstats.pinghost else { return };
        let host = &self.hosts[ph as usize];
        if host.probes_outstanding.iter().any(|p| p.is_ping) {
            return;
        }
        let due = self.gstats.ping_due(&self.perf).is_some_and(|t| now >= t);
        if due && self.group_send_ok() {
            let probe_type = host.ping_probe.unwrap_or(0);
            self.emit(ph as usize, probe_type, 0, true, now, out);
            self.gstats.lastping_sent = now;
            self.gstats.lastping_sent_numprobes = self.gstats.ratio.probes_sent;
            self.counters.pings_sent += 1;
        }
    }

    fn do_any_outstanding_retransmits(&mut self, now: Time, out: &mut Vec<ProbeSend>) {
        loop {
            let mut sent = false;
            let candidates: Vec<u32> = self
                .busy
                .iter()
                .copied()
                .filter(|&h| self.hosts[h as usize].num_probes_waiting_retransmit > 0 || self.hosts[h as usize].rld.waiting)
                .collect();
            for h in candidates {
                if !self.group_send_ok() {
                    return;
                }
                let hi = h as usize;
                if !self.hosts[hi].send_ok(&self.gstats.timing, now) {
                    self.counters.host_window_holds += u64::from(self.hosts[hi].note_window_hold(&self.gstats.timing, now));
                    continue;
                }
                let maxtries = self.hosts[hi].allowed_tryno(&self.perf).maxtries;
                let Some(i) = self.hosts[hi].retransmit_candidate(maxtries) else { continue };
                let old = self.hosts[hi].probes_outstanding[i];
                let host = &mut self.hosts[hi];
                if self.rld_enabled && host.rld.must_wait(old.tryno + 1, now) {
                    self.counters.rld_waits += 1;
                    self.touch(hi);
                    continue;
                }
                host.rld.waiting = false;
                host.probes_outstanding[i].retransmitted = true;
                host.num_probes_waiting_retransmit -= 1;
                self.emit(hi, old.probe_type, old.tryno + 1, false, now, out);
                self.counters.retransmissions += 1;
                sent = true;
            }
            if !sent {
                return;
            }
        }
    }

    fn do_any_new_probes(&mut self, now: Time, out: &mut Vec<ProbeSend>) {
        let mut idle = 0;
        while idle < self.incomplete.len() && self.group_send_ok() {
            if self.next_host >= self.incomplete.len() {
                self.next_host = 0;
            }
            let hi = self.incomplete[self.next_host] as usize;
            self.next_host += 1;
            let host = &mut self.hosts[hi];
            if host.fresh_left() && host.send_ok(&self.gstats.timing, now) {
                let probe_type = host.fresh_sent;
                self.hosts[hi].fresh_sent += 1;
                self.emit(hi, probe_type, 0, false, now, out);
                idle = 0;
            } else {
                self.counters.host_window_holds += u64::from(host.fresh_left() && host.note_window_hold(&self.gstats.timing, now));
                idle += 1;
            }
        }
    }

    fn group_send_ok(&self) -> bool {
        self.gstats.send_ok(self.num_incomplete)
    }

    fn emit(&mut self, hi: usize, probe_type: u8, tryno: u8, is_ping: bool, now: Time, out: &mut Vec<ProbeSend>) {
        let p = self.hosts[hi].add_probe(probe_type, tryno, is_ping, now);
        self.gstats.sent();
        self.counters.probes_sent += 1;
        self.touch(hi);
        out.push(ProbeSend {
            token: ProbeToken { target: self.target_offset + hi as u32, serial: p.serial },
            probe_type,
            tryno,
            is_ping,
        });
    }

    // ---- replies and timing ---------------------------------------------------------------

    /// A reply matched by its token, received at `now`.
    pub fn on_reply(&mut self, now: Time, token: ProbeToken, kind: ReplyKind) {
        let Some(hi) = self.matching_host(token.target) else {
            self.counters.replies_unmatched += 1;
            return;
        };
        let to = self.hosts[hi].probe_timeout(&self.gstats.to, &self.perf);
        let host = &self.hosts[hi];
        let found = host.find(token.serial).filter(|&i| {
            let p = &host.probes_outstanding[i];
            let fresh_enough = !p.timedout || now - p.sent <= HostScanStats::probe_expire_time(to);
            // The ping host stays for its pings; other completed hosts are kept for 120 s.
            let host_kept = p.is_ping || host.completed_at.map_or(true, |c| now - c <= COMPL_HOST_LIFETIME);
            fresh_enough && host_kept
        });
        let Some(i) = found else {
            self.counters.replies_unmatched += 1;
            return;
        };
        if kind == ReplyKind::Unreachable && self.rules.unreachable == UnreachableRule::Ignored {
            // HOST_UNKNOWN: no state, no RTT sample, no timing; the probe stays outstanding.
            self.counters.unreachables_ignored += 1;
            return;
        }
        self.counters.replies_matched += 1;
        let p = self.hosts[hi].probes_outstanding[i];
        // `ultrascan_adjust_timeouts` runs before any decision about timing.
        let rtt = self.perf.rtt;
        self.hosts[hi].to.adjust(p.sent, now, &rtt);
        self.gstats.to.adjust(p.sent, now, &rtt);
        self.hosts[hi].lastrcvd = Some(now);
        self.gstats.lastrcvd = now;
        if p.is_ping {
            self.adjust_timing(hi, p, Some(now), now);
            self.destroy(hi, i);
            return;
        }
        let up = kind == ReplyKind::Up;
        let mut timed = match kind {
            ReplyKind::Up => true,
            ReplyKind::Unreachable => self.rules.unreachable == UnreachableRule::DownTimed,
            ReplyKind::TimeExceeded => false,
        };
        if self.rules.error_retry_untimed && !up && p.tryno > 0 {
            timed = false;
        }
        if timed {
            self.adjust_timing(hi, p, Some(now), now);
        }
        if up {
            self.host_up(hi, p.probe_type, now);
        } else {
            if self.hosts[hi].state != HostState::Up {
                self.hosts[hi].state = HostState::Down;
            }
            self.destroy(hi, i);
            self.check_completed(hi, now);
        }
        self.touch(hi);
    }

    fn matching_host(&self, target: u32) -> Option<usize> {
        let i = target.checked_sub(self.target_offset)? as usize;
        (i < self.hosts.len()).then_some(i)
    }

    /// `HOST_UP`: every other probe of the host is destroyed without timing and it completes.
    fn host_up(&mut self, hi: usize, probe_type: u8, now: Time) {
        self.hosts[hi].state = HostState::Up;
        self.hosts[hi].ping_probe = Some(probe_type);
        while let Some(i) = self.hosts[hi].probes_outstanding.iter().position(|p| !p.is_ping) {
            self.destroy(hi, i);
        }
        self.check_completed(hi, now);
        let ping_out = self
            .gstats
            .pinghost
            .is_some_and(|ph| self.hosts[ph as usize].probes_outstanding.iter().any(|p| p.is_ping));
        if !ping_out {
            self.gstats.pinghost = Some(hi as u32);
        }
    }

    /// `ultrascan_adjust_timing`: the one place windows change.
    fn adjust_timing(&mut self, hi: usize, p: UltraProbe, reply: Option<Time>, now: Time) {
        let perf = self.perf;
        let rules = self.rules;
        let g = &mut self.gstats;
        let host = &mut self.hosts[hi];
        for t in [&mut g.timing, &mut host.timing] {
            t.num_replies_expected += 1;
            t.num_updates += 1;
        }
        let replied = reply.is_some();
        if replied || p.is_ping {
            g.ratio.probes_replied_to += 1;
            self.ratio_samples.extend(g.ratio.ratio());
        }
        let is_drop = (!p.is_ping && p.tryno > 0 && replied) || (p.is_ping && !replied) || (rules.unanswered_is_drop && !replied);
        if is_drop {
            if p.sent > host.timing.last_drop {
                host.timing.drop(host.num_probes_active, &perf, now);
                self.counters.host_drops += 1;
            }
            if p.sent > g.timing.last_drop {
                g.timing.drop_group(g.num_probes_active, &perf, now);
                self.counters.group_drops += 1;
            }
        }
        if replied && (!is_drop || rules.ack_after_drop) {
            let m = if p.is_ping { perf.ping_magnifier } else { 1.0 };
            let gs = scale(rules.group_scale, &g.ratio, &perf);
            g.timing.ack(&perf, gs, m, rules.group_slow_start);
            let hs = scale(rules.host_scale, &g.ratio, &perf);
            host.timing.ack(&perf, hs, m, rules.host_slow_start);
            self.counters.group_acks += 1;
        }
        host.sdn.record(is_drop, replied, p.sent, &perf, now);
    }

    // ---- bookkeeping ----------------------------------------------------------------------

    fn mark_timed_out(&mut self, hi: usize, i: usize, now: Time) {
        let p = self.hosts[hi].mark_timed_out(i);
        self.gstats.num_probes_active -= 1;
        self.counters.timeouts += 1;
        self.adjust_timing(hi, p, None, now);
    }

    fn destroy(&mut self, hi: usize, i: usize) {
        let (_, held_slot) = self.hosts[hi].destroy(i);
        if held_slot {
            self.gstats.num_probes_active -= 1;
        }
        self.touch(hi);
    }

    fn check_completed(&mut self, hi: usize, now: Time) {
        let host = &mut self.hosts[hi];
        if host.completed_at.is_none() && host.completed() {
            host.completed_at = Some(now);
            self.num_incomplete -= 1;
            if self.num_incomplete == 0 {
                self.finished_at = Some(now);
            }
        }
    }

    /// Drops completed hosts from the round-robin list once they are an eighth of it (the
    /// round robin skips them meanwhile), so pruning costs O(1) per completion.
    fn prune_incomplete(&mut self) {
        if (self.incomplete.len() - self.num_incomplete) * 8 < self.incomplete.len() {
            return;
        }
        let hosts = &self.hosts;
        let before_cursor =
            self.incomplete[..self.next_host.min(self.incomplete.len())].iter().filter(|&&h| hosts[h as usize].completed_at.is_some()).count();
        self.incomplete.retain(|&h| hosts[h as usize].completed_at.is_none());
        self.next_host -= before_cursor;
    }

    fn touch(&mut self, hi: usize) {
        let host = &self.hosts[hi];
        let busy = !host.probes_outstanding.is_empty() || host.rld.waiting;
        if busy != self.in_busy[hi] {
            self.in_busy[hi] = busy;
            if busy {
                self.busy.insert(hi as u32);
            } else {
                self.busy.remove(&(hi as u32));
            }
        }
    }
}

/// The increment scale a rule gives (`None`: the timing struct's own expected/received).
fn scale(rule: ScaleRule, ratio: &PacketRatio, perf: &ScanPerformanceVars) -> Option<f64> {
    match rule {
        ScaleRule::One => Some(1.0),
        ScaleRule::SentOverReplied => Some(ratio.cc_scale(perf)),
        ScaleRule::ExpectedOverReceived => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::perf::TimingTemplate;
    use crate::scan::Variant;

    fn scan(variant: Variant, n: u32, probe_types: u8) -> UltraScan {
        let perf = variant.perf(TimingTemplate::T3);
        UltraScan::new(variant.rules(), perf, n, probe_types, 0, TimeoutInfo::new(&perf.rtt), Time::ZERO)
    }

    fn poll(s: &mut UltraScan, now: Time) -> Vec<ProbeSend> {
        let mut out = Vec::new();
        s.poll(now, &mut out);
        out
    }

    #[test]
    fn the_first_send_phase_fills_the_initial_window_round_robin() {
        let mut s = scan(Variant::Scaled, 100, 2);
        let sent = poll(&mut s, Time::ZERO);
        assert_eq!(sent.len(), 10, "group cwnd 10");
        assert!(sent.iter().enumerate().all(|(k, p)| p.token.target == k as u32 && p.probe_type == 0 && p.tryno == 0));
        assert_eq!(s.gstats.num_probes_active, 10);
        assert_eq!(s.next_wakeup(), Some(Time::from_secs(1) + Time(1)), "initial timeout 1 s");
    }

    #[test]
    fn the_2007_ratio_counts_probes_at_send_time() {
        // Ten probes out, the first reply: scaled-2007 scales it by 10/1 (slow start +10),
        // today's scale is 1/1 (+1).
        let mut old = scan(Variant::Scaled2007, 100, 1);
        let mut new = scan(Variant::Scaled, 100, 1);
        for s in [&mut old, &mut new] {
            let sent = poll(s, Time::ZERO);
            s.on_reply(Time::from_millis(100), sent[0].token, ReplyKind::Up);
        }
        assert_eq!(old.gstats.timing.cwnd, 20.0);
        assert_eq!(new.gstats.timing.cwnd, 11.0);
        let mut samples = Vec::new();
        old.take_ratio_samples(&mut samples);
        assert_eq!(samples, vec![10.0]);
        // Unscaled: +1 as well.
        let mut un = scan(Variant::Unscaled, 100, 1);
        let sent = poll(&mut un, Time::ZERO);
        un.on_reply(Time::from_millis(100), sent[0].token, ReplyKind::Up);
        assert_eq!(un.gstats.timing.cwnd, 11.0);
    }

    #[test]
    fn a_silent_host_is_retried_once_and_given_up() {
        let mut s = scan(Variant::Scaled, 1, 1);
        assert_eq!(poll(&mut s, Time::ZERO).len(), 1);
        let t1 = s.next_wakeup().unwrap();
        let retry = poll(&mut s, t1);
        assert_eq!((retry.len(), retry[0].tryno), (1, 1), "one probe type: no RLD wait");
        let t2 = s.next_wakeup().unwrap();
        assert_eq!(t2, t1 + Time::from_secs(1) + Time(1));
        assert!(poll(&mut s, t2).is_empty());
        assert!(s.is_done());
        assert_eq!(s.host(0).state, HostState::Down);
        assert_eq!(s.finished_at(), Some(t2));
        // Today's counting: try-0 timeout, try-1 timeout, give-up: three expected, no reply.
        assert_eq!(s.gstats.timing.num_replies_expected, 3);
        assert_eq!(s.counters.group_drops, 0, "a timed-out scan probe is not a drop");
    }

    #[test]
    fn under_tcps_rule_unanswered_timeouts_halve_the_group_window() {
        // Ten probes out at cwnd 10, none answered, then their ten retransmissions. nmap: twenty
        // timeouts, no drop (the test above). TCP's rule: the retransmissions' timeouts are
        // drops (the first tries were sent at the scan's start, the initial `last_drop`, so
        // they cannot be), counted once for the window: cwnd 10 / 2 = 5, ssthresh
        // ⌊9 still in flight / 1.5⌋ = 6 (the group divisor at T3).
        let perf = Variant::Scaled2007.perf(TimingTemplate::T3);
        let rules = Variant::Scaled2007.rules().with_unanswered_as_drop();
        let mut s = UltraScan::new(rules, perf, 20, 1, 0, TimeoutInfo::new(&perf.rtt), Time::ZERO);
        assert_eq!(poll(&mut s, Time::ZERO).len(), 10);
        let t1 = s.next_wakeup().unwrap();
        assert_eq!(poll(&mut s, t1).len(), 10);
        assert_eq!((s.counters.timeouts, s.counters.group_drops), (10, 0));
        let t2 = s.next_wakeup().unwrap();
        poll(&mut s, t2);
        assert_eq!((s.counters.timeouts, s.counters.group_drops), (20, 1));
        assert_eq!((s.gstats.timing.cwnd, s.gstats.timing.ssthresh), (5.0, 6));
    }

    #[test]
    fn with_two_probe_types_the_first_retransmission_waits_a_second() {
        let mut s = scan(Variant::Scaled, 1, 2);
        assert_eq!(poll(&mut s, Time::ZERO).len(), 2, "fewer than two incomplete hosts: no group limit");
        let t1 = s.next_wakeup().unwrap();
        assert!(poll(&mut s, t1).is_empty(), "RLD holds the retransmission");
        assert_eq!(s.next_wakeup(), Some(t1 + Time::from_secs(1)));
        let retry = poll(&mut s, t1 + Time::from_secs(1));
        assert_eq!(retry.len(), 2, "then both retransmissions go");
        assert!(retry.iter().all(|p| p.tryno == 1));
    }

    #[test]
    fn a_reply_to_a_retransmission_is_a_drop_and_today_also_an_ack() {
        for (variant, want_cwnd) in [(Variant::Scaled2007, 5.0), (Variant::Scaled, 6.0)] {
            let mut s = scan(variant, 20, 1);
            assert_eq!(poll(&mut s, Time::ZERO).len(), 10);
            let t1 = s.next_wakeup().unwrap();
            let retries = poll(&mut s, t1);
            assert_eq!(retries.len(), 10);
            assert!(s.gstats.timing.cwnd == 10.0);
            s.on_reply(t1 + Time::from_millis(50), retries[0].token, ReplyKind::Up);
            // cwnd 10 / 2 = 5; ssthresh = int(10 in flight / 1.5) = 6. Today the ack follows:
            // slow start, scale = expected/received = 11/1 capped at ssthresh 6.
            assert_eq!(s.gstats.timing.cwnd, want_cwnd, "{variant}");
            assert_eq!(s.gstats.timing.ssthresh, 6);
            assert_eq!(s.counters.group_drops, 1);
            // A second drop from a probe sent before the decrease does not count again.
            s.on_reply(t1 + Time::from_millis(60), retries[1].token, ReplyKind::Up);
            assert_eq!(s.counters.group_drops, 1);
        }
    }

    #[test]
    fn router_unreachables_follow_the_variant() {
        for variant in Variant::ALL {
            let mut s = scan(variant, 20, 1);
            let sent = poll(&mut s, Time::ZERO);
            s.on_reply(Time::from_millis(80), sent[3].token, ReplyKind::Unreachable);
            let h = s.host(3);
            match variant {
                Variant::Unscaled => {
                    assert_eq!((h.state, s.gstats.timing.cwnd), (HostState::Down, 10.0));
                    assert!(h.completed_at.is_some());
                    assert!(s.gstats.to.has_sample(), "the RTT sample is taken anyway");
                }
                Variant::ScaledWiki | Variant::Scaled2007 => {
                    // Try 0: an ack, scaled by 10 sent / 1 replied (under either cap).
                    assert_eq!((h.state, s.gstats.timing.cwnd), (HostState::Down, 20.0));
                }
                Variant::Scaled => {
                    assert_eq!((h.state, h.num_probes_active), (HostState::Unknown, 1));
                    assert!(!s.gstats.to.has_sample());
                    assert_eq!(s.counters.unreachables_ignored, 1);
                }
            }
        }
    }

    #[test]
    fn a_late_reply_to_try_zero_is_an_ack_and_finds_the_host() {
        let mut s = scan(Variant::Scaled, 20, 1);
        let sent = poll(&mut s, Time::ZERO);
        let t1 = s.next_wakeup().unwrap();
        poll(&mut s, t1);
        s.on_reply(t1 + Time::from_millis(10), sent[0].token, ReplyKind::Up);
        assert_eq!(s.host(0).state, HostState::Up);
        assert_eq!(s.counters.group_drops, 0);
        assert_eq!(s.host(0).num_probes_active, 0, "the retransmission is destroyed too");
        // Past the expiry (10 × min(1 s, timeout)) a reply no longer matches.
        s.on_reply(Time::from_secs(30), sent[1].token, ReplyKind::Up);
        assert_eq!(s.counters.replies_unmatched, 1);
    }

    #[test]
    fn a_global_ping_goes_to_a_found_host_after_a_silent_pingtime_and_its_loss_is_a_drop() {
        let mut s = scan(Variant::Scaled, 300, 1);
        let sent = poll(&mut s, Time::ZERO);
        s.on_reply(Time::from_millis(100), sent[0].token, ReplyKind::Up);
        assert_eq!(s.gstats.pinghost, Some(0));
        let mut now = Time::from_millis(100);
        let mut ping = None;
        while ping.is_none() && now < Time::from_secs(20) {
            now = s.next_wakeup().unwrap();
            ping = poll(&mut s, now).into_iter().find(|p| p.is_ping);
        }
        let ping = ping.expect("a ping within 20 s");
        assert_eq!(ping.token.target, 0);
        assert!(now >= Time::from_millis(100) + Time::from_millis(1250));
        let cwnd = s.gstats.timing.cwnd;
        // Unanswered: it expires after the ping host's timeout and halves the group window.
        let drops = s.counters.group_drops;
        while s.counters.group_drops == drops {
            now = s.next_wakeup().unwrap();
            poll(&mut s, now);
        }
        assert!(s.gstats.timing.cwnd <= cwnd / 2.0 + 1e-9);
    }
}
