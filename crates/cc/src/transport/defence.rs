//! A sender's defences against a misbehaving receiver, each switchable per flow.
//!
//! Savage, Cardwell, Wetherall and Anderson ("TCP congestion control with a misbehaving
//! receiver", ACM CCR 29(5), 1999) show three ways a receiver can make a sender send faster than
//! congestion control allows (see [`super::misbehave`]) and the sender-side fixes this module
//! implements:
//!
//! - **`abc`, appropriate byte counting** (RFC 3465 §2): the window grows by the bytes an ACK
//!   newly acknowledges, not by one SMSS per ACK, and in slow start by at most `L·SMSS` per ACK
//!   ([`ABC_L`] = 2, RFC 3465 §2.2; `L = 1` while recovering from a retransmission timeout,
//!   §2.3). ACK division's many small ACKs then add up to what one honest ACK would give.
//! - **`new_data_only`, growth only by newly acknowledged data** (Savage et al. §4.1, and
//!   Linux, which counts whole segments: `tcp_clean_rtx_queue` credits a segment only once all
//!   of it is acknowledged). An ACK that acknowledges part of a segment, or nothing new, adds
//!   nothing to the window. Off (with `abc` off): the classic per-ACK rule of RFC 2581 §3.1 as
//!   BSD-derived stacks of 1999 implemented it — every ACK that advances the acknowledged byte
//!   counts one SMSS ([`growth_credit`]).
//! - **`dupack_limit`, the duplicate-ACK limit**: Linux's `tcp_limit_reno_sacked` (duplicate
//!   ACKs never count for more than the outstanding segments less one hole) is always applied
//!   by the sender; it bounds the count, not the rate, so a flood of spoofed duplicates still
//!   lets the sender refill the window on every data arrival. This defence adds Savage et al.'s
//!   rule (§4.2: do not count more duplicate ACKs than segments that can have left the network),
//!   made exact in time: a duplicate ACK counts only while fewer are counted than outstanding
//!   segments sent at least one minimum RTT ago (an ACK cannot come back sooner for a segment).
//! - **`nonce`, the cumulative nonce** (Savage et al. §4.3; the same idea as RFC 3540's ECN
//!   nonce sum, with 32-bit nonces instead of one bit): every segment carries a random nonce,
//!   the receiver echoes the sum of the nonces below its cumulative ACK, and the sender drops an
//!   ACK whose sum is wrong. A receiver that acknowledges data it has not seen cannot know its
//!   nonce, so optimistic ACKs fail the check (with probability 1 − 2⁻³²). A segment keeps its
//!   nonce when retransmitted (RFC 3540 draws a new one, since its nonce can be erased by a CE
//!   mark; ours cannot), and SACK blocks carry no nonce: the check covers the cumulative ACK,
//!   which is what optimistic ACKing forges.
//!
//! The default is the set a Linux sender has as modelled here (`new_data_only`, and
//! `tcp_limit_reno_sacked`), which is what every flow got before defences were switchable;
//! [`Defences::NONE`] is the undefended 1999 sender, [`Defences::ALL`] all four.

use crate::units::{Bytes, Time};

/// RFC 3465 §2.2: at most `L·SMSS` of growth per ACK in slow start; `L = 2` is the largest
/// value the RFC allows.
pub const ABC_L: Bytes = 2;

/// Which defences a sender applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Defences {
    pub abc: bool,
    pub new_data_only: bool,
    pub dupack_limit: bool,
    pub nonce: bool,
}

impl Default for Defences {
    /// Linux as modelled: whole-segment counting, no byte counting limit, no nonce.
    fn default() -> Self {
        Defences { abc: false, new_data_only: true, dupack_limit: false, nonce: false }
    }
}

impl Defences {
    /// The undefended sender of 1999: one SMSS per ACK, every duplicate ACK counted.
    pub const NONE: Defences = Defences { abc: false, new_data_only: false, dupack_limit: false, nonce: false };
    /// Every defence on.
    pub const ALL: Defences = Defences { abc: true, new_data_only: true, dupack_limit: true, nonce: true };
}

/// What one ACK acknowledged, for [`growth_credit`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Acknowledged {
    /// Bytes of whole segments newly delivered (cumulatively or by SACK), as the sender's
    /// scoreboard counts them.
    pub segment_bytes: Bytes,
    /// Bytes newly acknowledged by the ACK's byte offset, and bytes of the newly delivered head
    /// segment that an earlier partial ACK had already acknowledged (subtracted).
    pub partial_bytes: Bytes,
    pub already_credited: Bytes,
}

/// The bytes an ACK lets the controller grow by ("acked" in `tcp_cong_avoid`):
///
/// - `abc`: the bytes newly acknowledged, at most `L·SMSS` in slow start (`L` = 1 after a
///   timeout);
/// - else `new_data_only`: whole segments newly delivered (partial ACKs give nothing);
/// - else one SMSS for any ACK that acknowledges something new.
pub fn growth_credit(d: &Defences, a: &Acknowledged, mss: Bytes, slow_start: bool, after_timeout: bool) -> Bytes {
    let new_bytes = (a.segment_bytes + a.partial_bytes).saturating_sub(a.already_credited);
    if d.abc {
        let l = if after_timeout { 1 } else { ABC_L };
        if slow_start { new_bytes.min(l * mss) } else { new_bytes }
    } else if d.new_data_only {
        a.segment_bytes
    } else if new_bytes > 0 {
        mss
    } else {
        0
    }
}

/// The nonce of segment `seq` under the sender's secret `key`: a SplitMix64 mix, never 0 (0
/// means "no nonce" on the wire).
pub fn nonce(key: u64, seq: u64) -> u32 {
    let mut z = key ^ seq.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) as u32) | 1
}

/// Savage et al.'s duplicate-ACK rule in time: of the outstanding segments' send times `sent`,
/// how many can have produced an ACK by `now`, given the path's minimum RTT. A duplicate ACK
/// may count (as a segment that left the network) only while fewer than this, less the holes,
/// are counted.
pub fn could_have_arrived(sent: impl Iterator<Item = Time>, now: Time, min_rtt: Time) -> u64 {
    sent.filter(|&t| t + min_rtt <= now).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    const MSS: Bytes = 1000;

    fn partial(bytes: Bytes) -> Acknowledged {
        Acknowledged { partial_bytes: bytes, ..Acknowledged::default() }
    }

    /// ACK division: a segment acknowledged in 10 parts. Undefended, each part is worth a full
    /// SMSS (10 SMSS for one segment); with whole-segment counting the parts give nothing and
    /// the last (which completes the segment) one SMSS; with ABC they add up to one SMSS.
    #[test]
    fn ack_division_pays_per_ack_only_when_undefended() {
        let parts: Vec<Acknowledged> = (0..9)
            .map(|_| partial(100))
            .chain([Acknowledged { segment_bytes: MSS, partial_bytes: 0, already_credited: 900 }])
            .collect();
        let total = |d: Defences| parts.iter().map(|a| growth_credit(&d, a, MSS, true, false)).sum::<Bytes>();
        assert_eq!(total(Defences::NONE), 10 * MSS);
        assert_eq!(total(Defences::default()), MSS);
        assert_eq!(total(Defences::ALL), MSS);
        assert_eq!(total(Defences { abc: true, new_data_only: false, ..Defences::NONE }), MSS);
    }

    /// RFC 3465's L limit: a stretch ACK of five segments grows slow start by 2 SMSS (1 after a
    /// timeout), congestion avoidance by all five.
    #[test]
    fn abc_limits_slow_start_growth_per_ack_to_l_smss() {
        let a = Acknowledged { segment_bytes: 5 * MSS, ..Acknowledged::default() };
        let abc = Defences { abc: true, ..Defences::default() };
        assert_eq!(growth_credit(&abc, &a, MSS, true, false), 2 * MSS);
        assert_eq!(growth_credit(&abc, &a, MSS, true, true), MSS);
        assert_eq!(growth_credit(&abc, &a, MSS, false, false), 5 * MSS);
        // Without ABC: Linux counts all five, the per-ACK sender one.
        assert_eq!(growth_credit(&Defences::default(), &a, MSS, true, false), 5 * MSS);
        assert_eq!(growth_credit(&Defences::NONE, &a, MSS, true, false), MSS);
    }

    /// An ACK that acknowledges nothing new grows nothing, whatever the defences.
    #[test]
    fn nothing_new_grows_nothing() {
        for d in [Defences::NONE, Defences::default(), Defences::ALL] {
            assert_eq!(growth_credit(&d, &Acknowledged::default(), MSS, true, false), 0);
        }
    }

    #[test]
    fn nonces_are_nonzero_keyed_and_spread() {
        let a: Vec<u32> = (0..64).map(|s| nonce(7, s)).collect();
        assert!(a.iter().all(|&n| n != 0));
        assert_ne!(nonce(7, 3), nonce(8, 3));
        let distinct: std::collections::BTreeSet<u32> = a.iter().copied().collect();
        assert_eq!(distinct.len(), a.len());
    }

    /// Segments sent less than one minimum RTT ago cannot have been acknowledged yet.
    #[test]
    fn only_segments_older_than_the_min_rtt_can_have_arrived() {
        let ms = Time::from_millis;
        let sent = [ms(0), ms(10), ms(50), ms(95)];
        assert_eq!(could_have_arrived(sent.into_iter(), ms(100), ms(50)), 3);
        assert_eq!(could_have_arrived(sent.into_iter(), ms(100), ms(100)), 1);
    }
}
