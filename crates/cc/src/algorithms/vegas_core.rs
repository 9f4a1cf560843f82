//! What the delay-based controllers share.
//!
//! - [`VegasRtt`]: the Vegas family's RTT bookkeeping (Linux `tcp_vegas.c`,
//!   `tcp_vegas_pkts_acked`): `base_rtt`, the smallest RTT ever seen (the propagation delay),
//!   and `min_rtt`, the smallest RTT of the current round (propagation plus queueing delay,
//!   the minimum filtering out delayed-ACK noise), with `cnt_rtt`, the round's sample count.
//!   Vegas, modified Vegas, Veno, YeAH and Compound TCP keep it.
//! - [`RoundRtt`]: one round's `(base_rtt, rtt)` and the two Vegas estimates made from it:
//!   `target_cwnd = cwnd·base_rtt/rtt`, the window that the actual rate would need without
//!   queueing, and the backlog `diff = cwnd − target_cwnd = cwnd·(rtt − base_rtt)/rtt`, the
//!   packets this flow keeps in the bottleneck queue (Vegas's Diff, Veno's N, YeAH's Q,
//!   Compound's diff). Brakmo & Peterson define `Diff = (Expected − Actual)·BaseRTT` with
//!   `Expected = cwnd/BaseRTT` and `Actual = cwnd/RTT`, which is this. Linux `tcp_vegas.c`
//!   (2.6.x to today, and the 3.13 module the Vegas seed modified) divides by `baseRTT`
//!   instead: [`RoundRtt::linux_diff`], `cwnd·(rtt − base_rtt)/base_rtt`, larger by the factor
//!   `rtt/base_rtt`. The two agree while the queueing delay is small against the base RTT;
//!   where the RTT's noise is as large as the RTT itself (two virtual machines on one host,
//!   0.1-0.3 ms apart) Linux's diff is up to twice or more the paper's, and Vegas and mVegas,
//!   which reproduce Linux's modules, use Linux's.
//! - [`Shell`]: the Reno-shaped frame around every window-based law here: one reduction per
//!   congestion episode (`cwnd = ssthresh`, held until the recovery point, which is what
//!   Linux's PRR converges to), one segment after a timeout, and Linux's congestion-avoidance
//!   state as the modules see it through `set_state` (Open, Recovery/CWR, Loss).
//! - [`VegasCore`] and [`VegasFamily`]: Vegas's once-per-round skeleton
//!   (`tcp_vegas_cong_avoid` without its decision) and the controller around it, which
//!   `vegas` and `mvegas` complete with their own [`VegasLaw`].

use crate::controller::*;
use crate::rng::CcRng;
use crate::round::RoundCounter;
use crate::units::{Bytes, Time};
use crate::window::RenoWindow;

/// Linux's Vegas modules decide only after more than two RTT samples in a round: with two or
/// fewer, the ACKs are probably delayed and the samples unreliable ("If we have 3 samples, we
/// should be OK").
pub(crate) const MIN_ROUND_SAMPLES: u32 = 3;

/// Per-round RTT bookkeeping of the Vegas family.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VegasRtt {
    /// Minimum RTT over the connection (Linux `baseRTT`).
    pub base_rtt: Option<Time>,
    /// Minimum RTT of the current round (Linux `minRTT`).
    pub min_rtt: Option<Time>,
    /// RTT samples in the current round (Linux `cntRTT`).
    pub cnt_rtt: u32,
}

impl VegasRtt {
    /// One RTT sample (Linux keeps `rtt + 1 µs` so that no RTT is zero; here the floor is 1 ns).
    pub fn on_sample(&mut self, sample: Option<Time>) {
        let Some(rtt) = sample else { return };
        let rtt = rtt.max(Time(1));
        self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
        self.cnt_rtt += 1;
    }

    /// `vegas_enable`: a clean slate for the round, keeping `base_rtt`.
    pub fn restart(&mut self) {
        self.min_rtt = None;
        self.cnt_rtt = 0;
    }

    /// Ends the round: its `(base_rtt, min_rtt)` if it had at least `min_samples` samples, and
    /// a clean slate for the next round either way.
    pub fn end_round(&mut self, min_samples: u32) -> Option<RoundRtt> {
        let enough = self.cnt_rtt >= min_samples;
        let r = self.base_rtt.zip(self.min_rtt).map(|(base_rtt, rtt)| RoundRtt { base_rtt, rtt });
        self.restart();
        r.filter(|_| enough)
    }
}

/// One round's RTTs and the Vegas estimates made from them.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RoundRtt {
    pub base_rtt: Time,
    /// The round's minimum RTT.
    pub rtt: Time,
}

impl RoundRtt {
    /// `cwnd·(rtt − base_rtt)/rtt`: the packets of a `cwnd`-packet window queued at the
    /// bottleneck.
    pub fn backlog(&self, cwnd_pkts: f64) -> f64 {
        let queueing = self.rtt.saturating_sub(self.base_rtt).as_nanos() as f64;
        cwnd_pkts * queueing / self.rtt.as_nanos().max(1) as f64
    }

    /// Linux `tcp_vegas_cong_avoid`'s `diff = snd_cwnd·(rtt − baseRTT)/baseRTT`: the backlog
    /// measured against the base RTT rather than the round's (see the module doc).
    pub fn linux_diff(&self, cwnd_pkts: f64) -> f64 {
        let queueing = self.rtt.saturating_sub(self.base_rtt).as_nanos() as f64;
        cwnd_pkts * queueing / self.base_rtt.as_nanos().max(1) as f64
    }

    /// `⌊cwnd·base_rtt/rtt⌋`: the window that sends at the actual rate with an empty queue.
    pub fn target_cwnd(&self, cwnd_pkts: u64) -> u64 {
        (cwnd_pkts as u128 * self.base_rtt.as_nanos() as u128 / self.rtt.as_nanos().max(1) as u128) as u64
    }

    /// Queueing delay `rtt − base_rtt`.
    pub fn queueing_delay(&self) -> Time {
        self.rtt.saturating_sub(self.base_rtt)
    }
}

/// Makes the next round start with the first acknowledgement of data sent after `fb` (Linux
/// `beg_snd_nxt = snd_nxt` when the module restarts its measurements).
pub(crate) fn restart_round(round: &mut RoundCounter, fb: &Feedback) {
    let mark = Feedback { acked_packets: 1, prior_delivered: Bytes::MAX, delivered: fb.delivered, ..Feedback::default() };
    round.on_feedback(&mark);
}

/// Where the sender is, as the Linux modules see it through `set_state`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Fast recovery or an ECN window reduction (`TCP_CA_Recovery`, `TCP_CA_CWR`): the window
    /// is held at ssthresh.
    Recovery,
    /// After a retransmission timeout until its recovery point is acknowledged
    /// (`TCP_CA_Loss`): slow start from one segment.
    Loss,
    /// `TCP_CA_Open`; `reopened` on the first acknowledgement after an episode ended, when the
    /// Vegas-family modules restart their measurements.
    Open { reopened: bool },
}

/// cwnd and ssthresh with Reno's loss handling around a controller's own law.
#[derive(Clone, Debug, PartialEq)]
pub struct Shell {
    pub w: RenoWindow,
    pub mss: Bytes,
    in_recovery: bool,
    in_loss: bool,
}

impl Shell {
    pub fn new(init: CcInit) -> Shell {
        Shell { w: RenoWindow::new(init.initial_cwnd), mss: init.mss, in_recovery: false, in_loss: false }
    }

    /// cwnd in whole segments, as the Linux modules count it.
    pub fn cwnd_pkts(&self) -> u64 {
        self.w.cwnd / self.mss
    }

    pub fn set_cwnd_pkts(&mut self, pkts: u64) {
        self.w.set_cwnd(pkts * self.mss, self.mss);
    }

    /// ssthresh in whole segments (`u64::MAX / mss` before the first reduction).
    pub fn ssthresh_pkts(&self) -> u64 {
        self.w.ssthresh / self.mss
    }

    /// Sets ssthresh (at least two segments); a value of `ssthresh_pkts()` before the first
    /// reduction keeps it infinite.
    pub fn set_ssthresh_pkts(&mut self, pkts: u64) {
        if pkts >= Bytes::MAX / self.mss {
            self.w.ssthresh = Bytes::MAX;
        } else {
            self.w.set_ssthresh(pkts * self.mss, self.mss);
        }
    }

    /// ssthresh has never been set (Linux `TCP_INFINITE_SSTHRESH`).
    pub fn ssthresh_is_infinite(&self) -> bool {
        self.w.ssthresh == Bytes::MAX
    }

    pub fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    /// A new congestion episode: `ssthresh = max(ssthresh_pkts, 2)` segments and cwnd follows.
    pub fn reduce_to(&mut self, ssthresh_pkts: u64) {
        self.set_ssthresh_pkts(ssthresh_pkts);
        self.w.set_cwnd(self.w.ssthresh, self.mss);
        self.in_recovery = true;
    }

    /// Restart after idle ([`RenoWindow::restart_after_idle`], Linux `tcp_cwnd_restart`).
    pub fn restart_after_idle(&mut self, restart: &IdleRestart) {
        self.w.restart_after_idle(restart, self.mss);
    }

    /// A retransmission timeout: `ssthresh_pkts` (computed only when the timeout opens the
    /// episode, RFC 5681 and Linux `tcp_enter_loss`), then a loss window of one segment.
    pub fn timeout(&mut self, ssthresh_pkts: Option<u64>) {
        if let Some(ss) = ssthresh_pkts {
            self.set_ssthresh_pkts(ss);
        }
        self.w.set_cwnd(self.mss, self.mss);
        self.in_recovery = true;
        self.in_loss = true;
    }

    /// Follows the sender's recovery state through one acknowledgement.
    pub fn phase(&mut self, fb: &Feedback) -> Phase {
        let was_open = !self.in_recovery && !self.in_loss;
        if fb.recovery_ended {
            self.in_loss = false;
        }
        self.in_recovery = fb.in_recovery;
        if self.in_recovery {
            Phase::Recovery
        } else if self.in_loss {
            Phase::Loss
        } else {
            Phase::Open { reopened: !was_open }
        }
    }

    /// "recovery", "loss" or "slow_start", else the controller's own congestion-avoidance name.
    pub fn state_or(&self, cong_avoid: &'static str) -> &'static str {
        if self.in_recovery {
            "recovery"
        } else if self.in_loss {
            "loss"
        } else if self.w.in_slow_start() {
            "slow_start"
        } else {
            cong_avoid
        }
    }

    pub fn control(&self) -> Control {
        self.w.control(self.mss)
    }

    pub fn snapshot(&self, state: &'static str, base_rtt: Option<Time>) -> Snapshot {
        Snapshot { min_rtt: base_rtt, ..self.w.snapshot(state) }
    }
}

/// What [`VegasCore::step`] leaves to the control law for one acknowledgement.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Step {
    /// Nothing to do (recovery, or congestion avoidance between two round ends).
    Hold,
    /// Reno's increase: after a timeout, or at a round end with too few RTT samples.
    Reno,
    /// Slow start between two round ends.
    SlowStart,
    /// A round ended with enough samples: the once-per-RTT decision.
    Evaluate(RoundRtt),
}

/// Vegas's once-per-round skeleton (Linux `tcp_vegas_cong_avoid` and its state hooks).
#[derive(Clone, Debug, PartialEq)]
pub struct VegasCore {
    pub shell: Shell,
    pub rtt: VegasRtt,
    round: RoundCounter,
    /// The last once-per-round decision, for traces.
    pub decision: &'static str,
}

impl VegasCore {
    pub fn new(init: CcInit) -> VegasCore {
        VegasCore { shell: Shell::new(init), rtt: VegasRtt::default(), round: RoundCounter::default(), decision: "reno" }
    }

    /// Rounds started so far.
    #[cfg(test)]
    pub fn rounds(&self) -> u64 {
        self.round.count
    }

    /// Takes the RTT sample, follows the recovery state and says what the law must do.
    pub fn step(&mut self, fb: &Feedback) -> Step {
        self.rtt.on_sample(fb.rtt_sample);
        match self.shell.phase(fb) {
            Phase::Recovery => return Step::Hold,
            Phase::Loss => return Self::reno(fb, &self.shell.w),
            Phase::Open { reopened: true } => {
                self.rtt.restart();
                restart_round(&mut self.round, fb);
            }
            Phase::Open { reopened: false } => {}
        }
        if fb.growth_withheld {
            return Step::Hold; // tcp_vegas_cong_avoid is not called (tcp_may_raise_cwnd)
        }
        if self.round.on_feedback(fb) {
            match self.rtt.end_round(MIN_ROUND_SAMPLES) {
                Some(r) => Step::Evaluate(r),
                None => {
                    self.decision = "reno";
                    Self::reno(fb, &self.shell.w)
                }
            }
        } else if self.shell.w.in_slow_start() {
            Step::SlowStart
        } else {
            Step::Hold
        }
    }

    /// `tcp_reno_cong_avoid`, which Vegas calls when it is off or short of samples: it grows
    /// only a window the flow fills (`tcp_is_cwnd_limited`). Vegas's own slow start and its
    /// once-per-round decisions have no such test in Linux.
    fn reno(fb: &Feedback, w: &RenoWindow) -> Step {
        if w.is_cwnd_limited(fb.cwnd_use) {
            Step::Reno
        } else {
            Step::Hold
        }
    }

    /// Carries out the steps that are the same for every Vegas law.
    pub fn follow(&mut self, step: Step, acked: Bytes) {
        match step {
            Step::Reno => self.shell.w.reno_increase(acked, self.shell.mss),
            Step::SlowStart => {
                self.shell.w.slow_start(acked);
            }
            Step::Hold | Step::Evaluate(_) => {}
        }
    }

    /// Leaves slow start for the window that the actual rate needs:
    /// `cwnd = min(cwnd, target_cwnd + 1)` (the `+ 1` makes up for the truncation), and
    /// `ssthresh = min(ssthresh, cwnd)`.
    pub fn exit_slow_start(&mut self, target_cwnd: u64) {
        let cwnd = self.shell.cwnd_pkts().min(target_cwnd + 1);
        self.shell.set_cwnd_pkts(cwnd);
        self.lower_ssthresh_to_cwnd();
        self.decision = "exit_slow_start";
    }

    /// One packet more for the next round.
    pub fn increase(&mut self) {
        self.shell.set_cwnd_pkts(self.shell.cwnd_pkts() + 1);
        self.decision = "increase";
    }

    /// One packet less for the next round, and `ssthresh = min(ssthresh, cwnd)`.
    pub fn decrease(&mut self) {
        self.shell.set_cwnd_pkts(self.shell.cwnd_pkts().saturating_sub(1));
        self.lower_ssthresh_to_cwnd();
        self.decision = "decrease";
    }

    pub fn hold(&mut self) {
        self.decision = "hold";
    }

    fn lower_ssthresh_to_cwnd(&mut self) {
        let ss = self.shell.ssthresh_pkts().min(self.shell.cwnd_pkts());
        self.shell.set_ssthresh_pkts(ss);
    }

    /// After a decision: cwnd at least two segments, and ssthresh at least 3/4 of cwnd (Linux
    /// `tcp_current_ssthresh`).
    pub fn finish_round(&mut self) {
        let cwnd = self.shell.cwnd_pkts().max(2);
        self.shell.set_cwnd_pkts(cwnd);
        let ss = self.shell.ssthresh_pkts().max((cwnd >> 1) + (cwnd >> 2));
        self.shell.set_ssthresh_pkts(ss);
    }

    /// Loss, timeout and trace handling as Reno, which the Vegas modules keep
    /// (`tcp_reno_ssthresh`): the congestion signal halves cwnd.
    pub fn on_loss(&mut self, fb: &Feedback) {
        if fb.new_episode {
            self.shell.reduce_to(self.shell.cwnd_pkts() / 2);
        }
    }

    pub fn on_timeout(&mut self) {
        let ss = (!self.shell.in_recovery()).then(|| self.shell.cwnd_pkts() / 2);
        self.shell.timeout(ss);
    }

    pub fn snapshot(&self) -> Snapshot {
        self.shell.snapshot(self.shell.state_or(self.decision), self.rtt.base_rtt)
    }
}

/// A Vegas-family control law: what to do once per round when the RTT samples suffice.
pub trait VegasLaw: Clone + std::fmt::Debug + Send + 'static {
    type Config: Clone;
    /// The command-line name.
    const NAME: &'static str;
    fn new(cfg: &Self::Config) -> Self;
    /// The decision on round `r` for an acknowledgement of `acked` bytes; it ends with
    /// [`VegasCore::finish_round`].
    fn decide(&mut self, core: &mut VegasCore, r: RoundRtt, acked: Bytes, rng: &mut CcRng);
}

/// A Vegas-family controller: the shared skeleton and a law.
#[derive(Clone, Debug)]
pub struct VegasFamily<L> {
    pub(crate) law: L,
    pub(crate) core: VegasCore,
}

impl<L: VegasLaw> VegasFamily<L> {
    pub fn new(cfg: &L::Config, init: CcInit) -> VegasFamily<L> {
        VegasFamily { law: L::new(cfg), core: VegasCore::new(init) }
    }
}

impl<L: VegasLaw> CongestionControl for VegasFamily<L> {
    fn name(&self) -> &'static str {
        L::NAME
    }
    fn on_loss(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
        self.core.on_loss(fb);
    }
    fn on_ack(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        match self.core.step(fb) {
            Step::Evaluate(r) => self.law.decide(&mut self.core, r, fb.acked_bytes, ctx.rng),
            step => self.core.follow(step, fb.acked_bytes),
        }
    }
    fn on_timeout(&mut self, _ctx: &mut Ctx) {
        self.core.on_timeout();
    }
    fn on_idle_restart(&mut self, restart: &IdleRestart, _ctx: &mut Ctx) {
        self.core.shell.restart_after_idle(restart);
    }
    /// `tcp_vegas_cwnd_event`: `tcp_vegas_init` on `CA_EVENT_TX_START` (and on
    /// `CA_EVENT_CWND_RESTART`, which the sender always follows with TX_START, so this one hook
    /// covers both): base RTT and the round's samples start afresh whenever a segment leaves
    /// with nothing in flight, after idle or an RTO among others (every segment out then counts
    /// as lost).
    fn on_tx_start(&mut self, _tx: &TxStart, _ctx: &mut Ctx) {
        self.core.rtt = VegasRtt::default();
    }
    fn control(&self) -> Control {
        self.core.shell.control()
    }
    fn snapshot(&self) -> Snapshot {
        self.core.snapshot()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backlog_and_target_follow_the_vegas_definitions() {
        // 100 packets, 100 ms base, 125 ms now: Expected = 1000/s, Actual = 800/s,
        // Diff = (1000 − 800)·0.1 s = 20 packets; target = 80 packets.
        let r = RoundRtt { base_rtt: Time::from_millis(100), rtt: Time::from_millis(125) };
        assert!((r.backlog(100.0) - 20.0).abs() < 1e-9);
        assert_eq!(r.target_cwnd(100), 80);
        assert_eq!(r.queueing_delay(), Time::from_millis(25));
        // Linux: 100·25/100 = 25 packets, the paper's 20 times rtt/base_rtt = 1.25.
        assert!((r.linux_diff(100.0) - 25.0).abs() < 1e-9);
    }

    #[test]
    fn a_round_needs_three_samples_and_keeps_its_minimum() {
        let mut v = VegasRtt::default();
        v.on_sample(Some(Time::from_millis(120)));
        v.on_sample(Some(Time::from_millis(110)));
        assert_eq!(v.end_round(MIN_ROUND_SAMPLES), None);
        for ms in [130, 115, 140] {
            v.on_sample(Some(Time::from_millis(ms)));
        }
        let r = v.end_round(MIN_ROUND_SAMPLES).unwrap();
        assert_eq!(r.rtt, Time::from_millis(115));
        assert_eq!(r.base_rtt, Time::from_millis(110));
        assert_eq!(v.cnt_rtt, 0);
    }

    #[test]
    fn restart_round_waits_for_data_sent_afterwards() {
        let mut round = RoundCounter::default();
        let mut fb = Feedback { acked_packets: 1, delivered: 50, ..Feedback::default() };
        restart_round(&mut round, &fb);
        fb.prior_delivered = 49;
        fb.delivered = 51;
        assert!(!round.on_feedback(&fb));
        fb.prior_delivered = 50;
        fb.delivered = 52;
        assert!(round.on_feedback(&fb));
    }
}
