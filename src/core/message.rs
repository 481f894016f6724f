//! Chat messages in a format-neutral form, and what they cost in tokens.
//!
//! The binding reads every format agent frameworks hand over (OpenAI Chat, Anthropic
//! Messages, Vercel AI SDK model and UI messages, OpenAI Responses API items, OpenAI
//! Agents JS items; LangChain messages arrive converted) into this one shape; everything
//! in the core that works on messages works on it. An item that is not a message (a
//! Responses `function_call`, `reasoning`, a hosted tool call) is read as the message it
//! stands for: calls and reasoning as `assistant`, outputs as `tool`.
//!
//! # Counting rule
//!
//! The rule OpenAI documents for its chat models, extended to tool calls:
//! - every message costs [`TOKENS_PER_MESSAGE`] for its framing, plus its role;
//! - a `name` costs its tokens plus [`TOKENS_PER_NAME`];
//! - text, thinking (reasoning, reasoning summaries) and tool-result content cost their tokens;
//! - a tool call costs its name, its arguments as JSON text, and [`TOKENS_PER_TOOL_CALL`];
//! - a non-empty list of messages costs [`REPLY_PRIMER`] once, for the reply's framing;
//! - a hosted tool call (web search, file search, code interpreter, MCP, …) is a tool
//!   call named by its kind with its query or code as arguments, and its result;
//! - images, files and other binary parts cost nothing here: their price depends on
//!   the provider and the resolution, not on text; links (approval ids) cost nothing.

use crate::core::cancel::{Cancel, Cancelled};
use crate::core::parallel::in_parallel;
use crate::core::tokens::Counter;

/// Framing of each message (`<|start|>role ... <|end|>`).
pub const TOKENS_PER_MESSAGE: usize = 3;
/// Extra cost of a message's `name` field.
pub const TOKENS_PER_NAME: usize = 1;
/// Framing of each tool call around its name and arguments.
pub const TOKENS_PER_TOOL_CALL: usize = 3;
/// Framing of the reply, counted once per non-empty list of messages.
pub const REPLY_PRIMER: usize = 3;

/// One piece of a message's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
  /// Visible text.
  Text(String),
  /// A model's reasoning (Anthropic `thinking`, AI SDK `reasoning`).
  Thinking(String),
  /// A request to run a tool; `arguments` is JSON text.
  ToolCall {
    id: String,
    name: String,
    arguments: String,
  },
  /// The output of a tool call, as text (JSON text for structured output).
  ToolResult { call_id: String, content: String },
  /// Ties the messages that carry the same id into one unit (an AI SDK tool approval
  /// request and its response); carries no text.
  Link(String),
  /// Images, files and anything else without text.
  Other,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
  pub role: String,
  pub name: Option<String>,
  pub parts: Vec<Part>,
}

impl Message {
  /// A message with a single text part.
  pub fn text(role: &str, text: &str) -> Self {
    Self {
      role: role.to_owned(),
      name: None,
      parts: vec![Part::Text(text.to_owned())],
    }
  }

  /// Tokens of this message under the counting rule, without the reply primer.
  pub fn tokens(&self, counter: &mut Counter) -> usize {
    let mut n = TOKENS_PER_MESSAGE + counter.count(&self.role);
    if let Some(name) = &self.name {
      n += counter.count(name) + TOKENS_PER_NAME;
    }
    for part in &self.parts {
      n += match part {
        Part::Text(t) | Part::Thinking(t) => counter.count(t),
        Part::ToolCall { name, arguments, .. } => {
          TOKENS_PER_TOOL_CALL + counter.count(name) + counter.count(arguments)
        }
        Part::ToolResult { content, .. } => counter.count(content),
        Part::Link(_) | Part::Other => 0,
      };
    }
    n
  }
}

/// Lists at least this long are counted by two threads.
const PARALLEL_MESSAGES: usize = 2048;

/// Tokens of a whole list of messages under the counting rule.
pub fn count_message_tokens(
  messages: &[Message],
  counter: &mut Counter,
  cancel: &Cancel,
) -> Result<usize, Cancelled> {
  if messages.is_empty() {
    return Ok(0);
  }
  let sum = |messages: &[Message], counter: &mut Counter| -> Result<usize, Cancelled> {
    let mut total = 0;
    for (i, m) in messages.iter().enumerate() {
      if i % 1024 == 0 {
        cancel.check()?;
      }
      total += m.tokens(counter);
    }
    Ok(total)
  };
  // A long list is counted in two halves at once.
  let (first, second) = messages.split_at(messages.len() / 2);
  let encoding = counter.encoding();
  let (b, a) = in_parallel(
    messages.len() >= PARALLEL_MESSAGES,
    || sum(second, &mut Counter::new(encoding)),
    || sum(first, counter),
  );
  Ok(REPLY_PRIMER + a? + b?)
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::core::tokens::{count_tokens, Encoding};

  #[test]
  fn counts_follow_the_documented_rule() {
    let mut counter = Counter::new(Encoding::O200kBase);
    let t = |s: &str| count_tokens(s, Encoding::O200kBase);
    let messages = vec![
      Message::text("system", "You are terse."),
      Message {
        role: "assistant".into(),
        name: Some("planner".into()),
        parts: vec![
          Part::Text("Let me look.".into()),
          Part::ToolCall {
            id: "c1".into(),
            name: "read_file".into(),
            arguments: r#"{"path":"a.ts"}"#.into(),
          },
        ],
      },
      Message {
        role: "tool".into(),
        name: None,
        parts: vec![
          Part::ToolResult {
            call_id: "c1".into(),
            content: "export {}".into(),
          },
          Part::Other,
        ],
      },
    ];
    let expected = REPLY_PRIMER
      + (TOKENS_PER_MESSAGE + t("system") + t("You are terse."))
      + (TOKENS_PER_MESSAGE + t("assistant") + t("planner") + TOKENS_PER_NAME + t("Let me look."))
      + (TOKENS_PER_TOOL_CALL + t("read_file") + t(r#"{"path":"a.ts"}"#))
      + (TOKENS_PER_MESSAGE + t("tool") + t("export {}"));
    assert_eq!(
      count_message_tokens(&messages, &mut counter, &Cancel::new()),
      Ok(expected)
    );
  }

  #[test]
  fn no_messages_cost_nothing() {
    let mut counter = Counter::new(Encoding::Cl100kBase);
    assert_eq!(count_message_tokens(&[], &mut counter, &Cancel::new()), Ok(0));
  }

  #[test]
  fn a_cancelled_count_stops() {
    let cancel = Cancel::new();
    cancel.cancel();
    let mut counter = Counter::new(Encoding::Cl100kBase);
    assert_eq!(
      count_message_tokens(&[Message::text("user", "hi")], &mut counter, &cancel),
      Err(Cancelled)
    );
  }
}
