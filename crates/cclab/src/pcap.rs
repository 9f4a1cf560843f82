//! `cclab run --pcap FILE`: a capture of every packet as `tcpdump -s 128` on the senders' host
//! would record it: each data transmission as it leaves its sender for the bottleneck (whatever
//! then happens to it there) and each ACK or control message as it comes back, so Wireshark's
//! TCP analysis sees the retransmissions the summary counts.
//!
//! Frames are Ethernet + IPv4 + TCP for TCP flows, with a three-way handshake announcing the
//! options (MSS, SACK-permitted if the flow uses SACK, timestamps, window scale, the ECN setup
//! flags) so that Wireshark knows them: a flow with `handshake` has its SYN at its start and its
//! SYN-ACK and ACK one base RTT later, with its first data, as the simulator runs it; a flow
//! without one gets a synthetic handshake at the instant its data starts. And Ethernet + IPv4 + UDP for datagram
//! flows, whose payload starts with a small header of ours (below). Frames are cut after the
//! headers (the IP total length still gives the full size, and the checksums are computed over
//! the full packet with an all-zero payload); timestamps are the simulation's, in nanoseconds,
//! from [`CAPTURE_EPOCH`] (2000-01-01 UTC) at simulated time 0.
//!
//! Flow *k*'s sender is 10.0.0.1 port 40000 + *k* and its receiver 10.0.1.1 port 5201 (past
//! 25,536 flows the senders move on to 10.128.x.y). Sequence numbers start from fixed ISNs.
//! Same run, same bytes.

use cc::datagram::CtrlMsg;
use cc::transport::Ack;
use cc::Time;
use etherparse::{EtherType, Ethernet2Header, IpEcn, IpNumber, Ipv4Header, TcpHeader, TcpOptionElement, UdpHeader};
use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, Endianness, TsResolution};
use sim::endpoint::Back;
use sim::packet::{DataPacket, NOT_ECT};
use sim::tap::{FlowInfo, Tap};
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::time::Duration;

/// The wall-clock instant a capture's simulated time 0 is written as: 2000-01-01 00:00:00 UTC,
/// fixed so that the same run gives the same bytes. Not the Unix epoch itself: Wireshark takes a
/// SYN stamped 0 s for one it has not seen and then reports no initial RTT
/// (`tcp.analysis.initial_rtt`).
pub const CAPTURE_EPOCH: Duration = Duration::from_secs(946_684_800);

/// Bytes captured of each frame at most (`tcpdump -s 128`): every header fits.
pub const SNAPLEN: u32 = 128;
/// The snap length the file header announces: an upper bound on every frame's captured *and*
/// original length. Strict readers (the `pcap-file` crate among them) reject a frame whose
/// wire length exceeds the header's snap length, so the header says 65535, as `tcpdump -s 0`
/// did, while frames are still cut at [`SNAPLEN`].
pub const FILE_SNAPLEN: u32 = 65_535;
const RECEIVER_IP: [u8; 4] = [10, 0, 1, 1];
const RECEIVER_PORT: u16 = 5201;
const FIRST_SENDER_PORT: u16 = 40000;
const SENDER_MAC: [u8; 6] = [0x02, 0, 0, 0, 0, 0x01];
const RECEIVER_MAC: [u8; 6] = [0x02, 0, 0, 0, 0, 0x02];
const TTL: u8 = 64;
/// The window scale both ends announce and the window field they send: 65535 << 14, about
/// 1 GiB, more than any sender's flight, so Wireshark never sees a full window.
const WINDOW_SCALE: u8 = 14;
const WINDOW: u16 = u16::MAX;
/// A datagram's payload starts with our header (big-endian): the sequence number (8 bytes),
/// the sender's RTT in µs that TFRC carries (4; 0 if none), flags (1; bit 0: retransmission)
/// and 3 zero bytes.
pub const DATAGRAM_HEADER_LEN: usize = 16;

/// The two ends of one direction of a flow.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Route {
    pub src_mac: [u8; 6],
    pub dst_mac: [u8; 6],
    pub src_ip: [u8; 4],
    pub dst_ip: [u8; 4],
    pub src_port: u16,
    pub dst_port: u16,
}

impl Route {
    /// Flow `flow`'s data direction, sender to receiver.
    pub fn forward(flow: u32) -> Route {
        let ports = u32::from(u16::MAX - FIRST_SENDER_PORT) + 1;
        let host = (flow / ports).to_be_bytes();
        let src_ip = if flow < ports { [10, 0, 0, 1] } else { [10, 128 | host[1], host[2], host[3]] };
        Route {
            src_mac: SENDER_MAC,
            dst_mac: RECEIVER_MAC,
            src_ip,
            dst_ip: RECEIVER_IP,
            src_port: FIRST_SENDER_PORT + (flow % ports) as u16,
            dst_port: RECEIVER_PORT,
        }
    }

    pub fn reverse(&self) -> Route {
        Route {
            src_mac: self.dst_mac,
            dst_mac: self.src_mac,
            src_ip: self.dst_ip,
            dst_ip: self.src_ip,
            src_port: self.dst_port,
            dst_port: self.src_port,
        }
    }
}

/// One frame: the bytes captured (at most [`SNAPLEN`]) and its length on the wire.
#[derive(Debug, PartialEq)]
pub struct Frame<'a> {
    pub captured: &'a [u8],
    pub wire_len: u32,
}

/// Builds frames, keeping its buffers from one to the next.
#[derive(Default)]
pub struct FrameBuilder {
    payload: Vec<u8>,
    frame: Vec<u8>,
}

impl FrameBuilder {
    /// A TCP segment carrying `payload_len` bytes (zeros, for the checksum; not captured).
    pub fn tcp(&mut self, route: &Route, ecn: u8, ip_id: u16, mut tcp: TcpHeader, payload_len: usize) -> Result<Frame<'_>, String> {
        self.payload.clear();
        self.payload.resize(payload_len, 0);
        let ip = self.start(route, ecn, ip_id, IpNumber::TCP, tcp.header_len() + payload_len)?;
        tcp.checksum = tcp.calc_checksum_ipv4(&ip, &self.payload).map_err(|e| e.to_string())?;
        self.frame.extend_from_slice(&tcp.to_bytes());
        Ok(self.finish(payload_len))
    }

    /// A UDP datagram of `payload_len` bytes that start with `head` (captured; the rest are
    /// zeros). A `head` longer than the payload is cut to it.
    pub fn udp(&mut self, route: &Route, ecn: u8, ip_id: u16, head: &[u8], payload_len: usize) -> Result<Frame<'_>, String> {
        let head = &head[..head.len().min(payload_len)];
        self.payload.clear();
        self.payload.extend_from_slice(head);
        self.payload.resize(payload_len, 0);
        let ip = self.start(route, ecn, ip_id, IpNumber::UDP, UdpHeader::LEN + payload_len)?;
        let udp = UdpHeader::with_ipv4_checksum(route.src_port, route.dst_port, &ip, &self.payload).map_err(|e| e.to_string())?;
        self.frame.extend_from_slice(&udp.to_bytes());
        self.frame.extend_from_slice(head);
        Ok(self.finish(payload_len - head.len()))
    }

    /// Writes the Ethernet and IPv4 headers (with their checksum) into a fresh frame.
    fn start(&mut self, route: &Route, ecn: u8, ip_id: u16, protocol: IpNumber, ip_payload: usize) -> Result<Ipv4Header, String> {
        let len = u16::try_from(ip_payload).map_err(|_| format!("a {ip_payload}-byte IP payload does not fit IPv4"))?;
        let mut ip = Ipv4Header::new(len, TTL, protocol, route.src_ip, route.dst_ip).map_err(|e| e.to_string())?;
        ip.identification = ip_id;
        ip.ecn = IpEcn::try_new(ecn & IpEcn::MAX_U8).unwrap_or_default();
        ip.header_checksum = ip.calc_header_checksum();
        let eth = Ethernet2Header { source: route.src_mac, destination: route.dst_mac, ether_type: EtherType::IPV4 };
        self.frame.clear();
        self.frame.extend_from_slice(&eth.to_bytes());
        self.frame.extend_from_slice(&ip.to_bytes());
        Ok(ip)
    }

    /// The frame so far is captured (up to the snap length); `uncaptured` payload bytes follow.
    fn finish(&self, uncaptured: usize) -> Frame<'_> {
        let wire_len = (self.frame.len() + uncaptured) as u32;
        Frame { captured: &self.frame[..self.frame.len().min(SNAPLEN as usize)], wire_len }
    }
}

/// Timestamp option values: milliseconds.
fn ts_ms(t: Time) -> u32 {
    (t.0 / 1_000_000) as u32
}

/// What the tap keeps of a flow.
struct FlowState {
    info: FlowInfo,
    forward: Route,
    /// Initial sequence numbers: the sender's, the receiver's.
    isn: [u32; 2],
    /// The next IP identification in each direction.
    ip_id: [u16; 2],
    /// The receiver's latest TSval (the sender's TSecr).
    ts_recent: u32,
    /// A short last segment of a sized transfer: its number and the byte offset after it.
    last: Option<(u64, u64)>,
    /// When the SYN of a flow with a handshake left.
    syn_at: Option<Time>,
}

impl FlowState {
    fn new(flow: u32, info: FlowInfo) -> FlowState {
        let isn = [0x1000_0000u32.wrapping_add(flow.wrapping_mul(0x0100_0193)), 0x8000_0000u32.wrapping_add(flow.wrapping_mul(0x0100_0193))];
        FlowState { info, forward: Route::forward(flow), isn, ip_id: [0, 0], ts_recent: 0, last: None, syn_at: None }
    }

    /// The byte offset of segment `seg` in the stream.
    fn byte_offset(&self, seg: u64) -> u64 {
        match self.last {
            Some((last, end)) if seg > last => end,
            _ => seg * self.info.mss,
        }
    }

    /// The TCP sequence number of segment `seg`'s first byte (the SYN takes ISN).
    fn tcp_seq(&self, seg: u64) -> u32 {
        self.isn[0].wrapping_add(1).wrapping_add(self.byte_offset(seg) as u32)
    }

    /// A route and IP identification for the next packet in direction `dir` (0: data).
    fn next_hop(&mut self, dir: usize) -> (Route, u16) {
        let id = self.ip_id[dir];
        self.ip_id[dir] = id.wrapping_add(1);
        (if dir == 0 { self.forward } else { self.forward.reverse() }, id)
    }

    /// A TCP header in direction `dir`, its ACK field set (every segment after the SYN has it).
    fn tcp_header(&self, dir: usize, seq: u32, ack: u32) -> TcpHeader {
        let (src, dst) = if dir == 0 { (self.forward.src_port, self.forward.dst_port) } else { (self.forward.dst_port, self.forward.src_port) };
        let mut h = TcpHeader::new(src, dst, seq, WINDOW);
        h.ack = true;
        h.acknowledgment_number = ack;
        h
    }

    /// The options of a SYN or SYN-ACK: MSS, SACK-permitted (or two NOPs), timestamps, window
    /// scale.
    fn syn_options(&self, tsval: u32, tsecr: u32) -> Vec<TcpOptionElement> {
        let mut o = vec![TcpOptionElement::MaximumSegmentSize(u16::try_from(self.info.mss).unwrap_or(u16::MAX))];
        if self.info.sack {
            o.push(TcpOptionElement::SelectiveAcknowledgementPermitted);
        } else {
            o.extend([TcpOptionElement::Noop, TcpOptionElement::Noop]);
        }
        o.extend([TcpOptionElement::Timestamp(tsval, tsecr), TcpOptionElement::Noop, TcpOptionElement::WindowScale(WINDOW_SCALE)]);
        o
    }

    /// The SYN leaving at `now` (an ECN-setup SYN, RFC 3168 §6.1.1, if the flow uses ECN).
    fn syn(&self, now: Time) -> Result<TcpHeader, String> {
        let mut syn = self.tcp_header(0, self.isn[0], 0);
        syn.ack = false;
        syn.syn = true;
        (syn.ece, syn.cwr) = (self.info.ecn, self.info.ecn);
        syn.set_options(&self.syn_options(ts_ms(now), 0)).map_err(|e| e.to_string())?;
        Ok(syn)
    }

    /// The SYN-ACK arriving at `now` for a SYN sent at `syn_at`, and the sender's ACK of it, as
    /// (direction, header).
    fn syn_ack_and_ack(&self, syn_at: Time, now: Time) -> Result<[(usize, TcpHeader); 2], String> {
        let ts = ts_ms(now);
        let mut syn_ack = self.tcp_header(1, self.isn[1], self.isn[0].wrapping_add(1));
        syn_ack.syn = true;
        syn_ack.ece = self.info.ecn;
        syn_ack.set_options(&self.syn_options(ts, ts_ms(syn_at))).map_err(|e| e.to_string())?;
        let mut ack = self.tcp_header(0, self.isn[0].wrapping_add(1), self.isn[1].wrapping_add(1));
        ack.set_options(&[TcpOptionElement::Noop, TcpOptionElement::Noop, TcpOptionElement::Timestamp(ts, ts)]).map_err(|e| e.to_string())?;
        Ok([(1, syn_ack), (0, ack)])
    }

    /// A data segment's TCP header.
    fn data_header(&mut self, now: Time, p: &DataPacket) -> Result<TcpHeader, String> {
        if (p.len as u64) < self.info.mss {
            self.last = Some((p.seq, p.seq * self.info.mss + p.len as u64));
        }
        let mut h = self.tcp_header(0, self.tcp_seq(p.seq), self.isn[1].wrapping_add(1));
        h.set_options(&[TcpOptionElement::Noop, TcpOptionElement::Noop, TcpOptionElement::Timestamp(ts_ms(now), self.ts_recent)])
            .map_err(|e| e.to_string())?;
        Ok(h)
    }

    /// An ACK's TCP header: cumulative ACK (with a divided ACK's byte offset) and SACK blocks
    /// in bytes, timestamps, ECE.
    fn ack_header(&mut self, now: Time, ack: &Ack) -> Result<TcpHeader, String> {
        let ack_number = self.tcp_seq(ack.cum_ack).wrapping_add(ack.offset);
        let mut h = self.tcp_header(1, self.isn[1].wrapping_add(1), ack_number);
        h.ece = ack.ece;
        let mut options = Vec::new();
        if let Some(echo) = ack.echo {
            self.ts_recent = ts_ms(now);
            options.extend([TcpOptionElement::Noop, TcpOptionElement::Noop, TcpOptionElement::Timestamp(self.ts_recent, ts_ms(echo))]);
        }
        let blocks: Vec<(u32, u32)> = ack.sack_blocks().iter().map(|b| (self.tcp_seq(b.start), self.tcp_seq(b.end))).collect();
        if let Some((&first, rest)) = blocks.split_first() {
            let mut more = [None; 3];
            for (slot, &b) in more.iter_mut().zip(rest) {
                *slot = Some(b);
            }
            options.extend([TcpOptionElement::Noop, TcpOptionElement::Noop, TcpOptionElement::SelectiveAcknowledgement(first, more)]);
        }
        h.set_options(&options).map_err(|e| e.to_string())?;
        Ok(h)
    }
}

/// A datagram data packet's payload header (see [`DATAGRAM_HEADER_LEN`]).
pub fn datagram_header(p: &DataPacket) -> [u8; DATAGRAM_HEADER_LEN] {
    let mut h = [0u8; DATAGRAM_HEADER_LEN];
    h[..8].copy_from_slice(&p.seq.to_be_bytes());
    let rtt_us = u32::try_from(p.hdr_rtt.0 / 1_000).unwrap_or(u32::MAX);
    h[8..12].copy_from_slice(&rtt_us.to_be_bytes());
    h[12] = u8::from(p.retransmission);
    h
}

/// A control message as a UDP payload: a kind byte, then its fields, big-endian; an absent
/// value is all ones (NaN for a float).
/// 1 ACK: next expected (u64), RTT µs (u32), arrival rate and capacity (f64, packets/s);
/// 2 NAK: count (u32), sequence numbers (u64 each); 3 SYN: packets received (u64);
/// 4 TFRC report: echo and delay (u64 ns), receive rate (f64 bit/s), loss event rate (f64).
pub fn control_payload(msg: &CtrlMsg) -> Vec<u8> {
    let mut b = Vec::with_capacity(33);
    let opt_f64 = |v: Option<f64>| v.unwrap_or(f64::NAN).to_be_bytes();
    match msg {
        CtrlMsg::Ack { next_expected, rtt, arrival_rate, capacity } => {
            b.push(1);
            b.extend(next_expected.to_be_bytes());
            b.extend(rtt.map_or(u32::MAX, |t| u32::try_from(t.0 / 1_000).unwrap_or(u32::MAX - 1)).to_be_bytes());
            b.extend(opt_f64(*arrival_rate));
            b.extend(opt_f64(*capacity));
        }
        CtrlMsg::Nak { lost } => {
            b.push(2);
            b.extend(u32::try_from(lost.len()).unwrap_or(u32::MAX).to_be_bytes());
            b.extend(lost.iter().flat_map(|s| s.to_be_bytes()));
        }
        CtrlMsg::Syn { received } => {
            b.push(3);
            b.extend(received.to_be_bytes());
        }
        CtrlMsg::TfrcReport { echo, delay, x_recv, p } => {
            b.push(4);
            b.extend(echo.0.to_be_bytes());
            b.extend(delay.0.to_be_bytes());
            b.extend(x_recv.bits_per_sec().to_be_bytes());
            b.extend(p.to_be_bytes());
        }
    }
    b
}

/// The file end of the tap: the writer and the first error, after which nothing is written.
struct Sink {
    writer: PcapWriter<BufWriter<File>>,
    path: String,
    error: Option<String>,
}

impl Sink {
    /// A new file: nanosecond timestamps, Ethernet link type.
    fn create(path: &Path) -> Result<Sink, String> {
        let name = path.display().to_string();
        let file = File::create(path).map_err(|e| format!("{name}: cannot create: {e}"))?;
        let header = PcapHeader {
            snaplen: FILE_SNAPLEN,
            datalink: DataLink::ETHERNET,
            ts_resolution: TsResolution::NanoSecond,
            endianness: Endianness::Little,
            ..PcapHeader::default()
        };
        let writer = PcapWriter::with_header(BufWriter::new(file), header).map_err(|e| format!("{name}: {e}"))?;
        Ok(Sink { writer, path: name, error: None })
    }

    /// Flushes the file; reports the first error.
    fn close(self) -> Result<(), String> {
        let Sink { writer, path, error } = self;
        if let Some(e) = error {
            return Err(e);
        }
        writer.into_writer().into_inner().map_err(|e| format!("{path}: {}", e.error()))?;
        Ok(())
    }

    fn write(&mut self, now: Time, frame: Result<Frame<'_>, String>) {
        if self.error.is_some() {
            return;
        }
        let written = frame.and_then(|f| {
            let packet = PcapPacket::new(CAPTURE_EPOCH + Duration::from_nanos(now.0), f.wire_len, f.captured);
            self.writer.write_packet(&packet).map(|_| ()).map_err(|e| e.to_string())
        });
        if let Err(e) = written {
            self.error = Some(format!("{}: {e}", self.path));
        }
    }
}

/// Real frames (the testbed's, seen at its emulator) into a pcap file, cut at [`SNAPLEN`] as
/// the simulator's are.
pub struct FrameFile(Sink);

impl FrameFile {
    pub fn create(path: &Path) -> Result<FrameFile, String> {
        Sink::create(path).map(FrameFile)
    }
    pub fn write(&mut self, now: Time, frame: &[u8]) {
        let captured = &frame[..frame.len().min(SNAPLEN as usize)];
        self.0.write(now, Ok(Frame { captured, wire_len: frame.len() as u32 }));
    }
    pub fn close(self) -> Result<(), String> {
        self.0.close()
    }
}

/// A [`Tap`] that writes a pcap file (nanosecond timestamps, Ethernet link type).
pub struct PcapTap {
    sink: Sink,
    frames: FrameBuilder,
    flows: Vec<Option<FlowState>>,
}

impl PcapTap {
    pub fn create(path: &Path) -> Result<PcapTap, String> {
        Ok(PcapTap { sink: Sink::create(path)?, frames: FrameBuilder::default(), flows: Vec::new() })
    }

}

impl PcapTap {
    /// Writes TCP segments without payload in the given directions.
    fn write_bare(&mut self, now: Time, flow: usize, segments: Result<Vec<(usize, TcpHeader)>, String>) {
        let Some(st) = self.flows.get_mut(flow).and_then(Option::as_mut) else { return };
        match segments {
            Ok(segments) => {
                for (dir, h) in segments {
                    let (route, id) = st.next_hop(dir);
                    self.sink.write(now, self.frames.tcp(&route, NOT_ECT, id, h, 0));
                }
            }
            Err(e) => self.sink.write(now, Err(e)),
        }
    }

    /// A fresh state for `flow`.
    fn open(&mut self, flow: u32, info: &FlowInfo) -> &mut FlowState {
        let i = flow as usize;
        if self.flows.len() <= i {
            self.flows.resize_with(i + 1, || None);
        }
        self.flows[i].insert(FlowState::new(flow, *info))
    }
}

impl Tap for PcapTap {
    fn syn_sent(&mut self, now: Time, flow: u32, info: &FlowInfo) {
        let st = self.open(flow, info);
        st.syn_at = Some(now);
        let syn = st.syn(now).map(|h| vec![(0, h)]);
        self.write_bare(now, flow as usize, syn);
    }

    /// The handshake's SYN-ACK and ACK come now, one base RTT after the SYN; a flow without a
    /// handshake gets all three segments of a synthetic one here, so that Wireshark learns the
    /// options.
    fn flow_started(&mut self, now: Time, flow: u32, info: &FlowInfo) {
        let i = flow as usize;
        if self.flows.get(i).and_then(Option::as_ref).and_then(|st| st.syn_at).is_none() {
            if !info.tcp {
                self.open(flow, info);
                return;
            }
            // No handshake was run: a synthetic one, its SYN at this same instant.
            self.syn_sent(now, flow, info);
        }
        let Some((st, Some(at))) = self.flows[i].as_ref().map(|st| (st, st.syn_at)) else { return };
        let segments = st.syn_ack_and_ack(at, now).map(Vec::from);
        self.write_bare(now, i, segments);
    }

    fn data_sent(&mut self, now: Time, p: &DataPacket) {
        let Some(st) = self.flows.get_mut(p.flow as usize).and_then(Option::as_mut) else { return };
        let (route, id) = st.next_hop(0);
        let frame = if st.info.tcp {
            st.data_header(now, p).and_then(|h| self.frames.tcp(&route, p.ecn, id, h, p.len as usize))
        } else {
            self.frames.udp(&route, p.ecn, id, &datagram_header(p), p.len as usize)
        };
        self.sink.write(now, frame);
    }

    fn feedback_received(&mut self, now: Time, flow: u32, back: &Back) {
        let Some(st) = self.flows.get_mut(flow as usize).and_then(Option::as_mut) else { return };
        let (route, id) = st.next_hop(1);
        let frame = match back {
            Back::Ack(ack) => st.ack_header(now, ack).and_then(|h| self.frames.tcp(&route, NOT_ECT, id, h, 0)),
            Back::Ctrl(msg) => {
                let payload = control_payload(msg);
                self.frames.udp(&route, NOT_ECT, id, &payload, payload.len())
            }
        };
        self.sink.write(now, frame);
    }

    /// Flushes the file; reports the first error.
    fn finish(self: Box<Self>) -> Result<(), String> {
        self.sink.close()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cc::transport::SackBlock;
    use pcap_file::pcap::PcapReader;
    use sim::packet::ECT0;

    const MSS: u64 = 1448;
    const ETH: usize = 14;
    const IP: usize = 20;
    const TCP_AT: usize = ETH + IP;

    fn info(tcp: bool, sack: bool) -> FlowInfo {
        FlowInfo { tcp, mss: MSS, sack, ecn: true, header_bytes: 52 }
    }

    fn packet(flow: u32, seq: u64, len: u32) -> DataPacket {
        DataPacket {
            nonce: 0,
            flow,
            seq,
            len,
            wire: len + 52,
            sent: Time::ZERO,
            enqueued: Time::ZERO,
            ecn: ECT0,
            retransmission: false,
            hdr_rtt: Time::ZERO,
            tsecr: Time::ZERO,
        }
    }

    fn be32(b: &[u8]) -> u32 {
        u32::from_be_bytes(b[..4].try_into().unwrap())
    }

    fn be16(b: &[u8]) -> u16 {
        u16::from_be_bytes(b[..2].try_into().unwrap())
    }

    /// The one's-complement sum of 16-bit words (RFC 1071): 0xFFFF over data that includes its
    /// correct checksum. Every part but the last has an even length.
    fn internet_sum(parts: &[&[u8]]) -> u16 {
        let mut sum: u32 = parts.iter().flat_map(|p| p.chunks(2)).map(|w| u32::from(u16::from_be_bytes([w[0], *w.get(1).unwrap_or(&0)]))).sum();
        while sum > 0xFFFF {
            sum = (sum & 0xFFFF) + (sum >> 16);
        }
        sum as u16
    }

    /// Checks the IPv4 header checksum and the transport checksum of a captured frame, the
    /// uncaptured payload being zeros (which add nothing to the sum).
    fn assert_checksums(f: &Frame<'_>) {
        let b = f.captured;
        assert_eq!(internet_sum(&[&b[ETH..TCP_AT]]), 0xFFFF, "IPv4 header checksum");
        let l4_len = (f.wire_len as usize - TCP_AT) as u16;
        let pseudo = [&b[26..34], &[0, b[23]], &l4_len.to_be_bytes()[..]].concat();
        assert_eq!(internet_sum(&[&pseudo, &b[TCP_AT..]]), 0xFFFF, "transport checksum");
    }

    fn options(f: &Frame<'_>) -> Vec<TcpOptionElement> {
        let (h, _) = TcpHeader::from_slice(&f.captured[TCP_AT..]).expect("a TCP header");
        h.options_iterator().map(|o| o.expect("a well-formed option")).collect()
    }

    #[test]
    fn a_data_segment_has_its_fields_at_their_offsets() {
        let mut st = FlowState::new(3, info(true, true));
        st.ts_recent = 77;
        let p = packet(3, 5, MSS as u32);
        let h = st.data_header(Time(2_500_000_000), &p).unwrap();
        let (route, id) = st.next_hop(0);
        let mut fb = FrameBuilder::default();
        let f = fb.tcp(&route, p.ecn, id, h, MSS as usize).unwrap();
        let b = f.captured;
        assert_eq!(b.len(), TCP_AT + 32, "headers only: 12 bytes of options");
        assert_eq!(f.wire_len as usize, TCP_AT + 32 + MSS as usize);
        assert_eq!(be16(&b[12..]), 0x0800, "IPv4 in Ethernet");
        assert_eq!(b[14], 0x45);
        assert_eq!(b[15] & 0b11, ECT0, "ECN field of the TOS byte");
        assert_eq!(be16(&b[16..]) as usize, IP + 32 + MSS as usize, "IP total length counts the payload");
        assert_eq!(b[23], 6);
        assert_eq!((&b[26..30], &b[30..34]), (&[10, 0, 0, 1][..], &[10, 0, 1, 1][..]));
        assert_eq!((be16(&b[34..]), be16(&b[36..])), (40003, 5201));
        assert_eq!(be32(&b[38..]), st.isn[0].wrapping_add(1 + 5 * MSS as u32), "seq: ISN + 1 + 5 segments");
        assert_eq!(be32(&b[42..]), st.isn[1].wrapping_add(1));
        assert_eq!(b[46] >> 4, 8, "data offset in words");
        assert_eq!(b[47], 0x10, "ACK alone");
        assert_eq!(&b[54..66], &[1, 1, 8, 10, 0, 0, 0x09, 0xC4, 0, 0, 0, 77], "NOP NOP TSval 2500 ms TSecr 77");
        assert_checksums(&f);
    }

    #[test]
    fn sack_blocks_become_byte_ranges() {
        let mut st = FlowState::new(0, info(true, true));
        let mut ack = Ack { cum_ack: 10, n_sack: 2, ece: true, echo: Some(Time(1_000_000_000)), ..Ack::default() };
        ack.sack[0] = SackBlock { start: 12, end: 15 };
        ack.sack[1] = SackBlock { start: 17, end: 18 };
        let h = st.ack_header(Time(1_050_000_000), &ack).unwrap();
        let (route, id) = st.next_hop(1);
        let mut fb = FrameBuilder::default();
        let f = fb.tcp(&route, NOT_ECT, id, h, 0).unwrap();
        let b = f.captured;
        assert_eq!(f.wire_len as usize, b.len(), "an ACK is captured whole");
        assert_eq!((be16(&b[34..]), be16(&b[36..])), (5201, 40000));
        let base = st.isn[0].wrapping_add(1);
        let byte = |seg: u32| base.wrapping_add(seg * MSS as u32);
        assert_eq!(be32(&b[42..]), byte(10), "cumulative ACK in bytes");
        assert_eq!(b[47], 0x50, "ACK and ECE");
        assert_eq!(
            options(&f),
            [
                TcpOptionElement::Noop,
                TcpOptionElement::Noop,
                TcpOptionElement::Timestamp(1050, 1000),
                TcpOptionElement::Noop,
                TcpOptionElement::Noop,
                TcpOptionElement::SelectiveAcknowledgement((byte(12), byte(15)), [Some((byte(17), byte(18))), None, None]),
            ]
        );
        assert_eq!(st.ts_recent, 1050, "the sender echoes the receiver's TSval next");
        assert_checksums(&f);
    }

    #[test]
    fn three_sack_blocks_fit_beside_timestamps() {
        let mut st = FlowState::new(0, info(true, true));
        let mut ack = Ack { cum_ack: 1, n_sack: 3, echo: Some(Time::ZERO), ..Ack::default() };
        ack.sack = [SackBlock { start: 9, end: 10 }, SackBlock { start: 5, end: 7 }, SackBlock { start: 2, end: 3 }];
        let h = st.ack_header(Time::ZERO, &ack).unwrap();
        assert_eq!(h.header_len(), 60, "the longest TCP header");
    }

    #[test]
    fn a_short_last_segment_ends_the_byte_stream() {
        let mut st = FlowState::new(0, info(true, true));
        let mut fb = FrameBuilder::default();
        let last = packet(0, 9, 100);
        let h = st.data_header(Time::ZERO, &last).unwrap();
        let f = fb.tcp(&Route::forward(0), last.ecn, 0, h, 100).unwrap();
        assert_eq!(f.wire_len as usize, TCP_AT + 32 + 100);
        assert_eq!(be32(&f.captured[38..]), st.isn[0].wrapping_add(1 + 9 * MSS as u32));
        let mut ack = Ack { cum_ack: 8, n_sack: 1, ..Ack::default() };
        ack.sack[0] = SackBlock { start: 9, end: 10 };
        let h = st.ack_header(Time::ZERO, &ack).unwrap();
        let end = st.isn[0].wrapping_add(1 + 9 * MSS as u32 + 100);
        assert!(matches!(h.options_iterator().last(), Some(Ok(TcpOptionElement::SelectiveAcknowledgement((_, e), _))) if e == end));
        ack.cum_ack = 10;
        assert_eq!(st.ack_header(Time::ZERO, &ack).unwrap().acknowledgment_number, end, "the final ACK: total bytes + 1");
    }

    #[test]
    fn the_handshake_announces_the_options() {
        let st = FlowState::new(1, info(true, true));
        let syn = st.syn(Time(3_000_000)).unwrap();
        let [(d1, syn_ack), (d2, ack)] = st.syn_ack_and_ack(Time(3_000_000), Time(43_000_000)).unwrap();
        assert_eq!((d1, d2), (1, 0));
        assert!(syn.syn && !syn.ack && syn.ece && syn.cwr, "an ECN-setup SYN");
        assert_eq!(syn.sequence_number, st.isn[0]);
        let want = |tsval, tsecr| {
            vec![
                TcpOptionElement::MaximumSegmentSize(1448),
                TcpOptionElement::SelectiveAcknowledgementPermitted,
                TcpOptionElement::Timestamp(tsval, tsecr),
                TcpOptionElement::Noop,
                TcpOptionElement::WindowScale(WINDOW_SCALE),
            ]
        };
        let opts = |h: &TcpHeader| h.options_iterator().map(Result::unwrap).collect::<Vec<_>>();
        assert_eq!(opts(&syn), want(3, 0));
        assert!(syn_ack.syn && syn_ack.ack && syn_ack.ece && !syn_ack.cwr);
        assert_eq!((syn_ack.sequence_number, syn_ack.acknowledgment_number), (st.isn[1], st.isn[0].wrapping_add(1)));
        assert_eq!(opts(&syn_ack), want(43, 3), "the SYN-ACK echoes the SYN's TSval");
        assert!(ack.ack && !ack.syn);
        assert_eq!((ack.sequence_number, ack.acknowledgment_number), (st.isn[0].wrapping_add(1), st.isn[1].wrapping_add(1)));
        let no_sack = FlowState::new(1, FlowInfo { ecn: false, ..info(true, false) });
        let syn = no_sack.syn(Time::ZERO).unwrap();
        assert!(!syn.ece && !syn.cwr);
        assert!(!opts(&syn).contains(&TcpOptionElement::SelectiveAcknowledgementPermitted));
    }

    #[test]
    fn datagrams_are_udp_with_our_header() {
        let mut fb = FrameBuilder::default();
        let p = DataPacket { seq: 77, retransmission: true, hdr_rtt: Time(30_000_000), ..packet(2, 0, 1200) };
        let route = Route::forward(2);
        let f = fb.udp(&route, p.ecn, 0, &datagram_header(&p), 1200).unwrap();
        let b = f.captured;
        assert_eq!(b.len(), TCP_AT + 8 + DATAGRAM_HEADER_LEN);
        assert_eq!(f.wire_len as usize, TCP_AT + 8 + 1200);
        assert_eq!((b[23], b[15] & 0b11), (17, ECT0));
        assert_eq!((be16(&b[34..]), be16(&b[36..]), be16(&b[38..])), (40002, 5201, 8 + 1200));
        let head = &b[42..];
        assert_eq!((u64::from_be_bytes(head[..8].try_into().unwrap()), be32(&head[8..]), head[12]), (77, 30_000, 1));
        assert_checksums(&f);

        let nak = control_payload(&CtrlMsg::Nak { lost: vec![4, 5, 6] });
        assert_eq!((nak[0], be32(&nak[1..]), nak.len()), (2, 3, 1 + 4 + 24));
        let f = fb.udp(&route.reverse(), NOT_ECT, 1, &nak, nak.len()).unwrap();
        assert_eq!((be16(&f.captured[34..]), be16(&f.captured[36..])), (5201, 40002));
        assert_eq!(&f.captured[42..], &nak[..]);
        assert_checksums(&f);

        let long = control_payload(&CtrlMsg::Nak { lost: (0..100).collect() });
        let f = fb.udp(&route.reverse(), NOT_ECT, 2, &long, long.len()).unwrap();
        assert_eq!((f.captured.len(), f.wire_len as usize), (SNAPLEN as usize, TCP_AT + 8 + long.len()), "cut at the snap length");
    }

    #[test]
    fn flows_past_the_port_range_get_another_address() {
        assert_eq!((Route::forward(25_535).src_port, Route::forward(25_535).src_ip), (65_535, [10, 0, 0, 1]));
        assert_eq!((Route::forward(25_536).src_port, Route::forward(25_536).src_ip), (40_000, [10, 128, 0, 1]));
        assert_eq!(Route::forward(7).reverse().reverse(), Route::forward(7));
    }

    #[test]
    fn the_tap_writes_a_nanosecond_pcap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.pcap");
        let mut tap = PcapTap::create(&path).unwrap();
        tap.flow_started(Time(5), 0, &info(true, true));
        tap.syn_sent(Time(10_000_000), 2, &info(true, true));
        tap.data_sent(Time(123_456_789), &packet(0, 0, MSS as u32));
        tap.feedback_received(Time(200_000_001), 0, &Back::Ack(Ack { cum_ack: 1, echo: Some(Time(123_456_789)), ..Ack::default() }));
        tap.flow_started(Time(300_000_000), 1, &info(false, false));
        tap.data_sent(Time(300_000_000), &packet(1, 0, 1000));
        tap.feedback_received(Time(400_000_000), 1, &Back::Ctrl(CtrlMsg::Syn { received: 1 }));
        tap.feedback_received(Time(400_000_000), 9, &Back::Ctrl(CtrlMsg::Syn { received: 1 }));
        tap.flow_started(Time(410_000_000), 2, &info(true, true));
        Box::new(tap).finish().unwrap();

        let mut reader = PcapReader::new(File::open(&path).unwrap()).unwrap();
        let h = reader.header();
        assert_eq!((h.ts_resolution, h.snaplen, h.datalink), (TsResolution::NanoSecond, FILE_SNAPLEN, DataLink::ETHERNET));
        let mut got = Vec::new();
        while let Some(p) = reader.next_packet() {
            let p = p.unwrap();
            got.push(((p.timestamp - CAPTURE_EPOCH).as_nanos(), p.orig_len, p.data.len()));
        }
        let tcp_data = (TCP_AT + 32) as u32;
        assert_eq!(
            got,
            [
                (5, 74, 74),
                (5, 74, 74),
                (5, 66, 66),
                (10_000_000, 74, 74),
                (123_456_789, tcp_data + 1448, tcp_data as usize),
                (200_000_001, 66, 66),
                (300_000_000, (TCP_AT + 8 + 1000) as u32, TCP_AT + 8 + DATAGRAM_HEADER_LEN),
                (400_000_000, (TCP_AT + 8 + 9) as u32, TCP_AT + 8 + 9),
                (410_000_000, 74, 74),
                (410_000_000, 66, 66),
            ],
            "a synthetic handshake at a start, a handshake's SYN at its own time and its SYN-ACK and ACK \
             at the first data, data, ACK, datagram, control message; nothing for an unknown flow"
        );
    }

    #[test]
    fn a_file_that_cannot_be_created_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("x.pcap");
        let e = PcapTap::create(&path).err().expect("no such directory");
        assert!(e.contains("x.pcap") && e.contains("cannot create"), "{e}");
    }
}
