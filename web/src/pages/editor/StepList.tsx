// The test's steps as a compact list, one readable line each, beside an
// inspector with the selected step's fields. Blocks (if, repeat, forEach)
// show their steps below their line, indented, an if its "Else" and its
// else-steps; each block collapses. Steps are selected by click,
// Shift-click, Ctrl/Cmd-click or their checkboxes; the selection moves
// (Alt+ArrowUp/Down, the toolbar, or drag and drop; out of a block at its
// edges), duplicates and is deleted together. "Add step" puts a new step
// after the one shown, in its list; "Add step here" at the end of a block.
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import type { Registry } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { issueCount, newStep, str, type FieldIssue } from "./documentModel";
import { StepCard } from "./StepCard";
import { StepInspector } from "./StepInspector";
import { EMPTY_SELECTION, only, prune, select, selectAll, type Selection } from "./stepSelection";
import {
  branchesOf,
  children,
  duplicateKeys,
  insertSteps,
  isBlock,
  listId,
  moveKeysBy,
  removeKeys,
  replaceStep,
  walkTree,
  type ListAddr,
  type TreeStep,
} from "./stepTree";
import { describeStep } from "./stepText";
import { useStepDrag } from "./useStepDrag";
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
  /** More buttons for the selected steps (Make component), given their ids in list order; none when they are inside blocks. */
  selectionActions?: (ids: string[]) => ReactNode;
  /** The steps' last outcomes on the live session, by step id (LiveRun.tsx). */
  marks?: Record<string, string>;
}) {
  const tree = useMemo(() => walkTree(steps), [steps]);
  const byKey = useMemo(() => new Map(tree.map((t) => [t.key, t])), [tree]);
  const byPlace = useMemo(() => new Map(tree.map((t) => [`${listId(t.list)}:${t.index}`, t])), [tree]);
  const inside = (t: TreeStep) => tree.filter((d) => d.path.startsWith(`${t.path}.`));
  const keys = tree.map((t) => t.key);
  const names = useComponentNames(tree.some((t) => t.step.type === "callComponent"));
  const fileNames = useFileNames(
    useProjectId(),
    tree.some((t) => t.step.type === "upload"),
  );
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const ancestors = (key: string): string[] => {
    const p = byKey.get(key)?.parent;
    return p ? [p, ...ancestors(p)] : [];
  };
  /** open shows the step of key: its blocks expand. */
  const open = (key: string) => {
    const up = ancestors(key);
    if (up.some((k) => collapsed.has(k))) setCollapsed((c) => new Set([...c].filter((k) => !up.includes(k))));
  };
  const [sel, setSel] = useState<Selection>(() => {
    // Nothing is shown at first (so Add step appends), unless linked to or with problems.
    const key = initialStep ? `id:${initialStep}` : keys.find((k) => issues[k]);
    return key && keys.includes(key) ? only(key) : EMPTY_SELECTION;
  });
  const [shownIssues, setShownIssues] = useState(issues);
  if (issues !== shownIssues) {
    // New problems show the first step they are on, unless the one shown has some.
    setShownIssues(issues);
    const first = keys.find((k) => issues[k]);
    if (first && !(sel.current && issues[sel.current])) {
      setSel(only(first));
      open(first);
    }
  }
  const [shownReveal, setShownReveal] = useState(reveal);
  if (reveal !== shownReveal) {
    setShownReveal(reveal);
    const added = (reveal?.ids ?? []).map((id) => `id:${id}`).filter((k) => keys.includes(k));
    if (added.length > 0) setSel({ keys: added, current: added[added.length - 1], anchor: added[0] });
  }
  const live = prune(sel, keys);
  if (live !== sel) setSel(live);

  // The rows on screen, in order: the steps of collapsed blocks are not.
  const hidden = (t: TreeStep): boolean => !!t.parent && (collapsed.has(t.parent) || hidden(byKey.get(t.parent)!));
  const order = tree.filter((t) => !hidden(t)).map((t) => t.key);

  const [newType, setNewType] = useState(registry.stepTypes[0]?.type ?? "");
  const types = useMemo(() => new Map(registry.stepTypes.map((t) => [t.type, t])), [registry]);
  const listRef = useRef<HTMLOListElement>(null);
  // The row to focus after a keyboard move re-orders the list.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const [notice, setNotice] = useState("");

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
  const chosenSteps = tree.filter((t) => chosen.includes(t.key));
  const oneList = chosenSteps.every((t) => listId(t.list) === listId(chosenSteps[0].list));
  const inBlock = chosenSteps.some((t) => t.list.length > 0);
  const moveBy = (moving: string[], delta: -1 | 1) => {
    const next = moveKeysBy(steps, moving, delta);
    if (next) onChange(next);
    else if (!oneList) setNotice("Steps in different blocks move one list at a time.");
  };
  const duplicate = () => {
    const { steps: next, copies } = duplicateKeys(steps, chosen);
    onChange(next);
    const copyKeys = copies.map((id) => `id:${id}`);
    setSel({ keys: copyKeys, current: copyKeys[copyKeys.length - 1] ?? null, anchor: copyKeys[0] ?? null });
  };
  const remove = () => {
    const next = removeKeys(steps, chosen);
    onChange(next);
    // Show the row that followed the last deleted one, else the one before.
    const gone = (k: string) => chosen.includes(k) || ancestors(k).some((a) => chosen.includes(a));
    const last = Math.max(...chosen.map((k) => order.indexOf(k)));
    const after = order.slice(last + 1).find((k) => !gone(k)) ?? [...order.slice(0, last)].reverse().find((k) => !gone(k));
    const nextKeys = walkTree(next).map((t) => t.key);
    setSel(after && nextKeys.includes(after) ? only(after) : EMPTY_SELECTION);
  };
  const addInto = (addr: ListAddr, at: number) => {
    const type = types.get(newType);
    if (!type) return;
    const step = newStep(type, steps, registry.locatorKinds);
    onChange(insertSteps(steps, addr, at, [step]));
    setSel(only(`id:${str(step.id)}`));
  };
  const currentStep = live.current ? byKey.get(live.current) : undefined;
  const add = () => (currentStep ? addInto(currentStep.list, currentStep.index + 1) : addInto([], steps.length));

  const onRowKey = (key: string, e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
    e.preventDefault();
    const delta = e.key === "ArrowUp" ? -1 : 1;
    if (e.altKey) {
      if (readOnly) return;
      const moving = live.keys.includes(key) ? live.keys : [key];
      if (!live.keys.includes(key)) setSel(only(key));
      moveBy(moving, delta);
      setFocusKey(key);
      return;
    }
    const next = order[order.indexOf(key) + delta];
    if (!next) return;
    setSel((s) => (e.shiftKey ? select(s, next, order, "range") : only(next)));
    setFocusKey(next);
  };

  const isOpenBlock = (t: TreeStep) => isBlock(t.step) && !collapsed.has(t.key);
  const drag = useStepDrag({ steps, tree, selected: live.keys, readOnly, isOpenBlock, onChange });

  const onListKey = (e: KeyboardEvent<HTMLElement>) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "a" && (e.target as HTMLElement).classList.contains("step-line")) {
      e.preventDefault();
      setSel((s) => selectAll(s, order));
    }
  };

  const current = currentStep?.step ?? null;
  const cursorId = current ? str(current.id) : null;
  useEffect(() => onCursor?.(cursorId), [cursorId, onCursor]);
  useEffect(() => setNotice(""), [chosen.join(" ")]); // eslint-disable-line react-hooks/exhaustive-deps
  const allSelected = order.length > 0 && order.every((k) => live.keys.includes(k));
  const n = chosen.length;
  // A run of steps at the top or bottom of the test's own list cannot move further that way.
  const idx = chosenSteps.map((t) => t.index);
  const top = oneList && n > 0 && chosenSteps[0].list.length === 0 && Math.max(...idx) - Math.min(...idx) + 1 === n;
  const note =
    n > 1 && !oneList
      ? "in different blocks: they delete and duplicate, but move one list at a time"
      : inBlock && selectionActions
        ? "in a block: Make component takes steps outside blocks"
        : "";

  // The problems of a collapsed block's steps show on its line.
  const problemsOf = (t: TreeStep) =>
    issueCount(issues[t.key]) + (collapsed.has(t.key) ? inside(t).reduce((s, d) => s + issueCount(issues[d.key]), 0) : 0);

  const endRow = (addr: ListAddr, label: string) =>
    readOnly ? null : (
      <li className={drag.endMark(addr) ? "add-here drop-before" : "add-here"} onDragOver={(e) => drag.overEnd(addr, e)} onDrop={drag.drop}>
        <button
          type="button"
          className="link small"
          aria-label={label}
          title={`Add a ${newType} step here`}
          onClick={() => addInto(addr, 1e9)}
        >
          + Add step here
        </button>
      </li>
    );
  const renderList = (list: JsonObject[], addr: ListAddr): ReactNode[] =>
    list.map((step, i) => {
      const t = byPlace.get(`${listId(addr)}:${i}`)!;
      const block = isBlock(step);
      const shut = collapsed.has(t.key);
      const count = block ? inside(t).length : 0;
      return (
        <StepCard
          key={t.key}
          number={t.number}
          stepKey={t.key}
          id={str(step.id)}
          text={describeStep(step, registry, names, fileNames)}
          problems={problemsOf(t)}
          mark={marks?.[str(step.id)]}
          selected={live.keys.includes(t.key)}
          current={live.current === t.key}
          readOnly={readOnly}
          dropAt={drag.rowMark(t)}
          block={
            block
              ? {
                  collapsed: shut,
                  count,
                  onToggle: () => setCollapsed((c) => (c.has(t.key) ? new Set([...c].filter((k) => k !== t.key)) : new Set([...c, t.key]))),
                }
              : undefined
          }
          onSelect={(mode) => setSel((s) => select(s, t.key, order, mode))}
          onKeyDown={(e) => onRowKey(t.key, e)}
          onDragStart={(e) => drag.start(t, e)}
          onDragOver={(e) => drag.overRow(t, e)}
          onDrop={drag.drop}
          onDragEnd={drag.end}
        >
          {block && !shut && (
            <div className="block-body">
              {branchesOf(step).map((b) => {
                const sub: ListAddr = [...addr, { index: i, branch: b }];
                return (
                  <div key={b} className={`block-branch branch-${b}`}>
                    {b === "else" && (
                      <div className="else-row" aria-label={`Else of step ${t.number}`}>
                        Else
                      </div>
                    )}
                    <ol className="step-list block-list" aria-label={`${b === "else" ? "Else steps" : "Steps"} of step ${t.number}`}>
                      {renderList(children(step, b), sub)}
                      {endRow(sub, b === "else" ? `Add else step to step ${t.number}` : `Add step into step ${t.number}`)}
                    </ol>
                  </div>
                );
              })}
            </div>
          )}
        </StepCard>
      );
    });

  return (
    <div className="editor-split">
      <section className="panel editor-steps" aria-labelledby="editor-steps-title" onKeyDown={onListKey}>
        <div className="steps-head">
          <input
            type="checkbox"
            aria-label="Select all steps"
            checked={allSelected}
            disabled={order.length === 0}
            onChange={() => setSel((s) => (allSelected ? { ...s, keys: [] } : selectAll(s, order)))}
          />
          <h2 id="editor-steps-title">Steps ({tree.length})</h2>
          {!readOnly && (
            <span className="row-buttons selection-actions" role="toolbar" aria-label="Selected steps">
              <span className="muted" role="status" aria-label="Selection">
                {notice || (live.keys.length > 1 ? `${live.keys.length} selected${note ? ` ${note}` : ""}` : note)}
              </span>
              <button
                type="button"
                className="small"
                aria-label="Move selected steps up"
                title="Move up (Alt+↑)"
                disabled={n === 0 || !oneList || (top && Math.min(...idx) === 0)}
                onClick={() => moveBy(chosen, -1)}
              >
                ↑
              </button>
              <button
                type="button"
                className="small"
                aria-label="Move selected steps down"
                title="Move down (Alt+↓)"
                disabled={n === 0 || !oneList || (top && Math.max(...idx) === steps.length - 1)}
                onClick={() => moveBy(chosen, 1)}
              >
                ↓
              </button>
              <button type="button" className="small" aria-label="Duplicate selected steps" disabled={n === 0} onClick={duplicate}>
                Duplicate
              </button>
              <button type="button" className="small" aria-label="Delete selected steps" disabled={n === 0} onClick={remove}>
                Delete
              </button>
              {selectionActions?.(inBlock ? [] : chosenSteps.map((t) => str(t.step.id)))}
            </span>
          )}
        </div>
        {steps.length === 0 && (
          <p className="muted">{readOnly ? "No steps." : "No steps yet. Add the first one below, or record them with Record."}</p>
        )}
        <ol className="step-list" ref={listRef} onDragLeave={(e) => e.currentTarget === e.target && drag.leave()}>
          {renderList(steps, [])}
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
        {currentStep && current ? (
          <StepInspector
            key={live.current}
            number={currentStep.number}
            step={current}
            text={describeStep(current, registry, names, fileNames)}
            registry={registry}
            stepType={types.get(str(current.type))}
            issues={issues[live.current ?? ""]}
            readOnly={readOnly}
            onChange={(s) => onChange(replaceStep(steps, currentStep.list, currentStep.index, s))}
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
