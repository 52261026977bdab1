// @vitest-environment node
// The API types are generated from the hub's OpenAPI document
// (src/api/openapi.json, itself checked against the hub by the Go test
// TestOpenAPIFileCurrent): this fails when schema.d.ts was not regenerated.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";

test("schema.d.ts is generated from openapi.json (run npm run api-types)", async () => {
  const dir = resolve(__dirname);
  const doc = JSON.parse(readFileSync(resolve(dir, "openapi.json"), "utf8"));
  const ast = await openapiTS(doc);
  const checkedIn = readFileSync(resolve(dir, "schema.d.ts"), "utf8");
  expect(checkedIn.endsWith(astToString(ast))).toBe(true);
});
