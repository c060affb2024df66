import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names. The UI primitives never pass two utilities for the same property (a variant is a prop,
 * not an override), so nothing needs resolving at run time and no class-merging library ships to every page.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
