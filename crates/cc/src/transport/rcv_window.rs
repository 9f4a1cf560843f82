//! When a Linux receiver with delayed ACKs still acknowledges every segment: its quick-ACK
//! budget and the receive-window autotuning that refills it (Linux 6.18 `net/ipv4/tcp_input.c`:
//! `tcp_incr_quickack`, `tcp_dec_quickack_mode`, `tcp_grow_window`, `tcp_rcv_space_adjust`,
//! `tcp_rcvbuf_grow`, `tcp_rcv_rtt_measure_ts`, `tcp_measure_rcv_mss`).
//!
//! Linux sends an ACK at once, not after a second segment or the 40 ms timer, while
//! `icsk_ack.quick`, its quick-ACK budget, is above zero. Each ACK sent spends one
//! (`tcp_dec_quickack_mode`). The budget is filled:
//! - at the first data segment, to `min(rcv_wnd / (2·rcv_mss), TCP_MAX_QUICKACKS = 16)`;
//! - by a segment that had already arrived (a retransmission, `tcp_enter_quickack_mode`), to 16;
//! - by every data segment that raises `rcv_ssthresh`, the window the receiver lets itself
//!   advertise: `tcp_grow_window` sets the budget's low bit (`quick |= 1`), so the budget does not
//!   drain while the window opens. `rcv_ssthresh` grows by `max(2·advmss, 2·len)` a segment, up
//!   to `room = min(window_clamp, tcp_space) − rcv_ssthresh`.
//!
//! `window_clamp` follows Dynamic Right-Sizing. Once per receiver RTT
//! (`tcp_rcv_space_adjust`), if the application read more in that RTT (`copied`) than at the
//! last measure (`space`), 6.18's `tcp_rcvbuf_grow` ("tcp: fix too slow tcp_rcvbuf_grow()
//! action", 2025) sets
//!
//! `rcvwin = 2·copied + 2·(2·copied·(copied − space)/space) + ooo`,
//! `rcvbuf = min(rcvwin·256/ratio, tcp_rmem[2])`, `window_clamp = rcvbuf·ratio/256`,
//!
//! where `ooo` is the span held out of order and `ratio` (`scaling_ratio`, of 256) is a
//! received segment's payload over the memory it takes (`skb->len / skb->truesize`): 128
//! until the first segment, then measured (`tcp_measure_rcv_mss`). The receiver's RTT is the
//! timestamp echo's, `now − TSecr` in whole milliseconds (at least one) on a full-sized
//! segment with a new echo, and the time to receive one advertised window's worth of data
//! (`tcp_rcv_rtt_measure`, which also runs with timestamps). A smaller sample replaces the
//! estimate; a larger timestamp sample moves it by 1/8, a larger window sample is ignored
//! (`tcp_rcv_rtt_update` since the series of "tcp: fix sk_rcvbuf overshoot", 2025). The first
//! measure starts with the connection, `space = min(rcv_wnd, 10·advmss)`
//! (`tcp_init_buffer_space`).
//!
//! In slow start, then, the window opens by about twice a round's data at the start of each
//! round and the receiver ACKs every segment until `rcv_ssthresh` has caught up, most of the
//! round; in congestion avoidance the window is open already and ACKs go every second segment.
//! On the testbed (Linux 6.18, 10 Mbit/s, 60 ms) the kernel's receiver ACKed segments 1-22
//! one by one (its budget of 16 stayed full while the window grew over the first six, then
//! drained), then every second one while its window stood at 80,896 bytes (131,072·158/256),
//! then one by one again for 24 segments of the third round, as its window rose to 151,552.
//!
//! The window each ACK advertises (`tcp_select_window`) is `min(free, rcv_ssthresh)`, where
//! `free = tcp_space = window_clamp − held`, the buffer left by the out-of-order queue; below
//! half the full window the budget is cleared and below a sixteenth the window is zero; and its
//! right edge never moves left. The sender stops at that edge (`tcp_snd_wnd_test`). In slow
//! start under loss the window binds: the out-of-order queue takes buffer, and the buffer grows
//! only with what the application read in the last RTT, which holes hold back.
//!
//! Modelled with an application that reads each segment as it arrives, so `tcp_space` is
//! the buffer less the out-of-order queue and `copied` is what came in order; memory in
//! `scaling_ratio`'s terms (a held segment takes `len·256/ratio` of buffer). Not modelled: the
//! budget refilled after an idle period longer than the receiver's RTO, window scaling's
//! rounding, and the persist timer (a zero window counts as one segment at the sender). SACK
//! compression is `super::sack_compress`.

use crate::units::{Bytes, Time};

/// `TCP_MAX_QUICKACKS`.
pub const MAX_QUICKACKS: u32 = 16;
/// `tcp_rmem[1]`: the receive buffer a connection starts with, bytes.
pub const RMEM_DEFAULT: u64 = 131_072;
/// `tcp_rmem[2]` on a host with at least 4 GiB free (`min(32 MiB, free/128)`; this testbed's).
pub const RMEM_MAX: u64 = 33_554_432;
/// `TCP_DEFAULT_SCALING_RATIO`: payload/truesize assumed before the first segment, of 256.
pub const DEFAULT_SCALING_RATIO: u32 = 128;
/// `scaling_ratio` measured on the testbed's receiver (Linux 6.18, 1448-byte segments from the
/// emulator's tap device): its window stood still at 80,896 = 131,072·158/256 bytes.
pub const TESTBED_SCALING_RATIO: u32 = 158;
/// `TCP_INIT_CWND`.
const INIT_CWND: u64 = 10;

/// A Linux receiver's settings: its segment size and its `scaling_ratio` (of 256).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RcvWindowConfig {
    pub advmss: Bytes,
    pub scaling_ratio: u32,
}

/// The receiver's side of one connection: its budget, its window, its DRS measure.
#[derive(Clone, Debug)]
pub struct RcvWindow {
    advmss: Bytes,
    /// The ratio the first segment sets.
    measured_ratio: u32,
    ratio: u32,
    rcvbuf: u64,
    rcv_wnd: u64,
    window_clamp: u64,
    rcv_ssthresh: u64,
    /// `rcvq_space`: bytes read in the last measured RTT, and where and when it began.
    space: u64,
    space_from: u64,
    space_time: Option<Time>,
    /// Smoothed receiver RTT (`rcv_rtt_est`).
    rtt: Option<Time>,
    /// The window-based measure's target (bytes read) and its start.
    win_mark: Option<(u64, Time)>,
    last_tsecr: Option<Time>,
    quick: u32,
    /// Bytes read by the application (all that came in order).
    copied: u64,
    /// The window last advertised (`rcv_wnd` as `tcp_select_window` leaves it) and the
    /// `rcv_nxt` it was advertised from (`rcv_wup`), in bytes.
    advertised: u64,
    wup: u64,
}

/// `tcp_win_from_space`: window bytes from buffer bytes.
fn win_from_space(ratio: u32, space: u64) -> u64 {
    (space * ratio as u64) >> 8
}

/// `tcp_space_from_win`: buffer bytes from window bytes.
fn space_from_win(ratio: u32, win: u64) -> u64 {
    (win << 8) / ratio.max(1) as u64
}

impl RcvWindow {
    /// A connection just established (`tcp_select_initial_window`, `tcp_init_buffer_space`),
    /// whose segments carry `advmss` bytes and use `scaling_ratio`/256 of their memory.
    pub fn new(cfg: RcvWindowConfig) -> RcvWindow {
        let (advmss, scaling_ratio) = (cfg.advmss.max(1), cfg.scaling_ratio);
        let full = win_from_space(DEFAULT_SCALING_RATIO, RMEM_DEFAULT);
        let rcv_wnd = if full > advmss { full / advmss * advmss } else { full };
        RcvWindow {
            advmss,
            measured_ratio: scaling_ratio.clamp(1, 255),
            ratio: DEFAULT_SCALING_RATIO,
            rcvbuf: RMEM_DEFAULT,
            rcv_wnd,
            window_clamp: full,
            rcv_ssthresh: rcv_wnd.min(full),
            space: rcv_wnd.min(INIT_CWND * advmss),
            space_from: 0,
            space_time: None,
            rtt: None,
            win_mark: None,
            last_tsecr: None,
            quick: 0,
            copied: 0,
            advertised: rcv_wnd,
            wup: 0,
        }
    }

    /// The receiver's RTT estimate (`rcv_rtt_est`), once it has one.
    pub fn rtt(&self) -> Option<Time> {
        self.rtt
    }

    /// The segment size the window counts in.
    pub fn advmss(&self) -> Bytes {
        self.advmss
    }

    /// Whether the next ACK goes at once.
    pub fn quick(&self) -> bool {
        self.quick > 0
    }

    /// The window the receiver may advertise now (`rcv_ssthresh`), bytes.
    pub fn rcv_ssthresh(&self) -> u64 {
        self.rcv_ssthresh
    }

    /// The most it may ever advertise with its present buffer (`window_clamp`), bytes.
    pub fn window_clamp(&self) -> u64 {
        self.window_clamp
    }

    /// A segment of `len` payload bytes arrived echoing `tsecr` (`tcp_rcv_rtt_measure_ts`).
    pub fn on_timestamp(&mut self, now: Time, len: Bytes, tsecr: Option<Time>) {
        let Some(tsecr) = tsecr else { return };
        if self.last_tsecr == Some(tsecr) {
            return;
        }
        self.last_tsecr = Some(tsecr);
        if len < self.advmss {
            return;
        }
        // Timestamps tick in milliseconds (`tcp_time_stamp_ts`); a zero delta counts as one.
        let m_ms = (now.as_nanos() / 1_000_000).saturating_sub(tsecr.as_nanos() / 1_000_000).max(1);
        self.rtt_update(Time::from_millis(m_ms), false);
    }

    /// `tcp_rcv_rtt_update`: a smaller sample is taken whole; a larger one moves the estimate
    /// by 1/8, unless it is the window-based measure's (`win_dep`), which only lowers it.
    fn rtt_update(&mut self, m: Time, win_dep: bool) {
        self.rtt = match self.rtt {
            Some(r) if m >= r && win_dep => Some(r),
            Some(r) if m >= r => Some(Time::from_nanos(r.as_nanos() - r.as_nanos() / 8 + m.as_nanos() / 8)),
            _ => Some(m),
        };
    }

    /// `tcp_rcv_rtt_measure`, which runs with timestamps too: the time to receive one
    /// advertised window's worth of data, from `copied` bytes read by `now`.
    fn window_rtt_measure(&mut self, now: Time) {
        if let Some((target, since)) = self.win_mark {
            if self.copied < target {
                return;
            }
            self.rtt_update((now - since).max(Time::from_nanos(1)), true);
        }
        self.win_mark = Some((self.copied + self.rcv_wnd, now));
    }

    /// A segment that had already arrived: the budget back to 16 (`tcp_enter_quickack_mode`).
    pub fn on_duplicate(&mut self) {
        self.incr_quickack();
    }

    /// New data of `len` bytes arrived, `delivered` of which (with any hole it filled) the
    /// application reads now; `ooo` bytes are held out of order.
    pub fn on_data(&mut self, now: Time, len: Bytes, delivered: Bytes, ooo: Bytes) {
        if self.space_time.is_none() {
            // The connection's first data: the ratio measured, the budget filled
            // (`tcp_measure_rcv_mss`, then `tcp_event_data_recv` with no `ato` yet).
            self.space_time = Some(now);
            self.set_ratio(self.measured_ratio);
            self.incr_quickack();
        }
        if delivered > 0 {
            self.copied += delivered;
            self.window_rtt_measure(now);
        }
        if len >= 128 {
            self.grow_window(len);
        }
        if delivered > 0 {
            self.space_adjust(now, ooo);
        }
    }

    /// The window an ACK sent now advertises, in bytes from `rcv_nxt` (`tcp_select_window`,
    /// `__tcp_select_window`), with `held` bytes of out-of-order data in the receive queue.
    ///
    /// `free = tcp_space = window_clamp − held` (the application reads in-order data at once,
    /// so only the out-of-order queue takes buffer). Below half the full window the quick-ACK
    /// budget is cleared, and below a sixteenth of it (or one segment) the window is zero.
    /// Otherwise the window is `min(free, rcv_ssthresh)`. It never shrinks: its right edge
    /// stays at least where the last advertisement put it.
    pub fn advertise(&mut self, rcv_nxt: u64, held: Bytes) -> Bytes {
        let full = self.window_clamp;
        let free = full.saturating_sub(held);
        let mut window = free.min(self.rcv_ssthresh);
        if free < full / 2 {
            self.quick = 0;
            if free < full / 16 || free < self.advmss {
                window = 0;
            }
        }
        let current = (self.wup + self.advertised).saturating_sub(rcv_nxt);
        window = window.max(current);
        (self.advertised, self.wup) = (window, rcv_nxt);
        window
    }

    /// An ACK went out.
    pub fn on_ack_sent(&mut self) {
        self.quick = self.quick.saturating_sub(1);
    }

    fn set_ratio(&mut self, ratio: u32) {
        self.ratio = ratio;
        self.window_clamp = win_from_space(ratio, self.rcvbuf);
        self.space = self.space.min(self.window_clamp);
    }

    /// `tcp_incr_quickack(sk, TCP_MAX_QUICKACKS)`.
    fn incr_quickack(&mut self) {
        let budget = (self.rcv_wnd / (2 * self.advmss)).max(2) as u32;
        self.quick = self.quick.max(budget.min(MAX_QUICKACKS));
    }

    /// `tcp_grow_window`. The application reads at once, so `tcp_space` is the whole buffer's
    /// window, which is `window_clamp` itself: `room = window_clamp − rcv_ssthresh`.
    fn grow_window(&mut self, len: Bytes) {
        let room = self.window_clamp.saturating_sub(self.rcv_ssthresh);
        if room == 0 {
            return;
        }
        let incr = (2 * self.advmss).max(2 * len);
        self.rcv_ssthresh += room.min(incr);
        self.rcv_wnd = self.rcv_wnd.max(self.rcv_ssthresh);
        self.quick |= 1;
    }

    /// `tcp_rcv_space_adjust` and `tcp_rcvbuf_grow`.
    fn space_adjust(&mut self, now: Time, ooo: Bytes) {
        let (Some(rtt), Some(start)) = (self.rtt, self.space_time) else { return };
        if now - start < rtt {
            return;
        }
        let copied = self.copied - self.space_from;
        if copied > self.space {
            let old = self.space.max(1);
            self.space = copied;
            let mut rcvwin = 2 * copied;
            rcvwin += 2 * (rcvwin * (copied - old) / old);
            rcvwin += ooo;
            let rcvbuf = space_from_win(self.ratio, rcvwin).min(RMEM_MAX);
            if rcvbuf > self.rcvbuf {
                self.rcvbuf = rcvbuf;
                self.window_clamp = win_from_space(self.ratio, rcvbuf);
            }
        }
        self.space_from = self.copied;
        self.space_time = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: Bytes = 1448;

    fn ms(x: u64) -> Time {
        Time::from_millis(x)
    }

    #[test]
    fn the_initial_window_is_half_the_default_buffer_in_whole_segments() {
        let w = RcvWindow::new(RcvWindowConfig { advmss: MSS, scaling_ratio: TESTBED_SCALING_RATIO });
        // 131,072·128/256 = 65,536, rounded down to 45 segments: the SYN-ACK's 65,160.
        assert_eq!(w.rcv_ssthresh(), 65_160);
        assert_eq!(w.window_clamp(), 65_536);
    }

    /// `tcp_select_window` after ten segments in order (the clamp 80,896 and rcv_ssthresh with
    /// it, as the next test shows), with out-of-order data held: the window is
    /// `min(clamp − held, rcv_ssthresh)`, its right edge never moves left, below half the full
    /// window (40,448) the quick-ACK budget is cleared, and below a sixteenth (5,056) the
    /// window is zero.
    #[test]
    fn the_advertised_window_is_the_free_space_and_never_shrinks() {
        let mut w = RcvWindow::new(RcvWindowConfig { advmss: MSS, scaling_ratio: TESTBED_SCALING_RATIO });
        for k in 0..10 {
            w.on_data(ms(100 + k), MSS, MSS, 0);
        }
        assert_eq!((w.window_clamp(), w.rcv_ssthresh()), (80_896, 80_896));
        let rcv_nxt = 10 * MSS;
        assert_eq!(w.advertise(rcv_nxt, 0), 80_896, "nothing held: rcv_ssthresh");
        assert_eq!(w.advertise(rcv_nxt, 20 * MSS), 80_896, "80,896 − 28,960 = 51,936 would move the right edge (95,376) left");
        assert_eq!(w.advertise(rcv_nxt + 30 * MSS, 20 * MSS), 51_936, "30 segments on, the edge allows the free space");
        w.on_duplicate();
        assert!(w.quick());
        assert_eq!(w.advertise(rcv_nxt + 30 * MSS, 40 * MSS), 51_936, "free 22,976, but the edge stays");
        assert!(!w.quick(), "free space under half the full window clears the budget");
        assert_eq!(w.advertise(200_000, 77_000), 0, "free 3,896, under a sixteenth: a zero window");
    }

    #[test]
    fn the_first_segments_grow_the_window_to_the_measured_ratio_of_the_buffer_and_keep_the_budget() {
        let mut w = RcvWindow::new(RcvWindowConfig { advmss: MSS, scaling_ratio: TESTBED_SCALING_RATIO });
        let mut quick = 0;
        for k in 0..10 {
            w.on_data(ms(100 + k), MSS, MSS, 0);
            quick += w.quick() as u32;
            w.on_ack_sent();
        }
        // The clamp is 131,072·158/256 = 80,896; 65,160 + 2·1448 per segment reaches it at the
        // sixth segment. Meanwhile the budget of min(65,160/2896, 16) = 16 goes back to 16
        // after each ACK (each growth sets its low bit: 17), then four ACKs spend four.
        assert_eq!(w.window_clamp(), 80_896);
        assert_eq!(w.rcv_ssthresh(), 80_896);
        assert_eq!(quick, 10);
        assert_eq!(w.quick, 12);
    }

    #[test]
    fn with_the_window_at_its_clamp_the_budget_drains_one_an_ack() {
        let mut w = RcvWindow::new(RcvWindowConfig { advmss: MSS, scaling_ratio: TESTBED_SCALING_RATIO });
        let mut quick_acks = 0;
        for k in 0..40 {
            w.on_data(ms(100 + k), MSS, MSS, 0);
            if w.quick() {
                quick_acks += 1;
                w.on_ack_sent();
            }
        }
        // No RTT sample, so no DRS: 10 + 12 quick ACKs, then none; the kernel's receiver ACKed
        // segments 1-22 one by one, then every second one.
        assert_eq!(quick_acks, 22);
        assert!(!w.quick());
    }

    #[test]
    fn drs_grows_the_buffer_by_twice_the_rounds_data_plus_the_slow_start_term() {
        let mut w = RcvWindow::new(RcvWindowConfig { advmss: MSS, scaling_ratio: TESTBED_SCALING_RATIO });
        w.on_timestamp(ms(60), MSS, Some(ms(1)));
        assert_eq!(w.rtt, Some(ms(59)));
        // Round 1: 10 segments at t = 60 ms (the measure starts with the first).
        for _ in 0..10 {
            w.on_data(ms(60), MSS, MSS, 0);
        }
        // Round 2, 60 ms later: the first segment ends the measure with 11 segments read,
        // more than space = 10·1448: rcvwin = 2·15,928 + 2·⌊31,856·1448/14,480⌋ = 38,226,
        // whose buffer (⌊38,226·256/158⌋ = 61,935) is below the default: nothing changes.
        w.on_data(ms(121), MSS, MSS, 0);
        assert_eq!(w.space, 11 * MSS);
        assert_eq!(w.window_clamp(), 80_896);
        for _ in 0..19 {
            w.on_data(ms(122), MSS, MSS, 0);
        }
        // Round 3: 20 read since (28,960 > 15,928): rcvwin = 57,920 + 2·⌊57,920·13,032/15,928⌋
        // = 152,698; buffer ⌊152,698·256/158⌋ = 247,409; clamp ⌊247,409·158/256⌋ = 152,697 (the
        // kernel's window stopped at 151,552 in its third round).
        w.on_data(ms(182), MSS, MSS, 0);
        assert_eq!(w.space, 20 * MSS);
        assert_eq!(w.window_clamp(), 152_697);
        assert!(w.quick());
    }

    #[test]
    fn a_duplicate_refills_the_budget_to_sixteen() {
        let mut w = RcvWindow::new(RcvWindowConfig { advmss: MSS, scaling_ratio: TESTBED_SCALING_RATIO });
        w.on_data(ms(1), MSS, MSS, 0);
        while w.quick() {
            w.on_ack_sent();
        }
        w.on_duplicate();
        assert_eq!(w.quick, MAX_QUICKACKS);
    }

    #[test]
    fn the_receivers_rtt_latches_a_smaller_sample_smooths_a_larger_one_and_ignores_a_repeated_echo() {
        let mut w = RcvWindow::new(RcvWindowConfig { advmss: MSS, scaling_ratio: TESTBED_SCALING_RATIO });
        w.on_timestamp(ms(100), MSS, Some(ms(20)));
        w.on_timestamp(ms(120), MSS, Some(ms(20)));
        assert_eq!(w.rtt, Some(ms(80)));
        w.on_timestamp(ms(200), MSS, Some(ms(40)));
        assert_eq!(w.rtt, Some(ms(90)));
        // A short segment gives no sample; a smaller sample is taken whole.
        w.on_timestamp(ms(300), 100, Some(ms(50)));
        assert_eq!(w.rtt, Some(ms(90)));
        w.on_timestamp(ms(300), MSS, Some(ms(250)));
        assert_eq!(w.rtt, Some(ms(50)));
        // Whole milliseconds: 59.9 ms after a tick is 59 ms (50·7/8 + 59/8 = 51.125); 0.5 ms,
        // in the same tick, counts as 1 ms.
        w.on_timestamp(Time::from_micros(359_900), MSS, Some(ms(300)));
        assert_eq!(w.rtt, Some(Time::from_micros(51_125)));
        w.on_timestamp(Time::from_micros(400_500), MSS, Some(ms(400)));
        assert_eq!(w.rtt, Some(ms(1)));
    }

    #[test]
    fn without_echoes_the_rtt_is_the_least_time_to_receive_a_window() {
        let mut w = RcvWindow::new(RcvWindowConfig { advmss: MSS, scaling_ratio: TESTBED_SCALING_RATIO });
        // One segment every 0.1 ms: the first marks 1448 + 65,160 bytes (46 segments), reached
        // by the 46th, 4.5 ms later.
        for k in 0..46 {
            w.on_data(Time::from_micros(100 * k), MSS, MSS, 0);
        }
        assert_eq!(w.rtt, Some(Time::from_micros(4_500)));
        // A slower window later is ignored.
        for k in 0..200 {
            w.on_data(ms(10 + k), MSS, MSS, 0);
        }
        assert_eq!(w.rtt, Some(Time::from_micros(4_500)));
    }
}
