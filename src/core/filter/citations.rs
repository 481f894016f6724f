//! Citations in a result: definitions (`[k]: target`, footnotes) and the forms that
//! use them (markers, inline links, bare URLs, `(source: …)` notes, `file.ts:42`).

use crate::core::citations::MAX_LABEL;
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
      if !target.contains(char::is_whitespace) && !text[start + 1..mid].contains('\n') {
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

/// `(source: …)` notes: the whole note and what it names.
pub(super) fn source_notes(text: &str) -> Vec<(&str, &str)> {
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

/// A citation marker ends the sentence it cites, but UAX #29 puts the marker in
/// `text.[1] Next` and `text. [1] Next` with the next sentence (or splits it): move
/// such markers back to the sentence before.
pub(super) fn join_split_markers(text: &str, segments: &mut Vec<Segment>) {
  let mut i = 0;
  while i + 1 < segments.len() {
    let (a, b) = (&segments[i], &segments[i + 1]);
    if a.block != b.block || !matches!(a.kind, Kind::Text | Kind::Item) || b.kind != Kind::Text {
      i += 1;
      continue;
    }
    let (b_start, b_end) = (b.start, b.end);
    let body = &text[b_start..b_end];
    // `[` left at the end of `a`, or markers opening `b`.
    let split = text[..a.end].ends_with('[');
    let mut cut = 0;
    let mut rest = body;
    loop {
      let open = if split && cut == 0 {
        Some(rest)
      } else {
        rest.strip_prefix('[')
      };
      let Some(inner) = open else { break };
      let Some(close) = inner.find(']') else { break };
      let label = &inner[..close];
      if label.is_empty() || label.len() > MAX_LABEL || label.contains(char::is_whitespace) {
        break;
      }
      cut = body.len() - inner.len() + close + 1;
      rest = &body[cut..];
    }
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
pub(super) fn set_aside(text: &str) -> String {
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
  for (note, _) in source_notes(text) {
    let start = offset(note);
    calm(start..start + note.len(), &mut bytes);
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
