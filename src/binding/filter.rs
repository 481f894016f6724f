//! `filterSubagentResult` and its async form.

use napi::bindgen_prelude::*;
use napi_derive::napi;

use super::args::{checked, Call, Checked, Signal};
use super::messages::read_messages;
use super::task::{as_is, job, Job};
use crate::core::cancel::{Cancel, Cancelled};
use crate::core::filter::{filter_result, transcript_result, FilterOptions, DEFAULT_RESULT_MIN_RELEVANCE};

#[napi(object)]
pub struct Citation {
  /// The marker as it appears in the text: `[1]`, `[^note]`, `[text](url)`, a URL,
  /// `(source: …)` or `path/file.ts:42`.
  pub marker: String,
  /// What it points to: a definition's text, a link's URL, the named source.
  pub target: Option<String>,
}

#[napi(object)]
pub struct FilterMetrics {
  pub original_tokens: u32,
  pub filtered_tokens: u32,
  /// `1 - filteredTokens / originalTokens` (0 when the result was empty).
  pub reduction_ratio: f64,
  pub segments_kept: u32,
  pub segments_dropped: u32,
  /// Markers and forged system headers removed.
  pub markers_removed: u32,
}

#[napi(object)]
pub struct FilteredResult {
  pub content: String,
  /// Every source the kept content cites, once, in order of first use.
  pub citations: Vec<Citation>,
  pub metrics: FilterMetrics,
}

struct Request {
  result: String,
  task: String,
  options: FilterOptions,
}

fn read(
  env: &Env,
  call: Call,
  result: &Unknown,
  task: &Unknown,
  options: Option<Unknown>,
) -> Checked<(Request, Signal)> {
  const EXPECTED: &str = "a string, an array of messages or an object with a string `content`";
  let result = match result.get_type()? {
    ValueType::String => call.string("result", result)?,
    ValueType::Object if result.is_array()? => {
      transcript_result(&read_messages(env, call, "result", result)?)
    }
    ValueType::Object => {
      let content: Unknown = unsafe { result.cast::<Object>() }?.get_named_property("content")?;
      if content.get_type()? != ValueType::String {
        return Err(call.type_error("result.content", "a string", &content));
      }
      call.string("result.content", &content)?
    }
    _ => return Err(call.type_error("result", EXPECTED, result)),
  };
  let task = call.string("originalTask", task)?;
  let o = call.options(options)?;
  let options = FilterOptions {
    max_tokens: call.count_option(&o, "maxTokens")?,
    encoding: call.encoding(&o)?,
    min_relevance: call
      .number_option(&o, "minRelevance", 0.0, 1.0)?
      .map_or(DEFAULT_RESULT_MIN_RELEVANCE, |v| v as f32),
    keep_citations: call.bool_option(&o, "keepCitations", true)?,
    focus: call.bool_option(&o, "focus", true)?,
  };
  Ok((
    Request {
      result,
      task,
      options,
    },
    call.signal(&o)?,
  ))
}

fn run(r: &Request, cancel: &Cancel) -> std::result::Result<FilteredResult, Cancelled> {
  let f = filter_result(&r.result, &r.task, &r.options, cancel)?;
  let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
  Ok(FilteredResult {
    metrics: FilterMetrics {
      original_tokens: count(f.original_tokens),
      filtered_tokens: count(f.filtered_tokens),
      reduction_ratio: if f.original_tokens == 0 {
        0.0
      } else {
        1.0 - f.filtered_tokens as f64 / f.original_tokens as f64
      },
      segments_kept: count(f.segments_kept),
      segments_dropped: count(f.segments_dropped),
      markers_removed: count(f.markers_removed),
    },
    citations: f
      .citations
      .into_iter()
      .map(|c| Citation {
        marker: c.marker,
        target: c.target,
      })
      .collect(),
    content: f.content,
  })
}

/// What a subagent returned, reduced to what serves `originalTask`: markers, forged
/// system markup and debug lines removed, the relevant parts kept with their headings,
/// code and citations (every kept marker with its definition), within
/// `options.maxTokens` exact tokens. A result that already fits comes back as it is.
#[napi(
  catch_unwind,
  ts_args_type = "result: string | Message[] | { content: string; [key: string]: unknown }, originalTask: string, options?: FilterOptions | undefined | null"
)]
pub fn filter_subagent_result(
  env: Env,
  result: Unknown,
  original_task: Unknown,
  options: Option<Unknown>,
) -> Result<FilteredResult> {
  let call = Call("filterSubagentResult");
  let (request, _) = checked(&env, || read(&env, call, &result, &original_task, options))?;
  run(&request, &Cancel::new()).map_err(|_| Error::new(Status::Cancelled, "filterSubagentResult: cancelled"))
}

/// `filterSubagentResult` on the libuv thread pool; `options.signal` cancels it.
#[napi(
  catch_unwind,
  ts_args_type = "result: string | Message[] | { content: string; [key: string]: unknown }, originalTask: string, options?: FilterAsyncOptions | undefined | null",
  ts_return_type = "Promise<FilteredResult>"
)]
pub fn filter_subagent_result_async(
  env: Env,
  result: Unknown,
  original_task: Unknown,
  options: Option<Unknown>,
) -> Result<AsyncTask<Job<FilteredResult, FilteredResult>>> {
  let call = Call("filterSubagentResultAsync");
  let (request, signal) = checked(&env, || read(&env, call, &result, &original_task, options))?;
  job(
    call.0,
    signal,
    move |cancel: &Cancel| run(&request, cancel),
    as_is,
  )
}
