//! `extractRelevantContext` and its async form.

use std::time::Instant;

use napi::bindgen_prelude::*;
use napi_derive::napi;

use super::args::{checked, Call, Checked, Signal};
use super::messages::read_messages;
use super::task::{job, Job, Raw};
use crate::core::cancel::{Cancel, Cancelled};
use crate::core::extract::{extract_messages, extract_text, Extraction, Options, DEFAULT_MIN_RELEVANCE};
use crate::core::message::Message;
use crate::core::segment::Granularity;

const GRANULARITIES: [&str; 3] = ["message", "paragraph", "sentence"];

#[napi(object)]
pub struct SegmentInfo {
  pub index: u32,
  pub score: f64,
  pub tokens: u32,
  pub kept: bool,
}

#[napi(object)]
pub struct DroppedSegment {
  pub index: u32,
  #[napi(ts_type = "'irrelevant' | 'sibling' | 'budget' | 'internal'")]
  pub reason: String,
}

#[napi(object)]
pub struct ExtractionMetrics {
  pub original_tokens: u32,
  pub extracted_tokens: u32,
  /// 1 − extracted / original: the share of the input left out (0 for empty input).
  pub reduction_ratio: f64,
  pub segments_total: u32,
  pub segments_kept: u32,
  /// Time spent extracting (reading the input from JavaScript excluded).
  pub duration_ms: f64,
}

/// The input: text, or messages with the array they came from (to hand back the kept ones).
enum Input {
  Text(String),
  Messages(Vec<Message>),
}

struct Request {
  input: Input,
  task: String,
  options: Options,
  audit: bool,
}

fn read<'env>(
  env: &Env,
  call: Call,
  full_context: &Unknown<'env>,
  task: &Unknown,
  options: Option<Unknown<'env>>,
) -> Checked<(Request, Option<Object<'env>>, Signal)> {
  let (input, array) = match full_context.get_type()? {
    ValueType::String => (Input::Text(call.string("fullContext", full_context)?), None),
    ValueType::Object if full_context.is_array()? => (
      Input::Messages(read_messages(env, call, "fullContext", full_context)?),
      Some(unsafe { full_context.cast::<Object>() }?),
    ),
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
    granularity: match call.choice_option(&o, "granularity", &GRANULARITIES)? {
      Some(0) => Granularity::Message,
      Some(1) => Granularity::Paragraph,
      _ => Granularity::Sentence,
    },
    elision: call.string_option(&o, "elision")?.unwrap_or(defaults.elision),
  };
  let audit = call.bool_option(&o, "audit", false)?;
  let signal = call.signal(&o)?;
  Ok((
    Request {
      input,
      task,
      options,
      audit,
    },
    array,
    signal,
  ))
}

fn run(request: &Request, cancel: &Cancel) -> std::result::Result<(Extraction, f64), Cancelled> {
  let started = Instant::now();
  let extraction = match &request.input {
    Input::Text(text) => extract_text(text, &request.task, &request.options, cancel)?,
    Input::Messages(messages) => extract_messages(messages, &request.task, &request.options, cancel)?,
  };
  Ok((extraction, started.elapsed().as_secs_f64() * 1000.0))
}

/// The JavaScript result; `source` is the input message array, whose kept elements
/// are handed back as they are (same objects, same shape).
fn result<'env>(
  env: &'env Env,
  e: Extraction,
  duration_ms: f64,
  audit: bool,
  source: Option<&Object>,
) -> Result<Object<'env>> {
  let mut out = Object::new(env)?;
  let kept = e.segments_kept() as u32;
  let total = e.segments.len() as u32;
  let ratio = if e.original_tokens == 0 {
    0.0
  } else {
    1.0 - e.extracted_tokens as f64 / e.original_tokens as f64
  };
  out.set_named_property("relevantContext", e.text)?;
  if let (Some(indices), Some(source)) = (e.messages, source) {
    let mut kept_messages = env.create_array(indices.len() as u32)?;
    for (k, &i) in indices.iter().enumerate() {
      kept_messages.set(k as u32, source.get_element::<Unknown>(i as u32)?)?;
    }
    out.set_named_property("relevantMessages", kept_messages)?;
  }
  out.set_named_property("keywords", e.keywords)?;
  let mut dropped = Vec::new();
  let segments: Vec<SegmentInfo> = e
    .segments
    .iter()
    .enumerate()
    .map(|(i, s)| {
      if let Some(reason) = s.dropped {
        dropped.push(DroppedSegment {
          index: i as u32,
          reason: reason.name().to_owned(),
        });
      }
      SegmentInfo {
        index: i as u32,
        score: s.score as f64,
        tokens: s.tokens as u32,
        kept: s.dropped.is_none(),
      }
    })
    .collect();
  out.set_named_property("segments", segments)?;
  if audit {
    out.set_named_property("dropped", dropped)?;
  }
  out.set_named_property(
    "metrics",
    ExtractionMetrics {
      original_tokens: e.original_tokens as u32,
      extracted_tokens: e.extracted_tokens as u32,
      reduction_ratio: ratio,
      segments_total: total,
      segments_kept: kept,
      duration_ms,
    },
  )?;
  Ok(out)
}

/// The part of `fullContext` (a string, or chat messages in any of the three formats)
/// that `task` needs, within `options.maxTokens` exact tokens, without what belongs
/// to `options.siblingTasks`.
#[napi(
  catch_unwind,
  ts_args_type = "fullContext: string | Message[], task: string, options?: ExtractOptions | undefined | null",
  ts_return_type = "ExtractionResult"
)]
pub fn extract_relevant_context<'env>(
  env: &'env Env,
  full_context: Unknown<'env>,
  task: Unknown<'env>,
  options: Option<Unknown<'env>>,
) -> Result<Object<'env>> {
  let call = Call("extractRelevantContext");
  let (request, array, _) = checked(env, || read(env, call, &full_context, &task, options))?;
  let (extraction, ms) =
    run(&request, &Cancel::new()).map_err(|_| Error::new(Status::Cancelled, "cancelled"))?;
  result(env, extraction, ms, request.audit, array.as_ref())
}

/// `extractRelevantContext` on the libuv thread pool; `options.signal` cancels it.
#[napi(
  catch_unwind,
  ts_args_type = "fullContext: string | Message[], task: string, options?: ExtractAsyncOptions | undefined | null",
  ts_return_type = "Promise<ExtractionResult>"
)]
pub fn extract_relevant_context_async(
  env: Env,
  full_context: Unknown,
  task: Unknown,
  options: Option<Unknown>,
) -> Result<AsyncTask<Job<(Extraction, f64), Raw>>> {
  let call = Call("extractRelevantContextAsync");
  let (request, array, signal) = checked(&env, || read(&env, call, &full_context, &task, options))?;
  let audit = request.audit;
  // The input array stays referenced until the result is built, to hand back its messages.
  job(
    call.0,
    signal,
    array.as_ref(),
    move |cancel: &Cancel| run(&request, cancel),
    move |env: &Env, (extraction, ms): (Extraction, f64), source: Option<Object>| {
      Ok(Raw(result(env, extraction, ms, audit, source.as_ref())?.raw()))
    },
  )
}
