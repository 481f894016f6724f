//! `cargo bench --no-default-features --bench exactness`: token counts against
//! tiktoken-rs on the whole text of ../shared/data/swe-openhands.jsonl.gz (every
//! message content and tool-call argument) and on the tricky set of the tests, for
//! both encodings, plus single-thread throughput of the core and of tiktoken-rs on
//! the same text. Prints one JSON line for bench/run.mjs.

use std::io::{BufRead, BufReader};
use std::time::Instant;

use subagent_context::core::tokens::{count_tokens, Encoding};

const DATA: &str = "../shared/data/swe-openhands.jsonl.gz";

fn texts() -> Vec<String> {
  let file = std::fs::File::open(DATA).unwrap_or_else(|e| {
    eprintln!("exactness: cannot open {DATA} ({e}); the benchmark data lives in ../shared/data");
    std::process::exit(2);
  });
  let mut out = Vec::new();
  for line in BufReader::new(flate2::read::GzDecoder::new(file)).lines() {
    let record: serde_json::Value = serde_json::from_str(&line.expect("readable line")).expect("JSON line");
    for m in record["messages"].as_array().into_iter().flatten() {
      if let Some(c) = m["content"].as_str() {
        out.push(c.to_owned());
      }
      for call in m["tool_calls"].as_array().into_iter().flatten() {
        if let Some(a) = call["function"]["arguments"].as_str() {
          out.push(a.to_owned());
        }
      }
    }
  }
  out
}

fn median(mut v: Vec<f64>) -> f64 {
  v.sort_by(|a, b| a.partial_cmp(b).unwrap());
  v[v.len() / 2]
}

fn main() {
  let tricky: Vec<String> =
    serde_json::from_str(include_str!("../tests/data/tricky-texts.json")).expect("tricky texts parse");
  let texts = texts();
  let bytes: usize = texts.iter().map(|t| t.len()).sum();
  let joined = texts.concat();
  let mut report = vec![format!("\"texts\":{}", texts.len()), format!("\"bytes\":{bytes}")];
  for (encoding, oracle) in [
    (Encoding::O200kBase, tiktoken_rs::o200k_base_singleton()),
    (Encoding::Cl100kBase, tiktoken_rs::cl100k_base_singleton()),
  ] {
    let name = encoding.name();
    let mismatches: Vec<usize> = (0..texts.len())
      .filter(|&i| count_tokens(&texts[i], encoding) != oracle.encode_ordinary(&texts[i]).len())
      .collect();
    let tricky_mismatches = tricky
      .iter()
      .filter(|t| count_tokens(t, encoding) != oracle.encode_ordinary(t).len())
      .count();
    if let Some(&i) = mismatches.first() {
      eprintln!(
        "{name}: first mismatch on text {i}: {:?}",
        &texts[i].chars().take(200).collect::<String>()
      );
    }
    let time = |f: &dyn Fn() -> usize| -> (usize, f64) {
      let mut runs = Vec::new();
      let mut n = 0;
      for _ in 0..5 {
        let t = Instant::now();
        n = f();
        runs.push(t.elapsed().as_secs_f64());
      }
      (n, median(runs))
    };
    let (ours, ours_s) = time(&|| count_tokens(&joined, encoding));
    let (theirs, theirs_s) = time(&|| oracle.encode_ordinary(&joined).len());
    report.push(format!(
      "\"{name}\":{{\"mismatches\":{},\"trickyTexts\":{},\"trickyMismatches\":{tricky_mismatches},\"tokens\":{ours},\"oracleTokens\":{theirs},\"mbPerS\":{:.1},\"oracleMbPerS\":{:.1}}}",
      mismatches.len(),
      tricky.len(),
      bytes as f64 / ours_s / 1e6,
      bytes as f64 / theirs_s / 1e6,
    ));
  }
  println!("{{{}}}", report.join(","));
}
