//! Titles, and where text names them: the links between sections.

use super::index::fold_ascii;
use crate::core::segment::{field_title, tag_title};
use crate::core::terms::is_stop_word;

/// A heading's title, case-folded: without `#` marks, or the bold marks and the colon or
/// full stop of a bold lead (see `title`).
pub(super) fn heading_title(heading: &str) -> String {
  let end = [':', '.'];
  // A setext heading's underline is no part of its title.
  let heading = heading.lines().next().unwrap_or(heading);
  if let Some(named) = tag_title(heading).or_else(|| field_title(heading)) {
    return title(named);
  }
  let t = heading.trim_start_matches('#').trim().trim_end_matches(end);
  title(t.trim_matches(['*', '_']).trim_end_matches(end))
}

/// A name as a title, case-folded: without a trailing "(…)" or ", …" qualifier, which text
/// that names the thing leaves out ("Kiskiack (Lee House)" is named "Kiskiack").
fn title(name: &str) -> String {
  let t = name.trim();
  let t = match t.rfind(" (") {
    Some(i) if t.ends_with(')') => &t[..i],
    _ => t,
  };
  // "Santa Fe, Missouri": text names the place before the comma.
  let t = t.split_once(", ").map_or(t, |(name, _)| name);
  fold_ascii(t)
}

/// Which sections `body` names by one of their names, longest match first:
/// "Adventures of Huckleberry Finn" names that section, not the "Huckleberry Finn" inside it.
pub(super) fn named_titles(body: &str, titles: &[Vec<String>]) -> Vec<bool> {
  // Many sections can share a title: find each distinct one once.
  let mut distinct: Vec<&str> = titles.iter().flatten().map(String::as_str).collect();
  distinct.sort_unstable();
  distinct.dedup();
  let spans: Vec<Vec<(usize, usize)>> = distinct.iter().map(|t| name_spans(body, t)).collect();
  let named: Vec<bool> = (0..distinct.len())
    .map(|k| {
      spans[k].iter().any(|&(a, b)| {
        !spans
          .iter()
          .enumerate()
          .any(|(j, other)| j != k && other.iter().any(|&(c, d)| c <= a && b <= d && d - c > b - a))
      })
    })
    .collect();
  titles
    .iter()
    .map(|names| {
      names
        .iter()
        .any(|t| distinct.binary_search(&t.as_str()).is_ok_and(|k| named[k]))
    })
    .collect()
}

/// Where `body` names `title` as whole words.
pub(super) fn name_spans(body: &str, title: &str) -> Vec<(usize, usize)> {
  let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
  if title.is_empty() {
    return Vec::new();
  }
  let finder = memchr::memmem::Finder::new(title.as_bytes());
  let mut spans = Vec::new();
  let mut from = 0;
  // Finds do not overlap, as with `match_indices`.
  while let Some(found) = finder.find(&body.as_bytes()[from..]) {
    let at = from + found;
    from = at + title.len();
    if boundary(body[..at].chars().next_back()) && boundary(body[from..].chars().next()) {
      spans.push((at, from));
    }
  }
  spans
}

/// A tool call's names: what it names. The call line is `→ name {arguments}`; each of its
/// arguments' short string values names what the call brought back: a URL or path by its
/// last part (`…/wiki/Harvey_Pekar` is "harvey pekar", `src/api/users.ts` is "users.ts"),
/// other text as it is. Long values (a command line, a file's content) name nothing.
pub(super) fn call_titles(line: &str) -> Vec<String> {
  let Some(at) = line.find('{') else {
    return Vec::new();
  };
  let mut names: Vec<String> = string_values(&line[at..])
    .filter(|v| v.len() <= MAX_TITLE_BYTES)
    .map(|v| title(&name_of(&v)))
    .filter(|v| !v.is_empty())
    .collect();
  names.sort_unstable();
  names.dedup();
  names
}

/// Argument values longer than this are content (code, a message), not a name.
const MAX_TITLE_BYTES: usize = 120;

/// What a value names: the last part of a URL (its words: `_` and `-` are spaces) or of a
/// path; text with spaces as it is.
fn name_of(value: &str) -> String {
  if value.contains(char::is_whitespace) || !value.contains('/') {
    return value.trim().to_owned();
  }
  let url = value.contains("://");
  let value = value.split(['?', '#']).next().unwrap_or(value);
  let last = value.trim_end_matches('/').rsplit('/').next().unwrap_or(value);
  if url {
    percent_decoded(last).replace(['_', '-'], " ")
  } else {
    last.to_owned()
  }
}

/// `%XX` escapes decoded where they make UTF-8; others left as they are.
fn percent_decoded(text: &str) -> String {
  let b = text.as_bytes();
  let mut out = Vec::with_capacity(b.len());
  let mut i = 0;
  while i < b.len() {
    let hex = |c: u8| (c as char).to_digit(16);
    match (
      b[i],
      b.get(i + 1).and_then(|&c| hex(c)),
      b.get(i + 2).and_then(|&c| hex(c)),
    ) {
      (b'%', Some(h), Some(l)) => {
        out.push((h * 16 + l) as u8);
        i += 3;
      }
      (c, _, _) => {
        out.push(c);
        i += 1;
      }
    }
  }
  String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// The string values of a JSON text (keys left out), unescaped for `\"` and `\\`
/// only: a title needs its words, not exact JSON.
fn string_values(json: &str) -> impl Iterator<Item = String> + '_ {
  let b = json.as_bytes();
  let mut i = 0;
  std::iter::from_fn(move || loop {
    let open = i + memchr::memchr(b'"', &b[i..])?;
    let mut j = open + 1;
    let mut value = Vec::new();
    while j < b.len() && b[j] != b'"' {
      if b[j] == b'\\' {
        j += 1;
      }
      if let Some(&c) = b.get(j) {
        value.push(c);
      }
      j += 1;
    }
    i = (j + 1).min(b.len());
    let key = json[i..].trim_start().starts_with(':');
    if !key {
      return Some(String::from_utf8_lossy(&value).into_owned());
    }
  })
}

/// The title of a paragraph or list item that has no heading: what it leads with. A bold
/// lead (`**Ed Wood**: …`) or a short lead before a dash or colon (`Ed Wood — …`) is its
/// title as written; otherwise the name its first sentence opens with, the run of
/// capitalized words before anything else ("Harvey Lawrence Pekar (October 8, …) was" is
/// "harvey lawrence pekar"). `None` when it opens with no name ("It was…", "This…").
pub(super) fn lead_title(lead: &str) -> Option<String> {
  let t = lead.trim_start();
  // The item's mark: a bullet, or a number (`1.`, `2)`).
  let digits = t.bytes().take_while(u8::is_ascii_digit).count();
  let t = match t[digits..].strip_prefix(['.', ')']) {
    Some(rest) if digits > 0 && rest.starts_with(' ') => rest.trim_start(),
    _ => t
      .strip_prefix(['-', '*', '+'])
      .map_or(t, |rest| rest.trim_start()),
  };
  for mark in ["**", "__"] {
    if let Some(rest) = t.strip_prefix(mark) {
      let name = &rest[..rest.find(mark)?];
      let name = name.trim_end_matches([':', '.', ' ']);
      return (!name.is_empty() && name.len() <= MAX_TITLE_BYTES).then(|| title(name));
    }
  }
  for separator in [" — ", " – ", ": "] {
    if let Some((name, _)) = t.split_once(separator) {
      // A parenthesis or quote before the colon is the name's gloss ("Ed Wood (Latin:
      // …"), not a lead of its own.
      if name.len() <= MAX_LEAD_BYTES && !name.contains(['.', '!', '?', ',', '(', ')', '"', ';']) {
        return Some(title(name));
      }
    }
  }
  let name = opening_name(t)?;
  let single_stop_word = !name.contains(' ') && is_stop_word(&name.to_lowercase());
  (!single_stop_word).then(|| title(name))
}

/// The name a sentence opens with: its run of capitalized words (and the connectors
/// between them), up to the first other word or punctuation.
fn opening_name(sentence: &str) -> Option<&str> {
  let t = sentence.trim_start();
  let mut name_end = 0;
  let mut at = 0;
  for word in t.split(' ') {
    let start = at;
    at += word.len() + 1;
    let trimmed = word.trim_end_matches([',', ';', ':', '.']);
    // A nickname in quotes stands inside the name (`Gregor "Gore" Verbinski`).
    let bare = match trimmed.strip_prefix('"').and_then(|b| b.strip_suffix('"')) {
      Some(nick) if !nick.is_empty() && !nick.contains('"') => nick,
      _ => trimmed,
    };
    if bare
      .chars()
      .next()
      .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
    {
      name_end = start + trimmed.len();
    } else if !NAME_CONNECTORS.contains(&bare) {
      break;
    }
    // Punctuation after a word ends the name, but for an initial's full stop (`J. Cole`).
    let initial =
      word.len() == 2 && word.ends_with('.') && word.starts_with(|c: char| c.is_ascii_uppercase());
    if trimmed.len() != word.len() && !initial {
      break;
    }
  }
  (name_end > 0).then(|| &t[..name_end])
}

/// The ways text names what a paragraph leads with (`lead_title`): the name and the other
/// names its lead sentence gives (`aliases`), each with its short forms (`shortened`), as
/// people and things are named short ("Harvey Lawrence Pekar" is "Harvey Pekar").
pub(super) fn lead_titles(lead: &str) -> Vec<String> {
  let Some(name) = lead_title(lead) else {
    return Vec::new();
  };
  let name = name.replace('"', "");
  // A title written as one (bold, before a dash) is said as written.
  if opening_name(lead).is_none_or(|opening| title(opening).replace('"', "") != name) {
    return vec![name];
  }
  let mut names = shortened(name);
  for alias in aliases(lead) {
    for n in shortened(alias) {
      if !names.contains(&n) {
        names.push(n);
      }
    }
  }
  names
}

/// A name and its short forms: for a name of three words or more and no connectors, any
/// earlier word with its last.
fn shortened(name: String) -> Vec<String> {
  let words: Vec<&str> = name.split(' ').collect();
  let mut names = vec![name.clone()];
  // "The Pennsylvania State University" is also named without its article.
  if let Some(bare) = name.strip_prefix("the ").filter(|b| b.contains(' ')) {
    names.push(bare.to_owned());
  }
  // A name with connectors is the title of a thing ("The Stories of Vladimir Nabokov"),
  // said whole; a person's is said short.
  let connected = words.iter().any(|w| NAME_CONNECTORS.contains(w));
  if let [.., last] = words[..] {
    if words.len() >= SHORTENED_NAME_WORDS && !connected {
      // Any earlier word with the last: a middle name or a rank dropped ("Colonel
      // Patrick John Mercer" is "Patrick Mercer").
      let mut short: Vec<String> = words[..words.len() - 1]
        .iter()
        .rev()
        .map(|w| format!("{w} {last}"))
        .collect();
      short.dedup();
      names.extend(short);
    }
  }
  names
}

/// The other names a lead sentence gives its subject: what follows "known as", "stage
/// name", "also called" and the like ("Hirdesh Singh, better known by his stage name Yo
/// Yo Honey Singh" is also "Yo Yo Honey Singh").
fn aliases(lead: &str) -> Vec<String> {
  let mut out = Vec::new();
  for marker in ALIAS_MARKERS {
    for (at, _) in lead.match_indices(marker) {
      let mut rest = &lead[at + marker.len()..];
      // "known professionally as X".
      if marker == "known " {
        match rest.split_once(' ') {
          Some((_, after)) if after.starts_with("as ") => rest = &after[3..],
          _ => continue,
        }
      }
      // "known by his stage name X", "known by the acronym X".
      if marker.ends_with("by ") {
        match rest
          .get(..MAX_ALIAS_PREAMBLE)
          .and_then(|r| r.find(" name ").or_else(|| r.find(" acronym ")))
        {
          Some(k) => rest = rest[k + 1..].split_once(' ').map_or("", |(_, r)| r),
          None => continue,
        }
      }
      let rest = rest.trim_start_matches(['"', '\'', '“', ' ']);
      if let Some(name) = opening_name(rest) {
        let name = title(&name.replace('"', ""));
        if name.chars().filter(|c| c.is_alphanumeric()).count() >= 2 && !out.contains(&name) {
          out.push(name);
        }
      }
    }
  }
  out
}

/// What introduces another name of a lead's subject.
const ALIAS_MARKERS: [&str; 9] = [
  "known as ",
  "known ",
  "known by ",
  "also called ",
  "operating as ",
  "also spelled ",
  "pen name ",
  "stage name ",
  "ring name ",
];

/// How far after "known by" the word "name" or "acronym" is sought ("known by his
/// shortened name").
const MAX_ALIAS_PREAMBLE: usize = 40;

/// A name this long or longer is also named by its last two words and by its first and
/// last: two words still tell one thing from another, one word rarely does.
const SHORTENED_NAME_WORDS: usize = 3;

/// A lead before a dash or colon is a title when it is this short: longer, it is a
/// sentence of its own.
const MAX_LEAD_BYTES: usize = 60;

/// Lower-case words that stand inside names ("Bank of America", "Vincent van Gogh").
const NAME_CONNECTORS: [&str; 11] = [
  "da", "de", "del", "der", "du", "for", "la", "le", "of", "the", "van",
];

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn a_call_is_named_by_its_short_argument_values() {
    let names = |line: &str| call_titles(line);
    assert_eq!(
      names(r#"→ search {"title":"Kiskiack (Lee House)"}"#),
      ["kiskiack"]
    );
    assert_eq!(
      names(r#"→ read_url {"url":"https://en.wikipedia.org/wiki/Harvey_Pekar"}"#),
      ["harvey pekar"]
    );
    assert_eq!(
      names(r#"→ view {"path":"/repo/src/api/users.ts","command":"view"}"#),
      ["users.ts", "view"]
    );
    assert_eq!(
      names(r#"→ open {"url":"https://x.org/wiki/Caf%C3%A9_Society"}"#),
      ["café society"]
    );
    let long = format!(r#"→ write {{"content":"{}"}}"#, "word ".repeat(40));
    assert!(names(&long).is_empty());
    assert!(names("→ ping").is_empty());
    assert_eq!(
      names(r#"→ say {"text":"a \"quoted\" name"}"#),
      [r#"a "quoted" name"#]
    );
  }

  #[test]
  fn an_untitled_paragraph_leads_with_its_title() {
    assert_eq!(
      lead_title("- **Ed Wood**: an American filmmaker.").as_deref(),
      Some("ed wood")
    );
    assert_eq!(
      lead_title("* Ed Wood — an American filmmaker.").as_deref(),
      Some("ed wood")
    );
    assert_eq!(
      lead_title("12. Ed Wood: an American filmmaker.").as_deref(),
      Some("ed wood")
    );
    assert_eq!(lead_title("1990 was a year.").as_deref(), Some("1990"));
    assert_eq!(
      lead_title("Harvey Lawrence Pekar (October 8, 1939 – July 12, 2010) was a writer.").as_deref(),
      Some("harvey lawrence pekar")
    );
    assert_eq!(
      lead_title("Bank of America is a bank.").as_deref(),
      Some("bank of america")
    );
    assert_eq!(
      lead_title("Careers, a board game, came out in 1955.").as_deref(),
      Some("careers")
    );
    assert_eq!(
      lead_titles("Harvey Lawrence Pekar was a writer."),
      ["harvey lawrence pekar", "lawrence pekar", "harvey pekar"]
    );
    assert_eq!(lead_titles("Bank of America is a bank."), ["bank of america"]);
    assert_eq!(
      lead_titles("Colonel Patrick John Mercer, OBE (born 1956) is an author."),
      [
        "colonel patrick john mercer",
        "john mercer",
        "patrick mercer",
        "colonel mercer"
      ]
    );
    assert_eq!(
      lead_titles("Gregor \"Gore\" Verbinski (born 1964) is a film director."),
      ["gregor gore verbinski", "gore verbinski", "gregor verbinski"]
    );
    assert_eq!(
      lead_title("Lucius Verus (Latin: \"Lucius Aurelius Verus\"; 130 – 169) was co-emperor.").as_deref(),
      Some("lucius verus")
    );
    assert_eq!(
      lead_title("Monica Seles ( ; Hungarian: \"Szeles Mónika\") is a player.").as_deref(),
      Some("monica seles")
    );
    assert_eq!(
      lead_titles(
        "Hirdesh Singh (born 1983), better known by his stage name Yo Yo Honey Singh, is a rapper."
      ),
      ["hirdesh singh", "yo yo honey singh", "honey singh", "yo singh"]
    );
    assert!(
      lead_titles("Cielos del Sur S.A., operating as Austral Líneas Aéreas, is an airline.")
        .contains(&"austral líneas aéreas".to_owned())
    );
    assert_eq!(
      lead_titles("Ed Wood is known as the worst director."),
      ["ed wood"]
    );
    assert!(
      lead_titles("Jermaine Lamarr Cole, better known by his stage name J. Cole, is a rapper.")
        .contains(&"j. cole".to_owned())
    );
    assert_eq!(
      lead_titles("The Pennsylvania State University is a university."),
      [
        "the pennsylvania state university",
        "pennsylvania state university"
      ]
    );
    assert_eq!(lead_title("It was dissolved in 2010."), None);
    assert_eq!(lead_title("This was dissolved in 2010."), None);
    assert_eq!(lead_title("the lower-case start of a note."), None);
  }
}
