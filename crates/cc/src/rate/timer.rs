//! Periodic timers: SABUL's SYN, ACK and ERR timers (spec §1.2) and UDT's ACK timer, which
//! runs every SYN (spec §2.3).
//!
//! A timer is unarmed until [`Periodic::start`]: the transports have no connection set-up, so
//! their clocks start with the first packet (the sender's first transmission, the receiver's
//! first arrival).

use crate::units::Time;

/// A timer that fires every `interval` once started.
#[derive(Clone, Debug, PartialEq)]
pub struct Periodic {
    interval: Time,
    next: Option<Time>,
}

impl Periodic {
    /// An unarmed timer; a zero interval is raised to 1 ns so that a driver always advances.
    pub fn new(interval: Time) -> Periodic {
        Periodic { interval: interval.max(Time(1)), next: None }
    }

    pub fn interval(&self) -> Time {
        self.interval
    }

    /// Arms the timer one interval after `now`, unless it already runs.
    pub fn start(&mut self, now: Time) {
        if self.next.is_none() {
            self.next = Some(now + self.interval);
        }
    }

    pub fn stop(&mut self) {
        self.next = None;
    }

    /// When the timer fires next (`None` while unarmed).
    pub fn deadline(&self) -> Option<Time> {
        self.next
    }

    /// Whether the timer has expired at `now`. If so it re-arms one interval after its deadline,
    /// or one interval after `now` if the caller was more than an interval late (no catch-up
    /// burst of expirations).
    pub fn fire(&mut self, now: Time) -> bool {
        match self.next {
            Some(t) if now >= t => {
                let n = t + self.interval;
                self.next = Some(if n > now { n } else { now + self.interval });
                true
            }
            _ => false,
        }
    }
}

/// The earliest of some optional deadlines.
pub fn earliest<const N: usize>(deadlines: [Option<Time>; N]) -> Option<Time> {
    deadlines.into_iter().flatten().min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_on_its_grid_and_skips_missed_ticks() {
        let mut t = Periodic::new(Time::from_millis(10));
        assert!(!t.fire(Time::from_millis(100)), "unarmed");
        t.start(Time::ZERO);
        t.start(Time::from_millis(5)); // already running: unchanged
        assert_eq!(t.deadline(), Some(Time::from_millis(10)));
        assert!(!t.fire(Time::from_millis(9)));
        assert!(t.fire(Time::from_millis(10)));
        assert_eq!(t.deadline(), Some(Time::from_millis(20)));
        assert!(t.fire(Time::from_millis(55)));
        assert_eq!(t.deadline(), Some(Time::from_millis(65)));
        assert_eq!(earliest([None, t.deadline(), Some(Time::from_millis(70))]), Some(Time::from_millis(65)));
    }
}
