//! Feedback: a task's vocabulary learned from the segments it clearly owns.

use rustc_hash::{FxHashMap, FxHashSet};

use super::weights::{
  FEEDBACK_FLOOR, FEEDBACK_MIN_LEN, FEEDBACK_MIN_SEGMENTS, FEEDBACK_SEGMENTS, FEEDBACK_TERMS,
};
use crate::core::segment::Segment;
use crate::core::terms::{is_identifier, normalize, words};

/// Ownership from more than the task statement: the identifiers and paths that the
/// segments a task clearly owns (it outscores every other task there) keep returning to,
/// in at least two of them, and that no other task's segments share.
pub fn feedback(
  text: &str,
  segments: &[Segment],
  scores: &[Vec<f32>],
  evidence: &[Vec<f32>],
) -> Vec<Vec<String>> {
  let candidates: Vec<FxHashMap<String, usize>> = (0..scores.len())
    .map(|q| {
      let best = scores[q].iter().copied().fold(0.0, f32::max);
      let mut owned: Vec<usize> = (0..segments.len())
        .filter(|&i| {
          let s = scores[q][i];
          s > 0.0
            && s >= FEEDBACK_FLOOR * best
            && (0..scores.len()).all(|o| o == q || evidence[o][i] < evidence[q][i])
        })
        .collect();
      owned.sort_by(|&a, &b| scores[q][b].total_cmp(&scores[q][a]).then(a.cmp(&b)));
      let mut counts: FxHashMap<String, usize> = FxHashMap::default();
      for &i in owned.iter().take(FEEDBACK_SEGMENTS) {
        let mut seen = FxHashSet::default();
        for word in words(&text[segments[i].start..segments[i].end]) {
          if is_identifier(word) && word.len() >= FEEDBACK_MIN_LEN && seen.insert(normalize(word)) {
            *counts.entry(normalize(word)).or_insert(0) += 1;
          }
        }
      }
      counts.retain(|_, n| *n >= FEEDBACK_MIN_SEGMENTS);
      counts
    })
    .collect();
  (0..scores.len())
    .map(|q| {
      let mut mine: Vec<(&String, &usize)> = candidates[q]
        .iter()
        .filter(|(t, _)| {
          candidates
            .iter()
            .enumerate()
            .all(|(o, c)| o == q || !c.contains_key(*t))
        })
        .collect();
      mine.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
      mine
        .into_iter()
        .take(FEEDBACK_TERMS)
        .map(|(t, _)| t.clone())
        .collect()
    })
    .collect()
}
