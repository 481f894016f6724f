//! Scoring segments against a task: BM25 over the task's terms, with the paragraph,
//! the section and the neighbours of each segment counted, and links followed (a
//! section whose heading is named in relevant text becomes relevant too).

pub mod feedback;

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::core::cancel::{Cancel, Cancelled};
use crate::core::segment::{repeats, Kind, Segment};
use crate::core::terms::{for_each_form, words, Terms};

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// How much each signal contributes to a segment's score (each normalized to 0..1).
const W_SECTION: f32 = 1.0;
const W_BLOCK: f32 = 0.2;
const W_SEGMENT: f32 = 0.2;
const W_NEIGHBOUR: f32 = 0.1;
/// The first sentence of a paragraph introduces what the rest refers back to ("It was
/// dissolved in 2010"): it shares this much of its section's relevance.
const W_LEAD: f32 = 0.2;
/// A section whose title the task names: that much on top of its BM25 (0..1).
const W_TITLE: f32 = 1.0;
/// A section named by one of the most relevant sections: that much times the source's
/// relative relevance; a section that names one of them: `W_BACKLINK`.
const W_LINK: f32 = 1.0;
const W_BACKLINK: f32 = 0.3;
/// How many of the most relevant sections are followed, and how relevant (relative to
/// the best) a section must be to be followed.
const LINK_SOURCES: usize = 2;
const LINK_SOURCE: f32 = 0.5;
/// The pair of sections that answer the task together is sought among this many of the
/// most relevant; its text is scored with this BM25 `k1` (low: a term found once says
/// most of what it can), and it is put this much (relative) above the best section.
const PAIR_CANDIDATES: usize = 10;
const PAIR_K1: f32 = 0.5;
const PAIR_LEAD: f32 = 0.1;
/// Both halves of the pair must already be this relevant (relative to the best section).
const PAIR_FLOOR: f32 = 0.2;

/// Bound on the distinct words whose forms `Index::build` keeps.
const KNOWN_WORDS: usize = 1 << 20;

/// Term statistics of the segments of one text, for a fixed vocabulary (the terms of
/// the task and its siblings): only those terms are counted, which keeps indexing
/// cheap on huge threads. Built by reading the text (`build`), or from the text's
/// [`Postings`] when it is read for many tasks.
#[derive(Debug, PartialEq)]
pub struct Index {
  vocabulary: FxHashMap<String, usize>,
  /// (term, frequency) of the vocabulary terms in each segment, all segments in one
  /// vector: segment `i` owns `tf[tf_start[i]..tf_start[i + 1]]`.
  tf: Vec<(usize, u32)>,
  tf_start: Vec<usize>,
  /// Per segment: number of words.
  len: Vec<u32>,
  /// Per term: number of segments containing it, and its inverse document frequency.
  df: Vec<u32>,
  idf: Vec<f32>,
  /// The whole text with ASCII letters lower-cased (byte offsets unchanged), for
  /// finding phrases and titles.
  folded: Arc<str>,
  avg_len: f32,
}

/// Case folding for finding phrases and names in text: ASCII only, so that offsets in
/// the folded text are offsets in the original.
pub fn fold(text: &str) -> String {
  text.to_ascii_lowercase()
}

/// The terms of `queries`, numbered in the order they are first met.
fn vocabulary(queries: &[&Terms]) -> FxHashMap<String, usize> {
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
fn idf(df: &[u32], n: usize) -> Vec<f32> {
  let n = n as f32;
  df.iter()
    .map(|&df| {
      let df = df as f32;
      (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    })
    .collect()
}

fn average(len: &[u32]) -> f32 {
  (len.iter().map(|&l| l as f64).sum::<f64>() / len.len().max(1) as f64).max(1.0) as f32
}

impl Index {
  pub fn build(text: &str, segments: &[Segment], queries: &[&Terms]) -> Self {
    Self::build_repeating(
      text,
      fold(text).into(),
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
      idf: idf(&df, len.len()),
      len,
      df,
      folded,
      avg_len,
    }
  }
}

impl Index {
  /// The (term, frequency) pairs of segment `i`.
  fn terms(&self, i: usize) -> &[(usize, u32)] {
    &self.tf[self.tf_start[i]..self.tf_start[i + 1]]
  }

  fn idf(&self, term: usize) -> f32 {
    self.idf[term]
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

/// Every word form of every segment of one text, indexed once: a thread prepared for
/// many tasks gets each task's [`Index`] from it without reading the text again.
pub struct Postings {
  vocabulary: FxHashMap<String, u32>,
  /// Per form: (segment, frequency), segments ascending.
  lists: Vec<Vec<(u32, u32)>>,
  /// Per segment: number of words.
  len: Vec<u32>,
  folded: Arc<str>,
  trigrams: Trigrams,
}

/// The segments that hold each three-byte sequence of the (case-folded) text. A phrase
/// lies in a segment only if every three bytes of it do, so a prepared thread seeks a
/// phrase only in the segments that hold its rarest ones, not through the whole text.
pub struct Trigrams {
  /// Per trigram (its bytes, big-endian): its number.
  ids: FxHashMap<u32, u32>,
  /// Per trigram number, `segments[start[id]..start[id + 1]]` hold it, ascending. Only
  /// the first of segments with the same text is indexed (`segment::repeats`)...
  start: Vec<usize>,
  segments: Vec<u32>,
  /// ...and the others are `copies[copies_start[f]..copies_start[f + 1]]` of first `f`.
  copies_start: Vec<usize>,
  copies: Vec<u32>,
}

/// Trigrams a phrase must share with a segment before the segment is searched: the
/// rarest few, since each candidate is searched anyway.
const TRIGRAMS_CHECKED: usize = 4;

impl Trigrams {
  fn build(folded: &[u8], segments: &[Segment], same: &[u32], cancel: &Cancel) -> Result<Self, Cancelled> {
    let mut ids: FxHashMap<u32, u32> = FxHashMap::default();
    // Per trigram: the last segment it was met in (+1).
    let mut last: Vec<u32> = Vec::new();
    // (trigram, segment) for each segment's distinct trigrams, segment after segment.
    let mut met: Vec<(u32, u32)> = Vec::new();
    for (i, s) in segments.iter().enumerate() {
      if i % 4096 == 0 {
        cancel.check()?;
      }
      if same[i] as usize != i {
        continue;
      }
      for w in folded[s.start..s.end].windows(3) {
        let next = ids.len() as u32;
        let id = *ids.entry(trigram(w)).or_insert_with(|| {
          last.push(0);
          next
        }) as usize;
        if last[id] != i as u32 + 1 {
          last[id] = i as u32 + 1;
          met.push((id as u32, i as u32));
        }
      }
    }
    let (start, by_trigram) = buckets(ids.len(), met.iter().map(|&(id, i)| (id as usize, i)));
    // The copies of each first segment.
    let copies = same
      .iter()
      .enumerate()
      .filter(|&(i, &f)| f as usize != i)
      .map(|(i, &f)| (f as usize, i as u32));
    let (copies_start, copies) = buckets(same.len(), copies);
    Ok(Self {
      ids,
      start,
      segments: by_trigram,
      copies_start,
      copies,
    })
  }

  /// The segments of `segments` that hold `phrase` (at least three bytes long), ascending.
  fn holders(&self, folded: &[u8], segments: &[Segment], phrase: &[u8]) -> Vec<u32> {
    let mut lists: Vec<&[u32]> = Vec::new();
    for w in phrase.windows(3) {
      match self.ids.get(&trigram(w)) {
        Some(&id) => lists.push(&self.segments[self.start[id as usize]..self.start[id as usize + 1]]),
        None => return Vec::new(),
      }
    }
    lists.sort_unstable_by_key(|l| l.len());
    let finder = memchr::memmem::Finder::new(phrase);
    let firsts = lists[0].iter().copied().filter(|k| {
      lists[1..]
        .iter()
        .take(TRIGRAMS_CHECKED - 1)
        .all(|l| l.binary_search(k).is_ok())
    });
    let mut holders = Vec::new();
    for k in firsts {
      let s = &segments[k as usize];
      if finder.find(&folded[s.start..s.end]).is_some() {
        holders.push(k);
        holders
          .extend_from_slice(&self.copies[self.copies_start[k as usize]..self.copies_start[k as usize + 1]]);
      }
    }
    holders.sort_unstable();
    holders
  }
}

/// Values grouped by bucket (a counting sort of `(bucket, value)` items): bucket `b`
/// holds `values[start[b]..start[b + 1]]`, in the order the items came.
fn buckets<T: Copy + Default>(
  count: usize,
  items: impl Iterator<Item = (usize, T)> + Clone,
) -> (Vec<usize>, Vec<T>) {
  let mut start = vec![0usize; count + 1];
  for (b, _) in items.clone() {
    start[b + 1] += 1;
  }
  for b in 1..start.len() {
    start[b] += start[b - 1];
  }
  let mut next = start.clone();
  let mut values = vec![T::default(); start[count]];
  for (b, v) in items {
    values[next[b]] = v;
    next[b] += 1;
  }
  (start, values)
}

fn trigram(w: &[u8]) -> u32 {
  u32::from_be_bytes([0, w[0], w[1], w[2]])
}

impl Postings {
  /// Indexes every segment of `text`; `same` tells which repeat an earlier one
  /// (`segment::repeats`).
  pub fn build(text: &str, segments: &[Segment], same: &[u32], cancel: &Cancel) -> Result<Self, Cancelled> {
    let mut vocabulary: FxHashMap<String, u32> = FxHashMap::default();
    let mut lists: Vec<Vec<(u32, u32)>> = Vec::new();
    let mut len = Vec::with_capacity(segments.len());
    // Frequencies in the current segment, by form id, and the ids met in it.
    let mut counts: Vec<u32> = Vec::new();
    let mut met: Vec<u32> = Vec::new();
    let mut buf = String::new();
    for (i, s) in segments.iter().enumerate() {
      if i % 4096 == 0 {
        cancel.check()?;
      }
      let mut n = 0u32;
      for word in words(&text[s.start..s.end]) {
        n += 1;
        for_each_form(word, &mut buf, |form| {
          let id = match vocabulary.get(form) {
            Some(&id) => id,
            None => {
              let id = lists.len() as u32;
              vocabulary.insert(form.to_owned(), id);
              lists.push(Vec::new());
              counts.push(0);
              id
            }
          };
          if counts[id as usize] == 0 {
            met.push(id);
          }
          counts[id as usize] += 1;
        });
      }
      for id in met.drain(..) {
        lists[id as usize].push((i as u32, counts[id as usize]));
        counts[id as usize] = 0;
      }
      len.push(n);
    }
    let folded: Arc<str> = fold(text).into();
    Ok(Self {
      vocabulary,
      lists,
      len,
      trigrams: Trigrams::build(folded.as_bytes(), segments, same, cancel)?,
      folded,
    })
  }

  /// The text, case-folded as `fold` does.
  pub fn folded(&self) -> &Arc<str> {
    &self.folded
  }

  pub fn trigrams(&self) -> &Trigrams {
    &self.trigrams
  }

  /// The index `Index::build` would make of the text for `queries`, from the postings
  /// of their terms only.
  pub fn index(&self, queries: &[&Terms]) -> Index {
    let vocabulary = vocabulary(queries);
    let mut df = vec![0u32; vocabulary.len()];
    // The postings of the query's terms, placed segment by segment (a counting sort),
    // then each segment's pairs in term order.
    let lists: Vec<(usize, &[(u32, u32)])> = vocabulary
      .iter()
      .filter_map(|(t, &id)| {
        self
          .vocabulary
          .get(t)
          .map(|&form| (id, self.lists[form as usize].as_slice()))
      })
      .collect();
    for &(id, list) in &lists {
      df[id] = list.len() as u32;
    }
    let pairs = lists
      .iter()
      .flat_map(|&(id, list)| list.iter().map(move |&(segment, f)| (segment as usize, (id, f))));
    let (tf_start, mut tf) = buckets(self.len.len(), pairs);
    for i in 0..self.len.len() {
      tf[tf_start[i]..tf_start[i + 1]].sort_unstable();
    }
    Index {
      vocabulary,
      tf,
      tf_start,
      len: self.len.clone(),
      idf: idf(&df, self.len.len()),
      df,
      folded: Arc::clone(&self.folded),
      avg_len: average(&self.len),
    }
  }
}

/// Relevance of every segment to one query, on a 0..~3 scale where 0 means unrelated.
///
/// Sections (a heading and what follows it, a rendered message, or a paragraph when
/// there are no headings) are ranked first, since they are what a reader needs whole:
/// BM25 of the section, plus its title when the task names it, plus links: the title
/// of a section named in one of the most relevant sections, or a section that names
/// one of their titles; then the pair of titled sections that answer the task together
/// is put first (see `complement`). A segment's score is its section's relevance, its paragraph's,
/// its own, and a share for the lead sentence of a paragraph.
///
/// Also returns, beside the scores, each segment's evidence for ownership: the raw BM25 of the
/// segment and of its section, over the most the query could score (so tasks long and
/// short compare fairly). Unlike the scores, which are relative to the best in the
/// text, evidence can be compared between tasks to tell whose a segment is.
pub fn scores(text: &str, segments: &[Segment], index: &Index, query: &Terms) -> (Vec<f32>, Vec<f32>) {
  let bonus = phrase_bonuses(&index.folded, segments, None, &[query]).remove(0);
  scores_with(text, segments, index, query, &bonus)
}

/// `scores`, with the query's phrase bonus per segment already found (`phrase_bonuses`).
pub fn scores_with(
  text: &str,
  segments: &[Segment],
  index: &Index,
  query: &Terms,
  bonus: &[f32],
) -> (Vec<f32>, Vec<f32>) {
  if segments.is_empty() {
    return (Vec::new(), Vec::new());
  }
  let weights = index.weights(query);
  let bags = QueryTerms::new(index, &weights);
  let bm25: Vec<f32> = (0..segments.len())
    .map(|i| index.bm25(bags.of(i), index.len[i], &weights))
    .collect();
  let own: Vec<f32> = bm25.iter().zip(bonus).map(|(s, b)| s + b).collect();

  // Groups of segments scored as one bag of words: blocks (paragraphs, items, code)
  // and sections.
  let blocks = segments.last().map_or(0, |s| s.block + 1);
  let block_of: Vec<usize> = segments.iter().map(|s| s.block).collect();
  let (section_of, sections) = sections(segments);
  let block_score = group_scores(index, &bags, &weights, &bm25, &own, &block_of, blocks, |i| {
    !is_section_start(segments[i].kind)
  })
  .score;
  let section_bags = group_scores(index, &bags, &weights, &bm25, &own, &section_of, sections, |_| {
    true
  });
  let section_bm25 = &section_bags.score;

  let norm = |v: f32, m: f32| if m > 0.0 { v / m } else { 0.0 };
  let max_own = max(&own);
  let max_block = max(&block_score);
  let max_section = max(section_bm25);

  // Sections: where each starts and ends, its title (markdown headings only: a rendered
  // message's role line is no title), and its text, case-folded, for finding names.
  let mut span = vec![(usize::MAX, 0usize); sections];
  for (i, &k) in section_of.iter().enumerate() {
    span[k].0 = span[k].0.min(i);
    span[k].1 = i + 1;
  }
  let title: Vec<Option<String>> = span
    .iter()
    .map(|&(first, _)| {
      let s = &segments[first];
      (s.kind == Kind::Heading)
        .then(|| heading_title(&text[s.start..s.end]))
        .filter(|t| t.chars().filter(|c| c.is_alphanumeric()).count() >= 4)
    })
    .collect();
  // Titles the task names (the longest match: see `named_titles`).
  let named_by_task = named_titles(&query.text, &title);
  let mut relevance: Vec<f32> = (0..sections)
    .map(|k| norm(section_bm25[k], max_section) + if named_by_task[k] { W_TITLE } else { 0.0 })
    .collect();
  // Links from the most relevant sections to the sections they name, and back.
  let mut order: Vec<usize> = (0..sections).filter(|&k| relevance[k] > 0.0).collect();
  order.sort_by(|&a, &b| relevance[b].total_cmp(&relevance[a]).then(a.cmp(&b)));
  let best = order.first().map_or(0.0, |&k| relevance[k]);
  let sources: Vec<(usize, f32, &str)> = order
    .iter()
    .take(LINK_SOURCES)
    .filter(|&&k| relevance[k] >= LINK_SOURCE * best)
    .map(|&k| {
      (
        k,
        relevance[k] / best,
        &index.folded[segments[span[k].0].start..segments[span[k].1 - 1].end],
      )
    })
    .collect();
  let mut linked = relevance.clone();
  if !sources.is_empty() {
    for (source, share, body) in &sources {
      for (k, named) in named_titles(body, &title).into_iter().enumerate() {
        if named && k != *source {
          linked[k] = linked[k].max(relevance[k] + W_LINK * share);
        }
      }
    }
    // Back links need every section's text; only titled sources can be named.
    let named_sources: Vec<(usize, f32, &str)> = sources
      .iter()
      .filter_map(|(k, share, _)| title[*k].as_deref().map(|t| (*k, *share, t)))
      .collect();
    // Each title is sought once in the whole text, and each find given to its section.
    for &(source, share, t) in &named_sources {
      for (at, end) in name_spans(&index.folded, t) {
        let k = section_of[segments.partition_point(|s| s.start <= at).max(1) - 1];
        if k != source && end <= segments[span[k].1 - 1].end && at >= segments[span[k].0].start {
          linked[k] = linked[k].max(relevance[k] + W_BACKLINK * share);
        }
      }
    }
  }
  relevance = linked;
  // The pair of sections that answer the task together comes first.
  let base: Vec<f32> = section_bm25.iter().map(|&v| norm(v, max_section)).collect();
  let body = |k: usize| &index.folded[segments[span[k].0].start..segments[span[k].1 - 1].end];
  complement(
    &mut relevance,
    &base,
    index,
    &weights,
    &section_bags,
    &title,
    &named_by_task,
    body,
  );
  let max_relevance = max(&relevance);

  let mass: f32 = (0..weights.len())
    .filter(|&t| index.df[t] > 0)
    .map(|t| weights[t] * index.idf(t))
    .sum::<f32>()
    + query.phrases.iter().map(|(_, w)| w * 2.0).sum::<f32>();
  let evidence = (0..segments.len())
    .map(|i| norm(own[i] + section_bm25[section_of[i]], mass.max(f32::MIN_POSITIVE)))
    .collect();
  let scores = (0..segments.len())
    .map(|i| {
      let s = &segments[i];
      let section = norm(relevance[section_of[i]], max_relevance);
      if is_section_start(s.kind) {
        return W_SECTION * section;
      }
      let block = norm(block_score[s.block], max_block);
      if own[i] <= 0.0 && block <= 0.0 && section <= 0.0 {
        return 0.0;
      }
      let neighbour = [i.checked_sub(1), Some(i + 1)]
        .into_iter()
        .flatten()
        .filter(|&j| j < segments.len() && segments[j].block == s.block)
        .map(|j| norm(own[j], max_own))
        .fold(0.0, f32::max);
      let lead = if i == 0 || segments[i - 1].block != s.block {
        W_LEAD * section.max(block)
      } else {
        0.0
      };
      W_SECTION * section
        + W_BLOCK * block
        + W_SEGMENT * norm(own[i], max_own)
        + W_NEIGHBOUR * neighbour
        + lead
    })
    .collect();
  (scores, evidence)
}

/// Section of each segment: a heading (or role line) opens one; text before any heading
/// forms one section per block. Returns the section ids and their number.
pub(crate) fn sections(segments: &[Segment]) -> (Vec<usize>, usize) {
  let mut ids = Vec::with_capacity(segments.len());
  let mut count = 0;
  let mut last_block = usize::MAX;
  for s in segments {
    let opens = is_section_start(s.kind) || (s.heading.is_none() && s.block != last_block);
    if opens || count == 0 {
      count += 1;
    }
    last_block = s.block;
    ids.push(count - 1);
  }
  (ids, count.max(1))
}

/// The two sections that answer the task together, moved to the top: a task often needs
/// two pieces of text, the one it names and the one that names what the task asks about
/// ("the director of Ed Wood" → "Ed Wood" names "Tim Burton", whose section has the
/// answer). Among the most relevant sections, every pair is scored by what the two cover
/// of the task's terms together (a term counted once, however many times it is found),
/// the task's names they carry (one per distinct title: two sections titled alike are
/// two things of one name, of which the task means one), and whether one names the
/// other. The pair goes to the top; the other candidates keep their title and link
/// evidence, but their text counts only the task terms the pair leaves uncovered.
#[allow(clippy::too_many_arguments)]
fn complement<'a>(
  relevance: &mut [f32],
  base: &[f32],
  index: &Index,
  weights: &[f32],
  bags: &Groups,
  titles: &[Option<String>],
  named_by_task: &[bool],
  body: impl Fn(usize) -> &'a str,
) {
  let mut order: Vec<usize> = (0..relevance.len()).filter(|&k| relevance[k] > 0.0).collect();
  order.sort_by(|&a, &b| relevance[b].total_cmp(&relevance[a]).then(a.cmp(&b)));
  order.truncate(PAIR_CANDIDATES);
  // Titled sections only (documents about one thing each, which can name one another),
  // and only when the best section is one: a thread's messages are no such pieces.
  if order.first().is_none_or(|&k| titles[k].is_none()) {
    return;
  }
  order.retain(|&k| titles[k].is_some());
  let n = order.len();
  if n < 2 {
    return;
  }
  let best = relevance[order[0]];
  let nonempty = bags.len.iter().filter(|&&l| l > 0).count().max(1);
  let avg = (bags.len.iter().map(|&l| l as f64).sum::<f64>() / nonempty as f64).max(1.0) as f32;
  let lex = |k: usize, seen: &[bool]| -> f32 {
    let norm = PAIR_K1 * (1.0 - B + B * bags.len[k] as f32 / avg);
    bags.terms[k]
      .iter()
      .filter(|&&(t, _)| !seen[t])
      .map(|&(t, f)| {
        let f = f as f32;
        weights[t] * index.idf(t) * f * (PAIR_K1 + 1.0) / (f + norm)
      })
      .sum()
  };
  let none = vec![false; weights.len()];
  let alone: Vec<f32> = order.iter().map(|&k| lex(k, &none)).collect();
  let scale = alone.iter().copied().fold(0.0, f32::max);
  if scale <= 0.0 {
    return;
  }
  let titled: Vec<Option<String>> = order.iter().map(|&k| titles[k].clone()).collect();
  // names[i][j]: candidate i's text names candidate j's title.
  let names: Vec<Vec<bool>> = order.iter().map(|&k| named_titles(body(k), &titled)).collect();
  let same = |i: usize, j: usize| titled[i].is_some() && titled[i] == titled[j];
  let linked = |i: usize, j: usize| (names[i][j] || names[j][i]) && !same(i, j);
  let title = |i: usize| if named_by_task[order[i]] { W_TITLE } else { 0.0 };
  let mut pair = (f32::MIN, 0, 1);
  let mut seen = vec![false; weights.len()];
  for i in 0..n {
    for &(t, _) in &bags.terms[order[i]] {
      seen[t] = true;
    }
    for (j, &other) in order.iter().enumerate() {
      if i == j {
        continue;
      }
      let titles = if same(i, j) {
        title(i).max(title(j))
      } else {
        title(i) + title(j)
      };
      let s = (alone[i] + lex(other, &seen)) / scale + titles + if linked(i, j) { W_LINK } else { 0.0 };
      if s > pair.0 {
        pair = (s, i, j);
      }
    }
    for &(t, _) in &bags.terms[order[i]] {
      seen[t] = false;
    }
  }
  let (_, a, b) = pair;
  // A pair is lifted only when both halves are relevant in their own right: a faint
  // second section is not made to look as relevant as the best.
  if relevance[order[a]].min(relevance[order[b]]) < PAIR_FLOOR * best {
    return;
  }
  for x in [a, b] {
    for &(t, _) in &bags.terms[order[x]] {
      seen[t] = true;
    }
  }
  for (i, &k) in order.iter().enumerate() {
    if i != a && i != b {
      relevance[k] = (relevance[k] - base[k] + lex(k, &seen) / scale).max(0.0);
    }
  }
  // A little above the best, so that the pair comes first and the scale stays.
  let top = best * (1.0 + PAIR_LEAD);
  relevance[order[a]] = top;
  relevance[order[b]] = top;
}

/// The (term, frequency) pairs of each segment for the terms one query weighs: what its
/// scores are made of (an index shared with sibling tasks holds theirs too).
struct QueryTerms {
  tf: Vec<(usize, u32)>,
  start: Vec<usize>,
}

impl QueryTerms {
  fn new(index: &Index, weights: &[f32]) -> Self {
    let mut tf = Vec::new();
    let mut start = Vec::with_capacity(index.len.len() + 1);
    for i in 0..index.len.len() {
      start.push(tf.len());
      tf.extend(index.terms(i).iter().filter(|&&(t, _)| weights[t] != 0.0));
    }
    start.push(tf.len());
    Self { tf, start }
  }

  fn of(&self, i: usize) -> &[(usize, u32)] {
    &self.tf[self.start[i]..self.start[i + 1]]
  }
}

/// Up to this many distinct phrases are sought one by one, more in one pass.
const ONE_BY_ONE: usize = 12;

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
          bonus[k as usize] += weight * 2.0;
        }
      }
      bonus
    })
    .collect()
}

/// Groups of segments taken as one bag of words: BM25 of each, and its bag.
struct Groups {
  score: Vec<f32>,
  terms: Vec<Vec<(usize, u32)>>,
  len: Vec<u32>,
}

/// BM25 of groups of segments (blocks or sections) taken as one bag of words; segments
/// for which `include` is false are left out of the bag. `bm25` is each segment's own
/// BM25, `own` its score with the phrase bonus.
#[allow(clippy::too_many_arguments)]
fn group_scores(
  index: &Index,
  bags: &QueryTerms,
  weights: &[f32],
  bm25: &[f32],
  own: &[f32],
  group_of: &[usize],
  groups: usize,
  include: impl Fn(usize) -> bool,
) -> Groups {
  let mut len = vec![0u32; groups];
  let mut phrase = vec![0f32; groups];
  // The (term, frequency) pairs of each group's segments, placed group by group (a
  // counting sort); then a group's pairs in term order, a term's frequencies summed.
  let mut start = vec![0usize; groups + 1];
  for (i, &g) in group_of.iter().enumerate() {
    if include(i) {
      start[g + 1] += bags.of(i).len();
    }
  }
  for g in 1..start.len() {
    start[g] += start[g - 1];
  }
  let mut pairs = vec![(0usize, 0u32); start[groups]];
  let mut next = start.clone();
  for (i, &g) in group_of.iter().enumerate() {
    if !include(i) {
      continue;
    }
    let bag = bags.of(i);
    pairs[next[g]..next[g] + bag.len()].copy_from_slice(bag);
    next[g] += bag.len();
    len[g] += index.len[i];
    // A phrase's bonus is in `own` beyond BM25; keep the largest for the group.
    phrase[g] = phrase[g].max(own[i] - bm25[i]);
  }
  let terms: Vec<Vec<(usize, u32)>> = (0..groups)
    .map(|g| {
      let group = &mut pairs[start[g]..start[g + 1]];
      group.sort_unstable();
      let mut terms: Vec<(usize, u32)> = Vec::with_capacity(group.len());
      for &(t, f) in group.iter() {
        match terms.last_mut() {
          Some((u, n)) if *u == t => *n += f,
          _ => terms.push((t, f)),
        }
      }
      terms
    })
    .collect();
  let score = (0..groups)
    .map(|g| index.bm25(&terms[g], len[g], weights) + phrase[g])
    .collect();
  Groups { score, terms, len }
}

fn is_section_start(kind: Kind) -> bool {
  matches!(kind, Kind::Heading | Kind::Role)
}

/// A heading's title, case-folded: without `#` marks and a trailing "(…)" or ", …" qualifier.
fn heading_title(heading: &str) -> String {
  let t = heading.trim_start_matches('#').trim();
  let t = match t.rfind(" (") {
    Some(i) if t.ends_with(')') => &t[..i],
    _ => t,
  };
  // "Santa Fe, Missouri": text names the place before the comma.
  let t = t.split_once(", ").map_or(t, |(name, _)| name);
  fold(t)
}

/// Which of `titles` `body` names, longest match first: "Adventures of Huckleberry Finn"
/// names that section, not the "Huckleberry Finn" inside it.
fn named_titles(body: &str, titles: &[Option<String>]) -> Vec<bool> {
  // Many sections can share a title (a thread's "### user"): find each distinct title once.
  let mut distinct: Vec<&str> = titles.iter().flatten().map(String::as_str).collect();
  distinct.sort_unstable();
  distinct.dedup();
  let spans: Vec<Vec<(usize, usize)>> = distinct.iter().map(|t| name_spans(body, t)).collect();
  let named: Vec<bool> = (0..distinct.len())
    .map(|k| {
      spans[k].iter().any(|&(a, b)| {
        !spans
          .iter()
          .enumerate()
          .any(|(j, other)| j != k && other.iter().any(|&(c, d)| c <= a && b <= d && d - c > b - a))
      })
    })
    .collect();
  titles
    .iter()
    .map(|t| {
      t.as_deref()
        .is_some_and(|t| distinct.binary_search(&t).is_ok_and(|k| named[k]))
    })
    .collect()
}

/// Where `body` names `title` as whole words.
fn name_spans(body: &str, title: &str) -> Vec<(usize, usize)> {
  let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
  if title.is_empty() {
    return Vec::new();
  }
  let finder = memchr::memmem::Finder::new(title.as_bytes());
  let mut spans = Vec::new();
  let mut from = 0;
  // Finds do not overlap, as with `match_indices`.
  while let Some(found) = finder.find(&body.as_bytes()[from..]) {
    let at = from + found;
    from = at + title.len();
    if boundary(body[..at].chars().next_back()) && boundary(body[from..].chars().next()) {
      spans.push((at, from));
    }
  }
  spans
}

fn max(v: &[f32]) -> f32 {
  v.iter().copied().fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::core::segment::{segment, Granularity};

  fn scored(text: &str, task: &str) -> Vec<(String, f32)> {
    let mut segs = Vec::new();
    segment(text, 0, 0, Granularity::Sentence, &mut segs, 0);
    let terms = Terms::of_task(task);
    let index = Index::build(text, &segs, &[&terms]);
    let s = scores(text, &segs, &index, &terms).0;
    segs
      .iter()
      .zip(s)
      .map(|(g, v)| (text[g.start..g.end].to_owned(), v))
      .collect()
  }

  #[test]
  fn matching_text_outscores_unrelated_text() {
    let s = scored(
      "The rate limiter leaks memory.\n\nThe README lists routes.\n\nCats sleep a lot.",
      "fix the rate limiter memory leak",
    );
    assert!(s[0].1 > s[1].1);
    assert_eq!(s[2].1, 0.0);
  }

  #[test]
  fn a_section_named_in_relevant_text_is_followed() {
    let text = "## Ed Wood (film)\n\nEd Wood is a film directed by Tim Burton.\n\n## Tim Burton\n\nTim Burton was born in Burbank.\n\n## Cats\n\nCats sleep.";
    let s = scored(text, "Where was the director of the film Ed Wood born?");
    let burbank = s.iter().find(|x| x.0.contains("Burbank")).unwrap().1;
    let cats = s.iter().find(|x| x.0 == "Cats sleep.").unwrap().1;
    assert!(burbank > 0.3, "{s:?}");
    assert!(burbank > cats);
  }

  /// The heading scores of a titled text, best first.
  fn ranked_headings(text: &str, task: &str) -> Vec<String> {
    let mut headings: Vec<(String, f32)> = scored(text, task)
      .into_iter()
      .filter(|(t, _)| t.starts_with("## "))
      .collect();
    headings.sort_by(|a, b| b.1.total_cmp(&a.1));
    headings.into_iter().map(|(t, _)| t).collect()
  }

  #[test]
  fn the_pair_that_answers_together_comes_first() {
    // Two sections carry the name the task gives; only one of them is the building, and it
    // names the base, whose section holds the answer.
    let text = "## Kiskiack\n\nKiskiack is a village in the Bakhchysarai district of Crimea. Kiskiack lies in a river valley and Kiskiack has a mosque.\n\n## Kiskiack (Lee House)\n\nKiskiack is a historic house on the grounds of Naval Weapons Station Yorktown.\n\n## Naval Weapons Station Yorktown\n\nNaval Weapons Station Yorktown is a naval base of the United States Navy in York County, Virginia.\n\n## Yorktown, Virginia\n\nYorktown is a town in York County, Virginia, still known for its siege.";
    let ranked = ranked_headings(
      text,
      "Kiskiack is a building that still stands at what York County, Virginia naval base?",
    );
    let top: Vec<&str> = ranked[..2].iter().map(String::as_str).collect();
    assert!(top.contains(&"## Kiskiack (Lee House)"), "{ranked:?}");
    assert!(top.contains(&"## Naval Weapons Station Yorktown"), "{ranked:?}");
  }

  mod properties {
    use super::*;
    use proptest::prelude::*;

    const WORDS: [&str; 10] = [
      "Rate",
      "limiter",
      "src/api/users.ts",
      "users",
      "the",
      "leak",
      "`hits`",
      "Ünïcode",
      "rate-limit",
      "a.b",
    ];

    fn text() -> impl Strategy<Value = String> {
      proptest::collection::vec((0usize..WORDS.len(), 0u8..6), 0..60).prop_map(|w| {
        w.iter()
          .map(|&(i, sep)| {
            format!(
              "{}{}",
              WORDS[i],
              [" ", " ", ". ", "\n\n", "\n- ", "\n## "][sep as usize]
            )
          })
          .collect()
      })
    }

    proptest! {
      #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

      /// The index made from postings is the index made by reading the text.
      #[test]
      fn postings_give_the_index_the_text_gives(text in text(), tasks in proptest::collection::vec(proptest::collection::vec(0usize..WORDS.len(), 1..5), 1..4)) {
        let mut segments = Vec::new();
        crate::core::segment::segment(&text, 0, 0, crate::core::segment::Granularity::Sentence, &mut segments, 0);
        let terms: Vec<Terms> = tasks
          .iter()
          .map(|t| Terms::of_task(&t.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" ")))
          .collect();
        let refs: Vec<&Terms> = terms.iter().collect();
        let same = crate::core::segment::repeats(&text, &segments);
        let postings = Postings::build(&text, &segments, &same, &Cancel::new()).unwrap();
        prop_assert_eq!(postings.index(&refs), Index::build(&text, &segments, &refs));
      }

      /// A phrase's bonus goes to exactly the segments whose text holds it, whether the
      /// phrases are sought through the text (one by one or in one pass) or through the
      /// trigrams of a prepared thread.
      #[test]
      fn phrases_count_in_the_segments_that_hold_them(text in text().prop_map(|t| format!("{t}\n\n{t}")), phrases in proptest::collection::vec((0usize..WORDS.len(), 0usize..WORDS.len(), 1usize..12), 0..2 * ONE_BY_ONE)) {
        let mut segments = Vec::new();
        crate::core::segment::segment(&text, 0, 0, crate::core::segment::Granularity::Sentence, &mut segments, 0);
        let folded = fold(&text);
        let phrases: Vec<(String, f32)> = phrases
          .iter()
          .enumerate()
          .map(|(k, &(a, b, cut))| {
            // Whole words, and pieces (shorter than three bytes, or across a word's end).
            let phrase = format!("{} {}", WORDS[a], WORDS[b]);
            let phrase = if k % 2 == 0 { phrase } else { phrase.chars().skip(1).take(cut).collect() };
            (fold(&phrase), 1.0 + k as f32)
          })
          .collect();
        let naive: Vec<f32> = segments
          .iter()
          .map(|s| phrases.iter().filter(|(p, _)| folded[s.start..s.end].contains(p.as_str())).map(|(_, w)| w * 2.0).sum())
          .collect();
        let terms = Terms { phrases, ..Terms::of_task("") };
        prop_assert_eq!(phrase_bonuses(&folded, &segments, None, &[&terms]).remove(0), naive.clone());
        let same = crate::core::segment::repeats(&text, &segments);
        let trigrams = Trigrams::build(folded.as_bytes(), &segments, &same, &Cancel::new()).unwrap();
        prop_assert_eq!(phrase_bonuses(&folded, &segments, Some(&trigrams), &[&terms]).remove(0), naive);
      }
    }
  }
}
