//! `generate`'s flags checked against the method they belong to, turned into that
//! method's library configuration (`GenerateConfig`, `ExpandConfig`, `GaConfig`), and the
//! method making one puzzle with it.

use anyhow::Result;

use super::source::Source;
use super::values::{GridArg, MethodArg, OrderArg};
use super::values::{SymmetryArg, name_of};
use super::{GaSummary, GenerateArgs, Made};
use crate::cli::exit;
use crate::generate::expand::{ExpandConfig, expand, expand_grid};
use crate::generate::ga::{GaConfig, GaProgress, evolve, evolve_grid};
use crate::generate::{
    Fallback, GenerateConfig, GridKind, MoreRounds, Order, Symmetry, Target, generate,
    generate_from,
};
use crate::grade::MAX_LEVEL;
use crate::grid::Shape;
use crate::solve::SearchControl;

/// Checks the method-specific flags and builds the method's configuration. `from` says
/// whether the grid comes from `--from` (`Some`), and whether it keeps agreed givens
/// (`Some(true)`): then the defaults are no symmetry (with agreed givens) and no rounds of
/// `--improve` (whose 25x25 default pays on an automorphic grid only).
pub(super) fn method_of(
    args: &GenerateArgs,
    shape: Shape,
    seed: u64,
    from: Option<bool>,
) -> Result<Method> {
    let method = match (args.method, args.level) {
        (Some(m), _) => m,
        (None, Some(_)) => MethodArg::Ga,
        (None, None) => MethodArg::Prove,
    };
    let refuse = |flag: &str, set: bool, only: &str| -> Result<()> {
        if set {
            Err(exit::usage_error(format!(
                "{flag} applies to --method {only} only"
            )))
        } else {
            Ok(())
        }
    };
    if method != MethodArg::Prove {
        refuse("--minimal", args.minimal, "prove")?;
        refuse("--givens", args.givens.is_some(), "prove")?;
        refuse("--search-nodes", args.search_nodes.is_some(), "prove")?;
        refuse("--improve", args.improve.is_some_and(|r| r > 0), "prove")?;
        refuse("--every-house", args.every_house, "prove")?;
    }
    if method != MethodArg::Expand {
        refuse("--max-level", args.max_level.is_some(), "expand")?;
    }
    if method != MethodArg::Ga {
        refuse("--level", args.level.is_some(), "ga")?;
        refuse("--generations", args.generations.is_some(), "ga")?;
        refuse("--population", args.population.is_some(), "ga")?;
    }
    if method == MethodArg::Ga {
        refuse("--order", args.order.is_some(), "prove or expand")?;
    }
    let symmetry = match (args.symmetry, from) {
        (Some(s), _) => Symmetry::from(s),
        (None, Some(true)) => Symmetry::None,
        (None, _) => Symmetry::Rot180,
    };
    let mut defaults = GenerateConfig::with_symmetry(shape, seed, symmetry);
    if from.is_some() {
        defaults.improve = 0;
    }
    let asked = match (args.grid, args.automorphic) {
        (Some(g), _) => Some(g),
        (None, true) => Some(GridArg::Automorphic),
        (None, false) => None,
    };
    if asked == Some(GridArg::Automorphic) {
        // The grid's half turn helps only a pattern that has it (16x16, seeds 1-5: with
        // rot90 and dihedral 4-8 givens fewer, with mirror and diagonal no change).
        if !symmetry.has_half_turn() {
            return Err(exit::usage_error(
                "--grid automorphic (--automorphic) matches the grid to the pattern's half \
                 turn: it needs a symmetry of the givens that holds it (rot180, the default; \
                 rot90; dihedral)",
            ));
        }
        if shape.box_size() > GridKind::HALF_TURN_MAX_BOX {
            return Err(exit::usage_error(format!(
                "--grid automorphic (--automorphic) fills grids up to 81x81 (box {}), not {shape}",
                GridKind::HALF_TURN_MAX_BOX
            )));
        }
    }
    // Unless asked, the grid is random, except that `prove` takes its size's default
    // (automorphic at 25x25) when the pattern holds the half turn.
    let grid = match asked {
        Some(g) => GridKind::from(g),
        None if method == MethodArg::Prove => defaults.grid,
        None => GridKind::Random,
    };
    let order = args.order.map(|o| match o {
        OrderArg::Sweep => Order::Sweep,
        OrderArg::Random => Order::Random,
        OrderArg::Bands => Order::Bands,
    });
    Ok(match method {
        MethodArg::Prove => {
            let mut base = defaults;
            base.order = order.unwrap_or(Order::Bands);
            base.grid = grid;
            if args.minimal {
                base.target = Target::Minimal;
                base.fallback = Fallback::Full;
            } else if let Some(k) = args.givens {
                if k >= shape.cells() {
                    let what = if k == shape.cells() {
                        "asks for no blank cell"
                    } else {
                        "is more than the cells"
                    };
                    return Err(exit::usage_error(format!(
                        "--givens {k} {what}: a {shape} grid has {} cells (at most {} givens)",
                        shape.cells(),
                        shape.cells() - 1
                    )));
                }
                base.target = Target::Givens(k);
            }
            if let Some(nodes) = args.search_nodes {
                if base.target == Target::Minimal {
                    base.target = Target::Pass;
                }
                base.fallback = if nodes == 0 {
                    Fallback::None
                } else {
                    Fallback::Bounded(nodes)
                };
            }
            if args.every_house && args.improve.is_some_and(|r| r > 0) {
                return Err(exit::usage_error(
                    "--every-house and --improve do not go together: the rounds give givens \
                     back and blank again without minding the houses",
                ));
            }
            base.every_house = args.every_house;
            if let Some(rounds) = args.improve {
                // `--improve 0` (no rounds) goes with anything, so that scripts can pass it
                // at every size.
                if rounds > 0 && base.target != Target::Minimal {
                    let why = if args.givens.is_some() {
                        "not with --givens".to_string()
                    } else if args.search_nodes.is_some() {
                        "not with --search-nodes".to_string()
                    } else {
                        format!("add --minimal (the default only up to 25x25, not {shape})")
                    };
                    return Err(exit::usage_error(format!(
                        "--improve {rounds} starts from a minimal puzzle: {why}"
                    )));
                }
                base.improve = rounds;
                base.improve_more = MoreRounds::NONE;
            } else if base.target != Target::Minimal || base.grid != GridKind::HalfTurn {
                // The default rounds (point symmetry only, `with_symmetry`) pay on
                // automorphic grids only (README: on random ones 24 rounds gain two points
                // in half a minute).
                base.improve = 0;
            }
            base.time_limit = args.time_limit;
            Method::Prove(base)
        }
        MethodArg::Expand => Method::Expand(
            ExpandConfig {
                seed,
                symmetry,
                max_level: args.max_level.unwrap_or(MAX_LEVEL),
                order: order.unwrap_or(Order::Random),
                grid,
            },
            args.time_limit,
        ),
        MethodArg::Ga => {
            let level = args
                .level
                .ok_or_else(|| exit::usage_error("--method ga needs --level L (1..8)"))?;
            if shape.box_size() == 2 && level > 1 {
                // `grade::tests::every_proper_4x4_puzzle_is_level_1`.
                return Err(exit::usage_error(format!(
                    "--level {level} cannot be reached at 4x4: every 4x4 puzzle with one \
                     solution is solved at level 1"
                )));
            }
            let mut cfg = GaConfig::for_shape(shape, seed, level);
            cfg.symmetry = symmetry;
            cfg.grid = grid;
            if let Some(g) = args.generations {
                cfg.generations = g;
            }
            if let Some(p) = args.population {
                cfg.population = usize::try_from(p).unwrap_or(usize::MAX);
            }
            cfg.time_limit = args.time_limit;
            Method::Ga(cfg)
        }
    })
}

/// The validated method and its configuration.
#[derive(Clone, Copy)]
pub(super) enum Method {
    Prove(GenerateConfig),
    Expand(ExpandConfig, Option<std::time::Duration>),
    Ga(GaConfig),
}

impl Method {
    pub(super) fn name(&self) -> &'static str {
        match self {
            Method::Prove(_) => "prove",
            Method::Expand(..) => "expand",
            Method::Ga(_) => "ga",
        }
    }

    /// The kind of grid and the symmetry of the givens, as `--grid` and `--symmetry` name
    /// them (for the JSON record: the defaults differ by size).
    pub(super) fn grid_and_symmetry(&self) -> (String, String) {
        let (grid, symmetry) = match self {
            Method::Prove(c) => (c.grid, c.symmetry),
            Method::Expand(c, _) => (c.grid, c.symmetry),
            Method::Ga(c) => (c.grid, c.symmetry),
        };
        (
            name_of::<GridArg, _>(grid),
            name_of::<SymmetryArg, _>(symmetry),
        )
    }

    /// Makes the puzzle of `seed` (from `from`'s grid, or a random one); `None` when
    /// interrupted before there was one.
    pub(super) fn make(
        &self,
        shape: Shape,
        seed: u64,
        serial: bool,
        control: &SearchControl,
        progress: Option<&GaProgress>,
        from: Option<&Source>,
    ) -> Option<Made> {
        match *self {
            Method::Prove(base) => {
                let cfg = GenerateConfig {
                    seed,
                    check_threads: if serial { 1 } else { base.check_threads },
                    ..base
                };
                let g = match from {
                    Some(s) => generate_from(&s.solution, s.keep.as_ref(), &cfg, control)
                        .expect("--from's kept givens are the completion's own"),
                    None => generate(shape, &cfg, control)?,
                };
                Some(Made {
                    puzzle: g.puzzle,
                    solution: g.solution,
                    minimal: g.minimal,
                    stopped_early: g.stopped_early,
                    micros: g.stats.micros,
                    proof: Some(g.stats),
                    grade: None,
                    ga: None,
                })
            }
            Method::Expand(base, limit) => {
                let cfg = ExpandConfig { seed, ..base };
                let deadline = base_deadline(control, limit);
                let e = match from {
                    Some(s) => expand_grid(&s.solution, &cfg, &deadline),
                    None => expand(shape, &cfg, &deadline)?,
                };
                Some(Made {
                    puzzle: e.puzzle,
                    solution: e.solution,
                    minimal: false,
                    stopped_early: e.stopped_early,
                    micros: e.micros,
                    proof: None,
                    grade: Some(e.grade),
                    ga: None,
                })
            }
            Method::Ga(base) => {
                let cfg = GaConfig { seed, ..base };
                let e = match from {
                    Some(s) => evolve_grid(&s.solution, &cfg, control, progress),
                    None => evolve(shape, &cfg, control, progress)?,
                };
                Some(Made {
                    puzzle: e.puzzle,
                    solution: e.solution,
                    minimal: false,
                    stopped_early: e.stopped_early,
                    micros: e.micros,
                    proof: None,
                    grade: Some(e.grade),
                    ga: Some(GaSummary {
                        target: cfg.level,
                        fitness: e.fitness,
                        evaluations: e.evaluations,
                        history: e.history,
                    }),
                })
            }
        }
    }
}

/// `control` with a deadline `limit` from now (expansion has no time limit of its own).
fn base_deadline(control: &SearchControl, limit: Option<std::time::Duration>) -> SearchControl {
    control
        .clone()
        .with_deadline(limit.map(|d| std::time::Instant::now() + d))
}
