//! The receiver's loss history (RFC 5348 §5): lost packets, loss events, loss intervals and the
//! loss event rate `p`.
//!
//! - **Loss** (§5.1): a packet is lost once `NDUPACK = 3` packets with higher sequence numbers
//!   have arrived. Its loss time is interpolated between the arrivals around it (§5.2):
//!   `T_loss = T_before + (T_after − T_before)·(S_loss − S_before)/(S_after − S_before)`.
//!   With ECN a CE-marked packet counts as lost at its arrival time.
//! - **Loss event** (§5.2): a loss starts a new event if `T_loss > T_start + R`, where `T_start`
//!   is the loss time of the first packet lost in the current event and `R` the sender's RTT
//!   from the packet headers; otherwise it belongs to the current event.
//! - **Loss intervals** (§5.3): `I_i = S_start(i−1) − S_start(i)`, packets between the first
//!   losses of successive events (most recent first); the open interval is
//!   `I_0 = S_max − S_start(0) + 1`, from the latest event's first loss to the highest packet
//!   received, both counted. The first event has no predecessor: its closed interval is made
//!   up by the receiver (§6.3.1, see `receiver`).
//! - **Average loss interval** (§5.4), over `n = 8` intervals with weights `w = 1, 1, 1, 1,
//!   0.8, 0.6, 0.4, 0.2`: `I_tot0 = Σ_{i=0}^{n−1} w_i·I_i` (with the open interval),
//!   `I_tot1 = Σ_{i=1}^{n} w_{i−1}·I_i` (without it), `W_tot = Σ w_i`,
//!   `I_mean = max(I_tot0, I_tot1)/W_tot`, so the open interval counts only when it raises the
//!   average. With `k < n` closed intervals the sums run over `k` terms. `p = 1/I_mean`.
//!
//! Not implemented: history discounting (§5.5, optional).

use crate::units::Time;
use std::collections::{BTreeMap, VecDeque};

/// `I_mean = max(I_tot0, I_tot1)/W_tot` (RFC 5348 §5.4) for the open interval `open` and the
/// closed ones `closed` (most recent first); `None` without a closed interval.
pub fn average_loss_interval(open: f64, closed: &[f64], weights: &[f64]) -> Option<f64> {
    let k = closed.len().min(weights.len());
    if k == 0 {
        return None;
    }
    let w = &weights[..k];
    let w_tot: f64 = w.iter().sum();
    let with_open = std::iter::once(&open).chain(&closed[..k - 1]);
    let i_tot0: f64 = with_open.zip(w).map(|(i, w)| i * w).sum();
    let i_tot1: f64 = closed[..k].iter().zip(w).map(|(i, w)| i * w).sum();
    Some(i_tot0.max(i_tot1) / w_tot)
}

/// Loss detection and the loss intervals of one receiver.
#[derive(Clone, Debug)]
pub struct LossHistory {
    ndupack: u64,
    weights: Vec<f64>,
    /// Every sequence number below this one is classified, as received or lost.
    next_check: u64,
    /// Packets at or above `next_check` that arrived: arrival time, CE mark.
    pending: BTreeMap<u64, (Time, bool)>,
    /// The last classified packet that arrived (sequence number, arrival), for interpolation.
    before: Option<(u64, Time)>,
    highest: Option<u64>,
    /// The current loss event: its first lost sequence number and loss time.
    event: Option<(u64, Time)>,
    /// Closed loss intervals `I_1, I_2, ...`, at most `n`.
    closed: VecDeque<f64>,
    events: u64,
    lost: u64,
}

impl LossHistory {
    /// `ndupack` packets above a hole make it a loss; `weights` are `w_0..w_{n−1}`.
    pub fn new(ndupack: u64, weights: Vec<f64>) -> LossHistory {
        let weights = if weights.is_empty() { vec![1.0] } else { weights };
        LossHistory {
            ndupack: ndupack.max(1),
            weights,
            next_check: 0,
            pending: BTreeMap::new(),
            before: None,
            highest: None,
            event: None,
            closed: VecDeque::new(),
            events: 0,
            lost: 0,
        }
    }

    /// A packet not seen before arrived at `at`. `rtt` (the sender's, from the header) groups
    /// losses into events; `first_interval` is asked once, for the synthetic interval of the
    /// first loss event. Returns true if a new loss event began.
    pub fn on_packet(
        &mut self,
        seq: u64,
        at: Time,
        ce: bool,
        rtt: Option<Time>,
        first_interval: &mut dyn FnMut() -> f64,
    ) -> bool {
        if seq < self.next_check {
            // Already counted as lost: the loss stands.
            return false;
        }
        self.pending.insert(seq, (at, ce));
        self.highest = Some(self.highest.map_or(seq, |h| h.max(seq)));
        let mut new_event = false;
        loop {
            let s = self.next_check;
            if let Some((t, ce)) = self.pending.remove(&s) {
                if ce {
                    new_event |= self.on_loss(s, t, rtt, first_interval);
                }
                self.before = Some((s, t));
            } else {
                let mut above = self.pending.range(s + 1..);
                let Some((&s_after, &(t_after, _))) = above.next() else { break };
                if (above.count() as u64) + 1 < self.ndupack {
                    break;
                }
                let t_loss = match self.before {
                    Some((s_before, t_before)) => {
                        let frac = (s - s_before) as f64 / (s_after - s_before) as f64;
                        t_before + (t_after - t_before).mul_f64(frac)
                    }
                    None => t_after,
                };
                self.lost += 1;
                new_event |= self.on_loss(s, t_loss, rtt, first_interval);
            }
            self.next_check += 1;
        }
        new_event
    }

    fn on_loss(&mut self, seq: u64, t: Time, rtt: Option<Time>, first_interval: &mut dyn FnMut() -> f64) -> bool {
        if let (Some((_, t_start)), Some(r)) = (self.event, rtt) {
            if t <= t_start + r {
                return false;
            }
        }
        let closed = match self.event {
            Some((s_start, _)) => (seq - s_start) as f64,
            None => first_interval().max(1.0),
        };
        self.closed.push_front(closed);
        self.closed.truncate(self.weights.len());
        self.event = Some((seq, t));
        self.events += 1;
        true
    }

    /// The open interval `I_0 = S_max − S_start + 1`, once there has been a loss event.
    pub fn open_interval(&self) -> Option<f64> {
        let (start, _) = self.event?;
        Some((self.highest.unwrap_or(start).max(start) - start + 1) as f64)
    }

    /// Closed intervals, most recent first.
    pub fn closed_intervals(&self) -> &VecDeque<f64> {
        &self.closed
    }

    /// `I_mean`, once there has been a loss event.
    pub fn mean_interval(&self) -> Option<f64> {
        let closed: Vec<f64> = self.closed.iter().copied().collect();
        average_loss_interval(self.open_interval()?, &closed, &self.weights)
    }

    /// The loss event rate `p = 1/I_mean` (0 before the first loss event).
    pub fn loss_event_rate(&self) -> f64 {
        self.mean_interval().map_or(0.0, |m| 1.0 / m.max(1.0))
    }

    pub fn loss_events(&self) -> u64 {
        self.events
    }

    /// Packets declared lost (not counting CE marks).
    pub fn lost_packets(&self) -> u64 {
        self.lost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: [f64; 8] = [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2];

    /// Closed intervals I_1..I_8 = 10, 20, ..., 80 and an older I_9 = 1000 that must not count.
    /// W_tot = 1+1+1+1+0.8+0.6+0.4+0.2 = 6.
    /// I_tot1 = 10+20+30+40 + 0.8·50 + 0.6·60 + 0.4·70 + 0.2·80 = 100+40+36+28+16 = 220.
    /// Open I_0 = 5: I_tot0 = 5 + 10+20+30 + 0.8·40 + 0.6·50 + 0.4·60 + 0.2·70
    ///   = 65+32+30+24+14 = 165 < 220, so the open interval is ignored: I_mean = 220/6 = 36.67.
    /// Open I_0 = 100: I_tot0 = 100+60+32+30+24+14 = 260 > 220: I_mean = 260/6 = 43.33.
    #[test]
    fn average_uses_rfc_weights_and_the_open_interval_only_when_it_raises_the_mean() {
        let closed = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 1000.0];
        let short = average_loss_interval(5.0, &closed, &W).unwrap();
        assert!((short - 220.0 / 6.0).abs() < 1e-12, "{short}");
        let long = average_loss_interval(100.0, &closed, &W).unwrap();
        assert!((long - 260.0 / 6.0).abs() < 1e-12, "{long}");
        // With one closed interval the mean is max(I_0, I_1).
        assert_eq!(average_loss_interval(30.0, &[50.0], &W), Some(50.0));
        assert_eq!(average_loss_interval(70.0, &[50.0], &W), Some(70.0));
        assert_eq!(average_loss_interval(70.0, &[], &W), None);
    }

    /// Packets every 10 ms, R = 100 ms. Packets 5 and 8 are lost: 8's loss time (80 ms) is
    /// within R of 5's (50 ms), one event. Packet 30 (300 ms) starts a second event, packet 41
    /// (410 ms, more than R after 300 ms) a third; 40 (400 ms, exactly R after) belongs to the
    /// second.
    #[test]
    fn losses_within_one_rtt_of_the_first_form_one_event() {
        let mut h = LossHistory::new(3, W.to_vec());
        let rtt = Some(Time::from_millis(100));
        let mut asked = 0;
        let mut new_events = vec![];
        for seq in 0..60u64 {
            if [5, 8, 30, 40, 41].contains(&seq) {
                continue;
            }
            let mut first = || {
                asked += 1;
                1000.0
            };
            if h.on_packet(seq, Time::from_millis(10 * seq), false, rtt, &mut first) {
                new_events.push(seq);
            }
        }
        assert_eq!(asked, 1);
        assert_eq!(h.lost_packets(), 5);
        assert_eq!(h.loss_events(), 3);
        // Each event is known when the third packet above its first loss arrives: 6, 7, 9
        // for packet 5; 31, 32, 33 for 30; 42, 43, 44 for 40 and 41. T_loss(40) = 390 + 30/3
        // = 400 ms, T_loss(41) = 410 ms.
        assert_eq!(new_events, vec![9, 33, 44]);
        // I_1 = 41 − 30 = 11, I_2 = 30 − 5 = 25, I_3 = the synthetic 1000; I_0 = 59 − 41 + 1.
        assert_eq!(h.closed_intervals().iter().copied().collect::<Vec<_>>(), vec![11.0, 25.0, 1000.0]);
        assert_eq!(h.open_interval(), Some(19.0));
        // k = 3: I_tot0 = 19 + 11 + 25 = 55, I_tot1 = 11 + 25 + 1000 = 1036, W_tot = 3.
        assert!((h.loss_event_rate() - 3.0 / 1036.0).abs() < 1e-12);
    }

    #[test]
    fn loss_time_is_interpolated_and_reordering_is_not_loss() {
        let mut h = LossHistory::new(3, W.to_vec());
        let rtt = Some(Time::from_millis(100));
        let mut first = || 100.0;
        // 1 arrives late but before three packets above it: not a loss.
        for (seq, ms) in [(0, 0), (2, 20), (3, 30), (1, 35), (4, 40)] {
            h.on_packet(seq, Time::from_millis(ms), false, rtt, &mut first);
        }
        assert_eq!(h.lost_packets(), 0);
        // 5 and 6 lost; 7 arrives at 170 ms. T_loss(5) = 40 + 130·1/3 ≈ 83 ms, T_loss(6) ≈ 127
        // ms: both within R of 83 ms, one event.
        for (seq, ms) in [(7, 170), (8, 180), (9, 190)] {
            h.on_packet(seq, Time::from_millis(ms), false, rtt, &mut first);
        }
        assert_eq!(h.lost_packets(), 2);
        assert_eq!(h.loss_events(), 1);
        // A CE mark more than R later is a new event, without a lost packet.
        h.on_packet(10, Time::from_millis(300), true, rtt, &mut first);
        assert_eq!((h.lost_packets(), h.loss_events()), (2, 2));
        assert_eq!(h.closed_intervals()[0], 5.0);
    }
}
