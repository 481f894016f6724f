//! Prose filled to a width (`fmt`, an editor's fill, an email's 72 columns, a man page's
//! justified lines): its line breaks are spaces, so that a sentence wrapped over lines is
//! one sentence, not a piece per line.

use std::borrow::Cow;

use super::{interrupts_paragraph, is_list_item};

/// A fill narrower than this is no fill: subtitles, the narrowest text filled by
/// convention, run 32 to 42 columns; a shorter width is a list of short lines.
const MIN_FILL_WIDTH: usize = 32;

/// Prose is nearly all words (`is_word`); a program's code, a directory's listing or a
/// log, with their identifiers, files' names, operators and times, well under this share.
const MIN_WORD_PERCENT: usize = 80;

/// `paragraph` with the line breaks that a fill made read as spaces, the same bytes long
/// (a break is `\n` or `\r\n`, each byte a space), so that its sentences' offsets are the
/// paragraph's; borrowed as it is where no fill broke a line.
///
/// A run of lines is lines that go on one another: each line after the first opens with a
/// word (past any quote marks: `opens_with_word`), is indented as the run's second line
/// is, and the line over it is no shorter than a fill (`MIN_FILL_WIDTH`). Its breaks are a
/// fill's when every line but its last was broken because the next line's first word
/// would not have fitted on it (the width being the run's longest line's), and it reads
/// as words. Of two lines the first is the longest by itself, so there the break must
/// also fall inside a sentence: the first line ends none and the second goes on in lower
/// case.
pub fn unwrapped(paragraph: &str) -> Cow<'_, str> {
  if memchr::memchr(b'\n', paragraph.as_bytes()).is_none() {
    return Cow::Borrowed(paragraph);
  }
  let bytes = paragraph.as_bytes();
  let mut filled: Vec<(usize, usize)> = Vec::new();
  // The run, and the same run without its first line where that is a title over a fill
  // (`Ed Wood (https://…):`, ending with a colon as it introduces the text): no line of
  // the fill, and it may be longer than the fill's width.
  let mut run: Option<Run> = None;
  let mut rest: Option<Run> = None;
  let close = |run: Option<Run>, rest: Option<Run>| {
    run
      .and_then(|r| r.filled(paragraph))
      .or_else(|| rest.and_then(|r| r.filled(paragraph)))
  };
  let mut start = 0;
  for end in memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(bytes.len())) {
    let line = Line::new(paragraph, start, end);
    start = end + 1;
    match &mut run {
      Some(r) if r.goes_on(&line) => {
        match &mut rest {
          Some(t) => t.add(line),
          None if r.lines == 1 && r.first.text.ends_with(':') => rest = Some(Run::new(line)),
          None => {}
        }
        r.add(line);
      }
      _ => filled.extend(close(run.replace(Run::new(line)), rest.take())),
    }
  }
  filled.extend(close(run, rest));
  if filled.is_empty() {
    return Cow::Borrowed(paragraph);
  }
  let mut read = bytes.to_vec();
  for (from, to) in filled {
    for b in &mut read[from..to] {
      if matches!(*b, b'\n' | b'\r') {
        *b = b' ';
      }
    }
  }
  // Only ASCII line-break bytes were replaced by ASCII spaces.
  Cow::Owned(String::from_utf8(read).expect("line breaks replaced by spaces"))
}

/// A line of a paragraph: where it starts, and its text without its break and its
/// trailing spaces.
#[derive(Clone, Copy)]
struct Line<'a> {
  start: usize,
  text: &'a str,
  /// Its width in characters.
  width: usize,
}

impl<'a> Line<'a> {
  fn new(paragraph: &'a str, start: usize, end: usize) -> Self {
    let text = paragraph[start..end].trim_end();
    // An ASCII line is as wide as it is long.
    let width = if text.is_ascii() {
      text.len()
    } else {
      text.chars().count()
    };
    Line { start, text, width }
  }

  fn indent(&self) -> usize {
    self.text.len() - self.text.trim_start().len()
  }

  /// The line past its indentation and any quote marks.
  fn content(&self) -> &'a str {
    self
      .text
      .trim_start_matches(|c: char| c.is_whitespace() || c == '>')
  }

  fn first_word_width(&self) -> usize {
    self
      .content()
      .split(char::is_whitespace)
      .next()
      .unwrap_or("")
      .chars()
      .count()
  }
}

/// Lines that go on one another, read as they come.
struct Run<'a> {
  first: Line<'a>,
  last: Line<'a>,
  lines: usize,
  /// Whether the run opens with a list's item: then any item ends it, where under prose
  /// only one that may interrupt it does.
  list: bool,
  /// The indentation of the run's second line.
  indent: usize,
  /// The longest line's width.
  fill: usize,
  /// The least, over the run's breaks, of the line's width and the next line's first word.
  least_broken: usize,
}

impl<'a> Run<'a> {
  fn new(line: Line<'a>) -> Self {
    Run {
      first: line,
      last: line,
      lines: 1,
      list: is_list_item(line.content()),
      indent: 0,
      fill: 0,
      least_broken: usize::MAX,
    }
  }

  /// Whether `line` goes on the run: no list item that opens after it (`list`).
  fn goes_on(&self, line: &Line) -> bool {
    let content = line.content();
    let item = || {
      if self.list {
        is_list_item(content)
      } else {
        interrupts_paragraph(content)
      }
    };
    self.last.width >= MIN_FILL_WIDTH
      && (self.lines == 1 || line.indent() == self.indent)
      && opens_with_word(content)
      && !item()
  }

  fn add(&mut self, line: Line<'a>) {
    if self.lines == 1 {
      self.indent = line.indent();
      self.fill = self.last.width;
    }
    self.least_broken = self
      .least_broken
      .min(self.last.width + 1 + line.first_word_width());
    self.fill = self.fill.max(line.width);
    self.lines += 1;
    self.last = line;
  }

  /// The run's bytes, from its first line's start to its last line's end, where a fill
  /// broke its lines.
  fn filled(self, paragraph: &str) -> Option<(usize, usize)> {
    let inside_sentence = || {
      !self.first.text.ends_with(['.', '!', '?', ':']) && self.last.content().starts_with(char::is_lowercase)
    };
    let end = self.last.start + self.last.text.len();
    (self.lines > 1
      && self.least_broken > self.fill
      && (self.lines > 2 || inside_sentence())
      && reads_as_words(&paragraph[self.first.start..end]))
    .then_some((self.first.start, end))
  }
}

/// Whether `line` opens with a word (or a quote or bracket before one): not an address.
fn opens_with_word(line: &str) -> bool {
  line
    .trim_start_matches(['"', '\'', '(', '\u{201c}'])
    .starts_with(char::is_alphanumeric)
    && !is_address(line.split(char::is_whitespace).next().unwrap_or(""))
}

/// Whether `word` is an address (`https://…`): a scheme, then `://`.
fn is_address(word: &str) -> bool {
  word
    .find(':')
    .is_some_and(|colon| colon > 0 && word[colon..].starts_with("://"))
}

/// Whether `MIN_WORD_PERCENT` of the text's words are a writer's words (`is_word`).
fn reads_as_words(text: &str) -> bool {
  let (mut words, mut all) = (0usize, 0usize);
  for token in text.split_whitespace() {
    all += 1;
    words += usize::from(is_word(token));
  }
  100 * words >= MIN_WORD_PERCENT * all
}

/// A word as prose writes it: letters (a hyphen or an apostrophe between them), or a
/// number, in quotes, brackets and punctuation; not a file's name (`build_doc.sh`), an
/// address, an identifier (`user.email`, `foo(x)`) or an operator.
fn is_word(token: &str) -> bool {
  let core = token
    .trim_start_matches(['"', '\'', '(', '[', '\u{201c}', '\u{2018}', '*'])
    .trim_end_matches([
      '.', ',', ';', ':', '!', '?', ')', ']', '"', '\'', '\u{201d}', '\u{2019}', '*',
    ]);
  let inner = |c: char, joins: &[char]| c.is_alphanumeric() || joins.contains(&c);
  !core.is_empty()
    && (core.chars().all(|c| inner(c, &['-', '\'', '\u{2019}'])) && core.starts_with(char::is_alphabetic)
      || core.chars().all(|c| inner(c, &['.', ',', '%'])) && core.starts_with(|c: char| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
  use super::*;

  /// A docstring's closing quotes on their own line are no word that goes on the fill
  /// (they had made its last break look unforced, so its lines were read one by one).
  #[test]
  fn a_closing_line_of_quote_marks_ends_the_fill() {
    let doc = "    Flores was aided by Argentina, whose president Bartolome Mitre\n    \
               provided him with supplies, Argentine volunteers and river transport\n    \
               for troops in the war that followed the invasion of the country.\n    \"\"\"";
    let read = unwrapped(doc);
    assert_eq!(read.matches('\n').count(), 1, "{read}");
    assert!(read.ends_with("country.\n    \"\"\""), "{read}");
    assert!(!opens_with_word("\"\"\"") && opens_with_word("\"Ed Wood\" is a film."));
  }

  #[test]
  fn a_filled_paragraph_reads_as_one_line() {
    let text = "Flores was aided by Argentina, whose president Bartolome Mitre\n\
                provided him with supplies, Argentine volunteers and river\n\
                transport for troops.";
    let read = unwrapped(text);
    assert_eq!(read.len(), text.len());
    assert!(!read.contains('\n'));
    // An email's quote marks and a man page's indentation are no obstacle.
    let quoted = "> Flores was aided by Argentina, whose president Bartolome Mitre\r\n\
                  > provided him with supplies and river transport for troops.";
    assert_eq!(unwrapped(quoted).len(), quoted.len());
    assert!(!unwrapped(quoted).contains(['\n', '\r']));
    // Two lines, broken inside a sentence.
    let cue = "Flores was aided by Argentina, whose\npresident provided him with supplies.";
    assert!(!unwrapped(cue).contains('\n'));
    // A title line over the fill, longer than it, stays its own line.
    let titled = "Uruguayan War (https://en.wikipedia.org/wiki/Uruguayan_War_of_the_Triple_Alliance):\n\
                  Flores was aided by Argentina, whose president Bartolome Mitre\n\
                  provided him with supplies, Argentine volunteers and river\n\
                  transport for troops.";
    assert_eq!(
      unwrapped(titled).matches('\n').count(),
      1,
      "{}",
      unwrapped(titled)
    );
    assert!(unwrapped(titled)
      .starts_with("Uruguayan War (https://en.wikipedia.org/wiki/Uruguayan_War_of_the_Triple_Alliance):\n"));
    // A year that opens a line under prose goes on its sentence: no list counts from it.
    let year = "Hovsep Pushman (Armenian: Յովսէփ Փուշման ; May 9, 1877 – February 13,\n\
                1966) was an American artist of Armenian background. He was known for\n\
                his contemplative still lifes and sensitive portraits of women, often in\n\
                exotic dress.";
    assert!(!unwrapped(year).contains('\n'), "{}", unwrapped(year));
  }

  #[test]
  fn lines_broken_by_their_writer_stay_lines() {
    for text in [
      // Lines that end well short of where the next line's word would have fitted.
      "Ran 47 tests in 3.2 seconds and all of them passed\nOK, nothing else to report here at all today",
      "Name: Ed Wood\nBorn: October 10, 1924, in Poughkeepsie, New York, United States\nDied: 1978",
      // Code, a directory's listing and logs, filled or not, are no prose.
      "CONTRIBUTING.md  COPYING  ISSUE_TEMPLATE.md  MANIFEST.in  Makefile  README.rst\n\
       appveyor.yml  benchmarks  build  build_tools  conftest.py  doc  examples  setup.py\n\
       setup.cfg  site.cfg  sklearn",
      // A list's items, each filled to its line.
      "1. As a first step, it might be a good idea to explore the repo to familiarize\n\
       2. Create a script to reproduce the error and execute it with python using it\n\
       3. Edit the sourcecode of the repo to resolve the issue and rerun the script",
      "const user = await db.users.findOne({ where: { email: body.email } });\nreturn res.json(user);",
      "2024-05-06T10:02:11Z [fetch] Ed Wood -> https://en.wikipedia.org/wiki/Ed_Wood 200\n2024-05-06T10:02:12Z [fetch] done",
      // Too narrow to be a fill.
      "Roses are red\nviolets are blue",
      "one line only, however long it may be, is never unwrapped",
    ] {
      assert!(matches!(unwrapped(text), Cow::Borrowed(_)), "{text:?}");
    }
  }
}
