//! The task's phrases found whole in the text.

use rustc_hash::FxHashMap;

use super::bm25::PHRASE;
use super::postings::Trigrams;
use super::weights::ONE_BY_ONE;
use crate::core::segment::Segment;
use crate::core::terms::Terms;

/// Per query, per segment, what its phrases add: a phrase found in a segment counts like
/// a rare term matched once, times its weight. The phrases of all queries are sought in
/// one pass over the whole (case-folded) text, and each find is given to the segment it
/// lies in.
pub fn phrase_bonuses(
  folded: &str,
  segments: &[Segment],
  trigrams: Option<&Trigrams>,
  queries: &[&Terms],
) -> Vec<Vec<f32>> {
  let mut patterns: Vec<&str> = Vec::new();
  let mut pattern_of: FxHashMap<&str, usize> = FxHashMap::default();
  for q in queries {
    for (p, _) in &q.phrases {
      pattern_of.entry(p.as_str()).or_insert_with(|| {
        patterns.push(p.as_str());
        patterns.len() - 1
      });
    }
  }
  // The segments that hold each pattern, ascending (an empty phrase is in every one).
  let mut holders: Vec<Vec<u32>> = patterns
    .iter()
    .map(|p| {
      if p.is_empty() {
        (0..segments.len() as u32).collect()
      } else {
        Vec::new()
      }
    })
    .collect();
  let mut searched: Vec<&str> = patterns.iter().copied().filter(|p| !p.is_empty()).collect();
  // With the trigrams of a prepared thread, a phrase is sought only where it can be.
  if let Some(trigrams) = trigrams {
    searched.retain(|p| {
      if p.len() < 3 {
        return true;
      }
      holders[pattern_of[p]] = trigrams.holders(folded.as_bytes(), segments, p.as_bytes());
      false
    });
  }
  let mut record = |pattern: usize, start: usize, end: usize| {
    let k = segments.partition_point(|s| s.start <= start);
    if k > 0 && end <= segments[k - 1].end {
      let list = &mut holders[pattern];
      // Finds of one pattern come in text order.
      if list.last() != Some(&(k as u32 - 1)) {
        list.push(k as u32 - 1);
      }
    }
  };
  let index_of: Vec<usize> = searched.iter().map(|p| pattern_of[p]).collect();
  // Many phrases (sibling tasks bring theirs) are sought in one pass; a few, one by one
  // with a vectorized search, which is faster for them.
  let automaton = (searched.len() > ONE_BY_ONE)
    .then(|| aho_corasick::AhoCorasick::new(&searched).ok())
    .flatten();
  match automaton {
    Some(finder) => {
      for m in finder.find_overlapping_iter(folded) {
        record(index_of[m.pattern().as_usize()], m.start(), m.end());
      }
    }
    // (Also phrases too large for one automaton.)
    None => {
      for (i, p) in searched.iter().enumerate() {
        let finder = memchr::memmem::Finder::new(p.as_bytes());
        let mut from = 0;
        while let Some(found) = finder.find(&folded.as_bytes()[from..]) {
          record(index_of[i], from + found, from + found + p.len());
          from += found + 1;
        }
      }
    }
  }
  queries
    .iter()
    .map(|q| {
      let mut bonus = vec![0f32; segments.len()];
      for (p, weight) in &q.phrases {
        for &k in &holders[pattern_of[p.as_str()]] {
          bonus[k as usize] += weight * PHRASE;
        }
      }
      bonus
    })
    .collect()
}
