//! CDG (CAIA Delay-Gradient): probabilistic backoff on a rising RTT.
//!
//! Sources: D. A. Hayes, G. Armitage, "Revisiting TCP Congestion Control using Delay
//! Gradients", IFIP Networking 2011; Linux `net/ipv4/tcp_cdg.c` (window 8, backoff_beta
//! 0.7071·1024 = 724, backoff_factor 42, HyStart on, ineffective-backoff threshold 5, shadow
//! window on, loss tolerance off).
//!
//! Per round trip CDG keeps the smallest and largest RTT, `τ_min` and `τ_max`. At the end of
//! a round the gradients `g_min = τ_min − τ_min,prev` and `g_max = τ_max − τ_max,prev` (µs)
//! are summed over the last `window` rounds (the paper's moving average, without the division
//! by the window; extrapolated while the window fills). With `g = g_min` if it is positive,
//! else `g_max`:
//!
//! - if `g > 0`, back off with probability `P = 1 − e^(−g/(G·window))`, `G` = 3 ms: Linux's
//!   `backoff_factor = 1000/(G·window) = 42` gives `P = 1 − e^(−g·42/10⁶)` with `g` in µs. The
//!   draw comes from the run's seeded RNG (`ctx.rng`). A backoff sets
//!   `ssthresh = cwnd·backoff_beta/1024` and reduces cwnd to it (Linux enters CWR; the window
//!   is held until data sent after the reduction is acknowledged);
//! - ineffective backoff: each backoff counts, a round whose gradient sum falls by at least
//!   32 µs resets the count; after `use_ineff` (5) backoffs in a row without effect CDG stops
//!   backing off on delay (a loss-based competitor fills the queue anyway) until one works;
//! - otherwise Reno's growth; the shadow window follows the growth but not the delay backoffs,
//!   so that on a loss `ssthresh = max(cwnd/2, shadow/2)` (`use_shadow`): delay backoffs do
//!   not make CDG lose to loss-based flows twice;
//! - `use_tolerance` (off): losses while the queue is not full (`g_min > 0`, `g_max > 0`, or
//!   `g_max < 0`) do not reduce the window.
//!
//! Slow start ends by HyStart (ACK train longer than half the minimum RTT, or the round's
//! minimum RTT above `delay_min + delay_min/8`), as Linux's CDG does it.
//!
//! **On a long path the delay backoff usually ends slow start first, as in Linux** (issue 16,
//! item 5). `tcp_cdg_cong_avoid` takes the gradient step in slow start too. Each doubling
//! round's burst queues a little more than the last (2.9 ms, then 0.3 ms more on 40 Mbit/s,
//! 100 ms), and while the gradient window fills, `tcp_cdg_grad` extrapolates the sum by
//! `window/tail`: the first gradient counts 8 times, about 23 ms, so the backoff probability
//! `1 − e^(−23 000·42/10⁶)` is about 0.63 at the end of the second round, and about 0.42 at
//! the third (two gradients, 3.2 ms, extrapolated by 8/2). Slow start thus ends by the third
//! round, near 40 packets (28 after the 0.707 backoff), with probability about
//! 1 − 0.37·0.58 ≈ 0.79, then Reno's one
//! packet per RTT takes about 30 s to the 333-packet BDP. This is Linux's law on a path far
//! longer than the data-centre and access links CDG was tuned on; cclab keeps it.

use super::vegas_core::{restart_round, Phase, Shell};
use crate::controller::*;
use crate::rng::{CcRng, Rng};
use crate::round::RoundCounter;
use crate::units::Time;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CdgConfig {
    /// Rounds in the gradient's moving window.
    pub window: usize,
    /// Multiplicative decrease of a delay backoff, /1024.
    pub backoff_beta: u64,
    /// Backoff probability scale: `P = 1 − e^(−g·backoff_factor/10⁶)`, `g` in µs.
    pub backoff_factor: u64,
    /// HyStart: 0 off, 1 ACK train, 2 delay, 3 both.
    pub hystart_detect: u32,
    /// Ineffective backoffs in a row after which delay backoffs stop (0: never stop).
    pub use_ineff: u32,
    /// Keep the shadow window for losses.
    pub use_shadow: bool,
    /// Ignore losses while the queue is not full.
    pub use_tolerance: bool,
}

impl Default for CdgConfig {
    fn default() -> Self {
        CdgConfig {
            window: 8,
            backoff_beta: 724,
            backoff_factor: 42,
            hystart_detect: 3,
            use_ineff: 5,
            use_shadow: true,
            use_tolerance: false,
        }
    }
}

impl CdgConfig {
    /// The probability of a backoff for a gradient sum of `grad_us` µs.
    pub fn backoff_probability(&self, grad_us: i64) -> f64 {
        if grad_us <= 0 {
            return 0.0;
        }
        1.0 - (-(grad_us as f64) * self.backoff_factor as f64 * 1e-6).exp()
    }
}

/// A round's smallest and largest RTT, µs (0: no sample).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
struct MinMax {
    min: i64,
    max: i64,
}

impl MinMax {
    fn is_set(&self) -> bool {
        self.min != 0 || self.max != 0
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum CdgState {
    Unknown,
    NonFull,
    Full,
    Backoff,
}

#[derive(Clone, Debug)]
pub struct Cdg {
    cfg: CdgConfig,
    shell: Shell,
    rtt: MinMax,
    rtt_prev: MinMax,
    gradients: Vec<MinMax>,
    gsum: MinMax,
    gfilled: bool,
    tail: usize,
    state: CdgState,
    /// Delayed-ACK filter counter.
    delack: u8,
    round: RoundCounter,
    /// The window CDG would have without delay backoffs, packets.
    shadow_wnd: u64,
    backoff_cnt: u32,
    /// HyStart: samples this round, the smallest RTT seen (µs), the ACK train.
    sample_cnt: u32,
    delay_min: i64,
    last_ack: Option<Time>,
    round_start: Time,
    /// In a delay backoff's window reduction (Linux CWR) until data sent after it is
    /// acknowledged: the delivered count at the backoff.
    cwr_until: Option<u64>,
}

impl Cdg {
    pub fn new(cfg: &CdgConfig, init: CcInit) -> Cdg {
        let shell = Shell::new(init);
        Cdg {
            cfg: cfg.clone(),
            rtt: MinMax::default(),
            rtt_prev: MinMax::default(),
            gradients: vec![MinMax::default(); cfg.window.max(1)],
            gsum: MinMax::default(),
            gfilled: false,
            tail: 0,
            state: CdgState::Unknown,
            delack: 0,
            round: RoundCounter::default(),
            shadow_wnd: shell.cwnd_pkts(),
            backoff_cnt: 0,
            sample_cnt: 0,
            delay_min: 0,
            last_ack: None,
            round_start: Time::ZERO,
            cwr_until: None,
            shell,
        }
    }

    /// `tcp_cdg_acked`: the round's RTT extremes, with Hayes' delayed-ACK filter.
    fn on_rtt(&mut self, fb: &Feedback) {
        let Some(rtt) = fb.rtt_sample else { return };
        let us = (rtt.as_nanos() / 1000) as i64;
        if us <= 0 {
            return;
        }
        // No SACKed data outstanding (approximated by: not in recovery, not a duplicate ACK).
        if !fb.in_recovery && !fb.is_dupack {
            if fb.acked_packets == 1 && self.delack > 0 {
                // A delayed ACK only lowers an existing minimum.
                if self.rtt.min != 0 {
                    self.rtt.min = self.rtt.min.min(us);
                }
                self.delack -= 1;
                return;
            } else if fb.acked_packets > 1 && self.delack < 5 {
                self.delack += 1;
            }
        }
        self.rtt.min = if self.rtt.min == 0 { us } else { self.rtt.min.min(us) };
        self.rtt.max = self.rtt.max.max(us);
    }

    /// `tcp_cdg_grad`: the gradient sum over the window, extrapolated while it fills.
    fn grad(&mut self) -> i64 {
        let w = self.gradients.len();
        let mut gmin = self.rtt.min - self.rtt_prev.min;
        let mut gmax = self.rtt.max - self.rtt_prev.max;
        let old = self.gradients[self.tail];
        self.gsum.min += gmin - old.min;
        self.gsum.max += gmax - old.max;
        self.gradients[self.tail] = MinMax { min: gmin, max: gmax };
        self.tail = (self.tail + 1) % w;
        gmin = self.gsum.min;
        gmax = self.gsum.max;
        let mut grad = if gmin > 0 { gmin } else { gmax };
        if !self.gfilled {
            if self.tail == 0 {
                self.gfilled = true;
            } else {
                grad = grad * w as i64 / self.tail as i64;
            }
        }
        // The backoff was effectual: the queue is draining.
        if gmin <= -32 || gmax <= -32 {
            self.backoff_cnt = 0;
        }
        if self.cfg.use_tolerance {
            let (gmin, gmax) = (div_round(gmin, 64), div_round(gmax, 64));
            if gmin > 0 && gmax <= 0 {
                self.state = CdgState::Full;
            } else if (gmin > 0 && gmax > 0) || gmax < 0 {
                self.state = CdgState::NonFull;
            }
        }
        grad
    }

    /// `tcp_cdg_backoff`: true if the window was reduced.
    fn backoff(&mut self, grad: i64, fb: &Feedback, rng: &mut CcRng) -> bool {
        if rng.random::<f64>() >= self.cfg.backoff_probability(grad) {
            return false;
        }
        if self.cfg.use_ineff > 0 {
            self.backoff_cnt += 1;
            if self.backoff_cnt > self.cfg.use_ineff {
                return false;
            }
        }
        self.shadow_wnd = self.shadow_wnd.max(self.shell.cwnd_pkts());
        self.state = CdgState::Backoff;
        let ss = self.ssthresh();
        self.shell.set_ssthresh_pkts(ss);
        self.shell.set_cwnd_pkts(self.shell.ssthresh_pkts());
        self.cwr_until = Some(fb.delivered);
        true
    }

    /// `CA_EVENT_COMPLETE_CWR`: a reduction (backoff or loss recovery) is over.
    fn complete_cwr(&mut self, fb: &Feedback) {
        self.state = CdgState::Unknown;
        restart_round(&mut self.round, fb);
        self.rtt_prev = self.rtt;
        self.rtt = MinMax::default();
        self.cwr_until = None;
    }

    /// `tcp_cdg_ssthresh`, packets.
    fn ssthresh(&mut self) -> u64 {
        let cwnd = self.shell.cwnd_pkts();
        if self.state == CdgState::Backoff {
            return ((cwnd * self.cfg.backoff_beta.min(1024)) >> 10).max(2);
        }
        if self.state == CdgState::NonFull && self.cfg.use_tolerance {
            return cwnd;
        }
        self.shadow_wnd = (self.shadow_wnd >> 1).min(cwnd);
        if self.cfg.use_shadow {
            return self.shadow_wnd.max(cwnd >> 1).max(2);
        }
        (cwnd >> 1).max(2)
    }

    /// HyStart as in `tcp_cdg_hystart_update`: may end slow start by setting ssthresh = cwnd.
    fn hystart(&mut self, now: Time) {
        self.delay_min = match (self.delay_min, self.rtt.min) {
            (0, m) => m,
            (d, 0) => d,
            (d, m) => d.min(m),
        };
        if self.delay_min == 0 {
            return;
        }
        let cwnd = self.shell.cwnd_pkts();
        if self.cfg.hystart_detect & 1 != 0 {
            match self.last_ack {
                None => {
                    self.last_ack = Some(now);
                    self.round_start = now;
                }
                Some(last) if now < last + Time::from_micros(3000) => {
                    self.last_ack = Some(now);
                    let base_owd = Time::from_micros((self.delay_min / 2).max(125) as u64);
                    if now > self.round_start + base_owd {
                        self.shell.set_ssthresh_pkts(cwnd);
                        return;
                    }
                }
                Some(_) => {}
            }
        }
        if self.cfg.hystart_detect & 2 != 0 {
            if self.sample_cnt < 8 {
                self.sample_cnt += 1;
            } else {
                let thresh = (self.delay_min + self.delay_min / 8).max(125);
                if self.rtt.min > thresh {
                    self.shell.set_ssthresh_pkts(cwnd);
                }
            }
        }
    }

    /// `tcp_cdg_cong_avoid`.
    fn cong_avoid(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        if self.shell.w.in_slow_start() && self.cfg.hystart_detect != 0 {
            self.hystart(ctx.now);
        }
        if self.rtt.is_set() && self.round.on_feedback(fb) {
            let grad = if self.rtt_prev.is_set() { self.grad() } else { 0 };
            self.rtt_prev = self.rtt;
            self.rtt = MinMax::default();
            self.last_ack = None;
            self.sample_cnt = 0;
            if grad > 0 && self.backoff(grad, fb, ctx.rng) {
                return;
            }
        }
        if !self.shell.w.is_cwnd_limited(fb.cwnd_use) {
            return; // tcp_reno_cong_avoid's own test; the gradient above runs regardless
        }
        let prior = self.shell.cwnd_pkts();
        self.shell.w.reno_increase(fb.acked_bytes, self.shell.mss);
        self.shadow_wnd += self.shell.cwnd_pkts().saturating_sub(prior);
    }
}

/// Integer division rounded to the nearest (Linux `DIV_ROUND_CLOSEST`).
fn div_round(x: i64, d: i64) -> i64 {
    if x >= 0 {
        (x + d / 2) / d
    } else {
        (x - d / 2) / d
    }
}

impl CongestionControl for Cdg {
    fn name(&self) -> &'static str {
        "cdg"
    }
    fn on_loss(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
        if fb.new_episode {
            // A loss during a backoff's reduction continues it (Linux: no new ssthresh
            // while in CWR).
            if self.cwr_until.take().is_none() {
                let ss = self.ssthresh();
                self.shell.reduce_to(ss);
            }
        }
    }
    fn on_ack(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        self.on_rtt(fb);
        match self.shell.phase(fb) {
            Phase::Recovery => return,
            Phase::Open { reopened: true } => self.complete_cwr(fb),
            Phase::Open { reopened: false } | Phase::Loss => {}
        }
        if let Some(until) = self.cwr_until {
            if fb.prior_delivered < until {
                return; // the backoff's reduction is still under way
            }
            self.complete_cwr(fb);
        }
        if !fb.growth_withheld {
            self.cong_avoid(fb, ctx);
        }
    }
    fn on_timeout(&mut self, _ctx: &mut Ctx) {
        let open = !self.shell.in_recovery() && self.cwr_until.take().is_none();
        let ss = open.then(|| self.ssthresh());
        self.shell.timeout(ss);
    }
    /// `CA_EVENT_CWND_RESTART`: every measurement starts again; the shadow window is cwnd as
    /// it was before `tcp_cwnd_restart` restarts it (the event comes first there).
    fn on_idle_restart(&mut self, restart: &IdleRestart, _ctx: &mut Ctx) {
        let init = CcInit { mss: self.shell.mss, initial_cwnd: self.shell.w.cwnd };
        *self = Cdg { shell: self.shell.clone(), ..Cdg::new(&self.cfg, init) };
        self.shell.restart_after_idle(restart);
    }
    fn control(&self) -> Control {
        self.shell.control()
    }
    fn snapshot(&self) -> Snapshot {
        let state = if self.cwr_until.is_some() { "backoff" } else { self.shell.state_or("cong_avoid") };
        let min_rtt = (self.delay_min > 0).then(|| Time::from_micros(self.delay_min as u64));
        self.shell.snapshot(state, min_rtt)
    }
}


impl crate::check::Validate for CdgConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // Linux tcp_cdg.c: a moving window of 1 to 256 rounds (its array is allocated),
        // backoff_beta a fraction of 1024, hystart_detect the bits 1 (ACK train) and 2 (delay).
        within("window", self.window, 1..=256)?;
        // tcp_cdg_register refuses a window that is not a power of two (its ring index masks).
        if !self.window.is_power_of_two() {
            return Err(format!("window: {} is not a power of two (1, 2, 4, ..., 256), as Linux requires", self.window));
        }
        within("backoff_beta", self.backoff_beta, 1..=1024)?;
        within("backoff_factor", self.backoff_factor, 1..=1_000_000)?;
        within("hystart_detect", self.hystart_detect, 0..=3)?;
        within("use_ineff", self.use_ineff, 0..=1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::component_rng;
    use crate::testing::*;

    #[test]
    fn backoff_probability_is_one_minus_e_to_the_minus_g_over_big_g() {
        let c = CdgConfig::default();
        assert_eq!(c.backoff_probability(0), 0.0);
        assert_eq!(c.backoff_probability(-100), 0.0);
        // G·window = 3 ms·8 = 24 ms of summed gradient gives 1 − 1/e (factor 42 ≈ 1000/24).
        let p = c.backoff_probability(24_000);
        assert!((p - (1.0 - (-1.008f64).exp())).abs() < 1e-12, "{p}");
        // 1 ms: 1 − e^−0.042 = 0.0411.
        assert!((c.backoff_probability(1000) - 0.041_130).abs() < 1e-5);
    }

    #[test]
    fn backoff_frequency_matches_the_probability() {
        let c = CdgConfig::default();
        let mut rng = component_rng(3, 9);
        let mut cc = Cdg::new(&c, init(100 * MSS));
        let draws = 100_000;
        let mut hits = 0;
        let fb = Feedback::default();
        for _ in 0..draws {
            cc.backoff_cnt = 0;
            if cc.backoff(10_000, &fb, &mut rng) {
                hits += 1;
                cc.shell.set_cwnd_pkts(100);
            }
        }
        let p = c.backoff_probability(10_000);
        let freq = hits as f64 / draws as f64;
        assert!((freq - p).abs() < 4.0 * (p * (1.0 - p) / draws as f64).sqrt(), "{freq} vs {p}");
    }

    #[test]
    fn a_backoff_takes_cwnd_to_724_per_1024_and_holds_it_for_a_round() {
        let mut cc = Cdg::new(&CdgConfig::default(), init(100 * MSS));
        cc.shell.w.ssthresh = 50 * MSS;
        let fb = Feedback { delivered: 1_000_000, ..Feedback::default() };
        // A gradient so large that the backoff is certain.
        let mut rng = component_rng(1, 1);
        assert!(cc.backoff(100_000_000, &fb, &mut rng));
        assert_eq!(cc.control().cwnd, Some(70 * MSS)); // 100·724/1024 = 70.7
        assert_eq!(cc.snapshot().state, "backoff");
        assert_eq!(cc.shadow_wnd, 100);
        // A loss now: shadow/2 = 50 < cwnd/2? No: the reduction is still under way, no cut.
        let mut h = Harness::new();
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(70 * MSS));
    }

    #[test]
    fn the_shadow_window_softens_a_loss_after_delay_backoffs() {
        let mut cc = Cdg::new(&CdgConfig::default(), init(100 * MSS));
        cc.shell.set_cwnd_pkts(60);
        cc.shadow_wnd = 160;
        let mut h = Harness::new();
        h.loss(&mut cc, true);
        // shadow = min(160/2, 60) = 60: ssthresh = max(60, 30) = 60.
        assert_eq!(cc.control().cwnd, Some(60 * MSS));
        let mut cc = Cdg::new(&CdgConfig { use_shadow: false, ..CdgConfig::default() }, init(100 * MSS));
        cc.shell.set_cwnd_pkts(60);
        cc.shadow_wnd = 160;
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(30 * MSS));
    }

    #[test]
    fn ineffective_backoffs_stop_after_five() {
        let mut cc = Cdg::new(&CdgConfig::default(), init(1000 * MSS));
        let mut rng = component_rng(1, 2);
        let fb = Feedback::default();
        for _ in 0..5 {
            assert!(cc.backoff(100_000_000, &fb, &mut rng));
        }
        assert!(!cc.backoff(100_000_000, &fb, &mut rng));
        // A falling gradient (the queue drains) resets the count.
        cc.rtt_prev = MinMax { min: 150_000, max: 160_000 };
        cc.rtt = MinMax { min: 140_000, max: 150_000 };
        cc.grad();
        assert_eq!(cc.backoff_cnt, 0);
    }

    #[test]
    fn rising_rtt_rounds_back_off_and_flat_rounds_do_not() {
        // Flat RTT: the gradient is zero, Reno growth only.
        let mut cc = Cdg::new(&CdgConfig { hystart_detect: 0, ..CdgConfig::default() }, init(100 * MSS));
        cc.shell.w.ssthresh = 50 * MSS;
        let mut d = Rounds::new();
        d.rounds(&mut cc, 10, ms(100));
        assert_eq!(cc.control().cwnd, Some(110 * MSS));
        // RTT rising by 20 ms per round: the extrapolated gradient sum is 8·20 ms at once,
        // P = 1 − e^(−6.7): a backoff within a round or two.
        let mut cc = Cdg::new(&CdgConfig { hystart_detect: 0, ..CdgConfig::default() }, init(100 * MSS));
        cc.shell.w.ssthresh = 50 * MSS;
        let mut d = Rounds::new();
        for r in 0..4 {
            d.round(&mut cc, ms(100 + 20 * r));
        }
        assert!(cc.control().cwnd.unwrap() < 100 * MSS, "{:?}", cc.control().cwnd);
    }

    #[test]
    fn hystart_delay_ends_slow_start() {
        let mut cc = Cdg::new(&CdgConfig { hystart_detect: 2, ..CdgConfig::default() }, init(40 * MSS));
        cc.delay_min = 100_000;
        cc.sample_cnt = 8;
        // The round's minimum 12 ms above 100 ms: not above delay_min + delay_min/8.
        cc.rtt = MinMax { min: 112_000, max: 130_000 };
        cc.hystart(Time::ZERO);
        assert_eq!(cc.snapshot().state, "slow_start");
        // 113 ms is: ssthresh = cwnd.
        cc.rtt.min = 113_000;
        cc.hystart(Time::ZERO);
        assert_eq!(cc.snapshot().ssthresh, Some(40 * MSS));
        assert_eq!(cc.snapshot().state, "cong_avoid");
    }

    #[test]
    fn hystart_ack_train_ends_slow_start_after_half_the_min_rtt() {
        let mut cc = Cdg::new(&CdgConfig { hystart_detect: 1, ..CdgConfig::default() }, init(40 * MSS));
        cc.rtt = MinMax { min: 100_000, max: 100_000 };
        // ACKs 1 ms apart: the train is 50 ms long after 51 of them.
        for i in 0..=50 {
            cc.hystart(ms(i));
            assert_eq!(cc.snapshot().state, "slow_start", "ACK {i}");
        }
        cc.hystart(ms(51));
        assert_eq!(cc.snapshot().state, "cong_avoid");
    }
}
