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

mod code_block;
mod doc;
mod fit;
mod messages;
mod prepared;
mod score;
mod select;
#[cfg(test)]
mod tests;

pub use prepared::Prepared;

use doc::{render_counted, Doc};
use messages::select_messages;
use select::extract_doc;

use crate::core::cancel::{Cancel, Cancelled};
use crate::core::message::Message;
use crate::core::segment::Granularity;
use crate::core::tokens::Encoding;

use doc::Counted;
use prepared::ScoredSets;

use crate::core::relevance::Postings;

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
  /// Every reason, in the order of its code across the binding: code `k + 1` is
  /// `ALL[k]`, and 0 is kept (`ts/native.ts` reads the same table: a test pins it).
  pub const ALL: [Reason; 4] = [
    Reason::Irrelevant,
    Reason::Sibling,
    Reason::Budget,
    Reason::Internal,
  ];

  pub fn name(self) -> &'static str {
    match self {
      Reason::Irrelevant => "irrelevant",
      Reason::Sibling => "sibling",
      Reason::Budget => "budget",
      Reason::Internal => "internal",
    }
  }

  /// The code of a segment's outcome: 0 kept, else `1 +` the reason's place in `ALL`.
  pub fn code(reason: Option<Reason>) -> u8 {
    reason.map_or(0, |r| {
      1 + Self::ALL.iter().position(|&a| a == r).unwrap_or(0) as u8
    })
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

/// Extracts from plain text.
pub fn extract_text(
  text: &str,
  task: &str,
  options: &Options,
  cancel: &Cancel,
) -> Result<Extraction, Cancelled> {
  let (doc, whole) = Doc::of_text(text, options.granularity, options.encoding, cancel)?;
  let forced = vec![false; doc.segments.len()];
  Ok(extract_doc(&doc, &forced, Counts::Count(whole), None, task, options, cancel)?.0)
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
  let (doc, message_tokens, whole) = render_counted(messages, options.granularity, options.encoding, cancel)?;
  extract_from_messages(
    messages,
    &message_tokens,
    &doc,
    Counts::Count(whole),
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

/// The counts extraction needs: known (a prepared thread), or each segment's to be
/// counted, the whole input's known.
enum Counts<'a> {
  Known(&'a Counted),
  Count(usize),
}
