//! Groups of segments scored as one bag of words: sections and blocks.

use super::index::Index;
use crate::core::segment::{Kind, Segment};

/// Section of each segment: a heading, role line or tool call opens one, and a segment
/// is in the section of its heading (a tool result's heading is its call, wherever the
/// call stands); text before any heading forms one section per block. Returns the
/// section ids and their number.
pub fn sections(segments: &[Segment]) -> (Vec<usize>, usize) {
  let mut ids: Vec<usize> = Vec::with_capacity(segments.len());
  let mut count = 0;
  let mut last_block = usize::MAX;
  for (i, s) in segments.iter().enumerate() {
    let id = match s.heading.filter(|&h| h < i && is_section_start(segments[h].kind)) {
      _ if is_section_start(s.kind) => None,
      Some(h) => Some(ids[h]),
      None if count == 0 || (s.heading.is_none() && s.block != last_block) => None,
      None => Some(count - 1),
    };
    ids.push(id.unwrap_or_else(|| {
      count += 1;
      count - 1
    }));
    last_block = s.block;
  }
  (ids, count.max(1))
}

/// Units of relevance: the sections, each cut at its blocks. A section of one block (or
/// one list) is one unit, its start (heading, role line, tool call) with it; in a section
/// of several, the start and every block is a unit of its own, but for the items of one
/// list, which stay together. A heading over several paragraphs, a message of several
/// paragraphs, a tool result that holds several documents are read paragraph by
/// paragraph, as paragraphs without a heading are. A block that is a title alone
/// (`titles`, per block: `Ed Wood` over a pasted article) is one unit with the block after
/// it, as a heading is with its text; a block that goes on with the document before it
/// (`continues`, per block: a page's paragraph that names nothing of its own) is one unit
/// with it, as the paragraphs of a document of one block are.
/// Returns the unit of each segment, the number of units, and the section of each unit.
pub fn units(
  segments: &[Segment],
  section_of: &[usize],
  sections: usize,
  titles: &[bool],
  continues: &[bool],
) -> (Vec<usize>, usize, Vec<usize>) {
  let mut ids = Vec::with_capacity(segments.len());
  let mut section = Vec::new();
  // Per section: its current unit, that unit's last block (`None` right after the
  // section's start), and whether that block is a list item.
  let mut open: Vec<Option<(usize, Option<usize>, bool)>> = vec![None; sections];
  let records = record_items(segments, section_of);
  for (i, s) in segments.iter().enumerate() {
    let k = section_of[i];
    let item = s.kind == Kind::Item && !records[s.block];
    let unit = match open[k] {
      Some((unit, Some(block), _)) if block == s.block => unit,
      // The section's first block, or the next item of a list: the same unit.
      Some((unit, None, _)) if !is_section_start(s.kind) => {
        open[k] = Some((unit, Some(s.block), item));
        unit
      }
      Some((unit, Some(_), true)) if item => {
        open[k] = Some((unit, Some(s.block), true));
        unit
      }
      Some((unit, Some(last), after_item))
        if (!after_item && titles.get(last) == Some(&true) || continues.get(s.block) == Some(&true))
          && !is_section_start(s.kind) =>
      {
        open[k] = Some((unit, Some(s.block), item));
        unit
      }
      _ => {
        section.push(k);
        let unit = section.len() - 1;
        let block = (!is_section_start(s.kind)).then_some(s.block);
        open[k] = Some((unit, block, item));
        unit
      }
    };
    ids.push(unit);
  }
  // Over several units, the section's start is a unit of its own: a call that asks for
  // many documents names none of them more than the others.
  let mut units_in = vec![0usize; sections];
  for &k in &section {
    units_in[k] += 1;
  }
  let mut started = vec![false; sections];
  for (i, s) in segments.iter().enumerate() {
    let k = section_of[i];
    if is_section_start(s.kind) && units_in[k] > 1 && !started[k] {
      started[k] = true;
      section.push(k);
      ids[i] = section.len() - 1;
    }
  }
  // Numbered in the order they open.
  let mut number = vec![usize::MAX; section.len()];
  let mut ordered = Vec::with_capacity(section.len());
  for id in &mut ids {
    if number[*id] == usize::MAX {
      number[*id] = ordered.len();
      ordered.push(section[*id]);
    }
    *id = number[*id];
  }
  let count = ordered.len();
  (ids, count, ordered)
}

/// Per block, whether it is an item of a list of records: a list most of whose items are
/// cut into sentences (a title and its text, a document's summary), each a unit of its
/// own as a paragraph is. The items of any other list (a plan's steps, findings of a
/// sentence each) stay one unit together.
fn record_items(segments: &[Segment], section_of: &[usize]) -> Vec<bool> {
  let blocks = segments.last().map_or(0, |s| s.block + 1);
  let (mut item, mut cut, mut section) = (vec![false; blocks], vec![false; blocks], vec![0; blocks]);
  for (i, s) in segments.iter().enumerate() {
    match s.kind {
      Kind::Item => (item[s.block], section[s.block]) = (true, section_of[i]),
      Kind::Text => cut[s.block] = true,
      _ => {}
    }
  }
  let mut records = vec![false; blocks];
  let mut first = 0;
  while first < blocks {
    // A list: items in blocks one after the other, in one section.
    let mut end = first + 1;
    while item[first] && end < blocks && item[end] && section[end] == section[first] {
      end += 1;
    }
    let items_cut = (first..end).filter(|&b| item[b] && cut[b]).count();
    if items_cut * RECORDS_SHARE > end - first {
      records[first..end].fill(true);
    }
    first = end;
  }
  records
}

/// A list is one of records when more than 1/this of its items are cut into sentences:
/// most of them, as a short item is one sentence even in a list of records.
const RECORDS_SHARE: usize = 2;

/// The (term, frequency) pairs of each segment for the terms one query weighs: what its
/// scores are made of (an index shared with sibling tasks holds theirs too).
pub(super) struct QueryTerms {
  tf: Vec<(usize, u32)>,
  start: Vec<usize>,
}

impl QueryTerms {
  pub(super) fn new(index: &Index, weights: &[f32]) -> Self {
    let mut tf = Vec::new();
    let mut start = Vec::with_capacity(index.len.len() + 1);
    for i in 0..index.len.len() {
      start.push(tf.len());
      tf.extend(index.terms(i).iter().filter(|&&(t, _)| weights[t] != 0.0));
    }
    start.push(tf.len());
    Self { tf, start }
  }

  pub(super) fn of(&self, i: usize) -> &[(usize, u32)] {
    &self.tf[self.start[i]..self.start[i + 1]]
  }
}

/// Groups of segments taken as one bag of words: BM25 of each, and its bag.
pub(super) struct Groups {
  pub score: Vec<f32>,
  pub terms: Vec<Vec<(usize, u32)>>,
  pub len: Vec<u32>,
}

/// BM25 of groups of segments (blocks or sections) taken as one bag of words; segments
/// for which `include` is false are left out of the bag. `bm25` is each segment's own
/// BM25, `own` its score with the phrase bonus.
#[allow(clippy::too_many_arguments)]
pub(super) fn group_scores(
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

pub(super) fn is_section_start(kind: Kind) -> bool {
  matches!(kind, Kind::Heading | Kind::Role | Kind::Call)
}

#[cfg(test)]
mod tests {
  use super::*;

  fn seg(kind: Kind, block: usize, heading: Option<usize>) -> Segment {
    Segment {
      start: 0,
      end: 0,
      kind,
      block,
      heading,
      message: 0,
    }
  }

  #[test]
  fn a_segment_is_in_its_headings_section_wherever_the_heading_stands() {
    // Two calls, then both results: each result is in its own call's section.
    let segments = [
      seg(Kind::Role, 0, None),
      seg(Kind::Call, 1, Some(0)),
      seg(Kind::Call, 2, Some(0)),
      seg(Kind::Role, 3, None),
      seg(Kind::Text, 4, Some(1)),
      seg(Kind::Role, 5, None),
      seg(Kind::Text, 6, Some(2)),
    ];
    let (ids, count) = sections(&segments);
    assert_eq!(ids, [0, 1, 2, 3, 1, 4, 2]);
    assert_eq!(count, 5);
    // Without headings, a section per block.
    let plain = [
      seg(Kind::Text, 0, None),
      seg(Kind::Text, 0, None),
      seg(Kind::Text, 1, None),
    ];
    assert_eq!(sections(&plain), (vec![0, 0, 1], 2));
  }

  #[test]
  fn a_section_of_several_blocks_is_read_block_by_block() {
    // A heading over two paragraphs, then a heading over one; a call whose result
    // stands after another message and holds two blocks.
    let segments = [
      seg(Kind::Heading, 0, None),
      seg(Kind::Text, 1, Some(0)),
      seg(Kind::Text, 1, Some(0)),
      seg(Kind::Text, 2, Some(0)),
      seg(Kind::Heading, 3, None),
      seg(Kind::Text, 4, Some(4)),
      seg(Kind::Call, 5, None),
      seg(Kind::Role, 6, None),
      seg(Kind::Text, 7, Some(6)),
      seg(Kind::Text, 8, Some(6)),
      // A list under a heading: its items (of one sentence or two) are one unit.
      seg(Kind::Heading, 9, None),
      seg(Kind::Item, 10, Some(10)),
      seg(Kind::Text, 10, Some(10)),
      seg(Kind::Item, 11, Some(10)),
      seg(Kind::Text, 12, Some(10)),
    ];
    let (section_of, sections) = sections(&segments);
    assert_eq!(section_of, [0, 0, 0, 0, 1, 1, 2, 3, 2, 2, 4, 4, 4, 4, 4]);
    let (ids, count, section) = units(&segments, &section_of, sections, &[], &[]);
    // The heading over two paragraphs and the call over two blocks are units of their
    // own; the heading over one paragraph is one with it.
    assert_eq!(ids, [0, 1, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 9, 9, 10]);
    assert_eq!(count, 11);
    assert_eq!(section, [0, 0, 0, 1, 2, 3, 2, 2, 4, 4, 4]);
  }

  #[test]
  fn a_list_of_records_is_read_item_by_item() {
    // A message whose list's items are each a title and its text; then one whose list is
    // a plan of one line a step (one of them of two sentences).
    let segments = [
      seg(Kind::Role, 0, None),
      seg(Kind::Item, 1, Some(0)),
      seg(Kind::Text, 1, Some(0)),
      seg(Kind::Item, 2, Some(0)),
      seg(Kind::Text, 2, Some(0)),
      seg(Kind::Item, 3, Some(0)),
      seg(Kind::Role, 4, None),
      seg(Kind::Item, 5, Some(6)),
      seg(Kind::Item, 6, Some(6)),
      seg(Kind::Text, 6, Some(6)),
      seg(Kind::Item, 7, Some(6)),
    ];
    let (section_of, sections) = sections(&segments);
    let (ids, count, _) = units(&segments, &section_of, sections, &[], &[]);
    // The first message's items are units of their own, its role line another; the plan
    // is one unit with its role line.
    assert_eq!(ids, [0, 1, 1, 2, 2, 3, 4, 4, 4, 4, 4]);
    assert_eq!(count, 5);
  }
}
