//! `createIsolatedContext`, its async form, `renderPrompt` and `renderPromptParts`.
//!
//! These read plain objects: the package entry (`ts/isolate.ts`) has already copied
//! the allowed fields out of the caller's object (each read once, own properties
//! only), so that getters, proxies and prototypes never reach the core.

use std::sync::Arc;
use std::time::Instant;

use napi::bindgen_prelude::*;
use napi_derive::napi;

use super::args::{checked, Call, Checked, Fields, Signal};
use super::messages::read_messages;
use super::sanitize::read_sanitizer;
use super::task::{as_is, job, Job};
use crate::core::cancel::{Cancel, Cancelled};
use crate::core::isolate::PreparedThread as Prepared;
use crate::core::isolate::{
  isolate, sanitize_context, Architecture, Isolation, Settings, SubagentContext, Thread,
};
use crate::core::prompt;
use crate::core::sanitize::Sanitizer;

#[napi(object)]
pub struct NativeArchitecture {
  pub project_structure: String,
  pub key_patterns: Vec<String>,
  pub relevant_adrs: Vec<String>,
  pub dependency_names: Vec<String>,
  pub dependency_versions: Vec<String>,
  pub naming_conventions: String,
  pub track_nomenclature: String,
}

/// What the native call returns; the package entry builds the frozen
/// `IsolationResult` from it.
#[napi(object)]
pub struct NativeIsolation {
  pub task_id: Option<String>,
  pub task: String,
  pub original_query: Option<String>,
  pub relevant_context: Option<String>,
  pub user_id: Option<String>,
  pub instructions: Option<String>,
  pub constraints: Vec<String>,
  pub file_paths: Vec<String>,
  pub file_contents: Vec<String>,
  pub architecture: Option<NativeArchitecture>,
  pub clarifications: Vec<String>,
  pub parent_tokens: u32,
  pub isolated_tokens: u32,
  pub markers_removed: u32,
  pub duration_ms: f64,
}

/// The allowed fields of `f`; `context` holds the four conversation fields (the
/// config's `context` object, or `f` itself for a flat `SubagentContext`).
fn read_context(f: &Fields, context: Option<&Fields>) -> Checked<SubagentContext> {
  let inner = |key: &str| context.map_or(Ok(None), |c| c.string(key));
  let architecture = match f.object("architecture")? {
    None => None,
    Some(a) => Some(Architecture {
      project_structure: a.string("projectStructure")?.unwrap_or_default(),
      key_patterns: a.strings("keyPatterns")?,
      relevant_adrs: a.strings("relevantAdrs")?,
      dependencies: a.record("dependencies")?,
      naming_conventions: a.string("namingConventions")?.unwrap_or_default(),
      track_nomenclature: a.string("trackNomenclature")?.unwrap_or_default(),
    }),
  };
  Ok(SubagentContext {
    task_id: f.string("taskId")?,
    task: f.required_string("task")?,
    original_query: inner("originalQuery")?,
    relevant_context: inner("relevantContext")?,
    user_id: inner("userId")?,
    instructions: inner("instructions")?,
    constraints: f.strings("constraints")?,
    files: f.record("files")?,
    architecture,
    clarifications: f.strings("clarifications")?,
  })
}

struct Request {
  config: SubagentContext,
  thread: Option<Thread>,
  settings: Settings,
}

fn read(
  env: &Env,
  call: Call,
  config: &Unknown,
  thread: Option<Unknown>,
  options: Option<Unknown>,
) -> Checked<(Request, Signal)> {
  let f = Fields::of(call, "config", config)?;
  let context = f.object("context")?;
  let parsed = read_context(&f, context.as_ref())?;
  let thread = match thread {
    Some(t) => read_thread(env, call, &t, true)?,
    None => None,
  };
  let o = call.options(options)?;
  let settings = Settings {
    sibling_tasks: f.strings("siblingTasks")?,
    max_context_tokens: f.count("maxContextTokens")?,
    encoding: call.encoding(&o)?,
    sanitizer: read_sanitizer(call, "config.markers", f.get("markers")?)?,
  };
  Ok((
    Request {
      config: parsed,
      thread,
      settings,
    },
    call.signal(&o)?,
  ))
}

/// `fullThreadContext`: text, messages, or (where `prepared` allows) a `PreparedThread`.
fn read_thread(env: &Env, call: Call, t: &Unknown, prepared: bool) -> Checked<Option<Thread>> {
  let param = "fullThreadContext";
  Ok(match t.get_type()? {
    _ if Call::is_nullish(t) => None,
    ValueType::String => Some(Thread::Text(call.string(param, t)?)),
    ValueType::Object if t.is_array()? => Some(Thread::Messages(read_messages(env, call, param, t)?)),
    // The class's type tag is checked before its data is read: no other object passes.
    ValueType::Object if prepared => match unsafe {
      ClassInstance::<PreparedThread>::from_napi_value(env.raw(), t.raw())
    } {
      Ok(p) => Some(Thread::Prepared(p.inner.clone())),
      Err(_) => return Err(call.type_error(param, "a string, an array of messages or a PreparedThread", t)),
    },
    _ => {
      let expected = if prepared {
        "a string, an array of messages or a PreparedThread"
      } else {
        "a string or an array of messages"
      };
      return Err(call.type_error(param, expected, t));
    }
  })
}

fn run(r: &Request, cancel: &Cancel) -> std::result::Result<NativeIsolation, Cancelled> {
  let started = Instant::now();
  let Isolation {
    context: c,
    parent_tokens,
    isolated_tokens,
    markers_removed,
  } = isolate(&r.config, r.thread.as_ref(), &r.settings, cancel)?;
  let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
  let (file_paths, file_contents) = c.files.into_iter().unzip();
  Ok(NativeIsolation {
    task_id: c.task_id,
    task: c.task,
    original_query: c.original_query,
    relevant_context: c.relevant_context,
    user_id: c.user_id,
    instructions: c.instructions,
    constraints: c.constraints,
    file_paths,
    file_contents,
    architecture: c.architecture.map(|a| {
      let (dependency_names, dependency_versions) = a.dependencies.into_iter().unzip();
      NativeArchitecture {
        project_structure: a.project_structure,
        key_patterns: a.key_patterns,
        relevant_adrs: a.relevant_adrs,
        dependency_names,
        dependency_versions,
        naming_conventions: a.naming_conventions,
        track_nomenclature: a.track_nomenclature,
      }
    }),
    clarifications: c.clarifications,
    parent_tokens: count(parent_tokens),
    isolated_tokens: count(isolated_tokens),
    markers_removed: count(markers_removed),
    duration_ms: started.elapsed().as_secs_f64() * 1000.0,
  })
}

/// The subagent's context built from `config`'s allowed fields, every string
/// sanitized, with its relevant context extracted from `fullThreadContext` when given.
/// Returns plain data; the package entry returns the frozen `IsolationResult`.
#[napi(
  catch_unwind,
  ts_args_type = "config: SubagentConfig, fullThreadContext?: string | Message[] | PreparedThread | undefined | null, options?: IsolateOptions | undefined | null",
  ts_return_type = "NativeIsolation"
)]
pub fn create_isolated_context(
  env: Env,
  config: Unknown,
  full_thread_context: Option<Unknown>,
  options: Option<Unknown>,
) -> Result<NativeIsolation> {
  let call = Call("createIsolatedContext");
  let (request, _) = checked(&env, || read(&env, call, &config, full_thread_context, options))?;
  run(&request, &Cancel::new()).map_err(|_| Error::new(Status::Cancelled, "createIsolatedContext: cancelled"))
}

/// `createIsolatedContext` on the libuv thread pool; `options.signal` cancels it.
#[napi(
  catch_unwind,
  ts_args_type = "config: SubagentConfig, fullThreadContext?: string | Message[] | PreparedThread | undefined | null, options?: IsolateAsyncOptions | undefined | null",
  ts_return_type = "Promise<NativeIsolation>"
)]
pub fn create_isolated_context_async(
  env: Env,
  config: Unknown,
  full_thread_context: Option<Unknown>,
  options: Option<Unknown>,
) -> Result<AsyncTask<Job<NativeIsolation, NativeIsolation>>> {
  let call = Call("createIsolatedContextAsync");
  let (request, signal) = checked(&env, || read(&env, call, &config, full_thread_context, options))?;
  job(
    call.0,
    signal,
    move |cancel: &Cancel| run(&request, cancel),
    as_is,
  )
}

/// A parent thread prepared once for isolating many subagents' contexts from it (see
/// `prepareThread`). It holds a sanitized, counted and indexed copy of the thread as it
/// was when prepared.
#[napi]
pub struct PreparedThread {
  inner: Arc<Prepared>,
}

#[napi]
impl PreparedThread {
  /// Tokens of the thread as given (messages: `countMessageTokens`).
  #[napi(getter)]
  pub fn tokens(&self) -> u32 {
    u32::try_from(self.inner.tokens()).unwrap_or(u32::MAX)
  }

  /// The encoding it was prepared for.
  #[napi(getter, ts_return_type = "Encoding")]
  pub fn encoding(&self) -> &'static str {
    self.inner.encoding().name()
  }
}

fn read_prepare(
  env: &Env,
  call: Call,
  thread: &Unknown,
  options: Option<Unknown>,
) -> Checked<(Thread, Sanitizer, crate::core::tokens::Encoding, Signal)> {
  let Some(thread) = read_thread(env, call, thread, false)? else {
    return Err(call.type_error("fullThreadContext", "a string or an array of messages", thread));
  };
  let o = call.options(options)?;
  let sanitizer = read_sanitizer(call, "options.markers", call.option(&o, "markers")?)?;
  Ok((thread, sanitizer, call.encoding(&o)?, call.signal(&o)?))
}

/// `fullThreadContext` prepared once for `createIsolatedContext` and `spawnSubagent`:
/// sanitized with `options.markers` (the default markers without), counted in
/// `options.encoding`, segmented and indexed. A config isolated from it gets exactly
/// what it would get from the thread itself, without that work each time; a config
/// with other markers, or options with another encoding, is isolated from the thread
/// as given.
#[napi(
  catch_unwind,
  ts_args_type = "fullThreadContext: string | Message[], options?: PrepareThreadOptions | undefined | null"
)]
pub fn prepare_thread(
  env: Env,
  full_thread_context: Unknown,
  options: Option<Unknown>,
) -> Result<PreparedThread> {
  let call = Call("prepareThread");
  let (thread, sanitizer, encoding, _) =
    checked(&env, || read_prepare(&env, call, &full_thread_context, options))?;
  let inner = Prepared::new(thread, sanitizer, encoding, &Cancel::new())
    .map_err(|_| Error::new(Status::Cancelled, "prepareThread: cancelled"))?;
  Ok(PreparedThread {
    inner: Arc::new(inner),
  })
}

/// `prepareThread` on the libuv thread pool; `options.signal` cancels it.
#[napi(
  catch_unwind,
  ts_args_type = "fullThreadContext: string | Message[], options?: PrepareThreadAsyncOptions | undefined | null",
  ts_return_type = "Promise<PreparedThread>"
)]
pub fn prepare_thread_async(
  env: Env,
  full_thread_context: Unknown,
  options: Option<Unknown>,
) -> Result<AsyncTask<Job<Prepared, PreparedThread>>> {
  let call = Call("prepareThreadAsync");
  let (thread, sanitizer, encoding, signal) =
    checked(&env, || read_prepare(&env, call, &full_thread_context, options))?;
  job(
    call.0,
    signal,
    move |cancel: &Cancel| Prepared::new(thread, sanitizer, encoding, cancel),
    |_, inner| {
      Ok(PreparedThread {
        inner: Arc::new(inner),
      })
    },
  )
}

/// The subagent's prompt for `context` (see DESIGN.md, "Prompt"); each of its strings
/// is sanitized again with the default markers, so a hand-built context is safe too.
#[napi(
  catch_unwind,
  ts_args_type = "context: SubagentContext, options?: RenderPromptOptions | undefined | null"
)]
pub fn render_prompt(env: Env, context: Unknown, options: Option<Unknown>) -> Result<String> {
  let call = Call("renderPrompt");
  checked(&env, || {
    let (clean, options) = read_prompt(call, &context, options)?;
    Ok(prompt::render_prompt_with(&clean, &options))
  })
}

/// The prompt's two parts (`shared + task` is the whole prompt).
#[napi(object)]
pub struct NativePromptParts {
  pub shared: String,
  pub task: String,
}

/// `renderPrompt` in two parts: what siblings share (empty in the ADR order) and the task's own.
#[napi(
  catch_unwind,
  ts_args_type = "context: SubagentContext, options?: RenderPromptOptions | undefined | null"
)]
pub fn render_prompt_parts(
  env: Env,
  context: Unknown,
  options: Option<Unknown>,
) -> Result<NativePromptParts> {
  let call = Call("renderPromptParts");
  checked(&env, || {
    let (clean, options) = read_prompt(call, &context, options)?;
    let parts = prompt::render_parts(&clean, &options);
    Ok(NativePromptParts {
      shared: parts.shared,
      task: parts.task,
    })
  })
}

/// The context, sanitized, and the prompt's options; the shared material's strings are
/// sanitized the same way, so that they match the context's.
fn read_prompt(
  call: Call,
  context: &Unknown,
  options: Option<Unknown>,
) -> Checked<(SubagentContext, prompt::PromptOptions)> {
  let f = Fields::of(call, "context", context)?;
  let c = read_context(&f, Some(&f))?;
  let sanitizer = Sanitizer::default();
  let (clean, _) = sanitize_context(&c, &sanitizer);
  let options = call.options(options)?;
  let order = match call.choice_option(&options, "order", &["cache", "adr"])? {
    Some(1) => prompt::Order::Adr,
    _ => prompt::Order::Cache,
  };
  let shared = match call.option(&options, "shared")? {
    None => None,
    Some(v) => {
      let s = Fields::of(call, "options.shared", &v)?;
      let clean =
        |items: Vec<String>| -> Vec<String> { items.iter().map(|i| sanitizer.sanitize(i).text).collect() };
      Some(prompt::SharedMaterial {
        architecture: flag(&s, "architecture")?,
        instructions: flag(&s, "instructions")?,
        files: clean(s.strings("files")?),
        constraints: clean(s.strings("constraints")?),
        clarifications: clean(s.strings("clarifications")?),
      })
    }
  };
  Ok((clean, prompt::PromptOptions { order, shared }))
}

/// A boolean field of `options.shared`, `true` when absent.
fn flag(f: &Fields, key: &str) -> Checked<bool> {
  match f.get(key)? {
    None => Ok(true),
    Some(v) if v.get_type()? == ValueType::Boolean => Ok(unsafe { v.cast::<bool>() }?),
    Some(v) => Err(f.call.type_error(&format!("{}.{key}", f.path), "a boolean", &v)),
  }
}
