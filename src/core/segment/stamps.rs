//! Stamps: the date and time a chat export or a log writes before each message
//! (`[10:03] alice: …`, `[3/1/2024 10:02 AM] bob`, `2024-03-01T10:00:06Z INFO …`). A stamp
//! says when, never what: it names nothing, and the speaker after it is a field's key.

/// A stamp is this many bytes at most (`2024-03-01 10:02:59.123456 +01:00 UTC` is 36).
const MAX_STAMP: usize = 40;
/// A stamp writes at least this many digits (`10:03`): fewer is a count or an index.
const MIN_STAMP_DIGITS: usize = 3;
/// A stamp's words are short: `AM`, `UTC`, a month's or a day's abbreviation (`Mar`, `Fri`),
/// this many letters at most, so that `[Ed Wood 1994]` is no stamp. A stamp that spells
/// `March` out is not read as one either.
const MAX_STAMP_WORD: usize = 3;

/// The line after its opening stamp (a date or time in brackets, or an ISO date-time),
/// from its first character that is no space; `None` where it opens with none.
pub fn after_stamp(line: &str) -> Option<&str> {
  let t = line.trim_start();
  // Only the stamp's few bytes are read, however long the line.
  let window = &t.as_bytes()[..t.len().min(MAX_STAMP + 2)];
  let (stamp, rest) = match window.first() {
    Some(b'[') => {
      let close = memchr::memchr(b']', window)?;
      (&t[1..close], &t[close + 1..])
    }
    _ => t.split_at(window.iter().position(u8::is_ascii_whitespace).unwrap_or(t.len())),
  };
  (stamp.len() <= MAX_STAMP && is_stamp(stamp)).then(|| rest.trim_start())
}

/// Whether `s` is a date or time written in numbers: a time (`10:03`) or a date of three
/// numbers (`2024-03-01`, `3/1/2024`), and short words only beside them (`AM`, `UTC`, the
/// ISO `T` and `Z`).
fn is_stamp(s: &str) -> bool {
  let digits = s.bytes().filter(u8::is_ascii_digit).count();
  if digits < MIN_STAMP_DIGITS || s.contains(|c: char| !(c.is_ascii_alphanumeric() || " -/:.,+".contains(c)))
  {
    return false;
  }
  let short_words = s
    .split(|c: char| !c.is_ascii_alphabetic())
    .all(|w| w.len() <= MAX_STAMP_WORD);
  let b = s.as_bytes();
  let time = (1..b.len().saturating_sub(2)).any(|i| {
    b[i] == b':' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit() && b[i + 2].is_ascii_digit()
  });
  let date = ['-', '/'].iter().any(|&sep| {
    s.split(|c: char| !(c.is_ascii_digit() || c == sep)).any(|w| {
      w.split(sep)
        .filter(|n| !n.is_empty() && n.bytes().all(|d| d.is_ascii_digit()))
        .count()
        == 3
    })
  });
  short_words && (time || date)
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn stamps_of_chats_and_logs_are_read_and_titles_are_not() {
    assert_eq!(
      after_stamp("[10:03] alice: what about Ed Wood?"),
      Some("alice: what about Ed Wood?")
    );
    assert_eq!(after_stamp("[3/1/2024 10:02 AM] bob"), Some("bob"));
    assert_eq!(after_stamp("[1/3/24, 10:00:00] Bob: hi"), Some("Bob: hi"));
    assert_eq!(
      after_stamp("2024-03-01T10:00:06.000Z INFO  fetcher: GET"),
      Some("INFO  fetcher: GET")
    );
    assert_eq!(
      after_stamp("[2024-03-01 10:00:06 UTC] <alice> hi"),
      Some("<alice> hi")
    );
    // Not stamps: an index, a citation, a title with a year, a version, a ratio.
    for line in [
      "[3] Ed Wood",
      "[12] see above",
      "[Ed Wood 1994] film",
      "v1.2.3 released",
      "Score 3:2 at home",
      "1994 was a year",
    ] {
      assert_eq!(after_stamp(line), None, "{line}");
    }
  }
}
