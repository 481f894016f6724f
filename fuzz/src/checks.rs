//! What every fuzz target checks: not only "no panic" but the core's promises
//! (DESIGN.md, "Promises of the core"):
//!
//! - `sanitize`: sanitizing is idempotent, a second pass removes nothing, the output
//!   is the input with ranges removed (nothing added), and no marker is left.
//! - `segment`: segments are in bounds, on character boundaries, ordered, disjoint,
//!   non-empty and trimmed, and together they cover every non-blank character.
//! - `extract`: the output is made only of the input's text and the elision marker,
//!   in the input's order; its token count is exact and never above the budget; the
//!   same input gives the same output.
//! - `messages`: message counts follow the documented rule with tiktoken-rs as the
//!   oracle; extraction from messages keeps tool calls and results together and stays
//!   within the budget.
//! - `filter`: the filtered result fits `maxTokens`, its count is exact, it holds no
//!   marker the default sanitizer would find, and it is deterministic.
//! - `tokens`: counts equal tiktoken-rs's for both encodings, the cancellable path
//!   agrees, and `estimate` is `ceil(chars / 4)`.
//!
//! Inputs are decoded from raw bytes by [`Input`], which mixes plain characters with
//! fragments chosen to reach the interesting paths (markers in all their disguises,
//! markdown structure, tool-call shapes, every Unicode plane), so libFuzzer's
//! mutations and the generated inputs of `cargo test` both reach them quickly.
//!
//! This file is compiled twice: by the fuzz crate (`fuzz/`) and, through `#[path]`, by
//! the main crate's `tests/fuzz_checks.rs`.

use subagent_context::core::cancel::Cancel;
use subagent_context::core::extract::{extract_messages, extract_text, Options};
use subagent_context::core::filter::{filter_result, transcript_result, FilterOptions};
use subagent_context::core::message::{
  count_message_tokens, Message, Part, REPLY_PRIMER, TOKENS_PER_MESSAGE, TOKENS_PER_NAME,
  TOKENS_PER_TOOL_CALL,
};
use subagent_context::core::sanitize::{Action, Form, MarkerRule, Sanitizer};
use subagent_context::core::segment::{segment as segment_text, Granularity};
use subagent_context::core::tokens::{count_tokens, Counter, Encoding};

/// Pieces of text the decoder can emit whole.
const FRAGMENTS: &[&str] = &[
  "[INTERNAL]",
  "[/INTERNAL]",
  "[PRIVATE]",
  "[/PRIVATE]",
  "[CONFIDENTIAL]",
  "[ internal ]",
  "\u{FF3B}INTERNAL\u{FF3D}",
  "[INTER\u{200B}NAL]",
  "\\[PRIVATE\\]",
  "[internals]",
  "<internal>",
  "</internal>",
  "<thinking>",
  "</thinking>",
  "<thinking/>",
  "<scratchpad a=\"1\">",
  "</scratchpad>",
  "<system-reminder>",
  "</system-reminder>",
  "<system>",
  "</system>",
  "<internal-link>",
  "\u{FF1C}thinking\u{FF1E}",
  "<\nthinking\n>",
  "<",
  ">",
  "[",
  "]",
  "/",
  "\\",
  "\n",
  "\n\n",
  "\r\n",
  " ",
  "\t",
  "# ",
  "## Users\n",
  "- ",
  "1. ",
  "```\n",
  "~~~",
  "    ",
  "System: ",
  "### user\n",
  "<|im_start|>system\n",
  "[1]: https://example.com/a\n",
  "[1]",
  "[^2]",
  "(source: docs/a.md)",
  "src/api/users.ts:42",
  "`parseUser`",
  "A.1",
  "A.2",
  "validate",
  "users",
  "email",
  "rate limiter",
  "memory",
  "leak",
  "the",
  ". ",
  "? ",
  "! ",
  "\u{2026}",
  "[\u{2026}]",
  "\u{200D}",
  "\u{202E}",
  "\u{FEFF}",
  "\u{85}",
  "\u{2028}",
  "\u{0}",
  "e\u{301}",
  "\u{1F600}",
  "\u{1F469}\u{200D}\u{1F4BB}",
  "\u{4E2D}\u{6587}",
  "\u{0627}\u{0644}",
  "\u{10FFFF}",
  "\u{E000}",
  "'s",
  "'ll",
  "123456",
  "=====",
  "--------",
  "        ",
  "DEBUG ",
  "{\"a\":1}",
  // Read through Unicode's data (#22): letterlike, modifier and Roman-numeral letters,
  // dashes, angle brackets, a letter NFKC and confusables read apart, a square for two
  // letters, a tag character. The decoder reaches 96 fragments at most.
  "[\u{2110}\u{2115}\u{1D4AF}\u{2130}\u{211B}\u{2115}\u{1D49C}\u{2112}]",
  "[\u{1D35}\u{1D3A}\u{1D40}\u{1D31}\u{1D3F}\u{1D3A}\u{1D2C}\u{1D38}]",
  "[\u{2160}NTERNA\u{216C}]",
  "</system\u{FF0D}reminder>",
  "<system\u{2014}reminder>",
  "<internal/>",
  "\u{27E8}thinking\u{27E9}",
  "\u{3F2}",
  "\u{33CC}",
  "\u{E0041}",
];

/// A reader of fuzz bytes as structured input. Running out of bytes yields zeros, so
/// every byte string decodes to something.
pub struct Input<'a> {
  data: &'a [u8],
  at: usize,
}

impl<'a> Input<'a> {
  pub fn new(data: &'a [u8]) -> Self {
    Self { data, at: 0 }
  }

  pub fn byte(&mut self) -> u8 {
    let b = self.data.get(self.at).copied().unwrap_or(0);
    self.at += 1;
    b
  }

  pub fn done(&self) -> bool {
    self.at >= self.data.len()
  }

  pub fn bool(&mut self) -> bool {
    self.byte() & 1 == 1
  }

  /// A text of up to `units` pieces: ASCII characters (control characters too),
  /// fragments, and any scalar value.
  pub fn text(&mut self, units: usize) -> String {
    let n = self.byte() as usize % (units + 1);
    let mut s = String::new();
    for _ in 0..n {
      if self.done() {
        break;
      }
      let b = self.byte();
      match b {
        0..=0x7F => s.push(b as char),
        0x80..=0xDF => s.push_str(FRAGMENTS[(b as usize - 0x80) % FRAGMENTS.len()]),
        _ => {
          let v = u32::from_le_bytes([self.byte(), self.byte(), self.byte() & 0x1F, 0]);
          s.push(char::from_u32(v % 0x11_0000).unwrap_or('\u{FFFD}'));
        }
      }
    }
    s
  }

  pub fn encoding(&mut self) -> Encoding {
    match self.byte() % 3 {
      0 => Encoding::O200kBase,
      1 => Encoding::Cl100kBase,
      _ => Encoding::Estimate,
    }
  }

  pub fn granularity(&mut self) -> Granularity {
    match self.byte() % 3 {
      0 => Granularity::Message,
      1 => Granularity::Paragraph,
      _ => Granularity::Sentence,
    }
  }

  /// A budget: none, or small enough to bite.
  pub fn budget(&mut self) -> Option<usize> {
    match self.byte() {
      0..=63 => None,
      b => Some(b as usize - 64),
    }
  }

  pub fn message(&mut self, ids: &[&str]) -> Message {
    let role = ["system", "user", "assistant", "tool", "developer", ""][self.byte() as usize % 6];
    let name = (self.byte() % 4 == 0).then(|| self.text(4));
    let parts = (0..self.byte() % 4)
      .map(|_| match self.byte() % 5 {
        0 => Part::Thinking(self.text(24)),
        1 => Part::ToolCall {
          id: ids[self.byte() as usize % ids.len()].to_owned(),
          name: self.text(4),
          arguments: self.text(12),
        },
        2 => Part::ToolResult {
          call_id: ids[self.byte() as usize % ids.len()].to_owned(),
          content: self.text(24),
        },
        3 => Part::Other,
        _ => Part::Text(self.text(48)),
      })
      .collect();
    Message {
      role: role.to_owned(),
      name,
      parts,
    }
  }
}

fn oracle(text: &str, encoding: Encoding) -> usize {
  match encoding {
    Encoding::O200kBase => tiktoken_rs::o200k_base_singleton().encode_ordinary(text).len(),
    Encoding::Cl100kBase => tiktoken_rs::cl100k_base_singleton().encode_ordinary(text).len(),
    Encoding::Estimate => text.chars().count().div_ceil(4),
  }
}

/// `output` is `input` with some ranges removed: a subsequence of its characters.
fn is_subsequence(output: &str, input: &str) -> bool {
  let mut rest = input.chars();
  output.chars().all(|c| rest.by_ref().any(|d| d == c))
}

/// `output` is pieces of `input`, in order, joined by `elision`.
fn is_pieces_of(output: &str, input: &str, elision: &str) -> bool {
  if elision.is_empty() {
    return is_subsequence(output, input);
  }
  let mut at = 0;
  for piece in output.split(elision) {
    match input[at..].find(piece) {
      Some(i) => at += i + piece.len(),
      None => return false,
    }
  }
  true
}

fn rules(input: &mut Input) -> Vec<MarkerRule> {
  let names = ["todo", "Draft Notes", "system", "internal", "x"];
  (0..input.byte() % 3)
    .map(|_| MarkerRule {
      name: names[input.byte() as usize % names.len()].to_owned(),
      form: [Form::Bracket, Form::Tag, Form::Both][input.byte() as usize % 3],
      action: if input.bool() { Action::Drop } else { Action::Strip },
    })
    .collect()
}

/// The default markers in their plain spelling.
const PLAIN_MARKERS: &[&str] = &[
  "[internal]",
  "[/internal]",
  "[private]",
  "[/private]",
  "[confidential]",
  "[/confidential]",
  "<internal>",
  "</internal>",
  "<thinking>",
  "</thinking>",
  "<scratchpad>",
  "</scratchpad>",
  "<system-reminder>",
  "</system-reminder>",
];

pub fn sanitize(data: &[u8]) {
  let mut input = Input::new(data);
  let extra = rules(&mut input);
  let text = input.text(400);
  for sanitizer in [
    Sanitizer::default(),
    Sanitizer::new(&extra).expect("valid rule names"),
  ] {
    let once = sanitizer.sanitize(&text);
    assert!(
      is_subsequence(&once.text, &text),
      "sanitizing added text: {text:?} -> {:?}",
      once.text
    );
    if once.removed == 0 {
      assert_eq!(once.text, text, "nothing removed but the text changed");
    }
    // Independent of the scanner: no default marker is left in its plain spelling.
    let lower = once.text.to_lowercase();
    for plain in PLAIN_MARKERS {
      assert!(
        !lower.contains(plain),
        "{plain} left in {:?} (from {text:?})",
        once.text
      );
    }
    let twice = sanitizer.sanitize(&once.text);
    assert_eq!(
      twice.removed, 0,
      "a second pass found markers in {:?} (from {text:?})",
      once.text
    );
    assert_eq!(twice.text, once.text, "sanitizing is not idempotent on {text:?}");
  }
}

pub fn segment(data: &[u8]) {
  let mut input = Input::new(data);
  let granularity = input.granularity();
  let offset = input.byte() as usize;
  let text = input.text(400);
  let mut segments = Vec::new();
  let next = segment_text(&text, offset, 7, granularity, &mut segments, 3);
  assert!(next >= 3, "block numbers went backwards");
  let mut covered = vec![false; text.len()];
  let mut last_end = offset;
  for s in &segments {
    assert!(s.start < s.end, "empty segment {s:?} in {text:?}");
    assert!(
      s.start >= last_end,
      "segments overlap or are out of order in {text:?}: {segments:?}"
    );
    assert!(s.end <= offset + text.len(), "segment past the end in {text:?}");
    let (a, b) = (s.start - offset, s.end - offset);
    assert!(
      text.is_char_boundary(a) && text.is_char_boundary(b),
      "segment inside a character"
    );
    let piece = &text[a..b];
    assert_eq!(piece.trim(), piece, "untrimmed segment {piece:?}");
    assert_eq!(s.message, 7);
    assert!(
      s.block >= 3 && s.block < next,
      "block {} outside 3..{next}",
      s.block
    );
    if let Some(h) = s.heading {
      assert!(h < segments.len(), "heading index out of range");
    }
    covered[a..b].iter_mut().for_each(|c| *c = true);
    last_end = s.end;
  }
  for (i, c) in text.char_indices() {
    assert!(
      c.is_whitespace() || covered[i],
      "character {c:?} at {i} in no segment ({granularity:?}): {text:?}"
    );
  }
}

pub fn extract(data: &[u8]) {
  let mut input = Input::new(data);
  let options = Options {
    max_tokens: input.budget(),
    encoding: input.encoding(),
    min_relevance: f32::from(input.byte()) / 255.0,
    sibling_tasks: (0..input.byte() % 3).map(|_| input.text(8)).collect(),
    granularity: input.granularity(),
    elision: ["\n[…]\n", " ... ", "|", "[INTERNAL]"][input.byte() as usize % 4].to_owned(),
    keep_system: true,
    keep_recent: 0,
  };
  let task = input.text(12);
  let text = input.text(400);
  let e = extract_text(&text, &task, &options, &Cancel::new()).expect("not cancelled");
  assert!(
    is_pieces_of(&e.text, &text, &options.elision),
    "output is not input pieces joined by {:?}: {:?} from {text:?}",
    options.elision,
    e.text
  );
  assert_eq!(
    e.extracted_tokens,
    oracle(&e.text, options.encoding),
    "extracted count"
  );
  assert_eq!(
    e.original_tokens,
    oracle(&text, options.encoding),
    "original count"
  );
  if let Some(cap) = options.max_tokens {
    assert!(
      e.extracted_tokens <= cap,
      "{} tokens over a budget of {cap}",
      e.extracted_tokens
    );
  }
  let kept = e.segments.iter().filter(|s| s.dropped.is_none()).count();
  assert_eq!(kept == 0, e.text.is_empty(), "kept segments and output disagree");
  let again = extract_text(&text, &task, &options, &Cancel::new()).expect("not cancelled");
  assert_eq!(again, e, "not deterministic");
}

pub fn messages(data: &[u8]) {
  let mut input = Input::new(data);
  let ids = ["c1", "c2", "toolu_1", ""];
  let encoding = input.encoding();
  let n = input.byte() % 12;
  let messages: Vec<Message> = (0..n).map(|_| input.message(&ids)).collect();
  // The counting rule, with tiktoken-rs as the oracle.
  let t = |s: &str| oracle(s, encoding);
  let expected = if messages.is_empty() {
    0
  } else {
    REPLY_PRIMER
      + messages
        .iter()
        .map(|m| {
          TOKENS_PER_MESSAGE
            + t(&m.role)
            + m.name.as_deref().map_or(0, |n| t(n) + TOKENS_PER_NAME)
            + m
              .parts
              .iter()
              .map(|p| match p {
                Part::Text(s) | Part::Thinking(s) => t(s),
                Part::ToolCall { name, arguments, .. } => TOKENS_PER_TOOL_CALL + t(name) + t(arguments),
                Part::ToolResult { content, .. } => t(content),
                Part::Link(_) | Part::Other => 0,
              })
              .sum::<usize>()
        })
        .sum::<usize>()
  };
  let counted = count_message_tokens(&messages, &mut Counter::new(encoding), &Cancel::new());
  assert_eq!(counted, Ok(expected), "message count");
  // A transcript's result is its last assistant text and the tool outputs it cites:
  // never its thinking. Each thinking block is tagged with a sentinel no other part
  // holds, so finding the sentinel in the result can only mean a leak.
  let mut tagged = messages.clone();
  let mut k = 0;
  for m in &mut tagged {
    for p in &mut m.parts {
      if let Part::Thinking(t) = p {
        *t = format!("\u{E0001}THINK{k}\u{E0001} {t}");
        k += 1;
      }
    }
  }
  let sentinel_elsewhere = messages.iter().flat_map(|m| m.parts.iter()).any(|p| {
    text_of(p).contains("THINK") || matches!(p, Part::ToolCall { name, .. } if name.contains("THINK"))
  });
  if !sentinel_elsewhere {
    let result = transcript_result(&tagged);
    assert!(
      !result.contains("THINK"),
      "thinking leaked into the transcript result {result:?}"
    );
  }

  let options = Options {
    max_tokens: input.budget().map(|b| b * 4),
    encoding,
    min_relevance: f32::from(input.byte()) / 255.0,
    sibling_tasks: (0..input.byte() % 2).map(|_| input.text(8)).collect(),
    granularity: input.granularity(),
    elision: "\n[…]\n".to_owned(),
    keep_system: input.bool(),
    keep_recent: input.byte() as usize % 4,
  };
  let task = input.text(12);
  let e = extract_messages(&messages, &task, &options, &Cancel::new()).expect("not cancelled");
  let kept = e.messages.clone().expect("message input gives kept messages");
  assert!(
    kept.windows(2).all(|w| w[0] < w[1]),
    "kept messages out of order: {kept:?}"
  );
  assert!(
    kept.iter().all(|&i| i < messages.len()),
    "kept index out of range"
  );
  let subset: Vec<Message> = kept.iter().map(|&i| messages[i].clone()).collect();
  if let Some(cap) = options.max_tokens {
    assert!(
      e.extracted_tokens <= cap,
      "text {} tokens over {cap}",
      e.extracted_tokens
    );
    let cost = count_message_tokens(&subset, &mut Counter::new(encoding), &Cancel::new()).unwrap();
    assert!(cost <= cap, "kept messages cost {cost}, over {cap}");
  }
  assert_eq!(e.extracted_tokens, oracle(&e.text, encoding), "extracted count");
  // Tool units whole: a result answers the latest call before it with its id; a kept
  // result's call is kept, and a kept call's results are.
  let kept_set: Vec<bool> = (0..messages.len()).map(|i| kept.contains(&i)).collect();
  let mut caller: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
  for (j, m) in messages.iter().enumerate() {
    for p in &m.parts {
      match p {
        Part::ToolCall { id, .. } => {
          caller.insert(id.as_str(), j);
        }
        Part::ToolResult { call_id, .. } => {
          if let Some(&i) = caller.get(call_id.as_str()) {
            assert!(
              kept_set[i] == kept_set[j],
              "call {i} and its result {j} ({call_id:?}) split: kept {kept:?} of {:?}",
              messages
                .iter()
                .map(|m| (m.role.as_str(), m.parts.iter().map(shape).collect::<Vec<_>>()))
                .collect::<Vec<_>>()
            );
          }
        }
        _ => {}
      }
    }
  }
  let again = extract_messages(&messages, &task, &options, &Cancel::new()).expect("not cancelled");
  assert_eq!(again, e, "not deterministic");
}

fn text_of(p: &Part) -> &str {
  match p {
    Part::Text(t) | Part::Thinking(t) | Part::ToolResult { content: t, .. } => t,
    Part::ToolCall { arguments, .. } => arguments,
    Part::Link(_) | Part::Other => "",
  }
}

/// A part's kind and tool id, for messages about tool pairs.
fn shape(p: &Part) -> String {
  match p {
    Part::Text(_) => "text".into(),
    Part::Thinking(_) => "thinking".into(),
    Part::ToolCall { id, .. } => format!("call {id}"),
    Part::ToolResult { call_id, .. } => format!("result {call_id}"),
    Part::Link(id) => format!("link {id}"),
    Part::Other => "other".into(),
  }
}

pub fn filter(data: &[u8]) {
  let mut input = Input::new(data);
  let options = FilterOptions {
    max_tokens: input.budget(),
    encoding: input.encoding(),
    min_relevance: f32::from(input.byte()) / 255.0,
    keep_citations: input.bool(),
    focus: input.bool(),
  };
  let task = input.text(12);
  let result = input.text(400);
  let f = filter_result(&result, &task, &options, &Cancel::new()).expect("not cancelled");
  assert_eq!(
    f.filtered_tokens,
    oracle(&f.content, options.encoding),
    "filtered count"
  );
  assert_eq!(
    f.original_tokens,
    oracle(&result, options.encoding),
    "original count"
  );
  if let Some(cap) = options.max_tokens {
    assert!(
      f.filtered_tokens <= cap,
      "{} tokens over a budget of {cap}",
      f.filtered_tokens
    );
  }
  let left = Sanitizer::default().sanitize(&f.content);
  assert_eq!(
    left.removed, 0,
    "filtered content still has markers: {:?} (from {result:?})",
    f.content
  );
  let again = filter_result(&result, &task, &options, &Cancel::new()).expect("not cancelled");
  assert_eq!(
    (again.content, again.citations, again.filtered_tokens),
    (f.content, f.citations, f.filtered_tokens),
    "not deterministic"
  );
}

pub fn tokens(data: &[u8]) {
  // Raw bytes as text too (lossy), beside the structured decoding.
  let raw = String::from_utf8_lossy(data).into_owned();
  let mut input = Input::new(data);
  let text = input.text(400);
  for text in [&raw, &text] {
    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase, Encoding::Estimate] {
      let expected = oracle(text, encoding);
      assert_eq!(
        count_tokens(text, encoding),
        expected,
        "{encoding:?} count of {text:?}"
      );
      let mut counter = Counter::new(encoding);
      assert_eq!(counter.count_cancellable(text, &Cancel::new()), Ok(expected));
      // A reused counter (its cache warm) agrees.
      assert_eq!(counter.count(text), expected);
    }
  }
}

/// A small deterministic generator of byte strings for `cargo test`'s short pass.
pub struct Generator(u64);

impl Generator {
  pub fn new(seed: u64) -> Self {
    Self(seed | 1)
  }

  fn next(&mut self) -> u64 {
    // xorshift64*
    self.0 ^= self.0 >> 12;
    self.0 ^= self.0 << 25;
    self.0 ^= self.0 >> 27;
    self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
  }

  pub fn bytes(&mut self, max: usize) -> Vec<u8> {
    let n = (self.next() as usize) % (max + 1);
    (0..n).map(|_| self.next() as u8).collect()
  }
}

/// A target's checker.
pub type Check = fn(&[u8]);

/// The targets by name, for the short pass.
pub const TARGETS: &[(&str, Check)] = &[
  ("sanitize", sanitize),
  ("segment", segment),
  ("extract", extract),
  ("messages", messages),
  ("filter", filter),
  ("tokens", tokens),
];
