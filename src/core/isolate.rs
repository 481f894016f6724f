//! Building a subagent's context: the allowed fields only, every string sanitized,
//! and the relevant slice of the parent's thread in place of the thread.
//!
//! The whitelist itself is the shape of [`SubagentContext`]: there is no field for
//! anything else, so nothing else can be copied. Reading a caller's object into it
//! (and naming the keys left behind) is the binding's job.

use std::cell::Cell;
use std::sync::Arc;

use crate::core::cancel::{Cancel, Cancelled};
use crate::core::extract::{extract_messages_as_text, extract_text, Options, Prepared};
use crate::core::message::{count_message_tokens, Message, Part};
use crate::core::sanitize::Sanitizer;
use crate::core::tokens::{Counter, Encoding};

/// The seed ADR's architectural context.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Architecture {
  pub project_structure: String,
  pub key_patterns: Vec<String>,
  pub relevant_adrs: Vec<String>,
  /// (name, version), in the caller's order.
  pub dependencies: Vec<(String, String)>,
  pub naming_conventions: String,
  pub track_nomenclature: String,
}

/// Everything a subagent may see, and nothing else.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubagentContext {
  pub task_id: Option<String>,
  pub task: String,
  pub original_query: Option<String>,
  pub relevant_context: Option<String>,
  pub user_id: Option<String>,
  pub instructions: Option<String>,
  pub constraints: Vec<String>,
  /// (path, content), in the caller's order.
  pub files: Vec<(String, String)>,
  pub architecture: Option<Architecture>,
  pub clarifications: Vec<String>,
}

/// The parent's whole conversation, of which the subagent gets only the relevant slice.
#[derive(Clone)]
pub enum Thread {
  Text(String),
  Messages(Vec<Message>),
  /// Prepared once for many subagents: see [`PreparedThread`].
  Prepared(Arc<PreparedThread>),
}

/// A parent thread made ready once for isolating many subagents' contexts from it:
/// sanitized with one set of markers, counted, segmented and indexed. Isolating from it
/// gives exactly what isolating from the thread itself gives; with other markers or
/// another encoding than it was prepared with, it is the thread itself again.
pub struct PreparedThread {
  source: Thread,
  sanitizer: Sanitizer,
  /// Tokens of the thread as given, and the markers sanitizing removed from it.
  parent_tokens: usize,
  markers_removed: usize,
  prepared: Prepared,
}

impl PreparedThread {
  pub fn new(
    thread: Thread,
    sanitizer: Sanitizer,
    encoding: Encoding,
    cancel: &Cancel,
  ) -> Result<Self, Cancelled> {
    let granularity = Options::default().granularity;
    let mut counter = Counter::new(encoding);
    let removed = Cell::new(0);
    let clean = |text: &str| {
      let s = sanitizer.sanitize(text);
      removed.set(removed.get() + s.removed);
      s.text
    };
    // As in `isolate`: when sanitizing removed nothing, the prepared count is the parent's.
    let (prepared, parent_tokens) = match &thread {
      Thread::Text(text) => {
        let prepared = Prepared::text(&clean(text), encoding, granularity, cancel)?;
        let parent = match removed.get() {
          0 => prepared.tokens(),
          _ => counter.count_cancellable(text, cancel)?,
        };
        (prepared, parent)
      }
      Thread::Messages(messages) => {
        let clean_messages = messages.iter().map(|m| sanitize_message(m, &clean)).collect();
        let prepared = Prepared::messages(clean_messages, encoding, granularity, cancel)?;
        let parent = match removed.get() {
          0 => prepared.tokens(),
          _ => count_message_tokens(messages, &mut counter, cancel)?,
        };
        (prepared, parent)
      }
      Thread::Prepared(p) => return Self::new(p.source.clone(), sanitizer, encoding, cancel),
    };
    Ok(Self {
      markers_removed: removed.get(),
      source: thread,
      sanitizer,
      parent_tokens,
      prepared,
    })
  }

  /// Tokens of the thread as given.
  pub fn tokens(&self) -> usize {
    self.parent_tokens
  }

  pub fn encoding(&self) -> Encoding {
    self.prepared.encoding()
  }
}

pub struct Settings {
  pub sibling_tasks: Vec<String>,
  /// Cap on the relevant context's tokens.
  pub max_context_tokens: Option<usize>,
  pub encoding: Encoding,
  pub sanitizer: Sanitizer,
}

#[derive(Debug, PartialEq)]
pub struct Isolation {
  pub context: SubagentContext,
  /// Tokens of what the subagent would have inherited: the thread (or the given
  /// relevant context) and the allowed fields as given.
  pub parent_tokens: usize,
  /// Tokens of the isolated context's fields.
  pub isolated_tokens: usize,
  pub markers_removed: usize,
}

/// The isolated context for `config`: its relevant context extracted from `thread`
/// (when given) or from its own `relevant_context` when that exceeds the cap, and
/// every string sanitized. Markers are removed before extraction, so a marked
/// paragraph cannot be kept in part.
pub fn isolate(
  config: &SubagentContext,
  thread: Option<&Thread>,
  settings: &Settings,
  cancel: &Cancel,
) -> Result<Isolation, Cancelled> {
  let mut counter = Counter::new(settings.encoding);
  let mut parent_tokens = fields_tokens(config, &mut counter);
  let removed = Cell::new(0);
  let clean = |text: &str| {
    let s = settings.sanitizer.sanitize(text);
    removed.set(removed.get() + s.removed);
    s.text
  };
  let options = Options {
    max_tokens: settings.max_context_tokens,
    encoding: settings.encoding,
    sibling_tasks: settings.sibling_tasks.clone(),
    ..Options::default()
  };
  // The task id too: plan lines and messages name it ("A.2: …"), and ids are strong terms.
  let terms = [
    config.task_id.as_ref(),
    Some(&config.task),
    config.original_query.as_ref(),
    config.instructions.as_ref(),
  ]
  .into_iter()
  .flatten()
  .map(String::as_str)
  .collect::<Vec<_>>()
  .join("\n");
  // Prepared with other markers or another encoding: it is the thread as given.
  let thread = match thread {
    Some(Thread::Prepared(p)) if p.sanitizer != settings.sanitizer || p.encoding() != settings.encoding => {
      Some(&p.source)
    }
    t => t,
  };
  let relevant_context = match thread {
    Some(Thread::Prepared(p)) => {
      removed.set(removed.get() + p.markers_removed);
      parent_tokens += p.parent_tokens;
      let e = p.prepared.extract_as_text(&terms, &options, cancel)?;
      Some((e.text, Some(e.extracted_tokens)))
    }
    // Extraction counts the thread it is given: when sanitizing removed nothing, that
    // is the parent's count, and a million-token thread is not counted twice.
    Some(Thread::Text(text)) => {
      let before = removed.get();
      let e = extract_text(&clean(text), &terms, &options, cancel)?;
      parent_tokens += if removed.get() == before {
        e.original_tokens
      } else {
        counter.count_cancellable(text, cancel)?
      };
      Some((e.text, Some(e.extracted_tokens)))
    }
    Some(Thread::Messages(messages)) => {
      let before = removed.get();
      let clean_messages: Vec<Message> = messages.iter().map(|m| sanitize_message(m, &clean)).collect();
      let e = extract_messages_as_text(&clean_messages, &terms, &options, cancel)?;
      parent_tokens += if removed.get() == before {
        e.original_tokens
      } else {
        count_message_tokens(messages, &mut counter, cancel)?
      };
      Some((e.text, Some(e.extracted_tokens)))
    }
    None => match &config.relevant_context {
      Some(text) => {
        let text = clean(text);
        let over = settings
          .max_context_tokens
          .is_some_and(|cap| counter.count(&text) > cap);
        Some(if over {
          let e = extract_text(&text, &terms, &options, cancel)?;
          (e.text, Some(e.extracted_tokens))
        } else {
          (text, None)
        })
      }
      None => None,
    },
  };
  let (mut context, fields_removed) = sanitize_context(
    &SubagentContext {
      relevant_context: None,
      ..config.clone()
    },
    &settings.sanitizer,
  );
  // The relevant context's tokens are known when extraction made it: not counted again.
  let mut isolated_tokens = fields_tokens(&context, &mut counter);
  if let Some((text, tokens)) = relevant_context.filter(|(t, _)| !t.trim().is_empty()) {
    isolated_tokens += tokens.unwrap_or_else(|| counter.count(&text));
    context.relevant_context = Some(text);
  }
  Ok(Isolation {
    context,
    parent_tokens,
    isolated_tokens,
    markers_removed: removed.get() + fields_removed,
  })
}

/// `c` with every string sanitized, and how many markers were removed.
pub fn sanitize_context(c: &SubagentContext, sanitizer: &Sanitizer) -> (SubagentContext, usize) {
  let mut removed = 0;
  let mut clean = |text: &str| {
    let s = sanitizer.sanitize(text);
    removed += s.removed;
    s.text
  };
  let context = SubagentContext {
    task_id: c.task_id.as_deref().map(&mut clean),
    task: clean(&c.task),
    original_query: c.original_query.as_deref().map(&mut clean),
    relevant_context: c.relevant_context.as_deref().map(&mut clean),
    user_id: c.user_id.as_deref().map(&mut clean),
    instructions: c.instructions.as_deref().map(&mut clean),
    constraints: c.constraints.iter().map(|s| clean(s)).collect(),
    clarifications: c.clarifications.iter().map(|s| clean(s)).collect(),
    files: c
      .files
      .iter()
      .map(|(path, content)| (clean(path), clean(content)))
      .collect(),
    architecture: c.architecture.as_ref().map(|a| Architecture {
      project_structure: clean(&a.project_structure),
      key_patterns: a.key_patterns.iter().map(|s| clean(s)).collect(),
      relevant_adrs: a.relevant_adrs.iter().map(|s| clean(s)).collect(),
      dependencies: a.dependencies.iter().map(|(k, v)| (clean(k), clean(v))).collect(),
      naming_conventions: clean(&a.naming_conventions),
      track_nomenclature: clean(&a.track_nomenclature),
    }),
  };
  (context, removed)
}

/// A message with the text of each part sanitized; thinking is left to extraction,
/// which never passes it.
fn sanitize_message(m: &Message, clean: &impl Fn(&str) -> String) -> Message {
  let parts = m
    .parts
    .iter()
    .map(|p| match p {
      Part::Text(t) => Part::Text(clean(t)),
      Part::ToolCall { id, name, arguments } => Part::ToolCall {
        id: id.clone(),
        name: name.clone(),
        arguments: clean(arguments),
      },
      Part::ToolResult { call_id, content } => Part::ToolResult {
        call_id: call_id.clone(),
        content: clean(content),
      },
      other => other.clone(),
    })
    .collect();
  Message {
    role: m.role.clone(),
    name: m.name.clone(),
    parts,
  }
}

/// Tokens of every string field of `c`, each counted on its own.
fn fields_tokens(c: &SubagentContext, counter: &mut Counter) -> usize {
  let mut n = 0;
  let mut add = |s: &str| n += counter.count(s);
  add(&c.task);
  for s in [
    &c.task_id,
    &c.original_query,
    &c.relevant_context,
    &c.user_id,
    &c.instructions,
  ]
  .into_iter()
  .flatten()
  {
    add(s);
  }
  for s in c.constraints.iter().chain(&c.clarifications) {
    add(s);
  }
  for (path, content) in &c.files {
    add(path);
    add(content);
  }
  if let Some(a) = &c.architecture {
    add(&a.project_structure);
    add(&a.naming_conventions);
    add(&a.track_nomenclature);
    for s in a.key_patterns.iter().chain(&a.relevant_adrs) {
      add(s);
    }
    for (k, v) in &a.dependencies {
      add(k);
      add(v);
    }
  }
  n
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::core::prompt::render_prompt;

  fn settings(siblings: &[&str], cap: Option<usize>) -> Settings {
    Settings {
      sibling_tasks: siblings.iter().map(|s| s.to_string()).collect(),
      max_context_tokens: cap,
      encoding: Encoding::O200kBase,
      sanitizer: Sanitizer::default(),
    }
  }

  fn config() -> SubagentContext {
    SubagentContext {
      task_id: Some("A.2".into()),
      task: "A.2: add rate limiting to the login endpoint in `src/auth/login.ts`".into(),
      constraints: vec!["No new dependencies. [INTERNAL] we may drop this later".into()],
      files: vec![("src/auth/login.ts".into(), "export function login() {}\n".into())],
      ..SubagentContext::default()
    }
  }

  const THREAD: &str = "## Plan\n\n- A.1: migrate the billing tables to Postgres 16\n- A.2: add rate limiting to the login endpoint\n\n\
## Notes\n\nThe login endpoint in src/auth/login.ts takes 40 requests per second at peak; rate limiting should allow 5 per minute per IP.\n\n\
[INTERNAL] the billing migration is late and the client must not know.\n\n\
## Billing\n\nThe billing tables hold invoices and payments; migrating them to Postgres 16 needs a dump and restore of the invoices table.";

  #[test]
  fn the_thread_is_reduced_to_this_task_sanitized_and_measured() {
    let thread = Thread::Text(THREAD.into());
    let i = isolate(
      &config(),
      Some(&thread),
      &settings(&["A.1: migrate the billing tables to Postgres 16"], None),
      &Cancel::new(),
    )
    .unwrap();
    let rc = i.context.relevant_context.as_deref().unwrap();
    assert!(rc.contains("5 per minute per IP"), "{rc}");
    assert!(!rc.contains("billing") && !rc.contains("A.1"), "{rc}");
    assert!(!i.context.constraints[0].contains("drop this"));
    assert_eq!(i.markers_removed, 2);
    assert!(i.parent_tokens > i.isolated_tokens && i.isolated_tokens > 0);
    let prompt = render_prompt(&i.context);
    assert!(!prompt.contains("INTERNAL") && !prompt.contains("A.1"));
  }

  #[test]
  fn without_a_thread_the_given_context_is_kept_or_cut_to_the_cap() {
    let mut c = config();
    c.relevant_context = Some(THREAD.into());
    let s = settings(&[], None);
    let kept = isolate(&c, None, &s, &Cancel::new()).unwrap();
    assert!(kept.context.relevant_context.unwrap().contains("Postgres"));
    let cut = isolate(&c, None, &settings(&[], Some(40)), &Cancel::new()).unwrap();
    let rc = cut.context.relevant_context.unwrap();
    assert!(
      crate::core::tokens::count_tokens(&rc, Encoding::O200kBase) <= 40,
      "{rc}"
    );
    assert!(rc.contains("login"));
  }

  #[test]
  fn message_threads_are_sanitized_before_extraction() {
    let messages = vec![
      Message::text("user", "Please add rate limiting to the login endpoint."),
      Message::text(
        "assistant",
        "[PRIVATE] rate limiting login secret plan\n\nRate limiting for login: 5 per minute.",
      ),
    ];
    let i = isolate(
      &config(),
      Some(&Thread::Messages(messages)),
      &settings(&[], None),
      &Cancel::new(),
    )
    .unwrap();
    let rc = i.context.relevant_context.unwrap();
    assert!(rc.contains("5 per minute") && !rc.contains("secret plan"), "{rc}");
  }

  #[test]
  fn a_prepared_thread_isolates_as_the_thread_itself() {
    let messages = vec![
      Message::text("user", THREAD),
      Message::text(
        "assistant",
        "[PRIVATE] rate limiting login secret\n\nLogin: 5 per minute. <note>billing is late</note>",
      ),
    ];
    let cancel = Cancel::new();
    let custom = Sanitizer::new(&[crate::core::sanitize::MarkerRule {
      name: "note".into(),
      form: crate::core::sanitize::Form::Tag,
      action: crate::core::sanitize::Action::Drop,
    }])
    .unwrap();
    for thread in [Thread::Text(THREAD.into()), Thread::Messages(messages)] {
      let prepared = Thread::Prepared(Arc::new(
        PreparedThread::new(thread.clone(), Sanitizer::default(), Encoding::O200kBase, &cancel).unwrap(),
      ));
      for mut s in [
        settings(&["A.1: migrate the billing tables"], Some(60)),
        settings(&[], None),
      ] {
        let raw = isolate(&config(), Some(&thread), &s, &cancel).unwrap();
        assert!(raw.markers_removed > 0);
        assert_eq!(isolate(&config(), Some(&prepared), &s, &cancel).unwrap(), raw);
        // Other markers or another encoding than it was prepared with: the thread as given.
        s.sanitizer = custom.clone();
        let raw = isolate(&config(), Some(&thread), &s, &cancel).unwrap();
        assert_eq!(isolate(&config(), Some(&prepared), &s, &cancel).unwrap(), raw);
        s.encoding = Encoding::Cl100kBase;
        let raw = isolate(&config(), Some(&thread), &s, &cancel).unwrap();
        assert_eq!(isolate(&config(), Some(&prepared), &s, &cancel).unwrap(), raw);
      }
    }
  }

  mod properties {
    use super::*;
    use proptest::prelude::*;

    const OWN: [&str; 10] = [
      "login", "rate", "limit", "session", "token", "cookie", "password", "endpoint", "throttle", "auth",
    ];
    const SIBLING: [&str; 9] = [
      "invoice",
      "billing",
      "postgres",
      "migration",
      "email",
      "german",
      "translate",
      "onboarding",
      "ledger",
    ];

    fn words(pool: &[&str], picks: &[usize]) -> String {
      picks
        .iter()
        .map(|&i| pool[i % pool.len()])
        .collect::<Vec<_>>()
        .join(" ")
    }

    proptest! {
      #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]
      /// Random tasks and sibling tasks (their words marked SIB), threads mixing both,
      /// and marked notes (SECRET) in the thread and in every field: no sibling text and
      /// no marked content reaches the isolated context or the prompt.
      #[test]
      fn no_sibling_text_and_no_marked_content_gets_through(
        own in proptest::collection::vec(0usize..10, 3..8),
        siblings in proptest::collection::vec(proptest::collection::vec(0usize..9, 3..8), 1..4),
        layout in proptest::collection::vec(0u8..3, 2..8),
        cap in proptest::option::of(5usize..200),
      ) {
        let task = words(&OWN, &own);
        let sibling_tasks: Vec<String> = siblings.iter().map(|w| format!("SIB {}", words(&SIBLING, w))).collect();
        let paragraphs: Vec<String> = layout
          .iter()
          .enumerate()
          .map(|(i, kind)| match kind {
            0 => format!("{task} step {i}."),
            1 => format!("{} step {i}.", sibling_tasks[i % sibling_tasks.len()]),
            _ => format!("{task} note {i}. [INTERNAL] SECRET {task}"),
          })
          .collect();
        let config = SubagentContext {
          task: task.clone(),
          task_id: Some("T.1".into()),
          instructions: Some(format!("{task} <thinking>SECRET</thinking>")),
          constraints: vec![format!("keep it small [PRIVATE] SECRET")],
          files: vec![("a.ts".into(), "<scratchpad>SECRET".into())],
          ..SubagentContext::default()
        };
        let settings = Settings {
          sibling_tasks: sibling_tasks.clone(),
          max_context_tokens: cap,
          encoding: Encoding::O200kBase,
          sanitizer: Sanitizer::default(),
        };
        let thread = Thread::Text(paragraphs.join("\n\n"));
        let i = isolate(&config, Some(&thread), &settings, &Cancel::new()).unwrap();
        let prepared = PreparedThread::new(thread, Sanitizer::default(), Encoding::O200kBase, &Cancel::new()).unwrap();
        let through = isolate(&config, Some(&Thread::Prepared(Arc::new(prepared))), &settings, &Cancel::new()).unwrap();
        prop_assert_eq!(&through, &i);
        // The extraction's count of the relevant context stands in for counting it again.
        prop_assert_eq!(i.isolated_tokens, fields_tokens(&i.context, &mut Counter::new(Encoding::O200kBase)));
        let prompt = render_prompt(&i.context);
        prop_assert!(!prompt.contains("SECRET"), "{}", prompt);
        prop_assert!(!prompt.contains("SIB"), "{}", prompt);
        if let Some(cap) = cap {
          let rc = i.context.relevant_context.as_deref().unwrap_or("");
          prop_assert!(crate::core::tokens::count_tokens(rc, Encoding::O200kBase) <= cap);
        }
      }
    }
  }
}
