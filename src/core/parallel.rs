//! Two threads for large inputs: the machines this runs on have at least two cores,
//! and the two halves of the big jobs (counting and scoring, or two halves of a list)
//! need nothing from each other.

/// Inputs at least this large are worked on by two threads.
pub const PARALLEL_BYTES: usize = 256 * 1024;

/// Runs `a` and `b`, on two threads when `parallel`.
pub fn in_parallel<A: Send, B>(
  parallel: bool,
  a: impl FnOnce() -> A + Send,
  b: impl FnOnce() -> B,
) -> (A, B) {
  if !parallel {
    let ra = a();
    return (ra, b());
  }
  std::thread::scope(|scope| {
    let handle = scope.spawn(a);
    let rb = b();
    // A panic on the helper thread is re-raised here, where the binding's guard catches it.
    let ra = handle.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
    (ra, rb)
  })
}
