//! Titles, and where text names them: the links between sections.

use std::borrow::Cow;

use super::index::fold_ascii;
use crate::core::citations::{percent_decoded, tag_len, without_closing_tag};
use crate::core::segment::{
  after_stamp, before_barred_field, call_arguments, document_stem, field_line, field_title, file_header,
  inner_text, is_inline_tag, is_markup_only, is_title_attribute, is_title_element, is_title_line,
  is_titled_tag, json_title, json_unescaped, json_written, later_field_title, latex_heading_title,
  match_prefix, quoted_heading, tag_title, titled_rule, without_addresses, without_org_tags,
  without_ornaments, without_tags,
};
use crate::core::sentences::stands_before_name;
use crate::core::terms::{is_stop_word, push_folded};

/// A heading's title, case-folded: without `#` or `==` marks, a number (`3.`), a link's
/// address, or the bold marks and the colon or full stop of a bold lead (see `title`).
pub(super) fn heading_title(heading: &str) -> String {
  // A JSON record's heading: the value of its title member (`record_title`).
  if let Some(named) = json_title(heading) {
    return record_title(named);
  }
  let end = [':', '.'];
  // A setext heading's underline is no part of its title.
  let whole = heading;
  // Nor is markup over it (`<div class="result">` over `<div class="title">Ed Wood</div>`).
  let heading = heading.lines().find(|l| !is_markup_only(l)).unwrap_or(heading);
  // A heading laid out in columns (a page's running header, `Ed Wood      Page 3`) is
  // named by its first.
  let heading = match heading.trim().split_once(COLUMN_GAP) {
    Some((first, _))
      if first
        .trim_start_matches(['#', '='])
        .contains(char::is_alphanumeric) =>
    {
      first
    }
    _ => heading,
  };
  // A file's header, or the file a search's matches are in (`match_prefix`).
  if let Some(path) = file_header(heading).or_else(|| match_prefix(heading).map(|(file, _)| file)) {
    return title(&name_of(path));
  }
  if let Some(named) = tag_title(heading)
    .or_else(|| field_title(heading))
    .or_else(|| later_field_title(whole))
  {
    return record_title(named);
  }
  if let Some(named) = latex_heading_title(heading).or_else(|| titled_rule(heading)) {
    return title(named);
  }
  // A heading in markup (`<p><b>Ed Wood</b></p>`, `<b>Ed Wood</b><br>`) is read inside its tags.
  let heading = match heading.trim_start() {
    t if t.starts_with('<') => inner_text(t.trim_end().trim_end_matches([':', '.'])),
    _ => heading,
  };
  // A heading held in a JSON string (`"## Ed Wood\n",`).
  let heading = quoted_heading(heading).unwrap_or(heading);
  // An org-mode heading's tags (`* Ed Wood :wiki:`) are no part of its title.
  let t = without_org_tags(
    heading
      .trim_start_matches(['#', '='])
      .trim_end_matches('=')
      .trim(),
  )
  .trim_end_matches(end);
  // A heading's address is no part of its title (`**[Ed Wood](https://…)**`, `Ed Wood -
  // https://…`), nor its pictographs (`📄 **Ed Wood**`).
  let shown = without_addresses(without_ornaments(t));
  // A numbered heading (`### 3. Ed Wood`, `1.2 Ed Wood`, `B. Ed Wood`, `II. Ed Wood`), a
  // linked one (`### [Ed Wood](#ed-wood)`).
  let t = without_enumerator(without_mark(&shown));
  let t = t
    .strip_prefix('[')
    .and_then(|rest| rest.split_once("]("))
    .filter(|_| t.ends_with(')'))
    .map_or(t, |(text, _)| text);
  // An INI section's header (`[Ed Wood]`).
  let t = t
    .strip_prefix('[')
    .and_then(|rest| rest.strip_suffix(']'))
    .filter(|name| !name.contains(['[', ']']))
    .unwrap_or(t);
  // A bold heading's own number (`**1. Ed Wood**`).
  let t = without_enumerator(without_mark(t.trim_matches(['*', '_'])));
  title(t.trim_end_matches(end))
}

/// Spaces that set a heading's columns apart: wider than a sentence's gap after its full
/// stop (two spaces, as typewriters set it).
const COLUMN_GAP: &str = "   ";

/// A heading's names: its title, or each of the titles it lists (`## Brassia; Achimenes`,
/// as a report's paragraph that cites two sources is titled).
pub(super) fn heading_titles(heading: &str) -> Vec<String> {
  let whole = heading_title(heading);
  // Not at an HTML entity's semicolon (`Julie &amp; Julia`).
  let entity = |before: &str| {
    let word = before.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '#');
    word.ends_with('&') && word.len() < before.len()
  };
  let mut names = Vec::new();
  let mut from = 0;
  for (at, _) in whole.match_indices("; ").filter(|&(at, _)| !entity(&whole[..at])) {
    names.push(title(&whole[from..at]));
    from = at + 2;
  }
  if from == 0 {
    return vec![whole];
  }
  names.push(title(&whole[from..]));
  names.retain(|t| !t.is_empty());
  names
}

/// Whether a heading is a label over what follows, a key and its colon with no value
/// (`## Tool Output:`, `### Observation:`): it says what kind of text follows, not what it is
/// about.
pub(super) fn is_label_heading(heading: &str) -> bool {
  let t = heading.trim().trim_start_matches('#').trim();
  t.strip_suffix(':').is_some_and(|key| {
    !key.is_empty()
      && key.len() <= MAX_LABEL_HEADING
      && !key.contains(':')
      && key.split_whitespace().count() <= MAX_LABEL_WORDS
  })
}

/// A label heading's key is a field's name: this many bytes at most.
const MAX_LABEL_HEADING: usize = 32;

/// A cited source's title as a name (`Ed Wood (film)` is "ed wood": see `title`).
pub(super) fn source_title(name: &str) -> String {
  title(name)
}

/// A record's title member as a name: an address by its last part (`"source":
/// "https://…/wiki/Ed_Wood"` is "ed wood"), other text as a title (`AC/DC`).
pub(super) fn record_title(value: &str) -> String {
  let value = json_unescaped(value);
  if value.contains("://") {
    title(&name_of(&value))
  } else {
    title(&value)
  }
}

/// The names of a record written as fields, one a line (a ReAct step's `Thought: …` over
/// `Action: wikipedia`, `Action Input: Ed Wood`, `Observation: …`): the values that are
/// title lines, a call's argument for a value written as one (`Search[Ed Wood]`). Of
/// different things, as a call's values are. `None` for a paragraph that opens with no
/// field or holds one only, or that has a title field (`Title: Ed Wood`), which names it.
pub(super) fn record_names(paragraph: &str) -> Option<Vec<String>> {
  let mut lines = paragraph.lines();
  let first = field_line(lines.next()?)?;
  let fields: Vec<(&str, &str)> = std::iter::once(first)
    .chain(lines.filter_map(field_line))
    .collect();
  if fields.len() < 2 || fields.iter().any(|&(key, _)| is_title_attribute(key)) {
    return None;
  }
  let names = fields
    .iter()
    .map(|&(_, value)| called_with(value).unwrap_or(value))
    .filter(|v| is_title_line(v))
    .map(line_title)
    .filter(|n| !n.is_empty())
    .collect();
  Some(names)
}

/// The argument of a call written as a value (`Search[Ed Wood]`, `lookup("Ed Wood")`): a
/// word, then the argument in brackets or parentheses closing the value, quotes stripped.
fn called_with(value: &str) -> Option<&str> {
  let open = value.find(['[', '('])?;
  let close = match value.as_bytes()[open] {
    b'[' => ']',
    _ => ')',
  };
  let name = &value[..open];
  let argument = value[open + 1..].strip_suffix(close)?;
  let word = !name.is_empty() && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
  word.then(|| argument.trim().trim_matches(['"', '\'']))
}

/// A name as a title, case-folded: without a trailing "(…)" or ", …" qualifier, which text
/// that names the thing leaves out ("Kiskiack (Lee House)" is named "Kiskiack").
fn title(name: &str) -> String {
  let mut t = without_ornaments(name.trim());
  // A tag in brackets before the title is no part of it: a mailing list's (`[Research-l]
  // Ed Wood`), a search hit's kind (`[PDF] Ed Wood`).
  while let Some((_, rest)) = t
    .strip_prefix('[')
    .and_then(|r| r.split_once("] "))
    .filter(|(tag, rest)| !tag.contains(['[', ']']) && !rest.trim().is_empty())
  {
    t = rest.trim_start();
  }
  let t = match t.rfind(" (") {
    Some(i) if t.ends_with(')') => &t[..i],
    _ => t,
  };
  // "Santa Fe, Missouri": text names the place before the comma.
  let t = t.split_once(", ").map_or(t, |(name, _)| name);
  fold_ascii(t)
}

/// A title line's name (`is_title_line`): its title without its address (`Ed Wood -
/// https://…` is "ed wood").
fn line_title(line: &str) -> String {
  title(&without_addresses(line))
}

/// A title line without the marks wrapped around the whole of it: emphasis (`_Ed Wood_`,
/// `***Ed Wood***`), code (`` `Ed Wood` ``), brackets (`[Ed Wood]`, `【Ed Wood】`); `None`
/// where none wraps it.
fn unwrapped(line: &str) -> Option<&str> {
  const WRAPS: [(&str, &str); 8] = [
    ("**", "**"),
    ("__", "__"),
    ("*", "*"),
    ("_", "_"),
    ("`", "`"),
    ("[", "]"),
    ("【", "】"),
    ("「", "」"),
  ];
  let mut t = line.trim();
  let mut found = false;
  while let Some(inner) = WRAPS.iter().find_map(|&(open, close)| {
    let inner = t.strip_prefix(open)?.strip_suffix(close)?;
    // One pair around the whole line, not two marked words (`*Ed* and *Tim*`).
    (!inner.contains(close) && !inner.trim().is_empty()).then_some(inner)
  }) {
    t = inner.trim();
    found = true;
  }
  found.then_some(t)
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

/// Which sections a task names (`named_titles`), read without case or diacritics on
/// either side: a task typed "Julian Castro" names "Julián Castro", "Émile Zola" names
/// "Émile Zola" (a title keeps a capital that is not ASCII; the task is lower-cased).
pub(super) fn titles_named_by_task(task: &str, titles: &[Vec<String>]) -> Vec<bool> {
  if task.is_ascii() && titles.iter().flatten().all(|t| t.is_ascii()) {
    return named_titles(task, titles);
  }
  let fold = |t: &str| {
    let mut folded = String::with_capacity(t.len());
    push_folded(&mut folded, t);
    folded
  };
  let titles: Vec<Vec<String>> = titles
    .iter()
    .map(|names| {
      names
        .iter()
        .map(|t| if t.is_ascii() { t.clone() } else { fold(t) })
        .collect()
    })
    .collect();
  named_titles(&fold(task), &titles)
}

/// Where `body` names `title` as whole words.
pub(super) fn name_spans(body: &str, title: &str) -> Vec<(usize, usize)> {
  let mut spans = spans_of(body, title);
  // JSON written in ASCII (Python's `json.dumps`) names `Blériot` as `Bl\u00e9riot`.
  if !title.is_ascii() && body.contains("\\u") {
    spans.extend(spans_of(body, &json_written(title, true)));
    spans.sort_unstable();
  }
  spans
}

/// Where `body` names `title` as whole words, as it is written.
fn spans_of(body: &str, title: &str) -> Vec<(usize, usize)> {
  let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
  if title.is_empty() {
    return Vec::new();
  }
  let whole = |&(at, end): &(usize, usize)| {
    boundary(body[..at].chars().next_back()) && boundary(body[end..].chars().next())
  };
  // A vectorized finder pays for itself on long text; a segment or a task is searched
  // as it is (building the finder took a quarter of a spawn's time with siblings).
  if body.len() < FINDER_BYTES {
    return body
      .match_indices(title)
      .map(|(at, _)| (at, at + title.len()))
      .filter(whole)
      .collect();
  }
  let finder = memchr::memmem::Finder::new(title.as_bytes());
  let mut spans = Vec::new();
  let mut from = 0;
  // Finds do not overlap, as with `match_indices`.
  while let Some(found) = finder.find(&body.as_bytes()[from..]) {
    let at = from + found;
    from = at + title.len();
    if whole(&(at, from)) {
      spans.push((at, from));
    }
  }
  spans
}

/// Text shorter than this is searched for a name without building a vectorized finder:
/// a segment, a task or a short message, where building the finder costs more than the
/// search it speeds up; a thread's whole text is far longer.
const FINDER_BYTES: usize = 4096;

/// A tool call's names: what it names. The call line is `→ name {arguments}`; each of its
/// arguments' short string values names what the call brought back: a URL or path by its
/// last part (`…/wiki/Harvey_Pekar` is "harvey pekar", `src/api/users.ts` is "users.ts"),
/// other text as it is, and a slug (`Harvey_Pekar`) by its words as well. A command or a
/// sentence that holds a page's address is named by the page alone (`curl -s
/// https://…/Harvey_Pekar | jq .extract`); other long values (a command line, a file's
/// content) name nothing.
pub(super) fn call_titles(line: &str) -> Vec<String> {
  let Some(at) = line.find('{') else {
    return Vec::new();
  };
  argument_titles(string_values(&line[at..]))
}

/// The names of a heading that is a line of code calling with strings, as a notebook
/// cell's source is (`print(wiki.summary("Ed Wood"))`, `search(query='Ed Wood', k=3)`):
/// its strings, read as a tool call's arguments are (`call_titles`). None for another
/// heading.
pub(super) fn code_call_titles(heading: &str) -> Option<Vec<String>> {
  let line = json_unescaped(json_title(heading)?);
  Some(argument_titles(quoted_values(
    call_arguments(&line)?,
    (b'"', b'\''),
  )))
}

/// The names a call's string arguments give (see `call_titles`).
fn argument_titles(values: impl Iterator<Item = String>) -> Vec<String> {
  let mut names: Vec<String> = Vec::new();
  for v in values {
    if let Some(name) = fetched_address(&v).map(name_of).filter(|n| opens_as_name(n)) {
      names.push(title(&name));
      continue;
    }
    if v.len() > MAX_TITLE_BYTES {
      continue;
    }
    // A question or a sentence (a search for the task itself) is said whole: it is no
    // name with a qualifier after its comma.
    let v = name_of(&v);
    if v.ends_with(['?', '.', '!']) {
      names.push(fold_ascii(&v));
      continue;
    }
    if let Some(words) = slug_words(&v) {
      names.push(title(&words));
    }
    names.push(title(&v));
  }
  names.retain(|v| !v.is_empty());
  names.sort_unstable();
  names.dedup();
  names
}

/// The address a command or a sentence holds (`curl -s "https://…/Ed_Wood" | jq …`): its
/// one word with `://` in it, without quotes. None in a value that is an address itself.
fn fetched_address(value: &str) -> Option<&str> {
  if value.len() > MAX_COMMAND_BYTES || !value.contains(char::is_whitespace) {
    return None;
  }
  let mut addresses = value
    .split_whitespace()
    .map(|w| w.trim_matches(['"', '\'', '<', '>', '(', ')']))
    .filter(|w| w.contains("://"));
  let first = addresses.next()?;
  addresses.next().is_none().then_some(first)
}

/// A page's slug spelled as its title (`Siege_of_Salto` is "Siege of Salto"): a value of
/// one word whose underscores join words, opening with a capital or a digit and not all
/// capitals (`1960_Summer_Olympics`). Not an identifier (`create_user`, `MAX_SIZE`), which
/// text writes as it is, nor a path or an address (`name_of` spells those).
fn slug_words(value: &str) -> Option<String> {
  let b = value.as_bytes();
  let joins = (1..b.len().saturating_sub(1))
    .any(|i| b[i] == b'_' && b[i - 1].is_ascii_alphanumeric() && b[i + 1].is_ascii_alphanumeric());
  let capitalized = opens_as_name(value) && value.contains(char::is_lowercase);
  (joins && capitalized && !value.contains(char::is_whitespace)).then(|| value.replace('_', " "))
}

/// Whether a value opens as a page's name does, with a capital or a digit (`Ed_Wood`,
/// `1960_Summer_Olympics`), not as code and the paths of an application's routes do
/// (`create_user`, `api/users`: naming a local request by `users` cost the threads' own
/// files named 0.925 -> 0.924).
fn opens_as_name(value: &str) -> bool {
  value.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
}

/// Whether a call line's arguments hold no text at all (`next_page {"page": 2}`, `list {}`):
/// such a call says nothing of what it brings back. A long value (a command, a file's
/// content) names nothing either, but it is what the call did.
pub fn asks_for_nothing(line: &str) -> bool {
  line
    .find('{')
    .is_none_or(|at| string_values(&line[at..]).next().is_none())
}

/// Argument values longer than this are content (a file's, a message), not a command line
/// that fetches a page: a call's content is not searched for an address.
const MAX_COMMAND_BYTES: usize = 1024;

/// Argument values longer than this are content (code, a message), not a name.
const MAX_TITLE_BYTES: usize = 120;

/// What a value names: the last part of a URL (its words: `_` and `-` are spaces) or of a
/// path; a document's file by its title (`wiki/Ed_Wood.md` is "Ed Wood", as its address
/// would be), a program's by its name (`users.ts`); text with spaces as it is.
fn name_of(value: &str) -> String {
  if value.contains(char::is_whitespace) {
    return value.trim().to_owned();
  }
  let url = value.contains("://");
  let path = value.split(['?', '#']).next().unwrap_or(value);
  let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or(path);
  if let Some(asked) = url.then(|| query_name(value, last)).flatten() {
    return asked;
  }
  let last: Cow<str> = if url {
    percent_decoded(last).into()
  } else {
    last.into()
  };
  match document_stem(&last) {
    Some(stem) => stem.replace(['_', '-'], " "),
    None if url => last.replace(['_', '-'], " "),
    None if value.contains('/') => last.into_owned(),
    None => value.to_owned(),
  }
}

/// The name an address asks for in its query, where its path names a program or a search
/// and no page (`…/w/api.php?action=query&titles=Ed%20Wood`, `…/search?q=Ed+Wood`): its first
/// parameter's value that reads as a name, a capital then lower case. Not a page's address
/// with options (`…/wiki/Ed_Wood?action=edit`), whose page names it.
fn query_name(address: &str, last: &str) -> Option<String> {
  if last.starts_with(char::is_uppercase) {
    return None;
  }
  let query = address.split_once('?')?.1.split('#').next()?;
  query
    .split('&')
    .filter_map(|p| p.split_once('='))
    .map(|(_, v)| percent_decoded(&v.replace('+', " ")))
    .find(|v| v.starts_with(char::is_uppercase) && v.contains(char::is_lowercase))
}

/// The string values of a JSON text (keys left out), unescaped for `\"` and `\\`
/// only: a title needs its words, not exact JSON.
fn string_values(json: &str) -> impl Iterator<Item = String> + '_ {
  quoted_values(json, (b'"', b'"'))
}

/// The values quoted in `text` in either of `quotes` (keys, a quote followed by `:`, left
/// out), their escapes read.
fn quoted_values(text: &str, quotes: (u8, u8)) -> impl Iterator<Item = String> + '_ {
  let b = text.as_bytes();
  let mut i = 0;
  std::iter::from_fn(move || loop {
    let open = i + memchr::memchr2(quotes.0, quotes.1, &b[i..])?;
    let quote = b[open];
    let mut j = open + 1;
    while j < b.len() && b[j] != quote {
      j += if b[j] == b'\\' { 2 } else { 1 };
    }
    let value = text.get(open + 1..j.min(b.len())).unwrap_or_default();
    i = (j + 1).min(b.len());
    let key = text[i..].trim_start().starts_with(':');
    if !key {
      return Some(json_unescaped(value).into_owned());
    }
  })
}

/// A lead without its item's mark: a bullet, a number (`1.`, `2)`, a section's `1.2`), a
/// search result's index (`[2]`, `(2)`), a row's index cell (`2,`), a table row's opening
/// `|`, or a block quote's `>`.
fn without_mark(lead: &str) -> &str {
  let t = lead.trim_start();
  if let Some(rest) = numbered_label(t).or_else(|| section_number(t)) {
    return rest;
  }
  // Full-width brackets need no space after them (`【2】Ed Wood`, as CJK search tools write).
  for (open, close) in [('[', ']'), ('(', ')'), ('【', '】')] {
    if let Some(rest) = t.strip_prefix(open) {
      let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
      if let Some(after) = rest[digits..]
        .strip_prefix(close)
        .filter(|a| digits > 0 && (a.starts_with(' ') || !close.is_ascii()))
      {
        return after.trim_start();
      }
    }
  }
  let digits = t.bytes().take_while(u8::is_ascii_digit).count();
  // A row's index cell (`1,"Ed Wood",…`, `1\tEd Wood\t…`, a printed table's `1   Ed Wood   …`),
  // not a number (`1,000`, `1, 2`, `1 Ed Wood`).
  let cell = t[digits..].strip_prefix([',', '\t']);
  let padded = || t[digits..].strip_prefix("  ").map(|r| r.trim_start_matches(' '));
  if let Some(rest) = cell.or_else(padded) {
    if digits > 0 && rest.starts_with(|c: char| !c.is_ascii_digit() && !c.is_whitespace()) {
      return rest;
    }
  }
  match t[digits..].strip_prefix(['.', ')']) {
    Some(rest) if digits > 0 && rest.starts_with(' ') => rest.trim_start(),
    // `**Ed Wood**` opens with bold, which `written_title` reads, not with a bullet.
    _ if t.starts_with("**") => t,
    _ => t
      .strip_prefix(['-', '*', '+', '|', '>'])
      .map_or(t, |rest| rest.trim_start()),
  }
}

/// A heading's title without the letter or Roman numeral that enumerates an outline's
/// section (`B. Ed Wood`, `II. Findings`; its number is `without_mark`'s). Not an initial's
/// (`A. A. Milne`: a second initial follows).
fn without_enumerator(t: &str) -> &str {
  let Some((label, rest)) = t.split_once(". ") else {
    return t;
  };
  let lettered = label.len() == 1 && label.bytes().all(|b| b.is_ascii_uppercase())
    || label.len() <= MAX_ROMAN
      && !label.is_empty()
      && label.bytes().all(|b| matches!(b, b'I' | b'V' | b'X'));
  let rest = rest.trim_start();
  let initial = rest.len() > 1 && rest.as_bytes()[1] == b'.' && rest.as_bytes()[0].is_ascii_uppercase();
  if lettered && names_after_label(rest) && !initial {
    rest
  } else {
    t
  }
}

/// What follows a section's number of several levels (`1.2 Ed Wood`, `3.1. Ed Wood`), as a
/// numbered heading or a numbered paragraph's title line opens: not a number's (`1.5
/// million`).
fn section_number(t: &str) -> Option<&str> {
  let (label, rest) = t.split_once(' ')?;
  let label = label.strip_suffix('.').unwrap_or(label);
  let levels = label.split('.').count() > 1
    && label
      .split('.')
      .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
  let rest = rest.trim_start();
  (levels && names_after_label(rest)).then_some(rest)
}

/// Whether what follows a label opens as a name does: a capital, a digit or a quote.
fn names_after_label(rest: &str) -> bool {
  rest.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit() || c == '"')
}

/// A section's Roman numeral is this long at most (`VIII`).
const MAX_ROMAN: usize = 4;

/// What follows a numbered label a record opens with: a word and a number before a colon,
/// a cell's bar or the line's end (`Doc 3: Ed Wood`, `Result 3 | Ed Wood`, `Passage 3`
/// over the text), or a label field of a number on a line of its own (`Document: 3` over
/// `title: Ed Wood`). Not before a comma: `Route 66, also known as …` names Route 66.
fn numbered_label(t: &str) -> Option<&str> {
  let word = t.bytes().take_while(u8::is_ascii_alphabetic).count();
  if word == 0 || word > MAX_LABEL_WORD || !t.starts_with(|c: char| c.is_ascii_uppercase()) {
    return None;
  }
  let after = &t[word..];
  let (number, colon) = match after.strip_prefix(": ") {
    Some(rest) => (rest, true),
    None => (after.strip_prefix(' ')?, false),
  };
  let digits = number.bytes().take_while(u8::is_ascii_digit).count();
  if digits == 0 || digits > MAX_LABEL_DIGITS {
    return None;
  }
  // Of how many (`Result 1 of 10: Ed Wood`).
  let rest = &number[digits..];
  let rest = rest
    .strip_prefix(" of ")
    .map(|of| of.trim_start_matches(|c: char| c.is_ascii_digit()))
    .filter(|after| after.len() < rest.len() - 4)
    .unwrap_or(rest);
  let line_end = rest.trim_start_matches([' ', '\t']).starts_with(['\n', '\r']);
  let rest = if line_end {
    rest.trim_start()
  } else if colon {
    return None;
  } else {
    rest
      .strip_prefix(':')
      .or_else(|| rest.strip_prefix(" |"))?
      .trim_start()
  };
  (!rest.is_empty()).then_some(rest)
}

/// Whether a unit's first line names nothing, so that the unit leads with the line after
/// it: a numbered label and nothing more (`Document: 3` over `title: Ed Wood`), markup
/// alone that is no titled tag (`<results>` over the first document), a placeholder in
/// braces (a chat export's `{Embed}`), an address alone (the link over its preview) or a
/// message's header: its stamp and who wrote it (`[3/1/2024 10:02 AM] bob` over the message).
pub(super) fn names_nothing(line: &str) -> bool {
  let t = line.trim();
  if after_stamp(t)
    .is_some_and(|who| who.split_whitespace().count() <= MAX_AUTHOR_WORDS && !who.contains(':'))
  {
    return true;
  }
  if t.starts_with('<') {
    return !is_titled_tag(t) && without_tags(t).is_empty();
  }
  let placeholder = t.len() > 2
    && t.starts_with('{')
    && t.ends_with('}')
    && t[1..t.len() - 1]
      .bytes()
      .all(|b| b.is_ascii_alphanumeric() || b == b'_');
  if placeholder || t.contains("://") && !t.contains(char::is_whitespace) {
    return true;
  }
  t.starts_with(|c: char| c.is_ascii_uppercase() || c == '[') && (is_bare_label(t) || is_id_label(t))
}

/// A message header's author is a name or a handle: this many words at most (`Ada
/// Lovelace (she/her)`).
const MAX_AUTHOR_WORDS: usize = 3;

/// Whether a line is a word alone before its colon (`Observation:`, `Output:`): under a
/// line that names nothing it labels what follows, and names nothing either. Not alone:
/// a list's `Sources:` over it is the list's title.
pub(super) fn is_lone_label(line: &str) -> bool {
  let Some(word) = line.trim().strip_suffix(':') else {
    return false;
  };
  (1..=MAX_LABEL_WORD).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_alphabetic())
}

/// Whether a line is a label over an identifier and nothing more (`Call id: call_0`,
/// `Request ID: 7f3a9c`, `ToolCallId: toolu_01`): a machine's name for a record, which
/// no task says.
fn is_id_label(line: &str) -> bool {
  let Some((key, value)) = line.split_once(": ") else {
    return false;
  };
  let (key, value) = (key.trim_end(), value.trim());
  let names_id = key.len() <= MAX_ID_KEY
    && (key.ends_with("Id") || key.ends_with("ID") || key.ends_with("_id") || key.ends_with(" id"));
  names_id && !value.is_empty() && !value.contains(char::is_whitespace)
}

/// An identifier's key is a field's name (`Call id`, `tool_call_id`), not a sentence.
const MAX_ID_KEY: usize = 24;

/// Whether a line is a numbered label and nothing more, written as one (`Document: 3`,
/// `Result 12:`, `[3]`): `Apollo 11` or `Route 66` alone is a name.
fn is_bare_label(line: &str) -> bool {
  let t = line.trim();
  let colon = t.ends_with(':');
  let t = t.trim_end_matches(':');
  let number = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')).or_else(|| {
    let word = t.bytes().take_while(u8::is_ascii_alphabetic).count();
    let rest = &t[word..];
    (word <= MAX_LABEL_WORD && t.starts_with(|c: char| c.is_ascii_uppercase()))
      .then(|| {
        rest
          .strip_prefix(": ")
          .or_else(|| rest.strip_prefix(' ').filter(|_| colon))
      })
      .flatten()
  });
  number.is_some_and(|n| (1..=MAX_LABEL_DIGITS).contains(&n.len()) && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A numbered label's word is a short one (`Document`, `Passage`, `Result`)…
const MAX_LABEL_WORD: usize = 12;
/// …and its number a record's index, not a year's or a count's (`Chapter 1984:` is no label).
const MAX_LABEL_DIGITS: usize = 3;

/// A title a lead writes as one: bold (`**Ed Wood**: …`), a line of its own (`Ed Wood`
/// over the text), or short before a dash, a colon, a tab or a table's next cell (`Ed Wood
/// — …`, `| Ed Wood | …`). `Err` for a bold mark
/// never closed.
fn written_title(t: &str) -> Result<Option<String>, ()> {
  // A title's address is no part of it (`**[Ed Wood](https://…)**`, `Ed Wood - https://…`).
  for mark in ["**", "__", "*", "_"] {
    if let Some(rest) = t.strip_prefix(mark) {
      let name = without_addresses(&rest[..rest.find(mark).ok_or(())?]);
      // Its own number (`**1. Ed Wood**`).
      let name = without_mark(name.trim_end_matches([':', '.', ' ']));
      return Ok((!name.is_empty() && name.len() <= MAX_TITLE_BYTES).then(|| title(name)));
    }
  }
  // A lead that is a title line of its own (a search result's title over its text).
  if is_title_line(t) {
    return Ok(Some(line_title(t)));
  }
  for separator in [" — ", " – ", ": ", " | ", "\t"] {
    if let Some((name, _)) = t.split_once(separator) {
      // A qualifier closes a title ("Louder Than Bombs (film): …"); a bracket or quote
      // open before the colon is the name's gloss or a note ("Ed Wood (Latin: …", "Michael
      // Tippett {'1': …"), and a full stop
      // other than an initial's ends a sentence: neither is a lead of its own.
      let bare = match name.rfind(" (") {
        Some(i) if name.ends_with(')') => &name[..i],
        _ => name,
      };
      let stops = bare.split(' ').any(|w| w.contains('.') && !is_initial(w));
      if name.len() <= MAX_LEAD_BYTES
        && !stops
        && !bare.contains(['!', '?', ',', '(', ')', '[', ']', '{', '}', '"', ';'])
      {
        return Ok(Some(title(name)));
      }
    }
  }
  Ok(None)
}

/// The name in quotes a short label ends with (`According to the article "Ed Wood"`,
/// `From “Ed Wood” (Wikipedia)`), the words before it no sentence.
fn quoted_at_end(label: &str) -> Option<&str> {
  // A note after the name is no part of the label (`from "Ed Wood" (Wikipedia)`).
  let label = match label.rfind(" (") {
    Some(at) if label.ends_with(')') => &label[..at],
    _ => label,
  };
  let (open, close) = if label.ends_with('”') {
    ('“', '”')
  } else {
    ('"', '"')
  };
  let inner = label.strip_suffix(close)?;
  let at = inner.rfind(open)?;
  let (words, name) = (&inner[..at], &inner[at + open.len_utf8()..]);
  (words.len() <= MAX_LEAD_BYTES
    && !words.contains(['.', '!', '?', '"', ':'])
    && !name.trim().is_empty()
    && name.len() <= MAX_TITLE_BYTES)
    .then_some(name)
}

/// The text of a title element (`<h3>`, `<title>`: `TITLE_ELEMENTS`) among the tags a lead
/// opens with, or the title attribute of one of them.
fn opening_element_title(t: &str) -> Option<&str> {
  let mut rest = t;
  while let Some(after) = rest.strip_prefix('<') {
    let close = after.find('>')?;
    let name = &after[..close];
    // A tag that names what it wraps (`<document title="Ed Wood" source="…">…`, `<finding
    // source="Ed Wood">…`); not by a `name=` field's name, which says what the element
    // holds (`<str name="id">7</str>`), not what it is about.
    let tag = &rest[..close + 2];
    if let Some(named) = tag_title(tag).filter(|_| !tag.contains(" name=\"")) {
      return Some(named);
    }
    rest = &after[close + 1..];
    if is_title_element(name) {
      return rest.find("</").map(|end| rest[..end].trim());
    }
  }
  None
}

/// The value of a title field a lead opens with, up to the next field (`title: Ed Wood
/// context: …`), the fields being named by one lower-case word.
fn opening_field_title(t: &str) -> Option<&str> {
  let (key, value) = t.split_once(": ")?;
  if !is_title_attribute(key) {
    return None;
  }
  let value = before_barred_field(value);
  let next = value.match_indices(": ").find_map(|(at, _)| {
    let key_start = value[..at].rfind(' ')? + 1;
    let key = &value[key_start..at];
    (!key.is_empty() && key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')).then_some(key_start)
  })?;
  Some(value[..next].trim())
}

/// The value of a title field written inline and quoted in a record on one line, before
/// its first sentence ends: logfmt's `title="Ed Wood"`, a keyword argument's
/// `title='Ed Wood'`, a dict's `'title': 'Ed Wood'` (Python's print of a record). A title
/// field is read before other title-like ones (a `source` address before it). A lead that
/// opens a list (`[Document(metadata={…}, …), Document(…)]`) is no one record's, and one
/// that opens an object is JSON's, titled by what holds it when it is one record (a
/// catalog's `{"name":"get_page",…}` names no page).
fn inline_field_title(t: &str) -> Option<&str> {
  let line = t.lines().next().filter(|l| !l.starts_with(['[', '{']))?;
  let mut head = &line[..line.find(". ").unwrap_or(line.len())];
  if head.len() > MAX_FIELDS_BYTES {
    let mut end = MAX_FIELDS_BYTES;
    while !head.is_char_boundary(end) {
      end -= 1;
    }
    head = &head[..end];
  }
  let fields: Vec<(&str, &str)> = head
    .match_indices(['=', ':'])
    .filter_map(|(at, sep)| {
      // A quoted value first: most `=` and `:` of code and prose are followed by none.
      let value = head[at + 1..].trim_start_matches(' ');
      let quote = value.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
      let before = &head[..at];
      let (key, from) = match before.chars().last()? {
        q @ ('\'' | '"') if sep == ":" => {
          let inner = &before[..before.len() - 1];
          let open = inner.rfind(q)?;
          (&inner[open + 1..], open)
        }
        _ if sep == "=" => {
          let open = before.rfind([' ', '(', '{', ',']).map_or(0, |i| i + 1);
          (&before[open..], open)
        }
        _ => return None,
      };
      // Not a tag's attribute (`<str name="id">`: titled tags are read as tags).
      let in_tag = head[..from]
        .rfind('<')
        .is_some_and(|lt| head[lt..from].find('>').is_none());
      let opens_field = !in_tag && (from == 0 || head[..from].ends_with([' ', '(', '{', ',']));
      let value = &value[1..];
      let value = &value[..value.find(quote)?];
      (opens_field && !key.is_empty()).then_some((key, value.trim()))
    })
    .collect();
  // One quoted field is prose's or code's (`directed it (source="Variety")`, `def
  // greet(name="World")`); a record writes several.
  if fields.len() < MIN_INLINE_FIELDS {
    return None;
  }
  // A field named a title before other title-like ones (a `source` address).
  let titles: Vec<&(&str, &str)> = fields
    .iter()
    .filter(|(key, value)| is_title_attribute(key) && !value.is_empty())
    .collect();
  titles
    .iter()
    .find(|(key, _)| key.to_ascii_lowercase().ends_with("title"))
    .or(titles.first())
    .map(|&&(_, value)| value)
}

/// A record on one line writes at least this many quoted fields (logfmt's `msg="…"
/// title="…"`, a dict's `'source': '…', 'title': '…'`).
const MIN_INLINE_FIELDS: usize = 2;
/// Its fields are sought in this many bytes of its line: a record's header (an address, an
/// id, a rank, its title) comes first, and the search stays linear in the line's length.
const MAX_FIELDS_BYTES: usize = 512;

/// The value of a title field in brackets after a short label a lead opens with
/// (`Document [1] (Title: Ed Wood) …`, `Passage 2 [title: Ed Wood]: …`): the label's
/// groups are read in turn, each whole, however it nests (`(Title: Ray Turner (computer
/// scientist))`).
fn label_field_title(t: &str) -> Option<&str> {
  let mut at = 0;
  for _ in 0..MAX_LABEL_WORDS {
    let rest = &t[at..];
    let open = rest.chars().next()?;
    if let Some(close) = match open {
      '(' => Some(')'),
      '[' => Some(']'),
      _ => None,
    } {
      let mut depth = 0usize;
      let end = rest.char_indices().find_map(|(i, c)| {
        depth = if c == open {
          depth + 1
        } else if c == close {
          depth.saturating_sub(1)
        } else {
          depth
        };
        (c == close && depth == 0).then_some(i)
      })?;
      if let Some((key, value)) = rest[1..end].split_once(": ") {
        if is_title_attribute(key) {
          return Some(value.trim());
        }
      }
      at += end + 1;
    } else {
      // A label's word: letters or digits only, so that the label is no sentence's start.
      let word = rest.find(' ').unwrap_or(rest.len());
      if !rest[..word].chars().all(char::is_alphanumeric) {
        return None;
      }
      at += word;
    }
    at += t[at..].len() - t[at..].trim_start_matches(' ').len();
  }
  None
}

/// A label before a title field in brackets is this many words and groups at most
/// (`Document [1] (Title: …)` is three).
const MAX_LABEL_WORDS: usize = 4;

/// `text` without its groups in parentheses, brackets or braces (a gloss, a note, a
/// placeholder), spaces squeezed. Each kind is counted apart, so that a stray closing mark
/// of one kind ("(] ; born 1983)") does not end a group of another.
pub(super) fn without_parentheses(text: &str) -> String {
  let mut out = String::with_capacity(text.len());
  let mut depth = [0usize; 3];
  for c in text.chars() {
    match c {
      '(' | '[' | '{' => depth[bracket(c)] += 1,
      ')' | ']' | '}' => depth[bracket(c)] = depth[bracket(c)].saturating_sub(1),
      _ if depth == [0; 3] => out.push(c),
      _ => {}
    }
  }
  out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Which kind of bracket a mark opens or closes: round, square, curly.
fn bracket(c: char) -> usize {
  match c {
    '(' | ')' => 0,
    '[' | ']' => 1,
    _ => 2,
  }
}

/// The subject a lead sentence defines, as written before its verb: "Centaurium pulchellum
/// is a species", "The Karlskrona naval base (Swedish: …) is", "\"25 or 6 to 4\" is a
/// song". Its parentheses, quotes and a clause after a comma are left out; it must open
/// with a capital or a digit once an article is left out (so "The bug is…" names
/// nothing), be no phrase that introduces the sentence ("In 2008, photographs were…"),
/// be no clause opened by a function word ("Although the purpose of the ships is"), and
/// be short (`MAX_SUBJECT_WORDS`): a longer run is no name.
fn lead_subject(t: &str) -> Option<String> {
  let mut end = t.len().min(MAX_SUBJECT_SEARCH);
  while !t.is_char_boundary(end) {
    end -= 1;
  }
  let head = &t[..end];
  let verb = COPULAS.iter().filter_map(|v| head.find(v)).min()?;
  let subject = without_parentheses(&t[..verb]);
  let (subject, clause) = subject.split_once(',').unwrap_or((&subject, ""));
  if !clause.is_empty() && introduces(subject) {
    return None;
  }
  let subject = subject.replace(['"', '“', '”'], "");
  let subject = subject.trim();
  let bare = ["The ", "A ", "An "]
    .iter()
    .find_map(|a| subject.strip_prefix(a))
    .unwrap_or(subject);
  let opens = bare
    .chars()
    .next()
    .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit());
  let words = bare.split(' ').count();
  // A function word opens a name only where the words after it are capitalized as a
  // title's are ("Through the Looking-Glass"), not a clause ("Although the purpose of
  // the ships is…").
  let first = bare.split(' ').next().unwrap_or("").to_lowercase();
  let clause = is_stop_word(&first) && !reads_as_name(bare);
  (opens && words <= MAX_SUBJECT_WORDS && !clause && !is_stop_word(&bare.to_lowercase()))
    .then(|| title(subject))
}

/// The verbs after which a lead's subject ends ("X is a …").
const COPULAS: [&str; 4] = [" is ", " was ", " are ", " were "];

/// A subject is sought in this many bytes of a lead: a name, its parenthesized dates and
/// native spelling, and the verb.
const MAX_SUBJECT_SEARCH: usize = 160;

/// A subject of more words than this is a phrase, not a name (the longest titles of the
/// bench's documents, "The Missouri attorney general election of 2012", have seven).
const MAX_SUBJECT_WORDS: usize = 8;

/// The name a sentence opens with: its run of capitalized words (and the connectors
/// between them), up to the first other word or punctuation; none when it is a phrase
/// that introduces the sentence (`introduces`).
fn opening_name(sentence: &str) -> Option<&str> {
  let t = sentence.trim_start();
  let mut name_end = 0;
  let mut at = 0;
  for word in t.split(' ') {
    let start = at;
    at += word.len() + 1;
    // An em dash without spaces ends the name as punctuation does ("Abscam—sometimes
    // written ABSCAM—was"); an en dash joins ("Michelson–Morley experiment").
    let (word, dashed) = word.split_once('—').map_or((word, false), |(w, _)| (w, true));
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
    // Punctuation after a word ends the name, but for the full stop of an initial (`J.
    // Cole`) or of an abbreviation that stands before names (`Jack St. Clair Kilby`).
    if dashed || (trimmed.len() != word.len() && !is_initial(word) && !stands_before_name(word)) {
      break;
    }
  }
  let name = &t[..name_end];
  // A single stop word ("It", "This", "The") is no name.
  let stop = !name.contains(' ') && is_stop_word(&name.to_lowercase());
  let introductory = t[name_end..].starts_with(',') && introduces(name);
  (name_end > 0 && !stop && !introductory).then_some(name)
}

/// Whether words read as a name: after the first (which a sentence capitalizes anyway),
/// each opens with a capital or a digit or is a connector of names ("Through the
/// Looking-Glass"); a phrase before a comma with words in lower case ("In baseball,",
/// "Headquartered in Kansas City,") introduces the sentence and names nothing.
fn reads_as_name(words: &str) -> bool {
  words
    .split_whitespace()
    .skip(1)
    .all(|w| NAME_CONNECTORS.contains(&w) || !w.starts_with(|c: char| c.is_lowercase()))
}

/// Whether a word is an initial with its full stop (`J.` of `J. Cole`).
fn is_initial(word: &str) -> bool {
  word.len() == 2 && word.ends_with('.') && word.starts_with(|c: char| c.is_ascii_uppercase())
}

/// Whether words before a comma introduce the sentence with a time rather than name its
/// subject: they open with a stop word other than an article and hold a number ("On
/// March 27,", "In 2008,"), where a name does not ("Through the Looking-Glass, and What
/// Alice Found There").
fn introduces(words: &str) -> bool {
  let first = words.trim_start().split(' ').next().unwrap_or("").to_lowercase();
  is_stop_word(&first)
    && !ARTICLES.contains(&first.as_str())
    && (words.contains(|c: char| c.is_ascii_digit()) || !reads_as_name(words))
}

/// Words that join several things into one subject ("X and Y were the defending
/// champions", "X vs. Y was a fight"), case-folded.
const JOINING_WORDS: [&str; 6] = ["and", "&", "vs.", "vs", "v.", "versus"];

/// Articles, which open names ("The Hague") as they open sentences, and introduce nothing.
const ARTICLES: [&str; 3] = ["a", "an", "the"];

/// The ways text names what a paragraph leads with, and how many of them are its names
/// rather than short forms. Its names: a title written as one (bold, before a dash) and
/// the subject its lead sentence defines (`lead_subject`); otherwise also the name the
/// lead opens with and the other names it gives (`aliases`), each also without its
/// article and without a suffix that follows a name (`Inc.`, `Jr.`, `OBE`). Then the
/// short forms of those names (`shortened`), as people are named short ("Harvey Lawrence
/// Pekar" is "Harvey Pekar", "Clive Staples Lewis" is "C. S. Lewis").
pub(super) fn lead_titles(lead: &str) -> (Vec<String>, usize) {
  let labelled = numbered_label(lead.trim_start()).is_some();
  // A record in guillemets (`[1] «Ed Wood | …»`, as DSPy lists passages) opens with its title;
  // a pictograph before a title is no part of it (`📄 Ed Wood`).
  let t = without_ornaments(without_mark(lead));
  // Tags that title what they wrap (`<document title="Ed Wood">`) are read as its title.
  let t = if opening_element_title(t).is_some() {
    t
  } else {
    without_tags_around(t)
  };
  let t = link_read_as_text(t.trim_start_matches(['«', '‹']));
  let t = nicknames_joined(&t);
  let t = t.as_ref();
  let (mut names, primary) = lead_names_of(t, labelled);
  for name in &mut names {
    if name.contains(NICKNAME_SPACE) {
      *name = name.replace(NICKNAME_SPACE, " ");
    }
    if name.ends_with(['»', '›']) {
      *name = name.trim_end_matches(['»', '›']).to_owned();
    }
  }
  (names, primary)
}

/// A lead that opens with a link (`[Ed Wood - Wikipedia](https://…)` over a search result's
/// snippet, `[Ed Wood](https://…) was a filmmaker`), read as the link's text where it
/// stands: its words name what the lead does, its address is no part of them.
fn link_read_as_text(lead: &str) -> std::borrow::Cow<'_, str> {
  let read = || {
    let rest = lead.strip_prefix('[')?;
    let mid = rest.find("](")?;
    let words = &rest[..mid];
    let after = &rest[mid + 2..];
    let close = after.find(')')?;
    let address = &after[..close];
    let linked = !words.trim().is_empty()
      && !words.contains(['[', ']', '\n'])
      && !address.is_empty()
      && !address.contains(char::is_whitespace);
    linked.then(|| format!("{words}{}", &after[close + 1..]))
  };
  read().map_or(lead.into(), Into::into)
}

/// A lead without the inline tags around it (`<b>…</b>`, `<span class="claim">…</span>`):
/// markup, not its words. Block elements (`<p>`, `<summary>`) are left to what reads them.
fn without_tags_around(lead: &str) -> &str {
  let mut t = lead;
  while let Some(len) = tag_len(t).filter(|&len| !t.starts_with("</") && is_inline_tag(&t[..len])) {
    t = t[len..].trim_start();
  }
  loop {
    let end = t.trim_end();
    let before = without_closing_tag(end);
    let tag = &end[before.len()..];
    if !tag.starts_with("</") || !is_inline_tag(tag) {
      return t;
    }
    t = before;
  }
}

/// Stands for a space inside a nickname in quotes while a lead is read.
const NICKNAME_SPACE: char = '\u{a0}';

/// A lead whose nickname of several words in quotes inside a name (`Julius Caesar "J. C."
/// Watts`, `Richard Corey "Big Hoss" Harrison`) is made one word, as a nickname of one
/// word is (`NICKNAME_SPACE` for its spaces).
fn nicknames_joined(t: &str) -> std::borrow::Cow<'_, str> {
  let Some(open) = t.find(" \"") else {
    return t.into();
  };
  let inner = &t[open + 2..];
  let Some(close) = inner.find('"') else {
    return t.into();
  };
  let nick = &inner[..close];
  let capital = |w: &str| w.starts_with(|c: char| c.is_uppercase());
  let before = t[..open].rsplit(' ').next().unwrap_or("");
  let after = inner[close + 1..].strip_prefix(' ').unwrap_or("");
  if nick.contains(' ')
    && nick.split(' ').count() <= MAX_NICKNAME_WORDS
    && capital(nick)
    && capital(before)
    && capital(after)
  {
    format!(
      "{} \"{}\"{}",
      &t[..open],
      nick.replace(' ', &NICKNAME_SPACE.to_string()),
      &inner[close + 1..]
    )
    .into()
  } else {
    t.into()
  }
}

/// A nickname of more words than this is a quotation, not a name.
const MAX_NICKNAME_WORDS: usize = 3;

/// `lead_titles` of a lead whose nicknames are joined.
/// (`labelled`: the lead opened with a numbered label, now left out.)
fn lead_names_of(t: &str, labelled: bool) -> (Vec<String>, usize) {
  // A record's title field on a line of its own (`- title: Ed Wood` over `  text: …`, or
  // a lead of that line alone) is its title as written, whatever its case.
  // So is a record's on one line: an opening title element (`<h3>Ed Wood</h3><p>…`), a
  // title field before the next field (`title: Ed Wood text: …`), a quoted first cell
  // (`"Ed Wood","…"`).
  let one_line = || {
    opening_element_title(t)
      .or_else(|| opening_field_title(t))
      .or_else(|| label_field_title(t))
      .or_else(|| inline_field_title(t))
      // A label of words that closes on a name in quotes (`According to the article "Ed
      // Wood": …`, `Excerpt 3, from "Ed Wood" (Wikipedia): …`).
      .or_else(|| {
        let (label, _) = t.split_once(": ").filter(|_| t.starts_with(char::is_uppercase))?;
        quoted_at_end(label)
      })
      .or_else(|| {
        t.strip_prefix('"')
          .and_then(|rest| rest.split_once("\","))
          .map(|(cell, _)| cell)
      })
      .filter(|name| !name.trim().is_empty() && name.len() <= MAX_LEAD_BYTES)
  };
  let first_line = t.split_once('\n').map(|(first, _)| first);
  if let Some(field) = first_line
    .and_then(field_title)
    .or_else(one_line)
    .or_else(|| first_line.is_none().then(|| field_title(t)).flatten())
  {
    return (vec![title(field)], 1);
  }
  // A title line wrapped in marks, alone or over the text (`[Ed Wood]`, `_Ed Wood_`,
  // `【Ed Wood】`); over a line that opens a sentence.
  if t.starts_with(['*', '_', '`', '[', '【', '「']) {
    let (first, rest) = t.split_once('\n').unwrap_or((t, ""));
    if let Some(inner) = unwrapped(first).filter(|inner| is_title_line(inner)) {
      if !rest.trim_start().starts_with(char::is_lowercase) {
        return (vec![title(inner)], 1);
      }
    }
  }
  // A title on the first line of a record its label opened (`Doc 3: Ed Wood` over `Ed
  // Wood was…`, read without its label).
  if let Some((first, rest)) = labelled.then(|| t.split_once('\n')).flatten() {
    // Over a line that opens a sentence: a wrapped sentence's first line is no title.
    if is_title_line(first) && !rest.trim_start().starts_with(char::is_lowercase) {
      return (vec![line_title(first)], 1);
    }
  }
  // A name opens with a capital, a digit, a quote or bold marks: a line of code or a
  // lower-case note names nothing, and is not read further.
  if !t
    .chars()
    .next()
    .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit() || matches!(c, '"' | '“' | '*' | '_'))
  {
    return (Vec::new(), 0);
  }
  let Ok(written) = written_title(t) else {
    return (Vec::new(), 0);
  };
  let mut names: Vec<String> = Vec::new();
  let add = |names: &mut Vec<String>, name: String| {
    let name = name.replace('"', "");
    if !name.is_empty() && !names.contains(&name) {
      names.push(name);
    }
  };
  let subject = lead_subject(t);
  if let Some(written) = written {
    // A label that says where its text is from (`From Ed Wood: …`, `About Ed Wood: …`)
    // names it without that word too.
    let bare = t
      .split_once(' ')
      .filter(|(first, rest)| SOURCE_WORDS.contains(&first.to_lowercase().as_str()) && opens_as_name(rest))
      .and_then(|_| written.split_once(' '))
      .map(|(_, rest)| rest.to_owned());
    add(&mut names, written);
    if let Some(bare) = bare {
      add(&mut names, bare);
    }
    if let Some(subject) = subject {
      add(&mut names, subject);
    }
    // A title written as one is said as written.
    let primary = names.len();
    return (names, primary);
  }
  // The name the lead opens with and its aliases are said short too; a subject with
  // words of its own ("the Piano Sonata No. 3 in F minor") is said whole.
  // An opening run of capitals that stops inside the subject ("Centaurium" of
  // "Centaurium pulchellum", "Y'all" of "Y'all magazine") is a piece of its name: a short
  // form, not one of its names.
  // A piece that the subject goes on from with a joining word ("Justin Gimelstob" of
  // "Justin Gimelstob and Byron Talbot") is one of the things it joins, no name of it.
  let mut opening = opening_name(t).map(title);
  let piece = opening
    .as_ref()
    .is_some_and(|o| subject.as_ref().is_some_and(|s| begins_with_words(s, o)));
  let joined = piece
    && opening.as_ref().zip(subject.as_ref()).is_some_and(|(o, s)| {
      let next = s[o.len()..].split_whitespace().next().unwrap_or("");
      JOINING_WORDS.contains(&next)
    });
  if joined {
    opening = None;
  }
  let piece = piece && !joined;
  let nicknamed = opening.as_deref().and_then(nicknamed);
  let spoken: Vec<String> = opening.into_iter().chain(aliases(t)).collect();
  let names_said = spoken.iter().skip(usize::from(piece)).cloned();
  for name in subject.into_iter().chain(names_said).chain(nicknamed) {
    add(&mut names, name);
  }
  for k in 0..names.len() {
    if let Some(bare) = names[k].strip_prefix("the ").map(str::to_owned) {
      add(&mut names, bare);
    }
    if let Some(bare) = without_suffix(&names[k]) {
      add(&mut names, bare);
    }
  }
  let primary = names.len();
  for (k, name) in spoken.iter().enumerate() {
    // A nickname is said with the last name only (above), never in a short form.
    let name: Vec<&str> = name.split(' ').filter(|w| !w.starts_with('"')).collect();
    let name = name.join(" ");
    let name = without_suffix(&name).unwrap_or(name);
    add(&mut names, name.clone());
    // A piece of a name, or a name that opens with an article, is no person's; nor is a
    // name whose last word the lead writes in lower case, a common noun ("Waterloo
    // Community Unit School District is a unified school district": no "school district").
    let article = ARTICLES.iter().any(|a| name.starts_with(&format!("{a} ")));
    let a_piece = k == 0 && piece;
    let common = name
      .rsplit(' ')
      .next()
      .is_some_and(|last| !name_spans(t, last).is_empty());
    if !article && !a_piece && !common {
      for short in shortened(&name) {
        add(&mut names, short);
      }
      // The name the lead opens with may be a full one; an alias is said as it is.
      if k == 0 {
        for short in first_family_name(&name) {
          add(&mut names, short);
        }
      }
    }
  }
  (names, primary)
}

/// Whether `name` opens with `words` and goes on with more words: "centaurium
/// pulchellum" with "centaurium".
fn begins_with_words(name: &str, words: &str) -> bool {
  name.strip_prefix(words).is_some_and(|rest| {
    rest.starts_with(": ")
      || rest
        .strip_prefix(' ')
        .is_some_and(|r| r.starts_with(char::is_alphanumeric))
  })
}

/// A name's nickname with its last word: `David Ian "Joe" Jackson` is also "joe jackson".
fn nicknamed(name: &str) -> Option<String> {
  let words: Vec<&str> = name.split(' ').collect();
  let nick = words
    .iter()
    .find(|w| w.len() > 2 && w.starts_with('"') && w.ends_with('"'))?;
  let last = without_suffix(name).map_or(words[words.len() - 1].to_owned(), |n| {
    n.rsplit(' ').next().unwrap_or("").to_owned()
  });
  (last != *nick).then(|| format!("{} {last}", nick.trim_matches('"')))
}

/// A name without the words that follow names ("Thompson Creek Metals Company Inc.",
/// "Edward Robert Martin Jr.", "Gary Barlow OBE", "Istad AS", "Arlene Foster MLA PC"): a
/// company's form, a generation, or letters after a person's name, all in capitals.
fn without_suffix(name: &str) -> Option<String> {
  let mut rest = name;
  while let Some((before, last)) = rest.rsplit_once(' ') {
    if !NAME_SUFFIXES.contains(&last.trim_end_matches('.')) {
      break;
    }
    rest = before.trim_end_matches(',');
  }
  (rest.len() < name.len()).then(|| rest.to_owned())
}

/// Words that follow a name and are no part of what text calls it, case-folded.
const NAME_SUFFIXES: [&str; 26] = [
  "ag",
  "as",
  "cbe",
  "co",
  "corp",
  "frs",
  "gmbh",
  "ii",
  "iii",
  "inc",
  "incorporated",
  "iv",
  "jr",
  "kbe",
  "kc",
  "limited",
  "llc",
  "ltd",
  "mbe",
  "mla",
  "mp",
  "obe",
  "pc",
  "plc",
  "qc",
  "sr",
];

/// A name's short forms, where it has no connectors: for three words or more, any earlier
/// word with its last and its initials with its last ("c. s. lewis"); for three words,
/// the middle one as an initial ("stephen r. donaldson"); for two words or more, the
/// first one's familiar form with the last ("michael joseph farrell" is "mike farrell").
fn shortened(name: &str) -> Vec<String> {
  let words: Vec<&str> = name.split(' ').collect();
  // A name with connectors is the title of a thing ("The Stories of Vladimir Nabokov"),
  // said whole; a person's is said short.
  let connected = words.iter().any(|w| NAME_CONNECTORS.contains(w));
  let mut names = Vec::new();
  if connected {
    return names;
  }
  if let [first @ .., last] = &words[..] {
    if let Some((_, familiar)) = FAMILIAR_NAMES
      .iter()
      .find(|(given, _)| first.first() == Some(given))
    {
      names.extend(familiar.split(' ').map(|f| format!("{f} {last}")));
    }
    if let [given, middle] = first {
      if let Some(initial) = middle.chars().next().filter(|c| c.is_alphabetic()) {
        names.push(format!("{given} {initial}. {last}"));
      }
    }
    if words.len() >= SHORTENED_NAME_WORDS {
      // Any earlier word with the last: a middle name or a rank dropped ("Colonel
      // Patrick John Mercer" is "Patrick Mercer").
      names.extend(first.iter().rev().map(|w| format!("{w} {last}")));
      if first.iter().all(|w| w.chars().all(char::is_alphabetic)) {
        let initials: String = first
          .iter()
          .filter_map(|w| w.chars().next())
          .map(|c| format!("{c}. "))
          .collect();
        names.push(format!("{initials}{last}"));
      }
    }
  }
  names
}

/// A name's forms where it ends in two family names, of which the first is the one said:
/// "José Delfín Fernández Gómez" is "José Fernández", "Rafael Márquez Méndez" is "Rafael
/// Márquez", "Juan Manuel Márquez Méndez" also "Juan Manuel Márquez".
fn first_family_name(name: &str) -> Vec<String> {
  let words: Vec<&str> = name.split(' ').collect();
  let mut names = Vec::new();
  if let [given, .., family, _] = &words[..] {
    if words.len() >= SHORTENED_NAME_WORDS && !words.iter().any(|w| NAME_CONNECTORS.contains(w)) {
      names.push(format!("{given} {family}"));
      if words.len() > SHORTENED_NAME_WORDS {
        names.push(words[..words.len() - 1].join(" "));
      }
    }
  }
  names
}

/// Given names and the familiar forms people are called by, case-folded: the common
/// English ones (a text that introduces "Michael Joseph Farrell" goes on with "Mike
/// Farrell").
const FAMILIAR_NAMES: [(&str, &str); 100] = [
  ("abraham", "abe"),
  ("albert", "al bert"),
  ("alexander", "alex"),
  ("alexandra", "alex"),
  ("alfred", "alf fred"),
  ("andrew", "andy drew"),
  ("anthony", "tony"),
  ("arthur", "art"),
  ("augustus", "gus"),
  ("barbara", "barb"),
  ("benjamin", "ben benny"),
  ("bernard", "bernie"),
  ("bradley", "brad"),
  ("catherine", "kate cathy"),
  ("charles", "charlie chuck"),
  ("christina", "chris tina"),
  ("christine", "chris"),
  ("christopher", "chris"),
  ("clifford", "cliff"),
  ("cynthia", "cindy"),
  ("daniel", "dan danny"),
  ("david", "dave"),
  ("deborah", "debbie deb"),
  ("dominic", "dom"),
  ("donald", "don donny"),
  ("dorothy", "dot dottie"),
  ("douglas", "doug"),
  ("edward", "ed eddie ted ned"),
  ("elizabeth", "liz beth betty"),
  ("eugene", "gene"),
  ("frances", "fran"),
  ("francis", "frank"),
  ("frederick", "fred freddie"),
  ("gabriel", "gabe"),
  ("gerald", "gerry jerry"),
  ("gilbert", "gil"),
  ("gregory", "greg"),
  ("harold", "hal harry"),
  ("henry", "harry hank"),
  ("herbert", "herb"),
  ("isaac", "ike"),
  ("jacob", "jake"),
  ("jacqueline", "jackie"),
  ("james", "jim jimmy jamie"),
  ("jeffrey", "jeff"),
  ("jennifer", "jen jenny"),
  ("jessica", "jess"),
  ("john", "jack johnny"),
  ("jonathan", "jon jonny"),
  ("joseph", "joe joey"),
  ("joshua", "josh"),
  ("judith", "judy"),
  ("katherine", "kate kathy"),
  ("kathleen", "kathy"),
  ("kenneth", "ken kenny"),
  ("lawrence", "larry"),
  ("leonard", "leo len lenny"),
  ("louis", "lou"),
  ("margaret", "maggie peggy meg"),
  ("matthew", "matt"),
  ("maxwell", "max"),
  ("michael", "mike mickey"),
  ("mitchell", "mitch"),
  ("montgomery", "monty"),
  ("nathan", "nate"),
  ("nathaniel", "nate nat"),
  ("nicholas", "nick nicky"),
  ("oliver", "ollie"),
  ("pamela", "pam"),
  ("patricia", "pat patty"),
  ("patrick", "pat"),
  ("peter", "pete"),
  ("philip", "phil"),
  ("randall", "randy"),
  ("randolph", "randy"),
  ("raymond", "ray"),
  ("rebecca", "becky"),
  ("reginald", "reg reggie"),
  ("richard", "rick dick rich"),
  ("robert", "bob rob bobby"),
  ("ronald", "ron ronnie"),
  ("russell", "russ"),
  ("samuel", "sam sammy"),
  ("sandra", "sandy"),
  ("stanley", "stan"),
  ("stephen", "steve"),
  ("steven", "steve"),
  ("susan", "sue susie"),
  ("terence", "terry"),
  ("theodore", "ted teddy"),
  ("theresa", "terry tess"),
  ("thomas", "tom tommy"),
  ("timothy", "tim"),
  ("valerie", "val"),
  ("victoria", "vicky"),
  ("vincent", "vince"),
  ("virginia", "ginny"),
  ("walter", "walt"),
  ("william", "bill will billy willie"),
  ("zachary", "zach"),
];

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

/// Words a label opens with to say where its text is from or what it is about (`From Ed
/// Wood:`, `About Ed Wood:`): prepositions that seldom open a title, where other stop
/// words often do ("Our Song", "On the Waterfront": with every stop word, "song" of "Our
/// Song" was a name and cost the bench's numbered form .953 -> .952). A title that opens
/// with one ("From Water to War") is still named whole.
const SOURCE_WORDS: [&str; 5] = ["about", "from", "per", "regarding", "via"];

/// Lower-case words that stand inside names ("Bank of America", "Vincent van Gogh").
const NAME_CONNECTORS: [&str; 11] = [
  "da", "de", "del", "der", "du", "for", "la", "le", "of", "the", "van",
];

#[cfg(test)]
mod tests {
  use super::*;

  /// A tag in brackets before a title (a mailing list's, a search hit's kind) is no part of
  /// it; brackets that are the title, or a link's text, are.
  #[test]
  fn a_tag_before_a_title_is_no_part_of_it() {
    assert_eq!(source_title("[Research-l] Ed Wood (film)"), "ed wood");
    assert_eq!(source_title("[PDF] [draft] Tim Burton"), "tim burton");
    assert_eq!(source_title("[Research-l]"), "[research-l]");
    assert_eq!(
      source_title("[Ed Wood](https://x.org)"),
      "[ed wood](https://x.org)"
    );
  }

  /// JSON written in ASCII (`json.dumps`) names a title with escapes: a record's title is
  /// read unescaped, a call's argument too, and a text names a title in either writing.
  #[test]
  fn json_escapes_name_what_they_stand_for() {
    assert_eq!(record_title(r"Louis Bl\u00e9riot"), "louis blériot");
    assert_eq!(record_title(r#"The \"Poetess\""#), "the \"poetess\"");
    assert_eq!(call_titles(r#"→ lookup {"title":"Vyd\u016bnas"}"#), ["vydūnas"]);
    let body = r#"{"extract":"renamed in honour of french aviator louis bl\u00e9riot in 1937."}"#;
    let titles = [vec!["louis blériot".to_string()], vec!["louis bl".to_string()]];
    assert_eq!(named_titles(body, &titles), [true, false]);
    assert_eq!(named_titles("louis blériot flew.", &titles), [true, false]);
  }

  /// A record headed by a line of code that calls with strings (a notebook cell's source)
  /// is named by them, as a tool call by its arguments; other headings are no calls.
  #[test]
  fn a_line_of_code_is_named_by_its_strings() {
    let heading = |line: &str| format!("{{\"cell_type\":\"code\",\"source\":[\"{line}\"");
    let names = |line: &str| code_call_titles(&heading(line));
    assert_eq!(
      names(r#"print(wiki.summary(\"Ed Wood\"))"#),
      Some(vec!["ed wood".to_string()])
    );
    assert_eq!(
      names("search(query='Tim Burton', k=3)"),
      Some(vec!["tim burton".to_string()])
    );
    assert_eq!(names("df.head(10) and more"), None);
    assert_eq!(code_call_titles("## print(\"Ed Wood\")"), None);
  }

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
    // A document's file is named by its title, as its address would be; a file named by one
    // word in lower case by its whole name (a common word names no file).
    assert_eq!(
      names(r#"→ Read {"file_path":"/home/u/wiki/Lettuce_necrotic_yellows_virus.md"}"#),
      ["lettuce necrotic yellows virus"]
    );
    assert_eq!(names(r#"→ cat {"file":"Ed-Wood.txt"}"#), ["ed wood"]);
    assert_eq!(names(r#"→ view {"path":"docs/index.rst"}"#), ["index.rst"]);
    assert_eq!(
      names(r#"→ fetch {"url":"https://x.org/p/Ed_Wood.html?x=1"}"#),
      ["ed wood"]
    );
    // An address whose path names a program or a search is named by what its query asks
    // for; a page's address with options by its page.
    assert_eq!(
      names(
        r#"→ http_get {"url":"https://en.wikipedia.org/w/api.php?action=query&format=json&titles=Ed%20Wood%20(film)"}"#
      ),
      ["ed wood"]
    );
    assert_eq!(
      names(r#"→ get {"url":"https://www.google.com/search?q=Tim+Burton&hl=en"}"#),
      ["tim burton"]
    );
    assert_eq!(
      names(r#"→ get {"url":"https://en.wikipedia.org/wiki/Ed_Wood?action=Edit"}"#),
      ["ed wood"]
    );
    assert_eq!(
      names(r#"→ get {"url":"https://api.github.com/repos/a/b/issues?state=open"}"#),
      ["issues"]
    );
    // A page's slug is named by its words too; an identifier only as it is.
    assert_eq!(
      names(r#"→ get_article {"slug":"Siege_of_Salto"}"#),
      ["siege of salto", "siege_of_salto"]
    );
    assert_eq!(names(r#"→ find {"symbol":"create_user"}"#), ["create_user"]);
    // A command that fetches a page is named by the page; one that calls an application's
    // route by the command, as any short value.
    assert_eq!(
      names(
        r#"→ Bash {"command":"curl -s \"https://en.wikipedia.org/api/rest_v1/page/summary/Siege_of_Salto\" | jq -r .extract","description":"Fetch the page summary"}"#
      ),
      ["fetch the page summary", "siege of salto"]
    );
    assert_eq!(
      names(r#"→ Bash {"command":"curl -s http://localhost:3000/api/users"}"#),
      ["curl -s http://localhost:3000/api/users"]
    );
    // A name is said without the qualifier after its comma; a question is said whole.
    assert_eq!(names(r#"→ lookup {"place":"Santa Fe, Missouri"}"#), ["santa fe"]);
    assert_eq!(
      names(r#"→ search {"query":"Who is the Oregon Duck, the mascot?"}"#),
      ["who is the oregon duck, the mascot?"]
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
  fn a_field_s_address_names_what_it_addresses() {
    assert_eq!(heading_title("Source: https://x.org/wiki/Ed_Wood"), "ed wood");
    assert_eq!(heading_title("Title: Ed Wood (film)"), "ed wood");
    // A record whose fields open before its title field.
    assert_eq!(heading_title("id: 7\ntitle: Ed Wood"), "ed wood");
  }

  /// A heading laid out in columns is named by its first: a page's running header, a man
  /// page's; not a markdown heading's marks set apart by spaces.
  #[test]
  fn a_heading_in_columns_is_named_by_its_first() {
    assert_eq!(
      heading_title("\x0cEd Wood (film)                    Page 3"),
      "ed wood"
    );
    assert_eq!(heading_title("LS(1)      User Commands      LS(1)"), "ls(1)");
    assert_eq!(heading_title("#    Ed Wood"), "ed wood");
    assert_eq!(heading_title("Ed Wood  Tim Burton"), "ed wood  tim burton");
  }

  #[test]
  fn an_outline_s_enumerator_is_no_part_of_a_title() {
    assert_eq!(heading_title("### B. Ed Wood"), "ed wood");
    assert_eq!(heading_title("## II. Findings"), "findings");
    assert_eq!(heading_title("1.2 Ed Wood"), "ed wood");
    assert_eq!(heading_title("### 3.1. Ed Wood"), "ed wood");
    // Initials and numbers are a title's own.
    assert_eq!(heading_title("## A. A. Milne"), "a. a. milne");
    assert_eq!(heading_title("## 1.5 million served"), "1.5 million served");
    // An INI section's brackets are no part of its title.
    assert_eq!(heading_title("[Ed Wood]"), "ed wood");
    // A numbered paragraph's title line (`1.2 Ed Wood` over its text) leads with its title.
    assert_eq!(without_mark("1.2 Ed Wood"), "Ed Wood");
    assert_eq!(
      without_mark("1.5 million people live there."),
      "1.5 million people live there."
    );
  }

  #[test]
  fn an_org_heading_s_tags_are_no_part_of_its_title() {
    assert_eq!(heading_title("* Ed Wood :film:wiki:"), "ed wood");
    assert_eq!(heading_title("** Ed Wood"), "ed wood");
  }

  #[test]
  fn a_file_shown_or_searched_is_named_by_its_name() {
    assert_eq!(heading_title("==> wiki/Ed_Wood.txt <=="), "ed wood");
    assert_eq!(heading_title("wiki/Ed_Wood.txt:3:"), "ed wood");
    assert_eq!(heading_title(r###""## Ed Wood\n","###), "ed wood");
    assert_eq!(heading_title("notes/Tim-Burton.md:2:"), "tim burton");
    // A report's paragraph that cites two sources is titled by both, each a name.
    assert_eq!(
      heading_titles("## Brassia; Achimenes (plant)"),
      ["brassia", "achimenes"]
    );
    assert_eq!(heading_titles("## Ed Wood"), ["ed wood"]);
    assert_eq!(heading_titles("## Julie &amp; Julia"), ["julie &amp; julia"]);
    assert_eq!(heading_title("=== build/index.html ==="), "index.html");
  }

  /// The first name a lead gives its paragraph, if any.
  fn lead_title(lead: &str) -> Option<String> {
    lead_titles(lead).0.into_iter().next()
  }

  fn names(lead: &str) -> Vec<String> {
    lead_titles(lead).0
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
    // A label that says where its text is from names it with and without that word; a
    // title's own first word stays.
    assert!(names("From Ed Wood: Ed Wood was an American filmmaker.").contains(&"ed wood".to_owned()));
    assert!(!names("Our Song: It is a country song.").contains(&"song".to_owned()));
    // A record on one line: a title element, a title field, a quoted or tab-ended cell.
    assert_eq!(
      lead_title("> Ed Wood was an American filmmaker.").as_deref(),
      Some("ed wood")
    );
    for record in [
      "<article><h3>Ed Wood</h3><p>He was an American filmmaker.</p></article>",
      "<document title=\"Ed Wood\" source=\"wikipedia\">He was an American filmmaker.</document>",
      "<finding id=\"3\" source=\"Ed Wood\" href=\"https://x.org/ed\">He was an American filmmaker.</finding>",
      "title: Ed Wood context: He was an American filmmaker.",
      "\"Ed Wood\",\"He was an American filmmaker.\"",
      "Ed Wood\tHe was an American filmmaker.",
      // A row's index cell is no part of it; a title field in brackets after a label, or
      // a name in quotes closing a label, names the record.
      "1,\"Ed Wood\",https://x.org/ed,\"He was an American filmmaker.\"",
      "Document [1] (Title: Ed Wood) Ed Wood was an American filmmaker.",
      "According to the article \"Ed Wood\": he was an American filmmaker.",
    ] {
      assert_eq!(lead_title(record).as_deref(), Some("ed wood"), "{record}");
    }
    // A `name=` field's name says what it holds, not what the record is about.
    assert_eq!(lead_title("<str name=\"id\">7</str>"), None);
    // A printed table's index cell, padded (pandas' `to_string`), is no part of its row.
    assert_eq!(without_mark("12     Ed Wood   He was…"), "Ed Wood   He was…");
    assert_eq!(without_mark("12 Ed Wood"), "12 Ed Wood");
    assert_eq!(
      lead_title("Passage 2 [title: Ray Turner (computer scientist)]: He is a logician.").as_deref(),
      Some("ray turner")
    );
    // A numbered label is a record's mark: the title follows it, on its line or after a bar.
    for record in [
      "Doc 3: Ed Wood\nEd Wood was an American filmmaker.",
      "Result 3: Ed Wood\nHe was an American filmmaker.",
      "Source 3 | Ed Wood | https://x.org/ed\nHe was an American filmmaker.",
      "Excerpt 3, from \"Ed Wood\" (Wikipedia): he was an American filmmaker.",
    ] {
      assert_eq!(lead_title(record).as_deref(), Some("ed wood"), "{record}");
    }
    assert_eq!(
      numbered_label("Document: 3\ntitle: Ed Wood"),
      Some("title: Ed Wood")
    );
    // A wrapped sentence's first line is no title; a field's name is none.
    assert_ne!(
      lead_title("Doc 3: He was born in Burbank in 1958 and\nmade many films.").as_deref(),
      Some("he was born in burbank in 1958 and")
    );
    assert_ne!(
      lead_title("<doc><str name=\"id\">7</str> Ed Wood was a filmmaker.").as_deref(),
      Some("id")
    );
    // A name with a number is no label.
    assert_eq!(
      lead_title("Route 66, also known as the Main Street, is a highway.").as_deref(),
      Some("route 66")
    );
    assert_eq!(numbered_label("Apollo 11 landed in 1969."), None);
    assert_eq!(numbered_label("Chapter 1984: a year"), None);
    // A number is no index cell; a sentence before a quote is no label.
    assert_eq!(lead_title("1,000 people came.").as_deref(), Some("1,000"));
    assert_ne!(
      lead_title("He had read the article. Then \"Ed Wood\": a film.").as_deref(),
      Some("ed wood")
    );
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
      names("Harvey Lawrence Pekar was a writer."),
      [
        "harvey lawrence pekar",
        "harvey l. pekar",
        "lawrence pekar",
        "harvey pekar",
        "h. l. pekar",
        "harvey lawrence"
      ]
    );
    assert_eq!(names("Bank of America is a bank."), ["bank of america"]);
    assert_eq!(
      names("Colonel Patrick John Mercer, OBE (born 1956) is an author."),
      [
        "colonel patrick john mercer",
        "john mercer",
        "patrick mercer",
        "colonel mercer",
        "c. p. j. mercer",
        // Read as two family names: forms no text uses, kept only while no other
        // section is called so (`distinctive_names`).
        "colonel john",
        "colonel patrick john"
      ]
    );
    assert_eq!(
      names("Gregor \"Gore\" Verbinski (born 1964) is a film director."),
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
      names("Hirdesh Singh (born 1983), better known by his stage name Yo Yo Honey Singh, is a rapper."),
      [
        "hirdesh singh",
        "yo yo honey singh",
        "honey singh",
        "yo singh",
        "y. y. h. singh"
      ]
    );
    assert!(
      names("Cielos del Sur S.A., operating as Austral Líneas Aéreas, is an airline.")
        .contains(&"austral líneas aéreas".to_owned())
    );
    assert_eq!(names("Ed Wood is known as the worst director."), ["ed wood"]);
    assert!(
      names("Jermaine Lamarr Cole, better known by his stage name J. Cole, is a rapper.")
        .contains(&"j. cole".to_owned())
    );
    assert_eq!(
      names("The Pennsylvania State University is a university."),
      [
        "the pennsylvania state university",
        "pennsylvania state university"
      ]
    );
    assert_eq!(lead_title("It was dissolved in 2010."), None);
    assert_eq!(lead_title("This was dissolved in 2010."), None);
    assert_eq!(lead_title("the lower-case start of a note."), None);
    assert_eq!(lead_title("On March 27, 1977, two jets collided."), None);
    assert_eq!(lead_title("In 2008, photographs were published."), None);
    // A conjunction or preposition that opens a sentence is a stop word, no name.
    assert_eq!(
      lead_title("Since its independence, Uruguay had been ravaged by strife."),
      None
    );
    assert_eq!(
      lead_title("Although the purpose of the ships is speculated upon, it is known."),
      None
    );
  }

  /// A label alone or a wrapper's tag names nothing (its unit leads with the line under
  /// it); a name with a number, a titled tag or a title does; a title field alone on its
  /// line is one.
  #[test]
  fn a_line_that_names_nothing_is_no_lead() {
    for line in [
      "Document: 3",
      "Doc 3:",
      "[3]",
      "Result 12:",
      "<results>",
      "</doc>",
      "<div class=\"hit\">",
      "{Embed}",
      "https://en.wikipedia.org/wiki/Ed_Wood",
      "Call id: call_0",
      "Request ID: 7f3a9c",
      "ToolCallId: toolu_01",
    ] {
      assert!(names_nothing(line), "{line}");
    }
    for line in [
      "Apollo 11",
      "Chapter 1984",
      "Document: three",
      "<document title=\"Ed Wood\">",
      "<title>Ed Wood</title>",
      "Ed Wood",
      "{\"title\": \"Ed Wood\"}",
      "See https://en.wikipedia.org/wiki/Ed_Wood",
      "Call id: call_0 returned Ed Wood",
      "Title: Ed_Wood",
    ] {
      assert!(!names_nothing(line), "{line}");
    }
    assert!(is_lone_label("Observation:"));
    for line in ["Observation", "Ed Wood:", "Observation: Ed Wood", "Step 3:"] {
      assert!(!is_lone_label(line), "{line}");
    }
    // A lead that is a title field alone, or one before the next field on its line.
    assert_eq!(lead_title("title: Ed Wood").as_deref(), Some("ed wood"));
    assert_eq!(
      lead_title("title: Ed Wood context: Ed Wood was a filmmaker.").as_deref(),
      Some("ed wood")
    );
  }

  /// A record on one line writes its title as a quoted field (logfmt, Python's print of a
  /// record), or in guillemets before a bar (DSPy's passages).
  #[test]
  fn a_record_on_one_line_names_its_title_field() {
    let log = "ts=2024-05-01 level=debug msg=\"retrieved chunk\" rank=1 title=\"Ed Wood\" text=\"Ed Wood was a filmmaker.\"";
    assert_eq!(lead_title(log).as_deref(), Some("ed wood"));
    let repr = "Document(metadata={'source': 'https://x.org/Ed_Wood', 'title': 'Ed Wood'}, page_content='Ed Wood was a filmmaker.')";
    assert_eq!(lead_title(repr).as_deref(), Some("ed wood"));
    assert_eq!(
      lead_title("[2] «Ed Wood | Ed Wood was a filmmaker.»").as_deref(),
      Some("ed wood")
    );
    assert_eq!(
      lead_title("«Le Monde» is a French daily newspaper.").as_deref(),
      Some("le monde")
    );
    // One quoted field is prose's or code's, not a record's.
    for prose in [
      "Tim Burton directed the film (source=\"Variety\") in 1994.",
      "def greet(name=\"World\"):",
    ] {
      assert!(
        lead_titles(prose)
          .0
          .iter()
          .all(|n| n != "variety" && n != "world"),
        "{prose}"
      );
    }
    // A list's first record names no unit; a sentence that says a title names none.
    assert_eq!(lead_title(&format!("[{repr}, {repr}]")), None);
    assert_ne!(
      lead_title("Ed Wood was a filmmaker, given the title \"King of Z\" by fans.").as_deref(),
      Some("king of z")
    );
  }

  /// A lead sentence names what it defines as written before its verb, also where the
  /// name holds words in lower case, quotes or a suffix, and people by their nickname
  /// and initials.
  #[test]
  fn a_lead_names_its_subject() {
    let has = |lead: &str, name: &str| {
      let (names, primary) = lead_titles(lead);
      assert!(
        names[..primary].iter().any(|n| n == name),
        "{lead}: {name} not in {names:?} (first {primary})"
      );
    };
    has(
      "Centaurium pulchellum is a species of flowering plant.",
      "centaurium pulchellum",
    );
    has(
      "The Karlskrona naval base (Swedish: \"Karlskrona örlogsbas\" ) is the largest naval base.",
      "karlskrona naval base",
    );
    has(
      "\"25 or 6 to 4\" is a song written by Robert Lamm.",
      "25 or 6 to 4",
    );
    has(
      "\"Mrs. Bixby and the Colonel's Coat\" is a short story by Roald Dahl.",
      "mrs. bixby and the colonel's coat",
    );
    has(
      "Roald Dahl: Collected Stories is a hardcover edition of short stories.",
      "roald dahl: collected stories",
    );
    has(
      "Thompson Creek Metals Company Inc. is a mining company.",
      "thompson creek metals company",
    );
    has(
      "Barry Thomas Cable MBE (born 22 September 1943) is a former footballer.",
      "barry thomas cable",
    );
    has(
      "David Ian \"Joe\" Jackson (born 11 August 1954) is an English musician.",
      "joe jackson",
    );
    let (names, _) = lead_titles("Clive Staples Lewis (29 November 1898 – 22 November 1963) was a novelist.");
    assert!(names.contains(&"c. s. lewis".to_owned()), "{names:?}");
    let (names, _) = lead_titles("Harry Robbins \"Bob\" Haldeman (1926 – 1993) was an aide.");
    assert!(names.contains(&"h. r. haldeman".to_owned()), "{names:?}");
    // A placeholder in braces or brackets is a gloss, as a parenthesis is.
    has(
      "Robert John Day {'1': \", '2': \"} (born 5 July 1952) is a politician.",
      "robert john day",
    );
    has("Orica Limited () is a multinational corporation.", "orica");
    // A phrase, a lower-case subject or a long clause names nothing; nor does a phrase
    // that introduces the sentence before a comma.
    assert_eq!(lead_titles("The bug is in the parser."), (Vec::new(), 0));
    assert_eq!(
      lead_titles("In baseball, the designated hitter rule is the common name for Rule 5.11."),
      (Vec::new(), 0)
    );
    assert!(lead_titles("A halophyte is a plant.").0.is_empty());
    // Inline tags around a sentence are markup, not its words.
    for lead in [
      "<b>Ed Wood was a director.</b>",
      "<span class=\"claim\"><i>Ed Wood was a director.</i></span>",
    ] {
      assert_eq!(lead_titles(lead).0, ["ed wood"], "{lead}");
    }
  }

  /// A run of capitals that stops inside the subject is a piece of its name, said only
  /// where no other paragraph says it; a name that opens with an article is no person's.
  #[test]
  fn a_piece_of_a_subject_is_a_short_form() {
    let (names, primary) = lead_titles("Centaurium pulchellum is a species of flowering plant.");
    assert_eq!(names[..primary], ["centaurium pulchellum"]);
    assert_eq!(names[primary..], ["centaurium"]);
    let (names, primary) = lead_titles("Y'all magazine is an American magazine.");
    assert_eq!(
      (names[..primary].to_vec(), names[primary..].to_vec()),
      (vec!["y'all magazine".to_owned()], vec!["y'all".to_owned()])
    );
    let (names, _) = lead_titles("A Uniform Type Identifier (UTI) is a text string.");
    assert!(!names.contains(&"type identifier".to_owned()), "{names:?}");
    // A subject that joins several things is named by none of them.
    for lead in [
      "Justin Gimelstob and Byron Talbot were the defending champions.",
      "Juan Manuel Márquez vs. Juan Diaz was a boxing match.",
    ] {
      let (names, _) = lead_titles(lead);
      assert_eq!(names.len(), 1, "{lead}: {names:?}");
    }
  }

  #[test]
  fn a_task_names_a_title_whatever_its_accents_and_case() {
    let titles = [
      vec![heading_title("## Río Hondo Department")],
      vec![heading_title("## Émile Zola")],
      vec![heading_title("## Rio Grande")],
    ];
    let task = "where is the rio hondo department? who was émile zola?";
    assert_eq!(titles_named_by_task(task, &titles), [true, true, false]);
    // Nor whatever its dashes and apostrophes: typed as `-` and `'`.
    let titles = [
      vec!["Nerva–Antonine dynasty".to_owned()],
      vec!["Brahms’ waltzes".to_owned()],
    ];
    let task = "who ruled in the Nerva-Antonine dynasty? when were Brahms' waltzes written?";
    assert_eq!(titles_named_by_task(task, &titles), [true, true]);
    // A heading's number, link or address is no part of its title (a search result's title
    // line: `**[Ed Wood](https://…)**`, `Ed Wood - https://…`).
    for heading in [
      "### 3. Ed Wood",
      "## [Ed Wood](https://en.wikipedia.org/wiki/Ed_Wood)",
      "## **Ed Wood**",
      "== Ed Wood ==",
      "**[Ed Wood](https://en.wikipedia.org/wiki/Ed_Wood)**",
      "Ed Wood - https://en.wikipedia.org/wiki/Ed_Wood",
      "Ed Wood | https://en.wikipedia.org/wiki/Ed_Wood",
      // Nor its pictographs, as chat models dress titles.
      "### 📄 Ed Wood",
      "📄 **Ed Wood**",
      "10\u{fe0f}\u{20e3} **Ed Wood**",
      "▶ Ed Wood ✅",
      // Nor a bold heading's own number.
      "**1. Ed Wood**",
    ] {
      assert_eq!(heading_title(heading), "ed wood", "{heading}");
    }
    for lead in [
      "📄 Ed Wood — He was a filmmaker.",
      "🎬 **Ed Wood**: He was a filmmaker.",
    ] {
      assert_eq!(
        lead_titles(lead).0.first().map(String::as_str),
        Some("ed wood"),
        "{lead}"
      );
    }
    // Quotes and brackets are no pictographs.
    assert_eq!(heading_title("### “Ed Wood”"), "“ed wood”");
  }

  /// A title line wrapped in marks names its text as a bare one does; a full-width index
  /// (`【2】`) and a label counting of how many (`Result 1 of 10:`) are no part of a title,
  /// nor is the next field a bar apart (`Title: Ed Wood | Source: …`).
  #[test]
  fn a_title_line_is_read_inside_its_marks() {
    for lead in [
      "[Ed Wood]\nHe was a filmmaker.",
      "`Ed Wood`\nHe was a filmmaker.",
      "【Ed Wood】\nHe was a filmmaker.",
      "_Ed Wood_\nHe was a filmmaker.",
      "【2】Ed Wood",
      "Result 1 of 10: Ed Wood",
      "Title: Ed Wood | Source: en.wikipedia.org | Date: 2024-01-01",
    ] {
      assert_eq!(
        lead_titles(lead).0.first().map(String::as_str),
        Some("ed wood"),
        "{lead}"
      );
    }
    assert_eq!(unwrapped("*Ed* and *Tim*"), None);
    assert_eq!(unwrapped("**_Ed Wood_**"), Some("Ed Wood"));
    assert_eq!(field_title("Title: AC | DC"), Some("AC | DC"));
  }

  /// People are named by a familiar form of their first name and by a middle initial.
  #[test]
  fn a_person_is_named_short() {
    let has = |lead: &str, name: &str| {
      let (names, _) = lead_titles(lead);
      assert!(names.iter().any(|n| n == name), "{lead}: {name} not in {names:?}");
    };
    has(
      "Michael Joseph Farrell, Jr. (born 1939) is an American actor.",
      "mike farrell",
    );
    has("Edward Robert Martin Jr. is an American politician.", "ed martin");
    has("James Jinkins (born 1953) is an animator.", "jim jinkins");
    has(
      "Stephen Reeder Donaldson (born 1947) is a novelist.",
      "stephen r. donaldson",
    );
    has(
      "John Rankin Rogers was the third Governor of Washington.",
      "john rogers",
    );
    // A nickname of several words stands in the name as one of one word does.
    has(
      "Julius Caesar \"J. C.\" Watts Jr. (born November 18, 1957) is a politician.",
      "j. c. watts",
    );
    has(
      "Richard Corey \"Big Hoss\" Harrison (born 1983) is a reality star.",
      "corey harrison",
    );
    // Of two family names, the first is said.
    has(
      "José Delfín Fernández Gómez (1992 – 2016) was a pitcher.",
      "josé fernández",
    );
    has(
      "Juan Manuel Márquez Méndez (born 1973) is a boxer.",
      "juan manuel márquez",
    );
    // An abbreviation before a name goes on the name; letters after it come off.
    has(
      "Jack St. Clair Kilby (1923 – 2005) was an American electrical engineer.",
      "jack kilby",
    );
    has(
      "Arlene Isabel Foster MLA PC (born 3 July 1970) is a Northern Irish politician.",
      "arlene foster",
    );
    // A name whose last word the lead writes in lower case is a thing's, not said short.
    let (names, _) = lead_titles("Waterloo Community Unit School District is a unified school district.");
    assert_eq!(names, ["waterloo community unit school district"]);
  }

  /// A title written before a colon may end in its qualifier or hold initials; a
  /// sentence before a colon is no title.
  #[test]
  fn a_written_title_may_hold_a_qualifier_or_initials() {
    assert_eq!(
      lead_title("9. Louder Than Bombs (film): Louder Than Bombs is a film.").as_deref(),
      Some("louder than bombs")
    );
    assert_eq!(
      lead_title("6. C. S. Lewis: Clive Staples Lewis was a writer.").as_deref(),
      Some("c. s. lewis")
    );
    assert_eq!(written_title("It works. Next: the rest of it."), Ok(None));
    // A table row's first cell.
    assert_eq!(
      lead_title("| Ed Wood | Edward Davis Wood Jr. was a filmmaker.").as_deref(),
      Some("ed wood")
    );
    // A record's title field, on a line of its own.
    assert_eq!(
      lead_title("- title: Ed Wood\n  text: Edward Davis Wood Jr. was a filmmaker.").as_deref(),
      Some("ed wood")
    );
    // A bracket open before the colon holds a note, not the end of a title.
    let (names, _) = lead_titles("Sir Michael Kemp Tippett {'1': \", '2': \"} (1905 – 1998) was a composer.");
    assert_eq!(names[0], "sir michael kemp tippett");
    assert!(names.iter().any(|n| n == "michael tippett"), "{names:?}");
  }

  /// An em dash without spaces ends a name as other punctuation does; an en dash joins.
  #[test]
  fn an_em_dash_ends_a_name() {
    assert_eq!(
      names("Abscam—sometimes written ABSCAM—was an FBI sting operation."),
      ["abscam"]
    );
    assert_eq!(
      lead_title("Michelson–Morley Experiment was an attempt to detect the aether.").as_deref(),
      Some("michelson–morley experiment")
    );
  }
}
