/**
 * Rows per page on every operator list (the stuck list, the access log, a user's documents), as on a user's own
 * document list: a page an operator takes in at a glance, on a phone too. It also bounds what the browser builds: a
 * bare Next.js page with a full stuck list of 50 rows already exceeds the page-weight goal (docs/page-weight.md,
 * "Decisions"; docs/figures.md).
 */
export const OPERATOR_PAGE_SIZE = 20;
