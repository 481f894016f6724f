//! `extractRelevantContext`: the task-relevant slice of a long thread, within an
//! exact token budget, with nothing that belongs to a sibling task.
//!
//! 1. The input is cut into segments (`segment`), message by message.
//! 2. Every segment is scored against the task and against each sibling task
//!    (`relevance`). What scores below `min_relevance` of the reference (the best
//!    score outside the best section), or higher for a sibling than for this task (each
//!    on its own scale: `ownership`), is dropped. With siblings, a tool unit (a call with
//!    its result) is a sibling's whole when any of its segments is, and a tool call whose
//!    unit and file this task owns is a candidate, however few words its line shares
//!    with the task (`CallOwnership`).
//! 3. With siblings, each file this task owns is named first, by the cheapest line of
//!    its own calls on it. The rest is taken best first while the budget allows, with
//!    the heading of each kept section (a code block that alone exceeds the budget is
//!    cut to its most relevant lines that the room left holds: `cut`); the result is
//!    assembled in the original order, with the elision marker between pieces that were
//!    not adjacent, and counted exactly: if the join made it larger than the budget, the
//!    least relevant pieces go until it fits.
//! 4. For message input, whole messages are chosen the same way, tool-call units kept
//!    whole; when the budget is tight, each file the kept calls act on is named once
//!    before more rounds on one file are added (`select_messages`).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::core::cancel::{Cancel, Cancelled};
use crate::core::cut::best_lines;
use crate::core::message::{Message, Part, REPLY_PRIMER};
use crate::core::ownership::{claimed, owned, sibling_claims, Relative};
use crate::core::parallel::{in_parallel, PARALLEL_BYTES};
use crate::core::relevance::{fold, phrase_bonuses, scores_with, sections, Index, Postings};
use crate::core::sanitize::Sanitizer;
use crate::core::segment::{repeats, segment, Granularity, Kind, Segment};
use crate::core::terms::{is_identifier, normalize, words, Terms};
use crate::core::tokens::{Counter, Encoding};

/// Options of an extraction; see `Default` for the defaults.
#[derive(Clone, Debug)]
pub struct Options {
  /// A cap on the extracted tokens, never a target.
  pub max_tokens: Option<usize>,
  pub encoding: Encoding,
  /// 0..1, relative to the best segment outside the best one's section (see
  /// `reference`): below it nothing is kept.
  pub min_relevance: f32,
  /// Other tasks' texts: content that belongs to them more than to this task is dropped.
  pub sibling_tasks: Vec<String>,
  pub granularity: Granularity,
  /// Put between kept pieces that were not adjacent.
  pub elision: String,
  /// Keep system messages (message input only).
  pub keep_system: bool,
  /// Always keep the last N messages (message input only).
  pub keep_recent: usize,
}

impl Default for Options {
  fn default() -> Self {
    Self {
      max_tokens: None,
      encoding: Encoding::default(),
      min_relevance: DEFAULT_MIN_RELEVANCE,
      sibling_tasks: Vec::new(),
      granularity: Granularity::default(),
      elision: DEFAULT_ELISION.to_owned(),
      keep_system: true,
      keep_recent: 0,
    }
  }
}

pub const DEFAULT_MIN_RELEVANCE: f32 = 0.2;
pub const DEFAULT_ELISION: &str = "\n[…]\n";

/// Why a segment was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
  Irrelevant,
  Sibling,
  Budget,
  Internal,
}

impl Reason {
  pub fn name(self) -> &'static str {
    match self {
      Reason::Irrelevant => "irrelevant",
      Reason::Sibling => "sibling",
      Reason::Budget => "budget",
      Reason::Internal => "internal",
    }
  }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SegmentReport {
  pub score: f32,
  pub tokens: usize,
  /// `None` when kept.
  pub dropped: Option<Reason>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Extraction {
  pub text: String,
  pub keywords: Vec<String>,
  pub segments: Vec<SegmentReport>,
  pub original_tokens: usize,
  pub extracted_tokens: usize,
  /// For message input: the indices of the kept messages, in order, tool units whole.
  pub messages: Option<Vec<usize>>,
}

/// What selection works on: the text, its segments, and per segment whether it must
/// never be kept, which segment must come with it and which earlier one it repeats.
/// The text is borrowed when it is the caller's own (a one-shot extraction from a
/// string): a copy of a 4 M-token thread is 15 MB of fresh pages, for nothing.
struct Doc<'t> {
  text: Cow<'t, str>,
  segments: Vec<Segment>,
  /// Per segment: the first segment with the same text (`segment::repeats`).
  same: Vec<u32>,
  internal: Vec<bool>,
  /// A tool result's segments bring the line of the call that produced them.
  companion: Vec<Option<usize>>,
}

impl<'t> Doc<'t> {
  fn new(text: Cow<'t, str>, segments: Vec<Segment>) -> Self {
    let n = segments.len();
    Self {
      same: repeats(&text, &segments),
      text,
      segments,
      internal: vec![false; n],
      companion: vec![None; n],
    }
  }

  fn of_text(text: &'t str, granularity: Granularity) -> Self {
    // Segmenting and finding what is marked internal read the text apart.
    let sanitizer = Sanitizer::default();
    let (mut doc, (removals, _)) = in_parallel(
      text.len() >= PARALLEL_BYTES,
      || {
        let mut segments = Vec::new();
        segment(text, 0, 0, granularity, &mut segments, 0);
        Doc::new(Cow::Borrowed(text), segments)
      },
      || sanitizer.removals(text),
    );
    mark_removed(&mut doc, 0..text.len(), &removals);
    doc
  }

  /// The same document, owning its text.
  fn owned(self) -> Doc<'static> {
    Doc {
      text: Cow::Owned(self.text.into_owned()),
      segments: self.segments,
      same: self.same,
      internal: self.internal,
      companion: self.companion,
    }
  }
}

/// Token counts: every segment's, and the whole input's.
struct Counted {
  segments: Vec<usize>,
  whole: usize,
}

/// Counts every segment of `doc` (each distinct text once), and the whole text unless
/// its count is `whole`.
fn count(doc: &Doc, whole: Option<usize>, encoding: Encoding, cancel: &Cancel) -> Result<Counted, Cancelled> {
  let mut counter = Counter::new(encoding);
  let mut segments = Vec::with_capacity(doc.segments.len());
  for (i, seg) in doc.segments.iter().enumerate() {
    if i % 4096 == 0 {
      cancel.check()?;
    }
    let first = doc.same[i] as usize;
    let n = if first < i {
      segments[first]
    } else {
      counter.count(&doc.text[seg.start..seg.end])
    };
    segments.push(n);
  }
  let whole = match whole {
    Some(n) => n,
    None => counter.count_repetitive(&doc.text, cancel)?,
  };
  Ok(Counted { segments, whole })
}

/// Each message's tokens under the counting rule, and the list's (reply primer included).
fn count_messages(
  messages: &[Message],
  counter: &mut Counter,
  cancel: &Cancel,
) -> Result<(Vec<usize>, usize), Cancelled> {
  let mut tokens = Vec::with_capacity(messages.len());
  for (i, m) in messages.iter().enumerate() {
    if i % 256 == 0 {
      cancel.check()?;
    }
    tokens.push(m.tokens(counter));
  }
  let whole = if messages.is_empty() {
    0
  } else {
    REPLY_PRIMER + tokens.iter().sum::<usize>()
  };
  Ok((tokens, whole))
}

/// Extracts from plain text.
pub fn extract_text(
  text: &str,
  task: &str,
  options: &Options,
  cancel: &Cancel,
) -> Result<Extraction, Cancelled> {
  let doc = Doc::of_text(text, options.granularity);
  let forced = vec![false; doc.segments.len()];
  Ok(extract_doc(&doc, &forced, Counts::Count(None), None, task, options, cancel)?.0)
}

/// Extracts from chat messages: `text` is the kept content rendered under `### role`
/// headers, and `messages` the most relevant whole messages that fit the budget, a
/// tool call never without its result nor a result without its call.
pub fn extract_messages(
  messages: &[Message],
  task: &str,
  options: &Options,
  cancel: &Cancel,
) -> Result<Extraction, Cancelled> {
  extract_rendered(messages, task, options, Output::TextAndMessages, cancel)
}

/// `extract_messages` without choosing the whole messages (`messages` is `None`): for
/// callers that keep only the text, as isolation does.
pub fn extract_messages_as_text(
  messages: &[Message],
  task: &str,
  options: &Options,
  cancel: &Cancel,
) -> Result<Extraction, Cancelled> {
  extract_rendered(messages, task, options, Output::Text, cancel)
}

fn extract_rendered(
  messages: &[Message],
  task: &str,
  options: &Options,
  output: Output,
  cancel: &Cancel,
) -> Result<Extraction, Cancelled> {
  let mut counter = Counter::new(options.encoding);
  let (message_tokens, whole) = count_messages(messages, &mut counter, cancel)?;
  let doc = render(messages, options.granularity);
  extract_from_messages(
    messages,
    &message_tokens,
    &doc,
    Counts::Count(Some(whole)),
    None,
    task,
    options,
    output,
    cancel,
  )
}

/// What an extraction from messages returns: the text alone, or also the whole messages
/// kept (`Extraction::messages`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
  Text,
  TextAndMessages,
}

/// A thread made ready once for extracting many tasks from it: rendered, segmented,
/// every segment counted and every word indexed. Extracting from it gives exactly what
/// `extract_text` or `extract_messages` give for the same input, in a fraction of the
/// time: only the task's terms are looked up, and only what is kept is counted again.
pub struct Prepared {
  doc: Doc<'static>,
  counted: Counted,
  /// For message input: the messages and each one's tokens.
  messages: Option<(Vec<Message>, Vec<usize>)>,
  postings: Postings,
  /// The scores of the sets of tasks extracted for last.
  scored: ScoredSets,
  encoding: Encoding,
  granularity: Granularity,
}

impl Prepared {
  pub fn text(
    text: &str,
    encoding: Encoding,
    granularity: Granularity,
    cancel: &Cancel,
  ) -> Result<Self, Cancelled> {
    Self::new(
      Doc::of_text(text, granularity).owned(),
      None,
      None,
      encoding,
      granularity,
      cancel,
    )
  }

  pub fn messages(
    messages: Vec<Message>,
    encoding: Encoding,
    granularity: Granularity,
    cancel: &Cancel,
  ) -> Result<Self, Cancelled> {
    let (tokens, whole) = count_messages(&messages, &mut Counter::new(encoding), cancel)?;
    let doc = render(&messages, granularity);
    Self::new(
      doc,
      Some(whole),
      Some((messages, tokens)),
      encoding,
      granularity,
      cancel,
    )
  }

  fn new(
    doc: Doc<'static>,
    whole: Option<usize>,
    messages: Option<(Vec<Message>, Vec<usize>)>,
    encoding: Encoding,
    granularity: Granularity,
    cancel: &Cancel,
  ) -> Result<Self, Cancelled> {
    let (counted, postings) = in_parallel(
      doc.text.len() >= PARALLEL_BYTES,
      || count(&doc, whole, encoding, cancel),
      || Postings::build(&doc.text, &doc.segments, &doc.same, cancel),
    );
    Ok(Self {
      counted: counted?,
      postings: postings?,
      scored: ScoredSets::default(),
      doc,
      messages,
      encoding,
      granularity,
    })
  }

  /// The tokens of the whole input.
  pub fn tokens(&self) -> usize {
    self.counted.whole
  }

  pub fn encoding(&self) -> Encoding {
    self.encoding
  }

  /// Extracts for `task`; `options.encoding` and `options.granularity` are the ones
  /// the thread was prepared with, whatever `options` says.
  pub fn extract(&self, task: &str, options: &Options, cancel: &Cancel) -> Result<Extraction, Cancelled> {
    self.extract_for(task, options, Output::TextAndMessages, cancel)
  }

  /// `extract` without choosing whole messages (`messages` is `None`).
  pub fn extract_as_text(
    &self,
    task: &str,
    options: &Options,
    cancel: &Cancel,
  ) -> Result<Extraction, Cancelled> {
    self.extract_for(task, options, Output::Text, cancel)
  }

  fn extract_for(
    &self,
    task: &str,
    options: &Options,
    output: Output,
    cancel: &Cancel,
  ) -> Result<Extraction, Cancelled> {
    let options = &Options {
      encoding: self.encoding,
      granularity: self.granularity,
      ..options.clone()
    };
    let counts = Counts::Known(&self.counted);
    match &self.messages {
      Some((messages, tokens)) => extract_from_messages(
        messages,
        tokens,
        &self.doc,
        counts,
        Some((&self.postings, &self.scored)),
        task,
        options,
        output,
        cancel,
      ),
      None => {
        let forced = vec![false; self.doc.segments.len()];
        Ok(
          extract_doc(
            &self.doc,
            &forced,
            counts,
            Some((&self.postings, &self.scored)),
            task,
            options,
            cancel,
          )?
          .0,
        )
      }
    }
  }
}

/// Extraction from rendered messages, and the whole messages kept.
#[allow(clippy::too_many_arguments)]
fn extract_from_messages(
  messages: &[Message],
  message_tokens: &[usize],
  doc: &Doc,
  counts: Counts,
  postings: Option<(&Postings, &ScoredSets)>,
  task: &str,
  options: &Options,
  output: Output,
  cancel: &Cancel,
) -> Result<Extraction, Cancelled> {
  let recent = messages.len().saturating_sub(options.keep_recent);
  let forced: Vec<bool> = doc
    .segments
    .iter()
    .map(|s| (options.keep_system && messages[s.message].role == "system") || s.message >= recent)
    .collect();
  let (mut extraction, per_segment) = extract_doc(doc, &forced, counts, postings, task, options, cancel)?;
  if output == Output::TextAndMessages {
    extraction.messages = Some(select_messages(
      messages,
      message_tokens,
      &per_segment,
      doc,
      options,
    ));
  }
  Ok(extraction)
}

/// Renders messages as one text: a `### role` header per message, then its parts;
/// thinking is rendered (so audit can report it) but marked internal, never kept.
fn render(messages: &[Message], granularity: Granularity) -> Doc<'static> {
  let mut text = String::new();
  let mut segments = Vec::new();
  let mut internal_ranges = Vec::new();
  let mut results: Vec<(usize, usize, String)> = Vec::new(); // segment range of a result, and its call id
  let mut calls: FxHashMap<String, usize> = FxHashMap::default(); // call id -> segment of the call line
  let mut block = 0;
  let mut regions = Vec::with_capacity(messages.len());
  for (i, m) in messages.iter().enumerate() {
    let start = text.len();
    text.push_str("### ");
    text.push_str(&m.role);
    if let Some(name) = &m.name {
      text.push_str(" (");
      text.push_str(name);
      text.push(')');
    }
    text.push_str("\n\n");
    let header = segments.len();
    if granularity != Granularity::Message {
      block = segment(&text[start..], start, i, granularity, &mut segments, block);
    }
    let header = (segments.len() > header).then_some(header);
    if let Some(h) = header {
      segments[h].kind = Kind::Role;
    }
    for part in &m.parts {
      let from = text.len();
      let first_segment = segments.len();
      match part {
        Part::Text(t) | Part::Thinking(t) | Part::ToolResult { content: t, .. } => text.push_str(t),
        Part::ToolCall { name, arguments, .. } => {
          text.push_str("→ ");
          text.push_str(name);
          text.push(' ');
          text.push_str(arguments);
        }
        Part::Link(_) | Part::Other => continue,
      }
      text.push_str("\n\n");
      if granularity == Granularity::Message {
        continue;
      }
      // A tool call line is one unit, whatever the granularity.
      let g = if matches!(part, Part::ToolCall { .. }) {
        Granularity::Message
      } else {
        granularity
      };
      block = segment(&text[from..], from, i, g, &mut segments, block);
      // Segments inside the message belong to its header's section.
      for s in &mut segments[first_segment..] {
        if s.heading.is_none() {
          s.heading = header;
        }
      }
      match part {
        Part::Thinking(_) => internal_ranges.push((first_segment, segments.len())),
        Part::ToolCall { id, .. } if first_segment < segments.len() => {
          calls.insert(id.clone(), first_segment);
        }
        Part::ToolResult { call_id, .. } => results.push((first_segment, segments.len(), call_id.clone())),
        _ => {}
      }
    }
    if granularity == Granularity::Message {
      block = segment(
        &text[start..],
        start,
        i,
        Granularity::Message,
        &mut segments,
        block,
      );
    }
    regions.push(start..text.len());
  }
  let mut doc = Doc::new(Cow::Owned(text), segments);
  let sanitizer = Sanitizer::default();
  for region in regions {
    mark_sanitized(&mut doc, region, &sanitizer);
  }
  for (a, b) in internal_ranges {
    doc.internal[a..b].iter_mut().for_each(|x| *x = true);
  }
  for (a, b, id) in results {
    if let Some(&call) = calls.get(&id) {
      doc.companion[a..b].iter_mut().for_each(|c| *c = Some(call));
    }
  }
  doc
}

/// The most relevant whole messages within the budget: messages linked by tool-call
/// ids form one unit, kept or dropped together; system and recent messages first.
fn select_messages(
  messages: &[Message],
  message_tokens: &[usize],
  scores: &[(f32, bool)],
  doc: &Doc,
  options: &Options,
) -> Vec<usize> {
  // Units: union of the messages that share a tool-call id.
  let mut parent: Vec<usize> = (0..messages.len()).collect();
  fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    i
  }
  // A result answers the latest call before it with its id (ids can be reused); a call
  // the input never answered (an agent's pending last action) cannot be sent without
  // its result: its unit is kept only when asked for (system, recent).
  let mut caller: FxHashMap<&str, usize> = FxHashMap::default();
  let mut calls: Vec<(usize, &str)> = Vec::new();
  let mut answered: FxHashSet<(usize, &str)> = FxHashSet::default();
  let mut linked: FxHashMap<&str, usize> = FxHashMap::default();
  for (i, m) in messages.iter().enumerate() {
    for p in &m.parts {
      match p {
        Part::ToolCall { id, .. } => {
          caller.insert(id.as_str(), i);
          calls.push((i, id.as_str()));
        }
        Part::ToolResult { call_id, .. } => {
          if let Some(&c) = caller.get(call_id.as_str()) {
            let (a, b) = (root(&mut parent, i), root(&mut parent, c));
            parent[a] = b;
            answered.insert((c, call_id.as_str()));
          }
        }
        // An approval and its response: one unit, as a call and its result.
        Part::Link(id) => match linked.get(id.as_str()) {
          Some(&c) => {
            let (a, b) = (root(&mut parent, i), root(&mut parent, c));
            parent[a] = b;
          }
          None => {
            linked.insert(id.as_str(), i);
          }
        },
        _ => {}
      }
    }
  }
  let units: Vec<usize> = (0..messages.len()).map(|i| root(&mut parent, i)).collect();
  let mut unanswered = vec![false; messages.len()];
  for &(i, id) in &calls {
    if !answered.contains(&(i, id)) {
      unanswered[units[i]] = true;
    }
  }
  // A unit's relevance is its best segment's, unless it belongs to a sibling.
  let mut unit_score = vec![0f32; messages.len()];
  let mut unit_sibling = vec![false; messages.len()];
  for (k, s) in doc.segments.iter().enumerate() {
    let u = units[s.message];
    let (score, sibling) = scores[k];
    if sibling {
      unit_sibling[u] = true;
    } else if !doc.internal[k] {
      unit_score[u] = unit_score[u].max(score);
    }
  }
  // A sibling's unit is never kept, so its best segment must not set the scale the
  // threshold is taken from either.
  for u in 0..messages.len() {
    if unit_sibling[u] {
      unit_score[u] = 0.0;
    }
  }
  let last_recent = messages.len().saturating_sub(options.keep_recent);
  let forced_unit: Vec<bool> = {
    let mut f = vec![false; messages.len()];
    for (i, m) in messages.iter().enumerate() {
      if (options.keep_system && m.role == "system") || i >= last_recent {
        f[units[i]] = true;
      }
    }
    f
  };
  let mut cost = vec![0usize; messages.len()];
  for (i, &t) in message_tokens.iter().enumerate() {
    cost[units[i]] += t;
  }
  // `min_relevance` is relative to the best unit but the top one (see `reference`).
  let ids: Vec<usize> = (0..messages.len()).collect();
  let threshold = options.min_relevance.clamp(0.0, 1.0) * reference(&unit_score, &ids);
  let mut order: Vec<usize> = (0..messages.len()).filter(|&u| units[u] == u).collect();
  order.sort_by(|&a, &b| {
    forced_unit[b]
      .cmp(&forced_unit[a])
      .then(unit_score[b].total_cmp(&unit_score[a]))
      .then(a.cmp(&b))
  });
  let budget = options.max_tokens.unwrap_or(usize::MAX);
  let qualifies =
    |u: usize| !unit_sibling[u] && !unanswered[u] && unit_score[u] > 0.0 && unit_score[u] >= threshold;
  let mut used = REPLY_PRIMER;
  let mut kept_unit = vec![false; messages.len()];
  let take = |u: usize, kept_unit: &mut [bool], used: &mut usize| {
    let fits = !kept_unit[u] && *used + cost[u] <= budget;
    if fits {
      *used += cost[u];
      kept_unit[u] = true;
    }
    fits
  };
  for &u in order.iter().filter(|&&u| forced_unit[u]) {
    take(u, &mut kept_unit, &mut used);
  }
  // When the budget cannot hold every qualifying unit, the best ones alone would spend it
  // on one file: an agent reads, greps, edits and tests the file at the centre of its
  // task again and again, and every round scores high. So first, best first, each unit
  // whose tool calls name a file (a path in their arguments: what the agent acted on)
  // that no kept unit's calls name yet, unless it would take over half the budget; then
  // the rest by score.
  let wanted: usize = order
    .iter()
    .filter(|&&u| !forced_unit[u] && qualifies(u))
    .map(|&u| cost[u])
    .sum();
  if used.saturating_add(wanted) > budget {
    let candidate = |u: usize| !forced_unit[u] && qualifies(u) && cost[u] <= budget / 2;
    let mut files: Vec<Vec<&str>> = vec![Vec::new(); messages.len()];
    for (i, m) in messages.iter().enumerate() {
      let u = units[i];
      if kept_unit[u] || candidate(u) {
        for p in &m.parts {
          if let Part::ToolCall { arguments, .. } = p {
            files[u].extend(named_files(arguments));
          }
        }
      }
    }
    let mut named: FxHashSet<&str> = FxHashSet::default();
    for u in 0..messages.len() {
      if kept_unit[u] {
        named.extend(files[u].iter().copied());
      }
    }
    for &u in &order {
      if candidate(u) && files[u].iter().any(|f| !named.contains(f)) && take(u, &mut kept_unit, &mut used) {
        named.extend(files[u].iter().copied());
      }
    }
  }
  for &u in &order {
    if !forced_unit[u] && qualifies(u) {
      take(u, &mut kept_unit, &mut used);
    }
  }
  (0..messages.len()).filter(|&i| kept_unit[units[i]]).collect()
}

/// Whose each tool call is, judged on more than its line (see `ownership`): on its
/// unit, the line with its result, and on its files, every unit whose call names one.
struct CallOwnership<'a> {
  /// The call line of every call that has a result, in order.
  lines: Vec<usize>,
  /// Per call line: its unit (an index into `lines` and `files`).
  unit_of: FxHashMap<usize, usize>,
  /// Per unit: the files its call names, each once.
  files: Vec<Vec<&'a str>>,
  /// The files this task owns: over every call that names one, it finds more of itself
  /// than any sibling does.
  owned_files: FxHashSet<&'a str>,
  /// Per segment (meaningful on call lines): a sibling claims the unit.
  unit_claimed: Vec<bool>,
  /// Per segment: this task owns the unit and a file the call names.
  lifted: Vec<bool>,
  /// Per segment (meaningful on call lines): the call works only under directories
  /// that a sibling's statement names and this task's does not (`foreign_units`).
  foreign: Vec<bool>,
}

impl<'a> CallOwnership<'a> {
  fn of(doc: &Doc, text: &'a str, statements: &[&str], evidence: &[Vec<f32>]) -> Self {
    let n = doc.segments.len();
    let relative = Relative::new(evidence);
    let tasks = relative.tasks();
    // Units: a call line and its result's segments, summed per task.
    let mut unit_of: FxHashMap<usize, usize> = FxHashMap::default();
    let mut lines = Vec::new();
    let mut sums: Vec<Vec<f32>> = Vec::new();
    for (i, c) in doc.companion.iter().enumerate() {
      let Some(c) = *c else { continue };
      let u = *unit_of.entry(c).or_insert_with(|| {
        lines.push(c);
        let mut s = vec![0.0; tasks];
        relative.add_to(&mut s, c);
        sums.push(s);
        sums.len() - 1
      });
      relative.add_to(&mut sums[u], i);
    }
    let foreign_unit = foreign_units(doc, text, statements, &lines);
    // Files: every unit whose call names the file, each unit once per file; a unit
    // foreign to this task counts for no one.
    let mut files: Vec<Vec<&str>> = Vec::with_capacity(lines.len());
    let mut file_sums: FxHashMap<&str, Vec<f32>> = FxHashMap::default();
    for (u, &c) in lines.iter().enumerate() {
      let seg = &doc.segments[c];
      let mut named: Vec<&str> = named_files(&text[seg.start..seg.end]).collect();
      named.sort_unstable();
      named.dedup();
      for &f in named.iter().filter(|_| !foreign_unit[u]) {
        let s = file_sums.entry(f).or_insert_with(|| vec![0.0; tasks]);
        for (a, b) in s.iter_mut().zip(&sums[u]) {
          *a += b;
        }
      }
      files.push(named);
    }
    let owned_files: FxHashSet<&str> = file_sums
      .into_iter()
      .filter_map(|(f, sums)| owned(&sums).then_some(f))
      .collect();
    let mut unit_claimed = vec![false; n];
    let mut lifted = vec![false; n];
    let mut foreign = vec![false; n];
    for (u, &c) in lines.iter().enumerate() {
      foreign[c] = foreign_unit[u];
      unit_claimed[c] = foreign_unit[u] || claimed(&sums[u]);
      lifted[c] = !foreign_unit[u] && owned(&sums[u]) && files[u].iter().any(|f| owned_files.contains(f));
    }
    Self {
      lines,
      unit_of,
      files,
      owned_files,
      unit_claimed,
      lifted,
      foreign,
    }
  }

  /// A tool unit is one piece of work, whole: when a sibling claims any of its segments
  /// (`claims`, per segment), it claims them all, as a whole message is a sibling's when
  /// any of its segments is (`select_messages`). A sibling's edit of a file both tasks
  /// work on otherwise leaks line by line: the lines that name the shared code match
  /// this task as well as the sibling's. Only the line of a call this task owns on a file
  /// it owns (`lifted`) is spared: it names what this task works on.
  fn claim_units(&self, doc: &Doc, claims: &mut [bool]) {
    // Per call line: a sibling claims a segment of its unit, or the unit is foreign.
    let mut unit_claimed = self.foreign.clone();
    for (i, c) in doc.companion.iter().enumerate() {
      if let Some(c) = *c {
        unit_claimed[c] |= claims[i] || claims[c];
      }
    }
    for (i, c) in doc.companion.iter().enumerate() {
      if let Some(c) = *c {
        claims[i] |= unit_claimed[c];
      }
    }
    for &c in &self.lines {
      claims[c] |= unit_claimed[c] && !self.lifted[c];
    }
  }

  /// For each file this task owns, the cheapest line (by `cost`) of a call on it that
  /// this task owns, each line once, in order.
  fn naming_lines(&self, cost: impl Fn(usize) -> usize) -> Vec<usize> {
    let mut best: FxHashMap<&str, usize> = FxHashMap::default();
    for (&c, files) in self.lines.iter().zip(&self.files) {
      if !self.lifted[c] {
        continue;
      }
      for f in files {
        if self.owned_files.contains(f) {
          let line = best.entry(f).or_insert(c);
          if cost(c) < cost(*line) {
            *line = c;
          }
        }
      }
    }
    let mut lines: Vec<usize> = best.into_values().collect();
    lines.sort_unstable();
    lines.dedup();
    lines
  }

  /// The files the call on `line` names.
  fn files(&self, line: usize) -> &[&'a str] {
    self.unit_of.get(&line).map_or(&[], |&u| &self.files[u])
  }

  fn claimed(&self, line: usize) -> bool {
    self.unit_claimed[line]
  }

  fn lifted(&self, line: usize) -> bool {
    self.lifted[line]
  }
}

/// Per unit (a call line of `lines`): whether its call works only under directories
/// that a sibling's statement names and this task's does not. A task's statement is
/// quoted in the thread by the message that set the task (its anchor), and the
/// directories that message names (`/workspace/app-v2`) are where the task works: a
/// call on `/workspace/app-v1/src/cli.py` is the work of the sibling whose anchor names
/// `/workspace/app-v1`, however much its code looks like this task's. Only absolute
/// paths count, and only when this task's anchor names some: a task the thread never
/// quotes, or one whose anchor names no directory, claims nothing by this rule.
fn foreign_units(doc: &Doc, text: &str, statements: &[&str], lines: &[usize]) -> Vec<bool> {
  let mut foreign = vec![false; lines.len()];
  // Without siblings (a tight budget reads calls too) there is no one else's anchor.
  let Some(own) = (statements.len() > 1)
    .then(|| anchor(doc, text, statements[0]))
    .flatten()
  else {
    return foreign;
  };
  // Plain text is one message, the anchor of every task: nothing to tell apart.
  let others: Vec<Range<usize>> = statements[1..]
    .iter()
    .filter_map(|t| anchor(doc, text, t))
    .filter(|a| *a != own)
    .collect();
  if others.is_empty() {
    return foreign;
  }
  let own: Vec<&str> = absolute_paths(&text[own]).collect();
  let related = |a: &str, b: &str| under(a, b) || under(b, a);
  let theirs: Vec<&str> = others
    .into_iter()
    .flat_map(|a| absolute_paths(&text[a]))
    .filter(|r| !own.iter().any(|o| related(r, o)))
    .collect();
  if own.is_empty() || theirs.is_empty() {
    return foreign;
  }
  for (u, &c) in lines.iter().enumerate() {
    let seg = &doc.segments[c];
    let paths: Vec<&str> = absolute_paths(&text[seg.start..seg.end]).collect();
    foreign[u] = paths.iter().any(|p| theirs.iter().any(|r| under(p, r)))
      && !paths.iter().any(|p| own.iter().any(|r| under(p, r)));
  }
  foreign
}

/// The span of the message that first quotes `task` in the thread (its anchor), if any.
fn anchor(doc: &Doc, text: &str, task: &str) -> Option<Range<usize>> {
  let task = task.trim();
  if task.is_empty() {
    return None;
  }
  let at = memchr::memmem::find(text.as_bytes(), task.as_bytes())?;
  let segments = &doc.segments;
  let i = segments.partition_point(|s| s.end <= at);
  let message = segments.get(i)?.message;
  let first = segments[..i]
    .iter()
    .rposition(|s| s.message != message)
    .map_or(0, |p| p + 1);
  let last = segments[i..]
    .iter()
    .position(|s| s.message != message)
    .map_or(segments.len(), |p| i + p);
  Some(segments[first].start..segments[last - 1].end)
}

/// Whether `path` is `root` or lies under it.
fn under(path: &str, root: &str) -> bool {
  path
    .strip_prefix(root)
    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// The absolute paths a text names (`/dir/more`, two components at least), without
/// trailing punctuation.
fn absolute_paths(text: &str) -> impl Iterator<Item = &str> {
  path_words(text).filter_map(|w| {
    let w = w.trim_end_matches(['.', '/', '-']);
    let rest = w.strip_prefix('/')?;
    rest.split('/').filter(|c| !c.is_empty()).nth(1).map(|_| w)
  })
}

/// The files a text (a tool call's arguments) names: path-like words (`dir/name.ext`,
/// any depth), each as its last two components, so that `/repo/src/api/users.ts` in one
/// call and `src/api/users.ts` in another name the same file.
fn named_files(text: &str) -> impl Iterator<Item = &str> {
  path_words(text).filter_map(file_of)
}

/// The path-like words of a text: runs of path characters that hold a `/`.
fn path_words(text: &str) -> impl Iterator<Item = &str> {
  // Only a run with a `/` can be a path, so the runs are found from the slashes.
  let bytes = text.as_bytes();
  let path_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/');
  let mut end = 0;
  memchr::memchr_iter(b'/', bytes).filter_map(move |slash| {
    if slash < end {
      return None; // in the run already read
    }
    let start = bytes[..slash]
      .iter()
      .rposition(|&b| !path_byte(b))
      .map_or(0, |i| i + 1);
    end = bytes[slash..]
      .iter()
      .position(|&b| !path_byte(b))
      .map_or(bytes.len(), |i| slash + i);
    // Path bytes are ASCII: both ends are character boundaries.
    Some(&text[start..end])
  })
}

/// The file a path-like word names (`dir/name.ext`), as its last two components.
fn file_of(word: &str) -> Option<&str> {
  let word = word.trim_matches(|c| matches!(c, '.' | '/' | '-'));
  let (dir, name) = word.rsplit_once('/')?;
  let (stem, ext) = name.rsplit_once('.')?;
  if stem.is_empty() || ext.is_empty() || !ext.bytes().all(|b| b.is_ascii_alphanumeric()) {
    return None;
  }
  let parent = dir.rsplit('/').next().filter(|p| !p.is_empty())?;
  // `parent/name`, a slice of the word.
  let start = word.len() - name.len() - 1 - parent.len();
  Some(&word[start..])
}

/// The counts extraction needs: known (a prepared thread), or to be counted, with the
/// whole input's count when known.
enum Counts<'a> {
  Known(&'a Counted),
  Count(Option<usize>),
}

/// Scores and selects segments of `doc` (`forced` ones first); also returns, per
/// segment, its score and whether a sibling claimed it.
fn extract_doc(
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
      CallOwnership::of(doc, text, &tasks, evidence)
    })
  };
  if evidence.len() > 1 {
    calls().claim_units(doc, &mut sibling);
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
fn best_first(candidates: &mut [usize], forced: &[bool], own: &[f32]) {
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

/// Every task's scores on one document: its terms (with what the feedback round
/// learned), and per segment its score and its ownership evidence; one index of all
/// the tasks' terms.
struct Scored {
  terms: Vec<Terms>,
  index: Index,
  scores: Vec<Vec<f32>>,
  evidence: Vec<Vec<f32>>,
}

/// One task's view of the scores of it and its siblings: its row in `scored`, and the
/// ownership evidence of it and then each sibling, in the order of `siblingTasks`.
struct TaskScores {
  scored: Arc<Scored>,
  row: usize,
  evidence: Vec<Vec<f32>>,
}

impl TaskScores {
  fn terms(&self) -> &Terms {
    &self.scored.terms[self.row]
  }
  fn own(&self) -> &[f32] {
    &self.scored.scores[self.row]
  }
}

/// The scores of `task` and its siblings (from `postings` when given, else read from the
/// text). The tasks are scored in one order whatever their order in the call, so one
/// set of tasks gets one set of scores; a prepared thread keeps the last few sets it
/// scored (`ScoredSets`), since the spawns of a batch each ask for the same set: each
/// task with the others as its siblings.
fn score_all(
  doc: &Doc,
  postings: Option<(&Postings, &ScoredSets)>,
  task: &str,
  options: &Options,
  cancel: &Cancel,
) -> Result<TaskScores, Cancelled> {
  let tasks: Vec<&str> = std::iter::once(task)
    .chain(options.sibling_tasks.iter().map(String::as_str))
    .collect();
  let mut order: Vec<usize> = (0..tasks.len()).collect();
  order.sort_by(|&a, &b| tasks[a].cmp(tasks[b]).then(a.cmp(&b)));
  let sorted: Vec<&str> = order.iter().map(|&k| tasks[k]).collect();
  let scored = match postings {
    Some((p, sets)) => sets.get_or_score(&sorted, || score_tasks(doc, Some(p), &sorted, cancel))?,
    None => Arc::new(score_tasks(doc, None, &sorted, cancel)?),
  };
  let mut rows = vec![0; tasks.len()];
  for (row, &k) in order.iter().enumerate() {
    rows[k] = row;
  }
  let evidence = rows.iter().map(|&r| scored.evidence[r].clone()).collect();
  Ok(TaskScores {
    row: rows[0],
    scored,
    evidence,
  })
}

/// Scores `tasks` in the order given.
fn score_tasks(
  doc: &Doc,
  postings: Option<&Postings>,
  tasks: &[&str],
  cancel: &Cancel,
) -> Result<Scored, Cancelled> {
  let (text, segments) = (&*doc.text, doc.segments.as_slice());
  let mut queries: Vec<Terms> = tasks.iter().map(|t| Terms::of_task(t)).collect();
  let folded: Arc<str> = postings.map_or_else(|| fold(text).into(), |p| Arc::clone(p.folded()));
  // Phrases stay as they are through the feedback round: they are found once.
  let bonuses = {
    let refs: Vec<&Terms> = queries.iter().collect();
    phrase_bonuses(&folded, segments, postings.map(Postings::trigrams), &refs)
  };
  let mut round = 0;
  loop {
    let refs: Vec<&Terms> = queries.iter().collect();
    let index = match postings {
      Some(p) => p.index(&refs),
      None => Index::build_repeating(text, Arc::clone(&folded), segments, &doc.same, &refs),
    };
    cancel.check()?;
    let (scores, evidence): (Vec<Vec<f32>>, Vec<Vec<f32>>) = queries
      .iter()
      .zip(&bonuses)
      .map(|(q, b)| scores_with(text, segments, &index, q, b))
      .unzip();
    cancel.check()?;
    // With siblings, each task's own vocabulary is learned from what it already owns
    // (one round), then everything is scored again.
    if queries.len() > 1 && round == 0 {
      let learned = feedback(text, segments, &scores, &evidence);
      if learned.iter().any(|l| !l.is_empty()) {
        for (q, terms) in queries.iter_mut().zip(learned) {
          for t in terms {
            q.weights.entry(t).or_insert(WEIGHT_FEEDBACK);
          }
        }
        round += 1;
        continue;
      }
    }
    return Ok(Scored {
      terms: queries,
      index,
      scores,
      evidence,
    });
  }
}

/// How many sets of tasks a prepared thread keeps the scores of.
const SCORED_SETS: usize = 4;

/// The scores of the sets of tasks last extracted for, most recent last. While one
/// extraction scores a set, the others asking for the same set wait for its scores.
#[derive(Default)]
struct ScoredSets {
  sets: Mutex<Vec<ScoredSet>>,
}

type ScoredSet = (Vec<String>, Arc<Mutex<Option<Arc<Scored>>>>);

impl ScoredSets {
  fn get_or_score(
    &self,
    tasks: &[&str],
    score: impl FnOnce() -> Result<Scored, Cancelled>,
  ) -> Result<Arc<Scored>, Cancelled> {
    let slot = {
      let mut sets = self.sets.lock().unwrap_or_else(PoisonError::into_inner);
      let set = match sets
        .iter()
        .position(|(key, _)| key.iter().map(String::as_str).eq(tasks.iter().copied()))
      {
        Some(at) => sets.remove(at),
        None => (tasks.iter().map(|t| t.to_string()).collect(), Arc::default()),
      };
      let slot = Arc::clone(&set.1);
      sets.push(set);
      if sets.len() > SCORED_SETS {
        sets.remove(0);
      }
      slot
    };
    let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(scored) = &*slot {
      return Ok(Arc::clone(scored));
    }
    // A cancelled scoring leaves the slot empty for the next one to fill.
    let scored = Arc::new(score()?);
    *slot = Some(Arc::clone(&scored));
    Ok(scored)
  }
}

/// Weight of a term learned from the segments a task owns.
const WEIGHT_FEEDBACK: f32 = 1.5;
/// How many of a task's best owned segments are read for its vocabulary, and how many
/// terms it may learn.
const FEEDBACK_SEGMENTS: usize = 200;
const FEEDBACK_TERMS: usize = 48;

/// Ownership from more than the task statement: the identifiers and paths that the
/// segments a task clearly owns (it outscores every other task there) keep returning to,
/// in at least two of them, and that no other task's segments share.
fn feedback(
  text: &str,
  segments: &[Segment],
  scores: &[Vec<f32>],
  evidence: &[Vec<f32>],
) -> Vec<Vec<String>> {
  let candidates: Vec<FxHashMap<String, usize>> = (0..scores.len())
    .map(|q| {
      let best = scores[q].iter().copied().fold(0.0, f32::max);
      let mut owned: Vec<usize> = (0..segments.len())
        .filter(|&i| {
          let s = scores[q][i];
          s > 0.0 && s >= 0.2 * best && (0..scores.len()).all(|o| o == q || evidence[o][i] < evidence[q][i])
        })
        .collect();
      owned.sort_by(|&a, &b| scores[q][b].total_cmp(&scores[q][a]).then(a.cmp(&b)));
      let mut counts: FxHashMap<String, usize> = FxHashMap::default();
      for &i in owned.iter().take(FEEDBACK_SEGMENTS) {
        let mut seen = FxHashSet::default();
        for word in words(&text[segments[i].start..segments[i].end]) {
          if is_identifier(word) && word.len() >= 4 && seen.insert(normalize(word)) {
            *counts.entry(normalize(word)).or_insert(0) += 1;
          }
        }
      }
      counts.retain(|_, n| *n >= 2);
      counts
    })
    .collect();
  (0..scores.len())
    .map(|q| {
      let mut mine: Vec<(&String, &usize)> = candidates[q]
        .iter()
        .filter(|(t, _)| {
          candidates
            .iter()
            .enumerate()
            .all(|(o, c)| o == q || !c.contains_key(*t))
        })
        .collect();
      mine.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
      mine
        .into_iter()
        .take(FEEDBACK_TERMS)
        .map(|(t, _)| t.clone())
        .collect()
    })
    .collect()
}

/// The score `min_relevance` is relative to: the best score outside the section (or
/// message unit) that holds the best one, or the best when there is no other. One
/// section must not set the scale for all the others: a thread quotes the task's own
/// statement, which matches the task like nothing else can, and against it every
/// message that works on the task (the files it reads and edits) would look faint.
fn reference(scores: &[f32], group: &[usize]) -> f32 {
  let Some(top) = (0..scores.len()).max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a))) else {
    return 0.0;
  };
  let others = (0..scores.len())
    .filter(|&i| group[i] != group[top])
    .map(|i| scores[i])
    .fold(0.0, f32::max);
  if others > 0.0 {
    others
  } else {
    scores[top]
  }
}

/// The kept segments in original order: adjacent ones joined by the source text
/// between them, others by `elision`.
/// Marks as internal every segment of `region` (one message, or the whole text) that
/// a marker covers, even in part: an `[INTERNAL]` note, a `<thinking>` block, what
/// an unclosed tag leaves to the end of the message. A segment is kept whole or not
/// at all, so one that holds a marker goes whole (fail closed).
fn mark_sanitized(doc: &mut Doc, region: Range<usize>, sanitizer: &Sanitizer) {
  let (removals, _) = sanitizer.removals(&doc.text[region.clone()]);
  mark_removed(doc, region, &removals);
}

/// `mark_sanitized` with the removals (relative to `region`) already found.
fn mark_removed(doc: &mut Doc, region: Range<usize>, removals: &[Range<usize>]) {
  if removals.is_empty() {
    return;
  }
  let first = doc.segments.partition_point(|s| s.end <= region.start);
  let mut r = 0;
  for k in first..doc.segments.len() {
    let s = &doc.segments[k];
    if s.start >= region.end {
      break;
    }
    let (a, b) = (s.start - region.start, s.end - region.start);
    while r < removals.len() && removals[r].end <= a {
      r += 1;
    }
    if removals.get(r).is_some_and(|x| x.start < b) {
      doc.internal[k] = true;
    }
  }
}

/// Drops kept segments, the least relevant first (of equals, the last), until what
/// `assemble` makes of them fits `budget`, and returns its exact count.
///
/// Each round counts the result in parts, cut where its pieces split (a join that ends
/// a line before the next segment: `Counter::separable`), and a part is counted only
/// the first time it is met: a drop changes the one or two parts around it, and a long
/// result may need dozens of drops. A part is known by its first and last segment, how
/// many segments it holds and what follows the last; segments only go, so that names
/// one text.
fn fit(
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
struct Pieces<'a> {
  text: &'a str,
  segments: &'a [Segment],
  cut: Option<(usize, Range<usize>)>,
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

fn assemble(pieces: &Pieces, kept: &[bool], elision: &str) -> String {
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

#[cfg(test)]
mod tests {
  use super::*;
  use crate::core::tokens::count_tokens;

  const THREAD: &str = "# Plan\n\n- A.1 Validate the body of POST /users in src/api/users.ts.\n- A.2 Fix the memory leak in src/middleware/rate-limit.ts.\n- A.3 Update README.md for the v2 routes.\n\n## Users\n\nThe users route inserts whatever body it gets. Emails must be validated and lower-cased.\n\n## Rate limiter\n\nThe hits map never forgets idle clients, so memory grows.\n\n## Weather\n\nIt rained all week in the office town.";

  fn run(task: &str, options: Options) -> Extraction {
    extract_text(THREAD, task, &options, &Cancel::new()).unwrap()
  }

  #[test]
  fn marked_content_is_dropped_as_internal() {
    let text =
      "## Users\n\nEmails must be validated. [INTERNAL] the users route is a mess, do not say so.\n\n\
<thinking>users route: maybe rewrite</thinking> The users route needs lower-cased emails.";
    let e = extract_text(
      text,
      "validate emails in the users route",
      &Options::default(),
      &Cancel::new(),
    )
    .unwrap();
    assert!(e.text.contains("Emails must be validated."), "{}", e.text);
    assert!(
      !e.text.contains("mess") && !e.text.contains("rewrite"),
      "{}",
      e.text
    );
    assert_eq!(
      e.segments
        .iter()
        .filter(|s| s.dropped == Some(Reason::Internal))
        .count(),
      2
    );
  }

  #[test]
  fn a_code_block_is_cut_only_when_it_alone_exceeds_the_budget() {
    let mut block = String::from("```python\n");
    for i in 0..200 {
      block.push_str(&format!("def helper_{i}(x):\n    return x + {i}\n"));
    }
    block.push_str("def parse_header(line):\n    key, value = line.split(':', 1)\n    return key\n");
    for i in 200..300 {
      block.push_str(&format!("def helper_{i}(x):\n    return x * {i}\n"));
    }
    block.push_str("```");
    let text =
      format!("## Parser\n\nThe header parser lives in this module.\n\n{block}\n\n## Weather\n\nIt rained.");
    let task = "fix parse_header when the header line has no value";
    let block_tokens = count_tokens(&block, Encoding::O200kBase);
    let e = |max: usize| {
      let options = Options {
        max_tokens: Some(max),
        ..Options::default()
      };
      extract_text(&text, task, &options, &Cancel::new()).unwrap()
    };
    // Over budget: the lines about the task, cut at line ends, with elisions around.
    let small = e(120);
    assert!(small.extracted_tokens <= 120);
    assert_eq!(
      small.extracted_tokens,
      count_tokens(&small.text, Encoding::O200kBase)
    );
    assert!(
      small
        .text
        .contains("def parse_header(line):\n    key, value = line.split(':', 1)"),
      "{}",
      small.text
    );
    assert!(
      !small.text.contains("helper_0(") && !small.text.contains("It rained"),
      "{}",
      small.text
    );
    for piece in small.text.split(DEFAULT_ELISION) {
      assert!(text.contains(piece), "{piece:?}");
    }
    // A block the budget holds is never cut: it is kept whole.
    let whole = e(block_tokens + 50);
    assert!(whole.text.contains(&block), "{}", whole.text);
  }

  #[test]
  fn keeps_what_the_task_needs_in_order_and_drops_the_rest() {
    let e = run(
      "A.1 Validate the body of POST /users in src/api/users.ts",
      Options::default(),
    );
    assert!(e.text.contains("A.1 Validate the body"));
    assert!(e.text.contains("Emails must be validated"));
    assert!(!e.text.contains("rained"));
    let a = e.text.find("A.1").unwrap();
    let b = e.text.find("Emails").unwrap();
    assert!(a < b);
    assert!(e.keywords.contains(&"src/api/users.ts".to_owned()));
  }

  #[test]
  fn a_budget_is_never_exceeded_and_is_a_cap_not_a_target() {
    for budget in [0, 1, 5, 12, 30, 60, 10_000] {
      let e = run(
        "Validate emails in the users route",
        Options {
          max_tokens: Some(budget),
          ..Options::default()
        },
      );
      assert!(e.extracted_tokens <= budget);
      assert_eq!(e.extracted_tokens, count_tokens(&e.text, Encoding::O200kBase));
    }
    let e = run(
      "Validate emails in the users route",
      Options {
        max_tokens: Some(10_000),
        ..Options::default()
      },
    );
    assert!(
      !e.text.contains("rained"),
      "irrelevant text padded a generous budget"
    );
  }

  #[test]
  fn sibling_content_is_dropped_and_the_plan_reduced_to_this_task() {
    let options = Options {
      sibling_tasks: vec![
        "A.2 Fix the memory leak in src/middleware/rate-limit.ts".into(),
        "A.3 Update README.md for the v2 routes".into(),
      ],
      ..Options::default()
    };
    let e = run(
      "A.1 Validate the body of POST /users in src/api/users.ts",
      options,
    );
    assert!(e.text.contains("A.1"));
    assert!(!e.text.contains("A.2"), "{}", e.text);
    assert!(!e.text.contains("A.3"), "{}", e.text);
    assert!(!e.text.contains("hits map"), "{}", e.text);
    assert!(e.segments.iter().any(|s| s.dropped == Some(Reason::Sibling)));
  }

  #[test]
  fn ownership_is_judged_on_each_task_s_own_scale() {
    // A short, generic sibling finds itself in most paragraphs of a thread about queries;
    // this task's long statement spreads over many terms. The note on this task's
    // function is this task's, although the sibling's raw evidence there is higher (it
    // says "query" twice): by its own measure, this task stands out there far more.
    let task = "Union querysets with ordering break on derived columns: get_combinator_sql in \
src/sql/compiler.py raises ORDER BY not allowed in subqueries of compound statements.";
    let sibling = "Fix the query count";
    let mut text =
      String::from("get_combinator_sql builds the query of each part, then the query of the union.");
    for k in 0..10 {
      text.push_str(&format!(
        "\n\nThe query count of report {k} is off: the query rows are counted twice."
      ));
    }
    for line in [
      "A union of values_list querysets ordered by a derived column fails.",
      "The traceback says ORDER BY not allowed in subqueries of compound statements.",
      "Union querysets keep their ordering only on plain columns.",
    ] {
      text.push_str("\n\n");
      text.push_str(line);
    }
    let run = |task: &str, sibling: &str| {
      extract_text(
        &text,
        task,
        &Options {
          sibling_tasks: vec![sibling.into()],
          ..Options::default()
        },
        &Cancel::new(),
      )
      .unwrap()
    };
    let e = run(task, sibling);
    assert!(e.text.contains("get_combinator_sql builds"), "{}", e.text);
    assert!(!e.text.contains("counted twice"), "{}", e.text);
    // From the sibling's side the same note is this task's, the counts the sibling's.
    let e = run(sibling, task);
    assert!(!e.text.contains("get_combinator_sql"), "{}", e.text);
    assert!(e.text.contains("counted twice"), "{}", e.text);
  }

  #[test]
  fn output_is_source_text_and_elision_only_and_deterministic() {
    let e = run(
      "memory leak",
      Options {
        elision: " <cut> ".into(),
        ..Options::default()
      },
    );
    for piece in e.text.split(" <cut> ") {
      assert!(THREAD.contains(piece), "{piece:?}");
    }
    assert_eq!(
      e,
      run(
        "memory leak",
        Options {
          elision: " <cut> ".into(),
          ..Options::default()
        }
      )
    );
  }

  #[test]
  fn a_quoted_task_does_not_set_the_scale_for_everything_else() {
    // The thread quotes the task; the note that names its file is faint beside that copy,
    // but it is the best of the rest, and it is what the task needs.
    let task = "Fix the memory leak in the rate limiter. The hits map in src/middleware/rate-limit.ts never forgets idle clients. Memory grows without bound under load. Evict idle clients after a timeout.";
    let text = format!(
      "{task}\n\nThe team looked at several things this week, the office move and the budget and the hiring, and one of them was a timeout in passing.\n\nIt rained all week in the office town."
    );
    let e = extract_text(&text, task, &Options::default(), &Cancel::new()).unwrap();
    assert!(
      e.text.contains("one of them was a timeout in passing"),
      "{}",
      e.text
    );
    assert!(!e.text.contains("rained"), "{}", e.text);
    assert!(e.text.contains("never forgets idle clients"), "{}", e.text);
  }

  #[test]
  fn the_reference_is_the_best_outside_the_best_group() {
    assert_eq!(reference(&[5.0, 4.0, 1.0, 2.0], &[0, 0, 1, 2]), 2.0);
    assert_eq!(reference(&[5.0, 4.0], &[0, 0]), 5.0);
    assert_eq!(reference(&[], &[]), 0.0);
  }

  fn thread() -> Vec<Message> {
    let call = |id: &str, path: &str| Message {
      role: "assistant".into(),
      name: None,
      parts: vec![Part::ToolCall {
        id: id.into(),
        name: "read_file".into(),
        arguments: format!("{{\"path\":\"{path}\"}}"),
      }],
    };
    let result = |id: &str, content: &str| Message {
      role: "tool".into(),
      name: None,
      parts: vec![Part::ToolResult {
        call_id: id.into(),
        content: content.into(),
      }],
    };
    vec![
      Message::text("system", "You orchestrate subagents."),
      Message::text(
        "user",
        "Harden the API: validate emails in users.ts and fix the rate limiter leak.",
      ),
      call("c1", "src/api/users.ts"),
      result(
        "c1",
        "export function createUser(body) { return db.insert(body) }",
      ),
      call("c2", "src/middleware/rate-limit.ts"),
      result("c2", "const hits = new Map() // never cleared"),
      Message {
        role: "assistant".into(),
        name: None,
        parts: vec![
          Part::Thinking("The user seems annoyed; the email check is secret.".into()),
          Part::Text("Emails go through createUser without any validation.".into()),
        ],
      },
      Message::text("user", "Thanks."),
    ]
  }

  fn run_messages(task: &str, options: Options) -> Extraction {
    extract_messages(&thread(), task, &options, &Cancel::new()).unwrap()
  }

  #[test]
  fn messages_keep_tool_units_whole_and_never_pass_thinking() {
    let e = run_messages(
      "Validate emails in createUser (src/api/users.ts)",
      Options::default(),
    );
    let kept = e.messages.clone().unwrap();
    assert!(kept.contains(&0), "system kept by default: {kept:?}");
    assert!(kept.contains(&2) && kept.contains(&3), "{kept:?}");
    assert!(!kept.contains(&4) && !kept.contains(&5), "{kept:?}");
    assert!(e.text.contains("createUser(body)"));
    assert!(
      e.text.contains("→ read_file {\"path\":\"src/api/users.ts\"}"),
      "{}",
      e.text
    );
    assert!(!e.text.contains("annoyed"));
    assert!(e.segments.iter().any(|s| s.dropped == Some(Reason::Internal)));
    // Every kept unit is whole: a call's result is kept with it and vice versa.
    let msgs = thread();
    for &i in &kept {
      for p in &msgs[i].parts {
        if let Part::ToolResult { call_id, .. } | Part::ToolCall { id: call_id, .. } = p {
          let partner = msgs.iter().position(|m| {
            m.parts.iter().any(|q| matches!(q, Part::ToolCall { id, .. } | Part::ToolResult { call_id: id, .. } if id == call_id))
              && !std::ptr::eq(m, &msgs[i])
          });
          assert!(
            partner.is_some_and(|j| kept.contains(&j)),
            "unit of message {i} split: {kept:?}"
          );
        }
      }
    }
  }

  #[test]
  fn message_budgets_hold_for_the_text_and_the_messages() {
    let msgs = thread();
    for budget in [0, 10, 40, 80, 200] {
      let e = run_messages(
        "Validate emails in createUser",
        Options {
          max_tokens: Some(budget),
          ..Options::default()
        },
      );
      assert!(e.extracted_tokens <= budget);
      let kept: Vec<Message> = e.messages.unwrap().into_iter().map(|i| msgs[i].clone()).collect();
      let cost = crate::core::message::count_message_tokens(
        &kept,
        &mut Counter::new(Encoding::O200kBase),
        &Cancel::new(),
      );
      assert!(cost.unwrap() <= budget.max(REPLY_PRIMER), "budget {budget}");
    }
  }

  #[test]
  fn a_sibling_s_message_does_not_set_the_scale_of_relevance() {
    // Message 1 is a sibling's (one of its segments is claimed), although its other
    // segment scores high for this task too. It is never kept, so it must not raise the
    // bar that message 2, faint beside message 0 but the best of the rest, has to clear.
    let messages = vec![
      Message::text("user", "alpha"),
      Message::text("user", "beta gamma"),
      Message::text("user", "delta"),
    ];
    let text = "alpha\n\nbeta gamma\n\ndelta".to_owned();
    let segment = |start: usize, end: usize, message: usize| Segment {
      start,
      end,
      kind: Kind::Text,
      block: message,
      heading: None,
      message,
    };
    let doc = Doc::new(
      text.into(),
      vec![
        segment(0, 5, 0),
        segment(7, 11, 1),
        segment(12, 17, 1),
        segment(19, 24, 2),
      ],
    );
    let scores = [(3.0, false), (2.0, false), (0.5, true), (0.3, false)];
    let kept = select_messages(&messages, &[10; 3], &scores, &doc, &Options::default());
    assert_eq!(kept, vec![0, 2]);
  }

  #[test]
  fn a_tight_budget_names_every_file_before_more_of_one() {
    // Eight rounds of tool calls on the central file outscore the one call that opens the
    // other file the task touched; the budget holds eight units. The best of the rounds
    // comes first, then the other file, then the rest of the rounds by score.
    let mut paths: Vec<&str> = vec!["/repo/src/parser.rs"; 8];
    paths.push("/repo/src/lexer.rs");
    let messages: Vec<Message> = paths
      .iter()
      .enumerate()
      .flat_map(|(k, path)| {
        let id = format!("c{k}");
        [
          Message {
            role: "assistant".into(),
            name: None,
            parts: vec![Part::ToolCall {
              id: id.clone(),
              name: "view".into(),
              arguments: format!("{{\"path\":\"{path}\"}}"),
            }],
          },
          Message {
            role: "tool".into(),
            name: None,
            parts: vec![Part::ToolResult {
              call_id: id,
              content: format!("round {k}"),
            }],
          },
        ]
      })
      .collect();
    let doc = render(&messages, Granularity::Message);
    let unit_score = |k: usize| if k < 8 { 3.0 - 0.1 * k as f32 } else { 1.0 };
    let scores: Vec<(f32, bool)> = doc
      .segments
      .iter()
      .map(|s| (unit_score(s.message / 2), false))
      .collect();
    let select = |tokens: &[usize], budget: usize| {
      let options = Options {
        max_tokens: Some(REPLY_PRIMER + budget),
        ..Options::default()
      };
      let kept = select_messages(&messages, tokens, &scores, &doc, &options);
      let units: Vec<usize> = kept.iter().step_by(2).map(|i| i / 2).collect();
      assert_eq!(kept.len(), 2 * units.len(), "units whole: {kept:?}");
      units
    };
    assert_eq!(select(&[5; 18], 80), vec![0, 1, 2, 3, 4, 5, 6, 8]);
    // With room for all, nothing changes: everything that qualifies is kept.
    assert_eq!(select(&[5; 18], 90), (0..9).collect::<Vec<_>>());
    // A unit that would take over half the budget is not taken for its file alone.
    let mut tokens = [5; 18];
    tokens[16] = 25;
    tokens[17] = 20;
    assert_eq!(select(&tokens, 80), (0..8).collect::<Vec<_>>());
  }

  #[test]
  fn a_tight_budget_names_every_file_the_calls_act_on_in_the_text_too() {
    let call = |id: &str, path: &str| Message {
      role: "assistant".into(),
      name: None,
      parts: vec![Part::ToolCall {
        id: id.into(),
        name: "grep".into(),
        arguments: format!("{{\"pattern\":\"parse_expr\",\"path\":\"{path}\"}}"),
      }],
    };
    let result = |id: &str, content: String| Message {
      role: "tool".into(),
      name: None,
      parts: vec![Part::ToolResult {
        call_id: id.into(),
        content,
      }],
    };
    let mut messages = vec![Message::text(
      "user",
      "Fix the crash in parse_expr on nested brackets.",
    )];
    for k in 0..6 {
      let id = format!("p{k}");
      messages.push(call(&id, "/repo/src/parser.rs"));
      messages.push(result(
        &id,
        format!("fn parse_expr() crashes on nested brackets, attempt {k}: the parse_expr stack overflows"),
      ));
    }
    messages.push(call("l", "/repo/src/lexer.rs"));
    messages.push(result("l", "parse_expr reads bracket tokens".into()));
    let task = "Fix the crash in parse_expr on nested brackets";
    let options = Options {
      max_tokens: Some(120),
      keep_system: false,
      ..Options::default()
    };
    let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
    assert!(e.extracted_tokens <= 120);
    assert!(e.text.contains("src/lexer.rs"), "{}", e.text);
    assert!(e.text.contains("parse_expr stack overflows"), "{}", e.text);
  }

  /// A tool call (`name`, `arguments`) and its result, as two messages.
  fn tool_round(id: &str, name: &str, arguments: String, result: &str) -> [Message; 2] {
    [
      Message {
        role: "assistant".into(),
        name: None,
        parts: vec![Part::ToolCall {
          id: id.into(),
          name: name.into(),
          arguments,
        }],
      },
      Message {
        role: "tool".into(),
        name: None,
        parts: vec![Part::ToolResult {
          call_id: id.into(),
          content: result.into(),
        }],
      },
    ]
  }

  /// Two agents' work interleaved: this task's on the parser, a sibling's on the logger.
  fn two_agents(parser_edit: &str) -> (Vec<Message>, &'static str, Options) {
    let task = "Fix the crash in parse_expr on nested brackets";
    let sibling = "Add colour output to the logger, one colour per level";
    let mut messages = vec![Message::text("system", "You are a coding agent.")];
    for k in 0..4 {
      messages.extend(tool_round(
        &format!("p{k}"),
        "grep",
        "{\"pattern\":\"parse_expr\",\"path\":\"/repo/src/parser.rs\"}".into(),
        &format!("parse_expr crashes on nested brackets: the bracket stack of parse_expr overflows ({k})"),
      ));
      messages.extend(tool_round(
        &format!("l{k}"),
        "grep",
        "{\"pattern\":\"colour\",\"path\":\"/repo/src/logger.rs\"}".into(),
        &format!(
          "the logger writes every level without colour; colour output needs one colour per level ({k})"
        ),
      ));
    }
    messages.extend(tool_round(
      "e",
      "edit",
      format!("{{\"path\":\"/repo/src/parser.rs\",\"old\":\"depth\",\"new\":\"{parser_edit}\"}}"),
      "The edit was applied.",
    ));
    let options = Options {
      sibling_tasks: vec![sibling.into()],
      keep_system: false,
      ..Options::default()
    };
    (messages, task, options)
  }

  #[test]
  fn a_call_on_a_file_this_task_owns_is_kept_though_its_line_says_little() {
    // The edit's line shares no word with the task, only the path the rounds that name
    // parse_expr again and again act on: it is far below them in relevance. But it acts
    // on the file this task's calls keep returning to, and no sibling's evidence is there.
    let (messages, task, options) = two_agents("depth + 1");
    let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
    assert!(e.text.contains("depth + 1"), "{}", e.text);
    assert!(!e.text.contains("logger.rs"), "{}", e.text);
    // Without siblings, relevance alone decides: the faint line stays out.
    let alone = Options {
      sibling_tasks: Vec::new(),
      ..options
    };
    let e = extract_messages(&messages, task, &alone, &Cancel::new()).unwrap();
    assert!(!e.text.contains("depth + 1"), "{}", e.text);
  }

  #[test]
  fn a_call_is_named_unless_a_sibling_claims_its_whole_unit() {
    // A tight budget names each file this task's calls act on. The call on the lexer
    // returned one sentence on the sibling's logger among this task's own text: the
    // unit, line and result together, is still this task's, so the lexer is named.
    let (mut messages, task, mut options) = two_agents("depth + 1");
    for k in 0..4 {
      messages.extend(tool_round(
        &format!("q{k}"),
        "grep",
        "{\"pattern\":\"parse_expr\",\"path\":\"/repo/src/parser.rs\"}".into(),
        &format!("parse_expr recurses into nested brackets without a depth limit: round {k} of parse_expr"),
      ));
    }
    messages.extend(tool_round(
      "x",
      "grep",
      "{\"pattern\":\"parse_expr\",\"path\":\"/repo/src/lexer.rs\"}".into(),
      "The lexer hands parse_expr one token per bracket. Nested brackets come as nested tokens. \
       parse_expr crashes when the brackets nest deeply. Each level gets its colour.",
    ));
    options.max_tokens = Some(110);
    let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
    assert!(e.extracted_tokens <= 110);
    assert!(e.text.contains("src/lexer.rs"), "{}", e.text);
    assert!(!e.text.contains("logger"), "{}", e.text);
  }

  #[test]
  fn a_tool_unit_is_a_sibling_s_whole_when_any_of_its_segments_is() {
    // The sibling's call on its logger returned a sentence that names this task's
    // function among its own: line by line, that sentence is this task's; but it is the
    // sibling's work, and goes with the rest of its unit.
    let (mut messages, task, options) = two_agents("depth + 1");
    messages.extend(tool_round(
      "s",
      "grep",
      "{\"pattern\":\"level\",\"path\":\"/repo/src/logger.rs\"}".into(),
      "The logger prints one colour per level. Its level table is read before parse_expr handles nested brackets. \
       Colour output is off by default.",
    ));
    let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
    assert!(e.text.contains("depth + 1"), "{}", e.text);
    assert!(!e.text.contains("level table"), "{}", e.text);
    let doc = render(&messages, Granularity::Sentence);
    let at = doc.text.find("Its level table").unwrap();
    let i = doc
      .segments
      .iter()
      .position(|s| s.start <= at && at < s.end)
      .unwrap();
    assert_eq!(e.segments[i].dropped, Some(Reason::Sibling));
  }

  #[test]
  fn each_file_this_task_owns_is_named_though_its_call_line_matches_a_sibling() {
    // The call on the lexer says `colour` (the sibling's word), but its result is all
    // this task's: the unit and the file are this task's. Its line names the lexer; its
    // result, which a sibling's line came with, stays out.
    let (mut messages, task, options) = two_agents("depth + 1");
    messages.extend(tool_round(
      "x",
      "grep",
      "{\"pattern\":\"colour\",\"path\":\"/repo/src/lexer.rs\"}".into(),
      "The lexer hands parse_expr one token per bracket; parse_expr crashes on nested brackets.",
    ));
    let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
    assert!(e.text.contains("src/lexer.rs"), "{}", e.text);
    assert!(!e.text.contains("src/logger.rs"), "{}", e.text);
  }

  #[test]
  fn a_call_under_a_directory_only_a_sibling_s_statement_names_is_the_sibling_s() {
    // One code base in two versions, a task on each. The sibling's call on its copy of
    // the parser reads like this task's work, word for word; only the messages that set
    // the tasks say which copy is whose.
    let task = "Fix the crash in parse_expr on nested brackets";
    let sibling = "Update the changelog for the next release";
    let mut messages = vec![
      Message::text("user", &format!("Work in /work/app-v2.\n\n{task}")),
      Message::text("user", &format!("Work in /work/app-v1.\n\n{sibling}")),
    ];
    for (id, dir) in [("a", "app-v2"), ("b", "app-v1")] {
      messages.extend(tool_round(
        id,
        "view",
        format!("{{\"path\":\"/work/{dir}/src/parser.rs\"}}"),
        &format!("parse_expr crashes on nested brackets in {dir}"),
      ));
    }
    let options = Options {
      sibling_tasks: vec![sibling.into()],
      ..Options::default()
    };
    let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
    assert!(e.text.contains("in app-v2"), "{}", e.text);
    assert!(!e.text.contains("app-v1/src"), "{}", e.text);
    assert!(!e.text.contains("in app-v1"), "{}", e.text);
    // A thread that does not quote this task says nothing of where it works: both
    // copies' work reads as this task's.
    let unquoted = &messages[1..];
    let e = extract_messages(unquoted, task, &options, &Cancel::new()).unwrap();
    assert!(
      e.text.contains("in app-v2") && e.text.contains("in app-v1"),
      "{}",
      e.text
    );
  }

  #[test]
  fn anchors_name_absolute_directories() {
    let text = "Work in /work/app-v2. See /work/app-v2/src/a.rs, src/b.rs and /tmp or /x/y/.";
    let paths: Vec<&str> = absolute_paths(text).collect();
    assert_eq!(paths, vec!["/work/app-v2", "/work/app-v2/src/a.rs", "/x/y"]);
    assert!(under("/work/app-v2/src/a.rs", "/work/app-v2") && under("/work/app-v2", "/work/app-v2"));
    assert!(!under("/work/app-v20/a.rs", "/work/app-v2"));
  }

  #[test]
  fn named_files_are_paths_by_their_last_two_components() {
    let text = "Edit /repo/src/api/users.ts, then see src/api/users.ts:12 and \"lib/a.b.c.rs\"; \
                not e.g. this. or a/b or ./x/.hidden or https://example.org/docs/page.html.";
    let files: Vec<&str> = named_files(text).collect();
    assert_eq!(
      files,
      vec!["api/users.ts", "api/users.ts", "lib/a.b.c.rs", "docs/page.html"]
    );
  }

  #[test]
  fn keep_recent_and_keep_system_are_honoured() {
    let e = run_messages(
      "rate limiter leak",
      Options {
        keep_recent: 1,
        keep_system: false,
        ..Options::default()
      },
    );
    let kept = e.messages.unwrap();
    assert!(kept.contains(&7) && !kept.contains(&0), "{kept:?}");
    assert!(e.text.contains("Thanks."));
  }

  proptest::proptest! {
    /// `named_files` reads the same words as splitting the text at every character that
    /// cannot be in a path.
    #[test]
    fn named_files_reads_every_path_word(text in "([a-z_./ -]|\\PC){0,60}") {
      let path_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
      let plain: Vec<&str> = text.split(|c: char| !path_char(c)).filter_map(file_of).collect();
      proptest::prop_assert_eq!(named_files(&text).collect::<Vec<_>>(), plain);
    }

    /// `best_first` orders as comparing forced, then score (`total_cmp`, best first),
    /// then index: for any scores, negative zero, infinities and NaNs included.
    #[test]
    fn best_first_orders_as_the_comparison(
      rows in proptest::collection::vec(
        (
          proptest::bool::ANY,
          proptest::prop_oneof![
            proptest::num::f32::ANY,
            proptest::sample::select(vec![0.0f32, -0.0, 1.0, -1.0, f32::NAN, -f32::NAN, f32::INFINITY]),
          ],
        ),
        0..40,
      ),
      picked in proptest::collection::vec(proptest::bool::ANY, 40),
    ) {
      let forced: Vec<bool> = rows.iter().map(|r| r.0).collect();
      let own: Vec<f32> = rows.iter().map(|r| r.1).collect();
      let mut candidates: Vec<usize> = (0..rows.len()).filter(|&i| picked[i]).collect();
      let mut expected = candidates.clone();
      expected.sort_by(|&a, &b| forced[b].cmp(&forced[a]).then(own[b].total_cmp(&own[a])).then(a.cmp(&b)));
      best_first(&mut candidates, &forced, &own);
      proptest::prop_assert_eq!(candidates, expected);
    }
  }

  mod prepared {
    use super::*;
    use proptest::prelude::*;

    const WORDS: [&str; 16] = [
      "users",
      "src/api/users.ts",
      "emails",
      "validate",
      "rate",
      "limiter",
      "`hits`",
      "memory",
      "leak",
      "README.md",
      "routes",
      "A.1",
      "A.2",
      "the",
      "cache",
      "createUser",
    ];

    /// Text of paragraphs, headings, list items and code blocks made of `WORDS`.
    fn text_of(blocks: &[(u8, Vec<usize>)]) -> String {
      let mut out = String::new();
      for (kind, words) in blocks {
        let body: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
        match kind % 4 {
          0 => out.push_str(&format!("## {}\n\n", body.join(" "))),
          1 => out.push_str(&format!("- {}\n", body.join(" "))),
          2 => out.push_str(&format!("```\n{}\n```\n\n", body.join(" "))),
          _ => out.push_str(&format!("{}. {}.\n\n", body.join(" "), body.join(" "))),
        }
      }
      out
    }

    fn blocks() -> impl Strategy<Value = Vec<(u8, Vec<usize>)>> {
      proptest::collection::vec(
        (0u8..4, proptest::collection::vec(0usize..WORDS.len(), 1..8)),
        0..14,
      )
    }

    fn options() -> impl Strategy<Value = Options> {
      (
        proptest::option::of(0usize..200),
        proptest::collection::vec(proptest::collection::vec(0usize..WORDS.len(), 1..5), 0..3),
        0usize..3,
        0usize..3,
        any::<bool>(),
      )
        .prop_map(|(max_tokens, siblings, g, keep_recent, keep_system)| Options {
          max_tokens,
          sibling_tasks: siblings
            .iter()
            .map(|s| s.iter().map(|&w| WORDS[w]).collect::<Vec<_>>().join(" "))
            .collect(),
          granularity: [
            Granularity::Sentence,
            Granularity::Paragraph,
            Granularity::Message,
          ][g],
          keep_recent,
          keep_system,
          ..Options::default()
        })
    }

    /// Each task of a set keeps its own text and none of its siblings', whichever task
    /// asks and in whatever order it names the others.
    #[test]
    fn each_task_of_a_set_gets_its_own_row() {
      let text = "Validate emails in src/api/users.ts before saving a user.\n\nThe rate limiter counts `hits` per minute.\n\nThe memory leak comes from the routes cache.\n";
      let tasks = [
        "validate emails in users.ts",
        "rate limiter hits",
        "memory leak in the routes cache",
      ];
      let own = ["Validate emails", "rate limiter", "memory leak"];
      let cancel = Cancel::new();
      let prepared = Prepared::text(text, Encoding::default(), Granularity::Paragraph, &cancel).unwrap();
      for reversed in [false, true] {
        for i in 0..tasks.len() {
          let mut sibling_tasks: Vec<String> = (0..tasks.len())
            .filter(|&j| j != i)
            .map(|j| tasks[j].to_string())
            .collect();
          if reversed {
            sibling_tasks.reverse();
          }
          let options = Options {
            sibling_tasks,
            ..Options::default()
          };
          for e in [
            prepared.extract(tasks[i], &options, &cancel).unwrap(),
            extract_text(text, tasks[i], &options, &cancel).unwrap(),
          ] {
            for (j, o) in own.iter().enumerate() {
              assert_eq!(e.text.contains(o), i == j, "task {i} ({reversed}): {:?}", e.text);
            }
          }
        }
      }
    }

    /// Spawns of one batch extracting from one prepared thread at once: one scores the
    /// set of tasks, the others wait for its scores; all get what one-shot extraction gives.
    #[test]
    fn concurrent_batch_extracts_as_one_shot() {
      let thread = super::thread();
      let tasks = [
        "validate emails in src/api/users.ts",
        "fix the rate limiter",
        "the memory leak in the cache",
        "README.md routes",
      ];
      let cancel = Cancel::new();
      let prepared = Prepared::messages(
        thread.clone(),
        Encoding::default(),
        Granularity::Sentence,
        &cancel,
      )
      .unwrap();
      let options = |i: usize| Options {
        max_tokens: Some(60),
        sibling_tasks: tasks
          .iter()
          .enumerate()
          .filter(|&(j, _)| j != i)
          .map(|(_, t)| t.to_string())
          .collect(),
        ..Options::default()
      };
      let want: Vec<Extraction> = (0..tasks.len())
        .map(|i| extract_messages(&thread, tasks[i], &options(i), &cancel).unwrap())
        .collect();
      std::thread::scope(|scope| {
        let spawns: Vec<_> = (0..tasks.len())
          .map(|i| {
            let (prepared, options) = (&prepared, &options);
            scope.spawn(move || prepared.extract(tasks[i], &options(i), &Cancel::new()).unwrap())
          })
          .collect();
        for (i, spawn) in spawns.into_iter().enumerate() {
          assert_eq!(spawn.join().unwrap(), want[i]);
        }
      });
    }

    proptest! {
      #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

      /// A prepared thread extracts exactly what one-shot extraction does.
      #[test]
      fn text_extracts_as_one_shot(blocks in blocks(), task in proptest::collection::vec(0usize..WORDS.len(), 1..6), options in options()) {
        let text = text_of(&blocks);
        let task: Vec<&str> = task.iter().map(|&w| WORDS[w]).collect();
        let task = task.join(" ");
        let cancel = Cancel::new();
        let prepared = Prepared::text(&text, options.encoding, options.granularity, &cancel).unwrap();
        prop_assert_eq!(prepared.tokens(), count_tokens(&text, options.encoding));
        prop_assert_eq!(prepared.extract(&task, &options, &cancel).unwrap(), extract_text(&text, &task, &options, &cancel).unwrap());
      }

      /// The spawns of a batch: each task with the others as siblings, in any order, asked
      /// again (the scores of the set are kept), and after more sets than are kept.
      #[test]
      fn batches_extract_as_one_shot(blocks in blocks(), tasks in proptest::collection::vec(proptest::collection::vec(0usize..WORDS.len(), 1..5), 1..4), max_tokens in proptest::option::of(0usize..200)) {
        let text = text_of(&blocks);
        let tasks: Vec<String> = tasks.iter().map(|t| t.iter().map(|&w| WORDS[w]).collect::<Vec<_>>().join(" ")).collect();
        let cancel = Cancel::new();
        let prepared = Prepared::text(&text, Encoding::default(), Granularity::Sentence, &cancel).unwrap();
        let spawn = |i: usize, reversed: bool| {
          let mut sibling_tasks: Vec<String> = tasks.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, t)| t.clone()).collect();
          if reversed {
            sibling_tasks.reverse();
          }
          let options = Options { max_tokens, sibling_tasks, ..Options::default() };
          (prepared.extract(&tasks[i], &options, &cancel).unwrap(), extract_text(&text, &tasks[i], &options, &cancel).unwrap())
        };
        for round in 0..2 {
          for i in 0..tasks.len() {
            let (got, want) = spawn(i, round == 1);
            prop_assert_eq!(got, want);
          }
          // More sets than a prepared thread keeps: a task each, alone.
          for k in 0..=SCORED_SETS {
            let task = format!("{} {}", tasks[k % tasks.len()], WORDS[k]);
            let options = Options { max_tokens, ..Options::default() };
            prop_assert_eq!(prepared.extract(&task, &options, &cancel).unwrap(), extract_text(&text, &task, &options, &cancel).unwrap());
          }
        }
      }

      #[test]
      fn messages_extract_as_one_shot(messages in proptest::collection::vec((0usize..4, blocks()), 0..8), task in proptest::collection::vec(0usize..WORDS.len(), 1..6), options in options()) {
        let mut thread: Vec<Message> = messages
          .iter()
          .map(|(role, blocks)| Message::text(["system", "user", "assistant", "tool"][*role], &text_of(blocks)))
          .collect();
        thread.extend(super::thread());
        let task: Vec<&str> = task.iter().map(|&w| WORDS[w]).collect();
        let task = task.join(" ");
        let cancel = Cancel::new();
        let prepared = Prepared::messages(thread.clone(), options.encoding, options.granularity, &cancel).unwrap();
        let whole = extract_messages(&thread, &task, &options, &cancel).unwrap();
        prop_assert_eq!(&prepared.extract(&task, &options, &cancel).unwrap(), &whole);
        // Without the whole messages, the same text, segments and counts.
        let text_only = Extraction { messages: None, ..whole };
        prop_assert_eq!(&prepared.extract_as_text(&task, &options, &cancel).unwrap(), &text_only);
        prop_assert_eq!(&extract_messages_as_text(&thread, &task, &options, &cancel).unwrap(), &text_only);
      }
    }
  }
}
