//! Scoring segments against a task: BM25 over the task's terms, with the paragraph,
//! the section and the neighbours of each segment counted, and links followed (a
//! section whose heading is named in relevant text becomes relevant too).

//!
//! - `bm25`: the one BM25 (also the ledger's ranker's);
//! - `weights`: every weight and threshold, named, with where its value came from;
//! - `index`: a text's term statistics for the tasks' vocabulary; `postings`: every
//!   form indexed once, for a thread prepared for many tasks, and its trigrams;
//! - `groups`: sections, the units they are read in, and blocks, scored as bags;
//!   `documents`: the paragraphs that go on with a document's first; `links`:
//!   titles (headings, calls, what a lead sentence names) and where text names them;
//!   `pair`: the two sections that answer together; `phrases`: the task's phrases found
//!   whole; `tables`: the rows of tables whose header names a title column;
//! - `feedback`: a task's vocabulary learned from what it already owns;
//! - here, `scores_with`: the steps above put together into a score per segment.

use std::borrow::Cow;
use std::sync::OnceLock;

pub mod bm25;
mod documents;
pub mod feedback;
mod groups;
mod index;
mod links;
mod pair;
mod phrases;
mod postings;
mod tables;
pub mod weights;

pub use groups::sections;
pub use index::{fold_ascii, Index};
pub use links::asks_for_nothing;
pub use phrases::phrase_bonuses;
pub use postings::{Postings, Trigrams};

use bm25::PHRASE;
use documents::{paragraphs, Paragraphs};
use groups::{group_scores, is_section_start, units, QueryTerms};
use links::{
  call_titles, code_call_titles, heading_titles, is_label_heading, is_lone_label, lead_titles, name_spans,
  named_titles, names_nothing, record_names, record_title, source_title, titles_named_by_task,
  without_parentheses,
};
use pair::lift_pair;
use weights::*;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::core::cancel::{Cancel, SEGMENTS_PER_CHECK};
use crate::core::citations::Sources;
use crate::core::segment::{
  closing_field_title, field_line, is_address, is_title_block, json_written, late_title, opens_record_piece,
  parent_headings, said, Kind, Segment,
};
use crate::core::terms::Terms;

/// Relevance of every segment to one query, on a 0..~3 scale where 0 means unrelated.
///
/// Sections (a heading and what follows it, a rendered message, or a paragraph when
/// there are no headings) are ranked first, since they are what a reader needs whole:
/// BM25 of the section, plus its title when the task names it, plus links: the title
/// of a section named in one of the most relevant sections, or a section that names
/// one of their titles; then the pair of titled sections that answer the task together
/// is put first (see `pair`). A segment's score is its section's relevance, its paragraph's,
/// its own, and a share for the lead sentence of a paragraph.
///
/// Also returns, beside the scores, each segment's evidence for ownership: the raw BM25 of the
/// segment and of its section, over the most the query could score (so tasks long and
/// short compare fairly). Unlike the scores, which are relative to the best in the
/// text, evidence can be compared between tasks to tell whose a segment is.
pub fn scores(text: &str, segments: &[Segment], index: &Index, query: &Terms) -> Relevance {
  let bonus = phrase_bonuses(&index.folded, segments, None, &[query]).remove(0);
  scores_with(text, segments, index, query, &bonus, &Leads::new(segments), false)
}

/// A text's relevance to one query (`scores`).
#[derive(Default)]
pub struct Relevance {
  /// Each segment's score.
  pub scores: Vec<f32>,
  /// Each segment's evidence for ownership.
  pub evidence: Vec<f32>,
  /// Per segment, whether it lies in the sections ranked first: the pair lifted to the
  /// top (`pair`), or else the best section; empty when tasks share the text.
  pub top: Vec<bool>,
}

/// `scores`, with the query's phrase bonus per segment already found (`phrase_bonuses`)
/// and the leads read for an earlier task kept (`Leads`); `whole_messages` keeps each
/// message and tool result one unit (when tasks share the text: see `units`).
pub fn scores_with(
  text: &str,
  segments: &[Segment],
  index: &Index,
  query: &Terms,
  bonus: &[f32],
  leads: &Leads,
  whole_messages: bool,
) -> Relevance {
  if segments.is_empty() {
    return Relevance::default();
  }
  let weights = index.weights(query);
  let bags = QueryTerms::new(index, &weights);
  // The sources a text lists for its citations (`[3] Ed Wood. https://…`) are what its
  // markers point to, not text: they score nothing, in no group, and name the units that
  // cite them (a kept citation brings its source along: see `extract`).
  let sources = leads.sources(text, segments);
  let listed = |i: usize| sources.is_some_and(|s| s.defines[i]);
  let bm25: Vec<f32> = (0..segments.len())
    .map(|i| {
      if listed(i) {
        0.0
      } else {
        index.bm25(bags.of(i), index.len[i], &weights)
      }
    })
    .collect();
  let own: Vec<f32> = (0..segments.len())
    .map(|i| if listed(i) { 0.0 } else { bm25[i] + bonus[i] })
    .collect();

  // Groups of segments scored as one bag of words: blocks (paragraphs, items, code)
  // and sections.
  let blocks = segments.last().map_or(0, |s| s.block + 1);
  let block_of: Vec<usize> = segments.iter().map(|s| s.block).collect();
  let (container_of, containers) = sections(segments);
  let block_score = group_scores(index, &bags, &weights, &bm25, &own, &block_of, blocks, |i| {
    !is_section_start(segments[i].kind) && !listed(i)
  })
  .score;
  // A document (plain text, a report) is read unit by unit, and so is a thread for one
  // task alone; with siblings, messages and tool results stay whole units, as ownership
  // between tasks is decided per message (units inside them moved the threads' sibling
  // share of the text from 1.78 % to 1.91-2.04 %).
  let thread = segments.iter().any(|s| s.kind == Kind::Role);
  let title_alone = leads.title_alone(text, segments);
  let paragraphs =
    (!(whole_messages && thread)).then(|| leads.paragraphs(text, &index.folded, segments, &container_of));
  let (section_of, sections, container_of_unit) = match paragraphs {
    None => (container_of.clone(), containers, (0..containers).collect()),
    Some(paragraphs) => units(
      segments,
      &container_of,
      containers,
      title_alone,
      &paragraphs.continues,
    ),
  };
  let mut units_in = vec![0usize; containers];
  for &c in &container_of_unit {
    units_in[c] += 1;
  }
  let section_bags = group_scores(index, &bags, &weights, &bm25, &own, &section_of, sections, |i| {
    !listed(i)
  });
  let section_bm25 = &section_bags.score;
  // Units refine sections, both numbered in the order they open: as many units as
  // sections are the sections themselves.
  let split = sections != containers;
  // Evidence of ownership is read per section (a message, a tool call with its
  // result); relevance is ranked per unit (`units`), called sections below.
  let container_bm25 = if split {
    Cow::Owned(
      group_scores(
        index,
        &bags,
        &weights,
        &bm25,
        &own,
        &container_of,
        containers,
        |i| !listed(i),
      )
      .score,
    )
  } else {
    Cow::Borrowed(section_bm25)
  };

  let norm = |v: f32, m: f32| if m > 0.0 { v / m } else { 0.0 };

  // Sections: where each starts and ends, its title (markdown headings only: a rendered
  // message's role line is no title), and its text, case-folded, for finding names.
  let mut span = vec![(usize::MAX, 0usize); sections];
  let mut size = vec![0usize; sections];
  for (i, &k) in section_of.iter().enumerate() {
    span[k].0 = span[k].0.min(i);
    span[k].1 = i + 1;
    size[k] += 1;
  }
  // A section's text: its span of the text, or, when other sections' segments lie
  // within the span (a tool result whose call stands before other calls), its own
  // segments joined.
  let body = |k: usize| -> Cow<'_, str> {
    let (first, end) = span[k];
    if size[k] == end - first {
      Cow::Borrowed(&index.folded[segments[first].start..segments[end - 1].end])
    } else {
      let own = (first..end).filter(|&i| section_of[i] == k);
      Cow::Owned(
        own
          .map(|i| &index.folded[segments[i].start..segments[i].end])
          .collect::<Vec<_>>()
          .join("\n"),
      )
    }
  };
  // A section's names: its heading's title, or what its tool call names (a role line
  // names nothing); where the heading or call stands over several units, each is named
  // by its own lead (and the heading or call by the task: `container_named`).
  let start_names = |s: &Segment| -> (Vec<String>, Naming) {
    let line = &text[s.start..s.end];
    match s.kind {
      // A line of code that calls with strings names as a tool call does.
      Kind::Heading => match code_call_titles(line) {
        Some(names) => (names, Naming::OneOf),
        None => (heading_titles(line), Naming::Written),
      },
      Kind::Call => (call_titles(line), Naming::OneOf),
      _ => (Vec::new(), Naming::Written),
    }
  };
  // Where the task is quoted, per unit (see `quoting` below).
  let quotes_found = quote_finds(&index.folded, segments, &container_of, &query.text);
  let quoted_unit = quoting_sections(&quotes_found, &section_of, sections);
  let mut title: Vec<(Vec<String>, Naming)> = span
    .iter()
    .enumerate()
    .map(|(k, &(first, end))| {
      let s = &segments[first];
      let whole = units_in[container_of_unit[k]] == 1;
      // A unit leads with its first paragraph or item, or the one under it where the first
      // is a line that names nothing (`names_nothing`: a label, a wrapper's tag), unless
      // that one names nothing either (`Route 66` over `It is a highway`).
      let lead = |from: usize| {
        let mut lines =
          (from..end).filter(|&i| section_of[i] == k && matches!(segments[i].kind, Kind::Text | Kind::Item));
        // A record whose title member follows its text (`{"content": "…", "name": "Ed
        // Wood"}`) is named by it; its own is its last, as its first piece may close the
        // record before it. Only a record's: its first piece opens as a list's, an object's
        // or the close of the record before (code written comma-first has such lines too).
        let record = (from..end)
          .find(|&i| section_of[i] == k)
          .is_some_and(|i| opens_record_piece(&text[segments[i].start..]));
        let last = (from..end).rev().find(|&i| section_of[i] == k);
        let late = record
          .then(|| {
            (from..end)
              .rev()
              .filter(|&i| section_of[i] == k)
              .find_map(|i| late_title(&text[segments[i].start..segments[i].end]))
          })
          .flatten()
          .or_else(|| last.and_then(|i| closing_field_title(&text[segments[i].start..segments[i].end])));
        if let Some(name) = late {
          return (vec![record_title(name)], Naming::AllOf(1));
        }
        let named = |i: usize| leads.of(text, segments, i);
        let Some(first) = lines.next() else {
          return (Vec::new(), Naming::AllOf(0));
        };
        let line = |i: usize| &text[segments[i].start..segments[i].end];
        if !names_nothing(line(first)) {
          // A title alone over the text (a pasted article's) names the unit as the text's
          // lead does too.
          return match lines.next().filter(|_| title_alone[segments[first].block]) {
            Some(next) => both_names(named(first), named(next)),
            None => named(first),
          };
        }
        // Under it, a label alone (`Call id: call_0` over `Observation:`) names nothing either.
        lines
          .find(|&i| !names_nothing(line(i)) && !is_lone_label(line(i)))
          .map(named)
          .filter(|(names, _)| !names.is_empty())
          .unwrap_or_else(|| named(first))
      };
      let (mut names, naming) = match s.kind {
        // A call that names nothing (`next_page {"page": 2}`) is titled by its result's
        // lead, as a paragraph is.
        Kind::Call if whole && asks_for_nothing(&text[s.start..s.end]) => lead(first + 1),
        // A role line names nothing: a message is titled by its lead, as a paragraph is,
        // unless it quotes the task (a question names what it asks about, not itself).
        // Not with siblings, where messages are whole units of ownership (leads read there
        // moved the threads' sibling share of the text from 1.53 % to 1.71 %).
        Kind::Role if whole && !whole_messages && !quoted_unit[k] => lead(first + 1),
        // A heading that labels what follows (`## Tool Output:`) names nothing of its own: the
        // section is titled by its lead, as a paragraph is. Not with siblings (leads read there
        // moved the threads' sibling share of the text from 1.604 % to 1.640 %).
        Kind::Heading if whole && !whole_messages && is_label_heading(&text[s.start..s.end]) => {
          lead(first + 1)
        }
        _ if is_section_start(s.kind) && whole => start_names(s),
        _ if is_section_start(s.kind) => lead(first + 1),
        // A paragraph or item that opens a unit (no heading, or a further paragraph
        // under one) leads with its title, unless it quotes the task, as a message does.
        Kind::Text | Kind::Item if !quoted_unit[k] => lead(first),
        _ => (Vec::new(), Naming::Written),
      };
      names.retain(|t| long_enough(t));
      (names, naming)
    })
    .collect();
  name_without_shared_suffix(&mut title);
  let chosen = distinctive_names(title.clone());
  let found = found_names(
    text,
    leads,
    &index.folded,
    segments,
    &section_of,
    &span,
    &title,
    &chosen,
    title_alone,
  );
  let mut title = chosen;
  for (names, more) in title.iter_mut().zip(found) {
    names.extend(more);
  }
  // Not with siblings, where messages are whole units of ownership (named by the headings
  // over them, the threads' sibling share of the kept messages rose from 0.637 % to 0.646 %).
  if let Some(paragraphs) = paragraphs {
    name_by_headings_over(text, segments, &span, paragraphs, &mut title);
  }
  // A unit that cites a listed source is named by it, as a heading names its section; a
  // unit of sources alone (a list with no heading over it) is named by none of them.
  if let Some(sources) = &sources {
    let mut has_text = vec![false; sections];
    for (i, &k) in section_of.iter().enumerate() {
      has_text[k] |= !listed(i) && !is_section_start(segments[i].kind);
    }
    for (k, names) in title.iter_mut().enumerate() {
      if !has_text[k] {
        names.clear();
      }
    }
    let mut named: FxHashSet<(usize, String)> = (0..sections)
      .flat_map(|k| title[k].iter().map(move |t| (k, t.clone())))
      .collect();
    for (i, cited) in sources.cites.iter().enumerate() {
      for &d in cited {
        let name = source_title(&Sources::title(text, segments, d));
        let k = section_of[i];
        if long_enough(&name) && named.insert((k, name.clone())) {
          title[k].push(name);
        }
      }
    }
  }
  // A heading or call over several units is named for all of them: when the task names
  // it, each is named ("## Installation" over three paragraphs). Its names are chosen
  // among the sections' (a file read in many paragraphs is one read); they are no unit's
  // own name, so units under one heading are not taken for one thing.
  let container_named = if split {
    let mut first = vec![usize::MAX; containers];
    for (i, &c) in container_of.iter().enumerate() {
      first[c] = first[c].min(i);
    }
    let names = (0..containers)
      .map(|c| {
        let (mut names, naming) = if units_in[c] > 1 {
          start_names(&segments[first[c]])
        } else {
          (Vec::new(), Naming::Written)
        };
        names.retain(|t| long_enough(t));
        (names, naming)
      })
      .collect();
    named_by_task(&query.text, &distinctive_names(names))
  } else {
    vec![false; containers]
  };
  // A section that quotes the task (the plan or request that set it) matches it like
  // nothing else can: it must not set the scale against which the task's own material
  // (the files it reads, what was found) looks faint, nor stand first among the sections
  // that links and pairs start from. It is scored just under the best of the others.
  // A call that asks for the task itself (a search for the question) quotes it too.
  // A quote is sought in units and in whole sections: where a message quotes the task
  // over several of its units and none holds it alone, each of them quotes it.
  let mut quoting = quoted_unit;
  let mut spread = if split {
    quoting_sections(&quotes_found, &container_of, containers)
  } else {
    vec![false; containers]
  };
  for (k, &c) in container_of_unit.iter().enumerate() {
    spread[c] &= !quoting[k];
  }
  for (k, q) in quoting.iter_mut().enumerate() {
    *q |= spread[container_of_unit[k]] || title[k].iter().any(|t| quotes(t, &query.text));
  }
  let others_best = (0..sections)
    .filter(|&k| !quoting[k])
    .map(|k| section_bm25[k])
    .fold(0.0, f32::max);
  let max_section = if others_best > 0.0 {
    others_best
  } else {
    max(section_bm25)
  };
  // Nor do its paragraphs and sentences set the scale of the others' (a question quoted
  // in the thread's first message had made every sentence of what was found look faint).
  // Not with siblings, where the quote's own terms set the scale, as the tasks' evidence
  // is compared message by message (scaled by the rest, the threads' sibling share of the
  // text rose from 1.53 % to 1.76 %).
  let mut quoting_block = vec![false; blocks];
  if !whole_messages {
    for (i, s) in segments.iter().enumerate() {
      quoting_block[s.block] |= quoting[section_of[i]];
    }
  }
  let max_own = max_unquoted(&own, |i| quoting_block[segments[i].block]);
  let max_block = max_unquoted(&block_score, |b| quoting_block[b]);
  // What quotes the task scores at most as the best of the rest.
  let own_share = |i: usize| norm(own[i], max_own).min(1.0);
  let named_by_task = named_by_task(&query.text, &title);
  let pointer = pointers(text, segments, &section_of, &span, &title);
  let mut relevance: Vec<f32> = (0..sections)
    .map(|k| {
      if pointer[k] {
        return 0.0;
      }
      let lexical = norm(section_bm25[k], max_section);
      // What quotes the task says nothing the task does not: it ranks with the faint
      // sections. Not with siblings, where the quote is the plan that tells the tasks
      // apart (capped at a half, the threads' own files named fell from 0.925 to 0.920):
      // there it stands just under the best other section, a tie going to the section
      // that is no quote.
      let lexical = if quoting[k] {
        lexical.min(if whole_messages {
          1.0 - f32::EPSILON
        } else {
          QUOTE_SHARE
        })
      } else {
        lexical
      };
      let named = named_by_task[k] || container_named[container_of_unit[k]];
      lexical + if named { W_TITLE } else { 0.0 }
    })
    .collect();
  // Links from the most relevant sections to the sections they name, and back.
  let mut order: Vec<usize> = (0..sections).filter(|&k| relevance[k] > 0.0).collect();
  order.sort_by(|&a, &b| relevance[b].total_cmp(&relevance[a]).then(a.cmp(&b)));
  let best = order.first().map_or(0.0, |&k| relevance[k]);
  let sources: Vec<(usize, f32, Cow<str>)> = order
    .iter()
    .take(LINK_SOURCES)
    .filter(|&&k| relevance[k] >= LINK_SOURCE * best)
    .map(|&k| (k, relevance[k] / best, body(k)))
    .collect();
  let mut linked = relevance.clone();
  if !sources.is_empty() {
    for (source, share, body) in &sources {
      for (k, named) in named_titles(body, &title).into_iter().enumerate() {
        if named && k != *source {
          linked[k] = linked[k].max(relevance[k] + W_LINK * share);
        }
      }
    }
    // Back links need every section's text; only titled sources can be named.
    let named_sources: Vec<(usize, f32, &str)> = sources
      .iter()
      .flat_map(|(k, share, _)| title[*k].iter().map(|t| (*k, *share, t.as_str())))
      .collect();
    // Each title is sought once in the whole text, and each find given to its section.
    for &(source, share, t) in &named_sources {
      for (at, end) in name_spans(&index.folded, t) {
        let k = section_of[segments.partition_point(|s| s.start <= at).max(1) - 1];
        if k != source && end <= segments[span[k].1 - 1].end && at >= segments[span[k].0].start {
          linked[k] = linked[k].max(relevance[k] + W_BACKLINK * share);
        }
      }
    }
  }
  relevance = linked;
  // Nor does a pointer take a link's or a pair's place.
  for (r, _) in relevance.iter_mut().zip(&pointer).filter(|(_, &p)| p) {
    *r = 0.0;
  }
  // The pair of sections that answer the task together comes first.
  let base: Vec<f32> = section_bm25.iter().map(|&v| norm(v, max_section)).collect();
  let pair = lift_pair(
    &mut relevance,
    &base,
    index,
    &weights,
    &section_bags,
    &title,
    &named_by_task,
    body,
  );
  let max_relevance = max(&relevance);

  let mass: f32 = (0..weights.len())
    .filter(|&t| index.df[t] > 0)
    .map(|t| weights[t] * index.idf(t))
    .sum::<f32>()
    + query.phrases.iter().map(|(_, w)| w * PHRASE).sum::<f32>();
  let evidence = (0..segments.len())
    .map(|i| {
      norm(
        own[i] + container_bm25[container_of[i]],
        mass.max(f32::MIN_POSITIVE),
      )
    })
    .collect();
  // A paragraph's lead introduces the rest when it names something or shares the task's
  // terms: "The build server was slow on Tuesday." introduces nothing a task about emails
  // reads on for. A message's opening line is read as its lead whatever it says (in
  // threads the rule raised the text sibling share from 1.78 % to 1.87 %).
  let scores = (0..segments.len())
    .map(|i| {
      let s = &segments[i];
      if listed(i) || pointer[section_of[i]] {
        return 0.0;
      }
      let section = norm(relevance[section_of[i]], max_relevance);
      if is_section_start(s.kind) {
        return W_SECTION * section;
      }
      let block = norm(block_score[s.block], max_block).min(1.0);
      if own[i] <= 0.0 && block <= 0.0 && section <= 0.0 {
        return 0.0;
      }
      let neighbour = [i.checked_sub(1), Some(i + 1)]
        .into_iter()
        .flatten()
        .filter(|&j| j < segments.len() && segments[j].block == s.block)
        .map(own_share)
        .fold(0.0, f32::max);
      // A web address alone says where its page is, not what it says: it has no words of
      // its own, nor a block's where it stands alone (a fetched page's address over its
      // text had outscored the text); it scores by its section and the line it stands
      // with (a search hit's title). A path alone is text: in a thread it names the file a
      // task works on (scored as its section's start, the threads' own files named fell from
      // 0.925 to 0.924).
      if is_web_address(&text[s.start..s.end]) {
        return W_SECTION * section + W_NEIGHBOUR * neighbour;
      }
      let opens = i == 0 || segments[i - 1].block != s.block;
      let lead = if opens && (thread || own[i] > 0.0 || !leads.of(text, segments, i).0.is_empty()) {
        W_LEAD * section.max(block)
      } else {
        0.0
      };
      W_SECTION * section + W_BLOCK * block + W_SEGMENT * own_share(i) + W_NEIGHBOUR * neighbour + lead
    })
    .collect();
  // The sections ranked first: the pair lifted to the top, or else the best section. With
  // siblings none are given, and the caller's messages set the scale as before: what
  // scores faintly there is as likely a sibling's (the pair left out of the scale raised
  // the threads' sibling share of the text from 1.54 % to 1.62 %).
  let top = if whole_messages {
    Vec::new()
  } else {
    let first = pair.map_or_else(
      || {
        (0..sections)
          .max_by(|&a, &b| relevance[a].total_cmp(&relevance[b]).then(b.cmp(&a)))
          .into_iter()
          .collect()
      },
      |pair| pair.to_vec(),
    );
    section_of.iter().map(|k| first.contains(k)).collect()
  };
  Relevance {
    scores,
    evidence,
    top,
  }
}

/// Whether a segment is a web address alone (a fetched page's, over its text).
fn is_web_address(segment: &str) -> bool {
  let t = segment.trim();
  t.contains("://") && is_address(t)
}

/// Per unit, whether it points to another: it is titles over web addresses only (a
/// search's hits listed before their pages are fetched) and a unit with text, under
/// another heading, bears one of its names. Its text is there; it scores nothing of its own.
fn pointers(
  text: &str,
  segments: &[Segment],
  section_of: &[usize],
  span: &[(usize, usize)],
  title: &[Vec<String>],
) -> Vec<bool> {
  let bare: Vec<bool> = span
    .iter()
    .enumerate()
    .map(|(k, &(first, end))| {
      let in_unit = |i: &usize| section_of[*i] == k;
      // A call's unit is what was done, however short its result.
      if title[k].is_empty()
        || (first..end)
          .filter(in_unit)
          .any(|i| segments[i].kind == Kind::Call)
      {
        return false;
      }
      let mut own = (first..end)
        .filter(in_unit)
        .filter(|&i| segments[i].kind != Kind::Role)
        .map(|i| text[segments[i].start..segments[i].end].trim());
      // Titles over the pages' web addresses, not paths (a listing of files names what a
      // task works on, as the files' contents do), nor a template's bold labels. The
      // first is asked first: most units open with no title block.
      let Some(opening) = own.next().filter(|t| is_title_block(t)) else {
        return false;
      };
      let mut web = opening.contains("://");
      for t in own {
        if !is_title_block(t) && !is_address(t) {
          return false;
        }
        web |= t.contains("://");
      }
      web
    })
    .collect();
  if !bare.contains(&true) {
    return bare;
  }
  // The heading each unit is under (its own, for a heading's unit): a unit that a heading
  // names with the units under it points to none of them.
  let head = |k: usize| {
    let first = span[k].0;
    match segments[first].kind {
      Kind::Heading => Some(first),
      _ => segments[first].heading,
    }
  };
  // The units with text that bear each name, under the heading each is under.
  let mut with_text: FxHashMap<&str, Vec<Option<usize>>> = FxHashMap::default();
  for k in (0..title.len()).filter(|&k| !bare[k]) {
    for t in &title[k] {
      with_text.entry(t.as_str()).or_default().push(head(k));
    }
  }
  (0..title.len())
    .map(|k| {
      bare[k]
        && title[k].iter().any(|t| {
          with_text
            .get(t.as_str())
            .is_some_and(|pages| pages.iter().any(|&page| page != head(k)))
        })
    })
    .collect()
}

/// Where the task is quoted: the segments holding the whole task (case-folded), then, for
/// a task of several lines, the segments holding each of its lines (a query made of a
/// task id and the task is quoted by a plan line as "A.1 Validate emails…"). A line
/// shorter than `MIN_QUOTE_BYTES` is not sought: a few words are found anywhere. The
/// text is searched once, whatever the sections are grouped into afterwards (units lie
/// within `container_of`'s sections): each line after the first only within the sections
/// that held every line before it, since only those can quote the task.
fn quote_finds(folded: &str, segments: &[Segment], container_of: &[usize], task: &str) -> Vec<Vec<usize>> {
  let task = task.trim();
  if task.len() < MIN_QUOTE_BYTES {
    return Vec::new();
  }
  let holders = |line: &str, from: usize, to: usize| -> Vec<usize> {
    memchr::memmem::find_iter(&folded.as_bytes()[from..to], line.as_bytes())
      .filter_map(|at| segments.partition_point(|s| s.start <= from + at).checked_sub(1))
      .collect()
  };
  // A call's arguments hold the task as JSON writes it (`\"Complex\" magazine`).
  let mut whole = holders(task, 0, folded.len());
  let mut written = vec![json_written(task, false), json_written(task, true)];
  written.dedup();
  for form in written.iter().filter(|form| *form != task) {
    whole.extend(holders(form, 0, folded.len()));
  }
  whole.sort_unstable();
  whole.dedup();
  let mut finds = vec![whole];
  if !task.contains('\n') {
    return finds;
  }
  // Where each section lies in the text, first segment to last.
  let sections = container_of.iter().max().map_or(0, |&c| c + 1);
  let mut span = vec![(usize::MAX, 0usize); sections];
  for (s, &c) in segments.iter().zip(container_of) {
    span[c] = (span[c].0.min(s.start), span[c].1.max(s.end));
  }
  let mut within: Option<Vec<usize>> = None;
  for line in task.lines().map(str::trim).filter(|l| l.len() >= MIN_QUOTE_BYTES) {
    let found: Vec<usize> = match &within {
      None => holders(line, 0, folded.len()),
      Some(candidates) => candidates
        .iter()
        .flat_map(|&c| holders(line, span[c].0, span[c].1))
        .collect(),
    };
    let mut held: Vec<usize> = found.iter().map(|&i| container_of[i]).collect();
    held.sort_unstable();
    held.dedup();
    finds.push(found);
    if held.is_empty() {
      break;
    }
    within = Some(held);
  }
  finds
}

/// Per section: whether it quotes the task (`quote_finds`): holds it whole, or holds each
/// of its lines.
fn quoting_sections(finds: &[Vec<usize>], section_of: &[usize], sections: usize) -> Vec<bool> {
  let holding = |segments: &[usize]| {
    let mut held = vec![false; sections];
    for &i in segments {
      held[section_of[i]] = true;
    }
    held
  };
  let Some((whole, lines)) = finds.split_first() else {
    return vec![false; sections];
  };
  let mut quoting = holding(whole);
  if let Some((first, rest)) = lines.split_first() {
    let mut all = holding(first);
    for line in rest {
      all.iter_mut().zip(holding(line)).for_each(|(a, h)| *a &= h);
    }
    quoting.iter_mut().zip(all).for_each(|(q, a)| *q |= a);
  }
  quoting
}

/// Whether a title is the task quoted, whole or for the most part (a search for the
/// question), rather than a name the task says: at least `MIN_QUOTE_BYTES` and half the
/// task, and held in it.
fn quotes(title: &str, task: &str) -> bool {
  title.len() >= MIN_QUOTE_BYTES && 2 * title.len() >= task.trim().len() && task.contains(title)
}

/// Which sections `task` names by one of their titles (the longest match: see
/// `named_titles`). A title that is the task quoted (a search for the question, over the
/// hits it lists) names nothing, and is left out before matching, or it would be the
/// longest match and hide the names the task gives inside it.
fn named_by_task(task: &str, titles: &[Vec<String>]) -> Vec<bool> {
  let quoted = |t: &String| quotes(t, task);
  if !titles.iter().flatten().any(quoted) {
    return titles_named_by_task(task, titles);
  }
  let unquoted: Vec<Vec<String>> = titles
    .iter()
    .map(|names| names.iter().filter(|t| !quoted(t)).cloned().collect())
    .collect();
  titles_named_by_task(task, &unquoted)
}

/// The names a search's results are also known by. A tool result is named by its call;
/// when its text never says the call's name, the call may hold more than the name of what
/// it found (a search's query: "Ed Wood wikipedia"). The result is then also named:
/// - as a paragraph is, by the name its first sentence opens with, where the query is that
///   name (its article left out, its parenthesized qualifier said) and words that calls
///   asking for other things repeat (how the calls ask, not what they ask for), and the
///   name has a word no other call asks for (`python` in `python reproduce.py` has none);
/// - by what the query asks for, its repeated words left out, where the result says it.
///
/// `calls` are every section's names as read, `chosen` the ones kept (`distinctive_names`).
#[allow(clippy::too_many_arguments)]
fn found_names(
  text: &str,
  leads: &Leads,
  folded: &str,
  segments: &[Segment],
  section_of: &[usize],
  span: &[(usize, usize)],
  calls: &[(Vec<String>, Naming)],
  chosen: &[Vec<String>],
  title_alone: &[bool],
) -> Vec<Vec<String>> {
  // A call's result: its segments after the call line.
  let result = |k: usize| (span[k].0 + 1..span[k].1).filter(move |&i| section_of[i] == k);
  let said = |k: usize, name: &str| {
    result(k).any(|i| !name_spans(&folded[segments[i].start..segments[i].end], name).is_empty())
  };
  // The results whose text never says their call's name: only those are named anew.
  let unsaid: Vec<bool> = (0..span.len())
    .map(|k| {
      segments[span[k].0].kind == Kind::Call && !chosen[k].is_empty() && !chosen[k].iter().any(|t| said(k, t))
    })
    .collect();
  if !unsaid.contains(&true) {
    return vec![Vec::new(); span.len()];
  }
  let mut distinct: Vec<&String> = calls
    .iter()
    .filter(|(_, naming)| *naming == Naming::OneOf)
    .flat_map(|(names, _)| names)
    .collect();
  distinct.sort_unstable();
  distinct.dedup();
  // How many different call names hold each word.
  let mut words_of_calls: FxHashMap<&str, usize> = FxHashMap::default();
  for name in distinct {
    let mut words: Vec<&str> = name.split(' ').collect();
    words.sort_unstable();
    words.dedup();
    for w in words {
      *words_of_calls.entry(w).or_insert(0) += 1;
    }
  }
  let calls_of = |w: &str| words_of_calls.get(w).copied().unwrap_or(0);
  let asks_only_for = |call: &str, name: &str| {
    name.split(' ').any(|w| calls_of(w) <= 1)
      && name_spans(call, name).first().is_some_and(|&(at, end)| {
        format!("{} {}", &call[..at], &call[end..])
          .split(' ')
          .filter(|w| !w.is_empty())
          .all(|w| calls_of(w) > 1)
      })
  };
  // Every result's lead, so that a name many results open with counts as shared.
  let lead_of: Vec<Option<usize>> = (0..span.len())
    .map(|k| {
      (segments[span[k].0].kind == Kind::Call)
        .then(|| result(k).find(|&i| segments[i].kind == Kind::Text))
        .flatten()
    })
    .collect();
  let leads = (lead_of.iter())
    .map(|lead| lead.map_or((Vec::new(), Naming::AllOf(0)), |i| leads.of(text, segments, i)))
    .collect();
  distinctive_names(leads)
    .into_iter()
    .enumerate()
    .map(|(k, lead)| {
      // A result that opens with no name is no page a search found.
      if !unsaid[k] || lead.is_empty() {
        return Vec::new();
      }
      // One that opens with a title alone over its text (a file that holds an article) is
      // named by that title, whatever the call asked for.
      if lead_of[k].is_some_and(|i| title_alone[segments[i].block] && result(k).any(|j| j > i)) {
        return lead;
      }
      // A query leaves out a name's article and says its qualifier: "the Uruguayan War"
      // is asked for as "Uruguayan War wikipedia", "the 1992 US Open" as "1992 US Open
      // (tennis) wikipedia".
      let asked: Vec<String> = chosen[k].iter().map(|t| without_parentheses(t)).collect();
      let mut found: Vec<String> = lead
        .iter()
        .map(|n| n.strip_prefix("the ").unwrap_or(n).to_owned())
        .filter(|n| asked.iter().any(|t| asks_only_for(t, n)))
        .collect();
      // Or what the query asks for, its repeated words left out, when the result says it
      // ("Lettuce necrotic yellows virus", whose lead names only "Lettuce").
      for t in &asked {
        let core = t
          .split(' ')
          .filter(|w| calls_of(w) <= 1)
          .collect::<Vec<_>>()
          .join(" ");
        if !core.is_empty() && core != *t && said(k, &core) && !found.contains(&core) {
          found.push(core);
        }
      }
      found.dedup();
      found
    })
    .collect()
}

/// A heading's unit is named by the headings over it too (`### Overview` under `##
/// Brassia`, a bold lead under its heading: `parent_headings`): they say what it is
/// about. Not by a heading over more than `MAX_NAMESAKES` units (`## Findings` over every
/// source's): it tells none of them apart. Under such names, a label the parts repeat
/// (`### Overview`) names none of them, and a heading alone in its unit gives its names to
/// the units under it. A heading over several paragraphs names the first of them, and
/// those after it that name nothing of their own (`Paragraphs`): they are its document's
/// (`## Stephen Sondheim` over "Sondheim has received…" and "He has been described as…");
/// one that names something is another's (`Tim Burton is…` under `# Notes`).
fn name_by_headings_over(
  text: &str,
  segments: &[Segment],
  span: &[(usize, usize)],
  paragraphs: &Paragraphs,
  title: &mut [Vec<String>],
) {
  let parents = parent_headings(text, segments);
  let heading = |first: usize| {
    segments[first]
      .heading
      .filter(|&h| segments[h].kind == Kind::Heading)
  };
  // Per heading, the first unit under it that holds prose (not a mail's header lines).
  let mut lead: FxHashMap<usize, usize> = FxHashMap::default();
  for &(first, _) in span {
    if let Some(h) = heading(first).filter(|_| paragraphs.holds_prose[segments[first].block]) {
      lead.entry(h).or_insert(first);
    }
  }
  let over = |first: usize| match segments[first].kind {
    Kind::Heading => parents[first],
    _ => heading(first).filter(|h| {
      let b = segments[first].block;
      lead.get(h) == Some(&first) || (paragraphs.prose[b] && !paragraphs.named[b])
    }),
  };
  let above = |k: usize| std::iter::successors(over(span[k].0), |&h| parents[h]);
  let mut under = vec![0usize; segments.len()];
  for k in 0..span.len() {
    for h in above(k) {
      under[h] += 1;
    }
  }
  let titles = |h: usize| heading_titles(&text[segments[h].start..segments[h].end]);
  // The titles of the units' own headings in an outline (under a heading or over one), and
  // how many units each titles.
  let own: Vec<Vec<String>> = span
    .iter()
    .map(|&(first, _)| match segments[first].kind {
      Kind::Heading if parents[first].is_some() || under[first] > 0 => titles(first),
      _ => Vec::new(),
    })
    .collect();
  let mut titled: FxHashMap<&str, usize> = FxHashMap::default();
  for name in own.iter().flatten() {
    *titled.entry(name.as_str()).or_insert(0) += 1;
  }
  let shared = |name: &str| titled.get(name).copied().unwrap_or(0);
  for k in 0..span.len() {
    let given: Vec<(usize, Vec<String>)> = above(k)
      .filter(|&h| under[h] <= MAX_NAMESAKES)
      .map(|h| (h, titles(h)))
      .collect();
    // A title that more units share than the nearest heading naming the unit stands over,
    // and than that heading's own title titles, is a part's label (`### Overview` under
    // each source's `## Ed Wood`, a `**Summary.**` lead under each): the heading names the
    // unit, the label does not. Under a heading as common (`# Agent: Researcher` over each
    // step of a log), the label is what tells the parts apart.
    if let Some((h, over)) = given.first() {
      let bound = under[*h].max(over.iter().map(|n| shared(n)).max().unwrap_or(0));
      title[k].retain(|n| !own[k].contains(n) || shared(n) <= bound);
    }
    for name in given.into_iter().flat_map(|(_, names)| names) {
      if long_enough(&name) && !title[k].contains(&name) {
        title[k].push(name);
      }
    }
  }
  // A heading alone in its unit, over units it names, is named in them: a link to it, or
  // a pair with it, is to what is written under it.
  for (k, &(first, end)) in span.iter().enumerate() {
    if end == first + 1 && (1..=MAX_NAMESAKES).contains(&under[first]) {
      title[k].clear();
    }
  }
}

/// A search's results are titled with their site after a dash or a bar (`Ed Wood -
/// Wikipedia`, `Tim Burton | Britannica`): where titled units share such a suffix, each
/// of them is named without it too, as a title is read (`Careers (board game) -
/// Wikipedia` is "careers", as `## Careers (board game)` is), whatever other units are
/// named (the calls that fetched the pages, by their addresses).
fn name_without_shared_suffix(titles: &mut [(Vec<String>, Naming)]) {
  fn suffix(t: &str) -> Option<&str> {
    SITE_SEPARATORS
      .iter()
      .filter_map(|sep| t.rfind(sep))
      .max()
      .map(|at| &t[at..])
  }
  let mut count: FxHashMap<&str, usize> = FxHashMap::default();
  for (names, _) in titles.iter() {
    if let Some(s) = names.first().and_then(|first| suffix(first)) {
      *count.entry(s).or_insert(0) += 1;
    }
  }
  let shared: Vec<String> = count
    .into_iter()
    .filter(|&(_, n)| n >= MIN_SITE_TITLES)
    .map(|(s, _)| s.to_owned())
    .collect();
  if shared.is_empty() {
    return;
  }
  for (names, _) in titles.iter_mut() {
    let bare: Vec<String> = names
      .iter()
      .filter_map(|t| shared.iter().find_map(|s| t.strip_suffix(s.as_str())))
      .map(source_title)
      .filter(|t| long_enough(t))
      .collect();
    for t in bare {
      if !names.contains(&t) {
        names.push(t);
      }
    }
  }
}

/// What stands between a result's title and its site's name.
const SITE_SEPARATORS: [&str; 4] = [" - ", " | ", " — ", " – "];
/// A suffix names a site when at least this many titles end with it: one title's suffix
/// is part of its name ("Star Wars - A New Hope" alone).
const MIN_SITE_TITLES: usize = 2;

/// A title shorter than `MIN_TITLE_CHARS` letters or digits is not sought as a name.
fn long_enough(title: &str) -> bool {
  title.chars().filter(|c| c.is_alphanumeric()).count() >= MIN_TITLE_CHARS
}

/// Each segment's names as the lead of a unit (`lead_names`), the sources the text lists
/// for its citations (`Sources`), its tables' row titles (`tables`) and its blocks that are
/// a title alone, read once for all the tasks a text is scored for, and by a prepared
/// thread once for all its extractions: they depend on the text alone.
pub struct Leads {
  names: Vec<OnceLock<(Vec<String>, Naming)>>,
  sources: OnceLock<Option<Sources>>,
  /// The title cells of tables' rows (`tables`), by the start of the row's line.
  rows: OnceLock<FxHashMap<usize, (usize, usize)>>,
  /// Per block, whether it is a title alone (`title_alone`).
  titles: OnceLock<Vec<bool>>,
  /// Per block, what its first sentence tells of its document (`documents`).
  paragraphs: OnceLock<Paragraphs>,
}

impl Leads {
  pub fn new(segments: &[Segment]) -> Self {
    Self {
      names: (0..segments.len()).map(|_| OnceLock::new()).collect(),
      sources: OnceLock::new(),
      rows: OnceLock::new(),
      titles: OnceLock::new(),
      paragraphs: OnceLock::new(),
    }
  }

  fn of(&self, text: &str, segments: &[Segment], i: usize) -> (Vec<String>, Naming) {
    self.read(text, segments, i).clone()
  }

  fn read(&self, text: &str, segments: &[Segment], i: usize) -> &(Vec<String>, Naming) {
    self.names[i].get_or_init(|| {
      // A table's row is titled by its cell under the header's title column (a lead that
      // opens a line and holds a cell's end).
      let lead = &text[segments[i].start..segments[i].end];
      let line = text[..segments[i].start].trim_end_matches([' ', '\t']).len();
      if lead.contains(['|', '\t']) && (line == 0 || text.as_bytes()[line - 1] == b'\n') {
        let rows = self.rows.get_or_init(|| tables::row_titles(text));
        if let Some(&(from, to)) = rows.get(&line) {
          return (vec![source_title(&text[from..to])], Naming::AllOf(1));
        }
      }
      let block = segments[i].block;
      let end = segments[i..]
        .iter()
        .take_while(|s| s.block == block)
        .last()
        .map_or(segments[i].end, |s| s.end);
      // A record written as fields (a ReAct step) is named by their values, of which one
      // names it, as a call's do.
      let paragraph = &text[segments[i].start..end];
      match record_names(paragraph) {
        Some(values) if !values.is_empty() => (values, Naming::OneOf),
        // None of its values a title (a step whose input is a sentence): named as a paragraph
        // is, by the lead of its first value that has names and is no question (a question
        // names what it asks about, which is what its answer is named by).
        Some(_) => paragraph
          .lines()
          .filter_map(field_line)
          .filter(|(_, value)| !value.ends_with('?'))
          .map(|(_, value)| lead_names(value, paragraph))
          .find(|(names, _)| !names.is_empty())
          .unwrap_or((Vec::new(), Naming::AllOf(0))),
        // A message's line leads with what it says, after its stamp and speaker (`[10:04]
        // bob: Ed Wood was…`).
        None => {
          let lead = &text[segments[i].start..segments[i].end];
          lead_names(said(lead).unwrap_or(lead), paragraph)
        }
      }
    })
  }

  /// Reads ahead, on a thread of its own, the names scoring asks for: every paragraph's
  /// and item's lead (`of`), the tables' rows with them. From the last block back, so
  /// that scoring, which asks from the first block on, meets it midway and neither waits
  /// for the other; whatever it has not read when scoring asks is read there. Stops when
  /// `cancel` is set (scoring sees it too).
  pub fn read_ahead(&self, text: &str, segments: &[Segment], cancel: &Cancel) {
    let opens = |i: usize| i == 0 || segments[i - 1].block != segments[i].block;
    for (n, i) in (0..segments.len()).rev().enumerate() {
      if n % SEGMENTS_PER_CHECK == 0 && cancel.check().is_err() {
        return;
      }
      if opens(i) && matches!(segments[i].kind, Kind::Text | Kind::Item) {
        self.read(text, segments, i);
      }
    }
  }

  fn sources(&self, text: &str, segments: &[Segment]) -> Option<&Sources> {
    self
      .sources
      .get_or_init(|| Sources::read(text, segments))
      .as_ref()
  }

  /// Per block, whether it opens as prose, names something, and goes on with the
  /// document before it (`documents::paragraphs`); `container_of` is `sections`'.
  fn paragraphs(
    &self,
    text: &str,
    folded: &str,
    segments: &[Segment],
    container_of: &[usize],
  ) -> &Paragraphs {
    self.paragraphs.get_or_init(|| {
      let sources = self.sources(text, segments);
      paragraphs(
        text,
        folded,
        segments,
        container_of,
        |i| {
          let mut names = self.of(text, segments, i).0;
          names.retain(|t| long_enough(t));
          names
        },
        |i| sources.is_some_and(|s| s.defines[i]),
      )
    })
  }

  /// Per block, whether it is a title alone: one segment of text that is a title line
  /// (`is_title_block`), as a message that pastes an article opens with its title.
  fn title_alone(&self, text: &str, segments: &[Segment]) -> &[bool] {
    self.titles.get_or_init(|| {
      let mut titles = vec![false; segments.last().map_or(0, |s| s.block + 1)];
      for (i, s) in segments.iter().enumerate() {
        let alone = (i == 0 || segments[i - 1].block != s.block)
          && segments.get(i + 1).is_none_or(|n| n.block != s.block);
        titles[s.block] = alone && s.kind == Kind::Text && is_title_block(&text[s.start..s.end]);
      }
      titles
    })
  }
}

/// A lead's names (`lead_titles`) long enough to be sought; of its short forms, none of one
/// word that its paragraph writes in lower case: a sentence capitalizes its first word
/// whatever it is ("Offshore wind power is…", "Building typology refers…"), and a word
/// the paragraph goes on to write as "offshore" is no name (truecasing: a word's case is
/// read from the rest of its text). A name the lead gives whole is kept as it is.
fn lead_names(lead: &str, paragraph: &str) -> (Vec<String>, Naming) {
  let (mut names, primary) = lead_titles(lead);
  let short = names.split_off(primary);
  let names: Vec<String> = names.into_iter().filter(|t| long_enough(t)).collect();
  let primary = names.len();
  let short = short
    .into_iter()
    .filter(|t| long_enough(t) && !common_word(t, paragraph));
  (names.into_iter().chain(short).collect(), Naming::AllOf(primary))
}

/// Whether a name (case-folded) is one word with letters that `text` writes in lower case
/// as a word of its own: in a command, a file's name or an address (`redis-server`,
/// `webpack.config.js`) a name is written in lower case too.
fn common_word(name: &str, text: &str) -> bool {
  let joined = |c: Option<char>| c.is_some_and(|c| matches!(c, '-' | '.' | '/' | '_' | ':' | '@' | '\\'));
  !name.contains(' ')
    && name.starts_with(char::is_lowercase)
    && name_spans(text, name)
      .into_iter()
      .any(|(at, end)| !joined(text[..at].chars().next_back()) && !joined(text[end..].chars().next()))
}

/// The names of a title and of the lead under it, each a lead's (`Naming::AllOf`): their
/// names, then their short forms. Where either is named otherwise, the title's.
fn both_names(title: (Vec<String>, Naming), lead: (Vec<String>, Naming)) -> (Vec<String>, Naming) {
  let ((names, Naming::AllOf(n)), (more, Naming::AllOf(m))) = (&title, &lead) else {
    return title;
  };
  let (n, m) = ((*n).min(names.len()), (*m).min(more.len()));
  let all = names[..n]
    .iter()
    .chain(&more[..m])
    .chain(&names[n..])
    .chain(&more[m..])
    .cloned()
    .collect();
  (all, Naming::AllOf(n + m))
}

/// How a section's candidate names name it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Naming {
  /// A heading: its title as written, however many sections share it (a report's
  /// sections titled by the source they cite).
  Written,
  /// A call's values: names of different things, of which one names the call.
  OneOf,
  /// A lead's ways to say one name: its names first (this many), then their short forms.
  AllOf(usize),
}

/// Each section's names: a heading's as written; of a call's values, the one fewest
/// sections share (`lookup {topic: "Ed Wood", source: "wikipedia"}` is named "ed wood",
/// `view {path}` by its path), the longest of equals; a lead's ways to say its name, all.
/// Names found by reading (a call's, a lead's) that more than `MAX_NAMESAKES` sections
/// share (`view`, a file every round reads) tell none of them apart and are dropped.
fn distinctive_names(titles: Vec<(Vec<String>, Naming)>) -> Vec<Vec<String>> {
  let mut count: FxHashMap<&str, usize> = FxHashMap::default();
  for t in titles.iter().flat_map(|(names, _)| names) {
    *count.entry(t.as_str()).or_insert(0) += 1;
  }
  let names: Vec<Vec<String>> = titles
    .iter()
    .map(|(names, naming)| {
      if *naming == Naming::Written {
        return names.clone();
      }
      // A lead's short forms (after its names) must each be its own: "music school"
      // shortens four schools' names and names none of them.
      let mut names: Vec<(usize, &String)> = names
        .iter()
        .enumerate()
        .map(|(at, t)| (at, count[t.as_str()], t))
        .filter(|&(at, n, _)| {
          n <= if matches!(*naming, Naming::AllOf(primary) if at >= primary) {
            1
          } else {
            MAX_NAMESAKES
          }
        })
        .map(|(_, n, t)| (n, t))
        .collect();
      names.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.len().cmp(&a.1.len())).then(a.1.cmp(b.1)));
      if *naming == Naming::OneOf {
        names.truncate(1);
      }
      names.into_iter().map(|(_, t)| t.clone()).collect()
    })
    .collect();
  names
}

fn max(v: &[f32]) -> f32 {
  v.iter().copied().fold(0.0, f32::max)
}

/// The most of `v` outside what quotes the task, or the most of all when only quotes score.
fn max_unquoted(v: &[f32], quotes: impl Fn(usize) -> bool) -> f32 {
  let others = (0..v.len())
    .filter(|&i| !quotes(i))
    .map(|i| v[i])
    .fold(0.0, f32::max);
  if others > 0.0 {
    others
  } else {
    max(v)
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::core::cancel::Cancel;
  use crate::core::segment::{segment, Granularity};

  fn scored(text: &str, task: &str) -> Vec<(String, f32)> {
    let mut segs = Vec::new();
    segment(text, 0, 0, Granularity::Sentence, &mut segs, 0);
    let terms = Terms::of_task(task);
    let index = Index::build(text, &segs, &[&terms]);
    let s = scores(text, &segs, &index, &terms).scores;
    segs
      .iter()
      .zip(s)
      .map(|(g, v)| (text[g.start..g.end].to_owned(), v))
      .collect()
  }

  #[test]
  fn matching_text_outscores_unrelated_text() {
    let s = scored(
      "The rate limiter leaks memory.\n\nThe README lists routes.\n\nCats sleep a lot.",
      "fix the rate limiter memory leak",
    );
    assert!(s[0].1 > s[1].1);
    assert_eq!(s[2].1, 0.0);
  }

  #[test]
  fn a_section_named_in_relevant_text_is_followed() {
    let text = "## Ed Wood (film)\n\nEd Wood is a film directed by Tim Burton.\n\n## Tim Burton\n\nTim Burton was born in Burbank.\n\n## Cats\n\nCats sleep.";
    let s = scored(text, "Where was the director of the film Ed Wood born?");
    let burbank = s.iter().find(|x| x.0.contains("Burbank")).unwrap().1;
    let cats = s.iter().find(|x| x.0 == "Cats sleep.").unwrap().1;
    assert!(burbank > 0.3, "{s:?}");
    assert!(burbank > cats);
  }

  /// A sub-heading every source repeats (`### Overview`) is a label, not a name: the
  /// section the task names leads to the source it names, not to every overview.
  #[test]
  fn a_label_under_every_title_names_none_of_them() {
    let text = [
      ("Walter Karig", "Walter Karig wrote naval histories."),
      (
        "Surprised by Joy",
        "Surprised by Joy is a partial autobiography published by C. S. Lewis in 1955.",
      ),
      ("C. S. Lewis", "Clive Staples Lewis was a scholar at Oxford."),
      ("Elizabeth von Arnim", "Elizabeth von Arnim wrote novels."),
    ]
    .map(|(title, text)| format!("## {title}\n\n### Overview\n\n{text}"))
    .join("\n\n");
    for label in ["### Overview\n\n", "**Overview.** "] {
      let text = text.replace("### Overview\n\n", label);
      let s = scored(&text, "Who wrote Surprised by Joy?");
      let score = |start: &str| s.iter().find(|x| x.0.trim_start().starts_with(start)).unwrap().1;
      let lewis = score("Clive Staples Lewis");
      assert!(lewis > score("Walter Karig wrote"), "{label}: {s:?}");
      assert!(lewis > score("Elizabeth von Arnim wrote"), "{label}: {s:?}");
    }
  }

  /// A record whose first line names nothing (a numbered label, a wrapper's tag) is titled
  /// by the line under it, so that the record that names it leads to it.
  #[test]
  fn a_label_over_a_title_field_leaves_the_record_its_title() {
    the_director_is_followed("<results>\nDocument: 0\ntitle: Ed Wood (film)\ntext: Ed Wood is a film directed by Tim Burton.\n\nDocument: 1\ntitle: Tim Burton\ntext: He grew up in Burbank.\n\nDocument: 2\ntitle: Bela Lugosi\ntext: Bela Lugosi starred in films by Ed Wood, who directed him until he died.\n</results>");
  }

  /// The film's record names its director, whose record holds the answer and shares no word
  /// with the task: it outscores an actor's that shares several.
  fn the_director_is_followed(text: &str) {
    let s = scored(text, "Where did the director of the film Ed Wood grow up?");
    let burbank = s.iter().find(|x| x.0.contains("Burbank")).unwrap().1;
    let lugosi = s.iter().find(|x| x.0.contains("Lugosi starred")).unwrap().1;
    assert!(burbank > lugosi, "{s:?}");
  }

  /// A sentence's capital is no name's: a paragraph leading with "Offshore wind power is…"
  /// that goes on to write "offshore" is not named "offshore" by a task about an offshore
  /// wind farm; a genus it writes capitalized throughout stays a name.
  #[test]
  fn a_word_the_paragraph_writes_in_lower_case_is_no_name() {
    let text = "Offshore wind power is in the early stages of development in the United States. Most offshore projects there are still planned.\n\nNorth Hoyle is the first wind farm built off the coast of Wales. It stands in Liverpool Bay.\n\nLiverpool Bay is a bay of the Irish Sea.";
    let s = scored(
      text,
      "Which bay of the Irish Sea holds the first offshore wind farm of Wales?",
    );
    let score = |needle: &str| s.iter().find(|x| x.0.contains(needle)).unwrap().1;
    // It shares a word with the task and is named by none: far under the wind farm's.
    assert!(
      2.0 * score("Offshore wind power") < score("North Hoyle is"),
      "{s:?}"
    );
    let names = |lead: &str, paragraph: &str| lead_names(lead, paragraph).0;
    let lead = "Offshore wind power is in the early stages of development.";
    assert!(
      !names(lead, &format!("{lead} Most offshore projects are planned.")).contains(&"offshore".to_owned())
    );
    // A name written in lower case in a command or a file's name is still a name.
    let lead = "Redis cluster mode is a way to shard data across nodes.";
    assert!(names(
      lead,
      &format!("{lead} Start each node with redis-server --cluster-enabled yes.")
    )
    .contains(&"redis".to_owned()));
    let lead = "Centaurium pulchellum is a species of flowering plant.";
    assert!(
      names(lead, &format!("{lead} Centaurium species flower in June.")).contains(&"centaurium".to_owned())
    );
  }

  /// Records whose title member follows their text (a vector store's matches, documents
  /// with their `metadata` after their `page_content`) are named by it.
  #[test]
  fn a_title_after_the_text_names_its_record() {
    the_director_is_followed(
      r#"[{"text":"Ed Wood is a film directed by Tim Burton.","title":"Ed Wood (film)"},{"text":"He grew up in Burbank.","title":"Tim Burton"},{"text":"Bela Lugosi starred in films by Ed Wood, who directed him until he died.","title":"Bela Lugosi"}]"#,
    );
    the_director_is_followed(
      r#"[{"page_content":"Ed Wood is a film directed by Tim Burton.","metadata":{"source":"https://en.wikipedia.org/wiki/Ed_Wood_(film)","score":0.9}},{"page_content":"He grew up in Burbank.","metadata":{"source":"https://en.wikipedia.org/wiki/Tim_Burton","score":0.8}},{"page_content":"Bela Lugosi starred in films by Ed Wood, who directed him until he died.","metadata":{"source":"https://en.wikipedia.org/wiki/Bela_Lugosi","score":0.7}}]"#,
    );
    // YAML items whose source field closes them.
    the_director_is_followed(
      "findings:\n  - claim: \"Ed Wood is a film directed by Tim Burton.\"\n    source: https://en.wikipedia.org/wiki/Ed_Wood_(film)\n  - claim: \"He grew up in Burbank.\"\n    source: https://en.wikipedia.org/wiki/Tim_Burton\n  - claim: \"Bela Lugosi starred in films by Ed Wood, who directed him until he died.\"\n    source: https://en.wikipedia.org/wiki/Bela_Lugosi\n",
    );
  }

  /// Documents as Python's `print` and Node's `console.log` show them are records too.
  #[test]
  fn printed_documents_are_records() {
    the_director_is_followed("[Document(metadata={'source': 'https://en.wikipedia.org/wiki/Ed_Wood_(film)', 'title': 'Ed Wood (film)'}, page_content='Ed Wood is a film directed by Tim Burton.'), Document(metadata={'source': 'https://en.wikipedia.org/wiki/Tim_Burton', 'title': 'Tim Burton'}, page_content='He grew up in Burbank.'), Document(metadata={'source': 'https://en.wikipedia.org/wiki/Bela_Lugosi', 'title': 'Bela Lugosi'}, page_content='Bela Lugosi starred in films by Ed Wood, who directed him until he died.')]");
    the_director_is_followed("[\n  Document {\n    pageContent: 'Ed Wood is a film directed by Tim Burton.',\n    metadata: { title: 'Ed Wood (film)' }\n  },\n  Document {\n    pageContent: 'He grew up in Burbank.',\n    metadata: { title: 'Tim Burton' }\n  },\n  Document {\n    pageContent: 'Bela Lugosi starred in films by Ed Wood, who directed him until he died.',\n    metadata: { title: 'Bela Lugosi' }\n  }\n]");
  }

  /// A table's rows are titled by the column their header names a title's, wherever it
  /// stands: tab-separated, markdown, psql.
  #[test]
  fn a_row_is_titled_by_its_title_column() {
    let long =
      "Bela Lugosi starred in films by Ed Wood, who directed him until he died, in a career of many roles.";
    the_director_is_followed(&format!("id\ttext\ttitle\n1\tEd Wood is a film directed by Tim Burton and it came out in the autumn of that year.\tEd Wood (film)\n2\tHe grew up in Burbank, California, a city north of the film studios of Los Angeles where he would later work for many years.\tTim Burton\n3\t{long}\tBela Lugosi"));
    the_director_is_followed(&format!("| # | Passage | Source |\n|---|---|---|\n| 1 | Ed Wood is a film directed by Tim Burton. | Ed Wood (film) |\n| 2 | He grew up in Burbank. | Tim Burton |\n| 3 | {long} | Bela Lugosi |"));
  }

  /// Search results titled with their site (`Tim Burton - Wikipedia`) are named without it.
  #[test]
  fn a_site_shared_by_the_titles_is_no_part_of_their_names() {
    the_director_is_followed("## Ed Wood (film) - Wikipedia\n\nEd Wood is a film directed by Tim Burton.\n\n## Tim Burton - Wikipedia\n\nHe grew up in Burbank.\n\n## Bela Lugosi - Wikipedia\n\nBela Lugosi starred in films by Ed Wood, who directed him until he died.");
  }

  /// A title without its site is read as any title: its qualifier and a place's region set
  /// aside.
  #[test]
  fn a_title_without_its_site_is_named_without_its_qualifier() {
    let mut titles: Vec<(Vec<String>, Naming)> = [
      "careers (board game) - wikipedia",
      "risk (game) - wikipedia",
      "santa fe, missouri - wikipedia",
    ]
    .iter()
    .map(|t| (vec![(*t).to_owned()], Naming::Written))
    .collect();
    name_without_shared_suffix(&mut titles);
    let names: Vec<&str> = titles.iter().map(|(names, _)| names[1].as_str()).collect();
    assert_eq!(names, ["careers", "risk", "santa fe"]);
    // Among more units named otherwise (the calls that fetched the pages, by their
    // addresses), and beside another site's titles.
    let mut titles: Vec<(Vec<String>, Naming)> = [
      "careers (board game) - wikipedia",
      "risk (game) | britannica",
      "ed wood",
      "tim burton",
      "bela lugosi",
      "monopoly (game) | britannica",
      "santa fe, missouri - wikipedia",
    ]
    .iter()
    .map(|t| (vec![(*t).to_owned()], Naming::Written))
    .collect();
    name_without_shared_suffix(&mut titles);
    let bare: Vec<&str> = titles
      .iter()
      .filter_map(|(names, _)| names.get(1))
      .map(String::as_str)
      .collect();
    assert_eq!(bare, ["careers", "risk", "monopoly", "santa fe"]);
  }

  /// `Question: <task>` over two paragraphs, the second faint: it scores over the question.
  fn the_faint_paragraph_outranks_the_question(task: &str, sections: &str, faint: &str) {
    let s = scored(&format!("Question: {task} Answer briefly.\n\n{sections}"), task);
    let score = |needle: &str| s.iter().find(|x| x.0.contains(needle)).unwrap().1;
    assert!(score(faint) > score("Question:"), "{s:?}");
  }

  /// What quotes the task says nothing the task does not: it ranks under the sections
  /// that say something of it, the faint ones too.
  #[test]
  fn a_quote_of_the_task_ranks_under_what_speaks_of_it() {
    the_faint_paragraph_outranks_the_question(
      "why does the rate limiter leak memory?",
      "The rate limiter keeps a map of clients that never shrinks.\n\nIts memory grows by a few bytes a client.",
      "Its memory",
    );
  }

  /// A paragraph that quotes the task names what the task asks about, not itself: it is
  /// named by no name it leads with.
  #[test]
  fn a_quote_of_the_task_is_named_by_none_of_its_names() {
    the_faint_paragraph_outranks_the_question(
      "Where did the director of the film Ed Wood grow up?",
      "Ed Wood is a 1994 film directed by Tim Burton.\n\nCritics said the director made the film on a small budget.",
      "Critics",
    );
  }

  /// Captions' chapters: a cue that is a label alone (`[Tim Burton]`) heads the cues up to
  /// the next, as a heading does (a WebVTT `NOTE` too: `captions::chapter_titles`).
  #[test]
  fn a_caption_chapter_is_named_by_its_label() {
    let cue = |n: usize, text: &str| {
      format!(
        "{n}\n00:00:{:02},000 --> 00:00:{:02},000\n{text}\n\n",
        2 * n,
        2 * n + 2
      )
    };
    let srt = [
      cue(1, "[Ed Wood (film)]"),
      cue(2, "Ed Wood is a film directed by Tim Burton."),
      cue(3, "[Tim Burton]"),
      cue(4, "He grew up in Burbank."),
      cue(5, "[Bela Lugosi]"),
      cue(
        6,
        "Bela Lugosi starred in films by Ed Wood, who directed him until he died.",
      ),
    ]
    .concat();
    the_director_is_followed(&srt);
  }

  /// A heading that labels what follows (`## Tool Output:`, as CrewAI's log prints a tool's
  /// output) names nothing: its section is named by its lead.
  #[test]
  fn a_label_heading_leaves_its_section_to_its_lead() {
    assert!(is_label_heading("## Tool Output:") && is_label_heading("### Observation:"));
    assert!(!is_label_heading("## Ed Wood") && !is_label_heading("## Thought: I should look up Ed Wood."));
    let step = |name: &str, output: &str| {
      format!("# Agent: Analyst\n## Using tool: Wikipedia Reader\n## Tool Input:\n\"{{\\\"title\\\": \\\"{name}\\\"}}\"\n## Tool Output:\n{output}\n\n")
    };
    // The output that is about what the task names leads with it, and is named by it.
    let log = [
      step(
        "Johnny Depp",
        "Johnny Depp starred in films by Tim Burton. He grew up in Owensboro.",
      ),
      step(
        "Tim Burton",
        "Tim Burton is an American filmmaker. He grew up in Burbank.",
      ),
    ]
    .concat();
    let s = scored(&log, "Where did Tim Burton grow up?");
    let score = |needle: &str| s.iter().find(|x| x.0.contains(needle)).unwrap().1;
    assert!(
      score("He grew up in Burbank") > score("He grew up in Owensboro"),
      "{s:?}"
    );
  }

  /// A chat export's messages: the header over each (its stamp and author) names nothing,
  /// so the title under it names the message; a conversation's line leads with what it says,
  /// after its stamp and speaker.
  #[test]
  fn a_message_is_named_under_its_stamp() {
    the_director_is_followed("[3/1/2024 10:01 AM] bob\n**Ed Wood (film)**\nEd Wood is a film directed by Tim Burton.\n\n[3/1/2024 10:02 AM] bob\n**Tim Burton**\nHe grew up in Burbank.\n\n[3/1/2024 10:03 AM] bob\n**Bela Lugosi**\nBela Lugosi starred in films by Ed Wood, who directed him until he died.");
    assert!(names_nothing("[3/1/2024 10:02 AM] bob") && names_nothing("[10:02] Ada Lovelace"));
    assert!(!names_nothing("[3] Ed Wood") && !names_nothing("[10:02] bob: Ed Wood is a film."));
    let chat = "[10:01] bob: Ed Wood is a film directed by Tim Burton.\n[10:02] carol: Tim Burton is an American filmmaker. He grew up in Burbank.";
    let mut segs = Vec::new();
    segment(chat, 0, 0, Granularity::Sentence, &mut segs, 0);
    let leads = Leads::new(&segs);
    let named = |i: usize| leads.of(chat, &segs, i).0;
    assert!(named(0).contains(&"ed wood".to_owned()), "{:?}", named(0));
    assert!(named(1).contains(&"tim burton".to_owned()), "{:?}", named(1));
  }

  /// A ReAct trajectory's steps (`Thought:` … `Action Input: Tim Burton` … `Observation:
  /// …`, no blank line between) are records, each named by the value its call was made
  /// with.
  #[test]
  fn a_step_is_named_by_its_action_input() {
    the_director_is_followed("Thought: I should look up the film.\nAction: wikipedia\nAction Input: Ed Wood (film)\nObservation: Ed Wood is a film directed by Tim Burton.\nThought: I should look up the director.\nAction: wikipedia\nAction Input: Tim Burton\nObservation: He grew up in Burbank.\nThought: I should look up the star.\nAction: wikipedia\nAction Input: Bela Lugosi\nObservation: Bela Lugosi starred in films by Ed Wood, who directed him until he died.");
    the_director_is_followed("Thought 1: I should look up the film.\nAction 1: Search[Ed Wood (film)]\nObservation 1: Ed Wood is a film directed by Tim Burton.\nThought 2: I should look up the director.\nAction 2: Search[Tim Burton]\nObservation 2: He grew up in Burbank.\nThought 3: I should look up the star.\nAction 3: Search[Bela Lugosi]\nObservation 3: Bela Lugosi starred in films by Ed Wood, who directed him until he died.");
  }

  /// A search's hits listed by title and address before their pages are read point to the
  /// pages: they score nothing of their own, the pages do.
  #[test]
  fn a_list_of_titles_points_to_the_pages_it_lists() {
    let list = "Ed Wood (film)\nhttps://x.org/Ed_Wood_(film)\n\nTim Burton\nhttps://x.org/Tim_Burton\n\nBela Lugosi\nhttps://x.org/Bela_Lugosi";
    let pages = "# Ed Wood (film)\n\nEd Wood is a film directed by Tim Burton.\n\n# Tim Burton\n\nHe grew up in Burbank.";
    let s = scored(&format!("{list}\n\n{pages}"), "Who directed the film Ed Wood?");
    let listed = s.iter().take_while(|x| !x.0.starts_with('#'));
    assert!(
      listed.clone().count() >= 3 && listed.clone().all(|x| x.1 == 0.0),
      "{s:?}"
    );
    let film = s.iter().find(|x| x.0.contains("directed by")).unwrap().1;
    assert!(film > 0.0, "{s:?}");
    // A list whose titles no page bears is what there is: it keeps its scores.
    let s = scored(list, "Who directed the film Ed Wood?");
    assert!(s.iter().any(|x| x.1 > 0.0), "{s:?}");
  }

  /// A search result that opens with a link to its page (`[Tim Burton - Wikipedia](https://…)`
  /// over the snippet, as DuckDuckGo's tool prints them) is named by the link's words.
  #[test]
  fn a_link_over_a_snippet_names_it() {
    the_director_is_followed("## Search Results\n\n[Ed Wood (film) - Wikipedia](https://en.wikipedia.org/wiki/Ed_Wood_(film))\nEd Wood is a film directed by Tim Burton.\n\n[Tim Burton - Wikipedia](https://en.wikipedia.org/wiki/Tim_Burton)\nHe grew up in Burbank.\n\n[Bela Lugosi - Wikipedia](https://en.wikipedia.org/wiki/Bela_Lugosi)\nBela Lugosi starred in films by Ed Wood, who directed him until he died.");
  }

  /// A request that quotes the task must not be where links start from: the section it
  /// names through the document it leads to still counts.
  #[test]
  fn a_quote_of_the_task_sets_no_scale() {
    let task = "Where was the director of the film Ed Wood born?";
    let text = format!(
      "## Request\n\n{task}\n\n## Ed Wood (film)\n\nEd Wood is a film directed by Tim Burton.\n\n## Tim Burton\n\nTim Burton was born in Burbank.\n\n## Cats\n\nCats sleep."
    );
    let s = scored(&text, task);
    let score = |needle: &str| s.iter().find(|x| x.0.contains(needle)).unwrap().1;
    // The quote's section is scored at most as the best other, and the document it names
    // leads on to the one with the answer.
    assert!(score("## Request") <= score("## Ed Wood"), "{s:?}");
    assert!(
      score("Burbank") > 0.3 && score("Burbank") > score("Cats sleep"),
      "{s:?}"
    );
    assert_eq!(
      quoting_sections(
        &quote_finds(&text.to_ascii_lowercase(), &[], &[], &task.to_lowercase()),
        &[],
        0
      ),
      Vec::<bool>::new()
    );
  }

  /// A call's arguments quote the task as JSON writes it (`\"Complex\"`, and `\u00e9` as
  /// Python writes it): that is a quote too.
  #[test]
  fn a_quote_written_as_json_is_a_quote() {
    let task = "who founded \"complex\" magazine in café society?";
    let found = |text: &str| {
      let mut segments = Vec::new();
      crate::core::segment::segment(text, 0, 0, Granularity::Sentence, &mut segments, 0);
      !quote_finds(text, &segments, &vec![0; segments.len()], task)[0].is_empty()
    };
    assert!(found(&format!("→ search {{\"q\":\"{task}\"}}")));
    assert!(found(
      r#"→ search {"q":"who founded \"complex\" magazine in café society?"}"#
    ));
    assert!(found(
      r#"→ search {"q":"who founded \"complex\" magazine in caf\u00e9 society?"}"#
    ));
    assert!(!found(r#"→ search {"q":"who founded complex magazine?"}"#));
  }

  /// Nor does a quote set the scale of the others' sentences: what was found scores as
  /// it does without the request over it.
  #[test]
  fn a_quote_of_the_task_leaves_the_others_sentences_their_scores() {
    let task = "Where was the director of the film Ed Wood born?";
    let found = "## Ed Wood (film)\n\nEd Wood is a film directed by Tim Burton. It opened in 1994.\n\n## Tim Burton\n\nTim Burton was born in Burbank. He studied at CalArts.\n\n## Cats\n\nCats sleep.";
    let alone = scored(found, task);
    let quoted = scored(&format!("## Request\n\n{task}\n\n{found}"), task);
    let score = |s: &[(String, f32)], needle: &str| s.iter().find(|x| x.0.contains(needle)).unwrap().1;
    for needle in ["Ed Wood is a film", "born in Burbank", "CalArts"] {
      let (a, q) = (score(&alone, needle), score(&quoted, needle));
      // (not equal: the request's words are in the index's statistics)
      assert!(
        (a - q).abs() < 0.015 * a,
        "{needle}: {a} alone, {q} under the request"
      );
    }
  }

  /// A paragraph is named by the source it cites, as by a heading; the list of sources
  /// scores nothing of its own.
  #[test]
  fn a_cited_source_names_its_paragraph() {
    let cited = "He was born in 1958 in Burbank. [2]\n\nHe was born in 1924 in Poughkeepsie. [1]";
    let sources = "[1] Ed Wood. https://x.org/ed\n[2] Tim Burton. https://x.org/tim";
    // Under a heading of their own, or as a list with none over it (named by none of its
    // sources, it stands first no more; the two paragraphs are then lifted as a pair).
    for (text, lead) in [
      (format!("{cited}\n\nReferences:\n{sources}"), 0.3),
      (format!("{cited}\n\n{sources}"), 0.0),
    ] {
      let s = scored(&text, "Where was Ed Wood born?");
      let score = |needle: &str| s.iter().find(|x| x.0.contains(needle)).unwrap().1;
      assert!(score("Poughkeepsie") >= score("Burbank") + lead, "{s:?}");
      assert_eq!(score("[1] Ed Wood"), 0.0, "{s:?}");
    }
  }

  /// The heading scores of a titled text, best first.
  fn ranked_headings(text: &str, task: &str) -> Vec<String> {
    let mut headings: Vec<(String, f32)> = scored(text, task)
      .into_iter()
      .filter(|(t, _)| t.starts_with("## "))
      .collect();
    headings.sort_by(|a, b| b.1.total_cmp(&a.1));
    headings.into_iter().map(|(t, _)| t).collect()
  }

  #[test]
  fn the_pair_that_answers_together_comes_first() {
    // Two sections carry the name the task gives; only one of them is the building, and it
    // names the base, whose section holds the answer.
    let text = "## Kiskiack\n\nKiskiack is a village in the Bakhchysarai district of Crimea. Kiskiack lies in a river valley and Kiskiack has a mosque.\n\n## Kiskiack (Lee House)\n\nKiskiack is a historic house on the grounds of Naval Weapons Station Yorktown.\n\n## Naval Weapons Station Yorktown\n\nNaval Weapons Station Yorktown is a naval base of the United States Navy in York County, Virginia.\n\n## Yorktown, Virginia\n\nYorktown is a town in York County, Virginia, still known for its siege.";
    let ranked = ranked_headings(
      text,
      "Kiskiack is a building that still stands at what York County, Virginia naval base?",
    );
    let top: Vec<&str> = ranked[..2].iter().map(String::as_str).collect();
    assert!(top.contains(&"## Kiskiack (Lee House)"), "{ranked:?}");
    assert!(top.contains(&"## Naval Weapons Station Yorktown"), "{ranked:?}");
  }

  #[test]
  fn the_section_the_named_one_names_pairs_before_one_that_mentions_it() {
    // The fan club mentions "Ed Wood" and shares more words with the task; "Ed Wood"
    // names Tim Burton, whose section answers.
    let text = "## Ed Wood\n\nEd Wood is a 1994 American film directed by Tim Burton.\n\n## Tim Burton\n\nTim Burton grew up in Burbank, California.\n\n## Ed Wood fan club\n\nThe Ed Wood fan club of film fans was born in 1990: the director of the fan club was born where the club meets, to watch each film the director of Ed Wood made.\n\n## Weather\n\nIt rained all week in the office town.";
    let ranked = ranked_headings(text, "Where was the director of the film Ed Wood born?");
    let top: Vec<&str> = ranked[..2].iter().map(String::as_str).collect();
    assert!(top.contains(&"## Tim Burton"), "{ranked:?}");
  }

  mod properties {
    use super::*;
    use proptest::prelude::*;

    const WORDS: [&str; 10] = [
      "Rate",
      "limiter",
      "src/api/users.ts",
      "users",
      "the",
      "leak",
      "`hits`",
      "Ünïcode",
      "rate-limit",
      "a.b",
    ];

    fn text() -> impl Strategy<Value = String> {
      proptest::collection::vec((0usize..WORDS.len(), 0u8..6), 0..60).prop_map(|w| {
        w.iter()
          .map(|&(i, sep)| {
            format!(
              "{}{}",
              WORDS[i],
              [" ", " ", ". ", "\n\n", "\n- ", "\n## "][sep as usize]
            )
          })
          .collect()
      })
    }

    proptest! {
      #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

      /// The index made from postings is the index made by reading the text.
      #[test]
      fn postings_give_the_index_the_text_gives(text in text(), tasks in proptest::collection::vec(proptest::collection::vec(0usize..WORDS.len(), 1..5), 1..4)) {
        let mut segments = Vec::new();
        crate::core::segment::segment(&text, 0, 0, crate::core::segment::Granularity::Sentence, &mut segments, 0);
        let terms: Vec<Terms> = tasks
          .iter()
          .map(|t| Terms::of_task(&t.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" ")))
          .collect();
        let refs: Vec<&Terms> = terms.iter().collect();
        let same = crate::core::segment::repeats(&text, &segments);
        let postings = Postings::build(&text, &segments, &same, &Cancel::new()).unwrap();
        prop_assert_eq!(postings.index(&refs), Index::build(&text, &segments, &refs));
      }

      /// A phrase's bonus goes to exactly the segments whose text holds it, whether the
      /// phrases are sought through the text (one by one or in one pass) or through the
      /// trigrams of a prepared thread.
      #[test]
      fn phrases_count_in_the_segments_that_hold_them(text in text().prop_map(|t| format!("{t}\n\n{t}")), phrases in proptest::collection::vec((0usize..WORDS.len(), 0usize..WORDS.len(), 1usize..12), 0..2 * ONE_BY_ONE)) {
        let mut segments = Vec::new();
        crate::core::segment::segment(&text, 0, 0, crate::core::segment::Granularity::Sentence, &mut segments, 0);
        let folded = fold_ascii(&text);
        let phrases: Vec<(String, f32)> = phrases
          .iter()
          .enumerate()
          .map(|(k, &(a, b, cut))| {
            // Whole words, and pieces (shorter than three bytes, or across a word's end).
            let phrase = format!("{} {}", WORDS[a], WORDS[b]);
            let phrase = if k % 2 == 0 { phrase } else { phrase.chars().skip(1).take(cut).collect() };
            (fold_ascii(&phrase), 1.0 + k as f32)
          })
          .collect();
        let naive: Vec<f32> = segments
          .iter()
          .map(|s| phrases.iter().filter(|(p, _)| folded[s.start..s.end].contains(p.as_str())).map(|(_, w)| w * 2.0).sum())
          .collect();
        let terms = Terms { phrases, ..Terms::of_task("") };
        prop_assert_eq!(phrase_bonuses(&folded, &segments, None, &[&terms]).remove(0), naive.clone());
        let same = crate::core::segment::repeats(&text, &segments);
        let trigrams = Trigrams::build(folded.as_bytes(), &segments, &same, &Cancel::new()).unwrap();
        prop_assert_eq!(phrase_bonuses(&folded, &segments, Some(&trigrams), &[&terms]).remove(0), naive);
      }
    }
  }
}
