// The test's steps as a compact list, one readable line each, beside an
// inspector with the selected step's fields. Steps are selected by click,
// Shift-click, Ctrl/Cmd-click or their checkboxes; the selection moves
// (Alt+ArrowUp/Down, the toolbar, or drag and drop), duplicates and is
// deleted together. "Add step" puts a new step after the one shown.
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent, type ReactNode } from "react";
import type { Registry } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { issueCount, newStep, stepKeys, str, type FieldIssue } from "./documentModel";
import { StepCard } from "./StepCard";
import { StepInspector } from "./StepInspector";
import {
  duplicateKeys,
  EMPTY_SELECTION,
  moveBy,
  moveTo,
  only,
  prune,
  removeKeys,
  select,
  selectAll,
  type Selection,
} from "./stepSelection";
import { describeStep } from "./stepText";
import { useComponentNames } from "./CallComponentFields";
import { useFileNames } from "../../api/files";
import { useProjectId } from "../../session";

export function StepList({
  steps,
  registry,
  readOnly,
  issues,
  onChange,
  initialStep,
  aside,
  onCursor,
  reveal = null,
  selectionActions,
  marks,
}: {
  steps: JsonObject[];
  registry: Registry;
  readOnly: boolean;
  /** Issues by step key (see stepKeys), then by field. */
  issues: Record<string, Record<string, FieldIssue[]>>;
  onChange: (steps: JsonObject[]) => void;
  /** The id of the step to show first (the editor's ?step=). */
  initialStep?: string | null;
  /** Shown under the inspector: the test's settings. */
  aside?: ReactNode;
  /** Told the id of the step shown in the inspector (the cursor recorded steps go after), or null. */
  onCursor?: (id: string | null) => void;
  /** Steps just added from elsewhere (a recording): selected, the last one shown. A new object each time. */
  reveal?: { ids: string[] } | null;
  /** More buttons for the selected steps (Make component), given their ids in list order. */
  selectionActions?: (ids: string[]) => ReactNode;
  /** The steps' last outcomes on the live session, by step id (LiveRun.tsx). */
  marks?: Record<string, string>;
}) {
  const keys = stepKeys(steps);
  const names = useComponentNames(steps.some((s) => s.type === "callComponent"));
  const fileNames = useFileNames(
    useProjectId(),
    steps.some((s) => s.type === "upload"),
  );
  const [sel, setSel] = useState<Selection>(() => {
    // Nothing is shown at first (so Add step appends), unless linked to or with problems.
    const key = initialStep ? `id:${initialStep}` : Object.keys(issues)[0];
    return key && keys.includes(key) ? only(key) : EMPTY_SELECTION;
  });
  const [shownIssues, setShownIssues] = useState(issues);
  if (issues !== shownIssues) {
    // New problems show the first step they are on, unless the one shown has some.
    setShownIssues(issues);
    const first = keys.find((k) => issues[k]);
    if (first && !(sel.current && issues[sel.current])) setSel(only(first));
  }
  const [shownReveal, setShownReveal] = useState(reveal);
  if (reveal !== shownReveal) {
    setShownReveal(reveal);
    const added = (reveal?.ids ?? []).map((id) => `id:${id}`).filter((k) => keys.includes(k));
    if (added.length > 0) setSel({ keys: added, current: added[added.length - 1], anchor: added[0] });
  }
  const live = prune(sel, keys);
  if (live !== sel) setSel(live);

  const [newType, setNewType] = useState(registry.stepTypes[0]?.type ?? "");
  const types = useMemo(() => new Map(registry.stepTypes.map((t) => [t.type, t])), [registry]);
  const listRef = useRef<HTMLOListElement>(null);
  // The row to focus after a keyboard move re-orders the list.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const [drag, setDrag] = useState<{ keys: string[]; over: number | null } | null>(null);

  const rowButton = (key: string) => listRef.current?.querySelector<HTMLElement>(`[data-step-key="${CSS.escape(key)}"] .step-line`) ?? null;
  useLayoutEffect(() => {
    if (!focusKey) return;
    rowButton(focusKey)?.focus();
    setFocusKey(null);
  }, [focusKey]);
  // A deep link (?step=) scrolls its step into view once.
  useEffect(() => {
    if (initialStep) rowButton(`id:${initialStep}`)?.scrollIntoView?.({ block: "center" });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const chosen = live.keys.length > 0 ? live.keys : live.current ? [live.current] : [];
  const move = (delta: -1 | 1) => {
    if (chosen.length === 0) return;
    onChange(moveBy(steps, keys, chosen, delta));
  };
  const duplicate = () => {
    const { steps: next, copies } = duplicateKeys(steps, keys, chosen);
    onChange(next);
    const copyKeys = copies.map((id) => `id:${id}`);
    setSel({ keys: copyKeys, current: copyKeys[copyKeys.length - 1] ?? null, anchor: copyKeys[0] ?? null });
  };
  const remove = () => {
    const last = Math.max(...chosen.map((k) => keys.indexOf(k)));
    const next = removeKeys(steps, keys, chosen);
    onChange(next);
    const nextKeys = stepKeys(next);
    const after = nextKeys[Math.min(last + 1 - chosen.length, nextKeys.length - 1)];
    setSel(after ? only(after) : EMPTY_SELECTION);
  };
  const add = () => {
    const type = types.get(newType);
    if (!type) return;
    const step = newStep(type, steps, registry.locatorKinds);
    const at = live.current ? keys.indexOf(live.current) + 1 : steps.length;
    onChange([...steps.slice(0, at), step, ...steps.slice(at)]);
    setSel(only(`id:${str(step.id)}`));
  };

  const onRowKey = (key: string, e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
    e.preventDefault();
    const delta = e.key === "ArrowUp" ? -1 : 1;
    if (e.altKey) {
      if (readOnly) return;
      const moving = live.keys.includes(key) ? live.keys : [key];
      if (!live.keys.includes(key)) setSel(only(key));
      onChange(moveBy(steps, keys, moving, delta));
      setFocusKey(key);
      return;
    }
    const next = keys[keys.indexOf(key) + delta];
    if (!next) return;
    setSel((s) => (e.shiftKey ? select(s, next, keys, "range") : only(next)));
    setFocusKey(next);
  };

  // Drag and drop: the dragged row carries the selection when it is part of it.
  const dragStart = (key: string, e: DragEvent<HTMLLIElement>) => {
    if (readOnly) return;
    const moving = live.keys.includes(key) ? keys.filter((k) => live.keys.includes(k)) : [key];
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", moving.join(" "));
    setDrag({ keys: moving, over: null });
  };
  const dragOver = (i: number, e: DragEvent<HTMLLIElement>) => {
    if (!drag) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "move";
    const box = e.currentTarget.getBoundingClientRect();
    const over = e.clientY < box.top + box.height / 2 ? i : i + 1;
    if (over !== drag.over) setDrag({ ...drag, over });
  };
  const drop = (e: DragEvent<HTMLLIElement>) => {
    e.preventDefault();
    if (drag && drag.over !== null) onChange(moveTo(steps, keys, drag.keys, drag.over));
    setDrag(null);
  };

  const onListKey = (e: KeyboardEvent<HTMLElement>) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "a" && (e.target as HTMLElement).classList.contains("step-line")) {
      e.preventDefault();
      setSel((s) => selectAll(s, keys));
    }
  };

  const currentIndex = live.current ? keys.indexOf(live.current) : -1;
  const current = currentIndex >= 0 ? steps[currentIndex] : null;
  const cursorId = current ? str(current.id) : null;
  useEffect(() => onCursor?.(cursorId), [cursorId, onCursor]);
  const allSelected = keys.length > 0 && live.keys.length === keys.length;
  const n = chosen.length;
  const first = n > 0 ? Math.min(...chosen.map((k) => keys.indexOf(k))) : -1;
  const last = n > 0 ? Math.max(...chosen.map((k) => keys.indexOf(k))) : -1;
  // A block already at the edge cannot move further that way.
  const block = n > 0 && last - first + 1 === n;
  return (
    <div className="editor-split">
      <section className="panel editor-steps" aria-labelledby="editor-steps-title" onKeyDown={onListKey}>
        <div className="steps-head">
          <input
            type="checkbox"
            aria-label="Select all steps"
            checked={allSelected}
            disabled={keys.length === 0}
            onChange={() => setSel((s) => (allSelected ? { ...s, keys: [] } : selectAll(s, keys)))}
          />
          <h2 id="editor-steps-title">Steps ({steps.length})</h2>
          {!readOnly && (
            <span className="row-buttons selection-actions" role="toolbar" aria-label="Selected steps">
              <span className="muted">{live.keys.length > 1 ? `${live.keys.length} selected` : ""}</span>
              <button
                type="button"
                className="small"
                aria-label="Move selected steps up"
                title="Move up (Alt+↑)"
                disabled={n === 0 || (block && first === 0)}
                onClick={() => move(-1)}
              >
                ↑
              </button>
              <button
                type="button"
                className="small"
                aria-label="Move selected steps down"
                title="Move down (Alt+↓)"
                disabled={n === 0 || (block && last === steps.length - 1)}
                onClick={() => move(1)}
              >
                ↓
              </button>
              <button type="button" className="small" aria-label="Duplicate selected steps" disabled={n === 0} onClick={duplicate}>
                Duplicate
              </button>
              <button type="button" className="small" aria-label="Delete selected steps" disabled={n === 0} onClick={remove}>
                Delete
              </button>
              {selectionActions?.(keys.flatMap((k, i) => (chosen.includes(k) ? [str(steps[i].id)] : [])))}
            </span>
          )}
        </div>
        {steps.length === 0 && (
          <p className="muted">{readOnly ? "No steps." : "No steps yet. Add the first one below, or record them with Record."}</p>
        )}
        <ol
          className="step-list"
          ref={listRef}
          onDragLeave={(e) => e.currentTarget === e.target && setDrag((d) => d && { ...d, over: null })}
        >
          {steps.map((step, i) => {
            const key = keys[i];
            const over = drag?.over;
            return (
              <StepCard
                key={key}
                index={i}
                stepKey={key}
                id={str(step.id)}
                text={describeStep(step, registry, names, fileNames)}
                problems={issueCount(issues[key])}
                mark={marks?.[str(step.id)]}
                selected={live.keys.includes(key)}
                current={live.current === key}
                readOnly={readOnly}
                dropAt={over === i ? "before" : over === i + 1 && i === steps.length - 1 ? "after" : null}
                onSelect={(mode) => setSel((s) => select(s, key, keys, mode))}
                onKeyDown={(e) => onRowKey(key, e)}
                onDragStart={(e) => dragStart(key, e)}
                onDragOver={(e) => dragOver(i, e)}
                onDrop={drop}
                onDragEnd={() => setDrag(null)}
              />
            );
          })}
        </ol>
        {!readOnly && (
          <div className="row add-step">
            <label className="inline-label" htmlFor="editor-new-step-type">
              Step type
            </label>
            <select id="editor-new-step-type" value={newType} onChange={(e) => setNewType(e.target.value)}>
              {registry.stepTypes.map((t) => (
                <option key={t.type} value={t.type} title={t.description}>
                  {t.type}
                </option>
              ))}
            </select>
            <button type="button" onClick={add}>
              Add step
            </button>
            <span className="hint">{types.get(newType)?.description}</span>
          </div>
        )}
      </section>
      <div className="editor-side">
        {current ? (
          <StepInspector
            key={live.current}
            index={currentIndex}
            step={current}
            text={describeStep(current, registry, names, fileNames)}
            registry={registry}
            stepType={types.get(str(current.type))}
            issues={issues[live.current ?? ""]}
            readOnly={readOnly}
            onChange={(s) => onChange(steps.map((old, j) => (j === currentIndex ? s : old)))}
          />
        ) : (
          <section className="panel inspector">
            <p className="muted">Select a step to see and change its fields.</p>
          </section>
        )}
        {aside}
      </div>
    </div>
  );
}
