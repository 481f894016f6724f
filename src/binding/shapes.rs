//! Calls and results in formats no reader here names, read by the fields they have:
//! Pydantic AI's `tool-call` and `tool-return` parts, LlamaIndex's `tool_call` blocks and
//! its tool messages (their call's id in `additional_kwargs`). Whatever a format calls
//! its parts, a tool's name with its arguments is a call, a call's id with content is
//! the call's result, and content alone is text (reasoning, where the part's kind says so).

use napi::bindgen_prelude::*;

use super::args::{Call, Checked};
use super::messages::{Key, Path, Reader};
use crate::core::message::Part;

/// Where a call names its tool.
const NAME_KEYS: [Key; 3] = [Key::ToolNameSnake, Key::AiToolName, Key::Name];
/// Where a call holds its arguments.
const ARGUMENT_KEYS: [Key; 5] = [
  Key::Args,
  Key::Arguments,
  Key::Input,
  Key::ToolKwargs,
  Key::ToolInput,
];
/// Where a result names the call it answers (and a call its own id, unless in `id`).
const ID_KEYS: [Key; 5] = [
  Key::ToolCallId,
  Key::AiToolCallId,
  Key::CallIdSnake,
  Key::CallIdCamel,
  Key::ToolUseId,
];
/// Where a result or a text holds its content.
const CONTENT_KEYS: [Key; 4] = [Key::Content, Key::Result, Key::Output, Key::Text];
/// The kinds of part, in whatever field a format writes its kind (`part_kind`,
/// `block_type`), whose content is the model's reasoning, not text.
const REASONING_KINDS: [&str; 2] = ["thinking", "reasoning"];

impl<'env> Reader<'_, 'env> {
  /// A part of no format here, read by its fields: a call, a result or text; `None` when
  /// its fields are none of these.
  pub(super) fn shaped_part(&mut self, p: &Object<'env>, path: Path) -> Checked<Option<Part>> {
    let id = self.first_string(p, &ID_KEYS)?;
    if let (Some(name), Some((key, arguments))) = (
      self.first_string(p, &NAME_KEYS)?,
      self.first_value(p, &ARGUMENT_KEYS)?,
    ) {
      let id = match id.or(self.first_string(p, &[Key::Id])?) {
        Some(id) => id,
        None => self.ordinals.call(&name),
      };
      let arguments = self.json_text(&arguments, &|| format!("{}.{}", path(), key.name()))?;
      return Ok(Some(Part::ToolCall { id, name, arguments }));
    }
    let Some((key, content)) = self.first_value(p, &CONTENT_KEYS)? else {
      return Ok(None);
    };
    let text = self.json_text(&content, &|| format!("{}.{}", path(), key.name()))?;
    if let Some(call_id) = id {
      return Ok(Some(Part::ToolResult {
        call_id,
        content: text,
      }));
    }
    if content.get_type()? != ValueType::String {
      return Ok(None);
    }
    let mut reasoning = false;
    for (_, value) in self.unknown_fields(p)? {
      reasoning |= value.get_type()? == ValueType::String
        && REASONING_KINDS.contains(&unsafe { value.cast::<String>() }?.as_str());
    }
    Ok(Some(if reasoning {
      Part::Thinking(text)
    } else {
      Part::Text(text)
    }))
  }

  /// The parts of a message that holds them in a field of its own name (LlamaIndex's
  /// `blocks`), each read by its fields (`shaped_part`) or else as its JSON text; `None`
  /// where it has no such field. A tool message's parts are its call's result, the call's
  /// id in an object beside them (LlamaIndex's `additional_kwargs`).
  pub(super) fn shaped_parts(
    &mut self,
    m: &Object<'env>,
    role: &str,
    path: Path,
  ) -> Checked<Option<Vec<Part>>> {
    let mut parts = Vec::new();
    let mut listed = false;
    let mut call_id = None;
    for (name, value) in self.unknown_fields(m)? {
      if value.get_type()? != ValueType::Object {
        continue;
      }
      let fpath = || format!("{}.{name}", path());
      let object = unsafe { value.cast::<Object>() }?;
      if !value.is_array()? {
        if role == "tool" && call_id.is_none() {
          call_id = self.first_string(&object, &ID_KEYS)?;
        }
        continue;
      }
      listed = true;
      for j in 0..object.get_array_length()? {
        let item: Unknown = object.get_element(j)?;
        let ipath = || format!("{}[{j}]", fpath());
        let part = self.nest(&ipath, |r| r.shaped_element(&item, &ipath))?;
        parts.push(part);
      }
    }
    if !listed {
      return Ok(None);
    }
    Ok(Some(match call_id {
      Some(call_id) if parts.iter().all(|p| matches!(p, Part::Text(_))) => {
        let texts: Vec<String> = parts
          .into_iter()
          .filter_map(|p| match p {
            Part::Text(t) => Some(t),
            _ => None,
          })
          .collect();
        vec![Part::ToolResult {
          call_id,
          content: texts.join("\n\n"),
        }]
      }
      _ => parts,
    }))
  }

  /// An element of a message's own list of parts: read by its fields, or as its JSON text.
  fn shaped_element(&mut self, item: &Unknown<'env>, path: Path) -> Checked<Part> {
    if item.get_type()? == ValueType::Object && !item.is_array()? {
      let o = unsafe { item.cast::<Object>() }?;
      if let Some(part) = self.shaped_part(&o, path)? {
        return Ok(part);
      }
    }
    Ok(Part::Text(self.json_text(item, path)?))
  }

  /// The first of `keys` whose value in `o` is a string.
  fn first_string(&self, o: &Object<'env>, keys: &[Key]) -> Checked<Option<String>> {
    for &key in keys {
      let value = self.get(o, key)?;
      if value.get_type()? == ValueType::String {
        return Ok(Some(unsafe { value.cast::<String>() }?));
      }
    }
    Ok(None)
  }

  /// The first of `keys` with a value in `o` (not `undefined` or `null`), and that value.
  fn first_value(&self, o: &Object<'env>, keys: &[Key]) -> Checked<Option<(Key, Unknown<'env>)>> {
    for &key in keys {
      let value = self.get(o, key)?;
      if !Call::is_nullish(&value) {
        return Ok(Some((key, value)));
      }
    }
    Ok(None)
  }
}
