/**
 * Rows per page on every operator list (the stuck list, the access log, a user's documents), as on a user's own
 * document list: a page an operator takes in at a glance, on a phone too, and one whose size keeps the browser's
 * work near a bare Next.js page's (docs/page-weight.md, "Stop 45").
 */
export const OPERATOR_PAGE_SIZE = 20;
