//! The bytes of a test stream and their check at the receiver.
//!
//! Byte `o` of a session's stream is a function of the session id and `o` alone (a SplitMix64
//! mix of the session and the 8-byte word `o` falls in, `cc::rng::derive_seed`), so the
//! receiver can verify each payload it receives against what was sent without the sender
//! storing anything. The receiver also
//! reassembles the stream in order (holding at most a receive window of out-of-order
//! segments) and keeps a CRC-32 over the bytes it delivers; the sender computes the CRC-32 of
//! the stream it sent. Equal CRCs and byte counts at the end mean every byte arrived once, in
//! order and intact.

use cc::rng::derive_seed;
use std::collections::BTreeMap;

/// Fills `out` with the stream's bytes from offset `offset`.
pub fn fill(session: u64, offset: u64, out: &mut [u8]) {
    let mut o = offset;
    let mut i = 0;
    while i < out.len() {
        let word = derive_seed(session, o / 8).to_le_bytes();
        let start = (o % 8) as usize;
        let n = (8 - start).min(out.len() - i);
        out[i..i + n].copy_from_slice(&word[start..start + n]);
        i += n;
        o += n as u64;
    }
}

/// The CRC-32 of the first `bytes` bytes of the stream, as the sender computes it.
pub fn stream_crc(session: u64, bytes: u64) -> u32 {
    let mut h = crc32fast::Hasher::new();
    let mut buf = [0u8; 8192];
    let mut o = 0;
    while o < bytes {
        let n = (bytes - o).min(buf.len() as u64) as usize;
        fill(session, o, &mut buf[..n]);
        h.update(&buf[..n]);
        o += n as u64;
    }
    h.finalize()
}

/// The checksum both ends keep over a stream. For an ordered (reliable) stream, the CRC-32 of
/// its bytes in order; for an unordered one (TFRC, CBR: what is lost stays lost, the rest is
/// delivered as it comes), the XOR of each packet's CRC-32 over its number and payload, which
/// does not depend on arrival order.
#[derive(Clone)]
pub enum StreamSum {
    Ordered(crc32fast::Hasher),
    Unordered(u32),
}

impl StreamSum {
    pub fn new(ordered: bool) -> StreamSum {
        if ordered {
            StreamSum::Ordered(crc32fast::Hasher::new())
        } else {
            StreamSum::Unordered(0)
        }
    }

    /// Adds packet `seq`'s payload (in order, for an ordered stream).
    pub fn add(&mut self, seq: u64, payload: &[u8]) {
        match self {
            StreamSum::Ordered(h) => h.update(payload),
            StreamSum::Unordered(x) => {
                let mut h = crc32fast::Hasher::new();
                h.update(&seq.to_be_bytes());
                h.update(payload);
                *x ^= h.finalize();
            }
        }
    }

    pub fn value(&self) -> u32 {
        match self {
            StreamSum::Ordered(h) => h.clone().finalize(),
            StreamSum::Unordered(x) => *x,
        }
    }
}

/// The receiver's side: in-order delivery of segments of `mss` bytes, their verification and
/// the counts a run reports.
pub struct Reassembly {
    session: u64,
    mss: u64,
    /// Out-of-order segments held back, at most `window` segments above `next`.
    held: BTreeMap<u64, Vec<u8>>,
    window: u64,
    /// The next segment to deliver (ordered streams).
    next: u64,
    /// Unordered streams: which segments have arrived (a bitmap, one bit a segment).
    seen: Option<Vec<u64>>,
    sum: StreamSum,
    scratch: Vec<u8>,
    pub delivered: u64,
    /// Bytes of segments that arrived again after their first copy.
    pub duplicates: u64,
    /// Bytes delivered that differ from what the sender sent (must stay zero).
    pub corrupted: u64,
    /// Segments beyond the window, dropped (the sender retransmits them).
    pub beyond_window: u64,
}

impl Reassembly {
    /// An in-order stream (TCP, SABUL, UDT); `window` bounds what is held out of order.
    pub fn new(session: u64, mss: u64, window: u64) -> Reassembly {
        Reassembly::with_order(session, mss, window, true)
    }

    /// A stream delivered as it arrives, gaps and all (TFRC, CBR); `window` bounds how far
    /// beyond the highest segment seen a new one may lie.
    pub fn unordered(session: u64, mss: u64, window: u64) -> Reassembly {
        Reassembly::with_order(session, mss, window, false)
    }

    fn with_order(session: u64, mss: u64, window: u64, ordered: bool) -> Reassembly {
        Reassembly {
            session,
            mss,
            held: BTreeMap::new(),
            window: window.max(1),
            next: 0,
            seen: (!ordered).then(Vec::new),
            sum: StreamSum::new(ordered),
            scratch: Vec::new(),
            delivered: 0,
            duplicates: 0,
            corrupted: 0,
            beyond_window: 0,
        }
    }

    /// A segment arrived. Returns whether it is new (to be acknowledged as received) or a
    /// duplicate, or beyond the window (`None`: dropped unacknowledged).
    pub fn on_segment(&mut self, seq: u64, payload: &[u8]) -> Option<bool> {
        if let Some(seen) = &mut self.seen {
            let (word, bit) = ((seq / 64) as usize, 1u64 << (seq % 64));
            if seq >= self.next + self.window {
                self.beyond_window += 1;
                return None;
            }
            if word >= seen.len() {
                seen.resize(word + 1, 0);
            }
            if seen[word] & bit != 0 {
                self.duplicates += payload.len() as u64;
                return Some(false);
            }
            seen[word] |= bit;
            // `next` is one past the highest segment seen: the window slides with it.
            self.next = self.next.max(seq + 1);
            self.deliver(seq, payload);
            return Some(true);
        }
        if seq < self.next || self.held.contains_key(&seq) {
            self.duplicates += payload.len() as u64;
            return Some(false);
        }
        if seq >= self.next + self.window {
            self.beyond_window += 1;
            return None;
        }
        self.held.insert(seq, payload.to_vec());
        while let Some(p) = self.held.remove(&self.next) {
            self.deliver(self.next, &p);
            self.next += 1;
        }
        Some(true)
    }

    fn deliver(&mut self, seq: u64, payload: &[u8]) {
        self.scratch.resize(payload.len(), 0);
        fill(self.session, seq * self.mss, &mut self.scratch);
        self.corrupted += payload.iter().zip(&self.scratch).filter(|(a, b)| a != b).count() as u64;
        self.sum.add(seq, payload);
        self.delivered += payload.len() as u64;
    }

    pub fn crc(&self) -> u32 {
        self.sum.value()
    }

    /// Segments held out of order now (bounded by the window).
    pub fn held(&self) -> usize {
        self.held.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_is_the_same_stream_from_any_offset() {
        let mut whole = vec![0u8; 100];
        fill(42, 0, &mut whole);
        for start in [0usize, 1, 7, 8, 13, 64, 99] {
            let mut part = vec![0u8; 100 - start];
            fill(42, start as u64, &mut part);
            assert_eq!(part, whole[start..]);
        }
        let mut other = vec![0u8; 100];
        fill(43, 0, &mut other);
        assert_ne!(other, whole, "another session, another stream");
    }

    fn segment(session: u64, mss: u64, seq: u64) -> Vec<u8> {
        let mut p = vec![0u8; mss as usize];
        fill(session, seq * mss, &mut p);
        p
    }

    #[test]
    fn reordered_and_duplicated_segments_deliver_the_stream_once() {
        let (s, mss) = (5, 100);
        let mut r = Reassembly::new(s, mss, 16);
        for seq in [2, 0, 2, 1, 4, 3, 0, 5] {
            r.on_segment(seq, &segment(s, mss, seq));
        }
        assert_eq!(r.delivered, 6 * mss);
        assert_eq!(r.duplicates, 2 * mss);
        assert_eq!(r.corrupted, 0);
        assert_eq!(r.crc(), stream_crc(s, 6 * mss));
        assert_eq!(r.held(), 0);
    }

    #[test]
    fn an_unordered_stream_delivers_as_it_comes_and_its_sum_ignores_order() {
        let (s, mss) = (5, 100);
        let mut r = Reassembly::unordered(s, mss, 1000);
        let mut sent = StreamSum::new(false);
        for seq in 0..6 {
            sent.add(seq, &segment(s, mss, seq));
        }
        for seq in [3, 0, 5, 3, 1, 2, 4] {
            r.on_segment(seq, &segment(s, mss, seq));
        }
        assert_eq!((r.delivered, r.duplicates, r.corrupted), (6 * mss, mss, 0));
        assert_eq!(r.crc(), sent.value());
        // A lost packet leaves a gap, which the sum shows.
        let mut gap = Reassembly::unordered(s, mss, 1000);
        for seq in [0, 1, 3, 4, 5] {
            gap.on_segment(seq, &segment(s, mss, seq));
        }
        assert_eq!(gap.delivered, 5 * mss);
        assert_ne!(gap.crc(), sent.value());
    }

    #[test]
    fn a_wrong_byte_is_counted_and_changes_the_crc() {
        let (s, mss) = (5, 100);
        let mut r = Reassembly::new(s, mss, 16);
        let mut bad = segment(s, mss, 0);
        bad[10] ^= 1;
        r.on_segment(0, &bad);
        assert_eq!(r.corrupted, 1);
        assert_ne!(r.crc(), stream_crc(s, mss));
    }

    #[test]
    fn the_window_bounds_what_is_held() {
        let mut r = Reassembly::new(1, 10, 4);
        for seq in 1..10 {
            r.on_segment(seq, &segment(1, 10, seq));
        }
        assert_eq!(r.held(), 3);
        assert_eq!(r.beyond_window, 6);
    }
}
