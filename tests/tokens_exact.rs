//! Token counts and splits checked against tiktoken-rs, the oracle.

use std::sync::OnceLock;

use fancy_regex::Regex;
use proptest::prelude::*;
use subagent_context::core::cancel::Cancel;
use subagent_context::core::tokens::pretokenize::{pieces, separable, Pattern};
use subagent_context::core::tokens::{count_tokens, Counter, Encoding};

const CL100K_PATTERN: &str = r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s";

fn oracle(encoding: Encoding) -> &'static tiktoken_rs::CoreBPE {
  match encoding {
    Encoding::O200kBase => tiktoken_rs::o200k_base_singleton(),
    Encoding::Cl100kBase => tiktoken_rs::cl100k_base_singleton(),
    Encoding::Estimate => unreachable!(),
  }
}

fn regex(pattern: Pattern) -> &'static Regex {
  static CL100K: OnceLock<Regex> = OnceLock::new();
  static O200K: OnceLock<Regex> = OnceLock::new();
  match pattern {
    Pattern::Cl100k => CL100K.get_or_init(|| Regex::new(CL100K_PATTERN).unwrap()),
    Pattern::O200k => O200K.get_or_init(|| Regex::new(tiktoken_rs::O200K_BASE_PAT_STR).unwrap()),
  }
}

fn regex_pieces<'a>(re: &Regex, text: &'a str) -> Vec<&'a str> {
  re.find_iter(text).map(|m| m.unwrap().as_str()).collect()
}

/// Text chosen to hit every branch of both split patterns and the places where
/// JavaScript tokenizers go wrong (NEL, BOM); shared with the exactness benchmark.
fn tricky_texts() -> Vec<String> {
  serde_json::from_str(include_str!("data/tricky-texts.json"))
    .expect("tricky-texts.json is a JSON array of strings")
}

fn assert_same_split(text: &str) {
  for pattern in [Pattern::Cl100k, Pattern::O200k] {
    let expected = regex_pieces(regex(pattern), text);
    let actual: Vec<&str> = pieces(text, pattern).collect();
    assert_eq!(actual, expected, "{pattern:?} split of {text:?}");
  }
}

fn assert_same_count(text: &str) {
  for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
    let expected = oracle(encoding).encode_ordinary(text).len();
    assert_eq!(
      count_tokens(text, encoding),
      expected,
      "{encoding:?} count of {text:?}"
    );
  }
}

#[test]
fn tricky_texts_split_and_count_like_tiktoken() {
  for text in &tricky_texts() {
    assert_same_split(text);
    assert_same_count(text);
  }
}

#[test]
fn javascript_tokenizer_pitfalls_count_like_tiktoken() {
  assert_eq!(count_tokens("\u{0085}'eelo", Encoding::Cl100kBase), 4);
  assert_eq!(count_tokens("\u{FEFF}Hello", Encoding::Cl100kBase), 2);
}

#[test]
fn long_pieces_use_the_heap_merge_and_stay_exact() {
  let long = [
    " ".repeat(1000),
    "x".repeat(300),
    "ab".repeat(500),
    "=-".repeat(700),
    "🙂".repeat(200),
    "aGVsbG8gd29ybGQ".repeat(40),
    "\u{301}".repeat(150),
  ];
  for text in &long {
    assert_same_count(text);
  }
}

#[test]
fn estimate_is_ceil_of_code_points_over_four() {
  assert_eq!(count_tokens("", Encoding::Estimate), 0);
  assert_eq!(count_tokens("abcd", Encoding::Estimate), 1);
  assert_eq!(count_tokens("abcde", Encoding::Estimate), 2);
  assert_eq!(count_tokens("😀😀😀😀😀", Encoding::Estimate), 2);
}

/// An alphabet where every character class the patterns distinguish appears.
fn alphabet() -> Vec<char> {
  let mut a: Vec<char> = "aZkS'sStTmMdDlLvVrReE 0123456789!?.,;:/-_\\\"()[]{}<>|@#$%^&*+=~`\t\r\n"
    .chars()
    .collect();
  a.extend([
    '\u{85}', '\u{A0}', '\u{FEFF}', '\u{3000}', '\u{2028}', '\u{200B}', '\u{17F}', '\u{212A}', '\u{301}',
    '\u{300}', '\u{1C5}', '\u{2B0}', '中', 'é', 'É', 'ß', 'ǆ', 'Σ', 'ς', '٣', 'Ⅻ', '½', '😀', '🏽',
    '\u{200D}', 'א', 'ب', '\u{0}', '\u{7F}', 'ｱ', 'Ａ', 'ａ', '１',
  ]);
  a
}

proptest! {
  #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

  #[test]
  fn random_text_splits_and_counts_like_tiktoken(indices in proptest::collection::vec(0usize..1000, 0..60)) {
    let a = alphabet();
    let text: String = indices.iter().map(|&i| a[i % a.len()]).collect();
    assert_same_split(&text);
    assert_same_count(&text);
  }

  /// Where `separable` says so, the pieces of a text are those of its two halves.
  #[test]
  fn separable_halves_split_like_the_whole(
    left in proptest::collection::vec(0usize..1000, 0..30),
    seam in 0usize..8,
    right in proptest::collection::vec(0usize..1000, 0..30),
  ) {
    let a = alphabet();
    let ending = ["\n", "\r\n", " \n", "\n\n", ".\n", "/\n", "a\n", "'\n"][seam];
    let left: String = left.iter().map(|&i| a[i % a.len()]).chain(ending.chars()).collect();
    let right: String = right.iter().map(|&i| a[i % a.len()]).collect();
    if separable(&left, &right) {
      let text = format!("{left}{right}");
      for pattern in [Pattern::Cl100k, Pattern::O200k] {
        let re = regex(pattern);
        let apart: Vec<&str> = regex_pieces(re, &left).into_iter().chain(regex_pieces(re, &right)).collect();
        prop_assert_eq!(apart, regex_pieces(re, &text), "{:?} split of {:?}", pattern, text);
      }
    }
  }

  /// Text cut at its line starts and counted part by part, each distinct part once,
  /// counts as a whole.
  #[test]
  fn repetitive_text_counts_like_tiktoken(lines in proptest::collection::vec(proptest::collection::vec(0usize..1000, 0..12), 0..8), repeats in proptest::collection::vec(0usize..8, 0..16)) {
    let a = alphabet();
    let lines: Vec<String> = lines.iter().map(|l| l.iter().map(|&i| a[i % a.len()]).chain(['\n']).collect()).collect();
    let text: String = repeats.iter().filter_map(|&k| lines.get(k)).map(String::as_str).collect();
    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
      let counted = Counter::new(encoding).count_repetitive(&text, &Cancel::new());
      prop_assert_eq!(counted, Ok(oracle(encoding).encode_ordinary(&text).len()), "{:?} count of {:?}", encoding, text);
    }
  }

  #[test]
  fn arbitrary_unicode_counts_like_tiktoken(text in "\\PC{0,80}") {
    assert_same_split(&text);
    assert_same_count(&text);
  }
}
