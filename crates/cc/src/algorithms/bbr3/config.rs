//! BBR v3's parameters, with the draft's values as defaults, and their ranges.

use super::*;

/// BBR v3's parameters, with the draft's values as defaults (Google's v3 code for ECN).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bbr3Config {
    /// STARTUP's pacing gain, `4 ln 2` (`BBR.StartupPacingGain`), and cwnd gain
    /// (`BBR.DefaultCwndGain`).
    pub startup_pacing_gain: f64,
    pub startup_cwnd_gain: f64,
    /// DRAIN's pacing gain (`BBR.DrainPacingGain`) and its longest duration in rounds.
    pub drain_pacing_gain: f64,
    pub drain_max_rounds: u64,
    /// cwnd gain in PROBE_BW, and in ProbeBW_UP (2 + 1/4).
    pub cwnd_gain: f64,
    pub probe_up_cwnd_gain: f64,
    /// Pacing gains of ProbeBW_UP and ProbeBW_DOWN (CRUISE and REFILL pace at 1).
    pub probe_up_pacing_gain: f64,
    pub probe_down_pacing_gain: f64,
    /// The loss rate per round that means inflight was too high (`BBR.LossThresh`).
    pub loss_thresh: f64,
    /// Multiplicative decrease of the short-term bounds per lossy round, and the floor of
    /// inflight_hi relative to the target inflight (`BBR.Beta`).
    pub beta: f64,
    /// Fraction of inflight_hi left free when cruising (`BBR.Headroom`).
    pub headroom: f64,
    /// Loss events in a STARTUP recovery round that, with a loss rate above `loss_thresh`,
    /// end STARTUP (`BBRStartupFullLossCnt`).
    pub startup_full_loss_count: u32,
    /// Full-pipe detection: growth that counts and rounds without it.
    pub full_bw_growth: f64,
    pub full_bw_rounds: u32,
    /// The max_bw filter's length in ProbeBW cycles (`BBR.MaxBwFilterLen`).
    pub bw_filter_cycles: u64,
    /// The min_rtt window (`BBR.MinRTTFilterLen`), the PROBE_RTT interval
    /// (`BBR.ProbeRTTInterval`) and duration, and PROBE_RTT's cwnd as a fraction of the BDP.
    pub min_rtt_window_ms: u64,
    pub probe_rtt_interval_ms: u64,
    pub probe_rtt_duration_ms: u64,
    pub probe_rtt_cwnd_gain: f64,
    /// Wall-clock wait between bandwidth probes: `base + uniform(0, rand)` (T_bbr, 2–3 s).
    pub bw_probe_base_ms: u64,
    pub bw_probe_rand_ms: u64,
    /// Reno-coexistence bound on rounds between probes (63), and the random rounds credited
    /// at the start of a wait (0 or 1).
    pub bw_probe_max_rounds: u64,
    pub bw_probe_rand_rounds: u64,
    /// The smallest cwnd (`BBR.MinPipeCwnd`).
    pub min_cwnd_packets: u64,
    pub pacing_margin_percent: f64,
    /// ACK aggregation: gain, window in rounds (`BBR.ExtraAckedFilterLen`), cap in time.
    pub extra_acked_gain: f64,
    pub extra_acked_window_rounds: u64,
    pub extra_acked_max_ms: u64,
    /// ECN (Google's v3): the CE ratio that means inflight was too high, the cut of
    /// inflight_lo per marked round (`1 − ecn_factor · ecn_alpha`), the EWMA gain and initial
    /// value of `ecn_alpha`, STARTUP rounds with a high CE ratio that end it, the fraction of
    /// inflight_hi re-probed first after marks stop, and the largest min_rtt at which ECN is
    /// used (0: any).
    pub ecn_thresh: f64,
    pub ecn_factor: f64,
    pub ecn_alpha_gain: f64,
    pub ecn_alpha_init: f64,
    pub startup_full_ecn_rounds: u32,
    pub ecn_reprobe_gain: f64,
    pub ecn_max_rtt_ms: u64,
}

impl Default for Bbr3Config {
    fn default() -> Self {
        Bbr3Config {
            startup_pacing_gain: 4.0 * LN_2,
            startup_cwnd_gain: 2.0,
            drain_pacing_gain: 0.5,
            drain_max_rounds: 3,
            cwnd_gain: 2.0,
            probe_up_cwnd_gain: 2.25,
            probe_up_pacing_gain: 1.25,
            probe_down_pacing_gain: 0.90,
            loss_thresh: 0.02,
            beta: 0.7,
            headroom: 0.15,
            startup_full_loss_count: 6,
            full_bw_growth: 1.25,
            full_bw_rounds: 3,
            bw_filter_cycles: 2,
            min_rtt_window_ms: 10_000,
            probe_rtt_interval_ms: 5_000,
            probe_rtt_duration_ms: 200,
            probe_rtt_cwnd_gain: 0.5,
            bw_probe_base_ms: 2_000,
            bw_probe_rand_ms: 1_000,
            bw_probe_max_rounds: 63,
            bw_probe_rand_rounds: 2,
            min_cwnd_packets: MIN_PIPE_PACKETS,
            pacing_margin_percent: 1.0,
            extra_acked_gain: 1.0,
            extra_acked_window_rounds: 10,
            extra_acked_max_ms: 100,
            ecn_thresh: 0.5,
            ecn_factor: 1.0 / 3.0,
            ecn_alpha_gain: 1.0 / 16.0,
            ecn_alpha_init: 1.0,
            startup_full_ecn_rounds: 2,
            ecn_reprobe_gain: 0.5,
            ecn_max_rtt_ms: 5,
        }
    }
}


impl crate::check::Validate for Bbr3Config {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // draft-ietf-ccwg-bbr and Google's v3 tcp_bbr.c: gains positive (the probe-down
        // and drain gains below 1, probe-up above 1), loss and ECN thresholds and beta fractions.
        for (name, v) in [
            ("startup_pacing_gain", self.startup_pacing_gain),
            ("startup_cwnd_gain", self.startup_cwnd_gain),
            ("cwnd_gain", self.cwnd_gain),
            ("probe_up_cwnd_gain", self.probe_up_cwnd_gain),
            ("probe_rtt_cwnd_gain", self.probe_rtt_cwnd_gain),
            ("extra_acked_gain", self.extra_acked_gain),
        ] {
            within(name, v, above(0.0, 100.0))?;
        }
        within("drain_pacing_gain", self.drain_pacing_gain, open(0.0, 1.0))?;
        within("probe_up_pacing_gain", self.probe_up_pacing_gain, above(1.0, 100.0))?;
        within("probe_down_pacing_gain", self.probe_down_pacing_gain, open(0.0, 1.0))?;
        within("full_bw_growth", self.full_bw_growth, above(1.0, 100.0))?;
        for (name, v) in [("loss_thresh", self.loss_thresh), ("beta", self.beta), ("headroom", self.headroom), ("ecn_thresh", self.ecn_thresh), ("ecn_factor", self.ecn_factor)] {
            within(name, v, open(0.0, 1.0))?;
        }
        within("ecn_alpha_gain", self.ecn_alpha_gain, above(0.0, 1.0))?;
        within("ecn_alpha_init", self.ecn_alpha_init, 0.0..=1.0)?;
        within("ecn_reprobe_gain", self.ecn_reprobe_gain, 0.0..=1.0)?;
        within("pacing_margin_percent", self.pacing_margin_percent, 0.0..100.0)?;
        within("drain_max_rounds", self.drain_max_rounds, 1..=1000)?;
        within("startup_full_loss_count", self.startup_full_loss_count, 1..=1_000_000)?;
        within("full_bw_rounds", self.full_bw_rounds, 1..=1000)?;
        within("startup_full_ecn_rounds", self.startup_full_ecn_rounds, 1..=1000)?;
        within("bw_filter_cycles", self.bw_filter_cycles, 1..=1000)?;
        within("extra_acked_window_rounds", self.extra_acked_window_rounds, 1..=1000)?;
        within("bw_probe_max_rounds", self.bw_probe_max_rounds, 1..=1_000_000)?;
        within("bw_probe_rand_rounds", self.bw_probe_rand_rounds, 0..=1_000_000)?;
        within("min_cwnd_packets", self.min_cwnd_packets, 1..=1_000_000)?;
        for (name, ms) in [
            ("min_rtt_window_ms", self.min_rtt_window_ms),
            ("probe_rtt_interval_ms", self.probe_rtt_interval_ms),
            ("probe_rtt_duration_ms", self.probe_rtt_duration_ms),
            ("bw_probe_base_ms", self.bw_probe_base_ms),
        ] {
            within(name, ms, 1..=3_600_000)?;
        }
        within("bw_probe_rand_ms", self.bw_probe_rand_ms, 0..=3_600_000)?;
        within("extra_acked_max_ms", self.extra_acked_max_ms, 0..=3_600_000)?;
        within("ecn_max_rtt_ms", self.ecn_max_rtt_ms, 0..=3_600_000)
    }
}
