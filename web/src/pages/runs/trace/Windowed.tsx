// Windowed renders a long list of rows of one fixed height: only the rows
// in view (and a few around them) are in the DOM, padding stands in for
// the others, so 2,000 requests scroll as fast as 20 (docs/trace.md).
import { useLayoutEffect, useRef, useState, type HTMLAttributes, type ReactNode } from "react";

/** Rows rendered beyond each edge of the view, so a quick scroll shows no gap. */
const OVERSCAN = 6;

export interface WindowedProps {
  count: number;
  /** Every row's height in CSS pixels (the rows must keep to it: one line, ellipsis). */
  rowHeight: number;
  /** The view's height at most; fewer rows make it shorter. */
  height: number;
  row: (i: number) => ReactNode;
  /** A row to keep in view: scrolled to when it changes (the selected step). */
  keepInView?: number;
  /** The scrolling element's attributes (a listbox's role, its keys). */
  outer?: HTMLAttributes<HTMLDivElement>;
  /** The element holding the rows (a table's rowgroup). */
  inner?: HTMLAttributes<HTMLDivElement>;
}

/** The rows [first, last) to render for a scroll position. */
export function windowOf(count: number, rowHeight: number, height: number, top: number): { first: number; last: number } {
  const maxTop = Math.max(0, count * rowHeight - height);
  const t = Math.min(Math.max(0, top), maxTop);
  const first = Math.max(0, Math.floor(t / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((t + height) / rowHeight) + OVERSCAN);
  return { first, last };
}

export function Windowed({ count, rowHeight, height, row, keepInView, outer, inner }: WindowedProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    if (keepInView === undefined || keepInView < 0) return;
    // top follows the element's scrollTop (onScroll).
    const at = keepInView * rowHeight;
    let next = top;
    if (at < top) next = at;
    else if (at + rowHeight > top + height) next = at + rowHeight - height;
    if (next === top) return;
    if (ref.current) ref.current.scrollTop = next;
    setTop(next);
    // Only a change of the row to keep scrolls: the reader's own scrolling stays.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keepInView]);
  const { first, last } = windowOf(count, rowHeight, height, top);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) rows.push(row(i));
  return (
    <div
      {...outer}
      ref={ref}
      className={`trace-window ${outer?.className ?? ""}`}
      style={{ maxHeight: height, overflowY: "auto" }}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
    >
      <div {...inner} style={{ paddingTop: first * rowHeight, paddingBottom: (count - last) * rowHeight }}>
        {rows}
      </div>
    </div>
  );
}
