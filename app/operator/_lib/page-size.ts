/**
 * Rows per page on every operator list (the stuck list, the access log, a user's documents), as on a user's own
 * document list: a page an operator takes in at a glance, on a phone too. It also bounds what the browser builds: at
 * 50 rows the stuck list was 833 elements, at 20 it is 387 (docs/page-weight.md, "Stop 45").
 */
export const OPERATOR_PAGE_SIZE = 20;
