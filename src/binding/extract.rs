//! `extractRelevantContext` and its async form.

use std::time::Instant;

use napi::bindgen_prelude::*;
use napi_derive::napi;

use super::args::{checked, Call, Checked, Signal};
use super::messages::read_messages;
use super::task::{as_is, job, Job};
use crate::core::cancel::{Cancel, Cancelled};
use crate::core::extract::{
  extract_messages, extract_text, Extraction, Options, Reason, DEFAULT_MIN_RELEVANCE,
};
use crate::core::message::Message;
use crate::core::segment::Granularity;

/// What the native call returns: plain data and typed arrays with one entry per
/// segment, which cross the boundary cheaply (a million-token thread has ~70,000
/// segments; building that many objects property by property from Rust costs more
/// than the extraction). The package entry (`ts/native.ts`) turns it into the
/// `ExtractionResult` users see.
#[napi(object)]
pub struct NativeExtraction {
  pub relevant_context: String,
  /// For message input: indices of the kept messages.
  pub relevant_message_indices: Option<Uint32Array>,
  pub keywords: Vec<String>,
  pub scores: Float64Array,
  pub tokens: Uint32Array,
  /// Per segment: 0 kept, else why it was dropped (1 irrelevant, 2 sibling, 3 budget, 4 internal: `Reason::ALL`).
  pub dropped: Uint8Array,
  pub original_tokens: u32,
  pub extracted_tokens: u32,
  pub duration_ms: f64,
}

enum Input {
  Text(String),
  Messages(Vec<Message>),
}

struct Request {
  input: Input,
  task: String,
  options: Options,
}

fn read(
  env: &Env,
  call: Call,
  full_context: &Unknown,
  task: &Unknown,
  options: Option<Unknown>,
) -> Checked<(Request, Signal)> {
  let input = match full_context.get_type()? {
    ValueType::String => Input::Text(call.string("fullContext", full_context)?),
    ValueType::Object if full_context.is_array()? => {
      Input::Messages(read_messages(env, call, "fullContext", full_context)?)
    }
    _ => return Err(call.type_error("fullContext", "a string or an array of messages", full_context)),
  };
  let task = call.string("task", task)?;
  let o = call.options(options)?;
  let defaults = Options::default();
  let options = Options {
    max_tokens: call.count_option(&o, "maxTokens")?,
    encoding: call.encoding(&o)?,
    min_relevance: call
      .number_option(&o, "minRelevance", 0.0, 1.0)?
      .map_or(DEFAULT_MIN_RELEVANCE, |v| v as f32),
    sibling_tasks: call.strings_option(&o, "siblingTasks")?,
    keep_system: call.bool_option(&o, "keepSystem", defaults.keep_system)?,
    keep_recent: call.count_option(&o, "keepRecent")?.unwrap_or(0),
    granularity: call
      .choice_option(&o, "granularity", &Granularity::NAMED.map(|(_, name)| name))?
      .map_or(defaults.granularity, |k| Granularity::NAMED[k].0),
    elision: call.string_option(&o, "elision")?.unwrap_or(defaults.elision),
  };
  // `audit` only shapes the result, which the package entry builds; check it here.
  call.bool_option(&o, "audit", false)?;
  let signal = call.signal(&o)?;
  Ok((Request { input, task, options }, signal))
}

fn run(request: &Request, cancel: &Cancel) -> std::result::Result<NativeExtraction, Cancelled> {
  let started = Instant::now();
  let extraction = match &request.input {
    Input::Text(text) => extract_text(text, &request.task, &request.options, cancel)?,
    Input::Messages(messages) => extract_messages(messages, &request.task, &request.options, cancel)?,
  };
  Ok(native(extraction, started.elapsed().as_secs_f64() * 1000.0))
}

fn native(e: Extraction, duration_ms: f64) -> NativeExtraction {
  NativeExtraction {
    relevant_message_indices: e
      .messages
      .map(|m| Uint32Array::new(m.into_iter().map(|i| i as u32).collect())),
    keywords: e.keywords,
    scores: Float64Array::new(e.segments.iter().map(|s| s.score as f64).collect()),
    tokens: Uint32Array::new(e.segments.iter().map(|s| s.tokens as u32).collect()),
    dropped: Uint8Array::new(e.segments.iter().map(|s| Reason::code(s.dropped)).collect()),
    original_tokens: e.original_tokens as u32,
    extracted_tokens: e.extracted_tokens as u32,
    duration_ms,
    relevant_context: e.text,
  }
}

/// The part of `fullContext` (a string, or chat messages in any of the three formats)
/// that `task` needs, within `options.maxTokens` exact tokens, without what belongs to
/// `options.siblingTasks`. Returns columns; the package entry returns `ExtractionResult`.
#[napi(
  catch_unwind,
  ts_args_type = "fullContext: string | Message[], task: string, options?: ExtractOptions | undefined | null",
  ts_return_type = "NativeExtraction"
)]
pub fn extract_relevant_context(
  env: Env,
  full_context: Unknown,
  task: Unknown,
  options: Option<Unknown>,
) -> Result<NativeExtraction> {
  let call = Call("extractRelevantContext");
  let (request, _) = checked(&env, || read(&env, call, &full_context, &task, options))?;
  run(&request, &Cancel::new())
    .map_err(|_| Error::new(Status::Cancelled, "extractRelevantContext: cancelled"))
}

/// `extractRelevantContext` on the libuv thread pool; `options.signal` cancels it.
#[napi(
  catch_unwind,
  ts_args_type = "fullContext: string | Message[], task: string, options?: ExtractAsyncOptions | undefined | null",
  ts_return_type = "Promise<NativeExtraction>"
)]
pub fn extract_relevant_context_async(
  env: Env,
  full_context: Unknown,
  task: Unknown,
  options: Option<Unknown>,
) -> Result<AsyncTask<Job<NativeExtraction, NativeExtraction>>> {
  let call = Call("extractRelevantContextAsync");
  let (request, signal) = checked(&env, || read(&env, call, &full_context, &task, options))?;
  job(
    call.0,
    signal,
    move |cancel: &Cancel| run(&request, cancel),
    as_is,
  )
}
