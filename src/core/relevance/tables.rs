//! Tables whose header names a title column: each row is titled by its cell in that column,
//! wherever it stands (`| # | Passage | Source |`, psql's ` id | title | body`, a TSV file's
//! `id<TAB>text<TAB>title`), as a row's first cell titles it where no header says so.

use rustc_hash::FxHashMap;

use crate::core::segment::is_title_attribute;

/// Per row of such a table, the start of its line: the byte range of its title cell. Only
/// lines with a bar or a tab are read (found by `memchr`), so a long text of prose costs
/// little; each is read for a title column before its cells are counted.
pub(super) fn row_titles(text: &str) -> FxHashMap<usize, (usize, usize)> {
  let bytes = text.as_bytes();
  let line_at = |start: usize| {
    let end = memchr::memchr(b'\n', &bytes[start..]).map_or(text.len(), |at| start + at);
    (start, end, text[start..end].trim_end_matches('\r'))
  };
  let mut titles = FxHashMap::default();
  // The table being read: how its cells are split, how many there are, its title column,
  // and where its last line ended (its next row starts on the line after).
  let mut table: Option<(Split, usize, usize, usize)> = None;
  let mut from = 0;
  while let Some(found) = memchr::memchr2(b'|', b'\t', &bytes[from..]) {
    let hit = from + found;
    let (start, end, line) = line_at(memchr::memrchr(b'\n', &bytes[..hit]).map_or(0, |at| at + 1));
    from = (end + 1).min(text.len());
    if let Some((split, count, column, last)) = table {
      let cells = cells(line, split);
      if start == last + 1 && cells.len() == count {
        let (cell, cell_end) = cells[column];
        titles.insert(start, (start + cell, start + cell_end));
        table = Some((split, count, column, end));
        continue;
      }
      table = None;
    }
    // A header names a title column, over a rule (`|---|---|`, psql's `----+----`) or, with
    // tabs, over a row of as many cells.
    if end >= text.len() || !names_columns(line) {
      continue;
    }
    let (_, next_end, next) = line_at(end + 1);
    let (split, last) = if is_rule(next) {
      (
        if next.contains('+') {
          Split::Bar
        } else {
          Split::Pipe
        },
        next_end,
      )
    } else if line.contains('\t') && cells(next, Split::Tab).len() == cells(line, Split::Tab).len() {
      (Split::Tab, end)
    } else {
      continue;
    };
    let names = cells(line, split);
    let column = names
      .iter()
      .position(|&(from, to)| is_title_attribute(&line[from..to]));
    if let Some(column) = column.filter(|_| names.len() >= MIN_COLUMNS) {
      table = Some((split, names.len(), column, last));
      from = (last + 1).min(text.len());
    }
  }
  titles
}

/// Whether a line may be a header naming a title column: its first cell is no number (as a
/// row's index, or a line number in a file shown with `cat -n`, is), and a cell names a
/// title.
fn names_columns(line: &str) -> bool {
  let first = line
    .trim_start()
    .trim_start_matches('|')
    .split(['|', '\t'])
    .next()
    .unwrap_or("");
  !first.trim().bytes().all(|b| b.is_ascii_digit()) && line.split(['|', '\t']).any(is_title_attribute)
}

/// A table names its title column among this many at least: one column more is the text.
const MIN_COLUMNS: usize = 2;

/// How a table's cells are split.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Split {
  /// Markdown's `| a | b |`: bars, the outer ones opening and closing the row.
  Pipe,
  /// psql's ` a | b`: bars between cells only.
  Bar,
  /// Tabs.
  Tab,
}

/// Whether a line is a table's rule: dashes, with bars, pluses, colons and spaces.
fn is_rule(line: &str) -> bool {
  let t = line.trim();
  t.starts_with(['-', '|', ':'])
    && t.bytes().all(|b| matches!(b, b'-' | b'|' | b'+' | b':' | b' '))
    && t.contains("--")
}

/// The byte ranges of a row's cells, trimmed (a bar escaped as `\|` is no cell's end).
fn cells(line: &str, split: Split) -> Vec<(usize, usize)> {
  let delimiter = if split == Split::Tab { b'\t' } else { b'|' };
  let bytes = line.as_bytes();
  let mut cells = Vec::new();
  let mut from = 0;
  for (i, &b) in bytes.iter().enumerate() {
    if b == delimiter && (i == 0 || bytes[i - 1] != b'\\') {
      cells.push((from, i));
      from = i + 1;
    }
  }
  cells.push((from, bytes.len()));
  if split == Split::Pipe {
    // The outer bars open and close the row: no cells before and after them.
    let opens = line.trim_start().starts_with('|');
    let closes = line.trim_end().ends_with('|');
    if !(opens && closes) || cells.len() < 3 {
      return Vec::new();
    }
    cells = cells[1..cells.len() - 1].to_vec();
  }
  cells
    .into_iter()
    .map(|(from, to)| {
      let cell = &line[from..to];
      let lead = cell.len() - cell.trim_start().len();
      (from + lead, from + lead + cell.trim().len())
    })
    .collect()
}

#[cfg(test)]
mod tests {
  use super::*;

  fn titled(text: &str) -> Vec<&str> {
    let mut rows: Vec<_> = row_titles(text).into_iter().collect();
    rows.sort();
    rows.into_iter().map(|(_, (from, to))| &text[from..to]).collect()
  }

  #[test]
  fn rows_are_titled_by_the_column_their_header_names() {
    let markdown = "| # | Passage | Source |\n|---|---|---|\n| 1 | He made films. | Ed Wood |\n| 2 | He directed it \\| twice. | Tim Burton |\n\nAfter.";
    assert_eq!(titled(markdown), ["Ed Wood", "Tim Burton"]);
    let psql = " id |   title    | body\n----+------------+------\n  1 | Ed Wood    | He made films.\n  2 | Tim Burton | He directed it.\n(2 rows)";
    assert_eq!(titled(psql), ["Ed Wood", "Tim Burton"]);
    let tsv = "id\ttext\ttitle\n1\tHe made films.\tEd Wood\n2\tHe directed it.\tTim Burton";
    assert_eq!(titled(tsv), ["Ed Wood", "Tim Burton"]);
    // No title column, or no header: no titles.
    assert!(titled("| a | b |\n|---|---|\n| 1 | 2 |").is_empty());
    assert!(titled("| 1 | He made films. | Ed Wood |").is_empty());
    assert!(titled("name\tvalue\nx").is_empty());
  }
}
