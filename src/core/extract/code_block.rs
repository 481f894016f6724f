//! A fenced code block is kept whole, never cut inside, unless it alone exceeds the
//! budget: then it is cut to the run of its lines that matters most to the task, as
//! many lines as the room left holds.

use std::ops::Range;

use crate::core::terms::{for_each_form, words, Terms};
use crate::core::tokens::Counter;

/// The run of whole lines of `text[block]` with the most weight of `terms` whose text
/// counts at most `room` tokens (the earliest of equals), as a byte range of `text`
/// without its outer white space, and its count. `None` when no line with a term fits.
pub fn best_lines(
  text: &str,
  block: Range<usize>,
  terms: &Terms,
  room: usize,
  counter: &mut Counter,
) -> Option<(Range<usize>, usize)> {
  // Per line: its byte range (with its line break), its tokens, and the prefix sum of
  // the weights of the terms it holds.
  let mut lines: Vec<(Range<usize>, usize)> = Vec::new();
  let mut weight = vec![0f64];
  let mut buf = String::new();
  let mut start = block.start;
  for line in text[block].split_inclusive('\n') {
    let mut w = 0f64;
    for word in words(line) {
      for_each_form(word, &mut buf, |form| {
        w += f64::from(terms.weights.get(form).copied().unwrap_or(0.0))
      });
    }
    weight.push(weight[weight.len() - 1] + w);
    lines.push((start..start + line.len(), counter.count(line)));
    start += line.len();
  }
  // The heaviest window within `room` by the lines' own counts (two pointers).
  let mut best: Option<(usize, usize)> = None;
  let mut best_weight = 0.0;
  let (mut a, mut tokens) = (0, 0);
  for b in 0..lines.len() {
    tokens += lines[b].1;
    while tokens > room && a <= b {
      tokens -= lines[a].1;
      a += 1;
    }
    if a <= b && weight[b + 1] - weight[a] > best_weight {
      best_weight = weight[b + 1] - weight[a];
      best = Some((a, b));
    }
  }
  // Counted whole, the window may differ where its lines join: it gives up its lighter
  // end line until it fits.
  let (mut a, mut b) = best?;
  loop {
    let range = trimmed(text, lines[a].0.start..lines[b].0.end);
    let tokens = counter.count(&text[range.clone()]);
    if tokens <= room {
      return Some((range, tokens));
    }
    if a == b {
      return None;
    }
    if weight[a + 1] - weight[a] <= weight[b + 1] - weight[b] {
      a += 1;
    } else {
      b -= 1;
    }
  }
}

fn trimmed(text: &str, range: Range<usize>) -> Range<usize> {
  let s = &text[range.clone()];
  let start = range.start + (s.len() - s.trim_start().len());
  start..(start + s.trim().len()).max(start)
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::core::tokens::{count_tokens, Encoding};

  fn cut(block: &str, task: &str, room: usize) -> Option<&'static str> {
    let text: &'static str = Box::leak(block.to_owned().into_boxed_str());
    let mut counter = Counter::new(Encoding::O200kBase);
    best_lines(text, 0..text.len(), &Terms::of_task(task), room, &mut counter).map(|(r, n)| {
      assert_eq!(n, count_tokens(&text[r.clone()], Encoding::O200kBase));
      assert!(n <= room);
      &text[r]
    })
  }

  #[test]
  fn keeps_the_lines_about_the_task_within_the_room() {
    let block = "```python\nimport os\nimport sys\n\ndef unrelated():\n    return 1\n\ndef parse_header(line):\n    key, value = line.split(':', 1)\n    return key.strip(), value.strip()\n\ndef other():\n    pass\n```";
    let got = cut(block, "fix parse_header when the header line has no value", 30).unwrap();
    assert!(got.contains("def parse_header(line):"), "{got}");
    assert!(!got.contains("import os") && !got.contains("def other"), "{got}");
    assert!(block.contains(got));
  }

  #[test]
  fn nothing_when_no_line_fits_or_none_is_relevant() {
    let block = "```\nalpha beta gamma delta epsilon zeta eta theta\n```";
    assert_eq!(cut(block, "gamma", 2), None);
    assert_eq!(cut(block, "weather report", 100), None);
  }
}
