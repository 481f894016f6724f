//! Citations as a text writes them: markers (`[3]`) and the definitions that list what
//! they cite (`[3]: https://…`, `[3] Ed Wood. https://…`). The filter keeps a kept
//! marker's definition; relevance names a paragraph by the sources it cites; extraction
//! brings a kept citation's definition along.

use std::borrow::Cow;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::core::segment::{Kind, Segment};

/// The longest citation label read as one (`[1]`, `[^note]`, `[call_abc123]`): longer
/// bracketed text is prose in brackets, not a label.
pub const MAX_LABEL: usize = 64;

/// A definition line's label and target: `[1]: https://…`, `[^note]: text`.
pub fn definition(line: &str) -> Option<(&str, &str)> {
  let l = line.trim();
  let rest = l.strip_prefix('[')?;
  let close = rest.find("]:")?;
  let label = &rest[..close];
  let target = rest[close + 2..].trim();
  (!label.is_empty() && label.len() <= MAX_LABEL && !label.contains(['[', ']']) && !target.is_empty())
    .then_some((label, target))
}

/// A line that may define a marker without the colon, as references are often listed:
/// `[1] Title — https://…`, `1. Title (https://…)`, `2) Title`. It defines `[1]` only
/// where the text cites `[1]` (see `Report::parse`): otherwise it is an item of a list.
pub fn listed_definition(line: &str) -> Option<(&str, &str)> {
  let l = line.trim();
  let (label, target) = match l.strip_prefix('[') {
    Some(rest) => {
      let close = rest.find(']')?;
      (&rest[..close], &rest[close + 1..])
    }
    None => {
      let digits = l.bytes().take_while(u8::is_ascii_digit).count();
      let rest = l[digits..].strip_prefix(['.', ')'])?;
      (&l[..digits], rest)
    }
  };
  // `[text](url)` is a link, `[1]:` a definition of the strict form.
  let bracketed = l.starts_with('[');
  if bracketed && target.starts_with(['(', ':']) {
    return None;
  }
  let target = target.strip_prefix([' ', '\t'])?.trim();
  (!label.is_empty() && label.len() <= MAX_LABEL && !label.contains(['[', ']', ' ']) && !target.is_empty())
    .then_some((label, target))
}

/// The labels of `[label]` markers in `text` (not inline links `[text](url)`).
pub fn markers(text: &str) -> impl Iterator<Item = &str> {
  let bytes = text.as_bytes();
  let mut i = 0;
  std::iter::from_fn(move || {
    while let Some(open) = memchr::memchr(b'[', &bytes[i..]) {
      let at = i + open;
      i = at + 1;
      // A label closes within `MAX_LABEL` bytes: the search stops there.
      let window = &bytes[at + 1..bytes.len().min(at + 2 + MAX_LABEL)];
      if let Some(len) = memchr::memchr(b']', window) {
        let label = &text[at + 1..at + 1 + len];
        let after = bytes.get(at + 2 + len).copied();
        if !label.is_empty() && !label.contains(['[', '\n']) && after != Some(b'(') && after != Some(b':') {
          return Some(label);
        }
      }
    }
    None
  })
}

/// The title of what a definition's target lists, however the reference is written:
/// `Ed Wood — https://…`, `Ed Wood. Wikipedia. https://…`, `Wikipedia: Ed Wood. https://…`,
/// IEEE's `"Ed Wood," *Wikipedia*. [Online]. Available: https://…`, or an address alone.
/// Where the address's last part names what the text writes (`…/wiki/Ed_Wood`), that is the
/// title, as the text writes it; else the text without the site's name and a catalogue's
/// words (`Online`, `Available`) at either end; else, for an address alone, what its last
/// part names.
pub fn title_of(target: &str) -> Cow<'_, str> {
  let address = target
    .split_whitespace()
    .map(|w| w.trim_matches(['(', ')', '<', '>']))
    .find(|w| w.contains("://"));
  let text = target.split(" http").next().unwrap_or(target);
  let text = text.split(" (http").next().unwrap_or(text);
  let text = text.split(" <http").next().unwrap_or(text);
  let text = if text.contains("://") { "" } else { text };
  let slug = address.map(address_name).unwrap_or_default();
  if !slug.is_empty() {
    if let Some(at) = text.to_lowercase().find(&slug.to_lowercase()) {
      // It is the title where it stands whole, not a word of it (`ed` of `Ed Wood`), and
      // where it falls on the text's own character boundaries (lowercasing may move bytes
      // in other scripts).
      let whole = |rest: &str| !rest.trim_start().starts_with(char::is_alphanumeric);
      if let (Some(named), Some(after)) = (text.get(at..at + slug.len()), text.get(at + slug.len()..)) {
        if !text[..at].ends_with(char::is_alphanumeric) && whole(after) {
          return Cow::Borrowed(named);
        }
      }
    }
  }
  let host = address.map(host_of).unwrap_or_default();
  let noise = |part: &str| {
    let p = part.trim_matches(TITLE_MARKUP);
    !p.is_empty()
      && (CATALOGUE_WORDS.iter().any(|w| p.eq_ignore_ascii_case(w))
        || host.split('.').any(|label| label.eq_ignore_ascii_case(p)))
  };
  // The site's name and the catalogue's words are taken off either end, part by part.
  let mut t = text.trim_matches(TITLE_MARKUP);
  loop {
    let last = [". ", ", ", ": ", " \u{2014} ", " - "]
      .iter()
      .filter_map(|sep| t.rfind(sep).map(|at| (at, sep.len())))
      .max();
    if let Some((at, _)) = last.filter(|&(at, len)| noise(&t[at + len..])) {
      t = t[..at].trim_matches(TITLE_MARKUP);
      continue;
    }
    let first = [": ", ". "]
      .iter()
      .filter_map(|sep| t.find(sep).map(|at| (at, sep.len())))
      .min();
    if let Some((at, len)) = first.filter(|&(at, _)| noise(&t[..at])) {
      t = t[at + len..].trim_matches(TITLE_MARKUP);
      continue;
    }
    break;
  }
  if t.contains(char::is_alphabetic) && !noise(t) {
    Cow::Borrowed(t)
  } else {
    Cow::Owned(slug)
  }
}

/// What a title is wrapped in and closed by in a reference (quotes, emphasis, brackets,
/// the punctuation after it).
const TITLE_MARKUP: [char; 14] = [
  '"', '\u{201c}', '\u{201d}', '*', '_', '[', ']', ',', ';', '.', ':', '-', '\u{2014}', ' ',
];

/// The words of a reference that name no work: where and how it was found.
const CATALOGUE_WORDS: [&str; 6] = ["Online", "Available", "Retrieved", "Accessed", "Web", "Source"];

/// The name an address's last part gives (`https://en.wikipedia.org/wiki/Ed_Wood` is `Ed
/// Wood`, `…/ed-wood.html` is `ed wood`): empty for a site's root, a part with no letter,
/// or one not written in words and numbers apart (`a1b2c3`, `Saul_(Handel)`).
fn address_name(address: &str) -> String {
  let path = address.split(['?', '#']).next().unwrap_or(address);
  let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or(path);
  let last = last
    .rsplit_once('.')
    .filter(|(_, ext)| matches!(*ext, "html" | "htm" | "md"))
    .map_or(last, |(stem, _)| stem);
  let wordy = last.contains(char::is_alphabetic)
    && !last.contains(['%', '='])
    && last.split(['_', '-']).all(|w| {
      !w.is_empty() && w.chars().all(|c| c.is_alphabetic() || c == '\'')
        || w.chars().all(|c| c.is_ascii_digit())
    });
  if wordy && !path.ends_with("://") && address.matches('/').count() > 2 {
    last.replace(['_', '-'], " ")
  } else {
    String::new()
  }
}

/// An address's host (`en.wikipedia.org`).
fn host_of(address: &str) -> &str {
  let rest = address.split_once("://").map_or(address, |(_, rest)| rest);
  rest.split(['/', '?', '#']).next().unwrap_or(rest)
}

/// The sources a text lists for its citations, read from its segments: which segments
/// define a cited label (`[3] Ed Wood. https://…`, `[3]: …`), and which each segment cites.
pub struct Sources {
  /// Per segment: whether it defines a label that another segment cites.
  pub defines: Vec<bool>,
  /// Per segment: the defining segments of the labels it cites, in order.
  pub cites: Vec<Vec<usize>>,
}

impl Sources {
  /// `None` when fewer than `MIN_SOURCES` segments define a label another cites (most
  /// texts: found by reading only the segments that open with `[`).
  pub fn read(text: &str, segments: &[Segment]) -> Option<Self> {
    let mut defined: FxHashMap<String, usize> = FxHashMap::default();
    for (i, s) in segments.iter().enumerate() {
      let t = &text[s.start..s.end];
      if !t.trim_start().starts_with('[') {
        continue;
      }
      if let Some((label, target)) = t
        .lines()
        .next()
        .and_then(|l| definition(l).or_else(|| listed_definition(l)))
      {
        // A source is named or addressed: `[1] 627` is a shell's job number.
        if is_source_label(label) && target.contains(char::is_alphabetic) {
          defined.entry(label.to_lowercase()).or_insert(i);
        }
      }
    }
    if defined.is_empty() {
      return None;
    }
    let mut candidate = vec![false; segments.len()];
    for &d in defined.values() {
      candidate[d] = true;
    }
    // Cited from the text, not from another definition (a list's items name each other)
    // nor from code.
    let mut defines = vec![false; segments.len()];
    let mut cites = vec![Vec::new(); segments.len()];
    let mut seen: FxHashSet<(usize, usize)> = FxHashSet::default();
    for (i, s) in segments
      .iter()
      .enumerate()
      .filter(|&(i, s)| !candidate[i] && s.kind != Kind::Code)
    {
      let t = &text[s.start..s.end];
      // Where the last marker cited ended: one right after it cites too (`films [3][4]`).
      let mut run_end = None;
      for label in markers(t) {
        let open = label.as_ptr() as usize - t.as_ptr() as usize - 1;
        if !(run_end == Some(open) || cites_as_prose(t, label)) || !is_source_label(label) {
          continue;
        }
        run_end = Some(open + label.len() + 2);
        if let Some(&d) = defined.get(&label.to_lowercase()) {
          if seen.insert((i, d)) {
            cites[i].push(d);
            defines[d] = true;
          }
        }
      }
    }
    // One line defining a label is no list of sources (`[1]  29440 abort`, a shell's job).
    (defines.iter().filter(|&&d| d).count() >= MIN_SOURCES).then_some(Self { defines, cites })
  }

  /// The title of what definition `d` lists (`Ed Wood` of `[3] Ed Wood. https://…`; see
  /// `title_of`).
  pub fn title<'t>(text: &'t str, segments: &[Segment], d: usize) -> Cow<'t, str> {
    let line = text[segments[d].start..segments[d].end]
      .lines()
      .next()
      .unwrap_or_default();
    definition(line)
      .or_else(|| listed_definition(line))
      .map(|(_, target)| title_of(target))
      .filter(|title| !title.contains("://"))
      .unwrap_or_default()
  }
}

/// Whether the marker `label` (a slice of `text`) stands as prose cites: after a space or
/// a sentence's punctuation (`… films [3]`, `… films.[3]`), or right after a word where the
/// sentence or the line ends with it (`… films[3].`, `films[3][4]`); not as code indexes
/// (`coeff[1], limit`, `args[1].is_Integer`, `f(x)[1]`).
fn cites_as_prose(text: &str, label: &str) -> bool {
  let open = label.as_ptr() as usize - text.as_ptr() as usize - 1;
  let after = &text[open + label.len() + 2..];
  match text[..open].chars().next_back() {
    None => true,
    Some(c)
      if c.is_whitespace() || matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | '"' | '\u{201d}' | '\'') =>
    {
      true
    }
    Some(c) if c.is_alphanumeric() => {
      let mut rest = after.chars();
      match rest.next() {
        None | Some('\n' | '\r' | '[') => true,
        Some('.' | '!' | '?' | ';') => rest.next().is_none_or(char::is_whitespace),
        _ => false,
      }
    }
    _ => false,
  }
}

/// The bytes of the citation markers `text` opens with (`[3]`, `[3][4] `, `[^note]`), and
/// the spaces after them: a sentence's markers after its full stop, which belong to it.
pub fn leading_markers(text: &str) -> usize {
  let mut rest = text;
  let mut end = 0;
  while let Some(inner) = rest.strip_prefix('[') {
    match inner.find(']') {
      Some(close) if close > 0 && close <= MAX_LABEL && is_source_label(&inner[..close]) => {
        rest = inner[close + 1..].trim_start_matches([' ', '\t']);
        end = text.len() - rest.len();
      }
      _ => break,
    }
  }
  end
}

/// Sources are listed two at least: a text citing one source names it where it cites it.
const MIN_SOURCES: usize = 2;

/// A label that numbers a source (`3`) or names a footnote (`^note`): not a log line's
/// level (`[INFO] …`) or a program's tag, which recur as markers do.
fn is_source_label(label: &str) -> bool {
  label.bytes().all(|b| b.is_ascii_digit()) || label.starts_with('^')
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn a_reference_is_titled_however_it_is_written() {
    for (target, title) in [
      ("Ed Wood — https://en.wikipedia.org/wiki/Ed_Wood", "Ed Wood"),
      (
        "Ed Wood. Wikipedia. https://en.wikipedia.org/wiki/Ed_Wood",
        "Ed Wood",
      ),
      (
        "Wikipedia: Ed Wood. https://en.wikipedia.org/wiki/Ed_Wood",
        "Ed Wood",
      ),
      (
        "\"Ed Wood,\" *Wikipedia*. [Online]. Available: https://en.wikipedia.org/wiki/Ed_Wood",
        "Ed Wood",
      ),
      ("https://en.wikipedia.org/wiki/Ed_Wood", "Ed Wood"),
      ("<https://example.org/films/ed-wood.html>", "ed wood"),
      (
        "Santa Fe, Missouri — https://en.wikipedia.org/wiki/Santa_Fe,_Missouri",
        "Santa Fe, Missouri",
      ),
      (
        "Saul (Handel). Wikipedia. https://en.wikipedia.org/wiki/Saul_(Handel)",
        "Saul (Handel)",
      ),
      (
        "Star Wars: Episode I. Wikipedia. https://en.wikipedia.org/wiki/Star_Wars:_Episode_I",
        "Star Wars: Episode I",
      ),
      ("https://example.org/items/42", ""),
      ("https://example.org/a1b2c3", ""),
    ] {
      assert_eq!(title_of(target), title, "{target}");
    }
  }

  use crate::core::segment::{segment, Granularity};

  /// A text's segments, and the sources they list.
  fn read(text: &str) -> (Vec<Segment>, Option<Sources>) {
    let mut segments = Vec::new();
    segment(text, 0, 0, Granularity::Sentence, &mut segments, 0);
    let sources = Sources::read(text, &segments);
    (segments, sources)
  }

  #[test]
  fn a_list_of_sources_is_read_with_what_cites_it() {
    let text = "Ed Wood made films. [1]\n\nHe was born in Burbank.[2]\n\n[1] Ed Wood (film). https://x.org/ed\n[2] Tim Burton";
    let (segments, sources) = read(text);
    let Sources { defines, cites } = sources.unwrap();
    let at = |needle: &str| {
      segments
        .iter()
        .position(|s| text[s.start..s.end].contains(needle))
        .unwrap()
    };
    let films = &segments[at("made films")];
    assert_eq!(&text[films.start..films.end], "Ed Wood made films. [1]");
    assert_eq!(cites[at("made films")], [at("[1] Ed Wood")]);
    assert_eq!(cites[at("Burbank")], [at("[2] Tim Burton")]);
    assert!(defines[at("[1] Ed Wood")] && !defines[at("made films")]);
    assert_eq!(
      Sources::title(text, &segments, at("[1] Ed Wood")),
      "Ed Wood (film)"
    );
    // Markers one after another cite each (`films[1][2].`, `films. [1][2]`).
    for cited in ["Ed Wood made films[1][2].", "Ed Wood made films. [1][2]"] {
      let text = format!("{cited}\n\n[1] Ed Wood. https://x.org/ed\n[2] Tim Burton. https://x.org/tim");
      let (_, sources) = read(&text);
      assert_eq!(sources.map(|s| s.cites[0].len()), Some(2), "{cited}");
    }
  }

  /// A bracket never closed is searched no further than a label's length: a megabyte of
  /// `[` holds no marker.
  #[test]
  fn markers_close_within_a_label_s_length() {
    assert_eq!(
      markers("a [1] b [^x] c [text](u) d [k]: e").collect::<Vec<_>>(),
      ["1", "^x"]
    );
    let long = format!("[{}]", "x".repeat(MAX_LABEL + 1));
    assert_eq!(markers(&long).count(), 0);
    assert_eq!(markers(&"[".repeat(1 << 20)).count(), 0);
  }

  #[test]
  fn code_indexes_a_job_line_and_a_lone_definition_cite_nothing() {
    // Indexes in code are no citations of a docstring's references.
    let code = "return coeff[1], coeff[2], limit\n\nif args[1].is_Integer and args[2]:\n\n[1] W. Stein, Elementary Number Theory\n[2] A. Johnston, A Root Algorithm";
    assert!(read(code).1.is_none());
    // One definition is no list of sources; a number is no source.
    assert!(read("It crashed. [1]\n\n[1] 29440 abort (core dumped) python")
      .1
      .is_none());
    assert!(read("Jobs ran. [1] [2]\n\n[1] 627\n[2] 780").1.is_none());
    // An address alone is a source without a title.
    let text = "See the ticket. [1] And the patch. [2]\n\n[1] https://x.org/1\n[2] https://x.org/2";
    let (segments, sources) = read(text);
    let d = segments
      .iter()
      .position(|s| text[s.start..s.end].starts_with("[1] https"))
      .unwrap();
    assert!(sources.is_some_and(|s| s.defines[d]));
    assert_eq!(Sources::title(text, &segments, d), "");
    assert_eq!(leading_markers("[3][4] He"), 7);
    assert_eq!(leading_markers("[^note]"), 7);
    assert_eq!(leading_markers("[INFO] x"), 0);
    assert_eq!(leading_markers("[3 ] x"), 0);
  }
}
