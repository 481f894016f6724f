//! Removing internal markers from text: `[INTERNAL]`-style bracket markers, which drop
//! their paragraph, `[X]…[/X]` and `<tag>…</tag>` pairs, which drop their block, and
//! user rules that drop or only strip.
//!
//! Markers are read the way a model would read them, not byte for byte, with
//! Unicode's own data (see `reading`): case, inner spaces, compatibility forms (NFKC),
//! look-alikes (UTS #39 confusables), invisible characters (default-ignorable code
//! points and combining marks), markdown escapes and HTML entities all fold away. Only
//! the marker's own name matches: `[internal link]` and `<internal-link>` are not
//! markers.
//!
//! The scan is one pass over the bytes with a table of the few bytes a marker can
//! start with, so ordinary text is copied at memory speed; removing a block can join
//! the text around it into a new marker, so `sanitize` repeats until nothing is
//! found (and fails closed if an input keeps producing markers).

use std::ops::Range;

mod reading;
#[cfg(test)]
mod unicode_tests;

use reading::{
  bit, entity, fold, is_candidate, is_invisible, is_separator, is_space, letters, raw, read, skip,
  utf8_width, INVISIBLE, SEPARATOR, SPACE,
};

/// Which bracket forms a rule's name is a marker in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
  /// `[NAME]`, closed by `[/NAME]`.
  Bracket,
  /// `<name>`, closed by `</name>`.
  Tag,
  Both,
}

/// What happens to what a marker marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
  /// Remove the marker and what it marks: a bracket marker to the end of its
  /// paragraph, a pair its whole block (a self-closing tag opens one too), an
  /// unclosed or self-closing tag that nothing closes to the end.
  Drop,
  /// Remove only the marker itself.
  Strip,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkerRule {
  pub name: String,
  pub form: Form,
  pub action: Action,
}

/// Why a marker rule was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum RuleError {
  /// The name has no letter or digit.
  Empty,
  /// The name is longer than [`MAX_NAME`] characters.
  TooLong,
  /// The name has a character other than ASCII letters, digits, `-`, `_` and spaces.
  Character(char),
}

/// The longest marker name a rule may have.
pub const MAX_NAME: usize = 64;

/// The default markers: bracket markers and tags, all dropping.
pub const DEFAULT_BRACKETS: [&str; 3] = ["INTERNAL", "PRIVATE", "CONFIDENTIAL"];
pub const DEFAULT_TAGS: [&str; 4] = ["internal", "system-reminder", "thinking", "scratchpad"];

/// How far past a tag's name its attributes are searched for the closing `>`; a tag
/// left open longer than that is still a tag (it fails closed).
const ATTRIBUTES: usize = 1024;

/// The most characters between an HTML entity's `&` and its end: `entity` reads a name
/// up to 10 bytes from the `&` and a number of `#x` and 8 digits.
const ENTITY_TEXT: usize = 10;

/// Passes after which text that keeps forming new markers is cut at the first one.
const PASSES: usize = 8;

#[derive(Clone, Debug, PartialEq)]
struct Rule {
  /// The name's letters and digits, lower-cased: what a marker must spell.
  name: Vec<u8>,
  bracket: bool,
  action: Action,
}

/// A set of marker rules, ready to scan with.
#[derive(Clone, Debug, PartialEq)]
pub struct Sanitizer {
  rules: Vec<Rule>,
  longest: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
  Open,
  Close,
}

#[derive(Clone, Copy, Debug)]
struct Marker {
  start: usize,
  end: usize,
  rule: usize,
  role: Role,
  /// A tag with malformed attributes: only a marker when a closing tag pairs with it.
  weak: bool,
}

/// The result of [`Sanitizer::sanitize`].
#[derive(Debug, PartialEq, Eq)]
pub struct Sanitized {
  pub text: String,
  /// Markers found and removed (openers, closers and stray closers each count).
  pub removed: usize,
}

impl Default for Sanitizer {
  fn default() -> Self {
    Self::new(&[]).expect("the default rules are valid")
  }
}

impl Sanitizer {
  /// The default markers plus `extra` rules; a user rule for a default name and form
  /// replaces its action.
  pub fn new(extra: &[MarkerRule]) -> Result<Self, RuleError> {
    let mut s = Sanitizer {
      rules: Vec::new(),
      longest: 0,
    };
    for name in DEFAULT_BRACKETS {
      s.add(name, true, Action::Drop)?;
    }
    for name in DEFAULT_TAGS {
      s.add(name, false, Action::Drop)?;
    }
    for rule in extra {
      if rule.form != Form::Tag {
        s.add(&rule.name, true, rule.action)?;
      }
      if rule.form != Form::Bracket {
        s.add(&rule.name, false, rule.action)?;
      }
    }
    Ok(s)
  }

  fn add(&mut self, name: &str, bracket: bool, action: Action) -> Result<(), RuleError> {
    let name = canonical(name)?;
    self.longest = self.longest.max(name.len());
    match self
      .rules
      .iter_mut()
      .find(|r| r.name == name && r.bracket == bracket)
    {
      Some(rule) => rule.action = action,
      None => self.rules.push(Rule {
        name,
        bracket,
        action,
      }),
    }
    Ok(())
  }

  /// `text` without its markers and what they mark; a second pass finds nothing.
  pub fn sanitize(&self, text: &str) -> Sanitized {
    let (removals, removed) = self.removals(text);
    Sanitized {
      text: cut(text, &removals),
      removed,
    }
  }

  /// The byte ranges of `text` to remove (sorted, disjoint) so that what is left has
  /// no marker, and how many markers they hold. Removing a block can join the text
  /// around it into a new marker, so the text left is scanned again until nothing is
  /// found; text built to do that more than [`PASSES`] times is cut at its first
  /// marker (fail closed).
  pub fn removals(&self, text: &str) -> (Vec<Range<usize>>, usize) {
    let (mut removals, mut found) = self.spans(text);
    let mut pass = 1;
    while found > 0 && self.may_join(text, &removals) {
      let left = cut(text, &removals);
      let (spans, n) = self.spans(&left);
      if n == 0 {
        break;
      }
      found += n;
      let spans = if pass < PASSES {
        spans
      } else {
        let first = spans[0].start;
        std::iter::once(first..left.len()).collect()
      };
      let kept = complement(&removals, text.len());
      let mut original = Original {
        kept: &kept,
        i: 0,
        base: 0,
      };
      let mapped: Vec<Range<usize>> = spans
        .iter()
        .map(|s| original.at(s.start)..original.at(s.end))
        .collect();
      removals.extend(mapped);
      removals = merge(removals);
      pass += 1;
    }
    (removals, found)
  }

  /// Whether removing `removals` (sorted, disjoint) from `text` could join the text
  /// left around a cut into a new marker. Such a marker would start before the cut
  /// with an opening bracket followed, up to the cut, only by what can come before a
  /// marker's name ends (spaces, invisible characters, separators, `/`, escapes and
  /// entities, and a name's letters): walking back from each cut over those finds its
  /// bracket, or shows there is none. Conservative: a long walk answers yes. This
  /// spares the second scan of a text in all but contrived cases.
  fn may_join(&self, text: &str, removals: &[Range<usize>]) -> bool {
    let bytes = text.as_bytes();
    // A cut can also change a tag without joining anything: a tag whose attributes
    // ran into the cut text (malformed there, so weak) can end well-formed, or at the
    // end of the text, once it is gone, and so become a marker; and a cut that takes
    // the start of a weak tag bares what its attributes ran over (a closing tag, say).
    // Any tag opener before the end of a cut therefore means a second scan
    // (fuzz/regressions/sanitize).
    if let Some(last) = removals.iter().map(|r| r.end).max() {
      let is_opener = |(j, c): (usize, char)| {
        fold(c) == '<' || (c == '&' && entity(&bytes[j..]).is_some_and(|(e, _)| fold(e) == '<'))
      };
      if text[..last].char_indices().any(is_opener) {
        return true;
      }
    }
    let letters_max = 3 * self.longest + 8;
    for (k, r) in removals.iter().enumerate() {
      if r.start == 0 || r.end >= text.len() {
        continue;
      }
      let (mut i, mut before, mut letters, mut steps) = (r.start, k, 0, 0);
      loop {
        // Step over earlier removals that end where the walk stands.
        while before > 0 && removals[before - 1].end == i {
          before -= 1;
          i = removals[before].start;
        }
        if i == 0 {
          break;
        }
        let mut j = i - 1;
        while !text.is_char_boundary(j) {
          j -= 1;
        }
        let raw = text[j..i].chars().next().unwrap_or('\0');
        let c = fold(raw);
        let opens = |c: char| matches!(c, '[' | '<');
        if opens(c) || (raw == '&' && entity(&bytes[j..]).is_some_and(|(e, _)| opens(fold(e)))) {
          return true;
        }
        // An `&` followed up to the cut only by what an entity is made of may start one
        // that the cut completes (`&#6` and `0intern…` join into `&#60intern…`, a tag:
        // fuzz/regressions/sanitize). Past an earlier removal, any `&` may.
        if raw == '&' {
          let tail = &bytes[j + 1..r.start];
          let partial =
            tail.len() <= ENTITY_TEXT && tail.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'#');
          if partial || before != k {
            return true;
          }
        }
        // A letter by its reading, not its look: `|` reads as `l` (fuzz/regressions).
        if c.is_ascii_alphabetic() || !reading::letters(raw).is_empty() {
          letters += 1;
        } else if !(c.is_ascii_digit()
          || is_space(c)
          || is_invisible(c)
          || is_separator(c)
          || "/\\&#;".contains(c))
        {
          break;
        }
        steps += 1;
        if letters > letters_max {
          break;
        }
        if steps > 4096 {
          return true;
        }
        i = j;
      }
    }
    false
  }

  /// The byte ranges of `text` to remove, sorted and disjoint, and how many markers
  /// they hold. One pass: removing them can form new markers (see `sanitize`).
  pub fn spans(&self, text: &str) -> (Vec<Range<usize>>, usize) {
    let markers = self.markers(text);
    let mut spans: Vec<Range<usize>> = Vec::new();
    let mut found = 0;
    // Open markers per rule, matched by depth.
    let mut open: Vec<Vec<Marker>> = vec![Vec::new(); self.rules.len()];
    for m in markers {
      let rule = &self.rules[m.rule];
      if rule.action == Action::Strip {
        spans.push(m.start..m.end);
        found += 1;
        continue;
      }
      match m.role {
        // A self-closing tag (`<x/>`) opens a block like `<x>`: a later `</x>` closes
        // it, and with none it drops to the end (fail closed).
        Role::Open => open[m.rule].push(m),
        Role::Close => match open[m.rule].pop() {
          Some(opener) => {
            found += 2;
            spans.push(opener.start..m.end);
          }
          // A closer with nothing to close: only the closer goes.
          None => {
            found += 1;
            spans.push(m.start..m.end);
          }
        },
      }
    }
    for (rule, openers) in self.rules.iter().zip(open) {
      for m in openers.into_iter().filter(|m| !m.weak) {
        found += 1;
        let end = if rule.bracket {
          paragraph_end(text, m.end)
        } else {
          text.len()
        };
        spans.push(m.start..end);
      }
    }
    (merge(spans), found)
  }

  /// Every marker in `text`, in order.
  fn markers(&self, text: &str) -> Vec<Marker> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
      if !is_candidate(bytes[i]) {
        i += 1;
        continue;
      }
      match self.marker_at(text, i) {
        Some(m) => {
          // A weak tag is a marker only if a closer pairs with it, so what its
          // attributes run over is scanned too: `<thinking a<b [INTERNAL] x>` must not
          // hide the bracket marker, nor `<thinking a<b </thinking>` its closer.
          i = if m.weak { i + utf8_width(bytes[i]) } else { m.end };
          out.push(m);
        }
        None => i += utf8_width(bytes[i]),
      }
    }
    out
  }

  /// The marker starting at byte `start`, if one does.
  fn marker_at(&self, text: &str, start: usize) -> Option<Marker> {
    let (c, len) = read(text, start);
    let bracket = match c {
      '[' => true,
      '<' => false,
      _ => return None,
    };
    let mut i = skip(text, start + len, SPACE | INVISIBLE | SEPARATOR);
    let (c, len) = read(text, i);
    let closer = c == '/';
    if closer {
      i = skip(text, i + len, SPACE | INVISIBLE | SEPARATOR);
    }
    // The letters each position of the name can be (a character can read as several
    // in a row: `ⅱ`), and the offset just after each position's character; a name
    // cannot end inside a character (`MID`).
    const MID: usize = usize::MAX;
    let mut masks = [0u64; MAX_NAME];
    let mut after = [MID; MAX_NAME];
    let mut n = 0;
    while n < self.longest {
      let j = if n == 0 {
        i
      } else {
        skip(text, i, SPACE | INVISIBLE | SEPARATOR)
      };
      let (c, len) = raw(text, j);
      let read_as = letters(c);
      if read_as.is_empty() {
        break;
      }
      i = j + len;
      for (p, &mask) in read_as.iter().enumerate() {
        if n == self.longest {
          break;
        }
        masks[n] = mask;
        after[n] = if p + 1 == read_as.len() { i } else { MID };
        n += 1;
      }
    }
    let mut best: Option<Marker> = None;
    for (index, rule) in self.rules.iter().enumerate() {
      let k = rule.name.len();
      if rule.bracket != bracket
        || k > n
        || after[k - 1] == MID
        || !rule.name.iter().zip(&masks).all(|(&b, &mask)| bit(b) & mask != 0)
      {
        continue;
      }
      if best.is_some_and(|b| self.rules[b.rule].name.len() >= k) {
        continue;
      }
      let Some((end, weak)) = terminate(text, after[k - 1], bracket) else {
        continue;
      };
      let role = if closer { Role::Close } else { Role::Open };
      best = Some(Marker {
        start,
        end,
        rule: index,
        role,
        weak,
      });
    }
    best
  }
}

/// Where a marker whose name ends at `i` ends (a self-closing `<x/>` opens like
/// `<x>`), and whether it is weak (a tag with malformed attributes: a marker only if a closing
/// tag pairs with it); `None` when what follows the name makes it a longer name or
/// not a marker.
fn terminate(text: &str, i: usize, bracket: bool) -> Option<(usize, bool)> {
  if bracket {
    let j = skip(text, i, SPACE | INVISIBLE | SEPARATOR);
    return match read(text, j) {
      (']', len) => Some((j + len, false)),
      _ => None,
    };
  }
  let j = skip(text, i, INVISIBLE | SEPARATOR);
  let (c, len) = read(text, j);
  match c {
    '>' => Some((j + len, false)),
    '/' => close_self(text, j + len),
    c if is_space(c) && j < text.len() => {
      let k = skip(text, j, SPACE | INVISIBLE | SEPARATOR);
      match read(text, k) {
        ('>', len) => Some((k + len, false)),
        ('/', len) => close_self(text, k + len).or(Some((k, false))),
        _ => Some(attributes(text, k)),
      }
    }
    _ => None,
  }
}

/// After a tag's `/`: its `>`, making it self-closing.
fn close_self(text: &str, i: usize) -> Option<(usize, bool)> {
  let j = skip(text, i, SPACE | INVISIBLE);
  match read(text, j) {
    ('>', len) => Some((j + len, false)),
    _ => None,
  }
}

/// A tag's attributes from `i`: the end of the tag at its `>` (outside quotes; a `/`
/// before it makes no difference), and whether the attributes are malformed (`a < internal
/// && b > c` is code, not a tag). A tag whose `>` is not found soon ends where its
/// attributes start: it is still a tag, left open.
fn attributes(text: &str, i: usize) -> (usize, bool) {
  #[derive(PartialEq)]
  enum At {
    Names,
    Equals,
    Unquoted,
    Quoted(char),
  }
  let limit = (i + ATTRIBUTES).min(text.len());
  let mut j = i;
  let mut at = At::Names;
  let mut malformed = false;
  while j < limit {
    let (c, len) = read(text, j);
    if c == '>' && !matches!(at, At::Quoted(_)) {
      return (j + len, malformed);
    }
    at = match at {
      At::Quoted(q) if c == q => At::Names,
      At::Quoted(q) => At::Quoted(q),
      At::Names | At::Equals if is_space(c) => at,
      At::Names if c == '=' => At::Equals,
      At::Names => {
        malformed |= !(c.is_ascii_alphanumeric() || "-_:.@/".contains(c));
        At::Names
      }
      At::Equals if c == '"' || c == '\'' => At::Quoted(c),
      At::Equals | At::Unquoted if is_space(c) => At::Names,
      At::Equals | At::Unquoted => At::Unquoted,
    };
    j += len;
  }
  (i, malformed)
}

/// Where the paragraph holding byte `i` ends: at the first blank line after it, or at
/// the end of the text.
fn paragraph_end(text: &str, i: usize) -> usize {
  let bytes = text.as_bytes();
  let mut line_end = i;
  while let Some(n) = bytes[line_end..].iter().position(|&b| b == b'\n') {
    let newline = line_end + n;
    let mut j = newline + 1;
    while j < bytes.len() && matches!(bytes[j], b' ' | b'\t' | b'\r') {
      j += 1;
    }
    if j >= bytes.len() || bytes[j] == b'\n' {
      return if j >= bytes.len() { bytes.len() } else { newline };
    }
    line_end = newline + 1;
  }
  bytes.len()
}

/// Sorted, disjoint ranges covering `spans`.
pub fn merge(mut spans: Vec<Range<usize>>) -> Vec<Range<usize>> {
  spans.sort_by_key(|s| s.start);
  let mut out: Vec<Range<usize>> = Vec::with_capacity(spans.len());
  for s in spans {
    match out.last_mut() {
      Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
      _ => out.push(s),
    }
  }
  out
}

/// The ranges of `0..len` outside the (sorted, disjoint) `spans`.
fn complement(spans: &[Range<usize>], len: usize) -> Vec<Range<usize>> {
  let mut out = Vec::with_capacity(spans.len() + 1);
  let mut at = 0;
  for s in spans {
    if s.start > at {
      out.push(at..s.start);
    }
    at = s.end;
  }
  if at < len {
    out.push(at..len);
  }
  out
}

/// Maps offsets in the text made of the `kept` ranges of an original text back to the
/// original, for offsets asked in increasing order.
struct Original<'a> {
  kept: &'a [Range<usize>],
  /// The kept range the last offset fell in, and the offset its start maps from.
  i: usize,
  base: usize,
}

impl Original<'_> {
  fn at(&mut self, x: usize) -> usize {
    while self.i < self.kept.len() && x >= self.base + self.kept[self.i].len() {
      self.base += self.kept[self.i].len();
      self.i += 1;
    }
    match self.kept.get(self.i) {
      Some(k) => k.start + (x - self.base),
      None => self.kept.last().map_or(0, |k| k.end),
    }
  }
}

/// `text` without the (sorted, disjoint) `spans`.
pub fn cut(text: &str, spans: &[Range<usize>]) -> String {
  let mut out = String::with_capacity(text.len());
  let mut at = 0;
  for s in spans {
    out.push_str(&text[at..s.start]);
    at = s.end;
  }
  out.push_str(&text[at..]);
  out
}

/// Checks a rule name: the error [`Sanitizer::new`] would give for it.
pub fn check_name(name: &str) -> Result<(), RuleError> {
  canonical(name).map(|_| ())
}

/// A rule name's letters and digits, lower-cased.
fn canonical(name: &str) -> Result<Vec<u8>, RuleError> {
  let mut out = Vec::new();
  for c in name.chars() {
    match c {
      'a'..='z' | '0'..='9' => out.push(c as u8),
      'A'..='Z' => out.push(c.to_ascii_lowercase() as u8),
      '-' | '_' | ' ' => {}
      c => return Err(RuleError::Character(c)),
    }
  }
  match out.len() {
    0 => Err(RuleError::Empty),
    n if n > MAX_NAME => Err(RuleError::TooLong),
    _ => Ok(out),
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  fn clean(text: &str) -> String {
    Sanitizer::default().sanitize(text).text
  }

  #[test]
  fn a_cut_that_makes_a_weak_tag_well_formed_is_scanned_again() {
    // Found by fuzzing: `<todo to[INTERNAL]…` is a weak tag (its attributes are
    // malformed); once the bracket marker's paragraph is cut, `<todo to` is a tag left
    // open, which a second pass would find.
    let rules = [MarkerRule {
      name: "todo".into(),
      form: Form::Both,
      action: Action::Drop,
    }];
    let s = Sanitizer::new(&rules).unwrap();
    for text in [
      "&M<\u{2028}\u{2028}todo\u{2028}to[INTERNAL][INTERNAL]",
      "keep <todo x=\"1\" [PRIVATE] y",
      "1[PRIVATE]<thinking\r\0\0\n\n\n\n=\n\n\n\n\n\u{1}\0\0X\n\n\n888887</thinking>",
      "1[PRIVATE]<thinking\n\nmid\n\nend</thinking>",
    ] {
      let once = s.sanitize(text);
      let twice = s.sanitize(&once.text);
      assert_eq!((twice.removed, &twice.text), (0, &once.text), "{text:?}");
    }
  }

  #[test]
  fn a_cut_that_completes_an_entity_is_scanned_again() {
    // Found by fuzzing: removing the stray closer joins `&#6` and `0` into `&#60`, a
    // `<` that opens a tag left open.
    for text in [
      "\\&#6[/PRIVATE]0intern.Al`` ",
      "keep &#6[/PRIVATE]0;internal> SECRET",
      "keep &l[/INTERNAL]t;thinking&gt; SECRET",
    ] {
      let once = Sanitizer::default().sanitize(text);
      let twice = Sanitizer::default().sanitize(&once.text);
      assert_eq!((twice.removed, &twice.text), (0, &once.text), "{text:?}");
      assert!(!once.text.contains("SECRET"), "{text:?} -> {:?}", once.text);
    }
  }

  #[test]
  fn a_cut_after_a_character_that_reads_as_a_letter_is_scanned_again() {
    // Found by fuzzing: removing the stray closer joins `[*|~~\n.` and `*nternal~]`
    // into `[|nternal]`, `|` reading as `l` and so as `I`.
    for text in ["[*|~~\n.[/INTERNAL]*nternal~]", "a [|[/PRIVATE]nternal] SECRET"] {
      let once = Sanitizer::default().sanitize(text);
      let twice = Sanitizer::default().sanitize(&once.text);
      assert_eq!((twice.removed, &twice.text), (0, &once.text), "{text:?}");
      assert!(!once.text.contains("SECRET"), "{text:?} -> {:?}", once.text);
    }
  }

  #[test]
  fn a_weak_tag_hides_no_marker_inside_its_attributes() {
    // Found by fuzzing: the attributes of a malformed (weak) tag were skipped whole.
    assert_eq!(clean("x <thinking a<b [INTERNAL] secret> y"), "x <thinking a<b ");
    assert!(!clean("a <internal b<c </internal> d").contains("</internal>"));
  }

  #[test]
  fn a_bracket_marker_drops_to_the_end_of_its_paragraph() {
    let text = "Plan A.\n\n[INTERNAL] the secret\nstill secret\n\nPublic again.";
    assert_eq!(clean(text), "Plan A.\n\n\n\nPublic again.");
    assert_eq!(
      clean("Keep this. [PRIVATE] not this\n\nKeep."),
      "Keep this. \n\nKeep."
    );
    assert_eq!(Sanitizer::default().sanitize(text).removed, 1);
  }

  #[test]
  fn pairs_drop_their_block_across_paragraphs_and_nest_by_depth() {
    let text = "a [INTERNAL]x\n\ny [INTERNAL]z[/INTERNAL] w\n\nv[/INTERNAL] b";
    assert_eq!(clean(text), "a  b");
    let tags = "keep <thinking>one <thinking>two</thinking> three</thinking> end";
    assert_eq!(clean(tags), "keep  end");
  }

  #[test]
  fn unclosed_and_self_closing_tags_fail_closed() {
    assert_eq!(clean("ok <internal> hidden\n\nstill hidden"), "ok ");
    assert_eq!(clean("ok <scratchpad/> gone"), "ok ");
    assert_eq!(clean("ok </thinking> kept"), "ok  kept");
  }

  #[test]
  fn tags_with_attributes_or_split_across_lines_are_tags() {
    assert_eq!(clean("a <internal id=\"x>y\">s</internal> b"), "a  b");
    assert_eq!(
      clean("a <system-reminder\n  data-x=1\n>s</system-reminder\n> b"),
      "a  b"
    );
  }

  #[test]
  fn longer_names_and_prose_are_not_markers() {
    for text in [
      "an internal note",
      "see [internal link] here",
      "[internals] and <internal-link> and [INTERNAL_ONLY]",
      "fn is_internal() -> bool { self.internal }",
      "class Foo { internal var x = 1 }",
      "a < b and c > d, x[i] = y[j]",
      "if (a < internal && internal > b) return",
    ] {
      assert_eq!(clean(text), text, "{text}");
    }
  }

  #[test]
  fn disguises_are_seen_through() {
    for text in [
      "[internal] SECRET",
      "[ Internal ] SECRET",
      "[I N T E R N A L] SECRET",
      "［INTERNAL］ SECRET",
      "[ＩＮＴＥＲＮＡＬ] SECRET",
      "[IN\u{200B}TERNAL] SECRET",
      "[\u{202E}INTERNAL\u{202C}] SECRET",
      "\\[INTERNAL\\] SECRET",
      "&#91;INTERNAL&#93; SECRET",
      "&lsqb;INTERNAL&rsqb; SECRET",
      "&lt;thinking&gt;SECRET&lt;/thinking&gt;",
      "<THINKING >SECRET</ thinking>",
      "＜thinking＞SECRET＜/thinking＞",
      "[𝐈𝐍𝐓𝐄𝐑𝐍𝐀𝐋] SECRET",
      "[ІNTERNAL] SECRET",
      "<system_reminder>SECRET</system_reminder>",
      "[**INTERNAL**] SECRET",
    ] {
      let out = clean(text);
      assert!(!out.contains("SECRET"), "{text:?} -> {out:?}");
    }
  }

  #[test]
  fn user_rules_drop_or_strip() {
    let rules = [
      MarkerRule {
        name: "DRAFT".into(),
        form: Form::Bracket,
        action: Action::Drop,
      },
      MarkerRule {
        name: "note".into(),
        form: Form::Both,
        action: Action::Strip,
      },
    ];
    let s = Sanitizer::new(&rules).unwrap();
    assert_eq!(s.sanitize("a [DRAFT] b\n\nc").text, "a \n\nc");
    assert_eq!(s.sanitize("a <note>b</note> [note]c").text, "a b c");
    assert_eq!(s.sanitize("a <note>b</note>").removed, 2);
    let bad = |name: &str| {
      Sanitizer::new(&[MarkerRule {
        name: name.into(),
        form: Form::Both,
        action: Action::Drop,
      }])
      .err()
    };
    assert_eq!(bad("--"), Some(RuleError::Empty));
    assert_eq!(bad("a>b"), Some(RuleError::Character('>')));
    assert_eq!(bad(&"x".repeat(65)), Some(RuleError::TooLong));
  }

  #[test]
  fn removing_a_block_that_joins_a_new_marker_is_caught_and_idempotent() {
    let s = Sanitizer::default();
    let text = "keep [INTER<thinking>x</thinking>NAL] SECRET\n\nkeep";
    let once = s.sanitize(text);
    assert!(!once.text.contains("SECRET"), "{:?}", once.text);
    assert_eq!(s.sanitize(&once.text).removed, 0);
    // Splices nested deeper than the pass limit (each pass uncovers the next pair)
    // still end with no marker.
    let mut deep = String::from("<internal>SECRET</internal>");
    for _ in 0..20 {
      deep = format!("<inter{deep}nal>SECRET</internal>");
    }
    let out = s.sanitize(&format!("keep {deep}"));
    assert!(
      out.text.starts_with("keep ") && !out.text.contains("SECRET"),
      "{:?}",
      out.text
    );
    assert_eq!(s.sanitize(&out.text).removed, 0);
  }

  #[test]
  fn a_tag_right_after_a_word_is_still_a_tag() {
    // Fail closed: `List<Internal>` reads as an unclosed tag, as `x<internal>` must.
    assert_eq!(clean("x<internal>SECRET</internal> y"), "x y");
    assert_eq!(clean("List<Internal> x"), "List");
  }

  mod properties {
    use super::*;
    use proptest::prelude::*;

    /// One character of a marker's name, in a random disguise.
    fn disguise_letter(c: char, how: u8) -> String {
      let upper = c.to_ascii_uppercase();
      match how % 8 {
        0 => c.to_string(),
        1 => upper.to_string(),
        2 => char::from_u32(upper as u32 + 0xFEE0).unwrap().to_string(),
        3 => format!("{c}\u{200B}"),
        4 => format!("\u{202E}{c}\u{202C}"),
        5 => format!("&#{};", c as u32),
        6 => char::from_u32(0x1D400 + (upper as u32 - 'A' as u32))
          .unwrap()
          .to_string(),
        _ => format!("{upper} "),
      }
    }

    fn disguise_bracket(c: char, how: u8) -> String {
      let full = char::from_u32(c as u32 + 0xFEE0).unwrap();
      let entity = match c {
        '[' => "&#91;",
        ']' => "&#93;",
        '<' => "&lt;",
        _ => "&gt;",
      };
      match how % 5 {
        0 => c.to_string(),
        1 => full.to_string(),
        2 => entity.to_string(),
        3 => format!("\\{c}"),
        _ => format!("{c} "),
      }
    }

    fn marker(name: &str, bracket: bool, closer: bool, how: &[u8]) -> String {
      let (open, close) = if bracket { ('[', ']') } else { ('<', '>') };
      let mut out = disguise_bracket(open, how[0]);
      if closer {
        out.push('/');
      }
      for (i, c) in name.chars().enumerate() {
        if c == '-' {
          out.push('-');
        } else {
          out += &disguise_letter(c.to_ascii_lowercase(), how[1 + i % (how.len() - 1)]);
        }
      }
      out + &disguise_bracket(close, how[0] / 5)
    }

    /// A marked block holding `SECRET`, in one of the shapes the rules name.
    fn block(name_pick: usize, shape: u8, how: &[u8]) -> String {
      let bracket = matches!(shape, 0 | 2 | 5);
      let name = if bracket {
        DEFAULT_BRACKETS[name_pick % 3]
      } else {
        DEFAULT_TAGS[name_pick % 4]
      };
      let open = marker(name, bracket, false, how);
      match shape {
        // Pairs.
        0 | 1 => format!("{open} SECRET {}", marker(name, bracket, true, how)),
        // A bracket marker and the rest of its paragraph.
        2 => format!("{open} SECRET"),
        5 => format!("{open} x\nSECRET"),
        // An unclosed tag.
        3 => format!("{open}\nSECRET\n\nSECRET"),
        // A self-closing tag.
        _ => format!(
          "{}/> SECRET",
          &open[..open.len() - disguise_bracket('>', how[0] / 5).len()]
        ),
      }
    }

    proptest! {
      #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]
      #[test]
      fn no_marked_content_survives_and_a_second_pass_changes_nothing(
        filler in proptest::collection::vec("[a-z <>\\[\\]/\n]{0,12}|internal|\\[internal link\\]", 1..6),
        blocks in proptest::collection::vec((0usize..12, 0u8..6, proptest::collection::vec(0u8..40, 4..8)), 1..4),
      ) {
        let mut text = String::new();
        for (i, f) in filler.iter().enumerate() {
          text += f;
          if let Some((name, shape, how)) = blocks.get(i) {
            text += &block(*name, *shape, how);
          }
        }
        let s = Sanitizer::default();
        let once = s.sanitize(&text);
        prop_assert!(!once.text.contains("SECRET"), "{:?} -> {:?}", text, once.text);
        prop_assert!(once.removed > 0);
        let twice = s.sanitize(&once.text);
        prop_assert_eq!(&twice.text, &once.text);
        prop_assert_eq!(twice.removed, 0);
      }
    }
  }
}
