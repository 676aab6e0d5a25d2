//! The integration tests, one module per subject, in one test binary: one
//! link of the library instead of one per file, which is most of the time
//! a clean `cargo test --release` takes. The timing tests of deadlines run
//! in a binary of their own (tests/deadlines.rs), where no other test
//! competes with them for the cores.

mod common;

mod action_encoding;
mod adjudication;
mod agent_configurations;
mod all_games;
mod cli;
mod cli_limits;
mod cli_play;
mod clocks;
mod crash_safety;
mod custom_game;
mod docs_tables;
mod engine_abuse;
mod engine_agents;
mod engine_faults;
mod engine_protocol;
mod engine_session;
mod fenrir_cards_cli;
mod fenrir_cards_determinize;
mod fenrir_cards_policies;
mod fenrir_cards_rules;
mod fenrir_path_cli;
mod fenrir_path_rules;
mod fenrir_path_solver;
mod fenrir_path_winrate;
mod forfeits;
mod fuzz;
mod guided_search;
mod hnefatafl_facts;
mod hnefatafl_rules;
mod hnefatafl_tuning;
mod hostile_text;
mod ismcts_widening;
mod koom_valley_facts;
mod koom_valley_rules;
mod net_cli;
mod nibelungen_rules;
mod openings;
mod otep_host;
mod records;
mod run_directories;
mod search_hnefatafl;
mod search_matrix;
mod search_mcts_players;
mod search_records;
mod search_tictactoe;
mod simultaneous;
mod simultaneous_solver;
mod smmcts;
mod stealth_chess_facts;
mod stealth_chess_rules;
mod tafl_attack;
mod tafl_cli;
mod tafl_facts;
mod tafl_reference;
mod tafl_rules;
mod thud_cli;
mod thud_facts;
mod thud_rules;
mod tournament;
mod train;
mod train_evaluation;
mod train_workers;
mod view;
mod winrate_runs;
mod winrate_shards;
