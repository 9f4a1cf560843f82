//! The scanner's access link, one per direction: random loss as a packet enters (netem's
//! order), then a FIFO served at the link rate with a buffer limit in bytes. Packets are
//! offered in time order, so the FIFO needs no queue of its own: a packet leaves at
//! `max(now, previous departure) + size/rate`, and the backlog it finds is what the link still
//! has to send, `(previous departure − now)·rate`.

use crate::impair::LossProcess;
use cc::{Bytes, Rate, Time};

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct AccessStats {
    pub offered: u64,
    pub random_drops: u64,
    pub overflow_drops: u64,
}

pub struct AccessLink {
    rate: Rate,
    buffer: Bytes,
    busy_until: Time,
    loss: LossProcess,
    pub stats: AccessStats,
}

impl AccessLink {
    pub fn new(rate: Rate, buffer: Bytes, loss: LossProcess) -> AccessLink {
        AccessLink { rate, buffer, busy_until: Time::ZERO, loss, stats: AccessStats::default() }
    }

    /// A packet of `bytes` offered at `now`: when it has crossed the link, or `None` if dropped.
    pub fn offer(&mut self, now: Time, bytes: Bytes) -> Option<Time> {
        self.stats.offered += 1;
        if self.loss.lose() {
            self.stats.random_drops += 1;
            return None;
        }
        let backlog = self.rate.bytes_in(self.busy_until - now);
        if backlog + bytes as f64 > self.buffer as f64 {
            self.stats.overflow_drops += 1;
            return None;
        }
        self.busy_until = self.busy_until.max(now) + self.rate.tx_time(bytes);
        Some(self.busy_until)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::netem::LossSpec;
    use cc::component_rng;

    #[test]
    fn packets_queue_behind_each_other_and_overflow_the_buffer() {
        let no_loss = LossProcess::new(LossSpec::None, component_rng(1, 1));
        // 64 B at 512 kbit/s = 1 ms each; room for three packets.
        let mut l = AccessLink::new(Rate::from_bits_per_sec(512_000.0), 192, no_loss);
        let t: Vec<Option<Time>> = (0..4).map(|_| l.offer(Time::ZERO, 64)).collect();
        assert_eq!(t, vec![Some(Time::from_millis(1)), Some(Time::from_millis(2)), Some(Time::from_millis(3)), None]);
        assert_eq!(l.stats.overflow_drops, 1);
        // Once drained, a packet crosses in its own transmission time.
        assert_eq!(l.offer(Time::from_millis(10), 64), Some(Time::from_millis(11)));
    }
}
