/**
 * File names in NFC: macOS hands the browser decomposed names (`ハ` + `゙` for `バ`), which look the same but
 * compare, search and sort differently from what the user types.
 */
export function normalizeFileName(name: string): string {
  return name.normalize("NFC");
}
