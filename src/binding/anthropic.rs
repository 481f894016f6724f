//! Anthropic content blocks beyond text, thinking, `tool_use` and `tool_result`:
//! documents (`document`, plain text or content blocks) and search results
//! (`search_result`), read as text under their title, as a model is shown them; server
//! tools (`server_tool_use` and its `*_tool_result`: web search, web fetch, code
//! execution, bash, text editor, tool search) and MCP (`mcp_tool_result`), read as
//! results (their calls are read as `tool_use` is). A PDF, an image or a file by id
//! carries no text.

use napi::bindgen_prelude::*;

use super::args::Checked;
use super::messages::{Key, Path, Reader};
use crate::core::message::Part;

impl<'env> Reader<'_, 'env> {
  /// The part an Anthropic block of `kind` is, or `None` when `kind` is none of these.
  pub(super) fn anthropic_block(
    &mut self,
    p: &Object<'env>,
    kind: &str,
    path: Path,
  ) -> Checked<Option<Part>> {
    Ok(Some(match kind {
      "document" | "search_result" => match self.document_text(p, path)? {
        Some(text) => Part::Text(text),
        None => Part::Other,
      },
      // `mcp_tool_result`, `web_search_tool_result`, `code_execution_tool_result`, …
      kind if kind.ends_with("_tool_result") => {
        let content = self.get(p, Key::Content)?;
        Part::ToolResult {
          call_id: self.string(p, Key::ToolUseId, path)?.unwrap_or_default(),
          content: self.server_result_text(&content, &|| format!("{}.content", path()))?,
        }
      }
      _ => return Ok(None),
    }))
  }

  /// A document's or a search result's text under its title: a `# title` line, a search
  /// result's source under it, then its text and its context (blocks stand a paragraph
  /// apart as parts: `content_text`). `None` when it has no
  /// text (a PDF, an image, a file by id, a link).
  fn document_text(&mut self, p: &Object<'env>, path: Path) -> Checked<Option<String>> {
    let search_result = self.string(p, Key::Type, path)?.as_deref() == Some("search_result");
    let body = if search_result {
      let content = self.get(p, Key::Content)?;
      self.document_content(&content, &|| format!("{}.content", path()))?
    } else {
      let source = self.get(p, Key::Source)?;
      if source.get_type()? != ValueType::Object || source.is_array()? {
        return Ok(None);
      }
      let source = unsafe { source.cast::<Object>() }?;
      let spath = || format!("{}.source", path());
      match self.string(&source, Key::Type, &spath)?.as_deref() {
        Some("text") => self.string(&source, Key::Data, &spath)?.unwrap_or_default(),
        Some("content") => {
          let content = self.get(&source, Key::Content)?;
          self.document_content(&content, &|| format!("{}.content", spath()))?
        }
        _ => return Ok(None),
      }
    };
    let mut text = String::with_capacity(body.len() + 64);
    if let Some(title) = self.string(p, Key::Title, path)?.filter(|t| !t.trim().is_empty()) {
      text.push_str("# ");
      text.push_str(&title.replace(['\n', '\r'], " "));
      text.push('\n');
    }
    if search_result {
      if let Some(source) = self.string(p, Key::Source, path)? {
        text.push_str(&source);
        text.push('\n');
      }
    }
    if !text.is_empty() {
      text.push('\n');
    }
    text.push_str(body.trim_end());
    if let Some(context) = self
      .string(p, Key::Context, path)?
      .filter(|c| !c.trim().is_empty())
    {
      text.push_str("\n\n");
      text.push_str(context.trim_end());
    }
    Ok(Some(text))
  }

  /// A server tool's result: a string as it is; a list, each element's text a paragraph
  /// apart; a web search's result, its title and address (its content is encrypted); a
  /// fetched page, its address and its document's text; an error, its code; else the
  /// output's text fields (`stdout`, `stderr`, a viewed file's `content`).
  fn server_result_text(&mut self, value: &Unknown<'env>, path: Path) -> Checked<String> {
    match value.get_type()? {
      ValueType::Object if value.is_array()? => {
        let array = unsafe { value.cast::<Object>() }?;
        let texts = self.element_texts(&array, path, Self::server_result_text)?;
        let texts: Vec<&str> = texts
          .iter()
          .map(|t| t.trim_end())
          .filter(|t| !t.trim().is_empty())
          .collect();
        Ok(texts.join("\n\n"))
      }
      ValueType::Object => {
        let o = unsafe { value.cast::<Object>() }?;
        let kind = self.string(&o, Key::Type, path)?.unwrap_or_default();
        if let Some(code) = self.string(&o, Key::ErrorCode, path)? {
          return Ok(format!("error: {code}"));
        }
        match kind.as_str() {
          "web_search_result" => {
            let title = self.string(&o, Key::Title, path)?.unwrap_or_default();
            let url = self.string(&o, Key::Url, path)?.unwrap_or_default();
            Ok(format!("{title}\n{url}").trim().to_owned())
          }
          "web_fetch_result" => {
            let url = self.string(&o, Key::Url, path)?.unwrap_or_default();
            let document = self.get(&o, Key::Content)?;
            let text = match document.get_type()? {
              ValueType::Object if !document.is_array()? => {
                let d = unsafe { document.cast::<Object>() }?;
                let dpath = || format!("{}.content", path());
                self
                  .nest(&dpath, |r| r.document_text(&d, &dpath))?
                  .unwrap_or_default()
              }
              _ => String::new(),
            };
            Ok(format!("{url}\n\n{text}").trim().to_owned())
          }
          "document" | "search_result" => Ok(self.document_text(&o, path)?.unwrap_or_default()),
          // A result's own object without a type: its JSON.
          "" => self.json_text(value, path),
          // Code execution, bash, the text editor's view: their text fields.
          _ => {
            let mut texts = Vec::new();
            for key in [Key::Text, Key::Stdout, Key::Stderr, Key::Content] {
              let v = self.get(&o, key)?;
              if v.get_type()? == ValueType::String {
                let t = unsafe { v.cast::<String>() }?;
                if !t.is_empty() {
                  texts.push(t);
                }
              }
            }
            Ok(texts.join("\n"))
          }
        }
      }
      _ => self.json_text(value, path),
    }
  }
}
