//! `sanitize` and its async form, and reading `MarkerRule`s.

use napi::bindgen_prelude::*;
use napi_derive::napi;

use super::args::{checked, utf16_offsets, Call, Checked, Fields, Refusal};
use super::task::{as_is, job, Job};
use crate::core::sanitize::{check_name, Action, Form, MarkerRule, RuleError, Sanitizer, MAX_NAME};

const FORMS: [&str; 3] = ["bracket", "tag", "both"];
const ACTIONS: [&str; 2] = ["drop", "strip"];

/// What the native call returns: the ranges of the input to keep, in JavaScript
/// string indices, so that the package entry builds the result by slicing the input
/// (no 10 MB string crosses the boundary twice; lone surrogates survive untouched).
#[napi(object)]
pub struct NativeSanitized {
  /// Start and end of each kept range, flattened.
  pub kept: Uint32Array,
  /// Markers removed (openers, closers and stray closers each count).
  pub removed: u32,
}

/// The default markers plus the rules in `value` (an array of `MarkerRule`), named
/// `param` in errors.
pub fn read_sanitizer(call: Call, param: &str, value: Option<Unknown>) -> Checked<Sanitizer> {
  let Some(value) = value else {
    return Ok(Sanitizer::default());
  };
  if value.get_type()? != ValueType::Object || !value.is_array()? {
    return Err(call.type_error(param, "an array of marker rules", &value));
  }
  let array = unsafe { value.cast::<Object>() }?;
  let mut rules = Vec::new();
  for i in 0..array.get_array_length()? {
    let path = format!("{param}[{i}]");
    let rule = Fields::of(call, &path, &array.get_element::<Unknown>(i)?)?;
    let name = rule.required_string("name")?;
    check_name(&name).map_err(|e| {
      let why = match e {
        RuleError::Empty => "has no letter or digit".to_string(),
        RuleError::TooLong => format!("is longer than {MAX_NAME} characters"),
        RuleError::Character(c) => format!("has {c:?}; names are ASCII letters, digits, '-', '_' and spaces"),
      };
      Refusal::Range(format!("{}: `{path}.name` {why}, got {name:?}", call.0))
    })?;
    let form = match rule.choice("form", &FORMS)? {
      Some(0) => Form::Bracket,
      Some(1) => Form::Tag,
      _ => Form::Both,
    };
    let action = match rule.choice("action", &ACTIONS)? {
      Some(1) => Action::Strip,
      _ => Action::Drop,
    };
    rules.push(MarkerRule { name, form, action });
  }
  // Every name was checked above; were one refused anyway, the call fails rather
  // than run without the caller's rules.
  Sanitizer::new(&rules)
    .map_err(|_| Refusal::Range(format!("{}: `{param}` has an invalid marker name", call.0)))
}

fn read(
  call: Call,
  text: &Unknown,
  options: Option<Unknown>,
) -> Checked<(String, Sanitizer, super::args::Signal)> {
  let text = call.string("text", text)?;
  let o = call.options(options)?;
  let sanitizer = read_sanitizer(call, "options.markers", call.option(&o, "markers")?)?;
  Ok((text, sanitizer, call.signal(&o)?))
}

fn run(text: &str, sanitizer: &Sanitizer) -> NativeSanitized {
  let (removals, removed) = sanitizer.removals(text);
  let mut bounds = Vec::with_capacity(2 * removals.len() + 2);
  let mut at = 0;
  for r in &removals {
    if r.start > at {
      bounds.extend([at, r.start]);
    }
    at = r.end;
  }
  if at < text.len() || text.is_empty() {
    bounds.extend([at, text.len()]);
  }
  NativeSanitized {
    kept: Uint32Array::new(utf16_offsets(text, bounds)),
    removed: u32::try_from(removed).unwrap_or(u32::MAX),
  }
}

/// `text` without internal markers and what they mark: the defaults (`[INTERNAL]`,
/// `[PRIVATE]`, `[CONFIDENTIAL]`, `<internal>`, `<system-reminder>`, `<thinking>`,
/// `<scratchpad>`) and `options.markers`. Idempotent: a second pass removes nothing.
#[napi(
  catch_unwind,
  ts_args_type = "text: string, options?: SanitizeOptions | undefined | null",
  ts_return_type = "NativeSanitized"
)]
pub fn sanitize(env: Env, text: Unknown, options: Option<Unknown>) -> Result<NativeSanitized> {
  let call = Call("sanitize");
  let (text, sanitizer, _) = checked(&env, || read(call, &text, options))?;
  Ok(run(&text, &sanitizer))
}

/// `sanitize` on the libuv thread pool; `options.signal` cancels it before it starts.
#[napi(
  catch_unwind,
  ts_args_type = "text: string, options?: SanitizeAsyncOptions | undefined | null",
  ts_return_type = "Promise<NativeSanitized>"
)]
pub fn sanitize_async(
  env: Env,
  text: Unknown,
  options: Option<Unknown>,
) -> Result<AsyncTask<Job<NativeSanitized, NativeSanitized>>> {
  let call = Call("sanitizeAsync");
  let (text, sanitizer, signal) = checked(&env, || read(call, &text, options))?;
  job(call.0, signal, move |_| Ok(run(&text, &sanitizer)), as_is)
}
