//! Misbehaving receivers: the three attacks of Savage, Cardwell, Wetherall and Anderson, "TCP
//! congestion control with a misbehaving receiver" (ACM CCR 29(5), 1999), §3. Each makes a
//! sender that trusts its ACKs send faster than its congestion control means to:
//!
//! - **ACK division** (§3.1): a segment of N bytes is acknowledged in `split` ACKs, each for a
//!   further N/`split` bytes ([`super::Ack::offset`]). A sender that grows its window by one
//!   SMSS per ACK grows `split` times faster.
//! - **Duplicate-ACK spoofing** (§3.2): `count` extra duplicates of each ACK while the receiver
//!   holds out-of-order data (a hole: the sender is, or is about to be, in fast recovery). A
//!   sender that inflates its window by one SMSS per duplicate ACK (RFC 5681 §3.2 step 4) sends
//!   a segment for each.
//! - **Optimistic ACKing** (§3.3): on each arrival, an ACK for `lead` segments beyond the
//!   highest one received, before they arrive. Its real cost: a segment acknowledged this way
//!   and then dropped is never retransmitted, so the receiving application loses it
//!   ([`super::receiver::ReceiverStats::app_lost_segments`]). The attacker also sends the ACK an
//!   honest receiver would (it is older than the optimistic one unless that was refused).
//!
//! The receiver side lives in [`super::Receiver::on_arrival`]; the sender's defences in
//! [`super::defence`].

/// A receiver's attack on its sender.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Misbehaviour {
    AckDivision { split: u32 },
    DupAckSpoofing { count: u32 },
    OptimisticAck { lead: u32 },
}

impl Misbehaviour {
    /// ACK division: parts per segment, at least two; at most one per payload byte (the
    /// receiver uses `min(split, segment length)`); 1000 bounds the ACKs per segment.
    pub const SPLIT: std::ops::RangeInclusive<u32> = 2..=1000;
    /// Spoofed duplicates per ACK.
    pub const COUNT: std::ops::RangeInclusive<u32> = 1..=1000;
    /// Segments acknowledged ahead of the highest received.
    pub const LEAD: std::ops::RangeInclusive<u32> = 1..=100_000;

    /// The names a scenario file uses (`receiver = { attack = "ack-division", split = 10 }`).
    pub const NAMES: [&'static str; 3] = ["ack-division", "dup-ack-spoofing", "optimistic-ack"];

    pub fn name(&self) -> &'static str {
        match self {
            Misbehaviour::AckDivision { .. } => Self::NAMES[0],
            Misbehaviour::DupAckSpoofing { .. } => Self::NAMES[1],
            Misbehaviour::OptimisticAck { .. } => Self::NAMES[2],
        }
    }
}

/// The attack's parameter in its range, named as in a scenario's `receiver` table.
impl crate::check::Validate for Misbehaviour {
    fn validate(&self) -> Result<(), String> {
        use crate::check::within;
        match *self {
            Misbehaviour::AckDivision { split } => within("split", split, Self::SPLIT),
            Misbehaviour::DupAckSpoofing { count } => within("count", count, Self::COUNT),
            Misbehaviour::OptimisticAck { lead } => within("lead", lead, Self::LEAD),
        }
    }
}
