//! Rules tests: each cites the rule id (`shared/rules/valley_of_the_kings.md`) it checks.
