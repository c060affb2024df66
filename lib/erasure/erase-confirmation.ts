/** What the "Delete my records" dialog sends as `confirm`: the word that says the user confirmed, so no stray request erases. */
export const ERASE_CONFIRMATION = "erase-my-records";
