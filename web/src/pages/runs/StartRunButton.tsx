import type { Test } from "../../api";

export function StartRunButton({ test }: { test: Test }) {
  return <button disabled={!test.can.run}>Run</button>;
}
