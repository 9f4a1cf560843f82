//! How fully the sender uses its congestion window, per window of data (Linux
//! `tcp_cwnd_validate` in `tcp_output.c`, as rewritten in Linux 6.3 by "tcp: fix
//! cwnd-limited bug" so that the verdict holds for a whole window of data).
//!
//! After each transmission the sender asks whether the packets in flight have reached the
//! congestion window (`tcp_packets_in_flight ≥ snd_cwnd`). The tracker remembers, for the
//! window of data that began at `cwnd_usage_seq`:
//!
//! - `is_cwnd_limited`: the window was filled at some transmission of it;
//! - `max_packets_out`: the most segments outstanding (`packets_out`) while it was not.
//!
//! Both are renewed once the cumulative ACK passes `cwnd_usage_seq` (a new window of data),
//! and at once whenever the window fills or, unfilled, more is outstanding than before. The
//! controller reads them as [`CwndUse`]: Linux grows the window only when
//! `tcp_is_cwnd_limited` (RFC 2861's and RFC 7661's principle that a window the sender does
//! not use has not been validated by the network).

use crate::controller::CwndUse;
use crate::units::Bytes;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CwndUsage {
    /// `tp->is_cwnd_limited`.
    is_cwnd_limited: bool,
    /// `tp->max_packets_out`, segments.
    max_packets_out: u64,
    /// `tp->cwnd_usage_seq`: the window of data these figures describe ends here (a segment
    /// number, as our sequence numbers count segments).
    cwnd_usage_seq: u64,
}

impl CwndUsage {
    /// After a transmission: `filled` says whether the packets in flight reached the
    /// congestion window; `snd_una`, `snd_nxt` and `packets_out` are the sender's, in segments.
    pub fn on_transmit(&mut self, filled: bool, snd_una: u64, snd_nxt: u64, packets_out: u64) {
        let new_window = snd_una >= self.cwnd_usage_seq;
        if new_window || filled || (!self.is_cwnd_limited && packets_out > self.max_packets_out) {
            self.is_cwnd_limited = filled;
            self.max_packets_out = packets_out;
            self.cwnd_usage_seq = snd_nxt;
        }
    }

    /// What the controller is told, with segments of `mss` bytes.
    pub fn cwnd_use(&self, mss: Bytes) -> CwndUse {
        if self.is_cwnd_limited {
            CwndUse::Filled
        } else {
            CwndUse::Unfilled { max_in_flight: self.max_packets_out * mss }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A window filled once counts as filled until the window of data it was filled in has been
    /// acknowledged, however little is outstanding meanwhile; then the next window's use counts.
    #[test]
    fn a_filled_window_counts_until_its_window_of_data_is_acknowledged() {
        let mut u = CwndUsage::default();
        u.on_transmit(true, 0, 10, 10);
        assert_eq!(u.cwnd_use(1), CwndUse::Filled);
        // Later sends of the same window of data, unfilled (a receive window closed in).
        u.on_transmit(false, 5, 11, 6);
        assert_eq!(u.cwnd_use(1), CwndUse::Filled);
        // snd_una reaches 10: a new window of data, judged on its own.
        u.on_transmit(false, 10, 14, 4);
        assert_eq!(u.cwnd_use(1), CwndUse::Unfilled { max_in_flight: 4 });
    }

    /// Unfilled, the most outstanding grows with every larger flight but never shrinks within a
    /// window of data; filling the window takes effect at once.
    #[test]
    fn the_most_outstanding_is_kept_per_window_and_filling_takes_effect_at_once() {
        let mut u = CwndUsage::default();
        u.on_transmit(false, 0, 8, 8);
        u.on_transmit(false, 2, 12, 10);
        u.on_transmit(false, 4, 13, 9);
        assert_eq!(u.cwnd_use(100), CwndUse::Unfilled { max_in_flight: 1000 });
        u.on_transmit(true, 4, 14, 10);
        assert_eq!(u.cwnd_use(100), CwndUse::Filled);
    }
}
