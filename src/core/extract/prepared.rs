//! A thread made ready once for many extractions, and the scores it keeps.

use std::sync::{Arc, Mutex, PoisonError};

use super::doc::{count, render_counted, Counted, Doc};
use super::score::Scored;
use super::select::extract_doc;
use super::{extract_from_messages, Counts, Extraction, Options, Output};
use crate::core::cancel::{Cancel, Cancelled};
use crate::core::message::Message;
use crate::core::parallel::{in_parallel, PARALLEL_BYTES};
use crate::core::relevance::{Leads, Postings};
use crate::core::segment::Granularity;
use crate::core::tokens::Encoding;

/// A thread made ready once for extracting many tasks from it: rendered, segmented,
/// every segment counted and every word indexed. Extracting from it gives exactly what
/// `extract_text` or `extract_messages` give for the same input, in a fraction of the
/// time: only the task's terms are looked up, and only what is kept is counted again.
pub struct Prepared {
  doc: Doc<'static>,
  counted: Counted,
  /// For message input: the messages and each one's tokens.
  messages: Option<(Vec<Message>, Vec<usize>)>,
  postings: Postings,
  /// The scores of the sets of tasks extracted for last.
  scored: ScoredSets,
  encoding: Encoding,
  granularity: Granularity,
}

impl Prepared {
  pub fn text(
    text: &str,
    encoding: Encoding,
    granularity: Granularity,
    cancel: &Cancel,
  ) -> Result<Self, Cancelled> {
    let (doc, whole) = Doc::of_text(text, granularity, encoding, cancel)?;
    Self::new(doc.owned(), whole, None, encoding, granularity, cancel)
  }

  pub fn messages(
    messages: Vec<Message>,
    encoding: Encoding,
    granularity: Granularity,
    cancel: &Cancel,
  ) -> Result<Self, Cancelled> {
    let (doc, tokens, whole) = render_counted(&messages, granularity, encoding, cancel)?;
    Self::new(
      doc,
      whole,
      Some((messages, tokens)),
      encoding,
      granularity,
      cancel,
    )
  }

  fn new(
    doc: Doc<'static>,
    whole: usize,
    messages: Option<(Vec<Message>, Vec<usize>)>,
    encoding: Encoding,
    granularity: Granularity,
    cancel: &Cancel,
  ) -> Result<Self, Cancelled> {
    let (counted, postings) = in_parallel(
      doc.text.len() >= PARALLEL_BYTES,
      || count(&doc, whole, encoding, cancel),
      || Postings::build(&doc.text, &doc.segments, &doc.same, cancel),
    );
    Ok(Self {
      counted: counted?,
      postings: postings?,
      scored: ScoredSets::new(Leads::new(&doc.segments)),
      doc,
      messages,
      encoding,
      granularity,
    })
  }

  /// The tokens of the whole input.
  pub fn tokens(&self) -> usize {
    self.counted.whole
  }

  pub fn encoding(&self) -> Encoding {
    self.encoding
  }

  /// Extracts for `task`; `options.encoding` and `options.granularity` are the ones
  /// the thread was prepared with, whatever `options` says.
  pub fn extract(&self, task: &str, options: &Options, cancel: &Cancel) -> Result<Extraction, Cancelled> {
    self.extract_for(task, options, Output::TextAndMessages, cancel)
  }

  /// `extract` without choosing whole messages (`messages` is `None`).
  pub fn extract_as_text(
    &self,
    task: &str,
    options: &Options,
    cancel: &Cancel,
  ) -> Result<Extraction, Cancelled> {
    self.extract_for(task, options, Output::Text, cancel)
  }

  fn extract_for(
    &self,
    task: &str,
    options: &Options,
    output: Output,
    cancel: &Cancel,
  ) -> Result<Extraction, Cancelled> {
    let options = &Options {
      encoding: self.encoding,
      granularity: self.granularity,
      ..options.clone()
    };
    let counts = Counts::Known(&self.counted);
    match &self.messages {
      Some((messages, tokens)) => extract_from_messages(
        messages,
        tokens,
        &self.doc,
        counts,
        Some((&self.postings, &self.scored)),
        task,
        options,
        output,
        cancel,
      ),
      None => {
        let forced = vec![false; self.doc.segments.len()];
        Ok(
          extract_doc(
            &self.doc,
            &forced,
            counts,
            Some((&self.postings, &self.scored)),
            task,
            options,
            cancel,
          )?
          .0,
        )
      }
    }
  }
}

/// How many sets of tasks a prepared thread keeps the scores of.
pub(super) const SCORED_SETS: usize = 4;

/// The scores of the sets of tasks last extracted for, most recent last. While one
/// extraction scores a set, the others asking for the same set wait for its scores.
/// Also the leads' names, which every set reads alike.
pub(super) struct ScoredSets {
  sets: Mutex<Vec<ScoredSet>>,
  pub leads: Leads,
}

type ScoredSet = (Vec<String>, Arc<Mutex<Option<Arc<Scored>>>>);

impl ScoredSets {
  fn new(leads: Leads) -> Self {
    Self {
      sets: Mutex::default(),
      leads,
    }
  }

  pub fn get_or_score(
    &self,
    tasks: &[&str],
    score: impl FnOnce() -> Result<Scored, Cancelled>,
  ) -> Result<Arc<Scored>, Cancelled> {
    let slot = {
      let mut sets = self.sets.lock().unwrap_or_else(PoisonError::into_inner);
      let set = match sets
        .iter()
        .position(|(key, _)| key.iter().map(String::as_str).eq(tasks.iter().copied()))
      {
        Some(at) => sets.remove(at),
        None => (tasks.iter().map(|t| t.to_string()).collect(), Arc::default()),
      };
      let slot = Arc::clone(&set.1);
      sets.push(set);
      if sets.len() > SCORED_SETS {
        sets.remove(0);
      }
      slot
    };
    let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(scored) = &*slot {
      return Ok(Arc::clone(scored));
    }
    // A cancelled scoring leaves the slot empty for the next one to fill.
    let scored = Arc::new(score()?);
    *slot = Some(Arc::clone(&scored));
    Ok(scored)
  }
}
