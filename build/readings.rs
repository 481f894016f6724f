//! Generates `readings.rs`: how the sanitizer reads characters that are not ASCII,
//! taken from Unicode's own data rather than from hand-written tables:
//! - NFKC (`unicode-normalization`): compatibility forms read as what they decompose
//!   to (full-width and small forms, mathematical and letterlike symbols, circled and
//!   squared letters, superscripts and modifier letters, Roman numerals, ligatures);
//! - UTS #39 skeletons (`unicode-security`, confusables.txt): a character reads as
//!   the ASCII characters whose skeleton it shares (Cyrillic `і`, Greek `Ι`, `ꜱ`, …);
//! - invisible characters by property (regex-syntax's tables):
//!   `Default_Ignorable_Code_Point` (zero-width, bidi controls, variation selectors,
//!   tag characters, fillers) and the nonspacing and enclosing marks (`Mn`, `Me`);
//! - hyphens by property (`Dash`, regex-syntax's tables);
//! - Unicode names (`unicode_names2`): the Latin letter a name gives (negative circled
//!   and squared letters, regional indicators, small capitals) and square and angle
//!   brackets by name (`〈`, `⟨`, `⁅`).
//!
//! A letter reads as a set of ASCII letters and digits (a bit mask), since a skeleton
//! does not keep case and `I`, `l` and `1` share one; a character can read as several
//! letters in a row (`ⅱ`, `ﬁ`).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use regex_syntax::hir::{Class, HirKind};
use unicode_normalization::UnicodeNormalization;
use unicode_security::confusable_detection::skeleton;

/// The characters that are invisible to a reader, by Unicode property.
const INVISIBLE: &str = r"[\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}]";

/// The characters that read as a hyphen, by Unicode property (before any other
/// reading): confusables.txt gives the longer dashes (`—`, `⸺`, `﹘`) prototypes other
/// than `-`, but in a name they join words as a hyphen does.
const DASH: &str = r"\p{Dash}";

/// The ASCII punctuation a marker is built of: brackets, the closer's slash, and the
/// separators that may stand between a name's letters.
const PUNCTUATION: &str = "[]<>/";
const SEPARATORS: &str = "-_.*`~";

/// The most letters one character may read as (`ⅷ` is four; `㎉` "kcal" too).
const MAX_LETTERS: usize = 8;

/// Brackets by their Unicode names, beyond NFKC and the confusables: a left or right
/// square bracket (`⁅`, `⦋`, `⎡`) or angle bracket (`〈`, `⟨`, `〈`; confusables.txt
/// gives these a prototype of their own, U+276C, but they are how `<` and `>` are
/// written in CJK and mathematical text) in any style the name gives. Double and white
/// brackets (`《`, `⟪`, `⟦`) are not.
const NAMED_BRACKETS: [(&str, char); 6] = [
  ("LEFT SQUARE BRACKET", '['),
  ("RIGHT SQUARE BRACKET", ']'),
  ("LEFT ANGLE BRACKET", '<'),
  ("LEFT-POINTING ANGLE BRACKET", '<'),
  ("RIGHT ANGLE BRACKET", '>'),
  ("RIGHT-POINTING ANGLE BRACKET", '>'),
];

/// The character's Unicode name (UnicodeData.txt, through `unicode_names2`).
fn name_of(c: char) -> Option<String> {
  unicode_names2::name(c).map(|n| n.to_string())
}

/// The ASCII letter a character's Unicode name says it is: a Latin letter in whatever
/// style the name gives (`NEGATIVE SQUARED LATIN CAPITAL LETTER A`, `LATIN LETTER
/// SMALL CAPITAL I`, `LATIN SMALL LETTER I WITH STROKE`), or a regional indicator
/// (`REGIONAL INDICATOR SYMBOL LETTER A`). The letter must be the name's last word
/// before any `WITH`, so turned, reversed and other altered letters do not count.
fn named_letter(c: char) -> Option<char> {
  let name = name_of(c)?;
  let name = name.split(" WITH ").next()?;
  let (head, letter) = name.rsplit_once(' ')?;
  let &[l] = letter.as_bytes() else {
    return None;
  };
  let latin =
    head.split(' ').any(|w| w == "LATIN") && (head.ends_with(" LETTER") || head.ends_with(" SMALL CAPITAL"));
  (l.is_ascii_uppercase() && (latin || head == "REGIONAL INDICATOR SYMBOL LETTER"))
    .then(|| l.to_ascii_lowercase() as char)
}

/// The bracket a character's Unicode name says it is (see [`NAMED_BRACKETS`]).
fn named_bracket(c: char) -> Option<char> {
  let name = name_of(c)?;
  NAMED_BRACKETS.iter().find_map(|&(n, p)| {
    name
      .split(" WITH ")
      .next()
      .is_some_and(|head| head == n || head.ends_with(&format!(" {n}")) || head.starts_with(&format!("{n} ")))
      .then_some(p)
  })
}

fn skeleton_of(s: &str) -> String {
  skeleton(s).collect()
}

/// The bit of an ASCII letter or digit in a letter mask: `a`–`z` 0–25, `0`–`9` 26–35.
fn bit(c: char) -> u64 {
  match c {
    'a'..='z' => 1 << (c as u32 - 'a' as u32),
    '0'..='9' => 1 << (26 + c as u32 - '0' as u32),
    _ => 0,
  }
}

struct Data {
  invisible: Vec<(u32, u32)>,
  dash: Vec<(u32, u32)>,
  /// Skeletons of the ASCII letters and digits (either case) and the mask of those
  /// that have each.
  prototypes: BTreeMap<String, u64>,
  /// Skeletons of the punctuation and separators and the ASCII character each reads as.
  punctuation: BTreeMap<String, char>,
}

fn contains(ranges: &[(u32, u32)], c: char) -> bool {
  let c = c as u32;
  ranges
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

impl Data {
  fn is_invisible(&self, c: char) -> bool {
    contains(&self.invisible, c)
  }

  /// The letters an ASCII letter or digit reads as: itself, case-folded, and those that
  /// share its skeleton in either case (`I` reads as `i`, `l` and `1`).
  fn ascii(&self, c: char) -> u64 {
    bit(c.to_ascii_lowercase())
      | self
        .prototypes
        .get(&skeleton_of(&c.to_string()))
        .copied()
        .unwrap_or(0)
  }

  /// A skeleton without the invisible characters it keeps (combining marks).
  fn skeleton(&self, s: &str) -> String {
    skeleton(s).filter(|&c| !self.is_invisible(c)).collect()
  }

  /// The letters a string of one to [`MAX_LETTERS`] ASCII letters and digits reads as.
  fn ascii_letters(&self, s: &str) -> Option<Vec<u64>> {
    let count = s.chars().count();
    ((1..=MAX_LETTERS).contains(&count) && s.chars().all(|c| c.is_ascii_alphanumeric()))
      .then(|| s.chars().map(|c| self.ascii(c)).collect())
  }

  /// How a character that is not ASCII reads, if as anything of a marker's.
  fn reading(&self, c: char) -> Option<Reading> {
    let nfkc: String = c.to_string().nfkc().collect();
    if nfkc.is_empty() || nfkc.chars().all(|c| self.is_invisible(c)) {
      return None;
    }
    // A dash is a hyphen, even one whose skeleton is a letter's (the vertical dashes
    // `︱`, `︲`, which NFKC makes `—` and `–`, are `l`'s look-alikes).
    if contains(&self.dash, c) || nfkc.chars().all(|c| contains(&self.dash, c)) {
      return Some(Reading::Punctuation('-'));
    }
    // Each way Unicode reads it: its NFKC form, that form's skeleton, and its own
    // skeleton. NFKC can take a character away from what it looks like (`ϲ` is `ς` to
    // NFKC and `c` to confusables.txt; `ſ` is `s` and `f`), so letter readings of
    // one length are all kept.
    let skeletons = [self.skeleton(&nfkc), self.skeleton(&c.to_string())];
    let mut letters = self.ascii_letters(&nfkc);
    for form in &skeletons {
      let masks = match self.prototypes.get(form) {
        Some(&mask) => Some(vec![mask]),
        None => self.ascii_letters(form),
      };
      match (&mut letters, masks) {
        (None, masks) => letters = masks,
        (Some(l), Some(m)) if l.len() == m.len() => {
          l.iter_mut().zip(m).for_each(|(a, b)| *a |= b);
        }
        _ => {}
      }
    }
    // The letter the character's name says it is (negative circled and squared
    // letters, regional indicators and small capitals have no NFKC form and no
    // confusable), unless NFKC writes it as several letters (`ǋ` is `Nj`, not the `N`
    // of its name).
    let named = named_letter(c).filter(|_| nfkc.chars().filter(|c| c.is_alphanumeric()).count() <= 1);
    if let Some(named) = named.map(|l| self.ascii(l)) {
      match &mut letters {
        None => letters = Some(vec![named]),
        Some(l) if l.len() == 1 => l[0] |= named,
        Some(_) => {}
      }
    }
    if let Some(letters) = letters {
      return Some(Reading::Letters(letters));
    }
    if let Some(&p) = skeletons.iter().find_map(|s| self.punctuation.get(s)) {
      return Some(Reading::Punctuation(p));
    }
    let single = |s: &str| {
      let mut it = s.chars();
      it.next().filter(|_| it.next().is_none())
    };
    if let Some(p) = named_bracket(c).or_else(|| single(&nfkc).and_then(named_bracket)) {
      return Some(Reading::Punctuation(p));
    }
    None
  }
}

enum Reading {
  Letters(Vec<u64>),
  Punctuation(char),
}

/// The code point ranges of a Unicode property class, from regex-syntax's tables.
fn ranges(pattern: &str) -> Vec<(u32, u32)> {
  let hir = regex_syntax::Parser::new()
    .parse(pattern)
    .expect("the class parses");
  let HirKind::Class(Class::Unicode(class)) = hir.kind() else {
    panic!("{pattern} is not a Unicode class");
  };
  class
    .ranges()
    .iter()
    .map(|r| (r.start() as u32, r.end() as u32))
    .collect()
}

/// Writes `readings.rs`.
pub fn write(out: &Path) {
  let mut data = Data {
    invisible: ranges(INVISIBLE),
    dash: ranges(DASH),
    prototypes: BTreeMap::new(),
    punctuation: BTreeMap::new(),
  };
  for c in ('a'..='z').chain('0'..='9') {
    for form in [c, c.to_ascii_uppercase()] {
      *data.prototypes.entry(skeleton_of(&form.to_string())).or_default() |= bit(c);
    }
  }
  for p in PUNCTUATION.chars().chain(SEPARATORS.chars()) {
    data.punctuation.insert(skeleton_of(&p.to_string()), p);
  }

  let mut pool: Vec<u64> = Vec::new();
  let mut reads: Vec<(u32, u32)> = Vec::new();
  let mut leads = [false; 256];
  for b in [b'[', b'<', b'&', b'\\'] {
    leads[b as usize] = true;
  }
  for cp in 0x80..=0x10FFFF_u32 {
    let Some(c) = char::from_u32(cp) else { continue };
    if data.is_invisible(c) || c.is_whitespace() {
      continue;
    }
    match data.reading(c) {
      None => {}
      Some(Reading::Punctuation(p)) => {
        if matches!(p, '[' | '<') {
          let mut buf = [0u8; 4];
          leads[c.encode_utf8(&mut buf).as_bytes()[0] as usize] = true;
        }
        reads.push((cp, p as u32));
      }
      Some(Reading::Letters(masks)) => {
        // Letter readings: the top bit, the count (3 bits, minus one) and the index of
        // the first mask in LETTERS. Runs of masks are shared when they repeat.
        let start = match pool.windows(masks.len()).position(|w| w == masks.as_slice()) {
          Some(i) => i,
          None => {
            pool.extend_from_slice(&masks);
            pool.len() - masks.len()
          }
        };
        reads.push((cp, 1 << 31 | ((masks.len() as u32 - 1) << 24) | start as u32));
      }
    }
  }

  let ascii: Vec<u64> = (0..128u8).map(|b| data.ascii(b as char)).collect();
  let separators: String = (0..128u8)
    .map(char::from)
    .filter(|c| {
      data
        .punctuation
        .get(&skeleton_of(&c.to_string()))
        .is_some_and(|p| SEPARATORS.contains(*p))
    })
    .collect();

  let mut src = String::from(
    "// Generated by build.rs (build/readings.rs) from unicode-normalization's NFKC,\n\
     // unicode-security's confusables and regex-syntax's property tables. Do not edit.\n",
  );
  src += &format!(
    "/// ASCII characters that read as a separator (skeleton of one of `{SEPARATORS}`).\n\
     pub const SEPARATORS: &str = {separators:?};\n"
  );
  src += "/// The letters each ASCII character reads as (0: not a letter).\npub static ASCII_LETTERS: [u64; 128] = [";
  src += &ascii
    .iter()
    .map(|m| format!("{m:#x}"))
    .collect::<Vec<_>>()
    .join(", ");
  src += "];\n";
  src += &format!(
    "/// Letter masks of `READS`' letter readings.\npub static LETTERS: [u64; {}] = [",
    pool.len()
  );
  src += &pool
    .iter()
    .map(|m| format!("{m:#x}"))
    .collect::<Vec<_>>()
    .join(", ");
  src += "];\n";
  src += &format!(
    "/// Code points above ASCII that read as a marker's punctuation (the ASCII character)\n\
     /// or letters (top bit, count - 1 in bits 24-26, index in `LETTERS`), sorted.\n\
     pub static READS: [(u32, u32); {}] = [\n",
    reads.len()
  );
  for (cp, r) in &reads {
    src += &format!("  ({cp:#x}, {r:#x}),\n");
  }
  src += "];\n";
  src += &format!(
    "/// Ranges of invisible code points: `{INVISIBLE}`.\npub static INVISIBLE_RANGES: [(u32, u32); {}] = [\n",
    data.invisible.len()
  );
  for (a, b) in &data.invisible {
    src += &format!("  ({a:#x}, {b:#x}),\n");
  }
  src += "];\n";
  src += "/// Bytes a marker can start with: `[`, `<`, `&`, `\\\\` and the lead bytes of the\n/// characters that read as `[` or `<`.\npub static LEADS: [bool; 256] = [";
  src += &leads.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ");
  src += "];\n";
  fs::write(out.join("readings.rs"), src).expect("readings.rs is written");
}
