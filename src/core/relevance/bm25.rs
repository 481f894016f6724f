//! One BM25 (Robertson and Spärck Jones' Okapi weighting), shared by the extraction's
//! relevance engine and the ledger's ranker (`rank`): the same `K1`, `B`, idf and phrase
//! weight everywhere.

/// Term-frequency saturation: the textbook value (Robertson and Zaragoza 2009; Lucene and
/// tantivy use it too).
pub const K1: f32 = 1.2;
/// Length normalization: the textbook value.
pub const B: f32 = 0.75;
/// A task's phrase (a path, a quoted string) found whole counts like a rare term matched
/// once, times this: a phrase is several terms in order, worth more than any one of them.
pub const PHRASE: f32 = 2.0;

/// Inverse document frequency of a term found in `df` of `n` documents, in the form that
/// is never negative (Lucene's): a term in every document still counts a little.
pub fn idf(df: f32, n: f32) -> f32 {
  (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// The length normalization of a document of `len` words, with saturation `k1`.
pub fn saturation(k1: f32, len: u32, avg_len: f32) -> f32 {
  k1 * (1.0 - B + B * len as f32 / avg_len)
}

/// One term's BM25: found `tf` times in a document whose `saturation` is given.
pub fn term(k1: f32, weight: f32, idf: f32, tf: u32, saturation: f32) -> f32 {
  let f = tf as f32;
  weight * idf * f * (k1 + 1.0) / (f + saturation)
}
