//! `none`: TCP SACK without congestion control, the TCP-SACK seed's SACKEXP.
//!
//! Source: R. Kempter, B. Xin, S. Kumar Kasera, "Towards a Composable Transport Protocol: TCP
//! without Congestion Control", SIGCOMM 2004 poster, and the seed talk "TCP/IP Over Lossy Links"
//! (`shared/seeds/003_*`). A TCP sender's window is `win = min(cwnd, awnd, bwnd)`; SACKEXP drops
//! the congestion window: `win = min(bwnd, awnd)`. There is no window to reduce on loss, so the
//! sender is limited only by the receiver's advertised window (awnd) and by how fast its own
//! link and the ACK clock let it send (bwnd). SACK recovery, not congestion control, repairs
//! losses. Without SACK this flavour "performs poorly" (the seed): every loss stalls the
//! cumulative ACK.

use crate::controller::*;
use crate::units::Bytes;
use serde::{Deserialize, Serialize};

/// SACKEXP has no parameters: its only limits are the receiver window and the link.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoneConfig {}

#[derive(Clone, Debug)]
pub struct Sackexp {
    mss: Bytes,
    in_recovery: bool,
}

impl Sackexp {
    pub fn new(_cfg: &NoneConfig, init: CcInit) -> Sackexp {
        Sackexp { mss: init.mss, in_recovery: false }
    }
}

impl CongestionControl for Sackexp {
    fn name(&self) -> &'static str {
        "none"
    }
    fn on_feedback(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
        self.in_recovery = fb.in_recovery;
    }
    fn control(&self) -> Control {
        Control { cwnd: None, pacing_rate: None, quantum: self.mss }
    }
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            cwnd: None,
            ssthresh: None,
            pacing_rate: None,
            bw_estimate: None,
            min_rtt: None,
            state: if self.in_recovery { "recovery" } else { "open" },
        }
    }
}


/// No parameters, so nothing to range-check.
impl crate::check::Validate for NoneConfig {
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    #[test]
    fn no_congestion_window_whatever_the_feedback() {
        let mut cc = Sackexp::new(&NoneConfig::default(), init(10 * MSS));
        let mut h = Harness::new();
        h.ack_rounds(&mut cc, 3);
        h.loss(&mut cc, true);
        h.timeout(&mut cc);
        assert_eq!(cc.control().cwnd, None);
        assert_eq!(cc.control().pacing_rate, None);
    }
}
