//! Markers read the way Unicode reads them (#22): the issue's disguises, innocent
//! text in other scripts, and properties whose disguises are drawn from Unicode's data
//! (NFKC and the UTS #39 skeletons, computed here by the crates themselves, not from
//! the build's tables).

use super::*;

fn clean(text: &str) -> String {
  Sanitizer::default().sanitize(text).text
}

/// Sanitizes `text`, asserts nothing marked as `SECRET` is left, that a second pass
/// changes nothing, and returns the result.
fn caught(s: &Sanitizer, text: &str) -> String {
  let once = s.sanitize(text);
  assert!(
    !once.text.contains("SECRET") && once.removed > 0,
    "{text:?} -> {:?}",
    once.text
  );
  let twice = s.sanitize(&once.text);
  assert_eq!((twice.removed, &twice.text), (0, &once.text), "{text:?}");
  once.text
}

#[test]
fn letterlike_symbols_are_read_as_their_letters() {
  let s = Sanitizer::default();
  for text in [
    // Script capitals and the mathematical script letters between them.
    "ok [ℐℕ𝒯ℰℛℕ𝒜ℒ] SECRET",
    "ok [ℂONFIDENTIAL] SECRET",
    "ok [INTℯRNAL] SECRET",
    "ok [ℙℝℹ𝕍𝔸𝕋𝔼] SECRET",
    "ok <ℐnternal>SECRET</internal> after",
  ] {
    let out = caught(&s, text);
    assert!(out.starts_with("ok "), "{text:?} -> {out:?}");
  }
  assert_eq!(clean("a <ℐnternal>SECRET</internal> after"), "a  after");
}

#[test]
fn superscript_and_modifier_letters_are_read_as_their_letters() {
  let s = Sanitizer::default();
  for text in [
    "ok [ᴵᴺᵀᴱᴿᴺᴬᴸ] SECRET",
    "ok [ᴾᴿᴵⱽᴬᵀᴱ] SECRET",
    "ok <ˢᶜʳᵃᵗᶜʰᵖᵃᵈ>SECRET</scratchpad>",
    "ok [ⁱⁿᵗᵉʳⁿᵃˡ] SECRET",
    "ok [INTERNAₗ] SECRET",
  ] {
    caught(&s, text);
  }
}

#[test]
fn roman_numeral_letter_forms_are_read_as_letters() {
  let s = Sanitizer::default();
  for text in [
    "ok [ⅠNTERNAⅬ] SECRET",
    "ok [ⅭONFⅠⅮENTⅠAⅬ] SECRET",
    "ok [PRⅠⅤATE] SECRET",
    "ok [ⅰnternaⅼ] SECRET",
    "ok <ⅰnternaⅼ>SECRET</ⅰnternaⅼ> after",
  ] {
    caught(&s, text);
  }
  // Ⅿ, Ⅹ and the two-letter Ⅱ in a user rule's name.
  let rules = [MarkerRule {
    name: "MIXII".into(),
    form: Form::Both,
    action: Action::Drop,
  }];
  let user = Sanitizer::new(&rules).unwrap();
  caught(&user, "ok [ⅯⅠⅩⅡ] SECRET");
  caught(&user, "ok <ⅿⅰⅹⅱ>SECRET</MIXII>");
}

#[test]
fn angle_brackets_of_cjk_and_mathematical_text_are_tag_brackets() {
  for (open, close) in [('〈', '〉'), ('\u{2329}', '\u{232A}'), ('⟨', '⟩')] {
    let text = format!("a {open}internal{close}SECRET{open}/internal{close} after");
    assert_eq!(clean(&text), "a  after", "{open}");
  }
}

#[test]
fn letters_and_brackets_named_so_are_read_as_such() {
  let s = Sanitizer::default();
  for text in [
    // Negative circled and squared letters, regional indicators, small capitals and
    // parenthesized letters: no NFKC form to ASCII, no confusable; their names say.
    "ok [🅘🅝🅣🅔🅡🅝🅐🅛] SECRET",
    "ok [🅸🅽🆃🅴🆁🅽🅰🅻] SECRET",
    "ok [🇮\u{200B}🇳\u{200B}🇹\u{200B}🇪\u{200B}🇷\u{200B}🇳\u{200B}🇦\u{200B}🇱] SECRET",
    "ok [ɪɴᴛᴇʀɴᴀʟ] SECRET",
    "ok <ᴛʜɪɴᴋɪɴɢ>SECRET</thinking>",
    "ok [⒤⒩⒯⒠⒭⒩⒜⒧] SECRET",
    "ok ⁅INTERNAL⁆ SECRET",
  ] {
    let out = caught(&s, text);
    assert!(out.starts_with("ok "), "{text:?} -> {out:?}");
  }
}

#[test]
fn compatibility_hyphens_close_a_tag_and_keep_what_follows() {
  for hyphen in [
    '－', '﹣', '‐', '‑', '‒', '–', '—', '⁃', '−', '\u{FE58}', '\u{2E3A}',
  ] {
    let text = format!("a <system-reminder>SECRET</system{hyphen}reminder> after");
    assert_eq!(clean(&text), "a  after", "{hyphen:?} U+{:04X}", hyphen as u32);
    let text = format!("a <system{hyphen}reminder>SECRET</system-reminder> after");
    assert_eq!(clean(&text), "a  after", "{hyphen:?} U+{:04X}", hyphen as u32);
  }
}

#[test]
fn a_self_closing_opener_pairs_with_a_later_closer() {
  assert_eq!(clean("<internal/>secret</internal> after"), " after");
  assert_eq!(clean("a <thinking />x\n\ny</thinking>b"), "a b");
  // With no closer it still fails closed.
  assert_eq!(clean("a <internal/>secret\n\nmore"), "a ");
}

#[test]
fn innocent_text_in_any_script_is_kept() {
  for text in [
    "[internals]",
    "<internal-link>",
    "[INTERNALLY]",
    "<thinking-cap>",
    "[internals] and <internal-link> and [INTERNALLY] and <thinking-cap> and [PRIVATEER]",
    "Ελληνικά: [Εσωτερικό] σημείωμα, <σκέψη> και ιδιωτικό.",
    "Русский: [Внутренний] документ, <мысли> и конфиденциально.",
    "中文：［内部］文件，〈思考〉与私密。日本語：【社内】〈考え〉",
    "العربية: [داخلي] وثيقة <تفكير> وسري.",
    "Let f: ℕ → ℝ, [ℕ] ⊂ [ℝ], and <ℤ, +> a group; ∀n ∈ ℕ: f(n) ≥ 0.",
    "ⅰ. first ⅱ. second [Ⅳ] <ⅹ>",
    "<ⅰnternal-link> [ℐNTERNALS] <thinking—cap>",
  ] {
    let out = Sanitizer::default().sanitize(text);
    assert_eq!((out.removed, out.text.as_str()), (0, text), "{text:?}");
  }
}

/// Disguises drawn from Unicode's data, computed by the crates that publish it
/// (`unicode-normalization`, `unicode-security`) and regex's property tables, not
/// from the build's tables: a test of those tables, not a copy of them.
mod drawn {
  use std::collections::BTreeMap;
  use std::sync::OnceLock;

  use fancy_regex::Regex;
  use proptest::prelude::*;
  use unicode_normalization::UnicodeNormalization;
  use unicode_security::confusable_detection::skeleton;

  use super::*;

  /// What Unicode says reads as ASCII: for each ASCII string of one to three
  /// characters (letters lower-cased), the characters above ASCII that read as it.
  struct Readers {
    /// One letter, digit or punctuation mark: `c` reads as `x` when NFKC turns it
    /// into `x` (either case), or its skeleton or its NFKC form's is `x`'s (either
    /// case), or its Unicode name is that of a Latin letter in some style; a `Dash`
    /// character (or one NFKC makes dashes) reads as `-` only.
    single: BTreeMap<char, Vec<char>>,
    /// Two or three letters that NFKC writes one character as (`ﬁ`, `㏌`, `ⅱ`).
    several: BTreeMap<String, Vec<char>>,
    /// `Default_Ignorable_Code_Point`s: zero-width characters, bidi controls,
    /// variation selectors, tag characters and the rest.
    ignorable: Vec<char>,
    /// Characters with no reading as any ASCII character a marker is made of
    /// (nor as `&` or `\`, which start entities and escapes), and no bracket's name.
    plain: Vec<char>,
  }

  fn sk(s: &str) -> String {
    skeleton(s).collect()
  }

  fn readers() -> &'static Readers {
    static READERS: OnceLock<Readers> = OnceLock::new();
    READERS.get_or_init(|| {
      let ascii: Vec<char> = ('a'..='z').chain('0'..='9').chain("[]<>/-".chars()).collect();
      let mut by_skeleton: BTreeMap<String, Vec<char>> = BTreeMap::new();
      for &a in &ascii {
        for form in [a, a.to_ascii_uppercase()] {
          let entry = by_skeleton.entry(sk(&form.to_string())).or_default();
          if !entry.contains(&a) {
            entry.push(a);
          }
        }
      }
      let ignorable = Regex::new(r"^\p{Default_Ignorable_Code_Point}$").unwrap();
      let dash = Regex::new(r"^\p{Dash}$").unwrap();
      // Combining marks are invisible: however their names read (`COMBINING LATIN
      // SMALL LETTER C`), they stand for nothing.
      let mark = Regex::new(r"^[\p{Mn}\p{Me}]$").unwrap();
      let marker_like = |s: &str| s.chars().any(|c| "[]<>/&\\".contains(c));
      let mut r = Readers {
        single: BTreeMap::new(),
        several: BTreeMap::new(),
        ignorable: Vec::new(),
        plain: Vec::new(),
      };
      for c in (0x80..=0x10FFFF_u32).filter_map(char::from_u32) {
        let s = c.to_string();
        if ignorable.is_match(&s).unwrap() {
          r.ignorable.push(c);
          continue;
        }
        if mark.is_match(&s).unwrap() {
          continue;
        }
        let nfkc: String = s.nfkc().collect();
        let lower = nfkc.to_ascii_lowercase();
        let mut reads: Vec<char> = Vec::new();
        if lower.len() == 1 && ascii.contains(&lower.chars().next().unwrap()) {
          reads.push(lower.chars().next().unwrap());
        }
        for skel in [sk(&s), sk(&nfkc)] {
          for &a in by_skeleton.get(&skel).into_iter().flatten() {
            if !reads.contains(&a) {
              reads.push(a);
            }
          }
        }
        // A dash reads as a hyphen and nothing else, even one whose skeleton is a
        // letter's (`︱`): the scanner must choose, and a name's hyphen is the reading
        // its NFKC form (`—`) gives.
        // A Latin letter by its Unicode name, in any style (`NEGATIVE SQUARED LATIN
        // CAPITAL LETTER A`, `LATIN LETTER SMALL CAPITAL I`, `REGIONAL INDICATOR SYMBOL
        // LETTER A`), the letter the name's last word before any `WITH`; not for a
        // character NFKC writes as several letters (`ǋ` is `Nj`, not `N`).
        let letters = nfkc.chars().filter(|c| c.is_alphanumeric()).count();
        if let Some(name) = unicode_names2::name(c)
          .map(|n| n.to_string())
          .filter(|_| letters <= 1)
        {
          let name = name.split(" WITH ").next().unwrap_or("");
          if let Some((head, letter)) = name.rsplit_once(' ') {
            let latin = head.split(' ').any(|w| w == "LATIN")
              && (head.ends_with(" LETTER") || head.ends_with(" SMALL CAPITAL"));
            if letter.len() == 1
              && letter.as_bytes()[0].is_ascii_uppercase()
              && (latin || head == "REGIONAL INDICATOR SYMBOL LETTER")
            {
              let a = letter.to_ascii_lowercase().chars().next().unwrap();
              if !reads.contains(&a) {
                reads.push(a);
              }
            }
          }
        }
        if dash.is_match(&s).unwrap() || nfkc.chars().all(|c| dash.is_match(&c.to_string()).unwrap()) {
          reads = vec!['-'];
        }
        for &a in &reads {
          r.single.entry(a).or_default().push(c);
        }
        if (2..=3).contains(&lower.len()) && lower.bytes().all(|b| b.is_ascii_alphanumeric()) {
          r.several.entry(lower.clone()).or_default().push(c);
        }
        // Brackets are also read by name (`〈`, `⟨`): no bracket of any name is plain.
        let bracket = unicode_names2::name(c).is_some_and(|n| n.to_string().contains("BRACKET"));
        if reads.is_empty()
          && !bracket
          && !c.is_whitespace()
          && !marker_like(&nfkc)
          && !marker_like(&sk(&s))
          && !marker_like(&sk(&nfkc))
        {
          r.plain.push(c);
        }
      }
      r
    })
  }

  /// Picks from `v` with the next choice.
  fn pick<T: Copy>(v: &[T], choices: &mut impl Iterator<Item = u32>) -> T {
    v[choices.next().unwrap_or(0) as usize % v.len()]
  }

  /// A run of ignorable characters (none most of the time).
  fn ignorables(choices: &mut impl Iterator<Item = u32>) -> String {
    let r = readers();
    let n = choices.next().unwrap_or(0) % 6;
    (0..n.saturating_sub(3))
      .map(|_| pick(&r.ignorable, choices))
      .collect()
  }

  /// An ASCII character a marker is made of, in a disguise: itself (either case), a
  /// character Unicode reads as it, an entity, or a markdown escape for punctuation.
  fn disguise(a: char, choices: &mut impl Iterator<Item = u32>) -> String {
    let r = readers();
    let how = choices.next().unwrap_or(0) % 8;
    let drawn = r.single.get(&a).filter(|v| !v.is_empty());
    let mut out = match (how, drawn) {
      (0..=3, Some(v)) => pick(v, choices).to_string(),
      (4, _) => a.to_ascii_uppercase().to_string(),
      (5, _) => format!("&#{};", a as u32),
      (6, _) if a.is_ascii_punctuation() => format!("\\{a}"),
      _ => a.to_string(),
    };
    out += &ignorables(choices);
    out
  }

  /// A marker's name disguised letter by letter, with now and then two or three
  /// letters written as one character, and a separator where the name has `-`.
  fn disguise_name(name: &str, choices: &mut impl Iterator<Item = u32>) -> String {
    let r = readers();
    let name = name.to_ascii_lowercase();
    let mut out = String::new();
    let mut i = 0;
    while i < name.len() {
      let joined = (2..=3).rev().find_map(|k| {
        let part = name.get(i..i + k)?;
        r.several.get(part).map(|v| (k, v))
      });
      match joined {
        Some((k, v)) if choices.next().unwrap_or(0) % 4 == 0 => {
          out.push(pick(v, choices));
          out += &ignorables(choices);
          i += k;
        }
        _ => {
          let c = name.as_bytes()[i] as char;
          if c == '-' {
            match choices.next().unwrap_or(0) % 4 {
              0 => out.push('_'),
              1 => {}
              _ => out += &disguise('-', choices),
            }
          } else {
            out += &disguise(c, choices);
          }
          i += 1;
        }
      }
    }
    out
  }

  /// `[name]`, `[/name]`, `<name>`, `</name>` or `<name/>`, disguised.
  fn marker(name: &str, bracket: bool, role: u8, choices: &mut impl Iterator<Item = u32>) -> String {
    let (open, close) = if bracket { ('[', ']') } else { ('<', '>') };
    let mut out = disguise(open, choices);
    if role == 1 {
      out += &disguise('/', choices);
    }
    out += &disguise_name(name, choices);
    if role == 2 {
      out += &disguise('/', choices);
    }
    out + &disguise(close, choices)
  }

  /// Innocent text set around the markers; it must survive.
  const AROUND: [&str; 6] = [
    "Keep this.",
    "[internals] stay",
    "see <internal-link> too",
    "Ελληνικά και кириллица",
    "ℕ ⊂ ℝ",
    "中文［内部］",
  ];

  /// The default marker names with their form.
  fn names() -> Vec<(&'static str, bool)> {
    DEFAULT_BRACKETS
      .iter()
      .map(|&n| (n, true))
      .chain(DEFAULT_TAGS.iter().map(|&n| (n, false)))
      .collect()
  }

  proptest! {
    #![proptest_config(ProptestConfig { cases: 4_000, ..ProptestConfig::default() })]

    #[test]
    fn disguises_drawn_from_unicode_data_are_seen_through(
      which in 0usize..7,
      shape in 0u8..4,
      before in 0usize..6,
      after in 0usize..6,
      choices in proptest::collection::vec(any::<u32>(), 256),
    ) {
      let mut choices = choices.into_iter().cycle();
      let (name, bracket) = names()[which];
      let (before, after) = (AROUND[before], AROUND[after]);
      let open = marker(name, bracket, 0, &mut choices);
      let close = marker(name, bracket, 1, &mut choices);
      let text = match (shape, bracket) {
        // A pair: what follows the closer stays.
        (0, _) => format!("{before} {open}SECRET{close} {after}"),
        // A bracket marker drops its paragraph; the next one stays.
        (1, true) => format!("{before} {open} SECRET\nSECRET\n\n{after}"),
        // A self-closing tag pairs with a later closer.
        (1, false) => {
          let selfclosing = marker(name, bracket, 2, &mut choices);
          format!("{before} {selfclosing}SECRET{close} {after}")
        }
        // Unclosed: fails closed to the end of the paragraph or text.
        (_, true) => format!("{before} {open} SECRET"),
        (_, false) => format!("{before} {open}SECRET\n\nSECRET"),
      };
      let s = Sanitizer::default();
      let once = s.sanitize(&text);
      prop_assert!(!once.text.contains("SECRET"), "{:?} -> {:?}", text, once.text);
      prop_assert!(once.text.starts_with(&format!("{before} ")), "{:?} -> {:?}", text, once.text);
      if shape < 2 {
        prop_assert!(once.text.ends_with(after), "{:?} -> {:?}", text, once.text);
      }
      let twice = s.sanitize(&once.text);
      prop_assert_eq!((twice.removed, &twice.text), (0, &once.text));
    }

    #[test]
    fn disguised_longer_names_are_not_markers(
      which in 0usize..7,
      closer in any::<bool>(),
      extra in "[a-z0-9]{1,3}|-[a-z]{1,5}",
      choices in proptest::collection::vec(any::<u32>(), 256),
    ) {
      let mut choices = choices.into_iter().cycle();
      let (name, bracket) = names()[which];
      // `[internals]`, `<internal-link>`, `[PRIVATE2]`: a name and more.
      let longer = format!("{name}{extra}");
      let text = format!("a {} b", marker(&longer, bracket, u8::from(closer), &mut choices));
      let out = Sanitizer::default().sanitize(&text);
      prop_assert_eq!((out.removed, out.text.as_str()), (0, text.as_str()));
    }

    #[test]
    fn text_with_no_marker_reading_is_returned_byte_identical(
      parts in proptest::collection::vec((0u8..4, any::<u32>(), 0usize..7), 0..40),
    ) {
      let r = readers();
      let mut text = String::new();
      for (kind, n, which) in parts {
        let (name, bracket) = names()[which];
        match kind {
          // Any character with no reading as a marker's punctuation.
          0 => text.push(r.plain[n as usize % r.plain.len()]),
          1 => text.push(r.ignorable[n as usize % r.ignorable.len()]),
          // A marker name, even disguised, and its closing bracket, with no opener.
          2 => {
            let mut choices = std::iter::repeat(n).chain(std::iter::successors(Some(n), |x| Some(x.wrapping_mul(2_654_435_761).wrapping_add(1))));
            text += &disguise_name(name, &mut choices);
            text.push(if bracket { ']' } else { '>' });
          }
          _ => text.push(char::from(b" \n.,-_/>]a1"[n as usize % 11])),
        }
      }
      let out = Sanitizer::default().sanitize(&text);
      prop_assert_eq!((out.removed, out.text.as_str()), (0, text.as_str()));
    }
  }

  #[test]
  fn the_drawn_sets_hold_what_the_issue_names() {
    let r = readers();
    for (a, cs) in [
      ('c', "ℂⅭⅽ"),
      ('e', "ℯℰᴱ"),
      ('i', "ℐᴵⅠⅰ"),
      ('n', "ℕᴺ🅝🅽🇳ɴ"),
      ('-', "－﹣‐‑‒–—⁃−"),
    ] {
      for c in cs.chars() {
        assert!(r.single[&a].contains(&c), "{c} reads as {a}");
      }
    }
    assert!(r.several["ii"].contains(&'ⅱ'));
    assert!(r.ignorable.contains(&'\u{200B}') && r.ignorable.contains(&'\u{E0041}'));
  }
}
