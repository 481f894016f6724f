//! Whose is a piece of a thread: this task's or a sibling's.
//!
//! Every task's evidence for a segment (`relevance::scores`) is its BM25 over the most
//! its terms could score, so that tasks long and short compare. That is not yet one
//! scale: a short, generic task statement ("query syntax error with distinct") finds a
//! little of itself in almost every segment of a thread about one code base, while a
//! long one, with code and a traceback, spreads its mass over terms most segments lack.
//! Compared raw, the generic task claims the other's work, file views and edits alike.
//! So each task's evidence is read against what that task typically finds in this very
//! thread (its mean over all segments): a segment is a sibling's when the sibling finds
//! more of itself there, by its own measure, than this task does by its own.
//!
//! A thread has structure beyond its segments, and ownership follows it. A tool call and
//! its result are one unit: whose the unit is, is judged on the whole unit (each task's
//! relative evidence summed over its segments), not lost to one line of a file view that
//! happens to match a sibling. And the files an agent acts on are groups too: a file is a
//! task's when, over every call on it, this task finds more of itself than any sibling.
//! And an agent's calls are tied by what they copy: an edit quotes the view its agent
//! took of the file, so the two are judged together (`copies`).

mod anchors;
mod calls;
mod copies;

pub use calls::CallOwnership;

/// Each task's evidence relative to its mean over the thread: `evidence[0]` is this
/// task's, `evidence[1..]` the siblings'; every row has one value per segment.
pub struct Relative<'a> {
  evidence: &'a [Vec<f32>],
  scale: Vec<f32>,
}

impl<'a> Relative<'a> {
  pub fn new(evidence: &'a [Vec<f32>]) -> Self {
    let n = evidence.first().map_or(0, Vec::len);
    // The scale of each task: its mean evidence. A task that finds nothing anywhere
    // (scale 0) has no evidence for anything.
    let scale = evidence
      .iter()
      .map(|e| e.iter().sum::<f32>() / n.max(1) as f32)
      .collect();
    Self { evidence, scale }
  }

  /// How many tasks (this one and its siblings).
  pub fn tasks(&self) -> usize {
    self.evidence.len()
  }

  /// Task `q`'s evidence for segment `i`, in multiples of its mean.
  pub fn at(&self, q: usize, i: usize) -> f32 {
    if self.scale[q] > 0.0 {
      self.evidence[q][i] / self.scale[q]
    } else {
      0.0
    }
  }

  /// Adds each task's relative evidence for segment `i` to `sums` (one per task).
  pub fn add_to(&self, sums: &mut [f32], i: usize) {
    for (q, s) in sums.iter_mut().enumerate() {
      *s += self.at(q, i);
    }
  }
}

/// How close a sibling's relative evidence for a segment may come to this task's before
/// the segment is the sibling's: a near tie says the segment is no more this task's than
/// the sibling's, and this task is one of several. Set on half of the benchmark's agent
/// threads and checked on the other half (see the README).
const NEAR_TIE: f32 = 1.2;

/// Per segment: whether a sibling has more evidence for it than this task, or within a
/// near tie (`NEAR_TIE`), each task's evidence taken relative to its mean over the
/// thread. `evidence[0]` is this task's, `evidence[1..]` the siblings'; every row has
/// one value per segment.
pub fn sibling_claims(evidence: &[Vec<f32>]) -> Vec<bool> {
  let n = evidence.first().map_or(0, Vec::len);
  if evidence.len() < 2 {
    return vec![false; n];
  }
  let relative = Relative::new(evidence);
  (0..n)
    .map(|i| {
      let own = relative.at(0, i);
      (1..evidence.len()).any(|q| relative.at(q, i) * NEAR_TIE > own)
    })
    .collect()
}

/// Adds `from` times `k` to `to`, task by task.
pub(crate) fn add_scaled(to: &mut [f32], from: &[f32], k: f32) {
  for (a, b) in to.iter_mut().zip(from) {
    *a += b * k;
  }
}

/// Whether a group of segments (sums from `Relative::add_to`, this task's first) is a
/// sibling's: some sibling's summed relative evidence exceeds this task's.
pub fn claimed(sums: &[f32]) -> bool {
  sums.iter().skip(1).any(|&s| s > sums[0])
}

/// Whether some sibling's summed relative evidence for a group comes within a near tie
/// (`NEAR_TIE`) of this task's, as a segment's does in `sibling_claims`.
pub fn contested(sums: &[f32]) -> bool {
  sums.iter().skip(1).any(|&s| s * NEAR_TIE > sums[0])
}

/// Whether a group is this task's: it has evidence there and no sibling has more.
pub fn owned(sums: &[f32]) -> bool {
  sums.first().is_some_and(|&s| s > 0.0) && !claimed(sums)
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn without_siblings_nothing_is_claimed() {
    assert_eq!(sibling_claims(&[vec![0.0, 0.3, 1.0]]), vec![false; 3]);
    assert!(sibling_claims(&[]).is_empty());
  }

  #[test]
  fn evidence_is_compared_on_each_task_s_own_scale() {
    // The sibling finds a little of itself everywhere (a generic statement); this task
    // finds itself in two segments and not at all elsewhere. Raw, the sibling would win
    // every segment; but in the first two this task is at twice its usual level and the
    // sibling at its usual one.
    let this = vec![0.03, 0.03, 0.0, 0.0];
    let sibling = vec![0.04, 0.04, 0.04, 0.04];
    assert_eq!(sibling_claims(&[this, sibling]), vec![false, false, true, true]);
  }

  #[test]
  fn a_segment_where_a_sibling_stands_out_more_is_the_sibling_s() {
    let this = vec![0.2, 0.2, 0.2, 0.2];
    let a = vec![0.0, 0.0, 0.0, 0.1];
    let b = vec![0.1, 0.0, 0.0, 0.0];
    assert_eq!(sibling_claims(&[this, a, b]), vec![true, false, false, true]);
  }

  #[test]
  fn a_near_tie_is_the_sibling_s() {
    // Both tasks have the same mean. In segment 0 the sibling finds 0.9 of what this
    // task finds: no more this task's than the sibling's. In segment 1 only half.
    let this = vec![1.0, 1.0, 1.0, 1.0];
    let sibling = vec![0.9, 0.5, 1.3, 1.3];
    assert_eq!(sibling_claims(&[this, sibling]), vec![true, false, true, true]);
  }

  #[test]
  fn a_group_is_judged_on_its_summed_relative_evidence() {
    // A call line and its result (segments 0..3): one line of the result matches the
    // sibling better, but over the unit this task finds far more of itself.
    let this = vec![1.0, 1.0, 0.2, 0.1, 0.1, 0.1];
    let sibling = vec![0.1, 0.2, 0.5, 0.2, 0.2, 0.2];
    let evidence = [this, sibling];
    assert_eq!(
      sibling_claims(&evidence),
      vec![false, false, true, true, true, true]
    );
    let relative = Relative::new(&evidence);
    let mut sums = vec![0.0; relative.tasks()];
    for i in 0..3 {
      relative.add_to(&mut sums, i);
    }
    assert!(owned(&sums) && !claimed(&sums), "{sums:?}");
    // The rest is the sibling's.
    let mut rest = vec![0.0; 2];
    for i in 3..6 {
      relative.add_to(&mut rest, i);
    }
    assert!(claimed(&rest) && !owned(&rest), "{rest:?}");
    // Nothing found is nobody's: not owned, not claimed.
    assert!(!owned(&[0.0, 0.0]) && !claimed(&[0.0, 0.0]));
  }

  #[test]
  fn a_task_that_finds_nothing_claims_nothing() {
    let this = vec![0.1, 0.0];
    let silent = vec![0.0, 0.0];
    assert_eq!(sibling_claims(&[this.clone(), silent]), vec![false, false]);
    // ...and a task that finds nothing itself owns nothing a sibling finds.
    assert_eq!(sibling_claims(&[vec![0.0, 0.0], this]), vec![true, false]);
  }
}
