//! Records a text writes as a cycle of fields, line after line with no blank line between:
//! a ReAct agent's `Thought:` / `Action:` / `Action Input:` / `Observation:` steps
//! (`Thought 2:` in the paper's numbering), an interview's `Q:` / `A:`. Each return of the
//! cycle's opening field opens a record.

use rustc_hash::FxHashMap;

use super::stamps;

/// A field's key is this many bytes at most (`Action Input`, `Observation 12`): more
/// before a colon is a sentence's.
const MAX_KEY: usize = 32;

/// A cycle's fields each come at least this often: twice is a pattern, once is a line.
const MIN_RETURNS: usize = 2;

/// Per line, whether it opens a record of the text's cycle of fields; empty where the text
/// has none: fewer than two fields that recur, or a field that returns with no other
/// between (`Note:` lines are a list, not records). A conversation is no cycle: each of its
/// stamped lines is a message (`conversation`).
pub(super) fn openers(text: &str, lines: &[(usize, usize)]) -> Vec<bool> {
  let keys: Vec<Option<&str>> = lines
    .iter()
    .map(|&(s, e)| field_line(&text[s..e]).map(|(key, _)| key))
    .collect();
  if let Some(messages) = conversation(text, lines, &keys) {
    return messages;
  }
  let mut count: FxHashMap<&str, usize> = FxHashMap::default();
  for k in keys.iter().flatten() {
    *count.entry(k).or_default() += 1;
  }
  let recurs = |k: &str| count[k] >= MIN_RETURNS;
  if count.values().filter(|&&n| n >= MIN_RETURNS).count() < 2 {
    return Vec::new();
  }
  // The field that opens the cycle: the one that comes most often (a ReAct trajectory's
  // last `Thought:` comes with no `Action:`), the earliest of equals.
  let most = count.values().copied().max().unwrap_or(0);
  let Some(first) = keys.iter().flatten().copied().find(|k| count[k] == most) else {
    return Vec::new();
  };
  let mut other = true;
  for k in keys.iter().flatten().copied().filter(|k| recurs(k)) {
    if k == first {
      if !other {
        return Vec::new();
      }
      other = false;
    } else {
      other = true;
    }
  }
  keys.iter().map(|k| *k == Some(first)).collect()
}

/// Per line, whether it opens a message of a conversation: a line stamped with its time and
/// its speaker (`[10:03] alice: …`), where every line with a speaker is stamped and at least
/// two speakers speak more than once. People write two messages in a row, so whoever speaks
/// after whom, each such line is a message. `None` for a text that is no conversation.
fn conversation(text: &str, lines: &[(usize, usize)], keys: &[Option<&str>]) -> Option<Vec<bool>> {
  let mut count: FxHashMap<&str, usize> = FxHashMap::default();
  for (k, &(s, e)) in keys.iter().zip(lines) {
    if let Some(k) = k {
      stamps::after_stamp(&text[s..e])?;
      *count.entry(k).or_default() += 1;
    }
  }
  (count.values().filter(|&&n| n >= MIN_RETURNS).count() >= 2)
    .then(|| keys.iter().map(Option::is_some).collect())
}

/// A field line's key without its number (`Thought` of `Thought 2: …`), and its value:
/// words that open with a capital, before a colon that a space or the line's end follows.
/// After a stamp (`[10:03] alice: …`, `[10:03] <alice> …`: see `stamps`), the speaker is the
/// key, whatever its case.
pub fn field_line(line: &str) -> Option<(&str, &str)> {
  match stamps::after_stamp(line) {
    Some(rest) => keyed(rest, true),
    None => keyed(line, false),
  }
}

/// What a stamped line says, after its stamp and speaker (`Ed Wood was…` of `[10:04] bob: Ed
/// Wood was…`); `None` for a line that is no speaker's.
pub fn said(line: &str) -> Option<&str> {
  keyed(stamps::after_stamp(line)?, true).map(|(_, said)| said)
}

/// `field_line` of a line, after its stamp where `stamped`.
fn keyed(line: &str, stamped: bool) -> Option<(&str, &str)> {
  if let Some(nick) = line.strip_prefix('<').filter(|_| stamped) {
    let close = memchr::memchr(b'>', &nick.as_bytes()[..nick.len().min(MAX_KEY + 1)])?;
    return Some((&nick[..close], nick[close + 1..].trim()));
  }
  let window = &line.as_bytes()[..line.len().min(MAX_KEY + 1)];
  let colon = memchr::memchr(b':', window)?;
  let key = &line[..colon];
  let after = line.as_bytes().get(colon + 1);
  let worded = if stamped {
    key.starts_with(char::is_alphanumeric)
      && key
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.'))
  } else {
    key.starts_with(|c: char| c.is_ascii_uppercase())
      && key
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b' ' | b'_' | b'-'))
  };
  let key = key.trim_end_matches(|c: char| c.is_ascii_digit() || c == ' ');
  (worded && after.is_none_or(u8::is_ascii_whitespace)).then(|| (key, line[colon + 1..].trim()))
}
