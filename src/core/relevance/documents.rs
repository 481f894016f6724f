//! Documents of several paragraphs: where a heading or a tool call titles what its first
//! paragraph is about (a page's title over its text), a paragraph after it that names
//! nothing of its own goes on with that document; and a section that holds one document
//! keeps what is printed around it (a reader's fields, a `Retrieved from` line) with it.

use rustc_hash::FxHashSet;

use super::groups::is_section_start;
use super::links::{call_titles, heading_titles};
use crate::core::segment::{is_title_block, Kind, Segment};
use crate::core::terms::is_stop_word;

/// Per block, what its first sentence tells of the document it is in.
pub(super) struct Paragraphs {
  /// It opens as prose does (`opens_as_prose`): not a title line, a record's piece or a
  /// list of sources.
  pub prose: Vec<bool>,
  /// A sentence of it opens as prose (a record's fields over its text hold one, a mail's
  /// header lines none).
  pub holds_prose: Vec<bool>,
  /// Its lead names something (a name of its own: `Tim Burton is…`).
  pub named: Vec<bool>,
  /// It goes on with the document of the block before it: both are paragraphs of one
  /// section whose start titles its first paragraph (`titles_its_lead`), it opens as
  /// prose, names nothing, and shares a word with the block before (an unrelated note
  /// under the same heading, "It rained all week.", shares none). Or it is in a section
  /// that holds one document's prose: the rest is that document's furniture.
  pub continues: Vec<bool>,
}

/// The blocks' `Paragraphs`. `container_of` is each segment's section (`sections`);
/// `names` gives the names a segment leads with, `listed` whether a segment is a listed
/// source.
pub(super) fn paragraphs(
  text: &str,
  folded: &str,
  segments: &[Segment],
  container_of: &[usize],
  names: impl Fn(usize) -> Vec<String>,
  listed: impl Fn(usize) -> bool,
) -> Paragraphs {
  let blocks = segments.last().map_or(0, |s| s.block + 1);
  let mut first_of = vec![usize::MAX; blocks];
  let mut end_of = vec![0; blocks];
  for (i, s) in segments.iter().enumerate().rev() {
    first_of[s.block] = i;
    end_of[s.block] = end_of[s.block].max(s.end);
  }
  let paragraph = |b: usize| first_of[b] != usize::MAX && segments[first_of[b]].kind == Kind::Text;
  let prose: Vec<bool> = (0..blocks)
    .map(|b| paragraph(b) && opens_as_prose(&text[segments[first_of[b]].start..segments[first_of[b]].end]))
    .collect();
  let mut holds_prose = prose.clone();
  for s in segments {
    holds_prose[s.block] |= s.kind == Kind::Text && opens_as_prose(&text[s.start..s.end]);
  }
  let named: Vec<bool> = (0..blocks)
    .map(|b| prose[b] && !names(first_of[b]).is_empty())
    .collect();
  // Per section: its start and its first paragraph.
  let sections = container_of.iter().max().map_or(0, |&c| c + 1);
  let mut start = vec![None; sections];
  let mut lead = vec![None; sections];
  for (i, s) in segments.iter().enumerate() {
    let c = container_of[i];
    if is_section_start(s.kind) {
      start[c].get_or_insert(i);
    } else if s.kind == Kind::Text {
      lead[c].get_or_insert(i);
    }
  }
  let mut titled: Vec<Option<bool>> = vec![None; sections];
  let words = |b: usize| -> FxHashSet<&str> {
    folded[segments[first_of[b]].start..end_of[b]]
      .split(|c: char| !c.is_alphanumeric())
      .filter(|w| w.len() >= MIN_SHARED_WORD && !is_stop_word(w))
      .collect()
  };
  let mut continues = vec![false; blocks];
  for b in 1..blocks {
    let (i, before) = (first_of[b], first_of[b - 1]);
    if !prose[b] || named[b] || !paragraph(b - 1) || container_of[i] != container_of[before] {
      continue;
    }
    let c = container_of[i];
    let titles_lead = *titled[c].get_or_insert_with(|| match (start[c], lead[c]) {
      (Some(s), Some(l)) => titles_its_lead(
        &text[segments[s].start..segments[s].end],
        segments[s].kind,
        &names(l),
      ),
      _ => false,
    });
    continues[b] = titles_lead && {
      let own = words(b);
      words(b - 1).iter().any(|w| own.contains(w))
    };
  }
  // A section that holds one document (a fetched page: its title, its address, the
  // site's menu and notes around one text) is one unit: its other blocks are that
  // document's furniture. A block of prose (not a title over its address that a sentence
  // seems to end in: `Maxim Media Marketing, Inc. - Wikipedia`), an item that closes as a
  // sentence (a finding, a result's snippet; a menu's links do not) and a listed source
  // are each a document of their own. Per section: how many it holds, and the last's block.
  let mut documents = vec![(0usize, 0usize); sections];
  for b in (0..blocks).filter(|&b| first_of[b] != usize::MAX) {
    let mut own = (first_of[b]..segments.len()).take_while(|&i| segments[i].block == b);
    let document = holds_prose[b] && !is_title_block(&text[segments[first_of[b]].start..end_of[b]])
      || own.any(|i| {
        listed(i)
          || segments[i].kind == Kind::Item && closes_as_sentence(&text[segments[i].start..segments[i].end])
      });
    if document {
      let c = container_of[first_of[b]];
      documents[c] = (documents[c].0 + 1, b);
    }
  }
  // Furniture after the document is a line (`Retrieved from "…"`); a list after it (a
  // bibliography, the links of a page's footer) is not the document's.
  let line = |b: usize| segments.get(first_of[b] + 1).is_none_or(|n| n.block != b);
  for b in 1..blocks {
    let (i, before) = (first_of[b], first_of[b - 1]);
    if i != usize::MAX && before != usize::MAX && container_of[i] == container_of[before] {
      let (count, document) = documents[container_of[i]];
      continues[b] |= count == 1 && (b <= document || line(b));
    }
  }
  Paragraphs {
    prose,
    holds_prose,
    named,
    continues,
  }
}

/// A word shorter than this (`is`, `of`, a digit) says nothing of what two paragraphs share.
const MIN_SHARED_WORD: usize = 3;

/// Whether a sentence opens as prose does: with a letter, a digit or a quote, closed by a
/// full stop, a question or an exclamation mark (before a closing quote or bracket).
/// Unlike the segmenter's `is_prose`, a short sentence is prose ("He won."; with that
/// one's length bound, the two-paragraph probe lost .025), and a bracket alone closes
/// none (a title line's `Ed Wood (film)`).
fn opens_as_prose(sentence: &str) -> bool {
  let t = sentence.trim();
  t.starts_with(|c: char| c.is_alphanumeric() || matches!(c, '"' | '\u{201c}')) && closes_as_sentence(t)
}

/// Whether text ends as a sentence does: a full stop, a question or an exclamation mark,
/// before any closing quote or bracket.
fn closes_as_sentence(text: &str) -> bool {
  text
    .trim_end()
    .trim_end_matches(['"', '\'', ')', '\u{201d}'])
    .ends_with(['.', '!', '?'])
}

/// Whether a section's start titles what its first paragraph is about: a heading or a
/// call names what the paragraph's lead names (`## Uruguayan War` over "The Uruguayan War
/// was…", `fetch {"url": "…/wiki/Ed_Wood"}` over "Ed Wood is…"), one of them whole or as
/// the first or last words of the other. A label over many documents (`# Notes`), a search
/// for the task or a role line titles none.
fn titles_its_lead(start: &str, kind: Kind, lead: &[String]) -> bool {
  let titles = match kind {
    Kind::Heading => heading_titles(start),
    Kind::Call => call_titles(start),
    _ => return false,
  };
  let within = |a: &str, b: &str| {
    a.strip_prefix(b).is_some_and(|rest| rest.starts_with(' '))
      || a.strip_suffix(b).is_some_and(|rest| rest.ends_with(' '))
  };
  titles
    .iter()
    .any(|t| lead.iter().any(|l| t == l || within(t, l) || within(l, t)))
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn prose_opens_with_a_word_and_closes_as_a_sentence() {
    assert!(opens_as_prose("He won the Tony Award three times."));
    assert!(opens_as_prose("\"Quoted,\" she said (twice)."));
    assert!(!opens_as_prose("James Bond (literary character)"));
    assert!(!opens_as_prose(
      ", url='https://en.wikipedia.org/wiki/Ed_Wood'), Result(content='It is."
    ));
    assert!(!opens_as_prose("\\begin{thebibliography}{10}"));
  }

  /// Per block of `text` (a tool result), its first line and whether it goes on with the
  /// block before it.
  fn continuing(text: &str) -> Vec<(String, bool)> {
    let mut segments = Vec::new();
    crate::core::segment::segment_part(
      text,
      0,
      0,
      crate::core::segment::Granularity::Sentence,
      &mut segments,
      0,
    );
    let (container_of, _) = super::super::groups::sections(&segments);
    let folded = text.to_lowercase();
    let p = paragraphs(text, &folded, &segments, &container_of, |_| Vec::new(), |_| false);
    let mut seen = FxHashSet::default();
    segments
      .iter()
      .filter(|s| seen.insert(s.block))
      .map(|s| {
        (
          text[s.start..s.end].lines().next().unwrap_or("").to_owned(),
          p.continues[s.block],
        )
      })
      .collect()
  }

  /// A fetched page's fields and label over its text, and the line after it that says
  /// where it was retrieved, go with it; a list after the text (a bibliography) does not,
  /// nor do the paragraphs of a section that holds two documents.
  #[test]
  fn a_section_of_one_document_holds_its_furniture() {
    let page = "# Fetched\n\nTitle: Sunfeast Open\n\nURL Source: https://x.org/Sunfeast_Open\n\nMarkdown Content:\n\nThe Sunfeast Open was an annual tennis tournament held in Kolkata.\n\nRetrieved from \"https://x.org/Sunfeast_Open\"\n\n\\begin{thebibliography}{2}\n\\bibitem{a} Sunfeast Open, \\url{https://x.org/Sunfeast_Open}\n\\bibitem{b} Kolkata, \\url{https://x.org/Kolkata}\n\\end{thebibliography}";
    let got = continuing(page);
    let goes_on = |opening: &str| got.iter().find(|(t, _)| t.starts_with(opening)).unwrap().1;
    assert!(
      goes_on("URL Source")
        && goes_on("Markdown Content")
        && goes_on("The Sunfeast Open")
        && goes_on("Retrieved from"),
      "{got:?}"
    );
    assert!(!goes_on("\\begin{thebibliography}"), "{got:?}");
    let two = "## Notes\n\nEd Wood was an American filmmaker.\n\nTim Burton is an American director.";
    assert!(continuing(two).iter().all(|(_, on)| !on), "{:?}", continuing(two));
  }

  #[test]
  fn a_start_titles_its_lead_where_they_name_one_thing() {
    let lead = ["the uruguayan war".to_owned(), "uruguayan war".to_owned()];
    assert!(titles_its_lead("## Uruguayan War", Kind::Heading, &lead));
    assert!(titles_its_lead(
      "→ fetch {\"url\": \"https://en.wikipedia.org/wiki/Uruguayan_War\"}",
      Kind::Call,
      &lead
    ));
    assert!(titles_its_lead(
      "## Dick Kauffman",
      Kind::Heading,
      &["kauffman".to_owned()]
    ));
    assert!(!titles_its_lead("# Notes", Kind::Heading, &lead));
    assert!(!titles_its_lead("## Uruguayan War", Kind::Role, &lead));
    assert!(!titles_its_lead("## Uruguayan War", Kind::Heading, &[]));
  }
}
