//! The three generations of nmap's probe-window control, selectable by name (spec §0, §2.4, §6).
//!
//! | | `unscaled` (trunk of 2007-09-05 to -17, the seed's baseline) | `scaled-2007` (`eddc2b083`, as merged) | `scaled` (nmap today) |
//! |---|---|---|---|
//! | group increment scale *s* | 1 | min(probes_sent / probes_replied_to, 50) | min(expected / received, 50) |
//! | host increment scale | 1 | 1 | min(expected / received, 50) (`0f396a5b3`, `12a4288aa`) |
//! | slow start (group / host) | `cwnd ≤ ssthresh`, uncapped | `cwnd < ssthresh` capped at ssthresh / `≤`, uncapped | `<`, capped / `<`, capped |
//! | initial ssthresh, `ca_incr` | 75, 1 | 75, by template | 75, by template |
//! | ssthresh divisor on a drop (T0..T3 / T4 / T5) | 1.5 / 4/3 / 5/4 | 1.5 / 4/3 / 5/4 | 1.5 / 4/3 / 5/4 |
//! | reply to a retransmission | drop | drop | drop, then ack (`637ba35a2`) |
//! | ICMP unreachable from a router | host down, no timing (`302547375`) | host down, timed (drop at try > 0) | ignored (`9ac591f9d`) |
//! | error reply at try > 0 | timed | timed | not timed (`90ba6b97d`) |
//! | `pingtime` | 5 s | 5 s | 1.25 s (`94e7a9cd4`) |
//! | a global ping that times out | destroyed, no timing | destroyed, no timing | a drop (`da0b2c98c`, 2009-01-03) |
//!
//! Read from nmap's trunk just before `eddc2b083` (`f5337b670`, 2007-09-17: `init_perf_values`,
//! `ultrascan_adjust_timing`, `processData`): the slow start test `cwnd ≤ ssthresh` with no cap,
//! initial ssthresh 75 and the ssthresh divisors 1.5, 4/3 and 5/4, which `1b41c049f`
//! (2007-09-05) brought in (before it: 50, and 2 below -T4, 1.5 at -T4/-T5). The seed's unscaled
//! runs had them: their cwnd/ccthresh graphs come from the group timing stats that `nmap -d2`
//! prints, which the same commit added ("Print group timing stats with -d2 ... Change how much
//! the congestion threshold drops on packet drops. Increase the initial ccthresh from 50 to
//! 75."), and the seed compares with "current SVN". At -T4/-T5 that trunk's increments depended
//! on the probes per host *n* (`quick_incr = ⌊1 + 3/n⌋`, `cc_incr = ⌊1 + 7/n⌋`); we keep 1
//! there, so `unscaled` is that trunk at -T0..-T3 only (the seed ran at -T3, nmap's default).
//! (The spec, `specs/nmap-ultrascan-cc.md` §0, dates the rise from 50 to 75 to `eddc2b083`;
//! the repository's history puts it at `1b41c049f`, and so do we.) One entry is an inference:
//! `eddc2b083` must have made the group test strict when it added the cap, or the capped window
//! would stay at ssthresh for ever.
//!
//! A fourth variant, `scaled-wiki`, is the rule the seed's page describes and ran: `scaled-2007`
//! without the cap, *s* = probes_sent / probes_replied_to. The merge added the cap ("Put a cap
//! of 50 on the cwnd scaling factor", spec §2.4) after the page's benchmarks: the page's code
//! line multiplies by the ratio alone, and its packet_ratio statistics of the 10 000-address
//! scan (median 58.84, third quartile 63.30, maximum 105), which `nmap -d2` printed as the
//! group's scale, lie above 50, which the capped scale never exceeds.

use super::perf::{ScanPerformanceVars, TimingTemplate};
use crate::units::Time;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// nmap's trunk before 2007-09-18 (since 2007-09-05): RFC 2581 increments, ICMP
    /// unreachables from routers never timed.
    #[serde(rename = "unscaled")]
    Unscaled,
    /// The seed's page (2007-09, before the merge): group increments × sent/replied, uncapped.
    #[serde(rename = "scaled-wiki")]
    ScaledWiki,
    /// `eddc2b083` (2007-09-18), the wiki's rule as merged: group increments × min(sent/replied, 50).
    #[serde(rename = "scaled-2007")]
    Scaled2007,
    /// nmap today (since `12a4288aa`, 2008-12): expected/received per group and per host.
    #[serde(rename = "scaled")]
    Scaled,
}

pub const VARIANT_FORMS: &str = "unscaled, scaled-wiki, scaled-2007 or scaled";

/// Where an increment's scale comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScaleRule {
    /// RFC 2581: no scaling.
    One,
    /// The 2007 group scale: `GroupScanStats::cc_scale() = min(probes_sent / probes_replied_to, 50)`.
    SentOverReplied,
    /// Today's `ultra_timing_vals::cc_scale`: `min(num_replies_expected / num_replies_received, 50)`.
    ExpectedOverReceived,
}

/// The slow-start test and cap.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SlowStart {
    /// `cwnd ≤ ssthresh` grows by the slow-start increment, with no cap (before 2007-09).
    Uncapped,
    /// `cwnd < ssthresh` grows by the slow-start increment, capped at ssthresh.
    Capped,
}

/// What an ICMP destination unreachable from an address other than the target does in host
/// discovery.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnreachableRule {
    /// The host is marked down; the reply never adjusts timing (`302547375`, August 2007).
    DownUntimed,
    /// The host is marked down and the reply adjusts timing like any other: an ack at try 0, a
    /// drop at try > 0 (`eddc2b083`).
    DownTimed,
    /// `HOST_UNKNOWN`: the reply is ignored entirely; the probe stays outstanding (`9ac591f9d`).
    Ignored,
}

/// The rules one variant follows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VariantRules {
    pub group_scale: ScaleRule,
    pub host_scale: ScaleRule,
    pub group_slow_start: SlowStart,
    pub host_slow_start: SlowStart,
    /// A reply to a retransmission is a drop and then also an ack (since 2011).
    pub ack_after_drop: bool,
    pub unreachable: UnreachableRule,
    /// A reply that does not mark the host up, to a try > 0, adjusts no timing (since 2009).
    pub error_retry_untimed: bool,
    /// A global ping that times out adjusts timing, as a drop (`da0b2c98c`, 2009-01-03:
    /// "Without this, global pings never gave negative feedback"); before, `processData`
    /// destroyed it without timing.
    pub ping_timeout_timed: bool,
    /// TCP's rule, which no nmap variant follows: a scan probe that times out unanswered is a
    /// drop. The seed's "Why host discovery is different": "If a probe gets no response, it's
    /// not counted as a drop as it would be with TCP". Off in every variant; set it only to
    /// see what the difference is worth ([`VariantRules::with_unanswered_as_drop`]).
    pub unanswered_is_drop: bool,
}

impl VariantRules {
    /// These rules with TCP's: every unanswered scan probe a drop.
    pub fn with_unanswered_as_drop(self) -> VariantRules {
        VariantRules { unanswered_is_drop: true, ..self }
    }
}

impl Variant {
    pub const ALL: [Variant; 4] = [Variant::Unscaled, Variant::ScaledWiki, Variant::Scaled2007, Variant::Scaled];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Unscaled => "unscaled",
            Variant::ScaledWiki => "scaled-wiki",
            Variant::Scaled2007 => "scaled-2007",
            Variant::Scaled => "scaled",
        }
    }

    pub fn rules(self) -> VariantRules {
        match self {
            Variant::Unscaled => VariantRules {
                group_scale: ScaleRule::One,
                host_scale: ScaleRule::One,
                group_slow_start: SlowStart::Uncapped,
                host_slow_start: SlowStart::Uncapped,
                ack_after_drop: false,
                unreachable: UnreachableRule::DownUntimed,
                error_retry_untimed: false,
                ping_timeout_timed: false,
                unanswered_is_drop: false,
            },
            Variant::ScaledWiki | Variant::Scaled2007 => VariantRules {
                group_scale: ScaleRule::SentOverReplied,
                host_scale: ScaleRule::One,
                group_slow_start: SlowStart::Capped,
                host_slow_start: SlowStart::Uncapped,
                ack_after_drop: false,
                unreachable: UnreachableRule::DownTimed,
                error_retry_untimed: false,
                ping_timeout_timed: false,
                unanswered_is_drop: false,
            },
            Variant::Scaled => VariantRules {
                group_scale: ScaleRule::ExpectedOverReceived,
                host_scale: ScaleRule::ExpectedOverReceived,
                group_slow_start: SlowStart::Capped,
                host_slow_start: SlowStart::Capped,
                ack_after_drop: true,
                unreachable: UnreachableRule::Ignored,
                error_retry_untimed: true,
                ping_timeout_timed: true,
                unanswered_is_drop: false,
            },
        }
    }

    /// The constants this variant ran with at a timing template.
    pub fn perf(self, template: TimingTemplate) -> ScanPerformanceVars {
        let mut p = ScanPerformanceVars::new(template);
        match self {
            Variant::Unscaled => {
                // `init_perf_values` at `f5337b670`: today's initial ssthresh and divisors
                // (from `1b41c049f`), `cc_incr` 1.
                p.ca_incr = 1.0;
                p.pingtime = Time::from_secs(5);
            }
            Variant::ScaledWiki => {
                // No cap on the scale: the window's own cap (`max_cwnd`) still bounds it.
                p.cc_scale_max = f64::INFINITY;
                p.pingtime = Time::from_secs(5);
            }
            Variant::Scaled2007 => p.pingtime = Time::from_secs(5),
            Variant::Scaled => {}
        }
        p
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim().to_ascii_lowercase();
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == t)
            .ok_or_else(|| format!("`{s}` is not a variant: expected {VARIANT_FORMS}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bad_names_say_what_is_allowed() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
        }
        assert!("scaled-2008".parse::<Variant>().unwrap_err().contains("scaled-2007"));
    }

    #[test]
    fn the_older_variants_keep_their_constants() {
        let u = Variant::Unscaled.perf(TimingTemplate::T4);
        assert_eq!((u.initial_ssthresh, u.ca_incr, u.pingtime), (75, 1.0, Time::from_secs(5)));
        assert_eq!(u.group_drop_ssthresh_divisor, 4.0 / 3.0, "f5337b670's T4 divisor (its T4 increments are not modelled)");
        let u3 = Variant::Unscaled.perf(TimingTemplate::T3);
        assert_eq!((u3.group_drop_ssthresh_divisor, u3.host_drop_ssthresh_divisor), (1.5, 1.5));
        assert!(!Variant::Unscaled.rules().ping_timeout_timed && !Variant::Scaled2007.rules().ping_timeout_timed);
        assert!(Variant::Scaled.rules().ping_timeout_timed);
        let s = Variant::Scaled2007.perf(TimingTemplate::T4);
        assert_eq!((s.initial_ssthresh, s.ca_incr, s.pingtime), (75, 2.0, Time::from_secs(5)));
        assert_eq!(Variant::Scaled.perf(TimingTemplate::T3).pingtime, Time::from_millis(1250));
    }

    /// The seed's rule and the merged one differ in the cap alone: at 1 % of probes answered
    /// (sent/replied = 100) the page's scale is 100, the merged code's 50.
    #[test]
    fn the_wiki_rule_is_the_merged_one_without_the_cap() {
        assert_eq!(Variant::ScaledWiki.rules(), Variant::Scaled2007.rules());
        let (wiki, merged) = (Variant::ScaledWiki.perf(TimingTemplate::T3), Variant::Scaled2007.perf(TimingTemplate::T3));
        assert_eq!(ScanPerformanceVars { cc_scale_max: merged.cc_scale_max, ..wiki }, merged);
        let r = crate::scan::packet_ratio::PacketRatio { probes_sent: 1000, probes_replied_to: 10 };
        assert_eq!((r.cc_scale(&wiki), r.cc_scale(&merged)), (100.0, 50.0));
    }
}
