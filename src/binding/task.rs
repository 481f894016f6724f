//! One async task type for every `…Async` function: the work runs on the libuv
//! thread pool (no JavaScript values in it), polls a cancellation flag that the
//! caller's `AbortSignal` sets, and turns a panic into an error instead of aborting
//! Node; `finish` builds the JavaScript result back on the main thread.

use std::panic::{catch_unwind, AssertUnwindSafe};

use napi::bindgen_prelude::*;

use super::args::Signal;
use crate::core::cancel::{Cancel, Cancelled};

type Work<O> = Box<dyn FnOnce(&Cancel) -> std::result::Result<O, Cancelled> + Send>;
type Finish<O, J> = Box<dyn FnOnce(&Env, O) -> Result<J> + Send>;

pub struct Job<O, J> {
  name: &'static str,
  work: Option<Work<O>>,
  finish: Option<Finish<O, J>>,
  cancel: Cancel,
}

/// The async task for `work`, whose output `finish` turns into the JavaScript value;
/// cancelled when `signal` fires (at once if it has already).
pub fn job<O, J>(
  name: &'static str,
  signal: Signal,
  work: impl FnOnce(&Cancel) -> std::result::Result<O, Cancelled> + Send + 'static,
  finish: impl FnOnce(&Env, O) -> Result<J> + Send + 'static,
) -> Result<AsyncTask<Job<O, J>>>
where
  O: Send + 'static,
  J: ToNapiValue + TypeName + 'static,
{
  let cancel = Cancel::new();
  let job = Job {
    name,
    work: Some(Box::new(work)),
    finish: Some(Box::new(finish)),
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
    match self.finish.take() {
      Some(finish) => finish(&env, output),
      None => Err(Error::new(
        Status::GenericFailure,
        format!("{}: resolved twice", self.name),
      )),
    }
  }
}

/// `finish` for results that are already JavaScript-ready values.
pub fn as_is<T>(_env: &Env, value: T) -> Result<T> {
  Ok(value)
}
