//! Anchors: the message that sets a task names the directories it works in.

use std::ops::Range;

use crate::core::paths::{absolute_paths, under};
use crate::core::segment::Segment;

/// Per unit (a call line of `lines`): whether its call works only under directories
/// that a sibling's statement names and this task's does not. A task's statement is
/// quoted in the thread by the message that set the task (its anchor), and the
/// directories that message names (`/workspace/app-v2`) are where the task works: a
/// call on `/workspace/app-v1/src/cli.py` is the work of the sibling whose anchor names
/// `/workspace/app-v1`, however much its code looks like this task's. Only absolute
/// paths count, and only when this task's anchor names some: a task the thread never
/// quotes, or one whose anchor names no directory, claims nothing by this rule.
pub(super) fn foreign_units(
  segments: &[Segment],
  text: &str,
  statements: &[&str],
  lines: &[usize],
) -> Vec<bool> {
  let mut foreign = vec![false; lines.len()];
  // Without siblings (a tight budget reads calls too) there is no one else's anchor.
  let Some(own) = (statements.len() > 1)
    .then(|| anchor(segments, text, statements[0]))
    .flatten()
  else {
    return foreign;
  };
  // Plain text is one message, the anchor of every task: nothing to tell apart.
  let others: Vec<Range<usize>> = statements[1..]
    .iter()
    .filter_map(|t| anchor(segments, text, t))
    .filter(|a| *a != own)
    .collect();
  if others.is_empty() {
    return foreign;
  }
  let own: Vec<&str> = absolute_paths(&text[own]).collect();
  let related = |a: &str, b: &str| under(a, b) || under(b, a);
  let theirs: Vec<&str> = others
    .into_iter()
    .flat_map(|a| absolute_paths(&text[a]))
    .filter(|r| !own.iter().any(|o| related(r, o)))
    .collect();
  if own.is_empty() || theirs.is_empty() {
    return foreign;
  }
  for (u, &c) in lines.iter().enumerate() {
    let seg = &segments[c];
    let paths: Vec<&str> = absolute_paths(&text[seg.start..seg.end]).collect();
    foreign[u] = paths.iter().any(|p| theirs.iter().any(|r| under(p, r)))
      && !paths.iter().any(|p| own.iter().any(|r| under(p, r)));
  }
  foreign
}

/// The span of the message that first quotes `task` in the thread (its anchor), if any.
fn anchor(segments: &[Segment], text: &str, task: &str) -> Option<Range<usize>> {
  let task = task.trim();
  if task.is_empty() {
    return None;
  }
  let at = memchr::memmem::find(text.as_bytes(), task.as_bytes())?;
  let i = segments.partition_point(|s| s.end <= at);
  let message = segments.get(i)?.message;
  let first = segments[..i]
    .iter()
    .rposition(|s| s.message != message)
    .map_or(0, |p| p + 1);
  let last = segments[i..]
    .iter()
    .position(|s| s.message != message)
    .map_or(segments.len(), |p| i + p);
  Some(segments[first].start..segments[last - 1].end)
}
