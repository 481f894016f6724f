//! The fuzz targets' short pass, without libFuzzer: every target's invariant checker
//! (fuzz/src/checks.rs) runs over its saved corpus (`fuzz/corpus/<target>`), every
//! crash ever found (`fuzz/regressions/<target>`), and a few thousand generated inputs.
//! Long runs use libFuzzer: `scripts/fuzz.sh` (see README, "Fuzzing").

#[path = "../fuzz/src/checks.rs"]
#[allow(dead_code)]
mod checks;

use std::path::Path;

/// Generated inputs per target; `FUZZ_CHECKS_CASES` raises it for a longer local run.
fn cases() -> u64 {
  std::env::var("FUZZ_CHECKS_CASES")
    .ok()
    .and_then(|v| v.parse().ok())
    .unwrap_or(4000)
}

fn saved(target: &str) -> Vec<(String, Vec<u8>)> {
  let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
  let mut files = Vec::new();
  for dir in ["corpus", "regressions"] {
    let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
      continue;
    };
    for entry in entries.flatten() {
      if entry.path().is_file() {
        let bytes = std::fs::read(entry.path()).expect("readable corpus file");
        files.push((entry.path().display().to_string(), bytes));
      }
    }
  }
  files.sort();
  files
}

fn run(target: &str) {
  let (_, check) = checks::TARGETS
    .iter()
    .find(|(name, _)| *name == target)
    .expect("a known target");
  for (path, bytes) in saved(target) {
    let outcome = std::panic::catch_unwind(|| check(&bytes));
    assert!(outcome.is_ok(), "{target}: saved input {path} fails");
  }
  let mut generator = checks::Generator::new(0x5eed ^ target.len() as u64);
  for case in 0..cases() {
    let bytes = generator.bytes(if case % 10 == 0 { 2048 } else { 256 });
    let outcome = std::panic::catch_unwind(|| check(&bytes));
    assert!(
      outcome.is_ok(),
      "{target}: generated case {case} fails on {bytes:?}"
    );
  }
}

#[test]
fn sanitize() {
  run("sanitize");
}

#[test]
fn segment() {
  run("segment");
}

#[test]
fn extract() {
  run("extract");
}

#[test]
fn messages() {
  run("messages");
}

#[test]
fn filter() {
  run("filter");
}

#[test]
fn tokens() {
  run("tokens");
}

/// Found by fuzzing: scoring no segments panicked in `relevance::scores` (fixed).
#[test]
fn extracting_from_blank_text_does_not_panic() {
  use subagent_context::core::cancel::Cancel;
  use subagent_context::core::extract::{extract_messages, extract_text, Options};
  let options = Options::default();
  assert!(extract_text("", "task", &options, &Cancel::new()).is_ok());
  assert!(extract_text(" \n\n ", "task", &options, &Cancel::new()).is_ok());
  assert!(extract_messages(&[], "task", &options, &Cancel::new()).is_ok());
}

/// Found by fuzzing: with a call id used twice, the first call could be kept without
/// its result (fixed: a result answers the latest call before it with its id).
#[test]
fn reused_call_ids_never_leave_an_orphan_call() {
  use subagent_context::core::cancel::Cancel;
  use subagent_context::core::extract::{extract_messages, Options};
  use subagent_context::core::message::{Message, Part};
  let call = |args: &str| Message {
    role: "assistant".into(),
    name: None,
    parts: vec![Part::ToolCall {
      id: "call_0".into(),
      name: "read_file".into(),
      arguments: args.into(),
    }],
  };
  let result = |content: &str| Message {
    role: "tool".into(),
    name: None,
    parts: vec![Part::ToolResult {
      call_id: "call_0".into(),
      content: content.into(),
    }],
  };
  let messages = vec![
    Message::text("user", "Fix the rate limiter memory leak"),
    call(r#"{"query":"rate limiter memory leak"}"#),
    result("ok"),
    call(r#"{"path":"README.md"}"#),
    result("weather report: sunny"),
  ];
  let e = extract_messages(
    &messages,
    "rate limiter memory leak",
    &Options::default(),
    &Cancel::new(),
  )
  .unwrap();
  let kept = e.messages.unwrap();
  // Every kept call is followed by a kept result of its id.
  for (k, &i) in kept.iter().enumerate() {
    if matches!(messages[i].parts[0], Part::ToolCall { .. }) {
      assert!(
        kept
          .get(k + 1)
          .is_some_and(|&j| matches!(messages[j].parts[0], Part::ToolResult { .. })),
        "call {i} kept without its result: {kept:?}"
      );
    }
  }
}
