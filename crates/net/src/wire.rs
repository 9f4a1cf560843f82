//! The wire format: every cclab packet is one UDP datagram,
//!
//! ```text
//! magic "CC" (2) | version (1) | kind (1) | session (8) | body ... | CRC-32 of all before (4)
//! ```
//!
//! all integers big-endian. The kinds:
//!
//! - `Hello` (client to server): the shared token, the client's clock when it sent the Hello,
//!   which stream of how many, the direction, the segment size, the duration and the congestion
//!   controller as JSON (`{"algorithm":"cubic"}`).
//! - `HelloAck`: accepted, or refused with a reason.
//! - `Data`: segment number, the sender's send time (echoed back for RTT samples, as TCP's
//!   timestamp option), the sender's RTT estimate where the protocol carries one in its header
//!   (TFRC, RFC 5348 section 3.2.1), flags (retransmission, ECN-capable) and the payload.
//! - `Ack`: TCP's cumulative ACK, up to three SACK blocks (RFC 2018), ECN-Echo and a count of
//!   CE marks (the idea of accurate ECN), and the echoed send time.
//! - `Ctrl`: a datagram protocol's own feedback, one of `cc::datagram::CtrlMsg`: UDT's ACK
//!   (next expected packet, RTT, arrival rate and link capacity estimates, as UDT's ACK control
//!   packet carries them), a loss report (SABUL's ERR, UDT's NAK: the lost numbers, as ranges),
//!   SABUL's SYN (packets received in the interval), TFRC's receiver report (RFC 5348 section
//!   3.2.2: timestamp echo, the time it was held, X_recv and p).
//! - `Fin` / `FinAck`: the end of a stream: how many segments and the CRC-32 of the whole stream
//!   the sender sent; how many bytes the receiver delivered in order, the duplicates and
//!   corrupted bytes it saw, and the CRC-32 of what it delivered.
//!
//! [`decode`] checks lengths before it reads anything and every field's range, so a truncated,
//! foreign or corrupted datagram is an error (counted and dropped by the caller), never a panic;
//! `tests` fuzz it.

use cc::datagram::CtrlMsg;
use cc::transport::{Ack, SackBlock, MAX_SACK_BLOCKS};
use cc::{Rate, Time};

pub const MAGIC: [u8; 2] = *b"CC";
pub const VERSION: u8 = 1;
/// Magic, version, kind, session.
pub const HEADER: usize = 12;
pub const TRAILER: usize = 4;
/// The largest payload a `Data` packet may carry (a jumbo frame's worth).
pub const MAX_PAYLOAD: usize = 9000;
pub const MAX_TOKEN: usize = 64;
pub const MAX_CC_JSON: usize = 1024;
pub const MAX_REASON: usize = 256;
/// Loss ranges per loss report (more go in further reports): 16 bytes each, well inside a
/// datagram.
pub const MAX_LOSS_RANGES: usize = 256;

const KIND_HELLO: u8 = 1;
const KIND_HELLO_ACK: u8 = 2;
const KIND_DATA: u8 = 3;
const KIND_ACK: u8 = 4;
const KIND_FIN: u8 = 5;
const KIND_FIN_ACK: u8 = 6;
const KIND_CTRL: u8 = 7;

const CTRL_ACK: u8 = 1;
const CTRL_NAK: u8 = 2;
const CTRL_SYN: u8 = 3;
const CTRL_TFRC: u8 = 4;

pub const FLAG_RETX: u8 = 1;
pub const FLAG_ECT: u8 = 2;

#[derive(Clone, Debug, PartialEq)]
pub struct Hello {
    pub token: String,
    /// The client's clock when it sent this Hello: the server sets the session's clock from it
    /// (see `server`), so that send times in data packets mean the same at both ends.
    pub sent: Time,
    pub stream: u16,
    pub streams: u16,
    /// The server sends and the client receives (iperf3's `-R`).
    pub reverse: bool,
    pub mss: u16,
    pub duration_ms: u32,
    pub cc_json: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Data<'a> {
    pub seq: u64,
    pub sent: Time,
    /// The sender's RTT estimate in the header (TFRC); `None` for the others.
    pub hdr_rtt: Option<Time>,
    pub flags: u8,
    pub payload: &'a [u8],
}

/// The end of a stream as the sender saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct Fin {
    pub segments: u64,
    pub bytes: u64,
    pub crc: u32,
    pub retransmits: u64,
}

/// The end of a stream as the receiver saw it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct FinAck {
    pub delivered: u64,
    pub duplicates: u64,
    pub corrupted: u64,
    pub crc: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Body<'a> {
    Hello(Hello),
    HelloAck { ok: bool, reason: String },
    Data(Data<'a>),
    Ack(Ack),
    Ctrl(CtrlMsg),
    Fin(Fin),
    FinAck(FinAck),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Packet<'a> {
    pub session: u64,
    pub body: Body<'a>,
}

/// Why a datagram was dropped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    /// Shorter than its header, trailer or the fields its kind needs.
    Truncated,
    /// Not a cclab packet (wrong magic) or another version of the format.
    Foreign,
    /// The CRC-32 does not match: corrupted on the way.
    Corrupted,
    /// A kind or field value outside what the format allows.
    Malformed,
}

impl WireError {
    pub fn name(self) -> &'static str {
        match self {
            WireError::Truncated => "truncated",
            WireError::Foreign => "foreign",
            WireError::Corrupted => "corrupted",
            WireError::Malformed => "malformed",
        }
    }
}

/// Reads fields front to back; every read checks the length first.
struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        if self.buf.len() < n {
            return Err(WireError::Truncated);
        }
        let (head, rest) = self.buf.split_at(n);
        self.buf = rest;
        Ok(head)
    }
    fn u8(&mut self) -> Result<u8, WireError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, WireError> {
        Ok(u16::from_be_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }
    fn u32(&mut self) -> Result<u32, WireError> {
        Ok(u32::from_be_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn u64(&mut self) -> Result<u64, WireError> {
        Ok(u64::from_be_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    fn bool(&mut self) -> Result<bool, WireError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(WireError::Malformed),
        }
    }
    /// A length-prefixed UTF-8 string of at most `max` bytes.
    fn string(&mut self, max: usize) -> Result<String, WireError> {
        let n = self.u16()? as usize;
        if n > max {
            return Err(WireError::Malformed);
        }
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| WireError::Malformed)
    }
    /// A finite, non-negative float (rates, loss event rates).
    fn f64(&mut self) -> Result<f64, WireError> {
        let x = f64::from_bits(self.u64()?);
        if x.is_finite() && x >= 0.0 {
            Ok(x)
        } else {
            Err(WireError::Malformed)
        }
    }
    /// A float that may be absent (encoded as NaN).
    fn opt_f64(&mut self) -> Result<Option<f64>, WireError> {
        let x = f64::from_bits(self.u64()?);
        if x.is_nan() {
            Ok(None)
        } else if x.is_finite() && x >= 0.0 {
            Ok(Some(x))
        } else {
            Err(WireError::Malformed)
        }
    }
    fn end(&self) -> Result<(), WireError> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(WireError::Malformed)
        }
    }
}

/// Parses one datagram.
pub fn decode(buf: &[u8]) -> Result<Packet<'_>, WireError> {
    if buf.len() < HEADER + TRAILER {
        return Err(if buf.len() >= 2 && buf[..2] != MAGIC { WireError::Foreign } else { WireError::Truncated });
    }
    if buf[..2] != MAGIC || buf[2] != VERSION {
        return Err(WireError::Foreign);
    }
    let (content, trailer) = buf.split_at(buf.len() - TRAILER);
    if crc32fast::hash(content).to_be_bytes() != trailer {
        return Err(WireError::Corrupted);
    }
    let mut r = Reader { buf: &content[3..] };
    let kind = r.u8()?;
    let session = r.u64()?;
    let body = match kind {
        KIND_HELLO => Body::Hello(Hello {
            token: r.string(MAX_TOKEN)?,
            sent: Time(r.u64()?),
            stream: r.u16()?,
            streams: r.u16()?,
            reverse: r.bool()?,
            mss: r.u16()?,
            duration_ms: r.u32()?,
            cc_json: r.string(MAX_CC_JSON)?,
        }),
        KIND_HELLO_ACK => Body::HelloAck { ok: r.bool()?, reason: r.string(MAX_REASON)? },
        KIND_DATA => {
            let seq = r.u64()?;
            let sent = Time(r.u64()?);
            let hdr_rtt = r.u64()?;
            let flags = r.u8()?;
            if flags & !(FLAG_RETX | FLAG_ECT) != 0 {
                return Err(WireError::Malformed);
            }
            let n = r.u16()? as usize;
            if n == 0 || n > MAX_PAYLOAD {
                return Err(WireError::Malformed);
            }
            Body::Data(Data { seq, sent, hdr_rtt: (hdr_rtt != 0).then_some(Time(hdr_rtt)), flags, payload: r.take(n)? })
        }
        KIND_ACK => {
            let cum_ack = r.u64()?;
            let n_sack = r.u8()?;
            if n_sack as usize > MAX_SACK_BLOCKS {
                return Err(WireError::Malformed);
            }
            let mut sack = [SackBlock::default(); MAX_SACK_BLOCKS];
            for b in sack.iter_mut().take(n_sack as usize) {
                let (start, end) = (r.u64()?, r.u64()?);
                // A SACK block names received segments above the cumulative ACK.
                if start >= end || start <= cum_ack {
                    return Err(WireError::Malformed);
                }
                *b = SackBlock { start, end };
            }
            let ece = r.bool()?;
            let ce_packets = r.u32()?;
            let echo = r.u64()?;
            Body::Ack(Ack { cum_ack, sack, n_sack, ece, ce_packets, echo: (echo != 0).then_some(Time(echo)), one_way_delay: None, ..Ack::default() })
        }
        KIND_CTRL => Body::Ctrl(match r.u8()? {
            CTRL_ACK => {
                let next_expected = r.u64()?;
                let rtt = r.u64()?;
                CtrlMsg::Ack { next_expected, rtt: (rtt != 0).then_some(Time(rtt)), arrival_rate: r.opt_f64()?, capacity: r.opt_f64()? }
            }
            CTRL_NAK => {
                let n = r.u16()? as usize;
                if n == 0 || n > MAX_LOSS_RANGES {
                    return Err(WireError::Malformed);
                }
                let mut lost = Vec::new();
                let mut floor = 0;
                for _ in 0..n {
                    let (start, end) = (r.u64()?, r.u64()?);
                    // Ascending, disjoint, non-empty ranges of at most MAX_LOSS_RANGES * 64 numbers
                    // in all, so that a report cannot make the receiver of it allocate much.
                    if start < floor || end <= start || lost.len() as u64 + (end - start) > (MAX_LOSS_RANGES * 64) as u64 {
                        return Err(WireError::Malformed);
                    }
                    lost.extend(start..end);
                    floor = end + 1;
                }
                CtrlMsg::Nak { lost }
            }
            CTRL_SYN => CtrlMsg::Syn { received: r.u64()? },
            CTRL_TFRC => {
                let echo = Time(r.u64()?);
                let delay = Time(r.u64()?);
                let x_recv = Rate(r.f64()?);
                let p = r.f64()?;
                if p > 1.0 {
                    return Err(WireError::Malformed);
                }
                CtrlMsg::TfrcReport { echo, delay, x_recv, p }
            }
            _ => return Err(WireError::Malformed),
        }),
        KIND_FIN => Body::Fin(Fin { segments: r.u64()?, bytes: r.u64()?, crc: r.u32()?, retransmits: r.u64()? }),
        KIND_FIN_ACK => Body::FinAck(FinAck { delivered: r.u64()?, duplicates: r.u64()?, corrupted: r.u64()?, crc: r.u32()? }),
        _ => return Err(WireError::Malformed),
    };
    r.end()?;
    Ok(Packet { session, body })
}

/// Writes `p` into `out` (cleared first). Strings longer than the format allows are cut at a
/// character boundary, payloads longer than [`MAX_PAYLOAD`] are a programming error.
pub fn encode(p: &Packet<'_>, out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(&MAGIC);
    out.push(VERSION);
    let kind = match &p.body {
        Body::Hello(_) => KIND_HELLO,
        Body::HelloAck { .. } => KIND_HELLO_ACK,
        Body::Data(_) => KIND_DATA,
        Body::Ack(_) => KIND_ACK,
        Body::Ctrl(_) => KIND_CTRL,
        Body::Fin(_) => KIND_FIN,
        Body::FinAck(_) => KIND_FIN_ACK,
    };
    out.push(kind);
    out.extend_from_slice(&p.session.to_be_bytes());
    let string = |out: &mut Vec<u8>, s: &str, max: usize| {
        let mut n = s.len().min(max);
        while !s.is_char_boundary(n) {
            n -= 1;
        }
        out.extend_from_slice(&(n as u16).to_be_bytes());
        out.extend_from_slice(&s.as_bytes()[..n]);
    };
    match &p.body {
        Body::Hello(h) => {
            string(out, &h.token, MAX_TOKEN);
            out.extend_from_slice(&h.sent.0.to_be_bytes());
            out.extend_from_slice(&h.stream.to_be_bytes());
            out.extend_from_slice(&h.streams.to_be_bytes());
            out.push(h.reverse as u8);
            out.extend_from_slice(&h.mss.to_be_bytes());
            out.extend_from_slice(&h.duration_ms.to_be_bytes());
            string(out, &h.cc_json, MAX_CC_JSON);
        }
        Body::HelloAck { ok, reason } => {
            out.push(*ok as u8);
            string(out, reason, MAX_REASON);
        }
        Body::Data(d) => {
            assert!(!d.payload.is_empty() && d.payload.len() <= MAX_PAYLOAD, "payload of {} bytes", d.payload.len());
            out.extend_from_slice(&d.seq.to_be_bytes());
            out.extend_from_slice(&d.sent.0.to_be_bytes());
            out.extend_from_slice(&d.hdr_rtt.map_or(0, |t| t.0.max(1)).to_be_bytes());
            out.push(d.flags);
            out.extend_from_slice(&(d.payload.len() as u16).to_be_bytes());
            out.extend_from_slice(d.payload);
        }
        Body::Ack(a) => {
            out.extend_from_slice(&a.cum_ack.to_be_bytes());
            out.push(a.n_sack);
            for b in a.sack_blocks() {
                out.extend_from_slice(&b.start.to_be_bytes());
                out.extend_from_slice(&b.end.to_be_bytes());
            }
            out.push(a.ece as u8);
            out.extend_from_slice(&a.ce_packets.to_be_bytes());
            out.extend_from_slice(&a.echo.map_or(0, |t| t.0.max(1)).to_be_bytes());
        }
        Body::Ctrl(m) => encode_ctrl(m, out),
        Body::Fin(f) => {
            out.extend_from_slice(&f.segments.to_be_bytes());
            out.extend_from_slice(&f.bytes.to_be_bytes());
            out.extend_from_slice(&f.crc.to_be_bytes());
            out.extend_from_slice(&f.retransmits.to_be_bytes());
        }
        Body::FinAck(f) => {
            out.extend_from_slice(&f.delivered.to_be_bytes());
            out.extend_from_slice(&f.duplicates.to_be_bytes());
            out.extend_from_slice(&f.corrupted.to_be_bytes());
            out.extend_from_slice(&f.crc.to_be_bytes());
        }
    }
    let crc = crc32fast::hash(out);
    out.extend_from_slice(&crc.to_be_bytes());
}

fn encode_ctrl(m: &CtrlMsg, out: &mut Vec<u8>) {
    let opt = |x: Option<f64>| x.unwrap_or(f64::NAN).to_bits().to_be_bytes();
    match m {
        CtrlMsg::Ack { next_expected, rtt, arrival_rate, capacity } => {
            out.push(CTRL_ACK);
            out.extend_from_slice(&next_expected.to_be_bytes());
            out.extend_from_slice(&rtt.map_or(0, |t| t.0.max(1)).to_be_bytes());
            out.extend_from_slice(&opt(*arrival_rate));
            out.extend_from_slice(&opt(*capacity));
        }
        CtrlMsg::Nak { lost } => {
            let ranges = loss_ranges(lost);
            assert!(!ranges.is_empty() && ranges.len() <= MAX_LOSS_RANGES, "split loss reports with `split_loss_report`");
            out.push(CTRL_NAK);
            out.extend_from_slice(&(ranges.len() as u16).to_be_bytes());
            for (start, end) in ranges {
                out.extend_from_slice(&start.to_be_bytes());
                out.extend_from_slice(&end.to_be_bytes());
            }
        }
        CtrlMsg::Syn { received } => {
            out.push(CTRL_SYN);
            out.extend_from_slice(&received.to_be_bytes());
        }
        CtrlMsg::TfrcReport { echo, delay, x_recv, p } => {
            out.push(CTRL_TFRC);
            out.extend_from_slice(&echo.0.to_be_bytes());
            out.extend_from_slice(&delay.0.to_be_bytes());
            out.extend_from_slice(&x_recv.bytes_per_sec().to_bits().to_be_bytes());
            out.extend_from_slice(&p.to_bits().to_be_bytes());
        }
    }
}

/// A sorted list of lost numbers as half-open ranges `[start, end)`, as UDT's NAK compresses
/// runs of losses.
fn loss_ranges(lost: &[u64]) -> Vec<(u64, u64)> {
    let mut sorted = lost.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    for x in sorted {
        match ranges.last_mut() {
            Some((_, end)) if *end == x => *end += 1,
            _ => ranges.push((x, x + 1)),
        }
    }
    ranges
}

/// A loss report too long for one datagram, as several that each fit.
pub fn split_loss_report(lost: &[u64]) -> Vec<CtrlMsg> {
    let ranges = loss_ranges(lost);
    ranges
        .chunks(MAX_LOSS_RANGES)
        .flat_map(|chunk| {
            let all: Vec<u64> = chunk.iter().flat_map(|&(s, e)| s..e).collect();
            all.chunks(MAX_LOSS_RANGES * 64).map(|c| CtrlMsg::Nak { lost: c.to_vec() }).collect::<Vec<_>>()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn roundtrip(p: Packet<'_>) {
        let mut buf = Vec::new();
        encode(&p, &mut buf);
        assert_eq!(decode(&buf).unwrap(), p);
    }

    #[test]
    fn every_kind_round_trips() {
        roundtrip(Packet {
            session: 7,
            body: Body::Hello(Hello { token: "s3cret".into(), sent: Time(5), stream: 1, streams: 4, reverse: true, mss: 1448, duration_ms: 10_000, cc_json: "{\"algorithm\":\"cubic\"}".into() }),
        });
        roundtrip(Packet { session: 7, body: Body::HelloAck { ok: false, reason: "busy".into() } });
        roundtrip(Packet { session: u64::MAX, body: Body::Data(Data { seq: 9, sent: Time(123), hdr_rtt: Some(Time(40_000_000)), flags: FLAG_RETX | FLAG_ECT, payload: &[1, 2, 3] }) });
        roundtrip(Packet { session: 2, body: Body::Ctrl(CtrlMsg::Ack { next_expected: 77, rtt: Some(Time(5_000_000)), arrival_rate: Some(8123.5), capacity: None }) });
        roundtrip(Packet { session: 2, body: Body::Ctrl(CtrlMsg::Nak { lost: vec![3, 4, 5, 9, 20, 21] }) });
        roundtrip(Packet { session: 2, body: Body::Ctrl(CtrlMsg::Syn { received: 1234 }) });
        roundtrip(Packet { session: 2, body: Body::Ctrl(CtrlMsg::TfrcReport { echo: Time(99), delay: Time(7), x_recv: Rate(1.25e6), p: 0.01 }) });
        let mut sack = [SackBlock::default(); MAX_SACK_BLOCKS];
        sack[0] = SackBlock { start: 12, end: 14 };
        sack[1] = SackBlock { start: 20, end: 21 };
        roundtrip(Packet { session: 1, body: Body::Ack(Ack { cum_ack: 10, sack, n_sack: 2, ece: true, ce_packets: 3, echo: Some(Time(99)), one_way_delay: None, ..Ack::default() }) });
        roundtrip(Packet { session: 1, body: Body::Fin(Fin { segments: 5, bytes: 7000, crc: 0xdead_beef, retransmits: 2 }) });
        roundtrip(Packet { session: 1, body: Body::FinAck(FinAck { delivered: 7000, duplicates: 1, corrupted: 0, crc: 0xdead_beef }) });
    }

    #[test]
    fn damaged_datagrams_are_named_errors() {
        let mut buf = Vec::new();
        encode(&Packet { session: 1, body: Body::Data(Data { seq: 0, sent: Time(1), hdr_rtt: None, flags: 0, payload: &[0; 100] }) }, &mut buf);
        assert_eq!(decode(&buf[..buf.len() - 1]), Err(WireError::Corrupted));
        assert_eq!(decode(&buf[..10]), Err(WireError::Truncated));
        let mut flipped = buf.clone();
        flipped[40] ^= 0x10;
        assert_eq!(decode(&flipped), Err(WireError::Corrupted));
        let mut foreign = buf.clone();
        foreign[0] = b'X';
        assert_eq!(decode(&foreign), Err(WireError::Foreign));
        assert_eq!(decode(b"GET / HTTP/1.1\r\n\r\n"), Err(WireError::Foreign));
        // A SACK block at or below the cumulative ACK is not a SACK block.
        let mut sack = [SackBlock::default(); MAX_SACK_BLOCKS];
        sack[0] = SackBlock { start: 3, end: 5 };
        encode(&Packet { session: 1, body: Body::Ack(Ack { cum_ack: 10, sack, n_sack: 1, ..Ack::default() }) }, &mut buf);
        assert_eq!(decode(&buf), Err(WireError::Malformed));
    }

    /// A datagram with a valid frame (magic, version, CRC) around arbitrary content: what a
    /// buggy or hostile peer could send past the checksum.
    fn framed(kind: u8, content: &[u8]) -> Vec<u8> {
        let mut buf = MAGIC.to_vec();
        buf.push(VERSION);
        buf.push(kind);
        buf.extend_from_slice(content);
        let crc = crc32fast::hash(&buf);
        buf.extend_from_slice(&crc.to_be_bytes());
        buf
    }

    #[test]
    fn long_loss_reports_split_into_datagrams_that_decode() {
        // Every other number lost: as many ranges as losses.
        let lost: Vec<u64> = (0..2000).map(|i| 2 * i).collect();
        let parts = split_loss_report(&lost);
        assert!(parts.len() >= 2000 / MAX_LOSS_RANGES);
        let mut back = Vec::new();
        let mut buf = Vec::new();
        for m in parts {
            encode(&Packet { session: 1, body: Body::Ctrl(m) }, &mut buf);
            match decode(&buf).unwrap().body {
                Body::Ctrl(CtrlMsg::Nak { lost }) => back.extend(lost),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(back, lost);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

        /// Any bytes at all: an error or a packet, never a panic.
        #[test]
        fn arbitrary_bytes_never_panic(buf in proptest::collection::vec(any::<u8>(), 0..2048)) {
            let _ = decode(&buf);
        }

        /// Arbitrary content inside a valid frame, for every kind: decoding never panics, and
        /// whatever decodes encodes back to the same bytes.
        #[test]
        fn framed_content_decodes_or_fails_cleanly(kind in 0u8..9, content in proptest::collection::vec(any::<u8>(), 0..600)) {
            let buf = framed(kind, &content);
            if let Ok(p) = decode(&buf) {
                let mut again = Vec::new();
                encode(&p, &mut again);
                prop_assert_eq!(again, buf);
            }
        }

        /// Every Data packet survives the trip, and any one flipped bit is caught.
        #[test]
        fn data_round_trips_and_bit_flips_are_caught(seq: u64, sent in 1u64.., payload in proptest::collection::vec(any::<u8>(), 1..1500), bit in 0usize..8) {
            let p = Packet { session: 3, body: Body::Data(Data { seq, sent: Time(sent), hdr_rtt: None, flags: 0, payload: &payload }) };
            let mut buf = Vec::new();
            encode(&p, &mut buf);
            prop_assert_eq!(decode(&buf).unwrap(), p);
            let at = (seq as usize) % buf.len();
            buf[at] ^= 1 << bit;
            prop_assert!(decode(&buf).is_err());
        }
    }
}
