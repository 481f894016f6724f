//! Citations in a result: definitions (`[k]: target`, footnotes) and the forms that
//! use them (markers, inline links, bare URLs, `(source: …)` notes, `file.ts:42`).

use std::ops::Range;

use rustc_hash::FxHashMap;

use crate::core::citations::{marker_at, MAX_LABEL};
use crate::core::segment::{Kind, Segment};

/// `[text](url)` links and their targets.
pub(super) fn inline_links(text: &str) -> Vec<(&str, &str)> {
  let mut out = Vec::new();
  let mut from = 0;
  while let Some(open) = text[from..].find("](") {
    let mid = from + open;
    let start = text[..mid].rfind('[');
    let end = text[mid + 2..].find(')').map(|e| mid + 2 + e);
    if let (Some(start), Some(end)) = (start, end) {
      let target = &text[mid + 2..end];
      // A link to an anchor (`[3](#ref-3)`) is a marker (`markers`), not a source.
      if !target.contains(char::is_whitespace)
        && !target.starts_with('#')
        && !text[start + 1..mid].contains('\n')
      {
        out.push((&text[start..=end], target));
      }
    }
    from = mid + 2;
  }
  out
}

/// The text of a `[text](url)` link.
pub(super) fn link_text(link: &str) -> &str {
  let end = link.rfind("](").unwrap_or(link.len());
  link.get(1..end).unwrap_or("").trim()
}

/// Bare `http(s)://` URLs, not inside a markdown link.
pub(super) fn bare_urls(text: &str) -> Vec<&str> {
  let mut out = Vec::new();
  let mut from = 0;
  while let Some(p) = text[from..].find("http") {
    let start = from + p;
    let rest = &text[start..];
    let scheme = if rest.starts_with("https://") {
      8
    } else if rest.starts_with("http://") {
      7
    } else {
      from = start + 4;
      continue;
    };
    let len = rest
      .find(|c: char| c.is_whitespace() || c == '<' || c == '>' || c == ')' || c == ']')
      .unwrap_or(rest.len());
    let url = rest[..len].trim_end_matches(['.', ',', ';', ':', '!', '?', '"', '\'']);
    let in_link = start >= 2 && &text.as_bytes()[start - 2..start] == b"](";
    if url.len() > scheme && !in_link {
      out.push(url);
    }
    from = start + len.max(1);
  }
  out
}

/// Source notes, each whole and what it names: `(source: …)` wherever it stands, and an
/// annotation that ends sentence after sentence with the same words: a parenthesis
/// (`… (Ed Wood).`, `… films. **(Ed Wood)**`, `… (Wikipedia, "Ed Wood").`) or a dash's
/// tail at a line's end (`- … — Source: Ed Wood`). What recurs so at the ends of sentences
/// is where they come from, not what they say. Each as the bytes of the note and of what
/// it names, in text order.
pub(super) fn source_notes(text: &str) -> Vec<Note> {
  let mut out = Vec::new();
  let lower = text.to_ascii_lowercase();
  let mut from = 0;
  while let Some(p) = lower[from..].find("(source") {
    let start = from + p;
    let Some(end) = text[start..].find(')').map(|e| start + e) else {
      break;
    };
    let inner = &text[start + 7..end];
    if let Some(named) = inner.trim_start_matches('s').strip_prefix(':') {
      out.push((&text[start..=end], named));
    }
    from = end;
  }
  let mut tails = closing_parentheses(text);
  tails.extend(dash_tails(text));
  // A date alone is a reference's own (`Ed Wood. (n.d.). In …`), not a note citing one.
  tails.retain(|(_, named)| !is_date(named));
  // Notes are how a text cites where they end a good share of its sentences, not where an
  // acronym's parentheses (`… League (AFL).`) recur twice among hundreds.
  let ends = memchr::memchr3_iter(b'.', b'!', b'?', text.as_bytes())
    .filter(|&at| text.as_bytes().get(at + 1).is_none_or(u8::is_ascii_whitespace))
    .count();
  let enough = |uses: usize| uses >= MIN_NOTE_USES && uses as f32 >= MIN_NOTE_SHARE * ends as f32;
  // Or where they close most of its paragraphs, after their last full stop (`… films.
  // (ref. 1)` closing each of a report's answers, however many sentences they hold).
  let paragraphs = text.split("\n\n").filter(|p| !p.trim().is_empty()).count();
  let closes_most =
    |closing: usize| closing >= MIN_NOTE_USES && closing as f32 >= MIN_CLOSING_SHARE * paragraphs as f32;
  let line_end = |note: &str| {
    let rest = &text[span(text, note).end..];
    rest[..rest.find('\n').unwrap_or(rest.len())].trim().is_empty()
  };
  // A note recurs by what it names; or by its form, where that ends a good share of the
  // sentences by itself: a label (`— Source: Ed Wood`), or the place after a sentence's full
  // stop (`… films. (Ed Wood)`; an acronym's stands before it). Such a source may be cited
  // once.
  let form = |(note, named): &(&str, &str)| {
    let label = note
      .strip_suffix(named)
      .map(str::trim_end)
      .filter(|l| l.ends_with(':'));
    let after_stop = text[..span(text, note).start]
      .trim_end_matches([' ', '*', '_'])
      .ends_with(['.', '!', '?']);
    // An author-date note (`(Smith, 2020)`, `(Ed Wood, n.d.)`) is one by its form, once or
    // many times, inside the sentence or after it.
    let dated = named.rsplit_once(", ").is_some_and(|(_, date)| is_date(date));
    label
      .map(str::to_lowercase)
      .or_else(|| dated.then(|| AUTHOR_DATE.to_string()))
      .or_else(|| after_stop.then(String::new))
  };
  let keys: Vec<(String, Option<String>)> = tails.iter().map(|t| (t.1.to_lowercase(), form(t))).collect();
  let mut by_name: FxHashMap<&str, usize> = FxHashMap::default();
  let mut by_form: FxHashMap<&str, usize> = FxHashMap::default();
  for (name, form) in &keys {
    *by_name.entry(name).or_default() += 1;
    if let Some(f) = form {
      *by_form.entry(f).or_default() += 1;
    }
  }
  // How many notes after a full stop close their line.
  let closing = (tails.iter().zip(&keys))
    .filter(|(t, (_, form))| form.as_deref() == Some("") && line_end(t.0))
    .count();
  let mut keep = keys.iter().map(|(name, form)| {
    by_name[name.as_str()] >= MIN_NOTE_USES
      || form
        .as_ref()
        .is_some_and(|f| enough(by_form[f.as_str()]) || f.is_empty() && closes_most(closing))
  });
  tails.retain(|_| keep.next().unwrap_or(false));
  if !enough(tails.len()) && !closes_most(closing) {
    tails.clear();
  }
  let mut names: Vec<&str> = tails.iter().map(|(_, named)| *named).collect();
  names_apart(&mut names);
  for ((_, named), name) in tails.iter_mut().zip(names) {
    *named = name;
  }
  // Where an explicit note is, no other stands (`(source: Ed Wood)` ends sentences too).
  let explicit: Vec<Range<usize>> = out.iter().map(|(note, _)| span(text, note)).collect();
  out.extend(tails.into_iter().filter(|(note, _)| {
    let at = span(text, note);
    !explicit.iter().any(|e| e.start < at.end && at.start < e.end)
  }));
  out.sort_by_key(|(note, _)| note.as_ptr() as usize);
  out
    .into_iter()
    .map(|(note, named)| (span(text, note), span(text, named)))
    .collect()
}

/// A source note's bytes, and those of what it names.
pub(super) type Note = (Range<usize>, Range<usize>);

/// Where `piece`, a slice of `text`, stands in it.
fn span(text: &str, piece: &str) -> Range<usize> {
  let start = piece.as_ptr() as usize - text.as_ptr() as usize;
  start..start + piece.len()
}

/// What each of a text's notes names apart from the others: a part that all share (the
/// site of `Wikipedia, "Ed Wood"`) names none of them, nor do the quotes and emphasis
/// around a title.
pub(super) fn names_apart(names: &mut [&str]) {
  if names.iter().all(|n| *n == names[0]) {
    return;
  }
  fn first(n: &str) -> Option<&str> {
    n.split_once(", ").map(|(a, _)| a)
  }
  fn last(n: &str) -> Option<&str> {
    n.rsplit_once(", ").map(|(_, b)| b)
  }
  let shared = |part: fn(&str) -> Option<&str>| {
    let one = part(names[0])?;
    names.iter().all(|n| part(n) == Some(one)).then_some(one.len())
  };
  let (head, tail) = (shared(first), shared(last));
  for name in names.iter_mut() {
    if let Some(len) = head {
      *name = &name[len + 2..];
    }
    if let Some(len) = tail.filter(|&len| len + 2 <= name.len()) {
      *name = &name[..name.len() - len - 2];
    }
    *name = name.trim_matches(['"', '\u{201c}', '\u{201d}', '*', '_']);
  }
  // A word in lower case that every note opens with is their label, not part of what they
  // name (`cf.`, `via`, `see`), unless a number follows it (`ref. 3` names the line that
  // defines it).
  fn word(n: &str) -> Option<&str> {
    n.split_once(' ').map(|(w, _)| w)
  }
  let label = word(names[0])
    .filter(|w| w.starts_with(|c: char| c.is_lowercase()) && names.iter().all(|n| word(n) == Some(w)))
    .map(str::len);
  for name in names.iter_mut() {
    if let Some(rest) = label.and_then(|len| name.get(len + 1..)) {
      if !rest.bytes().all(|b| b.is_ascii_digit()) {
        *name = rest;
      }
    }
  }
}

/// A line that attributes the paragraph before it (`— Wikipedia, *Ed Wood*`, a quote's
/// `> — Ed Wood`): what it names, a name (a capital or a title's markup first), not the
/// rest of a sentence that a fill broke at a dash (`– 169) was …`).
pub(super) fn attribution(line: &str) -> Option<&str> {
  let l = line.trim_start_matches(|c: char| c == '>' || c.is_whitespace());
  let named = ["\u{2014} ", "\u{2015} ", "\u{2013} ", "-- "]
    .iter()
    .find_map(|dash| l.strip_prefix(dash))?
    .trim();
  let named_so = named.starts_with(|c: char| c.is_uppercase() || matches!(c, '*' | '_' | '"' | '\u{201c}'));
  (named_so && named.len() <= MAX_NOTE && !named.contains(". ")).then_some(named)
}

/// A line that names by number the sources of the paragraph it closes (`Sources: 1, 2`,
/// `Refs: 3; 5 and 7`, `Source: (4)`): a word or two and a colon, then numbers only. The
/// numbers it holds, which cite only where the text's list of sources defines them.
pub(super) fn source_line(line: &str) -> Option<Vec<&str>> {
  let (lead, numbers) = line.trim().split_once(':')?;
  let worded = !lead.is_empty()
    && lead.split(' ').count() <= MAX_LEAD_WORDS
    && lead.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '.');
  let numbers: Vec<&str> = numbers
    .split(|c: char| c == ',' || c == ';' || c == '&' || c.is_whitespace())
    .filter(|n| !n.is_empty() && *n != "and")
    .map(|n| n.trim_matches(['(', ')', '[', ']']))
    .collect();
  let numbered = numbers
    .iter()
    .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
  (worded && numbered && !numbers.is_empty()).then_some(numbers)
}

/// A source line's lead is this many words at most (`Sources`, `Further reading`).
const MAX_LEAD_WORDS: usize = 2;

/// An annotation names sources where it ends two sentences at least: once is a remark.
const MIN_NOTE_USES: usize = 2;

/// The share of a text's sentence ends that its notes end at least, for it to cite by
/// notes: a report citing so ends nearly every sentence or item with one (one in five
/// leaves room for a note at each paragraph's end), while an acronym in parentheses
/// (`… Association (NBA).`) ends one in ten where a text is all about it.
const MIN_NOTE_SHARE: f32 = 0.2;

/// Or where they close at least half of its paragraphs after their full stop: a
/// parenthesis there is no acronym's, and a report that cites so closes each paragraph
/// with one, whatever the paragraph's length.
const MIN_CLOSING_SHARE: f32 = 0.5;

/// The form of author-date notes, among the forms `source_notes` counts.
const AUTHOR_DATE: &str = "(author, date)";

/// Whether `s` is a reference's date: a year (`2020`, Harvard's `2020b`) or `n.d.` (`n.d.b`).
pub(super) fn is_date(s: &str) -> bool {
  let s = s.trim();
  let year = s.len() >= 4
    && s.as_bytes()[..4].iter().all(u8::is_ascii_digit)
    && s[4..].chars().all(|c| c.is_ascii_lowercase())
    && s.len() <= 5;
  year || s.starts_with("n.d.") && s.len() <= 5
}

/// The longest annotation read as a source note: a title with its site, not a sentence.
const MAX_NOTE: usize = 2 * MAX_LABEL;

/// Parentheses, bold or emphasized or not, that end a sentence: before its full stop
/// (`… (Ed Wood).`) or after it (`… films. (Ed Wood)`, `films. **(Ed Wood)**`); each whole
/// with its markup, and what it holds.
fn closing_parentheses(text: &str) -> Vec<(&str, &str)> {
  let bytes = text.as_bytes();
  let mut out = Vec::new();
  for open in memchr::memchr_iter(b'(', bytes) {
    let start = open - text[..open].len() + text[..open].trim_end_matches(['*', '_']).len();
    if start == 0 || !bytes[start - 1].is_ascii_whitespace() || bytes[start - 1] == b'\n' {
      continue;
    }
    // The closing parenthesis at the same depth, on the same line, soon.
    let mut depth = 0;
    let Some(close) = bytes[open..bytes.len().min(open + MAX_NOTE)]
      .iter()
      .take_while(|&&b| b != b'\n')
      .position(|&b| {
        depth += i32::from(b == b'(') - i32::from(b == b')');
        depth == 0
      })
      .map(|k| open + k)
    else {
      continue;
    };
    let inner = text[open + 1..close].trim();
    let wrapped = open - start;
    let end = close + 1 + text[close + 1..].len() - text[close + 1..].trim_start_matches(['*', '_']).len();
    // A link in parentheses (`([Ed Wood](https://…))`) is a citation of its own.
    if !inner.contains(char::is_alphabetic) || inner.contains("](") || end - close - 1 != wrapped {
      continue;
    }
    let after = &text[end..];
    let before = text[..start].trim_end();
    // Before the sentence's full stop or after it: a title's own parenthesis (`Ed Wood
    // (film)` at a heading's end) ends no sentence.
    let ends = after.starts_with(['.', '!', '?'])
      && after[1..].chars().next().is_none_or(char::is_whitespace)
      || before.ends_with(['.', '!', '?']) && after.chars().next().is_none_or(char::is_whitespace);
    if ends {
      out.push((&text[start..end], inner));
    }
  }
  out
}

/// The tails of lines after a spaced dash (`- … — Source: Ed Wood`, `… – Ed Wood`): a
/// phrase, not a sentence; what they name without a label's word (`Source:`).
fn dash_tails(text: &str) -> Vec<(&str, &str)> {
  let mut out = Vec::new();
  for line in text.lines() {
    let Some((at, dash)) = [" \u{2014} ", " \u{2013} ", " - "]
      .iter()
      .filter_map(|d| line.rfind(d).map(|at| (at, d.len())))
      .max()
    else {
      continue;
    };
    let tail = line[at + dash..].trim_end();
    // After text: not a list item's own dash (`  - claim: …`).
    if line[..at].trim().is_empty()
      || tail.is_empty()
      || tail.len() > MAX_NOTE
      || !tail.contains(char::is_alphabetic)
      || tail.contains(". ")
    {
      continue;
    }
    let named = match tail.split_once(": ") {
      Some((label, rest)) if label.bytes().all(|b| b.is_ascii_alphabetic()) => rest,
      _ => tail,
    };
    out.push((&line[at + 1..at + dash + tail.len()], named));
  }
  out
}

/// `path/to/file.ext:42` references (a path with an extension and a line number).
pub(super) fn file_references(text: &str) -> Vec<&str> {
  text
    .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '`' | ',' | '"' | '\'' | '[' | ']'))
    .map(|w| w.trim_end_matches(['.', ';', ':']))
    .filter(|w| {
      let Some((path, line)) = w.rsplit_once(':') else {
        return false;
      };
      let line = line.split(['-', ':']).next().unwrap_or("");
      let name = path.rsplit('/').next().unwrap_or(path);
      !line.is_empty()
        && line.bytes().all(|b| b.is_ascii_digit())
        && name.contains('.')
        && !path.contains("//")
        && name
          .rsplit('.')
          .next()
          .is_some_and(|e| !e.is_empty() && e.len() <= 6 && e.bytes().all(|b| b.is_ascii_alphanumeric()))
        && path
          .bytes()
          .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'.' | b'_' | b'-'))
    })
    .collect()
}

/// A citation marker or a source note ends the sentence it cites, but UAX #29 puts the
/// marker in `text.[1] Next`, `text. [1] Next` or `text.¹ Next` with the next sentence (or
/// splits it), and the note in `text. (Ed Wood)` makes a sentence of its own: move such
/// markers and notes back to the sentence before. `notes` are the text's (`source_notes`).
pub(super) fn join_split_markers(text: &str, notes: &[Note], segments: &mut Vec<Segment>) {
  let mut i = 0;
  while i + 1 < segments.len() {
    let (a, b) = (&segments[i], &segments[i + 1]);
    if a.block != b.block || !matches!(a.kind, Kind::Text | Kind::Item) || b.kind != Kind::Text {
      i += 1;
      continue;
    }
    let (b_start, b_end) = (b.start, b.end);
    let body = &text[b_start..b_end];
    // `[` left at the end of `a` (its label's rest, `2]`, opens `b`), or markers opening `b`.
    let mut cut = 0;
    if text[..a.end].ends_with('[') {
      if let Some(close) = body.find(']') {
        let label = &body[..close];
        if !label.is_empty() && label.len() <= MAX_LABEL && !label.contains(char::is_whitespace) {
          cut = close + 1;
        }
      }
    }
    while let Some(m) =
      marker_at(text, b_start + cut).filter(|m| m.span.end <= b_end && !m.label.contains(char::is_whitespace))
    {
      cut = m.span.end - b_start;
    }
    let note = notes.partition_point(|(n, _)| n.start < b_start + cut);
    if let Some((n, _)) = notes
      .get(note)
      .filter(|(n, _)| n.start == b_start + cut && n.end <= b_end)
    {
      cut = n.end - b_start;
    }
    let rest = &body[cut..];
    if cut == 0 {
      i += 1;
      continue;
    }
    // A full stop right after the markers (`text [1].`) goes with them.
    let cut = cut + rest.len() - rest.trim_start_matches(['.', '!', '?', ',', ';']).len();
    segments[i].end = b_start + cut;
    let next = b_start + cut + (body[cut..].len() - body[cut..].trim_start().len());
    if next >= b_end {
      segments.remove(i + 1);
      // Heading indices after it move down one (fuzz/regressions/filter).
      for s in segments.iter_mut() {
        if let Some(h) = s.heading.as_mut() {
          if *h > i + 1 {
            *h -= 1;
          }
        }
      }
    } else {
      segments[i + 1].start = next;
      i += 1;
    }
  }
}

/// `text` with its inline citations set aside, byte for byte at the same offsets: a link's
/// target (`(https://…)`) blanked, the full stops and other sentence ends inside a link's
/// text or a `(source: …)` note made spaces, and a lenticular marker blanked. A citation
/// is not text: its address adds no words to what a sentence says, and a title's `No.`
/// or `M.` ends no sentence.
pub(super) fn set_aside(text: &str, notes: &[Note]) -> String {
  let mut bytes = text.as_bytes().to_vec();
  let base = text.as_ptr() as usize;
  let offset = |piece: &str| piece.as_ptr() as usize - base;
  let calm = |range: std::ops::Range<usize>, bytes: &mut Vec<u8>| {
    for b in &mut bytes[range] {
      if matches!(b, b'.' | b'!' | b'?') {
        *b = b' ';
      }
    }
  };
  for (link, target) in inline_links(text) {
    let (start, at) = (offset(link), offset(target));
    calm(start..at, &mut bytes);
    // `(` and `)` stay, so that what follows still reads as after a parenthesis.
    bytes[at..at + target.len()].fill(b' ');
  }
  for (note, _) in notes {
    calm(note.clone(), &mut bytes);
  }
  // A marker in lenticular brackets (`【4†source】`) is blanked: its letters would join
  // it to the sentence after it, as a word in lower case continues a sentence. The
  // sentence before takes it back (`attach_lenticular`).
  for (start, end) in lenticular_markers(text) {
    bytes[start..end].fill(b' ');
  }
  // Only whole characters were replaced, by ASCII bytes.
  String::from_utf8(bytes).unwrap_or_else(|_| text.to_owned())
}

/// `【4†source】` markers (short, no spaces inside): their byte ranges.
fn lenticular_markers(text: &str) -> Vec<(usize, usize)> {
  let mut out = Vec::new();
  let mut from = 0;
  while let Some(open) = text[from..].find('【') {
    let inner = from + open + '【'.len_utf8();
    let Some(close) = text[inner..].find('】') else {
      break;
    };
    let end = inner + close + '】'.len_utf8();
    if close <= MAX_LABEL && !text[inner..inner + close].contains(char::is_whitespace) {
      out.push((from + open, end));
    }
    from = end;
  }
  out
}

/// Each segment takes back the lenticular markers (`set_aside` blanked them) that follow
/// it before the next segment: `… was born.【4†source】` keeps its marker.
pub(super) fn attach_lenticular(text: &str, segments: &mut [Segment]) {
  let markers = lenticular_markers(text);
  if markers.is_empty() {
    return;
  }
  // Markers and segments both in text order: one pass over each.
  let mut next = 0;
  for i in 0..segments.len() {
    let limit = segments.get(i + 1).map_or(text.len(), |s| s.start);
    let mut end = segments[i].end;
    next += markers[next..].partition_point(|&(start, _)| start < end);
    while let Some(&(start, stop)) = markers.get(next) {
      if stop > limit || !text[end..start].trim().is_empty() {
        break;
      }
      end = stop;
      next += 1;
    }
    segments[i].end = end;
  }
}
