//! Reading text as a model reads it: what character each byte offset stands for once
//! HTML entities and markdown escapes are undone, compatibility forms are composed
//! (NFKC), look-alikes are taken for what they look like (UTS #39 confusables), and
//! invisible characters are passed over.
//!
//! The Unicode data comes from the crates that publish it, turned into tables at
//! compile time (`build/readings.rs`): ASCII is read by direct indexing, anything else
//! by a binary search that only the few bytes a marker can start with ever reach.

include!(concat!(env!("OUT_DIR"), "/readings.rs"));

pub const SPACE: u8 = 1;
pub const INVISIBLE: u8 = 2;
pub const SEPARATOR: u8 = 4;

/// The letters a character reads as, one mask per position (bits: `a`–`z` 0–25,
/// `0`–`9` 26–35); empty for anything that is not a letter or digit.
pub type Letters = &'static [u64];

/// The bit of an ASCII letter or digit (lower case) in a letter mask.
pub fn bit(b: u8) -> u64 {
  match b {
    b'a'..=b'z' => 1 << (b - b'a'),
    b'0'..=b'9' => 1 << (26 + b - b'0'),
    _ => 0,
  }
}

/// Whether a marker can start at a byte (it is `[`, `<`, `&`, `\` or the lead byte of
/// a character that reads as `[` or `<`).
pub fn is_candidate(b: u8) -> bool {
  LEADS[b as usize]
}

pub fn utf8_width(lead: u8) -> usize {
  match lead {
    0x00..=0x7F => 1,
    0xC0..=0xDF => 2,
    0xE0..=0xEF => 3,
    _ => 4,
  }
}

pub fn is_space(c: char) -> bool {
  c.is_whitespace()
}

/// Whether a (folded) character stands between a name's letters without ending it.
pub fn is_separator(c: char) -> bool {
  c.is_ascii() && SEPARATORS.contains(c)
}

/// The offset after the characters from `i` whose class is in `classes`.
pub fn skip(text: &str, mut i: usize, classes: u8) -> usize {
  while i < text.len() {
    let (c, len) = read(text, i);
    let class = if is_space(c) {
      SPACE
    } else if is_invisible(c) {
      INVISIBLE
    } else if is_separator(c) {
      SEPARATOR
    } else {
      0
    };
    if class & classes == 0 {
      break;
    }
    i += len;
  }
  i
}

/// The character at byte `i` as a reader sees it, folded (see `fold`), and how many
/// bytes it takes: an HTML entity or a markdown escape is one character. At the end
/// of the text: `'\0'` and 0.
pub fn read(text: &str, i: usize) -> (char, usize) {
  match text.as_bytes().get(i) {
    Some(&b) if b < 0x80 && b != b'&' && b != b'\\' => ((b as char).to_ascii_lowercase(), 1),
    _ => {
      let (c, len) = raw(text, i);
      (fold(c), len)
    }
  }
}

/// The character at byte `i` with entities and escapes undone, not folded, and its
/// length in bytes; `'\0'` and 0 at the end of the text.
pub fn raw(text: &str, i: usize) -> (char, usize) {
  let bytes = text.as_bytes();
  match bytes.get(i) {
    None => ('\0', 0),
    Some(b'&') => entity(&bytes[i..]).unwrap_or(('&', 1)),
    Some(b'\\') => match bytes.get(i + 1) {
      Some(&b) if b.is_ascii_punctuation() => (b as char, 2),
      _ => ('\\', 1),
    },
    Some(&b) if b < 0x80 => (b as char, 1),
    Some(_) => {
      let c = text[i..].chars().next().unwrap_or('\0');
      (c, c.len_utf8())
    }
  }
}

/// An HTML character reference at the start of `s` (`&lt;`, `&#91;`, `&#x5B;`), with
/// its length. Numeric ones may omit the `;`, as browsers allow.
pub fn entity(s: &[u8]) -> Option<(char, usize)> {
  if s.get(1) == Some(&b'#') {
    let hex = matches!(s.get(2), Some(b'x' | b'X'));
    let digits = if hex { 3 } else { 2 };
    let mut value: u32 = 0;
    let mut j = digits;
    while j < s.len() && j < digits + 8 {
      let d = match (hex, s[j]) {
        (_, b @ b'0'..=b'9') => (b - b'0') as u32,
        (true, b @ b'a'..=b'f') => (b - b'a' + 10) as u32,
        (true, b @ b'A'..=b'F') => (b - b'A' + 10) as u32,
        _ => break,
      };
      value = value * if hex { 16 } else { 10 } + d;
      j += 1;
    }
    if j == digits {
      return None;
    }
    let len = if s.get(j) == Some(&b';') { j + 1 } else { j };
    return char::from_u32(value).map(|c| (c, len));
  }
  let end = s.iter().take(10).position(|&b| b == b';')?;
  let name = &s[1..end];
  let c = [
    ("lt", '<'),
    ("gt", '>'),
    ("lsqb", '['),
    ("rsqb", ']'),
    ("lbrack", '['),
    ("rbrack", ']'),
    ("sol", '/'),
    ("nbsp", ' '),
    ("shy", '\u{AD}'),
    ("zwj", '\u{200D}'),
    ("zwnj", '\u{200C}'),
  ]
  .iter()
  .find(|(n, _)| n.as_bytes().eq_ignore_ascii_case(name))?
  .1;
  Some((c, end + 1))
}

/// Characters that render as nothing or only modify their neighbour: the
/// `Default_Ignorable_Code_Point`s (zero-width, bidi controls, soft hyphen, variation
/// selectors, tag characters, fillers) and the nonspacing and enclosing marks.
pub fn is_invisible(c: char) -> bool {
  let c = c as u32;
  c >= 0x80
    && INVISIBLE_RANGES
      .binary_search_by(|&(a, b)| {
        if b < c {
          std::cmp::Ordering::Less
        } else if a > c {
          std::cmp::Ordering::Greater
        } else {
          std::cmp::Ordering::Equal
        }
      })
      .is_ok()
}

/// How a character above ASCII reads, from `READS`.
fn reading(c: char) -> Option<u32> {
  READS
    .binary_search_by_key(&(c as u32), |&(cp, _)| cp)
    .ok()
    .map(|i| READS[i].1)
}

/// The letters packed in a letter reading.
fn letters_of(r: u32) -> Letters {
  let count = ((r >> 24) & 0x7) as usize + 1;
  let start = (r & 0xFF_FFFF) as usize;
  &LETTERS[start..start + count]
}

/// The letters `c` reads as (see [`Letters`]).
pub fn letters(c: char) -> Letters {
  if c.is_ascii() {
    let i = c as usize;
    return if ASCII_LETTERS[i] == 0 {
      &[]
    } else {
      &ASCII_LETTERS[i..=i]
    };
  }
  match reading(c) {
    Some(r) if r & 1 << 31 != 0 => letters_of(r),
    _ => &[],
  }
}

/// A character folded to the ASCII character it reads as, lower-cased: brackets,
/// slashes and separators to theirs, a letter to the first it can stand for. Anything
/// else is returned as it is.
pub fn fold(c: char) -> char {
  if c.is_ascii() {
    return c.to_ascii_lowercase();
  }
  match reading(c) {
    Some(r) if r & 1 << 31 != 0 => {
      let first = letters_of(r)[0].trailing_zeros() as u8;
      match first {
        0..=25 => char::from(b'a' + first),
        _ => char::from(b'0' + first - 26),
      }
    }
    Some(r) => char::from_u32(r).unwrap_or(c),
    None => c,
  }
}
