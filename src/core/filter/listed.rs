//! A list of sources that no marker cites: a report's `Sources:` or `References` list whose
//! entries are a title and an address each (`- [Ed Wood](https://…)`, `1. Ed Wood —
//! https://…`, `Ed Wood. (n.d.). In *Wikipedia*. Retrieved …, from https://…`), while its
//! paragraphs cite nothing. Such entries are where the paragraphs come from, not findings:
//! a paragraph that opens by naming an entry's title cites it, as a marker would.

use std::borrow::Cow;
use std::ops::Range;

use crate::core::citations::{title_of, MAX_LABEL};

use super::citations::{bare_urls, inline_links, link_text};
use super::report::{name_core, name_words, opens_naming};

/// A list is one of sources where this many of its entries at least are named by the
/// text's paragraphs: one could be a paragraph that happens to open with a link's words.
const MIN_NAMED_ENTRIES: usize = 2;

/// An entry says this many words at most besides its title: a reference's site, date and
/// catalogue words (APA's `(n.d.). In *Wikipedia*. Retrieved 1 May 2025, from https://…` is
/// 9), where a search result's line describes its page in a sentence or more.
const MAX_ENTRY_WORDS: usize = 12;

/// A paragraph's opening is read this many words far for a name: a title's words and the
/// few a sentence adds among them (`opens_naming`).
const MAX_LEAD_WORDS: usize = 16;

/// A listed source: the entry's line, the title it lists, and the paragraphs that open by
/// naming that title.
pub(super) struct Listed {
  pub line: Range<usize>,
  pub title: String,
  /// The address the entry gives (a markdown link's target, or the first bare one).
  pub address: String,
  pub paragraphs: Vec<Range<usize>>,
}

/// The entries of `text`'s lists of sources (lines not `taken` by a definition already),
/// each with the paragraphs that cite it. A run of entry lines (blank lines between them
/// allowed) is a list of sources where the paragraphs outside it name at least half its
/// entries, and two at least; a list of links the text offers as its answer is named by
/// none, and stays text.
pub(super) fn listed_sources(text: &str, taken: impl Fn(usize) -> bool) -> Vec<Listed> {
  let lines = lines_outside_code(text);
  // The entries, and the paragraphs: runs of lines with text that are no entries.
  let mut entries: Vec<(Range<usize>, Entry)> = Vec::new();
  let mut paragraphs: Vec<Range<usize>> = Vec::new();
  let mut open: Option<Range<usize>> = None;
  for line in &lines {
    let l = &text[line.clone()];
    let entry = (!taken(line.start)).then(|| entry(l)).flatten();
    if l.trim().is_empty() || entry.is_some() || l.trim_start().starts_with('#') {
      paragraphs.extend(open.take());
    } else {
      open = Some(open.map_or(line.clone(), |p| p.start..line.end));
    }
    if let Some(entry) = entry {
      entries.push((line.clone(), entry));
    }
  }
  if entries.len() < MIN_NAMED_ENTRIES {
    return Vec::new();
  }
  paragraphs.extend(open);
  // Each paragraph's opening words (a name opens its first line).
  let leads: Vec<(Range<usize>, Vec<_>)> = paragraphs
    .into_iter()
    .map(|p| {
      let body = &text[p.clone()];
      let first = body.lines().next().unwrap_or(body);
      let lead = first.trim_start_matches(|c: char| matches!(c, '*' | '_' | '-' | '>') || c.is_whitespace());
      (p, name_words(lead).into_iter().take(MAX_LEAD_WORDS).collect())
    })
    .collect();
  let mut out = Vec::new();
  for run in runs(text, &entries) {
    let listed: Vec<Listed> = run
      .iter()
      .map(|(line, (title, address))| Listed {
        line: line.clone(),
        title: title.clone(),
        address: address.clone(),
        paragraphs: {
          let name = name_core(title);
          leads
            .iter()
            .filter(|(_, lead)| !name.is_empty() && opens_naming(lead, &name))
            .map(|(p, _)| p.clone())
            .collect()
        },
      })
      .collect();
    let named = listed.iter().filter(|l| !l.paragraphs.is_empty()).count();
    if named >= MIN_NAMED_ENTRIES && 2 * named >= listed.len() {
      out.extend(listed);
    }
  }
  out
}

/// An entry of a list of sources: the title it gives and its address.
type Entry = (String, String);

/// The entry a line of a list of sources gives: the line holds an address, and before it a
/// title (`title_of`), after the list's bullet or number.
fn entry(line: &str) -> Option<Entry> {
  let l = line.trim();
  if !l.contains("://") {
    return None;
  }
  let l = l.strip_prefix(['-', '*', '+']).map_or(l, str::trim_start);
  let numbered = l.trim_start_matches('(');
  let digits = numbered.bytes().take_while(u8::is_ascii_digit).count();
  let l = match numbered[digits..].strip_prefix(['.', ')']) {
    Some(rest) if digits > 0 => rest.trim_start(),
    _ => l,
  };
  // A markdown link's text is its title (`[Ed Wood](https://…)`).
  let link = inline_links(l)
    .into_iter()
    .next()
    .filter(|(link, _)| l.starts_with(link));
  let address = link
    .map(|(_, target)| target)
    .or_else(|| bare_urls(l).into_iter().next())?;
  let title = link.map_or_else(|| title_of(l), |(link, _)| Cow::Borrowed(link_text(link)));
  let title = title.trim_matches(|c: char| !c.is_alphanumeric() && c != ')');
  // What the line says besides its title and address: a reference's publisher and date,
  // not a description of what the page holds.
  let besides = l
    .split_whitespace()
    .count()
    .saturating_sub(title.split_whitespace().count());
  (title.contains(char::is_alphabetic)
    && title.len() <= MAX_LABEL
    && !title.contains("://")
    && besides <= MAX_ENTRY_WORDS)
    .then(|| (title.to_string(), address.to_string()))
}

/// The entries in runs: entries on consecutive lines, or with only blank lines between.
fn runs<'a>(text: &str, entries: &'a [(Range<usize>, Entry)]) -> Vec<&'a [(Range<usize>, Entry)]> {
  let mut out = Vec::new();
  let mut from = 0;
  for i in 1..=entries.len() {
    let apart = entries
      .get(i)
      .is_none_or(|next| !text[entries[i - 1].0.end..next.0.start].trim().is_empty());
    if apart {
      out.push(&entries[from..i]);
      from = i;
    }
  }
  out
}

/// Each line's range (without its line break), leaving out the lines of fenced code blocks.
fn lines_outside_code(text: &str) -> Vec<Range<usize>> {
  let mut out = Vec::new();
  let mut fenced = false;
  let mut at = 0;
  for line in text.split_inclusive('\n') {
    let range = at..at + line.trim_end_matches(['\n', '\r']).len();
    at += line.len();
    if line.trim_start().starts_with("```") {
      fenced = !fenced;
      continue;
    }
    if !fenced {
      out.push(range);
    }
  }
  out
}

#[cfg(test)]
mod tests {
  use super::*;

  const REPORT: &str = "# Findings\n\nEd Wood was an American filmmaker. He made cult films.\n\nTim Burton directed a film about him in 1994.\n\nThe weather was mild that year.\n\n## Sources\n\n- [Ed Wood](https://en.wikipedia.org/wiki/Ed_Wood)\n- [Tim Burton](https://en.wikipedia.org/wiki/Tim_Burton)\n- [Climate](https://example.com/climate)\n";

  #[test]
  fn a_list_of_sources_is_cited_by_the_paragraphs_that_open_naming_its_entries() {
    let listed = listed_sources(REPORT, |_| false);
    let titles: Vec<&str> = listed.iter().map(|l| l.title.as_str()).collect();
    assert_eq!(titles, ["Ed Wood", "Tim Burton", "Climate"]);
    let cited = |k: usize| -> Vec<&str> { listed[k].paragraphs.iter().map(|p| &REPORT[p.clone()]).collect() };
    assert_eq!(
      cited(0),
      ["Ed Wood was an American filmmaker. He made cult films."]
    );
    assert_eq!(cited(1), ["Tim Burton directed a film about him in 1994."]);
    assert!(cited(2).is_empty());
  }

  #[test]
  fn entries_are_read_however_the_list_writes_them() {
    for (line, title) in [
      ("1. Ed Wood — https://en.wikipedia.org/wiki/Ed_Wood", "Ed Wood"),
      ("(2) Ed Wood, https://en.wikipedia.org/wiki/Ed_Wood", "Ed Wood"),
      (
        "Ed Wood. (n.d.). In *Wikipedia*. Retrieved 1 May 2025, from https://en.wikipedia.org/wiki/Ed_Wood",
        "Ed Wood",
      ),
      ("* [Ed Wood](https://en.wikipedia.org/wiki/Ed_Wood)", "Ed Wood"),
    ] {
      let read = entry(line);
      assert_eq!(read.as_ref().map(|(t, _)| t.as_str()), Some(title), "{line}");
      assert_eq!(
        read.map(|(_, a)| a).as_deref(),
        Some("https://en.wikipedia.org/wiki/Ed_Wood")
      );
    }
    assert_eq!(entry("Ed Wood was a filmmaker."), None);
    // A line that describes its page is a search result, not a reference.
    assert_eq!(
      entry("1. [Ed Wood](https://en.wikipedia.org/wiki/Ed_Wood) — Ed Wood was an American filmmaker, actor and writer who made many low-budget films."),
      None
    );
  }

  /// Links a text offers as its answer are no list of its sources: no paragraph opens by
  /// naming them.
  #[test]
  fn links_given_as_the_answer_stay_text() {
    let answer = "The pages you asked for:\n\n- [Ed Wood](https://en.wikipedia.org/wiki/Ed_Wood)\n- [Tim Burton](https://en.wikipedia.org/wiki/Tim_Burton)\n";
    assert!(listed_sources(answer, |_| false).is_empty());
  }
}
