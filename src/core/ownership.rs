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

/// Per segment: whether a sibling has more evidence for it than this task, each task's
/// evidence taken relative to its mean over the thread. `evidence[0]` is this task's,
/// `evidence[1..]` the siblings'; every row has one value per segment.
pub fn sibling_claims(evidence: &[Vec<f32>]) -> Vec<bool> {
  sibling_claims_above(evidence, 0.0)
}

/// `sibling_claims`, counting only siblings that find at least `level` times their usual
/// evidence in the segment (1: more than their mean): a strong claim, not a sibling
/// finding a little more of itself than this task in text that is nobody's.
pub fn sibling_claims_above(evidence: &[Vec<f32>], level: f32) -> Vec<bool> {
  let n = evidence.first().map_or(0, Vec::len);
  if evidence.len() < 2 {
    return vec![false; n];
  }
  // The scale of each task: its mean evidence. A task that finds nothing anywhere
  // (scale 0) has no evidence for anything.
  let scale: Vec<f32> = evidence
    .iter()
    .map(|e| e.iter().sum::<f32>() / n.max(1) as f32)
    .collect();
  let relative = |q: usize, i: usize| {
    if scale[q] > 0.0 {
      evidence[q][i] / scale[q]
    } else {
      0.0
    }
  };
  (0..n)
    .map(|i| {
      let own = relative(0, i);
      (1..evidence.len()).any(|q| {
        let r = relative(q, i);
        r > own && r >= level
      })
    })
    .collect()
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
  fn a_strong_claim_is_a_sibling_above_its_usual_evidence() {
    // Segment 0: the sibling beats this task but finds less of itself than usual there;
    // segment 1: it beats this task and stands out.
    let this = vec![0.1, 0.1, 1.0, 0.8];
    let sibling = vec![0.2, 1.0, 0.5, 0.3];
    let scale = 0.5; // the sibling's mean
    assert!(sibling[0] < scale && sibling[1] > scale);
    assert_eq!(
      sibling_claims(&[this.clone(), sibling.clone()]),
      vec![true, true, false, false]
    );
    assert_eq!(
      sibling_claims_above(&[this, sibling], 1.0),
      vec![false, true, false, false]
    );
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
