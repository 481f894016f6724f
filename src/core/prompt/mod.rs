//! The subagent's prompt, with the seed ADR's sections: the task, the architecture,
//! the files' contents, constraints, clarifications, the relevant context and short
//! working notes. It speaks of this task only: nothing in it names another task or
//! says how many there are.
//!
//! Two orders. `Order::Cache` (the default) puts what siblings share first —
//! architecture, instructions, constraints, the files and clarifications every sibling
//! gets — and then what is this task's own, so that siblings' prompts begin with the
//! same bytes and a provider's prompt cache serves that prefix to all but the first.
//! The shared part holds no task id, task text, count or date. `Order::Adr` keeps the
//! ADR's order, task first.

mod sections;

use std::collections::HashSet;

use crate::core::isolate::SubagentContext;
use sections::one_line;

/// Where the sections go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
  /// What siblings share first, byte-identical across them; then the task's own part.
  #[default]
  Cache,
  /// The seed ADR's order: the task first.
  Adr,
}

/// Which of a context's material its siblings get too, as a batch found it. Lists are
/// matched by value (files by path); the shared part lists them in this order, so
/// siblings whose own lists are in different orders render the same bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedMaterial {
  pub architecture: bool,
  pub instructions: bool,
  pub files: Vec<String>,
  pub constraints: Vec<String>,
  pub clarifications: Vec<String>,
}

#[derive(Clone, Debug, Default)]
pub struct PromptOptions {
  pub order: Order,
  /// `None`: all of the context's architecture, instructions, constraints, files and
  /// clarifications count as shared (one prompt rendered on its own).
  pub shared: Option<SharedMaterial>,
}

/// A prompt in two parts: `shared + task` is the whole prompt. In the ADR order `shared`
/// is empty: the prompt begins with the task.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PromptParts {
  pub shared: String,
  pub task: String,
}

/// Renders `context` as the subagent's prompt in the default (cache) order, all of its
/// shareable material counted as shared.
pub fn render_prompt(c: &SubagentContext) -> String {
  render_prompt_with(c, &PromptOptions::default())
}

/// Renders `context` as the subagent's prompt. Sections with nothing in them are left
/// out; a file's content goes in a fence longer than any backtick run inside it.
pub fn render_prompt_with(c: &SubagentContext, options: &PromptOptions) -> String {
  let PromptParts { mut shared, task } = render_parts(c, options);
  shared.push_str(&task);
  shared
}

/// The prompt's shared part and its task part (see `PromptParts`).
pub fn render_parts(c: &SubagentContext, options: &PromptOptions) -> PromptParts {
  let task_id = c.task_id.as_deref().map(one_line).filter(|id| !id.is_empty());
  let mut parts = match options.order {
    Order::Adr => PromptParts {
      shared: String::new(),
      task: adr(c, task_id.as_deref()),
    },
    Order::Cache => cache(c, task_id.as_deref(), options.shared.as_ref()),
  };
  // Every section opens with a blank line; the prompt itself does not.
  let first = if parts.shared.is_empty() {
    &mut parts.task
  } else {
    &mut parts.shared
  };
  if first.starts_with('\n') {
    first.remove(0);
  }
  parts
}

fn adr(c: &SubagentContext, task_id: Option<&str>) -> String {
  let mut out = String::new();
  sections::task(&mut out, task_id, &c.task, c.original_query.as_deref());
  sections::text(&mut out, "## Instructions", c.instructions.as_deref());
  if let Some(a) = &c.architecture {
    sections::architecture(&mut out, a, false);
  }
  sections::files(&mut out, "## File Contents", &c.files);
  sections::list(&mut out, "## Constraints", &c.constraints);
  sections::list(&mut out, "## Clarifications", &c.clarifications);
  sections::text(&mut out, "## Relevant Context", c.relevant_context.as_deref());
  sections::notes(&mut out, task_id);
  out
}

/// The cache order: the shared part (architecture, instructions, constraints, files,
/// clarifications that `shared` names, or all of them), then the task, its own
/// material, the relevant context and the notes.
fn cache(c: &SubagentContext, task_id: Option<&str>, shared: Option<&SharedMaterial>) -> PromptParts {
  let (constraints, own_constraints) = split(&c.constraints, shared.map(|s| &s.constraints[..]), itself);
  let (clarifications, own_clarifications) =
    split(&c.clarifications, shared.map(|s| &s.clarifications[..]), itself);
  let (files, own_files) = split(&c.files, shared.map(|s| &s.files[..]), path);
  let architecture_shared = shared.is_none_or(|s| s.architecture);
  let instructions_shared = shared.is_none_or(|s| s.instructions);

  let mut common = String::new();
  if architecture_shared {
    if let Some(a) = &c.architecture {
      sections::architecture(&mut common, a, true);
    }
  }
  if instructions_shared {
    sections::text(&mut common, "## Instructions", c.instructions.as_deref());
  }
  sections::list(&mut common, "## Constraints", constraints);
  sections::files(&mut common, "## File Contents", files);
  sections::list(&mut common, "## Clarifications", clarifications);

  let mut task = String::new();
  sections::task(&mut task, task_id, &c.task, c.original_query.as_deref());
  if !instructions_shared {
    sections::text(&mut task, "## Instructions", c.instructions.as_deref());
  }
  if !architecture_shared {
    if let Some(a) = &c.architecture {
      sections::architecture(&mut task, a, true);
    }
  }
  sections::files(&mut task, "## Your Files", own_files);
  sections::list(&mut task, "## Your Constraints", own_constraints);
  sections::list(&mut task, "## Your Clarifications", own_clarifications);
  sections::text(&mut task, "## Relevant Context", c.relevant_context.as_deref());
  sections::notes(&mut task, task_id);
  PromptParts { shared: common, task }
}

/// `items` split into the shared ones, in `shared`'s order (each once), and the
/// task's own, in their order. `None`: all are shared, in their order.
fn split<'a, T>(
  items: &'a [T],
  shared: Option<&[String]>,
  key: fn(&T) -> &String,
) -> (Vec<&'a T>, Vec<&'a T>) {
  let Some(shared) = shared else {
    return (items.iter().collect(), Vec::new());
  };
  let names: HashSet<&str> = shared.iter().map(String::as_str).collect();
  let mut seen = HashSet::new();
  let common = shared
    .iter()
    .filter(|name| seen.insert(name.as_str()))
    .filter_map(|name| items.iter().find(|item| key(item) == name))
    .collect();
  let own = items
    .iter()
    .filter(|item| !names.contains(key(item).as_str()))
    .collect();
  (common, own)
}

fn itself(s: &String) -> &String {
  s
}

fn path(file: &(String, String)) -> &String {
  &file.0
}

#[cfg(test)]
mod tests;
