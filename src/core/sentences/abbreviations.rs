//! Abbreviations that end no sentence, read as Punkt and pySBD read them: a word before a
//! full stop that is a known abbreviation, an initial (`C.`) or a dotted acronym (`U.S.`)
//! joins the sentence after it, unless that sentence opens with a word that opens
//! sentences (`The`, `He`: a stop word), which tells the abbreviation closed one.

use crate::core::terms::is_stop_word;

/// Whether the sentence `next` goes on the sentence `before`: `before` ends in an
/// abbreviation, and on the same line (a line break ends a sentence whatever stands
/// before it).
pub(super) fn continues_after(before: &str, next: &str) -> bool {
  if before.ends_with(['\n', '\r']) {
    return false;
  }
  // A list's number (`1.`, after the tags of an anchor it stands at) ends no sentence: the
  // item it numbers follows.
  let bare = before.trim();
  let bare = if bare.starts_with('<') {
    bare.rsplit('>').next().unwrap_or(bare)
  } else {
    bare
  };
  if bare
    .strip_suffix('.')
    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
  {
    return true;
  }
  let Some(word) = last_word(before) else {
    return false;
  };
  let lower = word.to_ascii_lowercase();
  let next_word = next
    .trim_start()
    .split(|c: char| !c.is_alphanumeric())
    .next()
    .unwrap_or("");
  let opens_with_number = next.trim_start().starts_with(|c: char| c.is_ascii_digit());
  if BEFORE_NAMES.binary_search(&lower.as_str()).is_ok() {
    return true;
  }
  // A capital alone is an initial (`A. P. Møller`), though `p.` in lower case is a page's.
  let initial = word.chars().count() == 1 && word.starts_with(char::is_uppercase);
  if !initial && BEFORE_NUMBERS.binary_search(&lower.as_str()).is_ok() {
    return opens_with_number;
  }
  let acronym = word.contains('.') && word.split('.').all(|p| !p.is_empty() && p.chars().count() <= 2);
  if initial || acronym || AMBIGUOUS.binary_search(&lower.as_str()).is_ok() {
    // An initial after it goes on the name (`S. A. Chandrasekhar`), though `A` is a stop word.
    let next_initial = next_word.chars().count() == 1
      && next_word.starts_with(char::is_uppercase)
      && next.trim_start()[next_word.len()..].starts_with('.');
    return next_initial || !is_stop_word(&next_word.to_lowercase());
  }
  false
}

/// Whether `word` (with its full stop) is an abbreviation that stands before a name
/// (`St.` of `Jack St. Clair Kilby`, `Dr.`, `Mt.`).
pub(crate) fn stands_before_name(word: &str) -> bool {
  word.strip_suffix('.').is_some_and(|w| {
    BEFORE_NAMES
      .binary_search(&w.to_ascii_lowercase().as_str())
      .is_ok()
  })
}

/// The word before the full stop that ends `sentence` (trailing spaces, no-break ones too,
/// and a closing quote aside: the initials of a nickname, `"T. J."`): letters and inner
/// full stops (`U.S`, `e.g`), `None` when it ends otherwise.
fn last_word(sentence: &str) -> Option<&str> {
  let t = sentence.trim_end_matches(|c: char| c.is_whitespace() && !matches!(c, '\n' | '\r'));
  let t = t.strip_suffix(['"', '”']).unwrap_or(t);
  let body = t.strip_suffix('.')?;
  let start = body
    .char_indices()
    .rev()
    .take_while(|&(_, c)| c.is_alphabetic() || c == '.')
    .last()
    .map(|(i, _)| i)?;
  let word = body[start..].trim_start_matches('.');
  (!word.is_empty() && !word.ends_with('.')).then_some(word)
}

/// Abbreviations always followed by more of their sentence: titles before a name, the
/// `v.` of a case, `e.g.`. Sorted, case-folded.
const BEFORE_NAMES: &[&str] = &[
  "a.k.a", "adm", "capt", "cf", "cmdr", "col", "det", "dr", "drs", "e.g", "fr", "ft", "gen", "gov", "hon",
  "i.e", "lt", "maj", "mr", "mrs", "ms", "mt", "prof", "rep", "rev", "sen", "sgt", "st", "ste", "v", "viz",
  "vs",
];

/// Abbreviations of a numbered thing or a year: they go on only when a number follows
/// (`No. 5`, `c. 1748`, `b. 1950`; `the answer is no.` ends its sentence). Sorted.
const BEFORE_NUMBERS: &[&str] = &[
  "art", "b", "c", "ch", "d", "eq", "est", "fig", "no", "nos", "op", "p", "pp", "ref", "refs", "sec", "vol",
];

/// Abbreviations that may close a sentence as well (`Acme Inc.`, `Jan.`, `et al.`): they go
/// on unless a sentence opener follows. Sorted.
const AMBIGUOUS: &[&str] = &[
  "al", "approx", "apr", "aug", "bros", "ca", "co", "corp", "dec", "dept", "esq", "etc", "feb", "inc", "jan",
  "jr", "jul", "jun", "ltd", "mar", "nov", "oct", "sept", "sr", "univ",
];

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn the_lists_are_sorted_for_binary_search() {
    for list in [BEFORE_NAMES, BEFORE_NUMBERS, AMBIGUOUS] {
      assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
    }
  }

  #[test]
  fn the_word_before_the_full_stop() {
    assert_eq!(last_word("published by C. "), Some("C"));
    assert_eq!(last_word("colorful, S.\u{a0}"), Some("S"));
    assert_eq!(last_word("the U.S. "), Some("U.S"));
    assert_eq!(last_word("tools, e.g. "), Some("e.g"));
    assert_eq!(last_word("Smith v."), Some("v"));
    assert_eq!(last_word("in 1990. "), None);
    assert_eq!(last_word("what? "), None);
    assert_eq!(last_word("wait... "), None);
  }
}
