//! Unicode character classes of tiktoken's split regexes, generated at build time
//! from regex-syntax (see build.rs) so they match the regex engine code point for code point.

include!(concat!(env!("OUT_DIR"), "/classes.rs"));

/// The class bits of a code point above ASCII (binary search in the range table).
#[inline]
pub fn wide_bits(c: u32) -> u8 {
  match WIDE.binary_search_by(|&(first, last, _)| {
    if last < c {
      std::cmp::Ordering::Less
    } else if first > c {
      std::cmp::Ordering::Greater
    } else {
      std::cmp::Ordering::Equal
    }
  }) {
    Ok(i) => WIDE[i].2,
    Err(_) => 0,
  }
}
