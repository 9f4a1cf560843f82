//! The sender core and receiver over a lossy loopback path, driven event by event.
//! Checks the scoreboard against the truth the harness knows.

use cc::transport::{Ack, Receiver, ReceiverConfig, SenderConfig, SenderCore};
use cc::rng::{CcRng, Rng};
use cc::{component_rng, CcConfig, CongestionControl, Time};
use std::collections::{BTreeSet, VecDeque};

/// A fixed one-way delay each way, no queue, drops chosen by the caller.
pub struct Loopback {
    pub now: Time,
    pub sender: SenderCore,
    pub receiver: Receiver,
    pub delay: Time,
    /// (arrival time, seq, send time) of data in flight.
    pub data: VecDeque<(Time, u64, Time)>,
    acks: VecDeque<(Time, Ack)>,
    pub drop_next: BTreeSet<u64>,
    link_free: Time,
    pub drop_prob: f64,
    pub rng: CcRng,
    pub sent_log: Vec<(u64, bool)>,
    pub received: BTreeSet<u64>,
}

impl Loopback {
    pub fn new(cc: &str, sack: bool) -> Loopback {
        let cfg = SenderConfig { mss: 1000, sack, ..SenderConfig::default() };
        Loopback {
            now: Time::ZERO,
            sender: SenderCore::new(cfg, &CcConfig::from_name(cc).unwrap(), component_rng(1, 1)),
            receiver: Receiver::new(ReceiverConfig { sack, ..ReceiverConfig::default() }),
            delay: Time::from_millis(50),
            data: VecDeque::new(),
            acks: VecDeque::new(),
            drop_next: BTreeSet::new(),
            link_free: Time::ZERO,
            drop_prob: 0.0,
            rng: component_rng(9, 9),
            sent_log: vec![],
            received: BTreeSet::new(),
        }
    }

    fn send_all(&mut self) {
        while let Some(tx) = self.sender.poll_transmit(self.now) {
            self.sent_log.push((tx.seq, tx.is_retransmission));
            let random_drop = self.drop_prob > 0.0 && self.rng.random::<f64>() < self.drop_prob;
            if !self.drop_next.remove(&tx.seq) && !random_drop {
                // Serialise at 1 ms per packet so arrivals are spread out.
                self.link_free = self.link_free.max(self.now) + Time::from_millis(1);
                self.data.push_back((self.link_free + self.delay, tx.seq, self.now));
            } else {
                self.link_free = self.link_free.max(self.now) + Time::from_millis(1);
            }
        }
    }

    /// Advances to the next event. Returns false when nothing is left to do.
    pub fn step(&mut self) -> bool {
        self.send_all();
        let next_data = self.data.front().map(|&(t, _, _)| t);
        let next_ack = self.acks.front().map(|&(t, _)| t);
        let next_timer = self.sender.next_timer();
        let t = [next_data, next_ack, next_timer].into_iter().flatten().min();
        let Some(t) = t else { return false };
        self.now = t;
        if next_data == Some(t) {
            let (_, seq, sent) = self.data.pop_front().unwrap();
            self.received.insert(seq);
            if let Some(ack) = self.receiver.on_segment(t, seq, sent, false) {
                self.acks.push_back((t + self.delay, ack));
            }
        } else if next_ack == Some(t) {
            let (_, ack) = self.acks.pop_front().unwrap();
            self.sender.on_ack(t, &ack);
        } else {
            self.sender.on_timer(t);
        }
        self.sender.check_invariants().unwrap();
        true
    }

    /// Segments sent and not yet received or dropped: what is really in the network.
    pub fn truly_in_flight(&self) -> u64 {
        self.data.len() as u64
    }
}

#[test]
fn newreno_without_sack_recovers_two_losses_in_one_window_with_two_retransmissions() {
    for (cc, sack) in [("newreno", false), ("newreno", true), ("reno", true)] {
        let mut l = Loopback::new(cc, sack);
        l.drop_next.extend([30, 34]);
        while l.now < Time::from_secs(3) && l.step() {
            let cwnd = l.sender.controller().control().cwnd.unwrap() / 1000;
            if std::env::var("TRACE").is_ok() { eprintln!("{:?} una={} nxt={} pipe={} truth={} sacked={} lost={} retx={} cwnd={cwnd} st={:?}", l.now, l.sender.snd_una(), l.sender.snd_nxt(), l.sender.in_flight(), l.truly_in_flight(), l.sender.sacked_out(), l.sender.lost_out(), l.sender.retrans_out(), l.sender.recovery_state()); }
            // The pipe estimate lags the truth (ACKs in flight, losses not yet detected), so it
            // may overestimate what is in the network, never underestimate it.
            assert!(l.truly_in_flight() <= l.sender.in_flight(), "{cc} sack={sack}: {} in flight, pipe {}, cwnd {cwnd}", l.truly_in_flight(), l.sender.in_flight());
        }
        let retx: Vec<u64> = l.sent_log.iter().filter(|s| s.1).map(|s| s.0).collect();
        assert_eq!(retx, vec![30, 34], "{cc} sack={sack}");
        assert_eq!(l.sender.stats().timeouts, 0);
        assert_eq!(l.sender.stats().loss_episodes, 1, "{cc} sack={sack}");
    }
}

/// Runs one randomised loopback and checks, after every event: the scoreboard's counters
/// agree with its records (`check_invariants`), the window stays within [1 MSS, cap], and the
/// pipe estimate never undercounts what is really in the network (with SACK and outside RTO
/// recovery; without SACK, duplicate ACKs from spurious retransmissions cannot be told apart,
/// as in Linux, so only the trivial bound holds). The transfer must keep making progress.
fn check_random_run(cc: &str, sack: bool, drop_prob: f64, delay_ms: u64, seed: u64) {
    let mut l = Loopback::new(cc, sack);
    l.drop_prob = drop_prob;
    l.delay = Time::from_millis(delay_ms);
    l.rng = component_rng(seed, 3);
    if cc == "none" {
        l.sender = SenderCore::new(
            SenderConfig { mss: 1000, sack, rwnd: 50_000, ..SenderConfig::default() },
            &CcConfig::from_name(cc).unwrap(),
            component_rng(1, 1),
        );
    }
    while l.now < Time::from_secs(20) && l.step() {
        let s = &l.sender;
        // Go-back-N after an RTO re-sends segments the receiver may hold; copies of segments
        // already acknowledged are not the sender's concern any more.
        let truth = l.data.iter().filter(|&&(_, seq, _)| seq >= s.snd_una()).count() as u64;
        // After an RTO every un-SACKed segment counts as lost (RFC 6675 §5.1, Linux
        // tcp_enter_loss), even those still on their way: the pipe is then a lower bound.
        let exact = sack && s.recovery_state() != cc::transport::sender::RecoveryState::Loss;
        let bound = if exact { s.in_flight() } else { s.packets_out() + s.retrans_out() };
        assert!(truth <= bound, "{cc} sack={sack} at {:?}: {truth} in flight, pipe {}", l.now, s.in_flight());
        if let Some(cwnd) = s.controller().control().cwnd {
            assert!((1000..=1 << 40).contains(&cwnd), "{cc}: cwnd {cwnd}");
        }
    }
    // Padhye et al.'s model gives over 100 segments in 20 s even at 10 % loss and 400 ms RTT
    // with timeouts; ask for a fifth of that.
    assert!(l.sender.snd_una() > 20, "{cc} sack={sack} p={drop_prob}: stuck at {}", l.sender.snd_una());
}

#[test]
fn scoreboard_holds_under_random_loss_for_every_algorithm() {
    for cc in cc::algorithm_names() {
        for sack in [true, false] {
            check_random_run(cc, sack, 0.02, 50, 1);
        }
    }
}

proptest::proptest! {
    // A fixed seed keeps CI reproducible; failures found once are replayed from the
    // regressions file next to this test.
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 48,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0xCC1AB),
        ..proptest::prelude::ProptestConfig::default()
    })]
    #[test]
    fn scoreboard_holds_for_random_paths(
        algo in 0usize..4, sack: bool, drop_prob in 0.0f64..0.1, delay_ms in 1u64..200, seed: u64,
    ) {
        check_random_run(cc::algorithm_names()[algo], sack, drop_prob, delay_ms, seed);
    }
}


