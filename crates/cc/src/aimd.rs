//! The skeleton every Reno-shaped controller shares: slow start, window growth outside
//! recovery, one reduction per congestion episode (loss, or ECN echo), the RFC 5681 loss window
//! of one segment after a timeout. An algorithm supplies only its [`AimdLaw`]: how fast the
//! window grows and how far it falls, plus whatever it needs to observe (bandwidth, RTT, ECN).
//! Reno, Scalable, HighSpeed, H-TCP, Hybla, Westwood+ and DCTCP are such laws. As in every
//! Linux `cong_avoid`, the window grows only while the flow fills it ([`CwndUse`]).

use crate::controller::*;
use crate::units::{Bytes, Rate, Time};
use crate::window::RenoWindow;

/// What differs between AIMD-family algorithms.
pub trait AimdLaw: Clone + Send + 'static {
    type Config;

    /// The command-line name.
    fn name(&self) -> &'static str;

    fn new(cfg: &Self::Config, init: CcInit) -> Self;

    /// Sees every feedback before the window is updated (estimators of bandwidth, RTT, marks).
    /// May end slow start (HyStart sets ssthresh).
    fn observe(&mut self, _w: &mut RenoWindow, _fb: &Feedback, _ctx: &mut Ctx) {}

    /// Congestion-avoidance growth for an ACK of `acked` bytes, in segments per window of
    /// acknowledged data (Reno: 1; the window then grows by `increase·MSS·acked/cwnd`).
    fn increase(&mut self, _w: &RenoWindow, _mss: Bytes, _acked: Bytes, _ctx: &Ctx) -> f64 {
        1.0
    }

    /// The law's own per-ACK window update outside recovery (Linux `cong_avoid`), for laws that
    /// follow their kernel module's per-ACK fixed-point arithmetic; return true when it handled
    /// the ACK (slow start and [`AimdLaw::increase`] are then skipped).
    fn cong_avoid(&mut self, _w: &mut RenoWindow, _acked: Bytes, _mss: Bytes, _ctx: &Ctx) -> bool {
        false
    }
    /// Slow start for `acked` bytes; returns the bytes left for congestion avoidance.
    fn slow_start(&mut self, w: &mut RenoWindow, acked: Bytes, _mss: Bytes, _ctx: &Ctx) -> Bytes {
        w.slow_start(acked)
    }

    /// The new ssthresh at a congestion event (cwnd falls to it if above). Reno: `cwnd/2`
    /// (Linux `tcp_reno_ssthresh`; [`RenoWindow::set_ssthresh`] rounds it down to whole
    /// segments, as Linux counts the window).
    fn ssthresh(&mut self, w: &RenoWindow, _mss: Bytes, _fb: &Feedback, _ctx: &Ctx) -> Bytes {
        w.cwnd / 2
    }

    /// The new ssthresh after a retransmission timeout (cwnd becomes one segment).
    fn ssthresh_after_timeout(&mut self, w: &RenoWindow, _mss: Bytes, _ctx: &Ctx) -> Bytes {
        w.cwnd / 2
    }

    /// The recovery episode ended (Linux `CA_EVENT_COMPLETE_CWR`); the window may be reset.
    fn on_recovery_end(&mut self, _w: &mut RenoWindow, _mss: Bytes, _ctx: &Ctx) {}
    /// The sender transmits with nothing in flight ([`TxStart`]).
    fn on_tx_start(&mut self, _tx: &TxStart, _ctx: &Ctx) {}

    fn fast_recovery(&self) -> FastRecovery {
        FastRecovery::NewReno
    }

    fn needs_ecn(&self) -> bool {
        false
    }

    /// Extra state for traces: a bandwidth estimate and a min-RTT estimate.
    fn estimates(&self) -> (Option<Rate>, Option<Time>) {
        (None, None)
    }
}

/// An AIMD controller driven by its law `L`.
#[derive(Clone, Debug)]
pub struct Aimd<L> {
    pub law: L,
    pub w: RenoWindow,
    mss: Bytes,
    in_recovery: bool,
}

impl<L: AimdLaw> Aimd<L> {
    pub fn new(cfg: &L::Config, init: CcInit) -> Aimd<L> {
        Aimd { law: L::new(cfg, init), w: RenoWindow::new(init.initial_cwnd), mss: init.mss, in_recovery: false }
    }
}

impl<L: AimdLaw> CongestionControl for Aimd<L> {
    fn name(&self) -> &'static str {
        self.law.name()
    }

    fn on_feedback(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        self.law.observe(&mut self.w, fb, ctx);
        if fb.new_episode {
            let ss = self.law.ssthresh(&self.w, self.mss, fb, ctx);
            self.w.set_ssthresh(ss, self.mss);
            self.w.set_cwnd(self.w.cwnd.min(self.w.ssthresh), self.mss);
        }
        if fb.recovery_ended && self.in_recovery {
            self.law.on_recovery_end(&mut self.w, self.mss, ctx);
        }
        self.in_recovery = fb.in_recovery;
        if fb.in_recovery || fb.acked_bytes == 0 || fb.growth_withheld {
            return; // held until the episode ends, and on SACK-only ACKs (tcp_may_raise_cwnd)
        }
        if !self.w.is_cwnd_limited(fb.cwnd_use) {
            return; // every Linux cong_avoid: "RFC2861: only increase cwnd if fully utilized"
        }
        if self.law.cong_avoid(&mut self.w, fb.acked_bytes, self.mss, ctx) {
            return;
        }
        let rest = if self.w.in_slow_start() {
            self.law.slow_start(&mut self.w, fb.acked_bytes, self.mss, ctx)
        } else {
            fb.acked_bytes
        };
        if rest > 0 {
            let a = self.law.increase(&self.w, self.mss, rest, ctx);
            self.w.additive_increase(rest, self.mss, a);
        }
    }

    fn on_tx_start(&mut self, tx: &TxStart, ctx: &mut Ctx) {
        self.law.on_tx_start(tx, ctx);
    }

    fn on_idle_restart(&mut self, restart: &IdleRestart, _ctx: &mut Ctx) {
        self.w.restart_after_idle(restart, self.mss);
    }

    fn on_timeout(&mut self, ctx: &mut Ctx) {
        if !self.in_recovery {
            let ss = self.law.ssthresh_after_timeout(&self.w, self.mss, ctx);
            self.w.set_ssthresh(ss, self.mss);
        }
        self.w.set_cwnd(self.mss, self.mss);
        self.in_recovery = true;
    }

    fn control(&self) -> Control {
        self.w.control(self.mss)
    }

    fn snapshot(&self) -> Snapshot {
        let (bw, min_rtt) = self.law.estimates();
        Snapshot { bw_estimate: bw, min_rtt, ..self.w.snapshot(self.w.state_name(self.in_recovery)) }
    }

    fn fast_recovery(&self) -> FastRecovery {
        self.law.fast_recovery()
    }

    fn needs_ecn(&self) -> bool {
        self.law.needs_ecn()
    }

    fn takes_startup_handover(&self) -> bool {
        true
    }

    /// Congestion avoidance from `cwnd`: ssthresh = cwnd, as a slow-start exit leaves it.
    fn on_startup_handover(&mut self, cwnd: Bytes, _ctx: &mut Ctx) {
        self.w.set_cwnd(cwnd, self.mss);
        self.w.set_ssthresh(self.w.cwnd, self.mss);
        self.in_recovery = false;
    }
}
