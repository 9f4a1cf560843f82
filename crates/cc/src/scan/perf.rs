//! The constants of a scan: nmap's timing templates `-T0`..`-T5` and the congestion-control
//! constants derived from them.
//!
//! Sources (nmap at `db4aefdd`, paraphrased through the spec §1): `scan_performance_vars::init`
//! (`timing.cc`), `ultra_scan_performance_vars::init` (`scan_engine.cc`), the `-T` handling in
//! `nmap.cc` (`case 'T'`), the defaults of `NmapOps::Initialize` and the constants of `nmap.h`
//! (`MIN_RTT_TIMEOUT` 100 ms, `MAX_RTT_TIMEOUT` 10 s, `INITIAL_RTT_TIMEOUT` 1 s,
//! `MAX_RETRANSMISSIONS` 10, `PING_GROUP_SZ` 4096) and `scan_engine.cc` (`RLD_TIME_MS` 1000,
//! `COMPL_HOST_LIFETIME_MS` 120000).
//!
//! ```text
//! low_cwnd = 1                     max_cwnd = 300 (1 for T0..T2: max_parallelism 1)
//! group_initial_cwnd = host_initial_cwnd = clamp(10, low_cwnd, max_cwnd)
//! slow_incr = 1                    ca_incr = 1 (T0..T3), 2 (T4, T5)
//! cc_scale_max = 50                initial_ssthresh = 75
//! group_drop_cwnd_divisor = 2      group/host_drop_ssthresh_divisor = 1.5 (T0..T3), 4/3 (T4), 1.25 (T5)
//! ping_magnifier = 3               pingtime = 1.25 s           tryno_cap = max retries
//! ```

use crate::units::Time;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// `RLD_TIME_MS`: the pause before the first retransmission of each new try number of a host
/// (rate-limit detection), when the scan sends more than one probe type per host.
pub const RLD_TIME: Time = Time::from_millis(1000);
/// `COMPL_HOST_LIFETIME_MS`: how long a completed host is kept for late replies.
pub const COMPL_HOST_LIFETIME: Time = Time::from_millis(120_000);
/// `PING_GROUP_SZ`: host discovery scans at most this many targets per `ultra_scan()` call.
pub const PING_GROUP_SZ: usize = 4096;
/// At most this many sends between two reads of replies (`GroupScanStats::sendOK`).
pub const MAX_SENDS_PER_WAIT: u64 = 50;
/// A global timing ping needs this many group sends since the previous one.
pub const GLOBAL_PING_MIN_SENDS: u64 = 20;
/// A silent host that has been sent this many probes uses the group's window
/// (`HostScanStats::getTiming`).
pub const HOST_TIMING_PROBE_LIMIT: u32 = 80;
/// The shortest wait for replies between two send phases (`waitForResponses`).
pub const MIN_WAIT: Time = Time::from_millis(2);

/// nmap's timing templates, `-T0` (paranoid) to `-T5` (insane).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TimingTemplate {
    T0,
    T1,
    T2,
    #[default]
    T3,
    T4,
    T5,
}

/// The user-visible options a template sets (`nmap.cc`, `case 'T'`), spec §1.7.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TemplateOptions {
    pub min_rtt_timeout: Time,
    pub max_rtt_timeout: Time,
    pub initial_rtt_timeout: Time,
    /// `--max-retries` (`tryno_cap`).
    pub max_retries: u32,
    /// `--scan-delay`: the initial per-host gap between probes.
    pub scan_delay: Time,
    /// `--max-parallelism`; `None` is unlimited (`max_cwnd` 300).
    pub max_parallelism: Option<u32>,
    /// The highest send delay a boost may reach (`maxdelay`: the max TCP/SCTP scan delay, which
    /// ping scans use).
    pub max_scan_delay: Time,
}

impl TimingTemplate {
    pub const ALL: [TimingTemplate; 6] =
        [TimingTemplate::T0, TimingTemplate::T1, TimingTemplate::T2, TimingTemplate::T3, TimingTemplate::T4, TimingTemplate::T5];

    /// `o.timing_level`, 0..=5.
    pub fn level(self) -> u8 {
        self as u8
    }

    pub fn name(self) -> &'static str {
        ["paranoid", "sneaky", "polite", "normal", "aggressive", "insane"][self as usize]
    }

    pub fn options(self) -> TemplateOptions {
        let ms = Time::from_millis;
        // (min, max, initial RTT timeout ms, retries, scan delay ms, max parallelism, max scan delay ms)
        let (min, max, initial, retries, delay, par, max_delay) = match self {
            TimingTemplate::T0 => (100, 300_000, 300_000, 10, 300_000, Some(1), 1000),
            TimingTemplate::T1 => (100, 15_000, 15_000, 10, 15_000, Some(1), 1000),
            TimingTemplate::T2 => (100, 10_000, 1000, 10, 400, Some(1), 1000),
            TimingTemplate::T3 => (100, 10_000, 1000, 10, 0, None, 1000),
            TimingTemplate::T4 => (100, 1250, 500, 6, 0, None, 10),
            TimingTemplate::T5 => (50, 300, 250, 2, 0, None, 5),
        };
        TemplateOptions {
            min_rtt_timeout: ms(min),
            max_rtt_timeout: ms(max),
            initial_rtt_timeout: ms(initial),
            max_retries: retries,
            scan_delay: ms(delay),
            max_parallelism: par,
            max_scan_delay: ms(max_delay),
        }
    }
}

impl fmt::Display for TimingTemplate {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "T{}", self.level())
    }
}

pub const TIMING_FORMS: &str = "T0..T5 (or 0..5, or paranoid, sneaky, polite, normal, aggressive, insane)";

impl FromStr for TimingTemplate {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim().to_ascii_lowercase();
        let digits = t.strip_prefix('t').unwrap_or(&t);
        TimingTemplate::ALL
            .into_iter()
            .find(|x| digits == x.level().to_string() || t == x.name())
            .ok_or_else(|| format!("`{s}` is not a timing template: expected {TIMING_FORMS}"))
    }
}

/// Bounds of the RTT timeout (`timeout_info`, `adjust_timeouts2`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RttLimits {
    pub min: Time,
    pub max: Time,
    pub initial: Time,
    /// With a scan delay the timeout is at least the delay.
    pub scan_delay: Time,
}

/// The constants of one `ultra_scan()` call: `scan_performance_vars` plus the
/// `ultra_scan_performance_vars` extras, for today's nmap. [`crate::scan::Variant::perf`]
/// applies the older variants' differences.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ScanPerformanceVars {
    pub template: TimingTemplate,
    pub low_cwnd: f64,
    pub max_cwnd: f64,
    pub group_initial_cwnd: f64,
    pub host_initial_cwnd: f64,
    pub slow_incr: f64,
    pub ca_incr: f64,
    pub cc_scale_max: f64,
    pub initial_ssthresh: i32,
    pub group_drop_cwnd_divisor: f64,
    pub group_drop_ssthresh_divisor: f64,
    pub host_drop_ssthresh_divisor: f64,
    /// A reply to a timing ping counts as this many replies.
    pub ping_magnifier: f64,
    /// Send a timing ping after this long without replies.
    pub pingtime: Time,
    /// The highest try number (`--max-retries`).
    pub tryno_cap: u32,
    /// A host's send delay is boosted when more than this fraction of its timed replies were
    /// drops (0.30 for T0..T3, 0.40 for T4, T5).
    pub send_delay_drop_fraction: f64,
    pub scan_delay: Time,
    pub max_scan_delay: Time,
    pub rtt: RttLimits,
}

impl ScanPerformanceVars {
    /// Today's values for a template (`scan_performance_vars::init`).
    pub fn new(template: TimingTemplate) -> ScanPerformanceVars {
        let o = template.options();
        let level = template.level();
        let low_cwnd = 1.0;
        let max_cwnd = f64::max(low_cwnd, o.max_parallelism.map_or(300.0, f64::from));
        let initial_cwnd = 10.0f64.clamp(low_cwnd, max_cwnd);
        let ssthresh_divisor = match level {
            0..=3 => 1.5,
            4 => 4.0 / 3.0,
            _ => 1.25,
        };
        ScanPerformanceVars {
            template,
            low_cwnd,
            max_cwnd,
            group_initial_cwnd: initial_cwnd,
            host_initial_cwnd: initial_cwnd,
            slow_incr: 1.0,
            ca_incr: if level < 4 { 1.0 } else { 2.0 },
            cc_scale_max: 50.0,
            initial_ssthresh: 75,
            group_drop_cwnd_divisor: 2.0,
            group_drop_ssthresh_divisor: ssthresh_divisor,
            host_drop_ssthresh_divisor: ssthresh_divisor,
            ping_magnifier: 3.0,
            pingtime: Time::from_micros(1_250_000),
            tryno_cap: o.max_retries,
            send_delay_drop_fraction: if level < 4 { 0.30 } else { 0.40 },
            scan_delay: o.scan_delay,
            max_scan_delay: o.max_scan_delay,
            rtt: RttLimits {
                min: o.min_rtt_timeout,
                max: o.max_rtt_timeout,
                initial: o.initial_rtt_timeout,
                scan_delay: o.scan_delay,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t3_constants_are_the_specs() {
        let p = ScanPerformanceVars::new(TimingTemplate::T3);
        assert_eq!((p.low_cwnd, p.max_cwnd, p.group_initial_cwnd, p.host_initial_cwnd), (1.0, 300.0, 10.0, 10.0));
        assert_eq!((p.slow_incr, p.ca_incr, p.cc_scale_max, p.initial_ssthresh), (1.0, 1.0, 50.0, 75));
        assert_eq!((p.group_drop_cwnd_divisor, p.group_drop_ssthresh_divisor), (2.0, 1.5));
        assert_eq!((p.ping_magnifier, p.pingtime, p.tryno_cap), (3.0, Time::from_millis(1250), 10));
        assert_eq!(p.rtt.initial, Time::from_secs(1));
    }

    #[test]
    fn templates_change_increments_divisors_and_windows() {
        let t4 = ScanPerformanceVars::new(TimingTemplate::T4);
        assert_eq!((t4.ca_incr, t4.group_drop_ssthresh_divisor, t4.tryno_cap), (2.0, 4.0 / 3.0, 6));
        let t5 = ScanPerformanceVars::new(TimingTemplate::T5);
        assert_eq!((t5.ca_incr, t5.host_drop_ssthresh_divisor, t5.rtt.min), (2.0, 1.25, Time::from_millis(50)));
        // T0..T2: max_parallelism 1 makes both windows 1.
        let t2 = ScanPerformanceVars::new(TimingTemplate::T2);
        assert_eq!((t2.max_cwnd, t2.group_initial_cwnd), (1.0, 1.0));
    }

    #[test]
    fn template_names_parse() {
        assert_eq!("T4".parse::<TimingTemplate>().unwrap(), TimingTemplate::T4);
        assert_eq!("2".parse::<TimingTemplate>().unwrap(), TimingTemplate::T2);
        assert_eq!("insane".parse::<TimingTemplate>().unwrap(), TimingTemplate::T5);
        assert!("T6".parse::<TimingTemplate>().unwrap_err().contains("T0..T5"));
    }
}
