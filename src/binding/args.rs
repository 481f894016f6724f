//! Reading JavaScript arguments with errors that name the function, the parameter
//! and what was expected, thrown as `TypeError` or `RangeError`.

use napi::bindgen_prelude::*;

use crate::core::tokens::Encoding;

/// Why a call was refused.
pub enum Refusal {
  Type(String),
  Range(String),
  /// An exception JavaScript already has pending (a getter threw), or a napi failure.
  Js(Error),
}

impl From<Error> for Refusal {
  fn from(e: Error) -> Self {
    Refusal::Js(e)
  }
}

pub type Checked<T> = std::result::Result<T, Refusal>;

/// An `AbortSignal` and whether it had already fired when the call was made.
pub type Signal = Option<(AbortSignal, bool)>;

/// Throws `refusal` into JavaScript; the returned error tells napi-rs the exception
/// is already pending.
pub fn throw(env: &Env, refusal: Refusal) -> Error {
  let thrown = match &refusal {
    Refusal::Type(m) => env.throw_type_error(m, Some("ERR_INVALID_ARG_TYPE")),
    Refusal::Range(m) => env.throw_range_error(m, Some("ERR_OUT_OF_RANGE")),
    Refusal::Js(_) => Ok(()),
  };
  match (refusal, thrown) {
    (Refusal::Js(e), _) => e,
    (_, Ok(())) => Error::from_status(Status::PendingException),
    (_, Err(e)) => e,
  }
}

/// Runs the body of a `#[napi]` function, throwing any refusal.
pub fn checked<T>(env: &Env, body: impl FnOnce() -> Checked<T>) -> Result<T> {
  body().map_err(|r| throw(env, r))
}

/// What a value is, for error messages: `number 42`, `null`, `an array`, …
pub fn describe(value: &Unknown) -> String {
  match value.get_type() {
    Ok(ValueType::Undefined) => "undefined".into(),
    Ok(ValueType::Null) => "null".into(),
    Ok(ValueType::Boolean) => "a boolean".into(),
    Ok(ValueType::Number) => match unsafe { value.cast::<f64>() } {
      Ok(n) => format!("the number {n}"),
      Err(_) => "a number".into(),
    },
    Ok(ValueType::BigInt) => "a bigint".into(),
    Ok(ValueType::String) => "a string".into(),
    Ok(ValueType::Symbol) => "a symbol".into(),
    Ok(ValueType::Function) => "a function".into(),
    Ok(ValueType::Object) if value.is_array().unwrap_or(false) => "an array".into(),
    Ok(ValueType::Object) => "an object".into(),
    _ => "an unsupported value".into(),
  }
}

/// The function being called, for error messages.
#[derive(Clone, Copy)]
pub struct Call(pub &'static str);

impl Call {
  pub fn type_error(self, param: &str, expected: &str, got: &Unknown) -> Refusal {
    Refusal::Type(format!(
      "{}: `{param}` must be {expected}, got {}",
      self.0,
      describe(got)
    ))
  }

  pub fn is_nullish(value: &Unknown) -> bool {
    matches!(value.get_type(), Ok(ValueType::Undefined | ValueType::Null))
  }

  /// A required string.
  pub fn string(self, param: &str, value: &Unknown) -> Checked<String> {
    match value.get_type()? {
      ValueType::String => Ok(unsafe { value.cast::<String>() }?),
      _ => Err(self.type_error(param, "a string", value)),
    }
  }

  /// An optional options object (`undefined` and `null` mean none).
  pub fn options<'env>(self, value: Option<Unknown<'env>>) -> Checked<Option<Object<'env>>> {
    match value {
      None => Ok(None),
      Some(v) if Self::is_nullish(&v) => Ok(None),
      Some(v) if v.get_type()? == ValueType::Object && !v.is_array()? => {
        Ok(Some(unsafe { v.cast::<Object>() }?))
      }
      Some(v) => Err(self.type_error("options", "an object", &v)),
    }
  }

  /// `options.<key>`, or `None` when there are no options or the key is `undefined`/`null`.
  pub fn option<'env>(self, options: &Option<Object<'env>>, key: &str) -> Checked<Option<Unknown<'env>>> {
    let Some(o) = options else { return Ok(None) };
    let v: Unknown = o.get_named_property(key)?;
    Ok(if Self::is_nullish(&v) { None } else { Some(v) })
  }

  /// `options.encoding`, default `o200k_base`.
  pub fn encoding(self, options: &Option<Object>) -> Checked<Encoding> {
    Ok(match self.choice_option(options, "encoding", &Encoding::NAMES)? {
      Some(i) => Encoding::ALL[i],
      None => Encoding::default(),
    })
  }

  /// `options.signal`: an `AbortSignal`, and whether it has already fired.
  pub fn signal(self, options: &Option<Object>) -> Checked<Signal> {
    let Some(v) = self.option(options, "signal")? else {
      return Ok(None);
    };
    let is_signal = v.get_type()? == ValueType::Object && {
      let o = unsafe { v.cast::<Object>() }?;
      o.has_named_property("aborted")? && o.has_named_property("addEventListener")?
    };
    if !is_signal {
      return Err(self.type_error("options.signal", "an AbortSignal", &v));
    }
    let aborted: bool = unsafe { v.cast::<Object>() }?
      .get_named_property::<Unknown>("aborted")?
      .coerce_to_bool()?;
    Ok(Some((unsafe { v.cast::<AbortSignal>() }?, aborted)))
  }

  /// `options.<key>` as a boolean, `default` when absent.
  pub fn bool_option(self, options: &Option<Object>, key: &str, default: bool) -> Checked<bool> {
    match self.option(options, key)? {
      None => Ok(default),
      Some(v) if v.get_type()? == ValueType::Boolean => Ok(unsafe { v.cast::<bool>() }?),
      Some(v) => Err(self.type_error(&format!("options.{key}"), "a boolean", &v)),
    }
  }

  /// `options.<key>` as a string, `None` when absent.
  pub fn string_option(self, options: &Option<Object>, key: &str) -> Checked<Option<String>> {
    match self.option(options, key)? {
      None => Ok(None),
      Some(v) => self.string(&format!("options.{key}"), &v).map(Some),
    }
  }

  /// `options.<key>` as a number within `min..=max`, `None` when absent.
  pub fn number_option(
    self,
    options: &Option<Object>,
    key: &str,
    min: f64,
    max: f64,
  ) -> Checked<Option<f64>> {
    let Some(v) = self.option(options, key)? else {
      return Ok(None);
    };
    if v.get_type()? != ValueType::Number {
      return Err(self.type_error(&format!("options.{key}"), "a number", &v));
    }
    let n = unsafe { v.cast::<f64>() }?;
    if n.is_nan() || n < min || n > max {
      return Err(Refusal::Range(format!(
        "{}: `options.{key}` must be a number from {min} to {max}, got {n}",
        self.0
      )));
    }
    Ok(Some(n))
  }

  /// `options.<key>` as a whole number ≥ 0; `Infinity` means no limit (`None`).
  pub fn count_option(self, options: &Option<Object>, key: &str) -> Checked<Option<usize>> {
    let Some(v) = self.option(options, key)? else {
      return Ok(None);
    };
    if v.get_type()? != ValueType::Number {
      return Err(self.type_error(&format!("options.{key}"), "a whole number ≥ 0", &v));
    }
    let n = unsafe { v.cast::<f64>() }?;
    if n == f64::INFINITY {
      return Ok(None);
    }
    if n.is_nan() || n < 0.0 || n.fract() != 0.0 {
      return Err(Refusal::Range(format!(
        "{}: `options.{key}` must be a whole number ≥ 0, got {n}",
        self.0
      )));
    }
    Ok(Some(n.min(usize::MAX as f64) as usize))
  }

  /// `options.<key>` as an array of strings, empty when absent.
  pub fn strings_option(self, options: &Option<Object>, key: &str) -> Checked<Vec<String>> {
    let Some(v) = self.option(options, key)? else {
      return Ok(Vec::new());
    };
    if v.get_type()? != ValueType::Object || !v.is_array()? {
      return Err(self.type_error(&format!("options.{key}"), "an array of strings", &v));
    }
    let array = unsafe { v.cast::<Object>() }?;
    (0..array.get_array_length()?)
      .map(|i| {
        let item: Unknown = array.get_element(i)?;
        self.string(&format!("options.{key}[{i}]"), &item)
      })
      .collect()
  }

  /// `options.<key>` as one of `choices`, `None` when absent.
  pub fn choice_option(
    self,
    options: &Option<Object>,
    key: &str,
    choices: &[&str],
  ) -> Checked<Option<usize>> {
    let Some(v) = self.option(options, key)? else {
      return Ok(None);
    };
    let expected = format!(
      "one of {}",
      choices
        .iter()
        .map(|c| format!("'{c}'"))
        .collect::<Vec<_>>()
        .join(", ")
    );
    if v.get_type()? != ValueType::String {
      return Err(self.type_error(&format!("options.{key}"), &expected, &v));
    }
    let value = unsafe { v.cast::<String>() }?;
    match choices.iter().position(|c| *c == value) {
      Some(i) => Ok(Some(i)),
      None => Err(Refusal::Range(format!(
        "{}: `options.{key}` must be {expected}, got '{value}'",
        self.0
      ))),
    }
  }
}

/// The fields of a plain object argument (`config`, `config.architecture`, …), read
/// with errors that name the field's path.
pub struct Fields<'env> {
  pub call: Call,
  pub path: String,
  pub object: Object<'env>,
}

impl<'env> Fields<'env> {
  /// `value` as an object whose fields are read under `path`.
  pub fn of(call: Call, path: &str, value: &Unknown<'env>) -> Checked<Self> {
    if value.get_type()? != ValueType::Object || value.is_array()? {
      return Err(call.type_error(path, "an object", value));
    }
    Ok(Fields {
      call,
      path: path.to_string(),
      object: unsafe { value.cast::<Object>() }?,
    })
  }

  fn name(&self, key: &str) -> String {
    format!("{}.{key}", self.path)
  }

  /// The field, `None` when it is `undefined` or `null`.
  pub fn get(&self, key: &str) -> Checked<Option<Unknown<'env>>> {
    self.call.option(&Some(self.object), key)
  }

  pub fn string(&self, key: &str) -> Checked<Option<String>> {
    self
      .get(key)?
      .map(|v| self.call.string(&self.name(key), &v))
      .transpose()
  }

  pub fn required_string(&self, key: &str) -> Checked<String> {
    match self.get(key)? {
      Some(v) => self.call.string(&self.name(key), &v),
      None => Err(Refusal::Type(format!(
        "{}: `{}` must be a string, got undefined",
        self.call.0,
        self.name(key)
      ))),
    }
  }

  /// An array of strings, empty when absent.
  pub fn strings(&self, key: &str) -> Checked<Vec<String>> {
    self
      .call
      .strings_option(&Some(self.object), key)
      .map_err(|r| self.rename(r))
  }

  /// One of `choices`, `None` when absent.
  pub fn choice(&self, key: &str, choices: &[&str]) -> Checked<Option<usize>> {
    self
      .call
      .choice_option(&Some(self.object), key, choices)
      .map_err(|r| self.rename(r))
  }

  /// A whole number ≥ 0 (`Infinity`: `None`, as when absent).
  pub fn count(&self, key: &str) -> Checked<Option<usize>> {
    self
      .call
      .count_option(&Some(self.object), key)
      .map_err(|r| self.rename(r))
  }

  /// A nested object's fields, `None` when absent.
  pub fn object(&self, key: &str) -> Checked<Option<Fields<'env>>> {
    self
      .get(key)?
      .map(|v| Fields::of(self.call, &self.name(key), &v))
      .transpose()
  }

  /// An object of strings (`path → content`), as (key, value) pairs in key order.
  pub fn record(&self, key: &str) -> Checked<Vec<(String, String)>> {
    let Some(fields) = self.object(key)? else {
      return Ok(Vec::new());
    };
    let keys = fields.object.get_property_names()?;
    (0..keys.get_array_length()?)
      .map(|i| {
        let k: String = keys
          .get_element::<Unknown>(i)?
          .coerce_to_string()?
          .into_utf8()?
          .as_str()?
          .to_string();
        let v: Unknown = fields.object.get_named_property(&k)?;
        Ok((
          k.clone(),
          self.call.string(&format!("{}[{k:?}]", fields.path), &v)?,
        ))
      })
      .collect()
  }

  /// The `*_option` readers name a field `options.<key>`; here it is `<path>.<key>`.
  fn rename(&self, refusal: Refusal) -> Refusal {
    let fix = |m: String| m.replacen("`options.", &format!("`{}.", self.path), 1);
    match refusal {
      Refusal::Type(m) => Refusal::Type(fix(m)),
      Refusal::Range(m) => Refusal::Range(fix(m)),
      other => other,
    }
  }
}
