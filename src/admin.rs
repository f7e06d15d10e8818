//! `tabletop admin`: what the server's operator does on the server machine, on the
//! database directly (no server needs to run): give and take the moderator role
//! (docs/server.md, "Moderation").

use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct AdminArgs {
    #[command(subcommand)]
    command: AdminCommand,
}

#[derive(Debug, clap::Subcommand)]
enum AdminCommand {
    /// Give or take the moderator role.
    Moderator {
        #[command(subcommand)]
        change: RoleChange,
    },
}

#[derive(Debug, clap::Subcommand)]
enum RoleChange {
    /// Make the account NAME a moderator.
    Add(RoleArgs),
    /// Make the account NAME no longer a moderator.
    Remove(RoleArgs),
}

#[derive(Debug, clap::Args)]
struct RoleArgs {
    /// The account's name (as names compare at sign-in).
    name: String,
    /// The server's database (`sqlite://FILE` or `postgres://…`).
    #[arg(long, default_value = "sqlite://tabletop.db")]
    db: String,
}

/// Runs an admin command: the sentence saying what was done.
pub fn run(args: &AdminArgs) -> Result<String, CliError> {
    let AdminCommand::Moderator { change } = &args.command;
    let (on, role) = match change {
        RoleChange::Add(role) => (true, role),
        RoleChange::Remove(role) => (false, role),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::failure(format!("cannot start the runtime: {e}")))?;
    runtime
        .block_on(server::moderation::set_moderator(&role.db, &role.name, on))
        .map(|done| format!("{done}\n"))
        .map_err(CliError::failure)
}
