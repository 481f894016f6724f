//! Exact token counting for tiktoken's `o200k_base` and `cl100k_base`, and a fast estimate.
//!
//! A count equals `CoreBPE::encode_ordinary(text).len()` of tiktoken for every input:
//! the split regex is reproduced by hand (`pretokenize`), the vocabulary is
//! tiktoken's own (`vocab`), and merging follows tiktoken's order (`bpe`). Special
//! tokens such as `<|endoftext|>` are counted as the plain text they are.

mod bpe;
mod classes;
pub mod pretokenize;
mod vocab;

use rustc_hash::FxHashMap;

use crate::core::cancel::{Cancel, Cancelled};
use pretokenize::{pieces, separable, Pattern};
pub use vocab::Vocab;

/// A tokenizer choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
  /// GPT-4o, GPT-4.1, GPT-5, o-series.
  #[default]
  O200kBase,
  /// GPT-4, GPT-3.5-turbo, text-embedding-3.
  Cl100kBase,
  /// `ceil(chars / 4)`, counting Unicode code points: no vocabulary needed.
  Estimate,
}

impl Encoding {
  pub const ALL: [Encoding; 3] = [Self::O200kBase, Self::Cl100kBase, Self::Estimate];
  pub const NAMES: [&'static str; 3] = ["o200k_base", "cl100k_base", "estimate"];

  pub fn name(self) -> &'static str {
    Self::NAMES[self as usize]
  }

  fn bpe(self) -> Option<(Pattern, &'static Vocab)> {
    match self {
      Self::O200kBase => Some((Pattern::O200k, vocab::o200k_base())),
      Self::Cl100kBase => Some((Pattern::Cl100k, vocab::cl100k_base())),
      Self::Estimate => None,
    }
  }
}

/// How often (in bytes of input) a long count checks for cancellation.
const CANCEL_CHECK_BYTES: usize = 1 << 20;

/// Bound on the distinct parts whose counts `count_repetitive` keeps.
const REPEATED_PARTS: usize = 1 << 18;

/// Bound on the bytes of pieces whose merged counts are kept, so counting a huge
/// text with few repeats keeps memory flat.
const MERGED_CACHE_BYTES: usize = 8 << 20;

/// Counts tokens for one encoding. Most pieces are single tokens (one lookup); those
/// that need merging recur (identifiers, indentation, and long runs of `=` or `-`,
/// whose merging is the costliest work in agent transcripts), so their counts are
/// kept in a map bounded in bytes. Reuse one counter across the texts of one job.
pub struct Counter {
  encoding: Encoding,
  bpe: Option<(Pattern, &'static Vocab)>,
  merged: FxHashMap<Box<[u8]>, u32>,
  merged_bytes: usize,
}

impl Counter {
  pub fn new(encoding: Encoding) -> Self {
    Self {
      encoding,
      bpe: encoding.bpe(),
      merged: FxHashMap::default(),
      merged_bytes: 0,
    }
  }

  pub fn encoding(&self) -> Encoding {
    self.encoding
  }

  /// Number of tokens in `text`.
  pub fn count(&mut self, text: &str) -> usize {
    match self.bpe {
      None => estimate(text),
      Some((pattern, vocab)) => pieces(text, pattern)
        .map(|p| self.piece(p.as_bytes(), vocab))
        .sum(),
    }
  }

  /// `count`, stopping early with `Cancelled` once `cancel` is set.
  pub fn count_cancellable(&mut self, text: &str, cancel: &Cancel) -> Result<usize, Cancelled> {
    let Some((pattern, vocab)) = self.bpe else {
      return Ok(estimate(text));
    };
    let mut total = 0;
    let mut since_check = 0;
    for piece in pieces(text, pattern) {
      total += if piece.len() >= CANCEL_CHECK_BYTES {
        // One giant word: merged under the signal too (it is never cached anyway).
        bpe::count_or_stop(piece.as_bytes(), vocab, &|| cancel.is_cancelled()).ok_or(Cancelled)?
      } else {
        self.piece(piece.as_bytes(), vocab)
      };
      since_check += piece.len();
      if since_check >= CANCEL_CHECK_BYTES {
        since_check = 0;
        cancel.check()?;
      }
    }
    Ok(total)
  }

  /// Whether `left + right` counts as `left` and `right` apart (`pretokenize::separable`;
  /// never for the estimate, which rounds).
  pub fn separable(&self, left: &str, right: &str) -> bool {
    self.bpe.is_some() && separable(left, right)
  }

  /// `count_cancellable` for text that repeats itself, as agent transcripts do (the same
  /// test output after every attempt, the same file read again): the text is cut at the
  /// line starts where its pieces split (`separable`), and each distinct part is counted
  /// once.
  pub fn count_repetitive(&mut self, text: &str, cancel: &Cancel) -> Result<usize, Cancelled> {
    if self.bpe.is_none() {
      return Ok(estimate(text));
    }
    let mut seen: FxHashMap<&str, usize> = FxHashMap::default();
    let mut total = 0;
    let mut since_check = 0;
    let mut start = 0;
    for line_break in memchr::memchr_iter(b'\n', text.as_bytes()) {
      let end = line_break + 1;
      if end < text.len() && separable(&text[start..end], &text[end..]) {
        total += self.count_part(&text[start..end], &mut seen, cancel)?;
        since_check += end - start;
        if since_check >= CANCEL_CHECK_BYTES {
          since_check = 0;
          cancel.check()?;
        }
        start = end;
      }
    }
    Ok(total + self.count_part(&text[start..], &mut seen, cancel)?)
  }

  /// One part of `count_repetitive`, counted unless it was before.
  fn count_part<'t>(
    &mut self,
    part: &'t str,
    seen: &mut FxHashMap<&'t str, usize>,
    cancel: &Cancel,
  ) -> Result<usize, Cancelled> {
    if let Some(&n) = seen.get(part) {
      return Ok(n);
    }
    let n = self.count_cancellable(part, cancel)?;
    if seen.len() >= REPEATED_PARTS {
      seen.clear();
    }
    seen.insert(part, n);
    Ok(n)
  }

  fn piece(&mut self, piece: &[u8], vocab: &Vocab) -> usize {
    if piece.len() <= 1 || vocab.contains(piece) {
      return usize::from(!piece.is_empty());
    }
    if let Some(&n) = self.merged.get(piece) {
      return n as usize;
    }
    let n = bpe::count(piece, vocab);
    if self.merged_bytes + piece.len() > MERGED_CACHE_BYTES {
      self.merged.clear();
      self.merged_bytes = 0;
    }
    if piece.len() <= MERGED_CACHE_BYTES / 16 {
      self.merged_bytes += piece.len();
      self.merged.insert(piece.into(), n as u32);
    }
    n
  }
}

/// Number of tokens in `text`.
pub fn count_tokens(text: &str, encoding: Encoding) -> usize {
  Counter::new(encoding).count(text)
}

/// `ceil(code points / 4)`.
fn estimate(text: &str) -> usize {
  // Code points are the bytes that are not UTF-8 continuation bytes.
  let chars = text.bytes().filter(|&b| (b as i8) >= -0x40).count();
  chars.div_ceil(4)
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn each_encoding_has_its_own_name() {
    assert_eq!(
      Encoding::ALL.map(Encoding::name),
      ["o200k_base", "cl100k_base", "estimate"]
    );
  }

  #[test]
  fn a_giant_word_is_counted_the_same_and_stops_when_cancelled() {
    let word = "ab".repeat(CANCEL_CHECK_BYTES);
    let mut counter = Counter::new(Encoding::O200kBase);
    let expected = counter.count(&word);
    assert_eq!(counter.count_cancellable(&word, &Cancel::new()), Ok(expected));
    let cancel = Cancel::new();
    cancel.cancel();
    assert_eq!(counter.count_cancellable(&word, &cancel), Err(Cancelled));
  }
}
