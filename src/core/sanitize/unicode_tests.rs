//! Markers read the way Unicode reads them (#22): the disguises, innocent
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
