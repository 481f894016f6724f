use super::doc::{render, Doc};
use super::messages::select_messages;
use super::prepared::SCORED_SETS;
use super::score::reference;
use super::select::best_first;
use super::*;
use crate::core::message::{Part, REPLY_PRIMER};
use crate::core::paths::{absolute_paths, file_of, named_files, under};
use crate::core::segment::{Kind, Segment};
use crate::core::tokens::{count_tokens, Counter};

const THREAD: &str = "# Plan\n\n- A.1 Validate the body of POST /users in src/api/users.ts.\n- A.2 Fix the memory leak in src/middleware/rate-limit.ts.\n- A.3 Update README.md for the v2 routes.\n\n## Users\n\nThe users route inserts whatever body it gets. Emails must be validated and lower-cased.\n\n## Rate limiter\n\nThe hits map never forgets idle clients, so memory grows.\n\n## Weather\n\nIt rained all week in the office town.";

fn run(task: &str, options: Options) -> Extraction {
  extract_text(THREAD, task, &options, &Cancel::new()).unwrap()
}

#[test]
fn marked_content_is_dropped_as_internal() {
  let text = "## Users\n\nEmails must be validated. [INTERNAL] the users route is a mess, do not say so.\n\n\
<thinking>users route: maybe rewrite</thinking> The users route needs lower-cased emails.";
  let e = extract_text(
    text,
    "validate emails in the users route",
    &Options::default(),
    &Cancel::new(),
  )
  .unwrap();
  assert!(e.text.contains("Emails must be validated."), "{}", e.text);
  assert!(
    !e.text.contains("mess") && !e.text.contains("rewrite"),
    "{}",
    e.text
  );
  assert_eq!(
    e.segments
      .iter()
      .filter(|s| s.dropped == Some(Reason::Internal))
      .count(),
    2
  );
}

#[test]
fn a_code_block_is_cut_only_when_it_alone_exceeds_the_budget() {
  let mut block = String::from("```python\n");
  for i in 0..200 {
    block.push_str(&format!("def helper_{i}(x):\n    return x + {i}\n"));
  }
  block.push_str("def parse_header(line):\n    key, value = line.split(':', 1)\n    return key\n");
  for i in 200..300 {
    block.push_str(&format!("def helper_{i}(x):\n    return x * {i}\n"));
  }
  block.push_str("```");
  let text =
    format!("## Parser\n\nThe header parser lives in this module.\n\n{block}\n\n## Weather\n\nIt rained.");
  let task = "fix parse_header when the header line has no value";
  let block_tokens = count_tokens(&block, Encoding::O200kBase);
  let e = |max: usize| {
    let options = Options {
      max_tokens: Some(max),
      ..Options::default()
    };
    extract_text(&text, task, &options, &Cancel::new()).unwrap()
  };
  // Over budget: the lines about the task, cut at line ends, with elisions around.
  let small = e(120);
  assert!(small.extracted_tokens <= 120);
  assert_eq!(
    small.extracted_tokens,
    count_tokens(&small.text, Encoding::O200kBase)
  );
  assert!(
    small
      .text
      .contains("def parse_header(line):\n    key, value = line.split(':', 1)"),
    "{}",
    small.text
  );
  assert!(
    !small.text.contains("helper_0(") && !small.text.contains("It rained"),
    "{}",
    small.text
  );
  for piece in small.text.split(DEFAULT_ELISION) {
    assert!(text.contains(piece), "{piece:?}");
  }
  // A block the budget holds is never cut: it is kept whole.
  let whole = e(block_tokens + 50);
  assert!(whole.text.contains(&block), "{}", whole.text);
}

#[test]
fn keeps_what_the_task_needs_in_order_and_drops_the_rest() {
  let e = run(
    "A.1 Validate the body of POST /users in src/api/users.ts",
    Options::default(),
  );
  assert!(e.text.contains("A.1 Validate the body"));
  assert!(e.text.contains("Emails must be validated"));
  assert!(!e.text.contains("rained"));
  let a = e.text.find("A.1").unwrap();
  let b = e.text.find("Emails").unwrap();
  assert!(a < b);
  assert!(e.keywords.contains(&"src/api/users.ts".to_owned()));
}

#[test]
fn a_budget_is_never_exceeded_and_is_a_cap_not_a_target() {
  for budget in [0, 1, 5, 12, 30, 60, 10_000] {
    let e = run(
      "Validate emails in the users route",
      Options {
        max_tokens: Some(budget),
        ..Options::default()
      },
    );
    assert!(e.extracted_tokens <= budget);
    assert_eq!(e.extracted_tokens, count_tokens(&e.text, Encoding::O200kBase));
  }
  let e = run(
    "Validate emails in the users route",
    Options {
      max_tokens: Some(10_000),
      ..Options::default()
    },
  );
  assert!(
    !e.text.contains("rained"),
    "irrelevant text padded a generous budget"
  );
}

#[test]
fn sibling_content_is_dropped_and_the_plan_reduced_to_this_task() {
  let options = Options {
    sibling_tasks: vec![
      "A.2 Fix the memory leak in src/middleware/rate-limit.ts".into(),
      "A.3 Update README.md for the v2 routes".into(),
    ],
    ..Options::default()
  };
  let e = run(
    "A.1 Validate the body of POST /users in src/api/users.ts",
    options,
  );
  assert!(e.text.contains("A.1"));
  assert!(!e.text.contains("A.2"), "{}", e.text);
  assert!(!e.text.contains("A.3"), "{}", e.text);
  assert!(!e.text.contains("hits map"), "{}", e.text);
  assert!(e.segments.iter().any(|s| s.dropped == Some(Reason::Sibling)));
}

#[test]
fn ownership_is_judged_on_each_task_s_own_scale() {
  // A short, generic sibling finds itself in most paragraphs of a thread about queries;
  // this task's long statement spreads over many terms. The note on this task's
  // function is this task's, although the sibling's raw evidence there is higher (it
  // says "query" twice): by its own measure, this task stands out there far more.
  let task = "Union querysets with ordering break on derived columns: get_combinator_sql in \
src/sql/compiler.py raises ORDER BY not allowed in subqueries of compound statements.";
  let sibling = "Fix the query count";
  let mut text =
    String::from("get_combinator_sql builds the query of each part, then the query of the union.");
  for k in 0..10 {
    text.push_str(&format!(
      "\n\nThe query count of report {k} is off: the query rows are counted twice."
    ));
  }
  for line in [
    "A union of values_list querysets ordered by a derived column fails.",
    "The traceback says ORDER BY not allowed in subqueries of compound statements.",
    "Union querysets keep their ordering only on plain columns.",
  ] {
    text.push_str("\n\n");
    text.push_str(line);
  }
  let run = |task: &str, sibling: &str| {
    extract_text(
      &text,
      task,
      &Options {
        sibling_tasks: vec![sibling.into()],
        ..Options::default()
      },
      &Cancel::new(),
    )
    .unwrap()
  };
  let e = run(task, sibling);
  assert!(e.text.contains("get_combinator_sql builds"), "{}", e.text);
  assert!(!e.text.contains("counted twice"), "{}", e.text);
  // From the sibling's side the same note is this task's, the counts the sibling's.
  let e = run(sibling, task);
  assert!(!e.text.contains("get_combinator_sql"), "{}", e.text);
  assert!(e.text.contains("counted twice"), "{}", e.text);
}

#[test]
fn output_is_source_text_and_elision_only_and_deterministic() {
  let e = run(
    "memory leak",
    Options {
      elision: " <cut> ".into(),
      ..Options::default()
    },
  );
  for piece in e.text.split(" <cut> ") {
    assert!(THREAD.contains(piece), "{piece:?}");
  }
  assert_eq!(
    e,
    run(
      "memory leak",
      Options {
        elision: " <cut> ".into(),
        ..Options::default()
      }
    )
  );
}

#[test]
fn a_quoted_task_does_not_set_the_scale_for_everything_else() {
  // The thread quotes the task; the note that names its file is faint beside that copy,
  // but it is the best of the rest, and it is what the task needs.
  let task = "Fix the memory leak in the rate limiter. The hits map in src/middleware/rate-limit.ts never forgets idle clients. Memory grows without bound under load. Evict idle clients after a timeout.";
  let text = format!(
    "{task}\n\nThe team looked at several things this week, the office move and the budget and the hiring, and one of them was a timeout in passing.\n\nIt rained all week in the office town."
  );
  let e = extract_text(&text, task, &Options::default(), &Cancel::new()).unwrap();
  assert!(
    e.text.contains("one of them was a timeout in passing"),
    "{}",
    e.text
  );
  assert!(!e.text.contains("rained"), "{}", e.text);
  assert!(e.text.contains("never forgets idle clients"), "{}", e.text);
}

#[test]
fn the_reference_is_the_best_outside_the_best_group() {
  assert_eq!(reference(&[5.0, 4.0, 1.0, 2.0], &[0, 0, 1, 2], &[]), 2.0);
  assert_eq!(reference(&[5.0, 4.0], &[0, 0], &[]), 5.0);
  assert_eq!(reference(&[], &[], &[]), 0.0);
  // Outside the sections ranked first, where they are given.
  assert_eq!(
    reference(&[5.0, 4.0, 1.0, 2.0], &[0, 1, 2, 3], &[true, true, false, false]),
    2.0
  );
}

fn thread() -> Vec<Message> {
  let call = |id: &str, path: &str| Message {
    role: "assistant".into(),
    name: None,
    parts: vec![Part::ToolCall {
      id: id.into(),
      name: "read_file".into(),
      arguments: format!("{{\"path\":\"{path}\"}}"),
    }],
  };
  let result = |id: &str, content: &str| Message {
    role: "tool".into(),
    name: None,
    parts: vec![Part::ToolResult {
      call_id: id.into(),
      content: content.into(),
    }],
  };
  vec![
    Message::text("system", "You orchestrate subagents."),
    Message::text(
      "user",
      "Harden the API: validate emails in users.ts and fix the rate limiter leak.",
    ),
    call("c1", "src/api/users.ts"),
    result(
      "c1",
      "export function createUser(body) { return db.insert(body) }",
    ),
    call("c2", "src/middleware/rate-limit.ts"),
    result("c2", "const hits = new Map() // never cleared"),
    Message {
      role: "assistant".into(),
      name: None,
      parts: vec![
        Part::Thinking("The user seems annoyed; the email check is secret.".into()),
        Part::Text("Emails go through createUser without any validation.".into()),
      ],
    },
    Message::text("user", "Thanks."),
  ]
}

fn run_messages(task: &str, options: Options) -> Extraction {
  extract_messages(&thread(), task, &options, &Cancel::new()).unwrap()
}

#[test]
fn messages_keep_tool_units_whole_and_never_pass_thinking() {
  let e = run_messages(
    "Validate emails in createUser (src/api/users.ts)",
    Options::default(),
  );
  let kept = e.messages.clone().unwrap();
  assert!(kept.contains(&0), "system kept by default: {kept:?}");
  assert!(kept.contains(&2) && kept.contains(&3), "{kept:?}");
  assert!(!kept.contains(&4) && !kept.contains(&5), "{kept:?}");
  assert!(e.text.contains("createUser(body)"));
  assert!(
    e.text.contains("→ read_file {\"path\":\"src/api/users.ts\"}"),
    "{}",
    e.text
  );
  assert!(!e.text.contains("annoyed"));
  assert!(e.segments.iter().any(|s| s.dropped == Some(Reason::Internal)));
  // Every kept unit is whole: a call's result is kept with it and vice versa.
  let msgs = thread();
  for &i in &kept {
    for p in &msgs[i].parts {
      if let Part::ToolResult { call_id, .. } | Part::ToolCall { id: call_id, .. } = p {
        let partner = msgs.iter().position(|m| {
          m.parts.iter().any(|q| matches!(q, Part::ToolCall { id, .. } | Part::ToolResult { call_id: id, .. } if id == call_id))
            && !std::ptr::eq(m, &msgs[i])
        });
        assert!(
          partner.is_some_and(|j| kept.contains(&j)),
          "unit of message {i} split: {kept:?}"
        );
      }
    }
  }
}

#[test]
fn message_budgets_hold_for_the_text_and_the_messages() {
  let msgs = thread();
  for budget in [0, 10, 40, 80, 200] {
    let e = run_messages(
      "Validate emails in createUser",
      Options {
        max_tokens: Some(budget),
        ..Options::default()
      },
    );
    assert!(e.extracted_tokens <= budget);
    let kept: Vec<Message> = e.messages.unwrap().into_iter().map(|i| msgs[i].clone()).collect();
    let cost = crate::core::message::count_message_tokens(
      &kept,
      &mut Counter::new(Encoding::O200kBase),
      &Cancel::new(),
    );
    assert!(cost.unwrap() <= budget.max(REPLY_PRIMER), "budget {budget}");
  }
}

#[test]
fn a_sibling_s_message_does_not_set_the_scale_of_relevance() {
  // Message 1 is a sibling's (one of its segments is claimed), although its other
  // segment scores high for this task too. It is never kept, so it must not raise the
  // bar that message 2, faint beside message 0 but the best of the rest, has to clear.
  let messages = vec![
    Message::text("user", "alpha"),
    Message::text("user", "beta gamma"),
    Message::text("user", "delta"),
  ];
  let text = "alpha\n\nbeta gamma\n\ndelta".to_owned();
  let segment = |start: usize, end: usize, message: usize| Segment {
    start,
    end,
    kind: Kind::Text,
    block: message,
    heading: None,
    message,
  };
  let doc = Doc::new(
    text.into(),
    vec![
      segment(0, 5, 0),
      segment(7, 11, 1),
      segment(12, 17, 1),
      segment(19, 24, 2),
    ],
  );
  let scores = [(3.0, false), (2.0, false), (0.5, true), (0.3, false)];
  let kept = select_messages(&messages, &[10; 3], &scores, &doc, &Options::default());
  assert_eq!(kept, vec![0, 2]);
}

#[test]
fn a_tight_budget_names_every_file_before_more_of_one() {
  // Eight rounds of tool calls on the central file outscore the one call that opens the
  // other file the task touched; the budget holds eight units. The best of the rounds
  // comes first, then the other file, then the rest of the rounds by score.
  let mut paths: Vec<&str> = vec!["/repo/src/parser.rs"; 8];
  paths.push("/repo/src/lexer.rs");
  let messages: Vec<Message> = paths
    .iter()
    .enumerate()
    .flat_map(|(k, path)| {
      let id = format!("c{k}");
      [
        Message {
          role: "assistant".into(),
          name: None,
          parts: vec![Part::ToolCall {
            id: id.clone(),
            name: "view".into(),
            arguments: format!("{{\"path\":\"{path}\"}}"),
          }],
        },
        Message {
          role: "tool".into(),
          name: None,
          parts: vec![Part::ToolResult {
            call_id: id,
            content: format!("round {k}"),
          }],
        },
      ]
    })
    .collect();
  let doc = render(&messages, Granularity::Message);
  let unit_score = |k: usize| if k < 8 { 3.0 - 0.1 * k as f32 } else { 1.0 };
  let scores: Vec<(f32, bool)> = doc
    .segments
    .iter()
    .map(|s| (unit_score(s.message / 2), false))
    .collect();
  let select = |tokens: &[usize], budget: usize| {
    let options = Options {
      max_tokens: Some(REPLY_PRIMER + budget),
      ..Options::default()
    };
    let kept = select_messages(&messages, tokens, &scores, &doc, &options);
    let units: Vec<usize> = kept.iter().step_by(2).map(|i| i / 2).collect();
    assert_eq!(kept.len(), 2 * units.len(), "units whole: {kept:?}");
    units
  };
  assert_eq!(select(&[5; 18], 80), vec![0, 1, 2, 3, 4, 5, 6, 8]);
  // With room for all, nothing changes: everything that qualifies is kept.
  assert_eq!(select(&[5; 18], 90), (0..9).collect::<Vec<_>>());
  // A unit that would take over half the budget is not taken for its file alone.
  let mut tokens = [5; 18];
  tokens[16] = 25;
  tokens[17] = 20;
  assert_eq!(select(&tokens, 80), (0..8).collect::<Vec<_>>());
}

#[test]
fn a_tight_budget_names_every_file_the_calls_act_on_in_the_text_too() {
  let call = |id: &str, path: &str| Message {
    role: "assistant".into(),
    name: None,
    parts: vec![Part::ToolCall {
      id: id.into(),
      name: "grep".into(),
      arguments: format!("{{\"pattern\":\"parse_expr\",\"path\":\"{path}\"}}"),
    }],
  };
  let result = |id: &str, content: String| Message {
    role: "tool".into(),
    name: None,
    parts: vec![Part::ToolResult {
      call_id: id.into(),
      content,
    }],
  };
  let mut messages = vec![Message::text(
    "user",
    "Fix the crash in parse_expr on nested brackets.",
  )];
  for k in 0..6 {
    let id = format!("p{k}");
    messages.push(call(&id, "/repo/src/parser.rs"));
    messages.push(result(
      &id,
      format!("fn parse_expr() crashes on nested brackets, attempt {k}: the parse_expr stack overflows"),
    ));
  }
  messages.push(call("l", "/repo/src/lexer.rs"));
  messages.push(result("l", "parse_expr reads bracket tokens".into()));
  let task = "Fix the crash in parse_expr on nested brackets";
  let options = Options {
    max_tokens: Some(120),
    keep_system: false,
    ..Options::default()
  };
  let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
  assert!(e.extracted_tokens <= 120);
  assert!(e.text.contains("src/lexer.rs"), "{}", e.text);
  assert!(e.text.contains("parse_expr stack overflows"), "{}", e.text);
}

/// A tool call (`name`, `arguments`) and its result, as two messages.
fn tool_round(id: &str, name: &str, arguments: String, result: &str) -> [Message; 2] {
  [
    Message {
      role: "assistant".into(),
      name: None,
      parts: vec![Part::ToolCall {
        id: id.into(),
        name: name.into(),
        arguments,
      }],
    },
    Message {
      role: "tool".into(),
      name: None,
      parts: vec![Part::ToolResult {
        call_id: id.into(),
        content: result.into(),
      }],
    },
  ]
}

/// Two agents' work interleaved: this task's on the parser, a sibling's on the logger.
fn two_agents(parser_edit: &str) -> (Vec<Message>, &'static str, Options) {
  let task = "Fix the crash in parse_expr on nested brackets";
  let sibling = "Add colour output to the logger, one colour per level";
  let mut messages = vec![Message::text("system", "You are a coding agent.")];
  for k in 0..4 {
    messages.extend(tool_round(
      &format!("p{k}"),
      "grep",
      "{\"pattern\":\"parse_expr\",\"path\":\"/repo/src/parser.rs\"}".into(),
      &format!("parse_expr crashes on nested brackets: the bracket stack of parse_expr overflows ({k})"),
    ));
    messages.extend(tool_round(
      &format!("l{k}"),
      "grep",
      "{\"pattern\":\"colour\",\"path\":\"/repo/src/logger.rs\"}".into(),
      &format!(
        "the logger writes every level without colour; colour output needs one colour per level ({k})"
      ),
    ));
  }
  messages.extend(tool_round(
    "e",
    "edit",
    format!("{{\"path\":\"/repo/src/parser.rs\",\"old\":\"depth\",\"new\":\"{parser_edit}\"}}"),
    "The edit was applied.",
  ));
  let options = Options {
    sibling_tasks: vec![sibling.into()],
    keep_system: false,
    ..Options::default()
  };
  (messages, task, options)
}

#[test]
fn a_call_on_a_file_this_task_owns_is_kept_though_its_line_says_little() {
  // The edit's line shares no word with the task, only the path the rounds that name
  // parse_expr again and again act on: it is far below them in relevance. But it acts
  // on the file this task's calls keep returning to, and no sibling's evidence is there.
  let (messages, task, options) = two_agents("depth + 1");
  let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
  assert!(e.text.contains("depth + 1"), "{}", e.text);
  assert!(!e.text.contains("logger.rs"), "{}", e.text);
  // Without siblings, relevance alone decides: the faint line stays out.
  let alone = Options {
    sibling_tasks: Vec::new(),
    ..options
  };
  let e = extract_messages(&messages, task, &alone, &Cancel::new()).unwrap();
  assert!(!e.text.contains("depth + 1"), "{}", e.text);
}

#[test]
fn a_call_is_named_unless_a_sibling_claims_its_whole_unit() {
  // A tight budget names each file this task's calls act on. The call on the lexer
  // returned one sentence on the sibling's logger among this task's own text: the
  // unit, line and result together, is still this task's, so the lexer is named.
  let (mut messages, task, mut options) = two_agents("depth + 1");
  for k in 0..4 {
    messages.extend(tool_round(
      &format!("q{k}"),
      "grep",
      "{\"pattern\":\"parse_expr\",\"path\":\"/repo/src/parser.rs\"}".into(),
      &format!("parse_expr recurses into nested brackets without a depth limit: round {k} of parse_expr"),
    ));
  }
  messages.extend(tool_round(
    "x",
    "grep",
    "{\"pattern\":\"parse_expr\",\"path\":\"/repo/src/lexer.rs\"}".into(),
    "The lexer hands parse_expr one token per bracket. Nested brackets come as nested tokens. \
     parse_expr crashes when the brackets nest deeply. Each level gets its colour.",
  ));
  options.max_tokens = Some(110);
  let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
  assert!(e.extracted_tokens <= 110);
  assert!(e.text.contains("src/lexer.rs"), "{}", e.text);
  assert!(!e.text.contains("logger"), "{}", e.text);
}

#[test]
fn a_tool_unit_is_a_sibling_s_whole_when_any_of_its_segments_is() {
  // The sibling's call on its logger returned a sentence that names this task's
  // function among its own: line by line, that sentence is this task's; but it is the
  // sibling's work, and goes with the rest of its unit.
  let (mut messages, task, options) = two_agents("depth + 1");
  messages.extend(tool_round(
    "s",
    "grep",
    "{\"pattern\":\"level\",\"path\":\"/repo/src/logger.rs\"}".into(),
    "The logger prints one colour per level. Its level table is read before parse_expr handles nested brackets. \
     Colour output is off by default.",
  ));
  let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
  assert!(e.text.contains("depth + 1"), "{}", e.text);
  assert!(!e.text.contains("level table"), "{}", e.text);
  let doc = render(&messages, Granularity::Sentence);
  let at = doc.text.find("Its level table").unwrap();
  let i = doc
    .segments
    .iter()
    .position(|s| s.start <= at && at < s.end)
    .unwrap();
  assert_eq!(e.segments[i].dropped, Some(Reason::Sibling));
}

#[test]
fn a_call_is_judged_with_the_reasoning_its_message_gives() {
  // In one checkout both tasks edit the parser. The sibling's edit there says nothing of
  // colour in its line or result, and acts on the file this task owns; the message that
  // makes it says why: the logger's colours. That reasoning is part of the unit, and the
  // edit is the sibling's, not lifted as this task's own action on its file.
  let (mut messages, task, options) = two_agents("depth + 1");
  let [mut call, result] = tool_round(
    "c",
    "edit",
    "{\"path\":\"/repo/src/parser.rs\",\"old\":\"emit(node)\",\"new\":\"emit_tinted(node)\"}".into(),
    "The edit was applied.",
  );
  call.parts.insert(
    0,
    Part::Text("Colour output for the logger: every level gets one colour, so the parser's emit goes through the colour table per level.".into()),
  );
  messages.extend([call, result]);
  let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
  assert!(e.text.contains("depth + 1"), "{}", e.text);
  assert!(!e.text.contains("emit_tinted"), "{}", e.text);
}

#[test]
fn each_file_this_task_owns_is_named_though_its_call_line_matches_a_sibling() {
  // The call on the lexer says `colour` (the sibling's word), but its result is all
  // this task's: the unit and the file are this task's. Its line names the lexer; its
  // result, which a sibling's line came with, stays out.
  let (mut messages, task, options) = two_agents("depth + 1");
  messages.extend(tool_round(
    "x",
    "grep",
    "{\"pattern\":\"colour\",\"path\":\"/repo/src/lexer.rs\"}".into(),
    "The lexer hands parse_expr one token per bracket; parse_expr crashes on nested brackets.",
  ));
  let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
  assert!(e.text.contains("src/lexer.rs"), "{}", e.text);
  assert!(!e.text.contains("src/logger.rs"), "{}", e.text);
}

#[test]
fn a_call_under_a_directory_only_a_sibling_s_statement_names_is_the_sibling_s() {
  // One code base in two versions, a task on each. The sibling's call on its copy of
  // the parser reads like this task's work, word for word; only the messages that set
  // the tasks say which copy is whose.
  let task = "Fix the crash in parse_expr on nested brackets";
  let sibling = "Update the changelog for the next release";
  let mut messages = vec![
    Message::text("user", &format!("Work in /work/app-v2.\n\n{task}")),
    Message::text("user", &format!("Work in /work/app-v1.\n\n{sibling}")),
  ];
  for (id, dir) in [("a", "app-v2"), ("b", "app-v1")] {
    messages.extend(tool_round(
      id,
      "view",
      format!("{{\"path\":\"/work/{dir}/src/parser.rs\"}}"),
      &format!("parse_expr crashes on nested brackets in {dir}"),
    ));
  }
  let options = Options {
    sibling_tasks: vec![sibling.into()],
    ..Options::default()
  };
  let e = extract_messages(&messages, task, &options, &Cancel::new()).unwrap();
  assert!(e.text.contains("in app-v2"), "{}", e.text);
  assert!(!e.text.contains("app-v1/src"), "{}", e.text);
  assert!(!e.text.contains("in app-v1"), "{}", e.text);
  // A thread that does not quote this task says nothing of where it works: both
  // copies' work reads as this task's.
  let unquoted = &messages[1..];
  let e = extract_messages(unquoted, task, &options, &Cancel::new()).unwrap();
  assert!(
    e.text.contains("in app-v2") && e.text.contains("in app-v1"),
    "{}",
    e.text
  );
}

#[test]
fn anchors_name_absolute_directories() {
  let text = "Work in /work/app-v2. See /work/app-v2/src/a.rs, src/b.rs and /tmp or /x/y/.";
  let paths: Vec<&str> = absolute_paths(text).collect();
  assert_eq!(paths, vec!["/work/app-v2", "/work/app-v2/src/a.rs", "/x/y"]);
  assert!(under("/work/app-v2/src/a.rs", "/work/app-v2") && under("/work/app-v2", "/work/app-v2"));
  assert!(!under("/work/app-v20/a.rs", "/work/app-v2"));
}

#[test]
fn named_files_are_paths_by_their_last_two_components() {
  let text = "Edit /repo/src/api/users.ts, then see src/api/users.ts:12 and \"lib/a.b.c.rs\"; \
              not e.g. this. or a/b or ./x/.hidden or https://example.org/docs/page.html.";
  let files: Vec<&str> = named_files(text).collect();
  assert_eq!(
    files,
    vec!["api/users.ts", "api/users.ts", "lib/a.b.c.rs", "docs/page.html"]
  );
}

#[test]
fn keep_recent_and_keep_system_are_honoured() {
  let e = run_messages(
    "rate limiter leak",
    Options {
      keep_recent: 1,
      keep_system: false,
      ..Options::default()
    },
  );
  let kept = e.messages.unwrap();
  assert!(kept.contains(&7) && !kept.contains(&0), "{kept:?}");
  assert!(e.text.contains("Thanks."));
}

proptest::proptest! {
  /// `named_files` reads the same words as splitting the text at every character that
  /// cannot be in a path.
  #[test]
  fn named_files_reads_every_path_word(text in "([a-z_./ -]|\\PC){0,60}") {
    let path_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    let plain: Vec<&str> = text.split(|c: char| !path_char(c)).filter_map(file_of).collect();
    proptest::prop_assert_eq!(named_files(&text).collect::<Vec<_>>(), plain);
  }

  /// `best_first` orders as comparing forced, then score (`total_cmp`, best first),
  /// then index: for any scores, negative zero, infinities and NaNs included.
  #[test]
  fn best_first_orders_as_the_comparison(
    rows in proptest::collection::vec(
      (
        proptest::bool::ANY,
        proptest::prop_oneof![
          proptest::num::f32::ANY,
          proptest::sample::select(vec![0.0f32, -0.0, 1.0, -1.0, f32::NAN, -f32::NAN, f32::INFINITY]),
        ],
      ),
      0..40,
    ),
    picked in proptest::collection::vec(proptest::bool::ANY, 40),
  ) {
    let forced: Vec<bool> = rows.iter().map(|r| r.0).collect();
    let own: Vec<f32> = rows.iter().map(|r| r.1).collect();
    let mut candidates: Vec<usize> = (0..rows.len()).filter(|&i| picked[i]).collect();
    let mut expected = candidates.clone();
    expected.sort_by(|&a, &b| forced[b].cmp(&forced[a]).then(own[b].total_cmp(&own[a])).then(a.cmp(&b)));
    best_first(&mut candidates, &forced, &own);
    proptest::prop_assert_eq!(candidates, expected);
  }
}

mod prepared {
  use super::*;
  use proptest::prelude::*;

  const WORDS: [&str; 16] = [
    "users",
    "src/api/users.ts",
    "emails",
    "validate",
    "rate",
    "limiter",
    "`hits`",
    "memory",
    "leak",
    "README.md",
    "routes",
    "A.1",
    "A.2",
    "the",
    "cache",
    "createUser",
  ];

  /// Text of paragraphs, headings, list items and code blocks made of `WORDS`.
  fn text_of(blocks: &[(u8, Vec<usize>)]) -> String {
    let mut out = String::new();
    for (kind, words) in blocks {
      let body: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
      match kind % 4 {
        0 => out.push_str(&format!("## {}\n\n", body.join(" "))),
        1 => out.push_str(&format!("- {}\n", body.join(" "))),
        2 => out.push_str(&format!("```\n{}\n```\n\n", body.join(" "))),
        _ => out.push_str(&format!("{}. {}.\n\n", body.join(" "), body.join(" "))),
      }
    }
    out
  }

  fn blocks() -> impl Strategy<Value = Vec<(u8, Vec<usize>)>> {
    proptest::collection::vec(
      (0u8..4, proptest::collection::vec(0usize..WORDS.len(), 1..8)),
      0..14,
    )
  }

  fn options() -> impl Strategy<Value = Options> {
    (
      proptest::option::of(0usize..200),
      proptest::collection::vec(proptest::collection::vec(0usize..WORDS.len(), 1..5), 0..3),
      0usize..3,
      0usize..3,
      any::<bool>(),
    )
      .prop_map(|(max_tokens, siblings, g, keep_recent, keep_system)| Options {
        max_tokens,
        sibling_tasks: siblings
          .iter()
          .map(|s| s.iter().map(|&w| WORDS[w]).collect::<Vec<_>>().join(" "))
          .collect(),
        granularity: [
          Granularity::Sentence,
          Granularity::Paragraph,
          Granularity::Message,
        ][g],
        keep_recent,
        keep_system,
        ..Options::default()
      })
  }

  /// Each task of a set keeps its own text and none of its siblings', whichever task
  /// asks and in whatever order it names the others.
  #[test]
  fn each_task_of_a_set_gets_its_own_row() {
    let text = "Validate emails in src/api/users.ts before saving a user.\n\nThe rate limiter counts `hits` per minute.\n\nThe memory leak comes from the routes cache.\n";
    let tasks = [
      "validate emails in users.ts",
      "rate limiter hits",
      "memory leak in the routes cache",
    ];
    let own = ["Validate emails", "rate limiter", "memory leak"];
    let cancel = Cancel::new();
    let prepared = Prepared::text(text, Encoding::default(), Granularity::Paragraph, &cancel).unwrap();
    for reversed in [false, true] {
      for i in 0..tasks.len() {
        let mut sibling_tasks: Vec<String> = (0..tasks.len())
          .filter(|&j| j != i)
          .map(|j| tasks[j].to_string())
          .collect();
        if reversed {
          sibling_tasks.reverse();
        }
        let options = Options {
          sibling_tasks,
          ..Options::default()
        };
        for e in [
          prepared.extract(tasks[i], &options, &cancel).unwrap(),
          extract_text(text, tasks[i], &options, &cancel).unwrap(),
        ] {
          for (j, o) in own.iter().enumerate() {
            assert_eq!(e.text.contains(o), i == j, "task {i} ({reversed}): {:?}", e.text);
          }
        }
      }
    }
  }

  /// Spawns of one batch extracting from one prepared thread at once: one scores the
  /// set of tasks, the others wait for its scores; all get what one-shot extraction gives.
  #[test]
  fn concurrent_batch_extracts_as_one_shot() {
    let thread = super::thread();
    let tasks = [
      "validate emails in src/api/users.ts",
      "fix the rate limiter",
      "the memory leak in the cache",
      "README.md routes",
    ];
    let cancel = Cancel::new();
    let prepared = Prepared::messages(
      thread.clone(),
      Encoding::default(),
      Granularity::Sentence,
      &cancel,
    )
    .unwrap();
    let options = |i: usize| Options {
      max_tokens: Some(60),
      sibling_tasks: tasks
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != i)
        .map(|(_, t)| t.to_string())
        .collect(),
      ..Options::default()
    };
    let want: Vec<Extraction> = (0..tasks.len())
      .map(|i| extract_messages(&thread, tasks[i], &options(i), &cancel).unwrap())
      .collect();
    std::thread::scope(|scope| {
      let spawns: Vec<_> = (0..tasks.len())
        .map(|i| {
          let (prepared, options) = (&prepared, &options);
          scope.spawn(move || prepared.extract(tasks[i], &options(i), &Cancel::new()).unwrap())
        })
        .collect();
      for (i, spawn) in spawns.into_iter().enumerate() {
        assert_eq!(spawn.join().unwrap(), want[i]);
      }
    });
  }

  proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    /// A prepared thread extracts exactly what one-shot extraction does.
    #[test]
    fn text_extracts_as_one_shot(blocks in blocks(), task in proptest::collection::vec(0usize..WORDS.len(), 1..6), options in options()) {
      let text = text_of(&blocks);
      let task: Vec<&str> = task.iter().map(|&w| WORDS[w]).collect();
      let task = task.join(" ");
      let cancel = Cancel::new();
      let prepared = Prepared::text(&text, options.encoding, options.granularity, &cancel).unwrap();
      prop_assert_eq!(prepared.tokens(), count_tokens(&text, options.encoding));
      prop_assert_eq!(prepared.extract(&task, &options, &cancel).unwrap(), extract_text(&text, &task, &options, &cancel).unwrap());
    }

    /// The spawns of a batch: each task with the others as siblings, in any order, asked
    /// again (the scores of the set are kept), and after more sets than are kept.
    #[test]
    fn batches_extract_as_one_shot(blocks in blocks(), tasks in proptest::collection::vec(proptest::collection::vec(0usize..WORDS.len(), 1..5), 1..4), max_tokens in proptest::option::of(0usize..200)) {
      let text = text_of(&blocks);
      let tasks: Vec<String> = tasks.iter().map(|t| t.iter().map(|&w| WORDS[w]).collect::<Vec<_>>().join(" ")).collect();
      let cancel = Cancel::new();
      let prepared = Prepared::text(&text, Encoding::default(), Granularity::Sentence, &cancel).unwrap();
      let spawn = |i: usize, reversed: bool| {
        let mut sibling_tasks: Vec<String> = tasks.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, t)| t.clone()).collect();
        if reversed {
          sibling_tasks.reverse();
        }
        let options = Options { max_tokens, sibling_tasks, ..Options::default() };
        (prepared.extract(&tasks[i], &options, &cancel).unwrap(), extract_text(&text, &tasks[i], &options, &cancel).unwrap())
      };
      for round in 0..2 {
        for i in 0..tasks.len() {
          let (got, want) = spawn(i, round == 1);
          prop_assert_eq!(got, want);
        }
        // More sets than a prepared thread keeps: a task each, alone.
        for k in 0..=SCORED_SETS {
          let task = format!("{} {}", tasks[k % tasks.len()], WORDS[k]);
          let options = Options { max_tokens, ..Options::default() };
          prop_assert_eq!(prepared.extract(&task, &options, &cancel).unwrap(), extract_text(&text, &task, &options, &cancel).unwrap());
        }
      }
    }

    #[test]
    fn messages_extract_as_one_shot(messages in proptest::collection::vec((0usize..4, blocks()), 0..8), task in proptest::collection::vec(0usize..WORDS.len(), 1..6), options in options()) {
      let mut thread: Vec<Message> = messages
        .iter()
        .map(|(role, blocks)| Message::text(["system", "user", "assistant", "tool"][*role], &text_of(blocks)))
        .collect();
      thread.extend(super::thread());
      let task: Vec<&str> = task.iter().map(|&w| WORDS[w]).collect();
      let task = task.join(" ");
      let cancel = Cancel::new();
      let prepared = Prepared::messages(thread.clone(), options.encoding, options.granularity, &cancel).unwrap();
      let whole = extract_messages(&thread, &task, &options, &cancel).unwrap();
      prop_assert_eq!(&prepared.extract(&task, &options, &cancel).unwrap(), &whole);
      // Without the whole messages, the same text, segments and counts.
      let text_only = Extraction { messages: None, ..whole };
      prop_assert_eq!(&prepared.extract_as_text(&task, &options, &cancel).unwrap(), &text_only);
      prop_assert_eq!(&extract_messages_as_text(&thread, &task, &options, &cancel).unwrap(), &text_only);
    }
  }
}

/// The binding sends a segment's outcome as a code and the package entry names it with
/// its own table (`ts/native.ts`), and users pass a granularity by the names the types
/// list (`src/binding/types.d.ts`): the tables on both sides must agree.
#[test]
fn reason_and_granularity_tables_agree_with_the_typescript_side() {
  let quoted = |names: &mut dyn Iterator<Item = &str>| names.map(|n| format!("'{n}'")).collect::<Vec<_>>();
  let entry = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/ts/native.ts"));
  let reasons = quoted(&mut Reason::ALL.iter().map(|r| r.name())).join(", ");
  let table = format!("const REASONS = [undefined, {reasons}] as const");
  assert!(entry.contains(&table), "ts/native.ts must hold `{table}`");
  let types = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/binding/types.d.ts"));
  let union = quoted(&mut Granularity::NAMED.iter().map(|(_, n)| *n)).join(" | ");
  assert!(
    types.contains(&format!("granularity?: {union}")),
    "types.d.ts must list {union}"
  );
  assert!(types.contains(&format!("reason: {}", reasons.replace(", ", " | "))));
  for (k, r) in Reason::ALL.iter().enumerate() {
    assert_eq!(Reason::code(Some(*r)), k as u8 + 1);
  }
  assert_eq!(Reason::code(None), 0);
}

fn call_message(calls: &[(&str, &str, &str)]) -> Message {
  Message {
    role: "assistant".into(),
    name: None,
    parts: calls
      .iter()
      .map(|(id, name, arguments)| Part::ToolCall {
        id: (*id).into(),
        name: (*name).into(),
        arguments: (*arguments).into(),
      })
      .collect(),
  }
}

fn result_message(id: &str, content: &str) -> Message {
  Message {
    role: "tool".into(),
    name: None,
    parts: vec![Part::ToolResult {
      call_id: id.into(),
      content: content.into(),
    }],
  }
}

/// The issue's thread: a plan that quotes the task must not make the task's own file and
/// note look faint, and with a sibling the sibling's line goes.
#[test]
fn a_thread_that_quotes_the_task_keeps_its_file_and_note() {
  let thread = vec![
    Message::text(
      "user",
      "Plan: A.1 Validate emails in src/api/users.ts. A.2 Fix the memory leak in src/middleware/rate-limit.ts.",
    ),
    call_message(&[("c1", "read_file", r#"{"path":"src/api/users.ts"}"#)]),
    result_message("c1", "export function createUser(body) { db.users.insert({ email: body.email }) }"),
    Message::text("assistant", "users.ts inserts body.email unchecked; createUser needs validation."),
  ];
  let task = "Validate emails in src/api/users.ts";
  let e = extract_messages(&thread, task, &Options::default(), &Cancel::new()).unwrap();
  assert!(e.text.contains("db.users.insert"), "{}", e.text);
  assert!(e.text.contains("createUser needs validation"), "{}", e.text);
  let options = Options {
    sibling_tasks: vec!["Fix the memory leak in src/middleware/rate-limit.ts".into()],
    ..Options::default()
  };
  let e = extract_messages(&thread, task, &options, &Cancel::new()).unwrap();
  assert!(!e.text.contains("rate-limit"), "{}", e.text);
  assert!(e.text.contains("db.users.insert"), "{}", e.text);
}

/// A search whose query holds more than a name ("Ed Wood wikipedia") finds a page that
/// opens with the name: the result is named by it too, so that the page another names is
/// followed.
#[test]
fn a_result_is_named_by_its_lead_where_the_query_holds_more() {
  let pages = [
    (
      "Ed Wood",
      "Ed Wood is a 1994 American film directed by Tim Burton.",
    ),
    ("Tim Burton", "Tim Burton grew up in Burbank, California."),
    ("Jane Doe", "Jane Doe was born in Ohio and is a stage actress."),
    ("John Roe", "John Roe was born in Texas and is a film critic."),
  ];
  let mut thread = vec![Message::text("user", "Look these up.")];
  for (i, (title, body)) in pages.iter().enumerate() {
    let id = format!("c{i}");
    let query = format!("{{\"q\":\"{title} wikipedia\",\"max_results\":1}}");
    thread.push(call_message(&[(&id, "web_search", &query)]));
    thread.push(result_message(&id, body));
  }
  let options = Options {
    max_tokens: Some(70),
    ..Options::default()
  };
  let e = extract_messages(
    &thread,
    "Where was the director of the film Ed Wood born?",
    &options,
    &Cancel::new(),
  )
  .unwrap();
  assert!(e.text.contains("Burbank"), "{}", e.text);
}

/// Four pages, each of whose text never says its title, and a task that names two of them.
const PAGES: [(&str, &str); 4] = [
  (
    "Ed Wood",
    "He was an American filmmaker, actor and writer of low-budget films.",
  ),
  (
    "Scott Derrickson",
    "He is an American director, screenwriter and producer.",
  ),
  (
    "Jonathan Swift",
    "He was an Anglo-Irish satirist and essayist of the eighteenth century.",
  ),
  (
    "Woodlands",
    "A forest is a large area dominated by trees in a temperate climate.",
  ),
];
const PAGES_TASK: &str = "Were Scott Derrickson and Ed Wood of the same nationality?";

/// A file read by a path that names nothing the task says (`source_02.txt`) holds an
/// article under its title: the result is named by that title, as a heading names its
/// section, and is kept whole for a task that names it.
#[test]
fn a_result_that_opens_with_a_title_alone_is_named_by_it() {
  let mut thread = vec![Message::text("user", "Read the sources.")];
  for (i, (title, body)) in PAGES.iter().enumerate() {
    let id = format!("c{i}");
    let path = format!("{{\"path\":\"research/sources/source_{:02}.txt\"}}", i + 1);
    thread.push(call_message(&[(&id, "read_file", &path)]));
    thread.push(result_message(&id, &format!("{title}\n\n{body}\n")));
  }
  let options = Options {
    max_tokens: Some(75),
    ..Options::default()
  };
  let e = extract_messages(&thread, PAGES_TASK, &options, &Cancel::new()).unwrap();
  assert!(e.text.contains("He was an American filmmaker"), "{}", e.text);
  assert!(e.text.contains("He is an American director"), "{}", e.text);
  assert!(!e.text.contains("Anglo-Irish"), "{}", e.text);
}

/// A fetched page is one document with what a reader prints around it (its title and
/// address as fields, a label over the text, where it was retrieved from): the call names
/// the page's text as it names a result of one paragraph, so a link from the page that
/// names it reaches the text, not only its title.
#[test]
fn a_page_s_fields_and_notes_go_with_its_text() {
  let pages = [
    (
      "Six by Sondheim",
      "Six by Sondheim is a 2013 documentary film about a songwriter. It was directed by James Lapine.",
    ),
    (
      "Trevor Nunn",
      "He is an English theatre director who ran the Royal Shakespeare Company for many years.",
    ),
    (
      "James Lapine",
      "He is an American stage director and playwright of musical theatre, who lives in New York.",
    ),
    (
      "Sam Mendes",
      "He is an English film and stage director who made two films of the James Bond series.",
    ),
  ];
  let mut thread = vec![Message::text("user", "Fetch the pages.")];
  for (i, (title, body)) in pages.iter().enumerate() {
    let id = format!("c{i}");
    let url = format!("https://en.wikipedia.org/wiki/{}", title.replace(' ', "_"));
    thread.push(call_message(&[(&id, "fetch", &format!("{{\"url\":\"{url}\"}}"))]));
    let page = format!(
      "Title: {title} - Wikipedia\n\nURL Source: {url}\n\nMarkdown Content:\n\n{body}\n\nRetrieved from \"{url}\"\n"
    );
    thread.push(result_message(&id, &page));
  }
  let options = |max_tokens| Options {
    max_tokens: Some(max_tokens),
    ..Options::default()
  };
  let task = "What nationality is the director of Six by Sondheim?";
  let e = extract_messages(&thread, task, &options(170), &Cancel::new()).unwrap();
  assert!(e.text.contains("It was directed by James Lapine"), "{}", e.text);
  assert!(e.text.contains("He is an American stage director"), "{}", e.text);
  assert!(!e.text.contains("Royal Shakespeare"), "{}", e.text);
  // The pages listed in one result, each text under a label: the label goes with the
  // text, and the text with its record's title.
  let listed: Vec<String> = pages
    .iter()
    .map(|(title, body)| format!("Title: {title}\nContent:\n\n{body}"))
    .collect();
  let thread = vec![
    Message::text("user", "Look the pages up."),
    call_message(&[("c0", "lookup", "{\"titles\":\"all\"}")]),
    result_message("c0", &listed.join("\n\n")),
  ];
  let e = extract_messages(&thread, task, &options(75), &Cancel::new()).unwrap();
  assert!(e.text.contains("He is an American stage director"), "{}", e.text);
  assert!(!e.text.contains("Royal Shakespeare"), "{}", e.text);
}

/// A tool result is scored with its call: the call names what came back, as a heading
/// names its section, even when the result itself never says it and when several calls
/// stand before their results.
#[test]
fn a_tool_result_is_titled_by_its_call() {
  let task = PAGES_TASK;
  let budget = 60;
  for parallel in [false, true] {
    let mut thread = vec![Message::text("user", "Look these people up.")];
    let calls: Vec<(String, String)> = PAGES
      .iter()
      .enumerate()
      .map(|(i, (title, _))| (format!("c{i}"), format!("{{\"query\":\"{title}\"}}")))
      .collect();
    if parallel {
      let all: Vec<(&str, &str, &str)> = calls
        .iter()
        .map(|(id, a)| (id.as_str(), "lookup", a.as_str()))
        .collect();
      thread.push(call_message(&all));
      thread.extend(
        PAGES
          .iter()
          .zip(&calls)
          .map(|((_, body), (id, _))| result_message(id, body)),
      );
    } else {
      for ((_, body), (id, arguments)) in PAGES.iter().zip(&calls) {
        thread.push(call_message(&[(id, "lookup", arguments)]));
        thread.push(result_message(id, body));
      }
    }
    let options = Options {
      max_tokens: Some(budget),
      ..Options::default()
    };
    let e = extract_messages(&thread, task, &options, &Cancel::new()).unwrap();
    assert!(
      e.text.contains("American filmmaker"),
      "parallel {parallel}: {}",
      e.text
    );
    assert!(
      e.text.contains("American director"),
      "parallel {parallel}: {}",
      e.text
    );
    assert!(
      !e.text.contains("satirist") && !e.text.contains("forest"),
      "parallel {parallel}: {}",
      e.text
    );
  }
}

/// Four short documents: the film names its director, whose document shares no word with
/// the task but for his name; a distractor matches the task's words.
const FILM: [(&str, &str); 4] = [
  ("Ed Wood (film)", "Ed Wood is a 1994 American biographical film directed by Tim Burton. It stars Johnny Depp as the cult filmmaker."),
  ("Wisconsin", "Wisconsin is a state where many films were shot. Its largest city is Milwaukee."),
  ("Tim Burton", "Tim Burton is an American filmmaker known for gothic fantasy. Burton grew up in Burbank, California."),
  ("Johnny Depp", "Johnny Depp is an American actor known for playing eccentric characters."),
];
const FILM_TASK: &str = "Where was the director of the film Ed Wood born?";

/// Documents in one piece (under one heading, an answer's paragraphs or list, one tool result of a
/// thread for one task, the results of calls that name nothing) are read one by one, as
/// documents apart are: the director's document, named by the film's, is kept over the
/// one that shares words with the task.
#[test]
fn documents_in_one_piece_are_read_one_by_one() {
  let paragraphs: Vec<&str> = FILM.iter().map(|(_, text)| *text).collect();
  let message = |role: &str, parts: Vec<Part>| Message {
    role: role.into(),
    name: None,
    parts,
  };
  let call = |id: String, name: &str, arguments: String| {
    message(
      "assistant",
      vec![Part::ToolCall {
        id,
        name: name.into(),
        arguments,
      }],
    )
  };
  let result = |id: String, content: String| message("tool", vec![Part::ToolResult { call_id: id, content }]);
  let mut pages = vec![Message::text("user", FILM_TASK)];
  for (i, text) in paragraphs.iter().enumerate() {
    pages.push(call(
      format!("c{i}"),
      "next_page",
      format!("{{\"page\":{}}}", i + 1),
    ));
    pages.push(result(format!("c{i}"), (*text).to_owned()));
  }
  let search = format!("{{\"query\":\"{FILM_TASK}\"}}");
  let listed: Vec<String> = FILM
    .iter()
    .enumerate()
    .map(|(i, (title, text))| format!("[{}] {title}\n{text}", i + 1))
    .collect();
  let bulleted: Vec<String> = FILM
    .iter()
    .map(|(title, text)| format!("- **{title}**: {text}"))
    .collect();
  let mut answers = vec![Message::text("user", FILM_TASK)];
  answers.extend(paragraphs.iter().map(|p| Message::text("assistant", p)));
  let threads = [
    ("an answer's messages, a paragraph each", answers, 80),
    (
      "an answer's bulleted notes",
      vec![
        Message::text("user", FILM_TASK),
        Message::text("assistant", &bulleted.join("\n")),
      ],
      80,
    ),
    (
      "an answer's paragraphs",
      vec![
        Message::text("user", FILM_TASK),
        Message::text("assistant", &paragraphs.join("\n\n")),
      ],
      80,
    ),
    (
      "one search result",
      vec![
        Message::text("user", FILM_TASK),
        call("c1".into(), "search", search),
        result("c1".into(), listed.join("\n\n")),
      ],
      110,
    ),
    ("calls that name nothing", pages, 110),
  ];
  let options = |max: usize| Options {
    max_tokens: Some(max),
    ..Options::default()
  };
  for under_heading in [paragraphs.join("\n\n"), bulleted.join("\n")] {
    let e = extract_text(
      &format!("# Notes\n\n{under_heading}"),
      FILM_TASK,
      &options(80),
      &Cancel::new(),
    )
    .unwrap();
    assert!(
      e.text.contains("Burbank") && !e.text.contains("Milwaukee"),
      "one heading: {}",
      e.text
    );
  }
  for (form, messages, budget) in threads {
    let e = extract_messages(&messages, FILM_TASK, &options(budget), &Cancel::new()).unwrap();
    assert!(
      e.text.contains("Burbank") && !e.text.contains("Milwaukee"),
      "{form}: {}",
      e.text
    );
  }
}

/// HTML's headings title what follows them, as markdown's do.
#[test]
fn an_html_heading_titles_its_document() {
  let html: String = FILM
    .iter()
    .map(|(title, text)| format!("<h2>{title}</h2>\n<p>{text}</p>\n"))
    .collect();
  let e = extract_text(
    &html,
    FILM_TASK,
    &Options {
      max_tokens: Some(95),
      ..Options::default()
    },
    &Cancel::new(),
  )
  .unwrap();
  assert!(
    e.text.contains("Burbank") && !e.text.contains("Milwaukee"),
    "{}",
    e.text
  );
}

/// A call that asks for nothing (`next_page {"page": 2}`) says nothing without its result:
/// it is kept only with it, and a call line taken for a result that then does not fit is
/// given back, at every budget.
#[test]
fn a_call_line_is_not_kept_without_the_result_it_came_for() {
  let pages = [
    "Othonna is a genus of African plants in the sunflower family.",
    "Stangeria eriopus is a cycad endemic to southern Africa and the sole species in the genus Stangeria, most closely related to the Australian genus Bowenia, with which it forms the family Stangeriaceae of cycads.",
    "It rained all week in the office town.",
  ];
  let mut thread = vec![Message::text("user", "Read the pages.")];
  for (i, body) in pages.iter().enumerate() {
    let id = format!("c{i}");
    let arguments = format!("{{\"page\":{}}}", i + 1);
    thread.push(call_message(&[(&id, "next_page", &arguments)]));
    thread.push(result_message(&id, body));
  }
  let task = "How many species are in the genus Stangeria?";
  let mut kept_whole = false;
  for budget in (4..80).step_by(3).chain([400]) {
    let options = Options {
      max_tokens: Some(budget),
      ..Options::default()
    };
    let e = extract_messages(&thread, task, &options, &Cancel::new()).unwrap();
    for (i, body) in pages.iter().enumerate() {
      let line = format!("next_page {{\"page\":{}}}", i + 1);
      assert_eq!(
        e.text.contains(&line),
        e.text.contains(body),
        "{budget}: {}",
        e.text
      );
    }
    kept_whole |= e.text.contains(pages[1]);
  }
  assert!(kept_whole, "the page the task needs is kept where it fits");
}

/// A message that says nothing but the task (the request that set it, as it is) spends no
/// budget: the subagent has its task. A message that says more is read whole.
#[test]
fn a_message_that_only_repeats_the_task_spends_no_budget() {
  let task = "Where was the director of the film Ed Wood born?";
  let thread = vec![
    Message::text("user", task),
    call_message(&[("c1", "lookup", r#"{"title":"Ed Wood"}"#)]),
    result_message("c1", "Ed Wood is a 1994 American film directed by Tim Burton."),
    Message::text("user", &format!("For the report on film history: {task}")),
  ];
  let e = extract_messages(&thread, task, &Options::default(), &Cancel::new()).unwrap();
  assert_eq!(e.text.matches(task).count(), 1, "{}", e.text);
  assert!(e.text.contains("report on film history"), "{}", e.text);
  assert!(e.text.contains("Tim Burton"), "{}", e.text);
}

/// The first piece kept stands alone, with no elision marker before or after it: a
/// sentence that fits the budget exactly is kept.
#[test]
fn a_piece_that_fits_the_budget_exactly_is_kept() {
  let text = "## A\n\nAlpha beta. Gamma.\n\n## B\n\nDelta.";
  let tokens = count_tokens("Alpha beta.", Encoding::O200kBase);
  let options = Options {
    max_tokens: Some(tokens),
    ..Options::default()
  };
  let e = extract_text(text, "alpha", &options, &Cancel::new()).unwrap();
  assert_eq!(e.text, "Alpha beta.");
}

/// Joins are estimated in full while filling; counted exactly, what is kept leaves room
/// that the candidates passed over are offered: a paragraph whose joins cost no tokens
/// is kept whole within a token of its count (the estimates alone kept three sentences).
#[test]
fn room_left_by_the_estimates_is_offered_again() {
  let paragraph = "Alpha one holds. Alpha two holds. Alpha three holds. Alpha four holds.";
  let text = format!("{paragraph}\n\nUnrelated words stand here.");
  let options = Options {
    max_tokens: Some(count_tokens(paragraph, Encoding::O200kBase) + 1),
    ..Options::default()
  };
  let e = extract_text(&text, "alpha", &options, &Cancel::new()).unwrap();
  assert_eq!(e.text, paragraph);
}

/// The pair lifted to the top sets no scale for the rest: the section that follows it
/// is kept whole, one that shares nothing with the task is not.
#[test]
fn the_pair_lifted_to_the_top_sets_no_scale_for_the_rest() {
  let text = "## Kiskiack\n\nKiskiack is a village in the Bakhchysarai district of Crimea.\n\n## Kiskiack (Lee House)\n\nKiskiack is a historic house on the grounds of Naval Weapons Station Yorktown. It still stands.\n\n## Naval Weapons Station Yorktown\n\nNaval Weapons Station Yorktown is a naval base of the United States Navy in York County, Virginia. It was founded in 1918.\n\n## Yorktown, Virginia\n\nYorktown is a town in York County, Virginia. It is known for its siege.\n\n## Weather\n\nIt rained all week in the office town.";
  let e = extract_text(
    text,
    "Kiskiack is a building that still stands at what York County, Virginia naval base?",
    &Options::default(),
    &Cancel::new(),
  )
  .unwrap();
  // The third section whole: its second sentence scores a fifth of the pair's second
  // half's best, and well above a fifth of the best outside the pair.
  assert!(e.text.contains("It is known for its siege."), "{}", e.text);
  assert!(!e.text.contains("rained"), "{}", e.text);
}

/// Paragraphs under one heading are ranked as sections are: the best of them sets no
/// scale for the rest.
#[test]
fn under_one_heading_the_best_paragraph_sets_no_scale() {
  let body = "The rate limiter leaks memory: the rate limiter map never forgets idle clients.\n\nA sweep could evict the clients after a minute.\n\nIt rained all week in the office town.";
  let task = "fix the rate limiter memory leak for idle clients";
  for text in [body.to_owned(), format!("# Notes\n\n{body}")] {
    let e = extract_text(&text, task, &Options::default(), &Cancel::new()).unwrap();
    assert!(
      e.text.contains("evict the clients after a minute"),
      "{text}\n---\n{}",
      e.text
    );
    assert!(!e.text.contains("rained"), "{}", e.text);
  }
}

/// A search for the task itself quotes it: its query names nothing, and the names the
/// task gives inside it still name the results they title, whose best sentences then rank
/// first.
#[test]
fn a_call_that_quotes_the_task_hides_no_name_the_task_gives() {
  let task = "Who was born first Ada Lovelace or Grace Hopper?";
  let records = [
    (
      "Ada Lovelace",
      "Ada Lovelace was an English mathematician. She was born on 10 December 1815.",
    ),
    (
      "Grace Hopper",
      "Grace Hopper was an American computer scientist. She was born on 9 December 1906.",
    ),
    (
      "Who Was First",
      "Who Was First is a quiz show. Players guess who was born first among two people.",
    ),
    (
      "Born First",
      "Born First is a novel about twins. The one born first inherits the farm.",
    ),
  ];
  let json = format!(
    "[{}]",
    records
      .iter()
      .map(|(t, s)| format!("{{\"title\":\"{t}\",\"snippet\":\"{s}\"}}"))
      .collect::<Vec<_>>()
      .join(",")
  );
  let mut messages = vec![Message::text("user", task)];
  messages.extend(tool_round(
    "c1",
    "search",
    format!("{{\"query\":\"{task}\"}}"),
    &json,
  ));
  let e = extract_messages(&messages, task, &Options::default(), &Cancel::new()).unwrap();
  // Segments: the user's role line and text (0, 1), the call's role line and line (2, 3),
  // the result's role line (4), then per record its heading and two sentences (5..17).
  assert_eq!(e.segments.len(), 17);
  let mut ranked: Vec<usize> = (0..e.segments.len()).collect();
  ranked.sort_by(|&a, &b| e.segments[b].score.total_cmp(&e.segments[a].score));
  let named = 5..11;
  assert!(
    ranked[..2].iter().all(|i| named.contains(i)),
    "{ranked:?} {:?}",
    e.segments.iter().map(|s| s.score).collect::<Vec<_>>()
  );
}

/// Each segment of the rendered thread, with its score for `task`.
fn segment_scores(messages: &[Message], task: &str) -> Vec<(String, f32)> {
  let e = extract_messages(messages, task, &Options::default(), &Cancel::new()).unwrap();
  let doc = super::doc::render(messages, Granularity::Sentence);
  (doc.segments.iter().zip(&e.segments))
    .map(|(s, r)| (doc.text[s.start..s.end].to_owned(), r.score))
    .collect()
}

/// A search for the task itself over the hits it lists names none of them: they are no
/// source whose links are followed before the page the task names (the director's page is
/// reached from the film's).
#[test]
fn a_search_for_the_task_names_none_of_its_hits() {
  let task = "Where did the director of the film Ed Wood grow up?";
  let page = |t: &str| format!("https://en.wikipedia.org/wiki/{}", t.replace(' ', "_"));
  let pages = [
    ("Ed Wood (film)", "Ed Wood is a film directed by Tim Burton."),
    ("Tim Burton", "He grew up in Burbank."),
    (
      "Bela Lugosi",
      "Bela Lugosi starred in films by Ed Wood, who directed him until he died.",
    ),
  ];
  let hits: Vec<String> = pages
    .iter()
    .map(|(t, _)| format!("{t} - Wikipedia\n{}", page(t)))
    .collect();
  let mut messages = vec![Message::text("user", task)];
  messages.extend(tool_round(
    "s",
    "web_search",
    format!("{{\"query\":\"{task}\"}}"),
    &hits.join("\n\n"),
  ));
  for (i, (t, text)) in pages.iter().enumerate() {
    messages.extend(tool_round(
      &format!("f{i}"),
      "web_fetch",
      format!("{{\"url\":\"{}\"}}", page(t)),
      text,
    ));
  }
  let s = segment_scores(&messages, task);
  let score = |needle: &str| s.iter().find(|x| x.0.contains(needle)).unwrap().1;
  assert!(score("Burbank") > score("Lugosi starred"), "{s:?}");
}

/// A fetched page's address says where its text is, as the call that fetched it does: it
/// scores as the call, not as text that says the page's name (it had outscored the page's
/// own text).
#[test]
fn an_address_alone_scores_as_its_call() {
  let task = "Which genus has more species, Bactris or Epigaea?";
  let mut messages = vec![Message::text("user", task)];
  for (i, (t, text)) in [
    ("Bactris", "a genus of spiny palms"),
    ("Epigaea", "a genus of shrubs"),
  ]
  .iter()
  .enumerate()
  {
    let page = format!("https://en.wikipedia.org/wiki/{t}");
    let result = format!("{page}\n\n# {t}\n\n{t} is {text}.");
    messages.extend(tool_round(
      &format!("f{i}"),
      "web_fetch",
      format!("{{\"url\":\"{page}\"}}"),
      &result,
    ));
  }
  let s = segment_scores(&messages, task);
  let score = |needle: &str| s.iter().find(|x| x.0.starts_with(needle)).unwrap().1;
  assert!(score("https://") <= score("→ web_fetch"), "{s:?}");
}

/// A report's paragraphs cite their sources (`[2]`) and list them at the end: a paragraph
/// is named by the source it cites, the list scores nothing of its own, and a kept
/// citation brings its source along.
#[test]
fn a_cited_paragraph_is_named_by_its_source_which_comes_along() {
  let text = "The film opened in 1994 and won two Academy Awards. [1]\n\n\
It was shot in black and white in Los Angeles. [2]\n\n\
He studied at the California Institute of the Arts. [3]\n\n\
References:\n[1] Ed Wood (film). https://en.wikipedia.org/wiki/Ed_Wood_(film)\n\
[2] Glen or Glenda. https://en.wikipedia.org/wiki/Glen_or_Glenda\n\
[3] Tim Burton. https://en.wikipedia.org/wiki/Tim_Burton";
  let e = extract_text(
    text,
    "Which awards did Ed Wood win?",
    &Options {
      max_tokens: Some(40),
      ..Options::default()
    },
    &Cancel::new(),
  )
  .unwrap();
  assert!(e.text.contains("won two Academy Awards. [1]"), "{}", e.text);
  assert!(e.text.contains("[1] Ed Wood (film)."), "{}", e.text);
  assert!(
    !e.text.contains("Glen or Glenda") && !e.text.contains("Tim Burton"),
    "{}",
    e.text
  );
}

/// A message that pastes an article under its title (`Terry Kath` over the text) is one
/// document: the title the task names carries its text, which outranks other articles'
/// sentences that only mention the name.
#[test]
fn a_pasted_article_s_title_carries_its_text() {
  let paste = |title: &str, text: &str| Message::text("user", &format!("{title}\n\n{text}"));
  let messages = vec![
    Message::text("user", "I will paste a few articles, then ask a question."),
    paste(
      "Chicago 13",
      "Chicago 13 is an album by the band Chicago. It was the first album without guitarist Terry Kath, who died in January 1978.",
    ),
    paste(
      "Free (Chicago song)",
      "\"Free\" is a song by Chicago, with Terry Kath singing lead vocals. Terry Kath also played the guitar solo.",
    ),
    paste(
      "Terry Kath",
      "Terry Alan Kath (January 31, 1946 – January 23, 1978) was an American musician. He was a founding member of Chicago.",
    ),
    paste(
      "David Draiman",
      "David Michael Draiman (born March 13, 1973) is an American singer. He fronts the band Disturbed.",
    ),
    paste(
      "Device (metal band)",
      "Device was a metal band started by David Draiman. David Draiman sang on its only album.",
    ),
    Message::text("user", "Who was born first, David Draiman or Terry Kath?"),
  ];
  let options = Options {
    max_tokens: Some(70),
    ..Options::default()
  };
  let e = extract_messages(
    &messages,
    "Who was born first, David Draiman or Terry Kath?",
    &options,
    &Cancel::new(),
  )
  .unwrap();
  assert!(e.text.contains("January 31, 1946"), "{}", e.text);
  assert!(e.text.contains("March 13, 1973"), "{}", e.text);
}

/// A framework that writes its tool responses as text (smolagents' `tool-response`: `Call
/// id: …` over `Observation:` over the output): each response is titled by its output's
/// lead, as a paragraph is, and the film's names its director's.
#[test]
fn a_response_under_an_id_label_is_titled_by_its_output() {
  let response =
    |id: &str, text: &str| Message::text("tool-response", &format!("Call id: {id}\nObservation:\n{text}"));
  let thread = vec![
    Message::text("user", "Where did the director of the film Ed Wood grow up?"),
    response("call_0", "Ed Wood is a 1994 film directed by Tim Burton."),
    response(
      "call_1",
      "Tim Burton is an American animator. His childhood home was Burbank, California.",
    ),
    response(
      "call_2",
      "Bela Lugosi starred in films by Ed Wood, who directed him in the film until he died.",
    ),
    response(
      "call_3",
      "The Glen or Glenda film was directed by Ed Wood in 1953, a film about a director.",
    ),
  ];
  let options = Options {
    max_tokens: Some(70),
    ..Options::default()
  };
  let r = extract_messages(
    &thread,
    "Where did the director of the film Ed Wood grow up?",
    &options,
    &Cancel::new(),
  )
  .unwrap();
  assert!(r.text.contains("home was Burbank"), "{}", r.text);
}

#[test]
fn a_subsection_is_named_by_the_headings_over_it() {
  // The section the task names holds its text under a sub-heading of its own; another
  // overview says the task's other words. (One that named Tim Burton would pair with it,
  // both lifted alike, and the budget holds one section.)
  let doc = "## Ed Wood\n\n### Overview\n\nEd Wood is a 1994 film about a director who grew up in the city of Poughkeepsie.\n\n\
             ## Tim Burton\n\n### Early life\n\nHe grew up in the city of Burbank, California, where he made his first short films.\n\n\
             ## Glen or Glenda\n\n### Overview\n\nGlen or Glenda is a 1953 film by Ed Wood, set in a city.";
  let options = Options {
    max_tokens: Some(25),
    ..Options::default()
  };
  let r = extract_text(
    doc,
    "Which city did Tim Burton grow up in?",
    &options,
    &Cancel::new(),
  )
  .unwrap();
  assert!(r.text.contains("city of Burbank"), "{}", r.text);
}

/// A notebook's code cell is headed by its source, as a tool result by its call: the task
/// names the page the cell prints, and its output, which never says the name, is kept
/// before the cells whose text mentions it.
#[test]
fn a_notebook_cell_s_source_names_its_output() {
  let cells = [
    (
      "Tim Burton",
      "He made a film about Ed Wood in 1994. He directed many other films since.",
    ),
    (
      "Ed Wood",
      "He grew up in Poughkeepsie, New York. He directed low-budget films for decades.",
    ),
    (
      "Bela Lugosi",
      "He acted for Ed Wood late in his life. He played Dracula on stage and screen.",
    ),
    (
      "Johnny Depp",
      "He played Ed Wood in the 1994 film. He is an actor from Kentucky.",
    ),
  ];
  let cell = |(title, text): &(&str, &str)| {
    format!(
      "  {{\n   \"cell_type\": \"code\",\n   \"source\": [\n    \"print(wiki.summary(\\\"{title}\\\"))\"\n   ],\n   \"outputs\": [\n    {{\n     \"name\": \"stdout\",\n     \"output_type\": \"stream\",\n     \"text\": [\n      \"{text}\\n\"\n     ]\n    }}\n   ]\n  }}"
    )
  };
  let notebook = format!(
    "{{\n \"cells\": [\n{}\n ],\n \"nbformat\": 4\n}}",
    cells.iter().map(cell).collect::<Vec<_>>().join(",\n")
  );
  let options = Options {
    max_tokens: Some(count_tokens(&notebook, Encoding::O200kBase) / 2),
    ..Options::default()
  };
  let e = extract_text(&notebook, "Where was Ed Wood born?", &options, &Cancel::new()).unwrap();
  assert!(e.text.contains("He grew up in Poughkeepsie"), "{}", e.text);
}

/// A heading that costs more than the text it comes with (a search hit's envelope: its
/// id and address before the title) takes no relevant text's place: it waits until
/// every candidate has been offered, and comes then where it fits.
#[test]
fn a_heading_dearer_than_its_text_takes_no_relevant_text_s_place() {
  let hits = [
    (
      "Ed Wood",
      "Ed Wood was born in Poughkeepsie in 1924. He directed Plan 9 from Outer Space.",
    ),
    (
      "Tim Burton",
      "Tim Burton was born in Burbank in 1958. He directed Ed Wood in 1994.",
    ),
    (
      "Weather",
      "It rained all week in the office town. The coffee machine broke again.",
    ),
    (
      "Lunch",
      "The canteen served soup on Monday. Nobody liked the soup.",
    ),
  ];
  let hit = |(i, (title, text)): (usize, &(&str, &str))| {
    let slug = title.to_lowercase().replace(' ', "-");
    format!(
      " {{\n  \"id\": \"doc-00000{i}\",\n  \"url\": \"https://example.org/articles/2024/03/0{i}/{slug}-biography-and-filmography\",\n  \"title\": \"{title}\",\n  \"text\": \"{text}\"\n }}"
    )
  };
  let results = format!(
    "[\n{}\n]",
    hits.iter().enumerate().map(hit).collect::<Vec<_>>().join(",\n")
  );
  let task = "Where were Ed Wood and Tim Burton born?";
  let run = |max: usize| {
    let options = Options {
      max_tokens: Some(max),
      ..Options::default()
    };
    extract_text(&results, task, &options, &Cancel::new())
      .unwrap()
      .text
  };
  let tight = run(90);
  assert!(
    tight.contains("born in Poughkeepsie") && tight.contains("born in Burbank"),
    "{tight}"
  );
  let roomy = run(130);
  assert!(
    roomy.contains("born in Burbank") && roomy.contains("\"title\": \"Tim Burton\""),
    "{roomy}"
  );
}

const ROMANS: &str = "## Romans (2013 film)\n\nRomans is a 2013 Malayalam comedy film directed by Boban Samuel.\n\nThe film stars Kunchacko Boban, Biju Menon and Niveda Thomas in the lead roles.\n\n## Anushka Shetty\n\nAnushka Shetty is a Tamil and Telugu actress who has starred in many films.\n\n## Niveda Thomas\n\nNivetha Thomas is an Indian actress who appears in films.\n\nShe works mainly in Tamil and Telugu films, and began as a child artist.\n\n## Poornima (Telugu actress)\n\nPoornima is a Telugu and Tamil actress of the 1980s.\n\n## Asin\n\nAsin is an actress who has worked in Tamil, Telugu and Hindi films.";

/// Paragraphs under their heading that name nothing of their own are its document's: the
/// heading names them, so that the film that names its actress leads to what is written
/// of her ("She works mainly in Tamil and Telugu films"), however her article spells her
/// name.
#[test]
fn a_heading_names_the_paragraphs_of_its_document() {
  let kept = extract_within(ROMANS, "Romans stars which Tamil and Telugu actress?", 80);
  assert!(kept.contains("Niveda Thomas in the lead roles"), "{kept}");
  assert!(
    kept.contains("She works mainly in Tamil and Telugu films"),
    "{kept}"
  );
}

/// What `extract_text` keeps of `text` for `task` within `max_tokens`.
fn extract_within(text: &str, task: &str, max_tokens: usize) -> String {
  let options = Options {
    max_tokens: Some(max_tokens),
    ..Options::default()
  };
  extract_text(text, task, &options, &Cancel::new()).unwrap().text
}

const SONDHEIM: &str = "## Six by Sondheim\n\nSix by Sondheim is a 2013 documentary film about the songwriter Stephen Sondheim.\n\nThe film was directed and co-produced by James Lapine, who staged several of his musicals.\n\n## James Lapine\n\nJames Lapine is an American stage director and playwright of musical theatre.\n\nHe won the Tony Award for Best Book of a Musical three times, for Into the Woods, Falsettos and Passion.\n\n## Tony Award\n\nThe Tony Award recognizes excellence in Broadway theatre and is presented each June.\n\nWinners receive a medallion designed by Herman Rosse.\n\n## Stephen Sondheim\n\nStephen Sondheim was an American composer and lyricist of musical theatre.\n\nHe received eight Tony Awards, more than any other composer.";

/// A document of several paragraphs under its heading is read as one document is: the
/// paragraph that goes on with it ("He won the Tony Award…" under `## James Lapine`) keeps
/// its heading's name, and the link from the film that names him reaches it.
#[test]
fn a_paragraph_that_names_nothing_goes_on_with_its_document() {
  let task = "How many Tony Awards did the director of Six by Sondheim win?";
  let kept = extract_within(SONDHEIM, task, 100);
  assert!(
    kept.contains("directed and co-produced by James Lapine"),
    "{kept}"
  );
  assert!(kept.contains("He won the Tony Award for Best Book"), "{kept}");
  assert!(!kept.contains("eight Tony Awards"), "{kept}");
}
