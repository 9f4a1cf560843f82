//! The event queue: small `Copy` events ordered by `(time, seq)`, so events at equal times pop
//! in insertion order and runs are deterministic.
//!
//! Components schedule only their head event (a link its next departure, a pipe its next
//! arrival), so the heap holds O(links + flows) entries, not O(packets in flight).

use cc::Time;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What an event does, and to which component (`target` is a flow or link index).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// The bottleneck finished serialising its head packet.
    LinkDeparture,
    /// The bottleneck's rate changes (a step of its schedule).
    LinkRateChange,
    /// A flow's application changes its write rate (a step of its `app_schedule`); `aux` is
    /// the step.
    AppRateChange,
    /// The head of a flow's access pipe reaches the bottleneck (flows with an access delay).
    BottleneckArrival,
    /// The head of a flow's forward pipe reaches the receiver.
    DataArrival,
    /// The head of a flow's ACK pipe reaches the sender.
    AckArrival,
    /// A sender timer (RTO, controller timer, pacing or access-link release); `aux` is the
    /// generation, stale generations are ignored (lazy cancellation).
    SenderTimer,
    /// The receiver's delayed-ACK timer; `aux` is the generation.
    ReceiverTimer,
    /// A TCP flow with a handshake sends its SYN (only a tap sees it; the data follows one base
    /// RTT later, at `FlowStart`).
    SynSent,
    FlowStart,
    FlowStop,
    /// Take a time-series sample.
    Sample,
}

#[derive(Copy, Clone, Debug)]
pub struct Event {
    pub time: Time,
    seq: u64,
    pub target: u32,
    pub kind: EventKind,
    pub aux: u32,
}

impl PartialEq for Event {
    fn eq(&self, o: &Self) -> bool {
        self.time == o.time && self.seq == o.seq
    }
}
impl Eq for Event {}
impl Ord for Event {
    fn cmp(&self, o: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap, we pop the earliest.
        (o.time, o.seq).cmp(&(self.time, self.seq))
    }
}
impl PartialOrd for Event {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

#[derive(Default)]
pub struct EventQueue {
    heap: BinaryHeap<Event>,
    next_seq: u64,
    popped: u64,
}

impl EventQueue {
    pub fn schedule(&mut self, time: Time, kind: EventKind, target: u32, aux: u32) {
        self.heap.push(Event { time, seq: self.next_seq, target, kind, aux });
        self.next_seq += 1;
    }

    pub fn pop(&mut self) -> Option<Event> {
        let e = self.heap.pop();
        self.popped += e.is_some() as u64;
        e
    }

    pub fn peek_time(&self) -> Option<Time> {
        self.heap.peek().map(|e| e.time)
    }

    /// Events processed so far.
    pub fn processed(&self) -> u64 {
        self.popped
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_order_and_ties_in_insertion_order() {
        let mut q = EventQueue::default();
        q.schedule(Time(5), EventKind::Sample, 0, 0);
        q.schedule(Time(3), EventKind::Sample, 1, 0);
        q.schedule(Time(5), EventKind::Sample, 2, 0);
        q.schedule(Time(3), EventKind::Sample, 3, 0);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).map(|e| e.target).collect();
        assert_eq!(order, vec![1, 3, 0, 2]);
        assert_eq!(q.processed(), 4);
    }
}
