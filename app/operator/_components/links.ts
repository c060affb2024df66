/** Where an operator opens a user's records: by the user key (an opaque hash), never by email, so no email is in a URL. */
export const operatorUserHref = (userKey: string) => `/operator/users/${encodeURIComponent(userKey)}`;
export const operatorDocumentHref = (userKey: string, itemId: string) => `${operatorUserHref(userKey)}/documents/${encodeURIComponent(itemId)}`;
