//! One async task type for every `…Async` function: the work runs on the libuv
//! thread pool (no JavaScript values in it), polls a cancellation flag that the
//! caller's `AbortSignal` sets, and turns a panic into an error instead of aborting
//! Node; `finish` builds the JavaScript result back on the main thread.

use std::panic::{catch_unwind, AssertUnwindSafe};

use napi::bindgen_prelude::*;

use super::args::Signal;
use crate::core::cancel::{Cancel, Cancelled};

type Work<O> = Box<dyn FnOnce(&Cancel) -> std::result::Result<O, Cancelled> + Send>;
type Finish<O, J> = Box<dyn for<'env> FnOnce(&'env Env, O, Option<Object<'env>>) -> Result<J> + Send>;

pub struct Job<O, J> {
  name: &'static str,
  work: Option<Work<O>>,
  finish: Option<Finish<O, J>>,
  /// A JavaScript value `finish` needs (the input array), referenced until the task ends.
  keep: Option<ObjectRef>,
  cancel: Cancel,
}

/// The async task for `work`, whose output `finish` turns into the JavaScript value
/// (with `keep`, kept alive until then); cancelled when `signal` fires (at once if it
/// has already).
pub fn job<O, J>(
  name: &'static str,
  signal: Signal,
  keep: Option<&Object>,
  work: impl FnOnce(&Cancel) -> std::result::Result<O, Cancelled> + Send + 'static,
  finish: impl for<'env> FnOnce(&'env Env, O, Option<Object<'env>>) -> Result<J> + Send + 'static,
) -> Result<AsyncTask<Job<O, J>>>
where
  O: Send + 'static,
  J: ToNapiValue + TypeName + 'static,
{
  let cancel = Cancel::new();
  let keep = keep.map(|o| o.create_ref()).transpose()?;
  let job = Job {
    name,
    work: Some(Box::new(work)),
    finish: Some(Box::new(finish)),
    keep,
    cancel: cancel.clone(),
  };
  Ok(match signal {
    None => AsyncTask::new(job),
    Some((signal, already_aborted)) => {
      if already_aborted {
        cancel.cancel();
      }
      signal.on_abort(move || cancel.cancel());
      AsyncTask::with_signal(job, signal)
    }
  })
}

impl<O, J> Task for Job<O, J>
where
  O: Send + 'static,
  J: ToNapiValue + TypeName + 'static,
{
  type Output = O;
  type JsValue = J;

  fn compute(&mut self) -> Result<O> {
    let Some(work) = self.work.take() else {
      return Err(Error::new(
        Status::GenericFailure,
        format!("{}: task ran twice", self.name),
      ));
    };
    let cancel = &self.cancel;
    match catch_unwind(AssertUnwindSafe(|| cancel.check().and_then(|()| work(cancel)))) {
      Ok(Ok(value)) => Ok(value),
      Ok(Err(Cancelled)) => Err(Error::new(Status::Cancelled, format!("{}: aborted", self.name))),
      Err(_) => Err(Error::new(
        Status::GenericFailure,
        format!(
          "{}: internal error (a bug in subagent-context; please report it)",
          self.name
        ),
      )),
    }
  }

  fn resolve(&mut self, env: Env, output: O) -> Result<J> {
    let kept = self.keep.as_ref().map(|r| r.get_value(&env)).transpose()?;
    match self.finish.take() {
      Some(finish) => finish(&env, output, kept),
      None => Err(Error::new(
        Status::GenericFailure,
        format!("{}: resolved twice", self.name),
      )),
    }
  }

  fn finally(mut self, env: Env) -> Result<()> {
    match self.keep.take() {
      Some(r) => r.unref(&env),
      None => Ok(()),
    }
  }
}

/// `finish` for results that are already JavaScript-ready values.
pub fn as_is<T>(_env: &Env, value: T, _kept: Option<Object>) -> Result<T> {
  Ok(value)
}

/// A JavaScript value `finish` built on the main thread, handed to napi as it is
/// (napi converts the task's value right after `resolve`, in the same scope).
pub struct Raw(pub napi::sys::napi_value);

impl TypeName for Raw {
  fn type_name() -> &'static str {
    "Object"
  }

  fn value_type() -> ValueType {
    ValueType::Object
  }
}

impl ToNapiValue for Raw {
  unsafe fn to_napi_value(_env: napi::sys::napi_env, value: Self) -> Result<napi::sys::napi_value> {
    Ok(value.0)
  }
}
