//! Sentence boundaries by the Unicode rules (UAX #29). ASCII text, by far the most
//! common, takes a direct implementation of the rules (several times faster than the
//! general table-driven one); anything else goes to `unicode-segmentation`, a line at
//! a time. Property tests check that both agree with `unicode-segmentation` on whole
//! texts.

use unicode_segmentation::UnicodeSegmentation;

/// Calls `f(start, end, marks)` for each sentence of `text`, as UAX #29 bounds them;
/// `marks` are where markup (`<`, `[`) stands right after a full stop, `!` or `?` inside
/// the sentence, found on the way (see `marked_sentences`).
pub(super) fn for_each_sentence(text: &str, mut f: impl FnMut(usize, usize, &[usize])) {
  let mut marks = Vec::new();
  // A line feed ends a sentence (SB4) and no rule looks past one, so each line is
  // bounded on its own: the few non-ASCII characters of a transcript send only their
  // own lines to the general implementation, not their whole paragraph.
  let mut start = 0;
  let ends = memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1);
  for end in ends.chain(std::iter::once(text.len())) {
    if end > start {
      line_sentences(&text[start..end], start, &mut marks, &mut f);
      start = end;
    }
  }
}

/// `for_each_sentence` within one line (its line feed, if any, last), which starts at
/// byte `base` of the text.
fn line_sentences(
  text: &str,
  base: usize,
  marks: &mut Vec<usize>,
  f: &mut impl FnMut(usize, usize, &[usize]),
) {
  let mut emit = |start: usize, end: usize, marks: &mut Vec<usize>| {
    let inside = marks.partition_point(|&m| m < base + end);
    f(base + start, base + end, &marks[..inside]);
    marks.drain(..inside);
  };
  let b = text.as_bytes();
  if !text.is_ascii() {
    marks.extend(
      memchr::memchr2_iter(b'<', b'[', b)
        .filter(|&at| at > 0 && matches!(b[at - 1], b'.' | b'!' | b'?'))
        .map(|at| base + at),
    );
    for (start, s) in text.split_sentence_bound_indices() {
      emit(start, start + s.len(), marks);
    }
    return;
  }
  let mut start = 0;
  let mut i = 0;
  // The next line break and the next terminator at or after `i`, found by vectorized search.
  let find = |i: usize, found: Option<usize>| found.map_or(b.len(), |k| i + k);
  let mut separator = find(0, memchr::memchr2(b'\r', b'\n', b));
  let mut terminator = find(0, memchr::memchr3(b'.', b'!', b'?', b));
  while i < b.len() {
    if separator < i {
      separator = find(i, memchr::memchr2(b'\r', b'\n', &b[i..]));
    }
    if terminator < i {
      terminator = find(i, memchr::memchr3(b'.', b'!', b'?', &b[i..]));
    }
    i = separator.min(terminator);
    if i >= b.len() {
      break;
    }
    let c = b[i];
    if c == b'\r' || c == b'\n' {
      // SB3/SB4: a paragraph separator ends the sentence.
      let end = after_separator(b, i);
      emit(start, end, marks);
      start = end;
      i = end;
      continue;
    }
    let aterm = c == b'.';
    let next = b.get(i + 1).copied();
    if matches!(next, Some(b'<' | b'[')) {
      marks.push(base + i + 1);
    }
    // SB6: ATerm × Numeric; SB7: (Upper|Lower) ATerm × Upper.
    if aterm && next.is_some_and(|n| n.is_ascii_digit()) {
      i += 1;
      continue;
    }
    if aterm && i > 0 && b[i - 1].is_ascii_alphabetic() && next.is_some_and(|n| n.is_ascii_uppercase()) {
      i += 1;
      continue;
    }
    // SB9/SB10: Close* Sp* belong to the sentence.
    let mut j = i + 1;
    while j < b.len() && is_close(b[j]) {
      j += 1;
    }
    while j < b.len() && is_sp(b[j]) {
      j += 1;
    }
    if j >= b.len() {
      break;
    }
    match b[j] {
      // SB11: a separator right after ends the sentence after it.
      b'\r' | b'\n' => {
        let end = after_separator(b, j);
        emit(start, end, marks);
        start = end;
        i = end;
      }
      // SB8a: SATerm Close* Sp* × (SContinue | SATerm).
      n if is_scontinue(n) || matches!(n, b'.' | b'!' | b'?') => i = j,
      // SB8: ATerm Close* Sp* × (¬(OLetter | Upper | Lower | ParaSep | SATerm))* Lower.
      _ if aterm && continues_lower(&b[j..]) => i = j,
      // SB11: break.
      _ => {
        emit(start, j, marks);
        start = j;
        i = j;
      }
    }
  }
  if start < b.len() {
    emit(start, b.len(), marks);
  }
}

/// The end of the separator at `i`: CR LF is one.
fn after_separator(b: &[u8], i: usize) -> usize {
  if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
    i + 2
  } else {
    i + 1
  }
}

/// Close: quotation marks and brackets.
fn is_close(c: u8) -> bool {
  matches!(c, b'"' | b'\'' | b'(' | b')' | b'[' | b']' | b'{' | b'}')
}

/// Sp: white space other than the separators.
fn is_sp(c: u8) -> bool {
  matches!(c, b' ' | b'\t' | 0x0B | 0x0C)
}

fn is_scontinue(c: u8) -> bool {
  matches!(c, b',' | b'-' | b':' | b';')
}

/// Whether the first letter ahead (before any separator or terminator) is lower case.
fn continues_lower(rest: &[u8]) -> bool {
  for &c in rest {
    if c.is_ascii_lowercase() {
      return true;
    }
    if c.is_ascii_uppercase() || matches!(c, b'\r' | b'\n' | b'.' | b'!' | b'?') {
      return false;
    }
  }
  false
}

#[cfg(test)]
mod tests {
  use super::*;
  use proptest::prelude::*;

  fn ours(text: &str) -> Vec<&str> {
    // The rules alone, without the abbreviations read on top of them.
    let mut v = Vec::new();
    for_each_sentence(text, |a, b, _| v.push(&text[a..b]));
    v
  }

  fn reference(text: &str) -> Vec<&str> {
    text.split_sentence_bounds().collect()
  }

  #[test]
  fn common_cases_match_the_reference() {
    for text in [
      "Hello world. This is it! Really? yes.",
      "Mr. Smith went to Washington. He said \"hi.\" Then left.",
      "Version 3.5 is out. U.S.A. is big. e.g. this stays.",
      "One.\nTwo.\r\nThree\n\nFour",
      "Wait... what?! (Really.) \"Yes.\"  Next one",
      "a.b. c. D",
      "",
    ] {
      assert_eq!(ours(text), reference(text), "{text:?}");
    }
  }

  proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]
    #[test]
    fn lines_apart_agree_with_unicode_segmentation_on_the_whole(text in "[aZé .!?。\"')(,;\n\r\t\u{85}\u{2028}\u{301}\u{200B}\u{A0}1«»]{0,40}") {
      prop_assert_eq!(ours(&text), reference(&text));
    }

    #[test]
    fn ascii_agrees_with_unicode_segmentation(text in "[aZbB1 .!?\"')(\\[\\]{},;:\\-\n\r\t\u{b}\u{c}#]{0,40}") {
      prop_assert_eq!(ours(&text), reference(&text));
    }
  }
}
