//! The TFRC sender (RFC 5348 §4): an allowed rate `X`, set by the equation once the receiver
//! reports losses, and packets spaced `s/X` apart. No retransmissions: TFRC is unreliable.
//!
//! - **Start** (§4.2): `X = s` per `pre_rtt_interval` (one packet per second), nofeedback timer
//!   2 s, `X_recv_set = {∞}`.
//! - **Feedback** `(t_recvdata, t_delay, X_recv, p)` (§4.3):
//!   1. `R_sample = (t_now − t_recvdata) − t_delay`;
//!   2. `R = R_sample` at the first report, then `R = q·R + (1 − q)·R_sample`, `q = 0.9`;
//!   3. the first report sets `X = W_init/R`, `W_init = min(4s, max(2s, 4380 B))`, and
//!      `t_ld = t_now` (the time last doubled);
//!   4. *Update* `X_recv_set` with `X_recv` (`recv_set`), `recv_limit = 2·max(X_recv_set)`;
//!      if `p > 0`: `X_Bps = X(s, R, p)` (the equation, `t_RTO = 4R`) and
//!      `X = max(min(X_Bps, recv_limit), s/t_mbi)`, `t_mbi = 64 s`;
//!      else, slow start, once per RTT (`t_now − t_ld ≥ R`):
//!      `X = max(min(2X, recv_limit), W_init/R)`, `t_ld = t_now`;
//!   5. restart the nofeedback timer at `max(4R, 2s/X)`.
//! - **Nofeedback timer** (§4.4), with `recover_rate = W_init/R` and `X_recv` the largest
//!   receive rate in `X_recv_set`:
//!   without an RTT sample, `X = max(X/2, s/t_mbi)`;
//!   if idle since the timer was set and `(p > 0 ∧ X_recv < recover_rate) ∨ (p = 0 ∧ X < 2·recover_rate)`,
//!   nothing; else if `p = 0`, `X = max(X/2, s/t_mbi)`;
//!   else if `X_Bps > 2·X_recv`, *Update_Limits*(`X_recv`); else *Update_Limits*(`X_Bps/2`),
//!   where *Update_Limits*(`l`) sets `l = max(l, s/t_mbi)`, `X_recv_set = {l/2}` and `X` as in
//!   step 4 (`X = max(min(X_Bps, l), s/t_mbi)`): the rate halves. The timer restarts at
//!   `max(4R, 2s/X)` (`2s/X` before an RTT sample).
//! - **Sending** (§4.6): packet `i+1` is due at `t_nom(i+1) = t_nom(i) + s/X`, with `X` as it
//!   is when asked, so rate changes apply to the next gap. A sender more than one gap late
//!   (held by its access link) restarts the schedule from now instead of bursting.
//!   [`DatagramSender::next_send_time`] exposes `t_nom(i+1)`.
//!
//! Not implemented: oscillation reduction (§4.5, optional), the data-limited branch of step 4
//! (see `recv_set`), jitter of the send times. A finite transfer is complete when every packet
//! is sent and a report echoes the last one, or the nofeedback timer expires after it (its fate
//! is then unknown, and TFRC does not retransmit).

use super::config::TfrcConfig;
use super::equation::Equation;
use super::recv_set::ReceiveRateSet;
use crate::controller::Snapshot;
use crate::datagram::{CtrlMsg, DatagramSender, DgStats, DgTransmit};
use crate::units::{Bytes, Rate, Time};

#[derive(Clone, Debug)]
pub struct TfrcSender {
    cfg: TfrcConfig,
    eq: Equation,
    s: Bytes,
    data_limit: Option<Bytes>,
    next_seq: u64,
    started: bool,
    /// The allowed sending rate X, bytes per second.
    x: f64,
    /// The equation's rate X_Bps, once p > 0.
    x_eq: Option<f64>,
    p: f64,
    /// R, seconds.
    r: Option<f64>,
    min_rtt: Option<Time>,
    /// `W_init/R`, set by the first report (RFC 5348's `recover_rate`).
    initial_rate: Option<f64>,
    /// Time last doubled in slow start.
    tld: Time,
    recv_set: ReceiveRateSet,
    nofeedback_at: Option<Time>,
    sent_since_timer_set: bool,
    last_nominal: Option<Time>,
    last_sent: Option<Time>,
    complete: bool,
    stats: DgStats,
}

impl TfrcSender {
    pub fn new(cfg: &TfrcConfig, s: Bytes, data_limit: Option<Bytes>) -> TfrcSender {
        let s = s.max(1);
        TfrcSender {
            cfg: cfg.clone(),
            eq: cfg.equation(),
            s,
            data_limit,
            next_seq: 0,
            started: false,
            x: s as f64 / Time::from_millis(cfg.pre_rtt_interval_ms.max(1)).as_secs_f64(),
            x_eq: None,
            p: 0.0,
            r: None,
            min_rtt: None,
            initial_rate: None,
            tld: Time::ZERO,
            recv_set: ReceiveRateSet::new(Time::ZERO),
            nofeedback_at: None,
            sent_since_timer_set: false,
            last_nominal: None,
            last_sent: None,
            complete: false,
            stats: DgStats::default(),
        }
    }

    /// The allowed sending rate X.
    pub fn allowed_rate(&self) -> Rate {
        Rate(self.x)
    }

    /// The equation's rate `X_Bps` for the last reported `p` (`None` while `p = 0`).
    pub fn equation_rate(&self) -> Option<Rate> {
        self.x_eq.map(Rate)
    }

    /// The loss event rate last reported.
    pub fn loss_event_rate(&self) -> f64 {
        self.p
    }

    /// When the nofeedback timer expires.
    pub fn nofeedback_deadline(&self) -> Option<Time> {
        self.nofeedback_at
    }

    fn min_rate(&self) -> f64 {
        self.s as f64 / self.cfg.t_mbi().as_secs_f64().max(1e-9)
    }

    fn all_sent(&self) -> bool {
        self.data_limit.is_some_and(|d| self.stats.bytes_sent >= d)
    }

    fn gap(&self) -> Time {
        Rate(self.x).tx_time(self.s)
    }

    fn due(&self, now: Time) -> Time {
        self.last_nominal.map_or(now, |t| t + self.gap())
    }

    /// `max(4R, 2s/X)`, or `2s/X` without an RTT sample.
    fn nofeedback_interval(&self) -> Time {
        let packets = self.cfg.nofeedback_packets * self.s as f64 / self.x;
        let rtts = self.r.map_or(0.0, |r| self.cfg.nofeedback_rtts * r);
        Time::from_secs_f64(packets.max(rtts))
    }

    fn restart_nofeedback_timer(&mut self, now: Time) {
        self.nofeedback_at = Some(now + self.nofeedback_interval());
        self.sent_since_timer_set = false;
    }

    /// `X = max(min(X_Bps, recv_limit), s/t_mbi)` (§4.3 step 4, p > 0).
    fn apply_equation(&mut self, recv_limit: f64) {
        if let Some(x_eq) = self.x_eq {
            self.x = x_eq.min(recv_limit).max(self.min_rate());
        }
    }

    /// §4.4's *Update_Limits*.
    fn update_limits(&mut self, now: Time, limit: f64) {
        let limit = limit.max(self.min_rate());
        self.recv_set.replace(now, limit / 2.0);
        self.apply_equation(self.cfg.recv_limit_gain * self.recv_set.max());
    }

    fn on_report(&mut self, now: Time, echo: Time, delay: Time, x_recv: Rate, p: f64) {
        // Steps 1 and 2: the RTT.
        let sample = (now - echo - delay).max(Time::from_micros(1));
        self.min_rtt = Some(self.min_rtt.map_or(sample, |m| m.min(sample)));
        let q = self.cfg.rtt_filter;
        let r = self.r.map_or(sample.as_secs_f64(), |r| q * r + (1.0 - q) * sample.as_secs_f64());
        let first = self.r.is_none();
        self.r = Some(r);
        let rtt = Time::from_secs_f64(r);
        if p > self.p {
            self.stats.loss_reports += 1;
            self.stats.congestion_events += 1;
        }
        self.p = p;
        // Step 3 at the first report: X = W_init/R.
        if first {
            let initial = self.cfg.initial_window(self.s) as f64 / r;
            self.initial_rate = Some(initial);
            self.x = initial;
            self.tld = now;
        }
        // Step 4.
        self.recv_set.update(now, x_recv.bytes_per_sec(), rtt);
        let recv_limit = self.cfg.recv_limit_gain * self.recv_set.max();
        if p > 0.0 {
            self.x_eq = Some(self.eq.rate(self.s, rtt, p).bytes_per_sec());
            self.apply_equation(recv_limit);
        } else if (now - self.tld).as_secs_f64() >= r {
            let initial = self.initial_rate.unwrap_or(self.x);
            self.x = (self.cfg.slow_start_gain * self.x).min(recv_limit).max(initial);
            self.tld = now;
        }
        self.restart_nofeedback_timer(now);
        if self.all_sent() && self.last_sent.is_some_and(|t| echo >= t) {
            self.complete = true;
        }
    }

    fn on_nofeedback(&mut self, now: Time) {
        self.stats.timeouts += 1;
        let halved = (self.x / 2.0).max(self.min_rate());
        match (self.initial_rate, self.x_eq) {
            // No feedback yet.
            (None, _) => self.x = halved,
            (Some(recover), x_eq) => {
                let x_recv = self.recv_set.max_finite().unwrap_or(0.0);
                let idle = !self.sent_since_timer_set;
                let p = self.p;
                if idle && ((p > 0.0 && x_recv < recover) || (p == 0.0 && self.x < 2.0 * recover)) {
                    // Idle at a rate it may resume at: keep it.
                } else if p == 0.0 {
                    self.x = halved;
                } else {
                    let x_eq = x_eq.unwrap_or(self.x);
                    let limit = if x_eq > 2.0 * x_recv { x_recv } else { x_eq / 2.0 };
                    self.update_limits(now, limit);
                }
            }
        }
        self.restart_nofeedback_timer(now);
        if self.all_sent() {
            self.complete = true;
        }
    }
}

impl DatagramSender for TfrcSender {
    fn name(&self) -> &'static str {
        "tfrc"
    }

    fn poll_transmit(&mut self, now: Time) -> Option<DgTransmit> {
        if !self.started {
            self.started = true;
            self.recv_set = ReceiveRateSet::new(now);
            self.nofeedback_at = Some(now + Time::from_millis(self.cfg.initial_nofeedback_ms));
        }
        let due = self.due(now);
        if self.all_sent() || now < due {
            return None;
        }
        self.last_nominal = Some(if now > due + self.gap() { now } else { due });
        let len = self.data_limit.map_or(self.s, |d| self.s.min(d - self.stats.bytes_sent));
        let seq = self.next_seq;
        self.next_seq += 1;
        self.stats.packets_sent += 1;
        self.stats.bytes_sent += len;
        self.sent_since_timer_set = true;
        self.last_sent = Some(now);
        Some(DgTransmit { seq, len, is_retransmission: false, ecn_capable: self.cfg.ecn, sender_rtt: self.rtt() })
    }

    fn next_send_time(&self, now: Time) -> Option<Time> {
        (!self.all_sent()).then(|| self.due(now))
    }

    fn on_control(&mut self, now: Time, msg: &CtrlMsg) {
        if let CtrlMsg::TfrcReport { echo, delay, x_recv, p } = *msg {
            if self.started {
                self.on_report(now, echo, delay, x_recv, p);
            }
        }
    }

    fn next_timer(&self) -> Option<Time> {
        if self.complete {
            None
        } else {
            self.nofeedback_at
        }
    }

    fn on_timer(&mut self, now: Time) {
        if !self.complete && self.nofeedback_at.is_some_and(|t| now >= t) {
            self.on_nofeedback(now);
        }
    }

    fn stats(&self) -> &DgStats {
        &self.stats
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            cwnd: None,
            ssthresh: None,
            pacing_rate: Some(Rate(self.x)),
            bw_estimate: self.recv_set.max_finite().map(Rate),
            min_rtt: self.min_rtt,
            state: if self.p > 0.0 { "equation" } else { "slow_start" },
        }
    }

    fn rtt(&self) -> Option<Time> {
        self.r.map(Time::from_secs_f64)
    }

    fn is_complete(&self) -> bool {
        self.complete
    }

    /// Complete once feedback reports the last packet sent, or the no-feedback timer fires.
    fn end_stream(&mut self) {
        self.data_limit = Some(self.data_limit.map_or(self.stats.bytes_sent, |d| d.min(self.stats.bytes_sent)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Bytes = 1000;

    fn ms(v: u64) -> Time {
        Time::from_millis(v)
    }

    /// A sender that sent its first packet at 0.
    fn started(data_limit: Option<Bytes>) -> TfrcSender {
        let mut tx = TfrcSender::new(&TfrcConfig::default(), S, data_limit);
        assert_eq!(tx.poll_transmit(ms(0)).map(|t| t.seq), Some(0));
        tx
    }

    /// A report at `now_ms` whose RTT sample is 100 ms.
    fn report(tx: &mut TfrcSender, now_ms: u64, x_recv: f64, p: f64) {
        let msg = CtrlMsg::TfrcReport { echo: ms(now_ms - 100), delay: Time::ZERO, x_recv: Rate(x_recv), p };
        tx.on_control(ms(now_ms), &msg);
    }

    fn assert_rate(tx: &TfrcSender, want: f64) {
        let x = tx.allowed_rate().bytes_per_sec();
        assert!((x - want).abs() <= 1e-6 * want, "X = {x}, want {want}");
    }

    /// s = 1000 B, R = 100 ms: W_init = min(4000, max(2000, 4380)) = 4000 B, X = 40 kB/s.
    /// Then X doubles once per RTT while 2·max(X_recv of the last 2 RTTs) allows it.
    #[test]
    fn slow_start_doubles_per_rtt_capped_by_twice_the_receive_rate() {
        let mut tx = started(None);
        assert_rate(&tx, 1000.0);
        report(&mut tx, 100, 0.0, 0.0);
        assert_rate(&tx, 40_000.0);
        assert_eq!(tx.rtt(), Some(ms(100)));
        // 110 ms later, X_recv 1 MB/s: X = min(2·40k, 2·1M) = 80k.
        report(&mut tx, 210, 1e6, 0.0);
        assert_rate(&tx, 80_000.0);
        // X_recv 30 kB/s, but 1 MB/s (110 ms old) is still in X_recv_set: X = 160k.
        report(&mut tx, 320, 30_000.0, 0.0);
        assert_rate(&tx, 160_000.0);
        // The 1 MB/s entry is now 220 ms old (> 2R) and gone: X = min(320k, 2·30k) = 60k.
        report(&mut tx, 430, 30_000.0, 0.0);
        assert_rate(&tx, 60_000.0);
        // Less than R after the last doubling: no change.
        report(&mut tx, 480, 1e6, 0.0);
        assert_rate(&tx, 60_000.0);
        // The first loss report: X = X(s, R, 1%) = 1000/0.00890216 = 112 332 B/s (see the
        // equation's test), below recv_limit = 2 MB/s.
        report(&mut tx, 590, 100_000.0, 0.01);
        assert_rate(&tx, 112_332.234);
        assert_eq!(tx.snapshot().state, "equation");
        assert_eq!(tx.stats().congestion_events, 1);
    }

    #[test]
    fn nofeedback_timer_halves_before_the_first_report() {
        let mut tx = started(None);
        // X = 1 packet/s; the timer expires after 2 s: X = 500 B/s, next timer after 2s/X = 4 s.
        assert_eq!(tx.next_timer(), Some(ms(2000)));
        tx.on_timer(ms(2000));
        assert_rate(&tx, 500.0);
        assert_eq!(tx.next_timer(), Some(ms(6000)));
        assert_eq!(tx.stats().timeouts, 1);
    }

    #[test]
    fn nofeedback_timer_halves_in_slow_start_unless_idle() {
        let mut tx = started(None);
        report(&mut tx, 100, 0.0, 0.0);
        assert_rate(&tx, 40_000.0);
        // max(4R, 2s/X) = max(400 ms, 50 ms).
        assert_eq!(tx.next_timer(), Some(ms(500)));
        assert!(tx.poll_transmit(ms(200)).is_some());
        tx.on_timer(ms(500));
        assert_rate(&tx, 20_000.0);
        assert_eq!(tx.next_timer(), Some(ms(900)));
        // Idle since then, at X = 20k < 2·recover_rate = 80k: X stays.
        tx.on_timer(ms(900));
        assert_rate(&tx, 20_000.0);
        assert_eq!(tx.stats().timeouts, 2);
    }

    /// With p > 0 the timer halves the equation's rate (Update_Limits(X_Bps/2)), then, once
    /// 2·X_recv is the limit, X_recv (Update_Limits(X_recv)).
    #[test]
    fn nofeedback_timer_halves_the_equation_rate() {
        let x_eq = 112_332.234;
        let mut tx = started(None);
        report(&mut tx, 100, 0.0, 0.0);
        report(&mut tx, 210, 100_000.0, 0.01);
        assert_rate(&tx, x_eq);
        assert!(tx.poll_transmit(ms(300)).is_some());
        assert_eq!(tx.next_timer(), Some(ms(610)));
        tx.on_timer(ms(610));
        // X_Bps = 112k ≤ 2·X_recv = 200k: limit X_Bps/2, X_recv_set = {X_Bps/4}.
        assert_rate(&tx, x_eq / 2.0);
        assert!(tx.poll_transmit(ms(700)).is_some());
        tx.on_timer(tx.next_timer().unwrap());
        // X_recv = X_Bps/4: X_Bps > 2·X_recv, limit X_recv: X = X_Bps/4.
        assert_rate(&tx, x_eq / 4.0);
    }

    #[test]
    fn packets_are_spaced_s_over_x_and_carry_the_rtt() {
        let mut tx = started(None);
        assert_eq!(tx.next_send_time(ms(1)), Some(ms(1000)));
        report(&mut tx, 100, 0.0, 0.0);
        // X = 40 kB/s: one 1000 B packet per 25 ms; the schedule restarts at 100 ms.
        let p = tx.poll_transmit(ms(100)).unwrap();
        assert_eq!((p.seq, p.sender_rtt, p.is_retransmission), (1, Some(ms(100)), false));
        assert_eq!(tx.next_send_time(ms(100)), Some(ms(125)));
        assert!(tx.poll_transmit(ms(124)).is_none());
        assert!(tx.poll_transmit(ms(125)).is_some());
        assert_eq!(tx.next_send_time(ms(125)), Some(ms(150)));
    }

    #[test]
    fn a_finite_transfer_completes_when_its_last_packet_is_reported() {
        let mut tx = started(Some(2500));
        report(&mut tx, 100, 0.0, 0.0);
        let lens: Vec<Bytes> = [100, 125, 150, 175].iter().filter_map(|&t| tx.poll_transmit(ms(t))).map(|p| p.len).collect();
        assert_eq!(lens, vec![1000, 500]);
        assert_eq!(tx.next_send_time(ms(200)), None);
        assert!(!tx.is_complete());
        // A report echoing the packet sent at 100 ms, not the last one (125 ms).
        report(&mut tx, 200, 40_000.0, 0.0);
        assert!(!tx.is_complete());
        report(&mut tx, 225, 40_000.0, 0.0);
        assert!(tx.is_complete());
        assert_eq!(tx.next_timer(), None);
    }
}
