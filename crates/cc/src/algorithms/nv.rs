//! TCP-NV ("New Vegas"): congestion from the slope of delivery rate against RTT.
//!
//! Sources: L. Brakmo, "TCP-NV: An Update to TCP-Vegas", 2016 (netdev/LPC); Linux
//! `net/ipv4/tcp_nv.c` and its module defaults (`nv_pad` 10, `nv_pad_buffer` 2,
//! `nv_reset_period` 5 s, `nv_min_cwnd` 2, `nv_cong_dec_mult` 30·128/100,
//! `nv_ssthresh_factor` 8, `nv_rtt_factor` 128, `nv_loss_dec_factor` 819,
//! `nv_cwnd_growth_rate_neg` 8, `nv_cwnd_growth_rate_pos` 0, `nv_dec_eval_min_calls` 60,
//! `nv_inc_eval_min_calls` 20, `nv_ssthresh_eval_min_calls` 30, `nv_stop_rtt_cnt` 10,
//! `nv_rtt_min_cnt` 2).
//!
//! On every acknowledgement in the Open state:
//!
//! - `avg_rtt = (rtt·f + last·(256 − f))/256` with `f = rtt_factor` (one half each);
//! - `rate = in_flight/avg_rtt`, with `in_flight` the bytes delivered while the acknowledged
//!   packet was in flight (`delivered − prior_delivered`, as Linux since 4.20); the round
//!   keeps its largest rate;
//! - `min_rtt` is the smallest `avg_rtt`; every `reset_period·[3/4, 5/4)` (random, from the
//!   run's RNG) it is replaced by the smallest of the last period.
//!
//! Once per round trip, `cwnd_by_slope = max_rate·min_rtt/MSS` is the window the measured rate
//! needs without queueing, and `max_win = cwnd_by_slope + pad`:
//!
//! - `cwnd > max_win` (more than `pad` packets queued), after at least `rtt_min_cnt` rounds and
//!   enough samples (`ssthresh_eval_min_calls` in slow start, `dec_eval_min_calls` after):
//!   growth stops, `ssthresh = ssthresh_factor·max_win/8`, and `cwnd −= max(2, 30 % of
//!   (cwnd − max_win))` (or `cwnd = max_win` when the gap is at most 2 packets);
//! - `cwnd ≤ max_win − pad_buffer` after `inc_eval_min_calls` samples: growth is allowed
//!   (Reno's rate, or slower by `2^growth_factor` after timeouts, recovering one step per
//!   `cwnd_growth_rate_neg` uncongested rounds); in between nothing changes.
//!
//! On a loss `ssthresh = cwnd·loss_dec_factor/1024` (80 %), and growth stops until the next
//! uncongested round; a timeout also slows later growth by one power of two.
//! As in Linux, growth stays off after a timeout until an uncongested round in the Open state
//! allows it again. Left out: the socket-option base RTT bound (a BPF hook, off by default)
//! and the TSO/LRO heuristic that raises `nv_min_cwnd` when one ACK covers a whole round. The
//! first min-RTT reset comes 2 s after the first RTT sample (Linux: after the connection's
//! start).
//!
//! **Slow start on a long path ends early, as in Linux** (issue 16, item 5). While the window
//! doubles, the rate a round measures is that of the packets the previous round sent, about
//! half the current window, so `cwnd > max_win` holds once `cwnd/2 + pad < cwnd`, i.e. from
//! 2·pad = 20 packets; the decision waits for `rtt_min_cnt` (2) rounds and
//! `ssthresh_eval_min_calls` (30) samples, so NV leaves slow start at the third round, near 40
//! packets (37 here after the 30 % cut), whatever the BDP. After that, with
//! `nv_cwnd_growth_rate_pos` 0 ("fixed like Reno"), `tcpnv_cong_avoid` grows by
//! `1/max(4, cwnd)` per ACK: one packet per RTT. On 40 Mbit/s and 100 ms (BDP 333 packets)
//! that is (333 − 37)·0.1 s ≈ 30 s of ramp, and a lone NV flow uses about
//! (30·(37 + 333)/(2·333) + 30)/60 ≈ 0.78 of the link over a minute: what
//! `tcp_nv.c`'s own header warns of ("NV is only recommended for traffic within a data
//! center", where 40 packets is the BDP). cclab follows Linux here; the paper's NV has no
//! other slow-start rule to offer as a variant.

use super::vegas_core::{Phase, Shell};
use crate::controller::*;
use crate::rng::Rng;
use crate::round::RoundCounter;
use crate::units::Time;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NvConfig {
    /// Packets allowed queued in the network.
    pub pad: u64,
    /// No growth within this many packets of `max_win`.
    pub pad_buffer: u64,
    /// Seconds between min-RTT resets (randomised ±25 %).
    pub reset_period_s: f64,
    /// NV does not shrink cwnd below this without losses.
    pub min_cwnd: u64,
    /// Share of the excess removed on congestion, /128.
    pub cong_dec_mult: u64,
    /// On congestion `ssthresh = ssthresh_factor·max_win/8`.
    pub ssthresh_factor: u64,
    /// Weight of the new RTT sample in the average, /256.
    pub rtt_factor: u64,
    /// On loss `ssthresh = cwnd·loss_dec_factor/1024`.
    pub loss_dec_factor: u64,
    /// Uncongested rounds per step back to Reno's growth after timeouts (0: never).
    pub cwnd_growth_rate_neg: u32,
    /// Uncongested rounds per doubling of growth above Reno's (0: never).
    pub cwnd_growth_rate_pos: u32,
    pub dec_eval_min_calls: u32,
    pub inc_eval_min_calls: u32,
    pub ssthresh_eval_min_calls: u32,
    /// Rounds without a decision after which growth stops while waiting for samples.
    pub stop_rtt_cnt: u32,
    /// Rounds before a congestion decision.
    pub rtt_min_cnt: u32,
}

impl Default for NvConfig {
    fn default() -> Self {
        NvConfig {
            pad: 10,
            pad_buffer: 2,
            reset_period_s: 5.0,
            min_cwnd: 2,
            cong_dec_mult: 30 * 128 / 100,
            ssthresh_factor: 8,
            rtt_factor: 128,
            loss_dec_factor: 819,
            cwnd_growth_rate_neg: 8,
            cwnd_growth_rate_pos: 0,
            dec_eval_min_calls: 60,
            inc_eval_min_calls: 20,
            ssthresh_eval_min_calls: 30,
            stop_rtt_cnt: 10,
            rtt_min_cnt: 2,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Nv {
    cfg: NvConfig,
    shell: Shell,
    /// Growth is `2^cwnd_growth_factor` times Reno's (≤ 0 by default).
    cwnd_growth_factor: i32,
    allow_cwnd_growth: bool,
    /// Measurements restart when the sender is Open again.
    reset: bool,
    eval_call_cnt: u32,
    /// Rounds without a decision.
    rtt_cnt: u32,
    /// The averaged RTT, ns (None after a reset).
    last_rtt: Option<u64>,
    /// Active min RTT and the one being collected for the next period, ns.
    min_rtt: u64,
    min_rtt_new: u64,
    min_rtt_reset_at: Option<Time>,
    /// Largest rate of the round, bytes/s.
    rtt_max_rate: u64,
    round: RoundCounter,
    no_cong_cnt: u32,
}

impl Nv {
    pub fn new(cfg: &NvConfig, init: CcInit) -> Nv {
        Nv {
            cfg: cfg.clone(),
            shell: Shell::new(init),
            cwnd_growth_factor: 0,
            allow_cwnd_growth: true,
            reset: false,
            eval_call_cnt: 0,
            rtt_cnt: 0,
            last_rtt: None,
            min_rtt: u64::MAX,
            min_rtt_new: u64::MAX,
            min_rtt_reset_at: None,
            rtt_max_rate: 0,
            round: RoundCounter::default(),
            no_cong_cnt: 0,
        }
    }

    /// `tcpnv_reset`: measurements start afresh with the next acknowledgement.
    fn restart(&mut self) {
        self.reset = false;
        self.no_cong_cnt = 0;
        self.rtt_cnt = 0;
        self.last_rtt = None;
        self.rtt_max_rate = 0;
        self.round = RoundCounter::default();
        self.eval_call_cnt = 0;
    }

    /// `tcpnv_state` entering Recovery, CWR or Loss.
    fn stop_growth(&mut self) {
        self.reset = true;
        self.allow_cwnd_growth = false;
    }

    /// `tcpnv_acked`: the rate sample and, once per round, the congestion decision.
    fn on_sample(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        let Some(rtt) = fb.rtt_sample else { return };
        let in_flight = fb.delivered.saturating_sub(fb.prior_delivered);
        if in_flight == 0 {
            return;
        }
        let rtt = rtt.as_nanos().max(1);
        let f = self.cfg.rtt_factor.min(256);
        let avg_rtt = match self.last_rtt {
            _ if f == 0 => rtt,
            Some(last) => (rtt * f + last * (256 - f)) >> 8,
            None => {
                self.min_rtt = rtt.saturating_mul(2);
                rtt
            }
        };
        self.last_rtt = Some(avg_rtt);
        let rate = (in_flight as u128 * 1_000_000_000 / avg_rtt.max(1) as u128) as u64;
        self.rtt_max_rate = self.rtt_max_rate.max(rate);
        self.eval_call_cnt = (self.eval_call_cnt + 1).min(255);
        self.min_rtt = self.min_rtt.min(avg_rtt);
        self.min_rtt_new = self.min_rtt_new.min(avg_rtt);

        // Warm reset of min_rtt every reset_period·(384 + rand)/512, rand a random byte.
        let reset_at = *self.min_rtt_reset_at.get_or_insert(ctx.now + Time::from_secs(2));
        if ctx.now >= reset_at {
            self.min_rtt = self.min_rtt_new;
            self.min_rtt_new = u64::MAX;
            let rand: u8 = ctx.rng.random();
            let period = self.cfg.reset_period_s * (384.0 + rand as f64) / 512.0;
            self.min_rtt_reset_at = Some(ctx.now + Time::from_secs_f64(period));
        }

        if self.round.on_feedback(fb) {
            self.rtt_cnt = (self.rtt_cnt + 1).min(255);
            self.decide();
        }
    }

    fn decide(&mut self) {
        let c = &self.cfg;
        let mss = self.shell.mss;
        let cwnd_by_slope =
            (self.rtt_max_rate as u128 * self.min_rtt as u128 / (1_000_000_000u128 * mss as u128)) as u64;
        let max_win = cwnd_by_slope + c.pad;
        let cwnd = self.shell.cwnd_pkts();
        if cwnd > max_win {
            // Congestion, if there is enough data to say so.
            if self.rtt_cnt < c.rtt_min_cnt {
                return;
            } else if self.shell.ssthresh_is_infinite() {
                if self.eval_call_cnt < c.ssthresh_eval_min_calls {
                    return;
                }
            } else if self.eval_call_cnt < c.dec_eval_min_calls {
                if self.allow_cwnd_growth && self.rtt_cnt > c.stop_rtt_cnt {
                    self.allow_cwnd_growth = false;
                }
                return;
            }
            self.allow_cwnd_growth = false;
            self.shell.set_ssthresh_pkts((c.ssthresh_factor * max_win) >> 3);
            if cwnd - max_win > 2 {
                let dec = (((cwnd - max_win) * c.cong_dec_mult) >> 7).max(2);
                self.shell.set_cwnd_pkts(cwnd - dec);
            } else if c.cong_dec_mult > 0 {
                self.shell.set_cwnd_pkts(max_win);
            }
            self.cwnd_growth_factor = self.cwnd_growth_factor.min(0);
            self.no_cong_cnt = 0;
        } else if cwnd <= max_win.saturating_sub(c.pad_buffer) {
            // No congestion: grow, faster after enough uncongested rounds.
            if self.eval_call_cnt < c.inc_eval_min_calls {
                return;
            }
            self.allow_cwnd_growth = true;
            self.no_cong_cnt += 1;
            let (neg, pos) = (c.cwnd_growth_rate_neg, c.cwnd_growth_rate_pos);
            if (self.cwnd_growth_factor < 0 && neg > 0 && self.no_cong_cnt > neg)
                || (self.cwnd_growth_factor >= 0 && pos > 0 && self.no_cong_cnt > pos)
            {
                self.cwnd_growth_factor += 1;
                self.no_cong_cnt = 0;
            }
        } else {
            return;
        }
        self.eval_call_cnt = 0;
        self.rtt_cnt = 0;
        self.rtt_max_rate = 0;
        if self.shell.cwnd_pkts() < c.min_cwnd {
            self.shell.set_cwnd_pkts(c.min_cwnd);
        }
    }

    /// `tcpnv_cong_avoid`: Reno's growth scaled by `2^cwnd_growth_factor`, if allowed.
    fn grow(&mut self, acked: u64) {
        if !self.allow_cwnd_growth {
            return;
        }
        let mss = self.shell.mss;
        let w = &mut self.shell.w;
        let rest = if w.in_slow_start() { w.slow_start(acked) } else { acked };
        let cwnd = (w.cwnd / mss).max(1);
        let a = if self.cwnd_growth_factor < 0 {
            1.0 / (1u64 << (-self.cwnd_growth_factor).min(62)) as f64
        } else {
            cwnd as f64 / (cwnd >> self.cwnd_growth_factor.min(62)).max(4) as f64
        };
        w.additive_increase(rest, mss, a);
    }

    /// Linux `tcpnv_recalc_ssthresh`, packets.
    fn ssthresh(&self) -> u64 {
        ((self.shell.cwnd_pkts() * self.cfg.loss_dec_factor) >> 10).max(2)
    }
}

impl CongestionControl for Nv {
    fn name(&self) -> &'static str {
        "nv"
    }
    fn on_loss(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
        if fb.new_episode {
            self.shell.reduce_to(self.ssthresh());
            self.stop_growth();
        }
    }
    fn on_ack(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        match self.shell.phase(fb) {
            Phase::Recovery => return,
            Phase::Open { .. } => {
                if self.reset {
                    self.restart();
                }
                self.on_sample(fb, ctx);
            }
            Phase::Loss => {}
        }
        if !fb.growth_withheld && self.shell.w.is_cwnd_limited(fb.cwnd_use) {
            self.grow(fb.acked_bytes);
        }
    }
    fn on_idle_restart(&mut self, restart: &IdleRestart, _ctx: &mut Ctx) {
        self.shell.restart_after_idle(restart);
    }
    fn on_timeout(&mut self, _ctx: &mut Ctx) {
        let ss = (!self.shell.in_recovery()).then(|| self.ssthresh());
        self.shell.timeout(ss);
        self.stop_growth();
        // Back to Reno's growth rate, then one power of two slower.
        self.cwnd_growth_factor = self.cwnd_growth_factor.min(0);
        if self.cfg.cwnd_growth_rate_neg > 0 && self.cwnd_growth_factor > -8 {
            self.cwnd_growth_factor -= 1;
        }
    }
    fn control(&self) -> Control {
        self.shell.control()
    }
    fn snapshot(&self) -> Snapshot {
        let state = if self.allow_cwnd_growth { "cong_avoid" } else { "congested" };
        let min_rtt = (self.min_rtt != u64::MAX).then_some(Time(self.min_rtt));
        self.shell.snapshot(self.shell.state_or(state), min_rtt)
    }
}


impl crate::check::Validate for NvConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // Linux tcp_nv.c's module parameters; the fixed-point ones are fractions of their
        // denominators (cong_dec_mult/128, rtt_factor/256, loss_dec_factor/1024,
        // ssthresh_factor/8), and NV needs at least two packets of window.
        within("pad", self.pad, 0..=1_000_000)?;
        within("pad_buffer", self.pad_buffer, 0..=1_000_000)?;
        within("reset_period_s", self.reset_period_s, above(0.0, 1e6))?;
        within("min_cwnd", self.min_cwnd, 2..=1_000_000)?;
        within("cong_dec_mult", self.cong_dec_mult, 1..=128)?;
        within("ssthresh_factor", self.ssthresh_factor, 1..=8)?;
        within("rtt_factor", self.rtt_factor, 1..=256)?;
        within("loss_dec_factor", self.loss_dec_factor, 1..=1024)?;
        within("cwnd_growth_rate_neg", self.cwnd_growth_rate_neg, 0..=1_000_000)?;
        within("cwnd_growth_rate_pos", self.cwnd_growth_rate_pos, 0..=1_000_000)?;
        within("dec_eval_min_calls", self.dec_eval_min_calls, 0..=1_000_000)?;
        within("inc_eval_min_calls", self.inc_eval_min_calls, 0..=1_000_000)?;
        within("ssthresh_eval_min_calls", self.ssthresh_eval_min_calls, 0..=1_000_000)?;
        within("stop_rtt_cnt", self.stop_rtt_cnt, 0..=1_000_000)?;
        within("rtt_min_cnt", self.rtt_min_cnt, 1..=1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    fn nv_in_ca(cwnd: u64) -> Nv {
        let mut cc = Nv::new(&NvConfig::default(), init(cwnd * MSS));
        cc.shell.w.ssthresh = 10 * MSS;
        cc
    }

    #[test]
    fn no_queueing_lets_cwnd_grow_as_reno() {
        let mut cc = nv_in_ca(100);
        let mut d = Rounds::new();
        d.rounds(&mut cc, 4, ms(100));
        assert_eq!(cc.control().cwnd, Some(104 * MSS));
        assert!(cc.allow_cwnd_growth);
        assert_eq!(cc.snapshot().min_rtt, Some(ms(100)));
    }

    #[test]
    fn a_queue_beyond_pad_cuts_thirty_percent_of_the_excess() {
        let mut cc = nv_in_ca(100);
        let mut d = Rounds::new();
        d.rounds(&mut cc, 3, ms(100));
        let cwnd = cc.control().cwnd.unwrap() / MSS;
        // Rounds at 150 ms: the averaged RTT and the rate follow, the delivery rate stays
        // cwnd/100 ms·(100/150) while cwnd_by_slope = rate·min_rtt → about 2/3 of cwnd.
        d.rounds(&mut cc, 3, ms(150));
        let after = cc.control().cwnd.unwrap() / MSS;
        assert!(!cc.allow_cwnd_growth);
        assert!(after < cwnd, "{after} from {cwnd}");
        // ssthresh = max_win at the decision.
        assert!(cc.snapshot().ssthresh.unwrap() < cwnd * MSS);
        assert_eq!(cc.snapshot().state, "congested");
    }

    /// One decision at `cwnd` packets after `calls` samples, with a measured rate of
    /// 8000 packets/s and min RTT 100 ms: cwnd_by_slope = 80, max_win = 90.
    fn decide_at(cwnd: u64, calls: u32) -> Nv {
        let mut cc = nv_in_ca(cwnd);
        cc.rtt_max_rate = 800_000; // bytes/s
        cc.min_rtt = 100_000_000;
        cc.rtt_cnt = 2;
        cc.eval_call_cnt = calls;
        cc.allow_cwnd_growth = false;
        cc.decide();
        cc
    }

    #[test]
    fn decision_arithmetic() {
        // cwnd 120 > 90: dec = 30·38/128 = 8, ssthresh = max_win.
        let cc = decide_at(120, 60);
        assert_eq!(cc.control().cwnd, Some(112 * MSS));
        assert_eq!(cc.snapshot().ssthresh, Some(90 * MSS));
        // Not enough samples for a decrease yet (60 after slow start).
        assert_eq!(decide_at(120, 59).control().cwnd, Some(120 * MSS));
        // Within pad_buffer of max_win: nothing changes.
        assert!(!decide_at(89, 60).allow_cwnd_growth);
        // Below max_win − pad_buffer = 88, after 20 samples: growth allowed again.
        assert!(decide_at(80, 20).allow_cwnd_growth);
        assert!(!decide_at(80, 19).allow_cwnd_growth);
    }

    #[test]
    fn loss_keeps_eighty_percent_and_timeouts_slow_growth() {
        let mut cc = nv_in_ca(100);
        let mut h = Harness::new();
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(79 * MSS)); // 100·819/1024 = 79.98
        let mut cc = nv_in_ca(100);
        h.timeout(&mut cc);
        assert_eq!(cc.cwnd_growth_factor, -1);
        assert_eq!(cc.snapshot().ssthresh, Some(79 * MSS));
    }
}
