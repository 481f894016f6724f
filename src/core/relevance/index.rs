//! The term statistics of one text's segments for a fixed vocabulary: the terms of a
//! task and its siblings.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::bm25;
use super::weights::KNOWN_WORDS;
use crate::core::segment::{repeats, Segment};
use crate::core::terms::{for_each_form, words, Terms};

/// Term statistics of the segments of one text, for a fixed vocabulary (the terms of
/// the task and its siblings): only those terms are counted, which keeps indexing
/// cheap on huge threads. Built by reading the text (`build`), or from the text's
/// [`Postings`] when it is read for many tasks.
#[derive(Debug, PartialEq)]
pub struct Index {
  pub(super) vocabulary: FxHashMap<String, usize>,
  /// (term, frequency) of the vocabulary terms in each segment, all segments in one
  /// vector: segment `i` owns `tf[tf_start[i]..tf_start[i + 1]]`.
  pub(super) tf: Vec<(usize, u32)>,
  pub(super) tf_start: Vec<usize>,
  /// Per segment: number of words.
  pub(super) len: Vec<u32>,
  /// Per term: number of segments containing it, and its inverse document frequency.
  pub(super) df: Vec<u32>,
  pub(super) idf: Vec<f32>,
  /// The whole text with ASCII letters lower-cased (byte offsets unchanged), for
  /// finding phrases and titles.
  pub(super) folded: Arc<str>,
  pub(super) avg_len: f32,
}

/// Case folding for finding phrases and names in text: ASCII only, so that offsets in
/// the folded text are offsets in the original.
pub fn fold_ascii(text: &str) -> String {
  text.to_ascii_lowercase()
}

/// The terms of `queries`, numbered in the order they are first met.
pub(super) fn vocabulary(queries: &[&Terms]) -> FxHashMap<String, usize> {
  let mut vocabulary: FxHashMap<String, usize> = FxHashMap::default();
  for q in queries {
    for t in q.weights.keys() {
      let n = vocabulary.len();
      vocabulary.entry(t.clone()).or_insert(n);
    }
  }
  vocabulary
}

/// Per term: BM25's inverse document frequency, from its document frequency among `n` segments.
pub(super) fn idfs(df: &[u32], n: usize) -> Vec<f32> {
  let n = n as f32;
  df.iter().map(|&df| bm25::idf(df as f32, n)).collect()
}

pub(super) fn average(len: &[u32]) -> f32 {
  (len.iter().map(|&l| l as f64).sum::<f64>() / len.len().max(1) as f64).max(1.0) as f32
}

impl Index {
  pub fn build(text: &str, segments: &[Segment], queries: &[&Terms]) -> Self {
    Self::build_repeating(
      text,
      fold_ascii(text).into(),
      segments,
      &repeats(text, segments),
      queries,
    )
  }

  /// `build`, with the text already folded (`fold(text)`) and `segment::repeats` of the
  /// segments known: a repeated text has the bag of its first copy.
  pub fn build_repeating(
    text: &str,
    folded: Arc<str>,
    segments: &[Segment],
    same: &[u32],
    queries: &[&Terms],
  ) -> Self {
    let vocabulary = vocabulary(queries);
    let mut tf = Vec::new();
    let mut tf_start = Vec::with_capacity(segments.len() + 1);
    let mut len = Vec::with_capacity(segments.len());
    let mut df = vec![0u32; vocabulary.len()];
    let mut counts: FxHashMap<usize, u32> = FxHashMap::default();
    let mut buf = String::new();
    // The vocabulary forms of each distinct word, found once: text uses the same words
    // again and again (on the speed thread, 20,000 distinct of 210,000), and finding a
    // word's forms (case folding, stemming, identifier parts) costs far more than
    // looking it up.
    let mut forms_of: FxHashMap<&str, (usize, usize)> = FxHashMap::default();
    let mut form_ids: Vec<usize> = Vec::new();
    for (i, s) in segments.iter().enumerate() {
      let first = same[i] as usize;
      if first < i {
        tf_start.push(tf.len());
        tf.extend_from_within(tf_start[first]..tf_start[first + 1]);
        for &(t, _) in &tf[tf_start[i]..] {
          df[t] += 1;
        }
        len.push(len[first]);
        continue;
      }
      counts.clear();
      let mut n = 0u32;
      for word in words(&text[s.start..s.end]) {
        n += 1;
        let (a, b) = match forms_of.get(word) {
          Some(&range) => range,
          None => {
            let a = form_ids.len();
            for_each_form(word, &mut buf, |form| {
              if let Some(&id) = vocabulary.get(form) {
                form_ids.push(id);
              }
            });
            if forms_of.len() >= KNOWN_WORDS {
              forms_of.clear();
            }
            forms_of.insert(word, (a, form_ids.len()));
            (a, form_ids.len())
          }
        };
        for &id in &form_ids[a..b] {
          *counts.entry(id).or_insert(0) += 1;
        }
      }
      tf_start.push(tf.len());
      let first = tf.len();
      tf.extend(counts.iter().map(|(&t, &c)| (t, c)));
      tf[first..].sort_unstable();
      for &(t, _) in &tf[first..] {
        df[t] += 1;
      }
      len.push(n);
    }
    tf_start.push(tf.len());
    let avg_len = average(&len);
    Self {
      vocabulary,
      tf,
      tf_start,
      idf: idfs(&df, len.len()),
      len,
      df,
      folded,
      avg_len,
    }
  }
}

impl Index {
  /// The (term, frequency) pairs of segment `i`.
  pub(super) fn terms(&self, i: usize) -> &[(usize, u32)] {
    &self.tf[self.tf_start[i]..self.tf_start[i + 1]]
  }

  pub(super) fn idf(&self, term: usize) -> f32 {
    self.idf[term]
  }

  /// BM25 of a bag of (term, frequency) of `len` words against `query`.
  pub(super) fn bm25(&self, terms: &[(usize, u32)], len: u32, weights: &[f32]) -> f32 {
    let saturation = bm25::saturation(bm25::K1, len, self.avg_len);
    terms
      .iter()
      .map(|&(t, f)| bm25::term(bm25::K1, weights[t], self.idf(t), f, saturation))
      .sum()
  }

  /// Per-term weights of `query` in this index's vocabulary order.
  pub(super) fn weights(&self, query: &Terms) -> Vec<f32> {
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
