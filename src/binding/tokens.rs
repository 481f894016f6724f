//! `countTokens`, `countMessageTokens` and their async forms.

use napi::bindgen_prelude::*;
use napi_derive::napi;

use super::args::{checked, Call};
use super::messages::read_messages;
use super::task::{as_is, job, Job};
use crate::core::cancel::{Cancel, Cancelled};
use crate::core::message::{count_message_tokens as count_messages, Message};
use crate::core::tokens::{Counter, Encoding};

fn count_text(text: &str, encoding: Encoding, cancel: &Cancel) -> std::result::Result<u32, Cancelled> {
  Counter::new(encoding)
    .count_cancellable(text, cancel)
    .map(saturate)
}

fn count_list(
  messages: &[Message],
  encoding: Encoding,
  cancel: &Cancel,
) -> std::result::Result<u32, Cancelled> {
  count_messages(messages, &mut Counter::new(encoding), cancel).map(saturate)
}

/// Counts beyond 2³² − 1 cannot come from a JavaScript string; saturate rather than wrap.
fn saturate(n: usize) -> u32 {
  u32::try_from(n).unwrap_or(u32::MAX)
}

/// Number of tokens in `text`, exactly as tiktoken counts it (special tokens such
/// as `<|endoftext|>` count as the plain text they are).
#[napi(
  catch_unwind,
  ts_args_type = "text: string, options?: CountOptions | undefined | null"
)]
pub fn count_tokens(env: Env, text: Unknown, options: Option<Unknown>) -> Result<u32> {
  let call = Call("countTokens");
  checked(&env, || {
    let text = call.string("text", &text)?;
    let encoding = call.encoding(&call.options(options)?)?;
    Ok(count_text(&text, encoding, &Cancel::new()).unwrap_or_default())
  })
}

/// `countTokens` on the libuv thread pool.
#[napi(
  catch_unwind,
  ts_args_type = "text: string, options?: CountAsyncOptions | undefined | null",
  ts_return_type = "Promise<number>"
)]
pub fn count_tokens_async(
  env: Env,
  text: Unknown,
  options: Option<Unknown>,
) -> Result<AsyncTask<Job<u32, u32>>> {
  let call = Call("countTokensAsync");
  checked(&env, || {
    let text = call.string("text", &text)?;
    let options = call.options(options)?;
    let encoding = call.encoding(&options)?;
    let signal = call.signal(&options)?;
    Ok(job(
      call.0,
      signal,
      move |cancel: &Cancel| count_text(&text, encoding, cancel),
      as_is,
    )?)
  })
}

/// Tokens of a list of chat messages (OpenAI Chat, Anthropic Messages or Vercel AI
/// SDK model messages, detected per message): per message 3 framing tokens plus its
/// role, `name` (+1), text, thinking, tool results, and each tool call's name and
/// JSON arguments (+3); plus 3 once for the reply. Images and files count 0.
#[napi(
  catch_unwind,
  ts_args_type = "messages: Message[], options?: CountOptions | undefined | null"
)]
pub fn count_message_tokens(env: Env, messages: Unknown, options: Option<Unknown>) -> Result<u32> {
  let call = Call("countMessageTokens");
  checked(&env, || {
    let messages = read_messages(&env, call, "messages", &messages)?;
    let encoding = call.encoding(&call.options(options)?)?;
    Ok(count_list(&messages, encoding, &Cancel::new()).unwrap_or_default())
  })
}

/// `countMessageTokens` on the libuv thread pool (the messages are read on the
/// calling thread, the counting runs on the pool).
#[napi(
  catch_unwind,
  ts_args_type = "messages: Message[], options?: CountAsyncOptions | undefined | null",
  ts_return_type = "Promise<number>"
)]
pub fn count_message_tokens_async(
  env: Env,
  messages: Unknown,
  options: Option<Unknown>,
) -> Result<AsyncTask<Job<u32, u32>>> {
  let call = Call("countMessageTokensAsync");
  checked(&env, || {
    let messages = read_messages(&env, call, "messages", &messages)?;
    let options = call.options(options)?;
    let encoding = call.encoding(&options)?;
    let signal = call.signal(&options)?;
    Ok(job(
      call.0,
      signal,
      move |cancel: &Cancel| count_list(&messages, encoding, cancel),
      as_is,
    )?)
  })
}
