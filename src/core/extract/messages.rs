//! Whole messages within the budget: tool units kept whole, the best first.

use rustc_hash::{FxHashMap, FxHashSet};

use super::doc::Doc;
use super::score::reference;
use super::select::name_each_file_once;
use super::Options;
use crate::core::message::{Message, Part, REPLY_PRIMER};
use crate::core::paths::named_files;

/// A unit that names a file first on a tight budget takes at most 1/this of the budget:
/// naming files is to spread the budget, not to spend half of it on one read.
const NAMING_SHARE: usize = 2;

/// The most relevant whole messages within the budget: messages linked by tool-call
/// ids form one unit, kept or dropped together; system and recent messages first.
pub(super) fn select_messages(
  messages: &[Message],
  message_tokens: &[usize],
  scores: &[(f32, bool)],
  doc: &Doc,
  options: &Options,
) -> Vec<usize> {
  // Units: union of the messages that share a tool-call id.
  let mut parent: Vec<usize> = (0..messages.len()).collect();
  fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    i
  }
  // A result answers the latest call before it with its id (ids can be reused); a call
  // the input never answered (an agent's pending last action) cannot be sent without
  // its result: its unit is kept only when asked for (system, recent).
  let mut caller: FxHashMap<&str, usize> = FxHashMap::default();
  let mut calls: Vec<(usize, &str)> = Vec::new();
  let mut answered: FxHashSet<(usize, &str)> = FxHashSet::default();
  let mut linked: FxHashMap<&str, usize> = FxHashMap::default();
  for (i, m) in messages.iter().enumerate() {
    for p in &m.parts {
      match p {
        Part::ToolCall { id, .. } => {
          caller.insert(id.as_str(), i);
          calls.push((i, id.as_str()));
        }
        Part::ToolResult { call_id, .. } => {
          if let Some(&c) = caller.get(call_id.as_str()) {
            let (a, b) = (root(&mut parent, i), root(&mut parent, c));
            parent[a] = b;
            answered.insert((c, call_id.as_str()));
          }
        }
        // An approval and its response: one unit, as a call and its result.
        Part::Link(id) => match linked.get(id.as_str()) {
          Some(&c) => {
            let (a, b) = (root(&mut parent, i), root(&mut parent, c));
            parent[a] = b;
          }
          None => {
            linked.insert(id.as_str(), i);
          }
        },
        _ => {}
      }
    }
  }
  let units: Vec<usize> = (0..messages.len()).map(|i| root(&mut parent, i)).collect();
  let mut unanswered = vec![false; messages.len()];
  for &(i, id) in &calls {
    if !answered.contains(&(i, id)) {
      unanswered[units[i]] = true;
    }
  }
  // A unit's relevance is its best segment's, unless it belongs to a sibling.
  let mut unit_score = vec![0f32; messages.len()];
  let mut unit_sibling = vec![false; messages.len()];
  for (k, s) in doc.segments.iter().enumerate() {
    let u = units[s.message];
    let (score, sibling) = scores[k];
    if sibling {
      unit_sibling[u] = true;
    } else if !doc.internal[k] {
      unit_score[u] = unit_score[u].max(score);
    }
  }
  // A sibling's unit is never kept, so its best segment must not set the scale the
  // threshold is taken from either.
  for u in 0..messages.len() {
    if unit_sibling[u] {
      unit_score[u] = 0.0;
    }
  }
  let last_recent = messages.len().saturating_sub(options.keep_recent);
  let forced_unit: Vec<bool> = {
    let mut f = vec![false; messages.len()];
    for (i, m) in messages.iter().enumerate() {
      if (options.keep_system && m.role == "system") || i >= last_recent {
        f[units[i]] = true;
      }
    }
    f
  };
  let mut cost = vec![0usize; messages.len()];
  for (i, &t) in message_tokens.iter().enumerate() {
    cost[units[i]] += t;
  }
  // `min_relevance` is relative to the best unit but the top one (see `reference`).
  let ids: Vec<usize> = (0..messages.len()).collect();
  let threshold = options.min_relevance.clamp(0.0, 1.0) * reference(&unit_score, &ids, &[]);
  let mut order: Vec<usize> = (0..messages.len()).filter(|&u| units[u] == u).collect();
  order.sort_by(|&a, &b| {
    forced_unit[b]
      .cmp(&forced_unit[a])
      .then(unit_score[b].total_cmp(&unit_score[a]))
      .then(a.cmp(&b))
  });
  let budget = options.max_tokens.unwrap_or(usize::MAX);
  let qualifies =
    |u: usize| !unit_sibling[u] && !unanswered[u] && unit_score[u] > 0.0 && unit_score[u] >= threshold;
  let mut used = REPLY_PRIMER;
  let mut kept_unit = vec![false; messages.len()];
  let take = |u: usize, kept_unit: &mut [bool], used: &mut usize| {
    let fits = !kept_unit[u] && *used + cost[u] <= budget;
    if fits {
      *used += cost[u];
      kept_unit[u] = true;
    }
    fits
  };
  for &u in order.iter().filter(|&&u| forced_unit[u]) {
    take(u, &mut kept_unit, &mut used);
  }
  // When the budget cannot hold every qualifying unit, each file the units' tool calls
  // name (a path in their arguments: what the agent acted on) is named once first
  // (`name_each_file_once`), by a unit that takes at most `NAMING_SHARE` of the budget;
  // then the rest by score.
  let wanted: usize = order
    .iter()
    .filter(|&&u| !forced_unit[u] && qualifies(u))
    .map(|&u| cost[u])
    .sum();
  if used.saturating_add(wanted) > budget {
    let candidate = |u: usize| !forced_unit[u] && qualifies(u) && cost[u] <= budget / NAMING_SHARE;
    let mut files: Vec<Vec<&str>> = vec![Vec::new(); messages.len()];
    for (i, m) in messages.iter().enumerate() {
      let u = units[i];
      if kept_unit[u] || candidate(u) {
        for p in &m.parts {
          if let Part::ToolCall { arguments, .. } = p {
            files[u].extend(named_files(arguments));
          }
        }
      }
    }
    let mut named: FxHashSet<&str> = FxHashSet::default();
    for u in 0..messages.len() {
      if kept_unit[u] {
        named.extend(files[u].iter().copied());
      }
    }
    let naming = order.iter().copied().filter(|&u| candidate(u));
    name_each_file_once(
      naming,
      |u| &files[u],
      &mut named,
      |u| take(u, &mut kept_unit, &mut used),
    );
  }
  for &u in &order {
    if !forced_unit[u] && qualifies(u) {
      take(u, &mut kept_unit, &mut used);
    }
  }
  (0..messages.len()).filter(|&i| kept_unit[units[i]]).collect()
}
