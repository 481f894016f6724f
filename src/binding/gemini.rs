//! Google Gemini `Content` (`@google/genai`, Google ADK): `role` `user` or `model` (the
//! assistant), `parts` without a `type`, each holding one field: `text` (a thought summary
//! when `thought` is true), `functionCall` / `functionResponse`, `executableCode` /
//! `codeExecutionResult`, `toolCall` / `toolResponse` (server-side tools) and
//! `audioTranscription`; inline data and files carry no text. A call and its response
//! are tied by `id`; without one, by name in order (the API's own rule before ids: the
//! responses come in the order of the calls), so each is counted per name.

use napi::bindgen_prelude::*;

use super::args::{Call, Checked};
use super::messages::{Key, Path, Reader};
use crate::core::message::Part;

/// Fields that hold a whole function response (`{ output }`, ADK's `{ result }`,
/// `{ error }`): such a response is read as that field's text.
const RESPONSE_KEYS: [Key; 3] = [Key::Output, Key::Result, Key::Error];

/// What a code execution's call and result are named.
const CODE_EXECUTION: &str = "code_execution";

impl<'env> Reader<'_, 'env> {
  /// One part of a Gemini `Content` (a part without `type`), pushed onto `out`.
  pub(super) fn gemini_part(&mut self, p: &Object<'env>, path: Path, out: &mut Vec<Part>) -> Checked<()> {
    if let Some(text) = self.string(p, Key::Text, path)? {
      let thought = self.get(p, Key::Thought)?;
      let thought = thought.get_type()? == ValueType::Boolean && unsafe { thought.cast::<bool>() }?;
      out.push(if thought {
        Part::Thinking(text)
      } else {
        Part::Text(text)
      });
      return Ok(());
    }
    for (key, call) in [
      (Key::FunctionCallCamel, true),
      (Key::FunctionResponse, false),
      (Key::ExecutableCode, true),
      (Key::CodeExecutionResult, false),
      (Key::ToolCallCamel, true),
      (Key::ToolResponse, false),
    ] {
      let value = self.get(p, key)?;
      if Call::is_nullish(&value) {
        continue;
      }
      let fpath = || format!("{}.{}", path(), key.name());
      let o = self.object(&value, &fpath, "an object")?;
      let name = match key {
        Key::ExecutableCode | Key::CodeExecutionResult => CODE_EXECUTION.to_owned(),
        Key::ToolCallCamel | Key::ToolResponse => self.string(&o, Key::ToolType, &fpath)?.unwrap_or_default(),
        _ => self.string(&o, Key::Name, &fpath)?.unwrap_or_default(),
      };
      let id = match self.string(&o, Key::Id, &fpath)? {
        Some(id) => id,
        None if call => self.ordinals.call(&name),
        None => self.ordinals.response(&name),
      };
      out.push(match key {
        Key::FunctionCallCamel | Key::ToolCallCamel => {
          let args = self.get(&o, Key::Args)?;
          let arguments = self.json_text(&args, &|| format!("{}.args", fpath()))?;
          Part::ToolCall { id, name, arguments }
        }
        Key::ExecutableCode => {
          let arguments = self.string(&o, Key::Code, &fpath)?.unwrap_or_default();
          Part::ToolCall { id, name, arguments }
        }
        Key::CodeExecutionResult => {
          let content = self.string(&o, Key::Output, &fpath)?.unwrap_or_default();
          Part::ToolResult { call_id: id, content }
        }
        _ => {
          let response = self.get(&o, Key::Response)?;
          let content = self.gemini_response(&response, &|| format!("{}.response", fpath()))?;
          Part::ToolResult { call_id: id, content }
        }
      });
      return Ok(());
    }
    let transcription = self.get(p, Key::AudioTranscription)?;
    if !Call::is_nullish(&transcription) {
      let tpath = || format!("{}.audioTranscription", path());
      let t = self.object(&transcription, &tpath, "an object")?;
      if let Some(text) = self.string(&t, Key::Text, &tpath)? {
        out.push(Part::Text(text));
        return Ok(());
      }
    }
    // Inline data and files carry no text; a part of no member Gemini has (Pydantic AI's
    // `{ part_kind, content }`) is read by its fields (`shapes.rs`), or else as its JSON
    // text, so that what it says is not lost.
    let mut data = false;
    for key in [Key::InlineData, Key::FileData] {
      data |= !Call::is_nullish(&self.get(p, key)?);
    }
    if !data {
      if let Some(part) = self.shaped_part(p, path)? {
        out.push(part);
        return Ok(());
      }
    }
    if data || !self.has_unknown_field(p)? {
      out.push(Part::Other);
    } else {
      out.push(Part::Text(self.json_text(&p.to_unknown(), path)?));
    }
    Ok(())
  }

  /// A function response's text: the text of its one field when that is all it holds
  /// (`RESPONSE_KEYS`), else the whole response as JSON.
  fn gemini_response(&mut self, response: &Unknown<'env>, path: Path) -> Checked<String> {
    if response.get_type()? == ValueType::Object && !response.is_array()? {
      let o = unsafe { response.cast::<Object>() }?;
      if o.get_property_names()?.get_array_length()? == 1 {
        for key in RESPONSE_KEYS {
          let value = self.get(&o, key)?;
          if !Call::is_nullish(&value) {
            return self.json_text(&value, &|| format!("{}.{}", path(), key.name()));
          }
        }
      }
    }
    self.json_text(response, path)
  }
}
