/**
 * Digits as typed on a Japanese keyboard are often full-width (`１２３`); NFKC folds them (and full-width
 * letters and signs) to ASCII, so a numeric field reads `123`.
 */
export function normalizeNumericInput(text: string): string {
  return text.normalize("NFKC");
}

/**
 * File names in NFC: macOS hands the browser decomposed names (`ハ` + `゙` for `バ`), which look the same but
 * compare, search and sort differently from what the user types.
 */
export function normalizeFileName(name: string): string {
  return name.normalize("NFC");
}
