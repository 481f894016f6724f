//! Copies: a call's arguments that repeat an earlier tool result, line for line.
//!
//! An agent edits what it has read: the text an edit replaces is copied from a view of
//! the file the same agent took before, and the view's result is what the agent saw.
//! The arguments alone are code that any task on the file matches; the unit they were
//! copied from is one more piece of the same agent's work, so it is judged with them.

use rustc_hash::FxHashMap;

use super::add_scaled;
use crate::core::segment::Segment;

/// Lines shorter than this (a brace, `else:`, `return x`) are found in many places and
/// tell nothing of where a copy came from.
const MIN_COPIED_LINE: usize = 20;
/// A call copies a result when at least this share of its argument lines (each long
/// enough) are lines of that result: most of what it quotes, not one shared line.
const MIN_COPIED_SHARE: f32 = 0.5;
/// A line that more results than this hold (a licence header, a common import) says
/// nothing of which one a call copied, and following it would make the search quadratic.
const MAX_LINE_HOLDERS: usize = 64;

/// Per unit (a call line of `lines`, in thread order): the earliest earlier unit whose
/// result holds most of the call's argument lines (`MIN_COPIED_SHARE`), if any. A result
/// line is read without a listing's line number (`  12\t`, `12:`), as a file view shows
/// it; argument lines are read with JSON string escapes undone, as the call wrote them.
pub(super) fn copied_from(
  text: &str,
  segments: &[Segment],
  companion: &[Option<usize>],
  lines: &[usize],
) -> Vec<Option<usize>> {
  let unit: FxHashMap<usize, usize> = lines.iter().enumerate().map(|(u, &c)| (c, u)).collect();
  // Each result's text: runs of its segments within one message.
  let mut holders: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
  let mut hold = |line: &str, u: usize| {
    let h = holders.entry(key(line)).or_default();
    if h.last() != Some(&u) && h.len() <= MAX_LINE_HOLDERS {
      h.push(u);
    }
  };
  let mut i = 0;
  while i < segments.len() {
    let Some(c) = companion[i] else {
      i += 1;
      continue;
    };
    let u = unit[&c];
    let mut j = i + 1;
    while j < segments.len() && companion[j] == Some(c) && segments[j].message == segments[i].message {
      j += 1;
    }
    for line in text[segments[i].start..segments[j - 1].end].lines() {
      let line = without_line_number(line);
      if line.len() >= MIN_COPIED_LINE {
        hold(line, u);
      }
    }
    i = j;
  }
  // What each call quotes: the lines of its string arguments, each once.
  let quotes: Vec<Vec<String>> = lines
    .iter()
    .map(|&c| {
      let mut q: Vec<String> = string_values(&text[segments[c].start..segments[c].end])
        .iter()
        .flat_map(|v| v.lines())
        .map(str::trim)
        .filter(|l| l.len() >= MIN_COPIED_LINE)
        .map(String::from)
        .collect();
      q.sort_unstable();
      q.dedup();
      q
    })
    .collect();

  let mut from = vec![None; lines.len()];
  let mut hits: FxHashMap<usize, usize> = FxHashMap::default();
  for (u, &c) in lines.iter().enumerate() {
    let quoted = &quotes[u];
    if quoted.is_empty() {
      continue;
    }
    hits.clear();
    for l in quoted {
      let Some(h) = holders.get(&key(l)) else { continue };
      if h.len() > MAX_LINE_HOLDERS {
        continue;
      }
      // Only results that came before the call could be copied.
      for &v in h.iter().filter(|&&v| v != u && lines[v] < c) {
        *hits.entry(v).or_default() += 1;
      }
    }
    let need = (quoted.len() as f32 * MIN_COPIED_SHARE).max(1.0);
    from[u] = hits
      .iter()
      .filter(|&(_, &n)| n as f32 >= need)
      .map(|(&v, _)| v)
      .min();
  }
  from
}

fn key(line: &str) -> u64 {
  use std::hash::{Hash, Hasher};
  let mut h = rustc_hash::FxHasher::default();
  line.hash(&mut h);
  h.finish()
}

/// Each unit's evidence (`sums`, per unit one value per task) judged with the units its
/// copies tie it to (`from`, from `copied_from`): plus the unit it copied from, and plus
/// the mean of the units that copied from it. The call alone is code that every task on
/// the file matches; the view it quotes and the edits that quote it are its agent's too.
/// Only the units' own evidence is added, not what their copies brought them: a chain of
/// edits does not pile up the evidence of its first view.
pub(super) fn with_copies(sums: &[Vec<f32>], from: &[Option<usize>]) -> Vec<Vec<f32>> {
  let mut pooled = sums.to_vec();
  let mut copies: Vec<(Vec<f32>, usize)> = vec![(vec![0.0; sums.first().map_or(0, Vec::len)], 0); sums.len()];
  for (u, f) in from.iter().enumerate() {
    if let Some(v) = *f {
      add_scaled(&mut pooled[u], &sums[v], 1.0);
      add_scaled(&mut copies[v].0, &sums[u], 1.0);
      copies[v].1 += 1;
    }
  }
  for (p, (c, count)) in pooled.iter_mut().zip(&copies) {
    add_scaled(p, c, 1.0 / (*count).max(1) as f32);
  }
  pooled
}

/// A listing's line without its line number (`   12\t` of `cat -n`, `12:` of `grep -n`),
/// trimmed.
fn without_line_number(line: &str) -> &str {
  let t = line.trim_start();
  let digits = t.bytes().take_while(u8::is_ascii_digit).count();
  if digits > 0 {
    if let Some(rest) = t[digits..].strip_prefix(['\t', ':']) {
      return rest.trim();
    }
  }
  t.trim_end()
}

/// The string literals of a call's JSON arguments (`"…"`), each with its escapes undone
/// (`\n`, `\t`, `\"`, `\\`, `\/`), so that the lines of a string argument are lines
/// again; other escapes are kept as written. An unclosed literal runs to the end.
fn string_values(text: &str) -> Vec<String> {
  let mut values = Vec::new();
  let mut chars = text.chars();
  while chars.any(|c| c == '"') {
    let mut out = String::new();
    loop {
      match chars.next() {
        None | Some('"') => break,
        Some('\\') => match chars.next() {
          Some('n') => out.push('\n'),
          Some('t') => out.push('\t'),
          Some('r') => {}
          Some(c @ ('"' | '\\' | '/')) => out.push(c),
          Some(c) => {
            out.push('\\');
            out.push(c);
          }
          None => break,
        },
        Some(c) => out.push(c),
      }
    }
    values.push(out);
  }
  values
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn listing_numbers_and_escapes_are_read_away() {
    assert_eq!(
      without_line_number("   12\t    def f(self, x):"),
      "def f(self, x):"
    );
    assert_eq!(without_line_number("12:def f(self, x):"), "def f(self, x):");
    assert_eq!(without_line_number("  2020 was a year"), "2020 was a year");
    assert_eq!(
      string_values(r#"→ edit {"old_str": "a\n  \"b\"\\", "n": 3}"#),
      ["old_str", "a\n  \"b\"\\", "n"]
    );
  }

  #[test]
  fn an_edit_copies_the_view_it_quotes() {
    use crate::core::segment::Kind;
    let (text, segments, companion) = crate::core::ownership::calls::tests::doc(&[
      ("→ view {\"path\":\"/repo/src/parser.rs\"}", Kind::Call, None),
      ("   1\tdef parse_expr(tokens, depth):", Kind::Text, Some(0)),
      (
        "   2\t    return parse_term(tokens, depth + 1)",
        Kind::Text,
        Some(0),
      ),
      ("→ view {\"path\":\"/repo/src/lexer.rs\"}", Kind::Call, None),
      ("   1\tdef next_token(source, position):", Kind::Text, Some(3)),
      (
        r#"→ edit {"old": "def parse_expr(tokens, depth):\n    return parse_term(tokens, depth + 1)", "new": "def parse_expr(tokens, depth, limit):"}"#,
        Kind::Call,
        None,
      ),
      ("The edit was applied.", Kind::Text, Some(5)),
      // Quotes one line of three: not a copy.
      (
        r#"→ edit {"old": "def next_token(source, position):\nreturn Token(source[position])\nposition = position + 1"}"#,
        Kind::Call,
        None,
      ),
      ("The edit was applied.", Kind::Text, Some(7)),
    ]);
    let lines = [0, 3, 5, 7];
    assert_eq!(
      copied_from(&text, &segments, &companion, &lines),
      [None, None, Some(0), None]
    );
  }

  #[test]
  fn a_unit_is_judged_with_its_copies() {
    // Unit 1 copied unit 0, and units 2 and 3 copied unit 1.
    let sums = [vec![4.0, 0.0], vec![1.0, 2.0], vec![0.0, 2.0], vec![2.0, 0.0]];
    let from = [None, Some(0), Some(1), Some(1)];
    let pooled = with_copies(&sums, &from);
    // Unit 0 with the one copy of it; unit 1 with its source and the mean of its copies;
    // units 2 and 3 with their source alone (not what it was pooled with).
    assert_eq!(
      pooled,
      [vec![5.0, 2.0], vec![6.0, 3.0], vec![1.0, 4.0], vec![3.0, 2.0]]
    );
  }
}
