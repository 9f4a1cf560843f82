//! The emulator: a forwarder in the middle namespace that carries real Ethernet frames through
//! the simulator's link model, with the wall clock as the model's `now`.
//!
//! Forward (sender → receiver): the flow's access delay (`FlowConfig::access_delay`, zero by
//! default) in a delay line before the queue, `Bottleneck::arrive` (netem loss, queue
//! discipline, FIFO limit), `Bottleneck::depart` at the serialiser's departure times (rate,
//! schedule or Mahimahi trace), then netem delay and jitter plus the rest of the flow's
//! one-way base delay (half its RTT less the access delay) in a delay line, then out. Return (receiver → sender): the return path's netem loss,
//! its delay plus the other half of the flow's RTT, then out. A frame belongs to flow `i` when
//! its receiver-side port is `port_base + i`; frames that are not IPv4 TCP/UDP (ARP) pass
//! straight through.
//!
//! The model's departure times are computed exactly as in the simulator; the real world only
//! adds the latency between a due time and the moment the frame is written to the socket. That
//! latency is measured for every frame (`timing_error`), and the rate the frames actually
//! left at during busy periods is measured against the model's, so every run states its own
//! accuracy. To keep that latency small the forwarder runs at real-time priority when it may
//! ([`REALTIME_PRIORITY`]; the report says whether it did). On this project's 2-core VM that
//! took the 99th percentile of release lateness under two busy loops from 0.3-1.8 ms to
//! 0.01-1.0 ms (five runs of 1000 frames each); what remains is the hypervisor taking the
//! vCPU away, which no priority inside the guest prevents (single stalls of up to 10 ms).
//! Those stalls grew common later (2026-11-28: the p99 above one packet time in 84 of 144
//! five-second runs, stalls of up to 17 ms, with the VM's steal time at 15-30 % of a core
//! during a run), so every run now says whether it was the model's link at all
//! ([`EmulatorReport::fell_behind`]), and the comparisons with the simulator leave out runs
//! that were not.

use crate::frame;
use crate::netns::{interrupted, EMU_RECEIVER_SIDE, EMU_SENDER_SIDE};
use cc::Time;
use serde::Serialize;
use sim::impair::{DelayProcess, LossProcess};
use sim::link::{Admission, Bottleneck, LinkStats, ReturnPath};
use sim::packet::{DataPacket, CE};
use sim::pipe::Pipe;
use sim::results::LinkSample;
use sim::stats::Histogram;
use sim::SimConfig;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Frames read from one socket before the loop looks at its timers again.
const RECV_BATCH: usize = 64;
/// The longest the loop sleeps without looking at the stop flag.
const MAX_SLEEP: Time = Time(10_000_000);
/// The loop sleeps until this long before the next due time and polls from there: a
/// wake-up from ppoll takes tens of microseconds, a look at the clock well under one.
const SPIN: Time = Time(60_000);
const FRAME_CAPACITY: usize = 2048;
/// The real-time priority the forwarder asks for (`SCHED_FIFO`). A link does not wait for a
/// scheduler: under the default policy a due frame waits behind every runnable thread on its
/// core, for up to a scheduler slice (milliseconds on a busy 2-core machine), whereas a
/// `SCHED_FIFO` thread preempts them the moment its timer fires. The forwarder sleeps between
/// due times, and the kernel's real-time throttling (`sched_rt_runtime_us`, 95 % by default)
/// bounds it should it ever spin. 10 is low among real-time priorities: below the kernel's
/// threaded interrupt handlers (50), which may carry the frames.
const REALTIME_PRIORITY: libc::c_int = 10;

/// The emulator's accuracy and cost over one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EmulatorReport {
    /// Frames from the sender side that went through the bottleneck model.
    pub forward_frames: u64,
    /// Frames from the receiver side (ACKs) through the return path.
    pub reverse_frames: u64,
    /// Frames that were not IPv4 TCP/UDP (ARP), passed straight through.
    pub other_frames: u64,
    pub reverse_drops: u64,
    /// Frames the kernel dropped before the forwarder read them (socket buffer full): must be
    /// zero for the run to be the model's.
    pub socket_drops: u64,
    pub send_errors: u64,
    /// How late frames left after their due time (model departure + delay), microseconds.
    pub timing_error_p50_us: f64,
    pub timing_error_p99_us: f64,
    pub timing_error_max_us: f64,
    /// Whether the forwarder ran at real-time priority (`SCHED_FIFO`, needs CAP_SYS_NICE, which
    /// root has); without it the timing error shows what the default scheduler costs.
    pub realtime: bool,
    /// Whether the run held a request for zero CPU wake-up latency ([`crate::cpu_latency`]), so
    /// that no vCPU halted and waited on the hypervisor to wake.
    pub cpus_kept_awake: bool,
    /// Frames that left back to back in the model (the queue was busy): the model's rate over
    /// them and the rate at which they actually left; `rate_error` = actual / model - 1.
    pub busy_frames: u64,
    pub model_busy_rate_bps: f64,
    pub actual_busy_rate_bps: f64,
    pub rate_error: f64,
    /// The senders' time from an ACK's release toward them to their next data segment reaching
    /// the emulator (for ACKs followed by data before the flow's next ACK), microseconds: the
    /// host's processing of an ACK into a send, two veth hops included, which the simulator's
    /// `link.send_overhead` models as a uniform wait. Zero when nothing was measured.
    pub send_latency_samples: u64,
    pub send_latency_p01_us: f64,
    pub send_latency_p50_us: f64,
    pub send_latency_p99_us: f64,
    /// CPU time of the forwarder thread, and frames handled per CPU second: the packet rate it
    /// can carry on one core.
    pub cpu_s: f64,
    pub frames_per_cpu_s: f64,
}

/// The share of frames allowed to leave later than one packet time: the 99th percentile of
/// the timing error is what bounds it.
pub const LATE_SHARE: f64 = 0.01;

impl EmulatorReport {
    /// Why this run was not the model's link, if it was not: the kernel dropped frames before
    /// the forwarder read them or the forwarder failed to send some (the model never saw them,
    /// or the receiver never did), or more than [`LATE_SHARE`] of the frames left later than
    /// one packet time after their due time. A frame that late leaves after its successor was
    /// due to start: the receiver sees the two back to back where the model spaced them one
    /// packet time apart, and its ACKs carry that compression back to the sender's clock. The
    /// packet time is a full-sized segment's (`mss` + headers) at the link's fastest rate
    /// (its rate or any step of its schedule; a trace's mean rate), the strictest spacing the
    /// model gives. On the VM this was written on, the forwarder at real-time priority keeps
    /// its p99 at 12-160 µs, under the 300 µs of 1500 bytes at 40 Mbit/s; a hypervisor stall
    /// of milliseconds during a run takes it past.
    pub fn fell_behind(&self, cfg: &SimConfig) -> Option<String> {
        if self.socket_drops > 0 || self.send_errors > 0 {
            return Some(format!(
                "the emulator lost frames ({} dropped by the kernel before it read them, {} failed sends)",
                self.socket_drops, self.send_errors
            ));
        }
        let rate = match &cfg.link.trace {
            Some(t) => t.mean_rate().bits_per_sec(),
            None => cfg.link.schedule.iter().map(|(_, r)| r.bits_per_sec()).fold(cfg.link.rate.bits_per_sec(), f64::max),
        };
        let mss = cfg.flows.iter().map(|f| f.sender.mss).min()?;
        let packet_us = (mss + sim::config::TCP_HEADER_BYTES) as f64 * 8.0 / rate * 1e6;
        (packet_us.is_finite() && self.timing_error_p99_us > packet_us).then(|| {
            format!(
                "the emulator fell behind: more than {:.0} % of frames left later than one packet time ({packet_us:.0} µs) after their due time (p99 {:.0} µs, longest {:.0} µs)",
                LATE_SHARE * 100.0,
                self.timing_error_p99_us,
                self.timing_error_max_us
            )
        })
    }
}

/// What the emulator hands back: the bottleneck's counters at the end of the configured
/// duration, the link time series, and the report.
pub struct EmulatorOutput {
    pub stats: LinkStats,
    pub link_series: Vec<LinkSample>,
    pub report: EmulatorReport,
}

/// An AF_PACKET socket bound to one interface.
struct PacketSocket {
    fd: libc::c_int,
}

impl PacketSocket {
    fn open(dev: &str) -> Result<PacketSocket, String> {
        let proto = (libc::ETH_P_ALL as u16).to_be();
        // SAFETY: plain socket call.
        let fd = unsafe { libc::socket(libc::AF_PACKET, libc::SOCK_RAW | libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC, proto as i32) };
        if fd < 0 {
            return Err(format!("testbed: AF_PACKET socket: {}", std::io::Error::last_os_error()));
        }
        let sock = PacketSocket { fd };
        let name = std::ffi::CString::new(dev).expect("interface names have no NUL");
        // SAFETY: a NUL-terminated name.
        let ifindex = unsafe { libc::if_nametoindex(name.as_ptr()) };
        if ifindex == 0 {
            return Err(format!("testbed: no interface {dev} in the emulator's namespace"));
        }
        // SAFETY: sockaddr_ll is plain data; zero is a valid start.
        let mut addr: libc::sockaddr_ll = unsafe { std::mem::zeroed() };
        addr.sll_family = libc::AF_PACKET as u16;
        addr.sll_protocol = proto;
        addr.sll_ifindex = ifindex as i32;
        // SAFETY: a valid address of the right length.
        let rc = unsafe {
            libc::bind(fd, &addr as *const _ as *const libc::sockaddr, std::mem::size_of::<libc::sockaddr_ll>() as u32)
        };
        if rc != 0 {
            return Err(format!("testbed: bind to {dev}: {}", std::io::Error::last_os_error()));
        }
        sock.set_int(libc::SOL_PACKET, libc::PACKET_IGNORE_OUTGOING, 1);
        if !sock.set_int(libc::SOL_SOCKET, libc::SO_TIMESTAMPNS, 1) {
            return Err(format!("testbed: SO_TIMESTAMPNS on {dev}: {}", std::io::Error::last_os_error()));
        }
        sock.set_int(libc::SOL_SOCKET, libc::SO_RCVBUFFORCE, 8 << 20);
        sock.set_int(libc::SOL_SOCKET, libc::SO_SNDBUFFORCE, 8 << 20);
        Ok(sock)
    }

    fn set_int(&self, level: libc::c_int, opt: libc::c_int, v: libc::c_int) -> bool {
        // SAFETY: an int option of the right size.
        unsafe { libc::setsockopt(self.fd, level, opt, &v as *const _ as *const libc::c_void, 4) == 0 }
    }

    /// Reads one incoming frame into `buf`, with the kernel's receive time (CLOCK_REALTIME,
    /// nanoseconds); `None` when none is waiting.
    fn recv(&self, buf: &mut Vec<u8>) -> Option<u64> {
        loop {
            buf.resize(FRAME_CAPACITY, 0);
            let (n, from, stamp) = recv_stamped(self.fd, buf)?;
            if from.sll_pkttype == libc::PACKET_OUTGOING {
                continue;
            }
            buf.truncate(n);
            return Some(stamp);
        }
    }

    fn send(&self, buf: &[u8]) -> bool {
        // SAFETY: a valid buffer.
        unsafe { libc::send(self.fd, buf.as_ptr() as *const _, buf.len(), 0) == buf.len() as isize }
    }

    /// Frames the kernel dropped for this socket so far (PACKET_STATISTICS; reading resets).
    fn drops(&self) -> u64 {
        let mut st = libc::tpacket_stats { tp_packets: 0, tp_drops: 0 };
        let mut len = std::mem::size_of::<libc::tpacket_stats>() as u32;
        // SAFETY: a tpacket_stats of the size given.
        unsafe { libc::getsockopt(self.fd, libc::SOL_PACKET, libc::PACKET_STATISTICS, &mut st as *mut _ as *mut _, &mut len) };
        st.tp_drops as u64
    }
}

impl Drop for PacketSocket {
    fn drop(&mut self) {
        // SAFETY: our own fd.
        unsafe { libc::close(self.fd) };
    }
}

/// recvmsg with the SO_TIMESTAMPNS control message: bytes, sender address, receive time
/// (CLOCK_REALTIME ns). Shared with tests that time packets the same way.
pub fn recv_stamped(fd: libc::c_int, buf: &mut [u8]) -> Option<(usize, libc::sockaddr_ll, u64)> {
    // SAFETY: plain data, zero is valid.
    let mut from: libc::sockaddr_ll = unsafe { std::mem::zeroed() };
    let mut iov = libc::iovec { iov_base: buf.as_mut_ptr() as *mut _, iov_len: buf.len() };
    let mut control = [0u64; 8];
    // SAFETY: as above.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_name = &mut from as *mut _ as *mut _;
    msg.msg_namelen = std::mem::size_of::<libc::sockaddr_ll>() as u32;
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr() as *mut _;
    msg.msg_controllen = std::mem::size_of_val(&control);
    // SAFETY: msg points at live buffers of the lengths given.
    let n = unsafe { libc::recvmsg(fd, &mut msg, libc::MSG_DONTWAIT) };
    if n < 0 {
        return None;
    }
    let mut stamp = None;
    // SAFETY: walking the control buffer the kernel filled, with the CMSG macros.
    unsafe {
        let mut c = libc::CMSG_FIRSTHDR(&msg);
        while !c.is_null() {
            if (*c).cmsg_level == libc::SOL_SOCKET && (*c).cmsg_type == libc::SCM_TIMESTAMPNS {
                let ts = std::ptr::read_unaligned(libc::CMSG_DATA(c) as *const libc::timespec);
                stamp = Some(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64);
            }
            c = libc::CMSG_NXTHDR(&msg, c);
        }
    }
    Some((n as usize, from, stamp.unwrap_or_else(realtime_ns)))
}

/// CLOCK_REALTIME in nanoseconds (the clock of kernel receive timestamps).
pub fn realtime_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Moves the calling thread to `SCHED_FIFO` at [`REALTIME_PRIORITY`]; false when not allowed.
fn enter_realtime() -> bool {
    let param = libc::sched_param { sched_priority: REALTIME_PRIORITY };
    // SAFETY: pid 0 is the calling thread; a valid sched_param.
    unsafe { libc::sched_setscheduler(0, libc::SCHED_FIFO, &param) == 0 }
}

/// `origin` on CLOCK_REALTIME, in nanoseconds (kernel receive stamps are on that clock, the
/// run's on the monotonic one): the tightest of five monotonic-realtime-monotonic brackets,
/// so that a preemption between two reads cannot move every arrival, and every frame's
/// departure, by its length.
fn realtime_at(origin: Instant) -> u64 {
    let brackets = (0..5).map(|_| {
        let a = Instant::now();
        let real = realtime_ns();
        let b = Instant::now();
        let mid = a + (b - a) / 2;
        let at = if origin >= mid {
            real + (origin - mid).as_nanos() as u64
        } else {
            real.saturating_sub((mid - origin).as_nanos() as u64)
        };
        (b - a, at)
    });
    brackets.min_by_key(|&(width, _)| width).expect("five brackets").1
}

fn thread_cpu_s() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// A frame on its way out, and what the accuracy measurement needs about it.
struct Departing {
    due: Time,
    slot: u32,
    flow: u32,
    /// It left the model's serialiser right after the previous frame (the queue was busy).
    back_to_back: bool,
}

/// Receives every frame as the sender's host sees it (data as it leaves the sender, ACKs as
/// they reach it), with its time from the run's origin: a pcap writer.
pub type Capture = Box<dyn FnMut(Time, &[u8]) + Send>;

/// The emulator's state between frames.
pub struct Emulator {
    capture: Option<Capture>,
    link: Bottleneck,
    schedule: Vec<(Time, cc::Rate)>,
    next_step: usize,
    next_departure: Option<Time>,
    busy: bool,
    /// Frames on a flow's access link, due at the bottleneck (the simulator's access pipe).
    access_pipe: Pipe<DataPacket>,
    access_delay: Vec<Time>,
    fwd_pipe: Pipe<Departing>,
    rev_loss: LossProcess,
    rev_delay: DelayProcess,
    rev_pipe: Pipe<Departing>,
    /// One-way base delays per flow: out after the queue (half the RTT less the access
    /// delay) and back (the rest of the RTT).
    fwd_delay: Vec<Time>,
    rev_delay_flow: Vec<Time>,
    port_base: u16,
    frames: Vec<Vec<u8>>,
    free: Vec<u32>,
    duration: Time,
    interval: Option<Time>,
    next_sample: Option<Time>,
    last_forwarded: u64,
    final_stats: Option<LinkStats>,
    link_series: Vec<LinkSample>,
    timing_ns: Histogram,
    /// Per flow, when its last ACK was released toward the sender, until data follows.
    ack_released: Vec<Option<Time>>,
    send_latency_ns: Histogram,
    last_emit: Option<(Time, Time)>,
    fifo: bool,
    busy_bytes: u64,
    busy_model_ns: u64,
    busy_actual_ns: u64,
    report: EmulatorReport,
}

impl Emulator {
    pub fn new(cfg: &SimConfig, port_base: u16) -> Emulator {
        let link = Bottleneck::from_config(cfg);
        let rev_delay = ReturnPath::delay(cfg);
        // One delay line per direction for every flow: frames overtake each other when the
        // delay has jitter, the flows' base RTTs differ or their access delays do (so do their
        // delays after the queue; the simulator has a line per flow).
        let rtts_differ = cfg.flows.windows(2).any(|w| w[0].rtt != w[1].rtt);
        let jitter = link.delay.has_jitter() || rtts_differ;
        let access_differs = cfg.flows.windows(2).any(|w| w[0].access_delay != w[1].access_delay);
        debug_assert!(cfg.flows.iter().all(|f| f.access_delay <= f.forward_delay()), "validated: access_delay <= rtt/2");
        Emulator {
            capture: None,
            schedule: cfg.link.schedule.clone(),
            next_step: 0,
            next_departure: None,
            busy: false,
            access_pipe: Pipe::new(access_differs),
            access_delay: cfg.flows.iter().map(|f| f.access_delay).collect(),
            fwd_pipe: Pipe::new(jitter || access_differs),
            rev_loss: ReturnPath::loss(cfg),
            rev_pipe: Pipe::new(rev_delay.has_jitter() || rtts_differ),
            rev_delay,
            fwd_delay: cfg.flows.iter().map(|f| f.forward_delay() - f.access_delay).collect(),
            rev_delay_flow: cfg.flows.iter().map(|f| f.rtt - f.forward_delay()).collect(),
            port_base,
            frames: Vec::new(),
            free: Vec::new(),
            duration: cfg.duration,
            interval: cfg.sample_interval,
            next_sample: cfg.sample_interval,
            last_forwarded: 0,
            final_stats: None,
            link_series: Vec::new(),
            timing_ns: Histogram::default(),
            ack_released: vec![None; cfg.flows.len()],
            send_latency_ns: Histogram::default(),
            last_emit: None,
            fifo: !(jitter || access_differs),
            busy_bytes: 0,
            busy_model_ns: 0,
            busy_actual_ns: 0,
            report: EmulatorReport::default(),
            link,
        }
    }

    /// Hands every frame seen on the sender's side to `capture`.
    pub fn with_capture(mut self, capture: Option<Capture>) -> Emulator {
        self.capture = capture;
        self
    }

    fn flow_of(&self, port: u16) -> usize {
        let i = port.wrapping_sub(self.port_base) as usize;
        if i < self.fwd_delay.len() {
            i
        } else {
            0
        }
    }

    fn slot(&mut self) -> u32 {
        self.free.pop().unwrap_or_else(|| {
            self.frames.push(Vec::with_capacity(FRAME_CAPACITY));
            (self.frames.len() - 1) as u32
        })
    }

    /// Everything due at or before `now`: rate steps, arrivals off the access links,
    /// departures, samples, the end of the configured duration, and the frames whose delay
    /// is over.
    fn advance(&mut self, now: Time, out: &[PacketSocket; 2], clock: &impl Fn() -> Time) {
        loop {
            // The earliest model event due by now, processed at its own time.
            let step = self.schedule.get(self.next_step).map(|s| s.0);
            let access = self.access_pipe.head_time();
            let candidates = [step, access, self.next_departure, self.next_sample, self.final_stats.is_none().then_some(self.duration)];
            let Some(t) = candidates.iter().flatten().copied().min().filter(|&t| t <= now) else { break };
            if step == Some(t) {
                let (_, rate) = self.schedule[self.next_step];
                self.link.set_rate(t, rate);
                self.next_step += 1;
            } else if access == Some(t) {
                while let Some(p) = self.access_pipe.pop_due(t) {
                    self.enter_bottleneck(t, p);
                }
            } else if self.next_departure == Some(t) {
                let (p, next) = self.link.depart(t);
                self.next_departure = next;
                let back_to_back = self.busy;
                self.busy = next.is_some();
                if p.ecn == CE {
                    frame::mark_ce(&mut self.frames[p.seq as usize]);
                }
                let due = t + self.link.delay.sample() + self.fwd_delay[p.flow as usize];
                self.fwd_pipe.push(due, Departing { due, slot: p.seq as u32, flow: p.flow, back_to_back });
            } else if self.next_sample == Some(t) {
                if t <= self.duration {
                    let iv = self.interval.expect("sampling needs an interval");
                    self.link_series.push(LinkSample::take(&self.link, t, iv, &mut self.last_forwarded));
                    self.next_sample = Some(t + iv);
                } else {
                    self.next_sample = None;
                }
            } else {
                self.link.finish(t);
                self.final_stats = Some(self.link.stats.clone());
            }
        }
        while let Some(d) = self.fwd_pipe.pop_due(now) {
            self.emit(&out[1], d, clock(), true);
        }
        while let Some(d) = self.rev_pipe.pop_due(now) {
            self.emit(&out[0], d, clock(), false);
        }
    }

    fn emit(&mut self, sock: &PacketSocket, d: Departing, now: Time, forward: bool) {
        if !sock.send(&self.frames[d.slot as usize]) {
            self.report.send_errors += 1;
        }
        if !forward {
            if let Some(c) = &mut self.capture {
                c(now, &self.frames[d.slot as usize]);
            }
            self.ack_released[d.flow as usize] = Some(now);
        }
        self.timing_ns.record((now - d.due).0);
        if forward {
            if self.fifo && d.back_to_back {
                if let Some((actual, due)) = self.last_emit {
                    self.busy_bytes += self.frames[d.slot as usize].len() as u64 - 14;
                    self.busy_model_ns += (d.due - due).0;
                    self.busy_actual_ns += (now - actual).0;
                    self.report.busy_frames += 1;
                }
            }
            self.last_emit = Some((now, d.due));
        }
        self.free.push(d.slot);
    }

    /// A frame the model does not apply to (ARP): straight out of the other side.
    fn pass_through(&mut self, slot: u32, out: &PacketSocket) {
        self.report.other_frames += 1;
        if !out.send(&self.frames[slot as usize]) {
            self.report.send_errors += 1;
        }
        self.free.push(slot);
    }

    fn on_forward_frame(&mut self, now: Time, slot: u32, out: &PacketSocket) {
        if let Some(c) = &mut self.capture {
            c(now, &self.frames[slot as usize]);
        }
        let buf = &self.frames[slot as usize];
        let Some(info) = frame::parse(buf) else { return self.pass_through(slot, out) };
        self.report.forward_frames += 1;
        let flow = self.flow_of(info.dst_port);
        // A segment the kernel received before the ACK left (read in the same batch) is not
        // its answer.
        if let Some(released) = self.ack_released[flow].filter(|&r| info.payload > 0 && now >= r) {
            self.send_latency_ns.record((now - released).0);
            self.ack_released[flow] = None;
        }
        let p = DataPacket {
            flow: flow as u32,
            seq: slot as u64,
            len: info.ip_len,
            wire: info.ip_len,
            sent: now,
            enqueued: now,
            ecn: info.ecn,
            retransmission: false,
            hdr_rtt: Time::ZERO,
            nonce: 0,
            tsecr: Time::ZERO,
        };
        match self.access_delay[p.flow as usize] {
            Time::ZERO => self.enter_bottleneck(now, p),
            delay => {
                self.access_pipe.push(now + delay, p);
            }
        }
    }

    /// A frame reaches the bottleneck at `now`: its queue admits or drops it.
    fn enter_bottleneck(&mut self, now: Time, p: DataPacket) {
        let slot = p.seq as u32;
        match self.link.arrive(now, p) {
            (Admission::Queued, departure) => {
                if departure.is_some() {
                    self.next_departure = departure;
                    self.busy = false;
                }
            }
            _ => self.free.push(slot),
        }
    }

    fn on_reverse_frame(&mut self, now: Time, slot: u32, out: &PacketSocket) {
        let buf = &self.frames[slot as usize];
        let Some(info) = frame::parse(buf) else { return self.pass_through(slot, out) };
        self.report.reverse_frames += 1;
        if self.rev_loss.lose() {
            self.report.reverse_drops += 1;
            self.free.push(slot);
            return;
        }
        let flow = self.flow_of(info.src_port);
        let due = now + self.rev_delay.sample() + self.rev_delay_flow[flow];
        self.rev_pipe.push(due, Departing { due, slot, flow: flow as u32, back_to_back: false });
    }

    /// The next time anything is due.
    fn next_due(&self) -> Option<Time> {
        [
            self.schedule.get(self.next_step).map(|s| s.0),
            self.access_pipe.head_time(),
            self.next_departure,
            self.next_sample,
            self.final_stats.is_none().then_some(self.duration),
            self.fwd_pipe.head_time(),
            self.rev_pipe.head_time(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Forwards frames until `stop` is set, SIGINT/SIGTERM arrives or `hard_end` passes.
    /// `ready` is set once both sockets are open. Call it in a thread inside the emulator's
    /// namespace; time is measured from `origin`.
    pub fn run(mut self, origin: Instant, hard_end: Time, ready: &AtomicBool, stop: &AtomicBool) -> Result<EmulatorOutput, String> {
        // Wake-ups as close to the due time as the timer allows (the default slack is 50 us).
        // SAFETY: prctl with an integer argument affects this thread only.
        unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong) };
        self.report.realtime = enter_realtime();
        let socks = [PacketSocket::open(EMU_SENDER_SIDE)?, PacketSocket::open(EMU_RECEIVER_SIDE)?];
        ready.store(true, Ordering::Release);
        let clock = || Time(origin.elapsed().as_nanos() as u64);
        // Kernel receive stamps are CLOCK_REALTIME: the origin on that clock (which may still
        // be ahead: the run's clock starts once every thread is set up).
        let realtime_origin = realtime_at(origin);
        let cpu0 = thread_cpu_s();
        let mut last = Time::ZERO;
        let mut buf = Vec::with_capacity(FRAME_CAPACITY);
        // Bounded: the loop ends by `hard_end` at the latest.
        loop {
            let now = clock();
            if stop.load(Ordering::Relaxed) || interrupted() || now >= hard_end {
                break;
            }
            // Arrivals first, each at the time the kernel received it (not when this loop woke
            // up), with whatever fell due before it applied first.
            for (side, sock) in socks.iter().enumerate() {
                for _ in 0..RECV_BATCH {
                    let Some(stamp) = sock.recv(&mut buf) else { break };
                    let slot = self.slot();
                    std::mem::swap(&mut self.frames[slot as usize], &mut buf);
                    let t = Time(stamp.saturating_sub(realtime_origin)).min(clock()).max(last);
                    last = t;
                    self.advance(t, &socks, &clock);
                    if side == 0 {
                        self.on_forward_frame(t, slot, &socks[1]);
                    } else {
                        self.on_reverse_frame(t, slot, &socks[0]);
                    }
                }
            }
            let now = clock().max(last);
            last = now;
            self.advance(now, &socks, &clock);
            let wake = self.next_due().unwrap_or(now + MAX_SLEEP).min(now + MAX_SLEEP);
            if wake > now + SPIN {
                let wait = wake - now - SPIN;
                let ts = libc::timespec { tv_sec: (wait.0 / 1_000_000_000) as i64, tv_nsec: (wait.0 % 1_000_000_000) as i64 };
                let mut fds = socks.each_ref().map(|s| libc::pollfd { fd: s.fd, events: libc::POLLIN, revents: 0 });
                // SAFETY: two valid pollfds and a valid timespec.
                unsafe { libc::ppoll(fds.as_mut_ptr(), 2, &ts, std::ptr::null()) };
            }
        }
        let cpu = thread_cpu_s() - cpu0;
        if self.final_stats.is_none() {
            self.link.finish(self.duration);
            self.final_stats = Some(self.link.stats.clone());
        }
        let mut r = self.report;
        r.socket_drops = socks.iter().map(|s| s.drops()).sum();
        let h = &self.timing_ns;
        r.timing_error_p50_us = h.quantile(0.5) as f64 / 1e3;
        r.timing_error_p99_us = h.quantile(0.99) as f64 / 1e3;
        r.timing_error_max_us = h.max() as f64 / 1e3;
        let s = &self.send_latency_ns;
        if s.count() > 0 {
            r.send_latency_samples = s.count();
            r.send_latency_p01_us = s.quantile(0.01) as f64 / 1e3;
            r.send_latency_p50_us = s.quantile(0.5) as f64 / 1e3;
            r.send_latency_p99_us = s.quantile(0.99) as f64 / 1e3;
        }
        if self.busy_model_ns > 0 && self.busy_actual_ns > 0 {
            r.model_busy_rate_bps = self.busy_bytes as f64 * 8e9 / self.busy_model_ns as f64;
            r.actual_busy_rate_bps = self.busy_bytes as f64 * 8e9 / self.busy_actual_ns as f64;
            r.rate_error = r.actual_busy_rate_bps / r.model_busy_rate_bps - 1.0;
        }
        r.cpu_s = cpu;
        let frames = r.forward_frames + r.reverse_frames + r.other_frames;
        r.frames_per_cpu_s = if cpu > 0.0 { frames as f64 / cpu } else { 0.0 };
        Ok(EmulatorOutput { stats: self.final_stats.expect("set above"), link_series: self.link_series, report: r })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cc::{CcConfig, Rate};
    use sim::FlowConfig;

    fn link(mbit: f64) -> SimConfig {
        SimConfig {
            seed: 1,
            duration: Time::from_secs(1),
            sample_interval: None,
            link: sim::LinkConfig { rate: Rate::from_bits_per_sec(mbit * 1e6), ..sim::LinkConfig::default() },
            flows: vec![FlowConfig::new(CcConfig::from_name("reno").unwrap(), Time::from_millis(100))],
        }
    }

    /// A full-sized segment (1448 + 52 bytes) takes 1500·8 / 40e6 s = 300 µs at 40 Mbit/s and
    /// 1200 µs at 10 Mbit/s: a p99 of 400 µs is behind on the first link and not on the
    /// second; any lost frame is behind on both.
    #[test]
    fn a_run_fell_behind_when_one_frame_in_a_hundred_is_a_packet_time_late() {
        let late = EmulatorReport { timing_error_p99_us: 400.0, timing_error_max_us: 2000.0, ..EmulatorReport::default() };
        let why = late.fell_behind(&link(40.0)).expect("behind at 40 Mbit/s");
        assert!(why.contains("(300 µs)") && why.contains("p99 400 µs"), "{why}");
        assert_eq!(late.fell_behind(&link(10.0)), None);
        let mut fast = link(10.0);
        fast.link.schedule = vec![(Time::from_secs(1), Rate::from_bits_per_sec(40e6))];
        assert!(late.fell_behind(&fast).is_some(), "the schedule's fastest step sets the packet time");
        let lost = EmulatorReport { socket_drops: 1, ..EmulatorReport::default() };
        assert!(lost.fell_behind(&link(10.0)).unwrap().contains("lost frames"));
    }
}
