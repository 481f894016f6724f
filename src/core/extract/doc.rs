//! What selection works on: the input as one text cut into segments (`Doc`), messages
//! rendered into it, what sanitizing marks internal, and every segment's tokens.

use std::borrow::Cow;
use std::ops::Range;

use rustc_hash::FxHashMap;

use crate::core::cancel::{Cancel, Cancelled, MESSAGES_PER_CHECK, SEGMENTS_PER_CHECK};
use crate::core::citations::Sources;
use crate::core::message::{Message, Part, REPLY_PRIMER};
use crate::core::parallel::{in_parallel, PARALLEL_BYTES};
use crate::core::sanitize::Sanitizer;
use crate::core::segment::{repeats, segment, segment_part, Granularity, Kind, Segment};
use crate::core::tokens::{Counter, Encoding};

/// What selection works on: the text, its segments, and per segment whether it must
/// never be kept, which segment must come with it and which earlier one it repeats.
/// The text is borrowed when it is the caller's own (a one-shot extraction from a
/// string): a copy of a 4 M-token thread is 15 MB of fresh pages, for nothing.
pub(super) struct Doc<'t> {
  pub text: Cow<'t, str>,
  pub segments: Vec<Segment>,
  /// Per segment: the first segment with the same text (`segment::repeats`).
  pub same: Vec<u32>,
  pub internal: Vec<bool>,
  /// A tool result's segments bring the line of the call that produced them.
  pub companion: Vec<Option<usize>>,
  /// The sources the text lists for its citations, which a kept citation brings along.
  pub sources: Option<Sources>,
}

impl<'t> Doc<'t> {
  pub fn new(text: Cow<'t, str>, segments: Vec<Segment>) -> Self {
    let n = segments.len();
    Self {
      same: repeats(&text, &segments),
      sources: Sources::read(&text, &segments),
      text,
      segments,
      internal: vec![false; n],
      companion: vec![None; n],
    }
  }

  /// The document of a text, and the text's tokens: counted on the thread that finds
  /// what is marked internal while this one segments (which takes longer).
  pub fn of_text(
    text: &'t str,
    granularity: Granularity,
    encoding: Encoding,
    cancel: &Cancel,
  ) -> Result<(Self, usize), Cancelled> {
    let sanitizer = Sanitizer::default();
    let (mut doc, ((removals, _), tokens)) = in_parallel(
      text.len() >= PARALLEL_BYTES,
      || {
        let mut segments = Vec::new();
        segment(text, 0, 0, granularity, &mut segments, 0);
        Doc::new(Cow::Borrowed(text), segments)
      },
      || {
        let removals = sanitizer.removals(text);
        (removals, Counter::new(encoding).count_repetitive(text, cancel))
      },
    );
    mark_removed(&mut doc, 0..text.len(), &removals);
    Ok((doc, tokens?))
  }

  /// The same document, owning its text.
  pub fn owned(self) -> Doc<'static> {
    Doc {
      text: Cow::Owned(self.text.into_owned()),
      segments: self.segments,
      same: self.same,
      internal: self.internal,
      companion: self.companion,
      sources: self.sources,
    }
  }
}

/// Token counts: every segment's, and the whole input's.
pub(super) struct Counted {
  pub segments: Vec<usize>,
  pub whole: usize,
}

/// Counts every segment of `doc` (each distinct text once); the whole input's count is
/// `whole`.
pub(super) fn count(
  doc: &Doc,
  whole: usize,
  encoding: Encoding,
  cancel: &Cancel,
) -> Result<Counted, Cancelled> {
  let mut counter = Counter::new(encoding);
  let mut segments = Vec::with_capacity(doc.segments.len());
  for (i, seg) in doc.segments.iter().enumerate() {
    if i % SEGMENTS_PER_CHECK == 0 {
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
  Ok(Counted { segments, whole })
}

/// Messages rendered (`render`), and each one's tokens and the list's
/// (`count_messages`): counted on a second thread while this one renders.
pub(super) fn render_counted(
  messages: &[Message],
  granularity: Granularity,
  encoding: Encoding,
  cancel: &Cancel,
) -> Result<(Doc<'static>, Vec<usize>, usize), Cancelled> {
  let (doc, counted) = in_parallel(
    text_bytes(messages) >= PARALLEL_BYTES,
    || render(messages, granularity),
    || count_messages(messages, &mut Counter::new(encoding), cancel),
  );
  let (tokens, whole) = counted?;
  Ok((doc, tokens, whole))
}

/// The bytes of the messages' text.
fn text_bytes(messages: &[Message]) -> usize {
  let part = |p: &Part| match p {
    Part::Text(t) | Part::Thinking(t) | Part::ToolResult { content: t, .. } => t.len(),
    Part::ToolCall { name, arguments, .. } => name.len() + arguments.len(),
    Part::Link(_) | Part::Other => 0,
  };
  messages.iter().flat_map(|m| &m.parts).map(part).sum()
}

/// Each message's tokens under the counting rule, and the list's (reply primer included).
fn count_messages(
  messages: &[Message],
  counter: &mut Counter,
  cancel: &Cancel,
) -> Result<(Vec<usize>, usize), Cancelled> {
  let mut tokens = Vec::with_capacity(messages.len());
  for (i, m) in messages.iter().enumerate() {
    if i % MESSAGES_PER_CHECK == 0 {
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

/// Renders messages as one text: a `### role` header per message, then its parts;
/// thinking is rendered (so audit can report it) but marked internal, never kept.
pub(super) fn render(messages: &[Message], granularity: Granularity) -> Doc<'static> {
  let mut text = String::new();
  let mut segments = Vec::new();
  let mut internal_ranges = Vec::new();
  let mut results: Vec<(Range<usize>, usize)> = Vec::new(); // segments of a result, and its call's line
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
      block = segment_part(&text[start..], start, i, granularity, &mut segments, block);
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
      block = segment_part(&text[from..], from, i, g, &mut segments, block);
      // A result answers the latest call before it with its id (ids can be reused).
      let call = match part {
        Part::ToolResult { call_id, .. } => calls.get(call_id).copied(),
        _ => None,
      };
      // Segments inside the message belong to its header's section, and a tool result's
      // to its call's: the call is the title of what it brought back.
      for s in &mut segments[first_segment..] {
        if s.heading.is_none() {
          s.heading = call.or(header);
        }
      }
      match part {
        Part::Thinking(_) => internal_ranges.push((first_segment, segments.len())),
        Part::ToolCall { id, .. } if first_segment < segments.len() => {
          segments[first_segment].kind = Kind::Call;
          calls.insert(id.clone(), first_segment);
        }
        Part::ToolResult { .. } => {
          if let Some(call) = call {
            results.push((first_segment..segments.len(), call));
          }
        }
        _ => {}
      }
    }
    if granularity == Granularity::Message {
      block = segment_part(
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
  for (range, call) in results {
    doc.companion[range].iter_mut().for_each(|c| *c = Some(call));
  }
  doc
}

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
