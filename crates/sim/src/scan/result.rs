//! What a scan run reports.

use crate::stats::Histogram;
use serde::Serialize;

/// The seed's `packet_ratio` summary (R's `summary()`: min, quartiles, mean, max).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RatioStats {
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub mean: f64,
    pub q3: f64,
    pub max: f64,
    pub samples: u64,
}

/// Ratios are recorded in hundredths, the seed's precision; the histogram keeps three
/// significant digits (exact below 20.48, within 0.08 up to 163).
pub const RATIO_UNITS: f64 = 100.0;

impl RatioStats {
    pub fn from_histogram(h: &Histogram) -> RatioStats {
        let v = |x: u64| x as f64 / RATIO_UNITS;
        RatioStats {
            min: v(h.min()),
            q1: v(h.quantile(0.25)),
            median: v(h.quantile(0.5)),
            mean: h.mean() / RATIO_UNITS,
            q3: v(h.quantile(0.75)),
            max: v(h.max()),
            samples: h.count(),
        }
    }
}

/// The group window at one instant: what the seed's graphs draw (cwnd in black, the threshold,
/// `ccthresh` then and `ssthresh` now, in grey).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WindowPoint {
    pub time_s: f64,
    pub cwnd: f64,
    pub ssthresh: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ScanResult {
    pub variant: String,
    /// The last host completed before the time limit.
    pub finished: bool,
    pub scan_time_s: f64,
    /// Every packet the scanner sent: probes, retransmissions, timing pings.
    pub probes_sent: u64,
    pub hosts_found: u64,
    /// Ground truth: hosts up, and those of them with a reply that reached the scanner.
    pub hosts_up: u64,
    pub hosts_reachable: u64,
    /// `probes_sent / probes_replied_to` (the 2007 counting), sampled at every timing update
    /// that counts as a reply: each reply allowed to adjust timing and each timed-out ping.
    pub packet_ratio: RatioStats,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub group_drops: u64,
    pub pings_sent: u64,
    pub ping_timeouts: u64,
    pub host_drops: u64,
    /// Sends a host's window held back while the host was ready and the group allowed them,
    /// each counted once.
    pub host_window_holds: u64,
    /// Router unreachables that reached the scanner.
    pub unreachables_received: u64,
    /// Time averages over the scan of the group window and the group probe timeout.
    pub mean_group_cwnd: f64,
    pub mean_group_timeout_s: f64,
    pub batches: u32,
    /// The running batch's group window over the scan, as a step function: at every change two
    /// points at the same instant, the value before and the value after (a new batch starts
    /// again at cwnd 10, ssthresh 75). Left out of the JSON of `cclab scan`.
    #[serde(skip)]
    pub window: Vec<WindowPoint>,
}
