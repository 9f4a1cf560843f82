//! CUDTCC, UDT 4.11's native congestion control (\[U4\] `ccc.cpp`: `CUDTCC::init`, `onACK`,
//! `onLoss`, `onTimeout`; spec §2.5–2.6; \[D03\] §7.2 describes it normatively).
//!
//! Units: `period` (PktSndPeriod) in µs per packet, `cwnd` in packets, the receiver's arrival
//! rate AS and the packet-pair capacity B in pkt/s (the sender's smoothed `m_iRcvRate` and
//! `m_iBandwidth`), RTT and SYN (= RCInterval, 10 ms) in µs, MSS = 1500 in the formulas.
//!
//! **onACK** (at most once per SYN):
//! ```text
//! slow start:   cwnd ← cwnd + (ack − LastAck + 1);  LastAck ← ack
//!               if cwnd > MaxCWnd: leave slow start; period ← 10⁶/AS  (AS > 0)
//!                                                   else (RTT + SYN)/cwnd
//!               else return                                  no rate change in slow start
//! otherwise:    cwnd ← AS·(RTT + SYN)/10⁶ + 16               the flow window W
//! a NAK since the last increase:  skip this increase once
//! spare = ⌊B − 10⁶/period⌋;  if period > LastDecPeriod: spare ← min(spare, ⌊B/9⌋)
//! inc   = spare ≤ 0 ? min_inc : max(10^⌈log10(spare·MSS·8)⌉ · 1.5·10⁻⁶ / MSS, min_inc)
//! period ← period·SYN / (period·inc + SYN)                      rate += inc packets per SYN
//! ```
//!
//! **onLoss** (every NAK, first lost number s₀):
//! ```text
//! slow start:  leave it; AS > 0: period ← 10⁶/AS and return (no decrease)
//!              else period ← cwnd/(RTT + SYN)   (4.11's inverted units; flag)
//! if s₀ > LastDecSeq:                                           a new congestion period
//!     LastDecPeriod ← period;  period ← ⌈1.125·period⌉          (⌈⌉: the ceil quirk, flag)
//!     AvgNAKNum ← ⌈0.875·AvgNAKNum + 0.125·NAKCount⌉
//!     NAKCount ← 1;  DecCount ← 1;  LastDecSeq ← SndCurrSeq
//!     DecRandom ← max(1, ⌈AvgNAKNum·U[0,1)⌉)
//! elif DecCount++ < 5 and (++NAKCount mod DecRandom) = 0:       NAKs 2–5 of the period
//!     period ← ⌈1.125·period⌉;  LastDecSeq ← SndCurrSeq
//! ```
//! 4.11 seeds `rand()` with LastDecSeq; here DecRandom comes from the transport's seeded RNG.
//!
//! **onTimeout**: in slow start, leave it as onLoss does; otherwise nothing.

use crate::rate::udt::UdtConfig;
use crate::rng::{CcRng, Rng};
use crate::units::Time;

/// What CUDTCC reads from the sender on each callback.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct UdtInputs {
    /// The smoothed RTT, µs.
    pub rtt_us: f64,
    /// AS, the smoothed receiver arrival rate, pkt/s.
    pub recv_rate: i64,
    /// B, the smoothed packet-pair capacity, pkt/s.
    pub bandwidth: i64,
    /// The largest sequence number sent (−1 before the first).
    pub snd_curr_seq: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct UdtCc {
    rc_interval_us: f64,
    rc_interval: Time,
    mss: f64,
    min_inc: f64,
    decrease_factor: f64,
    ceil_on_decrease: bool,
    max_decreases: u32,
    nak_gain: f64,
    cap_divisor: i64,
    cwnd_headroom: f64,
    max_cwnd: f64,
    inverted_slow_start_exit: bool,

    last_rc_time: Time,
    slow_start: bool,
    last_ack: i64,
    loss: bool,
    last_dec_seq: i64,
    last_dec_period: f64,
    avg_nak_num: f64,
    nak_count: u32,
    dec_random: u32,
    dec_count: u32,
    /// The congestion window (the literature's flow window W), packets.
    pub cwnd: f64,
    /// The packet sending period, µs.
    pub period: f64,
}

impl UdtCc {
    /// `CUDTCC::init` for a sender that has sent nothing yet (SndCurrSeq = −1).
    pub fn new(cfg: &UdtConfig) -> UdtCc {
        let rc_interval = Time::from_millis(cfg.syn_ms);
        UdtCc {
            rc_interval_us: rc_interval.as_secs_f64() * 1e6,
            rc_interval,
            mss: cfg.cc_mss,
            min_inc: cfg.min_inc,
            decrease_factor: cfg.decrease_factor,
            ceil_on_decrease: cfg.ceil_period_on_decrease,
            max_decreases: cfg.max_decreases_per_period,
            nak_gain: cfg.nak_ewma_gain,
            cap_divisor: cfg.capacity_cap_divisor,
            cwnd_headroom: cfg.cwnd_headroom,
            max_cwnd: cfg.max_flow_window as f64,
            inverted_slow_start_exit: cfg.inverted_slow_start_exit,
            last_rc_time: Time::ZERO,
            slow_start: true,
            last_ack: -1,
            loss: false,
            last_dec_seq: -2,
            last_dec_period: 1.0,
            avg_nak_num: 0.0,
            nak_count: 0,
            dec_random: 1,
            dec_count: 0,
            cwnd: cfg.initial_cwnd,
            period: cfg.initial_period_us,
        }
    }

    /// The connection starts at `now` (`LastRCTime`).
    pub fn start(&mut self, now: Time) {
        self.last_rc_time = now;
    }

    pub fn in_slow_start(&self) -> bool {
        self.slow_start
    }

    /// Spare capacity in pkt/s: `⌊B − 10⁶/period⌋`, capped at `⌊B/9⌋` while the period is
    /// above the one before the last decrease.
    pub fn spare_capacity(&self, bandwidth: i64, period: f64) -> i64 {
        let spare = (bandwidth as f64 - 1e6 / period) as i64;
        let cap = bandwidth / self.cap_divisor.max(1);
        if period > self.last_dec_period && cap < spare {
            cap
        } else {
            spare
        }
    }

    /// Packets added per SYN for a spare capacity (pkt/s).
    pub fn increment(&self, spare: i64) -> f64 {
        if spare <= 0 {
            return self.min_inc;
        }
        let bits = spare as f64 * self.mss * 8.0;
        (10f64.powf(bits.log10().ceil()) * 1.5e-6 / self.mss).max(self.min_inc)
    }

    /// `period·SYN / (period·inc + SYN)`: the rate grows by `inc` packets per SYN.
    pub fn increased_period(&self, period: f64, inc: f64) -> f64 {
        period * self.rc_interval_us / (period * inc + self.rc_interval_us)
    }

    /// ×1.125, rounded up to a whole µs under the ceil quirk.
    pub fn decreased_period(&self, period: f64) -> f64 {
        let p = period * self.decrease_factor;
        if self.ceil_on_decrease {
            p.ceil()
        } else {
            p
        }
    }

    /// The period on leaving slow start: from the arrival rate, else from the window (4.11's
    /// onLoss/onTimeout invert the units of the latter).
    fn exit_period(&self, x: &UdtInputs, inverted: bool) -> Option<f64> {
        if x.recv_rate > 0 {
            return None;
        }
        let t = x.rtt_us + self.rc_interval_us;
        Some(if inverted { self.cwnd / t } else { t / self.cwnd })
    }

    pub fn on_ack(&mut self, now: Time, ack: u64, x: &UdtInputs) {
        if now - self.last_rc_time < self.rc_interval {
            return;
        }
        self.last_rc_time = now;
        if self.slow_start {
            self.cwnd += (ack as i64 - self.last_ack + 1) as f64;
            self.last_ack = ack as i64;
            if self.cwnd <= self.max_cwnd {
                return;
            }
            self.slow_start = false;
            self.period = self.exit_period(x, false).unwrap_or(1e6 / x.recv_rate as f64);
        } else {
            self.cwnd = x.recv_rate as f64 / 1e6 * (x.rtt_us + self.rc_interval_us) + self.cwnd_headroom;
        }
        if std::mem::take(&mut self.loss) {
            return;
        }
        let inc = self.increment(self.spare_capacity(x.bandwidth, self.period));
        self.period = self.increased_period(self.period, inc);
    }

    /// A NAK listing `lost`; true if the period was increased (a rate decrease).
    pub fn on_loss(&mut self, lost: &[u64], x: &UdtInputs, rng: &mut CcRng) -> bool {
        let Some(&first) = lost.first() else { return false };
        if self.slow_start {
            self.slow_start = false;
            match self.exit_period(x, self.inverted_slow_start_exit) {
                None => {
                    self.period = 1e6 / x.recv_rate as f64;
                    return false;
                }
                Some(p) => self.period = p,
            }
        }
        self.loss = true;
        if first as i64 > self.last_dec_seq {
            self.last_dec_period = self.period;
            self.period = self.decreased_period(self.period);
            let g = self.nak_gain;
            self.avg_nak_num = ((1.0 - g) * self.avg_nak_num + g * self.nak_count as f64).ceil();
            self.nak_count = 1;
            self.dec_count = 1;
            self.last_dec_seq = x.snd_curr_seq;
            self.dec_random = ((self.avg_nak_num * rng.random::<f64>()).ceil() as u32).max(1);
            return true;
        }
        let examined = self.dec_count < self.max_decreases;
        self.dec_count += 1;
        if examined {
            self.nak_count += 1;
            if self.nak_count.rem_euclid(self.dec_random) == 0 {
                self.period = self.decreased_period(self.period);
                self.last_dec_seq = x.snd_curr_seq;
                return true;
            }
        }
        false
    }

    pub fn on_timeout(&mut self, x: &UdtInputs) {
        if self.slow_start {
            self.slow_start = false;
            self.period = self.exit_period(x, self.inverted_slow_start_exit).unwrap_or(1e6 / x.recv_rate as f64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::component_rng;

    fn cc() -> UdtCc {
        UdtCc::new(&UdtConfig::default())
    }

    fn inputs(recv_rate: i64, bandwidth: i64) -> UdtInputs {
        UdtInputs { rtt_us: 100_000.0, recv_rate, bandwidth, snd_curr_seq: 1000 }
    }

    /// CUDTCC out of slow start at `period`, as after a first NAK with AS known.
    fn congestion_avoidance(period_us: f64) -> UdtCc {
        let mut c = cc();
        c.on_loss(&[0], &inputs(1_000_000, 83_333), &mut component_rng(1, 1));
        assert!(!c.in_slow_start());
        c.period = period_us;
        c
    }

    #[test]
    fn spec_2_6_increment_test_vectors() {
        let c = cc();
        // B = 83 333 pkt/s (1 Gb/s), C = 0: spare 9.99996·10⁸ b/s → inc = 1.
        assert_eq!(c.increment(83_333), 1.0);
        // B = 833 333 (10 Gb/s): inc = 10.
        assert_eq!(c.increment(833_333), 10.0);
        // C = 80 000: spare 3 333 pkt/s = 4.0·10⁷ b/s → 0.1.
        assert!((c.increment(83_333 - 80_000) - 0.1).abs() < 1e-12);
        // C = 83 000: spare ≈ 4·10⁶ b/s → 0.01 = min_inc.
        assert!((c.increment(83_333 - 83_000) - 0.01).abs() < 1e-12);
        assert_eq!(c.increment(0), 0.01);
        assert_eq!(c.increment(-5), 0.01);
        let old = UdtCc::new(&UdtConfig { min_inc: 1.0 / 1500.0, ..UdtConfig::default() });
        assert_eq!(old.increment(-5), 1.0 / 1500.0, "UDT ≤ 4.10");
    }

    #[test]
    fn spec_2_6_period_update_adds_inc_packets_per_syn() {
        let c = cc();
        // 12.5 µs (80 000 pkt/s) with inc 0.1: 12.5·10⁴/(1.25 + 10⁴) = 12.49844 µs, +10 pkt/s.
        let p = c.increased_period(12.5, 0.1);
        assert!((p - 12.498_437_7).abs() < 1e-6, "{p}");
        assert!((1e6 / p - 80_010.0).abs() < 1e-6);
        // And through onACK: B = 83 333, period 12.5, spare 3 333 → inc 0.1.
        let mut c = congestion_avoidance(12.5);
        c.start(Time::ZERO);
        c.on_ack(Time::from_millis(10), 500, &inputs(80_000, 83_333));
        assert!((c.period - 12.498_437_7).abs() < 1e-6);
        // cwnd = AS·(RTT + SYN) + 16 = 80 000·0.11 + 16.
        assert!((c.cwnd - 8_816.0).abs() < 1e-9);
    }

    #[test]
    fn spec_2_6_capacity_cap_after_a_loss() {
        let mut c = congestion_avoidance(12.0);
        let mut rng = component_rng(1, 1);
        c.on_loss(&[5_000], &inputs(83_333, 83_333), &mut rng);
        assert_eq!(c.period, 14.0);
        // Below the loss point (period 14 > LastDecPeriod 12): spare 83 333 − 71 428 = 11 904
        // is capped at ⌊83 333/9⌋ = 9 259 pkt/s (1.1·10⁸ b/s) → inc = 1.
        assert_eq!(c.spare_capacity(83_333, 14.0), 9_259);
        assert_eq!(c.increment(9_259), 1.0);
        // At or above the loss point (period ≤ 12) the cap does not apply: with B = 200 000,
        // spare = ⌊200 000 − 83 333.3⌋ although B/9 = 22 222.
        assert_eq!(c.spare_capacity(200_000, 12.0), 116_666);
        assert_eq!(c.spare_capacity(200_000, 12.5), 22_222);
    }

    #[test]
    fn spec_2_5_ceil_quirk_at_1_gbps() {
        let c = cc();
        assert_eq!(c.decreased_period(12.0), 14.0); // rate × 0.857, not 8/9
        assert_eq!(c.decreased_period(1.2), 2.0); // 10 Gb/s: rate × 0.6
        let exact = UdtCc::new(&UdtConfig { ceil_period_on_decrease: false, ..UdtConfig::default() });
        assert_eq!(exact.decreased_period(12.0), 13.5);
    }

    #[test]
    fn ninety_percent_of_1_gbps_takes_about_750_syns() {
        // [SLIDES] 26: inc = 1 packet per SYN until 90 % of 1 Gb/s, so from (almost) zero the
        // rate needs ≈ 75 000/100 = 750 SYN intervals = 7.5 s, whatever the RTT.
        let mut c = congestion_avoidance(1e6 / 100.0);
        c.start(Time::ZERO);
        let mut syns = 0;
        while 1e6 / c.period < 0.9 * 83_333.0 {
            syns += 1;
            c.on_ack(Time::from_millis(10 * syns), 0, &inputs(1e6 as i64 / c.period as i64, 83_333));
        }
        assert!((745..=755).contains(&syns), "{syns} SYNs");
    }

    #[test]
    fn slow_start_grows_by_the_acked_count_once_per_syn_and_exits_past_max_window() {
        let mut c = cc();
        c.start(Time::ZERO);
        let x = inputs(50_000, 83_333);
        c.on_ack(Time::from_millis(5), 100, &x);
        assert_eq!(c.cwnd, 16.0, "less than one SYN since LastRCTime");
        c.on_ack(Time::from_millis(10), 100, &x);
        // seqlen(−1, 100) = 102 (inclusive count from LastAck = SndCurrSeq = −1).
        assert_eq!(c.cwnd, 118.0);
        c.on_ack(Time::from_millis(20), 30_000, &x);
        assert!(!c.in_slow_start());
        // The period leaves slow start at 10⁶/AS = 20 µs and takes the first increase at once.
        assert_eq!(c.period, c.increased_period(20.0, 1.0));
    }

    #[test]
    fn first_nak_in_slow_start_only_sets_the_period_from_the_arrival_rate() {
        let mut c = cc();
        let mut rng = component_rng(1, 1);
        assert!(!c.on_loss(&[10], &inputs(40_000, 83_333), &mut rng));
        assert_eq!(c.period, 25.0);
        // The loss flag was not set: the next ACK increases.
        c.on_ack(Time::from_millis(10), 20, &inputs(40_000, 83_333));
        assert!(c.period < 25.0);
        // With AS = 0 the 4.11 formula inverts its units: cwnd/(RTT + SYN) pkt/µs.
        let mut c = cc();
        assert!(c.on_loss(&[10], &inputs(0, 83_333), &mut rng));
        assert_eq!(c.period, (16.0f64 / 110_000.0 * 1.125).ceil());
    }

    #[test]
    fn at_most_five_decreases_per_congestion_period() {
        let mut rng = component_rng(3, 3);
        let mut c = congestion_avoidance(10.0);
        c.ceil_on_decrease = false;
        // Several periods of 5+ NAKs each raise AvgNAKNum; DecRandom then spreads the cuts.
        let mut cuts_per_period = Vec::new();
        let mut seq = 100u64;
        for _ in 0..40 {
            c.period = 10.0;
            let x = UdtInputs { snd_curr_seq: seq as i64 + 50, ..inputs(80_000, 83_333) };
            let mut cuts = 0;
            cuts += c.on_loss(&[seq], &x, &mut rng) as u32;
            for k in 1..10 {
                cuts += c.on_loss(&[seq + k], &x, &mut rng) as u32;
            }
            cuts_per_period.push(cuts);
            seq += 1000;
        }
        assert!(cuts_per_period.iter().all(|&n| (1..=5).contains(&n)), "{cuts_per_period:?}");
        assert!(c.avg_nak_num <= 5.0 && c.avg_nak_num >= 2.0, "AvgNAKNum {}", c.avg_nak_num);
        assert!(c.dec_random >= 1 && c.dec_random as f64 <= c.avg_nak_num);
    }

    #[test]
    fn nak_within_the_period_does_not_reopen_it() {
        let mut rng = component_rng(1, 1);
        let mut c = congestion_avoidance(10.0);
        let x = UdtInputs { snd_curr_seq: 500, ..inputs(80_000, 83_333) };
        assert!(c.on_loss(&[100], &x, &mut rng));
        assert_eq!((c.period, c.last_dec_seq, c.last_dec_period), (12.0, 500, 10.0));
        // DecRandom = 1 (AvgNAKNum = ⌈0.875·0 + 0.125·0⌉ = 0 from init): NAKs 2–5 each cut.
        let cuts: Vec<bool> = (0..6).map(|k| c.on_loss(&[200 + k], &x, &mut rng)).collect();
        assert_eq!(cuts, vec![true, true, true, true, false, false]);
    }
}
