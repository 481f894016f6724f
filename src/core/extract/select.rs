//! Choosing segments within the budget.

use std::ops::Range;

use rustc_hash::FxHashSet;

use super::code_block::best_lines;
use super::doc::{count, Doc};
use super::fit::{assemble, fit, Pieces};
use super::prepared::ScoredSets;
use super::score::{reference, score_all};
use super::{Counts, Extraction, Options, Reason, SegmentReport};
use crate::core::cancel::{Cancel, Cancelled};
use crate::core::ownership::{sibling_claims, CallOwnership};
use crate::core::parallel::{in_parallel, PARALLEL_BYTES};
use crate::core::relevance::{sections, Postings};
use crate::core::segment::Kind;
use crate::core::tokens::Counter;

/// Scores and selects segments of `doc` (`forced` ones first); also returns, per
/// segment, its score and whether a sibling claimed it.
pub(super) fn extract_doc(
  doc: &Doc,
  forced: &[bool],
  counts: Counts,
  postings: Option<(&Postings, &ScoredSets)>,
  task: &str,
  options: &Options,
  cancel: &Cancel,
) -> Result<(Extraction, Vec<(f32, bool)>), Cancelled> {
  let score = || score_all(doc, postings, task, options, cancel);
  let counted;
  let (counted, scores) = match counts {
    Counts::Known(c) => (c, score()?),
    // Counting runs on one thread beside indexing and scoring on the other: two
    // threads for two cores.
    Counts::Count(whole) => {
      let (c, scored) = in_parallel(
        doc.text.len() >= PARALLEL_BYTES,
        || count(doc, whole, options.encoding, cancel),
        score,
      );
      counted = c?;
      (&counted, scored?)
    }
  };
  let (text, segments) = (&*doc.text, doc.segments.as_slice());
  let mut counter = Counter::new(options.encoding);
  let original_tokens = counted.whole;
  let (own, evidence) = (scores.own(), &scores.evidence);
  let threshold = options.min_relevance.clamp(0.0, 1.0) * reference(own, &sections(segments).0);
  let mut sibling = sibling_claims(evidence);
  // Read only when needed: with siblings, or when the budget is tight.
  let calls = std::cell::OnceCell::new();
  let calls = || {
    calls.get_or_init(|| {
      let tasks: Vec<&str> = std::iter::once(task)
        .chain(options.sibling_tasks.iter().map(String::as_str))
        .collect();
      CallOwnership::of(text, segments, &doc.companion, &tasks, evidence)
    })
  };
  if evidence.len() > 1 {
    calls().claim_units(&doc.companion, &mut sibling);
  }
  let mut reports: Vec<SegmentReport> = Vec::with_capacity(segments.len());
  let mut candidates = Vec::new();
  let mut claimed = Vec::with_capacity(segments.len());
  for (i, seg) in segments.iter().enumerate() {
    let tokens = counted.segments[i];
    // Whose is it: the task with the most evidence for it, this one or a sibling, each
    // measured on its own scale (see `ownership`).
    let sibling = sibling[i];
    claimed.push((own[i], sibling));
    let dropped = if doc.internal[i] {
      Some(Reason::Internal)
    } else if forced[i] {
      candidates.push(i);
      Some(Reason::Budget)
    } else if sibling {
      Some(Reason::Sibling)
    } else if own[i] <= 0.0 || own[i] < threshold {
      Some(Reason::Irrelevant)
    } else {
      // A heading is kept only as the context of kept text, never on its own.
      if !matches!(seg.kind, Kind::Heading | Kind::Role) {
        candidates.push(i);
      }
      Some(Reason::Budget)
    };
    reports.push(SegmentReport {
      score: own[i],
      tokens,
      dropped,
    });
  }
  cancel.check()?;
  // A tool call on a file this task owns is a candidate too, as a section whose title
  // relevant text names is: the agent's own action on its own file, though its line
  // shares few words with the task statement (`cd`, a path, a diff). Only with siblings:
  // without them, there is no one else the file could be.
  if evidence.len() > 1 {
    let calls = calls();
    for &c in &calls.lines {
      if calls.lifted(c) && reports[c].dropped == Some(Reason::Irrelevant) && !forced[c] {
        reports[c].dropped = Some(Reason::Budget);
        candidates.push(c);
      }
    }
  }

  best_first(&mut candidates, forced, own);
  let budget = options.max_tokens.unwrap_or(usize::MAX);
  let elision_cost = counter.count(&options.elision);
  let mut kept = vec![false; segments.len()];
  let mut used = 0usize;
  let take = |i: usize, kept: &mut Vec<bool>, used: &mut usize| -> bool {
    if kept[i] {
      return true;
    }
    let adjacent = (i > 0 && kept[i - 1]) || (i + 1 < kept.len() && kept[i + 1]);
    let cost = reports[i].tokens + if adjacent { 1 } else { elision_cost };
    if *used + cost > budget {
      return false;
    }
    *used += cost;
    kept[i] = true;
    true
  };
  // What is forced (system, recent) keeps its room.
  let reserve: usize = candidates
    .iter()
    .filter(|&&i| forced[i])
    .map(|&i| reports[i].tokens + elision_cost)
    .sum();
  let room = |i: usize, used: usize| used + reports[i].tokens + elision_cost + reserve <= budget;
  // With siblings, each file this task owns is named first, by the cheapest line of a
  // call on it that this task owns (by its unit, though the line alone may match a
  // sibling better): the subagent learns what its task works on, however the rest of the
  // budget is spent.
  if evidence.len() > 1 {
    for c in calls().naming_lines(|c| reports[c].tokens) {
      if !doc.internal[c] && !forced[c] && room(c, used) {
        take(c, &mut kept, &mut used);
      }
    }
  }
  // As for whole messages (`select_messages`): when the budget is tight, the tool-call
  // lines that name a file no kept call line names yet come first, best first.
  let wanted: usize = candidates
    .iter()
    .filter(|&&i| !forced[i])
    .map(|&i| reports[i].tokens)
    .sum();
  if wanted > budget {
    // A call whose unit (the line with its result) a sibling claims is not this task's
    // to name.
    let calls = calls();
    let mut call = vec![false; segments.len()];
    for &c in &calls.lines {
      call[c] = !calls.claimed(c);
    }
    let mut named: FxHashSet<&str> = FxHashSet::default();
    for &i in &candidates {
      if call[i] && !forced[i] {
        let files = calls.files(i);
        if room(i, used) && files.iter().any(|f| !named.contains(f)) && take(i, &mut kept, &mut used) {
          named.extend(files);
        }
      }
    }
  }
  // Agent threads repeat themselves (the same test output after every attempt): a
  // segment whose text is already kept adds nothing.
  let mut seen = vec![false; segments.len()];
  let mut repeated = vec![false; segments.len()];
  let mut cut: Option<(usize, Range<usize>)> = None;
  for &i in &candidates {
    if !forced[i] {
      let first = doc.same[i] as usize;
      if seen[first] {
        repeated[i] = true;
        continue;
      }
      seen[first] = true;
    }
    // A tool result comes with its call line, or not at all.
    if let Some(call) = doc.companion[i] {
      if !kept[call] && !take(call, &mut kept, &mut used) {
        continue;
      }
    }
    // A code block that alone exceeds the budget is cut to its most relevant lines
    // that the room left holds (one block an extraction).
    let taken = take(i, &mut kept, &mut used)
      || (cut.is_none() && segments[i].kind == Kind::Code && reports[i].tokens > budget && {
        let room = budget.saturating_sub(used + 2 * elision_cost);
        let block = segments[i].start..segments[i].end;
        match best_lines(text, block, scores.terms(), room, &mut counter) {
          Some((lines, tokens)) => {
            cut = Some((i, lines));
            kept[i] = true;
            used += tokens + 2 * elision_cost;
            true
          }
          None => false,
        }
      });
    if taken {
      // The heading of a kept section comes along when it fits: it says where the text is from.
      if let Some(h) = segments[i].heading {
        if reports[h].dropped != Some(Reason::Sibling) && !doc.internal[h] {
          take(h, &mut kept, &mut used);
        }
      }
    }
  }

  // Assemble and count exactly; if the joins cost more than estimated, drop the least
  // relevant piece until the result fits.
  let pieces = Pieces { text, segments, cut };
  let extracted_tokens = fit(&pieces, &mut kept, own, budget, &options.elision, &mut counter);
  let result = assemble(&pieces, &kept, &options.elision);
  for (i, r) in reports.iter_mut().enumerate() {
    if kept[i] {
      r.dropped = None;
    } else if repeated[i] {
      r.dropped = Some(Reason::Irrelevant);
    } else if r.dropped.is_none() {
      r.dropped = Some(Reason::Budget);
    }
  }
  let keywords = scores.scored.index.keywords(scores.terms());
  let extraction = Extraction {
    text: result,
    keywords,
    segments: reports,
    original_tokens,
    extracted_tokens,
    messages: None,
  };
  Ok((extraction, claimed))
}

/// Orders `candidates` forced first, then best first; ties in original order, so the
/// result is deterministic. Each is sorted by one key that packs all three, not through
/// the `forced` and `own` arrays: comparisons that read scattered entries of two
/// segment-long arrays cost more the longer the thread (282,000 candidates on a 4 M-token
/// thread: about 17 ms of CPU that way, 10 ms this way).
pub(super) fn best_first(candidates: &mut [usize], forced: &[bool], own: &[f32]) {
  let mut keys: Vec<(u64, usize)> = candidates
    .iter()
    .map(|&i| {
      (
        (u64::from(!forced[i]) << 32) | u64::from(!ordered_bits(own[i])),
        i,
      )
    })
    .collect();
  // Keys are distinct (each holds its index), so an unstable sort gives the one order.
  keys.sort_unstable();
  for (c, (_, i)) in candidates.iter_mut().zip(keys) {
    *c = i;
  }
}

/// The bits of `x` as an unsigned number in the order of `f32::total_cmp`.
fn ordered_bits(x: f32) -> u32 {
  let b = x.to_bits();
  if b >> 31 == 1 {
    !b
  } else {
    b | 1 << 31
  }
}
