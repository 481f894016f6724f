//! Hand-written equivalents of tiktoken's split regexes.
//!
//! tiktoken first cuts text into pieces with a backtracking regex, then byte-pair
//! encodes each piece. The regex is most of its cost; here each alternative of the
//! pattern is reproduced as a direct scan with the same leftmost-first, greedy (or
//! possessive) semantics. `tests/pretokenize.rs` checks every split against the
//! original patterns run by fancy-regex.
//!
//! cl100k_base: `'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|
//!   ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s`
//!
//! o200k_base: `[^\r\n\p{L}\p{N}]?[UPPER]*[LOWER]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//!   [^\r\n\p{L}\p{N}]?[UPPER]+[LOWER]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}|
//!    ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
//! with UPPER = `\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}` and LOWER = `\p{Ll}\p{Lm}\p{Lo}\p{M}`.

use super::classes::{wide_bits, ASCII, LETTER, LOWER, NUMBER, SPACE, UPPER};

/// Which split pattern to reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
  Cl100k,
  O200k,
}

/// Iterates over the pieces of `text` exactly as tiktoken's regex `find_iter` does.
pub fn pieces(text: &str, pattern: Pattern) -> Pieces<'_> {
  Pieces {
    text,
    pos: 0,
    pattern,
  }
}

pub struct Pieces<'a> {
  text: &'a str,
  pos: usize,
  pattern: Pattern,
}

impl<'a> Iterator for Pieces<'a> {
  type Item = &'a str;

  #[inline]
  fn next(&mut self) -> Option<&'a str> {
    if self.pos >= self.text.len() {
      return None;
    }
    let b = self.text.as_bytes();
    let end = match self.pattern {
      Pattern::Cl100k => cl100k_piece(b, self.pos),
      Pattern::O200k => o200k_piece(b, self.pos),
    };
    let piece = &self.text[self.pos..end];
    self.pos = end;
    Some(piece)
  }
}

/// Whether `left + right` splits into the pieces of `left` followed by those of `right`
/// (for both patterns), so that the two can be counted apart: true when `left` ends with
/// a line break and `right` starts with a character that is neither white space nor `/`.
///
/// Only two kinds of piece run through a line break: a white-space run, which ends
/// after its last line break when a non-space follows, and punctuation with its tail of
/// line breaks (and, in o200k, `/`), which ends at the first character that is none of
/// those. Every other piece stops at the line break, and no piece looks past the first
/// character after it (`tests/tokens_exact.rs` checks this against the regexes).
pub fn separable(left: &str, right: &str) -> bool {
  left.as_bytes().last() == Some(&b'\n')
    && !right.is_empty()
    && right.as_bytes()[0] != b'/'
    && !at(right.as_bytes(), 0).is(SPACE)
}

/// A decoded code point: its value, its class bits and its length in bytes.
#[derive(Clone, Copy)]
struct Ch {
  c: u32,
  bits: u8,
  len: usize,
}

impl Ch {
  #[inline]
  fn is(self, mask: u8) -> bool {
    self.bits & mask != 0
  }

  /// `[^\r\n\p{L}\p{N}]`: the optional one-character prefix of a word.
  #[inline]
  fn is_prefix(self) -> bool {
    !self.is(LETTER | NUMBER) && !is_newline(self.c)
  }

  /// `[^\s\p{L}\p{N}]`: punctuation and symbols.
  #[inline]
  fn is_punct(self) -> bool {
    !self.is(LETTER | NUMBER | SPACE)
  }
}

#[inline]
fn is_newline(c: u32) -> bool {
  c == '\r' as u32 || c == '\n' as u32
}

/// Decodes the code point starting at `i` (`b` is valid UTF-8 and `i < b.len()`).
/// ASCII, most of any transcript, is a table lookup inlined into every scan; the rest
/// is decoded out of line.
#[inline(always)]
fn at(b: &[u8], i: usize) -> Ch {
  let b0 = b[i];
  if b0 < 0x80 {
    return Ch {
      c: b0 as u32,
      bits: ASCII[b0 as usize],
      len: 1,
    };
  }
  at_wide(b, i)
}

#[inline(never)]
fn at_wide(b: &[u8], i: usize) -> Ch {
  let b0 = b[i];
  let (c, len) = if b0 < 0xE0 {
    (((b0 as u32 & 0x1F) << 6) | (b[i + 1] as u32 & 0x3F), 2)
  } else if b0 < 0xF0 {
    (
      ((b0 as u32 & 0x0F) << 12) | ((b[i + 1] as u32 & 0x3F) << 6) | (b[i + 2] as u32 & 0x3F),
      3,
    )
  } else {
    (
      ((b0 as u32 & 0x07) << 18)
        | ((b[i + 1] as u32 & 0x3F) << 12)
        | ((b[i + 2] as u32 & 0x3F) << 6)
        | (b[i + 3] as u32 & 0x3F),
      4,
    )
  };
  Ch {
    c,
    bits: wide_bits(c),
    len,
  }
}

/// End of the longest run of code points in `mask` starting at `i`.
#[inline]
fn run(b: &[u8], mut i: usize, mask: u8) -> usize {
  while i < b.len() {
    let ch = at(b, i);
    if !ch.is(mask) {
      break;
    }
    i += ch.len;
  }
  i
}

/// `\p{N}{1,3}` at `i`, where the first code point is known to be a number.
#[inline]
fn numbers(b: &[u8], mut i: usize) -> usize {
  for _ in 0..3 {
    if i >= b.len() {
      break;
    }
    let ch = at(b, i);
    if !ch.is(NUMBER) {
      break;
    }
    i += ch.len;
  }
  i
}

/// The ASCII letters (and the long s, which case-folds to `s`) of a contraction.
#[inline]
fn folds_to(b: &[u8], i: usize, lower: u8) -> Option<usize> {
  if i >= b.len() {
    return None;
  }
  let c = b[i];
  if c == lower || c == lower.to_ascii_uppercase() {
    return Some(i + 1);
  }
  // U+017F LATIN SMALL LETTER LONG S matches `s` case-insensitively.
  if lower == b's' && b[i..].starts_with("\u{17F}".as_bytes()) {
    return Some(i + 2);
  }
  None
}

/// `'s|'t|'re|'ve|'m|'ll|'d` (case-insensitive) at `i`, returning its end.
#[inline]
fn contraction(b: &[u8], i: usize) -> Option<usize> {
  if b.get(i) != Some(&b'\'') {
    return None;
  }
  let i = i + 1;
  for single in [b's', b't', b'm', b'd'] {
    if let Some(e) = folds_to(b, i, single) {
      return Some(e);
    }
  }
  for (first, second) in [(b'r', b'e'), (b'v', b'e'), (b'l', b'l')] {
    if let Some(e) = folds_to(b, i, first).and_then(|e| folds_to(b, e, second)) {
      return Some(e);
    }
  }
  None
}

/// The whitespace run starting at `i`: its end, the end of its last `\r`/`\n` (if
/// any), and the start of its last code point.
#[inline]
fn whitespace(b: &[u8], mut i: usize) -> (usize, Option<usize>, usize) {
  let mut last_newline_end = None;
  let mut last_start = i;
  while i < b.len() {
    let ch = at(b, i);
    if !ch.is(SPACE) {
      break;
    }
    last_start = i;
    i += ch.len;
    if is_newline(ch.c) {
      last_newline_end = Some(i);
    }
  }
  (i, last_newline_end, last_start)
}

/// ` ?[^\s\p{L}\p{N}]+` followed by a run of the `tail` characters, or `None`.
#[inline]
fn punctuation(b: &[u8], i: usize, first: Ch, tail: &[u8]) -> Option<usize> {
  let start = if first.c == ' ' as u32 && i + 1 < b.len() && at(b, i + 1).is_punct() {
    i + 1
  } else if first.is_punct() {
    i
  } else {
    return None;
  };
  let mut e = start;
  while e < b.len() {
    let ch = at(b, e);
    if !ch.is_punct() {
      break;
    }
    e += ch.len;
  }
  while e < b.len() && tail.contains(&b[e]) {
    e += 1;
  }
  Some(e)
}

fn cl100k_piece(b: &[u8], i: usize) -> usize {
  let first = at(b, i);
  let next = i + first.len;
  // '(?i:[sdmt]|ll|ve|re)
  if let Some(e) = contraction(b, i) {
    return e;
  }
  // [^\r\n\p{L}\p{N}]?+\p{L}++ (possessive: a prefix not followed by a letter fails)
  if first.is(LETTER) {
    return run(b, next, LETTER);
  }
  if first.is_prefix() && next < b.len() {
    let second = at(b, next);
    if second.is(LETTER) {
      return run(b, next + second.len, LETTER);
    }
  }
  // \p{N}{1,3}+
  if first.is(NUMBER) {
    return numbers(b, i);
  }
  // ' ?[^\s\p{L}\p{N}]++[\r\n]*+'
  if let Some(e) = punctuation(b, i, first, b"\r\n") {
    return e;
  }
  // Only whitespace is left.
  let (end, last_newline_end, last_start) = whitespace(b, i);
  if end == b.len() {
    return end; // \s++$
  }
  if let Some(e) = last_newline_end {
    return e; // \s*[\r\n]
  }
  if last_start > i {
    return last_start; // \s+(?!\S): all but the last space
  }
  next // \s
}

/// `[UPPER]*[LOWER]+` at `i` with backtracking: the upper run gives back code points
/// until a lower one can follow.
#[inline]
fn cased_word(b: &[u8], i: usize) -> Option<usize> {
  let mut p = i;
  let mut last_lower = None;
  while p < b.len() {
    let ch = at(b, p);
    if ch.is(LOWER) {
      last_lower = Some(p);
    }
    if !ch.is(UPPER) {
      break;
    }
    p += ch.len;
  }
  last_lower.map(|l| run(b, l, LOWER))
}

/// o200k pieces in ASCII text, the bulk of any transcript, matched byte by byte:
/// words with their optional one-character prefix (` the`, `(self`, `\tWord`), digits,
/// punctuation and white space. `None` wherever a non-ASCII character or an apostrophe
/// could change the match: the general scan takes those. (ASCII upper and lower case
/// letters are disjoint, so `[UPPER]*[LOWER]+` and `[UPPER]+[LOWER]*` need no
/// backtracking here.)
#[inline(always)]
fn o200k_ascii(b: &[u8], i: usize) -> Option<usize> {
  let c = b[i];
  let next = b.get(i + 1).copied();
  let mut j = i;
  if c.is_ascii_digit() {
    // \p{N}{1,3}
    while j < b.len() && j - i < 3 && b[j].is_ascii_digit() {
      j += 1;
    }
    return (j - i == 3 || j == b.len() || b[j] < 0x80).then_some(j);
  }
  if c >= 0x80 || next.is_some_and(|n| n >= 0x80) {
    return None;
  }
  let is_space = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C);
  let is_punct = |c: u8| c < 0x80 && !c.is_ascii_alphanumeric() && !is_space(c);
  if c.is_ascii_alphabetic() || (c != b'\r' && c != b'\n' && next.is_some_and(|n| n.is_ascii_alphabetic())) {
    // [^\r\n\p{L}\p{N}]?[UPPER]*[LOWER]+ or [^\r\n\p{L}\p{N}]?[UPPER]+[LOWER]*
    if !c.is_ascii_alphabetic() {
      j += 1;
    }
    while j < b.len() && b[j].is_ascii_uppercase() {
      j += 1;
    }
    while j < b.len() && b[j].is_ascii_lowercase() {
      j += 1;
    }
    return (j == b.len() || (b[j] < 0x80 && b[j] != b'\'')).then_some(j);
  }
  if is_punct(c) || (c == b' ' && next.is_some_and(is_punct)) {
    // ' ?[^\s\p{L}\p{N}]+[\r\n/]*'
    j = if c == b' ' { i + 1 } else { i };
    while j < b.len() && is_punct(b[j]) {
      j += 1;
    }
    if j < b.len() && b[j] >= 0x80 {
      return None;
    }
    while j < b.len() && matches!(b[j], b'\r' | b'\n' | b'/') {
      j += 1;
    }
    return Some(j);
  }
  // White space: \s*[\r\n]+, \s+(?!\S) or \s+.
  let mut last_newline_end = None;
  let mut last_start = i;
  while j < b.len() && is_space(b[j]) {
    last_start = j;
    j += 1;
    if matches!(b[j - 1], b'\r' | b'\n') {
      last_newline_end = Some(j);
    }
  }
  if j < b.len() && b[j] >= 0x80 {
    return None;
  }
  Some(if let Some(e) = last_newline_end {
    e
  } else if j == b.len() || last_start == i {
    j
  } else {
    last_start
  })
}

fn o200k_piece(b: &[u8], i: usize) -> usize {
  if let Some(e) = o200k_ascii(b, i) {
    return e;
  }
  let first = at(b, i);
  let next = i + first.len;
  let with_suffix = |e: usize| contraction(b, e).unwrap_or(e);
  // [^\r\n\p{L}\p{N}]?[UPPER]*[LOWER]+(contraction)?  — with the prefix, then without.
  if first.is_prefix() && next < b.len() {
    if let Some(e) = cased_word(b, next) {
      return with_suffix(e);
    }
  }
  if let Some(e) = cased_word(b, i) {
    return with_suffix(e);
  }
  // [^\r\n\p{L}\p{N}]?[UPPER]+[LOWER]*(contraction)?
  if first.is_prefix() && next < b.len() && at(b, next).is(UPPER) {
    return with_suffix(run(b, run(b, next, UPPER), LOWER));
  }
  if first.is(UPPER) {
    return with_suffix(run(b, run(b, i, UPPER), LOWER));
  }
  // \p{N}{1,3}
  if first.is(NUMBER) {
    return numbers(b, i);
  }
  // ' ?[^\s\p{L}\p{N}]+[\r\n/]*'
  if let Some(e) = punctuation(b, i, first, b"\r\n/") {
    return e;
  }
  // Only whitespace is left.
  let (end, last_newline_end, last_start) = whitespace(b, i);
  if let Some(e) = last_newline_end {
    return e; // \s*[\r\n]+
  }
  if end == b.len() {
    return end; // \s+(?!\S) at the end of the text
  }
  if last_start > i {
    return last_start; // \s+(?!\S): all but the last space
  }
  end // \s+
}
