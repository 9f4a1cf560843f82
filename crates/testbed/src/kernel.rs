//! Kernel TCP flows: a sender thread in the sender namespace opens one connection per flow
//! at its start time under its congestion control (TCP_CONGESTION), writes until its stop
//! time, its size or the end of the run, and samples TCP_INFO every interval into the
//! simulator's `FlowSample` rows; a receiver thread in the receiver namespace accepts and
//! discards. Both loops are bounded by the run's end and the stop flag.
//!
//! A flow with an application rate (iperf3's `-b`) writes as the simulator's
//! [`AppSource`] does: one segment's payload every mss / rate from the moment its connection
//! is established, each write as soon as the loop wakes for it (it wakes for the next one).
//! Otherwise the loop writes while the socket takes data.

use crate::netns::{interrupted, RECEIVER_ADDR};
use crate::tcpinfo::{self, TcpInfo, INFINITE_SSTHRESH};
use cc::transport::app_source::AppSource;
use cc::{Rate, Time};
use serde::Serialize;
use sim::results::FlowSample;
use sim::stats::Histogram;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

const CHUNK: usize = 64 * 1024;
/// Longest sleep of either loop between looks at the clock and the stop flag.
const MAX_SLEEP_MS: i32 = 10;

/// One kernel flow.
#[derive(Clone, Debug)]
pub struct KernelFlow {
    pub cc: String,
    pub start: Time,
    pub stop: Option<Time>,
    /// Bytes to send (`None`: until stop or the end of the run).
    pub size: Option<u64>,
    /// TCP_MAXSEG, if the scenario sets the MSS.
    pub mss: Option<u64>,
    /// The receiver's port (the emulator maps it to the flow).
    pub port: u16,
    /// The application's write rate and the payload bytes of each write (`None`: it always
    /// has data).
    pub app: Option<(Rate, u64)>,
}

/// What one flow did, from its last TCP_INFO.
#[derive(Clone, Debug, Default)]
pub struct FlowRecord {
    pub last: TcpInfo,
    pub started: Option<Time>,
    pub ended: Option<Time>,
    pub completed: Option<Time>,
    /// Smoothed RTT at every sample, microseconds.
    pub srtt_us: Histogram,
    /// Entries into recovery or loss seen by the sender loop (it looks after every wake-up).
    pub loss_episodes: u64,
    /// Entries into the loss state (an RTO) seen; used when the kernel lacks `total_rto`.
    pub loss_state_entries: u64,
    pub has_rto_counter: bool,
    /// Bytes acknowledged when the fairness window opened and closed.
    pub window_acked: [u64; 2],
    /// The most segments outstanding (`tcpi_unacked`, the kernel's `packets_out`) the loop read:
    /// after every wake-up and after every burst of writes, when a flow the window does not
    /// hold back has just sent what it was given.
    pub most_unacked: u64,
}

impl FlowRecord {
    pub fn timeouts(&self) -> u64 {
        if self.has_rto_counter {
            self.last.total_rto as u64
        } else {
            self.loss_state_entries
        }
    }
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum Phase {
    Waiting,
    Connecting,
    Sending,
    /// Everything written; waiting for the last ACK.
    Draining,
    Done,
}

struct State {
    phase: Phase,
    fd: Option<OwnedFd>,
    written: u64,
    /// A rate-limited application's writes, from the connection's establishment.
    app: Option<AppSource>,
    prev_ca_state: u8,
    last_sample_sent: u64,
    last_sample_acked: u64,
    rec: FlowRecord,
}

fn errno() -> std::io::Error {
    std::io::Error::last_os_error()
}

fn connect(f: &KernelFlow) -> Result<OwnedFd, String> {
    // SAFETY: plain socket call; the fd is owned at once.
    let raw = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC, 0) };
    if raw < 0 {
        return Err(format!("testbed: socket: {}", errno()));
    }
    // SAFETY: a fresh fd we own.
    let fd = unsafe { OwnedFd::from_raw_fd(raw) };
    tcpinfo::set_congestion_control(raw, &f.cc)?;
    if let Some(mss) = f.mss {
        set_int(raw, libc::IPPROTO_TCP, libc::TCP_MAXSEG, mss as i32);
    }
    // Close with a reset when the run ends, so no traffic outlives it.
    let linger = libc::linger { l_onoff: 1, l_linger: 0 };
    // SAFETY: a linger struct of the size given.
    unsafe {
        libc::setsockopt(raw, libc::SOL_SOCKET, libc::SO_LINGER, &linger as *const _ as *const _, std::mem::size_of::<libc::linger>() as u32)
    };
    let addr = libc::sockaddr_in {
        sin_family: libc::AF_INET as u16,
        sin_port: f.port.to_be(),
        sin_addr: libc::in_addr { s_addr: u32::from(RECEIVER_ADDR).to_be() },
        sin_zero: [0; 8],
    };
    // SAFETY: a valid sockaddr_in.
    let rc = unsafe { libc::connect(raw, &addr as *const _ as *const libc::sockaddr, std::mem::size_of::<libc::sockaddr_in>() as u32) };
    if rc != 0 && errno().raw_os_error() != Some(libc::EINPROGRESS) {
        return Err(format!("testbed: connect to {RECEIVER_ADDR}:{}: {}", f.port, errno()));
    }
    Ok(fd)
}

fn set_int(fd: RawFd, level: libc::c_int, opt: libc::c_int, v: libc::c_int) -> bool {
    // SAFETY: an int option.
    unsafe { libc::setsockopt(fd, level, opt, &v as *const _ as *const libc::c_void, 4) == 0 }
}

fn socket_error(fd: RawFd) -> i32 {
    let mut v: libc::c_int = 0;
    let mut len = 4;
    // SAFETY: an int option.
    unsafe { libc::getsockopt(fd, libc::SOL_SOCKET, libc::SO_ERROR, &mut v as *mut _ as *mut _, &mut len) };
    v
}

/// A row of the flow's time series at `now`; its rates are over `iv` seconds, the time since
/// the previous row.
fn sample_row(now: Time, id: usize, info: &TcpInfo, iv: f64, st: &mut State) -> FlowSample {
    let row = FlowSample {
        time: now.as_secs_f64(),
        flow: id as u32,
        cwnd: Some(info.snd_cwnd as f64),
        ssthresh: (info.snd_ssthresh < INFINITE_SSTHRESH).then_some(info.snd_ssthresh as f64),
        inflight: (info.unacked as u64 + info.retrans as u64).saturating_sub(info.sacked as u64 + info.lost as u64),
        sacked: info.sacked as u64,
        lost: info.lost as u64,
        retr: info.total_retrans as u64,
        rtt_ms: (info.rtt > 0).then_some(info.rtt as f64 / 1e3),
        rttvar_ms: info.rttvar as f64 / 1e3,
        rto_ms: info.rto as f64 / 1e3,
        state: tcpinfo::ca_state_name(info),
        pacing_rate_mbps: (info.pacing_rate != u64::MAX).then_some(info.pacing_rate as f64 * 8.0 / 1e6),
        throughput_mbps: (info.bytes_sent - st.last_sample_sent.min(info.bytes_sent)) as f64 * 8.0 / iv / 1e6,
        goodput_mbps: (info.bytes_acked - st.last_sample_acked.min(info.bytes_acked)) as f64 * 8.0 / iv / 1e6,
        delivered_bytes: info.bytes_acked,
        ca_state: Some(tcpinfo::ca_state(info)),
        unacked: info.unacked as u64,
        retrans_out: info.retrans as u64,
        backoff: info.backoff as u32,
        reordering: info.reordering as u64,
        logged_rate_mbps: None,
    };
    st.last_sample_sent = info.bytes_sent;
    st.last_sample_acked = info.bytes_acked;
    row
}

/// How many of the time series' sample times the senders' loop read `TCP_INFO` at, and how many
/// it woke too late for (their rows are missing, not late).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Sampling {
    pub taken: u64,
    pub missed: u64,
}

impl Sampling {
    /// One line for the terminal, where sample times were missed.
    pub fn line(&self, interval: Time) -> Option<String> {
        (self.missed > 0).then(|| {
            format!(
                "kernel time series: TCP_INFO read at {} of {} sample times; the senders' loop woke too late for the other {} (every {interval} is finer than it keeps up with), whose rows are missing",
                self.taken,
                self.taken + self.missed,
                self.missed
            )
        })
    }
}

/// Runs the senders until every flow is done, the run's `duration` ends or SIGINT arrives.
/// Call it in a thread inside the sender namespace. `fairness` is the window over which
/// Jain's index is taken (its edges record each flow's acknowledged bytes).
pub fn run_senders(
    flows: &[KernelFlow],
    origin: Instant,
    duration: Time,
    interval: Option<Time>,
    fairness: (Time, Time),
) -> Result<(Vec<FlowRecord>, Vec<FlowSample>, Sampling), String> {
    let clock = || Time(origin.elapsed().as_nanos() as u64);
    // Sample times kept to within microseconds: the timer's default slack is 50 us.
    // SAFETY: prctl with an integer argument affects this thread only.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong) };
    // Time zero is when the first SYN may leave: wait for it (see `run::SETUP_LEAD`).
    std::thread::sleep(origin.saturating_duration_since(Instant::now()));
    let mut states: Vec<State> = flows
        .iter()
        .map(|_| State { phase: Phase::Waiting, fd: None, written: 0, app: None, prev_ca_state: 0, last_sample_sent: 0, last_sample_acked: 0, rec: FlowRecord::default() })
        .collect();
    let mut rows = Vec::new();
    let mut next_sample = interval;
    let mut prev_sample = Time::ZERO;
    let mut sampling = Sampling::default();
    let mut edges_done = [false, false];
    let zeros = vec![0u8; CHUNK];
    // Bounded: every flow is Done at `duration` at the latest.
    while states.iter().any(|s| s.phase != Phase::Done) && !interrupted() {
        let now = clock();
        for (i, (f, st)) in flows.iter().zip(states.iter_mut()).enumerate() {
            let end = f.stop.unwrap_or(duration).min(duration);
            if st.phase == Phase::Waiting && now >= f.start && now < end {
                st.fd = Some(connect(f).map_err(|e| format!("flow {i}: {e}"))?);
                st.rec.started = Some(now);
                st.phase = Phase::Connecting;
            } else if st.phase == Phase::Waiting && now >= end {
                st.phase = Phase::Done;
            }
            if let Some(a) = st.app.as_mut().filter(|_| st.phase == Phase::Sending) {
                a.advance(now);
            }
            if let Some(fd) = st.fd.as_ref().map(|f| f.as_raw_fd()) {
                if let Ok((info, filled)) = tcpinfo::tcp_info(fd) {
                    st.rec.has_rto_counter = tcpinfo::has_rto_counter(filled);
                    if info.ca_state != st.prev_ca_state {
                        if info.ca_state >= 3 && st.prev_ca_state < 3 {
                            st.rec.loss_episodes += 1;
                        }
                        if info.ca_state == 4 {
                            st.rec.loss_state_entries += 1;
                        }
                        st.prev_ca_state = info.ca_state;
                    }
                    st.rec.last = info;
                    st.rec.most_unacked = st.rec.most_unacked.max(info.unacked as u64);
                    if st.phase == Phase::Draining && f.size.is_some_and(|s| info.bytes_acked >= s) {
                        st.rec.completed = Some(now);
                    }
                }
                if now >= end || st.rec.completed.is_some() {
                    st.rec.ended = Some(now.min(end));
                    st.fd = None;
                    st.phase = Phase::Done;
                }
            }
        }
        for (k, edge) in [fairness.0, fairness.1].into_iter().enumerate() {
            if !edges_done[k] && now >= edge {
                edges_done[k] = true;
                for st in states.iter_mut() {
                    st.rec.window_acked[k] = st.rec.last.bytes_acked;
                }
            }
        }
        if let (Some(t), Some(iv)) = (next_sample, interval) {
            if now >= t && t <= duration {
                // The latest sample time passed (within the run): where the loop woke later
                // than one interval, the sample times it slept through are skipped rather than
                // taken now under earlier labels, which would put every later row behind the
                // clock. While the run lasts a row is read at most one interval after its label.
                let last = Time(t.0 + ((now.min(duration) - t).0 / iv.0) * iv.0);
                sampling.missed += (last - t).0 / iv.0;
                sampling.taken += 1;
                let elapsed = (last - prev_sample).as_secs_f64();
                for (i, st) in states.iter_mut().enumerate() {
                    let running = st.rec.started.is_some() && st.rec.ended.is_none_or(|e| e + iv >= last);
                    if running {
                        let info = st.rec.last;
                        if info.rtt > 0 {
                            st.rec.srtt_us.record(info.rtt as u64);
                        }
                        rows.push(sample_row(last, i, &info, elapsed, st));
                    }
                }
                prev_sample = last;
                next_sample = Some(last + iv);
            }
        }
        // Wait for writability (or the next due time).
        let mut fds: Vec<libc::pollfd> = Vec::new();
        let mut who: Vec<usize> = Vec::new();
        for (i, st) in states.iter().enumerate() {
            if st.phase == Phase::Connecting || (st.phase == Phase::Sending && app_allowance(&flows[i], st) > 0) {
                fds.push(libc::pollfd { fd: st.fd.as_ref().expect("connected").as_raw_fd(), events: libc::POLLOUT, revents: 0 });
                who.push(i);
            }
        }
        let now = clock();
        let mut due: Vec<Time> = flows.iter().zip(&states).filter(|(_, s)| s.phase == Phase::Waiting).map(|(f, _)| f.start).collect();
        due.extend(flows.iter().map(|f| f.stop.unwrap_or(duration).min(duration)));
        due.extend(next_sample);
        due.extend(states.iter().filter(|s| s.phase == Phase::Sending).filter_map(|s| s.app.as_ref()?.next_write()));
        let next = due.into_iter().filter(|&t| t > now).min().unwrap_or(now);
        let draining = states.iter().any(|s| s.phase == Phase::Draining);
        let cap_ms = if draining { 1 } else { MAX_SLEEP_MS as u64 };
        // To the nanosecond: `poll`'s whole milliseconds rounded a wait of 0.3 ms up to 1 ms,
        // so at a 1 ms interval the loop woke just after the next sample time and skipped it.
        let wait = (next - now).0.min(cap_ms * 1_000_000);
        let timeout = libc::timespec { tv_sec: (wait / 1_000_000_000) as libc::time_t, tv_nsec: (wait % 1_000_000_000) as libc::c_long };
        // SAFETY: valid pollfds and timespec; a null signal mask leaves the thread's as it is.
        unsafe { libc::ppoll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, &timeout, std::ptr::null()) };
        for (pfd, &i) in fds.iter().zip(&who) {
            if pfd.revents == 0 {
                continue;
            }
            let st = &mut states[i];
            let fd = pfd.fd;
            if st.phase == Phase::Connecting {
                let err = socket_error(fd);
                if err != 0 {
                    return Err(format!("flow {i}: connect to {RECEIVER_ADDR}:{}: {}", flows[i].port, std::io::Error::from_raw_os_error(err)));
                }
                st.phase = Phase::Sending;
                // The application's first write is now (the simulator's: the first send).
                st.app = flows[i].app.map(|(rate, mss)| {
                    let mut a = AppSource::new(rate, mss);
                    a.advance(clock());
                    a
                });
            }
            // A bounded burst of writes while the socket takes them.
            for _ in 0..64 {
                let allowed = app_allowance(&flows[i], st).min(CHUNK as u64);
                let left = flows[i].size.map_or(allowed, |s| s - st.written).min(allowed) as usize;
                if left == 0 {
                    if flows[i].size.is_some_and(|s| st.written >= s) {
                        st.phase = Phase::Draining;
                    }
                    break;
                }
                // SAFETY: `zeros` has CHUNK bytes.
                let n = unsafe { libc::send(fd, zeros.as_ptr() as *const _, left, libc::MSG_NOSIGNAL) };
                if n <= 0 {
                    break;
                }
                st.written += n as u64;
            }
            if let Ok((info, _)) = tcpinfo::tcp_info(fd) {
                st.rec.most_unacked = st.rec.most_unacked.max(info.unacked as u64);
            }
            if flows[i].size.is_some_and(|s| st.written >= s) {
                st.phase = Phase::Draining;
            }
        }
    }
    Ok((states.into_iter().map(|s| s.rec).collect(), rows, sampling))
}

/// Bytes the flow's application has written and the socket not yet taken: unbounded for an
/// application that always has data.
fn app_allowance(f: &KernelFlow, st: &State) -> u64 {
    match (&st.app, f.app) {
        (Some(a), Some((_, mss))) => (a.written() * mss).saturating_sub(st.written),
        _ => u64::MAX,
    }
}

/// Accepts a connection per port and discards what arrives, until `stop` or `hard_end`.
/// Call it in a thread inside the receiver namespace; `ready` is set once listening.
pub fn run_receiver(ports: &[u16], origin: Instant, hard_end: Time, ready: &AtomicBool, stop: &AtomicBool) -> Result<u64, String> {
    let mut listeners = Vec::new();
    for &port in ports {
        let l = std::net::TcpListener::bind((RECEIVER_ADDR, port)).map_err(|e| format!("testbed: listen on {RECEIVER_ADDR}:{port}: {e}"))?;
        l.set_nonblocking(true).map_err(|e| format!("testbed: listener: {e}"))?;
        listeners.push(l);
    }
    ready.store(true, Ordering::Release);
    let mut conns: Vec<std::net::TcpStream> = Vec::new();
    let mut buf = vec![0u8; CHUNK];
    let mut received = 0u64;
    // Bounded by `hard_end`.
    while !stop.load(Ordering::Relaxed) && !interrupted() && Time(origin.elapsed().as_nanos() as u64) < hard_end {
        let mut fds: Vec<libc::pollfd> = listeners
            .iter()
            .map(|l| l.as_raw_fd())
            .chain(conns.iter().map(|c| c.as_raw_fd()))
            .map(|fd| libc::pollfd { fd, events: libc::POLLIN, revents: 0 })
            .collect();
        // SAFETY: valid pollfds.
        unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, MAX_SLEEP_MS) };
        for l in &listeners {
            while let Ok((c, _)) = l.accept() {
                let _ = c.set_nonblocking(true);
                conns.push(c);
            }
        }
        conns.retain_mut(|c| {
            use std::io::Read;
            for _ in 0..64 {
                match c.read(&mut buf) {
                    Ok(0) => return false,
                    Ok(n) => received += n as u64,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return true,
                    Err(_) => return false,
                }
            }
            true
        });
    }
    Ok(received)
}
