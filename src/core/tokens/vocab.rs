//! The rank tables of the BPE vocabularies, embedded at build time (see build.rs).

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

/// Token bytes to rank, for one encoding.
pub struct Vocab {
  /// Tokens of up to `SHORT` bytes by `short_key`: most lookups are of short pieces
  /// (` the`, `ing`, a byte pair while merging), and a `u64` key is hashed and compared
  /// in a few instructions where a slice key costs a call to `memcmp`.
  short: FxHashMap<u64, u32>,
  long: FxHashMap<&'static [u8], u32>,
  /// The longest token: a longer slice is none, found without hashing it (merging a
  /// long run of spaces asks about many).
  max_len: usize,
}

/// The longest token kept in the `short` map.
const SHORT: usize = 7;

/// The bytes of a slice of at most `SHORT` bytes, and its length in the top byte, so
/// that no two slices share a key.
#[inline]
fn short_key(bytes: &[u8]) -> u64 {
  word(bytes) | ((bytes.len() as u64) << 56)
}

/// At most 7 bytes as a little-endian number, read as two overlapping words rather
/// than byte by byte.
#[inline]
pub(super) fn word(b: &[u8]) -> u64 {
  let n = b.len();
  debug_assert!(n < 8);
  if n >= 4 {
    let head = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
    let tail = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]) as u64;
    head | (tail << (8 * (n - 4)))
  } else if n >= 2 {
    let head = u16::from_le_bytes([b[0], b[1]]) as u64;
    let tail = u16::from_le_bytes([b[n - 2], b[n - 1]]) as u64;
    head | (tail << (8 * (n - 2)))
  } else if n == 1 {
    b[0] as u64
  } else {
    0
  }
}

impl Vocab {
  /// Reads a blob of `u16` little-endian lengths each followed by that many token
  /// bytes, in rank order; a zero length is a rank with no ordinary token.
  fn from_blob(blob: &'static [u8]) -> Self {
    let mut short = FxHashMap::with_capacity_and_hasher(blob.len() / 16, Default::default());
    let mut long = FxHashMap::with_capacity_and_hasher(blob.len() / 16, Default::default());
    let mut max_len = 0;
    let mut i = 0;
    let mut rank = 0u32;
    while i + 2 <= blob.len() {
      let len = u16::from_le_bytes([blob[i], blob[i + 1]]) as usize;
      i += 2;
      if len > 0 {
        let token = &blob[i..i + len];
        max_len = max_len.max(len);
        if len <= SHORT {
          short.insert(short_key(token), rank);
        } else {
          long.insert(token, rank);
        }
        i += len;
      }
      rank += 1;
    }
    Self { short, long, max_len }
  }

  #[inline]
  pub fn rank(&self, bytes: &[u8]) -> Option<u32> {
    if bytes.len() <= SHORT {
      self.short.get(&short_key(bytes)).copied()
    } else if bytes.len() <= self.max_len {
      self.long.get(bytes).copied()
    } else {
      None
    }
  }

  #[inline]
  pub fn contains(&self, bytes: &[u8]) -> bool {
    self.rank(bytes).is_some()
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
