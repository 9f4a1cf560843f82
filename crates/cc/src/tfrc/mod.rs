//! TFRC, TCP-Friendly Rate Control (RFC 5348), and a constant-bit-rate source: the talk's
//! "non-TCP-compatible" and "unresponsive" flows, as datagram transports
//! ([`crate::datagram`]).
//!
//! TFRC sends at a rate `X` set by the TCP throughput equation `T = f(p)` (Padhye et al.,
//! SIGCOMM 1998; RFC 5348 §3.1):
//!
//! `X = s / (R·√(2bp/3) + t_RTO·(3·√(3bp/8))·p·(1 + 32p²))`, `b = 1`, `t_RTO = 4R`,
//!
//! from the loss event rate `p` the receiver measures (§5: `p = 1/I_mean`, the weighted mean of
//! the last 8 loss intervals) and the RTT `R` the sender measures from the receiver's reports
//! (§4.3: `R = q·R + (1 − q)·R_sample`, `q = 0.9`). The receiver reports `(t_recvdata, t_delay,
//! X_recv, p)` once per RTT (§6) as [`CtrlMsg::TfrcReport`](crate::datagram::CtrlMsg); until it
//! reports a loss the sender doubles `X` once per RTT (slow start, §4.3), and always
//! `X ≤ 2·X_recv`, `X ≥ s/t_mbi`, `t_mbi = 64 s`. Without reports for `max(4R, 2s/X)` the sender
//! halves its rate (§4.4). TFRC never retransmits: goodput is the distinct packets delivered.
//!
//! Files: [`equation`] (the equation and its inverse), [`loss_history`] (loss events, loss
//! intervals, `p`), [`receiver`] (`X_recv`, feedback), [`recv_set`] (`X_recv_set`), [`sender`]
//! (RTT, slow start, the rate, the nofeedback timer, packet spacing), [`config`]
//! ([`TfrcConfig`]: every constant, RFC 5348's values by default). The receiver's count of
//! distinct packets is [`crate::seen`], shared with the constant-bit-rate pair
//! ([`crate::cbr`]).

pub mod config;
pub mod equation;
pub mod loss_history;
pub mod receiver;
pub mod recv_set;
pub mod sender;

pub use config::TfrcConfig;
pub use equation::Equation;
pub use receiver::TfrcReceiver;
pub use sender::TfrcSender;

use crate::datagram::DgInit;

/// The TFRC pair for `tfrc`. TFRC uses no randomness: `init.rng` is unused.
pub fn new_pair(cfg: &TfrcConfig, init: DgInit) -> (TfrcSender, TfrcReceiver) {
    (TfrcSender::new(cfg, init.mss, init.data_limit), TfrcReceiver::new(cfg, init.mss))
}
