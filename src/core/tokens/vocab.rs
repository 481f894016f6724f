//! The rank tables of the BPE vocabularies, embedded at build time (see build.rs).

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

/// Token bytes to rank, for one encoding.
pub struct Vocab {
  ranks: FxHashMap<&'static [u8], u32>,
}

impl Vocab {
  /// Reads a blob of `u16` little-endian lengths each followed by that many token
  /// bytes, in rank order; a zero length is a rank with no ordinary token.
  fn from_blob(blob: &'static [u8]) -> Self {
    let mut ranks = FxHashMap::with_capacity_and_hasher(blob.len() / 8, Default::default());
    let mut i = 0;
    let mut rank = 0u32;
    while i + 2 <= blob.len() {
      let len = u16::from_le_bytes([blob[i], blob[i + 1]]) as usize;
      i += 2;
      if len > 0 {
        ranks.insert(&blob[i..i + len], rank);
        i += len;
      }
      rank += 1;
    }
    Self { ranks }
  }

  #[inline]
  pub fn rank(&self, bytes: &[u8]) -> Option<u32> {
    self.ranks.get(bytes).copied()
  }

  #[inline]
  pub fn contains(&self, bytes: &[u8]) -> bool {
    self.ranks.contains_key(bytes)
  }
}

static O200K_BLOB: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.vocab"));
static CL100K_BLOB: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.vocab"));

/// The o200k_base vocabulary, built on first use and shared by all threads.
pub fn o200k_base() -> &'static Vocab {
  static VOCAB: OnceLock<Vocab> = OnceLock::new();
  VOCAB.get_or_init(|| Vocab::from_blob(O200K_BLOB))
}

/// The cl100k_base vocabulary, built on first use and shared by all threads.
pub fn cl100k_base() -> &'static Vocab {
  static VOCAB: OnceLock<Vocab> = OnceLock::new();
  VOCAB.get_or_init(|| Vocab::from_blob(CL100K_BLOB))
}
