//! Delay lines: packets leave a pipe at the time they were given when they entered it.
//!
//! A constant delay keeps FIFO order (a `VecDeque`); with jitter, packets leave in order of
//! their departure times, so they can be reordered, as netem's time-sorted queue does.

use cc::Time;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

pub enum Pipe<T> {
    Fifo(VecDeque<(Time, T)>),
    Sorted { heap: BinaryHeap<Reverse<(Time, u64, Slot<T>)>>, next: u64 },
}

/// Wrapper that makes any payload orderable (ties are broken by insertion number before
/// the payload is ever compared).
pub struct Slot<T>(pub T);
impl<T> PartialEq for Slot<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<T> Eq for Slot<T> {}
impl<T> PartialOrd for Slot<T> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<T> Ord for Slot<T> {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

impl<T> Pipe<T> {
    pub fn new(reordering: bool) -> Pipe<T> {
        if reordering {
            Pipe::Sorted { heap: BinaryHeap::new(), next: 0 }
        } else {
            Pipe::Fifo(VecDeque::new())
        }
    }

    /// Adds `item`, leaving at `at`. Returns true if it became the head (the owner must then
    /// schedule an event at `at`).
    pub fn push(&mut self, at: Time, item: T) -> bool {
        match self {
            Pipe::Fifo(q) => {
                // A constant-delay FIFO never needs to overtake: clamp to keep order.
                let at = q.back().map_or(at, |&(last, _)| at.max(last));
                q.push_back((at, item));
                q.len() == 1
            }
            Pipe::Sorted { heap, next } => {
                let head = heap.peek().map(|Reverse((t, _, _))| *t);
                heap.push(Reverse((at, *next, Slot(item))));
                *next += 1;
                head.is_none_or(|h| at < h)
            }
        }
    }

    pub fn head_time(&self) -> Option<Time> {
        match self {
            Pipe::Fifo(q) => q.front().map(|&(t, _)| t),
            Pipe::Sorted { heap, .. } => heap.peek().map(|Reverse((t, _, _))| *t),
        }
    }

    /// Removes the head if it is due at `now`.
    pub fn pop_due(&mut self, now: Time) -> Option<T> {
        if self.head_time()? > now {
            return None;
        }
        match self {
            Pipe::Fifo(q) => q.pop_front().map(|(_, x)| x),
            Pipe::Sorted { heap, .. } => heap.pop().map(|Reverse((_, _, Slot(x)))| x),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Pipe::Fifo(q) => q.len(),
            Pipe::Sorted { heap, .. } => heap.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_pipe_reorders_fifo_does_not() {
        let mut s = Pipe::new(true);
        assert!(s.push(Time(10), 'a'));
        assert!(s.push(Time(5), 'b'));
        assert!(!s.push(Time(7), 'c'));
        let out: Vec<char> = std::iter::from_fn(|| s.pop_due(Time(100))).collect();
        assert_eq!(out, vec!['b', 'c', 'a']);

        let mut f = Pipe::new(false);
        assert!(f.push(Time(10), 'a'));
        assert!(!f.push(Time(5), 'b'));
        assert_eq!(f.pop_due(Time(9)), None);
        let out: Vec<char> = std::iter::from_fn(|| f.pop_due(Time(100))).collect();
        assert_eq!(out, vec!['a', 'b']);
    }
}
