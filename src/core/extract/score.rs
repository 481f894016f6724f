//! Every task's scores on one document: this task's and its siblings'.

use std::sync::Arc;

use super::doc::Doc;
use super::prepared::ScoredSets;
use super::Options;
use crate::core::cancel::{Cancel, Cancelled};
use crate::core::relevance::feedback::feedback;
use crate::core::relevance::weights::WEIGHT_FEEDBACK;
use crate::core::relevance::{fold_ascii, phrase_bonuses, scores_with, Index, Leads, Postings};
use crate::core::terms::Terms;

/// Every task's scores on one document: its terms (with what the feedback round
/// learned), and per segment its score and its ownership evidence; one index of all
/// the tasks' terms.
pub(super) struct Scored {
  pub terms: Vec<Terms>,
  pub index: Index,
  pub scores: Vec<Vec<f32>>,
  pub evidence: Vec<Vec<f32>>,
  /// Per task, the segments of the sections ranked first (`Relevance::top`).
  pub top: Vec<Vec<bool>>,
}

/// One task's view of the scores of it and its siblings: its row in `scored`, and the
/// ownership evidence of it and then each sibling, in the order of `siblingTasks`.
pub(super) struct TaskScores {
  pub scored: Arc<Scored>,
  row: usize,
  pub evidence: Vec<Vec<f32>>,
}

impl TaskScores {
  pub fn terms(&self) -> &Terms {
    &self.scored.terms[self.row]
  }
  pub fn own(&self) -> &[f32] {
    &self.scored.scores[self.row]
  }
  pub fn top(&self) -> &[bool] {
    &self.scored.top[self.row]
  }
}

/// The scores of `task` and its siblings (from `postings` when given, else read from the
/// text). The tasks are scored in one order whatever their order in the call, so one
/// set of tasks gets one set of scores; a prepared thread keeps the last few sets it
/// scored (`ScoredSets`), since the spawns of a batch each ask for the same set: each
/// task with the others as its siblings.
pub(super) fn score_all(
  doc: &Doc,
  postings: Option<(&Postings, &ScoredSets)>,
  leads: &Leads,
  task: &str,
  options: &Options,
  cancel: &Cancel,
) -> Result<TaskScores, Cancelled> {
  let tasks: Vec<&str> = std::iter::once(task)
    .chain(options.sibling_tasks.iter().map(String::as_str))
    .collect();
  let mut order: Vec<usize> = (0..tasks.len()).collect();
  order.sort_by(|&a, &b| tasks[a].cmp(tasks[b]).then(a.cmp(&b)));
  let sorted: Vec<&str> = order.iter().map(|&k| tasks[k]).collect();
  let scored = match postings {
    Some((p, sets)) => sets.get_or_score(&sorted, || score_tasks(doc, Some(p), leads, &sorted, cancel))?,
    None => Arc::new(score_tasks(doc, None, leads, &sorted, cancel)?),
  };
  let mut rows = vec![0; tasks.len()];
  for (row, &k) in order.iter().enumerate() {
    rows[k] = row;
  }
  let evidence = rows.iter().map(|&r| scored.evidence[r].clone()).collect();
  Ok(TaskScores {
    row: rows[0],
    scored,
    evidence,
  })
}

/// Scores `tasks` in the order given, from a prepared thread's postings when given.
fn score_tasks(
  doc: &Doc,
  postings: Option<&Postings>,
  leads: &Leads,
  tasks: &[&str],
  cancel: &Cancel,
) -> Result<Scored, Cancelled> {
  let (text, segments) = (&*doc.text, doc.segments.as_slice());
  let mut queries: Vec<Terms> = tasks.iter().map(|t| Terms::of_task(t)).collect();
  let folded: Arc<str> = postings.map_or_else(|| fold_ascii(text).into(), |p| Arc::clone(p.folded()));
  // Phrases stay as they are through the feedback round: they are found once.
  let bonuses = {
    let refs: Vec<&Terms> = queries.iter().collect();
    phrase_bonuses(&folded, segments, postings.map(Postings::trigrams), &refs)
  };
  let mut round = 0;
  loop {
    let refs: Vec<&Terms> = queries.iter().collect();
    let index = match postings {
      Some(p) => p.index(&refs),
      None => Index::build_repeating(text, Arc::clone(&folded), segments, &doc.same, &refs),
    };
    cancel.check()?;
    let mut scores = Vec::with_capacity(queries.len());
    let mut evidence = Vec::with_capacity(queries.len());
    let mut top = Vec::with_capacity(queries.len());
    for (q, b) in queries.iter().zip(&bonuses) {
      let r = scores_with(text, segments, &index, q, b, leads, queries.len() > 1);
      scores.push(r.scores);
      evidence.push(r.evidence);
      top.push(r.top);
    }
    cancel.check()?;
    // With siblings, each task's own vocabulary is learned from what it already owns
    // (one round), then everything is scored again.
    if queries.len() > 1 && round == 0 {
      let learned = feedback(text, segments, &scores, &evidence);
      if learned.iter().any(|l| !l.is_empty()) {
        for (q, terms) in queries.iter_mut().zip(learned) {
          for t in terms {
            q.weights.entry(t).or_insert(WEIGHT_FEEDBACK);
          }
        }
        round += 1;
        continue;
      }
    }
    return Ok(Scored {
      terms: queries,
      index,
      scores,
      evidence,
      top,
    });
  }
}

/// The score `min_relevance` is relative to: the best score outside the sections ranked
/// first (`top`: the pair lifted to the top, or the best section), or, where those are
/// not given, outside the section (or message unit) of the best score in `group`; the
/// best when there is no other. The first sections must not set the scale for all the
/// others: a thread quotes the task's own statement, which matches the task like nothing
/// else can, and against it every message that works on the task (the files it reads
/// and edits) would look faint; so would the sections that add to the answer the pair
/// put first gives.
pub(super) fn reference(scores: &[f32], group: &[usize], top: &[bool]) -> f32 {
  let Some(best) = (0..scores.len()).max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a))) else {
    return 0.0;
  };
  let outside = |i: usize| {
    if top.is_empty() {
      group[i] != group[best]
    } else {
      !top[i]
    }
  };
  let others = (0..scores.len())
    .filter(|&i| outside(i))
    .map(|i| scores[i])
    .fold(0.0, f32::max);
  if others > 0.0 {
    others
  } else {
    scores[best]
  }
}
