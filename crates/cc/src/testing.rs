//! A small harness for controller unit tests and sans-I/O probes of a control law (cclab's
//! experiments): feeds crafted ACK, loss and timeout events.

use crate::controller::*;
use crate::rng::{component_rng, CcRng};
use crate::units::{Bytes, Time};

pub const MSS: Bytes = 1000;

/// A controller's start: MSS of 1000 bytes and the given initial window.
pub fn init(initial_cwnd: Bytes) -> crate::controller::CcInit {
    crate::controller::CcInit { mss: MSS, initial_cwnd }
}

pub struct Harness {
    pub now: Time,
    pub rtt: RttStats,
    pub rng: CcRng,
    pub events: EventLog,
    pub in_flight: Bytes,
    /// `Ctx::paced`.
    pub paced: bool,
}

impl Default for Harness {
    fn default() -> Self {
        Self::new()
    }
}

impl Harness {
    pub fn new() -> Harness {
        let rtt = Time::from_millis(100);
        Harness {
            now: Time::ZERO,
            rtt: RttStats { srtt: Some(rtt), rttvar: Time::ZERO, min_rtt: Some(rtt), latest: Some(rtt) },
            rng: component_rng(1, 1),
            events: EventLog::enabled(),
            in_flight: 0,
            paced: false,
        }
    }

    pub fn ctx(&mut self) -> Ctx<'_> {
        Ctx {
            now: self.now,
            rtt: self.rtt,
            mss: MSS,
            bytes_in_flight: self.in_flight,
            paced: self.paced,
            rng: &mut self.rng,
            events: &mut self.events,
        }
    }

    /// `n` ACKs of one MSS each.
    pub fn ack_n<C: CongestionControl>(&mut self, cc: &mut C, n: usize, in_recovery: bool) {
        for _ in 0..n {
            let mut fb = Feedback::default();
            fb.acked_bytes = MSS;
            fb.acked_packets = 1;
            fb.in_recovery = in_recovery;
            fb.rtt_sample = self.rtt.latest;
            self.in_flight = cc.control().cwnd.unwrap_or(0);
            fb.prior_in_flight = self.in_flight;
            let mut ctx = self.ctx();
            cc.on_feedback(&fb, &mut ctx);
        }
    }

    /// `rounds` round trips, each acknowledging the whole current window one MSS at a time.
    pub fn ack_rounds<C: CongestionControl>(&mut self, cc: &mut C, rounds: usize) {
        for _ in 0..rounds {
            let w = cc.control().cwnd.unwrap_or(10 * MSS) / MSS;
            self.ack_n(cc, w as usize, false);
            self.now += self.rtt.srtt.unwrap();
        }
    }

    pub fn loss<C: CongestionControl>(&mut self, cc: &mut C, new_episode: bool) {
        let mut fb = Feedback::default();
        fb.lost_bytes = MSS;
        fb.lost_packets = 1;
        fb.new_episode = new_episode;
        fb.in_recovery = true;
        fb.is_dupack = true;
        self.in_flight = cc.control().cwnd.unwrap_or(0);
        fb.prior_in_flight = self.in_flight;
        let mut ctx = self.ctx();
        cc.on_feedback(&fb, &mut ctx);
    }

    pub fn timeout<C: CongestionControl>(&mut self, cc: &mut C) {
        let mut ctx = self.ctx();
        cc.on_timeout(&mut ctx);
    }
}

/// A driver that acknowledges whole windows with the delivery counts a real sender gives, so
/// that a controller's round counter (`crate::round::RoundCounter`) sees one round per window.
pub struct Rounds {
    pub h: Harness,
    delivered: Bytes,
    prev_start: Option<Bytes>,
}

impl Default for Rounds {
    fn default() -> Self {
        Self::new()
    }
}

impl Rounds {
    pub fn new() -> Rounds {
        Rounds { h: Harness::new(), delivered: 0, prev_start: None }
    }

    /// One round trip: the current window is acknowledged one segment at a time, every ACK
    /// with RTT sample `rtt`, then `edit` may change each feedback (one-way delay, ...).
    pub fn round_with<C: CongestionControl>(&mut self, cc: &mut C, rtt: Time, edit: impl Fn(&mut Feedback)) {
        let n = cc.control().cwnd.unwrap_or(10 * MSS) / MSS;
        let start = self.delivered;
        for j in 0..n {
            self.delivered += MSS;
            let mut fb = Feedback {
                acked_bytes: MSS,
                acked_packets: 1,
                rtt_sample: Some(rtt),
                // A packet acknowledged now was sent when the previous round's (j+1)-th
                // ACK arrived (all of the first window at once).
                prior_delivered: self.prev_start.map_or(0, |p| (p + (j + 1) * MSS).min(start)),
                delivered: self.delivered,
                prior_in_flight: cc.control().cwnd.unwrap_or(0),
                ..Feedback::default()
            };
            edit(&mut fb);
            self.h.now += Time(rtt.as_nanos() / n.max(1));
            self.h.rtt.latest = Some(rtt);
            let mut ctx = self.h.ctx();
            cc.on_feedback(&fb, &mut ctx);
        }
        self.prev_start = Some(start);
    }

    pub fn round<C: CongestionControl>(&mut self, cc: &mut C, rtt: Time) {
        self.round_with(cc, rtt, |_| {});
    }

    pub fn rounds<C: CongestionControl>(&mut self, cc: &mut C, n: usize, rtt: Time) {
        for _ in 0..n {
            self.round(cc, rtt);
        }
    }

    /// A loss that opens a recovery episode, then the ACK that ends it.
    pub fn loss_episode<C: CongestionControl>(&mut self, cc: &mut C) {
        self.h.loss(cc, true);
        self.delivered += MSS;
        let fb = Feedback {
            acked_bytes: MSS,
            acked_packets: 1,
            recovery_ended: true,
            delivered: self.delivered,
            prior_delivered: self.delivered - MSS,
            ..Feedback::default()
        };
        let mut ctx = self.h.ctx();
        cc.on_feedback(&fb, &mut ctx);
    }
}

pub fn ms(x: u64) -> Time {
    Time::from_millis(x)
}
