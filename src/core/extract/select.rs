//! Choosing segments within the budget, in named steps (`extract_doc`): score, classify,
//! lift owned calls, order best first, name owned files, name each file once when the
//! budget is tight, fill, finish.

use std::cell::OnceCell;
use std::ops::Range;

use rustc_hash::FxHashSet;

use super::code_block::best_lines;
use super::doc::{count, Doc};
use super::fit::{assemble, fit, Pieces};
use super::prepared::ScoredSets;
use super::score::{reference, score_all, TaskScores};
use super::{Counts, Extraction, Options, Reason, SegmentReport};
use crate::core::cancel::{Cancel, Cancelled};
use crate::core::ownership::{sibling_claims, CallOwnership};
use crate::core::parallel::{in_parallel, PARALLEL_BYTES};
use crate::core::relevance::weights::MIN_QUOTE_BYTES;
use crate::core::relevance::{asks_for_nothing, fold_ascii, sections, Leads, Postings};
use crate::core::segment::Kind;
use crate::core::tokens::Counter;

/// What joining a segment to the kept one beside it is estimated to cost: the source
/// text between them, a line break or a space, is about one token (`fit` counts exactly).
const JOIN_TOKENS: usize = 1;
/// A cut code block has an elision before and after it.
const CUT_ELISIONS: usize = 2;

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
  let read;
  let leads = match postings {
    Some((_, sets)) => &sets.leads,
    None => {
      read = Leads::new(&doc.segments);
      &read
    }
  };
  let score = || score_all(doc, postings, leads, task, options, cancel);
  let counted;
  let (counted, scores) = match counts {
    Counts::Known(c) => (c, score()?),
    // Indexing and scoring run on one thread. On the other, the leads scoring will ask
    // for are read ahead (with one thread, scoring reads only those it asks for), then
    // every segment is counted: two threads for two cores.
    Counts::Count(whole) => {
      let parallel = doc.text.len() >= PARALLEL_BYTES;
      let (c, scored) = in_parallel(
        parallel,
        || {
          if parallel {
            leads.read_ahead(&doc.text, &doc.segments, cancel);
          }
          count(doc, whole, options.encoding, cancel)
        },
        score,
      );
      counted = c?;
      (&counted, scored?)
    }
  };
  let (text, segments) = (&*doc.text, doc.segments.as_slice());
  let mut counter = Counter::new(options.encoding);
  let (own, evidence) = (scores.own(), &scores.evidence);
  let siblings = evidence.len() > 1;
  let threshold = options.min_relevance.clamp(0.0, 1.0) * reference(own, &sections(segments).0, scores.top());
  let mut sibling = sibling_claims(evidence);
  // Read only when needed: with siblings, or when the budget is tight.
  let calls = OnceCell::new();
  let calls = || {
    calls.get_or_init(|| {
      let tasks: Vec<&str> = std::iter::once(task)
        .chain(options.sibling_tasks.iter().map(String::as_str))
        .collect();
      CallOwnership::of(text, segments, &doc.companion, &tasks, evidence)
    })
  };
  if siblings {
    calls().claim_units(&doc.companion, &mut sibling);
  }
  let (mut reports, mut candidates) =
    classify(doc, forced, own, &sibling, threshold, &counted.segments, task);
  cancel.check()?;
  if siblings {
    lift_owned_calls(calls(), forced, &mut reports, &mut candidates);
  }
  best_first(&mut candidates, forced, own);
  let mut budget = Budget::new(options, &counted.segments, &candidates, forced, &mut counter);
  if siblings {
    name_owned_files(calls(), doc, forced, &mut budget);
  }
  if budget.tight(&candidates, forced) {
    // A call whose unit (the line with its result) a sibling claims is not this task's
    // to name.
    let calls = calls();
    let mut call = vec![false; segments.len()];
    for &c in &calls.lines {
      call[c] = !calls.claimed(c);
    }
    let naming = candidates.iter().copied().filter(|&i| call[i] && !forced[i]);
    name_each_file_once(
      naming,
      |i| calls.files(i),
      &mut FxHashSet::default(),
      |i| budget.take_if_room(i),
    );
  }
  let filled = fill(
    doc,
    &candidates,
    forced,
    &reports,
    &scores,
    &mut budget,
    &mut counter,
    &options.elision,
  );
  Ok(finish(
    doc,
    reports,
    budget,
    filled,
    &scores,
    sibling,
    options,
    counted.whole,
    &mut counter,
  ))
}

/// Why each segment would be dropped, and the candidates for keeping: what is forced
/// (system, recent), and what is relevant and not a sibling's, headings aside.
fn classify(
  doc: &Doc,
  forced: &[bool],
  own: &[f32],
  sibling: &[bool],
  threshold: f32,
  tokens: &[usize],
  task: &str,
) -> (Vec<SegmentReport>, Vec<usize>) {
  let mut candidates = Vec::new();
  let says_the_task = messages_that_say_the_task(doc, task);
  let reports = (doc.segments.iter().enumerate())
    .map(|(i, seg)| {
      // Whose is it: the task with the most evidence for it, this one or a sibling, each
      // measured on its own scale (see `ownership`).
      let dropped = if doc.internal[i] {
        Reason::Internal
      } else if forced[i] {
        candidates.push(i);
        Reason::Budget
      } else if sibling[i] {
        Reason::Sibling
      } else if own[i] <= 0.0 || own[i] < threshold || says_the_task[seg.message] {
        Reason::Irrelevant
      } else {
        // A heading is kept only as the context of kept text, never on its own; so is a
        // call that asks for nothing (`next_page {"page": 2}`), which says nothing without
        // its result, and comes with it (`fill`).
        let context = match seg.kind {
          Kind::Heading | Kind::Role => true,
          Kind::Call => asks_for_nothing(&doc.text[seg.start..seg.end]),
          _ => false,
        };
        if !context {
          candidates.push(i);
        }
        Reason::Budget
      };
      SegmentReport {
        score: own[i],
        tokens: tokens[i],
        dropped: Some(dropped),
      }
    })
    .collect();
  (reports, candidates)
}

/// Per message: whether it says nothing but the task (the request that set it, as it is,
/// every sentence found in the task): it tells the subagent nothing its task does not,
/// and spends no budget. A message that says more is read whole, its quote of the task
/// with it (the plan around a task's line, the repository an issue is about).
fn messages_that_say_the_task(doc: &Doc, task: &str) -> Vec<bool> {
  let messages = doc.segments.last().map_or(0, |s| s.message + 1);
  let task = fold_ascii(task);
  let mut only_task = vec![true; messages];
  let mut said = vec![0usize; messages];
  for seg in doc.segments.iter().filter(|s| s.kind != Kind::Role) {
    // A message is read on only while every sentence so far is found in the task.
    if !only_task[seg.message] {
      continue;
    }
    let line = doc.text[seg.start..seg.end]
      .trim()
      .trim_end_matches(['.', '?', '!', ':', ';']);
    only_task[seg.message] = matches!(seg.kind, Kind::Text | Kind::Item)
      && line.len() <= task.len()
      && task.contains(&fold_ascii(line));
    said[seg.message] += line.len();
  }
  only_task
    .into_iter()
    .zip(said)
    .map(|(only, said)| only && said >= MIN_QUOTE_BYTES)
    .collect()
}

/// A tool call on a file this task owns is a candidate too, as a section whose title
/// relevant text names is: the agent's own action on its own file, though its line
/// shares few words with the task statement (`cd`, a path, a diff). Only with siblings:
/// without them, there is no one else the file could be.
fn lift_owned_calls(
  calls: &CallOwnership,
  forced: &[bool],
  reports: &mut [SegmentReport],
  candidates: &mut Vec<usize>,
) {
  for &c in &calls.lines {
    if calls.lifted(c) && reports[c].dropped == Some(Reason::Irrelevant) && !forced[c] {
      reports[c].dropped = Some(Reason::Budget);
      candidates.push(c);
    }
  }
}

/// With siblings, each file this task owns is named first, by the cheapest line of a
/// call on it that this task owns (by its unit, though the line alone may match a
/// sibling better): the subagent learns what its task works on, however the rest of the
/// budget is spent.
fn name_owned_files(calls: &CallOwnership, doc: &Doc, forced: &[bool], budget: &mut Budget) {
  for c in calls.naming_lines(|c| budget.tokens[c]) {
    if !doc.internal[c] && !forced[c] {
      budget.take_if_room(c);
    }
  }
}

/// On a tight budget the best units alone would spend it on one file: an agent reads,
/// greps, edits and tests the file at the centre of its task again and again, and every
/// round scores high. So first, in the order given (best first), each unit whose tool
/// calls name a file (`files`) that no unit taken yet names, while `take` takes it; then
/// the caller goes on by score. Used for segments (`extract_doc`) and whole messages
/// (`select_messages`).
pub(super) fn name_each_file_once<'a, 'f>(
  order: impl IntoIterator<Item = usize>,
  files: impl Fn(usize) -> &'f [&'a str],
  named: &mut FxHashSet<&'a str>,
  mut take: impl FnMut(usize) -> bool,
) where
  'a: 'f,
{
  for u in order {
    let files = files(u);
    if files.iter().any(|f| !named.contains(f)) && take(u) {
      named.extend(files.iter().copied());
    }
  }
}

/// The budget as it is spent: what is kept, what it cost, and the room that forced
/// segments (system, recent) keep for themselves.
struct Budget<'t> {
  cap: usize,
  used: usize,
  kept: Vec<bool>,
  /// Per segment: its tokens.
  tokens: &'t [usize],
  /// What the elision between two pieces that were not adjacent costs.
  elision: usize,
  /// The room forced segments keep.
  reserve: usize,
  /// Headings of kept text that cost more than it: offered once every candidate has been.
  waiting: Vec<usize>,
}

impl<'t> Budget<'t> {
  fn new(
    options: &Options,
    tokens: &'t [usize],
    candidates: &[usize],
    forced: &[bool],
    counter: &mut Counter,
  ) -> Self {
    let elision = counter.count(&options.elision);
    Self {
      cap: options.max_tokens.unwrap_or(usize::MAX),
      used: 0,
      kept: vec![false; tokens.len()],
      tokens,
      elision,
      reserve: candidates
        .iter()
        .filter(|&&i| forced[i])
        .map(|&i| tokens[i] + elision)
        .sum(),
      waiting: Vec::new(),
    }
  }

  /// Whether the budget cannot hold every candidate that is not forced.
  fn tight(&self, candidates: &[usize], forced: &[bool]) -> bool {
    let wanted: usize = candidates
      .iter()
      .filter(|&&i| !forced[i])
      .map(|&i| self.tokens[i])
      .sum();
    wanted > self.cap
  }

  /// Keeps segment `i` if what it adds fits (it is kept already: `true`).
  fn take(&mut self, i: usize) -> bool {
    if self.kept[i] {
      return true;
    }
    let adjacent = (i > 0 && self.kept[i - 1]) || (i + 1 < self.kept.len() && self.kept[i + 1]);
    // The first piece stands alone: no elision comes before or after it.
    let join = if self.used == 0 {
      0
    } else if adjacent {
      JOIN_TOKENS
    } else {
      self.elision
    };
    let cost = self.tokens[i] + join;
    if self.used + cost > self.cap {
      return false;
    }
    self.used += cost;
    self.kept[i] = true;
    true
  }

  /// Takes heading `h` of kept segment `i` when it fits and costs no more than `i`; one that
  /// costs more (a mail's header block over a sentence, a JSON record's envelope) waits
  /// until every candidate has been offered, so that it takes no relevant text's place.
  fn heading(&mut self, h: usize, i: usize) {
    if self.tokens[h] <= self.tokens[i] {
      self.take(h);
    } else if !self.kept[h] {
      self.waiting.push(h);
    }
  }

  /// `take`, only while the room forced segments keep stays free.
  fn take_if_room(&mut self, i: usize) -> bool {
    self.used + self.tokens[i] + self.elision + self.reserve <= self.cap && self.take(i)
  }

  /// Keeps a code block cut to its most relevant lines that the room left holds.
  fn take_cut(
    &mut self,
    i: usize,
    doc: &Doc,
    scores: &TaskScores,
    counter: &mut Counter,
  ) -> Option<Range<usize>> {
    let room = self.cap.saturating_sub(self.used + CUT_ELISIONS * self.elision);
    let block = doc.segments[i].start..doc.segments[i].end;
    let (lines, tokens) = best_lines(&doc.text, block, scores.terms(), room, counter)?;
    self.kept[i] = true;
    self.used += tokens + CUT_ELISIONS * self.elision;
    Some(lines)
  }
}

/// What filling left besides the kept segments: which were repeats of kept text, and the
/// code block cut, if one was.
struct Filled {
  repeated: Vec<bool>,
  cut: Option<(usize, Range<usize>)>,
}

/// Takes the candidates best first while they fit: a tool result with its call line or
/// not at all, a kept segment's heading along when it fits (one dearer than the segment
/// once every candidate has been offered: `Budget::heading`), a repeat of kept text never,
/// and a code block that alone exceeds the budget cut to its best lines (one a call).
/// Each join is estimated in full (a space before a sentence is most often no token of
/// its own), so what is kept is then counted exactly and the candidates passed over are
/// offered the room that is left.
#[allow(clippy::too_many_arguments)]
fn fill(
  doc: &Doc,
  candidates: &[usize],
  forced: &[bool],
  reports: &[SegmentReport],
  scores: &TaskScores,
  budget: &mut Budget,
  counter: &mut Counter,
  elision: &str,
) -> Filled {
  let segments = &doc.segments;
  // Agent threads repeat themselves (the same test output after every attempt): a
  // segment whose text is already kept adds nothing.
  let mut seen = vec![false; segments.len()];
  let mut repeated = vec![false; segments.len()];
  let mut cut: Option<(usize, Range<usize>)> = None;
  // The candidates the budget turned away, offered again once what is kept is counted.
  let mut turned_away = Vec::new();
  for &i in candidates {
    if !forced[i] {
      let first = doc.same[i] as usize;
      if seen[first] {
        repeated[i] = true;
        continue;
      }
      seen[first] = true;
    }
    if !offer(i, doc, reports, scores, budget, counter, &mut cut) {
      turned_away.push(i);
    }
  }
  // Only when a candidate turned away could fit the room the estimates may have left
  // (at most an elision marker for each piece kept) is there anything to count again.
  let pieces_kept = budget.kept.iter().filter(|&&k| k).count();
  let room = (budget.cap - budget.used).saturating_add(pieces_kept * budget.elision);
  if turned_away.iter().any(|&i| budget.tokens[i] <= room) {
    let pieces = Pieces {
      text: &doc.text,
      segments,
      cut: cut.clone(),
    };
    let exact = counter.count(&assemble(&pieces, &budget.kept, elision));
    if exact < budget.used {
      budget.used = exact;
      for &i in &turned_away {
        offer(i, doc, reports, scores, budget, counter, &mut cut);
      }
    }
  }
  for h in std::mem::take(&mut budget.waiting) {
    budget.take(h);
  }
  Filled { repeated, cut }
}

/// Offers candidate `i` to the budget (see `fill`); whether it was taken.
fn offer(
  i: usize,
  doc: &Doc,
  reports: &[SegmentReport],
  scores: &TaskScores,
  budget: &mut Budget,
  counter: &mut Counter,
  cut: &mut Option<(usize, Range<usize>)>,
) -> bool {
  let segments = &doc.segments;
  // A result comes with its call line; a call line taken for a result that then does
  // not fit is given back (it is a candidate of its own where it says something).
  let before = budget.used;
  let call = doc.companion[i].filter(|&c| !budget.kept[c]);
  if call.is_some_and(|c| !budget.take(c)) {
    return false;
  }
  let taken = budget.take(i)
    || (cut.is_none()
      && segments[i].kind == Kind::Code
      && reports[i].tokens > budget.cap
      && budget
        .take_cut(i, doc, scores, counter)
        .map(|lines| *cut = Some((i, lines)))
        .is_some());
  if let Some(c) = call.filter(|_| !taken) {
    budget.kept[c] = false;
    budget.used = before;
  }
  if taken {
    // The heading of a kept section comes along: it says where the text is from.
    if let Some(h) = segments[i].heading {
      if reports[h].dropped != Some(Reason::Sibling) && !doc.internal[h] {
        budget.heading(h, i);
      }
    }
    // So do the sources a kept citation points to.
    for &d in doc.sources.as_ref().map_or(&[][..], |s| &s.cites[i]) {
      if reports[d].dropped != Some(Reason::Sibling) && !doc.internal[d] {
        budget.take(d);
      }
    }
  }
  taken
}

/// Assembles what is kept and counts it exactly (if the joins cost more than estimated,
/// the least relevant pieces go until it fits), and reports why each segment went.
#[allow(clippy::too_many_arguments)]
fn finish(
  doc: &Doc,
  mut reports: Vec<SegmentReport>,
  budget: Budget,
  filled: Filled,
  scores: &TaskScores,
  sibling: Vec<bool>,
  options: &Options,
  original_tokens: usize,
  counter: &mut Counter,
) -> (Extraction, Vec<(f32, bool)>) {
  let own = scores.own();
  let Budget { mut kept, cap, .. } = budget;
  let pieces = Pieces {
    text: &doc.text,
    segments: &doc.segments,
    cut: filled.cut,
  };
  let extracted_tokens = fit(&pieces, &mut kept, own, cap, &options.elision, counter);
  let text = assemble(&pieces, &kept, &options.elision);
  for (i, r) in reports.iter_mut().enumerate() {
    if kept[i] {
      r.dropped = None;
    } else if filled.repeated[i] {
      r.dropped = Some(Reason::Irrelevant);
    } else if r.dropped.is_none() {
      r.dropped = Some(Reason::Budget);
    }
  }
  let claimed = own.iter().copied().zip(sibling).collect();
  let extraction = Extraction {
    text,
    keywords: scores.scored.index.keywords(scores.terms()),
    segments: reports,
    original_tokens,
    extracted_tokens,
    messages: None,
  };
  (extraction, claimed)
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
