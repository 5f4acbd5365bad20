//! `pgnmill report`: the main job. Reads every game of the inputs, replays
//! it on all cores and writes the report folder (the overlapped pipeline
//! that does it for one input is in `report/pipeline.rs`).

use clap::{Args, ValueEnum};
use pgnmill::pgn::select::Condition;
use pgnmill::report::ExtractRequest;
use pgnmill::variant::GameVariant;
use std::path::{Path, PathBuf};

/// Which rules to replay games with.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantChoice {
    /// Per game, from its [Variant], [Game] and [FEN] tags and its movetext.
    Auto,
    /// Standard chess for every game.
    Chess,
    /// Chess960 for every game (X-FEN or Shredder-FEN castling fields).
    Chess960,
    /// Xiangqi for every game.
    Xiangqi,
}

impl VariantChoice {
    /// The variant forced on every game, if any.
    pub fn forced(self) -> Option<GameVariant> {
        match self {
            VariantChoice::Auto => None,
            VariantChoice::Chess => Some(GameVariant::Chess),
            VariantChoice::Chess960 => Some(GameVariant::Chess960),
            VariantChoice::Xiangqi => Some(GameVariant::Xiangqi),
        }
    }
}

/// A file format of the report's tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatChoice {
    /// games.csv and castling.csv.
    Csv,
    /// games.parquet and castling.parquet (zstd).
    Parquet,
}

/// Replay every game of PGN collections and write a report folder:
/// games.csv (one row per game, broken games included), castling.csv
/// ([FEN] headers whose castling rights contradict the board) and
/// summary.json (totals).
#[derive(Args, Debug)]
#[command(after_help = "\
Exit status:
  0    the report was written (broken games are rows with a status and an \
error; damaged, refused and unsupported inputs are warnings)
  1    the run could not complete: an input or the output folder could not \
be used (nothing is left that looks like a finished report); with --strict \
also when an input could not be read whole or a symbolic link in a folder \
leads nowhere (the report is still written)
  2    usage error, or outputs that would collide with each other, with an \
input or with a folder (nothing is written)
  130  interrupted by Ctrl-C (SIGINT)
  143  stopped by SIGTERM

Examples:
  pgnmill report games.pgn
  pgnmill report -o out --moves collection/ lichess_2025-05.pgn.zst
  curl -s https://database.lichess.org/standard/lichess_db_standard_rated_2025-05.pgn.zst \\
    | pgnmill report -j 8 -o 2025-05 -
  pgnmill report --extract missed=missed.pgn --extract castling=bad-fen.pgn db.pgn
  pgnmill report --extract unique=unique.pgn --extract duplicates=copies.pgn a.pgn b.pgn
  pgnmill report --duplicates --against master.pgn new-games.pgn")]
pub struct ReportArgs {
    /// PGN files, xiangqi record files, zip and 7z archives, folders
    /// (searched recursively for .pgn, .pgn.zst, .pgn.zstd, .pgn.gz,
    /// .pgn.bz2, .pgn.xz, .zip and .7z files, the xiangqi records .xqf,
    /// .cbr, .cbl, .cbf and .ubb, and .txt or .html pages that hold a
    /// DhtmlXQ block; hidden files and earlier report folders are passed
    /// over) or - for standard input. Compressed input (zstd, gzip, bzip2, xz) is recognised by its
    /// first bytes; a binary file is named on stderr and gives no rows.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// The report folder to write.
    #[arg(short, long, value_name = "DIR", default_value = "pgnmill-report")]
    pub out: PathBuf,

    /// Replace an earlier report in the output folder.
    #[arg(long)]
    pub force: bool,

    /// Worker threads [default: all cores].
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,

    /// Rules to replay games with.
    #[arg(long, value_enum, default_value = "auto")]
    pub variant: VariantChoice,

    /// Add a `moves` column to games.csv: the replayed main line in UCI
    /// (chess) or ICCS (xiangqi).
    #[arg(long)]
    pub moves: bool,

    /// Add clock and evaluation columns to games.csv, read from the
    /// [%clk] and [%eval] commands in the move comments (lichess,
    /// chess.com) and [TimeControl]: time_base, time_increment, each
    /// side's first, last and lowest clock and time used, clock_plies,
    /// clock_at_threefold_claim, eval_plies, eval_last_cp, eval_last_mate
    /// (milliseconds, centipawns).
    #[arg(long)]
    pub clocks: bool,

    /// Also write plies.parquet (and plies.csv with --format csv): one row
    /// per main-line ply of every game, with its SAN, UCI, the FEN after
    /// it, its clock, time, evaluation and how often the position has
    /// occurred.
    #[arg(long)]
    pub plies: bool,

    /// Also write the original text of the games of one category to a PGN
    /// file (`-`: standard output), byte for byte after a first line that
    /// marks it as pgnmill's own: missed (threefolds that ep-always
    /// misses), castling ([FEN] castling conflicts), errors (status
    /// neither ok nor damaged_input), conflicts (a recorded result the
    /// final position contradicts),
    /// unique (one copy of each game: dup_kind neither exact nor prefix)
    /// or duplicates (the others). Repeatable.
    #[arg(long, value_name = "KIND=FILE")]
    pub extract: Vec<ExtractRequest>,

    /// Add a games.csv column for each tag, named as given (first given,
    /// for a tag named twice in any case), empty when a game lacks it
    /// (comma lists, repeatable); `lichess` adds lichess's
    /// tags: UTCDate, UTCTime, WhiteElo, BlackElo, WhiteRatingDiff,
    /// BlackRatingDiff, WhiteTitle, BlackTitle, ECO, Opening, TimeControl,
    /// Termination. A tag named like a column pgnmill computes becomes
    /// tag_NAME (Termination: tag_Termination, beside the `termination`
    /// column); the roster tags (Event, Site, Date, Round, White, Black,
    /// Result) are refused: their columns hold them.
    #[arg(long, value_name = "TAG,...", value_delimiter = ',')]
    pub tags: Vec<String>,

    /// Report only the games whose tags meet EXPR (repeatable: all must
    /// hold), chosen before they are replayed: TAG=VALUE, TAG!=VALUE,
    /// TAG~REGEX, or on numbers TAG>=N, TAG<=N, TAG>N, TAG<N (a tag that is
    /// not a number fails those). A missing tag is the empty value.
    #[arg(long = "where", value_name = "EXPR")]
    pub where_: Vec<Condition>,

    /// The files to write for games and castling conflicts: csv, parquet,
    /// or csv,parquet.
    #[arg(
        long,
        value_enum,
        value_name = "FORMAT",
        value_delimiter = ',',
        default_value = "csv"
    )]
    pub format: Vec<FormatChoice>,

    /// No progress bar, no closing summary and no notes on stderr;
    /// warnings and errors are still printed.
    #[arg(short, long)]
    pub quiet: bool,

    /// Exit 1 when an input could not be read whole (refused as not PGN,
    /// a truncated or damaged .zst/.gz/zip member, compressed data that
    /// decodes to no text, a read error) or a symbolic link in a folder
    /// leads nowhere; the report is still written, and summary.json gives
    /// each input's warnings.
    #[arg(long)]
    pub strict: bool,

    /// Name openings from these TSV tables instead of the compiled-in
    /// lichess table (repeatable, read in order; a later line wins for a
    /// position listed twice): columns eco, name and the line from the
    /// standard start, in chess SAN or xiangqi ICCS, WXF or Chinese.
    #[arg(long, value_name = "FILE")]
    pub openings: Vec<PathBuf>,

    /// Find the games that copy another: adds the columns dup_of, dup_kind
    /// (exact, prefix or transposition) and dup_headers to games.csv, and
    /// writes duplicates.csv (each copy beside the game it copies).
    /// Implied by --duplicates-min-plies, --against and the unique and
    /// duplicates extracts.
    #[arg(long)]
    pub duplicates: bool,

    /// A game of fewer plies (an aborted game, a placeholder) is a copy
    /// only of a game whose White, Black, Event, Site and Date agree with
    /// its own [default: 10].
    #[arg(long, value_name = "N")]
    pub duplicates_min_plies: Option<u32>,

    /// A master collection (file or folder; repeatable) read before the
    /// inputs only to be matched against: its games have no row, and a
    /// row's dup_of may name one of them.
    #[arg(long, value_name = "FILE")]
    pub against: Vec<PathBuf>,
}

use super::progress::Progress;
use super::{CliError, say};
use pgnmill::job::Job;
use pgnmill::job::request::{Format, ReportRequest};
use pgnmill::output::collisions::{self, Planned, Shape};
use pgnmill::pipeline::{Observer, StageTimes};
use pgnmill::report::unread::Unread;
use pgnmill::report::{ReportFolder, Summary};
use pgnmill::source::{Listing, SourceError};

/// Runs `pgnmill report`.
pub fn run(args: &ReportArgs) -> Result<(), CliError> {
    run_timed(args).map(|_| ())
}

impl Observer for Progress {
    fn advance(&mut self, input_bytes: u64, text_bytes: u64, games: u64) {
        Progress::advance(self, input_bytes, text_bytes, games);
    }
}

/// Runs `pgnmill report` and returns the CPU time of each pipeline stage.
fn run_timed(args: &ReportArgs) -> Result<StageTimes, CliError> {
    let cancel = super::interrupt::cancel_token();
    let threads = super::thread_count(args.threads)?;
    let options = request(args)
        .options()
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let planned = planned_outputs(args);
    let all_inputs: Vec<PathBuf> = args.inputs.iter().chain(&args.against).cloned().collect();
    collisions::check(&planned, &all_inputs)?;
    if args.extract.iter().any(ExtractRequest::is_stdout) {
        super::output::check_stdout()?;
    }
    let job = Job::new(&args.inputs, Listing::Games)?
        .against(&args.against, Listing::Games)
        .map_err(|e| match e {
            // Which option named a path that is not there.
            e @ SourceError::NotFound { .. } => CliError::Failed(format!("--against {e}")),
            e => e.into(),
        })?
        .threads(threads)
        .cancel_on(cancel);
    let input_paths: Vec<&Path> = job
        .inputs()
        .iter()
        .chain(job.against_inputs())
        .map(|i| i.path.as_path())
        .collect();
    let extracts = planned.iter().filter(|p| p.shape == Shape::Extract);
    collisions::check_none_is_an_input(extracts, &input_paths)?;
    for extract in args.extract.iter().filter(|e| !e.is_stdout()) {
        super::output::refuse_to_replace(&extract.path, args.force)?;
    }
    // The search's notes once the outputs are accepted: a refused run
    // says only why it is refused.
    super::say_notes(job.notes());
    let out = ReportFolder::prepare(&args.out, args.force)?;
    if args.force {
        remove_earlier_extracts(&out, args)?;
    }
    let total_bytes = job
        .inputs()
        .iter()
        .filter(|i| !i.is_stdin())
        .filter_map(|i| std::fs::metadata(&i.path).ok())
        .map(|m| m.len())
        .sum();
    let mut progress = Progress::new(total_bytes, args.quiet);
    let outcome = job.report(&options, &out, &mut progress);
    progress.finish();
    let outcome = outcome.map_err(|e| said_of_the_earlier_report(e.into(), &out))?;
    for w in &outcome.warnings {
        say(format_args!("pgnmill: warning: {w}"));
    }
    if !args.quiet {
        print_summary(&outcome.summary, &out);
    }
    if args.strict {
        Unread::of_report(&outcome.summary)
            .check("the report was written; summary.json says which and why")
            .map_err(CliError::Failed)?;
    }
    Ok(outcome.stages)
}

/// A run that stopped after `--force` began to replace an earlier report
/// says what is left of that one: its files without summary.json.
fn said_of_the_earlier_report(error: CliError, out: &ReportFolder) -> CliError {
    if !out.replaced_earlier() {
        return error;
    }
    let left = format!(
        "; the earlier report in {} is no longer complete (its summary.json was removed when --force began to replace it)",
        out.path().display()
    );
    match error {
        CliError::Interrupted(why) => CliError::Interrupted(why + &left),
        CliError::Failed(why) => CliError::Failed(why + &left),
        other => other,
    }
}

/// The flags as the library's [`ReportRequest`], which makes the run's
/// options of them as it does of the Python package's keywords.
fn request(args: &ReportArgs) -> ReportRequest {
    ReportRequest {
        inputs: args.inputs.clone(),
        tags: args.tags.clone(),
        conditions: args.where_.clone(),
        moves: args.moves,
        clocks: args.clocks,
        plies: args.plies,
        variant: args.variant.forced(),
        formats: args
            .format
            .iter()
            .map(|f| match f {
                FormatChoice::Csv => Format::Csv,
                FormatChoice::Parquet => Format::Parquet,
            })
            .collect(),
        extracts: args.extract.clone(),
        strict: args.strict,
        openings: args.openings.clone(),
        duplicates: args.duplicates,
        duplicates_min_plies: args.duplicates_min_plies,
        against: args.against.clone(),
    }
}

/// Every path the run writes: the report folder, the report's own files
/// in it and the extracts, for [`collisions::check`].
fn planned_outputs(args: &ReportArgs) -> Vec<Planned> {
    let mut planned = pgnmill::report::planned_paths("-o", &args.out);
    planned.extend(args.extract.iter().map(|e| {
        Planned::new(
            format!("--extract {}", e.kind.name()),
            &e.path,
            Shape::Extract,
        )
    }));
    planned
}

/// `--force`: the extracts an earlier run wrote inside the report folder
/// that this run does not write again are removed, with a note.
fn remove_earlier_extracts(out: &ReportFolder, args: &ReportArgs) -> Result<(), CliError> {
    let keep: Vec<PathBuf> = args
        .extract
        .iter()
        .filter(|e| !e.is_stdout())
        .map(|e| collisions::resolve(&e.path))
        .collect();
    let removed = out.remove_earlier_extracts(&|p| keep.contains(&collisions::resolve(p)))?;
    if !removed.is_empty() && !args.quiet {
        let names: Vec<String> = removed.iter().map(|p| p.display().to_string()).collect();
        say(format_args!(
            "pgnmill: note: removed {} extract file(s) of the earlier report that this run does not write: {}",
            removed.len(),
            names.join(", ")
        ));
    }
    Ok(())
}

/// The closing lines on stderr: what a user wants to know at a glance,
/// each line short enough for an 80-column terminal.
fn print_summary(s: &Summary, out: &ReportFolder) {
    let mb = s.bytes as f64 / 1e6;
    let secs = s.elapsed_seconds.max(1e-9);
    // With --where, how many games the conditions kept of those read: a
    // condition that matches nothing is seen at once.
    let selected = if s.games_read == s.games_selected {
        String::new()
    } else {
        format!(" of {} read, selected by --where", s.games_read)
    };
    // Damaged games are not broken games, but no less worth a look.
    let damaged = match s.status.get("damaged_input").copied().unwrap_or(0) {
        0 => String::new(),
        n => format!(", {n} damaged_input"),
    };
    say(format_args!(
        "{}{selected} ({} with errors{damaged}) from {} input(s)",
        super::counted(s.games, "game", "games"),
        s.errors(),
        s.inputs.len()
    ));
    // What the warnings above said, counted, for a user who scrolled past
    // them: games are missing.
    if let Some(line) = Unread::of_report(s).brief() {
        say(format_args!("{line}"));
    }
    say(format_args!(
        "{:.1} MB in {:.2} s: {:.1} MB/s, {:.0} games/s, {} thread(s)",
        mb,
        secs,
        mb / secs,
        s.games as f64 / secs,
        s.threads
    ));
    // En passant and castling are chess's: a run of xiangqi games alone
    // has one count of threefolds and no castling.
    let xiangqi_only = s.variants.keys().all(|v| v == GameVariant::Xiangqi.name());
    if xiangqi_only && s.games > 0 {
        say(format_args!("threefolds: {}", s.threefolds_ep_always));
    } else {
        say(format_args!(
            "threefolds: {} ep-always, {} ep-if-legal, {} missed by ep-always",
            s.threefolds_ep_always, s.threefolds_ep_legal, s.missed_threefolds
        ));
        say(format_args!("castling conflicts: {}", s.castling_conflicts));
    }
    if let Some(d) = &s.duplicates {
        say(format_args!(
            "duplicates: {} exact, {} prefix, {} transposition; {} unique",
            d.exact, d.prefix, d.transposition, d.unique
        ));
    }
    say(format_args!("report written to {}", out.path().display()));
}
