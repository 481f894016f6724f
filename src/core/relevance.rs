//! Scoring segments against a task: BM25 over the task's terms, with the paragraph,
//! the section and the neighbours of each segment counted, and links followed (a
//! section whose heading is named in relevant text becomes relevant too).

use rustc_hash::FxHashMap;

use crate::core::segment::{Kind, Segment};
use crate::core::terms::{forms, words, Terms};

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// How much each signal contributes to a segment's score (each normalized to 0..1).
const W_SEGMENT: f32 = 0.3;
const W_BLOCK: f32 = 1.0;
const W_SECTION: f32 = 1.0;
const W_NEIGHBOUR: f32 = 0.15;
/// The first sentence of a paragraph introduces what the rest refers back to ("It was
/// dissolved in 2010"): it shares this much of its paragraph's relevance.
const W_LEAD: f32 = 0.2;
/// A section linked from relevant text counts as this share of the linking block's relevance.
const LINK_FACTOR: f32 = 0.8;
/// Blocks at least this relevant (relative to the best) are searched for links.
const LINK_SOURCE: f32 = 0.5;
/// A section that names a relevant section's title counts as this share of its relevance.
const BACKLINK_FACTOR: f32 = 0.5;

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
  // Headings are blocks of their own; their relevance counts as the section's, not as a
  // paragraph's (a short title that matches would dwarf every paragraph).
  let mut is_heading_block = vec![false; blocks];
  for s in segments.iter().filter(|s| is_section_start(s.kind)) {
    is_heading_block[s.block] = true;
  }
  let max_block = (0..blocks)
    .filter(|&b| !is_heading_block[b])
    .map(|b| block_score[b])
    .fold(0.0, f32::max);
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
    .filter(|(_, s)| is_section_start(s.kind))
    .map(|(i, _)| own[i])
    .fold(0.0, f32::max);
  // The task names sections too ("Between Harvey Pekar and Denise Levertov …"): it is
  // a link source as relevant as the best block.
  let task_source = (None, 1.0 / LINK_FACTOR, query.text.clone());
  let sources: Vec<(Option<usize>, f32, String)> = std::iter::once(task_source)
    .chain(
      (0..blocks)
        .filter(|&b| {
          !is_heading_block[b]
            && block_span[b].0 < block_span[b].1
            && norm(block_score[b], max_block) >= LINK_SOURCE
        })
        .map(|b| {
          let (first, end) = block_span[b];
          let body = text[segments[first].start..segments[end - 1].end].to_lowercase();
          (segments[first].heading, norm(block_score[b], max_block), body)
        }),
    )
    .collect();
  let titles: Vec<(usize, String)> = segments
    .iter()
    .enumerate()
    .filter(|(_, s)| s.kind == Kind::Heading)
    .map(|(h, s)| (h, heading_title(&text[s.start..s.end])))
    .filter(|(_, t)| t.chars().filter(|c| c.is_alphanumeric()).count() >= 4)
    .collect();
  for (h, s) in segments
    .iter()
    .enumerate()
    .filter(|(_, s)| is_section_start(s.kind))
  {
    section[h] = norm(own[h], max_heading.max(max_own * 0.5)).min(1.0);
  }
  for (h, title) in &titles {
    for (linking_section, relevance, body) in &sources {
      if *linking_section != Some(*h) && names(body, title) {
        section[*h] = section[*h].max((LINK_FACTOR * relevance).min(1.0));
      }
    }
  }
  // Links back: a section whose text names the title of a relevant section is likely
  // the next step of the chain ("… near Mark Twain Lake" for "Mark Twain").
  let relevant_titles: Vec<(usize, &String, f32)> = titles
    .iter()
    .filter(|(h, _)| section[*h] >= LINK_SOURCE)
    .map(|(h, t)| (*h, t, section[*h]))
    .collect();
  if !relevant_titles.is_empty() {
    let mut backlink = vec![0f32; segments.len()];
    for b in (0..blocks).filter(|&b| !is_heading_block[b] && block_span[b].0 < block_span[b].1) {
      let (first, end) = block_span[b];
      let Some(g) = segments[first].heading else {
        continue;
      };
      if segments[g].kind != Kind::Heading {
        continue;
      }
      let body = text[segments[first].start..segments[end - 1].end].to_lowercase();
      for &(h, title, relevance) in &relevant_titles {
        if h != g && names(&body, title) {
          backlink[g] = backlink[g].max(BACKLINK_FACTOR * relevance);
        }
      }
    }
    for (s, b) in section.iter_mut().zip(backlink) {
      *s = s.max(b);
    }
  }

  (0..segments.len())
    .map(|i| {
      let s = &segments[i];
      if is_section_start(s.kind) {
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
      let block = norm(block_score[s.block], max_block);
      let lead = if block_span[s.block].0 == i && s.kind == Kind::Text {
        W_LEAD * block
      } else {
        0.0
      };
      W_SEGMENT * norm(own[i], max_own) + W_BLOCK * block + W_SECTION * sec + W_NEIGHBOUR * neighbour + lead
    })
    .collect()
}

fn is_section_start(kind: Kind) -> bool {
  matches!(kind, Kind::Heading | Kind::Role)
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

/// Whether `body` names `title` as whole words.
fn names(body: &str, title: &str) -> bool {
  let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
  body.match_indices(title).any(|(at, _)| {
    boundary(body[..at].chars().next_back()) && boundary(body[at + title.len()..].chars().next())
  })
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
