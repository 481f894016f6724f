//! The kept pieces assembled in order and counted exactly, the least relevant dropped
//! until the whole fits.

use std::ops::Range;

use rustc_hash::FxHashMap;

use crate::core::segment::Segment;
use crate::core::tokens::Counter;

/// Drops kept segments, the least relevant first (of equals, the last), until what
/// `assemble` makes of them fits `budget`, and returns its exact count.
///
/// Each round counts the result in parts, cut where its pieces split (a join that ends
/// a line before the next segment: `Counter::separable`), and a part is counted only
/// the first time it is met: a drop changes the one or two parts around it, and a long
/// result may need dozens of drops. A part is known by its first and last segment, how
/// many segments it holds and what follows the last; segments only go, so that names
/// one text.
pub(super) fn fit(
  pieces: &Pieces,
  kept: &mut [bool],
  own: &[f32],
  budget: usize,
  elision: &str,
  counter: &mut Counter,
) -> usize {
  let mut live: Vec<usize> = (0..kept.len()).filter(|&i| kept[i]).collect();
  let mut order = live.clone();
  order.sort_by(|&a, &b| own[a].total_cmp(&own[b]).then(b.cmp(&a)));
  let mut parts: FxHashMap<(usize, usize, usize, u8), usize> = FxHashMap::default();
  let mut part = String::new();
  let seg = |i: usize| pieces.text_of(i);
  // What follows segment `i` when `next` is kept after it, and which kind of join it is.
  let join = |i: usize, next: Option<&usize>| match next.map(|&k| pieces.between(i, k)) {
    None => ("", 0u8),
    Some(Some(gap)) => (gap, 1),
    Some(None) => (elision, 2),
  };
  let mut dropped = order.iter();
  loop {
    let mut total = 0;
    let mut first = 0;
    for j in 0..live.len() {
      let i = live[j];
      let (after, kind) = join(i, live.get(j + 1));
      let ends = live
        .get(j + 1)
        .is_none_or(|&k| counter.separable(if after.is_empty() { seg(i) } else { after }, seg(k)));
      if !ends {
        continue;
      }
      let key = (live[first], i, j + 1 - first, kind);
      total += match parts.get(&key) {
        Some(&n) => n,
        None => {
          part.clear();
          for m in first..=j {
            part.push_str(seg(live[m]));
            part.push_str(join(live[m], live.get(m + 1)).0);
          }
          let n = counter.count(&part);
          parts.insert(key, n);
          n
        }
      };
      first = j + 1;
    }
    debug_assert_eq!(total, counter.count(&assemble(pieces, kept, elision)));
    let Some(&worst) = dropped.next().filter(|_| total > budget) else {
      return total;
    };
    kept[worst] = false;
    if let Ok(k) = live.binary_search(&worst) {
      live.remove(k);
    }
  }
}

/// What the kept text is made of: the segments, one of which may be cut (a code block
/// larger than the budget, to its most relevant lines: `cut::best_lines`).
pub(super) struct Pieces<'a> {
  pub text: &'a str,
  pub segments: &'a [Segment],
  pub cut: Option<(usize, Range<usize>)>,
}

impl Pieces<'_> {
  fn text_of(&self, i: usize) -> &str {
    match &self.cut {
      Some((c, lines)) if *c == i => &self.text[lines.clone()],
      _ => &self.text[self.segments[i].start..self.segments[i].end],
    }
  }

  /// The source text between kept segments `i` and `k` (`k` after `i`) when nothing of
  /// the source lies between them; `None` when something does (an elision).
  fn between(&self, i: usize, k: usize) -> Option<&str> {
    let whole = |j: usize| self.cut.as_ref().is_none_or(|(c, _)| *c != j);
    (k == i + 1 && whole(i) && whole(k)).then(|| &self.text[self.segments[i].end..self.segments[k].start])
  }
}

/// The kept segments in original order: adjacent ones joined by the source text
/// between them, others by `elision`.
pub(super) fn assemble(pieces: &Pieces, kept: &[bool], elision: &str) -> String {
  let mut out = String::new();
  let mut last: Option<usize> = None;
  for i in (0..kept.len()).filter(|&i| kept[i]) {
    if let Some(l) = last {
      out.push_str(pieces.between(l, i).unwrap_or(elision));
    }
    out.push_str(pieces.text_of(i));
    last = Some(i);
  }
  out
}
