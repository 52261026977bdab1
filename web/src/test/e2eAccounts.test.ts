// The end-to-end specs share one hub: two specs registering the same
// account pass alone and fail together (email_taken). Twice a new spec
// reused another's address; this keeps every spec's account its own.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

describe("end-to-end specs", () => {
  it("each register accounts no other spec registers", () => {
    const dir = join(__dirname, "../../e2e");
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".spec.ts"))) {
      const text = readFileSync(join(dir, file), "utf8");
      for (const [, email] of text.matchAll(/email: "([^"]+@[^"]+)"/g)) {
        const first = owner.get(email);
        if (first && first !== file) clashes.push(`${email}: ${first} and ${file}`);
        else owner.set(email, file);
      }
    }
    expect(owner.size).toBeGreaterThan(5);
    expect(clashes).toEqual([]);
  });
});
