import { describe, expect, it } from "vitest";
import { parseCsv, toCsv } from "./csv";

describe("parseCsv", () => {
  it("reads a header and rows, quoted fields, CRLF and a byte order mark", () => {
    const r = parseCsv('\ufeffemail,note\r\nann@example.com,"says ""hi"", twice"\r\nbob@example.com,"two\nlines"\r\n');
    expect(r).toEqual({
      columns: ["email", "note"],
      rows: [
        ["ann@example.com", 'says "hi", twice'],
        ["bob@example.com", "two\nlines"],
      ],
      problems: [],
    });
  });

  it("skips empty lines, keeps a quoted empty value and reads a last line without a line end", () => {
    expect(parseCsv('a,b\n\n1,2\n""\n3,4')).toEqual({
      columns: ["a", "b"],
      rows: [
        ["1", "2"],
        ["", ""],
        ["3", "4"],
      ],
      problems: ["line 4 has 1 field, the header line has 2"],
    });
  });

  it("names the line of a broken quote and refuses an empty file", () => {
    expect(parseCsv('a\n"open\n')).toEqual({ error: "line 2: a quoted field is not closed" });
    expect(parseCsv('a\n"x"y\n')).toEqual({ error: "line 2: a quoted field must end at a comma or the end of the line" });
    expect(parseCsv("")).toEqual({ error: "the file is empty: its first line names the columns" });
  });

  it("reads back what toCsv writes", () => {
    const rows = [
      ["a,b", 'q"uote'],
      [" pad ", "line\nbreak"],
    ];
    const r = parseCsv(toCsv(["x", "y"], rows));
    expect(r).toEqual({ columns: ["x", "y"], rows, problems: [] });
  });
});
