//! The last-hop router in front of a dead address, the source of ICMP destination unreachables
//! in a sweep of random addresses.
//!
//! - **ARP**: the first packet to an address the router has never resolved starts an ARP
//!   request and is dropped without an answer (Cisco IOS behaviour); later packets, after the
//!   resolution has failed, get a host unreachable at once. nmap's developers saw exactly this
//!   in 2007: the unreachables "come back in response to the second probe only"
//!   (PerformanceGraphs, spec §6).
//! - **Rate limit**: routers limit the ICMP errors they generate with a token bucket (IOS
//!   default `ip icmp rate-limit unreachable 500`: one per 500 ms; Linux `icmp_ratelimit`:
//!   one per second with a burst of 6 per destination).

use cc::Time;

/// `rate` tokens per second, at most `burst`, starting full.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TokenBucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Time,
}

impl TokenBucket {
    pub fn new(rate: f64, burst: f64) -> TokenBucket {
        TokenBucket { rate, burst, tokens: burst, last: Time::ZERO }
    }

    /// Takes one token at `now` (calls in time order); false if the bucket is empty.
    pub fn take(&mut self, now: Time) -> bool {
        self.tokens = (self.tokens + (now - self.last).as_secs_f64() * self.rate).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// An ICMP rate limit: unreachables per second and burst.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct IcmpRateLimit {
    pub per_second: f64,
    pub burst: f64,
}

#[derive(Clone, Debug)]
pub struct LastHopRouter {
    resolved_once: bool,
    limit: Option<TokenBucket>,
}

impl LastHopRouter {
    pub fn new(limit: Option<IcmpRateLimit>, arp_drops_first: bool) -> LastHopRouter {
        LastHopRouter { resolved_once: !arp_drops_first, limit: limit.map(|l| TokenBucket::new(l.per_second, l.burst)) }
    }

    /// A packet for the dead address arrives at `now`: whether the router answers with an
    /// unreachable.
    pub fn answers(&mut self, now: Time) -> bool {
        if !self.resolved_once {
            self.resolved_once = true;
            return false;
        }
        self.limit.as_mut().map_or(true, |b| b.take(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_allows_its_burst_then_its_rate() {
        let mut b = TokenBucket::new(2.0, 1.0);
        assert!(b.take(Time::ZERO));
        assert!(!b.take(Time::from_millis(499)));
        // 499 ms gave 0.998 tokens, 1 ms more reaches 1.
        assert!(b.take(Time::from_millis(500)));
        let mut linux = TokenBucket::new(1.0, 6.0);
        let burst = (0..10).filter(|_| linux.take(Time::from_secs(1))).count();
        assert_eq!(burst, 6);
    }

    #[test]
    fn the_router_swallows_the_first_packet_for_arp_then_answers_within_its_limit() {
        let mut r = LastHopRouter::new(Some(IcmpRateLimit { per_second: 2.0, burst: 1.0 }), true);
        assert!(!r.answers(Time::ZERO), "ARP");
        assert!(r.answers(Time::from_secs(2)));
        assert!(!r.answers(Time::from_millis(2100)), "rate limited");
        assert!(r.answers(Time::from_secs(3)));
        let mut open = LastHopRouter::new(None, false);
        assert!((0..5).all(|_| open.answers(Time::ZERO)));
    }
}
