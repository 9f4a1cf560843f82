//! Packets as the simulator carries them: small `Copy` structs, no allocation per packet.

use cc::Time;

/// ECN codepoints (RFC 3168).
pub const NOT_ECT: u8 = 0;
pub const ECT0: u8 = 2;
pub const CE: u8 = 3;

/// A data segment on its way from a sender to its receiver.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DataPacket {
    pub flow: u32,
    pub seq: u64,
    /// Payload bytes.
    pub len: u32,
    /// Bytes on the wire (payload + headers).
    pub wire: u32,
    pub sent: Time,
    /// When it entered the bottleneck queue.
    pub enqueued: Time,
    pub ecn: u8,
    pub retransmission: bool,
    /// A datagram protocol's header field carrying the sender's RTT (TFRC); zero if absent.
    pub hdr_rtt: Time,
    /// The TCP sender's nonce for this segment (0: none; see `cc::transport::defence`).
    pub nonce: u32,
    /// The receiver's timestamp this segment echoes (TSecr; zero if none).
    pub tsecr: Time,
}
