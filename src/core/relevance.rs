//! Scoring segments against a task: BM25 over the task's terms, with the paragraph,
//! the section and the neighbours of each segment counted, and links followed (a
//! section whose heading is named in relevant text becomes relevant too).

use rustc_hash::FxHashMap;

use crate::core::segment::{Kind, Segment};
use crate::core::terms::{forms, words, Terms};

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// How much each signal contributes to a segment's score (each normalized to 0..1).
const W_SEGMENT: f32 = 0.45;
const W_BLOCK: f32 = 0.35;
const W_SECTION: f32 = 0.25;
const W_NEIGHBOUR: f32 = 0.15;
/// A section linked from relevant text counts as this share of the linking block's relevance.
const LINK_FACTOR: f32 = 0.8;
/// Blocks at least this relevant (relative to the best) are searched for links.
const LINK_SOURCE: f32 = 0.5;

/// Term statistics of the segments of one text, for a fixed vocabulary (the terms of
/// the task and its siblings): only those terms are counted, which keeps indexing
/// cheap on huge threads.
pub struct Index {
  vocabulary: FxHashMap<String, usize>,
  /// Per segment: (term, frequency) for the vocabulary terms it contains.
  tf: Vec<Vec<(usize, u32)>>,
  /// Per segment: number of words.
  len: Vec<u32>,
  /// Per term: number of segments containing it.
  df: Vec<u32>,
  /// Per segment: its case-folded text, kept only when phrases must be matched.
  folded: Vec<String>,
  avg_len: f32,
}

impl Index {
  pub fn build(text: &str, segments: &[Segment], queries: &[&Terms]) -> Self {
    let mut vocabulary: FxHashMap<String, usize> = FxHashMap::default();
    for q in queries {
      for t in q.weights.keys() {
        let n = vocabulary.len();
        vocabulary.entry(t.clone()).or_insert(n);
      }
    }
    let need_phrases = queries.iter().any(|q| !q.phrases.is_empty());
    let mut tf = Vec::with_capacity(segments.len());
    let mut len = Vec::with_capacity(segments.len());
    let mut df = vec![0u32; vocabulary.len()];
    let mut folded = Vec::new();
    let mut counts: FxHashMap<usize, u32> = FxHashMap::default();
    for s in segments {
      let body = &text[s.start..s.end];
      counts.clear();
      let mut n = 0u32;
      for word in words(body) {
        n += 1;
        for form in forms(word) {
          if let Some(&id) = vocabulary.get(&form) {
            *counts.entry(id).or_insert(0) += 1;
          }
        }
      }
      let mut terms: Vec<(usize, u32)> = counts.iter().map(|(&t, &c)| (t, c)).collect();
      terms.sort_unstable();
      for &(t, _) in &terms {
        df[t] += 1;
      }
      tf.push(terms);
      len.push(n);
      if need_phrases {
        folded.push(body.to_lowercase());
      }
    }
    let avg_len = (len.iter().map(|&l| l as f64).sum::<f64>() / len.len().max(1) as f64).max(1.0) as f32;
    Self {
      vocabulary,
      tf,
      len,
      df,
      folded,
      avg_len,
    }
  }

  fn idf(&self, term: usize) -> f32 {
    let n = self.tf.len() as f32;
    let df = self.df[term] as f32;
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
  }

  /// BM25 of a bag of (term, frequency) of `len` words against `query`.
  fn bm25(&self, terms: &[(usize, u32)], len: u32, weights: &[f32]) -> f32 {
    let norm = K1 * (1.0 - B + B * len as f32 / self.avg_len);
    terms
      .iter()
      .map(|&(t, f)| {
        let f = f as f32;
        weights[t] * self.idf(t) * f * (K1 + 1.0) / (f + norm)
      })
      .sum()
  }

  /// Per-term weights of `query` in this index's vocabulary order.
  fn weights(&self, query: &Terms) -> Vec<f32> {
    let mut w = vec![0.0; self.vocabulary.len()];
    for (t, &weight) in &query.weights {
      if let Some(&id) = self.vocabulary.get(t) {
        w[id] = weight;
      }
    }
    w
  }

  /// The query's terms present in the text, strongest first (weight × idf).
  pub fn keywords(&self, query: &Terms) -> Vec<String> {
    let mut present: Vec<(f32, &String)> = query
      .weights
      .iter()
      .filter_map(|(t, &w)| {
        self
          .vocabulary
          .get(t)
          .filter(|&&id| self.df[id] > 0)
          .map(|&id| (w * self.idf(id), t))
      })
      .collect();
    present.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    present.into_iter().map(|(_, t)| t.clone()).collect()
  }
}

/// Relevance of every segment to one query, on a 0..~1.4 scale where 0 means unrelated.
pub fn score(text: &str, segments: &[Segment], index: &Index, query: &Terms) -> Vec<f32> {
  let weights = index.weights(query);
  // Phrases count like a rare term matched once, times their weight.
  let phrase_bonus = |i: usize| -> f32 {
    if index.folded.is_empty() {
      return 0.0;
    }
    query
      .phrases
      .iter()
      .filter(|(p, _)| index.folded[i].contains(p.as_str()))
      .map(|(_, w)| w * 2.0)
      .sum()
  };
  let own: Vec<f32> = (0..segments.len())
    .map(|i| index.bm25(&index.tf[i], index.len[i], &weights) + phrase_bonus(i))
    .collect();

  // Blocks: the segments of one paragraph, item or code block taken together.
  let blocks = segments.last().map_or(0, |s| s.block + 1);
  let mut block_tf: Vec<FxHashMap<usize, u32>> = vec![FxHashMap::default(); blocks];
  let mut block_len = vec![0u32; blocks];
  let mut block_phrase = vec![0f32; blocks];
  for (i, s) in segments.iter().enumerate() {
    for &(t, f) in &index.tf[i] {
      *block_tf[s.block].entry(t).or_insert(0) += f;
    }
    block_len[s.block] += index.len[i];
    block_phrase[s.block] = block_phrase[s.block].max(phrase_bonus(i));
  }
  let block_score: Vec<f32> = (0..blocks)
    .map(|b| {
      let mut terms: Vec<(usize, u32)> = block_tf[b].iter().map(|(&t, &f)| (t, f)).collect();
      terms.sort_unstable();
      index.bm25(&terms, block_len[b], &weights) + block_phrase[b]
    })
    .collect();

  let max_own = max(&own);
  let max_block = max(&block_score);
  let norm = |v: f32, m: f32| if m > 0.0 { v / m } else { 0.0 };

  // Sections: a heading's own relevance, or a link to it from relevant text elsewhere.
  // The segments of a block are contiguous: remember where each block starts and ends.
  let mut block_span = vec![(usize::MAX, 0usize); blocks];
  for (i, seg) in segments.iter().enumerate() {
    let span = &mut block_span[seg.block];
    span.0 = span.0.min(i);
    span.1 = i + 1;
  }
  let mut section = vec![0f32; segments.len()];
  let max_heading = segments
    .iter()
    .enumerate()
    .filter(|(_, s)| s.kind == Kind::Heading)
    .map(|(i, _)| own[i])
    .fold(0.0, f32::max);
  let sources: Vec<(Option<usize>, f32, String)> = (0..blocks)
    .filter(|&b| block_span[b].0 < block_span[b].1 && norm(block_score[b], max_block) >= LINK_SOURCE)
    .map(|b| {
      let (first, end) = block_span[b];
      let body = text[segments[first].start..segments[end - 1].end].to_lowercase();
      (segments[first].heading, norm(block_score[b], max_block), body)
    })
    .collect();
  for (h, s) in segments
    .iter()
    .enumerate()
    .filter(|(_, s)| s.kind == Kind::Heading)
  {
    let mut value = norm(own[h], max_heading.max(max_own * 0.5));
    let title = heading_title(&text[s.start..s.end]);
    if title.chars().filter(|c| c.is_alphanumeric()).count() >= 4 {
      for (linking_section, relevance, body) in &sources {
        if *linking_section != Some(h) && body.contains(title.as_str()) {
          value = value.max(LINK_FACTOR * relevance);
        }
      }
    }
    section[h] = value.min(1.0);
  }

  (0..segments.len())
    .map(|i| {
      let s = &segments[i];
      if s.kind == Kind::Heading {
        return W_SEGMENT * norm(own[i], max_own) + (W_BLOCK + W_SECTION) * section[i];
      }
      let neighbour = [i.checked_sub(1), Some(i + 1)]
        .into_iter()
        .flatten()
        .filter(|&j| j < segments.len() && segments[j].block == s.block)
        .map(|j| norm(own[j], max_own))
        .fold(0.0, f32::max);
      let sec = s.heading.map_or(0.0, |h| section[h]);
      let relevant = own[i] > 0.0 || block_score[s.block] > 0.0 || sec > 0.0;
      if !relevant {
        return 0.0;
      }
      W_SEGMENT * norm(own[i], max_own)
        + W_BLOCK * norm(block_score[s.block], max_block)
        + W_SECTION * sec
        + W_NEIGHBOUR * neighbour
    })
    .collect()
}

/// A heading's title, case-folded: without `#` marks and a trailing "(…)" qualifier.
fn heading_title(heading: &str) -> String {
  let t = heading.trim_start_matches('#').trim();
  let t = match t.rfind(" (") {
    Some(i) if t.ends_with(')') => &t[..i],
    _ => t,
  };
  t.to_lowercase()
}

fn max(v: &[f32]) -> f32 {
  v.iter().copied().fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::core::segment::{segment, Granularity};

  fn scores(text: &str, task: &str) -> Vec<(String, f32)> {
    let mut segs = Vec::new();
    segment(text, 0, 0, Granularity::Sentence, &mut segs, 0);
    let terms = Terms::of_task(task);
    let index = Index::build(text, &segs, &[&terms]);
    let s = score(text, &segs, &index, &terms);
    segs
      .iter()
      .zip(s)
      .map(|(g, v)| (text[g.start..g.end].to_owned(), v))
      .collect()
  }

  #[test]
  fn matching_text_outscores_unrelated_text() {
    let s = scores(
      "The rate limiter leaks memory.\n\nThe README lists routes.\n\nCats sleep a lot.",
      "fix the rate limiter memory leak",
    );
    assert!(s[0].1 > s[1].1);
    assert_eq!(s[2].1, 0.0);
  }

  #[test]
  fn a_section_named_in_relevant_text_is_followed() {
    let text = "## Ed Wood (film)\n\nEd Wood is a film directed by Tim Burton.\n\n## Tim Burton\n\nTim Burton was born in Burbank.\n\n## Cats\n\nCats sleep.";
    let s = scores(text, "Where was the director of the film Ed Wood born?");
    let burbank = s.iter().find(|x| x.0.contains("Burbank")).unwrap().1;
    let cats = s.iter().find(|x| x.0 == "Cats sleep.").unwrap().1;
    assert!(burbank > 0.3, "{s:?}");
    assert!(burbank > cats);
  }
}
