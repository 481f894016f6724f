//! The formats that are not chat messages with `content`: OpenAI Responses API items
//! and OpenAI Agents JS items (a `type` and no `role`: calls, their outputs, hosted tool
//! calls, reasoning), and the parts of AI SDK UI messages. Each is read as the message
//! it stands for: calls and reasoning as `assistant`, outputs as `tool`; a call and its
//! output keep one id (`call_id`, `callId`, `toolCallId`), so they stay one unit.

use napi::bindgen_prelude::*;

use super::args::{Call, Checked};
use super::messages::{Key, Path, Reader};
use crate::core::message::{Message, Part};

/// Prefix of an AI SDK UI tool part's type: `tool-<tool name>`.
const UI_TOOL_PREFIX: &str = "tool-";

/// Fields whose strings are the text of a tool's output, in the order they are joined:
/// text parts, shell output (`stdout`, `stderr`), code interpreter logs, audio transcripts.
const OUTPUT_TEXT_KEYS: [Key; 5] = [Key::Text, Key::Stdout, Key::Stderr, Key::Logs, Key::Transcript];

impl<'env> Reader<'_, 'env> {
  /// An item with a `type` and no `role`.
  pub(super) fn item(&mut self, m: &Object<'env>, kind: &str, path: Path) -> Checked<Message> {
    let call_id = self.call_id(m, path)?;
    let assistant = |parts| Message {
      role: "assistant".into(),
      name: None,
      parts,
    };
    let tool = |parts| Message {
      role: "tool".into(),
      name: None,
      parts,
    };
    Ok(match kind {
      "function_call" | "custom_tool_call" => {
        let arguments = match kind {
          "function_call" => self.get(m, Key::Arguments)?,
          _ => self.get(m, Key::Input)?,
        };
        assistant(vec![Part::ToolCall {
          id: call_id,
          name: self.required_string(m, Key::Name, path)?,
          arguments: self.json_text(&arguments, &|| format!("{}.arguments", path()))?,
        }])
      }
      // A client-run call whose output comes in an item of its own.
      "computer_call"
      | "local_shell_call"
      | "shell_call"
      | "apply_patch_call"
      | "program"
      | "tool_search_call"
      | "mcp_approval_request" => {
        let name = match self.string(m, Key::Name, path)? {
          Some(name) => name,
          None => kind.trim_end_matches("_call").to_owned(),
        };
        let arguments = self.first_present(
          m,
          &[
            Key::Arguments,
            Key::Action,
            Key::Actions,
            Key::Operation,
            Key::Code,
          ],
        )?;
        assistant(vec![Part::ToolCall {
          id: call_id,
          name,
          arguments: self.json_text(&arguments, &|| format!("{}.arguments", path()))?,
        }])
      }
      "function_call_output"
      | "function_call_result"
      | "custom_tool_call_output"
      | "computer_call_output"
      | "computer_call_result"
      | "local_shell_call_output"
      | "shell_call_output"
      | "apply_patch_call_output"
      | "program_output"
      | "tool_search_output" => {
        let output = self.first_present(m, &[Key::Output, Key::Tools])?;
        tool(vec![Part::ToolResult {
          call_id,
          content: self.output_text(&output, &|| format!("{}.output", path()))?,
        }])
      }
      "mcp_approval_response" => tool(vec![Part::ToolResult {
        call_id: self.string(m, Key::ApprovalRequestId, path)?.unwrap_or_default(),
        content: self.string(m, Key::Reason, path)?.unwrap_or_default(),
      }]),
      "reasoning" => {
        let mut parts = Vec::new();
        for key in [Key::Summary, Key::Content, Key::RawContent] {
          let list = self.get(m, key)?;
          let text = self.output_text(&list, &|| format!("{}.{}", path(), key.name()))?;
          if !text.is_empty() {
            parts.push(Part::Thinking(text));
          }
        }
        assistant(parts)
      }
      // Hosted tool calls: the call and its result in one item.
      "web_search_call"
      | "file_search_call"
      | "code_interpreter_call"
      | "image_generation_call"
      | "mcp_call"
      | "mcp_list_tools"
      | "hosted_tool_call" => {
        let name = match self.string(m, Key::Name, path)? {
          Some(name) => name,
          None => kind.trim_end_matches("_call").to_owned(),
        };
        let arguments = self.first_present(
          m,
          &[
            Key::Arguments,
            Key::Action,
            Key::Queries,
            Key::Code,
            Key::ServerLabel,
          ],
        )?;
        let output = self.first_present(
          m,
          &[Key::Output, Key::Results, Key::Outputs, Key::Error, Key::Tools],
        )?;
        let content = match kind {
          // The generated image, base64: no text.
          "image_generation_call" => String::new(),
          _ => self.output_text(&output, &|| format!("{}.output", path()))?,
        };
        assistant(vec![
          Part::ToolCall {
            id: call_id.clone(),
            name,
            arguments: self.json_text(&arguments, &|| format!("{}.arguments", path()))?,
          },
          Part::ToolResult { call_id, content },
        ])
      }
      // A reference to an item, a compaction's encrypted content, Agents `unknown`: no text.
      "item_reference" | "compaction" | "unknown" => assistant(vec![Part::Other]),
      // Kinds of other frameworks' logs (AutoGen's `TextMessage`, `ToolCallRequestEvent`)
      // and kinds to come: the item's JSON text, so that what it says is not lost.
      _ => assistant(vec![Part::Text(self.json_text(&m.to_unknown(), path)?)]),
    })
  }

  /// The id that ties a call to its output: `call_id` (Responses), `callId` (Agents), else `id`.
  fn call_id(&self, m: &Object<'env>, path: Path) -> Checked<String> {
    for key in [Key::CallIdSnake, Key::CallIdCamel, Key::Id] {
      if let Some(id) = self.string(m, key, path)? {
        return Ok(id);
      }
    }
    Ok(String::new())
  }

  /// The first of `keys` that `m` holds (not `undefined` or `null`), or `undefined`.
  fn first_present(&self, m: &Object<'env>, keys: &[Key]) -> Checked<Unknown<'env>> {
    let mut last = self.get(m, keys[0])?;
    for &key in keys {
      last = self.get(m, key)?;
      if !Call::is_nullish(&last) {
        break;
      }
    }
    Ok(last)
  }

  /// A tool output's text: a string as it is; a list, each element's text joined by
  /// newlines; an object, its text fields (`text`, `stdout`, `stderr`, `logs`,
  /// `transcript`), nothing for a typed part without text (an image, a file), else JSON.
  pub(super) fn output_text(&mut self, value: &Unknown<'env>, path: Path) -> Checked<String> {
    match value.get_type()? {
      ValueType::Object if value.is_array()? => {
        let array = unsafe { value.cast::<Object>() }?;
        let texts = self.element_texts(&array, path, Self::output_text)?;
        Ok(
          texts
            .into_iter()
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
        )
      }
      ValueType::Object => {
        let o = unsafe { value.cast::<Object>() }?;
        let mut texts = Vec::new();
        for key in OUTPUT_TEXT_KEYS {
          if let Some(t) = self.string(&o, key, path)? {
            if !t.is_empty() {
              texts.push(t);
            }
          }
        }
        if !texts.is_empty() {
          return Ok(texts.join("\n"));
        }
        if self.string(&o, Key::Type, path)?.is_some() {
          return Ok(String::new());
        }
        self.json_text(value, path)
      }
      _ => self.json_text(value, path),
    }
  }

  /// One part of an AI SDK UI message (`UIMessage.parts`), pushed onto `out`.
  pub(super) fn ui_part(&mut self, value: &Unknown<'env>, path: Path, out: &mut Vec<Part>) -> Checked<()> {
    let p = self.object(value, path, "a message part object")?;
    let Some(kind) = self.string(&p, Key::Type, path)? else {
      // An untyped part is Gemini's.
      return self.gemini_part(&p, path, out);
    };
    match kind.as_str() {
      "text" => out.push(Part::Text(self.required_string(&p, Key::Text, path)?)),
      // v5+ `text`, v4 `reasoning`.
      "reasoning" => match self.string(&p, Key::Text, path)? {
        Some(t) => out.push(Part::Thinking(t)),
        None => out.push(Part::Thinking(self.required_string(&p, Key::Reasoning, path)?)),
      },
      "tool-invocation" => {
        let invocation = self.get(&p, Key::ToolInvocation)?;
        self.tool_invocation(&invocation, &|| format!("{}.toolInvocation", path()), out)?;
      }
      "dynamic-tool" => {
        let name = self.required_string(&p, Key::AiToolName, path)?;
        self.ui_tool(&p, name, path, out)?;
      }
      tool if tool.starts_with(UI_TOOL_PREFIX) => {
        let name = tool[UI_TOOL_PREFIX.len()..].to_owned();
        self.ui_tool(&p, name, path, out)?;
      }
      "source-url" | "source-document" => {
        let mut text = Vec::new();
        for key in [Key::Title, Key::Url, Key::Filename] {
          text.extend(self.string(&p, key, path)?);
        }
        out.push(Part::Text(text.join(" ")));
      }
      // Files, step boundaries, app data parts: no text the model reads.
      _ => out.push(Part::Other),
    }
    Ok(())
  }

  /// An AI SDK v4 tool invocation (a `tool-invocation` part's, or one of a message's
  /// `toolInvocations`): its call, and its result once its state is `result`.
  pub(super) fn tool_invocation(
    &mut self,
    value: &Unknown<'env>,
    path: Path,
    out: &mut Vec<Part>,
  ) -> Checked<()> {
    let invocation = self.object(value, path, "a tool invocation object")?;
    let id = self
      .string(&invocation, Key::AiToolCallId, path)?
      .unwrap_or_default();
    let args = self.get(&invocation, Key::Args)?;
    out.push(Part::ToolCall {
      id: id.clone(),
      name: self.required_string(&invocation, Key::AiToolName, path)?,
      arguments: self.json_text(&args, &|| format!("{}.args", path()))?,
    });
    if self
      .string(&invocation, Key::State, path)?
      .is_some_and(|s| s == "result")
    {
      let result = self.get(&invocation, Key::Result)?;
      let content = self.json_text(&result, &|| format!("{}.result", path()))?;
      out.push(Part::ToolResult { call_id: id, content });
    }
    Ok(())
  }

  /// A UI tool part: its call, and its result once it has one (output, error or denial).
  fn ui_tool(&mut self, p: &Object<'env>, name: String, path: Path, out: &mut Vec<Part>) -> Checked<()> {
    let id = self.string(p, Key::AiToolCallId, path)?.unwrap_or_default();
    let input = self.get(p, Key::Input)?;
    out.push(Part::ToolCall {
      id: id.clone(),
      name,
      arguments: self.json_text(&input, &|| format!("{}.input", path()))?,
    });
    let content = match self.string(p, Key::State, path)?.as_deref() {
      Some("output-available") => {
        let output = self.get(p, Key::Output)?;
        self.json_text(&output, &|| format!("{}.output", path()))?
      }
      Some("output-error") => self.string(p, Key::ErrorText, path)?.unwrap_or_default(),
      Some("output-denied") => {
        let approval = self.get(p, Key::Approval)?;
        if approval.get_type()? == ValueType::Object && !approval.is_array()? {
          let approval = unsafe { approval.cast::<Object>() }?;
          self.string(&approval, Key::Reason, path)?.unwrap_or_default()
        } else {
          String::new()
        }
      }
      // Still running or waiting for approval: a call without a result.
      _ => return Ok(()),
    };
    out.push(Part::ToolResult { call_id: id, content });
    Ok(())
  }
}
