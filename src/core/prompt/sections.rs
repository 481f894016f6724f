//! The prompt's sections, each written the same way in either order: a blank line, its
//! heading, and its body. Every string that could open a heading or a list of its own
//! (a path, an id, a dependency) is put on one line first.

use std::fmt::Write;

use crate::core::isolate::Architecture;

/// `## Architectural Context`. `sorted`: dependencies by name (then version), so that
/// siblings whose callers listed them in different orders render the same bytes.
pub fn architecture(out: &mut String, a: &Architecture, sorted: bool) {
  out.push_str("\n## Architectural Context\n");
  if !a.project_structure.trim().is_empty() {
    let fence = fence_for(&a.project_structure);
    let _ = write!(
      out,
      "\n**Project structure:**\n\n{fence}\n{}\n{fence}\n",
      a.project_structure.trim_end()
    );
  }
  list(out, "**Key patterns:**", a.key_patterns.iter());
  list(out, "**Relevant ADRs:**", a.relevant_adrs.iter());
  if !a.dependencies.is_empty() {
    let mut dependencies: Vec<(String, String)> = a
      .dependencies
      .iter()
      .map(|(n, v)| (one_line(n), one_line(v)))
      .collect();
    if sorted {
      dependencies.sort();
    }
    out.push_str("\n**Dependencies:**\n\n");
    for (name, version) in dependencies {
      let _ = writeln!(out, "- {name}: {version}");
    }
  }
  if !a.naming_conventions.trim().is_empty() {
    let _ = write!(out, "\n**Naming conventions:** {}\n", a.naming_conventions.trim());
  }
  if !a.track_nomenclature.trim().is_empty() {
    let _ = write!(out, "\n**Task ID format:** {}\n", a.track_nomenclature.trim());
  }
}

/// A titled block of free text (`## Instructions`), nothing when it is blank.
pub fn text(out: &mut String, title: &str, body: Option<&str>) {
  if let Some(body) = body.map(str::trim).filter(|b| !b.is_empty()) {
    let _ = write!(out, "\n{title}\n\n{body}\n");
  }
}

/// A titled list of files, each with its path and its full content in a fence longer
/// than any backtick run inside it; nothing when there are none.
pub fn files<'a>(out: &mut String, title: &str, files: impl IntoIterator<Item = &'a (String, String)>) {
  let mut files = files.into_iter().peekable();
  if files.peek().is_none() {
    return;
  }
  let _ = writeln!(out, "\n{title}");
  for (path, content) in files {
    let fence = fence_for(content);
    let language = language(path);
    let _ = write!(out, "\n### {}\n\n{fence}{language}\n{content}", one_line(path));
    if !content.ends_with('\n') {
      out.push('\n');
    }
    let _ = writeln!(out, "{fence}");
  }
}

/// A titled bullet list of the non-empty `items`; nothing when there are none.
pub fn list<'a>(out: &mut String, title: &str, items: impl IntoIterator<Item = &'a String>) {
  let items: Vec<&str> = items
    .into_iter()
    .map(|s| s.trim())
    .filter(|s| !s.is_empty())
    .collect();
  if items.is_empty() {
    return;
  }
  let _ = write!(out, "\n{title}\n\n");
  for item in items {
    let _ = writeln!(out, "- {}", item.replace('\n', "\n  "));
  }
}

/// `## Your Task`: the task id, the full task text and the original request.
pub fn task(out: &mut String, task_id: Option<&str>, task: &str, original_query: Option<&str>) {
  out.push_str("\n## Your Task\n\n");
  if let Some(id) = task_id {
    let _ = writeln!(out, "**Task ID:** {id}\n");
  }
  out.push_str(task.trim());
  out.push('\n');
  if let Some(q) = original_query.map(str::trim).filter(|q| !q.is_empty()) {
    let _ = write!(out, "\n**Original request:** {q}\n");
  }
}

/// `## Notes`: one task only, the task id in tool descriptions, questions, self-review.
pub fn notes(out: &mut String, task_id: Option<&str>) {
  out.push_str("\n## Notes\n\n");
  match task_id {
    Some(id) => {
      let _ = writeln!(out, "- Work on this task ({id}) and nothing beyond it.");
      let _ = writeln!(
        out,
        "- Include the task ID ({id}) in the description of every tool call you make."
      );
    }
    None => out.push_str("- Work on this task and nothing beyond it.\n"),
  }
  out.push_str("- If anything is unclear, ask a clarifying question instead of guessing.\n");
  out.push_str("- Before you finish, review your work against the task and the constraints.\n");
}

/// `s` on one line, so that it cannot open a heading or a list of its own.
pub fn one_line(s: &str) -> String {
  s.split(|c: char| c.is_control() || c == '\u{2028}' || c == '\u{2029}')
    .filter(|p| !p.is_empty())
    .collect::<Vec<_>>()
    .join(" ")
    .trim()
    .to_string()
}

/// A backtick fence longer than any run of backticks in `content` (at least three).
fn fence_for(content: &str) -> String {
  let mut longest = 0;
  let mut run = 0;
  for b in content.bytes() {
    run = if b == b'`' { run + 1 } else { 0 };
    longest = longest.max(run);
  }
  "`".repeat((longest + 1).max(3))
}

/// The fence's language for a path's extension, when it is a plain word.
fn language(path: &str) -> &str {
  let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
  match name.rsplit_once('.') {
    Some((stem, ext))
      if !stem.is_empty()
        && !ext.is_empty()
        && ext.len() <= 10
        && ext.bytes().all(|b| b.is_ascii_alphanumeric()) =>
    {
      ext
    }
    _ => "",
  }
}
