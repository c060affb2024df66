/**
 * The document name rule, without zod: the browser checks names with it (zod stays out of client bundles) and
 * the route handler's zod schema is built from the same limits and messages, so form and server agree.
 */
export const NAME_MIN_LENGTH = 3;
export const NAME_MAX_LENGTH = 255;
export const NAME_TOO_SHORT_MESSAGE = `Name must have at least ${NAME_MIN_LENGTH} characters.`;
export const NAME_TOO_LONG_MESSAGE = `Name must be at most ${NAME_MAX_LENGTH} characters.`;

/** Whether a name is acceptable: empty (the service allows it), or 3–255 characters. */
export function isDocumentNameLongEnough(name: string): boolean {
  return name.length === 0 || name.length >= NAME_MIN_LENGTH;
}

/** The message for a name the service would refuse, or undefined when it is fine. */
export function documentNameError(name: string): string | undefined {
  if (name.length > NAME_MAX_LENGTH) return NAME_TOO_LONG_MESSAGE;
  return isDocumentNameLongEnough(name) ? undefined : NAME_TOO_SHORT_MESSAGE;
}
