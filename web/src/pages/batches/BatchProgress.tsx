// A batch's progress bar in the colours of its runs' outcomes: passed green,
// failed red, error a darker hatched red (the infrastructure, not the
// test), cancelled grey, running blue; what has not started yet is empty.
// A plain <progress> was all blue, even for a failed batch.
import type { Batch } from "../../api/batches";
import type { RunStatus } from "../../api/runs";

const order: RunStatus[] = ["passed", "failed", "error", "cancelled", "running"];

export function BatchProgress({ b }: { b: Pick<Batch, "counts" | "total"> }) {
  const done = b.total - b.counts.queued - b.counts.running;
  const parts = order.filter((s) => b.counts[s] > 0);
  const words = parts.map((s) => `${b.counts[s]} ${s}`).join(", ");
  return (
    <div
      className="batch-bar"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={Math.max(b.total, 1)}
      aria-valuenow={done}
      aria-valuetext={words || "not started"}
      aria-label={`${done} of ${b.total} runs finished`}
    >
      {parts.map((s) => (
        <span
          key={s}
          className={`batch-bar-part batch-bar-${s}`}
          data-testid={`bar-${s}`}
          style={{ width: `${(b.counts[s] / Math.max(b.total, 1)) * 100}%` }}
          title={`${b.counts[s]} ${s}`}
        />
      ))}
    </div>
  );
}
