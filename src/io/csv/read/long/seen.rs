//! The names one axis of a long file's grid uses where no list names it: [`Seen`].

use std::collections::HashMap;

use super::super::default_index;
use super::MAX_SPELLINGS;
use crate::io::csv::MAX_SIDE;
use crate::io::csv::errors::{CsvError, CsvErrorKind, err};
use crate::io::csv::names::{Axis, canonical, check_name};
use crate::io::lines::quote_prefix;

/// The names one axis of a grid uses where no list names it, in order of first appearance.
/// Once the grid is read, an axis whose names are all default ones (`Staff 3`, `3`) is
/// numbered; any other is of names of its own.
#[derive(Default)]
pub(super) struct Seen {
    /// The names, in order of first appearance.
    pub(super) names: Vec<String>,
    /// Each name in its Unicode form for comparing, to its id.
    ids: HashMap<String, u16>,
    /// Where each name first appears (line, field), for messages.
    pub(super) at: Vec<(usize, usize)>,
}

impl Seen {
    /// The id of `name`, new or not.
    pub(super) fn id(
        &mut self,
        axis: Axis,
        name: &str,
        line: usize,
        field: usize,
    ) -> Result<u16, CsvError> {
        // One name in two Unicode forms is one (see `canonical`).
        let key = canonical(name);
        if let Some(&id) = self.ids.get(key.as_ref()) {
            return Ok(id);
        }
        check_name(name).map_err(|problem| {
            err(
                line,
                Some(field),
                CsvErrorKind::BadName {
                    what: axis.to_string(),
                    name: quote_prefix(name),
                    problem,
                },
            )
        })?;
        // Spellings, not staff: `7` and `Staff 7` are one staff member of a numbered axis.
        if self.names.len() >= MAX_SPELLINGS {
            let kind = CsvErrorKind::TooManyNames {
                axis,
                limit: MAX_SPELLINGS,
            };
            return Err(err(line, Some(field), kind));
        }
        let id = self.names.len() as u16;
        self.names.push(name.to_string());
        self.ids.insert(key.into_owned(), id);
        self.at.push((line, field));
        Ok(id)
    }

    /// The number of each name when every one is a default name (`Staff 3`, `3`).
    pub(super) fn numbers(&self, axis: Axis) -> Option<Vec<usize>> {
        self.names
            .iter()
            .map(|n| default_index(axis, n).filter(|k| (1..=MAX_SIDE).contains(k)))
            .collect()
    }
}
