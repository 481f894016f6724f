//! The outline of a text: the heading each heading stands under. A bold lead stands under
//! the heading it opens under (`## Brassia` over `**Summary.** Brassia is…`); a marked
//! heading under the nearest one before it, in its message, of a higher level (`###
//! Overview` under `## Brassia`). A heading of another kind (a title line, a record's title
//! field) has no level: it stands under the nearest marked heading, and only a bold lead
//! stands under it.

use super::{is_setext_underline, Kind, Segment};

/// Per segment, the heading it stands under when it is a heading (see the module's comment).
pub fn parent_headings(text: &str, segments: &[Segment]) -> Vec<Option<usize>> {
  // The marked headings open at each point, outermost first, with their levels: a message's
  // start, a role line or a tool call closes them all.
  let mut open: Vec<(usize, usize)> = Vec::new();
  let mut message = None;
  segments
    .iter()
    .enumerate()
    .map(|(i, s)| {
      if message != Some(s.message) || matches!(s.kind, Kind::Role | Kind::Call) {
        open.clear();
        message = Some(s.message);
      }
      if s.kind != Kind::Heading {
        return None;
      }
      // A bold lead's heading is the heading it opens under (a message's role line or a
      // tool call heads the headings in it, and is no heading).
      if let Some(h) = s.heading.filter(|&h| segments[h].kind == Kind::Heading) {
        return Some(h);
      }
      // A heading without a level stands under the innermost marked one.
      let Some(own) = level(&text[s.start..s.end]) else {
        return open.last().map(|&(_, h)| h);
      };
      while open.last().is_some_and(|&(l, _)| l >= own) {
        open.pop();
      }
      let parent = open.last().map(|&(_, h)| h);
      open.push((own, i));
      parent
    })
    .collect()
}

/// A marked heading's level: its `#` or `=` marks (markdown, a wiki's `== Ed Wood ==`,
/// AsciiDoc), an HTML heading's number, or 1 and 2 for a setext heading underlined with
/// `===` and `---`.
fn level(heading: &str) -> Option<usize> {
  let first = heading.lines().next()?.trim_start();
  let marks = |m: u8| first.bytes().take_while(|&c| c == m).count();
  let html = first
    .strip_prefix("<h")
    .or_else(|| first.strip_prefix("<H"))
    .and_then(|rest| rest.bytes().next())
    .filter(u8::is_ascii_digit)
    .map(|d| usize::from(d - b'0'));
  match (marks(b'#'), marks(b'=')) {
    (n @ 1..=6, _) | (_, n @ 1..=6) => Some(n),
    _ => html.or_else(|| {
      let underline = heading.lines().nth(1).filter(|l| is_setext_underline(l))?;
      Some(if underline.trim_start().starts_with('=') {
        1
      } else {
        2
      })
    }),
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::core::segment::{segment, Granularity};

  /// The parent of every heading, as (heading, parent) texts.
  fn outline(text: &str) -> Vec<(String, Option<String>)> {
    let mut segments = Vec::new();
    segment(text, 0, 0, Granularity::Sentence, &mut segments, 0);
    let parents = parent_headings(text, &segments);
    let line = |i: usize| {
      text[segments[i].start..segments[i].end]
        .lines()
        .next()
        .unwrap()
        .to_owned()
    };
    (0..segments.len())
      .filter(|&i| segments[i].kind == Kind::Heading)
      .map(|i| (line(i), parents[i].map(line)))
      .collect()
  }

  #[test]
  fn a_heading_stands_under_the_nearest_higher_one() {
    let got = outline("# Notes\n\n## Brassia\n\n### Overview\n\nIt is an orchid.\n\n### Range\n\nMexico.\n\n## Achimenes\n\nA herb.");
    let pairs: Vec<(&str, Option<&str>)> = got.iter().map(|(h, p)| (h.as_str(), p.as_deref())).collect();
    assert_eq!(
      pairs,
      [
        ("# Notes", None),
        ("## Brassia", Some("# Notes")),
        ("### Overview", Some("## Brassia")),
        ("### Range", Some("## Brassia")),
        ("## Achimenes", Some("# Notes")),
      ]
    );
  }

  #[test]
  fn a_bold_lead_stands_under_its_heading_and_a_title_line_under_a_marked_one() {
    let got = outline("Ed Wood\n\n**Life.** He was a director.\n\n## Brassia\n\n**Summary.** Brassia is a genus of orchids.\n\nRange\n\nMexico.");
    let pairs: Vec<(&str, Option<&str>)> = got.iter().map(|(h, p)| (h.as_str(), p.as_deref())).collect();
    assert_eq!(
      pairs,
      [
        ("Ed Wood", None),
        ("**Life.**", Some("Ed Wood")),
        ("## Brassia", None),
        ("**Summary.**", Some("## Brassia")),
        ("Range", Some("## Brassia")),
      ]
    );
  }

  #[test]
  fn a_heading_a_call_heads_stands_under_no_call() {
    // A tool result's segments are headed by its call (`extract/doc.rs`): the record's
    // title there is no bold lead of the call's.
    let text = "→ search {\"q\":\"Ed Wood\"}\nTitle: Ed Wood\nIt is a film.";
    let at = |s: &str| text.find(s).unwrap();
    let piece = |start: usize, end: usize, kind: Kind, block: usize, heading: Option<usize>| Segment {
      start,
      end,
      kind,
      block,
      heading,
      message: 1,
    };
    let segments = [
      piece(0, at("\nTitle"), Kind::Call, 0, None),
      piece(at("Title"), at("\nIt"), Kind::Heading, 1, Some(0)),
      piece(at("It is"), text.len(), Kind::Text, 2, Some(1)),
    ];
    assert_eq!(parent_headings(text, &segments), [None, None, None]);
  }

  #[test]
  fn levels_of_other_markups() {
    assert_eq!(level("== Ed Wood =="), Some(2));
    assert_eq!(level("<h3>Ed Wood</h3>"), Some(3));
    assert_eq!(level("Ed Wood\n======="), Some(1));
    assert_eq!(level("Ed Wood\n-------"), Some(2));
    assert_eq!(level("Ed Wood"), None);
    assert_eq!(level("Title: Ed Wood"), None);
  }
}
