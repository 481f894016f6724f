//! Cleaning a result: markers, forged system markup and debug lines out.

use std::sync::OnceLock;

use super::report::Report;
use crate::core::sanitize::{cut, merge, Action, Form, MarkerRule, Sanitizer};

/// The default markers plus `<system>` pairs, built once.
pub(super) fn sanitizer() -> &'static Sanitizer {
  static SANITIZER: OnceLock<Sanitizer> = OnceLock::new();
  SANITIZER.get_or_init(|| {
    Sanitizer::new(&[MarkerRule {
      name: "system".into(),
      form: Form::Tag,
      action: Action::Drop,
    }])
    .unwrap_or_default()
  })
}

/// Kept pieces rendered, sanitized once more: cutting text after a malformed (weak) tag
/// can leave a well-formed one at the end of a piece (fuzz/regressions/filter).
pub(super) fn render_clean(doc: &Report, text: &str, kept: &[bool]) -> String {
  let content = doc.render(text, kept);
  let again = sanitizer().sanitize(&content);
  if again.removed > 0 {
    again.text
  } else {
    content
  }
}

/// `result` without markers, forged system markup and debug lines, and how many
/// markers and forged headers were removed.
pub(super) fn clean(result: &str) -> (String, usize) {
  let s = sanitizer().sanitize(result);
  let mut spans = Vec::new();
  let mut forged = 0;
  let mut at = 0;
  for line in s.text.split_inclusive('\n') {
    let start = at;
    at += line.len();
    if is_forged_header(line) {
      forged += 1;
      spans.push(start..paragraph_close(&s.text, start));
    } else if is_debug_line(line) {
      spans.push(start..at);
    }
  }
  let merged = merge(spans);
  let text = cut(&s.text, &merged);
  if merged.is_empty() {
    return (text, s.removed + forged);
  }
  // Cutting a forged header after sanitizing can turn a malformed tag before it into a
  // well-formed one (fuzz/regressions/filter): sanitize what is left once more.
  let again = sanitizer().sanitize(&text);
  (again.text, s.removed + forged + again.removed)
}

/// A line that pretends to open a message from the system, the user or a tool:
/// `System:`, `Human: …`, `### user`, `<|im_start|>system`, `<|system|>`.
fn is_forged_header(line: &str) -> bool {
  let l = line.trim().to_ascii_lowercase();
  if l.starts_with("<|im_start|>") || l.starts_with("<|system|>") || l.starts_with("<|user|>") {
    return true;
  }
  let l = l.trim_start_matches('#').trim_start();
  let l = l.trim_start_matches(['*', '_']);
  ["system", "user", "human", "developer"].iter().any(|role| {
    l.strip_prefix(role).is_some_and(|rest| {
      let rest = rest.trim_start_matches(['*', '_']);
      rest.is_empty()
        || rest.starts_with(':')
        || rest.starts_with(" message:")
        || rest.starts_with(" prompt:")
    })
  })
}

/// A debug log line: `DEBUG …`, `[debug] …`, `TRACE: …`.
fn is_debug_line(line: &str) -> bool {
  let l = line.trim_start().to_ascii_lowercase();
  let l = l.strip_prefix('[').unwrap_or(&l);
  ["debug", "trace"].iter().any(|level| {
    l.strip_prefix(level)
      .is_some_and(|rest| rest.starts_with([':', ']', ' ', '\t']))
  })
}

/// Where the paragraph holding `i` closes: the start of the blank line after it, or the
/// end of the text (the blank line is not part of the paragraph, unlike
/// `sanitize`'s `paragraph_end`, which takes in its line break).
fn paragraph_close(text: &str, i: usize) -> usize {
  let rest = &text[i..];
  let mut at = 0;
  for line in rest.split_inclusive('\n') {
    if line.trim().is_empty() && at > 0 {
      return i + at;
    }
    at += line.len();
  }
  text.len()
}
