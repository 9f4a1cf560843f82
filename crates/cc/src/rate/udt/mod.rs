//! UDT: UDP-based Data Transfer (Gu & Grossman), version 4.11 (spec §2; \[U4\] `core.cpp`
//! `processCtrl`, `packData`, `checkTimers`, `CCUpdate`; `ccc.cpp` `CUDTCC`; \[D03\]).
//!
//! The sender (spec §2.4):
//!
//! - **Sending**: a retransmission (lowest lost number) if the loss list is non-empty,
//!   otherwise a new packet if `outstanding + 1 ≤ min(flow window, ⌊cwnd⌋)`. After new packet
//!   16n the next goes at once (the probe pair), otherwise one `period` later.
//! - **Full ACK** (it carries an RTT): the flow window becomes the receiver's advertised
//!   buffer; an ACK that does not advance the last full ACK stops there. Otherwise
//!   `RTTVar ← (3·RTTVar + |rtt − RTT|)/4`, `RTT ← (7·RTT + rtt)/8`;
//!   `AS ← (7·AS + AS_rcv)/8` and `B ← (7·B + B_rcv)/8` for reported values > 0 (integer
//!   pkt/s, initially 16 and 1); then [`UdtCc::on_ack`].
//! - **Light ACK** (no RTT): the window moves, `flow window −= newly acknowledged`; no CC.
//! - **NAK**: [`UdtCc::on_loss`] first, then the numbers join the loss list and the sender is
//!   rescheduled at once.
//! - **EXP**: restarted by every control message (ExpCount ← 1); it fires after
//!   `max(ExpCount·(RTT + 4·RTTVar) + SYN, ExpCount·300 ms)`. Then, with data to send: if the
//!   loss list is empty, every unacknowledged packet goes on it (go-back-N);
//!   [`UdtCc::on_timeout`]; send at once. ExpCount ← ExpCount + 1.
//!
//! The effective window is `min(flow window, cwnd)` with `cwnd = AS·(RTT + SYN) + 16` from
//! CUDTCC (the flow window W of UDT's papers) and the flow window the receiver's free buffer.
//! The interface's ACK carries no buffer size, so the advertised buffer is `recv_buffer`
//! (8192 packets, UDT's default, as if the application read at once).

pub mod cudtcc;
pub mod receiver;
pub mod rtt;

use crate::rate::send_state::SendState;
use crate::rate::udt::cudtcc::{UdtCc, UdtInputs};
use crate::rate::udt::receiver::{UdtReceiver, UdtReceiverParams};
use crate::rate::udt::rtt::UdtRtt;
use crate::rate::us_to_time;
use crate::controller::Snapshot;
use crate::datagram::{CtrlMsg, DatagramSender, DgInit, DgStats, DgTransmit};
use crate::rng::CcRng;
use crate::units::{Rate, Time};
use serde::{Deserialize, Serialize};

/// `udt`: UDT 4.11. Every field defaults to the 4.11 constant (spec §2.2, §2.5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UdtConfig {
    /// SYN: the rate-control interval and the receiver's ACK timer, ms.
    pub syn_ms: u64,
    /// The MSS in CUDTCC's formulas, bytes (packet size incl. IP/UDP headers).
    pub cc_mss: f64,
    /// The smallest increase, packets per SYN (0.01 in 4.11; 1/1500 up to 4.10).
    pub min_inc: f64,
    /// The period factor of a decrease (rate × 8/9).
    pub decrease_factor: f64,
    /// 4.11 quirk: the decreased period is rounded up to a whole µs.
    pub ceil_period_on_decrease: bool,
    /// NAKs examined per congestion period (`DecCount++ < 5`).
    pub max_decreases_per_period: u32,
    /// The gain of the AvgNAKNum EWMA.
    pub nak_ewma_gain: f64,
    /// Below the last decrease point the spare capacity is capped at B / this.
    pub capacity_cap_divisor: i64,
    /// cwnd at start, packets.
    pub initial_cwnd: f64,
    /// The sending period at start, µs.
    pub initial_period_us: f64,
    /// The constant added to `AS·(RTT + SYN)`, packets.
    pub cwnd_headroom: f64,
    /// 4.11 quirk: leaving slow start on a loss or timeout with AS = 0 sets
    /// `period = cwnd/(RTT + SYN)` (inverted units).
    pub inverted_slow_start_exit: bool,
    /// The negotiated maximum flow window (FlightFlagSize): slow start ends above it.
    pub max_flow_window: u64,
    /// The receiver's buffer, packets: the flow window advertised in full ACKs.
    pub recv_buffer: u64,
    /// RTT and RTTVar at start, ms.
    pub initial_rtt_ms: u64,
    pub initial_rttvar_ms: u64,
    /// The sender's AS and B before the first report, pkt/s.
    pub initial_recv_rate: i64,
    pub initial_bandwidth: i64,
    /// Inter-arrival samples in the receiver's AS filter.
    pub arrival_window: usize,
    /// Pair gaps in the receiver's B filter (64 in 4.11; 16 in \[D03\]).
    pub probe_window: usize,
    /// A probe pair starts every this many packets (0: none).
    pub probe_interval: u64,
    /// A light ACK every this many packets between full ACKs.
    pub light_ack_interval: u64,
    /// The EXP floor per expiration, ms.
    pub min_exp_ms: u64,
}

impl Default for UdtConfig {
    fn default() -> Self {
        UdtConfig {
            syn_ms: 10,
            cc_mss: 1500.0,
            min_inc: 0.01,
            decrease_factor: 1.125,
            ceil_period_on_decrease: true,
            max_decreases_per_period: 5,
            nak_ewma_gain: 0.125,
            capacity_cap_divisor: 9,
            initial_cwnd: 16.0,
            initial_period_us: 1.0,
            cwnd_headroom: 16.0,
            inverted_slow_start_exit: true,
            max_flow_window: 25_600,
            recv_buffer: 8192,
            initial_rtt_ms: 100,
            initial_rttvar_ms: 50,
            initial_recv_rate: 16,
            initial_bandwidth: 1,
            arrival_window: 16,
            probe_window: 64,
            probe_interval: 16,
            light_ack_interval: 64,
            min_exp_ms: 300,
        }
    }
}

/// The `udt` sender and receiver.
pub fn new_pair(cfg: &UdtConfig, init: DgInit) -> (UdtSender, UdtReceiver) {
    let params = UdtReceiverParams {
        syn: Time::from_millis(cfg.syn_ms),
        arrival_window: cfg.arrival_window,
        probe_window: cfg.probe_window,
        probe_interval: cfg.probe_interval,
        light_ack_interval: cfg.light_ack_interval,
        initial_rtt_us: cfg.initial_rtt_ms as i64 * 1000,
        initial_rttvar_us: cfg.initial_rttvar_ms as i64 * 1000,
    };
    let total = init.data_limit.map(|b| b.div_ceil(init.mss.max(1)));
    (UdtSender::new(cfg, init), UdtReceiver::new(params, total))
}

/// The UDT sender.
#[derive(Clone, Debug)]
pub struct UdtSender {
    cfg: UdtConfig,
    send: SendState,
    cc: UdtCc,
    rng: CcRng,
    rtt: UdtRtt,
    recv_rate: i64,
    bandwidth: i64,
    flow_window: i64,
    last_full_ack: u64,
    exp_count: u32,
    last_rsp: Time,
}

impl UdtSender {
    pub fn new(cfg: &UdtConfig, init: DgInit) -> UdtSender {
        UdtSender {
            send: SendState::new(&init),
            cc: UdtCc::new(cfg),
            rng: init.rng,
            rtt: UdtRtt::new(cfg.initial_rtt_ms as i64 * 1000, cfg.initial_rttvar_ms as i64 * 1000),
            recv_rate: cfg.initial_recv_rate,
            bandwidth: cfg.initial_bandwidth,
            flow_window: cfg.max_flow_window as i64,
            last_full_ack: 0,
            exp_count: 1,
            last_rsp: Time::ZERO,
            cfg: cfg.clone(),
        }
    }

    /// CUDTCC's state (period, cwnd, slow start).
    pub fn cc(&self) -> &UdtCc {
        &self.cc
    }

    /// The smoothed arrival rate AS and capacity B, pkt/s.
    pub fn recv_rate(&self) -> i64 {
        self.recv_rate
    }

    pub fn bandwidth(&self) -> i64 {
        self.bandwidth
    }

    /// The effective window: `min(flow window, ⌊cwnd⌋)` packets.
    pub fn window(&self) -> u64 {
        self.flow_window.min(self.cc.cwnd as i64).max(0) as u64
    }

    fn inputs(&self) -> UdtInputs {
        UdtInputs {
            rtt_us: self.rtt.rtt_us as f64,
            recv_rate: self.recv_rate,
            bandwidth: self.bandwidth,
            snd_curr_seq: self.send.curr_seq(),
        }
    }

    fn has_data(&self) -> bool {
        self.send.outstanding() > 0 || self.send.has_new_data()
    }

    fn exp_deadline(&self) -> Option<Time> {
        if !self.send.started() || !self.has_data() {
            return None;
        }
        let n = self.exp_count as i64;
        let us = (n * self.rtt.rto_us() + self.cfg.syn_ms as i64 * 1000).max(0) as u64;
        let interval = Time::from_micros(us).max(Time::from_millis(self.cfg.min_exp_ms * n as u64));
        Some(self.last_rsp + interval)
    }

    fn on_full_ack(&mut self, now: Time, ack: u64, rtt: Time, arrival_rate: Option<f64>, capacity: Option<f64>) {
        self.send.on_ack(ack);
        self.flow_window = self.cfg.recv_buffer as i64;
        if ack <= self.last_full_ack {
            return;
        }
        self.last_full_ack = ack;
        let sample = (rtt.as_nanos() / 1000) as i64;
        self.rtt.on_sample(sample);
        if let Some(r) = arrival_rate.filter(|&r| r > 0.0) {
            self.recv_rate = (7 * self.recv_rate + r as i64) >> 3;
        }
        if let Some(b) = capacity.filter(|&b| b > 0.0) {
            self.bandwidth = (7 * self.bandwidth + b as i64) >> 3;
        }
        let x = self.inputs();
        self.cc.on_ack(now, ack, &x);
    }
}

impl DatagramSender for UdtSender {
    fn name(&self) -> &'static str {
        "udt"
    }

    fn poll_transmit(&mut self, now: Time) -> Option<DgTransmit> {
        if self.send.start(now) {
            self.cc.start(now);
            self.last_rsp = now;
        }
        if !self.send.ready(now) {
            return None;
        }
        let tx = self.send.take_next(self.window())?;
        let k = self.cfg.probe_interval;
        let probe = !tx.is_retransmission && k > 0 && tx.seq % k == 0;
        let gap = if probe { Time::ZERO } else { us_to_time(self.cc.period) };
        self.send.pace(now, gap);
        Some(tx)
    }

    fn next_send_time(&self, now: Time) -> Option<Time> {
        self.send.next_send_time(now, self.window())
    }

    fn on_control(&mut self, now: Time, msg: &CtrlMsg) {
        self.last_rsp = now;
        self.exp_count = 1;
        match msg {
            CtrlMsg::Ack { next_expected, rtt: None, .. } => {
                let newly = self.send.on_ack(*next_expected);
                self.flow_window -= newly as i64;
            }
            CtrlMsg::Ack { next_expected, rtt: Some(rtt), arrival_rate, capacity } => {
                self.on_full_ack(now, *next_expected, *rtt, *arrival_rate, *capacity);
            }
            CtrlMsg::Nak { lost } => {
                self.send.stats.loss_reports += 1;
                let x = self.inputs();
                if self.cc.on_loss(lost, &x, &mut self.rng) {
                    self.send.stats.congestion_events += 1;
                }
                for &s in lost {
                    self.send.report_lost(s);
                }
                self.send.send_now(now);
            }
            _ => {}
        }
    }

    fn next_timer(&self) -> Option<Time> {
        self.exp_deadline()
    }

    fn on_timer(&mut self, now: Time) {
        if self.exp_deadline().filter(|&t| now >= t).is_none() {
            return;
        }
        if self.send.outstanding() > 0 && self.send.losses.is_empty() {
            self.send.requeue_outstanding();
        }
        let x = self.inputs();
        self.cc.on_timeout(&x);
        self.send.stats.timeouts += 1;
        self.send.send_now(now);
        self.exp_count += 1;
        self.last_rsp = now;
    }

    fn stats(&self) -> &DgStats {
        &self.send.stats
    }

    fn snapshot(&self) -> Snapshot {
        let mss = self.send.mss();
        Snapshot {
            cwnd: Some(self.window() * mss),
            ssthresh: None,
            pacing_rate: Some(Rate::from_bytes_per_sec(mss as f64 * 1e6 / self.cc.period)),
            bw_estimate: Some(Rate::from_bytes_per_sec((self.bandwidth.max(0) as u64 * mss) as f64)),
            min_rtt: None,
            state: if self.cc.in_slow_start() { "slow_start" } else { "cong_avoid" },
        }
    }

    fn rtt(&self) -> Option<Time> {
        Some(self.rtt.rtt())
    }

    fn is_complete(&self) -> bool {
        self.send.is_complete()
    }

    fn end_stream(&mut self) {
        self.send.end_stream();
    }
}

/// UDT 4.11's constants as ranges: timers of 1 ms to an hour, a decrease that divides the rate
/// (factor above 1), a fractional EWMA gain, positive rates, and filter windows bounded in memory.
impl crate::check::Validate for UdtConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        within("syn_ms", self.syn_ms, 1..=3_600_000)?;
        within("cc_mss", self.cc_mss, above(0.0, 65_535.0))?;
        within("min_inc", self.min_inc, 0.0..=1e6)?;
        within("decrease_factor", self.decrease_factor, above(1.0, 1e3))?;
        within("max_decreases_per_period", self.max_decreases_per_period, 1..=1_000_000)?;
        within("nak_ewma_gain", self.nak_ewma_gain, above(0.0, 1.0))?;
        within("capacity_cap_divisor", self.capacity_cap_divisor, 1..=1_000_000)?;
        within("initial_cwnd", self.initial_cwnd, above(0.0, 1e9))?;
        within("initial_period_us", self.initial_period_us, above(0.0, 1e9))?;
        within("cwnd_headroom", self.cwnd_headroom, 0.0..=1e9)?;
        within("max_flow_window", self.max_flow_window, 1..=10_000_000)?;
        within("recv_buffer", self.recv_buffer, 1..=10_000_000)?;
        within("initial_rtt_ms", self.initial_rtt_ms, 1..=3_600_000)?;
        within("initial_rttvar_ms", self.initial_rttvar_ms, 0..=3_600_000)?;
        within("initial_recv_rate", self.initial_recv_rate, 1..=1_000_000_000)?;
        within("initial_bandwidth", self.initial_bandwidth, 1..=1_000_000_000)?;
        within("arrival_window", self.arrival_window, 1..=100_000)?;
        within("probe_window", self.probe_window, 1..=100_000)?;
        within("probe_interval", self.probe_interval, 0..=1_000_000)?;
        within("light_ack_interval", self.light_ack_interval, 1..=1_000_000)?;
        within("min_exp_ms", self.min_exp_ms, 1..=3_600_000)
    }
}
