/**
 * Credential-shaped parts of free text (a document name, a type, a container), replaced before the text is kept:
 * a SAS query (`sv=…&…&sig=…`: both keys in one run of `key=value` pairs) and a JWT (`eyJ….eyJ…`, an access or
 * id token). Text that merely mentions a key (`Contract sig=final.pdf`) is kept as it is.
 */
export const REDACTED = "[redacted]";

// A run of query parameters: key=value joined by `&` (a SAS query, with or without its `?`).
const PARAMETER_RUN = /[\w.-]+=[^\s&#]*(?:&[\w.-]+=[^\s&#]*)*/g;
// header.payload(.signature): both parts base64url JSON objects, as every JWT's are.
const JWT = /eyJ[\w-]{4,}\.eyJ[\w-]{4,}(?:\.[\w-]*)?/g;

function isSasQuery(run: string): boolean {
  const keys = new Set(run.split("&").map((pair) => pair.slice(0, pair.indexOf("=")).toLowerCase()));
  return keys.has("sv") && keys.has("sig");
}

/** `text` with every SAS query and JWT in it replaced by REDACTED; unchanged when it holds none. */
export function redactCredentials(text: string): string {
  return text.replace(JWT, REDACTED).replace(PARAMETER_RUN, (run) => (isSasQuery(run) ? REDACTED : run));
}
