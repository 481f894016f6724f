//! `rankByRelevance`, its async form, and `RelevanceIndex` (the incremental index the
//! subtask ledger keeps, so that ranking ten thousand stored items does not mean
//! re-reading them on every call).

use napi::bindgen_prelude::*;
use napi_derive::napi;

use super::args::{checked, Call, Checked, Refusal};
use super::task::{as_is, job, Job};
use crate::core::cancel::Cancel;
use crate::core::rank::{rank, Collection};
use crate::core::terms::Terms;

/// Default `max` of `RelevanceIndex.search`.
const DEFAULT_MAX: usize = 10;

/// A required array of strings.
fn strings(call: Call, param: &str, value: &Unknown) -> Checked<Vec<String>> {
  if value.get_type()? != ValueType::Object || !value.is_array()? {
    return Err(call.type_error(param, "an array of strings", value));
  }
  let array = unsafe { value.cast::<Object>() }?;
  (0..array.get_array_length()?)
    .map(|i| {
      let item: Unknown = array.get_element(i)?;
      call.string(&format!("{param}[{i}]"), &item)
    })
    .collect()
}

/// A document id: a whole number from 0 to 2³² − 1.
fn id(call: Call, param: &str, value: &Unknown) -> Checked<u32> {
  let expected = "a document id (a whole number ≥ 0)";
  if value.get_type()? != ValueType::Number {
    return Err(call.type_error(param, expected, value));
  }
  let n = unsafe { value.cast::<f64>() }?;
  if n.is_nan() || n < 0.0 || n.fract() != 0.0 || n > u32::MAX as f64 {
    return Err(Refusal::Range(format!(
      "{}: `{param}` must be {expected}, got {n}",
      call.0
    )));
  }
  Ok(n as u32)
}

/// The score of each document against `query`, in the order given: 0..1, where 0 means
/// no term in common and 1 a plain full match (every query term once, in a document of
/// average length). Terms and BM25 are those of `extractRelevantContext`; the documents
/// are scored as one collection (term rarity is counted among them).
#[napi(
  catch_unwind,
  ts_args_type = "query: string, documents: string[], options?: RankOptions | undefined | null"
)]
pub fn rank_by_relevance(
  env: Env,
  query: Unknown,
  documents: Unknown,
  options: Option<Unknown>,
) -> Result<Vec<f64>> {
  let call = Call("rankByRelevance");
  checked(&env, || {
    let query = call.string("query", &query)?;
    let documents = strings(call, "documents", &documents)?;
    call.options(options)?;
    Ok(rank(&query, &documents).into_iter().map(f64::from).collect())
  })
}

/// `rankByRelevance` on the libuv thread pool; `options.signal` cancels it.
#[napi(
  catch_unwind,
  ts_args_type = "query: string, documents: string[], options?: RankAsyncOptions | undefined | null",
  ts_return_type = "Promise<number[]>"
)]
pub fn rank_by_relevance_async(
  env: Env,
  query: Unknown,
  documents: Unknown,
  options: Option<Unknown>,
) -> Result<AsyncTask<Job<Vec<f64>, Vec<f64>>>> {
  let call = Call("rankByRelevanceAsync");
  checked(&env, || {
    let query = call.string("query", &query)?;
    let documents = strings(call, "documents", &documents)?;
    let options = call.options(options)?;
    let signal = call.signal(&options)?;
    Ok(job(
      call.0,
      signal,
      move |_: &Cancel| Ok(rank(&query, &documents).into_iter().map(f64::from).collect()),
      as_is,
    )?)
  })
}

/// One document found by `RelevanceIndex.search`.
#[napi(object)]
pub struct RelevanceHit {
  /// The id `add` returned for the document.
  pub id: u32,
  /// 0..1: 0 no term in common, 1 a plain full match (every query term once, in a
  /// document of average length).
  pub score: f64,
}

/// An incremental collection of documents ranked by relevance to a query, with the terms
/// and BM25 of `rankByRelevance`. Adding indexes one document; searching touches only the
/// documents that share a term with the query (or only `among`), so a search over ten
/// thousand short documents takes a fraction of a millisecond.
#[napi]
pub struct RelevanceIndex {
  inner: Collection,
}

impl Default for RelevanceIndex {
  fn default() -> Self {
    Self::new()
  }
}

#[napi]
impl RelevanceIndex {
  #[napi(constructor)]
  pub fn new() -> Self {
    Self {
      inner: Collection::new(),
    }
  }

  /// Indexes `text`; returns its id (0, 1, 2, … in the order added; never reused).
  #[napi(catch_unwind, ts_args_type = "text: string")]
  pub fn add(&mut self, env: Env, text: Unknown) -> Result<u32> {
    let call = Call("RelevanceIndex.add");
    let text = checked(&env, || call.string("text", &text))?;
    Ok(self.inner.add(&text))
  }

  /// Removes a document; returns whether it was there.
  #[napi(catch_unwind, ts_args_type = "id: number")]
  pub fn remove(&mut self, env: Env, id_: Unknown) -> Result<bool> {
    let call = Call("RelevanceIndex.remove");
    let doc = checked(&env, || id(call, "id", &id_))?;
    Ok(self.inner.remove(doc))
  }

  /// Number of documents in the index.
  #[napi(getter)]
  pub fn size(&self) -> u32 {
    self.inner.len() as u32
  }

  /// The documents that bear on `query`, best first (ties: lower id first).
  #[napi(
    catch_unwind,
    ts_args_type = "query: string, options?: RelevanceSearchOptions | undefined | null"
  )]
  pub fn search(&self, env: Env, query: Unknown, options: Option<Unknown>) -> Result<Vec<RelevanceHit>> {
    let call = Call("RelevanceIndex.search");
    let (query, among, min_score, max) = checked(&env, || {
      let query = call.string("query", &query)?;
      let o = call.options(options)?;
      // Absent: the default; `Infinity`: every hit.
      let max = match call.option(&o, "max")? {
        None => DEFAULT_MAX,
        Some(_) => call.count_option(&o, "max")?.unwrap_or(usize::MAX),
      };
      let min_score = call.number_option(&o, "minScore", 0.0, 1.0)?.unwrap_or(0.0) as f32;
      let among = match call.option(&o, "among")? {
        None => None,
        Some(v) => {
          if v.get_type()? != ValueType::Object || !v.is_array()? {
            return Err(call.type_error("options.among", "an array of document ids", &v));
          }
          let array = unsafe { v.cast::<Object>() }?;
          let ids = (0..array.get_array_length()?)
            .map(|i| {
              let item: Unknown = array.get_element(i)?;
              id(call, &format!("options.among[{i}]"), &item)
            })
            .collect::<Checked<Vec<u32>>>()?;
          Some(ids)
        }
      };
      Ok((query, among, min_score, max))
    })?;
    let hits = self
      .inner
      .search(&Terms::of_task(&query), among.as_deref(), min_score, max);
    Ok(
      hits
        .into_iter()
        .map(|h| RelevanceHit {
          id: h.doc,
          score: h.score as f64,
        })
        .collect(),
    )
  }
}
