import "server-only";

/**
 * The text of both exports, the user's own (lib/documents/documents-export.ts) and the operator's
 * (lib/operators/operator-export.ts): CSV with a byte-order mark, or JSON as `JSON.stringify(…, null, 2)` writes it,
 * produced as it is read and handed on in chunks of about EXPORT_CHUNK_CHARS.
 */

export type ExportFormat = "csv" | "json";

/** Text is handed to the response in pieces of about this many UTF-16 units: rows are joined up to it, never a whole batch. */
export const EXPORT_CHUNK_CHARS = 64 * 1024;

/** The UTF-8 byte-order mark (EF BB BF): without it, Excel opened by double-click reads the file in the ANSI code page. */
const BOM = "\uFEFF";

/**
 * One CSV cell. A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first: names are typed by users)
 * gets a leading apostrophe; quotes are doubled and any cell with a separator, quote or line break is quoted.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line of cells, with its CRLF. */
export function csvLine(cells: readonly (string | number | null)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/**
 * Text joined into chunks of at least `size` units: the response gets few large writes instead of one per row,
 * no chunk holds more than `size` plus one piece, and the writers below yield (an await) once per chunk.
 */
class ChunkBuffer {
  private parts: string[] = [];
  private length = 0;

  constructor(private readonly size = EXPORT_CHUNK_CHARS) {}

  /** Adds a piece; true once the chunk is full and should be taken. */
  add(piece: string): boolean {
    this.parts.push(piece);
    this.length += piece.length;
    return this.length >= this.size;
  }

  take(): string {
    const chunk = this.parts.join("");
    this.parts = [];
    this.length = 0;
    return chunk;
  }

  get empty(): boolean {
    return this.length === 0;
  }
}

/**
 * A CSV file: the byte-order mark and the header of `columns`, then the lines (each with its CRLF) as they come, a
 * batch at a time; a batch may be a generator, so that its lines are made one by one as the chunks take them.
 */
export async function* csvFile(columns: readonly string[], lines: AsyncIterable<Iterable<string>>): AsyncGenerator<string> {
  const out = new ChunkBuffer();
  out.add(`${BOM}${columns.join(",")}\r\n`);
  for await (const batch of lines) for (const line of batch) if (out.add(line)) yield out.take();
  if (!out.empty) yield out.take();
}

/**
 * A JSON object: the fields of `head`, then one array per entry of `arrays`, filled as its batches come. The text is
 * what `JSON.stringify({ ...head, ...arrays }, null, 2)` gives for the whole; each record is written as it comes.
 */
export async function* jsonFile(head: Record<string, unknown>, arrays: Record<string, AsyncIterable<readonly unknown[]>>): AsyncGenerator<string> {
  const out = new ChunkBuffer();
  let separator = "";
  const field = (key: string) => {
    const text = `${separator}\n  ${JSON.stringify(key)}: `;
    separator = ",";
    return text;
  };
  out.add("{");
  for (const [key, value] of Object.entries(head)) out.add(`${field(key)}${JSON.stringify(value, null, 2).replace(/\n/g, "\n  ")}`);
  for (const [key, batches] of Object.entries(arrays)) {
    out.add(`${field(key)}[`);
    let first = true;
    for await (const batch of batches) {
      for (const value of batch) {
        // An element of an array nested two levels deep.
        if (out.add(`${first ? "" : ","}\n    ${JSON.stringify(value, null, 2).replace(/\n/g, "\n    ")}`)) yield out.take();
        first = false;
      }
    }
    out.add(first ? "]" : "\n  ]");
  }
  out.add(separator ? "\n}" : "}");
  yield out.take();
}

/** Each batch of `batches` as the CSV lines of its rows, each made as the writer takes it. */
export async function* csvLinesOf<T>(batches: AsyncIterable<readonly T[]>, cells: (row: T) => readonly (string | number | null)[]): AsyncGenerator<Iterable<string>> {
  for await (const batch of batches) yield (function* () {
    for (const row of batch) yield csvLine(cells(row));
  })();
}
