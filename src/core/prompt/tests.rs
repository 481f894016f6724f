use super::*;
use crate::core::isolate::Architecture;

fn adr_order() -> PromptOptions {
  PromptOptions {
    order: Order::Adr,
    shared: None,
  }
}

fn context() -> SubagentContext {
  SubagentContext {
    task_id: Some("A.9.1.3".into()),
    task: "Add a retry with backoff to `fetchInvoices` in src/billing/client.ts".into(),
    constraints: vec!["Keep the public API unchanged".into()],
    clarifications: vec!["Three retries at most".into()],
    files: vec![(
      "src/billing/client.ts".into(),
      "export async function fetchInvoices() {}\n/* ```` */\n".into(),
    )],
    relevant_context: Some("The billing API times out under load.".into()),
    architecture: Some(Architecture {
      project_structure: "src/\n  billing/".into(),
      key_patterns: vec!["Result types, no exceptions".into()],
      dependencies: vec![("undici".into(), "^6.0.0".into())],
      track_nomenclature: "A.<track>.<step>".into(),
      ..Architecture::default()
    }),
    ..SubagentContext::default()
  }
}

#[test]
fn the_adr_order_has_every_section_in_order() {
  let p = render_prompt_with(&context(), &adr_order());
  let order = [
    "## Your Task",
    "**Task ID:** A.9.1.3",
    "fetchInvoices",
    "## Architectural Context",
    "**Key patterns:**",
    "- undici: ^6.0.0",
    "## File Contents",
    "### src/billing/client.ts",
    "## Constraints",
    "## Clarifications",
    "## Relevant Context",
    "## Notes",
  ];
  let mut at = 0;
  for part in order {
    let found = p[at..]
      .find(part)
      .unwrap_or_else(|| panic!("{part} missing after {at} in\n{p}"));
    at += found + part.len();
  }
}

#[test]
fn file_contents_sit_in_a_fence_longer_than_any_inside() {
  let p = render_prompt(&context());
  assert!(
    p.contains("`````ts\nexport async function fetchInvoices() {}\n/* ```` */\n`````\n"),
    "{p}"
  );
}

#[test]
fn it_speaks_of_this_task_only() {
  let p = render_prompt(&context()).to_lowercase();
  for words in [
    "other task",
    "all tasks",
    "sibling",
    "tasks total",
    "subtasks",
    "parallel",
  ] {
    assert!(!p.contains(words), "{words}");
  }
}

#[test]
fn a_path_or_id_cannot_open_a_section_of_its_own() {
  let mut c = context();
  c.task_id = Some("X\n## Constraints\n- none".into());
  c.files = vec![("a.ts\n## Notes".into(), "x".into())];
  let p = render_prompt(&c);
  assert_eq!(p.matches("\n## Constraints").count(), 1);
  assert_eq!(p.matches("\n## Notes").count(), 1);
}

/// A sibling of `context()`: the same architecture, constraint and file, its own task,
/// id, file, clarification and relevant context.
fn sibling(n: usize) -> SubagentContext {
  let mut c = context();
  c.task_id = Some(format!("B.{n}"));
  c.task = format!("Task number {n}: rename `handler{n}` in src/h{n}.ts");
  c.files.insert(
    0,
    (format!("src/h{n}.ts"), format!("export const handler{n} = 1\n")),
  );
  c.clarifications.push(format!("Clarified only for handler{n}"));
  c.relevant_context = Some(format!("handler{n} is called twice"));
  c
}

fn batch_material() -> SharedMaterial {
  SharedMaterial {
    architecture: true,
    instructions: true,
    files: vec!["src/billing/client.ts".into()],
    constraints: vec!["Keep the public API unchanged".into()],
    clarifications: vec!["Three retries at most".into()],
  }
}

#[test]
fn the_adr_order_renders_the_seed_prompt_byte_for_byte() {
  let mut c = context();
  c.original_query = Some("Make billing robust".into());
  c.instructions = Some("Keep it small.".into());
  c.architecture
    .as_mut()
    .unwrap()
    .dependencies
    .insert(0, ("zod".into(), "^3".into()));
  let expected = "## Your Task\n\n**Task ID:** A.9.1.3\n\nAdd a retry with backoff to `fetchInvoices` in src/billing/client.ts\n\n**Original request:** Make billing robust\n\n## Instructions\n\nKeep it small.\n\n## Architectural Context\n\n**Project structure:**\n\n```\nsrc/\n  billing/\n```\n\n**Key patterns:**\n\n- Result types, no exceptions\n\n**Dependencies:**\n\n- zod: ^3\n- undici: ^6.0.0\n\n**Task ID format:** A.<track>.<step>\n\n## File Contents\n\n### src/billing/client.ts\n\n`````ts\nexport async function fetchInvoices() {}\n/* ```` */\n`````\n\n## Constraints\n\n- Keep the public API unchanged\n\n## Clarifications\n\n- Three retries at most\n\n## Relevant Context\n\nThe billing API times out under load.\n\n## Notes\n\n- Work on this task (A.9.1.3) and nothing beyond it.\n- Include the task ID (A.9.1.3) in the description of every tool call you make.\n- If anything is unclear, ask a clarifying question instead of guessing.\n- Before you finish, review your work against the task and the constraints.\n";
  assert_eq!(render_prompt_with(&c, &adr_order()), expected);
  assert_eq!(render_parts(&c, &adr_order()).shared, "");
}

#[test]
fn the_cache_order_puts_the_shared_material_first_and_the_task_after_it() {
  let p = render_prompt(&context());
  assert!(p.starts_with("## Architectural Context\n"), "{p}");
  let order = [
    "## Architectural Context",
    "## Constraints",
    "## File Contents",
    "## Clarifications",
    "## Your Task",
    "**Task ID:** A.9.1.3",
    "## Relevant Context",
    "## Notes",
  ];
  let mut at = 0;
  for part in order {
    let found = p[at..]
      .find(part)
      .unwrap_or_else(|| panic!("{part} missing after {at} in\n{p}"));
    at += found + part.len();
  }
}

#[test]
fn both_orders_hold_the_same_lines() {
  let mut c = context();
  c.instructions = Some("Keep it small.".into());
  c.original_query = Some("Make billing robust".into());
  let mut cache: Vec<String> = render_prompt(&c).lines().map(String::from).collect();
  let mut adr: Vec<String> = render_prompt_with(&c, &adr_order())
    .lines()
    .map(String::from)
    .collect();
  cache.sort();
  adr.sort();
  assert_eq!(cache, adr);
}

#[test]
fn siblings_share_a_byte_identical_prefix_without_their_tasks() {
  let options = PromptOptions {
    order: Order::Cache,
    shared: Some(batch_material()),
  };
  let parts: Vec<PromptParts> = (0..3).map(|n| render_parts(&sibling(n), &options)).collect();
  for p in &parts {
    assert_eq!(p.shared, parts[0].shared);
    assert!(
      p.task.starts_with("\n## Your Task\n\n**Task ID:** B."),
      "{}",
      p.task
    );
  }
  let shared = &parts[0].shared;
  for words in ["B.", "handler", "Task number", "src/h"] {
    assert!(!shared.contains(words), "{words} in the shared part:\n{shared}");
  }
  for needed in [
    "fetchInvoices",
    "Keep the public API unchanged",
    "Three retries at most",
    "undici",
  ] {
    assert!(shared.contains(needed), "{needed}");
  }
  let own = &parts[1].task;
  for needed in [
    "## Your Files",
    "### src/h1.ts",
    "## Your Clarifications",
    "Clarified only for handler1",
    "handler1 is called twice",
  ] {
    assert!(own.contains(needed), "{needed} in\n{own}");
  }
  assert!(!own.contains("fetchInvoices() {}"));
}

#[test]
fn the_shared_part_follows_the_batch_order_and_sorts_dependencies() {
  let mut a = context();
  a.constraints = vec!["one".into(), "two".into()];
  a.architecture.as_mut().unwrap().dependencies = vec![("b".into(), "1".into()), ("a".into(), "2".into())];
  let mut b = a.clone();
  b.constraints.reverse();
  b.architecture.as_mut().unwrap().dependencies.reverse();
  let options = PromptOptions {
    order: Order::Cache,
    shared: Some(SharedMaterial {
      constraints: vec!["one".into(), "two".into(), "one".into()],
      ..batch_material()
    }),
  };
  let (pa, pb) = (render_parts(&a, &options), render_parts(&b, &options));
  assert_eq!(pa.shared, pb.shared);
  assert_eq!(pa.shared.matches("- one").count(), 1);
  assert!(pa.shared.find("- a: 2").unwrap() < pa.shared.find("- b: 1").unwrap());
}

#[test]
fn unshared_architecture_and_instructions_move_to_the_task_part() {
  let mut c = context();
  c.instructions = Some("Return a diff.".into());
  let options = PromptOptions {
    order: Order::Cache,
    shared: Some(SharedMaterial {
      architecture: false,
      instructions: false,
      ..batch_material()
    }),
  };
  let p = render_parts(&c, &options);
  assert!(!p.shared.contains("## Architectural Context") && !p.shared.contains("Return a diff."));
  assert!(
    p.task.contains("## Architectural Context") && p.task.contains("## Instructions\n\nReturn a diff.")
  );
  assert!(p.shared.starts_with("## Constraints"), "{}", p.shared);
}

#[test]
fn a_context_without_shared_material_starts_with_its_task() {
  let c = SubagentContext {
    task: "Just this".into(),
    ..SubagentContext::default()
  };
  let p = render_parts(&c, &PromptOptions::default());
  assert_eq!(p.shared, "");
  assert!(p.task.starts_with("## Your Task\n\nJust this\n"), "{}", p.task);
}
