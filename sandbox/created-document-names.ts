/**
 * The name of every document the API created, oldest first, so the e2e teardown can check that no app log line
 * holds one (a document name is personal data: "Employment contract — J. Smith.pdf"). Kept across resets and
 * bounded like seen-request-ids.ts.
 */
const LIMIT = 10_000;

export class CreatedDocumentNames {
  private names: string[] = [];

  record(name: string): void {
    this.names.push(name);
    if (this.names.length > LIMIT) this.names.splice(0, this.names.length - LIMIT);
  }

  list(): string[] {
    return [...this.names];
  }
}

/** One per sandbox process: the API server records into it, the admin route reads it. */
export const createdDocumentNames = new CreatedDocumentNames();
