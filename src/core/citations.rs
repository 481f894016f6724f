//! Citations as a text writes them: markers (`[3]`) and the definitions that list what
//! they cite (`[3]: https://…`, `[3] Ed Wood. https://…`). The filter keeps a kept
//! marker's definition; relevance names a paragraph by the sources it cites; extraction
//! brings a kept citation's definition along.

use std::borrow::Cow;
use std::ops::Range;

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
/// `[1] Title — https://…`, `1. Title (https://…)`, `2) Title`, `(2) Title`, `- [1] Title`, `^1^ Title`,
/// `¹ Title`, or a line that stands at an anchor (`<a id="ref-1"></a>1. Title`,
/// `<li id="fn1">…`), which a link to it cites (`#ref-1`). It defines `[1]` only where the
/// text cites `[1]` (see `Report::parse`): otherwise it is an item of a list.
pub fn listed_definition(line: &str) -> Option<(Cow<'_, str>, &str)> {
  let mut l = line.trim();
  // The tags the line opens with; the last anchor among them is its label.
  let mut anchor = None;
  while l.starts_with('<') && marker_at(l, 0).is_none() {
    let len = tag_len(l)?;
    let tag = &l[1..len - 1];
    match attribute(tag, "id").or_else(|| attribute(tag, "name")) {
      Some(id) if is_label_word(id) => anchor = Some(id),
      _ if tag.starts_with('/') => {}
      _ => break,
    }
    l = l[len..].trim_start();
  }
  // A bullet before a marker (`- [1] Title`), not before a list's own number.
  if let Some(rest) = l
    .strip_prefix(['-', '*', '+'])
    .filter(|rest| rest.starts_with(' ') && marker_at(rest.trim_start(), 0).is_some())
  {
    l = rest.trim_start();
  }
  let (label, target) = match marker_at(l, 0) {
    // `[text](url)` is a link and `[1]:` a definition of the strict form.
    Some(m) if !l[m.span.end..].starts_with(':') => (m.label, l[m.span.end..].strip_prefix([' ', '\t'])?),
    Some(_) => return None,
    None => {
      // `3.`, `3)` or `(3)` before the title.
      let open = usize::from(l.starts_with('('));
      let digits = l[open..].bytes().take_while(u8::is_ascii_digit).count();
      let number = &l[open..open + digits];
      let closed = match open {
        1 => l[open + digits..].strip_prefix(')'),
        _ => l[digits..].strip_prefix(['.', ')']),
      };
      match closed {
        Some(rest) if digits > 0 => (Cow::Borrowed(number), rest.strip_prefix([' ', '\t'])?),
        _ if anchor.is_some() => (Cow::Borrowed(""), l),
        _ => return None,
      }
    }
  };
  let target = target.trim();
  let label = match anchor {
    Some(id) => Cow::Owned(format!("#{id}")),
    None => label,
  };
  (!label.is_empty()
    && label.len() <= MAX_LABEL + 1
    && !label.contains(['[', ']', ' '])
    && !target.is_empty())
  .then_some((label, target))
}

/// A citation marker as prose writes it: `[3]`, `[^note]`, pandoc's `^3^`, superscript
/// digits (`³`), or a link to the anchor its reference stands at (`[3](#ref-3)`,
/// `<a href="#fn3">3</a>`); any of them may stand in `<sup>…</sup>`.
#[derive(Debug, PartialEq)]
pub struct Marker<'t> {
  /// What it cites by: its label (`3`, `^note`) or the anchor it links to (`#ref-3`).
  pub label: Cow<'t, str>,
  /// Its bytes in the text.
  pub span: Range<usize>,
}

impl Marker<'_> {
  /// Whether it links to its reference's anchor (`[3](#ref-3)`): no index or exponent is
  /// written so, as `[3]`, `³` and `^3^` may be.
  pub fn linked(&self) -> bool {
    self.label.starts_with('#')
  }
}

/// The marker that starts at byte `at` of `text`, if one does.
pub fn marker_at(text: &str, at: usize) -> Option<Marker<'_>> {
  let rest = text.get(at..)?;
  if let Some(inner) = rest.strip_prefix("<sup>") {
    // `<sup>3</sup>`, `<sup>[3](#ref-3)</sup>`, `<sup><a href="#fn3">3</a></sup>`.
    let close = memchr::memmem::find(window(inner, MAX_TAGGED), b"</sup>")?;
    let body = &inner[..close];
    let len = 5 + close + 6;
    if is_label_word(body) {
      return Some(Marker {
        label: Cow::Borrowed(body),
        span: at..at + len,
      });
    }
    let m = marker_at(body, 0).filter(|m| m.span.end == body.len())?;
    return Some(Marker {
      label: m.label,
      span: at..at + len,
    });
  }
  if let Some(inner) = rest.strip_prefix("<a ") {
    // `<a href="#fn3">3</a>`: an anchor link with a label's text.
    let open = memchr::memchr(b'>', window(inner, MAX_TAGGED))?;
    let (attributes, after) = (&inner[..open], &inner[open + 1..]);
    let anchor = attribute(attributes, "href")?.strip_prefix('#')?;
    let shown = &after[..memchr::memmem::find(window(after, MAX_TAGGED), b"</a>")?];
    let len = 3 + open + 1 + shown.len() + 4;
    return (is_label_word(anchor)
      && is_label_word(shown.trim_start_matches(['[', '(']).trim_end_matches([']', ')'])))
    .then(|| Marker {
      label: Cow::Owned(format!("#{anchor}")),
      span: at..at + len,
    });
  }
  if let Some(inner) = rest.strip_prefix('[') {
    // Within `MAX_LABEL` bytes, so a megabyte of `[` is searched no further than that.
    let close = memchr::memchr(b']', window(inner, MAX_LABEL + 1))?;
    let label = &inner[..close];
    if label.is_empty() || label.contains(['[', '\n']) {
      return None;
    }
    let after = &inner[close + 1..];
    if let Some(link) = after.strip_prefix("(#") {
      // `[3](#ref-3)`: it cites what stands at the anchor.
      let end = memchr::memchr(b')', window(link, MAX_LABEL + 1))?;
      return is_label_word(&link[..end]).then(|| Marker {
        label: Cow::Owned(format!("#{}", &link[..end])),
        span: at..at + close + 5 + end,
      });
    }
    return (!after.starts_with(['(', ':'])).then(|| Marker {
      label: Cow::Borrowed(label),
      span: at..at + close + 2,
    });
  }
  if let Some(inner) = rest.strip_prefix('^') {
    // `^3^`, pandoc's superscript.
    let close = memchr::memchr(b'^', window(inner, MAX_LABEL + 1))?;
    let label = &inner[..close];
    return is_label_word(label).then(|| Marker {
      label: Cow::Borrowed(label),
      span: at..at + close + 2,
    });
  }
  // Superscript digits: `³`, `¹²`.
  let digits: String = rest.chars().map_while(superscript_digit).collect();
  if digits.is_empty() {
    return None;
  }
  let len: usize = rest.chars().take(digits.len()).map(char::len_utf8).sum();
  Some(Marker {
    label: Cow::Owned(digits),
    span: at..at + len,
  })
}

/// The length of the HTML tag `text` opens with (`<sup>`, `</cite>`, `<a href="#fn3">`): a
/// name after `<` or `</`, a letter first, ended by a space, `/` or `>`, and the tag closed
/// on its line within `MAX_TAGGED` bytes; not an address in brackets (`<https://…>`).
pub fn tag_len(text: &str) -> Option<usize> {
  let name = text.strip_prefix("</").or_else(|| text.strip_prefix('<'))?;
  let letters = name.bytes().take_while(u8::is_ascii_alphanumeric).count();
  if !name.starts_with(|c: char| c.is_ascii_alphabetic())
    || !matches!(name.as_bytes().get(letters), Some(b' ' | b'\t' | b'/' | b'>'))
  {
    return None;
  }
  let close = window(text, MAX_TAGGED)
    .iter()
    .position(|&b| b == b'>' || b == b'\n')?;
  (text.as_bytes()[close] == b'>').then_some(close + 1)
}

/// How far a tag's closing (`</sup>`) is looked for: a marker's markup with its label.
const MAX_TAGGED: usize = 4 * MAX_LABEL;

/// The first `len` bytes of `text` at most.
fn window(text: &str, len: usize) -> &[u8] {
  &text.as_bytes()[..text.len().min(len)]
}

/// A label as markup writes one: a short word of letters, digits, `-` and `_` (`3`,
/// `ref-3`, `fn_3`).
fn is_label_word(word: &str) -> bool {
  !word.is_empty()
    && word.len() <= MAX_LABEL
    && word
      .bytes()
      .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
}

/// The ASCII digit a superscript digit writes (`³` is `3`).
fn superscript_digit(c: char) -> Option<char> {
  match c {
    '\u{2070}' => Some('0'),
    '\u{00b9}' => Some('1'),
    '\u{00b2}' => Some('2'),
    '\u{00b3}' => Some('3'),
    '\u{2074}'..='\u{2079}' => char::from_digit(c as u32 - 0x2070, 10),
    _ => None,
  }
}

/// The value of `name="…"` among a tag's attributes.
fn attribute<'a>(attributes: &'a str, name: &str) -> Option<&'a str> {
  let mut from = 0;
  while let Some(p) = attributes[from..].find(name) {
    let at = from + p;
    let before = attributes[..at].chars().next_back();
    let rest = &attributes[at + name.len()..];
    if before.is_none_or(char::is_whitespace) {
      if let Some(value) = rest.strip_prefix("=\"").or_else(|| rest.strip_prefix("='")) {
        return value.find(['"', '\'']).map(|end| &value[..end]);
      }
    }
    from = at + name.len();
  }
  None
}

/// The markers in `text`, in order (not inline links `[text](url)`, nor a definition's
/// `[k]:`).
pub fn markers(text: &str) -> impl Iterator<Item = Marker<'_>> {
  let bytes = text.as_bytes();
  // A marker opens with `[`, `^` or `<`, or with a superscript digit's first byte: the next
  // of each at or after `i`, found by vectorized search (each byte is searched once).
  let ascii = |i: usize| memchr::memchr3(b'[', b'^', b'<', &bytes[i..]).map_or(bytes.len(), |k| i + k);
  let lead = |i: usize| memchr::memchr2(0xc2, 0xe2, &bytes[i..]).map_or(bytes.len(), |k| i + k);
  let (mut i, mut next_ascii, mut next_lead) = (0, ascii(0), lead(0));
  std::iter::from_fn(move || {
    while i < bytes.len() {
      if next_ascii < i {
        next_ascii = ascii(i);
      }
      if next_lead < i {
        next_lead = lead(i);
      }
      let at = next_ascii.min(next_lead);
      if at >= bytes.len() {
        break;
      }
      if let Some(m) = marker_at(text, at) {
        i = m.span.end;
        return Some(m);
      }
      i = at + 1;
    }
    None
  })
}

/// The markers of a report's `text` that cite: `[3]` wherever it stands, a superscript
/// digit only where prose cites with one (`films.³`), not as a unit's exponent
/// (`3,601.88 km² [4]`, which cites `[4]` alone).
pub fn citing_markers(text: &str) -> impl Iterator<Item = Marker<'_>> {
  markers(text).filter(move |m| {
    !text[m.span.clone()].starts_with(|c| superscript_digit(c).is_some()) || cites_as_prose(text, m)
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
  if let Some(plain) = untagged(target).or_else(|| unlinked(target)) {
    return Cow::Owned(title_of(&plain).into_owned());
  }
  let address = target
    .split_whitespace()
    .map(|w| {
      // A closing parenthesis is the address's own where it opens one (`…/Saul_(Handel)`).
      let w = w.trim_start_matches(['(', '<']).trim_end_matches('>');
      match w.matches('(').count() < w.matches(')').count() {
        true => w.strip_suffix(')').unwrap_or(w),
        false => w,
      }
    })
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
        || host.split('.').any(|label| label.eq_ignore_ascii_case(p))
        || host
          .trim_start_matches("www.")
          .eq_ignore_ascii_case(p.trim_start_matches("www.")))
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

/// `text` without its HTML tags, the addresses their links hold after it
/// (`<a href="https://…/Ed_Wood">Ed Wood</a> — Wikipedia` is `Ed Wood — Wikipedia
/// https://…/Ed_Wood`): `None` for a text with no tag.
fn untagged(text: &str) -> Option<String> {
  let mut plain = String::new();
  let mut addresses = String::new();
  let mut rest = text;
  while let Some(open) = rest.find('<') {
    // `<https://…>` is an address, kept.
    let Some(len) = tag_len(&rest[open..]) else {
      plain.push_str(&rest[..=open]);
      rest = &rest[open + 1..];
      continue;
    };
    plain.push_str(&rest[..open]);
    if let Some(address) = attribute(&rest[open + 1..open + len - 1], "href") {
      addresses.push(' ');
      addresses.push_str(address);
    }
    rest = &rest[open + len..];
  }
  if plain.len() + rest.len() == text.len() {
    return None;
  }
  plain.push_str(rest);
  plain.push_str(&addresses);
  Some(plain)
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
/// or one not written in words and numbers apart (`a1b2c3`).
fn address_name(address: &str) -> String {
  let path = address.split(['?', '#']).next().unwrap_or(address);
  let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or(path);
  let last = last
    .rsplit_once('.')
    .filter(|(_, ext)| matches!(*ext, "html" | "htm" | "md"))
    .map_or(last, |(stem, _)| stem);
  let last = percent_decoded(last);
  // A word may open or close a parenthesis or stand before a comma or colon, as a page's
  // name writes it (`Kiskiack_(Lee_House)`, `Santa_Fe,_Missouri`).
  let wordy = last.contains(char::is_alphabetic)
    && !last.contains(['%', '='])
    && last.split(['_', '-', ' ']).all(|w| {
      let w = w.strip_prefix('(').unwrap_or(w);
      let w = w.strip_suffix([')', ',', ':']).unwrap_or(w);
      !w.is_empty() && w.chars().all(|c| c.is_alphabetic() || c == '\'')
        || w.chars().all(|c| c.is_ascii_digit())
    });
  if wordy && !path.ends_with("://") && address.matches('/').count() > 2 {
    last.replace(['_', '-'], " ")
  } else {
    String::new()
  }
}

/// `%XX` escapes decoded where they make UTF-8; others left as they are.
pub fn percent_decoded(text: &str) -> String {
  let b = text.as_bytes();
  let mut out = Vec::with_capacity(b.len());
  let mut i = 0;
  while i < b.len() {
    let hex = |c: u8| (c as char).to_digit(16);
    match (
      b[i],
      b.get(i + 1).and_then(|&c| hex(c)),
      b.get(i + 2).and_then(|&c| hex(c)),
    ) {
      (b'%', Some(h), Some(l)) => {
        out.push((h * 16 + l) as u8);
        i += 3;
      }
      (c, _, _) => {
        out.push(c);
        i += 1;
      }
    }
  }
  String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// A target that opens with a markdown link, written as its text before its address
/// (`[Ed Wood](https://…/Ed_Wood) (1994)` as `Ed Wood https://…/Ed_Wood (1994)`), so that the
/// link's brackets are no part of the title; `None` for a target that opens otherwise.
fn unlinked(target: &str) -> Option<String> {
  let rest = target.trim_start().strip_prefix('[')?;
  let close = rest.find("](")?;
  let end = close + 2 + rest[close + 2..].find(')')?;
  let (text, address) = (&rest[..close], &rest[close + 2..end]);
  (!text.contains(['[', ']']) && !address.contains(char::is_whitespace))
    .then(|| format!("{text} {address}{}", &rest[end + 1..]))
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
  /// texts: found by reading only the segments that open as a marker, a tag or a bullet
  /// does; a list's own numbers define nothing here).
  pub fn read(text: &str, segments: &[Segment]) -> Option<Self> {
    let mut defined: FxHashMap<String, usize> = FxHashMap::default();
    for (i, s) in segments.iter().enumerate() {
      let t = text[s.start..s.end].trim_start();
      if !t.starts_with(|c: char| {
        matches!(c, '[' | '^' | '<' | '-' | '*' | '+') || superscript_digit(c).is_some()
      }) {
        continue;
      }
      let line = t.lines().next().unwrap_or_default();
      let read = match definition(line) {
        Some((label, target)) => Some((Cow::Borrowed(label), target)),
        None => listed_definition(line),
      };
      if let Some((label, target)) = read {
        // A source is named or addressed: `[1] 627` is a shell's job number.
        if is_source_label(&label) && target.contains(char::is_alphabetic) {
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
      for m in markers(t) {
        if !(run_end == Some(m.span.start) || cites_as_prose(t, &m)) || !is_source_label(&m.label) {
          continue;
        }
        run_end = Some(m.span.end);
        if let Some(&d) = defined.get(&m.label.to_lowercase()) {
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
      .map(|(_, target)| target)
      .or_else(|| listed_definition(line).map(|(_, target)| target))
      .map(title_of)
      .filter(|title| !title.contains("://"))
      .unwrap_or_default()
  }
}

/// Whether marker `m` of `text` stands as prose cites: a link to an anchor wherever it
/// stands, another after a space or a sentence's punctuation (`… films [3]`, `… films.³`),
/// or right after a word where the sentence or the line ends with it (`… films[3].`,
/// `films[3][4]`); not as code indexes (`coeff[1], limit`, `args[1].is_Integer`,
/// `f(x)[1]`) or exponents (`A¹ homotopy`).
fn cites_as_prose(text: &str, m: &Marker) -> bool {
  if m.linked() {
    return true;
  }
  let open = m.span.start;
  let after = &text[m.span.end..];
  // An inline tag before it is markup (`… aquariums.<br>³`); a sentence's punctuation may
  // stand inside its closing brackets (`… (stylised as Bored!)⁶`).
  let before = without_closing_tag(&text[..open]);
  let closed = before.trim_end_matches([')', ']']);
  if closed.len() < before.len() && closed.ends_with(['.', '!', '?']) {
    return true;
  }
  match before.chars().next_back() {
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

/// `text` without the inline tag it ends with (`<br>`, `</b>`), if it ends with one.
pub fn without_closing_tag(text: &str) -> &str {
  match text.strip_suffix('>').and_then(|r| r.rfind('<')) {
    Some(at) if tag_len(&text[at..]) == Some(text.len() - at) => &text[..at],
    _ => text,
  }
}

/// The bytes of the citation markers `text` opens with (`[3]`, `[3][4] `, `[^note]`, `³`),
/// and the spaces after them: a sentence's markers after its full stop, which belong to it.
pub fn leading_markers(text: &str) -> usize {
  let mut end = 0;
  while let Some(m) = marker_at(text, end).filter(|m| is_source_label(&m.label)) {
    let rest = &text[m.span.end..];
    end = m.span.end + rest.len() - rest.trim_start_matches([' ', '\t']).len();
  }
  end
}

/// Sources are listed two at least: a text citing one source names it where it cites it.
const MIN_SOURCES: usize = 2;

/// A label that numbers a source (`3`), names a footnote (`^note`) or an anchor
/// (`#ref-3`): not a log line's level (`[INFO] …`) or a program's tag, which recur as
/// markers do.
fn is_source_label(label: &str) -> bool {
  label.bytes().all(|b| b.is_ascii_digit()) || label.starts_with(['^', '#'])
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
      (
        "*Kiskiack (Lee House)*. Available at: https://en.wikipedia.org/wiki/Kiskiack_(Lee_House) (Accessed: 1 May 2025).",
        "Kiskiack (Lee House)",
      ),
      (
        "*Indian Head, Maryland*. Available at: https://en.wikipedia.org/wiki/Indian_Head%2C_Maryland",
        "Indian Head, Maryland",
      ),
      ("https://example.org/items/42", ""),
      ("https://example.org/a1b2c3", ""),
      ("[Monica Seles](https://en.wikipedia.org/wiki/Monica_Seles)", "Monica Seles"),
      (
        "[1992 US Open (tennis)](https://en.wikipedia.org/wiki/1992_US_Open_%28tennis%29)",
        "1992 US Open (tennis)",
      ),
      ("[Ed Wood - Wikipedia](https://en.wikipedia.org/wiki/Ed_Wood)", "Ed Wood"),
      // A link that names its site says the page by its address.
      ("[Wikipedia](https://en.wikipedia.org/wiki/Monica_Seles)", "Monica Seles"),
      ("[en.wikipedia.org](https://en.wikipedia.org/wiki/Monica_Seles)", "Monica Seles"),
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

  /// The first of `segments` whose text holds `needle`.
  fn holding(text: &str, segments: &[Segment], needle: &str) -> usize {
    segments
      .iter()
      .position(|s| text[s.start..s.end].contains(needle))
      .unwrap()
  }

  #[test]
  fn a_list_of_sources_is_read_with_what_cites_it() {
    let text = "Ed Wood made films. [1]\n\nHe was born in Burbank.[2]\n\n[1] Ed Wood (film). https://x.org/ed\n[2] Tim Burton";
    let (segments, sources) = read(text);
    let Sources { defines, cites } = sources.unwrap();
    let at = |needle: &str| holding(text, &segments, needle);
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
      markers("a [1] b [^x] c [text](u) d [k]: e")
        .map(|m| m.label)
        .collect::<Vec<_>>(),
      ["1", "^x"]
    );
    let long = format!("[{}]", "x".repeat(MAX_LABEL + 1));
    assert_eq!(markers(&long).count(), 0);
    assert_eq!(markers(&"[".repeat(1 << 20)).count(), 0);
  }

  /// A marker is read however it is written, and so is the line that defines it: each
  /// writing's list of sources is read with what cites it.
  #[test]
  fn markers_and_their_definitions_are_read_however_written() {
    for (marker, label) in [
      ("[3]", "3"),
      ("[^ed-wood]", "^ed-wood"),
      ("^3^", "3"),
      ("\u{b3}", "3"),
      ("\u{b9}\u{2070}", "10"),
      ("<sup>3</sup>", "3"),
      ("[3](#ref-3)", "#ref-3"),
      ("<sup>[3](#ref-3)</sup>", "#ref-3"),
      ("<sup><a href=\"#fn3\">3</a></sup>", "#fn3"),
      ("<a href=\"#fn3\">[3]</a>", "#fn3"),
    ] {
      let text = format!("He made films.{marker} Then more.");
      let found: Vec<Marker> = markers(&text).collect();
      assert_eq!(found.len(), 1, "{marker}");
      assert_eq!(
        (found[0].label.as_ref(), &text[found[0].span.clone()]),
        (label, marker)
      );
    }
    // Not markers: a link, a strict definition's label, an unclosed caret, a tag.
    assert_eq!(
      markers("[a](https://x.org) [1]: y x^2 <b>bold</b> <sup>a b</sup>").count(),
      0
    );
    for (line, label, target) in [
      ("[3] Ed Wood. https://x.org/ed", "3", "Ed Wood. https://x.org/ed"),
      (
        "- [3] Ed Wood: https://x.org/ed",
        "3",
        "Ed Wood: https://x.org/ed",
      ),
      ("3. Ed Wood", "3", "Ed Wood"),
      ("(3) Ed Wood, https://x.org/ed", "3", "Ed Wood, https://x.org/ed"),
      ("^3^ Ed Wood, Wikipedia", "3", "Ed Wood, Wikipedia"),
      ("\u{b3} Ed Wood", "3", "Ed Wood"),
      ("<a id=\"ref-3\"></a>3. Ed Wood", "#ref-3", "Ed Wood"),
      (
        "<li id=\"fn3\"><a href=\"https://x.org/ed\">Ed Wood</a></li>",
        "#fn3",
        "<a href=\"https://x.org/ed\">Ed Wood</a></li>",
      ),
    ] {
      assert_eq!(
        listed_definition(line),
        Some((Cow::Borrowed(label), target)),
        "{line}"
      );
    }
    for line in [
      "- 3. Ed Wood",
      "(3 Ed Wood",
      "(3). Ed Wood",
      "- Ed Wood",
      "[see also] x",
      "<p>Ed Wood</p>",
      "[3](https://x.org) Ed",
    ] {
      assert_eq!(listed_definition(line), None, "{line}");
    }
    // An exponent cites nothing (`A¹ homotopy`), as a code index does not.
    let text = "Ed Wood made westerns, horror and science fiction films.\u{b9} Born in Burbank.\u{b2} Morel wrote on A\u{b9} homotopy theory.\n\n\u{b9} Ed Wood\n\u{b2} Burbank";
    let (segments, sources) = read(text);
    let morel = holding(text, &segments, "Morel");
    assert!(sources.unwrap().cites[morel].is_empty());
    assert_eq!(
      title_of("<a href=\"https://en.wikipedia.org/wiki/Ed_Wood\">Ed Wood</a> — Wikipedia</li>"),
      "Ed Wood"
    );
    for (cited, listed) in [
      (
        "films.^1^ Born in Burbank.^2^",
        "^1^ Ed Wood, https://x.org/ed\n^2^ Burbank, https://x.org/b",
      ),
      (
        "films.\u{b9} Born in Burbank.\u{b2}",
        "\u{b9} Ed Wood\n\u{b2} Burbank",
      ),
      (
        "films.<sup>[1](#r1)</sup> Born in Burbank.<sup>[2](#r2)</sup>",
        "<a id=\"r1\"></a>1. Ed Wood\n<a id=\"r2\"></a>2. Burbank",
      ),
      (
        "films. [1] Born in Burbank. [2]",
        "- [1] Ed Wood: https://x.org/ed\n- [2] Burbank: https://x.org/b",
      ),
    ] {
      let text = format!(
        "Ed Wood made low-budget westerns, horror and science fiction {cited} He died in 1978.\n\n{listed}"
      );
      let (segments, sources) = read(&text);
      let sources = sources.unwrap_or_else(|| panic!("{text}"));
      let films = holding(&text, &segments, "made");
      let d = sources.cites[films][0];
      // The marker after the full stop is the sentence's.
      assert!(
        text[segments[films].start..segments[films].end].ends_with(cited.split(" Born").next().unwrap()),
        "{text}"
      );
      assert_eq!(Sources::title(&text, &segments, d), "Ed Wood", "{text}");
    }
  }

  #[test]
  fn a_superscript_cites_after_a_sentence_not_as_an_exponent() {
    let labels = |t: &str| {
      citing_markers(t)
        .map(|m| m.label.into_owned())
        .collect::<Vec<_>>()
    };
    assert_eq!(
      labels("films.\u{b9} aquariums.<br>\u{b3} (stylised as Bored!)\u{2076} [7]"),
      ["1", "3", "6", "7"]
    );
    assert_eq!(
      labels("It covers 135 km\u{b2} [4], and (x+1)\u{b2} + 3 is odd."),
      ["4"]
    );
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
    let d = holding(text, &segments, "[1] https");
    assert!(sources.is_some_and(|s| s.defines[d]));
    assert_eq!(Sources::title(text, &segments, d), "");
    assert_eq!(leading_markers("[3][4] He"), 7);
    assert_eq!(leading_markers("[^note]"), 7);
    assert_eq!(leading_markers("[INFO] x"), 0);
    assert_eq!(leading_markers("[3 ] x"), 0);
  }
}
