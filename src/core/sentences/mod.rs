//! Sentence boundaries: the Unicode rules (UAX #29, `uax29`), and on top of them the
//! abbreviations that end no sentence (`abbreviations`: `United States v. Lopez`,
//! `C. S. Lewis`, `No. 5`, `Acme Inc. said`), as established segmenters (Punkt, pySBD)
//! read them.

mod abbreviations;
mod uax29;

use abbreviations::continues_after;

use crate::core::citations::{leading_markers, marker_at, tag_len, MAX_LABEL};
pub(crate) use abbreviations::stands_before_name;

/// Calls `f(start, end)` for each sentence of `text`: UAX #29's sentences, a bound after
/// an abbreviation taken back.
pub fn for_each_sentence(text: &str, mut f: impl FnMut(usize, usize)) {
  let mut pending: Option<(usize, usize)> = None;
  marked_sentences(text, |mut start, end| {
    // A bound inside a bracket that the sentence's last word opened (`in Burbank.[` |
    // `2] He was`, UAX #29 keeping an opening bracket with what it follows): the bracket's
    // group, a citation marker, ends the sentence.
    if let Some((first, last)) = pending {
      if let Some(close) = closing_label(&text[first..last], &text[start..end]) {
        let rest = &text[start + close..end];
        start += close + rest.len() - rest.trim_start().len();
      }
      // Markers after the full stop on its line (`made films. [3] He was`) are the
      // sentence's too; a line opening with one (a list of sources) is not.
      if !text[first..start].ends_with(['\n', '\r']) {
        start += leading_markers(&text[start..end]);
      }
      // What was taken is the pending sentence's (sentences are contiguous: `last` was
      // where this one started).
      pending = Some((first, start));
      if start == end {
        return;
      }
    }
    pending = match pending {
      Some((first, last)) if continues_after(&text[first..last], &text[start..end]) => Some((first, end)),
      Some((first, last)) => {
        f(first, last);
        Some((start, end))
      }
      None => Some((start, end)),
    };
  });
  if let Some((first, last)) = pending {
    f(first, last);
  }
}

/// UAX #29's sentences, each cut again after a full stop that markup follows, where UAX
/// #29 read the markup's letters as the next word in lower case: a citation marker
/// (`films.<sup>[1](#r1)</sup> Born in`, `films.[1](#r1) Born`) or a tag
/// (`films.</cite> <cite index="1-2">Born in`), where a capital follows.
fn marked_sentences(text: &str, mut f: impl FnMut(usize, usize)) {
  uax29::for_each_sentence(text, |start, end, marks| {
    let mut from = start;
    for &mark in marks.iter().filter(|&&at| at > start) {
      // The sentence's closing markup: markers and closing tags.
      let mut after = mark;
      while let Some(len) = marker_at(text, after)
        .map(|m| m.span.len())
        .or_else(|| tag_len(&text[after..end]).filter(|_| text[after..].starts_with("</")))
        .filter(|len| after + len < end)
      {
        after += len;
      }
      let rest = &text[after..end];
      let spaced = rest.trim_start_matches([' ', '\t']);
      // The next sentence's opening tags.
      let mut next = spaced;
      while let Some(len) = tag_len(next).filter(|_| !next.starts_with("</")) {
        next = &next[len..];
      }
      if spaced.len() < rest.len() && next.starts_with(char::is_uppercase) {
        let bound = end - spaced.len();
        f(from, bound);
        from = bound;
      }
    }
    f(from, end);
  });
}

/// Where `next` closes the bracket `before` ends with (`2]` after `Burbank.[`): just after
/// its label, a word of `MAX_LABEL` bytes at most.
fn closing_label(before: &str, next: &str) -> Option<usize> {
  if !before.ends_with('[') {
    return None;
  }
  let close = next.find(']')?;
  (close > 0 && close <= MAX_LABEL && !next[..close].contains(char::is_whitespace)).then_some(close + 1)
}

#[cfg(test)]
mod tests {
  use super::*;

  fn sentences(text: &str) -> Vec<&str> {
    let mut v = Vec::new();
    for_each_sentence(text, |a, b| v.push(&text[a..b]));
    v
  }

  #[test]
  fn abbreviations_end_no_sentence() {
    for text in [
      "Marie Louise v. Marie Louise was decided in 1985.",
      "In United States v. Lopez the court ruled.",
      "Acme vs. Globex went to trial.",
      "It was published by C. S. Lewis in 1955.",
      "The U.S. Army was founded in 1775.",
      "Apple Inc. announced a phone.",
      "Tools, e.g. hammers, are useful.",
      "He won No. 5 and Vol. 2 of the series.",
      "It opened in 1994 (ref. 10) to good reviews.",
      "Dr. Smith and Mr. Jones met St. Louis officials.",
      "It sold on Jan. 5, 1990 for a dollar.",
      "Él dijo Sr. García llegó.",
      "Thomas Joseph \"T. J.\" Lavin is a BMX rider.",
      "He was known as A. P. Møller, a shipowner.",
      "The novels of P. G. Wodehouse sold well.",
      "See p. 5 of the report.",
      "It was directed by S. A. Chandrasekhar in 1987.",
      "They played in Sault Ste. Marie and as Det. Connie McDowell.",
      "Joshua Harper (c. 1748 – 1799) and Wiley (b. 1750) came.",
    ] {
      assert_eq!(sentences(text), [text], "{text:?}");
    }
  }

  #[test]
  fn sentences_still_end_after_an_abbreviation_that_closes_one() {
    assert_eq!(
      sentences("He moved to the U.S. He then left."),
      ["He moved to the U.S. ", "He then left."]
    );
    assert_eq!(
      sentences("It needs vitamin C. The rest is fine."),
      ["It needs vitamin C. ", "The rest is fine."]
    );
    assert_eq!(
      sentences("The answer is no. Five people agreed."),
      ["The answer is no. ", "Five people agreed."]
    );
    assert_eq!(
      sentences("It was founded by Acme Inc.\nNext line."),
      ["It was founded by Acme Inc.\n", "Next line."]
    );
    assert_eq!(sentences("See Smith v.\nNext."), ["See Smith v.\n", "Next."]);
    // A citation marker right after the full stop is the sentence's.
    assert_eq!(
      sentences("He was born in Burbank.[2] He made films.[12]"),
      ["He was born in Burbank.[2] ", "He made films.[12]"]
    );
    assert_eq!(
      sentences("He was born in Burbank. [2][3] He made films. [4]"),
      ["He was born in Burbank. [2][3] ", "He made films. [4]"]
    );
    assert_eq!(
      sentences("A list [a, b]. Then [x] y."),
      ["A list [a, b]. ", "Then [x] y."]
    );
    assert_eq!(
      sentences("He said \"Take vitamin C.\" The rest is fine."),
      ["He said \"Take vitamin C.\" ", "The rest is fine."]
    );
  }

  /// Markup after a full stop (a marker, a closing tag, the next sentence's opening tag)
  /// ends the sentence where a capital follows, as it would without the markup.
  #[test]
  fn markup_after_a_full_stop_ends_the_sentence() {
    for (text, first) in [
      (
        "He made films.<sup>[1](#r1)</sup> Born in Burbank.",
        "He made films.<sup>[1](#r1)</sup> ",
      ),
      (
        "He made films.</cite> <cite index=\"1-2\">Born in Burbank.</cite>",
        "He made films.</cite> ",
      ),
      ("He made <b>films.</b> Born in Burbank.", "He made <b>films.</b> "),
    ] {
      assert_eq!(sentences(text)[0], first, "{text}");
    }
    // A tag's letters in lower case after it still carry the sentence on (`e.g.<br>and`).
    assert_eq!(sentences("He made films, e.g.</b> and more.").len(), 1);
  }
}
