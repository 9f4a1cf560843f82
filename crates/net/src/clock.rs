//! The real clock under the sans-I/O core: nanoseconds since a connection's start as
//! `cc::Time`, and waiting for the next deadline on a socket.
//!
//! Precision: `ppoll(2)` sleeps on the kernel's high-resolution timers, which on Linux wake
//! within tens of microseconds of the deadline but can oversleep by a scheduler tick when the
//! machine is busy; so the last [`SPIN_BELOW`] of every wait polls the socket without sleeping,
//! yielding the core between polls (CPU spent for precision, as a pacing sender must at high
//! rates). The sender measures how late each paced transmission actually left (`pacing_late`
//! in its report).

use cc::Time;
use std::net::{SocketAddr, UdpSocket};
use std::os::fd::AsRawFd;
use std::time::Instant;

/// Waits this short are spent polling, not sleeping.
pub const SPIN_BELOW: Time = Time(200_000);

#[derive(Copy, Clone, Debug)]
pub struct Clock {
    start: Instant,
}

impl Clock {
    pub fn new() -> Clock {
        Clock { start: Instant::now() }
    }

    /// Time since the start; never zero (a zero echo means "no timestamp" on the wire).
    pub fn now(&self) -> Time {
        Time(self.start.elapsed().as_nanos() as u64 + 1)
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::new()
    }
}

/// Blocks until `sock` is readable or `timeout` has passed (`ppoll(2)`, nanosecond timeout).
fn wait_readable(sock: &UdpSocket, timeout: Time) -> std::io::Result<()> {
    let mut fd = libc::pollfd { fd: sock.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    let ts = libc::timespec { tv_sec: (timeout.0 / 1_000_000_000) as libc::time_t, tv_nsec: (timeout.0 % 1_000_000_000) as libc::c_long };
    // SAFETY: one valid pollfd, a valid timespec, no signal mask.
    let r = unsafe { libc::ppoll(&mut fd, 1, &ts, std::ptr::null()) };
    if r < 0 {
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    Ok(())
}

/// Reads one datagram into `buf` from a non-blocking `sock`, waiting at most until `deadline`.
/// Returns the length and sender, or `None` when the deadline passed first. The last
/// [`SPIN_BELOW`] before the deadline is spent polling.
pub fn recv_until(sock: &UdpSocket, clock: &Clock, deadline: Time, buf: &mut [u8]) -> std::io::Result<Option<(usize, SocketAddr)>> {
    loop {
        match sock.recv_from(buf) {
            Ok(got) => return Ok(Some(got)),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            // An ICMP port-unreachable for an earlier datagram (the peer went away): the caller's
            // idle timeout decides what that means.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {}
            Err(e) => return Err(e),
        }
        let now = clock.now();
        if now >= deadline {
            return Ok(None);
        }
        let wait = deadline - now;
        if wait > SPIN_BELOW {
            wait_readable(sock, wait - SPIN_BELOW)?;
        } else {
            // Polling, but giving the core to any other thread that wants it (the other end, on
            // loopback) rather than spinning against it.
            std::thread::yield_now();
        }
    }
}
