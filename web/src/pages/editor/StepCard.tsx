// One step in the compact list: a checkbox for the multi-selection, its
// outline number (3, 3.1), one readable sentence (describeStep), its
// problems and its id. A block (if, repeat, forEach) has a chevron that
// collapses it, and its steps below its line, indented (StepList draws
// them as the card's children). The line is a drag source and a drop
// target; clicking it shows the step in the inspector (Shift and
// Ctrl/Cmd extend the selection).
import type { DragEvent, KeyboardEvent, MouseEvent, ReactNode } from "react";

export interface StepRowProps {
  /** The outline number: "3", "3.1". */
  number: string;
  stepKey: string;
  id: string;
  text: string;
  problems: number;
  selected: boolean;
  current: boolean;
  readOnly: boolean;
  /** The step's last outcome on the editor's live session (LiveRun.tsx), if it ran there. */
  mark?: string;
  /** Where a dragged step would land: before or after this row, or first into its block. */
  dropAt: "before" | "after" | "into" | null;
  /** For a block: whether its steps are hidden, how many it holds, and the chevron's action. */
  block?: { collapsed: boolean; count: number; onToggle: () => void };
  onSelect: (mode: "only" | "toggle" | "range") => void;
  onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => void;
  onDragStart: (e: DragEvent<HTMLDivElement>) => void;
  onDragOver: (e: DragEvent<HTMLDivElement>) => void;
  onDrop: (e: DragEvent<HTMLElement>) => void;
  onDragEnd: () => void;
  /** A block's steps, drawn below its line. */
  children?: ReactNode;
}

const MARKS: Record<string, string> = { passed: "✓ passed", failed: "✗ failed", running: "… running", skipped: "– skipped" };

export function StepCard(p: StepRowProps) {
  const n = p.number;
  const click = (e: MouseEvent) => p.onSelect(e.shiftKey ? "range" : e.ctrlKey || e.metaKey ? "toggle" : "only");
  const cls = [
    "step-row",
    p.selected && "selected",
    p.current && "current",
    p.problems > 0 && "has-issues",
    p.dropAt && `drop-${p.dropAt}`,
    p.block && "block-row",
  ];
  return (
    <li className={p.block ? "step-item block-item" : "step-item"}>
      <div
        className={cls.filter(Boolean).join(" ")}
        data-step-key={p.stepKey}
        draggable={!p.readOnly}
        onDragStart={p.onDragStart}
        onDragOver={p.onDragOver}
        onDrop={p.onDrop}
        onDragEnd={p.onDragEnd}
      >
        <input type="checkbox" aria-label={`Select step ${n}`} checked={p.selected} onChange={() => p.onSelect("toggle")} />
        {p.block ? (
          <button
            type="button"
            className="block-toggle"
            aria-expanded={!p.block.collapsed}
            aria-label={`${p.block.collapsed ? "Expand" : "Collapse"} step ${n}`}
            title={p.block.collapsed ? "Show its steps" : "Hide its steps"}
            onClick={p.block.onToggle}
          >
            {p.block.collapsed ? "▸" : "▾"}
          </button>
        ) : (
          <span className="block-toggle-space" aria-hidden="true" />
        )}
        <span className="step-n" aria-hidden="true">
          {n}
        </span>
        <button
          type="button"
          className="step-line"
          aria-current={p.current ? "step" : undefined}
          aria-label={`Step ${n}: ${p.text}`}
          title={p.text}
          onClick={click}
          onKeyDown={p.onKeyDown}
        >
          {p.text}
        </button>
        {p.block?.collapsed && (
          <span className="muted block-count">
            {p.block.count} {p.block.count === 1 ? "step" : "steps"}
          </span>
        )}
        {p.problems > 0 && (
          <span className="step-problems">
            {p.problems} {p.problems === 1 ? "problem" : "problems"}
          </span>
        )}
        {p.mark && (
          <span className={`step-mark mark-${p.mark}`} title={`Step by step: ${p.mark}`}>
            {MARKS[p.mark] ?? p.mark}
          </span>
        )}
        <span className="step-id mono muted">{p.id}</span>
        {!p.readOnly && (
          <span className="drag-handle" aria-hidden="true" title="Drag to move">
            ⠿
          </span>
        )}
      </div>
      {p.children}
    </li>
  );
}
