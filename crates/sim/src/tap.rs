//! A tap on every packet, as `tcpdump` on the sender would see it: data packets as they leave
//! the sender (whatever then happens to them at the bottleneck) and feedback as it arrives.
//! `cclab --pcap` writes a capture file from it; nothing is recorded unless a tap is set.

use crate::endpoint::Back;
use crate::packet::DataPacket;
use cc::{Bytes, Time};

/// What a tap needs to know about a flow when it starts.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FlowInfo {
    /// TCP (else a datagram protocol over UDP).
    pub tcp: bool,
    pub mss: Bytes,
    pub sack: bool,
    pub ecn: bool,
    /// Header bytes each packet carries on the wire.
    pub header_bytes: Bytes,
}

pub trait Tap {
    /// A TCP flow with a handshake sends its SYN; its SYN-ACK comes back one base RTT later,
    /// when [`Tap::flow_started`] is called with its first data.
    fn syn_sent(&mut self, _now: Time, _flow: u32, _info: &FlowInfo) {}
    /// A flow sends its first data (after its SYN-ACK, if it had a handshake).
    fn flow_started(&mut self, now: Time, flow: u32, info: &FlowInfo);
    fn data_sent(&mut self, now: Time, packet: &DataPacket);
    fn feedback_received(&mut self, now: Time, flow: u32, back: &Back);
    /// The run is over: flush what the tap keeps (a capture file) and report the first error.
    fn finish(self: Box<Self>) -> Result<(), String> {
        Ok(())
    }
}
