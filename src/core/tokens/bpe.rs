//! Byte-pair merging, counting only: how many tokens one pre-tokenized piece becomes.
//!
//! The merge order is tiktoken's: repeatedly merge the adjacent pair whose
//! concatenation has the lowest rank, the leftmost first on ties, until no adjacent
//! pair is a token. Short pieces use a small array (cache-friendly, like tiktoken);
//! long ones (runs of spaces or symbols, base64 blobs) a heap, so hostile input
//! costs O(n log n) instead of O(n²).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::vocab::Vocab;

/// Above this length a piece is merged with the heap.
const SMALL: usize = 128;

/// Number of tokens `piece` (at least two bytes, not itself a token) encodes to.
pub fn count(piece: &[u8], vocab: &Vocab) -> usize {
  if piece.len() <= SMALL {
    count_small(piece, vocab)
  } else {
    count_large(piece, vocab, &|| false).unwrap_or(0)
  }
}

/// `count`, giving up (`None`) once `stop` says so; asked every [`STOP_CHECK`] merges.
/// A single word of many megabytes takes seconds to merge, and an aborted async
/// count must not hold its thread that long (__test__/hostile.spec.ts).
pub fn count_or_stop(piece: &[u8], vocab: &Vocab, stop: &dyn Fn() -> bool) -> Option<usize> {
  if piece.len() <= SMALL {
    Some(count_small(piece, vocab))
  } else {
    count_large(piece, vocab, stop)
  }
}

/// Merges between two questions to `stop`.
const STOP_CHECK: u32 = 1 << 16;

fn count_small(piece: &[u8], vocab: &Vocab) -> usize {
  // parts[k] = (start of part k, rank of part k merged with part k + 1).
  let mut parts = [(0u32, u32::MAX); SMALL + 1];
  let n = piece.len();
  for (i, part) in parts.iter_mut().enumerate().take(n - 1) {
    *part = (i as u32, vocab.rank(&piece[i..i + 2]).unwrap_or(u32::MAX));
  }
  parts[n - 1] = ((n - 1) as u32, u32::MAX);
  parts[n] = (n as u32, u32::MAX);
  let mut len = n + 1; // parts in use, the last one marking the end
  let pair_rank = |parts: &[(u32, u32)], len: usize, k: usize| -> u32 {
    if k + 2 < len {
      vocab
        .rank(&piece[parts[k].0 as usize..parts[k + 2].0 as usize])
        .unwrap_or(u32::MAX)
    } else {
      u32::MAX
    }
  };
  loop {
    let mut best = (u32::MAX, 0);
    for (k, &(_, rank)) in parts[..len - 1].iter().enumerate() {
      if rank < best.0 {
        best = (rank, k);
      }
    }
    if best.0 == u32::MAX {
      break;
    }
    let k = best.1;
    // Merge part k with part k + 1, then refresh the two pair ranks that changed.
    parts.copy_within(k + 2..len, k + 1);
    len -= 1;
    parts[k].1 = pair_rank(&parts, len, k);
    if k > 0 {
      parts[k - 1].1 = pair_rank(&parts, len, k - 1);
    }
  }
  len - 1
}

fn count_large(piece: &[u8], vocab: &Vocab, stop: &dyn Fn() -> bool) -> Option<usize> {
  // Offsets as u32 keep the bookkeeping at 13 bytes a byte of input (JS strings are
  // far below 4 GiB).
  let n = piece.len() as u32;
  // A doubly linked list of parts, identified by their start offset.
  let mut next: Vec<u32> = (1..=n).collect();
  let mut prev: Vec<u32> = (0..n).map(|i| i.wrapping_sub(1)).collect();
  let mut alive = vec![true; n as usize];
  // The current rank of the pair starting at each part, to skip stale heap entries.
  let mut pair = vec![u32::MAX; n as usize];
  // Entries are (rank, part) packed in one number, ordered as the pair would be: one
  // comparison instead of two.
  let entry = |rank: u32, i: u32| Reverse((rank as u64) << 32 | i as u64);
  let mut heap = BinaryHeap::with_capacity(piece.len());
  for i in 0..n - 1 {
    if let Some(rank) = vocab.rank(&piece[i as usize..i as usize + 2]) {
      pair[i as usize] = rank;
      heap.push(entry(rank, i));
    }
  }
  let mut parts = piece.len();
  let rank_at = |next: &[u32], i: u32| -> u32 {
    let j = next[i as usize];
    if j >= n {
      return u32::MAX;
    }
    vocab
      .rank(&piece[i as usize..next[j as usize] as usize])
      .unwrap_or(u32::MAX)
  };
  let mut until_check = STOP_CHECK;
  while let Some(Reverse(top)) = heap.pop() {
    let (rank, i) = ((top >> 32) as u32, top as u32);
    until_check -= 1;
    if until_check == 0 {
      until_check = STOP_CHECK;
      if stop() {
        return None;
      }
    }
    if !alive[i as usize] || pair[i as usize] != rank {
      continue;
    }
    // Merge part i with the part after it.
    let j = next[i as usize];
    alive[j as usize] = false;
    next[i as usize] = next[j as usize];
    if next[i as usize] < n {
      prev[next[i as usize] as usize] = i;
    }
    parts -= 1;
    // The pairs starting at i and at the part before it have changed.
    for k in [i, prev[i as usize]] {
      if k < n {
        pair[k as usize] = rank_at(&next, k);
        if pair[k as usize] != u32::MAX {
          heap.push(entry(pair[k as usize], k));
        }
      }
    }
  }
  Some(parts)
}
