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
        let new = match self.highest {
            None => {
                self.holes.extend(0..seq.min(MAX_HOLES as u64));
                self.highest = Some(seq);
                true
            }
            Some(h) if seq > h => {
                let from = (h + 1).max(seq.saturating_sub(MAX_HOLES as u64));
                self.holes.extend(from..seq);
                self.highest = Some(seq);
                true
            }
            Some(_) => self.holes.remove(&seq),
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
