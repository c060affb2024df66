/**
 * Header the browser sets on `POST /api/documents` when it creates the document again because storage refused
 * the first upload link (403): the server sees only the create call, and counts renewals by this mark.
 */
export const UPLOAD_RENEWAL_HEADER = "x-upload-renewal";
