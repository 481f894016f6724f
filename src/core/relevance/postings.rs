//! Every word form of every segment of one text, indexed once for many tasks, and the
//! trigrams that find a phrase's segments without reading the whole text.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::index::{average, fold_ascii, idfs, vocabulary, Index};
use super::weights::TRIGRAMS_CHECKED;
use crate::core::cancel::{Cancel, Cancelled, SEGMENTS_PER_CHECK};
use crate::core::segment::Segment;
use crate::core::terms::{for_each_form, words, Terms};

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

impl Trigrams {
  pub(super) fn build(
    folded: &[u8],
    segments: &[Segment],
    same: &[u32],
    cancel: &Cancel,
  ) -> Result<Self, Cancelled> {
    let mut ids: FxHashMap<u32, u32> = FxHashMap::default();
    // Per trigram: the last segment it was met in (+1).
    let mut last: Vec<u32> = Vec::new();
    // (trigram, segment) for each segment's distinct trigrams, segment after segment.
    let mut met: Vec<(u32, u32)> = Vec::new();
    for (i, s) in segments.iter().enumerate() {
      if i % SEGMENTS_PER_CHECK == 0 {
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
  pub(super) fn holders(&self, folded: &[u8], segments: &[Segment], phrase: &[u8]) -> Vec<u32> {
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
      if i % SEGMENTS_PER_CHECK == 0 {
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
    let folded: Arc<str> = fold_ascii(text).into();
    Ok(Self {
      vocabulary,
      lists,
      len,
      trigrams: Trigrams::build(folded.as_bytes(), segments, same, cancel)?,
      folded,
    })
  }

  /// The text, case-folded as `fold_ascii` does.
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
      idf: idfs(&df, self.len.len()),
      df,
      folded: Arc::clone(&self.folded),
      avg_len: average(&self.len),
    }
  }
}
