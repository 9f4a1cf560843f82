//! What a stream reports: per-interval figures as iperf3 prints them, and the totals and
//! integrity counts at its end.

use serde::Serialize;

/// One interval of one stream, as seen by the side that has the figure (the sender knows cwnd,
/// RTT and retransmissions; both know the bytes delivered).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Interval {
    pub start_s: f64,
    pub end_s: f64,
    /// Payload bytes delivered to the receiver in order during the interval (each byte once).
    pub bytes: u64,
    pub bits_per_second: f64,
    pub retransmits: Option<u64>,
    /// Congestion window at the interval's end, bytes.
    pub cwnd: Option<u64>,
    pub ssthresh: Option<u64>,
    /// Smoothed RTT at the interval's end, ms.
    pub rtt_ms: Option<f64>,
    pub rttvar_ms: Option<f64>,
    pub pacing_rate_bps: Option<f64>,
    pub inflight: Option<u64>,
    pub state: Option<String>,
}

/// A stream's totals, and what the integrity check found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StreamReport {
    pub stream: u16,
    pub cc: String,
    /// Whether this side sent the data (the report is the sender's view) or received it.
    pub sender: bool,
    /// The transport retransmits what is lost (TCP, SABUL, UDT); TFRC and CBR do not, and what
    /// they lose stays lost.
    pub reliable: bool,
    pub seconds: f64,
    pub bytes_sent: u64,
    pub segments_sent: u64,
    pub retransmits: u64,
    pub timeouts: u64,
    /// Bytes delivered in order at the receiver, each once.
    pub bytes_delivered: u64,
    /// Bytes the sender sent (as new data) that the receiver never delivered.
    pub bytes_lost: u64,
    pub bytes_duplicated: u64,
    pub bytes_corrupted: u64,
    /// The receiver's CRC-32 over what it delivered equals the sender's over what it sent.
    pub checksum_ok: bool,
    pub rtt_min_ms: Option<f64>,
    pub rtt_mean_ms: Option<f64>,
    /// How late paced transmissions left after their scheduled time, µs (median, 99th
    /// percentile): the pacing timer's precision.
    pub pacing_late_p50_us: Option<f64>,
    pub pacing_late_p99_us: Option<f64>,
    /// Datagrams dropped as damaged, by reason.
    pub dropped_truncated: u64,
    pub dropped_foreign: u64,
    pub dropped_corrupted: u64,
    pub dropped_malformed: u64,
    pub intervals: Vec<Interval>,
    /// The same intervals as the simulator's time-series rows (`timeseries.csv`'s columns).
    #[serde(skip)]
    pub samples: Vec<sim::results::FlowSample>,
}

impl StreamReport {
    pub fn bits_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.bytes_delivered as f64 * 8.0 / self.seconds
        } else {
            0.0
        }
    }

    /// Every byte delivered is the byte sent, and, for a reliable transport, every byte sent
    /// was delivered once and in order (the checksums agree). An unreliable one may lose
    /// packets; it is intact when what it delivered is uncorrupted and its losses are counted.
    pub fn intact(&self) -> bool {
        self.bytes_corrupted == 0 && (!self.reliable || (self.bytes_lost == 0 && self.checksum_ok))
    }

    pub fn count_drop(&mut self, e: crate::wire::WireError) {
        use crate::wire::WireError::*;
        match e {
            Truncated => self.dropped_truncated += 1,
            Foreign => self.dropped_foreign += 1,
            Corrupted => self.dropped_corrupted += 1,
            Malformed => self.dropped_malformed += 1,
        }
    }
}

/// The `q`-quantile of `xs` (sorted in place), or None when empty.
pub fn quantile(xs: &mut [f64], q: f64) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(|a, b| a.total_cmp(b));
    let i = ((xs.len() - 1) as f64 * q).round() as usize;
    Some(xs[i])
}
