//! Leaving slow start before the first loss: HyStart (Ha & Rhee, "Taming the elephants: New
//! TCP slow start", Computer Networks 2011; Linux `tcp_cubic.c` `hystart_update`) and
//! HyStart++ (RFC 9406). Each can be switched on its own.
//!
//! **HyStart** watches each round (window) of ACKs once cwnd ≥ `low_window` (16):
//! - *ACK train*: ACKs arriving within `ack_delta` (2 ms) of each other form a train; when the
//!   train has lasted more than half the minimum RTT, the pipe is full.
//! - *Delay increase*: the minimum of the round's first 8 RTT samples exceeds the connection's
//!   minimum RTT by `clamp(min_rtt/8, 4 ms, 16 ms)`.
//!
//! Either sets ssthresh to the current cwnd.
//!
//! **HyStart++** (RFC 9406 §4.2): per round, the minimum of at least 8 RTT samples; if it rose by
//! `RttThresh = clamp(lastRoundMinRTT/8, 4 ms, 16 ms)`, enter Conservative Slow Start (growth
//! divided by 4) for up to 5 rounds; back to slow start if the RTT falls below the CSS baseline,
//! else congestion avoidance. Slow start growth per ACK is limited to L = 8 segments.

use crate::controller::{Ctx, Feedback};
use crate::round::RoundCounter;
use crate::units::{Bytes, Time};
use serde::{Deserialize, Serialize};

/// HyStart's settings, as Linux `tcp_cubic` module parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HystartConfig {
    /// Classic HyStart on (`hystart`).
    pub hystart: bool,
    /// 1 = ACK train, 2 = delay, 3 = both (`hystart_detect`).
    pub hystart_detect: u8,
    /// Segments below which HyStart stays out (`hystart_low_window`).
    pub hystart_low_window: u64,
    /// ACK-train spacing in microseconds (`hystart_ack_delta_us`).
    pub hystart_ack_delta_us: u64,
    /// HyStart++ (RFC 9406) instead of classic HyStart.
    pub hystart_plus_plus: bool,
}

/// Linux `tcp_cubic.c`'s module parameters: `hystart_detect` is the bits 1 (ACK train) and 2
/// (delay); the spacing is a time in microseconds.
impl crate::check::Validate for HystartConfig {
    fn validate(&self) -> Result<(), String> {
        use crate::check::within;
        within("hystart_detect", self.hystart_detect, 0..=3)?;
        within("hystart_low_window", self.hystart_low_window, 0..=1_000_000_000)?;
        within("hystart_ack_delta_us", self.hystart_ack_delta_us, 0..=1_000_000)
    }
}

impl Default for HystartConfig {
    fn default() -> Self {
        HystartConfig {
            hystart: true,
            hystart_detect: 3,
            hystart_low_window: 16,
            hystart_ack_delta_us: 2000,
            hystart_plus_plus: false,
        }
    }
}

const HYSTART_ACK_TRAIN: u8 = 1;
const HYSTART_DELAY: u8 = 2;
const MIN_SAMPLES: u32 = 8;
const DELAY_MIN: Time = Time::from_millis(4);
const DELAY_MAX: Time = Time::from_millis(16);
/// RFC 9406 constants.
const CSS_GROWTH_DIVISOR: u64 = 4;
const CSS_ROUNDS: u32 = 5;
const SS_LIMIT_SEGMENTS: u64 = 8;

/// `clamp(rtt/8, 4 ms, 16 ms)`: the delay rise both variants look for.
pub fn delay_threshold(rtt: Time) -> Time {
    Time(rtt.0 / 8).clamp(DELAY_MIN, DELAY_MAX)
}

/// What slow start should do after an ACK.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SlowStart {
    Continue,
    /// Leave slow start now: set ssthresh to cwnd.
    Exit,
}

#[derive(Clone, Debug)]
pub struct Hystart {
    cfg: HystartConfig,
    rounds: RoundCounter,
    // Classic HyStart.
    round_start: Time,
    last_ack: Time,
    curr_rtt: Option<Time>,
    sample_cnt: u32,
    found: bool,
    // HyStart++.
    last_round_min_rtt: Option<Time>,
    current_round_min_rtt: Option<Time>,
    css_baseline: Option<Time>,
    css_rounds: u32,
}

impl Hystart {
    pub fn new(cfg: &HystartConfig) -> Hystart {
        Hystart {
            cfg: cfg.clone(),
            rounds: RoundCounter::default(),
            round_start: Time::ZERO,
            last_ack: Time::ZERO,
            curr_rtt: None,
            sample_cnt: 0,
            found: false,
            last_round_min_rtt: None,
            current_round_min_rtt: None,
            css_baseline: None,
            css_rounds: 0,
        }
    }

    /// After a loss or timeout: a later slow start may use HyStart again (Linux `bictcp_reset`).
    pub fn reset(&mut self) {
        *self = Hystart { rounds: self.rounds.clone(), ..Hystart::new(&self.cfg) };
    }

    /// In HyStart++'s conservative slow start.
    pub fn in_css(&self) -> bool {
        self.css_baseline.is_some()
    }

    /// Slow start growth for `acked` bytes: HyStart++ caps it at L segments per ACK and
    /// divides it by 4 in CSS.
    pub fn growth(&self, acked: Bytes, mss: Bytes) -> Bytes {
        if !self.cfg.hystart_plus_plus {
            return acked;
        }
        let limited = acked.min(SS_LIMIT_SEGMENTS * mss);
        if self.in_css() {
            limited / CSS_GROWTH_DIVISOR
        } else {
            limited
        }
    }

    /// Call on every ACK during slow start.
    pub fn on_ack(&mut self, fb: &Feedback, ctx: &Ctx, cwnd_segments: u64) -> SlowStart {
        let new_round = self.rounds.on_feedback(fb);
        if self.cfg.hystart_plus_plus {
            self.plus_plus(new_round, fb)
        } else if self.cfg.hystart && !self.found {
            self.classic(new_round, fb, ctx, cwnd_segments)
        } else {
            SlowStart::Continue
        }
    }

    fn classic(&mut self, new_round: bool, fb: &Feedback, ctx: &Ctx, cwnd_segments: u64) -> SlowStart {
        let now = ctx.now;
        if new_round {
            self.round_start = now;
            self.last_ack = now;
            self.curr_rtt = None;
            self.sample_cnt = 0;
        }
        if cwnd_segments < self.cfg.hystart_low_window {
            return SlowStart::Continue;
        }
        let Some(delay_min) = ctx.rtt.min_rtt else { return SlowStart::Continue };
        if self.cfg.hystart_detect & HYSTART_ACK_TRAIN != 0
            && now - self.last_ack <= Time::from_micros(self.cfg.hystart_ack_delta_us)
        {
            self.last_ack = now;
            if now - self.round_start > Time(delay_min.0 / 2) {
                self.found = true;
                return SlowStart::Exit;
            }
        }
        if self.cfg.hystart_detect & HYSTART_DELAY != 0 {
            if let Some(rtt) = fb.rtt_sample {
                if self.sample_cnt < MIN_SAMPLES {
                    self.curr_rtt = Some(self.curr_rtt.map_or(rtt, |c| c.min(rtt)));
                    self.sample_cnt += 1;
                } else if self.curr_rtt.is_some_and(|c| c > delay_min + delay_threshold(delay_min)) {
                    self.found = true;
                    return SlowStart::Exit;
                }
            }
        }
        SlowStart::Continue
    }

    fn plus_plus(&mut self, new_round: bool, fb: &Feedback) -> SlowStart {
        if new_round {
            self.last_round_min_rtt = self.current_round_min_rtt;
            self.current_round_min_rtt = None;
            self.sample_cnt = 0;
            if self.in_css() {
                self.css_rounds += 1;
                if self.css_rounds >= CSS_ROUNDS {
                    return SlowStart::Exit;
                }
            }
        }
        if let Some(rtt) = fb.rtt_sample {
            self.current_round_min_rtt = Some(self.current_round_min_rtt.map_or(rtt, |c| c.min(rtt)));
            self.sample_cnt += 1;
        }
        if self.sample_cnt >= MIN_SAMPLES {
            if let (Some(cur), Some(last)) = (self.current_round_min_rtt, self.last_round_min_rtt) {
                match self.css_baseline {
                    None if cur >= last + delay_threshold(last) => {
                        self.css_baseline = Some(cur);
                        self.css_rounds = 0;
                    }
                    Some(base) if cur < base => self.css_baseline = None,
                    _ => {}
                }
            }
        }
        SlowStart::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Harness;

    fn ack(prior: Bytes, delivered: Bytes, rtt_ms: u64) -> Feedback {
        let mut fb = Feedback::default();
        fb.acked_packets = 1;
        fb.acked_bytes = 1000;
        fb.prior_delivered = prior;
        fb.delivered = delivered;
        fb.rtt_sample = Some(Time::from_millis(rtt_ms));
        fb
    }

    #[test]
    fn thresholds_are_an_eighth_of_the_rtt_clamped_to_4_and_16_ms() {
        assert_eq!(delay_threshold(Time::from_millis(10)), Time::from_millis(4));
        assert_eq!(delay_threshold(Time::from_millis(80)), Time::from_millis(10));
        assert_eq!(delay_threshold(Time::from_millis(400)), Time::from_millis(16));
    }

    #[test]
    fn classic_delay_detection_exits_when_the_round_min_rtt_rises() {
        let mut h = Harness::new(); // min RTT 100 ms
        let mut hs = Hystart::new(&HystartConfig { hystart_detect: HYSTART_DELAY, ..HystartConfig::default() });
        // Round 1: eight samples of 110 ms (< 100 + 12.5): no exit.
        for i in 0..10 {
            let fb = ack(0, 1000 * (i + 1), 110);
            assert_eq!(hs.on_ack(&fb, &h.ctx(), 32), SlowStart::Continue);
        }
        // Round 2: samples of 113 ms (> 112.5): exit after the eighth.
        let mut exits = 0;
        for i in 0..10 {
            let fb = ack(10_000 + i, 20_000 + i, 113);
            exits += (hs.on_ack(&fb, &h.ctx(), 32) == SlowStart::Exit) as u32;
        }
        assert_eq!(exits, 1);
    }

    #[test]
    fn classic_ack_train_exits_after_half_the_min_rtt() {
        let mut h = Harness::new(); // min RTT 100 ms
        let mut hs = Hystart::new(&HystartConfig { hystart_detect: HYSTART_ACK_TRAIN, ..HystartConfig::default() });
        let mut out = vec![];
        // ACKs every millisecond for 60 ms in one round.
        for i in 0..60u64 {
            h.now = Time::from_millis(i);
            let fb = ack(0, 1000 * (i + 1), 100);
            out.push(hs.on_ack(&fb, &h.ctx(), 32));
        }
        let first_exit = out.iter().position(|&a| a == SlowStart::Exit).unwrap();
        assert_eq!(first_exit, 51, "exits once the train is longer than 50 ms");
    }

    #[test]
    fn hystart_plus_plus_enters_css_then_leaves_slow_start_after_five_rounds() {
        let mut h = Harness::new();
        let mut hs = Hystart::new(&HystartConfig { hystart_plus_plus: true, ..HystartConfig::default() });
        let mut delivered = 0;
        let mut round = |rtt: u64, hs: &mut Hystart| {
            let h = &mut h;
            let prior = delivered;
            let mut res = SlowStart::Continue;
            for _ in 0..10 {
                delivered += 1000;
                let fb = ack(prior, delivered, rtt);
                if hs.on_ack(&fb, &h.ctx(), 32) == SlowStart::Exit {
                    res = SlowStart::Exit;
                }
            }
            res
        };
        assert_eq!(round(100, &mut hs), SlowStart::Continue);
        assert_eq!(round(100, &mut hs), SlowStart::Continue);
        assert!(!hs.in_css());
        // +12.5 ms = the threshold for a 100 ms round: CSS.
        round(113, &mut hs);
        assert!(hs.in_css());
        assert_eq!(hs.growth(8000, 1000), 2000);
        let exits: Vec<SlowStart> = (0..5).map(|_| round(113, &mut hs)).collect();
        assert_eq!(exits.last(), Some(&SlowStart::Exit));
    }
}
