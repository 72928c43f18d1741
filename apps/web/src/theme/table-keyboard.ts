/**
 * Two things antd's Table leaves short of WCAG 2.2 AA, fixed once for every table of the console (issue 18):
 * - with a horizontal scroll it renders an aria-hidden measuring row that clones the column titles, the
 *   select-all checkbox included, so a keyboard reaches a control screen readers are told is not there: the
 *   row becomes inert;
 * - its scrolling box holds nothing focusable when the cells are plain text, so a keyboard cannot scroll it:
 *   the box joins the tab order.
 * Runs on every change of the document (antd builds tables lazily), touching only new tables.
 */
export function keepTablesKeyboardFriendly(root: HTMLElement = document.body): () => void {
  const fix = () => {
    for (const row of root.querySelectorAll<HTMLElement>('.ant-table-measure-row:not([inert])')) row.inert = true;
    for (const box of root.querySelectorAll<HTMLElement>('.ant-table-content:not([tabindex]), .ant-table-body:not([tabindex])'))
      box.tabIndex = 0;
  };
  fix();
  const observer = new MutationObserver(fix);
  observer.observe(root, { childList: true, subtree: true });
  return () => observer.disconnect();
}
