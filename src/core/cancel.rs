//! Cooperative cancellation for long computations that run off the JavaScript thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag shared between the caller (who may cancel) and the computation (which polls it
/// between chunks of work and stops early).
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

/// Segments read between two checks of the flag: a segment costs a microsecond or two,
/// so a cancelled computation stops within a few milliseconds, and the atomic load stays
/// out of the hot loop.
pub const SEGMENTS_PER_CHECK: usize = 4096;
/// Messages counted between two checks: a message costs far more than a segment (a tool
/// result can be megabytes), so checks come sixteen times as often.
pub const MESSAGES_PER_CHECK: usize = 256;

/// The computation stopped because it was cancelled.
#[derive(Debug, PartialEq, Eq)]
pub struct Cancelled;

impl Cancel {
  pub fn new() -> Self {
    Self::default()
  }

  pub fn cancel(&self) {
    self.0.store(true, Ordering::Relaxed);
  }

  pub fn is_cancelled(&self) -> bool {
    self.0.load(Ordering::Relaxed)
  }

  /// `Err(Cancelled)` once cancelled, for use with `?` inside loops.
  pub fn check(&self) -> Result<(), Cancelled> {
    if self.is_cancelled() {
      Err(Cancelled)
    } else {
      Ok(())
    }
  }
}
