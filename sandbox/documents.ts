export interface DocumentRecord {
  itemId: string;
  fileId: string;
  name: string;
  doctype: string;
  subdocid: number;
  container: string;
  blobName: string;
  createdAt: string;
  owner: string;
}

/** Documents created since start (or the last reset), in creation order. In memory; the blobs go with the sandbox too (a temp dir removed at stop). */
export class DocumentRegistry {
  private documents: DocumentRecord[] = [];

  add(document: DocumentRecord): void {
    this.documents.push(document);
  }

  list(): readonly DocumentRecord[] {
    return this.documents;
  }

  reset(): void {
    this.documents = [];
  }
}

/**
 * Blob name from the file id plus a conservative extension taken from the user's file name, so user input
 * never shapes the path.
 */
export function blobNameFor(fileId: string, fileName: string): string {
  const extension = /\.([A-Za-z0-9]{1,10})$/.exec(fileName)?.[1];
  return extension ? `${fileId}.${extension.toLowerCase()}` : fileId;
}
