//! A JSON text (or JSON Lines) read as records, as tools return them
//! (`JSON.stringify(results)`), and objects as Python's `print` and Node's `console.log`
//! show them (`[{'title': 'Ed Wood', …}]`, `Document(page_content='…')`, `Document {
//! pageContent: '…' }`): in a list of them, each object with a string member of a
//! title-like name (`title`, `name`, `path`…: `TITLE_ATTRIBUTES`) before any text (ids and
//! addresses aside) opens a section,
//! headed by the text up to that value; the object's other string values are one block,
//! cut into sentences. A title most records bear is their kind, and heads none. A record
//! with no title member whose first text is one line with text after it is headed by that
//! line (a notebook cell's source over its output). A record whose title member follows its
//! text is a section with no heading, named by that member (`late_title`). Records with no title are read so
//! only where the JSON has no lines to read it by (`JSON.stringify` with no indentation):
//! a block each. The keys, punctuation and short values
//! between two pieces go with the later one, so a kept run of pieces is the source's own
//! contiguous text.

use std::borrow::Cow;

use super::{is_title_attribute, is_title_line, Granularity, Kind};
use crate::core::sentences::for_each_sentence;

/// A piece of the JSON text: a byte range, its kind, its block (counted from 0) and the
/// piece that heads its section.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Piece {
  pub start: usize,
  pub end: usize,
  pub kind: Kind,
  pub block: usize,
  pub heading: Option<usize>,
}

/// Objects and arrays nested deeper than this are no records a model is shown; the text
/// is then read as text (and the scanner's recursion stays bounded).
const MAX_DEPTH: usize = 64;

/// The quotes a string is written in: JSON's, and, as objects are printed, Python's and
/// JavaScript's (`'Ed Wood'`, a template literal where a string holds both others).
const QUOTES: [u8; 3] = [b'"', b'\'', b'`'];

/// The constants a value may be, in JSON and as Python and JavaScript print them.
const CONSTANTS: [&str; 8] = [
  "true",
  "false",
  "null",
  "True",
  "False",
  "None",
  "undefined",
  "NaN",
];

/// The pieces of `text` when it is JSON (values one after another, as JSON Lines are)
/// holding a list of titled records (`MIN_RECORDS`); `None` otherwise.
pub(super) fn records(text: &str, granularity: Granularity) -> Option<Vec<Piece>> {
  let pieces = read(text, granularity, None)?;
  // A title most records bear before their text tells none apart: it is their kind (a
  // notebook's outputs, each `"name": "stdout"`), and the records are read again with that
  // member heading nothing. (After the text, a title heads nothing already.)
  let mut bearing: rustc_hash::FxHashMap<&str, usize> = Default::default();
  for p in pieces.iter().filter(|p| p.kind == Kind::Heading) {
    if let Some(title) = json_title(&text[p.start..p.end]) {
      *bearing.entry(title).or_default() += 1;
    }
  }
  let titled: usize = bearing.values().sum();
  let shared = bearing
    .into_iter()
    .find(|&(_, n)| n >= MIN_RECORDS && 2 * n > titled)
    .map(|(title, _)| title);
  match shared {
    Some(kind) => read(text, granularity, Some(kind)),
    None => Some(pieces),
  }
}

/// The pieces of `text` read as records (`records`), a title member whose value is
/// `shared` heading nothing.
fn read<'a>(text: &'a str, granularity: Granularity, shared: Option<&'a str>) -> Option<Vec<Piece>> {
  let opening = text.trim_start();
  let first = opening.as_bytes().get(field_name(opening))?;
  if !matches!(first, b'{' | b'[') {
    return None;
  }
  let mut scan = Scan {
    text,
    at: 0,
    depth: 0,
    cursor: 0,
    blocks: 0,
    heading: None,
    lists: 0,
    listed: 0,
    untitled: 0,
    element: false,
    record_text: false,
    record_headed: false,
    record_late: false,
    sentences: granularity == Granularity::Sentence,
    shared,
    records_open: 0,
    first_line: None,
    pieces: Vec::new(),
  };
  scan.space();
  while scan.at < text.len() {
    scan.at += field_name(&text[scan.at..]);
    // A top-level object is a record, as JSON Lines list them.
    scan.element = true;
    scan.value()?;
    scan.space();
  }
  let last = scan.pieces.last_mut()?;
  last.end = text.len();
  // One titled record is no list of them: it is titled by what holds it (the call that
  // brought it back, the document's heading), and read as the text it is; but for members
  // before its title over prose (an API's envelope: ids, counters, the keys that nest the
  // record, as MediaWiki's answer opens), which are no part of the prose's first sentence:
  // that record is headed as a listed one is.
  // Nor are objects titled past their first string that no list holds (a notebook's
  // `kernelspec` and `language_info`, each with a `name`): they are no list's records.
  // Records with no title are read as records where the text has no lines to be read by
  // (`JSON.stringify` without indentation: fewer lines than records); printed over lines, its
  // lines are what a reader goes by, as a text's.
  let compact = || memchr::memchr_iter(b'\n', text.as_bytes()).count() < scan.untitled;
  let enveloped = || match &scan.pieces[..] {
    [h, t, ..] => {
      h.kind == Kind::Heading
        && opens_with_members(&text[h.start..h.end])
        && opens_own_text(&text[t.start..t.end])
        && scan.pieces.len() > MIN_PROSE_PIECES
    }
    _ => false,
  };
  (scan.listed >= MIN_RECORDS || scan.listed == 1 && enveloped() || scan.untitled >= MIN_RECORDS && compact())
    .then_some(scan.pieces)
}

/// A lone record's text is prose where it is at least this many pieces: sentences, not a
/// one-line value.
const MIN_PROSE_PIECES: usize = 2;

/// Whether the piece after a record's heading opens with the record's own text
/// (`,"url":"https://…","extract":"He was…`): the first value holding a space is a member
/// of the record, no object or list opening before it (`, 'arguments': {'query': 'Who…'`
/// is a call's argument, not its record's text).
fn opens_own_text(piece: &str) -> bool {
  let mut rest = piece;
  loop {
    let member = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
    let Some(key_end) = member.find([':', '=']) else {
      return false;
    };
    let value = member[key_end + 1..].trim_start();
    let Some(&quote) = value.as_bytes().first().filter(|q| QUOTES.contains(q)) else {
      // A number or a constant: on to the next member. An object or a list: no.
      match value.find(',').filter(|_| !value.starts_with(['{', '['])) {
        Some(at) => rest = &value[at..],
        None => return false,
      }
      continue;
    };
    let string = &value[1..];
    match closing_quote(string, quote) {
      Some(end) if !string[..end].contains(char::is_whitespace) => rest = &string[end + 1..],
      _ => return string.contains(char::is_whitespace),
    }
  }
}

/// Whether a record's heading holds members before its title member (`{"pageid":7,"ns":0,
/// "title":"Ed Wood"`): more than the one key (`:` or `=`) of the title's own.
fn opens_with_members(heading: &str) -> bool {
  json_title(heading).is_some_and(|title| {
    let at = title.as_ptr() as usize - heading.as_ptr() as usize;
    heading
      .get(..at)
      .is_some_and(|before| before.matches([':', '=']).count() > 1)
  })
}

/// The bytes of the title line a string value opens with, its escaped line break
/// included, where text follows on the lines after (`*Ed Wood*\nEdward Davis Wood Jr.
/// was…`, `# Ed Wood\n\n…`): a title line as a text's (`is_title_line`), a markdown
/// heading's marks aside.
fn opening_title_line(value: &str) -> Option<usize> {
  let line_end = value.find("\\n")?;
  let line = value[..line_end].trim_end_matches("\\r");
  let line = line
    .trim_start_matches('#')
    .strip_prefix(' ')
    .filter(|_| line.starts_with('#'))
    .unwrap_or(line);
  let after = line_end + 2;
  (is_title_line(line) && value[after..].contains(char::is_whitespace)).then_some(after)
}

/// Whether a string value is one line that may head its record: within a title line's
/// length, words or a call in code, no sentence ending in it or closing it.
fn is_record_line(value: &str) -> bool {
  let line = value.strip_suffix("\\n").unwrap_or(value).trim();
  // A sentence may end inside its closing quote (`He said "it's done."`).
  let closed = line.trim_end_matches(['"', '\'', '`', '\\']);
  line.chars().count() <= super::MAX_TITLE_LINE
    && (line.contains(char::is_whitespace) || call_arguments(line).is_some())
    && !line.contains("\\n")
    && !closed.ends_with(['.', '!', '?', ':', ','])
    && !super::sentence_ends_inside(line)
}

/// The arguments of a line of code that calls with a string (`print(wiki.summary("Ed
/// Wood"))`, `search(query='Ed Wood', k=3)`): what its parentheses hold.
pub fn call_arguments(line: &str) -> Option<&str> {
  let line = line.trim();
  let callee = line
    .bytes()
    .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
    .count();
  let arguments = line[callee..].strip_prefix('(')?.strip_suffix(')')?;
  let named = line.starts_with(|c: char| c.is_ascii_alphabetic());
  (named && arguments.contains(['"', '\''])).then_some(arguments)
}

/// Titled records open sections of their own only where there are this many: a list.
const MIN_RECORDS: usize = 2;

/// Members that name a table's columns before its rows (`{"columns":["title","body"],
/// "rows":[…]}`: SQL tools, pandas' `split` orient).
const COLUMN_KEYS: [&str; 5] = ["columns", "column_names", "fields", "header", "headers"];

/// The strings of a flat JSON array of strings (`["title","body"]`); none for another value.
fn column_names(array: &str) -> Vec<&str> {
  let Some(inner) = array.trim().strip_prefix('[').and_then(|a| a.strip_suffix(']')) else {
    return Vec::new();
  };
  if inner.contains(['{', '[', '\\']) {
    return Vec::new();
  }
  inner
    .split(',')
    .map(|cell| cell.trim().strip_prefix('"').and_then(|c| c.strip_suffix('"')))
    .collect::<Option<Vec<_>>>()
    .unwrap_or_default()
}

/// The value of the title-like member a JSON heading piece ends with (`},{"title":"Ed
/// Wood"`), or the title line a string opens with (`},{"text":"*Ed Wood*\n`), read from
/// its end: the piece may open inside the record before.
pub fn json_title(heading: &str) -> Option<&str> {
  let heading = heading.trim_end();
  // A string's opening title line (`"text": "*Ed Wood*\n`: `opening_title_line`).
  if let Some(line) = heading
    .strip_suffix("\\n")
    .filter(|_| opens_record_piece(heading))
  {
    let line = line.trim_end_matches("\\r");
    // The value opens at the last quote after its key's `:` (a title may hold quotes).
    let open = line
      .rmatch_indices(['"', '\'', '`'])
      .find(|&(at, _)| line[..at].trim_end().ends_with([':', '=']))?
      .0;
    let value = &line[open + 1..];
    let value = value.trim_matches(['*', '_', '#', ' ']);
    return (!value.is_empty()).then_some(value);
  }
  let quote = *heading.as_bytes().last().filter(|q| QUOTES.contains(q))?;
  let body = &heading[..heading.len() - 1];
  // The value opens at the last quote that no backslash escapes.
  let escaped = |at: usize| {
    body.as_bytes()[..at]
      .iter()
      .rev()
      .take_while(|&&b| b == b'\\')
      .count()
      % 2
      == 1
  };
  let open = body
    .rmatch_indices(quote as char)
    .map(|(at, _)| at)
    .find(|&at| !escaped(at))?;
  let value = &body[open + 1..];
  // A table row's title cell (`],["Ed Wood"`, `],[3,"Ed Wood"`): a string in a row, in a
  // list of rows, with no key before it.
  let before = body[..open].trim_end();
  if let Some(row_open) = before.rfind('[') {
    let row = &before[row_open + 1..];
    let in_rows = before[..row_open].trim_end().ends_with([',', '[']);
    let cells = row.is_empty() || row.ends_with(',');
    if in_rows && cells && !row.contains([':', '{', '}', ']']) && !value.trim().is_empty() {
      return Some(value);
    }
  }
  // A heading of prose (`## Step 2: set name = 'prod'`) holds no member.
  if !opens_record_piece(heading) || !heading.contains(['{', '(']) {
    return None;
  }
  let before = body[..open].trim_end();
  match before.strip_suffix([':', '=']).map(member_key) {
    Some(Some(key)) if is_title_attribute(key) => (!value.trim().is_empty()).then_some(value),
    // A record's first line, which heads it (see `Scan::text_value`): a member's value, or a
    // list's element.
    _ if before.ends_with([':', '=', '[', ',']) && is_record_line(value) => Some(value),
    _ => None,
  }
}

/// A JSON string's content with its escapes read (`Bl\u00e9riot` is `Blériot`, as
/// Python's `json.dumps` writes a name; `\"` is `"`); borrowed where it has none. An escape
/// that stands for no character (a lone surrogate) is left as it is written.
pub fn json_unescaped(value: &str) -> Cow<'_, str> {
  if !value.contains('\\') {
    return Cow::Borrowed(value);
  }
  let hex = |at: usize| {
    value
      .get(at..at + 4)
      .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
      .and_then(|h| u32::from_str_radix(h, 16).ok())
  };
  let mut out = String::with_capacity(value.len());
  let mut at = 0;
  while let Some(found) = value[at..].find('\\') {
    let slash = at + found;
    out.push_str(&value[at..slash]);
    at = slash;
    let Some(code) = value[slash + 1..].chars().next() else {
      break;
    };
    let (ch, len) = match code {
      'u' => match hex(slash + 2) {
        // A surrogate pair (`\ud83d\ude00`) is one character.
        Some(high @ 0xd800..=0xdbff) => match value[slash + 6..]
          .strip_prefix("\\u")
          .and(hex(slash + 8))
          .filter(|low| (0xdc00..=0xdfff).contains(low))
        {
          Some(low) => (
            char::from_u32(0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)),
            12,
          ),
          None => (None, 6),
        },
        Some(code) => (char::from_u32(code), 6),
        None => (None, 2),
      },
      // Control characters: a name holds none, text is spaced by them.
      'n' | 'r' | 't' | 'b' | 'f' => (Some(' '), 2),
      c => (Some(c), 1 + c.len_utf8()),
    };
    match ch {
      Some(c) => out.push(c),
      None => out.push_str(&value[slash..slash + len]),
    }
    at = slash + len;
  }
  out.push_str(&value[at..]);
  Cow::Owned(out)
}

/// Text as a JSON string holds it: quotes, backslashes and line breaks escaped, and, where
/// `ascii`, every other character too (Python's `json.dumps`: `Blériot` is `Bl\u00e9riot`), in
/// lower-case hex as a folded text has it.
pub fn json_written(text: &str, ascii: bool) -> String {
  let mut out = String::with_capacity(text.len() + 8);
  for c in text.chars() {
    match c {
      '"' | '\\' => {
        out.push('\\');
        out.push(c);
      }
      '\n' => out.push_str("\\n"),
      '\r' => out.push_str("\\r"),
      '\t' => out.push_str("\\t"),
      c if c.is_control() || ascii && !c.is_ascii() => {
        for unit in c.encode_utf16(&mut [0; 2]) {
          out.push_str(&format!("\\u{unit:04x}"));
        }
      }
      c => out.push(c),
    }
  }
  out
}

/// Whether a piece of text opens as a record's piece does: with the punctuation between
/// records (`},{"title"`, `), Document(metadata={'title'`, the close of a string before),
/// or a list's or an object's first (`[{`, after its field's name: `results=[`).
pub fn opens_record_piece(piece: &str) -> bool {
  let piece = piece.trim_start();
  piece[field_name(piece)..].starts_with(['[', '{', ',', '}', ')', ']', '"'])
}

/// The bytes of the field's name a value opens with where Python's `str` prints a model
/// (pydantic's `results=[…] total=2`): a bare word and `=`; 0 where there is none.
fn field_name(text: &str) -> usize {
  let word = text
    .bytes()
    .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
    .count();
  let named = word > 0
    && text.as_bytes()[0].is_ascii_alphabetic()
    && text[word..].starts_with('=')
    && !text[word..].starts_with("==");
  if named {
    word + 1
  } else {
    0
  }
}

/// The key that `before` (a member's text up to its `:` or `=`) ends with: quoted, or a
/// bare word as printed objects and keyword arguments write it.
fn member_key(before: &str) -> Option<&str> {
  let before = before.trim_end();
  match *before.as_bytes().last()? {
    quote if QUOTES.contains(&quote) => {
      let inner = &before[..before.len() - 1];
      Some(&inner[inner.rfind(quote as char)? + 1..])
    }
    _ => {
      // The bare word's characters are ASCII: the byte after the last other one starts it.
      let start = before
        .bytes()
        .rposition(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
        .map_or(0, |at| at + 1);
      (start < before.len()).then(|| &before[start..])
    }
  }
}

/// The value of the title member a record's piece opens with after the record's text
/// (`,"name":"Ed Wood"`, `,"metadata":{"id":3,"title":"Ed Wood"`, as printed `, metadata:
/// { title: 'Ed Wood'`: see `Scan::object`), read member by member; none once a member
/// holds other text.
pub fn late_title(piece: &str) -> Option<&str> {
  let mut rest = piece.trim_start().strip_prefix(',')?;
  loop {
    let member = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '{' || c == ',');
    let (key, after) = match member.as_bytes().first()? {
      &quote if QUOTES.contains(&quote) => {
        let close = closing_quote(&member[1..], quote)?;
        (&member[1..=close], &member[close + 2..])
      }
      _ => {
        let end = member
          .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
          .unwrap_or(member.len());
        member.split_at(end)
      }
    };
    let value = after.trim_start().strip_prefix([':', '='])?.trim_start();
    if key.is_empty() {
      return None;
    }
    // An object, printed with its class's name or not (`Meta(title='Ed Wood')`): on
    // into its members.
    let class = value
      .bytes()
      .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
      .count();
    if class > 0 && value[class..].trim_start().starts_with(['(', '{']) || value.starts_with('{') {
      rest = &value[value.find(['(', '{'])? + 1..];
      continue;
    }
    let Some(&quote) = value.as_bytes().first().filter(|q| QUOTES.contains(q)) else {
      // A number, a constant, a list of them (`"vector":[0.1,0.2]`): on to the next member.
      let end = if value.starts_with('[') {
        value.find(']')?
      } else {
        0
      };
      rest = &value[end + value[end..].find(',')?..];
      continue;
    };
    let string = &value[1..];
    let end = closing_quote(string, quote)?;
    if is_title_attribute(key) && !string[..end].trim().is_empty() {
      return Some(&string[..end]);
    }
    if string[..end].contains(char::is_whitespace) {
      return None;
    }
    rest = &string[end + 1..];
  }
}

/// Where a string's content ends: its first `quote` not escaped.
fn closing_quote(string: &str, quote: u8) -> Option<usize> {
  let bytes = string.as_bytes();
  let mut i = 0;
  while i < bytes.len() {
    match bytes[i] {
      b'\\' => i += 2,
      b if b == quote => return Some(i),
      _ => i += 1,
    }
  }
  None
}

struct Scan<'a> {
  text: &'a str,
  at: usize,
  depth: usize,
  /// Where the next piece starts: the end of the last one.
  cursor: usize,
  blocks: usize,
  heading: Option<usize>,
  /// How many arrays are open around the value being read.
  lists: usize,
  /// The titled records found (see `object`).
  listed: usize,
  /// The records found with text and no title.
  untitled: usize,
  /// Whether the value being read is an element of an array (an object there is a record).
  element: bool,
  /// Whether the object being read has had a text member (a title member after it names
  /// the record but heads nothing: see `object`).
  record_text: bool,
  /// Whether the record being read has a heading (a title member before its text).
  record_headed: bool,
  /// Whether the record being read has a title member after its text.
  record_late: bool,
  sentences: bool,
  /// A title most records bore in a first reading, which heads nothing (see `records`).
  shared: Option<&'a str>,
  /// How many records are open around the value being read.
  records_open: usize,
  /// A record's first text, one line, read as text until text follows it in the record
  /// and it heads the record (`text_value`): its piece, whether its record is one of a
  /// list, and the record's (`records_open`).
  first_line: Option<(usize, bool, usize)>,
  pieces: Vec<Piece>,
}

impl Scan<'_> {
  fn byte(&self) -> Option<u8> {
    self.text.as_bytes().get(self.at).copied()
  }

  fn space(&mut self) {
    while self.byte().is_some_and(|b| b.is_ascii_whitespace()) {
      self.at += 1;
    }
  }

  fn value(&mut self) -> Option<()> {
    self.space();
    let element = std::mem::take(&mut self.element);
    match self.byte()? {
      b'{' => self.object(element, b'}'),
      b'[' if self.placeholder() => Some(()),
      b'[' => self.array(b']'),
      // A tuple, as Python prints one (`[(Document(…), 0.82), …]`).
      b'(' => self.array(b')'),
      b if QUOTES.contains(&b) => {
        let (start, end) = self.string()?;
        self.text_value(start, end);
        Some(())
      }
      _ => self.scalar_or_named(element),
    }
  }

  /// A string at `at`, in any of `QUOTES`: the range of its content, `at` moved past its
  /// closing quote.
  fn string(&mut self) -> Option<(usize, usize)> {
    let bytes = self.text.as_bytes();
    let quote = bytes[self.at];
    let start = self.at + 1;
    let mut i = start;
    loop {
      match *bytes.get(i)? {
        b'\\' => i += 2,
        b if b == quote => break,
        _ => i += 1,
      }
    }
    self.at = i + 1;
    Some((start, i))
  }

  /// A value Node's `console.log` prints in its place (`[Object]` past its depth, `[Array]`,
  /// `[Function: f]`, `[Getter]`, `[Circular *1]`): `at` moved past it.
  fn placeholder(&mut self) -> bool {
    let rest = &self.text[self.at + 1..];
    let word = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    let Some(close) = rest.find(']') else {
      return false;
    };
    let inner = &rest[..close];
    let placeholder = word > 0
      && rest[..word].starts_with(char::is_uppercase)
      && !inner.contains(['[', '{', '"', '\'', ',', '\n']);
    if placeholder {
      self.at += close + 2;
    }
    placeholder
  }

  /// A number, a constant (`true`, `null`; as printed, `None`, `True`, `undefined`), or an
  /// object printed with its class's name (`Document {…}` as Node's `console.log` shows it,
  /// `Document(page_content='…')` as Python's `print`).
  fn scalar_or_named(&mut self, element: bool) -> Option<()> {
    let start = self.at;
    while self
      .byte()
      .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.' | b'_'))
    {
      self.at += 1;
    }
    let token = &self.text[start..self.at];
    let number = token.starts_with(|c: char| c.is_ascii_digit() || c == '-');
    if number || CONSTANTS.contains(&token) {
      return Some(());
    }
    let class = token.starts_with(|c: char| c.is_ascii_alphabetic());
    let at = self.at;
    self.space();
    match self.byte() {
      Some(b'(') if class && at == self.at => self.object(element, b')'),
      Some(b'{') if class => self.object(element, b'}'),
      _ => None,
    }
  }

  fn nested(&mut self, close: u8, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
    self.depth += 1;
    if self.depth > MAX_DEPTH {
      return None;
    }
    self.at += 1;
    self.space();
    if self.byte()? == close {
      self.at += 1;
    } else {
      loop {
        item(self)?;
        self.space();
        match self.byte()? {
          b',' => self.at += 1,
          b if b == close => {
            self.at += 1;
            break;
          }
          _ => return None,
        }
      }
    }
    self.depth -= 1;
    Some(())
  }

  /// A list that `close` ends.
  fn array(&mut self, close: u8) -> Option<()> {
    self.lists += 1;
    let read = self.nested(close, |scan| {
      scan.element = true;
      scan.value()
    });
    self.lists -= 1;
    read
  }

  /// An object that `close` ends; `record` when it is an element of an array (or a
  /// top-level value). Its keys are quoted or bare (`title: 'Ed Wood'` as printed), and
  /// given with `:` or, in a call's keyword arguments, `=`.
  fn object(&mut self, record: bool, close: u8) -> Option<()> {
    // Text before this object in the one that holds it (a document's `page_content` before
    // its `metadata`); a record in a list starts anew.
    let outer_text = std::mem::take(&mut self.record_text);
    let after_text = outer_text && !record;
    // A title-like member heads the record while no text has come before it: ids and
    // addresses may (`{"id":"https://…#WebPages.0","name":"Ed Wood",…}`, as Bing lists).
    // After its text, the first one names the record and heads nothing (`{"content":"…",
    // "name":"Ed Wood"}`, as vector stores return matches, or a document's `page_content`
    // before its `metadata`): it is kept in the record's block, a piece of its own, for the
    // record to be named by (`late_title`), and the record is a section with no heading.
    let mut may_title = !after_text;
    // The record around: a record starts anew, an object it holds reads on in it.
    let outer = (self.record_headed, self.record_late);
    if record {
      (self.record_headed, self.record_late) = (false, false);
      self.records_open += 1;
    }
    let mut first_string = true;
    // A table's title column, named by a `columns` member before its rows.
    let mut title_column = None;
    let (pieces, heading_before) = (self.pieces.len(), self.heading);
    self.nested(close, |scan| {
      scan.space();
      let (key_start, key_end) = if QUOTES.contains(&scan.byte()?) {
        scan.string()?
      } else {
        let start = scan.at;
        while scan
          .byte()
          .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
          scan.at += 1;
        }
        (start, scan.at)
      };
      let key = &scan.text[key_start..key_end];
      scan.space();
      if key.is_empty() || !matches!(scan.byte()?, b':' | b'=') {
        return None;
      }
      scan.at += 1;
      scan.space();
      if !QUOTES.contains(&scan.byte()?) {
        if let (Some(k), Some(b'[')) = (title_column, scan.byte()) {
          return scan.rows(k);
        }
        let from = scan.at;
        scan.value()?;
        if COLUMN_KEYS.contains(&key) {
          title_column = column_names(&scan.text[from..scan.at])
            .iter()
            .position(|name| is_title_attribute(name));
        }
        return Some(());
      }
      let (start, end) = scan.string()?;
      // A record: one of a list, or of JSON Lines (a top-level value), or titled by its
      // first string (a map of records keyed by id, as MediaWiki's `pages`).
      let listed = scan.lists > 0 || scan.depth == 1 || first_string;
      // A record with no title member whose first text opens with a title line (a chat
      // message's `*Ed Wood*\nEdward Davis Wood Jr. was…`) is headed by that line.
      let title_line = (record && may_title && !scan.record_headed)
        .then(|| opening_title_line(&scan.text[start..end]))
        .flatten();
      let title_member = is_title_attribute(key);
      if may_title && title_member && scan.shared != Some(&scan.text[start..end]) {
        scan.push(end + 1, Kind::Heading);
        scan.record_headed = true;
        may_title = false;
        scan.listed += usize::from(listed);
      } else if let Some(line) = title_line {
        scan.push(start + line, Kind::Heading);
        scan.record_headed = true;
        may_title = false;
        scan.listed += usize::from(listed);
        scan.text_value(start + line, end);
      } else if (after_text || scan.record_text)
        && !scan.record_headed
        && !scan.record_late
        && title_member
        && !scan.text[start..end].trim().is_empty()
      {
        scan.record_late = true;
        // A first line the title follows is the record's text.
        scan.first_line = None;
        scan.push(end + 1, Kind::Text);
      } else {
        may_title &= !scan.text[start..end].contains(char::is_whitespace);
        scan.text_value(start, end);
      }
      first_string = false;
      Some(())
    })?;
    // A first line that no text followed is the record's text.
    if record
      && self
        .first_line
        .is_some_and(|(_, _, owner)| owner == self.records_open)
    {
      self.first_line = None;
    }
    // The record's string values are one block, as a paragraph's lines are, those of the
    // objects it holds too (a document's `metadata` and its `page_content`); a heading
    // opens a block of its own wherever it stands (`push`).
    let own = &mut self.pieces[pieces..];
    if record && own.last().is_some_and(|p| p.kind != Kind::Heading) {
      self.blocks += 1;
      if !self.record_headed && !self.record_late && self.lists > 0 {
        self.untitled += 1;
      }
    }
    if record {
      // A record that holds sections (a notebook, its cells) is named by none of its late
      // titles (its `kernelspec`'s name): its sections keep their headings.
      let sections = own.iter().any(|p| p.kind == Kind::Heading);
      if self.record_late && !self.record_headed && !sections {
        self.listed += 1;
        for piece in own {
          piece.heading = None;
        }
        self.heading = None;
      }
      (self.record_headed, self.record_late) = outer;
      self.records_open -= 1;
      // What follows a record is no part of it: a record after it, or its list's holder's
      // text (a notebook's metadata after its cells).
      if self.heading.is_some_and(|h| h >= pieces) {
        self.heading = heading_before;
      }
    }
    self.record_text = outer_text;
    Some(())
  }

  /// A table's rows (`[["Ed Wood","…"],…]`, as SQL tools return a query's result), each
  /// a record headed by its string in column `k`; its other strings one block.
  fn rows(&mut self, k: usize) -> Option<()> {
    self.lists += 1;
    let read = self.nested(b']', |scan| {
      scan.space();
      if scan.byte()? != b'[' {
        return scan.value();
      }
      let pieces = scan.pieces.len();
      let mut column = 0;
      scan.lists += 1;
      let row = scan.nested(b']', |scan| {
        scan.space();
        let title = column == k && QUOTES.contains(&scan.byte()?);
        column += 1;
        if !title {
          return scan.value();
        }
        let (_, end) = scan.string()?;
        scan.push(end + 1, Kind::Heading);
        scan.listed += 1;
        Some(())
      });
      scan.lists -= 1;
      if scan.pieces.len() > pieces && scan.pieces.last().is_some_and(|p| p.kind != Kind::Heading) {
        scan.blocks += 1;
      }
      row
    });
    self.lists -= 1;
    read
  }

  /// A string value's content `start..end`, in sentences when cut that fine. A value
  /// without a space (a URL, an id, a date) is no sentence: it goes with the next piece,
  /// as keys and punctuation do.
  fn text_value(&mut self, start: usize, end: usize) {
    let value = &self.text[start..end];
    // A record with no title member opens with a line that heads it where text follows
    // (a notebook cell's source over its output), as a paragraph's first line stands in
    // for a title.
    let opens_record = self.records_open > 0
      && !self.record_headed
      && !self.record_late
      && !self.record_text
      && self.first_line.is_none();
    if opens_record && is_record_line(value) {
      let listed = self.lists > 0 || self.depth == 1;
      self.first_line = Some((self.pieces.len(), listed, self.records_open));
      self.push(end + 1, Kind::Text);
      self.record_text = true;
      return;
    }
    if !value.contains(char::is_whitespace) {
      return;
    }
    if let Some((line, listed, _)) = self.first_line.take() {
      self.heads(line);
      self.listed += usize::from(listed);
    }
    if self.sentences {
      let mut ends = Vec::new();
      for_each_sentence(&self.text[start..end], |_, to| ends.push(start + to));
      if let Some(last) = ends.last_mut() {
        *last = end + 1;
      }
      for e in ends {
        self.push(e, Kind::Text);
      }
    } else {
      self.push(end + 1, Kind::Text);
    }
    self.record_text = true;
  }

  /// Makes the text piece `line` (a record's first line, the last piece) a heading, in a
  /// block of its own.
  fn heads(&mut self, line: usize) {
    let shares_block = line > 0 && self.pieces[line - 1].block == self.pieces[line].block;
    let piece = &mut self.pieces[line];
    piece.kind = Kind::Heading;
    piece.heading = None;
    piece.block += usize::from(shares_block);
    self.blocks = piece.block + 1;
    self.heading = Some(line);
  }

  fn push(&mut self, end: usize, kind: Kind) {
    // A heading's record has its title: a first line before it stays text.
    if kind == Kind::Heading {
      self.first_line = None;
    }
    let after_text = self
      .pieces
      .last()
      .is_some_and(|p| p.kind != Kind::Heading && p.block == self.blocks);
    if kind == Kind::Heading && after_text {
      self.blocks += 1;
    }
    let block = if kind == Kind::Heading {
      self.heading = Some(self.pieces.len());
      self.blocks += 1;
      self.blocks - 1
    } else {
      self.blocks
    };
    self.pieces.push(Piece {
      start: self.cursor,
      end,
      kind,
      block,
      heading: if kind == Kind::Heading { None } else { self.heading },
    });
    self.cursor = end;
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  fn cut(text: &str) -> Vec<(&str, Kind, usize, Option<usize>)> {
    records(text, Granularity::Sentence)
      .unwrap_or_default()
      .iter()
      .map(|p| (text[p.start..p.end].trim(), p.kind, p.block, p.heading))
      .collect()
  }

  /// The titles of the headings `cut` finds.
  fn heading_titles(text: &str) -> Vec<&str> {
    records(text, Granularity::Sentence)
      .unwrap_or_default()
      .iter()
      .filter(|p| p.kind == Kind::Heading)
      .filter_map(|p| json_title(&text[p.start..p.end]))
      .collect()
  }

  #[test]
  fn records_are_sections_headed_by_their_title() {
    let text = r#"[{"title":"Ed Wood","snippet":"He was a filmmaker. He acted.","score":0.9},{"title":"Tim Burton","snippet":"He directed it."}]"#;
    assert_eq!(
      cut(text),
      [
        (r#"[{"title":"Ed Wood""#, Kind::Heading, 0, None),
        (r#","snippet":"He was a filmmaker."#, Kind::Text, 1, Some(0)),
        (r#"He acted.""#, Kind::Text, 1, Some(0)),
        (r#","score":0.9},{"title":"Tim Burton""#, Kind::Heading, 2, None),
        (r#","snippet":"He directed it."}]"#, Kind::Text, 3, Some(3)),
      ]
    );
    assert_eq!(json_title(r#"},{"doc_title":"Tim Burton""#), Some("Tim Burton"));
    assert_eq!(json_title(r#"},{"title":"Tim Burton""#), Some("Tim Burton"));
    assert_eq!(json_title("  {\n    \"path\": \"src/a.ts\""), Some("src/a.ts"));
    assert_eq!(json_title(r#"","path":"a.ts"},{"title":"B""#), Some("B"));
    assert_eq!(json_title(r#"## Config "name": "x""#), None);
    // A record's string values are one block; a value without a space goes with the
    // next piece.
    let linked = r#"[{"title":"A","url":"https://a.org","snippet":"Alpha and more."},{"title":"B","snippet":"Beta is so."}]"#;
    let got = cut(linked);
    let blocks: Vec<(Kind, usize)> = got.iter().map(|&(_, kind, block, _)| (kind, block)).collect();
    assert_eq!(
      blocks,
      [
        (Kind::Heading, 0),
        (Kind::Text, 1),
        (Kind::Heading, 2),
        (Kind::Text, 3)
      ]
    );
    assert_eq!(got[1].0, r#","url":"https://a.org","snippet":"Alpha and more.""#);
  }

  /// One titled record is read as text, titled by what holds it; but an API's envelope
  /// over its title is no part of its text's first sentence.
  #[test]
  fn a_lone_record_is_headed_where_members_open_it() {
    let page = r#"{"batchcomplete":"","query":{"pages":{"7":{"pageid":7,"ns":0,"title":"Ed Wood","extract":"He was a filmmaker. He acted."}}}}"#;
    assert_eq!(
      cut(page),
      [
        (
          r#"{"batchcomplete":"","query":{"pages":{"7":{"pageid":7,"ns":0,"title":"Ed Wood""#,
          Kind::Heading,
          0,
          None
        ),
        (r#","extract":"He was a filmmaker."#, Kind::Text, 1, Some(0)),
        (r#"He acted."}}}}"#, Kind::Text, 1, Some(0)),
      ]
    );
    // A title with nothing before it is no envelope, nor a call's name over its arguments.
    for lone in [
      r#"{"title":"Ed Wood","extract":"He was a filmmaker. He acted."}"#,
      r#"[{'id': 'call_1', 'type': 'function', 'function': {'name': 'web_search', 'arguments': {'query': 'Ed Wood is a film. Who made it?'}}}]"#,
    ] {
      assert!(records(lone, Granularity::Sentence).is_none(), "{lone}");
    }
  }

  #[test]
  fn pretty_printed_and_json_lines_are_read_too() {
    let pretty = "{\n  \"results\": [\n    {\n      \"name\": \"Ed Wood\",\n      \"text\": \"A filmmaker.\"\n    },\n    {\"name\": \"Tim Burton\"}\n  ]\n}";
    let got = cut(pretty);
    assert_eq!(got[0].1, Kind::Heading);
    assert_eq!(json_title(got[0].0), Some("Ed Wood"));
    assert_eq!(
      got[1],
      (",\n      \"text\": \"A filmmaker.\"", Kind::Text, 1, Some(0))
    );
    let lines =
      "{\"path\":\"a.ts\",\"note\":\"It leaks memory.\"}\n{\"path\":\"b.ts\",\"note\":\"It is fine.\"}";
    assert_eq!(cut(lines).len(), 4);
  }

  /// Records with no title, in JSON on one line, are read as records: a block each, no
  /// sentence running from one into the next; printed over lines they are read as text.
  #[test]
  fn untitled_records_on_one_line_are_records() {
    let compact = r#"{"value":[{"id":"1","body":{"content":"<p>He made films. He acted.</p>"}},{"id":"2","body":{"content":"<p>He directed it.</p>"}}]}"#;
    let got = cut(compact);
    let blocks: Vec<(&str, usize)> = got.iter().map(|&(text, _, block, _)| (text, block)).collect();
    assert_eq!(
      blocks,
      [
        (r#"{"value":[{"id":"1","body":{"content":"<p>He made films."#, 0),
        (r#"He acted.</p>""#, 0),
        (
          r#"}},{"id":"2","body":{"content":"<p>He directed it.</p>"}}]}"#,
          1
        ),
      ]
    );
    assert!(got.iter().all(|p| p.1 == Kind::Text && p.3.is_none()));
    let pretty = "[\n  {\"id\": \"1\", \"body\": \"He made films.\"},\n  {\"id\": \"2\", \"body\": \"He directed it.\"}\n]";
    assert!(records(pretty, Granularity::Sentence).is_none());
    // A list of one record is no list.
    assert!(records(r#"[{"id":"1","body":"He made films."}]"#, Granularity::Sentence).is_none());
    // A message's subject is its title (Microsoft Graph's messages, an email's).
    let subjects = r#"[{"id":"1","subject":"Ed Wood","body":"He made films."},{"id":"2","subject":"Tim Burton","body":"He directed it."}]"#;
    assert_eq!(heading_titles(subjects), ["Ed Wood", "Tim Burton"]);
  }

  /// A record with no title member whose text opens with a title line is headed by that
  /// line, printed over lines too (a chat export's messages); text with no title line, or
  /// one that ends as a sentence, heads nothing.
  #[test]
  fn a_text_opening_with_a_title_line_heads_its_record() {
    let slack = "[\n  {\n    \"user\": \"U1\",\n    \"text\": \"*Ed Wood*\\nHe made films. He acted.\"\n  },\n  {\n    \"user\": \"U2\",\n    \"text\": \"## Colombo '43 Group\\n\\nIt was a school of painting.\"\n  }\n]";
    assert_eq!(heading_titles(slack), ["Ed Wood", "Colombo '43 Group"]);
    let got = cut(slack);
    let texts: Vec<&str> = got.iter().filter(|p| p.1 == Kind::Text).map(|p| p.0).collect();
    assert_eq!(texts[..2], ["He made films.", "He acted.\""]);
    assert!(texts[2].starts_with("\\nIt was a school of painting."), "{got:?}");
    let not_titles = "[\n  {\"text\": \"He made films.\\nHe acted.\"},\n  {\"text\": \"Thanks, all\"}\n]";
    assert!(records(not_titles, Granularity::Sentence).is_none());
  }

  /// Escapes read as the characters they stand for; what stands for none is kept.
  #[test]
  fn escapes_are_read_and_written() {
    assert_eq!(json_unescaped(r"Bl\u00e9riot"), "Blériot");
    assert!(matches!(json_unescaped("Ed Wood"), Cow::Borrowed("Ed Wood")));
    assert_eq!(json_unescaped(r#"\"A\" \\ b\/c\nd"#), r#""A" \ b/c d"#);
    assert_eq!(json_unescaped(r"\ud83d\ude00!"), "😀!");
    assert_eq!(json_unescaped(r"\ud83d x \u12 \"), r"\ud83d x \u12 \");
    assert_eq!(
      json_written("louis blériot 😀", true),
      r"louis bl\u00e9riot \ud83d\ude00"
    );
    assert_eq!(
      json_written("the \"complex\"\nblériot", false),
      r#"the \"complex\"\nblériot"#
    );
  }

  /// A title member after ids and addresses heads its record (Bing's `{"id", "name", …}`);
  /// one after the record's text does not.
  #[test]
  fn a_title_after_ids_heads_its_record() {
    let bing = r#"{"value":[{"id":"https://api.x/#0","name":"Ed Wood","url":"https://x.org/Ed","snippet":"He made films."},{"id":"https://api.x/#1","name":"Tim Burton","snippet":"He directed it."}]}"#;
    assert_eq!(heading_titles(bing), ["Ed Wood", "Tim Burton"]);
    // After the text, it names the record, which is a section with no heading: a block
    // of its own, the title a piece of it.
    let late = r#"[{"text":"He made films.","name":"Ed Wood"},{"text":"He directed it.","meta":{"id":2,"name":"Tim Burton"}}]"#;
    let got = cut(late);
    assert!(got.iter().all(|p| p.1 == Kind::Text && p.3.is_none()), "{got:?}");
    let blocks: Vec<usize> = got.iter().map(|p| p.2).collect();
    assert_eq!(blocks, [0, 0, 1, 1], "{got:?}");
    let titles: Vec<&str> = got.iter().filter_map(|p| late_title(p.0)).collect();
    assert_eq!(titles, ["Ed Wood", "Tim Burton"], "{got:?}");
    // A title member in an object that follows text in the one holding it comes late too.
    let nested = r#"[{"page_content":"He made films.","metadata":{"title":"Ed Wood"}},{"page_content":"He directed it.","metadata":{"title":"Tim Burton"}}]"#;
    assert!(cut(nested).iter().all(|p| p.1 == Kind::Text));
    // One record is no list; a late member that is no title, or other text, names nothing.
    assert!(records(
      r#"{"text":"He made films.","name":"Ed Wood"}"#,
      Granularity::Sentence
    )
    .is_none());
    assert_eq!(
      late_title(r#","summary":"A film maker.","title":"Ed Wood""#),
      None
    );
    assert_eq!(late_title(r#""title":"Ed Wood""#), None);
  }

  /// A table's rows after its columns are records headed by their title column's cell.
  #[test]
  fn rows_after_columns_are_records() {
    let table = r#"{"columns":["id","title","body"],"rows":[[1,"Ed Wood","He made films."],[2,"Tim Burton","He directed it."]],"row_count":2}"#;
    let got = cut(table);
    let titles: Vec<&str> = got
      .iter()
      .filter(|p| p.1 == Kind::Heading)
      .filter_map(|p| json_title(p.0))
      .collect();
    assert_eq!(titles, ["Ed Wood", "Tim Burton"], "{got:?}");
    let burton = got.iter().position(|p| p.0.contains("directed")).unwrap();
    assert_eq!(got[burton].3, Some(burton - 1));
    // Rows without a title column, or columns no table follows, are no records.
    let untitled = r#"{"columns":["id","body"],"rows":[[1,"He made films."],[2,"He directed it."]]}"#;
    assert!(records(untitled, Granularity::Sentence).is_none());
    assert_eq!(json_title("## Results"), None);
    assert_eq!(json_title(r#"### [2] "Ed Wood""#), None);
  }

  /// Objects as Python and Node print them (quotes of any kind, bare keys, keyword
  /// arguments, a class's name before them) are read as JSON is.
  #[test]
  fn printed_objects_are_read_as_json_is() {
    let titles = |text: &str| -> Vec<String> {
      cut(text)
        .iter()
        .filter_map(|p| match p.1 {
          Kind::Heading => json_title(p.0),
          _ => late_title(p.0),
        })
        .map(str::to_owned)
        .collect()
    };
    let python = "[{'title': 'Ed Wood', 'text': 'He made films.'}, {'title': \"Tim's Burton\", 'text': 'He directed it.', 'rank': None}]";
    assert_eq!(titles(python), ["Ed Wood", "Tim's Burton"]);
    let repr = "[Document(metadata={'title': 'Ed Wood'}, page_content='He made films.'), Document(metadata={'title': 'Tim Burton'}, page_content='He directed it.')]";
    assert_eq!(titles(repr), ["Ed Wood", "Tim Burton"]);
    let node = "[\n  Document {\n    pageContent: 'He made films.',\n    metadata: { title: 'Ed Wood', loc: [Object] }\n  },\n  Document {\n    pageContent: `He said \"it's done.\"`,\n    metadata: { title: 'Tim Burton' }\n  }\n]";
    // What Node prints in a value's place past its depth is a value.
    assert_eq!(titles(node), ["Ed Wood", "Tim Burton"]);
    let node = node.replace("loc: [Object]", "loc: { lines: 3 }");
    assert_eq!(titles(&node), ["Ed Wood", "Tim Burton"]);
    // A model as Python's `str` prints it: its fields `name=value`, records whose title
    // follows their text.
    let model = "results=[WebSearchResult(content='He made films.', title='Ed Wood', url='https://x.org/ed'), WebSearchResult(content='He directed it.', title='Tim Burton', url='https://x.org/tim')] total=2";
    assert_eq!(titles(model), ["Ed Wood", "Tim Burton"]);
    // Python's pairs of a document and its score.
    let scored = "[(Document(metadata={'title': 'Ed Wood'}, page_content='He made films.'), 0.82), (Document(metadata={'title': 'Tim Burton'}, page_content='He directed it.'), 0.79)]";
    assert_eq!(titles(scored), ["Ed Wood", "Tim Burton"]);
    // Code is no printed object: a call's argument that is no member, a function.
    for code in [
      "[f(x), g(y)]",
      "[{ title: 'A', run: () => 1 }, { title: 'B', run: () => 2 }]",
    ] {
      assert!(records(code, Granularity::Sentence).is_none(), "{code}");
    }
  }

  /// What a review of the readers above found: multibyte text ending a heading, a record
  /// counted twice, members between a record's text and its late title, a late member
  /// of a record headed already, prose headings with a member's shape.
  #[test]
  fn readers_hold_on_what_they_were_not_written_for() {
    for heading in [
      "Š",
      "{Ч: 'x'",
      "## Réglage (café = 'x'",
      "# 可用性",
      "Status 😢",
      "{\"k\": \"习\"",
    ] {
      assert_eq!(json_title(heading), None, "{heading}");
      let _ = late_title(heading);
    }
    assert_eq!(json_title("## Step 2 (optional): set name = 'prod'"), None);
    // One late-titled record in an object is no list.
    assert!(records(
      r#"{"matches":[{"text":"He made films.","name":"Ed Wood"}]}"#,
      Granularity::Sentence
    )
    .is_none());
    assert_eq!(
      late_title(r#","vector":[0.1,0.2],"title":"Ed Wood""#),
      Some("Ed Wood")
    );
    assert_eq!(late_title(", metadata=Meta(title='Ed Wood')"), Some("Ed Wood"));
    // A record headed by its title keeps a later title-like member among its pieces.
    let headed = r#"[{"title":"Ed Wood","text":"He made films.","source":"wikipedia"},{"title":"Tim Burton","text":"He directed it.","source":"wikipedia"}]"#;
    assert_eq!(cut(headed).len(), 4, "{:?}", cut(headed));
  }

  /// A notebook's code cell is headed by its source line, as a call heads its result: the
  /// output under it, whose `"name": "stdout"` every output bears and so titles none, and
  /// whose sections the notebook's own name (its `kernelspec`'s, after them) leaves alone.
  #[test]
  fn a_record_s_first_line_heads_the_text_after_it() {
    let cell = |title: &str, text: &str| {
      format!(
        "{{\n   \"cell_type\": \"code\",\n   \"source\": [\n    \"print(wiki.summary(\\\"{title}\\\"))\"\n   ],\n   \"outputs\": [\n    {{\n     \"name\": \"stdout\",\n     \"output_type\": \"stream\",\n     \"text\": [\n      \"{text}\\n\"\n     ]\n    }}\n   ]\n  }}"
      )
    };
    let notebook = format!(
      "{{\n \"cells\": [\n  {},\n  {}\n ],\n \"metadata\": {{\"kernelspec\": {{\"display_name\": \"Python 3\", \"name\": \"python3\"}}}}\n}}",
      cell("Ed Wood", "Ed Wood was a director. He made films."),
      cell("Burton", "Tim Burton is a director.")
    );
    assert_eq!(
      heading_titles(&notebook),
      [
        r#"print(wiki.summary(\"Ed Wood\"))"#,
        r#"print(wiki.summary(\"Burton\"))"#
      ]
    );
    let pieces = cut(&notebook);
    let under = |h: usize| -> String { pieces.iter().filter(|p| p.3 == Some(h)).map(|p| p.0).collect() };
    assert!(under(0).contains("He made films."), "{pieces:?}");
    assert!(under(3).contains("Tim Burton is a director."), "{pieces:?}");
    // What follows the cells is no part of the last one.
    let metadata = pieces.iter().position(|p| p.0.contains("kernelspec")).unwrap();
    assert!(pieces[metadata..].iter().all(|p| p.3.is_none()), "{pieces:?}");
    // A first line a title member follows, or that no text follows, is text.
    let late =
      r#"[{"snippet":"Ed Wood film","title":"Ed Wood"},{"snippet":"Tim Burton film","title":"Tim Burton"}]"#;
    assert!(cut(late).iter().all(|p| p.1 == Kind::Text), "{:?}", cut(late));
    let alone = r#"[{"id":1,"text":"Ed Wood film"},{"id":2,"text":"Tim Burton film"}]"#;
    assert!(cut(alone).iter().all(|p| p.1 == Kind::Text), "{:?}", cut(alone));
    // A line over a record of titled records is its text, and each heading stands before
    // what it heads.
    let answer = r#"{"answer":"Ed Wood and Tim Burton","results":[{"title":"Ed Wood","content":"He made films."},{"title":"Tim Burton","content":"He directed it."}]}"#;
    let pieces = cut(answer);
    assert_eq!(pieces[0].1, Kind::Text, "{pieces:?}");
    assert!(
      pieces.iter().enumerate().all(|(i, p)| p.3.is_none_or(|h| h < i)),
      "{pieces:?}"
    );
    assert_eq!(heading_titles(answer), ["Ed Wood", "Tim Burton"]);
  }

  /// One record is titled by what holds it, and read as text.
  #[test]
  fn one_record_is_left_to_the_text_reader() {
    assert!(records(
      r#"{"title":"Ed Wood","content":"A filmmaker. He acted."}"#,
      Granularity::Sentence
    )
    .is_none());
  }

  #[test]
  fn what_is_no_json_with_strings_is_left_to_the_text_reader() {
    for text in [
      "{ not json",
      "[1, 2, 3]",
      "{\"a\": \"unclosed}",
      "function f() { return 1 }",
      "[\"a\"] trailing words",
      "[\"a\", \"b\"]",
      "",
    ] {
      assert!(records(text, Granularity::Sentence).is_none(), "{text}");
    }
    let deep = format!("{}\"x\"{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    assert!(records(&deep, Granularity::Sentence).is_none());
  }
}
