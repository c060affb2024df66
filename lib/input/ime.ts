import type { KeyboardEvent } from "react";

/**
 * Whether a key press belongs to an IME composition (Japanese, Chinese, Korean input): the Enter that confirms
 * a conversion must not submit the form. `isComposing` is the standard flag; keyCode 229 is what Safari sends for
 * the confirming keydown, after compositionend.
 */
export function isComposing(event: KeyboardEvent<HTMLElement>): boolean {
  return event.nativeEvent.isComposing || event.keyCode === 229;
}

/** onKeyDown for a form's text fields: Enter while an IME is composing confirms the text and does nothing else. */
export function ignoreEnterWhileComposing(event: KeyboardEvent<HTMLElement>): void {
  if (event.key === "Enter" && isComposing(event)) event.preventDefault();
}
