// The selected step's console lines and network requests, with the steps
// around it greyed (docs/trace.md "The run page"). Both lists are
// windowed tables of one-line rows: the whole text is in each row's title
// and, for a console line, shown below the list when its text is pressed.
import { useState } from "react";
import { formatDuration } from "../../../components/ui";
import { formatSize } from "../../../api/files";
import type { ConsoleEntry, NetworkEntry } from "../../../api/traceApi";
import { isFailedRequest, sinceStart, sourcePlace, type ListRow } from "./traceModel";
import { Windowed } from "./Windowed";

const ROW = 26;
const HEIGHT = 312;

interface ListProps<T> {
  rows: ListRow<T>[];
  /** A row's step as the timeline numbers it. */
  stepOf: (pos: number) => string;
  /** What an empty list says. */
  empty: string;
}

function Head({ cells }: { cells: string[] }) {
  return (
    <div role="rowgroup" className="trace-head">
      <div role="row" className="trace-row">
        {cells.map((c) => (
          <span key={c} role="columnheader" className={`trace-cell trace-col-${c.toLowerCase()}`}>
            {c}
          </span>
        ))}
      </div>
    </div>
  );
}

export function ConsoleList({ rows, stepOf, empty }: ListProps<ConsoleEntry>) {
  const [open, setOpen] = useState<ConsoleEntry | null>(null);
  if (rows.length === 0) return <p className="muted trace-empty">{empty}</p>;
  return (
    <>
      <div role="table" aria-label="Console lines" aria-rowcount={rows.length + 1} className="trace-table trace-console">
        <Head cells={["Step", "Time", "Level", "Text", "Source"]} />
        <Windowed
          count={rows.length}
          rowHeight={ROW}
          height={HEIGHT}
          inner={{ role: "rowgroup" }}
          row={(i) => {
            const { entry: c, step, near } = rows[i];
            const place = sourcePlace(c);
            return (
              <div
                key={i}
                role="row"
                aria-rowindex={i + 2}
                className={`trace-row trace-console-${c.level}${near ? " trace-near" : ""}${open === c ? " trace-row-open" : ""}`}
                style={{ height: ROW }}
              >
                <span role="cell" className="trace-cell trace-col-step">
                  {stepOf(step)}
                </span>
                <span role="cell" className="trace-cell trace-col-time">
                  {sinceStart(c.timeMs)}
                </span>
                <span role="cell" className="trace-cell trace-col-level">
                  {c.level}
                </span>
                <span role="cell" className="trace-cell trace-col-text" title={c.text}>
                  <button
                    type="button"
                    className="trace-text-button"
                    aria-expanded={open === c}
                    onClick={() => setOpen(open === c ? null : c)}
                  >
                    {c.source === "exception" && <span className="trace-source-tag">uncaught </span>}
                    {c.source === "browser" && <span className="trace-source-tag">browser </span>}
                    {c.text}
                  </button>
                </span>
                <span role="cell" className="trace-cell trace-col-source" title={c.url ?? ""}>
                  {place}
                </span>
              </div>
            );
          }}
        />
      </div>
      {open && (
        <pre className="trace-console-open" aria-label="The whole console line">
          {open.text}
          {open.url && `\n    at ${open.url}${open.line ? `:${open.line}` : ""}${open.line && open.column ? `:${open.column}` : ""}`}
        </pre>
      )}
    </>
  );
}

export function NetworkTable({ rows, stepOf, empty }: ListProps<NetworkEntry>) {
  if (rows.length === 0) return <p className="muted trace-empty">{empty}</p>;
  return (
    <div role="table" aria-label="Network requests" aria-rowcount={rows.length + 1} className="trace-table trace-network">
      <Head cells={["Step", "Time", "Method", "URL", "Status", "Type", "Duration", "Size"]} />
      <Windowed
        count={rows.length}
        rowHeight={ROW}
        height={HEIGHT}
        inner={{ role: "rowgroup" }}
        row={(i) => {
          const { entry: n, step, near } = rows[i];
          const bad = isFailedRequest(n);
          return (
            <div
              key={i}
              role="row"
              aria-rowindex={i + 2}
              data-failed={bad || undefined}
              className={`trace-row${bad ? " trace-net-bad" : ""}${near ? " trace-near" : ""}`}
              style={{ height: ROW }}
            >
              <span role="cell" className="trace-cell trace-col-step">
                {stepOf(step)}
              </span>
              <span role="cell" className="trace-cell trace-col-time">
                {sinceStart(n.timeMs)}
              </span>
              <span role="cell" className="trace-cell trace-col-method">
                {n.method}
              </span>
              <span role="cell" className="trace-cell trace-col-url" title={n.url}>
                {n.url}
              </span>
              <span role="cell" className="trace-cell trace-col-status" title={n.failure ?? ""}>
                {n.failure ? `failed: ${n.failure}` : (n.status ?? "no answer")}
              </span>
              <span role="cell" className="trace-cell trace-col-type">
                {n.type}
              </span>
              <span role="cell" className="trace-cell trace-col-duration">
                {formatDuration(n.durationMs)}
              </span>
              <span
                role="cell"
                className="trace-cell trace-col-size"
                title={`sent ${formatSize(n.requestBytes)}, received ${formatSize(n.responseBytes)}`}
              >
                {formatSize(n.responseBytes)}
              </span>
            </div>
          );
        }}
      />
    </div>
  );
}
