//! Where the time series goes as the simulation samples it. By default the samples are kept in
//! memory ([`TimeSeries`], returned in the run's result); a long run streams them instead to a
//! [`SampleSink`] (the CLI's CSV files), so that memory stays flat in simulated time.

use crate::results::{FlowSample, LinkSample, TimeSeries};

/// Receives every sample as it is taken: the flows' rows of one instant, then the link's.
pub trait SampleSink {
    fn flow(&mut self, sample: &FlowSample);
    fn link(&mut self, sample: &LinkSample);
    /// The run is over: flush and report the first error (a full disk, say).
    fn finish(self: Box<Self>) -> Result<(), String> {
        Ok(())
    }
}

/// Keeps every sample (the default).
impl SampleSink for TimeSeries {
    fn flow(&mut self, sample: &FlowSample) {
        self.flows.push(sample.clone());
    }
    fn link(&mut self, sample: &LinkSample) {
        self.link.push(sample.clone());
    }
}

/// Discards the samples: a run whose time series nobody reads.
pub struct Discard;

impl SampleSink for Discard {
    fn flow(&mut self, _: &FlowSample) {}
    fn link(&mut self, _: &LinkSample) {}
}
