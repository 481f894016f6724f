//! Ranking whole documents against a query: the subtask ledger's relevance.
//!
//! The same terms as extraction (`terms.rs`: Unicode words, case folding, light
//! stemming, identifiers and paths whole and by parts, strong terms weighing more,
//! phrases found verbatim) and the same BM25 (k1 = 1.2, b = 0.75), over a collection of
//! short documents (completion summaries, artifacts, notes sections) instead of the
//! segments of one text.
//!
//! Unlike extraction, which ranks segments relative to the best one, the ledger must
//! tell "nothing here bears on this task" apart from "something does", and compare
//! scores across collections (summaries against artifacts). So a score is the BM25 of
//! the document over what a plain full match would score in this collection — every
//! query term once and every phrase found, in a document of average length — capped at
//! 1: it lies in 0..1, is 0 when no term is shared, and does not grow with the length
//! of the query.
//!
//! The index is incremental (documents are added one by one as subtasks complete, and
//! removed when replaced) and keeps both directions: postings, to score the whole
//! collection by touching only the documents that share a term with the query, and each
//! document's own terms, to score a handful of chosen documents (the last ten summaries)
//! without walking long postings.

use rustc_hash::FxHashMap;

use crate::core::relevance::bm25::{self, K1, PHRASE};
use crate::core::terms::{for_each_form, words, Terms};

/// Term rarity is judged as if the collection held at least this many documents. BM25's
/// idf is meant for large collections: in a young ledger of three artifacts about one
/// topic, the topic's words are in every artifact and would count for almost nothing, so
/// an artifact that plainly bears on the task would score as unrelated. With the prior, a
/// word in all of three documents is judged as common as one in three of ten.
const PRIOR_DOCUMENTS: f32 = 10.0;

/// A collection of documents, indexed by all their terms.
#[derive(Default)]
pub struct Collection {
  vocabulary: FxHashMap<String, u32>,
  /// Per term: (document, frequency), in the order documents were added.
  postings: Vec<Vec<(u32, u32)>>,
  /// Per term: number of live documents containing it.
  df: Vec<u32>,
  /// Per document: its (term, frequency) pairs, sorted by term.
  terms: Vec<Box<[(u32, u32)]>>,
  /// Per document: number of words.
  len: Vec<u32>,
  /// Per document: the text ASCII-case-folded, for phrases; empty once removed.
  folded: Vec<Box<str>>,
  live: Vec<bool>,
  live_count: u32,
  live_len: u64,
}

/// One document's score against a query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
  pub doc: u32,
  /// 0..1: the document's BM25 over what a plain full match would score.
  pub score: f32,
}

/// A query prepared against one index: its terms' ids and weights, and the score ceiling.
struct PreparedQuery<'q> {
  terms: Vec<(u32, f32)>,
  phrases: &'q [(String, f32)],
  ceiling: f32,
}

impl Collection {
  pub fn new() -> Self {
    Self::default()
  }

  /// Adds a document; returns its id (ids count up from 0 and are never reused).
  pub fn add(&mut self, text: &str) -> u32 {
    let doc = self.terms.len() as u32;
    let mut counts: FxHashMap<u32, u32> = FxHashMap::default();
    let mut buf = String::new();
    let mut n = 0u32;
    for word in words(text) {
      n += 1;
      for_each_form(word, &mut buf, |form| {
        let next = self.vocabulary.len() as u32;
        let id = *self.vocabulary.entry(form.to_owned()).or_insert(next);
        if id == next {
          self.postings.push(Vec::new());
          self.df.push(0);
        }
        *counts.entry(id).or_insert(0) += 1;
      });
    }
    let mut terms: Vec<(u32, u32)> = counts.into_iter().collect();
    terms.sort_unstable();
    for &(t, f) in &terms {
      self.postings[t as usize].push((doc, f));
      self.df[t as usize] += 1;
    }
    self.terms.push(terms.into_boxed_slice());
    self.len.push(n);
    self.folded.push(text.to_ascii_lowercase().into_boxed_str());
    self.live.push(true);
    self.live_count += 1;
    self.live_len += n as u64;
    doc
  }

  /// Removes a document: it is never returned again and no longer counts in term
  /// statistics. Returns whether it was there.
  pub fn remove(&mut self, doc: u32) -> bool {
    let d = doc as usize;
    if !self.live.get(d).copied().unwrap_or(false) {
      return false;
    }
    self.live[d] = false;
    self.live_count -= 1;
    self.live_len -= self.len[d] as u64;
    for &(t, _) in self.terms[d].iter() {
      self.df[t as usize] -= 1;
    }
    self.folded[d] = Box::from("");
    // Postings keep the entry (skipped as dead); compact them when dead entries dominate.
    if self.terms.len() > 64 && (self.live_count as usize) < self.terms.len() / 2 {
      for list in &mut self.postings {
        list.retain(|&(doc, _)| self.live[doc as usize]);
      }
    }
    true
  }

  /// Number of live documents.
  pub fn len(&self) -> usize {
    self.live_count as usize
  }

  pub fn is_empty(&self) -> bool {
    self.live_count == 0
  }

  /// Whether `doc` is a live document.
  pub fn contains(&self, doc: u32) -> bool {
    self.live.get(doc as usize).copied().unwrap_or(false)
  }

  fn idf(&self, term: u32) -> f32 {
    let n = (self.live_count as f32).max(PRIOR_DOCUMENTS);
    let df = self.df.get(term as usize).copied().unwrap_or(0) as f32;
    bm25::idf(df, n)
  }

  fn avg_len(&self) -> f32 {
    (self.live_len as f32 / self.live_count.max(1) as f32).max(1.0)
  }

  fn prepare<'q>(&self, query: &'q Terms) -> PreparedQuery<'q> {
    let mut terms = Vec::new();
    let mut ceiling = 0.0;
    // Sorted by term text, so that sums run in the same order on every call.
    let mut sorted: Vec<(&String, &f32)> = query.weights.iter().collect();
    sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
    for (term, &weight) in sorted {
      match self.vocabulary.get(term.as_str()) {
        Some(&id) if self.df[id as usize] > 0 => {
          ceiling += weight * self.idf(id);
          terms.push((id, weight));
        }
        // A term no document has counts at the rarest idf: the query asks for it and
        // nothing here answers, which makes every document a weaker match.
        _ => ceiling += weight * self.idf(u32::MAX),
      }
    }
    ceiling += query.phrases.iter().map(|(_, w)| w * PHRASE).sum::<f32>();
    PreparedQuery {
      terms,
      phrases: &query.phrases,
      ceiling,
    }
  }

  fn term_score(&self, weight: f32, idf: f32, tf: u32, doc: u32, avg_len: f32) -> f32 {
    let saturation = bm25::saturation(K1, self.len[doc as usize], avg_len);
    bm25::term(K1, weight, idf, tf, saturation)
  }

  fn phrase_score(&self, prepared: &PreparedQuery, doc: u32) -> f32 {
    let body = &self.folded[doc as usize];
    prepared
      .phrases
      .iter()
      .filter(|(p, _)| body.contains(p.as_str()))
      .map(|(_, w)| w * PHRASE)
      .sum()
  }

  /// Scores every live document that shares a term with `query` (others score 0 and
  /// are left out), or only the live documents of `among` when given. Hits with a
  /// score of at least `min_score` (and above 0), best first, ties by lower id; at most
  /// `max`.
  pub fn search(&self, query: &Terms, among: Option<&[u32]>, min_score: f32, max: usize) -> Vec<Hit> {
    let prepared = self.prepare(query);
    if prepared.ceiling <= 0.0 || self.live_count == 0 {
      return Vec::new();
    }
    let avg_len = self.avg_len();
    let idf: Vec<f32> = prepared.terms.iter().map(|&(t, _)| self.idf(t)).collect();
    let mut raw: Vec<(u32, f32)> = Vec::new();
    match among {
      Some(docs) => {
        let mut seen = rustc_hash::FxHashSet::default();
        for &doc in docs {
          if !self.contains(doc) || !seen.insert(doc) {
            continue;
          }
          let own = &self.terms[doc as usize];
          let mut s = 0.0;
          for (k, &(t, w)) in prepared.terms.iter().enumerate() {
            if let Ok(i) = own.binary_search_by_key(&t, |&(t, _)| t) {
              s += self.term_score(w, idf[k], own[i].1, doc, avg_len);
            }
          }
          if s > 0.0 {
            raw.push((doc, s));
          }
        }
      }
      None => {
        let mut acc: FxHashMap<u32, f32> = FxHashMap::default();
        for (k, &(t, w)) in prepared.terms.iter().enumerate() {
          for &(doc, tf) in &self.postings[t as usize] {
            if self.live[doc as usize] {
              *acc.entry(doc).or_insert(0.0) += self.term_score(w, idf[k], tf, doc, avg_len);
            }
          }
        }
        raw.extend(acc);
      }
    }
    let mut hits: Vec<Hit> = raw
      .into_iter()
      .map(|(doc, s)| Hit {
        doc,
        score: ((s + self.phrase_score(&prepared, doc)) / prepared.ceiling).min(1.0),
      })
      .filter(|h| h.score > 0.0 && h.score >= min_score)
      .collect();
    hits.sort_unstable_by(|a, b| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc)));
    hits.truncate(max);
    hits
  }
}

/// The score of each of `documents` against `query`, in input order, each document
/// scored within the collection `documents` make (0..1, 0 when no term is shared).
pub fn rank(query: &str, documents: &[impl AsRef<str>]) -> Vec<f32> {
  let mut index = Collection::new();
  for d in documents {
    index.add(d.as_ref());
  }
  let mut scores = vec![0.0; documents.len()];
  for hit in index.search(&Terms::of_task(query), None, 0.0, usize::MAX) {
    scores[hit.doc as usize] = hit.score;
  }
  scores
}

#[cfg(test)]
mod tests {
  use super::*;

  const DOCS: [&str; 4] = [
    "Validated emails in src/api/users.ts with a regex; createUser now lower-cases them.",
    "The rate limiter in src/middleware/rate-limit.ts leaked: the hits map never forgot idle clients.",
    "Wrote the release notes for v2 routes in README.md.",
    "Chose PostgreSQL advisory locks for the migration runner.",
  ];

  #[test]
  fn the_document_that_shares_the_terms_ranks_first_and_unrelated_ones_score_zero() {
    let s = rank("Add tests for email validation in `createUser`", &DOCS);
    assert!(s[0] > 0.0);
    assert!(s[0] > s[1] && s[0] > s[2]);
    assert_eq!(s[3], 0.0);
    assert!(s.iter().all(|&x| (0.0..=1.0).contains(&x)));
  }

  #[test]
  fn paths_and_identifiers_match_whole_and_by_parts() {
    let s = rank("Fix the leak in rate-limit.ts", &DOCS);
    assert!(s[1] > 0.0 && s[1] > s[0]);
    let s = rank("user creation", &DOCS);
    assert!(s[0] > 0.0, "createUser is found by its parts: {s:?}");
  }

  #[test]
  fn same_input_same_scores() {
    let q = "migration locks and email validation";
    assert_eq!(rank(q, &DOCS), rank(q, &DOCS));
  }

  #[test]
  fn nothing_matches_an_empty_or_stop_word_query() {
    assert!(rank("", &DOCS).iter().all(|&x| x == 0.0));
    assert!(rank("what is the", &DOCS).iter().all(|&x| x == 0.0));
    assert!(rank("anything", &[] as &[&str]).is_empty());
  }

  #[test]
  fn a_full_match_scores_high_and_a_partial_one_lower() {
    let docs = ["alpha beta gamma", "alpha", "delta epsilon", "zeta"];
    let s = rank("alpha beta gamma", &docs);
    assert!(s[0] > 0.6, "{s:?}");
    assert!(s[1] > 0.0 && s[1] < s[0] / 2.0, "{s:?}");
  }

  #[test]
  fn among_restricts_and_removed_documents_are_gone() {
    let mut index = Collection::new();
    for d in DOCS {
      index.add(d);
    }
    let q = Terms::of_task("rate limiter leak and email validation");
    let all = index.search(&q, None, 0.0, 10);
    assert_eq!(all.iter().map(|h| h.doc).collect::<Vec<_>>().len(), 2);
    let some = index.search(&q, Some(&[0, 2, 3, 0]), 0.0, 10);
    assert_eq!(some.iter().map(|h| h.doc).collect::<Vec<_>>(), [0]);
    // The same document scores the same through postings and through its own terms.
    let via_postings = all.iter().find(|h| h.doc == 0).unwrap().score;
    assert_eq!(some[0].score, via_postings);
    assert!(index.remove(1));
    assert!(!index.remove(1));
    assert!(!index.remove(99));
    assert_eq!(index.len(), 3);
    assert!(index.search(&q, None, 0.0, 10).iter().all(|h| h.doc != 1));
    assert_eq!(index.add("another rate limiter note"), 4);
  }

  #[test]
  fn a_young_collection_about_one_topic_still_matches_it() {
    let docs = [
      "Emails are stored lower-cased.",
      "Emails with plus signs were rejected.",
      "Rotate the staging password.",
    ];
    let s = rank("change a user email address", &docs);
    assert!(s[0] > 0.1 && s[1] > 0.1, "{s:?}");
    assert_eq!(s[2], 0.0);
  }

  #[test]
  fn max_and_min_score_cut_the_list() {
    let mut index = Collection::new();
    for d in [
      "email validation",
      "email",
      "email and more words here",
      "nothing",
    ] {
      index.add(d);
    }
    let q = Terms::of_task("email validation regex");
    assert_eq!(index.search(&q, None, 0.0, 2).len(), 2);
    let best = index.search(&q, None, 0.0, 1)[0].score;
    assert_eq!(index.search(&q, None, best, 10).len(), 1);
  }

  #[test]
  fn compaction_after_many_removals_keeps_results() {
    let mut index = Collection::new();
    for i in 0..200 {
      index.add(&format!("item {i} about caching"));
    }
    for i in 0..150 {
      index.remove(i);
    }
    let hits = index.search(&Terms::of_task("caching"), None, 0.0, usize::MAX);
    assert_eq!(hits.len(), 50);
    assert!(hits.iter().all(|h| h.doc >= 150));
  }
}
