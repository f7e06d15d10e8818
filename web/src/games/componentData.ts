// Tables a board draws from a game's component data rather than from its views (Valley of
// the Kings' cards, Pandoria's map, tiles and cards): built from the shipped data file
// (data/GAME.toml, bundled by Vite at build time) or from the corrected file of the game on
// the table (GameModule.useData). A game module keeps them in module bindings that its
// useData replaces, so every importer reads the tables of the game open now: the shell opens
// one table at a time and hands it its data before the board mounts. The file is the engine's
// to validate (the server refuses a bad one), so a build error means the file and the
// client's reading of it disagree, and it is thrown.

/**
 * The tables of a data file's text (`null`: the shipped file's), each text read once: the
 * shipped file's at start, a corrected one's when a table on it opens.
 */
export function componentTables<T>(shippedText: string, build: (toml: string) => T): (toml: string | null) => T {
  const shipped = build(shippedText)
  let corrected: { toml: string; tables: T } | null = null
  return (toml) => {
    if (toml === null) return shipped
    if (corrected?.toml !== toml) corrected = { toml, tables: build(toml) }
    return corrected.tables
  }
}
