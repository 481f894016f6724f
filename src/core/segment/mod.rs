//! Cutting text into the units extraction keeps or drops, respecting its structure:
//! markdown headings, a file's header and the document a search's matches are in,
//! paragraphs, list items, table rows and fenced code blocks (never
//! cut inside here; only extraction cuts a block that alone exceeds its budget: `cut`;
//! a fence that holds JSON records or markdown is read as that document), or a JSON
//! text's records (`json`), then sentences by Unicode rules (UAX #29) at the finest
//! granularity.
//!
//! A segment is a byte range of the source text, so whatever is kept is the source's
//! own text, byte for byte.

mod captions;
mod cycles;
mod html;
mod json;
mod outline;
mod stamps;
mod wrap;

use std::borrow::Cow;

use rustc_hash::FxHashMap;

pub use cycles::{field_line, said};
pub use html::{inner_text, is_markup_only};
pub use json::{call_arguments, json_title, json_unescaped, json_written, late_title, opens_record_piece};
pub use outline::parent_headings;
pub use stamps::after_stamp;

use crate::core::sentences::for_each_sentence;

/// The finest unit that may be cut out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Granularity {
  Message,
  Paragraph,
  #[default]
  Sentence,
}

impl Granularity {
  /// Every granularity with its name across the binding (`granularity: 'sentence'`).
  pub const NAMED: [(Granularity, &'static str); 3] = [
    (Granularity::Message, "message"),
    (Granularity::Paragraph, "paragraph"),
    (Granularity::Sentence, "sentence"),
  ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
  Heading,
  /// The `### role` line that opens a rendered message: a section start, never a link target.
  Role,
  Text,
  /// A list item (`- `, `* `, `1. `): one unit, so a plan's lines can be told apart.
  Item,
  /// A fenced code block, whole.
  Code,
  /// A tool call's line (`→ name {arguments}`) in rendered messages: it opens the
  /// section of its unit, whose body is the call's result, and its arguments are the
  /// section's title, as a heading is a section's.
  Call,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
  pub start: usize,
  pub end: usize,
  pub kind: Kind,
  /// The block (paragraph, item, code block, heading) the segment is part of.
  pub block: usize,
  /// The heading segment of the section the segment is in, if any.
  pub heading: Option<usize>,
  /// The message the segment comes from (0 for plain text).
  pub message: usize,
}

/// Appends the segments of a document `text` (its offsets shifted by `offset`) to `out`;
/// block numbers continue from `next_block`, which is returned updated. A line standing
/// alone as a title, or underlined (setext), heads what follows as a `#` heading does.
pub fn segment(
  text: &str,
  offset: usize,
  message: usize,
  granularity: Granularity,
  out: &mut Vec<Segment>,
  next_block: usize,
) -> usize {
  segment_with(
    text,
    offset,
    message,
    granularity,
    out,
    next_block,
    Reading {
      title_lines: true,
      fenced: false,
    },
  )
}

/// `segment` for a part of a message: `#` headings head what follows, and the other
/// titles only where they recur (`titles_recur`). A tool result's text belongs to its
/// call, and the short lines of a program's output (`Platform: Linux`, `Ran 4 tests`)
/// are no titles; documents listed in one result or one answer, each under its title,
/// are read as documents apart are.
pub fn segment_part(
  text: &str,
  offset: usize,
  message: usize,
  granularity: Granularity,
  out: &mut Vec<Segment>,
  next_block: usize,
) -> usize {
  segment_with(
    text,
    offset,
    message,
    granularity,
    out,
    next_block,
    Reading {
      title_lines: false,
      fenced: false,
    },
  )
}

/// How a text is read.
#[derive(Clone, Copy)]
struct Reading {
  /// Whether title lines, titled tags and title fields head what follows (a document), or
  /// only where they recur (a message's part: `titles_recur`).
  title_lines: bool,
  /// Inside a fence read as a document: a fence in it is not read again (the recursion
  /// stays one level deep).
  fenced: bool,
}

fn segment_with(
  text: &str,
  offset: usize,
  message: usize,
  granularity: Granularity,
  out: &mut Vec<Segment>,
  mut next_block: usize,
  reading: Reading,
) -> usize {
  let Reading { title_lines, fenced } = reading;
  let mut heading: Option<usize> = None;
  let push =
    |out: &mut Vec<Segment>, start: usize, end: usize, kind: Kind, block: usize, heading: Option<usize>| {
      let (s, e) = trim(text, start, end);
      if s < e {
        out.push(Segment {
          start: offset + s,
          end: offset + e,
          kind,
          block,
          heading,
          message,
        });
      }
    };
  if granularity == Granularity::Message {
    push(out, 0, text.len(), Kind::Text, next_block, None);
    return next_block + 1;
  }
  if let Some(pieces) = json::records(text, granularity) {
    // Where each piece landed in `out` (none when it was only whitespace).
    let mut landed: Vec<Option<usize>> = Vec::with_capacity(pieces.len());
    for p in &pieces {
      let at = out.len();
      let heading = p.heading.and_then(|h| landed.get(h).copied().flatten());
      push(out, p.start, p.end, p.kind, next_block + p.block, heading);
      landed.push((out.len() > at).then_some(at));
    }
    return next_block + pieces.iter().map(|p| p.block + 1).max().unwrap_or(0);
  }
  let lines = line_spans(text);
  // Captions' sentences run on from cue to cue: the cues, their timings with them, are read
  // as one text whose line breaks are spaces; the header over them is a block of its own.
  // A chapter's title (`NOTE Ed Wood`, a cue `[Ed Wood]`) heads the cues up to the next.
  if let Some(start) = captions::cues_start(text, &lines).filter(|_| granularity == Granularity::Sentence) {
    push(out, 0, start, Kind::Text, next_block, None);
    let mut block = next_block + 1;
    let mut heading = None;
    let mut from = start;
    let chapters = captions::chapter_titles(text, &lines, start);
    for (title_start, title_end) in chapters.into_iter().chain([(text.len(), text.len())]) {
      let pushed = out.len();
      let cues = text[from..title_start].replace(['\n', '\r'], " ");
      for_each_sentence(&cues, |a, b| {
        push(out, from + a, from + b, Kind::Text, block, heading)
      });
      if out.len() > pushed {
        block += 1;
      }
      if title_start < text.len() {
        let index = out.len();
        push(out, title_start, title_end, Kind::Heading, block, None);
        heading = (out.len() > index).then_some(index);
        block += 1;
      }
      // The rest of the title's line (a label's `]`) is in no segment.
      from = text[title_end..].find('\n').map_or(text.len(), |n| title_end + n);
    }
    return block;
  }
  let title_lines = title_lines || titles_recur(text, &lines);
  // Items that title the prose under them head it where a few do (`is_titled_item`).
  let titled_items = title_lines
    && (0..lines.len())
      .filter(|&k| {
        (k == 0 || is_blank(&text[lines[k - 1].0..lines[k - 1].1])) && is_titled_item(text, &lines, k)
      })
      .nth(MIN_TITLED - 1)
      .is_some();
  let rows = titled_tab_rows(text, &lines);
  // Lines that open a record of a cycle of fields (`Thought:` … `Observation:`, again).
  let cycle = cycles::openers(text, &lines);
  // Per line, whether it is prose a sentence long (`is_sentence_line`), read when first asked.
  let mut sentence_lines: Vec<Option<bool>> = vec![None; lines.len()];
  let mut i = 0;
  // Whether JSON after the text's opening lines has been tried as records, at the first
  // line that opens as records do (once: a text of many such lines would otherwise be
  // scanned again from each).
  let mut json_tried = false;
  // The line right after a title field that opened a heading: a field of another name there
  // is the same record's (`title: Ed Wood` over `source: https://…`), no heading of its own.
  let mut under_field = usize::MAX;
  // The keys of the title fields that opened records (`title`, `source`).
  let mut heading_keys: Vec<&str> = Vec::new();
  // The file of the last match a search printed (`match_prefix`).
  let mut match_file: Option<&str> = None;
  // The paragraph being gathered: its start and end offsets.
  let mut para: Option<(usize, usize)> = None;
  // Whether the paragraph being gathered is field lines only (`fields_only`): a record's
  // fields before its title field.
  let mut para_fields = false;
  let flush = |out: &mut Vec<Segment>,
               para: &mut Option<(usize, usize)>,
               next_block: &mut usize,
               heading: Option<usize>| {
    if let Some((s, e)) = para.take() {
      let block = *next_block;
      // A bold lead (`**Ed Wood.** He was…`) titles its paragraph as a heading would.
      let (s, heading) = match bold_lead(&text[s..e]) {
        Some(lead) => {
          let index = out.len();
          push(out, s, s + lead, Kind::Heading, block, heading);
          (s + lead, (out.len() > index).then_some(index).or(heading))
        }
        None => (s, heading),
      };
      if granularity == Granularity::Sentence {
        for_each_sentence(&wrap::unwrapped(&text[s..e]), |from, to| {
          push(out, s + from, s + to, Kind::Text, block, heading)
        });
      } else {
        push(out, s, e, Kind::Text, block, heading);
      }
      *next_block += 1;
    }
  };
  // A heading heads the segments after it, in a block of its own.
  let open_heading = |out: &mut Vec<Segment>,
                      start: usize,
                      end: usize,
                      heading: &mut Option<usize>,
                      next_block: &mut usize| {
    let index = out.len();
    push(out, start, end, Kind::Heading, *next_block, None);
    if out.len() > index {
      *heading = Some(index);
    }
    *next_block += 1;
  };
  // A paragraph of one short line with no closing punctuation, with more text after it
  // (from line `from` on), is a title ("Ed Wood", "**Ed Wood**"): it heads what follows as
  // a heading does.
  let titled = |para: Option<(usize, usize)>, from: usize| {
    para.filter(|&(s, e)| {
      title_lines
        && is_title_block(&text[s..e])
        && lines[from..].iter().any(|&(a, b)| !text[a..b].trim().is_empty())
    })
  };
  while i < lines.len() {
    let (ls, le) = lines[i];
    let line = &text[ls..le];
    let stripped = line.trim_start_matches(' ');
    let indent = line.len() - stripped.len();
    // A form feed starts a new page: what stood before it is a block of its own.
    if line.starts_with('\x0c') {
      flush(out, &mut para, &mut next_block, heading);
    }
    if indent <= 3 && (stripped.starts_with("```") || stripped.starts_with("~~~")) {
      flush(out, &mut para, &mut next_block, heading);
      let fence_char = stripped.as_bytes()[0];
      let fence_len = stripped.bytes().take_while(|&c| c == fence_char).count();
      let mut j = i + 1;
      while j < lines.len() {
        let l = text[lines[j].0..lines[j].1].trim();
        if l.len() >= fence_len && l.bytes().all(|c| c == fence_char) {
          break;
        }
        j += 1;
      }
      // A fence that holds a document (JSON records, markdown) is read as one: its records
      // and sections are units. Its fence lines are in none, so that no kept record leaves
      // a fence open in what is kept.
      let info = stripped[fence_len..].trim();
      if j > i + 1 && !fenced {
        let (a, b) = (lines[i + 1].0, lines[j - 1].1);
        if matches!(info, "markdown" | "md") || json::records(&text[a..b], granularity).is_some() {
          next_block = segment_with(
            &text[a..b],
            offset + a,
            message,
            granularity,
            out,
            next_block,
            Reading {
              fenced: true,
              ..reading
            },
          );
          i = j + 1;
          continue;
        }
      }
      let end = lines[j.min(lines.len() - 1)].1;
      push(out, ls, end, Kind::Code, next_block, heading);
      next_block += 1;
      i = j + 1;
      continue;
    }
    // JSON records after a few lines of text (`Found 10 results:` over the list) are read
    // as records, as a text that is all JSON is.
    if !json_tried && opens_records(&text[ls..]) {
      json_tried = true;
      if json::records(&text[ls..], granularity).is_some() {
        flush(out, &mut para, &mut next_block, heading);
        return segment_with(
          &text[ls..],
          offset + ls,
          message,
          granularity,
          out,
          next_block,
          reading,
        );
      }
    }
    // The file a search's matches are in (`grep -n`, ripgrep: `wiki/Ed_Wood.txt:3:He was…`)
    // heads the matches under it, as a file's header does.
    let matched = match_prefix(line);
    if let Some((file, prefix)) = matched.filter(|&(file, _)| match_file != Some(file)) {
      flush(out, &mut para, &mut next_block, heading);
      open_heading(out, ls, ls + prefix, &mut heading, &mut next_block);
      match_file = Some(file);
      para = Some((ls + prefix, le));
      i += 1;
      continue;
    }
    if matched.is_none() {
      match_file = None;
    }
    let tag = title_lines && is_titled_tag(stripped);
    // A title field opens a record where it opens a block, or where its key opened one
    // before (`Source: …` over `Content: …`, record after record, no blank line between).
    // A record's fields before its title field (`id: 7` over `title: Ed Wood`) are part of
    // the heading it opens.
    let leading_fields = para.filter(|_| title_lines && para_fields);
    let field = title_lines
      && (para.is_none()
        || leading_fields.is_some()
        || !heading_keys.is_empty() && field_key(stripped).is_some_and(|key| heading_keys.contains(&key)))
      && (i != under_field || field_key(stripped) == field_key(&text[lines[i - 1].0..lines[i - 1].1]))
      && field_title(stripped).is_some();
    // Markup is indented as it nests: a titled tag heads what follows at any indentation.
    let latex = latex_heading_title(stripped).is_some();
    if indent <= 3
      && (is_heading(stripped)
        || field
        || latex
        || file_header(stripped).is_some()
        || title_lines && titled_rule(stripped).is_some()
        || title_lines && is_wiki_heading(stripped))
      || tag
      || quoted_heading(stripped).is_some() && stands_apart(lines.get(i + 1).map(|&(a, b)| &text[a..b]))
    {
      let start = match leading_fields.filter(|_| field) {
        Some((s, _)) => {
          para = None;
          s
        }
        None => {
          flush(out, &mut para, &mut next_block, heading);
          ls
        }
      };
      // The addresses right under a heading are part of it (`is_title_block`), alone on
      // their lines or as a field's value (`url: https://…` under `title: Ed Wood`).
      let addresses = lines[i + 1..]
        .iter()
        .take(MAX_ADDRESS_LINES)
        .take_while(|&&(a, b)| addresses_alone(text[a..b].trim()))
        .count();
      open_heading(out, start, lines[i + addresses].1, &mut heading, &mut next_block);
      i += 1 + addresses;
      if field && addresses == 0 {
        under_field = i;
      }
      if let Some(key) = field.then(|| field_key(stripped)).flatten() {
        if !heading_keys.contains(&key) {
          heading_keys.push(key);
        }
      }
      continue;
    }
    // HTML's blocks are paragraphs: a block's opening tag ends the paragraph before it, as
    // does a closing tag (or a second line break, `<br><br>`) on the line before. Markup
    // between blocks (`</li>`, `<div class="result">`) stays with the block before it (a
    // block of markup alone would be a unit of no words); where none is open, it opens the
    // next.
    let markup = html::is_markup_only(stripped);
    if let Some((s, _)) = para.filter(|_| markup) {
      para = Some((s, le));
      i += 1;
      continue;
    }
    let ended = |(s, e): (usize, usize)| {
      let last = lines[i - 1];
      e == last.1 && html::ends_block(&text[s..e], &text[last.0..last.1])
    };
    if para.is_some_and(|p| ended(p) || html::opens_block(stripped) && !html::is_markup(&text[p.0..p.1])) {
      if let Some((s, e)) = titled(para, i) {
        para = None;
        open_heading(out, s, e, &mut heading, &mut next_block);
      }
      flush(out, &mut para, &mut next_block, heading);
    }
    if is_blank(stripped) {
      if let Some((s, e)) = titled(para, i) {
        para = None;
        open_heading(out, s, e, &mut heading, &mut next_block);
      }
      // A quote's bare marks close the block over them: every character is in a segment.
      if !stripped.trim().is_empty() {
        para = Some(para.map_or((ls, le), |(s, _)| (s, le)));
      }
      flush(out, &mut para, &mut next_block, heading);
      i += 1;
      continue;
    }
    // A setext underline (`===` or `---` under one line) makes that line a heading, where
    // it is as short as a title (in a part too where it is `===`, as explicit as a `#`): a
    // paragraph of sentences over `---` is closed by a thematic break (files with front
    // matter joined by `cat`, the next one's `---` right under the last one's text). The
    // line is asked first: the paragraph is read only over an underline.
    // A line between two rules of one mark (`════` or `*****` over and under it) is as
    // plainly a title.
    if let Some((s, _)) = para.filter(|&(s, e)| {
      memchr::memchr(b'\n', &text.as_bytes()[s..e]).is_none()
        && ((title_lines || stripped.starts_with('=')) && is_setext_underline(stripped)
          || i >= 2 && frames(text, &lines, i - 2))
        && reads_as_heading(&text[s..e], stripped)
    }) {
      para = None;
      // The underline is part of its heading: every character is in some segment.
      open_heading(out, s, le, &mut heading, &mut next_block);
      i += 1;
      continue;
    }
    // An INI section's header that names what its fields are about (`[Ed Wood]` over
    // `source = wikipedia`) heads them, as a title line does.
    if title_lines
      && is_section_name(stripped)
      && lines.get(i + 1).is_some_and(|&(s, e)| is_entry(&text[s..e]))
    {
      flush(out, &mut para, &mut next_block, heading);
      open_heading(out, ls, le, &mut heading, &mut next_block);
      i += 1;
      continue;
    }
    // A TOML table's header opens the record under it: its first line, as a field is
    // (`fields_only`), so that a title field under it heads the record from the header on.
    if title_lines && is_table_header(stripped) {
      flush(out, &mut para, &mut next_block, heading);
      para = Some((ls, le));
      para_fields = true;
      i += 1;
      continue;
    }
    // A thematic break (`---` under a document's last line, as a YAML stream and many
    // exports separate their documents) ends the block it closes; what follows starts
    // anew, so that a title field under it heads what follows.
    // A line of `=` is a rule where it opens a frame around a title over prose (`=====`
    // over `Ed Wood` over `=====` over `Ed Wood was…`); elsewhere it is a program's
    // separator that cuts nothing (as a rule, or framing a test's name over its traceback,
    // it had moved the threads' own files named from 0.926 to 0.925).
    let opens_frame = || {
      let line = |k: usize| lines.get(i + k).map(|&(a, b)| text[a..b].trim());
      stripped.trim().bytes().all(|c| c == b'=')
        && frames(text, &lines, i)
        && line(1).is_some_and(is_title_line)
        && line(3).is_some_and(is_prose)
    };
    if indent <= 3 && (is_rule(stripped) || opens_frame()) {
      para = Some(match para {
        Some((s, _)) => (s, le),
        None => (ls, le),
      });
      flush(out, &mut para, &mut next_block, heading);
      i += 1;
      continue;
    }
    // An item titling the prose under it heads it, where such items recur.
    if titled_items && indent <= 3 && is_titled_item(text, &lines, i) {
      flush(out, &mut para, &mut next_block, heading);
      open_heading(out, ls, le, &mut heading, &mut next_block);
      i += 1;
      continue;
    }
    // A table row is a record as a list item is: a unit of its own.
    let item = if para.is_some() {
      interrupts_paragraph(stripped)
    } else {
      is_list_item(stripped)
    };
    if item || is_table_row(stripped) {
      flush(out, &mut para, &mut next_block, heading);
      // The item and its indented continuation lines.
      let mut j = i + 1;
      while j < lines.len() {
        let l = &text[lines[j].0..lines[j].1];
        let lt = l.trim_start_matches(' ');
        if lt.trim().is_empty() || l.len() - lt.len() < 2 || is_list_item(lt) && l.len() - lt.len() <= indent
        {
          break;
        }
        j += 1;
      }
      let end = lines[j - 1].1;
      // An item over several lines whose continuation lines are one sentence at most (a
      // plan's step with its details) stays whole; one continued by a line of prose (a
      // record's text under its title) is not.
      let prose = j == i + 1
        || lines[i + 1..j].iter().any(|&(a, b)| {
          let mut sentences = 0;
          for_each_sentence(&text[a..b], |_, _| sentences += 1);
          sentences > 1
        });
      if granularity == Granularity::Sentence && prose {
        // An item of several sentences is cut as a paragraph is: its first sentence (with
        // the bullet and any lead) is the item, the rest its text. Its line breaks are
        // read as spaces (the same bytes long): a sentence wrapped over lines is one.
        // The mark is no sentence of its own (`9.` would be one).
        let body = ls + item_mark(&text[ls..end]);
        let item = &text[body..end];
        let unwrapped: std::borrow::Cow<str> = if item.contains(['\n', '\r']) {
          item.replace(['\n', '\r'], " ").into()
        } else {
          item.into()
        };
        let pieces = sentence_pieces(&unwrapped);
        if pieces.is_empty() {
          // A mark with nothing after it.
          push(out, ls, end, Kind::Item, next_block, heading);
        }
        for (k, &(from, to)) in pieces.iter().enumerate() {
          let (kind, from) = if k == 0 {
            (Kind::Item, ls)
          } else {
            (Kind::Text, body + from)
          };
          push(out, from, body + to, kind, next_block, heading);
        }
      } else {
        push(out, ls, end, Kind::Item, next_block, heading);
      }
      next_block += 1;
      i = j;
      continue;
    }
    // Lines longer than hand-wrapped text's were not wrapped: after one that ends a
    // sentence, a long line is the writer's next record (records a line each, CSV rows).
    // A short line after a long one (`Source: Ed Wood`, `</doc>`) still belongs to it.
    let long = |k: usize| {
      let line = &text[lines[k].0..lines[k].1];
      // No line of at most this many bytes has more characters.
      line.len() > MAX_WRAPPED_LINE && line.chars().count() > MAX_WRAPPED_LINE
    };
    let ends_sentence =
      |k: usize| without_closing_tags(&text[lines[k].0..lines[k].1]).ends_with(SENTENCE_ENDS);
    // Two long lines, the first ending a sentence, are records apart; not two lines of a
    // sentence each, prose written a sentence a line (semantic line breaks, a sentence
    // splitter's output): one paragraph.
    let mut sentence_line =
      |k: usize| *sentence_lines[k].get_or_insert_with(|| is_sentence_line(&text[lines[k].0..lines[k].1]));
    // Nor, in a document, an entry's value and the lines indented under it, which continue
    // it (an INI file's `text = …` over tab-indented lines, a folded header).
    let continues = |a: usize, b: usize| {
      title_lines
        && text[lines[b].0..lines[b].1].starts_with([' ', '\t'])
        && is_entry(&text[lines[a].0..lines[a].1])
    };
    let mut apart = |a: usize, b: usize| {
      b < lines.len()
        && long(a)
        && long(b)
        && ends_sentence(a)
        && !(sentence_line(a) && sentence_line(b))
        && !continues(a, b)
    };
    // A run of records starts at a long line ending a sentence followed by another: a
    // short line over it (a CSV's header) is no part of the first.
    let run_starts = apart(i, i + 1) && ends_sentence(i + 1);
    // A row of a tab-separated table whose header names a title column is a record too.
    let row = rows.get(i) == Some(&true);
    // A search's next match in the same document goes on with its text: the document's
    // lines, not records apart (the file's first match opened its section above).
    let next_match = matched.is_some();
    // Markup over a record (`<ul>` over its items' lines) opens it.
    let markup_over = |(s, e): (usize, usize)| html::is_markup(&text[s..e]);
    if i > 0
      && !next_match
      && (apart(i - 1, i) || run_starts || row || cycle.get(i) == Some(&true))
      && !para.is_some_and(markup_over)
    {
      flush(out, &mut para, &mut next_block, heading);
    }
    para_fields = (para.is_none() || para_fields) && fields_only(line);
    para = Some(match para {
      Some((s, _)) => (s, le),
      None => (ls, le),
    });
    i += 1;
  }
  flush(out, &mut para, &mut next_block, heading);
  next_block
}

/// Whether a line is prose a sentence long: it opens with words (a record opens with its
/// markup, its cell or its field: `"Ed Wood","…"`, `Ed Wood,…`, `title: Ed Wood`, `Document
/// [1]`, `<doc>`, `{`), and holds one sentence at most.
fn is_sentence_line(line: &str) -> bool {
  let line = line.trim_start();
  if !opens_with_words(line) {
    return false;
  }
  let mut sentences = 0;
  for_each_sentence(line, |_, _| sentences += 1);
  sentences <= 1
}

/// Whether a line opens as prose does: its first `PROSE_OPENING_WORDS` words are words
/// (letters or digits, an apostrophe or a hyphen inside, in parentheses or before a comma
/// as prose writes them) a space apart, no cell, field, mark or markup (a printed table's
/// `0   Ed Wood   …` pads its cells).
fn opens_with_words(line: &str) -> bool {
  let mut n = 0;
  for w in line.split(' ').take(PROSE_OPENING_WORDS) {
    let core = w.trim_start_matches('(').trim_end_matches([',', ';', '.', ')']);
    if core.is_empty()
      || !core
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '\'' | '’' | '-' | '–'))
    {
      return false;
    }
    n += 1;
  }
  n == PROSE_OPENING_WORDS
}

/// A record's title, cell or field shows within its first three words (`Ed Wood,"…"`,
/// `title: Ed Wood`, `Document [1] (Title: …)`); a sentence's first three are words.
const PROSE_OPENING_WORDS: usize = 3;

/// Per line, whether it is a row of a tab-separated table under a header that names a
/// title column (`id<TAB>text<TAB>title`): a record of its own, as a CSV row is. A run of
/// lines with as many tabs is one table, its first line the header (a file shown with
/// `cat -n` has tabs too, and no header). Empty for a text without tabs.
fn titled_tab_rows(text: &str, lines: &[(usize, usize)]) -> Vec<bool> {
  if memchr::memchr(b'\t', text.as_bytes()).is_none() {
    return Vec::new();
  }
  // Which lines hold a tab at all, found in one search of the whole text.
  let mut any_tab = vec![false; lines.len()];
  let mut k = 0;
  for at in memchr::memchr_iter(b'\t', text.as_bytes()) {
    while k < lines.len() && lines[k].1 <= at {
      k += 1;
    }
    match any_tab.get_mut(k) {
      Some(tab) => *tab = true,
      None => break,
    }
  }
  let mut rows = vec![false; lines.len()];
  let mut titled = false;
  let mut cells = 0;
  for (k, &(start, end)) in lines.iter().enumerate() {
    let line = if any_tab[k] { text[start..end].trim() } else { "" };
    let tabs = line.bytes().filter(|&b| b == b'\t').count();
    if tabs > 0 && tabs == cells {
      rows[k] = titled;
    } else {
      cells = tabs;
      titled = tabs > 0 && line.split('\t').any(is_title_attribute);
    }
  }
  rows
}

/// The sentences of `text`, a piece without a letter (a table row's closing `|`) ending
/// the sentence before it.
fn sentence_pieces(text: &str) -> Vec<(usize, usize)> {
  let mut pieces: Vec<(usize, usize)> = Vec::new();
  for_each_sentence(text, |from, to| match pieces.last_mut() {
    Some(last) if !text[from..to].contains(char::is_alphabetic) => last.1 = to,
    _ => pieces.push((from, to)),
  });
  pieces
}

/// Whether `text` opens as JSON records do: an object, or a list whose first element is one
/// (`[{`, `[\n  {`); not a marker or a list of words (`[1] see below`, `[app] started`).
fn opens_records(text: &str) -> bool {
  let t = text.trim_start();
  t.starts_with('{')
    || t
      .strip_prefix('[')
      .is_some_and(|rest| rest.trim_start().starts_with('{'))
}

/// `line` without the closing tags it ends with (`…end.</p></article>`), trimmed.
fn without_closing_tags(line: &str) -> &str {
  let mut t = line.trim_end();
  while let Some(open) = t.strip_suffix('>').and_then(|rest| rest.rfind("</")) {
    let name = &t[open + 2..t.len() - 1];
    if name.is_empty()
      || !name
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b':'))
    {
      break;
    }
    t = t[..open].trim_end();
  }
  t
}

/// What a sentence, or a record's last cell, ends with (a closing quote of any kind after
/// the full stop: `…species.»`).
const SENTENCE_ENDS: [char; 8] = ['.', '!', '?', '"', '\u{201d}', '\u{2019}', '»', '|'];

/// Text wrapped by hand breaks its lines before this many characters (at 72 to 80
/// columns, 100 at most).
const MAX_WRAPPED_LINE: usize = 100;

/// For each segment, the first segment with the same text (itself when none comes
/// before it). Agent threads repeat themselves (the same test output after every
/// attempt, the same file read again): what is known of one copy holds for all.
pub fn repeats(text: &str, segments: &[Segment]) -> Vec<u32> {
  let mut first: FxHashMap<&str, u32> =
    FxHashMap::with_capacity_and_hasher(segments.len(), Default::default());
  segments
    .iter()
    .enumerate()
    .map(|(i, s)| *first.entry(&text[s.start..s.end]).or_insert(i as u32))
    .collect()
}

/// Whether `text` lists documents under titles of one form, each over prose (`is_prose`):
/// at least `MIN_TITLED` titled tags (`<source>Ed Wood</source>`), paragraphs opened by the
/// same title field (`Title: Ed Wood`), or title lines, these being enough of its
/// paragraphs (`TITLED_SHARE`: a program's output has a title-like line here and there).
fn titles_recur(text: &str, lines: &[(usize, usize)]) -> bool {
  let line = |k: usize| text[lines[k].0..lines[k].1].trim();
  let blank = |k: usize| k >= lines.len() || is_blank(line(k)) || html::is_markup_only(line(k));
  // A rule between lines bounds paragraphs as a blank line does (`════` over and under a
  // title, as programs and chat models rule off their records).
  let rule = |k: usize| is_rule(line(k));
  // The last line of the paragraph from line `k` on.
  let last = |k: usize| {
    (k..lines.len())
      .take_while(|&n| n == k || !blank(n) && !rule(n) && !html::breaks_paragraph(line(n - 1), line(n)))
      .last()
      .unwrap_or(k)
  };
  let paragraph = |k: usize| text[lines[k].0..lines[last(k)].1].trim();
  let (mut tags, mut title_lines, mut paragraphs) = (0, 0, 0);
  // Titled tags not yet followed by a line that is more than markup or an address: they
  // count when that line is prose (`<source>` over `<document_content>` over the text,
  // `<title>` over `<url>https://…</url>` over `<content>`).
  let mut waiting = 0;
  let mut fields: FxHashMap<&str, usize> = FxHashMap::default();
  // Whether the lines from the paragraph's opening to this one are fields (`id: 7`).
  let mut after_fields = false;
  for k in (0..lines.len()).filter(|&k| !blank(k)) {
    let l = line(k);
    if waiting > 0 {
      let t = without_tags(l);
      if !t.is_empty() && !is_address(t.trim()) {
        tags += if is_prose(&t) { waiting } else { 0 };
        waiting = 0;
      }
    }
    // A rule opens a paragraph as a blank line does (front matter's `---` over `title: …`).
    let opens = k == 0 || blank(k - 1) || rule(k - 1) || html::breaks_paragraph(line(k - 1), l);
    paragraphs += usize::from(opens);
    let leading_fields = !opens && after_fields;
    after_fields = (opens || after_fields) && fields_only(l);
    if is_titled_tag(l) {
      waiting += 1;
    } else if let Some((key, _)) = l.split_once(": ").filter(|(key, _)| {
      (opens || leading_fields || !fields.is_empty() && fields.contains_key(key.trim()))
        && field_title(l).is_some()
    }) {
      // A title field counts where it opens a paragraph or follows the fields that do, or
      // where its key did before.
      *fields.entry(key.trim()).or_default() += 1;
    } else if titled_rule(l).is_some() {
      // A rule labelled with a title over prose (`===== Ed Wood =====`), not a program's
      // over its output (pytest's `----- Captured stdout call -----` over what was printed).
      let next = (k + 1..lines.len()).find(|&n| !blank(n) && !rule(n));
      title_lines += usize::from(next.is_some_and(|n| is_prose(paragraph(n))));
    } else if opens && is_titled_item(text, lines, k) {
      title_lines += 1;
    } else if opens && is_title_block(paragraph(k)) {
      let end = last(k);
      let next = (end + 1..lines.len()).find(|&n| !blank(n) && !rule(n));
      title_lines += usize::from(next.is_some_and(|n| is_prose(paragraph(n))));
    }
  }
  tags >= MIN_TITLED
    || fields.values().any(|&n| n >= MIN_TITLED)
    || title_lines >= MIN_TITLED && TITLED_SHARE * title_lines >= paragraphs
}

/// Whether line `k` is an item that titles the prose right under it (`* Ed Wood` over `Ed
/// Wood was…`, as org-mode and plain notes head their entries, or `1. [Ed Wood](https://…)`
/// over its text indented as the item's own lines, as a search's results are listed): a
/// title line for its text, the next line no item.
fn is_titled_item(text: &str, lines: &[(usize, usize)], k: usize) -> bool {
  let line = |k: usize| &text[lines[k].0..lines[k].1];
  let item = line(k).trim_start_matches(' ');
  let Some(next) = lines.get(k + 1).map(|_| line(k + 1)) else {
    return false;
  };
  // The prose: the lines under the item up to a blank one or the next item.
  let prose = || {
    let end = (k + 1..lines.len())
      .take_while(|&n| !is_blank(line(n)) && !is_list_item(line(n).trim_start_matches(' ')))
      .last()
      .unwrap_or(k + 1);
    is_prose(without_markup_lines(&text[lines[k + 1].0..lines[end].1]))
  };
  is_list_item(item)
    && is_title_line(&item[item_mark(item)..])
    && !is_list_item(next.trim_start_matches(' '))
    && prose()
}

/// `text` without the lines around its prose that open with markup, not a word or a quote
/// (org-mode's `:PROPERTIES:` drawer and `#+begin_quote` over an entry's text, `<div>`).
fn without_markup_lines(text: &str) -> &str {
  let markup = |l: &str| {
    let l = l.trim();
    !l.is_empty() && !l.starts_with(|c: char| c.is_alphanumeric() || matches!(c, '"' | '\u{201c}'))
  };
  let (mut from, mut to) = (0, text.len());
  for line in text.split_inclusive('\n') {
    if !markup(line) {
      break;
    }
    from += line.len();
  }
  for line in text[from..].split_inclusive('\n').rev() {
    if !markup(line) {
      break;
    }
    to -= line.len();
  }
  text[from..to.max(from)].trim()
}

/// A line with nothing on it but spaces, or a block quote's marks (`>`, the blank line of
/// a quoted text).
fn is_blank(line: &str) -> bool {
  line
    .trim_matches(|c: char| c.is_whitespace() || c == '>')
    .is_empty()
}

/// Text that reads as prose: opening with a letter, a digit or a quote, longer than a
/// title line, closed as a sentence is. Not a program's output (`=== q ===`, `Value: 1`).
fn is_prose(text: &str) -> bool {
  let text = inner_text(text);
  text.starts_with(|c: char| c.is_alphanumeric() || matches!(c, '"' | '\u{201c}'))
    && text.len() > MAX_TITLE_LINE
    && text.ends_with(['.', '!', '?', '"', ')', '\u{201d}'])
}

/// `line` without its markup tags.
pub fn without_tags(line: &str) -> String {
  let mut out = String::with_capacity(line.len());
  let mut rest = line;
  while let Some(open) = rest.find('<') {
    out.push_str(&rest[..open]);
    match rest[open..].find('>') {
      Some(close) => rest = &rest[open + close + 1..],
      None => {
        rest = &rest[open..];
        break;
      }
    }
  }
  out.push_str(rest);
  out.trim().to_owned()
}

/// Title lines over prose make a listing when they are at least 1/this of its paragraphs:
/// a title and its paragraph are two, and some titles read as no title line (`Jr.`) or
/// stand over a short paragraph.
const TITLED_SHARE: usize = 3;

/// Titles in a message's part head what follows when at least this many recur: one
/// title-like line is as likely a program's output line, a list of documents has
/// several.
const MIN_TITLED: usize = 2;

/// Byte spans of the lines of `text`, without their line breaks.
fn line_spans(text: &str) -> Vec<(usize, usize)> {
  let b = text.as_bytes();
  let mut spans = Vec::with_capacity(text.len() / 32);
  let mut start = 0;
  for i in memchr::memchr_iter(b'\n', b) {
    let end = if i > start && b[i - 1] == b'\r' { i - 1 } else { i };
    spans.push((start, end));
    start = i + 1;
  }
  if start < text.len() {
    spans.push((start, text.len()));
  }
  // Only the lines that hold a tag are looked at again: HTML's blocks cut them.
  let mut tags = memchr::memchr_iter(b'<', b).peekable();
  if tags.peek().is_some() {
    let mut cut = Vec::with_capacity(spans.len());
    for (s, e) in spans {
      while tags.next_if(|&at| at < s).is_some() {}
      if tags.peek().is_some_and(|&at| at < e) {
        html::block_lines(text, s, e, &mut cut);
      } else {
        cut.push((s, e));
      }
    }
    spans = cut;
  }
  spans
}

/// The length of a paragraph's bold lead (`**Title.**`, `__Title__:`, with the colon or
/// full stop after it; or an italic one that closes so), when the paragraph opens with one
/// on its first line, no longer than `MAX_BOLD_LEAD` bytes, and goes on after it.
fn bold_lead(paragraph: &str) -> Option<usize> {
  // An HTML block's lead is written in markup (`<b>Ed Wood</b>`).
  if paragraph.trim_start().starts_with('<') {
    return html::bold_lead(paragraph);
  }
  // A pictograph before it is part of the lead (`📄 **Ed Wood**`).
  // Most paragraphs open with a letter: they are not searched for a mark (a keycap opens
  // with a digit, `#` or `*`; a pictograph with no ASCII).
  if paragraph.starts_with(|c: char| c.is_ascii() && !matches!(c, '*' | '_' | '#' | '0'..='9')) {
    return None;
  }
  let first_line = paragraph.split('\n').next().unwrap_or(paragraph);
  let dressed = first_line
    .find(['*', '_'])
    .filter(|&at| without_ornaments(&first_line[..=at]).len() == 1)?;
  let (paragraph, first_line) = (&paragraph[dressed..], &first_line[dressed..]);
  let mark = ["**", "__", "*", "_"]
    .into_iter()
    .find(|m| paragraph.starts_with(m))?;
  let close = mark.len() + first_line.get(mark.len()..)?.find(mark)?;
  let mut end = close + mark.len();
  let marked = &paragraph[mark.len()..close];
  end += paragraph[end..].len() - paragraph[end..].trim_start_matches([':', '.']).len();
  // An italic lead closes with its colon or full stop, or its line (`*Ed Wood:* …`): an
  // italic name goes on in its sentence (`*Ed Wood* is a film`).
  let italic_closes = mark.len() == 2
    || marked.ends_with([':', '.'])
    || paragraph[..end].ends_with([':', '.'])
    || paragraph[end..].starts_with(['\n', '\r']);
  let lead_ok = close > mark.len()
    && italic_closes
    && dressed + end <= MAX_BOLD_LEAD
    && !paragraph[end..].trim().is_empty();
  lead_ok.then_some(dressed + end)
}

/// A bold lead longer than this is bold text, not a title.
const MAX_BOLD_LEAD: usize = 120;

/// A field line's name (`title` of `title: Ed Wood`).
fn field_key(line: &str) -> Option<&str> {
  field(line).map(|(key, _)| key)
}

/// Whether a line underlined by `underline` reads as a heading: no longer than a title line
/// (a title may hold full stops: `St. Louis`, `What's new?`), and over `---` no field
/// (`source: https://…` over the `---` that closes front matter; `Introduction: Why` over
/// `===` is a heading).
fn reads_as_heading(line: &str, underline: &str) -> bool {
  let t = line.trim();
  if underline.trim_start().starts_with('=') {
    return t.chars().count() <= MAX_TITLE_LINE;
  }
  // A box-drawn rule is as often a record's close as a title's underline: a title line only.
  if is_box_rule(underline) {
    return is_title_line(t);
  }
  let field = field_key(t).is_some_and(|key| {
    !key.is_empty()
      && key
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
  });
  t.chars().count() <= MAX_TITLE_LINE && !field
}

/// A line standing alone as a title: short, not opening with a lower-case letter (bold or
/// not), not all capitals (`OK`, `FAILED`), no sentence end in it or closing it (nor a
/// citation marker: `… was born. [3]`), and nothing that makes it code (a tab, `=`,
/// braces), a quote, a table row or markup.
pub fn is_title_line(line: &str) -> bool {
  titles_as(line, |bare| bare.chars().any(char::is_lowercase))
}

/// Whether `line` is shaped as a title line, `cased` asked of it without its bold marks.
fn titles_as(line: &str, cased: impl Fn(&str) -> bool) -> bool {
  // A title in markup is read inside its tags (`<p><b>Ed Wood</b></p>`, `<a href="…">Ed
  // Wood</a>`).
  let line = if line.trim_start().starts_with('<') {
    inner_text(line)
  } else {
    line
  };
  // A title's address is no part of its length (`Ed Wood - https://…`, `**[Ed Wood](https://…)**`).
  let shown = without_addresses(line);
  // A block quote's title line is one too (`> Ed Wood` over a quoted paragraph).
  let t = without_org_tags(shown.trim());
  let t = t.strip_prefix("> ").map_or(t, str::trim);
  let bare = t.trim_start_matches(['*', '_']);
  // Cheapest first: most lines asked are long, or end or open as no title does.
  t.len() <= MAX_TITLE_LINE
    && !t.ends_with(['.', '!', '?', ':', ',', ']'])
    && !t.starts_with(['<', '>', '{', '[', '`', '|', '#', '/'])
    && !bare.starts_with(char::is_lowercase)
    && cased(bare)
    && !t.contains(['\t', '\n', '=', '{', '}', ';', '|'])
    && !sentence_ends_inside(t)
    && t.split_whitespace().count() <= MAX_TITLE_WORDS
}

/// Whether a sentence ends inside `line`: a full stop, `?` or `!` before a space where the
/// sentence segmenter ends one, so not an initial's or an abbreviation's (`C. S. Lewis`,
/// `Mrs. Bixby and the Colonel's Coat`, `Jack St. Clair Kilby`).
pub(super) fn sentence_ends_inside(line: &str) -> bool {
  // Most lines hold no such stop: they are not segmented.
  let stops = line
    .as_bytes()
    .windows(2)
    .any(|w| matches!(w, [b'.' | b'?' | b'!', b' ']));
  stops && {
    let mut sentences = 0;
    for_each_sentence(line.trim_end(), |_, _| sentences += 1);
    sentences > 1
  }
}

/// A heading without the tags org-mode writes at its end (`* Ed Wood :film:wiki:`).
pub fn without_org_tags(heading: &str) -> &str {
  // Most lines asked end otherwise: they are not searched for their last word.
  let t = heading.trim_end();
  if !t.ends_with(':') {
    return heading;
  }
  let Some((rest, tags)) = t.rsplit_once(char::is_whitespace) else {
    return heading;
  };
  let tagged = !tags.trim_matches(':').is_empty()
    && tags.starts_with(':')
    && tags.split(':').all(|tag| {
      tag
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '@' | '#' | '%'))
    });
  if tagged {
    rest.trim_end()
  } else {
    heading
  }
}

/// A paragraph that is a title line, alone or over the addresses of what it titles (`Ed
/// Wood` over `https://en.wikipedia.org/wiki/Ed_Wood`), as search results and sources
/// are headed; in capitals too (`ED WOOD`, a man page's `DESCRIPTION`), as a paragraph of
/// its own over a document's text is a heading however it is cased. (A tool's output is
/// read as a message's part, where no line titles what follows unless titles recur: its
/// `OK` over more output is no heading.)
pub fn is_title_block(paragraph: &str) -> bool {
  // Markup around the title (`<div class="result">` over `<div class="title">Ed Wood</div>`)
  // is no line of it.
  let mut lines = paragraph.lines().filter(|l| !html::is_markup_only(l));
  let lettered = |bare: &str| bare.chars().filter(|c| c.is_alphabetic()).count() >= MIN_TITLE_LETTERS;
  lines.next().is_some_and(|l| titles_as(l, lettered)) && {
    let rest: Vec<&str> = lines.collect();
    rest.len() <= MAX_ADDRESS_LINES && rest.iter().all(|l| is_address(l.trim()))
  }
}

/// A title block has this many letters at least, in whatever case: one letter alone is a
/// list's mark or a grade (`A`), not a title.
const MIN_TITLE_LETTERS: usize = 2;

/// A title's addresses are one or two lines (a link, a path; the page's and its archive's).
const MAX_ADDRESS_LINES: usize = 2;
/// A line longer than this holds more than an address.
const MAX_ADDRESS_LINE: usize = 300;

/// A title without the pictographs set before or after it (`📄 Ed Wood`, `▶ Ed Wood`, `1️⃣ Ed
/// Wood`, `Ed Wood ✅`: see `ornament`), as chat models and tools dress their titles.
pub fn without_ornaments(title: &str) -> &str {
  // A keycap (`1️⃣`): digits, `#` or `*`, then a variation selector or an enclosing mark.
  let keys = title
    .bytes()
    .take_while(|b| b.is_ascii_digit() || matches!(b, b'#' | b'*'))
    .count();
  let t = match &title[keys..] {
    rest if keys > 0 && rest.starts_with(['\u{fe0f}', '\u{20e3}']) => rest,
    _ => title,
  };
  // A pictograph is no ASCII: a title that opens and closes with ASCII has none to drop.
  let ascii = |c: Option<char>| c.is_none_or(|c| c.is_ascii());
  if ascii(t.chars().next()) && ascii(t.chars().next_back()) {
    return title;
  }
  let t = t.trim_start_matches(|c: char| ornament(c) || c.is_whitespace());
  let t = t.trim_end_matches(|c: char| ornament(c) || c.is_whitespace());
  if t.is_empty() {
    title
  } else {
    t
  }
}

/// A pictograph or a bullet (`📄`, `✅`, `▶`, `→`, `•`), or what joins and dresses one (a
/// variation selector, a zero-width joiner, a keycap's mark): the blocks of bullets, arrows,
/// technical and geometric shapes, symbols, dingbats and emoji. No punctuation (a wrapped
/// line may open with a date range's `– 1963)`), currency, letter or quote.
fn ornament(c: char) -> bool {
  matches!(c,
    '\u{2022}' | '\u{2023}' | '\u{2043}' | '\u{200d}' | '\u{20e3}' | '\u{fe0f}'
    | '\u{2190}'..='\u{21ff}'
    | '\u{2300}'..='\u{23ff}'
    | '\u{25a0}'..='\u{27bf}'
    | '\u{2b00}'..='\u{2bff}'
    | '\u{1f000}'..='\u{1faff}')
}

/// A line as it reads without its addresses: a markdown link as its text (`[Ed Wood](https://…)`
/// is `Ed Wood`), a web address left out with what joins it to the rest (`Ed Wood -
/// https://…` is `Ed Wood`). A line without `://`, or too long to be a title with its
/// addresses, or more than one line, is returned as it is.
pub fn without_addresses(line: &str) -> Cow<'_, str> {
  if line.len() > MAX_TITLE_LINE + MAX_ADDRESS_LINE || !line.contains("://") || line.contains('\n') {
    return Cow::Borrowed(line);
  }
  let mut out = String::with_capacity(line.len());
  let mut rest = line;
  while let Some(open) = rest.find('[') {
    let link = rest[open + 1..].find("](").and_then(|close| {
      let target = open + 1 + close + 2;
      let end = target + rest[target..].find(')')?;
      let text = &rest[open + 1..open + 1 + close];
      (!text.contains(['[', ']']) && rest[target..end].contains("://")).then_some((text, end))
    });
    match link {
      Some((text, end)) => {
        out.push_str(&rest[..open]);
        out.push_str(text);
        rest = &rest[end + 1..];
      }
      None => {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
      }
    }
  }
  out.push_str(rest);
  let words: Vec<&str> = out.split(' ').filter(|w| !w.contains("://")).collect();
  let joined = words.join(" ");
  Cow::Owned(
    joined
      .trim_end_matches(|c: char| {
        c.is_whitespace() || matches!(c, '-' | '\u{2013}' | '\u{2014}' | '|' | ':' | '(' | '<')
      })
      .to_string(),
  )
}

/// A line that gives an address alone, bare or as a field's value (`url: https://…`).
fn addresses_alone(line: &str) -> bool {
  is_address(line) || field(line).is_some_and(|(_, value)| is_address(value.trim()))
}

/// A link or a path alone on its line: one word, with `://` in it or opening as a path does
/// (`/`, `./`, `~/`); not a closing tag (`</doc>`) or `and/or`.
pub fn is_address(line: &str) -> bool {
  (line.contains("://") || line.starts_with(['/', '~']) || line.starts_with("./"))
    && !line.contains(char::is_whitespace)
    && line.len() <= MAX_ADDRESS_LINE
}

/// A title line longer than this is a sentence that lacks its full stop.
pub(super) const MAX_TITLE_LINE: usize = 100;
/// ...and so is one of more words than this.
const MAX_TITLE_WORDS: usize = 12;

/// A markup line that titles what follows: an opening tag with a title-like attribute
/// (`<document title="Ed Wood">`, `<file path="src/a.ts">`) or a title element
/// (`<source>Ed Wood</source>`), as documents are wrapped for a model.
pub fn is_titled_tag(line: &str) -> bool {
  let t = line.trim();
  if !t.starts_with('<') || !t.ends_with('>') || t.starts_with("</") || t.len() > MAX_TAG_LINE {
    return false;
  }
  // A tag that wraps nothing (`<meta name="…" />`, `<input name="…">`) titles nothing.
  let name = tag_name(t);
  let wraps = !t.ends_with("/>") && !VOID_ELEMENTS.iter().any(|v| v.eq_ignore_ascii_case(name));
  wraps && tag_title(t).is_some()
}

/// HTML's elements that have no content (no closing tag).
const VOID_ELEMENTS: [&str; 13] = [
  "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "track", "wbr",
];

/// The title a titled tag gives (`is_titled_tag`).
pub fn tag_title(tag: &str) -> Option<&str> {
  let t = tag.trim();
  for attribute in TITLE_ATTRIBUTES {
    if let Some(at) = t.find(&format!(" {attribute}=\"")) {
      let value = &t[at + attribute.len() + 3..];
      let value = value.find('"').map(|end| &value[..end]);
      // A field written on its line is named by `name` (Solr's `<str name="title">Ed
      // Wood</str>`): it holds a title when that is a title's name, else other content
      // (`<str name="text">…</str>`, `<str name="id">…</str>`) and titles nothing.
      let inner = &t[t.find('>')? + 1..];
      if let Some(end) = inner.rfind("</").filter(|_| attribute == "name") {
        let field = inner[..end].trim();
        let titled = value.is_some_and(is_title_attribute) && !field.is_empty() && !field.contains('<');
        return titled.then_some(field);
      }
      return value.filter(|v| !v.trim().is_empty());
    }
  }
  TITLE_ELEMENTS.iter().find_map(|element| {
    let inner = t
      .strip_prefix(&format!("<{element}>"))?
      .strip_suffix(&format!("</{element}>"))?;
    // Character data written as such (`<title><![CDATA[Ed Wood]]></title>`, as feeds do).
    let inner = inner
      .strip_prefix("<![CDATA[")
      .and_then(|rest| rest.strip_suffix("]]>"))
      .unwrap_or(inner);
    // A summary titles where it reads as a title: a `<details>` element's does; a feed
    // entry's or a report's is prose.
    let titles = *element != "summary" || is_title_line(inner);
    (titles && !inner.trim().is_empty() && !inner.contains('<')).then_some(inner)
  })
}

/// The value of a `Title: Ed Wood` line opening a paragraph: a field whose name is a
/// title-like attribute's (`Title`, `Source`, `Path`…), as a record is printed.
pub fn field_title(line: &str) -> Option<&str> {
  let (key, value) = field(line)?;
  // A value may be quoted, as YAML and JSON write it.
  let value = before_barred_field(value).trim().trim_matches('"').trim();
  (is_title_attribute(key) && !value.is_empty() && value.len() <= MAX_TITLE_LINE).then_some(value)
}

/// A field's value up to the next field a bar apart on its line (`Ed Wood` of `Title: Ed
/// Wood | Source: en.wikipedia.org | Date: …`).
pub fn before_barred_field(value: &str) -> &str {
  if memchr::memchr(b'|', value.as_bytes()).is_none() {
    return value;
  }
  let next = value.match_indices(" | ").find(|&(at, _)| {
    let key = value[at + 3..].split_once(": ").map_or("", |(key, _)| key);
    !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
  });
  next.map_or(value, |(at, _)| &value[..at])
}

/// The value of the title field that closes a record's piece after its text (`- claim:
/// "…"` over `  source: https://…/wiki/Ed_Wood`, a YAML item whose title comes last).
pub fn closing_field_title(piece: &str) -> Option<&str> {
  let mut lines = piece.trim_end().lines();
  let last = lines.next_back()?;
  lines.next_back().and_then(|_| field_title(last))
}

/// The title field of a record's heading whose other fields stand before it (`id: 7` over
/// `title: Ed Wood`, as a segment joins them: see `fields_only`).
pub fn later_field_title(heading: &str) -> Option<&str> {
  let mut lines = heading.lines();
  let first = lines.next()?;
  (field_title(first).is_none() && fields_only(first))
    .then(|| lines.find_map(field_title))
    .flatten()
}

/// A field line's name and value: `title: Ed Wood`, or a value given with `=` as TOML and
/// INI files write it: quoted (`title = "Ed Wood"`), a number or a boolean (`id = 7`);
/// otherwise `x = y` is code.
fn field(line: &str) -> Option<(&str, &str)> {
  let t = line.trim();
  split_once(t, ": ").or_else(|| {
    // Most lines hold no `=`: one byte search rules them out.
    let (key, value) = t.contains('=').then(|| split_once(t, " = ")).flatten()?;
    let v = value.trim_end();
    let number = v.bytes().any(|c| c.is_ascii_digit())
      && v.bytes().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'-'));
    let scalar =
      v.len() > 1 && v.starts_with('"') && v.ends_with('"') || number || matches!(v, "true" | "false");
    (!key.contains(char::is_whitespace) && scalar).then_some((key, value))
  })
}

/// `text.split_once(separator)`, found by `memchr`'s vectorized search: `field` asks it of
/// every line of a text.
fn split_once<'a>(text: &'a str, separator: &str) -> Option<(&'a str, &'a str)> {
  let at = memchr::memmem::find(text.as_bytes(), separator.as_bytes())?;
  Some((&text[..at], &text[at + separator.len()..]))
}

/// A TOML table's or an INI section's header alone on its line (`[[pages]]`, `[page]`):
/// it opens the record under it.
fn is_table_header(line: &str) -> bool {
  let t = line.trim();
  let name = t
    .strip_prefix("[[")
    .and_then(|r| r.strip_suffix("]]"))
    .or_else(|| t.strip_prefix('[').and_then(|r| r.strip_suffix(']')));
  name.is_some_and(|n| {
    n.starts_with(|c: char| c.is_ascii_alphabetic())
      && n
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'))
  })
}

/// An INI section's header that is a name, not a table's key (`[Ed Wood]`, not `[page]`,
/// which `is_table_header` reads): words in single brackets alone on the line, no longer
/// than `MAX_SECTION_NAME` bytes, not closed as a sentence is (`[The command completed.]`).
fn is_section_name(line: &str) -> bool {
  let t = line.trim();
  let Some(name) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) else {
    return false;
  };
  name.len() <= MAX_SECTION_NAME
    && name.contains(' ')
    && name.starts_with(char::is_alphanumeric)
    && !name.contains(['[', ']'])
    && !name.ends_with(['.', '!', '?', ':', ' '])
}

/// A section name longer than this is a bracketed remark, not a name: the bound a title
/// set in bold has (`MAX_BOLD_LEAD`), as the two stand in for a heading alike.
const MAX_SECTION_NAME: usize = MAX_BOLD_LEAD;

/// A line of an INI section: a key of one word, then `=` or `:` (`source = wikipedia`,
/// `key=value`, `path: a.txt`), not a bracketed remark (`[Python interpreter: /usr/bin]`).
fn is_entry(line: &str) -> bool {
  let t = line.trim_start();
  let key = t.find(['=', ':']).map(|at| t[..at].trim_end());
  key.is_some_and(|k| {
    !k.is_empty()
      && k
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
  })
}

/// Whether `key` names a title (`Title`, `source`, `path`…: `TITLE_ATTRIBUTES`, or a
/// compound of `title`).
pub fn is_title_attribute(key: &str) -> bool {
  // A reStructuredText field's name is wrapped in colons (`:Title: Ed Wood`).
  let key = key.trim().trim_matches(':');
  if TITLE_ATTRIBUTES.iter().any(|a| a.eq_ignore_ascii_case(key)) {
    return true;
  }
  // A compound ending in a title's word: `doc_title`, `page-title`, `pageTitle`.
  let Some(head) = key.strip_suffix("title").or_else(|| key.strip_suffix("Title")) else {
    return false;
  };
  let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
  !head.is_empty()
    && key.bytes().all(word)
    && (head.ends_with(['_', '-'])
      || key.ends_with("Title") && head.ends_with(|c: char| c.is_ascii_lowercase()))
}

/// Whether a tag's name (`h3`, `title`) is a title element's (`TITLE_ELEMENTS`).
pub fn is_title_element(name: &str) -> bool {
  TITLE_ELEMENTS.iter().any(|e| e.eq_ignore_ascii_case(name))
}

/// The name of the element a tag opens or closes (`span` of `<span class="x">`, `b` of
/// `</b>`).
fn tag_name(tag: &str) -> &str {
  let t = tag.trim_start_matches(['<', '/']);
  &t[..t.find([' ', '>', '/']).unwrap_or(t.len())]
}

/// Whether a tag opens or closes an element that marks up words inside a sentence
/// (`INLINE_ELEMENTS`: `<b>`, `</span>`), not a block (`<p>`, `<summary>`).
pub fn is_inline_tag(tag: &str) -> bool {
  INLINE_ELEMENTS
    .iter()
    .any(|e| e.eq_ignore_ascii_case(tag_name(tag)))
}

/// Attributes whose value names what a tag wraps (`page`: LangChain's Wikipedia tool
/// prints `Page: Ed Wood` over each summary; `subject`: a message's or an email's).
const TITLE_ATTRIBUTES: [&str; 10] = [
  "title", "name", "source", "path", "file", "filename", "page", "heading", "headline", "subject",
];
/// Elements whose text names what is wrapped around them, or what follows them (HTML's
/// headings, a `<details>` element's `<summary>`).
const TITLE_ELEMENTS: [&str; 11] = [
  "title", "source", "name", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "summary",
];
/// HTML's phrasing elements that mark up words inside a sentence.
const INLINE_ELEMENTS: [&str; 16] = [
  "a", "abbr", "b", "cite", "code", "dfn", "em", "i", "mark", "q", "s", "small", "span", "strong", "u", "var",
];
/// A tag line longer than this holds content, not a title.
const MAX_TAG_LINE: usize = 300;

/// `===` or `---` (two or more) alone on a line.
fn is_setext_underline(line: &str) -> bool {
  let t = line.trim();
  t.len() >= 2 && (t.bytes().all(|c| c == b'=') || t.bytes().all(|c| c == b'-')) || is_box_rule(t)
}

/// A line drawn with one of the box-drawing characters (`════`, `────`), as programs and
/// chat models rule off their records: a rule, or a title's underline.
fn is_box_rule(line: &str) -> bool {
  let mut chars = line.trim().chars();
  let first = chars.next().filter(|c| ('\u{2500}'..='\u{257f}').contains(c));
  first.is_some_and(|f| chars.clone().count() >= 2 && chars.all(|c| c == f))
}

/// Whether line `open` and the line two under it are the same rule (`is_rule`, or a line
/// of `=`), a line that is not blank between them: a frame around a title.
fn frames(text: &str, lines: &[(usize, usize)], open: usize) -> bool {
  let line = |k: usize| lines.get(k).map(|&(a, b)| text[a..b].trim());
  line(open).is_some_and(|l| is_rule(l) || l.len() >= MIN_RULE && l.bytes().all(|c| c == b'='))
    && line(open + 2) == line(open)
    && line(open + 1).is_some_and(|l| !is_blank(l))
}

/// A line that rules off what is over it: a thematic break or a labelled rule.
fn is_rule(line: &str) -> bool {
  is_thematic_break(line) || is_labelled_rule(line)
}

/// Three or more `-`, `*`, `_` or `#` alone on a line, spaces between allowed (`---`,
/// `* * *`, `#####`, as programs print between records; a `#` heading has words after its
/// marks), or a box-drawn rule.
fn is_thematic_break(line: &str) -> bool {
  if is_box_rule(line) {
    return true;
  }
  let marks = line.trim().bytes().filter(|&c| c != b' ' && c != b'\t');
  let mut count = 0;
  let mut first = None;
  for c in marks {
    if !matches!(c, b'-' | b'*' | b'_' | b'#') || first.is_some_and(|f| f != c) {
      return false;
    }
    first = Some(c);
    count += 1;
  }
  count >= MIN_RULE
}

/// A rule with a label in it, as programs print between records (mysql's `*** 1. row
/// ***`, `----- Original Message -----`): the same mark, three times at least, on both
/// sides of a short label. It closes the block over it, as a thematic break does.
fn is_labelled_rule(line: &str) -> bool {
  rule_label(line).is_some()
}

/// A labelled rule's label (`Ed Wood` of `===== Ed Wood =====`).
fn rule_label(line: &str) -> Option<&str> {
  let t = line.trim();
  let mark = t
    .bytes()
    .next()
    .filter(|c| matches!(c, b'*' | b'-' | b'=' | b'_' | b'~'))?;
  let open = t.bytes().take_while(|&c| c == mark).count();
  let close = t.bytes().rev().take_while(|&c| c == mark).count();
  let label = t.get(open..t.len().saturating_sub(close)).unwrap_or("");
  // Spaced from its marks: `***Ed Wood***` is a bold title.
  let spaced = label.starts_with(' ') && label.ends_with(' ');
  let label = label.trim();
  (open >= MIN_RULE && close >= MIN_RULE && spaced && !label.is_empty() && label.len() <= MAX_TITLE_LINE)
    .then_some(label)
}

/// The title of a labelled rule whose label is one (`===== Ed Wood =====`, `----- Original
/// Message -----`): it heads what follows where titles do (in a message's part, where such
/// rules over prose recur). One labelled with a count or in lower case (`*** 1. row ***`)
/// only rules off.
pub fn titled_rule(line: &str) -> Option<&str> {
  // A count (`1.`, `#3`, `2)`), not a year that opens a title (`2014 FIFA World Cup`).
  let count = |label: &str| {
    let first = label.split_whitespace().next().unwrap_or("");
    let digits = first.trim_start_matches('#').trim_end_matches(['.', ':', ')']);
    digits.bytes().all(|c| c.is_ascii_digit()) && digits.len() < first.len()
  };
  rule_label(line).filter(|label| is_title_line(label) && !count(label))
}

/// A rule's marks on each side of its label: three, as a thematic break's.
const MIN_RULE: usize = 3;

/// Whether `text` (lines of a record before its title field) is field lines only (`id: 7`,
/// `  date: 2024-05-06`, a TOML table's header `[[docs]]`): short lines of a one-word name
/// and a value that is no sentence (`Content: Ed Wood was a director.` over `Source: …` is
/// the record before's text).
fn fields_only(text: &str) -> bool {
  let mut lines = text.lines().filter(|l| !l.trim().is_empty()).peekable();
  lines.peek().is_some()
    && lines.all(|l| {
      is_table_header(l)
        || l.len() <= MAX_TITLE_LINE
          && field(l).is_some_and(|(key, value)| {
            !key.contains(char::is_whitespace) && !value.trim_end().ends_with(['.', '!', '?'])
          })
    })
}

fn is_heading(line: &str) -> bool {
  let hashes = line.bytes().take_while(|&c| c == b'#').count();
  (1..=6).contains(&hashes) && line[hashes..].starts_with([' ', '\t']) && !line[hashes..].trim().is_empty()
}

/// The markdown heading a JSON string holds as a line of a list of lines (`"## Ed
/// Wood\n",`, as a notebook's cells and outputs keep their text): a heading where it stands.
pub fn quoted_heading(line: &str) -> Option<&str> {
  let inner = line
    .trim()
    .trim_end_matches(',')
    .strip_prefix('"')?
    .strip_suffix('"')?;
  let heading = inner.strip_suffix("\\n").unwrap_or(inner);
  (is_heading(heading) && !heading.contains('"')).then_some(heading)
}

/// Whether the line after a quoted heading (`quoted_heading`) leaves it standing apart, as
/// markdown writes a heading: a blank line's string (`"\n",`), the list's end, or none. A
/// program's comment (`"# load the data\n",` in a code cell) runs on into its code.
fn stands_apart(next: Option<&str>) -> bool {
  next.is_none_or(|line| {
    let t = line.trim().trim_end_matches(',');
    t == r#""\n""# || t.starts_with(']')
  })
}

/// The title of a LaTeX sectioning command alone on its line (`\section{Ed Wood}`,
/// `\subsection*{…}`).
pub fn latex_heading_title(line: &str) -> Option<&str> {
  let rest = line.trim().strip_prefix('\\')?;
  let open = rest.find('{')?;
  let command = rest[..open].trim_end_matches('*');
  let inner = rest[open + 1..].strip_suffix('}')?;
  (LATEX_SECTIONS.contains(&command) && !inner.trim().is_empty() && !inner.contains(['{', '}']))
    .then_some(inner.trim())
}

/// LaTeX's sectioning commands.
const LATEX_SECTIONS: [&str; 6] = [
  "part",
  "chapter",
  "section",
  "subsection",
  "subsubsection",
  "paragraph",
];

/// The file a header line names: a path alone between marks, as `head` and `tail` head
/// each file they show (`==> wiki/Ed_Wood.txt <==`) and scripts the files they print
/// (`=== notes/Ed_Wood.md ===`), or the file a diff's changes are in (`diff --git a/… b/…`).
/// It heads the file's text wherever it stands.
pub fn file_header(line: &str) -> Option<&str> {
  if let Some(files) = line.strip_prefix("diff --git a/") {
    let path = files.rsplit_once(" b/")?.1.trim();
    return is_file_name(path).then_some(path);
  }
  let mark = |c: char| matches!(c, '=' | '-' | '*' | '#' | ':' | '<' | '>');
  if !line.trim_start().starts_with(mark) {
    return None;
  }
  let t = line.trim();
  let inner = t.trim_start_matches(mark);
  let path = inner.trim_end_matches(mark);
  let marked = t.len() - inner.len() >= MIN_HEADER_MARKS && inner.len() - path.len() >= MIN_HEADER_MARKS;
  let path = path.trim();
  (marked && is_file_name(path)).then_some(path)
}

/// The document a search's match is in and the length of its prefix: `path:line:` before
/// the line that matched (`grep -n`, ripgrep), in a document's file (`document_stem`). A
/// program's lines are matched by what they hold, not by the file they are in: reading its
/// file as their title draws in every search of that file.
pub fn match_prefix(line: &str) -> Option<(&str, usize)> {
  // The path runs to the first colon, with no space before it (a line of prose or of
  // indented code is told at its first space).
  let colon = line.bytes().position(|c| c == b':' || c.is_ascii_whitespace())?;
  let (file, rest) = (&line[..colon], line[colon..].strip_prefix(':')?);
  let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
  let name = file.rsplit('/').next().unwrap_or(file);
  (digits > 0 && rest[digits..].starts_with(':') && is_file_name(file) && document_stem(name).is_some())
    .then_some((file, file.len() + 2 + digits))
}

/// A document's file name without its extension (`Ed_Wood.md` is `Ed_Wood`): prose files,
/// whose names are their titles, unlike a program's, which text names with the extension.
/// A name of one word in lower case (`index.rst`, `notes.txt`) is a common word, no title.
pub fn document_stem(file: &str) -> Option<&str> {
  let (stem, ext) = file.rsplit_once('.')?;
  let document = DOCUMENT_EXTENSIONS.iter().any(|e| ext.eq_ignore_ascii_case(e));
  let common = !stem.contains(['_', '-']) && !stem.contains(char::is_uppercase);
  (document && !stem.is_empty() && !common).then_some(stem)
}

/// The extensions of files of prose: markdown, plain text, web pages and other markup.
const DOCUMENT_EXTENSIONS: [&str; 9] = [
  "md", "markdown", "txt", "rst", "adoc", "org", "html", "htm", "wiki",
];

/// Whether `path` is a file's: one word with an extension (`notes.md`) or a folder
/// (`wiki/Ed_Wood`).
fn is_file_name(path: &str) -> bool {
  let file = path.rsplit('/').next().unwrap_or(path);
  let extension = file.rsplit_once('.').is_some_and(|(stem, ext)| {
    !stem.is_empty()
      && (1..=MAX_EXTENSION).contains(&ext.len())
      && ext.bytes().all(|c| c.is_ascii_alphanumeric())
  });
  !path.is_empty()
    && !path.contains(char::is_whitespace)
    && (extension || path.contains('/') && !file.is_empty())
}

/// Marks on each side of a file's header: two at least (`==>`), so that a line that
/// merely starts with a dash or ends with a colon heads nothing.
const MIN_HEADER_MARKS: usize = 2;

/// A file name's extension is this many characters at most (`md`, `html`, `ipynb`).
const MAX_EXTENSION: usize = 5;

/// MediaWiki's heading (`== Ed Wood ==`). Read where title lines are (a program's output
/// marks its lines so too: `=== case 1 ===`).
fn is_wiki_heading(line: &str) -> bool {
  let t = line.trim_end();
  let marks = t.bytes().take_while(|&c| c == b'=').count();
  (2..=6).contains(&marks)
    && t.len() > 2 * marks + 1
    && t[marks..].starts_with(' ')
    && t.ends_with(&t[..marks])
    && !t[marks..t.len() - marks].trim().is_empty()
}

/// The length of a list item's mark and the spaces after it (`- `, `12. `, a table row's
/// `| `).
fn item_mark(item: &str) -> usize {
  let t = item.trim_start_matches(' ');
  let digits = t.bytes().take_while(u8::is_ascii_digit).count();
  let mark = if digits > 0 {
    digits + 1
  } else {
    symbol_bullet(t).unwrap_or(1)
  };
  let rest = &t[mark.min(t.len())..];
  item.len() - rest.trim_start_matches([' ', '\t']).len()
}

fn is_list_item(line: &str) -> bool {
  if let Some(rest) = line.strip_prefix(['-', '*', '+']) {
    return rest.starts_with([' ', '\t']) && !rest.trim().is_empty() && !line.starts_with("---");
  }
  ordinal(line).is_some() || symbol_bullet(line).is_some()
}

/// The bytes of a bullet written as a symbol before a space (`• `, `▶ `, `✅ `, `🔹 `, as
/// plain-text lists and chat models write them), with its variation selector; `None` where
/// the line opens otherwise or holds nothing after it.
fn symbol_bullet(line: &str) -> Option<usize> {
  let first = line.chars().next().filter(|&c| ornament(c))?;
  let mark = first.len_utf8() + line[first.len_utf8()..].strip_prefix('\u{fe0f}').map_or(0, |_| 3);
  let rest = line[mark..].strip_prefix(' ')?;
  (!rest.trim().is_empty()).then_some(mark)
}

/// Whether a list item may interrupt a paragraph (CommonMark's rule): a bullet's, or an
/// ordered one's that starts a list, counting from 1 (or from 0, as a program enumerates:
/// `0. Ed Wood` under the loop that printed it). A wrapped line that opens with `1966) was
/// …` goes on its paragraph's sentence.
pub(super) fn interrupts_paragraph(line: &str) -> bool {
  is_list_item(line) && ordinal(line).is_none_or(|n| matches!(n, "0" | "1"))
}

/// The number an ordered list item opens with (`3. `, `12) `): one to nine digits.
fn ordinal(line: &str) -> Option<&str> {
  let digits = line.bytes().take_while(u8::is_ascii_digit).count();
  ((1..=9).contains(&digits) && (line[digits..].starts_with(". ") || line[digits..].starts_with(") ")))
    .then(|| &line[..digits])
}

/// A markdown table's row: `| a | b |`, its delimiter row `|---|---|` too.
fn is_table_row(line: &str) -> bool {
  line.strip_prefix('|').is_some_and(|rest| rest.contains('|'))
}

/// `start..end` without surrounding whitespace.
fn trim(text: &str, start: usize, end: usize) -> (usize, usize) {
  let s = &text[start..end];
  let lead = s.len() - s.trim_start().len();
  let trail = s.len() - s.trim_end().len();
  if lead == s.len() {
    return (start, start);
  }
  (start + lead, end - trail)
}

#[cfg(test)]
mod tests {
  use super::*;

  fn cut(text: &str, g: Granularity) -> Vec<(&str, Kind, usize, Option<usize>)> {
    let mut out = Vec::new();
    segment(text, 0, 0, g, &mut out, 0);
    out
      .iter()
      .map(|s| (&text[s.start..s.end], s.kind, s.block, s.heading))
      .collect()
  }

  #[test]
  fn an_ordered_item_interrupts_prose_only_where_its_list_starts() {
    // A line of the paragraph, not an item of its own (a fill's line would be unwrapped).
    let prose = cut(
      "Hovsep Pushman died on February 13,\n1966) in New York City.",
      Granularity::Sentence,
    );
    assert!(prose.iter().all(|s| s.1 == Kind::Text && s.2 == 0), "{prose:?}");
    let steps = cut(
      "Steps:\n1. Read the file.\n2. Fix the leak.",
      Granularity::Sentence,
    );
    let items: Vec<&str> = steps.iter().filter(|s| s.1 == Kind::Item).map(|s| s.0).collect();
    assert_eq!(items, ["1. Read the file.", "2. Fix the leak."]);
    let printed = cut(
      "for i, d in enumerate(docs): print(i, d)\n0. Ed Wood\n1. Tim Burton",
      Granularity::Sentence,
    );
    assert_eq!(
      printed.iter().filter(|s| s.1 == Kind::Item).count(),
      2,
      "{printed:?}"
    );
  }

  /// The headings among `cut`'s segments.
  fn heading_texts<'t>(got: &[(&'t str, Kind, usize, Option<usize>)]) -> Vec<&'t str> {
    got.iter().filter(|p| p.1 == Kind::Heading).map(|p| p.0).collect()
  }

  /// How many blocks `cut`'s segments other than headings fall in.
  fn text_blocks(got: &[(&str, Kind, usize, Option<usize>)]) -> usize {
    let mut blocks: Vec<usize> = got.iter().filter(|p| p.1 != Kind::Heading).map(|p| p.2).collect();
    blocks.dedup();
    blocks.len()
  }

  /// A message part's segments: each one's kind, text and heading.
  fn part(text: &str) -> Vec<(Kind, &str, Option<usize>)> {
    let mut out = Vec::new();
    segment_part(text, 0, 0, Granularity::Sentence, &mut out, 0);
    out
      .iter()
      .map(|s| (s.kind, &text[s.start..s.end], s.heading))
      .collect()
  }

  #[test]
  fn a_sentence_filled_over_lines_is_one_segment() {
    // An org-mode entry: its drawer's lines stay lines, its quote's filled lines are read
    // as the sentences they hold.
    let text = ":PROPERTIES:\n:ID:       6f1c2d3e-0a9b-4c5d-8e7f-112233445566\n:END:\n#+begin_quote\n\
                Flores was aided by Argentina, whose president Bartolome Mitre\n\
                provided him with supplies, Argentine volunteers and river\n\
                transport for troops. Brazil sent a fleet.\n#+end_quote";
    let texts: Vec<&str> = cut(text, Granularity::Sentence)
      .into_iter()
      .map(|s| s.0)
      .collect();
    assert_eq!(
      texts,
      [
        ":PROPERTIES:",
        ":ID:       6f1c2d3e-0a9b-4c5d-8e7f-112233445566",
        ":END:",
        "#+begin_quote",
        "Flores was aided by Argentina, whose president Bartolome Mitre\n\
         provided him with supplies, Argentine volunteers and river\n\
         transport for troops.",
        "Brazil sent a fleet.",
        "#+end_quote"
      ]
    );
  }

  #[test]
  fn headings_paragraphs_items_code_and_sentences() {
    let text = "# Plan\n\nFirst we read. Then we write.\nStill the same paragraph.\n\n- A.1 validate input\n- A.2 fix the leak\n  across two lines\n\n```ts\nconst a = 1\n\nconst b = 2\n```\nAfter.";
    let got = cut(text, Granularity::Sentence);
    assert_eq!(
      got,
      [
        ("# Plan", Kind::Heading, 0, None),
        ("First we read.", Kind::Text, 1, Some(0)),
        ("Then we write.", Kind::Text, 1, Some(0)),
        ("Still the same paragraph.", Kind::Text, 1, Some(0)),
        ("- A.1 validate input", Kind::Item, 2, Some(0)),
        ("- A.2 fix the leak\n  across two lines", Kind::Item, 3, Some(0)),
        ("```ts\nconst a = 1\n\nconst b = 2\n```", Kind::Code, 4, Some(0)),
        ("After.", Kind::Text, 5, Some(0)),
      ]
    );
    // An item of one line and several sentences is cut into them, its lead first.
    let notes = "- **Ed Wood**: He was a filmmaker. He was born in 1924.\n- Tim Burton — He directed it.";
    assert_eq!(
      cut(notes, Granularity::Sentence),
      [
        ("- **Ed Wood**: He was a filmmaker.", Kind::Item, 0, None),
        ("He was born in 1924.", Kind::Text, 0, None),
        ("- Tim Burton — He directed it.", Kind::Item, 1, None),
      ]
    );
    assert_eq!(
      cut("9. Ed Wood: He was a filmmaker. He acted.", Granularity::Sentence)[0],
      ("9. Ed Wood: He was a filmmaker.", Kind::Item, 0, None)
    );
    // So is an item over several lines: a record, its line breaks read as spaces.
    let record = "- title: Dacrydium\n  text: Dacrydium is a genus of conifers. Sixteen species are known.";
    assert_eq!(
      cut(record, Granularity::Sentence),
      [
        (
          "- title: Dacrydium\n  text: Dacrydium is a genus of conifers.",
          Kind::Item,
          0,
          None
        ),
        ("Sixteen species are known.", Kind::Text, 0, None),
      ]
    );
    // A table's row is a unit as an item is, cut into sentences as one.
    let table = "| title | text |\n|---|---|\n| Ed Wood | He was a filmmaker. He acted. |\n| Tim Burton | He directed it. |";
    assert_eq!(
      cut(table, Granularity::Sentence),
      [
        ("| title | text |", Kind::Item, 0, None),
        ("|---|---|", Kind::Item, 1, None),
        ("| Ed Wood | He was a filmmaker.", Kind::Item, 2, None),
        ("He acted. |", Kind::Text, 2, None),
        ("| Tim Burton | He directed it. |", Kind::Item, 3, None),
      ]
    );
    // A citation marker closing an item is no sentence of its own.
    assert_eq!(
      cut(
        "- He was born in 1924. [3]\n- He died. He was buried. [4]",
        Granularity::Sentence
      ),
      [
        ("- He was born in 1924. [3]", Kind::Item, 0, None),
        ("- He died.", Kind::Item, 1, None),
        ("He was buried. [4]", Kind::Text, 1, None),
      ]
    );
    let paragraphs = cut(text, Granularity::Paragraph);
    assert_eq!(
      paragraphs[1].0,
      "First we read. Then we write.\nStill the same paragraph."
    );
    assert_eq!(cut(text, Granularity::Message).len(), 1);
  }

  #[test]
  fn a_bold_lead_titles_its_paragraph() {
    let parts = cut(
      "**Ed Wood.** He made films. He acted.\n\n**Bold** alone\n\n**not closed here",
      Granularity::Sentence,
    );
    assert_eq!(parts[0], ("**Ed Wood.**", Kind::Heading, 0, None));
    assert_eq!(parts[1], ("He made films.", Kind::Text, 0, Some(0)));
    assert_eq!(parts[2], ("He acted.", Kind::Text, 0, Some(0)));
    // A line that stands alone as a title heads what follows; an unclosed bold is text.
    assert_eq!(parts[3], ("**Bold** alone", Kind::Heading, 1, None));
    assert_eq!(
      parts.last().unwrap(),
      &("**not closed here", Kind::Text, 2, Some(3))
    );
    // Nothing after it: bold text, no title.
    assert!(cut("**All done.**", Granularity::Sentence)
      .iter()
      .all(|p| p.1 == Kind::Text));
  }

  #[test]
  fn a_title_line_or_an_underlined_line_heads_what_follows() {
    let text = "Ed Wood\n\nHe made films.\n\nTim Burton (director)\n---------------------\nHe was born in Burbank.\n\nThe answer is no\n\nIt was. [3]\n\nMore text.";
    let got = cut(text, Granularity::Sentence);
    assert_eq!(got[0], ("Ed Wood", Kind::Heading, 0, None));
    assert_eq!(got[1], ("He made films.", Kind::Text, 1, Some(0)));
    assert_eq!(
      got[2],
      (
        "Tim Burton (director)\n---------------------",
        Kind::Heading,
        2,
        None
      )
    );
    assert_eq!(got[3], ("He was born in Burbank.", Kind::Text, 3, Some(2)));
    // A short line is a title, a sentence with its marker is not.
    assert_eq!(got[4].1, Kind::Heading);
    assert!(got[5..].iter().all(|p| p.1 == Kind::Text), "{got:?}");
    // In a message's part, a program's short lines head nothing.
    let mut out = Vec::new();
    segment_part(
      "Platform: Linux\n\nRan 4 tests\n\nOK",
      0,
      0,
      Granularity::Sentence,
      &mut out,
      0,
    );
    assert!(out.iter().all(|s| s.kind == Kind::Text && s.heading.is_none()));
    // Nothing after it: no title.
    assert!(cut("Ed Wood", Granularity::Sentence)
      .iter()
      .all(|p| p.1 == Kind::Text));
  }

  /// A title line is read without its address: a search result's `Title - https://…` or
  /// `**[Title](https://…)**` over its text is one however long the address, a sentence
  /// with a link in it is none.
  #[test]
  fn a_title_line_is_read_without_its_address() {
    let long =
      "https://en.wikipedia.org/wiki/Nerva%E2%80%93Antonine_dynasty_and_the_five_good_emperors_of_rome";
    assert!(is_title_line(&format!("Nerva–Antonine dynasty - {long}")));
    assert!(is_title_line(&format!("**[Nerva–Antonine dynasty]({long})**")));
    assert!(!is_title_line(&format!(
      "It ruled from 96 AD. See {long} for more"
    )));
    assert_eq!(without_addresses("Ed Wood | https://x.org/ed"), "Ed Wood");
    assert_eq!(
      without_addresses("**[Ed Wood](https://x.org/ed)**"),
      "**Ed Wood**"
    );
    assert_eq!(without_addresses("[Ed Wood](#ed-wood)"), "[Ed Wood](#ed-wood)");
  }

  /// A title line quoted in a reply (`> Ed Wood` over the quoted paragraph) is one still.
  #[test]
  fn a_quoted_title_line_is_a_title_line() {
    assert!(is_title_line("> Ed Wood"));
    assert!(!is_title_line("> He made films."));
    assert!(!is_title_line(">"));
    assert!(!is_title_line(">> Ed Wood"));
  }

  #[test]
  fn a_titled_tag_heads_what_it_wraps() {
    let text = "<document title=\"Ed Wood\">\nHe made films.\n</document>\n<document index=\"2\">\n<source>Tim Burton</source>\n<document_content>\nHe was born in Burbank.\n</document_content>\n</document>";
    let got = cut(text, Granularity::Sentence);
    let headings = heading_texts(&got);
    assert_eq!(
      headings,
      ["<document title=\"Ed Wood\">", "<source>Tim Burton</source>"]
    );
    assert_eq!(tag_title("<document title=\"Ed Wood\">"), Some("Ed Wood"));
    assert_eq!(
      tag_title("<file path=\"src/a.ts\" lang=\"ts\">"),
      Some("src/a.ts")
    );
    assert_eq!(tag_title("<source>Tim Burton</source>"), Some("Tim Burton"));
    assert_eq!(tag_title("<title><![CDATA[Ed Wood]]></title>"), Some("Ed Wood"));
    assert_eq!(tag_title("<div class=\"x\">"), None);
    assert!(!is_titled_tag("</document>"));
    // Markup nests: a titled tag heads what follows at any indentation.
    let nested = cut(
      "<results>\n    <title>Ed Wood</title>\n    <snippet>He made films.</snippet>\n</results>",
      Granularity::Sentence,
    );
    assert_eq!(nested[1], ("<title>Ed Wood</title>", Kind::Heading, 1, None));
    // A tag that wraps nothing titles nothing.
    assert!(!is_titled_tag(
      "<meta name=\"viewport\" content=\"width=device-width\">"
    ));
    assert!(!is_titled_tag(
      "<link rel=\"index\" title=\"Index\" href=\"genindex.html\" />"
    ));
    let record = cut(
      "Title: Ed Wood\nHe made films.\n\nName: Tim Burton\nHe was born in Burbank.",
      Granularity::Sentence,
    );
    assert_eq!(record[0], ("Title: Ed Wood", Kind::Heading, 0, None));
    assert_eq!(record[1], ("He made films.", Kind::Text, 1, Some(0)));
    assert_eq!(field_title("Path: src/a.ts"), Some("src/a.ts"));
    // Quoted as YAML writes it; LangChain's Wikipedia tool prints `Page:`.
    assert_eq!(
      field_title("- title: \"Ed Wood\"".trim_start_matches("- ")),
      Some("Ed Wood")
    );
    assert_eq!(field_title("Page: Ed Wood"), Some("Ed Wood"));
    // MediaWiki's headings, in a document; not in a message's part (a program's output).
    let wiki = "== Ed Wood ==\nHe made films.\n\n== Tim Burton ==\nHe was born in Burbank.";
    assert_eq!(
      cut(wiki, Granularity::Sentence)[0],
      ("== Ed Wood ==", Kind::Heading, 0, None)
    );
    let mut out = Vec::new();
    segment_part(
      "=== case 1 ===\nValue: 2\n\n=== case 2 ===\nValue: 3",
      0,
      0,
      Granularity::Sentence,
      &mut out,
      0,
    );
    assert!(out.iter().all(|s| s.kind != Kind::Heading));
    assert!(!is_wiki_heading("====") && !is_wiki_heading("== a") && !is_wiki_heading("==  =="));
    // A file's header heads its text, in a tool's output too (`head` of several files).
    let mut out = Vec::new();
    let shown =
      "==> wiki/Ed_Wood.txt <==\nEd Wood was a director.\n\n==> wiki/Tim_Burton.txt <==\nTim Burton is one.";
    segment_part(shown, 0, 0, Granularity::Sentence, &mut out, 0);
    let headings: Vec<&str> = out
      .iter()
      .filter(|s| s.kind == Kind::Heading)
      .map(|s| &shown[s.start..s.end])
      .collect();
    assert_eq!(
      headings,
      ["==> wiki/Ed_Wood.txt <==", "==> wiki/Tim_Burton.txt <=="]
    );
    assert_eq!(out[1].heading, Some(0));
    // TOML's tables of records: the table's header opens each, its title field heads it.
    let toml = "[[pages]]\ntitle = \"Ed Wood\"\ntext = \"Ed Wood was a director.\"\n\n[[pages]]\ntitle = \"Tim Burton\"\ntext = \"Tim Burton is one.\"";
    let headings = heading_texts(&cut(toml, Granularity::Sentence));
    assert_eq!(
      headings,
      [
        "[[pages]]\ntitle = \"Ed Wood\"",
        "[[pages]]\ntitle = \"Tim Burton\""
      ]
    );
    assert_eq!(later_field_title(headings[0]), Some("Ed Wood"));
    assert_eq!(field_title("title = \"Ed Wood\""), Some("Ed Wood"));
    assert_eq!(field_title("title = name"), None);
    assert!(is_table_header("[[pages]]") && is_table_header("[tool.poetry]"));
    assert!(!is_table_header("[1]") && !is_table_header("[The command completed.]"));
    // An INI section named by its header heads its entries; a bracketed remark over a
    // line of settings does not.
    let ini = "[Ed Wood]\nsource = wikipedia\ntext = Ed Wood was a director.\n\n[Tim Burton]\nsource=wikipedia\ntext = Tim Burton is one.\n\n[The command completed.]\nexit = 0\n\n[Current working directory: /workspace]\n[Python interpreter: /usr/bin/python]";
    let headings = heading_texts(&cut(ini, Granularity::Sentence));
    assert_eq!(headings, ["[Ed Wood]", "[Tim Burton]"]);
    // Records of fields one after another, no blank line between (`Source: …` over
    // `Content: …`, as a retriever joins its documents): the title field opens each.
    let joined = "Source: https://x.org/wiki/Ed_Wood\nContent: Ed Wood was a director.\nSource: https://x.org/wiki/Tim_Burton\nContent: Tim Burton is one.";
    assert_eq!(
      part(joined),
      [
        (Kind::Heading, "Source: https://x.org/wiki/Ed_Wood", None),
        (Kind::Text, "Content: Ed Wood was a director.", Some(0)),
        (Kind::Heading, "Source: https://x.org/wiki/Tim_Burton", None),
        (Kind::Text, "Content: Tim Burton is one.", Some(2)),
      ]
    );
    // A search's matches in documents: the document heads its matches; a program's lines
    // are no document's.
    let found = "wiki/Ed_Wood.txt:1:Ed Wood was a director.\nwiki/Ed_Wood.txt:4:He made films.\n\nnotes/Tim_Burton.md:2:Tim Burton is one.\nsrc/a.ts:12:  return 1";
    assert_eq!(
      part(found),
      [
        (Kind::Heading, "wiki/Ed_Wood.txt:1:", None),
        (Kind::Text, "Ed Wood was a director.", Some(0)),
        (Kind::Text, "wiki/Ed_Wood.txt:4:He made films.", Some(0)),
        (Kind::Heading, "notes/Tim_Burton.md:2:", None),
        (Kind::Text, "Tim Burton is one.", Some(3)),
        (Kind::Text, "src/a.ts:12:  return 1", Some(3)),
      ]
    );
    assert_eq!(match_prefix("src/a.ts:12:  return 1"), None);
    assert_eq!(match_prefix("12:30:45 started"), None);
    assert_eq!(match_prefix("https://x.org:8080/a"), None);
    assert_eq!(file_header("=== notes/a.md ==="), Some("notes/a.md"));
    assert_eq!(file_header("--- src/lib ---"), Some("src/lib"));
    // A notebook's markdown, a JSON string a line: its heading heads what follows.
    let notebook = "{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",\n   \"source\": [\n    \"## Ed Wood\\n\",\n    \"\\n\",\n    \"Ed Wood was a director.\"\n   ]\n  }\n ]\n}";
    let cells = part(notebook);
    let heading = cells.iter().position(|s| s.0 == Kind::Heading).unwrap();
    assert_eq!(cells[heading].1, r###""## Ed Wood\n","###);
    let text = cells.iter().find(|s| s.1.contains("director")).unwrap();
    assert_eq!(text.2, Some(heading));
    assert_eq!(quoted_heading(r##""#include <stdio.h>\n","##), None);
    // A code cell's comment runs on into its code: no heading.
    let code = "   \"source\": [\n    \"# load the data\\n\",\n    \"df = pd.read_csv(path)\"\n   ]";
    assert!(part(code).iter().all(|s| s.0 != Kind::Heading));
    assert_eq!(quoted_heading(r###""## say \"hi\"\n""###), None);
    // A diff's file heads its changes.
    assert_eq!(
      file_header("diff --git a/wiki/Ed_Wood.md b/wiki/Ed_Wood.md"),
      Some("wiki/Ed_Wood.md")
    );
    let diff = "diff --git a/wiki/Ed_Wood.md b/wiki/Ed_Wood.md\nnew file mode 100644\n+Ed Wood was a director.\ndiff --git a/src/a.ts b/src/a.ts\n-  return 1\n+  return 2";
    let heads = part(diff);
    assert_eq!(
      heads[0],
      (
        Kind::Heading,
        "diff --git a/wiki/Ed_Wood.md b/wiki/Ed_Wood.md",
        None
      )
    );
    assert_eq!(heads[2], (Kind::Text, "+Ed Wood was a director.", Some(0)));
    assert_eq!(
      heads[3],
      (Kind::Heading, "diff --git a/src/a.ts b/src/a.ts", None)
    );
    assert_eq!(heads[5], (Kind::Item, "+  return 2", Some(3)));
    for no in [
      "-- a.md",
      "--- src/ ---",
      "=== case 1 ===",
      "==> two words.txt <==",
      "--- v1.2.3 text ---",
      "==> . <==",
      "diff --git a/two words b/two words",
    ] {
      assert_eq!(file_header(no), None, "{no}");
    }
    assert_eq!(field_title("Note: it failed"), None);
    // More of the ways markup names a title: a reST field, a name ending in `title`, a
    // field element named so (Solr), a definition's term, a LaTeX section.
    assert_eq!(field_title(":Title: Ed Wood"), Some("Ed Wood"));
    assert_eq!(field_title("doc_title: Ed Wood"), Some("Ed Wood"));
    assert_eq!(field_title("heading: Ed Wood"), Some("Ed Wood"));
    assert_eq!(field_title("pageTitle: Ed Wood"), Some("Ed Wood"));
    assert_eq!(field_title("entitle: x"), None);
    assert_eq!(field_title("subtitle: x"), None);
    assert_eq!(tag_title("<str name=\"title\">Ed Wood</str>"), Some("Ed Wood"));
    // A field of other content, short as it may be, titles nothing.
    assert_eq!(tag_title("<str name=\"id\">7</str>"), None);
    assert_eq!(tag_title("<str name=\"text\">He made films.</str>"), None);
    assert_eq!(tag_title("<document name=\"Ed Wood\">"), Some("Ed Wood"));
    assert_eq!(tag_title("<dt>Ed Wood</dt>"), Some("Ed Wood"));
    assert_eq!(latex_heading_title("\\subsection*{Ed Wood}"), Some("Ed Wood"));
    assert_eq!(latex_heading_title("\\textbf{Ed Wood}"), None);
    let latex = cut("\\section{Ed Wood}\nHe made films.", Granularity::Sentence);
    assert_eq!(latex[0], ("\\section{Ed Wood}", Kind::Heading, 0, None));
  }

  /// A cycle of fields, line after line (a ReAct agent's steps), is records: each return of
  /// its opening field starts a block. A field that returns with no other between is a
  /// list's, no record's.
  #[test]
  fn a_cycle_of_fields_is_records() {
    let react = "Question: Where did Ed Wood grow up?\nThought: I should look up Ed Wood.\nAction: wikipedia\nAction Input: Ed Wood\nObservation: Ed Wood was a director.\nThought 2: I should look up Poughkeepsie.\nAction 2: Search[Poughkeepsie]\nObservation 2: Poughkeepsie is a city.\nThought: I now know the final answer.";
    let got = cut(react, Granularity::Sentence);
    let opening: Vec<&str> = (0..got.len())
      .filter(|&k| k == 0 || got[k - 1].2 != got[k].2)
      .map(|k| got[k].0)
      .collect();
    assert_eq!(
      opening,
      [
        "Question: Where did Ed Wood grow up?",
        "Thought: I should look up Ed Wood.",
        "Thought 2: I should look up Poughkeepsie.",
        "Thought: I now know the final answer."
      ]
    );
    let notes = "Note: keep the cache.\nNote: drop the logs.\nTip: run it twice.\nTip: not three times.";
    assert!(cut(notes, Granularity::Sentence).iter().all(|p| p.2 == 0));
  }

  /// A conversation's stamped lines are messages, each a block, whoever speaks after whom;
  /// unstamped lines under one are part of it.
  #[test]
  fn a_conversation_s_lines_are_messages() {
    let chat = "[10:00] alice: who directed Ed Wood?\n[10:01] alice: the 1994 film\n[10:02] bob: Tim Burton did.\nHe grew up in Burbank.\n[10:03] alice: thanks\n[10:04] <bob> anytime";
    let got = cut(chat, Granularity::Sentence);
    let blocks: Vec<(&str, usize)> = got.iter().map(|p| (p.0, p.2)).collect();
    assert_eq!(
      blocks,
      [
        ("[10:00] alice: who directed Ed Wood?", 0),
        ("[10:01] alice: the 1994 film", 1),
        ("[10:02] bob: Tim Burton did.", 2),
        ("He grew up in Burbank.", 2),
        ("[10:03] alice: thanks", 3),
        ("[10:04] <bob> anytime", 4)
      ]
    );
    // Speakers unstamped are no conversation's: lines of a paragraph.
    assert!(cut(
      "alice: hi\nbob: hello\nalice: bye\nbob: see you",
      Granularity::Sentence
    )
    .iter()
    .all(|p| p.2 == 0));
  }

  /// A block quote's bare `>` line is its blank line: quoted paragraphs are blocks apart.
  #[test]
  fn a_quote_s_bare_marks_separate_its_paragraphs() {
    let quoted = "> He made films.\n>\n> He was born in Burbank.";
    let got = cut(quoted, Granularity::Sentence);
    // The bare mark closes the first (every character is in a segment).
    assert_eq!(
      got.iter().map(|p| (p.0, p.2)).collect::<Vec<_>>(),
      [
        ("> He made films.", 0),
        (">", 0),
        ("> He was born in Burbank.", 1)
      ]
    );
    assert!(is_blank(" > > ") && !is_blank("> a"));
  }

  /// In a message's part, titles head what follows where documents are listed under them,
  /// each over prose; not where a program prints a title-like line among others.
  #[test]
  fn titles_in_a_part_head_what_follows_where_they_recur() {
    let part = |text: &str| {
      let mut out = Vec::new();
      segment_part(text, 0, 0, Granularity::Sentence, &mut out, 0);
      out
        .iter()
        .filter(|s| s.kind == Kind::Heading)
        .map(|s| text[s.start..s.end].to_owned())
        .collect::<Vec<_>>()
    };
    let prose = "was an American filmmaker, actor and writer who made low-budget films in the 1950s and is remembered for them.";
    let listed = format!("Ed Wood\n\nEd Wood {prose}\n\nTim Burton\n\nTim Burton {prose}");
    assert_eq!(part(&listed), ["Ed Wood", "Tim Burton"]);
    let tagged = format!(
      "<document>\n<source>Ed Wood</source>\n<document_content>\nEd Wood {prose}\n</document_content>\n</document>\n<document>\n<source>Tim Burton</source>\n<document_content>\nTim Burton {prose}\n</document_content>\n</document>"
    );
    assert_eq!(
      part(&tagged),
      ["<source>Ed Wood</source>", "<source>Tim Burton</source>"]
    );
    let fields = format!("Title: Ed Wood\nEd Wood {prose}\n\nTitle: Tim Burton\nTim Burton {prose}");
    assert_eq!(part(&fields), ["Title: Ed Wood", "Title: Tim Burton"]);
    // Search results: a title over its address, then the snippet.
    let results = format!(
      "Ed Wood\nhttps://en.wikipedia.org/wiki/Ed_Wood\n\nEd Wood {prose}\n\nTim Burton\nhttps://en.wikipedia.org/wiki/Tim_Burton\n\nTim Burton {prose}"
    );
    assert_eq!(
      part(&results),
      [
        "Ed Wood\nhttps://en.wikipedia.org/wiki/Ed_Wood",
        "Tim Burton\nhttps://en.wikipedia.org/wiki/Tim_Burton"
      ]
    );
    assert!(!is_title_block("Ed Wood\nsee the page at https://x.org/ed"));
    // A titled tag over its address, then the text (`<title>` over `<url>` over `<content>`);
    // front matter, its rules opening paragraphs as blank lines do, its address field part
    // of the title's heading.
    let records = format!(
      "<result index=\"1\">\n<title>Ed Wood</title>\n<url>https://x.org/ed</url>\n<content>Ed Wood {prose}</content>\n</result>\n<result index=\"2\">\n<title>Tim Burton</title>\n<url>https://x.org/tb</url>\n<content>Tim Burton {prose}</content>\n</result>"
    );
    assert_eq!(
      part(&records),
      [
        "<title>Ed Wood</title>\n<url>https://x.org/ed</url>",
        "<title>Tim Burton</title>\n<url>https://x.org/tb</url>"
      ]
    );
    let front = format!(
      "---\ntitle: Ed Wood\nurl: https://x.org/ed\n---\nEd Wood {prose}\n\n---\ntitle: Tim Burton\nurl: https://x.org/tb\n---\nTim Burton {prose}"
    );
    assert_eq!(
      part(&front),
      [
        "title: Ed Wood\nurl: https://x.org/ed",
        "title: Tim Burton\nurl: https://x.org/tb"
      ]
    );
    // A heading's addresses right under it are part of it.
    let headed = cut(
      "## Ed Wood\nhttps://x.org/ed\n\nHe made films.",
      Granularity::Sentence,
    );
    assert_eq!(
      headed[0],
      ("## Ed Wood\nhttps://x.org/ed", Kind::Heading, 0, None)
    );
    assert_eq!(headed[1], ("He made films.", Kind::Text, 1, Some(0)));
    // One title: no listing.
    assert!(part(&format!("Ed Wood\n\nEd Wood {prose}")).is_empty());
    // A program's output: its title-like lines stand over no prose.
    let output = "Test case 1: tuple of strings\n\n=== q from ('q:2', 'u:2') ===\nType: <class 'sympy.core.symbol.Symbol'>\nIs correct type? False\nValue: (q0, q1)\n\nTest case 2: single string\n\n=== f ===\nType: <class 'sympy.core.function.UndefinedFunction'>\nValue: (f0, f1)";
    assert!(part(output).is_empty());
    // An HTML page's head: its titled tags stand over markup.
    let page = "<html>\n<head>\n<title>Test Documentation</title>\n<link rel=\"stylesheet\" href=\"a.css\" />\n<script src=\"a.js\"></script>\n</head>\n<body>\n<h1>Test Documentation<a class=\"headerlink\" href=\"#t\">x</a></h1>\n<p>Hi.</p>";
    assert!(part(page).is_empty(), "{:?}", part(page));
  }

  /// Records a long line each (CSV rows, one-line documents) are paragraphs apart; a
  /// paragraph wrapped over long lines, or closed by a short note, is one.
  #[test]
  fn long_lines_that_end_sentences_are_records_apart() {
    let row = |title: &str| {
      format!("\"{title}\",\"{title} was an American filmmaker, actor and writer who made low-budget films in the 1950s.\"")
    };
    let csv = format!("title,text\n{}\n{}", row("Ed Wood"), row("Tim Burton"));
    // The header, then a block per row.
    let got = cut(&csv, Granularity::Sentence);
    assert_eq!(got[0], ("title,text", Kind::Text, 0, None));
    assert!(got[1].0.starts_with("\"Ed Wood\"") && got[1].2 == 1, "{got:?}");
    assert!(got.last().is_some_and(|p| p.2 == 2), "{got:?}");
    let wrapped = "Your task is to make the minimal changes to the non-test files in the /workspace directory so that the\nrequirements specified in the issue description are met, and to keep every other test passing as it does.";
    assert!(wrapped.split('\n').all(|l| l.chars().count() > MAX_WRAPPED_LINE));
    // Counted in characters: Cyrillic wrapped at 66 columns is wrapped (its lines are over
    // 100 bytes).
    let line = "Это предложение написано кириллицей и перенесено вручную на границе";
    assert!(line.len() > MAX_WRAPPED_LINE && line.chars().count() < MAX_WRAPPED_LINE);
    let cyrillic = format!("{line}.\n{line}.\n{line}.");
    assert!(cut(&cyrillic, Granularity::Sentence).iter().all(|p| p.2 == 0));
    assert!(cut(wrapped, Granularity::Sentence).iter().all(|p| p.2 == 0));
    let noted = format!("{}\nSource: Ed Wood", row("Ed Wood"));
    assert!(cut(&noted, Granularity::Sentence).iter().all(|p| p.2 == 0));
    // Prose written a sentence a line is one paragraph; lines of several sentences are
    // records a line each.
    let sentence = "Ed Wood was an American filmmaker, actor, writer and editor who made many low-budget films in the 1950s.";
    let lines = format!("{sentence}\nHe directed Glen or Glenda in 1953 and Plan 9 from Outer Space in 1957, which became his best known work.");
    assert!(lines.split('\n').all(|l| l.chars().count() > MAX_WRAPPED_LINE));
    assert!(
      cut(&lines, Granularity::Sentence).iter().all(|p| p.2 == 0),
      "{:?}",
      cut(&lines, Granularity::Sentence)
    );
    let paragraphs = format!("{sentence} He was born in 1924.\n{sentence} He died in 1978.");
    assert_eq!(
      cut(&paragraphs, Granularity::Sentence).last().map(|p| p.2),
      Some(1)
    );
    let rows = format!("0   Ed Wood   {sentence}\n1   Tim Burton   {sentence}");
    assert_eq!(cut(&rows, Granularity::Sentence).last().map(|p| p.2), Some(1));
    // A page's markup on one line: each heading heads its text.
    let page = "<h2>Ed Wood</h2><p>Ed Wood was a director.</p><h2>Tim Burton</h2><p>Tim Burton is one.</p>";
    let got = cut(page, Granularity::Sentence);
    assert_eq!(
      got,
      [
        ("<h2>Ed Wood</h2>", Kind::Heading, 0, None),
        ("<p>Ed Wood was a director.</p>", Kind::Text, 1, Some(0)),
        ("<h2>Tim Burton</h2>", Kind::Heading, 2, None),
        ("<p>Tim Burton is one.</p>", Kind::Text, 3, Some(2)),
      ]
    );
    // An HTML article a line each: its heading heads its text, as on lines of their own,
    // and its closing tags come after its last sentence.
    let article = |title: &str| {
      format!("<article><h3>{title}</h3><p>{title} was an American filmmaker, actor and writer who made films.</p></article>")
    };
    let page = format!("{}\n{}", article("Ed Wood"), article("Tim Burton"));
    let got = cut(&page, Granularity::Sentence);
    let tim = got
      .iter()
      .position(|p| p.0 == "<h3>Tim Burton</h3>" && p.1 == Kind::Heading);
    assert!(
      tim.is_some_and(|h| got
        .last()
        .is_some_and(|p| p.0.starts_with("<p>Tim") && p.3 == Some(h))),
      "{got:?}"
    );
    // A record in guillemets closes its sentence inside them (`[1] «Ed Wood | ….»`).
    let quoted = |title: &str| {
      format!("[1] «{title} | {title} was an American filmmaker, actor and writer who made low-budget films in the 1950s.»")
    };
    let records = format!("{}\n{}", quoted("Ed Wood"), quoted("Tim Burton"));
    let got = cut(&records, Granularity::Sentence);
    assert!(got.last().is_some_and(|p| p.2 == 1), "{got:?}");
  }

  /// Items that title the prose right under them (org-mode's `* Ed Wood` over the text)
  /// head it where they recur; a list of steps, or an item over a list, heads nothing.
  #[test]
  fn items_titling_the_prose_under_them_head_it() {
    let prose =
      "was an American filmmaker who made low-budget films in the 1950s and is remembered for them by many.";
    let notes = format!("#+TITLE: Notes\n\n* Ed Wood\nEd Wood {prose}\n\n* Tim Burton\nTim Burton {prose}");
    let got = cut(&notes, Granularity::Sentence);
    let headings = heading_texts(&got);
    assert_eq!(headings, ["* Ed Wood", "* Tim Burton"], "{got:?}");
    let heads = |needle: &str| {
      got
        .iter()
        .find(|p| p.0.starts_with(needle))
        .unwrap()
        .3
        .map(|h| got[h].0)
    };
    assert_eq!(heads("Tim Burton was"), Some("* Tim Burton"));
    // An org-mode entry: its tags end its heading, a drawer and a quote's markup stand
    // between it and its prose.
    let entry = |t: &str| {
      format!("* {t} :wiki:\n:PROPERTIES:\n:ID:       7\n:ROAM_REFS: https://x.org/{t}\n:END:\n#+begin_quote\n{t} {prose}\n#+end_quote\n")
    };
    let captured = format!(
      "#+title: Reading list\n\n{}\n{}",
      entry("Ed Wood"),
      entry("Tim Burton")
    );
    let got = cut(&captured, Granularity::Sentence);
    let headings = heading_texts(&got);
    assert_eq!(headings, ["* Ed Wood :wiki:", "* Tim Burton :wiki:"], "{got:?}");
    assert!(is_title_line("Ed Wood :film:wiki:") && !is_title_line(":wiki:"));
    // A search's numbered links over their text, indented as the item's own lines.
    let link = |t: &str| format!("[{t}](https://en.wikipedia.org/wiki/{})", t.replace(' ', "_"));
    let results = format!(
      "1. {}\n   Ed Wood {prose} He died.\n\n10. {}\n    Tim Burton {prose}",
      link("Ed Wood"),
      link("Tim Burton")
    );
    let mut part = Vec::new();
    segment_part(&results, 0, 0, Granularity::Sentence, &mut part, 0);
    let got: Vec<_> = part
      .iter()
      .map(|p| (&results[p.start..p.end], p.heading))
      .collect();
    assert_eq!(
      got
        .iter()
        .filter(|p| p.0.starts_with("He died"))
        .map(|p| p.1)
        .collect::<Vec<_>>(),
      [Some(0)],
      "{got:?}"
    );
    assert!(
      part[0].kind == Kind::Heading && part[0].end == results.find('\n').unwrap(),
      "{got:?}"
    );
    // In a message's part, one such item is no listing: it stays an item.
    let one = format!("* Ed Wood\nEd Wood {prose}");
    let mut part = Vec::new();
    segment_part(&one, 0, 0, Granularity::Sentence, &mut part, 0);
    assert!(part.iter().all(|p| p.kind != Kind::Heading), "{part:?}");
    // Nor in a document: a step explained under it stays a step.
    let step = format!("1. Configure the server\nOpen the file and set the port {prose}\n2. Restart it");
    assert!(cut(&step, Granularity::Sentence)
      .iter()
      .all(|p| p.1 != Kind::Heading));
    let steps = "- Read the file\n- Fix the bug\n- Run the tests";
    assert!(cut(steps, Granularity::Sentence)
      .iter()
      .all(|p| p.1 == Kind::Item));
  }

  /// Box-drawn rules set records apart, and underline a title as `===` does.
  #[test]
  fn box_drawn_rules_rule_off_records() {
    let rule = "═".repeat(20);
    let text = format!("{rule}\nEd Wood\n{rule}\nEd Wood was a filmmaker. He died.\n{rule}\nTim Burton\n{rule}\nTim Burton directed it.");
    let got = cut(&text, Granularity::Sentence);
    assert_eq!(
      heading_texts(&got),
      [format!("Ed Wood\n{rule}"), format!("Tim Burton\n{rule}")],
      "{got:?}"
    );
    // In a tool result too, where titles head only where they recur: a title between two
    // rules is a paragraph of its own, over the prose of the next.
    let prose = "was an American filmmaker who made low-budget films in the 1950s and is remembered for them. He died in 1978.";
    let text =
      format!("{rule}\nEd Wood\n{rule}\nEd Wood {prose}\n{rule}\nTim Burton\n{rule}\nTim Burton {prose}");
    let headings: Vec<String> = part(&text)
      .iter()
      .filter(|s| s.0 == Kind::Heading)
      .map(|s| s.1.to_string())
      .collect();
    assert_eq!(
      headings,
      [format!("Ed Wood\n{rule}"), format!("Tim Burton\n{rule}")]
    );
    assert!(is_box_rule("────") && !is_box_rule("──") && !is_box_rule("─═─"));
  }

  /// A `<details>` element is titled by its `<summary>`, as a section by its heading.
  #[test]
  fn html_blocks_are_paragraphs_however_their_lines_are_laid_out() {
    let prose =
      "was an American filmmaker who made low-budget films in the 1950s and is remembered for them.";
    // The heading of the segment that opens with `needle`, and the block it is in.
    let heads = |text: &str, needle: &str| {
      let got = part(text);
      let (_, _, heading) = got.iter().find(|(_, t, _)| t.starts_with(needle)).unwrap();
      heading.map(|h| got[h].1.to_owned())
    };
    // Search results as markup on one line: a title's block heads the text's block.
    let div = |t: &str| {
      format!("<div class=\"r\"><div class=\"t\">{t}</div><div class=\"s\">{t} {prose} He died.</div></div>")
    };
    let text = format!("{}{}", div("Ed Wood"), div("Tim Burton"));
    assert_eq!(
      heads(&text, "He died").as_deref(),
      Some("<div class=\"r\"><div class=\"t\">Ed Wood</div>")
    );
    // A bold lead in markup, over a line break or in a list's item.
    let br = |t: &str| format!("<b>{t}</b><br>{t} {prose} He died.<br><br>");
    let text = format!("{}\n{}", br("Ed Wood"), br("Tim Burton"));
    assert_eq!(heads(&text, "He died").as_deref(), Some("<b>Ed Wood</b><br>"));
    let li = |t: &str| format!("  <li><strong>{t}</strong>: {t} {prose} He died.</li>");
    let text = format!("<ul>\n{}\n{}\n</ul>", li("Ed Wood"), li("Tim Burton"));
    assert_eq!(
      heads(&text, "He died").as_deref(),
      Some("<ul>\n  <li><strong>Ed Wood</strong>:")
    );
    // Markup between blocks stays with the block before it: no block is markup alone.
    let mut got = Vec::new();
    segment_part(&text, 0, 0, Granularity::Sentence, &mut got, 0);
    let last = got.last().unwrap();
    assert_eq!(&text[last.start..last.end], "</ul>");
    assert_eq!(last.block, got[got.len() - 2].block);
    // Inline markup in prose cuts nothing.
    let text = "Ed Wood <b>was</b> a director.<br>He made <i>films</i>.\nHe died.";
    assert_eq!(cut(text, Granularity::Paragraph).len(), 1);
  }

  #[test]
  fn an_initial_s_or_an_abbreviation_s_full_stop_ends_no_sentence_in_a_title() {
    assert!(is_title_line("C. S. Lewis") && is_title_line("George H. W. Bush"));
    assert!(is_title_line("Mrs. Bixby and the Colonel's Coat") && is_title_line("Jack St. Clair Kilby"));
    assert!(!is_title_line("He was born. Then he died") && !is_title_line("Born in 1941. He died"));
  }

  #[test]
  fn an_underline_of_equals_signs_heads_a_part_as_a_hash_does() {
    // A fetched page's own title, written in markdown.
    let got = part("Ed Wood\n=======\n\nEd Wood was an American filmmaker. He died in 1978.");
    assert_eq!((got[0].0, got[1].2), (Kind::Heading, Some(0)), "{got:?}");
    // A dashed underline is as often a rule, or front matter's close: in a part it heads
    // only where titles recur.
    let got = part("Ed Wood\n-------\n\nEd Wood was an American filmmaker. He died in 1978.");
    assert_ne!(got[0].0, Kind::Heading, "{got:?}");
  }

  #[test]
  fn a_summary_titles_its_details() {
    let prose =
      "was an American filmmaker who made low-budget films in the 1950s and is remembered for them by many.";
    let details = |t: &str| format!("<details>\n<summary>{t}</summary>\n\n{t} {prose} He died.\n</details>");
    let text = format!("{}\n{}", details("Ed Wood"), details("Tim Burton"));
    let mut part = Vec::new();
    segment_part(&text, 0, 0, Granularity::Sentence, &mut part, 0);
    let heads = |needle: &str| {
      let p = part
        .iter()
        .filter(|p| text[p.start..p.end].starts_with(needle))
        .nth(1)
        .unwrap();
      p.heading.map(|h| text[part[h].start..part[h].end].trim())
    };
    assert_eq!(
      heads("He died"),
      Some("<summary>Tim Burton</summary>"),
      "{part:?}"
    );
    // A summary of sentences is prose, no title (a feed entry's, a report's).
    assert!(tag_title("<summary>Ten sources were read.</summary>").is_none());
  }

  /// A symbol before a space opens an item as a bullet does (`• `, `✅ `, `🔹 `), its
  /// variation selector with it; a symbol within a word or alone opens none.
  #[test]
  fn a_symbol_before_a_space_is_a_bullet() {
    let findings = "## Findings\n✅ Ed Wood made films. He was born in 1924.\n• Tim Burton directed it.\n❤\u{fe0f} Fans loved it.";
    let got = cut(findings, Granularity::Sentence);
    let items: Vec<&str> = got.iter().filter(|p| p.1 == Kind::Item).map(|p| p.0).collect();
    assert_eq!(
      items,
      [
        "✅ Ed Wood made films.",
        "• Tim Burton directed it.",
        "❤\u{fe0f} Fans loved it."
      ],
      "{got:?}"
    );
    for line in [
      "✅",
      "✅Done",
      "“Ed Wood” made films.",
      "Ed Wood ✅ made films.",
      "– 22 November 1963) was",
      "£ 5 million",
    ] {
      assert!(!is_list_item(line), "{line}");
    }
  }

  /// A pictograph before a bold title line is part of the lead that heads its paragraph.
  #[test]
  fn a_pictograph_opens_a_bold_lead() {
    assert_eq!(
      bold_lead("📄 **Ed Wood**\nHe made films."),
      Some("📄 **Ed Wood**".len())
    );
    assert_eq!(
      bold_lead("**Ed Wood**: He made films."),
      Some("**Ed Wood**:".len())
    );
    assert_eq!(bold_lead("He made **films** and more."), None);
    // An italic one closes with its colon or its line; an italic name goes on.
    assert_eq!(bold_lead("*Ed Wood:* He made films."), Some("*Ed Wood:*".len()));
    assert_eq!(bold_lead("_Ed Wood_\nHe made films."), Some("_Ed Wood_".len()));
    assert_eq!(bold_lead("*Ed Wood* is a film."), None);
    assert_eq!(without_ornaments("1\u{fe0f}\u{20e3} Ed Wood ⭐"), "Ed Wood");
    assert_eq!(without_ornaments("📄"), "📄");
  }

  /// A thematic break closes the block over it: a YAML stream's documents, each opened by
  /// `---` right under the last one's text, are read apart, each headed by its title field.
  #[test]
  fn a_thematic_break_closes_its_block() {
    let stream = "---\ntitle: Ed Wood\ntext: |\n  He made films.\n---\ntitle: Tim Burton\ntext: |\n  He was born in Burbank.";
    let got = cut(stream, Granularity::Sentence);
    let headings = heading_texts(&got);
    assert_eq!(headings, ["title: Ed Wood", "title: Tim Burton"], "{got:?}");
    // The break is the close of the block over it.
    let films = got.iter().position(|p| p.0.contains("films")).unwrap();
    assert_eq!(got[films + 1].0, "---");
    assert_eq!(got[films + 1].2, got[films].2);
    assert!(
      is_thematic_break("* * *")
        && is_thematic_break("___")
        && is_thematic_break("#####")
        && !is_thematic_break("=====")
        && !is_thematic_break("--")
        && !is_thematic_break("-*-")
        && !is_thematic_break("## Ed Wood")
    );
  }

  /// Records ruled off by lines of one mark, in a tool result: a line between two rules is
  /// a title and heads its record (one record is enough), as does a rule's label that is a
  /// title where such rules over prose recur. A label that is a count rules off only, and
  /// a program's labelled rules over its output head nothing.
  #[test]
  fn a_title_between_rules_or_in_one_heads_its_record() {
    let prose =
      "Ed Wood was an American filmmaker who made low-budget films in the 1950s and is remembered for them. He died in 1978.";
    let headings = |text: &str| -> Vec<String> {
      part(text)
        .iter()
        .filter(|s| s.0 == Kind::Heading)
        .map(|s| s.1.to_string())
        .collect()
    };
    for mark in ["=", "#", "*", "-"] {
      let rule = mark.repeat(30);
      let text = format!("Results:\n\n{rule}\nEd Wood\n{rule}\n{prose}");
      assert_eq!(headings(&text), [format!("Ed Wood\n{rule}")], "{mark}");
    }
    // Two rules of different marks frame nothing: the line over `*****` stays a line.
    let unframed = format!("{}\nEd Wood\n{}\n{prose}", "=".repeat(30), "*".repeat(30));
    assert!(headings(&unframed).is_empty());
    let labelled = format!("===== Ed Wood =====\n{prose}\n----- Tim Burton -----\n{prose}");
    assert_eq!(
      headings(&labelled),
      ["===== Ed Wood =====", "----- Tim Burton -----"]
    );
    assert_eq!(
      titled_rule("----- Original Message -----"),
      Some("Original Message")
    );
    assert_eq!(titled_rule("*** 1. row ***"), None);
    let pytest = "===== FAILURES =====\n_____ test_email _____\nassert False\n----- Captured stdout call -----\nwrote 3 rows\n----- Captured log call -----\nWARNING users:users.py:12 retry";
    assert!(headings(pytest).is_empty(), "{:?}", part(pytest));
  }

  /// Records whose fields open before their title (`id: 7` over `title: Ed Wood`), one
  /// after another under a labelled rule (mysql's `\G`) and under blank lines: the title
  /// field heads its record, the fields before it in its heading, which it names.
  #[test]
  fn fields_before_a_title_field_are_its_heading_s() {
    let prose =
      "was an American filmmaker who made low-budget films in the 1950s and is remembered for them.";
    let rows = format!(
      "***** 1. row *****\n   id: 7\ntitle: Ed Wood\n body: Ed Wood {prose}\n***** 2. row *****\n   id: 8\ntitle: Tim Burton\n body: Tim Burton {prose}\n2 rows in set\n"
    );
    let got = cut(&rows, Granularity::Sentence);
    let headings = heading_texts(&got);
    assert_eq!(
      headings,
      ["id: 7\ntitle: Ed Wood", "id: 8\ntitle: Tim Burton"],
      "{got:?}"
    );
    assert_eq!(later_field_title(headings[1]), Some("Tim Burton"));
    let blocks =
      format!("id: 7\ntitle: Ed Wood\nEd Wood {prose}\n\nid: 8\ntitle: Tim Burton\nTim Burton {prose}");
    let got = cut(&blocks, Granularity::Sentence);
    assert_eq!(heading_texts(&got).len(), 2, "{got:?}");
    // Not a heading's addresses, nor a bold title, nor a rule of marks alone.
    assert_eq!(later_field_title("## Ed Wood\nSource: https://x.org/ed"), None);
    assert!(is_labelled_rule("----- Original Message -----"));
    assert!(!is_labelled_rule("***Ed Wood***") && !is_labelled_rule("*****"));
  }

  /// A search's matches in one document are its lines: one block under the file, however
  /// long, not a record a line.
  #[test]
  fn a_document_s_matches_are_one_block() {
    let long = "was an American filmmaker, actor and writer who made low-budget films in many genres.";
    let out = format!("wiki/Ed_Wood.txt:1:Ed Wood {long}\nwiki/Ed_Wood.txt:2:He {long}\nwiki/Tim_Burton.txt:1:Tim Burton {long}\nwiki/Tim_Burton.txt:4:He {long}\n");
    let got = cut(&out, Granularity::Sentence);
    assert_eq!(
      heading_texts(&got),
      ["wiki/Ed_Wood.txt:1:", "wiki/Tim_Burton.txt:1:"],
      "{got:?}"
    );
    assert_eq!(text_blocks(&got), 2, "{got:?}");
  }

  /// A form feed starts a page: the page's header line heads its text, not the end of the
  /// page before.
  #[test]
  fn a_form_feed_starts_a_page() {
    let doc = "Ed Wood            Page 1\n\nEd Wood was an American filmmaker.\n\x0cTim Burton         Page 2\n\nTim Burton is an American director.\n";
    let got = cut(doc, Granularity::Sentence);
    assert_eq!(
      heading_texts(&got),
      ["Ed Wood            Page 1", "Tim Burton         Page 2"],
      "{got:?}"
    );
  }

  /// A title in capitals standing alone over a document's text heads it, as a title line
  /// does (`ED WOOD` over `Ed Wood was …`); a line in capitals within a paragraph does not.
  #[test]
  fn a_title_in_capitals_heads_what_follows() {
    let doc = "ED WOOD\n\nEd Wood was an American filmmaker.\n\nTIM BURTON (DIRECTOR)\n\nTim Burton is an American director.\nNOTE THIS\nHe made films.\n";
    let got = cut(doc, Granularity::Sentence);
    assert_eq!(
      heading_texts(&got),
      ["ED WOOD", "TIM BURTON (DIRECTOR)"],
      "{got:?}"
    );
    assert!(!is_title_line("ED WOOD"));
  }

  /// An INI entry's value goes on over the lines indented under it: one block with the
  /// entries before it, however long its lines, not a record a line.
  #[test]
  fn an_ini_entry_s_indented_lines_continue_it() {
    let ini = "[Ed Wood]\nsource = wikipedia\ntext = Ed Wood (born 1924) was an American filmmaker, actor and writer of low-budget films in many genres.\n\tHe made westerns, science fiction and horror films in the 1950s and 1960s, most of them poorly received.\n\tHe died in 1978 in Los Angeles after years of poverty, having written dozens of pulp novels.\n";
    let got = cut(ini, Granularity::Sentence);
    assert_eq!(heading_texts(&got), ["[Ed Wood]"], "{got:?}");
    assert_eq!(text_blocks(&got), 1, "{got:?}");
    // Long lines unindented after an entry are still records apart.
    let flat = ini.replace('\t', "");
    let got = cut(&flat, Granularity::Sentence);
    assert!(text_blocks(&got) > 1, "{got:?}");
  }

  /// TOML records (`[[docs]]` tables): a number or a boolean given with `=` is a field as
  /// a quoted value is, so the fields before the title field are its heading's, from the
  /// table's header on (each record's, not the one before's); `x = y` stays code.
  #[test]
  fn toml_fields_before_a_title_field_are_its_heading_s() {
    let doc = "[[docs]]\nid = 1\nlive = true\ntitle = \"Ed Wood\"\ntext = \"Ed Wood was an American filmmaker.\"\n\n[[docs]]\nid = 2\nlive = false\ntitle = \"Tim Burton\"\ntext = \"Tim Burton is an American director.\"\n";
    let got = cut(doc, Granularity::Sentence);
    assert_eq!(
      heading_texts(&got),
      [
        "[[docs]]\nid = 1\nlive = true\ntitle = \"Ed Wood\"",
        "[[docs]]\nid = 2\nlive = false\ntitle = \"Tim Burton\""
      ],
      "{got:?}"
    );
    assert_eq!(field("id = 7"), Some(("id", "7")));
    assert_eq!(field("x = y"), None);
    assert_eq!(field("total = a + 2"), None);
  }

  /// Files with front matter joined by `cat`: the next file's `---` right under the last
  /// one's paragraph is a break, not a setext underline (a heading of sentences, kept only
  /// as context, had lost nine paragraphs of ten); a title's underline still makes it one.
  /// A field right under a title field (`source:`) is its record's, no heading of its own.
  #[test]
  fn a_paragraph_over_a_break_stays_a_paragraph() {
    let file = |title: &str| {
      format!("---\ntitle: \"{title}\"\nsource: https://x.org/{title}\n---\n\n{title} was an American filmmaker, actor and writer who made low-budget films in the 1950s and 1960s.")
    };
    let cat = format!("{}\n{}", file("Ed Wood"), file("Tim Burton"));
    let got = cut(&cat, Granularity::Sentence);
    let headings = heading_texts(&got);
    assert_eq!(
      headings,
      ["title: \"Ed Wood\"", "title: \"Tim Burton\""],
      "{got:?}"
    );
    assert!(
      got
        .iter()
        .any(|p| p.1 == Kind::Text && p.0.starts_with("Ed Wood was")),
      "{got:?}"
    );
    let setext = cut(
      "St. Louis Cardinals\n---\nThe team plays in Missouri.",
      Granularity::Sentence,
    );
    assert_eq!(setext[0].1, Kind::Heading, "{setext:?}");
    let setext = cut("Introduction: Why Rust\n===\nIt is fast.", Granularity::Sentence);
    assert_eq!(setext[0].1, Kind::Heading, "{setext:?}");
    // Title fields one after another, or each over its address, are records apart.
    for records in [
      "title: Ed Wood\ntitle: Tim Burton\ntitle: Bela Lugosi",
      "title: Ed Wood\nhttps://x.org/Ed\ntitle: Tim Burton\nhttps://x.org/Tim\ntitle: Bela Lugosi",
    ] {
      let got = cut(records, Granularity::Sentence);
      assert_eq!(got.iter().filter(|p| p.1 == Kind::Heading).count(), 3, "{got:?}");
    }
  }

  /// JSON records after a line of text, or in a fence, and markdown in a fence, are read as
  /// they are read alone; a fence of code stays whole.
  #[test]
  fn documents_after_text_or_in_a_fence_are_read_as_documents() {
    let json = r#"[{"title":"Ed Wood","text":"He made films."},{"title":"Tim Burton","text":"He was born in Burbank."}]"#;
    let headings = |text: &str| -> Vec<String> {
      cut(text, Granularity::Sentence)
        .into_iter()
        .filter(|p| p.1 == Kind::Heading)
        .map(|p| p.0.to_owned())
        .collect()
    };
    let alone = headings(json);
    assert_eq!(alone.len(), 2);
    for text in [
      format!("Found 2 results:\n{json}"),
      format!("Here they are:\n\n```json\n{json}\n```"),
      format!("# Notes\n\n{json}"),
      format!("Found:\n[1] see below\n{json}"),
    ] {
      assert_eq!(
        headings(&text).iter().filter(|h| h.contains('{')).count(),
        2,
        "{text}"
      );
    }
    // The fence lines are in no unit: what is kept never leaves a fence open.
    let fenced = format!("Here they are:\n\n```json\n{json}\n```");
    assert!(cut(&fenced, Granularity::Sentence)
      .iter()
      .all(|p| !p.0.contains("```")));
    let markdown = headings(
      "Notes:\n\n```markdown\n## Ed Wood\nHe made films.\n\n## Tim Burton\nHe was born in Burbank.\n```",
    );
    assert_eq!(markdown, ["## Ed Wood", "## Tim Burton"]);
    let code = cut("```python\nprint([{'title': 1}])\n```", Granularity::Sentence);
    assert_eq!(
      code,
      [("```python\nprint([{'title': 1}])\n```", Kind::Code, 0, None)]
    );
  }

  #[test]
  fn an_unclosed_fence_runs_to_the_end() {
    let got = cut("Intro.\n\n```\ncode\n\nmore", Granularity::Sentence);
    assert_eq!(got[1], ("```\ncode\n\nmore", Kind::Code, 1, None));
  }

  #[test]
  fn segments_are_source_text() {
    let text = "  Héllo wörld. Ünïcode — fine?\r\n\r\nYes!  ";
    let mut out = Vec::new();
    segment(text, 0, 0, Granularity::Sentence, &mut out, 0);
    for s in &out {
      assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
      assert_eq!(text[s.start..s.end].trim(), &text[s.start..s.end]);
    }
    assert_eq!(out.len(), 3);
  }
}
