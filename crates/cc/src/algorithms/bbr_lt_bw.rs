//! BBR v1's long-term ("LT") bandwidth estimator: token-bucket policer detection.
//!
//! Source: Linux `net/ipv4/tcp_bbr.c` (`bbr_lt_bw_sampling`, `bbr_lt_bw_interval_done`,
//! `bbr_reset_lt_bw_sampling`; in the module since its first release, 4.9, 2016), motivated
//! by Flach et al., "An Internet-Wide Analysis of Traffic Policing", SIGCOMM 2016. The ACM
//! Queue paper and the BBR drafts do not describe it; BBR v3 drops it for its `bw_lo` and
//! `inflight_lo` bounds.
//!
//! A policer passes a long-term rate and drops what exceeds it; BBR's max filter remembers the
//! bursts the bucket let through, so BBR keeps pacing above the policed rate and loses a large
//! share of what it sends. BBR concludes that it is policed when two consecutive *sampling
//! intervals* both lose much and deliver at a consistent rate:
//!
//! ```text
//! interval  = from a loss, at least 4 and at most 16 packet-timed rounds, ending on a loss,
//!             never application-limited
//! lossy     ⇔ lost / delivered ≥ 50/256 ≈ 19.5 %                 (over the interval)
//! bw_i      = delivered / t   (t in whole milliseconds of delivery time, ≥ 1 ms)
//! consistent⇔ |bw_2 − bw_1| ≤ bw_1 / 8   or   |bw_2 − bw_1| ≤ 4 kbit/s
//! lt_bw     = (bw_1 + bw_2) / 2
//! ```
//!
//! While policed, `bw = lt_bw` instead of `max_bw` (pacing, cwnd and the ACK-aggregation
//! allowance follow it) and PROBE_BW paces at gain 1 with no probing; after 48 rounds in
//! PROBE_BW the estimator resets and gain cycling resumes at a random phase. An interval
//! that is not lossy by the time it has lasted 16 rounds, or an application-limited sample,
//! restarts sampling from the next loss; a retransmission timeout counts as a round end with
//! a loss, and an undone (spurious) recovery resets the estimator.
//!
//! Units: Linux counts packets (`tp->delivered`, `tp->lost`) and its rates are packets per
//! microsecond; this counts bytes, which gives the same ratios for full-sized segments. Its
//! 4 kbit/s test converts the difference to bytes per second through
//! `bbr_rate_bytes_per_sec`, which also takes off the 1 % pacing margin; here it is 4 kbit/s.

use crate::units::{Bytes, Rate, Time};

/// `bbr_lt_intvl_min_rtts`: rounds an interval lasts at least.
pub const MIN_INTERVAL_ROUNDS: u32 = 4;
/// An interval longer than `4 · bbr_lt_intvl_min_rtts` rounds starts sampling over.
pub const MAX_INTERVAL_ROUNDS: u32 = 4 * MIN_INTERVAL_ROUNDS;
/// `bbr_lt_loss_thresh` of `BBR_UNIT` (256): the lossy interval's loss share.
pub const LOSS_THRESHOLD: f64 = 50.0 / 256.0;
/// `bbr_lt_bw_ratio` of `BBR_UNIT`: two intervals' rates are consistent within this share...
pub const CONSISTENT_RATIO: f64 = 1.0 / 8.0;
/// ...or within this difference (`bbr_lt_bw_diff`, 4000/8 bytes per second).
pub const CONSISTENT_DIFF_BITS_PER_SEC: f64 = 4000.0;
/// `bbr_lt_bw_max_rtts`: rounds in PROBE_BW at `lt_bw` before probing again.
pub const MAX_POLICED_ROUNDS: u32 = 48;

/// What one ACK's rate sample tells the estimator.
#[derive(Copy, Clone, Debug)]
pub struct LtSample {
    /// The ACK started a packet-timed round (`bbr->round_start`).
    pub round_start: bool,
    /// BBR is in PROBE_BW (only its rounds count towards the 48).
    pub in_probe_bw: bool,
    /// Packets newly marked lost (`rs->losses`).
    pub losses: u32,
    pub app_limited: bool,
    /// The connection's totals after this ACK (`tp->delivered`, and when it last grew,
    /// `tp->delivered_mstamp`).
    pub delivered: Bytes,
    pub delivered_time: Time,
}

/// What the caller must do after a sample.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LtStep {
    Continue,
    /// The 48 rounds at `lt_bw` are over: re-enter PROBE_BW's gain cycle
    /// (`bbr_reset_probe_bw_mode`).
    ResumeProbing,
}

/// The estimator's state (`lt_is_sampling`, `lt_rtt_cnt`, `lt_use_bw`, `lt_bw` and the
/// interval's start, `lt_last_*`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LongTermBw {
    /// `lt_bw`: the previous interval's rate, or, once policed, the two intervals' mean.
    bw: Rate,
    /// `lt_use_bw`.
    policed: bool,
    sampling: bool,
    /// Rounds in the interval, or, once policed, rounds spent at `lt_bw`.
    rounds: u32,
    start_time: Time,
    start_delivered: Bytes,
    start_lost: Bytes,
    /// Bytes marked lost over the connection (`tp->lost`).
    lost: Bytes,
}

impl LongTermBw {
    /// The policed rate, while BBR believes it is policed.
    pub fn policed_rate(&self) -> Option<Rate> {
        self.policed.then_some(self.bw)
    }

    /// Counts bytes newly marked lost; call on every ACK before [`Self::on_sample`].
    pub fn count_lost(&mut self, bytes: Bytes) {
        self.lost += bytes;
    }

    /// `bbr_reset_lt_bw_sampling_interval`.
    fn start_interval(&mut self, delivered: Bytes, delivered_time: Time) {
        self.start_time = delivered_time;
        self.start_delivered = delivered;
        self.start_lost = self.lost;
        self.rounds = 0;
    }

    /// `bbr_reset_lt_bw_sampling`: not policed, not sampling, no previous interval.
    pub fn reset(&mut self, delivered: Bytes, delivered_time: Time) {
        self.bw = Rate::ZERO;
        self.policed = false;
        self.sampling = false;
        self.start_interval(delivered, delivered_time);
    }

    /// `bbr_lt_bw_sampling`, on each valid rate sample (and on an RTO, as a round end with one
    /// loss).
    pub fn on_sample(&mut self, s: &LtSample) -> LtStep {
        if self.policed {
            if s.in_probe_bw && s.round_start {
                self.rounds += 1;
                if self.rounds >= MAX_POLICED_ROUNDS {
                    self.reset(s.delivered, s.delivered_time);
                    return LtStep::ResumeProbing;
                }
            }
            return LtStep::Continue;
        }
        // Sampling starts at a loss, once the policer's tokens are spent.
        if !self.sampling {
            if s.losses == 0 {
                return LtStep::Continue;
            }
            self.start_interval(s.delivered, s.delivered_time);
            self.sampling = true;
        }
        if s.app_limited {
            self.reset(s.delivered, s.delivered_time);
            return LtStep::Continue;
        }
        if s.round_start {
            self.rounds += 1;
        }
        if self.rounds < MIN_INTERVAL_ROUNDS {
            return LtStep::Continue;
        }
        if self.rounds > MAX_INTERVAL_ROUNDS {
            self.reset(s.delivered, s.delivered_time);
            return LtStep::Continue;
        }
        // The interval ends on a loss, when the tokens are surely spent.
        if s.losses == 0 {
            return LtStep::Continue;
        }
        let lost = self.lost - self.start_lost;
        let delivered = s.delivered - self.start_delivered;
        if delivered == 0 || (lost as f64) < LOSS_THRESHOLD * delivered as f64 {
            return LtStep::Continue;
        }
        // Linux stamps the interval in whole milliseconds.
        let ms = |t: Time| t.0 / 1_000_000;
        let t_ms = ms(s.delivered_time).saturating_sub(ms(self.start_time));
        if t_ms < 1 {
            return LtStep::Continue;
        }
        self.interval_done(Rate::from_delivery(delivered, Time::from_millis(t_ms)), s);
        LtStep::Continue
    }

    /// `bbr_lt_bw_interval_done`: policed if this interval's rate matches the previous one's.
    fn interval_done(&mut self, bw: Rate, s: &LtSample) {
        if self.bw > Rate::ZERO {
            let diff = (bw.0 - self.bw.0).abs();
            if diff <= CONSISTENT_RATIO * self.bw.0
                || diff * 8.0 <= CONSISTENT_DIFF_BITS_PER_SEC
            {
                self.bw = Rate((bw.0 + self.bw.0) / 2.0);
                self.policed = true;
                self.rounds = 0;
                return;
            }
        }
        self.bw = bw;
        self.start_interval(s.delivered, s.delivered_time);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: Bytes = 1448;

    /// Drives the estimator through rounds of 100 packets' delivery, each lasting 100 ms,
    /// with `lost` packets per round reported on the round's last ACK.
    struct Drive {
        lt: LongTermBw,
        delivered: Bytes,
        now: Time,
    }

    impl Drive {
        fn new() -> Drive {
            Drive { lt: LongTermBw::default(), delivered: 0, now: Time::ZERO }
        }

        /// One round of 10 ACKs of `per_ack` packets each; the last carries `lost` losses.
        fn round(&mut self, per_ack: u64, lost: u32, probe_bw: bool) -> LtStep {
            let mut step = LtStep::Continue;
            for i in 0..10 {
                self.now += Time::from_millis(10);
                self.delivered += per_ack * MSS;
                let losses = if i == 9 { lost } else { 0 };
                self.lt.count_lost(losses as u64 * MSS);
                let s = LtSample {
                    round_start: i == 0,
                    in_probe_bw: probe_bw,
                    losses,
                    app_limited: false,
                    delivered: self.delivered,
                    delivered_time: self.now,
                };
                if self.lt.on_sample(&s) == LtStep::ResumeProbing {
                    step = LtStep::ResumeProbing;
                }
            }
            step
        }
    }

    /// 100 packets per 100 ms round: 1448 kB/s.
    fn rate(per_ack: u64) -> f64 {
        (per_ack * 10 * MSS) as f64 / 0.1
    }

    #[test]
    fn two_lossy_intervals_at_one_rate_mean_a_policer_at_their_mean_rate() {
        let mut d = Drive::new();
        // 25 lost per 100 delivered (25 %, above 19.5 %) from the start.
        for _ in 0..12 {
            d.round(10, 25, true);
        }
        let policed = d.lt.policed_rate().expect("two lossy, consistent intervals");
        // Every interval delivers at exactly the path's rate.
        assert!((policed.0 - rate(10)).abs() < 1e-6 * rate(10), "{policed:?}");
    }

    #[test]
    fn nothing_is_sampled_before_the_first_loss() {
        let mut d = Drive::new();
        for _ in 0..40 {
            d.round(10, 0, true);
        }
        assert_eq!(d.lt, LongTermBw::default());
    }

    #[test]
    fn a_loss_share_below_the_threshold_is_no_policer() {
        let mut d = Drive::new();
        // 19 of 100: below 50/256 = 19.53 %.
        for _ in 0..60 {
            d.round(10, 19, true);
        }
        assert_eq!(d.lt.policed_rate(), None);
        // 20 of 100 is above it.
        let mut d = Drive::new();
        for _ in 0..12 {
            d.round(10, 20, true);
        }
        assert!(d.lt.policed_rate().is_some());
    }

    /// Sampling starts at the first round's loss; each later block of four rounds is then
    /// exactly one interval.
    fn blocks(per_ack: &[u64]) -> Drive {
        let mut d = Drive::new();
        d.round(10, 30, true);
        for &p in per_ack {
            for _ in 0..MIN_INTERVAL_ROUNDS {
                d.round(p, 30, true);
            }
        }
        d
    }

    #[test]
    fn intervals_whose_rates_differ_by_more_than_an_eighth_are_no_policer() {
        // 10 then 7 packets per ACK: each interval 30 % off the one before.
        let d = blocks(&[10, 7, 10, 7, 10, 7, 10]);
        assert_eq!(d.lt.policed_rate(), None);
        // 10 then 9 (−10 %): within an eighth, so policed at their mean.
        let d = blocks(&[10, 9]);
        let policed = d.lt.policed_rate().expect("consistent within 1/8");
        assert!((policed.0 - (rate(10) + rate(9)) / 2.0).abs() < 1e-6 * rate(10), "{policed:?}");
    }

    #[test]
    fn an_interval_longer_than_sixteen_rounds_starts_over() {
        let mut d = Drive::new();
        // One loss starts sampling, then a clean stretch of 17 rounds, then heavy loss: the
        // interval reset at round 17 never counts the clean rounds.
        d.round(10, 1, true);
        for _ in 0..17 {
            d.round(10, 0, true);
        }
        assert!(!d.lt.sampling, "reset after 16 rounds");
        assert_eq!(d.lt.policed_rate(), None);
    }

    #[test]
    fn an_application_limited_sample_resets_sampling() {
        let mut d = Drive::new();
        for _ in 0..5 {
            d.round(10, 25, true);
        }
        assert!(d.lt.bw > Rate::ZERO, "one interval done");
        d.delivered += MSS;
        d.lt.on_sample(&LtSample {
            round_start: false,
            in_probe_bw: true,
            losses: 0,
            app_limited: true,
            delivered: d.delivered,
            delivered_time: d.now,
        });
        assert_eq!(d.lt.bw, Rate::ZERO);
        assert!(!d.lt.sampling);
    }

    #[test]
    fn policing_ends_after_forty_eight_probe_bw_rounds() {
        let mut d = Drive::new();
        let mut k = 0;
        while d.lt.policed_rate().is_none() {
            d.round(10, 25, true);
            k += 1;
            assert!(k < 20);
        }
        // Rounds outside PROBE_BW do not count.
        for _ in 0..100 {
            assert_eq!(d.round(10, 0, false), LtStep::Continue);
        }
        for r in 1..=MAX_POLICED_ROUNDS {
            let step = d.round(10, 0, true);
            assert_eq!(step == LtStep::ResumeProbing, r == MAX_POLICED_ROUNDS, "round {r}");
        }
        assert_eq!(d.lt.policed_rate(), None);
    }
}
