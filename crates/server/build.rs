// `sqlx::migrate!` embeds the migrations when the crate is compiled: a new migration file
// must compile it again.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
