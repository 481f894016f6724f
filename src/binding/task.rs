//! One async task type for every `…Async` function: the work runs on the libuv
//! thread pool, polls a cancellation flag that the caller's `AbortSignal` sets, and
//! turns a panic into an error instead of aborting Node.

use std::panic::{catch_unwind, AssertUnwindSafe};

use napi::bindgen_prelude::*;

use crate::core::cancel::{Cancel, Cancelled};

/// Work for the thread pool: everything it needs is moved in (no JavaScript values).
pub type Work<T> = Box<dyn FnOnce(&Cancel) -> std::result::Result<T, Cancelled> + Send>;

pub struct Job<T> {
  name: &'static str,
  work: Option<Work<T>>,
  cancel: Cancel,
}

/// The async task for `work`, cancelled when `signal` fires (at once if it has already).
pub fn job<T>(
  name: &'static str,
  signal: Option<(AbortSignal, bool)>,
  work: impl FnOnce(&Cancel) -> std::result::Result<T, Cancelled> + Send + 'static,
) -> AsyncTask<Job<T>>
where
  T: ToNapiValue + TypeName + Send + 'static,
{
  let cancel = Cancel::new();
  let job = Job {
    name,
    work: Some(Box::new(work)),
    cancel: cancel.clone(),
  };
  match signal {
    None => AsyncTask::new(job),
    Some((signal, already_aborted)) => {
      if already_aborted {
        cancel.cancel();
      }
      signal.on_abort(move || cancel.cancel());
      AsyncTask::with_signal(job, signal)
    }
  }
}

impl<T> Task for Job<T>
where
  T: ToNapiValue + TypeName + Send + 'static,
{
  type Output = T;
  type JsValue = T;

  fn compute(&mut self) -> Result<T> {
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

  fn resolve(&mut self, _env: Env, output: T) -> Result<T> {
    Ok(output)
  }
}
