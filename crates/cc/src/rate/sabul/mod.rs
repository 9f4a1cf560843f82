//! SABUL: Simple Available Bandwidth Utilization Library (Gu & Grossman, UIC/NCDM, 2001–2003).
//! `sabul` is the paper formulation; `sabul-2003` (see `sabul_2003.rs`) adds the 2003 code's
//! bookkeeping flaws that the seed, Oothongsap, Viniotis & Vouk, NETWORKING 2004 (\[OVV04\]),
//! blames for SABUL's erratic rate.
//!
//! Architecture (spec §1.1): data over UDP; the receiver sends SYN, ACK and ERR back over a
//! reliable control channel (TCP in SABUL). Rate control is clocked by a constant interval,
//! the SYN interval T, independent of the RTT (\[OVV04\] §2: fairness depends on T, not RTT).
//!
//! **Which generation is "the paper formulation".** The spec documents three (§1.4). Gen-B is
//! the algorithm of the SABUL papers, \[RC\] §3 and \[SP\] §3.6, and \[RC\] is the seed's own
//! reference \[4\] for SABUL's congestion control. It is the one that matches the seed's
//! description word for word: a constant rate-control interval, a loss rate from ERR reports
//! over packets sent (\[RC\] eq. 11, ρ = LOSS/SENT), and MIMD on the inter-packet time
//! (\[OVV04\] §2: "a variant of Multiplicative Increase and Multiplicative Decrease"). Gen-A
//! (\[TR2002\]) measures loss from the receiver's SYN count and has a dead band and an
//! acceleration phase; Gen-C is the 2003 code, not a paper. So `sabul` uses Gen-B with
//! \[RC\] Table 2's constants; Gen-C and Gen-A stay available as `law = { generation =
//! "code-2003" }` and `law = { generation = "tr-2002" }` because the spec (§1.4, §6) cannot
//! settle which increase rule the seed's binary ran (`cclab experiment run sabul-table1` runs
//! Table 1 under all three).
//!
//! The sender (spec §1.1–1.3; \[S-code\] `sender.cpp`):
//!
//! - **Pacing**: one packet every IPT µs; retransmissions (lowest number first) before new
//!   data; at most `flow_window` = 25 600 packets beyond the last ACK.
//! - **Rate control** every interval T: `IPT ← law.on_syn(IPT, ρ)`, then
//!   `IPT ← clamp(IPT, 10 µs, 1000 µs)`; every ERR: `IPT ← law.on_err(IPT, new_epoch)`,
//!   unclamped, as in the code.
//! - **Congestion epochs**: an ERR whose first number exceeds LastDecSeq opens an epoch and
//!   sets LastDecSeq to the largest number sent. With `freeze` (the 2003 code's sending side,
//!   spec §1.3; not part of Gen-B, so off for `sabul` and on for `sabul-2003`), the first
//!   ERR-driven decrease of an epoch **freezes** the sender: the next inter-packet wait is
//!   `T + IPT` instead of IPT (or `freeze_ms` + IPT, when set). The code sets the freeze in its ERR handler, where Gen-C's
//!   epoch-opening cut is; Gen-B's ERR-driven decrease is the `+b` after more than V ERRs.
//! - **EXP**: no ACK or ERR for 1 s (SYNs do not count) puts every unacknowledged number on
//!   the loss list; the rate is unchanged.
//! - Initial IPT 10 µs: SABUL starts at its maximum rate, without slow start.
//! - The interval's clock: the paper formulation closes intervals on the sender's own timer
//!   every T, so that counts and durations are exact; the 2003 code closes them when a SYN
//!   *arrives*, so control-path delay variations change the measured interval (\[OVV04\] §3 (ii)).
//!
//! Defaults (spec §1.2–1.3, §1.4 "SABUL-OVV"): T = 200 ms (the seed's Table 1 base case and
//! the late-2002 release; \[RC\] Table 2 has 20 ms, the 2003 code 10 ms), ACK 100 ms, ERR 20 ms,
//! EXP 1 s, `RTT_est` = max(1.5·RTT, 20 ms), IPT ∈ [10, 1000] µs starting at 10 µs, no freeze.
//!
//! Measured on the loopback of `tests/datagram_loopback.rs` (100 Mb/s, 60 ms, one-BDP
//! drop-tail buffer, 0.05 % random loss, 0–20 ms in-order control-path jitter, 60 s): `sabul`
//! sends at ≈ 99 % of the link's payload rate with a per-interval rate CV of 0.03;
//! `sabul-2003` at 31–33 % with a CV of 1.0–1.1 for the rate it logs (0.4–0.5 for the rate it
//! really sends), and 33–36 % with a CV of 0.44–0.48 with its freeze off, i.e. from the
//! bookkeeping alone. Without random loss or jitter `sabul` fills the link and `sabul-2003`
//! 70 % of it. With random loss above α = 0.1 % both settle far below the link rate (Gen-B
//! treats ρ > α as congestion).

pub mod gen_a;
pub mod gen_c;
pub mod law;
pub mod loss;
pub mod rc;
pub mod receiver;
pub mod v2003;

use crate::rate::loss_list::SendLossList;
use crate::rate::sabul::law::{SabulLaw, SabulLawConfig};
use crate::rate::sabul::loss::{LossMeter, SabulInterval};
use crate::rate::sabul::receiver::{SabulReceiver, SabulReceiverParams};
use crate::rate::send_state::SendState;
use crate::rate::timer::{earliest, Periodic};
use crate::rate::us_to_time;
use crate::controller::Snapshot;
use crate::datagram::{CtrlMsg, DatagramSender, DgInit, DgStats, DgTransmit};
use crate::units::{Rate, Time};
use serde::{Deserialize, Serialize};

/// Defines [`SabulConfig`] and [`Sabul2003Config`](crate::rate::sabul::v2003::Sabul2003Config) from
/// one field list: the same fields, different defaults, and conversions both ways.
macro_rules! sabul_configs {
    ($( $(#[$doc:meta])* $field:ident : $ty:ty, )*) => {
        /// `sabul`: the paper formulation. Every field defaults to the reference constant.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct SabulConfig { $( $(#[$doc])* pub $field: $ty, )* }

        /// `sabul-2003`: the same fields; defaults turn the 2003 code's bookkeeping flaws on.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct Sabul2003Config { $( $(#[$doc])* pub $field: $ty, )* }

        impl From<Sabul2003Config> for SabulConfig {
            fn from(c: Sabul2003Config) -> SabulConfig {
                SabulConfig { $( $field: c.$field, )* }
            }
        }

        impl From<SabulConfig> for Sabul2003Config {
            fn from(c: SabulConfig) -> Sabul2003Config {
                Sabul2003Config { $( $field: c.$field, )* }
            }
        }
    };
}

/// Timers of at least 1 ms (a zero interval would fire forever at one instant) and at most an
/// hour; positive inter-packet times with `min_ipt_us <= max_ipt_us` (the clamp's bounds); the
/// receiver's arrays (flow window, ERR entries) bounded in memory.
impl crate::check::Validate for SabulConfig {
    fn validate(&self) -> Result<(), String> {
        use crate::check::{above, ordered, within};
        for (name, ms) in [("syn_ms", self.syn_ms), ("ack_ms", self.ack_ms), ("err_ms", self.err_ms), ("exp_ms", self.exp_ms)] {
            within(name, ms, 1..=3_600_000)?;
        }
        within("rtt_est_floor_ms", self.rtt_est_floor_ms, 0..=3_600_000)?;
        if let Some(ms) = self.freeze_ms {
            within("freeze_ms", ms, 1..=3_600_000)?;
            if !self.freeze {
                return Err("freeze_ms: a freeze length needs freeze = true".into());
            }
        }
        within("rtt_est_factor", self.rtt_est_factor, above(0.0, 1e3))?;
        for (name, us) in [("min_ipt_us", self.min_ipt_us), ("max_ipt_us", self.max_ipt_us), ("initial_ipt_us", self.initial_ipt_us)] {
            within(name, us, above(0.0, 1e9))?;
        }
        ordered("min_ipt_us", self.min_ipt_us, "max_ipt_us", self.max_ipt_us)?;
        within("flow_window", self.flow_window, 1..=10_000_000)?;
        within("max_err_entries", self.max_err_entries, 1..=1_000_000)?;
        crate::check::Validate::validate(&self.law).map_err(|e| format!("law.{e}"))
    }
}

impl crate::check::Validate for Sabul2003Config {
    fn validate(&self) -> Result<(), String> {
        crate::check::Validate::validate(&SabulConfig::from(self.clone()))
    }
}

sabul_configs! {
    /// T, the SYN (rate-control) interval, ms. The seed's Table 1 uses 200, 400 and 600.
    syn_ms: u64,
    /// The receiver's ACK interval, ms.
    ack_ms: u64,
    /// The receiver's ERR tick (periodic loss reports), ms.
    err_ms: u64,
    /// The sender's EXP timeout (no ACK or ERR), ms.
    exp_ms: u64,
    /// The floor of the receiver's `RTT_est`, ms (also its value for RTTs below it).
    rtt_est_floor_ms: u64,
    /// `RTT_est = factor · RTT` above the floor.
    rtt_est_factor: f64,
    /// The IPT at start (µs): SABUL starts at its maximum rate.
    initial_ipt_us: f64,
    /// The IPT clamp applied after each SYN step (µs).
    min_ipt_us: f64,
    max_ipt_us: f64,
    /// Packets allowed beyond the last ACK (the receiver's reorder array).
    flow_window: u64,
    /// Numbers per ERR packet (PktSize/4 − 2).
    max_err_entries: usize,
    /// Pause one SYN interval after the first ERR-driven decrease of a congestion epoch (the
    /// 2003 code's sending side).
    freeze: bool,
    /// The freeze's length, ms; none (the default): one SYN interval, T, as the code, whose
    /// freeze is its SYN interval (10 ms there). The seed's runs lengthened T to 200 ms and
    /// more and do not say whether the freeze followed.
    freeze_ms: Option<u64>,
    /// The rate law (generation and constants).
    law: SabulLawConfig,
    /// 2003 flaw: every ERR's numbers count as losses, re-reports included.
    count_rereported_errs: bool,
    /// 2003 flaw: packets sent ← max(sent, ERR count), so loss = 1 when ERRs exceed it.
    loss_one_when_errs_exceed_sent: bool,
    /// 2003 flaw: intervals run between SYN arrivals instead of the sender's own timer.
    rate_between_syn_arrivals: bool,
}

impl Default for SabulConfig {
    fn default() -> Self {
        SabulConfig {
            syn_ms: 200,
            ack_ms: 100,
            err_ms: 20,
            exp_ms: 1000,
            rtt_est_floor_ms: 20,
            rtt_est_factor: 1.5,
            initial_ipt_us: 10.0,
            min_ipt_us: 10.0,
            max_ipt_us: 1000.0,
            flow_window: 25_600,
            max_err_entries: 366,
            freeze: false,
            freeze_ms: None,
            law: SabulLawConfig::default(),
            count_rereported_errs: false,
            loss_one_when_errs_exceed_sent: false,
            rate_between_syn_arrivals: false,
        }
    }
}

/// The `sabul` sender and receiver.
pub fn new_pair(cfg: &SabulConfig, init: DgInit) -> (SabulSender, SabulReceiver) {
    build_pair("sabul", cfg, init)
}

impl SabulConfig {
    /// The receiver's constants.
    pub fn receiver_params(&self) -> SabulReceiverParams {
        SabulReceiverParams {
            syn: Time::from_millis(self.syn_ms),
            ack: Time::from_millis(self.ack_ms),
            err: Time::from_millis(self.err_ms),
            rtt_floor: Time::from_millis(self.rtt_est_floor_ms),
            rtt_factor: self.rtt_est_factor,
            max_err_entries: self.max_err_entries,
        }
    }
}

pub(super) fn build_pair(name: &'static str, cfg: &SabulConfig, init: DgInit) -> (SabulSender, SabulReceiver) {
    let total = init.data_limit.map(|b| b.div_ceil(init.mss.max(1)));
    (SabulSender::new(name, cfg, &init), SabulReceiver::new(cfg.receiver_params(), total))
}

/// The SABUL sender.
#[derive(Clone, Debug)]
pub struct SabulSender {
    name: &'static str,
    cfg: SabulConfig,
    send: SendState,
    law: SabulLaw,
    meter: LossMeter,
    ipt_us: f64,
    /// The highest number sent when the current congestion epoch began.
    last_dec_seq: i64,
    /// An epoch has begun and has not decreased the rate yet.
    epoch_armed: bool,
    freeze_pending: bool,
    last_change_decreased: bool,
    /// The sender-clocked rate-control timer (paper formulation).
    syn_timer: Periodic,
    interval_start: Time,
    last_feedback: Time,
    last_interval: Option<SabulInterval>,
}

impl SabulSender {
    pub fn new(name: &'static str, cfg: &SabulConfig, init: &DgInit) -> SabulSender {
        let syn = Time::from_millis(cfg.syn_ms);
        SabulSender {
            name,
            cfg: cfg.clone(),
            send: SendState::new(init),
            law: SabulLaw::new(&cfg.law, syn.as_secs_f64() * 1e6),
            meter: LossMeter::new(cfg.count_rereported_errs, cfg.loss_one_when_errs_exceed_sent),
            ipt_us: cfg.initial_ipt_us,
            last_dec_seq: -1,
            epoch_armed: false,
            freeze_pending: false,
            last_change_decreased: false,
            syn_timer: Periodic::new(syn),
            interval_start: Time::ZERO,
            last_feedback: Time::ZERO,
            last_interval: None,
        }
    }

    /// The inter-packet time, µs.
    pub fn ipt_us(&self) -> f64 {
        self.ipt_us
    }

    /// The last closed rate-control interval (the figures SABUL logs).
    pub fn last_interval(&self) -> Option<&SabulInterval> {
        self.last_interval.as_ref()
    }

    pub fn loss_list(&self) -> &SendLossList {
        &self.send.losses
    }

    fn syn(&self) -> Time {
        self.syn_timer.interval()
    }

    fn window(&self) -> u64 {
        self.cfg.flow_window
    }

    fn start(&mut self, now: Time) {
        if self.send.start(now) {
            self.interval_start = now;
            self.last_feedback = now;
            if !self.cfg.rate_between_syn_arrivals {
                self.syn_timer.start(now);
            }
        }
    }

    /// Applies a law's new IPT. The first ERR-driven decrease of an epoch freezes the sender
    /// (the code sets the freeze in its ERR handler).
    fn set_ipt(&mut self, ipt_us: f64, on_err: bool) {
        let decreased = ipt_us > self.ipt_us;
        if decreased {
            self.send.stats.congestion_events += 1;
            if on_err {
                self.send.stats.err_decreases += 1;
            }
            if on_err && self.epoch_armed {
                self.epoch_armed = false;
                self.freeze_pending = self.cfg.freeze;
            }
        }
        if ipt_us != self.ipt_us {
            self.last_change_decreased = decreased;
        }
        self.ipt_us = ipt_us;
    }

    /// Closes the rate-control interval at `now` and runs the SYN step.
    fn close_interval(&mut self, now: Time) {
        let mut interval = self.meter.close(now, now - self.interval_start, self.send.mss());
        self.interval_start = now;
        let stats = &mut self.send.stats;
        stats.rate_intervals += 1;
        if interval.losses > interval.sent {
            stats.intervals_errs_exceed_sent += 1;
            stats.packets_logged_unsent += interval.counted_sent - interval.sent;
        }
        let ipt = self.law.on_syn(self.ipt_us, interval.loss_rate).clamp(self.cfg.min_ipt_us, self.cfg.max_ipt_us);
        self.set_ipt(ipt, false);
        interval.ipt_us = self.ipt_us;
        self.last_interval = Some(interval);
    }

    fn on_err(&mut self, lost: &[u64]) {
        self.send.stats.loss_reports += 1;
        let Some(&first) = lost.first() else { return };
        let new_epoch = first as i64 > self.last_dec_seq;
        if new_epoch {
            self.last_dec_seq = self.send.curr_seq();
            self.epoch_armed = true;
        }
        self.send.stats.losses_counted += self.meter.on_err(lost, self.send.last_ack());
        for &s in lost {
            self.send.report_lost(s);
        }
        let ipt = self.law.on_err(self.ipt_us, new_epoch);
        self.set_ipt(ipt, true);
    }

    fn exp_deadline(&self) -> Option<Time> {
        (self.send.outstanding() > 0).then(|| self.last_feedback + Time::from_millis(self.cfg.exp_ms))
    }
}

impl DatagramSender for SabulSender {
    fn name(&self) -> &'static str {
        self.name
    }

    fn poll_transmit(&mut self, now: Time) -> Option<DgTransmit> {
        self.start(now);
        if !self.send.ready(now) {
            return None;
        }
        if self.send.outstanding() == 0 {
            // The EXP clock runs from the first outstanding packet.
            self.last_feedback = now;
        }
        let tx = self.send.take_next(self.window())?;
        self.meter.on_sent();
        let mut gap = us_to_time(self.ipt_us);
        if std::mem::take(&mut self.freeze_pending) {
            gap += self.cfg.freeze_ms.map_or(self.syn(), Time::from_millis);
        }
        self.send.pace(now, gap);
        Some(tx)
    }

    fn next_send_time(&self, now: Time) -> Option<Time> {
        self.send.next_send_time(now, self.window())
    }

    fn on_control(&mut self, now: Time, msg: &CtrlMsg) {
        match msg {
            CtrlMsg::Ack { next_expected, .. } => {
                self.last_feedback = now;
                self.send.on_ack(*next_expected);
                self.meter.on_ack(self.send.last_ack());
            }
            CtrlMsg::Nak { lost } => {
                self.last_feedback = now;
                self.on_err(lost);
            }
            CtrlMsg::Syn { .. } if self.cfg.rate_between_syn_arrivals && self.send.started() => {
                self.close_interval(now);
            }
            _ => {}
        }
    }

    fn next_timer(&self) -> Option<Time> {
        if self.send.is_complete() {
            return None;
        }
        earliest([self.syn_timer.deadline(), self.exp_deadline()])
    }

    fn on_timer(&mut self, now: Time) {
        if self.syn_timer.fire(now) {
            self.close_interval(now);
        }
        if self.exp_deadline().is_some_and(|t| now >= t) {
            self.send.requeue_outstanding();
            self.send.stats.timeouts += 1;
            self.last_feedback = now;
        }
    }

    fn stats(&self) -> &DgStats {
        &self.send.stats
    }

    fn snapshot(&self) -> Snapshot {
        let state = if self.freeze_pending {
            "freeze"
        } else if self.last_change_decreased {
            "decrease"
        } else {
            "increase"
        };
        Snapshot {
            cwnd: None,
            ssthresh: None,
            pacing_rate: Some(Rate::from_bytes_per_sec(self.send.mss() as f64 * 1e6 / self.ipt_us)),
            bw_estimate: None,
            min_rtt: None,
            state,
        }
    }

    /// The last closed interval's logged rate ([`SabulInterval::measured_rate`]).
    fn logged_rate(&self) -> Option<Rate> {
        self.last_interval.map(|i| i.measured_rate)
    }

    /// SABUL's sender keeps no RTT estimate (the receiver's `RTT_est` never reaches it).
    fn rtt(&self) -> Option<Time> {
        None
    }

    fn is_complete(&self) -> bool {
        self.send.is_complete()
    }

    fn end_stream(&mut self) {
        self.send.end_stream();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::sabul::gen_c::GenCLawConfig;
    use crate::rng::component_rng;

    fn sender(cfg: SabulConfig) -> SabulSender {
        SabulSender::new("sabul", &cfg, &DgInit { mss: 1000, data_limit: None, rng: component_rng(1, 1) })
    }

    fn us(x: u64) -> Time {
        Time::from_micros(x)
    }

    /// Sends every packet the pacer allows up to `until`; returns the sequence numbers.
    fn send_until(s: &mut SabulSender, until: Time) -> Vec<u64> {
        let mut sent = Vec::new();
        while let Some(t) = s.next_send_time(Time::ZERO).filter(|&t| t <= until) {
            sent.push(s.poll_transmit(t).unwrap().seq);
        }
        sent
    }

    #[test]
    fn the_first_err_decrease_of_an_epoch_freezes_for_one_syn_interval() {
        let law = SabulLawConfig::Code2003(GenCLawConfig::default());
        let mut s = sender(SabulConfig { syn_ms: 10, freeze: true, law, ..SabulConfig::default() });
        assert_eq!(send_until(&mut s, us(40)), vec![0, 1, 2, 3, 4], "one packet per 10 µs");
        s.on_control(us(45), &CtrlMsg::Nak { lost: vec![2] });
        assert_eq!(s.ipt_us(), 11.25, "Gen-C cuts the rate by 1/9 on a new epoch");
        // The retransmission goes first, then the sender waits T + IPT.
        let tx = s.poll_transmit(us(50)).unwrap();
        assert_eq!((tx.seq, tx.is_retransmission), (2, true));
        assert_eq!(s.next_send_time(us(50)), Some(us(50) + Time::from_millis(10) + Time::from_nanos(11_250)));
        // A further ERR of the same epoch (3 ≤ LastDecSeq = 4) neither cuts nor freezes.
        let t = s.next_send_time(us(50)).unwrap();
        s.on_control(t, &CtrlMsg::Nak { lost: vec![3] });
        assert_eq!(s.ipt_us(), 11.25);
        s.poll_transmit(t).unwrap();
        assert_eq!(s.next_send_time(t), Some(t + Time::from_nanos(11_250)));
        assert_eq!(s.stats().congestion_events, 1);
        assert_eq!(s.stats().err_decreases, 1, "the one cut was an ERR's, not the timer's");
    }

    /// `freeze_ms` sets the pause apart from T: with T = 200 ms and a 10 ms freeze (the code's
    /// own SYN interval) the wait after the epoch's first cut is 10 ms + IPT.
    #[test]
    fn a_freeze_of_its_own_length_replaces_t() {
        let law = SabulLawConfig::Code2003(GenCLawConfig::default());
        let mut s = sender(SabulConfig { syn_ms: 200, freeze: true, freeze_ms: Some(10), law, ..SabulConfig::default() });
        send_until(&mut s, us(40));
        s.on_control(us(45), &CtrlMsg::Nak { lost: vec![2] });
        s.poll_transmit(us(50)).unwrap();
        assert_eq!(s.next_send_time(us(50)), Some(us(50) + Time::from_millis(10) + Time::from_nanos(11_250)));
        let bad = SabulConfig { freeze_ms: Some(0), freeze: true, ..SabulConfig::default() };
        assert!(crate::check::Validate::validate(&bad).unwrap_err().starts_with("freeze_ms"));
        let unused = SabulConfig { freeze_ms: Some(10), ..SabulConfig::default() };
        assert!(crate::check::Validate::validate(&unused).unwrap_err().starts_with("freeze_ms"));
    }

    #[test]
    fn the_ipt_is_clamped_on_the_syn_step_only() {
        let mut s = sender(SabulConfig { initial_ipt_us: 1000.0, ..SabulConfig::default() });
        s.poll_transmit(Time::ZERO).unwrap();
        for _ in 0..11 {
            s.on_control(us(100), &CtrlMsg::Nak { lost: vec![0] });
        }
        assert_eq!(s.ipt_us(), 1000.5, "the 11th ERR adds b = 0.5 µs, unclamped");
        assert_eq!(s.next_timer(), Some(Time::from_millis(200)), "the sender's own SYN timer");
        s.on_timer(Time::from_millis(200));
        let i = s.last_interval().unwrap();
        // One packet sent, one loss counted: ρ = 1, a decrease, clamped to 1000 µs.
        assert_eq!((i.sent, i.losses, i.loss_rate, i.ipt_us), (1, 1, 1.0, 1000.0));
        assert_eq!(i.duration, Time::from_millis(200));
    }

    #[test]
    fn exp_requeues_every_unacknowledged_packet_after_a_second_without_feedback() {
        let mut s = sender(SabulConfig::default());
        send_until(&mut s, us(40));
        let mut now = Time::ZERO;
        while s.stats().timeouts == 0 {
            now = s.next_timer().unwrap();
            s.on_timer(now);
        }
        assert_eq!(now, Time::from_secs(1));
        assert_eq!(s.loss_list().len(), 5);
        s.on_control(now, &CtrlMsg::Ack { next_expected: 3, rtt: None, arrival_rate: None, capacity: None });
        assert_eq!(s.loss_list().len(), 2);
        assert_eq!(s.stats().bytes_delivered, 3000);
        assert_eq!(s.ipt_us(), 10.0, "EXP leaves the rate alone");
    }

    /// The run's ERR count (`losses_counted`): the paper's sender counts a number once, the
    /// 2003 code once per report (seed 001: "it can double the apparent error rate").
    #[test]
    fn the_err_count_counts_re_reports_only_in_the_2003_code() {
        for (cfg, counted) in [(SabulConfig::default(), 2), (Sabul2003Config::default().into(), 4)] {
            let mut s = sender(cfg);
            send_until(&mut s, us(40));
            s.on_control(us(45), &CtrlMsg::Nak { lost: vec![1, 2] });
            s.on_control(us(90), &CtrlMsg::Nak { lost: vec![1, 2] });
            assert_eq!(s.stats().losses_counted, counted);
        }
    }

    /// Seed 001 §3: "When the number of packets sent is less than the number of error
    /// packets, SABUL sender sets the loss rate to one", and the rate it logs counts the ERRs
    /// as packets. Three packets sent, then two ERRs re-reporting the same two numbers: four
    /// counted losses against three sent. Only the 2003 code logs the extra packet.
    #[test]
    fn intervals_whose_errs_outnumber_the_packets_sent_are_counted() {
        for (cfg, logged_unsent) in [(SabulConfig::default(), None), (Sabul2003Config::default().into(), Some(1))] {
            let mut s = sender(cfg);
            send_until(&mut s, us(20));
            s.on_control(us(45), &CtrlMsg::Nak { lost: vec![1, 2] });
            s.on_control(us(90), &CtrlMsg::Nak { lost: vec![1, 2] });
            s.on_control(Time::from_millis(150), &CtrlMsg::Syn { received: 1 });
            if s.next_timer() == Some(Time::from_millis(200)) {
                s.on_timer(Time::from_millis(200));
            }
            let (st, i) = (s.stats().clone(), *s.last_interval().unwrap());
            assert_eq!(st.rate_intervals, 1);
            // The rate it logs: the packets counted as sent (four ERRs against three sent in
            // the 2003 code) over the interval, 1000 B each.
            let counted = if logged_unsent.is_some() { 4 } else { 3 };
            assert_eq!(s.logged_rate(), Some(Rate::from_delivery(counted * 1000, i.duration)));
            match logged_unsent {
                Some(n) => {
                    assert_eq!((i.sent, i.losses, i.loss_rate), (3, 4, 1.0));
                    assert_eq!((st.intervals_errs_exceed_sent, st.packets_logged_unsent), (1, n));
                }
                None => assert_eq!((i.losses, st.intervals_errs_exceed_sent, st.packets_logged_unsent), (2, 0, 0)),
            }
        }
    }

    #[test]
    fn the_2003_sender_measures_intervals_between_syn_arrivals() {
        let mut s = sender(Sabul2003Config::default().into());
        send_until(&mut s, us(20));
        assert_eq!(s.next_timer(), Some(Time::from_secs(1)), "no SYN timer of its own, only EXP");
        assert_eq!(s.logged_rate(), None, "nothing logged before the first interval closes");
        s.on_control(Time::from_millis(150), &CtrlMsg::Syn { received: 3 });
        let i = s.last_interval().unwrap();
        assert_eq!((i.sent, i.duration), (3, Time::from_millis(150)));
        // 3 packets of 1000 B in 150 ms.
        assert_eq!(i.measured_rate, Rate::from_bytes_per_sec(20_000.0));
    }
}
