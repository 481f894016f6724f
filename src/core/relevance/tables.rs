//! Tables whose header names a title column: each row is titled by its cell in that column,
//! wherever it stands (`| # | Passage | Source |`, psql's ` id | title | body`, a TSV file's
//! `id<TAB>text<TAB>title`), as a row's first cell titles it where no header says so.

use rustc_hash::FxHashMap;

use crate::core::segment::is_title_attribute;

/// Per row of such a table, the start of its line: the byte range of its title cell.
pub(super) fn row_titles(text: &str) -> FxHashMap<usize, (usize, usize)> {
  let mut titles = FxHashMap::default();
  // The table being read: how its cells are split, how many there are, its title column.
  let mut table: Option<(Split, usize, usize)> = None;
  let mut previous: Option<(usize, &str)> = None;
  let mut at = 0;
  for line in text.split_inclusive('\n') {
    let start = at;
    at += line.len();
    let line = line.trim_end_matches(['\n', '\r']);
    if let Some((split, count, column)) = table {
      let cells = cells(line, split);
      if cells.len() == count {
        let (from, to) = cells[column];
        titles.insert(start, (start + from, start + to));
        previous = Some((start, line));
        continue;
      }
      table = None;
    }
    // A rule under the header (`|---|---|`, psql's `----+----`), or a header of tab-separated
    // names over a row of as many cells.
    let header = if is_rule(line) {
      previous.map(|(_, header)| {
        (
          header,
          if line.contains('+') {
            Split::Bar
          } else {
            Split::Pipe
          },
        )
      })
    } else {
      previous
        .filter(|(_, header)| {
          header.contains('\t') && cells(line, Split::Tab).len() == cells(header, Split::Tab).len()
        })
        .map(|(_, header)| (header, Split::Tab))
    };
    if let Some((header, split)) = header {
      let names = cells(header, split);
      let column = names
        .iter()
        .position(|&(from, to)| is_title_attribute(header[from..to].trim()));
      if let Some(column) = column.filter(|_| names.len() >= MIN_COLUMNS) {
        table = Some((split, names.len(), column));
        // A tab-separated table has no rule: this line is its first row.
        if split == Split::Tab {
          let (from, to) = cells(line, split)[column];
          titles.insert(start, (start + from, start + to));
        }
      }
    }
    previous = Some((start, line));
  }
  titles
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
  t.contains("--") && t.bytes().all(|b| matches!(b, b'-' | b'|' | b'+' | b':' | b' '))
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
