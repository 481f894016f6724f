//! Reading JavaScript arguments with errors that name the function, the parameter
//! and what was expected, thrown as `TypeError` or `RangeError`.

use napi::bindgen_prelude::*;
use napi::JsString;

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

/// A JavaScript string as UTF-8, lone surrogates replaced by U+FFFD (as Node's own
/// UTF-8 conversion does). Read as UTF-16, which V8 copies out as it stores it, and
/// converted here with an ASCII fast path: for text with any non-Latin-1 character
/// this is several times faster than asking V8 for UTF-8, which measures the UTF-8
/// length in one pass and encodes in a second.
pub fn read_string(value: &Unknown) -> Result<String> {
  let utf16 = unsafe { value.cast::<JsString>() }?.into_utf16()?;
  let units = utf16.as_slice();
  Ok(utf16_to_string(&units[..units.len().saturating_sub(1)]))
}

fn utf16_to_string(units: &[u16]) -> String {
  let mut out: Vec<u8> = Vec::with_capacity(units.len() + units.len() / 4);
  let mut i = 0;
  while i < units.len() {
    // ASCII runs 16 units at a time (the compiler vectorizes the test and the copy):
    // three times faster than a unit at a time on transcript text.
    while let Some(chunk) = units.get(i..i + 16) {
      if chunk.iter().fold(0, |all, &u| all | u) >= 0x80 {
        break;
      }
      out.extend(chunk.iter().map(|&u| u as u8));
      i += 16;
    }
    let Some(&u) = units.get(i) else { break };
    if u < 0x80 {
      out.push(u as u8);
      i += 1;
      continue;
    }
    let (c, width) = match char::decode_utf16(units[i..].iter().copied().take(2)).next() {
      Some(Ok(c)) => (c, c.len_utf16()),
      _ => (char::REPLACEMENT_CHARACTER, 1),
    };
    let mut buf = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    i += width;
  }
  // Only whole characters were written, so this cannot fail; were it to, the text
  // would still come through, with replacement characters.
  String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// UTF-16 offsets of the given (sorted) byte offsets of `text`: where JavaScript's
/// string indices fall.
pub fn utf16_offsets(text: &str, byte_offsets: impl IntoIterator<Item = usize>) -> Vec<u32> {
  let bytes = text.as_bytes();
  let mut at = 0;
  let mut units = 0usize;
  byte_offsets
    .into_iter()
    .map(|b| {
      for &byte in &bytes[at..b] {
        // A lead byte starts one unit, a 4-byte lead two; continuation bytes none.
        units += usize::from(byte & 0xC0 != 0x80) + usize::from(byte >= 0xF0);
      }
      at = b;
      u32::try_from(units).unwrap_or(u32::MAX)
    })
    .collect()
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
      ValueType::String => Ok(read_string(value)?),
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
