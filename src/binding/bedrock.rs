//! AWS Bedrock Converse content blocks (`@aws-sdk/client-bedrock-runtime`, and the agents
//! built on it): blocks without a `type`, each holding one member: `text`, `toolUse`
//! (`toolUseId`, `name`, `input`), `toolResult` (`toolUseId`, `content` of `text` and
//! `json` blocks), `reasoningContent`, `guardContent`, `citationsContent` and a text
//! `document`; images, videos, a document's bytes and cache points carry no text.

use napi::bindgen_prelude::*;

use super::args::{Call, Checked};
use super::messages::{Key, Path, Reader};
use crate::core::message::Part;

/// The members of a block that carry no text a model reads as text.
const NO_TEXT: [&str; 3] = ["image", "video", "cachePoint"];

impl<'env> Reader<'_, 'env> {
  /// The part a Bedrock content block is (a content part without `type`), or a
  /// `TypeError` when it holds none of the members a block holds.
  pub(super) fn bedrock_block(&mut self, p: &Object<'env>, path: Path) -> Checked<Part> {
    if let Some(text) = self.string(p, Key::Text, path)? {
      return Ok(Part::Text(text));
    }
    if let Some(o) = self.member(p, Key::ToolUse, path)? {
      let mpath = || format!("{}.toolUse", path());
      let input = self.get(&o, Key::Input)?;
      return Ok(Part::ToolCall {
        id: self.string(&o, Key::ToolUseIdCamel, &mpath)?.unwrap_or_default(),
        name: self.required_string(&o, Key::Name, &mpath)?,
        arguments: self.json_text(&input, &|| format!("{}.input", mpath()))?,
      });
    }
    if let Some(o) = self.member(p, Key::ToolResultCamel, path)? {
      let mpath = || format!("{}.toolResult", path());
      let content = self.get(&o, Key::Content)?;
      return Ok(Part::ToolResult {
        call_id: self.string(&o, Key::ToolUseIdCamel, &mpath)?.unwrap_or_default(),
        content: self.bedrock_blocks_text(&content, &|| format!("{}.content", mpath()))?,
      });
    }
    // A structured block in a tool's result: its JSON, as the model is sent it.
    let json = self.get(p, Key::Json)?;
    if !Call::is_nullish(&json) {
      return Ok(Part::Text(self.json_text(&json, &|| format!("{}.json", path()))?));
    }
    if let Some(o) = self.member(p, Key::ReasoningContent, path)? {
      let mpath = || format!("{}.reasoningContent", path());
      return Ok(match self.member(&o, Key::ReasoningText, &mpath)? {
        Some(r) => Part::Thinking(self.string(&r, Key::Text, &mpath)?.unwrap_or_default()),
        // Redacted reasoning: encrypted, no text.
        None => Part::Other,
      });
    }
    // Guarded text (`{ guardContent: { text: { text } } }`).
    if let Some(o) = self.member(p, Key::GuardContent, path)? {
      let mpath = || format!("{}.guardContent", path());
      return Ok(match self.member(&o, Key::Text, &mpath)? {
        Some(t) => Part::Text(self.string(&t, Key::Text, &mpath)?.unwrap_or_default()),
        None => Part::Other,
      });
    }
    // A cited answer: its text blocks.
    if let Some(o) = self.member(p, Key::CitationsContent, path)? {
      let content = self.get(&o, Key::Content)?;
      let cpath = || format!("{}.citationsContent.content", path());
      return Ok(Part::Text(self.bedrock_blocks_text(&content, &cpath)?));
    }
    // A document given as text (`source: { text }`) is read under its name; one given
    // as bytes or by location carries no text here.
    if let Some(o) = self.member(p, Key::Document, path)? {
      let mpath = || format!("{}.document", path());
      let source = self.member(&o, Key::Source, &mpath)?;
      let text = match source {
        Some(s) => self.string(&s, Key::Text, &|| format!("{}.source", mpath()))?,
        None => None,
      };
      return Ok(match text {
        Some(text) => match self.string(&o, Key::Name, &mpath)? {
          Some(name) if !name.trim().is_empty() => {
            Part::Text(format!("# {}\n\n{text}", name.replace(['\n', '\r'], " ")))
          }
          _ => Part::Text(text),
        },
        None => Part::Other,
      });
    }
    let names = p.get_property_names()?;
    for j in 0..names.get_array_length()? {
      let name: Unknown = names.get_element(j)?;
      if name.get_type()? == ValueType::String
        && NO_TEXT.contains(&unsafe { name.cast::<String>() }?.as_str())
      {
        return Ok(Part::Other);
      }
    }
    Err(self.refuse(
      path,
      ".type",
      "a string (or the part a Bedrock content block: `text`, `toolUse`, `toolResult`, …)",
      &self.get(p, Key::Type)?,
    ))
  }

  /// `object[key]` when it is an object (not an array), `None` when absent.
  fn member(&self, object: &Object<'env>, key: Key, path: Path) -> Checked<Option<Object<'env>>> {
    let value = self.get(object, key)?;
    if Call::is_nullish(&value) {
      return Ok(None);
    }
    let mpath = || format!("{}.{}", path(), key.name());
    Ok(Some(self.object(&value, &mpath, "an object")?))
  }

  /// The text of a list of Bedrock blocks (a tool result's content), a paragraph apart, as
  /// a message's parts are (blocks without text left out); a string as it is.
  fn bedrock_blocks_text(&mut self, content: &Unknown<'env>, path: Path) -> Checked<String> {
    if content.get_type()? != ValueType::Object || !content.is_array()? {
      return self.json_text(content, path);
    }
    let array = unsafe { content.cast::<Object>() }?;
    let mut texts = Vec::new();
    for j in 0..array.get_array_length()? {
      let item: Unknown = array.get_element(j)?;
      let item_path = || format!("{}[{j}]", path());
      let part = self.nest(&item_path, |r| {
        let block = r.object(&item, &item_path, "a content block object")?;
        r.bedrock_block(&block, &item_path)
      })?;
      if let Part::Text(t) | Part::Thinking(t) = part {
        texts.push(t);
      }
    }
    Ok(texts.join("\n\n"))
  }
}
