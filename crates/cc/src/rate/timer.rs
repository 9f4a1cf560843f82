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

/// A deadline polled the way UDT4 polls its receiver timers (\[U4\] `queue.cpp`
/// `CRcvQueue::worker`, `core.cpp` `checkTimers`): checked after every packet that arrives,
/// due only strictly past its deadline, and re-armed one interval after the moment it fired,
/// not on a fixed grid. A socket that receives nothing is checked once it has gone
/// [`IDLE_CHECK`] without a check. So consecutive firings are more than one interval apart, by
/// the wait for the next packet: at 1 Gbit/s about 6 µs on average. (On an exact grid, a
/// sender that runs its control at most once per interval would skip about every other
/// feedback whose arrival jitters a little early.)
#[derive(Clone, Debug, PartialEq)]
pub struct Polled {
    interval: Time,
    deadline: Option<Time>,
    last_check: Time,
}

/// How long UDT4's receive queue leaves a socket unchecked when no packet arrives for it
/// (`TIMER_CHECK`: sockets whose last check is more than 100 ms old).
pub const IDLE_CHECK: Time = Time::from_millis(100);

impl Polled {
    /// An unarmed timer; a zero interval is raised to 1 ns so that a driver always advances.
    pub fn new(interval: Time) -> Polled {
        Polled { interval: interval.max(Time(1)), deadline: None, last_check: Time::ZERO }
    }

    /// Arms the timer one interval after `now`, unless it already runs.
    pub fn start(&mut self, now: Time) {
        if self.deadline.is_none() {
            self.deadline = Some(now + self.interval);
            self.last_check = now;
        }
    }

    /// A check at `now` (after a packet, or from [`Polled::idle_deadline`]): true if the
    /// timer is due, and then it is re-armed one interval after `now`.
    pub fn check(&mut self, now: Time) -> bool {
        self.last_check = now;
        match self.deadline {
            Some(t) if now > t => {
                self.deadline = Some(now + self.interval);
                true
            }
            _ => false,
        }
    }

    /// When an idle socket's check would find the timer due (`None` while unarmed).
    pub fn idle_deadline(&self) -> Option<Time> {
        self.deadline.map(|t| t.max(self.last_check + IDLE_CHECK) + Time(1))
    }

    /// Whether the idle check is due at `now`, i.e. no packet has checked the timer for
    /// [`IDLE_CHECK`].
    pub fn idle_due(&self, now: Time) -> bool {
        now > self.last_check + IDLE_CHECK
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

    #[test]
    fn a_polled_timer_fires_on_the_first_check_past_its_deadline_and_rearms_from_there() {
        let ms = Time::from_millis;
        let mut t = Polled::new(ms(10));
        assert!(!t.check(ms(50)), "unarmed");
        assert_eq!(t.idle_deadline(), None);
        t.start(ms(0));
        t.start(ms(5)); // already running: unchanged
        assert!(!t.check(ms(10)), "due only strictly past the deadline");
        let late = ms(10) + Time::from_micros(7);
        assert!(t.check(late));
        // Re-armed from the check, not from the deadline: the next firing is 10 ms + 7 µs on.
        assert!(!t.check(late + ms(10)));
        assert!(t.check(late + ms(10) + Time(1)));
        // Packets keep checking it: the idle check waits for 100 ms without one.
        let last = late + ms(10) + Time(1);
        assert_eq!(t.idle_deadline(), Some(last + IDLE_CHECK + Time(1)));
        assert!(!t.idle_due(last + IDLE_CHECK));
        assert!(t.idle_due(last + IDLE_CHECK + Time(1)));
    }
}
