pub mod slow_tafl;
