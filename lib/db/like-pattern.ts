/** `text` with LIKE's wildcards (`%`, `_`) and its escape (`\`) escaped: a search matches them as themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
