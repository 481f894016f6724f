//! Captions (WebVTT, SubRip): a narration cut into timed cues, its sentences running on
//! from one cue into the next. The cues' timings and numbers are no text of their own.

/// A text with fewer timed cues than this is no captions file (a log line may hold `-->`).
const MIN_CUES: usize = 3;

/// Where the cues of a captions file start (the line of its first timing, or of the number
/// over it), when the text is one: `MIN_CUES` timing lines (`00:00:04.200 --> 00:00:07.900`),
/// each opening a cue after a blank line, its number or the file's header.
pub fn cues_start(text: &str, lines: &[(usize, usize)]) -> Option<usize> {
  let line = |k: usize| text[lines[k].0..lines[k].1].trim();
  // Only the lines an arrow is on are read (a long text has few).
  let mut timings: Vec<usize> = memchr::memmem::find_iter(text.as_bytes(), b"-->")
    .map(|at| lines.partition_point(|&(_, end)| end < at))
    .filter(|&k| k < lines.len() && is_timing(line(k)))
    .collect();
  timings.dedup();
  let first = *timings.first()?;
  let opens_cue = |k: usize| k == 0 || line(k - 1).is_empty() || is_cue_number(line(k - 1));
  if timings.len() < MIN_CUES || !timings.iter().all(|&k| opens_cue(k)) {
    return None;
  }
  // The first cue's number is part of it.
  let start = if first > 0 && is_cue_number(line(first - 1)) {
    first - 1
  } else {
    first
  };
  Some(lines[start].0)
}

/// The lines after `start` that title the captions' chapters: a WebVTT `NOTE` comment's text
/// on its line (`NOTE Ed Wood`) after a blank line, or a cue whose text is a label alone in
/// brackets (`[Ed Wood]`), as SubRip writes what is no speech. Each is the byte range of the
/// title's words (without `NOTE` and the brackets), in order.
pub fn chapter_titles(text: &str, lines: &[(usize, usize)], start: usize) -> Vec<(usize, usize)> {
  let line = |k: usize| text[lines[k].0..lines[k].1].trim();
  let first = lines.partition_point(|&(s, _)| s < start);
  (first..lines.len())
    .filter(|&k| {
      let l = line(k);
      let after_blank = k == 0 || line(k - 1).is_empty();
      let note = after_blank && l.strip_prefix("NOTE ").is_some_and(|t| !t.trim().is_empty());
      let cue_text = k > 0 && is_timing(line(k - 1)) && (k + 1 == lines.len() || line(k + 1).is_empty());
      let label = cue_text && l.len() > 2 && l.starts_with('[') && l.ends_with(']') && !l[1..].contains('[');
      note || label
    })
    .map(|k| {
      let raw = &text[lines[k].0..lines[k].1];
      let at = lines[k].0 + raw.len() - raw.trim_start().len();
      let l = line(k);
      match l.strip_prefix("NOTE ") {
        Some(title) => (at + l.len() - title.len(), at + l.len()),
        None => (at + 1, at + l.len() - 1),
      }
    })
    .collect()
}

/// `00:00:04.200 --> 00:00:07.900` (WebVTT, its cue settings after), `00:00:04,200 -->
/// 00:00:07,900` (SubRip), `04.200 --> 07.900`.
fn is_timing(line: &str) -> bool {
  let Some((from, rest)) = line.split_once(" --> ") else {
    return false;
  };
  let to = rest.split_whitespace().next().unwrap_or("");
  is_time(from) && is_time(to)
}

/// `[hh:]mm:ss.ttt`, its fraction after `.` or `,`.
fn is_time(t: &str) -> bool {
  let Some((clock, fraction)) = t.rsplit_once(['.', ',']) else {
    return false;
  };
  fraction.len() == 3
    && fraction.bytes().all(|c| c.is_ascii_digit())
    && clock.split(':').count() >= 2
    && clock
      .split(':')
      .all(|part| (1..=2).contains(&part.len()) && part.bytes().all(|c| c.is_ascii_digit()))
}

/// A SubRip cue's number, or a WebVTT cue's numeric id.
fn is_cue_number(line: &str) -> bool {
  !line.is_empty() && line.len() <= 6 && line.bytes().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
  use super::*;

  fn spans(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
      out.push((start, start + line.trim_end_matches('\n').len()));
      start += line.len();
    }
    out
  }

  #[test]
  fn captions_are_told_by_their_timed_cues() {
    let vtt = "WEBVTT\nKind: captions\n\n00:00:00.000 --> 00:00:01.500\nEd Wood\n\n00:00:01.500 --> 00:00:04.000\nEd Wood was an American\n\n00:00:04.000 --> 00:00:06.000\nfilmmaker.\n";
    assert_eq!(cues_start(vtt, &spans(vtt)), Some(vtt.find("00:00:00").unwrap()));
    let srt = "1\n00:00:00,000 --> 00:00:01,500\nEd Wood\n\n2\n00:00:01,500 --> 00:00:04,000\nwas a filmmaker\n\n3\n00:00:04,000 --> 00:00:06,000\nand actor.\n";
    assert_eq!(cues_start(srt, &spans(srt)), Some(0));
    let titled = "1\n00:00:00,000 --> 00:00:01,500\n[Ed Wood]\n\n2\n00:00:01,500 --> 00:00:04,000\nwas a filmmaker.\n\nNOTE Tim Burton\n\n3\n00:00:04,000 --> 00:00:06,000\nHe grew up [in Burbank]\n";
    let chapters: Vec<&str> = chapter_titles(titled, &spans(titled), 0)
      .iter()
      .map(|&(a, b)| &titled[a..b])
      .collect();
    assert_eq!(chapters, ["Ed Wood", "Tim Burton"]);
    for no in [
      "a --> b\nc --> d\ne --> f",
      "12:00:01.000 --> 12:00:02.000 only one cue",
      "build --> done\n00:01.000 --> 00:02.000\n00:02.000 --> 00:03.000\n00:03.000 --> 00:04.000",
    ] {
      assert_eq!(cues_start(no, &spans(no)), None, "{no}");
    }
  }
}
