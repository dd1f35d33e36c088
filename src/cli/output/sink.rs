//! [`Sink`]: where a command's results go, in the [`Form`] its flags chose (grids as text,
//! JSON records, the command's own text lines, or a roster CSV), until it is finished into
//! a [`Spool`].

use std::io::Write;

use anyhow::Result;

use super::entry::{Entry, GridRef};
use super::roster::CsvOut;
use super::{Out, Spool};
use crate::cli::exit::data_error;
use crate::cli::input::NameArgs;
use crate::grid::Shape;
use crate::io::csv::{Dialect, Layout, Names};
use crate::io::parse::Alphabet;
use crate::io::write::{OutputFormat, grid_separator, write_cells_in};

/// The sink of a run that makes grids of one `shape` (fill, generate), in the output flags'
/// choice `out`. Checked before any work: several grids in a CSV need the long layout, the
/// name files must fit the shape, and name files without CSV output are refused.
///
/// # Errors
/// A usage error for several grids in a wide CSV or for unused name files; I/O or data
/// errors from the name files.
pub(in crate::cli) fn sink_for_shape(
    out: Out,
    shape: Shape,
    names: &NameArgs,
    several: bool,
    what: impl FnOnce() -> String,
) -> Result<Sink> {
    let layout = match out {
        Out::Text(format) => {
            names.refuse_unused(true)?;
            return Ok(Sink::new(Form::of(format)));
        }
        Out::Csv(layout, dialect) => (layout, dialect),
    };
    let sink = Sink::csv(layout.0, layout.1, several, what)?;
    let custom = names.load()?;
    let names = Names::new(shape, &custom).map_err(|e| data_error(e.to_string()))?;
    Ok(Sink {
        names: Some(names),
        ..sink
    })
}

/// What a [`Sink`] writes.
pub(in crate::cli) enum Form {
    /// Grids as text in the grid or line format of [`crate::io::write`].
    Grids(OutputFormat),
    /// One JSON [`Record`](super::Record) per result and line.
    Json,
    /// The command's own text lines (`count`, `grade`).
    Text,
    /// A roster CSV of the grids (boxed: it holds a CSV writer, the others next to nothing).
    Csv(Box<CsvOut>),
}

impl Form {
    /// The form for the text output `format` (JSON records, or grids).
    pub(in crate::cli) fn of(format: OutputFormat) -> Form {
        match format {
            OutputFormat::Json => Form::Json,
            OutputFormat::Grid | OutputFormat::Line => Form::Grids(format),
        }
    }
}

/// Where a command's results go, in the form its flags chose, until [`Sink::finish`].
pub(in crate::cli) struct Sink {
    form: Form,
    out: Spool,
    /// Grids written in [`Form::Grids`], for the separator between them.
    written: usize,
    /// The roster names of every grid in [`Form::Csv`], unless entries bring their own.
    names: Option<Names>,
    /// The symbols of [`Form::Grids`] where the alphabet can write the size.
    alphabet: Alphabet,
}

impl Sink {
    /// The shift names a roster sink writes its grids with (none for other forms).
    pub(in crate::cli) fn shift_names(&self) -> Option<&[String]> {
        self.names.as_ref().map(Names::shifts)
    }

    /// The names a roster sink writes its grids with (none for other forms).
    pub(in crate::cli) fn names(&self) -> Option<&Names> {
        self.names.as_ref()
    }

    /// An empty sink writing in `form`.
    pub(in crate::cli) fn new(form: Form) -> Sink {
        Sink {
            form,
            out: Spool::new(),
            written: 0,
            names: None,
            alphabet: Alphabet::Numeric,
        }
    }

    /// Grids in the grid and line forms are written in `alphabet`, one character per cell,
    /// at the sizes it can write (see [`write_cells_in`]).
    pub(in crate::cli) fn set_alphabet(&mut self, alphabet: Alphabet) {
        self.alphabet = alphabet;
    }

    /// Every grid of this sink is written with `names` (a roster CSV's own, for
    /// `generate --from`).
    pub(in crate::cli) fn set_names(&mut self, names: Names) {
        self.names = Some(names);
    }

    /// A roster CSV sink for a run that may write several grids (`several`, because
    /// `what`); its entries bring their own names.
    ///
    /// # Errors
    /// A usage error for several grids in a wide CSV, which holds one table.
    pub(in crate::cli) fn csv(
        layout: Layout,
        dialect: Dialect,
        several: bool,
        what: impl FnOnce() -> String,
    ) -> Result<Sink> {
        Ok(Sink::new(Form::Csv(Box::new(CsvOut::new(
            layout, dialect, several, what,
        )?))))
    }

    /// A sink for the output flags' choice `out`; `csv` makes the roster CSV output (and
    /// refuses what cannot be written) when that is the choice.
    ///
    /// # Errors
    /// What `csv` returns.
    pub(in crate::cli) fn for_out(
        out: Out,
        csv: impl FnOnce(Layout, Dialect) -> Result<Sink>,
    ) -> Result<Sink> {
        match out {
            Out::Csv(layout, dialect) => csv(layout, dialect),
            Out::Text(format) => Ok(Sink::new(Form::of(format))),
        }
    }

    /// Writes one result in the sink's form. Every grid is checked before it goes into a
    /// CSV.
    ///
    /// # Errors
    /// A failed write, names that do not fit, or a grid that fails the check.
    pub(in crate::cli) fn push(&mut self, e: &impl Entry) -> Result<()> {
        match &mut self.form {
            Form::Json => {
                // As an `io::Error`, for the exit status (74) of a failed write.
                serde_json::to_writer(&mut self.out, &e.record()).map_err(std::io::Error::from)?;
                self.out.write_all(b"\n")?;
            }
            Form::Text => e.text(&mut self.out)?,
            Form::Grids(format) => {
                for shown in e.grids() {
                    if self.written > 0 {
                        self.out.write_all(grid_separator(*format).as_bytes())?;
                    }
                    let g = shown.grid;
                    write_cells_in(&mut self.out, g.shape(), g.cells(), *format, self.alphabet)?;
                    self.written += 1;
                }
            }
            Form::Csv(csv) => {
                let grids = e.grids();
                if grids.is_empty() {
                    return Ok(());
                }
                let own = e.names()?;
                let names = own
                    .as_ref()
                    .or(self.names.as_ref())
                    .expect("a CSV sink has names, or its entries bring their own");
                for shown in grids {
                    match shown.grid {
                        GridRef::Puzzle(p) => csv.push(&shown.label, p, names)?,
                        GridRef::Grid(g) => csv.push(&shown.label, &g.to_puzzle(), names)?,
                    }
                }
            }
        }
        Ok(())
    }

    /// The whole output.
    ///
    /// # Errors
    /// A grid that fails the check, or a CSV writer error.
    pub(in crate::cli) fn finish(self) -> Result<Spool> {
        match self.form {
            Form::Csv(csv) => csv.into_spool(),
            _ => Ok(self.out),
        }
    }
}
