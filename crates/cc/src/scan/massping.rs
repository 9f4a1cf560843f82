//! Host discovery over a whole target list: nmap's `massping` (`targets.cc`), spec §1.3, §1.6
//! and §5. Targets go in batches of `PING_GROUP_SZ` = 4096, one `ultra_scan()` call
//! ([`UltraScan`]) each, one after the other. Every batch starts with fresh group and host
//! windows (cwnd 10, ssthresh at its initial value); the group RTT estimator carries over.

use super::engine::{ScanCounters, UltraScan};
use super::perf::{TimingTemplate, PING_GROUP_SZ};
use super::probe::{HostState, ProbeSend, ProbeToken, ReplyKind};
use super::timeout::TimeoutInfo;
use super::variant::{Variant, VariantRules};
use crate::units::Time;

pub struct HostDiscovery {
    variant: Variant,
    rules: VariantRules,
    template: TimingTemplate,
    num_targets: u32,
    probe_types: u8,
    batch_size: u32,
    batch: UltraScan,
    batch_start: u32,
    /// States of the targets of finished batches.
    states: Vec<HostState>,
    totals: ScanCounters,
    ratio_samples: Vec<f64>,
    finished_at: Option<Time>,
}

impl HostDiscovery {
    /// Discovery of `num_targets` targets with `probe_types` probes each (nmap's default as root
    /// on IPv4 is 4: `-PE -PS443 -PA80 -PP`).
    pub fn new(variant: Variant, template: TimingTemplate, num_targets: u32, probe_types: u8, now: Time) -> HostDiscovery {
        Self::with_rules(variant, variant.rules(), template, num_targets, probe_types, PING_GROUP_SZ as u32, now)
    }

    /// A variant's constants with other rules ([`VariantRules::with_unanswered_as_drop`] to see
    /// what counting unanswered probes as drops, as TCP would, does to a scan) and batches of
    /// `batch_size` targets (nmap's `PING_GROUP_SZ` in [`HostDiscovery::new`]).
    pub fn with_rules(
        variant: Variant,
        rules: VariantRules,
        template: TimingTemplate,
        num_targets: u32,
        probe_types: u8,
        batch_size: u32,
        now: Time,
    ) -> HostDiscovery {
        let perf = variant.perf(template);
        let batch_size = batch_size.max(1);
        let first = num_targets.min(batch_size);
        HostDiscovery {
            variant,
            rules,
            template,
            num_targets,
            probe_types,
            batch_size,
            batch: UltraScan::new(rules, perf, first, probe_types, 0, TimeoutInfo::new(&perf.rtt), now),
            batch_start: 0,
            states: Vec::with_capacity(num_targets as usize),
            totals: ScanCounters::default(),
            ratio_samples: Vec::new(),
            finished_at: (num_targets == 0).then_some(now),
        }
    }

    pub fn is_done(&self) -> bool {
        self.finished_at.is_some()
    }

    /// When the last batch completed.
    pub fn finished_at(&self) -> Option<Time> {
        self.finished_at
    }

    /// The batch now running.
    pub fn batch(&self) -> &UltraScan {
        &self.batch
    }

    pub fn poll(&mut self, now: Time, out: &mut Vec<ProbeSend>) {
        if self.is_done() {
            return;
        }
        self.batch.poll(now, out);
        self.batch.take_ratio_samples(&mut self.ratio_samples);
        if self.batch.is_done() {
            self.next_batch(now, out);
        }
    }

    fn next_batch(&mut self, now: Time, out: &mut Vec<ProbeSend>) {
        self.totals += self.batch.counters;
        self.states.extend(self.batch.host_states());
        let start = self.batch_start + self.batch_size;
        if start >= self.num_targets {
            self.finished_at = self.batch.finished_at().or(Some(now));
            return;
        }
        let n = (self.num_targets - start).min(self.batch_size);
        let perf = self.variant.perf(self.template);
        let to = self.batch.gstats.to;
        self.batch = UltraScan::new(self.rules, perf, n, self.probe_types, start, to, now);
        self.batch_start = start;
        self.batch.poll(now, out);
    }

    pub fn on_reply(&mut self, now: Time, token: ProbeToken, kind: ReplyKind) {
        if self.is_done() {
            return;
        }
        self.batch.on_reply(now, token, kind);
        self.batch.take_ratio_samples(&mut self.ratio_samples);
    }

    pub fn next_wakeup(&self) -> Option<Time> {
        if self.is_done() {
            return None;
        }
        // A batch that completed on a reply starts the next one at the next poll.
        if self.batch.is_done() {
            return self.batch.finished_at();
        }
        self.batch.next_wakeup()
    }

    /// Every target's state (targets of unfinished batches are `Unknown`).
    pub fn host_states(&self) -> Vec<HostState> {
        let mut v = self.states.clone();
        if !self.is_done() {
            v.extend(self.batch.host_states());
        }
        v.resize(self.num_targets as usize, HostState::Unknown);
        v
    }

    pub fn hosts_up(&self) -> usize {
        self.host_states().iter().filter(|s| **s == HostState::Up).count()
    }

    /// Counters of all batches so far.
    pub fn counters(&self) -> ScanCounters {
        let mut c = self.totals;
        if !self.is_done() {
            c += self.batch.counters;
        }
        c
    }

    /// Moves the recorded `packet_ratio` samples into `out`.
    pub fn take_ratio_samples(&mut self, out: &mut Vec<f64>) {
        out.append(&mut self.ratio_samples);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_run_one_after_the_other_and_reset_the_windows() {
        let mut d = HostDiscovery::with_rules(Variant::Scaled, Variant::Scaled.rules(), TimingTemplate::T3, 30, 1, 20, Time::ZERO);
        let mut out = Vec::new();
        d.poll(Time::ZERO, &mut out);
        assert!(out.iter().all(|p| p.token.target < 20));
        // Everyone answers at once: the first batch is done, the second begins at once.
        let now = Time::from_millis(50);
        for p in out.clone() {
            d.on_reply(now, p.token, ReplyKind::Up);
        }
        let mut now = now;
        while !d.is_done() {
            out.clear();
            d.poll(now, &mut out);
            for p in out.clone() {
                d.on_reply(now + Time::from_millis(50), p.token, ReplyKind::Up);
            }
            if out.iter().any(|p| p.token.target >= 20) {
                assert_eq!(d.batch().gstats.to.srtt, 50_000, "the group RTT estimator carries over");
            }
            now = d.next_wakeup().unwrap_or(now).max(now + Time::from_millis(50));
        }
        assert_eq!(d.hosts_up(), 30);
        assert_eq!(d.counters().probes_sent, 30);
    }
}
