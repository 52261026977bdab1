// Drag and drop in the step list: the dragged row carries the selection
// when it is part of it (and the selection is one list), and lands before
// a row (upper half), after it (lower half), first into an open block
// (lower half of its line), or at the end of a block's list (its "Add
// step here" row). Dropping a block into itself changes nothing.
import { useState, type DragEvent } from "react";
import type { JsonObject } from "../../api/editorApi";
import { listAt, listId, moveKeysTo, type ListAddr, type TreeStep } from "./stepTree";

export interface DropPlace {
  addr: ListAddr;
  at: number;
}

export function useStepDrag({
  steps,
  tree,
  selected,
  readOnly,
  isOpenBlock,
  onChange,
}: {
  steps: JsonObject[];
  tree: TreeStep[];
  selected: string[];
  readOnly: boolean;
  isOpenBlock: (t: TreeStep) => boolean;
  onChange: (steps: JsonObject[]) => void;
}) {
  const [drag, setDrag] = useState<{ keys: string[]; over: DropPlace | null } | null>(null);

  const start = (t: TreeStep, e: DragEvent<HTMLElement>) => {
    if (readOnly) return;
    const chosen = tree.filter((x) => selected.includes(x.key));
    const oneList = chosen.every((x) => listId(x.list) === listId(chosen[0].list));
    const moving = selected.includes(t.key) && oneList ? chosen.map((x) => x.key) : [t.key];
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", moving.join(" "));
    setDrag({ keys: moving, over: null });
  };
  const hover = (over: DropPlace, e: DragEvent<HTMLElement>) => {
    if (!drag) return;
    e.preventDefault();
    e.stopPropagation();
    e.dataTransfer.dropEffect = "move";
    if (!drag.over || listId(drag.over.addr) !== listId(over.addr) || drag.over.at !== over.at) setDrag({ ...drag, over });
  };
  const overRow = (t: TreeStep, e: DragEvent<HTMLElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const upper = e.clientY < box.top + box.height / 2;
    if (upper) hover({ addr: t.list, at: t.index }, e);
    else if (isOpenBlock(t)) hover({ addr: [...t.list, { index: t.index, branch: "steps" }], at: 0 }, e);
    else hover({ addr: t.list, at: t.index + 1 }, e);
  };
  const overEnd = (addr: ListAddr, e: DragEvent<HTMLElement>) => hover({ addr, at: listAt(steps, addr).length }, e);
  const drop = (e: DragEvent<HTMLElement>) => {
    e.preventDefault();
    e.stopPropagation();
    if (drag?.over) {
      const next = moveKeysTo(steps, drag.keys, drag.over.addr, drag.over.at);
      if (next) onChange(next);
    }
    setDrag(null);
  };

  /** rowMark says where the drop lands as seen from a row. */
  const rowMark = (t: TreeStep): "before" | "after" | "into" | null => {
    const o = drag?.over;
    if (!o) return null;
    if (isOpenBlock(t) && o.at === 0 && listId(o.addr) === listId([...t.list, { index: t.index, branch: "steps" }])) return "into";
    if (listId(o.addr) !== listId(t.list)) return null;
    if (o.at === t.index) return "before";
    // After the last row of the test's own list (a block's list has its end row).
    return o.at === t.index + 1 && t.list.length === 0 && t.index === steps.length - 1 ? "after" : null;
  };
  /** endMark says whether the drop lands at the end of the list at addr. */
  const endMark = (addr: ListAddr) =>
    !!drag?.over && listId(drag.over.addr) === listId(addr) && drag.over.at === listAt(steps, addr).length;

  return {
    start,
    overRow,
    overEnd,
    drop,
    end: () => setDrag(null),
    leave: () => setDrag((d) => d && { ...d, over: null }),
    rowMark,
    endMark,
  };
}
