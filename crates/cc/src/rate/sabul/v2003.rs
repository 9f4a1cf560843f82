//! `sabul-2003`: SABUL as the 2003 code counts (spec §1.2, §1.4 Gen-C's SC_SYN estimator;
//! \[S-code\] `sender.cpp` `processFeedback`), the behaviour the seed analyses (\[OVV04\] §3).
//!
//! The rate law and its constants are `sabul`'s (the seed ascribes the erratic rate "not to
//! the congestion control algorithm but to the implementation"). The implementation differs:
//! the code's freeze (a pause of one SYN interval after the first ERR-driven decrease of a
//! congestion epoch, spec §1.3) is on, and so are the three bookkeeping flaws:
//!
//! 1. ERR reports are counted again when the receiver re-reports them (every ERR adds its
//!    length n to `LocalERR`): losses that outlive `RTT_est` are counted once per re-report.
//! 2. `SentInInterval ← max(SentInInterval, LocalERR)`: the loss rate is 1 when ERRs exceed
//!    packets sent, and the logged rate then counts ERRs as packets.
//! 3. The interval is measured between SYN arrivals: its length moves with the control
//!    channel's delay, while `LocalERR` does not shrink with it.
//!
//! The 2003 code's own law (Gen-C, T = 10 ms) is `law = { generation = "code-2003" }` with
//! `syn_ms = 10`.

use crate::rate::sabul::{build_pair, Sabul2003Config, SabulConfig, SabulSender};
use crate::rate::sabul::receiver::SabulReceiver;
use crate::datagram::DgInit;

impl Default for Sabul2003Config {
    fn default() -> Self {
        SabulConfig {
            freeze: true,
            count_rereported_errs: true,
            loss_one_when_errs_exceed_sent: true,
            rate_between_syn_arrivals: true,
            ..SabulConfig::default()
        }
        .into()
    }
}

/// The `sabul-2003` sender and receiver.
pub fn new_pair(cfg: &Sabul2003Config, init: DgInit) -> (SabulSender, SabulReceiver) {
    build_pair("sabul-2003", &cfg.clone().into(), init)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_presets_differ_only_in_the_implementation_switches() {
        let paper = SabulConfig::default();
        let code: SabulConfig = Sabul2003Config::default().into();
        assert!(code.count_rereported_errs && code.loss_one_when_errs_exceed_sent && code.rate_between_syn_arrivals);
        assert!(
            !paper.count_rereported_errs && !paper.loss_one_when_errs_exceed_sent && !paper.rate_between_syn_arrivals
        );
        assert!(code.freeze && !paper.freeze);
        let relabelled = SabulConfig {
            freeze: false,
            count_rereported_errs: false,
            loss_one_when_errs_exceed_sent: false,
            rate_between_syn_arrivals: false,
            ..code
        };
        assert_eq!(relabelled, paper);
    }
}
