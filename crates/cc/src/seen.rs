//! Which sequence numbers a receiver already holds, to count distinct packets.
//!
//! Kept as the highest number seen plus the holes below it. Holes more than [`MAX_HOLES`] back
//! are forgotten (a packet that late counts as a duplicate), so memory stays bounded under any
//! loss rate.

use std::collections::BTreeSet;

/// Holes remembered below the highest sequence number.
pub const MAX_HOLES: usize = 1 << 16;

#[derive(Clone, Debug, Default)]
pub struct SeenSet {
    highest: Option<u64>,
    holes: BTreeSet<u64>,
    distinct: u64,
}

impl SeenSet {
    /// Records `seq`; true if it had not been seen before.
    pub fn insert(&mut self, seq: u64) -> bool {
        // The first packet, or one above all before it: the numbers skipped (at most the last
        // MAX_HOLES of them) become holes.
        let new = if self.highest.is_none_or(|h| seq > h) {
            let next = self.highest.map_or(0, |h| h + 1);
            self.holes.extend(next.max(seq.saturating_sub(MAX_HOLES as u64))..seq);
            self.highest = Some(seq);
            true
        } else {
            self.holes.remove(&seq)
        };
        while self.holes.len() > MAX_HOLES {
            self.holes.pop_first();
        }
        self.distinct += new as u64;
        new
    }

    /// Distinct sequence numbers recorded.
    pub fn distinct(&self) -> u64 {
        self.distinct
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_first_packet_remembers_the_holes_just_below_it() {
        let mut s = SeenSet::default();
        let first = MAX_HOLES as u64 + 10;
        assert!(s.insert(first));
        assert!(s.insert(first - 1), "the packet just below the first is a hole, not a duplicate");
        assert!(!s.insert(5), "too far back to be remembered");
        assert_eq!(s.distinct(), 2);
    }

    #[test]
    fn counts_each_number_once_even_when_reordered() {
        let mut s = SeenSet::default();
        for seq in [2, 0, 5, 2, 1, 3, 5, 4, 0] {
            s.insert(seq);
        }
        assert_eq!(s.distinct(), 6);
        assert_eq!(s.highest, Some(5));
        assert!(s.insert(7));
        assert!(s.insert(6));
        assert!(!s.insert(6));
    }
}
