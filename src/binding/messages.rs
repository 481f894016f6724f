//! Reads chat messages from JavaScript into the core's `Message`, whatever their
//! format: OpenAI Chat (`content` string or parts, `tool_calls`, role `tool` with
//! `tool_call_id`, the legacy `function_call` answered by role `function`; AG-UI's
//! `toolCalls` and `toolCallId` as well), Anthropic Messages (`text`, `tool_use`,
//! `tool_result`, `thinking` blocks), Vercel AI SDK model messages (`tool-call`, `tool-result`,
//! `reasoning`, tool approval parts) and UI messages (`parts`: text, reasoning,
//! `tool-*` and `dynamic-tool` by state, sources; v4's `toolInvocations`; the parts a
//! stored message's `content` holds, as Mastra keeps them), OpenAI Responses API items and
//! OpenAI Agents JS items and run items (see `items.rs`), Google Gemini `Content` (see
//! `gemini.rs`), AWS Bedrock Converse blocks (see `bedrock.rs`), Cohere v2's `tool_plan`
//! and tool documents, a log's row that wraps a message (`{ type, message }`), and the
//! calls, results and text of formats it does not name, read by their fields (Pydantic AI's
//! parts, LlamaIndex's blocks: see `shapes.rs`). The format is detected per message and per
//! part.
//!
//! Only the fields that carry meaning are read, so a cycle elsewhere in a message is
//! harmless; free-form values (tool inputs, structured tool outputs) are serialized
//! with the host's own `JSON.stringify`, exactly as an SDK would send them, and one
//! it cannot serialize (a cycle, a BigInt) is refused with a `TypeError` naming it.

use std::collections::HashMap;

use napi::bindgen_prelude::*;
use napi::JsString;

use super::args::{describe, Call, Checked, Refusal};
use crate::core::message::{Message, Part};

/// Reads `value` (the parameter `param` of `call`) as an array of messages.
pub fn read_messages(env: &Env, call: Call, param: &str, value: &Unknown) -> Checked<Vec<Message>> {
  if value.get_type()? != ValueType::Object || !value.is_array()? {
    return Err(call.type_error(param, "an array of messages", value));
  }
  let array = unsafe { value.cast::<Object>() }?;
  let len = array.get_array_length()?;
  let keys = Key::NAMES
    .iter()
    .map(|k| env.create_string(k))
    .collect::<Result<Vec<_>>>()?;
  let mut reader = Reader {
    env,
    call,
    keys,
    stringify: None,
    ordinals: Ordinals::default(),
    nesting: 0,
  };
  let mut messages = Vec::with_capacity(len as usize);
  for i in 0..len {
    let item: Unknown = array.get_element(i)?;
    messages.push(reader.message(&item, &|| format!("{param}[{i}]"))?);
  }
  Ok(messages)
}

/// The calls and responses seen so far without an id, per name: the `k`-th response of a
/// name answers its `k`-th call (Gemini's function calls, OpenAI's legacy `function_call`).
#[derive(Default)]
pub(super) struct Ordinals {
  calls: HashMap<String, usize>,
  responses: HashMap<String, usize>,
}

impl Ordinals {
  fn next(counts: &mut HashMap<String, usize>, name: &str) -> String {
    let k = counts.entry(name.to_owned()).or_insert(0);
    *k += 1;
    format!("{name}#{k}")
  }

  /// The id of the next call named `name` that has none.
  pub(super) fn call(&mut self, name: &str) -> String {
    Self::next(&mut self.calls, name)
  }

  /// The id of the call the next response named `name` answers.
  pub(super) fn response(&mut self, name: &str) -> String {
    Self::next(&mut self.responses, name)
  }
}

/// The property names the reader looks up, as JavaScript strings made once per call:
/// looking a property up by a ready key is several times faster than by a Rust `&str`,
/// which napi turns into a new JavaScript string on every read.
#[derive(Clone, Copy)]
pub(super) enum Key {
  Role,
  Content,
  Name,
  ToolCallId,
  ToolCalls,
  FunctionCall,
  Id,
  Function,
  Arguments,
  Type,
  Text,
  Refusal,
  Thinking,
  Input,
  ToolUseId,
  Args,
  AiToolCallId,
  AiToolName,
  Output,
  Result,
  Value,
  RawItem,
  Parts,
  CallIdSnake,
  CallIdCamel,
  Summary,
  RawContent,
  State,
  ErrorText,
  Approval,
  ApprovalId,
  Reason,
  Url,
  Title,
  Filename,
  Action,
  Actions,
  Operation,
  Code,
  Queries,
  Results,
  Outputs,
  Error,
  Tools,
  ServerLabel,
  ApprovalRequestId,
  ToolInvocation,
  Reasoning,
  Transcript,
  Data,
  Stdout,
  Stderr,
  Logs,
  Thought,
  FunctionCallCamel,
  FunctionResponse,
  Response,
  ExecutableCode,
  CodeExecutionResult,
  ToolCallCamel,
  ToolResponse,
  ToolType,
  AudioTranscription,
  Source,
  Context,
  ErrorCode,
  Message,
  ToolInvocations,
  ToolCallsCamel,
  ToolUse,
  ToolUseIdCamel,
  ToolResultCamel,
  Json,
  ReasoningContent,
  ReasoningText,
  GuardContent,
  CitationsContent,
  Document,
  ToolPlan,
  InlineData,
  FileData,
  ToolNameSnake,
  ToolKwargs,
  ToolInput,
  Kind,
}

impl Key {
  const NAMES: [&'static str; 85] = [
    "role",
    "content",
    "name",
    "tool_call_id",
    "tool_calls",
    "function_call",
    "id",
    "function",
    "arguments",
    "type",
    "text",
    "refusal",
    "thinking",
    "input",
    "tool_use_id",
    "args",
    "toolCallId",
    "toolName",
    "output",
    "result",
    "value",
    "rawItem",
    "parts",
    "call_id",
    "callId",
    "summary",
    "rawContent",
    "state",
    "errorText",
    "approval",
    "approvalId",
    "reason",
    "url",
    "title",
    "filename",
    "action",
    "actions",
    "operation",
    "code",
    "queries",
    "results",
    "outputs",
    "error",
    "tools",
    "server_label",
    "approval_request_id",
    "toolInvocation",
    "reasoning",
    "transcript",
    "data",
    "stdout",
    "stderr",
    "logs",
    "thought",
    "functionCall",
    "functionResponse",
    "response",
    "executableCode",
    "codeExecutionResult",
    "toolCall",
    "toolResponse",
    "toolType",
    "audioTranscription",
    "source",
    "context",
    "error_code",
    "message",
    "toolInvocations",
    "toolCalls",
    "toolUse",
    "toolUseId",
    "toolResult",
    "json",
    "reasoningContent",
    "reasoningText",
    "guardContent",
    "citationsContent",
    "document",
    "tool_plan",
    "inlineData",
    "fileData",
    "tool_name",
    "tool_kwargs",
    "tool_input",
    "kind",
  ];

  pub(super) fn name(self) -> &'static str {
    Self::NAMES[self as usize]
  }
}

pub(super) struct Reader<'a, 'env> {
  env: &'a Env,
  call: Call,
  keys: Vec<JsString<'env>>,
  stringify: Option<Function<'env, Unknown<'env>, Unknown<'env>>>,
  /// Gemini calls and responses without an id, counted to pair them (`gemini.rs`).
  pub(super) ordinals: Ordinals,
  /// How deep the content being read is nested (`nest`).
  nesting: usize,
}

/// Content nested deeper than this (parts in results in parts…) is no message a model is
/// shown, but a cycle (an array that holds itself) or a hostile input: it is refused
/// before reading it exhausts the stack.
const MAX_NESTING: usize = 64;

/// Whether `value` is an array.
fn is_array(value: &Unknown) -> Checked<bool> {
  Ok(value.get_type()? == ValueType::Object && value.is_array()?)
}

/// A lazily built path like `messages[3].content[0]`, for error messages only.
pub(super) type Path<'p> = &'p dyn Fn() -> String;

impl<'env> Reader<'_, 'env> {
  /// `read` one level of nested content deeper: refused past `MAX_NESTING`.
  pub(super) fn nest<T>(&mut self, path: Path, read: impl FnOnce(&mut Self) -> Checked<T>) -> Checked<T> {
    if self.nesting >= MAX_NESTING {
      return Err(Refusal::Type(format!(
        "{}: `{}` is nested more than {MAX_NESTING} levels deep (or holds itself)",
        self.call.0,
        path()
      )));
    }
    self.nesting += 1;
    let read = read(self);
    self.nesting -= 1;
    read
  }

  /// The text of each element of `array`, read by `read` one level deeper (`nest`).
  pub(super) fn element_texts(
    &mut self,
    array: &Object<'env>,
    path: Path,
    read: impl Fn(&mut Self, &Unknown<'env>, Path) -> Checked<String>,
  ) -> Checked<Vec<String>> {
    let mut texts = Vec::new();
    for j in 0..array.get_array_length()? {
      let item: Unknown = array.get_element(j)?;
      let item_path = || format!("{}[{j}]", path());
      texts.push(self.nest(&item_path, |r| read(r, &item, &item_path))?);
    }
    Ok(texts)
  }

  pub(super) fn refuse(&self, path: Path, field: &str, expected: &str, got: &Unknown) -> Refusal {
    Refusal::Type(format!(
      "{}: `{}{field}` must be {expected}, got {}",
      self.call.0,
      path(),
      describe(got)
    ))
  }

  /// `object[key]`.
  pub(super) fn get(&self, object: &Object<'env>, key: Key) -> Checked<Unknown<'env>> {
    Ok(object.get_property(self.keys[key as usize])?)
  }

  pub(super) fn object(&self, value: &Unknown<'env>, path: Path, expected: &str) -> Checked<Object<'env>> {
    if value.get_type()? != ValueType::Object || value.is_array()? {
      return Err(Refusal::Type(format!(
        "{}: `{}` must be {expected}, got {}",
        self.call.0,
        path(),
        describe(value)
      )));
    }
    Ok(unsafe { value.cast::<Object>() }?)
  }

  /// `value` as an array, or a `TypeError` naming `path`.
  fn array(&self, value: &Unknown<'env>, path: Path) -> Checked<Object<'env>> {
    if !is_array(value)? {
      return Err(self.refuse(path, "", "an array", value));
    }
    Ok(unsafe { value.cast::<Object>() }?)
  }

  /// `object[key]` as a string; `None` when absent (`undefined`/`null`).
  pub(super) fn string(&self, object: &Object<'env>, key: Key, path: Path) -> Checked<Option<String>> {
    let v = self.get(object, key)?;
    match v.get_type()? {
      ValueType::Undefined | ValueType::Null => Ok(None),
      ValueType::String => Ok(Some(unsafe { v.cast::<String>() }?)),
      _ => Err(self.refuse(path, &format!(".{}", key.name()), "a string", &v)),
    }
  }

  pub(super) fn required_string(&self, object: &Object<'env>, key: Key, path: Path) -> Checked<String> {
    match self.string(object, key, path)? {
      Some(s) => Ok(s),
      None => Err(self.refuse(
        path,
        &format!(".{}", key.name()),
        "a string",
        &self.get(object, key)?,
      )),
    }
  }

  fn message(&mut self, value: &Unknown<'env>, path: Path) -> Checked<Message> {
    let m = self.object(value, path, "a message object")?;
    // OpenAI Agents JS run items (`RunMessageOutputItem`, `RunToolCallItem`, …) wrap the
    // protocol item they stand for.
    let raw = self.get(&m, Key::RawItem)?;
    if raw.get_type()? == ValueType::Object && !raw.is_array()? {
      let path = || format!("{}.rawItem", path());
      return self.nest(&path, |r| r.message(&raw, &path));
    }
    let role = self.string(&m, Key::Role, path)?;
    // A log's row that wraps the message it records (`{ type: 'assistant', message: { role,
    // content }, uuid, … }`, a Claude Code transcript's line).
    if role.is_none() {
      let logged = self.get(&m, Key::Message)?;
      if logged.get_type()? == ValueType::Object && !logged.is_array()? {
        let path = || format!("{}.message", path());
        return self.nest(&path, |r| r.message(&logged, &path));
      }
    }
    let content = self.get(&m, Key::Content)?;
    let mut ui = self.get(&m, Key::Parts)?;
    let mut parts_at = ".parts";
    // A stored message whose content holds the UI parts (Mastra's `{ format: 2, parts }`).
    if !is_array(&ui)? && content.get_type()? == ValueType::Object && !content.is_array()? {
      let stored = unsafe { content.cast::<Object>() }?;
      let parts = self.get(&stored, Key::Parts)?;
      if is_array(&parts)? {
        ui = parts;
        parts_at = ".content.parts";
      }
    }
    let has_parts = is_array(&ui)?;
    let role = match role {
      // Gemini's `model` is the assistant.
      Some(role) if role == "model" => "assistant".to_owned(),
      Some(role) => role,
      // Responses API and Agents items without a role: calls, outputs, reasoning.
      None => match self.string(&m, Key::Type, path)? {
        Some(kind) => return self.item(&m, &kind, path),
        // A Gemini `Content` may leave its role out: the API reads it as the user's. Pydantic
        // AI's messages are of a kind instead: a `request` is the user's, a `response` the model's.
        None if has_parts => match self.string(&m, Key::Kind, path)? {
          Some(kind) if kind == "response" => "assistant".to_owned(),
          _ => "user".to_owned(),
        },
        None => return Err(self.refuse(path, ".role", "a string", &self.get(&m, Key::Role)?)),
      },
    };
    let name = self.string(&m, Key::Name, path)?;
    let mut parts = Vec::new();
    // AI SDK UI messages and Gemini `Content` carry `parts` (AI SDK v4 also a `content`
    // string that repeats them).
    if has_parts {
      let array = unsafe { ui.cast::<Object>() }?;
      for j in 0..array.get_array_length()? {
        let item: Unknown = array.get_element(j)?;
        self.ui_part(&item, &|| format!("{}{parts_at}[{j}]", path()), &mut parts)?;
      }
      return Ok(Message { role, name, parts });
    }
    // OpenAI: the tool's answer is the whole content of a `tool` (or legacy `function`) message;
    // AG-UI (CopilotKit, Mastra's and LangGraph's AG-UI adapters) writes its fields in camelCase.
    let call_id = match self.string(&m, Key::ToolCallId, path)? {
      None if role == "tool" => self.string(&m, Key::AiToolCallId, path)?,
      // The legacy `function` message has no id: it answers the latest `function_call`
      // of its name, as a Gemini function response does.
      None if role == "function" => name.as_deref().map(|n| self.ordinals.response(n)),
      id => id,
    };
    if let Some(call_id) = call_id {
      let content = self.content_text(&content, &|| format!("{}.content", path()))?;
      parts.push(Part::ToolResult { call_id, content });
    } else {
      self.content(&content, &mut parts, path)?;
    }
    // Cohere v2: the plan an assistant states before its tool calls.
    if role == "assistant" {
      if let Some(plan) = self.string(&m, Key::ToolPlan, path)? {
        parts.push(Part::Thinking(plan));
      }
    }
    // OpenAI: tool calls beside the content (AG-UI: `toolCalls`), and the legacy single
    // `function_call`.
    let (mut tool_calls, mut at) = (self.get(&m, Key::ToolCalls)?, Key::ToolCalls);
    if Call::is_nullish(&tool_calls) && role == "assistant" {
      (tool_calls, at) = (self.get(&m, Key::ToolCallsCamel)?, Key::ToolCallsCamel);
    }
    if !Call::is_nullish(&tool_calls) {
      let path = || format!("{}.{}", path(), at.name());
      let calls = self.array(&tool_calls, &path)?;
      for j in 0..calls.get_array_length()? {
        let item: Unknown = calls.get_element(j)?;
        let path = || format!("{}[{j}]", path());
        let call = self.object(&item, &path, "a tool call object")?;
        let id = self.string(&call, Key::Id, &path)?.unwrap_or_default();
        let function = self.get(&call, Key::Function)?;
        let fpath = || format!("{}.function", path());
        let function = self.object(&function, &fpath, "an object with `name` and `arguments`")?;
        parts.push(self.function_call(Some(id), &function, &fpath)?);
      }
    }
    let function_call = self.get(&m, Key::FunctionCall)?;
    if !Call::is_nullish(&function_call) {
      let path = || format!("{}.function_call", path());
      let function = self.object(&function_call, &path, "an object with `name` and `arguments`")?;
      parts.push(self.function_call(None, &function, &path)?);
    }
    // AI SDK v4 UI messages before `parts`: the calls and their results beside the content.
    let invocations = match role.as_str() {
      "assistant" => self.get(&m, Key::ToolInvocations)?,
      _ => return self.unread(value, &m, Message { role, name, parts }, path),
    };
    if !Call::is_nullish(&invocations) {
      let path = || format!("{}.toolInvocations", path());
      let list = self.array(&invocations, &path)?;
      for j in 0..list.get_array_length()? {
        let item: Unknown = list.get_element(j)?;
        self.tool_invocation(&item, &|| format!("{}[{j}]", path()), &mut parts)?;
      }
    }
    self.unread(value, &m, Message { role, name, parts }, path)
  }

  /// A message none of the formats above reads, its text in fields of its own (LlamaIndex
  /// `blocks`): with nothing read from it and a field the reader does not know, its parts
  /// are read by their fields (`shapes.rs`), or else it is read as its JSON text, so that
  /// what it says is not lost.
  fn unread(
    &mut self,
    value: &Unknown<'env>,
    m: &Object<'env>,
    message: Message,
    path: Path,
  ) -> Checked<Message> {
    if !message.parts.is_empty() || !self.has_unknown_field(m)? {
      return Ok(message);
    }
    if let Some(parts) = self.shaped_parts(m, &message.role, path)? {
      return Ok(Message { parts, ..message });
    }
    let text = self.json_text(value, path)?;
    Ok(Message {
      parts: vec![Part::Text(text)],
      ..message
    })
  }

  /// Whether an object holds a field that is no key the reader knows, with a value.
  pub(super) fn has_unknown_field(&self, o: &Object<'env>) -> Checked<bool> {
    Ok(!self.unknown_fields(o)?.is_empty())
  }

  /// The fields of an object that are no key the reader knows, with their values (not
  /// `undefined` or `null`).
  pub(super) fn unknown_fields(&self, o: &Object<'env>) -> Checked<Vec<(String, Unknown<'env>)>> {
    let names = o.get_property_names()?;
    let mut fields = Vec::new();
    for j in 0..names.get_array_length()? {
      let name: Unknown = names.get_element(j)?;
      if name.get_type()? != ValueType::String {
        continue;
      }
      let name = unsafe { name.cast::<String>() }?;
      if Key::NAMES.contains(&name.as_str()) {
        continue;
      }
      let value: Unknown = o.get_named_property(&name)?;
      if !Call::is_nullish(&value) {
        fields.push((name, value));
      }
    }
    Ok(fields)
  }

  /// A call from its `function` object; one without an id (the legacy `function_call`) is
  /// named by its ordinal among the calls of its name.
  fn function_call(&mut self, id: Option<String>, function: &Object<'env>, path: Path) -> Checked<Part> {
    let name = self.required_string(function, Key::Name, path)?;
    let id = id.unwrap_or_else(|| self.ordinals.call(&name));
    let arguments = self.get(function, Key::Arguments)?;
    let arguments = self.json_text(&arguments, &|| format!("{}.arguments", path()))?;
    Ok(Part::ToolCall { id, name, arguments })
  }

  /// `content`: a string, `null`/`undefined` (no content), or an array of parts.
  pub(super) fn content(
    &mut self,
    content: &Unknown<'env>,
    parts: &mut Vec<Part>,
    path: Path,
  ) -> Checked<()> {
    match content.get_type()? {
      ValueType::Undefined | ValueType::Null => Ok(()),
      ValueType::String => {
        parts.push(Part::Text(unsafe { content.cast::<String>() }?));
        Ok(())
      }
      ValueType::Object if content.is_array()? => {
        let array = unsafe { content.cast::<Object>() }?;
        for j in 0..array.get_array_length()? {
          let item: Unknown = array.get_element(j)?;
          let item_path = || format!("{}.content[{j}]", path());
          self.nest(&item_path, |r| r.part(&item, &item_path, parts))?;
        }
        Ok(())
      }
      _ => Err(self.refuse(path, ".content", "a string, an array of parts or null", content)),
    }
  }

  fn part(&mut self, value: &Unknown<'env>, path: Path, out: &mut Vec<Part>) -> Checked<()> {
    let p = self.object(value, path, "a content part object")?;
    // A block without a type is Bedrock's, named by its one member (`bedrock.rs`).
    let Some(kind) = self.string(&p, Key::Type, path)? else {
      out.push(self.bedrock_block(&p, path)?);
      return Ok(());
    };
    let part = match kind.as_str() {
      // OpenAI Chat, Anthropic, AI SDK; Responses API and Agents message content
      "text" | "input_text" | "output_text" => Part::Text(self.required_string(&p, Key::Text, path)?),
      "refusal" => Part::Text(self.required_string(&p, Key::Refusal, path)?),
      "thinking" => Part::Thinking(self.required_string(&p, Key::Thinking, path)?),
      "reasoning" | "reasoning_text" | "summary_text" => {
        Part::Thinking(self.required_string(&p, Key::Text, path)?)
      }
      // Agents assistant audio: its transcript is what was said.
      "audio" => match self.string(&p, Key::Transcript, path)? {
        Some(t) => Part::Text(t),
        None => Part::Other,
      },
      // AI SDK v6+: an approval request and its response are one unit; their reasons are text.
      "tool-approval-request" | "tool-approval-response" => {
        out.push(Part::Link(
          self.string(&p, Key::ApprovalId, path)?.unwrap_or_default(),
        ));
        match self.string(&p, Key::Reason, path)? {
          Some(reason) => Part::Text(reason),
          None => return Ok(()),
        }
      }
      // AI SDK v7: a file whose data is inline text.
      "file" => {
        let data = self.get(&p, Key::Data)?;
        if data.get_type()? == ValueType::Object && !data.is_array()? {
          let data = unsafe { data.cast::<Object>() }?;
          let is_text = self.string(&data, Key::Type, path)?.is_some_and(|t| t == "text");
          match self.string(&data, Key::Text, path)? {
            Some(t) if is_text => Part::Text(t),
            _ => Part::Other,
          }
        } else {
          Part::Other
        }
      }
      // Cohere v2: a document a tool returns (`{ type: 'document', document: { data, id } }`),
      // its data as the model is sent it.
      "document" if !Call::is_nullish(&self.get(&p, Key::Document)?) => {
        let document = self.get(&p, Key::Document)?;
        let dpath = || format!("{}.document", path());
        let document = self.object(&document, &dpath, "an object with `data`")?;
        let data = self.get(&document, Key::Data)?;
        Part::Text(self.json_text(&data, &|| format!("{}.data", dpath()))?)
      }
      // Anthropic (a server tool's or an MCP server's call too)
      "tool_use" | "server_tool_use" | "mcp_tool_use" => {
        let input = self.get(&p, Key::Input)?;
        Part::ToolCall {
          id: self.string(&p, Key::Id, path)?.unwrap_or_default(),
          name: self.required_string(&p, Key::Name, path)?,
          arguments: self.json_text(&input, &|| format!("{}.input", path()))?,
        }
      }
      "tool_result" => {
        let content = self.get(&p, Key::Content)?;
        Part::ToolResult {
          call_id: self.string(&p, Key::ToolUseId, path)?.unwrap_or_default(),
          content: self.content_text(&content, &|| format!("{}.content", path()))?,
        }
      }
      // Vercel AI SDK (`input`/`output` since v5, `args`/`result` before)
      "tool-call" => {
        let mut input = self.get(&p, Key::Input)?;
        if Call::is_nullish(&input) {
          input = self.get(&p, Key::Args)?;
        }
        Part::ToolCall {
          id: self.string(&p, Key::AiToolCallId, path)?.unwrap_or_default(),
          name: self.required_string(&p, Key::AiToolName, path)?,
          arguments: self.json_text(&input, &|| format!("{}.input", path()))?,
        }
      }
      "tool-result" => {
        let mut output = self.get(&p, Key::Output)?;
        if Call::is_nullish(&output) {
          output = self.get(&p, Key::Result)?;
        }
        Part::ToolResult {
          call_id: self.string(&p, Key::AiToolCallId, path)?.unwrap_or_default(),
          content: self.tool_output(&output, &|| format!("{}.output", path()))?,
        }
      }
      // Anthropic documents, search results, server tools and MCP (`anthropic.rs`);
      // images, files, audio, redacted thinking, provider-specific parts: no text.
      kind => self.anthropic_block(&p, kind, path)?.unwrap_or(Part::Other),
    };
    out.push(part);
    Ok(())
  }

  /// A tool result's content: a string, or text parts, each a paragraph of its own as a
  /// message's parts are (an MCP server returns each result a block), or JSON.
  pub(super) fn content_text(&mut self, content: &Unknown<'env>, path: Path) -> Checked<String> {
    self.joined_content(content, path, "\n\n")
  }

  /// A document's content: its text parts are pieces of one text, joined by line breaks.
  pub(super) fn document_content(&mut self, content: &Unknown<'env>, path: Path) -> Checked<String> {
    self.joined_content(content, path, "\n")
  }

  /// Content's text parts joined by `separator`, or its JSON when it is no list of parts.
  fn joined_content(&mut self, content: &Unknown<'env>, path: Path, separator: &str) -> Checked<String> {
    if content.get_type()? == ValueType::Object && content.is_array()? {
      let mut parts = Vec::new();
      self.content(content, &mut parts, &|| {
        path().trim_end_matches(".content").to_owned()
      })?;
      let texts: Vec<String> = parts
        .into_iter()
        .filter_map(|p| match p {
          Part::Text(t) | Part::Thinking(t) | Part::ToolResult { content: t, .. } => Some(t),
          Part::ToolCall { arguments, .. } => Some(arguments),
          Part::Link(_) | Part::Other => None,
        })
        .collect();
      return Ok(texts.join(separator));
    }
    self.json_text(content, path)
  }

  /// AI SDK v5 tool output `{ type: 'text' | 'json' | 'error-text' | 'error-json' | 'content', value }`,
  /// or any value (v4 `result`).
  pub(super) fn tool_output(&mut self, output: &Unknown<'env>, path: Path) -> Checked<String> {
    if output.get_type()? == ValueType::Object && !output.is_array()? {
      let o = unsafe { output.cast::<Object>() }?;
      let kind = self.get(&o, Key::Type)?;
      if kind.get_type()? == ValueType::String && o.has_named_property("value")? {
        let value = self.get(&o, Key::Value)?;
        let value_path = || format!("{}.value", path());
        return match unsafe { kind.cast::<String>() }?.as_str() {
          "content" => self.content_text(&value, &value_path),
          _ => self.json_text(&value, &value_path),
        };
      }
      // AI SDK v6+: a denied call's result is the reason given, if any.
      if kind.get_type()? == ValueType::String && unsafe { kind.cast::<String>() }? == "execution-denied" {
        return Ok(self.string(&o, Key::Reason, path)?.unwrap_or_default());
      }
    }
    self.json_text(output, path)
  }

  /// A string as it is; anything else as `JSON.stringify` renders it (nothing for `undefined`).
  pub(super) fn json_text(&mut self, value: &Unknown<'env>, path: Path) -> Checked<String> {
    match value.get_type()? {
      ValueType::String => return Ok(unsafe { value.cast::<String>() }?),
      ValueType::Undefined | ValueType::Null => return Ok(String::new()),
      _ => {}
    }
    if self.stringify.is_none() {
      let json: Object = self.env.get_global()?.get_named_property("JSON")?;
      self.stringify = Some(json.get_named_property("stringify")?);
    }
    let Some(stringify) = &self.stringify else {
      return Ok(String::new());
    };
    match stringify.call(*value) {
      Ok(text) if text.get_type()? == ValueType::String => Ok(unsafe { text.cast::<String>() }?),
      Ok(_) => Ok(String::new()), // functions and symbols serialize to nothing
      // JSON.stringify threw (a cycle, a BigInt, a throwing toJSON); napi cleared it.
      Err(e) => Err(Refusal::Type(format!(
        "{}: `{}` must be JSON-serializable ({})",
        self.call.0,
        path(),
        e.reason.lines().next().unwrap_or_default()
      ))),
    }
  }
}
