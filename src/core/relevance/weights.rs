//! Every weight and threshold of the relevance engine, named: what each does, and where
//! its value came from. Values tuned by hand were set on the bench's HotpotQA questions
//! (headed sections) or its interleaved agent threads, in the commit that
//! `git log -S 'const NAME'` finds; none was fitted by a search over many values.

// Section-first scoring: how much each signal adds to a segment's score, each signal
// normalized to 0..1 first (`scores_with`). The section dominates: a reader needs the
// section that answers whole, and a sentence is worth what its section is.

/// The segment's section (heading and what follows, a rendered message, or a paragraph
/// where there are no headings): the main signal, as the unit of one.
pub const W_SECTION: f32 = 1.0;
/// The segment's block (paragraph, list item, code block): a fifth of the section's, so
/// that a good paragraph lifts its sentences within a section, never above another section.
pub const W_BLOCK: f32 = 0.2;
/// The segment's own BM25: as much as its block, so that within a paragraph the matching
/// sentence comes first.
pub const W_SEGMENT: f32 = 0.2;
/// The best neighbour in the same block: half of `W_SEGMENT`, so a sentence next to a
/// match ("It was dissolved in 2010") outranks unrelated ones of its paragraph.
pub const W_NEIGHBOUR: f32 = 0.1;
/// The first sentence of a paragraph introduces what the rest refers back to: it shares
/// this much of its section's (or block's) relevance, as much as `W_BLOCK`.
pub const W_LEAD: f32 = 0.2;

// Titles and links.

/// A section whose title the task names: this much on top of its BM25 (0..1), as much
/// as the best BM25, because the task naming a title is the strongest sign there is.
pub const W_TITLE: f32 = 1.0;
/// A section named by one of the most relevant sections: this much times the source's
/// relative relevance (a bridge question's second document is named by the first).
pub const W_LINK: f32 = 1.0;
/// A section that names one of the most relevant sections' titles: a weaker sign than
/// being named (naming is common, being named by the answer is not).
pub const W_BACKLINK: f32 = 0.3;
/// How many of the most relevant sections are followed for links: two, since the
/// questions that need links need two documents.
pub const LINK_SOURCES: usize = 2;
/// What quotes the task (a search for the question, a plan's line for it) scores at most
/// this share of the best other section's text: a quarter, with the faint sections, as it
/// adds nothing the task does not say (at a half, agent renderings' recall rose by up to
/// 0.020; at a quarter, by up to 0.019 more).
pub const QUOTE_SHARE: f32 = 0.25;
/// How relevant (relative to the best) a section must be for its links to be followed:
/// half, so a faint section does not pull in what it names.
pub const LINK_SOURCE: f32 = 0.5;
/// A title shorter than this many letters or digits is not sought as a name: "AI" or
/// "Go" would be found in any text.
pub const MIN_TITLE_CHARS: usize = 4;

/// A name given to more sections than this names none of them: a thread's calls share
/// their command words (`view`) and read one file again and again, while a title in a set
/// of documents is its own. Four: a file read, edited, tested and read again.
pub const MAX_NAMESAKES: usize = 4;

/// A task is sought quoted whole in the text only when it is at least this long: a
/// statement, not a few words that any text may hold.
pub const MIN_QUOTE_BYTES: usize = 24;

// The pair of sections that answer together (`pair`).

/// The pair is sought among this many of the most relevant sections: HotpotQA gives ten
/// paragraphs, and an agent thread's best ten sections hold any pair worth lifting.
pub const PAIR_CANDIDATES: usize = 10;
/// BM25 `k1` when the pair's text is scored: low, since a term found once in a section
/// says most of what it can about whether the pair covers the task.
pub const PAIR_K1: f32 = 0.5;
/// The pair is put this much (relative) above the best section: enough to come first,
/// little enough that the scale of the others stays.
pub const PAIR_LEAD: f32 = 0.1;
/// Both halves of the pair must already be this relevant (relative to the best section):
/// a faint second section is not made to look as relevant as the best.
pub const PAIR_FLOOR: f32 = 0.2;

// Feedback: a task's vocabulary learned from what it already owns (`feedback`).

/// Weight of a learned term: between a plain term (1) and a strong one (`terms::STRONG`).
pub const WEIGHT_FEEDBACK: f32 = 1.5;
/// How many of a task's best owned segments are read for its vocabulary.
pub const FEEDBACK_SEGMENTS: usize = 200;
/// How many terms a task may learn: enough for the identifiers and paths of its files,
/// few enough that the statement's own terms still lead.
pub const FEEDBACK_TERMS: usize = 48;
/// A segment is read for feedback when it scores at least this share of the task's best
/// (as `PAIR_FLOOR`: a faint segment teaches nothing).
pub const FEEDBACK_FLOOR: f32 = 0.2;
/// A learned term is an identifier of at least this many bytes: shorter ones (`id`,
/// `url`, `pk`) are in every task's code.
pub const FEEDBACK_MIN_LEN: usize = 4;
/// ...found in at least this many of the owned segments: once may be chance.
pub const FEEDBACK_MIN_SEGMENTS: usize = 2;

// Limits that bound work, not relevance.

/// Bound on the distinct words whose vocabulary forms `Index::build` keeps (a million:
/// far more than a thread's vocabulary, far less than memory).
pub const KNOWN_WORDS: usize = 1 << 20;
/// Trigrams a phrase must share with a segment before the segment is searched: the
/// rarest few, since each candidate is searched anyway.
pub const TRIGRAMS_CHECKED: usize = 4;
/// Up to this many distinct phrases are sought one by one with a vectorized search, more
/// in one Aho-Corasick pass (the automaton made a spawn without siblings 3x slower).
pub const ONE_BY_ONE: usize = 12;
