//! Probes and replies: nmap's `UltraProbe` (`scan_engine.h`) as the window controller sees it,
//! the token a prober puts in the packet to match the reply, and the reply classes of host
//! discovery (`get_ping_pcap_result`, spec §6).

use crate::units::Time;

/// What travels in the packet and comes back in the reply: nmap encodes the try number in the
/// source port or TCP sequence number (`sport_encode`, `seq32_encode`), so a reply is matched to
/// the exact try that caused it. `target` indexes the scan's target list; `serial` is unique
/// among one target's probes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProbeToken {
    pub target: u32,
    pub serial: u32,
}

/// One probe in a host's outstanding list.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct UltraProbe {
    pub serial: u32,
    /// Which of the host-discovery probes this is (0 = the first, e.g. ICMP echo).
    pub probe_type: u8,
    /// 0 for the first transmission, 1 for the first retransmission, ...
    pub tryno: u8,
    /// A timing ping (a probe already known to get an answer).
    pub is_ping: bool,
    pub sent: Time,
    /// Its timeout has passed; its window slot was freed. It stays listed for late replies.
    pub timedout: bool,
    /// A later try of it has been sent.
    pub retransmitted: bool,
}

/// A probe the prober must put on the wire now.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProbeSend {
    pub token: ProbeToken,
    pub probe_type: u8,
    pub tryno: u8,
    pub is_ping: bool,
}

/// What a reply says about its target.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ReplyKind {
    /// Echo, timestamp or mask reply, TCP SYN-ACK or RST, or ICMP port/protocol unreachable from
    /// the target itself: the host is up.
    Up,
    /// ICMP destination unreachable from another address (a router's net or host unreachable,
    /// administratively prohibited, ...).
    Unreachable,
    /// ICMP time exceeded: the host is down, and the reply never adjusts timing.
    TimeExceeded,
}

/// What host discovery concluded about a target.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum HostState {
    #[default]
    Unknown,
    Up,
    Down,
}
