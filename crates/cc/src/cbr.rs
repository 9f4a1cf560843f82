//! A constant-bit-rate source: the talk's "unresponsive" flow, which "does not react to
//! congestion indicators at all".
//!
//! Packet `i` leaves at `t_0 + i·s/r` (`s` the payload, `r` the configured rate), whatever
//! happens to the packets before it: the sender ignores every control message, and the
//! receiver sends none. A sender held back by its access link sends the packets it owes as
//! soon as the link frees, so over any long interval it sends exactly `r·T` (as an application
//! writing at rate `r` into a socket buffer would). Goodput comes from the receiver's count of
//! distinct packets (`packets_received`), which is what the simulator uses, so no
//! acknowledgements are needed; `DgStats::bytes_delivered` stays 0.

use crate::seen::SeenSet;
use crate::controller::Snapshot;
use crate::datagram::{CtrlMsg, DatagramReceiver, DatagramSender, DgArrival, DgInit, DgStats, DgTransmit};
use crate::units::{Bytes, Rate, Time};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CbrConfig {
    /// Payload rate in bits per second. Default 10 Mbit/s: a quarter of cclab's default
    /// 40 Mbit/s bottleneck, so that its effect on responsive flows shows at once.
    pub rate_bps: u64,
}

impl Default for CbrConfig {
    fn default() -> Self {
        CbrConfig { rate_bps: 10_000_000 }
    }
}

impl CbrConfig {
    pub fn rate(&self) -> Rate {
        Rate::from_bits_per_sec(self.rate_bps as f64)
    }
}

#[derive(Clone, Debug)]
pub struct CbrSender {
    s: Bytes,
    rate: Rate,
    data_limit: Option<Bytes>,
    start: Option<Time>,
    stats: DgStats,
}

impl CbrSender {
    pub fn new(cfg: &CbrConfig, s: Bytes, data_limit: Option<Bytes>) -> CbrSender {
        CbrSender { s: s.max(1), rate: cfg.rate(), data_limit, start: None, stats: DgStats::default() }
    }

    fn all_sent(&self) -> bool {
        self.rate.bytes_per_sec() <= 0.0 || self.data_limit.is_some_and(|d| self.stats.bytes_sent >= d)
    }

    /// When packet `packets_sent` is due: `t_0 + i·s/r`, computed from `t_0` so that rounding
    /// never accumulates.
    fn due(&self, now: Time) -> Time {
        let t0 = self.start.unwrap_or(now);
        t0 + Time::from_secs_f64(self.stats.packets_sent as f64 * self.s as f64 / self.rate.bytes_per_sec())
    }
}

impl DatagramSender for CbrSender {
    fn name(&self) -> &'static str {
        "cbr"
    }

    fn poll_transmit(&mut self, now: Time) -> Option<DgTransmit> {
        self.start.get_or_insert(now);
        if self.all_sent() || now < self.due(now) {
            return None;
        }
        let len = self.data_limit.map_or(self.s, |d| self.s.min(d - self.stats.bytes_sent));
        let seq = self.stats.packets_sent;
        self.stats.packets_sent += 1;
        self.stats.bytes_sent += len;
        Some(DgTransmit { seq, len, is_retransmission: false, ecn_capable: false, sender_rtt: None })
    }

    fn next_send_time(&self, now: Time) -> Option<Time> {
        (!self.all_sent()).then(|| self.due(now))
    }

    /// Unresponsive: feedback changes nothing.
    fn on_control(&mut self, _now: Time, _msg: &CtrlMsg) {}

    fn next_timer(&self) -> Option<Time> {
        None
    }

    fn on_timer(&mut self, _now: Time) {}

    fn stats(&self) -> &DgStats {
        &self.stats
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot { cwnd: None, ssthresh: None, pacing_rate: Some(self.rate), bw_estimate: None, min_rtt: None, state: "cbr" }
    }

    fn rtt(&self) -> Option<Time> {
        None
    }

    /// Every packet sent (nothing is ever acknowledged).
    fn is_complete(&self) -> bool {
        self.data_limit.is_some() && self.all_sent()
    }

    fn end_stream(&mut self) {
        self.data_limit = Some(self.data_limit.map_or(self.stats.bytes_sent, |d| d.min(self.stats.bytes_sent)));
    }
}

/// Counts distinct packets; sends nothing.
#[derive(Clone, Debug, Default)]
pub struct CbrReceiver {
    seen: SeenSet,
}

impl DatagramReceiver for CbrReceiver {
    fn on_data(&mut self, _now: Time, pkt: &DgArrival, _out: &mut Vec<CtrlMsg>) {
        self.seen.insert(pkt.seq);
    }

    fn next_timer(&self) -> Option<Time> {
        None
    }

    fn on_timer(&mut self, _now: Time, _out: &mut Vec<CtrlMsg>) {}

    fn packets_received(&self) -> u64 {
        self.seen.distinct()
    }
}

/// The CBR pair for `cbr`.
pub fn new_pair(cfg: &CbrConfig, init: DgInit) -> (CbrSender, CbrReceiver) {
    (CbrSender::new(cfg, init.mss, init.data_limit), CbrReceiver::default())
}


/// A positive rate up to 1 Tbit/s.
impl crate::check::Validate for CbrConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        within("rate_bps", self.rate_bps, 1..=1_000_000_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 8 Mbit/s of 1000 B packets: one per millisecond, feedback or not.
    #[test]
    fn sends_on_a_fixed_schedule_and_ignores_feedback() {
        let mut tx = CbrSender::new(&CbrConfig { rate_bps: 8_000_000 }, 1000, Some(5500));
        let ms = Time::from_millis;
        assert!(tx.poll_transmit(ms(0)).is_some());
        assert!(tx.poll_transmit(ms(0)).is_none());
        assert_eq!(tx.next_send_time(ms(0)), Some(ms(1)));
        tx.on_control(ms(0), &CtrlMsg::Nak { lost: vec![0] });
        tx.on_control(ms(0), &CtrlMsg::TfrcReport { echo: ms(0), delay: ms(0), x_recv: Rate(1.0), p: 0.5 });
        assert_eq!(tx.next_send_time(ms(0)), Some(ms(1)));
        // Polled late, at 3.5 ms: packets 1, 2 and 3 (due at 1, 2, 3 ms) go at once, then the
        // schedule resumes.
        let late: Vec<u64> = (0..4).filter_map(|_| tx.poll_transmit(Time::from_micros(3500))).map(|p| p.seq).collect();
        assert_eq!(late, vec![1, 2, 3]);
        assert_eq!(tx.next_send_time(ms(3)), Some(ms(4)));
        assert_eq!(tx.poll_transmit(ms(4)).map(|p| p.len), Some(1000));
        assert_eq!(tx.poll_transmit(ms(5)).map(|p| p.len), Some(500));
        assert!(tx.is_complete());
        assert_eq!(tx.next_send_time(ms(6)), None);
    }
}
