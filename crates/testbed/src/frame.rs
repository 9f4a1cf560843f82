//! What the emulator reads from and writes to an Ethernet frame: whether it is IPv4 TCP/UDP,
//! its ports, its size on the wire as the simulator counts it (the IP packet), the bytes of
//! data it carries (after the TCP or UDP header), and its ECN
//! field (RFC 3168), which a marking queue sets to CE (with the IPv4 header checksum redone).

use sim::packet::{CE, NOT_ECT};

const ETH_HEADER: usize = 14;
const ETHERTYPE_IPV4: u16 = 0x0800;

/// The fields of an IPv4 TCP or UDP frame the emulator needs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ipv4Info {
    /// Bytes of the IP packet (what the simulator calls `wire`).
    pub ip_len: u32,
    pub ecn: u8,
    pub src_port: u16,
    pub dst_port: u16,
    /// Bytes after the TCP header (its data offset) or the UDP header: 0 for a pure ACK.
    pub payload: u32,
}

/// Parses an IPv4 TCP or UDP frame; `None` for anything else (ARP, IPv6, fragments, runts).
pub fn parse(frame: &[u8]) -> Option<Ipv4Info> {
    if frame.len() < ETH_HEADER + 20 || u16::from_be_bytes([frame[12], frame[13]]) != ETHERTYPE_IPV4 {
        return None;
    }
    let ip = &frame[ETH_HEADER..];
    let ihl = (ip[0] & 0x0f) as usize * 4;
    let proto = ip[9];
    let fragment_offset = u16::from_be_bytes([ip[6], ip[7]]) & 0x1fff;
    if ip[0] >> 4 != 4 || ihl < 20 || !(proto == 6 || proto == 17) || fragment_offset != 0 || ip.len() < ihl + 4 {
        return None;
    }
    let ip_len = u16::from_be_bytes([ip[2], ip[3]]) as u32;
    let transport_header = match proto {
        6 => (*ip.get(ihl + 12)? >> 4) as u32 * 4,
        _ => 8,
    };
    Some(Ipv4Info {
        ip_len,
        payload: ip_len.saturating_sub(ihl as u32 + transport_header),
        ecn: ip[1] & 0b11,
        src_port: u16::from_be_bytes([ip[ihl], ip[ihl + 1]]),
        dst_port: u16::from_be_bytes([ip[ihl + 2], ip[ihl + 3]]),
    })
}

/// Sets the frame's ECN field to CE and recomputes the IPv4 header checksum. Only ECN-capable
/// packets are marked (a queue drops the others instead).
pub fn mark_ce(frame: &mut [u8]) {
    let ip = &mut frame[ETH_HEADER..];
    if ip[1] & 0b11 == NOT_ECT {
        return;
    }
    ip[1] |= CE;
    let ihl = (ip[0] & 0x0f) as usize * 4;
    ip[10] = 0;
    ip[11] = 0;
    let sum = ipv4_checksum(&ip[..ihl]);
    ip[10..12].copy_from_slice(&sum.to_be_bytes());
}

/// The Internet checksum (RFC 1071) of a header whose checksum field is zero.
fn ipv4_checksum(header: &[u8]) -> u16 {
    let mut sum: u32 = header.chunks(2).map(|c| u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]) as u32).sum();
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An Ethernet + IPv4 + UDP frame from 10.0.0.1:1000 to 10.0.0.2:2000, ECT(0).
    fn udp_frame() -> Vec<u8> {
        let mut f = vec![0u8; 14];
        f[12] = 0x08;
        let mut ip = vec![0x45, 0b10, 0, 28, 0, 1, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2];
        let s = ipv4_checksum(&ip);
        ip[10..12].copy_from_slice(&s.to_be_bytes());
        f.extend(ip);
        f.extend([0x03, 0xe8, 0x07, 0xd0, 0, 8, 0, 0]);
        f
    }

    #[test]
    fn parses_ports_length_and_ecn() {
        let info = parse(&udp_frame()).unwrap();
        assert_eq!(info, Ipv4Info { ip_len: 28, ecn: 2, src_port: 1000, dst_port: 2000, payload: 0 });
        let mut arp = udp_frame();
        arp[12..14].copy_from_slice(&[0x08, 0x06]);
        assert_eq!(parse(&arp), None);
    }

    #[test]
    fn ce_mark_keeps_the_header_checksum_valid() {
        let mut f = udp_frame();
        mark_ce(&mut f);
        assert_eq!(parse(&f).unwrap().ecn, CE);
        // A valid header sums (with its checksum) to 0xffff, i.e. checksums to zero.
        assert_eq!(ipv4_checksum(&f[14..34]), 0);
    }
}
