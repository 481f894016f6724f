//! Titles, and where text names them: the links between sections.

use super::index::fold_ascii;

/// A heading's title, case-folded: without `#` marks and a trailing "(…)" or ", …" qualifier.
pub(super) fn heading_title(heading: &str) -> String {
  let t = heading.trim_start_matches('#').trim();
  let t = match t.rfind(" (") {
    Some(i) if t.ends_with(')') => &t[..i],
    _ => t,
  };
  // "Santa Fe, Missouri": text names the place before the comma.
  let t = t.split_once(", ").map_or(t, |(name, _)| name);
  fold_ascii(t)
}

/// Which of `titles` `body` names, longest match first: "Adventures of Huckleberry Finn"
/// names that section, not the "Huckleberry Finn" inside it.
pub(super) fn named_titles(body: &str, titles: &[Option<String>]) -> Vec<bool> {
  // Many sections can share a title (a thread's "### user"): find each distinct title once.
  let mut distinct: Vec<&str> = titles.iter().flatten().map(String::as_str).collect();
  distinct.sort_unstable();
  distinct.dedup();
  let spans: Vec<Vec<(usize, usize)>> = distinct.iter().map(|t| name_spans(body, t)).collect();
  let named: Vec<bool> = (0..distinct.len())
    .map(|k| {
      spans[k].iter().any(|&(a, b)| {
        !spans
          .iter()
          .enumerate()
          .any(|(j, other)| j != k && other.iter().any(|&(c, d)| c <= a && b <= d && d - c > b - a))
      })
    })
    .collect();
  titles
    .iter()
    .map(|t| {
      t.as_deref()
        .is_some_and(|t| distinct.binary_search(&t).is_ok_and(|k| named[k]))
    })
    .collect()
}

/// Where `body` names `title` as whole words.
pub(super) fn name_spans(body: &str, title: &str) -> Vec<(usize, usize)> {
  let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
  if title.is_empty() {
    return Vec::new();
  }
  let finder = memchr::memmem::Finder::new(title.as_bytes());
  let mut spans = Vec::new();
  let mut from = 0;
  // Finds do not overlap, as with `match_indices`.
  while let Some(found) = finder.find(&body.as_bytes()[from..]) {
    let at = from + found;
    from = at + title.len();
    if boundary(body[..at].chars().next_back()) && boundary(body[from..].chars().next()) {
      spans.push((at, from));
    }
  }
  spans
}
