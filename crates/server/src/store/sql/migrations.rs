//! The schema migrations, embedded in the binary: the files of
//! `crates/server/migrations/sqlite` and `…/postgres`, read as sqlx reads a folder of them
//! (`<version>_<description>.sql`, the checksum of the text), through sqlx's public
//! [`MigrationSource`] rather than its `migrate!` macro. The macro made the compiler build
//! sqlx's drivers a second time for itself, SQLite's C sources included (a proc-macro's
//! dependencies are built apart): about 20 s of the two cores' work in a first start's build
//! (issue 52). A new migration is a new file and a new line below; a test checks that the
//! lists are the folders.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use sqlx::error::BoxDynError;
use sqlx::migrate::{MigrateError, Migration, MigrationSource, MigrationType, Migrator};

/// A migration file's name and text.
type File = (&'static str, &'static str);

macro_rules! embedded {
    ($dir:literal: $($file:literal,)+) => {
        &[$(($file, include_str!(concat!("../../../migrations/", $dir, "/", $file)))),+]
    };
}

/// SQLite's migrations, in order.
const SQLITE: &[File] = embedded!("sqlite":
    "0001_games_and_moves.sql",
    "0002_data_files.sql",
    "0003_game_creators.sql",
    "0004_lobby_pages.sql",
    "0005_health.sql",
    "0006_table_lifecycle.sql",
    "0007_clocks_and_leases.sql",
    "0008_accounts.sql",
    "0009_account_seats.sql",
    "0010_chat.sql",
    "0011_ratings.sql",
    "0012_account_settings.sql",
    "0013_unrated_games.sql",
    "0014_passkeys.sql",
    "0015_seeks.sql",
    "0016_lobby_filters.sql",
    "0017_notifications.sql",
    "0018_friends.sql",
    "0019_browser_seats.sql",
    "0020_safety.sql",
    "0021_blocks.sql",
    "0022_moderation.sql",
);

/// PostgreSQL's migrations, in order.
const POSTGRES: &[File] = embedded!("postgres":
    "0001_games_and_moves.sql",
    "0002_notify_changes.sql",
    "0003_data_files.sql",
    "0004_game_creators.sql",
    "0005_lobby_pages.sql",
    "0006_health.sql",
    "0007_table_lifecycle.sql",
    "0008_clocks_and_leases.sql",
    "0009_accounts.sql",
    "0010_account_seats.sql",
    "0011_chat.sql",
    "0012_ratings.sql",
    "0013_account_settings.sql",
    "0014_unrated_games.sql",
    "0015_passkeys.sql",
    "0016_seeks.sql",
    "0017_lobby_filters.sql",
    "0018_presence.sql",
    "0019_notifications.sql",
    "0020_friends.sql",
    "0021_browser_seats.sql",
    "0022_safety.sql",
    "0023_blocks.sql",
    "0024_moderation.sql",
);

/// The migrations of SQLite (`postgres: false`) or PostgreSQL.
pub(super) async fn migrator(postgres: bool) -> Result<Migrator, MigrateError> {
    Migrator::new(Embedded(if postgres { POSTGRES } else { SQLITE })).await
}

/// Migration files embedded with `include_str!`.
#[derive(Debug)]
struct Embedded(&'static [File]);

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async move {
            let mut migrations = self
                .0
                .iter()
                .map(|&(name, sql)| migration(name, sql))
                .collect::<Result<Vec<_>, _>>()?;
            migrations.sort_by_key(|m| m.version);
            Ok(migrations)
        })
    }
}

/// A file `<version>_<description>.sql` as sqlx's folder source reads it: the version,
/// the description with spaces for underscores, the text, and "-- no-transaction" first
/// for a migration run outside a transaction. (The checksum sqlx stores is the text's, so
/// databases migrated by the macro's build keep theirs.)
fn migration(name: &str, sql: &'static str) -> Result<Migration, BoxDynError> {
    let malformed = || format!("migration file {name:?} is not <version>_<description>.sql");
    let (version, rest) = name.split_once('_').ok_or_else(malformed)?;
    let version: i64 = version.parse().map_err(|_| malformed())?;
    let migration_type = MigrationType::from_filename(rest);
    let description = rest
        .trim_end_matches(migration_type.suffix())
        .replace('_', " ");
    Ok(Migration::new(
        version,
        Cow::Owned(description),
        migration_type,
        Cow::Borrowed(sql),
        sql.starts_with("-- no-transaction"),
    ))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// The embedded lists are the folders' files, and each reads as sqlx reads the folder
    /// (version, description, type, checksum, transaction).
    #[tokio::test]
    async fn the_embedded_migrations_are_the_folders_as_sqlx_reads_them() {
        for (postgres, dir) in [(false, "sqlite"), (true, "postgres")] {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("migrations")
                .join(dir);
            let from_folder = Migrator::new(path.as_path()).await.expect("the folder");
            let embedded = migrator(postgres).await.expect("the embedded files");
            let key = |m: &Migration| {
                (
                    m.version,
                    m.description.to_string(),
                    m.migration_type,
                    m.checksum.to_vec(),
                    m.no_tx,
                )
            };
            let folder: Vec<_> = from_folder.iter().map(key).collect();
            let ours: Vec<_> = embedded.iter().map(key).collect();
            assert_eq!(
                ours, folder,
                "{dir}: add the new file to its list in migrations.rs"
            );
        }
    }

    #[test]
    fn a_file_name_without_a_version_is_refused() {
        assert!(migration("initial.sql", "").is_err());
        assert!(migration("x_initial.sql", "").is_err());
        assert_eq!(
            migration("0007_clocks_and_leases.sql", "")
                .expect("read")
                .description,
            "clocks and leases"
        );
    }
}
