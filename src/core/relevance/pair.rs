//! The pair of titled sections that answer the task together, lifted to the top.

use std::borrow::Cow;

use super::bm25;
use super::groups::Groups;
use super::index::Index;
use super::links::named_titles;
use super::weights::{PAIR_CANDIDATES, PAIR_FLOOR, PAIR_K1, PAIR_LEAD, W_BACKLINK, W_LINK, W_TITLE};

/// The two sections that answer the task together, moved to the top: a task often needs
/// two pieces of text, the one it names and the one that names what the task asks about
/// ("the director of Ed Wood" → "Ed Wood" names "Tim Burton", whose section has the
/// answer). Among the most relevant sections, every pair is scored by what the two cover
/// of the task's terms together (a term counted once, however many times it is found),
/// the task's names they carry (one per distinct title: two sections titled alike are
/// two things of one name, of which the task means one), and whether one names the
/// other. The pair goes to the top; the other candidates keep their title and link
/// evidence, but their text counts only the task terms the pair leaves uncovered.
/// Returns the pair lifted, if one was.
#[allow(clippy::too_many_arguments)]
pub(super) fn lift_pair<'a>(
  relevance: &mut [f32],
  base: &[f32],
  index: &Index,
  weights: &[f32],
  bags: &Groups,
  titles: &[Vec<String>],
  named_by_task: &[bool],
  body: impl Fn(usize) -> Cow<'a, str>,
) -> Option<[usize; 2]> {
  let mut order: Vec<usize> = (0..relevance.len()).filter(|&k| relevance[k] > 0.0).collect();
  order.sort_by(|&a, &b| relevance[b].total_cmp(&relevance[a]).then(a.cmp(&b)));
  order.truncate(PAIR_CANDIDATES);
  // Titled sections only (documents about one thing each, which can name one another),
  // and only when the best section is one: a thread's messages are no such pieces.
  if order.first().is_none_or(|&k| titles[k].is_empty()) {
    return None;
  }
  order.retain(|&k| !titles[k].is_empty());
  let n = order.len();
  if n < 2 {
    return None;
  }
  let best = relevance[order[0]];
  let nonempty = bags.len.iter().filter(|&&l| l > 0).count().max(1);
  let avg = (bags.len.iter().map(|&l| l as f64).sum::<f64>() / nonempty as f64).max(1.0) as f32;
  let lex = |k: usize, seen: &[bool]| -> f32 {
    let saturation = bm25::saturation(PAIR_K1, bags.len[k], avg);
    bags.terms[k]
      .iter()
      .filter(|&&(t, _)| !seen[t])
      .map(|&(t, f)| bm25::term(PAIR_K1, weights[t], index.idf(t), f, saturation))
      .sum()
  };
  let none = vec![false; weights.len()];
  let alone: Vec<f32> = order.iter().map(|&k| lex(k, &none)).collect();
  let scale = alone.iter().copied().fold(0.0, f32::max);
  if scale <= 0.0 {
    return None;
  }
  let titled: Vec<Vec<String>> = order.iter().map(|&k| titles[k].clone()).collect();
  // names[i][j]: candidate i's text names candidate j's title.
  let names: Vec<Vec<bool>> = order.iter().map(|&k| named_titles(&body(k), &titled)).collect();
  let same = |i: usize, j: usize| titled[i].iter().any(|t| titled[j].contains(t));
  let linked = |i: usize, j: usize| (names[i][j] || names[j][i]) && !same(i, j);
  let title = |i: usize| if named_by_task[order[i]] { W_TITLE } else { 0.0 };
  let mut pair = (f32::MIN, 0, 1);
  let mut seen = vec![false; weights.len()];
  for i in 0..n {
    for &(t, _) in &bags.terms[order[i]] {
      seen[t] = true;
    }
    for (j, &other) in order.iter().enumerate() {
      if i == j {
        continue;
      }
      let titles = if same(i, j) {
        title(i).max(title(j))
      } else {
        title(i) + title(j)
      };
      // A link tells of a section the task does not name: between two sections the task
      // names, it says nothing the task has not said.
      let both_named = named_by_task[order[i]] && named_by_task[other];
      // A section the task names that names the other tells of it (the bridge: "Ed Wood"
      // names "Tim Burton"); the other only mentioning the named one is a weaker sign, as
      // a back link is.
      let back = |a: usize, b: usize| named_by_task[order[a]] && !named_by_task[order[b]] && !names[a][b];
      let link = if !linked(i, j) || both_named {
        0.0
      } else if back(i, j) || back(j, i) {
        W_BACKLINK
      } else {
        W_LINK
      };
      let s = (alone[i] + lex(other, &seen)) / scale + titles + link;
      if s > pair.0 {
        pair = (s, i, j);
      }
    }
    for &(t, _) in &bags.terms[order[i]] {
      seen[t] = false;
    }
  }
  let (_, a, b) = pair;
  // A pair is lifted only when both halves are relevant in their own right: a faint
  // second section is not made to look as relevant as the best.
  if relevance[order[a]].min(relevance[order[b]]) < PAIR_FLOOR * best {
    return None;
  }
  for x in [a, b] {
    for &(t, _) in &bags.terms[order[x]] {
      seen[t] = true;
    }
  }
  for (i, &k) in order.iter().enumerate() {
    if i != a && i != b {
      relevance[k] = (relevance[k] - base[k] + lex(k, &seen) / scale).max(0.0);
    }
  }
  // A little above the best, so that the pair comes first and the scale stays.
  let top = best * (1.0 + PAIR_LEAD);
  relevance[order[a]] = top;
  relevance[order[b]] = top;
  Some([order[a], order[b]])
}
