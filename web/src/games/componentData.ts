// Tables a board draws from a game's component data rather than from its views (Valley of
// the Kings' cards and sets, Pandoria's map, tiles and cards). The engine compiles them from
// the data file (Game::components: defaults applied, provisional flags kept, the map's
// geometry worked out) and they reach the client as JSON of types generated with ts-rs: the
// shipped data's are built in (src/generated/tables/GAME.json, kept current by
// tests/generated_types.rs), and a table on corrected data gets its own from the server
// (`/api/games/{id}/components`, a replay's `components`). Nothing is parsed here.
//
// A game module keeps them in module bindings that its useData replaces, so every importer
// reads the tables of the game open now: the shell opens one table at a time and hands it
// its tables before the board mounts.

/**
 * The tables to draw from: `tables`, the JSON the server sent for a game on corrected data,
 * or the shipped ones (`null`). The server's JSON is of the type the game exports with its
 * tables (`Tables`): this is the one cast between the server's tables and a board.
 */
export function tablesOr<T>(shipped: T, tables: unknown): T {
  return tables === null || tables === undefined ? shipped : (tables as T)
}
