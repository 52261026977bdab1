// CSV as spreadsheets write it (RFC 4180): the first line names the
// columns, fields may be quoted ("" inside quotes is one "), lines end in
// LF or CRLF, a byte order mark at the start is dropped. The hub reads CSV
// the same way (hub/api/datatable.go); this copy shows a file in the grid
// before it is saved.

export interface ParsedCsv {
  columns: string[];
  rows: string[][];
  /** Lines whose field count differs from the header's (padded or cut to fit). */
  problems: string[];
}

/** parseCsv reads text, or answers { error } naming the line of a broken quote. */
export function parseCsv(text: string): ParsedCsv | { error: string } {
  const src = text.startsWith("\ufeff") ? text.slice(1) : text;
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let i = 0;
  let quoted = false; // inside a quoted field
  let wasQuoted = false; // the current field was quoted (so "" is a value, not an empty line)
  const endRecord = () => {
    fields.push(field);
    // An empty line is no record (as Go's encoding/csv skips it).
    if (!(fields.length === 1 && fields[0] === "" && !wasQuoted)) records.push({ line: recordLine, fields });
    fields = [];
    field = "";
    wasQuoted = false;
  };
  while (i < src.length) {
    const c = src[i];
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        const next = src[i];
        if (next !== undefined && next !== "," && next !== "\n" && next !== "\r") {
          return { error: `line ${line}: a quoted field must end at a comma or the end of the line` };
        }
        continue;
      }
      if (c === "\n") line++;
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === "") {
      quoted = true;
      wasQuoted = true;
      i++;
      continue;
    }
    if (c === ",") {
      fields.push(field);
      field = "";
      i++;
      continue;
    }
    if (c === "\r" && src[i + 1] === "\n") {
      i++;
      continue;
    }
    if (c === "\n") {
      endRecord();
      line++;
      recordLine = line;
      i++;
      continue;
    }
    field += c;
    i++;
  }
  if (quoted) return { error: `line ${recordLine}: a quoted field is not closed` };
  if (field !== "" || fields.length > 0 || wasQuoted) endRecord();
  if (records.length === 0) return { error: "the file is empty: its first line names the columns" };
  const [header, ...rest] = records;
  const columns = header.fields.map((c) => c.trim());
  const problems: string[] = [];
  const rows = rest.map((r) => {
    if (r.fields.length !== columns.length) {
      problems.push(
        `line ${r.line} has ${r.fields.length} field${r.fields.length === 1 ? "" : "s"}, the header line has ${columns.length}`,
      );
    }
    return columns.map((_, j) => r.fields[j] ?? "");
  });
  return { columns, rows, problems };
}

function quote(v: string): string {
  return /[",\r\n]/.test(v) || /^\s|\s$/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/** toCsv writes columns and rows as CSV text, CRLF line ends as RFC 4180 has them. */
export function toCsv(columns: string[], rows: string[][]): string {
  return [columns, ...rows].map((r) => r.map(quote).join(",")).join("\r\n") + "\r\n";
}
