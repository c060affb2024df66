import { RecentList } from "./recent-list";

/**
 * The name of every document the API created, oldest first, so the e2e teardown can check that no app log line
 * holds one (a document name is personal data: "Employment contract — J. Smith.pdf"). One per sandbox process:
 * the API server records into it, the admin route reads it.
 */
export const createdDocumentNames = new RecentList<string>();
