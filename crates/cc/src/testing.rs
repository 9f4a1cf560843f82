//! A small harness for controller unit tests: feeds crafted ACK, loss and timeout events.

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
