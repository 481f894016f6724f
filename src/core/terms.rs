//! Terms: what a task is about, and the words of a text in the same normal form.
//!
//! Words follow Unicode rules (runs of letters, digits and `_`), are case-folded and
//! lightly stemmed (`directors` → `director`). Identifiers are indexed whole and by
//! their parts (`createUser` → `createuser`, `create`, `user`; `rate_limit.ts` →
//! `rate_limit.ts`, `rate`, `limit`, `ts`), so a task that says "user creation" finds
//! `createUser` and a task that names `createUser` finds it exactly. In a task, strong
//! terms weigh more: task ids (`A.9.1.3`), file paths, backticked names, quoted
//! phrases and identifiers.

use crate::core::segment::json_unescaped;
use rustc_hash::FxHashMap;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// Weight of an ordinary task word.
pub const WEIGHT_WORD: f32 = 1.0;
/// Weight of a strong term: task id, file path, backticked name, quoted phrase, identifier.
pub const WEIGHT_STRONG: f32 = 2.5;
/// Weight of a part of an identifier or path (`src`, `ts` of `src/api/users.ts`): weak evidence.
pub const WEIGHT_PART: f32 = 0.5;

/// The terms of a task, with weights, and the phrases that must match as a whole.
#[derive(Clone, Debug, Default)]
pub struct Terms {
  pub weights: FxHashMap<String, f32>,
  /// Phrases (quoted text, paths, ids), ASCII-case-folded, to find verbatim, with weights.
  pub phrases: Vec<(String, f32)>,
  /// The task itself, ASCII-case-folded: headings and titles it names are followed like links.
  pub text: String,
}

impl Terms {
  /// The terms of `task`.
  pub fn of_task(task: &str) -> Self {
    let mut terms = Terms {
      text: task.to_lowercase(),
      ..Terms::default()
    };
    for (phrase, strong) in strong_spans(task) {
      let folded = phrase.to_ascii_lowercase();
      if folded.chars().filter(|c| c.is_alphanumeric()).count() >= 2
        && !terms.phrases.iter().any(|p| p.0 == folded)
      {
        terms.phrases.push((folded, strong));
      }
    }
    for word in words(task) {
      // Stop words are judged before stemming ("during" is not "dur").
      if is_stop_word(&word.to_lowercase()) {
        continue;
      }
      let strong = is_identifier(word);
      for (k, term) in forms(word).into_iter().enumerate() {
        if is_stop_word(&term) || term.chars().count() < 2 {
          continue;
        }
        let weight = match (k, strong) {
          (0, true) => WEIGHT_STRONG,
          (0, false) => WEIGHT_WORD,
          (_, true) => WEIGHT_PART,
          (_, false) => WEIGHT_WORD,
        };
        let w = terms.weights.entry(term).or_insert(0.0);
        *w = w.max(weight);
      }
    }
    // Words inside strong spans (a path, a quoted phrase) weigh as strong terms too.
    for (phrase, _) in terms.phrases.clone() {
      for word in words(&phrase) {
        if let Some(w) = terms.weights.get_mut(&normalize(word)) {
          *w = w.max(WEIGHT_STRONG);
        }
      }
    }
    terms
  }
}

/// The words of `text`: maximal runs of alphanumeric characters and `_`, also joined
/// across `.`, `/`, `-` and `:` when both sides are word characters (`rate-limit.ts`,
/// `src/api`, `A.9.1`), so that identifiers and paths stay whole. A letter written as a
/// JSON escape is one of its word's (`Bl\u00e9riot`, as Python's `json.dumps` writes
/// `Blériot`); any other escaped character parts words (`Nerva\u2013Antonine`).
pub fn words(text: &str) -> impl Iterator<Item = &str> {
  let is_word = |c: char| c.is_alphanumeric() || c == '_';
  // Most texts hold no `\u` escape: their words are read without asking for one.
  let escapes = memchr::memmem::find(text.as_bytes(), b"\\u").is_some();
  let mut pos = 0;
  std::iter::from_fn(move || {
    let start = loop {
      let (off, _) = text[pos..].char_indices().find(|&(_, c)| is_word(c))?;
      let start = pos + off;
      // A word found inside an escape (`u2013` of `\u2013`, `u00c9mile` of `\u00c9mile`):
      // an escaped letter opens it, any other escape is passed.
      match escapes.then(|| escape_at(text, start.wrapping_sub(1))).flatten() {
        Some((e, _)) if is_word(e) => break start - 1,
        Some((_, n)) => pos = start - 1 + n,
        None => break start,
      }
    };
    let mut end = start;
    let mut chars = text[start..].char_indices().peekable();
    while let Some((o, c)) = chars.next() {
      if is_word(c) {
        end = start + o + c.len_utf8();
        continue;
      }
      if escapes && c == '\\' {
        if let Some((_, n)) = escape_at(text, start + o).filter(|&(e, _)| is_word(e)) {
          // An escaped letter goes on the word; its other bytes are passed as characters.
          end = start + o + n;
          for _ in 1..n {
            chars.next();
          }
          continue;
        }
      }
      // A joiner continues the word only when a word character follows it.
      let joins = match (c, chars.peek()) {
        ('\'', Some(&(_, n))) => n.is_alphabetic(),
        ('.' | '/' | '-' | ':', Some(&(_, n))) => is_word(n),
        _ => false,
      };
      if !joins {
        break;
      }
    }
    pos = end;
    Some(&text[start..end])
  })
}

/// The JSON escape of one character at `text[at..]` (`\u00e9`): the character and the
/// escape's length. A surrogate's half stands for no character of its own: U+FFFD.
fn escape_at(text: &str, at: usize) -> Option<(char, usize)> {
  let b = text.as_bytes();
  if b.get(at) != Some(&b'\\') || b.get(at + 1) != Some(&b'u') {
    return None;
  }
  let hex = text
    .get(at + 2..at + 6)
    .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))?;
  let code = u32::from_str_radix(hex, 16).ok()?;
  Some((char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER), 6))
}

/// Whether a word is an identifier or a path rather than plain prose.
pub fn is_identifier(word: &str) -> bool {
  // Versions, times and numbers ("3.6.8", "11:03:33") are not names.
  if !word.chars().any(char::is_alphabetic) {
    return false;
  }
  let mut chars = word.chars();
  let first_upper = chars.next().is_some_and(|c| c.is_uppercase());
  let inner_upper = word.chars().skip(1).any(|c| c.is_uppercase()) && word.chars().any(|c| c.is_lowercase());
  word.contains(['_', '/', '.', ':'])
    || (inner_upper && !(first_upper && word.chars().skip(1).all(|c| !c.is_uppercase())))
}

/// The normal forms a word is indexed and searched under: the whole word, and its
/// parts when it is an identifier or a path.
pub fn forms(word: &str) -> Vec<String> {
  let whole = normalize(word);
  let mut out = vec![whole.clone()];
  let parts = split_identifier(word);
  if parts.len() > 1 {
    for p in parts {
      let p = normalize(p);
      if !out.contains(&p) {
        out.push(p);
      }
    }
  }
  // "don't" also as "don"; possessives ("Arthur's") as the name.
  if let Some(stem) = whole.strip_suffix("'s") {
    out.push(stem.to_owned());
  }
  out
}

/// Calls `f` with every normal form of `word`, as `forms` gives them, without
/// allocating (`buf` is reused): indexing a million-token thread meets some 700,000
/// words, many of them identifiers and paths.
pub fn for_each_form(word: &str, buf: &mut String, mut f: impl FnMut(&str)) {
  buf.clear();
  push_normalized(buf, word);
  f(buf);
  let whole = buf.len();
  // The parts of an identifier or path, each once and unlike the whole.
  for_each_part(word, |part| {
    let from = buf.len();
    push_normalized(buf, part);
    let new = &buf[from..];
    if new == &buf[..whole] || buf[whole..from].split('\0').any(|p| p == new) {
      buf.truncate(from);
    } else {
      f(&buf[from..]);
      buf.push('\0');
    }
  });
  if buf[..whole].ends_with("'s") {
    let stem = buf[..whole - 2].to_owned();
    f(&stem);
  }
}

/// Appends `normalize(word)` to `buf`.
fn push_normalized(buf: &mut String, word: &str) {
  let from = buf.len();
  if word.is_ascii() && !word.contains('\\') {
    buf.push_str(word);
    buf[from..].make_ascii_lowercase();
  } else {
    // Letters written as JSON escapes (`words`) are read as the letters they are.
    push_folded(buf, &json_unescaped(word));
  }
  stem(buf, from);
}

/// Appends `text` lower-cased and without its diacritics ("Márquez" as "marquez",
/// "Julián" as "julian"): a task is often typed without the accents its sources spell
/// (as search engines fold them: Lucene's ASCII folding, Unicode's NFD less its marks).
/// Dashes and curly apostrophes are typed as `-` and `'` ("Nerva-Antonine" names
/// "Nerva–Antonine dynasty").
pub fn push_folded(buf: &mut String, text: &str) {
  buf.extend(
    text
      .chars()
      .flat_map(char::to_lowercase)
      .nfd()
      .filter(|&c| !is_combining_mark(c))
      .map(|c| match c {
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        '\u{2018}' | '\u{2019}' => '\'',
        c => c,
      }),
  );
}

/// Case-folds and lightly stems (see `stem`).
pub fn normalize(word: &str) -> String {
  let mut out = String::with_capacity(word.len());
  push_normalized(&mut out, word);
  out
}

/// Light English stemming of the lower-cased word at `buf[from..]`, for plain words of
/// letters only (identifiers, numbers and short words stay as they are): plurals
/// (`directors` → `director`, `cities` → `city`), then `-ing` and `-ed` (`returning`,
/// `returned` → `return`; `stopped` → `stop`), then the final `e` of longer words
/// (`created`, `create` → `creat`), so that a question's "returning coach" finds
/// "returned as coaches".
fn stem(buf: &mut String, from: usize) {
  let word = &buf[from..];
  let chars = if word.is_ascii() {
    word.len()
  } else {
    word.chars().count()
  };
  if chars < 4 || !word.chars().all(char::is_alphabetic) {
    return;
  }
  if chars > 4 {
    if word.ends_with("ies") {
      buf.truncate(buf.len() - 3);
      buf.push('y');
    } else if word.ends_with("sses") {
      buf.truncate(buf.len() - 2);
    } else if word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") && !word.ends_with("is") {
      buf.pop();
    }
    for suffix in ["ing", "ed"] {
      let word = &buf[from..];
      if let Some(stem) = word.strip_suffix(suffix) {
        // The stem keeps three letters and a vowel: "sing", "red", "bed" stay whole.
        if stem.len() >= 3 && stem.contains(['a', 'e', 'i', 'o', 'u', 'y']) {
          let b = stem.as_bytes();
          let n = b.len();
          let double =
            n >= 2 && b[n - 1] == b[n - 2] && !matches!(b[n - 1], b'l' | b's' | b'z' | b'e' | b'o');
          let keep = n - usize::from(double);
          buf.truncate(from + keep);
          break;
        }
      }
    }
  }
  // A final e goes from longer words only: "rate" and "note" stay whole.
  if buf.len() - from >= 5 && buf.ends_with('e') && !buf.ends_with("ee") {
    buf.pop();
  }
}

/// `createUserId` → create, User, Id; `rate_limit.ts` → rate, limit, ts; `HTTPServer` → HTTP, Server.
/// A plain word is its own single part.
fn for_each_part<'w>(word: &'w str, mut f: impl FnMut(&'w str)) {
  for chunk in word
    .split(|c: char| !c.is_alphanumeric())
    .filter(|s| !s.is_empty())
  {
    let mut start = 0;
    let mut chars = chunk.char_indices().peekable();
    let mut prev: Option<char> = None;
    while let Some((i, c)) = chars.next() {
      if let Some(p) = prev {
        let next_lower = chars.peek().is_some_and(|&(_, n)| n.is_lowercase());
        let boundary = (c.is_uppercase() && (p.is_lowercase() || p.is_numeric()))
          || (c.is_uppercase() && p.is_uppercase() && next_lower)
          || (c.is_numeric() != p.is_numeric() && c.is_alphanumeric() && p.is_alphanumeric());
        if boundary {
          f(&chunk[start..i]);
          start = i;
        }
      }
      prev = Some(c);
    }
    f(&chunk[start..]);
  }
}

fn split_identifier(word: &str) -> Vec<&str> {
  let mut parts = Vec::new();
  for_each_part(word, |p| parts.push(p));
  parts
}

/// Strong spans of a task: backticked text, quoted phrases, paths and task ids.
fn strong_spans(task: &str) -> Vec<(String, f32)> {
  let mut spans = Vec::new();
  for (open, close) in [('`', '`'), ('"', '"'), ('“', '”')] {
    let mut rest = task;
    while let Some(a) = rest.find(open) {
      let after = &rest[a + open.len_utf8()..];
      let Some(b) = after.find(close) else { break };
      let inner = after[..b].trim();
      if !inner.is_empty() && inner.len() <= 200 {
        spans.push((inner.to_owned(), WEIGHT_STRONG));
      }
      rest = &after[b + close.len_utf8()..];
    }
  }
  for word in words(task) {
    let is_task_id = word.contains('.')
      && word.chars().any(char::is_alphabetic)
      && word.split('.').count() >= 2
      && word
        .split('.')
        .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric()))
      && word.chars().any(|c| c.is_ascii_digit());
    let is_path = word.contains('/')
      || (word.contains('.')
        && word
          .rsplit('.')
          .next()
          .is_some_and(|ext| (1..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_lowercase()))
        && word.chars().next().is_some_and(|c| c.is_alphabetic()));
    if is_task_id || is_path || is_identifier(word) {
      spans.push((word.to_owned(), WEIGHT_STRONG));
    }
  }
  spans
}

/// English function words and question words: they say nothing about the topic.
pub fn is_stop_word(term: &str) -> bool {
  STOP_WORDS.binary_search(&term).is_ok()
}

/// Sorted, for binary search.
const STOP_WORDS: &[&str] = &[
  "a",
  "about",
  "above",
  "after",
  "again",
  "against",
  "all",
  "also",
  "although",
  "am",
  "among",
  "an",
  "and",
  "any",
  "are",
  "as",
  "at",
  "be",
  "because",
  "been",
  "before",
  "being",
  "below",
  "between",
  "both",
  "but",
  "by",
  "can",
  "could",
  "despite",
  "did",
  "do",
  "does",
  "doing",
  "don",
  "down",
  "during",
  "each",
  "either",
  "else",
  "few",
  "first",
  "for",
  "from",
  "further",
  "had",
  "has",
  "have",
  "having",
  "he",
  "her",
  "here",
  "hers",
  "herself",
  "him",
  "himself",
  "his",
  "how",
  "i",
  "if",
  "in",
  "into",
  "is",
  "it",
  "its",
  "itself",
  "just",
  "let",
  "like",
  "may",
  "me",
  "might",
  "more",
  "most",
  "must",
  "my",
  "myself",
  "no",
  "nor",
  "not",
  "now",
  "of",
  "off",
  "on",
  "once",
  "one",
  "only",
  "or",
  "other",
  "our",
  "ours",
  "ourselves",
  "out",
  "over",
  "own",
  "please",
  "same",
  "she",
  "should",
  "since",
  "so",
  "some",
  "such",
  "than",
  "that",
  "the",
  "their",
  "theirs",
  "them",
  "themselves",
  "then",
  "there",
  "these",
  "they",
  "this",
  "those",
  "though",
  "through",
  "throughout",
  "to",
  "too",
  "under",
  "unless",
  "until",
  "up",
  "upon",
  "us",
  "very",
  "was",
  "we",
  "were",
  "what",
  "when",
  "where",
  "whereas",
  "which",
  "while",
  "who",
  "whom",
  "whose",
  "why",
  "will",
  "with",
  "within",
  "without",
  "would",
  "yes",
  "yet",
  "you",
  "your",
  "yours",
  "yourself",
  "yourselves",
];

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn stop_words_are_sorted() {
    assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
  }

  #[test]
  fn words_keep_identifiers_and_paths_whole() {
    let w: Vec<&str> = words("Fix `createUser` in src/api/users.ts (task A.9.1.3), don't panic.").collect();
    assert_eq!(
      w,
      [
        "Fix",
        "createUser",
        "in",
        "src/api/users.ts",
        "task",
        "A.9.1.3",
        "don't",
        "panic"
      ]
    );
  }

  /// JSON written in ASCII (`json.dumps`) holds the same words as the text it escapes.
  #[test]
  fn words_read_letters_written_as_json_escapes() {
    let w: Vec<&str> = words(r#"{"title":"Nerva\u2013Antonine dynasty","text":"Bl\u00e9riot \u00c9mile \ud83d\ude00 \u12 C:\\users"}"#).collect();
    assert_eq!(
      w,
      [
        "title",
        "Nerva",
        "Antonine",
        "dynasty",
        "text",
        r"Bl\u00e9riot",
        r"\u00c9mile",
        "u12",
        "C",
        "users"
      ]
    );
    assert_eq!(normalize(r"Bl\u00e9riot"), normalize("Blériot"));
    assert_eq!(normalize(r"\u00c9mile"), normalize("emile"));
  }

  #[test]
  fn the_fast_path_gives_the_same_forms() {
    let mut buf = String::new();
    for w in [
      "the",
      "Directors",
      "cities",
      "class",
      "1999",
      "createUserId",
      "rate_limit.ts",
      "Arthur's",
      "Returning",
      "stopped",
      "ÉCOLE",
      "x",
    ] {
      let mut fast = Vec::new();
      for_each_form(w, &mut buf, |f| fast.push(f.to_owned()));
      assert_eq!(fast, forms(w), "{w}");
    }
  }

  #[test]
  fn identifiers_are_indexed_whole_and_by_parts() {
    // Parts are stemmed like words: "created users" finds `createUser`.
    assert_eq!(forms("createUserId"), ["createuserid", "creat", "user", "id"]);
    assert_eq!(forms("rate_limit.ts"), ["rate_limit.ts", "rate", "limit", "ts"]);
    assert_eq!(forms("HTTPServer"), ["httpserver", "http", "server"]);
    assert_eq!(forms("Directors"), ["director"]);
  }

  #[test]
  fn task_terms_weigh_strong_terms_more_and_drop_stop_words() {
    let t = Terms::of_task(
      "Which magazine was started first: \"Arthur's Magazine\" or `First for Women` in src/a.ts?",
    );
    assert!(!t.weights.contains_key("which"));
    assert!(t.weights[&normalize("magazine")] >= WEIGHT_STRONG);
    assert_eq!(t.weights[&normalize("started")], WEIGHT_WORD);
    assert!(t.weights["src/a.ts"] >= WEIGHT_STRONG);
    assert!(t.phrases.iter().any(|p| p.0 == "first for women"));
    assert!(t.phrases.iter().any(|p| p.0 == "arthur's magazine"));
  }

  #[test]
  fn inflections_meet_at_one_stem() {
    for (a, b) in [
      ("returning", "returned"),
      ("coaches", "coach"),
      ("stopped", "stop"),
      ("fixed", "fix"),
      ("updated", "update"),
      ("created", "creating"),
    ] {
      assert_eq!(normalize(a), normalize(b), "{a} / {b}");
    }
    // Short words, names with digits and identifiers stay as they are.
    for w in [
      "sing", "bed", "red", "rate", "note", "string", "v2", "1990s", "is_used",
    ] {
      assert_eq!(normalize(w), w.to_lowercase(), "{w}");
    }
    assert_eq!(normalize("reading"), "read");
  }

  #[test]
  fn diacritics_fold_away() {
    for (a, b) in [
      ("Márquez", "marquez"),
      ("Julián", "julian"),
      ("Émile", "emile"),
      ("Øresund", "øresund"),
    ] {
      assert_eq!(normalize(a), normalize(b), "{a} / {b}");
    }
  }

  #[test]
  fn stop_words_are_judged_before_stemming() {
    let t = Terms::of_task("What happened during the war, and being there?");
    assert!(!t.weights.contains_key("dur"), "{:?}", t.weights);
    assert!(!t.weights.contains_key("be"), "{:?}", t.weights);
    assert!(t.weights.contains_key("happen"), "{:?}", t.weights);
  }
}
