//! The roster CSV form: [`CsvOut`], the CSV a [`Sink`](super::Sink) in CSV form writes its
//! grids into, and the rule that a wide CSV holds one roster while a long one labels each.

use anyhow::Result;

use super::Spool;
use crate::cli::exit;
use crate::grid::Puzzle;
use crate::io::csv::{Dialect, Layout, LongWriter, Names, write_roster_as};

/// Roster CSV output: several grids are written as they come (long layout), one grid is
/// held until the end (the wide layout needs it whole).
pub(in crate::cli) struct CsvOut {
    layout: Layout,
    dialect: Dialect,
    /// Several grids may come: long CSV with a grid column (decided up front, so that the
    /// columns do not depend on how many grids a run happens to produce).
    long: Option<LongWriter<Spool>>,
    single: Option<(Puzzle, Names)>,
}

impl CsvOut {
    /// CSV output for a run that may write several grids (`several`, because `what`).
    ///
    /// # Errors
    /// A usage error for several grids in a wide CSV, which holds one table.
    pub(super) fn new(
        layout: Layout,
        dialect: Dialect,
        several: bool,
        what: impl FnOnce() -> String,
    ) -> Result<CsvOut> {
        if several && layout == Layout::Wide {
            return Err(exit::usage_error(format!(
                "a wide CSV holds one roster, but {}: use --csv-shape long, which labels each \
                 grid in a leading grid column",
                what()
            )));
        }
        let long = if several {
            Some(LongWriter::with_dialect(Spool::new(), dialect)?)
        } else {
            None
        };
        Ok(CsvOut {
            layout,
            dialect,
            long,
            single: None,
        })
    }

    /// Adds a grid (or puzzle) with its label for the long layout's grid column. Every grid
    /// is checked before it is written.
    ///
    /// # Errors
    /// A grid that fails the check, or a CSV writer error.
    pub(super) fn push(&mut self, label: &str, puzzle: &Puzzle, names: &Names) -> Result<()> {
        match &mut self.long {
            Some(w) => w.write(label, puzzle, names)?,
            None => {
                if self.single.is_none() {
                    self.single = Some((puzzle.clone(), names.clone()));
                }
            }
        }
        Ok(())
    }

    /// The CSV text.
    ///
    /// # Errors
    /// A grid that fails the check, or a CSV writer error.
    pub(super) fn into_spool(self) -> Result<Spool> {
        if let Some(w) = self.long {
            return Ok(w.finish()?);
        }
        let mut out = Spool::new();
        if let Some((puzzle, names)) = &self.single {
            write_roster_as(&mut out, puzzle, names, self.layout, self.dialect)?;
        }
        Ok(out)
    }
}
