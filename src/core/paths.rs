//! Paths named in text: the files a tool call acts on, and absolute directories.

/// Whether `path` is `root` or lies under it.
pub fn under(path: &str, root: &str) -> bool {
  path
    .strip_prefix(root)
    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// The absolute paths a text names (`/dir/more`, two components at least), without
/// trailing punctuation.
pub fn absolute_paths(text: &str) -> impl Iterator<Item = &str> {
  path_words(text).filter_map(|w| {
    let w = w.trim_end_matches(['.', '/', '-']);
    let rest = w.strip_prefix('/')?;
    rest.split('/').filter(|c| !c.is_empty()).nth(1).map(|_| w)
  })
}

/// The files a text (a tool call's arguments) names: path-like words (`dir/name.ext`,
/// any depth), each as its last two components, so that `/repo/src/api/users.ts` in one
/// call and `src/api/users.ts` in another name the same file.
pub fn named_files(text: &str) -> impl Iterator<Item = &str> {
  path_words(text).filter_map(file_of)
}

/// The path-like words of a text: runs of path characters that hold a `/`.
fn path_words(text: &str) -> impl Iterator<Item = &str> {
  // Only a run with a `/` can be a path, so the runs are found from the slashes.
  let bytes = text.as_bytes();
  let path_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/');
  let mut end = 0;
  memchr::memchr_iter(b'/', bytes).filter_map(move |slash| {
    if slash < end {
      return None; // in the run already read
    }
    let start = bytes[..slash]
      .iter()
      .rposition(|&b| !path_byte(b))
      .map_or(0, |i| i + 1);
    end = bytes[slash..]
      .iter()
      .position(|&b| !path_byte(b))
      .map_or(bytes.len(), |i| slash + i);
    // Path bytes are ASCII: both ends are character boundaries.
    Some(&text[start..end])
  })
}

/// The file a path-like word names (`dir/name.ext`), as its last two components.
pub fn file_of(word: &str) -> Option<&str> {
  let word = word.trim_matches(|c| matches!(c, '.' | '/' | '-'));
  let (dir, name) = word.rsplit_once('/')?;
  let (stem, ext) = name.rsplit_once('.')?;
  if stem.is_empty() || ext.is_empty() || !ext.bytes().all(|b| b.is_ascii_alphanumeric()) {
    return None;
  }
  let parent = dir.rsplit('/').next().filter(|p| !p.is_empty())?;
  // `parent/name`, a slice of the word.
  let start = word.len() - name.len() - 1 - parent.len();
  Some(&word[start..])
}
