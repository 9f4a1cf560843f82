//! The sans-I/O TCP transport under every controller: the sender core (sent-packet records,
//! RFC 6298 RTO, RFC 6675 SACK scoreboard, RFC 6582 partial ACKs, RACK and tail loss probes
//! (RFC 8985), proportional rate reduction (RFC 6937), the delivery-rate sampler, ECN
//! accounting, the pacer, paced chirping as a start-up) and the receiver (cumulative and
//! SACK ACKs, delayed ACKs).
//!
//! Both the simulator's endpoints and, later, a real UDP transport own one, so an algorithm
//! behaves the same in both. Sequence numbers count segments; every segment carries `mss`
//! payload bytes except possibly the last of a finite transfer.

pub mod app_source;
pub mod chirp;
pub mod cwnd_usage;
pub mod defence;
pub mod misbehave;
pub mod pacer;
pub mod prr;
pub mod rack;
pub mod rcv_window;
pub mod receiver;
pub mod recovery_rounds;
pub mod sack_compress;
pub mod rtt;
pub mod sender;
pub mod tlp;

pub use chirp::{ChirpConfig, Startup};
pub use defence::Defences;
pub use misbehave::Misbehaviour;
pub use receiver::{Receiver, ReceiverConfig};
pub use sender::{SenderConfig, SenderCore, SenderStats, Transmit};

use crate::units::{Bytes, Time};

/// A SACK block: segments `[start, end)` were received.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SackBlock {
    pub start: u64,
    pub end: u64,
}

/// At most this many SACK blocks per ACK, as fit in TCP options next to timestamps.
pub const MAX_SACK_BLOCKS: usize = 3;

/// An acknowledgement as it travels back to the sender.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Ack {
    /// The next segment the receiver expects (everything below has arrived).
    pub cum_ack: u64,
    pub sack: [SackBlock; MAX_SACK_BLOCKS],
    pub n_sack: u8,
    /// ECN-Echo (RFC 3168): a CE mark was seen.
    pub ece: bool,
    /// CE-marked data packets received since the previous ACK (accurate ECN feedback).
    pub ce_packets: u32,
    /// Send time of the data packet that triggered this ACK (the timestamp echo, TSecr), if
    /// the receiver echoes timestamps.
    pub echo: Option<Time>,
    /// One-way delay of that data packet, when the receiver can measure it.
    pub one_way_delay: Option<Time>,
    /// When the receiver sent this ACK (its timestamp, TSval, RFC 7323): the sender echoes the
    /// latest in its segments.
    pub tsval: Option<Time>,
    /// Payload bytes of segment `cum_ack` also acknowledged: the byte offset a real TCP ACK
    /// number can name inside a segment. Always 0 from an honest receiver (it acknowledges whole
    /// segments); a misbehaving one uses it for ACK division (Savage et al. 1999 §3.1).
    pub offset: u32,
    /// The cumulative nonce (Savage et al. 1999 §4.3): the wrapping sum of the nonces of every
    /// segment below `cum_ack`, as the receiver saw them. 0 when the sender sends no nonces.
    pub nonce_sum: u32,
    /// The receive window the ACK advertises, in bytes beyond `cum_ack` (`None`: no limit of
    /// the receiver's beyond the sender's own `rwnd`).
    pub window: Option<Bytes>,
}

impl Ack {
    pub fn sack_blocks(&self) -> &[SackBlock] {
        &self.sack[..self.n_sack as usize]
    }
}
