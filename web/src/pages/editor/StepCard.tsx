// One step in the compact list: a checkbox for the multi-selection, its
// number, one readable sentence (describeStep), its problems and its id.
// The row is a drag source and a drop target; clicking it shows the step
// in the inspector (Shift and Ctrl/Cmd extend the selection).
import type { DragEvent, KeyboardEvent, MouseEvent } from "react";

export interface StepRowProps {
  index: number;
  stepKey: string;
  id: string;
  text: string;
  problems: number;
  selected: boolean;
  current: boolean;
  readOnly: boolean;
  /** The step's last outcome on the editor's live session (LiveRun.tsx), if it ran there. */
  mark?: string;
  /** Where a dragged step would land: before or after this row. */
  dropAt: "before" | "after" | null;
  onSelect: (mode: "only" | "toggle" | "range") => void;
  onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => void;
  onDragStart: (e: DragEvent<HTMLLIElement>) => void;
  onDragOver: (e: DragEvent<HTMLLIElement>) => void;
  onDrop: (e: DragEvent<HTMLLIElement>) => void;
  onDragEnd: () => void;
}

const MARKS: Record<string, string> = { passed: "✓ passed", failed: "✗ failed", running: "… running", skipped: "– skipped" };

export function StepCard(p: StepRowProps) {
  const n = p.index + 1;
  const click = (e: MouseEvent) => p.onSelect(e.shiftKey ? "range" : e.ctrlKey || e.metaKey ? "toggle" : "only");
  const cls = [
    "step-row",
    p.selected && "selected",
    p.current && "current",
    p.problems > 0 && "has-issues",
    p.dropAt && `drop-${p.dropAt}`,
  ];
  return (
    <li
      className={cls.filter(Boolean).join(" ")}
      data-step-key={p.stepKey}
      draggable={!p.readOnly}
      onDragStart={p.onDragStart}
      onDragOver={p.onDragOver}
      onDrop={p.onDrop}
      onDragEnd={p.onDragEnd}
    >
      <input type="checkbox" aria-label={`Select step ${n}`} checked={p.selected} onChange={() => p.onSelect("toggle")} />
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
    </li>
  );
}
