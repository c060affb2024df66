/**
 * C0 control characters and DEL (NUL, tab, newline, escape …). None belongs in a name, a type or a search, and
 * PostgreSQL cannot store NUL in text at all: the routes refuse them with a 400 naming the field.
 */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export const CONTROL_CHARACTERS_MESSAGE = "must not contain control characters";

/** Whether `text` holds a control character (see CONTROL_CHARACTER). */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}
