//! A cleaned result cut into units, scored against the task and chosen within the budget.

use std::borrow::Cow;
use std::ops::Range;

use rustc_hash::{FxHashMap, FxHashSet};

use super::citations::{
  attach_lenticular, attribution, bare_urls, file_references, inline_links, join_split_markers, link_text,
  names_apart, set_aside, source_line, source_notes, Note,
};
use super::clean::render_clean;
use super::listed::{listed_sources, Listed};
use super::{Citation, FilterOptions, MISSES, REFILL};
use crate::core::cancel::{Cancel, Cancelled};
use crate::core::citations::{citing_markers, definition, listed_definition, title_of, MAX_LABEL};
use crate::core::extract::DEFAULT_ELISION;
use crate::core::relevance::{scores, Index};
use crate::core::segment::{segment, Granularity, Kind, Segment};
use crate::core::terms::Terms;
use crate::core::tokens::Counter;

/// A paragraph is judged off the task only on this many terms of its own at least: "Done."
/// says too little to be clearly anything.
const MIN_OFF_TASK_TERMS: usize = 3;

/// The words with which a report of work says how its checks went (`All 14 tests pass.`,
/// `The build is green.`): a paragraph with one of them is about the work, whatever the
/// task names. Stemmed as task terms are (`tests` is `test`).
const WORK_TERMS: [&str; 16] = [
  "benchmark",
  "build",
  "check",
  "ci",
  "commit",
  "compile",
  "error",
  "fail",
  "green",
  "lint",
  "merge",
  "pass",
  "run",
  "suite",
  "test",
  "warning",
];

/// A citation definition: `[label]: target` on a line of its own, or a listed one
/// (`[label] target`, `1. target`) for a marker the text uses.
pub(super) struct Definition {
  label: String,
  range: Range<usize>,
  target: String,
}

/// A cleaned result cut into what can be kept: segments (sentences, items, code,
/// headings) and citation definitions, which are kept only for a marker.
pub(super) struct Report {
  pub segments: Vec<Segment>,
  definitions: Vec<Definition>,
  /// Per segment: the definitions its markers use.
  cites: Vec<Vec<usize>>,
  /// Per segment: the code block it introduces (it ends its paragraph with `:` and
  /// the code follows).
  introduces: Vec<Option<usize>>,
  /// Every unit in text order (definitions follow the segments in unit numbering),
  /// and the unit number of each.
  by_position: Vec<Range<usize>>,
  order: Vec<usize>,
  /// The source notes (`source_notes`): each note's bytes and what it names.
  notes: Vec<Note>,
  /// Per definition: the definitions it names by number (a source line's, `Sources: 1, 2`).
  numbered: Vec<Vec<usize>>,
  /// Per segment: the entries of a list of sources no marker cites that it names
  /// (`listed`): they title it as cited sources do, and come back with it where room is
  /// left once the text is chosen.
  names: Vec<Vec<usize>>,
  /// Per definition: the address of such an entry, `None` for other definitions.
  listed: Vec<Option<String>>,
}

impl Report {
  pub fn parse(text: &str) -> Self {
    let mut definitions = Vec::new();
    // Lines that define a marker only where the text cites it (`listed_definition`).
    let mut listed = Vec::new();
    // Lines that attribute the paragraph before them (`— Wikipedia, *Ed Wood*`).
    let mut attributions: Vec<(Range<usize>, &str)> = Vec::new();
    // Lines that name by number the sources of the paragraph before them (`Sources: 1, 2`).
    let mut source_lines: Vec<(Range<usize>, Vec<&str>)> = Vec::new();
    // Lines that define a numbered label (`Source 3: Ed Wood <https://…>`), which a source
    // note may cite (`… (Source 3)`).
    let mut labelled = Vec::new();
    let mut at = 0;
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
      let range = at + (line.len() - line.trim_start().len())..at + line.trim_end().len();
      if let Some((label, target)) = numbered_label_line(line) {
        labelled.push(Definition {
          label: label.to_lowercase(),
          range: range.clone(),
          target: target.to_string(),
        });
      }
      if let Some((label, target)) = definition(line) {
        definitions.push(Definition {
          label: label.to_lowercase(),
          range,
          target: target.to_string(),
        });
      } else if let Some((label, target)) = listed_definition(line) {
        listed.push(Definition {
          label: label.to_lowercase(),
          range,
          target: target.to_string(),
        });
      } else {
        // It ends its paragraph (a quote's included).
        let last = lines.peek().is_none_or(|next| {
          next
            .trim_matches(|c: char| c == '>' || c.is_whitespace())
            .is_empty()
        });
        if let Some(named) = attribution(line).filter(|_| last) {
          attributions.push((range, named));
        } else if let Some(numbers) = source_line(line).filter(|_| last) {
          source_lines.push((range, numbers));
        }
      }
      at += line.len();
    }
    if !listed.is_empty() {
      let mut cited: FxHashSet<String> = FxHashSet::default();
      let mut from = 0;
      for d in &listed {
        cited.extend(citing_markers(&text[from..d.range.start]).map(|m| m.label.to_lowercase()));
        from = d.range.end;
      }
      cited.extend(citing_markers(&text[from..]).map(|m| m.label.to_lowercase()));
      cited.extend(
        source_lines
          .iter()
          .flat_map(|(_, numbers)| numbers.iter().map(|n| n.to_string())),
      );
      let defined: FxHashSet<String> = definitions.iter().map(|d| d.label.clone()).collect();
      definitions.extend(
        listed
          .into_iter()
          .filter(|d| cited.contains(&d.label) && !defined.contains(&d.label)),
      );
    }
    // An attribution is a definition no marker uses: what it attributes cites it.
    let mut names: Vec<&str> = attributions.iter().map(|(_, named)| *named).collect();
    names_apart(&mut names);
    definitions.extend(
      attributions
        .into_iter()
        .zip(names)
        .map(|((range, _), name)| Definition {
          label: String::new(),
          range,
          target: name.to_string(),
        }),
    );
    // A numbered label's line is a definition where a source note names the label.
    let notes = source_notes(text);
    let noted: FxHashSet<String> = notes
      .iter()
      .map(|(_, named)| text[named.clone()].trim().to_lowercase())
      .collect();
    let mut taken: FxHashSet<usize> = definitions.iter().map(|d| d.range.start).collect();
    definitions.extend(
      labelled
        .into_iter()
        .filter(|d| noted.contains(&d.label) && !taken.contains(&d.range.start)),
    );
    // An author-date note's reference is a definition: the line, outside what cites it, that
    // opens with its author and holds its date (`(Smith, 2020)` names `Smith, J. (2020).
    // Title.`).
    taken.extend(definitions.iter().map(|d| d.range.start));
    for (label, range, title) in author_date_references(text, &notes) {
      if taken.insert(range.start) {
        definitions.push(Definition {
          label,
          target: text[title].to_string(),
          range,
        });
      }
    }
    // A list of sources that no marker cites: each entry is a definition, cited by the
    // paragraphs that open by naming its title (`listed`).
    let sources_listed = listed_sources(text, |start| taken.contains(&start));
    for l in &sources_listed {
      if taken.insert(l.line.start) {
        definitions.push(Definition {
          label: String::new(),
          range: l.line.clone(),
          target: l.title.clone(),
        });
      }
    }
    // A source line is an attribution where the text's list of sources defines each of its
    // numbers: what it closes cites it and them.
    let defined: FxHashSet<&str> = definitions.iter().map(|d| d.label.as_str()).collect();
    source_lines.retain(|(_, numbers)| numbers.iter().all(|n| defined.contains(n)));
    definitions.extend(source_lines.iter().map(|(range, _)| Definition {
      label: String::new(),
      range: range.clone(),
      target: String::new(),
    }));
    definitions.sort_by_key(|d| d.range.start);
    // Definitions are blanked out and inline citations set aside (same length, so
    // offsets hold) before segmenting.
    let aside = set_aside(text, &notes);
    let mut blanked = aside.into_bytes();
    for d in &definitions {
      blanked[d.range.clone()].fill(b' ');
    }
    let blanked = String::from_utf8(blanked).unwrap_or_default();
    let mut segments = Vec::new();
    segment(&blanked, 0, 0, Granularity::Sentence, &mut segments, 0);
    join_split_markers(text, &notes, &mut segments);
    attach_lenticular(text, &mut segments);
    // A definition-like line inside a segment (a fenced code block spans over its blanked
    // line) is part of that segment, not a unit of its own: units must not overlap
    // (fuzz/regressions/filter).
    definitions.retain(|d| {
      let after = segments.partition_point(|s| s.end <= d.range.start);
      segments.get(after).is_none_or(|s| s.start >= d.range.end)
    });
    let by_label: FxHashMap<&str, usize> = definitions
      .iter()
      .enumerate()
      .map(|(i, d)| (d.label.as_str(), i))
      .collect();
    // Per definition: the definitions it names by number (a source line's).
    let numbered: Vec<Vec<usize>> = definitions
      .iter()
      .map(|d| {
        let numbers = source_lines.iter().find(|(range, _)| *range == d.range);
        numbers.map_or_else(Vec::new, |(_, numbers)| {
          numbers.iter().filter_map(|n| by_label.get(n).copied()).collect()
        })
      })
      .collect();
    let mut cites: Vec<Vec<usize>> = segments
      .iter()
      .map(|s| {
        let mut used: Vec<usize> = citing_markers(&text[s.start..s.end])
          .map(|m| m.label.to_lowercase())
          .chain(
            notes_within(&notes, s.start..s.end).map(|(_, named)| text[named.clone()].trim().to_lowercase()),
          )
          .filter_map(|label| by_label.get(label.as_str()).copied())
          .collect();
        used.dedup();
        used
      })
      .collect();
    // An attribution is cited by the paragraph right before it, with nothing but a quote's
    // blank lines between (a `>` of its own is no part of what is attributed).
    let worded = |s: &Segment| text[s.start..s.end].contains(char::is_alphanumeric);
    // Per definition, the listed source whose entry it is (none for other definitions, nor
    // for an entry inside a segment: `retain` above).
    let entry_of: Vec<Option<&Listed>> = definitions
      .iter()
      .map(|d| sources_listed.iter().find(|l| l.line == d.range))
      .collect();
    let listed: Vec<Option<String>> = entry_of.iter().map(|l| l.map(|l| l.address.clone())).collect();
    for (d, definition) in definitions
      .iter()
      .enumerate()
      .filter(|&(d, definition)| definition.label.is_empty() && listed[d].is_none())
    {
      let before = segments.partition_point(|s| s.end <= definition.range.start);
      let Some(last) = segments[..before].iter().rposition(worded) else {
        continue;
      };
      let between = &text[segments[last].end..definition.range.start];
      if between.chars().all(|c| c == '>' || c.is_whitespace()) {
        let block = segments[last].block;
        let first = segments[..last]
          .iter()
          .rposition(|s| s.block != block)
          .map_or(0, |k| k + 1);
        (first..=last)
          .filter(|&i| worded(&segments[i]))
          .for_each(|i| cites[i].extend(std::iter::once(d).chain(numbered[d].iter().copied())));
      }
    }
    // A listed source is named by the paragraphs that open by naming it.
    let mut names: Vec<Vec<usize>> = vec![Vec::new(); segments.len()];
    for (d, l) in entry_of.iter().enumerate().filter_map(|(d, l)| Some((d, (*l)?))) {
      for p in &l.paragraphs {
        let first = segments.partition_point(|s| s.start < p.start);
        (first..segments.len())
          .take_while(|&i| segments[i].start < p.end)
          .filter(|&i| worded(&segments[i]))
          .for_each(|i| names[i].push(d));
      }
    }
    let introduces = (0..segments.len())
      .map(|i| {
        let (s, next) = (&segments[i], segments.get(i + 1)?);
        let intro = s.kind == Kind::Text && text[s.start..s.end].trim_end().ends_with(':');
        (intro && next.kind == Kind::Code && next.block == s.block + 1).then_some(i + 1)
      })
      .collect();
    let mut report = Report {
      notes,
      names,
      listed,
      numbered,
      segments,
      definitions,
      cites,
      introduces,
      by_position: Vec::new(),
      order: Vec::new(),
    };
    let ranges: Vec<Range<usize>> = report.units().map(|(_, r)| r).collect();
    report.order = (0..ranges.len()).collect();
    report.order.sort_by_key(|&i| ranges[i].start);
    report.by_position = report.order.iter().map(|&i| ranges[i].clone()).collect();
    report
  }

  /// Every unit kept: the result as it is.
  pub fn whole(&self) -> Vec<bool> {
    vec![true; self.by_position.len()]
  }

  /// The source notes within `range`.
  fn notes_in(&self, range: Range<usize>) -> impl Iterator<Item = &Note> {
    notes_within(&self.notes, range)
  }

  /// Every unit with its range: the segments, then the definitions.
  fn units(&self) -> impl Iterator<Item = (usize, Range<usize>)> + '_ {
    self
      .segments
      .iter()
      .map(|s| s.start..s.end)
      .chain(self.definitions.iter().map(|d| d.range.clone()))
      .enumerate()
  }

  /// Each segment's relevance to `task`, scored on a copy of the report in which every
  /// paragraph that cites sources is titled by them.
  pub fn scores(&self, text: &str, task: &str) -> Vec<f32> {
    let original = text;
    let aside = set_aside(text, &self.notes);
    let text = aside.as_str();
    // A report of citation definitions only (`[…]: x`) has nothing to score, and the
    // scorer is not to be asked about no segments (fuzz/regressions/filter).
    if self.segments.is_empty() {
      return Vec::new();
    }
    // A note that cites a definition by its label (`(Smith, 2020)`, `(Source 3)`) is a
    // marker: the definition's title stands for it.
    let labels: FxHashSet<&str> = self.definitions.iter().map(|d| d.label.as_str()).collect();
    let mut titled = String::with_capacity(text.len() + MAX_LABEL * self.definitions.len());
    // Per segment: its offset in `titled` minus its offset in `text`.
    let mut shift = vec![0isize; self.segments.len()];
    let mut i = 0;
    while i < self.segments.len() {
      let block = self.segments[i].block;
      let mut j = i;
      while j < self.segments.len() && self.segments[j].block == block {
        j += 1;
      }
      let mut sources: Vec<usize> = self.cites[i..j]
        .iter()
        .chain(&self.names[i..j])
        .flatten()
        .copied()
        .collect();
      sources.sort_unstable();
      // The sources it mostly cites: not one its last sentence adds to its own
      // (Perplexity's stacked `… [1][2]`), which is cited half as often or less.
      let uses = |d: &usize| sources.iter().filter(|&e| e == d).count();
      let most = sources.iter().map(uses).max().unwrap_or(0);
      let mut sources: Vec<usize> = sources.iter().copied().filter(|d| 2 * uses(d) > most).collect();
      sources.dedup();
      // A paragraph is titled by the sources it cites: what its markers' definitions
      // name, the text of its inline links, what its source notes name.
      let span = &original[self.segments[i].start..self.segments[j - 1].end];
      let named: Vec<Cow<str>> = sources
        .iter()
        .map(|&d| title_of(&self.definitions[d].target))
        .collect();
      let mut title: Vec<Cow<str>> = named
        .iter()
        .cloned()
        .chain(
          // A link is titled as a reference is (`title_of`): by its text, or by its
          // address where the text names the site (`([Wikipedia](https://…/Ed_Wood))`).
          inline_links(span).into_iter().map(|(link, target)| {
            title_of(&format!("{} {target}", link_text(link)))
              .into_owned()
              .into()
          }),
        )
        .chain(
          self
            .notes_in(self.segments[i].start..self.segments[j - 1].end)
            .map(|(_, named)| original[named.clone()].trim())
            .filter(|named| !labels.contains(named.to_lowercase().as_str()))
            .map(Cow::from),
        )
        .filter(|t| !t.is_empty() && t.len() <= MAX_LABEL)
        .collect();
      title.dedup();
      // A heading that names a source the paragraph cites is already its title.
      let heading = match self.segments[i].kind {
        Kind::Heading => Some(i),
        _ => self.segments[i].heading,
      };
      let heading = heading.map(|h| original[self.segments[h].start..self.segments[h].end].to_lowercase());
      // A markdown heading names it anywhere in it, a bold lead where it opens with it; a
      // numbered section's (`2.3 Ed Wood`) is read less surely as the paragraph's title than
      // the source it cites.
      let headed = heading.is_some_and(|h| {
        let lead = h.trim_start_matches(['*', '_']);
        title.iter().any(|t| {
          let t = t.to_lowercase();
          h.starts_with('#') && h.contains(&t) || lead.starts_with(&t)
        })
      });
      // Where it cites several sources under no heading of its own, a sentence that opens
      // by naming one of them (`Terry Alan Kath (1946–1978) was …`, citing `Terry Kath`)
      // starts what it says of that source: from there on the paragraph is titled by that
      // source alone.
      let mut parts: Vec<(usize, Option<usize>)> = vec![(i, None)];
      if named.len() > 1 && !headed {
        let names: Vec<Vec<NameWord>> = named.iter().map(|t| name_core(t)).collect();
        for k in i..j {
          let lead = name_words(&text[self.segments[k].start..self.segments[k].end]);
          let Some(n) = names.iter().position(|name| opens_naming(&lead, name)) else {
            continue;
          };
          if parts.last().is_some_and(|&(_, current)| current == Some(n)) {
            continue;
          }
          if parts.last().is_some_and(|&(from, _)| from == k) {
            parts.pop();
          }
          parts.push((k, Some(n)));
        }
      }
      for (p, &(from, source)) in parts.iter().enumerate() {
        let to = parts.get(p + 1).map_or(j, |&(next, _)| next);
        // The deepest heading level: it titles its paragraph alone, under the report's own
        // headings, and stands over none of them (`parent_headings`).
        let heading = match source {
          Some(n) => named[n].to_string(),
          None if !headed => title.join("; "),
          None => String::new(),
        };
        if !heading.is_empty() {
          titled.push_str("###### ");
          titled.push_str(&heading.replace('\n', " "));
          titled.push_str("\n\n");
        }
        let (start, end) = (self.segments[from].start, self.segments[to - 1].end);
        let base = titled.len() as isize - start as isize;
        titled.push_str(&text[start..end]);
        titled.push_str("\n\n");
        for s in &mut shift[from..to] {
          *s = base;
        }
      }
      i = j;
    }
    let mut segments = Vec::new();
    segment(&titled, 0, 0, Granularity::Sentence, &mut segments, 0);
    // Cut as the report was (`parse`), so that each segment is found at its place here: a
    // marker after a full stop goes with the sentence before it, not the one after.
    join_split_markers(&titled, &source_notes(&titled), &mut segments);
    let terms = Terms::of_task(task);
    let index = Index::build(&titled, &segments, &[&terms]);
    let score = scores(&titled, &segments, &index, &terms).scores;
    let by_start: FxHashMap<usize, f32> = segments.iter().zip(score).map(|(s, v)| (s.start, v)).collect();
    self
      .segments
      .iter()
      .zip(&shift)
      .map(|(s, &d)| {
        let at = (s.start as isize + d) as usize;
        by_start.get(&at).copied().unwrap_or(0.0)
      })
      .collect()
  }

  /// What is kept: one flag per unit (segments, then definitions).
  pub fn select(
    &self,
    text: &str,
    relevance: &[f32],
    options: &FilterOptions,
    counter: &mut Counter,
    cancel: &Cancel,
  ) -> Result<Vec<bool>, Cancelled> {
    let n = self.segments.len();
    let best = relevance.iter().copied().fold(0.0, f32::max);
    let threshold = (options.min_relevance * best).max(f32::MIN_POSITIVE);
    let mut order: Vec<usize> = (0..n)
      .filter(|&i| relevance[i] >= threshold && self.segments[i].kind != Kind::Heading)
      .collect();
    order.sort_by(|&a, &b| relevance[b].total_cmp(&relevance[a]).then(a.cmp(&b)));
    // Units are counted when first needed: most are never candidates.
    let ranges: Vec<Range<usize>> = self.units().map(|(_, r)| r).collect();
    let mut counted: Vec<Option<usize>> = vec![None; ranges.len()];
    // Optimistic estimates (no elision markers, which only come between pieces that are
    // not adjacent); the exact count below has the last word.
    let mut kept = vec![false; n + self.definitions.len()];
    let mut used = 0;
    let mut chosen = Vec::new();
    let mut misses = 0;
    for &i in &order {
      // Past a full budget, or a long run of candidates too big for what is left,
      // counting the rest of a long result buys nothing.
      if options.max_tokens.is_some_and(|cap| used >= cap) || misses == MISSES {
        break;
      }
      let needs = self.needs(i, options);
      let mut cost = 0;
      for &u in needs.iter().filter(|&&u| !kept[u]) {
        cost += *counted[u].get_or_insert_with(|| counter.count(&text[ranges[u].clone()]));
      }
      if options.max_tokens.is_some_and(|cap| used + cost > cap) {
        misses += 1;
        continue;
      }
      misses = 0;
      for u in needs {
        kept[u] = true;
      }
      used += cost;
      chosen.push(i);
    }
    // Exact: drop the least relevant choice until the rendered result fits.
    if let Some(cap) = options.max_tokens {
      while !chosen.is_empty() && counter.count(&render_clean(self, text, &kept)) > cap {
        cancel.check()?;
        chosen.pop();
        kept.iter_mut().for_each(|k| *k = false);
        for &i in &chosen {
          for u in self.needs(i, options) {
            kept[u] = true;
          }
        }
      }
      // Estimates leave room unused: offer it to the next candidates that may fit,
      // counted exactly (an estimate can be a token or two over the exact count, since
      // tokens can merge across a join).
      let mut room = cap.saturating_sub(counter.count(&render_clean(self, text, &kept)));
      let mut offers = 0;
      for &i in &order {
        if offers == REFILL || room == 0 {
          break;
        }
        if kept[i] {
          continue;
        }
        let mut estimate = 0;
        for u in self.needs(i, options).into_iter().filter(|&u| !kept[u]) {
          estimate += *counted[u].get_or_insert_with(|| counter.count(&text[ranges[u].clone()]));
        }
        if estimate > room + 2 {
          continue;
        }
        offers += 1;
        cancel.check()?;
        let mut trial = kept.clone();
        for u in self.needs(i, options) {
          trial[u] = true;
        }
        let tokens = counter.count(&render_clean(self, text, &trial));
        if tokens <= cap {
          kept = trial;
          room = cap - tokens;
        }
      }
    }
    // The listed sources the kept text names, the most relevant text's first, where they fit.
    let mut offered = vec![false; self.definitions.len()];
    let named: Vec<usize> = order
      .iter()
      .filter(|&&i| kept[i])
      .flat_map(|&i| self.names[i].iter().copied())
      .collect();
    for d in named {
      if std::mem::replace(&mut offered[d], true) || kept[n + d] {
        continue;
      }
      cancel.check()?;
      kept[n + d] = true;
      if options
        .max_tokens
        .is_some_and(|cap| counter.count(&render_clean(self, text, &kept)) > cap)
      {
        kept[n + d] = false;
      }
    }
    Ok(kept)
  }

  /// The units segment `i` brings: itself, its section's heading, the code block it
  /// introduces (a paragraph ending in `:` right before one) or the sentence that
  /// introduces it, and the definitions of what each of them cites.
  fn needs(&self, i: usize, options: &FilterOptions) -> Vec<usize> {
    // A code block comes with the sentence that introduces it, and that sentence's needs.
    let intro = (i > 0 && self.introduces[i - 1] == Some(i)).then(|| i - 1);
    let mut out = vec![i];
    for j in std::iter::once(i).chain(intro) {
      out.extend(self.segments[j].heading);
      out.extend(self.introduces[j]);
      out.push(j);
    }
    if options.keep_citations {
      let cited: Vec<usize> = out
        .iter()
        .flat_map(|&j| &self.cites[j])
        .map(|&d| self.segments.len() + d)
        .collect();
      out.extend(cited);
    }
    out.sort_unstable();
    out.dedup();
    out
  }

  /// What a short result keeps when it is focused on `task`: every unit but the
  /// paragraphs clearly off the task, those that share no term with the task nor with
  /// any paragraph that does (a note about the office coffee machine in a change
  /// summary), with the definitions only what is kept cites. A closing paragraph that
  /// names nothing of the task but shares the work's words (`All 14 tests pass.` after
  /// "added tests for …") stays. `None` when nothing is clearly off the task, or when no
  /// paragraph bears on the task at all (nothing to judge by).
  pub fn focus(&self, text: &str, task: &str) -> Option<Vec<bool>> {
    let relevance = self.scores(text, task);
    let blocks = self.segments.last()?.block + 1;
    let mut on_task = vec![false; blocks];
    let mut terms: Vec<FxHashSet<String>> = vec![FxHashSet::default(); blocks];
    for (i, s) in self.segments.iter().enumerate() {
      on_task[s.block] |= relevance[i] > 0.0;
      terms[s.block].extend(Terms::of_task(&text[s.start..s.end]).weights.into_keys());
    }
    let shared: FxHashSet<&String> = (0..blocks)
      .filter(|&b| on_task[b])
      .flat_map(|b| &terms[b])
      .collect();
    if shared.is_empty() {
      return None;
    }
    let about_the_work = |t: &String| WORK_TERMS.contains(&t.as_str()) || shared.contains(t);
    let off: Vec<bool> = (0..blocks)
      .map(|b| !on_task[b] && terms[b].len() >= MIN_OFF_TASK_TERMS && !terms[b].iter().any(about_the_work))
      .collect();
    let mut kept: Vec<bool> = self
      .segments
      .iter()
      .map(|s| !off[s.block] || matches!(s.kind, Kind::Heading | Kind::Code))
      .collect();
    if kept.iter().all(|&k| k) {
      return None;
    }
    // A listed source stays unless all that names it goes.
    let mut cited: Vec<bool> = self.listed.iter().map(Option::is_some).collect();
    for (named, _) in self.names.iter().zip(&kept).filter(|(_, &k)| !k) {
      named.iter().for_each(|&d| cited[d] = false);
    }
    for i in (0..self.segments.len()).filter(|&i| kept[i]) {
      self.cites[i]
        .iter()
        .chain(&self.names[i])
        .for_each(|&d| cited[d] = true);
    }
    kept.extend(cited);
    Some(kept)
  }

  /// The kept units in order: adjacent segments joined by the text between them,
  /// others by the elision marker.
  pub fn render(&self, text: &str, kept: &[bool]) -> String {
    let mut out = String::new();
    let mut last: Option<usize> = None;
    let n = self.segments.len();
    for (p, unit) in self
      .by_position
      .iter()
      .enumerate()
      .filter(|(p, _)| kept[self.order[*p]])
    {
      if let Some(l) = last {
        let both_definitions = self.order[l] >= n && self.order[p] >= n;
        if l + 1 == p {
          out.push_str(&text[self.by_position[l].end..unit.start]);
        } else if both_definitions {
          // A list of sources with some left out is still a list: no elision.
          out.push('\n');
        } else {
          out.push_str(DEFAULT_ELISION);
        }
      }
      out.push_str(&text[unit.start..unit.end]);
      last = Some(p);
    }
    out
  }

  /// The citations of the kept segments, each once, in order of first use.
  pub fn cited(&self, text: &str, kept: &[bool]) -> Vec<Citation> {
    let mut out: Vec<Citation> = Vec::new();
    for (i, s) in self.segments.iter().enumerate().filter(|&(i, _)| kept[i]) {
      // What a segment's markers cite, then the line that attributes it (or a kept entry of
      // a list of sources that it names): what it names, or what the definitions it numbers
      // do.
      let listed = self.names[i].iter().filter(|&&d| kept[self.segments.len() + d]);
      let attributed = self.cites[i]
        .iter()
        .chain(listed)
        .filter(|&&d| self.definitions[d].label.is_empty())
        .flat_map(|&d| {
          let line = &self.definitions[d];
          let targets = match self.numbered[d].as_slice() {
            [] => vec![self.listed[d].clone().unwrap_or_else(|| line.target.clone())],
            numbered => numbered
              .iter()
              .map(|&n| self.definitions[n].target.clone())
              .collect(),
          };
          targets.into_iter().map(|target| Citation {
            marker: text[line.range.clone()].to_string(),
            target: Some(target),
          })
        });
      for c in self.citations(text, s.start..s.end).into_iter().chain(attributed) {
        if !out.contains(&c) {
          out.push(c);
        }
      }
    }
    out
  }

  /// The citations in `body`: defined markers with their targets, inline links, bare
  /// URLs, `(source: …)` notes and `path/file.ext:line` references.
  fn citations(&self, text: &str, range: Range<usize>) -> Vec<Citation> {
    let body = &text[range.clone()];
    let mut out: Vec<Citation> = Vec::new();
    let mut add = |c: Citation| {
      if !out.contains(&c) {
        out.push(c);
      }
    };
    for m in citing_markers(body) {
      let lower = m.label.to_lowercase();
      if let Some(d) = self.definitions.iter().find(|d| d.label == lower) {
        add(Citation {
          marker: body[m.span].to_string(),
          target: Some(d.target.clone()),
        });
      }
    }
    for (marker, target) in inline_links(body) {
      add(Citation {
        marker: marker.to_string(),
        target: Some(target.to_string()),
      });
    }
    for url in bare_urls(body) {
      add(Citation {
        marker: url.to_string(),
        target: Some(url.to_string()),
      });
    }
    for (note, named) in self.notes_in(range) {
      add(Citation {
        marker: text[note.clone()].to_string(),
        target: Some(text[named.clone()].trim().to_string()),
      });
    }
    for reference in file_references(body) {
      add(Citation {
        marker: reference.to_string(),
        target: Some(reference.to_string()),
      });
    }
    out
  }
}

/// The notes (in text order) within `range`.
fn notes_within(notes: &[Note], range: Range<usize>) -> impl Iterator<Item = &Note> {
  let first = notes.partition_point(|(note, _)| note.start < range.start);
  notes[first..]
    .iter()
    .take_while(move |(note, _)| note.end <= range.end)
}

/// The reference line of each author-date note (`(Smith, 2020)`, `(Wikipedia contributors,
/// n.d.a)`), with the label the note cites it by (what it names) and what the line gives
/// after the date (its title): the one line without the note that opens with the note's
/// first word and holds its date as a reference list writes it, `(2020)` or ` 2020.`. A
/// note whose lines are none or several cites none.
fn author_date_references(text: &str, notes: &[Note]) -> Vec<(String, Range<usize>, Range<usize>)> {
  if notes.is_empty() {
    return Vec::new();
  }
  // The lines by their first word, case-folded: a note's candidates are read only.
  let mut lines: FxHashMap<String, Vec<Range<usize>>> = FxHashMap::default();
  let mut at = 0;
  for line in text.split_inclusive('\n') {
    let start = at + (line.len() - line.trim_start().len());
    let end = at + line.trim_end().len();
    let word = text[start..end.max(start)]
      .split(|c: char| !c.is_alphanumeric())
      .next()
      .unwrap_or_default();
    if !word.is_empty() {
      lines.entry(word.to_lowercase()).or_default().push(start..end);
    }
    at += line.len();
  }
  let mut seen: FxHashSet<&str> = FxHashSet::default();
  let mut out = Vec::new();
  for (note, named) in notes {
    let whole = &text[note.clone()];
    if !seen.insert(whole) {
      continue;
    }
    let inner = whole.trim_matches(|c: char| matches!(c, '(' | ')' | '*' | '_') || c.is_whitespace());
    let Some((author, date)) = inner.rsplit_once(", ") else {
      continue;
    };
    let first = author
      .split(|c: char| !c.is_alphanumeric())
      .next()
      .unwrap_or_default();
    let dated = date.starts_with("n.d") || date.bytes().any(|b| b.is_ascii_digit());
    let Some(candidates) = lines.get(&first.to_lowercase()).filter(|_| dated) else {
      continue;
    };
    let (bracketed, closing) = (format!("({date})"), format!(" {date}."));
    let mut found = candidates.iter().filter_map(|r| {
      let l = &text[r.clone()];
      let date = l.find(&bracketed).map(|at| at + bracketed.len());
      let date = date.or_else(|| l.find(&closing).map(|at| at + closing.len()));
      date
        .filter(|_| !l.contains(whole))
        .map(|end| (r.clone(), r.start + end..r.end))
    });
    if let (Some((line, title)), None) = (found.next(), found.next()) {
      out.push((text[named.clone()].trim().to_lowercase(), line, title));
    }
  }
  out.sort_by_key(|(_, r, _)| r.start);
  out.dedup_by_key(|(_, r, _)| r.start);
  out
}

/// A word of a name, lower-cased, and whether it is an initial (`name_words`).
pub(super) type NameWord = (String, bool);

/// The words a sentence says a title by: without a qualifier (`Free (Chicago song)` is
/// `Free`, `Waterford, New York` is `Waterford`).
pub(super) fn name_core(title: &str) -> Vec<NameWord> {
  let core = match title.strip_suffix(')').and_then(|t| t.rsplit_once(" (")) {
    Some((core, _)) => core,
    None => title,
  };
  name_words(core.split(", ").next().unwrap_or(core))
}

/// Whether a sentence whose words are `lead` opens by naming `name` (`name_core`): its first
/// word is the name's first, and the name's words follow in order among its first words
/// (`Terry Alan Kath (1946–1978) was …` names `Terry Kath`).
pub(super) fn opens_naming(lead: &[NameWord], name: &[NameWord]) -> bool {
  // An initial is said by the name it stands for (`C. S. Lewis` is `Clive Staples Lewis`).
  let says = |(w, initial): &NameWord, (l, _): &NameWord| l == w || *initial && l.starts_with(w.as_str());
  // An article before a name is no part of it (`The Battle of Uddevalla took place …`).
  let article = |w: &NameWord| ARTICLES.contains(&w.0.as_str());
  let skip = usize::from(lead.first().is_some_and(article) && !name.first().is_some_and(article));
  let mut lead = lead.iter().skip(skip).take(name.len() + MAX_NAME_INSERTS);
  name
    .first()
    .is_some_and(|first| lead.clone().next().is_some_and(|l| says(first, l)))
    && name.iter().all(|w| lead.any(|l| says(w, l)))
}

/// A name's words, lower-cased, each with whether it is an initial (`C.` and `S.` of `C. S.
/// Lewis`, `J.R.R.`: capitals each closed by a full stop).
pub(super) fn name_words(name: &str) -> Vec<NameWord> {
  name
    .split_whitespace()
    .flat_map(|token| {
      let initials = token.ends_with('.')
        && token
          .split_terminator('.')
          .all(|p| p.chars().count() == 1 && p.chars().all(char::is_uppercase));
      token
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(move |w| (w.to_lowercase(), initials))
    })
    .collect()
}

/// The articles a sentence may open a name with.
const ARTICLES: [&str; 3] = ["a", "an", "the"];

/// A sentence's opening names a title with this many words more at most among the title's
/// own: a middle name (`Terry Alan Kath`) or initial, not a clause.
const MAX_NAME_INSERTS: usize = 2;

/// A line that defines a numbered label: a word or two and a number before a colon, then
/// what it stands for (`Source 3: Ed Wood <https://…>`, `ref. 3: Ed Wood, https://…`).
fn numbered_label_line(line: &str) -> Option<(&str, &str)> {
  let (label, target) = line.trim().split_once(": ")?;
  let (words, number) = label.rsplit_once(' ')?;
  let worded = !words.is_empty()
    && words.split(' ').count() <= MAX_LABEL_WORDS
    && words.chars().all(|c| c.is_alphabetic() || c == '.' || c == ' ');
  let numbered = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
  (worded && numbered && !target.trim().is_empty()).then_some((label, target.trim()))
}

/// A numbered label is this many words at most before its number (`Source 3`, `Ref. No 3`).
const MAX_LABEL_WORDS: usize = 2;

#[cfg(test)]
mod tests {
  use super::*;

  /// A sentence opens by naming a title when its first words say the title's in order, a
  /// middle name among them; an initial is said by a name it opens (`C. S. Lewis` by
  /// `Clive Staples Lewis`), a word of one letter that is no initial only by itself.
  #[test]
  fn a_sentence_opens_naming_a_title() {
    let opens_naming = |sentence: &str, title: &str| opens_naming(&name_words(sentence), &name_core(title));
    assert!(opens_naming(
      "Terry Alan Kath (1946–1978) was a guitarist.",
      "Terry Kath"
    ));
    assert!(opens_naming(
      "Clive Staples Lewis (1898–1963) was a novelist.",
      "C. S. Lewis"
    ));
    assert!(opens_naming(
      "John Ronald Reuel Tolkien was a writer.",
      "J.R.R. Tolkien"
    ));
    assert!(opens_naming("Free is a song by Chicago.", "Free (Chicago song)"));
    assert!(!opens_naming("Clive Lewis was a scholar.", "C. S. Lewis"));
    assert!(!opens_naming("He cited C. S. Lewis often.", "C. S. Lewis"));
    assert!(opens_naming(
      "A Tale of Two Cities is a novel.",
      "A Tale of Two Cities"
    ));
    assert!(!opens_naming(
      "Another tale of two cities was told.",
      "A Tale of Two Cities"
    ));
  }
}
