//! For tests of the server and of the programs built on it: a fresh PostgreSQL schema to
//! run against, so that test runs never see each other's games.

/// The PostgreSQL server tests use: `TABLETOP_TEST_PG`, or the machine's local one
/// (127.0.0.1:5432, database `test`, the current user).
pub fn postgres_url() -> String {
    std::env::var("TABLETOP_TEST_PG").unwrap_or_else(|_| {
        let user = std::env::var("USER").unwrap_or_else(|_| "postgres".into());
        format!("postgres://{user}@127.0.0.1:5432/test")
    })
}

/// The URL of a new, empty schema of [`postgres_url`]'s database. `None`, with the reason
/// printed, when PostgreSQL cannot be reached outside CI; under `CI=true` that panics, so
/// that CI never passes without the PostgreSQL tests.
pub async fn fresh_postgres_schema() -> Option<String> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let base = postgres_url();
    let pool = match sqlx::PgPool::connect(&base).await {
        Ok(pool) => pool,
        Err(e) if std::env::var("CI").as_deref() != Ok("true") => {
            eprintln!("skipped: PostgreSQL at {base} is not reachable ({e})");
            return None;
        }
        Err(e) => panic!("CI=true: PostgreSQL at {base} must be reachable: {e}"),
    };
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let schema = format!(
        "test_{}_{nanos}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    );
    if let Err(e) = sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&pool)
        .await
    {
        panic!("cannot create schema {schema}: {e}");
    }
    pool.close().await;
    let separator = if base.contains('?') { '&' } else { '?' };
    Some(format!(
        "{base}{separator}options=-c%20search_path%3D{schema}"
    ))
}

/// Ends every connection to [`postgres_url`]'s server whose `application_name` is `name`
/// (a server started with `&application_name=NAME` in its URL), as a database restart or
/// a network failure would; returns how many. Tests of what survives an outage use it.
pub async fn terminate_postgres_connections(name: &str) -> Result<usize, sqlx::Error> {
    let pool = sqlx::PgPool::connect(&postgres_url()).await?;
    let ended: Vec<(bool,)> = sqlx::query_as(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
    )
    .bind(name)
    .fetch_all(&pool)
    .await?;
    pool.close().await;
    Ok(ended.len())
}
