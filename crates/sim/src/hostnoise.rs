//! Host timing noise: when an end host's TCP stack gets to a packet that has reached its NIC.
//!
//! The simulator's hosts otherwise process every packet the instant it arrives, so runs that
//! differ only in their seed barely differ (issue 16, item 6): a real host batches receive
//! interrupts, takes time to wake the code that handles them, and now and then does not run
//! at all (another task, or for a virtual machine another vCPU, holds the processor). This
//! module models those three effects per host, each flow having a sender host (which processes
//! ACKs) and a receiver host (which processes data and sends ACKs):
//!
//! 1. **Interrupt moderation** (`irq_gap`): at most one receive interrupt per `irq_gap`. A
//!    packet arriving when the last interrupt is older than that is handled at once; one
//!    arriving sooner waits for the next allowed interrupt, together with everything else that
//!    arrives until then (NAPI then polls them as one batch). This is the rate limit of Intel's
//!    `InterruptThrottleRate` and of `ethtool -C rx-usecs`. Deterministic.
//! 2. **Wake-up latency** (`latency`): each batch is handled after a random delay, exponential
//!    with this mean (softirq and thread wake-up; `cyclictest` measures it).
//! 3. **Stalls** (`stall_every`, `stall_max`): the host stops handling packets for a while:
//!    stalls begin at exponentially distributed intervals of mean `stall_every` and last a time
//!    uniform on `[0, stall_max]`; what arrives during one is handled when it ends. This is how
//!    a descheduled vCPU looks from inside a VM (its time slice lost to another).
//!
//! A packet's time is moved by these in that order, and a host never handles a packet before
//! one that reached it earlier. All randomness comes from one RNG per host derived from the
//! run seed ([`HOST_RNG_BASE`]), so runs stay byte-for-byte reproducible; with the model off
//! ([`HostNoise::is_off`]) no host state exists and no number is drawn, and results are those
//! of the model-free simulator.
//!
//! # API
//!
//! - [`HostNoise`]: the four parameters, with presets [`HostNoise::preset`] and a textual form
//!   parsed by [`HostNoise::parse`] (`"testbed"`, `"nic"`, `"vm"`, `"off"`, or words
//!   `irq_gap T latency T stall T every T`, which may follow a preset to override it:
//!   `"vm stall 6ms"`). [`crate::LinkConfig::host_noise`] carries it; scenario key
//!   `link.host_noise`, flag `--host-noise`.
//! - [`HostClock`]: one host's state; [`HostClock::process`] maps the time a packet reaches
//!   the host to the time its stack handles it. Other drivers (a many-hosts topology, the
//!   vegas-trials reproduction's two VMs on one host) can own one per host and call it.
//!
//! # Presets and where their numbers come from
//!
//! - `testbed`: this project's kernel testbed host (2 cores, Linux 6.18, veth pairs: no NIC
//!   and so no interrupt moderation), from a `cyclictest`-style measurement on it (30,000
//!   sleeps to absolute 1 ms deadlines with `clock_nanosleep(CLOCK_MONOTONIC)`, under the
//!   machine's ordinary load of concurrent builds; see [`TESTBED_LATENCY_MEAN`] and
//!   [`TESTBED_STALL_EVERY`]) and the emulator's own timing record (`emulator.json` of
//!   `cclab testbed run`: p50 0.6 µs, p99 25 µs, max about 4 ms). That describes the
//!   testbed loaded and its forwarder at normal priority; since the forwarder runs at
//!   real-time priority (SCHED_FIFO) it records frames a median under 1 µs late, p99 12-160 µs,
//!   the longest 0.3-1.4 ms per 5 s run, and the kernel's lossless runs repeat to four
//!   figures, so the `twin` experiment runs the simulator without host noise.
//! - `nic`: a bare-metal host with an Intel gigabit NIC at its driver default, e1000e
//!   `InterruptThrottleRate=3` ("dynamic conservative"), which for bulk traffic limits receive
//!   interrupts to 4,000 per second ([`E1000E_BULK_IRQ_GAP`]; Linux
//!   `Documentation/networking/device_drivers/ethernet/intel/e1000e.rst`).
//! - `vm`: a KVM guest on a shared host. virtio-net does not moderate interrupts by default;
//!   a halted vCPU is woken through the host scheduler (KVM halt polling spins for at most
//!   `halt_poll_ns` = 200 µs, `Documentation/virt/kvm/halt-polling.rst`, so the wake-up costs
//!   tens of µs: [`VM_WAKEUP_MEAN`]); and a vCPU whose physical CPU is shared with another
//!   runnable thread loses up to one scheduler slice, `sysctl_sched_base_slice` = 0.75 ms
//!   times `1 + ilog2(ncpus)` (Linux `kernel/sched/fair.c`, `SCHED_TUNABLESCALING_LOG`):
//!   3 ms on an 8-CPU host ([`VM_STALL_MAX`]). How often that happens depends on the host's
//!   load; the preset assumes one stall per 100 ms ([`VM_STALL_EVERY`], about 1.5 % steal
//!   time), and a reproduction should set its own host's rate (`vm every 20ms`).
//!
//! Not modelled: timer granularity (the sender's RTO, pacing and delayed-ACK timers fire on
//! time; Linux runs pacing on high-resolution timers, and a 4 ms jiffy on a 200 ms minimum
//! RTO is small), and hosts shared between flows (each flow has its own two hosts). With
//! netem jitter the receiver host sees packets in the order they left the bottleneck.

use cc::rng::{component_rng, CcRng, Rng};
use cc::Time;

/// RNG component ids of the hosts: flow `i`'s sender host is `HOST_RNG_BASE + 2i`, its receiver
/// host `HOST_RNG_BASE + 2i + 1` (clear of flows' ids and the link's).
pub const HOST_RNG_BASE: u64 = 2 << 32;

/// e1000e's default interrupt moderation for bulk traffic: 4,000 interrupts per second.
pub const E1000E_BULK_IRQ_GAP: Time = Time::from_micros(250);

/// The testbed host's wake-up latency, measured as the module doc says: 30,000 sleeps to
/// 1 ms deadlines woke a median 82 µs late (p90 88 µs), of which 50 µs is the default timer
/// slack of a normal task (`timer_slack_ns`, `prctl(2)`), which softirq packet processing
/// does not have: about 30 µs of wake-up.
pub const TESTBED_LATENCY_MEAN: Time = Time::from_micros(30);
/// The same measurement's tail: 1.3 % of wake-ups 1 ms or more late, p99.9 3.7 ms, the
/// longest 5.9 ms (the emulator's own record on this host: max about 4 ms). Stalls uniform up
/// to 6 ms put a 1 ms-spaced wake-up 1 ms or more late with probability `λ · 25/12 ms`,
/// 1.3 % for λ ≈ 6 per second: one stall per 160 ms.
pub const TESTBED_STALL_MAX: Time = Time::from_millis(6);
pub const TESTBED_STALL_EVERY: Time = Time::from_millis(160);

/// A KVM guest's vCPU wake-up after halt polling gives up (tens of µs).
pub const VM_WAKEUP_MEAN: Time = Time::from_micros(50);
/// One CFS/EEVDF base slice on an 8-CPU host: 0.75 ms · (1 + ilog2 8).
pub const VM_STALL_MAX: Time = Time::from_millis(3);
/// Assumed: one lost slice per 100 ms.
pub const VM_STALL_EVERY: Time = Time::from_millis(100);

/// The preset names [`HostNoise::parse`] takes.
pub const PRESETS: &[&str] = &["off", "testbed", "nic", "vm"];

/// A host's timing noise (see the module doc). All zero: none.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct HostNoise {
    /// The least time between two receive interrupts.
    pub irq_gap: Time,
    /// Mean of the exponential wake-up latency of each batch.
    pub latency: Time,
    /// Mean time between stalls (zero: no stalls).
    pub stall_every: Time,
    /// Longest stall (each is uniform on `[0, stall_max]`).
    pub stall_max: Time,
}

impl HostNoise {
    pub const OFF: HostNoise = HostNoise { irq_gap: Time::ZERO, latency: Time::ZERO, stall_every: Time::ZERO, stall_max: Time::ZERO };

    pub fn is_off(&self) -> bool {
        self.irq_gap == Time::ZERO && self.latency == Time::ZERO && (self.stall_every == Time::ZERO || self.stall_max == Time::ZERO)
    }

    /// A preset by name (see [`PRESETS`]).
    pub fn preset(name: &str) -> Option<HostNoise> {
        Some(match name {
            "off" | "none" => HostNoise::OFF,
            "testbed" => HostNoise { latency: TESTBED_LATENCY_MEAN, stall_every: TESTBED_STALL_EVERY, stall_max: TESTBED_STALL_MAX, ..HostNoise::OFF },
            "nic" => HostNoise { irq_gap: E1000E_BULK_IRQ_GAP, ..HostNoise::OFF },
            "vm" => HostNoise { latency: VM_WAKEUP_MEAN, stall_every: VM_STALL_EVERY, stall_max: VM_STALL_MAX, ..HostNoise::OFF },
            _ => return None,
        })
    }

    /// `"vm"`, `"irq_gap 250us latency 10us"`, `"vm stall 6ms every 20ms"`: an optional preset
    /// first, then words that set one parameter each (`stall T [every T]`).
    pub fn parse(s: &str) -> Result<HostNoise, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let (mut n, mut i) = match words.first().and_then(|w| HostNoise::preset(w)) {
            Some(p) => (p, 1),
            None => (HostNoise::OFF, 0),
        };
        let allowed = || format!("a preset ({}) and/or words `irq_gap T`, `latency T`, `stall T`, `every T`", PRESETS.join(", "));
        if words.is_empty() {
            return Err(format!("empty; expected {}", allowed()));
        }
        let mut seen: Vec<&str> = Vec::new();
        while i < words.len() {
            let word = words[i];
            let field = match word {
                "irq_gap" => &mut n.irq_gap,
                "latency" => &mut n.latency,
                "stall" => &mut n.stall_max,
                "every" => &mut n.stall_every,
                _ => return Err(format!("`{word}` is not {}", allowed())),
            };
            if seen.contains(&word) {
                return Err(format!("`{word}` given twice"));
            }
            seen.push(word);
            let v = words.get(i + 1).ok_or_else(|| format!("`{word}` needs a time, e.g. `{word} 100us`"))?;
            *field = crate::units::parse_time(v).map_err(|e| format!("{word}: {e}"))?;
            i += 2;
        }
        if seen.contains(&"stall") && !seen.contains(&"every") && n.stall_every == Time::ZERO {
            return Err("stall: needs `every T` (the mean time between stalls)".into());
        }
        Ok(n)
    }
}

impl std::fmt::Display for HostNoise {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::netem::fmt_time as t;
        write!(f, "irq_gap {} latency {} stall {} every {}", t(self.irq_gap), t(self.latency), t(self.stall_max), t(self.stall_every))
    }
}

impl cc::check::Validate for HostNoise {
    fn validate(&self) -> Result<(), String> {
        use cc::check::within;
        let second = Time::from_secs(1);
        within("irq_gap", self.irq_gap, Time::ZERO..=second)?;
        within("latency", self.latency, Time::ZERO..=second)?;
        within("stall", self.stall_max, Time::ZERO..=Time::from_secs(10))?;
        within("every", self.stall_every, Time::ZERO..=Time::from_secs(3600))?;
        if self.stall_max > Time::ZERO && self.stall_every > Time::ZERO && self.stall_every < Time::from_micros(1) {
            return Err("every: must be at least 1us".into());
        }
        Ok(())
    }
}

/// One host's state under a [`HostNoise`].
#[derive(Clone, Debug)]
pub struct HostClock {
    noise: HostNoise,
    rng: CcRng,
    /// The latest interrupt (taken or scheduled).
    last_irq: Option<Time>,
    /// The batch being gathered: when it is handled (before latency) and its latency.
    batch: Option<(Time, Time)>,
    /// The current or next stall, `[start, end)`.
    stall: Option<(Time, Time)>,
    /// When the previous packet was handled.
    last_out: Time,
}

impl HostClock {
    /// Host `host` of the run seeded `seed` (see [`HOST_RNG_BASE`]).
    pub fn new(noise: HostNoise, seed: u64, host: u64) -> HostClock {
        HostClock { noise, rng: component_rng(seed, HOST_RNG_BASE + host), last_irq: None, batch: None, stall: None, last_out: Time::ZERO }
    }

    /// When the host's stack handles a packet that reached it at `at`.
    pub fn process(&mut self, at: Time) -> Time {
        let n = self.noise;
        let irq = match (self.batch, self.last_irq) {
            (Some((b, _)), _) if at <= b => b,
            (_, Some(last)) if n.irq_gap > Time::ZERO && at < last + n.irq_gap => last + n.irq_gap,
            _ => at,
        };
        let latency = match self.batch {
            Some((b, lat)) if b == irq => lat,
            _ => {
                let lat = self.exponential(n.latency);
                self.batch = Some((irq, lat));
                self.last_irq = Some(irq);
                lat
            }
        };
        let mut t = irq + latency;
        if n.stall_every > Time::ZERO && n.stall_max > Time::ZERO {
            t = self.after_stalls(t);
        }
        t = t.max(self.last_out);
        self.last_out = t;
        t
    }

    fn exponential(&mut self, mean: Time) -> Time {
        if mean == Time::ZERO {
            return Time::ZERO;
        }
        let u: f64 = self.rng.random();
        Time((-(1.0 - u).ln() * mean.0 as f64) as u64)
    }

    /// `t`, or the end of the stall that covers it.
    fn after_stalls(&mut self, t: Time) -> Time {
        loop {
            let (start, end) = match self.stall {
                Some(s) => s,
                None => self.next_stall(Time::ZERO),
            };
            if t < start {
                return t;
            }
            if t < end {
                return end;
            }
            self.next_stall(end);
        }
    }

    fn next_stall(&mut self, after: Time) -> (Time, Time) {
        let start = after + self.exponential(self.noise.stall_every);
        let len = Time(self.rng.random_range(0..=self.noise.stall_max.0));
        self.stall = Some((start, start + len));
        (start, start + len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cc::check::Validate;

    fn us(v: u64) -> Time {
        Time::from_micros(v)
    }

    #[test]
    fn presets_and_words_parse_and_unknown_words_are_named() {
        assert_eq!(HostNoise::parse("nic").unwrap().irq_gap, E1000E_BULK_IRQ_GAP);
        assert!(HostNoise::parse("off").unwrap().is_off());
        let vm = HostNoise::parse("vm stall 6ms every 20ms").unwrap();
        assert_eq!((vm.stall_max, vm.stall_every, vm.latency), (Time::from_millis(6), Time::from_millis(20), VM_WAKEUP_MEAN));
        let custom = HostNoise::parse("irq_gap 100us latency 5us").unwrap();
        assert_eq!((custom.irq_gap, custom.latency), (us(100), us(5)));
        assert!(HostNoise::parse("fast").unwrap_err().contains("`fast` is not a preset"));
        assert!(HostNoise::parse("latency").unwrap_err().contains("needs a time"));
        assert!(HostNoise::parse("latency 1us latency 2us").unwrap_err().contains("twice"));
        assert!(HostNoise::parse("stall 1ms").unwrap_err().contains("every"));
        assert!(HostNoise::parse("").is_err());
        let e = HostNoise { latency: Time::from_secs(2), ..HostNoise::OFF }.validate().unwrap_err();
        assert!(e.starts_with("latency:"), "{e}");
        for p in PRESETS {
            let n = HostNoise::preset(p).unwrap();
            n.validate().unwrap();
            assert_eq!(HostNoise::parse(&n.to_string()).unwrap(), n, "{p} written back");
        }
    }

    /// e1000e-style moderation: the first packet after a quiet spell is handled at once, the
    /// next ones wait for the interrupt one gap after it and go together.
    #[test]
    fn interrupt_moderation_batches_packets_to_one_interrupt_per_gap() {
        let mut h = HostClock::new(HostNoise { irq_gap: us(250), ..HostNoise::OFF }, 1, 0);
        assert_eq!(h.process(us(1000)), us(1000));
        assert_eq!(h.process(us(1010)), us(1250));
        assert_eq!(h.process(us(1200)), us(1250));
        assert_eq!(h.process(us(1300)), us(1500));
        assert_eq!(h.process(us(2000)), us(2000));
    }

    #[test]
    fn latency_is_exponential_with_its_mean_and_keeps_order() {
        let mut h = HostClock::new(HostNoise { latency: us(50), ..HostNoise::OFF }, 7, 3);
        let n = 20_000u64;
        let (mut sum, mut last) = (0u64, Time::ZERO);
        for k in 0..n {
            let at = Time::from_millis(k);
            let t = h.process(at);
            assert!(t >= at && t >= last);
            last = t;
            sum += (t - at).0;
        }
        let mean = sum as f64 / n as f64 / 1e3;
        assert!((mean - 50.0).abs() < 2.5, "mean {mean} us");
    }

    /// Stalls of up to 3 ms every 100 ms on average: about 1.5 % of the time stalled, and a
    /// packet arriving inside a stall waits at most `stall_max`.
    #[test]
    fn stalls_hold_packets_until_they_end() {
        let noise = HostNoise { stall_every: Time::from_millis(100), stall_max: Time::from_millis(3), ..HostNoise::OFF };
        let mut h = HostClock::new(noise, 3, 0);
        let (mut held, n) = (0u64, 1_000_000u64);
        for k in 0..n {
            let at = us(10 * k);
            let d = h.process(at) - at;
            assert!(d <= Time::from_millis(3));
            held += (d > Time::ZERO) as u64;
        }
        let frac = held as f64 / n as f64;
        assert!(frac > 0.01 && frac < 0.02, "stalled {frac}");
    }

    #[test]
    fn same_seed_same_times_other_host_other_times() {
        let noise = HostNoise::preset("vm").unwrap();
        let run = |host| {
            let mut h = HostClock::new(noise, 5, host);
            (0..1000).map(|k| h.process(us(100 * k))).collect::<Vec<_>>()
        };
        assert_eq!(run(0), run(0));
        assert_ne!(run(0), run(1));
    }
}
