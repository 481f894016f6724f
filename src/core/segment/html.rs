//! HTML's block structure, however its lines are laid out: a page fetched as it is, a
//! search tool's results as markup, often on one line. Its blocks (`<p>`, `<div>`, `<li>`,
//! `<h3>`) are a text's lines and paragraphs, and a line break (`<br>`) is a line's end;
//! a block's text is read inside the tags around it (`<p><b>Ed Wood</b></p>` is the title
//! line `Ed Wood`).

/// HTML's elements whose content is a block of its own: a paragraph, a list's item, a
/// section, a heading, the page's body. A table's cells are not: a row is one record, as a
/// markdown row is. Nor is `<summary>`, a title element (`TITLE_ELEMENTS`) that is also an
/// Atom feed entry's text.
const BLOCK_ELEMENTS: [&str; 39] = [
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "dd",
  "details",
  "dialog",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "html",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "tbody",
  "thead",
  "tr",
  "ul",
];

/// A tag longer than this is no tag (a `<` in prose or code, then text up to a `>`): an
/// anchor's address fits in it.
const MAX_TAG: usize = 1_000;

/// A tag at the start of `text`: its length, whether it closes an element, and the
/// element's name (`<div class="x">`, `</p>`, `<br/>`).
fn tag_at(text: &str) -> Option<(usize, bool, &str)> {
  let rest = text.strip_prefix('<')?;
  let (closing, rest) = match rest.strip_prefix('/') {
    Some(rest) => (true, rest),
    None => (false, rest),
  };
  let letters = rest.bytes().take_while(u8::is_ascii_alphanumeric).count();
  if !rest.starts_with(|c: char| c.is_ascii_alphabetic())
    || !matches!(rest.as_bytes().get(letters), Some(b' ' | b'\t' | b'/' | b'>'))
  {
    return None;
  }
  let window = &text.as_bytes()[..text.len().min(MAX_TAG)];
  let close = window.iter().position(|&b| b == b'>' || b == b'\n')?;
  (window[close] == b'>').then(|| (close + 1, closing, &rest[..letters]))
}

fn is_block(name: &str) -> bool {
  BLOCK_ELEMENTS.iter().any(|e| e.eq_ignore_ascii_case(name))
}

fn is_break(name: &str) -> bool {
  name.eq_ignore_ascii_case("br")
}

/// Where the line `start..end` of `text` is cut into the lines its markup makes: before a
/// block's opening tag, after its closing tag, where text stands on both sides (`…</p><h2>Ed
/// Wood</h2><p>…`); and after a line break in a line of markup (`<b>Ed Wood</b><br>Ed Wood
/// was…`). A line of markdown breaks its own lines with `<br>` (a table's cell, a list's
/// item), which go on with what it holds.
pub(super) fn block_lines(text: &str, start: usize, end: usize, out: &mut Vec<(usize, usize)>) {
  let line = &text[start..end];
  let markup = line.trim_start().starts_with('<');
  let mut from = start;
  for at in memchr::memchr_iter(b'<', line.as_bytes()) {
    let Some((len, closing, name)) = tag_at(&line[at..]) else {
      continue;
    };
    let cut = if markup && is_break(name) || closing && is_block(name) {
      at + len
    } else if !closing && is_block(name) {
      at
    } else {
      continue;
    };
    if start + cut > from && !text[from..start + cut].trim().is_empty() && !line[cut..].trim().is_empty() {
      out.push((from, start + cut));
      from = start + cut;
    }
  }
  out.push((from, end));
}

/// Whether a line opens with a block's opening tag (`<p>`, `<li class="x">`): the block
/// before it ends there.
pub(super) fn opens_block(line: &str) -> bool {
  let t = line.trim_start();
  t.starts_with('<') && tag_at(t).is_some_and(|(_, closing, name)| !closing && is_block(name))
}

/// Whether a line ends with a block's closing tag (`…</p>`, `…</li>`): its block ends there.
pub(super) fn closes_block(line: &str) -> bool {
  let t = line.trim_end();
  t.ends_with('>')
    && t
      .rfind("</")
      .is_some_and(|at| tag_at(&t[at..]).is_some_and(|(len, _, name)| at + len == t.len() && is_block(name)))
}

/// Whether a paragraph, read as its lines are gathered, has ended as an HTML block: its
/// last line (`last`, which markup may have cut from a longer one) closes one, or is a
/// second line break (`<br><br>`, a blank line's markup), and it holds more than markup
/// (which opens the block after it).
pub(super) fn ends_block(paragraph: &str, last: &str) -> bool {
  let t = last.trim_end();
  let breaks = || {
    is_markup_only(t)
      && t
        .rfind('<')
        .and_then(|at| tag_at(&t[at..]))
        .is_some_and(|(_, _, name)| is_break(name))
  };
  // Most paragraphs end otherwise: they are not read further.
  t.ends_with('>') && (closes_block(t) || breaks()) && !is_markup(paragraph)
}

/// Whether a paragraph holds nothing but markup between blocks: it opens the block after it.
pub(super) fn is_markup(paragraph: &str) -> bool {
  paragraph.lines().all(is_markup_only)
}

/// `paragraph` from its first line that is more than markup between blocks (`<ul>` over
/// `<li><b>Ed Wood</b>: …</li>`): where its text opens.
fn after_markup(paragraph: &str) -> usize {
  let mut at = 0;
  for line in paragraph.split_inclusive('\n') {
    if !is_markup_only(line) {
      break;
    }
    at += line.len();
  }
  at.min(paragraph.len())
}

/// Whether a block ends between two lines: the first closes one, or the second opens one.
pub(super) fn breaks_paragraph(line: &str, next: &str) -> bool {
  closes_block(line) || opens_block(next)
}

/// Whether a line holds nothing but blocks' tags and line breaks (`<div class="result">`,
/// `</li></ul>`, `<br>`): markup between blocks, no text of its own.
pub fn is_markup_only(line: &str) -> bool {
  let mut t = line.trim();
  if !t.starts_with('<') {
    return false;
  }
  while let Some((len, _, _)) = tag_at(t).filter(|&(_, _, name)| is_block(name) || is_break(name)) {
    t = t[len..].trim_start();
  }
  t.is_empty()
}

/// A line's text inside the tags it opens and ends with: `Ed Wood` of `<p><b>Ed
/// Wood</b></p>`, of `<div class="title">Ed Wood</div>`, of `<b>Ed Wood</b><br>`; a line with
/// no tag at either end is itself, trimmed.
pub fn inner_text(line: &str) -> &str {
  let mut t = line.trim();
  while let Some((len, _, _)) = tag_at(t) {
    t = t[len..].trim_start();
  }
  while t.ends_with('>') {
    let Some(at) = t
      .rfind('<')
      .filter(|&at| tag_at(&t[at..]).is_some_and(|(len, _, _)| at + len == t.len()))
    else {
      break;
    };
    t = t[..at].trim_end();
  }
  t
}

/// The length of a block's bold lead written in markup (`<b>Ed Wood</b>`, `<strong>Ed
/// Wood:</strong>`, with the colon or full stop after it, and a line break), after the
/// block's own tags (`<li>`, `<p>`), when the block opens with one on its first line and
/// goes on after it: as `**Ed Wood**` leads a markdown paragraph.
pub(super) fn bold_lead(paragraph: &str) -> Option<usize> {
  let from = after_markup(paragraph);
  let text = &paragraph[from..];
  let indent = text.len() - text.trim_start().len();
  let lead = bold_lead_at(&text[indent..])?;
  Some(from + indent + lead)
}

fn bold_lead_at(paragraph: &str) -> Option<usize> {
  let first_line = paragraph.split('\n').next().unwrap_or(paragraph);
  let mut at = 0;
  let name = loop {
    let (len, closing, name) = tag_at(&first_line[at..])?;
    if closing || !is_block(name) {
      break name;
    }
    at += len;
    at += first_line[at..].len() - first_line[at..].trim_start().len();
  };
  if !["b", "strong"].iter().any(|b| b.eq_ignore_ascii_case(name)) {
    return None;
  }
  let close = format!("</{}>", name.to_ascii_lowercase());
  let inner = at + tag_at(&first_line[at..])?.0;
  let end = inner + first_line[inner..].to_ascii_lowercase().find(&close)?;
  let mut lead = end + close.len();
  lead += paragraph[lead..].len() - paragraph[lead..].trim_start_matches([':', '.']).len();
  if let Some((len, _, _)) =
    tag_at(&paragraph[lead..]).filter(|&(_, closing, name)| !closing && is_break(name))
  {
    lead += len;
  }
  let words = first_line[inner..end].trim();
  let rest = inner_text(&paragraph[lead..]);
  (!words.is_empty() && !words.contains('<') && !rest.is_empty()).then_some(lead)
}

#[cfg(test)]
mod tests {
  use super::*;

  fn lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split('\n') {
      block_lines(text, start, start + line.len(), &mut out);
      start += line.len() + 1;
    }
    out.into_iter().map(|(s, e)| &text[s..e]).collect()
  }

  #[test]
  fn blocks_and_breaks_cut_lines() {
    assert_eq!(
      lines("<ul><li><b>Ed Wood</b>: a director.</li><li>Tim</li></ul>"),
      [
        "<ul>",
        "<li><b>Ed Wood</b>: a director.</li>",
        "<li>Tim</li>",
        "</ul>"
      ]
    );
    assert_eq!(
      lines("<b>Ed Wood</b><br>Ed Wood was a director.<br><br>"),
      ["<b>Ed Wood</b><br>", "Ed Wood was a director.<br>", "<br>"]
    );
    assert_eq!(
      lines("…</p><h2>Ed Wood</h2><p>He"),
      ["…</p>", "<h2>Ed Wood</h2>", "<p>He"]
    );
    // Inline tags, a table's cells and what is no tag cut nothing.
    assert_eq!(
      lines("a <b>bold</b> word, x < y > z"),
      ["a <b>bold</b> word, x < y > z"]
    );
    assert_eq!(lines("| a<br>b | c |"), ["| a<br>b | c |"]);
    assert_eq!(lines("4. Ed Wood<br>(Source 1)"), ["4. Ed Wood<br>(Source 1)"]);
    assert_eq!(lines("  <p>indented</p>"), ["  <p>indented</p>"]);
  }

  #[test]
  fn a_line_s_text_is_read_inside_its_tags() {
    assert_eq!(inner_text("<p><b>Ed Wood</b></p>"), "Ed Wood");
    assert_eq!(inner_text("<div class=\"title\">Ed Wood</div>"), "Ed Wood");
    assert_eq!(inner_text("<b>Ed Wood</b><br/>"), "Ed Wood");
    assert_eq!(inner_text("Ed <b>Wood</b>"), "Ed <b>Wood");
    assert_eq!(inner_text("x < y"), "x < y");
    assert!(is_markup_only("</li></ul>") && is_markup_only("<br>") && is_markup_only("<div class=\"r\">"));
    assert!(!is_markup_only("<b>Ed</b>") && !is_markup_only("<p>text</p>") && !is_markup_only("<doc>"));
    assert!(opens_block("<li>x") && !opens_block("<b>x</b>") && !opens_block("</p>"));
    assert!(
      closes_block("x</p>") && closes_block("<li>x</li>") && !closes_block("x</b>") && !closes_block("x<br>")
    );
  }

  #[test]
  fn a_bold_tag_leads_its_block() {
    fn lead(p: &str) -> Option<&str> {
      bold_lead(p).map(|n| &p[..n])
    }
    assert_eq!(
      lead("<b>Ed Wood</b><br>Ed Wood was a director."),
      Some("<b>Ed Wood</b><br>")
    );
    assert_eq!(
      lead("<li><strong>Ed Wood</strong>: a director.</li>"),
      Some("<li><strong>Ed Wood</strong>:")
    );
    assert_eq!(
      lead("<p><B>Ed Wood.</B> He was a director.</p>"),
      Some("<p><B>Ed Wood.</B>")
    );
    // Bold alone in its block leads nothing; nor does bold inside a sentence.
    assert_eq!(lead("<p><b>Ed Wood</b></p>"), None);
    assert_eq!(lead("He was <b>Ed Wood</b>. Yes."), None);
  }
}
