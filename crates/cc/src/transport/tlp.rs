//! Tail Loss Probes (RFC 8985 §7; Linux `tcp_schedule_loss_probe`, `tcp_send_loss_probe` in
//! net/ipv4/tcp_output.c and `tcp_process_tlp_ack` in tcp_input.c).
//!
//! RACK finds a loss only when a segment sent later is delivered; when the last segments of a
//! flight are lost (or the whole flight, or all the ACKs) nothing later comes back and only the
//! RTO is left. TLP sends one probe segment when the ACKs stop for about two round trips, so
//! that the probe's ACK (a SACK above the hole) lets RACK and fast recovery repair the tail
//! instead of a timeout.
//!
//! **Probe timeout** (armed in the Open and CWR states with data outstanding, SACK on, no probe
//! already out; re-armed when new data is sent and when an ACK acknowledges data):
//!
//! ```text
//! PTO = 2·SRTT + TCP_TIMEOUT_MIN (2 ms)     with more than one segment outstanding
//! PTO = 2·SRTT + rto_min (200 ms)           with exactly one (its ACK may be delayed)
//! PTO = TCP_TIMEOUT_INIT (1 s)              before any RTT sample
//! fire at min(now + PTO, the RTO's deadline)
//! ```
//!
//! RFC 8985 §7.2 writes the one-segment allowance as `WCDelAckT` (200 ms); Linux uses the
//! route's `rto_min`, which is 200 ms by default; this file uses the sender's `min_rto` as
//! Linux does. The cap keeps the probe from ever firing after the RTO would have.
//!
//! **On expiry** the sender transmits one segment whatever the congestion window says: new
//! data if there is some and the receiver window allows, else a retransmission of the
//! highest-sequence outstanding segment. It records `snd.nxt` as `TLPHighRxt` (Linux
//! `tlp_high_seq`) and re-arms the RTO a full RTO from now. Until that episode ends no other
//! probe is scheduled.
//!
//! **The probe's outcome** (RFC 8985 §7.4), once the cumulative ACK reaches `TLPHighRxt`: a
//! probe of new data, or a duplicate ACK that shows the receiver already had everything, ends
//! the episode with no loss. A retransmitted probe whose ACK goes past `TLPHighRxt` without a
//! D-SACK (the cclab receiver sends none) repaired a real loss, so the controller is told of
//! one lost segment and reduces once, staying Open (Linux enters CWR and leaves it at once).
//! Fast recovery or an RTO ends the episode.

use crate::units::Time;

/// Linux `TCP_TIMEOUT_MIN_US`: the allowance added to 2·SRTT with several segments out.
pub const TIMEOUT_MIN: Time = Time::from_millis(2);
/// Linux `TCP_TIMEOUT_INIT`: the probe timeout before any RTT sample.
pub const TIMEOUT_INIT: Time = Time::from_secs(1);

/// The probe timeout for `packets_out` outstanding segments (see the module doc).
pub fn probe_timeout(srtt: Option<Time>, packets_out: u64, min_rto: Time) -> Time {
    match srtt {
        None => TIMEOUT_INIT,
        Some(srtt) => Time(2 * srtt.0) + if packets_out == 1 { min_rto } else { TIMEOUT_MIN },
    }
}

/// What the probe sends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Probe {
    /// The next new segment.
    NewData,
    /// A retransmission of this (the highest outstanding) segment.
    Retransmit(u64),
}

/// What an ACK says about the probe in flight.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ProbeOutcome {
    /// No probe out, or its ACK has not come yet.
    Pending,
    /// The episode ended without a loss.
    NoLoss,
    /// The retransmitted probe repaired a lost segment: a congestion signal.
    Repaired,
}

/// TLP state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tlp {
    /// When the probe timer fires.
    pub deadline: Option<Time>,
    /// A probe that fired and waits for the sender to transmit it.
    pub pending: Option<Probe>,
    /// `TLPHighRxt`: `snd.nxt` after the probe went out; `Some` while an episode is open.
    pub high_seq: Option<u64>,
    /// The probe was a retransmission (`TLPRxtOut`).
    pub retransmitted: bool,
    /// Probes sent.
    pub probes: u64,
}

impl Tlp {
    /// Arms the probe timer at `now + probe_timeout`, not after `rto_deadline`. Does nothing
    /// while a probe episode is open (Linux sends at most one probe per episode).
    pub fn arm(&mut self, now: Time, srtt: Option<Time>, packets_out: u64, min_rto: Time, rto_deadline: Option<Time>) {
        if self.high_seq.is_some() || self.pending.is_some() {
            return;
        }
        let at = now + probe_timeout(srtt, packets_out, min_rto);
        self.deadline = Some(rto_deadline.map_or(at, |r| at.min(r)));
    }

    /// Stops the timer and forgets any episode (recovery or an RTO took over).
    pub fn reset(&mut self) {
        self.deadline = None;
        self.pending = None;
        self.high_seq = None;
    }

    /// The probe went out; `snd_nxt` is the sequence after it.
    pub fn on_probe_sent(&mut self, snd_nxt: u64, retransmitted: bool) {
        self.high_seq = Some(snd_nxt);
        self.retransmitted = retransmitted;
        self.probes += 1;
    }

    /// RFC 8985 §7.4 (Linux `tcp_process_tlp_ack`, without D-SACK): an ACK with cumulative
    /// point `cum_ack`; `pure_dupack`: it neither advanced the cumulative ACK nor SACKed
    /// anything new.
    pub fn on_ack(&mut self, cum_ack: u64, pure_dupack: bool) -> ProbeOutcome {
        let Some(high) = self.high_seq else { return ProbeOutcome::Pending };
        if cum_ack < high {
            return ProbeOutcome::Pending;
        }
        let outcome = if !self.retransmitted || (cum_ack == high && pure_dupack) {
            ProbeOutcome::NoLoss
        } else if cum_ack > high {
            ProbeOutcome::Repaired
        } else {
            return ProbeOutcome::Pending;
        };
        self.high_seq = None;
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Time = Time::from_millis;

    #[test]
    fn probe_timeout_is_two_srtt_plus_the_delayed_ack_allowance_for_one_segment() {
        assert_eq!(probe_timeout(Some(MS(100)), 10, MS(200)), MS(202));
        assert_eq!(probe_timeout(Some(MS(100)), 1, MS(200)), MS(400));
        assert_eq!(probe_timeout(None, 10, MS(200)), Time::from_secs(1));
    }

    #[test]
    fn the_probe_never_fires_after_the_rto() {
        let mut t = Tlp::default();
        t.arm(MS(1000), Some(MS(100)), 10, MS(200), Some(MS(1500)));
        assert_eq!(t.deadline, Some(MS(1202)));
        // One segment out: 2·100 + 200 = 400 ms would pass the RTO at 1300.
        t.arm(MS(1000), Some(MS(100)), 1, MS(200), Some(MS(1300)));
        assert_eq!(t.deadline, Some(MS(1300)));
    }

    #[test]
    fn one_probe_per_episode_and_its_ack_decides_whether_a_loss_was_repaired() {
        let mut t = Tlp::default();
        t.on_probe_sent(50, true);
        t.deadline = None;
        t.arm(MS(0), Some(MS(100)), 10, MS(200), None);
        assert_eq!(t.deadline, None, "no second probe while one is out");
        assert_eq!(t.on_ack(40, false), ProbeOutcome::Pending);
        // The probe (segment 49) filled the last hole: the ACK reaches 50 but says nothing yet.
        assert_eq!(t.on_ack(50, false), ProbeOutcome::Pending);
        // An ACK beyond it: the original of 49 had been lost and the probe repaired it.
        assert_eq!(t.on_ack(52, false), ProbeOutcome::Repaired);
        assert_eq!(t.high_seq, None);
        // Both copies arrived: the probe's ACK is a pure duplicate at the probe's snd.nxt.
        t.on_probe_sent(60, true);
        assert_eq!(t.on_ack(60, true), ProbeOutcome::NoLoss);
        // A probe of new data that is acknowledged ends the episode with no loss.
        t.on_probe_sent(70, false);
        assert_eq!(t.on_ack(70, false), ProbeOutcome::NoLoss);
        assert_eq!(t.probes, 3);
    }
}
