//! Whose each tool call is, judged on its unit and its files (see the module above).

use rustc_hash::{FxHashMap, FxHashSet};

use super::anchors::foreign_units;
use super::copies::{copied_from, with_copies};
use super::{add_scaled, claimed, contested, owned, Relative};
use crate::core::paths::named_files;
use crate::core::segment::{Kind, Segment};

/// Whose each tool call is, judged on more than its line (see `ownership`): on its
/// unit, the line with its result, and on its files, every unit whose call names one.
pub struct CallOwnership<'a> {
  /// The call line of every call that has a result, in order.
  pub lines: Vec<usize>,
  /// Per call line: its unit (an index into `lines` and `files`).
  unit_of: FxHashMap<usize, usize>,
  /// Per unit: the files its call names, each once.
  files: Vec<Vec<&'a str>>,
  /// The files this task owns: over every call that names one, it finds more of itself
  /// than any sibling does.
  owned_files: FxHashSet<&'a str>,
  /// Per segment (meaningful on call lines): a sibling claims the unit by its summed
  /// evidence, or the call works only under directories that a sibling's statement names
  /// and this task's does not (`foreign_units`).
  unit_claimed: Vec<bool>,
  /// Per segment: this task owns the unit and a file the call names; the line may name
  /// the file.
  namable: Vec<bool>,
  /// Per segment: of those, the units no sibling comes near (`contested`): the line is
  /// spared a sibling's claim, and is a candidate however faint.
  lifted: Vec<bool>,
}

impl<'a> CallOwnership<'a> {
  /// `segments` of `text`, and per segment the call line its tool result comes with
  /// (`companion`); `statements[0]` is this task's, the rest its siblings'.
  pub fn of(
    text: &'a str,
    segments: &[Segment],
    companion: &[Option<usize>],
    statements: &[&str],
    evidence: &[Vec<f32>],
  ) -> Self {
    let n = segments.len();
    let relative = Relative::new(evidence);
    let tasks = relative.tasks();
    // The text of each message beside its calls: the reasoning a call is made with.
    let mut said: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for (i, s) in segments.iter().enumerate() {
      if companion[i].is_none() && matches!(s.kind, Kind::Text | Kind::Item) {
        said.entry(s.message).or_default().push(i);
      }
    }
    // Units: a call line, its result's segments and the text of the message that makes
    // the call, per task: the line and the reasoning summed, the result by its mean over
    // its segments. What the agent wrote says whose the call is; a result is mostly what
    // the tool echoed back (a file view, an edit's snippet), code that every task on the
    // file matches, and summed, its length alone outweighed what the agent wrote (in one
    // directory, 97 % of a unit's evidence came from its result).
    let mut unit_of: FxHashMap<usize, usize> = FxHashMap::default();
    let mut lines = Vec::new();
    let mut sums: Vec<Vec<f32>> = Vec::new();
    let mut results: Vec<(Vec<f32>, usize)> = Vec::new();
    for (i, c) in companion.iter().enumerate() {
      let Some(c) = *c else { continue };
      let u = *unit_of.entry(c).or_insert_with(|| {
        lines.push(c);
        let mut s = vec![0.0; tasks];
        relative.add_to(&mut s, c);
        for &j in said.get(&segments[c].message).into_iter().flatten() {
          relative.add_to(&mut s, j);
        }
        sums.push(s);
        results.push((vec![0.0; tasks], 0));
        sums.len() - 1
      });
      relative.add_to(&mut results[u].0, i);
      results[u].1 += 1;
    }
    for (s, (r, count)) in sums.iter_mut().zip(&results) {
      add_scaled(s, r, 1.0 / (*count).max(1) as f32);
    }
    let sums = with_copies(&sums, &copied_from(text, segments, companion, &lines));
    let foreign_unit = foreign_units(segments, text, statements, &lines);
    // Files: every unit whose call names the file, each unit once per file; a unit
    // foreign to this task counts for no one.
    let mut files: Vec<Vec<&str>> = Vec::with_capacity(lines.len());
    let mut file_sums: FxHashMap<&str, Vec<f32>> = FxHashMap::default();
    for (u, &c) in lines.iter().enumerate() {
      let seg = &segments[c];
      let mut named: Vec<&str> = named_files(&text[seg.start..seg.end]).collect();
      named.sort_unstable();
      named.dedup();
      for &f in named.iter().filter(|_| !foreign_unit[u]) {
        let s = file_sums.entry(f).or_insert_with(|| vec![0.0; tasks]);
        for (a, b) in s.iter_mut().zip(&sums[u]) {
          *a += b;
        }
      }
      files.push(named);
    }
    let owned_files: FxHashSet<&str> = file_sums
      .into_iter()
      .filter_map(|(f, sums)| owned(&sums).then_some(f))
      .collect();
    let mut unit_claimed = vec![false; n];
    let mut namable = vec![false; n];
    let mut lifted = vec![false; n];
    for (u, &c) in lines.iter().enumerate() {
      unit_claimed[c] = foreign_unit[u] || claimed(&sums[u]);
      namable[c] = !foreign_unit[u] && owned(&sums[u]) && files[u].iter().any(|f| owned_files.contains(f));
      lifted[c] = namable[c] && !contested(&sums[u]);
    }
    Self {
      lines,
      unit_of,
      files,
      owned_files,
      unit_claimed,
      namable,
      lifted,
    }
  }

  /// A tool unit is one piece of work, whole: when a sibling claims any of its segments
  /// (`claims`, per segment), it claims them all, as a whole message is a sibling's when
  /// any of its segments is (`select_messages`). A sibling's edit of a file both tasks
  /// work on otherwise leaks line by line: the lines that name the shared code match
  /// this task as well as the sibling's. Only the line of a call this task owns on a file
  /// it owns, with no sibling near (`lifted`), is spared: it names what this task works
  /// on. (Sparing near ties too kept siblings' edits of the files that tasks in one
  /// directory share: the threads' text sibling share there was 2.57 %, now 2.47 %.)
  pub fn claim_units(&self, companion: &[Option<usize>], claims: &mut [bool]) {
    // Per call line: a sibling claims the unit by its summed evidence or a segment of it,
    // or the unit is foreign.
    let mut unit_claimed = self.unit_claimed.clone();
    for (i, c) in companion.iter().enumerate() {
      if let Some(c) = *c {
        unit_claimed[c] |= claims[i] || claims[c];
      }
    }
    for (i, c) in companion.iter().enumerate() {
      if let Some(c) = *c {
        claims[i] |= unit_claimed[c];
      }
    }
    for &c in &self.lines {
      claims[c] |= unit_claimed[c] && !self.lifted[c];
    }
  }

  /// For each file this task owns, the cheapest line (by `cost`) of a call on it that
  /// this task owns, each line once, in order.
  pub fn naming_lines(&self, cost: impl Fn(usize) -> usize) -> Vec<usize> {
    let mut best: FxHashMap<&str, usize> = FxHashMap::default();
    for (&c, files) in self.lines.iter().zip(&self.files) {
      if !self.namable[c] {
        continue;
      }
      for f in files {
        if self.owned_files.contains(f) {
          let line = best.entry(f).or_insert(c);
          if cost(c) < cost(*line) {
            *line = c;
          }
        }
      }
    }
    let mut lines: Vec<usize> = best.into_values().collect();
    lines.sort_unstable();
    lines.dedup();
    lines
  }

  /// The files the call on `line` names.
  pub fn files(&self, line: usize) -> &[&'a str] {
    self.unit_of.get(&line).map_or(&[], |&u| &self.files[u])
  }

  pub fn claimed(&self, line: usize) -> bool {
    self.unit_claimed[line]
  }

  pub fn lifted(&self, line: usize) -> bool {
    self.lifted[line]
  }
}

#[cfg(test)]
pub(super) mod tests {
  use super::*;

  /// `text` cut into segments, one per piece, each its own message but for results,
  /// which share theirs: `(piece, kind, result of the call at segment)`.
  pub(in crate::core::ownership) fn doc(
    pieces: &[(&str, Kind, Option<usize>)],
  ) -> (String, Vec<Segment>, Vec<Option<usize>>) {
    let mut text = String::new();
    let mut segments = Vec::new();
    let mut companion = Vec::new();
    for (i, (piece, kind, call)) in pieces.iter().enumerate() {
      let start = text.len();
      text.push_str(piece);
      let message = call.map_or(i, |c| c + 1);
      segments.push(Segment {
        start,
        end: text.len(),
        kind: *kind,
        block: i,
        heading: None,
        message,
      });
      text.push_str("\n\n");
      companion.push(*call);
    }
    (text, segments, companion)
  }

  #[test]
  fn a_long_echo_does_not_outweigh_what_the_agent_wrote() {
    // This task's edit of a file both tasks read: its line is this task's (own 3.0,
    // sibling 0.3), and the tool echoes back 30 lines of the file that the sibling
    // matches a little better, line by line (0.6 against 0.5). Summed, the echo's length
    // alone would make the unit the sibling's; by its mean it is one more piece.
    let mut pieces = vec![("→ edit {\"path\":\"/repo/src/parser.rs\"}", Kind::Call, None)];
    pieces.extend(std::iter::repeat_n(
      ("parse_expr(tokens, depth)", Kind::Text, Some(0)),
      30,
    ));
    pieces.extend(std::iter::repeat_n(("other work", Kind::Text, None), 30));
    let (text, segments, companion) = doc(&pieces);
    let mut own = vec![3.0];
    own.extend([0.5; 30]);
    own.extend([1.0; 30]);
    let mut sibling = vec![0.3];
    sibling.extend([0.6; 30]);
    sibling.extend([1.0; 30]);
    let evidence = [own, sibling];
    let calls = CallOwnership::of(&text, &segments, &companion, &["task", "sibling"], &evidence);
    assert!(!calls.claimed(0));
    // Summed, the sibling finds more of itself in the unit.
    let relative = Relative::new(&evidence);
    let mut sums = vec![0.0; 2];
    (0..31).for_each(|i| relative.add_to(&mut sums, i));
    assert!(claimed(&sums), "{sums:?}");
  }
}
